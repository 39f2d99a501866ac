"""Specification: what `grad` and `trace` refuse, and that each refusal tells a learner what went
wrong and the call that works, in English and in Chinese (``speaking("zh")``).

Two promises are checked on the way. `grad` has the side effects of ``torch.autograd.grad``: a
graph whose saved tensors come back through a hook with side effects (a non-reentrant
checkpoint's forward, run again) is refused before anything runs. `trace` has the side effects of
``backward()``, checkpoint included.
"""

import sys
import threading

import pytest
import torch
from speaks import assert_speaks_chinese
from test_backward import Noisy
from torch import nn
from torch.utils.checkpoint import checkpoint

from helpers.backward import CannotMatchPyTorch, grad, trace
from helpers.backward.refusals import READS_UNPACK_HOOKS, noticing_checkpoints
from helpers.language import speaking


def refusal(make_the_error, error_type, *english: str, code: str) -> str:
    """The English text of the error ``make_the_error()`` raises, checked to contain each of
    ``english``; the same error in Chinese is Chinese prose that keeps ``code`` as it is."""
    with speaking("zh"), pytest.raises(error_type) as in_chinese:
        make_the_error()
    assert_speaks_chinese(str(in_chinese.value))
    assert code in str(in_chinese.value), str(in_chinese.value)
    with pytest.raises(error_type) as in_english:
        make_the_error()
    said = str(in_english.value)
    for fragment in english:
        assert fragment in said, said
    return said


# --- grad and checkpoints: the forward runs again only as often as in torch.autograd.grad -------


class CountedBlock(nn.Module):
    """Linear, then BatchNorm, counting how often its forward runs (as a print would show)."""

    def __init__(self) -> None:
        super().__init__()
        torch.manual_seed(0)
        self.linear = nn.Linear(3, 3)
        self.norm = nn.BatchNorm1d(3)
        self.forwards = 0

    def forward(self, x):
        self.forwards += 1
        return self.norm(self.linear(x)).relu()


def checkpointed(block: CountedBlock, x: torch.Tensor) -> torch.Tensor:
    return checkpoint(block, x, use_reentrant=False).pow(2).sum()


OLDER_TORCH = "this torch hides a saved tensor's unpack hook (NOTE [unpack hooks on older torch])"


@pytest.mark.skipif(not READS_UNPACK_HOOKS, reason=OLDER_TORCH)
def test_grad_refuses_a_checkpoint_before_its_forward_runs_again():
    block = CountedBlock()
    x = torch.randn(4, 3, requires_grad=True)
    y = checkpointed(block, x)
    assert (block.forwards, block.norm.num_batches_tracked.item()) == (1, 1)
    with pytest.raises(CannotMatchPyTorch, match=r"use_reentrant=False.*torch\.autograd\.grad"):
        grad(y, [x])
    # Nothing ran: the forward did not run again, BatchNorm counted no batch, no .grad written.
    assert (block.forwards, block.norm.num_batches_tracked.item()) == (1, 1)
    assert x.grad is None and block.linear.weight.grad is None
    torch.autograd.grad(y, [x])  # what the refusal advises works, running the forward once
    assert (block.forwards, block.norm.num_batches_tracked.item()) == (2, 2)


@pytest.mark.skipif(READS_UNPACK_HOOKS, reason="this torch shows unpack hooks: refused before")
def test_on_an_older_torch_grad_stops_a_checkpoint_after_pytorchs_pass_ran_it_once():
    block = CountedBlock()
    x = torch.randn(4, 3, requires_grad=True)
    y = checkpointed(block, x)
    with pytest.raises(CannotMatchPyTorch, match=r"use_reentrant=False.*ran again.*stops here"):
        grad(y, [x])
    # The forward ran once more, in PyTorch's pass, as in torch.autograd.grad, and no more.
    assert (block.forwards, block.norm.num_batches_tracked.item()) == (2, 2)
    assert x.grad is None and block.linear.weight.grad is None


def test_noticing_checkpoints_keeps_a_profiler_the_learner_runs():
    calls = []

    def learners_profiler(frame, event, arg):
        if event == "call":
            calls.append(frame.f_code.co_name)

    sys.setprofile(learners_profiler)
    try:
        with noticing_checkpoints():
            CountedBlock()(torch.randn(4, 3))
        assert sys.getprofile() is learners_profiler
    finally:
        sys.setprofile(None)
    assert "forward" in calls


def test_a_refused_checkpoint_is_explained_in_chinese():
    block = CountedBlock()
    x = torch.randn(4, 3, requires_grad=True)
    y = checkpointed(block, x)
    refusal(
        lambda: grad(y, x),
        CannotMatchPyTorch,
        "use_reentrant=False",
        "BatchNorm",
        "trace(output)",
        code="torch.autograd.grad(output, inputs)",
    )


def test_grad_runs_a_graph_whose_checkpoint_is_not_on_the_way_to_its_inputs():
    block = CountedBlock()
    x = torch.randn(4, 3, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    y = checkpointed(block, x) + b * b  # the gradient for b does not go through the checkpoint
    assert grad(y, b) == torch.autograd.grad(y, b, retain_graph=True)
    assert block.forwards == 1


def test_a_reentrant_checkpoints_refusal_no_longer_sends_the_learner_to_grad_again():
    lin = nn.Linear(3, 3)
    x = torch.randn(2, 3, requires_grad=True)
    y = checkpoint(lin, x, use_reentrant=True).sum()
    said = refusal(lambda: grad(y, x), RuntimeError, "torch.autograd.grad", code="use_reentrant")
    assert "use_reentrant=False and call torch.autograd.grad" in said


def test_trace_of_a_checkpoint_has_the_side_effects_of_backward():
    traced, plain = CountedBlock(), CountedBlock()
    x = torch.randn(4, 3)
    y_traced, y_plain = checkpointed(traced, x.requires_grad_()), checkpointed(plain, x)
    steps = trace(y_traced)
    y_plain.backward()
    assert len(steps) > 0
    assert traced.forwards == plain.forwards == 2
    assert traced.norm.num_batches_tracked == plain.norm.num_batches_tracked == 2
    for mine, theirs in zip(traced.parameters(), plain.parameters(), strict=True):
        assert torch.equal(mine.grad, theirs.grad)


@pytest.mark.skipif(not READS_UNPACK_HOOKS, reason=OLDER_TORCH)
def test_grad_refuses_a_saved_tensors_unpack_hook_before_running_it():
    unpacked = []

    def unpack(tensor):
        unpacked.append(tensor.shape)
        return tensor

    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.saved_tensors_hooks(lambda tensor: tensor, unpack):
        y = (x.exp() * x).sum()
    refusal(
        lambda: grad(y, x),
        CannotMatchPyTorch,
        "saved_tensors_hooks",
        "unpack",
        code="torch.autograd.grad(output, inputs)",
    )
    assert unpacked == []


def test_grad_runs_a_graph_saved_on_the_cpu():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.autograd.graph.save_on_cpu():  # its unpack hook only copies back: no side effect
        y = (x.exp() * x).sum()
    assert torch.equal(grad(y, x)[0], torch.autograd.grad(y, x)[0])


# --- what grad is given ------------------------------------------------------------------------


def test_inputs_none_is_refused_with_the_call_that_works():
    x = torch.tensor(2.0, requires_grad=True)
    refusal(lambda: grad(x * x, None), TypeError, "got None", "grad(y, [w, b])", code="None")


def test_a_model_as_inputs_is_refused_with_its_parameters_as_the_call_that_works():
    model = nn.Linear(2, 1)
    loss = model(torch.ones(1, 2)).sum()
    refusal(
        lambda: grad(loss, model),
        TypeError,
        "module (Linear)",
        code="grad(loss, list(model.parameters()))",
    )


def test_a_model_inside_inputs_is_refused_with_its_parameters_as_the_call_that_works():
    model = nn.Linear(2, 1)
    loss = model(torch.ones(1, 2)).sum()
    refusal(
        lambda: grad(loss, [model]),
        TypeError,
        "inputs[0] is a module (Linear)",
        code="list(model.parameters())",
    )


def test_a_dict_as_inputs_is_refused_with_its_values_as_the_call_that_works():
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    refusal(
        lambda: grad(w * 3 + b, {"w": w, "b": b}),
        TypeError,
        "inputs is a dict",
        "keys",
        code="grad(loss, list(d.values()))",
    )


def test_named_parameters_as_inputs_are_refused_with_the_call_that_works():
    model = nn.Linear(2, 1)
    loss = model(torch.ones(1, 2)).sum()
    refusal(
        lambda: grad(loss, model.named_parameters()),
        TypeError,
        "(name, tensor) pairs",
        code="[p for _, p in model.named_parameters()]",
    )


@pytest.mark.parametrize(
    "run",
    [lambda outputs, x: grad(outputs, x), lambda outputs, x: trace(outputs)],
    ids=["grad", "trace"],
)
def test_a_list_of_outputs_is_refused_with_their_sum_as_the_call_that_works(run):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    outputs = [(x * x).sum(), x.exp().sum()]
    refusal(lambda: run(outputs, x), TypeError, "list of 2", code="y1.sum() + y2.sum()")
    assert x.grad is None


# --- what trace is given -----------------------------------------------------------------------


def test_a_retain_graph_that_is_not_true_or_false_is_refused_before_anything_runs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    refusal(
        lambda: trace(y, retain_graph="yes"),
        TypeError,
        "got 'yes'",
        code="retain_graph=True",
    )
    assert x.grad is None
    assert len(trace(y)) > 0  # the graph is still there to trace


# --- nested tensors: refused, before anything runs ---------------------------------------------


def pieces():
    torch.manual_seed(0)
    return torch.randn(2, 3, requires_grad=True), torch.randn(4, 3, requires_grad=True)


@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")
@pytest.mark.parametrize(
    "run",
    [lambda y, go, a: trace(y, go), lambda y, go, a: grad(y, a, go)],
    ids=["trace", "grad"],
)
def test_a_nested_output_is_refused_in_both_languages(run):
    a, b = pieces()
    y = torch.nested.as_nested_tensor([a, b]) * 2
    go = torch.ones_like(y)
    refusal(lambda: run(y, go, a), ValueError, "output is a nested tensor", code="torch.nested")
    assert a.grad is None


@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")
@pytest.mark.parametrize("layout", [torch.strided, torch.jagged], ids=["strided", "jagged"])
def test_a_nested_tensor_inside_the_graph_is_refused_by_trace_before_anything_runs(layout):
    a, b = pieces()
    nested = torch.nested.as_nested_tensor([a, b], layout=layout) * 2
    y = torch.nested.to_padded_tensor(nested, 0.0).sum()
    refusal(
        lambda: trace(y, retain_graph=True),
        ValueError,
        "This graph holds a nested tensor",
        "output.backward()",
        code="torch.nested",
    )
    assert a.grad is None and b.grad is None


@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")
def test_a_nested_tensor_inside_the_graph_is_refused_by_grad():
    a, b = pieces()
    y = torch.nested.to_padded_tensor(torch.nested.as_nested_tensor([a, b]) * 2, 0.0).sum()
    refusal(lambda: grad(y, [a, b]), ValueError, "torch.autograd.grad", code="torch.nested")


def test_a_nested_input_is_refused_by_grad():
    leaf = torch.nested.nested_tensor(
        [torch.randn(2, 3), torch.randn(4, 3)], layout=torch.jagged, requires_grad=True
    )
    y = (leaf * 3).values().sum()
    refusal(lambda: grad(y, [leaf]), ValueError, "inputs[0] is a nested tensor", code="inputs[0]")


# --- a custom backward that works only once ----------------------------------------------------


class Once(torch.autograd.Function):
    """Multiplies by 2; its backward takes the factor off a list, so it works once only."""

    @staticmethod
    def forward(ctx, x):
        ctx.factors = [2.0]
        return x * 2

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.factors.pop()


def test_a_backward_that_works_only_once_is_explained():
    def run():
        x = torch.tensor([1.0, 2.0], requires_grad=True)
        grad(Once.apply(x).sum(), x)

    said = refusal(run, CannotMatchPyTorch, "IndexError", "twice", code="pop()")
    assert "OnceBackward" in said and "torch.autograd.grad" in said


# --- refusals that name the culprit and say what to do -----------------------------------------


def test_a_module_hook_refusal_names_only_modules_that_may_be_in_the_graph():
    torch.manual_seed(0)
    layer, unused = nn.Linear(2, 2), nn.Linear(2, 2)

    def silence_inputs(module, grad_input, grad_output):
        return (grad_input[0] * 0,)

    def looks_only(module, grad_input, grad_output):
        return None

    layer.register_full_backward_hook(silence_inputs)
    unused.register_full_backward_hook(looks_only)  # its parameters are in no graph below
    x = torch.randn(3, 2, requires_grad=True)
    # Called here, not in a lambda: grad names the modules among the caller's variables.
    with speaking("zh"), pytest.raises(CannotMatchPyTorch) as in_chinese:
        grad(layer(x).sum(), x)
    with pytest.raises(CannotMatchPyTorch) as in_english:
        grad(layer(x).sum(), x)
    assert_speaks_chinese(str(in_chinese.value))
    assert "模块 layer 上的反向钩子（silence_inputs）" in str(in_chinese.value)
    assert "on layer (silence_inputs)" in str(in_english.value)
    for said in (str(in_chinese.value), str(in_english.value)):
        assert "unused" not in said and "looks_only" not in said


def test_a_legacy_module_hook_is_named_with_the_hook_to_use_instead():
    torch.manual_seed(0)
    layer = nn.Linear(2, 2)

    def double(module, grad_input, grad_output):
        return tuple(None if g is None else g * 2 for g in grad_input)

    layer.register_backward_hook(double)
    x = torch.randn(1, 2, requires_grad=True)
    with pytest.warns(FutureWarning, match="non-full backward hook"):
        y = layer(x).sum()
    said = refusal(
        lambda: grad(y, [x, layer.weight]),
        CannotMatchPyTorch,
        "on layer (double)",
        "register_backward_hook",
        "torch.autograd.grad",
        code="register_full_backward_hook",
    )
    assert "grad_fn.register_hook" not in said  # not blamed on a hook the learner never wrote


@pytest.fixture
def deterministic_algorithms():
    was = torch.are_deterministic_algorithms_enabled()
    torch.use_deterministic_algorithms(True)
    yield
    torch.use_deterministic_algorithms(was)


def test_a_random_backward_is_not_sent_to_deterministic_algorithms_already_on(
    deterministic_algorithms,
):
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Noisy.apply(a).sum()
    said = refusal(
        lambda: grad(y, a),
        CannotMatchPyTorch,
        "is on",
        "torch.autograd.grad",
        code="torch.use_deterministic_algorithms(True)",
    )
    assert "or call torch.use_deterministic_algorithms(True) first" not in said


def built_in_four_threads():
    """A sum of five branches from one leaf, four of them recorded in threads of their own:
    each thread numbers its nodes from 0, so nodes of different branches share numbers."""
    torch.manual_seed(0)
    w = torch.randn(5, requires_grad=True)
    branches = {}

    def build(k):
        h = w
        for _ in range(3):
            h = (h * torch.randn(5)).sin()
        branches[k] = h

    for k in range(4):
        thread = threading.Thread(target=build, args=(k,))
        thread.start()
        thread.join()
    build(4)
    return sum(h * (1 + k) for k, h in branches.items()).sum(), w


def test_a_graph_built_across_threads_is_explained_with_what_to_do():
    y, w = built_in_four_threads()
    refusal(
        lambda: grad(y, w),
        CannotMatchPyTorch,
        "different threads",
        "Build the whole graph in one thread",
        code="torch.autograd.grad",
    )


def test_grad_refuses_a_reentrant_checkpoint_whose_parameters_it_would_answer_none_for():
    # torch.autograd.grad(..., allow_unused=True) gives None for lin.weight, used inside the
    # checkpoint, where loss.backward() fills its .grad.
    lin, head = nn.Linear(3, 3), nn.Linear(3, 1)
    x = torch.randn(2, 3, requires_grad=True)
    loss = head(checkpoint(lin, x, use_reentrant=True)).sum()
    assert torch.autograd.grad(loss, lin.weight, allow_unused=True, retain_graph=True) == (None,)
    said = refusal(
        lambda: grad(loss, [lin.weight, head.weight]),
        RuntimeError,
        "use_reentrant=True",
        "None",
        code="output.backward()",
    )
    assert "gives None for a parameter used inside it" in said
    assert lin.weight.grad is None and head.weight.grad is None


def test_compare_refuses_a_reentrant_checkpoint_before_writing_any_grad():
    from helpers.backward import compare

    lin = nn.Linear(3, 3)
    x = torch.randn(2, 3, requires_grad=True)
    y = checkpoint(lin, x, use_reentrant=True)
    loss = y.sum()
    said = refusal(
        lambda: compare(loss, {y: torch.ones(2, 3)}),
        RuntimeError,
        "use_reentrant=True",
        "compare",
        code="use_reentrant=False",
    )
    assert "compare promises to change no .grad" in said
    assert lin.weight.grad is None and x.grad is None

"""Specification: every text helpers.backward and helpers.backward_view show a learner speaks the
learner's language.

Each error below is made for real, by a misuse a learner could write, once in English and once
under ``speaking("zh")``: in Chinese it is Chinese prose with the code left as code (one key
fragment of code is checked to survive), and in English it has no Chinese in it. The English
wording itself is specified by tests/test_backward.py and tests/test_backward_view.py.
"""

import pytest
import torch
from speaks import assert_each_language, assert_speaks_chinese, raised
from test_backward import BlocksItsInput, Forgetful, LeavesNoneAsNone, Noisy
from torch import nn
from torch.utils.checkpoint import checkpoint

from helpers import graph
from helpers.backward import CannotMatchPyTorch, checked_grad, engine, grad, trace
from helpers.backward_view import MAX_FRAMES, frames, step_through, table_html, table_text
from helpers.graph import NODES_SAFE_TO_SEE
from helpers.language import speaking

CHINESE = r"[\u4e00-\u9fff]"


def neuron():
    """relu(w * x + b) with w = 2, x = 3, b = 1: the neuron of notebook 03."""
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    x = torch.tensor(3.0)
    return torch.relu(w * x + b), w, b


def zero(g):
    """A tensor hook that zeros the gradient passing through."""
    return g * 0


# --- trace and grad: what they are given -------------------------------------------------------


# trace(output) and grad(output, [x]): both check output first.
BOTH = pytest.mark.parametrize(
    "run",
    [lambda output, x: trace(output), lambda output, x: grad(output, [x])],
    ids=["trace", "grad"],
)


@BOTH
def test_an_output_that_is_not_a_tensor_is_refused_in_chinese(run):
    x = torch.tensor(2.0, requires_grad=True)
    assert_each_language(lambda: run(2.0, x), TypeError, "float")


@BOTH
def test_an_output_that_does_not_require_grad_is_refused_in_chinese(run):
    x = torch.tensor([1.0, 2.0])
    y = x.sum()
    assert_each_language(lambda: run(y, x), ValueError, "requires_grad=True")


@BOTH
def test_a_non_scalar_output_without_grad_output_is_refused_in_chinese(run):
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    assert_each_language(lambda: run(y, x), ValueError, "torch.ones_like(output)")


def test_a_complex_output_without_grad_output_is_refused_in_chinese():
    z = torch.tensor(1 + 2j, requires_grad=True)
    assert_each_language(lambda: grad(z * z, z), ValueError, "output.abs()")


@pytest.mark.parametrize(
    "grad_output, described",
    [(torch.ones(3), "形状为 (3,) 的张量"), ([1.0, 2.0], "list")],
    ids=["tensor of another shape", "a list"],
)
def test_grad_output_of_the_wrong_shape_is_refused_in_chinese(grad_output, described):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    assert_each_language(lambda: trace(x * 2, grad_output), ValueError, "(2,)")
    with speaking("zh"):
        assert described in str(raised(lambda: grad(x * 2, x, grad_output)))


def test_grad_output_on_another_device_is_refused_in_chinese():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    elsewhere = torch.ones(2, device="meta")  # stands in for a GPU tensor: no GPU here
    assert_each_language(lambda: grad(x * 2, x, elsewhere), ValueError, ".to(output.device)")


def test_empty_inputs_are_refused_in_chinese():
    x = torch.tensor(2.0, requires_grad=True)
    assert_each_language(lambda: grad(x * x, []), ValueError, "grad(y, [w, b])")


def test_an_input_that_is_not_a_tensor_is_refused_in_chinese():
    x = torch.tensor(2.0, requires_grad=True)
    assert_each_language(lambda: grad(x * x, [x, [1.0]]), TypeError, "inputs[1]")


def test_an_input_that_does_not_require_grad_is_refused_in_chinese():
    x = torch.tensor(2.0, requires_grad=True)
    assert_each_language(lambda: grad(x * x, [x, torch.ones(1)]), ValueError, "inputs[1]")


def test_a_graph_bigger_than_the_helpers_look_at_is_refused_in_chinese():
    h = torch.tensor(1.0, requires_grad=True)
    for _ in range(NODES_SAFE_TO_SEE + 1):
        h = torch.sin(h)
    assert_each_language(lambda: trace(h), ValueError, "output.backward()")
    with speaking("zh"):
        assert "5,000" in str(raised(lambda: grad(h, h)))


# --- what PyTorch's engine refuses -------------------------------------------------------------


@BOTH
def test_a_graph_already_used_by_a_backward_pass_is_refused_in_chinese(run):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x.exp() * x).sum()
    y.backward()
    assert_each_language(lambda: run(y, x), RuntimeError, "y.backward(retain_graph=True)")


def test_a_reentrant_checkpoint_is_refused_in_chinese():
    torch.manual_seed(0)
    lin = nn.Linear(3, 3)
    x = torch.randn(2, 3, requires_grad=True)
    y = checkpoint(lin, x, use_reentrant=True).sum()
    assert_each_language(lambda: grad(y, x), RuntimeError, "use_reentrant=False")


def test_a_custom_backward_returning_too_few_gradients_is_refused_in_chinese():
    x = torch.tensor(2.0, requires_grad=True)
    output = Forgetful.apply(x, torch.tensor(3.0))
    for run in (lambda: grad(output, [x]), lambda: trace(output, retain_graph=True)):
        # PyTorch's own words are quoted as they are, with the advice around them in Chinese.
        assert_each_language(run, RuntimeError, "incorrect number of gradients")


class ForgetfulSecondTime(torch.autograd.Function):
    """Returns both gradients to PyTorch's engine, then only one to the by-hand engine."""

    calls = 0

    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, grad_output):
        ForgetfulSecondTime.calls += 1
        both = (grad_output * 3, grad_output * 2)
        return both if ForgetfulSecondTime.calls % 2 else both[:1]


def test_a_custom_backward_returning_too_few_gradients_to_the_by_hand_engine_in_chinese():
    x = torch.tensor(2.0, requires_grad=True)
    y = torch.tensor(3.0, requires_grad=True)
    ForgetfulSecondTime.calls = 0
    assert_each_language(
        lambda: grad(ForgetfulSecondTime.apply(x, y), [x, y]), RuntimeError, "None"
    )
    with speaking("zh"):
        said = str(raised(lambda: grad(ForgetfulSecondTime.apply(x, y), [x, y])))
    assert said.startswith(
        "ForgetfulSecondTimeBackward：backward 返回了 1 个梯度，但 forward 接收了 2 个"
    )


# --- CannotMatchPyTorch: every sentence its explanation can be made of ---------------------------


# grad names tensors and modules by the variables of the code that called it, as a notebook cell
# does: these tests call it from their own body, not from a lambda.


def test_a_hook_on_a_non_leaf_that_changed_its_gradient_is_named_in_chinese():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.register_hook(zero)
    y = (h * h).sum()
    with speaking("zh"), pytest.raises(CannotMatchPyTorch) as refused:
        grad(y, a)
    said = str(refused.value)
    assert_speaks_chinese(said)
    assert "MulBackward0（它计算出了 h）" in said and "h.register_hook" in said
    assert "[0, 0]" in said and "[6, 12]" in said
    assert "torch.autograd.grad" in said and "trace(output, retain_graph=True)" in said


def test_two_hooks_on_one_tensor_are_listed_in_chinese():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.register_hook(zero)
    h.register_hook(lambda g: g + 1)
    y = (h * h).sum()
    with speaking("zh"), pytest.raises(CannotMatchPyTorch) as refused:
        grad(y, a)
    assert_speaks_chinese(str(refused.value))
    assert "zero、`h.register_hook(lambda g: g + 1)`" in str(refused.value)


def test_a_lambda_whose_source_cannot_be_read_is_named_in_chinese():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.register_hook(eval("lambda g: g * 0"))  # no source file to read its line from
    y = (h * h).sum()
    with speaking("zh"), pytest.raises(CannotMatchPyTorch) as refused:
        grad(y, a)
    assert_speaks_chinese(str(refused.value))
    assert "（一个 lambda 函数，用 h.register_hook 注册）" in str(refused.value)


def test_a_node_pre_hook_that_changed_what_it_received_is_suspected_in_chinese():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.grad_fn.register_prehook(lambda grads: (grads[0] * 10,))
    y = (h * h).sum()
    assert_each_language(lambda: grad(y, a), CannotMatchPyTorch, "grad_fn.register_prehook")


def test_a_node_post_hook_that_changed_what_it_sent_is_suspected_in_chinese():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3

    def double_what_it_sends(grads_out, grads_in):
        return (grads_out[0] * 2, *grads_out[1:])

    h.grad_fn.register_hook(double_what_it_sends)
    y = (h * h).sum()
    assert_each_language(lambda: grad(y, a), CannotMatchPyTorch, "grad_fn.register_hook")


def test_a_function_that_wants_none_where_nothing_arrived_is_explained_in_chinese():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = BlocksItsInput.apply(LeavesNoneAsNone.apply(a * 3)).sum()
    assert_each_language(lambda: grad(y, a), CannotMatchPyTorch, "ctx.set_materialize_grads(False)")


def test_a_modules_backward_hook_is_named_in_chinese():
    torch.manual_seed(0)
    layer = nn.Linear(2, 2)

    def silence_inputs(module, grad_input, grad_output):
        return (grad_input[0] * 0,)

    layer.register_full_backward_hook(silence_inputs)
    x = torch.randn(3, 2, requires_grad=True)
    y = layer(x).sum()
    with speaking("zh"), pytest.raises(CannotMatchPyTorch) as refused:
        grad(y, x)
    said = str(refused.value)
    assert_speaks_chinese(said)
    assert "BackwardHookFunctionBackward" in said and "layer 上的反向钩子（silence_inputs）" in said


def output_of_a_module_out_of_sight():
    """A layer with a backward hook that the caller holds no variable for."""
    torch.manual_seed(0)
    layer = nn.Linear(2, 2)
    layer.register_full_backward_hook(lambda module, grad_input, grad_output: (grad_input[0] * 0,))
    x = torch.randn(3, 2, requires_grad=True)
    return layer(x).sum(), x


def test_a_backward_hook_of_a_module_out_of_sight_is_suspected_in_chinese():
    y, x = output_of_a_module_out_of_sight()
    assert_each_language(lambda: grad(y, x), CannotMatchPyTorch, "register_full_backward_hook")


def test_a_hook_on_a_leaf_input_is_named_in_chinese():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a.register_hook(zero)
    y = (a * a).sum()
    with speaking("zh"), pytest.raises(CannotMatchPyTorch) as refused:
        grad(y, a)
    assert_speaks_chinese(str(refused.value))
    assert "对于 a，" in str(refused.value) and "a.register_hook" in str(refused.value)


def leaf_with_a_hook_out_of_sight():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a.register_hook(zero)
    return (a * a).sum(), [a]


def test_an_input_the_caller_has_no_name_for_is_called_by_its_position_in_chinese():
    y, inputs = leaf_with_a_hook_out_of_sight()
    assert_each_language(lambda: grad(y, inputs), CannotMatchPyTorch, "inputs[0]")


def test_gradients_too_big_to_print_are_said_to_differ_in_chinese():
    a = torch.arange(6.0, requires_grad=True)
    a.register_hook(lambda g: g * 2)
    y = (a * a).sum()
    with speaking("zh"), pytest.raises(CannotMatchPyTorch) as refused:
        grad(y, a)
    assert_speaks_chinese(str(refused.value))
    assert "（形状为 (6,) 的张量）与到达的梯度（形状相同、数值不同的张量）" in str(refused.value)


def test_sparse_gradients_summed_in_pytorchs_order_are_explained_in_chinese():
    torch.manual_seed(0)
    emb = nn.Embedding(10, 3, sparse=True)
    rows = torch.tensor([1, 2, 1, 5])
    twice = emb(rows).pow(2).sum() + emb(rows[:2]).sum()  # two sparse gradients meet
    with speaking("zh"), pytest.raises(CannotMatchPyTorch) as refused:
        grad(twice, emb.weight)
    assert_speaks_chinese(str(refused.value))
    assert "对于 emb.weight，" in str(refused.value)


def test_a_backward_that_is_not_deterministic_is_explained_in_chinese():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Noisy.apply(a).sum()
    assert_each_language(
        lambda: grad(y, a), CannotMatchPyTorch, "torch.use_deterministic_algorithms(True)"
    )


def test_a_difference_grad_cannot_explain_is_admitted_in_chinese(monkeypatch):
    real_engine = engine.backward_by_hand

    def off_by_one_bit(output, inputs, seed):
        first, *rest = real_engine(output, inputs, seed)
        return (torch.nextafter(first, torch.full_like(first, 1e9)), *rest)

    monkeypatch.setattr(checked_grad, "backward_by_hand", off_by_one_bit)
    a, w, b = neuron()
    assert_each_language(lambda: grad(a, [w, b]), CannotMatchPyTorch, "torch.autograd.grad")


# --- helpers.backward_view: what it shows, and what it refuses ----------------------------------


def test_a_trace_shows_itself_as_a_chinese_table():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.register_hook(zero)
    steps = trace((h * torch.tensor([1.0, 1.0], requires_grad=True)).sum())
    with speaking("zh"):
        shown = repr(steps)
    assert_speaks_chinese(shown)
    assert "钩子" in shown and "a.grad" in shown and "AccumulateGrad" in shown


@pytest.mark.parametrize("length", [3, MAX_FRAMES + 5], ids=["pictures", "too long to draw"])
def test_step_through_shows_itself_as_chinese_text(length):
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    h = x
    for _ in range(length - 2):  # plus SumBackward0 and x's AccumulateGrad
        h = torch.sin(h)
    steps = trace(h.sum())
    with speaking("zh"):
        shown = step_through(steps)
        text = shown._repr_mimebundle_()[0]["text/plain"]
        assert text == repr(shown)
    assert_speaks_chinese(text)
    if length > MAX_FRAMES:
        assert str(MAX_FRAMES) in text.splitlines()[0]  # the note that says why no pictures


@pytest.mark.parametrize("show", [step_through, frames, table_text, table_html])
def test_a_tensor_instead_of_a_trace_is_refused_in_chinese(show):
    a, w, b = neuron()
    assert_each_language(lambda: show(a), TypeError, f"{show.__name__}(trace(y))")


@pytest.mark.parametrize("show", [step_through, frames, table_text, table_html])
def test_something_else_instead_of_a_trace_is_refused_in_chinese(show):
    assert_each_language(lambda: show([1, 2]), TypeError, "helpers.backward.trace(y)")


@pytest.mark.parametrize(
    "names, described",
    [
        (torch.tensor(2.0), "一个张量"),
        ("w", "一个 str"),
        ({"w": 2.0}, "一个没有把名字和张量配成对的 dict"),
        ([("w",)], "一个没有把名字和张量配成对的 list"),
        (3, "一个 int"),
    ],
    ids=["tensor", "string", "dict of numbers", "short pairs", "number"],
)
@pytest.mark.parametrize("show", [step_through, frames, table_text, table_html])
def test_names_that_are_not_names_for_tensors_are_refused_in_chinese(show, names, described):
    a, w, b = neuron()
    steps = trace(a)
    assert_each_language(lambda: show(steps, names=names), TypeError, "names={'w': w}")
    with speaking("zh"):
        assert described in str(raised(lambda: show(steps, names=names)))


@pytest.mark.parametrize("option", ["highlight", "edge_labels"])
@pytest.mark.parametrize("show", [frames, step_through])
def test_an_option_each_picture_sets_itself_is_refused_in_chinese(show, option):
    a, w, b = neuron()
    steps = trace(a)
    assert_each_language(lambda: show(steps, **{option: None}), TypeError, f"{option}=")


@pytest.mark.parametrize("show", [frames, step_through])
def test_an_unknown_option_is_refused_in_chinese(show):
    a, w, b = neuron()
    steps = trace(a)
    assert_each_language(lambda: show(steps, colour="red"), TypeError, "max_nodes")


def test_frames_refuse_too_many_pictures_in_chinese():
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    h = x
    for _ in range(MAX_FRAMES + 3):
        h = torch.sin(h)
    steps = trace(h.sum())
    assert_each_language(lambda: frames(steps), ValueError, "step_through(trace)")


@pytest.mark.parametrize("show", [frames, step_through])
def test_pictures_too_slow_to_lay_out_are_refused_in_chinese(show, monkeypatch):
    monkeypatch.setattr(graph.policy, "MAX_SECONDS", 0.0)  # any picture is now too slow
    a, w, b = neuron()
    steps = trace(a)
    assert_each_language(lambda: show(steps), graph.GraphTooLarge, "max_nodes=100")

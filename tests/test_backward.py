"""Specification of helpers.backward: `grad` computes what torch.autograd.grad computes, by hand,
and `trace` records exactly what PyTorch's engine ran."""

import os
import random
import sys

import pytest
import torch
from deep_graphs import let_go_after
from torch import nn
from torch.autograd.graph import get_gradient_edge
from torch.profiler import profile
from torch.utils.checkpoint import checkpoint

from helpers import backward
from helpers.backward import CannotMatchPyTorch, checked_grad, engine, grad, trace
from helpers.graph import NODES_SAFE_TO_SEE

# --- graphs to differentiate: each builder returns a fresh (output, inputs) --------------------


class MyReLU(torch.autograd.Function):
    """The custom ReLU of notebook 06."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * (x > 0)


class ScaleAndShift(torch.autograd.Function):
    """A custom Function with non-tensor arguments and a tensor argument that needs no grad."""

    @staticmethod
    def forward(ctx, x, factor, shift, power):
        ctx.save_for_backward(x)
        ctx.factor, ctx.power = factor, power
        return factor * x**power + shift

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output * ctx.factor * ctx.power * x ** (ctx.power - 1), None, None, None


class TwoOutputs(torch.autograd.Function):
    """A custom Function with two outputs; PyTorch hands its backward zeros for an unused one."""

    @staticmethod
    def forward(ctx, x):
        return x * 2, x * 3

    @staticmethod
    def backward(ctx, grad_double, grad_triple):
        return grad_double * 2 + grad_triple * 3


class BlocksItsInput(torch.autograd.Function):
    """A custom Function whose backward returns None: no gradient reaches what fed it."""

    @staticmethod
    def forward(ctx, x):
        return x * 2

    @staticmethod
    def backward(ctx, grad_output):
        return None


class ReLUThatWritesIntoItsGradient(torch.autograd.Function):
    """A custom ReLU whose backward zeros entries of the gradient it is given, in place."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_output[x < 0] = 0
        return grad_output


def relu_example():
    w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    x = torch.tensor([3.0, 1.0, 2.0])
    b = torch.tensor(0.5, requires_grad=True)
    return torch.relu(w @ x + b), [w, b]


def shared_subexpression():
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    return (x * x + torch.sin(x) * x).sum(), [x]


def two_layer_network():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 1))
    inputs, targets = torch.randn(16, 4), torch.randn(16, 1)
    return nn.functional.mse_loss(model(inputs), targets), list(model.parameters())


def custom_relu_network():
    torch.manual_seed(1)
    w1, w2 = torch.randn(4, 6, requires_grad=True), torch.randn(6, 1, requires_grad=True)
    x = torch.randn(10, 4)
    return MyReLU.apply(x @ w1).mm(w2).pow(2).mean(), [w1, w2]


def custom_function_with_non_tensor_arguments():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    shift = torch.tensor([0.1, 0.2, 0.3])  # a tensor argument that does not require grad
    return ScaleAndShift.apply(x, 2.5, shift, 3).sum(), [x]


def custom_function_with_an_unused_output():
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    double, _ = TwoOutputs.apply(x)
    return (double**2).sum(), [x]


def views_and_indexing():
    x = torch.arange(12.0).reshape(4, 3).requires_grad_()
    corner = x.t()[1:, :2]
    return (corner * corner).sum() + x[2, 1] * 3 + x.view(12)[5] ** 2, [x]


def in_place_write_into_a_view():
    x = torch.arange(6.0).requires_grad_()
    h = x * 1
    h[0] = h[4] * 2  # a CopySlices node
    return (h**2).sum(), [x]


def node_with_several_outputs_partly_used():
    x = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    first, _, third, _ = x.unbind()
    return first * third, [x]


def broadcast_and_mixed_dtypes():
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([0.5], requires_grad=True)
    scale = torch.tensor([[2.0], [3.0]], dtype=torch.float64, requires_grad=True)
    return ((w + b) * scale).sum(), [w, b, scale]


def non_leaf_inputs():
    x = torch.tensor([0.3, 0.7], requires_grad=True)
    hidden = x * 2
    return hidden.sin().sum() + x.prod(), [hidden, x]


def second_output_of_a_node_as_input():
    x = torch.tensor([2.0, 5.0], requires_grad=True)
    first, second = x.unbind()
    return first * second**2, [second, x]


def unused_inputs():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    unused = torch.tensor(3.0, requires_grad=True)
    return (x**2).sum(), [x, unused]


def custom_backward_that_returns_none():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    u = x * 3
    return BlocksItsInput.apply(u).sum() + x.sum(), [x, u]


def custom_backward_that_returns_none_for_the_only_path():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    u = x * 3
    return BlocksItsInput.apply(u).sum(), [x, u]


def chain_of_2000_nodes():
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    h = x
    for _ in range(1999):
        h = torch.sin(h)
    return h.sum(), [x]


GRAPHS = [
    relu_example,
    shared_subexpression,
    two_layer_network,
    custom_relu_network,
    custom_function_with_non_tensor_arguments,
    custom_function_with_an_unused_output,
    views_and_indexing,
    in_place_write_into_a_view,
    node_with_several_outputs_partly_used,
    broadcast_and_mixed_dtypes,
    non_leaf_inputs,
    second_output_of_a_node_as_input,
    unused_inputs,
    custom_backward_that_returns_none,
    custom_backward_that_returns_none_for_the_only_path,
    chain_of_2000_nodes,
]


def assert_same_gradients(ours, pytorchs):
    assert len(ours) == len(pytorchs)
    for mine, theirs in zip(ours, pytorchs, strict=True):
        if theirs is None:
            assert mine is None
        else:
            torch.testing.assert_close(mine, theirs)  # also checks shape and dtype


def bits(tensor):
    """The bytes of a tensor's values, in order: equal bytes, equal numbers to the last bit."""
    return tensor.detach().cpu().numpy().tobytes()


def assert_same_bits(ours, pytorchs):
    assert len(ours) == len(pytorchs)
    for mine, theirs in zip(ours, pytorchs, strict=True):
        if theirs is None:
            assert mine is None
        else:
            assert (mine.dtype, mine.shape) == (theirs.dtype, theirs.shape)
            assert bits(mine) == bits(theirs), f"{mine} differs from {theirs} in the last bits"


# --- grad: the by-hand engine ------------------------------------------------------------------


@pytest.mark.parametrize("build", GRAPHS, ids=lambda build: build.__name__)
def test_grad_equals_torch_autograd_grad_to_the_last_bit(build):
    output, inputs = build()
    expected = torch.autograd.grad(output, inputs, retain_graph=True, allow_unused=True)
    assert_same_bits(grad(output, inputs), expected)


def test_grad_returns_none_for_an_input_that_does_not_influence_the_output():
    output, (x, unused) = unused_inputs()
    gradient_of_x, gradient_of_unused = grad(output, [x, unused])
    assert gradient_of_x is not None and gradient_of_unused is None


def test_grad_with_grad_output_for_a_non_scalar_output():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x**2
    weights = torch.tensor([1.0, 0.0, -1.0])
    assert_same_gradients(grad(y, [x], weights), torch.autograd.grad(y, [x], weights))


def test_grad_accepts_a_single_tensor_as_inputs():
    output, (w, _) = relu_example()
    assert_same_gradients(grad(output, w), torch.autograd.grad(output, [w]))


def test_grad_of_an_output_with_respect_to_itself_is_the_seed():
    output, _ = relu_example()
    assert_same_gradients(grad(output, [output]), (torch.tensor(1.0),))


def test_grad_leaves_every_grad_untouched():
    output, (w, b) = relu_example()
    w.grad = torch.tensor([7.0, 7.0, 7.0])
    before = w.grad
    grad(output, [w, b])
    assert w.grad is before and torch.equal(w.grad, torch.tensor([7.0, 7.0, 7.0]))
    assert b.grad is None


def test_the_by_hand_engine_does_not_call_pytorchs_engine(monkeypatch):
    def forbidden(*args, **kwargs):
        raise AssertionError("the by-hand engine called PyTorch's engine")

    output, inputs = two_layer_network()
    expected = torch.autograd.grad(output, inputs, retain_graph=True)
    monkeypatch.setattr(torch.autograd, "grad", forbidden)
    monkeypatch.setattr(torch.autograd, "backward", forbidden)
    monkeypatch.setattr(torch.Tensor, "backward", forbidden)
    seed = torch.ones_like(output)
    assert_same_bits(engine.backward_by_hand(output, inputs, seed), expected)


def test_grad_refuses_when_the_by_hand_answer_differs_from_pytorchs(monkeypatch):
    real_engine = engine.backward_by_hand

    def off_by_one_bit(output, inputs, seed):
        first, *rest = real_engine(output, inputs, seed)
        return (torch.nextafter(first, torch.full_like(first, 1e9)), *rest)

    monkeypatch.setattr(checked_grad, "backward_by_hand", off_by_one_bit)
    output, inputs = relu_example()
    w, b = inputs  # variables of the caller: the refusal names the input by them
    with pytest.raises(CannotMatchPyTorch, match=r"For w, .*it cannot tell why"):
        grad(output, inputs)


def test_grad_does_not_record_a_graph_of_its_own():
    output, inputs = relu_example()
    assert all(not g.requires_grad for g in grad(output, inputs))


class Counted(torch.autograd.Function):
    """Passes its input through, and writes its label into `calls` each time backward runs."""

    calls: list[str] = []

    @staticmethod
    def forward(ctx, x, label):
        ctx.label = label
        return x * 1

    @staticmethod
    def backward(ctx, grad_output):
        Counted.calls.append(ctx.label)
        return grad_output, None


def shared_counted_node():
    x = torch.tensor(2.0, requires_grad=True)
    other = torch.tensor(3.0, requires_grad=True)
    shared = Counted.apply(x, "shared")
    return shared * shared + Counted.apply(other, "other branch"), [x]


def test_the_by_hand_engine_runs_each_node_once_and_only_those_leading_to_an_input():
    output, inputs = shared_counted_node()
    Counted.calls = []
    engine.backward_by_hand(output, inputs, torch.ones_like(output))
    assert Counted.calls == ["shared"]


def test_grad_runs_a_custom_backward_once_in_each_engine():
    output, inputs = shared_counted_node()
    Counted.calls = []
    grad(output, inputs)
    assert Counted.calls == ["shared", "shared"]  # PyTorch's pass, then the by-hand one


def test_grad_walks_a_long_chain_without_recursion():
    output, inputs = chain_of_2000_nodes()
    assert sys.getrecursionlimit() < 2000  # a recursive walk would fail on this graph
    assert grad(output, inputs)[0] is not None


@pytest.mark.skipif(sys.platform == "win32", reason="the stack is set with Unix's setrlimit")
@pytest.mark.parametrize("call", ["trace(y)", "grad(y, x)"])
def test_a_graph_bigger_than_the_helpers_look_at_is_refused_and_safe_to_free(call):
    code, printed, errors = let_go_after(call)
    assert (code, printed) == (0, ["ValueError", "freed"]), errors


def test_a_graph_of_exactly_the_nodes_the_helpers_look_at_is_traced():
    h = torch.tensor(1.0, requires_grad=True)
    for _ in range(NODES_SAFE_TO_SEE - 1):  # and the leaf's AccumulateGrad
        h = torch.sin(h)
    assert len(trace(h)) == NODES_SAFE_TO_SEE


def test_the_refusal_of_a_graph_too_big_says_why_and_what_works():
    h = torch.tensor(1.0, requires_grad=True)
    for _ in range(NODES_SAFE_TO_SEE + 1):
        h = torch.sin(h)
    with pytest.raises(ValueError, match=r"more than 5,000 autograd nodes.*output\.backward\(\)"):
        trace(h)


@pytest.mark.parametrize("inside", [torch.inference_mode, torch.no_grad])
def test_grad_and_a_traces_table_work_from_inside_inference_mode_or_no_grad(inside):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    steps = trace(y, retain_graph=True)
    with inside():
        assert torch.equal(grad(y, x)[0], torch.autograd.grad(y, x, retain_graph=True)[0])
        assert "MulBackward0" in repr(steps)  # the table names the leaf x, found from in here


def test_grad_with_respect_to_a_sparse_leaf_is_pytorchs():
    s = torch.eye(3).to_sparse().requires_grad_()
    d = torch.ones(3, 2, requires_grad=True)
    y = torch.sparse.mm(s, d).sum()
    ours = grad(y, [s, d])
    theirs = torch.autograd.grad(y, [s, d], retain_graph=True)
    assert torch.equal(ours[0].to_dense(), theirs[0].to_dense())
    assert torch.equal(ours[1], theirs[1])


def test_grad_leaves_the_graph_usable_afterwards():
    output, inputs = relu_example()
    grad(output, inputs)
    assert_same_gradients(grad(output, inputs), torch.autograd.grad(output, inputs))


# --- hooks, and what PyTorch refuses: PyTorch's answer, or a refusal that says why ------------


def zero(g):
    """A tensor hook that zeros the gradient passing through."""
    return g * 0


def test_grad_refuses_when_a_hook_on_a_non_leaf_changes_its_gradient():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.register_hook(zero)
    y = (h * h).sum()
    assert torch.equal(torch.autograd.grad(y, a, retain_graph=True)[0], torch.zeros(2))
    with pytest.raises(
        CannotMatchPyTorch,
        match=r"At MulBackward0 \(the node that computed h\), PyTorch's engine received "
        r"\[0, 0\] where \[6, 12\] had been sent to it: the hook on h \(zero, registered with "
        r"h\.register_hook\) changed it\. The by-hand engine .* runs no hooks\. .*"
        r"torch\.autograd\.grad",
    ):
        grad(y, a)


def test_a_refused_hook_names_a_lambda_by_the_line_that_defines_it():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.register_hook(lambda g: g * 0)
    with pytest.raises(CannotMatchPyTorch, match=r"the hook on h \(`h\.register_hook\(lambda g"):
        grad((h * h).sum(), a)


def test_grad_refuses_when_a_hook_on_a_leaf_input_changes_its_gradient():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    a.register_hook(zero)
    with pytest.raises(
        CannotMatchPyTorch,
        match=r"For a, PyTorch's engine handed back \[0, 0\] where \[2, 4\] had arrived: "
        r"the hook on a \(zero",
    ):
        grad((a * a).sum(), a)
    assert a.grad is None


def test_grad_refuses_when_a_node_pre_hook_changes_what_the_node_receives():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.grad_fn.register_prehook(lambda grads: (grads[0] * 10,))
    with pytest.raises(
        CannotMatchPyTorch, match=r"received \[60, 120\] where \[6, 12\].*register_prehook"
    ):
        grad((h * h).sum(), a)


def test_grad_refuses_when_a_node_post_hook_changes_what_the_node_sends():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3

    def double_what_it_sends(grads_out, grads_in):
        return (grads_out[0] * 2, *grads_out[1:])

    h.grad_fn.register_hook(double_what_it_sends)
    with pytest.raises(
        CannotMatchPyTorch,
        match=r"At MulBackward0 \(the node that computed h\), PyTorch's engine sent on "
        r"\[36, 72\], but the node computes \[18, 36\].*grad_fn\.register_hook",
    ):
        grad((h * h).sum(), a)


def test_grad_refuses_when_a_modules_full_backward_hook_changes_a_gradient():
    torch.manual_seed(0)
    layer = nn.Linear(2, 2)

    def silence_inputs(module, grad_input, grad_output):
        return (grad_input[0] * 0,)

    layer.register_full_backward_hook(silence_inputs)
    x = torch.randn(3, 2, requires_grad=True)
    with pytest.raises(
        CannotMatchPyTorch,
        match=r"BackwardHookFunctionBackward .*the module backward hook on layer "
        r"\(silence_inputs\)",
    ):
        grad(layer(x).sum(), x)
    assert layer.weight.grad is None and x.grad is None


def test_grad_refuses_when_gradient_clipping_hooks_on_parameters_change_them():
    torch.manual_seed(0)
    model = nn.Linear(3, 1)

    def clip(g):
        return g.clamp(-0.01, 0.01)

    for parameter in model.parameters():
        parameter.register_hook(clip)
    loss = model(torch.randn(5, 3) * 10).pow(2).sum()
    with pytest.raises(
        CannotMatchPyTorch,
        match=r"For model\.weight, PyTorch's engine handed back \[\[-0\.01, .*the hook on "
        r"model\.weight \(clip, registered with model\.weight\.register_hook\)",
    ):
        grad(loss, list(model.parameters()))
    assert model.weight.grad is None and model.bias.grad is None


def test_hooks_that_change_no_gradient_run_once_and_grad_answers():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    seen = []
    h.register_hook(lambda g: seen.append(("h", g.clone())))
    a.register_hook(lambda g: seen.append(("a", g.clone())))
    h.grad_fn.register_prehook(lambda grads: seen.append(("pre", None)))
    y = (h * h).sum()
    ours = grad(y, a)
    assert [name for name, _ in seen] == ["h", "pre", "a"]  # once each, as in autograd.grad
    assert_same_bits(ours, torch.autograd.grad(y, a))


def test_grad_fills_a_retained_grad_as_torch_autograd_grad_does_and_no_leaf_grad():
    def build():
        a = torch.tensor([1.0, 2.0], requires_grad=True)
        h = a * 3
        h.retain_grad()
        return (h * h).sum(), a, h

    y, a, h = build()
    ours = grad(y, a)
    expected_y, expected_a, expected_h = build()
    assert_same_bits(ours, torch.autograd.grad(expected_y, expected_a))
    assert expected_h.grad is not None  # what PyTorch does
    assert_same_bits((h.grad,), (expected_h.grad,))
    assert a.grad is None


def test_grad_refuses_a_reentrant_checkpoint_before_writing_any_grad():
    torch.manual_seed(0)
    lin = nn.Linear(3, 3)
    x = torch.randn(2, 3, requires_grad=True)
    y = checkpoint(lin, x, use_reentrant=True).sum()
    with pytest.raises(RuntimeError, match="incompatible with .grad()"):
        torch.autograd.grad(y, [x], retain_graph=True)  # PyTorch refuses, and
    assert lin.weight.grad is None  # writes nothing
    with pytest.raises(RuntimeError, match=r"reentrant checkpoint.*use_reentrant=False"):
        grad(y, x)
    assert lin.weight.grad is None and lin.bias.grad is None and x.grad is None


def test_grad_refuses_a_complex_output_without_grad_output_as_pytorch_does():
    z = torch.tensor(1 + 2j, requires_grad=True)
    with pytest.raises(RuntimeError, match="only for real scalar outputs"):
        torch.autograd.grad(z * z, z)
    with pytest.raises(
        ValueError, match=r"complex number.*only for real scalar outputs.*\.abs\(\)"
    ):
        grad(z * z, z)


def test_grad_of_a_complex_output_with_grad_output_is_pytorchs():
    z = torch.tensor([1 + 2j, 3 - 1j], requires_grad=True)
    y = z * z.conj() * z
    seed = torch.tensor([1 - 1j, 2 + 0j])
    assert_same_bits(grad(y, z, seed), torch.autograd.grad(y, z, seed))


def test_grad_refuses_empty_inputs_as_pytorch_does():
    x = torch.tensor(2.0, requires_grad=True)
    # torch 2.8 says "grad requires non-empty inputs." (a ValueError), later ones "cannot be empty".
    with pytest.raises((RuntimeError, ValueError), match="cannot be empty|non-empty"):
        torch.autograd.grad(x * x, [])
    with pytest.raises(ValueError, match=r"inputs is empty.*cannot be empty.*grad\(y, \[w, b\]\)"):
        grad(x * x, [])


class PassesThrough(torch.autograd.Function):
    """Sends on what it gets, plus one: PyTorch calls it even when no gradient arrived."""

    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output + 1


class BlocksItsInputKeepsNone(BlocksItsInput):
    """BlocksItsInput, for a Function that asks for None instead of zeros."""


class LeavesNoneAsNone(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.set_materialize_grads(False)
        return x * 1

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def test_grad_runs_a_custom_backward_that_received_nothing_as_pytorch_does():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = BlocksItsInput.apply(PassesThrough.apply(a * 3)).sum()
    expected = torch.autograd.grad(y, a, retain_graph=True)
    assert torch.equal(expected[0], torch.tensor([3.0, 3.0]))  # (0 + 1) * 3, not None
    assert_same_bits(grad(y, a), expected)


def test_grad_refuses_a_function_that_wants_none_where_nothing_arrived():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    y = BlocksItsInput.apply(LeavesNoneAsNone.apply(a * 3)).sum()
    assert torch.autograd.grad(y, a, retain_graph=True, allow_unused=True) == (None,)
    with pytest.raises(
        CannotMatchPyTorch, match=r"LeavesNoneAsNoneBackward.*set_materialize_grads"
    ):
        grad(y, a)


class Noisy(torch.autograd.Function):
    """A backward that adds a little noise: two runs on the same gradient differ."""

    @staticmethod
    def forward(ctx, x):
        return x * 1

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output + torch.rand(grad_output.shape) * 1e-3


def test_grad_refuses_a_node_whose_backward_is_not_deterministic():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    with pytest.raises(
        CannotMatchPyTorch, match=r"NoisyBackward gave different bits .*deterministic"
    ):
        grad(Noisy.apply(a).sum(), a)


def test_grad_refuses_sparse_gradients_summed_in_pytorchs_own_order():
    torch.manual_seed(0)
    emb = nn.Embedding(10, 3, sparse=True)
    rows = torch.tensor([1, 2, 1, 5])
    assert grad(emb(rows).pow(2).sum(), emb.weight)[0].is_sparse  # one sparse gradient: fine
    twice = emb(rows).pow(2).sum() + emb(rows[:2]).sum()  # two meet at emb.weight
    with pytest.raises(CannotMatchPyTorch, match=r"For emb\.weight, .*sparse gradient"):
        grad(twice, emb.weight)


# --- many graphs: the same bits as torch.autograd.grad, or a refusal ---------------------------


SHAPES = [(), (3,), (1, 3), (2, 1), (2, 3)]  # all broadcast to (2, 3)


class Scale(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, factor):
        ctx.factor = factor
        return x * factor

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output * ctx.factor, None


class SquareAndSine(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x, torch.sin(x)

    @staticmethod
    def backward(ctx, grad_square, grad_sine):
        (x,) = ctx.saved_tensors
        return grad_square * 2 * x + grad_sine * torch.cos(x)


def random_graph(seed):
    """A random computation on 1-4 leaves of shapes that broadcast, whose tensors are used many
    times (so gradients meet in threes and fours), with custom Functions, views, an in-place
    write and a detour through float64. Returns (output, inputs, leaves, computed tensors)."""
    rng = random.Random(seed)
    generator = torch.Generator().manual_seed(seed)
    leaves = [
        torch.randn(rng.choice(SHAPES), generator=generator).requires_grad_()
        for _ in range(rng.randint(1, 4))
    ]
    pool = list(leaves)

    def pick():  # mostly the newest tensors, so that chains grow and the recent ones are reused
        if rng.random() < 0.3:
            return rng.choice(pool)
        return pool[max(0, len(pool) - 1 - int(abs(rng.gauss(0, 2))))]

    operations = [
        lambda a, b: a + b,
        lambda a, b: a * b,
        lambda a, b: a - b * 0.5,
        lambda a, b: torch.sin(a),
        lambda a, b: torch.tanh(a) * b,
        lambda a, b: Scale.apply(a, rng.uniform(-2, 2)),
        lambda a, b: SquareAndSine.apply(a)[rng.randrange(2)],
        lambda a, b: a.sum(0, keepdim=True) if a.dim() == 2 else a * 1.5,
        lambda a, b: a * a * a + b,
        lambda a, b: a.expand(2, 3)[rng.randrange(2)] * b,
        lambda a, b: (a.double() * b).float(),
        written_into,
    ]
    for _ in range(rng.randint(3, 14)):
        pool.append(rng.choice(operations)(pick(), pick()))
    computed = pool[len(leaves) :]
    output = sum(rng.sample(computed, min(len(computed), rng.randint(1, 3)))).sum()
    inputs = rng.sample(leaves, rng.randint(1, len(leaves)))
    if rng.random() < 0.3:
        inputs.append(rng.choice(computed))
    return output, inputs, leaves, computed


def written_into(a, b):
    h = (a * 1).expand(2, 3).clone()
    h[0] = b.expand(2, 3)[1] * 2  # a CopySlices node
    return h


def most_edges_into_one_node(output):
    consumers = engine.consumers_of_each_node(get_gradient_edge(output).node)
    return max(len(edges) for edges in consumers.values())


RANDOM_GRAPHS = 400


def test_grad_gives_torch_autograd_grads_bits_on_many_random_graphs():
    most_edges = []
    for seed in range(RANDOM_GRAPHS):
        output, inputs, _, _ = random_graph(seed)
        expected = torch.autograd.grad(output, inputs, retain_graph=True, allow_unused=True)
        assert_same_bits(grad(output, inputs), expected)  # no refusal either: nothing to refuse
        most_edges.append(most_edges_into_one_node(output))
    # The graphs are rich enough to tell summation orders apart: gradients meet in threes.
    assert sum(edges >= 3 for edges in most_edges) > RANDOM_GRAPHS // 4


def a_random_hook(rng):
    factor = rng.choice([1.0, 1.0, 2.0, -0.5])  # a hook that changes nothing, or one that does
    return lambda g: g * factor


def scaled(g, factor):
    return None if g is None else g * factor


def test_with_random_hooks_grad_gives_pytorchs_bits_or_refuses_never_another_number():
    refused = answered = 0
    for seed in range(RANDOM_GRAPHS // 2):
        rng = random.Random(seed)
        output, inputs, leaves, computed = random_graph(seed)
        for tensor in rng.sample(leaves + computed, rng.randint(1, 3)):
            tensor.register_hook(a_random_hook(rng))
        node = rng.choice(computed).grad_fn
        if rng.random() < 0.5:
            factor = rng.choice([1.0, 3.0])
            node.register_prehook(lambda grads, f=factor: tuple(scaled(g, f) for g in grads))
        try:
            ours = grad(output, inputs)
        except CannotMatchPyTorch as refusal:
            assert "cannot tell why" not in str(refusal)  # it found what PyTorch did differently
            refused += 1
            continue
        expected = torch.autograd.grad(output, inputs, retain_graph=True, allow_unused=True)
        assert_same_bits(ours, expected)
        answered += 1
    assert refused > 20 and answered > 20  # both happen: the test sees both ways out


# --- trace: a record of PyTorch's engine -------------------------------------------------------


def pytorchs_own_order(run_backward):
    """(name, sequence number) of each node the engine evaluated, as its profiler saw them."""
    with profile() as profiler:
        run_backward()
    prefix = "autograd::engine::evaluate_function: "
    events = [e for e in profiler.events() if e.name.startswith(prefix)]
    events.sort(key=lambda e: e.time_range.start)
    return [(e.name.removeprefix(prefix), e.sequence_nr % 2**64) for e in events]


def all_nodes(output):
    nodes, to_visit = set(), [get_gradient_edge(output).node]
    while to_visit:
        node = to_visit.pop()
        if node is not None and node not in nodes:
            nodes.add(node)
            to_visit.extend(next_node for next_node, _ in node.next_functions)
    return nodes


TRACED_GRAPHS = [g for g in GRAPHS if g is not chain_of_2000_nodes]


@pytest.mark.parametrize("build", TRACED_GRAPHS, ids=lambda build: build.__name__)
def test_trace_lists_the_nodes_the_profiler_saw_the_engine_run_in_the_same_order(build):
    output, _ = build()
    steps = []
    expected = pytorchs_own_order(lambda: steps.extend(trace(output)))
    assert [(s.node.name(), s.node._sequence_nr()) for s in steps] == expected


@pytest.mark.parametrize("build", TRACED_GRAPHS, ids=lambda build: build.__name__)
def test_trace_order_is_the_order_independent_hooks_see(build):
    output, _ = build()
    seen = []
    handles = [
        node.register_prehook(lambda grads, node=node: seen.append(node))
        for node in all_nodes(output)
    ]
    steps = trace(output)
    for handle in handles:
        handle.remove()
    assert [step.node for step in steps] == seen


@pytest.mark.parametrize("build", TRACED_GRAPHS, ids=lambda build: build.__name__)
def test_trace_lists_each_node_once_after_every_node_that_feeds_it(build):
    output, _ = build()
    steps = trace(output)
    position = {step.node: i for i, step in enumerate(steps)}
    assert len(position) == len(steps)
    for step in steps:
        for next_node, _ in step.sent:
            if next_node in position:
                assert position[step.node] < position[next_node]


def test_trace_includes_the_accumulate_grad_node_of_every_leaf():
    output, (w, b) = relu_example()
    steps = trace(output)
    leaf_nodes = [step.node for step in steps if step.name == "AccumulateGrad"]
    assert {node.variable for node in leaf_nodes} == {w, b} and len(leaf_nodes) == 2


@pytest.mark.parametrize("build", TRACED_GRAPHS, ids=lambda build: build.__name__)
def test_trace_leaves_the_same_grads_as_a_plain_backward(build):
    output, inputs = build()
    trace(output)
    expected_output, expected_inputs = build()
    expected_output.backward()
    for traced, plain in zip(inputs, expected_inputs, strict=True):
        if plain.is_leaf:
            assert_same_gradients((traced.grad,), (plain.grad,))


def test_trace_lets_a_leaf_keep_the_gradient_it_received_as_its_grad_like_backward():
    def grad_is_what_accumulate_grad_received(run_backward):
        w = torch.randn(2, 3, requires_grad=True)
        output = (w * torch.randn(2, 3)).sum()
        received = []  # where its memory is: holding the tensor itself would stop the keeping
        get_gradient_edge(w).node.register_prehook(lambda g: received.append(g[0].data_ptr()))
        run_backward(output)
        return w.grad.data_ptr() == received[0]

    assert grad_is_what_accumulate_grad_received(lambda output: output.backward())
    assert grad_is_what_accumulate_grad_received(trace)


def test_trace_adds_into_existing_grads_like_backward():
    output, (w, _) = relu_example()
    w.grad = torch.ones(3)
    trace(output)
    torch.testing.assert_close(w.grad, torch.tensor([4.0, 2.0, 3.0]))


def test_trace_records_what_each_node_received_and_sent():
    output, (w, b) = relu_example()  # relu(w @ x + b) with x = [3, 1, 2]
    steps = trace(output)
    names = [step.name for step in steps]
    assert names[0] == "ReluBackward0"
    dot = steps[names.index("DotBackward0")]
    torch.testing.assert_close(dot.grads_in, (torch.tensor(1.0),))
    # the gradient for w goes to w's AccumulateGrad; x needs none, so its entry is None
    torch.testing.assert_close(dot.grads_out[0], torch.tensor([3.0, 1.0, 2.0]))
    assert dot.grads_out[1] is None and dot.node.next_functions[1][0] is None
    w_step = next(s for s in steps if s.name == "AccumulateGrad" and s.node.variable is w)
    torch.testing.assert_close(w_step.grads_in, (w.grad,))
    assert w_step.grads_out == () and w_step.sent == []


def test_trace_shows_gradients_from_two_consumers_arriving_summed_at_one_node():
    output, (x,) = shared_subexpression()  # x * x + sin(x) * x: three edges into x's node
    steps = trace(output)
    x_node = get_gradient_edge(x).node
    sent_to_x = [g for step in steps for node, g in step.sent if node is x_node]
    (x_step,) = [step for step in steps if step.node is x_node]
    assert len(sent_to_x) == 4  # two from x * x, one from sin(x) * x, one from sin's own node
    torch.testing.assert_close(x_step.grads_in[0], sum(sent_to_x))


def test_trace_of_a_non_scalar_output_starts_from_grad_output():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    steps = trace(x * 3, grad_output=torch.tensor([1.0, -1.0]))
    torch.testing.assert_close(steps[0].grads_in, (torch.tensor([1.0, -1.0]),))
    torch.testing.assert_close(x.grad, torch.tensor([3.0, -3.0]))


def test_trace_is_a_sequence_of_steps():
    output, _ = relu_example()
    steps = trace(output)
    assert len(steps) == 5 and len(list(steps)) == 5  # relu, add, dot, and the leaves w and b
    assert steps[-1] is list(steps)[-1] and steps.output is output


def test_trace_keeps_detached_copies_that_later_backward_passes_do_not_change():
    output, (w, _) = relu_example()
    first = trace(output, retain_graph=True)
    trace(output)  # accumulates into w.grad again
    w_step = next(s for s in first if s.name == "AccumulateGrad" and s.node.variable is w)
    torch.testing.assert_close(w_step.grads_in[0], torch.tensor([3.0, 1.0, 2.0]))
    assert not w_step.grads_in[0].requires_grad
    torch.testing.assert_close(w.grad, torch.tensor([6.0, 2.0, 4.0]))


def checkpointed_layer_whose_weight_is_also_used_outside():
    """A leaf whose AccumulateGrad runs twice: inside the checkpoint's own backward pass, and in
    the outer one."""
    torch.manual_seed(0)
    lin = nn.Linear(2, 2)
    x = torch.randn(3, 2, requires_grad=True)
    return checkpoint(lin, x, use_reentrant=True).sum() + (lin.weight * 3).sum(), lin


def test_trace_records_a_node_that_runs_twice_once_per_run_with_its_own_values():
    output, lin = checkpointed_layer_whose_weight_is_also_used_outside()
    steps = trace(output)
    weight_steps = [
        s for s in steps if s.name == "AccumulateGrad" and s.node.variable is lin.weight
    ]
    assert len(weight_steps) == 2
    outside, inside = (step.grads_in[0] for step in weight_steps)
    assert torch.equal(outside, torch.full((2, 2), 3.0))  # from (lin.weight * 3).sum()
    expected_output, expected_lin = checkpointed_layer_whose_weight_is_also_used_outside()
    expected_output.backward()
    torch.testing.assert_close(outside + inside, expected_lin.weight.grad)
    torch.testing.assert_close(lin.weight.grad, expected_lin.weight.grad)


def test_trace_shows_where_a_hook_changed_a_gradient_on_its_way_into_a_node():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.register_hook(lambda g: g * 0)
    a.register_hook(lambda g: g + 1)
    steps = trace((h * h).sum() + a.sum())
    changed = {step.node: step for step in steps if step.changed_by_hook}
    assert set(changed) == {h.grad_fn, get_gradient_edge(a).node}
    hooked = changed[h.grad_fn]
    assert torch.equal(hooked.grads_arrived[0], torch.tensor([6.0, 12.0]))  # 2h, sent to it
    assert torch.equal(hooked.grads_in[0], torch.tensor([0.0, 0.0]))  # what the node received
    leaf = changed[get_gradient_edge(a).node]
    assert torch.equal(leaf.grads_arrived[0], torch.tensor([1.0, 1.0]))  # 1 + 0 from h's node
    assert torch.equal(leaf.grads_in[0], torch.tensor([2.0, 2.0])) and torch.equal(
        a.grad, leaf.grads_in[0]
    )


def test_trace_shows_a_node_pre_hook_that_changed_what_the_node_received():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.grad_fn.register_prehook(lambda grads: (grads[0] * 10,))
    steps = trace((h * h).sum())
    (hooked,) = [step for step in steps if step.changed_by_hook]
    assert hooked.node is h.grad_fn and torch.equal(hooked.grads_in[0], torch.tensor([60.0, 120.0]))


def test_trace_shows_what_a_node_received_before_its_backward_wrote_into_it():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    relu = ReLUThatWritesIntoItsGradient.apply(x)
    steps = trace((relu * 3).sum())
    (step,) = [s for s in steps if s.node is relu.grad_fn]
    assert torch.equal(step.grads_in[0], torch.tensor([3.0, 3.0]))  # as it came in
    assert torch.equal(step.grads_out[0], torch.tensor([0.0, 3.0]))
    assert not any(s.changed_by_hook for s in steps)
    assert "hook" not in repr(steps)


def test_trace_shows_what_a_leaf_received_before_a_post_accumulate_grad_hook_zeroed_it():
    a = torch.tensor([1.0, 2.0], requires_grad=True)

    def zero_the_grad(tensor):
        tensor.grad.zero_()

    a.register_post_accumulate_grad_hook(zero_the_grad)
    steps = trace((a * a).sum())
    (leaf,) = [s for s in steps if s.name == "AccumulateGrad"]
    assert torch.equal(leaf.grads_in[0], torch.tensor([2.0, 4.0]))
    assert not leaf.changed_by_hook and torch.equal(a.grad, torch.zeros(2))


def test_trace_shows_a_pre_hook_before_a_node_that_writes_into_its_gradient():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    relu = ReLUThatWritesIntoItsGradient.apply(x)
    relu.grad_fn.register_prehook(lambda grads: (grads[0] * 10,))
    steps = trace((relu * 3).sum())
    (hooked,) = [s for s in steps if s.changed_by_hook]
    assert hooked.node is relu.grad_fn
    assert torch.equal(hooked.grads_arrived[0], torch.tensor([3.0, 3.0]))
    assert torch.equal(hooked.grads_in[0], torch.tensor([30.0, 30.0]))


def test_grad_answers_when_a_node_writes_into_its_gradient():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    output = (ReLUThatWritesIntoItsGradient.apply(x) * 3).sum()
    expected = torch.autograd.grad(output, x, retain_graph=True)
    assert_same_bits(grad(output, x), expected)


def test_grad_names_what_a_pre_hook_did_before_a_node_that_writes_into_its_gradient():
    x = torch.tensor([-1.0, 2.0], requires_grad=True)
    relu = ReLUThatWritesIntoItsGradient.apply(x)
    relu.grad_fn.register_prehook(lambda grads: (grads[0] * 10,))
    with pytest.raises(CannotMatchPyTorch, match=r"received \[30, 30\] where \[3, 3\] had been"):
        grad((relu * 3).sum(), x)


@pytest.mark.parametrize("build", TRACED_GRAPHS, ids=lambda build: build.__name__)
def test_trace_sees_every_gradient_arrive_and_no_hook_where_there_is_none(build):
    output, _ = build()
    steps = trace(output)
    assert all(step.grads_arrived is not None and not step.changed_by_hook for step in steps)


def test_trace_of_many_random_graphs_sums_what_arrives_as_pytorchs_engine_does():
    for seed in range(RANDOM_GRAPHS // 4):
        output, _, _, _ = random_graph(seed)
        assert not any(step.changed_by_hook for step in trace(output)), f"graph {seed}"


def code_of_helpers_backward_that_runs_during(run):
    """Names of functions of helpers.backward (any of its files) called while `run()` runs."""
    called = []
    package = os.path.dirname(backward.__file__)

    def watch(frame, event, arg):
        if event == "call" and os.path.dirname(frame.f_code.co_filename) == package:
            called.append(frame.f_code.co_name)

    sys.setprofile(watch)
    try:
        run()
    finally:
        sys.setprofile(None)
    return called


def test_trace_removes_its_hooks_afterwards():
    output, _ = relu_example()
    trace(output, retain_graph=True)
    assert code_of_helpers_backward_that_runs_during(output.backward) == []


def test_trace_removes_its_hooks_when_the_backward_pass_raises():
    class FailsOnce(torch.autograd.Function):
        failed = False

        @staticmethod
        def forward(ctx, x):
            return x * 1

        @staticmethod
        def backward(ctx, grad_output):
            if not FailsOnce.failed:
                FailsOnce.failed = True
                raise ValueError("boom")
            return grad_output

    x = torch.tensor(1.0, requires_grad=True)
    output = FailsOnce.apply(x) * 2
    with pytest.raises(ValueError, match="boom"):
        trace(output, retain_graph=True)
    assert code_of_helpers_backward_that_runs_during(output.backward) == []


# --- misuse ------------------------------------------------------------------------------------


def run_trace(output, inputs, grad_output=None):
    return trace(output, grad_output)


BOTH = [pytest.param(run_trace, id="trace"), pytest.param(grad, id="grad")]


@pytest.mark.parametrize("run", BOTH)
def test_a_non_scalar_output_without_grad_output_is_refused(run):
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(ValueError, match=r"shape \(3,\).*grad_output=.*output\.sum\(\)"):
        run(x * 2, [x])


@pytest.mark.parametrize("run", BOTH)
def test_grad_output_of_the_wrong_shape_is_refused(run):
    x = torch.ones(3, requires_grad=True)
    with pytest.raises(ValueError, match=r"grad_output must be a tensor of output's shape \(3,\)"):
        run(x * 2, [x], torch.ones(2))


@pytest.mark.parametrize("run", BOTH)
def test_an_output_that_does_not_require_grad_is_refused(run):
    x = torch.ones(3, requires_grad=True)
    with torch.no_grad():
        output = (x * 2).sum()
    with pytest.raises(ValueError, match="does not require grad.*requires_grad=True"):
        run(output, [x])


@pytest.mark.parametrize("run", BOTH)
def test_a_graph_freed_by_an_earlier_backward_is_refused_with_advice(run):
    output, inputs = relu_example()
    output.backward()
    with pytest.raises(RuntimeError, match="already used by a backward pass.*retain_graph=True"):
        run(output, inputs)


def test_trace_removes_its_hooks_when_the_graph_was_freed():
    output, _ = relu_example()
    output.backward()
    with pytest.raises(RuntimeError, match="retain_graph=True"):
        trace(output)

    def backward_again():  # the engine runs the first node's pre-hooks before it fails
        with pytest.raises(RuntimeError):
            output.backward()

    assert code_of_helpers_backward_that_runs_during(backward_again) == []


@pytest.mark.parametrize("run", BOTH)
def test_an_output_that_is_not_a_tensor_is_refused(run):
    with pytest.raises(TypeError, match="output must be a tensor, got float"):
        run(1.0, [])


def test_grad_refuses_an_input_that_does_not_require_grad():
    output, (w, _) = relu_example()
    with pytest.raises(ValueError, match=r"inputs\[1\] does not require grad"):
        grad(output, [w, torch.ones(3)])


def test_grad_refuses_an_input_that_is_not_a_tensor():
    output, (w, _) = relu_example()
    with pytest.raises(TypeError, match=r"inputs\[1\] must be a tensor, got list"):
        grad(output, [w, [1.0]])


class Forgetful(torch.autograd.Function):
    """A custom Function whose backward forgets the gradient of its second argument."""

    @staticmethod
    def forward(ctx, x, y):
        return x * y

    @staticmethod
    def backward(ctx, grad_output):
        return grad_output


def test_grad_reports_a_custom_backward_returning_too_few_gradients():
    x = torch.tensor(2.0, requires_grad=True)
    output = Forgetful.apply(x, torch.tensor(3.0))
    with pytest.raises(RuntimeError, match="incorrect number of gradients.*one gradient per arg"):
        grad(output, [x])


def test_grad_output_on_another_device_is_refused_with_the_fix():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    elsewhere = torch.ones(2, device="meta")  # stands in for a GPU tensor: no GPU here
    with pytest.raises(ValueError, match=r"\.to\(output\.device\)"):
        grad(y, [x], grad_output=elsewhere)

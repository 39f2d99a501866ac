"""Specification: what draw, explore, trace, grad and compare do with graphs that torch.func made.

Each either gives a real answer, checked against PyTorch itself (the Nodes PyTorch recorded,
``torch.autograd.grad``'s gradients), or refuses with one `InsideTransform` that says what happened
and what to do instead, in the learner's language. Never a raw error from deep inside. The cases:

- ``functional_call(model, params, (x,))``: an ordinary graph, the parameters named as passed;
- inside a function that torch.func transforms: under grad, vjp, jacrev and hessian the tensors
  have real Nodes of their own (a picture, and gradients by hand); under vmap a tensor stands for
  a batch, and under jvp and jacfwd nothing is recorded backward (refused); trace runs
  backward(), which PyTorch refuses under any transform (refused), and explore's view reads its
  tensors after the transform has let go of them (refused);
- what the transforms return: ordinary graphs;
- dual tensors of torch.autograd.forward_ad: refused without requires_grad, a picture with it;
- gradients made with ``create_graph=True``: the graph of the backward pass, drawn and walked.

NOTE [torch.func transforms] in helpers/graph/options.py says why.
"""

import pytest
import torch
import torch.autograd.forward_ad as fwAD
from speaks import assert_each_language, raised
from torch import nn
from torch.func import functional_call, hessian, jacfwd, jacrev, jvp, vjp, vmap
from torch.func import grad as func_grad

from helpers.backward import compare, grad, trace
from helpers.backward_view import step_through
from helpers.graph import InsideTransform, build, draw, explore, made_by, recording

# --- what the tests check against -----------------------------------------------------------------


def nodes_behind(tensor: torch.Tensor) -> set[str]:
    """The names of the autograd Nodes PyTorch recorded behind ``tensor``, its leaves left out."""
    found, waiting, names = set(), [tensor.grad_fn], set()
    while waiting:
        node = waiting.pop()
        if node is None or node in found:
            continue
        found.add(node)
        if type(node).__name__ != "AccumulateGrad":
            names.add(type(node).__name__)
        waiting.extend(next_node for next_node, _ in node.next_functions)
    return names


def assert_the_picture_is_real(output: torch.Tensor, leaf_name: str, **names) -> None:
    """draw and build show exactly the Nodes PyTorch recorded, and the leaf by its name."""
    graph = build(output, names=names or None)
    ops = {box.title for box in graph.nodes if box.kind == "op"}
    assert ops == nodes_behind(output)
    assert leaf_name in {box.title for box in graph.nodes if box.kind == "leaf"}
    source = draw(output, names=names or None).source
    assert all(op in source for op in ops)


def assert_same_gradients(output: torch.Tensor, inputs: list[torch.Tensor]) -> None:
    """helpers.backward.grad gives torch.autograd.grad's answer, bit for bit."""
    ours = grad(output, inputs)
    pytorchs = torch.autograd.grad(output, inputs, retain_graph=True, allow_unused=True)
    for mine, theirs in zip(ours, pytorchs, strict=True):
        assert torch.equal(mine, theirs)


def assert_refused(make_the_error, code: str) -> None:
    """An InsideTransform in both languages, ``code`` (what to call instead) kept in both."""
    assert_each_language(make_the_error, InsideTransform, code)


def run_inside(transform, check) -> None:
    """Run ``check(y, t)`` inside a function that ``transform`` transforms, where
    y = sum(sin(2 t)), and make sure it ran."""
    ran = []

    def f(t):
        y = (t * 2).sin().sum()
        check(y, t)
        ran.append(True)
        return y

    transform(f)
    assert ran


SAMPLES = torch.linspace(-1.0, 1.0, 12).reshape(3, 4)
TRANSFORMS = {
    "vmap": lambda f: vmap(f)(SAMPLES),
    "grad": lambda f: func_grad(f)(SAMPLES[0]),
    "vjp": lambda f: vjp(f, SAMPLES[0]),
    "jvp": lambda f: jvp(f, (SAMPLES[0],), (torch.ones(4),)),
    "jacrev": lambda f: jacrev(f)(SAMPLES[0]),
    "jacfwd": lambda f: jacfwd(f)(SAMPLES[0]),
    "hessian": lambda f: hessian(f)(SAMPLES[0]),
    "vmap(grad)": lambda f: vmap(func_grad(f))(SAMPLES),
}
# Where the function's tensors have Nodes of their own: reverse mode, innermost.
REVERSE = ["grad", "vjp", "jacrev", "hessian"]
# Where a tensor stands for a batch, or nothing is recorded backward.
BATCHED = ["vmap", "vmap(grad)"]
FORWARD = ["jvp", "jacfwd"]


# --- functional_call: an ordinary graph -----------------------------------------------------------


def linear_called_functionally():
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    params = {name: p.detach().clone().requires_grad_() for name, p in model.named_parameters()}
    x = torch.randn(4, 3)
    return model, params, x


def test_draw_of_a_functional_call_shows_its_nodes_and_names_the_parameters_passed():
    model, params, x = linear_called_functionally()
    loss = functional_call(model, params, (x,)).sum()
    assert_the_picture_is_real(loss, "weight", **params)
    assert "bias" in {box.title for box in build(loss, names=params).nodes}


def test_grad_compare_and_trace_of_a_functional_call_agree_with_autograd():
    model, params, x = linear_called_functionally()
    loss = functional_call(model, params, (x,)).pow(2).sum()
    weights = list(params.values())
    assert_same_gradients(loss, weights)
    expected = torch.autograd.grad(loss, weights, retain_graph=True)
    # compare names tensors as the caller's variables do; a dict's entries are given by tensor.
    assert compare(loss, dict(zip(weights, expected, strict=True))).all_right
    trace(loss)
    for weight, gradient in zip(weights, expected, strict=True):
        assert torch.equal(weight.grad, gradient)


def test_a_functional_call_under_recording_is_labelled_by_the_modules_it_ran():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 2), nn.Tanh())
    params = {name: p.detach().clone().requires_grad_() for name, p in model.named_parameters()}
    with recording(model):
        out = functional_call(model, params, (torch.randn(4, 3),))
    assert made_by(out.grad_fn).module == "1"  # the Tanh
    assert made_by(out.grad_fn.next_functions[0][0]).module == "0"  # the Linear's addmm
    graph = build(out, names=params)
    assert {box.title for box in graph.nodes if box.kind == "op"} == nodes_behind(out)
    assert {"0.weight", "0.bias"} <= {box.title for box in graph.nodes if box.kind == "leaf"}


# --- inside a transform: real Nodes under reverse mode --------------------------------------------


@pytest.mark.parametrize("transform", REVERSE)
def test_inside_reverse_mode_transforms_draw_shows_the_real_nodes(transform):
    run_inside(TRANSFORMS[transform], lambda y, t: assert_the_picture_is_real(y, "t", t=t))


@pytest.mark.parametrize("transform", REVERSE)
def test_inside_reverse_mode_transforms_grad_equals_torch_autograd_grad(transform):
    run_inside(TRANSFORMS[transform], lambda y, t: assert_same_gradients(y, [t]))


def test_inside_torch_func_grad_a_gradient_too_big_to_keep_whole_is_still_checked():
    def check(y, t):
        assert_same_gradients(y, [t])

    run_inside(lambda f: func_grad(f)(torch.linspace(-1.0, 1.0, 3000)), check)


def test_inside_torch_func_grad_compare_finds_the_right_gradient_right():
    def check(y, t):
        assert compare(y, {"t": 2 * torch.cos(2 * t)}).all_right
        assert not compare(y, {"t": torch.cos(2 * t)}).all_right

    run_inside(TRANSFORMS["grad"], check)


# --- inside a transform: clear refusals -----------------------------------------------------------

EVERY_HELPER = {
    "draw": lambda y, t: draw(y),
    "build": lambda y, t: build(y),
    "explore": lambda y, t: explore(y),
    "grad": lambda y, t: grad(y, [t]),
    "compare": lambda y, t: compare(y, {"t": torch.ones_like(t)}),
}


EVERY_HELPER_AND_TRACE = {**EVERY_HELPER, "trace": lambda y, t: trace(y)}


@pytest.mark.parametrize("helper", EVERY_HELPER)
@pytest.mark.parametrize("transform", BATCHED)
def test_inside_vmap_every_helper_refuses_and_says_to_call_it_outside(transform, helper):
    def check(y, t):
        assert_refused(lambda: EVERY_HELPER[helper](y, t), "f(x[0])")
        assert "torch.func.vmap" in str(raised(lambda: EVERY_HELPER[helper](y, t)))

    run_inside(TRANSFORMS[transform], check)


@pytest.mark.parametrize("helper", EVERY_HELPER)
@pytest.mark.parametrize("transform", FORWARD)
def test_inside_forward_mode_every_helper_refuses_and_says_no_backward_graph_is_there(
    transform, helper
):
    def check(y, t):
        assert_refused(lambda: EVERY_HELPER[helper](y, t), "requires_grad=True")
        assert "torch.func.jvp" in str(raised(lambda: EVERY_HELPER[helper](y, t)))

    run_inside(TRANSFORMS[transform], check)


@pytest.mark.parametrize("transform", list(TRANSFORMS))
def test_inside_any_transform_trace_refuses_the_backward_pass_pytorch_refuses(transform):
    run_inside(TRANSFORMS[transform], lambda y, t: assert_refused(lambda: trace(y), "grad(y, [x])"))


def test_inside_a_transform_trace_refuses_even_a_graph_from_outside_it():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    outside = (w * w).sum()

    def check(y, t):
        assert_refused(lambda: trace(outside, retain_graph=True), "grad(y, [x])")
        assert_same_gradients(outside, [w])  # no backward(): fine under vmap
        assert_the_picture_is_real(outside, "w", w=w)

    run_inside(TRANSFORMS["vmap"], check)


def test_inside_torch_func_grad_explore_refuses_and_offers_draw():
    def check(y, t):
        assert_refused(lambda: explore(y), "draw()")
        drawing = draw(y)  # the picture is made: only its view is refused
        assert_refused(drawing.explore, "draw()")

    run_inside(TRANSFORMS["grad"], check)


@pytest.mark.parametrize("helper", ["draw", "build", "explore", "grad", "compare", "trace"])
def test_a_tensor_kept_after_its_transform_returned_is_refused(helper):
    kept = []
    run_inside(TRANSFORMS["grad"], lambda y, t: kept.append((y, t)))
    y, t = kept[0]
    assert_refused(lambda: EVERY_HELPER_AND_TRACE[helper](y, t), f"{helper}()")


def test_step_through_is_refused_where_trace_is():
    # step_through draws a Trace, and trace refuses first: nothing reaches the view.
    def check(y, t):
        assert_refused(lambda: step_through(trace(y)), "draw(y)")

    run_inside(TRANSFORMS["grad"], check)


# --- what the transforms return: ordinary graphs --------------------------------------------------


def sin_sum(t):
    return (t * 2).sin().sum()


def results_of_transforms():
    x = torch.linspace(-1.0, 1.0, 4).requires_grad_()
    xs = torch.linspace(-1.0, 1.0, 12).reshape(3, 4).requires_grad_()
    output, vjp_fn = vjp(sin_sum, x)
    return {
        "vmap": (vmap(sin_sum)(xs).sum(), xs),
        "grad": (func_grad(sin_sum)(x).pow(2).sum(), x),
        "vjp output": (output, x),
        "vjp_fn": (vjp_fn(torch.ones(()))[0].pow(2).sum(), x),
        "jvp": (jvp(sin_sum, (x,), (torch.ones(4),))[1], x),
        "jacrev": (jacrev(sin_sum)(x).pow(2).sum(), x),
        "jacfwd": (jacfwd(sin_sum)(x).pow(2).sum(), x),
    }


@pytest.mark.parametrize("made_by", list(results_of_transforms()))
def test_what_a_transform_returns_is_drawn_and_differentiated_as_autograd_does(made_by):
    output, x = results_of_transforms()[made_by]
    assert_the_picture_is_real(output, "x", x=x)
    assert_same_gradients(output, [x])
    (expected,) = torch.autograd.grad(output, x, retain_graph=True)
    assert compare(output, {"x": expected}).all_right
    trace(output)
    assert torch.equal(x.grad, expected)


# --- dual tensors (torch.autograd.forward_ad) and double backward ---------------------------------


@pytest.mark.parametrize("helper", EVERY_HELPER_AND_TRACE)
def test_a_dual_tensor_without_requires_grad_is_refused_with_where_its_tangent_is(helper):
    with fwAD.dual_level():
        t = fwAD.make_dual(torch.tensor([0.5, 1.0]), torch.ones(2))
        y = (t * t).sin().sum()
        assert_refused(
            lambda: EVERY_HELPER_AND_TRACE[helper](y, t), "forward_ad.unpack_dual(y).tangent"
        )


def test_a_dual_tensor_with_requires_grad_is_drawn_and_differentiated_as_autograd_does():
    primal = torch.tensor([0.5, 1.0], requires_grad=True)
    with fwAD.dual_level():
        t = fwAD.make_dual(primal, torch.ones(2))
        y = (t * t).sin().sum()
        assert fwAD.unpack_dual(y).tangent is not None  # forward mode ran alongside
        assert_the_picture_is_real(y, "primal", primal=primal)
        assert_same_gradients(y, [primal])
        (expected,) = torch.autograd.grad(y, primal, retain_graph=True)
        assert compare(y, {"primal": expected}).all_right
        trace(y)
    assert torch.equal(primal.grad, expected)


def test_a_gradient_made_with_create_graph_is_drawn_and_differentiated_again():
    x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    (first,) = torch.autograd.grad((x**3).sum(), x, create_graph=True)
    second = first.sum()
    assert_the_picture_is_real(second, "x", x=x)
    assert_same_gradients(second, [x])
    assert compare(second, {"x": 6 * x.detach()}).all_right
    trace(second)
    assert torch.allclose(x.grad, 6 * x.detach())

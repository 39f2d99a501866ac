"""A picture drawn inside forward_ad.dual_level(): each dual tensor's box shows its tangent (the
derivative along the direction given to make_dual) beside its value, on the backward graph
PyTorch records for the same operations."""

import warnings

import torch
from torch.autograd import forward_ad
from torch.func import jvp

from helpers.graph import build, draw
from helpers.graph.dot import TANGENT_COLOUR, to_dot
from helpers.graph.model import describe
from helpers.language import speaking

M = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]])
DIRECTION = torch.tensor([1.0, 0.0, 0.0])


def tanh_of_mx(x):
    return torch.tanh(M @ x)


def boxes(model):
    return {node.title: node for node in model.nodes if node.title}


def test_inside_a_dual_level_each_named_tensor_shows_its_tangent_and_the_leaf_none():
    x = torch.tensor([0.2, -0.1, 0.3], requires_grad=True)
    with forward_ad.dual_level():
        dual_x = forward_ad.make_dual(x, DIRECTION)
        z = M @ dual_x
        y = torch.tanh(z)
        model = build(y, {"x": x, "dual_x": dual_x, "z": z, "y": y})
        tangents = {name: forward_ad.unpack_dual(t).tangent for name, t in [("z", z), ("y", y)]}
    shown = boxes(model)
    assert shown["x"].tangent is None  # the leaf itself carries no tangent: its dual view does
    assert shown["dual_x"].tangent == describe(DIRECTION)
    assert shown["z"].tangent == describe(tangents["z"]) == describe(M @ DIRECTION)
    # y's tangent is J·v, what torch.func.jvp computes for the same function and direction.
    _, j_v = jvp(tanh_of_mx, (x.detach(),), (DIRECTION,))
    assert shown["y"].tangent == describe(j_v)


def test_the_picture_writes_each_tangent_in_blue_and_says_what_blue_means():
    x = torch.tensor([0.2, -0.1, 0.3], requires_grad=True)
    with forward_ad.dual_level():
        y = tanh_of_mx(forward_ad.make_dual(x, DIRECTION))
        source = draw(y).source
        with speaking("zh"):
            chinese = draw(y).source
    assert f'<FONT COLOR="{TANGENT_COLOUR}">tangent [0.7495, 0.0]</FONT>' in source
    assert "In blue, each dual tensor" in source
    assert "蓝字是每个对偶张量的切向量" in chinese


def test_without_values_a_tangent_shows_its_shape_and_dtype():
    x = torch.tensor([0.2, -0.1, 0.3], requires_grad=True)
    with forward_ad.dual_level():
        y = tanh_of_mx(forward_ad.make_dual(x, DIRECTION))
        model = build(y, {"y": y}, show_values=False)
    assert boxes(model)["y"].tangent == describe(torch.zeros(2), show_values=False)


def test_outside_a_dual_level_no_box_has_a_tangent_and_the_caption_says_nothing_of_them():
    x = torch.tensor([0.2, -0.1, 0.3], requires_grad=True)
    with forward_ad.dual_level():
        y = tanh_of_mx(forward_ad.make_dual(x, DIRECTION))
    # The level is over: PyTorch has dropped the tangents; the graph is an ordinary one.
    model = build(y, {"y": y})
    assert all(node.tangent is None for node in model.nodes)
    assert "tangent" not in to_dot(model)


def test_inside_a_dual_level_a_nested_or_sparse_tensor_is_drawn_without_a_tangent():
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "the nested tensor API is a prototype"
        parts = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)], requires_grad=True)
    sparse = torch.ones(3).to_sparse().requires_grad_()
    with forward_ad.dual_level():  # unpack_dual would raise on either
        doubled, summed = parts * 2, torch.sparse.sum(sparse * 2)
        model = build([doubled, summed], {"parts": parts, "sparse": sparse})
    assert {"parts", "sparse"} <= set(boxes(model))
    assert all(node.tangent is None for node in model.nodes)
    # Not requiring grad, they are no dual tensors without a graph either: drawn, not refused.
    with forward_ad.dual_level():
        for tensor in (parts.detach(), sparse.detach()):
            assert draw(tensor * 2).source

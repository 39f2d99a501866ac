"""What the lessons show PyTorch saying, on the torch running these tests.

A few cells show an error or a warning of PyTorch's own, whose words vary a little between torch
versions (torch 2.8 names a node `ExpBackward0` where 2.13 says `Exp`, and words its hints
differently), so nbval does not compare those cells' outputs, and their lessons say so. What the
lessons read from those messages is checked here instead, with `make compat` on the oldest and
the newest supported torch: the kind of error or warning, and the words the lesson quotes.
"""

from __future__ import annotations

import warnings

import pytest
import torch
from torch.autograd import Function

MODIFIED_IN_PLACE = r"modified by an inplace operation.*is at version 1; expected version 0"


def test_01_changing_a_saved_output_through_detach_stops_backward():
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    r = w.exp()
    r.detach()[0] = 100.0
    with pytest.raises(RuntimeError, match=MODIFIED_IN_PLACE):
        r.sum().backward()


@pytest.mark.parametrize("make_non_leaf", ["product", "to(float64)"])
def test_02_reading_a_non_leafs_grad_gives_none_and_a_warning_naming_retain_grad(make_non_leaf):
    x = torch.tensor(3.0)
    w = torch.tensor(2.0, requires_grad=True)
    if make_non_leaf == "product":
        u = w * x
        u.backward()
    else:
        u = torch.randn(3, requires_grad=True).to(torch.float64)
        (u * u).sum().backward()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        assert u.grad is None
    (warning,) = caught
    assert issubclass(warning.category, UserWarning)
    assert "not a leaf Tensor is being accessed" in str(warning.message)
    assert ".retain_grad()" in str(warning.message)


class ExpSaved(Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * y


def test_04_a_saved_output_changed_in_place_stops_a_custom_functions_backward():
    x = torch.tensor(0.0, requires_grad=True)
    y = ExpSaved.apply(x)
    y.mul_(3)
    with pytest.raises(RuntimeError, match=MODIFIED_IN_PLACE):
        y.backward()


def test_05_an_update_recorded_outside_no_grad_leaves_a_non_leaf_without_grad():
    w1 = torch.randn(4, 3, requires_grad=True)
    (w1 * 2).sum().backward()
    w1 = w1 - 0.1 * w1.grad  # recorded: the new w1 has a grad_fn
    assert not w1.is_leaf
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with pytest.raises(AttributeError, match="'NoneType' object has no attribute 'zero_'"):
            w1.grad.zero_()
    assert any("not a leaf Tensor" in str(warning.message) for warning in caught)


def test_07_a_change_in_place_under_no_grad_is_counted_and_stops_backward():
    x_small = torch.tensor([0.0, 1.0], requires_grad=True)
    y_small = x_small.exp()
    with torch.no_grad():
        y_small.zero_()
    with pytest.raises(RuntimeError, match=MODIFIED_IN_PLACE):
        y_small.sum().backward()


def test_09_an_inference_tensor_cannot_be_saved_for_backward_and_a_clone_can():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.inference_mode():
        by_inference_mode = torch.ones(2)
    with pytest.raises(RuntimeError, match="Inference tensors cannot be saved for backward"):
        (by_inference_mode * w).sum()
    (by_inference_mode.clone() * w).sum().backward()
    assert w.grad.tolist() == [1.0, 1.0]


def test_09_sigmoids_saved_output_changed_in_place_is_named_by_its_node():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.sigmoid()
    y.mul_(2)
    with pytest.raises(RuntimeError, match=MODIFIED_IN_PLACE) as raised:
        y.sum().backward()
    assert "output 0 of Sigmoid" in str(raised.value)  # SigmoidBackward0 on older torch

"""Check yourself, notebook 07: what the old ``Variable``-era idioms do on today's PyTorch."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_numbers, exercise


@exercise(
    "07.1",
    "What does type(torch.autograd.Variable(torch.ones(2))) return on today's PyTorch? "
    "(the class itself, or its name as a string)",
    "Since PyTorch 0.4 Variable and Tensor are one class: Variable(t) returns a plain "
    "torch.Tensor, and Variable survives only as a name old code can still import.",
    right_answers=(torch.Tensor, "torch.Tensor", "Tensor"),
    wrong_answers=(torch.autograd.Variable, "Variable", "torch.autograd.Variable"),
)
def _variable_returns_a_tensor(answer: Any) -> bool:
    if isinstance(answer, str):
        return answer.strip() in {"torch.Tensor", "Tensor"}
    return answer is torch.Tensor


@exercise(
    "07.2",
    "The old page prints loss.data[0]. Which Tensor method gives the loss as a Python number "
    "today? (its name, as a string)",
    "A loss is a 0-dim tensor, which has no index 0; loss.item() returns its one value as a "
    "Python float (and copies it to the CPU if it lives on a GPU).",
    right_answers=("item", "item()", ".item()", "loss.item()"),
    wrong_answers=("loss.data[0]", "data", "loss[0]", "tolist"),
)
def _item_replaces_data_index(answer: Any) -> bool:
    if not isinstance(answer, str):
        return False
    name = answer.strip().removeprefix("loss").removeprefix(".").removesuffix("()")
    return name == "item"


@exercise(
    "07.3",
    "x = torch.tensor([0.0, 1.0], requires_grad=True); y = x.exp(); y.data.zero_(); "
    "y.sum().backward(). What is x.grad? (two numbers)",
    "exp saves its output for backward, since d(exp x)/dx = exp x. Zeroing it through .data "
    "skips the version check, so backward silently uses the zeros: x.grad is [0, 0] instead "
    "of the true [1, e]. The same zero_() under torch.no_grad() would make backward raise.",
    right_answers=([0, 0], (0.0, 0.0), torch.zeros(2)),
    wrong_answers=([1.0, 2.7183], [1, 1], 0, "RuntimeError"),
)
def _data_hides_the_in_place_change(answer: Any) -> bool:
    numbers = as_numbers(answer)
    return numbers.shape == (2,) and bool((numbers == 0).all())

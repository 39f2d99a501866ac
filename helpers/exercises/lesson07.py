"""Check yourself, notebook 07: what the old ``Variable``-era idioms do on today's PyTorch."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_word, exercise, numbers_equal


@exercise(
    "07.1",
    "What does type(torch.autograd.Variable(torch.ones(2))) return on today's PyTorch? "
    "(the class itself, or its name as a string)",
    hint="Since PyTorch 0.4, is a Variable still a class of its own? Notebook 07 printed what "
    "Variable(t) gives back: what is its type?",
    why="Since PyTorch 0.4 Variable and Tensor are one class: Variable(t) returns a plain "
    "torch.Tensor, and Variable survives only as a name old code can still import.",
    right_answers=(torch.Tensor, "torch.Tensor", "Tensor", "<class 'torch.Tensor'>", "TENSOR"),
    wrong_answers=(
        torch.autograd.Variable,
        "Variable",
        "torch.autograd.Variable",
        "<class 'torch.autograd.variable.Variable'>",
        torch.tensor,
        None,
    ),
)
def _variable_returns_a_tensor(answer: Any) -> bool:
    return as_word(answer) in {"torch.tensor", "tensor"}


@exercise(
    "07.2",
    "The old page prints loss.data[0]. Which Tensor method gives the loss as a Python number "
    "today? (its name, as a string)",
    hint="A loss is a 0-dimensional tensor: it has no index 0, but it holds exactly one value. "
    "Which Tensor method returns that one value as a plain Python number?",
    why="A loss is a 0-dim tensor, which has no index 0; loss.item() returns its one value as a "
    "Python float (and copies it to the CPU if it lives on a GPU). loss.tolist() happens to "
    "give the same float for a 0-dim tensor, but item() says what you mean, and it raises "
    "when the tensor holds more than one number.",
    right_answers=("item", "item()", ".item()", "loss.item()", "ITEM", "Item()", "tolist"),
    wrong_answers=("loss.data[0]", "data", "loss[0]", "numpy", "items", 0),
)
def _item_replaces_data_index(answer: Any) -> bool:
    name = as_word(answer).removeprefix("loss").removeprefix(".").removesuffix("()")
    # tolist() of a 0-dim tensor is a Python float too: right, if not the idiom.
    return name in ("item", "tolist")


@exercise(
    "07.3",
    "x = torch.tensor([0.0, 1.0], requires_grad=True); y = x.exp(); y.data.zero_(); "
    "y.sum().backward(). What is x.grad? (two numbers)",
    hint="exp saves its output for backward, because the derivative of exp is exp itself. What "
    "did y.data.zero_() do to that saved output, and does autograd notice a change made "
    "through .data?",
    why="exp saves its output for backward, since d(exp x)/dx = exp x. Zeroing it through .data "
    "skips the version check, so backward silently uses the zeros: x.grad is [0, 0] instead "
    "of the true [1, e]. The same zero_() under torch.no_grad() would make backward raise.",
    right_answers=([0, 0], (0.0, 0.0), torch.zeros(2), "tensor([0., 0.])", [-0.0, 0.0]),
    wrong_answers=([1.0, 2.7183], [1, 1], 0, "RuntimeError", [False, False], [0, 0, 0]),
)
def _data_hides_the_in_place_change(answer: Any) -> bool:
    return numbers_equal(answer, [0.0, 0.0])

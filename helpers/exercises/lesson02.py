"""Check-yourself questions of notebook 02: leaf tensors and retain_grad."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_names, as_number, exercise, means_none


@exercise(
    "02.1",
    "After a.backward() on the first graph (no retain_grad), which of x, w, b, u, v, a "
    "have a gradient in .grad? Give their names, e.g. {'x', 'a'}.",
    hint="Two questions for each tensor: is it a leaf (created by you, not computed from "
    "others)? And did it require grad? Only tensors with both keep a .grad without "
    "retain_grad().",
    why="Only leaves that require grad get .grad filled: w and b. x is a leaf that does not "
    "require grad; u, v and a are not leaves, so their gradients are dropped once passed on.",
    right_answers=({"w", "b"}, ["b", "w"], "w, b", "{'b', 'w'}", {"W", "B"}, ("w", "b")),
    wrong_answers=({"w", "b", "x"}, {"u", "v", "a"}, {"w"}, "all", {"w": 1, "b": 2}, [None]),
)
def _leaves_with_grad(answer: Any) -> bool:
    return as_names(answer) == {"w", "b"}


@exercise(
    "02.2",
    "Same function, w = 2.0 and b = 1.0, but x = -3.0. What is w.grad after a.backward()?",
    hint="Work out v = w * x + b first: is it positive or negative, and what is relu's slope "
    "there? The chain rule multiplies that slope by x.",
    why="v = 2·(-3) + 1 = -5 is negative, where relu is flat: da/dw = relu'(v)·x = 0·(-3) = 0 "
    "(PyTorch prints it as -0., which equals 0). It is zero, not None: w is a leaf that requires "
    "grad, so its .grad is filled.",
    right_answers=(0, 0.0, -0.0, "-0.", torch.tensor(-0.0), "tensor(-0.)"),
    wrong_answers=(-3, 3, 1, None, "None", False),
)
def _flat_relu_gradient(answer: Any) -> bool:
    return as_number(answer) == 0.0


@exercise(
    "02.3",
    "You forgot retain_grad and call u.retain_grad() only after a.backward() has run. "
    "What does u.grad give then?",
    hint="retain_grad() changes what the next backward passes do. Which pass ran, and did it "
    "know then that u's gradient should be kept?",
    why="retain_grad() asks the next backward pass to keep u's gradient; the pass that already "
    "ran has dropped it, so u.grad is None. Call retain_grad() before backward().",
    right_answers=(None, "None", "none", " NONE "),
    wrong_answers=(1, 1.0, 3, 0, "0", [None], "nothing"),
)
def _retain_grad_too_late(answer: Any) -> bool:
    return means_none(answer)

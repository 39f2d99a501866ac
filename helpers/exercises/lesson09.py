"""Check yourself, notebook 09: hooks, second derivatives, in-place changes, the version counter."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, as_number, exercise


@exercise(
    "09.1",
    "x = torch.tensor(3.0, requires_grad=True); y = x * x; "
    "y.register_hook(lambda grad: grad * 10); y.backward(). What is x.grad?",
    hint="backward starts from dy/dy = 1, and the hook on y sees that gradient first: what does "
    "it return? Then the node of x * x sends each of its two slots the incoming gradient times "
    "the other factor, and x's AccumulateGrad adds both.",
    why="The hook turns the starting gradient 1 into 10 before y's node runs. MulBackward0 sends "
    "10 * x = 30 along each of its two edges, both to x: x.grad = 30 + 30 = 60, ten times "
    "dy/dx = 2x = 6.",
    right_answers=(60, 60.0, "60", torch.tensor(60.0)),
    wrong_answers=(6, 30, 600, 10, "6"),
)
def _hook_on_the_output(answer: Any) -> bool:
    return as_number(answer) == 60.0


@exercise(
    "09.2",
    "x = torch.tensor(2.0, requires_grad=True); y = x**4; "
    "(g,) = torch.autograd.grad(y, x, create_graph=True); (h,) = torch.autograd.grad(g, x). "
    "What is h?",
    hint="g is dy/dx as a tensor with a history (create_graph=True), so differentiating it again "
    "gives the second derivative. Differentiate x**4 twice by hand, then put in x = 2.",
    why="g = 4x³ = 32, recorded; h = dg/dx = 12x² = 48 at x = 2.",
    right_answers=(48, 48.0, "48", torch.tensor(48.0)),
    wrong_answers=(32, 24, 96, 16, "32"),
)
def _second_derivative(answer: Any) -> bool:
    return as_number(answer) == 48.0


@exercise(
    "09.3",
    "x = torch.tensor([1.0, 2.0], requires_grad=True); y = x.sigmoid(). Which next line makes a "
    "following y.sum().backward() fail with the in-place error? 'a': y = y * 2; 'b': y *= 2; "
    "'c': z = y + 1.",
    hint="The error needs a change to the very tensor sigmoid saved, its output y, made in y's "
    "own memory. Which of the three lines writes into that memory, and which ones make a new "
    "tensor or only read y?",
    why="For a tensor, y *= 2 is the in-place y.mul_(2): it changes the output sigmoid saved and "
    "raises its version from 0 to 1, so backward refuses. y = y * 2 makes a new tensor and "
    "rebinds the name y; z = y + 1 only reads y. Both leave the saved output at version 0.",
    right_answers=("b", "B", " b "),
    wrong_answers=("a", "c", "ab", True, 2),
)
def _augmented_assignment_is_in_place(answer: Any) -> bool:
    return as_choice(answer, "abc") == "b"


@exercise(
    "09.4",
    "t = torch.zeros(3); t.add_(1); t[0] = 5; t.mul_(2). What is t._version now?",
    hint="torch.zeros gives a fresh tensor at version 0, and every in-place change adds one. "
    "Which of the three lines change t in place? An assignment into t[0] writes into t's memory "
    "too.",
    why="add_, the assignment t[0] = 5 and mul_ each change t in place, and each adds 1 to its "
    "version counter: 0 + 3 = 3. An operation that makes a new tensor, such as t + 1, would leave "
    "it alone.",
    right_answers=(3, 3.0, "3", torch.tensor(3)),
    wrong_answers=(2, 1, 0, 4, "2"),
)
def _version_counter(answer: Any) -> bool:
    return as_number(answer) == 3

"""Check-yourself questions of notebook 02: leaf tensors and retain_grad."""

from __future__ import annotations

import re
from typing import Any

from helpers.exercises import as_number, exercise


def _names(answer: Any) -> set[str]:
    # Accept {"w", "b"}, ["b", "w"] or "w, b": the order and the spelling of the list do not matter.
    if isinstance(answer, str):
        answer = re.split(r"[\s,]+", answer.strip())
    return {str(name).strip().lower() for name in answer if str(name).strip()}


@exercise(
    "02.1",
    "After a.backward() on the first graph (no retain_grad), which of x, w, b, u, v, a "
    "have a gradient in .grad? Give their names, e.g. {'x', 'a'}.",
    why="Only leaves that require grad get .grad filled: w and b. x is a leaf that does not "
    "require grad; u, v and a are not leaves, so their gradients are dropped once passed on.",
    right_answers=({"w", "b"}, ["b", "w"], "w, b"),
    wrong_answers=({"w", "b", "x"}, {"u", "v", "a"}, {"w"}, "all"),
)
def _leaves_with_grad(answer: Any) -> bool:
    return _names(answer) == {"w", "b"}


@exercise(
    "02.2",
    "Same function, w = 2.0 and b = 1.0, but x = -3.0. What is w.grad after a.backward()?",
    why="v = 2·(-3) + 1 = -5 is negative, where relu is flat: da/dw = relu'(v)·x = 0·(-3) = 0 "
    "(PyTorch prints it as -0., which equals 0). It is zero, not None: w is a leaf that requires "
    "grad, so its .grad is filled.",
    right_answers=(0, 0.0, -0.0),
    wrong_answers=(-3, 3, 1, None),
)
def _flat_relu_gradient(answer: Any) -> bool:
    return as_number(answer) == 0.0


@exercise(
    "02.3",
    "You forgot retain_grad and call u.retain_grad() only after a.backward() has run. "
    "What does u.grad give then?",
    why="retain_grad() asks the next backward pass to keep u's gradient; the pass that already "
    "ran has dropped it, so u.grad is None. Call retain_grad() before backward().",
    right_answers=(None,),
    wrong_answers=(1, 1.0, 3, "None"),
)
def _retain_grad_too_late(answer: Any) -> bool:
    return answer is None

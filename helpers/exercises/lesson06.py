"""Check yourself, notebook 06: ReLU's gradient at 0, and why gradcheck wants float64."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, exercise, numbers_equal


@exercise(
    "06.1",
    "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True), then torch.relu(x).sum().backward(). "
    "What is x.grad?",
    hint="sum() sends a gradient of 1 to every element, and torch.relu passes it only where its "
    "input is strictly above 0. Decide element by element; section 1 of this notebook tried "
    "the middle one.",
    why="torch.relu passes the gradient only where the input is above 0: [0, 0, 1]. At exactly 0 "
    "it blocks it, unlike clamp(min=0) and MyReLU, which would give [0, 1, 1].",
    right_answers=(
        [0, 0, 1],
        (0.0, 0.0, 1.0),
        torch.tensor([0.0, 0.0, 1.0]),
        "tensor([0., 0., 1.])",
        "0 0 1",
    ),
    wrong_answers=(
        [0, 1, 1],
        [1, 1, 1],
        [0, 0, 2],
        1,
        [False, False, True],
        torch.tensor([False, False, True]),
        "c",
    ),
)
def _relu_gradient_at_zero(answer: Any) -> bool:
    return numbers_equal(answer, [0.0, 0.0, 1.0])


@exercise(
    "06.2",
    "Why does gradcheck want float64 inputs? 'a': the finite-difference slope it measures keeps "
    "only about two correct digits in float32; 'b': MyReLU only works in float64; 'c': float64 "
    "makes backward run faster.",
    hint="gradcheck measures a slope as (f(x + eps) - f(x - eps)) / (2 * eps) with a tiny eps. "
    "How many of float32's seven or so digits survive the subtraction of two nearly equal "
    "numbers?",
    why="The measured slope divides the difference of two nearly equal outputs by a tiny step; "
    "float32 keeps too few digits of that difference, so even a correct backward would fail "
    "the check.",
    right_answers=("a", "A", " a"),
    wrong_answers=("b", "c", 1, "ab", [True, False, False], ["a"]),
)
def _why_double(answer: Any) -> bool:
    return as_choice(answer, "abc") == "a"

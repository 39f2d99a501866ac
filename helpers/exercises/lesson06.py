"""Check yourself, notebook 06: ReLU's gradient at 0, and why gradcheck wants float64."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, as_numbers, exercise


@exercise(
    "06.1",
    "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True), then torch.relu(x).sum().backward(). "
    "What is x.grad?",
    "torch.relu passes the gradient only where the input is above 0: [0, 0, 1]. At exactly 0 it "
    "blocks it, unlike clamp(min=0) and MyReLU, which would give [0, 1, 1].",
    right_answers=([0, 0, 1], (0.0, 0.0, 1.0), torch.tensor([0.0, 0.0, 1.0])),
    wrong_answers=([0, 1, 1], [1, 1, 1], [0, 0, 2], 1, "0 0 1"),
)
def _relu_gradient_at_zero(answer: Any) -> bool:
    numbers = as_numbers(answer)
    expected = torch.tensor([0.0, 0.0, 1.0], dtype=torch.float64)
    return numbers.shape == expected.shape and torch.equal(numbers, expected)


@exercise(
    "06.2",
    "Why does gradcheck want float64 inputs? 'a': the finite-difference slope it measures keeps "
    "only about two correct digits in float32; 'b': MyReLU only works in float64; 'c': float64 "
    "makes backward run faster.",
    "The measured slope divides the difference of two nearly equal outputs by a tiny step; float32 "
    "keeps too few digits of that difference, so even a correct backward would fail the check.",
    right_answers=("a", "A", " a"),
    wrong_answers=("b", "c", 1, "ab"),
)
def _why_double(answer: Any) -> bool:
    return as_choice(answer) == "a"

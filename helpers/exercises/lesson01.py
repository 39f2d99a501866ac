"""Check yourself, notebook 01: accumulation, ``no_grad``, and the vector-Jacobian product."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_number, as_numbers, exercise


@exercise(
    "01.1",
    "w = torch.tensor(3.0, requires_grad=True); you run (w * w).backward() three times and "
    "never zero the gradient. What is w.grad?",
    "Each backward adds d(w*w)/dw = 2w = 6 into w.grad, and nothing clears it between "
    "calls: 6 + 6 + 6 = 18.",
    right_answers=(18, 18.0, torch.tensor(18.0)),
    wrong_answers=(6, 6.0, 0, "18"),
)
def _accumulated_gradient(answer: Any) -> bool:
    return as_number(answer) == 18.0


@exercise(
    "01.2",
    "w requires grad. Inside `with torch.no_grad():` you compute z = w * 2. "
    "What is z.requires_grad (True or False)?",
    "Under no_grad autograd records nothing: z has no grad_fn, so z.requires_grad is False "
    "even though w requires grad.",
    right_answers=(False, "False", "false"),
    wrong_answers=(True, "True", 0),
)
def _no_grad_result(answer: Any) -> bool:
    # Only a bool or its spelling counts: 0 == False in Python, but 0 is not an answer here.
    if isinstance(answer, bool):
        return answer is False
    if isinstance(answer, str):
        return answer.strip().lower() == "false"
    return False


@exercise(
    "01.3",
    "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True); y = x * x; "
    "y.backward(torch.tensor([1.0, 0.0, 1.0])). What is x.grad (three numbers)?",
    "backward(v) computes the vector-Jacobian product. The Jacobian of x * x is diagonal with "
    "2x = [2, 4, 6] on it, and v = [1, 0, 1] keeps the first and last: [2, 0, 6].",
    right_answers=([2, 0, 6], (2.0, 0.0, 6.0), torch.tensor([2.0, 0.0, 6.0])),
    wrong_answers=([2, 4, 6], [1, 0, 1], 8, [2, 0]),
)
def _vector_jacobian_product(answer: Any) -> bool:
    numbers = as_numbers(answer)
    expected = torch.tensor([2.0, 0.0, 6.0], dtype=torch.float64)
    return numbers.shape == expected.shape and torch.allclose(numbers, expected)

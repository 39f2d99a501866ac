"""Check yourself, notebook 01: accumulation, ``no_grad``, and the vector-Jacobian product."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from helpers.exercises import as_bool, as_number, exercise, numbers_equal


@exercise(
    "01.1",
    "w = torch.tensor(3.0, requires_grad=True); you run (w * w).backward() three times and "
    "never zero the gradient. What is w.grad?",
    hint="Each call of backward() puts the gradient it computes into w.grad: does it replace "
    "what is there, or add to it? Work out d(w*w)/dw at w = 3 and count the calls.",
    why="Each backward adds d(w*w)/dw = 2w = 6 into w.grad, and nothing clears it between "
    "calls: 6 + 6 + 6 = 18.",
    right_answers=(18, 18.0, torch.tensor(18.0), "18", np.float32(18), torch.tensor([18.0])),
    wrong_answers=(6, 6.0, 0, "6", [18], None, True),
)
def _accumulated_gradient(answer: Any) -> bool:
    return as_number(answer) == 18.0


@exercise(
    "01.2",
    "w requires grad. Inside `with torch.no_grad():` you compute z = w * 2. "
    "What is z.requires_grad (True or False)?",
    hint="Under torch.no_grad() autograd records no operation. Without a record, could "
    "backward ever reach w from z? Look at z.grad_fn.",
    why="Under no_grad autograd records nothing: z has no grad_fn, so z.requires_grad is False "
    "even though w requires grad.",
    right_answers=(False, "False", "false", np.False_, torch.tensor(False), "tensor(False)"),
    wrong_answers=(True, "True", 0, 0.0, torch.tensor(True), "no", [False]),
)
def _no_grad_result(answer: Any) -> bool:
    return as_bool(answer) is False


@exercise(
    "01.3",
    "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True); y = x * x; "
    "y.backward(torch.tensor([1.0, 0.0, 1.0])). What is x.grad (three numbers)?",
    hint="backward(v) computes v times the Jacobian of y. Each y[i] = x[i] * x[i] depends on "
    "x[i] alone, with slope 2 * x[i]; v weights each of those slopes.",
    why="backward(v) computes the vector-Jacobian product. The Jacobian of x * x is diagonal with "
    "2x = [2, 4, 6] on it, and v = [1, 0, 1] keeps the first and last: [2, 0, 6].",
    right_answers=(
        [2, 0, 6],
        (2.0, 0.0, 6.0),
        torch.tensor([2.0, 0.0, 6.0]),
        "tensor([2., 0., 6.])",
        "[2, 0, 6]",
        np.array([2, 0, 6]),
        torch.tensor([2.0, 0.0, 6.0]).to_sparse(),
    ),
    wrong_answers=([2, 4, 6], [1, 0, 1], 8, [2, 0], [True, False, True], "2 4 6", [[2, 0, 6]]),
)
def _vector_jacobian_product(answer: Any) -> bool:
    return numbers_equal(answer, [2.0, 0.0, 6.0])

"""Check yourself, notebook 01: accumulation, ``no_grad``, and the vector-Jacobian product."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from helpers.exercises import as_bool, as_number, exercise, numbers_equal


@exercise(
    "01.1",
    {
        "en": "w = torch.tensor(3.0, requires_grad=True); you run (w * w).backward() three "
        "times and never zero the gradient. What is w.grad?",
        "zh": "w = torch.tensor(3.0, requires_grad=True)；把 (w * w).backward() 运行三次，"
        "中间一次也不把梯度清零。w.grad 是多少？",
    },
    hint={
        "en": "Each call of backward() puts the gradient it computes into w.grad: does it replace "
        "what is there, or add to it? Work out d(w*w)/dw at w = 3 and count the calls.",
        "zh": "每次调用 backward() 都会把算出的梯度放进 w.grad：是替换掉原来的值，还是加到原来的"
        "值上？先算出 w = 3 处的 d(w*w)/dw，再数一数调用了几次。",
    },
    why={
        "en": "Each backward adds d(w*w)/dw = 2w = 6 into w.grad, and nothing clears it between "
        "calls: 6 + 6 + 6 = 18.",
        "zh": "每次 backward() 都把 d(w*w)/dw = 2w = 6 加到 w.grad 上，两次调用之间没有任何操作"
        "把它清零，这就是梯度累加：6 + 6 + 6 = 18。",
    },
    right_answers=(
        18,
        18.0,
        torch.tensor(18.0),
        "18",
        np.float32(18),
        torch.tensor([18.0]),
        "18。",
        "十八",
    ),
    wrong_answers=(6, 6.0, 0, "6", [18], None, True, "六", "6 和 18"),
)
def _accumulated_gradient(answer: Any) -> bool:
    return as_number(answer) == 18.0


@exercise(
    "01.2",
    {
        "en": "w requires grad. Inside `with torch.no_grad():` you compute z = w * 2. "
        "What is z.requires_grad (True or False)?",
        "zh": "w 需要梯度。在 `with torch.no_grad():` 块里计算 z = w * 2。"
        "z.requires_grad 是 True 还是 False？",
    },
    hint={
        "en": "Under torch.no_grad() autograd records no operation. Without a record, could "
        "backward ever reach w from z? Look at z.grad_fn.",
        "zh": "在 torch.no_grad() 之下，自动求导不记录任何操作。没有记录，反向传播还能从 z "
        "走回 w 吗？看看 z.grad_fn。",
    },
    why={
        "en": "Under no_grad autograd records nothing: z has no grad_fn, so z.requires_grad is "
        "False even though w requires grad.",
        "zh": "在 no_grad 之下自动求导什么也不记录：z 没有 grad_fn，所以即使 w 需要梯度，"
        "z.requires_grad 也是 False。",
    },
    right_answers=(
        False,
        "False",
        "false",
        np.False_,
        torch.tensor(False),
        "tensor(False)",
        "False.",
        "“False”",
        "「False」",
    ),
    wrong_answers=(True, "True", 0, 0.0, torch.tensor(True), "no", "否", [False], "“True”。"),
)
def _no_grad_result(answer: Any) -> bool:
    return as_bool(answer) is False


@exercise(
    "01.3",
    {
        "en": "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True); y = x * x; "
        "y.backward(torch.tensor([1.0, 0.0, 1.0])). What is x.grad (three numbers)?",
        "zh": "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)；y = x * x；"
        "y.backward(torch.tensor([1.0, 0.0, 1.0]))。x.grad 是什么（三个数）？",
    },
    hint={
        "en": "backward(v) computes v times the Jacobian of y. Each y[i] = x[i] * x[i] depends "
        "on x[i] alone, with slope 2 * x[i]; v weights each of those slopes.",
        "zh": "backward(v) 计算的是 v 乘以 y 的雅可比矩阵。每个 y[i] = x[i] * x[i] 只依赖 x[i]，"
        "斜率是 2 * x[i]；v 给每个斜率加上一个权重。",
    },
    why={
        "en": "backward(v) computes the vector-Jacobian product. The Jacobian of x * x is "
        "diagonal with 2x = [2, 4, 6] on it, and v = [1, 0, 1] keeps the first and last: "
        "[2, 0, 6].",
        "zh": "backward(v) 计算的是向量-雅可比积。x * x 的雅可比矩阵是对角矩阵，对角线上是 "
        "2x = [2, 4, 6]；v = [1, 0, 1] 只保留第一个和最后一个：[2, 0, 6]。",
    },
    right_answers=(
        [2, 0, 6],
        (2.0, 0.0, 6.0),
        torch.tensor([2.0, 0.0, 6.0]),
        "tensor([2., 0., 6.])",
        "[2, 0, 6]",
        np.array([2, 0, 6]),
        torch.tensor([2.0, 0.0, 6.0]).to_sparse(),
        "［２，０，６］",
        "【2，0，6】",
        "[2, 0, 6]。",
        "array([2., 0., 6.])",
    ),
    wrong_answers=(
        [2, 4, 6],
        [1, 0, 1],
        8,
        [2, 0],
        [True, False, True],
        "2 4 6",
        [[2, 0, 6]],
        "【2，4，6】",
    ),
)
def _vector_jacobian_product(answer: Any) -> bool:
    return numbers_equal(answer, [2.0, 0.0, 6.0])

"""Check yourself, notebook 06: ReLU's gradient at 0, and why gradcheck wants float64."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, exercise, numbers_equal


@exercise(
    "06.1",
    {
        "en": "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True), then "
        "torch.relu(x).sum().backward(). What is x.grad?",
        "zh": "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)，然后运行 "
        "torch.relu(x).sum().backward()。x.grad 是什么？",
    },
    hint={
        "en": "sum() sends a gradient of 1 to every element, and torch.relu passes it only where "
        "its input is strictly above 0. Decide element by element; section 1 of this notebook "
        "tried the middle one.",
        "zh": "sum() 给每个元素传回梯度 1，而 torch.relu 只在输入严格大于 0 的地方让它通过。"
        "逐个元素判断；本笔记本第 1 节已经试过中间那个。",
    },
    why={
        "en": "torch.relu passes the gradient only where the input is above 0: [0, 0, 1]. At "
        "exactly 0 it blocks it, unlike clamp(min=0) and MyReLU, which would give [0, 1, 1].",
        "zh": "torch.relu 只在输入大于 0 的地方让梯度通过：[0, 0, 1]。输入恰好为 0 时它把梯度"
        "挡住；clamp(min=0) 和 MyReLU 则不同，它们会给出 [0, 1, 1]。",
    },
    right_answers=(
        [0, 0, 1],
        (0.0, 0.0, 1.0),
        torch.tensor([0.0, 0.0, 1.0]),
        "tensor([0., 0., 1.])",
        "0 0 1",
        "０、０、１",
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
    {
        "en": "Why does gradcheck want float64 inputs? 'a': the finite-difference slope it "
        "measures keeps only about two correct digits in float32; 'b': MyReLU only works in "
        "float64; 'c': float64 makes backward run faster.",
        "zh": "gradcheck 为什么要求 float64 输入？'a'：它用有限差分测出的斜率，在 float32 下"
        "只剩大约两位正确的数字；'b'：MyReLU 只能在 float64 下工作；'c'：float64 让 backward "
        "跑得更快。",
    },
    hint={
        "en": "gradcheck measures a slope as (f(x + eps) - f(x - eps)) / (2 * eps) with a tiny "
        "eps. How many of float32's seven or so digits survive the subtraction of two nearly "
        "equal numbers?",
        "zh": "gradcheck 取一个很小的 eps，按 (f(x + eps) - f(x - eps)) / (2 * eps) 测量斜率。"
        "两个几乎相等的数相减之后，float32 大约七位有效数字里还能剩下几位？",
    },
    why={
        "en": "The measured slope divides the difference of two nearly equal outputs by a tiny "
        "step; float32 keeps too few digits of that difference, so even a correct backward "
        "would fail the check.",
        "zh": "测出的斜率是两个几乎相等的输出之差除以一个很小的步长；float32 在这个差里保留的"
        "数字太少，所以即使 backward 写对了，也会通不过检查。",
    },
    right_answers=("a", "A", " a", "‘a’"),
    wrong_answers=("b", "c", 1, "ab", [True, False, False], ["a"]),
)
def _why_double(answer: Any) -> bool:
    return as_choice(answer, "abc") == "a"

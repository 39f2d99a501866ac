"""Check yourself, notebook 06: ReLU's gradient at 0, and why gradcheck wants float64."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, exercise, numbers_equal


@exercise(
    "06.1",
    {
        "en": "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True), then "
        "(torch.relu(x) + MyReLU.apply(x)).sum().backward(). What is x.grad?",
        "zh": "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)，然后运行 "
        "(torch.relu(x) + MyReLU.apply(x)).sum().backward()。x.grad 是什么？",
    },
    hint={
        "en": "x is used twice, so the gradients of its two uses add up in x.grad (notebook 01). "
        "Go element by element and ReLU by ReLU: the table in section 1 says what each one "
        "lets through, and what each does at exactly 0.",
        "zh": "x 被用了两次，所以两处使用传回的梯度会在 x.grad 里相加（笔记本 01）。逐个元素、"
        "逐个 ReLU 地看：第 1 节的表格说明了每个 ReLU 让哪些梯度通过，以及它在恰好为 0 时"
        "怎么做。",
    },
    why={
        "en": "sum() sends 1 to each element of both ReLUs' outputs. At -1 both block it: "
        "0 + 0 = 0. At 0, torch.relu blocks it and MyReLU (like clamp(min=0)) lets it through: "
        "0 + 1 = 1. At 2 both let it through: 1 + 1 = 2. So x.grad is [0, 1, 2].",
        "zh": "sum() 给两个 ReLU 输出的每个元素都传回 1。在 -1 处两者都挡住：0 + 0 = 0。在 0 处，"
        "torch.relu 挡住，MyReLU（和 clamp(min=0) 一样）让它通过：0 + 1 = 1。在 2 处两者都"
        "通过：1 + 1 = 2。所以 x.grad 是 [0, 1, 2]。",
    },
    right_answers=(
        [0, 1, 2],
        (0.0, 1.0, 2.0),
        torch.tensor([0.0, 1.0, 2.0]),
        "tensor([0., 1., 2.])",
        "0 1 2",
        "０、１、２",
        "[0. 1. 2.]",
        "array([0., 1., 2.])",
        "np.array([0, 1, 2])",
        "【0，1，2】。",
        "0，1 和 2",
    ),
    wrong_answers=(
        [0, 0, 1],
        [0, 1, 1],
        [0, 0, 2],
        [0, 2, 2],
        [1, 1, 2],
        2,
        [False, True, True],
        "c",
        "[0. 1. 1.]",
        "array([0., 0., 2.])",
    ),
)
def _two_relus_at_zero(answer: Any) -> bool:
    return numbers_equal(answer, [0.0, 1.0, 2.0])


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
    right_answers=("a", "A", " a", "‘a’", "a。", "(a)"),
    wrong_answers=("b", "c", 1, "ab", [True, False, False], ["a"]),
)
def _why_double(answer: Any) -> bool:
    return as_choice(answer, "abc") == "a"

"""Check-yourself questions of notebook 02: leaf tensors and retain_grad."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_names, as_number, exercise, means_none


@exercise(
    "02.1",
    {
        "en": "After a.backward() on the first graph (no retain_grad), which of x, w, b, u, v, a "
        "have a gradient in .grad? Give their names, e.g. {'x', 'a'}.",
        "zh": "在第一个计算图上运行 a.backward() 之后（没有调用 retain_grad），x、w、b、u、v、a "
        "中哪些的 .grad 里有梯度？写出它们的名字，例如 {'x', 'a'}。",
    },
    hint={
        "en": "Two questions for each tensor: is it a leaf (created by you, not computed from "
        "others)? And did it require grad? Only tensors with both keep a .grad without "
        "retain_grad().",
        "zh": "对每个张量问两个问题：它是叶子张量吗（由你直接创建，而不是由别的张量算出来的）？"
        "它需要梯度吗？两条都满足的张量，不调用 retain_grad() 也会保留 .grad。",
    },
    why={
        "en": "Only leaves that require grad get .grad filled: w and b. x is a leaf that does "
        "not require grad; u, v and a are not leaves, so their gradients are dropped once "
        "passed on.",
        "zh": "只有需要梯度的叶子张量才会得到 .grad：w 和 b。x 是叶子张量，但不需要梯度；"
        "u、v、a 不是叶子张量，它们的梯度一传下去就被丢掉了。",
    },
    right_answers=(
        {"w", "b"},
        ["b", "w"],
        "w, b",
        "{'b', 'w'}",
        {"W", "B"},
        ("w", "b"),
        "w、b",
        "{‘w’，‘b’}",
        "w和b",
        "w and b",
        "w；b。",
    ),
    wrong_answers=(
        {"w", "b", "x"},
        {"u", "v", "a"},
        {"w"},
        "all",
        {"w": 1, "b": 2},
        [None],
        "w、b 和 x",
    ),
)
def _leaves_with_grad(answer: Any) -> bool:
    return as_names(answer) == {"w", "b"}


@exercise(
    "02.2",
    {
        "en": "Same function, w = 2.0 and b = 1.0, but x = -3.0. What is w.grad after "
        "a.backward()?",
        "zh": "还是同一个函数，w = 2.0、b = 1.0，但 x = -3.0。a.backward() 之后 w.grad 是多少？",
    },
    hint={
        "en": "Work out v = w * x + b first: is it positive or negative, and what is relu's "
        "slope there? The chain rule multiplies that slope by x.",
        "zh": "先算出 v = w * x + b：它是正数还是负数？relu 在那里的斜率是多少？"
        "链式法则再把这个斜率乘以 x。",
    },
    why={
        "en": "v = 2·(-3) + 1 = -5 is negative, where relu is flat: da/dw = relu'(v)·x = "
        "0·(-3) = 0 (PyTorch prints it as -0., which equals 0). It is zero, not None: w is a "
        "leaf that requires grad, so its .grad is filled.",
        "zh": "v = 2·(-3) + 1 = -5 是负数，relu 在那里是平的：da/dw = relu'(v)·x = 0·(-3) = 0"
        "（PyTorch 打印成 -0.，它等于 0）。结果是 0 而不是 None：w 是需要梯度的叶子张量，"
        "它的 .grad 会被填上。",
    },
    right_answers=(0, 0.0, -0.0, "-0.", torch.tensor(-0.0), "tensor(-0.)", "零", "0。"),
    wrong_answers=(-3, 3, 1, None, "None", False, "无", "负三"),
)
def _flat_relu_gradient(answer: Any) -> bool:
    return as_number(answer) == 0.0


@exercise(
    "02.3",
    {
        "en": "You forgot retain_grad and call u.retain_grad() only after a.backward() has run. "
        "What does u.grad give then?",
        "zh": "你忘了调用 retain_grad，直到 a.backward() 运行完之后才调用 u.retain_grad()。"
        "这时 u.grad 是什么？",
    },
    hint={
        "en": "retain_grad() changes what the next backward passes do. Which pass ran, and did "
        "it know then that u's gradient should be kept?",
        "zh": "retain_grad() 改变的是之后的反向传播。已经运行过的是哪一次？它运行的时候，"
        "知道要保留 u 的梯度吗？",
    },
    why={
        "en": "retain_grad() asks the next backward pass to keep u's gradient; the pass that "
        "already ran has dropped it, so u.grad is None. Call retain_grad() before backward().",
        "zh": "retain_grad() 要求之后的反向传播保留 u 的梯度；已经运行过的那次反向传播早就把它"
        "丢掉了，所以 u.grad 是 None。要在 backward() 之前调用 retain_grad()。",
    },
    right_answers=(None, "None", "none", " NONE ", "“None”", "None。", "None."),
    wrong_answers=(1, 1.0, 3, 0, "0", [None], "nothing", "无", "没有", "无。"),
)
def _retain_grad_too_late(answer: Any) -> bool:
    return means_none(answer)

"""Check-yourself questions of notebook 02: leaf tensors, retain_grad, and the .to() trap."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from helpers.exercises import as_bool, as_bools, as_names, as_number, exercise, means_none


@exercise(
    "02.1",
    {
        "en": "x = torch.tensor(3.0) does not require grad, and data = x * 2 + 1. Give "
        "(data.is_leaf, data.requires_grad) as two True/False values.",
        "zh": "x = torch.tensor(3.0) 不需要梯度，data = x * 2 + 1。用两个 True/False 写出 "
        "(data.is_leaf, data.requires_grad)。",
    },
    hint={
        "en": "Was any operation recorded while data was computed? Without one, data has no "
        "grad_fn. Which of the two kinds of tensor has no grad_fn?",
        "zh": "计算 data 的时候，自动求导记录了什么操作吗？没有记录，data 就没有 grad_fn。"
        "哪一种张量没有 grad_fn？",
    },
    why={
        "en": "Nothing that requires grad went in, so autograd recorded nothing: data has no "
        "grad_fn and does not require grad, and by PyTorch's convention every tensor that does "
        "not require grad is a leaf: (True, False). Being a leaf is not enough for a .grad: the "
        "leaf must also require grad.",
        "zh": "参与计算的张量都不需要梯度，所以自动求导什么也没有记录：data 没有 grad_fn，也不需要"
        "梯度。按照 PyTorch 的约定，不需要梯度的张量都是叶子张量：(True, False)。光是叶子张量"
        "还得不到 .grad，它还必须需要梯度。",
    },
    right_answers=(
        (True, False),
        [True, False],
        "(True, False)",
        "true, false",
        (np.True_, np.False_),
        "（True，False）",
        "True 和 False",
        "tensor([True, False])",
        "对，错",
        "(1, 0)",
    ),
    wrong_answers=(
        (False, False),
        (False, True),
        (True, True),
        (True,),
        False,
        (0, 1),
        "都是 True",
        {True, False},
        "False 和 False",
    ),
)
def _computed_without_grad_is_a_leaf(answer: Any) -> bool:
    return as_bools(answer, count=2) == (True, False)


@exercise(
    "02.2",
    {
        "en": "w = torch.randn(3, requires_grad=True).to(torch.float64), then "
        "(w * w).sum().backward(). What is w.grad?",
        "zh": "w = torch.randn(3, requires_grad=True).to(torch.float64)，然后 "
        "(w * w).sum().backward()。w.grad 是什么？",
    },
    hint={
        "en": "Which tensor did you ask for gradients: the one randn made, or the one .to() "
        "returned? Is w the output of a recorded operation?",
        "zh": "requires_grad=True 设在了哪个张量上：randn 创建的那个，还是 .to() 返回的那个？"
        "w 是不是某个被记录下来的操作的输出？",
    },
    why={
        "en": "requires_grad=True went to the float32 tensor that randn made; .to(torch.float64) "
        "is a recorded copy of it (ToCopyBackward0). So w is not a leaf: its gradient is passed "
        "on to the unnamed float32 leaf, which keeps it, and is not stored in w. w.grad is None, "
        "and PyTorch warns when you read it. .cuda() and .to('cuda') make the same kind of copy.",
        "zh": "requires_grad=True 给的是 randn 创建的那个 float32 张量；.to(torch.float64) "
        "是对它的一次复制，而且被记录了下来（ToCopyBackward0）。所以 w 不是叶子张量：梯度继续传给"
        "那个没有名字的 float32 叶子张量，存在那里，而不会留在 w 上。w.grad 是 None，读取它时 "
        "PyTorch 还会发出警告。.cuda() 和 .to('cuda') 做的也是这样一次复制。",
    },
    right_answers=(None, "None", "none", "“None”", "None。", "None."),
    wrong_answers=(0, "0", [None], "2w", "无", torch.zeros(3), "tensor([0., 0., 0.])"),
)
def _moved_after_requires_grad(answer: Any) -> bool:
    return means_none(answer)


@exercise(
    "02.3",
    {
        "en": "In the cell that converts first and calls requires_grad_() after, swap the two "
        "calls: torch.randn(3).requires_grad_().to(torch.float64). Run it again: what does "
        "w.is_leaf print?",
        "zh": "在先转换、再调用 requires_grad_() 的那个单元格里，把两个调用的顺序对调："
        "torch.randn(3).requires_grad_().to(torch.float64)。再运行一次：w.is_leaf 打印出什么？",
    },
    hint={
        "en": "After the swap, which call comes last, and is it an operation on a tensor that "
        "already requires grad?",
        "zh": "对调之后，最后一个调用是什么？它是不是作用在一个已经需要梯度的张量上的操作？",
    },
    why={
        "en": "Now requires_grad_() is called on the float32 tensor, and the .to(torch.float64) "
        "after it is recorded: w is the output of ToCopyBackward0, not a leaf, so w.is_leaf is "
        "False and w.grad is None again. The order matters: convert or move first, then ask for "
        "gradients.",
        "zh": "现在 requires_grad_() 作用在 float32 张量上，之后的 .to(torch.float64) 就被记录了"
        "下来：w 是 ToCopyBackward0 的输出，不是叶子张量，所以 w.is_leaf 是 False，w.grad 又变回 "
        "None。顺序很重要：先转换或先搬到设备上，再打开梯度。",
    },
    right_answers=(
        False,
        "False",
        "false",
        np.False_,
        torch.tensor(False),
        "False。",
        "“False”",
        "否",
        "no",
        "假",
    ),
    wrong_answers=(True, "True", "是", "yes", 1, [False], torch.tensor(True), "None", 0.0),
)
def _requires_grad_before_the_copy(answer: Any) -> bool:
    return as_bool(answer) is False


@exercise(
    "02.4",
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
    "02.5",
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
    "02.6",
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

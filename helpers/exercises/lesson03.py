"""Check-yourself questions of notebook 03: walking grad_fn by hand."""

from __future__ import annotations

from typing import Any

import numpy as np

from helpers.exercises import as_number, exercise


@exercise(
    "03.1",
    {
        "en": "Build y = x * w, x first this time (x = 3.0 without grad, w = 2.0 with). For "
        "which index i is y.grad_fn.next_functions[i][0] None?",
        "zh": "这次把 x 放在前面，构建 y = x * w（x = 3.0 不需要梯度，w = 2.0 需要梯度）。"
        "y.grad_fn.next_functions[i][0] 在哪个下标 i 处是 None？",
    },
    hint={
        "en": "next_functions has one pair per input of the operation, in the order the inputs "
        "were given to it. An input that does not require grad has no node. Where is x in "
        "x * w?",
        "zh": "操作的每个输入在 next_functions 里各对应一个二元组，顺序就是输入传给操作时的顺序。"
        "不需要梯度的输入没有节点。x 在 x * w 里排在哪个位置？",
    },
    why={
        "en": "next_functions follows the order of the operation's inputs: slot 0 is x, which "
        "does not require grad and so has no node (None); slot 1 holds w's AccumulateGrad.",
        "zh": "next_functions 按操作输入的顺序排列：位置 0 是 x，它不需要梯度，所以没有节点"
        "（None）；位置 1 是 w 的 AccumulateGrad。",
    },
    right_answers=(0, "0", np.int64(0), 0.0, "０", "〇", "0。"),
    wrong_answers=(1, 2, False, None, "x", "一"),
)
def _slot_of_the_input_without_grad(answer: Any) -> bool:
    return as_number(answer) == 0


@exercise(
    "03.2",
    {
        "en": "w = torch.tensor(3.0, requires_grad=True). You run (w * w).backward(), then, "
        "without resetting w.grad, (w * w * w).backward(). What is w.grad now?",
        "zh": "w = torch.tensor(3.0, requires_grad=True)。先运行 (w * w).backward()，"
        "不重置 w.grad，再运行 (w * w * w).backward()。现在 w.grad 是多少？",
    },
    hint={
        "en": "Work out each pass on its own: d(w²)/dw and d(w³)/dw at w = 3. Then ask what "
        "AccumulateGrad does with a gradient when w.grad already holds one.",
        "zh": "先分别算出两次反向传播各自的梯度：w = 3 处的 d(w²)/dw 和 d(w³)/dw。"
        "再想一想：w.grad 里已经有值时，AccumulateGrad 怎样处理新来的梯度？",
    },
    why={
        "en": "d(w²)/dw = 2w = 6 and d(w³)/dw = 3w² = 27. AccumulateGrad adds every "
        "contribution into w.grad, so it holds 6 + 27 = 33. Set w.grad to None (or zero it) "
        "between passes to get one.",
        "zh": "d(w²)/dw = 2w = 6，d(w³)/dw = 3w² = 27。AccumulateGrad 把每一次的梯度都累加到 "
        "w.grad 上，所以它是 6 + 27 = 33。想只得到一次的梯度，就在两次之间把 w.grad 设为 None"
        "（或清零）。",
    },
    right_answers=(33, 33.0, "33", "３３", "三十三", "33。"),
    wrong_answers=(27, 6, 9, 162, "27", "二十七", "三三十"),
)
def _accumulated_over_two_passes(answer: Any) -> bool:
    return as_number(answer) == 33.0


@exercise(
    "03.3",
    {
        "en": "t = torch.tensor([2.0, 5.0], requires_grad=True); p, q = torch.unbind(t); "
        "r = q * 10. What is r.grad_fn.next_functions[0][1], the second element of the first "
        "pair?",
        "zh": "t = torch.tensor([2.0, 5.0], requires_grad=True)；p, q = torch.unbind(t)；"
        "r = q * 10。r.grad_fn.next_functions[0][1]，也就是第一个二元组的第二个元素，是多少？",
    },
    hint={
        "en": "The second element of a pair says which output of the node the edge comes from. "
        "unbind has one output per element of t, numbered from 0: which of them is q?",
        "zh": "二元组的第二个元素是输出序号，表示这条边来自节点的第几个输出。"
        "unbind 为 t 的每个元素产生一个输出，从 0 开始编号：q 是其中的第几个？",
    },
    why={
        "en": "unbind has two outputs, p (output 0) and q (output 1). r is computed from q, so "
        "its edge points at output 1 of UnbindBackward0: the gradient sent along it is the "
        "gradient of q.",
        "zh": "unbind 有两个输出：p（输出 0）和 q（输出 1）。r 由 q 算出，所以它的边指向 "
        "UnbindBackward0 的输出 1：沿这条边传回的梯度就是 q 的梯度。",
    },
    right_answers=(1, "1", np.int64(1), "一", "1。"),
    wrong_answers=(0, 10, 2, True, "q", "零"),
)
def _output_index_of_q(answer: Any) -> bool:
    return as_number(answer) == 1

"""Check-yourself questions of notebook 03: walking grad_fn by hand."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from helpers.exercises import as_number, exercise, means_none


@exercise(
    "03.1",
    {
        "en": "Predict before you run step 4: mul_node(du) returns one gradient per input of "
        "u = w * x, dw for w and dx for x (x = torch.tensor(3.0), made without requires_grad). "
        "What will dx be?",
        "zh": "运行第 4 步之前先预测：mul_node(du) 为 u = w * x 的每个输入各返回一个梯度，"
        "给 w 的是 dw，给 x 的是 dx（x = torch.tensor(3.0)，创建时没有设 requires_grad）。"
        "dx 会是什么？",
    },
    hint={
        "en": "Ask who would receive that gradient. No node of the graph stands for x, since it "
        "does not require grad, and autograd does no work that nobody asked for. How does Python "
        "write a value that was never computed?",
        "zh": "想一想这个梯度会交给谁。x 不需要梯度，计算图里没有代表它的节点；没人要的计算，"
        "autograd 一概不做。一个根本没有算出来的值，在 Python 里写作什么？",
    },
    why={
        "en": "None. x does not require grad, so autograd skips its product du · w altogether, "
        "and the slot of x in next_functions is (None, 0): no node waits for that gradient. "
        "Only w, which requires grad, gets a number, du · x = 3.",
        "zh": "None。x 不需要梯度，autograd 干脆不算 du · w 这个乘积；next_functions 里 x 的"
        "位置也是 (None, 0)：没有哪个节点在等这个梯度。只有需要梯度的 w 得到一个数，"
        "du · x = 3。",
    },
    right_answers=(None, "None", "none", "“None”", "None。"),
    wrong_answers=(2, 2.0, "2", 0, 3, torch.tensor(2.0), "tensor(0.)", False, "无"),
)
def _gradient_for_the_input_without_grad(answer: Any) -> bool:
    return means_none(answer)


@exercise(
    "03.2",
    {
        "en": "Change it and see: in the cell that calls y.backward() twice (y = w * w, w = 2), "
        "add the line w.grad = None between the two calls and run the cell again. What does "
        "the second line print for w.grad now?",
        "zh": "动手改一改：在调用两次 y.backward() 的那个单元格里（y = w * w，w = 2），"
        "在两次调用之间加一行 w.grad = None，再运行这个单元格。第二行现在打印的 w.grad 是多少？",
    },
    hint={
        "en": "After w.grad = None the second pass finds nothing stored in w.grad, so there is "
        "nothing to add to. What does one backward pass of y = w * w store on its own? The "
        "first line of the cell prints it.",
        "zh": "执行 w.grad = None 之后，第二次反向传播发现 w.grad 里什么也没有，也就无从累加。"
        "对 y = w * w 单独做一次反向传播，存下的是多少？单元格打印的第一行就是。",
    },
    why={
        "en": "4, where it was 8. With w.grad emptied between the passes, the second backward() "
        "stores its own 2w = 4 instead of adding it to the first. That is what "
        "optimizer.zero_grad() does before each training step: without it, every step would "
        "use the sum of all the gradients so far.",
        "zh": "4，原来是 8。两次反向传播之间清空了 w.grad，第二次 backward() 就只存下它自己算出的 "
        "2w = 4，而不是加到第一次的结果上。训练循环每一步之前调用 optimizer.zero_grad() 做的"
        "正是这件事：不清零的话，每一步用的都是到目前为止所有梯度的总和。",
    },
    right_answers=(4, 4.0, "4", "tensor(4.)", torch.tensor(4.0), "四", "4。"),
    wrong_answers=(8, 2, 0, None, 12, "8", "tensor(8.)", "八"),
)
def _gradient_after_a_reset(answer: Any) -> bool:
    return as_number(answer) == 4.0


@exercise(
    "03.3",
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
    "03.4",
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
    "03.5",
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

"""Check yourself, notebook 09: hooks, second derivatives, in-place changes, the version counter."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, as_number, exercise


@exercise(
    "09.1",
    {
        "en": "x = [1.5410, -0.2934, -2.1788] (float64). CubeSavingSquare computes x³ and its "
        "backward returns 3 * square * grad_output. Predict: with grad_outputs v = 1, "
        "gradgradcheck(CubeSavingSquare.apply, (x,), grad_outputs=(ones,)) reports the numerical "
        "second derivative. What is the first number on its diagonal?",
        "zh": "x = [1.5410, -0.2934, -2.1788]（float64）。CubeSavingSquare 计算 x³，它的 backward "
        "返回 3 * square * grad_output。先预测：取 grad_outputs v = 1，"
        "gradgradcheck(CubeSavingSquare.apply, (x,), grad_outputs=(ones,)) 报告用有限差分测得的"
        "二阶导数。它对角线上的第一个数是多少？",
    },
    hint={
        "en": "gradgradcheck differentiates what backward returns, 3x² · v, with respect to x. "
        "With v = 1 that is the plain second derivative of x³: write it down, then put in the "
        "first entry of x.",
        "zh": "gradgradcheck 求导的对象是 backward 的返回值 3x² · v，对 x 求导。v = 1 时，"
        "这就是 x³ 普通的二阶导数：先写出它，再代入 x 的第一个元素。",
    },
    why={
        "en": "d(3x² · v)/dx = 6x · v; with v = 1 it is 6x, and 6 · 1.5410 = 9.246. With "
        "gradgradcheck's own random v (between -1 and 1), the same place holds 9.246 · v, which "
        "is why the first printout showed other numbers.",
        "zh": "d(3x² · v)/dx = 6x · v；v = 1 时就是 6x，6 × 1.5410 = 9.246。用 gradgradcheck "
        "自己随机取的 v（在 -1 和 1 之间）时，同一个位置上是 9.246 · v，所以第一次打印出的是"
        "别的数。",
    },
    right_answers=(9.246, 9.25, "9.246", "9.25", torch.tensor(9.2460), "9.2。"),
    wrong_answers=(1.5410, 4.623, 7.124, -5.9432, 0, "6x", "18"),
)
def _second_derivative_with_v_one(answer: Any) -> bool:
    return abs(as_number(answer) - 6 * 1.5410) < 0.05


@exercise(
    "09.2",
    {
        "en": "In the loop h = torch.tanh(w * h + 1.0); loss = (h - 1) ** 2; "
        "loss.backward(retain_graph=True), with range(1, 6) changed to range(1, 21): how many "
        "nodes are behind the loss at step 20?",
        "zh": "在循环 h = torch.tanh(w * h + 1.0)；loss = (h - 1) ** 2；"
        "loss.backward(retain_graph=True) 中，把 range(1, 6) 改成 range(1, 21)：第 20 步时，"
        "损失背后有多少个节点？",
    },
    hint={
        "en": "Run the changed cell and read its last line. To check it by hand: step 1 has 6 "
        "nodes, and every step adds its own mul, add and tanh, since h keeps the whole history.",
        "zh": "运行改过的单元格，读最后一行。也可以手算验证：第 1 步有 6 个节点，之后每一步都加上"
        "它自己的乘法、加法和 tanh 三个节点，因为 h 带着全部历史。",
    },
    why={
        "en": "6 nodes at step 1 (mul, add, tanh, sub, pow and w's AccumulateGrad), 3 more per "
        "step: 6 + 3 · 19 = 63. The graph grows with every step, and so do memory and the time "
        "of each backward. With h.detach() it stays at 6 at every step.",
        "zh": "第 1 步有 6 个节点（乘法、加法、tanh、减法、幂和 w 的 AccumulateGrad），"
        "之后每步多 3 个：6 + 3 × 19 = 63。计算图每一步都在变大，"
        "内存和每次反向传播的时间也随之增长。用 h.detach() 时，每一步都保持 6 个。",
    },
    right_answers=(63, 63.0, "63", "六十三", "63个", torch.tensor(63)),
    wrong_answers=(6, 60, 66, 20, 18, "6", "六"),
)
def _graph_kept_by_retain_graph(answer: Any) -> bool:
    return as_number(answer) == 63


@exercise(
    "09.3",
    {
        "en": "x = torch.tensor(3.0, requires_grad=True); y = x * x; "
        "y.register_hook(lambda grad: grad * 10); y.backward(). What is x.grad?",
        "zh": "x = torch.tensor(3.0, requires_grad=True)；y = x * x；"
        "y.register_hook(lambda grad: grad * 10)；y.backward()。x.grad 是多少？",
    },
    hint={
        "en": "backward starts from dy/dy = 1, and the hook on y sees that gradient first: what "
        "does it return? Then the node of x * x sends each of its two slots the incoming "
        "gradient times the other factor, and x's AccumulateGrad adds both.",
        "zh": "反向传播从 dy/dy = 1 开始，y 上的钩子最先看到这个梯度：它返回什么？接着，x * x "
        "的节点给它的两个输入位置各送去“传入的梯度乘以另一个因子”，x 的 AccumulateGrad "
        "再把两者相加。",
    },
    why={
        "en": "The hook turns the starting gradient 1 into 10 before y's node runs. MulBackward0 "
        "sends 10 * x = 30 along each of its two edges, both to x: x.grad = 30 + 30 = 60, ten "
        "times dy/dx = 2x = 6.",
        "zh": "在 y 的节点运行之前，钩子把起始梯度 1 变成了 10。MulBackward0 沿它的两条边各送出 "
        "10 * x = 30，两条边都通向 x：x.grad = 30 + 30 = 60，是 dy/dx = 2x = 6 的十倍。",
    },
    right_answers=(60, 60.0, "60", torch.tensor(60.0), "六十", "60。"),
    wrong_answers=(6, 30, 600, 10, "6", "三十", "六百"),
)
def _hook_on_the_output(answer: Any) -> bool:
    return as_number(answer) == 60.0


@exercise(
    "09.4",
    {
        "en": "x = torch.tensor(2.0, requires_grad=True); y = x**4; "
        "(g,) = torch.autograd.grad(y, x, create_graph=True); (h,) = torch.autograd.grad(g, x). "
        "What is h?",
        "zh": "x = torch.tensor(2.0, requires_grad=True)；y = x**4；"
        "(g,) = torch.autograd.grad(y, x, create_graph=True)；"
        "(h,) = torch.autograd.grad(g, x)。h 是多少？",
    },
    hint={
        "en": "g is dy/dx as a tensor with a history (create_graph=True), so differentiating it "
        "again gives the second derivative. Differentiate x**4 twice by hand, then put in x = 2.",
        "zh": "g 是 dy/dx，而且是一个带着计算历史的张量（create_graph=True），所以再对它求导，"
        "得到的就是二阶导数。先手算 x**4 的二阶导数，再代入 x = 2。",
    },
    why={
        "en": "g = 4x³ = 32, recorded; h = dg/dx = 12x² = 48 at x = 2.",
        "zh": "g = 4x³ = 32，它本身也被记录进了计算图；h = dg/dx = 12x²，在 x = 2 处等于 48。",
    },
    right_answers=(48, 48.0, "48", torch.tensor(48.0), "四十八"),
    wrong_answers=(32, 24, 96, 16, "32", "三十二"),
)
def _second_derivative(answer: Any) -> bool:
    return as_number(answer) == 48.0


@exercise(
    "09.5",
    {
        "en": "x = torch.tensor([1.0, 2.0], requires_grad=True); y = x.sigmoid(). Which next "
        "line makes a following y.sum().backward() fail with the in-place error? 'a': "
        "y = y * 2; 'b': y *= 2; 'c': z = y + 1.",
        "zh": "x = torch.tensor([1.0, 2.0], requires_grad=True)；y = x.sigmoid()。接下来哪一行"
        "会让随后的 y.sum().backward() 因原地操作错误而失败？'a'：y = y * 2；'b'：y *= 2；"
        "'c'：z = y + 1。",
    },
    hint={
        "en": "The error needs a change to the very tensor sigmoid saved, its output y, made in "
        "y's own memory. Which of the three lines writes into that memory, and which ones make a "
        "new tensor or only read y?",
        "zh": "要触发这个错误，必须修改 sigmoid 保存的那个张量本身（也就是它的输出 y），"
        "而且是在 y 自己的内存里修改。三行中哪一行写进了这块内存？哪些行只是创建新张量，"
        "或者只读取 y？",
    },
    why={
        "en": "For a tensor, y *= 2 is the in-place y.mul_(2): it changes the output sigmoid "
        "saved and raises its version from 0 to 1, so backward refuses. y = y * 2 makes a new "
        "tensor and rebinds the name y; z = y + 1 only reads y. Both leave the saved output at "
        "version 0.",
        "zh": "对张量来说，y *= 2 就是原地操作 y.mul_(2)：它修改了 sigmoid 保存的输出，"
        "把它的版本计数器从 0 变成 1，于是 backward 拒绝运行。y = y * 2 创建一个新张量，"
        "再把名字 y 绑定到它上面；z = y + 1 只读取 y。这两行都让保存的输出停留在版本 0。",
    },
    right_answers=("b", "B", " b ", "“b”", "b。", "「b」", "y *= 2", "y*=2", "选项b"),
    wrong_answers=("a", "c", "ab", True, 2, "y = y * 2", "z = y + 1"),
)
def _augmented_assignment_is_in_place(answer: Any) -> bool:
    return as_choice(answer, "abc", {"a": "y = y * 2", "b": "y *= 2", "c": "z = y + 1"}) == "b"


@exercise(
    "09.6",
    {
        "en": "t = torch.zeros(3); t.add_(1); t[0] = 5; t.mul_(2). What is t._version now?",
        "zh": "t = torch.zeros(3)；t.add_(1)；t[0] = 5；t.mul_(2)。现在 t._version 是多少？",
    },
    hint={
        "en": "torch.zeros gives a fresh tensor at version 0, and every in-place change adds "
        "one. Which of the three lines change t in place? An assignment into t[0] writes into "
        "t's memory too.",
        "zh": "torch.zeros 给出一个版本为 0 的新张量，每次原地修改都让版本加一。这三行里哪几行"
        "原地修改了 t？给 t[0] 赋值同样是在写 t 的内存。",
    },
    why={
        "en": "add_, the assignment t[0] = 5 and mul_ each change t in place, and each adds 1 "
        "to its version counter: 0 + 3 = 3. An operation that makes a new tensor, such as "
        "t + 1, would leave it alone.",
        "zh": "add_、赋值 t[0] = 5 和 mul_ 都原地修改了 t，每次都让它的版本计数器加 1："
        "0 + 3 = 3。创建新张量的操作（例如 t + 1）不会改变它。",
    },
    right_answers=(3, 3.0, "3", torch.tensor(3), "三", "3次"),
    wrong_answers=(2, 1, 0, 4, "2", "两次", "四"),
)
def _version_counter(answer: Any) -> bool:
    return as_number(answer) == 3

"""Check yourself, notebook 09: hooks, second derivatives, in-place changes, the version counter."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, as_number, exercise


@exercise(
    "09.1",
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
    "09.2",
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
    "09.3",
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
    right_answers=("b", "B", " b ", "“b”", "b。", "「b」"),
    wrong_answers=("a", "c", "ab", True, 2),
)
def _augmented_assignment_is_in_place(answer: Any) -> bool:
    return as_choice(answer, "abc") == "b"


@exercise(
    "09.4",
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

"""Check yourself, notebook 07: what the old ``Variable``-era idioms do on today's PyTorch."""

from __future__ import annotations

import re
from typing import Any

import torch

from helpers.exercises import WrongKind, as_word, exercise, numbers_equal

# The spellings of the function torch.tensor, case and all (see helpers.exercises.reading).
_THE_FUNCTION = ("tensor", "torch.tensor")


@exercise(
    "07.1",
    {
        "en": "What does type(torch.autograd.Variable(torch.ones(2))) return on today's "
        "PyTorch? (the class itself, or its name as a string)",
        "zh": "在如今的 PyTorch 上，type(torch.autograd.Variable(torch.ones(2))) 返回什么？"
        "（写类本身，或者把类名写成字符串）",
    },
    hint={
        "en": "Since PyTorch 0.4, is a Variable still a class of its own? Notebook 07 printed "
        "what Variable(t) gives back: what is its type?",
        "zh": "从 PyTorch 0.4 起，Variable 还是一个独立的类吗？笔记本 07 打印过 Variable(t) "
        "返回的东西：它是什么类型？",
    },
    why={
        "en": "Since PyTorch 0.4 Variable and Tensor are one class: Variable(t) returns a plain "
        "torch.Tensor, and Variable survives only as a name old code can still import.",
        "zh": "从 PyTorch 0.4 起，Variable 和 Tensor 合并成了同一个类：Variable(t) 返回的就是"
        "普通的 torch.Tensor，Variable 只作为一个名字保留下来，好让旧代码还能导入它。",
    },
    right_answers=(
        torch.Tensor,
        "torch.Tensor",
        "Tensor",
        "<class 'torch.Tensor'>",
        "TENSOR",
        "“torch.Tensor”",
        "torch.Tensor。",
        "「Tensor」",
    ),
    wrong_answers=(
        torch.autograd.Variable,
        "Variable",
        "torch.autograd.Variable",
        "<class 'torch.autograd.variable.Variable'>",
        torch.tensor,
        "torch.tensor",
        "tensor",
        "<class 'torch.tensor'>",
        None,
    ),
)
def _variable_returns_a_tensor(answer: Any) -> bool:
    # Names ignore case, except here: written all in small letters, tensor and torch.tensor name
    # the function that makes a tensor, a classic confusion with the class type() returns.
    if answer is torch.tensor or as_word(answer, keep_case=True) in _THE_FUNCTION:
        raise WrongKind("class_not_function")
    return as_word(answer) in {"torch.tensor", "tensor"}


# The method however it is written, on whatever it is called: item, .item(), loss.item(),
# x.item(), loss.data.item(), Tensor.item, torch.Tensor.item().
_METHOD = re.compile(r"(?:[a-z_]\w*\.)*\.?(?P<name>[a-z_]\w*)(?:\(\))?")


@exercise(
    "07.2",
    {
        "en": "The old page prints loss.data[0]. Which Tensor method gives the loss as a Python "
        "number today? (its name, as a string)",
        "zh": "旧教程打印的是 loss.data[0]。如今用 Tensor 的哪个方法把损失取成一个 Python 数？"
        "（写方法名，作为字符串）",
    },
    hint={
        "en": "A loss is a 0-dimensional tensor: it has no index 0, but it holds exactly one "
        "value. Which Tensor method returns that one value as a plain Python number?",
        "zh": "损失是一个 0 维张量：它没有下标 0，但恰好存着一个值。Tensor 的哪个方法能把这个值"
        "作为普通的 Python 数返回？",
    },
    why={
        "en": "A loss is a 0-dim tensor, which has no index 0; loss.item() returns its one value "
        "as a Python float (and copies it to the CPU if it lives on a GPU). loss.tolist() "
        "happens to give the same float for a 0-dim tensor, but item() says what you mean, and "
        "it raises when the tensor holds more than one number.",
        "zh": "损失是 0 维张量，没有下标 0；loss.item() 把它唯一的值作为 Python float 返回"
        "（如果张量在 GPU 上，还会把值复制到 CPU）。对 0 维张量，loss.tolist() 碰巧也给出"
        "同一个 float，但 item() 更能表达你的意图，而且张量里不止一个数时它会报错。",
    },
    right_answers=(
        "item",
        "item()",
        ".item()",
        "loss.item()",
        "ITEM",
        "Item()",
        "tolist",
        "“item”",
        "Tensor.item",
        "torch.Tensor.item()",
        "x.item()",
        "loss.data.item()",
        "loss.item()。",
        "`loss.item()`",
    ),
    wrong_answers=(
        "loss.data[0]",
        "data",
        "loss[0]",
        "numpy",
        "items",
        0,
        "lossitem",
        "loss.data",
        "loss.numpy()",
    ),
)
def _item_replaces_data_index(answer: Any) -> bool:
    written = _METHOD.fullmatch(as_word(answer))
    # tolist() of a 0-dim tensor is a Python float too: right, if not the idiom.
    return written is not None and written["name"] in ("item", "tolist")


@exercise(
    "07.3",
    {
        "en": "x = torch.tensor([0.0, 1.0], requires_grad=True); y = x.exp(); y.data.zero_(); "
        "y.sum().backward(). What is x.grad? (two numbers)",
        "zh": "x = torch.tensor([0.0, 1.0], requires_grad=True)；y = x.exp()；y.data.zero_()；"
        "y.sum().backward()。x.grad 是什么？（两个数）",
    },
    hint={
        "en": "exp saves its output for backward, because the derivative of exp is exp itself. "
        "What did y.data.zero_() do to that saved output, and does autograd notice a change "
        "made through .data?",
        "zh": "exp 会为反向传播保存它的输出，因为 exp 的导数就是 exp 本身。y.data.zero_() "
        "对这个保存的输出做了什么？通过 .data 做的修改，自动求导能发现吗？",
    },
    why={
        "en": "exp saves its output for backward, since d(exp x)/dx = exp x. Zeroing it through "
        ".data skips the version check, so backward silently uses the zeros: x.grad is [0, 0] "
        "instead of the true [1, e]. The same zero_() under torch.no_grad() would make "
        "backward raise.",
        "zh": "exp 为反向传播保存了它的输出，因为 d(exp x)/dx = exp x。通过 .data 把它清零，"
        "绕过了版本计数器的检查，于是 backward 悄悄地用了这些 0：x.grad 是 [0, 0]，而不是"
        "正确的 [1, e]。同样的 zero_() 如果放在 torch.no_grad() 下执行，backward 就会报错。",
    },
    right_answers=(
        [0, 0],
        (0.0, 0.0),
        torch.zeros(2),
        "tensor([0., 0.])",
        [-0.0, 0.0],
        "【0，0】",
        "0 和 0",
    ),
    wrong_answers=(
        [1.0, 2.7183],
        [1, 1],
        0,
        "RuntimeError",
        [False, False],
        [0, 0, 0],
        "tensor([1.0000, 2.7183])",
    ),
)
def _data_hides_the_in_place_change(answer: Any) -> bool:
    return numbers_equal(answer, [0.0, 0.0])

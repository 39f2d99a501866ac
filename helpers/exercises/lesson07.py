"""Check yourself, notebook 07: what the old ``Variable``-era idioms do on today's PyTorch."""

from __future__ import annotations

import re
from typing import Any

import torch

from helpers.exercises import WrongValue, as_choice, as_word, exercise, numbers_equal

# The spellings of the function torch.tensor, case and all (see helpers.exercises.reading).
_THE_FUNCTION = ("tensor", "torch.tensor")


@exercise(
    "07.1",
    {
        "en": "Predict before you run it: what does the old constructor torch.Tensor(2, 3) "
        "make? 'a': a tensor of the two numbers 2. and 3.; 'b': a 2 x 3 tensor of float32 whose "
        "values are whatever was in that memory; 'c': a 2 x 3 tensor of zeros; 'd': a 2 x 3 "
        "tensor of int64.",
        "zh": "先预测，再运行：旧的构造方式 torch.Tensor(2, 3) 会得到什么？'a'：由 2. 和 3. "
        "两个数组成的张量；'b'：一个 2 × 3 的 float32 张量，值是那块内存里原有的任意内容；"
        "'c'：一个 2 × 3 的全零张量；'d'：一个 2 × 3 的 int64 张量。",
    },
    hint={
        "en": "torch.Tensor is the class, and its legacy constructor reads whole numbers given "
        "one by one as a shape, as torch.empty does. Which dtype does a tensor of the class "
        "Tensor get by default, and does anything write values into new memory?",
        "zh": "torch.Tensor 是类，它的旧构造方式把逐个给出的整数当作形状，就像 torch.empty 那样。"
        "Tensor 这个类默认给张量什么 dtype？新分配的内存有没有被写入数值？",
    },
    why={
        "en": "Numbers given one by one are a shape: torch.Tensor(2, 3) allocates a 2 x 3 "
        "float32 tensor and writes nothing into it, like torch.empty(2, 3), so its values are "
        "whatever the memory held. A list is values: torch.Tensor([2, 3]) is tensor([2., 3.]), "
        "float32 too, where torch.tensor([2, 3]) would be int64.",
        "zh": "逐个给出的数是形状：torch.Tensor(2, 3) 分配一个 2 × 3 的 float32 张量，不往里写"
        "任何值，和 torch.empty(2, 3) 一样，所以里面是那块内存原有的内容。列表才是数值："
        "torch.Tensor([2, 3]) 是 tensor([2., 3.])，同样是 float32；而 torch.tensor([2, 3]) "
        "是 int64。",
    },
    right_answers=("b", "B", "“b”", "b。", "（b）"),
    wrong_answers=("a", "c", "d", "bd", ["b"], 2),
)
def _legacy_constructor_takes_a_shape(answer: Any) -> bool:
    return as_choice(answer, "abcd") == "b"


@exercise(
    "07.2",
    {
        "en": "In section 4's cell where y_small.data.zero_() goes unnoticed, write "
        "y_small.detach().zero_() instead and run it again. What happens? 'a': the same silent "
        "wrong gradient, [0, 0]; 'b': backward() raises the error about a variable modified by "
        "an inplace operation; 'c': the right gradient, [1, e].",
        "zh": "在第 4 节 y_small.data.zero_() 没有被发现的那个单元格里，改写成 "
        "y_small.detach().zero_()，再运行一次。会发生什么？'a'：同样悄无声息地得到错误的梯度 "
        "[0, 0]；'b'：backward() 报错，说一个变量被原地操作修改了；'c'：得到正确的梯度 [1, e]。",
    },
    hint={
        "en": "detach() shares the tensor's memory, as .data does. What else does it share "
        "that .data does not? The cell that prints _version after each kind of change shows it.",
        "zh": "detach() 和 .data 一样与原张量共享内存。它还共享了什么 .data 不共享的东西？"
        "打印每种修改之后 _version 的那个单元格给出了答案。",
    },
    why={
        "en": "detach() shares the version counter, so zero_() through it raises y_small's "
        "version from 0 to 1; backward() finds that exp's saved output changed and stops with "
        "the RuntimeError instead of using the zeros. That is why today's code takes values "
        "with detach(), not .data.",
        "zh": "detach() 共享版本计数器，所以通过它调用 zero_()，会让 y_small 的版本从 0 变成 1；"
        "backward() 发现 exp 保存的输出被改过，就用 RuntimeError 停下来，而不是拿这些 0 去算。"
        "这就是今天的代码用 detach() 而不用 .data 取值的原因。",
    },
    right_answers=("b", "B", "“b”", "b。", "(b)"),
    wrong_answers=("a", "c", [0, 0], "ab", ["b"]),
)
def _detach_is_counted(answer: Any) -> bool:
    return as_choice(answer, "abc") == "b"


@exercise(
    "07.3",
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
        raise WrongValue("class_not_function")
    return as_word(answer) in {"torch.tensor", "tensor"}


# The method however it is written, on whatever it is called: item, .item(), loss.item(),
# x.item(), loss.data.item(), Tensor.item, torch.Tensor.item().
_METHOD = re.compile(r"(?:[a-z_]\w*\.)*\.?(?P<name>[a-z_]\w*)(?:\(\))?")


@exercise(
    "07.4",
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
    "07.5",
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

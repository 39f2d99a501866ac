"""Check-yourself questions of notebook 04: custom autograd Functions."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import torch
from torch.autograd import Function, gradcheck

from helpers.exercises import (
    WrongKind,
    as_bools,
    as_choice,
    as_number,
    exercise,
    numbers_equal,
)


# Sample answers to 04.3: a right backward, a wrong derivative, a right number computed by
# writing into grad_output (which gradcheck alone would not notice), and a right number from a
# tensor kept on ctx as an attribute (what section 4.2 teaches against), directly or in a dict.
class _Cube(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**3

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return 3 * x**2 * grad_output


class _CubeWrongDerivative(_Cube):
    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return 2 * x * grad_output


class _CubeWritesIntoGradOutput(_Cube):
    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        return grad_output.mul_(3 * x**2)


class _CubeKeepsXOnCtx(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.x = x
        return x**3

    @staticmethod
    def backward(ctx, grad_output):
        return 3 * ctx.x**2 * grad_output


class _CubeKeepsXOnCtxInADict(Function):
    @staticmethod
    def forward(ctx, x):
        ctx.stash = {"x": x}
        return x**3

    @staticmethod
    def backward(ctx, grad_output):
        return 3 * ctx.stash["x"] ** 2 * grad_output


@exercise(
    "04.1",
    {
        "en": "Predict, then run: SquareAndCube.apply(x) returns square = x**2 and cube = x**3, "
        "and only square.backward() is called; cube takes no part. What will backward receive "
        "as grad_cube? (a) None; (b) tensor(0.); (c) tensor(1.); (d) nothing: autograd raises "
        "an error, since backward expects two gradients. Answer with the letter.",
        "zh": "先预测，再运行：SquareAndCube.apply(x) 返回 square = x**2 和 cube = x**3，"
        "之后只调用 square.backward()，cube 没有参与。backward 收到的 grad_cube 会是什么？"
        "(a) None；(b) tensor(0.)；(c) tensor(1.)；(d) 什么也收不到：backward 要两个梯度，"
        "autograd 会报错。用字母作答。",
    },
    hint={
        "en": "By default autograd calls backward with one gradient per output, each ready to "
        "compute with, so that backward never has to check for a missing one. How much does a "
        "loss that never used cube change when cube changes?",
        "zh": "默认情况下，autograd 调用 backward 时每个输出都给一个梯度，而且个个都能直接拿来"
        "计算，backward 用不着检查哪个缺了。损失根本没用到 cube，cube 变一变，损失会变多少？",
    },
    why={
        "en": "(b), a tensor of zeros shaped like cube. The loss does not depend on cube, so its "
        "gradient is zero, and autograd materializes it as zeros: backward computes "
        "2x · grad_square + 3x² · grad_cube without checking anything. After "
        "ctx.set_materialize_grads(False) in forward, backward receives None instead and must "
        "handle it.",
        "zh": "(b)，一个形状与 cube 相同的全零张量。损失不依赖 cube，它的梯度就是 0，autograd "
        "把它补成全零张量交给 backward：backward 不用检查，直接算 "
        "2x · grad_square + 3x² · grad_cube。如果在 forward 里调用了 "
        "ctx.set_materialize_grads(False)，backward 收到的就是 None，得自己处理。",
    },
    right_answers=("b", "B", "(b)", " b ", "b。", "“b”", "tensor(0.)", "选 b"),
    wrong_answers=("a", "c", "d", "ab", None, 0, ["b"], "None", "tensor(1.)"),
)
def _gradient_of_an_unused_output(answer: Any) -> bool:
    # The options that are values may be answered with the value as the option writes it.
    options = {"a": "None", "b": "tensor(0.)", "c": "tensor(1.)"}
    return as_choice(answer, "abcd", options) == "b"


@exercise(
    "04.2",
    {
        "en": "Change it and see: in the DoubleInPlace cell, delete the line ctx.mark_dirty(x) "
        "and run the cell again. What is w.grad now?",
        "zh": "动手改一改：在 DoubleInPlace 那个单元格里删掉 ctx.mark_dirty(x) 这一行，"
        "再运行一次。现在 w.grad 是多少？",
    },
    hint={
        "en": "Look at the grad_fn that print(x) shows now. x holds the doubled values, but "
        "which operation does its history say made it? Differentiate the sum of x through that "
        "operation alone.",
        "zh": "看看 print(x) 现在显示的 grad_fn。x 里的值确实翻了倍，可它的计算历史说它是哪个"
        "操作得到的？只按那个操作，对 x 的元素之和求导。",
    },
    why={
        "en": "[1., 1.], where the right gradient is [2., 2.]. Without mark_dirty autograd does "
        "not know that forward changed x: x keeps the history of the clone "
        "(grad_fn=<CloneBackward0>), so x.sum().backward() differentiates x = w, and the "
        "doubling is lost without a word. ctx.mark_dirty(x) moves the history of x onto the "
        "Function's node, whose backward multiplies by 2.",
        "zh": "[1., 1.]，而正确的梯度是 [2., 2.]。没有 mark_dirty，autograd 不知道 forward "
        "改过 x：x 保留的还是 clone 的历史（grad_fn=<CloneBackward0>），于是 "
        "x.sum().backward() 按 x = w 求导，翻倍这一步就这样悄无声息地丢了。"
        "ctx.mark_dirty(x) 把 x 的历史接到这个 Function 的节点上，由它的 backward 乘以 2。",
    },
    right_answers=(
        [1.0, 1.0],
        (1, 1),
        torch.tensor([1.0, 1.0]),
        np.array([1.0, 1.0]),
        "tensor([1., 1.])",
        "[1, 1]",
        "1、1",
    ),
    wrong_answers=(
        [2.0, 2.0],
        [1.0],
        1,
        [2, 6],
        [[1.0, 1.0]],
        None,
        "[1, 1, 1]",
        "tensor([2., 2.])",
    ),
)
def _gradient_without_mark_dirty(answer: Any) -> bool:
    return numbers_equal(answer, [1.0, 1.0])


@exercise(
    "04.3",
    {
        "en": "Complete CubeFunction.backward (forward returns x**3) and answer with the class.",
        "zh": "补全 CubeFunction.backward（forward 返回 x**3），然后把这个类本身作为答案。",
    },
    hint={
        "en": "Differentiate x³ with the power rule, multiply by grad_output and return the "
        "result as a new tensor (never change grad_output in place). Take x from "
        "ctx.saved_tensors: a tensor kept as an attribute of ctx escapes autograd's checks "
        "(section 4.2).",
        "zh": "用幂函数的求导法则对 x³ 求导，乘以 grad_output，再把结果作为一个新张量返回"
        "（绝不要原地修改 grad_output）。x 要从 ctx.saved_tensors 里取：作为 ctx 的属性保存的"
        "张量会逃过自动求导的检查（见 4.2 节）。",
    },
    why={
        "en": "d(x³)/dx = 3x², so backward returns 3 * x**2 * grad_output: a new tensor, "
        "grad_output left untouched, x saved with ctx.save_for_backward. The check runs "
        "gradcheck on your class in double precision, makes sure grad_output is unchanged "
        "afterwards and that no tensor is kept on ctx as an attribute.",
        "zh": "d(x³)/dx = 3x²，所以 backward 返回 3 * x**2 * grad_output：一个新张量，"
        "grad_output 保持不变，x 用 ctx.save_for_backward 保存。这里的检查会以双精度对你的类"
        "运行 gradcheck，并确认 grad_output 事后没有被改动、ctx 上也没有作为属性保存的张量。",
    },
    right_answers=(_Cube,),
    wrong_answers=(
        _CubeWrongDerivative,
        _CubeWritesIntoGradOutput,
        _CubeKeepsXOnCtx,
        _CubeKeepsXOnCtxInADict,
        torch.pow,
        3,
        "CubeFunction",
    ),
)
def _cube_backward(answer: Any) -> bool:
    if not (isinstance(answer, type) and issubclass(answer, Function)):
        raise WrongKind("function_class")
    # The test builds a graph of its own, so it must not inherit a check cell run under
    # torch.no_grad() or torch.inference_mode(): autograd on, and tensors made outside
    # inference mode (an inference tensor can never join a graph).
    with torch.inference_mode(False), torch.enable_grad():
        return _passes_the_cube_tests(answer)


def _passes_the_cube_tests(cube: type[Function]) -> bool:
    x = torch.tensor([-1.5, 0.5, 2.0], dtype=torch.float64, requires_grad=True)
    try:
        output = cube.apply(x)
        grad_output = torch.tensor([1.0, -2.0, 0.5], dtype=torch.float64)
        sent = grad_output.clone()
        torch.autograd.grad(output, x, grad_output)
        return (
            torch.equal(output.detach(), x.detach() ** 3)
            and torch.equal(grad_output, sent)
            and not _keeps_a_tensor_on_ctx(output.grad_fn)
            and gradcheck(cube.apply, (x,), raise_exception=False)
        )
    except Exception:
        # Whatever the learner's backward raises (an unfinished `...`, a shape error) means the
        # class is not finished yet: a wrong answer, never a crash of the check cell.
        return False


def _keeps_a_tensor_on_ctx(ctx: Any) -> bool:
    # ctx is the node of the output; what forward set as ctx.name lands in its __dict__.
    return any(_holds_a_tensor(value) for value in vars(ctx).values())


def _holds_a_tensor(value: Any, levels: int = 4) -> bool:
    """Is ``value`` a tensor, or a tuple, list, set or dict with one inside, ``levels`` deep at
    most (ctx.x = x, ctx.saved = (x,), ctx.stash = {"x": x}, ctx.stash = {"inputs": [x]})?"""
    if isinstance(value, torch.Tensor):
        return True
    if levels == 0:
        return False  # deeper, or a container that holds itself: a tensor there is no idiom
    try:
        if isinstance(value, Mapping):
            items = [*value.keys(), *value.values()]
        elif isinstance(value, (tuple, list, set, frozenset)):
            items = list(value)
        else:
            return False
    except Exception:
        return False  # a container that cannot be read holds no tensor we could find
    return any(_holds_a_tensor(item, levels - 1) for item in items)


@exercise(
    "04.4",
    {
        "en": "x requires grad. In PowerFunction.apply(x, 3), what is ctx.needs_input_grad "
        "inside backward?",
        "zh": "x 需要梯度。调用 PowerFunction.apply(x, 3) 时，backward 里的 "
        "ctx.needs_input_grad 是什么？",
    },
    hint={
        "en": "needs_input_grad has one entry per input of forward, in order. For each input "
        "ask: is it a tensor that requires grad?",
        "zh": "forward 的每个输入在 needs_input_grad 里按顺序各占一项。对每个输入问一问："
        "它是需要梯度的张量吗？",
    },
    why={
        "en": "needs_input_grad has one entry per forward input, in order: x requires grad "
        "(True); the exponent 3 is a Python int, which never gets a gradient (False). So it is "
        "(True, False), and backward returns a gradient for x and None for the exponent.",
        "zh": "forward 的每个输入在 needs_input_grad 里按顺序各占一项：x 需要梯度（True）；"
        "指数 3 是 Python 的 int，永远不会有梯度（False）。所以它是 (True, False)，backward "
        "为 x 返回梯度，为指数返回 None。",
    },
    right_answers=(
        (True, False),
        [True, False],
        "(True, False)",
        "true, false",
        (np.True_, np.False_),
        "（True，False）",
        "（True，False）。",
        "('True', 'False')",
        "True 和 False",
        "tensor([True, False])",
        (1, 0),
        "(1, 0)",
        "是, 否",
        "yes, no",
    ),
    wrong_answers=(
        (True, True),
        (True,),
        True,
        "True",
        {True, False},
        "是, 是",
        "(0, 1)",
        "True 或 False",
        "{True, False}",
    ),
)
def _needs_input_grad_of_power(answer: Any) -> bool:
    return as_bools(answer, count=2) == (True, False)


@exercise(
    "04.5",
    {
        "en": "x = torch.tensor(0.0, requires_grad=True); MyReLU.apply(x).backward(). "
        "What is x.grad?",
        "zh": "x = torch.tensor(0.0, requires_grad=True)；MyReLU.apply(x).backward()。"
        "x.grad 是多少？",
    },
    hint={
        "en": "MyReLU's backward starts from a copy of grad_output and zeroes it only where its "
        "condition on x holds. Read that condition exactly (< or <=?) and evaluate it at x = 0.",
        "zh": "MyReLU 的 backward 先复制一份 grad_output，只在 x 满足它的条件的地方把梯度置零。"
        "仔细读这个条件（是 < 还是 <=？），再代入 x = 0。",
    },
    why={
        "en": "MyReLU's backward zeroes the gradient only where x < 0. At x = 0 that is false, "
        "so the incoming 1 passes through: x.grad is 1 (torch.relu gives 0 there). At the kink "
        "both are defensible choices, and gradcheck cannot tell them apart: check a ReLU away "
        "from 0.",
        "zh": "MyReLU 的 backward 只在 x < 0 的地方把梯度置零。x = 0 时条件不成立，传进来的 1 "
        "原样通过：x.grad 是 1（torch.relu 在这里给出 0）。在折点处两种选择都说得通，"
        "gradcheck 也分辨不出来：检验 ReLU 时要避开 0。",
    },
    right_answers=(1, 1.0, torch.tensor(1.0), "1", "tensor(1.)", "一", "1。"),
    wrong_answers=(0, 0.0, 0.5, True, "0", "零", "〇"),
)
def _my_relu_gradient_at_zero(answer: Any) -> bool:
    return as_number(answer) == 1.0

"""Check yourself, notebook 01: ``no_grad`` (against ``eval()``, and as a decorator),
accumulation, and the vector-Jacobian product."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from helpers.exercises import as_bool, as_bools, as_number, exercise, numbers_equal


@exercise(
    "01.1",
    {
        "en": "model = nn.Dropout(p=0.5); w requires grad and x = torch.ones(8). After "
        "model.eval() you compute out = model(w * x). Does out require grad, and are some of its "
        "values zeroed? Give two True/False values: (out.requires_grad, some values zeroed).",
        "zh": "model = nn.Dropout(p=0.5)；w 需要梯度，x = torch.ones(8)。调用 model.eval() 之后"
        "计算 out = model(w * x)。out 需要梯度吗？它的值里有被置零的吗？用两个 True/False 回答："
        "(out.requires_grad, 有值被置零)。",
    },
    hint={
        "en": "Two separate switches. Which one decides whether autograd records: the module's "
        "mode, or the grad mode that torch.no_grad() turns off? And which one decides what a "
        "Dropout layer does to its input?",
        "zh": "这里有两个互不相干的开关。决定自动求导记不记录的，是模块的模式，还是 "
        "torch.no_grad() 关掉的梯度模式？决定 Dropout 层怎样处理输入的，又是哪一个？",
    },
    why={
        "en": "eval() only changes what layers do: a Dropout in evaluation mode passes every value "
        "through, so none is zeroed. It leaves the grad mode alone, so autograd records as usual "
        "and out requires grad: (True, False). torch.no_grad() is the opposite: it stops the "
        "recording and changes no layer.",
        "zh": "eval() 只改变各层的行为：评估模式下的 Dropout 让每个值原样通过，没有值被置零。"
        "它不碰梯度模式，所以自动求导照常记录，out 需要梯度：(True, False)。torch.no_grad() "
        "正好相反：它停止记录，却不改变任何层的行为。",
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
        "是，否",
        "(1, 0)",
    ),
    wrong_answers=(
        (False, False),
        (True, True),
        (False, True),
        (True,),
        True,
        (0, 0),
        "否，否",
        {True, False},
        "False 和 False",
    ),
)
def _eval_is_not_no_grad(answer: Any) -> bool:
    return as_bools(answer, count=2) == (True, False)


@exercise(
    "01.2",
    {
        "en": "Run the cell with @torch.no_grad() as it is, then delete the line "
        "@torch.no_grad() above def evaluate and run the cell again. Give "
        "predictions.requires_grad from both runs: (with the decorator, without it).",
        "zh": "先原样运行带 @torch.no_grad() 的那个单元格，再删掉 def evaluate 上面的 "
        "@torch.no_grad() 这一行，重新运行。写出两次运行中 predictions.requires_grad 的值："
        "（有装饰器时，没有装饰器时）。",
    },
    hint={
        "en": "Without the decorator, evaluate runs in the grad mode of the code that calls it. "
        "Is recording on in an ordinary cell, and does weights require grad?",
        "zh": "没有装饰器，evaluate 就在调用它的代码所处的梯度模式下运行。普通单元格里记录是开着的"
        "吗？weights 需要梯度吗？",
    },
    why={
        "en": "With the decorator the whole function runs with recording off, so predictions does "
        "not require grad. The decorator was the only thing that switched recording off: without "
        "it, inputs @ weights is recorded like any operation on a tensor that requires grad, and "
        "predictions requires grad and has a grad_fn. So (False, True). Put the line back: an "
        "evaluation that records keeps a graph in memory for nothing.",
        "zh": "有装饰器时，整个函数都在关闭记录的状态下运行，predictions 不需要梯度。关闭记录的只有"
        "这个装饰器：去掉它以后，inputs @ weights 和其他用到需要梯度的张量的操作一样被记录下来，"
        "predictions 需要梯度，也有了 grad_fn。所以是 (False, True)。记得把这一行加回去："
        "评估的时候还在记录，只会白白在内存里留下一张计算图。",
    },
    right_answers=(
        (False, True),
        [False, True],
        "(False, True)",
        "false, true",
        (np.False_, np.True_),
        "（False，True）",
        "False 和 True",
        "tensor([False, True])",
        "否，是",
        "(0, 1)",
    ),
    wrong_answers=(
        (True, False),
        (False, False),
        (True, True),
        (True,),
        True,
        (1, 1),
        "都是 True",
        {False, True},
        "True 和 True",
    ),
)
def _decorator_removed(answer: Any) -> bool:
    return as_bools(answer, count=2) == (False, True)


@exercise(
    "01.3",
    {
        "en": "w = torch.tensor(3.0, requires_grad=True); you run (w * w).backward() three "
        "times and never zero the gradient. What is w.grad?",
        "zh": "w = torch.tensor(3.0, requires_grad=True)；把 (w * w).backward() 运行三次，"
        "中间一次也不把梯度清零。w.grad 是多少？",
    },
    hint={
        "en": "Each call of backward() puts the gradient it computes into w.grad: does it replace "
        "what is there, or add to it? Work out d(w*w)/dw at w = 3 and count the calls.",
        "zh": "每次调用 backward() 都会把算出的梯度放进 w.grad：是替换掉原来的值，还是加到原来的"
        "值上？先算出 w = 3 处的 d(w*w)/dw，再数一数调用了几次。",
    },
    why={
        "en": "Each backward adds d(w*w)/dw = 2w = 6 into w.grad, and nothing clears it between "
        "calls: 6 + 6 + 6 = 18.",
        "zh": "每次 backward() 都把 d(w*w)/dw = 2w = 6 加到 w.grad 上，两次调用之间没有任何操作"
        "把它清零，这就是梯度累加：6 + 6 + 6 = 18。",
    },
    right_answers=(
        18,
        18.0,
        torch.tensor(18.0),
        "18",
        np.float32(18),
        torch.tensor([18.0]),
        "18。",
        "十八",
    ),
    wrong_answers=(6, 6.0, 0, "6", [18], None, True, "六", "6 和 18"),
)
def _accumulated_gradient(answer: Any) -> bool:
    return as_number(answer) == 18.0


@exercise(
    "01.4",
    {
        "en": "w requires grad. Inside `with torch.no_grad():` you compute z = w * 2. "
        "What is z.requires_grad (True or False)?",
        "zh": "w 需要梯度。在 `with torch.no_grad():` 块里计算 z = w * 2。"
        "z.requires_grad 是 True 还是 False？",
    },
    hint={
        "en": "Under torch.no_grad() autograd records no operation. Without a record, could "
        "backward ever reach w from z? Look at z.grad_fn.",
        "zh": "在 torch.no_grad() 之下，自动求导不记录任何操作。没有记录，反向传播还能从 z "
        "走回 w 吗？看看 z.grad_fn。",
    },
    why={
        "en": "Under no_grad autograd records nothing: z has no grad_fn, so z.requires_grad is "
        "False even though w requires grad.",
        "zh": "在 no_grad 之下自动求导什么也不记录：z 没有 grad_fn，所以即使 w 需要梯度，"
        "z.requires_grad 也是 False。",
    },
    right_answers=(
        False,
        "False",
        "false",
        np.False_,
        torch.tensor(False),
        "tensor(False)",
        "False.",
        "“False”",
        "「False」",
        "否",
        "no",
        "不",
        0,
        "答案是 False",
    ),
    wrong_answers=(True, "True", 1, "是", "yes", torch.tensor(True), "“True”。", 0.0, [False]),
)
def _no_grad_result(answer: Any) -> bool:
    return as_bool(answer) is False


@exercise(
    "01.5",
    {
        "en": "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True); y = x * x; "
        "y.backward(torch.tensor([1.0, 0.0, 1.0])). What is x.grad (three numbers)?",
        "zh": "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)；y = x * x；"
        "y.backward(torch.tensor([1.0, 0.0, 1.0]))。x.grad 是什么（三个数）？",
    },
    hint={
        "en": "backward(v) computes v times the Jacobian of y. Each y[i] = x[i] * x[i] depends "
        "on x[i] alone, with slope 2 * x[i]; v weights each of those slopes.",
        "zh": "backward(v) 计算的是 v 乘以 y 的雅可比矩阵。每个 y[i] = x[i] * x[i] 只依赖 x[i]，"
        "斜率是 2 * x[i]；v 给每个斜率加上一个权重。",
    },
    why={
        "en": "backward(v) computes the vector-Jacobian product. The Jacobian of x * x is "
        "diagonal with 2x = [2, 4, 6] on it, and v = [1, 0, 1] keeps the first and last: "
        "[2, 0, 6].",
        "zh": "backward(v) 计算的是向量-雅可比积。x * x 的雅可比矩阵是对角矩阵，对角线上是 "
        "2x = [2, 4, 6]；v = [1, 0, 1] 只保留第一个和最后一个：[2, 0, 6]。",
    },
    right_answers=(
        [2, 0, 6],
        (2.0, 0.0, 6.0),
        torch.tensor([2.0, 0.0, 6.0]),
        "tensor([2., 0., 6.])",
        "[2, 0, 6]",
        np.array([2, 0, 6]),
        torch.tensor([2.0, 0.0, 6.0]).to_sparse(),
        "［２，０，６］",
        "【2，0，6】",
        "[2, 0, 6]。",
        "array([2., 0., 6.])",
    ),
    wrong_answers=(
        [2, 4, 6],
        [1, 0, 1],
        8,
        [2, 0],
        [True, False, True],
        "2 4 6",
        [[2, 0, 6]],
        "【2，4，6】",
    ),
)
def _vector_jacobian_product(answer: Any) -> bool:
    return numbers_equal(answer, [2.0, 0.0, 6.0])

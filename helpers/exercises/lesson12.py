"""Check yourself, notebook 12: the backward passes a Jacobian takes, a tangent carried forward,
passes counted by rows and by columns, a Hessian, the shape of per-sample gradients, and what
gradcheck finds in a wrong jvp."""

from __future__ import annotations

import re
from typing import Any

import numpy as np
import torch

from helpers.exercises import as_bools, as_number, as_numbers, exercise, numbers_equal

# What print shows for a shape, torch.Size([8, 2, 3]), and a shape written 8×2×3 or 8 x 2 x 3:
# both are the numbers of a list.
_SIZE = re.compile(r"^\s*(?:torch\.)?Size\s*\((.*)\)\s*$", re.DOTALL)
_TIMES = re.compile(r"(?<=\d)\s*[×xX*]\s*(?=\d)")


def _shape(answer: Any) -> Any:
    """A shape answer as numbers: torch.Size and 8×2×3 read as the list [8, 2, 3]."""
    if isinstance(answer, torch.Size):
        return list(answer)
    if isinstance(answer, str):
        size = _SIZE.match(answer)
        text = size.group(1) if size else answer
        return _TIMES.sub(", ", text)
    return answer


@exercise(
    "12.1",
    {
        "en": "Predict before you run it: f = tanh(Mx) takes 3 numbers and returns 2. How many "
        "backward passes does torch.autograd.functional.jacobian(f, x) make (how many times does "
        "the hook on x run)?",
        "zh": "先预测，再运行：f = tanh(Mx) 输入 3 个数，返回 2 个。"
        "torch.autograd.functional.jacobian(f, x) 做几次反向传播（x 上的钩子运行几次）？",
    },
    hint={
        "en": "One backward pass, seeded with v, gives vᵀJ: a weighted sum of J's rows. Seeded "
        "with a row of the identity matrix, it gives one row of J. How many rows does J have: "
        "one per input, or one per output?",
        "zh": "以 v 为初始梯度的一次反向传播给出 vᵀJ，即 J 各行的加权和。以单位矩阵的一行为初始"
        "梯度，它给出 J 的一行。J 有几行：每个输入一行，还是每个输出一行？",
    },
    why={
        "en": "2. J has one row per output, and each backward pass, seeded with a row of the "
        "identity, gives one row; jacobian loops over the 2 outputs. The 3 inputs set the length "
        "of each row, not the number of passes. jacrev makes the same 2 rows in one batched pass, "
        "with vmap.",
        "zh": "2。J 的每个输出对应一行，每次以单位矩阵的一行为初始梯度的反向传播给出其中一行；"
        "jacobian 对 2 个输出各循环一次。3 个输入决定的是每一行的长度，不是传播的次数。jacrev "
        "借助 vmap，在一次成批的传播中算出同样的 2 行。",
    },
    right_answers=(2, "2", 2.0, "2.0", "tensor(2)", "两次", "2 次", "２"),
    wrong_answers=(1, 3, 6, 0, "3", "1"),
)
def _passes_for_the_jacobian(answer: Any) -> bool:
    return as_number(answer) == 2.0


@exercise(
    "12.2",
    {
        "en": "Predict before you run it: x = torch.tensor(2.0) gets the tangent 0.5 "
        "(make_dual), and y = x * x + 3 * x. What tangent does unpack_dual(y) give?",
        "zh": "先预测，再运行：x = torch.tensor(2.0) 配上切向量 0.5（make_dual），"
        "y = x * x + 3 * x。unpack_dual(y) 给出的切向量是多少？",
    },
    hint={
        "en": "A tangent is a derivative along the direction you gave: the derivative of y with "
        "respect to x, at x = 2, times x's tangent. Each operation applies its own rule, in the "
        "forward order: x * x has the tangent x·t + t·x, and 3 * x has 3·t.",
        "zh": "切向量就是沿你给定方向的导数：y 对 x 在 x = 2 处的导数，乘以 x 的切向量。每个操作"
        "按前向的顺序应用自己的规则：x * x 的切向量是 x·t + t·x，3 * x 的切向量是 3·t。",
    },
    why={
        "en": "3.5. dy/dx = 2x + 3 = 7 at x = 2, and the tangent carries it along the direction "
        "0.5: 7 × 0.5 = 3.5. Step by step: x * x gets 2·0.5 + 0.5·2 = 2, 3 * x gets 1.5, and "
        "the sum 3.5. The primal is y itself, 10.",
        "zh": "3.5。dy/dx = 2x + 3，在 x = 2 处等于 7，切向量沿方向 0.5 带着它：7 × 0.5 = 3.5。"
        "一步一步地看：x * x 得到 2·0.5 + 0.5·2 = 2，3 * x 得到 1.5，相加得 3.5。原始值就是 y "
        "本身，10。",
    },
    right_answers=(3.5, "3.5", "tensor(3.5000)", "3.50", "３.５", torch.tensor(3.5), "3.5。"),
    wrong_answers=(7, 10, 1.75, 0.5, "7.0", "tensor(10.)"),
)
def _tangent_of_a_small_function(answer: Any) -> bool:
    return as_number(answer) == 3.5


@exercise(
    "12.3",
    {
        "en": "tall takes 4 numbers and returns 2000. Built one pass at a time, without vmap, "
        "how many passes does its Jacobian take in reverse mode, and how many in forward mode? "
        "Answer with two numbers, reverse first, as a list such as [1, 2].",
        "zh": "tall 输入 4 个数，返回 2000 个。如果不用 vmap、一次一次地传播，构造它的雅可比矩阵"
        "在反向模式下要几次传播，在前向模式下又要几次？用两个数回答，先反向、后前向，写成一个列表，"
        "例如 [1, 2]。",
    },
    hint={
        "en": "A backward pass gives one row of J, a forward pass one column. J has a row for "
        "each output and a column for each input.",
        "zh": "一次反向传播给出 J 的一行，一次前向传播给出 J 的一列。J 的每个输出对应一行，每个"
        "输入对应一列。",
    },
    why={
        "en": "[2000, 4]. J is 2000×4: reverse mode needs one backward pass per output row, "
        "2,000 of them; forward mode one pass per input column, 4. That is why jacfwd was the "
        "fast one on tall, and jacrev on wide, where the numbers swap.",
        "zh": "[2000, 4]。J 是 2000×4 的矩阵：反向模式每个输出行要一次反向传播，共 2000 次；前向"
        "模式每个输入列要一次传播，共 4 次。这就是为什么在 tall 上 jacfwd 快，而在数字对调的 "
        "wide 上 jacrev 快。",
    },
    right_answers=([2000, 4], "[2000, 4]", (2000, 4), "2000, 4", "2000、4", "【2000，4】"),
    wrong_answers=([4, 2000], [2000, 2000], [1, 1], [4, 4], "[4, 2000]"),
)
def _passes_by_rows_and_by_columns(answer: Any) -> bool:
    return numbers_equal(answer, [2000.0, 4.0])


@exercise(
    "12.4",
    {
        "en": "Predict before you run it: h(x) = x[0] ** 2 * x[1] at x = torch.tensor([1.0, 3.0]). "
        "What is hessian(h)(x)? Write the 2×2 matrix as [[a, b], [c, d]].",
        "zh": "先预测，再运行：h(x) = x[0] ** 2 * x[1]，在 x = torch.tensor([1.0, 3.0]) 处，"
        "hessian(h)(x) 是什么？把这个 2×2 矩阵写成 [[a, b], [c, d]]。",
    },
    hint={
        "en": "First the gradient: the derivatives of h with respect to x[0] and to x[1], as "
        "formulas. Then row i of the Hessian is the derivative of the gradient's entry i with "
        "respect to each input. Put in the numbers only at the end.",
        "zh": "先写出梯度：h 对 x[0] 和对 x[1] 的导数，写成式子。黑塞矩阵的第 i 行，就是梯度的第 "
        "i 个分量对每个输入的导数。最后再代入数值。",
    },
    why={
        "en": "[[6, 2], [2, 0]]. The gradient is (2·x[0]·x[1], x[0]²). Differentiating 2·x[0]·x[1] "
        "gives 2·x[1] = 6 and 2·x[0] = 2; differentiating x[0]² gives 2·x[0] = 2 and 0. The "
        "matrix is symmetric, as a Hessian of a smooth function is: the two mixed derivatives "
        "agree.",
        "zh": "[[6, 2], [2, 0]]。梯度是 (2·x[0]·x[1], x[0]²)。对 2·x[0]·x[1] 求导得 2·x[1] = 6 和 "
        "2·x[0] = 2；对 x[0]² 求导得 2·x[0] = 2 和 0。这个矩阵是对称的，光滑函数的黑塞矩阵都是"
        "这样：两个混合偏导数相等。",
    },
    right_answers=(
        [[6, 2], [2, 0]],
        "[[6, 2], [2, 0]]",
        "tensor([[6., 2.], [2., 0.]])",
        "tensor([[6., 2.],\n        [2., 0.]])",
        np.array([[6.0, 2.0], [2.0, 0.0]]),
        "【【6，2】，【2，0】】",
        "6 2 2 0",
    ),
    wrong_answers=(
        [[6, 0], [0, 0]],
        [[2, 2], [2, 0]],
        [[6, 2], [2, 1]],
        [[0, 2], [2, 6]],
        "[[6, 1], [1, 0]]",
        [6, 1],
    ),
)
def _hessian_of_a_product(answer: Any) -> bool:
    return numbers_equal(answer, [[6.0, 2.0], [2.0, 0.0]]) or numbers_equal(
        answer, [6.0, 2.0, 2.0, 0.0]
    )


@exercise(
    "12.5",
    {
        "en": "Predict before you run it: the batch has 8 samples, and the weight of "
        "nn.Linear(3, 2) has the shape (2, 3). What shape does the per-sample gradient of the "
        "weight, from vmap(grad(loss_of), in_dims=(None, 0, 0)), have? Write it as a list.",
        "zh": "先预测，再运行：批次里有 8 个样本，nn.Linear(3, 2) 的权重形状是 (2, 3)。由 "
        "vmap(grad(loss_of), in_dims=(None, 0, 0)) 得到的权重的逐样本梯度是什么形状？写成一个"
        "列表。",
    },
    hint={
        "en": "grad(loss_of) gives the gradient of one sample's loss: it has the shape of the "
        "weight itself. vmap then runs it for every sample, and puts the results along a new "
        "dimension: where, and how long?",
        "zh": "grad(loss_of) 给出一个样本的损失的梯度，它的形状与权重本身相同。vmap 再对每个样本"
        "运行它，并把结果沿一个新的维度排起来：这个维度在哪里，有多长？",
    },
    why={
        "en": "[8, 2, 3]: one gradient of the weight's shape (2, 3) for each of the 8 samples, "
        "stacked along a new first dimension, the batch dimension vmap mapped over. Summed along "
        "it, they give the batch's gradient, shape (2, 3), as the cell checks.",
        "zh": "[8, 2, 3]：8 个样本各有一个与权重形状 (2, 3) 相同的梯度，沿一个新的第一维排起来，"
        "这就是 vmap 映射的那个批次维度。沿它求和，就得到整个批次的梯度，形状为 (2, 3)，单元格"
        "里也检查了这一点。",
    },
    right_answers=(
        [8, 2, 3],
        "[8, 2, 3]",
        (8, 2, 3),
        "(8, 2, 3)",
        "torch.Size([8, 2, 3])",
        torch.Size([8, 2, 3]),
        "8×2×3",
        "8 x 2 x 3",
        "8、2、3",
    ),
    wrong_answers=([2, 3], [8, 3, 2], [3, 2, 8], [2, 3, 8], "torch.Size([2, 3])", [8, 6]),
)
def _shape_of_per_sample_gradients(answer: Any) -> bool:
    values = as_numbers(_shape(answer))
    return values.shape == (3,) and values.tolist() == [8.0, 2.0, 3.0]


@exercise(
    "12.6",
    {
        "en": "In section 5's MyTanh, suppose jvp returned -x_tangent * (1 - y * y), with the "
        "wrong sign, and backward stayed right. Would gradcheck(MyTanh.apply, (x64,)) pass, and "
        "would gradcheck(MyTanh.apply, (x64,), check_forward_ad=True) pass? Answer with two "
        "values, True or False each, in that order.",
        "zh": "假设第 5 节 MyTanh 的 jvp 返回的是 -x_tangent * (1 - y * y)，符号错了，而 backward "
        "仍然正确。gradcheck(MyTanh.apply, (x64,)) 会通过吗？gradcheck(MyTanh.apply, (x64,), "
        "check_forward_ad=True) 会通过吗？用两个值回答，每个是 True 或 False，按这个顺序写。",
    },
    hint={
        "en": "gradcheck compares with finite differences only the products it is asked to check. "
        "Which of the two methods does each call run, backward, jvp, or both? The default leaves "
        "forward mode out.",
        "zh": "gradcheck 只拿它被要求检查的那些乘积去和有限差分比较。这两次调用各运行了哪个方法："
        "backward、jvp，还是两者都运行？默认情况下不检查前向模式。",
    },
    why={
        "en": "(True, False). Without check_forward_ad, gradcheck compares only backward's "
        "vector-Jacobian products with finite differences, and backward is right: it passes, "
        "and the wrong jvp goes unseen. With check_forward_ad=True it also pushes tangents "
        "through jvp, finds J·v with the wrong sign, and raises (or returns False with "
        "raise_exception=False). A Function with a jvp wants both checks.",
        "zh": "(True, False)。不加 check_forward_ad 时，gradcheck 只用有限差分检查 backward 的"
        "向量-雅可比积，而 backward 是对的：它通过了，错误的 jvp 没被发现。加上 "
        "check_forward_ad=True，它还会把切向量推过 jvp，发现 J·v 的符号错了，于是报错（传入 "
        "raise_exception=False 时返回 False）。写了 jvp 的 Function，两种检查都要做。",
    },
    right_answers=(
        (True, False),
        [True, False],
        "True, False",
        "(True, False)",
        "是，否",
        "yes, no",
        "会，不会",
        "通过，不通过",
        "pass, fail",
        "passes, fails",
    ),
    wrong_answers=((True, True), (False, False), (False, True), "False, True"),
)
def _gradcheck_finds_a_wrong_jvp(answer: Any) -> bool:
    return as_bools(answer, count=2) == (True, False)

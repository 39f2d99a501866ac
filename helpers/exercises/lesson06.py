"""Check yourself, notebook 06: ReLU's gradient at 0, a wrong backward that raises no error, and
why gradcheck wants float64."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, exercise, numbers_equal
from helpers.torch_version import clamp_gradient_at_zero

# 06.3's right answer follows the torch running: "a" where clamp(min=0) sends back 1 at exactly 0,
# as MyReLU does (torch 2.13 and earlier), "b" where it sends back 0 (2.14 and later).
_SAME_CHOICE_AT_ZERO = clamp_gradient_at_zero() == 1.0
_TIE_LETTER = "a" if _SAME_CHOICE_AT_ZERO else "b"
_OTHER_LETTER = "b" if _SAME_CHOICE_AT_ZERO else "a"


@exercise(
    "06.1",
    {
        "en": "In the cell of section 2 that measures ReLU's slope at 1, change eps = 1e-6 to "
        "eps = 1e-3 and run it again. What does float32 measure now? 'a': still about 0.98, "
        "2% off; 'b': 1.0000 to four decimals; 'c': 0.5, as at the kink.",
        "zh": "在第 2 节测量 ReLU 在 1 处斜率的单元格里，把 eps = 1e-6 改成 eps = 1e-3，"
        "再运行一次。float32 现在测得多少？'a'：仍然约为 0.98，偏差 2%；"
        "'b'：保留四位小数是 1.0000；'c'：0.5，和在折点处一样。",
    },
    hint={
        "en": "float32's rounding error in each output near 1 stays about the same whatever eps "
        "is. What happens to the difference of the two outputs, and so to the share of it that "
        "is rounding, when eps is 1000 times larger? Is x = 1 within eps of the kink at 0?",
        "zh": "不管 eps 是多少，float32 在每个接近 1 的输出里的舍入误差都差不多一样大。eps 大了 "
        "1000 倍，两个输出之差会怎样？其中舍入误差所占的比例又会怎样？x = 1 离 0 处的折点"
        "在 eps 之内吗？",
    },
    why={
        "en": "The two outputs are now 0.002 apart instead of 0.000002, so the same rounding "
        "error is a 1000 times smaller part of the difference: float32 measures 1.000017. "
        "gradcheck still takes a tiny step, since a large one measures across kinks and "
        "curvature rather than the slope at the point; float64 gives it the digits to do so.",
        "zh": "两个输出现在相差 0.002，而不是 0.000002，同样大小的舍入误差在差值里所占的比例"
        "小了 1000 倍：float32 测得 1.000017。gradcheck 仍然用很小的步长，因为步长大了，"
        "测到的就会是跨过折点、掺进曲率的平均斜率，而不是这一点的斜率；float64 让它在小步长下"
        "也有足够的位数。",
    },
    right_answers=("b", "B", "“b”", "b。", "(b)"),
    wrong_answers=("a", "c", 1, "bc", ["b"]),
)
def _a_larger_step_keeps_more_digits(answer: Any) -> bool:
    return as_choice(answer, "abc") == "b"


@exercise(
    "06.2",
    {
        "en": "Predict, then run: BrokenReLU's backward has x > 0 where MyReLU's has x < 0. What "
        "happens? 'a': its backward() raises an error, since the gradient it returns is wrong; "
        "'b': backward() runs without a word, and gradcheck rejects it; 'c': backward() runs, and "
        "gradcheck passes it too, since its forward is right.",
        "zh": "先预测，再运行：BrokenReLU 的反向里写的是 x > 0，而 MyReLU 里是 x < 0。会发生"
        "什么？'a'：它的 backward() 会报错，因为它返回的梯度是错的；'b'：backward() 一声不响地"
        "运行完，而 gradcheck 判它不对；'c'：backward() 运行完，gradcheck 也让它通过，因为它的"
        "前向是对的。",
    },
    hint={
        "en": "What could autograd compare your backward's numbers with, to call them wrong? And "
        "what does gradcheck compare them with?",
        "zh": "autograd 能拿什么和你的 backward 返回的数值比较，从而判定它们是错的？gradcheck "
        "又是拿什么和它们比较的？",
    },
    why={
        "en": "autograd has no other gradient to hold yours against: it takes whatever backward "
        "returns, of the right shape, and goes on, so backward() runs without an error or a "
        "warning. gradcheck measures the slope by finite differences and compares: the measured "
        "Jacobian is 1 on the diagonal where the input is positive, the returned one 1 where it "
        "is negative, so it raises GradcheckError ('Jacobian mismatch'). A good forward proves "
        "nothing about a backward written by hand.",
        "zh": "autograd 没有另一个梯度可以拿来和你的比较：backward 返回什么（只要形状对），它就"
        "用什么，接着往下算，所以 backward() 运行时既不报错也不警告。gradcheck 用有限差分测量"
        "斜率再作比较：测得的雅可比矩阵在输入为正的位置对角线上是 1，返回的却在输入为负的位置"
        "是 1，于是它抛出 GradcheckError（Jacobian mismatch）。前向写对了，并不能说明手写的反向"
        "也对。",
    },
    right_answers=("b", "B", "“b”", "b。", "(b)"),
    wrong_answers=("a", "c", 1, "bc", ["b"]),
)
def _a_wrong_backward_runs_and_gradcheck_catches_it(answer: Any) -> bool:
    return as_choice(answer, "abc") == "b"


@exercise(
    "06.3",
    {
        "en": "Predict before you run it: section 7 trains again from the same start as MyReLU's "
        "run, with clamp(min=0). Do the two runs give the same 500 losses? 'a': yes, equal to the "
        "last bit at every step; 'b': equal to the last bit up to the first step with a hidden "
        "value at exactly 0.0, and apart from the step after it; 'c': no, apart in the last bits "
        "from the first step on.",
        "zh": "先预测，再运行：第 7 节从 MyReLU 那次运行的起点出发，再用 clamp(min=0) 训练一次。"
        "两次运行的 500 个损失相同吗？'a'：相同，每一步都逐位相等；'b'：在第一次有"
        "隐藏值恰好为 0.0 的那一步之前（含这一步）逐位相等，从下一步起不再相等；'c'：不相同，"
        "从第一步起最后几位就不一样。",
    },
    hint={
        "en": "Rounding makes two results differ only when they are computed differently. The "
        "two ReLUs compute the same forward; their backwards differ at most at exactly 0. Section "
        "1 asked your torch what clamp(min=0) sends back there: is it MyReLU's 1?",
        "zh": "只有计算方式不同时，舍入才会让两个结果不一样。两个 ReLU 的前向算的是同样的数；"
        "它们的反向最多只在恰好为 0 处不同。第 1 节问过你的 torch：clamp(min=0) 在那里传回"
        "什么？和 MyReLU 的 1 一样吗？",
    },
    why={
        "en": "MyReLU.forward is x.clamp(min=0) itself, and away from 0 its backward applies "
        "clamp's mask, which copies numbers or writes zeros. On torch 2.13 and earlier clamp also "
        "sends back 1 at exactly 0, so the two runs do the same arithmetic in the same order and "
        "every loss is the same float: 'a'. From torch 2.14 on clamp sends back 0 there: the runs "
        "are equal to the last bit until the first step with a hidden value at exactly 0.0, and "
        "apart from the next step on: 'b'. The right letter is the one of the torch you run "
        "(section 1's cell shows it).",
        "zh": "MyReLU.forward 就是 x.clamp(min=0) 本身，在 0 以外的地方它的反向用的也是 clamp "
        "的掩码，只复制数值或写入零。在 torch 2.13 及更早的版本上，clamp 在恰好为 0 处同样传回 "
        "1，所以两次运行以相同的顺序做相同的算术，每个损失都是同一个浮点数：'a'。从 torch 2.14 "
        "起，clamp 在那里传回 0：直到第一次有隐藏值恰好为 0.0 的那一步，两次运行都逐位相等，"
        "从下一步起分开：'b'。对的字母取决于你运行的 torch（第 1 节的单元格会显示）。",
    },
    right_answers=(_TIE_LETTER, _TIE_LETTER.upper(), f"“{_TIE_LETTER}”", f"{_TIE_LETTER}。"),
    wrong_answers=(_OTHER_LETTER, "c", 0, "ab", [_TIE_LETTER]),
)
def _same_bits_up_to_a_tie(answer: Any) -> bool:
    return as_choice(answer, "abc") == _TIE_LETTER


@exercise(
    "06.4",
    {
        "en": "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True), then "
        "(torch.relu(x) + MyReLU.apply(x)).sum().backward(). What is x.grad?",
        "zh": "x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)，然后运行 "
        "(torch.relu(x) + MyReLU.apply(x)).sum().backward()。x.grad 是什么？",
    },
    hint={
        "en": "x is used twice, so the gradients of its two uses add up in x.grad (notebook 01). "
        "Go element by element and ReLU by ReLU: the table in section 1 says what each one "
        "lets through, and what each does at exactly 0.",
        "zh": "x 被用了两次，所以两处使用传回的梯度会在 x.grad 里相加（笔记本 01）。逐个元素、"
        "逐个 ReLU 地看：第 1 节的表格说明了每个 ReLU 让哪些梯度通过，以及它在恰好为 0 时"
        "怎么做。",
    },
    why={
        "en": "sum() sends 1 to each element of both ReLUs' outputs. At -1 both block it: "
        "0 + 0 = 0. At 0, torch.relu blocks it and MyReLU lets it through (as clamp(min=0) did "
        "up to torch 2.13): 0 + 1 = 1. At 2 both let it through: 1 + 1 = 2. So x.grad is "
        "[0, 1, 2], on every torch.",
        "zh": "sum() 给两个 ReLU 输出的每个元素都传回 1。在 -1 处两者都挡住：0 + 0 = 0。在 0 处，"
        "torch.relu 挡住，MyReLU 让它通过（torch 2.13 及更早版本的 clamp(min=0) 也是这样）："
        "0 + 1 = 1。在 2 处两者都通过：1 + 1 = 2。所以 x.grad 是 [0, 1, 2]，在每个版本的 torch "
        "上都是如此。",
    },
    right_answers=(
        [0, 1, 2],
        (0.0, 1.0, 2.0),
        torch.tensor([0.0, 1.0, 2.0]),
        "tensor([0., 1., 2.])",
        "0 1 2",
        "０、１、２",
        "[0. 1. 2.]",
        "array([0., 1., 2.])",
        "np.array([0, 1, 2])",
        "【0，1，2】。",
        "0，1 和 2",
    ),
    wrong_answers=(
        [0, 0, 1],
        [0, 1, 1],
        [0, 0, 2],
        [0, 2, 2],
        [1, 1, 2],
        2,
        [False, True, True],
        "c",
        "[0. 1. 1.]",
        "array([0., 0., 2.])",
    ),
)
def _two_relus_at_zero(answer: Any) -> bool:
    return numbers_equal(answer, [0.0, 1.0, 2.0])


@exercise(
    "06.5",
    {
        "en": "Why does gradcheck want float64 inputs? 'a': the finite-difference slope it "
        "measures keeps only about two correct digits in float32; 'b': MyReLU only works in "
        "float64; 'c': float64 makes backward run faster.",
        "zh": "gradcheck 为什么要求 float64 输入？'a'：它用有限差分测出的斜率，在 float32 下"
        "只剩大约两位正确的数字；'b'：MyReLU 只能在 float64 下工作；'c'：float64 让 backward "
        "跑得更快。",
    },
    hint={
        "en": "gradcheck measures a slope as (f(x + eps) - f(x - eps)) / (2 * eps) with a tiny "
        "eps. How many of float32's seven or so digits survive the subtraction of two nearly "
        "equal numbers?",
        "zh": "gradcheck 取一个很小的 eps，按 (f(x + eps) - f(x - eps)) / (2 * eps) 测量斜率。"
        "两个几乎相等的数相减之后，float32 大约七位有效数字里还能剩下几位？",
    },
    why={
        "en": "The measured slope divides the difference of two nearly equal outputs by a tiny "
        "step; float32 keeps too few digits of that difference, so even a correct backward "
        "would fail the check.",
        "zh": "测出的斜率是两个几乎相等的输出之差除以一个很小的步长；float32 在这个差里保留的"
        "数字太少，所以即使 backward 写对了，也会通不过检查。",
    },
    right_answers=("a", "A", " a", "‘a’", "a。", "(a)"),
    wrong_answers=("b", "c", 1, "ab", [True, False, False], ["a"]),
)
def _why_double(answer: Any) -> bool:
    return as_choice(answer, "abc") == "a"

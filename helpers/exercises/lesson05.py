"""Check yourself, notebook 05: an update outside no_grad, the learning rate, the scale of the
start, gradients that add up, and how many there are."""

from __future__ import annotations

from typing import Any

from helpers.exercises import as_choice, as_number, exercise


@exercise(
    "05.1",
    {
        "en": "Predict before you run it: the loop of section 5, changed to update with "
        "w1 = w1 - learning_rate * w1.grad, outside torch.no_grad(), for 3 steps. Where does it "
        "stop? 'a': at loss.backward() in step 1; 'b': at w1.grad.zero_() in step 0; 'c': "
        "nowhere, it runs all 3 steps; 'd': at the update w1 = w1 - ... in step 0.",
        "zh": "先预测，再运行：把第 5 节的循环改成在 torch.no_grad() 之外用 "
        "w1 = w1 - learning_rate * w1.grad 更新权重，共 3 步。它会停在哪里？"
        "'a'：第 1 步的 loss.backward()；'b'：第 0 步的 w1.grad.zero_()；"
        "'c'：哪儿也不停，3 步全部跑完；'d'：第 0 步的更新语句 w1 = w1 - ...。",
    },
    hint={
        "en": "Follow step 0 line by line. When the update runs, w1 is still the leaf that "
        "backward() just filled. Which tensor does the name w1 point at after the update, and "
        "what is that tensor's .grad?",
        "zh": "逐行走一遍第 0 步。执行更新时，w1 还是刚被 backward() 填好梯度的那个叶子张量。"
        "更新之后，名字 w1 指向的是哪个张量？那个张量的 .grad 是什么？",
    },
    why={
        "en": "In step 0 the update still reads the leaf's gradient, so it runs; but it makes "
        "w1 name the result of a subtraction, a tensor that is not a leaf and whose .grad is "
        "None. Two lines later w1.grad.zero_() calls zero_() on None: AttributeError, in step 0.",
        "zh": "第 0 步的更新读到的还是叶子张量的梯度，所以能执行；但它让 w1 指向了减法的结果，"
        "这个张量不是叶子张量，它的 .grad 是 None。两行之后，w1.grad.zero_() 对 None 调用 "
        "zero_()，于是在第 0 步就引发 AttributeError。",
    },
    right_answers=("b", "B", "“b”", "（b）", "b。"),
    wrong_answers=("a", "c", "d", "bd", ["b"], 1),
)
def _where_the_recorded_update_stops(answer: Any) -> bool:
    return as_choice(answer, "abcd") == "b"


@exercise(
    "05.2",
    {
        "en": "In the cell of section 6 that draws the loss along the first step, change "
        "learning_rate_tried = 1e-6 to 2e-6 and run it again. Where is seed 0's lowest point "
        "now, and where does its step land? 'a': at about 60 %, lower than it started; 'b': at "
        "about 30 %, higher than it started; 'c': at 100 %, lower than it started.",
        "zh": "在第 6 节画出沿第一步的损失的那个单元格里，把 learning_rate_tried = 1e-6 改成 "
        "2e-6，再运行一次。种子 0 的谷底位置现在在哪里？这一步落在哪里？'a'：约在 60 % 处，"
        "落得比出发点低；'b'：约在 30 % 处，落得比出发点高；'c'：在 100 % 处，落得比出发点低。",
    },
    hint={
        "en": "The first step starts from the same weights and goes in the same direction, the "
        "gradient's, whatever the learning rate: the valley along that line is the same. What "
        "changes is only how far the step goes along it.",
        "zh": "不管学习率是多少，第一步都从同样的权重出发，沿同一个方向（梯度的方向）走："
        "沿这条直线的那道山谷没有变。变的只是这一步沿着它走多远。",
    },
    why={
        "en": "The valley along the first step is the same; the step is twice as long, so its "
        "bottom, at 60 % of the old step, is at 30 % of the new one. That is before halfway: the "
        "step crosses the bottom and lands higher, and the loss rises from 2.94e+07 to 7.89e+07.",
        "zh": "第一步沿线的山谷没有变；步子长了一倍，所以原来位于这一步 60 % 处的谷底，"
        "现在位于新的一步的 30 % 处。它在一半之前：这一步越过谷底，落在更高的地方，"
        "损失从 2.94e+07 升到 7.89e+07。",
    },
    right_answers=("b", "B", "‘b’", "b。", "(b)"),
    wrong_answers=("a", "c", "ab", ["b"], 0.3),
)
def _twice_the_step(answer: Any) -> bool:
    return as_choice(answer, "abc") == "b"


@exercise(
    "05.3",
    {
        "en": "In section 7, the cell that trains with learning_rate=1e-3 starts from N(0, 1) "
        "weights and ends in nan. Rescale its start, w1_0 / D_in**0.5 and w2_0 / H**0.5, and run "
        "it again. What does it print? 'a': a first loss near 3e7, and nan at the end; 'b': a "
        "first loss near 1e3, and nan at the end; 'c': a first loss near 1e3, and a last loss "
        "below 1e-3; 'd': a first loss near 1, and a last loss below 1e-3.",
        "zh": "第 7 节里用 learning_rate=1e-3 训练的那个单元格从 N(0, 1) 权重出发，最后得到 nan。"
        "把起点缩小成 w1_0 / D_in**0.5 和 w2_0 / H**0.5，再运行一次。它打印什么？"
        "'a'：第一个损失在 3e7 附近，最后是 nan；'b'：第一个损失在 1e3 附近，最后是 nan；"
        "'c'：第一个损失在 1e3 附近，最后一个损失低于 1e-3；'d'：第一个损失在 1 附近，"
        "最后一个损失低于 1e-3。",
    },
    hint={
        "en": "Redo section 2's arithmetic with the rescaled weights: what is the variance of "
        "h, of y_pred, and of each of the 640 differences? Then: with outputs that small, is "
        "a step of 1e-3 still too long?",
        "zh": "用缩小后的权重把第 2 节的算术再做一遍：h、y_pred 的方差各是多少？640 个差值"
        "各自的方差是多少？再想一想：输出这么小的时候，1e-3 的步子还会太长吗？",
    },
    why={
        "en": "Rescaled, h has variance about 1, the ReLU keeps 1/2, y_pred has variance about "
        "1/2, and with the targets' 1 the first loss is near 640 x 1.5 = 960 (it prints 929). "
        "The valley is no longer narrow: 1e-3 is a step it allows, and the loss is below 1e-3 "
        "from step 54 on.",
        "zh": "缩小之后，h 的方差约为 1，ReLU 之后剩 1/2，y_pred 的方差约为 1/2，再加上目标值的 "
        "1，第一个损失约为 640 × 1.5 = 960（打印出 929）。山谷不再狭窄：1e-3 的步子它容得下，"
        "从第 54 步起损失就低于 1e-3。",
    },
    right_answers=("c", "C", "'c'", "c。", "（c）"),
    wrong_answers=("a", "b", "d", "cd", ["c"], 960),
)
def _a_rescaled_start(answer: Any) -> bool:
    return as_choice(answer, "abcd") == "c"


@exercise(
    "05.4",
    {
        "en": "You delete the two .grad.zero_() lines from the loop. During step 1, after "
        "loss.backward(), what does w2.grad hold? 'a': the gradient of step 1; 'b': the sum of "
        "the gradients of steps 0 and 1; 'c': the gradient of step 0.",
        "zh": "你把循环里的两行 .grad.zero_() 删掉了。在第 1 步里，loss.backward() 之后 w2.grad "
        "里是什么？'a'：第 1 步的梯度；'b'：第 0 步和第 1 步的梯度之和；'c'：第 0 步的梯度。",
    },
    hint={
        "en": "What does backward() do with a .grad that already holds numbers: replace them or "
        "add to them? And what did step 0 leave in w2.grad?",
        "zh": ".grad 里已经有数的时候，backward() 会怎样：替换掉，还是加上去？"
        "第 0 步又在 w2.grad 里留下了什么？",
    },
    why={
        "en": "backward() adds into .grad; nothing clears what step 0 left there, so w2.grad "
        "holds the gradient of step 0 plus that of step 1, and the update would follow that "
        "sum.",
        "zh": "backward() 是往 .grad 里累加；第 0 步留下的值没有被清掉，所以 w2.grad 是第 0 步"
        "的梯度加上第 1 步的梯度，参数更新也会照着这个和来走。",
    },
    right_answers=("b", "B", " b ", "'b'", "“b”", "ｂ", "b。", "（b）", "「b」"),
    wrong_answers=("a", "c", 2, "ab", ["b"], [False, True, False]),
)
def _gradients_accumulate(answer: Any) -> bool:
    return as_choice(answer, "abc") == "b"


@exercise(
    "05.5",
    {
        "en": "How many numbers does one loss.backward() write into .grad tensors in notebook "
        "05's network?",
        "zh": "在笔记本 05 的网络里，一次 loss.backward() 一共往各个 .grad 张量里写入多少个数？",
    },
    hint={
        "en": "Only tensors that require grad get a .grad, and each .grad has the shape of its "
        "tensor. Which tensors of the network require grad, and how many numbers does each "
        "hold?",
        "zh": "只有需要梯度的张量才有 .grad，而每个 .grad 的形状都和它的张量相同。"
        "网络里哪些张量需要梯度？它们各有多少个数？",
    },
    why={
        "en": "One gradient per weight: w1 holds 1000 x 100 = 100,000 numbers and w2 holds "
        "100 x 10 = 1,000, so 101,000. x and y do not require grad and get none.",
        "zh": "每个权重有一个梯度：w1 有 1000 × 100 = 100,000 个数，w2 有 100 × 10 = 1,000 个，"
        "一共 101,000 个。x 和 y 不需要梯度，没有 .grad。",
    },
    right_answers=(
        101000,
        101000.0,
        "101000",
        "101,000",
        "101_000",
        "1.01e5",
        "１０１０００",
        "10.1万",
        "十万一千",
        "101000个",
        "10.1万个",
    ),
    wrong_answers=(
        100000,
        1000,
        101100,
        64000 + 640,
        "many",
        "101,0",
        "十万",
        "10万个",
        "十万一百",
        "100000 和 1000",
    ),
)
def _number_of_gradients(answer: Any) -> bool:
    return as_number(answer) == 101000

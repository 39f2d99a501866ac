"""Check yourself, notebook 10: the ReLU's mask on four numbers, the network's backward pass by
hand, the gradient to fix first,
gradients equal to the last bit, a bias's gradient, eval() against no_grad(), a mean loss
against a sum, and the gradient of softmax with cross-entropy."""

from __future__ import annotations

from typing import Any

import numpy as np

from helpers.exercises import Names, as_bools, as_choice, as_name, exercise, numbers_equal

# The tensors whose gradients compare checks, by the names its table gives them.
_COMPARED = Names(("y_pred", "w2", "h_relu", "h", "w1"), example="w2")


@exercise(
    "10.1",
    {
        "en": "Predict before you run it: the ReLU's gradient on four numbers. h is "
        "[[2.0, -1.0], [-3.0, 0.5]], h_relu = h.clamp(min=0), and the gradient of h_relu, "
        "grad_h_relu, is [[-4.0, 5.0], [6.0, 7.0]]. What is grad_h? Write it as the 2 x 2 list "
        "[[a, b], [c, d]].",
        "zh": "先预测，再运行：在 4 个数上求 ReLU 的梯度。h 是 [[2.0, -1.0], [-3.0, 0.5]]，"
        "h_relu = h.clamp(min=0)，h_relu 的梯度 grad_h_relu 是 [[-4.0, 5.0], [6.0, 7.0]]。"
        "grad_h 是什么？写成 2 x 2 的列表 [[a, b], [c, d]]。",
    },
    hint={
        "en": "Take the four positions one at a time, and at each look at h, not at grad_h_relu: "
        "is h positive or negative there, and what is the ReLU's slope then? grad_h is "
        "grad_h_relu times that slope.",
        "zh": "逐个位置地看，每个位置看的是 h，不是 grad_h_relu：h 在那里是正还是负？这时 ReLU 的"
        "斜率是多少？grad_h 就是 grad_h_relu 乘以这个斜率。",
    },
    why={
        "en": "[[-4, 0], [0, 7]]. h is positive at [0, 0] (2.0) and [1, 1] (0.5): slope 1, so "
        "grad_h_relu's -4.0 and 7.0 pass unchanged, the negative one too, since the mask looks "
        "at h, never at the sign of the gradient. h is negative at [0, 1] and [1, 0]: slope 0, "
        "so grad_h is 0 there, however large grad_h_relu is (5.0, 6.0). That is grad_h_relu "
        "with zeros where h < 0, what the next cells do to all 6400 numbers.",
        "zh": "[[-4, 0], [0, 7]]。h 在 [0, 0]（2.0）和 [1, 1]（0.5）处为正：斜率为 1，所以 "
        "grad_h_relu 的 -4.0 和 7.0 原样通过，负的那个也一样，因为掩码看的是 h，从不看梯度的"
        "正负。h 在 [0, 1] 和 [1, 0] 处为负：斜率为 0，所以那里的 grad_h 是 0，不管 "
        "grad_h_relu 有多大（5.0、6.0）。这就是在 h < 0 处置零的 grad_h_relu，后面的单元格对"
        "全部 6400 个数做的正是这件事。",
    },
    right_answers=(
        [[-4, 0], [0, 7]],
        "[[-4, 0], [0, 7]]",
        "[[-4., 0.], [0., 7.]]",
        "tensor([[-4., 0.], [0., 7.]])",
        "tensor([[-4.,  0.],\n        [ 0.,  7.]])",
        np.array([[-4.0, 0.0], [0.0, 7.0]]),
        "【【-4，0】，【0，7】】",
        "-4 0 0 7",
    ),
    wrong_answers=(
        [[-4, 5], [6, 7]],
        [[0, 5], [6, 7]],
        [[0, 0], [0, 7]],
        [[-8, 0], [0, 3.5]],
        [[4, 0], [0, 7]],
        [[-4, 0], [6, 7]],
        "[[0, 5], [6, 7]]",
        "0 0 0 7",
    ),
)
def _the_mask_on_four_numbers(answer: Any) -> bool:
    # The four numbers in the order print shows them, as a 2 x 2 list or one row.
    return numbers_equal(answer, [[-4.0, 0.0], [0.0, 7.0]]) or numbers_equal(
        answer, [-4.0, 0.0, 0.0, 7.0]
    )


@exercise(
    "10.2",
    {
        "en": "In the cell of section 2.3, change grad_h = grad_h_relu.clone() to "
        "grad_h = grad_h_relu (no copy) and run it. Which tensor does its compare mark wrong (the "
        "name in the table's first column)?",
        "zh": "在第 2.3 节的单元格里，把 grad_h = grad_h_relu.clone() 改成 "
        "grad_h = grad_h_relu（不复制），然后运行。它的 compare 把哪个张量标为错误"
        "（看表格的第一栏）？",
    },
    hint={
        "en": "Without clone(), how many tensors are there after that line, and how many names "
        "do they have? The next line writes zeros through one of the names. compare reads every "
        "gradient as it is when compare runs.",
        "zh": "没有 clone()，那一行之后有几个张量？它们各有几个名字？下一行通过其中一个名字写入"
        "零。compare 读到的，是它运行那一刻每个梯度的样子。",
    },
    why={
        "en": "Without a copy, grad_h and grad_h_relu name one tensor, and grad_h[h < 0] = 0 "
        "writes its zeros into both. grad_h is now right, but grad_h_relu has zeros where h < 0, "
        "where the gradient of h_relu is not zero (h_relu is 0 there, and still feeds y_pred). "
        "So compare marks h_relu wrong, although its line was right: an in-place change made it "
        "wrong afterwards. That is why the mask is written into a copy, as MyReLU.backward did in "
        "notebook 06. To undo the change, put clone() back and run section 2.2's cell again: "
        "grad_h_relu itself was overwritten.",
        "zh": "不复制的话，grad_h 和 grad_h_relu 是同一个张量的两个名字，"
        "grad_h[h < 0] = 0 写入的零两边都看得到。grad_h 这下对了，grad_h_relu 却在 h < 0 "
        "的位置上变成了零，而 h_relu 在那些位置的梯度并不是零（h_relu 在那里等于 0，但仍然参与"
        "计算 y_pred）。所以 compare 把 h_relu 标为错误，尽管它那一行本来是对的：是后来的原地"
        "修改把它改错了。这就是掩码要写进副本的原因，笔记本 06 的 MyReLU.backward 也是这样做的。"
        "改回来时，除了补上 clone()，还要重新运行第 2.2 节的单元格：grad_h_relu 本身已经被"
        "改写了。",
    },
    right_answers=(
        "h_relu",
        "H_RELU",
        "grad_h_relu",
        "“h_relu”",
        "h_relu。",
        "'h_relu'",
        "h_relu 的梯度",
        "张量 h_relu",
    ),
    wrong_answers=("h", "w1", "y_pred", "w2", "grad_h", "h_relu, h", ["h_relu"], None, "h 的梯度"),
)
def _alias_without_clone(answer: Any) -> bool:
    return as_name(answer, _COMPARED) == "h_relu"


@exercise(
    "10.3",
    {
        "en": "Predict before you run it: the backward pass of section 3 forgets the ReLU's mask "
        "(grad_h = grad_h_relu.clone(), and nothing more), then computes grad_w1 from it. compare "
        "checks the gradients of y_pred, w2, h_relu, h and w1. Which tensor does it tell you to "
        'fix first? Write its name as compare does, such as "w2".',
        "zh": "先预测，再运行：第 3 节的反向传播忘了 ReLU 的掩码（grad_h = grad_h_relu.clone()，"
        "后面什么也没做），又用它算出 grad_w1。compare 检查 y_pred、w2、h_relu、h 和 w1 的"
        '梯度。它会让你先修正哪个张量？像 compare 那样写出它的名字，例如 "w2"。',
    },
    hint={
        "en": "A gradient can be wrong for two reasons: its own line is wrong, or it was computed "
        "from a gradient that is wrong. Go from the loss towards the weights: which gradient is "
        "the first whose line lacks something, while the gradient it was computed from is right?",
        "zh": "一个梯度出错，原因只有两种：它自己那一行写错了，或者算它所用的梯度已经错了。从损失"
        "往权重的方向走：哪一个梯度最先出错，而它所依据的那个梯度还是对的？",
    },
    why={
        "en": "The missing line belongs to the step from h_relu to h: grad_h_relu is right, grad_h "
        "is grad_h_relu unmasked, so compare says: fix h first. w1 is wrong too, but only because "
        "grad_w1 = x.t().mm(grad_h) is a right line fed a wrong grad_h; put the mask back and "
        "w1 is right again without any change to its line.",
        "zh": "缺的那一行属于从 h_relu 到 h 的那一步：grad_h_relu 是对的，grad_h 却是没加掩码的 "
        "grad_h_relu，所以 compare 说：先修正 h。w1 也错了，但那只是因为 "
        "grad_w1 = x.t().mm(grad_h) 这一行本身没错，用的 grad_h 却是错的；把掩码补上，"
        "w1 不改一个字就又对了。",
    },
    right_answers=(
        "h",
        "H",
        " h ",
        '"h"',
        "“h”",
        "h。",
        "grad_h",
        "「h」",
        "h 的梯度",
        "张量 h",
        "答案是h",
        "（h）",
        "the gradient of h",
        "h.grad",
    ),
    wrong_answers=("w1", "h_relu", "y_pred", "w2", "grad_w1", "x", "h, w1", ["h"], 1, "w1 的梯度"),
)
def _first_wrong_without_the_mask(answer: Any) -> bool:
    # The learner may name the tensor (as compare does) or the variable of its gradient.
    return as_name(answer, _COMPARED) == "h"


@exercise(
    "10.4",
    {
        "en": "Predict before you run it: train_by_hand() and train_with_autograd() each train "
        "500 steps from make_data()'s start. What is the largest difference between their "
        "losses? 'a': exactly 0, the same bits at every step; 'b': tiny but not 0, about "
        "float32's rounding (1e-7 of the loss); 'c': growing with the steps, to about 1% of the "
        "loss at the end.",
        "zh": "先预测，再运行：train_by_hand() 和 train_with_autograd() 都从 make_data() 的起点"
        "出发，各训练 500 步。两者的损失之间最大的差值是多少？'a'：恰好是 0，每一步都逐位相同；"
        "'b'：很小但不是 0，大约是 float32 的舍入误差（损失的 1e-7）；'c'：随步数增大，到最后"
        "约为损失的 1%。",
    },
    hint={
        "en": "Rounding makes two computations disagree only when they differ: other operations, "
        "or the same products added in another order. Which operations do autograd's nodes "
        "MmBackward0, ClampBackward1 and PowBackward0 run, on which tensors? Compare them with "
        "your lines.",
        "zh": "只有当两次计算本身不同（操作不同，或者同样的乘积按另一种顺序相加）时，舍入才会让"
        "结果不一致。autograd 的节点 MmBackward0、ClampBackward1 和 PowBackward0 在哪些张量上"
        "运行了哪些操作？拿它们和你写的那几行比一比。",
    },
    why={
        "en": "Exactly 0 ('a'). MmBackward0 computes grad.mm(w2.t()) and h_relu.t().mm(grad), "
        "your lines; ClampBackward1 applies the same mask (yours follows this torch's clamp at "
        "exactly 0), which copies numbers or writes zeros; "
        "PowBackward0 gives 2 * (y_pred - y), exactly. The same operations on the same numbers "
        "give the same bits, so the weights and the losses stay equal at all 500 steps. Had "
        "either side added the products in another order, the last bits would differ from the "
        "first steps, and the difference would grow as the loss falls, as 'c' describes (section "
        "5 shows it).",
        "zh": "恰好是 0（'a'）。MmBackward0 计算的是 grad.mm(w2.t()) 和 h_relu.t().mm(grad)，"
        "正是你写的那两行；ClampBackward1 施加的是同一个掩码（你的掩码在恰好为 0 处跟随这个 torch "
        "的 clamp），只复制数值或写入零；PowBackward0 "
        "得到的就是 2 * (y_pred - y)，不差一位。同样的操作作用在同样的数上，得到同样的比特，"
        "所以 500 步里权重和损失始终相等。要是有一方换了乘积相加的顺序，最后几位从头几步起就会"
        "不同，而且随着损失下降差距越来越大，就像 'c' 说的那样（第 5 节会看到）。",
    },
    right_answers=("a", "A", "“a”", "(a)", "a。", " a ", "选a", "选项 a", "答案：a"),
    wrong_answers=("b", "c", "ab", 0, ["a"], True, "选b", "exactly 0"),
)
def _losses_equal_to_the_last_bit(answer: Any) -> bool:
    return as_choice(answer, "abc") == "a"


@exercise(
    "10.5",
    {
        "en": "Predict before you run it: w2's gradient at make_data()'s start is computed for the "
        "sum of squares (g_sum) and for nn.MSELoss(), whose default reduction is 'mean' "
        "(g_mean). By what number must g_mean be multiplied to give g_sum? 'a': 64, the batch "
        "size; 'b': 10, the outputs of one row; 'c': 640, the number of squares; 'd': 1, since "
        "a mean changes the loss but not its gradients.",
        "zh": "先预测，再运行：在 make_data() 的起点上算 w2 的梯度，一次用平方和（g_sum），一次用 "
        "nn.MSELoss()，它的 reduction 默认是 'mean'（g_mean）。g_mean 要乘以几才等于 g_sum？"
        "'a'：64，批次的大小；'b'：10，每行的输出个数；'c'：640，平方的个数；'d'：1，因为均值"
        "只改变损失，不改变梯度。",
    },
    hint={
        "en": "The mean is the sum divided by a constant. What does the chain rule do with a "
        "constant factor of the loss? And over how many numbers of y_pred does nn.MSELoss "
        "average, when y_pred is (64, 10)?",
        "zh": "均值就是和除以一个常数。损失乘上一个常数因子，链式法则会怎样处理它？y_pred 的形状是 "
        "(64, 10)，nn.MSELoss 是对 y_pred 的多少个数取平均？",
    },
    why={
        "en": "'c'. nn.MSELoss() averages over every number of y_pred, 64 x 10 = 640 of them, "
        "so its loss is the sum divided by 640, and the chain rule carries the constant 1/640 "
        "into every gradient: grad_y_pred is 2 * (y_pred - y) / 640, and each gradient computed "
        "from it, down to w1's, is divided by 640 too. 'a' would be a mean over the rows alone "
        "(what nn.CrossEntropyLoss takes, section 6.2); 'd' forgets that the gradient of "
        "loss / 640 is the gradient of the loss divided by 640. So at the same learning rate a "
        "mean takes steps 640 times shorter.",
        "zh": "'c'。nn.MSELoss() 对 y_pred 的每个数取平均，一共 64 x 10 = 640 个，所以它的损失是"
        "和除以 640；链式法则把常数 1/640 带进每个梯度：grad_y_pred 是 "
        "2 * (y_pred - y) / 640，由它算出的每个梯度，一直到 w1 的梯度，也都除以了 640。'a' "
        "是只在各行上取平均的结果（nn.CrossEntropyLoss 就是这样，见第 6.2 节）；'d' 忘了 "
        "loss / 640 的梯度就是 loss 的梯度除以 640。所以学习率相同时，用均值走的每一步短 640 倍。",
    },
    right_answers=("c", "C", "“c”", "(c)", "c。", " c ", "选c", "选项 c", "答案：c"),
    wrong_answers=("a", "b", "d", "cd", ["c"], True, "选a", "选项 d"),
)
def _a_mean_divides_by_the_number_of_squares(answer: Any) -> bool:
    return as_choice(answer, "abcd") == "c"


@exercise(
    "10.6",
    {
        "en": "Predict before you run it: for logits z (64 rows of 10 classes) and each row's "
        "target class, nn.CrossEntropyLoss() (a mean over the rows) has the gradient "
        "grad_z = (softmax(z) - one_hot(target)) / 64. What does each row of grad_z add up to? "
        "'a': 1, as the probabilities do; 'b': 0; 'c': -1/64; 'd': it depends on the row's "
        "logits.",
        "zh": "先预测，再运行：logits z 有 64 行、10 个类别，每行有一个目标类别；"
        "nn.CrossEntropyLoss()（在各行上取平均）的梯度是 "
        "grad_z = (softmax(z) - one_hot(target)) / 64。grad_z 的每一行加起来是多少？"
        "'a'：1，和概率一样；'b'：0；'c'：-1/64；'d'：取决于这一行的 logits。",
    },
    hint={
        "en": "Add up one row of each part separately: what does a row of softmax(z) add up to, "
        "and a row of one_hot(target)? Then divide the difference by 64.",
        "zh": "把两部分的一行分别加起来：softmax(z) 的一行加起来是多少？one_hot(target) 的一行呢？"
        "再把两者之差除以 64。",
    },
    why={
        "en": "'b'. A row of softmax(z) adds up to 1, and a row of one_hot(target) holds a single "
        "1, so each row of their difference adds up to 0, whatever the logits, and so does the "
        "row divided by 64 (autograd's rows add up to about 1e-9: float32's rounding). A step "
        "against this gradient raises the target's logit and lowers the others by as much in "
        "all: adding the same number to every logit of a row changes no probability, and the "
        "gradient has no part in that direction.",
        "zh": "'b'。softmax(z) 的一行加起来是 1，one_hot(target) 的一行只有一个 1，所以两者之差的"
        "每一行加起来都是 0，不管 logits 是多少；除以 64 之后还是 0（autograd 算出的每行之和约为 "
        "1e-9，那是 float32 的舍入）。沿着梯度的反方向走一步，目标类别的 logit 升高多少，其余的 "
        "logits 合起来就降低多少：给一行的每个 logit 都加上同一个数，概率一个也不变，梯度在这个"
        "方向上也就没有分量。",
    },
    right_answers=("b", "B", "“b”", "(b)", "b。", " b ", "选b", "选项 b", "答案：b"),
    wrong_answers=("a", "c", "d", "bd", ["b"], False, "选a", "选项 d"),
)
def _each_row_of_the_cross_entropy_gradient_adds_up_to_zero(answer: Any) -> bool:
    return as_choice(answer, "abcd") == "b"


@exercise(
    "10.7",
    {
        "en": "Which line computes the gradient of the loss with respect to w1? 'a': "
        "x.t().mm(grad_h); 'b': grad_h.t().mm(x); 'c': grad_h.mm(w1.t()).",
        "zh": "哪一行算出的是损失对 w1 的梯度？'a'：x.t().mm(grad_h)；'b'：grad_h.t().mm(x)；"
        "'c'：grad_h.mm(w1.t())。",
    },
    hint={
        "en": "The gradient of w1 has w1's shape, (1000, 100). Work out the shape each line "
        "gives from x (64, 1000), grad_h (64, 100) and w1 (1000, 100); a right shape is "
        "necessary, and a transposed one is not the same gradient.",
        "zh": "w1 的梯度与 w1 形状相同，是 (1000, 100)。由 x (64, 1000)、grad_h (64, 100) 和 "
        "w1 (1000, 100) 算出每一行得到的形状；形状对是必要条件，转置过来的形状可不是同一个梯度。",
    },
    why={
        "en": "'a': (1000, 64) @ (64, 100) is (1000, 100), and each entry sums x[i, k] * "
        "grad_h[i, j] over the batch, which is dloss/dw1[k, j]. 'b' holds the same numbers "
        "transposed, (100, 1000): w1.T's shape, the shape of nn.Linear's weight, not w1's. 'c' "
        "is (64, 1000): the gradient with respect to x, which x, as data, does not need.",
        "zh": "'a'：(1000, 64) @ (64, 100) 得到 (1000, 100)，每个元素是 x[i, k] * grad_h[i, j] "
        "在批次上的和，也就是 dloss/dw1[k, j]。'b' 是同样的数转置后的 (100, 1000)：那是 w1.T "
        "的形状（也是 nn.Linear 权重的形状），不是 w1 的。'c' 是 (64, 1000)：对 x 的梯度，而 x "
        "是数据，用不着它。",
    },
    right_answers=("a", "A", "‘a’", "(a)", "a。", "选a", "选项 a", "答案：a", "x.t().mm(grad_h)"),
    wrong_answers=("b", "c", "ab", ["a"], 1000, "grad_h.t().mm(x)", "grad_h.mm(w1.t())"),
)
def _gradient_of_w1(answer: Any) -> bool:
    options = {"a": "x.t().mm(grad_h)", "b": "grad_h.t().mm(x)", "c": "grad_h.mm(w1.t())"}
    return as_choice(answer, "abc", options) == "a"


@exercise(
    "10.8",
    {
        "en": "A bias b2 of shape (10,) is added to the second layer: y_pred = h_relu.mm(w2) + "
        "b2, which adds b2 to each of the 64 rows. Which is the gradient of the loss with respect "
        "to b2? 'a': grad_y_pred.sum(0); 'b': grad_y_pred.sum(1); 'c': grad_y_pred.mean(0); "
        "'d': grad_y_pred[0].",
        "zh": "给第二层加上形状为 (10,) 的偏置 b2：y_pred = h_relu.mm(w2) + b2，b2 被加到 64 行"
        "中的每一行上。损失对 b2 的梯度是哪一个？'a'：grad_y_pred.sum(0)；"
        "'b'：grad_y_pred.sum(1)；'c'：grad_y_pred.mean(0)；'d'：grad_y_pred[0]。",
    },
    hint={
        "en": "b2[j] appears in y_pred[i, j] for every row i of the batch, each time with slope "
        "1. How do the gradients of several uses of one number combine (notebook 01)? Then check "
        "the shapes: the gradient of b2 has b2's shape.",
        "zh": "b2[j] 出现在批次每一行 i 的 y_pred[i, j] 里，每次的斜率都是 1。一个数被用了好几次，"
        "各处传回的梯度怎样合在一起（笔记本 01）？再核对形状：b2 的梯度与 b2 形状相同。",
    },
    why={
        "en": "'a'. Broadcasting uses b2[j] once per row, and the gradients of all its uses add "
        "up: dloss/db2[j] = sum over i of grad_y_pred[i, j], a sum over the batch, shape (10,). "
        "'b' sums over the outputs, shape (64,); 'c' is 64 times too small; 'd' keeps one row. "
        "This gradient is not zero, which is why zero biases would not train like no biases "
        "(section 5).",
        "zh": "'a'。广播让每一行都用一次 b2[j]，所有用处的梯度相加："
        "dloss/db2[j] = 对 i 求和 grad_y_pred[i, j]，是在批次上的和，形状为 (10,)。"
        "'b' 是在输出上求和，形状 (64,)；'c' 小了 64 倍；'d' 只留下了一行。这个梯度不是零，"
        "所以偏置为零的网络和没有偏置的网络训练起来并不一样（第 5 节）。",
    },
    right_answers=("a", "A", "“a”", "a。", "（a）", "选项a", "grad_y_pred.sum(0)"),
    wrong_answers=("b", "c", "d", "ac", ["a"], 10, "grad_y_pred.sum(1)", "grad_y_pred[0]"),
)
def _gradient_of_a_broadcast_bias(answer: Any) -> bool:
    options = {
        "a": "grad_y_pred.sum(0)",
        "b": "grad_y_pred.sum(1)",
        "c": "grad_y_pred.mean(0)",
        "d": "grad_y_pred[0]",
    }
    return as_choice(answer, "abcd", options) == "a"


@exercise(
    "10.9",
    {
        "en": "You forget model.eval(): section 5's dropout_model, in training mode, runs twice "
        "on the same x, inside torch.no_grad(). Give two True/False values: (the two outputs are "
        "equal, the output requires grad).",
        "zh": "你忘了调用 model.eval()：第 5 节的 dropout_model 处于训练模式，在 torch.no_grad() "
        "里对同一个 x 运行两次。用两个 True/False 回答：（两次的输出是否相等，输出是否需要梯度）。",
    },
    hint={
        "en": "Each switch answers one of the two questions. Which one decides what the Dropout "
        "layer does to its input, and which one decides whether autograd records? Which of the "
        "two is on here?",
        "zh": "两个开关各管一个问题。哪一个决定 Dropout 层怎样处理输入？"
        "哪一个决定自动求导记不记录？这里打开的是哪一个？",
    },
    why={
        "en": "(False, False). torch.no_grad() stops the recording, so the output does not "
        "require grad; but it changes no layer, so Dropout, still in training mode, zeroes a new "
        "random half of the hidden values at each call, and the two outputs differ. Predictions "
        "want both: model.eval() for the layers, torch.no_grad() for autograd.",
        "zh": "(False, False)。torch.no_grad() 停止记录，所以输出不需要梯度；但它不改变任何层，"
        "仍处于训练模式的 Dropout 每次调用都会随机把另一半隐藏值置零，两次输出也就不同。做预测时"
        "两个都要：model.eval() 管层的行为，torch.no_grad() 管自动求导。",
    },
    right_answers=(
        (False, False),
        [False, False],
        "(False, False)",
        "false, false",
        (np.False_, np.False_),
        "（False，False）",
        "False 和 False",
        "否，否",
        "不，不",
        "错，错",
        "(0,0)",
        (0, 0),
        "都是 False",
    ),
    wrong_answers=(
        (True, False),
        (False, True),
        (True, True),
        (False,),
        False,
        (1, 0),
        "是，否",
        "True 和 False",
    ),
)
def _no_grad_leaves_dropout_on(answer: Any) -> bool:
    return as_bools(answer, count=2) == (False, False)

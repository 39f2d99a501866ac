"""Check yourself, notebook 09: hooks during a training step, a Hessian-vector product, why a
gradient is None or zero, and the in-place error."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, as_number, exercise, means_none, numbers_equal

# The checklist of notebook 09, section 4.1: why a gradient is None or zero.
_CAUSES = "abcdefg"


@exercise(
    "09.1",
    {
        "en": "A training step with hooks on every parameter: loss.backward(), then "
        "optimizer.zero_grad(), then optimizer.step() (zero_grad moved between backward and "
        "step). What does print show for model[0].weight.grad afterwards?",
        "zh": "一个训练步，每个参数上都挂着钩子：先 loss.backward()，再 optimizer.zero_grad()，"
        "然后 optimizer.step()（zero_grad 被挪到了 backward 和 step 之间）。之后 print 显示的 "
        "model[0].weight.grad 是什么？",
    },
    hint={
        "en": "What does zero_grad() do to .grad by default, with set_to_none=True? And what "
        "does backward leave behind once zero_grad has run after it?",
        "zh": "默认情况下（set_to_none=True），zero_grad() 把 .grad 变成什么？zero_grad 在 "
        "backward 之后运行，backward 留下的梯度还剩什么？",
    },
    why={
        "en": "zero_grad() sets every .grad to None by default (set_to_none=True), so after it "
        "model[0].weight.grad is None, and step() skips every parameter whose .grad is None: "
        "nothing learns, and no error says so. The hook had already seen the gradient (its norm "
        "is still recorded), which places the bug between backward() and step().",
        "zh": "zero_grad() 默认把每个 .grad 设成 None（set_to_none=True），所以之后 "
        "model[0].weight.grad 是 None，而 step() 会跳过 .grad 为 None 的每个参数：模型什么也"
        "学不到，也没有任何报错。钩子已经看到了梯度（它的范数还记着），这就说明问题出在 "
        "backward() 和 step() 之间。",
    },
    right_answers=(None, "None", "none", "“None”", "None。"),
    wrong_answers=(0, "0", 0.1016, "0.1016", torch.zeros(8, 4), "tensor(0.)", "无"),
)
def _zero_grad_between_backward_and_step(answer: Any) -> bool:
    return means_none(answer)


@exercise(
    "09.2",
    {
        "en": "f(w) = w[0]**2 * w[1] at w = (3, 2), v = (1, 0). "
        "(g,) = torch.autograd.grad(f, w, create_graph=True); "
        "(hv,) = torch.autograd.grad(g @ v, w). What is hv?",
        "zh": "f(w) = w[0]**2 * w[1]，w = (3, 2)，v = (1, 0)。"
        "(g,) = torch.autograd.grad(f, w, create_graph=True)；"
        "(hv,) = torch.autograd.grad(g @ v, w)。hv 是多少？",
    },
    hint={
        "en": "Write g = (∂f/∂w0, ∂f/∂w1) = (2·w0·w1, w0²). With v = (1, 0), g · v is just "
        "its first entry, 2·w0·w1: differentiate that with respect to w0 and to w1, then put in "
        "w = (3, 2).",
        "zh": "先写出 g = (∂f/∂w0, ∂f/∂w1) = (2·w0·w1, w0²)。v = (1, 0) 时，g · v 就是它的第一个"
        "分量 2·w0·w1：分别对 w0 和 w1 求导，再代入 w = (3, 2)。",
    },
    why={
        "en": "The Hessian of f is [[2·w1, 2·w0], [2·w0, 0]] = [[4, 6], [6, 0]] at (3, 2), and "
        "H v with v = (1, 0) is its first column, [4, 6]: the gradient of g · v = 2·w0·w1.",
        "zh": "f 的黑塞矩阵是 [[2·w1, 2·w0], [2·w0, 0]]，在 (3, 2) 处等于 [[4, 6], [6, 0]]；"
        "v = (1, 0) 时，H v 就是它的第一列 [4, 6]，也就是 g · v = 2·w0·w1 的梯度。",
    },
    right_answers=(
        [4.0, 6.0],
        (4, 6),
        torch.tensor([4.0, 6.0]),
        "tensor([4., 6.])",
        "[4, 6]",
        "4、6",
    ),
    wrong_answers=([6.0, 4.0], [12.0, 9.0], [4.0, 0.0], [6.0, 0.0], 4, "[[4, 6], [6, 0]]"),
)
def _hessian_vector_product(answer: Any) -> bool:
    return numbers_equal(answer, [4.0, 6.0])


@exercise(
    "09.3",
    {
        "en": "w = torch.tensor([1.0, -2.0], requires_grad=True); b = torch.tensor(0.5, "
        "requires_grad=True); x = torch.tensor([3.0, 1.0]); scale = w.abs().max().item(); "
        "y = (x * scale).sum() + b; y.backward(). w.grad is None, b.grad is 1. Which letter of "
        "section 4.1's list is the cause: a (not a leaf), b (requires_grad False), c (no_grad "
        "or inference_mode), d (the chain is broken), e (an in-place write), f (a flat region), "
        "g (zero_grad in the wrong place)?",
        "zh": "w = torch.tensor([1.0, -2.0], requires_grad=True)；b = torch.tensor(0.5, "
        "requires_grad=True)；x = torch.tensor([3.0, 1.0])；scale = w.abs().max().item()；"
        "y = (x * scale).sum() + b；y.backward()。w.grad 是 None，b.grad 是 1。原因是 4.1 节清单"
        "中的哪个字母：a（不是叶子张量）、b（requires_grad 为 False）、c（no_grad 或 "
        "inference_mode）、d（链条断了）、e（原地写入）、f（平坦区域）、"
        "g（zero_grad 放错了位置）？",
    },
    hint={
        "en": "w is a leaf and requires grad, and grad mode is on. Follow the loss back towards "
        "w: which value on the way is a Python number rather than a tensor with a grad_fn?",
        "zh": "w 是叶子张量，也需要梯度，梯度模式也是开着的。从损失沿计算图往回走向 w："
        "途中哪个值是 Python 数字，而不是带 grad_fn 的张量？",
    },
    why={
        "en": "d: .item() turns the tensor w.abs().max() into a Python float, with no history. "
        "y is recorded from x, that float and b, so backward reaches b and never w: w.grad stays "
        "None. Keep scale a tensor (scale = w.abs().max()) and w gets its gradient.",
        "zh": "d：.item() 把张量 w.abs().max() 变成了一个 Python 浮点数，没有计算历史。y 是由 x、"
        "这个浮点数和 b 算出来的，所以反向传播能到达 b，却到不了 w：w.grad 一直是 None。让 scale "
        "保持为张量（scale = w.abs().max()），w 就有梯度了。",
    },
    right_answers=("d", "D", "(d)", "d。", "选 d"),
    wrong_answers=("a", "b", "c", "e", "f", "g", "ad"),
)
def _item_breaks_the_chain(answer: Any) -> bool:
    return as_choice(answer, _CAUSES) == "d"


@exercise(
    "09.4",
    {
        "en": "w = torch.tensor([[1.0, 1.0], [-1.0, -2.0]], requires_grad=True) (one row per "
        "unit); x = torch.tensor([[1.0, 2.0], [3.0, 1.0]]) (one row per sample); "
        "torch.relu(x @ w.T).sum().backward(). The second row of w.grad is zero. Which letter "
        "of section 4.1's list is the cause (a to g)?",
        "zh": "w = torch.tensor([[1.0, 1.0], [-1.0, -2.0]], requires_grad=True)（每行一个神经元）；"
        "x = torch.tensor([[1.0, 2.0], [3.0, 1.0]])（每行一个样本）；"
        "torch.relu(x @ w.T).sum().backward()。w.grad 的第二行全是零。原因是 4.1 节清单中的"
        "哪个字母（a 到 g）？",
    },
    hint={
        "en": "Compute the second unit's input for each sample: -x0 - 2·x1. What does the ReLU "
        "send back where its input is negative?",
        "zh": "算出每个样本送进第二个神经元的输入：-x0 - 2·x1。在输入为负的地方，ReLU 送回的梯度"
        "是多少？",
    },
    why={
        "en": "f: the second unit's input is -5 for both samples, so its ReLU outputs 0 and "
        "sends back 0 on every sample: a dead unit, whose weights get no gradient. The first "
        "unit's inputs are positive, and its row is the sum of the samples, [4, 3]. Another "
        "initialisation or a leaky ReLU lets the unit learn again.",
        "zh": "f：对两个样本，第二个神经元的输入都是 -5，所以它的 ReLU 输出 0，在每个样本上送回的"
        "梯度也都是 0：这是一个“死掉”的神经元，它的权重得不到梯度。第一个神经元的输入为正，"
        "它那一行是两个样本之和 [4, 3]。换一种初始化，或者改用 leaky ReLU，"
        "这个神经元才能重新学习。",
    },
    right_answers=("f", "F", "(f)", "f。", "选 f"),
    wrong_answers=("a", "b", "c", "d", "e", "g", "ef"),
)
def _dead_relu_unit(answer: Any) -> bool:
    return as_choice(answer, _CAUSES) == "f"


@exercise(
    "09.5",
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
    "09.6",
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

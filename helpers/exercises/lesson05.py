"""Check yourself, notebook 05: gradients add up, how many there are, updates outside no_grad."""

from __future__ import annotations

from typing import Any

from helpers.exercises import as_choice, as_number, exercise, means_none


@exercise(
    "05.1",
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
    "05.2",
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


@exercise(
    "05.3",
    {
        "en": "Outside torch.no_grad() you update with w1 = w1 - learning_rate * w1.grad, run "
        "the next forward pass and loss.backward(). What is w1.grad now?",
        "zh": "你在 torch.no_grad() 之外用 w1 = w1 - learning_rate * w1.grad 更新权重，然后运行"
        "下一次前向传播和 loss.backward()。现在 w1.grad 是什么？",
    },
    hint={
        "en": "After w1 = w1 - ..., the name w1 points at a new tensor, the result of a "
        "subtraction that autograd recorded. Is that tensor a leaf? Which tensors does "
        "backward() fill .grad for?",
        "zh": "执行 w1 = w1 - ... 之后，名字 w1 指向一个新张量：它是一次减法的结果，这次减法被"
        "自动求导记录了下来。这个张量是叶子张量吗？backward() 会为哪些张量填写 .grad？",
    },
    why={
        "en": "The new w1 is the result of a subtraction: it has a grad_fn and is not a leaf, so "
        "backward() does not fill its .grad, which stays None (PyTorch warns when you read it).",
        "zh": "新的 w1 是减法的结果：它有 grad_fn，不是叶子张量，所以 backward() 不会填写它的 "
        ".grad，它一直是 None（读取它时 PyTorch 会发出警告）。",
    },
    right_answers=(None, "None", "none", "Ｎｏｎｅ", "None。"),
    wrong_answers=(0, "0", "a tensor", "the gradient", [None], False, "空", "零"),
)
def _update_outside_no_grad(answer: Any) -> bool:
    return means_none(answer)

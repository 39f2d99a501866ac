"""Every text `compare` shows a learner, in English and Chinese (``helpers.set_language``): its
table, the verdict under it, and its errors, in the catalogue ``COMPARE_MESSAGES``
(helpers.backward.compare)."""

from __future__ import annotations

from helpers.language import Catalogue

_COMPARE_TEXTS = {
    # --- the table
    "tensor": {"en": "tensor", "zh": "张量"},
    "your gradient": {"en": "your gradient", "zh": "你的梯度"},
    "right": {"en": "right", "zh": "对错"},
    "largest difference": {"en": "largest difference", "zh": "最大差值"},
    "where": {"en": "where", "zh": "位置"},
    "note": {"en": "note", "zh": "说明"},
    "shapes differ": {
        "en": "shape {yours}, autograd's {autograd}",
        "zh": "形状 {yours}，autograd 的是 {autograd}",
    },
    "transposed": {"en": "transposed?", "zh": "转置了？"},
    "not summed": {
        "en": "not summed over the broadcast dimensions?",
        "zh": "没有沿广播出来的维度求和？",
    },
    "dtype differs": {
        "en": "dtype {yours}, autograd's {autograd}",
        "zh": "dtype 是 {yours}，autograd 的是 {autograd}",
    },
    "fix first": {"en": "fix this one first", "zh": "先修正这一个"},
    "inherits": {"en": "wrong because {names} is", "zh": "因为 {names} 错了"},
    "own mistake": {"en": "wrong on its own", "zh": "自身也有错"},
    "list separator": {"en": ", ", "zh": "、"},
    "and": {"en": "{first} and {last}", "zh": "{first} 和 {last}"},
    "then": {"en": "{first} {second}", "zh": "{first}{second}"},
    # --- the verdict under the table
    "one right": {
        "en": "The gradient of {name} is right: it equals autograd's to within {tolerance} of its "
        "largest value.",
        "zh": "{name} 的梯度是对的：它与 autograd 的相同，差别不超过其最大值的 {tolerance}。",
    },
    "all right": {
        "en": "All {count} gradients are right: each equals autograd's to within {tolerance} of "
        "its largest value.",
        "zh": "全部 {count} 个梯度都对：每一个都与 autograd 的相同，"
        "差别不超过其最大值的 {tolerance}。",
    },
    "fix": {
        "en": "Fix the gradient of {name} first.",
        "zh": "先修正 {name} 的梯度。",
    },
    "fix, yours": {
        "en": "Fix the gradient of {name} first (your {yours}).",
        "zh": "先修正 {name} 的梯度（你的 {yours}）。",
    },
    "its inputs are right": {
        "en": "The gradients it is computed from are right ({names}): the mistake is in this step.",
        "zh": "计算它所用的梯度（{names}）都是对的：错误就出在这一步。",
    },
    "nearest the output": {
        "en": "It is the first gradient after the output: the mistake is in this step.",
        "zh": "它是输出之后的第一个梯度：错误就出在这一步。",
    },
    "inherited, one": {
        "en": "The gradient of {names} follows rightly from the wrong one before it: it will be "
        "right once that one is.",
        "zh": "{names} 的梯度是由前面那个错误的梯度正确地推出来的：前面的改对了，它也就对了。",
    },
    "inherited, many": {
        "en": "The gradients of {names} follow rightly from wrong ones before them: they will be "
        "right once those are.",
        "zh": "{names} 的梯度是由前面错误的梯度正确地推出来的：前面的改对了，它们也就对了。",
    },
    "also wrong, one": {
        "en": "The gradient of {names} is wrong on its own as well.",
        "zh": "另外，{names} 的梯度本身也有错。",
    },
    "also wrong, many": {
        "en": "The gradients of {names} are wrong on their own as well.",
        "zh": "另外，{names} 的梯度本身也有错。",
    },
    "tolerance": {
        "en": "(Right means within {tolerance} of the gradient's largest value.)",
        "zh": "（“对”的意思是：与 autograd 的差别不超过梯度最大值的 {tolerance}。）",
    },
    # --- errors
    "mine not a dict": {
        "en": "compare needs a dict {{name: your gradient}}, e.g. compare(loss, {{'w1': "
        "grad_w1}}), and got {got}.",
        "zh": "compare 需要一个字典 {{名字: 你的梯度}}，例如 compare(loss, {{'w1': grad_w1}})，"
        "但收到的是 {got}。",
    },
    "mine empty": {
        "en": "compare got an empty dict: name at least one tensor and your gradient of it, "
        "e.g. compare(loss, {{'w1': grad_w1}}).",
        "zh": "compare 收到了一个空字典：请至少给出一个张量的名字和你算出的梯度，"
        "例如 compare(loss, {{'w1': grad_w1}})。",
    },
    "key not a name": {
        "en": "compare's dict maps names (str) to your gradients, e.g. {{'w1': grad_w1}}; a key "
        "is a {got}.",
        "zh": "compare 的字典把名字（str）对应到你的梯度，例如 {{'w1': grad_w1}}；"
        "但有一个键是 {got}。",
    },
    "no such name": {
        "en": "No tensor is called {name!r} in your code. Use the name of the variable that holds "
        "the tensor (the forward pass's h, not the gradient grad_h).",
        "zh": "你的代码里没有叫 {name!r} 的张量。请用存放这个张量的变量名"
        "（前向传播里的 h，而不是梯度 grad_h）。",
    },
    "no such name, nearest": {
        "en": "No tensor is called {name!r} in your code; did you mean {nearest}?",
        "zh": "你的代码里没有叫 {name!r} 的张量；你是不是想写 {nearest}？",
    },
    "needs no grad": {
        "en": "{name} does not require grad, so autograd computes no gradient for it: compare "
        "the tensors between the weights and the output.",
        "zh": "{name} 不需要梯度，autograd 不会为它计算梯度：请比较从权重到输出之间的那些张量。",
    },
    "not in graph": {
        "en": "{name} is not in the graph of {output}. Either it was computed in another run of "
        "the forward pass (running a cell again makes new tensors): run the forward pass once "
        "more, then your gradients from it, then compare. Or {output} was computed from it "
        "through .detach() or under torch.no_grad(), which cut it off: no gradient of {output} "
        "reaches it, so compare the tensors on the way from the weights to {output}.",
        "zh": "{name} 不在 {output} 的计算图里。要么它是在另一次前向传播中算出来的"
        "（重新运行一个单元格会生成新的张量）：请重新运行一次前向传播，再根据它算出你的梯度，"
        "然后再比较。要么 {output} 是经过 .detach() 或在 torch.no_grad() 之下由它算出来的，"
        "这就把它切断了：{output} 的梯度到不了它，请比较从权重到 {output} 这一路上的张量。",
    },
    "meta tensor": {
        "en": "{name} is a meta tensor (device='meta'): it has a shape but no numbers, so there "
        "is no gradient to compare. Run the forward pass on the CPU or a GPU, then compare.",
        "zh": "{name} 是一个 meta 张量（device='meta'）：它只有形状，没有数值，所以没有梯度可以"
        "比较。请在 CPU 或 GPU 上运行前向传播，然后再比较。",
    },
    "gradient none": {
        "en": "Your gradient of {name} is None. Compute it by hand (a tensor of {name}'s shape); "
        "a .grad read before backward() is None.",
        "zh": "你给 {name} 的梯度是 None。请手算出它（一个与 {name} 形状相同的张量）；"
        "在 backward() 之前读取的 .grad 就是 None。",
    },
    "gradient not a tensor": {
        "en": "Your gradient of {name} is a {got}: give a tensor (or numbers) of {name}'s shape.",
        "zh": "你给 {name} 的梯度是 {got}：请给出一个与 {name} 形状相同的张量（或数字）。",
    },
    "output gone": {
        "en": "The output this comparison was made for no longer exists: draw it with "
        "draw(loss, marks=result).",
        "zh": "做这次比较时的输出已经不存在了：请用 draw(loss, marks=result) 来画。",
    },
}
COMPARE_MESSAGES = Catalogue("helpers.backward.compare", _COMPARE_TEXTS)

"""Check yourself, notebook 11: a small Transformer's recorded graph, where the residual stream's
gradient splits, which module's gradients are largest, a block's depth, a bias with no gradient,
a tied weight's AccumulateGrad and the causal mask in the gradients."""

from __future__ import annotations

from typing import Any

import numpy as np
import torch

from helpers.exercises import Names, as_bools, as_choice, as_name, as_number, exercise

# The top-level modules of the notebook's TinyTransformer, as the folded picture names them; the
# model's variable may be written in front (model.head), and the blocks are counted (第一个块),
# four of them, or twelve after 11.4's change.
_TOP_MODULES = ("embed", "position", "norm", "head")
_MODULES = Names(
    _TOP_MODULES, example="blocks.2.mlp", within="model", counted=("blocks", ("块", "block"), 4)
)
_MODULES_OF_12_BLOCKS = Names(
    _TOP_MODULES, example="blocks.5", within="model", counted=("blocks", ("块", "block"), 12)
)
# The parameters of a block's attention, as named_parameters() gives them; the path of the
# attention may be written in front, in any block.
_ATTENTION_PARAMETERS = Names(
    tuple(
        f"{layer}.{part}"
        for layer in ("query", "key", "value", "out")
        for part in ("weight", "bias")
    ),
    example="query.weight",
    within="model.blocks.*.attention",
)


@exercise(
    "11.1",
    {
        "en": "In the folded picture, follow the residual stream through the frame of blocks.1. "
        "During backward, the stream's gradient splits into two paths: one goes straight down the "
        "stream, the other into the attention. At which box? 'a': the AddBackward0 of "
        "x = x + self.attention(self.norm1(x)), which has an arrow from the stream and one from "
        "the attention's box; 'b': the box of blocks.1.norm1, which the stream goes into; 'c': "
        "the AddBackward0 the stream comes from, the one that made the block's input x.",
        "zh": "在折叠后的图里，沿着残差流穿过 blocks.1 的外框。反向传播时，残差流的梯度分成两路："
        "一路沿残差流直接往下走，另一路进入注意力。在哪个方框分开？'a'："
        "x = x + self.attention(self.norm1(x)) 的 AddBackward0，它有一个箭头来自残差流，"
        "一个来自注意力的方框；'b'：blocks.1.norm1 的方框，残差流通向它；'c'：残差流所来自的那个 "
        "AddBackward0，也就是算出这个块的输入 x 的那个。",
    },
    hint={
        "en": "Backward, a node sends one gradient along each of its inputs, the arrows that come "
        "into its box. Which of the three boxes has both the stream and the attention among its "
        "inputs? A box whose output goes two ways is the opposite case: it receives two "
        "gradients, and adds them (notebook 08).",
        "zh": "反向传播时，一个节点沿它的每个输入（也就是指向它的方框的箭头）各送出一个梯度。三个"
        "方框里，哪一个的输入中既有残差流，又有注意力？输出通向两处的方框恰好相反：它收到两个"
        "梯度，把它们相加（笔记本 08）。",
    },
    why={
        "en": "The add's two inputs are the stream x and the attention's output, and its backward "
        "sends the gradient it receives to both (the derivative of x + a is 1 with respect to "
        "each). 'c' is where the two paths meet again: the node that made x has two consumers, "
        "this add and norm1, and receives the sum of what they send. norm1 lies on the attention "
        "path, between the split and the meeting.",
        "zh": "加法的两个输入是残差流 x 和注意力的输出，它的反向计算把收到的梯度送给这两个输入"
        "（x + a 对两者的导数都是 1）。'c' 是两路重新汇合的地方：算出 x 的节点有两个使用者，"
        "这个加法和 norm1，它收到的是两者送来的梯度之和。norm1 在注意力那一路上，位于分开和"
        "汇合之间。",
    },
    right_answers=("a", "A", "“a”", "(a)", "a。", " a ", "「a」", "选a", "选项 a", "答案：a"),
    wrong_answers=("b", "c", "ab", "AddBackward0", True, 1, "答案是 c"),
)
def _the_residual_add_splits_the_gradient(answer: Any) -> bool:
    return as_choice(answer, "abc") == "a"


@exercise(
    "11.2",
    {
        "en": "Predict, then run: a hook on the AddBackward0 of "
        "x = x + self.attention(self.norm1(x)) in blocks.3 sees what the add receives during "
        "loss.backward() and what it sends on. Give two True/False values: (what it sends down "
        "the stream equals what it received, what it sends into the attention equals what it "
        "received).",
        "zh": "先预测，再运行：挂在 blocks.3 的 x = x + self.attention(self.norm1(x)) 的 "
        "AddBackward0 上的钩子，能看到 loss.backward() 时这个加法收到的梯度和它送出的梯度。"
        "给出两个 True/False 值：（它沿残差流送下去的梯度是否等于它收到的，"
        "它送进注意力的梯度是否等于它收到的）。",
    },
    hint={
        "en": "The add computes x + a. How much does its result move when x moves by a small "
        "amount, and when a does? That local derivative is what multiplies the incoming gradient "
        "on its way to each input.",
        "zh": "这个加法算的是 x + a。x 变动一点点时，结果变动多少？a 变动时呢？这个局部导数就是"
        "传入的梯度送往每个输入时所乘的数。",
    },
    why={
        "en": "(True, True). The derivative of x + a is 1 with respect to each input, so "
        "AddBackward0 sends the gradient it receives to both, unchanged; PyTorch even sends the "
        "same tensor twice, not a copy. Nothing is halved: the paths do not share the gradient "
        "out, each gets all of it.",
        "zh": "(True, True)。x + a 对每个输入的导数都是 1，所以 AddBackward0 把收到的梯度原样送给"
        "两个输入；PyTorch 甚至是把同一个张量送出两次，连副本都不做。梯度没有被减半：两路并不"
        "分摊梯度，每一路拿到的都是全部。",
    },
    right_answers=(
        (True, True),
        [True, True],
        "(True, True)",
        "true, true",
        (np.True_, np.True_),
        "（True，True）",
        "True 和 True",
        "是，是",
        "对，对",
        "都是 True",
        "(1, 1)",
        (1, 1),
    ),
    wrong_answers=((True, False), (False, True), (False, False), True, "是，否", "都是 False"),
)
def _an_add_sends_its_gradient_to_both(answer: Any) -> bool:
    return as_bools(answer, count=2) == (True, True)


@exercise(
    "11.3",
    {
        "en": "After loss.backward(), read the folded picture: which box has the largest gradient "
        'norm? Give the module\'s path as the box names it, such as "blocks.2.mlp".',
        "zh": "loss.backward() 之后，看折叠后的图：哪个方框的梯度范数最大？按方框上的写法给出"
        '这个模块的路径，例如 "blocks.2.mlp"。',
    },
    hint={
        "en": "Each module's box gives, after its number of parameters, in red, one norm of all "
        "its parameters' gradients together. Compare every box, those outside the blocks too: "
        "the modules before the first block and after the last.",
        "zh": "每个模块的方框在参数个数后面用红字写着它所有参数的梯度合起来的一个范数。把所有方框"
        "都比一比，包括各个块外面的方框：第一个块之前和最后一个块之后的模块。",
    },
    why={
        "en": "head, 0.76, nearly three times any other box. Its weight's gradient is the "
        "gradient at the logits times the final LayerNorm's output, numbers of size about 1. "
        "Every other module gets the gradient only after it has gone back through the head's "
        "starting weights, which are small (nn.Linear draws them between ±1/√16 = ±0.25), and "
        "through the final LayerNorm: the residual stream's gradient is a few times smaller "
        "than the logits'.",
        "zh": "head，0.76，差不多是其他任何方框的三倍。它的权重的梯度是 logits 处的梯度乘以最后"
        "那个 LayerNorm 的输出，而这些输出的大小在 1 左右。其他模块拿到的梯度都要先倒着穿过 head 的"
        "初始权重（nn.Linear 把它们取在 ±1/√16 = ±0.25 之间，很小），再穿过最后那个 "
        "LayerNorm：残差流的梯度比 logits 的梯度小好几倍。",
    },
    right_answers=(
        "head",
        "model.head",
        "head · Linear",
        "HEAD",
        "“head”",
        "head。",
        "head层",
        "head 模块",
        "the head layer",
    ),
    wrong_answers=("norm", "blocks.1.mlp", "blocks.0.attention", "embed", "blocks.0", "loss"),
)
def _the_head_has_the_largest_gradients(answer: Any) -> bool:
    return as_name(answer, _MODULES) == "head"


@exercise(
    "11.4",
    {
        "en": "In the change-and-see cell, change blocks = 4 to blocks = 12 and run it again. "
        "Whose gradient norm is larger: blocks.0's, the first block, nearest the embeddings, or "
        "blocks.11's, the last, nearest the loss?",
        "zh": "在“动手改一改”的单元格里，把 blocks = 4 改成 blocks = 12，再运行一次。哪个块的梯度"
        "范数更大：blocks.0（第一个块，离嵌入最近），还是 blocks.11（最后一个块，离损失"
        "最近）？",
    },
    hint={
        "en": "Read the two boxes at either end of the blocks, or the norms the cell prints; the "
        "box between them stands for ten blocks together, so its norm is no single block's. "
        "Remember what a residual add does: each block's input receives the gradient of the "
        "block's output whole, plus what comes back through the block.",
        "zh": "读一读各个块两端的那两个方框，或者单元格打印出的范数；两者之间的那个方框代表十个块"
        "合在一起，它的范数不是任何一个块的。想一想残差加法做了什么：每个块的输入都完整地收到"
        "块输出的梯度，再加上从块里面传回来的部分。",
    },
    why={
        "en": "blocks.0: 0.243, against 0.227 for blocks.11. Twelve blocks deep, the gradient "
        "has not faded on its way down: the residual stream carries it from the loss to every "
        "block unchanged, and each block adds what comes back through its attention and MLP, so "
        "the stream's gradient even grows a little towards the input.",
        "zh": "blocks.0：0.243，而 blocks.11 是 0.227。在 12 个块的深度上，梯度往下传时并没有"
        "衰减：残差流把它从损失原样带到每一个块，每个块再加上从自己的注意力和 MLP 传回来的部分，"
        "所以越靠近输入，残差流的梯度反而略大一些。",
    },
    right_answers=(
        "blocks.0",
        "model.blocks.0",
        "model.blocks[0]",
        "blocks.0 · Block",
        "BLOCKS.0",
        "第一个块",
        "第 1 个块",
        "block 0",
        "blocks。0",
        "the first block",
    ),
    wrong_answers=(
        "blocks.11",
        "model.blocks.11",
        "blocks.1–blocks.10",
        "blocks.1",
        "blocks.10",
        "0",
        "head",
        "最后一个块",
        "第十二个块",
        "block 11",
        "the last block",
    ),
)
def _the_first_block_keeps_its_gradient(answer: Any) -> bool:
    # The question itself calls blocks.0 "the first block" and blocks.11 "the last".
    return as_name(answer, _MODULES_OF_12_BLOCKS) == "blocks.0"


@exercise(
    "11.5",
    {
        "en": "After loss.backward(), print the gradient norm of each parameter of "
        "model.blocks[0].attention. One of them is almost exactly 0 (about 1e-9): which? Give "
        'its name as named_parameters() gives it, such as "query.weight".',
        "zh": "loss.backward() 之后，打印 model.blocks[0].attention 每个参数的梯度范数。其中一个"
        "几乎正好是 0（大约 1e-9）：是哪一个？按 named_parameters() 的写法给出它的名字，例如 "
        '"query.weight"。',
    },
    hint={
        "en": "Nothing is broken: this parameter cannot change the loss at all. softmax gives the "
        "same weights when the same number is added to every score of a row. Which parameter "
        "adds, to all the scores of one query, one and the same number?",
        "zh": "模型没有出错：这个参数根本改变不了损失。给一行里的每个得分都加上同一个数，softmax "
        "给出的权重不变。哪个参数给同一个查询的所有得分加上的是同一个数？",
    },
    why={
        "en": "key.bias. It adds b to every key, so every score of query q grows by the same "
        "q · b / √size, and softmax, which a constant added to a whole row does not change, gives "
        "the same weights. The loss does not depend on key.bias: its gradient is 0 in exact "
        "arithmetic, and the 1e-9 is float32 rounding. query.bias does change the loss: it adds "
        "b · k_j, which differs from key to key.",
        "zh": "key.bias。它给每个键都加上 b，于是查询 q 的每个得分都增加同一个 q · b / √size；"
        "给一整行加上同一个常数不会改变 softmax，所以权重不变。损失与 key.bias 无关：精确计算时"
        "它的梯度是 0，打印出的 1e-9 是 float32 的舍入误差。query.bias 则会改变损失：它加上的是 "
        "b · k_j，每个键都不一样。",
    },
    right_answers=(
        "key.bias",
        "KEY.BIAS",
        "attention.key.bias",
        "blocks.0.attention.key.bias",
        "model.blocks[0].attention.key.bias",
        "“key.bias”",
        "key.bias。",
        "key的偏置",
        "key bias",
        "key_bias",
        "key。bias",
    ),
    wrong_answers=(
        "query.bias",
        "key.weight",
        "value.bias",
        "out.bias",
        "key",
        "bias",
        0,
        "key的权重",
        "query bias",
    ),
)
def _the_key_bias_cannot_change_the_loss(answer: Any) -> bool:
    return as_name(answer, _ATTENTION_PARAMETERS) == "key.bias"


@exercise(
    "11.6",
    {
        "en": "A model built like ours, with 6 blocks instead of 4: how many AddBackward0 Nodes "
        "are behind its loss?",
        "zh": "一个和我们的模型一样搭起来、但有 6 个块（而不是 4 个）的模型：它的损失背后有多少个 "
        "AddBackward0 节点？",
    },
    hint={
        "en": "Count the + signs between two tensors that one forward pass runs: in "
        "Block.forward, once per block, and in TinyTransformer.forward. A linear layer adds its "
        "bias inside its AddmmBackward0, not in a node of its own.",
        "zh": "数一数一次前向传播要执行多少次两个张量之间的 +：Block.forward 里的（每个块各执行"
        "一遍），还有 TinyTransformer.forward 里的。线性层的偏置是在它的 AddmmBackward0 里"
        "加上的，不单独占一个节点。",
    },
    why={
        "en": "13: two residual adds per block (x + attention, x + MLP), 2 · 6 = 12, and one in "
        "TinyTransformer.forward, the token embedding plus the position embedding; with 4 "
        "blocks, 9. Nothing else in the model adds two tensors.",
        "zh": "13 个：每个块两个残差加法（x + 注意力，x + MLP），2 × 6 = 12，再加上 "
        "TinyTransformer.forward 里的一个：词元嵌入加位置嵌入；4 个块时是 9 个。模型里别的"
        "地方都没有把两个张量相加。",
    },
    right_answers=(
        13,
        13.0,
        "13",
        "十三",
        "13个",
        torch.tensor(13),
        "共13个",
        "约13",
        "一共十三个",
        "about 13",
    ),
    wrong_answers=(12, 9, 6, 7, 25, "12", "九"),
)
def _two_adds_per_block_and_one_more(answer: Any) -> bool:
    return as_number(answer) == 13


@exercise(
    "11.7",
    {
        "en": "A model built like ours, with 4 blocks and its head tied to its embedding as tied "
        "is in section 10: how many AccumulateGrad Nodes are behind its loss?",
        "zh": "一个和我们的模型一样搭起来的模型，4 个块，head 像第 10 节的 tied 那样与嵌入层绑定："
        "它的损失背后有多少个 AccumulateGrad 节点？",
    },
    hint={
        "en": "An AccumulateGrad belongs to a leaf tensor, one per parameter, however many "
        "operations use it. Our model has 70 parameter tensors; what does tying the head's "
        "weight to the embedding's do to that count?",
        "zh": "AccumulateGrad 属于叶子张量，每个参数一个，不管有多少个操作用到它。我们的模型有 "
        "70 个参数张量；把 head 的权重与嵌入层的权重绑定之后，这个数会怎样？",
    },
    why={
        "en": "69. The head's weight is the embedding's weight, one leaf tensor, so one "
        "AccumulateGrad instead of two: 70 - 1. That Node has two consumers, EmbeddingBackward0 "
        "and the head's product, and the engine adds their two gradients before it writes .grad.",
        "zh": "69 个。head 的权重就是嵌入层的权重，是同一个叶子张量，所以只有一个 AccumulateGrad，"
        "而不是两个：70 - 1。这个节点有两个使用者，EmbeddingBackward0 和 head 的乘法，引擎先把"
        "它们送来的两个梯度相加，再写进 .grad。",
    },
    right_answers=(69, 69.0, "69", "六十九", "69个", "共69个", "一共六十九个", "about 69"),
    wrong_answers=(70, 71, 68, "70", "七十"),
)
def _a_tied_weight_has_one_accumulate_grad(answer: Any) -> bool:
    return as_number(answer) == 69


@exercise(
    "11.8",
    {
        "en": "Our model, make_model(), with its 4 blocks: take the gradient of "
        "model(tokens)[:, 2].sum(), the logits at position 2, with respect to the residual "
        "stream where it starts (the sum of the two embeddings, the input of blocks[0]). At how "
        "many of the 8 positions is that gradient not exactly 0?",
        "zh": "我们的模型 make_model()，4 个块：求 model(tokens)[:, 2].sum()（位置 2 的 logits）"
        "对残差流起点（两个嵌入之和，也就是 blocks[0] 的输入）的梯度。8 个位置中，有几个位置上"
        "这个梯度不正好是 0？",
    },
    hint={
        "en": "Where in the model do positions exchange anything? The LayerNorms, the MLPs and "
        "the head work on each position alone. In the attention, which positions can position 2 "
        "read? (To compute it: a forward pre-hook on model.blocks[0] can call retain_grad() on "
        "its input.)",
        "zh": "模型里哪些地方让各个位置交换信息？LayerNorm、MLP 和 head 都只处理各自的位置。"
        "在注意力里，位置 2 能读到哪些位置？（要算出来：可以在 model.blocks[0] 上挂一个"
        "前向前置钩子，对它的输入调用 retain_grad()。）",
    },
    why={
        "en": "3: positions 0, 1 and 2. The attention is the only place where positions mix, and "
        "the causal mask gives every later position a weight of exactly 0, in every block; so "
        "the logits at position 2 do not depend at all on positions 3 to 7, and their gradient is "
        "exactly 0, not merely small.",
        "zh": "3 个：位置 0、1、2。注意力是各个位置唯一混合的地方，而在每个块里，因果掩码都给后面的"
        "每个位置正好为 0 的权重；所以位置 2 的 logits 与位置 3 到 7 完全无关，它们的梯度正好"
        "是 0，而不只是很小。",
    },
    right_answers=(3, 3.0, "3", "三", "三个", "3个", "共3个", "3 个"),
    wrong_answers=(8, 1, 5, 2, "8", "八", "五个"),
)
def _the_causal_mask_hides_the_later_positions(answer: Any) -> bool:
    return as_number(answer) == 3

"""Check yourself, notebook 08: dependency counting, summed gradients, and the engine's order."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, as_number, exercise


@exercise(
    "08.1",
    {
        "en": "x = torch.tensor(2.0, requires_grad=True); y = x * x + torch.sin(x) * x. Four "
        "shares of the gradient come back to x, one along each edge. Predict: during "
        "y.backward(), how many times does the engine run x's AccumulateGrad node?",
        "zh": "x = torch.tensor(2.0, requires_grad=True)；y = x * x + torch.sin(x) * x。"
        "梯度沿四条边各传回一份给 x。先预测：在 y.backward() 的过程中，引擎会运行 x 的 "
        "AccumulateGrad 节点几次？",
    },
    hint={
        "en": "A node runs when its dependency count reaches zero, that is when the last of the "
        "gradients it waits for has arrived. How many times can a count reach zero?",
        "zh": "一个节点在依赖计数减到零时运行，也就是它等待的最后一个梯度到达的时候。"
        "一个计数能减到零几次？",
    },
    why={
        "en": "Once. The engine counts four edges into x's AccumulateGrad, adds up the shares as "
        "they arrive, and runs the node when the fourth is in: one row of the trace, with the "
        "sum 4.077.",
        "zh": "一次。引擎数出通向 x 的 AccumulateGrad 的边有四条，每到一份就累加起来，"
        "第四份到齐时才运行这个节点：追踪记录里只有一行，收到的是总和 4.077。",
    },
    right_answers=(1, 1.0, "1", "一", "一次", "1次", "1。"),
    wrong_answers=(4, 2, 0, 3, "4", "四次"),
)
def _accumulate_runs_once(answer: Any) -> bool:
    return as_number(answer) == 1


@exercise(
    "08.2",
    {
        "en": "In the cell that traces y again, change y to x * x * x + torch.sin(x) * x and "
        "run it. How many gradients does x's AccumulateGrad wait for now?",
        "zh": "在重新追踪 y 的那个单元格里，把 y 改成 x * x * x + torch.sin(x) * x，"
        "再运行。现在 x 的 AccumulateGrad 要等待多少个梯度？",
    },
    hint={
        "en": "Run the changed cell and read the count it prints. To check it by hand: "
        "x * x * x is (x * x) * x, two multiplications; count every place where x itself "
        "is an input, in both terms.",
        "zh": "运行改过的单元格，读它打印出的个数。也可以手算验证：x * x * x 就是 (x * x) * x，"
        "是两次乘法；数一数 x 本身在两项中一共作为输入出现了几次。",
    },
    why={
        "en": "x is an input five times: twice in x * x, once more in (x * x) * x, and twice in "
        "sin(x) * x (as the input of sin and as a factor). Five edges, so a count of 5; the node "
        "still runs once, last, on the sum 3x² + sin x + x cos x = 12.08.",
        "zh": "x 作为输入出现了五次：x * x 中两次，(x * x) * x 中又一次，sin(x) * x 中两次"
        "（作为 sin 的输入和作为因子）。五条边，所以计数是 5；这个节点仍然只运行一次，"
        "在最后运行，收到的是总和 3x² + sin(x) + x·cos(x) = 12.08。",
    },
    right_answers=(5, 5.0, "5", "五", "5个", "五个。"),
    wrong_answers=(4, 3, 6, 1, "4", "四"),
)
def _edges_into_x_after_the_change(answer: Any) -> bool:
    return as_number(answer) == 5


@exercise(
    "08.3",
    {
        "en": "x = torch.tensor(2.0, requires_grad=True); y = x * x + torch.sin(x) * x. The "
        "naive engine, my_grad(y, (x,), order=as_they_come, runs_when=first_arrival), runs x's "
        "AccumulateGrad before one of the four shares has reached it. Which share does it miss? "
        "(a) 0.9093, sent by sin(x) * x; (b) -0.8323, sent by SinBackward0; (c) one of the two "
        "2s sent by x * x; (d) none, it returns 4.077.",
        "zh": "x = torch.tensor(2.0, requires_grad=True)；y = x * x + torch.sin(x) * x。"
        "朴素的引擎 my_grad(y, (x,), order=as_they_come, runs_when=first_arrival) 在四份梯度"
        "还没全部到达时就运行了 x 的 AccumulateGrad。它漏掉的是哪一份？(a) sin(x) * x 送来的 "
        "0.9093；(b) SinBackward0 送来的 -0.8323；(c) x * x 送来的两个 2 中的一个；"
        "(d) 一份也没漏，它返回 4.077。",
    },
    hint={
        "en": "The naive engine runs the nodes in the order a first gradient reached them. Follow "
        "the add node's two edges: which nodes join the queue, and in which order, before x's "
        "node comes up? Count the edges each share travels from the add node to x.",
        "zh": "朴素的引擎按节点收到第一个梯度的先后顺序运行它们。顺着加法节点的两条边往下走："
        "在轮到 x 的节点之前，哪些节点依次进入了队列？"
        "数一数每一份梯度从加法节点到 x 要经过几条边。",
    },
    why={
        "en": "(b). The add node runs first and reaches x * x, then sin(x) * x. x * x sends 2 and "
        "2 to x, whose node joins the queue; sin(x) * x sends 0.9093 to x and 2 to SinBackward0, "
        "which joins the queue behind x's node. So x's node runs on 2 + 2 + 0.9093 = 4.909, and "
        "the share through sin, two edges from sin(x) * x, arrives after it has run.",
        "zh": "(b)。加法节点先运行，依次把梯度送到 x * x 和 sin(x) * x。x * x 给 x 送去 2 和 2，"
        "x 的节点进入队列；sin(x) * x 给 x 送去 0.9093，给 SinBackward0 送去 2，SinBackward0 "
        "排在 x 的节点后面。于是 x 的节点按 2 + 2 + 0.9093 = 4.909 运行，而经过 sin 的那一份"
        "要从 sin(x) * x 再走两条边，到达时 x 的节点已经运行过了。",
    },
    right_answers=("b", "B", "(b)", "b。", "选 b"),
    wrong_answers=("a", "c", "d", "ab", 4.909),
)
def _share_the_naive_engine_misses(answer: Any) -> bool:
    return as_choice(answer, "abcd") == "b"


@exercise(
    "08.4",
    {
        "en": "x = torch.tensor(2.0, requires_grad=True); h = torch.sin(x); y = h * h + h. "
        "During y.backward(), how many gradients must arrive at SinBackward0 before the engine "
        "runs it?",
        "zh": "x = torch.tensor(2.0, requires_grad=True)；h = torch.sin(x)；y = h * h + h。"
        "在 y.backward() 的过程中，引擎运行 SinBackward0 之前，必须有多少个梯度到达它？",
    },
    hint={
        "en": "Every use of h as an input of an operation is one edge into SinBackward0, and "
        "each edge brings one gradient. Count the uses of h in y = h * h + h, slot by slot.",
        "zh": "h 每作为一次操作的输入，就有一条边通向 SinBackward0，每条边带来一个梯度。"
        "按输入位置逐个数一数：h 在 y = h * h + h 里被用了几次？",
    },
    why={
        "en": "h feeds three edges: both inputs of h * h (slots 0 and 1 of MulBackward0) and one "
        "input of the addition. SinBackward0's dependency count is 3; it runs once, on the sum "
        "of the three.",
        "zh": "h 连出三条边：h * h 的两个输入（MulBackward0 的位置 0 和位置 1），以及加法的一个"
        "输入。SinBackward0 的依赖计数是 3；它只运行一次，处理的是这三个梯度之和。",
    },
    right_answers=(3, 3.0, "3", "三", "3个", "三个。"),
    wrong_answers=(1, 2, 4, "2", "两", "两个"),
)
def _edges_into_sin(answer: Any) -> bool:
    return as_number(answer) == 3


@exercise(
    "08.5",
    {
        "en": "h = torch.tensor(3.0, requires_grad=True); y = h * h + h; y.backward(). The "
        "engine runs h's AccumulateGrad node once. What gradient does it receive (and add to "
        "h.grad)?",
        "zh": "h = torch.tensor(3.0, requires_grad=True)；y = h * h + h；y.backward()。"
        "引擎只运行一次 h 的 AccumulateGrad 节点。它收到的梯度（也就是加到 h.grad 上的梯度）"
        "是多少？",
    },
    hint={
        "en": "Each use of h sends its own gradient back: each slot of h * h gets the other "
        "factor, and the addition passes its incoming gradient on unchanged. The engine adds up "
        "what arrives before it runs the node.",
        "zh": "h 的每一次使用都各自传回一个梯度：h * h 的每个输入位置得到另一个因子，加法则把"
        "传入的梯度原样传下去。引擎在运行节点之前，先把到达的梯度加起来。",
    },
    why={
        "en": "Three gradients arrive: 3 and 3 from the two slots of h * h (each slot gets the "
        "other factor), and 1 from the addition. The engine sums them before running the node: "
        "3 + 3 + 1 = 7, which is dy/dh = 2h + 1.",
        "zh": "到达的梯度有三个：h * h 的两个位置各送来 3（每个位置得到另一个因子），加法送来 1。"
        "引擎在运行节点之前把它们相加：3 + 3 + 1 = 7，正是 dy/dh = 2h + 1。",
    },
    right_answers=(7, 7.0, "7", torch.tensor(7.0), "七", "7。"),
    wrong_answers=(6, 3, 1, 4, "6", "六"),
)
def _summed_gradient(answer: Any) -> bool:
    return as_number(answer) == 7.0


@exercise(
    "08.6",
    {
        "en": "x = torch.tensor(2.0, requires_grad=True); p = x * 2; q = x * 3; y = p + q. "
        "After AddBackward0, the nodes of p and of q are both ready. Which one does PyTorch's "
        "engine run first: 'p' or 'q'?",
        "zh": "x = torch.tensor(2.0, requires_grad=True)；p = x * 2；q = x * 3；y = p + q。"
        "AddBackward0 运行之后，p 的节点和 q 的节点都已就绪。PyTorch 的引擎先运行哪一个："
        "'p' 还是 'q'？",
    },
    hint={
        "en": "Notebook 08 showed how the engine chooses among ready nodes: by each node's "
        "sequence number, given when the node is created in the forward pass. Which of the two "
        "was created later, and does the engine take the highest number or the lowest?",
        "zh": "笔记本 08 讲过引擎怎样在就绪的节点中挑选：看每个节点的序列号，这个序列号在前向传播"
        "创建节点时分配。两者中哪一个创建得更晚？引擎取序列号最大的，还是最小的？",
    },
    why={
        "en": "Among ready nodes the engine picks the one with the highest sequence number, that "
        "is the one created last in the forward pass: q's MulBackward0. (AccumulateGrad nodes "
        "have the highest number of all, so a leaf's gradient is stored as soon as it is "
        "complete.)",
        "zh": "在就绪的节点中，引擎挑序列号最大的那个，也就是前向传播中最后创建的节点：q 的 "
        "MulBackward0。（AccumulateGrad 节点的序列号比其他节点都大，所以叶子张量的梯度一凑齐"
        "就会被存下来。）",
    },
    right_answers=("q", "Q", " q ", "“q”", "q。", "「q」"),
    wrong_answers=("p", "P", "both", 1, "pq", torch.tensor(1)),
)
def _most_recent_first(answer: Any) -> bool:
    return as_choice(answer, "pq") == "q"

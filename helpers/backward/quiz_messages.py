"""Every text of `helpers.backward.quiz`, in each language: its questions, verdicts and notes.

The names of Nodes stay as PyTorch writes them (``MulBackward0``), and ``grad_out`` is the
incoming gradient in both languages, as the lessons write it.
"""

from __future__ import annotations

from helpers.language import Catalogue

# The local derivative each kind of Node needs, named and never valued: a question says what to
# compute, the learner computes it. A Node not listed here gets "derivative" with its name.
_DERIVATIVES = {
    "derivative MulBackward0": {"en": "the other factor", "zh": "另一个因子"},
    "derivative MulBackward1": {"en": "the constant factor", "zh": "那个常数因子"},
    "derivative AddBackward0": {
        "en": "the derivative of a sum with respect to each term",
        "zh": "和对每一项的导数",
    },
    "derivative AddBackward1": {
        "en": "the derivative of a sum with respect to the tensor added",
        "zh": "和对所加张量的导数",
    },
    "derivative SubBackward0": {
        "en": "the derivative of a - b with respect to a and to b",
        "zh": "a - b 对 a 和对 b 的导数",
    },
    "derivative SubBackward1": {
        "en": "the derivative of a - c with respect to a",
        "zh": "a - c 对 a 的导数",
    },
    "derivative NegBackward0": {"en": "the derivative of -x", "zh": "-x 的导数"},
    "derivative DivBackward0": {
        "en": "the derivative of a / b with respect to a and to b",
        "zh": "a / b 对 a 和对 b 的导数",
    },
    "derivative ReluBackward0": {
        "en": "the derivative of relu at its input",
        "zh": "relu 在其输入处的导数",
    },
    "derivative SinBackward0": {
        "en": "the derivative of sin at its input, cos(input)",
        "zh": "sin 在其输入处的导数 cos(input)",
    },
    "derivative CosBackward0": {
        "en": "the derivative of cos at its input, -sin(input)",
        "zh": "cos 在其输入处的导数 -sin(input)",
    },
    "derivative ExpBackward0": {
        "en": "the derivative of exp at its input, exp(input)",
        "zh": "exp 在其输入处的导数 exp(input)",
    },
    "derivative LogBackward0": {
        "en": "the derivative of log at its input, 1 / input",
        "zh": "log 在其输入处的导数 1 / input",
    },
    "derivative TanhBackward0": {
        "en": "the derivative of tanh at its input, 1 - tanh(input)²",
        "zh": "tanh 在其输入处的导数 1 - tanh(input)²",
    },
    "derivative SigmoidBackward0": {
        "en": "the derivative of sigmoid at its input, σ(input)·(1 - σ(input))",
        "zh": "sigmoid 在其输入处的导数 σ(input)·(1 - σ(input))",
    },
    "derivative PowBackward0": {
        "en": "the derivative of input^n, n·input^(n-1)",
        "zh": "input^n 的导数 n·input^(n-1)",
    },
    "derivative SumBackward0": {
        "en": "the derivative of a sum with respect to each number summed",
        "zh": "和对每个被加数的导数",
    },
    "derivative MeanBackward0": {
        "en": "the derivative of a mean with respect to each of its n numbers",
        "zh": "平均值对其 n 个数中每一个的导数",
    },
}

QUIZ_MESSAGES = Catalogue(
    "helpers.backward.quiz",
    {
        **_DERIVATIVES,
        "derivative": {
            "en": "the local derivative of {node} with respect to each input",
            "zh": "{node} 对每个输入的局部导数",
        },
        # --- the questions --------------------------------------------------------------------
        "first question": {
            "en": "Step {number} of {total}: which Node does the engine run first?",
            "zh": "第 {number} 步（共 {total} 步）：引擎最先运行哪个节点？",
        },
        "next question": {
            "en": "Step {number} of {total}: which Node does the engine run next?",
            "zh": "第 {number} 步（共 {total} 步）：引擎接下来运行哪个节点？",
        },
        "gradient question": {
            "en": (
                "Step {number} of {total}: {node} receives grad_out {incoming}. What does it send "
                "to {targets}? You need {derivative}."
            ),
            "zh": (
                "第 {number} 步（共 {total} 步）：{node} 收到的梯度 grad_out 是 {incoming}。"
                "它送给 {targets} 的梯度是多少？要用到：{derivative}。"
            ),
        },
        "gradients question": {
            "en": (
                "Step {number} of {total}: {node} receives grad_out {incoming}. What does it send "
                "to {targets}? One gradient for each, in that order; you need {derivative}."
            ),
            "zh": (
                "第 {number} 步（共 {total} 步）：{node} 收到的梯度 grad_out 是 {incoming}。"
                "它送给 {targets} 的梯度各是多少？按这个顺序，每个一个梯度；要用到：{derivative}。"
            ),
        },
        "changed by hook": {
            "en": "{received} (a hook changed it: {arrived} was sent)",
            "zh": "{received}（钩子改过它：送来的是 {arrived}）",
        },
        "and": {"en": " and ", "zh": " 和 "},
        "list": {"en": ", ", "zh": "、"},
        # Two Nodes of one type read apart by the tensors they made: MulBackward0 (square).
        "node of tensor": {"en": "{node} ({tensor})", "zh": "{node}（{tensor}）"},
        "score": {
            "en": "{right} of {asked} right at the first try",
            "zh": "{asked} 题中第一次就答对 {right} 题",
        },
        "score line": {"en": "Score: {score}.", "zh": "得分：{score}。"},
        "over": {
            "en": "The backward pass is over. {score} quiz.restart() plays it again.",
            "zh": "反向传播已经结束。{score}quiz.restart() 从头再来。",
        },
        # --- which Node runs next: the verdicts -----------------------------------------------
        "right first": {
            "en": "Right: {node} runs first: the backward pass starts at the Node that made the "
            "output.",
            "zh": "对：最先运行的是 {node}：反向传播从产生输出的那个节点开始。",
        },
        "right next": {
            "en": "Right: {node} runs next: every gradient it waits for has arrived ({needed}).",
            "zh": "对：接下来运行的是 {node}：它等待的梯度都已到达（{needed} 个）。",
        },
        "not in graph": {
            "en": "Not quite: {node} is not in this graph: the engine runs only the Nodes it "
            "reaches from the output.",
            "zh": "不对：{node} 不在这张计算图里：引擎只运行从输出能走到的节点。",
        },
        "never runs": {
            "en": "Not quite: {node} does not run in this backward pass.",
            "zh": "不对：{node} 在这次反向传播中不会运行。",
        },
        "already ran": {
            "en": "Not quite: {node} already ran, at step {number}: a Node runs once all its "
            "gradients have arrived, and then it is done.",
            "zh": "不对：{node} 已经在第 {number} 步运行过了：节点在它的梯度全部到达后运行一次，"
            "之后就结束了。",
        },
        "waits": {
            "en": "Not quite: {node} is not ready: it still waits for a gradient from {waiting} "
            "({arrived} of {needed} arrived).",
            "zh": "不对：{node} 还没有就绪：它还在等 {waiting} 送来的梯度"
            "（{needed} 个中已到达 {arrived} 个）。",
        },
        "gradients from": {
            "en": "{node} ({count} gradients)",
            "zh": "{node}（{count} 个梯度）",
        },
        "ready too": {
            "en": "Not quite: {node} is ready too, but another ready Node runs first: of the "
            "ready Nodes the engine takes a leaf's AccumulateGrad first, then the Node made "
            "last in the forward pass.",
            "zh": "不对：{node} 也已就绪，但另一个就绪的节点先运行：在就绪的节点中，引擎先取叶子"
            "节点的 AccumulateGrad，再取前向传播中最后创建的节点。",
        },
        "unknown name": {
            "en": "I cannot read {answer} as a Node of this graph: answer with a Node's name "
            "({examples}), the name of a leaf or of a tensor it made, a box of the picture, or "
            "the Node itself.",
            "zh": "无法把 {answer} 读成这张图里的节点：请写节点的名字（{examples}）、叶子张量或它"
            "算出的张量的名字、图中的方框，或者直接给出节点本身。",
        },
        "several called": {
            "en": "Several Nodes are called {answer}: name the one you mean by its leaf or by "
            "the tensor it made ({examples}), or give the Node itself.",
            "zh": "有好几个节点都叫 {answer}：请用它的叶子张量或它算出的张量来指明"
            "（{examples}），或者直接给出节点本身。",
        },
        # --- what a Node sends back: the verdicts ---------------------------------------------
        "right gradient": {"en": "Right: {parts}.", "zh": "对：{parts}。"},
        "wrong gradient": {"en": "Not quite: {parts}.", "zh": "不对：{parts}。"},
        "part right": {
            "en": "{node} gets {expected} ({reason})",
            "zh": "{node} 得到 {expected}（{reason}）",
        },
        "part wrong": {
            "en": "{node} gets {expected}, not {yours} ({reason})",
            "zh": "{node} 得到的是 {expected}，不是 {yours}（{reason}）",
        },
        "parts between": {"en": "; ", "zh": "；"},
        "chain": {
            "en": "grad_out {incoming} × {derivative} {local} = {sent}",
            "zh": "grad_out {incoming} × {derivative} {local} = {sent}",
        },
        "chain without local": {
            "en": "grad_out {incoming} and {derivative} give {sent}",
            "zh": "由 grad_out {incoming} 和{derivative}得到 {sent}",
        },
        "cannot read numbers": {
            "en": "I cannot read {answer} as numbers: write the {count} numbers {node} sends to "
            "{targets}, in that order, such as {example}.",
            "zh": "无法把 {answer} 读成数字：请按顺序写出 {node} 送给 {targets} 的 {count} 个数，"
            "例如 {example}。",
        },
        "wrong count": {
            "en": "{node} sends {count} numbers to {targets}, and I read {written} in your "
            "answer: write them in that order, such as {example}.",
            "zh": "{node} 送给 {targets} 的一共是 {count} 个数，你的答案里读到 {written} 个："
            "请按这个顺序写，例如 {example}。",
        },
        # --- a question answered by the wrong method, a step shown ----------------------------
        "asks gradient": {
            "en": "The question now is what {node} sends back: answer it with "
            "quiz.answer_gradient(...), or see it with quiz.show().",
            "zh": "现在的问题是 {node} 送回什么梯度：用 quiz.answer_gradient(...) 回答，"
            "或者用 quiz.show() 直接看。",
        },
        "asks next": {
            "en": "The question now is which Node runs next: answer it with "
            "quiz.answer_next(...), or see it with quiz.show().",
            "zh": "现在的问题是接下来运行哪个节点：用 quiz.answer_next(...) 回答，"
            "或者用 quiz.show() 直接看。",
        },
        "shown": {
            "en": "Step {number} of {total}: {node} runs. It receives {incoming} and sends {sent}.",
            "zh": "第 {number} 步（共 {total} 步）：运行 {node}。它收到 {incoming}，送出 {sent}。",
        },
        "shown accumulate": {
            "en": "Step {number} of {total}: {node} runs. It receives {incoming} and adds it to "
            "{target}.",
            "zh": "第 {number} 步（共 {total} 步）：运行 {node}。它收到 {incoming}，"
            "把它加到 {target} 上。",
        },
        "sent to": {"en": "{value} to {node}", "zh": "{value} 给 {node}"},
        "nothing on": {"en": "nothing on", "zh": "不再往下送"},
        "leaf grad": {"en": "the leaf's .grad", "zh": "叶子张量的 .grad"},
    },
)

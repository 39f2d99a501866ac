"""Check yourself, notebook 08: dependency counting, summed gradients, and the engine's order."""

from __future__ import annotations

from typing import Any

import torch

from helpers.exercises import as_choice, as_number, exercise


@exercise(
    "08.1",
    "x = torch.tensor(2.0, requires_grad=True); h = torch.sin(x); y = h * h + h. During "
    "y.backward(), how many gradients must arrive at SinBackward0 before the engine runs it?",
    hint="Every use of h as an input of an operation is one edge into SinBackward0, and each "
    "edge brings one gradient. Count the uses of h in y = h * h + h, slot by slot.",
    why="h feeds three edges: both inputs of h * h (slots 0 and 1 of MulBackward0) and one input "
    "of the addition. SinBackward0's dependency count is 3; it runs once, on the sum of the three.",
    right_answers=(3, 3.0, "3"),
    wrong_answers=(1, 2, 4, "2"),
)
def _edges_into_sin(answer: Any) -> bool:
    return as_number(answer) == 3


@exercise(
    "08.2",
    "h = torch.tensor(3.0, requires_grad=True); y = h * h + h; y.backward(). The engine runs h's "
    "AccumulateGrad node once. What gradient does it receive (and add to h.grad)?",
    hint="Each use of h sends its own gradient back: each slot of h * h gets the other factor, "
    "and the addition passes its incoming gradient on unchanged. The engine adds up what "
    "arrives before it runs the node.",
    why="Three gradients arrive: 3 and 3 from the two slots of h * h (each slot gets the other "
    "factor), and 1 from the addition. The engine sums them before running the node: "
    "3 + 3 + 1 = 7, which is dy/dh = 2h + 1.",
    right_answers=(7, 7.0, "7", torch.tensor(7.0)),
    wrong_answers=(6, 3, 1, 4, "6"),
)
def _summed_gradient(answer: Any) -> bool:
    return as_number(answer) == 7.0


@exercise(
    "08.3",
    "x = torch.tensor(2.0, requires_grad=True); p = x * 2; q = x * 3; y = p + q. After "
    "AddBackward0, the nodes of p and of q are both ready. Which one does PyTorch's engine run "
    "first: 'p' or 'q'?",
    hint="Notebook 08 showed how the engine chooses among ready nodes: by each node's sequence "
    "number, given when the node is created in the forward pass. Which of the two was created "
    "later, and does the engine take the highest number or the lowest?",
    why="Among ready nodes the engine picks the one with the highest sequence number, that is the "
    "one created last in the forward pass: q's MulBackward0. (AccumulateGrad nodes have the "
    "highest number of all, so a leaf's gradient is stored as soon as it is complete.)",
    right_answers=("q", "Q", " q "),
    wrong_answers=("p", "P", "both", 1, "pq", torch.tensor(1)),
)
def _most_recent_first(answer: Any) -> bool:
    return as_choice(answer, "pq") == "q"

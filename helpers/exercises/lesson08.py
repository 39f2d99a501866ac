"""Check yourself, notebook 08: dependency counting, summed gradients, and the engine's order."""

from __future__ import annotations

from typing import Any

from helpers.exercises import as_number, exercise


@exercise(
    "08.1",
    "x = torch.tensor(2.0, requires_grad=True); h = torch.sin(x); y = h * h + h. During "
    "y.backward(), how many gradients must arrive at SinBackward0 before the engine runs it?",
    why="h feeds three edges: both inputs of h * h (slots 0 and 1 of MulBackward0) and one input "
    "of the addition. SinBackward0's dependency count is 3; it runs once, on the sum of the three.",
    right_answers=(3, 3.0),
    wrong_answers=(1, 2, 4),
)
def _edges_into_sin(answer: Any) -> bool:
    return as_number(answer) == 3


@exercise(
    "08.2",
    "h = torch.tensor(3.0, requires_grad=True); y = h * h + h; y.backward(). The engine runs h's "
    "AccumulateGrad node once. What gradient does it receive (and add to h.grad)?",
    why="Three gradients arrive: 3 and 3 from the two slots of h * h (each slot gets the other "
    "factor), and 1 from the addition. The engine sums them before running the node: "
    "3 + 3 + 1 = 7, which is dy/dh = 2h + 1.",
    right_answers=(7, 7.0),
    wrong_answers=(6, 3, 1, 4),
)
def _summed_gradient(answer: Any) -> bool:
    return as_number(answer) == 7.0


@exercise(
    "08.3",
    "x = torch.tensor(2.0, requires_grad=True); p = x * 2; q = x * 3; y = p + q. After "
    "AddBackward0, the nodes of p and of q are both ready. Which one does PyTorch's engine run "
    "first: 'p' or 'q'?",
    why="Among ready nodes the engine picks the one with the highest sequence number, that is the "
    "one created last in the forward pass: q's MulBackward0. (AccumulateGrad nodes have the "
    "highest number of all, so a leaf's gradient is stored as soon as it is complete.)",
    right_answers=("q", "Q", " q "),
    wrong_answers=("p", "P", "both", 1),
)
def _most_recent_first(answer: Any) -> bool:
    if not isinstance(answer, str):
        raise TypeError("expected the letter 'p' or 'q'")
    return answer.strip().lower() == "q"

"""Check-yourself questions of notebook 03: walking grad_fn by hand."""

from __future__ import annotations

from typing import Any

import numpy as np

from helpers.exercises import as_number, exercise


@exercise(
    "03.1",
    "Build y = x * w, x first this time (x = 3.0 without grad, w = 2.0 with). For which index i "
    "is y.grad_fn.next_functions[i][0] None?",
    hint="next_functions has one pair per input of the operation, in the order the inputs were "
    "given to it. An input that does not require grad has no node. Where is x in x * w?",
    why="next_functions follows the order of the operation's inputs: slot 0 is x, which does not "
    "require grad and so has no node (None); slot 1 holds w's AccumulateGrad.",
    right_answers=(0, "0", np.int64(0), 0.0),
    wrong_answers=(1, 2, False, None, "x"),
)
def _slot_of_the_input_without_grad(answer: Any) -> bool:
    return as_number(answer) == 0


@exercise(
    "03.2",
    "w = torch.tensor(3.0, requires_grad=True). You run (w * w).backward(), then, without "
    "resetting w.grad, (w * w * w).backward(). What is w.grad now?",
    hint="Work out each pass on its own: d(w²)/dw and d(w³)/dw at w = 3. Then ask what "
    "AccumulateGrad does with a gradient when w.grad already holds one.",
    why="d(w²)/dw = 2w = 6 and d(w³)/dw = 3w² = 27. AccumulateGrad adds every contribution into "
    "w.grad, so it holds 6 + 27 = 33. Set w.grad to None (or zero it) between passes to get one.",
    right_answers=(33, 33.0, "33"),
    wrong_answers=(27, 6, 9, 162, "27"),
)
def _accumulated_over_two_passes(answer: Any) -> bool:
    return as_number(answer) == 33.0


@exercise(
    "03.3",
    "t = torch.tensor([2.0, 5.0], requires_grad=True); p, q = torch.unbind(t); r = q * 10. "
    "What is r.grad_fn.next_functions[0][1], the second element of the first pair?",
    hint="The second element of a pair says which output of the node the edge comes from. "
    "unbind has one output per element of t, numbered from 0: which of them is q?",
    why="unbind has two outputs, p (output 0) and q (output 1). r is computed from q, so its edge "
    "points at output 1 of UnbindBackward0: the gradient sent along it is the gradient of q.",
    right_answers=(1, "1", np.int64(1)),
    wrong_answers=(0, 10, 2, True, "q"),
)
def _output_index_of_q(answer: Any) -> bool:
    return as_number(answer) == 1

"""What the tests of the check-yourself answers share: a verdict asserted both ways, and the
two-layer network of notebooks 05 to 07 and 10 with its data, its hand-written ReLU and its
update step.

Each ``test_exercise_answers*.py`` computes an exercise's answer from PyTorch itself and asserts
that `check` accepts it (and rejects a near miss), so that a wrong answer in a lesson fails a
test.
"""

from __future__ import annotations

import torch

from helpers.exercises import check

N, D_IN, H, D_OUT = 64, 1000, 100, 10  # the network of notebooks 05 to 07 and 10


def accepted(exercise_id: str, computed: object) -> None:
    verdict = check(exercise_id, computed)
    assert verdict.correct, f"{exercise_id}: PyTorch gives {computed!r}, which the check rejects"


def rejected(exercise_id: str, computed: object) -> None:
    verdict = check(exercise_id, computed)
    assert not verdict.correct, f"{exercise_id}: the check accepts {computed!r}, a wrong answer"


def make_data(seed: int = 0) -> tuple[torch.Tensor, ...]:
    """The notebooks' make_data(): inputs, targets and starting weights, on the CPU."""
    generator = torch.Generator().manual_seed(seed)
    x = torch.randn(N, D_IN, generator=generator)
    y = torch.randn(N, D_OUT, generator=generator)
    w1 = torch.randn(D_IN, H, generator=generator)
    w2 = torch.randn(H, D_OUT, generator=generator)
    return x, y, w1, w2


class MyReLU(torch.autograd.Function):
    """The ReLU notebooks 04 and 06 write (and 08 walks): it saves its input, and sends back the
    incoming gradient with the entries of negative inputs set to 0."""

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[x < 0] = 0
        return grad_input


def step_down(learning_rate: float, *weights: torch.Tensor) -> None:
    """The notebooks' update: each weight moves against its gradient, outside the graph, and the
    gradient is emptied for the next backward()."""
    with torch.no_grad():
        for weight in weights:
            weight -= learning_rate * weight.grad
            weight.grad.zero_()

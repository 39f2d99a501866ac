"""What a trace records: each run of a node (`Step`), each tensor a picture shows (`TracedValue`).

Plain data: `helpers.backward.tracing` makes it, the trace's table and pictures read it.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass

import torch
from torch.autograd.graph import Node

from helpers.backward.gradients import Gradients, same_bits
from helpers.graph.model import version_of


@dataclass(frozen=True, eq=False)
class Step:
    """One node the engine ran: what came in, and what it sent to each of its ``next_functions``.

    ``grads_in[i]`` is the gradient with respect to the node's i-th output (None if none arrived),
    as the node received it, after any hook on the way in. ``grads_arrived`` is what the nodes
    before it sent, summed, before those hooks; None where the trace could not see all of it (a
    node run inside a nested backward pass). ``grads_out[i]`` is what it sent to
    ``node.next_functions[i]`` (None where that entry is None: an input that does not require
    grad). ``AccumulateGrad``, the node of a leaf, sends nothing on: it adds its gradient to the
    leaf's ``.grad``. Each gradient is kept as it was at that moment of the pass: a detached copy
    when it has at most `KEPT_WHOLE` numbers (or the trace was asked to keep_gradients), else a
    `GradientSummary` (shape, dtype, norms, first values and a hash of its bits).
    """

    node: Node
    name: str
    grads_in: Gradients
    grads_out: Gradients
    grads_arrived: Gradients | None = None

    @property
    def sent(self) -> list[tuple[Node, torch.Tensor | None]]:
        """``(next node, gradient sent to it)`` for each entry of ``next_functions`` with a node."""
        nexts = [next_node for next_node, _ in self.node.next_functions]
        return [(n, g) for n, g in zip(nexts, self.grads_out, strict=True) if n is not None]

    @property
    def changed_by_hook(self) -> bool:
        """True when a hook changed the gradients on their way in: received differs from sent."""
        return self.grads_arrived is not None and not same_bits(self.grads_arrived, self.grads_in)


@dataclass(frozen=True, eq=False)
class TracedValue:
    """A tensor's value as a backward pass saw it, in the words of a picture: ``value`` (its
    numbers when it is small, else its shape and dtype) and ``shape`` (shape and dtype, for
    pictures drawn with ``show_values=False``). ``changed`` tells whether the tensor has been
    changed in place since (its version counter moved: an optimiser step, ``y.mul_(2)``)."""

    tensor: weakref.ref  # weak: a trace does not keep your tensors alive
    version: int | None  # None: a tensor without a version counter (made in inference mode)
    value: str
    shape: str

    @property
    def changed(self) -> bool:
        tensor = self.tensor()
        return (
            tensor is not None and self.version is not None and version_of(tensor) != self.version
        )

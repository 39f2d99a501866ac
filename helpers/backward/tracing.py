"""``trace(output)``: run ``output.backward()`` and record each node PyTorch's engine ran, in order.

The record is a `Trace`, a sequence of `Step`: in a notebook it shows as a table
(`helpers.backward.table`), and ``helpers.backward_view`` draws it as pictures. Its gradients are
kept as `helpers.backward.gradients` keeps them (whole when small, as a `GradientSummary` when
large), so that a trace costs about the memory of the pass it records.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterable, Iterator, Mapping, Sequence

import torch
from torch.autograd.graph import Node

from helpers.backward import table
from helpers.backward.engine import consumers_of_each_node, gradient_edge_of, short_name
from helpers.backward.quiz import Quiz
from helpers.backward.records import Step, TracedValue
from helpers.backward.refusals import check_before_tracing, friendly_errors, starting_gradient
from helpers.backward.watching import watching_the_engine
from helpers.graph import resolve_names
from helpers.graph.model import describe, version_of
from helpers.graph.transforms import refuse_inside_transforms


def trace(
    output: torch.Tensor,
    grad_output: torch.Tensor | None = None,
    *,
    retain_graph: bool = False,
    keep_gradients: bool = False,
) -> Trace:
    """Run ``output.backward(grad_output)`` and record every node PyTorch's engine ran, in order.

    Afterwards the leaves' ``.grad`` are exactly as after ``output.backward(grad_output)``: it is
    that call, hooks and all. A node that runs twice (a leaf used both inside a reentrant
    checkpoint and outside it) is a step each time. Where a hook changed the gradient on its way
    into a node (a tensor's ``register_hook``, a Node's ``register_prehook``), the step shows what
    was sent and what the node received (``grads_arrived``, ``changed_by_hook``); a change made
    by a Node's post-hook shows only in what the node sent. Nodes created during the pass itself
    (the part of the graph a reentrant checkpoint computes again) are not recorded.

    ``grad_output``, of output's shape, is the gradient to start from when output is not a single
    real number. ``retain_graph=True`` keeps the graph for another backward pass (or for ``grad``).
    A graph of more than `NODES_SAFE_TO_SEE` Nodes is refused (ValueError), before any hook, and
    so is a call inside a ``torch.func`` transform, where PyTorch refuses backward()
    (`InsideTransform`, which says what to call instead).

    What is kept, so that a trace costs about what the pass costs: each gradient of at most
    `KEPT_WHOLE` numbers whole (a copy), a larger one as a `GradientSummary` (shape, dtype, norms,
    first values, a hash of its bits), or every gradient whole with ``keep_gradients=True``; and,
    for the pictures, the values of the output, the leaves and your tensors in the graph as text
    (numbers when small, else shape and dtype) with their version counters, so that a picture
    drawn later shows them as the pass saw them. Only this pass is recorded: another thread's
    backward pass through the same nodes, running meanwhile, is neither recorded nor disturbed.
    """
    # Fail early, with a clear message, before any hook is in place.
    refuse_inside_transforms("trace", [output, grad_output], runs_backward=True)
    seed = starting_gradient(output, grad_output)
    root = gradient_edge_of(output)
    consumers = consumers_of_each_node(root.node)
    check_before_tracing(consumers, retain_graph)
    values = _values_during_the_pass(output, consumers)
    watching = watching_the_engine(
        consumers, root.node, keep_gradients, arrivals=(root, seed, consumers)
    )
    with watching as runs, friendly_errors():
        output.backward(grad_output, retain_graph=retain_graph)
    steps = [
        Step(run.node, short_name(run.node), run.received, run.sent, run.arrived) for run in runs
    ]
    return Trace(output, steps, values)


class Trace(Sequence[Step]):
    """The steps of one backward pass, in the order PyTorch's engine ran them.

    Index it, loop over it, take its ``len()``; in a notebook it shows as a table, and
    ``helpers.backward_view`` draws it as pictures. ``output`` is where the backward pass started.
    The trace also remembers the values of the tensors its pictures show (the output, the leaves,
    your variables computed in the graph) as they were during the pass: see `as_traced`.
    """

    def __init__(
        self,
        output: torch.Tensor,
        steps: Iterable[Step],
        values: Mapping[int, TracedValue] | None = None,
    ) -> None:
        self.output = output
        self._steps = tuple(steps)
        self._values = dict(values or {})  # id() of each tensor -> its value during the pass

    def as_traced(self, tensor: torch.Tensor) -> TracedValue | None:
        """``tensor``'s value as the backward pass saw it, or None for a tensor the trace did not
        record (one made after it, or not in the graph)."""
        seen = self._values.get(id(tensor))
        # The same id, and the weak reference still leads to it: the very tensor recorded.
        return seen if seen is not None and seen.tensor() is tensor else None

    def __getitem__(self, index):
        return self._steps[index]

    def __len__(self) -> int:
        return len(self._steps)

    def __iter__(self) -> Iterator[Step]:
        return iter(self._steps)

    def quiz(self, names: table.Names = None) -> Quiz:
        """This backward pass as questions, step by step: which Node runs next, and what it
        sends back (`helpers.backward.quiz`). ``names`` as in `helpers.graph.draw`."""
        return Quiz(self, names)

    # A table, drawn from the steps alone (helpers.backward.table): the record needs no view.
    def __repr__(self) -> str:
        return table.as_text(self)

    def _repr_html_(self) -> str:
        return table.as_html(self)


def _values_during_the_pass(
    output: torch.Tensor, consumers: Mapping[Node, list[Node]]
) -> dict[int, TracedValue]:
    """The values of the tensors a picture of the trace shows: the output, every leaf of the
    graph, and the caller's tensors computed in it. Only their text is kept: a small tensor's
    numbers, a large one's shape and dtype."""
    leaves = [getattr(node, "variable", None) for node in consumers]
    computed = [tensor for _, tensor in resolve_names() if tensor.grad_fn in consumers]
    values = {}
    for tensor in [output, *leaves, *computed]:
        if isinstance(tensor, torch.Tensor) and id(tensor) not in values:
            text, shape = describe(tensor), describe(tensor, show_values=False)
            values[id(tensor)] = TracedValue(weakref.ref(tensor), version_of(tensor), text, shape)
    return values

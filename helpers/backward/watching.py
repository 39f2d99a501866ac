"""Hooks that watch PyTorch's engine run a backward pass: what each node received and sent.

``watching_the_engine(nodes, root)`` puts a pre-hook and a hook on every node and yields the list of
runs (`WatchedRun`), which fills in the engine's order as the pass goes: `trace` makes its steps of
them, and `grad` checks its by-hand answer against what they saw. Each gradient is kept as
`helpers.backward.gradients` keeps it. Given the graph (``arrivals``), the hooks also sum what
arrives for each node before any hook of yours runs, as the engine sums it (`_Arrivals`), so that a
trace can show where a hook changed a gradient. Another thread's backward pass through the same
nodes runs these hooks too: they tell it apart, and leave it alone.
"""

from __future__ import annotations

import threading
import weakref
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import torch
from torch.autograd.graph import GradientEdge, Node

from helpers.backward.engine import fit_to_slot
from helpers.backward.gradients import (
    Gradients,
    GradientSummary,
    kept_gradient,
    kept_whole,
    summary_of,
)
from helpers.graph.model import version_of


@dataclass(eq=False)
class WatchedRun:
    """One run of a node by PyTorch's engine, as hooks on the node saw it. Its gradients are
    kept as `_kept` keeps them: whole when small, else as a `GradientSummary`."""

    node: Node
    nested: bool  # run by a backward pass started inside another watched node's backward
    received: Gradients = ()  # as it started: after tensor hooks and pre-hooks, before it ran
    sent: Gradients = ()  # after the node's post-hooks: what went on to next_functions
    # What the nodes before it sent, summed, before any hook; None where not every edge into it
    # was seen. Recorded during the pass by a trace (see `_Arrivals`).
    arrived: Gradients | None = None
    # What it received, as tensors, while `_why_they_differ` runs it again: set by
    # `_what_arrived`, for one run at a time (a record keeps a large gradient as a summary).
    again: Gradients | None = None


@contextmanager
def watching_the_engine(
    nodes: Iterable[Node],
    root: Node | None = None,
    keep_whole: bool = False,
    arrivals: tuple[GradientEdge, torch.Tensor, Mapping[Node, list[Node]]] | None = None,
) -> Iterator[list[WatchedRun]]:
    """Watch PyTorch's engine run ``nodes`` in the backward pass that this thread starts next,
    from ``root``: yields the list of runs, in the order they started, which fills as the engine
    works. Each gradient is kept whole when small (every one with ``keep_whole``), else as a
    `GradientSummary`. With ``arrivals`` (the root's edge, the seed and the graph's consumers),
    each run also records what arrived for it before any hook. The hooks are removed afterwards,
    even on error. Another thread's backward pass through the same nodes runs them too: they
    leave it alone, and record nothing of it."""
    watch = _Watch(root, keep_whole, arrivals)
    handles = []
    try:
        for node in nodes:
            handles.append(node.register_prehook(watch.on_start(node)))
            handles.append(node.register_hook(watch.on_finish(node)))
        yield watch.runs
    finally:
        for handle in handles:
            handle.remove()


class _Watch:
    """What the hooks of one `watching_the_engine` share: the runs so far, which backward passes are
    the watched one (and those nested in it), and the gradients on their way to each node."""

    def __init__(self, root: Node | None, keep_whole: bool, arrivals: tuple | None) -> None:
        self.runs: list[WatchedRun] = []
        self._root = root
        self._keep_whole = keep_whole
        self._thread = threading.get_ident()  # the thread that starts the watched pass
        self._first: int | None = None  # the engine's id of the watched pass
        self._passes: set[int] = set()  # that id, and those of the passes nested in it
        self._open: dict[tuple[int, Node], WatchedRun] = {}  # started, not yet finished
        self._open_per_thread: dict[int, int] = {}
        self._recorded: dict[int, tuple] = {}  # id() of a gradient -> (weak ref, version, record)
        self._arrivals = None if arrivals is None else _Arrivals(*arrivals, self._kept)

    def on_start(self, node: Node):
        # A pre-hook runs just before its node, after your tensor hooks and pre-hooks: the order
        # of `runs` is the engine's order, and what it keeps is what the node received. Kept
        # here, not afterwards: a node may change its gradient in place while it runs (a custom
        # backward writing zeros into g, a post-accumulate-grad hook zeroing .grad). A copy or a
        # summary, and no reference kept: AccumulateGrad keeps the very tensor it receives as
        # .grad only when nothing else holds it.
        def hook(grad_outputs):
            graph_task = self._watched_pass(node, starting=True)
            if graph_task is None:
                return  # another thread's backward pass: not ours to record
            nested = graph_task != self._first
            with _unseen_by_the_profiler():
                run = WatchedRun(node, nested, self._kept(grad_outputs))
                if self._arrivals is not None and not nested:
                    run.arrived = self._arrivals.take(node)
            self.runs.append(run)
            self._open[(graph_task, node)] = run
            thread = threading.get_ident()
            self._open_per_thread[thread] = self._open_per_thread.get(thread, 0) + 1

        return hook

    def on_finish(self, node: Node):
        # Registered after every hook of yours: it sees what the node sent on after the hooks
        # that run after it.
        def hook(grad_inputs, grad_outputs):
            graph_task = self._watched_pass(node, starting=False)
            run = None if graph_task is None else self._open.pop((graph_task, node), None)
            if run is None:
                return  # another thread's pass, or a run that started before the hooks were in
            self._open_per_thread[threading.get_ident()] -= 1
            with _unseen_by_the_profiler():
                run.sent = self._kept(grad_inputs)
                if self._arrivals is not None and not run.nested:
                    self._arrivals.send(node, grad_inputs, run.sent)

        return hook

    def _watched_pass(self, node: Node, starting: bool) -> int | None:
        """The engine's id of the backward pass running this hook when it is the watched pass or
        one nested in it; None for another thread's pass, which the hooks must leave alone."""
        graph_task = _current_graph_task()
        if graph_task in self._passes:
            return graph_task
        thread = threading.get_ident()
        # On the CPU the engine runs a pass on the thread that started it, and a pass started
        # inside one of its nodes (a reentrant checkpoint) on that thread too. A GPU's nodes run
        # on the GPU's own thread, which serves every pass: there the watched pass is the one
        # that runs the root first, and a nested one starts inside a run of the watched pass.
        if (
            thread == self._thread
            or (starting and node is self._root and self._first is None)
            or self._open_per_thread.get(thread, 0) > 0
        ):
            if self._first is None:
                self._first = graph_task
            self._passes.add(graph_task)
            return graph_task
        return None

    def _kept(self, grads: Iterable[torch.Tensor | None]) -> Gradients:
        return tuple(None if g is None else self._kept_once(g) for g in grads)

    def _kept_once(self, g: torch.Tensor) -> torch.Tensor | GradientSummary:
        if self._keep_whole or kept_whole(g):
            return kept_gradient(g, keep_whole=True)
        # One tensor, unchanged, is often recorded several times (AddBackward0 sends on what it
        # received, and the next node receives that): summarised once. A live weak reference
        # and an unmoved version counter make sure it is the same tensor with the same numbers.
        version = version_of(g)
        seen = self._recorded.get(id(g))
        if seen is not None and seen[0]() is g and version is not None and seen[1] == version:
            return seen[2]
        kept = summary_of(g)
        self._recorded[id(g)] = (weakref.ref(g), version, kept)
        return kept


def _current_graph_task() -> int:
    """The engine's id of the backward pass running on this thread (PyTorch's private API, looked
    up rather than assumed: without it, the thread stands for its pass)."""
    return threading.get_ident() if _GRAPH_TASK_ID is None else _GRAPH_TASK_ID()


_GRAPH_TASK_ID = getattr(torch._C, "_current_graph_task_id", None)


class _Arrivals:
    """What arrives for each node of the watched pass, summed in the order it arrived, as
    PyTorch's engine sums it before any hook runs: fed by the hooks as each node finishes (what
    it sent) and read as each node starts. Where a single edge leads into a node's slot, what
    arrived is what was sent, and its record serves for both; where several do, their sum is kept
    as a copy until the node starts, as the engine keeps its own."""

    def __init__(
        self,
        root: GradientEdge,
        seed: torch.Tensor,
        consumers: Mapping[Node, list[Node]],
        keep: Callable[[Iterable[torch.Tensor | None]], Gradients],
    ) -> None:
        self._keep = keep
        self._edges_into = {node: len(feeding) for node, feeding in consumers.items()}
        self._edges_into[root.node] += 1  # the seed comes along an edge of its own
        self._edges_into_slot = Counter(
            (next_node, slot)
            for node in consumers
            for next_node, slot in node.next_functions
            if next_node is not None
        )
        self._edges_into_slot[(root.node, root.output_nr)] += 1
        self._edges_seen: dict[Node, int] = {root.node: 1}
        self._expected: dict[tuple[Node, int], tuple] = {}  # (node, slot) -> (shape, dtype)
        self._waiting: dict[Node, list] = {}  # per node, one record or running sum per slot
        with torch.no_grad():
            self._arrive(root.node, root.output_nr, seed, record=None)

    def take(self, node: Node) -> Gradients | None:
        """What arrived for ``node``, now that it starts; None where not every edge was seen."""
        slots = self._waiting.pop(node, None)
        complete = self._edges_seen.pop(node, 0) == self._edges_into.get(node)
        if not complete:
            return None
        if slots is None:
            return (None,) * len(node._input_metadata)
        return tuple(self._settled(g.total) if isinstance(g, _Sum) else g for g in slots)

    def _settled(self, total: torch.Tensor) -> torch.Tensor | GradientSummary:
        # A sum is a tensor of our own: kept as it is when small, else summarised.
        return total if kept_whole(total) else self._keep([total])[0]

    def send(self, node: Node, grads: Sequence, records: Gradients) -> None:
        """``node`` finished and sent ``grads`` on (kept as ``records``), one per edge. Called
        from a hook: the engine runs it without recording a graph (as under no_grad)."""
        for (next_node, slot), g, record in zip(node.next_functions, grads, records, strict=False):
            if next_node in self._edges_into:
                self._edges_seen[next_node] = self._edges_seen.get(next_node, 0) + 1
                if g is not None:
                    self._arrive(next_node, slot, g, record)

    def _arrive(self, node: Node, slot: int, g: torch.Tensor, record: object) -> None:
        slots = self._waiting.get(node)
        if slots is None:
            slots = self._waiting[node] = [None] * len(node._input_metadata)
        expected = self._expected.get((node, slot))  # what the engine fits g to (mostly, g)
        if expected is None:
            expected = self._expected[(node, slot)] = _shape_and_dtype(node, slot)
        fitted = g if (g.shape, g.dtype) == expected else fit_to_slot(g, node, slot)
        if self._edges_into_slot[(node, slot)] == 1:
            keep_record = fitted is g and record is not None
            slots[slot] = record if keep_record else self._keep([fitted])[0]
        elif slots[slot] is None:
            slots[slot] = _Sum(fitted.detach().clone())  # a copy: g may change in place
        else:
            slots[slot] = _Sum(slots[slot].total + fitted)


def _shape_and_dtype(node: Node, slot: int) -> tuple[torch.Size, torch.dtype]:
    """The shape and dtype of output ``slot`` of ``node``'s forward operation (as `fit_to_slot`
    reads them), where a gradient for it must arrive."""
    expected = node._input_metadata[slot]
    return torch.Size(expected.shape), expected.dtype


@dataclass
class _Sum:
    """Gradients summed while they wait for their node, which starts with what they add up to."""

    total: torch.Tensor


@contextmanager
def _unseen_by_the_profiler() -> Iterator[None]:
    """Operations run here are not recorded by PyTorch's profiler. Its record of a node's run
    takes its sequence number (which forward operation the node belongs to) from the first
    operation inside it: a copy made by a pre-hook would come first and hide it."""
    # Private API, looked up rather than assumed: a torch without it only loses this nicety.
    profiler_enabled = getattr(torch._C._autograd, "_profiler_enabled", None)
    record = getattr(torch._C._autograd, "_enable_record_function", None)
    if profiler_enabled is None or record is None or not profiler_enabled():
        yield
        return
    # Turns PyTorch's RecordFunction off on this thread. A profiler that is running needs it
    # on, so on is the state to restore.
    record(False)
    try:
        yield
    finally:
        record(True)

"""The backward pass, step by step: a trace of PyTorch's own engine, and an engine written by hand.

``trace(y)`` runs ``y.backward()`` and records, through hooks on the graph's Nodes, every node
PyTorch's engine ran, in the order it ran them, with the gradients that came in and went out:
whole when small, as a `GradientSummary` (shape, dtype, norms, a few values, a hash of the bits)
when large, so that a trace costs about the memory of the pass it records.

``grad(y, inputs)`` computes what ``torch.autograd.grad`` computes, in a few dozen lines of Python
over the same Nodes, so that the algorithm can be read: count each node's dependencies, seed the
output's gradient, run every node once all of its gradients have arrived. Its answer is PyTorch's
answer, bit for bit, or an error that says why it cannot be: ``grad`` lets PyTorch's engine
compute the same gradients first, watching every node, and compares.

Hooks. PyTorch's engine runs the hooks registered on tensors (``register_hook``, ``retain_grad``)
and on Nodes (``register_prehook``, ``register_hook``, and through them a module's full backward
hooks); calling a Node directly, as the by-hand engine does, runs none of them, and PyTorch gives
no way to list a Node's hooks. So in ``grad`` the hooks run once, in PyTorch's pass, exactly as
in ``torch.autograd.grad``; where one changed a gradient the two answers differ and ``grad``
refuses, naming the node, and the hook when it can find it. ``trace`` records PyTorch's pass,
hooks included, and shows where a hook changed a gradient on its way into a node.

A word on names. PyTorch names a Node's gradients from the forward pass's point of view:
``grad_outputs`` are the gradients with respect to the node's outputs, which flow *into* the node
during backward, and ``grad_inputs`` those with respect to its inputs, which it sends *on* to its
``next_functions``. Here they are ``grads_in`` and ``grads_out``: named by the way they travel.

Every text a learner reads here, each error and each refusal's explanation, is in `MESSAGES` at the
end of the module, in English and Chinese (``helpers.set_language``).
"""

from __future__ import annotations

import hashlib
import heapq
import inspect
import itertools
import math
import sys
import threading
import weakref
from collections import Counter
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import torch
from torch.autograd.function import BackwardCFunction
from torch.autograd.graph import GradientEdge, Node, get_gradient_edge

from helpers._graph_model import describe, gradient_edge, walk, why_nodes_safe_to_see
from helpers.graph import NODES_SAFE_TO_SEE, named_tensors, resolve_names
from helpers.language import Catalogue

__all__ = ["CannotMatchPyTorch", "GradientSummary", "Step", "Trace", "TracedValue", "trace", "grad"]

Gradients = tuple[torch.Tensor | None, ...]

# Gradients of at most this many numbers are kept whole by `trace` and `grad`; larger ones as a
# `GradientSummary`. Keeping every gradient of a pass whole costs ten times the memory of the pass
# itself on a real network (every gradient in and out of every node), and a table or a picture
# shows a large gradient only by its shape and dtype anyway.
KEPT_WHOLE = 1_000


@dataclass(frozen=True, eq=False)
class GradientSummary:
    """A large gradient as `trace` keeps it: its shape, dtype and a few numbers, not every value.

    ``first`` holds its first few values (in the order ``g.flatten()`` lists them), ``norm`` its
    length (``torch.linalg.vector_norm(g)``) and ``largest`` its largest absolute value. Tables
    and pictures show it as they show any tensor of its size: shape and dtype. ``digest`` is a
    hash of its bytes: two gradients with equal digests are equal to the last bit, which is how a
    summary is compared (``changed_by_hook``, `grad`'s check). To keep the gradients whole, call
    ``trace(y, keep_gradients=True)``.
    """

    shape: torch.Size
    dtype: torch.dtype
    device: torch.device
    layout: torch.layout
    first: tuple
    norm: float
    largest: float
    digest: bytes
    is_nested: bool = False  # read by helpers._graph_model.describe, as of a tensor

    def numel(self) -> int:
        return math.prod(self.shape)

    def dim(self) -> int:
        return len(self.shape)

    @property
    def is_sparse(self) -> bool:
        return self.layout == torch.sparse_coo

    def __repr__(self) -> str:
        dtype = str(self.dtype).removeprefix("torch.")
        first = ", ".join(f"{value:.4g}" for value in self.first)
        return (
            f"GradientSummary({tuple(self.shape)}, {dtype}, norm={self.norm:.4g}, "
            f"largest={self.largest:.4g}, first=[{first}, …])"
        )


class CannotMatchPyTorch(RuntimeError):
    """`grad` refuses: its by-hand answer would not be PyTorch's. The message says where and why."""


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
        return self.grads_arrived is not None and not _same_bits(self.grads_arrived, self.grads_in)


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

    # Rendering belongs to the view module, imported late so that the model does not depend on it.
    def __repr__(self) -> str:
        from helpers import backward_view

        return backward_view.table_text(self)

    def _repr_html_(self) -> str:
        from helpers import backward_view

        return backward_view.table_html(self)


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
        return tensor is not None and self.version is not None and _version(tensor) != self.version


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
            values[id(tensor)] = TracedValue(weakref.ref(tensor), _version(tensor), text, shape)
    return values


def _version(tensor: torch.Tensor) -> int | None:
    try:
        return tensor._version
    except RuntimeError:  # an inference tensor has no version counter
        return None


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
    A graph of more than `NODES_SAFE_TO_SEE` Nodes is refused (ValueError), before any hook.

    What is kept, so that a trace costs about what the pass costs: each gradient of at most
    `KEPT_WHOLE` numbers whole (a copy), a larger one as a `GradientSummary` (shape, dtype, norms,
    first values, a hash of its bits), or every gradient whole with ``keep_gradients=True``; and,
    for the pictures, the values of the output, the leaves and your tensors in the graph as text
    (numbers when small, else shape and dtype) with their version counters, so that a picture
    drawn later shows them as the pass saw them. Only this pass is recorded: another thread's
    backward pass through the same nodes, running meanwhile, is neither recorded nor disturbed.
    """
    # Fail early, with a clear message, before any hook is in place.
    seed = _seed(output, grad_output)
    root = _edge(output)
    consumers = _consumers_of_each_node(root.node)
    _check_before_tracing(consumers, retain_graph)
    values = _values_during_the_pass(output, consumers)
    watching = _watching(consumers, root.node, keep_gradients, arrivals=(root, seed, consumers))
    with watching as runs, _friendly_errors():
        output.backward(grad_output, retain_graph=retain_graph)
    steps = [
        Step(run.node, _short_name(run.node), run.received, run.sent, run.arrived) for run in runs
    ]
    return Trace(output, steps, values)


def grad(
    output: torch.Tensor,
    inputs: torch.Tensor | Sequence[torch.Tensor],
    grad_output: torch.Tensor | None = None,
) -> Gradients:
    """Gradients of ``output`` with respect to each input, computed by a backward pass by hand.

    The result of ``torch.autograd.grad(output, inputs, grad_output, allow_unused=True)``, bit for
    bit: one gradient per input, None for an input that does not influence output. How it makes
    sure: PyTorch's engine computes the same gradients first (``torch.autograd.grad`` with
    ``retain_graph=True``), while hooks on every node watch what it received and sent; then the
    by-hand engine, ``_backward_by_hand``, computes them again, and the two answers are compared.
    Equal bits: you get the answer. Different bits: `CannotMatchPyTorch`, naming the node where
    PyTorch's engine did something the by-hand one does not, most often a hook.

    What it keeps meanwhile, so that it costs about the memory of the pass: of each gradient the
    hooks see, and of PyTorch's answer, a copy when it has at most `KEPT_WHOLE` numbers, else a
    `GradientSummary` with a hash of its bits, against which the by-hand answer is compared bit
    for bit. Only to explain a refusal does it compute the gradients of the pass again, node by
    node, holding only those on their way, as the engines do.

    Side effects are those of ``torch.autograd.grad``: your hooks run once (in PyTorch's pass),
    a tensor that called ``retain_grad()`` gets its ``.grad``, no leaf's ``.grad`` changes; only
    a custom Function's ``backward`` runs twice, once in each engine. What PyTorch's engine
    refuses, grad refuses, with its reason (a reentrant checkpoint, for one, before anything is
    written), and so does a graph of more than `NODES_SAFE_TO_SEE` Nodes. A graph whose saved
    tensors come back through an unpack hook (a non-reentrant checkpoint, which runs its forward
    again; a ``saved_tensors_hooks``) is refused before anything runs: going through it twice
    would run that hook more often than ``torch.autograd.grad`` does. Unlike PyTorch, it
    leaves the graph intact. Read ``_backward_by_hand``: it is the whole algorithm.
    """
    inputs = _as_inputs(inputs)
    seed = _seed(output, grad_output)
    _check_inputs(inputs)
    root = _edge(output)
    needed = _ancestors(_where_gradients_stop(inputs), _consumers_of_each_node(root.node))
    _refuse_what_grad_would_repeat(needed)

    with _watching(needed, root.node) as runs, _friendly_errors():
        pytorchs = torch.autograd.grad(
            output, inputs, grad_output, retain_graph=True, allow_unused=True
        )
    pytorchs = _kept(pytorchs)  # to compare with: a large one as a summary, freeing its memory
    with torch.inference_mode(False):  # asked from inside it, the leaves are looked up outside
        ours = _backward_by_hand(output, inputs, seed)
    if not _same_bits(ours, pytorchs):
        raise CannotMatchPyTorch(_why_they_differ(runs, output, inputs, seed, ours, pytorchs))
    return ours


# --- the by-hand engine ------------------------------------------------------------------------


def _backward_by_hand(
    output: torch.Tensor, inputs: Sequence[torch.Tensor], seed: torch.Tensor
) -> Gradients:
    """The gradients of ``output`` with respect to ``inputs``, starting from ``seed``: the
    backward pass written by hand. It calls the Nodes directly, so it runs no hooks."""
    root = get_gradient_edge(output)
    # An input's gradient is whatever arrives at its edge: slot `output_nr` of `node` (for a leaf,
    # its AccumulateGrad node). That is where the walk stops.
    stops = _where_gradients_stop(inputs)

    # Every node reachable from the output, and the nodes that feed it. A node is ready once a
    # gradient has arrived along each edge into it: its dependency count is the number of edges.
    consumers = _consumers_of_each_node(root.node)
    dependencies = {node: len(feeding) for node, feeding in consumers.items()}
    # Like PyTorch, run only the nodes on a path from the output to an input.
    needed = _ancestors(stops, consumers)

    arrived: dict[Node, list[torch.Tensor | None]] = {}  # per node, a gradient for each output
    _accumulate(arrived, root.node, root.output_nr, seed)
    ready = _ReadyNodes(root.node)
    found: list[torch.Tensor | None] = [None] * len(inputs)
    # The backward pass itself is not recorded as a graph (as with create_graph=False).
    with torch.no_grad():
        while ready:
            node = ready.pop()  # the one PyTorch's engine would run next
            grads_in = _take_arrived(arrived, node)
            for slot, position in stops.get(node, []):
                found[position] = grads_in[slot]
            if not _leads_to_an_input(node, needed):
                continue  # nothing needed beyond this input (AccumulateGrad is never run)
            grads_out = _run(node, grads_in)
            for (next_node, slot), g in zip(node.next_functions, grads_out, strict=True):
                if next_node not in needed:
                    continue
                if g is not None:
                    _accumulate(arrived, next_node, slot, g)
                dependencies[next_node] -= 1
                if dependencies[next_node] == 0:
                    ready.push(next_node)
    return tuple(found)


class _ReadyNodes:
    """The nodes whose gradients have all arrived. Like PyTorch's engine, ``pop`` gives the one
    with the highest sequence number, the node the forward pass created last: running them in
    the same order sums the gradients meeting at a node in the same order, to the last bit."""

    def __init__(self, first: Node) -> None:
        self._heap: list[tuple[int, int, Node]] = []
        self._arrival = itertools.count()  # breaks ties without comparing two Nodes
        self.push(first)

    def push(self, node: Node) -> None:
        # heapq pops the smallest entry, hence the minus sign.
        heapq.heappush(self._heap, (-node._sequence_nr(), next(self._arrival), node))

    def pop(self) -> Node:
        return heapq.heappop(self._heap)[-1]

    def __bool__(self) -> bool:
        return bool(self._heap)


def _where_gradients_stop(inputs: Sequence[torch.Tensor]) -> dict[Node, list[tuple[int, int]]]:
    """For each node where an input's gradient arrives: ``(slot, position in inputs)`` pairs."""
    stops: dict[Node, list[tuple[int, int]]] = {}
    for position, tensor in enumerate(inputs):
        edge = _edge(tensor)
        stops.setdefault(edge.node, []).append((edge.output_nr, position))
    return stops


def _edge(tensor: torch.Tensor) -> GradientEdge:
    """Where a gradient for ``tensor`` arrives, as `torch.autograd.graph.get_gradient_edge`
    answers, also for a sparse leaf and from inside torch.inference_mode()."""
    return GradientEdge(*gradient_edge(tensor))


def _consumers_of_each_node(root: Node) -> dict[Node, list[Node]]:
    """Every node reachable from ``root``, mapped to the nodes with an edge into it (per edge).

    Refuses a graph of more than `NODES_SAFE_TO_SEE` nodes, before looking at more of them.
    """
    walked = walk([root])  # the one walk every helper makes: iterative, bounded, Nodes held
    if walked.found_beyond:
        message = MESSAGES.say(
            "graph too large", most=NODES_SAFE_TO_SEE, why=why_nodes_safe_to_see()
        )
        raise ValueError(message)
    consumers: dict[Node, list[Node]] = {node: [] for node in walked.nodes}
    for node in walked.nodes:
        for next_node, _ in node.next_functions:
            if next_node is not None:  # None: an input that does not require grad
                consumers[next_node].append(node)
    return consumers


def _ancestors(stops: Iterable[Node], consumers: dict[Node, list[Node]]) -> set[Node]:
    """The nodes of the graph from which one of ``stops`` can be reached, the stops included."""
    found: set[Node] = set()
    to_visit = [node for node in stops if node in consumers]
    while to_visit:
        node = to_visit.pop()
        if node not in found:
            found.add(node)
            to_visit.extend(consumers[node])
    return found


def _leads_to_an_input(node: Node, needed: set[Node]) -> bool:
    """Does a gradient this node sends lead on to an input? Else there is no need to run it."""
    return any(next_node in needed for next_node, _ in node.next_functions)


def _take_arrived(arrived: dict, node: Node) -> list[torch.Tensor | None]:
    """What arrived for each output of ``node`` (None where nothing did), taken out of ``arrived``.

    A node whose consumers all sent None still runs, as in PyTorch: a custom ``backward`` then
    gets zeros, and may send something on."""
    if node in arrived:
        return arrived.pop(node)
    return [None] * len(node._input_metadata)


def _accumulate(arrived: dict, node: Node, slot: int, g: torch.Tensor) -> None:
    """Add ``g`` to the gradient arrived for output ``slot`` of ``node``: gradients arriving from
    several consumers are summed."""
    slots = arrived.setdefault(node, [None] * len(node._input_metadata))
    g = _fit(g, node, slot)
    if slots[slot] is None:
        slots[slot] = g
    else:
        slots[slot] = slots[slot] + g


def _fit(g: torch.Tensor, node: Node, slot: int) -> torch.Tensor:
    """``g`` made to fit output ``slot`` of ``node``, as PyTorch's engine (not the node) does."""
    # `_input_metadata` describes each output of the node's forward operation: one slot each.
    expected = node._input_metadata[slot]
    # A broadcast tensor (b in `w * x + b`) gets a gradient of the broadcast shape: summed back.
    if g.shape != torch.Size(expected.shape):
        g = g.sum_to_size(expected.shape)
    return g.to(expected.dtype)


def _run(node: Node, grads_in: list[torch.Tensor | None]) -> Gradients:
    """Call one node on its gradients: one gradient back per entry of ``node.next_functions``."""
    if isinstance(node, BackwardCFunction):
        return _run_custom_function(node, grads_in)
    result = node(*grads_in)
    if not isinstance(result, tuple):  # a node with a single next function returns a bare tensor
        result = (result,)
    return result


def _run_custom_function(ctx: BackwardCFunction, grads_in: list[torch.Tensor | None]) -> Gradients:
    """Call the ``backward`` of a custom ``torch.autograd.Function`` as PyTorch's engine does."""
    # A custom backward gets zeros, not None, for outputs that received no gradient.
    grads = [
        torch.zeros(m.shape, dtype=m.dtype, device=m.device) if g is None else g
        for g, m in zip(grads_in, ctx._input_metadata, strict=True)
    ]
    with _explained_if_it_fails_again(ctx):
        returned = ctx.apply(*grads)
    returned = returned if isinstance(returned, tuple) else (returned,)
    # `backward` returns a gradient per argument of `forward`, tensor or not; `next_functions` has
    # an entry per tensor argument, with a node exactly for those that require grad, in order.
    needs_grad = ctx.needs_input_grad
    if len(returned) < len(needs_grad):
        message = MESSAGES.say(
            "too few gradients", node=ctx.name(), returned=len(returned), took=len(needs_grad)
        )
        raise RuntimeError(message)
    returned = returned[: len(needs_grad)]  # PyTorch tolerates extra trailing Nones
    needing_grad = iter(g for g, needs in zip(returned, needs_grad, strict=True) if needs)
    return tuple(None if n is None else next(needing_grad) for n, _ in ctx.next_functions)


# --- watching PyTorch's engine -----------------------------------------------------------------


@dataclass(eq=False)
class _Run:
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
def _watching(
    nodes: Iterable[Node],
    root: Node | None = None,
    keep_whole: bool = False,
    arrivals: tuple[GradientEdge, torch.Tensor, Mapping[Node, list[Node]]] | None = None,
) -> Iterator[list[_Run]]:
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
    """What the hooks of one `_watching` share: the runs so far, which backward passes are the
    watched one (and those nested in it), and the gradients on their way to each node."""

    def __init__(self, root: Node | None, keep_whole: bool, arrivals: tuple | None) -> None:
        self.runs: list[_Run] = []
        self._root = root
        self._keep_whole = keep_whole
        self._thread = threading.get_ident()  # the thread that starts the watched pass
        self._first: int | None = None  # the engine's id of the watched pass
        self._passes: set[int] = set()  # that id, and those of the passes nested in it
        self._open: dict[tuple[int, Node], _Run] = {}  # started, not yet finished
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
                run = _Run(node, nested, self._kept(grad_outputs))
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
        if self._keep_whole or _kept_whole(g):
            return _kept_gradient(g, keep_whole=True)
        # One tensor, unchanged, is often recorded several times (AddBackward0 sends on what it
        # received, and the next node receives that): summarised once. A live weak reference
        # and an unmoved version counter make sure it is the same tensor with the same numbers.
        version = _version(g)
        seen = self._recorded.get(id(g))
        if seen is not None and seen[0]() is g and version is not None and seen[1] == version:
            return seen[2]
        kept = _summary(g)
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
        return total if _kept_whole(total) else self._keep([total])[0]

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
        fitted = g if (g.shape, g.dtype) == expected else _fit(g, node, slot)
        if self._edges_into_slot[(node, slot)] == 1:
            keep_record = fitted is g and record is not None
            slots[slot] = record if keep_record else self._keep([fitted])[0]
        elif slots[slot] is None:
            slots[slot] = _Sum(fitted.detach().clone())  # a copy: g may change in place
        else:
            slots[slot] = _Sum(slots[slot].total + fitted)


def _shape_and_dtype(node: Node, slot: int) -> tuple[torch.Size, torch.dtype]:
    """The shape and dtype of output ``slot`` of ``node``'s forward operation (as `_fit` reads
    them), where a gradient for it must arrive."""
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


def _what_arrived(
    runs: list[_Run], root: GradientEdge, seed: torch.Tensor, consumers: Mapping[Node, list[Node]]
) -> Iterator[Gradients | None]:
    """For each run in turn, what the nodes before it sent it, summed in the order it arrived,
    as PyTorch's engine sums it before any hook runs; None where not every edge into it was seen.

    A record keeps a large gradient as a summary only, so the gradients are computed again, one
    run at a time, by running the nodes as `_backward_by_hand` does: what a node sent is what it
    computes from what it received, and what it received is what arrived, as far as the caller
    (`_why_they_differ`) reads on. While a run is looked at, its ``again`` holds what it
    received, as tensors, for `_replay`; only the gradients on their way are kept meanwhile.
    """
    edges_into = {node: len(feeding) for node, feeding in consumers.items()}
    edges_into[root.node] += 1  # the seed comes along an edge of its own
    sums: dict[Node, list[torch.Tensor | None]] = {}
    edges_seen = {root.node: 1}
    unknown: set[Node] = set()  # nodes sent something no record or rerun can give
    with torch.no_grad():
        _accumulate(sums, root.node, root.output_nr, seed)
    for run in runs:
        if run.nested:  # a nested backward pass keeps gradients of its own, unseen here
            yield None
            continue
        grads = tuple(_take_arrived(sums, run.node))
        complete = edges_seen.pop(run.node, 0) == edges_into.get(run.node)
        complete = complete and run.node not in unknown
        run.again = grads if complete else _whole_or_none(run.received)
        yield grads if complete else None
        sent = _sent_again(run)
        run.again = None
        # A node that ran to the end sent its gradients on (in the order of its edges).
        for (next_node, slot), g in zip(run.node.next_functions, sent or (), strict=False):
            if next_node in edges_into:
                edges_seen[next_node] = edges_seen.get(next_node, 0) + 1
                if g is not None:
                    with torch.no_grad():
                        _accumulate(sums, next_node, slot, g)
        if sent is None:
            unknown.update(next_node for next_node, _ in run.node.next_functions)


def _sent_again(run: _Run) -> Gradients | None:
    """What ``run`` sent, as tensors: its record when whole, else computed again from what it
    received (None when that is not known either)."""
    if not run.node.next_functions:
        return ()  # AccumulateGrad sends nothing on (and calling it would write to .grad)
    whole = _whole_or_none(run.sent)
    if whole is not None:
        return whole
    if run.again is None:
        return None
    with torch.no_grad():
        sent = _run(run.node, list(_copies(run.again)))
        return tuple(
            None if g is None or next_node is None else _fit(g, next_node, slot)
            for (next_node, slot), g in zip(run.node.next_functions, sent, strict=True)
        )


def _whole_or_none(grads: Gradients) -> Gradients | None:
    """The gradients when every one is kept whole (a tensor or None), else None."""
    return None if any(isinstance(g, GradientSummary) for g in grads) else grads


# --- explaining why the two answers differ -----------------------------------------------------


def _why_they_differ(
    runs: list[_Run],
    output: torch.Tensor,
    inputs: Sequence[torch.Tensor],
    seed: torch.Tensor,
    ours: Gradients,
    pytorchs: Gradients,
) -> str:
    """Where, first in the engine's order, PyTorch's engine did what the by-hand one does not:
    a gradient changed on its way into a node, a node sent on something other than what it
    computes, or an input's gradient changed after it arrived. Runs nodes again to find out."""
    root = _edge(output)
    consumers = _consumers_of_each_node(root.node)
    needed = _ancestors(_where_gradients_stop(inputs), consumers)
    namespace = _callers_namespace()
    for run, arrived in zip(runs, _what_arrived(runs, root, seed, consumers), strict=True):
        if arrived is not None and not _same_bits(arrived, run.received):
            return _changed_on_the_way_in(run, arrived, namespace, consumers)
        if not run.node.next_functions:
            continue  # AccumulateGrad sends nothing on (and calling it would write to .grad)
        computed = _replay(run, needed)
        sent = _needed_only(run.node, run.sent, needed)
        if not _same_bits(computed, sent):
            if not _same_bits(computed, _replay(run, needed)):
                return _not_deterministic(run)
            return _changed_on_the_way_out(run, computed, sent, namespace, consumers)
    position = _first_different(ours, pytorchs)
    return _changed_after_arriving(inputs[position], position, ours, pytorchs, namespace, needed)


def _refuses(reason: str, **blanks: object) -> str:
    """grad's refusal: it cannot give PyTorch's answer, then the text ``reason`` says why."""
    return MESSAGES.say("refuses", reason=MESSAGES.say(reason, **blanks))


def _hook_changed_it(what: str, culprit: str, reason: str = "changed it") -> str:
    """The refusal for a gradient a hook changed: what happened, who did it, what to use."""
    return _refuses(reason, what=what, culprit=culprit, no_hooks=MESSAGES.say("no hooks"))


def _replay(run: _Run, needed: set[Node]) -> Gradients:
    """What the by-hand engine's rules make ``run.node`` send on from what it received."""
    # The record, or, where it keeps a summary, the tensors `_what_arrived` computed again.
    received = _whole_or_none(run.received)
    received = run.again if received is None else received
    if received is None:
        return _needed_only(run.node, run.sent, needed)  # nothing to run it on: nothing to tell
    with torch.no_grad():
        # Copies: a node may write into the gradients it is given, and `run.received` is a record.
        grads_out = _run(run.node, list(_copies(received)))
        fitted = [
            None if g is None or next_node is None else _fit(g, next_node, slot)
            for (next_node, slot), g in zip(run.node.next_functions, grads_out, strict=True)
        ]
    return _needed_only(run.node, fitted, needed)


def _needed_only(node: Node, grads_out: Sequence, needed: set[Node]) -> Gradients:
    # PyTorch's engine computes no gradient for an edge that leads to no input: compare the rest.
    edges = node.next_functions
    return tuple(g if n in needed else None for (n, _), g in zip(edges, grads_out, strict=True))


def _changed_on_the_way_in(
    run: _Run, arrived: Gradients, namespace: dict, graph: Collection[Node]
) -> str:
    slot = _first_different(arrived, run.received)
    received, sent = _two_values(run.received[slot], arrived[slot])
    node = _node_label(run.node, namespace)
    what = MESSAGES.say("received other", node=node, received=received, sent=sent)
    if _short_name(run.node) == "BackwardHookFunctionBackward":
        return _hook_changed_it(what, _module_hooks(namespace, graph))
    hooks = [
        _hooks_of_tensor(tensor, name)
        for name, tensor in _tensors(namespace)
        if tensor.grad_fn is run.node and tensor.output_nr == slot and tensor._backward_hooks
    ]
    culprit = MESSAGES.say("list separator").join(hooks) or MESSAGES.say("tensor or pre-hook")
    return _hook_changed_it(what, culprit)


def _changed_on_the_way_out(
    run: _Run, computed: Gradients, sent: Gradients, namespace: dict, graph: Collection[Node]
) -> str:
    edge = _first_different(computed, sent)
    theirs, ours = _two_values(sent[edge], computed[edge])
    node = _node_label(run.node, namespace)
    what = MESSAGES.say("sent other", node=node, theirs=theirs, ours=ours)
    if _short_name(run.node) == "BackwardHookFunctionBackward":
        return _hook_changed_it(what, _module_hooks(namespace, graph))
    if isinstance(run.node, BackwardCFunction) and any(g is None for g in run.received):
        return _hook_changed_it(what, MESSAGES.say("post-hook"), "changed it, or zeros for None")
    legacy = _module_hooks(namespace, graph, full=False)
    if legacy:  # Module.register_backward_hook puts its hook on the node of the module's output
        return _hook_changed_it(what, legacy, "changed it, legacy module hook")
    return _hook_changed_it(what, MESSAGES.say("post-hook"))


def _changed_after_arriving(
    tensor: torch.Tensor,
    position: int,
    ours: Gradients,
    pytorchs: Gradients,
    namespace: dict,
    needed: Collection[Node],
) -> str:
    name = _name_of(tensor, namespace) or f"inputs[{position}]"
    theirs, mine = _two_values(pytorchs[position], ours[position])
    what = MESSAGES.say("handed back other", name=name, theirs=theirs, mine=mine)
    if tensor._backward_hooks:
        return _hook_changed_it(what, _hooks_of_tensor(tensor, name))
    if pytorchs[position] is not None and pytorchs[position].is_sparse:
        return _refuses("sparse sums", what=what)
    tied = _nodes_sharing_a_number(needed)
    if tied:
        return _refuses("built in threads", what=what, nodes=tied)
    return _refuses("cannot tell why", what=what)


def _not_deterministic(run: _Run) -> str:
    if torch.are_deterministic_algorithms_enabled():  # advising to turn it on would not help
        return _refuses("not deterministic, even so", node=_short_name(run.node))
    return _refuses("not deterministic", node=_short_name(run.node))


def _nodes_sharing_a_number(nodes: Iterable[Node]) -> str:
    """Two nodes of the graph with the same sequence number, named, or "" if there are none.

    Each thread numbers the operations it records from its own counter, so a graph built in
    several threads has nodes that share a number. PyTorch's engine runs the node with the
    highest number first and breaks ties in an order of its own, which the by-hand engine (first
    come, first run) does not copy: gradients meeting at a node are then summed in another order.
    AccumulateGrad nodes all carry the largest number; they send nothing on, so they are left out.
    """
    first_with: dict[int, Node] = {}
    for node in nodes:
        if not node.next_functions:
            continue
        number = node._sequence_nr()
        if number in first_with:
            names = (_short_name(first_with[number]), _short_name(node))
            return MESSAGES.say("name separator").join(names)
        first_with[number] = node
    return ""


def _first_different(first: Sequence, second: Sequence) -> int:
    pairs = zip(first, second, strict=True)
    return next(i for i, (a, b) in enumerate(pairs) if not _same_tensor(a, b))


def _two_values(first: torch.Tensor | None, second: torch.Tensor | None) -> tuple[str, str]:
    """Two gradients as text, with as many digits as it takes to tell them apart."""
    for digits in (4, 9, 17):
        texts = (_value(first, digits), _value(second, digits))
        if texts[0] != texts[1]:
            return texts
    if first is not None and first.numel() > 4:
        return texts[0], MESSAGES.say("different values")
    return texts  # they differ in bits only: 0.0 and -0.0, or two kinds of NaN


# Names for the message: the variables of the code that called grad, as a learner wrote them.


def _callers_namespace() -> dict:
    frame = sys._getframe(1)
    while frame is not None and frame.f_globals.get("__name__") == __name__:
        frame = frame.f_back
    if frame is None:
        return {}
    return {**frame.f_globals, **frame.f_locals}


def _tensors(namespace: dict) -> list[tuple[str, torch.Tensor]]:
    """The tensors of a namespace, and the parameters of its modules, as every picture names them
    (objects that cannot be inspected are skipped)."""
    return named_tensors(namespace)


def _name_of(tensor: torch.Tensor, namespace: dict) -> str | None:
    return next((name for name, value in _tensors(namespace) if value is tensor), None)


def _node_label(node: Node, namespace: dict) -> str:
    if _short_name(node) == "BackwardHookFunctionBackward":
        return MESSAGES.say("module hooks node")
    made = [name for name, tensor in _tensors(namespace) if tensor.grad_fn is node]
    if made:
        return MESSAGES.say("node that computed", node=_short_name(node), tensor=made[0])
    return _short_name(node)


def _hooks_of_tensor(tensor: torch.Tensor, name: str) -> str:
    hooks = tensor._backward_hooks.values()
    described = MESSAGES.say("name separator").join(_describe_hook(hook) for hook in hooks)
    return MESSAGES.say("tensor hook", name=name, hooks=described)


def _module_hooks(namespace: dict, graph: Collection[Node], full: bool = True) -> str:
    """The backward hooks of the caller's modules that may have acted in ``graph``, named: the
    full ones (``register_full_backward_hook`` and ``_pre_hook``), or with ``full=False`` the
    legacy ones (``register_backward_hook``; "" if there are none)."""
    found = []
    seen: set[int] = set()  # a module reachable under two names is named once
    for name, value in namespace.items():
        try:
            if isinstance(value, torch.nn.Module) and not name.startswith("_"):
                for path, module in value.named_modules(prefix=name):
                    if id(module) in seen or not _may_be_in(module, graph):
                        continue
                    seen.add(id(module))
                    found.extend(
                        MESSAGES.say("module hook on", path=path, hook=_describe_hook(hook))
                        for hook in _backward_hooks_of(module, full)
                    )
        except Exception:  # noqa: BLE001 - a broken object in the namespace names no hook
            continue
    if not found:
        return MESSAGES.say("a module hook") if full else ""
    return MESSAGES.say("module hooks", found=MESSAGES.say("list separator").join(found))


def _backward_hooks_of(module: torch.nn.Module, full: bool) -> list:
    # One dict holds a module's post-hooks, full or legacy (PyTorch allows one kind per module).
    is_full = module._is_full_backward_hook
    if not full:
        return list(module._backward_hooks.values()) if is_full is False else []
    post_hooks = list(module._backward_hooks.values()) if is_full is not False else []
    return [*post_hooks, *module._backward_pre_hooks.values()]


def _may_be_in(module: torch.nn.Module, graph: Collection[Node]) -> bool:
    """False for a module whose trainable parameters are all outside ``graph``: its forward did
    not build this graph. A module without such parameters cannot be told apart: True."""
    trainable = [p for p in module.parameters() if p.requires_grad]
    return not trainable or any(_edge(p).node in graph for p in trainable)


def _describe_hook(hook) -> str:
    """A hook's name; for a lambda, the line that defines it, when its source can be read."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if name != "<lambda>":
        return name
    try:
        line = inspect.getsource(hook).strip().splitlines()[0]
    except (OSError, TypeError):
        return MESSAGES.say("a lambda")
    return f"`{line[:60]}…`" if len(line) > 60 else f"`{line}`"


# --- shared by `trace` and `grad` ------------------------------------------------------------


def _seed(output: torch.Tensor, grad_output: torch.Tensor | None) -> torch.Tensor:
    """The gradient the backward pass starts from, after checking that there is a pass to run."""
    if _several_tensors(output):
        message = MESSAGES.say("several outputs", kind=type(output).__name__, count=len(output))
        raise TypeError(message)
    if not isinstance(output, torch.Tensor):
        message = MESSAGES.say("output not a tensor", kind=type(output).__name__)
        raise TypeError(message)
    if not output.requires_grad:
        message = MESSAGES.say("no graph")
        raise ValueError(message)
    for where, tensor in (("output", output), ("grad_output", grad_output)):
        if isinstance(tensor, torch.Tensor) and tensor.is_nested:  # it has no single shape
            message = MESSAGES.say("nested tensor", where=where)
            raise ValueError(message)
    if grad_output is None:
        if output.numel() != 1:
            message = MESSAGES.say("not a number", shape=tuple(output.shape))
            raise ValueError(message)
        if output.is_complex():
            message = MESSAGES.say("complex output")
            raise ValueError(message)
        return torch.ones_like(output)
    if not isinstance(grad_output, torch.Tensor) or grad_output.shape != output.shape:
        message = MESSAGES.say(
            "grad_output shape", shape=tuple(output.shape), got=_describe(grad_output)
        )
        raise ValueError(message)
    if grad_output.device != output.device:
        message = MESSAGES.say("grad_output device", there=grad_output.device, here=output.device)
        raise ValueError(message)
    return grad_output.detach()


def _several_tensors(value: object) -> bool:
    """A list or tuple of tensors, as torch.autograd.grad accepts for its outputs."""
    return (
        isinstance(value, list | tuple)
        and len(value) > 0
        and all(isinstance(item, torch.Tensor) for item in value)
    )


@contextmanager
def _explained_if_it_fails_again(ctx: BackwardCFunction) -> Iterator[None]:
    """A custom backward that fails in the by-hand engine ran without error in PyTorch's pass
    just before, on the same gradients: running it a second time is what went wrong."""
    try:
        yield
    except Exception as error:  # noqa: BLE001 - any error of the learner's backward, explained
        message = MESSAGES.say(
            "backward failed again", node=ctx.name(), kind=type(error).__name__, error=error
        )
        raise CannotMatchPyTorch(message) from error


def _as_inputs(inputs: object) -> tuple:
    """grad's ``inputs`` as a tuple; the containers a learner is likely to pass instead of
    tensors (a model, a dict, named_parameters()) are refused with the call that works."""
    if isinstance(inputs, torch.Tensor):
        return (inputs,)
    if isinstance(inputs, torch.nn.Module):
        message = MESSAGES.say("inputs a module", kind=type(inputs).__name__)
        raise TypeError(message)
    if isinstance(inputs, Mapping):  # iterating over it would give its keys
        message = MESSAGES.say("inputs a dict", kind=type(inputs).__name__)
        raise TypeError(message)
    if isinstance(inputs, str | bytes) or not isinstance(inputs, Iterable):
        kind = "None" if inputs is None else type(inputs).__name__
        message = MESSAGES.say("inputs not tensors", kind=kind)
        raise TypeError(message)
    inputs = tuple(inputs)
    if any(_is_name_and_tensor(item) for item in inputs):
        message = MESSAGES.say("inputs named pairs")
        raise TypeError(message)
    return inputs


def _is_name_and_tensor(item: object) -> bool:
    """A ``(name, tensor)`` pair, as ``model.named_parameters()`` gives."""
    return (
        isinstance(item, tuple)
        and len(item) == 2
        and isinstance(item[0], str)
        and isinstance(item[1], torch.Tensor)
    )


def _check_inputs(inputs: tuple) -> None:
    if not inputs:
        message = MESSAGES.say("no inputs")
        raise ValueError(message)
    for position, tensor in enumerate(inputs):
        if isinstance(tensor, torch.nn.Module):
            kind = type(tensor).__name__
            message = MESSAGES.say("input a module", position=position, kind=kind)
            raise TypeError(message)
        if not isinstance(tensor, torch.Tensor):
            kind = type(tensor).__name__
            message = MESSAGES.say("input not a tensor", position=position, kind=kind)
            raise TypeError(message)
        if not tensor.requires_grad:
            message = MESSAGES.say("input needs no grad", position=position)
            raise ValueError(message)
        if tensor.is_nested:
            message = MESSAGES.say("nested tensor", where=f"inputs[{position}]")
            raise ValueError(message)


def _check_before_tracing(nodes: Iterable[Node], retain_graph: object) -> None:
    """What trace refuses once it has the graph, before any hook is in place."""
    if not isinstance(retain_graph, bool):  # PyTorch's own error would be a raw TypeError
        message = MESSAGES.say("retain_graph not bool", got=_short_repr(retain_graph))
        raise TypeError(message)
    _refuse_nested_tensors(nodes)


def _refuse_what_grad_would_repeat(needed: Iterable[Node]) -> None:
    """What grad refuses once it knows the nodes it will run, before running any of them."""
    _refuse_nested_tensors(needed)
    _refuse_unpack_hooks(needed)


def _refuse_nested_tensors(nodes: Iterable[Node]) -> None:
    # A nested tensor has no single shape (`.shape` raises for torch.strided's kind), and both
    # engines' bookkeeping (`_fit`, `_same_tensor`, the trace's table) needs one.
    for node in nodes:
        if any(metadata.is_nested_tensor for metadata in node._input_metadata):
            message = MESSAGES.say("nested in graph", node=_short_name(node))
            raise ValueError(message)


def _refuse_unpack_hooks(nodes: Iterable[Node]) -> None:
    """Refuse a graph whose saved tensors come back through an unpack hook with side effects.

    A non-reentrant checkpoint (``checkpoint(..., use_reentrant=False)``) saves placeholders
    and runs the forward again, once per backward pass, the first time a node unpacks one; so
    does a learner's ``saved_tensors_hooks`` unpack hook, once per unpacking. grad runs the nodes
    twice (PyTorch's pass, then the by-hand one), so either would run more often than in
    ``torch.autograd.grad``. The hooks are read off each ``_raw_saved_*`` SavedTensor, which
    (unlike ``_saved_*``) does not unpack, so nothing runs here.
    """
    for node in nodes:
        for saved in _saved_tensors_of(node):
            hook = getattr(saved, "unpack_hook", None)
            if hook is None or _side_effect_free(hook):
                continue
            name = _short_name(node)
            if getattr(hook, "__module__", None) == "torch.utils.checkpoint":
                raise CannotMatchPyTorch(MESSAGES.say("checkpoint recomputes", node=name))
            described = _describe_hook(hook)
            message = MESSAGES.say("unpack hook runs again", node=name, hook=described)
            raise CannotMatchPyTorch(message)


def _saved_tensors_of(node: Node) -> Iterator:
    """The SavedTensor records a node holds, without unpacking them."""
    for attribute in _raw_saved_attributes(type(node)):
        try:
            saved = getattr(node, attribute)
        except RuntimeError:  # freed by an earlier backward pass: PyTorch's engine will say so
            continue
        yield from saved if isinstance(saved, tuple | list) else (saved,)


_RAW_SAVED: dict[type, tuple[str, ...]] = {}


def _raw_saved_attributes(kind: type) -> tuple[str, ...]:
    # One `dir` per kind of node: each PyTorch operation's Node class lists its saved tensors.
    if kind not in _RAW_SAVED:
        _RAW_SAVED[kind] = tuple(name for name in dir(kind) if name.startswith("_raw_saved_"))
    return _RAW_SAVED[kind]


def _side_effect_free(hook) -> bool:
    # torch.autograd.graph.save_on_cpu only copies the tensor back to its device.
    return getattr(hook, "__module__", None) == "torch.autograd.graph"


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


@contextmanager
def _friendly_errors() -> Iterator[None]:
    """Turn PyTorch's errors about a learner's graph into advice a learner can act on."""
    try:
        yield
    except RuntimeError as error:
        message = str(error)
        if "already been freed" in message:
            advice = MESSAGES.say("graph freed")
        elif "use_reentrant=True" in message:
            advice = MESSAGES.say("reentrant checkpoint")
        elif "returned an incorrect number of gradients" in message:
            advice = MESSAGES.say("wrong number of gradients", error=message)
        else:
            raise
        raise RuntimeError(advice) from error


def _kept(grads: Iterable[torch.Tensor | None], keep_whole: bool = False) -> Gradients:
    """The gradients as a record keeps them: a copy of each of at most `KEPT_WHOLE` numbers (of
    each, with ``keep_whole``), a `GradientSummary` of each larger one."""
    return tuple(None if g is None else _kept_gradient(g, keep_whole) for g in grads)


def _kept_gradient(g: torch.Tensor, keep_whole: bool) -> torch.Tensor | GradientSummary:
    if keep_whole or _kept_whole(g):
        return g.detach().clone()  # as `_copies` copies
    return _summary(g)


def _kept_whole(g: torch.Tensor) -> bool:
    # A meta tensor holds no numbers: it costs nothing. A nested one is kept as it is.
    return g.is_nested or g.numel() <= KEPT_WHOLE or g.device.type == "meta"


def _summary(g: torch.Tensor) -> GradientSummary:
    flat = _flat(g)
    if flat.is_complex():
        largest = float(flat.abs().max())
    else:  # two numbers to compare: quicker than vector_norm(ord=inf), which makes abs() first
        least, most = torch.aminmax(flat)
        largest = max(abs(float(least)), abs(float(most)))
    return GradientSummary(
        shape=g.shape,
        dtype=g.dtype,
        device=g.device,
        layout=g.layout,
        first=tuple(flat[:4].tolist()),
        norm=float(torch.linalg.vector_norm(flat)),
        largest=largest,
        digest=_digest(flat),
    )


def _flat(g: torch.Tensor) -> torch.Tensor:
    """The numbers of a gradient, in order, in one plain row on the CPU (a copy only where
    needed: a sparse or an expanded gradient, one on another device)."""
    values = g.detach()
    if values.layout != torch.strided:  # sparse: the numbers it stands for
        values = values.to_dense()
    return values.resolve_conj().resolve_neg().reshape(-1).cpu().contiguous()


def _digest(flat: torch.Tensor) -> bytes:
    """A hash of a plain row's bytes: equal hashes, equal bits (-0.0 is not 0.0, and a NaN
    equals itself)."""
    return hashlib.sha1(flat.view(torch.uint8).numpy()).digest()


def _copies(grads: Iterable[torch.Tensor | None]) -> Gradients:
    # Detached, so no graph is kept alive; cloned, because AccumulateGrad may keep the very tensor
    # it received as `.grad`, later backward passes add into that in place, and a hook may change
    # a gradient in place after we saw it.
    return tuple(None if g is None else g.detach().clone() for g in grads)


def _same_bits(first: Sequence, second: Sequence) -> bool:
    """Are the two sequences of gradients identical, None for None and bit for bit?"""
    if len(first) != len(second):
        return False
    return all(_same_tensor(a, b) for a, b in zip(first, second, strict=True))


def _same_tensor(a: torch.Tensor | None, b: torch.Tensor | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if a.dtype != b.dtype or a.shape != b.shape or a.layout != b.layout:
        return False
    if isinstance(a, GradientSummary) or isinstance(b, GradientSummary):
        return _digest_of(a) == _digest_of(b)  # a summary keeps a hash of its bits
    if a.layout != torch.strided:  # sparse: compare what the entries hold
        a, b = a.to_dense(), b.to_dense()
    if a.device.type == "meta" or b.device.type == "meta":
        return a.device == b.device  # no values to compare
    # Bits, not values: torch.equal calls -0.0 and 0.0 equal, and NaN unequal to itself.
    # A fresh copy with plain strides: an expanded gradient's stride 0 cannot be viewed as bytes.
    flat = [t.detach().reshape(-1).clone(memory_format=torch.contiguous_format) for t in (a, b)]
    as_bytes = [t.view(torch.uint8) for t in flat]
    return torch.equal(*as_bytes)


def _digest_of(g: torch.Tensor | GradientSummary) -> bytes:
    return g.digest if isinstance(g, GradientSummary) else _digest(_flat(g))


def _short_name(node: Node) -> str:
    return node.name().removeprefix("torch::autograd::")


def _value(g: torch.Tensor | None, digits: int = 4) -> str:
    """A gradient as text: its numbers, with ``digits`` significant digits, when there are at
    most four; else its shape."""
    if g is None:
        return "None"
    if g.numel() > 4:
        return MESSAGES.say("tensor of shape", shape=tuple(g.shape))
    return _numbers(g.detach().cpu().tolist(), digits)


def _numbers(values, digits: int) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_numbers(value, digits) for value in values) + "]"
    return f"{values:.{digits}g}"


def _describe(value: object) -> str:
    if isinstance(value, torch.Tensor):
        return MESSAGES.say("tensor of shape", shape=tuple(value.shape))
    return type(value).__name__


# --- what a learner reads, in English and Chinese -------------------------------------------

_TEXTS = {
    # What trace and grad are given.
    "output not a tensor": {
        "en": "output must be a tensor, got {kind}.",
        "zh": "output 必须是张量，这里得到的是 {kind}。",
    },
    "several outputs": {
        "en": (
            "output must be one tensor, got a {kind} of {count}. To go backward from several "
            "outputs at once, add them into one number first, e.g. y1.sum() + y2.sum(): "
            "torch.autograd.grad and backward() add up the gradients of a list's outputs the "
            "same way. Or call it once for each output."
        ),
        "zh": (
            "output 必须是单个张量，这里得到的是含 {count} 个张量的 {kind}。想从几个输出同时"
            "反向传播，请先把它们加成一个数，例如 y1.sum() + y2.sum()：torch.autograd.grad 和 "
            "backward() 对一个列表里的各个输出也是这样把梯度加起来的。或者对每个输出分别调用一次。"
        ),
    },
    "nested tensor": {
        "en": (
            "{where} is a nested tensor (torch.nested), whose pieces have shapes of their own, "
            "and trace and grad work with plain tensors only. Use output.backward() or "
            "torch.autograd.grad instead."
        ),
        "zh": (
            "{where} 是一个嵌套张量（torch.nested），它的各个分块形状各不相同，而 trace() 和 "
            "grad() 只处理普通张量。请改用 output.backward() 或 torch.autograd.grad。"
        ),
    },
    "nested in graph": {
        "en": (
            "This graph holds a nested tensor (torch.nested, at {node}), whose pieces have "
            "shapes of their own, and trace and grad work with plain tensors only. Use "
            "output.backward() or torch.autograd.grad instead."
        ),
        "zh": (
            "这张计算图里有一个嵌套张量（torch.nested，在节点 {node} 处），它的各个分块形状各不"
            "相同，而 trace() 和 grad() 只处理普通张量。请改用 output.backward() 或 "
            "torch.autograd.grad。"
        ),
    },
    "retain_graph not bool": {
        "en": (
            "retain_graph must be True or False, got {got}. Pass retain_graph=True to keep the "
            "graph for another backward pass (or for grad), or leave it out."
        ),
        "zh": (
            "retain_graph 必须是 True 或 False，这里得到的是 {got}。想保留计算图、以便再做一次"
            "反向传播（或者再调用 grad()），请传入 retain_graph=True；否则不传这个参数即可。"
        ),
    },
    "no graph": {
        "en": (
            "output does not require grad, so there is no graph to go backward through. Compute "
            "it from a tensor with requires_grad=True, and not inside torch.no_grad()."
        ),
        "zh": (
            "output 不需要梯度，所以没有可以反向传播的计算图。请用 requires_grad=True "
            "的张量来计算它，并且不要在 torch.no_grad() 里面计算。"
        ),
    },
    "not a number": {
        "en": (
            "output has shape {shape}, not a single number, so there is no obvious gradient to "
            "start from. Pass grad_output= (a tensor of that shape, e.g. "
            "torch.ones_like(output)), or reduce output to a number first, e.g. output.sum()."
        ),
        "zh": (
            "output 的形状是 {shape}，不是单个数，所以没有显而易见的初始梯度。请传入 "
            "grad_output=（一个这个形状的张量，例如 torch.ones_like(output)），或者先把 output "
            "归约成一个数，例如 output.sum()。"
        ),
    },
    "complex output": {
        "en": (
            "output is a complex number, and PyTorch starts a backward pass by itself only from "
            "a real one (its words: 'grad can be implicitly created only for real scalar "
            "outputs'). Pass grad_output= (a complex tensor of output's shape), or differentiate "
            "a real number such as output.abs() or output.real."
        ),
        "zh": (
            "output 是复数，而 PyTorch 只会从实数自动开始反向传播（它的原话是 'grad can be "
            "implicitly created only for real scalar outputs'）。请传入 grad_output=（一个与 "
            "output 形状相同的复数张量），或者对一个实数求导，例如 output.abs() 或 output.real。"
        ),
    },
    "grad_output shape": {
        "en": "grad_output must be a tensor of output's shape {shape}, got {got}.",
        "zh": "grad_output 必须是形状为 {shape}（即 output 的形状）的张量，这里得到的是：{got}。",
    },
    "grad_output device": {
        "en": (
            "grad_output is on {there} but output is on {here}. Create it where output lives, "
            "e.g. torch.ones_like(output), or move it with .to(output.device)."
        ),
        "zh": (
            "grad_output 在 {there} 上，而 output 在 {here} 上。请在 output 所在的设备上创建它，"
            "例如 torch.ones_like(output)，或者用 .to(output.device) 把它移过去。"
        ),
    },
    "no inputs": {
        "en": (
            "inputs is empty, so there is nothing to take the gradient with respect to (PyTorch "
            "refuses too: '`inputs` argument to `grad()` cannot be empty'). Pass the tensors "
            "whose gradients you want, e.g. grad(y, [w, b])."
        ),
        "zh": (
            "inputs 是空的，所以没有要对之求梯度的张量（PyTorch 也会拒绝：'`inputs` argument to "
            "`grad()` cannot be empty'）。请传入你想求梯度的张量，例如 grad(y, [w, b])。"
        ),
    },
    "inputs not tensors": {
        "en": (
            "inputs must be a tensor or a list of tensors, got {kind}. Pass the tensors whose "
            "gradients you want, e.g. grad(y, [w, b])."
        ),
        "zh": (
            "inputs 必须是一个张量或一个张量列表，这里得到的是 {kind}。请传入你想求梯度的张量，"
            "例如 grad(y, [w, b])。"
        ),
    },
    "inputs a module": {
        "en": (
            "inputs is a module ({kind}), but grad takes the tensors themselves. For the "
            "gradients of its parameters, pass them as a list: grad(loss, "
            "list(model.parameters()))."
        ),
        "zh": (
            "inputs 是一个模块（{kind}），而 grad() 要的是张量本身。想求它的参数的梯度，请把"
            "参数作为列表传入：grad(loss, list(model.parameters()))。"
        ),
    },
    "input a module": {
        "en": (
            "inputs[{position}] is a module ({kind}), not a tensor. For the gradients of its "
            "parameters, pass them: grad(loss, list(model.parameters()))."
        ),
        "zh": (
            "inputs[{position}] 是一个模块（{kind}），不是张量。想求它的参数的梯度，请传入它的"
            "参数：grad(loss, list(model.parameters()))。"
        ),
    },
    "inputs a dict": {
        "en": (
            "inputs is a {kind}, but grad takes a tensor or a list of tensors (going through a "
            "dict gives its keys). Pass its values: grad(loss, list(d.values())), d being your "
            "dict. For a model's parameters, pass list(model.parameters()): the tensors of "
            "state_dict() do not require grad."
        ),
        "zh": (
            "inputs 是一个 {kind}，而 grad() 接收的是一个张量或一个张量列表（遍历字典只会得到"
            "它的键）。请传入它的值：grad(loss, list(d.values()))，其中 d 是你的字典。想求模型"
            "参数的梯度，请传入 list(model.parameters())：state_dict() 里的张量不需要梯度。"
        ),
    },
    "inputs named pairs": {
        "en": (
            "inputs holds (name, tensor) pairs, as model.named_parameters() gives, but grad takes "
            "the tensors alone. Pass [p for _, p in model.named_parameters()], or "
            "list(model.parameters())."
        ),
        "zh": (
            "inputs 里是（名字，张量）二元组，就像 model.named_parameters() 给出的那样，而 "
            "grad() 只要张量本身。请传入 [p for _, p in model.named_parameters()]，或者 "
            "list(model.parameters())。"
        ),
    },
    "input not a tensor": {
        "en": "inputs[{position}] must be a tensor, got {kind}.",
        "zh": "inputs[{position}] 必须是张量，这里得到的是 {kind}。",
    },
    "input needs no grad": {
        "en": (
            "inputs[{position}] does not require grad, so no gradient flows to it. Create it "
            "with requires_grad=True (or call .requires_grad_() on it)."
        ),
        "zh": (
            "inputs[{position}] 不需要梯度，所以没有梯度流向它。请用 requires_grad=True "
            "创建它（或者对它调用 .requires_grad_()）。"
        ),
    },
    "graph too large": {
        "en": (
            "This graph has more than {most:,} autograd nodes, and trace and grad look at every "
            "one: {why}. Trace a smaller graph (fewer layers or steps); output.backward() has no "
            "such limit."
        ),
        "zh": (
            "这张计算图有超过 {most:,} 个 autograd 节点，而 trace() 和 grad() "
            "要查看其中的每一个：{why}。请追踪一张更小的图（更少的层或步数）；output.backward() "
            "没有这个限制。"
        ),
    },
    # What PyTorch's engine refused, said so that a learner can act on it.
    "graph freed": {
        "en": (
            "This graph was already used by a backward pass, which freed the tensors its nodes "
            "saved. Run the forward computation again to rebuild the graph, or keep it the first "
            "time with retain_graph=True: y.backward(retain_graph=True), or trace(y, "
            "retain_graph=True)."
        ),
        "zh": (
            "这张计算图已经被一次反向传播用过了，那次反向传播释放了节点保存的张量。"
            "请重新运行前向计算来重建计算图，或者第一次就用 retain_graph=True 把它保留下来："
            "y.backward(retain_graph=True)，或 trace(y, retain_graph=True)。"
        ),
    },
    "reentrant checkpoint": {
        "en": (
            "This graph holds a reentrant checkpoint (torch.utils.checkpoint with "
            "use_reentrant=True), and PyTorch's engine refuses to run one for "
            "torch.autograd.grad: its backward starts a backward pass of its own, which writes "
            "into .grad. grad refuses too, before anything is written. Use output.backward() or "
            "trace(output); or checkpoint with use_reentrant=False and call torch.autograd.grad "
            "(grad refuses that kind of checkpoint too: it would run the forward again)."
        ),
        "zh": (
            "这张计算图里有一个可重入的检查点（torch.utils.checkpoint 加上 use_reentrant=True），"
            "而 PyTorch 的引擎拒绝为 torch.autograd.grad 运行它：它的 backward "
            "会自己再启动一次反向传播，并写入 .grad。grad() 也拒绝运行，"
            "而且是在写入任何东西之前。请改用 output.backward() 或 trace(output)；或者用 "
            "use_reentrant=False 做检查点，再调用 torch.autograd.grad（这种检查点 grad() "
            "也会拒绝：它会让前向计算多运行几次）。"
        ),
    },
    "checkpoint recomputes": {
        "en": (
            "This graph holds a checkpoint (torch.utils.checkpoint with use_reentrant=False; "
            "{node} saved what it needs through it), whose forward runs again when a backward "
            "pass needs what it saved. grad goes through the graph twice, in PyTorch's engine "
            "and in its own, so your forward would run more often than with torch.autograd.grad, "
            "repeating its side effects (prints, BatchNorm's running statistics). So grad "
            "refuses, before running anything. Use torch.autograd.grad(output, inputs), or "
            "trace(output) to watch the pass."
        ),
        "zh": (
            "这张计算图里有一个检查点（torch.utils.checkpoint 加上 use_reentrant=False；节点 "
            "{node} 通过它保存了所需的张量），反向传播需要这些张量时，它会重新运行前向计算。"
            "grad() 要把计算图走两遍：一遍在 PyTorch 的引擎里，一遍在它自己的引擎里，所以你的前向"
            "计算会比用 torch.autograd.grad 时多运行，它的副作用（打印、BatchNorm 的滑动统计量）"
            "也会重复。所以 grad() 拒绝运行，而且是在运行任何东西之前。请改用 "
            "torch.autograd.grad(output, inputs)，或者用 trace(output) 观察这次反向传播。"
        ),
    },
    "unpack hook runs again": {
        "en": (
            "{node} saved a tensor through torch.autograd.graph.saved_tensors_hooks, whose "
            "unpack hook ({hook}) runs each time the tensor is used. grad goes through the graph "
            "twice, in PyTorch's engine and in its own, so your hook would run more often than "
            "with torch.autograd.grad. So grad refuses, before running anything. Use "
            "torch.autograd.grad(output, inputs), or trace(output) to watch the pass."
        ),
        "zh": (
            "节点 {node} 通过 torch.autograd.graph.saved_tensors_hooks 保存了张量，每次用到这个"
            "张量时，它的解包钩子（{hook}）都会运行。grad() 要把计算图走两遍：一遍在 PyTorch "
            "的引擎里，一遍在它自己的引擎里，所以你的钩子会比用 torch.autograd.grad 时运行更多次。"
            "所以 grad() 拒绝运行，而且是在运行任何东西之前。请改用 "
            "torch.autograd.grad(output, inputs)，或者用 trace(output) 观察这次反向传播。"
        ),
    },
    "backward failed again": {
        "en": (
            "{node}'s backward ran without error in PyTorch's pass, then raised {kind} when grad "
            "ran it again: {error}. grad runs a custom Function's backward twice, once in each "
            "engine, so backward must not use up what it reads: take what forward left on ctx "
            "without changing it (no pop() from a list, no del). Or use torch.autograd.grad, "
            "which runs it once."
        ),
        "zh": (
            "{node} 的 backward 在 PyTorch 的那一遍里运行正常，grad() 再运行它一次时却抛出了 "
            "{kind}：“{error}”。grad() 会把自定义 Function 的 backward 运行两次，两个引擎各一次，"
            "所以 backward 不能把它读取的东西用掉：读取 forward 留在 ctx 上的东西时不要改动它"
            "（不要从列表里 pop()，也不要 del）。或者改用 torch.autograd.grad，它只运行一次。"
        ),
    },
    "wrong number of gradients": {
        "en": (
            "{error}. A custom Function's backward returns one gradient per argument of forward, "
            "None where there is none."
        ),
        "zh": (
            "PyTorch 报错：“{error}”。自定义 Function 的 backward 要为 forward "
            "的每个参数各返回一个梯度，没有梯度的参数返回 None。"
        ),
    },
    "too few gradients": {
        "en": (
            "{node}: backward returned {returned} gradients, but forward took {took} arguments. "
            "Return one per argument, None where there is none."
        ),
        "zh": (
            "{node}：backward 返回了 {returned} 个梯度，但 forward 接收了 {took} 个参数。"
            "请为每个参数返回一个梯度，没有梯度的参数返回 None。"
        ),
    },
    # CannotMatchPyTorch: the refusal, what happened where ({what}), who did it ({culprit}).
    "refuses": {
        "en": "grad cannot give PyTorch's answer here, so it refuses. {reason}",
        "zh": "grad() 在这里给不出 PyTorch 的答案，所以拒绝作答。{reason}",
    },
    "received other": {
        "en": "At {node}, PyTorch's engine received {received} where {sent} had been sent to it:",
        "zh": (
            "节点 {node}，在 PyTorch 的引擎中收到的梯度（{received}）与发给它的梯度（{sent}）不同："
        ),
    },
    "sent other": {
        "en": (
            "At {node}, PyTorch's engine sent on {theirs}, but the node computes {ours} from "
            "what it received:"
        ),
        "zh": (
            "节点 {node}，在 PyTorch 的引擎中传出的梯度（{theirs}）与它根据收到的梯度算出的结果"
            "（{ours}）不同："
        ),
    },
    "handed back other": {
        "en": "For {name}, PyTorch's engine handed back {theirs} where {mine} had arrived:",
        "zh": "对于 {name}，PyTorch 的引擎交回的梯度（{theirs}）与到达的梯度（{mine}）不同：",
    },
    "changed it": {
        "en": "{what} {culprit} changed it. {no_hooks}",
        "zh": "{what}是{culprit}改变了它。{no_hooks}",
    },
    "changed it, or zeros for None": {
        "en": (
            "{what} {culprit} changed it, or its Function called "
            "ctx.set_materialize_grads(False) and the by-hand engine handed backward zeros where "
            "PyTorch hands it None. {no_hooks}"
        ),
        "zh": (
            "{what}要么是{culprit}改变了它，要么是它的 Function 调用了 "
            "ctx.set_materialize_grads(False)：在没有梯度到达的地方，PyTorch 交给 backward 的是 "
            "None，手写引擎交的却是零。{no_hooks}"
        ),
    },
    "changed it, legacy module hook": {
        "en": (
            "{what} {culprit} changed it: a hook registered with the old "
            "Module.register_backward_hook, which PyTorch runs as a hook on the node that "
            "computed the module's output, and which sees only that node's gradients. "
            "{no_hooks} Register it with register_full_backward_hook, which sees the gradients "
            "of the module's inputs and outputs."
        ),
        "zh": (
            "{what}是{culprit}改变了它：这是用旧的 Module.register_backward_hook 注册的钩子，"
            "PyTorch 把它作为钩子挂在计算出模块输出的那个节点上，它只看得到这个节点的梯度。"
            "{no_hooks}请改用 register_full_backward_hook 注册它，这样它看到的是模块输入和输出的"
            "梯度。"
        ),
    },
    "no hooks": {
        "en": (
            "The by-hand engine calls each node directly, which runs no hooks. For the answer "
            "with the hooks, use torch.autograd.grad; to see where they act, trace(output, "
            "retain_graph=True)."
        ),
        "zh": (
            "手写引擎直接调用每个节点，这样不会运行任何钩子。想要包含钩子作用的答案，请用 "
            "torch.autograd.grad；想看钩子在哪里起作用，请用 trace(output, retain_graph=True)。"
        ),
    },
    "sparse sums": {
        "en": (
            "{what} it is a sparse gradient (rows and their values), and PyTorch's engine adds "
            "sparse gradients that meet at a node in an order of its own, which the by-hand "
            "engine does not copy, so the sums differ in the last bits. Use torch.autograd.grad."
        ),
        "zh": (
            "{what}这是一个稀疏梯度（若干行和它们的值）。在同一个节点汇合的稀疏梯度，PyTorch "
            "的引擎按它自己的顺序相加，手写引擎没有照搬这个顺序，所以两个和在最后几位上不同。"
            "请用 torch.autograd.grad。"
        ),
    },
    "cannot tell why": {
        "en": "{what} it cannot tell why. Use torch.autograd.grad.",
        "zh": "{what}grad() 说不出原因。请用 torch.autograd.grad。",
    },
    "not deterministic": {
        "en": (
            "{node} gave different bits when called twice on the same gradients: its backward is "
            "not deterministic here, so the by-hand answer cannot be checked against PyTorch's. "
            "Use torch.autograd.grad, or call torch.use_deterministic_algorithms(True) first."
        ),
        "zh": (
            "{node} 对同样的梯度调用两次，得到的结果并非逐位相同：它的 backward "
            "在这里不是确定性的，所以无法拿手写引擎的答案与 PyTorch 的答案对照。请用 "
            "torch.autograd.grad，或者先调用 torch.use_deterministic_algorithms(True)。"
        ),
    },
    "not deterministic, even so": {
        "en": (
            "{node} gave different bits when called twice on the same gradients, although "
            "torch.use_deterministic_algorithms(True) is on: its backward draws random numbers "
            "or reads state that changes, so the by-hand answer cannot be checked against "
            "PyTorch's. Use torch.autograd.grad, or make that backward depend only on what it "
            "receives and on what forward saved."
        ),
        "zh": (
            "{node} 对同样的梯度调用两次，得到的结果并非逐位相同，尽管 "
            "torch.use_deterministic_algorithms(True) 已经打开：它的 backward 用到了随机数，"
            "或者读取了会变化的状态，所以无法拿手写引擎的答案与 PyTorch 的答案对照。请用 "
            "torch.autograd.grad，或者让这个 backward 只依赖它收到的梯度和 forward 保存的东西。"
        ),
    },
    "built in threads": {
        "en": (
            "{what} parts of this graph were built in different threads (nodes {nodes} share a "
            "sequence number, and each thread numbers its operations from its own counter). "
            "PyTorch's engine runs nodes of equal number in an order of its own, which the "
            "by-hand engine does not copy, so gradients meeting at a node are added in another "
            "order and differ in the last bits. Build the whole graph in one thread, or use "
            "torch.autograd.grad."
        ),
        "zh": (
            "{what}这张计算图的各部分是在不同线程里构建的（节点 {nodes} 的序号相同：每个线程都用"
            "自己的计数器给操作编号）。对序号相同的节点，PyTorch 的引擎按它自己的顺序运行，手写"
            "引擎没有照搬这个顺序，所以在同一个节点汇合的梯度相加的顺序不同，结果在最后几位上"
            "不同。请在同一个线程里构建整张计算图，或者改用 torch.autograd.grad。"
        ),
    },
    "tensor or pre-hook": {
        "en": (
            "a hook on the tensor it computed (tensor.register_hook) or on the node itself "
            "(grad_fn.register_prehook)"
        ),
        "zh": (
            "它算出的张量上的钩子（tensor.register_hook）或这个节点自己的前置钩子（"
            "grad_fn.register_prehook）"
        ),
    },
    "post-hook": {
        "en": (
            "a hook registered on that node with grad_fn.register_hook (it runs after the node "
            "and may replace what it sends)"
        ),
        "zh": (
            "用 grad_fn.register_hook 注册在这个节点上的后置钩子（它在节点之后运行，"
            "可以替换节点传出的梯度）"
        ),
    },
    "tensor hook": {
        "en": "the hook on {name} ({hooks}, registered with {name}.register_hook)",
        "zh": "张量 {name} 上的钩子（{hooks}，用 {name}.register_hook 注册）",
    },
    # Chinese names the module in each entry: "模块 layer 上的反向钩子（double）".
    "module hooks": {"en": "the module backward hook {found}", "zh": "{found}"},
    "module hook on": {"en": "on {path} ({hook})", "zh": "模块 {path} 上的反向钩子（{hook}）"},
    "a module hook": {
        "en": "a module's backward hook (register_full_backward_hook or its _pre_hook)",
        "zh": "某个模块的反向钩子（register_full_backward_hook 或对应的 _pre_hook）",
    },
    "a lambda": {"en": "a lambda", "zh": "一个 lambda 函数"},
    "module hooks node": {
        "en": "BackwardHookFunctionBackward (a node nn.Module adds for its backward hooks)",
        "zh": "BackwardHookFunctionBackward（nn.Module 为它的反向钩子加入了这个节点）",
    },
    "node that computed": {
        "en": "{node} (the node that computed {tensor})",
        "zh": "{node}（它计算出了 {tensor}）",
    },
    "tensor of shape": {"en": "a tensor of shape {shape}", "zh": "形状为 {shape} 的张量"},
    "different values": {"en": "different values", "zh": "形状相同、数值不同的张量"},
    "list separator": {"en": "; ", "zh": "；"},
    "name separator": {"en": ", ", "zh": "、"},
}
MESSAGES = Catalogue("helpers.backward", _TEXTS)

"""The backward pass, step by step: a trace of PyTorch's own engine, and an engine written by hand.

``trace(y)`` runs ``y.backward()`` and records, through hooks on the graph's Nodes, every node
PyTorch's engine ran, in the order it ran them, with the gradients that came in and went out.

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

import heapq
import inspect
import itertools
import sys
import threading
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import torch
from torch.autograd.function import BackwardCFunction
from torch.autograd.graph import GradientEdge, Node, get_gradient_edge

from helpers._graph_model import gradient_edge, walk, why_nodes_safe_to_see
from helpers.graph import NODES_SAFE_TO_SEE, named_tensors
from helpers.language import Catalogue

__all__ = ["CannotMatchPyTorch", "Step", "Trace", "trace", "grad"]

Gradients = tuple[torch.Tensor | None, ...]


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
    leaf's ``.grad``. All gradients are detached copies.
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
    """

    def __init__(self, output: torch.Tensor, steps: Iterable[Step]) -> None:
        self.output = output
        self._steps = tuple(steps)

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


def trace(
    output: torch.Tensor,
    grad_output: torch.Tensor | None = None,
    *,
    retain_graph: bool = False,
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
    """
    # Fail early, with a clear message, before any hook is in place.
    seed = _seed(output, grad_output)
    root = _edge(output)
    consumers = _consumers_of_each_node(root.node)
    with _watching(consumers) as runs, _friendly_errors():
        output.backward(grad_output, retain_graph=retain_graph)
    arrived = _what_arrived(runs, root, seed, consumers)
    return Trace(
        output,
        (
            Step(run.node, _short_name(run.node), run.received, run.sent, arrived_here)
            for run, arrived_here in zip(runs, arrived, strict=True)
        ),
    )


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

    Side effects are those of ``torch.autograd.grad``: your hooks run once (in PyTorch's pass),
    a tensor that called ``retain_grad()`` gets its ``.grad``, no leaf's ``.grad`` changes; only
    a custom Function's ``backward`` runs twice, once in each engine. What PyTorch's engine
    refuses, grad refuses, with its reason (a reentrant checkpoint, for one, before anything is
    written), and so does a graph of more than `NODES_SAFE_TO_SEE` Nodes. Unlike PyTorch, it
    leaves the graph intact. Read ``_backward_by_hand``: it is the whole algorithm.
    """
    inputs = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
    seed = _seed(output, grad_output)
    _check_inputs(inputs)
    root = _edge(output)
    needed = _ancestors(_where_gradients_stop(inputs), _consumers_of_each_node(root.node))

    with _watching(needed) as runs, _friendly_errors():
        pytorchs = torch.autograd.grad(
            output, inputs, grad_output, retain_graph=True, allow_unused=True
        )
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
    """One run of a node by PyTorch's engine, as hooks on the node saw it."""

    node: Node
    nested: bool  # run by a backward pass started inside another watched node's backward
    received: Gradients = ()  # as it started: after tensor hooks and pre-hooks, before it ran
    sent: Gradients = ()  # after the node's post-hooks: what went on to next_functions


@contextmanager
def _watching(nodes: Iterable[Node]) -> Iterator[list[_Run]]:
    """Watch PyTorch's engine run ``nodes``: yields the list of runs, in the order they started,
    which fills as the engine works. The watching hooks are removed afterwards, even on error."""
    runs: list[_Run] = []
    # Per thread (a GPU's nodes run in a thread of their own), the runs started and not yet
    # finished: more than one while a node's backward runs a backward pass of its own.
    unfinished: dict[int, list[_Run]] = {}

    def on_start(node: Node):
        # A pre-hook runs just before its node, after your tensor hooks and pre-hooks: the order
        # of `runs` is the engine's order, and what it copies is what the node received. Copied
        # here, not afterwards: a node may change its gradient in place while it runs (a custom
        # backward writing zeros into g, a post-accumulate-grad hook zeroing .grad). A copy, and
        # no reference kept: AccumulateGrad keeps the very tensor it receives as .grad only when
        # nothing else holds it.
        def hook(grad_outputs):
            running = unfinished.setdefault(threading.get_ident(), [])
            with _unseen_by_the_profiler():
                received = _copies(grad_outputs)
            run = _Run(node, nested=bool(running), received=received)
            runs.append(run)
            running.append(run)

        return hook

    def on_finish(node: Node):
        # Registered after every hook of yours: it sees what the node sent on after the hooks
        # that run after it.
        def hook(grad_inputs, grad_outputs):
            run = unfinished[threading.get_ident()].pop()
            run.sent = _copies(grad_inputs)

        return hook

    handles = []
    try:
        for node in nodes:
            handles.append(node.register_prehook(on_start(node)))
            handles.append(node.register_hook(on_finish(node)))
        yield runs
    finally:
        for handle in handles:
            handle.remove()


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
) -> list[Gradients | None]:
    """For each run, what the nodes before it sent it, summed in the order it arrived, as
    PyTorch's engine sums it before any hook runs; None where not every edge into it was seen."""
    edges_into = {node: len(feeding) for node, feeding in consumers.items()}
    edges_into[root.node] += 1  # the seed comes along an edge of its own
    sums: dict[Node, list[torch.Tensor | None]] = {}
    edges_seen = {root.node: 1}
    arrived: list[Gradients | None] = []
    with torch.no_grad():
        _accumulate(sums, root.node, root.output_nr, seed)
        for run in runs:
            if run.nested:  # a nested backward pass keeps gradients of its own, unseen here
                arrived.append(None)
                continue
            grads = tuple(_take_arrived(sums, run.node))
            complete = edges_seen.pop(run.node, 0) == edges_into.get(run.node)
            arrived.append(grads if complete else None)
            # A node that ran to the end sent its gradients on (in the order of its edges).
            for (next_node, slot), g in zip(run.node.next_functions, run.sent, strict=False):
                if next_node in edges_into:
                    edges_seen[next_node] = edges_seen.get(next_node, 0) + 1
                    if g is not None:
                        _accumulate(sums, next_node, slot, g)
    return arrived


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
            return _changed_on_the_way_in(run, arrived, namespace)
        if not run.node.next_functions:
            continue  # AccumulateGrad sends nothing on (and calling it would write to .grad)
        computed = _replay(run, needed)
        sent = _needed_only(run.node, run.sent, needed)
        if not _same_bits(computed, sent):
            if not _same_bits(computed, _replay(run, needed)):
                return _not_deterministic(run)
            return _changed_on_the_way_out(run, computed, sent, namespace)
    position = _first_different(ours, pytorchs)
    return _changed_after_arriving(inputs[position], position, ours, pytorchs, namespace)


def _refuses(reason: str, **blanks: object) -> str:
    """grad's refusal: it cannot give PyTorch's answer, then the text ``reason`` says why."""
    return MESSAGES.say("refuses", reason=MESSAGES.say(reason, **blanks))


def _hook_changed_it(what: str, culprit: str, reason: str = "changed it") -> str:
    """The refusal for a gradient a hook changed: what happened, who did it, what to use."""
    return _refuses(reason, what=what, culprit=culprit, no_hooks=MESSAGES.say("no hooks"))


def _replay(run: _Run, needed: set[Node]) -> Gradients:
    """What the by-hand engine's rules make ``run.node`` send on from what it received."""
    with torch.no_grad():
        # Copies: a node may write into the gradients it is given, and `run.received` is a record.
        grads_out = _run(run.node, list(_copies(run.received)))
        fitted = [
            None if g is None or next_node is None else _fit(g, next_node, slot)
            for (next_node, slot), g in zip(run.node.next_functions, grads_out, strict=True)
        ]
    return _needed_only(run.node, fitted, needed)


def _needed_only(node: Node, grads_out: Sequence, needed: set[Node]) -> Gradients:
    # PyTorch's engine computes no gradient for an edge that leads to no input: compare the rest.
    edges = node.next_functions
    return tuple(g if n in needed else None for (n, _), g in zip(edges, grads_out, strict=True))


def _changed_on_the_way_in(run: _Run, arrived: Gradients, namespace: dict) -> str:
    slot = _first_different(arrived, run.received)
    received, sent = _two_values(run.received[slot], arrived[slot])
    node = _node_label(run.node, namespace)
    what = MESSAGES.say("received other", node=node, received=received, sent=sent)
    if _short_name(run.node) == "BackwardHookFunctionBackward":
        return _hook_changed_it(what, _module_hooks(namespace))
    hooks = [
        _hooks_of_tensor(tensor, name)
        for name, tensor in _tensors(namespace)
        if tensor.grad_fn is run.node and tensor.output_nr == slot and tensor._backward_hooks
    ]
    culprit = MESSAGES.say("list separator").join(hooks) or MESSAGES.say("tensor or pre-hook")
    return _hook_changed_it(what, culprit)


def _changed_on_the_way_out(
    run: _Run, computed: Gradients, sent: Gradients, namespace: dict
) -> str:
    edge = _first_different(computed, sent)
    theirs, ours = _two_values(sent[edge], computed[edge])
    node = _node_label(run.node, namespace)
    what = MESSAGES.say("sent other", node=node, theirs=theirs, ours=ours)
    if _short_name(run.node) == "BackwardHookFunctionBackward":
        return _hook_changed_it(what, _module_hooks(namespace))
    if isinstance(run.node, BackwardCFunction) and any(g is None for g in run.received):
        return _hook_changed_it(what, MESSAGES.say("post-hook"), "changed it, or zeros for None")
    return _hook_changed_it(what, MESSAGES.say("post-hook"))


def _changed_after_arriving(
    tensor: torch.Tensor, position: int, ours: Gradients, pytorchs: Gradients, namespace: dict
) -> str:
    name = _name_of(tensor, namespace) or f"inputs[{position}]"
    theirs, mine = _two_values(pytorchs[position], ours[position])
    what = MESSAGES.say("handed back other", name=name, theirs=theirs, mine=mine)
    if tensor._backward_hooks:
        return _hook_changed_it(what, _hooks_of_tensor(tensor, name))
    if pytorchs[position] is not None and pytorchs[position].is_sparse:
        return _refuses("sparse sums", what=what)
    return _refuses("cannot tell why", what=what)


def _not_deterministic(run: _Run) -> str:
    return _refuses("not deterministic", node=_short_name(run.node))


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


def _module_hooks(namespace: dict) -> str:
    found = []
    for name, value in namespace.items():
        try:
            if isinstance(value, torch.nn.Module) and not name.startswith("_"):
                for path, module in value.named_modules(prefix=name):
                    hooks = [*module._backward_hooks.values(), *module._backward_pre_hooks.values()]
                    found.extend(
                        MESSAGES.say("module hook on", path=path, hook=_describe_hook(hook))
                        for hook in hooks
                    )
        except Exception:  # noqa: BLE001 - a broken object in the namespace names no hook
            continue
    if not found:
        return MESSAGES.say("a module hook")
    return MESSAGES.say("module hooks", found=MESSAGES.say("list separator").join(found))


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
    if not isinstance(output, torch.Tensor):
        message = MESSAGES.say("output not a tensor", kind=type(output).__name__)
        raise TypeError(message)
    if not output.requires_grad:
        message = MESSAGES.say("no graph")
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


def _check_inputs(inputs: tuple) -> None:
    if not inputs:
        message = MESSAGES.say("no inputs")
        raise ValueError(message)
    for position, tensor in enumerate(inputs):
        if not isinstance(tensor, torch.Tensor):
            kind = type(tensor).__name__
            message = MESSAGES.say("input not a tensor", position=position, kind=kind)
            raise TypeError(message)
        if not tensor.requires_grad:
            message = MESSAGES.say("input needs no grad", position=position)
            raise ValueError(message)


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
    if a.layout != torch.strided:  # sparse: compare what the entries hold
        a, b = a.to_dense(), b.to_dense()
    if a.device.type == "meta" or b.device.type == "meta":
        return a.device == b.device  # no values to compare
    # Bits, not values: torch.equal calls -0.0 and 0.0 equal, and NaN unequal to itself.
    # A fresh copy with plain strides: an expanded gradient's stride 0 cannot be viewed as bytes.
    flat = [t.detach().reshape(-1).clone(memory_format=torch.contiguous_format) for t in (a, b)]
    as_bytes = [t.view(torch.uint8) for t in flat]
    return torch.equal(*as_bytes)


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
            "into .grad. grad refuses too, before anything is written. Checkpoint with "
            "use_reentrant=False, or use output.backward() or trace(output)."
        ),
        "zh": (
            "这张计算图里有一个可重入的检查点（torch.utils.checkpoint 加上 use_reentrant=True），"
            "而 PyTorch 的引擎拒绝为 torch.autograd.grad 运行它：它的 backward "
            "会自己再启动一次反向传播，并写入 .grad。grad() 也拒绝运行，"
            "而且是在写入任何东西之前。请用 use_reentrant=False 做检查点，或者改用 "
            "output.backward() 或 trace(output)。"
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

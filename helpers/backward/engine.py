"""The backward pass written by hand: the engine `grad` runs, whose code notebook 08 prints.

``backward_by_hand(output, inputs, seed)`` computes the gradients of ``output`` with respect to
``inputs`` over the Nodes PyTorch recorded, as PyTorch's engine does: count each node's
dependencies (the edges into it), seed the output's gradient, run every node once all of its
gradients have arrived. Of the nodes ready to run it takes the one PyTorch's engine would take
(`ReadyNodes`), so that gradients meeting at a node are summed in the same order, to the last bit.
It calls the Nodes directly, which runs none of their hooks.

The rest of the package reads the graph through the functions here (`gradient_edge_of`,
`consumers_of_each_node`, `ancestors`, `short_name`) and runs a node as this engine does
(`run_node`, `fit_to_slot`).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager

import torch
from torch.autograd.function import BackwardCFunction
from torch.autograd.graph import GradientEdge, Node, get_gradient_edge

from helpers.backward.gradients import Gradients
from helpers.backward.messages import MESSAGES
from helpers.graph import NODES_SAFE_TO_SEE
from helpers.graph.model import gradient_edge, walk, why_nodes_safe_to_see


def backward_by_hand(
    output: torch.Tensor, inputs: Sequence[torch.Tensor], seed: torch.Tensor
) -> Gradients:
    """The gradients of ``output`` with respect to ``inputs``, starting from ``seed``: the
    backward pass written by hand. It calls the Nodes directly, so it runs no hooks."""
    root = get_gradient_edge(output)
    # An input's gradient is whatever arrives at its edge: slot `output_nr` of `node` (for a leaf,
    # its AccumulateGrad node). That is where the walk stops.
    stops = where_gradients_stop(inputs)

    # Every node reachable from the output, and the nodes that feed it. A node is ready once a
    # gradient has arrived along each edge into it: its dependency count is the number of edges.
    consumers = consumers_of_each_node(root.node)
    dependencies = {node: len(feeding) for node, feeding in consumers.items()}
    # Like PyTorch, run only the nodes on a path from the output to an input.
    needed = ancestors(stops, consumers)

    arrived: dict[Node, list[torch.Tensor | None]] = {}  # per node, a gradient for each output
    accumulate(arrived, root.node, root.output_nr, seed)
    ready = ReadyNodes(root.node)
    found: list[torch.Tensor | None] = [None] * len(inputs)
    # The backward pass itself is not recorded as a graph (as with create_graph=False).
    with torch.no_grad():
        while ready:
            node = ready.pop()  # the one PyTorch's engine would run next
            grads_in = take_arrived(arrived, node)
            for slot, position in stops.get(node, []):
                found[position] = grads_in[slot]
            if not _leads_to_an_input(node, needed):
                continue  # nothing needed beyond this input (AccumulateGrad is never run)
            grads_out = run_node(node, grads_in)
            for (next_node, slot), g in zip(node.next_functions, grads_out, strict=True):
                if next_node not in needed:
                    continue
                if g is not None:
                    accumulate(arrived, next_node, slot, g)
                dependencies[next_node] -= 1
                if dependencies[next_node] == 0:
                    ready.push(next_node)
    return tuple(found)


class ReadyNodes:
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


def where_gradients_stop(inputs: Sequence[torch.Tensor]) -> dict[Node, list[tuple[int, int]]]:
    """For each node where an input's gradient arrives: ``(slot, position in inputs)`` pairs."""
    stops: dict[Node, list[tuple[int, int]]] = {}
    for position, tensor in enumerate(inputs):
        edge = gradient_edge_of(tensor)
        stops.setdefault(edge.node, []).append((edge.output_nr, position))
    return stops


def gradient_edge_of(tensor: torch.Tensor) -> GradientEdge:
    """Where a gradient for ``tensor`` arrives, as `torch.autograd.graph.get_gradient_edge`
    answers, also for a sparse leaf and from inside torch.inference_mode()."""
    return GradientEdge(*gradient_edge(tensor))


def consumers_of_each_node(root: Node) -> dict[Node, list[Node]]:
    """Every node reachable from ``root``, mapped to the nodes with an edge into it (per edge).

    Refuses a graph of more than `NODES_SAFE_TO_SEE` nodes, before looking at more of them.
    """
    walked = walk([root])  # the one walk every helper makes: iterative, bounded, Nodes held
    if walked.found_beyond:
        raise ValueError(
            MESSAGES.say("graph too large", most=NODES_SAFE_TO_SEE, why=why_nodes_safe_to_see())
        )
    consumers: dict[Node, list[Node]] = {node: [] for node in walked.nodes}
    for node in walked.nodes:
        for next_node, _ in node.next_functions:
            if next_node is not None:  # None: an input that does not require grad
                consumers[next_node].append(node)
    return consumers


def ancestors(stops: Iterable[Node], consumers: dict[Node, list[Node]]) -> set[Node]:
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


def take_arrived(arrived: dict, node: Node) -> list[torch.Tensor | None]:
    """What arrived for each output of ``node`` (None where nothing did), taken out of ``arrived``.

    A node whose consumers all sent None still runs, as in PyTorch: a custom ``backward`` then
    gets zeros, and may send something on."""
    if node in arrived:
        return arrived.pop(node)
    return [None] * len(node._input_metadata)


def accumulate(arrived: dict, node: Node, slot: int, g: torch.Tensor) -> None:
    """Add ``g`` to the gradient arrived for output ``slot`` of ``node``: gradients arriving from
    several consumers are summed."""
    slots = arrived.setdefault(node, [None] * len(node._input_metadata))
    g = fit_to_slot(g, node, slot)
    if slots[slot] is None:
        slots[slot] = g
    else:
        slots[slot] = slots[slot] + g


def fit_to_slot(g: torch.Tensor, node: Node, slot: int) -> torch.Tensor:
    """``g`` made to fit output ``slot`` of ``node``, as PyTorch's engine (not the node) does."""
    # `_input_metadata` describes each output of the node's forward operation: one slot each.
    expected = node._input_metadata[slot]
    # A broadcast tensor (b in `w * x + b`) gets a gradient of the broadcast shape: summed back.
    if g.shape != torch.Size(expected.shape):
        g = g.sum_to_size(expected.shape)
    return g.to(expected.dtype)


def run_node(node: Node, grads_in: list[torch.Tensor | None]) -> Gradients:
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


# --- a custom backward that fails when it runs again ----------------------------------------------


class CannotMatchPyTorch(RuntimeError):
    """`grad` refuses: its by-hand answer would not be PyTorch's. The message says where and why."""


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


# --- names ----------------------------------------------------------------------------------------


def short_name(node: Node) -> str:
    return node.name().removeprefix("torch::autograd::")

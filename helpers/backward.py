"""The backward pass, step by step: a trace of PyTorch's own engine, and an engine written by hand.

``trace(y)`` runs ``y.backward()`` and records, through hooks on the graph's Nodes, every node
PyTorch's engine ran, in the order it ran them, with the gradients that came in and went out.

``grad(y, inputs)`` computes what ``torch.autograd.grad`` computes, in a few dozen lines of Python
over the same Nodes, so that the algorithm can be read: count each node's dependencies, seed the
output's gradient, run every node once all of its gradients have arrived.

A word on names. PyTorch names a Node's gradients from the forward pass's point of view:
``grad_outputs`` are the gradients with respect to the node's outputs, which flow *into* the node
during backward, and ``grad_inputs`` those with respect to its inputs, which it sends *on* to its
``next_functions``. Here they are ``grads_in`` and ``grads_out``: named by the way they travel.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass

import torch
from torch.autograd.function import BackwardCFunction
from torch.autograd.graph import Node, get_gradient_edge

__all__ = ["Step", "Trace", "trace", "grad"]

Gradients = tuple[torch.Tensor | None, ...]


@dataclass(frozen=True, eq=False)
class Step:
    """One node the engine ran: what came in, and what it sent to each of its ``next_functions``.

    ``grads_in[i]`` is the gradient with respect to the node's i-th output (None if none arrived).
    ``grads_out[i]`` is what it sent to ``node.next_functions[i]`` (None where that entry is None:
    an input that does not require grad). ``AccumulateGrad``, the node of a leaf, sends nothing on:
    it adds its gradient to the leaf's ``.grad``. All gradients are detached copies.
    """

    node: Node
    name: str
    grads_in: Gradients
    grads_out: Gradients

    @property
    def sent(self) -> list[tuple[Node, torch.Tensor | None]]:
        """``(next node, gradient sent to it)`` for each entry of ``next_functions`` with a node."""
        nexts = [next_node for next_node, _ in self.node.next_functions]
        return [(n, g) for n, g in zip(nexts, self.grads_out, strict=True) if n is not None]


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

    Afterwards the leaves' ``.grad`` are exactly as after ``output.backward(grad_output)``.
    ``grad_output``, of output's shape, is the gradient to start from when output is not a single
    number. ``retain_graph=True`` keeps the graph for another backward pass (or for ``grad``).
    """
    _seed(output, grad_output)  # fail early, with a clear message, before any hook is in place
    started: list[Node] = []
    finished: dict[Node, tuple[Gradients, Gradients]] = {}

    def on_start(node: Node):
        # A pre-hook runs just before its node: the order of `started` is the engine's order.
        return lambda grad_outputs: started.append(node)

    def on_finish(node: Node):
        # A post-hook sees what the node received and what it sent on (in PyTorch's naming).
        def hook(grad_inputs, grad_outputs):
            finished[node] = (_copies(grad_outputs), _copies(grad_inputs))

        return hook

    handles = []
    try:
        for node in _consumers_of_each_node(get_gradient_edge(output).node):
            handles.append(node.register_prehook(on_start(node)))
            handles.append(node.register_hook(on_finish(node)))
        with _friendly_error_if_graph_freed():
            output.backward(grad_output, retain_graph=retain_graph)
    finally:
        for handle in handles:
            handle.remove()
    return Trace(output, (Step(node, _short_name(node), *finished[node]) for node in started))


def grad(
    output: torch.Tensor,
    inputs: torch.Tensor | Sequence[torch.Tensor],
    grad_output: torch.Tensor | None = None,
) -> Gradients:
    """Gradients of ``output`` with respect to each input, computed by a backward pass by hand.

    The result of ``torch.autograd.grad(output, inputs, grad_output, allow_unused=True)``: one
    gradient per input, None for an input that does not influence output; no ``.grad`` changes.
    Unlike PyTorch, it leaves the graph intact. Read the source: it is the whole algorithm.
    """
    inputs = (inputs,) if isinstance(inputs, torch.Tensor) else tuple(inputs)
    seed = _seed(output, grad_output)
    _check_inputs(inputs)
    root = get_gradient_edge(output)

    # An input's gradient is whatever arrives at its edge: slot `output_nr` of `node` (for a leaf,
    # its AccumulateGrad node). That is where the walk stops.
    stops: dict[Node, list[tuple[int, int]]] = {}
    for position, tensor in enumerate(inputs):
        edge = get_gradient_edge(tensor)
        stops.setdefault(edge.node, []).append((edge.output_nr, position))

    # Every node reachable from the output, and the nodes that feed it. A node is ready once a
    # gradient has arrived along each edge into it: its dependency count is the number of edges.
    consumers = _consumers_of_each_node(root.node)
    dependencies = {node: len(feeding) for node, feeding in consumers.items()}
    # Like PyTorch, run only the nodes on a path from the output to an input.
    needed = _ancestors(stops, consumers)

    arrived: dict[Node, list[torch.Tensor | None]] = {}  # per node, a gradient for each output
    _accumulate(arrived, root.node, root.output_nr, seed)
    ready = [root.node] if root.node in needed else []
    found: list[torch.Tensor | None] = [None] * len(inputs)
    # The backward pass itself is not recorded as a graph (as with create_graph=False).
    with torch.no_grad(), _friendly_error_if_graph_freed():
        while ready:
            node = ready.pop()  # any ready node will do; PyTorch picks the most recently created
            # Nothing arrived when every consumer sent None (a custom backward may return None
            # for an input): then no gradient flows on from here either.
            grads_in = arrived.pop(node, None)
            for slot, position in stops.get(node, ()) if grads_in is not None else ():
                found[position] = grads_in[slot]
            if not any(next_node in needed for next_node, _ in node.next_functions):
                continue  # nothing needed beyond this input (AccumulateGrad is never run)
            if grads_in is None:
                grads_out = [None] * len(node.next_functions)
            else:
                grads_out = _run(node, grads_in)
            for (next_node, slot), g in zip(node.next_functions, grads_out, strict=True):
                if next_node not in needed:
                    continue
                if g is not None:
                    _accumulate(arrived, next_node, slot, g)
                dependencies[next_node] -= 1
                if dependencies[next_node] == 0:
                    ready.append(next_node)
    return tuple(found)


# --- the pieces `grad` is made of ------------------------------------------------------------


def _consumers_of_each_node(root: Node) -> dict[Node, list[Node]]:
    """Every node reachable from ``root``, mapped to the nodes with an edge into it (per edge)."""
    consumers: dict[Node, list[Node]] = {root: []}
    to_visit = [root]  # a list, not recursion: graphs can be thousands of nodes deep
    while to_visit:
        node = to_visit.pop()
        for next_node, _ in node.next_functions:
            if next_node is None:  # an input that does not require grad
                continue
            if next_node not in consumers:
                consumers[next_node] = []
                to_visit.append(next_node)
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


def _accumulate(arrived: dict, node: Node, slot: int, g: torch.Tensor) -> None:
    """Add ``g`` to the gradient arrived for output ``slot`` of ``node``: gradients arriving from
    several consumers are summed."""
    # `_input_metadata` describes each output of the node's forward operation: one slot each.
    expected = node._input_metadata
    slots = arrived.setdefault(node, [None] * len(expected))
    # PyTorch's engine, not the node, sums a gradient back to the shape of a broadcast tensor
    # (b in `w * x + b`) and casts it to that tensor's dtype.
    if g.shape != torch.Size(expected[slot].shape):
        g = g.sum_to_size(expected[slot].shape)
    g = g.to(expected[slot].dtype)
    slots[slot] = g if slots[slot] is None else slots[slot] + g


def _run(node: Node, grads_in: list[torch.Tensor | None]) -> Gradients:
    """Call one node on its gradients: one gradient back per entry of ``node.next_functions``."""
    if isinstance(node, BackwardCFunction):
        return _run_custom_function(node, grads_in)
    result = node(*grads_in)  # a node with a single next function returns a bare tensor
    return result if isinstance(result, tuple) else (result,)


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
        raise RuntimeError(
            f"{ctx.name()}: backward returned {len(returned)} gradients, but forward took "
            f"{len(needs_grad)} arguments. Return one per argument, None where there is none."
        )
    returned = returned[: len(needs_grad)]  # PyTorch tolerates extra trailing Nones
    needing_grad = iter(g for g, needs in zip(returned, needs_grad, strict=True) if needs)
    return tuple(None if n is None else next(needing_grad) for n, _ in ctx.next_functions)


# --- shared by `trace` and `grad` ------------------------------------------------------------


def _seed(output: torch.Tensor, grad_output: torch.Tensor | None) -> torch.Tensor:
    """The gradient the backward pass starts from, after checking that there is a pass to run."""
    if not isinstance(output, torch.Tensor):
        raise TypeError(f"output must be a tensor, got {type(output).__name__}.")
    if not output.requires_grad:
        raise ValueError(
            "output does not require grad, so there is no graph to go backward through. Compute "
            "it from a tensor with requires_grad=True, and not inside torch.no_grad()."
        )
    if grad_output is None:
        if output.numel() != 1:
            raise ValueError(
                f"output has shape {tuple(output.shape)}, not a single number, so there is no "
                "obvious gradient to start from. Pass grad_output= (a tensor of that shape, e.g. "
                "torch.ones_like(output)), or reduce output to a number first, e.g. output.sum()."
            )
        return torch.ones_like(output)
    if not isinstance(grad_output, torch.Tensor) or grad_output.shape != output.shape:
        raise ValueError(
            f"grad_output must be a tensor of output's shape {tuple(output.shape)}, "
            f"got {_describe(grad_output)}."
        )
    if grad_output.device != output.device:
        raise ValueError(
            f"grad_output is on {grad_output.device} but output is on {output.device}. "
            "Create it where output lives, e.g. torch.ones_like(output), or move it with "
            ".to(output.device)."
        )
    return grad_output.detach()


def _check_inputs(inputs: tuple) -> None:
    for position, tensor in enumerate(inputs):
        if not isinstance(tensor, torch.Tensor):
            raise TypeError(f"inputs[{position}] must be a tensor, got {type(tensor).__name__}.")
        if not tensor.requires_grad:
            raise ValueError(
                f"inputs[{position}] does not require grad, so no gradient flows to it. "
                "Create it with requires_grad=True (or call .requires_grad_() on it)."
            )


@contextmanager
def _friendly_error_if_graph_freed() -> Iterator[None]:
    """Turn PyTorch's error about freed saved tensors into advice a learner can act on."""
    try:
        yield
    except RuntimeError as error:
        if "already been freed" not in str(error):
            raise
        raise RuntimeError(
            "This graph was already used by a backward pass, which freed the tensors its nodes "
            "saved. Run the forward computation again to rebuild the graph, or keep it the first "
            "time with retain_graph=True: y.backward(retain_graph=True), or "
            "trace(y, retain_graph=True)."
        ) from error


def _copies(grads: Iterable[torch.Tensor | None]) -> Gradients:
    # Detached, so no graph is kept alive; cloned, because AccumulateGrad may keep the very tensor
    # it received as `.grad`, and later backward passes add into that in place.
    return tuple(None if g is None else g.detach().clone() for g in grads)


def _short_name(node: Node) -> str:
    return node.name().removeprefix("torch::autograd::")


def _describe(value: object) -> str:
    if isinstance(value, torch.Tensor):
        return f"a tensor of shape {tuple(value.shape)}"
    return type(value).__name__

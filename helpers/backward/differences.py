"""Why `grad`'s two answers differ: where PyTorch's engine did what the by-hand one does not.

Most often a hook did: one that changed a gradient on its way into a node (a tensor's
``register_hook``, a Node's pre-hook, a module's backward hook), one that replaced what a node
sent on (a Node's post-hook), or one on an input. `why_they_differ` goes through the runs the
hooks saw, in the engine's order, computes again what each node received and sent, and says
where they first part, naming the node, the hook and your variables as you wrote them.
"""

from __future__ import annotations

import sys
from collections.abc import Collection, Iterable, Iterator, Mapping, Sequence

import torch
from torch.autograd.function import BackwardCFunction
from torch.autograd.graph import GradientEdge, Node

from helpers.backward.engine import (
    accumulate,
    ancestors,
    consumers_of_each_node,
    fit_to_slot,
    gradient_edge_of,
    run_node,
    short_name,
    take_arrived,
    where_gradients_stop,
)
from helpers.backward.gradients import (
    Gradients,
    GradientSummary,
    copied,
    same_bits,
    same_tensor,
)
from helpers.backward.messages import MESSAGES
from helpers.backward.refusals import describe_hook
from helpers.backward.watching import WatchedRun
from helpers.graph.names import named_tensors


def why_they_differ(
    runs: list[WatchedRun],
    output: torch.Tensor,
    inputs: Sequence[torch.Tensor],
    seed: torch.Tensor,
    ours: Gradients,
    pytorchs: Gradients,
) -> str:
    """Where, first in the engine's order, PyTorch's engine did what the by-hand one does not:
    a gradient changed on its way into a node, a node sent on something other than what it
    computes, or an input's gradient changed after it arrived. Runs nodes again to find out."""
    root = gradient_edge_of(output)
    consumers = consumers_of_each_node(root.node)
    needed = ancestors(where_gradients_stop(inputs), consumers)
    namespace = _callers_namespace()
    for run, arrived in zip(runs, _what_arrived(runs, root, seed, consumers), strict=True):
        if arrived is not None and not same_bits(arrived, run.received):
            return _changed_on_the_way_in(run, arrived, namespace, consumers)
        if not run.node.next_functions:
            continue  # AccumulateGrad sends nothing on (and calling it would write to .grad)
        computed = _replay(run, needed)
        sent = _needed_only(run.node, run.sent, needed)
        if not same_bits(computed, sent):
            if not same_bits(computed, _replay(run, needed)):
                return _not_deterministic(run)
            return _changed_on_the_way_out(run, computed, sent, namespace, consumers)
    position = _first_different(ours, pytorchs)
    return _changed_after_arriving(inputs[position], position, ours, pytorchs, namespace, needed)


# --- what the pass sent, computed again -----------------------------------------------------------


def _what_arrived(
    runs: list[WatchedRun],
    root: GradientEdge,
    seed: torch.Tensor,
    consumers: Mapping[Node, list[Node]],
) -> Iterator[Gradients | None]:
    """For each run in turn, what the nodes before it sent it, summed in the order it arrived,
    as PyTorch's engine sums it before any hook runs; None where not every edge into it was seen.

    A record keeps a large gradient as a summary only, so the gradients are computed again, one
    run at a time, by running the nodes as `_backward_by_hand` does: what a node sent is what it
    computes from what it received, and what it received is what arrived, as far as the caller
    (`why_they_differ`) reads on. While a run is looked at, its ``again`` holds what it
    received, as tensors, for `_replay`; only the gradients on their way are kept meanwhile.
    """
    edges_into = {node: len(feeding) for node, feeding in consumers.items()}
    edges_into[root.node] += 1  # the seed comes along an edge of its own
    sums: dict[Node, list[torch.Tensor | None]] = {}
    edges_seen = {root.node: 1}
    unknown: set[Node] = set()  # nodes sent something no record or rerun can give
    with torch.no_grad():
        accumulate(sums, root.node, root.output_nr, seed)
    for run in runs:
        if run.nested:  # a nested backward pass keeps gradients of its own, unseen here
            yield None
            continue
        grads = tuple(take_arrived(sums, run.node))
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
                        accumulate(sums, next_node, slot, g)
        if sent is None:
            unknown.update(next_node for next_node, _ in run.node.next_functions)


def _sent_again(run: WatchedRun) -> Gradients | None:
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
        sent = run_node(run.node, list(copied(run.again)))
        return tuple(
            None if g is None or next_node is None else fit_to_slot(g, next_node, slot)
            for (next_node, slot), g in zip(run.node.next_functions, sent, strict=True)
        )


def _whole_or_none(grads: Gradients) -> Gradients | None:
    """The gradients when every one is kept whole (a tensor or None), else None."""
    return None if any(isinstance(g, GradientSummary) for g in grads) else grads


def _replay(run: WatchedRun, needed: set[Node]) -> Gradients:
    """What the by-hand engine's rules make ``run.node`` send on from what it received."""
    # The record, or, where it keeps a summary, the tensors `_what_arrived` computed again.
    received = _whole_or_none(run.received)
    received = run.again if received is None else received
    if received is None:
        return _needed_only(run.node, run.sent, needed)  # nothing to run it on: nothing to tell
    with torch.no_grad():
        # Copies: a node may write into the gradients it is given, and `run.received` is a record.
        grads_out = run_node(run.node, list(copied(received)))
        fitted = [
            None if g is None or next_node is None else fit_to_slot(g, next_node, slot)
            for (next_node, slot), g in zip(run.node.next_functions, grads_out, strict=True)
        ]
    return _needed_only(run.node, fitted, needed)


def _needed_only(node: Node, grads_out: Sequence, needed: set[Node]) -> Gradients:
    # PyTorch's engine computes no gradient for an edge that leads to no input: compare the rest.
    edges = node.next_functions
    return tuple(g if n in needed else None for (n, _), g in zip(edges, grads_out, strict=True))


# --- what the refusal says ------------------------------------------------------------------------


def _refuses(reason: str, **blanks: object) -> str:
    """grad's refusal: it cannot give PyTorch's answer, then the text ``reason`` says why."""
    return MESSAGES.say("refuses", reason=MESSAGES.say(reason, **blanks))


def _hook_changed_it(what: str, culprit: str, reason: str = "changed it") -> str:
    """The refusal for a gradient a hook changed: what happened, who did it, what to use."""
    return _refuses(reason, what=what, culprit=culprit, no_hooks=MESSAGES.say("no hooks"))


def _changed_on_the_way_in(
    run: WatchedRun, arrived: Gradients, namespace: dict, graph: Collection[Node]
) -> str:
    slot = _first_different(arrived, run.received)
    received, sent = _two_values(run.received[slot], arrived[slot])
    node = _node_label(run.node, namespace)
    what = MESSAGES.say("received other", node=node, received=received, sent=sent)
    if short_name(run.node) == "BackwardHookFunctionBackward":
        return _hook_changed_it(what, _module_hooks(namespace, graph))
    hooks = [
        _hooks_of_tensor(tensor, name)
        for name, tensor in _tensors(namespace)
        if tensor.grad_fn is run.node and tensor.output_nr == slot and tensor._backward_hooks
    ]
    culprit = MESSAGES.say("list separator").join(hooks) or MESSAGES.say("tensor or pre-hook")
    return _hook_changed_it(what, culprit)


def _changed_on_the_way_out(
    run: WatchedRun, computed: Gradients, sent: Gradients, namespace: dict, graph: Collection[Node]
) -> str:
    edge = _first_different(computed, sent)
    theirs, ours = _two_values(sent[edge], computed[edge])
    node = _node_label(run.node, namespace)
    what = MESSAGES.say("sent other", node=node, theirs=theirs, ours=ours)
    if short_name(run.node) == "BackwardHookFunctionBackward":
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


def _not_deterministic(run: WatchedRun) -> str:
    if torch.are_deterministic_algorithms_enabled():  # advising to turn it on would not help
        return _refuses("not deterministic, even so", node=short_name(run.node))
    return _refuses("not deterministic", node=short_name(run.node))


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
            names = (short_name(first_with[number]), short_name(node))
            return MESSAGES.say("name separator").join(names)
        first_with[number] = node
    return ""


def _first_different(first: Sequence, second: Sequence) -> int:
    pairs = zip(first, second, strict=True)
    return next(i for i, (a, b) in enumerate(pairs) if not same_tensor(a, b))


def _two_values(first: torch.Tensor | None, second: torch.Tensor | None) -> tuple[str, str]:
    """Two gradients as text, with as many digits as it takes to tell them apart."""
    for digits in (4, 9, 17):
        texts = (_value(first, digits), _value(second, digits))
        if texts[0] != texts[1]:
            return texts
    if first is not None and first.numel() > 4:
        return texts[0], MESSAGES.say("different values")
    return texts  # they differ in bits only: 0.0 and -0.0, or two kinds of NaN


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


# Names for the message: the variables of the code that called grad, as a learner wrote them.


def _callers_namespace() -> dict:
    frame = sys._getframe(1)
    while frame is not None and _in_this_package(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    if frame is None:
        return {}
    return {**frame.f_globals, **frame.f_locals}


def _in_this_package(module: str) -> bool:
    # grad, in another module of the package, is what the learner called: skip it too.
    return module == __package__ or module.startswith(__package__ + ".")


def _tensors(namespace: dict) -> list[tuple[str, torch.Tensor]]:
    """The tensors of a namespace, and the parameters of its modules, as every picture names them
    (objects that cannot be inspected are skipped)."""
    return named_tensors(namespace)


def _name_of(tensor: torch.Tensor, namespace: dict) -> str | None:
    return next((name for name, value in _tensors(namespace) if value is tensor), None)


def _node_label(node: Node, namespace: dict) -> str:
    if short_name(node) == "BackwardHookFunctionBackward":
        return MESSAGES.say("module hooks node")
    made = [name for name, tensor in _tensors(namespace) if tensor.grad_fn is node]
    if made:
        return MESSAGES.say("node that computed", node=short_name(node), tensor=made[0])
    return short_name(node)


def _hooks_of_tensor(tensor: torch.Tensor, name: str) -> str:
    hooks = tensor._backward_hooks.values()
    described = MESSAGES.say("name separator").join(describe_hook(hook) for hook in hooks)
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
                        MESSAGES.say("module hook on", path=path, hook=describe_hook(hook))
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
    return not trainable or any(gradient_edge_of(p).node in graph for p in trainable)

"""Draw the autograd graph PyTorch really built, with values, gradients and names in the boxes.

    >>> from helpers.graph import draw
    >>> w = torch.tensor(2.0, requires_grad=True); b = torch.tensor(1.0, requires_grad=True)
    >>> x = torch.tensor(3.0)
    >>> u = w * x; v = u + b; a = torch.relu(v)
    >>> draw(a)          # in a notebook, the cell shows the picture

Boxes get their names from the variables of the code that calls `draw`; run the cell again after
``a.backward()`` and the leaves show their gradients.

How a picture is made, one module after the other: `model` walks the graph into boxes and
arrows (`build_graph`), named by `names`; `cut` keeps the part a picture shows and draws a tensor
used far and wide as reference boxes; `layout` plans how Graphviz will lay it out and estimates
the seconds that takes, before it starts; `dot` writes it as DOT, styled from one table keyed by
the kind of box (`BOX_STYLES`); `render` turns the DOT into a picture with Graphviz, in a child
process that *Interrupt kernel* can stop when the picture is big (a `Drawing`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import torch

from helpers.graph.cut import add_references, cut_note, reference_notes
from helpers.graph.dot import BOX_STYLES, BoxStyle, edge_label_texts, style_of, to_dot
from helpers.graph.layout import Plan, plan
from helpers.graph.messages import MESSAGES
from helpers.graph.model import (
    NODES_SAFE_TO_SEE,
    Graph,
    GraphEdge,
    GraphNode,
    build_graph,
    why_nodes_safe_to_see,
)
from helpers.graph.names import Names, named_tensors, resolve_names
from helpers.graph.render import Drawing, GraphvizNotFound, LayoutTooSlow, RenderError

__all__ = [
    "BOX_STYLES",
    "BoxStyle",
    "DEFAULT_MAX_NODES",
    "Drawing",
    "Graph",
    "GraphEdge",
    "GraphNode",
    "GraphTooLarge",
    "GraphvizNotFound",
    "LayoutTooSlow",
    "NODES_SAFE_TO_SEE",
    "RenderError",
    "build",
    "draw",
    "named_tensors",
    "resolve_names",
    "style_of",
    "to_dot",
]

# Enough for any graph a lesson draws; beyond it a picture stops being readable anyway.
DEFAULT_MAX_NODES = 200
# A picture drawn with the default max_nodes is cut further if its layout is estimated to take
# longer than this; any picture estimated to take longer than MAX_SECONDS is refused before
# Graphviz starts. Captions and errors suggest pictures of at most SUGGESTED_SECONDS.
DEFAULT_SECONDS = 1.0
MAX_SECONDS = 30.0
SUGGESTED_SECONDS = 10.0


class GraphTooLarge(ValueError):
    """The picture asked for is too big: Graphviz would take too long to lay it out (``source``
    has its DOT), or the graph has more Nodes than the helpers look at (``source`` is None)."""

    def __init__(self, message: str, source: str | None) -> None:
        super().__init__(message)
        self.source = source


def build(
    output: torch.Tensor | Sequence[torch.Tensor],
    names: Names | None = None,
    *,
    show_values: bool = True,
    show_grads: bool = True,
    show_saved: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
) -> Graph:
    """The picture `draw` would make, as data: a `Graph` of boxes (``nodes``) and arrows.

    Each box has a stable id ("n0", "n1", ... in walk order; "r0", ... for reference boxes), a
    ``kind`` (leaf, tensor, op, saved, output, summary), its ``title``, ``value``, ``grad`` and
    ``notes``, and for op and leaf boxes ``fn``, the autograd Node it stands for. The Graph holds
    those Nodes, and through them the tensors they saved, until you drop it. Arguments are those
    of `draw`.
    """
    options = _checked_options(
        show_values=show_values, show_grads=show_grads, show_saved=show_saved
    )
    request = _Request(_roots(output), resolve_names(names), options)
    model, _ = _build(request, _checked(max_nodes))
    return model


def draw(
    output: torch.Tensor | Sequence[torch.Tensor],
    names: Names | None = None,
    *,
    direction: str = "forward",
    show_values: bool = True,
    show_grads: bool = True,
    show_saved: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    highlight: Any = None,
    edge_labels: Mapping[tuple[Any, Any], str] | None = None,
) -> Drawing:
    """Draw the autograd graph behind ``output`` (a tensor, or a list of tensors).

    What the boxes mean (colours are the same in every picture):

    - blue, **leaf**: a tensor you created with ``requires_grad=True``: its name, its value (or
      shape and dtype when it has more than 4 elements) and, after ``backward()``, ``grad``.
    - grey ellipse, **op**: one autograd Node, named as PyTorch names it (``MulBackward0``).
      Arrows go from an op's inputs to it; where several arrows come in, a small number at
      each says which input it is (0, 1, ...).
    - yellow, **tensor**: a named tensor an op computed, drawn just after that op, with its value,
      and its gradient if you called ``retain_grad()`` on it. Unnamed intermediate tensors get no
      box, as in PyTorch's graph, where only Nodes exist.
    - green, **output**: the tensors passed to ``draw``.
    - orange, **saved** (with ``show_saved=True``): what an op kept for its backward; after
      ``backward()`` has freed it, the op says "freed".
    - dashed box with a name only: the **same tensor** (or Node) as the box of that name drawn
      in full. A tensor used at many places far apart (a weight reused at every step of a loop)
      is drawn in full once, with its one gradient, the sum over all its uses, and as a dashed
      box beside each far use; the caption lists them.
    - dashed "… N more nodes": what ``max_nodes`` cut off; the caption says so.

    Arguments:
        names: extra names, a dict ``{name: tensor or module}`` or pairs such as
            ``model.named_parameters()``. Names also come from the variables of the code calling
            ``draw`` (locals, then globals, skipping names that start with ``_``; a module
            variable ``model`` names its parameters ``model.weight``...). Tensors are matched by
            identity. When a tensor has several names, ``names`` wins, then the shortest
            variable name, then the alphabetically first.
        direction: "forward" (arrows follow the computation, inputs at the top) or "backward"
            (arrows follow the gradients, output at the top, like torchviz).
        show_values, show_grads: set False to leave values (shapes stay) or gradients out.
        show_saved: also show what each op saved for backward.
        max_nodes: draw at most this many autograd Nodes, those nearest the output; None for
            all. With the default, a picture that would be slow to lay out is cut further. A
            picture estimated to take Graphviz more than 30 s is refused (`GraphTooLarge`, which
            says what to draw instead) before anything is laid out; one that takes more than
            half a second is laid out in a child process, which *Interrupt kernel* stops. The
            helpers look at no more than `NODES_SAFE_TO_SEE` (5,000) Nodes of a graph in one
            call: in a bigger graph, the default picture says where it stopped, and asking for
            more than it went through is refused.
        highlight: an autograd Node (e.g. ``y.grad_fn``) whose box gets a thick red border; a
            leaf's AccumulateGrad Node highlights the leaf's box. None for no highlight; a Node
            cut off by ``max_nodes`` highlights nothing.
        edge_labels: ``{(node, next_node): text}`` writes ``text`` on the arrow between two
            Nodes, where ``next_node`` is in ``node.next_functions`` (either order works). Where
            several arrows join the two (``x * x``), a list of texts gives each its own, in the
            order of ``node.next_functions``. Keys for Nodes cut off by ``max_nodes`` are
            ignored; other unknown keys raise ValueError.

    Returns a `Drawing`: ``.source`` is the DOT text, ``.svg()`` renders it, ``.save(path)``
    writes .svg, .png or .dot, and a notebook shows it as a picture. It keeps no reference to
    your tensors.
    """
    options = _checked_options(
        show_values=show_values, show_grads=show_grads, show_saved=show_saved
    )
    if edge_labels is not None and not isinstance(edge_labels, Mapping):
        got = type(edge_labels).__name__
        raise TypeError(MESSAGES.say("edge_labels_not_a_dict", got=got))
    request = _Request(_roots(output), resolve_names(names), options, edge_labels or {})
    model, layout = _build(request, _checked(max_nodes))
    layout = layout or request.plan(model)
    source = to_dot(
        model, direction=direction, highlight=highlight, edge_labels=edge_labels, layout=layout
    )
    if layout.estimated_seconds > MAX_SECONDS:
        smaller = _quick_max_nodes(request, model, layout.estimated_seconds)
        raise GraphTooLarge(_too_large_message(model, layout, max_nodes, smaller), source)
    return Drawing(source, estimated_seconds=layout.estimated_seconds)


# --- the model, kept quick to lay out ----------------------------------------------------------


@dataclass
class _Request:
    """What a picture is asked of: the tensors to draw, the names to use, build's options."""

    roots: list[torch.Tensor]
    named: list[tuple[str, torch.Tensor]]
    options: dict[str, bool]
    edge_labels: Mapping[tuple[Any, Any], str] = field(default_factory=dict)

    def picture(self, max_nodes: int | None) -> tuple[Graph, dict[str, int]]:
        """The model for ``max_nodes``, with reference boxes, and the uses of each repeated box."""
        return add_references(
            build_graph(self.roots, self.named, max_nodes=max_nodes, **self.options)
        )

    def plan(self, model: Graph) -> Plan:
        """The layout of ``model`` with the edge labels asked for, which dot pays for."""
        return plan_layout(model, self.edge_labels)


def plan_layout(graph: Graph, edge_labels: Mapping[tuple[Any, Any], str] | None = None) -> Plan:
    """How `to_dot` lays out ``graph`` with these ``edge_labels`` (keys as in `draw`), and the
    seconds Graphviz is expected to take: a label on any arrow makes dot double every row."""
    return plan(graph, edge_label_texts(graph, edge_labels or {}))


def _checked_options(**options: Any) -> dict[str, bool]:
    for name, value in options.items():
        if not isinstance(value, bool):
            raise TypeError(MESSAGES.say("not_true_or_false", option=name, value=value))
    return options


def _checked(max_nodes: Any) -> int | None:
    if max_nodes is not None and (
        isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1
    ):
        raise ValueError(MESSAGES.say("bad_max_nodes", value=max_nodes))
    return max_nodes


def _build(request: _Request, max_nodes: int | None) -> tuple[Graph, Plan | None]:
    """The model for ``max_nodes``, with its caption, and its layout if deciding them needed it.

    The layout is planned only where the default cut or the caption's offer depends on it (a
    whole graph of many thousand boxes takes a while to plan), and then handed on, not redone.
    """
    model, uses = request.picture(max_nodes)
    # More asked for than the walk went through (the default picture draws what it found).
    asked_too_much = max_nodes is None or max_nodes > model.drawn_nodes
    if not model.walked_all and max_nodes != DEFAULT_MAX_NODES and asked_too_much:
        raise GraphTooLarge(_too_many_nodes_message(model), None)
    layout = None
    if max_nodes == DEFAULT_MAX_NODES:
        # The default promises a quick picture: cut further where the Nodes make a slow one.
        layout = request.plan(model)
        while layout.estimated_seconds > DEFAULT_SECONDS and max_nodes > 1:
            max_nodes //= 2
            model, uses = request.picture(max_nodes)
            layout = request.plan(model)
    model.notes.extend(reference_notes(model, uses))
    if model.drawn_nodes < model.total_nodes:
        layout = layout or request.plan(model)
        more = _quick_max_nodes(request, model, layout.estimated_seconds)
        model.notes.append(cut_note(model, more))
    return model, layout


def _quick_max_nodes(request: _Request, model: Graph, seconds: float) -> int | None:
    """The largest max_nodes found whose picture lays out within SUGGESTED_SECONDS (None: all).

    A first guess scales from ``model``, estimated to take ``seconds`` (a layout's time grows
    about as its size, where dot keeps its first placement), up to the Nodes the walk went
    through; then the guess itself is planned, and halved while it is estimated too slow: the
    part of a graph not drawn yet may be slower to lay out than the part drawn (many arrows
    between two rows cost more than their boxes).
    """
    seconds = max(seconds, 1e-3)
    guess = min(model.drawn_nodes * SUGGESTED_SECONDS / seconds, model.walked_nodes)
    all_of_it = model.walked_all and guess >= model.total_nodes
    candidate = None if all_of_it else _round_down(int(guess))
    while True:
        picture, _ = request.picture(candidate)
        if request.plan(picture).estimated_seconds <= SUGGESTED_SECONDS or candidate == 1:
            return candidate
        candidate = _round_down((candidate or model.total_nodes) // 2)


def _too_large_message(model: Graph, layout: Plan, max_nodes: int | None, smaller: int) -> str:
    if max_nodes is None:
        asked = MESSAGES.say("all_of_them")
    else:
        asked = MESSAGES.say("some_of_them", count=model.drawn_nodes)
    return MESSAGES.say(
        "too_large",
        asked=asked,
        total=model.total_nodes,
        boxes=len(model.nodes),
        rows=layout.rows,
        seconds=layout.estimated_seconds,
        limit=MAX_SECONDS,
        smaller=smaller,
    )


def _too_many_nodes_message(model: Graph) -> str:
    return MESSAGES.say(
        "too_many_nodes",
        seen=NODES_SAFE_TO_SEE,
        why=why_nodes_safe_to_see(),
        most=model.walked_nodes,
    )


def _round_down(number: int) -> int:
    """A number a learner can type: 1,234 -> 1,200."""
    if number < 100:
        return max(number, 1)
    digits = 10 ** (len(str(number)) - 2)
    return number // digits * digits


# --- inputs ------------------------------------------------------------------------------------


def _roots(output: Any) -> list[torch.Tensor]:
    if isinstance(output, torch.Tensor):
        return [output]
    if output is None:
        raise TypeError(MESSAGES.say("got_none"))
    if not isinstance(output, (list, tuple)):
        number = isinstance(output, (int, float, complex))  # from .item() or float()
        kind = "number_has_no_graph" if number else "not_a_tensor"
        raise TypeError(MESSAGES.say(kind, got=type(output).__name__))
    if not output:
        raise ValueError(MESSAGES.say("empty_list"))
    roots: list[torch.Tensor] = []
    for position, item in enumerate(output):
        if not isinstance(item, torch.Tensor):
            got = type(item).__name__
            raise TypeError(MESSAGES.say("item_not_a_tensor", position=position, got=got))
        if not any(item is root for root in roots):
            roots.append(item)
    return roots

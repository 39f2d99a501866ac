"""Draw the autograd graph PyTorch really built, with values, gradients and names in the boxes.

    >>> from helpers.graph import draw
    >>> w = torch.tensor(2.0, requires_grad=True); b = torch.tensor(1.0, requires_grad=True)
    >>> x = torch.tensor(3.0)
    >>> u = w * x; v = u + b; a = torch.relu(v)
    >>> draw(a)          # in a notebook, the cell shows the picture

Boxes get their names from the variables of the code that calls `draw`; run the cell again after
``a.backward()`` and the leaves show their gradients.

How a picture is made, one module after the other, in one direction: `model` walks the graph
once into boxes and arrows (`build_graph`), named by `names`; `cut` keeps the part a picture
shows and draws a tensor used far and wide as reference boxes; `layout` plans how Graphviz will
lay it out and estimates the seconds that takes before it starts (how far the default picture is
cut, and what its caption offers, are read off one estimate of every cut of the model); `dot`
writes it as DOT, styled from one table keyed by the kind of box (`BOX_STYLES`); `render` turns
the DOT into a picture with Graphviz, in a child process that *Interrupt kernel* can stop when
the picture is big (a `Drawing`). `modules` groups and folds the boxes by the module of your
model that made them. `options` checks the options `draw`, `build` and `explore` share, once;
`policy` decides how far a picture is cut and what its caption offers; `panel` and `explore`
are what the interactive view (`helpers.view`) shows of a graph.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import replace
from typing import Any

import torch

from helpers.graph.dot import BOX_STYLES, edge_label_texts, to_dot
from helpers.graph.explore import VIEW_BYTES, GraphSource, Pictures
from helpers.graph.layout import Plan, plan
from helpers.graph.messages import MESSAGES
from helpers.graph.model import NODES_SAFE_TO_SEE, Graph, GraphEdge, GraphNode, build_graph
from helpers.graph.names import Names, resolve_names
from helpers.graph.options import DEFAULT_MAX_NODES, Options, roots, with_marks
from helpers.graph.policy import (
    DEFAULT_SECONDS,
    MAX_SECONDS,
    SUGGESTED_ACROSS,
    SUGGESTED_ROWS,
    SUGGESTED_SECONDS,
    Cuts,
    GraphTooLarge,
    by_module,
    check_walk,
    choose_picture,
    direction_of,
    offer,
    too_large_message,
)
from helpers.graph.recording import MadeBy, made_by, recording
from helpers.graph.render import Drawing, GraphvizNotFound, LayoutTooSlow, RenderError
from helpers.view import Explorer

__all__ = [
    "BOX_STYLES",
    "DEFAULT_MAX_NODES",
    "DEFAULT_SECONDS",
    "MAX_SECONDS",
    "NODES_SAFE_TO_SEE",
    "SUGGESTED_ACROSS",
    "SUGGESTED_ROWS",
    "SUGGESTED_SECONDS",
    "VIEW_BYTES",
    "Drawing",
    "Explorer",
    "Graph",
    "GraphEdge",
    "GraphNode",
    "GraphTooLarge",
    "GraphvizNotFound",
    "LayoutTooSlow",
    "MadeBy",
    "RenderError",
    "build",
    "draw",
    "explore",
    "made_by",
    "plan_layout",
    "recording",
    "resolve_names",
    "to_dot",
]


def build(
    output: torch.Tensor | Sequence[torch.Tensor],
    names: Names | None = None,
    *,
    show_values: bool = True,
    show_grads: bool = True,
    show_saved: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    expand: str | Collection[str] | None = None,
    fold: bool = True,
    marks: Any = None,
) -> Graph:
    """The picture `draw` would make, as data: a `Graph` of boxes (``nodes``) and arrows.

    Each box has a stable id ("n0", "n1", ... in walk order; "r0", ... for reference boxes), a
    ``kind`` (leaf, tensor, op, saved, output, summary), its ``title``, ``value``, ``grad`` and
    ``notes``, for op and leaf boxes ``fn``, the autograd Node it stands for, and its
    ``walk_order``, where the walk met its Node. The Graph holds those Nodes, and through them
    the tensors they saved, until you drop it. Arguments are those of `draw`.
    """
    options = Options.checked(
        show_values=show_values,
        show_grads=show_grads,
        show_saved=show_saved,
        max_nodes=max_nodes,
        expand=expand,
        fold=fold,
        marks=marks,
    )
    model = build_graph(roots(output), options.named(resolve_names(names)), **options.walk)
    check_walk(model, options.max_nodes)
    model, max_nodes, ends = by_module(model, options.expand, options.fold, options.max_nodes)
    cuts = Cuts(with_marks(model, options.marks), {}, ends)
    picture, _ = choose_picture(cuts, max_nodes, planned=False, quick=options.quick)
    return picture


def draw(
    output: torch.Tensor | Sequence[torch.Tensor],
    names: Names | None = None,
    *,
    direction: str = "auto",
    show_values: bool = True,
    show_grads: bool = True,
    show_saved: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    highlight: Any = None,
    edge_labels: Mapping[tuple[Any, Any], str] | None = None,
    expand: str | Collection[str] | None = None,
    fold: bool = True,
    marks: Any = None,
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
    - purple, **module** (a graph recorded with ``with recording(model):``): a module of your
      model folded into one box, with the numbers in its parameters and, after ``backward()``,
      the norm of their gradients; a run of blocks built alike ("h.1–h.10") is one such box.
      Modules drawn whole get a dashed purple frame with their name; an op's tooltip names the
      line of your code that made it.
    - ✓ green and ✗ red outlines (``marks=``): your gradients, right or wrong, as `compare` in
      `helpers.backward` found them; the thickest is the one to fix first.

    Arguments:
        names: extra names, a dict ``{name: tensor or module}`` or pairs such as
            ``model.named_parameters()``. Names also come from the variables of the code calling
            ``draw`` (locals, then globals, skipping names that start with ``_``; a module
            variable ``model`` names its parameters ``model.weight``...). Tensors are matched by
            identity. When a tensor has several names, ``names`` wins, then the shortest
            variable name, then the alphabetically first.
        direction: "forward" (arrows follow the computation, inputs at the top) or "backward"
            (arrows follow the gradients, output at the top, like torchviz). "auto", the
            default, draws forward a picture of up to `FORWARD_ROWS` rows (a few screens), and
            backward a taller one, so that it opens where you look first: at the output.
        show_values, show_grads: set False to leave values (shapes stay) or gradients out.
        show_saved: also show what each op saved for backward.
        max_nodes: draw at most this many autograd Nodes, those nearest the output; None for
            all. Where your parameters are named as numbered layers of a stack
            (``model.layers.5.linear1.weight``), the Nodes are counted from the output layer by
            layer, and the default picture keeps whole layers: the last few, not scraps of many.
            With the default, a picture that would be slow to lay out is cut further. A picture
            estimated to take Graphviz more than 30 s is refused (`GraphTooLarge`, which
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
        expand: a module's path (``"transformer.h.3"``), or several, drawn whole inside the
            folded rest of a recorded graph.
        fold: with True, the default, the picture of a recorded graph too big to read whole
            (more than about 60 boxes) is folded by module, a level at a time from the model
            down, while it keeps to about 60 boxes. False draws every Node, framed by module.
        marks: what `helpers.backward.compare` returned: the tensors it compared, marked right
            or wrong (also ``(name, tensor, mark)`` triples, mark one of "right", "wrong",
            "first wrong").

    Returns a `Drawing`: ``.source`` is the DOT text, ``.svg()`` renders it, ``.save(path)``
    writes .svg, .png or .dot, and a notebook shows it as a picture. It keeps no reference to
    your tensors.
    """
    options = Options.checked(
        show_values=show_values,
        show_grads=show_grads,
        show_saved=show_saved,
        max_nodes=max_nodes,
        expand=expand,
        fold=fold,
        marks=marks,
        direction=direction,
    )
    if edge_labels is not None and not isinstance(edge_labels, Mapping):
        got = type(edge_labels).__name__
        raise TypeError(MESSAGES.say("edge_labels_not_a_dict", got=got))
    tensors = roots(output)
    named = options.named(resolve_names(names))
    # One pass, one direction: the model, folded by module, the part of it drawn, its layout,
    # its DOT.
    model = build_graph(tensors, named, **options.walk)
    check_walk(model, options.max_nodes)
    model, max_nodes, ends = by_module(model, options.expand, options.fold, options.max_nodes)
    model = with_marks(model, options.marks)
    cuts = Cuts(model, edge_label_texts(model, edge_labels or {}), ends)
    picture, layout = choose_picture(cuts, max_nodes, planned=True, quick=options.quick)
    direction = direction_of(options.direction, layout)
    source = to_dot(
        picture, direction=direction, highlight=highlight, edge_labels=edge_labels, layout=layout
    )
    if layout.estimated_seconds > MAX_SECONDS:
        smaller = offer(cuts, below=picture.drawn_nodes)
        raise GraphTooLarge(too_large_message(picture, layout, max_nodes, smaller), source)
    # Drawing.explore(): the same graph in the view, from weak references to its tensors.
    pictures = Pictures(replace(options, marks=()))
    view = GraphSource.later(pictures, tensors, named, options.marks)
    return Drawing(
        source, estimated_seconds=layout.estimated_seconds, explorer=lambda: Explorer(view())
    )


def explore(
    output: torch.Tensor | Sequence[torch.Tensor],
    names: Names | None = None,
    *,
    direction: str = "auto",
    show_values: bool = True,
    show_grads: bool = True,
    show_saved: bool = False,
    max_nodes: int | None = DEFAULT_MAX_NODES,
    expand: str | Collection[str] | None = None,
    fold: bool = True,
    marks: Any = None,
) -> Explorer:
    """The picture `draw` makes, in a view you can move about in and ask about.

    Drag to move the picture, scroll (or the + and − buttons) to zoom, "fit" to see it whole;
    it opens at the output. Type a name to find its box. Click a box to read it in the side
    panel: a tensor's shape, dtype, device, smallest and largest value, mean, norm, how many
    nan and inf, its first values, and its gradient likewise; an op's saved tensors (and
    whether backward freed them), the module and the line of code that made it, and where it
    sends its gradients. In a recorded graph, click a purple box to unfold it and a frame's name
    to fold it: the kernel draws the new picture as `draw` does. ↻ draws it again from the graph
    as it is now (after ``backward()``, with the gradients).

    Arguments are those of `draw` but for ``highlight`` and ``edge_labels``. The view holds
    your tensors by weak references only: once you let go of ``output``, it says so when asked.
    Every output also carries the picture itself, which shows where the view cannot run (a
    notebook on GitHub, an untrusted notebook, ``make html``). The view needs ``anywidget``
    (JupyterLab 4, VS Code, Colab).
    """
    options = Options.checked(
        show_values=show_values,
        show_grads=show_grads,
        show_saved=show_saved,
        max_nodes=max_nodes,
        expand=expand,
        fold=fold,
        marks=marks,
        direction=direction,
    )
    named = options.named(resolve_names(names))
    pictures = Pictures(replace(options, marks=()))
    return Explorer(GraphSource(pictures, roots(output), named, options.marks))


def plan_layout(graph: Graph, edge_labels: Mapping[tuple[Any, Any], str] | None = None) -> Plan:
    """How `to_dot` lays out ``graph`` with these ``edge_labels`` (keys as in `draw`), and the
    seconds Graphviz is expected to take: a label on any arrow makes dot double every row."""
    return plan(graph, edge_label_texts(graph, edge_labels or {}))

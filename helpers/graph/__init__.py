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
    FORWARD_ROWS,
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
from helpers.graph.transforms import InsideTransform, refuse_inside_transforms, wrapper_layers
from helpers.view import Explorer

__all__ = [
    "BOX_STYLES",
    "DEFAULT_MAX_NODES",
    "DEFAULT_SECONDS",
    "FORWARD_ROWS",
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
    "InsideTransform",
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
    tensors = roots(output)
    refuse_inside_transforms("build", tensors)
    model = build_graph(tensors, options.named(resolve_names(names)), **options.walk)
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

    What the boxes mean (the same colours in every picture):

    - blue, **leaf**: a tensor made with ``requires_grad=True``: name, value, and ``grad``
      after ``backward()``.
    - grey ellipse, **op**: one autograd Node (``MulBackward0``); small numbers at its arrows say
      which input each is, where several come in.
    - yellow, **tensor**: a named tensor an op computed (unnamed ones get no box: PyTorch's
      graph holds only Nodes), with its gradient if you called ``retain_grad()``.
    - green, **output**: the tensors passed to ``draw``.
    - orange, **saved** (``show_saved=True``): what an op kept for its backward, or "freed".
    - dashed box with a name only: the **same tensor** as the box of that name drawn in full.
    - dashed "… N more nodes": what ``max_nodes`` left out.
    - purple, **module** (after ``with recording(model):``): a module folded into one box, its
      parameters and their gradients' norm; modules drawn whole get a dashed purple frame.
    - ✓ green and ✗ red outlines (``marks=``): your gradients as `compare` found them.
    - blue ``tangent`` (drawn inside ``forward_ad.dual_level()``): a dual tensor's tangent.

    Arguments (docs/architecture.md, "What draw shows", says more of each):
        names: extra names, ``{name: tensor or module}`` or pairs such as
            ``model.named_parameters()``; names also come from the caller's variables.
        direction: "forward" (inputs at the top), "backward" (output at the top), or "auto":
            forward up to `FORWARD_ROWS` rows, backward for a taller picture.
        show_values, show_grads, show_saved: what the boxes show.
        max_nodes: draw at most this many Nodes, those nearest the output; None for all. The
            default picture is cut further where it would be slow, and says so.
        highlight: a Node (``y.grad_fn``) whose box gets a thick red border.
        edge_labels: ``{(node, next_node): text}``, a text on the arrow between two Nodes.
        expand: a module's path (``"transformer.h.3"``), or several, drawn whole inside the
            folded rest of a recorded graph.
        fold: False draws every Node of a recorded graph, framed by module.
        marks: what `helpers.backward.compare` returned, to mark your gradients right or wrong.

    Returns a `Drawing`: ``.source`` is the DOT text, ``.svg()`` renders it, ``.save(path)``
    writes .svg, .png or .dot, and a notebook shows it as a picture. It keeps no reference to
    your tensors. A picture estimated to take Graphviz more than `MAX_SECONDS` is refused
    (`GraphTooLarge`, which says what to draw instead) before anything is laid out. Inside a
    function that ``torch.func.grad`` (or vjp, jacrev, hessian) transforms, the picture shows the
    Nodes of that level; a tensor from inside vmap or jvp, or a dual tensor that does not
    require grad, is refused (`InsideTransform`), with what to draw instead.
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
    refuse_inside_transforms("draw", tensors)
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
    inside = any(wrapper_layers(tensor) for tensor in tensors)  # NOTE [torch.func transforms]

    def explorer() -> Explorer:
        if inside:  # the view would read the wrappers after the transform let go of them
            raise InsideTransform(MESSAGES.say("view_inside_transform", helper="explore"))
        return Explorer(view())

    return Drawing(source, estimated_seconds=layout.estimated_seconds, explorer=explorer)


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
    tensors = roots(output)
    refuse_inside_transforms("explore", tensors, reads_later=True)
    named = options.named(resolve_names(names))
    pictures = Pictures(replace(options, marks=()))
    return Explorer(GraphSource(pictures, tensors, named, options.marks))


def plan_layout(graph: Graph, edge_labels: Mapping[tuple[Any, Any], str] | None = None) -> Plan:
    """How `to_dot` lays out ``graph`` with these ``edge_labels`` (keys as in `draw`), and the
    seconds Graphviz is expected to take: a label on any arrow makes dot double every row."""
    return plan(graph, edge_label_texts(graph, edge_labels or {}))

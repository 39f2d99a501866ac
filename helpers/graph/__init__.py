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
model that made them.
"""

from __future__ import annotations

import difflib
import json
from collections import Counter
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import torch

from helpers.graph import modules
from helpers.graph.cut import add_references, cut, cut_note, in_layers, reference_notes
from helpers.graph.dot import (
    BOX_STYLES,
    BoxStyle,
    caption_notes,
    edge_label_texts,
    style_of,
    to_dot,
)
from helpers.graph.explore import GraphSource, Shown
from helpers.graph.layout import CUT_ERROR, CutEstimates, Plan, plan
from helpers.graph.messages import MESSAGES
from helpers.graph.model import (
    MARKS,
    NODES_SAFE_TO_SEE,
    SUMMARY,
    Graph,
    GraphEdge,
    GraphNode,
    build_graph,
    caption,
    why_nodes_safe_to_see,
)
from helpers.graph.names import Names, named_tensors, resolve_names
from helpers.graph.panel import Walked, search_index
from helpers.graph.recording import MadeBy, made_by, recording
from helpers.graph.render import Drawing, GraphvizNotFound, LayoutTooSlow, RenderError
from helpers.view import SCRIPT, Explorer

__all__ = [
    "BOX_STYLES",
    "BoxStyle",
    "DEFAULT_MAX_NODES",
    "Drawing",
    "Explorer",
    "Graph",
    "GraphEdge",
    "GraphNode",
    "GraphTooLarge",
    "GraphvizNotFound",
    "LayoutTooSlow",
    "MadeBy",
    "NODES_SAFE_TO_SEE",
    "RenderError",
    "build",
    "draw",
    "explore",
    "made_by",
    "named_tensors",
    "recording",
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
# Nor do they offer a picture nobody could read: taller than this many rows (about 60 px each: a
# column some 25,000 px long) or wider than this many boxes side by side on a row.
SUGGESTED_ROWS = 400
# A picture of more rows than this (about three screens) is drawn backward by default: drawn
# forward, its first screen would show the inputs at the top and the output thousands of
# pixels below, where a learner looks first.
FORWARD_ROWS = 45
SUGGESTED_ACROSS = 40
# The default view of `explore` keeps what it sends to the page under this many bytes: a
# notebook that opens soon, and a saved one that stays small.
VIEW_BYTES = 500_000


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
    options = _checked_options(
        show_values=show_values, show_grads=show_grads, show_saved=show_saved
    )
    roots, max_nodes, marked = _roots(output), _checked(max_nodes), _marks(marks)
    named = [(name, tensor) for name, tensor, _ in marked] + resolve_names(names)
    model = build_graph(roots, named, **options)
    _check_walk(model, max_nodes)
    quick = max_nodes == DEFAULT_MAX_NODES
    model, max_nodes, ends = _by_module(model, expand, fold, max_nodes)
    cuts = _Cuts(_marked(model, marked), {}, ends)
    picture, _ = _picture(cuts, max_nodes, planned=False, quick=quick)
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
    options = _checked_options(
        show_values=show_values, show_grads=show_grads, show_saved=show_saved
    )
    if edge_labels is not None and not isinstance(edge_labels, Mapping):
        got = type(edge_labels).__name__
        raise TypeError(MESSAGES.say("edge_labels_not_a_dict", got=got))
    if direction not in ("auto", "forward", "backward"):
        raise ValueError(MESSAGES.say("bad_draw_direction", value=direction))
    roots, max_nodes, marked = _roots(output), _checked(max_nodes), _marks(marks)
    named = [(name, tensor) for name, tensor, _ in marked] + resolve_names(names)
    # One pass, one direction: the model, folded by module, the part of it drawn, its layout,
    # its DOT.
    model = build_graph(roots, named, **options)
    _check_walk(model, max_nodes)
    # Drawing.explore(): the same graph in the view, from weak references to its tensors.
    pictures = _Pictures(options, direction, max_nodes, _checked_expand(expand), fold)
    quick = max_nodes == DEFAULT_MAX_NODES
    model, max_nodes, ends = _by_module(model, expand, fold, max_nodes)
    model = _marked(model, marked)
    cuts = _Cuts(model, edge_label_texts(model, edge_labels or {}), ends)
    picture, layout = _picture(cuts, max_nodes, planned=True, quick=quick)
    direction = _direction(direction, layout)
    source = to_dot(
        picture, direction=direction, highlight=highlight, edge_labels=edge_labels, layout=layout
    )
    if layout.estimated_seconds > MAX_SECONDS:
        smaller = _offer(cuts, below=picture.drawn_nodes)
        raise GraphTooLarge(_too_large_message(picture, layout, max_nodes, smaller), source)
    view = GraphSource.later(pictures, roots, named, marked)
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
    options = _checked_options(
        show_values=show_values, show_grads=show_grads, show_saved=show_saved
    )
    if direction not in ("auto", "forward", "backward"):
        raise ValueError(MESSAGES.say("bad_draw_direction", value=direction))
    roots, max_nodes, marked = _roots(output), _checked(max_nodes), _marks(marks)
    named = [(name, tensor) for name, tensor, _ in marked] + resolve_names(names)
    if not isinstance(fold, bool):
        raise TypeError(MESSAGES.say("not_true_or_false", option="fold", value=fold))
    pictures = _Pictures(options, direction, max_nodes, _checked_expand(expand), fold)
    return Explorer(GraphSource(pictures, roots, named, marked))


@dataclass(frozen=True)
class _Pictures:
    """How `explore` makes its model and its pictures: the way `draw` does, with draw's options
    (never the tensors, which the view holds weakly)."""

    options: dict[str, bool]
    direction: str
    max_nodes: int | None
    expand: tuple[str, ...]
    fold: bool

    def model(
        self,
        roots: list[torch.Tensor],
        named: list[tuple[str, torch.Tensor]],
        marked: list[tuple[str, torch.Tensor, str]],
    ) -> Walked:
        model = build_graph(roots, named, **self.options)
        _check_walk(model, self.max_nodes)
        found, folded, expand = _folding(model, self.expand, self.fold)
        return Walked(_marked(model, marked), found, frozenset(folded), frozenset(expand))

    def picture(self, walked: Walked) -> Shown:
        """The picture of ``walked`` as folded now: as the view shows it (its caption's notes
        apart, said below it) and as `draw` would draw it, for where the view cannot run."""
        model, max_nodes, notes_now, ends = walked.model, self.max_nodes, {}, []
        if walked.modules.recorded:
            folded = set(walked.folded)
            model, max_nodes = _folded(model, walked.modules, folded, walked.apart, max_nodes)
            # The caption says how to unfold with draw's arguments; below the view, with a click.
            said = modules.folding_note(model, folded)
            notes_now = {said: modules.folding_note(model, folded, interactive=True)}
        else:
            model, max_nodes, ends = _layered(model, max_nodes)
        cuts = _Cuts(model, {}, ends)
        quick = self.max_nodes == DEFAULT_MAX_NODES
        picture, layout = _picture(cuts, max_nodes, planned=True, quick=quick)
        shown = self._shown(cuts, picture, layout, max_nodes, notes_now)
        # The default promises a view that opens soon: one that sends more than VIEW_BYTES to
        # the page is cut further, as draw cuts a slow picture, and its caption says why.
        while quick and _view_bytes(shown, walked) > VIEW_BYTES and picture.drawn_nodes > 1:
            kept = next((n.walk_order for n in picture.nodes if n.kind == SUMMARY), None)
            kept = kept if kept is not None else model.walked_nodes
            share = 0.9 * VIEW_BYTES / _view_bytes(shown, walked)
            smaller = max(1, min(kept - 1, int(kept * share)))
            picture, layout = _picture(cuts, smaller, planned=True, quick=False)
            note = caption("cut for the view", most=VIEW_BYTES // 1000)
            picture = replace(picture, notes=[*picture.notes, note])
            shown = self._shown(cuts, picture, layout, max_nodes, notes_now)
        return shown

    def _shown(
        self,
        cuts: _Cuts,
        picture: Graph,
        layout: Plan,
        max_nodes: int | None,
        notes_now: Mapping[str, str],
    ) -> Shown:
        direction = _direction(self.direction, layout)
        source = to_dot(picture, direction=direction, layout=layout, ids=True)
        if layout.estimated_seconds > MAX_SECONDS:
            smaller = _offer(cuts, below=picture.drawn_nodes)
            raise GraphTooLarge(_too_large_message(picture, layout, max_nodes, smaller), source)
        seconds = layout.estimated_seconds
        uncaptioned = to_dot(picture, direction=direction, layout=layout, ids=True, captioned=False)
        notes = [notes_now.get(note, note) for note in caption_notes(picture, direction)]
        return Shown(
            picture,
            Drawing(uncaptioned, estimated_seconds=seconds),
            Drawing(source, estimated_seconds=seconds),
            notes,
        )


def _view_bytes(shown: Shown, walked: Walked) -> int:
    """About how much the view of ``shown`` sends to the page: its picture three times (drawn
    in the view, and as the output's SVG and its HTML image, in base64, for where the view
    cannot run; the caption those two carry is left out), what a search looks through, and the
    view's script."""
    picture = len(shown.view.svg()) * (2 + 4 / 3)
    index = len(json.dumps(search_index(shown.picture, walked), ensure_ascii=False))
    return int(picture) + index + SCRIPT.stat().st_size


def plan_layout(graph: Graph, edge_labels: Mapping[tuple[Any, Any], str] | None = None) -> Plan:
    """How `to_dot` lays out ``graph`` with these ``edge_labels`` (keys as in `draw`), and the
    seconds Graphviz is expected to take: a label on any arrow makes dot double every row."""
    return plan(graph, edge_label_texts(graph, edge_labels or {}))


# --- the part of the model drawn ---------------------------------------------------------------


class _Cuts:
    """The pictures of one model, cut after any number of its Nodes, and the seconds each is
    estimated to take to lay out: the whole picture's from its own plan, which its drawing then
    uses, every cut's from one pass over the model, on the whole picture's rows, as far as it is
    needed (`CutEstimates`). Each is worked out once, when first needed."""

    def __init__(
        self, model: Graph, labelled: Collection[tuple[str, str]], layer_ends: list[int] = ()
    ) -> None:
        self.model = model
        self.labelled = labelled  # the arrows with a label, which dot pays for
        # Where each layer of a stack ends, counted in Nodes from the output (cut.in_layers).
        self.layer_ends = list(layer_ends)
        self._whole: tuple[Graph, dict[str, int], Plan] | None = None
        self._estimates: CutEstimates | None = None

    def seconds(self, nodes: int) -> float:
        """The estimated seconds of the picture of the first ``nodes`` Nodes."""
        if nodes >= self.model.walked_nodes:
            return self._planned_whole()[2].estimated_seconds
        return self._cut_estimates()[nodes]

    def picture(self, nodes: int, planned: bool) -> tuple[Graph, dict[str, int], Plan | None]:
        """The picture of the first ``nodes`` Nodes, with reference boxes; the uses of each box
        they repeat; and its plan, if ``planned`` or already made."""
        if nodes >= self.model.walked_nodes and (planned or self._whole is not None):
            return self._planned_whole()
        if nodes >= self.model.walked_nodes:
            return (*add_references(self.model), None)
        picture, uses = add_references(cut(self.model, nodes))
        return picture, uses, plan(picture, self.labelled) if planned else None

    def readable(self, nodes: int) -> bool:
        """Whether the picture of the first ``nodes`` Nodes is one a learner can read on a
        screen: at most `SUGGESTED_ROWS` rows tall and `SUGGESTED_ACROSS` boxes wide."""
        if nodes >= self.model.walked_nodes:
            layout = self._planned_whole()[2]
            rows, across = layout.rows, max(Counter(layout.height.values()).values(), default=0)
        else:
            rows, across = self._cut_estimates().extent(nodes)
        return rows <= SUGGESTED_ROWS and across <= SUGGESTED_ACROSS

    def most_within(self, seconds: float) -> int:
        """The most Nodes, fewer than all, whose cut pictures are all estimated to lay out
        within ``seconds`` and are readable (one at least). A cut's estimate can be short of
        its own plan's: each counts as within only with room for that (`CUT_ERROR`)."""
        most = 1
        while (
            most + 1 < self.model.walked_nodes
            and self.seconds(most + 1) * CUT_ERROR <= seconds
            and self.readable(most + 1)
        ):
            most += 1
        return most

    def _planned_whole(self) -> tuple[Graph, dict[str, int], Plan]:
        if self._whole is None:
            picture, uses = add_references(self.model)
            self._whole = (picture, uses, plan(picture, self.labelled))
        return self._whole

    def _cut_estimates(self) -> CutEstimates:
        if self._estimates is None:
            picture, _, layout = self._planned_whole()
            self._estimates = CutEstimates(picture, layout, self.labelled)
        return self._estimates


def _picture(cuts: _Cuts, max_nodes: int | None, planned: bool, quick: bool) -> tuple[Graph, Plan]:
    """The picture `draw` makes with ``max_nodes``, captioned, and its plan if ``planned`` (or
    if choosing the picture made it; else None). ``quick``: the learner left max_nodes to the
    default, which promises a quick picture, folded or not (folding keeps a model's own Nodes
    few, not those around it: a loss that sums a term over every parameter)."""
    model = cuts.model
    nodes = model.walked_nodes if max_nodes is None else max_nodes
    if quick:
        # The default promises a quick picture: cut further where the Nodes make a slow one,
        # and between two layers of a stack rather than through one.
        while cuts.seconds(nodes) > DEFAULT_SECONDS and nodes > 1:
            nodes //= 2
        nodes = max((end for end in cuts.layer_ends if end <= nodes), default=nodes)
    picture, uses, layout = cuts.picture(nodes, planned=planned or quick)
    # A cut's estimate can be short of its own plan's, which has the last word.
    while quick and layout.estimated_seconds > DEFAULT_SECONDS and nodes > 1:
        nodes //= 2
        picture, uses, layout = cuts.picture(nodes, planned=True)
    notes = [*picture.notes, *reference_notes(picture, uses)]
    if picture.drawn_nodes < picture.total_nodes:
        # Where the walk stopped before the end, drawing all it went through is all there is.
        whole = picture.drawn_nodes == model.walked_nodes
        layers = cuts.layer_ends.index(nodes) + 1 if nodes in cuts.layer_ends else None
        more = model.walked_nodes if whole else _offer(cuts)
        notes.append(cut_note(picture, more, layers))
    return replace(picture, notes=notes), layout


def _offer(cuts: _Cuts, below: int | None = None) -> int | None:
    """The max_nodes a caption offers, or an error fewer than ``below``: the most Nodes whose
    picture is estimated to lay out within SUGGESTED_SECONDS and is readable on a screen (see
    `_Cuts.readable`), as a number a learner can type; None for all of them."""
    model = cuts.model
    whole = model.walked_nodes
    if below is None and cuts.seconds(whole) <= SUGGESTED_SECONDS and cuts.readable(whole):
        return None if model.walked_all else _round_down(model.walked_nodes)
    most = cuts.most_within(SUGGESTED_SECONDS)
    return _round_down(most if below is None else min(most, below - 1))


def _direction(direction: str, layout: Plan) -> str:
    """The direction a picture is drawn in: "auto" is forward up to `FORWARD_ROWS` rows, and
    backward for a taller picture, which then opens at its output."""
    if direction != "auto":
        return direction
    return "forward" if layout.rows <= FORWARD_ROWS else "backward"


def _by_module(
    model: Graph, expand: Any, fold: Any, max_nodes: int | None
) -> tuple[Graph, int | None, list[int]]:
    """The model framed by module, and folded where it is too big to read whole; the max_nodes
    to cut it with (a folded picture is drawn whole, since folding made it fit); and, for a
    model not recorded whose parameters are named as layers, where each layer ends (its Nodes
    are then counted from the output layer by layer, so that cuts keep layers whole)."""
    found, folded, expand = _folding(model, expand, fold)
    if not found.recorded:
        return _layered(model, max_nodes)
    return (*_folded(model, found, folded, expand, max_nodes), [])


def _layered(model: Graph, max_nodes: int | None) -> tuple[Graph, int | None, list[int]]:
    """An unrecorded model counted layer by layer where its parameters name layers."""
    layered, ends = in_layers(model)
    return layered, max_nodes, ends


def _folding(
    model: Graph, expand: Any, fold: Any
) -> tuple[modules.Modules, set[str], tuple[str, ...]]:
    """Which module made each box of ``model``, the modules its picture folds, and the modules
    drawn whole (``expand``, checked)."""
    expand = _checked_expand(expand)
    if not isinstance(fold, bool):
        raise TypeError(MESSAGES.say("not_true_or_false", option="fold", value=fold))
    found = modules.modules_of(model)
    if not found.recorded:
        if expand:
            raise ValueError(MESSAGES.say("expand_needs_recording"))
        return found, set(), expand
    for path in expand:
        if path not in found.types:
            raise ValueError(_unknown_module_message(path, found.types))
    folded = modules.default_folding(model, found, expand) if fold else set()
    return found, folded, expand


def _folded(
    model: Graph,
    found: modules.Modules,
    folded: Collection[str],
    apart: Collection[str],
    max_nodes: int | None,
    interactive: bool = False,
) -> tuple[Graph, int | None]:
    """The model with ``folded`` modules folded (those in ``apart`` kept out of runs), and the
    max_nodes to cut it with: a folded picture is drawn whole where it is quick to lay out,
    since folding made it fit (`_picture` cuts it where it is not)."""
    picture = modules.fold(model, found, set(folded), apart)
    note = modules.folding_note(picture, set(folded), interactive)
    if note is None:
        return picture, max_nodes
    picture = replace(picture, notes=[*picture.notes, note])
    return picture, (None if max_nodes == DEFAULT_MAX_NODES else max_nodes)


def _checked_expand(expand: Any) -> tuple[str, ...]:
    if expand is None:
        return ()
    if isinstance(expand, str):
        return (expand,)
    if isinstance(expand, Collection) and all(isinstance(path, str) for path in expand):
        return tuple(expand)
    raise TypeError(MESSAGES.say("bad_expand", got=type(expand).__name__))


def _unknown_module_message(path: str, known: Collection[str]) -> str:
    close = difflib.get_close_matches(path, [p for p in known if p], n=3, cutoff=0.5)
    if close:
        return MESSAGES.say("unknown_module_nearest", path=path, nearest=", ".join(close))
    return MESSAGES.say("unknown_module", path=path)


def _marks(marks: Any) -> list[tuple[str, torch.Tensor, str]]:
    """``marks=`` as (name, tensor, mark) triples: a comparison's, or the triples given."""
    if marks is None:
        return []
    if hasattr(marks, "marks") and callable(marks.marks):
        marks = marks.marks()
    try:
        triples = [tuple(item) for item in marks]
    except TypeError:
        raise TypeError(MESSAGES.say("bad_marks", got=type(marks).__name__)) from None
    for triple in triples:
        if not (
            len(triple) == 3
            and isinstance(triple[0], str)
            and isinstance(triple[1], torch.Tensor)
            and triple[2] in MARKS
        ):
            raise TypeError(MESSAGES.say("bad_marks", got=type(marks).__name__))
    return triples


def _marked(model: Graph, marked: list[tuple[str, torch.Tensor, str]]) -> Graph:
    """The model with each marked tensor's box marked (matched by identity)."""
    if not marked:
        return model
    mark_of = {id(tensor): mark for _, tensor, mark in marked}
    boxes = []
    for node in model.nodes:
        tensor = getattr(node.fn, "variable", None)  # a leaf's, through its AccumulateGrad
        if tensor is None and node.tensor is not None:
            tensor = node.tensor()
        mark = mark_of.get(id(tensor)) if tensor is not None else None
        boxes.append(node if mark is None or node.same_as else replace(node, mark=mark))
    return replace(model, nodes=boxes)


def _check_walk(model: Graph, max_nodes: int | None) -> None:
    """Refuse to draw more Nodes than the walk went through, in a graph it did not walk whole
    (the default picture draws what it found)."""
    if model.walked_all or max_nodes == DEFAULT_MAX_NODES:
        return
    if max_nodes is None or max_nodes > model.walked_nodes:
        raise GraphTooLarge(_too_many_nodes_message(model), None)


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

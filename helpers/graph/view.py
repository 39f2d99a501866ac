"""The interactive view of a graph: pan, zoom, search, unfold modules and read any box.

    >>> from helpers.graph import explore
    >>> explore(loss)        # in a notebook: the picture of draw(loss), to move about in

The picture is the one `draw` makes, drawn by Graphviz in the kernel: the same boxes, colours,
names and folding, and every box and frame carries its id into the SVG (``n12``, ``m3``, ``f0``).
A small script of our own (``view.js``, run by anywidget in JupyterLab, VS Code and Colab) moves
and zooms that SVG in the browser and tells the kernel which box was clicked; the kernel answers
with what the box holds (`read`), or folds or unfolds a module and draws the picture again with
the same pipeline as `draw`. There is no second layout engine to keep faithful.

What the kernel keeps: weak references to your tensors, and, while the tensors the picture was
drawn from live, the model of their graph (its boxes hold the graph's Nodes, which those tensors
hold anyway). Once you let go of them the model goes too, and the view says so when asked.

Every output also carries the picture itself, as SVG and as an image in HTML, so that a notebook
shows it where the script cannot run: on GitHub, in an untrusted notebook, in ``make html``.

A backward pass traced by `helpers.backward.trace` is stepped through in the same view by
`helpers.backward_view.step_through`, which gives the view its pictures (a `Source` of steps).
"""

from __future__ import annotations

import base64
import html
import re
import weakref
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import cache
from pathlib import Path
from typing import Any

import torch

from helpers.graph.messages import MESSAGES
from helpers.graph.model import (
    LEAF,
    MODULE,
    OP,
    OUTPUT,
    SAVED,
    SUMMARY,
    TENSOR,
    Graph,
    GraphNode,
    _saved_slots,
    describe,
    format_number,
    norm,
)
from helpers.graph.modules import Modules, folded_at, opened_to, unfolded
from helpers.graph.recording import made_by
from helpers.graph.render import Drawing
from helpers.language import Catalogue

__all__ = [
    "Explorer",
    "GraphSource",
    "Shown",
    "Source",
    "VIEW_TEXTS",
    "Walked",
    "module_details",
    "read_box",
    "without_nodes",
]

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
SCRIPT = Path(__file__).with_name("view.js")
# A tensor's first numbers the side panel shows.
FIRST_VALUES = 6
# The most parameters a module's panel lists one by one.
LISTED_PARAMETERS = 12
# The most names a search looks through: every box drawn, and named tensors folded away.
SEARCHED = 5_000


# --- what the view holds, and what it shows --------------------------------------------------


@dataclass(frozen=True)
class Walked:
    """One walk of the graph, as the view draws it: the model of every Node (`build_graph`),
    the module of each box, and the folding the picture shows now (modules folded, and folded
    modules kept out of runs of blocks)."""

    model: Graph
    modules: Modules
    folded: frozenset[str]
    apart: frozenset[str]


@dataclass(frozen=True)
class Shown:
    """One picture of a view: its model; as the view shows it, its caption's notes said below
    it instead (``notes``); and as `draw` draws it, caption and all, for where the view does
    not run (``still``)."""

    picture: Graph
    view: Drawing
    still: Drawing
    notes: list[str]


class Source:
    """What a view shows and answers: the picture, the names a search finds, and what a click
    on a box does. `GraphSource` is `explore`'s; `helpers.backward_view` has one of steps."""

    picture: Graph  # the picture shown now, as a model
    svg: str = ""  # and as SVG, as the view shows it
    home: str = ""  # the box the view opens at: the output
    steps: int = 0  # a view of a backward pass: how many steps, else 0
    caption: str = ""  # said below the picture: its notes, or the step shown

    def still_svg(self) -> str:
        """The picture as SVG where the view does not run (its caption in the picture)."""
        return self.svg

    def index(self) -> list[list[str]]:
        """What a search looks through: [name, box id, kind, id of the box that holds it now
        ("" when it is drawn itself)]."""
        return search_index(self.picture)

    def read(self, box: str) -> dict[str, Any]:
        raise NotImplementedError

    def click(self, box: str) -> tuple[dict[str, Any], str | None]:
        """A click on a box or a frame: what the side panel shows, and the box or frame to bring
        into view if the picture changed (None if it did not)."""
        return self.read(box), None

    def reveal(self, box: str) -> tuple[dict[str, Any], str | None]:
        """Bring a box hidden inside a folded module into the picture."""
        return self.read(box), None

    def refresh(self) -> dict[str, Any] | None:
        """Draw the picture again from the graph as it is now; what the side panel says if
        that cannot be done (the graph is gone)."""
        return None

    def go_to(self, step: int) -> None:
        """Show step ``step`` (from 1) of a backward pass."""

    def unfold(self, path: str) -> None:
        raise TypeError(say("cannot fold"))

    def fold(self, path: str) -> None:
        raise TypeError(say("cannot fold"))


class _Gone(Exception):
    """The tensors a view was drawn from are gone."""


class GraphSource(Source):
    """`explore`'s pictures: a graph folded by module as the learner asks, each picture drawn
    by ``pictures`` (`helpers.graph`'s pipeline, as `draw` draws).

    It holds your tensors by weak references. The model of their graph and the picture drawn
    from it (whose boxes hold the graph's Nodes) are kept only while the tensors the picture was
    drawn from live: a notebook keeps every widget until the kernel stops, and a view must not
    keep a graph alive after you let go of it.
    """

    def __init__(
        self,
        pictures: Any,
        roots: Sequence[torch.Tensor],
        named: Sequence[tuple[str, torch.Tensor]],
        marked: Sequence[tuple[str, torch.Tensor, str]] = (),
    ) -> None:
        self._pictures = pictures
        self._roots = [weakref.ref(root) for root in roots]
        self._named = _weakly(named)
        self._marked = _weakly(marked)
        self._walked: Walked | None = None  # the model, while the roots live
        self._full: Graph | None = None  # the picture with its Nodes, as long
        self._folding: tuple[frozenset[str], frozenset[str]] | None = None
        self._draw(self._walk())

    @classmethod
    def later(
        cls,
        pictures: Any,
        roots: Sequence[torch.Tensor],
        named: Sequence[tuple[str, torch.Tensor]],
        marked: Sequence[tuple[str, torch.Tensor, str]] = (),
    ) -> Callable[[], GraphSource]:
        """What makes this source when asked (`Drawing.explore`), holding only weak
        references until then."""
        weak_roots = [weakref.ref(root) for root in roots]
        weak_named, weak_marked = _weakly(named), _weakly(marked)

        def make() -> GraphSource:
            alive = _alive(weak_roots)
            if alive is None:
                raise ValueError(say("gone"))
            return cls(pictures, alive, _living(weak_named), _living(weak_marked))

        return make

    # --- the model and the picture --------------------------------------------------------------

    def _walk(self) -> Walked:
        if self._walked is not None:
            return self._walked
        roots = _alive(self._roots)
        if roots is None:
            raise _Gone
        walked = self._pictures.model(roots, _living(self._named), _living(self._marked))
        if self._folding is not None:  # drawn again: the learner's folding stays
            walked = replace(walked, folded=self._folding[0], apart=self._folding[1])
        reference = weakref.ref(self)
        for root in roots:
            weakref.finalize(root, _forget, reference)
        return walked

    def _draw(self, walked: Walked) -> None:
        shown = self._pictures.picture(walked)
        self._walked, self._full = walked, shown.picture
        self._folding = (walked.folded, walked.apart)
        self.picture = without_nodes(shown.picture)
        self.svg = _inline_svg(shown.view.svg())
        self._still = shown.still  # rendered when asked: once, for the notebook's output
        self.caption = "\n".join(shown.notes)
        self.home = _home(shown.picture)

    def _state(self) -> tuple[Walked, Graph]:
        if self._walked is None or self._full is None:
            raise _Gone
        return self._walked, self._full

    def forget(self) -> None:
        self._walked = self._full = None

    def still_svg(self) -> str:
        return _inline_svg(self._still.svg())

    def index(self) -> list[list[str]]:
        # The named tensors folded away are found too: a search unfolds down to them.
        return search_index(self.picture, self._walked)

    # --- what a click does ---------------------------------------------------------------------

    def read(self, box: str) -> dict[str, Any]:
        try:
            walked, full = self._state()
        except _Gone:
            return _gone()
        return read_box(full, walked, box)

    def click(self, box: str) -> tuple[dict[str, Any], str | None]:
        try:
            walked, full = self._state()
        except _Gone:
            return _gone(), None
        node = _box(full, box)
        if node is not None and node.kind == MODULE:
            paths = full.module_boxes.get(node.id, ())
            if len(paths) == 1:
                return self._refold(unfolded(walked.modules, walked.folded, paths[0]), paths[0])
            if len(paths) > 1:  # a run of blocks: each block on its own, still folded
                self._draw(replace(walked, apart=walked.apart | set(paths)))
                return self._module_read(paths[0]), self._box_of_module(paths[0])
        frame = _frame(full, box)
        if frame is not None:
            return self._refold(folded_at(walked.folded, frame.path), frame.path)
        return read_box(full, walked, box), None

    def reveal(self, box: str) -> tuple[dict[str, Any], str | None]:
        try:
            walked, _ = self._state()
        except _Gone:
            return _gone(), None
        folded = opened_to(walked.modules, walked.folded, box)
        self._draw(replace(walked, folded=frozenset(folded)))
        return self.read(box), box

    def unfold(self, path: str) -> None:
        walked = self._known(path)
        self._refold(unfolded(walked.modules, walked.folded, path), path)

    def fold(self, path: str) -> None:
        self._refold(folded_at(self._known(path).folded, path), path)

    def _known(self, path: str) -> Walked:
        try:
            walked, _ = self._state()
        except _Gone:
            raise ValueError(say("gone")) from None
        if path not in walked.modules.types:
            raise ValueError(MESSAGES.say("unknown_module", path=path))
        return walked

    def refresh(self) -> dict[str, Any] | None:
        self._walked = self._full = None
        try:
            self._draw(self._walk())
        except _Gone:
            return _gone()
        return None

    def _refold(self, folded: set[str], path: str) -> tuple[dict[str, Any], str | None]:
        walked, _ = self._state()
        self._draw(replace(walked, folded=frozenset(folded)))
        return self._module_read(path), self._box_of_module(path)

    def _module_read(self, path: str) -> dict[str, Any]:
        walked, full = self._state()
        return module_details(full, walked, (path,))

    def _box_of_module(self, path: str) -> str | None:
        """The box or the frame of module ``path`` in the picture, to bring into view."""
        for box, paths in self.picture.module_boxes.items():
            if path in paths:
                return box
        for number, frame in enumerate(self.picture.frames):
            if frame.path == path:
                return f"f{number}"
        return None


def without_nodes(picture: Graph) -> Graph:
    """``picture`` without the autograd Nodes its boxes hold: what a view keeps of a picture
    for as long as it is shown (ids, titles, kinds, frames), which keeps no graph alive."""
    boxes = [replace(node, fn=None) if node.fn is not None else node for node in picture.nodes]
    return replace(picture, nodes=boxes, hidden=[])


def _forget(reference: weakref.ref) -> None:
    source = reference()
    if source is not None:
        source.forget()


def _weakly(items: Sequence[tuple]) -> list[tuple]:
    return [(item[0], weakref.ref(item[1]), *item[2:]) for item in items]


def _living(items: Sequence[tuple]) -> list[tuple]:
    found = []
    for item in items:
        tensor = item[1]()
        if tensor is not None:
            found.append((item[0], tensor, *item[2:]))
    return found


def _alive(references: Sequence[weakref.ref]) -> list[torch.Tensor] | None:
    roots = [reference() for reference in references]
    return None if any(root is None for root in roots) else roots


def _gone() -> dict[str, Any]:
    return {"title": VIEW_TEXTS.say("gone title"), "sections": [_text(VIEW_TEXTS.say("gone"))]}


def _box(picture: Graph, box: str) -> GraphNode | None:
    return next((node for node in picture.nodes if node.id == box), None)


def _frame(picture: Graph, box: str) -> Any:
    if re.fullmatch(r"f\d+", box) and int(box[1:]) < len(picture.frames):
        return picture.frames[int(box[1:])]
    return None


def _home(picture: Graph) -> str:
    """The box the view opens at: the first output's, else the last box."""
    outputs = [node.id for node in picture.nodes if node.kind == OUTPUT and not node.same_as]
    return outputs[0] if outputs else (picture.nodes[-1].id if picture.nodes else "")


def search_index(picture: Graph, walked: Walked | None = None) -> list[list[str]]:
    """What a search of the view looks through (`Source.index`)."""
    entries = [
        [node.title, node.id, node.kind, ""]
        for node in picture.nodes
        if node.title and not node.same_as
    ]
    if walked is not None:
        for node in walked.model.nodes:
            holder = picture.folded_into.get(node.id)
            if holder and node.title and node.kind in (LEAF, TENSOR, OUTPUT):
                entries.append([node.title, node.id, node.kind, holder])
    return entries[:SEARCHED]


# --- what the side panel says about a box ------------------------------------------------------


def read_box(picture: Graph, walked: Walked, box: str, foldable: bool = True) -> dict[str, Any]:
    """What the side panel shows for box ``box`` of ``picture``: a title, a line on what the box
    is, and sections of rows (label, value) or a sentence each; for a module, a button that
    folds or unfolds it, where the view can (``foldable``)."""
    node = _box(picture, box)
    frame = _frame(picture, box)
    if frame is not None:
        return module_details(picture, walked, (frame.path,), foldable)
    if node is None:
        node = next((n for n in walked.model.nodes if n.id == box), None)
        if node is None:
            return {"title": box, "sections": [_text(VIEW_TEXTS.say("no such box"))]}
    if node.same_as is not None:
        full = _box(picture, node.same_as)
        node = full if full is not None else node
    if node.kind == MODULE:
        return module_details(picture, walked, picture.module_boxes.get(node.id, ()), foldable)
    if node.kind == SUMMARY:
        return {"title": node.title, "subtitle": say("kind summary"), "sections": []}
    if node.kind == SAVED:
        rows = [[say("value"), node.value]]
        return {"title": node.title, "subtitle": say("kind saved"), "sections": [_rows("", rows)]}
    if node.kind == OP:
        return _op_details(node, picture, walked)
    return _tensor_details(node)


def _tensor_details(node: GraphNode) -> dict[str, Any]:
    tensor = _tensor_of(node)
    kind = {LEAF: "kind leaf", TENSOR: "kind tensor", OUTPUT: "kind output"}[node.kind]
    title = node.title or node.value
    if tensor is None:
        return {"title": title, "subtitle": say(kind), "sections": [_text(say("tensor gone"))]}
    sections = [_rows(say("value"), tensor_rows(tensor))]
    sections.append(_gradient_section(tensor))
    label = made_by(node.fn) if node.fn is not None else None
    if label is not None and label.parameter:
        rows = [
            [say("module"), label.module or say("the model")],
            [say("parameter"), label.parameter],
        ]
        sections.append(_rows(say("made by"), rows))
    return {"title": title, "subtitle": say(kind), "sections": sections}


def _tensor_of(node: GraphNode) -> torch.Tensor | None:
    leaf = getattr(node.fn, "variable", None) if node.fn is not None else None
    if isinstance(leaf, torch.Tensor):
        return leaf
    return node.tensor() if node.tensor is not None else None


def _gradient_section(tensor: torch.Tensor) -> dict[str, Any]:
    heading = say("gradient")
    if not tensor.requires_grad:
        return _text(say("no grad needed"), heading)
    if not (tensor.is_leaf or tensor.retains_grad):
        return _text(say("grad not kept"), heading)
    if tensor.grad is None:
        return _text(say("no grad yet"), heading)
    return _rows(heading, tensor_rows(tensor.grad))


def _op_details(node: GraphNode, picture: Graph, walked: Walked) -> dict[str, Any]:
    fn = node.fn
    sections = []
    label = made_by(fn)
    if label is not None:
        rows = [[say("module"), label.module if label.module is not None else say("no module")]]
        if label.code is not None:
            rows.append([say("line"), f"{Path(label.file).name}:{label.line}: {label.code}"])
        sections.append(_rows(say("made by"), rows))
    sections.append(_rows(say("sends to"), _next_rows(fn, picture, walked)))
    sections.extend(saved_sections(fn))
    return {"title": node.title, "subtitle": say("kind op"), "sections": sections}


def _next_rows(fn: Any, picture: Graph, walked: Walked) -> list[list[str]]:
    """For each input of the op (each entry of ``next_functions``), the box its gradient goes
    to: drawn, inside a folded module, or left out of the picture."""
    boxes = {id(node.fn): node for node in walked.model.nodes if node.fn is not None}
    rows = []
    for slot, (next_fn, _) in enumerate(fn.next_functions):
        if next_fn is None:
            rows.append([str(slot), say("no gradient goes")])
            continue
        box = boxes.get(id(next_fn))
        name = box.title if box is not None and box.title else type(next_fn).__name__
        if box is not None and box.kind in (LEAF, OUTPUT) and box.title:
            name = f"{type(next_fn).__name__} ({box.title})"
        holder = picture.folded_into.get(box.id) if box is not None else None
        if box is None:
            name = say("not drawn", name=name)
        elif holder is not None:
            name = say("inside", name=name, box=_title_of(picture, holder))
        rows.append([str(slot), name])
    return rows


def _title_of(picture: Graph, box: str) -> str:
    node = _box(picture, box)
    return node.title if node is not None else box


def saved_sections(fn: Any) -> list[dict[str, Any]]:
    """What the op saved for its backward: each tensor with its shape and version, and whether
    backward freed it or an in-place change spoiled it; then the other values it kept (a loss's
    ``ignore_index``, a dimension), apart, since they are not tensors."""
    tensors, values = [], []
    for slot_name, read in _saved_slots(fn):
        try:
            value = read()
        except RuntimeError as error:
            tensors.append([slot_name, _unreadable(str(error))])
            continue
        items = value if isinstance(value, (list, tuple)) else [value]
        named = (
            [(f"{slot_name}[{i}]", v) for i, v in enumerate(items)]
            if len(items) > 1
            else [(slot_name, items[0] if items else value)]
        )
        for name, item in named:
            if isinstance(item, torch.Tensor):
                version = _version(item)
                text = describe(item, show_values=False)
                if version is not None:
                    text = say("saved tensor", tensor=text, version=version)
                tensors.append([name, text])
            elif item is not None:
                values.append([name, " ".join(str(_signed(item)).split())[:80]])
    heading = say("saved")
    sections = [_rows(heading, tensors) if tensors else _text(say("saved nothing"), heading)]
    if values:
        sections.append(_rows(say("saved values"), values))
    return sections


def _signed(value: Any) -> Any:
    # PyTorch hands a saved int64 to Python as unsigned: NLLLoss's ignore_index=-100 reads
    # 18446744073709551516. No saved size or index is near 2**63, so a larger one is negative.
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2**63:
        return value - 2**64
    return value


def _unreadable(error: str) -> str:
    """Why PyTorch would not give a saved tensor back: freed by backward(), or changed in place
    since it was saved (its error names both versions)."""
    versions = re.search(r"is at version (\d+); expected version (\d+)", error)
    if versions:
        return say("changed in place", now=versions.group(1), saved=versions.group(2))
    return say("freed")


def module_details(
    picture: Graph, walked: Walked, paths: Sequence[str], foldable: bool = True
) -> dict[str, Any]:
    """A module's panel (a run of blocks: all of them): its parameters, each with its shape and
    the norm of its gradient, and the Nodes it made; and the button that folds or unfolds it."""
    found = walked.modules
    inside = [
        node
        for node in walked.model.nodes
        if not node.same_as and any(found.inside(node.id, path) for path in paths)
    ]
    parameters = [
        node for node in inside if isinstance(getattr(node.fn, "variable", None), torch.Tensor)
    ]
    ops = sum(1 for node in inside if node.kind == OP)
    rows = []
    for node in parameters[:LISTED_PARAMETERS]:
        leaf = node.fn.variable
        label = made_by(node.fn)
        name = node.title or (label.parameter if label is not None and label.parameter else "")
        text = describe(leaf, show_values=False)
        if leaf.grad is not None:
            text = say("with grad norm", tensor=text, norm=format_number(norm(leaf.grad)))
        rows.append([name, text])
    if len(parameters) > LISTED_PARAMETERS:
        rows.append(["…", say("more parameters", more=len(parameters) - LISTED_PARAMETERS)])
    count = sum(node.fn.variable.numel() for node in parameters)
    summary = [[say("parameters"), f"{count:,}"], [say("nodes inside"), f"{ops:,}"]]
    first = paths[0] if paths else ""
    title = found.label(first) if len(paths) == 1 else f"{paths[0]} – {paths[-1]}"
    details: dict[str, Any] = {
        "title": title,
        "subtitle": say("kind module"),
        "sections": [_rows("", summary), _rows(say("parameter list"), rows)],
    }
    if not foldable:
        return details
    folded = any(
        path in picture.module_boxes.get(box, ()) for box in picture.module_boxes for path in paths
    )
    box = next((b for b, p in picture.module_boxes.items() if first in p), None)
    if folded and box is not None:
        details["action"] = {"label": say("unfold", path=first or say("the model")), "box": box}
    else:
        number = next((i for i, frame in enumerate(picture.frames) if frame.path == first), None)
        if number is not None:
            details["action"] = {
                "label": say("fold", path=first or say("the model")),
                "box": f"f{number}",
            }
    return details


def tensor_rows(tensor: torch.Tensor) -> list[list[str]]:
    """A tensor's shape, dtype and device, its smallest and largest value, mean and norm, how
    many nan and inf it holds, its first values and its version, as the side panel lists them."""
    data = tensor.detach()
    rows = [
        [say("shape"), describe(data, show_values=False).rsplit(" ", 1)[0]],
        [say("dtype"), str(data.dtype).removeprefix("torch.")],
        [say("device"), str(data.device)],
    ]
    readable = data.layout == torch.strided and not data.is_nested and data.device.type != "meta"
    if readable and data.numel() > 0:
        rows += _statistics(data)
        first = data.flatten()[:FIRST_VALUES].tolist()
        more = ", …" if data.numel() > FIRST_VALUES else ""
        rows.append([say("first values"), "[" + ", ".join(map(_number, first)) + more + "]"])
    version = _version(tensor)
    if version is not None:
        rows.append([say("version"), str(version)])
    return rows


def _statistics(data: torch.Tensor) -> list[list[str]]:
    if data.is_complex() or data.dtype == torch.bool:
        return []
    numbers = data if data.is_floating_point() else data.double()
    low, high = (float(value) for value in torch.aminmax(numbers))
    mean = float(numbers.mean())
    # aminmax passes a nan on, and an inf is the smallest or the largest: both finite, none of
    # either. Counting them costs more than the rest together, so only where there are some.
    nan = inf = 0
    if not (_finite(low) and _finite(high)):
        nan, inf = int(numbers.isnan().sum()), int(numbers.isinf().sum())
    return [
        [say("min"), _number(low)],
        [say("max"), _number(high)],
        [say("mean"), _number(mean)],
        [say("norm"), _number(norm(numbers))],
        [say("nan"), f"{nan:,}"],
        [say("inf"), f"{inf:,}"],
    ]


def _finite(number: float) -> bool:
    return number == number and abs(number) != float("inf")


def _number(value: Any) -> str:
    return format_number(value) if isinstance(value, (int, float, complex, bool)) else str(value)


def _version(tensor: torch.Tensor) -> int | None:
    try:
        return tensor._version
    except RuntimeError:  # a tensor made in inference mode has no version counter
        return None


def _rows(heading: str, rows: list[list[str]]) -> dict[str, Any]:
    return {"heading": heading, "rows": rows}


def _text(text: str, heading: str = "") -> dict[str, Any]:
    return {"heading": heading, "rows": [], "text": text}


# --- the view: the widget, and the picture every output carries ----------------------------------


class Explorer:
    """What `explore` returns: in a notebook, the picture you can move about in and ask about;
    where widgets do not run, the picture itself. ``svg()`` is the picture shown now,
    ``read(box)`` what the side panel says about a box (its id, such as "n12"), ``unfold(path)``
    and ``fold(path)`` fold a module as a click does."""

    def __init__(self, source: Source) -> None:
        self._source = source
        self._widget: Any = None

    def svg(self) -> str:
        """The picture shown now, as `draw` draws it (with its caption)."""
        return self._source.still_svg()

    def read(self, box: str) -> dict[str, Any]:
        return self._source.read(box)

    def unfold(self, path: str) -> None:
        self._source.unfold(path)
        self._show()

    def fold(self, path: str) -> None:
        self._source.fold(path)
        self._show()

    @property
    def boxes(self) -> int:
        """How many boxes the picture shows now."""
        return len(self._source.picture.nodes)

    def widget(self) -> Any:
        """The view as a widget (anywidget), or None where anywidget is not installed."""
        if self._widget is None:
            widget_class = _widget_class()
            if widget_class is not None:
                self._widget = widget_class(
                    svg=self._source.svg,
                    home=self._source.home,
                    index=self._source.index(),
                    texts=_script_texts(),
                    steps=self._source.steps,
                    step=1 if self._source.steps else 0,
                    caption=self._source.caption,
                )
                self._widget.on_msg(self._answer)
                self._widget.observe(self._step, names="step")
        return self._widget

    def _show(self) -> None:
        if self._widget is not None:
            self._widget.svg = self._source.svg
            self._widget.index = self._source.index()
            self._widget.caption = self._source.caption

    def _answer(self, widget: Any, content: dict, buffers: Any = None) -> None:
        """A message from the script: a box clicked or searched for, or the picture to draw
        again. The answer is the side panel's content, and the picture if it changed."""
        kind, box = content.get("kind"), str(content.get("box", ""))
        try:
            if kind == "click":
                details, focus = self._source.click(box)
            elif kind == "reveal":
                details, focus = self._source.reveal(box)
            elif kind == "refresh":
                details, focus = self._source.refresh(), None
            else:
                details, focus = self._source.read(box), None
        except Exception as error:  # noqa: BLE001 - said in the view; the picture stays as it was
            widget.send({"kind": "status", "text": VIEW_TEXTS.say("failed", error=error)})
            return
        if focus is not None or kind == "refresh":
            self._show()
        if details is not None:
            widget.send({"kind": "details", "box": box, **details})
        if focus is not None:
            widget.send({"kind": "focus", "box": focus})

    def _step(self, change: dict) -> None:
        self._source.go_to(int(change["new"]))
        self._show()

    def static_html(self) -> str:
        """The picture as an image in HTML: what shows where the view cannot run. An image, not
        inline SVG: JupyterLab strips inline SVG from a notebook it does not trust yet."""
        svg = self._source.still_svg()
        source = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
        alt = html.escape(VIEW_TEXTS.say("picture"))
        return f"<img src='{source}' alt='{alt}'>"

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        # JupyterLab shows the widget, a static page or an untrusted notebook the HTML image, a
        # renderer that takes no HTML the SVG. nbval compares the text and the HTML (its image
        # blanked), which are the same on every run; it skips the widget's part, whose model
        # id changes, and the SVG, whose fonts do.
        bundle: dict[str, Any] = {
            "text/plain": repr(self),
            "text/html": self.static_html(),
            "image/svg+xml": self._source.still_svg(),
        }
        metadata: dict[str, Any] = {}
        widget = self.widget()
        if widget is not None:
            # Written out rather than asked of the widget, as helpers.backward_view does: the
            # view both ipywidgets 7 (Colab's page) and 8 understand. anywidget's own metadata
            # tells Colab to load it with its custom widget manager.
            data, metadata = widget._repr_mimebundle_()
            bundle[WIDGET_VIEW] = data[WIDGET_VIEW]
        return bundle, metadata

    def __repr__(self) -> str:
        return VIEW_TEXTS.say("repr", boxes=len(self._source.picture.nodes))


def _widget_class() -> Any:
    """The widget class, or None where anywidget cannot be imported."""
    try:
        import anywidget  # noqa: F401
    except ImportError:
        return None
    return _made_widget_class()


@cache
def _made_widget_class() -> Any:
    """The widget class, made when the first view is shown: importing anywidget (and ipywidgets)
    takes a moment that a helper which never shows a view should not pay."""
    import anywidget
    import traitlets

    class GraphView(anywidget.AnyWidget):
        """The view of one graph: the SVG shown, what a search finds, the words of the view."""

        _esm = SCRIPT.read_text(encoding="utf-8")
        _css = _STYLE
        svg = traitlets.Unicode("").tag(sync=True)
        home = traitlets.Unicode("").tag(sync=True)
        index = traitlets.List([]).tag(sync=True)
        texts = traitlets.Dict({}).tag(sync=True)
        steps = traitlets.Int(0).tag(sync=True)
        step = traitlets.Int(0).tag(sync=True)
        caption = traitlets.Unicode("").tag(sync=True)

    return GraphView


def _inline_svg(svg: str) -> str:
    # Graphviz starts with an XML declaration and a DOCTYPE, which do not belong inside HTML.
    return svg[svg.index("<svg") :].strip() if "<svg" in svg else svg


# The view's look: the page's own fonts and colours where JupyterLab gives them, a white canvas
# for Graphviz's white picture in any theme.
_STYLE = """
.agv { font: 13px/1.4 var(--jp-ui-font-family, system-ui, sans-serif);
  color: var(--jp-ui-font-color1, #212529); border: 1px solid var(--jp-border-color2, #dee2e6);
  border-radius: 4px; background: var(--jp-layout-color1, #fff); }
.agv-bar { display: flex; flex-wrap: wrap; gap: 4px; align-items: center; padding: 4px;
  border-bottom: 1px solid var(--jp-border-color2, #dee2e6); }
.agv-bar button { font: inherit; min-width: 2em; padding: 1px 6px; cursor: pointer;
  border: 1px solid var(--jp-border-color1, #adb5bd); border-radius: 3px;
  background: var(--jp-layout-color2, #f1f3f5); color: inherit; }
.agv-find { position: relative; }
.agv-search { font: inherit; width: 14em; padding: 1px 4px; }
.agv-matches { position: absolute; z-index: 10; top: 100%; left: 0; min-width: 100%;
  max-height: 16em; overflow: auto; margin: 0; padding: 0; list-style: none;
  background: var(--jp-layout-color1, #fff); border: 1px solid var(--jp-border-color1, #adb5bd); }
.agv-matches li { padding: 2px 6px; cursor: pointer; white-space: nowrap; }
.agv-matches li:hover, .agv-matches li.agv-current { background: #d0ebff; color: #212529; }
.agv-matches small { color: #868e96; margin-left: 6px; }
.agv-main { display: flex; }
.agv-canvas { flex: 1 1 auto; min-width: 0; overflow: hidden; cursor: grab; touch-action: none;
  background: #fff; outline: none; }
.agv-canvas.agv-dragging { cursor: grabbing; }
.agv-canvas svg { display: block; }
.agv-canvas g.node { cursor: pointer; }
.agv-canvas g.cluster > text { cursor: pointer; }
.agv-canvas g.cluster:hover > path { stroke-width: 2.5; }
.agv-canvas .agv-selected { filter: drop-shadow(0 0 3px #1971c2) drop-shadow(0 0 2px #1971c2); }
.agv-panel { flex: 0 0 19em; max-width: 45%; overflow: auto; padding: 4px 8px;
  border-left: 1px solid var(--jp-border-color2, #dee2e6); position: relative; }
.agv-panel h3 { font-size: 14px; margin: 2px 1.6em 0 0; overflow-wrap: anywhere; }
.agv-panel h4 { font-size: 12px; margin: 8px 0 2px; text-transform: uppercase;
  color: var(--jp-ui-font-color2, #495057); }
.agv-panel p { margin: 2px 0; }
.agv-panel .agv-sub { color: var(--jp-ui-font-color2, #495057); }
.agv-panel table { border-collapse: collapse; }
.agv-panel th { text-align: left; font-weight: normal; padding: 0 8px 0 0; vertical-align: top;
  white-space: nowrap; color: var(--jp-ui-font-color2, #495057); }
.agv-panel td { font-family: var(--jp-code-font-family, monospace); font-size: 12px;
  overflow-wrap: anywhere; }
.agv-panel th[colspan] { white-space: normal; overflow-wrap: anywhere; padding-top: 2px; }
.agv-panel td.agv-under { padding: 0 0 2px 1em; }
.agv-panel .agv-close { position: absolute; top: 2px; right: 4px; border: none;
  background: none; font-size: 16px; cursor: pointer; color: inherit; }
.agv-panel .agv-action { margin-top: 8px; font: inherit; cursor: pointer; }
.agv-status { padding: 2px 6px; min-height: 1.4em; white-space: pre-wrap;
  color: var(--jp-ui-font-color2, #495057);
  border-top: 1px solid var(--jp-border-color2, #dee2e6); }
.agv [hidden] { display: none !important; }
"""


# --- the view's words ---------------------------------------------------------------------------

_TEXTS = {
    # The script's words (view.js): buttons, search, steps. Blanks are filled in the browser.
    "search": {"en": "Find a name…", "zh": "查找名字…"},
    "zoom in": {"en": "Zoom in", "zh": "放大"},
    "zoom out": {"en": "Zoom out", "zh": "缩小"},
    "fit": {"en": "Fit", "zh": "全图"},
    "fit title": {"en": "Fit the whole picture into the view", "zh": "把整张图放进视图"},
    "actual size": {"en": "Actual size", "zh": "原始大小"},
    "refresh": {
        "en": "Draw again from the graph as it is now (after backward(), with its gradients)",
        "zh": "按计算图现在的样子重画（backward() 之后会带上梯度）",
    },
    "hint": {
        "en": "Drag to move, scroll to zoom, click a box to read it.",
        "zh": "拖动可移动，滚动滚轮可缩放，点击一个方框可查看它的内容。",
    },
    "hint folded": {
        "en": "Drag to move, scroll to zoom, click a box to read it; a purple box unfolds, a "
        "frame's name folds.",
        "zh": "拖动可移动，滚动滚轮可缩放，点击一个方框可查看它的内容；点击模块方框会展开，"
        "点击外框的名字会折叠。",
    },
    "no match": {"en": "No box is called “{query}”.", "zh": "没有叫“{query}”的方框。"},
    "revealing": {
        "en": "{name} is inside a folded module: unfolding it…",
        "zh": "{name} 在一个折叠的模块里：正在展开…",
    },
    "asking": {"en": "Asking the kernel…", "zh": "正在询问内核…"},
    "fold frame": {"en": "Click to fold this module", "zh": "点击可折叠这个模块"},
    "close": {"en": "Close", "zh": "关闭"},
    "previous": {"en": "Previous step", "zh": "上一步"},
    "next": {"en": "Next step", "zh": "下一步"},
    "play": {"en": "Play", "zh": "播放"},
    "step": {"en": "Step", "zh": "步"},
    "step of": {"en": "step {number} of {total}", "zh": "第 {number} 步，共 {total} 步"},
    # What the kernel says in the side panel.
    "repr": {
        "en": "<interactive view of an autograd graph, {boxes:,} boxes: drag to move, scroll to "
        "zoom, click a box to read it>",
        "zh": "<自动求导计算图的交互视图，{boxes:,} 个方框：拖动可移动，滚动可缩放，"
        "点击一个方框可查看它>",
    },
    "picture": {"en": "the autograd graph", "zh": "自动求导计算图"},
    "failed": {"en": "The kernel could not do it: {error}", "zh": "内核没能做到：{error}"},
    "gone title": {"en": "This graph is gone", "zh": "这张计算图已经不在了"},
    "gone": {
        "en": "The tensors this picture was drawn from no longer exist (a variable was assigned "
        "again, or deleted): run explore(...) again to look at the graph you have now.",
        "zh": "画这张图所用的张量已经不存在了（某个变量被重新赋值或删除了）："
        "请再运行一次 explore(...)，查看你现在的计算图。",
    },
    "no such box": {
        "en": "No box has this id in the picture shown now.",
        "zh": "现在显示的图里没有这个 id 的方框。",
    },
    "kind leaf": {
        "en": "leaf tensor: backward() adds its gradient to .grad",
        "zh": "叶子张量：backward() 把它的梯度累加到 .grad",
    },
    "kind tensor": {"en": "tensor computed by an op", "zh": "由操作算出的张量"},
    "kind output": {
        "en": "output: where the backward pass starts",
        "zh": "输出：反向传播从这里开始",
    },
    "kind op": {
        "en": "autograd Node: the backward of one operation",
        "zh": "autograd 节点：一个操作的反向计算",
    },
    "kind saved": {"en": "a tensor an op saved for its backward", "zh": "操作为反向计算保存的张量"},
    "kind summary": {
        "en": "the Nodes max_nodes left out: explore(..., max_nodes=...) draws more",
        "zh": "被 max_nodes 省略的节点：explore(..., max_nodes=...) 可以画出更多",
    },
    "kind module": {"en": "module of your model", "zh": "你模型里的模块"},
    "value": {"en": "value", "zh": "值"},
    "gradient": {"en": "gradient (.grad)", "zh": "梯度（.grad）"},
    "shape": {"en": "shape", "zh": "形状"},
    "dtype": {"en": "dtype", "zh": "数据类型"},
    "device": {"en": "device", "zh": "设备"},
    "min": {"en": "min", "zh": "最小值"},
    "max": {"en": "max", "zh": "最大值"},
    "mean": {"en": "mean", "zh": "平均值"},
    "norm": {"en": "norm", "zh": "范数"},
    "nan": {"en": "nan", "zh": "nan 个数"},
    "inf": {"en": "inf", "zh": "inf 个数"},
    "first values": {"en": "first values", "zh": "前几个值"},
    "version": {"en": "version", "zh": "版本"},
    "tensor gone": {
        "en": "This tensor no longer exists: only its box is left.",
        "zh": "这个张量已经不存在了，只剩下它的方框。",
    },
    "no grad needed": {
        "en": "none: this tensor does not require grad.",
        "zh": "没有：这个张量不需要梯度。",
    },
    "grad not kept": {
        "en": "not kept: PyTorch keeps .grad for leaves only; x.retain_grad() before "
        "backward() keeps this one's.",
        "zh": "没有保留：PyTorch 只为叶子张量保留 .grad；在 backward() 之前调用 "
        "x.retain_grad() 就能保留它的梯度。",
    },
    "no grad yet": {
        "en": "none yet: backward() has not reached it (↻ draws again after backward()).",
        "zh": "还没有：backward() 还没有到达它（backward() 之后点 ↻ 重画）。",
    },
    "made by": {"en": "made by", "zh": "由谁生成"},
    "module": {"en": "module", "zh": "模块"},
    "no module": {"en": "no module", "zh": "不属于任何模块"},
    "the model": {"en": "the model", "zh": "整个模型"},
    "parameter": {"en": "parameter", "zh": "参数"},
    "line": {"en": "line", "zh": "前向代码行"},
    "sends to": {
        "en": "sends its gradient to (next_functions)",
        "zh": "把梯度传给（next_functions）",
    },
    "no gradient goes": {
        "en": "nothing: that input does not require grad",
        "zh": "不传：那个输入不需要梯度",
    },
    "not drawn": {"en": "{name} (not in the picture)", "zh": "{name}（不在图中）"},
    "inside": {"en": "{name}, inside {box}", "zh": "{name}，在 {box} 里"},
    "saved": {"en": "saved for backward", "zh": "为反向传播保存的张量"},
    "saved values": {"en": "other values saved", "zh": "保存的其他值"},
    "saved nothing": {"en": "nothing", "zh": "没有"},
    "saved tensor": {"en": "{tensor}, version {version}", "zh": "{tensor}，版本 {version}"},
    "freed": {"en": "freed by backward()", "zh": "已被 backward() 释放"},
    "changed in place": {
        "en": "changed in place since it was saved (version {now}, saved at {saved}): "
        "backward() would fail",
        "zh": "保存之后被原地修改过（现在是版本 {now}，保存时是版本 {saved}）：backward() 会失败",
    },
    "parameters": {"en": "parameters", "zh": "参数个数"},
    "nodes inside": {"en": "autograd Nodes", "zh": "autograd 节点数"},
    "parameter list": {"en": "its parameters", "zh": "它的参数"},
    "with grad norm": {
        "en": "{tensor}, grad norm {norm}",
        "zh": "{tensor}，梯度范数 {norm}",
    },
    "more parameters": {"en": "{more:,} more", "zh": "另有 {more:,} 个"},
    "unfold": {"en": "Unfold {path}", "zh": "展开 {path}"},
    "cannot fold": {
        "en": "Only a graph recorded with `with recording(model):` has modules to fold, and "
        "this view shows the steps of a backward pass.",
        "zh": "只有用 `with recording(model):` 录制的计算图才有可以折叠的模块，"
        "而这个视图显示的是反向传播的各个步骤。",
    },
    "fold": {"en": "Fold {path}", "zh": "折叠 {path}"},
}
VIEW_TEXTS = Catalogue("helpers.graph.view", _TEXTS)
say = VIEW_TEXTS.say
# The texts the script shows, sent to it as they read in the language spoken now.
_SCRIPT_TEXTS = {
    "search": {},
    "zoom in": {},
    "zoom out": {},
    "fit": {},
    "fit title": {},
    "actual size": {},
    "refresh": {},
    "hint": {},
    "hint folded": {},
    "no match": {"query": "{query}"},
    "revealing": {"name": "{name}"},
    "asking": {},
    "fold frame": {},
    "close": {},
    "previous": {},
    "next": {},
    "play": {},
    "step": {},
    "step of": {"number": "{number}", "total": "{total}"},
}


def _script_texts() -> dict[str, str]:
    return {key: say(key, **blanks) for key, blanks in _SCRIPT_TEXTS.items()}

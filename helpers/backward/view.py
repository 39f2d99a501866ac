"""Tables and pictures of a backward pass recorded by `helpers.backward.trace`: the view.

    >>> steps = trace(a)
    >>> steps                      # a table: step, node, gradients in, gradients out
    >>> step_through(steps)        # the graph once per step, in the graph's interactive view

Learners import it as `helpers.backward_view`. In each picture (drawn by `helpers.graph`, arrows
following the gradients) the node that runs is outlined in red, every gradient sent so far is
written in red on the arrow it travelled along, and a Node ready to run (all its gradients in,
not run yet) is filled pink. In JupyterLab (VS Code, Colab) the pictures are shown in the graph's
interactive view (`helpers.view`), with a step control; each step further sends its gradients
along their arrows, and a click on a box reads what it holds and what it received and sent so
far. Without widgets (a static HTML page, GitHub, an untrusted notebook) the pictures stand in a
row, one per step. The table is `helpers.backward.table`'s, which a `Trace` also shows itself
with; where a hook changed the gradient on its way into a node, the table and the captions show
both:
``[6.0, 12.0] → hook → [0.0, 0.0]``, what was sent, then what the node received.

The words of the tables and captions, and the errors, follow `helpers.set_language` ("en" or
"zh"): they live in the catalogue `VIEW_MESSAGES` (``helpers.backward.messages``), each in every
language. The names of nodes and tensors stay as PyTorch writes them in every language.
"""

from __future__ import annotations

import html
import inspect
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import torch
from torch.autograd.graph import Node

from helpers import graph
from helpers.backward.gradients import GradientSummary
from helpers.backward.messages import VIEW_MESSAGES
from helpers.backward.quiz import Quiz, nodes_by_box
from helpers.backward.table import (
    NamePairs,
    Names,
    as_html,
    as_text,
    html_table,
    name_pairs,
    table_rows,
    text_table,
    value_text,
)
from helpers.backward.tracing import Trace
from helpers.graph import policy
from helpers.graph.captions import caption
from helpers.graph.model import LEAF, SAVED, TENSOR_KINDS
from helpers.graph.modules import modules_of
from helpers.graph.panel import PictureSource, Walked, gone, read_box, without_nodes
from helpers.text import spaces_as_wide_as, spaces_in
from helpers.view import WIDGET_VIEW, Explorer, forget_with, inline_svg, svg_image

__all__ = ["MAX_FRAMES", "StepThrough", "frames", "step_through", "table_html", "table_text"]

# Beyond this many steps the pictures are too many and too crowded to read: the table stays.
MAX_FRAMES = 40
# Inline styles: a notebook's HTML output has no stylesheet of its own. Where they are stripped
# (GitHub), the pictures simply stand one below the other.
ROW_STYLE = "style='display:flex;gap:24px;overflow-x:auto;align-items:flex-start'"


# --- the table (helpers.backward.table draws it), for a trace checked first ---------------------


def table_text(trace: Trace, names: Names = None) -> str:
    """The trace as a plain-text table, one line per step. ``names`` as in `helpers.graph.draw`."""
    _check_trace(trace, "table_text")
    return as_text(trace, _checked_names(names))


def table_html(trace: Trace, names: Names = None) -> str:
    """The trace as an HTML table, one row per step. ``names`` as in `helpers.graph.draw`."""
    _check_trace(trace, "table_html")
    return as_html(trace, _checked_names(names))


# --- the pictures ------------------------------------------------------------------------------


def frames(trace: Trace, names: Names = None, **options: Any) -> list[graph.Drawing]:
    """One picture per step: the node that runs outlined, the gradients sent so far on the arrows,
    and in pink each Node ready to run: it has received every gradient it gets in the pass and has
    not run yet, the engine's ready queue (a leaf: its gradient's cell).

    ``options`` are those of `helpers.graph.draw`, but for ``highlight`` and ``edge_labels``,
    which each picture sets itself; by default the arrows follow the gradients
    (``direction="backward"``) and the leaves' final ``.grad`` is left out (``show_grads=False``).
    A trace of more than `MAX_FRAMES` steps is refused: its pictures could not be read, and
    ``step_through`` shows its table instead.
    """
    _check_trace(trace, "frames")
    _check_options(options, "frames")
    if len(trace) > MAX_FRAMES:
        raise ValueError(VIEW_MESSAGES.say("too many frames", count=len(trace), most=MAX_FRAMES))
    return _frames(trace, name_pairs(_checked_names(names)), options)[1]


def _frames(
    trace: Trace, named: NamePairs, options: dict[str, Any], ids: bool = False, start: bool = False
) -> tuple[graph.Graph, list[graph.Drawing]]:
    """The model every frame is drawn from, and the frames; with ``ids``, every box and frame
    carries its id into the SVG, for the graph's view (`helpers.view`); with ``start``, a first
    frame before any step ran (a predicted pass opens on it)."""
    options = {"direction": "backward", "show_grads": False, **options, "fold": False}
    direction = options.pop("direction")
    model = graph.build(trace.output, named, **options)  # one walk of the graph for every frame
    model = _as_in_the_pass(model, trace, options.get("show_values", True))
    # Every edge carries its label in every frame, blank until its gradient has travelled: with
    # room kept for each label, Graphviz lays every frame out alike and nothing jumps.
    final = _edge_labels(trace)
    # A leaf shows the gradient this pass adds to its .grad as it arrives, unless the final
    # .grad was asked for (show_grads=True).
    received = [{}] * len(trace) if options["show_grads"] else _leaf_gradients(trace)
    widest = {}  # each leaf's widest text: its blank keeps that room from the first frame
    for so_far in received:
        for fn, text in so_far.items():
            widest[fn] = max(widest.get(fn, ""), text, key=spaces_in)
    # Every frame has the same boxes and arrows: one plan, and one estimate, for all of them.
    layout = graph.plan_layout(model, final)
    if layout.estimated_seconds > policy.MAX_SECONDS:
        seconds, limit = layout.estimated_seconds, policy.MAX_SECONDS
        raise graph.GraphTooLarge(
            VIEW_MESSAGES.say("frames too slow", seconds=seconds, limit=limit),
            graph.to_dot(model, direction=direction, layout=layout),
        )
    drawings, ran = [], set()
    # A predicted pass opens on a frame before any step ran: nothing outlined, nothing sent.
    steps = [*([(None, {})] if start else []), *zip(trace, received, strict=True)]
    expected, arrived = _gradients_expected(trace), Counter()
    for step, received_so_far in steps:
        if step is not None:
            ran.add(step.node)
            arrived.update(node for node, _ in step.sent)
        labels = {edge: text if edge[0] in ran else _blanks(text) for edge, text in final.items()}
        frame = _with_leaf_gradients(model, received_so_far, widest)
        source = graph.to_dot(
            frame,
            direction=direction,
            highlight=None if step is None else step.node,
            edge_labels=labels,
            layout=layout,
            ids=ids,
            ready=[n for n, count in expected.items() if arrived[n] == count and n not in ran],
            moving=[] if step is None else [(step.node, node) for node, _ in step.sent],
        )
        drawings.append(graph.Drawing(source, estimated_seconds=layout.estimated_seconds))
    return model, drawings


def _gradients_expected(trace: Trace) -> Counter[Node]:
    """How many gradients each Node that runs in the pass receives: one per edge into it from a
    Node that runs, as the engine counts its dependencies (none for the first, which receives
    the gradient backward() starts with)."""
    expected: Counter[Node] = Counter({step.node: 0 for step in trace})
    for step in trace:
        expected.update(node for node, _ in step.sent)
    return expected


def _as_in_the_pass(model: graph.Graph, trace: Trace, show_values: bool) -> graph.Graph:
    """The model with each tensor's value as the backward pass saw it (the trace recorded it),
    and a note in the box of a tensor changed in place since (an optimiser step, ``y.mul_(2)``)."""
    nodes = []
    for node in model.nodes:
        tensor = node.tensor() if node.tensor is not None else None
        seen = None
        if tensor is not None and node.kind in TENSOR_KINDS and node.kind != SAVED:
            seen = trace.as_traced(tensor)
        if seen is not None:
            notes = [*node.notes, caption("changed since the pass")] if seen.changed else node.notes
            node = replace(node, value=seen.value if show_values else seen.shape, notes=notes)
        nodes.append(node)
    return replace(model, nodes=nodes)


def _leaf_gradients(trace: Trace) -> list[dict[Node, str]]:
    """For each step, what each leaf's AccumulateGrad has received so far in this pass: what it
    added to the leaf's .grad. A leaf's AccumulateGrad can run twice (a leaf used inside a
    reentrant checkpoint and outside it): it then shows the sum, as .grad does."""
    sums: dict[Node, torch.Tensor] = {}
    so_far: dict[Node, str] = {}
    per_step = []
    for step in trace:
        g = step.grads_in[0] if step.name == "AccumulateGrad" and step.grads_in else None
        if g is not None:
            sums[step.node] = g if step.node not in sums else _added(sums[step.node], g)
            so_far = {**so_far, step.node: value_text(sums[step.node])}
        per_step.append(so_far)
    return per_step


def _added(first: torch.Tensor | GradientSummary, second: torch.Tensor | GradientSummary):
    """The sum of two gradients of a leaf, as a picture shows it. A summary (a large gradient)
    has no numbers to add, and a picture shows only the shape and dtype of the sum: the
    summary's own."""
    if isinstance(second, GradientSummary) or isinstance(first, GradientSummary):
        return second
    return first + second


def _with_leaf_gradients(
    model: graph.Graph, so_far: dict[Node, str], widest: dict[Node, str]
) -> graph.Graph:
    """The frame's model: a leaf shows the gradient it has received so far, and before it has
    received any a blank as wide as the widest it will show, so that its box does not grow from
    frame to frame (a leaf that receives twice may show a narrower sum after a wider first)."""
    nodes = []
    for node in model.nodes:
        if node.kind == LEAF and not node.same_as and node.fn in widest:
            shown = so_far.get(node.fn)
            # The blank has room for the word "grad" too, which a blank gradient goes without.
            blank = spaces_as_wide_as(f"grad {widest[node.fn]}")
            node = replace(node, grad=blank if shown is None else shown)
        nodes.append(node)
    return replace(model, nodes=nodes)


def _edge_labels(trace: Trace) -> dict[tuple[Node, Node], str | tuple[str, ...]]:
    """The gradient each edge carried, keyed ``(node, next node)`` as `helpers.graph` wants.

    Two arrows can join the same pair of nodes (``x * x``, ``torch.sub(x, x, alpha=2)``): each
    gets what went along it, in the order of ``next_functions``, which is the order of ``sent``.
    """
    values: dict[tuple[Node, Node], list[str]] = {}
    for step in trace:
        for node, g in step.sent:
            values.setdefault((step.node, node), []).append(value_text(g))
    return {edge: v[0] if len(v) == 1 else tuple(v) for edge, v in values.items()}


def _blanks(text: str | tuple[str, ...]) -> str | tuple[str, ...]:
    return (
        tuple(map(spaces_as_wide_as, text)) if isinstance(text, tuple) else spaces_as_wide_as(text)
    )


class StepThrough:
    """The pictures of a trace. Where widgets run (JupyterLab, VS Code, Colab): the graph's
    interactive view (`helpers.view`) with a step control (play, a slider, the caption of
    the step shown), which moves, zooms and finds names as `helpers.graph.explore` does, and
    where a click on a box reads what it holds and what it received and sent so far in the
    pass. Elsewhere (a static HTML page, GitHub, an untrusted notebook) all pictures show, in a
    row. As text: the table."""

    def __init__(
        self, trace: Trace, names: Names = None, predict: bool = False, **options: Any
    ) -> None:
        _check_trace(trace, "step_through")
        _check_options(options, "step_through")
        if not isinstance(predict, bool):
            raise TypeError(VIEW_MESSAGES.say("predict not true or false", value=predict))
        named = name_pairs(_checked_names(names))
        self.rows = table_rows(trace, named)
        self.pictures: list[str] = []  # one SVG text per step, or none for a long trace
        self.note = ""
        self._start: str | None = None  # a predicted pass: the picture before any step ran
        self._steps: _Steps | None = None
        if len(trace) <= MAX_FRAMES:
            model, drawings = _frames(trace, named, options, ids=True, start=predict)
            start = drawings.pop(0).svg() if predict else None
            self._start = start
            self.pictures = [drawing.svg() for drawing in drawings]
            quiz = Quiz(trace, named) if predict else None
            self._steps = _Steps(self.pictures, self.rows, trace, model, quiz, start)
        else:
            self.note = VIEW_MESSAGES.say("too long", count=len(trace), most=MAX_FRAMES)
        self._explorer: Explorer | None = None

    def __len__(self) -> int:
        return len(self.pictures)

    def __repr__(self) -> str:
        if self._start is not None:  # a predicted pass: the table would give every answer away
            return f"{self._steps.prompt()['question']}\n{VIEW_MESSAGES.say('play as text')}"
        table = text_table(self.rows)
        return f"{self.note}\n{table}" if self.note else table

    def frame_html(self, index: int) -> str:
        """Step ``index + 1`` with its caption above the picture (inline SVG)."""
        return self._figure(index, inline_svg(self.pictures[index]))

    def static_html(self) -> str:
        """Every picture in one row that scrolls sideways (or the table, for a long trace)."""
        if not self.pictures:
            return f"<p>{html.escape(self.note)}</p>{html_table(self.rows)}"
        if self._start is not None:
            # A predicted pass shows only its start where the view cannot run: its steps are
            # the answers, to be played as text instead.
            note = html.escape(VIEW_MESSAGES.say("play as text"))
            return f"<p>{note}</p>{svg_image(self._start)}"
        # Images, not inline SVG: JupyterLab strips inline SVG from the HTML of a notebook it does
        # not trust yet (one opened before running it), and keeps images.
        figures = "".join(self._figure(i, svg_image(svg)) for i, svg in enumerate(self.pictures))
        return f"<div {ROW_STYLE}>{figures}</div>"

    def _figure(self, index: int, picture: str) -> str:
        title, received_line, sent_line = (html.escape(line) for line in _caption(self.rows, index))
        caption = f"<b>{title}</b><br>{received_line}<br>{sent_line}"
        # A table's caption is as wide as the table: the caption wraps to the picture's width
        # instead of widening the figure, with no size written into the page (sizes depend on
        # the machine's fonts, and the stored page is compared by nbval).
        return (
            "<figure style='margin:0;flex:none;display:table'>"
            f"<figcaption style='display:table-caption;caption-side:top'>{caption}</figcaption>"
            f"{picture}</figure>"
        )

    def view(self) -> Explorer | None:
        """The graph's view of these steps (None for a trace too long to draw)."""
        if self._explorer is None and self._steps is not None:
            self._explorer = Explorer(self._steps)
        return self._explorer

    def widget(self):
        """The view as a widget (anywidget), or None without anywidget or for a long trace."""
        view = self.view()
        return None if view is None else view.widget()

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        # A notebook stores every part: JupyterLab shows the widget, a static page the HTML.
        # nbval compares the text and the HTML, which are the same on every run; it skips the
        # widget's part, whose model id changes.
        bundle: dict[str, Any] = {"text/plain": repr(self), "text/html": self.static_html()}
        metadata: dict[str, Any] = {}
        view = self.view()
        if view is not None and view.widget() is not None:
            shown, metadata = view._repr_mimebundle_()
            bundle[WIDGET_VIEW] = shown[WIDGET_VIEW]
        return bundle, metadata


def step_through(
    trace: Trace, names: Names = None, predict: bool = False, **options: Any
) -> StepThrough:
    """Show a trace one step at a time: in JupyterLab (VS Code, Colab) the graph's view with a
    step control and a play button, every picture in a row elsewhere. ``names`` and ``options``
    are those of `helpers.graph.draw`, but for ``highlight`` and ``edge_labels``, which each
    picture sets itself (see `frames`).

    With ``predict=True`` the view asks before it shows each step: click the box of the Node
    you think the engine runs next, then type what a Node with small gradients sends back;
    each answer is judged against what the engine did (`helpers.backward.quiz`), with a score,
    "show me" and "play again". ``.view().predict(...)`` answers the same questions in code."""
    return StepThrough(trace, names, predict, **options)


def _caption(rows: list[tuple[str, str, str, str]], index: int) -> list[str]:
    """The three lines said about a step: which node ran, what came in, what went out."""
    number, node, received, sent = rows[index]
    return [
        VIEW_MESSAGES.say("caption", number=number, total=len(rows), node=node),
        VIEW_MESSAGES.say("in", gradients=received),
        VIEW_MESSAGES.say("out", gradients=sent),
    ]


class _Steps(PictureSource):
    """A trace's pictures for the graph's view (`helpers.view`): one per step, chosen by
    the view's step control, and what each box held and passed on in the pass.

    The model of the frames (whose boxes hold the graph's Nodes) is kept while the trace lives
    and let go of with it: a notebook keeps every widget until the kernel stops."""

    def __init__(
        self,
        pictures: list[str],
        rows: list[tuple[str, str, str, str]],
        trace: Trace,
        model: graph.Graph,
        quiz: Quiz | None = None,
        start: str | None = None,
    ) -> None:
        self._pictures = [inline_svg(svg) for svg in pictures]
        self._quiz = quiz
        self.predicting = quiz is not None
        self._start = inline_svg(start) if start is not None else ""
        self._rows = rows
        self.steps = len(pictures)
        self._full: graph.Graph | None = model
        self._walked: Walked | None = Walked(model, modules_of(model), frozenset(), frozenset())
        self.picture = without_nodes(model)
        # Each step's box: where the view looks first, and the steps a box's panel lists.
        found = [model.find(step.node) for step in trace]
        self._boxes = [box.id if box is not None else "" for box in found]
        # Each Node's box by the Node's id, which holds no Node: a predicted pass's quiz keeps
        # the Nodes it asks about alive, so their ids stay theirs while the view lives.
        self._box_of_node = {
            id(box.fn): box.id for box in model.nodes if box.fn is not None and not box.same_as
        }
        forget_with(self, trace)
        self.go_to(1)
        self._follow()

    def forget(self) -> None:
        self._full = self._walked = None

    def go_to(self, step: int) -> None:
        self.shown = min(max(step, 1), self.steps)
        self.svg = self._pictures[self.shown - 1]
        self.home = self._boxes[self.shown - 1]
        self.caption = "\n".join(_caption(self._rows, self.shown - 1))

    # --- a predicted pass ------------------------------------------------------------------------

    def prompt(self) -> dict[str, str]:
        if self._quiz is None:
            return super().prompt()
        right, asked = self._quiz.score
        return {
            "question": self._quiz.question or repr(self._quiz),
            "asking": self._quiz.asking or "",
            "score": VIEW_MESSAGES.say("score", right=right, asked=asked),
        }

    def predict(self, answer: str) -> dict[str, Any]:
        if self._quiz is None:
            return super().predict(answer)
        return self._judged(self._quiz.answer(answer))

    def predict_next(self, box: str) -> dict[str, Any]:
        if self._quiz is None:
            return super().predict_next(box)
        # The Node behind the box, while the graph lives (the box's id, once it is gone).
        node = nodes_by_box(self._full).get(box) if self._full is not None else None
        return self._judged(self._quiz.answer_next(box if node is None else node))

    def show_me(self) -> dict[str, Any]:
        if self._quiz is None:
            return super().show_me()
        said = self._quiz.show()
        self._follow()
        return {"right": False, "readable": True, "said": said}

    def replay(self) -> dict[str, Any]:
        if self._quiz is None:
            return super().replay()
        self._quiz.restart()
        self._follow()
        return {"right": False, "readable": True, "said": ""}

    def _judged(self, verdict: Any) -> dict[str, Any]:
        self._follow()
        # The boxes of the Nodes a Node clicked too early still waits for: the view outlines them.
        found = (self._box_of_node.get(id(node)) for node in verdict.waiting_for)
        waiting = list(dict.fromkeys(box for box in found if box is not None))
        return {
            "right": verdict.right,
            "readable": verdict.readable,
            "said": verdict.said,
            "waiting_for": waiting,
        }

    def _follow(self) -> None:
        """Show the pass as far as it is answered: no further, so that no picture gives away
        the answer asked for now."""
        if self._quiz is None:
            return
        settled = self._quiz.settled
        if settled == 0:
            self.svg, self.home = self._start, self._boxes[0] if self._boxes else ""
            self.shown = 0
            self.caption = VIEW_MESSAGES.say("before the pass")
        else:
            self.go_to(settled)

    def read(self, box: str) -> dict[str, Any]:
        """The box's panel: what its Node did in the pass (kept as text, for as long as the view
        is shown), then what `helpers.graph.panel` reads of it while the trace lives."""
        drawn = next((node for node in self.picture.nodes if node.id == box), None)
        target = (drawn.same_as or drawn.id) if drawn is not None else box
        ran = [number for number, at in enumerate(self._boxes, start=1) if at == target]
        if self._full is None or self._walked is None:
            title = drawn.title if drawn is not None else box
            details = {**gone(), "title": title}
        else:
            details = read_box(self._full, self._walked, box, foldable=False)
        if ran:
            details["sections"] = [self._in_the_pass(ran), *details["sections"]]
        return details

    def _in_the_pass(self, ran: list[int]) -> dict[str, Any]:
        """What the box's Node received and sent at each step it ran, up to the step shown."""
        rows = []
        for number in ran:
            if number > self.shown:
                rows.append(
                    [VIEW_MESSAGES.say("at step", number=number), VIEW_MESSAGES.say("later")]
                )
                continue
            _, _, received, sent = self._rows[number - 1]
            rows.append([VIEW_MESSAGES.say("received at", number=number), received])
            rows.append([VIEW_MESSAGES.say("sent at", number=number), sent])
        return {"heading": VIEW_MESSAGES.say("in this pass"), "rows": rows}


# --- what the public functions accept ----------------------------------------------------------

# What each picture sets itself, and the text of `VIEW_MESSAGES` that says why a caller cannot.
SET_BY_EACH_PICTURE = {
    "highlight": "picture outlines the node",
    "edge_labels": "picture labels the arrows",
    # Every Node of the pass runs at some step: none may be folded out of sight.
    "fold": "picture shows every node",
    "expand": "picture shows every node",
    "marks": "picture marks the gradients",
}


def _check_trace(trace: object, function: str) -> None:
    if isinstance(trace, Trace):
        return
    if isinstance(trace, torch.Tensor):
        raise TypeError(VIEW_MESSAGES.say("got a tensor", function=function))
    raise TypeError(VIEW_MESSAGES.say("not a trace", function=function, kind=type(trace).__name__))


def _checked_names(names: object) -> Names:
    """``names`` if it is a dict of tensors (or modules) or pairs of a name and a tensor; the
    pairs as a list (a generator can be read once only); else an error that says what to pass."""
    if names is None or isinstance(names, Mapping):
        pairs = [] if names is None else list(names.items())
    elif isinstance(names, torch.Tensor | str) or not isinstance(names, Iterable):
        pairs = None
    else:
        pairs = list(names)
    good = pairs is not None and all(
        isinstance(pair, tuple | list)
        and len(pair) == 2
        and isinstance(pair[1], torch.Tensor | torch.nn.Module)  # a module names its parameters
        for pair in pairs
    )
    if not good:
        raise TypeError(VIEW_MESSAGES.say("bad names", kind=_kind(names)))
    return names if isinstance(names, Mapping) else pairs


def _check_options(options: dict[str, Any], function: str) -> None:
    for option, why in SET_BY_EACH_PICTURE.items():
        if option in options:
            reason = VIEW_MESSAGES.say(why)
            message = VIEW_MESSAGES.say(
                "set by each picture", function=function, option=option, reason=reason
            )
            raise TypeError(message)
    known = set(inspect.signature(graph.draw).parameters) - {"output", "names"}
    unknown = sorted(set(options) - known)
    if unknown:
        allowed = ", ".join(sorted(known - set(SET_BY_EACH_PICTURE)))
        message = VIEW_MESSAGES.say(
            "unknown option", function=function, option=unknown[0], allowed=allowed
        )
        raise TypeError(message)


def _kind(value: object) -> str:
    if isinstance(value, torch.Tensor):
        return VIEW_MESSAGES.say("kind tensor")
    if isinstance(value, Mapping | list | tuple):
        return VIEW_MESSAGES.say("kind unpaired", type=type(value).__name__)
    return VIEW_MESSAGES.say("kind other", type=type(value).__name__)


# --- small pieces ------------------------------------------------------------------------------

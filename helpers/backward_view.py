"""Tables and pictures of a backward pass recorded by `helpers.backward.trace`.

    >>> steps = trace(a)
    >>> steps                      # a table: step, node, gradients in, gradients out
    >>> step_through(steps)        # the graph once per step, with a slider in JupyterLab

In each picture (drawn by `helpers.graph`, arrows following the gradients) the node that runs is
outlined in red, and every gradient sent so far is written in red on the arrow it travelled along.
Without widgets (a static HTML page, GitHub) the pictures stand in a row, one per step. Where a
hook changed the gradient on its way into a node, the table and the captions show both:
``[6.0, 12.0] → hook → [0.0, 0.0]``, what was sent, then what the node received.

The words of the tables and captions, and the errors, follow `helpers.set_language` ("en" or
"zh"): they live in the catalogue `MESSAGES`, at the end of this module, each in every language.
The names of nodes and tensors stay as PyTorch writes them in every language.
"""

from __future__ import annotations

import base64
import html
import inspect
import unicodedata
from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

import torch
from torch.autograd.graph import Node

from helpers import graph
from helpers._graph_model import LEAF, SAVED, TENSOR_KINDS, caption, describe, gradient_edge
from helpers.backward.engine import _short_name
from helpers.backward.gradients import GradientSummary, _same_bits
from helpers.backward.records import Step
from helpers.backward.tracing import Trace
from helpers.language import Catalogue

__all__ = ["MAX_FRAMES", "StepThrough", "frames", "step_through", "table_html", "table_text"]

# Beyond this many steps the pictures are too many and too crowded to read: the table stays.
MAX_FRAMES = 40
# A table longer than this shows its first and last rows only.
MAX_ROWS = 60
# Inline styles: a notebook's HTML output has no stylesheet of its own. Where they are stripped
# (GitHub), the pictures simply stand one below the other.
ROW_STYLE = "style='display:flex;gap:24px;overflow-x:auto;align-items:flex-start'"
CELL_STYLE = "style='text-align:left'"
WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"

Names = Mapping[str, torch.Tensor] | Iterable[tuple[str, torch.Tensor]] | None
NamePairs = list[tuple[str, torch.Tensor]]


# --- the table ---------------------------------------------------------------------------------


def table_text(trace: Trace, names: Names = None) -> str:
    """The trace as a plain-text table, one line per step. ``names`` as in `helpers.graph.draw`."""
    _check_trace(trace, "table_text")
    return _text(_rows(trace, _names(_checked_names(names))))


def table_html(trace: Trace, names: Names = None) -> str:
    """The trace as an HTML table, one row per step. ``names`` as in `helpers.graph.draw`."""
    _check_trace(trace, "table_html")
    return _html_table(_rows(trace, _names(_checked_names(names))))


def _headers() -> tuple[str, ...]:
    return tuple(MESSAGES.say(key) for key in ("step", "node", "gradients in", "gradients out"))


def _text(rows: list[tuple[str, ...]]) -> str:
    rows = [_headers(), *_shown(rows)]
    widths = [max(_width(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        "  ".join(cell + " " * (w - _width(cell)) for cell, w in zip(row, widths, strict=True))
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines)


def _width(text: str) -> int:
    """Columns ``text`` takes in a monospace font: a Chinese character takes two."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _html_table(rows: list[tuple[str, ...]]) -> str:
    def row_html(cells: Iterable[str], tag: str) -> str:
        return (
            "<tr>"
            + "".join(f"<{tag} {CELL_STYLE}>{html.escape(c)}</{tag}>" for c in cells)
            + "</tr>"
        )

    body = "".join(row_html(row, "td") for row in _shown(rows))
    return f"<table><thead>{row_html(_headers(), 'th')}</thead><tbody>{body}</tbody></table>"


def _rows(trace: Trace, named: NamePairs) -> list[tuple[str, str, str, str]]:
    """Each step as table cells: number, node, gradients in, gradients out and where they went."""
    leaf_names = _leaf_names(named)

    def label(node: Node) -> str:
        name = _short_name(node)
        if node in leaf_names:
            return MESSAGES.say("node of leaf", node=name, leaf=leaf_names[node])
        return name

    def sent(number: int, step: Step) -> str:
        if step.name == "AccumulateGrad":
            if step.node in leaf_names:
                return MESSAGES.say("added to grad", leaf=leaf_names[step.node])
            return MESSAGES.say("added to the leaf's grad")
        if not step.sent:
            return MESSAGES.say("nothing sent")
        parts = []
        for node, g in step.sent:
            part = f"{_value(g)} → {label(node)}"
            later = _next_run(trace, node, after=number)
            if later is not None:
                part += MESSAGES.say("used at step", number=later)
            parts.append(part)
        return MESSAGES.say("between").join(parts)

    rows = []
    for number, step in enumerate(trace, start=1):
        rows.append((str(number), label(step.node), _received(step), sent(number, step)))
    return rows


def _next_run(trace: Trace, node: Node, after: int) -> int | None:
    """The number of the first step after step ``after`` that runs ``node``: where what was sent
    to it is used. (A node can run twice: a leaf inside and outside a reentrant checkpoint.)"""
    for number in range(after + 1, len(trace) + 1):
        if trace[number - 1].node is node:
            return number
    return None


def _received(step: Step) -> str:
    """What the node received; where a hook changed it, what was sent, then what it became."""
    arrived = step.grads_arrived or [None] * len(step.grads_in)
    texts = []
    for before, after in zip(arrived, step.grads_in, strict=True):
        if step.grads_arrived is not None and not _same_bits((before,), (after,)):
            texts.append(f"{_value(before)} → {MESSAGES.say('hook')} → {_value(after)}")
        else:
            texts.append(_value(after))
    return ", ".join(texts)


def _shown(rows: list) -> list:
    """All rows, or the first and last ones with a row saying how many are left out."""
    if len(rows) <= MAX_ROWS:
        return rows
    last = 9  # rows kept from the end; one more row says how many are left out
    head, tail = rows[: MAX_ROWS - last - 1], rows[-last:]
    left_out = len(rows) - len(head) - len(tail)
    return [*head, ("…", MESSAGES.say("more steps", count=left_out), "", ""), *tail]


def _leaf_names(named: NamePairs) -> dict[Node, str]:
    """The name of the leaf behind each AccumulateGrad node: the first name given for it."""
    found: dict[Node, str] = {}
    for name, tensor in named:
        if tensor.is_leaf and tensor.requires_grad:
            node, _ = gradient_edge(tensor)
            if node is not None:
                found.setdefault(node, name)
    return found


# --- the pictures ------------------------------------------------------------------------------


def frames(trace: Trace, names: Names = None, **options: Any) -> list[graph.Drawing]:
    """One picture per step: the node that runs outlined, the gradients sent so far on the arrows.

    ``options`` are those of `helpers.graph.draw`, but for ``highlight`` and ``edge_labels``,
    which each picture sets itself; by default the arrows follow the gradients
    (``direction="backward"``) and the leaves' final ``.grad`` is left out (``show_grads=False``).
    A trace of more than `MAX_FRAMES` steps is refused: its pictures could not be read, and
    ``step_through`` shows its table instead.
    """
    _check_trace(trace, "frames")
    _check_options(options, "frames")
    if len(trace) > MAX_FRAMES:
        message = MESSAGES.say("too many frames", count=len(trace), most=MAX_FRAMES)
        raise ValueError(message)
    return _frames(trace, _names(_checked_names(names)), options)


def _frames(trace: Trace, named: NamePairs, options: dict[str, Any]) -> list[graph.Drawing]:
    options = {"direction": "backward", "show_grads": False, **options}
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
            widest[fn] = max(widest.get(fn, ""), text, key=_width_of_blank)
    # Every frame has the same boxes and arrows: one plan, and one estimate, for all of them.
    layout = graph.plan_layout(model, final)
    if layout.estimated_seconds > graph.MAX_SECONDS:
        seconds, limit = layout.estimated_seconds, graph.MAX_SECONDS
        message = MESSAGES.say("frames too slow", seconds=seconds, limit=limit)
        raise graph.GraphTooLarge(message, graph.to_dot(model, direction=direction, layout=layout))
    drawings, ran = [], set()
    for step, received_so_far in zip(trace, received, strict=True):
        ran.add(step.node)
        labels = {edge: text if edge[0] in ran else _blanks(text) for edge, text in final.items()}
        frame = _with_leaf_gradients(model, received_so_far, widest)
        source = graph.to_dot(
            frame, direction=direction, highlight=step.node, edge_labels=labels, layout=layout
        )
        drawings.append(graph.Drawing(source, estimated_seconds=layout.estimated_seconds))
    return drawings


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
            so_far = {**so_far, step.node: _value(sums[step.node])}
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
            node = replace(node, grad=_blank(widest[node.fn]) if shown is None else shown)
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
            values.setdefault((step.node, node), []).append(_value(g))
    return {edge: v[0] if len(v) == 1 else tuple(v) for edge, v in values.items()}


def _blanks(text: str | tuple[str, ...]) -> str | tuple[str, ...]:
    return tuple(map(_blank, text)) if isinstance(text, tuple) else _blank(text)


def _blank(text: str) -> str:
    """Spaces about as wide as ``text``: in the pictures' fonts, a space is half a digit wide."""
    return " " * _width_of_blank(text)


def _width_of_blank(text: str) -> int:
    return sum(1 if character in " ,.-[]()" else 2 for character in text)


class StepThrough:
    """The pictures of a trace: a slider picks the step where widgets work (JupyterLab, Colab);
    elsewhere (a static HTML page, GitHub) all pictures show, in a row. As text: the table."""

    def __init__(self, trace: Trace, names: Names = None, **options: Any) -> None:
        _check_trace(trace, "step_through")
        _check_options(options, "step_through")
        named = _names(_checked_names(names))
        self.rows = _rows(trace, named)
        self.pictures: list[str] = []  # one SVG text per step, or none for a long trace
        self.note = ""
        if len(trace) <= MAX_FRAMES:
            drawings = _frames(trace, named, options)
            self.pictures = [drawing.svg() for drawing in drawings]
        else:
            self.note = MESSAGES.say("too long", count=len(trace), most=MAX_FRAMES)
        self._widget = None

    def __len__(self) -> int:
        return len(self.pictures)

    def __repr__(self) -> str:
        table = _text(self.rows)
        return f"{self.note}\n{table}" if self.note else table

    def frame_html(self, index: int) -> str:
        """Step ``index + 1`` as the slider shows it: a caption, then the picture (inline SVG)."""
        return self._figure(index, _inline_svg(self.pictures[index]))

    def static_html(self) -> str:
        """Every picture in one row that scrolls sideways (or the table, for a long trace)."""
        if not self.pictures:
            return f"<p>{html.escape(self.note)}</p>{_html_table(self.rows)}"
        # Images, not inline SVG: JupyterLab strips inline SVG from the HTML of a notebook it does
        # not trust yet (one opened before running it), and keeps images.
        figures = "".join(self._figure(i, _image(svg)) for i, svg in enumerate(self.pictures))
        return f"<div {ROW_STYLE}>{figures}</div>"

    def _figure(self, index: int, picture: str) -> str:
        number, node, received, sent = self.rows[index]
        lines = [
            MESSAGES.say("caption", number=number, total=len(self.rows), node=node),
            MESSAGES.say("in", gradients=received),
            MESSAGES.say("out", gradients=sent),
        ]
        title, received_line, sent_line = (html.escape(line) for line in lines)
        caption = f"<b>{title}</b><br>{received_line}<br>{sent_line}"
        # A table's caption is as wide as the table: the caption wraps to the picture's width
        # instead of widening the figure, with no size written into the page (sizes depend on
        # the machine's fonts, and the stored page is compared by nbval).
        return (
            "<figure style='margin:0;flex:none;display:table'>"
            f"<figcaption style='display:table-caption;caption-side:top'>{caption}</figcaption>"
            f"{picture}</figure>"
        )

    def widget(self):
        """The slider and the picture it selects, as ipywidgets (None without ipywidgets)."""
        if self._widget is None and self.pictures:
            self._widget = _slider(self)
        return self._widget

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, Any]:
        # A notebook stores every part: JupyterLab shows the widget, a static page the HTML.
        # nbval compares the text and the HTML, which are the same on every run; it skips the
        # widget's part, whose model id changes.
        bundle: dict[str, Any] = {"text/plain": repr(self), "text/html": self.static_html()}
        widget = self.widget()
        if widget is not None:
            # Written out rather than asked of the widget: ipywidgets 7 (which Colab's page still
            # runs) has no _repr_mimebundle_, and this is the view both versions understand.
            bundle[WIDGET_VIEW] = {
                "version_major": 2,
                "version_minor": 0,
                "model_id": widget.model_id,
            }
        return bundle


def step_through(trace: Trace, names: Names = None, **options: Any) -> StepThrough:
    """Show a trace one step at a time: a slider (and a play button) in JupyterLab, every
    picture in a row elsewhere. ``names`` and ``options`` are those of `helpers.graph.draw`, but
    for ``highlight`` and ``edge_labels``, which each picture sets itself (see `frames`)."""
    return StepThrough(trace, names, **options)


def _slider(view: StepThrough):
    try:
        import ipywidgets as widgets
    except ImportError:
        return None
    last = len(view.pictures)
    slider = widgets.IntSlider(value=1, min=1, max=last, description=MESSAGES.say("step"))
    play = widgets.Play(value=1, min=1, max=last, interval=1500, description=MESSAGES.say("play"))
    widgets.jslink((play, "value"), (slider, "value"))
    picture = widgets.HTML(view.frame_html(0))

    def show(change: dict) -> None:
        picture.value = view.frame_html(change["new"] - 1)

    slider.observe(show, names="value")
    return widgets.VBox([widgets.HBox([play, slider]), picture])


# --- what the public functions accept ----------------------------------------------------------

# What each picture sets itself, and the text of `MESSAGES` that says why a caller cannot.
SET_BY_EACH_PICTURE = {
    "highlight": "picture outlines the node",
    "edge_labels": "picture labels the arrows",
}


def _check_trace(trace: object, function: str) -> None:
    if isinstance(trace, Trace):
        return
    if isinstance(trace, torch.Tensor):
        message = MESSAGES.say("got a tensor", function=function)
        raise TypeError(message)
    message = MESSAGES.say("not a trace", function=function, kind=type(trace).__name__)
    raise TypeError(message)


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
        message = MESSAGES.say("bad names", kind=_kind(names))
        raise TypeError(message)
    return names if isinstance(names, Mapping) else pairs


def _check_options(options: dict[str, Any], function: str) -> None:
    for option, why in SET_BY_EACH_PICTURE.items():
        if option in options:
            reason = MESSAGES.say(why)
            message = MESSAGES.say(
                "set by each picture", function=function, option=option, reason=reason
            )
            raise TypeError(message)
    known = set(inspect.signature(graph.draw).parameters) - {"output", "names"}
    unknown = sorted(set(options) - known)
    if unknown:
        allowed = ", ".join(sorted(known - set(SET_BY_EACH_PICTURE)))
        message = MESSAGES.say(
            "unknown option", function=function, option=unknown[0], allowed=allowed
        )
        raise TypeError(message)


def _kind(value: object) -> str:
    if isinstance(value, torch.Tensor):
        return MESSAGES.say("kind tensor")
    if isinstance(value, Mapping | list | tuple):
        return MESSAGES.say("kind unpaired", type=type(value).__name__)
    return MESSAGES.say("kind other", type=type(value).__name__)


# --- small pieces ------------------------------------------------------------------------------


def _value(g: torch.Tensor | GradientSummary | None) -> str:
    # A summary is described as a tensor of its size is: its shape and dtype.
    return "None" if g is None else describe(g)


def _inline_svg(svg: str) -> str:
    # Graphviz starts with an XML declaration and a DOCTYPE, which do not belong inside HTML.
    return svg[svg.index("<svg") :].strip()


def _image(svg: str) -> str:
    source = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    return f"<img src='{source}' alt='{html.escape(MESSAGES.say('picture'))}'>"


def _names(names: Names) -> NamePairs:
    """The names given, then the variables of the notebook, as every picture names tensors.

    When IPython shows a `Trace` by itself, the code calling this is IPython's: the notebook's
    variables come from IPython's namespace then (see `helpers.graph.resolve_names`).
    """
    return graph.resolve_names(names)


# --- what a learner reads, in English and Chinese -------------------------------------------

# Every word of a table, a caption or a slider. {blanks} are filled with numbers and with names
# as PyTorch writes them.
_WORDS = {
    "step": {"en": "step", "zh": "步"},
    "node": {"en": "node", "zh": "节点"},
    "gradients in": {"en": "gradients in", "zh": "传入的梯度"},
    "gradients out": {"en": "gradients out", "zh": "传出的梯度"},
    "node of leaf": {"en": "{node} of {leaf}", "zh": "{leaf} 的 {node}"},
    "added to grad": {"en": "added to {leaf}.grad", "zh": "加到 {leaf}.grad 上"},
    "added to the leaf's grad": {"en": "added to the leaf.grad", "zh": "加到叶子张量的 .grad 上"},
    "nothing sent": {"en": "nothing: no input needs a gradient", "zh": "无：没有输入需要梯度"},
    "used at step": {"en": " (step {number})", "zh": "（第 {number} 步）"},
    "hook": {"en": "hook", "zh": "钩子"},
    "between": {"en": ", ", "zh": "，"},
    "more steps": {"en": "{count} more steps", "zh": "另有 {count} 步未列出"},
    "caption": {
        "en": "Step {number} of {total}: {node}",
        "zh": "第 {number} 步（共 {total} 步）：{node}",
    },
    "in": {"en": "in: {gradients}", "zh": "传入：{gradients}"},
    "out": {"en": "out: {gradients}", "zh": "传出：{gradients}"},
    "too long": {
        "en": (
            "This backward pass ran {count} nodes; pictures are drawn for at most {most}, beyond "
            "which they cannot be read. The table lists every step."
        ),
        "zh": (
            "这次反向传播运行了 {count} 个节点；图最多只画 {most} 步，再多就看不清了，"
            "所以这里不画图。下表列出了每一步。"
        ),
    },
    "play": {"en": "play", "zh": "播放"},
    "picture": {"en": "the autograd graph", "zh": "自动求导的计算图"},
}
# What the public functions say when they are given something they cannot show.
_ERRORS = {
    "got a tensor": {
        "en": (
            "{function} shows a recorded backward pass, and got a tensor. Record the pass first "
            "with helpers.backward.trace, then show it: {function}(trace(y))."
        ),
        "zh": (
            "{function} 显示的是记录下来的反向传播，这里却得到了一个张量。请先用 "
            "helpers.backward.trace 记录反向传播，再显示它：{function}(trace(y))。"
        ),
    },
    "not a trace": {
        "en": (
            "{function} shows a recorded backward pass, the Trace that helpers.backward.trace(y) "
            "returns; got {kind}."
        ),
        "zh": (
            "{function} 显示的是记录下来的反向传播，也就是 helpers.backward.trace(y) 返回的 "
            "Trace；这里得到的是{kind}。"
        ),
    },
    "bad names": {
        "en": (
            "names must be a dict such as {{'w': w}}, or (name, tensor) pairs such as "
            "model.named_parameters(); got {kind}. To name one tensor w: names={{'w': w}}."
        ),
        "zh": (
            "names 必须是像 {{'w': w}} 这样的字典，或者像 model.named_parameters() 那样的 (name, "
            "tensor) 二元组；这里得到的是{kind}。要把一个张量命名为 w，请写 names={{'w': w}}。"
        ),
    },
    "kind tensor": {"en": "a tensor", "zh": "一个张量"},
    "kind unpaired": {
        "en": "a {type} that does not pair names with tensors",
        "zh": "一个没有把名字和张量配成对的 {type}",
    },
    "kind other": {"en": "a {type}", "zh": "一个 {type}"},
    "set by each picture": {
        "en": "{function} sets {option} itself: {reason}. Leave {option}= out.",
        "zh": "{function} 会自己设置 {option}：{reason}。请去掉 {option}=。",
    },
    "picture outlines the node": {
        "en": "each picture outlines the node that runs at its step",
        "zh": "每张图都会框出在那一步运行的节点",
    },
    "picture labels the arrows": {
        "en": "each picture writes on the arrows the gradients sent so far",
        "zh": "每张图都会在箭头上写出到那一步为止传出的梯度",
    },
    "unknown option": {
        "en": (
            "{function} does not know the option {option}. Its options are those of "
            "helpers.graph.draw that pictures of a trace leave to you: {allowed}."
        ),
        "zh": (
            "{function} 没有 {option} 这个选项。它的选项是 helpers.graph.draw 的选项中，"
            "追踪记录的图留给你自己设置的那些：{allowed}。"
        ),
    },
    "too many frames": {
        "en": (
            "This backward pass ran {count} nodes; frames() draws at most {most} pictures, "
            "beyond which they cannot be read. Show the trace as a table instead (the trace "
            "itself, or step_through(trace)), or trace a smaller graph."
        ),
        "zh": (
            "这次反向传播运行了 {count} 个节点；frames() 最多画 {most} 张图，再多就看不清了。"
            "请改用表格显示这份追踪记录（直接显示 trace 本身，或用 step_through(trace)），"
            "或者追踪一张更小的图。"
        ),
    },
    "frames too slow": {
        "en": (
            "Each picture of this trace would take Graphviz about {seconds:,.0f} s to lay out "
            "(the limit is {limit:.0f} s). Draw fewer nodes in each, e.g. frames(trace, "
            "max_nodes=100)."
        ),
        "zh": (
            "这份追踪记录的每张图都要 Graphviz 花大约 {seconds:,.0f} 秒来排版（上限是 "
            "{limit:.0f} 秒）。请让每张图少画一些节点，例如 frames(trace, max_nodes=100)。"
        ),
    },
}
MESSAGES = Catalogue("helpers.backward_view", {**_WORDS, **_ERRORS})

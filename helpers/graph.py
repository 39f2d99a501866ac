"""Draw the autograd graph PyTorch really built, with values, gradients and names in the boxes.

    >>> from helpers.graph import draw
    >>> w = torch.tensor(2.0, requires_grad=True); b = torch.tensor(1.0, requires_grad=True)
    >>> x = torch.tensor(3.0)
    >>> u = w * x; v = u + b; a = torch.relu(v)
    >>> draw(a)          # in a notebook, the cell shows the picture

Boxes get their names from the variables of the code that calls `draw`; run the cell again after
``a.backward()`` and the leaves show their gradients.

How it is made: `build` walks the graph into a model of boxes and arrows
(`helpers._graph_model`), with a tensor used far and wide drawn as reference boxes and the
layout's cost estimated beforehand (`helpers._graph_layout`); `to_dot` writes the model as DOT,
styled from one table keyed by the kind of box (`BOX_STYLES`); a `Drawing` renders the DOT with
Graphviz (`helpers._graphviz`), in a child process that *Interrupt kernel* can stop when the
picture is big.
"""

from __future__ import annotations

import html
import sys
import unicodedata
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import torch

from helpers import _graphviz
from helpers._graph_layout import Plan, add_references, plan
from helpers._graph_model import (
    LEAF,
    NODES_SAFE_TO_SEE,
    OP,
    OUTPUT,
    SAVED,
    SUMMARY,
    TENSOR,
    Graph,
    GraphEdge,
    GraphNode,
    build_graph,
    caption,
    is_one_line_box,
    why_nodes_safe_to_see,
)
from helpers._graphviz import GraphvizNotFound, LayoutTooSlow, RenderError
from helpers.language import Catalogue

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

Names = Mapping[str, Any] | Iterable[tuple[str, Any]]

# What draw and a Drawing say to a learner: errors about what they were given, the picture that
# cannot be made, and a Drawing's text. What the picture itself says is CAPTIONS, in
# helpers._graph_model. Doubled braces are literal ones: texts are filled with str.format. Keys
# are joined with "_": tests/test_messages.py takes two words in a raise for an English sentence.
_TEXTS = {
    # --- what draw() was given
    "got_none": {
        "en": "draw() got None instead of a tensor. Pass the tensor whose graph you want, e.g. "
        "draw(loss); a function that forgets to `return` its result gives None.",
        "zh": "draw() 收到的是 None，而不是张量。请传入你想看其计算图的那个张量，例如 draw(loss)；"
        "忘了 `return` 结果的函数返回的就是 None。",
    },
    "not_a_tensor": {
        "en": "draw() needs a tensor or a list of tensors, not a {got}.",
        "zh": "draw() 需要一个张量或一个张量列表，而不是 {got}。",
    },
    "number_has_no_graph": {
        "en": "draw() needs a tensor or a list of tensors, not a {got}. A Python number (from "
        ".item() or float()) has no graph: draw the tensor.",
        "zh": "draw() 需要一个张量或一个张量列表，而不是 {got}。Python 数字（来自 .item() 或 "
        "float()）没有计算图：请画张量本身。",
    },
    "empty_list": {
        "en": "draw() got an empty list: pass at least one tensor, e.g. draw([y1, y2]).",
        "zh": "draw() 收到了一个空列表：请至少传入一个张量，例如 draw([y1, y2])。",
    },
    "item_not_a_tensor": {
        "en": "draw() got a list whose item {position} is a {got}, not a tensor: pass only "
        "tensors.",
        "zh": "draw() 收到的列表中，第 {position} 项是 {got}，不是张量：列表里只能放张量。",
    },
    "not_true_or_false": {
        "en": "{option} takes True or False, not {value!r}.",
        "zh": "{option} 只接受 True 或 False，不接受 {value!r}。",
    },
    "bad_max_nodes": {
        "en": "max_nodes must be a positive whole number or None, not {value!r}.",
        "zh": "max_nodes 必须是正整数或 None，不能是 {value!r}。",
    },
    "bad_direction": {
        "en": 'direction must be "forward" or "backward", not {value!r}.',
        "zh": 'direction 必须是 "forward" 或 "backward"，不能是 {value!r}。',
    },
    # --- names=
    "names_is_a_tensor": {
        "en": "names must be a dict {{name: tensor}} or (name, tensor) pairs, not a tensor: e.g. "
        "names={{'w': w}}. The tensor to draw comes first: draw(y, names={{'w': w}}).",
        "zh": "names 必须是字典 {{name: tensor}} 或 (name, tensor) 二元组，不能是张量：例如 "
        "names={{'w': w}}。要画的张量是第一个参数：draw(y, names={{'w': w}})。",
    },
    "names_of_the_wrong_kind": {
        "en": "names must be a dict {{name: tensor}} or (name, tensor) pairs such as "
        "model.named_parameters(), and got {got}: e.g. names={{'w': w}}.",
        "zh": "names 必须是字典 {{name: tensor}}，或者像 model.named_parameters() 那样的 "
        "(name, tensor) 二元组，但收到的是 {got}：例如 names={{'w': w}}。",
    },
    "names_not_pairs": {
        "en": "names must be a dict {{name: tensor}} or (name, tensor) pairs such as "
        "model.named_parameters(), not a sequence of {got}.",
        "zh": "names 必须是字典 {{name: tensor}}，或者像 model.named_parameters() 那样的 "
        "(name, tensor) 二元组，不能是由 {got} 组成的序列。",
    },
    "named_value_not_a_tensor": {
        "en": "names[{name!r}] is a {got}, not a tensor: names map a name to the tensor (or the "
        "module, for its parameters) it labels.",
        "zh": "names[{name!r}] 是 {got}，不是张量：names 把一个名字对应到它所标注的张量"
        "（或者模块，用来给模块的参数命名）。",
    },
    # --- highlight= and edge_labels=
    "highlight_not_a_node": {
        "en": "highlight= takes an autograd Node such as y.grad_fn (or None), not a {got}.",
        "zh": "highlight= 需要一个 autograd 节点，例如 y.grad_fn（或者 None），不能是 {got}。",
    },
    "highlight_not_in_graph": {
        "en": "highlight: this {got} is not in the graph being drawn (it cannot be reached from "
        "the tensors passed to draw()).",
        "zh": "highlight：这个 {got} 不在要画的计算图里（从传给 draw() 的张量出发到达不了它）。",
    },
    "edge_labels_not_a_dict": {
        "en": "edge_labels takes a dict {{(node, next_node): text}}, e.g. "
        "{{(y.grad_fn, y.grad_fn.next_functions[0][0]): 'grad 2.0'}}, and got {got}.",
        "zh": "edge_labels 需要一个字典 {{(node, next_node): text}}，例如 "
        "{{(y.grad_fn, y.grad_fn.next_functions[0][0]): 'grad 2.0'}}，但收到的是 {got}。",
    },
    "edge_labels_keys": {
        "en": "edge_labels keys are pairs of autograd Nodes, (node, next_node), e.g. "
        "(y.grad_fn, y.grad_fn.next_functions[0][0]).",
        "zh": "edge_labels 的键是由两个 autograd 节点组成的二元组 (node, next_node)，例如 "
        "(y.grad_fn, y.grad_fn.next_functions[0][0])。",
    },
    "edge_not_joined": {
        "en": "edge_labels: {first} and {second} are not joined by an edge: one of them must "
        "appear in the other's next_functions.",
        "zh": "edge_labels：{first} 和 {second} 之间没有边相连：其中一个必须出现在另一个的 "
        "next_functions 里。",
    },
    "edge_not_in_graph": {
        "en": "edge_labels: the edge {node} -> {next_node} is not in the graph being drawn (it "
        "cannot be reached from the tensors passed).",
        "zh": "edge_labels：边 {node} -> {next_node} 不在要画的计算图里（从传入的张量出发到达不了"
        "它）。",
    },
    # --- a picture too big to make (GraphTooLarge)
    "too_large": {
        "en": "This picture is too big to lay out: {asked} of the graph's {total:,} autograd "
        "nodes make {boxes:,} boxes over {rows:,} rows, which Graphviz would take about "
        "{seconds:,.0f} s to place (the limit is {limit:.0f} s). Draw the part nearest the "
        "output instead, e.g. draw(..., max_nodes={smaller}), or call draw() without max_nodes "
        "for a quick picture. The DOT text is in this error's .source, for other tools.",
        "zh": "这张图太大，排不了版：计算图共有 {total:,} 个 autograd 节点，画出{asked}会得到"
        "分布在 {rows:,} 行上的 {boxes:,} 个框，Graphviz 大约要花 {seconds:,.0f} 秒来摆放"
        "（上限是 {limit:.0f} 秒）。请改画离输出最近的那一部分，例如 "
        "draw(..., max_nodes={smaller})；或者不带 max_nodes 调用 draw()，很快就能得到一张图。"
        "DOT 文本在这个错误的 .source 中，可以交给别的工具。",
    },
    "all_of_them": {"en": "all", "zh": "全部节点"},
    "some_of_them": {"en": "{count:,}", "zh": "其中 {count:,} 个"},
    "too_many_nodes": {
        "en": "This graph has more than {seen:,} autograd nodes, and {why}. Draw the part "
        "nearest the output: draw() without max_nodes, or with max_nodes={most} at most.",
        "zh": "这张计算图有超过 {seen:,} 个 autograd 节点，而{why}。请画离输出最近的那一部分："
        "不带 max_nodes 调用 draw()，或者传入 max_nodes={most} 或更小的数。",
    },
    # --- to_dot() and a Drawing
    "to_dot_takes_a_graph": {
        "en": "to_dot takes the Graph that build() returns, and got {got}: to_dot(build(y)), or "
        "draw(y) for the picture.",
        "zh": "to_dot 需要 build() 返回的 Graph，但收到的是 {got}：请写 to_dot(build(y))；"
        "要直接得到图片，就用 draw(y)。",
    },
    "drawing_takes_text": {
        "en": "Drawing takes DOT text (a str), and got {got}: draw(y) makes the Drawing of a "
        "tensor's graph.",
        "zh": "Drawing 需要 DOT 文本（一个 str），但收到的是 {got}：一个张量的计算图的 Drawing "
        "由 draw(y) 来生成。",
    },
    "bad_suffix": {
        "en": "Cannot save a drawing as {name!r}: use a .svg, .png or .dot name.",
        "zh": "无法把绘图保存为 {name!r}：请用以 .svg、.png 或 .dot 结尾的文件名。",
    },
    "own_dot_too_slow": {
        "en": "{error} The DOT text is in .source.",
        "zh": "{error}DOT 文本在 .source 中。",
    },
    "too_slow": {
        "en": "{error} Draw a smaller part of the graph, draw(y, max_nodes=...) with fewer nodes "
        "than this picture has, or call draw(y) without max_nodes for a quick picture. The DOT "
        "text is in .source.",
        "zh": "{error}请画计算图的一小部分：用 draw(y, max_nodes=...)，节点比这张图少；"
        "或者不带 max_nodes 调用 draw(y)，很快就能得到一张图。DOT 文本在 .source 中。",
    },
    "render_failed": {
        "en": "{error} Its DOT text is in .source.",
        "zh": "{error}它的 DOT 文本在 .source 中。",
    },
    "render_failed_svg_may_work": {
        "en": "{error} Its DOT text is in .source. .svg() or saving as .svg or .dot may still "
        "work.",
        "zh": "{error}它的 DOT 文本在 .source 中。用 .svg()，或者存成 .svg 或 .dot 文件，"
        "也许仍然可行。",
    },
    "drawing": {
        "en": "<Drawing of an autograd graph: .source is its DOT text, .svg() renders it>",
        "zh": "<自动求导计算图的绘图：.source 是它的 DOT 文本，.svg() 把它渲染出来>",
    },
}
MESSAGES = Catalogue("helpers.graph.messages", _TEXTS)


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


class Drawing:
    """A picture of an autograd graph: DOT text, rendered by Graphviz when asked.

    ``estimated_seconds`` is how long the layout is expected to take; above half a second the
    picture is rendered in a child process that Jupyter's *Interrupt kernel* can stop. DOT of
    your own (``Drawing(text)``, no estimate) is rendered in a child process too: nobody knows
    how long it takes, and where it makes Graphviz crash, you get an error, not a dead kernel.
    """

    def __init__(self, source: str, estimated_seconds: float | None = None) -> None:
        if not isinstance(source, str):
            raise TypeError(MESSAGES.say("drawing_takes_text", got=type(source).__name__))
        self.source = source
        self.estimated_seconds = estimated_seconds
        self._svg: str | None = None

    def svg(self) -> str:
        """The picture as SVG text."""
        if self._svg is None:
            self._svg = self._render("svg").decode("utf-8")
        return self._svg

    def save(self, path: str | Path) -> Path:
        """Write the picture to ``path``; its suffix (.svg, .png or .dot) chooses the format."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".dot":
            path.write_text(self.source, encoding="utf-8")
        elif suffix == ".svg":
            path.write_text(self.svg(), encoding="utf-8")
        elif suffix == ".png":
            path.write_bytes(self._render("png"))
        else:
            raise ValueError(MESSAGES.say("bad_suffix", name=path.name))
        return path

    def _render(self, fmt: str) -> bytes:
        try:
            return _graphviz.render(self.source, fmt, self.estimated_seconds)
        except LayoutTooSlow as error:
            # DOT of one's own: draw's options do not apply.
            advice = "own_dot_too_slow" if self.estimated_seconds is None else "too_slow"
            raise LayoutTooSlow(MESSAGES.say(advice, error=error)) from None
        except RenderError as error:
            advice = "render_failed" if fmt == "svg" else "render_failed_svg_may_work"
            raise RenderError(MESSAGES.say(advice, error=error)) from None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": self.svg(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        return MESSAGES.say("drawing")


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
    return plan(graph, _edge_label_texts(graph, edge_labels or {}))


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
    model.notes.extend(_reference_notes(model, uses))
    if model.drawn_nodes < model.total_nodes:
        layout = layout or request.plan(model)
        more = _quick_max_nodes(request, model, layout.estimated_seconds)
        model.notes.append(_cut_note(model, more))
    return model, layout


# How many captioned boxes the caption names; the rest it counts.
LISTED_REFERENCES = 4


def _reference_notes(model: Graph, uses: dict[str, int]) -> list[str]:
    if not uses:
        return []
    box = {node.id: node for node in model.nodes}
    cut = model.drawn_nodes < model.total_nodes
    how_many = "uses shown" if cut else "uses"  # a cut picture shows only some uses
    listed = [
        caption(how_many, title=box[i].title, count=count)
        for i, count in list(uses.items())[:LISTED_REFERENCES]
    ]
    if len(uses) > LISTED_REFERENCES:
        listed.append(caption("and more", more=len(uses) - LISTED_REFERENCES))
    joined = caption("list separator").join(listed)
    return [caption("references", listed=joined), caption("one tensor")]


def _cut_note(model: Graph, more: int | None) -> str:
    kept = model.drawn_nodes
    hidden = model.total_nodes - kept
    if model.walked_all:
        note = caption("cut", kept=kept, hidden=hidden)
    else:
        note = caption("cut, more beyond", kept=kept, hidden=hidden, seen=NODES_SAFE_TO_SEE)
    if model.roots_hidden:
        outputs = caption("outputs cut", hidden=model.roots_hidden, total=model.roots)
        note = caption("then", first=note, second=outputs)
    if more is None:
        offer = caption("draw all")
    elif more <= kept:
        offer = caption("no more")
    else:
        # With all of a graph walked, drawing all of it is what takes too long; else the limit
        # the note just named stops it first.
        key = "draw more" if model.walked_all else "draw more of many"
        offer = caption(key, more=more)
    return caption("then", first=note, second=offer)


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


def resolve_names(names: Names | None = None) -> list[tuple[str, torch.Tensor]]:
    """Every (name, tensor) a picture may use, in order of preference.

    First ``names`` as given (``{name: tensor or module}`` or pairs such as
    ``model.named_parameters()``), then the variables of the first caller outside this package
    (a notebook cell, or a learner's function: its locals, then its globals), then, in IPython,
    the notebook's own variables (so that a trace IPython displays by itself still finds them).
    The one way every helper finds names, so that a tensor has the same name in every picture.
    """
    pairs = _explicit_names(names)
    frame = sys._getframe(1)
    while frame is not None and _is_ours(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    if frame is not None:
        namespace = {**frame.f_globals, **frame.f_locals}  # a local shadows a global of that name
        del frame  # a frame kept alive keeps every local alive with it
        pairs += named_tensors(namespace)
    pairs += named_tensors(_notebook_namespace())
    return pairs


def _explicit_names(names: Names | None) -> list[tuple[str, torch.Tensor]]:
    if names is None:
        return []
    if isinstance(names, torch.Tensor):
        raise TypeError(MESSAGES.say("names_is_a_tensor"))
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise TypeError(MESSAGES.say("names_of_the_wrong_kind", got=type(names).__name__))
    pairs = names.items() if isinstance(names, Mapping) else names
    result: list[tuple[str, torch.Tensor]] = []
    for pair in pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise TypeError(MESSAGES.say("names_not_pairs", got=type(pair).__name__))
        name, value = pair
        if isinstance(value, torch.Tensor):
            result.append((str(name), value))
        elif isinstance(value, torch.nn.Module):
            result.extend(_parameters_of(str(name), value))
        else:
            got = type(value).__name__
            raise TypeError(MESSAGES.say("named_value_not_a_tensor", name=name, got=got))
    return result


def named_tensors(namespace: Mapping[str, Any]) -> list[tuple[str, torch.Tensor]]:
    """The tensors in a namespace, and the parameters of its modules (``model.weight``).

    Sorted shortest name first, then alphabetically, so the choice between two names for one
    tensor does not depend on the order in which they were assigned. Objects that cannot be
    inspected (a module whose ``__init__`` forgot ``super().__init__()``, an object whose
    ``__class__`` raises) are skipped: a notebook holds all sorts of things.
    """
    found: list[tuple[str, torch.Tensor]] = []
    for name, value in list(namespace.items()):
        if not isinstance(name, str) or name.startswith("_"):  # IPython's _, _1, _i1 ...
            continue
        try:
            if isinstance(value, torch.Tensor):
                found.append((name, value))
            elif isinstance(value, torch.nn.Module):
                found.extend(_parameters_of(name, value))
        except Exception:  # noqa: BLE001 - whatever a broken object raises, it names nothing
            continue
    return sorted(found, key=lambda pair: (len(pair[0]), pair[0]))


def _parameters_of(name: str, module: torch.nn.Module) -> list[tuple[str, torch.Tensor]]:
    try:
        return [(f"{name}.{part}", p) for part, p in module.named_parameters()]
    except Exception:  # noqa: BLE001 - a module that is not set up (no super().__init__())
        return []


def _notebook_namespace() -> Mapping[str, Any]:
    ipython_module = sys.modules.get("IPython")
    shell = ipython_module.get_ipython() if ipython_module is not None else None
    return {} if shell is None else shell.user_ns


def _is_ours(module_name: str) -> bool:
    return module_name.partition(".")[0] == __name__.partition(".")[0]


# --- DOT ---------------------------------------------------------------------------------------

# Measured with the first font installed, shown by the viewer with the first it has: DejaVu Sans
# is wider than Helvetica and Arial, so boxes sized for it still fit their text elsewhere.
FONT = "DejaVu Sans,Helvetica,Arial,sans-serif"
FONT_SIZE = 14
SMALL_FONT_SIZE = 12  # 12 pt = 16 px at 100% zoom: the smallest text in the picture
SLOT_ANGLE = 25  # degrees between an arrow and its slot number, anticlockwise going forward
SPINE_WEIGHT = 2  # Graphviz keeps heavier arrows shorter and straighter; the default is 1
CELL_PADDING = 5  # points around the text in a table cell
CELL_MARGIN = f"{CELL_PADDING / 72:.3f}"  # the same, in inches, for a plain box's margin
BORDER = "#495057"
GRAD_COLOUR = "#c92a2a"
HIGHLIGHT_COLOUR = "#e03131"
NOTE_COLOUR = "#495057"


@dataclass(frozen=True)
class BoxStyle:
    """How one kind of box looks: fill colour, shape, border, and the width of its highlight.

    Shapes: "table" (a tensor: its name, value, notes and gradient side by side, like
    micrograd's boxes), "ellipse" (an op), "note" (the summary of what max_nodes cut off).
    A reference box takes its kind's style with a dashed border (`style_of`).
    """

    fill: str
    shape: str
    border: str = "solid"  # or "dashed"
    # A table covers the inner half of the red outline drawn round it, so it gets a wider one.
    highlight_width: int = 3


BOX_STYLES = {
    LEAF: BoxStyle("#d0ebff", "table", highlight_width=4),
    TENSOR: BoxStyle("#fff3bf", "table", highlight_width=4),
    OUTPUT: BoxStyle("#d3f9d8", "table", highlight_width=4),
    SAVED: BoxStyle("#ffd8a8", "table", highlight_width=4),
    OP: BoxStyle("#e9ecef", "ellipse"),
    SUMMARY: BoxStyle("#ffffff", "note", border="dashed"),
}


def style_of(node: GraphNode) -> BoxStyle:
    """The style of ``node``'s box: its kind's, dashed for a reference box."""
    style = BOX_STYLES[node.kind]
    return replace(style, border="dashed") if node.same_as else style


def to_dot(
    graph: Graph,
    *,
    direction: str = "forward",
    highlight: Any = None,
    edge_labels: Mapping[tuple[Any, Any], str] | None = None,
    layout: Plan | None = None,
) -> str:
    """The DOT text for ``graph``; ``direction``, ``highlight`` and ``edge_labels`` as in `draw`.

    ``layout`` is the graph's `helpers._graph_layout.Plan`, when it was already made.
    """
    if not isinstance(graph, Graph):
        raise TypeError(MESSAGES.say("to_dot_takes_a_graph", got=type(graph).__name__))
    if direction not in ("forward", "backward"):
        raise ValueError(MESSAGES.say("bad_direction", value=direction))
    labels = _edge_label_texts(graph, edge_labels or {})
    layout = layout or plan(graph, labels)
    notes = graph.notes if direction == "forward" else [caption("backward"), *graph.notes]
    highlighted = _highlighted_boxes(graph, highlight)
    # Graphviz's network simplex, bounded where it could take long (see helpers._graph_layout).
    bounded = "" if layout.search_placement else ", nslimit=0"
    if layout.iterations_per_box is not None:
        bounded += f", nslimit1={layout.iterations_per_box}"
    lines = [
        "digraph autograd {",
        f'  graph [rankdir=TB, nodesep=0.3, ranksep=0.35, bgcolor="white", fontname="{FONT}", '
        f'fontsize={SMALL_FONT_SIZE}, fontcolor="{NOTE_COLOUR}"{bounded}{_caption(notes)}];',
        # Defaults are those of op boxes, the most common kind: the fewer attributes each box
        # repeats, the less Graphviz has to parse. Ellipses and square tables also render
        # faster than rounded boxes (no Bezier corners in the SVG).
        f'  node [shape=ellipse, style=filled, fillcolor="{BOX_STYLES[OP].fill}", '
        f'color="{BORDER}", fontname="{FONT}", fontsize={FONT_SIZE}];',
        # Head and tail labels (the slot numbers) take the edge's font and size. Turned away
        # from the arrow by SLOT_ANGLE they sit beside it, clear of the op's outline and of a
        # neighbouring arrowhead (Graphviz's default, -25, puts them on both going forward).
        f'  edge [weight={SPINE_WEIGHT}, color="{BORDER}", arrowsize=0.7, fontname="{FONT}", '
        f'fontsize={SMALL_FONT_SIZE}, labelfontcolor="{NOTE_COLOUR}", labeldistance=2, '
        f"labelangle={_slot_angle(direction)}];",
    ]
    plain, other = [], []
    for node in graph.nodes:
        (plain if is_one_line_box(node) else other).append(node)
    lines += [_node_line(node, node.id in highlighted) for node in other]
    if plain:  # plain boxes last, sharing their box attributes: less DOT for Graphviz to read
        lines.append(
            f'  node [shape=box, width=0, height=0, margin="{CELL_MARGIN}", '
            f'fillcolor="{BOX_STYLES[LEAF].fill}"];'
        )
        lines += [_node_line(node, node.id in highlighted) for node in plain]
    # Parallel arrows (x * x) sit side by side: the last one's slot number goes on its outer
    # side, so that no number stands between a pair of arrows (between three, the middle must).
    between: dict[tuple[str, str], list[GraphEdge]] = {}
    for edge in graph.edges:
        between.setdefault((edge.source, edge.target), []).append(edge)
    last_parallel = {pair: edges[-1] for pair, edges in between.items() if len(edges) > 1}
    arrows_so_far: Counter[tuple[str, str] | None] = Counter()  # per pair of Nodes joined
    for edge in graph.edges:
        text = labels.get(edge.autograd_edge) if edge.autograd_edge else None
        if isinstance(text, tuple):  # a text for each arrow joining the pair, in slot order
            nth = arrows_so_far[edge.autograd_edge]
            text = text[nth] if nth < len(text) else None
        arrows_so_far[edge.autograd_edge] += 1
        outer_slot = last_parallel.get((edge.source, edge.target)) is edge
        lines.append(_edge_line(edge, direction, text, layout, outer_slot))
    lines.append("}")
    return "\n".join(lines) + "\n"


def _caption(notes: list[str]) -> str:
    """The notes below the picture, one per line, aligned left."""
    if not notes:
        return ""
    # Graphviz measures text with the fonts of the machine that runs it, and the viewer draws
    # it with its own: a machine without Chinese fonts (Colab's) may measure Chinese narrower
    # than the viewer draws it, and the caption would be clipped. A cell at least as wide as
    # the text can be anywhere keeps the room.
    wide = any(_is_wide(character) for note in notes for character in note)
    width = f' WIDTH="{max(_width_in_points(note) for note in notes)}"' if wide else ""
    text = "<BR/>".join(_html(note) for note in notes)
    cell = f'<TD{width} ALIGN="LEFT" BALIGN="LEFT">{text}</TD>'
    table = f'<TABLE BORDER="0" CELLPADDING="0"><TR>{cell}</TR></TABLE>'
    return f", labelloc=b, labeljust=l, label=<{table}>"


def _is_wide(character: str) -> bool:
    return unicodedata.east_asian_width(character) in ("W", "F")


def _width_in_points(text: str) -> int:
    """Room for ``text`` in the caption's font: a Chinese character takes a full em, any other
    at most 0.65 em (DejaVu Sans, the widest of the fonts named, averages 0.55 em)."""
    ems = sum(1.0 if _is_wide(character) else 0.65 for character in text)
    return int(ems * SMALL_FONT_SIZE) + 1


def _node_line(node: GraphNode, highlighted: bool) -> str:
    style = style_of(node)
    if style.shape == "table" and not is_one_line_box(node):
        attributes = _table_box(node, style, highlighted)  # outlined its own way
    else:
        if style.shape == "ellipse":
            attributes = [_ellipse_label(node)]
        elif style.shape == "note":
            attributes = [f"shape=box, label=<{_html(node.title)}>"]
        else:
            attributes = _plain_box(node, style)
        box_style = {"note": "rounded", "ellipse": "filled", "table": "filled"}[style.shape]
        if style.border == "dashed":
            attributes.append(f'style="{box_style},dashed"')
        if highlighted:
            attributes.append(f'penwidth={style.highlight_width}, color="{HIGHLIGHT_COLOUR}"')
    if node.tooltip and node.tooltip != node.title:  # shown on hover, where it adds something
        attributes.append(f"tooltip={_quoted(node.tooltip)}")
    return f"  {node.id} [{', '.join(attributes)}];"


def _ellipse_label(node: GraphNode) -> str:
    if node.notes or not node.title.isidentifier():
        label = _html(node.title) + "".join(
            f'<BR/><FONT POINT-SIZE="{SMALL_FONT_SIZE}">{_html(note)}</FONT>' for note in node.notes
        )
        return f"label=<{label}>"
    return f"label={_quoted(node.title)}"  # a type name: plain text lays out faster than HTML


def _plain_box(node: GraphNode, style: BoxStyle) -> list[str]:
    if node.same_as:  # a reference: the name in bold, on a dashed box of its kind's colour
        attributes = [
            f"label=<<B>{_html(node.title)}</B>>",
            f'margin="{2 * CELL_PADDING / 72:.3f},{CELL_MARGIN}"',  # a name alone looks cramped
        ]
    else:
        attributes = [f"label={_quoted(node.value)}"]
    if style.fill != BOX_STYLES[LEAF].fill:  # the `node` line's default fill
        attributes.append(f'fillcolor="{style.fill}"')
    return attributes


def _table_box(node: GraphNode, style: BoxStyle, highlighted: bool) -> list[str]:
    cells = [f"<B>{_html(node.title)}</B>"] if node.title else []
    cells += [_html(text) for text in (node.value, *node.notes) if text]
    if node.grad is not None:
        cells.append(f'<FONT COLOR="{GRAD_COLOUR}">{_html("grad " + node.grad)}</FONT>')
    row = "<VR/>".join(f"<TD>{cell}</TD>" for cell in cells or [" "])
    table = (
        f'<TABLE BORDER="1" COLOR="{BORDER}" CELLBORDER="0" CELLSPACING="0" '
        f'CELLPADDING="{CELL_PADDING}" BGCOLOR="{style.fill}"><TR>{row}</TR></TABLE>'
    )
    if highlighted:
        # The outline goes round the table, not into it: a thicker table border would make the
        # box bigger, and the step-by-step pictures would shift from frame to frame.
        return [
            f"shape=box, width=0, height=0, margin=0, penwidth={style.highlight_width}, "
            f'color="{HIGHLIGHT_COLOUR}", fillcolor="{style.fill}", label=<{table}>'
        ]
    return [f"shape=plain, label=<{table}>"]


def _edge_line(
    edge: GraphEdge, direction: str, text: str | None, layout: Plan, outer_slot: bool
) -> str:
    forward = direction == "forward"
    tail, head = (edge.source, edge.target) if forward else (edge.target, edge.source)
    pair = (edge.source, edge.target)
    attributes = []
    # The spine is pulled straight (the edge default is its weight); an arrow that leaves room
    # for a side branch beside it is stretched to the branch's height.
    if edge.kind not in ("input", "output") or pair not in layout.spine:
        attributes.append("weight=1")
    if pair in layout.stretch:
        attributes.append(f"minlen={layout.stretch[pair]}")
    if edge.kind == "saved":
        attributes.append(f'style=dashed, dir=none, color="{BORDER}"')
    elif edge.kind == "summary":
        attributes.append("style=dashed")
    if text is not None:
        # With a label on the edge, the slot goes in front of it: Graphviz places head and tail
        # labels without regard to edge labels, and on parallel edges (x * x) they overlap.
        slot = "" if edge.slot is None else f'<FONT COLOR="{NOTE_COLOUR}">{edge.slot}: </FONT>'
        attributes.append(f'label=<{slot}{_html(text)}>, fontcolor="{GRAD_COLOUR}"')
    elif edge.slot is not None:
        # The slot belongs to the op's end of the arrow: the head going forward, the tail back.
        end = "headlabel" if forward else "taillabel"
        attributes.append(f'{end}="{edge.slot}"')
        if outer_slot:
            attributes.append(f"labelangle={-_slot_angle(direction)}")
    suffix = f" [{', '.join(attributes)}]" if attributes else ""
    return f"  {tail} -> {head}{suffix};"


def _slot_angle(direction: str) -> int:
    """Drawn backward the picture is upside down, and so is the turn of the slot numbers."""
    return SLOT_ANGLE if direction == "forward" else -SLOT_ANGLE


def _highlighted_boxes(graph: Graph, highlight: Any) -> set[str]:
    """The box of the highlighted Node, and the reference boxes that repeat it."""
    if highlight is None:
        return set()
    if not isinstance(highlight, torch.autograd.graph.Node):
        raise TypeError(MESSAGES.say("highlight_not_a_node", got=type(highlight).__name__))
    box = graph.find(highlight)
    if box is not None:
        return {node.id for node in graph.nodes if node.id == box.id or node.same_as == box.id}
    if graph.cut_off(highlight):
        return set()  # cut off by max_nodes: nothing to highlight in the picture
    raise ValueError(MESSAGES.say("highlight_not_in_graph", got=type(highlight).__name__))


def _edge_label_texts(
    graph: Graph, edge_labels: Mapping[tuple[Any, Any], Any]
) -> dict[tuple[str, str], str | tuple[str, ...]]:
    """Map edge_labels' (Node, Node) keys to (box id, box id) pairs of the model's arrows, and
    each text to a str, or a tuple of them (one per arrow joining the pair)."""
    if not edge_labels:
        return {}
    box_of = {id(n.fn): n.id for n in graph.nodes if n.fn is not None and not n.same_as}
    texts: dict[tuple[str, str], str | tuple[str, ...]] = {}
    for key, text in edge_labels.items():
        node, next_node = _oriented(key)
        if id(node) not in box_of or id(next_node) not in box_of:
            if graph.cut_off(node) or graph.cut_off(next_node):
                continue  # cut off by max_nodes
            edge = {"node": type(node).__name__, "next_node": type(next_node).__name__}
            raise ValueError(MESSAGES.say("edge_not_in_graph", **edge))
        pair = (box_of[id(node)], box_of[id(next_node)])
        texts[pair] = tuple(map(str, text)) if isinstance(text, (list, tuple)) else str(text)
    return texts


def _oriented(key: Any) -> tuple[Any, Any]:
    """(node, next_node) from an edge_labels key given in either order."""
    Node = torch.autograd.graph.Node
    if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, Node) for k in key)):
        raise TypeError(MESSAGES.say("edge_labels_keys"))
    first, second = key
    if any(fn is second for fn, _ in first.next_functions):
        return first, second
    if any(fn is first for fn, _ in second.next_functions):
        return second, first
    pair = {"first": type(first).__name__, "second": type(second).__name__}
    raise ValueError(MESSAGES.say("edge_not_joined", **pair))


def _html(text: str) -> str:
    """Text for an HTML-like DOT label, shown exactly as typed whatever characters it holds.

    A backslash is doubled: Graphviz reads backslash sequences in labels (``\\N`` is the box's
    id, ``\\G`` the graph's name), even in HTML-like ones, and reads ``\\\\`` as one backslash.
    """
    escaped = html.escape(_writable(text), quote=True).replace("\\", "\\\\")
    return escaped.replace("\n", "<BR/>")


def _quoted(text: str) -> str:
    """A double-quoted DOT string. Only for text that cannot start with a line break: the
    Graphviz bundled with pygraphviz 2.0.4 crashes on plain labels that do."""
    escaped = _writable(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


# Graphviz refuses a DOT whose label holds a run of text over 16 KB ("bad input data"): a text
# longer than this (a name, a note listing thousands of sizes) is cut, and says how long it was.
LONGEST_TEXT = 1000


def _writable(text: str) -> str:
    """``text`` as an SVG file can hold it: a tab as a space (Graphviz drops tabs), and control
    characters other than line breaks and halves of surrogate pairs as U+FFFD (�). Other
    characters Python calls unprintable stay as typed: spaces such as the ideographic one, and
    the joiners and direction marks that emoji sequences and Persian or Hebrew are written with.
    A text over `LONGEST_TEXT` characters is cut there."""
    if len(text) > LONGEST_TEXT:
        text = caption("text cut", text=text[:LONGEST_TEXT], length=len(text))
    if text.isprintable():
        return text
    return "".join(_writable_character(character) for character in text)


def _writable_character(character: str) -> str:
    if character == "\t":
        return " "
    if character != "\n" and unicodedata.category(character) in ("Cc", "Cs"):
        return "\ufffd"
    return "\ufffd" if character in "\ufffe\uffff" else character

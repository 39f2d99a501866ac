"""A picture as DOT, the text Graphviz lays out: each box styled by its kind, from one table.

`to_dot` writes the boxes and arrows of a `Graph` (`helpers.graph.model`) as a picture shows
them: the colours and shapes of `BOX_STYLES`, the caption below, a slot number where several
arrows enter an op, the arrows the layout plan pulls straight or stretches
(`helpers.graph.layout`), a red outline round the highlighted Node's boxes and texts on the
arrows (``highlight=`` and ``edge_labels=`` of `helpers.graph.draw`). A picture of one step of a
backward pass (`helpers.backward_view`) also fills in pink each Node that is ready to run (it
has received all its gradients; a leaf: its gradient's cell), and names the arrows its gradients
travel along now.
Any text is written so that Graphviz shows it exactly as typed.
"""

from __future__ import annotations

import html
import unicodedata
from collections import Counter
from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from typing import Any

import torch

from helpers.graph.captions import caption
from helpers.graph.layout import Plan, plan
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
    GraphEdge,
    GraphNode,
    is_one_line_box,
)
from helpers.text import is_wide, wrap

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
TANGENT_COLOUR = "#1864ab"  # forward mode's derivative, blue as the gradient's is red
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
    MODULE: BoxStyle("#e5dbff", "table", highlight_width=4),
}

# A compared gradient's mark (draw(marks=...)): the sign written first in its box, and the colour
# and width of the outline round it. The one to fix first is outlined twice as thick.
MARK_STYLES = {
    "right": ("✓", "#2b8a3e", 2),
    "wrong": ("✗", HIGHLIGHT_COLOUR, 2),
    "first wrong": ("✗", HIGHLIGHT_COLOUR, 5),
}
# A frame round the boxes of a module drawn whole (graph.frames).
FRAME_COLOUR = "#9775fa"
# A step picture: the fill of a Node ready to run, which has received every gradient it gets in
# the pass and waits in the engine's queue (the red family of the gradients on the arrows), and
# the class of an arrow a gradient travels along at this step, which the interactive view
# animates (helpers/view/script); drawn forward, the arrow points against the gradient.
READY_FILL = "#ffe3e3"
MOVING_CLASS = "agv-moving"


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
    ids: bool = False,
    captioned: bool = True,
    ready: Collection[Any] | None = None,
    moving: Collection[tuple[Any, Any]] = (),
) -> str:
    """The DOT text for ``graph``; ``direction``, ``highlight`` and ``edge_labels`` as in `draw`.

    ``layout`` is the graph's `helpers.graph.layout.Plan`, when it was already made. With
    ``ids``, every box and frame carries an ``id`` that Graphviz writes into the SVG: the box's
    own id ("n12", "m3") and "f" with the frame's place in ``graph.frames`` ("f0"), which the
    interactive view (`helpers.view`) finds them by. With ``captioned=False`` the notes
    are left out of the picture (`caption_notes` gives them, to say elsewhere).

    A step picture says more: the boxes of the Nodes ``ready`` to run (a list, maybe empty) are
    filled in `READY_FILL` (a leaf's box, its gradient's cell), and with ``ids`` the arrows of
    the edges in ``moving`` (``(node, next node)``, as the keys of ``edge_labels``) carry the
    class `MOVING_CLASS` in the SVG (and "-against" after it where the arrow points against the
    gradient, drawn forward).
    Neither changes the layout: every frame of a pass is laid out alike.
    """
    if not isinstance(graph, Graph):
        raise TypeError(MESSAGES.say("to_dot_takes_a_graph", got=type(graph).__name__))
    if direction not in ("forward", "backward"):
        raise ValueError(MESSAGES.say("bad_direction", value=direction))
    labels = edge_label_texts(graph, edge_labels or {})
    layout = layout or plan(graph, labels)
    notes = caption_notes(graph, direction) if captioned else []
    highlighted = _highlighted_boxes(graph, highlight)
    filled = {box.id for box in map(graph.find, ready or ()) if box is not None}
    # Every picture of a pass says what pink means, one with no Node ready too: the caption's
    # height, and so the layout, stays the same from step to step.
    if ready is not None and captioned:
        notes = [*notes, caption("ready")]
    travelled = set(edge_label_texts(graph, dict.fromkeys(moving, ""))) if ids else set()
    # Graphviz's network simplex, bounded where it could take long (see helpers.graph.layout).
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
    lines += [_node_line(node, node.id in highlighted, ids, node.id in filled) for node in other]
    if plain:  # plain boxes last, sharing their box attributes: less DOT for Graphviz to read
        lines.append(
            f'  node [shape=box, width=0, height=0, margin="{CELL_MARGIN}", '
            f'fillcolor="{BOX_STYLES[LEAF].fill}"];'
        )
        lines += [_node_line(node, node.id in highlighted, ids) for node in plain]
    lines += _frame_lines(graph, ids)
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
        moving_now = edge.autograd_edge in travelled
        lines.append(_edge_line(edge, direction, text, layout, outer_slot, moving_now))
    lines.append("}")
    return "\n".join(lines) + "\n"


def caption_notes(graph: Graph, direction: str = "forward") -> list[str]:
    """The notes the caption below a picture of ``graph`` says, one per line."""
    notes = graph.notes if direction == "forward" else [caption("backward"), *graph.notes]
    if any(node.mark for node in graph.nodes):
        notes = [*notes, caption("marks")]
    if any(node.tangent is not None for node in graph.nodes):
        notes = [*notes, caption("tangents")]
    return notes


def _caption(notes: list[str]) -> str:
    """The notes below the picture, one per line, aligned left."""
    if not notes:
        return ""
    # Graphviz measures text with the fonts of the machine that runs it, and the viewer draws
    # it with its own: a machine without Chinese fonts (Colab's) may measure Chinese narrower
    # than the viewer draws it, and the caption would be clipped. A cell at least as wide as
    # the text can be anywhere keeps the room.
    lines = [line for note in notes for line in _wrapped(note)]
    wide = any(is_wide(character) for line in lines for character in line)
    width = f' WIDTH="{max(_width_in_points(line) for line in lines)}"' if wide else ""
    text = "<BR/>".join(_html(line) for line in lines)
    cell = f'<TD{width} ALIGN="LEFT" BALIGN="LEFT">{text}</TD>'
    table = f'<TABLE BORDER="0" CELLPADDING="0"><TR>{cell}</TR></TABLE>'
    return f", labelloc=b, labeljust=l, label=<{table}>"


# A caption line is wrapped at about this width: a long note (the references it lists, what a
# folded picture offers) must not make the picture wider than its boxes, or the first screen of
# a wide picture shows the caption's start and no box at all.
CAPTION_WIDTH = 760  # points: about 100 Latin letters or 60 Chinese characters


def _wrapped(note: str) -> list[str]:
    """``note`` as lines of at most `CAPTION_WIDTH` points (`helpers.text.wrap`: breaking at a
    space or between Chinese words, never inside a word or a call)."""
    return wrap(note, lambda line: _width_in_points(line) <= CAPTION_WIDTH)


def _width_in_points(text: str) -> int:
    """Room for ``text`` in the caption's font: a Chinese character takes a full em, any other
    at most 0.65 em (DejaVu Sans, the widest of the fonts named, averages 0.55 em)."""
    ems = sum(1.0 if is_wide(character) else 0.65 for character in text)
    return int(ems * SMALL_FONT_SIZE) + 1


def _node_line(node: GraphNode, highlighted: bool, ids: bool = False, ready: bool = False) -> str:
    style = style_of(node)
    if style.shape == "table" and not is_one_line_box(node):
        attributes = _table_box(node, style, highlighted, ready)  # outlined its own way
    else:
        if style.shape == "ellipse":
            attributes = [_ellipse_label(node)]
            if ready:
                attributes.append(f'fillcolor="{READY_FILL}"')
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
    if ids:
        attributes.append(f"id={_quoted(node.id)}")
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


def _table_box(
    node: GraphNode, style: BoxStyle, highlighted: bool, ready: bool = False
) -> list[str]:
    cells = []  # the table's cells, left to right
    outline = (HIGHLIGHT_COLOUR, style.highlight_width) if highlighted else None
    if node.mark is not None:
        sign, colour, width = MARK_STYLES[node.mark]
        cells.append(f'<TD><FONT COLOR="{colour}"><B>{sign}</B></FONT></TD>')
        outline = outline or (colour, width)
    cells += [f"<TD><B>{_html(node.title)}</B></TD>"] if node.title else []
    cells += [f"<TD>{_html(text)}</TD>" for text in (node.value, *node.notes) if text]
    if node.grad is not None:
        # A module box's gradient is a norm, which its text names ("grad norm", 梯度范数). A
        # blank one keeps the room of a gradient still to come (a step picture), with no word.
        named = node.kind != MODULE and node.grad.strip()
        text = "grad " + node.grad if named else node.grad
        # A leaf keeps its kind's colour; the cell its gradient goes in shows that all arrived.
        filled = f' BGCOLOR="{READY_FILL}"' if ready else ""
        cells.append(f'<TD{filled}><FONT COLOR="{GRAD_COLOUR}">{_html(text)}</FONT></TD>')
    if node.tangent is not None:
        # "tangent", as forward_ad.unpack_dual(...).tangent names it, in every language.
        cells.append(
            f'<TD><FONT COLOR="{TANGENT_COLOUR}">{_html("tangent " + node.tangent)}</FONT></TD>'
        )
    if node.mark == "first wrong":
        fix_first = _html(caption("fix first"))
        cells.append(f'<TD><FONT COLOR="{HIGHLIGHT_COLOUR}"><B>{fix_first}</B></FONT></TD>')
    row = "<VR/>".join(cells or ["<TD> </TD>"])
    table = (
        f'<TABLE BORDER="1" COLOR="{BORDER}" CELLBORDER="0" CELLSPACING="0" '
        f'CELLPADDING="{CELL_PADDING}" BGCOLOR="{style.fill}"><TR>{row}</TR></TABLE>'
    )
    if outline is not None:
        # The outline goes round the table, not into it: a thicker table border would make the
        # box bigger, and the step-by-step pictures would shift from frame to frame.
        colour, width = outline
        return [
            f"shape=box, width=0, height=0, margin=0, penwidth={width}, "
            f'color="{colour}", fillcolor="{style.fill}", label=<{table}>'
        ]
    return [f"shape=plain, label=<{table}>"]


def _frame_lines(graph: Graph, ids: bool = False) -> list[str]:
    """A cluster per frame, nested as the modules are: Graphviz draws a labelled border round
    its boxes. The boxes are written before, so a cluster only names them."""
    drawn = {node.id for node in graph.nodes}
    children: dict[str | None, list[Any]] = {}
    for frame in graph.frames:
        children.setdefault(frame.parent, []).append(frame)
    place = {id(frame): number for number, frame in enumerate(graph.frames)}
    lines: list[str] = []
    # Depth first, without recursion: (frame, its depth) on a stack, "}" markers to close.
    stack: list[Any] = [(frame, 1) for frame in reversed(children.get(None, []))]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            lines.append(item)
            continue
        frame, depth = item
        boxes = [box for box in frame.boxes if box in drawn]
        if not boxes and not _frames_boxes(frame, children, drawn):
            continue
        indent = "  " * depth
        frame_id = f'id="f{place[id(frame)]}"; ' if ids else ""
        lines.append(
            f"{indent}subgraph cluster_{len(lines)} {{ {frame_id}label=<{_html(frame.label)}>; "
            f'labelloc=t; labeljust=l; style="rounded,dashed"; color="{FRAME_COLOUR}"; '
            f'fontcolor="{NOTE_COLOUR}"; margin=10;'
        )
        if boxes:
            lines.append(f"{indent}  {'; '.join(boxes)};")
        stack.append(f"{indent}}}")
        stack.extend((inner, depth + 1) for inner in reversed(children.get(frame.path, [])))
    return lines


def _frames_boxes(frame: Any, children: dict, drawn: set[str]) -> bool:
    """Whether a frame inside ``frame``, at any depth, has a box drawn."""
    to_visit = list(children.get(frame.path, []))
    while to_visit:
        inner = to_visit.pop()
        if any(box in drawn for box in inner.boxes):
            return True
        to_visit.extend(children.get(inner.path, []))
    return False


def _edge_line(
    edge: GraphEdge,
    direction: str,
    text: str | None,
    layout: Plan,
    outer_slot: bool,
    moving: bool = False,
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
    if moving:
        # Drawn forward, the arrow points from the Node that receives the gradient to the one
        # that sends it: the view sends the gradient from the arrow's end to its start.
        against = "" if not forward else f" {MOVING_CLASS}-against"
        attributes.append(f'class="{MOVING_CLASS}{against}"')
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


def edge_label_texts(
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

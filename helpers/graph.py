"""Draw the autograd graph PyTorch really built, with values, gradients and names in the boxes.

    >>> from helpers.graph import draw
    >>> w = torch.tensor(2.0, requires_grad=True); b = torch.tensor(1.0, requires_grad=True)
    >>> x = torch.tensor(3.0)
    >>> u = w * x; v = u + b; a = torch.relu(v)
    >>> draw(a)          # in a notebook, the cell shows the picture

Boxes get their names from the variables of the code that calls `draw`; run the cell again after
``a.backward()`` and the leaves show their gradients. `build` returns the same picture as data
(a `Graph`), `to_dot` turns such a model into DOT text, and `Drawing` renders DOT to SVG or PNG
with Graphviz: in-process through pygraphviz, else through the ``dot`` program.
"""

from __future__ import annotations

import ctypes
import html
import sys
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

import torch

from helpers._graph_model import (
    LEAF,
    OP,
    OUTPUT,
    SAVED,
    SUMMARY,
    TENSOR,
    Graph,
    GraphEdge,
    GraphNode,
    build_graph,
)

__all__ = [
    "DEFAULT_MAX_NODES",
    "Drawing",
    "Graph",
    "GraphEdge",
    "GraphNode",
    "GraphvizNotFound",
    "build",
    "draw",
    "named_tensors",
    "to_dot",
]

# Enough for any graph a lesson draws; beyond it a picture stops being readable anyway.
DEFAULT_MAX_NODES = 200

Names = Mapping[str, torch.Tensor] | Iterable[tuple[str, torch.Tensor]]


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

    Each box has a stable id ("n0", "n1", ... in walk order), a ``kind`` (leaf, tensor, op, saved,
    output, summary), its label text, and for op and leaf boxes ``fn``, the autograd Node it
    stands for. The Graph holds those Nodes, and through them the tensors they saved, until you
    drop it. Arguments are those of `draw`.
    """
    roots = _roots(output)
    if max_nodes is not None and (not isinstance(max_nodes, int) or max_nodes < 1):
        raise ValueError(f"max_nodes must be a positive whole number or None, not {max_nodes!r}.")
    named = _explicit_names(names) + _caller_names()
    return build_graph(
        roots,
        named,
        show_values=show_values,
        show_grads=show_grads,
        show_saved=show_saved,
        max_nodes=max_nodes,
    )


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
    - dashed: "… N more nodes" stands for what ``max_nodes`` cut off; the caption says so.

    Arguments:
        names: extra names, a dict ``{name: tensor}`` or pairs such as
            ``model.named_parameters()``. Names also come from the variables of the code calling
            ``draw`` (locals, then globals, skipping names that start with ``_``; a module
            variable ``model`` names its parameters ``model.weight``...). Tensors are matched by
            identity. When a tensor has several names, ``names`` wins, then the shortest
            variable name, then the alphabetically first.
        direction: "forward" (arrows follow the computation, inputs at the top) or "backward"
            (arrows follow the gradients, output at the top, like torchviz).
        show_values, show_grads: set False to leave values (shapes stay) or gradients out.
        show_saved: also show what each op saved for backward.
        max_nodes: draw at most this many autograd Nodes, those nearest the output; None for all.
        highlight: an autograd Node (e.g. ``y.grad_fn``) whose box gets a thick red border; a
            leaf's AccumulateGrad Node highlights the leaf's box. None for no highlight; a Node
            cut off by ``max_nodes`` highlights nothing.
        edge_labels: ``{(node, next_node): text}`` writes ``text`` on the arrow between two
            Nodes, where ``next_node`` is in ``node.next_functions`` (either order works).
            Keys for Nodes cut off by ``max_nodes`` are ignored; other unknown keys raise
            ValueError.

    Returns a `Drawing`: ``.source`` is the DOT text, ``.svg()`` renders it, ``.save(path)``
    writes .svg, .png or .dot, and a notebook shows it as a picture. It keeps no reference to
    your tensors.
    """
    graph = build(
        output,
        names,
        show_values=show_values,
        show_grads=show_grads,
        show_saved=show_saved,
        max_nodes=max_nodes,
    )
    return Drawing(to_dot(graph, direction=direction, highlight=highlight, edge_labels=edge_labels))


class GraphvizNotFound(RuntimeError):
    """Neither pygraphviz nor the Graphviz ``dot`` program is available to render a drawing."""


class Drawing:
    """A picture of an autograd graph: DOT text, rendered by Graphviz when asked."""

    def __init__(self, source: str) -> None:
        self.source = source
        self._svg: str | None = None

    def svg(self) -> str:
        """The picture as SVG text."""
        if self._svg is None:
            self._svg = _render(self.source, "svg").decode("utf-8")
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
            path.write_bytes(_render(self.source, "png"))
        else:
            raise ValueError(
                f"Cannot save a drawing as {path.name!r}: use a .svg, .png or .dot name."
            )
        return path

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": self.svg(), "text/plain": repr(self)}

    def __repr__(self) -> str:
        return "<Drawing of an autograd graph: .source is its DOT text, .svg() renders it>"


# --- inputs ------------------------------------------------------------------------------------


def _roots(output: Any) -> list[torch.Tensor]:
    if isinstance(output, torch.Tensor):
        return [output]
    if output is None:
        raise TypeError(
            "draw() got None instead of a tensor. Pass the tensor whose graph you want, e.g. "
            "draw(loss); a function that forgets to `return` its result gives None."
        )
    if not isinstance(output, (list, tuple)):
        hint = ""
        if isinstance(output, (int, float, complex)):
            hint = " A Python number (from .item() or float()) has no graph: draw the tensor."
        raise TypeError(
            f"draw() needs a tensor or a list of tensors, not a {type(output).__name__}.{hint}"
        )
    if not output:
        raise ValueError("draw() got an empty list: pass at least one tensor, e.g. draw([y1, y2]).")
    roots: list[torch.Tensor] = []
    for position, item in enumerate(output):
        if not isinstance(item, torch.Tensor):
            raise TypeError(
                f"draw() got a list whose item {position} is a {type(item).__name__}, "
                "not a tensor: pass only tensors."
            )
        if not any(item is root for root in roots):
            roots.append(item)
    return roots


def _explicit_names(names: Names | None) -> list[tuple[str, torch.Tensor]]:
    if names is None:
        return []
    pairs = names.items() if isinstance(names, Mapping) else names
    result: list[tuple[str, torch.Tensor]] = []
    for pair in pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise TypeError(
                "names must be a dict {name: tensor} or (name, tensor) pairs such as "
                f"model.named_parameters(), not a sequence of {type(pair).__name__}."
            )
        name, tensor = pair
        if not isinstance(tensor, torch.Tensor):
            raise TypeError(
                f"names[{name!r}] is a {type(tensor).__name__}, not a tensor: names map a "
                "name to the tensor it labels."
            )
        result.append((str(name), tensor))
    return result


def _caller_names() -> list[tuple[str, torch.Tensor]]:
    """Tensors in the namespace of the first caller outside this package, as (name, tensor).

    Skipping our own frames means a helper that calls draw() (helpers.backward) still finds the
    notebook's variables.
    """
    frame = sys._getframe(1)
    while frame is not None and _is_ours(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    if frame is None:
        return []
    namespace = {**frame.f_globals, **frame.f_locals}  # a local shadows a global of that name
    del frame  # a frame kept alive keeps every local alive with it
    return named_tensors(namespace)


def named_tensors(namespace: Mapping[str, Any]) -> list[tuple[str, torch.Tensor]]:
    """The tensors in a namespace, and the parameters of its modules (``model.weight``).

    Sorted shortest name first, then alphabetically, so the choice between two names for one
    tensor does not depend on the order in which they were assigned.
    """
    found: list[tuple[str, torch.Tensor]] = []
    for name, value in namespace.items():
        if name.startswith("_"):  # IPython's _, _1, _i1 ... hold old outputs, not names
            continue
        if isinstance(value, torch.Tensor):
            found.append((name, value))
        elif isinstance(value, torch.nn.Module):
            found.extend((f"{name}.{part}", p) for part, p in value.named_parameters())
    return sorted(found, key=lambda pair: (len(pair[0]), pair[0]))


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
FILL = {
    LEAF: "#d0ebff",
    TENSOR: "#fff3bf",
    OP: "#e9ecef",
    SAVED: "#ffd8a8",
    OUTPUT: "#d3f9d8",
    SUMMARY: "#ffffff",
}
BORDER = "#495057"
GRAD_COLOUR = "#c92a2a"
HIGHLIGHT_COLOUR = "#e03131"
NOTE_COLOUR = "#495057"


def to_dot(
    graph: Graph,
    *,
    direction: str = "forward",
    highlight: Any = None,
    edge_labels: Mapping[tuple[Any, Any], str] | None = None,
) -> str:
    """The DOT text for ``graph``; ``direction``, ``highlight`` and ``edge_labels`` as in `draw`."""
    if direction not in ("forward", "backward"):
        raise ValueError(f'direction must be "forward" or "backward", not {direction!r}.')
    highlighted = _highlighted_box(graph, highlight)
    labels = _edge_label_texts(graph, edge_labels or {})
    lines = [
        "digraph autograd {",
        f'  graph [rankdir=TB, nodesep=0.3, ranksep=0.35, bgcolor="white", fontname="{FONT}", '
        f'fontsize={SMALL_FONT_SIZE}, fontcolor="{NOTE_COLOUR}"{_caption(graph.notes)}];',
        # Defaults are those of op boxes, the most common kind: the fewer attributes each box
        # repeats, the less Graphviz has to parse. Ellipses and square tables also render
        # faster than rounded boxes (no Bezier corners in the SVG).
        f'  node [shape=ellipse, style=filled, fillcolor="{FILL[OP]}", color="{BORDER}", '
        f'fontname="{FONT}", fontsize={FONT_SIZE}];',
        # Head and tail labels (the slot numbers) take the edge's font and size. Turned away
        # from the arrow by SLOT_ANGLE they sit beside it, clear of the op's outline and of a
        # neighbouring arrowhead (Graphviz's default, -25, puts them on both going forward).
        f'  edge [weight={SPINE_WEIGHT}, color="{BORDER}", arrowsize=0.7, fontname="{FONT}", '
        f'fontsize={SMALL_FONT_SIZE}, labelfontcolor="{NOTE_COLOUR}", labeldistance=2, '
        f"labelangle={_slot_angle(direction)}];",
    ]
    plain, other = [], []
    for node in graph.nodes:
        (plain if _is_single_plain_cell(node) else other).append(node)
    lines += [_node_line(node, highlighted) for node in other]
    if plain:  # one-line boxes last, sharing their box attributes: less DOT for Graphviz to read
        lines.append(
            f'  node [shape=box, width=0, height=0, margin="{CELL_MARGIN}", '
            f'fillcolor="{FILL[LEAF]}"];'
        )
        lines += [_node_line(node, highlighted) for node in plain]
    # The computation itself is the graph's spine: pulling its arrows straight keeps a deep
    # network a column with its weights beside it, where Graphviz would otherwise centre each
    # op between its inputs and drift one step sideways per layer.
    off_spine = {node.id for node in graph.nodes if node.kind in (LEAF, SAVED, SUMMARY)}
    # Parallel arrows (x * x) sit side by side: the last one's slot number goes on its outer
    # side, so that no number stands between a pair of arrows (between three, the middle must).
    between: dict[tuple[str, str], list[GraphEdge]] = {}
    for edge in graph.edges:
        between.setdefault((edge.source, edge.target), []).append(edge)
    last_parallel = {pair: edges[-1] for pair, edges in between.items() if len(edges) > 1}
    lines += [
        _edge_line(
            edge,
            direction,
            labels,
            on_spine=edge.kind in ("input", "output") and edge.source not in off_spine,
            outer_slot=last_parallel.get((edge.source, edge.target)) is edge,
        )
        for edge in graph.edges
    ]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _caption(notes: list[str]) -> str:
    if not notes:
        return ""
    return ", labelloc=b, labeljust=l, label=<" + "<BR/>".join(_html(note) for note in notes) + ">"


def _node_line(node: GraphNode, highlighted_id: str | None) -> str:
    return f"  {node.id} [{_node_attributes(node, node.id == highlighted_id)}];"


def _node_attributes(node: GraphNode, highlighted: bool) -> str:
    attributes = []
    if node.kind == OP:
        if node.lines or not node.title.isidentifier():
            label = _html(node.title) + "".join(
                f'<BR/><FONT POINT-SIZE="{SMALL_FONT_SIZE}">{_html(line)}</FONT>'
                for line in node.lines
            )
            attributes.append(f"label=<{label}>")
        else:  # a type name: a plain label, which Graphviz lays out faster than an HTML one
            attributes.append(f"label={_quoted(node.title)}")
        if highlighted:
            attributes.append(f'penwidth=3, color="{HIGHLIGHT_COLOUR}"')
    elif node.kind == SUMMARY:
        attributes.append(f'shape=box, style="rounded,dashed", label=<{_html(node.title)}>')
    elif _is_single_plain_cell(node):
        # One cell of plain text: a box drawn like the table's, at a fraction of the layout
        # cost of an HTML label (the benchmark's unnamed weights are all such boxes).
        # Drawn after the `node` line that gives them box shape and margins (see to_dot).
        attributes.append(f"label={_quoted(node.lines[0])}")
        if node.kind != LEAF:
            attributes.append(f'fillcolor="{FILL[node.kind]}"')
        if highlighted:
            attributes.append(f'penwidth=3, color="{HIGHLIGHT_COLOUR}"')
    else:
        if highlighted:
            # The outline goes round the table, not into it: a thicker table border would make
            # the box bigger, and the step-by-step pictures would shift from frame to frame. The
            # table covers the inner half of the line, so it is drawn thicker than an op's.
            attributes.append(
                f'shape=box, width=0, height=0, margin=0, penwidth=4, color="{HIGHLIGHT_COLOUR}", '
                f'fillcolor="{FILL[node.kind]}", label=<{_table(node)}>'
            )
        else:
            attributes.append(f"shape=plain, label=<{_table(node)}>")
    if node.tooltip and node.tooltip != node.title:  # shown on hover, where it adds something
        attributes.append(f"tooltip={_quoted(node.tooltip)}")
    return ", ".join(attributes)


def _is_single_plain_cell(node: GraphNode) -> bool:
    """A box whose table would be one cell of plain text: no name, no gradient, one line."""
    if node.title or len(node.lines) != 1:
        return False
    (line,) = node.lines
    return bool(line) and line.isprintable() and not line.startswith("grad ")


def _table(node: GraphNode) -> str:
    """A tensor's box as one row of cells, like micrograd's: name | value | grad."""
    cells = [f"<B>{_html(node.title)}</B>"] if node.title else []
    for line in node.lines:
        if line.startswith("grad "):
            cells.append(f'<FONT COLOR="{GRAD_COLOUR}">{_html(line)}</FONT>')
        else:
            cells.append(_html(line))
    if not cells:
        cells = [" "]
    row = "<VR/>".join(f"<TD>{cell}</TD>" for cell in cells)
    return (
        f'<TABLE BORDER="1" COLOR="{BORDER}" CELLBORDER="0" CELLSPACING="0" '
        f'CELLPADDING="{CELL_PADDING}" BGCOLOR="{FILL[node.kind]}"><TR>{row}</TR></TABLE>'
    )


def _edge_line(
    edge: GraphEdge,
    direction: str,
    labels: dict[tuple[str, str], str],
    on_spine: bool,
    outer_slot: bool,
) -> str:
    forward = direction == "forward"
    tail, head = (edge.source, edge.target) if forward else (edge.target, edge.source)
    attributes = []
    if not on_spine:
        attributes.append("weight=1")  # the edge default is the spine's weight
    if edge.kind == "saved":
        attributes.append(f'style=dashed, dir=none, color="{BORDER}"')
    elif edge.kind == "summary":
        attributes.append("style=dashed")
    text = labels.get(edge.autograd_edge) if edge.autograd_edge else None
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


def _highlighted_box(graph: Graph, highlight: Any) -> str | None:
    if highlight is None:
        return None
    if not isinstance(highlight, torch.autograd.graph.Node):
        raise TypeError(
            f"highlight= takes an autograd Node such as y.grad_fn (or None), "
            f"not a {type(highlight).__name__}."
        )
    box = graph.find(highlight)
    if box is not None:
        return box.id
    if any(fn is highlight for fn in graph.hidden):
        return None  # cut off by max_nodes: nothing to highlight in the picture
    raise ValueError(
        f"highlight: this {type(highlight).__name__} is not in the graph being drawn "
        "(it cannot be reached from the tensors passed to draw())."
    )


def _edge_label_texts(
    graph: Graph, edge_labels: Mapping[tuple[Any, Any], str]
) -> dict[tuple[str, str], str]:
    """Map edge_labels' (Node, Node) keys to (box id, box id) pairs of the model's arrows."""
    box_of = {id(node.fn): node.id for node in graph.nodes if node.fn is not None}
    hidden = {id(fn) for fn in graph.hidden}
    texts: dict[tuple[str, str], str] = {}
    for key, text in edge_labels.items():
        node, next_node = _oriented(key)
        if id(node) in hidden or id(next_node) in hidden:
            continue  # cut off by max_nodes
        if id(node) not in box_of or id(next_node) not in box_of:
            raise ValueError(
                f"edge_labels: the edge {type(node).__name__} -> {type(next_node).__name__} is "
                "not in the graph being drawn (it cannot be reached from the tensors passed)."
            )
        texts[(box_of[id(node)], box_of[id(next_node)])] = str(text)
    return texts


def _oriented(key: Any) -> tuple[Any, Any]:
    """(node, next_node) from an edge_labels key given in either order."""
    Node = torch.autograd.graph.Node
    if not (isinstance(key, tuple) and len(key) == 2 and all(isinstance(k, Node) for k in key)):
        raise TypeError(
            "edge_labels keys are pairs of autograd Nodes, (node, next_node), e.g. "
            "(y.grad_fn, y.grad_fn.next_functions[0][0])."
        )
    first, second = key
    if any(fn is second for fn, _ in first.next_functions):
        return first, second
    if any(fn is first for fn, _ in second.next_functions):
        return second, first
    raise ValueError(
        f"edge_labels: {type(first).__name__} and {type(second).__name__} are not joined by an "
        "edge: one of them must appear in the other's next_functions."
    )


def _html(text: str) -> str:
    """Text for an HTML-like DOT label, shown exactly as typed whatever characters it holds."""
    if not text.isprintable():
        text = "".join(c if c.isprintable() or c == "\n" else "\ufffd" for c in text)
    return html.escape(text, quote=True).replace("\n", "<BR/>")


def _quoted(text: str) -> str:
    """A double-quoted DOT string. Only for text that cannot start with a line break: the
    Graphviz bundled with pygraphviz 2.0.4 crashes on plain labels that do."""
    escaped = text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n")
    return f'"{escaped}"'


# --- rendering ---------------------------------------------------------------------------------


def _render(source: str, fmt: str) -> bytes:
    """Render DOT to ``fmt`` bytes: in-process with pygraphviz, else with the ``dot`` program."""
    try:
        import pygraphviz
    except ImportError:
        pygraphviz = None
    if pygraphviz is not None:
        _prepare_bundled_fontconfig(pygraphviz)
        return _render_in_process(source, fmt)
    try:
        import graphviz
    except ImportError:
        graphviz = None
    if graphviz is not None:
        try:
            return graphviz.Source(source).pipe(format=fmt)
        except graphviz.ExecutableNotFound:
            pass
    raise GraphvizNotFound(
        "Drawing needs Graphviz, and none was found: pygraphviz cannot be imported and the "
        "Graphviz `dot` program is not on PATH. Fix either one: `pip install pygraphviz` (its "
        "wheels include Graphviz), or install Graphviz (apt-get install graphviz, brew install "
        "graphviz or conda install graphviz) and `pip install graphviz`. The DOT text is in "
        ".source meanwhile."
    )


_graphviz_context: Any = None  # one Graphviz context for every picture, as the dot program keeps


def _render_in_process(source: str, fmt: str) -> bytes:
    """Lay ``source`` out with dot and render it, in pygraphviz's Graphviz library.

    This is what ``pygraphviz.AGraph(string=source).draw(format=fmt, prog="dot")`` does, through
    the same calls, without the wrapper's extra work: a context made (and plugins loaded) for
    every picture, and a warning written to stderr for graphs of over 1,000 nodes.
    """
    from pygraphviz import graphviz as gv  # pygraphviz's binding of Graphviz's C functions

    global _graphviz_context
    if _graphviz_context is None:
        # Wheels carry their plugins built in; other builds find them through Graphviz's config.
        _graphviz_context = getattr(gv, "gvContextWithBuiltins", gv.gvContext)()
    context = _graphviz_context
    with tempfile.TemporaryFile() as file:  # Graphviz's reader wants a file
        file.write(source.encode("utf-8"))
        file.seek(0)
        try:
            handle = gv.agread(file, None)
        except ValueError as error:
            message = f"Graphviz cannot read this DOT ({error}); it is in .source."
            raise ValueError(message) from None
    result: Any = None
    try:
        if gv.gvLayout(context, handle, b"dot") == 0:
            try:
                result = gv.gvRenderData(context, handle, fmt.encode("ascii"))
            finally:
                gv.gvFreeLayout(context, handle)
    finally:
        gv.agclose(handle)
    # Success is [0, data]; a failed render returns a bare error code instead.
    if isinstance(result, (list, tuple)) and len(result) == 2 and result[0] == 0:
        return result[1]
    # A failure can leave a half-made job in the context: the next picture gets a fresh one.
    # The old context is dropped, not freed, as freeing it in that state is not known to be safe.
    _graphviz_context = None
    raise RuntimeError(
        f"Graphviz (in pygraphviz) could not draw this graph as {fmt}: see the message above. "
        "Its DOT text is in .source; .svg() or saving as .svg or .dot may still work."
    )


_fontconfig_prepared = False


def _prepare_bundled_fontconfig(pygraphviz: Any) -> None:
    """Load the system's font configuration into pygraphviz's bundled fontconfig, once.

    pygraphviz's Linux wheels bundle fontconfig 2.13. When that library initialises itself it
    loads the system's fonts.conf and then also parses every template in
    /usr/share/fontconfig/conf.avail, only to list their descriptions (for fc-conflist). On
    systems with a newer fontconfig (Debian 12, Ubuntu 24.04) one template uses an element 2.13
    does not know, and it prints an "unknown element" warning on the process's stderr, which
    ipykernel copies into the notebook's outputs. Doing its initialisation ourselves with its own
    calls (parse fonts.conf, build the font list, make that configuration current) loads exactly
    the system's fonts and settings without that scan; Graphviz then finds fontconfig ready.
    Errors in the system's own configuration are still printed. Where no bundled fontconfig is
    found (macOS, Windows, a pygraphviz built against system libraries), nothing is done.
    """
    global _fontconfig_prepared
    if _fontconfig_prepared:
        return
    _fontconfig_prepared = True
    libraries = Path(pygraphviz.__file__).parent.parent / "pygraphviz.libs"
    found = sorted(libraries.glob("libfontconfig*.so*"))
    if not found:
        return
    try:
        fontconfig = ctypes.CDLL(str(found[0]))  # the copy Graphviz already loaded: same file
    except OSError:
        return
    fontconfig.FcConfigCreate.restype = ctypes.c_void_p
    fontconfig.FcConfigParseAndLoad.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
    fontconfig.FcConfigBuildFonts.argtypes = [ctypes.c_void_p]
    fontconfig.FcConfigSetCurrent.argtypes = [ctypes.c_void_p]
    fontconfig.FcConfigDestroy.argtypes = [ctypes.c_void_p]
    config = fontconfig.FcConfigCreate()
    # None: the default fonts.conf (or $FONTCONFIG_FILE), as the library's own start-up reads it.
    loaded = fontconfig.FcConfigParseAndLoad(config, None, 1)
    if loaded and fontconfig.FcConfigBuildFonts(config) and fontconfig.FcConfigSetCurrent(config):
        return
    fontconfig.FcConfigDestroy(config)  # leave initialisation to the library itself

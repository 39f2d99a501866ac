"""What Graphviz will make of a picture, decided and predicted before it runs.

Graphviz's ``dot`` puts every box on a row (a rank) and routes an arrow that spans several rows
through an invisible point on each row between its ends; its slowest pass then places all those
points side by side. One tensor used at every step of an unrolled loop (an RNN's weight, a model's
parameters in a loss kept across training steps) sends arrows across the whole picture: 100 uses
of one weight made 9,702 such points for 202 boxes, and a minute of layout. So, before any DOT is
written, this module

- draws a tensor used far and wide as **reference boxes**: the tensor in full once, and beside
  each far use a dashed box with its name standing for the same tensor (`add_references`);
- chooses the **spine**, the arrows pulled straight so that the computation reads as a column
  with its side branches beside it, stretched where a side branch needs the room (`plan`);
- **estimates the seconds** the layout will take (`LayoutSize`, `estimated_seconds`), so that a
  picture too big to lay out is refused before Graphviz starts, and a slow one runs where
  Jupyter's *Interrupt kernel* can stop it; and keeps dot from the one pass whose time cannot be
  foreseen, the search for the best placement along the rows, in all but small pictures.

Everything here works on box ids and arrows, not on PyTorch: it is plain graph arithmetic.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Collection
from dataclasses import dataclass, replace

from helpers._graph_model import (
    LEAF,
    OP,
    SAVED,
    SUMMARY,
    TENSOR_KINDS,
    Graph,
    GraphEdge,
    GraphNode,
    caption,
    is_one_line_box,
)

# A box whose arrows would together cross more than this many rows, beyond the one each arrow
# needs, is drawn as reference boxes wherever an arrow would cross more than REACH rows. A
# residual connection (one arrow over three or four rows) stays an arrow; a weight used at a
# hundred steps does not.
DETOUR_BUDGET = 12
REACH = 2
# Boxes that never carry the spine: they feed the computation from the side.
OFF_SPINE = (LEAF, SAVED, SUMMARY)
# Graphviz's time to lay out and write a picture, in seconds: the sum of these constants times
# the picture's `LayoutSize`. Fitted by benchmarks/fit_layout_cost.py on this project's 2-core
# machine (Graphviz 14.1, in pygraphviz 2.0.4; load average about 1) over 139 pictures of 0.05
# to 45 s: tanh chains, a weight shared by every step, loss totals, LSTM and GRU cells
# unrolled, MLPs, residual nets, attention blocks, dense layers, fan-in and fan-out, many
# outputs, gradient graphs; each plain, with a label on every arrow, with show_saved=True and
# drawn backward. Every one took between 1/3.6 and 1/1.1 of its estimate: the estimate errs
# long, by a bounded factor. Change the terms or the pictures there and run it again to refit
# (it keeps its measurements in benchmarks/layout_cost_measurements.json).
SECONDS_TO_START = 3e-5
SECONDS_PER_TABLE = 5.7e-4  # HTML tables: each cell's text measured
SECONDS_PER_LABEL = 1.9e-5
SECONDS_PER_POINT = 5.4e-5
SECONDS_PER_SEGMENT = 1.4e-4  # routing and writing the arrows, piece by piece
SECONDS_PER_ROW_SQUARE = 4.7e-8
SECONDS_PER_CROSSING_WORK = 6.8e-7  # ordering rows of many arrows that cannot all avoid crossing
SECONDS_PER_PLACEMENT_SQUARE = 2.2e-8  # only where the placement is searched
# dot searches for the best placement of the points along their rows (a network simplex over
# the points and segments) only in a picture where that search is sure to be quick: it is
# quadratic at best and unpredictable beyond (the slowest measured took 1e-7 s times the square
# of points + segments; an unrolled LSTM of 17,000 points spent 11 s in it, a chain of as many
# none). Up to this size it takes at most about 0.2 s. Beyond, dot keeps its first placement
# (nslimit=0): arrows a little less straight, the layout several times quicker.
SEARCHED_PLACEMENT = 1500
# Above this many boxes, the search for the best rows is cut short too (nslimit1, in iterations
# per box).
LARGE_PICTURE = 1000
ITERATIONS_PER_BOX = 0.05


@dataclass
class Plan:
    """How the picture will be laid out: which arrows are pulled straight or stretched."""

    spine: set[tuple[str, str]]  # (source, target) of the arrows that carry the computation
    stretch: dict[tuple[str, str], int]  # (source, target) -> rows the arrow spans at least
    rows: int  # rows of the picture, counting stretched arrows
    estimated_seconds: float
    # Graphviz's network simplex iterations per box ranking a large picture; None for no limit.
    iterations_per_box: float | None = None
    # False: dot keeps its first placement of the points on each row (see SEARCHED_PLACEMENT).
    search_placement: bool = True
    size: LayoutSize | None = None  # what the estimate was made from


@dataclass(frozen=True)
class LayoutSize:
    """What dot's time grows with, counted as dot counts: its points and how they crowd its rows.

    dot puts every box on a row and routes an arrow that spans several rows through an
    invisible point on each row between its ends: each arrow is a chain of segments, one per
    gap between two rows. It orders each row to cross as few arrows as possible, and places the
    points along their rows with a network simplex over the points and segments.
    """

    tables: int  # boxes drawn as HTML tables, whose every cell Graphviz measures
    labels: int  # arrows with a label
    points: int  # boxes, and the invisible points of arrows passing through rows
    segments: int  # pieces of arrows between adjacent rows
    row_squares: int  # sum over the rows of (points on the row) squared
    # Sum over the gaps of (arrows across) * (points on the two rows beside it), times the
    # share of their pairs that could cross: what counting the crossings, for each order of the
    # rows tried, works through.
    crossing_work: float

    @property
    def placement(self) -> int:
        """The size of the graph dot's placement search works on: a node per point and segment."""
        return self.points + self.segments


def add_references(graph: Graph) -> tuple[Graph, dict[str, int]]:
    """The graph with far-reaching arrows drawn from reference boxes, and the uses per box.

    Returns the new graph (the input is not changed) and, for each box that now has references,
    how many arrows leave it in total (its uses), for the caption.
    """
    by_source: dict[str, list[GraphEdge]] = defaultdict(list)
    for edge in graph.edges:
        by_source[edge.source].append(edge)
    kind = {node.id: node.kind for node in graph.nodes}
    # Tensors and Nodes get references; "… N more nodes" and saved tensors are no such thing.
    shared = {
        source: edges
        for source, edges in by_source.items()
        if len(edges) > 1 and kind[source] not in (SUMMARY, SAVED)
    }
    if not shared:  # a chain, a tree: nothing is used twice, so nothing is repeated
        return graph, {}
    rows = _rows_placed_low(graph.nodes, graph.edges)
    far: set[int] = set()  # id() of the arrows to replace
    uses: dict[str, int] = {}
    for source, edges in shared.items():
        spans = [rows[edge.target] - rows[source] for edge in edges]
        if sum(span - 1 for span in spans) > DETOUR_BUDGET:
            far.update(id(e) for e, span in zip(edges, spans, strict=True) if span > REACH)
            uses[source] = len(edges)
    if not far:
        return graph, {}
    nodes = _marked(graph.nodes, set(uses))
    box = {node.id: node for node in nodes}
    edges = []
    for edge in graph.edges:
        if id(edge) not in far:
            edges.append(edge)
            continue
        reference = _reference_to(box[edge.source], f"r{len(nodes) - len(graph.nodes)}")
        nodes.append(reference)
        edges.append(replace(edge, source=reference.id))
    return replace(graph, nodes=nodes, edges=edges), uses


def _marked(nodes: list[GraphNode], referenced: set[str]) -> list[GraphNode]:
    """The boxes, with a mark on each referenced one whose title alone could mean another box.

    A reference box shows only a title, which must say which box it repeats: an unnamed tensor
    becomes "#1", an op "MmBackward0 #2" (a picture has many MmBackward0), and so does a name
    two boxes share ("output" for two outputs, "weight" from two modules' parameters).
    """
    boxes_titled = Counter(node.title for node in nodes)
    marked, count = [], 0
    for node in nodes:
        ambiguous = node.kind == OP or not node.title or boxes_titled[node.title] > 1
        if node.id in referenced and ambiguous:
            count += 1
            title = f"{node.title} #{count}" if node.title else f"#{count}"
            node = replace(node, title=title)
        marked.append(node)
    return marked


def _reference_to(full: GraphNode, reference_id: str) -> GraphNode:
    """A small box standing for ``full``: the same kind (so the same colour), its title only."""
    return GraphNode(
        reference_id,
        full.kind,
        full.title,
        tooltip=caption("same Node" if full.kind == OP else "same tensor"),
        fn=full.fn,
        same_as=full.id,
    )


def plan(graph: Graph, labelled: Collection[tuple[str, str]] = ()) -> Plan:
    """Choose the spine of ``graph`` and estimate the seconds Graphviz will take to lay it out.

    Where several arrows enter a box, the one from the deepest input (the longest chain of boxes
    above it) carries the spine and is pulled straight; the others come in from the side. A side
    input that nothing else uses brings its own branch of boxes (a step's loss, a layer's
    weights): the spine arrow is stretched to that branch's height, so the branch sits beside
    the spine instead of pushing the next step one column further out.
    """
    kind = {node.id: node.kind for node in graph.nodes}
    inputs, consumers = _inputs_and_consumers(graph.edges)
    uses = Counter(edge.source for edge in graph.edges)  # arrows leaving each box (x * x: two)
    order = _topological(list(kind), inputs, consumers)
    # One pass down the picture: each box's depth (the longest chain of boxes above it) and the
    # height of the branch above it that feeds nothing else (itself included).
    depth: dict[str, int] = {}
    branch: dict[str, int] = {}
    for box in order:
        deepest_above, branch_above = -1, 0
        for source in inputs.get(box, ()):
            deepest_above = max(deepest_above, depth[source])
            if uses[source] == 1:
                branch_above = max(branch_above, branch[source])
        depth[box] = deepest_above + 1
        branch[box] = branch_above + 1
    spine: set[tuple[str, str]] = set()
    stretch: dict[tuple[str, str], int] = {}
    for target, sources in inputs.items():
        if len(sources) == 1:  # the one input carries the spine, unless it feeds from the side
            if kind[sources[0]] not in OFF_SPINE:
                spine.add((sources[0], target))
            continue
        candidates = [s for s in sources if kind[s] not in OFF_SPINE]
        if not candidates:
            continue
        deepest = max(depth[s] for s in candidates)
        carriers = [s for s in candidates if depth[s] == deepest]
        spine.update((s, target) for s in carriers)
        sides = [s for s in sources if depth[s] < deepest and uses[s] == 1]
        height = max((branch[s] for s in sides), default=1)
        if height > 1:
            stretch.update(((s, target), height) for s in carriers)
    height = _heights(order, consumers, stretch)
    size = _size(graph, height, set(labelled))
    search = size.placement <= SEARCHED_PLACEMENT
    iterations = ITERATIONS_PER_BOX if len(kind) > LARGE_PICTURE else None
    rows = 1 + max(height.values(), default=0)
    seconds = estimated_seconds(size, search)
    return Plan(spine, stretch, rows, seconds, iterations, search, size)


# --- the cost model ----------------------------------------------------------------------------


def estimated_seconds(size: LayoutSize, search_placement: bool) -> float:
    """The seconds dot is expected to take to lay out and write a picture of this size."""
    seconds = (
        SECONDS_TO_START
        + SECONDS_PER_TABLE * size.tables
        + SECONDS_PER_LABEL * size.labels
        + SECONDS_PER_POINT * size.points
        + SECONDS_PER_SEGMENT * size.segments
        + SECONDS_PER_ROW_SQUARE * size.row_squares
        + SECONDS_PER_CROSSING_WORK * size.crossing_work
    )
    if search_placement:
        seconds += SECONDS_PER_PLACEMENT_SQUARE * size.placement**2
    return seconds


def _size(graph: Graph, height: dict[str, int], labelled: set[tuple[str, str]]) -> LayoutSize:
    """What dot will lay out, counted as dot counts it (see `LayoutSize`)."""
    rows = 1 + max(height.values(), default=0)
    widths = [0] * rows  # points on each row, counted from the bottom
    for h in height.values():
        widths[h] += 1
    # dot draws the arrows that join the same two boxes (x * x) as one, unless they carry labels.
    edges = graph.edges
    with_label = [(edge.source, edge.target) for edge in edges if edge.autograd_edge in labelled]
    arrows = with_label + list(
        {(edge.source, edge.target) for edge in edges if edge.autograd_edge not in labelled}
    )
    # Where arrows start and stop crossing the gaps between rows (gap h lies above row h), and
    # the pairs of arrows that share a box at the gap's lower or upper row, which cannot cross.
    starts, stops = [0] * rows, [0] * rows
    inputs, outputs = Counter(target for _, target in arrows), Counter(s for s, _ in arrows)
    for source, target in arrows:
        starts[height[target]] += 1
        stops[height[source]] += 1
    sharing_below, sharing_above = [0] * rows, [0] * rows
    for box, h in height.items():
        sharing_below[h] += inputs[box] * (inputs[box] - 1) // 2
        if h > 0:
            sharing_above[h - 1] += outputs[box] * (outputs[box] - 1) // 2
    # One pass up the rows: an arrow passing through a row puts an invisible point on it.
    gaps = []  # (arrows across, pairs of them that could cross) for each gap
    across = 0  # arrows across the gap below the row
    for h in range(rows - 1):
        passing = across - stops[h]
        widths[h] += passing
        across = passing + starts[h]
        pairs = across * (across - 1) // 2
        if with_label:
            # A label anywhere makes dot double every row, so that labels sit between the
            # rows: each gap becomes a row of its own, one invisible point per arrow across.
            gaps += [(across, pairs - sharing_below[h]), (across, pairs - sharing_above[h])]
        else:
            gaps.append((across, pairs - sharing_below[h] - sharing_above[h]))
    widths[-1] += across - stops[-1]
    if with_label:
        widths = [w for h in range(rows - 1) for w in (widths[h], gaps[2 * h][0])] + widths[-1:]
    points, segments = sum(widths), sum(across for across, _ in gaps)
    # Arrows that close a loop (segments beyond a tree's points - 1) are what can force arrows
    # to cross: a tree of boxes, however wide, is ordered without crossings at the first try.
    looped = max(0, segments - points + 1) / max(segments, 1)
    crossing_work = 0.0
    for g, (across, pairs) in enumerate(gaps):
        if pairs > 0:
            could_cross = pairs / (across * (across - 1) / 2)
            crossing_work += looped * could_cross * across * (widths[g] + widths[g + 1])
    return LayoutSize(
        tables=sum(_is_table(node) for node in graph.nodes),
        labels=len(with_label),
        points=points,
        segments=segments,
        row_squares=sum(w * w for w in widths),
        crossing_work=crossing_work,
    )


def _is_table(node: GraphNode) -> bool:
    """Whether `helpers.graph.to_dot` draws the box as an HTML table, whose text Graphviz
    measures cell by cell: every tensor's box but the one-line ones."""
    return node.kind in TENSOR_KINDS and not is_one_line_box(node)


# --- graph arithmetic --------------------------------------------------------------------------


def _inputs_and_consumers(
    edges: list[GraphEdge],
) -> tuple[dict[str, list[str]], dict[str, list[str]]]:
    """Each box's inputs and each box's consumers, once each (x * x joins x to it once), in the
    order of the arrows."""
    inputs: dict[str, list[str]] = defaultdict(list)
    consumers: dict[str, list[str]] = defaultdict(list)
    for source, target in dict.fromkeys((edge.source, edge.target) for edge in edges):
        inputs[target].append(source)
        consumers[source].append(target)
    return inputs, consumers


def _topological(
    ids: list[str], inputs: dict[str, list[str]], consumers: dict[str, list[str]]
) -> list[str]:
    """The box ids with every arrow's source before its target (Kahn's algorithm)."""
    waiting = {box: len(inputs.get(box, ())) for box in ids}
    order = [box for box in ids if waiting[box] == 0]
    for box in order:  # the list grows while it is read
        for target in consumers.get(box, ()):
            waiting[target] -= 1
            if waiting[target] == 0:
                order.append(target)
    return order


def _heights(
    order: list[str], consumers: dict[str, list[str]], stretch: dict[tuple[str, str], int]
) -> dict[str, int]:
    """Each box's row counted from the bottom, every box as low as its arrows let it go.

    That is where dot puts a box with no inputs (a leaf): just above its highest use, so the
    arrows of a leaf used at many steps span from there down to each use.
    """
    height: dict[str, int] = {}
    for box in reversed(order):
        highest = 0
        for target in consumers.get(box, ()):
            highest = max(highest, height[target] + stretch.get((box, target), 1))
        height[box] = highest
    return height


def _rows_placed_low(nodes: list[GraphNode], edges: list[GraphEdge]) -> dict[str, int]:
    """The row each box would get, counted from the top (see `_heights`)."""
    inputs, consumers = _inputs_and_consumers(edges)
    order = _topological([node.id for node in nodes], inputs, consumers)
    height = _heights(order, consumers, {})
    top = max(height.values(), default=0)
    return {box: top - h for box, h in height.items()}

"""What Graphviz will make of a picture, decided and predicted before it runs.

Graphviz's ``dot`` puts every box on a row (a rank) and routes an arrow that spans several rows
through an invisible point on each row between its ends; its slowest pass then places all those
points side by side. So, before any DOT is written, this module

- chooses the **spine**, the arrows pulled straight so that the computation reads as a column
  with its side branches beside it, stretched where a side branch needs the room (`plan`);
- **estimates the seconds** the layout will take (`LayoutSize`, `estimated_seconds`), so that a
  picture too big to lay out is refused before Graphviz starts, and a slow one runs where
  Jupyter's *Interrupt kernel* can stop it; and keeps dot from the one pass whose time cannot be
  foreseen, the search for the best placement along the rows, in all but small pictures.

Everything here works on box ids and arrows, not on PyTorch: it is plain graph arithmetic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass

from helpers.graph.model import (
    LEAF,
    SAVED,
    SUMMARY,
    TENSOR_KINDS,
    Graph,
    GraphNode,
    heights,
    inputs_and_consumers,
    is_one_line_box,
    topological,
)

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


def plan(graph: Graph, labelled: Collection[tuple[str, str]] = ()) -> Plan:
    """Choose the spine of ``graph`` and estimate the seconds Graphviz will take to lay it out.

    Where several arrows enter a box, the one from the deepest input (the longest chain of boxes
    above it) carries the spine and is pulled straight; the others come in from the side. A side
    input that nothing else uses brings its own branch of boxes (a step's loss, a layer's
    weights): the spine arrow is stretched to that branch's height, so the branch sits beside
    the spine instead of pushing the next step one column further out.
    """
    kind = {node.id: node.kind for node in graph.nodes}
    inputs, consumers = inputs_and_consumers(graph.edges)
    uses = Counter(edge.source for edge in graph.edges)  # arrows leaving each box (x * x: two)
    order = topological(list(kind), inputs, consumers)
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
    height = heights(order, consumers, stretch)
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
    """Whether `helpers.graph.dot.to_dot` draws the box as an HTML table, whose text Graphviz
    measures cell by cell: every tensor's box but the one-line ones."""
    return node.kind in TENSOR_KINDS and not is_one_line_box(node)

"""What Graphviz will make of a picture, decided and predicted before it runs.

Graphviz's ``dot`` puts every box on a row (a rank) and routes an arrow that spans several rows
through an invisible point on each row between its ends; its slowest pass then places all those
points side by side. So, before any DOT is written, this module

- chooses the **spine**, the arrows pulled straight so that the computation reads as a column
  with its side branches beside it, stretched where a side branch needs the room (`plan`);
- **estimates the seconds** the layout will take (`LayoutSize`, `estimated_seconds`), so that a
  picture too big to lay out is refused before Graphviz starts, and a slow one runs where
  Jupyter's *Interrupt kernel* can stop it; and keeps dot from the one pass whose time cannot be
  foreseen, the search for the best placement along the rows, in all but small pictures;
- estimates, in one pass over a model's whole picture, the seconds of the picture of its first
  k Nodes for any k (`CutEstimates`): how far the default picture is cut, and what a caption
  offers, are read off it, and only the picture drawn is planned.

Everything here works on box ids and arrows, not on PyTorch: it is plain graph arithmetic.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection
from dataclasses import dataclass, field

from helpers.graph.model import (
    LEAF,
    SAVED,
    SUMMARY,
    TABLE_KINDS,
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
# The estimate of a cut (`CutEstimates`) measures it on the rows of the whole picture, and can be
# short of the cut's own plan: by at most 1.22 times where it takes over half a second, over the
# shapes tests/test_graph_layout.py draws and more (many arrows between few rows, cut where they
# meet); by up to 2.3 times where skip connections over 30 steps are cut in their middle, which
# then take under 2 s.
CUT_ERROR = 1.25
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
    height: dict[str, int] = field(default_factory=dict)  # each box's row, from the bottom


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

    ``labelled`` are the arrows with a label, as (box id, box id) pairs of their autograd edge:
    a label on any arrow makes dot double every row.
    """
    spine, stretch, height = _arrangement(graph)
    size = _size(graph, height, set(labelled))
    search = size.placement <= SEARCHED_PLACEMENT
    iterations = ITERATIONS_PER_BOX if len(graph.nodes) > LARGE_PICTURE else None
    rows = 1 + max(height.values(), default=0)
    seconds = estimated_seconds(size, search)
    return Plan(spine, stretch, rows, seconds, iterations, search, size, height)


def _arrangement(
    graph: Graph,
) -> tuple[set[tuple[str, str]], dict[tuple[str, str], int], dict[str, int]]:
    """The spine of ``graph``, its stretched arrows, and the row of each box, counted from the
    bottom.

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
    return spine, stretch, heights(order, consumers, stretch)


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
    return node.kind in TABLE_KINDS and not is_one_line_box(node)


# --- every cut of a model, estimated in one pass -----------------------------------------------


class CutEstimates:
    """How long dot is estimated to take on the picture of the first k Nodes of a model
    (`helpers.graph.cut.cut`), for any k short of all it walked: ``estimates[k]``.

    Made from the whole picture of the model (``whole``: its reference boxes added) and its
    plan, in one pass over the walk order, as far as it is asked for: each Node's boxes are
    added, on the whole picture's rows, with the arrows that join them to the boxes before, and
    the size is read after each Node (`_GrowingSize`). Near the output, where a cut keeps its
    boxes, its rows are the whole picture's. A cut's summary box counts as one box with a short
    arrow into each box it feeds, and any two arrows across a gap as able to cross. The whole
    picture's own estimate is its plan's.
    """

    def __init__(
        self, whole: Graph, layout: Plan, labelled: Collection[tuple[str, str]] = ()
    ) -> None:
        self._edges = whole.edges
        self._height = layout.height
        self._labelled = labelled
        self._joins, self._arrow_joins, self._fed_from = _joining(whole)
        # Boxes come in walk order (a reference box comes with its arrow); arrows are sorted so.
        self._boxes = [node for node in whole.nodes if not node.same_as]
        self._arrows = sorted(range(len(whole.edges)), key=self._arrow_joins.__getitem__)
        self._size = _GrowingSize(layout.rows)
        self._pairs: set[str] = set()  # dot draws parallel arrows without labels as one
        self._next_box = self._next_arrow = self._fed = 0
        self._seconds = [0.0]
        self._extents = [(0, 0)]

    def __getitem__(self, nodes: int) -> float:
        while len(self._seconds) <= nodes:
            self._add_node(len(self._seconds) - 1)
        return self._seconds[nodes]

    def extent(self, nodes: int) -> tuple[int, int]:
        """The rows the picture of the first ``nodes`` Nodes takes, and the boxes on its widest
        row: its size on screen, in rows and in boxes side by side."""
        self[nodes]
        return self._extents[nodes]

    def _add_node(self, walk_order: int) -> None:
        """Add the boxes and arrows that join the picture with Node ``walk_order``, and estimate
        the picture cut after it."""
        boxes, height, size = self._boxes, self._height, self._size
        while self._next_box < len(boxes) and self._joins[boxes[self._next_box].id] <= walk_order:
            box = boxes[self._next_box]
            size.add_box(height[box.id], _is_table(box))
            self._next_box += 1
        arrows = self._arrows
        while (
            self._next_arrow < len(arrows)
            and self._arrow_joins[arrows[self._next_arrow]] <= walk_order
        ):
            edge = self._edges[arrows[self._next_arrow]]
            self._next_arrow += 1
            with_label = edge.autograd_edge in self._labelled
            pair = f"{edge.source} {edge.target}"
            if not with_label and pair in self._pairs:
                continue
            self._pairs.add(pair)
            if edge.source not in self._joins:  # a reference box, with its one arrow
                size.add_box(height[edge.source], False)
            size.add_arrow(height[edge.target], height[edge.source], with_label)
        self._fed += self._fed_from[walk_order + 1]
        measured = size.measured(summary_arrows=self._fed)
        self._seconds.append(estimated_seconds(measured, measured.placement <= SEARCHED_PLACEMENT))
        self._extents.append((size.rows_used, size.widest))


def _joining(whole: Graph) -> tuple[dict[str, int], list[int], list[int]]:
    """When each box and each arrow of ``whole`` joins the picture, by walk order, and how the
    number of boxes a cut's summary box feeds changes from one cut to the next.

    A box joins with its Node (a tensor autograd recorded nothing for, at once; a reference box
    is left out, to come with its arrow), an arrow with the later of the Nodes it joins. A cut
    after k Nodes feeds each box before it that has an input at k or later.
    """
    joins = {node.id: max(node.walk_order, 0) for node in whole.nodes if not node.same_as}
    repeats = {node.id: joins[node.same_as] for node in whole.nodes if node.same_as}
    arrow_joins, latest_input = [], {}
    for edge in whole.edges:
        source = joins[edge.source] if edge.source in joins else repeats[edge.source]
        at = max(source, joins[edge.target])
        arrow_joins.append(at)
        if edge.kind in ("input", "summary") and source > joins[edge.target]:
            latest_input[edge.target] = max(latest_input.get(edge.target, 0), at)
    fed_from = [0] * (whole.walked_nodes + 2)
    for box, latest in latest_input.items():
        fed_from[joins[box] + 1] += 1
        fed_from[latest + 1] -= 1
    return joins, arrow_joins, fed_from


class _GrowingSize:
    """A picture's `LayoutSize`, counted as its boxes and arrows are added on rows known
    beforehand: what `_size` counts at once, a box and an arrow at a time. Where `_size` counts
    only the pairs of arrows that could cross, this counts every pair."""

    def __init__(self, rows: int) -> None:
        self.on_row = [0] * rows  # points on each row: boxes, and arrows passing through
        self.across = [0] * rows  # arrows across the gap above each row
        self.tables = self.labels = self.points = self.segments = 0
        self.point_squares = 0  # sum over the rows of their points squared
        self.crowded_squares = 0  # sum over the gaps of two arrows or more of arrows squared
        self.crowding = 0  # sum over those gaps of arrows times the points on the rows beside
        self.rows_used = 0  # rows with a point on them
        self.boxes_on_row = [0] * rows
        self.widest = 0  # the most boxes side by side on one row

    def add_box(self, row: int, table: bool) -> None:
        self.tables += table
        self._add_point(row)
        self.boxes_on_row[row] += 1
        self.widest = max(self.widest, self.boxes_on_row[row])

    def add_arrow(self, bottom: int, top: int, with_label: bool) -> None:
        """An arrow from a box on row ``top`` down to one on row ``bottom``."""
        self.labels += with_label
        for gap in range(bottom, top):
            self._cross(gap)
        for row in range(bottom + 1, top):
            self._add_point(row)

    def measured(self, summary_arrows: int) -> LayoutSize:
        """The size now, with a summary box and that many short arrows from it."""
        points = self.points + 1
        segments = self.segments + summary_arrows
        row_squares, crowding = self.point_squares, self.crowding
        if self.labels:
            # A label anywhere makes dot double every row: each gap becomes a row of its own,
            # one point for each arrow across it, and two gaps.
            points += segments
            segments *= 2
            row_squares += self.crowded_squares
            crowding += 2 * self.crowded_squares
        looped = max(0, segments - points + 1) / max(segments, 1)  # see `_size`
        return LayoutSize(
            self.tables, self.labels, points, segments, row_squares, looped * crowding
        )

    def _add_point(self, row: int) -> None:
        self.points += 1
        self.point_squares += 2 * self.on_row[row] + 1
        self.rows_used += self.on_row[row] == 0
        self.on_row[row] += 1
        below, above = self._crowded(row - 1), self._crowded(row)
        self.crowding += below + above

    def _cross(self, gap: int) -> None:
        self.segments += 1
        self.across[gap] += 1
        arrows = self.across[gap]
        beside = self.on_row[gap] + self.on_row[gap + 1]
        if arrows == 2:  # the gap's arrows start to count, both of them
            self.crowded_squares += 4
            self.crowding += 2 * beside
        elif arrows > 2:
            self.crowded_squares += 2 * arrows - 1
            self.crowding += beside

    def _crowded(self, gap: int) -> int:
        """Arrows across ``gap`` if they could cross (two or more), else 0."""
        if gap < 0 or gap >= len(self.across) or self.across[gap] < 2:
            return 0
        return self.across[gap]

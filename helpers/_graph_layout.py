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
- **estimates the seconds** the layout will take, so that a picture too big to lay out is refused
  before Graphviz starts, and a slow one runs where Jupyter's *Interrupt kernel* can stop it.

Everything here works on box ids and arrows, not on PyTorch: it is plain graph arithmetic.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, replace

from helpers._graph_model import LEAF, OP, SAVED, SUMMARY, Graph, GraphEdge, GraphNode

# A box whose arrows would together cross more than this many rows, beyond the one each arrow
# needs, is drawn as reference boxes wherever an arrow would cross more than REACH rows. A
# residual connection (one arrow over three or four rows) stays an arrow; a weight used at a
# hundred steps does not.
DETOUR_BUDGET = 12
REACH = 2
# Boxes that never carry the spine: they feed the computation from the side.
OFF_SPINE = (LEAF, SAVED, SUMMARY)
# Graphviz's time, measured on the development machine (2 cores, CPU time) over chains, unrolled
# RNNs and LSTMs, MLPs, residual nets and loss totals of 300 to 16,000 boxes: linear in the boxes
# for chains, up to quadratic for LSTMs. The estimate takes the slowest kind measured (an LSTM
# cell unrolled: 14 s for 11,402 boxes), so it errs on the long side for everything else. Arrows
# still crossing several rows count as the invisible boxes Graphviz routes them through. Many
# arrows between few boxes cost on their own, ordering them to cross as little as possible:
# every value of a layer computed from all of the layer before (60 wide, 5 deep) is 963 boxes
# but 18,662 arrows, and took 10 s.
SECONDS_TO_START = 0.01
SECONDS_PER_BOX = 1e-4
SECONDS_PER_BOX_SQUARED = 1.1e-7
SECONDS_PER_ARROW_SQUARED = 3e-8
# Above this many boxes, Graphviz's network simplex passes are cut short (its nslimit and
# nslimit1 attributes, in iterations per box): the picture's arrows may be a little less tidy,
# and its layout takes a fraction of the time (an LSTM of 3,800 boxes: 0.9 s instead of 6 s).
LARGE_PICTURE = 1000
ITERATIONS_PER_BOX = 0.05


@dataclass
class Plan:
    """How the picture will be laid out: which arrows are pulled straight or stretched."""

    spine: set[tuple[str, str]]  # (source, target) of the arrows that carry the computation
    stretch: dict[tuple[str, str], int]  # (source, target) -> rows the arrow spans at least
    rows: int  # rows of the picture, counting stretched arrows
    estimated_seconds: float
    # Graphviz's network simplex iterations per box, for a large picture; None for no limit.
    iterations_per_box: float | None = None


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
        tooltip=f"the same {'Node' if full.kind == OP else 'tensor'} as the box drawn in full",
        fn=full.fn,
        same_as=full.id,
    )


def plan(graph: Graph) -> Plan:
    """Choose the spine of ``graph`` and estimate the seconds Graphviz will take to lay it out.

    Where several arrows enter a box, the one from the deepest input (the longest chain of boxes
    above it) carries the spine and is pulled straight; the others come in from the side. A side
    input that nothing else uses brings its own branch of boxes (a step's loss, a layer's
    weights): the spine arrow is stretched to that branch's height, so the branch sits beside
    the spine instead of pushing the next step one column further out.
    """
    kind = {node.id: node.kind for node in graph.nodes}
    inputs: dict[str, list[str]] = defaultdict(list)  # each box's inputs, once each
    consumers: dict[str, list[str]] = defaultdict(list)
    uses: dict[str, int] = defaultdict(int)  # arrows leaving each box (x * x: two)
    for edge in graph.edges:
        uses[edge.source] += 1
        if edge.source not in inputs[edge.target]:
            inputs[edge.target].append(edge.source)
            consumers[edge.source].append(edge.target)
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
    # Every arrow crossing rows passes an invisible point per row crossed, which Graphviz places
    # like a box.
    detours = sum(
        height[source] - height[target] - 1
        for target, sources in inputs.items()
        for source in sources
    )
    boxes = len(kind) + detours
    arrows = len(graph.edges)
    seconds = (
        SECONDS_TO_START
        + SECONDS_PER_BOX * boxes
        + SECONDS_PER_BOX_SQUARED * boxes**2
        + SECONDS_PER_ARROW_SQUARED * arrows**2
    )
    iterations = ITERATIONS_PER_BOX if len(kind) > LARGE_PICTURE else None
    return Plan(spine, stretch, 1 + max(height.values(), default=0), seconds, iterations)


# --- graph arithmetic --------------------------------------------------------------------------


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
    inputs: dict[str, list[str]] = defaultdict(list)
    consumers: dict[str, list[str]] = defaultdict(list)
    for edge in edges:
        if edge.source not in inputs[edge.target]:
            inputs[edge.target].append(edge.source)
            consumers[edge.source].append(edge.target)
    order = _topological([node.id for node in nodes], inputs, consumers)
    height = _heights(order, consumers, {})
    top = max(height.values(), default=0)
    return {box: top - h for box, h in height.items()}

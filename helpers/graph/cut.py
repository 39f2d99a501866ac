"""The part of a model a picture shows, and the reference boxes that keep it quick to lay out.

A model (`helpers.graph.model.build_graph`) holds every Node the walk went through; a picture
shows the ``max_nodes`` nearest the output and folds the rest into one summary box (`cut`), a
function from the model to a smaller model: nothing is walked again.

Graphviz's ``dot`` routes an arrow that spans several rows through an invisible point on each row
between its ends. One tensor used at every step of an unrolled loop (an RNN's weight, a model's
parameters in a loss kept across training steps) sends arrows across the whole picture: 100 uses
of one weight made 9,702 such points for 202 boxes, and a minute of layout. So a tensor used far
and wide is drawn as **reference boxes**: the tensor in full once, and beside each far use a
dashed box with its name standing for the same tensor (`add_references`). The caption says what
the dashed boxes are, and what a picture leaves out (`reference_notes`, `cut_note`).

Everything here works on box ids and arrows, not on PyTorch.
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from dataclasses import replace

from helpers.graph.captions import caption
from helpers.graph.model import (
    LEAF,
    MODULE,
    NODES_SAFE_TO_SEE,
    OP,
    SAVED,
    SUMMARY,
    TENSOR_KINDS,
    Graph,
    GraphEdge,
    GraphNode,
    heights,
    inputs_and_consumers,
    summary_box,
    topological,
)

# A box whose arrows would together cross more than this many rows, beyond the one each arrow
# needs, is drawn as reference boxes wherever an arrow would cross more than REACH rows. A
# residual connection (one arrow over three or four rows) stays an arrow; a weight used at a
# hundred steps does not.
DETOUR_BUDGET = 12
REACH = 2
# A tensor used twice (the residual stream: into a block, and round it to the add after it) keeps
# its arrows up to this many rows crossed: the arrow is what shows the connection, and one arrow
# costs the layout little. Only one crossing the whole of a big picture becomes references.
TWO_USES_BUDGET = 60


def cut(model: Graph, kept: int) -> Graph:
    """The picture of the ``kept`` Nodes of ``model`` that the walk met first, those nearest the
    output: their boxes and the arrows between them, and one summary box for the Nodes left out
    ("… 380 more nodes"), with an arrow into each box that one of them feeds.

    ``model`` is not changed: its boxes carry their ``walk_order``. A model of no more than
    ``kept`` Nodes is the picture as it is.
    """
    if kept >= model.walked_nodes:
        return model
    nodes = [node for node in model.nodes if node.walk_order < kept]
    hidden = [
        node.fn
        for node in model.nodes
        if node.walk_order >= kept and node.fn is not None and not node.same_as
    ]
    # The Nodes of no box drawn: those cut off, and those the walk never reached. (Not
    # total - kept: in a folded picture a box kept can hold Nodes met after the cut.)
    left_out = model.total_nodes - model.walked_nodes + len(hidden)
    # Its id follows the boxes kept, unless one of them has it (Nodes counted layer by layer,
    # `in_layers`, keep boxes that are not the first ones made).
    summary_id = f"n{len(nodes)}"
    if any(node.id == summary_id for node in nodes):
        summary_id = "summary"
    summary = summary_box(summary_id, left_out, not model.walked_all, kept)
    return replace(
        model,
        nodes=[*nodes, summary],
        edges=_edges_shown(model.edges, {node.id for node in nodes}, summary.id),
        notes=list(model.notes),
        hidden=hidden,
        roots_hidden=sum(at >= kept for at in model.roots_at),
    )


# A parameter named as a numbered layer of a stack: model.layers.5.linear1.weight, h.3.attn.bias.
LAYER_NAME = re.compile(r"^(?P<stack>(?:.*\.)?[^.\d][^.]*)\.(?P<index>\d+)\.")


def in_layers(model: Graph) -> tuple[Graph, list[int]]:
    """``model`` with its Nodes met layer by layer from the output, where its parameters' names
    show numbered layers (``model.layers.5.linear1.weight``), and where each layer ends.

    A walk from the output meets the Nodes nearest it first, and in a stack of residual layers
    those belong to many layers at once (the norms of five layers before the first attention of
    the last): cut after 200 of them, a picture shows scraps of several layers. Here each Node
    belongs to the highest layer whose parameters it is computed from (a loss, to the last
    layer), or, computed from none, to the layer that uses it (the head's weight, to the last;
    an embedding, to the first), and the Nodes are numbered from the last layer down, each
    layer in the walk's order. The second value lists the number of
    Nodes from the output to the end of each layer, for a cut that keeps layers whole; empty
    where no stack of two layers or more is named, and the model is then as it was.
    """
    layer_of = _layers_of_parameters(model)
    if len(set(layer_of.values())) < 2:
        return model, []
    inputs, consumers = inputs_and_consumers(model.edges)
    order = topological([node.id for node in model.nodes], inputs, consumers)
    top: dict[str, int] = {}
    for box in order:
        found = [top[source] for source in inputs.get(box, ()) if source in top]
        if box in layer_of:
            found.append(layer_of[box])
        if found:
            top[box] = max(found)
    # A box computed from no layer (the head's weight, an embedding) goes with what uses it.
    for box in reversed(order):
        if box not in top:
            used_by = [top[target] for target in consumers.get(box, ()) if target in top]
            if used_by:
                top[box] = max(used_by)
    # Each Node's rank: its layer from the top (those above the stack count as the top layer),
    # then where the walk met it. Its boxes share its walk order, and so its layer.
    layer_of_node: dict[int, int] = {}
    for node in model.nodes:
        if node.walk_order >= 0 and node.fn is not None and not node.same_as:
            layer_of_node[node.walk_order] = top.get(node.id, -1)
    ranked = sorted(layer_of_node, key=lambda order: (-layer_of_node[order], order))
    renumbered = {old: new for new, old in enumerate(ranked)}
    # A layer ends where the next Node ranked belongs to a lower one (or none is left).
    layers = [layer_of_node[order] for order in ranked] + [-1]
    ends = [at for at in range(1, len(ranked) + 1) if layers[at - 1] > max(layers[at], -1)]
    nodes = [
        replace(node, walk_order=renumbered.get(node.walk_order, node.walk_order))
        for node in model.nodes
    ]
    nodes.sort(key=lambda node: node.walk_order if node.walk_order >= 0 else -1)
    roots_at = [renumbered.get(at, at) for at in model.roots_at]
    return replace(model, nodes=nodes, roots_at=roots_at), ends


def _layers_of_parameters(model: Graph) -> dict[str, int]:
    """The leaf boxes named as layers of the stack named most often, and each one's layer."""
    named: dict[str, tuple[str, int]] = {}
    for node in model.nodes:
        found = LAYER_NAME.match(node.title) if node.kind == LEAF and not node.same_as else None
        if found:
            named[node.id] = (found["stack"], int(found["index"]))
    if not named:
        return {}
    stack, _ = Counter(stack for stack, _ in named.values()).most_common(1)[0]
    return {box: index for box, (name, index) in named.items() if name == stack}


def _edges_shown(edges: list[GraphEdge], shown: set[str], summary: str) -> list[GraphEdge]:
    """The arrows between the boxes ``shown``, in the model's order, and one arrow from the
    ``summary`` box into each box shown that loses an input (or had one beyond the walk).

    A model lists the arrows into each op together, Node after Node (`build_graph` adds them so):
    the summary's arrow goes right after them, where the model has its own for inputs beyond.
    """
    kept: list[GraphEdge] = []
    reading, loses_one = "", False  # the op whose inputs are being read
    for edge in edges:
        if edge.kind in ("input", "summary") and edge.target != reading:
            if loses_one:
                kept.append(GraphEdge(summary, reading, "summary"))
            reading, loses_one = edge.target, False
        if edge.target not in shown:
            continue
        if edge.source in shown:
            kept.append(edge)
        else:  # from a Node left out, or from the model's own box for the Nodes beyond the walk
            loses_one = True
    if loses_one:
        kept.append(GraphEdge(summary, reading, "summary"))
    return kept


def add_references(graph: Graph) -> tuple[Graph, dict[str, int]]:
    """The graph with far-reaching arrows drawn from reference boxes, and the uses per box.

    Returns the new graph (the input is not changed) and, for each box that now has references,
    how many arrows leave it in total (its uses), for the caption.
    """
    by_source: dict[str, list[GraphEdge]] = defaultdict(list)
    for edge in graph.edges:
        by_source[edge.source].append(edge)
    kind = {node.id: node.kind for node in graph.nodes}
    # Tensors and Nodes get references; "… N more nodes" and saved tensors are no such thing,
    # and a folded module's box keeps its arrows: a folded picture is small, and an arrow says
    # where a module's output goes better than a copy of its box.
    shared = {
        source: edges
        for source, edges in by_source.items()
        if len(edges) > 1 and kind[source] not in (SUMMARY, SAVED, MODULE)
    }
    if not shared:  # a chain, a tree: nothing is used twice, so nothing is repeated
        return graph, {}
    rows = _rows_placed_low(graph.nodes, graph.edges)
    far: set[int] = set()  # id() of the arrows to replace
    uses: dict[str, int] = {}
    for source, edges in shared.items():
        spans = [rows[edge.target] - rows[source] for edge in edges]
        budget = TWO_USES_BUDGET if len(edges) == 2 else DETOUR_BUDGET
        if sum(span - 1 for span in spans) > budget:
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
    """A small box standing for ``full``: the same kind (so the same colour), its title only;
    an unnamed tensor's says what it holds too ("#1 · (768,) float32"), as "#1" alone does not."""
    unnamed = full.kind in TENSOR_KINDS and full.title.startswith("#") and full.value
    return GraphNode(
        reference_id,
        full.kind,
        f"{full.title} · {full.value}" if unnamed else full.title,
        tooltip=caption("same Node" if full.kind == OP else "same tensor"),
        fn=full.fn,
        same_as=full.id,
        walk_order=full.walk_order,
    )


def _rows_placed_low(nodes: list[GraphNode], edges: list[GraphEdge]) -> dict[str, int]:
    """The row each box would get, counted from the top (see `helpers.graph.model.heights`)."""
    inputs, consumers = inputs_and_consumers(edges)
    order = topological([node.id for node in nodes], inputs, consumers)
    height = heights(order, consumers, {})
    top = max(height.values(), default=0)
    return {box: top - h for box, h in height.items()}


# How many captioned boxes the caption names; the rest it counts.
LISTED_REFERENCES = 4


def reference_notes(model: Graph, uses: dict[str, int]) -> list[str]:
    """The caption's notes on the reference boxes of ``model``: which boxes they repeat, and how
    many uses each stands for (`add_references` counts them)."""
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


def cut_note(model: Graph, more: int | None, layers: int | None = None) -> str:
    """The caption's note on a picture that leaves Nodes out: how many it shows (``layers``:
    the last layers of a stack, whole), how many it folds into the summary box, and what
    ``max_nodes`` to pass to see more (``more``: None for all of them)."""
    kept = model.drawn_nodes
    hidden = model.total_nodes - kept
    if layers is not None:
        note = caption("cut, layers", layers=layers, kept=kept, hidden=hidden)
    elif model.walked_all:
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

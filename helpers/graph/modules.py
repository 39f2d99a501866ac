"""The boxes of a picture grouped by the module of your model that made them, and folded.

After ``with recording(model):`` (`helpers.graph.recording`) every autograd Node made in the
block knows its module. This module reads that off the boxes of a `Graph` and

- **frames** each module that is drawn whole: a labelled frame round its boxes, frames inside
  frames as the modules nest (``transformer`` > ``h.3`` > ``attn``);
- **folds** a module into one box: its name and type, the numbers in its parameters, and after
  ``backward()`` the norm of its parameters' gradients; arrows into it and out of it are the
  module's inputs and outputs;
- folds a **run of repeated siblings** (``h.1`` to ``h.10``, each built like ``h.0``) into one
  box, keeping the first and the last of the run as they are;
- chooses the **folding of a big picture** by default: modules are unfolded a level at a time,
  from the model down, while the picture keeps to about `MOST_BOXES` boxes; ``expand=`` names
  modules drawn whole inside the rest.

Like `helpers.graph.layout` it works on the model only (boxes, arrows, their ids); what a box
says comes from `CAPTIONS`, and `helpers.graph` draws frames and module boxes.
"""

from __future__ import annotations

import math
import os
from collections import Counter, defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass, field, replace

import torch

from helpers.graph.model import (
    MODULE,
    OP,
    SUMMARY,
    TENSOR_KINDS,
    Graph,
    GraphEdge,
    GraphNode,
    format_number,
    norm,
)
from helpers.graph.recording import MADE_BY, MadeBy
from helpers.language import Catalogue

# The default picture of a recorded graph keeps to about this many boxes: a screen or two.
MOST_BOXES = 60
# Siblings built alike fold into one box from this many on: the first and the last stay as they
# are, and at least two between them become one box (h.1 to h.10 of twelve blocks).
SHORTEST_RUN = 4
# Containers hold modules and run nothing of their own: folding one says nothing, so they are
# unfolded with the level above them.
CONTAINERS = ("ModuleList", "ModuleDict", "Sequential", "ParameterList", "ParameterDict")


@dataclass(frozen=True)
class Frame:
    """A module drawn whole: a labelled frame round its ``boxes`` (their ids), inside the frame
    of ``parent`` (a module path, or None at the top)."""

    path: str
    label: str
    boxes: tuple[str, ...]
    parent: str | None


@dataclass
class Modules:
    """The modules behind a graph's boxes: each box's module path (None: no module made it) and
    each module's type name, as the recording wrote them."""

    of_box: dict[str, str | None]
    types: dict[str, str] = field(default_factory=dict)
    # Which call of each module along its path made each box (MadeBy.calls); none is 0 for all.
    calls_of_box: dict[str, tuple[int, ...]] = field(default_factory=dict)

    def call_of(self, box: str, path: str) -> int:
        """Which call of module ``path`` (one around ``box``) made ``box``; 0 when not known (a
        parameter, a graph not recorded)."""
        depth = len(path.split(".")) if path else 0
        calls = self.calls_of_box.get(box, ())
        return calls[depth] if depth < len(calls) else 0

    @property
    def recorded(self) -> bool:
        return any(path is not None for path in self.of_box.values())

    def inside(self, box: str, path: str) -> bool:
        """Is ``box`` made by module ``path`` or by a module inside it?"""
        own = self.of_box.get(box)
        return own is not None and (path == "" or own == path or own.startswith(path + "."))

    def children(self, path: str) -> list[str]:
        """The modules directly inside ``path`` that made a box, in the order of the model."""
        found = {}
        for own in self.of_box.values():
            if own is None or own == path or not (path == "" or own.startswith(path + ".")):
                continue
            rest = own[len(path) + 1 :] if path else own
            found.setdefault(_joined(path, rest.split(".")[0]), None)
        return sorted(found, key=_natural)

    def label(self, path: str) -> str:
        name = path or say("the model")
        kind = self.types.get(path)
        return f"{name} · {kind}" if kind else name


def modules_of(graph: Graph) -> Modules:
    """Read which module made each box of ``graph`` (op and leaf boxes from their Node; a
    tensor's box and a saved tensor's from the op that computed or saved it)."""
    of_box: dict[str, str | None] = {}
    types: dict[str, str] = {}
    calls: dict[str, tuple[int, ...]] = {}
    # A parameter's label counts where an op of this graph was recorded by the same block: its
    # AccumulateGrad is reused, label and all, by every later pass (see MadeBy.recording).
    labels = [_made_by(node.fn) for node in graph.nodes]
    passes = {made.recording for made in labels if made is not None and made.parameter is None}
    for node, made in zip(graph.nodes, labels, strict=True):
        if made is not None and made.parameter is not None and made.recording not in passes:
            made = None
        if made is not None:
            of_box[node.id] = made.module
            calls[node.id] = made.calls
            for path, kind in made.along_path():
                types.setdefault(path, kind)
    for node in graph.nodes:
        if node.same_as is not None:
            of_box[node.id] = of_box.get(node.same_as)
            calls[node.id] = calls.get(node.same_as, ())
    for edge in graph.edges:  # a tensor's box comes after its op; a saved box feeds its op
        if edge.kind == "output":
            op, beside = edge.source, edge.target
        elif edge.kind == "saved":
            op, beside = edge.target, edge.source
        else:
            continue
        of_box.setdefault(beside, of_box.get(op))
        calls.setdefault(beside, calls.get(op, ()))
    for node in graph.nodes:
        of_box.setdefault(node.id, None)
    return Modules(of_box, types, calls)


def _made_by(fn: object) -> MadeBy | None:
    metadata = getattr(fn, "metadata", None)
    return metadata.get(MADE_BY) if isinstance(metadata, dict) else None


# --- choosing what to fold ---------------------------------------------------------------------


def default_folding(graph: Graph, modules: Modules, expand: Collection[str] = ()) -> set[str]:
    """The modules to fold so that the picture keeps to about `MOST_BOXES` boxes (and the boxes
    no module made).

    Level by level from the model down: every folded module is unfolded into its children while
    the whole picture, repeated siblings folded, still keeps to `MOST_BOXES`. A graph that fits
    unfolded is drawn whole. The modules in ``expand`` are drawn whole, and so is everything
    inside them; the modules around them are unfolded down to them.
    """
    if not modules.recorded:
        return set()
    expand = set(expand)
    # Boxes that no module made (a loss summing a term over every parameter, outside the
    # model's forward) are there however the model folds: they do not count against its boxes.
    most = MOST_BOXES + sum(1 for node in graph.nodes if modules.of_box.get(node.id) is None)
    if count_boxes(graph, modules, set(), expand) <= most:
        return set()
    folded = _settled(modules, {""}, expand)
    while True:
        deeper = _settled(modules, _one_level_down(modules, folded), expand)
        if deeper == folded or count_boxes(graph, modules, deeper, expand) > most:
            return folded
        folded = deeper


def _one_level_down(modules: Modules, folded: set[str]) -> set[str]:
    deeper = set()
    for path in folded:
        deeper.update(modules.children(path) or [path])
    return deeper


def _settled(modules: Modules, folded: set[str], expand: set[str]) -> set[str]:
    """``folded`` with containers (a ModuleList of blocks: folded, they say nothing) and the
    modules around an expanded one replaced by their children, and nothing inside an expanded
    module folded."""
    around = _with_ancestors(expand)
    result = set(folded)
    while True:
        opened = {
            path
            for path in result
            if path in around or (modules.types.get(path) in CONTAINERS and modules.children(path))
        }
        if not opened:
            return {path for path in result if not _inside_any(path, expand)}
        result -= opened
        for path in opened:
            result.update(modules.children(path))


def _with_ancestors(paths: Iterable[str]) -> set[str]:
    found = set()
    for path in paths:
        found.update(_ancestors_of(path))
    return found


def _inside_any(path: str, paths: Iterable[str]) -> bool:
    return any(path == p or p == "" or path.startswith(p + ".") for p in paths)


def count_boxes(
    graph: Graph, modules: Modules, folded: set[str], kept_whole: Collection[str] = ()
) -> int:
    """How many boxes the picture has with ``folded`` folded and repeated siblings merged."""
    inside = _folded_box_of(graph, modules, folded)
    runs = _runs(graph, modules, folded, kept_whole)
    merged = sum(len(run) - 3 for run in runs)  # a run of n keeps its ends and one box between
    loose = sum(1 for node in graph.nodes if node.id not in inside)
    return loose + len(set(_call_keys(graph, modules, inside).values())) - merged


def _folded_box_of(graph: Graph, modules: Modules, folded: set[str]) -> dict[str, str]:
    """Each box inside a folded module, mapped to that module's path."""
    found = {}
    for node in graph.nodes:
        own = modules.of_box.get(node.id)
        if own is None or node.kind == SUMMARY:
            continue
        for path in _ancestors_of(own):
            if path in folded:
                found[node.id] = path
                break
    return found


def _call_keys(
    graph: Graph, modules: Modules, inside: dict[str, str]
) -> dict[str, tuple[str, int]]:
    """Each box inside a folded module, mapped to (module path, call): the folded box it joins.

    A module's calls share one box (0) when they can: a layer applied to each sample of a batch
    in a loop is one box. Where one box would be its own input, through the boxes between (the
    same Dropout before and after a GRU, a cell run at every time step), that module is one box
    per call, numbered from 1. A box no call is known for (a parameter's) joins the module's
    first call."""
    own = {box: (path, modules.call_of(box, path)) for box, path in inside.items()}
    first: dict[str, int] = {}
    for path, call in own.values():
        if call:
            first[path] = min(first.get(path, call), call)
    per_call = {box: (path, call or first.get(path, 0)) for box, (path, call) in own.items()}
    split: set[str] = set()  # the modules drawn one box per call
    while True:
        keys = {box: (p, c if p in split else 0) for box, (p, c) in per_call.items()}
        in_cycles = _paths_in_cycles(graph, keys) - split
        if not in_cycles:
            return keys
        split |= in_cycles


def _paths_in_cycles(graph: Graph, keys: dict[str, tuple[str, int]]) -> set[str]:
    """The modules whose folded box, with boxes joined as ``keys`` says, lies on a cycle of
    arrows: the boxes left when boxes with no arrow in are taken away one by one, and then those
    with no arrow out (Kahn's method, both ways), are the cycles."""
    box = {node.id: keys.get(node.id, node.id) for node in graph.nodes}
    arrows = {(box[e.source], box[e.target]) for e in graph.edges if box[e.source] != box[e.target]}
    left = set(box.values())
    for forward in (True, False):
        ends = [(a, b) if forward else (b, a) for a, b in arrows]
        count = Counter(b for a, b in ends if a in left and b in left)
        ready = [item for item in left if not count[item]]
        after = defaultdict(list)
        for a, b in ends:
            after[a].append(b)
        while ready:
            item = ready.pop()
            left.discard(item)
            for b in after[item]:
                if b in left:
                    count[b] -= 1
                    if not count[b]:
                        ready.append(b)
    return {item[0] for item in left if isinstance(item, tuple)}


def _ancestors_of(path: str) -> list[str]:
    """``path`` and the modules around it, outermost first: "", "a", "a.b"."""
    parts = path.split(".") if path else []
    return [".".join(parts[:depth]) for depth in range(len(parts) + 1)]


# --- repeated siblings -------------------------------------------------------------------------


def _runs(
    graph: Graph, modules: Modules, folded: set[str], kept_whole: Collection[str] = ()
) -> list[list[str]]:
    """Runs of `SHORTEST_RUN` or more folded siblings numbered one after the other (h.1, h.2,
    ...) and built alike; a module kept whole breaks a run."""
    by_parent: dict[str, list[str]] = defaultdict(list)
    for path in folded:
        parent, _, last = path.rpartition(".")
        if last.isdigit() and path not in kept_whole:
            by_parent[parent].append(path)
    signature = _signatures(graph, modules, folded)
    runs = []
    for siblings in by_parent.values():
        siblings.sort(key=_natural)
        run: list[str] = []
        for path in siblings:
            follows = run and _index(path) == _index(run[-1]) + 1
            if follows and signature[path] == signature[run[0]]:
                run.append(path)
                continue
            if len(run) >= SHORTEST_RUN:
                runs.append(run)
            run = [path]
        if len(run) >= SHORTEST_RUN:
            runs.append(run)
    return runs


def _signatures(graph: Graph, modules: Modules, folded: set[str]) -> dict[str, tuple]:
    """What a folded module is built of, to tell modules built alike: the ops it ran and the
    shapes of its parameters, counted."""
    parts: dict[str, Counter] = defaultdict(Counter)
    inside = _folded_box_of(graph, modules, folded)
    for node in graph.nodes:
        path = inside.get(node.id)
        if path is None or node.same_as is not None:
            continue
        inner = modules.of_box[node.id][len(path) :]  # where inside it, to tell q from v
        parts[path][(node.kind, node.title if node.kind == OP else node.value, inner)] += 1
    return {path: tuple(sorted(parts[path].items())) for path in folded}


def _index(path: str) -> int:
    return int(path.rpartition(".")[2])


def _natural(path: str) -> list:
    """h.2 before h.10: numbers compared as numbers."""
    return [(0, int(p), "") if p.isdigit() else (1, 0, p) for p in path.split(".")]


def _joined(parent: str, child: str) -> str:
    return f"{parent}.{child}" if parent else child


# --- the folded picture ------------------------------------------------------------------------


def fold(graph: Graph, modules: Modules, folded: set[str], expand: Collection[str] = ()) -> Graph:
    """``graph`` with each module in ``folded`` drawn as one box, and runs of repeated siblings
    as one box between the first and the last; frames round the modules drawn whole.

    A folded box's arrows are the module's inputs and outputs: every arrow from outside to a box
    inside comes to the folded box (once per box it comes from), every arrow from inside to
    outside leaves it, and arrows inside it are gone.
    """
    inside = _folded_box_of(graph, modules, folded)
    runs = _runs(graph, modules, folded, expand)
    middle_of = {path: run for run in runs for path in run[1:-1]}
    keys = _call_keys(graph, modules, inside)
    calls = Counter(path for path, _ in set(keys.values()))
    boxes: list[GraphNode] = []
    box_of_module: dict[str | tuple[str, int], str] = {}  # a run's second path, or (path, call)
    paths_of_box: dict[str, tuple[str, ...]] = {}
    members: dict[tuple[str, int], list[GraphNode]] = defaultdict(list)
    for node in graph.nodes:
        if node.id in inside:
            members[keys[node.id]].append(node)
    for node in graph.nodes:
        path = inside.get(node.id)
        if path is None:
            boxes.append(_with_its_line(node))
            continue
        group = middle_of.get(path)
        key = group[1] if group else keys[node.id]
        if key in box_of_module:
            continue
        box_id = f"m{len(box_of_module)}"
        box_of_module[key] = box_id
        if group:
            middle = group[1:-1]
            first, last = middle[0], middle[-1]
            nodes = [n for own, found in members.items() if own[0] in middle for n in found]
            title = f"{_tail(first)}–{_tail(last)}"
            notes = [say("blocks like", count=len(middle), like=_tail(group[0]))]
            tooltip = say("folded run", first=first, last=last)
            paths_of_box[box_id] = tuple(middle)
        else:
            nodes = members[key]
            title, notes = modules.label(path), []
            if calls[path] > 1:
                notes = [say("call of", call=key[1], calls=calls[path])]
            tooltip = say("folded module", name=path or say("the model"), path=path)
            paths_of_box[box_id] = (path,)
        boxes.append(_folded_box(box_id, title, nodes, notes, tooltip))
    rep = {}
    for box, path in inside.items():
        group = middle_of.get(path)
        rep[box] = box_of_module[group[1] if group else keys[box]]
    # A module called several times shares its parameters between its calls: they are drawn
    # in its first call's box, with no arrow to the later calls, which would read as data
    # passed from the first call to each later one.
    shared = {
        box for box, path in inside.items() if calls[path] > 1 and not modules.call_of(box, path)
    }

    def to_a_later_call(edge: GraphEdge) -> bool:
        return (
            edge.source in shared
            and inside.get(edge.target) == inside[edge.source]
            and rep[edge.target] != rep[edge.source]
        )

    edges = _folded_edges([edge for edge in graph.edges if not to_a_later_call(edge)], rep)
    # Each box in the frame of the module it belongs to: a folded module's box in its parent's.
    frame_of = {node.id: modules.of_box.get(node.id) for node in boxes}
    for key, box_id in box_of_module.items():
        path = key if isinstance(key, str) else key[0]
        frame_of[box_id] = path.rpartition(".")[0] if path else None
    frames = _frames(boxes, frame_of, modules)
    return replace(
        graph,
        nodes=boxes,
        edges=edges,
        frames=frames,
        module_boxes=paths_of_box,
        folded_into=rep,
    )


def _with_its_line(node: GraphNode) -> GraphNode:
    """An op's box whose tooltip says which module and which line of your code made it."""
    made = _made_by(node.fn) if node.kind == OP else None
    if made is None or made.code is None:
        return node
    where = f"{os.path.basename(made.file)}:{made.line}"
    if made.module is None:  # a line of your code outside the model: a loss, say
        tooltip = say("made outside", op=node.title, where=where, code=made.code)
    else:
        module = made.module or say("the model")
        tooltip = say("made by", op=node.title, module=module, where=where, code=made.code)
    return replace(node, tooltip=tooltip)


def folding_note(graph: Graph, folded: set[str], interactive: bool = False) -> str | None:
    """The caption's sentence on a folded picture: how many modules are folded, and how to
    draw one of them whole (or all of it); in the interactive view, how to unfold one there."""
    boxes = [node for node in graph.nodes if node.kind == MODULE]
    if not boxes:
        return None
    example = _example_to_expand(folded)
    if len(boxes) == 1:  # one box: no "each of the 1 purple boxes"
        if interactive:
            return say("folded caption, view, one box", name=boxes[0].title)
        return say("folded caption, one box", name=boxes[0].title, example=example)
    if interactive:
        return say("folded caption, view", count=len(boxes))
    return say("folded caption", count=len(boxes), example=example)


# --- folding and unfolding one module at a time (the interactive view) -------------------------


def unfolded(modules: Modules, folded: Collection[str], path: str) -> set[str]:
    """``folded`` with module ``path`` opened one level: its children folded in its place, as
    the default folding opens a level (a container's children opened in turn). A module with no
    children that made a box is drawn whole."""
    rest = set(folded) - {path}
    return rest | _settled(modules, set(modules.children(path)), set())


def folded_at(folded: Collection[str], path: str) -> set[str]:
    """``folded`` with module ``path`` folded into one box, and nothing inside it folded apart."""
    return {p for p in folded if not _inside_any(p, [path])} | {path}


def opened_to(modules: Modules, folded: Collection[str], box: str) -> set[str]:
    """``folded`` with every module around ``box`` opened, a level at a time, until the box is
    drawn: what finding a box hidden inside a folded module takes."""
    result = set(folded)
    own = modules.of_box.get(box)
    if own is None:
        return result
    for path in _ancestors_of(own):
        if path in result:
            result = unfolded(modules, result, path)
    return result


def _example_to_expand(folded: set[str]) -> str:
    """A module a learner may well want whole: the first numbered block, else the first."""
    numbered = [path for path in folded if path.rpartition(".")[2].isdigit()]
    return sorted(numbered or folded, key=_natural)[0]


def _folded_edges(edges: list[GraphEdge], rep: dict[str, str]) -> list[GraphEdge]:
    result, seen = [], set()
    for edge in edges:
        source, target = rep.get(edge.source, edge.source), rep.get(edge.target, edge.target)
        if source == target:
            continue  # inside one folded box
        into_fold = target != edge.target
        slot = None if into_fold else edge.slot
        key = (source, target, slot, edge.kind)
        if key in seen:
            continue
        seen.add(key)
        folded = source != edge.source or into_fold
        autograd_edge = None if folded else edge.autograd_edge
        kind = "input" if edge.kind in ("output", "saved") and folded else edge.kind
        result.append(replace(edge, source=source, target=target, slot=slot, kind=kind,
                              autograd_edge=autograd_edge))  # fmt: skip
    return result


def _folded_box(
    box_id: str, title: str, nodes: list[GraphNode], notes: list[str], tooltip: str
) -> GraphNode:
    """The one box standing for ``nodes``: a module's, or a run's of modules built alike."""
    parameters, grad_norm = _parameters(nodes)
    return GraphNode(
        box_id,
        MODULE,
        title,
        value=say("parameters", count=format_count(parameters)) if parameters else "",
        grad=None if grad_norm is None else say("grad norm", norm=format_number(grad_norm)),
        notes=notes,
        tooltip=tooltip,
        # Where the walk met the first Node it holds: a cut keeps it with its nearest Node.
        walk_order=min((n.walk_order for n in nodes if n.walk_order >= 0), default=-1),
    )


def _tail(path: str) -> str:
    """The last two parts of a path, "h.3" of "transformer.h.3": enough to say which block."""
    return ".".join(path.split(".")[-2:])


def _parameters(nodes: list[GraphNode]) -> tuple[int, float | None]:
    """The numbers in the parameters among ``nodes`` (leaf boxes), and the norm of all their
    gradients taken together (None while none has a gradient).

    One norm, as ``torch.nn.utils.clip_grad_norm_`` measures a model's: the square root of the
    sum of every squared number. A sum of each parameter's norm would grow with the number of
    tensors a module happens to be split into, and a block would outweigh its own layers.
    """
    count, squares, any_grad = 0, 0.0, False
    for node in nodes:
        leaf = getattr(node.fn, "variable", None)
        if not isinstance(leaf, torch.Tensor) or node.same_as is not None:
            continue
        count += leaf.numel()
        if leaf.grad is not None:
            any_grad = True
            squares += norm(leaf.grad) ** 2
    return count, (math.sqrt(squares) if any_grad else None)


def _frames(
    boxes: list[GraphNode], frame_of: dict[str, str | None], modules: Modules
) -> list[Frame]:
    """A frame for each module drawn whole, round its own boxes (those it made itself, and its
    folded submodules), inside the frame of its nearest module that has a frame too. A
    container (a ModuleList) is framed only round boxes of its own, its folded blocks: round
    frames alone, its frame would only add a border."""
    own: dict[str, list[str]] = defaultdict(list)
    for node in boxes:
        path = frame_of.get(node.id)
        if path is not None and node.kind in (*TENSOR_KINDS, OP, MODULE):
            own[path].append(node.id)
    framed = set()
    for path in own:
        framed.update(_ancestors_of(path))
    # A container (a ModuleList of blocks) runs nothing of its own: a frame round its frames
    # would only add a border.
    framed = {path for path in framed if own.get(path) or modules.types.get(path) not in CONTAINERS}
    frames = []
    for path in sorted(framed, key=_natural):
        if path == "" and not own.get(""):
            continue  # the model's frame would only frame everything
        ancestors = [p for p in _ancestors_of(path)[:-1] if p in framed and (p or own.get(""))]
        parent = ancestors[-1] if ancestors else None
        frames.append(Frame(path, modules.label(path), tuple(own.get(path, ())), parent))
    return frames


def format_count(count: int) -> str:
    """1234 → 1,234; 7087872 → 7.09M: the size of a module's parameters at a glance."""
    if count < 100_000:
        return f"{count:,}"
    exponent = min(int(math.log10(count)) // 3, 3)
    unit = " kMB"[exponent]
    return f"{count / 1000**exponent:.3g}{unit}"


# What a folded box and a frame say, in each language the helpers speak.
_TEXTS = {
    "the model": {"en": "the model", "zh": "整个模型"},
    "parameters": {"en": "{count} parameters", "zh": "{count} 个参数"},
    "grad norm": {"en": "grad norm {norm}", "zh": "梯度范数 {norm}"},
    "blocks like": {
        "en": "{count} blocks built like {like}",
        "zh": "{count} 个结构与 {like} 相同的块",
    },
    "call of": {"en": "call {call} of {calls}", "zh": "第 {call} 次调用（共 {calls} 次）"},
    "made outside": {
        "en": "{op}, made outside any module at {where}: {code}",
        "zh": "{op}：不属于任何模块，由 {where} 这一行生成：{code}",
    },
    "made by": {
        "en": "{op}, made by {module} at {where}: {code}",
        "zh": "{op}：由 {module} 在 {where} 生成：{code}",
    },
    "folded caption": {
        "en": "Folded by module: each of the {count} purple boxes stands for a module of your "
        "model (or a run of modules built alike). draw(..., expand='{example}') draws one whole, "
        "draw(..., fold=False, max_nodes=None) every Node.",
        "zh": "按模块折叠：{count} 个模块方框中的每一个代表你模型里的一个模块"
        "（或一串结构相同的模块）。"
        "draw(..., expand='{example}') 可以把其中一个完整画出，"
        "draw(..., fold=False, max_nodes=None) 画出每一个节点。",
    },
    "folded caption, one box": {
        "en": "Folded by module: the purple box stands for {name}. draw(..., expand='{example}') "
        "draws it whole, draw(..., fold=False, max_nodes=None) every Node.",
        "zh": "按模块折叠：模块方框代表 {name}。"
        "draw(..., expand='{example}') 可以把它完整画出，"
        "draw(..., fold=False, max_nodes=None) 画出每一个节点。",
    },
    "folded caption, view, one box": {
        "en": "Folded by module: the purple box stands for {name}. Click it to unfold it, and a "
        "frame's name to fold it again.",
        "zh": "按模块折叠：模块方框代表 {name}。点击它可以把它展开，"
        "点击外框的名字可以把它重新折叠。",
    },
    "folded caption, view": {
        "en": "Folded by module: each of the {count} purple boxes stands for a module of your "
        "model (or a run of modules built alike). Click one to unfold it, and a frame's name to "
        "fold it again.",
        "zh": "按模块折叠：{count} 个模块方框中的每一个代表你模型里的一个模块"
        "（或一串结构相同的模块）。点击一个模块方框可以把它展开，点击外框的名字可以把它重新折叠。",
    },
    "folded module": {
        "en": "{name}, folded: draw(..., expand='{path}') draws it whole",
        "zh": "{name}（已折叠）：draw(..., expand='{path}') 可以把它完整画出",
    },
    "folded run": {
        "en": "{first} to {last}, folded: each is built like the box before them",
        "zh": "{first} 到 {last}（已折叠）：每一个的结构都与它们前面那个框相同",
    },
}
MESSAGES = Catalogue("helpers.graph.modules", _TEXTS)
say = MESSAGES.say

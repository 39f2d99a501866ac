"""The autograd graph as data: the boxes a picture of it needs, what they say, how they connect.

`build_graph` walks the Nodes PyTorch recorded (a tensor's ``grad_fn``, then each Node's
``next_functions``) once and returns a `Graph` of small dataclasses: every Node it went through,
each box marked with where the walk met its Node, so that the part a picture shows is cut from
the model rather than walked again. Boxes hold formatted strings in named fields (``value``,
``grad``, ``notes``), never tensors; a box that stands for an autograd Node keeps that Node in
``fn``, so a drawing can point at it (``highlight=``, ``edge_labels=`` in `helpers.graph.draw`).
What a picture leaves out is `helpers.graph.cut`, how it is laid out `helpers.graph.layout`, the
model as DOT `helpers.graph.dot`: each part can be tested alone, and `helpers.backward_view`
draws many frames over one model.

The picture follows a blackboard: every tensor worth naming is a box with its value and gradient,
every operation is a box with PyTorch's name for its backward Node (``MulBackward0``). A named
non-leaf tensor gets its own box right after the operation that produced it, rather than being
merged into the operation's box: the board shows ``u = 6.0`` as a value, and PyTorch's graph really
has no box for it (autograd only records Nodes), so the separate box keeps both facts visible.
"""

from __future__ import annotations

import math
import weakref
from collections import defaultdict, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

import torch
import torch.autograd.forward_ad as forward_ad

from helpers import seen_nodes
from helpers.graph.captions import CAPTIONS, caption

LEAF = "leaf"  # a tensor that requires grad and was not computed: AccumulateGrad's target
TENSOR = "tensor"  # a named tensor computed by an operation (a non-leaf)
OP = "op"  # an autograd Node: the backward of one operation
SAVED = "saved"  # a tensor an operation kept for its backward
OUTPUT = "output"  # a tensor passed to draw(): where the backward pass starts
SUMMARY = "summary"  # the one box standing for the Nodes cut off by max_nodes
# The kinds of box that show a tensor (its name, value, notes and gradient); the others are Nodes.
TENSOR_KINDS = (LEAF, TENSOR, OUTPUT, SAVED)
MODULE = "module"  # a module of your model folded into one box (helpers.graph.modules)
# The kinds of box drawn as a table of text: the tensors' and the folded modules'.
TABLE_KINDS = (*TENSOR_KINDS, MODULE)
# What compare (helpers.backward) found of your gradient of a tensor, shown on its box.
MARKS = ("right", "wrong", "first wrong")

# Tensors with at most this many elements show their values; larger ones show shape and dtype.
SMALL_TENSOR = 4
SIGNIFICANT_DIGITS = 4
# With show_saved, the most saved tensors an op gets a box for; its box counts the others (a
# custom Function can save thousands, which no picture shows readably or quickly).
SAVED_BOXES = 10

# The most autograd Nodes a helper looks at in one call (a few more where one Node has many
# inputs: reading its next_functions shows them all). Once Python has seen a Node, PyTorch frees
# it through its Python object, one Node inside the other: letting go of a graph with a chain of
# about 35,000 seen Nodes (Linux's 8 MB main-thread stack; 12,000 with python.exe's 2 MB) crashes
# the process. `helpers.seen_nodes` holds every Node a helper sees and frees them one at a time;
# this limit keeps any one call well under the crash even without it, and bounds its work.
NODES_SAFE_TO_SEE = 5_000


def why_nodes_safe_to_see() -> str:
    """Why a helper stops at `NODES_SAFE_TO_SEE` Nodes, in the learner's language, to quote."""
    return CAPTIONS.say("why nodes safe to see", seen=NODES_SAFE_TO_SEE)


@dataclass
class GraphNode:
    """One box of the picture."""

    id: str  # stable: "n0", "n1", ... in the order of the walk, never id()
    kind: str  # LEAF, TENSOR, OP, SAVED, OUTPUT or SUMMARY
    title: str  # what the box is called: a name, or the Node's type name
    value: str = ""  # a tensor's value, or its shape and dtype
    grad: str | None = None  # a tensor's gradient, when it has one and it is shown
    # A dual tensor's tangent (forward mode, drawn inside forward_ad.dual_level()), else None.
    tangent: str | None = None
    notes: list[str] = field(default_factory=list)  # "view of x", saved attributes, ...
    tooltip: str = ""
    fn: Any = None  # the autograd Node this box stands for (op and leaf boxes), else None
    # A reference box repeats another box (a tensor used in many places, see helpers.graph.cut):
    # the id of the box drawn in full, which holds the value and gradient.
    same_as: str | None = None
    # Where the walk met the autograd Node this box belongs to, nearest the output first: its
    # own Node for an op or a leaf, the op that computed or saved it for another tensor; -1 for
    # a tensor autograd recorded nothing for. A cut keeps the boxes of the Nodes met first.
    walk_order: int = -1
    # One of MARKS on the box of a tensor whose gradient you computed by hand: draw(marks=...).
    mark: str | None = None
    # A weak reference to the tensor a tensor box shows (None for other boxes): a picture of a
    # recorded backward pass shows its value as the pass saw it (helpers.backward_view).
    tensor: Any = field(default=None, compare=False, repr=False)


@dataclass
class GraphEdge:
    """One arrow, stored in the forward direction: data flows from source to target."""

    source: str
    target: str
    kind: str  # "input" (into an op), "output" (op -> its tensor), "saved", "summary"
    # Which input of the target op this is, when the op has several in the graph (an input cut
    # off by max_nodes still counts: it arrives through the summary box's arrow).
    slot: int | None = None
    # The autograd edge this arrow stands for, as (node id, next node id) where next node is in
    # node.next_functions: the gradient of that input travels along it during backward().
    autograd_edge: tuple[str, str] | None = None


@dataclass
class Graph:
    """The model of one picture: boxes, arrows, notes for the caption, and Nodes left out."""

    nodes: list[GraphNode]
    edges: list[GraphEdge]
    notes: list[str]
    hidden: list[Any]  # autograd Nodes reachable from the outputs but cut off by max_nodes
    total_nodes: int = 0  # autograd Nodes reachable from the outputs, drawn or not
    roots: int = 0  # tensors passed to draw()
    roots_hidden: int = 0  # of those, the ones whose own Node was cut off by max_nodes
    # Nodes found but not walked through, in a graph of more than NODES_SAFE_TO_SEE Nodes: the
    # walk stopped, and more may lie beyond. Neither drawn nor in hidden; counted in total_nodes.
    found_beyond: int = 0
    # Frames round the boxes of each module drawn whole (helpers.graph.modules.Frame).
    frames: list[Any] = field(default_factory=list)
    # The walk order of the Node of each tensor passed to draw() that autograd recorded.
    roots_at: list[int] = field(default_factory=list)
    # After folding by module (helpers.graph.modules.fold): the module paths each module box
    # stands for (one module, or the blocks of a run), and the module box each box folded into
    # went to. The interactive view (helpers.view) unfolds and finds boxes with them.
    module_boxes: dict[str, tuple[str, ...]] = field(default_factory=dict)
    folded_into: dict[str, str] = field(default_factory=dict)

    @property
    def walked_all(self) -> bool:
        """Whether the walk saw the whole graph (else total_nodes is a lower bound)."""
        return self.found_beyond == 0

    @property
    def walked_nodes(self) -> int:
        """How many autograd Nodes the walk went through: the most a picture can draw."""
        return self.total_nodes - self.found_beyond

    @property
    def drawn_nodes(self) -> int:
        """How many autograd Nodes have a box (or reference boxes) in the picture."""
        return self.walked_nodes - len(self.hidden)

    def cut_off(self, fn: Any) -> bool:
        """Whether autograd Node ``fn`` may be in the graph but left out of the picture."""
        return not self.walked_all or id(fn) in self._hidden_ids

    @cached_property
    def _hidden_ids(self) -> set[int]:
        return {id(fn) for fn in self.hidden}

    def find(self, fn: Any) -> GraphNode | None:
        """The box standing for autograd Node ``fn`` (matched by identity), or None.

        A reference box (``same_as``) is never the answer: the box drawn in full is.
        """
        return next((node for node in self.nodes if node.fn is fn and not node.same_as), None)


def is_one_line_box(node: GraphNode) -> bool:
    """A tensor's box of one line of plain text: an unnamed value, or a reference's bare name.

    `helpers.graph.dot` draws it as a plain Graphviz box, at a fraction of the layout cost of the
    HTML table every other tensor box is (a benchmark's unnamed weights and every reference box
    are such boxes); `helpers.graph.layout` counts the tables for its estimate.
    """
    if node.kind not in TENSOR_KINDS:
        return False
    if node.same_as:
        return True
    if node.title or node.grad is not None or node.tangent is not None or node.notes or node.mark:
        return False
    return bool(node.value) and node.value.isprintable()


def summary_box(box_id: str, hidden: int, more_beyond: bool, walk_order: int) -> GraphNode:
    """The one box standing for ``hidden`` Nodes a picture leaves out ("… 380 more nodes"), or at
    least that many where the walk stopped before the end (``more_beyond``)."""
    title = caption("at least more nodes" if more_beyond else "more nodes", hidden=hidden)
    return GraphNode(box_id, SUMMARY, title, tooltip=caption("cut off"), walk_order=walk_order)


def build_graph(
    roots: Sequence[torch.Tensor],
    names: Iterable[tuple[str, torch.Tensor]],
    *,
    show_values: bool = True,
    show_grads: bool = True,
    show_saved: bool = False,
) -> Graph:
    """Walk the autograd graph behind ``roots`` once and describe it as boxes and arrows.

    The model holds every Node the walk went through (up to `NODES_SAFE_TO_SEE`), each box
    marked with its ``walk_order``: the part a picture shows is cut from it
    (`helpers.graph.cut`), never walked again. ``names`` lists (name, tensor) pairs in order of
    preference: the first name given for a tensor wins. Tensors are matched by identity, never
    by value.
    """
    builder = _Builder(names, show_values=show_values, show_grads=show_grads, show_saved=show_saved)
    return builder.build(roots)


@dataclass
class Walk:
    """The autograd Nodes a walk went through, nearest first, and how many it found beyond."""

    nodes: list[Any]
    # Found (as a next function of a Node walked through) but not walked through, because the
    # walk had seen NODES_SAFE_TO_SEE Nodes: there may be more beyond them. 0: the whole graph.
    found_beyond: int = 0


def walk(start: Iterable[Any]) -> Walk:
    """The autograd Nodes reachable from ``start``, once each, nearest first (breadth first),
    until it has seen `NODES_SAFE_TO_SEE` of them.

    Iterative on purpose: a recursive walk hits Python's recursion limit on deep graphs.
    """
    limit = NODES_SAFE_TO_SEE  # read when called: a measuring script may raise it for itself
    seen_nodes.let_go()
    order: list[Any] = []
    seen: set[Any] = set()
    queue: deque[Any] = deque()
    for fn in start:
        if fn not in seen:
            seen.add(fn)
            queue.append(fn)
    # Reading a Node's next_functions is what makes Python see its next Nodes: stop once more
    # than `limit` are seen (a Node with many inputs may take the count well over).
    while queue and len(seen) <= limit:
        fn = queue.popleft()
        order.append(fn)
        next_fns = [next_fn for next_fn, _ in fn.next_functions if next_fn is not None]
        seen_nodes.hold(fn, next_fns)  # freed safely once the learner lets go of the graph
        for next_fn in next_fns:
            if next_fn not in seen:
                seen.add(next_fn)
                queue.append(next_fn)
    return Walk(order, found_beyond=len(queue))


def gradient_edge(tensor: torch.Tensor) -> tuple[Any, int]:
    """The Node a gradient for ``tensor`` flows into, and which of its outputs ``tensor`` is.

    A computed tensor answers with its ``grad_fn``; a leaf that requires grad with its
    AccumulateGrad Node; a tensor autograd records nothing for (it does not require grad, or it
    was made under ``torch.inference_mode()``) with (None, 0).
    """
    if tensor.grad_fn is not None:
        return tensor.grad_fn, tensor.output_nr
    if not tensor.requires_grad or tensor.is_inference():
        return None, 0
    # PyTorch finds the Node by recording an operation on the leaf, which records nothing
    # inside torch.inference_mode() (or no_grad): asked from there too, it is found outside it.
    with torch.inference_mode(False), torch.enable_grad():
        try:
            # The same AccumulateGrad Node that other graphs built from this leaf point to.
            edge = torch.autograd.graph.get_gradient_edge(tensor)
            return edge.node, edge.output_nr
        except (NotImplementedError, RuntimeError):
            # Found through a view, which sparse tensors do not have; any recorded operation on
            # the leaf points to the same Node.
            return (tensor * 1).grad_fn.next_functions[0][0], 0


# A norm is added up in blocks of this many numbers (see `norm`).
NORM_BLOCK = 65_536


def norm(tensor: torch.Tensor) -> float:
    """The 2-norm of all of ``tensor``'s numbers, the square root of the sum of their squares, to
    about seven significant digits, as a folded module's box and the interactive view show it.

    PyTorch adds the squares of a float32 tensor in float32: for tens of millions of numbers
    (GPT-2's token embedding) its norm is off in the third digit. Converting them to float64
    first is exact but ten times slower. Here each block of `NORM_BLOCK` numbers is normed in
    its own dtype, exact enough, and the blocks' norms are combined in float64.
    """
    numbers = tensor.detach()
    if numbers.is_complex():
        numbers = numbers.abs()
    if not numbers.is_floating_point():
        numbers = numbers.double()
    elif numbers.dtype in (torch.float16, torch.bfloat16):
        numbers = numbers.float()  # their own sums would overflow at 65,504
    flat = numbers.reshape(-1)
    whole = flat.numel() // NORM_BLOCK * NORM_BLOCK
    parts = [torch.linalg.vector_norm(flat[:whole].view(-1, NORM_BLOCK), dim=1)] if whole else []
    if whole < flat.numel():
        parts.append(torch.linalg.vector_norm(flat[whole:]).reshape(1))
    return float(torch.linalg.vector_norm(torch.cat(parts).double()))


def format_number(number: float | int | bool | complex) -> str:
    """A number as a blackboard shows it: 4 significant digits, and floats look like floats."""
    if isinstance(number, (bool, int)):
        return str(number)
    if isinstance(number, complex):
        sign = "-" if number.imag < 0 else "+"
        return f"{format_number(number.real)}{sign}{format_number(abs(number.imag))}j"
    text = f"{number:.{SIGNIFICANT_DIGITS}g}"
    if math.isfinite(number) and number == int(number) and "e" not in text:
        text += ".0"  # 2.0, not 2: the value is a float
    return text


def tangent_of(tensor: torch.Tensor) -> torch.Tensor | None:
    """The tangent a dual tensor carries beside its value inside forward_ad.dual_level(); None
    outside, for a tensor without one, and for the layouts unpack_dual cannot read (a nested or
    a sparse tensor raises there)."""
    if tensor.layout != torch.strided or tensor.is_nested:
        return None
    return forward_ad.unpack_dual(tensor).tangent


def describe(tensor: torch.Tensor, show_values: bool = True) -> str:
    """A short text for a tensor: its values when it is small, else its shape and dtype."""
    if show_values and tensor.numel() <= SMALL_TENSOR and tensor.layout == torch.strided:
        try:
            return _format_nested(tensor.detach().cpu().tolist())
        except (RuntimeError, NotImplementedError, TypeError):
            pass  # meta and other tensors without readable values: fall back to the shape
    dtype = str(tensor.dtype).removeprefix("torch.")
    shape = _shape(tensor)
    layout = (
        "" if tensor.layout == torch.strided else " " + str(tensor.layout).removeprefix("torch.")
    )
    return f"{shape} {dtype}{layout}"


def _shape(tensor: torch.Tensor) -> str:
    if tensor.is_nested and tensor.layout == torch.strided:
        # PyTorch's first kind of nested tensor has no shape of its own, only its parts have.
        parts = [str(tuple(part.shape)) for part in tensor.detach().unbind()]
        if len(parts) > SMALL_TENSOR:
            parts = [*parts[:SMALL_TENSOR], "…"]
        return caption("nested shape", parts=", ".join(parts))
    return caption("scalar") if tensor.dim() == 0 else str(tuple(tensor.shape))


def _format_nested(values: Any) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_format_nested(value) for value in values) + "]"
    return format_number(values)


class _Builder:
    """Turns one walk of the autograd graph into boxes and arrows; used once per build_graph()."""

    def __init__(
        self,
        names: Iterable[tuple[str, torch.Tensor]],
        *,
        show_values: bool,
        show_grads: bool,
        show_saved: bool,
    ) -> None:
        self.show_values = show_values
        self.show_grads = show_grads
        self.show_saved = show_saved
        self.nodes: list[GraphNode] = []
        self.edges: list[GraphEdge] = []
        self.notes: list[str] = []
        self.walk_order = -1  # of the Node whose boxes are being made (see GraphNode)
        self.box_of: dict[Any, str] = {}  # autograd Node -> id of its box
        self.tensor_box_of: dict[tuple[Any, int], str] = {}  # (grad_fn, output_nr) -> box id
        # Tensors are looked up by id() only while build() runs: the caller holds them alive.
        self.name_of: dict[int, str] = {}
        # The tensors that get a box of their own after the op that computed them:
        # grad_fn -> {output_nr: (tensor, is an output of draw())}
        self.computed: dict[Any, dict[int, tuple[torch.Tensor, bool]]] = {}
        for name, tensor in names:
            if id(tensor) not in self.name_of:
                self.name_of[id(tensor)] = name
                if tensor.grad_fn is not None:
                    self._show_computed(tensor, tensor.grad_fn, tensor.output_nr, False)

    def _show_computed(self, tensor: torch.Tensor, fn: Any, nr: int, is_output: bool) -> None:
        by_number = self.computed.setdefault(fn, {})
        if is_output or nr not in by_number:
            by_number[nr] = (tensor, is_output)

    def build(self, roots: Sequence[torch.Tensor]) -> Graph:
        root_edges = [(root, *gradient_edge(root)) for root in roots]
        for root, fn, nr in root_edges:
            if fn is None:
                self._add_unrecorded_root(root)
            elif root.grad_fn is not None:
                self._show_computed(root, fn, nr, True)
        walked = walk(fn for _, fn, _ in root_edges if fn is not None)
        order = walked.nodes
        root_ids = {id(root) for root in roots}
        for self.walk_order, fn in enumerate(order):
            self._add_node_boxes(fn, root_ids)
        beyond = walked.found_beyond  # more Nodes than the helpers look at: not drawn
        summary = None
        if beyond:
            self.walk_order = len(order)  # it stands for the Nodes beyond all those walked
            summary = self._add_summary(beyond)
        for fn in order:
            self._add_input_edges(fn, summary)
        # A root whose Node the walk did not reach (more roots than it looks at) comes last.
        place = {fn: walk_order for walk_order, fn in enumerate(order)}
        roots_at = [place.get(fn, len(order)) for _, fn, _ in root_edges if fn is not None]
        roots_hidden = sum(at == len(order) for at in roots_at)
        total = len(order) + beyond
        return Graph(
            self.nodes,
            self.edges,
            self.notes,
            [],
            total,
            len(roots),
            roots_hidden,
            beyond,
            roots_at=roots_at,
        )

    # --- boxes -------------------------------------------------------------------------------

    def _new_node(self, kind: str, title: str, **fields: Any) -> str:
        node = GraphNode(f"n{len(self.nodes)}", kind, title, walk_order=self.walk_order, **fields)
        self.nodes.append(node)
        return node.id

    def _add_unrecorded_root(self, root: torch.Tensor) -> None:
        name = self.name_of.get(id(root))
        tooltip = caption("tooltip tensor")
        self._new_node(OUTPUT, name or "output", tooltip=tooltip, **self._tensor_fields(root))
        what = caption("named", name=name) if name else caption("this tensor")
        key = "recorded nothing, inference" if root.is_inference() else "recorded nothing"
        self.notes.append(caption(key, what=what))

    def _add_node_boxes(self, fn: Any, root_ids: set[int]) -> None:
        """The box for ``fn``, then boxes for the named tensors it produced and what it saved."""
        type_name = type(fn).__name__
        leaf = getattr(fn, "variable", None)  # only AccumulateGrad Nodes have .variable
        if isinstance(leaf, torch.Tensor):
            kind = OUTPUT if id(leaf) in root_ids else LEAF
            name = self.name_of.get(id(leaf), "")
            fields = self._tensor_fields(leaf)
            self.box_of[fn] = self._new_node(kind, name, tooltip=type_name, fn=fn, **fields)
            return
        saved_tensors, saved_notes = self._saved(fn) if self.show_saved else ([], [])
        if len(saved_tensors) > SAVED_BOXES:
            more = len(saved_tensors) - SAVED_BOXES
            saved_notes.append(caption("one more saved" if more == 1 else "more saved", more=more))
            saved_tensors = saved_tensors[:SAVED_BOXES]
        self.box_of[fn] = self._new_node(OP, type_name, notes=saved_notes, tooltip=type_name, fn=fn)
        self._add_tensor_boxes(fn)
        for slot_name, tensor in saved_tensors:
            name = self.name_of.get(id(tensor))
            title = f"{slot_name} = {name}" if name else slot_name
            value = describe(tensor, self.show_values)
            tooltip = caption("saved by", op=type_name)
            saved_id = self._new_node(SAVED, title, value=value, tooltip=tooltip)
            self.edges.append(GraphEdge(saved_id, self.box_of[fn], "saved"))

    def _add_tensor_boxes(self, fn: Any) -> None:
        """Boxes for the tensors ``fn`` computed that were passed to draw() or have a name."""
        for nr, (tensor, is_output) in sorted(self.computed.get(fn, {}).items()):
            kind = OUTPUT if is_output else TENSOR
            title = self.name_of.get(id(tensor), "output" if is_output else "")
            tooltip = caption("output of", nr=nr, op=type(fn).__name__)
            tensor_id = self._new_node(kind, title, tooltip=tooltip, **self._tensor_fields(tensor))
            self.tensor_box_of[(fn, nr)] = tensor_id
            self.edges.append(GraphEdge(self.box_of[fn], tensor_id, "output"))

    def _add_summary(self, hidden: int) -> str:
        box = summary_box(f"n{len(self.nodes)}", hidden, True, self.walk_order)
        self.nodes.append(box)
        return box.id

    def _tensor_fields(self, tensor: torch.Tensor) -> dict[str, Any]:
        """What a tensor's box says: its value, its gradient and, for a view, what it views."""
        notes = []
        if tensor.layout == torch.strided and tensor._is_view() and tensor._base is not None:
            base_name = self.name_of.get(id(tensor._base))
            notes.append(caption("view of", base=base_name) if base_name else caption("view"))
        grad = self._grad(tensor)
        shown_grad = None if grad is None else describe(grad, self.show_values)
        tangent = tangent_of(tensor)
        return {
            "value": describe(tensor, self.show_values),
            "grad": shown_grad,
            "tangent": None if tangent is None else describe(tangent, self.show_values),
            "notes": notes,
            "tensor": weakref.ref(tensor),
        }

    def _grad(self, tensor: torch.Tensor) -> torch.Tensor | None:
        # Reading .grad of a non-leaf that does not retain it makes PyTorch warn; ask first.
        if not self.show_grads or not (tensor.is_leaf or tensor.retains_grad):
            return None
        return tensor.grad

    def _saved(self, fn: Any) -> tuple[list[tuple[str, torch.Tensor]], list[str]]:
        """What ``fn`` saved for its backward: tensors (own boxes) and other values (notes)."""
        tensors: list[tuple[str, torch.Tensor]] = []
        notes: list[str] = []
        freed: list[str] = []
        changed: list[str] = []
        for slot_name, read in saved_slots(fn):
            try:
                value = read()
            except RuntimeError as error:
                # Reading raises once backward() without retain_graph freed it, and once the
                # tensor was changed in place after it was saved (backward() would fail too).
                in_place = "modified by an inplace operation" in str(error)
                (changed if in_place else freed).append(slot_name)
                continue
            if isinstance(value, (list, tuple)) and any(
                isinstance(item, torch.Tensor) for item in value
            ):
                # A tuple such as ctx.save_for_backward(x, None) or x[i, :, j]'s indices:
                # each item where it sits, a tensor as a box and anything else as a note.
                items = [(f"{slot_name}[{i}]", item) for i, item in enumerate(value)]
            else:
                items = [(slot_name, value)]
            for item_name, item in items:
                if isinstance(item, torch.Tensor):
                    tensors.append((item_name, item))
                elif item is not None or len(items) > 1:
                    notes.append(f"{item_name}={_format_value(item)}")
        if freed:
            notes.append(caption("freed", slots=", ".join(freed)))
        if changed:
            notes.append(caption("changed in place", slots=", ".join(changed)))
        return tensors, notes

    # --- arrows ------------------------------------------------------------------------------

    def _add_input_edges(self, fn: Any, summary: str | None) -> None:
        inputs = fn.next_functions
        # Slot numbers tell arrows into the same op apart; one arrow needs none.
        tells_apart = sum(next_fn is not None for next_fn, _ in inputs) > 1
        reaches_summary = False
        for slot, (next_fn, nr) in enumerate(inputs):
            if next_fn is None:
                continue  # an input that does not require grad: autograd recorded no edge
            if next_fn not in self.box_of:  # cut off by max_nodes
                reaches_summary = True
                continue
            source = self.tensor_box_of.get((next_fn, nr), self.box_of[next_fn])
            shown_slot = slot if tells_apart else None
            autograd_edge = (self.box_of[fn], self.box_of[next_fn])
            self.edges.append(
                GraphEdge(source, self.box_of[fn], "input", shown_slot, autograd_edge)
            )
        if reaches_summary and summary is not None:
            self.edges.append(GraphEdge(summary, self.box_of[fn], "summary"))


def saved_slots(fn: Any) -> list[tuple[str, Any]]:
    """(name, reader) for each value ``fn`` saved; readers raise RuntimeError once it is freed."""
    if hasattr(fn, "_forward_cls"):  # a custom autograd.Function: ctx.save_for_backward(...)
        return [("saved_tensors", lambda: fn.saved_tensors)]
    prefix = "_saved_"  # built-in Nodes expose each saved value as _saved_<name>
    return [
        (attribute.removeprefix(prefix), lambda attribute=attribute: getattr(fn, attribute))
        for attribute in dir(fn)
        if attribute.startswith(prefix)
    ]


def _format_value(value: Any) -> str:
    if isinstance(value, (bool, int, float, complex)):
        return format_number(value)
    if isinstance(value, (list, tuple)):
        items = [_format_value(item) for item in value]
        return "(" + ", ".join(items) + ("," if len(items) == 1 else "") + ")"  # (2,), as Python
    if isinstance(value, torch.Tensor):
        return describe(value)
    return " ".join(str(value).split())  # one line, whatever the object's repr


# --- the shape of a picture: plain graph arithmetic on box ids -----------------------------------


def inputs_and_consumers(
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


def topological(
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


def heights(
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


def version_of(tensor: torch.Tensor) -> int | None:
    """How many times ``tensor`` was changed in place (``tensor._version``), which a saved
    tensor is checked against; None for a tensor made in inference mode, which has no counter."""
    try:
        return tensor._version
    except RuntimeError:
        return None

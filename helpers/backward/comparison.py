"""Your backward pass against autograd's, tensor by tensor: which gradient to fix first.

    >>> result = compare(loss, {"y_pred": grad_y_pred, "w2": grad_w2, "h": grad_h})
    >>> result              # a table: tensor, your gradient, ✓ or ✗, largest difference, where
    >>> result.first_wrong  # "h": the wrong gradient nearest the output whose inputs are right
    >>> result.draw()       # loss's graph, each compared tensor marked right or wrong

A backward pass written by hand goes from the output towards the leaves, each gradient computed
from the ones before it. One mistake makes every gradient after it wrong as well, so a list of
wrong tensors does not say which to fix. `compare` does: it orders the tensors as PyTorch's
engine reaches them, and for a wrong gradient whose inputs are wrong too it checks whether your
step from them was right (it asks autograd what your wrong inputs lead to). The first wrong
gradient in that order that your own step got wrong is the one to fix.

Autograd's gradients are computed by the by-hand engine of `helpers.backward` over PyTorch's own
Nodes: the same numbers as ``torch.autograd.grad``, without running any hook, so nothing is
written to any ``.grad`` (not even of a tensor that called ``retain_grad()``) and the graph stays
as it was, ready for your ``loss.backward()``.
"""

from __future__ import annotations

import difflib
import html
import math
import weakref
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace

import torch
from torch.autograd.graph import Node

from helpers.backward.compare_messages import COMPARE_MESSAGES as MESSAGES
from helpers.backward.engine import (
    ReadyNodes,
    backward_by_hand,
    consumers_of_each_node,
    gradient_edge_of,
)
from helpers.backward.refusals import (
    friendly_errors,
    refuse_nested_tensors,
    refuse_reentrant_checkpoints,
    starting_gradient,
)
from helpers.backward.table import grid_html, grid_text
from helpers.graph import resolve_names
from helpers.graph.model import format_number
from helpers.graph.transforms import refuse_inside_transforms

__all__ = ["Comparison", "GradientCheck", "compare", "tolerance_of"]

# A gradient is right when every number is within this fraction of its largest value (yours or
# autograd's, whichever is larger) of autograd's number. Hand-written formulas add the same
# products in another order than PyTorch's kernels do: in float32 that moves the last digits
# (about 1e-7 of the largest value per addition, a few times 1e-6 over a thousand terms), while a
# real mistake (a missing mask, a transpose, a factor 2) moves them by a good part of the whole.
_TOLERANCES = {
    torch.float64: 1e-10,
    torch.float32: 1e-4,
    torch.float16: 1e-2,
    torch.bfloat16: 2e-2,
}


def tolerance_of(dtype: torch.dtype) -> float:
    """The largest difference `compare` accepts for a gradient of ``dtype``, as a fraction of
    the gradient's largest value."""
    if dtype.is_complex:
        dtype = torch.float64 if dtype == torch.complex128 else torch.float32
    return _TOLERANCES.get(dtype, 1e-4)


@dataclass(frozen=True)
class GradientCheck:
    """One row of a comparison: your gradient of ``name`` against autograd's.

    ``problem`` says what is wrong: None (it is right), "shape", "dtype", "values". ``difference``
    is the largest difference between the two (None when the shapes differ), ``where`` the index
    at which it is, ``scale`` the largest absolute value the difference is measured against.
    ``follows_from`` names the gradients it is computed from, as far as compare can tell (the
    compared tensors between it and the output); ``inherited`` is True for a wrong gradient that
    your step computed rightly from wrong inputs: fix those, and it is right.
    """

    name: str
    yours: str | None  # the variable holding your gradient, when compare could find it
    problem: str | None
    your_shape: tuple[int, ...]
    shape: tuple[int, ...]
    your_dtype: torch.dtype
    dtype: torch.dtype
    difference: float | None
    where: tuple[int, ...] | None
    scale: float
    tolerance: float
    follows_from: tuple[str, ...] = ()
    inherited: bool = False

    @property
    def right(self) -> bool:
        return self.problem is None


class Comparison:
    """What `compare` found: one `GradientCheck` per tensor, in the order backward reaches them.

    ``first_wrong`` is the name of the gradient to fix first (None when all are right):
    the wrong one nearest the output that is not just the consequence of wrong gradients before
    it. In a notebook it shows as a table with a sentence under it; ``draw()`` draws the graph
    with each compared tensor marked.
    """

    def __init__(
        self,
        checks: Sequence[GradientCheck],
        first_wrong: str | None,
        output: torch.Tensor,
        tensors: Mapping[str, torch.Tensor],
    ) -> None:
        self.checks = tuple(checks)
        self.first_wrong = first_wrong
        # Weak: a comparison does not keep the learner's graph alive; draw() needs it, though.
        self._output = weakref.ref(output)
        self._tensors = {name: weakref.ref(tensor) for name, tensor in tensors.items()}

    @property
    def all_right(self) -> bool:
        return all(check.right for check in self.checks)

    def __getitem__(self, name: str) -> GradientCheck:
        for check in self.checks:
            if check.name == name:
                return check
        raise KeyError(name)

    def __len__(self) -> int:
        return len(self.checks)

    def verdict(self) -> str:
        """The sentence under the table: all right, or what to fix first and why."""
        return _verdict(self)

    def marks(self) -> list[tuple[str, torch.Tensor, str]]:
        """``(name, tensor, mark)`` for each compared tensor still alive, mark being "right",
        "wrong" or "first wrong": what `helpers.graph.draw` reads from ``marks=``."""
        found = []
        for check in self.checks:
            tensor = self._tensors[check.name]()
            if tensor is None:
                continue
            if check.name == self.first_wrong:
                mark = "first wrong"
            else:
                mark = "right" if check.right else "wrong"
            found.append((check.name, tensor, mark))
        return found

    def draw(self, **options):
        """The graph of the output compared, each compared tensor marked ✓ or ✗ and the one to
        fix first outlined: ``draw(output, marks=self)``; options as in `helpers.graph.draw`."""
        from helpers.graph import draw

        output = self._output()
        if output is None:
            raise ValueError(MESSAGES.say("output gone"))
        return draw(output, marks=self, **options)

    def __repr__(self) -> str:
        return grid_text(_headers(), _rows(self)) + "\n" + self.verdict()

    def _repr_html_(self) -> str:
        return grid_html(_headers(), _rows(self)) + f"<p>{html.escape(self.verdict())}</p>"


def compare(
    output: torch.Tensor,
    mine: Mapping[str, object],
    grad_output: torch.Tensor | None = None,
) -> Comparison:
    """Compare the gradients you computed by hand with autograd's, and say which to fix first.

    ``mine`` maps the name of each tensor (as your code calls it, the names `helpers.graph.draw`
    uses: ``"w1"``, ``"h_relu"``, ``"model.0.weight"``) to your gradient of ``output`` with
    respect to it: leaves and intermediate tensors alike. ``grad_output`` is where the backward
    pass starts when ``output`` is not a single number, as in ``output.backward(grad_output)``.

    Each gradient is compared in shape, dtype and values: values are right when each is within
    a small fraction of the gradient's largest value (`tolerance_of`: 1e-4 in float32, 1e-10 in
    float64), which allows for sums taken in another order, never for a mistake. A gradient of
    the wrong shape is a ✗ with both shapes, not an error.

    Autograd's gradients are computed without running hooks: no ``.grad`` changes, the graph is
    not freed, and the memory used is that of one backward pass.
    """
    refuse_inside_transforms("compare", [output, grad_output])
    seed = starting_gradient(output, grad_output)
    named = resolve_names()
    tensors, yours, your_names = _tensors_compared(mine, named, output)
    graph = _Graph(gradient_edge_of(output))
    _check_in_graph(tensors, graph, output, named)
    refuse_nested_tensors(graph.consumers)
    refuse_reentrant_checkpoints(graph.consumers, helper="compare")
    names = graph.in_backward_order(tensors)
    ordered = [tensors[name] for name in names]
    with torch.inference_mode(False), friendly_errors():
        autograds = backward_by_hand(output, ordered, seed)
    checks = {}
    for name, autograd in zip(names, autograds, strict=True):
        expected = _zeros_like(tensors[name]) if autograd is None else autograd
        checks[name] = _check(name, your_names[name], yours[name], expected)
    first = _first_wrong(
        names, checks, graph, tensors, yours, dict(zip(names, autograds, strict=True))
    )
    return Comparison([checks[name] for name in names], first, output, tensors)


# --- what was given ----------------------------------------------------------------------------


def _tensors_compared(
    mine: object, named: list[tuple[str, torch.Tensor]], output: torch.Tensor
) -> tuple[dict[str, torch.Tensor], dict[str, torch.Tensor], dict[str, str | None]]:
    """The tensors named in ``mine``, your gradient of each as a detached tensor, and the
    variable your gradient is in (``grad_h``), where compare finds one."""
    if not isinstance(mine, Mapping):
        raise TypeError(MESSAGES.say("mine not a dict", got=type(mine).__name__))
    if not mine:
        raise ValueError(MESSAGES.say("mine empty"))
    tensors: dict[str, torch.Tensor] = {}
    yours: dict[str, torch.Tensor] = {}
    your_names: dict[str, str | None] = {}
    for key, gradient in mine.items():
        name, tensor = _tensor_named(key, named, output)
        if not tensor.requires_grad:
            raise ValueError(MESSAGES.say("needs no grad", name=name))
        if tensor.is_meta:
            raise ValueError(MESSAGES.say("meta tensor", name=name))
        # Two unnamed tensors of one shape, both named by it: each keeps a row of its own.
        base, count = name, 1
        while name in tensors and tensors[name] is not tensor:
            count += 1
            name = f"{base} #{count}"
        tensors[name] = tensor
        yours[name] = _as_gradient(name, gradient, tensor)
        # Every variable holding it: two names for one tensor (grad_h = grad_h_relu, masked in
        # place) is often the very mistake.
        holding = list(dict.fromkeys(n for n, t in named if t is gradient))
        your_names[name] = " = ".join(holding) if holding else None
    return tensors, yours, your_names


def _tensor_named(
    key: object, named: list[tuple[str, torch.Tensor]], output: torch.Tensor
) -> tuple[str, torch.Tensor]:
    if isinstance(key, torch.Tensor):  # {w1: grad_w1} works too: named as your code names it
        name = next((n for n, t in named if t is key), None)
        return name or ("output" if key is output else repr(tuple(key.shape))), key
    if not isinstance(key, str):
        raise TypeError(MESSAGES.say("key not a name", got=type(key).__name__))
    for name, tensor in named:
        if name == key:
            return name, tensor
    nearest = _nearest(key, [name for name, _ in named])
    if nearest:
        raise UnknownName(MESSAGES.say("no such name, nearest", name=key, nearest=nearest))
    raise UnknownName(MESSAGES.say("no such name", name=key))


class UnknownName(KeyError):
    """A name compare cannot find among your variables; the text names the nearest ones."""

    def __str__(self) -> str:
        # KeyError would show its text in quotes, with escapes: this is a sentence, not a key.
        return str(self.args[0]) if self.args else ""


def _nearest(name: str, names: list[str]) -> str:
    close = difflib.get_close_matches(name, list(dict.fromkeys(names)), n=3, cutoff=0.6)
    return MESSAGES.say("list separator").join(repr(n) for n in close)


def _as_gradient(name: str, gradient: object, tensor: torch.Tensor) -> torch.Tensor:
    """Your gradient as a tensor: a tensor (detached), or a number or list of numbers, read in
    the dtype of ``tensor`` (a plain 2.0 for a float64 tensor is a float64 gradient)."""
    if isinstance(gradient, torch.Tensor):
        return gradient.detach()
    if gradient is None:
        raise TypeError(MESSAGES.say("gradient none", name=name))
    try:
        return torch.as_tensor(gradient, dtype=tensor.dtype, device=tensor.device)
    except (TypeError, ValueError, RuntimeError):
        raise TypeError(
            MESSAGES.say("gradient not a tensor", name=name, got=type(gradient).__name__)
        ) from None


# --- the graph --------------------------------------------------------------------------------


class _Graph:
    """The Nodes behind the output, the order PyTorch's engine runs them in, and which compared
    tensors each compared tensor's gradient comes through."""

    def __init__(self, root) -> None:
        self.root = root
        self.consumers = consumers_of_each_node(root.node)
        self.order = self._engine_order()

    def _engine_order(self) -> dict[Node, int]:
        """Each Node's place in the order PyTorch's engine runs them (as the by-hand one does)."""
        waiting = {node: len(feeding) for node, feeding in self.consumers.items()}
        ready = ReadyNodes(self.root.node)
        order: dict[Node, int] = {}
        while ready:
            node = ready.pop()
            order[node] = len(order)
            for next_node, _ in node.next_functions:
                if next_node is None:
                    continue
                waiting[next_node] -= 1
                if waiting[next_node] == 0:
                    ready.push(next_node)
        return order

    def has(self, tensor: torch.Tensor) -> bool:
        return gradient_edge_of(tensor).node in self.consumers

    def in_backward_order(self, tensors: Mapping[str, torch.Tensor]) -> list[str]:
        def place(name: str) -> tuple[int, int]:
            edge = gradient_edge_of(tensors[name])
            return self.order[edge.node], edge.output_nr

        return sorted(tensors, key=place)

    def comes_through(self, tensors: Mapping[str, torch.Tensor]) -> dict[str, list[str]]:
        """For each compared tensor, the compared tensors nearest it on its way to the output:
        the gradients your step for it is computed from."""
        edge_of = {}
        for name, tensor in tensors.items():
            edge = gradient_edge_of(tensor)
            edge_of[(edge.node, edge.output_nr)] = name
        before: dict[str, list[str]] = {name: [] for name in tensors}
        for name, tensor in tensors.items():
            start = gradient_edge_of(tensor).node
            if tensor.grad_fn is None:  # a leaf: its gradient goes nowhere further
                continue
            seen = {start}
            to_visit = [start]
            while to_visit:
                node = to_visit.pop()
                for next_node, slot in node.next_functions:
                    if next_node is None:
                        continue
                    reached = edge_of.get((next_node, slot))
                    if reached is not None and reached != name:
                        if name not in before[reached]:
                            before[reached].append(name)
                        continue  # beyond it, gradients come through that tensor
                    if next_node not in seen:
                        seen.add(next_node)
                        to_visit.append(next_node)
        return before


def _check_in_graph(
    tensors: Mapping[str, torch.Tensor],
    graph: _Graph,
    output: torch.Tensor,
    named: list[tuple[str, torch.Tensor]],
) -> None:
    output_name = next((n for n, t in named if t is output), None) or "output"
    for name, tensor in tensors.items():
        if not graph.has(tensor):
            raise ValueError(MESSAGES.say("not in graph", name=name, output=output_name))


# --- one gradient ------------------------------------------------------------------------------


def _zeros_like(tensor: torch.Tensor) -> torch.Tensor:
    # A tensor in the graph that the output does not depend on: its gradient is zero.
    return torch.zeros_like(tensor, memory_format=torch.contiguous_format).detach()


def _check(
    name: str, yours_name: str | None, yours: torch.Tensor, autograd: torch.Tensor
) -> GradientCheck:
    tolerance = tolerance_of(autograd.dtype)
    common = {
        "name": name,
        "yours": yours_name,
        "your_shape": tuple(yours.shape),
        "shape": tuple(autograd.shape),
        "your_dtype": yours.dtype,
        "dtype": autograd.dtype,
        "tolerance": tolerance,
    }
    if yours.shape != autograd.shape:
        return GradientCheck(problem="shape", difference=None, where=None, scale=0.0, **common)
    difference, where, scale = _largest_difference(yours, autograd)
    if not difference <= tolerance * scale:  # also when it is nan
        problem = "values"
    elif yours.dtype != autograd.dtype:
        problem = "dtype"
    else:
        problem = None
    return GradientCheck(problem=problem, difference=difference, where=where, scale=scale, **common)


def _largest_difference(
    yours: torch.Tensor, autograd: torch.Tensor
) -> tuple[float, tuple[int, ...], float]:
    """The largest difference, where it is, and the scale it is measured against: the largest
    absolute value of either gradient (so a gradient ten times too large is not "close")."""
    dtype = torch.complex128 if (yours.is_complex() or autograd.is_complex()) else torch.float64
    first = yours.to(autograd.device).to_dense() if yours.layout != torch.strided else yours
    second = autograd.to_dense() if autograd.layout != torch.strided else autograd
    first, second = first.to(device=second.device, dtype=dtype), second.to(dtype=dtype)
    # Equal numbers differ by nothing, infinities of one sign too (inf - inf would be nan), and
    # so do two nans: sqrt's exact gradient at 0 is inf, and yours may rightly be inf there.
    same = (first == second) | (first.isnan() & second.isnan())
    difference = (first - second).abs()
    difference = torch.where(same, 0.0, difference.nan_to_num(nan=math.inf))
    if difference.numel() == 0:
        return 0.0, (), 0.0
    flat = int(difference.argmax())
    where = tuple(int(i) for i in torch.unravel_index(torch.tensor(flat), difference.shape))
    finite = lambda t: t.abs().nan_to_num(nan=0.0, posinf=0.0).max().item()  # noqa: E731
    scale = max(finite(first), finite(second), torch.finfo(torch.float32).tiny)
    return difference.max().item(), where, scale


# --- which to fix first ------------------------------------------------------------------------


def _first_wrong(
    names: list[str],
    checks: dict[str, GradientCheck],
    graph: _Graph,
    tensors: Mapping[str, torch.Tensor],
    yours: Mapping[str, torch.Tensor],
    autograds: Mapping[str, torch.Tensor | None],
) -> str | None:
    """The first wrong gradient, in backward order, that your own step got wrong. Records on
    each check what it follows from and whether its error is only inherited."""
    before = graph.comes_through(tensors)
    first = None
    for name in names:
        check = checks[name]
        inherited = not check.right and _only_inherited(
            name, before[name], checks, tensors, yours, autograds
        )
        checks[name] = _with(check, follows_from=tuple(before[name]), inherited=inherited)
        if not check.right and not inherited and first is None:
            first = name
    if first is None:  # every wrong one looked inherited: name the first wrong one anyway
        first = next((name for name in names if not checks[name].right), None)
    return first


def _with(check: GradientCheck, **changes) -> GradientCheck:
    return replace(check, **changes)


def _only_inherited(
    name: str,
    inputs: list[str],
    checks: Mapping[str, GradientCheck],
    tensors: Mapping[str, torch.Tensor],
    yours: Mapping[str, torch.Tensor],
    autograds: Mapping[str, torch.Tensor | None],
) -> bool:
    """Is your gradient of ``name`` what your (wrong) input gradients lead to?

    Backward is linear: had your step been right, your gradient would be autograd's plus what
    the errors of your inputs make of it, ``autograd + Σ vjp(yours_in - autograd_in)``. When
    that is your gradient, the error came from the inputs. Where the inputs cannot say (a wrong
    shape, or one input reached through another), the error counts as inherited when an input
    is wrong.
    """
    wrong_inputs = [i for i in inputs if not checks[i].right]
    if not wrong_inputs or checks[name].problem == "shape":
        return False
    if any(checks[i].problem == "shape" for i in wrong_inputs) or len(inputs) > 1:
        return True
    expected = _what_inputs_lead_to(name, wrong_inputs[0], tensors, yours, autograds)
    if expected is None:
        return True
    difference, _, scale = _largest_difference(yours[name], expected)
    return difference <= checks[name].tolerance * scale


def _what_inputs_lead_to(
    name: str,
    input_name: str,
    tensors: Mapping[str, torch.Tensor],
    yours: Mapping[str, torch.Tensor],
    autograds: Mapping[str, torch.Tensor | None],
) -> torch.Tensor | None:
    target, source = tensors[name], tensors[input_name]
    autograd_in = autograds[input_name]
    autograd = autograds[name]
    if autograd_in is None or autograd is None:
        return None
    error = (yours[input_name].to(autograd_in.device, autograd_in.dtype) - autograd_in).detach()
    with torch.inference_mode(False), friendly_errors():
        (carried,) = backward_by_hand(source, [target], error)
    return autograd if carried is None else autograd + carried


# --- the table and the verdict ------------------------------------------------------------------


def _mark(check: GradientCheck) -> str:
    return "✓" if check.right else "✗"


def _difference_text(check: GradientCheck) -> str:
    if check.problem == "shape":
        return MESSAGES.say("shapes differ", yours=check.your_shape, autograd=check.shape)
    if math.isinf(check.difference):
        return "nan/inf"
    return format_number(check.difference)


def _where_text(check: GradientCheck) -> str:
    if check.where is None or not check.where or check.right:
        return ""
    return "[" + ", ".join(str(i) for i in check.where) + "]"


def _note(check: GradientCheck, comparison: Comparison) -> str:
    if check.problem == "shape":
        if tuple(reversed(check.your_shape)) == check.shape and len(check.shape) > 1:
            return MESSAGES.say("transposed")
        if _sums_to(check.your_shape, check.shape):
            return MESSAGES.say("not summed")
        return ""
    if check.problem == "dtype":
        return MESSAGES.say(
            "dtype differs", yours=_dtype(check.your_dtype), autograd=_dtype(check.dtype)
        )
    if check.right:
        return ""
    if check.name == comparison.first_wrong:
        return MESSAGES.say("fix first")
    if check.inherited:
        wrong = [name for name in check.follows_from if not comparison[name].right]
        return MESSAGES.say("inherits", names=_listed(wrong))
    return MESSAGES.say("own mistake")


def _sums_to(yours: tuple[int, ...], shape: tuple[int, ...]) -> bool:
    """Could ``yours`` be summed down to ``shape`` (a bias gradient still per example)?"""
    try:
        return torch.empty(yours, device="meta").sum_to_size(shape).shape == shape
    except RuntimeError:
        return False


def _dtype(dtype: torch.dtype) -> str:
    return str(dtype).removeprefix("torch.")


def _rows(comparison: Comparison) -> list[tuple[str, ...]]:
    return [
        (
            check.name,
            check.yours or "",
            _mark(check),
            _difference_text(check),
            _where_text(check),
            _note(check, comparison),
        )
        for check in comparison.checks
    ]


def _headers() -> tuple[str, ...]:
    keys = ("tensor", "your gradient", "right", "largest difference", "where", "note")
    return tuple(MESSAGES.say(key) for key in keys)


def _power_of_ten(number: float) -> str:
    """1e-4 as a learner writes it (Python's format gives 0.0001 or 1e-04)."""
    mantissa, exponent = f"{number:e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def _listed(names: Sequence[str]) -> str:
    """``a``, ``a and b``, ``a, b and c`` (a、b 和 c)."""
    if len(names) < 2:
        return "".join(names)
    first = MESSAGES.say("list separator").join(names[:-1])
    return MESSAGES.say("and", first=first, last=names[-1])


def _verdict(comparison: Comparison) -> str:
    checks = comparison.checks
    tolerance = _power_of_ten(max(check.tolerance for check in checks))
    if comparison.all_right:
        if len(checks) == 1:
            return MESSAGES.say("one right", name=checks[0].name, tolerance=tolerance)
        return MESSAGES.say("all right", count=len(checks), tolerance=tolerance)
    first = comparison[comparison.first_wrong]
    if first.yours:
        sentences = [MESSAGES.say("fix, yours", name=first.name, yours=first.yours)]
    else:
        sentences = [MESSAGES.say("fix", name=first.name)]
    right_inputs = [name for name in first.follows_from if comparison[name].right]
    if right_inputs:
        sentences.append(MESSAGES.say("its inputs are right", names=_listed(right_inputs)))
    elif not first.follows_from:
        sentences.append(MESSAGES.say("nearest the output"))
    inheriting = [c.name for c in checks if c.inherited]
    if inheriting:
        key = "inherited, one" if len(inheriting) == 1 else "inherited, many"
        sentences.append(MESSAGES.say(key, names=_listed(inheriting)))
    others = [c.name for c in checks if not c.right and not c.inherited and c is not first]
    if others:
        key = "also wrong, one" if len(others) == 1 else "also wrong, many"
        sentences.append(MESSAGES.say(key, names=_listed(others)))
    sentences.append(MESSAGES.say("tolerance", tolerance=tolerance))
    text = sentences[0]
    for sentence in sentences[1:]:
        text = MESSAGES.say("then", first=text, second=sentence)
    return text

"""What a record keeps of a gradient, and how two gradients are compared, to the last bit.

A gradient of at most `KEPT_WHOLE` numbers is kept whole (a copy); a larger one as a
`GradientSummary`: its shape, dtype, norms, first values and a hash of its bytes. So a trace, and
grad's check, cost about the memory of the pass they watch. `same_bits` compares two sequences of
gradients, whole or summarised, bit for bit: -0.0 is not 0.0, and a NaN equals itself.
"""

from __future__ import annotations

import hashlib
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

import torch

from helpers.graph.transforms import wrapper_layers

Gradients = tuple[torch.Tensor | None, ...]


# Gradients of at most this many numbers are kept whole by `trace` and `grad`; larger ones as a
# `GradientSummary`. Keeping every gradient of a pass whole costs ten times the memory of the pass
# itself on a real network (every gradient in and out of every node), and a table or a picture
# shows a large gradient only by its shape and dtype anyway.
KEPT_WHOLE = 1_000


@dataclass(frozen=True, eq=False)
class GradientSummary:
    """A large gradient as `trace` keeps it: its shape, dtype and a few numbers, not every value.

    ``first`` holds its first few values (in the order ``g.flatten()`` lists them), ``norm`` its
    length (``torch.linalg.vector_norm(g)``) and ``largest`` its largest absolute value. Tables
    and pictures show it as they show any tensor of its size: shape and dtype. ``digest`` is a
    hash of its bytes: two gradients with equal digests are equal to the last bit, which is how a
    summary is compared (``changed_by_hook``, `grad`'s check). To keep the gradients whole, call
    ``trace(y, keep_gradients=True)``.
    """

    shape: torch.Size
    dtype: torch.dtype
    device: torch.device
    layout: torch.layout
    first: tuple
    norm: float
    largest: float
    digest: bytes
    is_nested: bool = False  # read by helpers.graph.model.describe, as of a tensor

    def numel(self) -> int:
        return math.prod(self.shape)

    def dim(self) -> int:
        return len(self.shape)

    @property
    def is_sparse(self) -> bool:
        return self.layout == torch.sparse_coo

    def __repr__(self) -> str:
        dtype = str(self.dtype).removeprefix("torch.")
        first = ", ".join(f"{value:.4g}" for value in self.first)
        return (
            f"GradientSummary({tuple(self.shape)}, {dtype}, norm={self.norm:.4g}, "
            f"largest={self.largest:.4g}, first=[{first}, …])"
        )


# --- keeping a gradient ---------------------------------------------------------------------------


def kept_gradients(grads: Iterable[torch.Tensor | None], keep_whole: bool = False) -> Gradients:
    """The gradients as a record keeps them: a copy of each of at most `KEPT_WHOLE` numbers (of
    each, with ``keep_whole``), a `GradientSummary` of each larger one."""
    return tuple(None if g is None else kept_gradient(g, keep_whole) for g in grads)


def kept_gradient(g: torch.Tensor, keep_whole: bool) -> torch.Tensor | GradientSummary:
    if keep_whole or kept_whole(g):
        return g.detach().clone()  # as `copied` copies
    return summary_of(g)


def kept_whole(g: torch.Tensor) -> bool:
    # A meta tensor holds no numbers: it costs nothing. A nested one is kept as it is, and so is
    # one inside torch.func.grad, whose bytes cannot be read while the transform runs (NOTE
    # [torch.func transforms]).
    return (
        g.is_nested or g.numel() <= KEPT_WHOLE or g.device.type == "meta" or bool(wrapper_layers(g))
    )


def summary_of(g: torch.Tensor) -> GradientSummary:
    flat = _flat(g)
    if flat.is_complex():
        largest = float(flat.abs().max())
    else:  # two numbers to compare: quicker than vector_norm(ord=inf), which makes abs() first
        least, most = torch.aminmax(flat)
        largest = max(abs(float(least)), abs(float(most)))
    return GradientSummary(
        shape=g.shape,
        dtype=g.dtype,
        device=g.device,
        layout=g.layout,
        first=tuple(flat[:4].tolist()),
        norm=float(torch.linalg.vector_norm(flat)),
        largest=largest,
        digest=_digest(flat),
    )


def _flat(g: torch.Tensor) -> torch.Tensor:
    """The numbers of a gradient, in order, in one plain row on the CPU (a copy only where
    needed: a sparse or an expanded gradient, one on another device)."""
    values = g.detach()
    if values.layout != torch.strided:  # sparse: the numbers it stands for
        values = values.to_dense()
    return values.resolve_conj().resolve_neg().reshape(-1).cpu().contiguous()


def _digest(flat: torch.Tensor) -> bytes:
    """A hash of a plain row's bytes: equal hashes, equal bits (-0.0 is not 0.0, and a NaN
    equals itself)."""
    return hashlib.sha1(flat.view(torch.uint8).numpy()).digest()


def copied(grads: Iterable[torch.Tensor | None]) -> Gradients:
    # Detached, so no graph is kept alive; cloned, because AccumulateGrad may keep the very tensor
    # it received as `.grad`, later backward passes add into that in place, and a hook may change
    # a gradient in place after we saw it.
    return tuple(None if g is None else g.detach().clone() for g in grads)


# --- comparing gradients --------------------------------------------------------------------------


def same_bits(first: Sequence, second: Sequence) -> bool:
    """Are the two sequences of gradients identical, None for None and bit for bit?"""
    if len(first) != len(second):
        return False
    return all(same_tensor(a, b) for a, b in zip(first, second, strict=True))


def same_tensor(a: torch.Tensor | None, b: torch.Tensor | None) -> bool:
    if a is None or b is None:
        return a is None and b is None
    if a.dtype != b.dtype or a.shape != b.shape or a.layout != b.layout:
        return False
    if isinstance(a, GradientSummary) or isinstance(b, GradientSummary):
        return _digest_of(a) == _digest_of(b)  # a summary keeps a hash of its bits
    if a.layout != torch.strided:  # sparse: compare what the entries hold
        a, b = a.to_dense(), b.to_dense()
    if a.device.type == "meta" or b.device.type == "meta":
        return a.device == b.device  # no values to compare
    # Bits, not values: torch.equal calls -0.0 and 0.0 equal, and NaN unequal to itself.
    # A fresh copy with plain strides: an expanded gradient's stride 0 cannot be viewed as bytes.
    flat = [t.detach().reshape(-1).clone(memory_format=torch.contiguous_format) for t in (a, b)]
    as_bytes = [t.view(torch.uint8) for t in flat]
    return torch.equal(*as_bytes)


def _digest_of(g: torch.Tensor | GradientSummary) -> bytes:
    return g.digest if isinstance(g, GradientSummary) else _digest(_flat(g))

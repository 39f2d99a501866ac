"""A trace as a table: one row per step, with the node, the gradients in, and where each went.

It is how a notebook shows a `Trace` (its ``repr`` and ``_repr_html_``), and the text beside its
pictures (`helpers.backward.view`). It reads the steps' data and nothing else, so that a trace
shows itself without the view. Where a hook changed the gradient on its way into a node, the
table shows both: ``[6.0, 12.0] → hook → [0.0, 0.0]``, what was sent, then what the node
received. Its words follow `helpers.set_language` (`VIEW_MESSAGES`); the names of nodes and
tensors stay as PyTorch writes them.
"""

from __future__ import annotations

import html
from collections.abc import Iterable, Mapping, Sequence

import torch
from torch.autograd.graph import Node

from helpers.backward.engine import short_name
from helpers.backward.gradients import GradientSummary, same_bits
from helpers.backward.messages import VIEW_MESSAGES
from helpers.backward.records import Step
from helpers.graph import resolve_names
from helpers.graph.model import describe, gradient_edge
from helpers.text import columns

# A table longer than this shows its first and last rows only.
MAX_ROWS = 60
# An inline style: a notebook's HTML output has no stylesheet of its own.
CELL_STYLE = "style='text-align:left'"

Names = Mapping[str, torch.Tensor] | Iterable[tuple[str, torch.Tensor]] | None
NamePairs = list[tuple[str, torch.Tensor]]


def as_text(trace: Sequence[Step], names: Names = None) -> str:
    """The steps as a plain-text table, one line per step. ``names`` as in `helpers.graph.draw`."""
    return text_table(table_rows(trace, name_pairs(names)))


def as_html(trace: Sequence[Step], names: Names = None) -> str:
    """The steps as an HTML table, one row per step. ``names`` as in `helpers.graph.draw`."""
    return html_table(table_rows(trace, name_pairs(names)))


def _headers() -> tuple[str, ...]:
    return tuple(
        VIEW_MESSAGES.say(key) for key in ("step", "node", "gradients in", "gradients out")
    )


def text_table(rows: list[tuple[str, ...]]) -> str:
    return grid_text(_headers(), _shown(rows))


def html_table(rows: list[tuple[str, ...]]) -> str:
    return grid_html(_headers(), _shown(rows))


def grid_text(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """``rows`` under ``headers`` in aligned columns of plain text (Chinese counts as two)."""
    rows = [headers, *rows]
    widths = [max(columns(row[column]) for row in rows) for column in range(len(rows[0]))]
    lines = [
        "  ".join(cell + " " * (w - columns(cell)) for cell, w in zip(row, widths, strict=True))
        for row in rows
    ]
    return "\n".join(line.rstrip() for line in lines)


def grid_html(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """``rows`` under ``headers`` as an HTML table, each cell's text escaped."""

    def row_html(cells: Iterable[str], tag: str) -> str:
        return (
            "<tr>"
            + "".join(f"<{tag} {CELL_STYLE}>{html.escape(c)}</{tag}>" for c in cells)
            + "</tr>"
        )

    body = "".join(row_html(row, "td") for row in rows)
    return f"<table><thead>{row_html(headers, 'th')}</thead><tbody>{body}</tbody></table>"


def table_rows(trace: Sequence[Step], named: NamePairs) -> list[tuple[str, str, str, str]]:
    """Each step as table cells: number, node, gradients in, gradients out and where they went."""
    leaf_names = _leaf_names(named)

    def label(node: Node) -> str:
        name = short_name(node)
        if node in leaf_names:
            return VIEW_MESSAGES.say("node of leaf", node=name, leaf=leaf_names[node])
        return name

    def sent(number: int, step: Step) -> str:
        if step.name == "AccumulateGrad":
            if step.node in leaf_names:
                return VIEW_MESSAGES.say("added to grad", leaf=leaf_names[step.node])
            return VIEW_MESSAGES.say("added to the leaf's grad")
        if not step.sent:
            return VIEW_MESSAGES.say("nothing sent")
        parts = []
        for node, g in step.sent:
            part = f"{value_text(g)} → {label(node)}"
            later = _next_run(trace, node, after=number)
            if later is not None:
                part += VIEW_MESSAGES.say("used at step", number=later)
            parts.append(part)
        return VIEW_MESSAGES.say("between").join(parts)

    rows = []
    for number, step in enumerate(trace, start=1):
        rows.append((str(number), label(step.node), _received(step), sent(number, step)))
    return rows


def _next_run(trace: Sequence[Step], node: Node, after: int) -> int | None:
    """The number of the first step after step ``after`` that runs ``node``: where what was sent
    to it is used. (A node can run twice: a leaf inside and outside a reentrant checkpoint.)"""
    for number in range(after + 1, len(trace) + 1):
        if trace[number - 1].node is node:
            return number
    return None


def _received(step: Step) -> str:
    """What the node received; where a hook changed it, what was sent, then what it became."""
    arrived = step.grads_arrived or [None] * len(step.grads_in)
    texts = []
    for before, after in zip(arrived, step.grads_in, strict=True):
        if step.grads_arrived is not None and not same_bits((before,), (after,)):
            texts.append(
                f"{value_text(before)} → {VIEW_MESSAGES.say('hook')} → {value_text(after)}"
            )
        else:
            texts.append(value_text(after))
    return ", ".join(texts)


def _shown(rows: list) -> list:
    """All rows, or the first and last ones with a row saying how many are left out."""
    if len(rows) <= MAX_ROWS:
        return rows
    last = 9  # rows kept from the end; one more row says how many are left out
    head, tail = rows[: MAX_ROWS - last - 1], rows[-last:]
    left_out = len(rows) - len(head) - len(tail)
    return [*head, ("…", VIEW_MESSAGES.say("more steps", count=left_out), "", ""), *tail]


def _leaf_names(named: NamePairs) -> dict[Node, str]:
    """The name of the leaf behind each AccumulateGrad node: the first name given for it."""
    found: dict[Node, str] = {}
    for name, tensor in named:
        if tensor.is_leaf and tensor.requires_grad:
            node, _ = gradient_edge(tensor)
            if node is not None:
                found.setdefault(node, name)
    return found


def value_text(g: torch.Tensor | GradientSummary | None) -> str:
    # A summary is described as a tensor of its size is: its shape and dtype.
    return "None" if g is None else describe(g)


def name_pairs(names: Names) -> NamePairs:
    """The names given, then the variables of the notebook, as every picture names tensors.

    When IPython shows a `Trace` by itself, the code calling this is IPython's: the notebook's
    variables come from IPython's namespace then (see `helpers.graph.resolve_names`).
    """
    return resolve_names(names)

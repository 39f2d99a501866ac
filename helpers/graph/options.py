"""The options `draw`, `build` and `explore` share, checked once into one record.

Each public function keeps its own keyword arguments, so that ``help(draw)`` lists them, and
hands them to `Options.checked`, which refuses a wrong one with a sentence that says what to
pass. What is not an option (the output itself, ``names``) is checked here too: the output
becomes a list of root tensors (`roots`).
"""

from __future__ import annotations

from collections.abc import Collection
from dataclasses import dataclass, replace
from typing import Any

import torch

from helpers.graph.messages import MESSAGES
from helpers.graph.model import MARKS, Graph

# Enough for any graph a lesson draws; beyond it a picture stops being readable anyway.
DEFAULT_MAX_NODES = 200
DIRECTIONS = ("auto", "forward", "backward")

Mark = tuple[str, torch.Tensor, str]  # a tensor compared by `compare`: (name, tensor, mark)


@dataclass(frozen=True)
class Options:
    """What a picture of a graph is asked to show, checked (see `draw` for each)."""

    show_values: bool = True
    show_grads: bool = True
    show_saved: bool = False
    max_nodes: int | None = DEFAULT_MAX_NODES
    expand: tuple[str, ...] = ()
    fold: bool = True
    marks: tuple[Mark, ...] = ()
    direction: str = "auto"

    @classmethod
    def checked(
        cls,
        *,
        show_values: Any = True,
        show_grads: Any = True,
        show_saved: Any = False,
        max_nodes: Any = DEFAULT_MAX_NODES,
        expand: Any = None,
        fold: Any = True,
        marks: Any = None,
        direction: Any = "auto",
    ) -> Options:
        shown = {"show_values": show_values, "show_grads": show_grads, "show_saved": show_saved}
        for option, value in {**shown, "fold": fold}.items():
            if not isinstance(value, bool):
                raise TypeError(MESSAGES.say("not_true_or_false", option=option, value=value))
        if direction not in DIRECTIONS:
            raise ValueError(MESSAGES.say("bad_draw_direction", value=direction))
        return cls(
            **shown,
            max_nodes=_checked_max_nodes(max_nodes),
            expand=_checked_expand(expand),
            fold=fold,
            marks=tuple(_checked_marks(marks)),
            direction=direction,
        )

    @property
    def walk(self) -> dict[str, bool]:
        """What the walk of the graph records in each box (`build_graph`'s options)."""
        return {
            "show_values": self.show_values,
            "show_grads": self.show_grads,
            "show_saved": self.show_saved,
        }

    @property
    def quick(self) -> bool:
        """Whether max_nodes was left to the default, which promises a quick picture."""
        return self.max_nodes == DEFAULT_MAX_NODES

    def named(self, names: list[tuple[str, torch.Tensor]]) -> list[tuple[str, torch.Tensor]]:
        """The names of the picture: the marked tensors' first, then ``names``."""
        return [(name, tensor) for name, tensor, _ in self.marks] + names


def roots(output: Any) -> list[torch.Tensor]:
    """The tensors a picture starts from: ``output``, or each tensor of a list, once."""
    if isinstance(output, torch.Tensor):
        return [output]
    if output is None:
        raise TypeError(MESSAGES.say("got_none"))
    if not isinstance(output, (list, tuple)):
        number = isinstance(output, (int, float, complex))  # from .item() or float()
        kind = "number_has_no_graph" if number else "not_a_tensor"
        raise TypeError(MESSAGES.say(kind, got=type(output).__name__))
    if not output:
        raise ValueError(MESSAGES.say("empty_list"))
    found: list[torch.Tensor] = []
    for position, item in enumerate(output):
        if not isinstance(item, torch.Tensor):
            got = type(item).__name__
            raise TypeError(MESSAGES.say("item_not_a_tensor", position=position, got=got))
        if not any(item is root for root in found):
            found.append(item)
    return found


def with_marks(model: Graph, marks: Collection[Mark]) -> Graph:
    """The model with each marked tensor's box marked (matched by identity)."""
    if not marks:
        return model
    mark_of = {id(tensor): mark for _, tensor, mark in marks}
    boxes = []
    for node in model.nodes:
        tensor = getattr(node.fn, "variable", None)  # a leaf's, through its AccumulateGrad
        if tensor is None and node.tensor is not None:
            tensor = node.tensor()
        mark = mark_of.get(id(tensor)) if tensor is not None else None
        boxes.append(node if mark is None or node.same_as else replace(node, mark=mark))
    return replace(model, nodes=boxes)


def _checked_max_nodes(max_nodes: Any) -> int | None:
    if max_nodes is not None and (
        isinstance(max_nodes, bool) or not isinstance(max_nodes, int) or max_nodes < 1
    ):
        raise ValueError(MESSAGES.say("bad_max_nodes", value=max_nodes))
    return max_nodes


def _checked_expand(expand: Any) -> tuple[str, ...]:
    if expand is None:
        return ()
    if isinstance(expand, str):
        return (expand,)
    if isinstance(expand, Collection) and all(isinstance(path, str) for path in expand):
        return tuple(expand)
    raise TypeError(MESSAGES.say("bad_expand", got=type(expand).__name__))


def _checked_marks(marks: Any) -> list[Mark]:
    """``marks=`` as (name, tensor, mark) triples: a comparison's, or the triples given."""
    if marks is None:
        return []
    if hasattr(marks, "marks") and callable(marks.marks):
        marks = marks.marks()
    try:
        triples = [tuple(item) for item in marks]
    except TypeError:
        raise TypeError(MESSAGES.say("bad_marks", got=type(marks).__name__)) from None
    for triple in triples:
        if not (
            len(triple) == 3
            and isinstance(triple[0], str)
            and isinstance(triple[1], torch.Tensor)
            and triple[2] in MARKS
        ):
            raise TypeError(MESSAGES.say("bad_marks", got=type(marks).__name__))
    return triples

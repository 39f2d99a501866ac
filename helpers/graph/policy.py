"""The cut policy: which picture of a model a call draws, how far it is cut, and what its
caption offers.

A learner who leaves ``max_nodes`` to the default is promised a quick picture: it is cut where
its layout is estimated slow (`DEFAULT_SECONDS`), between two layers of a stack rather than
through one. A caption offers the most Nodes that lay out within `SUGGESTED_SECONDS` and fit on
a screen; a picture estimated to take over `MAX_SECONDS` is refused before Graphviz starts,
with that offer (`GraphTooLarge`). Every estimate is read off one plan of the whole model's
picture and one pass over its rows (`Cuts`), not off pictures built and planned one after
another. A recorded model is framed and folded by module first (`by_module`).
"""

from __future__ import annotations

import difflib
from collections import Counter
from collections.abc import Collection
from dataclasses import replace

from helpers.graph import modules
from helpers.graph.cut import add_references, cut, cut_note, in_layers, reference_notes
from helpers.graph.layout import CUT_ERROR, CutEstimates, Plan, plan
from helpers.graph.messages import MESSAGES
from helpers.graph.model import NODES_SAFE_TO_SEE, Graph, why_nodes_safe_to_see
from helpers.graph.options import DEFAULT_MAX_NODES

# A picture drawn with the default max_nodes is cut further if its layout is estimated to take
# longer than this; any picture estimated to take longer than MAX_SECONDS is refused before
# Graphviz starts. Captions and errors suggest pictures of at most SUGGESTED_SECONDS.
DEFAULT_SECONDS = 1.0
MAX_SECONDS = 30.0
SUGGESTED_SECONDS = 10.0
# Nor do they offer a picture nobody could read: taller than this many rows (about 60 px each: a
# column some 25,000 px long) or wider than this many boxes side by side on a row.
SUGGESTED_ROWS = 400
SUGGESTED_ACROSS = 40
# A picture of more rows than this (about three screens) is drawn backward by default: drawn
# forward, its first screen would show the inputs at the top and the output thousands of
# pixels below, where a learner looks first.
FORWARD_ROWS = 45


class GraphTooLarge(ValueError):
    """The picture asked for is too big: Graphviz would take too long to lay it out (``source``
    has its DOT), or the graph has more Nodes than the helpers look at (``source`` is None)."""

    def __init__(self, message: str, source: str | None) -> None:
        super().__init__(message)
        self.source = source


class Cuts:
    """The pictures of one model, cut after any number of its Nodes, and the seconds each is
    estimated to take to lay out: the whole picture's from its own plan, which its drawing then
    uses, every cut's from one pass over the model, on the whole picture's rows, as far as it is
    needed (`CutEstimates`). Each is worked out once, when first needed."""

    def __init__(
        self, model: Graph, labelled: Collection[tuple[str, str]], layer_ends: list[int] = ()
    ) -> None:
        self.model = model
        self.labelled = labelled  # the arrows with a label, which dot pays for
        # Where each layer of a stack ends, counted in Nodes from the output (cut.in_layers).
        self.layer_ends = list(layer_ends)
        self._whole: tuple[Graph, dict[str, int], Plan] | None = None
        self._estimates: CutEstimates | None = None

    def seconds(self, nodes: int) -> float:
        """The estimated seconds of the picture of the first ``nodes`` Nodes."""
        if nodes >= self.model.walked_nodes:
            return self._planned_whole()[2].estimated_seconds
        return self._cut_estimates()[nodes]

    def picture(self, nodes: int, planned: bool) -> tuple[Graph, dict[str, int], Plan | None]:
        """The picture of the first ``nodes`` Nodes, with reference boxes; the uses of each box
        they repeat; and its plan, if ``planned`` or already made."""
        if nodes >= self.model.walked_nodes and (planned or self._whole is not None):
            return self._planned_whole()
        if nodes >= self.model.walked_nodes:
            return (*add_references(self.model), None)
        picture, uses = add_references(cut(self.model, nodes))
        return picture, uses, plan(picture, self.labelled) if planned else None

    def readable(self, nodes: int) -> bool:
        """Whether the picture of the first ``nodes`` Nodes is one a learner can read on a
        screen: at most `SUGGESTED_ROWS` rows tall and `SUGGESTED_ACROSS` boxes wide."""
        if nodes >= self.model.walked_nodes:
            layout = self._planned_whole()[2]
            rows, across = layout.rows, max(Counter(layout.height.values()).values(), default=0)
        else:
            rows, across = self._cut_estimates().extent(nodes)
        return rows <= SUGGESTED_ROWS and across <= SUGGESTED_ACROSS

    def most_within(self, seconds: float) -> int:
        """The most Nodes, fewer than all, whose cut pictures are all estimated to lay out
        within ``seconds`` and are readable (one at least). A cut's estimate can be short of
        its own plan's: each counts as within only with room for that (`CUT_ERROR`)."""
        most = 1
        while (
            most + 1 < self.model.walked_nodes
            and self.seconds(most + 1) * CUT_ERROR <= seconds
            and self.readable(most + 1)
        ):
            most += 1
        return most

    def _planned_whole(self) -> tuple[Graph, dict[str, int], Plan]:
        if self._whole is None:
            picture, uses = add_references(self.model)
            self._whole = (picture, uses, plan(picture, self.labelled))
        return self._whole

    def _cut_estimates(self) -> CutEstimates:
        if self._estimates is None:
            picture, _, layout = self._planned_whole()
            self._estimates = CutEstimates(picture, layout, self.labelled)
        return self._estimates


def choose_picture(
    cuts: Cuts, max_nodes: int | None, planned: bool, quick: bool
) -> tuple[Graph, Plan]:
    """The picture `draw` makes with ``max_nodes``, captioned, and its plan if ``planned`` (or
    if choosing the picture made it; else None). ``quick``: the learner left max_nodes to the
    default, which promises a quick picture, folded or not (folding keeps a model's own Nodes
    few, not those around it: a loss that sums a term over every parameter)."""
    model = cuts.model
    nodes = model.walked_nodes if max_nodes is None else max_nodes
    if quick:
        # The default promises a quick picture: cut further where the Nodes make a slow one,
        # and between two layers of a stack rather than through one.
        while cuts.seconds(nodes) > DEFAULT_SECONDS and nodes > 1:
            nodes //= 2
        nodes = max((end for end in cuts.layer_ends if end <= nodes), default=nodes)
    picture, uses, layout = cuts.picture(nodes, planned=planned or quick)
    # A cut's estimate can be short of its own plan's, which has the last word.
    while quick and layout.estimated_seconds > DEFAULT_SECONDS and nodes > 1:
        nodes //= 2
        picture, uses, layout = cuts.picture(nodes, planned=True)
    notes = [*picture.notes, *reference_notes(picture, uses)]
    if picture.drawn_nodes < picture.total_nodes:
        # Where the walk stopped before the end, drawing all it went through is all there is.
        whole = picture.drawn_nodes == model.walked_nodes
        layers = cuts.layer_ends.index(nodes) + 1 if nodes in cuts.layer_ends else None
        more = model.walked_nodes if whole else offer(cuts)
        notes.append(cut_note(picture, more, layers))
    return replace(picture, notes=notes), layout


def offer(cuts: Cuts, below: int | None = None) -> int | None:
    """The max_nodes a caption offers, or an error fewer than ``below``: the most Nodes whose
    picture is estimated to lay out within SUGGESTED_SECONDS and is readable on a screen (see
    `Cuts.readable`), as a number a learner can type; None for all of them."""
    model = cuts.model
    whole = model.walked_nodes
    if below is None and cuts.seconds(whole) <= SUGGESTED_SECONDS and cuts.readable(whole):
        return None if model.walked_all else _round_down(model.walked_nodes)
    most = cuts.most_within(SUGGESTED_SECONDS)
    return _round_down(most if below is None else min(most, below - 1))


def direction_of(direction: str, layout: Plan) -> str:
    """The direction a picture is drawn in: "auto" is forward up to `FORWARD_ROWS` rows, and
    backward for a taller picture, which then opens at its output."""
    if direction != "auto":
        return direction
    return "forward" if layout.rows <= FORWARD_ROWS else "backward"


def by_module(
    model: Graph, expand: tuple[str, ...], fold: bool, max_nodes: int | None
) -> tuple[Graph, int | None, list[int]]:
    """The model framed by module, and folded where it is too big to read whole; the max_nodes
    to cut it with (a folded picture is drawn whole, since folding made it fit); and, for a
    model not recorded whose parameters are named as layers, where each layer ends (its Nodes
    are then counted from the output layer by layer, so that cuts keep layers whole)."""
    found, folded, expand = folding(model, expand, fold)
    if not found.recorded:
        return layered(model, max_nodes)
    return (*folded_model(model, found, folded, expand, max_nodes), [])


def layered(model: Graph, max_nodes: int | None) -> tuple[Graph, int | None, list[int]]:
    """An unrecorded model counted layer by layer where its parameters name layers."""
    layered, ends = in_layers(model)
    return layered, max_nodes, ends


def folding(
    model: Graph, expand: tuple[str, ...], fold: bool
) -> tuple[modules.Modules, set[str], tuple[str, ...]]:
    """Which module made each box of ``model``, the modules its picture folds, and the modules
    drawn whole (``expand``, each a module of the model)."""
    found = modules.modules_of(model)
    if not found.recorded:
        if expand:
            raise ValueError(MESSAGES.say("expand_needs_recording"))
        return found, set(), expand
    for path in expand:
        if path not in found.types:
            raise ValueError(_unknown_module_message(path, found.types))
    folded = modules.default_folding(model, found, expand) if fold else set()
    return found, folded, expand


def folded_model(
    model: Graph,
    found: modules.Modules,
    folded: Collection[str],
    apart: Collection[str],
    max_nodes: int | None,
    interactive: bool = False,
) -> tuple[Graph, int | None]:
    """The model with ``folded`` modules folded (those in ``apart`` kept out of runs), and the
    max_nodes to cut it with: a folded picture is drawn whole where it is quick to lay out,
    since folding made it fit (`choose_picture` cuts it where it is not)."""
    picture = modules.fold(model, found, set(folded), apart)
    note = modules.folding_note(picture, set(folded), interactive)
    if note is None:
        return picture, max_nodes
    picture = replace(picture, notes=[*picture.notes, note])
    return picture, (None if max_nodes == DEFAULT_MAX_NODES else max_nodes)


def _unknown_module_message(path: str, known: Collection[str]) -> str:
    close = difflib.get_close_matches(path, [p for p in known if p], n=3, cutoff=0.5)
    if close:
        return MESSAGES.say("unknown_module_nearest", path=path, nearest=", ".join(close))
    return MESSAGES.say("unknown_module", path=path)


def check_walk(model: Graph, max_nodes: int | None) -> None:
    """Refuse to draw more Nodes than the walk went through, in a graph it did not walk whole
    (the default picture draws what it found)."""
    if model.walked_all or max_nodes == DEFAULT_MAX_NODES:
        return
    if max_nodes is None or max_nodes > model.walked_nodes:
        raise GraphTooLarge(too_many_nodes_message(model), None)


def too_large_message(model: Graph, layout: Plan, max_nodes: int | None, smaller: int) -> str:
    if max_nodes is None:
        asked = MESSAGES.say("all_of_them")
    else:
        asked = MESSAGES.say("some_of_them", count=model.drawn_nodes)
    return MESSAGES.say(
        "too_large",
        asked=asked,
        total=model.total_nodes,
        boxes=len(model.nodes),
        rows=layout.rows,
        seconds=layout.estimated_seconds,
        limit=MAX_SECONDS,
        smaller=smaller,
    )


def too_many_nodes_message(model: Graph) -> str:
    return MESSAGES.say(
        "too_many_nodes",
        seen=NODES_SAFE_TO_SEE,
        why=why_nodes_safe_to_see(),
        most=model.walked_nodes,
    )


def _round_down(number: int) -> int:
    """A number a learner can type: 1,234 -> 1,200."""
    if number < 100:
        return max(number, 1)
    digits = 10 ** (len(str(number)) - 2)
    return number // digits * digits

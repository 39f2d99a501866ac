"""`explore`'s pictures: the graph `draw` draws, in the view (`helpers.view`), folded and
unfolded by module as the learner clicks, each picture drawn by the same pipeline as `draw`.

What the kernel keeps: weak references to your tensors, and, while the tensors the picture was
drawn from live, the model of their graph (its boxes hold the graph's Nodes, which those tensors
hold anyway). Once you let go of them the model goes too, and the view says so when asked.
"""

from __future__ import annotations

import json
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import torch

from helpers.graph import modules
from helpers.graph.captions import caption
from helpers.graph.dot import caption_notes, to_dot
from helpers.graph.layout import Plan
from helpers.graph.messages import MESSAGES
from helpers.graph.model import MODULE, SUMMARY, Graph, build_graph
from helpers.graph.modules import folded_at, opened_to, unfolded
from helpers.graph.options import Options, with_marks
from helpers.graph.panel import (
    PictureSource,
    Walked,
    box_of,
    frame_of,
    gone,
    home_of,
    module_details,
    read_box,
    say,
    search_index,
    without_nodes,
)
from helpers.graph.policy import (
    MAX_SECONDS,
    Cuts,
    GraphTooLarge,
    check_walk,
    choose_picture,
    direction_of,
    folded_model,
    folding,
    layered,
    offer,
    too_large_message,
)
from helpers.graph.render import Drawing
from helpers.view import forget_with, inline_svg, script

# The default view keeps what it sends to the page under this many bytes: a notebook that opens
# soon, and a saved one that stays small.
VIEW_BYTES = 500_000


@dataclass(frozen=True)
class Shown:
    """One picture of a view: its model; as the view shows it, its caption's notes said below
    it instead (``notes``); and as `draw` draws it, caption and all, for where the view does
    not run (``still``)."""

    picture: Graph
    view: Drawing
    still: Drawing
    notes: list[str]


class _Gone(Exception):
    """The tensors a view was drawn from are gone."""


@dataclass(frozen=True)
class Pictures:
    """How `explore` makes its model and its pictures: the way `draw` does, with draw's options
    (never the tensors: not the marked ones either, which the view holds weakly)."""

    options: Options

    def model(
        self,
        roots: list[torch.Tensor],
        named: list[tuple[str, torch.Tensor]],
        marked: list[tuple[str, torch.Tensor, str]],
    ) -> Walked:
        model = build_graph(roots, named, **self.options.walk)
        check_walk(model, self.options.max_nodes)
        found, folded, expand = folding(model, self.options.expand, self.options.fold)
        return Walked(with_marks(model, marked), found, frozenset(folded), frozenset(expand))

    def picture(self, walked: Walked) -> Shown:
        """The picture of ``walked`` as folded now: as the view shows it (its caption's notes
        apart, said below it) and as `draw` would draw it, for where the view cannot run."""
        model, max_nodes, notes_now, ends = walked.model, self.options.max_nodes, {}, []
        if walked.modules.recorded:
            folded = set(walked.folded)
            model, max_nodes = folded_model(model, walked.modules, folded, walked.apart, max_nodes)
            # The caption says how to unfold with draw's arguments; below the view, with a click.
            said = modules.folding_note(model, folded)
            notes_now = {said: modules.folding_note(model, folded, interactive=True)}
        else:
            model, max_nodes, ends = layered(model, max_nodes)
        cuts = Cuts(model, {}, ends)
        quick = self.options.quick
        picture, layout = choose_picture(cuts, max_nodes, planned=True, quick=quick)
        shown = self._shown(cuts, picture, layout, max_nodes, notes_now)
        # The default promises a view that opens soon: one that sends more than VIEW_BYTES to
        # the page is cut further, as draw cuts a slow picture, and its caption says why.
        while quick and view_bytes(shown, walked) > VIEW_BYTES and picture.drawn_nodes > 1:
            kept = next((n.walk_order for n in picture.nodes if n.kind == SUMMARY), None)
            kept = kept if kept is not None else model.walked_nodes
            share = 0.9 * VIEW_BYTES / view_bytes(shown, walked)
            smaller = max(1, min(kept - 1, int(kept * share)))
            picture, layout = choose_picture(cuts, smaller, planned=True, quick=False)
            note = caption("cut for the view", most=VIEW_BYTES // 1000)
            picture = replace(picture, notes=[*picture.notes, note])
            shown = self._shown(cuts, picture, layout, max_nodes, notes_now)
        return shown

    def _shown(
        self,
        cuts: Cuts,
        picture: Graph,
        layout: Plan,
        max_nodes: int | None,
        notes_now: Mapping[str, str],
    ) -> Shown:
        direction = direction_of(self.options.direction, layout)
        source = to_dot(picture, direction=direction, layout=layout, ids=True)
        if layout.estimated_seconds > MAX_SECONDS:
            smaller = offer(cuts, below=picture.drawn_nodes)
            raise GraphTooLarge(too_large_message(picture, layout, max_nodes, smaller), source)
        seconds = layout.estimated_seconds
        uncaptioned = to_dot(picture, direction=direction, layout=layout, ids=True, captioned=False)
        notes = [notes_now.get(note, note) for note in caption_notes(picture, direction)]
        return Shown(
            picture,
            Drawing(uncaptioned, estimated_seconds=seconds),
            Drawing(source, estimated_seconds=seconds),
            notes,
        )


def view_bytes(shown: Shown, walked: Walked) -> int:
    """About how much the view of ``shown`` sends to the page: its picture three times (drawn
    in the view, and as the output's SVG and its HTML image, in base64, for where the view
    cannot run; the caption those two carry is left out), what a search looks through, and the
    view's script."""
    picture = len(shown.view.svg()) * (2 + 4 / 3)
    index = len(json.dumps(search_index(shown.picture, walked), ensure_ascii=False))
    return int(picture) + index + len(script().encode())


class GraphSource(PictureSource):
    """`explore`'s pictures: a graph folded by module as the learner asks, each picture drawn
    by ``pictures`` (`helpers.graph`'s pipeline, as `draw` draws).

    It holds your tensors by weak references. The model of their graph and the picture drawn
    from it (whose boxes hold the graph's Nodes) are kept only while the tensors the picture was
    drawn from live: a notebook keeps every widget until the kernel stops, and a view must not
    keep a graph alive after you let go of it.
    """

    def __init__(
        self,
        pictures: Pictures,
        roots: Sequence[torch.Tensor],
        named: Sequence[tuple[str, torch.Tensor]],
        marked: Sequence[tuple[str, torch.Tensor, str]] = (),
    ) -> None:
        self._pictures = pictures
        self._roots = [weakref.ref(root) for root in roots]
        self._named = _weakly(named)
        self._marked = _weakly(marked)
        self._walked: Walked | None = None  # the model, while the roots live
        self._full: Graph | None = None  # the picture with its Nodes, as long
        self._folding: tuple[frozenset[str], frozenset[str]] | None = None
        self._draw(self._walk())

    @classmethod
    def later(
        cls,
        pictures: Pictures,
        roots: Sequence[torch.Tensor],
        named: Sequence[tuple[str, torch.Tensor]],
        marked: Sequence[tuple[str, torch.Tensor, str]] = (),
    ) -> Callable[[], GraphSource]:
        """What makes this source when asked (`Drawing.explore`), holding only weak
        references until then."""
        weak_roots = [weakref.ref(root) for root in roots]
        weak_named, weak_marked = _weakly(named), _weakly(marked)

        def make() -> GraphSource:
            alive = _alive(weak_roots)
            if alive is None:
                raise ValueError(say("gone"))
            return cls(pictures, alive, _living(weak_named), _living(weak_marked))

        return make

    # --- the model and the picture --------------------------------------------------------------

    def _walk(self) -> Walked:
        if self._walked is not None:
            return self._walked
        roots = _alive(self._roots)
        if roots is None:
            raise _Gone
        walked = self._pictures.model(roots, _living(self._named), _living(self._marked))
        if self._folding is not None:  # drawn again: the learner's folding stays
            walked = replace(walked, folded=self._folding[0], apart=self._folding[1])
        forget_with(self, *roots)
        return walked

    def _draw(self, walked: Walked) -> None:
        shown = self._pictures.picture(walked)
        self._walked, self._full = walked, shown.picture
        self._folding = (walked.folded, walked.apart)
        self.picture = without_nodes(shown.picture)
        self.svg = inline_svg(shown.view.svg())
        self._still = shown.still  # rendered when asked: once, for the notebook's output
        self.caption = "\n".join(shown.notes)
        self.home = home_of(shown.picture)

    def _state(self) -> tuple[Walked, Graph]:
        if self._walked is None or self._full is None:
            raise _Gone
        return self._walked, self._full

    def forget(self) -> None:
        self._walked = self._full = None

    def still_svg(self) -> str:
        return inline_svg(self._still.svg())

    def index(self) -> list[list[str]]:
        # The named tensors folded away are found too: a search unfolds down to them.
        return search_index(self.picture, self._walked)

    # --- what a click does ---------------------------------------------------------------------

    def read(self, box: str) -> dict[str, Any]:
        try:
            walked, full = self._state()
        except _Gone:
            return gone()
        return read_box(full, walked, box)

    def click(self, box: str) -> tuple[dict[str, Any], str | None]:
        try:
            walked, full = self._state()
        except _Gone:
            return gone(), None
        node = box_of(full, box)
        if node is not None and node.kind == MODULE:
            paths = full.module_boxes.get(node.id, ())
            if len(paths) == 1:
                return self._refold(unfolded(walked.modules, walked.folded, paths[0]), paths[0])
            if len(paths) > 1:  # a run of blocks: each block on its own, still folded
                self._draw(replace(walked, apart=walked.apart | set(paths)))
                return self._module_read(paths[0]), self._box_of_module(paths[0])
        frame = frame_of(full, box)
        if frame is not None:
            return self._refold(folded_at(walked.folded, frame.path), frame.path)
        return read_box(full, walked, box), None

    def reveal(self, box: str) -> tuple[dict[str, Any], str | None]:
        try:
            walked, _ = self._state()
        except _Gone:
            return gone(), None
        folded = opened_to(walked.modules, walked.folded, box)
        self._draw(replace(walked, folded=frozenset(folded)))
        return self.read(box), box

    def unfold(self, path: str) -> None:
        walked = self._known(path)
        self._refold(unfolded(walked.modules, walked.folded, path), path)

    def fold(self, path: str) -> None:
        self._refold(folded_at(self._known(path).folded, path), path)

    def _known(self, path: str) -> Walked:
        try:
            walked, _ = self._state()
        except _Gone:
            raise ValueError(say("gone")) from None
        if path not in walked.modules.types:
            raise ValueError(MESSAGES.say("unknown_module", path=path))
        return walked

    def refresh(self) -> dict[str, Any] | None:
        self._walked = self._full = None
        try:
            self._draw(self._walk())
        except _Gone:
            return gone()
        return None

    def _refold(self, folded: set[str], path: str) -> tuple[dict[str, Any], str | None]:
        walked, _ = self._state()
        self._draw(replace(walked, folded=frozenset(folded)))
        return self._module_read(path), self._box_of_module(path)

    def _module_read(self, path: str) -> dict[str, Any]:
        walked, full = self._state()
        return module_details(full, walked, (path,))

    def _box_of_module(self, path: str) -> str | None:
        """The box or the frame of module ``path`` in the picture, to bring into view."""
        for box, paths in self.picture.module_boxes.items():
            if path in paths:
                return box
        for number, frame in enumerate(self.picture.frames):
            if frame.path == path:
                return f"f{number}"
        return None


def _weakly(items: Sequence[tuple]) -> list[tuple]:
    return [(item[0], weakref.ref(item[1]), *item[2:]) for item in items]


def _living(items: Sequence[tuple]) -> list[tuple]:
    found = []
    for item in items:
        tensor = item[1]()
        if tensor is not None:
            found.append((item[0], tensor, *item[2:]))
    return found


def _alive(references: Sequence[weakref.ref]) -> list[torch.Tensor] | None:
    roots = [reference() for reference in references]
    return None if any(root is None for root in roots) else roots

"""What a view shows: a `Source` of pictures, and the small pieces every source needs.

The view knows nothing of graphs or traces. A source hands it a picture as SVG (every box and
frame carrying its id, ``n12``, ``m3``, ``f0``), the box to open at, the names a search looks
through, a caption, and for a backward pass a number of steps; it answers what a click on a box
says (the side panel's content) and whether the picture changed. `helpers.graph` has the source
of `explore`, `helpers.backward_view` the source of a traced pass.
"""

from __future__ import annotations

import base64
import html
import weakref
from typing import Any

from helpers.view.words import VIEW_TEXTS


class Source:
    """What a view shows and answers: the picture, the names a search finds, and what a click
    on a box does. The attributes are the picture shown now."""

    svg: str = ""  # the picture, as the view shows it (see `inline_svg`)
    home: str = ""  # the box the view opens at: the output
    steps: int = 0  # a view of a backward pass: how many steps, else 0
    shown: int = 0  # ... and the step its picture shows (0: the picture before the first)
    caption: str = ""  # said below the picture: its notes, or the step shown
    predicting: bool = False  # a backward pass played as questions, each answered before it shows

    @property
    def boxes(self) -> int:
        """How many boxes the picture shows."""
        return 0

    def still_svg(self) -> str:
        """The picture as SVG where the view does not run (its caption in the picture)."""
        return self.svg

    def index(self) -> list[list[str]]:
        """What a search looks through: [name, box id, kind, id of the box that holds it now
        ("" when it is drawn itself)]."""
        return []

    def read(self, box: str) -> dict[str, Any]:
        """What the side panel shows for ``box``: {"title", "subtitle", "sections": [{"heading",
        "rows": [[label, value], ...], "text"}], "action": {"label", "box"}}."""
        raise NotImplementedError

    def click(self, box: str) -> tuple[dict[str, Any], str | None]:
        """A click on a box or a frame: what the side panel shows, and the box or frame to bring
        into view if the picture changed (None if it did not)."""
        return self.read(box), None

    def reveal(self, box: str) -> tuple[dict[str, Any], str | None]:
        """Bring a box hidden inside a folded module into the picture."""
        return self.read(box), None

    def refresh(self) -> dict[str, Any] | None:
        """Draw the picture again from what it shows as it is now; what the side panel says if
        that cannot be done."""
        return None

    def go_to(self, step: int) -> None:
        """Show step ``step`` (from 1) of a backward pass."""

    def prompt(self) -> dict[str, str]:
        """Where a predicted pass stands: {"question": the question asked now, "asking": "next"
        (click the Node that runs next), "gradient" (type what it sends) or "" (over), "score"}."""
        return {"question": "", "asking": "", "score": ""}

    def predict(self, answer: str) -> dict[str, Any]:
        """Answer the question asked now with a text: {"right", "readable", "said"}."""
        raise TypeError(VIEW_TEXTS.say("cannot predict"))

    def predict_next(self, box: str) -> dict[str, Any]:
        """Answer "which Node runs next?" with the box clicked: {"right", "readable", "said"}."""
        raise TypeError(VIEW_TEXTS.say("cannot predict"))

    def show_me(self) -> dict[str, Any]:
        """Show the step asked about now without answering it."""
        raise TypeError(VIEW_TEXTS.say("cannot predict"))

    def replay(self) -> dict[str, Any]:
        """Play the pass again from its first question."""
        raise TypeError(VIEW_TEXTS.say("cannot predict"))

    def unfold(self, path: str) -> None:
        raise TypeError(VIEW_TEXTS.say("cannot fold"))

    def fold(self, path: str) -> None:
        raise TypeError(VIEW_TEXTS.say("cannot fold"))


def forget_with(source: Any, *holders: object) -> None:
    """Call ``source.forget()`` once any of ``holders`` is gone: a notebook keeps every widget
    until the kernel stops, and a view must not keep a graph alive after you let go of it."""
    reference = weakref.ref(source)
    for holder in holders:
        weakref.finalize(holder, _forget, reference)


def _forget(reference: weakref.ref) -> None:
    source = reference()
    if source is not None:
        source.forget()


def inline_svg(svg: str) -> str:
    """Graphviz's SVG as it goes inside HTML: without the XML declaration and the DOCTYPE it
    starts with, which do not belong there."""
    return svg[svg.index("<svg") :].strip() if "<svg" in svg else svg


def svg_image(svg: str) -> str:
    """The picture as an image in HTML: what shows where the view cannot run. An image, not
    inline SVG: JupyterLab strips inline SVG from a notebook it does not trust yet, and keeps
    images."""
    source = "data:image/svg+xml;base64," + base64.b64encode(svg.encode()).decode()
    return f"<img src='{source}' alt='{html.escape(VIEW_TEXTS.say('picture'))}'>"

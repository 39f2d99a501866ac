"""The view: a picture you can move about in and ask about, as a widget where widgets run.

The picture is the one its source drew with Graphviz in the kernel. A small script of our own
(``script/``, run by anywidget in JupyterLab, VS Code and Colab, styled by ``view.css``) moves
and zooms that SVG in the browser, finds names, steps through a backward pass, and tells the
kernel which box was clicked; the kernel answers with the side panel's content, or a new
picture. No layout happens in the browser.

Every output also carries the picture itself, as SVG and as an image in HTML, so that a notebook
shows it where the script cannot run: on GitHub, in an untrusted notebook, in ``make html``.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

from helpers.view.source import Source, svg_image
from helpers.view.words import VIEW_TEXTS, script_texts

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"
# The script, one file per concern, joined in this order into the one module anywidget runs:
# what every part uses, pan and zoom, the side panel, search, the step control, the questions of
# a predicted pass, and the view that puts them together (the only part that exports).
SCRIPT_PARTS = [
    Path(__file__).with_name("script") / name
    for name in ("page.js", "camera.js", "panel.js", "search.js", "steps.js", "quiz.js", "view.js")
]
STYLE = Path(__file__).with_name("view.css")


@cache
def script() -> str:
    """The view's script, as anywidget hands it to the browser: its parts joined, without the
    lines that are only comments (they are for whoever reads the files, and every notebook
    output of a view carries the script)."""
    lines = "\n".join(part.read_text(encoding="utf-8") for part in SCRIPT_PARTS).splitlines()
    return "\n".join(line for line in lines if not line.lstrip().startswith("//")) + "\n"


class Explorer:
    """A view of a `Source` (what `explore` and `step_through` return): in a notebook, the
    picture you can move about in and ask about; where widgets do not run, the picture itself.
    ``svg()`` is the picture shown now, ``read(box)`` what the side panel says about a box (its
    id, such as "n12"), ``unfold(path)`` and ``fold(path)`` fold a module as a click does."""

    def __init__(self, source: Source) -> None:
        self._source = source
        self._widget: Any = None

    def svg(self) -> str:
        """The picture shown now, as `draw` draws it (with its caption)."""
        return self._source.still_svg()

    def read(self, box: str) -> dict[str, Any]:
        return self._source.read(box)

    def unfold(self, path: str) -> None:
        self._source.unfold(path)
        self._show()

    def fold(self, path: str) -> None:
        self._source.fold(path)
        self._show()

    @property
    def boxes(self) -> int:
        """How many boxes the picture shows now."""
        return self._source.boxes

    def widget(self) -> Any:
        """The view as a widget (anywidget), or None where anywidget is not installed."""
        if self._widget is None:
            made = widget_class()
            if made is not None:
                self._widget = made(
                    svg=self._source.svg,
                    home=self._source.home,
                    index=self._source.index(),
                    texts=script_texts(),
                    steps=self._source.steps,
                    step=1 if self._source.steps else 0,
                    shown=self._source.shown,
                    caption=self._source.caption,
                    predict=self._source.predicting,
                    **self._source.prompt(),
                )
                self._widget.on_msg(self._answer)
                self._widget.observe(self._step, names="step")
        return self._widget

    # --- a predicted pass: the entry points the script's messages go through -----------------

    def predict(self, answer: str) -> dict[str, Any]:
        """Answer the question the view asks now with a text (``"3"``, ``"[1, 0]"``, ``"六"``):
        the verdict, {"right", "readable", "said", "waiting_for"}; the view moves on where the
        answer settles the step."""
        return self._predicted(self._source.predict(answer))

    def predict_next(self, box: str) -> dict[str, Any]:
        """Answer "which Node runs next?" with the id of a box (``"n3"``), as a click does. A
        box clicked too early gets in ``"waiting_for"`` the ids of the boxes whose Nodes it still
        waits for a gradient from, which the view outlines."""
        return self._predicted(self._source.predict_next(box))

    def show_me(self) -> dict[str, Any]:
        """Show the step asked about now, without answering it."""
        return self._predicted(self._source.show_me())

    def replay(self) -> dict[str, Any]:
        """Play the pass again from its first question, with the score at zero."""
        return self._predicted(self._source.replay())

    @property
    def question(self) -> str:
        """The question the view asks now ("" where it asks none)."""
        return self._source.prompt()["question"]

    def _predicted(self, verdict: dict[str, Any]) -> dict[str, Any]:
        self._show()
        return verdict

    def _show(self) -> None:
        if self._widget is None:
            return
        # One message for the lot: the script sees the new picture with the step it shows (a
        # step after the one shown before sends its gradients along their arrows).
        with self._widget.hold_sync():
            self._widget.svg = self._source.svg
            self._widget.shown = self._source.shown
            self._widget.index = self._source.index()
            self._widget.caption = self._source.caption
            for name, value in self._source.prompt().items():
                setattr(self._widget, name, value)

    def _answer(self, widget: Any, content: dict, buffers: Any = None) -> None:
        """A message from the script: a box clicked or searched for, or the picture to draw
        again. The answer is the side panel's content, and the picture if it changed."""
        kind, box = content.get("kind"), str(content.get("box", ""))
        try:
            if kind == "click":
                details, focus = self._source.click(box)
            elif kind == "reveal":
                details, focus = self._source.reveal(box)
            elif kind == "refresh":
                details, focus = self._source.refresh(), None
            elif kind in PREDICTING:
                verdict = PREDICTING[kind](self, content.get("answer", box))
                widget.send({"kind": "verdict", **verdict})
                return
            else:
                details, focus = self._source.read(box), None
        except Exception as error:  # noqa: BLE001 - said in the view; the picture stays as it was
            widget.send({"kind": "status", "text": VIEW_TEXTS.say("failed", error=error)})
            return
        if focus is not None or kind == "refresh":
            self._show()
        if details is not None:
            widget.send({"kind": "details", "box": box, **details})
        if focus is not None:
            widget.send({"kind": "focus", "box": focus})

    def _step(self, change: dict) -> None:
        self._source.go_to(int(change["new"]))
        self._show()

    def static_html(self) -> str:
        """The picture as an image in HTML: what shows where the view cannot run. An image, not
        inline SVG: JupyterLab strips inline SVG from a notebook it does not trust yet."""
        return svg_image(self._source.still_svg())

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> Any:
        # JupyterLab shows the widget, a static page or an untrusted notebook the HTML image, a
        # renderer that takes no HTML the SVG. nbval compares the text and the HTML (its image
        # blanked), which are the same on every run; it skips the widget's part, whose model
        # id changes, and the SVG, whose fonts do.
        bundle: dict[str, Any] = {
            "text/plain": repr(self),
            "text/html": self.static_html(),
            "image/svg+xml": self._source.still_svg(),
        }
        metadata: dict[str, Any] = {}
        widget = self.widget()
        if widget is not None:
            # Written out rather than asked of the widget, as helpers.backward_view does: the
            # view both ipywidgets 7 (Colab's page) and 8 understand. anywidget's own metadata
            # tells Colab to load it with its custom widget manager.
            data, metadata = widget._repr_mimebundle_()
            bundle[WIDGET_VIEW] = data[WIDGET_VIEW]
        return bundle, metadata

    def __repr__(self) -> str:
        return VIEW_TEXTS.say("repr", boxes=self._source.boxes)


def widget_class() -> Any:
    """The widget class, or None where anywidget cannot be imported."""
    try:
        import anywidget  # noqa: F401
    except ImportError:
        return None
    return made_widget_class()


@cache
def made_widget_class() -> Any:
    """The widget class, made when the first view is shown: importing anywidget (and ipywidgets)
    takes a moment that a helper which never shows a view should not pay."""
    import anywidget
    import traitlets

    class GraphView(anywidget.AnyWidget):
        """The view of one picture: the SVG shown, what a search finds, the words of the view."""

        _esm = script()
        _css = STYLE.read_text(encoding="utf-8")
        svg = traitlets.Unicode("").tag(sync=True)
        home = traitlets.Unicode("").tag(sync=True)
        index = traitlets.List([]).tag(sync=True)
        texts = traitlets.Dict({}).tag(sync=True)
        steps = traitlets.Int(0).tag(sync=True)
        step = traitlets.Int(0).tag(sync=True)  # the step asked for by the step control
        shown = traitlets.Int(0).tag(sync=True)  # the step the picture shows (0: before any)
        caption = traitlets.Unicode("").tag(sync=True)
        predict = traitlets.Bool(False).tag(sync=True)
        question = traitlets.Unicode("").tag(sync=True)
        asking = traitlets.Unicode("").tag(sync=True)
        score = traitlets.Unicode("").tag(sync=True)

    return GraphView


# The script's messages of a predicted pass, and the entry point each goes through.
PREDICTING = {
    "predict": lambda view, answer: view.predict(str(answer)),
    "predict next": lambda view, box: view.predict_next(str(box)),
    "show me": lambda view, _: view.show_me(),
    "replay": lambda view, _: view.replay(),
}

"""`LiveLossPlot`: a loss curve that redraws itself, in place, while a training loop runs."""

from __future__ import annotations

import io
import math
import numbers
import sys
import time
import warnings
from pathlib import Path
from types import TracebackType
from typing import Any

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.text import Text

from helpers.plot.axes import FIGURE_SIZE, Skipped, add_caption, label_axes, marker
from helpers.plot.checks import as_live_step, as_loss, check_title
from helpers.plot.messages import MESSAGES
from helpers.plot.words import Title, picture_words

# Drawing a picture takes time the loop does not spend training. After each redraw the live plot
# waits long enough that redrawing stays below this share of the loop's time.
MAX_REDRAW_SHARE = 0.05
# The clock the live plot throttles by; a module attribute so that tests can replace it.
clock = time.perf_counter
# The live plot's margins around its axes, in inches (the top one 0.35 with a title), and the
# room it keeps beyond what the labels need where it has to widen one.
MARGINS = {"left": 0.78, "right": 0.18, "bottom": 0.49, "top": 0.21}
PAD = 0.04
_PACKAGE = Path(__file__).parent  # the plot's own frames, which a warning skips


class LiveLossPlot:
    """A loss curve that redraws itself, in place, while a training loop runs.

    Use it in a ``with`` block, so that the final curve is drawn even if the loop stops early::

        with LiveLossPlot(title="two-layer net") as live:
            for step in range(500):
                ...
                live.update(step, loss.item())

    In a notebook the first step puts a line of text where the picture will be, so the curve
    stays above what the loop prints; the line says when the curve comes, since a loop that
    ends before ``every_seconds`` without ``with`` or ``finish()`` leaves only that line. Redraws
    are throttled by the wall clock. The first waits ``every_seconds`` (a loop that ends sooner
    is drawn once, at the end). After each one the loop trains for ``every_seconds``, or for 20
    times as long as that redraw took if that is longer, so that redrawing costs a long loop at
    most about 5% of its time. ``steps`` and ``losses`` hold what was recorded, ``redraws``
    counts the pictures drawn, and ``figure`` is the matplotlib figure. ``title`` is a text or
    one per language, as for `plot_losses`. The margins grow where long tick labels or the
    caption need room, so no label is cut off.
    """

    def __init__(
        self, *, title: Title = None, log_y: bool = True, every_seconds: float = 0.5
    ) -> None:
        check_title(title)
        if isinstance(every_seconds, bool) or not isinstance(every_seconds, numbers.Real):
            raise TypeError(MESSAGES.say("every_seconds_not_a_number", value=repr(every_seconds)))
        if not every_seconds >= 0:
            raise ValueError(MESSAGES.say("every_seconds_negative", value=repr(every_seconds)))
        self.log_y = log_y
        self.every_seconds = float(every_seconds)
        self.steps: list[float] = []  # as given: 3 stays an int, 1.5 a float
        self.losses: list[float] = []  # every loss recorded, also those the picture skips
        self._drawn_steps: list[float] = []  # the points the axis can show
        self._drawn_losses: list[float] = []
        self._skipped = Skipped()
        self._note: Text | None = None  # the caption, once a loss has been left out
        self.redraws = 0
        self._words = picture_words(title)  # one language for the whole picture
        # A figure outside pyplot: the inline backend never shows it on its own, so the cell
        # holds only the picture this class displays.
        self.figure = Figure(figsize=FIGURE_SIZE)
        FigureCanvasAgg(self.figure)
        # Margins in inches, wide enough for the usual labels; each redraw widens one only where
        # the labels need more (_fit_margins): matplotlib's automatic layouts cost more per redraw.
        self._margins = {**MARGINS, "top": 0.35 if self._words.title else MARGINS["top"]}
        self._axes = self.figure.add_subplot()
        self._set_margins(self._margins)
        (self._line,) = self._axes.plot([], [])
        label_axes(self._axes, log_y, self._words)
        self._display = notebook_display()
        self._handle: Any = None  # the IPython display handle of the picture's place in the cell
        self._next_redraw: float | None = None
        self._gave_up = False  # matplotlib failed to draw the curve: no more redraws
        self._finished = False
        self._warned_finished = False

    def update(self, step: float, loss: float) -> None:
        """Record the loss at ``step`` (use ``loss.item()``); redraw if it is time to.

        A plot never stops the loop it shows. ``step`` is any real number: 0, 1, 2, ..., or
        an epoch such as 1.5, or a tensor of one number. A point the picture cannot show is
        recorded in ``steps`` and ``losses`` but skipped in the picture, which says so in a
        caption: a loss of 0 or below on a log axis, nan or inf, or a step that does not come
        after the last step drawn (steps that restart at 0 each epoch, say: count them with one
        counter for the whole run). If matplotlib fails to draw the curve (losses near the
        largest float, 1e308), a warning says so, for each plot that fails, and the plot stops
        redrawing. Refused, at the first step, is only what is no number at all: text, a tensor
        of several numbers, a meta tensor (which holds no numbers).

        After ``finish()`` (the end of the ``with`` block) the picture is final: a later update
        is still recorded in ``steps`` and ``losses``, not drawn, and the first one warns that
        a new run wants a new LiveLossPlot. A loop that runs on after its plot is finished
        (a second training cell, say) goes on; it only loses the picture of those steps.
        """
        step = as_live_step(step)
        value = as_loss(loss, MESSAGES.say("loss_at_step", step=step))
        self.steps.append(step)
        self.losses.append(value)
        if self._finished:
            if not self._warned_finished:
                self._warned_finished = True
                warn(MESSAGES.say("finished"))
            return
        last_drawn = self._drawn_steps[-1] if self._drawn_steps else None
        if self._skipped.drawable(step, value, self.log_y, after=last_drawn):
            self._drawn_steps.append(step)
            self._drawn_losses.append(value)
        now = clock()
        if self._next_redraw is None:
            if self._display is not None:
                self._reserve_place()
            self._next_redraw = now + self.every_seconds
        elif now >= self._next_redraw:
            self._redraw()

    def finish(self) -> None:
        """Draw the final curve; the ``with`` block calls this. Calling it again does nothing."""
        if not self._finished and self.steps and not self._gave_up:
            self._redraw(final=True)
        self._finished = True

    def __repr__(self) -> str:
        if self._gave_up:
            state = MESSAGES.say("live_gave_up")
        else:
            state = MESSAGES.say("live_finished" if self._finished else "live_running")
        return MESSAGES.say("live_repr", count=len(self.losses), redraws=self.redraws, state=state)

    def __enter__(self) -> LiveLossPlot:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        # Also when the loop raised or was interrupted: the curve so far is worth seeing.
        self.finish()

    def _redraw(self, final: bool = False) -> None:
        started = clock()
        try:
            # numpy's overflow warnings from inside matplotlib would only add noise to the cell:
            # a picture that cannot be drawn gets one warning of ours, below.
            with np.errstate(all="ignore"):
                self._draw(final)
        except Exception as error:  # noqa: BLE001 - a plot never stops the loop it shows
            self._stop_redrawing(error)
            return
        self.redraws += 1
        ended = clock()
        self._next_redraw = ended + max(self.every_seconds, (ended - started) / MAX_REDRAW_SHARE)

    def _draw(self, final: bool) -> None:
        self._line.set_data(self._drawn_steps, self._drawn_losses)
        self._line.set_marker(marker(len(self._drawn_steps)))
        self._axes.relim()
        self._axes.autoscale_view()
        if self._skipped:
            note = self._skipped.note(self._words)
            if self._note is None:
                self._note = add_caption(self._axes, note, self._words)
            else:
                self._note.set_text(note)
        # Measuring the labels costs about a third of a picture: only for a picture shown, or
        # the final figure, which a script may save.
        if self._display is not None or final:
            self._fit_margins()
        if self._display is not None:
            self._show()

    def _fit_margins(self) -> None:
        """Widen a margin where what the axes draw outside their box needs more room than it
        has (tick labels such as 123456789.0 or 1.5e-7, the caption under the axes). The axes
        keep their height: the figure grows for the caption rather than squeezing the curve."""
        renderer = self.figure.canvas.get_renderer()
        inside = self._axes.bbox
        outside = self._axes.get_tightbbox(renderer, for_layout_only=True)
        needed = {
            "left": inside.x0 - outside.x0,
            "right": outside.x1 - inside.x1,
            "bottom": inside.y0 - outside.y0,
            "top": outside.y1 - inside.y1,
        }
        margins = {
            side: max(usual, needed[side] / self.figure.dpi + PAD)
            for side, usual in self._margins.items()
        }
        self._set_margins(margins)

    def _set_margins(self, margins: dict[str, float]) -> None:
        width = FIGURE_SIZE[0]
        usual_height = FIGURE_SIZE[1] - self._margins["bottom"] - self._margins["top"]
        height = usual_height + margins["bottom"] + margins["top"]
        if tuple(self.figure.get_size_inches()) != (width, height):
            self.figure.set_size_inches(width, height)
        self.figure.subplots_adjust(
            left=margins["left"] / width,
            right=1 - margins["right"] / width,
            bottom=margins["bottom"] / height,
            top=1 - margins["top"] / height,
        )

    def _stop_redrawing(self, error: Exception) -> None:
        self._gave_up = True
        self._next_redraw = math.inf  # no later step is ever time to redraw
        if self._handle is not None and self.redraws == 0:
            from IPython.display import Pretty

            # Left in place, the placeholder would promise a curve that never comes.
            self._handle.update(Pretty(MESSAGES.say("not_drawn")))
        warn(MESSAGES.say("stops_redrawing", error_type=type(error).__name__, error=error))

    def _reserve_place(self) -> None:
        from IPython.display import Pretty

        # A line of text takes the picture's place in the cell at the first step, so that the
        # curve sits above whatever the loop prints, however late the first picture comes.
        placeholder = Pretty(MESSAGES.say("placeholder", seconds=f"{self.every_seconds:g}"))
        self._handle = self._display(placeholder, display_id=True)

    def _show(self) -> None:
        from IPython.display import Image

        # Rendered here, not by IPython's figure formatter: that formatter only exists once
        # pyplot has loaded the inline backend, and it renders twice to crop the picture.
        buffer = io.BytesIO()
        self.figure.savefig(buffer, format="png")
        self._handle.update(Image(data=buffer.getvalue(), format="png"))


def warn(message: str) -> None:
    """Warn at the learner's line that called into this package, every time it is called.

    ``warnings.warn`` shows a warning once per line of code (Python's default filter): the
    second plot that fails in a loop over runs, or in a cell run again, would say nothing.
    A fresh registry for each warning keeps only the filters the learner set (``"ignore"``,
    ``"error"``, ``"once"``)."""
    frame = sys._getframe(1)
    while frame.f_back is not None and Path(frame.f_code.co_filename).parent == _PACKAGE:
        frame = frame.f_back
    warnings.warn_explicit(
        message,
        UserWarning,
        frame.f_code.co_filename,
        frame.f_lineno,
        module=frame.f_globals.get("__name__", "<string>"),
        registry={},
        module_globals=frame.f_globals,
    )


def notebook_display() -> Any:
    """IPython's ``display`` when running in a notebook kernel (Jupyter, Colab), else None."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:
        return None
    shell = get_ipython()
    # A terminal IPython has a shell but no kernel, and cannot show pictures.
    if shell is None or getattr(shell, "kernel", None) is None:
        return None
    return display

"""What both plots draw on their axes: the labels, the dot of a one-point curve, the legend,
and the caption under the axes that says which losses were skipped and why."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from matplotlib import cbook
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.mathtext import MathTextParser
from matplotlib.text import Text

from helpers.plot.checks import as_float
from helpers.plot.words import Words
from helpers.text import columns, wrap

FIGURE_SIZE = (6.0, 3.5)  # inches: 600 x 350 pixels at matplotlib's default 100 dpi
# Runs that are compared often coincide, which is the point of comparing them; a different
# line style per run keeps a dashed curve visible on top of a solid one.
LINE_STYLES = ("-", "--", ":", "-.")
CAPTION_WIDTH = 56  # columns per line of the caption about skipped losses (a character: two)
MATH_READER = MathTextParser("path")  # reads $...$ as matplotlib will, without drawing it


def label_axes(ax: Axes, log_y: bool, words: Words) -> None:
    ax.set_xlabel(words("step"), **words.font)
    if log_y:
        ax.set_yscale("log")
        ax.set_ylabel(words("loss (log scale)"), **words.font)
    else:
        ax.set_ylabel(words("loss"), **words.font)
    if words.title:
        ax.set_title(words.title, parse_math=reads_as_math(words.title), **words.font)
    ax.grid(True, alpha=0.3)


def reads_as_math(text: str) -> bool:
    """False where ``text`` has ``$...$`` that matplotlib cannot read as math ("cost in $x^$"):
    such a text is drawn as written, since matplotlib would otherwise fail to draw the picture."""
    if not cbook.is_math_text(text):
        return True  # no math in it: nothing to read
    try:
        MATH_READER.parse(text)
    except ValueError:
        return False
    return True


def marker(points: int) -> str:
    """A line needs two points: a curve of one point is drawn as a dot."""
    return "o" if points == 1 else "None"


# Why a point is left out of a picture, in the order the caption says it: each a key of WORDS.
REASONS = ("not finite", "not positive", "step not finite", "step goes back")


@dataclass
class Skipped:
    """The points a picture skips, by reason: how many, and where (step, run) the first one was."""

    counts: dict[str, int] = field(default_factory=dict)
    first: dict[str, tuple[float, str]] = field(default_factory=dict)

    def drawable(
        self, step: float, value: float, log_y: bool, run: str = "", after: float | None = None
    ) -> bool:
        """True if the axis can show ``value`` at ``step``, after ``after`` (the last step
        drawn); if not, count it as skipped. ``run`` names the run as code ("'a'"), or is ""."""
        reason = reason_to_skip(step, value, log_y, after)
        if reason is None:
            return True
        self.counts[reason] = self.counts.get(reason, 0) + 1
        self.first.setdefault(reason, (step, run))
        return False

    def __bool__(self) -> bool:
        return bool(self.counts)

    def note(self, words: Words) -> str:
        sentences = [
            words(reason, **count_and_place(self.counts[reason], self.first[reason], words))
            for reason in REASONS
            if reason in self.counts
        ]
        # Short lines, in a small font: a caption under the axes takes little of the picture.
        return "\n".join(wrap_caption(sentence) for sentence in sentences)


def reason_to_skip(step: float, value: float, log_y: bool, after: float | None) -> str | None:
    if not math.isfinite(value):
        return "not finite"
    if log_y and value <= 0:
        return "not positive"
    if not math.isfinite(as_float(step)):
        return "step not finite"
    if after is not None and not step > after:
        return "step goes back"
    return None


def count_and_place(count: int, first: tuple[float, str], words: Words) -> dict[str, str]:
    losses = words("one loss") if count == 1 else words("losses", count=count)
    step, run = first
    # A whole number too large for a float is written as the float it would be: inf.
    step = step if math.isfinite(as_float(step)) else as_float(step)
    if run:
        return {"losses": losses, "where": words("at step of run", step=step, run=run)}
    return {"losses": losses, "where": words("at step", step=step)}


def wrap_caption(sentence: str) -> str:
    """``sentence`` in lines of at most ``CAPTION_WIDTH`` columns, a Chinese character two
    (`helpers.text.wrap`: never inside a word such as log_y=False or 梯度)."""
    return "\n".join(wrap(sentence, lambda line: columns(line) <= CAPTION_WIDTH))


def add_caption(ax: Axes, note: str, words: Words) -> Text:
    # Under the axes, below the step label: inside them it would hide a curve somewhere, a
    # diverging one's last points first. Our words, and the run names as code: never math.
    return ax.annotate(
        note,
        xy=(0, 0),
        xycoords=("axes fraction", ax.xaxis.label),
        xytext=(0, -4),
        textcoords="offset points",
        horizontalalignment="left",
        verticalalignment="top",
        fontsize=8,
        color="#b3261e",
        parse_math=False,
        annotation_clip=False,
        **words.font,
    )


def make_room_below(figure: Figure, caption: Text) -> None:
    """Make plot_losses's own figure taller by the caption's height: the curve keeps its size.

    In points, from its lines: a figure pyplot has closed has no renderer to measure it with."""
    lines = caption.get_text().count("\n") + 1
    points = lines * 1.2 * caption.get_fontsize() + 4  # a line is 1.2 font sizes; 4: the gap
    figure.set_figheight(FIGURE_SIZE[1] + points / 72)


def add_legend(ax: Axes, lines: list[Any], names: list[str], words: Words) -> None:
    # Labels passed explicitly: matplotlib would leave out a run named "" or "_baseline".
    # Whatever else the caller drew on these axes keeps its own entry.
    handles, labels = ax.get_legend_handles_labels()
    pairs = zip(handles, labels, strict=True)
    others = [(handle, label) for handle, label in pairs if handle not in lines]
    legend = ax.legend(
        [handle for handle, _ in others] + lines,
        [label for _, label in others] + [name or words("unnamed run") for name in names],
        prop=None if words.fontfamily is None else {"family": words.fontfamily},
    )
    for text in legend.get_texts():
        text.set_parse_math(reads_as_math(text.get_text()))

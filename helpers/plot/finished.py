"""`plot_losses`: the picture of finished training runs, one or several."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import matplotlib.pyplot as plt
from matplotlib.axes import Axes
from matplotlib.figure import Figure

from helpers.plot.axes import (
    FIGURE_SIZE,
    LINE_STYLES,
    Skipped,
    add_caption,
    add_legend,
    label_axes,
    make_room_below,
    marker,
)
from helpers.plot.checks import as_runs, check_title
from helpers.plot.words import Title, picture_words


def plot_losses(
    losses: Iterable[float] | Mapping[Any, Iterable[float]] | Mapping[int, float],
    *,
    steps: Iterable[int] | None = None,
    title: Title = None,
    log_y: bool = True,
    ax: Axes | None = None,
) -> Figure | None:
    """Draw loss curves: one run (a list of losses) or several (a dict name -> list of losses).

    Step ``i`` of the x axis is the ``i``-th loss unless ``steps`` gives the step of each loss
    (for losses recorded every 10 steps, say; a list, a tensor or a generator; whole numbers
    that increase). A dict of numbers, ``{0: 3.1, 10: 2.5}`` (``losses[step] = loss.item()``),
    is one run, each loss at its step. Several runs get a legend and each its own line style,
    so curves that coincide stay visible; two names that read alike as text (``1`` and
    ``"1"``) are written as code in the legend, so both stay apart. A run name or title with
    ``$...$`` is drawn as math where matplotlib can read it, as written otherwise. A loss the
    axis cannot show is skipped, and a caption under the axes says so; a curve of one point is
    drawn as a dot.

    ``title`` is a text, or one per language, ``{"en": "two-layer network", "zh": "两层网络"}``:
    the picture shows the title of the language chosen with `helpers.set_language`, or the
    English one where its words are English (no font on this machine draws the chosen
    language's characters, or no title was given in it).

    The figure is returned rather than left open in pyplot: ending a notebook cell with
    ``plot_losses(...)`` shows it exactly once; in a script, call ``.savefig(path)`` on it.
    Given ``ax``, it draws into your axes and returns None: the figure is yours, and shows as
    your figures do (a pyplot figure once, at the end of the cell; returned as well, it would
    show twice). The caption, if any, sits under your axes: ``layout="constrained"`` in
    ``plt.subplots`` keeps room for it.
    """
    runs, several = as_runs(losses, steps)
    check_title(title)
    yours = ax is not None
    if ax is None:
        figure, ax = plt.subplots(figsize=FIGURE_SIZE, layout="constrained")
        # Left open, the inline backend would show the figure a second time at the end of the cell.
        plt.close(figure)
    words = picture_words(title, names=[run.label for run in runs])
    skipped = Skipped()
    lines = []
    for index, run in enumerate(runs):
        drawn = [
            (step, value)
            for step, value in zip(run.steps, run.losses, strict=True)
            if skipped.drawable(step, value, log_y, run.name)
        ]
        style = LINE_STYLES[index % len(LINE_STYLES)]
        lines += ax.plot(
            [step for step, _ in drawn],
            [value for _, value in drawn],
            linestyle=style,
            marker=marker(len(drawn)),
            label=run.label or None,
        )
    label_axes(ax, log_y, words)
    if several:
        add_legend(ax, lines, [run.label for run in runs], words)
    if skipped:
        caption = add_caption(ax, skipped.note(words), words)
        if not yours:
            make_room_below(ax.figure, caption)
    return None if yours else ax.figure

"""Loss curves: a picture of finished training runs, or one that redraws itself while a loop trains.

    plot_losses(losses)                                  # one run: a list with one loss per step
    plot_losses({"built-in": losses_a, "custom": losses_b})  # several runs, with a legend

    with LiveLossPlot() as live:
        for step in range(500):
            ...
            live.update(step, loss.item())

Both draw the loss on a log-scale axis by default, because a loss that falls from 1e7 to 1e-5
is a straight-ish line there and an L-shaped corner on a linear axis.

A plot never stops the training it shows. A loss the axis cannot show (0 or below on a log
axis; nan or infinite on any axis, and a whole number too large for a float counts as infinite)
is skipped: the curve joins the points on either side of it, and one caption under the axes
(never over the curve) says how many were skipped and where the first was. The live plot skips,
the same way, a step that does not come after the last one it drew (steps that restart at 0 each
epoch), and if matplotlib fails to draw the curve at all it warns and stops redrawing; an update
after the plot is finished is recorded, with a warning, and not drawn. It still keeps every
value in ``live.losses``, and its step in ``live.steps``.

The live plot takes one place in the cell at the first step and redraws the picture there, in
place, through an IPython display handle, rather than clearing the cell's output (which piles
outputs up in a saved notebook). When the loop ends that place holds exactly one figure, the
final curve, above anything the loop printed. Outside a notebook nothing is shown and
``live.figure`` simply holds the curve, so scripts and tests run headless.

The words in a picture follow `helpers.set_language`, but only as far as the machine can draw
them. matplotlib draws the picture on the machine that runs the kernel, and a Chinese character
needs a font that has it: without one it comes out as an empty box. So in Chinese the labels,
the legend's and the caption's words are Chinese when matplotlib has a font with every
character they use (Noto Sans CJK, Source Han Sans, WenQuanYi, Microsoft YaHei, PingFang, ...:
see `_ChineseFont`), and English otherwise (Colab has none, for one), with the notebook's text
around the picture saying in Chinese what the axes are. A title given per language,
``title={"en": "two-layer network", "zh": "两层网络"}``, follows the same rule. Text outside
the picture (the line that keeps the live plot's place, every error and warning) is always in
the chosen language.
"""

from __future__ import annotations

import io
import math
import numbers
import reprlib
import sys
import time
import warnings
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from types import TracebackType
from typing import Any

import matplotlib.pyplot as plt
import numpy as np
from matplotlib import cbook, font_manager
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.mathtext import MathTextParser
from matplotlib.text import Text

from helpers.language import LANGUAGES, Catalogue, get_language
from helpers.text import columns, wrap

__all__ = ["LiveLossPlot", "plot_losses"]

FIGURE_SIZE = (6.0, 3.5)  # inches: 600 x 350 pixels at matplotlib's default 100 dpi
# Runs that are compared often coincide, which is the point of comparing them; a different
# line style per run keeps a dashed curve visible on top of a solid one.
_LINE_STYLES = ("-", "--", ":", "-.")
# Drawing a picture takes time the loop does not spend training. After each redraw the live plot
# waits long enough that redrawing stays below this share of the loop's time.
_MAX_REDRAW_SHARE = 0.05
# The clock the live plot throttles by; a module attribute so that tests can replace it.
_clock = time.perf_counter

Curve = tuple[list[int], list[float]]  # the steps and the loss at each step
# The live plot's margins around its axes, in inches (the top one 0.35 with a title), and the
# room it keeps beyond what the labels need where it has to widen one.
_MARGINS = {"left": 0.78, "right": 0.18, "bottom": 0.49, "top": 0.21}
_PAD = 0.04
Title = str | Mapping[str, str] | None  # one title, or one per language: {"en": ..., "zh": ...}
_CAPTION_WIDTH = 56  # columns per line of the caption about skipped losses (a character: two)

# Every word a plot draws into a picture, in each language. Language first, because a picture
# takes all its words from one language: the chosen one where a font draws every character of
# it, English otherwise (`_picture_words`). What is read as text instead (errors, the warning,
# the live plot's placeholder) always follows the chosen language: it is in MESSAGES, below.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "step": "step",
        "loss": "loss",
        "loss (log scale)": "loss (log scale)",
        # matplotlib leaves a label starting with "_" out of the legend; "" would have no text.
        "unnamed run": "(unnamed run)",
        "at step": "step {step}",
        "at step of run": "step {step} of run {run}",
        "one loss": "1 loss",
        "losses": "{count} losses",
        "not finite": "Skipped {losses} nan or infinite (first at {where}): did the training "
        "diverge?",
        "not positive": "Skipped {losses} 0 or below, which a log axis cannot show (first at "
        "{where}); log_y=False draws them.",
        "step not finite": "Skipped {losses} whose step is nan or infinite, which the axis "
        "cannot place (first at {where}).",
        "step goes back": "Skipped {losses} whose step does not come after the step drawn "
        "before it (first at {where}): count steps with one counter for the whole run.",
    },
    "zh": {
        "step": "步数",
        "loss": "损失",
        "loss (log scale)": "损失（对数坐标）",
        "unnamed run": "（未命名）",
        "at step": "第 {step} 步",
        "at step of run": "运行 {run} 的第 {step} 步",
        "one loss": "1 个",
        "losses": "{count} 个",
        "not finite": "跳过了 {losses} nan 或无穷大的损失（第一个在{where}）：训练发散了吗？",
        "not positive": "跳过了 {losses}小于或等于 0 的损失，对数坐标轴画不出它们（第一个在"
        "{where}）；log_y=False 可以画出它们。",
        "step not finite": "跳过了 {losses}步数为 nan 或无穷大的损失，横轴上没有它们的位置（第一个"
        "在{where}）。",
        "step goes back": "跳过了 {losses}步数不大于上一个已画出步数的损失（第一个在{where}）："
        "整个训练请只用一个计数器记步数。",
    },
}
# What the plots say outside the picture, in the chosen language whatever the fonts.
_TEXTS = {
    # Also what a loop that never finishes its plot leaves: so it says when the curve comes.
    "placeholder": {
        "en": "(the loss curve is drawn here while the loop runs: first after {seconds} s, "
        "and in full at .finish(), which a with block calls when it ends)",
        "zh": "（训练循环运行时，损失曲线会画在这里：{seconds} 秒后第一次画出，调用 .finish() 时"
        "画出完整的曲线；with 块结束时会自动调用它）",
    },
    "not_drawn": {
        "en": "(the loss curve could not be drawn: the warning below says why; "
        "every loss is in .losses, with its step in .steps)",
        "zh": "（损失曲线画不出来，原因见下方的警告；每个损失都在 .losses 里，"
        "它的步数在 .steps 里）",
    },
    # --- plot_losses: the losses and steps it is given
    "no_runs": {
        "en": "There is nothing to plot: the dict of runs is empty. "
        "Give at least one run, e.g. {{'training': losses}}.",
        "zh": "没有可画的东西：存放各次运行的 dict 是空的。请至少给出一次运行，"
        "例如 {{'training': losses}}。",
    },
    # Filled into {run} below: nothing for a single run.
    "of_run": {"en": " of run {name}", "zh": "运行 {name} 的"},
    "not_a_list": {
        "en": "Expected a list of losses{run}, got {value} ({type}). "
        "Collect one number per step: losses.append(loss.item()).",
        "zh": "{run}损失应当是一个列表，这里得到的却是 {value}（{type}）。"
        "请每一步收集一个数：losses.append(loss.item())。",
    },
    "no_losses": {
        "en": "There is nothing to plot: the list of losses{run} is empty. "
        "Did the training loop run, and append loss.item() at each step?",
        "zh": "没有可画的东西：{run}损失列表是空的。训练循环运行了吗？"
        "每一步都把 loss.item() 追加到列表里了吗？",
    },
    "steps_not_a_list": {
        "en": "steps must be a list of whole numbers, one per loss, such as [0, 10, 20], "
        "got {value} ({type}).",
        "zh": "steps 必须是一个整数列表，每个损失对应一个步数，例如 [0, 10, 20]，"
        "这里得到的却是 {value}（{type}）。",
    },
    "steps_given_twice": {
        "en": "This dict already gives the step of each loss, {{step: loss}}, so steps= has "
        "nothing to add: leave it out, or pass the losses as a list with steps=.",
        "zh": "这个 dict 已经给出了每个损失的步数（{{step: loss}}），steps= 是多余的："
        "请去掉它，或者把损失放进一个列表、再用 steps= 给出步数。",
    },
    "steps_and_losses_differ": {
        "en": "There are {losses} losses{run} but {steps} steps: give exactly one step per loss.",
        "zh": "{run}损失有 {losses} 个，步数却有 {steps} 个：每个损失要正好对应一个步数。",
    },
    "step_not_whole": {
        "en": "A step must be a whole number such as 0, 1, 2, ..., got {value} ({type}).",
        "zh": "步数必须是整数，例如 0、1、2……，这里得到的却是 {value}（{type}）。",
    },
    "step_too_large": {
        "en": "The step {value} is too large to draw on an axis. "
        "Count steps with one counter that starts at 0.",
        "zh": "步数 {value} 太大，坐标轴上画不出来。请用一个从 0 开始的计数器记步数。",
    },
    "steps_go_back": {
        "en": "Steps must increase, but step {step} comes after step {previous}. "
        "Count steps with one counter for the whole run.",
        "zh": "步数必须递增，但第 {step} 步排在第 {previous} 步之后。"
        "整个训练请只用一个计数器记步数。",
    },
    # --- one number: a loss, or a step of the live plot; {what} starts the sentence
    "the_step": {"en": "The step", "zh": "这个步数"},
    "loss_at_step": {"en": "The loss at step {step}", "zh": "第 {step} 步的损失"},
    "loss_at_step_of_run": {
        "en": "The loss at step {step} of run {run}",
        "zh": "运行 {run} 第 {step} 步的损失",
    },
    "meta_tensor": {
        "en": "{what} is a meta tensor: it has a shape and a dtype but holds no numbers, so "
        "there is no value to plot. Compute it from tensors on a real device (cpu, cuda), "
        "not device='meta'.",
        "zh": "{what}是一个 meta 张量：它有形状和 dtype，却不存放任何数，所以没有值可画。"
        "请用真实设备（cpu、cuda）上的张量来计算它，不要用 device='meta'。",
    },
    "several_numbers": {
        "en": "{what} is a tensor or array of several numbers; a loss is one number "
        "per step. Record loss.item() after computing the (summed) loss.",
        "zh": "{what}是含有多个数的张量或数组，而损失每一步只有一个数。"
        "请先算出（求和后的）损失，再记录 loss.item()。",
    },
    "no_numbers": {
        "en": "{what} is an empty tensor or array: it holds no number, and a loss is one number "
        "per step. Record loss.item() after computing the (summed) loss.",
        "zh": "{what}是一个空的张量或数组，里面一个数也没有，而损失每一步是一个数。"
        "请先算出（求和后的）损失，再记录 loss.item()。",
    },
    # .item() failed for a reason of its own: that reason, not a guess, is what the learner needs.
    "item_failed": {
        "en": "{what} ({type}) could not be read as a number: its .item() raised "
        "{error_type}: {error}. Fix that error first, or record a Python float.",
        "zh": "{what}（{type}）读不出数值：它的 .item() 抛出了 {error_type}：“{error}”。"
        "请先解决这个错误，或者直接记录一个 Python 的 float。",
    },
    "not_a_number": {
        "en": "{what} is {value} ({type}), not a number. "
        "Record numbers, e.g. losses.append(loss.item()).{several_runs}",
        "zh": "{what}是 {value}（{type}），不是一个数。"
        "请记录数值，例如 losses.append(loss.item())。{several_runs}",
    },
    "several_runs": {
        "en": " To plot several runs, pass a dict: {{'run a': losses_a, 'run b': losses_b}}.",
        "zh": "要画多次运行，请传入一个 dict：{{'run a': losses_a, 'run b': losses_b}}。",
    },
    "live_step_not_a_number": {
        "en": "A step must be a number such as 0, 1, 2, ... (or an epoch such as 1.5), "
        "got {value} ({type}).",
        "zh": "步数必须是一个数，例如 0、1、2……（也可以是 1.5 这样的轮数，即 epoch），"
        "这里得到的却是 {value}（{type}）。",
    },
    # --- the title; {example} is _TITLE_EXAMPLE
    "title_not_text": {
        "en": 'title must be a text, such as "two-layer network", or one text per language, '
        "such as {example}; got {value} ({type}).",
        "zh": 'title 必须是一段文字，例如 "two-layer network"，或者每种语言各一段文字，'
        "例如 {example}；这里得到的却是 {value}（{type}）。",
    },
    "title_unknown_language": {
        "en": "title has an entry for {language}, which is not a language the helpers speak "
        "({known}). Give the title in those, such as {example}.",
        "zh": "title 里有一项是 {language}，但辅助工具不会这种语言（它们会的是 {known}）。"
        "请只用这些语言给出标题，例如 {example}。",
    },
    "title_entry_not_text": {
        "en": "title[{language}] must be a text, got {value} ({type}). "
        "Give one text per language, such as {example}.",
        "zh": "title[{language}] 必须是一段文字，这里得到的却是 {value}（{type}）。"
        "请每种语言各给一段文字，例如 {example}。",
    },
    "title_without_english": {
        "en": "title has no English entry, {value}: it is the title wherever the chosen "
        "language's cannot be drawn (no font for its characters). Add one, such as {example}.",
        "zh": 'title 里没有英文（"en"）的一项：{value}。所选语言的标题画不出来时'
        "（没有能显示它的字符的字体），图上用的就是英文标题。请补上这一项，例如 {example}。",
    },
    # --- the live plot
    "every_seconds_not_a_number": {
        "en": "every_seconds must be a number of seconds, got {value}.",
        "zh": "every_seconds 必须是一个秒数，这里得到的却是 {value}。",
    },
    "every_seconds_negative": {
        "en": "every_seconds must be 0 or more, got {value}.",
        "zh": "every_seconds 必须大于或等于 0，这里得到的却是 {value}。",
    },
    "finished": {
        "en": "This live plot is finished: its final curve is drawn. Losses recorded after that "
        "are kept in .losses, with their steps in .steps, but not drawn: plot_losses(live.losses) "
        "draws them all. Create a new LiveLossPlot for a new training run.",
        "zh": "这个实时损失图已经结束，最终的曲线已经画好。之后记录的损失仍然保存在 .losses 里"
        "（步数在 .steps 里），但不会再画出来：plot_losses(live.losses) 可以把它们全部画出。"
        "新的一次训练请新建一个 LiveLossPlot。",
    },
    # The live plot's text form, e.g. when a cell ends with it.
    "live_repr": {
        "en": "<LiveLossPlot: losses recorded: {count}, pictures drawn: {redraws}; {state}>",
        "zh": "<LiveLossPlot：已记录 {count} 个损失，画了 {redraws} 张图；{state}>",
    },
    "live_running": {
        "en": "not finished: .finish(), or the end of a with block, draws the final curve",
        "zh": "尚未结束：调用 .finish()（或 with 块结束时）会画出最终的曲线",
    },
    "live_finished": {
        "en": "finished: the final curve is drawn",
        "zh": "已经结束，最终的曲线已经画好",
    },
    "live_gave_up": {
        "en": "stopped redrawing: matplotlib could not draw the curve, as the warning said",
        "zh": "已经停止重画：matplotlib 画不出这条曲线，原因见之前的警告",
    },
    # matplotlib's own words ({error}) are quoted in Chinese, as PyTorch's are.
    "stops_redrawing": {
        "en": "The live plot could not draw the loss curve ({error_type}: {error}), so it stops "
        "redrawing. Training goes on, and every loss is still in .losses, with its step in .steps.",
        "zh": "实时损失图画不出损失曲线（{error_type}：“{error}”），所以不再重画。训练照常进行，"
        "每个损失仍然都在 .losses 里，它的步数在 .steps 里。",
    },
}
MESSAGES = Catalogue("helpers.plot", _TEXTS)
_TITLE_EXAMPLE = '{"en": "two-layer network", "zh": "两层网络"}'
# Beyond 2**53 a float, which the axis works in, no longer tells neighbouring steps apart.
_LARGEST_STEP = 2**53
_MATH = MathTextParser("path")  # reads $...$ as matplotlib will, without drawing it


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
    runs, several = _as_runs(losses, steps)
    _check_title(title)
    yours = ax is not None
    if ax is None:
        figure, ax = plt.subplots(figsize=FIGURE_SIZE, layout="constrained")
        # Left open, the inline backend would show the figure a second time at the end of the cell.
        plt.close(figure)
    words = _picture_words(title, names=[run.label for run in runs])
    skipped = _Skipped()
    lines = []
    for index, run in enumerate(runs):
        drawn = [
            (step, value)
            for step, value in zip(run.steps, run.losses, strict=True)
            if skipped.drawable(step, value, log_y, run.name)
        ]
        style = _LINE_STYLES[index % len(_LINE_STYLES)]
        lines += ax.plot(
            [step for step, _ in drawn],
            [value for _, value in drawn],
            linestyle=style,
            marker=_marker(len(drawn)),
            label=run.label or None,
        )
    _label_axes(ax, log_y, words)
    if several:
        _legend(ax, lines, [run.label for run in runs], words)
    if skipped:
        caption = _caption(ax, skipped.note(words), words)
        if not yours:
            _make_room_below(ax.figure, caption)
    return None if yours else ax.figure


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
        _check_title(title)
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
        self._skipped = _Skipped()
        self._note: Text | None = None  # the caption, once a loss has been left out
        self.redraws = 0
        self._words = _picture_words(title)  # one language for the whole picture
        # A figure outside pyplot: the inline backend never shows it on its own, so the cell
        # holds only the picture this class displays.
        self.figure = Figure(figsize=FIGURE_SIZE)
        FigureCanvasAgg(self.figure)
        # Margins in inches, wide enough for the usual labels; each redraw widens one only where
        # the labels need more (_fit_margins): matplotlib's automatic layouts cost more per redraw.
        self._margins = {**_MARGINS, "top": 0.35 if self._words.title else _MARGINS["top"]}
        self._axes = self.figure.add_subplot()
        self._set_margins(self._margins)
        (self._line,) = self._axes.plot([], [])
        _label_axes(self._axes, log_y, self._words)
        self._display = _notebook_display()
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
        step = _as_live_step(step)
        value = _as_loss(loss, MESSAGES.say("loss_at_step", step=step))
        self.steps.append(step)
        self.losses.append(value)
        if self._finished:
            if not self._warned_finished:
                self._warned_finished = True
                _warn(MESSAGES.say("finished"))
            return
        last_drawn = self._drawn_steps[-1] if self._drawn_steps else None
        if self._skipped.drawable(step, value, self.log_y, after=last_drawn):
            self._drawn_steps.append(step)
            self._drawn_losses.append(value)
        now = _clock()
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
        started = _clock()
        try:
            # numpy's overflow warnings from inside matplotlib would only add noise to the cell:
            # a picture that cannot be drawn gets one warning of ours, below.
            with np.errstate(all="ignore"):
                self._draw(final)
        except Exception as error:  # noqa: BLE001 - a plot never stops the loop it shows
            self._stop_redrawing(error)
            return
        self.redraws += 1
        ended = _clock()
        self._next_redraw = ended + max(self.every_seconds, (ended - started) / _MAX_REDRAW_SHARE)

    def _draw(self, final: bool) -> None:
        self._line.set_data(self._drawn_steps, self._drawn_losses)
        self._line.set_marker(_marker(len(self._drawn_steps)))
        self._axes.relim()
        self._axes.autoscale_view()
        if self._skipped:
            note = self._skipped.note(self._words)
            if self._note is None:
                self._note = _caption(self._axes, note, self._words)
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
            side: max(usual, needed[side] / self.figure.dpi + _PAD)
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
        _warn(MESSAGES.say("stops_redrawing", error_type=type(error).__name__, error=error))

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


def _warn(message: str) -> None:
    """Warn at the learner's line that called into this module, every time it is called.

    ``warnings.warn`` shows a warning once per line of code (Python's default filter): the
    second plot that fails in a loop over runs, or in a cell run again, would say nothing.
    A fresh registry for each warning keeps only the filters the learner set (``"ignore"``,
    ``"error"``, ``"once"``)."""
    frame = sys._getframe(1)
    while frame.f_back is not None and frame.f_code.co_filename == __file__:
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


def _notebook_display() -> Any:
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


# --- the words of a picture, and the font that draws them ----------------------------------


@dataclass(frozen=True)
class _Words:
    """The words one picture is drawn with, and the font families that can draw them all."""

    texts: dict[str, str]
    fontfamily: list[str] | None = None  # None: matplotlib's default font has every character
    title: str | None = None  # drawn as it is: never formatted, it is the caller's text

    def __call__(self, key: str, **blanks: object) -> str:
        return self.texts[key].format(**blanks)

    @property
    def font(self) -> dict[str, Any]:
        """Keyword arguments for a matplotlib text drawn in this picture."""
        return {} if self.fontfamily is None else {"fontfamily": self.fontfamily}


class _ChineseFont:
    """The font on this machine that has every Chinese character the plots draw, looked up once.

    matplotlib keeps a list of the machine's fonts, cached on disk the first time it runs, so a
    font installed later is missing from it until the cache is deleted. When the list has no
    Chinese font, the font folders are read once more (about 30 ms) and any new font files added
    (``fontManager.addfont``), as a rebuilt cache would. A font counts only if its character map
    has every character: a name alone does not promise the glyphs.
    """

    # Simplified Chinese first, then fonts that also cover it; the names matplotlib reports.
    PREFERRED = (
        "Noto Sans CJK SC",
        "Source Han Sans SC",
        "Source Han Sans CN",
        "Noto Sans SC",
        "WenQuanYi Micro Hei",
        "WenQuanYi Zen Hei",
        "Microsoft YaHei",
        "DengXian",
        "SimHei",
        "PingFang SC",
        "Hiragino Sans GB",
        "Heiti SC",
        "STHeiti",
        "Songti SC",
        "Droid Sans Fallback",
        "AR PL UMing CN",
        "Noto Sans CJK JP",
        "Noto Sans CJK TC",
        "Source Han Sans",
        "Arial Unicode MS",
    )

    def __init__(self) -> None:
        self._found: dict[str, str | None] = {}  # characters needed -> the font's name

    def name(self, characters: str) -> str | None:
        """The name of a font with every one of ``characters``, or None if there is none."""
        if characters not in self._found:
            found = self._search(characters)
            if found is None and self._add_fonts_installed_since_the_cache():
                found = self._search(characters)
            self._found[characters] = found
        return self._found[characters]

    def _search(self, characters: str) -> str | None:
        entries = {entry.name: entry for entry in font_manager.fontManager.ttflist}
        for name in self.PREFERRED:
            if name in entries and _has_characters(entries[name].fname, characters):
                return name
        return None

    @staticmethod
    def _add_fonts_installed_since_the_cache() -> bool:
        known = {entry.fname for entry in font_manager.fontManager.ttflist}
        new = [path for path in font_manager.findSystemFonts() if path not in known]
        for path in new:
            try:
                font_manager.fontManager.addfont(path)
            except Exception:
                continue  # a file matplotlib cannot read is no font for us
        return bool(new)


def _has_characters(path: str, characters: str) -> bool:
    try:
        charmap = font_manager.get_font(path).get_charmap()
    except Exception:
        return False  # a font file FreeType cannot open draws nothing
    return all(ord(character) in charmap for character in characters)


_chinese_font = _ChineseFont()


def _characters_beyond_ascii(texts: dict[str, str]) -> str:
    """The characters of the texts a picture draws that matplotlib's default font may lack."""
    drawn = "".join(texts.values())
    return "".join(sorted({character for character in drawn if ord(character) > 127}))


def _picture_words(title: Title = None, names: Iterable[str] = ()) -> _Words:
    """The words for a new picture: the chosen language's, if this machine can draw them.

    A title given per language is one of those words: in Chinese, the Chinese title too must be
    drawable, or the picture takes the English words and the English title. With Chinese words,
    or Chinese in a title given as one text or in the names of runs (a learner may write them in
    Chinese in either edition), the picture gets a font list ending in a Chinese font, so Latin
    letters and digits keep matplotlib's default font and only the characters it lacks come from
    the other.
    """
    language = get_language()
    texts, chosen_title = WORDS[language], _title_in(title, language)
    name = None
    ours = _characters_beyond_ascii({**texts, "title": chosen_title or ""})
    if ours:
        name = _chinese_font.name(ours)
        if name is None:  # boxes instead of characters would teach nothing
            texts, chosen_title = WORDS["en"], _title_in(title, "en")
    callers_text = "".join([title if isinstance(title, str) else "", *names])
    theirs = "".join(sorted({c for c in callers_text if columns(c) == 2}))
    if name is None and theirs:
        name = _chinese_font.name(theirs)
    fontfamily = None if name is None else [*plt.rcParams["font.family"], name]
    return _Words(texts, fontfamily, chosen_title)


def _title_in(title: Title, language: str) -> str | None:
    """The title to draw in ``language``: the text given, or, given per language, that
    language's (the English one where it has none)."""
    if isinstance(title, Mapping):
        return title.get(language, title["en"])
    return title


def _check_title(title: object) -> None:
    if title is None or isinstance(title, str):
        return
    if not isinstance(title, Mapping):
        raise TypeError(_about_title("title_not_text", **_value_and_type(title)))
    for language, text in title.items():
        if language not in LANGUAGES:
            known = ", ".join(f'"{code}"' for code in LANGUAGES)
            raise ValueError(
                _about_title("title_unknown_language", language=repr(language), known=known)
            )
        if not isinstance(text, str):
            raise TypeError(
                _about_title(
                    "title_entry_not_text", language=repr(language), **_value_and_type(text)
                )
            )
    if "en" not in title:
        raise ValueError(_about_title("title_without_english", value=reprlib.repr(dict(title))))


def _about_title(key: str, **blanks: str) -> str:
    """What MESSAGES says about a title, with an example of a title given per language."""
    return MESSAGES.say(key, example=_TITLE_EXAMPLE, **blanks)


def _value_and_type(value: object) -> dict[str, str]:
    """The blanks {value} and {type} of a message about a value given: short, as code."""
    return {"value": reprlib.repr(value), "type": type(value).__name__}


def _label_axes(ax: Axes, log_y: bool, words: _Words) -> None:
    ax.set_xlabel(words("step"), **words.font)
    if log_y:
        ax.set_yscale("log")
        ax.set_ylabel(words("loss (log scale)"), **words.font)
    else:
        ax.set_ylabel(words("loss"), **words.font)
    if words.title:
        ax.set_title(words.title, parse_math=_reads_as_math(words.title), **words.font)
    ax.grid(True, alpha=0.3)


def _reads_as_math(text: str) -> bool:
    """False where ``text`` has ``$...$`` that matplotlib cannot read as math ("cost in $x^$"):
    such a text is drawn as written, since matplotlib would otherwise fail to draw the picture."""
    if not cbook.is_math_text(text):
        return True  # no math in it: nothing to read
    try:
        _MATH.parse(text)
    except ValueError:
        return False
    return True


def _marker(points: int) -> str:
    """A line needs two points: a curve of one point is drawn as a dot."""
    return "o" if points == 1 else "None"


# Why a point is left out of a picture, in the order the caption says it: each a key of WORDS.
_REASONS = ("not finite", "not positive", "step not finite", "step goes back")


@dataclass
class _Skipped:
    """The points a picture skips, by reason: how many, and where (step, run) the first one was."""

    counts: dict[str, int] = field(default_factory=dict)
    first: dict[str, tuple[float, str]] = field(default_factory=dict)

    def drawable(
        self, step: float, value: float, log_y: bool, run: str = "", after: float | None = None
    ) -> bool:
        """True if the axis can show ``value`` at ``step``, after ``after`` (the last step
        drawn); if not, count it as skipped. ``run`` names the run as code ("'a'"), or is ""."""
        reason = _reason_to_skip(step, value, log_y, after)
        if reason is None:
            return True
        self.counts[reason] = self.counts.get(reason, 0) + 1
        self.first.setdefault(reason, (step, run))
        return False

    def __bool__(self) -> bool:
        return bool(self.counts)

    def note(self, words: _Words) -> str:
        sentences = [
            words(reason, **_count_and_place(self.counts[reason], self.first[reason], words))
            for reason in _REASONS
            if reason in self.counts
        ]
        # Short lines, in a small font: a caption under the axes takes little of the picture.
        return "\n".join(_wrap(sentence) for sentence in sentences)


def _reason_to_skip(step: float, value: float, log_y: bool, after: float | None) -> str | None:
    if not math.isfinite(value):
        return "not finite"
    if log_y and value <= 0:
        return "not positive"
    if not math.isfinite(_as_float(step)):
        return "step not finite"
    if after is not None and not step > after:
        return "step goes back"
    return None


def _count_and_place(count: int, first: tuple[float, str], words: _Words) -> dict[str, str]:
    losses = words("one loss") if count == 1 else words("losses", count=count)
    step, run = first
    # A whole number too large for a float is written as the float it would be: inf.
    step = step if math.isfinite(_as_float(step)) else _as_float(step)
    if run:
        return {"losses": losses, "where": words("at step of run", step=step, run=run)}
    return {"losses": losses, "where": words("at step", step=step)}


def _wrap(sentence: str) -> str:
    """``sentence`` in lines of at most ``_CAPTION_WIDTH`` columns, a Chinese character two
    (`helpers.text.wrap`: never inside a word such as log_y=False or 梯度)."""
    return "\n".join(wrap(sentence, lambda line: columns(line) <= _CAPTION_WIDTH))


def _caption(ax: Axes, note: str, words: _Words) -> Text:
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


def _make_room_below(figure: Figure, caption: Text) -> None:
    """Make plot_losses's own figure taller by the caption's height: the curve keeps its size.

    In points, from its lines: a figure pyplot has closed has no renderer to measure it with."""
    lines = caption.get_text().count("\n") + 1
    points = lines * 1.2 * caption.get_fontsize() + 4  # a line is 1.2 font sizes; 4: the gap
    figure.set_figheight(FIGURE_SIZE[1] + points / 72)


def _legend(ax: Axes, lines: list[Any], names: list[str], words: _Words) -> None:
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
        text.set_parse_math(_reads_as_math(text.get_text()))


@dataclass
class _Run:
    """One curve of plot_losses: what the legend and the caption call it, and its points."""

    label: str  # its entry in the legend: its name as text; "" when it is the only run
    name: str  # its name as code, as the caption writes it: "'a'"; "" when it is the only run
    steps: list[int]
    losses: list[float]


def _as_runs(losses: Any, steps: Iterable[int] | None) -> tuple[list[_Run], bool]:
    """Check the input of plot_losses: its runs, and whether they are several (with a legend)."""
    # Read once: a generator gives its steps to the first run only.
    x = None if steps is None else _as_steps(steps)
    if not isinstance(losses, Mapping):
        return [_Run("", "", *_as_curve(losses, x, None))], False
    if not losses:
        raise ValueError(MESSAGES.say("no_runs"))
    if all(map(_is_one_number, losses)) and any(map(_is_one_number, losses.values())):
        # {0: 3.1, 10: 2.5}, from losses[step] = loss.item(): one run, each loss at its step.
        if x is not None:
            raise ValueError(MESSAGES.say("steps_given_twice"))
        return [_Run("", "", *_as_curve(list(losses.values()), _as_steps(losses), None))], False
    labels = _labels(list(losses))
    runs = [
        _Run(label, repr(name), *_as_curve(values, x, name))
        for label, (name, values) in zip(labels, losses.items(), strict=True)
    ]
    return runs, True


def _is_one_number(value: object) -> bool:
    """A number, or a tensor or array of no dimension: a loss, where a run would be a list."""
    return isinstance(value, numbers.Number) or getattr(value, "ndim", None) == 0


def _labels(names: list[object]) -> list[str]:
    """The legend's text for each run: its name as text, or as code where two names read alike
    as text ({1: ..., "1": ...} gives 1 and '1'), so that neither run hides the other."""
    texts = [str(name) for name in names]
    alike = {text for text in texts if texts.count(text) > 1}
    return [repr(name) if text in alike else text for name, text in zip(names, texts, strict=True)]


def _as_steps(steps: Any) -> list[int]:
    """The steps given to plot_losses, as whole numbers that increase."""
    try:
        if isinstance(steps, (str, bytes)):
            raise TypeError
        given = list(steps)
    except TypeError:
        raise TypeError(MESSAGES.say("steps_not_a_list", **_value_and_type(steps))) from None
    x: list[int] = []
    for step in given:
        x.append(_as_step(step, previous=x[-1] if x else None))
    return x


def _as_curve(values: Any, x: list[int] | None, name: object) -> Curve:
    """The steps and losses of one run: ``name`` in a dict of runs, or None when it is alone;
    ``x`` its steps, or None for 0, 1, 2, ..."""
    run = "" if name is None else MESSAGES.say("of_run", name=repr(name))
    try:
        if isinstance(values, (str, bytes)):
            raise TypeError
        values = list(values)
    except TypeError:
        raise TypeError(MESSAGES.say("not_a_list", run=run, **_value_and_type(values))) from None
    if not values:
        raise ValueError(MESSAGES.say("no_losses", run=run))
    if x is None:
        x = list(range(len(values)))
    if len(x) != len(values):
        raise ValueError(
            MESSAGES.say("steps_and_losses_differ", losses=len(values), steps=len(x), run=run)
        )
    return x, [_as_loss(value, _loss_at(step, name)) for step, value in zip(x, values, strict=True)]


def _loss_at(step: float, name: object) -> str:
    """The loss at ``step`` of the run ``name`` (None: the only run), to start a sentence."""
    if name is None:
        return MESSAGES.say("loss_at_step", step=step)
    return MESSAGES.say("loss_at_step_of_run", step=step, run=repr(name))


def _as_step(step: Any, previous: int | None) -> int:
    # A step from a tensor of steps (torch.arange(0, 500, 10)) or a NumPy array is unwrapped.
    step = _item(step, MESSAGES.say("the_step"))
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        raise TypeError(MESSAGES.say("step_not_whole", **_value_and_type(step)))
    if abs(step) > _LARGEST_STEP:
        raise ValueError(MESSAGES.say("step_too_large", value=reprlib.repr(step)))
    if previous is not None and step <= previous:
        raise ValueError(MESSAGES.say("steps_go_back", step=step, previous=previous))
    return int(step)


def _as_live_step(step: Any) -> float:
    """A step of the live plot as a Python number: any real number, or a tensor of one."""
    step = _item(step, MESSAGES.say("the_step"))
    if isinstance(step, bool) or not isinstance(step, numbers.Real):
        raise TypeError(MESSAGES.say("live_step_not_a_number", **_value_and_type(step)))
    return int(step) if isinstance(step, numbers.Integral) else float(step)


def _item(value: Any, what: str) -> Any:
    """``value.item()`` for a tensor or array of one number; anything else as it is.

    ``what`` names the value at the start of a sentence: "The step", "The loss at step 3".
    A tensor or array of several numbers, or none, comes back as it is: the caller says what
    it expected. Any other failure of ``.item()`` is refused with its own reason.
    """
    if not hasattr(value, "item") or isinstance(value, numbers.Real):
        return value
    if getattr(value, "is_meta", False):
        raise TypeError(MESSAGES.say("meta_tensor", what=what))
    if _count_of_numbers(value) not in (1, None):
        return value
    try:
        return value.item()
    except Exception as error:
        reason = {"error_type": type(error).__name__, "error": error, "type": type(value).__name__}
        raise TypeError(MESSAGES.say("item_failed", what=what, **reason)) from error


def _count_of_numbers(value: Any) -> int | None:
    """How many numbers a tensor (``numel()``) or an array (``size``) holds; None if unknown."""
    try:
        count = value.numel() if callable(getattr(value, "numel", None)) else value.size
    except Exception:
        return None  # not a tensor or an array we know: its .item() will tell
    return count if isinstance(count, numbers.Integral) else None


def _as_loss(value: Any, what: str) -> float:
    """One loss as a float; a one-element tensor or array is unwrapped as ``.item()`` would."""
    value = _item(value, what)
    if hasattr(value, "item") and not isinstance(value, numbers.Real):
        key = "no_numbers" if _count_of_numbers(value) == 0 else "several_numbers"
        raise TypeError(MESSAGES.say(key, what=what))
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        # A list of lists is most likely several runs, which plot_losses takes as a dict.
        several_runs = MESSAGES.say("several_runs") if isinstance(value, (list, tuple)) else ""
        raise TypeError(
            MESSAGES.say(
                "not_a_number", what=what, several_runs=several_runs, **_value_and_type(value)
            )
        )
    return _as_float(value)


def _as_float(number: numbers.Real) -> float:
    try:
        return float(number)
    except OverflowError:
        # A whole number too large for a float (10**400): as a float it is infinite.
        return math.inf if number > 0 else -math.inf

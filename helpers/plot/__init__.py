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
see `words.ChineseFont`), and English otherwise (Colab has none, for one), with the notebook's
text around the picture saying in Chinese what the axes are. A title given per language,
``title={"en": "two-layer network", "zh": "两层网络"}``, follows the same rule. Text outside
the picture (the line that keeps the live plot's place, every error and warning) is always in
the chosen language.

The package's modules, each importing only those before it: `messages` (what the plots say
outside a picture), `words` (what a picture draws, and the font that draws it), `checks` (what
the plots accept), `axes` (what both plots draw on their axes), `finished` (`plot_losses`) and
`live` (`LiveLossPlot`).
"""

from helpers.plot.finished import plot_losses
from helpers.plot.live import LiveLossPlot
from helpers.plot.messages import MESSAGES
from helpers.plot.words import WORDS

__all__ = ["MESSAGES", "WORDS", "LiveLossPlot", "plot_losses"]

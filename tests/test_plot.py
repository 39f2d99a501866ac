"""helpers.plot: static loss curves, the live plot's throttling, and what a notebook cell keeps."""

import io
import math
import re
import warnings
from itertools import pairwise

import matplotlib.pyplot as plt
import nbformat
import numpy as np
import pytest
import torch
from matplotlib.transforms import Bbox
from nbclient import NotebookClient

import helpers.plot
from helpers.language import LANGUAGES, speaking
from helpers.plot import WORDS, LiveLossPlot, plot_losses
from helpers.text import columns

FALLING = [1000.0, 100.0, 10.0, 1.0, 0.1]


def drawn_lines(figure):
    return figure.axes[0].get_lines()


def captions(figure):
    """The captions on the axes, each as one line (they are wrapped to fit a corner)."""
    return [" ".join(text.get_text().split()) for text in figure.axes[0].texts]


def legend_texts(figure):
    return [text.get_text() for text in figure.axes[0].get_legend().get_texts()]


def points(line):
    return list(zip(line.get_xdata(), line.get_ydata(), strict=True))


# --- plot_losses: what is drawn ------------------------------------------------------------


def test_one_run_is_drawn_against_its_step_numbers():
    (line,) = drawn_lines(plot_losses(FALLING))
    assert list(line.get_xdata()) == [0, 1, 2, 3, 4]
    assert list(line.get_ydata()) == FALLING


def test_the_loss_axis_is_log_scale_by_default_and_both_axes_are_labelled():
    axes = plot_losses(FALLING).axes[0]
    assert axes.get_yscale() == "log"
    assert axes.get_xlabel() == "step"
    assert axes.get_ylabel() == "loss (log scale)"


def test_log_y_false_draws_a_linear_loss_axis():
    axes = plot_losses(FALLING, log_y=False).axes[0]
    assert axes.get_yscale() == "linear" and axes.get_ylabel() == "loss"


def test_one_run_has_no_legend():
    assert plot_losses(FALLING).axes[0].get_legend() is None


def test_several_runs_get_a_legend_with_their_names():
    legend = plot_losses({"built-in": FALLING, "custom": FALLING}).axes[0].get_legend()
    assert [text.get_text() for text in legend.get_texts()] == ["built-in", "custom"]


def test_several_runs_get_different_line_styles_so_coinciding_curves_stay_visible():
    lines = drawn_lines(plot_losses({"a": FALLING, "b": FALLING, "c": FALLING}))
    assert len({line.get_linestyle() for line in lines}) == 3


def test_steps_place_each_loss_at_its_own_step():
    (line,) = drawn_lines(plot_losses(FALLING, steps=[0, 10, 20, 30, 40]))
    assert list(line.get_xdata()) == [0, 10, 20, 30, 40]


def test_the_title_is_shown():
    assert plot_losses(FALLING, title="training").axes[0].get_title() == "training"


def test_draws_into_axes_it_is_given_and_returns_nothing_as_the_figure_is_the_callers():
    """Returned, a pyplot figure would show twice at the end of a notebook cell."""
    figure, axes = plt.subplots()
    try:
        assert plot_losses(FALLING, ax=axes) is None
        assert len(axes.get_lines()) == 1
    finally:
        plt.close(figure)


def test_the_returned_figure_is_not_left_open_in_pyplot():
    before = plt.get_fignums()
    plot_losses(FALLING)
    assert plt.get_fignums() == before


def test_losses_may_be_tensors_and_numpy_numbers():
    losses = [torch.tensor(4.0), np.float32(2.0), torch.tensor([1.0]), 0.5]
    (line,) = drawn_lines(plot_losses(losses))
    assert list(line.get_ydata()) == [4.0, 2.0, 1.0, 0.5]


def test_a_one_dimensional_tensor_of_losses_is_one_run():
    (line,) = drawn_lines(plot_losses(torch.tensor(FALLING)))
    assert list(line.get_ydata()) == pytest.approx(FALLING)


# --- plot_losses: bad input gets an error that says what to do -----------------------------


def test_an_empty_list_is_refused_with_a_hint_about_the_training_loop():
    with pytest.raises(ValueError, match="nothing to plot.*empty.*append loss.item"):
        plot_losses([])


def test_an_empty_run_in_a_dict_is_named_in_the_error():
    with pytest.raises(ValueError, match="losses of run 'custom' is empty"):
        plot_losses({"built-in": FALLING, "custom": []})


def test_an_empty_dict_is_refused():
    with pytest.raises(ValueError, match="dict of runs is empty"):
        plot_losses({})


TOO_LARGE_FOR_A_FLOAT = pytest.param(10**400, id="10**400")


@pytest.mark.parametrize("bad", [math.nan, math.inf, -math.inf, TOO_LARGE_FOR_A_FLOAT])
def test_a_nan_or_infinite_loss_is_skipped_with_a_caption_about_divergence(bad):
    figure = plot_losses([1.0, 0.5, bad, 0.1])
    (line,) = drawn_lines(figure)
    assert points(line) == [(0, 1.0), (1, 0.5), (3, 0.1)]
    assert captions(figure) == [
        "Skipped 1 loss nan or infinite (first at step 2): did the training diverge?"
    ]


def test_a_non_numeric_loss_is_refused_with_its_step():
    with pytest.raises(TypeError, match=r"at step 1 is '0.5' \(str\), not a number.*loss.item"):
        plot_losses([1.0, "0.5"])


def test_a_boolean_is_not_taken_for_a_loss():
    with pytest.raises(TypeError, match="not a number"):
        plot_losses([1.0, True])


def test_a_list_of_lists_gets_a_hint_to_use_a_dict_for_several_runs():
    with pytest.raises(TypeError, match="pass a dict"):
        plot_losses([FALLING, FALLING])


def test_a_tensor_of_several_numbers_as_one_loss_is_refused():
    with pytest.raises(TypeError, match="several numbers.*loss.item"):
        plot_losses([torch.ones(3)])


@pytest.mark.parametrize("not_a_list", [3.0, "1 2 3", None])
def test_something_that_is_not_a_list_of_losses_is_refused(not_a_list):
    with pytest.raises(TypeError, match="Expected a list of losses"):
        plot_losses(not_a_list)


def test_steps_and_losses_of_different_lengths_are_refused():
    with pytest.raises(ValueError, match="5 losses but 4 steps.*one step per loss"):
        plot_losses(FALLING, steps=[0, 1, 2, 3])


def test_a_run_whose_length_differs_from_steps_is_named():
    with pytest.raises(ValueError, match="3 losses of run 'short' but 5 steps"):
        plot_losses({"long": FALLING, "short": FALLING[:3]}, steps=[0, 1, 2, 3, 4])


def test_steps_that_do_not_increase_are_refused():
    with pytest.raises(ValueError, match="step 2 comes after step 5"):
        plot_losses(FALLING, steps=[0, 5, 2, 7, 9])


def test_steps_that_are_not_whole_numbers_are_refused():
    with pytest.raises(TypeError, match="whole number"):
        plot_losses(FALLING, steps=[0, 0.5, 1, 1.5, 2])


@pytest.mark.parametrize("bad", [0.0, -0.0, -2.5])
def test_a_zero_or_negative_loss_on_a_log_axis_is_skipped_and_the_caption_names_log_y(bad):
    figure = plot_losses({"a": [1.0, bad, 0.5]})
    (line,) = drawn_lines(figure)
    assert points(line) == [(0, 1.0), (2, 0.5)]
    assert captions(figure) == [
        "Skipped 1 loss 0 or below, which a log axis cannot show (first at step 1 of run 'a'); "
        "log_y=False draws them."
    ]


def test_one_caption_counts_every_loss_left_out_and_names_the_first_of_each_kind():
    figure = plot_losses({"a": [1.0, 0.0, 0.0], "b": [math.nan, 2.0, -1.0]})
    assert captions(figure) == [
        "Skipped 1 loss nan or infinite (first at step 0 of run 'b'): did the training "
        "diverge? Skipped 3 losses 0 or below, which a log axis cannot show (first at step 1 "
        "of run 'a'); log_y=False draws them."
    ]


def test_losses_left_out_raise_no_warning_even_when_none_can_be_drawn():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        figure = plot_losses([0.0, math.nan, -1.0])
        figure.savefig(io.BytesIO(), format="png")
    assert len(captions(figure)) == 1


def test_a_figure_that_can_draw_every_loss_has_no_caption():
    assert captions(plot_losses(FALLING)) == []


def test_a_negative_loss_is_drawn_on_a_linear_axis_without_a_caption():
    figure = plot_losses([1.0, -1.0], log_y=False)
    assert list(drawn_lines(figure)[0].get_ydata()) == [1.0, -1.0] and captions(figure) == []


@pytest.mark.parametrize("name", ["", "_baseline", "__private"])
def test_a_run_named_empty_or_with_a_leading_underscore_stays_in_the_legend(name):
    texts = legend_texts(plot_losses({name: FALLING, "custom": FALLING}))
    assert texts == [name or "(unnamed run)", "custom"]


def test_lines_the_caller_drew_on_the_same_axes_keep_their_legend_entry():
    figure, axes = plt.subplots()
    try:
        axes.plot([0, 4], [1.0, 1.0], label="target")
        plot_losses({"_run": FALLING}, ax=axes)
        assert legend_texts(figure) == ["target", "_run"]
    finally:
        plt.close(figure)


@pytest.mark.parametrize(
    "steps", [torch.tensor([0, 10, 20, 30, 40]), torch.arange(0, 50, 10), np.arange(0, 50, 10)]
)
def test_steps_may_be_a_tensor_or_an_array_like_the_losses(steps):
    (line,) = drawn_lines(plot_losses(torch.tensor(FALLING), steps=steps))
    assert list(line.get_xdata()) == [0, 10, 20, 30, 40]


def test_a_step_too_large_for_the_axis_is_refused_with_a_clear_error():
    with pytest.raises(ValueError, match="too large to draw"):
        plot_losses([1.0, 0.5], steps=[0, 10**400])


def test_steps_from_a_float_tensor_are_refused_as_not_whole_numbers():
    with pytest.raises(TypeError, match="whole number"):
        plot_losses(FALLING, steps=torch.linspace(0, 4, 5))


def test_a_zero_loss_is_drawn_on_a_linear_axis():
    (line,) = drawn_lines(plot_losses([1.0, 0.0], log_y=False))
    assert list(line.get_ydata()) == [1.0, 0.0]


# --- plot_losses: every point seen, every run kept, every text drawn -----------------------

BLUE = (31, 119, 180)  # matplotlib's first line colour, C0


def pixels_of(figure, colour):
    """How many pixels of the rendered ``figure`` have ``colour`` (an RGB triple, 0 to 255)."""
    buffer = io.BytesIO()
    figure.savefig(buffer, format="png")
    buffer.seek(0)
    rgb = np.round(plt.imread(buffer)[..., :3] * 255)
    return int(np.all(np.abs(rgb - colour) <= 8, axis=-1).sum())


def boxes_after_drawing(figure):
    """The caption's, the axes' and the figure's boxes in pixels, as the picture draws them."""
    figure.savefig(io.BytesIO(), format="png")  # the layout is settled while drawing
    axes = figure.axes[0]
    (caption,) = axes.texts
    whole = Bbox.from_bounds(0, 0, figure.bbox.width, figure.bbox.height)
    return caption.get_window_extent(), axes.bbox, whole


DIVERGING = [0.8**step for step in range(30)] + [1.6**step for step in range(25)] + [math.nan]


def test_the_caption_sits_under_the_axes_so_a_diverging_curve_keeps_its_last_points():
    caption, axes, whole = boxes_after_drawing(plot_losses(DIVERGING))
    assert caption.y1 < axes.y0  # below the axes, where no curve is drawn
    assert whole.contains(caption.x0, caption.y0) and whole.contains(caption.x1, caption.y1)


def test_the_figure_grows_by_the_caption_so_the_curve_keeps_its_height():
    plain = plot_losses(DIVERGING[:-1])
    with_caption = plot_losses(DIVERGING)
    for figure in (plain, with_caption):
        figure.savefig(io.BytesIO(), format="png")
    assert with_caption.get_figheight() > plain.get_figheight()
    assert with_caption.axes[0].bbox.height == pytest.approx(plain.axes[0].bbox.height, abs=2)


def test_the_caption_under_axes_of_your_own_stays_in_a_constrained_figure():
    figure, axes = plt.subplots(1, 2, figsize=(9, 3.5), layout="constrained")
    try:
        plot_losses(DIVERGING, ax=axes[0])
        figure.savefig(io.BytesIO(), format="png")
        caption = axes[0].texts[0].get_window_extent()
        assert caption.y1 < axes[0].bbox.y0 and caption.y0 >= 0
    finally:
        plt.close(figure)


@pytest.mark.parametrize("losses", [[2.5], [math.nan, 2.5, math.nan]], ids=["one", "one drawable"])
def test_a_curve_of_one_point_is_drawn_as_a_dot(losses):
    figure = plot_losses(losses)
    assert pixels_of(figure, BLUE) > 20


def test_a_curve_of_several_points_has_no_dots():
    assert drawn_lines(plot_losses(FALLING))[0].get_marker() == "None"


def test_a_dict_of_numbers_is_one_run_of_losses_at_their_steps():
    """losses[step] = loss.item() in the loop gives such a dict: not runs named 0 and 10."""
    figure = plot_losses({0: 3.1, 10: torch.tensor(2.5), 20: np.float32(2.0)})
    (line,) = drawn_lines(figure)
    assert points(line) == [(0, 3.1), (10, 2.5), (20, 2.0)]
    assert figure.axes[0].get_legend() is None


def test_a_dict_of_runs_with_a_number_for_a_run_is_still_read_as_runs():
    with pytest.raises(TypeError, match=r"list of losses of run 'a', got 3.1 \(float\)"):
        plot_losses({"a": 3.1, "b": FALLING})


def test_a_dict_of_numbers_with_steps_as_well_is_refused_saying_the_dict_has_them():
    with pytest.raises(ValueError, match=r"already gives the step of each loss.*leave it out"):
        plot_losses({0: 3.1, 10: 2.5}, steps=[0, 10])


def test_steps_from_a_generator_are_read_once_and_serve_every_run():
    steps = (step for step in range(0, 50, 10))
    lines = drawn_lines(plot_losses({"a": FALLING, "b": FALLING}, steps=steps))
    assert [list(line.get_xdata()) for line in lines] == [[0, 10, 20, 30, 40]] * 2


def test_steps_that_are_not_a_list_are_refused_with_an_example():
    with pytest.raises(TypeError, match=r"steps must be a list .*\[0, 10, 20\].*5 \(int\)"):
        plot_losses(FALLING, steps=5)


def test_runs_whose_names_read_alike_as_text_are_both_drawn_and_told_apart_in_the_legend():
    figure = plot_losses({1: FALLING, "1": [2.0, 1.0], "b": [3.0, 2.0]})
    assert len(drawn_lines(figure)) == 3
    assert legend_texts(figure) == ["1", "'1'", "b"]


def test_a_caption_names_a_run_as_code_like_the_errors():
    figure = plot_losses({1: [1.0, math.nan], "1": [1.0, 0.5]})
    assert captions(figure) == [
        "Skipped 1 loss nan or infinite (first at step 1 of run 1): did the training diverge?"
    ]


@pytest.mark.parametrize(
    ("title", "name"), [("price in $x_$", "a"), ("run", "cost $x^$")], ids=["title", "run name"]
)
def test_dollars_matplotlib_cannot_read_as_math_are_drawn_as_written(title, name):
    figure = plot_losses({name: FALLING, "b": FALLING}, title=title)
    figure.savefig(io.BytesIO(), format="png")  # matplotlib used to fail here
    assert figure.axes[0].get_title() == title and legend_texts(figure)[0] == name


def test_math_that_matplotlib_can_read_is_still_drawn_as_math():
    axes = plot_losses({r"$\alpha=0.1$": FALLING, "b": FALLING}, title=r"$\eta$").axes[0]
    assert axes.title.get_parse_math() and axes.get_legend().get_texts()[0].get_parse_math()


class ItemFails:
    """A value whose .item() fails for a reason of its own, as a tensor on a lost GPU would."""

    def item(self):
        raise RuntimeError("CUDA error: device-side assert triggered")


def test_a_loss_whose_item_fails_is_refused_with_that_reason_not_as_several_numbers():
    with pytest.raises(TypeError) as refused:
        plot_losses([1.0, ItemFails()])
    text = str(refused.value)
    assert "several" not in text
    assert re.search(r"at step 1 \(ItemFails\).*RuntimeError: CUDA error: device-side", text)
    assert isinstance(refused.value.__cause__, RuntimeError)


def test_an_empty_tensor_as_a_loss_is_refused_as_holding_no_number():
    with pytest.raises(TypeError, match="at step 1 is an empty tensor or array: it holds no"):
        plot_losses([1.0, torch.tensor([])])


# --- LiveLossPlot, headless ----------------------------------------------------------------


class FakeClock:
    """Stands in for the wall clock; time passes only when a test says so."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


@pytest.fixture
def clock(monkeypatch):
    fake = FakeClock()
    monkeypatch.setattr(helpers.plot.live, "clock", fake)
    return fake


class FakeNotebook:
    """Stands in for IPython's display: records what is shown; showing a picture takes time."""

    def __init__(self, clock, seconds_per_picture=0.0):
        self.clock = clock
        self.seconds_per_picture = seconds_per_picture
        self.displayed = []  # one entry per display() call: a new output in the cell
        self.pictures = []  # the PNG pictures shown, each replacing the last in place
        self.shown_at = []  # when each picture started to be shown

    def display(self, placeholder, display_id=False):
        assert display_id is True, "the live plot must ask for a handle to update in place"
        self.displayed.append(placeholder)
        return self

    def update(self, picture):
        self.shown_at.append(self.clock.now)
        self.clock.now += self.seconds_per_picture
        self.pictures.append(picture)


@pytest.fixture
def notebook(monkeypatch, clock):
    """Make the live plot believe it runs in a notebook whose pictures take 0.2 s to show."""
    fake = FakeNotebook(clock, seconds_per_picture=0.2)
    monkeypatch.setattr(helpers.plot.live, "notebook_display", lambda: fake.display)
    return fake


def train(live, clock, steps, seconds_per_step):
    first = live.steps[-1] + 1 if live.steps else 0
    for step in range(first, first + steps):
        clock.now += seconds_per_step
        live.update(step, 1000.0 * 0.9**step)


def test_the_live_plot_records_every_step_and_loss(clock):
    with LiveLossPlot() as live:
        train(live, clock, steps=3, seconds_per_step=0.01)
    assert live.steps == [0, 1, 2]
    assert live.losses == [1000.0, 900.0, 810.0]


def test_the_final_curve_holds_every_step_when_the_loop_ends(clock):
    with LiveLossPlot() as live:
        train(live, clock, steps=50, seconds_per_step=0.1)
    (line,) = drawn_lines(live.figure)
    assert list(line.get_xdata()) == list(range(50))


def test_a_loop_shorter_than_the_interval_is_drawn_once_at_the_end(clock):
    with LiveLossPlot(every_seconds=0.5) as live:
        train(live, clock, steps=500, seconds_per_step=0.0008)  # 0.4 s in all
    assert live.redraws == 1


def test_redraws_come_at_most_once_per_interval(clock):
    with LiveLossPlot(every_seconds=0.5) as live:
        train(live, clock, steps=100, seconds_per_step=0.05)  # 5 s in all
    # One redraw per full half second after the first, and the final one.
    assert live.redraws == 10


def test_after_a_slow_picture_the_loop_trains_20_times_as_long_before_the_next(notebook):
    with LiveLossPlot(every_seconds=0.5) as live:
        train(live, notebook.clock, steps=4000, seconds_per_step=0.005)  # 20 s of training
    during_the_loop = notebook.shown_at[:-1]  # the last picture is the final curve
    gaps = [later - earlier for earlier, later in pairwise(during_the_loop)]
    assert len(gaps) >= 2
    assert min(gaps) >= 0.2 + 20 * 0.2


def test_in_a_notebook_the_first_step_takes_one_place_that_every_picture_replaces(notebook):
    with LiveLossPlot() as live:
        live.update(0, 1.0)
        assert len(notebook.displayed) == 1 and notebook.pictures == []
        train(live, notebook.clock, steps=200, seconds_per_step=0.05)
    assert len(notebook.displayed) == 1
    assert len(notebook.pictures) == live.redraws >= 2


def test_the_pictures_are_pngs(notebook):
    with LiveLossPlot() as live:
        live.update(0, 1.0)
    assert notebook.pictures[-1].data.startswith(b"\x89PNG")


def test_a_live_plot_with_no_steps_draws_nothing(notebook):
    with LiveLossPlot() as live:
        pass
    assert live.redraws == 0 and notebook.displayed == []


def test_the_curve_so_far_is_drawn_when_the_loop_raises(clock):
    with pytest.raises(KeyboardInterrupt), LiveLossPlot() as live:
        train(live, clock, steps=3, seconds_per_step=0.01)
        raise KeyboardInterrupt
    assert live.redraws == 1


def test_finishing_twice_draws_once(clock):
    live = LiveLossPlot()
    live.update(0, 1.0)
    live.finish()
    live.finish()
    assert live.redraws == 1


def test_outside_a_notebook_nothing_is_left_open_in_pyplot(clock):
    before = plt.get_fignums()
    with LiveLossPlot() as live:
        train(live, clock, steps=10, seconds_per_step=0.2)
    assert plt.get_fignums() == before


def test_the_live_plot_labels_its_axes_like_the_static_plot():
    axes = LiveLossPlot(title="run").figure.axes[0]
    assert (axes.get_xlabel(), axes.get_ylabel(), axes.get_yscale(), axes.get_title()) == (
        "step",
        "loss (log scale)",
        "log",
        "run",
    )


# --- LiveLossPlot: bad input ---------------------------------------------------------------


def test_updates_after_finish_keep_the_loop_going_are_recorded_and_warn_once(clock):
    """docs/architecture.md promises the plot never stops the training: a second training cell that
    still updates a finished plot goes on, its losses kept, and learns why it is not drawn."""
    with LiveLossPlot() as live:
        live.update(0, 1.0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        for step in range(1, 4):
            live.update(step, 1.0 / (step + 1))
    (warning,) = caught
    assert re.search(r"finished.*kept in \.losses.*new LiveLossPlot", str(warning.message))
    assert warning.filename == __file__  # the loop's own line
    assert live.steps == [0, 1, 2, 3] and live.losses == [1.0, 0.5, 1 / 3, 0.25]
    assert live.redraws == 1 and points(drawn_lines(live.figure)[0]) == [(0, 1.0)]


def test_each_finished_plot_that_is_updated_warns_even_from_the_same_line(clock):
    plots = []
    for _ in range(2):
        with LiveLossPlot() as live:
            live.update(0, 1.0)
        plots.append(live)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")  # Python's own: once per line of code
        for live in plots:
            live.update(1, 0.5)
    assert len(caught) == 2


@pytest.mark.parametrize("bad", [0.0, -1.0, math.inf, TOO_LARGE_FOR_A_FLOAT])
def test_the_live_plot_keeps_training_through_a_loss_it_cannot_draw(clock, bad):
    with LiveLossPlot() as live:
        live.update(0, 1.0)
        live.update(1, bad)
        live.update(2, 0.5)
    kept = math.inf if isinstance(bad, int) else bad  # 10**400 is kept as a float: inf
    assert live.losses == [1.0, kept, 0.5]
    assert points(drawn_lines(live.figure)[0]) == [(0, 1.0), (2, 0.5)]
    assert len(captions(live.figure)) == 1


def test_the_live_plot_keeps_a_nan_loss_and_skips_it_in_the_picture(clock):
    with LiveLossPlot() as live:
        live.update(0, 1.0)
        live.update(1, math.nan)
    assert live.losses[0] == 1.0 and math.isnan(live.losses[1])
    assert points(drawn_lines(live.figure)[0]) == [(0, 1.0)]
    assert captions(live.figure) == [
        "Skipped 1 loss nan or infinite (first at step 1): did the training diverge?"
    ]


def test_the_live_plot_says_once_what_it_left_out_however_many_steps_hit_zero(notebook):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with LiveLossPlot() as live:
            for step in range(400):
                notebook.clock.now += 0.05
                live.update(step, 0.0 if step % 2 else 1.0 / (step + 1))
    assert live.redraws > 2
    assert captions(live.figure) == [
        "Skipped 200 losses 0 or below, which a log axis cannot show (first at step 1); "
        "log_y=False draws them."
    ]
    assert len(notebook.displayed) == 1


def test_a_zero_loss_is_drawn_on_the_live_linear_axis_without_a_caption(clock):
    with LiveLossPlot(log_y=False) as live:
        live.update(0, 1.0)
        live.update(1, 0.0)
    assert list(drawn_lines(live.figure)[0].get_ydata()) == [1.0, 0.0]
    assert captions(live.figure) == []


def test_the_live_plot_accepts_steps_that_are_tensors(clock):
    with LiveLossPlot() as live:
        for step in torch.arange(3):
            live.update(step, torch.tensor(2.0) ** -step)
    assert live.steps == [0, 1, 2] and live.losses == [1.0, 0.5, 0.25]


def test_a_non_numeric_loss_in_the_live_plot_is_refused():
    with pytest.raises(TypeError, match="not a number"):
        LiveLossPlot().update(0, "1.0")


def test_a_step_that_does_not_come_after_the_last_drawn_is_kept_and_skipped_with_a_caption(clock):
    """Not refused, as it once was: an error here would stop the training loop hours in, for
    the picture's sake (plot_losses, called after training, still refuses such steps)."""
    with LiveLossPlot() as live:
        for step, loss in [(5, 1.0), (5, 0.5), (3, 0.4), (6, 0.3)]:
            live.update(step, loss)
    assert live.steps == [5, 5, 3, 6] and live.losses == [1.0, 0.5, 0.4, 0.3]
    assert points(drawn_lines(live.figure)[0]) == [(5, 1.0), (6, 0.3)]
    assert captions(live.figure) == [
        "Skipped 2 losses whose step does not come after the step drawn before it (first at "
        "step 5): count steps with one counter for the whole run."
    ]


def test_steps_that_restart_each_epoch_keep_the_loop_running_and_draw_the_first_epoch(clock):
    with LiveLossPlot() as live:
        for epoch in range(3):
            for batch in range(4):
                clock.now += 0.3
                live.update(batch, 1.0 / (1 + epoch * 4 + batch))
    assert len(live.losses) == 12 and live.steps[4:8] == [0, 1, 2, 3]
    assert [x for x, _ in points(drawn_lines(live.figure)[0])] == [0, 1, 2, 3]
    assert captions(live.figure)[0].startswith("Skipped 8 losses whose step does not come after")


@pytest.mark.parametrize(
    "steps", [[0.5, 1.0, 1.5], [np.float32(0.5), 1, torch.tensor(1.5)]], ids=["floats", "mixed"]
)
def test_the_live_plot_accepts_steps_that_are_not_whole_numbers_such_as_epochs(clock, steps):
    with LiveLossPlot() as live:
        for step, loss in zip(steps, [1.0, 0.5, 0.25], strict=True):
            live.update(step, loss)
    assert live.steps == [0.5, 1, 1.5]
    assert points(drawn_lines(live.figure)[0]) == [(0.5, 1.0), (1, 0.5), (1.5, 0.25)]
    assert captions(live.figure) == []


@pytest.mark.parametrize("bad", [math.nan, math.inf, TOO_LARGE_FOR_A_FLOAT])
def test_a_nan_or_infinite_step_is_kept_and_skipped_with_a_caption(clock, bad):
    with LiveLossPlot() as live:
        live.update(0, 1.0)
        live.update(bad, 0.5)
        live.update(2, 0.25)
    assert live.losses == [1.0, 0.5, 0.25]
    assert points(drawn_lines(live.figure)[0]) == [(0, 1.0), (2, 0.25)]
    (caption,) = captions(live.figure)
    written = "inf" if isinstance(bad, int) else str(bad)  # 10**400 is inf as a float
    assert caption == (
        "Skipped 1 loss whose step is nan or infinite, which the axis cannot place (first at "
        f"step {written})."
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_caption_about_steps_is_written_in_the_chosen_language(language, fresh_font_lookup):
    machine_font()
    with speaking(language), LiveLossPlot() as live:
        for step, loss in [(0, 1.0), (math.nan, 0.5), (0, 0.25)]:
            live.update(step, loss)
        expected = [
            WORDS[language]["step not finite"].format(
                losses=WORDS[language]["one loss"],
                where=WORDS[language]["at step"].format(step=math.nan),
            ),
            WORDS[language]["step goes back"].format(
                losses=WORDS[language]["one loss"],
                where=WORDS[language]["at step"].format(step=0),
            ),
        ]
    (caption,) = live.figure.axes[0].texts
    assert re.sub(r"\s", "", caption.get_text()) == re.sub(r"\s", "", "".join(expected))


@pytest.mark.parametrize("not_a_number", ["3", True, torch.ones(2), None])
def test_a_step_that_is_not_a_number_is_refused_at_the_first_update(not_a_number):
    with pytest.raises(TypeError, match="A step must be a number"):
        LiveLossPlot().update(not_a_number, 1.0)


@pytest.mark.parametrize("where", ["loss", "step"])
def test_a_meta_tensor_is_refused_as_holding_no_numbers(where):
    meta = torch.empty((), device="meta")
    step, loss = (0, meta) if where == "loss" else (meta, 1.0)
    with pytest.raises(TypeError, match="meta tensor.*holds no numbers"):
        LiveLossPlot().update(step, loss)


def test_plot_losses_refuses_a_meta_tensor_loss_as_holding_no_numbers():
    with pytest.raises(TypeError, match="at step 1 is a meta tensor.*holds no numbers"):
        plot_losses([1.0, torch.ones((), device="meta")])


@pytest.mark.parametrize(
    ("log_y", "near_the_limit"),
    [(True, [1e308, 1.7e308]), (False, [-1e308, 1e308])],
    ids=["log", "linear"],
)
def test_a_curve_matplotlib_cannot_draw_warns_once_and_the_loop_goes_on(
    notebook, log_y, near_the_limit
):
    losses = [*near_the_limit, 1e308, 1e308, 1e308]
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with LiveLossPlot(log_y=log_y) as live:
            for step, loss in enumerate(losses):
                notebook.clock.now += 1.0
                live.update(step, loss)
    (warning,) = caught
    assert re.search(
        r"could not draw the loss curve \(\w+Error: .*stops redrawing.*\.losses",
        str(warning.message),
    )
    assert warning.filename == __file__  # it points at the loop's own line
    assert live.losses == losses and live.steps == [0, 1, 2, 3, 4]
    # No picture: the placeholder gives way to a line that says there will be none, and why.
    assert live.redraws == 0
    (notice,) = notebook.pictures
    assert notice.data == (
        "(the loss curve could not be drawn: the warning below says why; "
        "every loss is in .losses, with its step in .steps)"
    )


@pytest.mark.parametrize("bad", [-1.0, math.nan])
def test_a_negative_or_nan_interval_is_refused(bad):
    with pytest.raises(ValueError, match="every_seconds must be 0 or more"):
        LiveLossPlot(every_seconds=bad)


# --- LiveLossPlot: every label in the picture, every failure said ---------------------------


def labels_fit(figure):
    """True if the y label is inside the picture and clear of the tick labels beside it."""
    figure.savefig(io.BytesIO(), format="png")
    renderer = figure.canvas.get_renderer()
    axes = figure.axes[0]
    label = axes.yaxis.label.get_window_extent(renderer)
    ticks = axes.yaxis.get_tightbbox(renderer)  # the label, the tick labels, the offset
    tick_labels = [text.get_window_extent(renderer) for text in axes.get_yticklabels()]
    shown = [box for box in tick_labels if box.width > 0 and axes.bbox.y0 <= box.y0 <= axes.bbox.y1]
    return label.x0 >= 0 and ticks.x0 >= 0 and all(label.x1 <= box.x0 for box in shown)


@pytest.mark.parametrize(
    ("log_y", "losses"),
    [
        (False, [123456789.0 + 1000 * step for step in range(50)]),
        (True, [1.5e-7 * (1 + 0.005 * step) for step in range(50)]),
        (True, [1e-7 * (1 + 0.01 * step) for step in range(50)]),
    ],
    ids=["123456789.0", "1.5e-7", "1e-7"],
)
def test_the_live_plots_y_label_is_not_cut_off_by_wide_tick_labels(clock, log_y, losses):
    with LiveLossPlot(log_y=log_y) as live:
        for step, loss in enumerate(losses):
            live.update(step, loss)
    assert labels_fit(live.figure)


def test_the_live_plot_keeps_its_usual_size_and_margins_for_usual_losses(clock):
    with LiveLossPlot() as live:
        train(live, clock, steps=50, seconds_per_step=0.01)
    assert tuple(live.figure.get_size_inches()) == helpers.plot.axes.FIGURE_SIZE
    assert live.figure.subplotpars.left == pytest.approx(0.13)


def test_the_live_caption_sits_under_the_axes_and_the_picture_grows_for_it(clock):
    with LiveLossPlot() as live:
        for step, loss in enumerate(DIVERGING):
            live.update(step, loss)
    caption, axes, whole = boxes_after_drawing(live.figure)
    assert caption.y1 < axes.y0
    assert whole.contains(caption.x0, caption.y0) and whole.contains(caption.x1, caption.y1)
    assert live.figure.get_figheight() > helpers.plot.axes.FIGURE_SIZE[1]


def test_the_live_plot_draws_a_curve_of_one_point_as_a_dot(clock):
    with LiveLossPlot() as live:
        live.update(0, 2.5)
    assert pixels_of(live.figure, BLUE) > 20


def test_a_live_title_with_dollars_matplotlib_cannot_read_still_draws(notebook):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with LiveLossPlot(title="a $b^$ title") as live:
            live.update(0, 1.0)
            live.update(1, 0.5)
    assert live.redraws == 1 and notebook.pictures[-1].data.startswith(b"\x89PNG")


def test_a_live_loss_whose_item_fails_is_refused_with_that_reason():
    with pytest.raises(TypeError, match="RuntimeError: CUDA error"):
        LiveLossPlot().update(0, ItemFails())


def test_every_plot_that_cannot_draw_warns_even_from_the_same_line(notebook):
    """Python's default filter shows a warning once per line of code: a loop over two runs,
    or a cell run again, must still say why each plot shows no curve."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("default")
        for _ in range(2):
            with LiveLossPlot() as live:
                for step, loss in enumerate([1e308, 1.7e308, 1e308]):
                    notebook.clock.now += 1.0
                    live.update(step, loss)
    assert len(caught) == 2


def test_the_placeholder_says_when_the_curve_comes_and_how_to_finish(notebook):
    live = LiveLossPlot(every_seconds=2)
    live.update(0, 1.0)  # a short loop, with no with block and no finish()
    (placeholder,) = notebook.displayed
    assert "first after 2 s" in placeholder.data and ".finish()" in placeholder.data


def test_the_live_plots_text_form_says_whether_it_is_finished_and_how_to_finish(clock):
    live = LiveLossPlot()
    live.update(0, 1.0)
    assert repr(live) == (
        "<LiveLossPlot: losses recorded: 1, pictures drawn: 0; not finished: .finish(), "
        "or the end of a with block, draws the final curve>"
    )
    live.finish()
    assert repr(live).endswith("pictures drawn: 1; finished: the final curve is drawn>")


def test_the_text_form_of_a_plot_that_could_not_draw_does_not_claim_a_curve(notebook):
    with warnings.catch_warnings(record=True), LiveLossPlot() as live:
        for step, loss in enumerate([1e308, 1.7e308, 1e308]):
            notebook.clock.now += 1.0
            live.update(step, loss)
    assert repr(live).endswith(
        "pictures drawn: 0; stopped redrawing: matplotlib could not draw the curve, "
        "as the warning said>"
    )


# --- In a real notebook kernel -------------------------------------------------------------

LIVE_CELL = """\
import math
import helpers.plot
from helpers.plot import LiveLossPlot

helpers.plot.live.MAX_REDRAW_SHARE = math.inf  # no throttling: redraw at every step
with LiveLossPlot(every_seconds=0) as live:
    for step in range(10):
        live.update(step, 0.0 if step == 5 else 10.0 ** -step)  # 0.0: skipped, never raised
        print(step)
"""


AXES_OF_YOUR_OWN_CELL = """\
import matplotlib.pyplot as plt

figure, axes = plt.subplots(1, 2, layout="constrained")
helpers.plot.plot_losses([3.0, 2.0, 1.0], ax=axes[0])
helpers.plot.plot_losses([3.0, 1.0], ax=axes[1])
"""


@pytest.fixture(scope="module")
def executed_cells():
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(LIVE_CELL),
        nbformat.v4.new_code_cell("live.redraws"),
        nbformat.v4.new_code_cell("helpers.plot.plot_losses({'a': [3.0, 2.0], 'b': [3.0, 1.0]})"),
        nbformat.v4.new_code_cell(AXES_OF_YOUR_OWN_CELL),
    ]
    NotebookClient(notebook, kernel_name="python3", timeout=120).execute()
    return notebook.cells


def figures(cell):
    return [output for output in cell.outputs if "image/png" in output.get("data", {})]


def test_a_live_plot_cell_keeps_exactly_one_figure_after_many_redraws(executed_cells):
    live_cell, redraws, *_ = executed_cells
    # The first step only starts the clock; every later step and the end redraw.
    assert int(redraws.outputs[0].data["text/plain"]) == 10
    assert len(figures(live_cell)) == 1
    assert figures(live_cell)[0].output_type == "display_data"


def test_a_live_plot_cell_shows_its_figure_above_what_the_loop_printed(executed_cells):
    outputs = executed_cells[0].outputs
    assert outputs[0].output_type == "display_data" and "image/png" in outputs[0].data
    assert all(output.output_type == "stream" for output in outputs[1:])


def test_a_live_plot_cell_keeps_its_printed_lines(executed_cells):
    printed = "".join(o.text for o in executed_cells[0].outputs if o.output_type == "stream")
    # Only what the loop printed: the skipped zero loss adds no warning to the cell.
    assert printed.split() == [str(step) for step in range(10)]


def test_a_live_plot_cell_stores_a_text_form_that_is_the_same_every_run(executed_cells):
    (figure,) = figures(executed_cells[0])
    assert figure.data["text/plain"] == "<IPython.core.display.Image object>"


def test_a_cell_drawing_into_axes_of_your_own_shows_the_figure_once(executed_cells):
    """pyplot shows the learner's figure at the end of the cell; returned, it showed twice."""
    (figure,) = figures(executed_cells[3])
    assert figure.data["text/plain"].startswith("<Figure size 640x480")
    assert [output.output_type for output in executed_cells[3].outputs] == ["display_data"]


def test_a_cell_ending_in_plot_losses_shows_the_figure_once(executed_cells):
    plot_cell = executed_cells[2]
    assert len(figures(plot_cell)) == 1
    assert figures(plot_cell)[0].data["text/plain"] == "<Figure size 600x350 with 1 Axes>"


# --- in Chinese: words in the picture only where a font can draw them ----------------------

GLYPH_MISSING = re.compile(r"Glyph \d+ .* missing from font")
# Every word a zh picture may draw, to ask the machine's fonts about.
CHINESE_CHARACTERS = helpers.plot.words.characters_beyond_ascii(WORDS["zh"])


def missing_glyphs(draw):
    """The "Glyph ... missing from font" warnings matplotlib gives while ``draw()`` runs."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        draw()
    messages = [str(warning.message) for warning in caught]
    return [message for message in messages if GLYPH_MISSING.search(message)]


def drawn(figure):
    """Render ``figure`` as the notebook would: matplotlib warns about glyphs only when drawing."""
    return lambda: figure.savefig(io.BytesIO(), format="png")


def every_kind_of_text():
    """A zh figure with every word plot_losses writes: labels, a legend, both captions."""
    return plot_losses({"a": [1.0, 0.0, math.nan, 0.5], "": [2.0, 1.0, 0.5, 0.25]})


def machine_font():
    """The name of this machine's font with every Chinese character the plots draw, or skip."""
    name = helpers.plot.words.ChineseFont().name(CHINESE_CHARACTERS)
    if name is None:
        pytest.skip("no font with Chinese characters here (Debian: apt install fonts-wqy-microhei)")
    return name


@pytest.fixture
def no_chinese_font(monkeypatch):
    """This machine as Colab is: matplotlib knows no font with Chinese characters."""
    manager = helpers.plot.words.font_manager.fontManager
    latin = [entry for entry in manager.ttflist if not _draws(entry.fname, "步")]
    monkeypatch.setattr(manager, "ttflist", latin)
    monkeypatch.setattr(
        helpers.plot.words.font_manager, "findSystemFonts", lambda: [e.fname for e in latin]
    )
    monkeypatch.setattr(helpers.plot.words, "chinese_font", helpers.plot.words.ChineseFont())


@pytest.fixture
def fresh_font_lookup(monkeypatch):
    """Look the font up again in this test, whatever an earlier test found."""
    monkeypatch.setattr(helpers.plot.words, "chinese_font", helpers.plot.words.ChineseFont())


def _draws(path, character):
    return helpers.plot.words.has_characters(path, character)


def test_every_language_has_every_word_with_the_same_blanks():
    assert set(WORDS) == set(LANGUAGES)
    for language, words in WORDS.items():
        assert set(words) == set(WORDS["en"]), language
        for key, text in words.items():
            blanks = sorted(re.findall(r"\{(\w+)\}", text))
            assert blanks == sorted(re.findall(r"\{(\w+)\}", WORDS["en"][key])), (language, key)


def test_drawing_chinese_without_a_chinese_font_gives_the_warning_this_suite_looks_for(
    no_chinese_font,
):
    # The check itself: what the tests below must never see, matplotlib gives here.
    figure = plot_losses([1.0, 0.5])
    figure.axes[0].set_xlabel("步")
    assert missing_glyphs(drawn(figure))


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_picture_misses_a_glyph_on_this_machine(language, fresh_font_lookup, notebook):
    with speaking(language):
        assert missing_glyphs(drawn(every_kind_of_text())) == []
        assert missing_glyphs(drawn(plot_losses([1.0, -0.5], log_y=False))) == []

        def live_run():
            with LiveLossPlot(title="run") as live:
                for step in range(50):
                    notebook.clock.now += 0.1
                    live.update(step, math.nan if step == 3 else 1.0 / (step + 1))

        assert missing_glyphs(live_run) == []
    assert notebook.pictures, "the live plot drew no picture to check"


def test_in_chinese_without_a_chinese_font_the_picture_keeps_its_english_words(no_chinese_font):
    with speaking("zh"):
        figure = every_kind_of_text()
        assert missing_glyphs(drawn(figure)) == []
    axes = figure.axes[0]
    assert (axes.get_xlabel(), axes.get_ylabel()) == ("step", "loss (log scale)")
    assert legend_texts(figure) == ["a", "(unnamed run)"]
    assert captions(figure)[0].startswith("Skipped 1 loss nan or infinite")


def test_in_chinese_with_a_chinese_font_the_picture_speaks_chinese(fresh_font_lookup):
    font = machine_font()
    with speaking("zh"):
        figure = every_kind_of_text()
        live = LiveLossPlot(log_y=False)
        assert missing_glyphs(drawn(figure)) == []
    axes = figure.axes[0]
    assert (axes.get_xlabel(), axes.get_ylabel()) == ("步数", "损失（对数坐标）")
    assert live.figure.axes[0].get_ylabel() == "损失"
    assert legend_texts(figure) == ["a", "（未命名）"]
    # Compared without spaces: a Chinese line may break anywhere, at a space or between characters.
    assert [re.sub(r"\s", "", text.get_text()) for text in axes.texts] == [
        "跳过了1个nan或无穷大的损失（第一个在运行'a'的第2步）：训练发散了吗？"
        "跳过了1个小于或等于0的损失，对数坐标轴画不出它们（第一个在运行'a'的第1步）；"
        "log_y=False可以画出它们。"
    ]
    # Latin letters and digits keep matplotlib's own font; only Chinese comes from the other.
    assert axes.xaxis.label.get_fontfamily()[-1] == font


def test_a_chinese_caption_wraps_by_width_and_keeps_closing_marks_on_their_line():
    note = helpers.plot.axes.Skipped(
        counts={"not positive": 200}, first={"not positive": (1, "a long run name")}
    )
    words = helpers.plot.words.Words(WORDS["zh"])
    lines = note.note(words).split("\n")
    assert len(lines) > 1
    for line in lines:
        assert columns(line) <= helpers.plot.axes.CAPTION_WIDTH, line
        assert line[0] not in "，。、；：？！）", line
    assert "log_y=False" in "".join(lines)  # never broken inside


def test_a_font_counts_only_if_it_has_the_characters_not_for_its_name(monkeypatch):
    # DejaVu Sans is on every machine with matplotlib, and has no Chinese.
    finder = helpers.plot.words.ChineseFont()
    monkeypatch.setattr(finder, "PREFERRED", ("DejaVu Sans",))
    assert finder.name("步") is None
    assert finder.name("step") == "DejaVu Sans"


def test_a_chinese_font_installed_after_matplotlib_cached_its_font_list_is_found(monkeypatch):
    machine_font()
    manager = helpers.plot.words.font_manager.fontManager
    # matplotlib's cached list as it was before any Chinese font was installed:
    latin = [entry for entry in manager.ttflist if not _draws(entry.fname, "步")]
    monkeypatch.setattr(manager, "ttflist", latin)
    found = helpers.plot.words.ChineseFont().name(CHINESE_CHARACTERS)
    assert found is not None
    assert any(entry.name == found for entry in manager.ttflist)  # added, as a new cache would


def test_the_live_plots_place_holder_is_in_the_chosen_language_with_or_without_a_font(
    notebook, no_chinese_font
):
    with speaking("zh"), LiveLossPlot() as live:
        live.update(0, 1.0)
    (placeholder,) = notebook.displayed
    assert str(placeholder.data) == (
        "（训练循环运行时，损失曲线会画在这里：0.5 秒后第一次画出，调用 .finish() 时"
        "画出完整的曲线；with 块结束时会自动调用它）"
    )


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_title_and_run_names_written_in_chinese_are_drawn_with_the_chinese_font(
    language, fresh_font_lookup
):
    font = machine_font()
    with speaking(language):
        figure = plot_losses({"自定义": [1.0, 0.5], "内置": [2.0, 1.0]}, title="两层网络")
        live = LiveLossPlot(title="两层网络")
        assert missing_glyphs(drawn(figure)) == missing_glyphs(drawn(live.figure)) == []
    assert figure.axes[0].title.get_fontfamily()[-1] == font


def test_in_english_a_latin_picture_asks_for_no_font():
    # No font lookup, no change to matplotlib's defaults: the English edition draws as before.
    figure = plot_losses({"a": [1.0, 0.5]}, title="run")
    assert figure.axes[0].xaxis.label.get_fontfamily() == plt.rcParams["font.family"]


# --- a title per language ----------------------------------------------------------------------

TITLES = {"en": "two-layer network", "zh": "两层网络"}


def titles_drawn(title):
    """The title of plot_losses's picture and of the live plot's, given ``title``."""
    figure = plot_losses(FALLING, title=title)
    live = LiveLossPlot(title=title)
    return figure.axes[0].get_title(), live.figure.axes[0].get_title()


def test_a_title_given_per_language_is_drawn_in_english_in_the_english_edition():
    with speaking("en"):
        assert titles_drawn(TITLES) == ("two-layer network", "two-layer network")


def test_a_title_given_per_language_is_drawn_in_chinese_where_a_font_draws_it(fresh_font_lookup):
    font = machine_font()
    with speaking("zh"):
        figure = plot_losses(FALLING, title=TITLES)
        assert missing_glyphs(drawn(figure)) == []
        assert titles_drawn(TITLES) == ("两层网络", "两层网络")
    assert figure.axes[0].title.get_fontfamily()[-1] == font
    assert figure.axes[0].get_xlabel() == "步数"


def test_without_a_chinese_font_a_title_per_language_is_english_like_the_axes(no_chinese_font):
    with speaking("zh"):
        figure = plot_losses(FALLING, title=TITLES)
        assert missing_glyphs(drawn(figure)) == []
        assert titles_drawn(TITLES) == ("two-layer network", "two-layer network")
    assert figure.axes[0].get_xlabel() == "step"


def test_a_title_with_no_entry_for_the_chosen_language_is_drawn_in_english(fresh_font_lookup):
    machine_font()
    with speaking("zh"):
        assert titles_drawn({"en": "run"}) == ("run", "run")


def test_a_title_given_as_one_text_is_drawn_as_it_is_in_either_language(fresh_font_lookup):
    machine_font()
    for language in LANGUAGES:
        with speaking(language):
            assert titles_drawn("run 1") == ("run 1", "run 1")


@pytest.mark.parametrize(
    ("title", "error", "message"),
    [
        ({"zh": "两层网络"}, ValueError, "no English entry"),
        ({"en": "two-layer network", "zh": 2}, TypeError, r"title\['zh'\] must be a text"),
        ({"en": "two-layer network", "cn": "两层网络"}, ValueError, "'cn', which is not a lang"),
        (2, TypeError, "title must be a text.*one text per language"),
    ],
    ids=["no en", "not text", "unknown language", "a number"],
)
@pytest.mark.parametrize("make", [plot_losses, LiveLossPlot], ids=["plot_losses", "live"])
def test_a_title_that_is_not_text_or_one_text_per_language_is_refused(title, error, message, make):
    with pytest.raises(error, match=message):
        make(FALLING, title=title) if make is plot_losses else make(title=title)


def test_a_chinese_title_the_font_cannot_draw_makes_the_whole_picture_english(monkeypatch):
    font = machine_font()

    class FontWithoutTheTitlesLastCharacter:
        def name(self, characters):
            return None if "络" in characters else font

    monkeypatch.setattr(helpers.plot.words, "chinese_font", FontWithoutTheTitlesLastCharacter())
    with speaking("zh"):
        figure = plot_losses(FALLING, title=TITLES)
    assert (figure.axes[0].get_title(), figure.axes[0].get_xlabel()) == (
        "two-layer network",
        "step",
    )

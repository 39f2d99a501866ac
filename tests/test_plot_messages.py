"""helpers.plot in Chinese: every error, the warning and the placeholder a learner reads.

Words drawn into a picture are Chinese only where a font can draw them (tests/test_plot.py);
what is read as text follows the chosen language on every machine, so these tests run the
real error under ``speaking("zh")`` and read it.
"""

import math
import warnings

import pytest
import torch
from speaks import assert_speaks_chinese

import helpers.plot
from helpers.language import get_language, speaking
from helpers.plot import LiveLossPlot, plot_losses

FALLING = [1000.0, 100.0, 10.0, 1.0, 0.1]


@pytest.fixture(autouse=True)
def english_after_each_test():
    yield
    assert get_language() == "en", "a test left the helpers speaking another language"


def refused_in_chinese(error, call):
    """The text of the ``error`` that ``call()`` raises while the helpers speak Chinese."""
    with speaking("zh"), pytest.raises(error) as refused:
        call()
    text = str(refused.value)
    assert_speaks_chinese(text)
    return text


class FakeDisplay:
    """Stands in for IPython's display in a notebook: keeps what is shown, draws every picture."""

    def __init__(self):
        self.shown = []

    def __call__(self, placeholder, display_id=False):
        self.shown.append(placeholder)
        return self

    def update(self, picture):
        self.shown.append(picture)


@pytest.fixture
def notebook(monkeypatch):
    """Make the live plot believe it runs in a notebook, redrawing at every step."""
    display = FakeDisplay()
    monkeypatch.setattr(helpers.plot.live, "notebook_display", lambda: display)
    monkeypatch.setattr(helpers.plot.live, "clock", iter(range(1_000_000)).__next__)
    return display


@pytest.fixture
def no_chinese_font(monkeypatch):
    """A machine such as Colab's: no font draws Chinese, so the pictures keep English words."""

    class NoFont:
        def name(self, characters):
            return None

    monkeypatch.setattr(helpers.plot.words, "chinese_font", NoFont())


# --- plot_losses: the losses --------------------------------------------------------------


def test_an_empty_list_of_losses_is_refused_in_chinese_with_the_hint_about_the_loop():
    text = refused_in_chinese(ValueError, lambda: plot_losses([]))
    assert "loss.item()" in text


def test_an_empty_run_in_a_dict_is_named_in_the_chinese_error():
    text = refused_in_chinese(ValueError, lambda: plot_losses({"a": FALLING, "custom": []}))
    assert "'custom'" in text


def test_an_empty_dict_of_runs_is_refused_in_chinese_with_an_example():
    text = refused_in_chinese(ValueError, lambda: plot_losses({}))
    assert "{'training': losses}" in text


@pytest.mark.parametrize("not_a_list", ["1 2 3", 3.0, None], ids=["a string", "number", "None"])
def test_something_that_is_not_a_list_of_losses_is_refused_in_chinese(not_a_list):
    text = refused_in_chinese(TypeError, lambda: plot_losses(not_a_list))
    assert type(not_a_list).__name__ in text and "losses.append(loss.item())" in text


def test_losses_and_steps_of_different_lengths_are_refused_in_chinese_with_both_counts():
    text = refused_in_chinese(ValueError, lambda: plot_losses(FALLING, steps=[0, 1, 2, 3]))
    assert "5" in text and "4" in text


def test_a_run_whose_length_differs_from_steps_is_named_in_the_chinese_error():
    runs = {"long": FALLING, "short": FALLING[:3]}
    text = refused_in_chinese(ValueError, lambda: plot_losses(runs, steps=[0, 1, 2, 3, 4]))
    assert "'short'" in text


def test_a_loss_that_is_not_a_number_is_refused_in_chinese_with_its_step_and_type():
    text = refused_in_chinese(TypeError, lambda: plot_losses([1.0, "0.5"]))
    assert "'0.5'" in text and "str" in text and "第 1 步" in text


def test_a_non_number_in_a_named_run_names_the_run_in_chinese():
    text = refused_in_chinese(TypeError, lambda: plot_losses({"a": [1.0, None]}))
    assert "'a'" in text and "NoneType" in text


def test_a_list_of_lists_gets_the_chinese_hint_to_pass_a_dict_for_several_runs():
    text = refused_in_chinese(TypeError, lambda: plot_losses([FALLING, FALLING]))
    assert "{'run a': losses_a, 'run b': losses_b}" in text


def test_a_tensor_of_several_numbers_as_one_loss_is_refused_in_chinese():
    text = refused_in_chinese(TypeError, lambda: plot_losses([torch.ones(3)]))
    assert "loss.item()" in text


def test_a_meta_tensor_loss_is_refused_in_chinese_as_holding_no_numbers():
    meta = torch.ones((), device="meta")
    text = refused_in_chinese(TypeError, lambda: plot_losses([1.0, meta]))
    assert "device='meta'" in text and "第 1 步" in text


class ItemFails:
    def item(self):
        raise RuntimeError("CUDA error: device-side assert triggered")


@pytest.mark.parametrize("make", [plot_losses, LiveLossPlot], ids=["plot_losses", "live"])
def test_a_loss_whose_item_fails_is_refused_in_chinese_with_that_reason(make):
    def call():
        return (
            plot_losses([1.0, ItemFails()])
            if make is plot_losses
            else make().update(1, ItemFails())
        )

    text = refused_in_chinese(TypeError, call)
    assert "ItemFails" in text and "CUDA error: device-side assert triggered" in text
    assert "第 1 步" in text


def test_an_empty_tensor_as_a_loss_is_refused_in_chinese():
    text = refused_in_chinese(TypeError, lambda: plot_losses([1.0, torch.tensor([])]))
    assert "空的张量" in text and "loss.item()" in text and "第 1 步" in text


# --- plot_losses: the steps ---------------------------------------------------------------


def test_steps_that_are_not_a_list_are_refused_in_chinese_with_an_example():
    text = refused_in_chinese(TypeError, lambda: plot_losses(FALLING, steps=5))
    assert "[0, 10, 20]" in text and "int" in text


def test_a_dict_of_steps_and_losses_with_steps_as_well_is_refused_in_chinese():
    text = refused_in_chinese(ValueError, lambda: plot_losses({0: 3.1, 10: 2.5}, steps=[0, 10]))
    assert "steps=" in text and "{step: loss}" in text


@pytest.mark.parametrize(
    "steps", [[0, 0.5, 1, 1.5, 2], torch.linspace(0, 4, 5)], ids=["floats", "a float tensor"]
)
def test_a_step_that_is_not_a_whole_number_is_refused_in_chinese(steps):
    text = refused_in_chinese(TypeError, lambda: plot_losses(FALLING, steps=steps))
    assert "float" in text


def test_a_step_too_large_for_the_axis_is_refused_in_chinese():
    refused_in_chinese(ValueError, lambda: plot_losses([1.0, 0.5], steps=[0, 10**400]))


def test_steps_that_do_not_increase_are_refused_in_chinese_naming_both_steps():
    text = refused_in_chinese(ValueError, lambda: plot_losses(FALLING, steps=[0, 5, 2, 7, 9]))
    assert "第 2 步" in text and "第 5 步" in text


def test_a_meta_tensor_step_is_refused_in_chinese():
    steps = [0, torch.ones((), dtype=torch.long, device="meta")]
    text = refused_in_chinese(TypeError, lambda: plot_losses([1.0, 0.5], steps=steps))
    assert "device='meta'" in text


# --- the title, for both plots ------------------------------------------------------------


@pytest.mark.parametrize(
    ("title", "error", "code"),
    [
        (2, TypeError, "int"),
        ({"en": "two-layer network", "cn": "两层网络"}, ValueError, "'cn'"),
        ({"zh": "两层网络"}, ValueError, '"en"'),
        ({"en": "two-layer network", "zh": 2}, TypeError, "title['zh']"),
    ],
    ids=["a number", "unknown language", "no en", "not text"],
)
@pytest.mark.parametrize("make", [plot_losses, LiveLossPlot], ids=["plot_losses", "live"])
def test_a_title_that_is_not_text_or_one_text_per_language_is_refused_in_chinese(
    title, error, code, make
):
    def call():
        return make(FALLING, title=title) if make is plot_losses else make(title=title)

    text = refused_in_chinese(error, call)
    assert code in text
    assert '{"en": "two-layer network", "zh": "两层网络"}' in text  # the example to copy


def test_a_title_error_is_chinese_also_where_no_font_draws_chinese(no_chinese_font):
    refused_in_chinese(TypeError, lambda: plot_losses(FALLING, title=2))


# --- LiveLossPlot -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("every_seconds", "error"),
    [("0.5", TypeError), (True, TypeError), (-1.0, ValueError), (math.nan, ValueError)],
)
def test_an_interval_that_is_not_0_or_more_seconds_is_refused_in_chinese(every_seconds, error):
    text = refused_in_chinese(error, lambda: LiveLossPlot(every_seconds=every_seconds))
    assert "every_seconds" in text and repr(every_seconds) in text


def test_an_update_after_finish_warns_in_chinese_with_the_fix():
    live = LiveLossPlot()
    live.finish()
    with speaking("zh"), warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        live.update(0, 1.0)
    (warning,) = caught
    assert_speaks_chinese(str(warning.message))
    assert "LiveLossPlot" in str(warning.message) and "plot_losses(live.losses)" in str(
        warning.message
    )


@pytest.mark.parametrize("not_a_number", ["3", True, torch.ones(2), None])
def test_a_live_step_that_is_not_a_number_is_refused_in_chinese(not_a_number):
    text = refused_in_chinese(TypeError, lambda: LiveLossPlot().update(not_a_number, 1.0))
    assert type(not_a_number).__name__ in text


@pytest.mark.parametrize("where", ["loss", "step"])
def test_a_live_meta_tensor_is_refused_in_chinese_as_holding_no_numbers(where):
    meta = torch.empty((), device="meta")
    step, loss = (0, meta) if where == "loss" else (meta, 1.0)
    text = refused_in_chinese(TypeError, lambda: LiveLossPlot().update(step, loss))
    assert "device='meta'" in text


def test_a_live_loss_that_is_not_a_number_is_refused_in_chinese_with_its_step():
    text = refused_in_chinese(TypeError, lambda: LiveLossPlot().update(3, "1.0"))
    assert "第 3 步" in text and "'1.0'" in text


def test_a_live_tensor_of_several_numbers_is_refused_in_chinese():
    text = refused_in_chinese(TypeError, lambda: LiveLossPlot().update(0, torch.ones(3)))
    assert "loss.item()" in text


def the_warning_of(steps_and_losses, live):
    """The warnings ``live`` gives while a loop records ``steps_and_losses``."""
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        with live:
            for step, loss in steps_and_losses:
                live.update(step, loss)
    return [warning.message for warning in caught]


def test_a_curve_matplotlib_cannot_draw_warns_once_in_chinese_and_the_loop_goes_on(notebook):
    # Losses near the largest float: matplotlib's log axis overflows while drawing them.
    losses = [1e308, 1.7e308, 1e308, 1e308]
    with speaking("zh"):
        (message,) = the_warning_of(enumerate(losses), LiveLossPlot())
    assert isinstance(message, UserWarning)
    assert_speaks_chinese(str(message))
    assert ".losses" in str(message) and "OverflowError" in str(message)


def test_a_figure_that_fails_to_draw_warns_in_chinese_with_matplotlibs_own_words(
    notebook, monkeypatch, no_chinese_font
):
    with speaking("zh"):
        live = LiveLossPlot()

    def fail(renderer):
        raise RuntimeError("the renderer ran out of memory")

    monkeypatch.setattr(live.figure, "draw", fail)
    with speaking("zh"):
        (message,) = the_warning_of([(0, 1.0), (1, 0.5), (2, 0.25)], live)
    assert_speaks_chinese(str(message))
    assert "the renderer ran out of memory" in str(message)  # quoted as matplotlib said it
    assert live.losses == [1.0, 0.5, 0.25] and live.redraws == 0


def test_a_placeholder_no_curve_will_replace_says_so_in_chinese(notebook, monkeypatch):
    with speaking("zh"):
        live = LiveLossPlot()
    monkeypatch.setattr(live.figure, "draw", lambda renderer: 1 / 0)
    with speaking("zh"):
        the_warning_of([(0, 1.0), (1, 0.5)], live)
    placeholder, notice = notebook.shown
    assert_speaks_chinese(str(notice.data))
    assert ".losses" in str(notice.data) and str(notice.data) != str(placeholder.data)


def test_the_live_plots_text_form_speaks_chinese_before_and_after_finish(notebook):
    live = LiveLossPlot()
    live.update(0, 1.0)
    with speaking("zh"):
        running = repr(live)
        live.finish()
        finished = repr(live)
    gave_up = LiveLossPlot()
    with speaking("zh"):
        the_warning_of(enumerate([1e308, 1.7e308, 1e308]), gave_up)
        stopped = repr(gave_up)
    for text in (running, finished, stopped):
        assert_speaks_chinese(text)
    assert ".finish()" in running and len({running, finished, stopped}) == 3


@pytest.mark.usefixtures("no_chinese_font")
def test_the_placeholder_is_chinese_even_where_no_font_draws_chinese(notebook):
    with speaking("zh"), LiveLossPlot() as live:
        live.update(0, 1.0)
    placeholder = notebook.shown[0]
    assert_speaks_chinese(str(placeholder.data))


def test_the_placeholder_is_english_in_the_english_edition(notebook):
    with LiveLossPlot() as live:
        live.update(0, 1.0)
    assert str(notebook.shown[0].data) == (
        "(the loss curve is drawn here while the loop runs: first after 0.5 s, "
        "and in full at .finish(), which a with block calls when it ends)"
    )


# --- the words drawn in the picture, where a font draws Chinese ----------------------------


def test_with_a_chinese_font_the_pictures_labels_and_caption_speak_chinese():
    if helpers.plot.words.chinese_font.name("步数损失跳过") is None:
        pytest.skip("no font with Chinese characters here (Debian: apt install fonts-wqy-microhei)")
    with speaking("zh"):
        axes = plot_losses({"a": [1.0, 0.0, 0.5], "": [1.0, 0.5, 0.25]}).axes[0]
    legend = [text.get_text() for text in axes.get_legend().get_texts()]
    for text in [axes.get_xlabel(), axes.get_ylabel(), legend[1], axes.texts[0].get_text()]:
        assert_speaks_chinese(" ".join(text.split()))
    assert "log_y=False" in axes.texts[0].get_text()

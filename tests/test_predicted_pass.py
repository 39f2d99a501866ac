"""A backward pass played as questions in the view: step_through(trace, predict=True).

The view asks, before it shows each step, which Node the engine runs next (answered by a click
on a box) and what a Node with small gradients sends back (typed); the questions and verdicts
are `helpers.backward.quiz`'s, tested there. Here: what the view shows while a question is open
(never the answer), the entry points the script's messages go through, and the words in both
languages. The browser side is tests/test_explore_browser.py.
"""

from __future__ import annotations

import pytest
import torch
from speaks import assert_speaks_chinese

from helpers.backward import trace
from helpers.backward.messages import VIEW_MESSAGES
from helpers.backward_view import step_through
from helpers.graph.dot import HIGHLIGHT_COLOUR
from helpers.language import speaking
from helpers.view.words import VIEW_TEXTS

ANY_LATER = VIEW_MESSAGES.say("later")


def neuron():
    """relu(w * x + b) with w = 2, x = 3, b = 1: the neuron of notebook 03."""
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    x = torch.tensor(3.0)
    return torch.relu(w * x + b), w, b


def predicted(output, **names):
    # Named here: the names of the caller's variables are those of this function.
    return step_through(trace(output), names, predict=True).view()


def box_called(view, title: str) -> str:
    return next(node.id for node in view._source.picture.nodes if node.title == title)


class FakeWidget:
    def __init__(self) -> None:
        self.sent: list[dict] = []

    def send(self, message: dict) -> None:
        self.sent.append(message)


def test_the_view_opens_before_the_pass_with_nothing_outlined_or_sent():
    a, w, b = neuron()
    view = predicted(a, w=w, b=b)
    assert view._source.caption == VIEW_MESSAGES.say("before the pass")
    assert HIGHLIGHT_COLOUR not in view._source.svg
    assert view._source.prompt()["asking"] == "next"


def test_a_click_on_the_wrong_box_says_why_and_the_right_one_moves_on():
    a, w, b = neuron()
    view = predicted(a, w=w, b=b)
    wrong = view.predict_next(box_called(view, "AddBackward0"))
    assert (wrong["right"], wrong["readable"]) == (False, True)
    assert "ReluBackward0" in wrong["said"]  # it still waits for ReluBackward0's gradient
    assert wrong["waiting_for"] == [box_called(view, "ReluBackward0")]  # the box the view outlines
    right = view.predict_next(box_called(view, "ReluBackward0"))
    assert right["right"] and view._source.prompt()["asking"] == "gradient"


def test_the_picture_shows_a_step_only_once_its_questions_are_answered():
    a, w, b = neuron()
    view = predicted(a, w=w, b=b)
    start = view._source.svg
    view.predict_next(box_called(view, "ReluBackward0"))
    assert view._source.svg == start  # what ReluBackward0 sends is still asked: not shown
    view.predict("1")
    assert view._source.svg != start and HIGHLIGHT_COLOUR in view._source.svg
    assert view._source.caption.startswith("Step 1 of 5: ReluBackward0")


def test_a_click_on_a_box_before_its_step_is_answered_reads_no_gradient():
    a, w, b = neuron()
    view = predicted(a, w=w, b=b)
    relu = box_called(view, "ReluBackward0")
    view.predict_next(relu)  # what ReluBackward0 sends is asked now: its panel must not say
    for number, box in enumerate((relu, box_called(view, "AddBackward0")), start=1):
        rows = view.read(box)["sections"][0]["rows"]
        assert rows == [[VIEW_MESSAGES.say("at step", number=number), ANY_LATER]]
    view.predict("1")
    rows = dict(view.read(relu)["sections"][0]["rows"])
    assert rows[VIEW_MESSAGES.say("sent at", number=1)].startswith("1.0")


def test_the_widget_learns_which_step_its_picture_shows_with_the_picture():
    a, w, b = neuron()
    view = predicted(a, w=w, b=b)
    widget = view.widget()
    assert widget.shown == 0  # before the pass: no gradient has travelled yet
    view.predict_next(box_called(view, "ReluBackward0"))
    view.predict("1")
    assert (widget.shown, widget.svg) == (1, view._source.svg)
    view.replay()
    assert widget.shown == 0


def test_a_whole_pass_played_right_scores_every_question_and_replay_starts_again():
    a, w, b = neuron()
    view = predicted(a, w=w, b=b)
    # The engine's order (lesson 03): b's AccumulateGrad is ready, and runs, before MulBackward0.
    answers = [
        ("next", "ReluBackward0"),
        ("gradient", "1"),
        ("next", "AddBackward0"),
        ("gradient", "[1, 1]"),
        ("next", "b"),
        ("next", "MulBackward0"),
        ("gradient", "3"),
        ("next", "w"),
    ]
    for kind, answer in answers:
        assert view._source.prompt()["asking"] == kind
        verdict = view.predict_next(box_called(view, answer)) if kind == "next" else None
        verdict = verdict or view.predict(answer)
        assert verdict["right"], verdict["said"]
    assert view._source.prompt()["asking"] == ""
    assert view._source.prompt()["score"] == VIEW_MESSAGES.say("score", right=8, asked=8)
    assert view._source.caption.startswith("Step 5 of 5")
    view.replay()
    assert view._source.caption == VIEW_MESSAGES.say("before the pass")
    assert view._source.prompt()["score"] == VIEW_MESSAGES.say("score", right=0, asked=0)


def test_show_me_reveals_the_step_and_counts_it_asked_not_right():
    a, w, b = neuron()
    view = predicted(a, w=w, b=b)
    said = view.show_me()["said"]
    assert said.startswith("Step 1 of 5: ReluBackward0 runs")
    assert view._source.caption.startswith("Step 1 of 5")
    assert view._source.prompt()["score"] == VIEW_MESSAGES.say("score", right=0, asked=1)


def test_the_scripts_messages_go_through_the_same_entry_points():
    a, w, b = neuron()
    view = predicted(a, w=w, b=b)
    widget = FakeWidget()
    view._answer(widget, {"kind": "predict next", "box": box_called(view, "ReluBackward0")})
    view._answer(widget, {"kind": "predict", "answer": "【1】"})  # a Chinese keyboard's brackets
    assert [m["kind"] for m in widget.sent] == ["verdict", "verdict"]
    assert all(m["right"] for m in widget.sent)
    view._answer(widget, {"kind": "show me"})
    view._answer(widget, {"kind": "replay"})
    assert view._source.prompt()["asking"] == "next"


def test_a_graph_with_a_shared_input_asks_the_engines_order():
    x = torch.tensor(2.0, requires_grad=True)
    view = predicted(x * x + torch.sin(x), x=x)
    view.predict_next(box_called(view, "AddBackward0"))
    view.predict("[1, 1]")
    # x's AccumulateGrad waits for all three of its gradients: clicking it now is wrong.
    verdict = view.predict_next(box_called(view, "x"))
    assert not verdict["right"] and "x" in verdict["said"]


def test_in_chinese_the_questions_and_verdicts_are_chinese():
    a, w, b = neuron()
    with speaking("zh"):
        view = predicted(a, w=w, b=b)
        prompt = view._source.prompt()
        verdict = view.predict_next(box_called(view, "AddBackward0"))
        assert_speaks_chinese(prompt["question"])
        assert_speaks_chinese(verdict["said"])
        assert_speaks_chinese(view._source.caption)
        assert prompt["score"] == VIEW_MESSAGES.say("score", right=0, asked=0)


def test_a_view_without_predict_asks_nothing_and_refuses_an_answer():
    a, w, b = neuron()
    view = step_through(trace(a)).view()
    assert view._source.prompt()["question"] == ""
    with pytest.raises(TypeError, match=r"predict=True"):
        view.predict("1")
    with speaking("zh"), pytest.raises(TypeError, match="predict=True") as caught:
        view.predict("1")
    with speaking("zh"):
        assert caught.value.args[0] == VIEW_TEXTS.say("cannot predict")
    assert_speaks_chinese(caught.value.args[0])


def test_predict_must_be_true_or_false():
    a, w, b = neuron()
    with pytest.raises(TypeError, match="predict="):
        step_through(trace(a), predict="yes")


def test_where_the_view_cannot_run_only_the_start_shows_and_the_text_quiz_is_offered():
    a, w, b = neuron()
    shown = step_through(trace(a), {"w": w, "b": b}, predict=True)
    html = shown.static_html()
    assert html.count("<img ") == 1 and "quiz.answer(...)" in html
    assert "ReluBackward0" not in repr(shown).split("\n", 1)[1]  # no table of the steps
    assert repr(shown).startswith("Step 1 of 5: which Node does the engine run first?")

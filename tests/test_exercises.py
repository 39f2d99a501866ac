"""The check-yourself machinery, and every registered exercise against its sample answers."""

import pytest

from helpers.exercises import _REGISTRY as registry
from helpers.exercises import check, exercise, exercises

ALL = exercises()


@pytest.fixture
def demo_exercise():
    @exercise("99.1", "What is 2 + 2?", "2 + 2 = 4.", right_answers=(4,), wrong_answers=(5,))
    def is_four(answer):
        return int(answer) == 4

    yield "99.1"
    del registry["99.1"]


def test_unanswered_check_says_so_and_reveals_nothing(demo_exercise):
    verdict = check(demo_exercise, ...)
    assert not verdict.answered
    assert "not answered yet" in repr(verdict)
    assert "4" not in repr(verdict).replace("99.1", "")


def test_right_answer_is_marked_right_with_the_reason(demo_exercise):
    verdict = check(demo_exercise, 4)
    assert verdict.correct and "Right." in repr(verdict) and "2 + 2 = 4." in repr(verdict)


def test_wrong_answer_is_marked_wrong(demo_exercise):
    verdict = check(demo_exercise, 5)
    assert verdict.answered and not verdict.correct and "Not quite." in repr(verdict)


def test_answer_of_the_wrong_kind_is_wrong_not_a_crash(demo_exercise):
    assert not check(demo_exercise, "four").correct


def test_unknown_exercise_id_names_the_known_ones(demo_exercise):
    with pytest.raises(KeyError, match="99.1"):
        check("00.0", 1)


def test_registering_an_id_twice_is_refused(demo_exercise):
    with pytest.raises(ValueError, match="twice"):
        exercise("99.1", "again?", "no", right_answers=(1,), wrong_answers=(2,))(bool)


def test_verdict_html_escapes_the_message(demo_exercise):
    assert "<b>" in check(demo_exercise, 4)._repr_html_()


@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_exercise_accepts_its_right_answers(exercise_id):
    item = ALL[exercise_id]
    assert item.right_answers, f"{exercise_id} has no sample right answer"
    for answer in item.right_answers:
        assert check(exercise_id, answer).correct, f"{exercise_id} rejected {answer!r}"


@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_exercise_rejects_its_wrong_answers(exercise_id):
    item = ALL[exercise_id]
    assert item.wrong_answers, f"{exercise_id} has no sample wrong answer"
    for answer in item.wrong_answers:
        assert not check(exercise_id, answer).correct, f"{exercise_id} accepted {answer!r}"

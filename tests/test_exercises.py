"""The check-yourself machinery, and every registered exercise against its sample answers."""

import pytest
import torch

from helpers.exercises import _REGISTRY as registry
from helpers.exercises import as_number, as_numbers, check, exercise, exercises

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


def test_verdict_html_escapes_the_message():
    @exercise("99.2", "Is 1 < 2?", "<x> is not a tag.", right_answers=(True,), wrong_answers=(0,))
    def is_true(answer):
        return answer is True

    try:
        page = check("99.2", True)._repr_html_()
    finally:
        del registry["99.2"]
    assert "&lt;x&gt; is not a tag." in page and "<x>" not in page


def test_numeric_answers_may_be_numbers_lists_or_tensors_that_require_grad():
    w = torch.tensor([2.0, 0.0], requires_grad=True)
    assert torch.equal(as_numbers(w * 1), torch.tensor([2.0, 0.0], dtype=torch.float64))
    assert torch.equal(as_numbers([2, 0]), as_numbers((2.0, 0.0)))
    assert as_number(torch.tensor(33.0)) == 33.0
    with pytest.raises(TypeError):
        as_numbers("2, 0")
    with pytest.raises(TypeError):
        as_number(True)


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

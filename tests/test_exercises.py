"""The check-yourself machinery, the reading rules, and every registered exercise.

An answer always gets a verdict; a wrong try gets a hint and never the solution; the worked
answer comes only when asked for; the same answer is read the same way in every lesson.
"""

import itertools
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest
import torch

from helpers.exercises import _REGISTRY as registry
from helpers.exercises import (
    MESSAGES,
    WrongKind,
    as_bool,
    as_bools,
    as_choice,
    as_names,
    as_number,
    as_numbers,
    as_word,
    check,
    exercise,
    exercises,
    means_none,
)

ALL = exercises()
NOTEBOOKS = sorted((Path(__file__).parent.parent / "notebooks" / "en").glob("*.ipynb"))


@pytest.fixture
def demo_exercise():
    @exercise(
        "99.1",
        "What is 2 + 2?",
        hint="Count two fingers, then two more; write the sum as {digits}.",
        why="2 + 2 = 4.",
        right_answers=(4,),
        wrong_answers=(5,),
    )
    def is_four(answer):
        return as_number(answer) == 4

    yield "99.1"
    del registry["99.1"]


# --- what check() says -----------------------------------------------------------------------


def test_unanswered_check_says_so_and_reveals_nothing(demo_exercise):
    verdict = check(demo_exercise, ...)
    assert not verdict.answered
    assert "not answered yet" in repr(verdict)
    assert "4" not in repr(verdict).replace("99.1", "") and "fingers" not in repr(verdict)


def test_unanswered_check_says_how_to_ask_for_a_hint_and_for_the_answer(demo_exercise):
    message = check(demo_exercise, ...).message
    assert 'check("99.1", hint=True)' in message and 'check("99.1", show_answer=True)' in message


def test_unanswered_check_is_one_line(demo_exercise):
    # The browser test compares what JupyterLab shows with this message.
    assert "\n" not in check(demo_exercise, ...).message


def test_a_hint_can_be_asked_for_before_answering(demo_exercise):
    verdict = check(demo_exercise, hint=True)
    assert not verdict.answered
    assert "Hint: Count two fingers" in verdict.message and "2 + 2 = 4." not in verdict.message


def test_the_worked_answer_can_be_asked_for_before_answering(demo_exercise):
    assert "Worked answer: 2 + 2 = 4." in check(demo_exercise, show_answer=True).message


def test_right_answer_is_marked_right_with_the_reason(demo_exercise):
    verdict = check(demo_exercise, 4)
    assert verdict.correct and "Right." in repr(verdict) and "2 + 2 = 4." in repr(verdict)


def test_wrong_answer_gets_a_hint_and_not_the_solution(demo_exercise):
    verdict = check(demo_exercise, 5)
    assert verdict.answered and not verdict.correct
    assert "Not quite." in verdict.message and "Hint: Count two fingers" in verdict.message
    assert "2 + 2 = 4." not in verdict.message


def test_wrong_answer_says_how_to_see_the_worked_answer(demo_exercise):
    assert 'check("99.1", answer, show_answer=True)' in check(demo_exercise, 5).message


def test_the_worked_answer_comes_when_asked_for(demo_exercise):
    message = check(demo_exercise, 5, show_answer=True).message
    assert "Not quite." in message and "Worked answer: 2 + 2 = 4." in message


def test_braces_in_a_hint_are_shown_as_written(demo_exercise):
    assert "as {digits}." in check(demo_exercise, 5).message


def test_answer_of_the_wrong_kind_gets_a_note_on_the_kind_expected(demo_exercise):
    verdict = check(demo_exercise, {4})
    assert not verdict.correct
    assert "Not quite. The answer here is one number" in verdict.message
    assert "Hint:" in verdict.message


def test_an_exercise_whose_test_raises_anything_marks_the_answer_wrong():
    @exercise("99.3", "?", hint="h", why="w", right_answers=(1,), wrong_answers=(2,))
    def explodes(answer):
        raise NotImplementedError("an odd answer made a tensor op refuse")

    try:
        verdict = check("99.3", 1)
    finally:
        del registry["99.3"]
    assert verdict.answered and not verdict.correct


def test_unknown_exercise_id_names_the_known_ones(demo_exercise):
    with pytest.raises(KeyError, match="99.1"):
        check("00.0", 1)


def test_registering_an_id_twice_is_refused(demo_exercise):
    with pytest.raises(ValueError, match="twice"):
        exercise("99.1", "again?", hint="h", why="no", right_answers=(1,), wrong_answers=(2,))(bool)


def test_verdict_html_escapes_the_message():
    @exercise(
        "99.2", "Is 1 < 2?", hint="h", why="<x> is not a tag.", right_answers=(), wrong_answers=()
    )
    def is_true(answer):
        return answer is True

    try:
        page = check("99.2", True)._repr_html_()
    finally:
        del registry["99.2"]
    assert "&lt;x&gt; is not a tag." in page and "<x>" not in page


def test_verdict_html_shows_the_verdict_in_bold_and_the_hint_on_its_own_line(demo_exercise):
    page = check(demo_exercise, 5)._repr_html_()
    assert "<b>99.1: Not quite.</b><br>Hint: Count two fingers" in page


def test_every_line_a_verdict_shows_comes_from_the_messages_table(demo_exercise, monkeypatch):
    # A translation replaces the table: no sentence of the frame may be written in the code.
    for key, template in MESSAGES.items():
        monkeypatch.setitem(MESSAGES, key, "ZZ " + template)
    messages = [
        check(demo_exercise, ...).message,
        check(demo_exercise, hint=True, show_answer=True).message,
        check(demo_exercise, 4).message,
        check(demo_exercise, 5).message,
        check(demo_exercise, "five", show_answer=True).message,
    ]
    for message in messages:
        for line in message.split("\n"):
            assert line.startswith("ZZ "), line


# --- the reading rules, the same in every lesson ---------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [33, 33.0, "33", " 33. ", "tensor(33.)", np.int64(33), np.float32(33), torch.tensor([33])],
)
def test_a_number_may_be_written_any_way_print_shows_it(answer):
    assert as_number(answer) == 33.0


def test_a_number_may_have_thousands_separators():
    assert as_number("101,000") == as_number("101_000") == 101000.0


def test_a_number_may_be_a_tensor_that_requires_grad():
    assert as_number(torch.tensor(2.0, requires_grad=True) * 3) == 6.0


def test_a_whole_number_too_large_for_a_float_is_infinite_not_an_error():
    assert as_number(10**400) == math.inf and as_number(-(10**400)) == -math.inf


@pytest.mark.parametrize(
    "answer", [True, np.True_, torch.tensor(True), None, [33], {33}, "thirty", 1j]
)
def test_what_is_not_one_number_is_of_the_wrong_kind(answer):
    with pytest.raises(WrongKind) as raised:
        as_number(answer)
    assert raised.value.kind == "number"


@pytest.mark.parametrize(
    "answer",
    [
        [2, 0, 6],
        (2.0, 0.0, 6.0),
        torch.tensor([2.0, 0.0, 6.0], requires_grad=True) * 1,
        torch.tensor([2.0, 0.0, 6.0]).to_sparse(),
        np.array([2, 0, 6]),
        "tensor([2., 0., 6.])",
        "tensor([2., 0., 6.], dtype=torch.float64, requires_grad=True)",
        "[2, 0, 6]",
        "2 0 6",
        [torch.tensor(2.0), "0", np.float32(6)],
    ],
)
def test_numbers_may_be_lists_tensors_arrays_or_what_print_shows(answer):
    assert torch.equal(as_numbers(answer), torch.tensor([2.0, 0.0, 6.0], dtype=torch.float64))


def test_numbers_keep_their_shape():
    assert as_numbers("[[1, 2], [3, 4]]").shape == (2, 2)
    assert as_numbers(5).shape == ()


@pytest.mark.parametrize(
    "answer",
    [
        [False, False, True],
        torch.tensor([False, True]),
        [None],
        {1, 2},
        {"a": 1},
        (i for i in range(3)),
        object(),
        [1, [2, 3]],
        torch.ones(2, device="meta"),
        torch.tensor([1 + 2j]),
        np.array([object()], dtype=object),
    ],
)
def test_what_is_not_numbers_is_of_the_wrong_kind(answer):
    with pytest.raises(WrongKind) as raised:
        as_numbers(answer)
    assert raised.value.kind == "numbers"


def test_an_endless_generator_is_refused_not_consumed():
    with pytest.raises(WrongKind):
        as_numbers(itertools.count())


@pytest.mark.parametrize(
    "answer", [False, "False", " false ", "FALSE", np.False_, torch.tensor(False), "tensor(False)"]
)
def test_a_yes_no_answer_may_be_a_bool_its_spelling_a_numpy_bool_or_a_bool_tensor(answer):
    assert as_bool(answer) is False


@pytest.mark.parametrize("answer", [0, 0.0, "0", "no", None, torch.tensor(0.0), [False]])
def test_numbers_and_other_words_are_not_true_or_false(answer):
    with pytest.raises(WrongKind):
        as_bool(answer)


@pytest.mark.parametrize(
    "answer", [(True, False), [True, False], "(True, False)", "true, false", (np.True_, False)]
)
def test_several_bools_may_be_a_tuple_a_list_or_what_print_shows(answer):
    assert as_bools(answer) == (True, False)


@pytest.mark.parametrize("answer", [(1, 0), {True, False}, "True or False"])
def test_several_bools_refuse_numbers_sets_and_other_words(answer):
    with pytest.raises(WrongKind):
        as_bools(answer)


@pytest.mark.parametrize("answer", ["b", "B", " b ", "'b'"])
def test_a_choice_ignores_case_spaces_and_quotes(answer):
    assert as_choice(answer, "abc") == "b"


@pytest.mark.parametrize("answer", ["ab", "d", "", ["b"], [False, True, False], 2, None])
def test_a_single_choice_refuses_several_letters_flags_and_letters_not_offered(answer):
    with pytest.raises(WrongKind) as raised:
        as_choice(answer, "abc")
    assert raised.value.details == {"letters": '"a", "b", "c"'}


@pytest.mark.parametrize(
    "answer", ["torch.Tensor", "TORCH.TENSOR", " torch.Tensor ", "<class 'torch.Tensor'>"]
)
def test_a_word_ignores_case_and_the_frame_print_type_shows(answer):
    assert as_word(answer) == "torch.tensor"


def test_a_class_is_read_as_its_full_name():
    assert as_word(torch.Tensor) == "torch.tensor"


@pytest.mark.parametrize("answer", [torch.tensor, None, 3])
def test_what_is_not_a_word_or_class_is_of_the_wrong_kind(answer):
    with pytest.raises(WrongKind):
        as_word(answer)


@pytest.mark.parametrize("answer", [{"w", "b"}, ["B", "w"], "w, b", "{'b', 'w'}", ("w", "b")])
def test_names_may_be_any_collection_or_what_print_shows(answer):
    assert as_names(answer) == {"w", "b"}


@pytest.mark.parametrize("answer", [{"w": 1}, [None], (i for i in "wb"), 3])
def test_names_refuse_dicts_generators_and_what_is_not_a_string(answer):
    with pytest.raises(WrongKind):
        as_names(answer)


@pytest.mark.parametrize("answer", [None, "None", "none", " NONE "])
def test_none_may_be_given_as_itself_or_as_its_spelling(answer):
    assert means_none(answer)


@pytest.mark.parametrize("answer", [[None], "nothing", 0, "", False])
def test_other_answers_do_not_mean_none(answer):
    assert not means_none(answer)


# --- the inconsistencies found in lessons, each read by the shared rule ----------------------


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("02.3", "None"),
        ("05.3", "None"),
        ("02.3", "NONE"),
        ("05.1", "B"),
        ("07.2", "ITEM"),
        ("08.3", "Q"),
        ("07.1", "<class 'torch.Tensor'>"),
        ("01.2", np.False_),
        ("01.2", torch.tensor(False)),
        ("01.1", "18"),
        ("05.2", "101,000"),
        ("01.3", "tensor([2., 0., 6.])"),
    ],
)
def test_the_same_spelling_is_accepted_in_every_lesson(exercise_id, answer):
    assert check(exercise_id, answer).correct


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("06.1", [False, False, True]),
        ("06.1", torch.tensor([False, False, True])),
        ("06.2", [True, False, False]),
        ("05.1", ["b"]),
        ("04.2", (1, 0)),
        ("02.3", [None]),
        ("03.3", True),
    ],
)
def test_flags_and_lists_are_not_taken_for_single_answers(exercise_id, answer):
    assert not check(exercise_id, answer).correct


def test_04_1_refuses_a_class_that_keeps_x_on_ctx_as_an_attribute():
    from helpers.exercises.lesson04 import _Cube, _CubeKeepsXOnCtx

    assert check("04.1", _Cube).correct
    assert not check("04.1", _CubeKeepsXOnCtx).correct


# --- every exercise --------------------------------------------------------------------------


class _Explosive:
    """An object that raises whatever is asked of it: comparison, truth, conversion, iteration."""

    def _boom(self, *args):
        raise RuntimeError("boom")

    __eq__ = __ne__ = __lt__ = __bool__ = __float__ = __int__ = __index__ = _boom
    __iter__ = __len__ = __getitem__ = __array__ = _boom
    __hash__ = object.__hash__


# Answers no exercise asks for, each made fresh for each test (a generator is used up once read).
ODD_ANSWERS = {
    "set": lambda: {1, 2},
    "dict": lambda: {"a": 1},
    "list-of-None": lambda: [None],
    "empty-list": lambda: [],
    "nested-empty": lambda: [[[]]],
    "ellipsis-in-list": lambda: [...],
    "generator": lambda: (i for i in range(3)),
    "endless-generator": itertools.count,
    "object": object,
    "explosive-object": _Explosive,
    "meta-tensor": lambda: torch.ones(3, device="meta"),
    "meta-scalar": lambda: torch.tensor(5.0, device="meta"),
    "sparse-tensor": lambda: torch.tensor([1.0, 0.0, 5.0]).to_sparse(),
    "sparse-csr-matrix": lambda: torch.eye(2).to_sparse_csr(),  # (beta: warns once)
    "tensor-requiring-grad": lambda: torch.tensor([9.0, 9.0], requires_grad=True),
    "empty-tensor": lambda: torch.empty(0),
    "matrix": lambda: torch.ones(2, 2),
    "complex": lambda: 1 + 2j,
    "complex-tensor": lambda: torch.tensor([1 + 2j]),
    "numpy-float": lambda: np.float64(0.25),
    "numpy-int": lambda: np.int64(-7),
    "numpy-bool": lambda: np.True_,
    "numpy-string-array": lambda: np.array(["a", "b"]),
    "numpy-object-array": lambda: np.array([object()], dtype=object),
    "huge-int": lambda: 10**400,
    "negative-huge-int": lambda: -(10**400),
    "nan": lambda: math.nan,
    "inf": lambda: math.inf,
    "bytes": lambda: b"18",
    "empty-string": lambda: "",
    "blank-string": lambda: "   ",
    "very-long-string": lambda: "9" * 100_000,
    "nul-string": lambda: "\x00",
    "lambda": lambda: lambda: 1,
    "builtin-function": lambda: print,
    "module-class": lambda: torch.nn.Linear,
    "module": lambda: torch.nn.Linear(2, 2),
    "type-object": lambda: type,
}


@pytest.mark.filterwarnings("ignore:Sparse CSR tensor support is in beta")
@pytest.mark.parametrize("odd", sorted(ODD_ANSWERS))
@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_exercise_gives_any_answer_a_verdict(exercise_id, odd):
    verdict = check(exercise_id, ODD_ANSWERS[odd]())
    assert verdict.answered and not verdict.correct
    assert verdict.message.startswith(f"{exercise_id}: Not quite.")
    assert "Hint: " in verdict.message


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


@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_exercise_has_its_own_hint_and_worked_answer(exercise_id):
    item = ALL[exercise_id]
    assert item.question.strip() and item.hint.strip() and item.why.strip()
    assert item.hint != item.why
    others = [other.hint for other in ALL.values() if other is not item]
    assert item.hint not in others, f"{exercise_id} shares its hint with another exercise"


@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_wrong_try_shows_the_hint_and_not_the_worked_answer(exercise_id):
    item = ALL[exercise_id]
    for answer in item.wrong_answers:
        message = check(exercise_id, answer).message
        assert item.hint in message and item.why not in message
        assert f'check("{exercise_id}", answer, show_answer=True)' in message


def _giveaways(answer):
    """How a right answer would appear in a hint that gives it away; [] when it cannot be told."""
    if isinstance(answer, (bool, type(None))) or means_none(answer):
        return []  # the question itself offers None, True and False
    try:
        number = as_number(answer)
        return [rf"(?<![\w.]){int(number) if number.is_integer() else number}(?![\w])"]
    except WrongKind:
        pass
    try:
        values = as_numbers(answer)
        return [re.escape(", ".join(f"{v:g}" for v in values.flatten().tolist()))]
    except WrongKind:
        pass
    if isinstance(answer, str):
        word = answer.strip().removeprefix("loss").strip(".'()")
        if len(word) == 1:
            return [f"\"{word}\"|'{word}'"]  # a choice letter, quoted as the question quotes it
        if re.fullmatch(r"[\w.]+", word):
            return [rf"(?<![\w]){re.escape(word)}(?![\w])"]
    return []


@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_no_hint_gives_the_answer_away(exercise_id):
    item = ALL[exercise_id]
    for answer in item.right_answers:
        for pattern in _giveaways(answer):
            assert not re.search(pattern, item.hint, re.I), (
                f"{exercise_id}'s hint shows {answer!r}: {item.hint}"
            )


# --- the notebooks say how -------------------------------------------------------------------


def _check_yourself_text(notebook):
    cells = json.loads(notebook.read_text())["cells"]
    for cell in cells:
        source = "".join(cell["source"])
        if cell["cell_type"] == "markdown" and "## Check yourself" in source:
            return source.split("## Check yourself", 1)[1]
    return None


@pytest.mark.parametrize("notebook", NOTEBOOKS, ids=lambda path: path.stem)
def test_each_check_yourself_introduction_says_how_to_get_a_hint_and_the_answer(notebook):
    introduction = _check_yourself_text(notebook)
    if introduction is None:
        pytest.skip("no check-yourself section")
    assert "hint=True" in introduction and "show_answer=True" in introduction

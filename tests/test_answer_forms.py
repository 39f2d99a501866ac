"""The answer forms a learner types, with English or Chinese habits, and the verdict each deserves.

Every row is run through `check()` itself, in both languages: the same value written another way
is right, a wrong value stays wrong, and an answer of the wrong kind gets the note on the kind the
question asks for (compared with the catalogue's own text for that note). The rules are the ones
listed in helpers/exercises/reading.py.
"""

import time

import numpy as np
import pytest
import torch
from speaks import assert_speaks_chinese

from helpers.exercises import MESSAGES, UnknownExercise, check, exercises
from helpers.exercises.lesson04 import _Cube, _CubeWritesIntoGradOutput, _CubeWrongDerivative
from helpers.language import LANGUAGES, Catalogue, speaking

RIGHT = True
WRONG = False

# (exercise id, answer, right?, kind of note for an answer of the wrong kind or None)
FORMS = [
    # 1. The punctuation that ends a sentence is not part of the answer.
    ("01.1", "18。", RIGHT, None),
    ("01.1", "18.", RIGHT, None),
    ("01.1", "18．", RIGHT, None),
    ("01.1", "18！", RIGHT, None),
    ("01.1", "18!", RIGHT, None),
    ("01.1", "18，", RIGHT, None),
    ("01.1", "18；", RIGHT, None),
    ("01.1", "18 。", RIGHT, None),
    ("02.2", "-0.", RIGHT, None),
    ("02.2", "-0。", RIGHT, None),
    ("02.3", "None。", RIGHT, None),
    ("02.3", "None.", RIGHT, None),
    ("05.3", "None！", RIGHT, None),
    ("09.3", "b。", RIGHT, None),
    ("05.1", "B.", RIGHT, None),
    ("08.3", "q；", RIGHT, None),
    ("01.3", "[2, 0, 6]。", RIGHT, None),
    ("01.3", "[2, 0, 6].", RIGHT, None),
    ("01.2", "False.", RIGHT, None),
    ("01.2", "False。", RIGHT, None),
    ("01.2", "false！", RIGHT, None),
    ("04.2", "(True, False)。", RIGHT, None),
    ("02.1", "w, b。", RIGHT, None),
    ("07.1", "torch.Tensor。", RIGHT, None),
    ("07.2", "loss.item()。", RIGHT, None),
    ("01.1", "6。", WRONG, None),
    ("01.2", "True。", WRONG, None),
    ("09.3", "a。", WRONG, None),
    ("02.3", "无。", WRONG, "none"),
    # 2. Chinese and full-width brackets and quotes are their ASCII twins.
    ("01.3", "【2，0，6】", RIGHT, None),
    ("01.3", "【2, 0, 6】", RIGHT, None),
    ("01.3", "〔2，0，6〕", RIGHT, None),
    ("01.3", "（2，0，6）", RIGHT, None),
    ("01.3", "［2，0，6］", RIGHT, None),
    ("01.2", "“False”", RIGHT, None),
    ("01.2", "'False'", RIGHT, None),
    ("01.2", '"False"', RIGHT, None),
    ("01.2", "「False」", RIGHT, None),
    ("01.2", "『False』", RIGHT, None),
    ("01.2", "‘False’", RIGHT, None),
    ("01.2", "`False`", RIGHT, None),
    ("02.3", "「None」", RIGHT, None),
    ("02.3", "『None』。", RIGHT, None),
    ("07.1", "「torch.Tensor」", RIGHT, None),
    ("07.2", "“item”", RIGHT, None),
    ("07.2", "「item()」", RIGHT, None),
    ("05.1", "「b」", RIGHT, None),
    ("06.2", "『a』", RIGHT, None),
    ("02.1", "｛「w」，「b」｝", RIGHT, None),
    ("02.1", "【'w', 'b'】", RIGHT, None),
    ("04.2", "【True，False】", RIGHT, None),
    ("01.3", "【2，4，6】", WRONG, None),
    ("01.2", "“True”", WRONG, None),
    ("01.2", "「是」", WRONG, "bool"),
    # 3. Separators between names and values, where a list or a set is asked.
    ("02.1", "w和b", RIGHT, None),
    ("02.1", "w 和 b", RIGHT, None),
    ("02.1", "w 与 b", RIGHT, None),
    ("02.1", "w及b", RIGHT, None),
    ("02.1", "w 以及 b", RIGHT, None),
    ("02.1", "w and b", RIGHT, None),
    ("02.1", "W AND B", RIGHT, None),
    ("02.1", "w、b", RIGHT, None),
    ("02.1", "w，b", RIGHT, None),
    ("02.1", "w；b", RIGHT, None),
    ("02.1", "w;b", RIGHT, None),
    ("02.1", "w b", RIGHT, None),
    ("02.1", "b 和 w。", RIGHT, None),
    ("02.1", "w 和 b 和 x", WRONG, None),
    ("02.1", "w、b、u", WRONG, None),
    ("02.1", "w", WRONG, None),
    ("02.1", "w or b", WRONG, None),
    ("01.3", "2和0和6", RIGHT, None),
    ("01.3", "2，0 和 6", RIGHT, None),
    ("01.3", "2、0 与 6", RIGHT, None),
    ("01.3", "2; 0; 6", RIGHT, None),
    ("01.3", "2 and 0 and 6", RIGHT, None),
    ("06.1", "0，1 和 2", RIGHT, None),
    ("07.3", "0 和 0", RIGHT, None),
    ("04.2", "True 和 False", RIGHT, None),
    ("04.2", "True、False", RIGHT, None),
    ("04.2", "True and False", RIGHT, None),
    ("04.2", "True；False", RIGHT, None),
    ("04.2", "True 或 False", WRONG, "bools"),
    ("04.2", "是 和 否", WRONG, "bools"),
    # ... but never where one number is asked.
    ("01.1", "2 和 3", WRONG, "number"),
    ("01.1", "18 和 18", WRONG, "number"),
    ("01.1", "十八 和 十八", WRONG, "number"),
    ("05.2", "100000 和 1000", WRONG, "number"),
    # 4. Chinese numerals, 万 and 亿, and a unit word after a number.
    ("01.1", "十八", RIGHT, None),
    ("01.1", "十八。", RIGHT, None),
    ("01.1", "一八", RIGHT, None),
    ("01.1", "十八个", RIGHT, None),
    ("08.1", "三", RIGHT, None),
    ("08.1", "三个", RIGHT, None),
    ("08.1", "3个", RIGHT, None),
    ("08.1", "两", WRONG, None),
    ("08.1", "两个", WRONG, None),
    ("03.1", "〇", RIGHT, None),
    ("03.1", "零", RIGHT, None),
    ("02.2", "零", RIGHT, None),
    ("02.2", "负三", WRONG, None),
    ("03.2", "三十三", RIGHT, None),
    ("03.2", "三十三。", RIGHT, None),
    ("03.2", "二十七", WRONG, None),
    ("03.2", "三三十", WRONG, "number"),
    ("05.2", "10.1万", RIGHT, None),
    ("05.2", "十万一千", RIGHT, None),
    ("05.2", "101000个", RIGHT, None),
    ("05.2", "10.1万个", RIGHT, None),
    ("05.2", "十万零一千", RIGHT, None),
    ("05.2", "１０.１万", RIGHT, None),
    ("05.2", "10.1 万", RIGHT, None),
    ("05.2", "十万一千个。", RIGHT, None),
    ("05.2", "10万1000", RIGHT, None),
    ("05.2", "十万", WRONG, None),
    ("05.2", "10万", WRONG, None),
    ("05.2", "10万个", WRONG, None),
    ("05.2", "一千", WRONG, None),
    ("05.2", "十万一百", WRONG, None),
    ("05.2", "10.1千", WRONG, None),
    ("05.2", "十十万", WRONG, "number"),
    ("09.1", "六十", RIGHT, None),
    ("09.1", "三十", WRONG, None),
    ("09.2", "四十八", RIGHT, None),
    ("09.2", "三十二", WRONG, None),
    ("09.4", "三", RIGHT, None),
    ("09.4", "3次", RIGHT, None),
    ("09.4", "三次", RIGHT, None),
    ("09.4", "两次", WRONG, None),
    ("04.3", "一", RIGHT, None),
    ("03.3", "一", RIGHT, None),
    ("03.3", "零", WRONG, None),
    ("08.2", "七", RIGHT, None),
    ("08.2", "六", WRONG, None),
    ("01.1", "一百零一", WRONG, None),
    # 5. A method called on any receiver.
    ("07.2", "x.item()", RIGHT, None),
    ("07.2", "loss.data.item()", RIGHT, None),
    ("07.2", "y.item()", RIGHT, None),
    ("07.2", "`loss.item()`", RIGHT, None),
    ("07.2", "model.loss.item", RIGHT, None),
    ("07.2", "LOSS.ITEM()", RIGHT, None),
    ("07.2", "x.tolist()", RIGHT, None),
    ("07.2", "loss.data", WRONG, None),
    ("07.2", "x.numpy()", WRONG, None),
    ("07.2", "loss.data[0]", WRONG, None),
    ("07.2", "x.items()", WRONG, None),
    ("07.2", "loss.itemize()", WRONG, None),
    # 6. Numbers written as an array or a tensor is made or printed.
    ("06.1", "array([0., 1., 2.])", RIGHT, None),
    ("06.1", "np.array([0., 1., 2.])", RIGHT, None),
    ("06.1", "numpy.array([0, 1, 2])", RIGHT, None),
    ("06.1", "tensor([0., 1., 2.])", RIGHT, None),
    ("06.1", "torch.tensor([0., 1., 2.])", RIGHT, None),
    ("06.1", "torch.tensor([0., 1., 2.], requires_grad=True)", RIGHT, None),
    ("06.1", "[0. 1. 2.]", RIGHT, None),
    ("06.1", "array([0., 1., 2.], dtype=float32)", RIGHT, None),
    ("06.1", "np.array([0, 1, 2])。", RIGHT, None),
    ("01.3", "array([2., 0., 6.])", RIGHT, None),
    ("01.3", "[2. 0. 6.]", RIGHT, None),
    ("07.3", "array([0., 0.])", RIGHT, None),
    ("07.3", "[0. 0.]", RIGHT, None),
    ("01.1", "array(18.)", RIGHT, None),
    ("01.1", "np.float64(18.0)", RIGHT, None),
    ("01.1", "torch.tensor(18.)", RIGHT, None),
    ("01.1", "np.array([18.])", RIGHT, None),
    ("06.1", "array([0., 0., 2.])", WRONG, None),
    ("06.1", "[0. 1. 1.]", WRONG, None),
    ("06.1", "np.array([[0, 1, 2]])", WRONG, None),
    ("06.1", "array([True, True, True])", WRONG, "numbers"),
    # 7. A list or a set question that cannot read the answer says so, never "one number".
    ("01.3", "two, zero, six", WRONG, "numbers"),
    ("01.3", "2, 0, x", WRONG, "numbers"),
    ("01.3", "{2, 0, 6}", WRONG, "numbers"),
    ("01.3", "True, False, True", WRONG, "numbers"),
    ("06.1", "c", WRONG, "numbers"),
    ("07.3", "nothing", WRONG, "numbers"),
    ("07.3", "RuntimeError", WRONG, "numbers"),
    ("02.1", 3, WRONG, "names"),
    ("02.1", ["w", 1], WRONG, "names"),
    ("04.2", "(1, 0)", WRONG, "bools"),
    ("04.2", "yes, no", WRONG, "bools"),
    ("04.2", "{True, False}", WRONG, "bools"),  # a set has no order; these flags do
    # 10. Case in 07.1: the small-letter spellings name the function, every other the class.
    ("07.1", "Tensor", RIGHT, None),
    ("07.1", "torch.Tensor", RIGHT, None),
    ("07.1", "TENSOR", RIGHT, None),
    ("07.1", "TORCH.TENSOR", RIGHT, None),
    ("07.1", "<class 'torch.Tensor'>", RIGHT, None),
    ("07.1", torch.Tensor, RIGHT, None),
    ("07.1", "tensor", WRONG, "class_not_function"),
    ("07.1", "torch.tensor", WRONG, "class_not_function"),
    ("07.1", "“tensor”。", WRONG, "class_not_function"),
    ("07.1", "<class 'torch.tensor'>", WRONG, "class_not_function"),
    ("07.1", torch.tensor, WRONG, "class_not_function"),
    ("07.1", "Variable", WRONG, None),
    ("07.1", None, WRONG, "word"),
    # 11. Nothing makes a wrong idea right.
    ("01.2", "yes", WRONG, "bool"),
    ("01.2", "是", WRONG, "bool"),
    ("01.2", "否", WRONG, "bool"),
    ("01.2", "不", WRONG, "bool"),
    ("01.2", 0, WRONG, "bool"),
    ("02.3", "nothing", WRONG, "none"),
    ("02.3", "无", WRONG, "none"),
    ("02.3", "没有。", WRONG, "none"),
    ("05.3", "空", WRONG, "none"),
    ("05.2", "101,0", WRONG, "number"),
    ("01.3", "2 4 6", WRONG, None),
    ("01.3", [[2, 0, 6]], WRONG, None),
    ("05.1", ["b"], WRONG, "choice"),
    ("05.1", "ab", WRONG, "choice"),
    ("05.1", "b 和 c", WRONG, "choice"),
    ("09.3", "b、c", WRONG, "choice"),
    ("04.1", 3, WRONG, "function_class"),
    ("02.2", "None。", WRONG, "number"),
    ("03.1", "x", WRONG, "number"),
    ("01.1", "10²", WRONG, "number"),
    ("01.1", "十²", WRONG, "number"),
    ("08.3", "p。", WRONG, None),
    # The forms read before, still read.
    ("01.1", 18, RIGHT, None),
    ("01.1", "18", RIGHT, None),
    ("01.1", "tensor(18.)", RIGHT, None),
    ("01.1", "１８", RIGHT, None),
    ("05.2", "101,000", RIGHT, None),
    ("05.2", "1.01e5", RIGHT, None),
    ("02.1", {"w", "b"}, RIGHT, None),
    ("02.1", "{'b', 'w'}", RIGHT, None),
    ("04.2", (True, False), RIGHT, None),
    ("07.2", "item", RIGHT, None),
    ("08.3", "Q", RIGHT, None),
    ("09.3", "“b”", RIGHT, None),
    ("02.3", None, RIGHT, None),
    ("06.2", "‘a’", RIGHT, None),
    ("05.1", "(b)", RIGHT, None),
]


def _row_id(row):
    # The same on every run and in every pytest-xdist worker: no memory address, no set order.
    exercise_id, answer, correct, kind = row
    return f"{exercise_id} {_stable_repr(answer)} {'right' if correct else kind or 'wrong'}"


def _stable_repr(answer):
    if isinstance(answer, (set, frozenset)):
        return "{" + ", ".join(sorted(map(_stable_repr, answer))) + "}"
    if isinstance(answer, (list, tuple)):
        return type(answer).__name__ + "(" + ", ".join(map(_stable_repr, answer)) + ")"
    if isinstance(answer, (str, int, float, bool, type(None))):
        return repr(answer)
    if isinstance(answer, (torch.Tensor, np.ndarray, np.generic)):
        return f"{type(answer).__name__}{answer.tolist()!r}"
    return getattr(answer, "__qualname__", type(answer).__name__)


def kind_note(kind, language):
    """The catalogue's note for ``kind`` in ``language``, up to its first blank (the letters)."""
    return MESSAGES.texts[f"kind.{kind}"][language].split("{")[0]


def test_the_table_covers_at_least_150_forms_over_real_exercises():
    assert len(FORMS) >= 150
    assert {row[0] for row in FORMS} <= set(exercises())


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("exercise_id", "answer", "correct", "kind"), FORMS, ids=map(_row_id, FORMS)
)
def test_an_answer_form_gets_the_verdict_its_idea_deserves(
    exercise_id, answer, correct, kind, language
):
    with speaking(language):
        verdict = check(exercise_id, answer)
        not_quite = MESSAGES.say("wrong", id=exercise_id)
    first_line = verdict.message.split("\n")[0]
    assert verdict.correct is correct, verdict.message
    if kind is not None:
        assert first_line.startswith(not_quite) and kind_note(kind, language) in first_line
    elif not correct:
        # The kind was right and the value wrong: "Not quite" and the hint, no note on the kind.
        assert first_line == not_quite


def test_the_note_for_a_list_question_is_never_the_note_for_one_number():
    for exercise_id in ("01.3", "06.1", "07.3"):
        for answer in ("【2，0，6】x", "two zero six", "2, 0, six?"):
            message = check(exercise_id, answer).message
            assert kind_note("numbers", "en") in message
            assert kind_note("number", "en") not in message


def test_the_frame_and_the_kind_notes_are_one_catalogue_of_the_package():
    assert isinstance(MESSAGES, Catalogue) and MESSAGES.module == "helpers.exercises"
    kinds = {kind for *_, kind in FORMS if kind is not None}
    assert {f"kind.{kind}" for kind in kinds} <= set(MESSAGES.texts)


# --- exercise ids, read like answers -----------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("written", ["０１.１", "1.1", "01-1", "1．1", "01.1。", "第1.1题", 1.1])
def test_an_exercise_id_is_read_like_an_answer_and_the_verdict_says_which(written, language):
    given = written.strip() if isinstance(written, str) else repr(written)
    with speaking(language):
        verdict = check(written, 18)
        note = MESSAGES.say("id_read_as", given=given, id="01.1")
    assert verdict.correct and verdict.exercise_id == "01.1"
    assert verdict.message.split("\n")[-1] == note
    assert f'"{given}"' in note and "01.1" in note
    if language == "zh":
        assert_speaks_chinese(note)


@pytest.mark.parametrize("written", ["01.1", " 01.1 "])
def test_an_id_written_as_registered_gets_no_note(written):
    assert check(written, 18).message == check("01.1", 18).message
    assert "\n" not in check(written, ...).message


def test_the_note_on_the_id_comes_after_the_verdict_and_the_hint():
    lines = check("1.1", 6).message.split("\n")
    assert lines[0] == MESSAGES.say("wrong", id="01.1")
    assert lines[-1] == MESSAGES.say("id_read_as", given="1.1", id="01.1")


@pytest.mark.parametrize(
    ("written", "nearest"),
    [
        ("1.9", ['"01.1"', '"01.2"', '"01.3"']),
        ("０２.７", ['"02.1"', '"02.2"', '"02.3"']),
        ("00.1", ['"01.1"', '"01.2"', '"01.3"']),
        ("01.1a", ['"01.1"']),
    ],
)
def test_an_unknown_id_names_the_nearest_ids_in_chinese(written, nearest):
    with speaking("zh"), pytest.raises(UnknownExercise) as raised:
        check(written, 1)
    text = str(raised.value)
    assert_speaks_chinese(text)
    assert text.startswith("没有") and f'"{written}"' in text
    for known_id in nearest:
        assert known_id in text


def test_an_unknown_id_is_a_key_error_in_english_that_names_the_nearest_ids():
    with pytest.raises(KeyError) as raised:
        check("1.9", 1)
    text = str(raised.value)
    assert text.startswith('There is no exercise "1.9".')  # a sentence, not a quoted key
    assert '"01.1", "01.2", "01.3"' in text


@pytest.mark.parametrize("written", ["abc", None, ""])
def test_an_id_that_is_no_id_at_all_is_told_what_an_id_looks_like(written):
    with speaking("zh"), pytest.raises(UnknownExercise) as raised:
        check(written, 1)
    text = str(raised.value)
    assert_speaks_chinese(text)
    assert '"01.1"' in text and "09.4" in text


# --- check() is the same under no_grad and inference_mode --------------------------------------

GRAD_MODES = {
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
    "enable_grad": torch.enable_grad,
}


@pytest.mark.parametrize("mode", GRAD_MODES)
def test_04_1_marks_a_function_the_same_under_no_grad_and_inference_mode(mode):
    with GRAD_MODES[mode]():
        grad_enabled, inference = torch.is_grad_enabled(), torch.is_inference_mode_enabled()
        assert check("04.1", _Cube).correct
        assert not check("04.1", _CubeWrongDerivative).correct
        assert not check("04.1", _CubeWritesIntoGradOutput).correct
        # ... and leaves the learner's mode as it found it.
        assert torch.is_grad_enabled() == grad_enabled
        assert torch.is_inference_mode_enabled() == inference


@pytest.mark.parametrize("mode", GRAD_MODES)
@pytest.mark.parametrize("exercise_id", sorted(exercises()))
def test_every_right_answer_is_right_under_every_grad_mode(exercise_id, mode):
    with GRAD_MODES[mode]():
        for answer in exercises()[exercise_id].right_answers:
            assert check(exercise_id, answer).correct, answer


def test_an_answer_computed_in_inference_mode_is_read():
    with torch.inference_mode():
        w = torch.tensor(3.0)
        gradient = 3 * (2 * w)  # an inference tensor, as a learner's cell makes it
        product = torch.tensor([1.0, 0.0, 1.0]) * 2 * torch.tensor([1.0, 2.0, 3.0])
    assert check("01.1", gradient).correct
    assert check("01.3", product).correct


# --- long text costs no time -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["一" * 100_000, "'" * 100_000, "【" * 100_000, "1万" * 50_000])
def test_a_long_text_is_refused_quickly_by_every_exercise(text):
    start = time.perf_counter()
    for exercise_id in exercises():
        assert not check(exercise_id, text).correct
    assert time.perf_counter() - start < 2.0


# --- the catalogue speaks Chinese --------------------------------------------------------------

BLANKS = {
    "id": "01.1",
    "hint": "先算一次。",
    "why": "每次都会累加。",
    "note": "这里的答案是一个数。",
    "letters": '"a", "b", "c"',
    "given": '"1.9"',
    "nearest": '"01.1", "01.2"',
    "known": "01.1, 01.2, 01.3",
}


@pytest.mark.parametrize("key", sorted(MESSAGES.texts))
def test_every_text_of_the_catalogue_speaks_chinese_under_zh(key):
    with speaking("zh"):
        text = MESSAGES.say(key, **BLANKS)
    assert_speaks_chinese(text)

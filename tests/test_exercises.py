"""The check-yourself machinery, the reading rules, and every registered exercise.

An answer always gets a verdict; a wrong try gets a hint and never the solution; the worked
answer comes only when asked for; the same answer is read the same way in every lesson and in
both languages, and a Chinese learner reads Chinese.
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
    Names,
    UnknownExercise,
    WrongKind,
    as_bool,
    as_bools,
    as_choice,
    as_name,
    as_names,
    as_number,
    as_numbers,
    as_word,
    check,
    exercise,
    exercises,
    means_none,
)
from helpers.language import LANGUAGES, speaking

ALL = exercises()
NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
# Each edition's notebooks and the title of their check-yourself section.
CHECK_YOURSELF = {"en": "## Check yourself", "zh": "## 自测"}


def texts(en, zh="（中文）"):
    """An exercise's text in both languages, as exercise() wants it."""
    return {"en": en, "zh": zh}


@pytest.fixture
def demo_exercise():
    @exercise(
        "99.1",
        texts("What is 2 + 2?", "2 + 2 等于几？"),
        hint=texts(
            "Count two fingers, then two more; write the sum as {digits}.",
            "先数两根手指，再数两根；把和写成 {digits}。",
        ),
        why=texts("2 + 2 = 4.", "2 + 2 = 4，两个二加起来。"),
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


def test_an_answer_that_cannot_be_read_is_told_how_one_is_written_and_gets_no_hint(demo_exercise):
    verdict = check(demo_exercise, {4})
    assert verdict.answered and not verdict.correct and not verdict.readable
    assert verdict.message.split("\n") == [
        "99.1: I cannot read this answer. The answer here is one number, such as 3 or 2.5 (not a "
        "list, not True/False).",
        "Nothing was marked right or wrong: write your answer that way and run the cell.",
    ]


def test_an_answer_that_cannot_be_read_gets_the_hint_and_the_worked_answer_when_asked(
    demo_exercise,
):
    message = check(demo_exercise, "four?", hint=True, show_answer=True).message
    assert "Hint: Count two fingers" in message and "Worked answer: 2 + 2 = 4." in message


def test_a_wrong_value_is_readable_and_an_unread_answer_is_not_shown_in_red(demo_exercise):
    assert check(demo_exercise, 5).readable and check(demo_exercise, 4).readable
    assert "#b3261e" in check(demo_exercise, 5)._repr_html_()
    assert "#b3261e" not in check(demo_exercise, "four?")._repr_html_()


def test_an_exercise_whose_test_raises_anything_marks_the_answer_wrong():
    @exercise(
        "99.3", texts("?"), hint=texts("h"), why=texts("w"), right_answers=(1,), wrong_answers=(2,)
    )
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
        exercise(
            "99.1",
            texts("again?"),
            hint=texts("h"),
            why=texts("no"),
            right_answers=(1,),
            wrong_answers=(2,),
        )(bool)


@pytest.mark.parametrize(
    "question",
    ["What is 2 + 2?", {"en": "What is 2 + 2?"}, {"en": "What?", "zh": " "}, {"en": "?", "zh": 4}],
)
def test_an_exercise_without_its_text_in_every_language_is_refused(question):
    with pytest.raises(TypeError, match="99.4"):
        exercise(
            "99.4", question, hint=texts("h"), why=texts("w"), right_answers=(), wrong_answers=()
        )(bool)
    assert "99.4" not in registry


def test_verdict_html_escapes_the_message():
    @exercise(
        "99.2",
        texts("Is 1 < 2?"),
        hint=texts("h"),
        why=texts("<x> is not a tag."),
        right_answers=(),
        wrong_answers=(),
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


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_line_a_verdict_shows_comes_from_the_messages_table(
    demo_exercise, monkeypatch, language
):
    # No sentence of the frame may be written in the code: the catalogue holds them all.
    for entry in MESSAGES.texts.values():
        monkeypatch.setitem(entry, language, "ZZ " + entry[language])
    with speaking(language):
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


def _blanks(template):
    return sorted(re.findall(r"(?<!\{)\{(\w+)\}", template))


def test_every_language_has_every_message_with_the_same_blanks():
    assert MESSAGES.module == "helpers.exercises"
    for key, entry in MESSAGES.texts.items():
        assert set(entry) == set(LANGUAGES), key
        for language, template in entry.items():
            assert _blanks(template) == _blanks(entry["en"]), (language, key)
            assert template.count("{{") == entry["en"].count("{{"), (language, key)


# --- in Chinese ------------------------------------------------------------------------------


def test_in_chinese_an_unanswered_check_says_so_and_how_to_ask_for_help(demo_exercise):
    with speaking("zh"):
        message = check(demo_exercise, ...).message
    assert message.startswith("99.1：还没有作答。")
    assert 'check("99.1", hint=True)' in message and 'check("99.1", show_answer=True)' in message
    assert "\n" not in message


def test_in_chinese_a_right_answer_is_confirmed_with_the_chinese_reason(demo_exercise):
    with speaking("zh"):
        verdict = check(demo_exercise, 4)
    assert verdict.correct and verdict.message == "99.1：答对了。2 + 2 = 4，两个二加起来。"


def test_in_chinese_a_wrong_answer_gets_the_chinese_hint_and_how_to_see_the_answer(demo_exercise):
    with speaking("zh"):
        verdict = check(demo_exercise, 5)
    assert verdict.message.split("\n") == [
        "99.1：还不对。",
        "提示：先数两根手指，再数两根；把和写成 {digits}。",
        '再想一想。想看解答，请运行 check("99.1", answer, show_answer=True)。',
    ]


def test_in_chinese_an_answer_that_cannot_be_read_is_told_so_in_chinese(demo_exercise):
    with speaking("zh"):
        message = check(demo_exercise, {4}, show_answer=True).message
    assert message.split("\n") == [
        "99.1：这个答案我读不懂。这里的答案是一个数，例如 3 或 2.5"
        "（不是列表，也不是 True/False）。",
        "这次没有判对错：按这个写法写好答案，再运行一次单元格。",
        "解答：2 + 2 = 4，两个二加起来。",
    ]


def test_the_language_chosen_last_is_the_one_check_speaks(demo_exercise):
    with speaking("zh"):
        assert "答对了" in check(demo_exercise, 4).message
    assert check(demo_exercise, 4).message == "99.1: Right. 2 + 2 = 4."


# --- the reading rules, the same in every lesson ---------------------------------------------


@pytest.mark.parametrize(
    "answer",
    [33, 33.0, "33", " 33. ", "tensor(33.)", np.int64(33), np.float32(33), torch.tensor([33])],
)
def test_a_number_may_be_written_any_way_print_shows_it(answer):
    assert as_number(answer) == 33.0


@pytest.mark.parametrize(
    "answer",
    [
        "tensor([33.])",
        "tensor([[33.]])",
        "tensor([33])",
        "tensor(33., requires_grad=True)",
        "tensor([33.], grad_fn=<MulBackward0>)",
        "tensor([33.], device='cuda:0', grad_fn=<AddBackward0>)",
        "ｔｅｎｓｏｒ（［３３．］）",
    ],
)
def test_a_number_may_be_what_print_shows_for_a_tensor_of_one_number_of_any_shape(answer):
    assert as_number(answer) == 33.0


@pytest.mark.parametrize(
    "answer", ["tensor([33., 1.])", "tensor([])", "[33]", "tensor([[33.], [1.]])"]
)
def test_what_print_shows_for_several_numbers_or_a_list_is_not_one_number(answer):
    with pytest.raises(WrongKind):
        as_number(answer)


def test_a_yes_no_answer_may_be_what_print_shows_for_a_tensor_of_one_flag():
    assert as_bool("tensor([False])") is False and as_bool("tensor(True)") is True


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


@pytest.mark.parametrize(
    "answer", [0.0, 0.5, 2, "2", None, torch.tensor(0.0), [False], "maybe", "是否", ""]
)
def test_other_numbers_and_words_are_not_true_or_false(answer):
    with pytest.raises(WrongKind) as raised:
        as_bool(answer)
    assert raised.value.kind == "bool"


@pytest.mark.parametrize(
    ("answer", "value"),
    [
        ("是", True),
        ("否", False),
        ("对", True),
        ("错", False),
        ("真", True),
        ("假", False),
        ("不", False),
        ("不是", False),
        ("yes", True),
        ("NO", False),
        ("1", True),
        ("0", False),
        (1, True),
        (0, False),
        (np.int64(0), False),
        ("答案是 False", False),
        ("“否”。", False),
    ],
)
def test_where_true_or_false_is_asked_yes_no_and_1_0_are_read_in_either_language(answer, value):
    assert as_bool(answer) is value


@pytest.mark.parametrize(
    "answer", [(True, False), [True, False], "(True, False)", "true, false", (np.True_, False)]
)
def test_several_bools_may_be_a_tuple_a_list_or_what_print_shows(answer):
    assert as_bools(answer) == (True, False)


@pytest.mark.parametrize("answer", [(2, 0), {True, False}, "True or False", "是否"])
def test_several_bools_refuse_other_numbers_sets_and_other_words(answer):
    with pytest.raises(WrongKind):
        as_bools(answer)


@pytest.mark.parametrize(
    ("answer", "flags"),
    [
        ("是，否", (True, False)),
        ("对，错", (True, False)),
        ("不，不", (False, False)),
        ("(1,0)", (True, False)),
        ((1, 0), (True, False)),
        ("都是 True", (True, True)),
        ("都对", (True, True)),
        ("两个都是否", (False, False)),
        ("both false", (False, False)),
        ("答案是 是，否", (True, False)),
    ],
)
def test_several_bools_may_be_words_digits_or_one_for_all_of_them(answer, flags):
    assert as_bools(answer, count=2) == flags


@pytest.mark.parametrize(
    "answer", ["是", "(True,)", "是，否，是", "是 True", "不是 True", "是，False", (1, 0, 1)]
)
def test_several_bools_are_as_many_as_the_question_asks(answer):
    with pytest.raises(WrongKind) as raised:
        as_bools(answer, count=2)
    assert raised.value.kind == "bools"


def test_one_value_for_all_needs_the_number_of_values_asked():
    with pytest.raises(WrongKind):
        as_bools("都是 True")


@pytest.mark.parametrize("answer", ["b", "B", " b ", "'b'"])
def test_a_choice_ignores_case_spaces_and_quotes(answer):
    assert as_choice(answer, "abc") == "b"


@pytest.mark.parametrize(
    "answer",
    ["选b", "选 b", "选项 B", "选项：b", "答案是 b", "答案：(b)", "答：b", "是b", "option b",
     "Option (b)", "the answer is b", "The answer is: B.", "I choose b", "b)", "[b]"],
)  # fmt: skip
def test_a_choice_may_come_after_a_phrase_in_either_language(answer):
    assert as_choice(answer, "abc") == "b"


@pytest.mark.parametrize("answer", ["y *= 2", "y*=2", "“y *= 2”", "选 y *= 2", "Y *= 2"])
def test_a_choice_may_be_the_text_of_its_option_however_spaced(answer):
    options = {"a": "y = y * 2", "b": "y *= 2", "c": "z = y + 1"}
    assert as_choice(answer, "abc", options) == "b"


@pytest.mark.parametrize("answer", ["y *= 3", "y *= 2 and z = y + 1", "*= 2"])
def test_text_that_is_no_option_is_no_choice(answer):
    options = {"a": "y = y * 2", "b": "y *= 2", "c": "z = y + 1"}
    with pytest.raises(WrongKind) as raised:
        as_choice(answer, "abc", options)
    assert raised.value.kind == "choice"


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


@pytest.mark.parametrize("answer", [[None], 0, "", False, "0", "nonentity"])
def test_other_answers_do_not_mean_none(answer):
    assert not means_none(answer)


@pytest.mark.parametrize("answer", ["nothing", "NULL", "无", "没有", " 空 ", "空值", "“无”"])
def test_a_word_for_no_value_gets_a_note_to_write_none(answer):
    with pytest.raises(WrongKind) as raised:
        means_none(answer)
    assert raised.value.kind == "none"


# What a Chinese input method types: full-width forms, the ideographic comma, curly quotes.


@pytest.mark.parametrize("answer", ["１８", "１８．０", "ｔｅｎｓｏｒ（１８．）", "\u300018\u3000"])
def test_a_number_typed_in_full_width_is_the_number(answer):
    assert as_number(answer) == 18.0


@pytest.mark.parametrize("answer", ["［２，０，６］", "２　０　６", "2、0、6", "（2，0，6）"])
def test_numbers_typed_with_chinese_punctuation_are_the_numbers(answer):
    assert torch.equal(as_numbers(answer), torch.tensor([2.0, 0.0, 6.0], dtype=torch.float64))


@pytest.mark.parametrize("answer", ["（True，False）", "True、False", "Ｔｒｕｅ，Ｆａｌｓｅ"])
def test_several_bools_typed_with_chinese_punctuation_are_read(answer):
    assert as_bools(answer) == (True, False)


@pytest.mark.parametrize("answer", ["ｂ", "Ｂ", "“b”", "‘b’", "　b　"])
def test_a_choice_typed_in_full_width_or_in_curly_quotes_is_the_letter(answer):
    assert as_choice(answer, "abc") == "b"


@pytest.mark.parametrize("answer", ["w、b", "{‘w’，‘b’}", "｛“w”，“b”｝"])
def test_names_listed_the_chinese_way_are_the_names(answer):
    assert as_names(answer) == {"w", "b"}


@pytest.mark.parametrize("answer", ["“torch.Tensor”", "'torch.Tensor'", "ｔｏｒｃｈ．Ｔｅｎｓｏｒ"])
def test_a_word_in_quotes_or_full_width_is_the_word(answer):
    assert as_word(answer) == "torch.tensor"


@pytest.mark.parametrize("answer", ["Ｎｏｎｅ", "“None”", "'None'"])
def test_none_typed_in_full_width_or_in_quotes_means_none(answer):
    assert means_none(answer)


@pytest.mark.parametrize("answer", ["是", "否", "真", "假", "yes", "对"])
def test_words_for_yes_and_no_are_no_number(answer):
    # Only where True or False is asked are they values: elsewhere they are no answer.
    with pytest.raises(WrongKind) as raised:
        as_number(answer)
    assert raised.value.kind == "number"


@pytest.mark.parametrize(
    "answer",
    ["共13个", "一共十三个", "约13", "大约 13", "13左右", "about 13", "total: 13", "13 in total",
     "答案是共13个"],
)  # fmt: skip
def test_a_number_may_have_a_word_of_quantity_before_or_after_it(answer):
    assert as_number(answer) == 13.0


@pytest.mark.parametrize("answer", ["共", "about", "共13和14", "约十三四"])
def test_a_word_of_quantity_alone_or_around_no_number_is_no_number(answer):
    with pytest.raises(WrongKind):
        as_number(answer)


# A question about the tensors of notebook 10's table, and one about a counted module list.
TENSORS = Names(("y_pred", "w2", "h_relu", "h", "w1"), example="w2")
BLOCKS = Names(
    ("head",), example="blocks.5", within="model", counted=("blocks", ("块", "block"), 12)
)
PARAMETERS = Names(
    ("key.bias", "key.weight"), example="key.weight", within="model.blocks.*.attention"
)


@pytest.mark.parametrize(
    ("answer", "names", "name"),
    [
        ("h 的梯度", TENSORS, "h"),
        ("张量 h", TENSORS, "h"),
        ("grad_h_relu", TENSORS, "h_relu"),
        ("the gradient of h", TENSORS, "h"),
        ("h.grad", TENSORS, "h"),
        ("（h）", TENSORS, "h"),
        ("x", TENSORS, "x"),  # a name the question is not about: read, and wrong
        ("head层", BLOCKS, "head"),
        ("head 模块", BLOCKS, "head"),
        ("model.head", BLOCKS, "head"),
        ("第一个块", BLOCKS, "blocks.0"),
        ("第 3 个块", BLOCKS, "blocks.2"),
        ("the second block", BLOCKS, "blocks.1"),
        ("最后一个块", BLOCKS, "blocks.11"),
        ("最后一块", BLOCKS, "blocks.11"),
        ("the 12th block", BLOCKS, "blocks.11"),
        ("the last block", BLOCKS, "blocks.11"),
        ("block 0", BLOCKS, "blocks.0"),
        ("blocks[0]", BLOCKS, "blocks.0"),
        ("blocks。0", BLOCKS, "blocks.0"),
        ("model.blocks[1] · Block", BLOCKS, "blocks.1"),
        ("head · Linear", BLOCKS, "head"),
        ("key的偏置", PARAMETERS, "key.bias"),
        ("key bias", PARAMETERS, "key.bias"),
        ("key_bias", PARAMETERS, "key.bias"),
        ("key。bias", PARAMETERS, "key.bias"),
        ("key 的权重", PARAMETERS, "key.weight"),
        ("blocks.3.attention.key.bias", PARAMETERS, "key.bias"),
        ("model.blocks[0].attention.key.bias", PARAMETERS, "key.bias"),
        ("blocks.x.attention.key.bias", PARAMETERS, "blocks.x.attention.key.bias"),
    ],
)
def test_a_name_is_read_with_the_words_around_it_and_its_parts_joined_any_way(answer, names, name):
    assert as_name(answer, names) == name


@pytest.mark.parametrize(
    "answer",
    ["h, w1", "h 和 w1", "h w1", "h and w1", "not h", "h 的梯度是错的", "h · Linear 不对", "梯度",
     "0", 1, None],
)  # fmt: skip
def test_what_is_not_one_name_is_no_name_and_the_note_shows_the_example(answer):
    with pytest.raises(WrongKind) as raised:
        as_name(answer, TENSORS)
    assert raised.value.kind == "name" and raised.value.details == {"example": "w2"}


@pytest.mark.parametrize("answer", ["第一个块", "first block", "最后一个块"])
def test_an_ordinal_is_read_only_where_the_question_counts(answer):
    with pytest.raises(WrongKind):
        as_name(answer, TENSORS)


def test_only_full_width_forms_are_mapped_not_other_compatibility_characters():
    # NFKC would read "10²" as 102: a superscript is no digit the learner typed.
    with pytest.raises(WrongKind):
        as_number("10²")


# --- the inconsistencies found in lessons, each read by the shared rule ----------------------


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("02.6", "None"),
        ("02.6", "NONE"),
        ("05.4", "B"),
        ("07.4", "ITEM"),
        ("08.6", "Q"),
        ("07.3", "<class 'torch.Tensor'>"),
        ("01.4", np.False_),
        ("01.4", torch.tensor(False)),
        ("01.3", "18"),
        ("05.5", "101,000"),
        ("01.5", "tensor([2., 0., 6.])"),
    ],
)
def test_the_same_spelling_is_accepted_in_every_lesson(exercise_id, answer):
    assert check(exercise_id, answer).correct


@pytest.mark.parametrize(
    ("exercise_id", "answer"),
    [
        ("06.4", [False, False, True]),
        ("06.4", torch.tensor([False, False, True])),
        ("06.5", [True, False, False]),
        ("05.4", ["b"]),
        ("04.4", (2, 0)),
        ("02.6", [None]),
        ("03.5", True),
    ],
)
def test_flags_and_lists_are_not_taken_for_single_answers(exercise_id, answer):
    assert not check(exercise_id, answer).correct


def test_04_3_refuses_a_class_that_keeps_x_on_ctx_as_an_attribute():
    from helpers.exercises.lesson04 import _Cube, _CubeKeepsXOnCtx

    assert check("04.3", _Cube).correct
    assert not check("04.3", _CubeKeepsXOnCtx).correct


def cube_that_keeps_on_ctx(make_stash):
    """A right cube, except that forward also keeps ``make_stash(x)`` on ctx as an attribute."""

    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            ctx.stash = make_stash(x)
            return x**3

        @staticmethod
        def backward(ctx, grad_output):
            (x,) = ctx.saved_tensors
            return 3 * x**2 * grad_output

    return Cube


@pytest.mark.parametrize(
    "make_stash",
    [
        lambda x: {"x": x},
        lambda x: {"inputs": [x]},
        lambda x: [{"saved": (x,)}],
        lambda x: {x},
        lambda x: {x: "the input"},
    ],
    ids=["dict", "list-in-dict", "tuple-in-dict-in-list", "set", "dict-key"],
)
def test_04_3_refuses_a_class_that_keeps_x_on_ctx_inside_a_container(make_stash):
    assert not check("04.3", cube_that_keeps_on_ctx(make_stash)).correct


class _UnreadableDict(dict):
    def values(self):
        raise RuntimeError("boom")


def _containing_itself():
    stash = []
    stash.append(stash)
    return stash


@pytest.mark.parametrize(
    "make_stash",
    [
        lambda x: {"power": 3, "names": ["x"]},
        lambda x: _containing_itself(),
        lambda x: _UnreadableDict(power=3),
        lambda x: _Explosive(),
        lambda x: [[[[[[x]]]]]],  # deeper than anyone keeps a tensor by accident
    ],
    ids=["numbers-and-names", "contains-itself", "unreadable-dict", "explosive", "very-deep"],
)
def test_04_3_accepts_a_right_class_whatever_else_it_keeps_on_ctx(make_stash):
    assert check("04.3", cube_that_keeps_on_ctx(make_stash)).correct


def _first_numeric_right_answer(item):
    """The exercise's first sample right answer that is no text, as a tensor, if it is numbers
    (not flags: 01.4's answer False may also be written 0, but it is no number)."""
    answer = next((answer for answer in item.right_answers if not isinstance(answer, str)), None)
    try:
        value = torch.as_tensor(answer)
    except (TypeError, ValueError, RuntimeError):
        return None  # a name, a class, a set: no numbers
    return None if value.dtype == torch.bool else value.to(torch.float32)


NUMERIC = {
    exercise_id: value
    for exercise_id, item in ALL.items()
    if (value := _first_numeric_right_answer(item)) is not None
}


def printed_forms(value):
    """What print shows for ``value`` as a tensor: plain, with one more dimension if it is a
    single number, requiring grad, and computed (with its grad_fn)."""
    leaf = value.clone().requires_grad_()
    forms = [value, value.reshape(1) if value.dim() == 0 else value, leaf, leaf * 1]
    return [str(form) for form in forms]


def test_the_numeric_exercises_are_those_that_ask_for_numbers():
    assert sorted(NUMERIC) == [
        "01.3", "01.5", "02.5", "03.2", "03.3", "03.4", "03.5", "04.2", "04.5", "05.5",
        "06.4", "07.5", "08.1", "08.2", "08.4", "08.5", "09.2", "09.5",
        "10.1", "11.6", "11.7", "11.8", "12.1", "12.2", "12.3", "12.4", "12.5",
    ]  # fmt: skip


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("exercise_id", sorted(NUMERIC))
def test_every_numeric_exercise_accepts_what_print_shows_for_the_tensor(exercise_id, language):
    with speaking(language):
        for printed in printed_forms(NUMERIC[exercise_id]):
            assert check(exercise_id, printed).correct, printed


def test_07_3_refuses_the_function_torch_tensor_with_a_note_on_case():
    verdict = check("07.3", "torch.tensor")
    assert not verdict.correct and "torch.tensor, with a small t, is the function" in str(verdict)
    with speaking("zh"):
        assert "小写 t 的 torch.tensor 是创建张量的函数" in str(check("07.3", "torch.tensor"))
    assert check("07.3", "torch.Tensor").correct and check("07.3", "TORCH.TENSOR").correct


@pytest.mark.parametrize(
    "answer", ["Tensor.item", "torch.Tensor.item()", "tensor.item()", ".item", "loss.item"]
)
def test_07_4_accepts_the_method_however_it_is_qualified(answer):
    assert check("07.4", answer).correct


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
    if verdict.readable:  # read as a wrong value: the hint
        assert verdict.message.startswith(f"{exercise_id}: Not quite.")
        assert "Hint: " in verdict.message
    else:  # read as no value: how to write one, and no hint
        assert verdict.message.startswith(f"{exercise_id}: I cannot read this answer. ")
        assert "Hint: " not in verdict.message


# What each verdict starts with, in each language.
RIGHT = {"en": "{id}: Right. ", "zh": "{id}：答对了。"}
NOT_QUITE = {"en": "{id}: Not quite.", "zh": "{id}：还不对。"}
CANNOT_READ = {"en": "{id}: I cannot read this answer.", "zh": "{id}：这个答案我读不懂。"}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_exercise_accepts_its_right_answers_in_both_languages(exercise_id, language):
    item = ALL[exercise_id]
    assert item.right_answers, f"{exercise_id} has no sample right answer"
    for answer in item.right_answers:
        with speaking(language):
            verdict = check(exercise_id, answer)
        assert verdict.correct, f"{exercise_id} rejected {answer!r} ({language})"
        assert verdict.message == RIGHT[language].format(id=exercise_id) + item.why[language]


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_exercise_rejects_its_wrong_answers_in_both_languages(exercise_id, language):
    item = ALL[exercise_id]
    assert item.wrong_answers, f"{exercise_id} has no sample wrong answer"
    for answer in item.wrong_answers:
        with speaking(language):
            verdict = check(exercise_id, answer)
        assert not verdict.correct, f"{exercise_id} accepted {answer!r} ({language})"
        start = (NOT_QUITE if verdict.readable else CANNOT_READ)[language]
        assert verdict.message.startswith(start.format(id=exercise_id))


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_exercise_has_its_own_hint_and_worked_answer(exercise_id, language):
    item = ALL[exercise_id]
    question, hint, why = item.question[language], item.hint[language], item.why[language]
    assert question.strip() and hint.strip() and why.strip()
    assert hint != why
    others = [other.hint[language] for other in ALL.values() if other is not item]
    assert hint not in others, f"{exercise_id} shares its {language} hint with another exercise"


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_every_wrong_try_shows_the_hint_and_not_the_worked_answer(exercise_id, language):
    item = ALL[exercise_id]
    for answer in item.wrong_answers:
        with speaking(language):
            verdict = check(exercise_id, answer)
        assert item.why[language] not in verdict.message
        if verdict.readable:
            assert item.hint[language] in verdict.message
            assert f'check("{exercise_id}", answer, show_answer=True)' in verdict.message
        else:
            assert item.hint[language] not in verdict.message


def _giveaways(answer):
    """How a right answer would appear in a hint that gives it away; [] when it cannot be told.

    Word boundaries are ASCII ones: in Chinese a number stands right beside characters (是18).
    """
    if isinstance(answer, (bool, type(None))) or means_none(answer):
        return []  # the question itself offers None, True and False
    if isinstance(answer, str) and not re.search(r"\d", answer):
        try:
            as_bool(answer)
            return []  # "no", "否": a word for the False the question offers
        except WrongKind:
            pass
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
        word = answer.strip().removeprefix("loss").strip(".'()“”‘’")
        if len(word) == 1:
            return [f"\"{word}\"|'{word}'|“{word}”|‘{word}’"]  # a choice letter, quoted
        if re.fullmatch(r"[\w.]+", word):
            return [rf"(?<![\w]){re.escape(word)}(?![\w])"]
    return []


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_no_hint_gives_the_answer_away(exercise_id, language):
    item = ALL[exercise_id]
    for answer in item.right_answers:
        for pattern in _giveaways(answer):
            assert not re.search(pattern, item.hint[language], re.I | re.ASCII), (
                f"{exercise_id}'s {language} hint shows {answer!r}: {item.hint[language]}"
            )


def test_a_hint_that_gives_a_number_away_in_chinese_is_caught():
    # The check itself: a number written right after a character is still found.
    patterns = _giveaways(18)
    assert any(re.search(p, "结果是18。", re.I | re.ASCII) for p in patterns)


# --- the Chinese texts are Chinese -----------------------------------------------------------

# Three or more English words in a row, outside code: a sentence left untranslated. Code keeps
# its words joined by dots, brackets, underscores or operators (torch.no_grad(), lambda grad:).
ENGLISH_RUN = re.compile(r"(?<![\w.(])[A-Za-z]+(?: [A-Za-z]+){2,}(?![\w(.])", re.ASCII)
CJK = re.compile(r"[\u4e00-\u9fff]")


def english_left_in(text):
    """The runs of English words in a Chinese text, with what `check()` writes as code removed."""
    without_code = re.sub(r"check\([^)]*\)|`[^`]*`", "", text)
    return ENGLISH_RUN.findall(without_code)


def test_the_english_detector_finds_an_untranslated_sentence_and_spares_code():
    assert english_left_in("提示：Each call of backward() adds。") == ["Each call of"]
    assert english_left_in("在 `with torch.no_grad():` 块里，lambda grad: grad * 10。") == []


def _chinese_texts():
    for exercise_id, item in sorted(ALL.items()):
        for field in ("question", "hint", "why"):
            yield f"{exercise_id}.{field}", getattr(item, field)["zh"]
    for key, entry in MESSAGES.texts.items():
        yield f"MESSAGES.{key}", entry["zh"]


@pytest.mark.parametrize(("where", "text"), list(_chinese_texts()), ids=lambda v: str(v)[:20])
def test_every_chinese_text_is_chinese_with_no_english_sentence_left(where, text):
    assert CJK.search(text), f"{where} has no Chinese: {text}"
    assert not english_left_in(text), f"{where} keeps English: {english_left_in(text)}"


@pytest.mark.parametrize("exercise_id", sorted(ALL))
def test_the_chinese_texts_use_chinese_punctuation(exercise_id):
    # A comma or full stop right after a character is the mark of a text written in English.
    item = ALL[exercise_id]
    for field in ("question", "hint", "why"):
        text = getattr(item, field)["zh"]
        assert not re.search(r"[\u4e00-\u9fff][,.;:?]", text), f"{exercise_id}.{field}: {text}"


# --- the notebooks say how -------------------------------------------------------------------


def _check_yourself_text(notebook, title):
    """The markdown of the notebook's self-test section: from its heading to its first code."""
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    parts = None
    for cell in cells:
        source = "".join(cell["source"])
        if parts is None and cell["cell_type"] == "markdown" and title in source:
            parts = [source.split(title, 1)[1]]
        elif parts is not None and cell["cell_type"] == "code":
            break
        elif parts is not None:
            parts.append(source)
    return None if parts is None else "\n".join(parts)


def _checks_answers(notebook):
    cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
    code = ["".join(cell["source"]) for cell in cells if cell["cell_type"] == "code"]
    return any('check("' in source for source in code)


def _notebooks_with_check_cells():
    for language, title in CHECK_YOURSELF.items():
        for notebook in sorted((NOTEBOOKS / language).glob("*.ipynb")):
            if _checks_answers(notebook):
                yield pytest.param(notebook, title, id=f"{language}/{notebook.stem}")


@pytest.mark.parametrize(("notebook", "title"), list(_notebooks_with_check_cells()))
def test_the_check_yourself_introduction_says_how_to_get_a_hint_or_links_to_it(notebook, title):
    introduction = _check_yourself_text(notebook, title)
    assert introduction is not None, f"{notebook.name} checks answers but has no {title!r}"
    if notebook.name.startswith("01_"):
        assert "hint=True" in introduction and "show_answer=True" in introduction
    else:  # one line that sends the learner to lesson 01's
        assert "(01_autograd_basics.ipynb#" in introduction


class _UnprintableId:
    def __repr__(self) -> str:
        raise ValueError("this object cannot be shown")


@pytest.mark.parametrize("written", [_UnprintableId(), 10**5000], ids=["repr raises", "huge int"])
def test_an_id_that_cannot_be_shown_is_named_by_its_type_in_both_languages(written):
    for language, words in (("en", "There is no exercise <"), ("zh", "没有编号为 <")):
        with speaking(language), pytest.raises(UnknownExercise) as raised:
            check(written, 18)
        assert words in str(raised.value)
        assert f"<{type(written).__name__}>" in str(raised.value)


# --- the notebooks number their exercises in reading order ------------------------------------

# An exercise as a reader meets it: its label in a markdown cell (**05.1**) or its check cell.
# A mention in prose ("exercise 04.5 below") may point ahead and is not counted.
_LABEL = re.compile(r"\*\*(\d\d\.\d+)\*\*")
_CHECK_CALL = re.compile(r"""\bcheck\(\s*["'](\d\d\.\d+)["']""")


def _exercise_ids_in_reading_order(notebook):
    """The exercise ids a notebook labels or checks, each once, in the order a reader meets them."""
    ids = []
    for cell in json.loads(notebook.read_text(encoding="utf-8"))["cells"]:
        pattern = _LABEL if cell["cell_type"] == "markdown" else _CHECK_CALL
        for exercise_id in pattern.findall("".join(cell["source"])):
            if exercise_id not in ids:
                ids.append(exercise_id)
    return ids


def _lesson_notebooks():
    for language in CHECK_YOURSELF:
        for notebook in sorted((NOTEBOOKS / language).glob("[0-9][0-9]_*.ipynb")):
            yield pytest.param(notebook, id=f"{language}/{notebook.stem}")


@pytest.mark.parametrize("notebook", list(_lesson_notebooks()))
def test_a_notebook_numbers_its_exercises_1_2_3_in_the_order_a_reader_meets_them(notebook):
    lesson = notebook.name[:2]
    ids = _exercise_ids_in_reading_order(notebook)
    assert ids == [f"{lesson}.{number}" for number in range(1, len(ids) + 1)]


@pytest.mark.parametrize("language", list(CHECK_YOURSELF))
def test_every_registered_exercise_is_in_its_lessons_notebook_in_both_editions(language):
    lessons = sorted({exercise_id.split(".")[0] for exercise_id in ALL})
    for lesson in lessons:
        (notebook,) = (NOTEBOOKS / language).glob(f"{lesson}_*.ipynb")
        registered = {exercise_id for exercise_id in ALL if exercise_id.startswith(f"{lesson}.")}
        assert set(_exercise_ids_in_reading_order(notebook)) == registered, notebook.name

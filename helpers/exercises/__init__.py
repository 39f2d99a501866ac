"""Check-yourself exercises: each lesson ends with a few questions that :func:`check` marks.

A lesson's questions live in their own module here (``lesson02.py`` for notebook 02, ...),
each registered with :func:`exercise`. In the notebook a learner replaces ``...`` with an
answer and runs::

    answer = ...  # your answer
    check("02.1", answer)

Until the ``...`` is replaced, the check says so and gives nothing away. A right answer is
confirmed with the reason. A wrong one gets a hint, never the solution: the worked answer is
shown only on request, ``check("02.1", answer, show_answer=True)``; ``check("02.1", hint=True)``
gives the hint before any try. An answer the reading rules cannot read as any value the
question asks for is neither: the verdict says it cannot read it and how an answer to this
question is written, with no hint on the idea. Any answer at all gets a verdict, never an error.

Answers are read by the rules of :mod:`helpers.exercises.reading` (``as_number``,
``as_choice``, ...), the same in every lesson.

Every sentence a learner reads lives in data, in English and in Chinese: the question, hint and
worked answer of each exercise are fields of its registration (``{"en": ..., "zh": ...}``), and
the frame around them is the :data:`MESSAGES` catalogue below, an entry per text with the
sentence in every language (a :class:`helpers.language.Catalogue`). :func:`check` speaks the
language chosen with :func:`helpers.set_language`; a right answer is right in both.
"""

from __future__ import annotations

import difflib
import html
import importlib
import math
import pkgutil
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from helpers.exercises.reading import (
    Names,
    WrongKind,
    WrongValue,
    as_bool,
    as_bools,
    as_choice,
    as_exercise_id,
    as_name,
    as_names,
    as_number,
    as_numbers,
    as_word,
    means_none,
    numbers_equal,
)
from helpers.language import LANGUAGES, Catalogue, choose

__all__ = [
    "MESSAGES",
    "Exercise",
    "Names",
    "UnknownExercise",
    "Verdict",
    "WrongKind",
    "WrongValue",
    "as_bool",
    "as_bools",
    "as_choice",
    "as_exercise_id",
    "as_name",
    "as_names",
    "as_number",
    "as_numbers",
    "as_word",
    "check",
    "exercise",
    "exercises",
    "means_none",
    "numbers_equal",
]

# What check() says around an exercise's own texts, one entry per text with every language.
# {id} is the exercise id; {hint} and {why} are the exercise's fields; {note} is one of the
# "kind." notes: how an answer to the question is written, for an answer the reading rules
# cannot read, or a note of its own on a wrong value. The code of check() (in
# `check("{id}", ...)`) stays as Python writes it.
_TEXTS = {
    "unanswered": {
        "en": (
            "{id}: not answered yet. Replace ... with your answer and run the cell. "
            'Stuck? check("{id}", hint=True) gives a hint, check("{id}", show_answer=True) the '
            "worked answer."
        ),
        "zh": (
            "{id}：还没有作答。把 ... 换成你的答案，再运行这个单元格。"
            '卡住了？check("{id}", hint=True) 给出提示，check("{id}", show_answer=True) '
            "给出解答。"
        ),
    },
    "unanswered_short": {"en": "{id}: not answered yet.", "zh": "{id}：还没有作答。"},
    "right": {"en": "{id}: Right. {why}", "zh": "{id}：答对了。{why}"},
    "wrong": {"en": "{id}: Not quite.", "zh": "{id}：还不对。"},
    "wrong_with_note": {"en": "{id}: Not quite. {note}", "zh": "{id}：还不对。{note}"},
    # An answer the reading rules cannot read is not judged: no hint on the idea, only the form.
    "unreadable": {
        "en": "{id}: I cannot read this answer. {note}",
        "zh": "{id}：这个答案我读不懂。{note}",
    },
    "unreadable_not_marked": {
        "en": "Nothing was marked right or wrong: write your answer that way and run the cell.",
        "zh": "这次没有判对错：按这个写法写好答案，再运行一次单元格。",
    },
    "hint": {"en": "Hint: {hint}", "zh": "提示：{hint}"},
    "how_to_see_answer": {
        "en": 'Try again. To see the worked answer, run check("{id}", answer, show_answer=True).',
        "zh": '再想一想。想看解答，请运行 check("{id}", answer, show_answer=True)。',
    },
    "answer": {"en": "Worked answer: {why}", "zh": "解答：{why}"},
    # The id as the learner wrote it ("1.1", "０１.１") and the exercise it was read as.
    "id_read_as": {
        "en": 'Read "{given}" as exercise "{id}".',
        "zh": '把 "{given}" 当作第 {id} 题。',
    },
    "unknown_id": {
        "en": "There is no exercise {given}. Did you mean {nearest}? The exercises are {known}.",
        "zh": "没有编号为 {given} 的题目。你想写的是不是 {nearest}？现有的题号是 {known}。",
    },
    "unreadable_id": {
        "en": (
            "There is no exercise {given}: an exercise id is a lesson and a question, such as "
            '"01.1". The exercises are {known}.'
        ),
        "zh": (
            '没有编号为 {given} 的题目：题号由课号和题目序号组成，例如 "01.1"。'
            "现有的题号是 {known}。"
        ),
    },
    # One note per kind of answer a reader of helpers.exercises.reading asks for.
    "kind.number": {
        "en": "The answer here is one number, such as 3 or 2.5 (not a list, not True/False).",
        "zh": "这里的答案是一个数，例如 3 或 2.5（不是列表，也不是 True/False）。",
    },
    "kind.numbers": {
        "en": "The answer here is numbers: a list such as [1.0, 2.0] or a tensor.",
        "zh": "这里的答案是一组数：像 [1.0, 2.0] 这样的列表，或一个张量。",
    },
    "kind.bool": {
        "en": "The answer here is True or False.",
        "zh": "这里的答案是 True 或 False。",
    },
    "kind.bools": {
        "en": (
            "The answer here is a tuple of True/False values, one for each part of the "
            "question in order, such as (False, True)."
        ),
        "zh": "这里的答案是由 True/False 组成的元组，按顺序每一问一个值，例如 (False, True)。",
    },
    "kind.choice": {
        "en": "The answer here is one of the letters {letters}, as a string.",
        "zh": "这里的答案是字母 {letters} 中的一个，写成字符串。",
    },
    "kind.name": {
        "en": 'The answer here is one name, written as a string in quotes, such as "{example}".',
        "zh": '这里的答案是一个名字，写成带引号的字符串，例如 "{example}"。',
    },
    "kind.word": {
        "en": 'The answer here is a name, written as a string in quotes, such as "name".',
        "zh": '这里的答案是一个名字，写成带引号的字符串，例如 "name"。',
    },
    "kind.names": {
        "en": 'The answer here is a set of names as strings, such as {{"x", "a"}}.',
        "zh": '这里的答案是一组名字（字符串），例如 {{"x", "a"}}。',
    },
    "kind.none": {
        "en": (
            'Write the value as Python prints it: a missing value is None (or the string "None").'
        ),
        "zh": '请按 Python 打印的样子写出这个值：“没有值”写作 None（或字符串 "None"）。',
    },
    "kind.function_class": {
        "en": "The answer here is your Function class itself, e.g. answer = CubeFunction.",
        "zh": "这里的答案是你写的 Function 类本身，例如 answer = CubeFunction。",
    },
    "kind.class_not_function": {
        "en": (
            "torch.tensor, with a small t, is the function that makes a tensor; type() returns "
            "a class, and the names of PyTorch's classes start with a capital letter. Here, "
            "and only here, case matters."
        ),
        "zh": (
            "小写 t 的 torch.tensor 是创建张量的函数；type() 返回的是一个类，而 PyTorch 的类名"
            "以大写字母开头。只有在这里，大小写才有区别。"
        ),
    },
}
MESSAGES = Catalogue("helpers.exercises", _TEXTS)


class UnknownExercise(KeyError):
    """No exercise has the id asked for; the text names the nearest ids, in the learner's
    language."""

    def __str__(self) -> str:
        # KeyError would show its text in quotes, with escapes: this is a sentence, not a key.
        return str(self.args[0]) if self.args else ""


@dataclass(frozen=True)
class Exercise:
    """One question: its id (``"02.1"``), its texts in every language, and a test of an answer.

    ``hint`` guides toward the answer without giving it; ``why`` is the worked answer, shown
    after a right answer or when the learner asks for it. Each text maps a language ("en",
    "zh") to the sentence in that language.
    """

    exercise_id: str
    question: Mapping[str, str]
    hint: Mapping[str, str]
    why: Mapping[str, str]
    is_correct: Callable[[Any], bool]
    # Sample answers that the tests feed to ``is_correct``: each must be accepted / rejected.
    right_answers: tuple[Any, ...]
    wrong_answers: tuple[Any, ...]


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` says about an answer; shows as a few lines of text in a notebook.

    ``readable`` is False for an answer the reading rules could not read as any value the
    question asks for: it is neither right nor wrong, and the message says how to write one.
    """

    exercise_id: str
    answered: bool
    correct: bool
    message: str
    readable: bool = True

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        if not self.answered:
            colour = "#555"
        elif self.correct:
            colour = "#1a7f37"
        else:
            colour = "#b3261e" if self.readable else "#9a6700"  # unread, not wrong: no red
        first, *rest = [html.escape(line, quote=False) for line in self.message.split("\n")]
        # The verdict itself in bold, the hint or worked answer below it in plain text.
        return f'<p style="color:{colour}"><b>{first}</b>{"".join("<br>" + r for r in rest)}</p>'


_REGISTRY: dict[str, Exercise] = {}


def exercise(
    exercise_id: str,
    question: Mapping[str, str],
    *,
    hint: Mapping[str, str],
    why: Mapping[str, str],
    right_answers: tuple[Any, ...],
    wrong_answers: tuple[Any, ...],
):
    """Register the decorated function as the test of an answer to ``question``.

    ``question``, ``hint`` and ``why`` each give the text in every language the helpers speak:
    ``{"en": "...", "zh": "..."}``.

    ``right_answers`` and ``wrong_answers`` are samples the test suite checks the function
    against, so that every exercise provably accepts a right answer and rejects a wrong one.
    The function receives the learner's answer and returns True when it is right. It reads the
    answer with the readers of :mod:`helpers.exercises.reading`, whose :class:`WrongKind` makes
    :func:`check` say it cannot read the answer and how one is written; a :class:`WrongValue`
    it raises adds its note to "Not quite"; whatever else it raises is reported as a wrong
    answer, never as a crash of the learner's cell.
    """

    def register(is_correct: Callable[[Any], bool]) -> Callable[[Any], bool]:
        if exercise_id in _REGISTRY:
            raise ValueError(f"Exercise {exercise_id!r} is registered twice.")
        texts = {"question": question, "hint": hint, "why": why}
        for field, text in texts.items():
            _check_languages(exercise_id, field, text)
        _REGISTRY[exercise_id] = Exercise(
            exercise_id,
            dict(question),
            dict(hint),
            dict(why),
            is_correct,
            tuple(right_answers),
            tuple(wrong_answers),
        )
        return is_correct

    return register


def exercises() -> dict[str, Exercise]:
    """Every registered exercise, by id."""
    _load_lessons()
    return dict(_REGISTRY)


def check(
    exercise_id: str, answer: Any = ..., *, hint: bool = False, show_answer: bool = False
) -> Verdict:
    """Mark ``answer`` to exercise ``exercise_id``; ``...`` (Ellipsis) means not answered yet.

    A right answer is confirmed with the reason; a wrong one gets a hint. ``show_answer=True``
    adds the worked answer, ``hint=True`` the hint even before any answer is given. The verdict
    speaks the language chosen with :func:`helpers.set_language`.

    The id is read like an answer: ``"1.1"`` or ``"０１.１"`` is exercise ``"01.1"``, and the
    verdict says so. An id that names no exercise raises :class:`UnknownExercise` (a
    ``KeyError``), whose text names the nearest ids.
    """
    item = _find(exercise_id)
    fields = {"id": item.exercise_id, "hint": choose(item.hint), "why": choose(item.why)}
    if answer is ...:
        lines = ["unanswered_short"] if hint or show_answer else ["unanswered"]
        lines += (["hint"] if hint else []) + (["answer"] if show_answer else [])
        return _verdict(item, exercise_id, False, False, lines, fields)
    correct, problem = _mark(item, answer)
    if correct:
        return _verdict(item, exercise_id, True, True, ["right"], fields)
    if isinstance(problem, WrongKind):
        # Not read as any value the question asks for: say how one is written, and leave the
        # idea unjudged (a hint on it would tell a learner with the right idea that it is wrong).
        fields["note"] = MESSAGES.say(f"kind.{problem.kind}", **problem.details)
        lines = ["unreadable", "unreadable_not_marked"] + (["hint"] if hint else [])
        lines += ["answer"] if show_answer else []
        return _verdict(item, exercise_id, True, False, lines, fields, readable=False)
    if problem is None:
        lines = ["wrong"]
    else:
        fields["note"] = MESSAGES.say(f"kind.{problem.kind}")
        lines = ["wrong_with_note"]
    lines += ["answer"] if show_answer else ["hint", "how_to_see_answer"]
    return _verdict(item, exercise_id, True, False, lines, fields)


def _verdict(
    item: Exercise,
    written_id: Any,
    answered: bool,
    correct: bool,
    lines: list[str],
    fields: dict[str, str],
    readable: bool = True,
) -> Verdict:
    # str.format fills the blanks once: braces inside a hint or a worked answer stay as written.
    message = "\n".join(MESSAGES.say(key, **fields) for key in lines)
    if not (isinstance(written_id, str) and written_id.strip() == item.exercise_id):
        # The id was read, not found as written: say which exercise was taken.
        given = written_id.strip() if isinstance(written_id, str) else _shown(written_id)
        message += "\n" + MESSAGES.say("id_read_as", given=given, id=item.exercise_id)
    return Verdict(item.exercise_id, answered, correct, message, readable)


def _find(exercise_id: Any) -> Exercise:
    """The exercise ``exercise_id`` names, written as registered or read like an answer."""
    known = exercises()
    if isinstance(exercise_id, str) and exercise_id in known:
        return known[exercise_id]
    read = as_exercise_id(exercise_id)
    if read in known:
        return known[read]
    given = f'"{exercise_id[:60]}"' if isinstance(exercise_id, str) else _shown(exercise_id)
    nearest = _nearest_ids(exercise_id, read, sorted(known))
    blanks = {"given": given, "known": ", ".join(sorted(known))}
    if nearest:
        quoted = ", ".join(f'"{known_id}"' for known_id in nearest)
        text = MESSAGES.say("unknown_id", nearest=quoted, **blanks)
    else:
        text = MESSAGES.say("unreadable_id", **blanks)
    raise UnknownExercise(text)


def _shown(value: Any) -> str:
    """``value`` as Python would show it, cut to 60 characters; its type for a value whose repr
    fails (an object whose __repr__ raises, an int too long for Python to write out)."""
    try:
        return repr(value)[:60]
    except Exception:
        return f"<{type(value).__name__}>"


def _nearest_ids(written: Any, read: str | None, known: list[str]) -> list[str]:
    """The ids a learner most likely meant by an id that names no exercise: the questions of the
    lesson written ("1.9": 01.1, 01.2, 01.3) or of the nearest lesson ("12.1": lesson 11's),
    or for text that is no id, the known ids spelled most alike ("01.1a": 01.1)."""
    if read is not None:
        lessons = {known_id.split(".")[0] for known_id in known}
        wanted = int(read.split(".")[0])
        lesson = min(lessons, key=lambda lesson: (abs(_lesson_number(lesson) - wanted), lesson))
        return [known_id for known_id in known if known_id.split(".")[0] == lesson]
    if isinstance(written, str):
        return difflib.get_close_matches(written.strip(), known, n=3)
    return []


def _lesson_number(lesson: str) -> float:
    return int(lesson) if lesson.isdigit() else math.inf


def _mark(item: Exercise, answer: Any) -> tuple[bool, WrongKind | WrongValue | None]:
    """Is ``answer`` right? If not, was it unreadable (WrongKind, naming the kind of answer the
    question asks for) or a wrong value with a note of its own (WrongValue)?"""
    try:
        return bool(item.is_correct(answer)), None
    except (WrongKind, WrongValue) as problem:
        return False, problem
    except Exception:
        # An odd answer can make a test raise almost anything (a tensor op refusing a device, a
        # learner's object whose __eq__ raises). None of it makes the answer right, and none of
        # it may crash the learner's check cell.
        return False, None


def _check_languages(exercise_id: str, field: str, text: object) -> None:
    # Every exercise speaks every language: a text missing in one would show English in the
    # middle of a Chinese notebook, or an empty verdict.
    if not isinstance(text, Mapping) or set(text) != set(LANGUAGES):
        raise TypeError(
            f"Exercise {exercise_id!r}: {field} must give the text in each language, "
            f"{{{', '.join(repr(code) + ': ...' for code in LANGUAGES)}}}; got {text!r}."
        )
    for language, sentence in text.items():
        if not isinstance(sentence, str) or not sentence.strip():
            raise TypeError(f"Exercise {exercise_id!r}: the {language} {field} is empty.")


def _load_lessons() -> None:
    # Importing a lesson module registers its exercises; each is imported once.
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("lesson"):
            importlib.import_module(f"{__name__}.{module.name}")

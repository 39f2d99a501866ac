"""Check-yourself exercises: each lesson ends with a few questions that :func:`check` marks.

A lesson's questions live in their own module here (``lesson02.py`` for notebook 02, ...),
each registered with :func:`exercise`. In the notebook a learner replaces ``...`` with an
answer and runs::

    answer = ...  # your answer
    check("02.1", answer)

Until the ``...`` is replaced, the check says so and gives nothing away. A right answer is
confirmed with the reason. A wrong one gets a hint, never the solution: the worked answer is
shown only on request, ``check("02.1", answer, show_answer=True)``; ``check("02.1", hint=True)``
gives the hint before any try. Any answer at all gets a verdict, never an error.

Answers are read by the rules of :mod:`helpers.exercises.reading` (``as_number``,
``as_choice``, ...), the same in every lesson.

Every sentence a learner reads lives in data: the question, hint and worked answer of each
exercise are fields of its registration, and the frame around them is the :data:`MESSAGES`
table below. A translation adds its own table and fields; no code needs to change shape.
"""

from __future__ import annotations

import html
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from helpers.exercises.reading import (
    WrongKind,
    as_bool,
    as_bools,
    as_choice,
    as_names,
    as_number,
    as_numbers,
    as_word,
    means_none,
    numbers_equal,
)

__all__ = [
    "MESSAGES",
    "Exercise",
    "Verdict",
    "WrongKind",
    "as_bool",
    "as_bools",
    "as_choice",
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

# What check() says around an exercise's own texts. {id} is the exercise id; {hint} and {why}
# are the exercise's fields; {note} is one of the "kind." notes, for an answer of the wrong kind.
MESSAGES: dict[str, str] = {
    "unanswered": (
        "{id}: not answered yet. Replace ... with your answer and run the cell. "
        'Stuck? check("{id}", hint=True) gives a hint, check("{id}", show_answer=True) the '
        "worked answer."
    ),
    "unanswered_short": "{id}: not answered yet.",
    "right": "{id}: Right. {why}",
    "wrong": "{id}: Not quite.",
    "wrong_kind": "{id}: Not quite. {note}",
    "hint": "Hint: {hint}",
    "how_to_see_answer": (
        'Try again. To see the worked answer, run check("{id}", answer, show_answer=True).'
    ),
    "answer": "Worked answer: {why}",
    # One note per kind of answer a reader of helpers.exercises.reading asks for.
    "kind.number": "The answer here is one number, such as 3 or 2.5 (not a list, not True/False).",
    "kind.numbers": "The answer here is numbers: a list such as [1.0, 2.0] or a tensor.",
    "kind.bool": "The answer here is True or False.",
    "kind.bools": "The answer here is a tuple of True/False values, such as (False, True).",
    "kind.choice": "The answer here is one of the letters {letters}, as a string.",
    "kind.word": 'The answer here is a name, written as a string in quotes, such as "name".',
    "kind.names": 'The answer here is a set of names as strings, such as {{"x", "a"}}.',
    "kind.function_class": (
        "The answer here is your Function class itself, e.g. answer = CubeFunction."
    ),
}


@dataclass(frozen=True)
class Exercise:
    """One question: its id (``"02.1"``), its texts, and a test of an answer.

    ``hint`` guides toward the answer without giving it; ``why`` is the worked answer, shown
    after a right answer or when the learner asks for it.
    """

    exercise_id: str
    question: str
    hint: str
    why: str
    is_correct: Callable[[Any], bool]
    # Sample answers that the tests feed to ``is_correct``: each must be accepted / rejected.
    right_answers: tuple[Any, ...]
    wrong_answers: tuple[Any, ...]


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` says about an answer; shows as a few lines of text in a notebook."""

    exercise_id: str
    answered: bool
    correct: bool
    message: str

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        colour = "#555" if not self.answered else ("#1a7f37" if self.correct else "#b3261e")
        first, *rest = [html.escape(line, quote=False) for line in self.message.split("\n")]
        # The verdict itself in bold, the hint or worked answer below it in plain text.
        return f'<p style="color:{colour}"><b>{first}</b>{"".join("<br>" + r for r in rest)}</p>'


_REGISTRY: dict[str, Exercise] = {}


def exercise(
    exercise_id: str,
    question: str,
    *,
    hint: str,
    why: str,
    right_answers: tuple[Any, ...],
    wrong_answers: tuple[Any, ...],
):
    """Register the decorated function as the test of an answer to ``question``.

    ``right_answers`` and ``wrong_answers`` are samples the test suite checks the function
    against, so that every exercise provably accepts a right answer and rejects a wrong one.
    The function receives the learner's answer and returns True when it is right. It reads the
    answer with the readers of :mod:`helpers.exercises.reading`, whose :class:`WrongKind` makes
    :func:`check` add a note on the kind of answer expected; whatever else it raises is reported
    as a wrong answer, never as a crash of the learner's cell.
    """

    def register(is_correct: Callable[[Any], bool]) -> Callable[[Any], bool]:
        if exercise_id in _REGISTRY:
            raise ValueError(f"Exercise {exercise_id!r} is registered twice.")
        _REGISTRY[exercise_id] = Exercise(
            exercise_id,
            question,
            hint,
            why,
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
    adds the worked answer, ``hint=True`` the hint even before any answer is given.
    """
    item = _find(exercise_id)
    fields = {"id": exercise_id, "hint": item.hint, "why": item.why}
    if answer is ...:
        lines = ["unanswered_short"] if hint or show_answer else ["unanswered"]
        lines += (["hint"] if hint else []) + (["answer"] if show_answer else [])
        return Verdict(exercise_id, False, False, _say(lines, fields))
    correct, wrong_kind = _mark(item, answer)
    if correct:
        return Verdict(exercise_id, True, True, _say(["right"], fields))
    if wrong_kind is None:
        lines = ["wrong"]
    else:
        fields["note"] = MESSAGES[f"kind.{wrong_kind.kind}"].format(**wrong_kind.details)
        lines = ["wrong_kind"]
    lines += ["answer"] if show_answer else ["hint", "how_to_see_answer"]
    return Verdict(exercise_id, True, False, _say(lines, fields))


def _find(exercise_id: str) -> Exercise:
    known = exercises()
    if exercise_id not in known:
        raise KeyError(
            f"There is no exercise {exercise_id!r}. Known ids: {', '.join(sorted(known))}."
        )
    return known[exercise_id]


def _mark(item: Exercise, answer: Any) -> tuple[bool, WrongKind | None]:
    """Is ``answer`` right, and if it is of the wrong kind, which kind was expected?"""
    try:
        return bool(item.is_correct(answer)), None
    except WrongKind as wrong_kind:
        return False, wrong_kind
    except Exception:
        # An odd answer can make a test raise almost anything (a tensor op refusing a device, a
        # learner's object whose __eq__ raises). None of it makes the answer right, and none of
        # it may crash the learner's check cell.
        return False, None


def _say(keys: list[str], fields: dict[str, str]) -> str:
    # str.format fills the blanks once: braces inside a hint or a worked answer stay as written.
    return "\n".join(MESSAGES[key].format(**fields) for key in keys)


def _load_lessons() -> None:
    # Importing a lesson module registers its exercises; each is imported once.
    for module in pkgutil.iter_modules(__path__):
        if module.name.startswith("lesson"):
            importlib.import_module(f"{__name__}.{module.name}")

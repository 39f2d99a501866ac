"""Check-yourself exercises: each lesson ends with a few questions that :func:`check` marks.

A lesson's questions live in their own module here (``lesson02.py`` for notebook 02, ...),
each registered with :func:`exercise`. In the notebook a learner replaces ``...`` with an
answer and runs::

    answer = ...  # your answer
    check("02.1", answer)

Until the ``...`` is replaced, the check says so and gives nothing away.
"""

from __future__ import annotations

import html
import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import torch

__all__ = [
    "Exercise",
    "Verdict",
    "as_choice",
    "as_number",
    "as_numbers",
    "check",
    "exercise",
    "exercises",
]


@dataclass(frozen=True)
class Exercise:
    """One question: its id (``"02.1"``), its text, a test of an answer, and why."""

    exercise_id: str
    question: str
    is_correct: Callable[[Any], bool]
    why: str
    # Sample answers that the tests feed to ``is_correct``: each must be accepted / rejected.
    right_answers: tuple[Any, ...]
    wrong_answers: tuple[Any, ...]


@dataclass(frozen=True)
class Verdict:
    """What :func:`check` says about an answer; shows as one line of text in a notebook."""

    exercise_id: str
    answered: bool
    correct: bool
    message: str

    def __repr__(self) -> str:
        return self.message

    def _repr_html_(self) -> str:
        colour = "#555" if not self.answered else ("#1a7f37" if self.correct else "#b3261e")
        return f'<p style="color:{colour}"><b>{html.escape(self.message)}</b></p>'


_REGISTRY: dict[str, Exercise] = {}


def exercise(
    exercise_id: str,
    question: str,
    why: str,
    right_answers: tuple[Any, ...],
    wrong_answers: tuple[Any, ...],
):
    """Register the decorated function as the test of an answer to ``question``.

    ``right_answers`` and ``wrong_answers`` are samples the test suite checks the function
    against, so that every exercise provably accepts a right answer and rejects a wrong one.
    The function receives the learner's answer and returns True when it is right. It may raise
    ``TypeError`` or ``ValueError`` for an answer of the wrong kind: :func:`check` reports that as
    wrong rather than crashing.
    """

    def register(is_correct: Callable[[Any], bool]) -> Callable[[Any], bool]:
        if exercise_id in _REGISTRY:
            raise ValueError(f"Exercise {exercise_id!r} is registered twice.")
        _REGISTRY[exercise_id] = Exercise(
            exercise_id, question, is_correct, why, tuple(right_answers), tuple(wrong_answers)
        )
        return is_correct

    return register


def as_number(answer: Any) -> float:
    """A numeric answer as a float: 33, 33.0 and ``tensor(33.)`` all count.

    A string, a bool or None is an answer of the wrong kind: ``TypeError``, which :func:`check`
    reports as wrong.
    """
    if isinstance(answer, (str, bytes, bool)) or answer is None:
        raise TypeError("expected a number")
    return float(answer)


def as_numbers(answer: Any) -> torch.Tensor:
    """A numeric answer as a float64 CPU tensor: 18, [2, 0, 6] and a tensor on any device count.

    A string or None is an answer of the wrong kind: ``TypeError``, which :func:`check` reports
    as wrong.
    """
    if isinstance(answer, (str, bytes)) or answer is None:
        raise TypeError("expected a number, a list of numbers or a tensor")
    if isinstance(answer, torch.Tensor):
        # A learner's tensor may live on a GPU (and MPS has no float64): compare on the CPU.
        answer = answer.detach().cpu()
    return torch.as_tensor(answer).to(torch.float64)


def as_choice(answer: Any) -> str:
    """A multiple-choice answer as one lower-case letter: "b", "B" and " b " are one choice.

    Anything but a string is not a choice at all: ``TypeError``, which :func:`check` reports as
    wrong.
    """
    if not isinstance(answer, str):
        raise TypeError("expected one of the letters offered, such as 'a'")
    return answer.strip().lower()


def exercises() -> dict[str, Exercise]:
    """Every registered exercise, by id."""
    _load_lessons()
    return dict(_REGISTRY)


def check(exercise_id: str, answer: Any) -> Verdict:
    """Mark ``answer`` to exercise ``exercise_id``; ``...`` (Ellipsis) means not answered yet."""
    known = exercises()
    if exercise_id not in known:
        raise KeyError(
            f"There is no exercise {exercise_id!r}. Known ids: {', '.join(sorted(known))}."
        )
    item = known[exercise_id]
    if answer is ...:
        message = f"{exercise_id}: not answered yet — replace ... with your answer."
        return Verdict(exercise_id, False, False, message)
    try:
        correct = bool(item.is_correct(answer))
    except (TypeError, ValueError, AttributeError):
        correct = False
    verdict = "Right." if correct else "Not quite."
    return Verdict(exercise_id, True, correct, f"{exercise_id}: {verdict} {item.why}")


def _load_lessons() -> None:
    # Importing a lesson module registers its exercises; each is imported once.
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")

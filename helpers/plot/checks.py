"""What the plots accept: titles, runs, steps and losses, checked and turned into plain numbers,
or refused with a sentence that says what to give instead."""

from __future__ import annotations

import math
import numbers
import reprlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from helpers.language import LANGUAGES
from helpers.plot.messages import MESSAGES

Curve = tuple[list[int], list[float]]  # the steps and the loss at each step
TITLE_EXAMPLE = '{"en": "two-layer network", "zh": "两层网络"}'
# Beyond 2**53 a float, which the axis works in, no longer tells neighbouring steps apart.
LARGEST_STEP = 2**53


def check_title(title: object) -> None:
    if title is None or isinstance(title, str):
        return
    if not isinstance(title, Mapping):
        raise TypeError(about_title("title_not_text", **value_and_type(title)))
    for language, text in title.items():
        if language not in LANGUAGES:
            known = ", ".join(f'"{code}"' for code in LANGUAGES)
            raise ValueError(
                about_title("title_unknown_language", language=repr(language), known=known)
            )
        if not isinstance(text, str):
            raise TypeError(
                about_title("title_entry_not_text", language=repr(language), **value_and_type(text))
            )
    if "en" not in title:
        raise ValueError(about_title("title_without_english", value=reprlib.repr(dict(title))))


def about_title(key: str, **blanks: str) -> str:
    """What MESSAGES says about a title, with an example of a title given per language."""
    return MESSAGES.say(key, example=TITLE_EXAMPLE, **blanks)


def value_and_type(value: object) -> dict[str, str]:
    """The blanks {value} and {type} of a message about a value given: short, as code."""
    return {"value": reprlib.repr(value), "type": type(value).__name__}


@dataclass
class Run:
    """One curve of plot_losses: what the legend and the caption call it, and its points."""

    label: str  # its entry in the legend: its name as text; "" when it is the only run
    name: str  # its name as code, as the caption writes it: "'a'"; "" when it is the only run
    steps: list[int]
    losses: list[float]


def as_runs(losses: Any, steps: Iterable[int] | None) -> tuple[list[Run], bool]:
    """Check the input of plot_losses: its runs, and whether they are several (with a legend)."""
    # Read once: a generator gives its steps to the first run only.
    x = None if steps is None else as_steps(steps)
    if not isinstance(losses, Mapping):
        return [Run("", "", *as_curve(losses, x, None))], False
    if not losses:
        raise ValueError(MESSAGES.say("no_runs"))
    if all(map(is_one_number, losses)) and any(map(is_one_number, losses.values())):
        # {0: 3.1, 10: 2.5}, from losses[step] = loss.item(): one run, each loss at its step.
        if x is not None:
            raise ValueError(MESSAGES.say("steps_given_twice"))
        return [Run("", "", *as_curve(list(losses.values()), as_steps(losses), None))], False
    labels = legend_labels(list(losses))
    runs = [
        Run(label, repr(name), *as_curve(values, x, name))
        for label, (name, values) in zip(labels, losses.items(), strict=True)
    ]
    return runs, True


def is_one_number(value: object) -> bool:
    """A number, or a tensor or array of no dimension: a loss, where a run would be a list."""
    return isinstance(value, numbers.Number) or getattr(value, "ndim", None) == 0


def legend_labels(names: list[object]) -> list[str]:
    """The legend's text for each run: its name as text, or as code where two names read alike
    as text ({1: ..., "1": ...} gives 1 and '1'), so that neither run hides the other."""
    texts = [str(name) for name in names]
    alike = {text for text in texts if texts.count(text) > 1}
    return [repr(name) if text in alike else text for name, text in zip(names, texts, strict=True)]


def as_steps(steps: Any) -> list[int]:
    """The steps given to plot_losses, as whole numbers that increase."""
    try:
        if isinstance(steps, (str, bytes)):
            raise TypeError
        given = list(steps)
    except TypeError:
        raise TypeError(MESSAGES.say("steps_not_a_list", **value_and_type(steps))) from None
    x: list[int] = []
    for step in given:
        x.append(as_step(step, previous=x[-1] if x else None))
    return x


def as_curve(values: Any, x: list[int] | None, name: object) -> Curve:
    """The steps and losses of one run: ``name`` in a dict of runs, or None when it is alone;
    ``x`` its steps, or None for 0, 1, 2, ..."""
    run = "" if name is None else MESSAGES.say("of_run", name=repr(name))
    try:
        if isinstance(values, (str, bytes)):
            raise TypeError
        values = list(values)
    except TypeError:
        raise TypeError(MESSAGES.say("not_a_list", run=run, **value_and_type(values))) from None
    if not values:
        raise ValueError(MESSAGES.say("no_losses", run=run))
    if x is None:
        x = list(range(len(values)))
    if len(x) != len(values):
        raise ValueError(
            MESSAGES.say("steps_and_losses_differ", losses=len(values), steps=len(x), run=run)
        )
    return x, [as_loss(value, loss_at(step, name)) for step, value in zip(x, values, strict=True)]


def loss_at(step: float, name: object) -> str:
    """The loss at ``step`` of the run ``name`` (None: the only run), to start a sentence."""
    if name is None:
        return MESSAGES.say("loss_at_step", step=step)
    return MESSAGES.say("loss_at_step_of_run", step=step, run=repr(name))


def as_step(step: Any, previous: int | None) -> int:
    # A step from a tensor of steps (torch.arange(0, 500, 10)) or a NumPy array is unwrapped.
    step = item_of(step, MESSAGES.say("the_step"))
    if isinstance(step, bool) or not isinstance(step, numbers.Integral):
        raise TypeError(MESSAGES.say("step_not_whole", **value_and_type(step)))
    if abs(step) > LARGEST_STEP:
        raise ValueError(MESSAGES.say("step_too_large", value=reprlib.repr(step)))
    if previous is not None and step <= previous:
        raise ValueError(MESSAGES.say("steps_go_back", step=step, previous=previous))
    return int(step)


def as_live_step(step: Any) -> float:
    """A step of the live plot as a Python number: any real number, or a tensor of one."""
    step = item_of(step, MESSAGES.say("the_step"))
    if isinstance(step, bool) or not isinstance(step, numbers.Real):
        raise TypeError(MESSAGES.say("live_step_not_a_number", **value_and_type(step)))
    return int(step) if isinstance(step, numbers.Integral) else float(step)


def item_of(value: Any, what: str) -> Any:
    """``value.item()`` for a tensor or array of one number; anything else as it is.

    ``what`` names the value at the start of a sentence: "The step", "The loss at step 3".
    A tensor or array of several numbers, or none, comes back as it is: the caller says what
    it expected. Any other failure of ``.item()`` is refused with its own reason.
    """
    if not hasattr(value, "item") or isinstance(value, numbers.Real):
        return value
    if getattr(value, "is_meta", False):
        raise TypeError(MESSAGES.say("meta_tensor", what=what))
    if count_of_numbers(value) not in (1, None):
        return value
    try:
        return value.item()
    except Exception as error:
        reason = {"error_type": type(error).__name__, "error": error, "type": type(value).__name__}
        raise TypeError(MESSAGES.say("item_failed", what=what, **reason)) from error


def count_of_numbers(value: Any) -> int | None:
    """How many numbers a tensor (``numel()``) or an array (``size``) holds; None if unknown."""
    try:
        count = value.numel() if callable(getattr(value, "numel", None)) else value.size
    except Exception:
        return None  # not a tensor or an array we know: its .item() will tell
    return count if isinstance(count, numbers.Integral) else None


def as_loss(value: Any, what: str) -> float:
    """One loss as a float; a one-element tensor or array is unwrapped as ``.item()`` would."""
    value = item_of(value, what)
    if hasattr(value, "item") and not isinstance(value, numbers.Real):
        key = "no_numbers" if count_of_numbers(value) == 0 else "several_numbers"
        raise TypeError(MESSAGES.say(key, what=what))
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        # A list of lists is most likely several runs, which plot_losses takes as a dict.
        several_runs = MESSAGES.say("several_runs") if isinstance(value, (list, tuple)) else ""
        raise TypeError(
            MESSAGES.say(
                "not_a_number", what=what, several_runs=several_runs, **value_and_type(value)
            )
        )
    return as_float(value)


def as_float(number: numbers.Real) -> float:
    try:
        return float(number)
    except OverflowError:
        # A whole number too large for a float (10**400): as a float it is infinite.
        return math.inf if number > 0 else -math.inf

"""How an answer is read: the same rules in every lesson, so the same answer is read the same way.

- **A value, or what ``print`` shows for it.** ``18`` and ``"18"``, ``None`` and ``"None"``,
  ``False`` and ``"False"``, ``torch.Tensor`` and ``"<class 'torch.Tensor'>"``, a gradient and
  ``"tensor([2., 0., 6.])"`` copied from the output of ``print(x.grad)``. Where one number is
  asked, a tensor of one number counts, and so does what ``print`` shows for it, whatever its
  shape and whatever follows the values: ``"tensor(18.)"``, ``"tensor([18.])"``,
  ``"tensor(18., grad_fn=<MulBackward0>)"``.
- **Case and surrounding spaces never matter** in letters, words and names: ``"B"`` is ``"b"``,
  ``"ITEM"`` is ``"item"``, ``"NONE"`` is ``"None"``. One exception, where case is the whole
  difference between two real names: ``"torch.tensor"``, the function, is not the class
  ``torch.Tensor`` (07.1 asks for the class, and says why it refuses the function).
- **True and False are not numbers, and numbers are not True or False**, although Python lets
  ``0 == False``: a yes/no question wants a bool, a numeric question a number.
- **A number may live anywhere**: a Python number, a NumPy scalar or array, a tensor that requires
  grad, on any device, sparse or dense. A tensor without values (on the ``meta`` device) has no
  number to compare.
- **A single choice is one letter**, never a list of letters or of flags.
- **What a Chinese input method types is read as the same value**: full-width letters, digits
  and brackets (``（Ｔｒｕｅ，Ｆａｌｓｅ）``, ``１８``, ``ｂ``), the ideographic comma between
  items (``w、b``) and curly quotes (``“b”``). Words are not values, in either language:
  ``"yes"`` and ``"是"`` are not ``True``, and a word for "no value" (``"nothing"``, ``"无"``,
  ``"没有"``) gets a note to write ``None`` rather than a verdict on the idea.

Each reader returns the answer in one plain form, or raises :class:`WrongKind` naming the kind of
answer the question asks for; :func:`helpers.exercises.check` then says "Not quite" with a note on
that kind. The readers never iterate an arbitrary iterable, so a generator (even an endless one)
is refused rather than consumed.
"""

from __future__ import annotations

import ast
import math
import numbers
import re
from typing import Any

import numpy as np
import torch

__all__ = [
    "WrongKind",
    "as_bool",
    "as_bools",
    "as_choice",
    "as_names",
    "as_number",
    "as_numbers",
    "as_word",
    "means_none",
    "numbers_equal",
]

# A pasted answer longer than this is not a value worth parsing (and parsing it could be slow).
_MAX_TEXT = 2000
# What print(tensor) adds after the values: tensor([1.], dtype=torch.float64, requires_grad=True)
_TENSOR_KEYWORDS = re.compile(r",\s*(dtype|device|requires_grad|grad_fn|layout|size)=.*\Z", re.S)
# 101,000 with thousands separators (never "1,5": that is two numbers, or a decimal comma)
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d*)?")
# A Chinese input method types ASCII's letters, digits and punctuation as full-width forms
# (U+FF01-U+FF5E, the same order), spaces as U+3000, lists with the ideographic comma and quotes
# as curly ones. Only these are mapped back: NFKC would also turn "10²" into "102".
_TYPED = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {
    ord("\u3000"): " ",
    ord("、"): ",",
    ord("“"): '"',
    ord("”"): '"',
    ord("‘"): "'",
    ord("’"): "'",
}
# Words a learner may write for "no value" where the answer is None: a spelling, not a value.
_NO_VALUE_WORDS = {"nothing", "null", "nil", "无", "没有", "空", "空值"}


class WrongKind(TypeError):
    """The answer is not of the kind the question asks for (a set where a number is asked, say).

    ``kind`` names the note :func:`helpers.exercises.check` shows ("number", "choice", ...), and
    ``details`` fills that note's blanks (the letters offered, for a choice).
    """

    def __init__(self, kind: str, **details: str) -> None:
        super().__init__(f"expected an answer of the kind {kind!r}")
        self.kind = kind
        self.details = details


def means_none(answer: Any) -> bool:
    """True for ``None`` and for its spelling ``"None"`` (any case), what ``print(None)`` shows.

    A word for "no value" (``"nothing"``, ``"无"``, ``"没有"``, ...) is ``WrongKind("none")``:
    the learner has the idea and is told to write it as Python prints it.
    """
    if answer is None:
        return True
    if not isinstance(answer, str):
        return False
    word = _typed(answer).strip().strip("\"'").strip().lower()
    if word in _NO_VALUE_WORDS:
        raise WrongKind("none")
    return word == "none"


def as_bool(answer: Any) -> bool:
    """A yes/no answer: ``False``, ``"false"``, ``numpy.False_`` and ``tensor(False)`` all count.

    0 and 1 do not: they are numbers (``WrongKind("bool")``).
    """
    if isinstance(answer, (bool, np.bool_)):
        return bool(answer)
    if isinstance(answer, str):
        word = _one_value(_typed(answer).strip()).lower()
        if word in ("true", "false"):
            return word == "true"
    elif isinstance(answer, (torch.Tensor, np.ndarray)):
        flags = _flags_of(answer)
        if flags is not None and len(flags) == 1:
            return flags[0]
    raise WrongKind("bool")


def as_bools(answer: Any) -> tuple[bool, ...]:
    """Several yes/no answers in order: ``(True, False)``, ``[True, False]``, ``"True, False"``."""
    if isinstance(answer, str) and len(answer) <= _MAX_TEXT:
        words = re.split(r"[\s,()\[\]]+", _unwrap_tensor_text(_typed(answer).strip()))
        answer = [word for word in words if word]
    if isinstance(answer, (list, tuple)):
        try:
            return tuple(as_bool(flag) for flag in answer)
        except WrongKind:
            raise WrongKind("bools") from None
    if isinstance(answer, (torch.Tensor, np.ndarray)):
        flags = _flags_of(answer)
        if flags is not None and answer.ndim == 1:
            return tuple(flags)
    raise WrongKind("bools")


def as_number(answer: Any) -> float:
    """A numeric answer as a float: ``33``, ``33.0``, ``"33"``, ``np.int64(33)``, ``tensor(33.)``.

    ``"101,000"`` and ``"101_000"`` count as 101000. A whole number too large for a float is
    infinite (it matches no answer). Anything else: ``WrongKind("number")``.
    """
    if isinstance(answer, str):
        return _number_from_text(answer)
    if isinstance(answer, (bool, np.bool_)):
        raise WrongKind("number")
    if isinstance(answer, numbers.Integral):
        return _whole_number(int(answer))
    if isinstance(answer, numbers.Real):
        return float(answer)
    if isinstance(answer, (torch.Tensor, np.ndarray)):
        values = _values_of(answer, "number")
        if values.numel() == 1:
            return values.item()
    raise WrongKind("number")


def as_numbers(answer: Any) -> torch.Tensor:
    """A numeric answer as a float64 CPU tensor of the answer's shape.

    ``[2, 0, 6]``, ``(2.0, 0.0, 6.0)``, a tensor (requiring grad, on any device, sparse), a NumPy
    array, ``"tensor([2., 0., 6.])"`` and ``"2 0 6"`` all give ``tensor([2., 0., 6.])``. A single
    number gives a 0-dim tensor. Booleans, sets, dicts, generators: ``WrongKind("numbers")``.
    """
    if isinstance(answer, str):
        return _numbers_from_text(answer)
    if isinstance(answer, (torch.Tensor, np.ndarray)):
        return _values_of(answer, "numbers")
    if isinstance(answer, (list, tuple)):
        parts = [as_numbers(part) for part in answer]
        if len({part.shape for part in parts}) > 1:
            raise WrongKind("numbers")  # ragged, like [1, [2, 3]]
        return torch.stack(parts) if parts else torch.zeros(0, dtype=torch.float64)
    try:
        return torch.tensor(as_number(answer), dtype=torch.float64)
    except WrongKind:
        raise WrongKind("numbers") from None


def numbers_equal(answer: Any, expected: list[float]) -> bool:
    """True when ``answer`` holds the ``expected`` numbers in the same shape (to float rounding)."""
    values = as_numbers(answer)
    target = torch.tensor(expected, dtype=torch.float64)
    return values.shape == target.shape and torch.allclose(values, target)


def as_choice(answer: Any, letters: str) -> str:
    """One of ``letters`` (say ``"abc"``) in lower case: ``"b"``, ``"B"``, ``" b "`` are one choice.

    Anything else, including several letters (``"ab"``) or a list of flags, one per option:
    ``WrongKind("choice")``, whose note lists the letters offered.
    """
    if isinstance(answer, str):
        letter = _typed(answer).strip().strip("\"'").strip().lower()
        if len(letter) == 1 and letter in letters:
            return letter
    offered = ", ".join(f'"{letter}"' for letter in letters)
    raise WrongKind("choice", letters=offered)


def as_word(answer: Any, *, keep_case: bool = False) -> str:
    """A name or word in lower case, without quotes around it: ``"ITEM"`` is ``"item"``.

    What ``print(type(t))`` shows, ``"<class 'torch.Tensor'>"``, is read as ``"torch.tensor"``,
    and so is the class ``torch.Tensor`` itself. Anything else: ``WrongKind("word")``.
    ``keep_case=True`` gives the name as written, for the rare question where case tells two
    names apart (``torch.Tensor``, a class, and ``torch.tensor``, a function).
    """
    if isinstance(answer, type):
        word = f"{answer.__module__}.{answer.__qualname__}"
    elif isinstance(answer, str):
        word = _typed(answer).strip().strip("\"'").strip()
        shown = re.fullmatch(r"<class\s+'([^']*)'>", word)
        word = (shown.group(1) if shown else word).strip()
    else:
        raise WrongKind("word")
    return word if keep_case else word.lower()


def as_names(answer: Any) -> frozenset[str]:
    """Several names in any order, in lower case: ``{"w", "b"}``, ``["b", "w"]``, ``"w, b"``.

    What ``print`` shows for a set of names, ``"{'b', 'w'}"``, counts too. Anything else,
    including names that are not strings: ``WrongKind("names")``.
    """
    if isinstance(answer, str) and len(answer) <= _MAX_TEXT:
        answer = re.split(r"[\s,{}\[\]()'\"]+", _typed(answer))
    if isinstance(answer, (set, frozenset, list, tuple)) and all(
        isinstance(name, str) for name in answer
    ):
        return frozenset(name.strip().lower() for name in answer if name.strip())
    raise WrongKind("names")


def _whole_number(number: int) -> float:
    try:
        return float(number)
    except OverflowError:
        # 10**400 is a number, just not one a float can hold: it is "infinitely" wrong, not a crash.
        return math.inf if number > 0 else -math.inf


def _number_from_text(text: str) -> float:
    body = _one_value(_typed(text).strip())
    if _THOUSANDS.fullmatch(body):
        body = body.replace(",", "")
    if len(body) > _MAX_TEXT:
        raise WrongKind("number")
    try:
        # float() reads "18", "18.", "1e3", "-0." and "101_000"; a huge number becomes inf.
        return float(body)
    except ValueError:
        raise WrongKind("number") from None


def _numbers_from_text(text: str) -> torch.Tensor:
    if len(text) > _MAX_TEXT:
        raise WrongKind("numbers")
    body = _unwrap_tensor_text(_typed(text).strip()).strip()
    try:
        # "[2., 0., 6.]" and "[[1, 2], [3, 4]]" keep their shape; literal_eval runs no code.
        value = ast.literal_eval(body)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        # "2 0 6", or "[nan, 1.]" (nan is no Python literal): numbers separated by spaces or commas.
        words = re.split(r"[\s,]+", body.strip("[]() "))
        value = [_number_from_text(word) for word in words if word]
    if isinstance(value, (str, bytes)):
        raise WrongKind("numbers")  # a string inside the string: "'2 0 6'" is not parsed twice
    return as_numbers(value)


def _typed(text: str) -> str:
    """``text`` with what a Chinese input method types mapped to ASCII (see ``_TYPED``)."""
    return text.translate(_TYPED)


def _unwrap_tensor_text(text: str) -> str:
    """What print(tensor) shows, without its frame: "tensor([2., 0.], dtype=...)" -> "[2., 0.]"."""
    if text.startswith("tensor(") and text.endswith(")"):
        return _TENSOR_KEYWORDS.sub("", text[len("tensor(") : -1])
    return text


def _one_value(text: str) -> str:
    """What print shows for a tensor of one value, as that value: "tensor([18.])" and
    "tensor(18., grad_fn=<MulBackward0>)" give "18."; other text as it is ("[18]" is a list)."""
    if not text.startswith("tensor("):
        return text.strip()
    body = _unwrap_tensor_text(text).strip()
    # A tensor of one value prints it inside as many brackets as it has dimensions.
    while body.startswith("[") and body.endswith("]"):
        body = body[1:-1].strip()
    return body


def _values_of(array: torch.Tensor | np.ndarray, kind: str) -> torch.Tensor:
    """The numbers of a tensor or array as a dense float64 CPU tensor, or WrongKind(kind)."""
    try:
        tensor = torch.as_tensor(array) if isinstance(array, np.ndarray) else array
        if tensor.is_meta:
            raise WrongKind(kind)  # a meta tensor has a shape but no values
        if tensor.layout != torch.strided:
            tensor = tensor.to_dense()  # a sparse answer counts by its values
        # A learner's tensor may live on a GPU (and MPS has no float64): compare on the CPU.
        tensor = tensor.detach().cpu()
    except WrongKind:
        raise
    except Exception:
        # Object arrays, nested tensors, devices we cannot copy from: no numbers to compare.
        raise WrongKind(kind) from None
    if tensor.dtype == torch.bool or tensor.is_complex():
        raise WrongKind(kind)
    return tensor.to(torch.float64)


def _flags_of(array: torch.Tensor | np.ndarray) -> list[bool] | None:
    """The values of a boolean tensor or array, flattened; None when it holds no booleans."""
    try:
        tensor = torch.as_tensor(array) if isinstance(array, np.ndarray) else array
        if tensor.is_meta or tensor.dtype != torch.bool:
            return None
        if tensor.layout != torch.strided:
            tensor = tensor.to_dense()
        return [bool(flag) for flag in tensor.detach().cpu().flatten().tolist()]
    except Exception:
        return None

"""How an answer is read: the same rules in every lesson, so the same answer is read the same way.

This is the list of what the check cells accept, for whoever writes or teaches an exercise. Each
reader returns the answer in one plain form, or raises :class:`WrongKind` naming the kind of
answer the question asks for; :func:`helpers.exercises.check` then says "Not quite" with a note
on that kind. No rule here makes a wrong idea right: it only reads the same value written
another way.

**Any answer**

- **A value, or what ``print`` shows for it.** ``18`` and ``"18"``, ``None`` and ``"None"``,
  ``False`` and ``"False"``, ``torch.Tensor`` and ``"<class 'torch.Tensor'>"``, a gradient and
  ``"tensor([2., 0., 6.])"`` copied from the output of ``print(x.grad)``.
- **Case and surrounding spaces never matter** in letters, words and names: ``"B"`` is ``"b"``,
  ``"ITEM"`` is ``"item"``, ``"NONE"`` is ``"None"``. One exception, where case is the whole
  difference between two real names: written all in small letters, ``"tensor"`` and
  ``"torch.tensor"`` name PyTorch's *function* that makes a tensor, not the *class*
  ``torch.Tensor``. So 07.1, which asks for a class, refuses exactly those two spellings (and
  the function itself) with a note on case, and takes every other spelling of the class:
  ``"Tensor"``, ``"torch.Tensor"``, ``"TENSOR"``.
- **Quotes around an answer, and the punctuation that ends a sentence, are not part of it.**
  ``"18。"``, ``"None."``, ``"b。"``, ``"[2, 0, 6]。"``, ``"False."`` and ``"loss.item()！"``
  end with 。．.！!，,；; that is dropped; ``"“False”"``, ``"'False'"``, ``"「False」"`` and
  ``"`item`"`` are the word inside. (``"18."`` is the number 18 either way.)
- **What a Chinese input method types is read as the same value**: full-width letters, digits
  and brackets (``（Ｔｒｕｅ，Ｆａｌｓｅ）``, ``１８``, ``ｂ``), the ideographic comma ``、``,
  the brackets 【】 and 〔〕 as ``[ ]``, and the quotes “” ‘’ 「」 『』 as ASCII quotes.
- **Words are not values, in either language**: ``"yes"`` and ``"是"`` are not ``True``, and
  a word for "no value" (``"nothing"``, ``"无"``, ``"没有"``) gets a note to write ``None``
  rather than a verdict on the idea.

**One number** (:func:`as_number`)

- A Python number, a NumPy scalar or array, a tensor that requires grad, on any device, sparse
  or dense, of one number and any shape. True and False are not numbers (although Python lets
  ``0 == False``), and a tensor without values (on the ``meta`` device) has no number.
- As text: ``"18"``, ``"18."``, ``"1e3"``, ``"101,000"``, ``"101_000"``, and what ``print``
  shows for one number: ``"tensor(18.)"``, ``"tensor([18.])"``,
  ``"tensor(18., grad_fn=<MulBackward0>)"``, ``"array(18.)"``, ``"np.float64(18.0)"``.
- In Chinese numerals: ``十八``, ``两``, ``〇``, ``零``, ``三十三``, ``一百零一``, ``一〇一``
  (digit by digit), ``两万五`` (25000, as it is said), and ``万`` and ``亿`` after either kind of
  digits: ``10.1万``, ``十万一千`` (both 101000); ``负`` or ``-`` in front for a negative number.
- A unit word after the number: ``个``, ``步``, ``次``, ``项``, ``份`` (``"101000个"``,
  ``"10.1万个"``).
- Not one number: ``"2 和 3"``, ``"[18]"``, ``"101,0"``.

**Several numbers** (:func:`as_numbers`)

- A list or tuple (nested for a matrix), a tensor or a NumPy array.
- As text: ``"[2, 0, 6]"``, ``"2 0 6"``, ``"2、0、6"``, ``"2，0 和 6"``, ``"【2，0，6】"``, what
  ``print`` shows (``"tensor([2., 0., 6.])"``, ``"[2. 0. 6.]"`` for an array) and how one is
  made: ``"array([2., 0., 6.])"``, ``"np.array([2, 0, 6])"``, ``"numpy.array(...)"``,
  ``"torch.tensor([2., 0., 6.])"``.

**Several names** (:func:`as_names`), in any order: ``{"w", "b"}``, ``["b", "w"]``,
``"{'b', 'w'}"``, and names written with the separators a learner puts between them:
``"w, b"``, ``"w、b"``, ``"w；b"``, ``"w b"``, ``"w和b"``, ``"w 与 b"``, ``"w 及 b"``,
``"w and b"``. The same separators read several numbers and several True/False values, never
one number; "or" (``或``) separates nothing, since an answer that hesitates is no list.

**True or False** (:func:`as_bool`): ``False``, ``"false"``, ``"“False”"``, ``numpy.False_``,
``tensor(False)``, ``"tensor(False)"``; never 0 or 1. **Several** (:func:`as_bools`), in order:
``(True, False)``, ``[True, False]``, ``"(True, False)"``, ``"True, False"``,
``"（True，False）"``, ``"True 和 False"``; not in braces, since a set has no order.

**One choice** (:func:`as_choice`) is one letter: ``"b"``, ``"B"``, ``"(b)"``, ``"“b”"``,
``"b。"``; never a list of letters or of flags.

**A name** (:func:`as_word`): ``"item"``, ``"Tensor"``, a class itself, what ``print(type(t))``
shows. A method may be written called on anything (07.2): ``"item"``, ``"item()"``,
``"loss.item()"``, ``"x.item()"``, ``"loss.data.item()"``, ``"torch.Tensor.item"``.

**None** (:func:`means_none`): ``None``, ``"None"``, ``"none"``, ``"None。"``.

**An exercise id** (:func:`as_exercise_id`) is read like an answer: ``"01.1"``, ``" 01.1 "``,
``"1.1"``, ``"01-1"``, ``"1．1"``, ``"０１.１"`` and the number ``1.1`` are all exercise
``"01.1"``.

The readers never iterate an arbitrary iterable, so a generator (even an endless one) is
refused rather than consumed; a text longer than ``_MAX_TEXT`` is read as nothing, so a pasted
page costs no time.
"""

from __future__ import annotations

import ast
import math
import numbers
import re
import string
from decimal import Decimal
from typing import Any

import numpy as np
import torch

__all__ = [
    "WrongKind",
    "as_bool",
    "as_bools",
    "as_choice",
    "as_exercise_id",
    "as_names",
    "as_number",
    "as_numbers",
    "as_word",
    "means_none",
    "numbers_equal",
]

# A pasted answer longer than this is not a value worth parsing (and parsing it could be slow).
_MAX_TEXT = 2000
# A Chinese input method types ASCII's letters, digits and punctuation as full-width forms
# (U+FF01-U+FF5E, the same order), spaces as U+3000, lists with the ideographic comma, and its
# own brackets and quotes. Only these are mapped back: NFKC would also turn "10²" into "102".
_TYPED = {code: code - 0xFEE0 for code in range(0xFF01, 0xFF5F)} | {
    ord("\u3000"): " ",
    ord("、"): ",",
    **dict.fromkeys(map(ord, "【〔"), "["),
    **dict.fromkeys(map(ord, "】〕"), "]"),
    **dict.fromkeys(map(ord, "“”「」『』"), '"'),
    **dict.fromkeys(map(ord, "‘’"), "'"),
}
# Around an answer: quotes (and markdown's backticks) on both sides, and at its end the
# punctuation that ends a sentence (full-width ．！，； are already ASCII once typed is mapped).
_QUOTES = "\"'`"
_SENTENCE_END = ".!,;。"
# What print(tensor) adds after the values: tensor([1.], dtype=torch.float64, requires_grad=True)
_TENSOR_KEYWORDS = re.compile(r",\s*(dtype|device|requires_grad|grad_fn|layout|size)=.*\Z", re.S)
# The frame around values that print shows, or that makes them: tensor(...), torch.tensor(...),
# array(...), np.array(...), numpy.asarray(...), np.float64(...).
_FRAMED = re.compile(
    r"(?:(?:torch\.)?(?:as_)?tensor"
    r"|(?:(?:np|numpy)\.)?(?:as)?array"
    r"|(?:np|numpy)\.u?(?:int|float)\d*)"
    r"\((?P<values>.*)\)",
    re.I | re.S,
)
# print(array) shows its numbers with spaces between, "[0. 1. 2.]" or "[[1. 2.]\n [3. 4.]]".
_ARRAY_GAP = re.compile(r"(?<=[\d.\]])\s+(?=[-+\d.\[])")
# 101,000 with thousands separators (never "1,5": that is two numbers, or a decimal comma)
_THOUSANDS = re.compile(r"[+-]?\d{1,3}(,\d{3})+(\.\d*)?")
# What a learner writes between the items of a list: commas (、 and ， once typed is mapped),
# semicolons, spaces, and the words for "and".
_LIST_GAP = re.compile(r"[\s,;]+|\s*(?:和|与|以及|及|\band\b)\s*", re.I)
# A unit word after a count: 101000个, 3次, 10.1万个.
_UNIT_WORD = re.compile(r"\s*[个步次项份]\Z")
# Chinese numerals: digits, units inside a group of four digits, and the groups 万 and 亿.
_CHINESE_DIGITS = dict(
    zip("〇零一二两三四五六七八九", (0, 0, 1, 2, 2, 3, 4, 5, 6, 7, 8, 9), strict=True)
)
_CHINESE_UNITS = {"十": 10, "百": 100, "千": 1000}
_CHINESE_GROUPS = {"万": 10**4, "亿": 10**8}
_CHINESE_NUMERALS = {*_CHINESE_DIGITS, *_CHINESE_UNITS, *_CHINESE_GROUPS}
_CHINESE_TOKEN = re.compile(r"\d+(?:\.\d+)?|\S")
# An exercise id: 01.1, 1.1, 01-1, 第1.1题.
_EXERCISE_ID = re.compile(r"第?\s*(\d{1,3})\s*[.\-_,:/]\s*(\d{1,3})\s*题?")
# Words a learner may write for "no value" where the answer is None: a spelling, not a value.
_NO_VALUE_WORDS = {"nothing", "null", "nil", "无", "没有", "空", "空值"}


class WrongKind(TypeError):
    """The answer is not of the kind the question asks for (a set where a number is asked, say).

    ``kind`` names the note :func:`helpers.exercises.check` shows ("number", "choice", ...), and
    ``details`` fills that note's blanks (the letters offered, for a choice).
    """

    def __init__(self, kind: str, **details: str) -> None:
        super().__init__(kind)
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
    word = _plain(answer).lower()
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
        word = _one_value(_plain(answer)).lower()
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
        # Not braces: a set has no order, and these flags do.
        answer = _items(_unframed(_plain(answer)), brackets="()[]")
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

    ``"101,000"``, ``"101_000"``, ``"十万一千"`` and ``"10.1万个"`` count as 101000. A whole
    number too large for a float is infinite (it matches no answer). Anything else:
    ``WrongKind("number")``.
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
    array, ``"tensor([2., 0., 6.])"``, ``"[2. 0. 6.]"`` and ``"2、0、6"`` all give
    ``tensor([2., 0., 6.])``. A single number gives a 0-dim tensor. Booleans, sets, dicts,
    generators, words: ``WrongKind("numbers")``.
    """
    try:
        return _numbers(answer)
    except WrongKind:
        # Whichever part failed to read (a word among the numbers, say), the question asks for
        # numbers, and the note must say so, not that one number is expected.
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
        letter = _plain(answer).lower()
        if len(letter) == 3 and letter[0] + letter[2] == "()":
            letter = letter[1]  # "(b)", as options are often labelled
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
        word = _plain(answer)
        shown = re.fullmatch(r"<class\s+'([^']*)'>", word)
        word = (shown.group(1) if shown else word).strip()
    else:
        raise WrongKind("word")
    return word if keep_case else word.lower()


def as_names(answer: Any) -> frozenset[str]:
    """Several names in any order, in lower case: ``{"w", "b"}``, ``["b", "w"]``, ``"w、b"``.

    What ``print`` shows for a set of names, ``"{'b', 'w'}"``, counts too, and so do names
    written with "and" between them (``"w和b"``, ``"w and b"``). Anything else, including names
    that are not strings: ``WrongKind("names")``.
    """
    if isinstance(answer, str) and len(answer) <= _MAX_TEXT:
        answer = _items(_plain(answer))
    if isinstance(answer, (set, frozenset, list, tuple)) and all(
        isinstance(name, str) for name in answer
    ):
        return frozenset(name.strip().lower() for name in answer if name.strip())
    raise WrongKind("names")


def as_exercise_id(written: Any) -> str | None:
    """The exercise id ``written`` means, as the exercises are registered (``"01.1"``), or None.

    ``"1.1"``, ``"01-1"``, ``"1．1"``, ``"０１.１"``, ``" 01.1 "`` and the number ``1.1`` all
    mean ``"01.1"``: two numbers, the lesson's and the question's.
    """
    if isinstance(written, bool) or not isinstance(written, (str, numbers.Real)):
        return None
    try:
        text = str(written)
    except ValueError:  # an int of thousands of digits, which Python refuses to write out
        return None
    numbered = _EXERCISE_ID.fullmatch(_plain(text))
    if numbered is None:
        return None
    lesson, question = (int(number) for number in numbered.groups())
    return f"{lesson:02d}.{question}"


def _plain(text: str) -> str:
    """``text`` as the learner means it: typed forms mapped to ASCII, without the quotes around
    it or the punctuation that ends a sentence. A text too long to be an answer reads as ""."""
    if len(text) > _MAX_TEXT:
        return ""
    around = _QUOTES + string.whitespace
    return _typed(text).strip(around).rstrip(_SENTENCE_END + around)


def _typed(text: str) -> str:
    """``text`` with what a Chinese input method types mapped to ASCII (see ``_TYPED``)."""
    return text.translate(_TYPED)


def _items(text: str, brackets: str = "()[]{}") -> list[str]:
    """The items of a list written as text, without brackets, quotes and what separates them."""
    bare = text.translate(dict.fromkeys(map(ord, brackets + _QUOTES), " "))
    return [item for item in _LIST_GAP.split(bare) if item]


def _unframed(text: str) -> str:
    """The values inside the frame print shows: "tensor([2., 0.], dtype=...)" -> "[2., 0.]"."""
    framed = _FRAMED.fullmatch(text)
    return _TENSOR_KEYWORDS.sub("", framed["values"]) if framed else text


def _one_value(text: str) -> str:
    """What print shows for a tensor of one value, as that value: "tensor([18.])" and
    "tensor(18., grad_fn=<MulBackward0>)" give "18."; other text as it is ("[18]" is a list)."""
    if not _FRAMED.fullmatch(text):
        return text.strip()
    body = _unframed(text).strip()
    # A tensor of one value prints it inside as many brackets as it has dimensions.
    while body.startswith("[") and body.endswith("]"):
        body = body[1:-1].strip()
    return body


def _whole_number(number: int) -> float:
    try:
        return float(number)
    except OverflowError:
        # 10**400 is a number, just not one a float can hold: it is "infinitely" wrong, not a crash.
        return math.inf if number > 0 else -math.inf


def _number_from_text(text: str) -> float:
    body = _UNIT_WORD.sub("", _one_value(_plain(text)))
    if _THOUSANDS.fullmatch(body):
        body = body.replace(",", "")
    try:
        # float() reads "18", "18.", "1e3", "-0." and "101_000"; a huge number becomes inf.
        return float(body)
    except ValueError:
        pass
    number = _chinese_number(body)
    if number is None:
        raise WrongKind("number")
    return number


def _chinese_number(text: str) -> float | None:
    """The number written with Chinese numerals (十八, 一百零一, 10.1万, 一〇一), or None."""
    sign = -1 if text[:1] in ("-", "负") else 1
    tokens = _CHINESE_TOKEN.findall(text[1:] if sign < 0 else text)
    chinese = [token for token in tokens if not token[0].isdecimal()]
    if not chinese or not _CHINESE_NUMERALS.issuperset(chinese):
        return None
    if len(tokens) > 1 and all(token in _CHINESE_DIGITS and token != "两" for token in tokens):
        # 一〇一 or 二〇二六: the digits one by one, as years are written.
        return sign * float("".join(str(_CHINESE_DIGITS[token]) for token in tokens))
    value = _grouped_number(tokens)
    return None if value is None else sign * float(value)


def _grouped_number(tokens: list[str]) -> Decimal | None:
    """The value of 十八, 三十三, 一百零一, 十万一千, 两万五, 10.1万: digits, each with its unit,
    in groups of four digits closed by 万 or 亿. None for what is no number (三三十, 百百)."""
    total = group = Decimal(0)
    digit: Decimal | None = None  # the digit read, waiting for its unit
    said_digit = False  # a Chinese digit, for the spoken "两万五" (25000) and "一百一" (110)
    place = 0  # the unit or group just read, unless a 零 came after it
    last_unit, last_group = 10**4, 10**12
    for index, token in enumerate(tokens):
        if token in _CHINESE_UNITS:
            unit = _CHINESE_UNITS[token]
            if unit >= last_unit:
                return None
            group += (Decimal(1) if digit is None else digit) * unit  # 十八: one ten
            digit, last_unit, place = None, unit, unit
        elif token in _CHINESE_GROUPS:
            size = _CHINESE_GROUPS[token]
            amount = group + (digit or 0)
            if size >= last_group or amount == 0:
                return None
            total += amount * size
            group, digit, last_unit, last_group, place = Decimal(0), None, 10**4, size, size
        elif token in ("〇", "零") and index > 0:
            if digit is not None:
                return None
            place = 0  # 一百零一: 零 holds the empty place, so the 一 after it is one
        else:
            if digit is not None:
                return None  # two digits with no unit between them
            digit = Decimal(_CHINESE_DIGITS.get(token, token))
            said_digit = token in _CHINESE_DIGITS
    if digit is not None:
        # A last digit right after 百, 千, 万 or 亿 counts in the place below it, as it is said.
        group += digit * (place // 10 if said_digit and place >= 100 else 1)
    return total + group


def _numbers(answer: Any) -> torch.Tensor:
    if isinstance(answer, str):
        return _numbers_from_text(answer)
    if isinstance(answer, (torch.Tensor, np.ndarray)):
        return _values_of(answer, "numbers")
    if isinstance(answer, (list, tuple)):
        parts = [_numbers(part) for part in answer]
        if len({part.shape for part in parts}) > 1:
            raise WrongKind("numbers")  # ragged, like [1, [2, 3]]
        return torch.stack(parts) if parts else torch.zeros(0, dtype=torch.float64)
    return torch.tensor(as_number(answer), dtype=torch.float64)


def _numbers_from_text(text: str) -> torch.Tensor:
    if len(text) > _MAX_TEXT:
        raise WrongKind("numbers")
    body = _ARRAY_GAP.sub(", ", _unframed(_plain(text)).strip())
    try:
        # "[2., 0., 6.]" and "[[1, 2], [3, 4]]" keep their shape; literal_eval runs no code.
        value = ast.literal_eval(body)
    except (ValueError, SyntaxError, TypeError, MemoryError, RecursionError):
        # "2和0和6", "[nan, 1.]" (nan is no Python literal), "[2, 0, 六]": one number per item.
        value = [_number_from_text(item) for item in _LIST_GAP.split(body.strip("[]() ")) if item]
    if isinstance(value, (str, bytes)):
        raise WrongKind("numbers")  # a string inside the string: "'2 0 6'" is not parsed twice
    return _numbers(value)


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

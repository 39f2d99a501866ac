"""How an answer is read: the same rules in every lesson, so the same answer is read the same way.

This is the list of what the check cells accept, for whoever writes or teaches an exercise. Each
reader returns the answer in one plain form, or raises :class:`WrongKind` naming the kind of
answer the question asks for; :func:`helpers.exercises.check` then says it cannot read the
answer and how an answer to the question is written, and judges nothing: "Not quite" is said
only of an answer read as a wrong value. No rule here makes a wrong idea right: it only reads
the same value written another way. The rules are the same for every exercise; what differs is
declared in the exercise's data (the options that are code, the names a question is about, the
ordinals it uses), never a case in the rules.

**Any answer**

- **A value, or what ``print`` shows for it.** ``18`` and ``"18"``, ``None`` and ``"None"``,
  ``False`` and ``"False"``, ``torch.Tensor`` and ``"<class 'torch.Tensor'>"``, a gradient and
  ``"tensor([2., 0., 6.])"`` copied from the output of ``print(x.grad)``.
- **Case and surrounding spaces never matter** in letters, words and names: ``"B"`` is ``"b"``,
  ``"ITEM"`` is ``"item"``, ``"NONE"`` is ``"None"``. One exception, where case is the whole
  difference between two real names: written all in small letters, ``"tensor"`` and
  ``"torch.tensor"`` name PyTorch's *function* that makes a tensor, not the *class*
  ``torch.Tensor``. So 07.3, which asks for a class, refuses exactly those two spellings (and
  the function itself) with a note on case, and takes every other spelling of the class:
  ``"Tensor"``, ``"torch.Tensor"``, ``"TENSOR"``.
- **Quotes around an answer, and the punctuation that ends a sentence, are not part of it.**
  ``"18。"``, ``"None."``, ``"b。"``, ``"[2, 0, 6]。"``, ``"False."`` and ``"loss.item()！"``
  end with 。．.！!，,；; that is dropped; ``"“False”"``, ``"'False'"``, ``"「False」"`` and
  ``"`item`"`` are the word inside. (``"18."`` is the number 18 either way.)
- **What a Chinese input method types is read as the same value**: full-width letters, digits
  and brackets (``（Ｔｒｕｅ，Ｆａｌｓｅ）``, ``１８``, ``ｂ``), the ideographic comma ``、``,
  the brackets 【】 and 〔〕 as ``[ ]``, and the quotes “” ‘’ 「」 『』 as ASCII quotes.
- **A phrase before the answer is not part of it**, in either language, with or without spaces
  and a colon: ``"答案是 b"``, ``"答案：b"``, ``"答：b"``, ``"选b"``, ``"选项 b"``,
  ``"the answer is b"``, ``"option b"``. ``是`` alone leads into a value written as Python
  writes it (``"是13"``, ``"是 None"``); before another word it is a word (``"是，是"``).
- **Yes and no are True and False only where True or False is asked** (below); elsewhere
  ``"是"`` is no answer, and a word for "no value" (``"nothing"``, ``"无"``, ``"没有"``) gets a
  note to write ``None``.

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
  ``"10.1万个"``), and a word of quantity before or after it: ``共``, ``一共``, ``总共``,
  ``约``, ``大约``, ``左右``, ``about``, ``total``, ``in total`` (``"共13个"``, ``"约13"``,
  ``"about 13"``).
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
``tensor(False)``, ``"tensor(False)"``, and the words a learner answers with: ``是``/``否``,
``对``/``错``, ``真``/``假``, ``不``, ``yes``/``no``, and ``1``/``0`` (as text or as an int;
0.5 or 1.0 is no answer). **Several** (:func:`as_bools`), one per value asked, in order:
``(True, False)``, ``[True, False]``, ``"(True, False)"``, ``"True, False"``,
``"（True，False）"``, ``"True 和 False"``, ``"是，否"``, ``"(1,0)"``, and where every value
is the same, ``"都是 True"``, ``"都对"``, ``"both false"``; not in braces, since a set has no
order, and never another number of values than the question asks for.

**One choice** (:func:`as_choice`) is one letter: ``"b"``, ``"B"``, ``"ｂ"``, ``"(b)"``,
``"b)"``, ``"“b”"``, ``"b。"``, ``"选 b"``; never a list of letters or of flags. Where an
exercise declares the text of its options that are code, that text is the option's letter,
however spaced: ``"x.t().mm(grad_h)"`` for 10.7's "a".

**One name** (:func:`as_name`), where an exercise declares the names it is about
(:class:`Names`): the name in any case, with words around it that say what kind of thing it
names (``"h 的梯度"``, ``"张量 h"``, ``"head层"``, ``"head 模块"``, ``"the gradient of h"``,
``"h.grad"``, ``"grad_h"``), with the path of its holder in front (``"model.head"``,
``"blocks.0.attention.key.bias"``), with its parts joined by ``。``, ``．``, a space, an
underscore or ``的`` (``"key。bias"``, ``"key bias"``, ``"key_bias"``, ``"key的偏置"``),
an index in brackets or in the singular (``"blocks[0]"``, ``"block 0"``) and, where the
question counts modules, an ordinal (``"第一个块"``, ``"第 1 个块"``, ``"the first block"``,
``"最后一个块"``). Text that is not one name (``"h, w1"``, a sentence) is no answer.

**A word** (:func:`as_word`): ``"item"``, ``"Tensor"``, a class itself, what ``print(type(t))``
shows. A method may be written called on anything (07.4): ``"item"``, ``"item()"``,
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
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import torch

from helpers.exercises.numerals import chinese_number

__all__ = [
    "Names",
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
# An exercise id: 01.1, 1.1, 01-1, 第1.1题.
_EXERCISE_ID = re.compile(r"第?\s*(\d{1,3})\s*[.\-_,:/]\s*(\d{1,3})\s*题?")
# Words a learner may write for "no value" where the answer is None: a spelling, not a value.
_NO_VALUE_WORDS = {"nothing", "null", "nil", "无", "没有", "空", "空值"}
# What a learner writes before the answer itself: 答案是 b, 答案：b, 选 b, 选项 b, the answer
# is b, option b. 是 alone leads only into a value written as Python writes it (是 13, 是h): in a
# True/False question "是，是" is two answers, not a lead word and one answer.
_ANSWER_PHRASE = re.compile(
    r"\A(?:(?:我的)?答案\s*(?:应该是|应是|是|为)?|答|我选|应选|选项|选择|选"
    r"|(?:(?:my|the)\s+)?answer(?:\s+is)?(?![a-z])|i\s+choose(?![a-z])|option(?![a-z])"
    r"|choice(?![a-z]))\s*[:=]?\s*"
    r"|\A是\s*(?=[a-z0-9_(\[\"'`〇零一二两三四五六七八九十])",
    re.I,
)
# Words around a count: 共13个, 一共十三个, 约13, 大约 13, about 13, total: 13, 13 in total.
_QUANTITY_BEFORE = re.compile(
    r"\A(?:一共|总共|共计|共有|共|大约|大概|约为|约"
    r"|(?:about|around|approximately|roughly|in\s+total|total)(?![a-z]))\s*[:=]?\s*",
    re.I,
)
_QUANTITY_AFTER = re.compile(r"\s*(?:左右|in\s+total|in\s+all|total)\Z", re.I)
# The words for True and False where a question asks for them (and only there: 是 is no number),
# with the digits 1 and 0 that some learners write for them.
# A question such as "would it pass?" / "会通过吗？" is answered with its own verb too.
_YES_WORDS = {"true", "1", "yes", "是", "是的", "对", "对的", "真", "正确", "会", "能", "通过"}
_YES_WORDS |= {"pass", "passes"}
_NO_WORDS = {"false", "0", "no", "否", "不", "不是", "错", "错的", "不对", "假", "错误"}
_NO_WORDS |= {"不会", "不能", "不通过", "没通过", "fail", "fails"}
# How Python writes a flag, as against the words for one.
_PYTHON_FLAGS = {"true", "false", "1", "0"}
# One value for every value asked: 都是 True, 都对, 两个都是否, both False, all true.
_ALL_OF = re.compile(
    r"\A(?:两个|两者|二者)?(?:都是|全是|全都是|都)\s*(?P<zh>.+)\Z"
    r"|\A(?:both|all)(?:\s+are)?\s+(?P<en>.+)\Z",
    re.I,
)
# A choice written as its options are labelled: (b), [b], b).
_LABEL = re.compile(r"\A[(\[]?\s*(?P<letter>\w)\s*[)\]]?\Z")
# Words around a name that say what kind of thing it names, and so name nothing else: h 的梯度,
# 张量 h, head 层, head 模块, the gradient of h, h's gradient, h.grad, the head layer. ASCII word
# boundaries, so that an English word right beside Chinese ("h的gradient") is still a word.
_KIND_WORDS = re.compile(
    r"的?梯度|张量|变量|模块|层|参数|方框"
    r"|\b(?:the|gradient|grad|of|tensor|variable|module|layer|parameter|box)\b|'s\b",
    re.I | re.ASCII,
)
# grad_h holds the gradient of h: the name of the variable of a gradient names the same tensor.
_GRADIENT_VARIABLE = re.compile(r"\bgrad_(?=[a-z])", re.ASCII)
# The kind of module a box of the folded picture names after its path: "head · Linear".
_BOX_KIND = re.compile(r"\s*·\s*\w+\s*\Z")
# The words for a module's parameters, and 的 between a module and its part: "key 的偏置",
# "key bias" and "the bias of key" are key.bias.
_PART_WORDS = {"偏置": " bias ", "权重": " weight ", "的": " "}
_PART_OF = re.compile(r"\b(bias|weight)\s+of\s+(?:the\s+)?([\w.\[\]]+)", re.I | re.ASCII)
# A name once its words are read: parts joined by dots or spaces, the first starting with a letter.
_NAME = re.compile(r"[a-z_]\w*(?:\s*[.\s]\s*\w+)*", re.ASCII)
_ORDINAL_WORDS = {
    word: place
    for place, word in enumerate(
        "first second third fourth fifth sixth seventh eighth ninth tenth eleventh twelfth".split(),
        start=1,
    )
}


class WrongKind(TypeError):
    """The answer is not of the kind the question asks for (a set where a number is asked, say).

    ``kind`` names the note :func:`helpers.exercises.check` shows ("number", "choice", ...), and
    ``details`` fills that note's blanks (the letters offered, for a choice).
    """

    def __init__(self, kind: str, **details: str) -> None:
        super().__init__(kind)
        self.kind = kind
        self.details = details


class WrongValue(ValueError):
    """The answer was read, as a wrong value that deserves a note of its own besides the hint
    (07.3: ``"torch.tensor"`` read as the function, not the class). ``kind`` names the note."""

    def __init__(self, kind: str) -> None:
        super().__init__(kind)
        self.kind = kind


@dataclass(frozen=True)
class Names:
    """What a question that asks for one name is about, declared with the exercise for
    :func:`as_name`.

    ``names`` are the names the question is about, as the learner's tools write them (compare's
    table, the folded picture, ``named_parameters()``); ``example`` is a name written the way an
    answer is, for the note on an answer that cannot be read (never the right one). ``within``
    is the path of what holds the names, which an answer may write in front (``"model"``;
    ``*`` stands for any index). ``counted`` is a numbered sequence the question counts, with
    the nouns it counts it by and its length: ``("blocks", ("块", "block"), 12)`` reads
    "第一个块" and "the first block" as ``blocks.0``, "最后一个块" as ``blocks.11``.
    """

    names: tuple[str, ...]
    example: str
    within: str = ""
    counted: tuple[str, tuple[str, ...], int] | None = None

    def all_names(self) -> tuple[str, ...]:
        """The names declared, with every member of the counted sequence."""
        if self.counted is None:
            return self.names
        path, _, length = self.counted
        return self.names + tuple(f"{path}.{index}" for index in range(length))


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
    """A True/False answer: ``False``, ``"false"``, ``numpy.False_``, ``tensor(False)``, and where
    the question asks for True or False, its words: ``"否"``, ``"不"``, ``"错"``, ``"no"``,
    and the digit 0 (1 for True).

    Anything else is ``WrongKind("bool")``: 0.5, ``[False]``, ``"maybe"``.
    """
    if isinstance(answer, (bool, np.bool_)):
        return bool(answer)
    if isinstance(answer, numbers.Integral) and answer in (0, 1):
        return bool(answer == 1)  # np.int64(1) == 1 is numpy's True, not Python's
    if isinstance(answer, str):
        word = _one_value(_plain(answer)).lower()
        if word in _YES_WORDS or word in _NO_WORDS:
            return word in _YES_WORDS
    elif isinstance(answer, (torch.Tensor, np.ndarray)):
        flags = _flags_of(answer)
        if flags is not None and len(flags) == 1:
            return flags[0]
    raise WrongKind("bool")


def as_bools(answer: Any, count: int | None = None) -> tuple[bool, ...]:
    """Several True/False answers in order: ``(True, False)``, ``"True, False"``, ``"是，否"``,
    ``"(1, 0)"``; with ``count``, the number of values asked, also ``"都是 True"`` (each of
    them), and any other number of values is ``WrongKind("bools")``."""
    flags = _bools(answer, count)
    if count is not None and len(flags) != count:
        raise WrongKind("bools")
    return flags


def _bools(answer: Any, count: int | None) -> tuple[bool, ...]:
    if isinstance(answer, str) and len(answer) <= _MAX_TEXT:
        text = _unframed(_plain(answer))
        each = _ALL_OF.fullmatch(text)
        if each and count is not None:
            try:
                return (as_bool(each["zh"] or each["en"]),) * count
            except WrongKind:
                pass
        # Not braces: a set has no order, and these flags do.
        answer = _items(text, brackets="()[]")
        if len({item.lower() in _PYTHON_FLAGS for item in answer}) > 1:
            # "不是 True" is one answer, not False and True: words and Python's values mixed
            # are no list of flags.
            raise WrongKind("bools")
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


def as_choice(answer: Any, letters: str, options: Mapping[str, str] | None = None) -> str:
    """One of ``letters`` (say ``"abc"``) in lower case: ``"b"``, ``"B"``, ``"(b)"``, ``"选 b"``,
    ``"option b"`` are one choice. ``options`` gives the text of the options that are code
    (``{"a": "x.t().mm(grad_h)"}``): that text, however spaced, is its letter.

    Anything else, including several letters (``"ab"``) or a list of flags, one per option:
    ``WrongKind("choice")``, whose note lists the letters offered.
    """
    if isinstance(answer, str):
        text = _plain(answer).lower()
        label = _LABEL.fullmatch(text)
        if label and label["letter"] in letters:
            return label["letter"]
        for letter, option in (options or {}).items():
            if _without_spaces(text) == _without_spaces(option.lower()):
                return letter
    offered = ", ".join(f'"{letter}"' for letter in letters)
    raise WrongKind("choice", letters=offered)


def _without_spaces(text: str) -> str:
    return "".join(text.split())


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


def as_name(answer: Any, names: Names) -> str:
    """The one name an answer gives, in lower case with dots between its parts, as one of
    ``names.names`` where it names one of them however written: ``"h 的梯度"``, ``"张量 h"``,
    ``"grad_h"`` and ``"the gradient of h"`` are ``"h"``; ``"key的偏置"``, ``"key bias"``,
    ``"key_bias"`` and ``"key。bias"`` are ``"key.bias"``; ``"block 0"``, ``"blocks[0]"`` and,
    where the question counts the blocks, ``"第一个块"`` are ``"blocks.0"``.

    Text that is no single name (``"h, w1"``, ``"第一"``) and what is no text:
    ``WrongKind("name")``, whose note shows ``names.example``.
    """
    if isinstance(answer, str):
        text = _name_words(answer)
        counted = _counted(text, names.counted)
        if counted is not None:
            return counted
        for chinese, english in _PART_WORDS.items():
            text = text.replace(chinese, english)
        text = re.sub(r"\[\s*(\d+)\s*\]", r".\1", text).strip(" .")
        if _NAME.fullmatch(text):
            parts = _without_holder(re.split(r"[\s.]+", text), names.within)
            declared = _declared(parts, names.all_names())
            if declared is not None:
                return declared
            # A name the question is not about is read, and wrong; words with spaces between
            # them that spell no name it is about ("first block" where nothing is counted, "h
            # w1") are no name.
            if not re.search(r"\w\s+\w", text):
                return ".".join(parts)
    raise WrongKind("name", example=names.example)


def _name_words(answer: str) -> str:
    """The words of a name answer without those that say what kind of thing it names, without
    the box's kind after "·" ("head · Linear") and without brackets around it ("（h）")."""
    text = _BOX_KIND.sub("", _plain(answer).lower().replace("。", "."))
    if text[:1] + text[-1:] in ("()", "[]"):
        text = text[1:-1]
    text = _PART_OF.sub(r"\2.\1", text)
    return _GRADIENT_VARIABLE.sub("", _KIND_WORDS.sub(" ", text)).strip()


def _counted(text: str, counted: tuple[str, tuple[str, ...], int] | None) -> str | None:
    """The member of the counted sequence an ordinal names: 第一个块, 第 1 个块, first block,
    最后一个块, the last block. None for any other text."""
    if counted is None:
        return None
    path, nouns, length = counted
    noun = "(?:" + "|".join(map(re.escape, nouns)) + ")s?"
    ordinal = re.fullmatch(rf"(?:第\s*(?P<number>\S+?)\s*个?|(?P<word>\w+))\s*{noun}", text)
    if ordinal is None:
        return None
    word = ordinal["word"]
    if word in ("last", "最后", "最后一", "最后一个"):
        place = length
    elif word and re.fullmatch(r"\d+(?:st|nd|rd|th)", word):
        place = int(word[:-2])
    elif word:
        place = _ORDINAL_WORDS.get(word, 0)
    else:
        try:
            place = as_number(ordinal["number"])
        except WrongKind:
            return None
    if not (place >= 1 and float(place).is_integer()):
        return None
    return f"{path}.{int(place) - 1}"


def _without_holder(parts: list[str], within: str) -> list[str]:
    """The parts of a name without the path of its holder in front: for within="model", the
    parts of "model.head" are those of "head"; any tail of the path may be written."""
    holder = within.split(".") if within else []
    for start in range(len(holder)):
        tail = holder[start:]
        front = parts[: len(tail)]
        if len(parts) > len(tail) and all(
            written == held or (held == "*" and written.isdigit())
            for written, held in zip(front, tail, strict=True)
        ):
            return parts[len(tail) :]
    return parts


def _declared(parts: list[str], declared: tuple[str, ...]) -> str | None:
    """The declared name the parts spell, however they were joined (key_bias, block 0)."""
    name = ".".join(parts)
    if name in declared:
        return name
    for candidate in declared:
        if _loose(candidate.split(".")) == _loose(parts):
            return candidate
    return None


def _loose(parts: list[str]) -> tuple[str, ...]:
    """The words of a name, whatever joins them, a word before an index in the singular:
    blocks.0 and block_0 are ("block", "0")."""
    words = [word for part in parts for word in part.split("_") if word]
    return tuple(
        word[:-1] if word.endswith("s") and following.isdigit() else word
        for word, following in zip(words, [*words[1:], ""], strict=True)
    )


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
    it, the punctuation that ends a sentence, or the phrase before it ("答案是", "选", "the
    answer is"). A text too long to be an answer reads as ""."""
    if len(text) > _MAX_TEXT:
        return ""
    around = _QUOTES + string.whitespace
    text = _typed(text).strip(around).rstrip(_SENTENCE_END + around)
    for _ in range(2):  # 答案是选 b: two phrases at most
        text = _ANSWER_PHRASE.sub("", text, count=1).strip(around)
    return text


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
    body = _QUANTITY_AFTER.sub("", _QUANTITY_BEFORE.sub("", _plain(text), count=1))
    body = _UNIT_WORD.sub("", _one_value(body))
    if _THOUSANDS.fullmatch(body):
        body = body.replace(",", "")
    try:
        # float() reads "18", "18.", "1e3", "-0." and "101_000"; a huge number becomes inf.
        return float(body)
    except ValueError:
        pass
    number = chinese_number(body)
    if number is None:
        raise WrongKind("number")
    return number


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

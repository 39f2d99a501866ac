"""What the language tests look for in a text a helper shows: Chinese, with no English sentence.

Code stays code in both languages (``max_nodes=None``, ``y.backward(retain_graph=True)``,
``'cuda:1'``, PyTorch's own words quoted), so those are taken out before the text is read for
English prose: three English words in a row outside code is a sentence a Chinese learner meets
untranslated.
"""

from __future__ import annotations

import re

import pytest

from helpers.language import speaking

# Code spans: `...`, quoted text ('...', "...", “...”), calls and attribute chains
# (torch.no_grad(), y.grad_fn.next_functions[0][0]), keyword arguments (max_nodes=None), types in
# angle brackets (<class 'torch.Tensor'>).
_CODE = re.compile(
    r"`[^`]*`"
    r"|'[^'\n]*'|\"[^\"\n]*\"|“[^”\n]*”|‘[^’\n]*’"
    r"|<[^<>\n]*>"
    r"|[\w.]+\([^()\n]*(\([^()\n]*\))*[^()\n]*\)"
    r"|\w+(\.\w+)+(\[[^\]]*\])*"
    r"|\w+=\S+"
)
_ENGLISH_SENTENCE = re.compile(r"\b[A-Za-z]{2,}(?:[ ,]+[A-Za-z]{2,}){2,}\b")
_CHINESE = re.compile(r"[\u4e00-\u9fff]")


def prose(text: str) -> str:
    """``text`` with its code spans blanked out."""
    return _CODE.sub(" ", text)


def english_sentence_in(text: str) -> str | None:
    """The first run of three English words outside code, or None."""
    found = _ENGLISH_SENTENCE.search(prose(text))
    return found.group(0) if found else None


def assert_speaks_chinese(text: str) -> None:
    """``text`` is written in Chinese: it has Chinese words and no English sentence outside code."""
    assert _CHINESE.search(text), f"no Chinese in: {text!r}"
    english = english_sentence_in(text)
    assert english is None, f"English {english!r} in: {text!r}"


def raised(make_the_error) -> BaseException:
    """The error ``make_the_error()`` raises (it must raise one)."""
    with pytest.raises(Exception) as caught:
        make_the_error()
    return caught.value


def assert_each_language(make_the_error, error_type, code: str) -> None:
    """The error is ``error_type`` in both languages: under speaking("zh") in Chinese prose, in
    English with no Chinese at all; ``code`` (what to write instead) kept as it is in both."""
    with speaking("zh"):
        chinese = raised(make_the_error)
    assert isinstance(chinese, error_type), repr(chinese)
    assert_speaks_chinese(str(chinese))
    assert code in str(chinese), str(chinese)
    english = raised(make_the_error)
    assert isinstance(english, error_type), repr(english)
    assert not any("\u4e00" <= c <= "\u9fff" for c in str(english)), str(english)
    assert code in str(english), str(english)

"""The language the helpers speak to a learner: English by default, Chinese for notebooks/zh/.

    >>> from helpers import set_language
    >>> set_language("zh")      # the first code cell of every notebook in notebooks/zh/

Check-yourself verdicts, graph captions, the backward tables and the plots' words follow the
choice. Each helper keeps its texts in one table per language and picks one with `choose`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from contextlib import contextmanager

__all__ = ["LANGUAGES", "choose", "get_language", "set_language", "speaking"]

LANGUAGES = {"en": "English", "zh": "中文 (Chinese)"}
_current = "en"


def set_language(language: str) -> None:
    """Make the helpers speak ``language``: "en" (English, the default) or "zh" (Chinese)."""
    global _current
    _check(language)
    _current = language


def get_language() -> str:
    """The language the helpers speak now: "en" or "zh"."""
    return _current


def choose(texts: Mapping[str, str]) -> str:
    """The text for the current language out of ``{"en": ..., "zh": ...}`` (English if missing)."""
    return texts.get(_current) or texts["en"]


@contextmanager
def speaking(language: str) -> Iterator[None]:
    """Speak ``language`` inside a ``with`` block only, then the language chosen before.

    Tests use it to run the same code in both languages without leaving the choice behind.
    """
    _check(language)
    before = _current
    set_language(language)
    try:
        yield
    finally:
        set_language(before)


def _check(language: object) -> None:
    if not isinstance(language, str) or language not in LANGUAGES:
        known = ", ".join(f'"{code}" ({name})' for code, name in LANGUAGES.items())
        raise ValueError(f"set_language() knows {known}, not {language!r}.")

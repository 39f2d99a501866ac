"""The language the helpers speak to a learner: English by default, Chinese for notebooks/zh/.

    >>> from helpers import set_language
    >>> set_language("zh")      # the first code cell of every notebook in notebooks/zh/

Everything a helper shows follows the choice: check-yourself verdicts, graph captions, the
backward tables, the plots' words, and every error and warning. Each module keeps its texts in
one `Catalogue`, an entry per text with the sentence in every language, and says one with
``MESSAGES.say("key", blank=...)``. Code inside a sentence (``max_nodes=None``,
``retain_graph=True``) stays as Python writes it, in both languages.
"""

from __future__ import annotations

import string
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from typing import Any

__all__ = [
    "LANGUAGES",
    "Catalogue",
    "catalogues",
    "choose",
    "get_language",
    "set_language",
    "speaking",
]

LANGUAGES = {"en": "English", "zh": "中文 (Chinese)"}
# The ways people write each language's name or tag, compared in lower case with "_" as "-".
# Any tag whose first part is "en" or "zh" (en-GB, zh-SG, zh-Hans-CN) counts as well.
_SPELLINGS = {
    "en": {"english", "英文", "英语", "eng"},
    "zh": {"chinese", "cn", "中文", "汉语", "漢語", "简体中文", "簡體中文", "zho", "chi"},
}
_current = "en"


class Catalogue:
    """The texts one module shows a learner: ``{key: {"en": "...", "zh": "..."}}``.

    Every entry gives every language of `LANGUAGES`, with the same ``{blanks}`` in each; a
    catalogue that does not is refused when its module is imported, so a missing translation is
    found by the first test run rather than by a learner. ``say`` fills the blanks in the
    language chosen now.
    """

    def __init__(self, module: str, texts: Mapping[str, Mapping[str, str]]) -> None:
        for key, entry in texts.items():
            _check_entry(module, key, entry)
        self.module = module
        self.texts = {key: dict(entry) for key, entry in texts.items()}
        _CATALOGUES.append(self)

    def say(self, key: str, **blanks: Any) -> str:
        """The text ``key`` in the current language, its ``{blanks}`` filled once.

        Braces inside a filled-in value stay as they are: ``str.format`` does not read them.
        """
        return choose(self.texts[key]).format(**blanks)

    def __contains__(self, key: object) -> bool:
        return key in self.texts

    def __repr__(self) -> str:
        return f"<Catalogue of {self.module}: {len(self.texts)} texts>"


_CATALOGUES: list[Catalogue] = []


def catalogues() -> list[Catalogue]:
    """Every catalogue made so far (one per imported helper module), for the tests."""
    return list(_CATALOGUES)


def set_language(language: str) -> None:
    """Make the helpers speak ``language``: English (the default) or Chinese.

    ``"en"`` and ``"zh"``, and the usual ways of writing them, in any case: ``"zh-CN"``,
    ``"zh_CN"``, ``"zh-Hans"``, ``"cn"``, ``"Chinese"``, ``"中文"``, ``"en-US"``, ``"English"``.
    """
    global _current
    _current = _read(language)


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
    global _current
    chosen = _read(language)
    before = _current
    _current = chosen
    try:
        yield
    finally:
        _current = before


def _read(language: object) -> str:
    """The code ("en" or "zh") that ``language`` names, or a ValueError in both languages."""
    if isinstance(language, str):
        spelled = language.strip().lower().replace("_", "-")
        if spelled in LANGUAGES:
            return spelled
        for code, spellings in _SPELLINGS.items():
            if spelled in spellings or spelled.split("-")[0] == code:
                return code
    # Said in both languages at once: the learner's language is exactly what is not known yet.
    raise ValueError(
        f'set_language() knows English ("en") and Chinese ("zh"), not {language!r}: '
        'write set_language("zh") or set_language("en").\n'
        f'set_language() 认识英文（"en"）和中文（"zh"），不认识 {language!r}：'
        '请写 set_language("zh") 或 set_language("en")。'
    )


def _check_entry(module: str, key: str, entry: Mapping[str, str]) -> None:
    if not isinstance(entry, Mapping) or set(entry) != set(LANGUAGES):
        raise TypeError(
            f"{module}: the text {key!r} must be given in {sorted(LANGUAGES)}, got {entry!r}."
        )
    blanks = {language: _blanks(text) for language, text in entry.items()}
    if len({frozenset(names) for names in blanks.values()}) != 1:
        raise TypeError(f"{module}: the text {key!r} has other blanks in each language: {blanks}.")
    for language, text in entry.items():
        if not isinstance(text, str) or not text.strip():
            raise TypeError(f"{module}: the {language} text {key!r} is empty.")


def _blanks(text: str) -> set[str]:
    """The names of the ``{blanks}`` in a format string ("{count:,}" gives "count")."""
    return {name for _, name, _, _ in string.Formatter().parse(text) if name is not None}

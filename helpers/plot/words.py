"""The words a picture draws, in each language, and the font on this machine that draws them.

A picture takes all its words from one language: the chosen one where a font draws every
character of it, English otherwise (`picture_words`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

import matplotlib.pyplot as plt
from matplotlib import font_manager

from helpers.language import get_language
from helpers.text import columns

Title = str | Mapping[str, str] | None  # one title, or one per language: {"en": ..., "zh": ...}

# Every word a plot draws into a picture, in each language. Language first, because a picture
# takes all its words from one language: the chosen one where a font draws every character of
# it, English otherwise (`picture_words`). What is read as text instead (errors, the warning,
# the live plot's placeholder) always follows the chosen language: `helpers.plot.messages`.
WORDS: dict[str, dict[str, str]] = {
    "en": {
        "step": "step",
        "loss": "loss",
        "loss (log scale)": "loss (log scale)",
        # matplotlib leaves a label starting with "_" out of the legend; "" would have no text.
        "unnamed run": "(unnamed run)",
        "at step": "step {step}",
        "at step of run": "step {step} of run {run}",
        "one loss": "1 loss",
        "losses": "{count} losses",
        "not finite": "Skipped {losses} nan or infinite (first at {where}): did the training "
        "diverge?",
        "not positive": "Skipped {losses} 0 or below, which a log axis cannot show (first at "
        "{where}); log_y=False draws them.",
        "step not finite": "Skipped {losses} whose step is nan or infinite, which the axis "
        "cannot place (first at {where}).",
        "step goes back": "Skipped {losses} whose step does not come after the step drawn "
        "before it (first at {where}): count steps with one counter for the whole run.",
    },
    "zh": {
        "step": "步数",
        "loss": "损失",
        "loss (log scale)": "损失（对数坐标）",
        "unnamed run": "（未命名）",
        "at step": "第 {step} 步",
        "at step of run": "运行 {run} 的第 {step} 步",
        "one loss": "1 个",
        "losses": "{count} 个",
        "not finite": "跳过了 {losses} nan 或无穷大的损失（第一个在{where}）：训练发散了吗？",
        "not positive": "跳过了 {losses}小于或等于 0 的损失，对数坐标轴画不出它们（第一个在"
        "{where}）；log_y=False 可以画出它们。",
        "step not finite": "跳过了 {losses}步数为 nan 或无穷大的损失，横轴上没有它们的位置（第一个"
        "在{where}）。",
        "step goes back": "跳过了 {losses}步数不大于上一个已画出步数的损失（第一个在{where}）："
        "整个训练请只用一个计数器记步数。",
    },
}


@dataclass(frozen=True)
class Words:
    """The words one picture is drawn with, and the font families that can draw them all."""

    texts: dict[str, str]
    fontfamily: list[str] | None = None  # None: matplotlib's default font has every character
    title: str | None = None  # drawn as it is: never formatted, it is the caller's text

    def __call__(self, key: str, **blanks: object) -> str:
        return self.texts[key].format(**blanks)

    @property
    def font(self) -> dict[str, Any]:
        """Keyword arguments for a matplotlib text drawn in this picture."""
        return {} if self.fontfamily is None else {"fontfamily": self.fontfamily}


class ChineseFont:
    """The font on this machine that has every Chinese character the plots draw, looked up once.

    matplotlib keeps a list of the machine's fonts, cached on disk the first time it runs, so a
    font installed later is missing from it until the cache is deleted. When the list has no
    Chinese font, the font folders are read once more (about 30 ms) and any new font files added
    (``fontManager.addfont``), as a rebuilt cache would. A font counts only if its character map
    has every character: a name alone does not promise the glyphs.
    """

    # Simplified Chinese first, then fonts that also cover it; the names matplotlib reports.
    PREFERRED = (
        "Noto Sans CJK SC",
        "Source Han Sans SC",
        "Source Han Sans CN",
        "Noto Sans SC",
        "WenQuanYi Micro Hei",
        "WenQuanYi Zen Hei",
        "Microsoft YaHei",
        "DengXian",
        "SimHei",
        "PingFang SC",
        "Hiragino Sans GB",
        "Heiti SC",
        "STHeiti",
        "Songti SC",
        "Droid Sans Fallback",
        "AR PL UMing CN",
        "Noto Sans CJK JP",
        "Noto Sans CJK TC",
        "Source Han Sans",
        "Arial Unicode MS",
    )

    def __init__(self) -> None:
        self._found: dict[str, str | None] = {}  # characters needed -> the font's name

    def name(self, characters: str) -> str | None:
        """The name of a font with every one of ``characters``, or None if there is none."""
        if characters not in self._found:
            found = self._search(characters)
            if found is None and self._add_fonts_installed_since_the_cache():
                found = self._search(characters)
            self._found[characters] = found
        return self._found[characters]

    def _search(self, characters: str) -> str | None:
        entries = {entry.name: entry for entry in font_manager.fontManager.ttflist}
        for name in self.PREFERRED:
            if name in entries and has_characters(entries[name].fname, characters):
                return name
        return None

    @staticmethod
    def _add_fonts_installed_since_the_cache() -> bool:
        known = {entry.fname for entry in font_manager.fontManager.ttflist}
        new = [path for path in font_manager.findSystemFonts() if path not in known]
        for path in new:
            try:
                font_manager.fontManager.addfont(path)
            except Exception:
                continue  # a file matplotlib cannot read is no font for us
        return bool(new)


def has_characters(path: str, characters: str) -> bool:
    try:
        charmap = font_manager.get_font(path).get_charmap()
    except Exception:
        return False  # a font file FreeType cannot open draws nothing
    return all(ord(character) in charmap for character in characters)


chinese_font = ChineseFont()


def characters_beyond_ascii(texts: dict[str, str]) -> str:
    """The characters of the texts a picture draws that matplotlib's default font may lack."""
    drawn = "".join(texts.values())
    return "".join(sorted({character for character in drawn if ord(character) > 127}))


def picture_words(title: Title = None, names: Iterable[str] = ()) -> Words:
    """The words for a new picture: the chosen language's, if this machine can draw them.

    A title given per language is one of those words: in Chinese, the Chinese title too must be
    drawable, or the picture takes the English words and the English title. With Chinese words,
    or Chinese in a title given as one text or in the names of runs (a learner may write them in
    Chinese in either edition), the picture gets a font list ending in a Chinese font, so Latin
    letters and digits keep matplotlib's default font and only the characters it lacks come from
    the other.
    """
    language = get_language()
    texts, chosen_title = WORDS[language], title_in(title, language)
    name = None
    ours = characters_beyond_ascii({**texts, "title": chosen_title or ""})
    if ours:
        name = chinese_font.name(ours)
        if name is None:  # boxes instead of characters would teach nothing
            texts, chosen_title = WORDS["en"], title_in(title, "en")
    callers_text = "".join([title if isinstance(title, str) else "", *names])
    theirs = "".join(sorted({c for c in callers_text if columns(c) == 2}))
    if name is None and theirs:
        name = chinese_font.name(theirs)
    fontfamily = None if name is None else [*plt.rcParams["font.family"], name]
    return Words(texts, fontfamily, chosen_title)


def title_in(title: Title, language: str) -> str | None:
    """The title to draw in ``language``: the text given, or, given per language, that
    language's (the English one where it has none)."""
    if isinstance(title, Mapping):
        return title.get(language, title["en"])
    return title

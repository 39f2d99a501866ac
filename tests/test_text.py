"""How the helpers measure and wrap a learner's text (helpers/text.py): a line breaks at a
space or between Chinese words, never inside a word of the glossary nor inside a call, and
punctuation stays with what it belongs to."""

import re
from pathlib import Path

import pytest

import helpers
from helpers.language import catalogues
from helpers.text import (
    CLOSING,
    KEPT_WHOLE,
    OPENING,
    columns,
    pieces,
    spaces_as_wide_as,
    spaces_in,
    wrap,
)

GLOSSARY = Path(__file__).resolve().parent.parent / "notebooks" / "zh" / "GLOSSARY.md"


def glossary_terms() -> set[str]:
    """The Chinese terms of the glossary's tables: each run of two or more Chinese characters
    in the 中文 column, with what is in brackets or in code left out."""
    terms = set()
    for line in GLOSSARY.read_text(encoding="utf-8").splitlines():
        cells = [cell.strip() for cell in line.strip().strip("|").split("|")]
        if (
            not line.startswith("|")
            or len(cells) < 2
            or cells[0] in ("English", "")
            or "---" in line
        ):
            continue
        for part in re.split(r"[/／、，,]", cells[1]):
            part = re.sub(r"（[^）]*）|\([^)]*\)|`[^`]*`", "", part)
            # "`x` 的版本" names x's version: the term is 版本, which its own row gives.
            terms.update(t for t in re.findall(r"[\u4e00-\u9fff]{2,}", part) if t[0] != "的")
    return terms


def helpers_chinese() -> str:
    import importlib
    import pkgutil

    for module in pkgutil.walk_packages(helpers.__path__, "helpers."):
        importlib.import_module(module.name)
    return " ".join(entry["zh"] for catalogue in catalogues() for entry in catalogue.texts.values())


def fits(width):
    return lambda line: columns(line) <= width


def test_every_glossary_term_the_helpers_say_in_chinese_is_kept_whole():
    said = helpers_chinese()
    used = {term for term in glossary_terms() if term in said}
    assert len(used) > 50, "the glossary was read"
    assert used <= set(KEPT_WHOLE), f"add to KEPT_WHOLE: {sorted(used - set(KEPT_WHOLE))}"


@pytest.mark.parametrize("width", range(8, 41, 2))
def test_a_chinese_caption_never_breaks_inside_a_word_or_a_call(width):
    text = (
        "按模块折叠：模块方框代表整个模型 · MLP。draw(..., expand='') 把它完整画出，"
        "draw(..., fold=False, max_nodes=None) 画出每个节点。只显示离输出最近的 1,655 个 "
        "autograd 节点；其中 647 个折叠成一个框（全部画出会太慢）。"
    )
    lines = wrap(text, fits(width))
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    for line in lines:
        assert columns(line) <= width or len(pieces(line)) == 1, line
        assert line == line.strip()
        assert line[0] not in CLOSING and line[-1] not in OPENING, line
    for word in ("节点", "其中", "模块", "draw(..., expand='')", "max_nodes=None)"):
        assert any(word in line for line in lines), (word, lines)


def test_english_breaks_at_spaces_and_a_remark_in_brackets_may_break_like_prose():
    text = "Showing the 1,655 nodes nearest the output (drawing all would take too long)."
    lines = wrap(text, fits(20))
    assert " ".join(lines) == text
    assert all(columns(line) <= 20 for line in lines)
    assert "(drawing" in " ".join(lines) and not any(line.endswith("(") for line in lines)


def test_a_piece_wider_than_any_line_stands_alone():
    assert wrap("a draw(x, max_nodes=None) b", fits(5)) == ["a", "draw(x, max_nodes=None)", "b"]


def test_a_chinese_character_takes_two_columns():
    assert columns("梯度 w") == 6 and columns("（") == 2 and columns("abc") == 3


def test_room_kept_for_a_number_is_two_spaces_a_digit_and_one_a_narrow_mark():
    assert spaces_in("-1.5") == 1 + 2 + 1 + 2
    assert spaces_as_wide_as("[0, 3]") == " " * 8

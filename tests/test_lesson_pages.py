"""A lesson's page holds what a learner needs, in cells short enough to read at a glance.

What the test runner does with a cell (which outputs it compares, which it skips) is said by the
cell's nbval tags and by docs/validation.md, never in the lesson's prose; so are the fonts a plot
needs (docs/course.md).
The self-test introduction (how an answer may be written, how to get a hint) is written once, in
lesson 01; every other lesson with exercises links to it in one line. A markdown cell holds at
most ``MAX_CHARACTERS`` characters of text, an embedded picture's data not counted.
"""

import re
from pathlib import Path

import pytest
from notebook_cells import cells, source_of

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
EDITIONS = ("en", "zh")
LESSONS = sorted(
    path for edition in EDITIONS for path in (NOTEBOOKS / edition).glob("[0-9][0-9]_*.ipynb")
)
FIRST_LESSON = "01_autograd_basics.ipynb"
MAX_CHARACTERS = 600

# A picture embedded in markdown, ![...](data:image/png;base64,...): its data is not prose.
EMBEDDED_DATA = re.compile(r"\]\(data:[^)\s]*")
# Sentences about how the notebook is tested, in either edition: "not compared when the notebook
# is tested", "the log is shown but not compared", "not compared by the tests"; 测试这个笔记本时,
# 测试时不比较, 只显示、不比较. "compared with a tolerance" and 比较 in its everyday sense
# are prose.
ABOUT_TESTING = {
    "en": re.compile(
        r"\bnbval\b|\bwhen\s+(?:the|this)\s+notebook\s+is\s+tested\b|\b(?:is|are)\s+not\s+compared\b"
        r"|\bcompared\s+by\s+the\s+tests?\b|\bthe\s+tests?\s+(?:skips?|ignores?|compares?)\b",
        re.IGNORECASE,
    ),
    "zh": re.compile(
        r"nbval|测试(?:这个|本)?笔记本时|测试时(?:不)?比较|测试不比较|不比较[^。]*输出|只显示、不比较"
    ),
}
FONT_NOTE = {"en": re.compile(r"\bfonts?\b", re.IGNORECASE), "zh": re.compile(r"字体")}
# The full introduction: what an answer in quotes may look like. Only lesson 01 says it.
FULL_INTRODUCTION = {"en": "An answer in quotes", "zh": "写在引号里的答案"}
ONE_LINE_LINK = {
    "en": (
        "Replace `...` with your answer and run the cell; [lesson 01](01_autograd_basics.ipynb"
        "#Check-yourself) says how an answer may be written and how to get a hint."
    ),
    "zh": (
        "把 `...` 换成你的答案，然后运行单元格；答案可以怎么写、怎样看提示，"
        "见[第 01 课](01_autograd_basics.ipynb#自测)。"
    ),
}


def _markdown(path):
    return [
        (number, source_of(cell))
        for number, cell in enumerate(cells(path))
        if cell["cell_type"] == "markdown"
    ]


def _code(path):
    return "\n".join(source_of(cell) for cell in cells(path) if cell["cell_type"] == "code")


def _name(path):
    return f"{path.parent.name}-{path.name}"


def _sentences_matching(path, pattern):
    return [
        f"cell {number}: ...{text[max(0, match.start() - 60) : match.end() + 60]}..."
        for number, text in _markdown(path)
        for match in pattern.finditer(text)
    ]


def test_there_are_lessons_in_both_editions():
    assert {path.parent.name for path in LESSONS} == set(EDITIONS)


@pytest.mark.parametrize("path", LESSONS, ids=_name)
def test_no_markdown_cell_is_longer_than_the_limit(path):
    too_long = [
        f"cell {number}: {length} characters, starting {text[:60]!r}"
        for number, text in _markdown(path)
        if (length := len(EMBEDDED_DATA.sub("](data:", text))) > MAX_CHARACTERS
    ]
    assert not too_long, (
        f"split these at a paragraph or list boundary, the same way in both editions, "
        f"or say less (limit {MAX_CHARACTERS}): {too_long}"
    )


@pytest.mark.parametrize("path", LESSONS, ids=_name)
def test_no_sentence_says_how_the_notebook_is_tested(path):
    found = _sentences_matching(path, ABOUT_TESTING[path.parent.name])
    assert not found, (
        f"the cell's nbval tag and docs/validation.md say this, not the lesson: {found}"
    )


@pytest.mark.parametrize("path", LESSONS, ids=_name)
def test_no_font_note_in_the_lesson(path):
    found = _sentences_matching(path, FONT_NOTE[path.parent.name])
    assert not found, f"fonts are docs/course.md's concern: {found}"


@pytest.mark.parametrize("edition", EDITIONS)
def test_the_first_lesson_explains_how_answers_are_written(edition):
    text = "\n".join(source for _, source in _markdown(NOTEBOOKS / edition / FIRST_LESSON))
    assert FULL_INTRODUCTION[edition] in text


@pytest.mark.parametrize("path", [p for p in LESSONS if p.name != FIRST_LESSON], ids=_name)
def test_later_lessons_link_to_the_first_for_the_self_test_introduction(path):
    edition = path.parent.name
    text = "\n".join(source for _, source in _markdown(path))
    assert FULL_INTRODUCTION[edition] not in text, (
        "the full self-test introduction belongs to lesson 01"
    )
    if "check(" in _code(path):
        assert ONE_LINE_LINK[edition] in text, (
            f"the self-test section says, in one line: {ONE_LINE_LINK[edition]}"
        )

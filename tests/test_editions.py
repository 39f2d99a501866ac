"""The two editions are one course: notebooks/zh/ runs exactly the code of notebooks/en/.

Every English notebook has a Chinese one of the same file name (and no Chinese notebook is
without its English one). Paired notebooks have the same cells, of the same types and tags, and
every code cell runs the same code: they may differ in their comments, and in the one line that
chooses the helpers' language (``set_language("en")`` against ``set_language("zh")``). A fix made
in one edition and not in the other fails here, naming the notebook, the cell and the lines.

The pairing tests check the notebooks that exist in both editions; a separate test says which
ones are missing, so that a half-written edition is checked as far as it goes.

The Chinese edition's markdown keeps each paragraph on one line: Jupyter renders a line break
inside a paragraph as a space, and Chinese puts no space between its sentences.
"""

import difflib
import io
import json
import re
import tokenize
from pathlib import Path

import pytest

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
ENGLISH, CHINESE = NOTEBOOKS / "en", NOTEBOOKS / "zh"
# The one line allowed to differ, comments stripped: each edition chooses its own language.
LANGUAGE_LINE = re.compile(r'(?:helpers\.)?set_language\("(?P<language>\w+)"\)')
# Chinese characters, and the punctuation written with them (、。：，；（）“”…): the text around
# which a space is never wanted.
CHINESE_CHARACTER = re.compile(r"[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]")
CHINESE_PUNCTUATION = re.compile(r"[\u2018-\u201f\u2026\u3000-\u303f\uff00-\uffef]")
# A line that starts a block of its own, so the line break before it is markdown's, not a space.
BLOCK_START = re.compile(r"\s*(?:[-*+]\s|\d+[.)]\s|#|\||>|```|~~~|\$\$)")


def _names(folder):
    return {path.name for path in folder.glob("*.ipynb")}


def _pairs():
    return sorted(_names(ENGLISH) & _names(CHINESE))


def _cells(path):
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def _source(cell):
    source = cell["source"]
    return source if isinstance(source, str) else "".join(source)


def _tags(cell):
    return sorted(cell.get("metadata", {}).get("tags", []))


def code_lines(source):
    """The lines of a code cell as Python runs them: comments and blank lines left out.

    Comments are found by Python's own tokenizer, so a ``#`` inside a string stays code.
    """
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    except (tokenize.TokenError, SyntaxError):
        # Not plain Python (an IPython magic, say): only whole-line comments can be told apart.
        lines = [line for line in source.splitlines() if not line.lstrip().startswith("#")]
        return [line.rstrip() for line in lines if line.strip()]
    comment_at = {t.start[0]: t.start[1] for t in tokens if t.type == tokenize.COMMENT}
    kept = []
    for number, line in enumerate(source.splitlines(), start=1):
        code = line[: comment_at[number]] if number in comment_at else line
        if code.strip():
            kept.append(code.rstrip())
    return kept


def _allowed(english_line, chinese_line):
    """True for the pair of lines that choose each edition's language."""
    english = LANGUAGE_LINE.fullmatch(english_line.strip())
    chinese = LANGUAGE_LINE.fullmatch(chinese_line.strip())
    return (
        english is not None
        and chinese is not None
        and english["language"] == "en"
        and chinese["language"] == "zh"
        and english_line.replace('"en"', '"zh"') == chinese_line
    )


def code_differences(english_source, chinese_source):
    """The differing lines of two code cells, as a diff; [] when they run the same code."""
    english, chinese = code_lines(english_source), code_lines(chinese_source)
    if len(english) == len(chinese) and all(
        a == b or _allowed(a, b) for a, b in zip(english, chinese, strict=True)
    ):
        return []
    diff = difflib.unified_diff(english, chinese, "en", "zh", lineterm="", n=1)
    return list(diff)


def structure_differences(english_cells, chinese_cells):
    """What differs in the cells' number, types and tags, one sentence each."""
    problems = []
    if len(english_cells) != len(chinese_cells):
        problems.append(f"en has {len(english_cells)} cells, zh has {len(chinese_cells)}")
    # Cells beyond the shorter notebook are counted above, not compared one by one.
    pairs = zip(english_cells, chinese_cells, strict=False)
    for index, (english, chinese) in enumerate(pairs):
        if english["cell_type"] != chinese["cell_type"]:
            problems.append(
                f"cell {index}: en has a {english['cell_type']} cell "
                f"({_opening(english)}), zh a {chinese['cell_type']} cell ({_opening(chinese)})"
            )
        elif _tags(english) != _tags(chinese):
            problems.append(
                f"cell {index} ({_opening(english)}): tags en {_tags(english)}, zh {_tags(chinese)}"
            )
    return problems


def code_cell_differences(english_cells, chinese_cells):
    """Each pair of code cells (the n-th of en with the n-th of zh) that runs different code."""
    english = [(i, c) for i, c in enumerate(english_cells) if c["cell_type"] == "code"]
    chinese = [(i, c) for i, c in enumerate(chinese_cells) if c["cell_type"] == "code"]
    problems = []
    if len(english) != len(chinese):
        problems.append(f"en has {len(english)} code cells, zh has {len(chinese)}")
    for number, ((en_index, en_cell), (zh_index, zh_cell)) in enumerate(
        zip(english, chinese, strict=False), start=1
    ):
        diff = code_differences(_source(en_cell), _source(zh_cell))
        if diff:
            where = f"cell {en_index}" if en_index == zh_index else f"en cell {en_index}"
            where += "" if en_index == zh_index else f", zh cell {zh_index}"
            problems.append(f"code cell {number} ({where}):\n" + "\n".join(diff))
    return problems


def _opening(cell):
    """The first line of a cell, short: enough to find it in the notebook."""
    first = next((line for line in _source(cell).splitlines() if line.strip()), "(empty)")
    return repr(first[:60] + ("…" if len(first) > 60 else ""))


def _chinese(character):
    return bool(CHINESE_CHARACTER.match(character) or CHINESE_PUNCTUATION.match(character))


def _paragraph_line(line, in_block):
    """True for a line of running text, which the next line may continue."""
    stripped = line.strip()
    return not (
        in_block
        or not stripped
        or stripped.startswith(("#", "|", "```", "~~~"))
        or "$$" in stripped
        or line.endswith(("  ", "\\"))  # a hard line break, asked for on purpose
    )


def spaces_from_line_breaks(markdown):
    """Each line break inside a paragraph that Jupyter would render as a space in Chinese text.

    One entry per break, naming the line it ends and the text on either side. A break is reported
    when Chinese punctuation stands on either side of it, or Chinese text on both sides; breaks
    that markdown needs (before a list item, a heading, a table row, a code or math block, around
    a blank line) and breaks inside code and math blocks are not.
    """
    lines = markdown.splitlines()
    problems = []
    in_block = False  # inside a fenced code block or a $$ math block
    for number, (line, following) in enumerate(zip(lines, lines[1:], strict=False), start=1):
        continues = (
            _paragraph_line(line, in_block)
            and following.strip()
            and not BLOCK_START.match(following)
        )
        stripped = line.strip()
        if stripped.startswith(("```", "~~~")) or stripped.count("$$") % 2:
            in_block = not in_block
        if not continues:
            continue
        before, after = line.rstrip()[-1], following.strip()[0]
        if (
            CHINESE_PUNCTUATION.match(before)
            or CHINESE_PUNCTUATION.match(after)
            or (_chinese(before) and _chinese(after))
        ):
            problems.append(f"line {number}: …{line.rstrip()[-15:]}⏎{following.strip()[:15]}…")
    return problems


# --- the comparison itself ------------------------------------------------------------------


def test_comments_and_blank_lines_are_not_code():
    english = "x = 1  # one\n\n# a note\ny = x + 1\n"
    chinese = "# 一条说明\nx = 1  # 一\ny = x + 1  # 加一\n"
    assert code_differences(english, chinese) == []


def test_a_hash_inside_a_string_is_code():
    english = 'print("# of steps")\n'
    chinese = 'print("# 步数")\n'
    assert code_differences(english, chinese) != []


def test_a_changed_number_is_reported_with_both_lines():
    diff = code_differences("lr = 1e-6\nstep()\n", "lr = 1e-5  # 学习率\nstep()\n")
    assert "-lr = 1e-6" in diff and "+lr = 1e-5" in diff


def test_only_the_line_choosing_each_editions_language_may_differ():
    english = 'set_language("en")  # the Chinese edition says "zh"\n'
    assert code_differences(english, 'set_language("zh")  # 英文版写 "en"\n') == []
    # (A zh notebook that chooses "en" runs the same code: the test of each edition's own
    # language below catches it.)
    assert code_differences('set_language("zh")\n', 'set_language("zh")\n') == []
    assert code_differences('set_language("zh")\n', 'set_language("en")\n') != []
    assert code_differences('x = "en"\n', 'x = "zh"\n') != []


def test_a_missing_cell_a_changed_type_and_a_changed_tag_are_reported():
    def cell(kind, source, tags=()):
        return {"cell_type": kind, "source": source, "metadata": {"tags": list(tags)}}

    english = [cell("markdown", "# Title"), cell("code", "x = 1", ["raises-exception"])]
    chinese = [cell("markdown", "# 标题"), cell("code", "x = 1")]
    assert structure_differences(english, chinese) == [
        "cell 1 ('x = 1'): tags en ['raises-exception'], zh []"
    ]
    assert structure_differences(english, [cell("code", "# 标题"), english[1]]) == [
        "cell 0: en has a markdown cell ('# Title'), zh a code cell ('# 标题')"
    ]
    assert structure_differences(english, chinese[:1]) == ["en has 2 cells, zh has 1"]


def test_a_code_difference_names_the_cell_and_shows_the_lines():
    def cells(text, code):
        return [{"cell_type": "markdown", "source": text}, {"cell_type": "code", "source": code}]

    (problem,) = code_cell_differences(cells("text", "a = 2"), cells("文字", "a = 3"))
    assert problem.startswith("code cell 1 (cell 1):")
    assert "-a = 2" in problem and "+a = 3" in problem


def test_a_line_break_between_chinese_sentences_is_reported():
    (problem,) = spaces_from_line_breaks("这是第一句。\n这是第二句。")
    assert problem.startswith("line 1:") and "第一句。⏎这是第二句" in problem


def test_a_line_break_beside_chinese_punctuation_or_inside_a_list_item_is_reported():
    assert spaces_from_line_breaks("卡住了？\n`check()` 给出提示。") != []
    assert spaces_from_line_breaks("- 第一项的第一句。\n  第一项的第二句。") != []


def test_line_breaks_that_markdown_needs_are_not_reported():
    markdown = "\n".join(
        [
            "## 标题",
            "第一段。",
            "",
            "第二段：",
            "- 列表项一；",
            "- 列表项二。",
            "1. 编号项。",
            "| 表头 | 表头 |",
            "|---|---|",
            "| 格子 | 格子 |",
            "```",
            "代码。",
            "代码。",
            "```",
            "$$a = b，",
            "c = d。$$",
            "硬换行。  ",
            "下一行。",
        ]
    )
    assert spaces_from_line_breaks(markdown) == []


def test_a_line_break_between_chinese_and_code_or_english_is_not_reported():
    # Rendered as a space, which is what Chinese text puts around code and English words.
    assert spaces_from_line_breaks("用\n`trace` 试一试，或者\nEnglish words\nin a row") == []


# --- the notebooks --------------------------------------------------------------------------


def test_every_english_notebook_has_its_chinese_edition():
    missing = sorted(_names(ENGLISH) - _names(CHINESE))
    assert not missing, (
        f"notebooks/zh/ lacks {', '.join(missing)}: translate them from notebooks/en/"
    )


def test_every_chinese_notebook_has_its_english_original():
    extra = sorted(_names(CHINESE) - _names(ENGLISH))
    assert not extra, (
        f"notebooks/zh/ has {', '.join(extra)} with no notebook of that name in notebooks/en/: "
        "rename it after its English original, or write the English one first"
    )


@pytest.mark.parametrize("name", _pairs())
def test_the_editions_have_the_same_cells_types_and_tags(name):
    problems = structure_differences(_cells(ENGLISH / name), _cells(CHINESE / name))
    assert not problems, f"{name}: the editions' cells differ\n" + "\n".join(problems)


@pytest.mark.parametrize("name", _pairs())
def test_the_editions_run_the_same_code(name):
    problems = code_cell_differences(_cells(ENGLISH / name), _cells(CHINESE / name))
    assert not problems, (
        f"{name}: the editions' code differs (comments and the set_language line aside); "
        "make the same change in both\n" + "\n\n".join(problems)
    )


@pytest.mark.parametrize("name", _pairs())
def test_each_edition_chooses_its_own_language_once(name):
    for folder, language in ((ENGLISH, "en"), (CHINESE, "zh")):
        chosen = [
            match["language"]
            for cell in _cells(folder / name)
            if cell["cell_type"] == "code"
            for line in code_lines(_source(cell))
            if (match := LANGUAGE_LINE.search(line))
        ]
        assert chosen == [language], f"{folder.name}/{name} calls set_language with {chosen}"


@pytest.mark.parametrize("name", sorted(_names(CHINESE)))
def test_chinese_markdown_keeps_each_paragraph_on_one_line(name):
    problems = [
        f"cell {index} ({_opening(cell)}), {problem}"
        for index, cell in enumerate(_cells(CHINESE / name))
        if cell["cell_type"] == "markdown"
        for problem in spaces_from_line_breaks(_source(cell))
    ]
    assert not problems, (
        f"zh/{name}: Jupyter shows a line break inside a paragraph as a space, which Chinese "
        "text does not have; join these lines\n" + "\n".join(problems)
    )

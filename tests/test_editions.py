"""The two editions are one course: notebooks/zh/ runs exactly the code of notebooks/en/.

Every English notebook has a Chinese one of the same file name (and no Chinese notebook is
without its English one). Paired notebooks have the same cells, of the same types and tags, and
every code cell runs the same code: they may differ in their comments, in the one line that
chooses the helpers' language (``set_language("en")`` against ``set_language("zh")``), and in the
text of string constants that are only displayed (a printed label, a plot's run name), which
each edition writes in its own language. A fix made in one edition and not in the other fails
here, naming the notebook, the cell and the lines.

The code is compared on Python's syntax tree: both cells must parse to the same tree once every
string constant is blanked out, and then each string constant must be the same in both, unless
it is displayed (see ``DISPLAY_FUNCTIONS`` and ``DISPLAY_METHODS``). A ``{"en": ..., "zh": ...}``
dict holds both languages in both editions, so its strings stay the same even when displayed.

The pairing tests check the notebooks that exist in both editions; a separate test says which
ones are missing, so that a half-written edition is checked as far as it goes.

The Chinese edition's markdown keeps each paragraph on one line: Jupyter renders a line break
inside a paragraph as a space, and Chinese puts no space between its sentences.
"""

import ast
import copy
import difflib
import io
import re
import tokenize
from pathlib import Path

import pytest
from notebook_cells import cells, source_of

NOTEBOOKS = Path(__file__).parent.parent / "notebooks"
ENGLISH, CHINESE = NOTEBOOKS / "en", NOTEBOOKS / "zh"
# The one line allowed to differ, comments stripped: each edition chooses its own language.
LANGUAGE_LINE = re.compile(r'(?:helpers\.)?set_language\("(?P<language>\w+)"\)')
# Calls whose arguments are only displayed, so that each edition writes their text in its own
# language: called by name (print(...), display(...), plot_losses(...), LiveLossPlot(...)), or as
# a method (helpers.plot_losses(...), ax.set_title(...): matplotlib's text methods).
DISPLAY_FUNCTIONS = frozenset({"print", "display", "plot_losses", "LiveLossPlot"})
DISPLAY_METHODS = DISPLAY_FUNCTIONS | frozenset(
    {"set_title", "set_xlabel", "set_ylabel", "legend", "suptitle", "text", "annotate"}
)
# Of a display call's keyword arguments, those that hold text to show (loc="upper left", ha=...,
# a file= or an arrowprops= are settings, which stay the same); label= is displayed in any call.
DISPLAY_KEYWORDS = frozenset(
    {"label", "labels", "title", "xlabel", "ylabel", "text", "s", "sep", "end"}
)
ANY_CALL_DISPLAY_KEYWORDS = frozenset({"label"})
# The keys of a dict that holds one text per language: its strings are the same in both editions.
LANGUAGES = frozenset({"en", "zh"})
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


def _line_differences(english_source, chinese_source):
    """The differing lines of two cells that are not plain Python, compared line by line."""
    english, chinese = code_lines(english_source), code_lines(chinese_source)
    if len(english) == len(chinese) and all(
        a == b or _allowed(a, b) for a, b in zip(english, chinese, strict=True)
    ):
        return []
    return _diff(english_source, chinese_source)


def _diff(english_source, chinese_source):
    english, chinese = code_lines(english_source), code_lines(chinese_source)
    return list(difflib.unified_diff(english, chinese, "en", "zh", lineterm="", n=1))


def _is_text(node):
    return isinstance(node, ast.Constant) and isinstance(node.value, str)


def _blanked(tree):
    """The tree as ast.dump writes it, every string constant replaced by the same placeholder.

    A displayed f-string keeps only its {...} fields, in order: its words may be written around
    them as each language needs (f"{n} steps" and f"共 {n} 步").
    """
    tree = copy.deepcopy(tree)
    for node, _ in _texts(tree):
        if isinstance(node, ast.JoinedStr):
            node.values = [part for part in node.values if not _is_text(part)]
    for node in ast.walk(tree):
        if _is_text(node):
            node.value = "…"
    return ast.dump(tree, include_attributes=False)


def _called(call):
    """The name a call is made by: print for print(...), set_title for ax.set_title(...)."""
    if isinstance(call.func, ast.Name):
        return call.func.id, False
    if isinstance(call.func, ast.Attribute):
        return call.func.attr, True
    return None, False


def _is_display_call(call):
    name, method = _called(call)
    return name in (DISPLAY_METHODS if method else DISPLAY_FUNCTIONS)


def _is_language_choice(call):
    name, _ = _called(call)
    return name == "set_language" and len(call.args) == 1 and not call.keywords


def _is_one_text_per_language(node):
    return (
        isinstance(node, ast.Dict)
        and node.keys
        and all(_is_text(key) and key.value in LANGUAGES for key in node.keys)
    )


def _texts(node, displayed=False):
    """Each string constant of the tree, in order, with what it is for.

    Yields (constant, role): role is "displayed" for a text only shown to the reader (it sits in
    the arguments of a display call, directly or inside a dict, list, tuple, f-string, + or %
    of such an argument), "language" for the argument of set_language(...), None otherwise. A
    displayed f-string is yielded whole, as (f-string, "displayed"), instead of its words.
    """
    if _is_text(node):
        yield node, "displayed" if displayed else None
        return
    if isinstance(node, ast.JoinedStr) and displayed:
        yield node, "displayed"
        for part in node.values:
            if isinstance(part, ast.FormattedValue):
                # The value and the format spec of {x:.3f} are code, not text.
                yield from _texts(part)
        return
    if isinstance(node, ast.Call):
        if _is_language_choice(node) and _is_text(node.args[0]):
            yield from _texts(node.func)
            yield node.args[0], "language"
            return
        shown = _is_display_call(node)
        # "sep".join(...) and "{}: {}".format(...) inside a displayed argument build the text shown.
        builds_text = (
            displayed
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in ("join", "format")
            and _is_text(node.func.value)
        )
        if builds_text:
            yield node.func.value, "displayed"
        else:
            yield from _texts(node.func)
        for argument in node.args:
            yield from _texts(argument, shown or builds_text)
        for keyword in node.keywords:
            yield from _texts(
                keyword.value,
                keyword.arg in ANY_CALL_DISPLAY_KEYWORDS
                or (shown and (keyword.arg in DISPLAY_KEYWORDS or keyword.arg is None)),
            )
        return
    if _is_one_text_per_language(node):
        displayed = False
    # Displayed stays displayed only through what puts text together as it is: the elements of a
    # dict, list or tuple, + and %, the branches of an if-else, what a comprehension makes (an
    # f-string's words: above).
    # Anything else (a subscript's key, a format spec, another call's arguments) is not shown.
    for field, value in ast.iter_fields(node):
        passes_on = displayed and (
            isinstance(node, (ast.Dict, ast.List, ast.Tuple, ast.Set, ast.Starred))
            or (isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)))
            or (isinstance(node, ast.IfExp) and field in ("body", "orelse"))
            or (isinstance(node, (ast.GeneratorExp, ast.ListComp)) and field == "elt")
        )
        for child in value if isinstance(value, list) else [value]:
            if isinstance(child, ast.AST):
                yield from _texts(child, passes_on)


def _text_problem(english, chinese, role):
    """Why two differing string constants may not differ, or None if they may."""
    if role == "displayed":
        return None
    if role == "language" and (english.value, chinese.value) == ("en", "zh"):
        return None
    where = f"line {english.lineno}" + (
        "" if english.lineno == chinese.lineno else f" (zh line {chinese.lineno})"
    )
    what = (
        'the language chosen must be "en" in en and "zh" in zh'
        if role == "language"
        else "only a displayed string (an argument of "
        + ", ".join(sorted(DISPLAY_FUNCTIONS))
        + ", of a matplotlib text method, or a label=) may be translated"
    )
    return f"{where}: en has {english.value!r}, zh has {chinese.value!r}: {what}"


def code_differences(english_source, chinese_source):
    """How two code cells differ in the code they run, as lines; [] when they run the same code.

    A different syntax tree (a name, a number, an operator, a line added) is shown as a diff of
    the lines; a string that differs where it is not only displayed is named with both texts,
    after the diff.
    """
    try:
        english_tree, chinese_tree = ast.parse(english_source), ast.parse(chinese_source)
    except SyntaxError:
        # Not plain Python (an IPython magic, say): compare the lines, comments left out.
        return _line_differences(english_source, chinese_source)
    if _blanked(english_tree) != _blanked(chinese_tree):
        diff = _diff(english_source, chinese_source)
        return diff or ["(the code is the same line by line, but parses differently)"]
    pairs = zip(_texts(english_tree), _texts(chinese_tree), strict=True)
    problems = [
        problem
        for (english, role), (chinese, _) in pairs
        if _is_text(english)
        and english.value != chinese.value
        and (problem := _text_problem(english, chinese, role)) is not None
    ]
    return _diff(english_source, chinese_source) + problems if problems else []


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
        diff = code_differences(source_of(en_cell), source_of(zh_cell))
        if diff:
            where = f"cell {en_index}" if en_index == zh_index else f"en cell {en_index}"
            where += "" if en_index == zh_index else f", zh cell {zh_index}"
            problems.append(f"code cell {number} ({where}):\n" + "\n".join(diff))
    return problems


def _opening(cell):
    """The first line of a cell, short: enough to find it in the notebook."""
    first = next((line for line in source_of(cell).splitlines() if line.strip()), "(empty)")
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
    english = 'steps = "# of steps"\n'
    chinese = 'steps = "# 步数"\n'
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


# --- which strings may be translated: only those that are displayed ------------------------


def test_a_translated_print_label_is_allowed():
    english = 'print("both edges lead to the same node:", a is b)\n'
    chinese = 'print("两条边通向同一个节点：", a is b)  # 注释也可以不同\n'
    assert code_differences(english, chinese) == []


def test_a_translated_f_string_may_place_its_words_around_the_same_fields():
    english = 'print(f"waited for {n} gradient(s), {x:.3f}")\n'
    chinese = 'print(f"共等待了 {n} 个梯度，{x:.3f}")\n'
    assert code_differences(english, chinese) == []
    # The fields are code: their order, expressions and format specs are not translated.
    assert code_differences(english, 'print(f"{x:.3f}，共等待了 {n} 个梯度")\n') != []
    assert code_differences(english, 'print(f"共等待了 {n} 个梯度，{x:.4f}")\n') != []


def test_translated_plot_run_names_titles_and_labels_are_allowed():
    english = (
        'plot_losses({"ours, twice": ours, "built-in": theirs}, log_y=True)\n'
        'ax.plot(xs, ys, label="clamp(min=0), built-in")\n'
        'ax.set_title("loss"); ax.legend(["a", "b"]); print("step " + str(step))\n'
        'with LiveLossPlot(title="two-layer net") as live:\n    pass\n'
        'print("losses:", ", ".join(f"{v:.2f} at {s}" for s, v in runs), "{} left".format(n))\n'
    )
    chinese = (
        'plot_losses({"我们的，两次": ours, "内置": theirs}, log_y=True)\n'
        'ax.plot(xs, ys, label="clamp(min=0)，内置")\n'
        'ax.set_title("损失"); ax.legend(["甲", "乙"]); print("第几步 " + str(step))\n'
        'with LiveLossPlot(title="两层网络") as live:\n    pass\n'
        'print("损失：", "、".join(f"{v:.2f}（第{s}步）" for s, v in runs), "余{}".format(n))\n'
    )
    assert code_differences(english, chinese) == []


def test_a_changed_number_inside_a_print_is_refused():
    assert code_differences('print("lr:", 1e-6)\n', 'print("学习率：", 1e-5)\n') != []


def test_a_changed_variable_name_is_refused():
    diff = code_differences('print("loss:", loss)\n', 'print("损失：", losses)\n')
    assert '-print("loss:", loss)' in diff and '+print("损失：", losses)' in diff


def test_a_changed_draw_name_is_refused_and_named_with_both_texts():
    english = 'draw(y, names={"w": w, "x": x})\n'
    problems = code_differences(english, 'draw(y, names={"权重": w, "x": x})\n')
    assert problems[-1].startswith("line 1: en has 'w', zh has '权重'")
    assert "only a displayed string" in problems[-1]


def test_a_changed_string_that_is_not_displayed_is_refused():
    refused = [
        ('check("01.4", answer)\n', 'check("01.5", answer)\n'),  # an exercise id
        ('x = x.to("cpu")\n', 'x = x.to("中央处理器")\n'),  # an argument of any other call
        ('print("loss:", d["loss"])\n', 'print("损失：", d["损失"])\n'),  # a key looked up
        ('ax.legend(["a"], loc="upper left")\n', 'ax.legend(["甲"], loc="左上")\n'),  # a setting
        ('print(name_of(x, "w"))\n', 'print(name_of(x, "权重"))\n'),  # another call's argument
        (
            'title = "net"\nplot_losses(l, title=title)\n',
            'title = "网络"\nplot_losses(l, title=title)\n',
        ),
    ]
    for english, chinese in refused:
        assert code_differences(english, chinese) != [], (english, chinese)


def test_a_text_per_language_stays_the_same_in_both_editions():
    english = 'plot_losses(l, title={"en": "two-layer net", "zh": "两层网络"})\n'
    assert code_differences(english, english) == []
    chinese = 'plot_losses(l, title={"en": "两层网络", "zh": "两层网络"})\n'
    assert code_differences(english, chinese) != []


def test_a_cell_that_is_not_python_is_compared_line_by_line():
    assert code_differences("%timeit f()  # time it\n", "%timeit f()  # 计时\n") == []
    assert code_differences("%timeit f()\n", "%timeit g()\n") != []


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
    problems = structure_differences(cells(ENGLISH / name), cells(CHINESE / name))
    assert not problems, f"{name}: the editions' cells differ\n" + "\n".join(problems)


@pytest.mark.parametrize("name", _pairs())
def test_the_editions_run_the_same_code(name):
    problems = code_cell_differences(cells(ENGLISH / name), cells(CHINESE / name))
    assert not problems, (
        f"{name}: the editions' code differs (comments, the set_language line and displayed "
        "strings aside); "
        "make the same change in both\n" + "\n\n".join(problems)
    )


@pytest.mark.parametrize("name", _pairs())
def test_each_edition_chooses_its_own_language_once(name):
    for folder, language in ((ENGLISH, "en"), (CHINESE, "zh")):
        chosen = [
            match["language"]
            for cell in cells(folder / name)
            if cell["cell_type"] == "code"
            for line in code_lines(source_of(cell))
            if (match := LANGUAGE_LINE.search(line))
        ]
        assert chosen == [language], f"{folder.name}/{name} calls set_language with {chosen}"


@pytest.mark.parametrize("name", sorted(_names(CHINESE)))
def test_chinese_markdown_keeps_each_paragraph_on_one_line(name):
    problems = [
        f"cell {index} ({_opening(cell)}), {problem}"
        for index, cell in enumerate(cells(CHINESE / name))
        if cell["cell_type"] == "markdown"
        for problem in spaces_from_line_breaks(source_of(cell))
    ]
    assert not problems, (
        f"zh/{name}: Jupyter shows a line break inside a paragraph as a space, which Chinese "
        "text does not have; join these lines\n" + "\n".join(problems)
    )

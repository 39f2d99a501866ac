"""The READMEs and docs/: every relative link leads somewhere, and the READMEs stay short.

A README is the learner's page, read in five minutes: under 12 KB in each language, the same
lessons in both, and the same pages of docs/ linked from both. Every relative link of the READMEs
and of docs/*.md names a file that exists, and an anchor (`#...`) names a heading of that file, by
GitHub's rules for turning a heading into an anchor.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from local_lab import ROOT

READMES = (ROOT / "README.md", ROOT / "README.zh-CN.md")
DOCS = ROOT / "docs"
PAGES = (*READMES, *sorted(DOCS.glob("*.md")))
MOST_BYTES = 12 * 1024

FENCE = re.compile(r"^(```|~~~).*?^\1[^\n]*$", re.M | re.S)
CODE_SPAN = re.compile(r"(`+)(?:(?!\1).)+?\1", re.S)
# [text](target) and ![alt](target "title"); the target stops at a space or the closing bracket.
INLINE_LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
# [name]: target, a reference definition on a line of its own.
REFERENCE = re.compile(r"^ {0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+\"[^\"]*\")?\s*$", re.M)
HEADING = re.compile(r"^ {0,3}#{1,6}[ \t]+(.+?)(?:[ \t]+#+)?[ \t]*$", re.M)
SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
LESSON_ROW = re.compile(r"^\| (\d\d) \| \[[^\n]*?\]\(notebooks/(?:en|zh)/([^)]+\.ipynb)\)", re.M)


def _prose(markdown: str) -> str:
    """The text with code blocks and code spans blanked: `[..]` in code is not a link."""
    markdown = FENCE.sub("", markdown)
    return CODE_SPAN.sub("``", markdown)


def links(markdown: str) -> list[str]:
    """Every link target written in ``markdown``: inline links, images, reference definitions."""
    prose = _prose(markdown)
    return INLINE_LINK.findall(prose) + REFERENCE.findall(prose)


def relative_links(markdown: str) -> list[str]:
    """The targets that name a place in this repository (no scheme such as https:)."""
    return [target for target in links(markdown) if not SCHEME.match(target)]


def anchor(heading: str) -> str:
    """GitHub's anchor for a heading: the text as shown, lower case, punctuation dropped (letters
    of any script, digits, `_` and `-` kept), each space a hyphen."""
    shown = re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", heading)  # a link shows its text
    shown = shown.replace("`", "").replace("*", "")
    return re.sub(r"[^\w\- ]", "", shown.strip().lower()).replace(" ", "-")


def anchors(markdown: str) -> set[str]:
    """The anchors of a file's headings; a repeated heading gets -1, -2... as on GitHub."""
    seen: Counter[str] = Counter()
    found = set()
    for heading in HEADING.findall(FENCE.sub("", markdown)):
        name = anchor(heading)
        found.add(name if not seen[name] else f"{name}-{seen[name]}")
        seen[name] += 1
    return found


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` that lead nowhere, each with the reason."""
    broken = []
    for target in relative_links(page.read_text(encoding="utf-8")):
        path, _, fragment = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            broken.append(f"{target}: no such file")
        elif fragment and linked.suffix == ".md":
            if fragment not in anchors(linked.read_text(encoding="utf-8")):
                broken.append(f"{target}: {linked.name} has no heading with that anchor")
    return broken


def docs_linked_from(page: Path) -> set[str]:
    """The files of docs/ that ``page`` links to, anchors left out."""
    linked = set()
    for target in relative_links(page.read_text(encoding="utf-8")):
        path = (page.parent / target.partition("#")[0]).resolve()
        if path.is_relative_to(DOCS):
            linked.add(path.relative_to(ROOT).as_posix())
    return linked


def lessons(readme: Path) -> list[tuple[str, str]]:
    """The lessons table's rows: each lesson's number and its notebook's file name."""
    return LESSON_ROW.findall(readme.read_text(encoding="utf-8"))


# --- the helpers of this test -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("heading", "expected"),
    [
        ("Which torch", "which-torch"),
        ("`helpers.plot`", "helpersplot"),
        ("`helpers.backward_view`", "helpersbackward_view"),
        ("The helpers' language, and answers", "the-helpers-language-and-answers"),
        ("`trace` and `grad`: time", "trace-and-grad-time"),
        ("小工具包 `helpers`", "小工具包-helpers"),
        ("Setup: the lab, forks and CI", "setup-the-lab-forks-and-ci"),
    ],
)
def test_anchor_follows_githubs_rules(heading, expected):
    assert anchor(heading) == expected


def test_a_repeated_heading_gets_a_numbered_anchor():
    assert anchors("# Notes\n\n## Notes\n\n```\n# not a heading\n```\n") == {"notes", "notes-1"}


def test_links_in_code_are_not_links_and_badges_inside_links_are_both_found():
    markdown = (
        "Lists as `[..](..)` are code. [![Open][colab]](notebooks/en/01.ipynb)\n\n"
        "[colab]: https://example.org/badge.svg\n"
    )
    assert links(markdown) == ["notebooks/en/01.ipynb", "https://example.org/badge.svg"]
    assert relative_links(markdown) == ["notebooks/en/01.ipynb"]


def test_a_missing_file_and_a_missing_heading_are_reported(tmp_path):
    (tmp_path / "other.md").write_text("# Other\n\n## Present\n", encoding="utf-8")
    page = tmp_path / "page.md"
    page.write_text(
        "[ok](other.md#present) [gone](missing.md) [wrong](other.md#absent) [here](#page)\n"
        "# Page\n",
        encoding="utf-8",
    )
    assert broken_links(page) == [
        "missing.md: no such file",
        "other.md#absent: other.md has no heading with that anchor",
    ]


# --- the pages ----------------------------------------------------------------------------------


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page):
    assert not broken_links(page)


@pytest.mark.parametrize("readme", READMES, ids=lambda p: p.name)
def test_each_readme_is_read_in_five_minutes(readme):
    size = len(readme.read_bytes())
    assert size < MOST_BYTES, (
        f"{readme.name} is {size:,} bytes, over {MOST_BYTES:,}: move what maintainers need to docs/"
    )


def test_both_readmes_list_the_same_lessons():
    english, chinese = (lessons(readme) for readme in READMES)
    assert len(english) == len(list((ROOT / "notebooks" / "en").glob("[0-9][0-9]_*.ipynb")))
    assert english == chinese


def test_both_readmes_link_the_same_pages_of_docs():
    english, chinese = (docs_linked_from(readme) for readme in READMES)
    assert english == chinese


def test_every_page_of_docs_is_linked_from_the_readme_and_the_index():
    pages = {page.relative_to(ROOT).as_posix() for page in DOCS.glob("*.md")}
    assert pages <= docs_linked_from(READMES[0])
    assert pages - {"docs/README.md"} <= docs_linked_from(DOCS / "README.md")

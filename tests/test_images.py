"""images/: every picture a notebook shows is drawn by tools/make_images.py and is up to date."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tools.make_images import PICTURES
from tools.notebooks import all_notebooks

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "images"


def pictures_shown_by_notebooks() -> set[str]:
    """Names of the images/<name>.png files that markdown cells of the notebooks show.

    A cell carries the picture itself and names its file in the picture's title (see
    tools/embed_pictures.py).
    """
    shown = set()
    for path in all_notebooks():
        for cell in json.loads(path.read_text(encoding="utf-8"))["cells"]:
            if cell["cell_type"] == "markdown":
                shown |= set(re.findall(r"images/([\w.-]+)\.png", "".join(cell["source"])))
    return shown


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_stored_picture_matches_the_code_that_draws_it(name):
    stored = IMAGES / f"{name}.dot"
    assert stored.exists(), f"{stored.name} is missing: run `make images`"
    assert stored.read_text(encoding="utf-8") == PICTURES[name]().source, (
        f"images/{name}.dot is out of date with tools/make_images.py: run `make images`"
    )


@pytest.mark.parametrize("name", sorted(PICTURES))
def test_every_picture_is_stored_as_png(name):
    assert (IMAGES / f"{name}.png").read_bytes().startswith(b"\x89PNG")


def test_the_lessons_need_the_relu_graph_before_and_after_backward():
    assert {"02_relu_graph_before", "02_relu_graph_after"} <= set(PICTURES)


def test_every_picture_a_notebook_shows_is_drawn_by_code():
    assert pictures_shown_by_notebooks() <= set(PICTURES)


def test_every_picture_drawn_by_code_is_shown_by_a_notebook():
    assert set(PICTURES) <= pictures_shown_by_notebooks()


def test_no_stored_picture_is_left_without_its_code():
    assert {path.stem for path in IMAGES.glob("*.dot")} <= set(PICTURES)

"""helpers/graph/: a package whose files follow a picture being made, each using only those before.

A module imports only the modules of the package that come before it in `PIPELINE` (the words
first, then the model, the part of it a picture shows, its layout, its DOT, its rendering, and
the interactive view that shows it), at the top of the file or inside a function: two modules
that import each other would be one concern split in the wrong place. `__init__.py` puts them
together for `draw`, `build` and `explore`.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "helpers" / "graph"
PIPELINE = [
    *("messages", "recording", "model", "names", "modules", "cut", "layout", "dot", "render"),
    "view",
]


def imported_from_the_package(module: str) -> set[str]:
    """The modules of helpers.graph that ``module`` imports, anywhere in its file; "__init__"
    for a name taken from the package itself (``from helpers.graph import draw``)."""
    tree = ast.parse((PACKAGE / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith("helpers.graph") for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module == "helpers.graph":
            found.update(a.name if a.name in PIPELINE else "__init__" for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("helpers.graph."):
            found.add(node.module.removeprefix("helpers.graph."))
    return found


def test_every_file_of_the_package_has_its_place_in_the_pipeline():
    files = {path.stem for path in PACKAGE.glob("*.py")} - {"__init__"}
    assert files == set(PIPELINE)


@pytest.mark.parametrize("module", PIPELINE)
def test_a_module_imports_only_those_before_it_in_the_pipeline(module):
    before = set(PIPELINE[: PIPELINE.index(module)])
    assert imported_from_the_package(module) <= before


def test_the_child_process_that_renders_imports_nothing_of_the_package():
    # It runs render.py by its path: importing the package would import torch first.
    code = (
        "import runpy, sys; runpy.run_path(sys.argv[1]); "
        "print(sorted(m for m in sys.modules if m.startswith(('helpers.graph', 'torch'))))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code, str(PACKAGE / "render.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout.strip() == "[]"

"""The helpers' packages: each a sequence of files, each using only those before it.

In `helpers/graph/` the files follow a picture being made (the words first, then the model, the part
of it a picture shows, its layout, its DOT, its rendering, the options of a picture and the policy
that cuts it, then what the interactive view shows of it: the side panel's content, and `explore`'s
source of pictures); in `helpers/view/` the view itself (its words, what a source gives it, the
widget); in `helpers/plot/` a loss curve (the words said outside a picture, those drawn in it and
their font, the checks of what a plot is given, what both plots draw on their axes, then the two
plots). A module imports only the modules of its package that come before it in `ORDER`, at the top
of the file or inside a function: two modules that import each other would be one concern split in
the wrong place. Each `__init__.py` puts them together. The packages themselves depend in one
direction, `LAYERS`: the view, then the graph, then the backward pass.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

HELPERS = Path(__file__).resolve().parent.parent / "helpers"
ORDER = {
    "graph": [
        *("messages", "captions", "recording", "model", "names", "modules", "cut", "layout", "dot"),
        *("render", "options", "transforms", "policy", "panel", "explore"),
    ],
    "plot": ["messages", "words", "checks", "axes", "finished", "live"],
    "view": ["words", "source", "widget"],
}
# The packages in the order they may use each other: the view draws nothing and knows nothing of
# graphs or traces; the graph shows its pictures in the view; a trace's pictures are graphs.
LAYERS = ["view", "graph", "backward"]
MODULES = [(package, module) for package, modules in ORDER.items() for module in modules]


def imported_from_the_package(package: str, module: str) -> set[str]:
    """The modules of helpers.<package> that ``module`` imports, anywhere in its file;
    "__init__" for a name taken from the package itself (``from helpers.graph import draw``)."""
    name = f"helpers.{package}"
    tree = ast.parse((HELPERS / package / f"{module}.py").read_text(encoding="utf-8"))
    found = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            assert not any(alias.name.startswith(name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module == name:
            found.update(a.name if a.name in ORDER[package] else "__init__" for a in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith(f"{name}."):
            found.add(node.module.removeprefix(f"{name}."))
    return found


@pytest.mark.parametrize("package", ORDER)
def test_every_file_of_the_package_has_its_place_in_the_order(package):
    files = {path.stem for path in (HELPERS / package).glob("*.py")} - {"__init__"}
    assert files == set(ORDER[package])


@pytest.mark.parametrize(("package", "module"), MODULES, ids=[".".join(m) for m in MODULES])
def test_a_module_imports_only_those_before_it_in_its_package(package, module):
    before = set(ORDER[package][: ORDER[package].index(module)])
    assert imported_from_the_package(package, module) <= before


@pytest.mark.parametrize("package", LAYERS)
def test_a_package_imports_none_of_those_after_it(package):
    later = LAYERS[LAYERS.index(package) + 1 :]
    for path in (HELPERS / package).glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            names = (
                [alias.name for alias in node.names]
                if isinstance(node, ast.Import)
                else [node.module or ""]
                if isinstance(node, ast.ImportFrom)
                else []
            )
            for name in names:
                assert not any(
                    name == f"helpers.{other}" or name.startswith(f"helpers.{other}.")
                    for other in later
                ), f"{path.name} imports {name}"


def test_what_modules_share_is_public_inside_the_package():
    # A name imported by another module is part of how the package works: no leading underscore.
    shared = []
    for path in HELPERS.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("helpers"):
                shared += [
                    f"{path.relative_to(HELPERS)}: {node.module}.{alias.name}"
                    for alias in node.names
                    if alias.name.startswith("_") and not alias.name.startswith("__")
                ]
    assert shared == []


# About as much as a reader takes in at one sitting: a module longer than this holds two concerns.
MOST_LINES = 720


def test_no_module_is_longer_than_a_reader_reads_at_one_sitting():
    files = [*HELPERS.rglob("*.py"), *HELPERS.rglob("*.js")]
    long = {
        str(path.relative_to(HELPERS)): lines
        for path in files
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert len(files) > 40 and long == {}


def test_the_order_check_fails_on_a_module_that_imports_one_after_it():
    # helpers.plot.live imports helpers.plot.axes: placed first, it would import a later module.
    assert "axes" in imported_from_the_package("plot", "live")


def test_the_child_process_that_renders_imports_nothing_of_the_package():
    # It runs render.py by its path: importing the package would import torch first.
    code = (
        "import runpy, sys; runpy.run_path(sys.argv[1]); "
        "print(sorted(m for m in sys.modules if m.startswith(('helpers.graph', 'torch'))))"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code, str(HELPERS / "graph" / "render.py")],
        capture_output=True,
        text=True,
        check=True,
    )
    assert ran.stdout.strip() == "[]"

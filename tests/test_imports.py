"""The helpers' modules import one another in one direction only: no two depend on each other.

Two modules that import each other are one concern split in the wrong place. This test reads the
imports of every module of the helpers package from its source, those inside functions too (an
import moved into a function to dodge a cycle still makes one), and names any cycle it finds.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from collections.abc import Collection
from pathlib import Path

HELPERS = Path(__file__).resolve().parent.parent / "helpers"


def module_names(package: Path) -> dict[str, Path]:
    """Every module of the package by its dotted name (``helpers.backward.engine``); a package by
    the name of its ``__init__.py`` (``helpers.backward``)."""
    modules = {}
    for path in sorted(package.rglob("*.py")):
        parts = path.relative_to(package.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        modules[".".join(parts)] = path
    return modules


def imported_by(module: str, path: Path, modules: Collection[str]) -> set[str]:
    """The modules of ``modules`` that ``module`` imports, anywhere in its source.

    ``from package import name`` imports the submodule ``package.name`` when there is one, else
    the package itself. Importing ``package.module`` runs ``package/__init__.py`` first, but that
    is not counted: a package's ``__init__`` that gathers its submodules' names would otherwise
    make a cycle with every submodule that imports a sibling.
    """
    found = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            base = absolute(node, module, is_package=path.name == "__init__.py")
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base
                for alias in node.names
            ]
        else:
            continue
        found.update(target for target in targets if target in modules)
    found.discard(module)
    return found


def absolute(node: ast.ImportFrom, module: str, is_package: bool) -> str:
    """The module a ``from ... import`` names, a relative one (``from . import x``) resolved."""
    if node.level == 0:
        return node.module or ""
    package = module if is_package else module.rpartition(".")[0]
    for _ in range(node.level - 1):
        package = package.rpartition(".")[0]
    return f"{package}.{node.module}" if node.module else package


def import_graph(package: Path) -> dict[str, set[str]]:
    modules = module_names(package)
    return {name: imported_by(name, path, modules) for name, path in modules.items()}


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The cycles a walk of ``graph`` meets, each as its modules in order, the first again at the
    end: ``[a, b, a]``. Empty when no module depends, through others, on itself."""
    found = []
    finished: set[str] = set()
    for start in sorted(graph):
        if start in finished:
            continue
        path = [start]
        unvisited = [iter(sorted(graph[start]))]
        while path:
            following = next(unvisited[-1], None)
            if following is None:  # every import of path[-1] followed
                finished.add(path.pop())
                unvisited.pop()
            elif following in path:
                found.append([*path[path.index(following) :], following])
            elif following not in finished:
                path.append(following)
                unvisited.append(iter(sorted(graph[following])))
    return found


def test_no_two_helper_modules_import_each_other():
    found = cycles(import_graph(HELPERS))
    assert not found, "These helper modules import each other:\n" + "\n".join(
        " → ".join(cycle) for cycle in found
    )


def test_the_check_finds_a_cycle_however_it_is_imported(tmp_path):
    # The test above must be able to fail: a cycle made by any form of import is found.
    package = tmp_path / "helpers"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "model.py").write_text(
        "import torch\n"
        "def show(x):\n"
        "    from helpers import view  # late, inside a function: still a cycle\n"
        "    return view.draw(x)\n"
    )
    (package / "view.py").write_text("from helpers.model import show\n")
    (package / "inner" / "__init__.py").write_text("from .first import a\n")
    (package / "inner" / "first.py").write_text("from ..inner import second\n")
    (package / "inner" / "second.py").write_text("import helpers.inner.first\n")
    found = {tuple(cycle) for cycle in cycles(import_graph(package))}
    assert found == {
        ("helpers.model", "helpers.view", "helpers.model"),
        ("helpers.inner.first", "helpers.inner.second", "helpers.inner.first"),
    }


def test_a_package_whose_modules_import_in_one_direction_has_no_cycle(tmp_path):
    package = tmp_path / "helpers"
    (package / "inner").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "inner" / "__init__.py").write_text("from helpers.inner.top import top\n")
    (package / "inner" / "top.py").write_text("from helpers.inner import bottom\n")
    (package / "inner" / "bottom.py").write_text("import math\n")
    graph = import_graph(package)
    assert graph["helpers.inner.top"] == {"helpers.inner.bottom"}
    assert cycles(graph) == []


def test_a_trace_shows_itself_without_importing_the_view():
    # The record (helpers.backward) does not depend on its pictures (helpers.backward.view).
    # helpers.view, the interactive view, comes with helpers.graph, whose model and names a
    # trace uses; it imports no widget library until a view is shown.
    code = (
        "import sys, torch\n"
        "from helpers.backward import trace\n"
        "w = torch.tensor(2.0, requires_grad=True)\n"
        "steps = trace(torch.relu(w * 3.0))\n"
        "repr(steps), steps._repr_html_()\n"
        "print(sorted(name for name in sys.modules if name in\n"
        "    ('helpers.backward.view', 'helpers.backward_view', 'anywidget', 'ipywidgets')))\n"
    )
    environment = {**os.environ, "PYTHONPATH": str(HELPERS.parent)}
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environment, check=True
    )
    assert result.stdout.strip() == "[]"

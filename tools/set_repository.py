"""Point the collection at another repository: the one command a fork runs.

    .venv/bin/python tools/set_repository.py https://github.com/YOU/YOUR-FORK

The repository address lives in one place, `[project.urls] Repository` in pyproject.toml. Three
things are derived from it and must agree with it (tests/test_setup_cell.py checks that they do):
the setup cell at the top of every notebook, which installs `helpers` from that repository when
the notebook runs in Colab; and the "Open in Colab" and "Launch Binder" badges of the README of
each edition (README.md, README.zh-CN.md). This command rewrites all of them, and nothing else.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
# The README of each edition: its badges open that edition's notebooks.
READMES = {"en": "README.md", "zh": "README.zh-CN.md"}
SOURCE_VARIABLE = "AUTOGRAD_NOTEBOOKS_SOURCE"
LINE_LENGTH = 100  # ruff's line length for this project (pyproject.toml)
# Colab opens notebooks from GitHub only, and Binder's badge here is its GitHub form.
GITHUB_ADDRESS = re.compile(r"https://github\.com/([A-Za-z0-9-]+)/([A-Za-z0-9._-]+?)(?:\.git)?/?")
# Where a README link names the repository as OWNER/NAME.
LINK_PREFIXES = (
    "github.com/",
    "raw.githubusercontent.com/",
    "colab.research.google.com/github/",
    "mybinder.org/v2/gh/",
)


def configured_repository(root: Path = ROOT) -> str:
    """The repository address in pyproject.toml's `[project.urls] Repository`."""
    # Read with a pattern rather than tomllib, which Python 3.10 lacks.
    text = (root / "pyproject.toml").read_text(encoding="utf-8")
    urls = re.search(r"^\[project\.urls\]\n(.*?)(?=^\[|\Z)", text, re.M | re.S)
    found = urls and re.search(r'^Repository\s*=\s*"([^"]+)"', urls.group(1), re.M)
    if not found:
        raise ValueError('pyproject.toml has no `Repository = "..."` under [project.urls].')
    return found.group(1)


def github_slug(address: str) -> str:
    """ "OWNER/NAME" of a GitHub repository address; a clear error for any other address."""
    match = GITHUB_ADDRESS.fullmatch(address.strip())
    if not match:
        raise ValueError(
            f"{address!r} is not a GitHub repository address. Give it as "
            "https://github.com/OWNER/NAME: Colab opens notebooks only from GitHub."
        )
    return f"{match.group(1)}/{match.group(2)}"


# The setup cell's one comment, in the language of each edition (notebooks/en, notebooks/zh).
SETUP_COMMENT = {
    "en": "# Colab only: install this collection's helpers (Colab keeps its own torch). "
    "Elsewhere: nothing.",
    "zh": "# 仅在 Colab 中：安装本课程的 helpers（Colab 保留自带的 torch）。其他环境：什么也不做。",
}


def language_of(notebook: Path) -> str:
    """The edition a notebook belongs to: the name of its folder under notebooks/ ("en", "zh")."""
    return notebook.parent.name if notebook.parent.name in SETUP_COMMENT else "en"


def setup_cell(repository: str, language: str = "en") -> str:
    """The first code cell of every notebook, installing `helpers` from ``repository`` in Colab.

    Laid out as `ruff format` lays it out, so that the notebooks stay lint-clean for a
    repository address of any length. Only its comment differs between the editions.
    """
    source = f'"git+{repository}"'
    arguments = f'        "{SOURCE_VARIABLE}", {source}'
    if len(arguments) > LINE_LENGTH:
        arguments = f'        "{SOURCE_VARIABLE}",\n        {source},'
    return (
        f"{SETUP_COMMENT[language]}\n"
        "import os\n"
        "import subprocess\n"
        "import sys\n"
        "\n"
        'if "google.colab" in sys.modules:\n'
        "    source = os.environ.get(\n"
        f"{arguments}\n"
        "    )\n"
        '    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", source], '
        "check=True)"
    )


def notebooks(root: Path = ROOT) -> list[Path]:
    """Every notebook of the collection, in course order."""
    found = (root / "notebooks").rglob("*.ipynb")
    return sorted(p for p in found if ".ipynb_checkpoints" not in p.parts)


def colab_link(repository: str, notebook: str, branch: str = "main") -> str:
    """The address that opens ``notebook`` (a path in the repository) in Colab."""
    return f"https://colab.research.google.com/github/{github_slug(repository)}/blob/{branch}/{notebook}"


def binder_link(repository: str, notebook: str) -> str:
    """The address that builds the repository on Binder and opens ``notebook`` in JupyterLab."""
    return f"https://mybinder.org/v2/gh/{github_slug(repository)}/HEAD?urlpath=lab/tree/{notebook}"


def _first_code_cell(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    for cell in notebook.cells:
        if cell.cell_type == "code":
            return cell
    raise ValueError("the notebook has no code cell, so no setup cell")


def _rewrite_pyproject(path: Path, old: str, new: str) -> bool:
    text = path.read_text(encoding="utf-8")
    pattern = re.compile(rf'^(Repository\s*=\s*"){re.escape(old)}(")', re.M)
    updated = pattern.sub(lambda m: f"{m.group(1)}{new}{m.group(2)}", text)
    path.write_text(updated, encoding="utf-8")
    return updated != text


def _rewrite_notebook(path: Path, new: str) -> bool:
    notebook = nbformat.read(path, as_version=4)
    cell = _first_code_cell(notebook)
    wanted = setup_cell(new, language_of(path))
    if cell.source == wanted:
        return False
    if "google.colab" not in cell.source:
        raise ValueError(f"{path}: the first code cell is not the Colab setup cell; fix it first.")
    cell.source = wanted
    nbformat.write(notebook, path)
    return True


def _rewrite_readme(path: Path, old: str, new: str) -> bool:
    if not path.exists() or not GITHUB_ADDRESS.fullmatch(old):
        return False
    text = path.read_text(encoding="utf-8")
    prefixes = "|".join(re.escape(prefix) for prefix in LINK_PREFIXES)
    pattern = re.compile(rf"({prefixes}){re.escape(github_slug(old))}(?=[/?#)\"'\s]|$)")
    updated = pattern.sub(lambda m: m.group(1) + github_slug(new), text)
    path.write_text(updated, encoding="utf-8")
    return updated != text


def set_repository(new: str, root: Path = ROOT) -> list[Path]:
    """Make ``new`` the repository address everywhere; return the files that changed."""
    github_slug(new)  # refuse an address Colab and Binder cannot use before changing anything
    new = new.strip().rstrip("/").removesuffix(".git")
    old = configured_repository(root)
    changed = []
    if _rewrite_pyproject(root / "pyproject.toml", old, new):
        changed.append(root / "pyproject.toml")
    if old != new and configured_repository(root) != new:
        raise ValueError('pyproject.toml: could not find the `Repository = "..."` line to change.')
    changed += [path for path in notebooks(root) if _rewrite_notebook(path, new)]
    for readme in READMES.values():
        if _rewrite_readme(root / readme, old, new):
            changed.append(root / readme)
    return changed


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("address", help="the new repository, e.g. https://github.com/YOU/YOUR-FORK")
    args = parser.parse_args(argv)
    try:
        changed = set_repository(args.address)
    except ValueError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    for path in changed:
        print(f"updated {path.relative_to(ROOT)}")
    print(f"The repository is now {configured_repository()}." if changed else "Nothing to change.")
    return 0


if __name__ == "__main__":
    sys.exit(main())

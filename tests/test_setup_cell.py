"""The Colab setup cell, and the one repository address it and the README's badges derive from."""

import json
import re
import shutil
import subprocess
import sys
import types

import pytest

from tools.set_repository import (
    READMES,
    ROOT,
    binder_link,
    colab_link,
    configured_repository,
    github_slug,
    language_of,
    notebooks,
    set_repository,
    setup_cell,
)

NOTEBOOKS = notebooks()
LONG_ADDRESS = (
    "https://github.com/a-teacher-with-a-long-name/autograd-notebooks-for-the-spring-course"
)


def first_code_cell_source(path):
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "".join(next(c for c in cells if c["cell_type"] == "code")["source"])


def run_setup_cell(source=None):
    exec(compile(source or setup_cell(configured_repository()), "<setup cell>", "exec"), {})


@pytest.fixture
def pip_calls(monkeypatch):
    """Record the commands the cell runs instead of running them."""
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda command, **options: calls.append(command))
    return calls


@pytest.fixture
def in_colab(monkeypatch):
    # Colab's kernel has imported google.colab before any cell runs; that is what the cell tests.
    monkeypatch.setitem(sys.modules, "google.colab", types.ModuleType("google.colab"))
    monkeypatch.delenv("AUTOGRAD_NOTEBOOKS_SOURCE", raising=False)


# --- the cell in the notebooks -----------------------------------------------------------------


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_notebook_starts_with_the_setup_cell_for_the_configured_repository(path):
    assert first_code_cell_source(path) == setup_cell(configured_repository(), language_of(path)), (
        "the first code cell differs from the setup cell: run "
        "`.venv/bin/python tools/set_repository.py <repository address>` to rewrite it"
    )


def test_setup_cell_outside_colab_runs_nothing_and_prints_nothing(pip_calls, monkeypatch, capsys):
    monkeypatch.delitem(sys.modules, "google.colab", raising=False)
    run_setup_cell()
    assert pip_calls == []
    assert capsys.readouterr() == ("", "")


def test_setup_cell_in_colab_installs_helpers_from_the_configured_repository(pip_calls, in_colab):
    run_setup_cell()
    source = f"git+{configured_repository()}"
    assert pip_calls == [[sys.executable, "-m", "pip", "install", "--quiet", source]]


def test_setup_cell_in_colab_installs_from_the_source_variable_when_it_is_set(
    pip_calls, in_colab, monkeypatch
):
    monkeypatch.setenv("AUTOGRAD_NOTEBOOKS_SOURCE", "/checkout")
    run_setup_cell()
    assert pip_calls == [[sys.executable, "-m", "pip", "install", "--quiet", "/checkout"]]


@pytest.mark.parametrize("language", ["en", "zh"])
@pytest.mark.parametrize(
    "address", [configured_repository(), LONG_ADDRESS], ids=["configured", "long"]
)
def test_setup_cell_passes_ruff_for_any_repository_address(address, language, tmp_path):
    cell = tmp_path / "setup_cell.py"
    cell.write_text(setup_cell(address, language) + "\n", encoding="utf-8")
    ruff = [sys.executable, "-m", "ruff", "--config", str(ROOT / "pyproject.toml")]
    for command in (["check", "--quiet"], ["format", "--check", "--quiet"]):
        result = subprocess.run(ruff + command + [str(cell)], capture_output=True, text=True)
        assert result.returncode == 0, result.stdout + result.stderr


def test_setup_cell_for_a_long_address_still_installs_from_it(pip_calls, in_colab):
    run_setup_cell(setup_cell(LONG_ADDRESS))
    assert pip_calls[0][-1] == f"git+{LONG_ADDRESS}"


# --- the README's badges -----------------------------------------------------------------------

README = ROOT / "README.md"


def readme_of(notebook) -> str:
    """The README whose table lists ``notebook``: the one of its edition."""
    return (ROOT / READMES[language_of(notebook)]).read_text(encoding="utf-8")


# The badges' links name the repository as OWNER/NAME; a link to another project may name another.
BADGE_LINK = re.compile(
    r"(?:colab\.research\.google\.com/github|mybinder\.org/v2/gh)/([\w.-]+/[\w.-]+)"
)


@pytest.mark.parametrize("readme", list(READMES.values()))
def test_every_colab_and_binder_link_in_the_readme_names_the_configured_repository(readme):
    slugs = set(BADGE_LINK.findall((ROOT / readme).read_text(encoding="utf-8")))
    assert slugs <= {github_slug(configured_repository())}


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.stem}")
def test_readme_has_an_open_in_colab_badge_for_the_notebook(path):
    link = colab_link(configured_repository(), path.relative_to(ROOT).as_posix())
    assert f"]({link})" in readme_of(path), f"missing: {link}"


@pytest.mark.parametrize("language", list(READMES))
def test_readme_has_a_launch_binder_badge_that_opens_the_first_notebook(language):
    first = next(p for p in NOTEBOOKS if language_of(p) == language)
    link = binder_link(configured_repository(), first.relative_to(ROOT).as_posix())
    assert f"]({link})" in readme_of(first), f"missing: {link}"


# --- tools/set_repository.py -------------------------------------------------------------------


FORK = "https://github.com/a-fork/autograd-course"
OTHER_PROJECT = "https://github.com/pytorch/pytorch"


@pytest.fixture
def checkout(tmp_path):
    """The files set_repository rewrites, copied, with a README holding every kind of link."""
    shutil.copy(ROOT / "pyproject.toml", tmp_path / "pyproject.toml")
    shutil.copytree(ROOT / "notebooks", tmp_path / "notebooks")
    repository, first = configured_repository(), "notebooks/en/01_autograd_basics.ipynb"
    for readme in READMES.values():
        (tmp_path / readme).write_text(
            f"[![Open in Colab](badge.svg)]({colab_link(repository, first)})\n"
            f"[![Launch Binder](badge.svg)]({binder_link(repository, first)})\n"
            f"Fork [the repository]({repository}); read [PyTorch]({OTHER_PROJECT}).\n"
        )
    return tmp_path


def snapshot(root):
    return {p.relative_to(root): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def test_set_repository_rewrites_pyproject_every_setup_cell_and_the_readme_links(checkout):
    set_repository(FORK, checkout)
    assert configured_repository(checkout) == FORK
    for path in notebooks(checkout):
        assert first_code_cell_source(path) == setup_cell(FORK, language_of(path))
    first = "notebooks/en/01_autograd_basics.ipynb"
    for readme in READMES.values():
        assert (checkout / readme).read_text() == (
            f"[![Open in Colab](badge.svg)]({colab_link(FORK, first)})\n"
            f"[![Launch Binder](badge.svg)]({binder_link(FORK, first)})\n"
            f"Fork [the repository]({FORK}); read [PyTorch]({OTHER_PROJECT}).\n"
        )


def test_set_repository_changes_only_the_setup_cells_of_the_notebooks(checkout):
    before = {p: json.loads(p.read_text()) for p in notebooks(checkout)}
    set_repository(FORK, checkout)
    for path, old in before.items():
        new = json.loads(path.read_text())
        setup = next(i for i, c in enumerate(old["cells"]) if c["cell_type"] == "code")
        old["cells"][setup].pop("source")
        new["cells"][setup].pop("source")
        assert new == old


def test_set_repository_to_the_configured_address_changes_no_file(checkout):
    before = snapshot(checkout)
    assert set_repository(configured_repository(checkout), checkout) == []
    assert snapshot(checkout) == before


def test_set_repository_refuses_an_address_colab_cannot_open_and_changes_nothing(checkout):
    before = snapshot(checkout)
    with pytest.raises(ValueError, match="https://github.com/OWNER/NAME"):
        set_repository("https://gitlab.com/a-fork/autograd-course", checkout)
    assert snapshot(checkout) == before

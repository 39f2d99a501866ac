"""Hygiene of the stored notebooks: names, kernels, one fresh run each, errors only where tagged."""

import json
import re

import pytest

from tools.notebooks import all_notebooks

NOTEBOOKS = all_notebooks()
SETUP_MARKER = "google.colab"


def code_cells(notebook):
    return [
        c for c in notebook["cells"] if c["cell_type"] == "code" and "".join(c["source"]).strip()
    ]


def load(path):
    return json.loads(path.read_text(encoding="utf-8"))


def test_there_are_notebooks():
    assert NOTEBOOKS, "no notebooks found under notebooks/"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_file_name_is_two_digits_and_snake_case(path):
    assert re.fullmatch(r"\d\d_[a-z0-9]+(_[a-z0-9]+)*\.ipynb", path.name), path.name


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_kernel_is_python3(path):
    kernelspec = load(path)["metadata"].get("kernelspec", {})
    assert kernelspec.get("name") == "python3" and kernelspec.get("language") == "python"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_stored_as_one_fresh_run_top_to_bottom(path):
    counts = [cell.get("execution_count") for cell in code_cells(load(path))]
    assert counts == list(range(1, len(counts) + 1)), f"re-run `make outputs`: counts {counts}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_errors_only_in_cells_tagged_raises_exception(path):
    for cell in code_cells(load(path)):
        tagged = "raises-exception" in cell.get("metadata", {}).get("tags", [])
        errors = [o for o in cell.get("outputs", []) if o["output_type"] == "error"]
        if tagged:
            assert errors, f"cell tagged raises-exception shows no error: {cell['source'][:1]}"
        else:
            assert not errors, f"untagged cell ends in an error: {errors[0]['ename']}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_first_cell_is_a_title_and_first_code_cell_is_the_setup_cell(path):
    notebook = load(path)
    first = notebook["cells"][0]
    assert first["cell_type"] == "markdown" and "".join(first["source"]).startswith("# ")
    assert SETUP_MARKER in "".join(code_cells(notebook)[0]["source"])


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: f"{p.parent.name}-{p.name}")
def test_no_volatile_metadata_is_stored(path):
    notebook = load(path)
    assert "widgets" not in notebook["metadata"]
    for cell in notebook["cells"]:
        assert "execution" not in cell.get("metadata", {}), "timings stored: run `make outputs`"

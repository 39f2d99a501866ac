"""tests/nbval_sanitize.cfg: what nbval may ignore when it compares outputs, and nothing more.

The stored outputs come from a Linux machine; the notebooks are also compared on macOS and
Windows (the CI workflow) and on machines with another temporary folder. A fresh run of a
notebook, sanitized, must read exactly as its stored outputs, sanitized.
"""

import json
import re

import nbformat
import pytest
from local_lab import ROOT
from nbval.plugin import get_sanitize_patterns

from tools.notebooks import execute, strip_volatile

SANITIZE = ROOT / "tests" / "nbval_sanitize.cfg"
# A notebook whose compared outputs hold warnings that name ipykernel's cell files, and that
# runs in seconds. (Lesson 02's warnings, which PyTorch words differently by version, are not
# compared.)
WARNING_NOTEBOOK = ROOT / "notebooks" / "en" / "07_legacy_variable_api.ipynb"
PICTURES = ("image/png", "image/svg+xml", "image/jpeg")


def sanitize(text: str) -> str:
    """``text`` as nbval compares it: the file read by nbval's own reader, applied in order."""
    for regex, replace in get_sanitize_patterns(SANITIZE.read_text(encoding="utf-8")):
        text = re.sub(regex, replace, text)
    return text


CELL_FILES = [
    "/tmp/ipykernel_450/40657554.py:1",  # Linux
    "/var/folders/x7/k2_8l3b90qs5tdn2wz5hbxk80000gn/T/ipykernel_8123/40657554.py:1",  # macOS
    r"C:\Users\RUNNER~1\AppData\Local\Temp\ipykernel_5120\40657554.py:1",  # Windows
    "/home/learner/my temp/ipykernel_77/40657554.py:1",  # TMPDIR set, with a space
]


@pytest.mark.parametrize("cell_file", CELL_FILES)
def test_ipykernels_cell_file_reads_the_same_in_every_temporary_folder(cell_file):
    warning = f"{cell_file}: UserWarning: The .grad attribute of a Tensor that is not a leaf"
    assert sanitize(warning) == "IPYKERNEL_CELL: UserWarning: The .grad attribute of a Tensor " + (
        "that is not a leaf"
    )


def test_the_build_path_pytorch_names_in_a_warning_is_ignored():
    linux = (
        "(Triggered internally at /__w/pytorch/pytorch/build/aten/src/ATen/core/TensorBody.h:493.)"
    )
    windows = r"(Triggered internally at C:\actions-runner\_work\pytorch\aten\TensorBody.h:494.)"
    assert sanitize(linux) == sanitize(windows)


def test_numbers_words_and_the_lines_around_a_warning_are_compared():
    text = "loss 2.94e+07, w.grad = tensor([3.]) at step 12"
    assert sanitize(text) == text
    warning = f"w.grad = None\n{CELL_FILES[0]}: UserWarning: not a leaf\n  print(w.grad)"
    assert (
        sanitize(warning)
        == "w.grad = None\nIPYKERNEL_CELL: UserWarning: not a leaf\n  print(w.grad)"
    )


def _compared(notebook: nbformat.NotebookNode) -> list:
    """What nbval compares of each code cell's outputs: texts sanitized, pictures by type only."""
    cells = []
    for cell in notebook.cells:
        if cell.cell_type != "code":
            continue
        if "nbval-ignore-output" in cell.metadata.get("tags", []):
            cells.append(None)  # nbval runs it, and compares nothing of what it shows
            continue
        outputs = []
        for output in cell.outputs:
            # nbval skips an error's traceback (its file paths name the machine) and compares
            # its ename and evalue.
            shown = {k: v for k, v in output.items() if k not in ("data", "metadata", "traceback")}
            data = output.get("data", {})
            shown["data"] = {kind: data[kind] for kind in data if kind not in PICTURES}
            shown["pictures"] = sorted(kind for kind in data if kind in PICTURES)
            outputs.append(sanitize(json.dumps(shown, sort_keys=True, ensure_ascii=False)))
        cells.append(outputs)
    return cells


def test_a_fresh_run_elsewhere_matches_the_stored_outputs_once_sanitized(tmp_path, monkeypatch):
    # What `make outputs` does, with the system's temporary folder moved, as on macOS or
    # Windows: the kernel writes its cell files there, and the warnings name them.
    elsewhere = tmp_path / "another temporary folder"
    elsewhere.mkdir()
    monkeypatch.setenv("TMPDIR", str(elsewhere))
    fresh = strip_volatile(execute(WARNING_NOTEBOOK))
    stored = nbformat.read(WARNING_NOTEBOOK, as_version=4)
    assert "ipykernel_" in nbformat.writes(stored), "the notebook no longer shows a warning"
    assert _compared(fresh) == _compared(stored)
    assert fresh.metadata == stored.metadata
    assert [cell.metadata for cell in fresh.cells] == [cell.metadata for cell in stored.cells]

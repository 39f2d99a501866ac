"""Colab: a notebook runs there from its setup cell alone, with Colab's own torch, and shows its
pictures.

The slow test builds a stand-in for Colab: a fresh virtual environment holding what Colab
preinstalls and this collection needs (torch, numpy, a kernel) but not `helpers`, and a kernel
that has imported a stand-in `google.colab` module, as Colab's kernel has. The setup cell's
install source is pointed at a copy of this checkout through AUTOGRAD_NOTEBOOKS_SOURCE (in Colab
it is the repository). A graph notebook then runs top to bottom with nbclient. Run it alone with
`pytest -m colab`; it needs the package index, as Colab does, for what the setup cell installs.
"""

from __future__ import annotations

import base64
import json
import re
import subprocess
import venv
from dataclasses import dataclass
from pathlib import Path

import nbformat
import pytest
from local_lab import ROOT, copy_repository

from tools.attachments import attachment_name, update_notebook
from tools.set_repository import notebooks

NOTEBOOKS = notebooks()
LOCK = ROOT / "requirements.lock"
# What Colab has that matters here: its own torch (the lock's version stands in for it), numpy,
# and a Jupyter kernel. Everything else the setup cell must bring.
PREINSTALLED = ["torch", "numpy", "ipykernel"]
STAND_IN_COLAB = '"""A stand-in for Colab\'s google.colab module: its presence is what counts."""\n'
CELL_TIMEOUT_SECONDS = 600


def _code(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def graph_notebook() -> Path:
    """The first notebook that draws with helpers.graph (else the first notebook)."""
    drawing = [p for p in NOTEBOOKS if re.search(r"\bhelpers\.graph\b", _code(p))]
    return (drawing or NOTEBOOKS)[0]


# --- helpers' requirements admit Colab's torch --------------------------------------------------


def test_helpers_require_torch_as_an_open_range_so_colab_keeps_its_own():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    dependencies = re.search(r"^dependencies = \[(.*?)^\]", pyproject, re.M | re.S).group(1)
    torch = re.search(r'"torch\s*([^"]*)"', dependencies).group(1)
    assert re.fullmatch(r">=\s*2(\.\d+){1,2}", torch), f"torch{torch}: give a lower bound only"


def test_the_lock_pins_torch_so_the_range_never_pulls_another_here():
    pins = re.findall(r"^torch==(\S+)$", LOCK.read_text(encoding="utf-8"), re.M)
    assert len(pins) == 1


# --- the notebook in a stand-in for Colab --------------------------------------------------------


@dataclass
class ColabRun:
    helpers_before: bool
    error: str | None  # what stopped the notebook, if anything did
    helpers_origin: str | None  # where pip says helpers was installed from
    torch_before: tuple[str, int]
    torch_after: tuple[str, int]


def _python(environment: Path) -> Path:
    return environment / "bin" / "python"


def _probe(python: Path, code: str) -> str:
    # Run from the environment's folder: from the checkout, `import helpers` would find its source.
    result = subprocess.run(
        [python, "-c", code], capture_output=True, text=True, cwd=python.parent.parent
    )
    return result.stdout.strip() if result.returncode == 0 else ""


def _torch_install(python: Path) -> tuple[str, int]:
    """torch's version and when its files were written: a reinstall changes the second."""
    code = (
        "import importlib.metadata as m, os; d = m.distribution('torch'); "
        "print(d.version, os.stat(d._path).st_mtime_ns)"
    )
    version, written = _probe(python, code).split()
    return version, int(written)


def _helpers_origin(python: Path) -> str | None:
    code = (
        "import importlib.metadata as m; "
        "print(m.distribution('autograd-notebooks').read_text('direct_url.json'))"
    )
    found = _probe(python, code)
    return json.loads(found)["url"] if found and found != "None" else None


def _kernel_spec(work: Path, python: Path, checkout: Path) -> Path:
    """A kernel in the stand-in environment whose IPython imports google.colab at start."""
    stand_in = work / "stand-in"
    (stand_in / "google" / "colab").mkdir(parents=True)
    (stand_in / "google" / "colab" / "__init__.py").write_text(STAND_IN_COLAB)
    startup = work / "ipython" / "profile_default" / "startup"
    startup.mkdir(parents=True)
    (startup / "00-colab.py").write_text("import google.colab  # noqa: F401\n")
    spec_dir = work / "kernels" / "colab"
    spec_dir.mkdir(parents=True)
    spec = {
        "argv": [str(python), "-m", "ipykernel_launcher", "-f", "{connection_file}"],
        "display_name": "Colab stand-in",
        "language": "python",
        "env": {
            "PYTHONPATH": str(stand_in),
            "IPYTHONDIR": str(work / "ipython"),
            "AUTOGRAD_NOTEBOOKS_SOURCE": str(checkout),
            # What the setup cell installs takes the validated versions, not whatever is newest.
            "PIP_CONSTRAINT": str(LOCK),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        },
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    return spec_dir.parent


def _run_notebook(path: Path, kernels: Path) -> str | None:
    from jupyter_client.kernelspec import KernelSpecManager
    from jupyter_client.manager import KernelManager
    from nbclient import NotebookClient
    from nbclient.exceptions import CellExecutionError

    notebook = nbformat.read(path, as_version=4)
    specs = KernelSpecManager(kernel_dirs=[str(kernels)])
    manager = KernelManager(kernel_name="colab", kernel_spec_manager=specs)
    client = NotebookClient(
        notebook,
        km=manager,
        timeout=CELL_TIMEOUT_SECONDS,
        resources={"metadata": {"path": str(path.parent)}},
    )
    try:
        client.execute()
    except CellExecutionError as error:
        return str(error)
    return None


@pytest.fixture(scope="module")
def colab_run(tmp_path_factory) -> ColabRun:
    work = tmp_path_factory.mktemp("colab")
    checkout = copy_repository(work / "checkout")
    environment = work / "environment"
    venv.create(environment, with_pip=True)
    python = _python(environment)
    install = [python, "-m", "pip", "install", "--quiet", "--disable-pip-version-check"]
    subprocess.run([*install, "--constraint", LOCK, *PREINSTALLED], check=True)
    helpers_before = _probe(python, "import helpers; print('found')") == "found"
    torch_before = _torch_install(python)
    kernels = _kernel_spec(work, python, checkout)
    notebook = checkout / graph_notebook().relative_to(ROOT)
    error = _run_notebook(notebook, kernels)
    return ColabRun(
        helpers_before, error, _helpers_origin(python), torch_before, _torch_install(python)
    )


@pytest.mark.colab
def test_stand_in_for_colab_starts_without_helpers(colab_run):
    assert not colab_run.helpers_before


@pytest.mark.colab
def test_graph_notebook_runs_top_to_bottom_in_the_stand_in_for_colab(colab_run):
    assert colab_run.error is None, colab_run.error


@pytest.mark.colab
def test_setup_cell_installs_helpers_from_the_source_it_is_given(colab_run):
    assert colab_run.helpers_origin is not None, "helpers was not installed"
    assert colab_run.helpers_origin.startswith("file://")
    assert colab_run.helpers_origin.endswith("/checkout")


@pytest.mark.colab
def test_setup_cell_keeps_colabs_own_torch(colab_run):
    assert colab_run.torch_after == colab_run.torch_before


# --- pictures in markdown cells show in Colab ---------------------------------------------------

PICTURE_TARGET = re.compile(r"!\[[^\]]*\]\(\s*<?([^)\s>]+)|<img\b[^>]*?\bsrc=[\"']([^\"']+)")


def _markdown_cells(path: Path) -> list[dict]:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return [c for c in cells if c["cell_type"] == "markdown"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_markdown_pictures_are_attachments_or_full_addresses(path):
    # Colab opens the .ipynb alone: a relative link such as ../../images/x.png finds nothing.
    for cell in _markdown_cells(path):
        for match in PICTURE_TARGET.finditer("".join(cell["source"])):
            target = match.group(1) or match.group(2)
            assert re.match(r"^(attachment:|https://|data:)", target), (
                f"{target} will not show in Colab: run `make images` to attach it to the notebook"
            )


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_attached_pictures_are_the_current_files_in_images(path):
    for cell in _markdown_cells(path):
        for name, bundle in cell.get("attachments", {}).items():
            picture = ROOT / "images" / name
            assert picture.is_file(), f"{name} is attached but images/{name} does not exist"
            (data,) = bundle.values()
            assert base64.b64decode(data) == picture.read_bytes(), (
                f"the attached {name} is older than images/{name}: run `make images`"
            )


def _notebook_with(tmp_path: Path, markdown: str) -> Path:
    path = tmp_path / "notebooks" / "en" / "99_pictures.ipynb"
    path.parent.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(markdown)])
    nbformat.write(notebook, path)
    return path


@pytest.fixture
def images(tmp_path) -> Path:
    folder = tmp_path / "images"
    folder.mkdir()
    (folder / "graph.png").write_bytes(b"\x89PNG first drawing")
    return folder


def test_attaching_rewrites_a_relative_link_into_images_and_stores_the_file(tmp_path, images):
    path = _notebook_with(tmp_path, "Look:\n\n![the graph](../../images/graph.png)")
    assert update_notebook(path, images)
    cell = nbformat.read(path, as_version=4).cells[0]
    assert cell.source == "Look:\n\n![the graph](attachment:graph.png)"
    assert base64.b64decode(cell.attachments["graph.png"]["image/png"]) == b"\x89PNG first drawing"


def test_attaching_again_copies_a_redrawn_picture_and_otherwise_changes_nothing(tmp_path, images):
    path = _notebook_with(tmp_path, "![the graph](../../images/graph.png)")
    update_notebook(path, images)
    assert not update_notebook(path, images)
    (images / "graph.png").write_bytes(b"\x89PNG second drawing")
    assert update_notebook(path, images)
    cell = nbformat.read(path, as_version=4).cells[0]
    assert base64.b64decode(cell.attachments["graph.png"]["image/png"]) == b"\x89PNG second drawing"


def test_attaching_leaves_web_addresses_alone_and_drops_attachments_no_link_uses(tmp_path, images):
    path = _notebook_with(tmp_path, "![logo](https://example.org/logo.png)")
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[0].attachments = {"old.png": {"image/png": "AAAA"}}
    nbformat.write(notebook, path)
    assert update_notebook(path, images)
    cell = nbformat.read(path, as_version=4).cells[0]
    assert cell.source == "![logo](https://example.org/logo.png)"
    assert "attachments" not in cell


def test_attaching_a_picture_missing_from_images_says_to_run_make_images(tmp_path, images):
    path = _notebook_with(tmp_path, "![gone](../../images/gone.png)")
    with pytest.raises(FileNotFoundError, match="make images"):
        update_notebook(path, images)


def test_attachment_name_is_given_only_for_files_in_images(tmp_path, images):
    notebook = tmp_path / "notebooks" / "en" / "01.ipynb"
    assert attachment_name("../../images/graph.png", notebook, images) == "graph.png"
    assert attachment_name("attachment:graph.png", notebook, images) == "graph.png"
    assert attachment_name("pictures/graph.png", notebook, images) is None
    assert attachment_name("https://example.org/graph.png", notebook, images) is None

"""Colab: a notebook runs there from its setup cell alone, with Colab's own torch, and shows its
pictures.

The slow test builds a stand-in for Colab: a fresh virtual environment that already has what
Colab preinstalls and this collection needs (torch, numpy, a kernel) but not `helpers`, and a
kernel that has imported a stand-in `google.colab` module, as Colab's kernel has. Its torch is
the one installed here, shared rather than downloaded again, as Colab's is there before any cell
runs, and ipywidgets at the version of Colab's runtime (7). The setup cell's install source is
pointed at a copy of this checkout through AUTOGRAD_NOTEBOOKS_SOURCE (in Colab it is the
repository). The first notebook that draws a graph and the first with a backward-step slider
then run top to bottom with nbclient, and so does a small notebook that explores a graph with
`helpers.graph.explore` (the setup cell, then the view of a recorded model), whose output must
carry the widget (anywidget, on Colab's ipywidgets 7) and the picture for where it cannot run.
Run it alone with `pytest -m colab`; it needs the package index, as Colab does, for what the
setup cell installs (matplotlib, Graphviz's bindings, anywidget).

The fast tests read every markdown cell of every notebook for pictures Colab cannot show.
"""

from __future__ import annotations

import base64
import importlib.metadata
import json
import re
import subprocess
import sysconfig
import venv
from dataclasses import dataclass
from html.parser import HTMLParser
from pathlib import Path

import mistune
import nbformat
import pytest
from local_lab import ROOT, copy_repository
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from tools.embed_pictures import source_name, update_notebook
from tools.set_repository import notebooks

NOTEBOOKS = notebooks()
REQUIREMENTS = ROOT / "requirements.txt"
# What Colab has that matters here: its own torch (the one installed here stands in for it),
# numpy, and a Jupyter kernel. Everything else the setup cell must bring.
PREINSTALLED = ["torch", "numpy", "ipykernel"]
# Installed in the stand-in at the version Colab's runtime has: its page runs ipywidgets 7, and
# the backward-step slider must work with it. The setup cell must keep it.
COLAB_VERSIONS = {"ipywidgets": "7.7.1"}
STAND_IN_COLAB = '"""A stand-in for Colab\'s google.colab module: its presence is what counts."""\n'
CELL_TIMEOUT_SECONDS = 600


def _code(path: Path) -> str:
    cells = json.loads(path.read_text(encoding="utf-8"))["cells"]
    return "\n".join("".join(c["source"]) for c in cells if c["cell_type"] == "code")


def graph_notebook() -> Path:
    """The first notebook that draws with helpers.graph (else the first notebook)."""
    drawing = [p for p in NOTEBOOKS if re.search(r"\bhelpers\.graph\b", _code(p))]
    return (drawing or NOTEBOOKS)[0]


def slider_notebook() -> Path:
    """The first notebook with a backward-step slider (step_through), a widget."""
    return next(p for p in NOTEBOOKS if re.search(r"\bstep_through\(", _code(p)))


# --- helpers' requirements admit Colab's torch --------------------------------------------------


def test_helpers_require_torch_as_an_open_range_so_colab_keeps_its_own():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    dependencies = re.search(r"^dependencies = \[(.*?)^\]", pyproject, re.M | re.S).group(1)
    torch = re.search(r'"torch\s*([^"]*)"', dependencies).group(1)
    assert re.fullmatch(r">=\s*2(\.\d+){1,2}", torch), f"torch{torch}: give a lower bound only"


def test_the_requirements_pin_torch_so_the_range_never_pulls_another_here():
    pins = re.findall(r"^torch==(\S+)$", REQUIREMENTS.read_text(encoding="utf-8"), re.M)
    assert len(pins) == 1


# --- the notebook in a stand-in for Colab --------------------------------------------------------


# The notebook that explores a graph in the stand-in: the setup cell of the graph notebook, then
# a recorded model's view.
EXPLORE = """\
import torch
from torch import nn

from helpers.graph import explore, recording

model = nn.Sequential(*[nn.Sequential(nn.LayerNorm(8), nn.Linear(8, 8)) for _ in range(6)])
x = torch.randn(3, 8, requires_grad=True)
with recording(model):
    loss = model(x).pow(2).mean()
loss.backward()
explore(loss)
"""
# Then a backward pass played as questions in the same view (step_through(..., predict=True)).
PREDICT = """\
import torch

from helpers.backward import trace
from helpers.backward_view import step_through

w = torch.tensor(2.0, requires_grad=True)
a = torch.relu(w * 3.0 + 1.0)
step_through(trace(a), predict=True)
"""


def _explore_notebook(folder: Path) -> Path:
    setup = next(
        cell
        for cell in nbformat.read(graph_notebook(), as_version=4).cells
        if cell.cell_type == "code"
    )
    cells = [setup, nbformat.v4.new_code_cell(EXPLORE), nbformat.v4.new_code_cell(PREDICT)]
    notebook = nbformat.v4.new_notebook(cells=cells)
    notebook.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3"}
    path = folder / "explore.ipynb"
    nbformat.write(notebook, path)
    return path


@dataclass
class ColabRun:
    helpers_before: bool
    errors: dict[str, str | None]  # per notebook run, what stopped it, if anything did
    helpers_origin: str | None  # where pip says helpers was installed from
    torch_before: tuple[str, int]
    torch_after: tuple[str, int]
    ipywidgets_after: str
    explored: dict  # the view's output: its data, by MIME type
    predicted: dict  # the output of a pass played as questions in the view, likewise


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


def _constraints(work: Path) -> Path:
    """requirements.txt's pins, but for what the stand-in has at Colab's own versions and what
    Colab preinstalls: its torch is whichever runs these tests (`make compat` runs them with
    another torch than the pin), and the setup cell must keep it."""
    own = [*COLAB_VERSIONS, *PREINSTALLED]
    kept = [
        line
        for line in REQUIREMENTS.read_text(encoding="utf-8").splitlines()
        if not any(re.match(rf"{name}\b", line) for name in own)
    ]
    path = work / "constraints.txt"
    path.write_text("\n".join(kept) + "\n", encoding="utf-8")
    return path


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
            "PIP_CONSTRAINT": str(_constraints(work)),
            "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        },
    }
    (spec_dir / "kernel.json").write_text(json.dumps(spec))
    return spec_dir.parent


def _run_notebook(path: Path, kernels: Path) -> str | None:
    """Run the notebook at ``path`` in the stand-in, saving its outputs there; what stopped it."""
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
    finally:
        nbformat.write(notebook, path)
    return None


def _installed_with_dependencies(names: list[str]) -> list[importlib.metadata.Distribution]:
    """The installed distributions ``names`` and everything they require, here."""
    found: dict[str, importlib.metadata.Distribution] = {}
    waiting = list(names)
    while waiting:
        name = canonicalize_name(waiting.pop())
        if name in found:
            continue
        try:
            distribution = importlib.metadata.distribution(name)
        except importlib.metadata.PackageNotFoundError:
            continue  # required only on another platform, or optional
        found[name] = distribution
        for text in distribution.requires or []:
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate({"extra": ""}):
                waiting.append(requirement.name)
    return list(found.values())


def _share_preinstalled(environment: Path, folder: Path) -> None:
    """Make PREINSTALLED, as installed here, importable in ``environment`` without copying it.

    ``folder`` gets a link to each of their top-level files and folders, and a .pth file puts it
    on the environment's path, after its own site-packages: pip there sees these packages as
    installed, so the setup cell's install keeps them, as it keeps Colab's.
    """
    folder.mkdir()
    for distribution in _installed_with_dependencies(PREINSTALLED):
        tops = {Path(file).parts[0] for file in distribution.files or []}
        for top in sorted(tops - {"..", "__pycache__"}):
            link = folder / top
            if not link.exists():
                link.symlink_to(distribution.locate_file(top))
    site_packages = sysconfig.get_path("purelib", vars={"base": str(environment)})
    (Path(site_packages) / "preinstalled.pth").write_text(f"{folder}\n")


@pytest.fixture(scope="module")
def colab_run(tmp_path_factory) -> ColabRun:
    work = tmp_path_factory.mktemp("colab")
    checkout = copy_repository(work / "checkout")
    environment = work / "environment"
    venv.create(environment, with_pip=True)
    _share_preinstalled(environment, work / "preinstalled")
    python = _python(environment)
    colab_versions = [f"{name}=={version}" for name, version in COLAB_VERSIONS.items()]
    subprocess.run([python, "-m", "pip", "install", "--quiet", *colab_versions], check=True)
    helpers_before = _probe(python, "import helpers; print('found')") == "found"
    torch_before = _torch_install(python)
    kernels = _kernel_spec(work, python, checkout)
    explore_notebook = _explore_notebook(checkout / "notebooks" / "en")
    errors = {
        notebook.name: _run_notebook(notebook, kernels)
        for notebook in (
            checkout / graph_notebook().relative_to(ROOT),
            checkout / slider_notebook().relative_to(ROOT),
            explore_notebook,
        )
    }
    ran = nbformat.read(explore_notebook, as_version=4).cells
    outputs = ran[-2].get("outputs", [])
    explored = outputs[-1].get("data", {}) if outputs else {}
    outputs = ran[-1].get("outputs", [])
    predicted = outputs[-1].get("data", {}) if outputs else {}
    ipywidgets = _probe(python, "import ipywidgets; print(ipywidgets.__version__)")
    return ColabRun(
        helpers_before,
        errors,
        _helpers_origin(python),
        torch_before,
        _torch_install(python),
        ipywidgets,
        dict(explored),
        dict(predicted),
    )


@pytest.mark.colab
def test_stand_in_for_colab_starts_without_helpers(colab_run):
    assert not colab_run.helpers_before


@pytest.mark.colab
def test_graph_and_slider_notebooks_run_top_to_bottom_in_the_stand_in_for_colab(colab_run):
    assert colab_run.errors == dict.fromkeys(colab_run.errors), colab_run.errors


@pytest.mark.colab
def test_the_graphs_view_shows_as_a_widget_on_colabs_ipywidgets_with_its_picture(colab_run):
    data = colab_run.explored
    widget = data.get("application/vnd.jupyter.widget-view+json", {})
    assert widget.get("model_id"), f"no widget in the view's output: {sorted(data)}"
    assert data["image/svg+xml"].startswith("<svg")
    assert data["text/html"].startswith("<img src='data:image/svg+xml;base64,")


@pytest.mark.colab
def test_a_predicted_pass_shows_as_a_widget_on_colabs_ipywidgets_with_its_pictures(colab_run):
    data = colab_run.predicted
    widget = data.get("application/vnd.jupyter.widget-view+json", {})
    assert widget.get("model_id"), f"no widget in the predicted pass's output: {sorted(data)}"
    # Where the view cannot run, only the pass's start: its steps are the answers.
    assert data["text/html"].count("<img src='data:image/svg+xml;base64,") == 1
    assert "quiz.answer(...)" in data["text/html"]


@pytest.mark.colab
def test_setup_cell_keeps_colabs_own_ipywidgets(colab_run):
    assert colab_run.ipywidgets_after == COLAB_VERSIONS["ipywidgets"]


@pytest.mark.colab
def test_setup_cell_installs_helpers_from_the_source_it_is_given(colab_run):
    assert colab_run.helpers_origin is not None, "helpers was not installed"
    assert colab_run.helpers_origin.startswith("file://")
    assert colab_run.helpers_origin.endswith("/checkout")


@pytest.mark.colab
def test_setup_cell_keeps_colabs_own_torch(colab_run):
    assert colab_run.torch_after == colab_run.torch_before


@pytest.mark.colab
def test_the_stand_in_has_the_torch_installed_here_rather_than_another(colab_run):
    assert colab_run.torch_before[0] == importlib.metadata.version("torch")


# --- pictures in markdown cells show in Colab ---------------------------------------------------

# Colab opens the .ipynb alone and renders neither cell attachments nor paths relative to the
# notebook; a picture inside the address, or on the web over https, it shows.
COLAB_SHOWS = re.compile(r"^(data:image/[\w.+-]+;base64,|https://)")
MARKDOWN = mistune.create_markdown(renderer=None, plugins=["table"])


class _ImageSources(HTMLParser):
    """The src of every <img> in a piece of HTML."""

    def __init__(self) -> None:
        super().__init__()
        self.sources: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "img":
            self.sources += [value or "" for name, value in attrs if name == "src"]


def pictures(markdown: str) -> list[tuple[str, str | None]]:
    """(address, title) of every picture in ``markdown``: inline, by reference, or as <img>."""
    found = []
    waiting = list(MARKDOWN(markdown))
    while waiting:
        token = waiting.pop(0)
        if token["type"] == "image":
            found.append((token["attrs"]["url"], token["attrs"].get("title")))
        elif token["type"] in ("inline_html", "block_html"):
            parser = _ImageSources()
            parser.feed(token.get("raw", ""))
            found += [(source, None) for source in parser.sources]
        waiting += token.get("children") or []
    return found


def not_shown_in_colab(markdown: str) -> list[str]:
    return [address[:60] for address, _ in pictures(markdown) if not COLAB_SHOWS.match(address)]


def _markdown_cells(path: Path) -> list[nbformat.NotebookNode]:
    return [c for c in nbformat.read(path, as_version=4).cells if c.cell_type == "markdown"]


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_every_picture_in_a_markdown_cell_is_one_colab_shows(path):
    for index, cell in enumerate(_markdown_cells(path)):
        assert not not_shown_in_colab(cell.source), (
            f"markdown cell {index}: Colab cannot show {not_shown_in_colab(cell.source)}; "
            "draw the picture into images/ and run `make images` to carry it inside the cell"
        )


@pytest.mark.parametrize(
    "markdown",
    [
        "![graph](attachment:graph.png)",
        "![graph](../../images/graph.png)",
        "![graph](images/graph.png 'a title')",
        "![graph][ref]\n\n[ref]: ../../images/graph.png",
        'Look: <img src="../../images/graph.png" width="300">',
        "![graph](http://example.org/graph.png)",
        "![graph](file:///home/me/graph.png)",
    ],
)
def test_the_check_finds_a_picture_colab_cannot_show(markdown):
    assert not_shown_in_colab(markdown)


@pytest.mark.parametrize(
    "markdown",
    [
        '![graph](data:image/png;base64,iVBORw0KGgo= "images/graph.png")',
        "![graph](https://example.org/graph.png)",
        '<img src="data:image/svg+xml;base64,PHN2Zz4=">',
        "No picture here, only [a link](../../README.md).",
    ],
)
def test_the_check_accepts_what_colab_shows(markdown):
    assert not not_shown_in_colab(markdown)


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: str(p.relative_to(ROOT / "notebooks")))
def test_embedded_pictures_are_the_current_files_in_images(path):
    for cell in _markdown_cells(path):
        for address, title in pictures(cell.source):
            name = source_name(address, title, path)
            if name is None or not address.startswith("data:"):
                continue
            picture = ROOT / "images" / name
            assert picture.is_file(), f"a cell shows images/{name}, which does not exist"
            assert base64.b64decode(address.split(",", 1)[1]) == picture.read_bytes(), (
                f"the picture of images/{name} in {path.name} is out of date: run `make images`"
            )


# --- tools/embed_pictures.py --------------------------------------------------------------------


def _notebook_with(tmp_path: Path, markdown: str) -> Path:
    path = tmp_path / "notebooks" / "en" / "99_pictures.ipynb"
    path.parent.mkdir(parents=True)
    notebook = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(markdown)])
    nbformat.write(notebook, path)
    return path


def _data(content: bytes) -> str:
    return "data:image/png;base64," + base64.b64encode(content).decode()


FIRST_DRAWING = b"\x89PNG first drawing"


@pytest.fixture
def images(tmp_path) -> Path:
    folder = tmp_path / "images"
    folder.mkdir()
    (folder / "graph.png").write_bytes(FIRST_DRAWING)
    return folder


def test_embedding_writes_a_relative_link_into_images_as_the_picture_itself(tmp_path, images):
    path = _notebook_with(tmp_path, "Look:\n\n![the graph](../../images/graph.png)")
    assert update_notebook(path, images)
    cell = nbformat.read(path, as_version=4).cells[0]
    expected = f'Look:\n\n![the graph]({_data(FIRST_DRAWING)} "images/graph.png")'
    assert cell.source == expected
    assert not not_shown_in_colab(cell.source)


def test_embedding_turns_an_attachment_into_the_picture_itself_and_drops_it(tmp_path, images):
    path = _notebook_with(tmp_path, "![the graph](attachment:graph.png)")
    notebook = nbformat.read(path, as_version=4)
    notebook.cells[0].attachments = {"graph.png": {"image/png": "b2xk"}}
    nbformat.write(notebook, path)
    assert update_notebook(path, images)
    cell = nbformat.read(path, as_version=4).cells[0]
    assert cell.source == f'![the graph]({_data(FIRST_DRAWING)} "images/graph.png")'
    assert "attachments" not in cell


def test_embedding_again_copies_a_redrawn_picture_and_otherwise_changes_nothing(tmp_path, images):
    path = _notebook_with(tmp_path, "![the graph](../../images/graph.png)")
    update_notebook(path, images)
    assert not update_notebook(path, images)
    (images / "graph.png").write_bytes(b"\x89PNG second drawing")
    assert update_notebook(path, images)
    cell = nbformat.read(path, as_version=4).cells[0]
    assert _data(b"\x89PNG second drawing") in cell.source


def test_embedding_leaves_web_addresses_and_the_authors_own_inline_pictures_alone(tmp_path, images):
    markdown = f"![logo](https://example.org/logo.png) ![dot]({_data(b'dot')})"
    path = _notebook_with(tmp_path, markdown)
    assert not update_notebook(path, images)
    assert nbformat.read(path, as_version=4).cells[0].source == markdown


def test_embedding_a_picture_missing_from_images_says_to_run_make_images(tmp_path, images):
    path = _notebook_with(tmp_path, "![gone](../../images/gone.png)")
    with pytest.raises(FileNotFoundError, match="make images"):
        update_notebook(path, images)


def test_source_name_is_given_only_for_files_in_images(tmp_path, images):
    notebook = tmp_path / "notebooks" / "en" / "01.ipynb"
    assert source_name("../../images/graph.png", None, notebook, images) == "graph.png"
    assert source_name("attachment:graph.png", None, notebook, images) == "graph.png"
    assert source_name(_data(b"x"), "images/graph.png", notebook, images) == "graph.png"
    assert source_name(_data(b"x"), None, notebook, images) is None
    assert source_name("pictures/graph.png", None, notebook, images) is None
    assert source_name("https://example.org/graph.png", None, notebook, images) is None

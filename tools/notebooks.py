"""Execute the notebooks: store their outputs in place (`outputs`) or write HTML pages (`html`).

Outputs enter the repository only through `make outputs`, which runs this script: every notebook
is executed top to bottom in a fresh kernel, then volatile metadata is stripped, so that a re-run
with no code change changes only what differs on every run (memory addresses, ipykernel's
temporary file names, widget ids).
"""

from __future__ import annotations

import argparse
import copy
import html
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import nbformat
from nbclient import NotebookClient
from nbconvert.preprocessors import ClearMetadataPreprocessor, CoalesceStreamsPreprocessor

ROOT = Path(__file__).resolve().parent.parent
NOTEBOOKS = ROOT / "notebooks"
CELL_TIMEOUT_SECONDS = 600


def all_notebooks(root: Path = ROOT) -> list[Path]:
    """Every notebook of the collection under ``root``, in course order (language, then number)."""
    found = (root / "notebooks").rglob("*.ipynb")
    return sorted(p for p in found if ".ipynb_checkpoints" not in p.parts)


def execute(path: Path) -> nbformat.NotebookNode:
    """Run a notebook top to bottom in a fresh kernel, started in the notebook's own folder."""
    notebook = nbformat.read(path, as_version=4)
    client = NotebookClient(
        notebook,
        timeout=CELL_TIMEOUT_SECONDS,
        kernel_name="python3",
        resources={"metadata": {"path": str(path.parent)}},
        record_timing=False,
        allow_error_names=[],
    )
    client.execute()
    return notebook


# What a stored notebook keeps of its metadata; the rest (interpreter version, timings, widget
# state with random model ids) changes between runs with no code change. ClearMetadataPreprocessor
# reads a tuple as a key and then the keys to keep inside it; two tuples for the same key would
# keep only one of them (tests/test_notebook_tools.py checks what is kept).
KEPT_NOTEBOOK_METADATA = {
    "kernelspec",
    ("language_info", "name", "file_extension", "mimetype", "nbconvert_exporter"),
}
# Cell tags (raises-exception, nbval-ignore-output) and Jupyter's own view state (a hidden answer).
KEPT_CELL_METADATA = {"tags", "jupyter"}


def strip_volatile(notebook: nbformat.NotebookNode) -> nbformat.NotebookNode:
    """``notebook`` without what changes between runs with no code change.

    nbconvert's preprocessors do it: ClearMetadataPreprocessor keeps only the metadata above, and
    CoalesceStreamsPreprocessor joins the stdout (or stderr) chunks the kernel split one print
    into, at places that differ from run to run.
    """
    clear = ClearMetadataPreprocessor(
        preserve_nb_metadata_mask=KEPT_NOTEBOOK_METADATA,
        preserve_cell_metadata_mask=KEPT_CELL_METADATA,
    )
    notebook, _ = clear.preprocess(notebook, {})
    notebook, _ = CoalesceStreamsPreprocessor().preprocess(notebook, {})
    # The preprocessors leave plain dicts where nbformat keeps attribute-style nodes.
    return nbformat.from_dict(notebook)


def store_outputs(path: Path) -> str:
    notebook = strip_volatile(execute(path))
    nbformat.write(notebook, path)
    return str(path.relative_to(ROOT))


def title_of(notebook: nbformat.NotebookNode, fallback: str) -> str:
    """The first markdown heading of a notebook, without its '#'."""
    for cell in notebook.cells:
        if cell.cell_type != "markdown":
            continue
        for line in cell.source.splitlines():
            if line.startswith("#"):
                return line.lstrip("#").strip()
    return fallback


def page_of(notebook: nbformat.NotebookNode) -> str:
    """The notebook as one HTML page. A page has no kernel: without the widgets' saved state,
    each widget's output shows what it carries for that (the graph view's picture,
    step_through's pictures in a row) instead of a widget rebuilt in the page by scripts
    fetched from a CDN."""
    from nbconvert import HTMLExporter

    notebook = copy.deepcopy(notebook)
    notebook.metadata.pop("widgets", None)
    page, _ = HTMLExporter().from_notebook_node(notebook)
    return page


def write_html(path: Path, out_dir: Path) -> tuple[str, str]:
    notebook = execute(path)
    page = page_of(notebook)
    relative = path.relative_to(NOTEBOOKS).with_suffix(".html")
    target = out_dir / relative
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(page, encoding="utf-8")
    return str(relative), title_of(notebook, path.stem)


# The heading of each edition in the index, by the folder its notebooks are in.
EDITIONS = {"en": "English", "zh": "中文"}


def write_index(pages: list[tuple[str, str]], out_dir: Path) -> Path:
    """An index page: the notebooks of each edition (en/, zh/) under its own heading, in order."""
    by_edition: dict[str, list[tuple[str, str]]] = {}
    for href, title in pages:
        by_edition.setdefault(href.split("/")[0], []).append((href, title))
    sections = []
    for edition, entries in by_edition.items():
        items = "\n".join(
            f'  <li><a href="{html.escape(href)}">{html.escape(title)}</a></li>'
            for href, title in entries
        )
        heading = html.escape(EDITIONS.get(edition, edition))
        sections.append(f"<h2>{heading}</h2>\n<ol>\n{items}\n</ol>")
    index = out_dir / "index.html"
    index.write_text(
        "<!doctype html>\n<html><head><meta charset='utf-8'>"
        "<title>Autograd notebooks</title></head>\n"
        "<body>\n<h1>Autograd notebooks</h1>\n" + "\n".join(sections) + "\n</body></html>\n",
        encoding="utf-8",
    )
    return index


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("command", choices=["outputs", "html"])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every notebook")
    parser.add_argument("--out", type=Path, default=ROOT / "build" / "html")
    parser.add_argument("--jobs", type=int, default=2)
    args = parser.parse_args(argv)
    paths = [p.resolve() for p in args.notebooks] or all_notebooks()
    if not paths:
        print("No notebooks found under notebooks/.", file=sys.stderr)
        return 1
    with ProcessPoolExecutor(max_workers=args.jobs) as pool:
        if args.command == "outputs":
            for done in pool.map(store_outputs, paths):
                print(f"stored outputs: {done}")
        else:
            pages = list(pool.map(write_html, paths, [args.out] * len(paths)))
            print(f"wrote {write_index(pages, args.out)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Carry the pictures that markdown cells show inside the cells' text, as data: addresses.

    .venv/bin/python tools/embed_pictures.py            # every notebook (`make images` runs this)
    .venv/bin/python tools/embed_pictures.py notebooks/en/02_leaf_tensors_retain_grad.ipynb

A markdown cell shows a picture drawn into images/ as

    ![what it shows](data:image/png;base64,iVBORw0... "images/02_relu_graph_before.png")

The address holds the picture itself, so every place that renders the notebook shows it without
fetching anything: Colab, which opens the .ipynb alone and renders neither cell attachments nor
paths relative to the notebook; JupyterLab and Binder; GitHub's notebook viewer; `make html`;
all of them offline too. (An address on GitHub would need the network, and would show the
picture of the branch it names rather than the one beside the notebook.) The title, shown when
the pointer rests on the picture, names the file in images/ the picture was made from: this tool
reads it to put the current file in again after `make images` has redrawn it.

Written as a path into images/ (``../../images/x.png``) or as a cell attachment
(``attachment:x.png``), a picture is turned into that form; other pictures are left alone.
"""

from __future__ import annotations

import argparse
import base64
import re
import sys
from pathlib import Path

import nbformat

ROOT = Path(__file__).resolve().parent.parent
IMAGES = ROOT / "images"
MIME_TYPES = {
    ".png": "image/png",
    ".jpg": "image/jpeg",
    ".jpeg": "image/jpeg",
    ".gif": "image/gif",
    ".svg": "image/svg+xml",
}
# A markdown picture, ![alt](target "title"); a data: address holds no space or parenthesis.
PICTURE = re.compile(r'!\[(?P<alt>[^\]]*)\]\(\s*(?P<target>[^)\s]+)(?:\s+"(?P<title>[^"]*)")?\s*\)')
TITLE = re.compile(r"images/([^/\"]+)")


def source_name(
    target: str, title: str | None, notebook: Path, images: Path = IMAGES
) -> str | None:
    """The name of the file in ``images`` that a picture in ``notebook`` shows, if it is one."""
    if target.startswith("data:"):
        found = TITLE.fullmatch(title or "")
        return found.group(1) if found else None  # an inline picture of the author's own
    if target.startswith("attachment:"):
        return target.removeprefix("attachment:")
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
        return None  # an address (https:) or an absolute path: not ours to carry
    file = (notebook.parent / target).resolve()
    return file.name if file.parent == images.resolve() else None


def data_address(file: Path) -> str:
    """``file``'s bytes as a data: address, with its MIME type."""
    mime_type = MIME_TYPES.get(file.suffix.lower())
    if mime_type is None:
        raise ValueError(f"images/{file.name}: use one of {', '.join(MIME_TYPES)} for a picture.")
    return f"data:{mime_type};base64,{base64.b64encode(file.read_bytes()).decode('ascii')}"


def embed_pictures(cell: nbformat.NotebookNode, notebook: Path, images: Path = IMAGES) -> None:
    """Write every picture of ``cell`` that comes from ``images`` inline, from the current file."""

    def embedded(match: re.Match) -> str:
        name = source_name(match["target"], match["title"], notebook, images)
        if name is None:
            return match.group(0)
        file = images / name
        if not file.is_file():
            raise FileNotFoundError(
                f"{notebook.name} shows {name}, but images/{name} does not exist: "
                "run `make images` to draw it, or fix the link."
            )
        return f'![{match["alt"]}]({data_address(file)} "images/{name}")'

    cell.source = PICTURE.sub(embedded, cell.source)
    # Attachments were the previous way to carry pictures; keep only those still referred to.
    attachments = {
        name: bundle
        for name, bundle in cell.get("attachments", {}).items()
        if f"attachment:{name}" in cell.source
    }
    if attachments:
        cell.attachments = attachments
    else:
        cell.pop("attachments", None)


def update_notebook(path: Path, images: Path = IMAGES) -> bool:
    """Embed the current pictures in every markdown cell of ``path``; True if it changed."""
    notebook = nbformat.read(path, as_version=4)
    before = nbformat.writes(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            embed_pictures(cell, path, images)
    if nbformat.writes(notebook) == before:
        return False
    nbformat.write(notebook, path)
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("notebooks", nargs="*", type=Path, help="default: every notebook")
    args = parser.parse_args(argv)
    found = (ROOT / "notebooks").rglob("*.ipynb")
    paths = args.notebooks or sorted(p for p in found if ".ipynb_checkpoints" not in p.parts)
    try:
        for path in paths:
            if update_notebook(path.resolve()):
                print(f"embedded pictures: {path}")
    except (FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Carry the pictures that markdown cells show inside the notebooks, as cell attachments.

    .venv/bin/python tools/attachments.py            # every notebook (`make images` runs this)
    .venv/bin/python tools/attachments.py notebooks/en/02_leaf_tensors_retain_grad.ipynb

A markdown link to a picture in images/, such as ``![graph](../../images/02_graph.png)``, works
in a local JupyterLab opened on the repository, but not in Colab, which opens the .ipynb alone,
nor in `make lab`, whose root is notebooks/. This tool rewrites such a link to
``![graph](attachment:02_graph.png)`` and stores the picture's bytes in the cell, where every
notebook viewer finds them. Run again after the pictures change, it copies the current files into
the attachments (and drops attachments no cell shows any more), so images/ stays the source and a
test can tell when a notebook carries an out-of-date copy.
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
# The target of a markdown picture link, ![alt](target), or of an HTML <img src="target">.
PICTURE_LINK = re.compile(r"(!\[[^\]]*\]\(\s*<?)([^)\s>]+)|(<img\b[^>]*?\bsrc=[\"'])([^\"']+)")


def attachment_name(target: str, notebook: Path, images: Path = IMAGES) -> str | None:
    """The attachment name for a link ``target`` written in ``notebook``, if it is a file in
    ``images`` (given relative to the notebook, or already as ``attachment:NAME``)."""
    if target.startswith("attachment:"):
        return target.removeprefix("attachment:")
    if re.match(r"^[a-z][a-z0-9+.-]*:", target) or target.startswith("/"):
        return None  # an address (https:, data:) or an absolute path: not ours to carry
    file = (notebook.parent / target).resolve()
    return file.name if file.parent == images.resolve() else None


def attach_pictures(cell: nbformat.NotebookNode, notebook: Path, images: Path = IMAGES) -> None:
    """Point the cell's links to images/ at attachments holding the current files."""

    def to_attachment(match: re.Match) -> str:
        prefix = match.group(1) or match.group(3)
        target = match.group(2) or match.group(4)
        name = attachment_name(target, notebook, images)
        if name is None:
            return match.group(0)
        wanted[name] = images / name
        return f"{prefix}attachment:{name}"

    wanted: dict[str, Path] = {}
    cell.source = PICTURE_LINK.sub(to_attachment, cell.source)
    attachments = {}
    for name, file in wanted.items():
        if not file.is_file():
            raise FileNotFoundError(
                f"{notebook.name} shows {name}, but images/{name} does not exist: "
                "run `make images` to draw it, or fix the link."
            )
        mime_type = MIME_TYPES.get(file.suffix.lower())
        if mime_type is None:
            raise ValueError(f"images/{name}: use one of {', '.join(MIME_TYPES)} for a picture.")
        attachments[name] = {mime_type: base64.b64encode(file.read_bytes()).decode("ascii")}
    if attachments:
        cell.attachments = attachments
    else:
        cell.pop("attachments", None)


def update_notebook(path: Path, images: Path = IMAGES) -> bool:
    """Attach the current pictures to every markdown cell of ``path``; True if it changed."""
    notebook = nbformat.read(path, as_version=4)
    before = nbformat.writes(notebook)
    for cell in notebook.cells:
        if cell.cell_type == "markdown":
            attach_pictures(cell, path, images)
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
                print(f"attached pictures: {path}")
    except (FileNotFoundError, ValueError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

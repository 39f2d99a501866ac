"""The cells of a stored notebook as the tests read them: the JSON as it is on disk."""

import json
from pathlib import Path


def cells(path: Path) -> list[dict]:
    return json.loads(path.read_text(encoding="utf-8"))["cells"]


def source_of(cell: dict) -> str:
    """A cell's text, stored as one string or as a list of lines."""
    text = cell["source"]
    return text if isinstance(text, str) else "".join(text)

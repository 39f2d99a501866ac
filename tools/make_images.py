"""Regenerate the pictures that the notebooks' markdown cells show: `make images`.

Every picture is drawn by code in `PICTURES`, so none is edited by hand and a test
(tests/test_images.py) can tell when a stored one is out of date: it compares the DOT text in
images/<name>.dot with what the code draws now. Each picture is stored as .dot (what the test
reads) and .png, which tools/embed_pictures.py then writes into the markdown cells that show it,
so that JupyterLab, GitHub and Colab alike find it (`make images` runs both).

    python tools/make_images.py            # all pictures
    python tools/make_images.py NAME ...   # only these
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from pathlib import Path

import torch

from helpers.graph import Drawing, draw

IMAGES = Path(__file__).resolve().parent.parent / "images"


def relu_example() -> tuple[torch.Tensor, ...]:
    """The lessons' seed example a = relu(w * x + b), b = 1, w = 2, x = 3: (b, w, x, u, v, a)."""
    b = torch.tensor(1.0, requires_grad=True)
    w = torch.tensor(2.0, requires_grad=True)
    x = torch.tensor(3.0)
    u = w * x
    v = u + b
    a = torch.relu(v)
    return b, w, x, u, v, a


def relu_graph(after_backward: bool) -> Drawing:
    """Lesson 02's picture of the seed example.

    x does not require grad, so autograd records nothing for it and the picture has no box for
    it. After backward every gradient is shown: the leaves keep theirs, and u, v and a keep
    theirs because retain_grad() asked for them.
    """
    b, w, x, u, v, a = relu_example()
    if after_backward:
        for tensor in (u, v, a):
            tensor.retain_grad()
        a.backward()
    return draw(a)  # names b, w, u, v, a come from this function's variables


PICTURES: dict[str, Callable[[], Drawing]] = {
    "02_relu_graph_before": lambda: relu_graph(after_backward=False),
    "02_relu_graph_after": lambda: relu_graph(after_backward=True),
}


def write(name: str) -> list[Path]:
    """Draw picture ``name`` and store it as images/<name>.dot and images/<name>.png."""
    drawing = PICTURES[name]()
    return [drawing.save(IMAGES / f"{name}{suffix}") for suffix in (".dot", ".png")]


def main(names: list[str]) -> int:
    unknown = sorted(set(names) - set(PICTURES))
    if unknown:
        print(f"No picture called {', '.join(unknown)}. Known: {', '.join(PICTURES)}.")
        return 1
    IMAGES.mkdir(exist_ok=True)
    for name in names or PICTURES:
        for path in write(name):
            print(path.relative_to(IMAGES.parent))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

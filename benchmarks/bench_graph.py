"""How fast is helpers.graph.draw(y).svg() next to torchviz.make_dot(y).pipe(format="svg")?

Both draw the graph of the same chain, y = tanh(h @ w + 1) repeated, in the same run; the table
shows the median of several runs and the ratio ours / torchviz (below 1 means we are faster).
Ours lays the graph out in-process with pygraphviz; torchviz starts the `dot` program for every
picture. Ours draws the whole graph here (max_nodes=None), so both pictures hold the same Nodes.
Then 1,000 and 3,000 layers, which torchviz cannot draw (its recursive walk hits Python's
recursion limit): ours with the default max_nodes, and whole.

    python benchmarks/bench_graph.py [--repeat 7]

torchviz is a benchmark-only extra (pip install torchviz); its side is skipped, with a message,
when it or the Graphviz `dot` program is missing.
"""

from __future__ import annotations

import argparse
import shutil
import statistics
import time
from collections.abc import Callable

import torch

from helpers.graph import DEFAULT_MAX_NODES, draw

COMPARED_SIZES = (10, 30, 100, 300)
DEEP_SIZES = (1000, 3000)


def chain(layers: int, width: int = 16) -> torch.Tensor:
    """y = tanh(h @ w + 1), ``layers`` times, each with its own weight w that requires grad."""
    generator = torch.Generator().manual_seed(0)
    h = torch.randn(4, width, generator=generator)
    for _ in range(layers):
        w = torch.randn(width, width, generator=generator, requires_grad=True)
        h = torch.tanh(h @ w + 1)
    return h


def seconds(function: Callable[..., object], *args: object) -> float:
    start = time.perf_counter()
    function(*args)
    return time.perf_counter() - start


def ours(y: torch.Tensor, max_nodes: int | None = None) -> str:
    return draw(y, max_nodes=max_nodes).svg()


def torchviz_drawer() -> tuple[Callable[[torch.Tensor], object] | None, str]:
    """torchviz's draw-and-render, or None and the reason it cannot run here."""
    try:
        import torchviz
    except ImportError:
        return None, "torchviz is not installed (pip install torchviz)"
    if shutil.which("dot") is None:
        return None, "the Graphviz `dot` program, which torchviz runs, is not on PATH"
    return lambda y: torchviz.make_dot(y).pipe(format="svg"), ""


def compare(repeat: int) -> None:
    torchviz_draw, why_not = torchviz_drawer()
    if torchviz_draw is None:
        print(f"torchviz side skipped: {why_not}.")
    print(f"{'layers':>7} {'ours ms':>9} {'torchviz ms':>12} {'ratio':>6}")
    for layers in COMPARED_SIZES:
        y = chain(layers)
        ours(y)  # warm up: the first render loads fonts
        if torchviz_draw is not None:
            torchviz_draw(y)
        mine, theirs = [], []
        for _ in range(repeat):  # interleaved, so both see the same load on the machine
            mine.append(seconds(ours, y))
            if torchviz_draw is not None:
                theirs.append(seconds(torchviz_draw, y))
        ours_ms = statistics.median(mine) * 1000
        if theirs:
            theirs_ms = statistics.median(theirs) * 1000
            print(f"{layers:>7} {ours_ms:>9.1f} {theirs_ms:>12.1f} {ours_ms / theirs_ms:>6.2f}")
        else:
            print(f"{layers:>7} {ours_ms:>9.1f} {'-':>12} {'-':>6}")


def deep(repeat: int) -> None:
    print(
        f"\n{'layers':>7} {'ours, max_nodes=' + str(DEFAULT_MAX_NODES) + ' ms':>26} "
        f"{'ours, whole graph s':>20} {'torchviz':>16}"
    )
    torchviz_draw, _ = torchviz_drawer()
    for layers in DEEP_SIZES:
        y = chain(layers)
        default_ms = statistics.median(seconds(ours, y, DEFAULT_MAX_NODES) for _ in range(repeat))
        default_ms *= 1000
        whole_s = seconds(ours, y, None)
        theirs = "not installed"
        if torchviz_draw is not None:
            try:
                torchviz_draw(y)
                theirs = "drew it"
            except RecursionError:
                theirs = "RecursionError"
        print(f"{layers:>7} {default_ms:>26.1f} {whole_s:>20.1f} {theirs:>16}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per size (median is shown)")
    args = parser.parse_args()
    print(f"torch {torch.__version__}; chains of tanh(h @ w + 1), h of shape (4, 16)\n")
    compare(args.repeat)
    deep(max(1, args.repeat // 2))


if __name__ == "__main__":
    main()

"""How fast is helpers.graph.draw(y).svg() next to torchviz.make_dot(y).pipe(format="svg")?

Both draw the graph of the same chain, y = tanh(h @ w + 1) repeated, in the same run, one after
the other; the table shows the median of several runs of each and the median of the ratios ours /
torchviz of each pair (below 1 means we are faster), which a machine slowing down or speeding up
between pairs does not sway.
Ours lays the graph out in-process with pygraphviz; torchviz starts the `dot` program for every
picture. Ours draws the whole graph here (max_nodes=None), so both pictures hold the same Nodes.
"of which Graphviz" times pygraphviz's Graphviz alone on the same DOT: the rest of ours is the
Python that walks the graph and writes the DOT.
Then 1,000 and 3,000 layers, which torchviz cannot draw (its recursive walk hits Python's
recursion limit): ours with the default max_nodes, and whole.

Then the graphs a learner builds next, where one tensor is used at many places: one weight
reused at every step (an unrolled RNN), a loss total kept across training steps, an LSTM cell
unrolled. Ours with the default options, and whole (max_nodes=None) where torchviz draws the
whole graph too; torchviz is stopped after 60 s.

    python benchmarks/bench_graph.py [--repeat 7] [--busy]

--busy keeps every core of the machine busy with other work (one spinning process per core)
while the chains are compared, as on a machine that runs something else at the same time, and
compares only the chains.

torchviz is a benchmark-only extra (pip install torchviz); its side is skipped, with a message,
when it or the Graphviz `dot` program is missing.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

import torch

from helpers.graph import DEFAULT_MAX_NODES, NODES_SAFE_TO_SEE, GraphTooLarge, draw
from helpers.graph.render import render

COMPARED_SIZES = (10, 30, 100, 300)
DEEP_SIZES = (1000, 3000)
TORCHVIZ_SECONDS = 60


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
    print(
        f"{'layers':>7} {'ours ms':>9} {'of which Graphviz':>18} {'torchviz ms':>12} {'ratio':>6}"
    )
    for layers in COMPARED_SIZES:
        y = chain(layers)
        source = draw(y, max_nodes=None).source
        ours(y)  # warm up: the first render loads fonts
        if torchviz_draw is not None:
            torchviz_draw(y)
        mine, theirs = [], []
        for _ in range(repeat):  # interleaved, so both see the same load on the machine
            mine.append(seconds(ours, y))
            if torchviz_draw is not None:
                theirs.append(seconds(torchviz_draw, y))
        # Apart from the pairs, so as not to change what each side of a pair follows (on a busy
        # machine, a process that has just waited gets the processor sooner).
        graphviz = [seconds(render, source, "svg") for _ in range(repeat)]
        ours_ms = statistics.median(mine) * 1000
        graphviz_ms = statistics.median(graphviz) * 1000
        row = f"{layers:>7} {ours_ms:>9.1f} {graphviz_ms:>18.1f}"
        if theirs:
            theirs_ms = statistics.median(theirs) * 1000
            ratio = statistics.median(m / t for m, t in zip(mine, theirs, strict=True))
            print(f"{row} {theirs_ms:>12.1f} {ratio:>6.2f}")
        else:
            print(f"{row} {'-':>12} {'-':>6}")


@contextmanager
def busy_cores() -> Iterator[None]:
    """One process spinning on each core while the block runs, stopped after it."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", "while True: pass"])
        for _ in range(os.cpu_count() or 1)
    ]
    try:
        time.sleep(1)  # let them start before anything is measured
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()


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
        whole_s = _whole_seconds(y)
        theirs = "not installed"
        if torchviz_draw is not None:
            try:
                torchviz_draw(y)
                theirs = "drew it"
            except RecursionError:
                theirs = "RecursionError"
        print(f"{layers:>7} {default_ms:>26.1f} {_shown(whole_s):>20} {theirs:>16}")


def shared_weight_chain(steps: int) -> torch.Tensor:
    """h = tanh(h @ W) with the same W at every step, as in an unrolled RNN."""
    generator = torch.Generator().manual_seed(0)
    W = (torch.randn(4, 4, generator=generator) * 0.5).requires_grad_()
    h = torch.randn(1, 4, generator=generator)
    for _ in range(steps):
        h = torch.tanh(h @ W)
    return h.sum()


def seeded(make_module: Callable[[], torch.nn.Module]) -> torch.nn.Module:
    """A module whose initial weights are the same in every run (its values are in the picture,
    so the picture is too), leaving the caller's random state as it was."""
    with torch.random.fork_rng():
        torch.manual_seed(0)
        return make_module()


def loss_total(steps: int) -> torch.Tensor:
    """total = total + loss across training steps: every graph kept, the parameters shared."""
    generator = torch.Generator().manual_seed(0)
    model = seeded(lambda: torch.nn.Linear(3, 1))
    total = 0
    for _ in range(steps):
        x, target = torch.randn(8, 3, generator=generator), torch.randn(8, 1, generator=generator)
        total = total + ((model(x) - target) ** 2).mean()
    return total


def lstm_cell_unrolled(steps: int) -> torch.Tensor:
    generator = torch.Generator().manual_seed(0)
    cell = seeded(lambda: torch.nn.LSTMCell(3, 4))
    h = c = torch.zeros(1, 4)
    for x in torch.randn(steps, 1, 3, generator=generator):
        h, c = cell(x, (h, c))
    return h.sum()


LEARNER_GRAPHS = [
    ("one weight at every step", shared_weight_chain, (30, 50, 100, 300, 1000, 3000)),
    ("loss total over steps", loss_total, (100, 200, 1000)),
    ("LSTM cell unrolled", lstm_cell_unrolled, (200,)),
]


def torchviz_seconds(y: torch.Tensor) -> str | float:
    """torchviz's make_dot and the dot program's SVG, as its .pipe() runs it, stopped at 60 s."""
    try:
        import torchviz
    except ImportError:
        return "not installed"
    if shutil.which("dot") is None:
        return "no dot program"
    start = time.perf_counter()
    try:
        source = torchviz.make_dot(y).source
    except RecursionError:
        return "RecursionError"
    try:
        subprocess.run(
            ["dot", "-Tsvg"],
            input=source.encode(),
            capture_output=True,
            timeout=TORCHVIZ_SECONDS,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return f"over {TORCHVIZ_SECONDS} s"
    return time.perf_counter() - start


def learner_graphs(repeat: int) -> None:
    print(
        f"\n{'graph':<26} {'steps':>6} {'ours default s':>15} {'ours whole s':>13} "
        f"{'torchviz s':>14} {'whole / torchviz':>17}"
    )
    for title, make, sizes in LEARNER_GRAPHS:
        for steps in sizes:
            y = make(steps)
            ours(y, DEFAULT_MAX_NODES)  # warm up
            default_s = statistics.median(
                seconds(ours, y, DEFAULT_MAX_NODES) for _ in range(repeat)
            )
            whole_s = _whole_seconds(y)
            theirs = torchviz_seconds(y)
            ratio = ""
            if isinstance(theirs, float) and isinstance(whole_s, float):
                ratio = f"{whole_s / theirs:.2f}"
            print(
                f"{title:<26} {steps:>6} {default_s:>15.3f} {_shown(whole_s):>13} "
                f"{_shown(theirs):>14} {ratio:>17}"
            )


def _whole_seconds(y: torch.Tensor) -> str | float:
    """Seconds to draw all of y's graph, or why draw refused."""
    try:
        return seconds(ours, y, None)
    except GraphTooLarge as refused:
        if refused.source is None:  # more Nodes than the helpers look at
            return f"refused, over {NODES_SAFE_TO_SEE:,} nodes"
        return "refused, " + str(refused).split("about ")[1].split(" to place")[0]


def _shown(value: str | float) -> str:
    return f"{value:.3f}" if isinstance(value, float) else value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=7, help="runs per size (median is shown)")
    parser.add_argument(
        "--busy", action="store_true", help="compare the chains with every core kept busy"
    )
    args = parser.parse_args()
    print(f"torch {torch.__version__}; chains of tanh(h @ w + 1), h of shape (4, 16)\n")
    if args.busy:
        print(f"every core ({os.cpu_count()}) kept busy by a spinning process\n")
        with busy_cores():
            compare(args.repeat)
        return
    compare(args.repeat)
    deep(max(1, args.repeat // 2))
    learner_graphs(max(1, args.repeat // 2))


if __name__ == "__main__":
    main()

"""Drawing your own model: the folded picture of a recorded Transformer, next to torchviz and
torchview on the same models.

For each model (`models.py`: GPT-2-shaped with 12 and 2 blocks, the small Transformer of
notebook 11) the forward pass and its loss are run once, inside ``recording(model)``; then

- **ours, folded**: ``draw(loss).svg()``, the default picture (folded by module to about 60
  boxes), from the walk of the graph to the SVG; target at most `FOLDED_TARGET` s for 12 blocks;
- **ours, one block whole**: ``draw(loss, expand=BLOCK).svg()``; target `EXPANDED_TARGET` s;
- **torchviz**: ``make_dot(loss).pipe(format="svg")``: the backward graph, every Node, no modules;
- **torchview**: ``draw_graph(model, input_data=tokens, depth=2).visual_graph.pipe("svg")``: the
  *forward* graph by module (depth 2: the blocks folded), which runs the model again itself.

Each is timed `REPEAT` times (medians shown) on this machine's CPU, with the picture's size in
boxes where it is known. torchviz and torchview are benchmark-only extras (`make bench` installs
them); each column is skipped with a message when its package or Graphviz's `dot` program is
missing. The script fails when a target is missed.

    python benchmarks/bench_models.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import re
import shutil
import statistics
import sys
import time
from collections.abc import Callable

import torch
from models import batch, gpt2, loss, tiny_transformer

from helpers.graph import draw, recording
from helpers.graph.model import walk

FOLDED_TARGET = 1.0
EXPANDED_TARGET = 0.5
MODELS = {
    "GPT-2-shaped, 12 blocks": (lambda: gpt2(n_layer=12), "transformer.h.3"),
    "GPT-2-shaped, 2 blocks": (lambda: gpt2(n_layer=2), "transformer.h.1"),
    "small Transformer (notebook 11)": (tiny_transformer, "blocks.1"),
}


def timed(work: Callable[[], object], repeat: int) -> tuple[float, object]:
    """The median seconds of ``repeat`` runs of ``work``, and what the last one returned."""
    seconds, result = [], None
    for _ in range(repeat):
        start = time.perf_counter()
        result = work()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), result


def described(svg: str) -> str:
    """The boxes in a picture Graphviz wrote (its nodes' groups) and its size on screen."""
    boxes = len(re.findall(r'<g id="node\d+" class="node"', svg))
    width, height = (
        float(re.search(rf'<svg[^>]* {side}="([\d.]+)pt"', svg).group(1))
        for side in ("width", "height")
    )
    return f"{boxes} boxes, {width:,.0f} × {height:,.0f} pt"


def torchviz_svg(output: torch.Tensor) -> Callable[[], str] | str:
    try:
        from torchviz import make_dot
    except ImportError:
        return "not installed (pip install torchviz)"
    if shutil.which("dot") is None:
        return "needs Graphviz's dot program"
    return lambda: make_dot(output).pipe(format="svg").decode()


def torchview_svg(model: torch.nn.Module, tokens: torch.Tensor) -> Callable[[], str] | str:
    try:
        from torchview import draw_graph
    except ImportError:
        return "not installed (pip install torchview)"
    if shutil.which("dot") is None:
        return "needs Graphviz's dot program"
    return lambda: (
        draw_graph(model, input_data=tokens, depth=2).visual_graph.pipe(format="svg").decode()
    )


def cell(result: Callable[[], str] | str, repeat: int) -> tuple[str, float | None]:
    if isinstance(result, str):
        return result, None
    seconds, svg = timed(result, repeat)
    return f"{seconds:.2f} s ({described(svg)})", seconds


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=5)
    repeat = parser.parse_args().repeat
    torch.set_num_threads(1)
    missed = []
    columns = ("model", "autograd Nodes", "ours, folded", "ours, one block whole")
    print("| " + " | ".join((*columns, "torchviz", "torchview")) + " |")
    print("|---|---:|---:|---:|---:|---:|")
    for name, (make, block) in MODELS.items():
        model = make()
        tokens, targets = batch(model, 1, 64 if "GPT" in name else 8)
        with recording(model):
            output = loss(model, tokens, targets)
        nodes = len(walk([output.grad_fn]).nodes)  # held as every helper holds them
        folded, folded_seconds = cell(lambda output=output: draw(output).svg(), repeat)
        whole, whole_seconds = cell(
            lambda output=output, block=block: draw(output, expand=block).svg(), repeat
        )
        viz, _ = cell(torchviz_svg(output), max(1, repeat // 2))
        view, _ = cell(torchview_svg(model, tokens), max(1, repeat // 2))
        print(f"| {name} | {nodes:,} | {folded} | {whole} | {viz} | {view} |")
        if "12 blocks" in name:
            if folded_seconds > FOLDED_TARGET:
                missed.append(f"folded picture {folded_seconds:.2f} s > {FOLDED_TARGET} s")
            if whole_seconds > EXPANDED_TARGET:
                missed.append(f"one block whole {whole_seconds:.2f} s > {EXPANDED_TARGET} s")
    for line in missed:
        print("target missed:", line, file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

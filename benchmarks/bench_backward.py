"""What `helpers.backward` costs: `trace` against a plain `backward()`, and the by-hand `grad`
against `torch.autograd.grad`.

`grad` checks its answer: it runs PyTorch's engine first, watching every node, then the by-hand
engine, and compares the two bit for bit. The last columns time the by-hand engine alone
(`_backward_by_hand`), so that the difference is what the check costs.

The graph is a chain of layers ``h = sin(h) * h`` on a 64-element leaf, closed by a sum: every
layer adds two nodes and uses ``h`` twice, so gradients fork and must be summed, as in real
networks. Two sizes are measured, 100 and 2,000 nodes (AccumulateGrad and SumBackward0 included).
Each call runs on a freshly built graph (building it is not timed); the fastest of several
rounds is reported: on a shared machine the other processes only ever add time, and the fastest
round is the one they disturbed least (the median moved by a factor of two between runs here).
The by-hand engine is written to be read, not to be fast, but its cost must grow linearly: on the
2,000-node graph `grad`, check included, must stay under one second, else this script fails.

Run: .venv/bin/python benchmarks/bench_backward.py
"""

from __future__ import annotations

import sys
import time

import torch

from helpers.backward import _backward_by_hand, grad, trace

SIZES = (100, 2000)
ROUNDS = {100: 50, 2000: 11}
LIMIT_SECONDS = 1.0  # the by-hand engine on the 2,000-node graph


def build(nodes: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A scalar output whose graph has exactly ``nodes`` nodes, and the leaf it depends on."""
    generator = torch.Generator().manual_seed(0)
    x = torch.rand(64, generator=generator).requires_grad_()
    h = x
    for _ in range((nodes - 2) // 2):
        h = torch.sin(h) * h
    return h.sum(), x


def count_nodes(output: torch.Tensor) -> int:
    seen, to_visit = set(), [output.grad_fn]
    while to_visit:
        node = to_visit.pop()
        if node is not None and node not in seen:
            seen.add(node)
            to_visit.extend(next_node for next_node, _ in node.next_functions)
    return len(seen)


WAYS = {
    "backward()": lambda output, x: output.backward(),
    "trace": lambda output, x: trace(output),
    "torch.autograd.grad": lambda output, x: torch.autograd.grad(output, [x]),
    "grad (by hand)": lambda output, x: grad(output, [x]),
    "by-hand engine alone": lambda output, x: _backward_by_hand(
        output, [x], torch.ones_like(output)
    ),
}


def measure(nodes: int) -> dict[str, float]:
    """Fastest seconds of each way on a fresh graph of ``nodes`` nodes, in alternating rounds."""
    times: dict[str, list[float]] = {way: [] for way in WAYS}
    for _ in range(ROUNDS[nodes]):
        for way, run in WAYS.items():
            output, x = build(nodes)
            start = time.perf_counter()
            run(output, x)
            times[way].append(time.perf_counter() - start)
    return {way: min(seconds) for way, seconds in times.items()}


def main() -> int:
    torch.set_num_threads(1)  # steadier timings; the graphs are too small to gain from threads
    for nodes in SIZES:
        assert count_nodes(build(nodes)[0]) == nodes
    results = {(nodes, way): seconds for nodes in SIZES for way, seconds in measure(nodes).items()}

    print(f"torch {torch.__version__}, Python {sys.version.split()[0]}, fastest of rounds\n")
    print(
        "| nodes | backward() | trace | trace / backward | autograd.grad | grad "
        "| grad / autograd.grad | engine alone | engine / autograd.grad |"
    )
    print("|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for nodes in SIZES:
        backward, traced, pytorch, checked, engine = (results[(nodes, way)] for way in WAYS)
        print(
            f"| {nodes:,} | {_ms(backward)} | {_ms(traced)} | {traced / backward:.1f}× "
            f"| {_ms(pytorch)} | {_ms(checked)} | {checked / pytorch:.1f}× "
            f"| {_ms(engine)} | {engine / pytorch:.1f}× |"
        )
    small, large = (results[(nodes, "grad (by hand)")] / nodes for nodes in SIZES)
    print(
        f"\ngrad per node: {small * 1e6:.1f} µs at {SIZES[0]} nodes, "
        f"{large * 1e6:.1f} µs at {SIZES[1]:,} (equal if the cost grows linearly)"
    )
    for nodes in SIZES:
        check = results[(nodes, "grad (by hand)")] - results[(nodes, "by-hand engine alone")]
        share = check / results[(nodes, "grad (by hand)")]
        print(f"the check at {nodes:,} nodes: {_ms(check)}, {share:.0%} of grad")

    seconds = results[(SIZES[1], "grad (by hand)")]
    if seconds >= LIMIT_SECONDS:
        print(f"FAIL: grad took {seconds:.2f} s on {SIZES[1]:,} nodes (limit {LIMIT_SECONDS} s)")
        return 1
    print(f"OK: grad on {SIZES[1]:,} nodes took {seconds:.3f} s (limit {LIMIT_SECONDS} s)")
    return 0


def _ms(seconds: float) -> str:
    return f"{seconds * 1e3:.2f} ms"


if __name__ == "__main__":
    sys.exit(main())

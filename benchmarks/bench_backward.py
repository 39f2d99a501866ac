"""What `helpers.backward` costs: `trace` against a plain `backward()`, and the by-hand `grad`
against `torch.autograd.grad`.

`grad` checks its answer: it runs PyTorch's engine first, watching every node, then the by-hand
engine, and compares the two bit for bit. The last columns time the by-hand engine alone
(`backward_by_hand`), so that the difference is what the check costs.

The graph is a chain of layers ``h = sin(h) * h`` on a 64-element leaf, closed by a sum: every
layer adds two nodes and uses ``h`` twice, so gradients fork and must be summed, as in real
networks. Two sizes are measured, 100 and 2,000 nodes (AccumulateGrad and SumBackward0 included).
Each call runs on a freshly built graph (building it is not timed); the fastest of several
rounds is reported: on a shared machine the other processes only ever add time, and the fastest
round is the one they disturbed least (the median moved by a factor of two between runs here).
The by-hand engine is written to be read, not to be fast, but its cost must grow linearly: on the
2,000-node graph `grad`, check included, must stay under one second, else this script fails.

What `trace` and `grad` keep must stay near what the pass itself needs (issue 24): a gradient of
more than `helpers.backward.KEPT_WHOLE` numbers is kept as a summary, not copied. Two more
measurements hold them to it, and fail the script when a target is missed:

- Memory, on a 12-layer 1024-wide MLP (Linear and ReLU) with a batch of 4,096: how much each way
  raises the process's peak resident memory above what it held after the forward pass. Each is
  measured in a fresh Python process (Linux: the peak is reset through /proc/self/clear_refs and
  read as VmHWM), so that no allocator cache of another measurement counts, with glibc's mmap
  threshold fixed (MALLOC_MMAP_THRESHOLD_): large blocks then go back to the system when freed,
  and resident memory follows what is allocated (left to move, the threshold made the same
  measurement read 49 MB or 186 MB). Target: `trace` and `grad` add at most twice what
  `backward()` adds.
- Time, on a chain of 300x300 matrices, ``h = h @ q + b`` (q orthogonal, so that gradients neither
  vanish nor explode: tiny floats, denormals, slow the CPU down and would measure that instead),
  `CHAIN_OPS` operations long: a few seconds per round on a 2-core machine. Fastest of
  `CHAIN_ROUNDS` alternating rounds, one thread. Target: `trace` at most three times `backward()`.

Run: .venv/bin/python benchmarks/bench_backward.py
"""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import time
from pathlib import Path

import torch

from helpers.backward import grad, trace
from helpers.backward.engine import backward_by_hand
from helpers.graph.model import walk

SIZES = (100, 2000)
ROUNDS = {100: 50, 2000: 11}
LIMIT_SECONDS = 1.0  # the by-hand engine on the 2,000-node graph

MLP_LAYERS, MLP_WIDTH, MLP_BATCH = 12, 1024, 4096
RETAINED = "torch.autograd.grad(retain_graph=True)"
MEMORY_WAYS = ("backward()", "trace", "torch.autograd.grad", RETAINED, "grad")
# trace: at most this many times the memory backward() adds; grad: the memory that
# torch.autograd.grad adds when it keeps the graph, as grad does (it goes through the graph
# twice, and leaves it for a later backward()). A call that frees the graph as it goes reuses the
# memory of the saved activations for the gradients, which no pass that keeps them can.
MEMORY_LIMIT = 2.0
CHAIN_OPS, CHAIN_SIZE, CHAIN_ROUNDS = 2400, 300, 3
TIME_LIMIT = 3.0  # trace: at most this many times the time of backward()


def build(nodes: int) -> tuple[torch.Tensor, torch.Tensor]:
    """A scalar output whose graph has exactly ``nodes`` nodes, and the leaf it depends on."""
    generator = torch.Generator().manual_seed(0)
    x = torch.rand(64, generator=generator).requires_grad_()
    h = x
    for _ in range((nodes - 2) // 2):
        h = torch.sin(h) * h
    return h.sum(), x


def count_nodes(output: torch.Tensor) -> int:
    return len(walk([output.grad_fn]).nodes)  # as every helper walks a graph, holding its Nodes


WAYS = {
    "backward()": lambda output, x: output.backward(),
    "trace": lambda output, x: trace(output),
    "torch.autograd.grad": lambda output, x: torch.autograd.grad(output, [x]),
    "grad (by hand)": lambda output, x: grad(output, [x]),
    "by-hand engine alone": lambda output, x: backward_by_hand(
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


# --- memory and time on real sizes (issue 24) --------------------------------------------------


def mlp() -> tuple[torch.Tensor, list[torch.Tensor]]:
    """The loss of a 12-layer 1024-wide MLP on a batch of 4,096, and its parameters."""
    torch.manual_seed(0)
    layers = []
    for _ in range(MLP_LAYERS):
        layers += [torch.nn.Linear(MLP_WIDTH, MLP_WIDTH), torch.nn.ReLU()]
    model = torch.nn.Sequential(*layers)
    loss = model(torch.randn(MLP_BATCH, MLP_WIDTH)).pow(2).mean()
    return loss, list(model.parameters())


MEMORY_RUNS = {
    "backward()": lambda loss, parameters: loss.backward(),
    "trace": lambda loss, parameters: trace(loss),
    "torch.autograd.grad": lambda loss, parameters: torch.autograd.grad(loss, parameters),
    RETAINED: lambda loss, parameters: torch.autograd.grad(loss, parameters, retain_graph=True),
    "grad": lambda loss, parameters: grad(loss, parameters),
}
# What each way is measured against.
MEMORY_BASE = {"trace": "backward()", "grad": RETAINED}


def _kilobytes(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(f"/proc/self/status has no {field}")


def memory_added_here(way: str) -> int:
    """Bytes by which ``way`` raises this process's peak memory above what it holds before."""
    loss, parameters = mlp()
    gc.collect()
    before = _kilobytes("VmRSS")
    Path("/proc/self/clear_refs").write_text("5")  # the peak starts again from here
    result = MEMORY_RUNS[way](loss, parameters)
    added = (_kilobytes("VmHWM") - before) * 1024
    del result
    return added


def memory_added(way: str) -> int:
    """`memory_added_here` measured in a fresh Python process."""
    command = [sys.executable, __file__, "--memory", way]
    environment = {**os.environ, "MALLOC_MMAP_THRESHOLD_": "65536"}
    done = subprocess.run(command, capture_output=True, text=True, check=True, env=environment)
    return int(done.stdout.split()[-1])


def chain() -> torch.Tensor:
    """``h = h @ q + b``, CHAIN_OPS operations on 300x300 matrices, summed."""
    generator = torch.Generator().manual_seed(0)
    size = (CHAIN_SIZE, CHAIN_SIZE)
    x = torch.randn(size, generator=generator, requires_grad=True)
    q = torch.linalg.qr(torch.randn(size, generator=generator))[0].requires_grad_()
    b = (torch.randn(size, generator=generator) * 0.01).requires_grad_()
    h = x
    for _ in range(CHAIN_OPS // 2):
        h = h @ q + b
    return h.sum()


def chain_seconds() -> dict[str, float]:
    """Fastest seconds of backward() and of trace on the chain, in alternating rounds."""
    times: dict[str, list[float]] = {"backward()": [], "trace": []}
    for _ in range(CHAIN_ROUNDS):
        for way, run in (("backward()", lambda y: y.backward()), ("trace", trace)):
            output = chain()
            start = time.perf_counter()
            run(output)
            times[way].append(time.perf_counter() - start)
            del output
    return {way: min(seconds) for way, seconds in times.items()}


def main_at_real_sizes() -> int:
    """The memory and time targets of issue 24: 0 when both are met, else 1."""
    failed = 0
    added = {way: memory_added(way) for way in MEMORY_WAYS}
    print(
        f"\nMemory added to the peak, {MLP_LAYERS}-layer {MLP_WIDTH}-wide MLP, batch {MLP_BATCH:,} "
        "(fresh process each):\n"
    )
    print("| way | added | against |")
    print("|---|---:|---:|")
    for way in MEMORY_WAYS:
        base = MEMORY_BASE.get(way)
        against = f"{added[way] / added[base]:.2f}× {base}" if base else ""
        print(f"| {way} | {added[way] / 2**20:,.0f} MB | {against} |")
    for way, base in MEMORY_BASE.items():
        if added[way] > MEMORY_LIMIT * added[base]:
            print(f"FAIL: {way} adds more than {MEMORY_LIMIT}× what {base} adds")
            failed = 1

    seconds = chain_seconds()
    ratio = seconds["trace"] / seconds["backward()"]
    print(
        f"\nTime, chain of {CHAIN_OPS:,} operations on {CHAIN_SIZE}x{CHAIN_SIZE} matrices "
        f"(fastest of {CHAIN_ROUNDS}, one thread): backward() {seconds['backward()']:.2f} s, "
        f"trace {seconds['trace']:.2f} s, {ratio:.1f}×"
    )
    if ratio > TIME_LIMIT:
        print(f"FAIL: trace takes more than {TIME_LIMIT}× the time of backward()")
        failed = 1
    if not failed:
        print(f"OK: memory within {MEMORY_LIMIT}× and time within {TIME_LIMIT}× of backward()")
    return failed


if __name__ == "__main__":
    if sys.argv[1:2] == ["--memory"]:
        print(memory_added_here(sys.argv[2]))
        sys.exit(0)
    sys.exit(main() | main_at_real_sizes())

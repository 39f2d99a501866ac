"""What `recording` costs: a forward pass with every Node labelled, against the plain one.

The model is GPT-2-shaped with 2 blocks (`models.gpt2`: GPT-2 small's sizes, 768 wide, the
50,257-token head), in training mode (its dropouts make Nodes too), on one sequence of 64 tokens.
A batch of one, because what recording adds is a cost per op and per Node, the same whatever
the batch, while the model's own work grows with it: one sequence is where the recording weighs
the most, so the ratio measured is the largest a learner meets with this model. The timed unit is
the forward pass and its loss, then letting go of the graph (plain: at ``del``; recorded: at the
next helper call, the next recorded pass, which is timed): both pay for freeing one graph.
Medians of `ROUNDS` alternating rounds, one thread (the machine is shared; the model is too small
to gain much from a second one); the CPU time the thread used is shown beside the time taken,
as other processes on a shared machine disturb it less. Target: the recorded pass at most `LIMIT`
times the plain one (time taken), else this script fails.

The output head (64 x 768 times 768 x 50,257) takes most of the time, so the body alone
(``model.transformer``) is timed too, without the head or the loss: its ratio shows the per-op
cost with less work to hide it, and is reported, not held to the target.

Then one recorded pass is checked: the Nodes its graph has, and that every one has a label:
made by a module, by the code in the block (the loss), or a parameter's AccumulateGrad.

Run: .venv/bin/python benchmarks/bench_recording.py
"""

from __future__ import annotations

import statistics
import sys
import time
from collections import Counter
from collections.abc import Callable

import torch
from models import batch, gpt2, loss

from helpers.graph.model import walk
from helpers.graph.recording import made_by, recording

N_LAYER, BATCH_SIZE, LENGTH = 2, 1, 64
ROUNDS = 21
LIMIT = 2.0  # the recorded forward at most this many times the plain one


def plain_pass(run: Callable[[], torch.Tensor]) -> Callable[[], None]:
    def timed() -> None:
        output = run()
        del output  # the graph is freed here

    return timed


def recorded_pass(model: torch.nn.Module, run: Callable[[], torch.Tensor]) -> Callable[[], None]:
    def timed() -> None:
        with recording(model):  # frees the graph of the pass before
            output = run()
        del output

    return timed


def medians(ways: dict[str, Callable[[], None]]) -> dict[str, tuple[float, float]]:
    """Median seconds of each way, over ROUNDS rounds that run them one after the other: the
    time it took, and the CPU time this thread used (which other processes disturb less)."""
    for run in ways.values():
        run()  # warm up: allocator, first-call caches
    times: dict[str, list[tuple[float, float]]] = {way: [] for way in ways}
    for _ in range(ROUNDS):
        for way, run in ways.items():
            start, start_cpu = time.perf_counter(), time.thread_time()
            run()
            times[way].append((time.perf_counter() - start, time.thread_time() - start_cpu))
    return {
        way: (
            statistics.median(wall for wall, _ in seconds),
            statistics.median(cpu for _, cpu in seconds),
        )
        for way, seconds in times.items()
    }


def check_labels(model: torch.nn.Module, tokens: torch.Tensor, targets: torch.Tensor) -> bool:
    """Count the Nodes of one recorded pass by who made them; True if every one has a label."""
    with recording(model):
        output = loss(model, tokens, targets)
    nodes = walk([output.grad_fn]).nodes  # as every helper walks a graph, holding its Nodes
    kinds: Counter[str] = Counter()
    for node in nodes:
        label = made_by(node)
        if label is None:
            kinds["no label"] += 1
        elif label.parameter is not None:
            kinds["parameters' AccumulateGrad"] += 1
        elif label.module is None:
            kinds["code in the block (the loss)"] += 1
        else:
            kinds["made by a module"] += 1
    print(f"\nNodes in one recorded pass's graph: {len(nodes)}")
    for kind, count in kinds.most_common():
        print(f"  {kind}: {count}")
    modules = Counter(made_by(node).module for node in nodes if made_by(node) is not None)
    print(f"  in {len(modules)} modules; most: {modules.most_common(3)}")
    return kinds["no label"] == 0


def main() -> int:
    torch.set_num_threads(1)
    model = gpt2(n_layer=N_LAYER).train()
    tokens, targets = batch(model, BATCH_SIZE, LENGTH)

    def whole() -> torch.Tensor:
        return loss(model, tokens, targets)

    def body() -> torch.Tensor:
        return model.transformer(tokens)

    results = {}
    for name, run in (("whole model and loss", whole), ("body alone", body)):
        results[name] = medians({"plain": plain_pass(run), "recorded": recorded_pass(model, run)})
    print(
        f"torch {torch.__version__}, Python {sys.version.split()[0]}, one thread; GPT-2-shaped, "
        f"{N_LAYER} blocks, batch {BATCH_SIZE}, {LENGTH} tokens; medians of {ROUNDS} rounds\n"
    )
    print(
        "| forward | plain | recorded | recorded / plain | added | CPU: plain | recorded | ratio |"
    )
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for name, times in results.items():
        (plain, plain_cpu), (recorded, recorded_cpu) = times["plain"], times["recorded"]
        print(
            f"| {name} | {plain * 1e3:.1f} ms | {recorded * 1e3:.1f} ms "
            f"| {recorded / plain:.2f}× | {(recorded - plain) * 1e3:.1f} ms "
            f"| {plain_cpu * 1e3:.1f} ms | {recorded_cpu * 1e3:.1f} ms "
            f"| {recorded_cpu / plain_cpu:.2f}× |"
        )
    everything_labelled = check_labels(model, tokens, targets)

    whole_times = results["whole model and loss"]
    ratio = whole_times["recorded"][0] / whole_times["plain"][0]
    if not everything_labelled:
        print("FAIL: some Nodes made in the block have no label")
        return 1
    if ratio > LIMIT:
        print(f"FAIL: the recorded forward took {ratio:.2f}× the plain one (limit {LIMIT}×)")
        return 1
    print(f"\nOK: recorded / plain = {ratio:.2f}× (limit {LIMIT}×), every Node labelled")
    return 0


if __name__ == "__main__":
    sys.exit(main())

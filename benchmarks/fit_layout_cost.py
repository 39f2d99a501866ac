"""Measure how long Graphviz's dot takes on the graphs a learner builds, and refit the cost model.

`helpers.graph.layout.plan` estimates a picture's layout time before dot runs, from its
`LayoutSize` (HTML tables, labels, points and segments of arrows, the sum over rows of their
width squared, the work of ordering rows whose arrows could cross, and the placement search's
size where dot searches), with the constants at the top of that module. Those decide where a
picture is rendered (in the kernel's process, or in a child process that Interrupt kernel can
stop), how far the default picture is cut, what a caption offers, and which pictures are
refused. This script

1. builds a corpus of graph shapes a learner builds (chains, a weight shared by every step, loss
   totals, unrolled LSTM and GRU cells, MLPs, residual nets, attention blocks, dense layers,
   fan-in and fan-out, many outputs, gradient graphs), each whole (max_nodes=None), plain, with
   a label on every arrow, with show_saved=True and drawn backward;
2. times the render of each picture's SVG: in a child process first, stopped after --timeout
   seconds; a picture that takes under 3 s is then rendered in this process too, and the
   fastest run counts (other work on the machine only ever adds time), also against earlier
   runs of the script;
3. prints, per picture, its size, the estimate with the constants in use, the measured time and
   their ratio, and the load average while it was measured;
4. fits new constants: those that put every picture's ratio estimate / measured in the
   narrowest band, scaled so that the lowest ratio is SAFETY; and prints them with the table
   they would give.

    python benchmarks/fit_layout_cost.py                  # measure all (about 20 min), fit
    python benchmarks/fit_layout_cost.py --only lstm      # measure the shapes whose name has it
    python benchmarks/fit_layout_cost.py --saved          # no measuring: refit the last run's

Measurements are kept in benchmarks/layout_cost_measurements.json, merged with earlier ones, so a
refit after a change to the estimate's terms needs no new measurements, and a few shapes can be
re-measured alone. A change to what to_dot writes (or a new Graphviz) needs all of them measured
again: delete the file first. Measure on a quiet machine: with load above the number of cores,
time goes to other work, and the fit errs long.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import asdict, dataclass
from pathlib import Path

import numpy as np
import torch

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The speed benchmark's graphs, measured here too (this folder is on the path of its scripts).
from bench_graph import chain as tanh_chain  # noqa: E402
from bench_graph import loss_total  # noqa: E402
from bench_graph import shared_weight_chain as shared_weight  # noqa: E402

from helpers.graph import build, plan_layout, to_dot  # noqa: E402
from helpers.graph import model as graph_model  # noqa: E402
from helpers.graph.layout import LayoutSize, estimated_seconds  # noqa: E402
from helpers.graph.model import walk  # noqa: E402
from helpers.graph.render import _RENDERER  # noqa: E402

# The corpus times Graphviz on pictures of up to about 16,000 Nodes, more than the helpers look
# at for a learner (NODES_SAFE_TO_SEE): this script walks them all. Safe where the main thread's
# stack is 8 MB (Linux, macOS), where PyTorch frees a chain of 35,000 seen Nodes before crashing.
graph_model.NODES_SAFE_TO_SEE = 20_000

MEASUREMENTS = Path(__file__).with_name("layout_cost_measurements.json")
SAFETY = 1.1  # the fitted estimate is at least this many times every measured time
QUICK = 3.0  # seconds: below this, a picture is also rendered in this process, several times
TINY = 0.05  # seconds: quicker pictures are left out of the fit

# --- the corpus --------------------------------------------------------------------------------

Output = torch.Tensor | list[torch.Tensor]
# A picture's output, or its output and the names of its tensors (names make tables of boxes).
Named = tuple[Output, torch.nn.Module]


def lstm_cell(steps: int) -> Output:
    torch.manual_seed(0)
    cell = torch.nn.LSTMCell(3, 4)
    h = c = torch.zeros(1, 4)
    for x in torch.randn(steps, 1, 3):
        h, c = cell(x, (h, c))
    return h.sum()


def gru_cell(steps: int) -> Output:
    torch.manual_seed(0)
    cell = torch.nn.GRUCell(3, 4)
    h = torch.zeros(1, 4)
    for x in torch.randn(steps, 1, 3):
        h = cell(x, h)
    return h.sum()


def mlp_and_loss(layers: int) -> tuple[torch.nn.Module, torch.Tensor]:
    torch.manual_seed(0)
    parts = []
    for _ in range(layers):
        parts += [torch.nn.Linear(8, 8), torch.nn.ReLU()]
    model = torch.nn.Sequential(*parts, torch.nn.Linear(8, 1))
    return model, ((model(torch.randn(16, 8)) - 1) ** 2).mean()


def deep_mlp(layers: int) -> Output:
    return mlp_and_loss(layers)[1]


def named_mlp(layers: int) -> Named:
    """The deep MLP after backward(), its parameters named: each a table with its gradient."""
    model, loss = mlp_and_loss(layers)
    loss.backward(retain_graph=True)
    return loss, model


def scalar_mlp(width: int) -> Output:
    """A micrograd-style MLP of scalar tensors, 3 inputs, two layers of ``width`` neurons: every
    weight its own leaf, every product and sum its own op."""
    torch.manual_seed(0)
    inputs = list(torch.randn(3))
    for fan_in in (3, width):
        layer = []
        for _ in range(width):
            weights = torch.randn(fan_in, requires_grad=True)
            total = torch.randn((), requires_grad=True)
            for i in range(fan_in):
                total = total + weights[i] * inputs[i]
            layer.append(torch.tanh(total))
        inputs = layer
    return sum(inputs)


def residual_net(blocks: int) -> Output:
    torch.manual_seed(0)
    h = torch.randn(2, 8)
    for _ in range(blocks):
        h = h + torch.relu(torch.nn.Linear(8, 8)(torch.nn.functional.layer_norm(h, (8,))))
    return h.sum()


def attention(blocks: int) -> Output:
    """Transformer blocks written out: multi-head self-attention, MLP, residuals, layer norms."""
    torch.manual_seed(0)
    x = torch.randn(2, 5, 16)
    for _ in range(blocks):
        qkv, project = torch.nn.Linear(16, 48), torch.nn.Linear(16, 16)
        mlp = torch.nn.Sequential(torch.nn.Linear(16, 32), torch.nn.GELU(), torch.nn.Linear(32, 16))
        h = torch.nn.functional.layer_norm(x, (16,))
        q, k, v = qkv(h).view(2, 5, 3, 4, 4).permute(2, 0, 3, 1, 4)
        weights = torch.softmax(q @ k.transpose(-2, -1) / 2.0, dim=-1)
        x = x + project((weights @ v).transpose(1, 2).reshape(2, 5, 16))
        x = x + mlp(torch.nn.functional.layer_norm(x, (16,)))
    return x.sum()


def dense_pair(width: int, uses: int | None = None) -> Output:
    """``width`` leaves, each used by every one of ``uses`` ops: width * uses arrows, two rows."""
    torch.manual_seed(0)
    layer = [torch.randn(1, requires_grad=True) for _ in range(width)]
    return torch.stack([torch.stack(layer).sum() * (i + 1) for i in range(uses or width)]).sum()


def dense_layers(width: int, depth: int = 5) -> Output:
    """Every value of a layer computed from all of the layer before."""
    torch.manual_seed(0)
    layer = [torch.randn(1, requires_grad=True) for _ in range(width)]
    for _ in range(depth):
        layer = [torch.stack(layer).sum() * (i + 1) for i in range(width)]
    return torch.stack(layer).sum()


def all_products(leaves: int) -> Output:
    """Every product of two of ``leaves`` scalars: leaves² ops in one row."""
    torch.manual_seed(0)
    xs = [torch.randn(1, requires_grad=True) for _ in range(leaves)]
    return torch.stack([a * b for a in xs for b in xs]).sum()


def hand_matmul(size: int) -> Output:
    """A matrix product written as loops over elements, as a learner checks one by hand."""
    torch.manual_seed(0)
    x, W = torch.randn(size, requires_grad=True), torch.randn(size, size, requires_grad=True)
    return torch.stack([sum(x[i] * W[i, j] for i in range(size)) for j in range(size)]).sum()


def fan_in(leaves: int) -> Output:
    """One op with many inputs: a row of ``leaves`` boxes, every arrow into one box."""
    torch.manual_seed(0)
    return torch.stack([torch.randn(1, requires_grad=True) for _ in range(leaves)]).sum()


def fan_out(uses: int) -> Output:
    """One leaf used by a row of ``uses`` ops, gathered by one more."""
    x = torch.randn(1, requires_grad=True)
    return torch.stack([x * (i + 1) for i in range(uses)]).sum()


def densely_connected(layers: int) -> Output:
    """Each layer computed from the sum of all layers before it, as in a DenseNet."""
    torch.manual_seed(0)
    hs = [torch.randn(4, requires_grad=True)]
    for _ in range(layers):
        hs.append(torch.tanh(torch.stack(hs).sum(0)))
    return hs[-1].sum()


def many_outputs(count: int) -> Output:
    """draw([y1, y2, ...]): one small graph per output, all sharing two weights."""
    torch.manual_seed(0)
    w, b = torch.randn(4, requires_grad=True), torch.randn(1, requires_grad=True)
    return [torch.tanh(torch.randn(4) @ w + b) for _ in range(count)]


def gradient_graph(layers: int) -> Output:
    """The graph of a gradient (create_graph=True), as notebook 09 draws second derivatives."""
    torch.manual_seed(0)
    x = torch.randn(4, 8, requires_grad=True)
    h = x
    for _ in range(layers):
        h = torch.tanh(torch.nn.Linear(8, 8)(h))
    (grad,) = torch.autograd.grad(h.sum(), x, create_graph=True)
    return grad.pow(2).sum()


# name: (builder, sizes drawn plain, sizes also drawn with labels, show_saved and backward)
SHAPES: dict[str, tuple[Callable[[int], Output | Named], tuple[int, ...], tuple[int, ...]]] = {
    "tanh chain": (tanh_chain, (10, 30, 100, 300, 1000, 3000), (30, 300, 1000, 3000)),
    "shared weight": (shared_weight, (30, 100, 300, 1000, 3000, 5000), (100, 1000, 3000)),
    "loss total": (loss_total, (100, 200, 500, 1000, 1300, 2000), (100, 500, 1000)),
    "lstm cell": (lstm_cell, (50, 100, 200, 500), (50, 200, 500)),
    "gru cell": (gru_cell, (50, 100, 200, 500), (50, 200)),
    "deep mlp": (deep_mlp, (10, 50, 200, 600), (50, 200)),
    "named mlp": (named_mlp, (50, 200, 600), (50, 200)),
    "scalar mlp": (scalar_mlp, (8, 16, 32), (8, 16)),
    "residual net": (residual_net, (10, 50, 200, 500), (50, 200)),
    "attention": (attention, (1, 4, 12), (1, 4)),
    "dense pair": (dense_pair, (20, 40, 60, 90, 130, 170, 250), (20, 40, 90)),
    "dense layers": (dense_layers, (20, 40, 60), (20,)),
    "all products": (all_products, (10, 20, 30, 45), (10, 20, 30)),
    "hand matmul": (hand_matmul, (8, 16, 24), (8, 16)),
    "many outputs": (many_outputs, (50, 200, 1000), (50, 200)),
    "fan in": (fan_in, (300, 1000, 3000), (300, 1000)),
    "fan out": (fan_out, (300, 1000, 3000), (300, 1000)),
    "densely connected": (densely_connected, (20, 50, 100), (20, 50)),
    "gradient graph": (gradient_graph, (3, 10, 30), (3, 10)),
}
VARIANTS = ("plain", "labels", "saved", "backward")


@dataclass
class Case:
    """One picture of the corpus, and what drawing it took."""

    name: str  # "lstm cell 200 labels"
    real_boxes: int
    size: LayoutSize | None
    search_placement: bool  # as drawn when measured (see SEARCHED_PLACEMENT)
    measured: float | None = None  # fastest render in seconds; None: stopped at the timeout
    timeout: float | None = None
    load: str = ""  # /proc/loadavg's 1- and 5-minute averages while measured


def pictures(only: str) -> list[tuple[str, str]]:
    """(case name, DOT) of every picture in the corpus whose name contains ``only``."""
    made = []
    for shape, (builder, sizes, varied) in SHAPES.items():
        for size, variant in itertools.product(sizes, VARIANTS):
            if variant != "plain" and size not in varied:
                continue
            name = f"{shape} {size} {variant}"
            if only in name:
                made.append((name, lambda b=builder, s=size, v=variant: source_of(b(s), v)))
    return made


def source_of(made: Output | Named, variant: str) -> tuple[int, LayoutSize, bool, str]:
    """The picture's boxes, size and DOT, as draw(output, max_nodes=None, ...) makes them."""
    output, names = made if isinstance(made, tuple) else (made, None)
    named = None if names is None else {"model": names}
    model = build(output, named, max_nodes=None, show_saved=variant == "saved")
    labels = {}
    if variant == "labels":
        roots = output if isinstance(output, list) else [output]
        nodes = walk([root.grad_fn for root in roots if root.grad_fn is not None]).nodes
        labels = {
            (fn, next_fn): "grad [0.1234, 0.5678]"
            for fn in nodes
            for next_fn, _ in fn.next_functions
            if next_fn is not None
        }
    layout = plan_layout(model, labels)
    direction = "backward" if variant == "backward" else "forward"
    source = to_dot(model, direction=direction, edge_labels=labels, layout=layout)
    return len(model.nodes), layout.size, layout.search_placement, source


# --- timing ------------------------------------------------------------------------------------

CHILD = """
import sys, time
from helpers.graph.render import _RENDERER
_RENDERER.render("digraph { a -> b }", "svg")  # fonts and plugins loaded before the clock runs
source = sys.stdin.read()
start = time.perf_counter()
_RENDERER.render(source, "svg")
print(time.perf_counter() - start)
"""


def load() -> str:
    try:
        return " ".join(Path("/proc/loadavg").read_text().split()[:2])
    except OSError:
        return "?"


def timed(source: str, timeout: float) -> float | None:
    """The fastest render of ``source``, in seconds; None if it did not finish in ``timeout``."""
    try:
        child = subprocess.run(
            [sys.executable, "-c", CHILD],
            input=source.encode(),
            capture_output=True,
            timeout=timeout,
            cwd=ROOT,
            check=True,
        )
    except subprocess.TimeoutExpired:
        return None
    fastest = float(child.stdout)
    if fastest < QUICK:
        repeats = 5 if fastest < 0.3 else 2
        for _ in range(repeats):
            start = time.perf_counter()
            _RENDERER.render(source, "svg")
            fastest = min(fastest, time.perf_counter() - start)
    return fastest


def measure(only: str, timeout: float) -> dict[str, Case]:
    cases = {}
    for name, make in pictures(only):
        real_boxes, size, search, source = make()
        before = load()
        seconds = timed(source, timeout)
        case = Case(name, real_boxes, size, search, seconds, timeout, f"{before} .. {load()}")
        cases[name] = case
        print(f"measured {name}: {_shown(seconds, timeout)} (load {case.load})", flush=True)
    return cases


def saved_cases() -> dict[str, Case]:
    if not MEASUREMENTS.exists():
        return {}
    # Sizes are recounted from the corpus: the terms may have changed since.
    return {
        name: Case(name=name, size=None, **measured)
        for name, measured in json.loads(MEASUREMENTS.read_text()).items()
    }


def save(cases: dict[str, Case]) -> None:
    kept = {name: asdict(case) for name, case in cases.items()}
    for measured in kept.values():
        del measured["name"], measured["size"]
    MEASUREMENTS.write_text(json.dumps(kept, indent=1) + "\n")


# --- the fit -----------------------------------------------------------------------------------

# The terms of the estimate, each with its constant in helpers/graph/layout.py.
CONSTANTS = (
    "SECONDS_TO_START",
    "SECONDS_PER_TABLE",
    "SECONDS_PER_LABEL",
    "SECONDS_PER_POINT",
    "SECONDS_PER_SEGMENT",
    "SECONDS_PER_ROW_SQUARE",
    "SECONDS_PER_CROSSING_WORK",
    "SECONDS_PER_PLACEMENT_SQUARE",
)


def terms(case: Case) -> list[float]:
    size = case.size
    placement = size.placement**2 if case.search_placement else 0
    return [
        1.0,
        size.tables,
        size.labels,
        size.points,
        size.segments,
        size.row_squares,
        size.crossing_work,
        placement,
    ]


def fit(cases: list[Case]) -> list[float]:
    """Non-negative constants that estimate every measured picture within as narrow a band of
    ratios (estimate / measured) as can be found, scaled so that the lowest ratio is SAFETY:
    no picture, not even one stopped at the timeout, takes longer than its estimate.

    The band is narrowed by gradient descent on the logarithms of the constants (which keeps
    them positive), on a soft maximum of log(estimate / measured) minus a soft minimum, made
    harder step by step. Pictures quicker than TINY are left out: a few milliseconds either way
    decide nothing.
    """
    timed = [c for c in cases if c.measured is not None and c.measured >= TINY]
    if not timed:
        return [0.0] * len(CONSTANTS)
    X = np.array([terms(c) for c in timed])
    seconds = np.array([c.measured for c in timed])
    # Each term divided by its largest value, so that one step moves every constant alike.
    largest = X.max(axis=0)
    largest[largest == 0] = 1
    base, measured = torch.tensor(X / largest), torch.log(torch.tensor(seconds))
    logs = torch.full((X.shape[1],), -3.0, dtype=torch.float64, requires_grad=True)
    optimiser = torch.optim.Adam([logs], lr=0.05)
    for hardness in (10, 30, 100, 300):
        for _ in range(2000):
            ratio = torch.log(base @ torch.exp(logs)) - measured
            band = (
                torch.logsumexp(hardness * ratio, 0) + torch.logsumexp(-hardness * ratio, 0)
            ) / hardness
            optimiser.zero_grad()
            band.backward()
            optimiser.step()
    constants = np.exp(logs.detach().numpy()) / largest
    ratios = X @ constants / seconds
    print(f"\nFitted band: estimate / measured from 1 to {ratios.max() / ratios.min():.2f}")
    worst = 0.0
    for case in cases:
        took = case.measured if case.measured is not None else case.timeout
        if took >= TINY:
            worst = max(worst, SAFETY * took / float(np.dot(terms(case), constants)))
    return [float(c) for c in constants * worst]


def table(cases: list[Case], estimate: Callable[[Case], float]) -> None:
    print(
        f"{'picture':<30} {'boxes':>6} {'points':>7} {'segments':>8} {'crossing work':>13} "
        f"{'estimate s':>10} {'measured s':>10} {'est/meas':>8}  load"
    )
    for case in cases:
        size = case.size
        guess = estimate(case)
        took = _shown(case.measured, case.timeout)
        ratio = ""
        if case.measured is not None:
            ratio = f"{guess / case.measured:.2f}"
        elif case.timeout:
            ratio = f"<{guess / case.timeout:.2f}"
        mark = " " if case.search_placement else "*"
        print(
            f"{case.name:<30} {case.real_boxes:>6}{mark}{size.points:>7} {size.segments:>8} "
            f"{size.crossing_work:>13,.0f} {guess:>10.3f} {took:>10} {ratio:>8}  {case.load}"
        )
    print("(* dot keeps its first placement: nslimit=0)")


def _faster(case: Case, earlier: Case) -> bool:
    if case.measured is None:
        return False
    return earlier.measured is None or case.measured < earlier.measured


def _shown(seconds: float | None, timeout: float | None) -> str:
    return f"{seconds:.3f}" if seconds is not None else f"> {timeout:.0f}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", default="", help="measure the pictures whose name has this")
    parser.add_argument("--saved", action="store_true", help="refit the saved measurements only")
    parser.add_argument("--timeout", type=float, default=120, help="seconds per picture at most")
    args = parser.parse_args()
    cases = saved_cases()
    if not args.saved:
        print(f"torch {torch.__version__}, {os.cpu_count()} cores, load {load()}", flush=True)
        for name, case in measure(args.only, args.timeout).items():
            # A picture measured before keeps its faster time: other work only ever adds time.
            earlier = cases.get(name)
            if earlier is None or _faster(case, earlier):
                cases[name] = case
        save(cases)
    # The pictures the corpus still makes, their sizes recounted: the terms may have changed.
    current = dict(pictures(""))
    listed, changed = [], []
    for name, case in cases.items():
        if name in current:
            case.real_boxes, case.size, search, _ = current[name]()
            if search != case.search_placement:
                changed.append(name)
            listed.append(case)
    print("\nWith the constants in use:")
    table(listed, lambda case: estimated_seconds(case.size, case.search_placement))
    fitted = fit(listed)
    print("\nRefitted constants, for helpers/graph/layout.py:")
    for name, constant in zip(CONSTANTS, fitted, strict=True):
        print(f"{name} = {constant:.2g}")
    table(listed, lambda case: float(np.dot(terms(case), fitted)))
    if changed:
        print("\nDrawn differently now (placement searched or not), measure again:", changed)


if __name__ == "__main__":
    main()

"""What the live loss plot costs the training loop of notebook 05, measured in a notebook kernel.

The live plot only draws pictures inside a notebook kernel, so the loops run in one, started with
nbclient exactly as nbval and `make outputs` start theirs. Three ways to run the same loop:

- plain: the 500-step loop of notebook 05 (two-layer net, 64 x 1000 -> 100 -> 10, CPU), no picture;
- static: the same loop, then `plot_losses` of the whole curve, displayed once at the end;
- live: the same loop with `LiveLossPlot` updated at every step.

Each is repeated in alternating rounds and the median is reported, first for 500 steps (the
notebook's loop, which ends before the first throttled redraw is due) and then for 5000 steps,
long enough for the live plot to redraw while the loop runs. The first live plot of a fresh
kernel pays for loading fonts and is reported on its own ("cold").

PyTorch runs on one thread here. On a shared machine its OpenMP threads wait for one another and
the same loop swings between 0.3 and 7 seconds; on one thread this small loop is as fast as on
two, and steady.

Run: .venv/bin/python benchmarks/bench_live_plot.py
"""

from __future__ import annotations

import json
import sys

import nbformat
from nbclient import NotebookClient

ROUNDS = 7

SETUP = """\
import json
import statistics
import time

import torch
from IPython.display import display

from helpers.plot import LiveLossPlot, plot_losses

torch.set_num_threads(1)
N, D_in, H, D_out = 64, 1000, 100, 10


def train(steps, record):
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(N, D_in, generator=generator)
    y = torch.randn(N, D_out, generator=generator)
    w1 = torch.randn(D_in, H, generator=generator).requires_grad_()
    w2 = torch.randn(H, D_out, generator=generator).requires_grad_()
    for t in range(steps):
        loss = (x.mm(w1).clamp(min=0).mm(w2) - y).pow(2).sum()
        record(t, loss.item())
        loss.backward()
        with torch.no_grad():
            w1 -= 1e-6 * w1.grad
            w2 -= 1e-6 * w2.grad
            w1.grad.zero_()
            w2.grad.zero_()


def plain(steps):
    losses = []
    train(steps, lambda t, loss: losses.append(loss))


def static(steps):
    losses = []
    train(steps, lambda t, loss: losses.append(loss))
    display(plot_losses(losses))


def live(steps):
    with LiveLossPlot() as plot:
        train(steps, plot.update)
    return plot.redraws


def live_loop_only(steps):
    # The loop with the live plot's updates, up to the moment the block ends: the throttled
    # redraws, without the one final picture every variant but `plain` has to draw.
    with LiveLossPlot() as plot:
        started = time.perf_counter()
        train(steps, plot.update)
        return time.perf_counter() - started


def seconds(variant, steps):
    started = time.perf_counter()
    variant(steps)
    return time.perf_counter() - started


plain(500)  # warm up torch
"""

MEASURE = """\
cold = seconds(live, {steps})
times = {{"plain": [], "static": [], "live": [], "live_loop": []}}
for _ in range({rounds}):
    for name, variant in (("plain", plain), ("static", static), ("live", live)):
        times[name].append(seconds(variant, {steps}))
    times["live_loop"].append(live_loop_only({steps}))
print(json.dumps({{"cold": cold, "redraws": live({steps}),
                  **{{name: statistics.median(t) for name, t in times.items()}}}}))
"""


def measure(steps: int) -> dict[str, float]:
    """Medians for one loop length, in a fresh kernel."""
    notebook = nbformat.v4.new_notebook()
    notebook.cells = [
        nbformat.v4.new_code_cell(SETUP),
        nbformat.v4.new_code_cell(MEASURE.format(steps=steps, rounds=ROUNDS)),
    ]
    NotebookClient(notebook, kernel_name="python3", timeout=1800).execute()
    printed = "".join(o.text for o in notebook.cells[1].outputs if o.output_type == "stream")
    return json.loads(printed.strip().splitlines()[-1])


def report(steps: int, result: dict[str, float]) -> None:
    plain = result["plain"]

    def share(seconds: float) -> str:
        return f"{seconds:.3f} s ({100 * (seconds - plain) / plain:+.0f}% vs plain)"

    print(f"{steps} steps, median of {ROUNDS}:")
    print(f"  plain   {plain:.3f} s")
    print(f"  static  {share(result['static'])}")
    print(f"  live    {share(result['live'])}, {result['redraws']} picture(s) drawn")
    print(f"  live, loop only (before the final picture) {share(result['live_loop'])}")
    print(
        f"  live minus static: {100 * (result['live'] - result['static']) / plain:+.1f}% of plain"
    )
    print(f"  cold live (first picture of a fresh kernel): {result['cold']:.3f} s")


def main() -> int:
    for steps in (500, 5000):
        report(steps, measure(steps))
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""How long does Jupyter's *Interrupt kernel* take to stop a slow render, in a real kernel?

A picture predicted to take Graphviz more than half a second is laid out in a child process
(helpers._graphviz). This starts a kernel, has it render DOT that takes Graphviz about a minute
(the slow source of tests/test_graphviz.py), interrupts it two seconds in, and measures until the
cell's error reply arrives; then checks that a variable defined before is still there. The first
interrupt of a kernel is the slowest: IPython loads what it formats tracebacks with.

    python benchmarks/bench_interrupt.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import test_graphviz as kernel_test  # noqa: E402  (its kernel with a slow drawing)


def interrupt_seconds(repeat: int) -> list[float]:
    with kernel_test.kernel_with_a_slow_drawing() as (manager, client):
        seconds = []
        for _ in range(repeat):
            reply, stopped_after = kernel_test.interrupt_a_render(manager, client)
            assert reply["content"]["ename"] == "KeyboardInterrupt"
            seconds.append(stopped_after)
            kernel_test.wait_until_it_runs_cells(client)
        kept = kernel_test.run_in(client, "print(kept_before)")["printed"].strip()
        assert kept == "42", "the kernel lost a variable"
        return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5, help="interrupts in one kernel")
    args = parser.parse_args()
    seconds = interrupt_seconds(args.repeat)
    print(
        f"Interrupt kernel to the cell's reply, {args.repeat} renders of about a minute: "
        f"first {seconds[0]:.2f} s, median {statistics.median(seconds):.2f} s, "
        f"slowest {max(seconds):.2f} s"
    )


if __name__ == "__main__":
    main()

"""How long does Jupyter's *Interrupt kernel* take to stop a cell, in a real kernel?

A slow render: a picture predicted to take Graphviz more than half a second is laid out in a
child process (helpers.graph.render). This starts a kernel, has it render DOT that takes Graphviz
about a minute (the slow source of tests/test_graphviz.py), interrupts it two seconds in, and
measures until the cell's error reply arrives; then checks that a variable defined before is
still there. The first interrupt of a kernel is the slowest: IPython loads what it formats
tracebacks with.

Loops, once the helpers hold the Nodes of a graph the learner keeps (tests/test_interrupt.py): a
loop that allocates, and loops of `trace` and of `build` on a 4,000-Node graph, each interrupted
--repeat times at different moments; how many interrupts were lost (the cell ran on), and how long
the others took.

    python benchmarks/bench_interrupt.py [--repeat 5]
"""

from __future__ import annotations

import argparse
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "tests"))
import test_graphviz as kernel_test  # noqa: E402  (its kernel with a slow drawing)
import test_interrupt as loop_test  # noqa: E402  (its kept graph and loops)


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


def loop_interrupts(repeat: int) -> dict[str, tuple[int, list[float]]]:
    """For each loop: interrupts lost, and the seconds the others took to stop the cell."""
    results = {}
    with kernel_test.kernel_running(loop_test.KEPT_GRAPH_DRAWN) as (manager, client):
        for name, statement in loop_test.LOOPS.items():
            cell = loop_test.fifteen_seconds_of(statement)
            lost, seconds = 0, []
            for round_ in range(repeat):
                kernel_test.wait_until_it_runs_cells(client)
                reply, stopped_after = kernel_test.interrupt_a_cell(
                    manager, client, cell, after=0.2 + 0.05 * round_
                )
                if reply["content"].get("ename") == "KeyboardInterrupt":
                    seconds.append(stopped_after)
                else:
                    lost += 1
            results[name] = (lost, seconds)
    return results


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
    for name, (lost, stopped) in loop_interrupts(args.repeat).items():
        timing = (
            f"median {statistics.median(stopped):.2f} s, slowest {max(stopped):.2f} s"
            if stopped
            else "none stopped"
        )
        print(
            f"Interrupt kernel, {name} loop after a kept draw: {lost}/{args.repeat} lost; {timing}"
        )


if __name__ == "__main__":
    main()

"""Interrupt kernel stops the learner's cell, also once the helpers hold the Nodes of a graph.

Measured before the fix: after ``draw(y)``, with ``y`` kept, a loop that allocates ignored Interrupt
kernel 3 times out of 3 (the kernel printed "Exception ignored in: <bound method
_NodeKeeper._around_collection ...> KeyboardInterrupt" and the cell ran on), and repeated
``trace``/``build`` calls lost 5 interrupts out of 8. helpers.seen_nodes freed Nodes from a
``gc.callbacks`` entry, and Python ignores a KeyboardInterrupt raised there; it now frees them at
the start of a helper call. Tested with SIGINT sent to a plain child process (quick), then with
Interrupt kernel in a real kernel, as a learner presses it.
"""

from __future__ import annotations

import select
import signal
import subprocess
import sys
import time

import pytest
from test_graphviz import interrupt_a_cell, kernel_running, wait_until_it_runs_cells

ROUNDS = 10
STOPS_WITHIN_SECONDS = 2

# A 4,000-Node graph that the learner keeps, drawn: the helpers hold the Nodes they saw.
KEPT_GRAPH_DRAWN = """
import time
import torch
from helpers.backward import trace
from helpers.graph import build, draw

x = torch.tensor(1.0, requires_grad=True)
y = x
for _ in range(4000):
    y = torch.sin(y)
drawing = draw(y)
"""

# Cells that run for 15 s unless interrupted; "ran on" if the interrupt was lost.
LOOPS = {
    "allocating": "data = [{'x': i, 'y': [i, i + 1]} for i in range(10000)]",
    "trace": "trace(y, retain_graph=True)",
    "build": "build(y, max_nodes=None)",
}


def fifteen_seconds_of(statement: str) -> str:
    return (
        "end = time.monotonic() + 15\n"
        "while time.monotonic() < end:\n"
        f"    {statement}\n"
        "print('ran on')\n"
    )


def waits_before_interrupting() -> list[float]:
    """Different moments of the loop for each round (0.2 s to 0.65 s in)."""
    return [0.2 + 0.05 * round_ for round_ in range(ROUNDS)]


# --- a plain process -----------------------------------------------------------------------------

CHILD = (
    KEPT_GRAPH_DRAWN
    + """
import sys
for _ in sys.stdin:  # a round for each line the parent writes
    try:
        print("running", flush=True)
        end = time.monotonic() + 15
        while time.monotonic() < end:
            {statement}
        print("ran on", flush=True)
    except KeyboardInterrupt:
        print("stopped", flush=True)
"""
)


def line_within(child: subprocess.Popen, seconds: float) -> str:
    ready, _, _ = select.select([child.stdout], [], [], seconds)
    return child.stdout.readline().strip() if ready else "nothing yet"


@pytest.mark.skipif(sys.platform == "win32", reason="SIGINT cannot be sent to one process there")
def test_sigint_stops_a_loop_that_allocates_after_a_kept_graph_was_drawn():
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD.format(statement=LOOPS["allocating"])],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        bufsize=1,
    )
    answers = []
    try:
        for wait in waits_before_interrupting():
            child.stdin.write("go\n")
            child.stdin.flush()
            started = line_within(child, 120)
            if started != "running":
                answers.append(f"not started: {started}")
                break
            time.sleep(wait)
            child.send_signal(signal.SIGINT)
            answers.append(line_within(child, STOPS_WITHIN_SECONDS))
            if answers[-1] != "stopped":
                break  # the loop runs on: later rounds would only wait for it
    finally:
        child.kill()
        errors = child.communicate()[1]
    assert answers == ["stopped"] * ROUNDS, errors[-2000:]
    assert "Exception ignored" not in errors


# --- a real kernel -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def kernel():
    pytest.importorskip("jupyter_client")
    with kernel_running(KEPT_GRAPH_DRAWN) as manager_and_client:
        yield manager_and_client


@pytest.mark.parametrize("loop", LOOPS)
def test_interrupt_kernel_stops_a_loop_every_time_once_helpers_hold_nodes(kernel, loop):
    manager, client = kernel
    cell = fifteen_seconds_of(LOOPS[loop])
    stops, seconds = [], []
    for wait in waits_before_interrupting():
        wait_until_it_runs_cells(client)
        reply, stopped_after = interrupt_a_cell(manager, client, cell, after=wait)
        stops.append(reply["content"].get("ename", reply["content"]["status"]))
        seconds.append(round(stopped_after, 2))
        if stops[-1] != "KeyboardInterrupt":
            break  # the cell ran on to its end: no need to wait for more
    assert stops == ["KeyboardInterrupt"] * ROUNDS
    assert max(seconds) < STOPS_WITHIN_SECONDS, seconds

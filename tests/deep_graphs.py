"""Deep graphs handed to the helpers, then let go, in a child process with a 2 MB stack.

PyTorch frees the Nodes Python has looked at one inside the other: freeing a chain of about
12,000 of them overflows a 2 MB stack (the size of python.exe's on Windows) and the process
crashes, in whatever cell lets the graph go. A child process, so that a crash is a failed test,
not a lost test run.
"""

from __future__ import annotations

import subprocess
import sys

SMALL_STACK = """
import resource
# The main thread's stack grows up to RLIMIT_STACK as it is when the stack grows: lowered here,
# it is a 2 MB stack from now on.
_, hard = resource.getrlimit(resource.RLIMIT_STACK)
resource.setrlimit(resource.RLIMIT_STACK, (2 * 1024 * 1024, hard))
import torch
from helpers.backward import grad, trace
from helpers.graph import draw
"""

CHAIN_THEN_CALL = """
x = torch.tensor(1.0, requires_grad=True)
y = x
for _ in range(30_000):
    y = torch.sin(y)
try:
    {call}
except ValueError as refused:
    print(type(refused).__name__)
y = None  # the learner's next cell lets the graph go
print("freed")
"""


def with_a_small_stack(code: str) -> tuple[int, list[str], str]:
    """Exit code, printed words and the end of stderr of ``code`` run in a child process whose
    stack is 2 MB, with torch, draw, trace and grad imported."""
    child = subprocess.run(
        [sys.executable, "-c", SMALL_STACK + code],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return child.returncode, child.stdout.split(), child.stderr[-2000:]


def let_go_after(call: str) -> tuple[int, list[str], str]:
    """`with_a_small_stack` of ``call`` on a 30,000-Node chain ``y`` of leaf ``x`` (a refusal
    prints the error's type), after which the graph is let go."""
    return with_a_small_stack(CHAIN_THEN_CALL.format(call=call))

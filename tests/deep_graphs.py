"""A deep graph handed to a helper, then let go, in a child process with a 2 MB stack.

PyTorch frees the Nodes Python has looked at one inside the other: freeing a chain of about
12,000 of them overflows a 2 MB stack (the size of python.exe's on Windows) and the process
crashes, in whatever cell lets the graph go. The helpers look at no more than 5,000. A child
process, so that a crash is a failed test, not a lost test run.
"""

from __future__ import annotations

import subprocess
import sys

SCRIPT = """
import resource
# The main thread's stack grows up to RLIMIT_STACK as it is when the stack grows: lowered here,
# it is a 2 MB stack from now on.
_, hard = resource.getrlimit(resource.RLIMIT_STACK)
resource.setrlimit(resource.RLIMIT_STACK, (2 * 1024 * 1024, hard))
import torch
from helpers.backward import grad, trace
from helpers.graph import draw
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


def let_go_after(call: str) -> tuple[int, list[str], str]:
    """Exit code, printed lines and stderr of a child that runs ``call`` on a 30,000-Node chain
    ``y`` of leaf ``x`` (a refusal prints the error's type), then lets the graph go."""
    child = subprocess.run(
        [sys.executable, "-c", SCRIPT.format(call=call)],
        capture_output=True,
        text=True,
        timeout=300,
    )
    return child.returncode, child.stdout.split(), child.stderr[-2000:]

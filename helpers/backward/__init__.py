"""The backward pass, step by step: a trace of PyTorch's own engine, and an engine written by hand.

``trace(y)`` runs ``y.backward()`` and records, through hooks on the graph's Nodes, every node
PyTorch's engine ran, in the order it ran them, with the gradients that came in and went out:
whole when small, as a `GradientSummary` (shape, dtype, norms, a few values, a hash of the bits)
when large, so that a trace costs about the memory of the pass it records.

``compare(loss, {"h": grad_h, ...})`` checks the gradients you computed by hand against
autograd's, and names the one to fix first.

``grad(y, inputs)`` computes what ``torch.autograd.grad`` computes, with a Python engine (a loop
and eight short helpers, in engine.py) over the same Nodes, so that the algorithm can be read:
count each node's dependencies, seed the output's gradient, run every node once all of its
gradients have arrived. Its answer is PyTorch's
answer, bit for bit, or an error that says why it cannot be: ``grad`` lets PyTorch's engine
compute the same gradients first, watching every node, and compares.

Hooks. PyTorch's engine runs the hooks registered on tensors (``register_hook``, ``retain_grad``)
and on Nodes (``register_prehook``, ``register_hook``, and through them a module's full backward
hooks); calling a Node directly, as the by-hand engine does, runs none of them, and PyTorch gives
no way to list a Node's hooks. So in ``grad`` the hooks run once, in PyTorch's pass, exactly as
in ``torch.autograd.grad``; where one changed a gradient the two answers differ and ``grad``
refuses, naming the node, and the hook when it can find it. ``trace`` records PyTorch's pass,
hooks included, and shows where a hook changed a gradient on its way into a node.

A word on names. PyTorch names a Node's gradients from the forward pass's point of view:
``grad_outputs`` are the gradients with respect to the node's outputs, which flow *into* the node
during backward, and ``grad_inputs`` those with respect to its inputs, which it sends *on* to its
``next_functions``. Here they are ``grads_in`` and ``grads_out``: named by the way they travel.

The files of the package, each readable alone; each imports only files above it in this list:

    messages.py      every text a learner reads, in English and Chinese (two catalogues)
    gradients.py     what is kept of a gradient (whole, or a GradientSummary); comparing bits
    engine.py        the by-hand engine, backward_by_hand, and the reading of the graph it shares
    watching.py      the hooks that watch PyTorch's engine run a pass
    refusals.py      what trace and grad refuse, before running and from PyTorch's engine
    records.py       Step and TracedValue: what a trace keeps of each run and each tensor
    table.py         a trace as a table: how a Trace shows itself in a notebook
    tracing.py       trace(output) and the Trace it returns
    differences.py   why grad's two answers differ, when they do
    checked_grad.py  grad(output, inputs): both engines, and their answers compared
    comparison.py    compare(output, mine): a backward pass written by hand against autograd's
    view.py          a trace's pictures and slider (frames, step_through): helpers.backward_view

This module gives the public names; ``helpers.backward_view`` gives the view's.
"""

from helpers.backward.checked_grad import grad
from helpers.backward.comparison import Comparison, GradientCheck, compare

# The by-hand engine's functions are here too: notebook 08 prints them from here, with
# inspect.getsource(backward.backward_by_hand).
from helpers.backward.engine import (  # noqa: F401
    CannotMatchPyTorch,
    accumulate,
    backward_by_hand,
    fit_to_slot,
    run_node,
)
from helpers.backward.gradients import KEPT_WHOLE, GradientSummary
from helpers.backward.records import Step, TracedValue
from helpers.backward.tracing import Trace, trace

__all__ = [
    "KEPT_WHOLE",
    "CannotMatchPyTorch",
    "Comparison",
    "GradientCheck",
    "GradientSummary",
    "Step",
    "Trace",
    "TracedValue",
    "compare",
    "grad",
    "trace",
]

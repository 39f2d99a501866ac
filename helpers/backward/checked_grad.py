"""``grad(output, inputs)``: the by-hand engine's gradients, given only when they are PyTorch's.

PyTorch's engine computes the gradients first, watched by hooks on every node
(`helpers.backward.watching`); then the by-hand engine (`helpers.backward.engine`) computes them
again, and the two answers are compared bit for bit (`helpers.backward.gradients`). Equal bits:
the answer. Different bits: `CannotMatchPyTorch`, with the reason `helpers.backward.differences`
finds, most often a hook.
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from helpers.backward.differences import why_they_differ
from helpers.backward.engine import (
    CannotMatchPyTorch,
    ancestors,
    backward_by_hand,
    consumers_of_each_node,
    gradient_edge_of,
    where_gradients_stop,
)
from helpers.backward.gradients import Gradients, kept_gradients, same_bits
from helpers.backward.messages import MESSAGES
from helpers.backward.refusals import (
    as_inputs,
    check_inputs,
    friendly_errors,
    noticing_checkpoints,
    refuse_reentrant_checkpoints,
    refuse_what_grad_would_repeat,
    starting_gradient,
)
from helpers.backward.watching import watching_the_engine
from helpers.graph.transforms import refuse_inside_transforms


def grad(
    output: torch.Tensor,
    inputs: torch.Tensor | Sequence[torch.Tensor],
    grad_output: torch.Tensor | None = None,
) -> Gradients:
    """Gradients of ``output`` with respect to each input, computed by a backward pass by hand.

    The result of ``torch.autograd.grad(output, inputs, grad_output, allow_unused=True)``, bit for
    bit: one gradient per input, None for an input that does not influence output. How it makes
    sure: PyTorch's engine computes the same gradients first (``torch.autograd.grad`` with
    ``retain_graph=True``), while hooks on every node watch what it received and sent; then the
    by-hand engine, ``backward_by_hand``, computes them again, and the two answers are compared.
    Equal bits: you get the answer. Different bits: `CannotMatchPyTorch`, naming the node where
    PyTorch's engine did something the by-hand one does not, most often a hook.

    What it keeps meanwhile, so that it costs about the memory of the pass: of each gradient the
    hooks see, and of PyTorch's answer, a copy when it has at most `KEPT_WHOLE` numbers, else a
    `GradientSummary` with a hash of its bits, against which the by-hand answer is compared bit
    for bit. Only to explain a refusal does it compute the gradients of the pass again, node by
    node, holding only those on their way, as the engines do.

    Side effects are those of ``torch.autograd.grad``: your hooks run once (in PyTorch's pass),
    a tensor that called ``retain_grad()`` gets its ``.grad``, no leaf's ``.grad`` changes; only
    a custom Function's ``backward`` runs twice, once in each engine. What PyTorch's engine
    refuses, grad refuses, with its reason, and so does a graph of more than `NODES_SAFE_TO_SEE`
    Nodes, or one holding a reentrant checkpoint anywhere (for whose inner parameters
    ``torch.autograd.grad`` answers None), before anything is written. A graph whose saved
    tensors come back through an unpack hook (a non-reentrant checkpoint, which runs its forward
    again; a ``saved_tensors_hooks``) is refused before anything runs: going through it twice
    would run that hook more often than ``torch.autograd.grad`` does. (Torch 2.8 to 2.11 hide
    those hooks: there a checkpoint is refused after PyTorch's pass, and a learner's own
    unpack hook runs in both passes; NOTE [unpack hooks on older torch] in refusals.py.) Unlike
    PyTorch, it leaves the graph intact. Inside a function that ``torch.func.grad`` transforms,
    it walks that level's Nodes; inside vmap or jvp it refuses (`InsideTransform`), saying what
    to call instead. Read ``backward_by_hand`` (in engine.py): it is the whole algorithm.
    """
    inputs = as_inputs(inputs)
    refuse_inside_transforms("grad", [output, grad_output, *inputs])
    seed = starting_gradient(output, grad_output)
    check_inputs(inputs)
    root = gradient_edge_of(output)
    consumers = consumers_of_each_node(root.node)
    refuse_reentrant_checkpoints(consumers)
    needed = ancestors(where_gradients_stop(inputs), consumers)
    refuse_what_grad_would_repeat(needed)

    with watching_the_engine(needed, root.node) as runs, friendly_errors():
        with noticing_checkpoints() as recomputed:
            pytorchs = torch.autograd.grad(
                output, inputs, grad_output, retain_graph=True, allow_unused=True
            )
    if recomputed:  # an older torch hid the checkpoint: NOTE [unpack hooks on older torch]
        raise CannotMatchPyTorch(MESSAGES.say("checkpoint recomputed"))
    # To compare with: a large one as a summary, freeing its memory.
    pytorchs = kept_gradients(pytorchs)
    with torch.inference_mode(False):  # asked from inside it, the leaves are looked up outside
        ours = backward_by_hand(output, inputs, seed)
    if not same_bits(ours, pytorchs):
        raise CannotMatchPyTorch(why_they_differ(runs, output, inputs, seed, ours, pytorchs))
    return ours

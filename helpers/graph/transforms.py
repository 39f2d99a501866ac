"""What the helpers do with tensors that ``torch.func`` transforms made: NOTE [torch.func
transforms].

Every public helper that looks at a graph (`draw`, `build`, `explore`, `trace`, `grad`, `compare`)
hands its tensors to `refuse_inside_transforms` first: a picture, a trace or an answer where the
tensors hold a real graph, else one `InsideTransform` that says what to call instead.
"""

from __future__ import annotations

from collections.abc import Iterable

import torch
from torch._C import _functorch as functorch

from helpers.graph.messages import MESSAGES
from helpers.graph.model import tangent_of

# NOTE [torch.func transforms]
# Inside a function that torch.func transforms, each tensor is a wrapper, one layer per transform
# level. Under grad, vjp and jacrev the wrapper is a GradTrackingTensor with a grad_fn of its own:
# its Nodes are the real ones of that level, and drawing them, or computing gradients through them
# by hand, is right. Under vmap the wrapper is a BatchedTensor: it stands for a whole batch, has no
# grad_fn, and what autograd records is kept outside the transform. Under jvp (and jacfwd) the
# level carries tangents forward and records no Nodes. PyTorch refuses backward() under any
# transform, so trace cannot run there. A wrapper kept after its transform returned (appended to
# a list from inside) is dead: its transform has run its own backward pass and let go of it.
# Only functions of torch._C._functorch that torch 2.8 to 2.14 all have are used
# (is_functorch_wrapped_tensor, is_batchedtensor, is_dead_tensor_wrapper, get_unwrapped,
# maybe_current_level, peek_interpreter_stack); tests/test_func_transforms.py runs on each.


class InsideTransform(ValueError):
    """A helper was given a tensor it cannot look at: from inside a ``torch.func`` transform, or a
    dual tensor of forward mode that has no backward graph. The message says what to do instead."""


def refuse_inside_transforms(
    helper: str,
    tensors: Iterable[torch.Tensor],
    *,
    runs_backward: bool = False,
    reads_later: bool = False,
) -> None:
    """Refuse, with what to do instead, what ``helper`` cannot look at: NOTE [torch.func
    transforms]. ``runs_backward``: the helper calls backward(), which PyTorch refuses under any
    transform. ``reads_later``: the helper reads the tensors after the call (a view), when a
    transform has let go of its wrappers."""
    tensors = [tensor for tensor in tensors if isinstance(tensor, torch.Tensor)]
    if runs_backward and functorch.maybe_current_level() is not None:
        raise InsideTransform(MESSAGES.say("backward_inside_transform", helper=helper))
    for tensor in tensors:
        layers = wrapper_layers(tensor)
        if layers and functorch.is_dead_tensor_wrapper(tensor):
            raise InsideTransform(MESSAGES.say("left_its_transform", helper=helper))
        if "vmap" in layers:
            raise InsideTransform(MESSAGES.say("inside_vmap", helper=helper))
        if layers and _forward_mode_is_innermost():
            raise InsideTransform(MESSAGES.say("inside_jvp", helper=helper))
        if layers and reads_later:
            raise InsideTransform(MESSAGES.say("view_inside_transform", helper=helper))
        if not tensor.requires_grad and tangent_of(tensor) is not None:
            raise InsideTransform(MESSAGES.say("dual_without_graph", helper=helper))


def wrapper_layers(tensor: torch.Tensor) -> list[str]:
    """The torch.func wrappers around ``tensor``, outermost first: "vmap" for a BatchedTensor,
    "grad" for a GradTrackingTensor (grad, vjp, jacrev, and jvp's forward mode); [] for a plain
    tensor."""
    layers = []
    while functorch.is_functorch_wrapped_tensor(tensor):
        layers.append("vmap" if functorch.is_batchedtensor(tensor) else "grad")
        tensor = functorch.get_unwrapped(tensor)
    return layers


def _forward_mode_is_innermost() -> bool:
    """Whether the innermost transform running is jvp's forward mode (jvp, jacfwd)."""
    level = functorch.peek_interpreter_stack()
    return level is not None and level.key() == functorch.TransformType.Jvp

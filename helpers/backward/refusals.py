"""What `trace` and `grad` refuse, each time in words that say what to do instead.

Their arguments are checked before anything runs (`starting_gradient`, `as_inputs`, `check_inputs`),
and the graph as soon as it is known, before any hook is in place: a nested tensor has no single
shape; and `grad` refuses a saved tensor that comes back through an unpack hook (a non-reentrant
checkpoint), which its two engines would run twice (`_refuse_unpack_hooks`). What PyTorch's engine
refuses during the pass is said again as advice a learner can act on (`friendly_errors`).
"""

from __future__ import annotations

import inspect
import os
import sys
from collections.abc import Iterable, Iterator, Mapping
from contextlib import contextmanager

import torch
import torch.utils.checkpoint
from torch.autograd.graph import Node

from helpers.backward.engine import CannotMatchPyTorch, short_name
from helpers.backward.messages import MESSAGES

# --- what trace and grad are given ----------------------------------------------------------------


def starting_gradient(output: torch.Tensor, grad_output: torch.Tensor | None) -> torch.Tensor:
    """The gradient the backward pass starts from, after checking that there is a pass to run."""
    if _several_tensors(output):
        raise TypeError(
            MESSAGES.say("several outputs", kind=type(output).__name__, count=len(output))
        )
    if not isinstance(output, torch.Tensor):
        raise TypeError(MESSAGES.say("output not a tensor", kind=type(output).__name__))
    if not output.requires_grad:
        raise ValueError(MESSAGES.say("no graph"))
    for where, tensor in (("output", output), ("grad_output", grad_output)):
        if isinstance(tensor, torch.Tensor) and tensor.is_nested:  # it has no single shape
            raise ValueError(MESSAGES.say("nested tensor", where=where))
    if grad_output is None:
        if output.numel() != 1:
            raise ValueError(MESSAGES.say("not a number", shape=tuple(output.shape)))
        if output.is_complex():
            raise ValueError(MESSAGES.say("complex output"))
        return torch.ones_like(output)
    if not isinstance(grad_output, torch.Tensor) or grad_output.shape != output.shape:
        raise ValueError(
            MESSAGES.say("grad_output shape", shape=tuple(output.shape), got=_describe(grad_output))
        )
    if grad_output.device != output.device:
        raise ValueError(
            MESSAGES.say("grad_output device", there=grad_output.device, here=output.device)
        )
    return grad_output.detach()


def _several_tensors(value: object) -> bool:
    """A list or tuple of tensors, as torch.autograd.grad accepts for its outputs."""
    return (
        isinstance(value, list | tuple)
        and len(value) > 0
        and all(isinstance(item, torch.Tensor) for item in value)
    )


def as_inputs(inputs: object) -> tuple:
    """grad's ``inputs`` as a tuple; the containers a learner is likely to pass instead of
    tensors (a model, a dict, named_parameters()) are refused with the call that works."""
    if isinstance(inputs, torch.Tensor):
        return (inputs,)
    if isinstance(inputs, torch.nn.Module):
        raise TypeError(MESSAGES.say("inputs a module", kind=type(inputs).__name__))
    if isinstance(inputs, Mapping):  # iterating over it would give its keys
        raise TypeError(MESSAGES.say("inputs a dict", kind=type(inputs).__name__))
    if isinstance(inputs, str | bytes) or not isinstance(inputs, Iterable):
        kind = "None" if inputs is None else type(inputs).__name__
        raise TypeError(MESSAGES.say("inputs not tensors", kind=kind))
    inputs = tuple(inputs)
    if any(_is_name_and_tensor(item) for item in inputs):
        raise TypeError(MESSAGES.say("inputs named pairs"))
    return inputs


def _is_name_and_tensor(item: object) -> bool:
    """A ``(name, tensor)`` pair, as ``model.named_parameters()`` gives."""
    return (
        isinstance(item, tuple)
        and len(item) == 2
        and isinstance(item[0], str)
        and isinstance(item[1], torch.Tensor)
    )


def check_inputs(inputs: tuple) -> None:
    if not inputs:
        raise ValueError(MESSAGES.say("no inputs"))
    for position, tensor in enumerate(inputs):
        if isinstance(tensor, torch.nn.Module):
            kind = type(tensor).__name__
            raise TypeError(MESSAGES.say("input a module", position=position, kind=kind))
        if not isinstance(tensor, torch.Tensor):
            kind = type(tensor).__name__
            raise TypeError(MESSAGES.say("input not a tensor", position=position, kind=kind))
        if not tensor.requires_grad:
            raise ValueError(MESSAGES.say("input needs no grad", position=position))
        if tensor.is_nested:
            raise ValueError(MESSAGES.say("nested tensor", where=f"inputs[{position}]"))


# --- the graph, before anything runs --------------------------------------------------------------


def check_before_tracing(nodes: Iterable[Node], retain_graph: object) -> None:
    """What trace refuses once it has the graph, before any hook is in place."""
    if not isinstance(retain_graph, bool):  # PyTorch's own error would be a raw TypeError
        raise TypeError(MESSAGES.say("retain_graph not bool", got=_short_repr(retain_graph)))
    refuse_nested_tensors(nodes)


def refuse_what_grad_would_repeat(needed: Iterable[Node]) -> None:
    """What grad refuses once it knows the nodes it will run, before running any of them."""
    refuse_nested_tensors(needed)
    _refuse_unpack_hooks(needed)


def refuse_reentrant_checkpoints(nodes: Iterable[Node], helper: str = "grad") -> None:
    """Refuse a graph that holds a reentrant checkpoint anywhere. Its backward runs a backward
    pass of its own over the checkpointed forward, which writes into .grad; and the Nodes inside
    it are not in this graph, so the parameters used there get None from
    ``torch.autograd.grad(..., allow_unused=True)``, where ``loss.backward()`` fills their .grad:
    grad would answer None for them, truly but misleadingly. compare, which promises to change no
    .grad, refuses it too (``helper="compare"``)."""
    for node in nodes:
        if type(node).__name__ == "CheckpointFunctionBackward":
            raise RuntimeError(MESSAGES.say(f"reentrant checkpoint in {helper}"))


def refuse_nested_tensors(nodes: Iterable[Node]) -> None:
    # A nested tensor has no single shape (`.shape` raises for torch.strided's kind), and both
    # engines' bookkeeping (`_fit`, `_same_tensor`, the trace's table) needs one.
    for node in nodes:
        if any(metadata.is_nested_tensor for metadata in node._input_metadata):
            raise ValueError(MESSAGES.say("nested in graph", node=short_name(node)))


# NOTE [unpack hooks on older torch]
# Since torch 2.12 or 2.13 (2.13 has it, 2.8 to 2.11 do not), a saved tensor shows its unpack hook
# (SavedTensor.unpack_hook) without running it, and grad refuses such a graph before running
# anything. An older torch hides it, and nothing else tells it without unpacking, which runs the
# hook. There grad notices a non-reentrant checkpoint while PyTorch's pass runs it, in this thread
# (`noticing_checkpoints`), and stops before its own pass would run the forward a second time: the
# learner has then seen the side effects of torch.autograd.grad, no more. A learner's own
# saved_tensors_hooks unpack hook is not noticed there, and runs in both passes.
READS_UNPACK_HOOKS = hasattr(torch._C._autograd.SavedTensor, "unpack_hook")
_CHECKPOINT_FILE = os.path.normcase(os.path.abspath(torch.utils.checkpoint.__file__))


@contextmanager
def noticing_checkpoints() -> Iterator[list[str]]:
    """On a torch that hides unpack hooks, the names of torch.utils.checkpoint's saved-tensor hooks
    that run inside the block, in this thread (a non-reentrant checkpoint's recomputation); on a
    newer torch nothing is watched, and the list stays empty. NOTE [unpack hooks on older torch]."""
    seen: list[str] = []
    if READS_UNPACK_HOOKS:
        yield seen
        return
    previous = sys.getprofile()

    def profile(frame, event, arg):
        code = frame.f_code
        if event == "call" and code.co_name.startswith(("unpack_hook", "pack_hook")):
            if os.path.normcase(os.path.abspath(code.co_filename)) == _CHECKPOINT_FILE:
                seen.append(code.co_name)
        if previous is not None:  # a profiler the learner runs keeps seeing every call
            previous(frame, event, arg)

    sys.setprofile(profile)
    try:
        yield seen
    finally:
        sys.setprofile(previous)


def _refuse_unpack_hooks(nodes: Iterable[Node]) -> None:
    """Refuse a graph whose saved tensors come back through an unpack hook with side effects.

    A non-reentrant checkpoint (``checkpoint(..., use_reentrant=False)``) saves placeholders
    and runs the forward again, once per backward pass, the first time a node unpacks one; so
    does a learner's ``saved_tensors_hooks`` unpack hook, once per unpacking. grad runs the nodes
    twice (PyTorch's pass, then the by-hand one), so either would run more often than in
    ``torch.autograd.grad``. The hooks are read off each ``_raw_saved_*`` SavedTensor, which
    (unlike ``_saved_*``) does not unpack, so nothing runs here.
    """
    if not READS_UNPACK_HOOKS:
        return  # NOTE [unpack hooks on older torch]
    for node in nodes:
        for saved in _saved_tensors_of(node):
            hook = getattr(saved, "unpack_hook", None)
            if hook is None or _side_effect_free(hook):
                continue
            name = short_name(node)
            if getattr(hook, "__module__", None) == "torch.utils.checkpoint":
                raise CannotMatchPyTorch(MESSAGES.say("checkpoint recomputes", node=name))
            described = describe_hook(hook)
            raise CannotMatchPyTorch(
                MESSAGES.say("unpack hook runs again", node=name, hook=described)
            )


def _saved_tensors_of(node: Node) -> Iterator:
    """The SavedTensor records a node holds, without unpacking them."""
    for attribute in _raw_saved_attributes(type(node)):
        try:
            saved = getattr(node, attribute)
        except RuntimeError:  # freed by an earlier backward pass: PyTorch's engine will say so
            continue
        yield from saved if isinstance(saved, tuple | list) else (saved,)


_RAW_SAVED: dict[type, tuple[str, ...]] = {}


def _raw_saved_attributes(kind: type) -> tuple[str, ...]:
    # One `dir` per kind of node: each PyTorch operation's Node class lists its saved tensors.
    if kind not in _RAW_SAVED:
        _RAW_SAVED[kind] = tuple(name for name in dir(kind) if name.startswith("_raw_saved_"))
    return _RAW_SAVED[kind]


def _side_effect_free(hook) -> bool:
    # torch.autograd.graph.save_on_cpu only copies the tensor back to its device.
    return getattr(hook, "__module__", None) == "torch.autograd.graph"


def describe_hook(hook) -> str:
    """A hook's name; for a lambda, the line that defines it, when its source can be read."""
    name = getattr(hook, "__name__", type(hook).__name__)
    if name != "<lambda>":
        return name
    try:
        line = inspect.getsource(hook).strip().splitlines()[0]
    except (OSError, TypeError):
        return MESSAGES.say("a lambda")
    return f"`{line[:60]}…`" if len(line) > 60 else f"`{line}`"


# --- what PyTorch's engine refuses ----------------------------------------------------------------


@contextmanager
def friendly_errors() -> Iterator[None]:
    """Turn PyTorch's errors about a learner's graph into advice a learner can act on."""
    try:
        yield
    except RuntimeError as error:
        message = str(error)
        if "already been freed" in message:
            advice = MESSAGES.say("graph freed")
        elif "returned an incorrect number of gradients" in message:
            advice = MESSAGES.say("wrong number of gradients", error=message)
        else:
            raise
        raise RuntimeError(advice) from error


# --- small pieces ---------------------------------------------------------------------------------


def _short_repr(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:39] + "…"


def _describe(value: object) -> str:
    if isinstance(value, torch.Tensor):
        return MESSAGES.say("tensor of shape", shape=tuple(value.shape))
    return type(value).__name__

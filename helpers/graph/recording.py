"""Which module of your model made each autograd Node, and which line of your code.

    >>> from helpers.graph.recording import made_by, recording
    >>> with recording(model):                 # the one extra line around your forward pass
    ...     loss = model(tokens).logsumexp(-1).mean()
    >>> made_by(loss.grad_fn)                  # the mean: made in the block, outside any module
    MadeBy(module=None, ..., code='loss = model(tokens).logsumexp(-1).mean()')

Inside the block, every Node PyTorch makes in this thread carries a `MadeBy` in its ``metadata``:
the path of the module whose ``forward`` made it, as ``model.named_modules()`` names it
(``"transformer.h.3.attn"``; ``""`` for the model itself), the type of each module along that
path, and the line of your code that made it. An op written straight in a module's ``forward``
(a residual ``x + y``, a softmax, a reshape) belongs to that module; one inside a submodule's
``forward`` to the submodule. A parameter's AccumulateGrad Node is labelled with the module that
owns the parameter and the parameter's name. Nodes made before the block stay as they were (a
parameter's AccumulateGrad aside: it stands for the parameter, whenever it was made), and after
the block nothing of the recording is left installed.

How it works: a forward pre-hook and a forward hook on each module of the model keep a stack of
the modules whose ``forward`` is running; a `torch.overrides.TorchFunctionMode` sees each torch
function the block calls (``F.linear``, ``x + y``, ``x.view(...)``) and labels the Nodes the call
made. One call can make several Nodes (``F.linear`` a TBackward0 and an AddmmBackward0): all get
the call's label. Which Nodes a call made is told in one of two ways (see NOTE [which Nodes a call
made] below): from torch 2.14 on, by PyTorch's public hook on every Node it creates
(``torch.autograd.graph.node_creation_hook``); before, by PyTorch's private sequence numbers.
Each Node labelled is read from Python, so it is held as every Node a helper sees
(`helpers.seen_nodes`): a long chain of them is then freed one at a time, not one inside another.

What it cannot see: a custom autograd Function's Node (``apply`` is no torch function) is found
from the outputs of the module that made it, and gets that module with no line, or no label when
made in the block outside any module; a module whose ``forward`` is called by name
(``layer.forward(x)``) runs no hooks, so its Nodes belong to its caller; another thread's Nodes
are never labelled; code compiled by ``torch.compile`` does not run op by op.
"""

from __future__ import annotations

import itertools
import linecache
import os
import sys
import threading
from collections import Counter
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

import torch
from torch.overrides import TorchFunctionMode

from helpers import seen_nodes
from helpers.language import Catalogue

__all__ = ["MADE_BY", "MadeBy", "made_by", "recording"]

MADE_BY = "helpers.made_by"  # the key of the label in a Node's ``metadata``


@dataclass(frozen=True)
class MadeBy:
    """Who made an autograd Node: a module of the recorded model, and a line of your code.

    ``module`` is the module's path in the model, as ``model.named_modules()`` names it
    (``"transformer.h.3.attn"``), ``""`` for the model itself, and None for code in the ``with``
    block outside any module (a loss computed after the model). ``module_types`` is the type of the
    model, then of each module along the path: ``("GPT2", "GPT2Model", "ModuleList", "Block",
    "Attention")``. ``file``, ``line`` and ``code`` are the line of your code that made the Node
    (the innermost one outside torch and the helpers), None where no line made it: a parameter's
    AccumulateGrad, whose ``parameter`` is the parameter's name
    (``"transformer.h.3.attn.c_attn.weight"``).
    """

    module: str | None
    module_types: tuple[str, ...]
    file: str | None = None
    line: int | None = None
    code: str | None = None
    parameter: str | None = None
    # Which recording block wrote the label (1, 2, ... in this process). A parameter's
    # AccumulateGrad outlives its pass: PyTorch reuses it in every later one, recorded or not, so
    # its label counts only in a graph whose other Nodes carry labels of the same recording.
    recording: int | None = field(default=None, compare=False, repr=False)
    # Which call of each module along the path made it, as along_path() lists them: 1 for the
    # first time that module's forward ran in the recording, 2 for the second (a Dropout used
    # twice, a cell run at every time step); 0 where that module's forward was not running.
    calls: tuple[int, ...] = field(default=(), compare=False, repr=False)

    def along_path(self) -> list[tuple[str, str]]:
        """Each module from the model down to ``module``, as (path, type name):
        ``[("", "GPT2"), ("transformer", "GPT2Model"), ..., ("transformer.h.3", "Block"), ...]``."""
        if self.module is None:
            return []
        parts = self.module.split(".") if self.module else []
        paths = [".".join(parts[:depth]) for depth in range(len(parts) + 1)]
        return list(zip(paths, self.module_types, strict=True))


def made_by(node: Any) -> MadeBy | None:
    """What a ``recording`` block wrote on autograd Node ``node`` (such as ``y.grad_fn``), or None
    for a Node made outside one."""
    if isinstance(node, torch.Tensor):
        raise TypeError(MESSAGES.say("tensor not node"))
    if not isinstance(node, torch.autograd.graph.Node):
        raise TypeError(MESSAGES.say("not a node", got=type(node).__name__))
    return node.metadata.get(MADE_BY)


@contextmanager
def recording(model: torch.nn.Module) -> Iterator[None]:
    """Label every autograd Node made in this ``with`` block, in this thread, with a `MadeBy`.

    Write it around the forward pass you already have; the model is not changed, and after the
    block (also when the forward raises) no hook or mode of the recording is left installed.
    A recording inside another one adds the modules the outer one does not know, named from the
    inner ``model``; a module both know keeps the outer recording's name for it.
    """
    if isinstance(model, type) and issubclass(model, torch.nn.Module):
        raise TypeError(MESSAGES.say("module class", name=model.__name__))
    if not isinstance(model, torch.nn.Module):
        raise TypeError(MESSAGES.say("not a module", got=type(model).__name__))
    scripted = _first_scripted(model)
    if scripted is not None:
        raise TypeError(MESSAGES.say("scripted", name=scripted or "model"))
    seen_nodes.let_go()  # the Nodes of graphs let go since the last helper call
    outer = getattr(_ACTIVE, "recorder", None)
    recorder = outer or _Recorder()
    added: list[int] = []
    handles: list[Any] = []
    try:
        added, handles = recorder.add(model)
        if outer is not None:
            yield  # the outer recording's mode labels the Nodes
            return
        _ACTIVE.recorder = recorder
        with _LabelMode(recorder), _creation_hook(recorder):
            yield
    finally:
        for handle in handles:
            handle.remove()
        recorder.forget(added)
        if outer is None:
            _ACTIVE.recorder = None


# --- what the recording keeps while the block runs ----------------------------------------------

_ACTIVE = threading.local()  # .recorder: the recording running in this thread, or None

# NOTE [which Nodes a call made]
# A call made the Nodes PyTorch created while it ran, in this thread. Torch 2.14 tells each one to
# a hook, `torch.autograd.graph.node_creation_hook`: the recording keeps them in a list, `made`,
# and a call, or a module's forward, owns what was added to it since it started. Older torch has
# no such hook, but numbers the Nodes each thread makes (private, as is Node._sequence_nr()): a
# Node numbered from the counter's value before the call up to its value after was made by the
# call, and the walk back from the call's results finds them, stopping at the first older Node.
# Each way counts in its own unit (list places or numbers); `_Recorder` keeps the difference in
# `made_so_far`, `made_since`, `label_call` and the end of a module's forward (`label_made` or
# `label_unlabelled`), and the rest is the same.
_NODE_CREATION_HOOK = getattr(torch.autograd.graph, "node_creation_hook", None)
_next_sequence_nr = torch._C._autograd._get_sequence_nr


@dataclass(frozen=True, eq=False)  # compared by identity: each module of the model is one
class _Module:
    path: str | None
    types: tuple[str, ...]


_NO_MODULE = _Module(path=None, types=())


@dataclass
class _Running:
    """A module whose forward is running: the sequence number and the count of labelled Nodes
    when it started."""

    module: _Module
    start: int
    labelled: int
    call: int = 1  # the how-manieth time this module's forward runs in the recording


_RECORDINGS = itertools.count(1)  # each recording block's number, for the labels it writes


class _Recorder:
    """The modules and parameters a recording knows, and the modules whose forward runs now."""

    def __init__(self) -> None:
        self.number = next(_RECORDINGS)
        self.thread = threading.get_ident()
        self.modules: dict[int, _Module] = {}  # id(module) -> its path and types
        self.parameters: dict[int, tuple[_Module, str]] = {}  # id(parameter) -> owner, name
        self.running: list[_Running] = []
        self.calls: Counter[_Module] = Counter()  # how often each module's forward has started
        self.labelled = 0  # Nodes labelled so far by a call or a module's forward
        # (module, file, line, calls along its path) -> the one label for the Nodes made there
        self._labels: dict[tuple[_Module, str | None, int | None, tuple[int, ...]], MadeBy] = {}
        # With torch's Node-creation hook: the Nodes made in this thread and not labelled yet.
        self.made: list[Any] | None = [] if _NODE_CREATION_HOOK is not None else None

    # --- which Nodes were made since a point (NOTE [which Nodes a call made]) -------------------

    def made_so_far(self) -> int:
        """A point to count from: the Nodes told to the hook so far, or the thread's count."""
        return len(self.made) if self.made is not None else _next_sequence_nr()

    def made_since(self, start: int) -> int:
        return self.made_so_far() - start

    def node_made(self, node: Any) -> None:
        """torch's Node-creation hook: keep a Node made in this thread."""
        if threading.get_ident() == self.thread and self.made is not None:
            self.made.append(node)

    def add(self, model: torch.nn.Module) -> tuple[list[int], list[Any]]:
        """Hook the modules of ``model`` not known yet; their ids (and their parameters') and the
        hooks' handles, for the end of the block."""
        named = dict(model.named_modules())
        added: list[int] = []
        handles: list[Any] = []
        try:
            for path, module in named.items():
                if id(module) in self.modules:
                    continue
                info = _Module(path, _types_along(path, named))
                self.modules[id(module)] = info
                added.append(id(module))
                # First among the pre-hooks and last among the hooks: what the learner's own
                # hooks compute belongs to the module too. always_call: popped also on a raise.
                handles.append(module.register_forward_pre_hook(self._entering(info), prepend=True))
                handles.append(module.register_forward_hook(self._leaving(info), always_call=True))
            for name, parameter in model.named_parameters():
                if id(parameter) not in self.parameters:
                    owner = self.modules[id(named[name.rpartition(".")[0]])]
                    self.parameters[id(parameter)] = (owner, name)
                    added.append(id(parameter))
        except BaseException:
            for handle in handles:
                handle.remove()
            self.forget(added)
            raise
        return added, handles

    def forget(self, ids: Iterable[int]) -> None:
        for key in ids:
            self.modules.pop(key, None)
            self.parameters.pop(key, None)

    def _entering(self, info: _Module):
        def hook(module: torch.nn.Module, args: Any) -> None:
            if threading.get_ident() != self.thread:
                return  # another thread calling the model: not this block's
            if not self.running:
                seen_nodes.let_go()  # a new forward pass: free the Nodes of the last one's graph
            self.calls[info] += 1
            self.running.append(_Running(info, self.made_so_far(), self.labelled, self.calls[info]))

        return hook

    def _leaving(self, info: _Module):
        def hook(module: torch.nn.Module, args: Any, output: Any) -> None:
            if threading.get_ident() != self.thread:
                return
            label = self.label(info)  # while this call still runs: its call number is known
            running = self._finish(info)
            if running is None:
                return
            # Every Node the forward made was made by a torch function call and labelled there,
            # unless the counts differ: a custom autograd Function's Node (its apply is no torch
            # function) or a result PyTorch did not hand back. Those belong to this module, with
            # no line.
            if self.made is not None:
                self.label_made(running.start, label)
            elif self.made_since(running.start) != self.labelled - running.labelled:
                self.label_unlabelled(_tensors(output), running.start, label)

        return hook

    def _finish(self, info: _Module) -> _Running | None:
        for depth in range(len(self.running) - 1, -1, -1):
            if self.running[depth].module is info:
                running = self.running[depth]
                del self.running[depth:]  # with any a raise left behind
                return running
        return None  # hooked while its forward ran: a recording entered inside it

    def label(self, info: _Module, place: tuple[str, int] | None = None) -> MadeBy:
        """The label of Nodes made by ``info``'s forward at ``place`` (file, line): one object
        for each, shared by all the Nodes it made."""
        file, line = place or (None, None)
        calls = self._calls_along(info)
        key = (info, file, line, calls)
        if key not in self._labels:
            code = linecache.getline(file, line).strip() if file and line else ""
            self._labels[key] = MadeBy(
                info.path, info.types, file, line, code or None, recording=self.number, calls=calls
            )
        return self._labels[key]

    def _calls_along(self, info: _Module) -> tuple[int, ...]:
        """The call of each module from the model down to ``info`` that is running now (the
        innermost, for a module running inside itself), 0 for one that is not."""
        if info.path is None:
            return ()
        parts = info.path.split(".") if info.path else []
        calls = []
        for depth in range(len(parts) + 1):
            path = ".".join(parts[:depth])
            running = [r.call for r in self.running if r.module.path == path]
            calls.append(running[-1] if running else 0)
        return tuple(calls)

    def current(self) -> _Module:
        return self.running[-1].module if self.running else _NO_MODULE

    def label_call(self, tensors: list[torch.Tensor], start: int) -> None:
        """Label the Nodes a torch function call made since ``start``: those the hook was told of,
        or those numbered from ``start`` on that the walk back from its result ``tensors`` finds."""
        if self.made is not None:
            self.label_made(start, self.label(self.current(), _learner_line()))
            return
        nodes = [tensor.grad_fn for tensor in tensors if tensor.grad_fn is not None]
        if not nodes:
            return
        # Read after grad_fn: the grad_fn of a view changed in place is made when it is read.
        end = _next_sequence_nr()
        label = self.label(self.current(), _learner_line())
        to_visit = []
        for node in nodes:
            if start <= node._sequence_nr() < end:
                to_visit.append(node)
            else:
                seen_nodes.hold(node)  # an older Node handed back (x.contiguous() gives x)
        while to_visit:
            node = to_visit.pop()
            if MADE_BY in node.metadata:
                continue
            node.metadata[MADE_BY] = label
            self.labelled += 1
            for next_node in self._next_nodes(node):
                if start <= next_node._sequence_nr() < end:
                    to_visit.append(next_node)

    def label_made(self, start: int, label: MadeBy) -> None:
        """Label the Nodes the hook was told of since list place ``start``, and forget them."""
        assert self.made is not None
        for node in self.made[start:]:
            if hasattr(node, "variable"):  # an AccumulateGrad: only they have it
                self._label_parameter(node)
                seen_nodes.hold(node)
                continue
            if MADE_BY not in node.metadata:
                node.metadata[MADE_BY] = label
                self.labelled += 1
            self._next_nodes(node)  # a parameter's AccumulateGrad made by an earlier pass
        del self.made[start:]

    def label_unlabelled(self, tensors: list[torch.Tensor], start: int, label: MadeBy) -> None:
        """Label the Nodes numbered from ``start`` on that the walk back from ``tensors`` finds
        without a label, walking through the labelled ones."""
        to_visit = [tensor.grad_fn for tensor in tensors if tensor.grad_fn is not None]
        end = _next_sequence_nr()
        seen = set()
        while to_visit:
            node = to_visit.pop()
            if node in seen or not start <= node._sequence_nr() < end:
                continue
            seen.add(node)
            if MADE_BY not in node.metadata:
                node.metadata[MADE_BY] = label
                self.labelled += 1
            to_visit.extend(self._next_nodes(node))

    def _next_nodes(self, node: Any) -> list[Any]:
        """The Nodes ``node`` leads to, held as the helpers hold every Node they see; a
        parameter's AccumulateGrad among them gets its label."""
        next_nodes = [next_node for next_node, _ in node.next_functions if next_node is not None]
        # Reading next_functions makes Python see these Nodes, and PyTorch frees seen Nodes one
        # inside the other: held here, a long chain of them is freed one at a time instead.
        seen_nodes.hold(node, next_nodes)
        for next_node in next_nodes:
            if hasattr(next_node, "variable"):  # an AccumulateGrad: only they have it
                self._label_parameter(next_node)
        return next_nodes

    def _label_parameter(self, node: Any) -> None:
        owner_and_name = self.parameters.get(id(node.variable))
        earlier = node.metadata.get(MADE_BY)
        if owner_and_name is None or (earlier is not None and earlier.recording == self.number):
            return  # a leaf not of the model (an input), or labelled before in this recording
        owner, name = owner_and_name
        node.metadata[MADE_BY] = MadeBy(
            owner.path, owner.types, parameter=name, recording=self.number
        )


class _LabelMode(TorchFunctionMode):
    """Sees each torch function called in the block, in this thread (the mode stack is the
    thread's own), and has the Nodes it made labelled. Calls inside a call are not seen: PyTorch
    takes the mode off its stack while the mode runs the function."""

    def __init__(self, recorder: _Recorder) -> None:
        super().__init__()
        self.recorder = recorder

    def __torch_function__(self, func, types, args=(), kwargs=None):
        start = self.recorder.made_so_far()
        result = func(*args, **(kwargs or {}))
        tensors = _tensors(result)
        if self.recorder.made is not None:
            for tensor in tensors:
                tensor.grad_fn  # noqa: B018 - a view changed in place makes its Node when read
        if self.recorder.made_since(start):  # most calls (x.shape, all under no_grad) make none
            self.recorder.label_call(tensors, start)
        return result


@contextmanager
def _creation_hook(recorder: _Recorder) -> Iterator[None]:
    """torch's hook on every Node created in this thread, where torch has one (2.14 on)."""
    if _NODE_CREATION_HOOK is None:
        yield
        return
    try:
        with _NODE_CREATION_HOOK(recorder.node_made):
            yield
    finally:
        recorder.made = []  # Nodes made in the block outside any module stay unlabelled


def _first_scripted(model: torch.nn.Module) -> str | None:
    """The path of the first TorchScript module in ``model`` ("" for the model itself), or None:
    compiled code takes no forward hooks, so nothing in it can be labelled."""
    for path, module in model.named_modules():
        if isinstance(module, torch.jit.ScriptModule):
            return path
    return None


def _types_along(path: str, named: dict[str, torch.nn.Module]) -> tuple[str, ...]:
    """The type names of the model and of each module down to ``path``."""
    parts = path.split(".") if path else []
    return tuple(type(named[".".join(parts[:depth])]).__name__ for depth in range(len(parts) + 1))


def _tensors(result: Any) -> list[torch.Tensor]:
    """The tensors in what a call or a forward returned: a tensor, or tuples, lists and dicts of
    them."""
    found = []
    to_visit = [result]
    while to_visit:
        item = to_visit.pop()
        if isinstance(item, torch.Tensor):
            found.append(item)
        elif isinstance(item, (tuple, list)):
            to_visit.extend(item)
        elif isinstance(item, dict):
            to_visit.extend(item.values())
    return found


# Frames in these folders are torch's and the helpers' own: the line that made a Node is the
# innermost frame outside them. Found once per file.
_LIBRARIES = tuple(
    os.path.dirname(os.path.abspath(module.__file__)) + os.sep
    for module in (torch, sys.modules[__name__.partition(".")[0]])
)
_IN_LIBRARY: dict[str, bool] = {}


def _learner_line() -> tuple[str, int] | None:
    """The file and line of the innermost frame of the learner's code (outside torch and the
    helpers), or None."""
    frame = sys._getframe(1)
    while frame is not None:
        file = frame.f_code.co_filename
        inside = _IN_LIBRARY.get(file)
        if inside is None:
            inside = _IN_LIBRARY[file] = os.path.abspath(file).startswith(_LIBRARIES)
        if not inside:
            return file, frame.f_lineno
        frame = frame.f_back
    return None


_TEXTS = {
    "not a module": {
        "en": (
            "recording() labels what a model's forward pass makes, so it takes the model, an "
            "nn.Module such as `model`; it was given a value of type {got}. Write "
            "`with recording(model):` around the forward pass."
        ),
        "zh": (
            "recording() 给模型前向传播做出的节点贴标签，所以要传入模型本身，即一个 nn.Module，"
            "例如 `model`；这里传入的是 {got} 类型的值。请在前向传播外面写 "
            "`with recording(model):`。"
        ),
    },
    "module class": {
        "en": (
            "recording() was given the class {name} itself, not a model made from it. Make the "
            "model first, e.g. `model = {name}(...)`, then write `with recording(model):`."
        ),
        "zh": (
            "recording() 收到的是类 {name} 本身，而不是用它做出的模型。请先创建模型，例如 "
            "`model = {name}(...)`，再写 `with recording(model):`。"
        ),
    },
    "scripted": {
        "en": (
            "recording() labels what a model's forward pass makes through hooks on its modules, "
            "and {name} is a TorchScript module (made by torch.jit.script or torch.jit.trace), "
            "whose compiled code runs no hooks. Record the plain nn.Module before it is "
            "scripted: `with recording(model):` around its forward pass."
        ),
        "zh": (
            "recording() 通过模块上的钩子给模型前向传播做出的节点贴标签，而 {name} 是一个 "
            "TorchScript 模块（由 torch.jit.script 或 torch.jit.trace 生成），它的编译代码不运行"
            "钩子。请记录编译之前的那个普通 nn.Module：在它的前向传播外面写 "
            "`with recording(model):`。"
        ),
    },
    "tensor not node": {
        "en": (
            "made_by() reads the label on an autograd Node, and was given a tensor. A tensor's "
            "Node is its grad_fn: write `made_by(y.grad_fn)`."
        ),
        "zh": (
            "made_by() 读取的是 autograd 节点上的标签，这里传入的却是张量。张量的节点是它的 "
            "grad_fn：请写 `made_by(y.grad_fn)`。"
        ),
    },
    "not a node": {
        "en": (
            "made_by() reads the label on an autograd Node, such as `y.grad_fn` or one of "
            "`y.grad_fn.next_functions`; it was given a value of type {got}."
        ),
        "zh": (
            "made_by() 读取的是 autograd 节点上的标签，例如 `y.grad_fn` 或 "
            "`y.grad_fn.next_functions` 里的一个；这里传入的是 {got} 类型的值。"
        ),
    },
}

MESSAGES = Catalogue("helpers.graph.recording", _TEXTS)

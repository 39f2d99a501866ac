"""The autograd Nodes the helpers have looked at: held here, and let go of one at a time.

Once Python code has seen an autograd Node (through ``grad_fn``, ``next_functions``, or to put a
hook on it), PyTorch keeps the Node's Python object for as long as the Node lives, and frees the
Node through that object. Freeing a graph then goes one Node inside the other, a few C stack frames
for each, where Nodes Python never saw are freed in a loop. A learner who lets go of a graph with a
long enough chain of seen Nodes (about 35,000 with Linux's 8 MB stack, 12,000 with python.exe's
2 MB) loses the kernel to a crash, in whatever cell that happens; drawing a growing graph every few
steps adds up to such a chain, a few thousand Nodes at a time.

So every Node a helper looks at is held here (but a custom Function's, a Python object anyway),
with the held Nodes it leads to. When the learner lets go of a graph, the Nodes at its top are held
by nothing but this keeper (their reference count says so), and the keeper lets go of them one at a
time, top first: each frees one Node, whose next Nodes the keeper still holds, so that no Node is
freed inside another. It looks before and after every garbage collection (`gc.callbacks`) and
before each walk of a graph, at only the held Nodes that no held Node leads to, which are few.
(With the collector turned off, `gc.disable()`, only before a walk.)
"""

from __future__ import annotations

import gc
import sys
import threading
from collections.abc import Iterable
from typing import Any

from torch.autograd.function import BackwardCFunction


class _Held:
    """One Node held, the held Nodes it leads to, and how many held Nodes lead to it."""

    __slots__ = ("node", "leads_to", "led_from")

    def __init__(self, node: Any) -> None:
        self.node = node
        self.leads_to: list[int] = []  # id() of next Nodes, each once
        self.led_from = 0


def _references(held: _Held) -> int:
    return sys.getrefcount(held.node)


def _made_by_python(node: Any) -> bool:
    """A custom Function's Node, which is the ``ctx`` its forward filled in: a Python object that
    exists whether or not a helper looks at it, freed by Python's garbage collector, also in a
    reference cycle (a ctx that keeps its own output). Held here, such a cycle would live on."""
    return isinstance(node, BackwardCFunction)


class _NodeKeeper:
    def __init__(self) -> None:
        self._held: dict[int, _Held] = {}  # id(node) -> entry; the entry keeps node alive
        self._tops: set[int] = set()  # held Nodes that no held Node leads to
        self._lock = threading.Lock()
        # A Node's references when nothing but its entry here holds it, counted as `let_go`
        # counts them (Python versions differ in what getrefcount itself adds).
        self._alone = _references(_Held(object()))
        gc.callbacks.append(self._around_collection)

    def hold(self, node: Any, next_nodes: Iterable[Any] = ()) -> None:
        """Hold ``node`` and the ``next_nodes`` it leads to (None entries skipped)."""
        with self._lock:
            entry = None if _made_by_python(node) else self._entry(node)
            for next_node in next_nodes:
                if next_node is None or _made_by_python(next_node):
                    continue
                child = self._entry(next_node)
                if entry is None or id(next_node) in entry.leads_to:
                    continue
                entry.leads_to.append(id(next_node))
                child.led_from += 1
                self._tops.discard(id(next_node))

    def let_go(self) -> None:
        """Let go of every held Node that nothing else holds, top first, one at a time."""
        if not self._lock.acquire(blocking=False):
            return  # busy in another thread, or in this one (a collection inside `hold`)
        try:
            ready = [key for key in self._tops if _references(self._held[key]) <= self._alone]
            while ready:
                entry = self._held.pop(ready.pop())
                self._tops.discard(id(entry.node))
                for key in entry.leads_to:
                    child = self._held[key]
                    child.led_from -= 1
                    if child.led_from == 0:
                        self._tops.add(key)
                entry.node = None  # frees the Node; its next Nodes are still held
                ready.extend(
                    key
                    for key in entry.leads_to
                    if key in self._tops and _references(self._held[key]) <= self._alone
                )
        finally:
            self._lock.release()

    def __len__(self) -> int:
        return len(self._held)

    def _entry(self, node: Any) -> _Held:
        entry = self._held.get(id(node))
        if entry is None:
            entry = self._held[id(node)] = _Held(node)
            self._tops.add(id(node))
        return entry

    def _around_collection(self, phase: str, info: dict) -> None:
        # Before the collection, so that a cycle the released Nodes kept alive (a custom
        # Function's ctx that keeps its own output) is collected by this very collection; after
        # it, for what the collection freed.
        if self._tops:
            self.let_go()


_KEEPER = _NodeKeeper()


def hold(node: Any, next_nodes: Iterable[Any] = ()) -> None:
    """Keep ``node`` (and the ``next_nodes`` it leads to) until its graph lets go of it, then
    free it in a way that cannot overflow the stack. Every Node a helper sees goes through here.
    """
    _KEEPER.hold(node, next_nodes)


def let_go() -> None:
    """Free now the held Nodes whose graphs have let go of them (also done after every garbage
    collection): a helper calls it before it walks a graph, so that what it holds stays small."""
    _KEEPER.let_go()


def held() -> int:
    """How many Nodes are held now (for tests)."""
    return len(_KEEPER)

"""The autograd Nodes the helpers have looked at: held here, and let go of one at a time.

Once Python code has seen an autograd Node (through ``grad_fn``, ``next_functions``, or to put a
hook on it), PyTorch keeps the Node's Python object for as long as the Node lives, and frees the
Node through that object. Freeing a graph then goes one Node inside the other, a few C stack
frames for each, whereas Nodes Python never saw are freed in a loop. A learner who lets go of a
graph with a long enough chain of seen Nodes (about 35,000 with Linux's 8 MB stack, 12,000 with
python.exe's 2 MB) loses the kernel to a crash, in whatever cell that happens; drawing a growing
graph every few steps adds up to such a chain, a few thousand Nodes at a time.

So every Node a helper looks at is held here (except a custom Function's, a Python object anyway),
with the held Nodes it leads to. When the learner lets go of a graph, the Nodes at its top are held
by nothing but this keeper (their reference count says so), and the keeper lets go of them one at a
time, top first: each frees one Node, whose next Nodes the keeper still holds, so that no Node is
freed inside another. It looks before each walk of a graph, that is at the start of every helper
call (draw, build, trace, grad), at only the held Nodes that no held Node leads to, which are few.
A graph the learner lets go of after a helper looked at it stays in memory, with what its Nodes
saved, until the next helper call (or the end of the process).

Why only then, and not after every garbage collection: *Interrupt kernel* (SIGINT) most often
arrives while the collector runs, in a loop that allocates, and Python raises the KeyboardInterrupt
in the first Python code that runs next; in a `gc.callbacks` entry (or a finaliser) Python prints
"Exception ignored in ..." and the learner's cell runs on. A helper call is code the learner ran:
an interrupt that lands in it stops the cell. What this keeper does when interrupted half way
leaves at worst a Node held for good, never one freed inside another.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Iterable
from typing import Any

from torch.autograd.function import BackwardCFunction


def _made_by_python(node: Any) -> bool:
    """A custom Function's Node, which is the ``ctx`` its forward filled in: a Python object that
    exists whether or not a helper looks at it, freed by Python's garbage collector, also in a
    reference cycle (a ctx that keeps its own output). Held here, such a cycle would live on."""
    return isinstance(node, BackwardCFunction)


class _NodeKeeper:
    """The Nodes held, in flat tables keyed by id(): no object per Node for the garbage collector
    to track (thousands more of them made its full collections come sooner, and cost 90 ms)."""

    def __init__(self) -> None:
        self._nodes: dict[int, Any] = {}  # id(node) -> node: this reference keeps it alive
        self._leads_to: dict[int, tuple[int, ...]] = {}  # the held Nodes it leads to, once each
        self._led_from: dict[int, int] = {}  # how many held Nodes lead to it
        self._tops: set[int] = set()  # held Nodes that no held Node leads to
        # Taken with `with` only: a KeyboardInterrupt anywhere inside still releases it (after a
        # bare acquire() Python may raise before the `try` that would release it).
        self._lock = threading.RLock()
        # What this thread asked to hold while it had the lock: freeing a Node can run Python
        # code (a finaliser) that calls a helper, which must neither wait for the lock forever
        # nor change the tables in the middle of a change.
        self._waiting: list[tuple[Any, tuple[Any, ...]]] = []
        # A Node's references when nothing but this keeper holds it, counted as `let_go` counts
        # them (Python versions differ in what getrefcount itself adds).
        probe = {0: object()}
        self._alone = sys.getrefcount(probe[0])

    def hold(self, node: Any, next_nodes: Iterable[Any] = ()) -> None:
        """Hold ``node`` and the ``next_nodes`` it leads to (None entries skipped)."""
        if self._lock._is_owned():  # a helper called while this thread frees a Node
            self._waiting.append((node, tuple(next_nodes)))  # done before the lock is released
            return
        with self._lock:
            self._hold(node, next_nodes)
            self._hold_waiting()

    def let_go(self) -> None:
        """Let go of every held Node that nothing else holds, top first, one at a time."""
        if self._lock._is_owned():
            return  # a helper called while this thread frees a Node: the freeing goes on after
        with self._lock:  # another thread's helper holding Nodes: a moment's wait
            self._let_go_alone_held()

    def _let_go_alone_held(self) -> None:
        ready = [key for key in self._tops if self._alone_held(key)]
        while ready:
            key = ready.pop()
            if not self._alone_held(key):
                continue  # a helper called while a Node was freed looked at it again
            # In this order, so that a KeyboardInterrupt between two lines leaves at worst a Node
            # held for good or the table entries of one no longer held, never a Node freed
            # inside another nor a held one missing from a table.
            self._tops.discard(key)
            leads_to = self._leads_to[key]
            for child in leads_to:
                self._led_from[child] -= 1
                if self._led_from[child] == 0:
                    self._tops.add(child)
            del self._nodes[key]  # frees the Node; its next Nodes are still held
            del self._leads_to[key], self._led_from[key]
            self._hold_waiting()
            ready.extend(child for child in leads_to if self._alone_held(child))

    def _hold(self, node: Any, next_nodes: Iterable[Any]) -> None:
        parent = None if _made_by_python(node) else self._held_key(node)
        children = {
            self._held_key(next_node): None
            for next_node in next_nodes
            if next_node is not None and not _made_by_python(next_node)
        }  # a dict keeps their order and each once, in linear time (a stack of 40,000 inputs)
        if parent is None:
            return
        known = set(self._leads_to[parent])
        new = [child for child in children if child not in known]
        self._leads_to[parent] += tuple(new)
        for child in new:
            self._led_from[child] += 1
            self._tops.discard(child)

    def _hold_waiting(self) -> None:
        while self._waiting:
            self._hold(*self._waiting.pop())

    def __len__(self) -> int:
        return len(self._nodes)

    def _alone_held(self, key: int) -> bool:
        return key in self._tops and sys.getrefcount(self._nodes[key]) <= self._alone

    def _held_key(self, node: Any) -> int:
        key = id(node)
        if key not in self._nodes:
            # In this order, for the same reason as in `_let_go_alone_held`.
            self._leads_to[key] = ()
            self._led_from[key] = 0
            self._nodes[key] = node
            self._tops.add(key)
        return key


_KEEPER = _NodeKeeper()


def hold(node: Any, next_nodes: Iterable[Any] = ()) -> None:
    """Keep ``node`` (and the ``next_nodes`` it leads to) until its graph lets go of it, then
    free it in a way that cannot overflow the stack. Every Node a helper sees goes through here.
    """
    _KEEPER.hold(node, next_nodes)


def let_go() -> None:
    """Free now the held Nodes whose graphs have let go of them: a helper calls it before it walks
    a graph, so that what it holds stays small."""
    _KEEPER.let_go()


def held() -> int:
    """How many Nodes are held now (for tests)."""
    return len(_KEEPER)

"""helpers.seen_nodes: every Node a helper sees is held, and freed one at a time once its graph
lets go of it, so that freeing a graph whose Nodes Python has seen cannot overflow the stack."""

from __future__ import annotations

import gc
import subprocess
import sys
import threading
import weakref

import pytest
import torch
from deep_graphs import with_a_small_stack

from helpers import seen_nodes
from helpers.backward import trace
from helpers.graph import draw

GROWING_LOSS_DRAWN_EVERY_1000_STEPS = """
w = torch.tensor(0.5, requires_grad=True)
total = torch.tensor(0.0)
for step in range(1, 30_001):
    total = total + (w * 1.0 - 2.0) ** 2  # the loss kept across steps: the graph grows
    if step % 1000 == 0:
        draw(total)
total = None
print("freed")
"""


@pytest.mark.skipif(sys.platform == "win32", reason="the stack is set with Unix's setrlimit")
def test_a_growing_graph_drawn_every_few_steps_is_safe_to_free():
    # Each picture looks at the 5,000 Nodes nearest the total, 1,250 steps back: together they
    # have seen every step's Nodes, a chain of 30,000 sums.
    code, printed, errors = with_a_small_stack(GROWING_LOSS_DRAWN_EVERY_1000_STEPS)
    assert (code, printed) == (0, ["freed"]), errors


def chain_with_a_saved_tensor(steps: int) -> tuple[torch.Tensor, weakref.ref]:
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    saved = torch.tensor([3.0, 4.0])
    y = x * saved  # MulBackward0 keeps `saved` for its backward
    for _ in range(steps):
        y = torch.sin(y)
    return y.sum(), weakref.ref(saved)


def drawn_and_let_go() -> tuple[weakref.ref, int]:
    """A graph drawn in a frame that then ends (draw reads the caller's variables, and before
    Python 3.13 a function's frame keeps a copy of them until it returns), and the Nodes held
    before it (other tests' graphs may still be alive)."""
    gc.collect()
    seen_nodes.let_go()
    before = seen_nodes.held()
    y, saved = chain_with_a_saved_tensor(50)
    draw(y)
    assert seen_nodes.held() >= before + 50
    return saved, before


def a_helper_call() -> None:
    draw(torch.ones(1, requires_grad=True) * 2)


def test_the_nodes_of_a_graph_let_go_are_freed_with_what_they_saved_at_the_next_helper_call():
    saved, held_before = drawn_and_let_go()
    gc.collect()
    assert saved() is not None  # not inside a garbage collection, where an interrupt is lost
    a_helper_call()
    assert saved() is None  # the graph, and what its Nodes saved, are gone
    assert seen_nodes.held() <= held_before + 3  # the helper call's own small graph


def test_the_nodes_of_a_graph_in_use_are_kept_and_it_still_works():
    gc.collect()
    before = seen_nodes.held()
    y, saved = chain_with_a_saved_tensor(50)
    trace(y, retain_graph=True)
    gc.collect()
    assert saved() is not None and seen_nodes.held() >= before + 50
    y.backward()  # the graph is whole


def test_a_deep_chain_held_is_let_go_all_of_it_once_its_graph_is():
    # Freed one Node at a time: the 2 MB-stack tests above show that no stack overflows.
    y, saved = chain_with_a_saved_tensor(3000)
    before = seen_nodes.held()
    node = y.grad_fn
    while node is not None:  # every Node seen and held, as a helper would
        next_nodes = [next_node for next_node, _ in node.next_functions]
        seen_nodes.hold(node, next_nodes)
        node = next_nodes[0] if next_nodes else None
    assert seen_nodes.held() >= before + 3000
    del y
    seen_nodes.let_go()
    assert seen_nodes.held() <= before and saved() is None


HELPER_CALLED_WHILE_A_NODE_IS_FREED = """
import torch
from helpers import seen_nodes
from helpers.graph import draw

class DrawsWhenFreed:
    def __del__(self):
        w = torch.tensor(1.0, requires_grad=True)
        draw(w * 2)  # a helper called from inside the keeper, which holds its lock

x = torch.tensor(1.0, requires_grad=True)
y = x * 2
y.register_hook(lambda grad, kept=DrawsWhenFreed(): grad)  # y's Node keeps the hook
draw(y)
y = None
seen_nodes.let_go()  # frees y's Node, its hook, the DrawsWhenFreed: draw runs there
print("done")
"""


def test_a_helper_called_while_the_keeper_frees_a_node_does_not_wait_for_itself():
    child = subprocess.run(
        [sys.executable, "-c", HELPER_CALLED_WHILE_A_NODE_IS_FREED],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert (child.returncode, child.stdout.split()) == (0, ["done"]), child.stderr[-2000:]


class KeepsItsOutput(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        out = x * 2
        ctx.out = out  # a reference cycle: ctx -> out -> its grad_fn, which is ctx
        return out

    @staticmethod
    def backward(ctx, grad):
        return 2 * grad


def drawn_through_a_cycle() -> weakref.ref:
    x = torch.ones(3, requires_grad=True)
    y = KeepsItsOutput.apply(x)
    draw((y * 3).sum())
    return weakref.ref(y)


def test_a_cycle_through_a_custom_functions_ctx_is_still_collected():
    # A custom Function's Node is its ctx, a Python object; held here, Python's garbage collector
    # could not free the cycle it is part of.
    output = drawn_through_a_cycle()
    a_helper_call()  # lets go of the held Nodes that led to the cycle
    gc.collect()
    assert output() is None


class InterruptAt:
    """Raises KeyboardInterrupt at the ``at``-th point of the keeper's code where Python may run
    a signal handler, as *Interrupt kernel* would if it arrived just then: when one of its
    functions starts or returns, and after each call it makes to a builtin (a line event would
    also stop where no signal handler ever runs, between `with` and its `try`)."""

    def __init__(self, at: int) -> None:
        self.at = at
        self.points = 0

    def __call__(self, frame, event, arg) -> None:
        if frame.f_code.co_filename != seen_nodes.__file__ or event == "c_call":
            return
        self.points += 1
        if self.points == self.at:
            raise KeyboardInterrupt


def drawn_and_dropped() -> weakref.ref:
    y, saved = chain_with_a_saved_tensor(3)
    draw(y)
    return saved


def interrupted(at: int) -> tuple[bool, int]:
    """With a keeper of its own holding a drawn graph, let go of it and draw another, with an
    interrupt at the keeper's ``at``-th point: whether it came, and how many points it passed."""
    seen_nodes._KEEPER = seen_nodes._NodeKeeper()
    drawn_and_dropped()
    interrupt = InterruptAt(at)
    previous = sys.getprofile()
    sys.setprofile(interrupt)
    try:
        drawn_and_dropped()
    except KeyboardInterrupt:
        return True, interrupt.points
    finally:
        sys.setprofile(previous)
    return False, interrupt.points


def a_helper_call_in_another_thread_ends() -> bool:
    other = threading.Thread(target=a_helper_call, daemon=True)
    other.start()
    other.join(timeout=30)
    return not other.is_alive()


def test_an_interrupt_anywhere_in_the_keeper_leaves_it_working(monkeypatch):
    # Helpers are interrupted in the learner's own code now: wherever the KeyboardInterrupt
    # lands, the keeper must neither keep its lock nor break its tables (at worst it holds a
    # graph for good). A keeper of its own each time, so that all runs are alike.
    monkeypatch.setattr(seen_nodes, "_KEEPER", seen_nodes._KEEPER)
    _, points = interrupted(at=0)  # letting go of one graph and holding the next
    assert points > 100
    for at in range(1, points + 1):
        assert interrupted(at) == (True, at)
        assert a_helper_call_in_another_thread_ends(), f"lock kept after point {at}"
        saved = drawn_and_dropped()  # helpers still work
        a_helper_call()
        assert saved() is None, f"a graph let go is kept after an interrupt at point {at}"

"""Specification of helpers.backward with two threads: a trace records its own backward pass
alone, and never breaks a backward pass another thread runs meanwhile (issue 24)."""

import threading
import time

import pytest
import torch

from helpers.backward import grad, trace

ROUNDS = 300


@pytest.fixture
def another_thread_running_backward():
    """A thread that runs ``(w * 100).sum().backward()`` on a shared leaf w, over and over, until
    the test ends. Yields w, the number of passes it completed so far, and the errors it met."""
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    # A pause inside w's AccumulateGrad, between the hooks that run before and after it: a
    # trace that puts in or takes out its hooks meanwhile is caught there, as it would be by
    # chance on a busy machine.
    w.register_post_accumulate_grad_hook(lambda _: time.sleep(0.0001))
    passes, errors = [0], []
    stop = threading.Event()

    def run():
        while not stop.is_set():
            try:
                (w * 100).sum().backward()
                passes[0] += 1
            except Exception as error:  # noqa: BLE001 - every error is what the test looks for
                errors.append(error)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        yield w, passes, errors
    finally:
        stop.set()
        thread.join()


def test_a_trace_records_its_own_pass_alone_while_another_thread_runs_backward(
    another_thread_running_backward,
):
    w, passes, _ = another_thread_running_backward
    started = passes[0]
    for _ in range(ROUNDS):
        steps = trace((w * 2).sum())  # runs w's AccumulateGrad once, with [2, 2, 2]
        leaf_steps = [step for step in steps if step.name == "AccumulateGrad"]
        assert len(leaf_steps) == 1, f"{len(leaf_steps)} AccumulateGrad steps"
        assert torch.equal(leaf_steps[0].grads_in[0], torch.full((3,), 2.0))
        assert all(step.grads_arrived is not None for step in steps)
        assert not any(step.changed_by_hook for step in steps)
    assert passes[0] - started > ROUNDS // 10  # the other pass really ran meanwhile


def test_a_trace_never_breaks_another_threads_backward(another_thread_running_backward):
    w, passes, errors = another_thread_running_backward
    started = passes[0]
    for _ in range(ROUNDS):
        trace((w * 2).sum())
    assert errors == []
    assert passes[0] - started > ROUNDS // 10


def test_grad_answers_and_breaks_nothing_while_another_thread_runs_backward(
    another_thread_running_backward,
):
    w, passes, errors = another_thread_running_backward
    started = passes[0]
    for _ in range(ROUNDS):
        (gradient,) = grad((w * 2).sum(), w)
        assert torch.equal(gradient, torch.full((3,), 2.0))
    assert errors == []
    assert passes[0] - started > ROUNDS // 10

"""The answers the check cells accept are what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here the questions that
can be computed are computed, and the check must accept the result.
"""

import torch

from helpers.backward import trace
from helpers.exercises import check


def accepted(exercise_id, computed):
    verdict = check(exercise_id, computed)
    assert verdict.correct, f"{exercise_id}: PyTorch gives {computed!r}, which the check rejects"


def test_01_1_three_backwards_accumulate():
    w = torch.tensor(3.0, requires_grad=True)
    for _ in range(3):
        (w * w).backward()
    accepted("01.1", w.grad)


def test_01_2_no_grad_result_does_not_require_grad():
    w = torch.tensor(1.0, requires_grad=True)
    with torch.no_grad():
        z = w * 2
    accepted("01.2", z.requires_grad)


def test_01_3_vector_jacobian_product():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).backward(torch.tensor([1.0, 0.0, 1.0]))
    accepted("01.3", x.grad)


def test_02_2_relu_blocks_the_gradient_when_its_input_is_negative():
    b, w, x = torch.tensor(1.0, requires_grad=True), torch.tensor(2.0, requires_grad=True), -3.0
    torch.relu(w * x + b).backward()
    accepted("02.2", w.grad)


def test_02_3_retain_grad_after_backward_is_too_late():
    w = torch.tensor(2.0, requires_grad=True)
    u = w * 3.0
    torch.relu(u + 1).backward()
    u.retain_grad()
    accepted("02.3", u.grad)


def test_03_1_slot_of_the_input_without_grad():
    x, w = torch.tensor(3.0), torch.tensor(2.0, requires_grad=True)
    y = x * w
    slot = next(i for i, (node, _) in enumerate(y.grad_fn.next_functions) if node is None)
    accepted("03.1", slot)


def test_03_2_two_passes_accumulate():
    w = torch.tensor(3.0, requires_grad=True)
    (w * w).backward()
    (w * w * w).backward()
    accepted("03.2", w.grad)


def test_03_3_output_index_after_unbind():
    t = torch.tensor([2.0, 5.0], requires_grad=True)
    p, q = torch.unbind(t)
    accepted("03.3", (q * 10).grad_fn.next_functions[0][1])


def test_06_1_relu_gradient_at_and_around_zero():
    x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    torch.relu(x).sum().backward()
    accepted("06.1", x.grad)


def test_07_1_variable_returns_a_plain_tensor():
    accepted("07.1", type(torch.autograd.Variable(torch.ones(2))))


def test_07_3_data_hides_the_in_place_change():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.exp()
    y.data.zero_()
    y.sum().backward()
    accepted("07.3", x.grad)


def test_08_1_gradients_that_reach_sin_before_it_runs():
    x = torch.tensor(2.0, requires_grad=True)
    h = torch.sin(x)
    y = h * h + h
    sin_node = h.grad_fn
    arriving = sum(node is sin_node for step in trace(y) for node, g in step.sent if g is not None)
    accepted("08.1", arriving)


def test_08_2_summed_gradient_at_the_leaf():
    h = torch.tensor(3.0, requires_grad=True)
    y = h * h + h
    accumulate = next(step for step in trace(y) if step.name == "AccumulateGrad")
    accepted("08.2", accumulate.grads_in[0])


def test_08_3_engine_runs_the_later_created_node_first():
    x = torch.tensor(2.0, requires_grad=True)
    p = x * 2
    q = x * 3
    y = p + q
    order = [step.node for step in trace(y)]
    first = "p" if order.index(p.grad_fn) < order.index(q.grad_fn) else "q"
    accepted("08.3", first)

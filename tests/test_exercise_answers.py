"""The answers the check cells accept are what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here the questions that
can be computed are computed, and the check must accept the result.
"""

import warnings

import numpy as np
import torch
from torch.autograd import Function

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


def test_01_1_what_print_shows_for_the_gradient_of_a_scalar_or_of_a_one_element_tensor():
    for w in (torch.tensor(3.0, requires_grad=True), torch.tensor([3.0], requires_grad=True)):
        for _ in range(3):
            (w * w).sum().backward()
        accepted("01.1", str(w.grad))  # "tensor(18.)", "tensor([18.])"
        accepted("01.1", str(3 * (2 * w)))  # worked out in code: "tensor(18., grad_fn=<...>)"


def test_01_2_no_grad_result_does_not_require_grad():
    w = torch.tensor(1.0, requires_grad=True)
    with torch.no_grad():
        z = w * 2
    accepted("01.2", z.requires_grad)


def test_01_2_the_same_flag_as_numpy_and_as_a_tensor():
    w = torch.tensor(1.0, requires_grad=True)
    with torch.no_grad():
        z = w * 2
    accepted("01.2", np.bool_(z.requires_grad))
    accepted("01.2", torch.tensor(z.requires_grad))


def test_01_3_vector_jacobian_product():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).backward(torch.tensor([1.0, 0.0, 1.0]))
    accepted("01.3", x.grad)
    accepted("01.3", str(x.grad))  # what print(x.grad) shows, copied
    accepted("01.3", x.grad.numpy())


def test_02_1_leaves_that_require_grad_keep_their_gradient():
    # notebook 02's first graph: a = relu(w * x + b), through u = w * x and v = u + b
    x = torch.tensor(3.0)
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    u = w * x
    v = u + b
    a = torch.relu(v)
    a.backward()
    tensors = {"x": x, "w": w, "b": b, "u": u, "v": v, "a": a}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # reading .grad of a non-leaf warns
        names = {name for name, tensor in tensors.items() if tensor.grad is not None}
    accepted("02.1", names)


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


class PowerFunction(Function):
    # notebook 04, section 4.1, recording what backward sees
    seen = None

    @staticmethod
    def forward(ctx, x, exponent):
        ctx.save_for_backward(x)
        ctx.exponent = exponent
        return x**exponent

    @staticmethod
    def backward(ctx, grad_output):
        PowerFunction.seen = ctx.needs_input_grad
        (x,) = ctx.saved_tensors
        return ctx.exponent * x ** (ctx.exponent - 1) * grad_output, None


class MyReLU(Function):
    # notebook 04, section 5
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x.clamp(min=0)

    @staticmethod
    def backward(ctx, grad_output):
        (x,) = ctx.saved_tensors
        grad_input = grad_output.clone()
        grad_input[x < 0] = 0
        return grad_input


def test_04_2_needs_input_grad_of_power():
    x = torch.tensor(2.0, requires_grad=True)
    PowerFunction.apply(x, 3).backward()
    accepted("04.2", PowerFunction.seen)
    accepted("04.2", str(PowerFunction.seen))


def test_04_3_my_relu_passes_the_gradient_at_zero():
    x = torch.tensor(0.0, requires_grad=True)
    MyReLU.apply(x).backward()
    accepted("04.3", x.grad)


def test_05_2_one_gradient_per_weight():
    w1 = torch.randn(1000, 100, requires_grad=True)
    w2 = torch.randn(100, 10, requires_grad=True)
    x, y = torch.randn(64, 1000), torch.randn(64, 10)
    (x.mm(w1).clamp(min=0).mm(w2) - y).pow(2).sum().backward()
    accepted("05.2", sum(w.grad.numel() for w in (w1, w2) if w.grad is not None))


def test_05_3_an_update_outside_no_grad_makes_a_non_leaf():
    w1 = torch.randn(10, 3, requires_grad=True)
    x = torch.randn(4, 10)
    x.mm(w1).pow(2).sum().backward()
    w1 = w1 - 1e-3 * w1.grad
    x.mm(w1).pow(2).sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns: .grad of a non-leaf
        grad = w1.grad
    accepted("05.3", grad)
    accepted("05.3", str(grad))


def test_06_1_two_relus_add_their_gradients_and_differ_at_zero():
    x = torch.tensor([-1.0, 0.0, 2.0], requires_grad=True)
    (torch.relu(x) + MyReLU.apply(x)).sum().backward()
    accepted("06.1", x.grad)


def test_07_1_variable_returns_a_plain_tensor():
    kind = type(torch.autograd.Variable(torch.ones(2)))
    accepted("07.1", kind)
    accepted("07.1", str(kind))  # what print(type(t)) shows: <class 'torch.Tensor'>


def test_07_2_the_methods_that_give_a_loss_as_a_python_number():
    loss = (torch.ones(3, requires_grad=True) * 2).sum()
    methods = [name for name in ("item", "tolist", "numpy") if type(_call(loss, name)) is float]
    assert methods == ["item", "tolist"]
    for name in methods:
        accepted("07.2", name)


def _call(tensor, method):
    try:
        return getattr(tensor, method)()
    except RuntimeError:
        return None  # numpy() refuses a tensor that requires grad


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

"""The answers the check cells accept are what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here the questions that
can be computed are computed, and the check must accept the result.
"""

import warnings

import numpy as np
import torch
from answers import MyReLU, accepted
from torch import nn
from torch.autograd import Function


def test_01_3_three_backwards_accumulate():
    w = torch.tensor(3.0, requires_grad=True)
    for _ in range(3):
        (w * w).backward()
    accepted("01.3", w.grad)


def test_01_3_what_print_shows_for_the_gradient_of_a_scalar_or_of_a_one_element_tensor():
    for w in (torch.tensor(3.0, requires_grad=True), torch.tensor([3.0], requires_grad=True)):
        for _ in range(3):
            (w * w).sum().backward()
        accepted("01.3", str(w.grad))  # "tensor(18.)", "tensor([18.])"
        accepted("01.3", str(3 * (2 * w)))  # worked out in code: "tensor(18., grad_fn=<...>)"


def test_01_4_no_grad_result_does_not_require_grad():
    w = torch.tensor(1.0, requires_grad=True)
    with torch.no_grad():
        z = w * 2
    accepted("01.4", z.requires_grad)


def test_01_4_the_same_flag_as_numpy_and_as_a_tensor():
    w = torch.tensor(1.0, requires_grad=True)
    with torch.no_grad():
        z = w * 2
    accepted("01.4", np.bool_(z.requires_grad))
    accepted("01.4", torch.tensor(z.requires_grad))


def test_01_5_vector_jacobian_product():
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    (x * x).backward(torch.tensor([1.0, 0.0, 1.0]))
    accepted("01.5", x.grad)
    accepted("01.5", str(x.grad))  # what print(x.grad) shows, copied
    accepted("01.5", x.grad.numpy())


def test_01_1_eval_changes_the_layer_not_the_recording():
    torch.manual_seed(0)  # which values dropout zeroes is random
    model = nn.Dropout(p=0.5)
    w = torch.tensor(2.0, requires_grad=True)
    x = torch.ones(8)
    model.eval()
    out = model(w * x)
    accepted("01.1", (out.requires_grad, bool((out == 0).any())))


def test_01_2_the_decorator_alone_switches_recording_off():
    weights = torch.tensor([[0.5], [-1.0]], requires_grad=True)
    new_inputs = torch.tensor([[1.0, 2.0], [3.0, 4.0]])

    def evaluate(weights, inputs):  # the cell's function, its line @torch.no_grad() deleted
        return inputs @ weights

    decorated = torch.no_grad()(evaluate)  # what the line @torch.no_grad() makes of it
    with_it, without_it = decorated(weights, new_inputs), evaluate(weights, new_inputs)
    accepted("01.2", (with_it.requires_grad, without_it.requires_grad))


def test_02_4_leaves_that_require_grad_keep_their_gradient():
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
    accepted("02.4", names)


def test_02_5_relu_blocks_the_gradient_when_its_input_is_negative():
    b, w, x = torch.tensor(1.0, requires_grad=True), torch.tensor(2.0, requires_grad=True), -3.0
    torch.relu(w * x + b).backward()
    accepted("02.5", w.grad)


def test_02_6_retain_grad_after_backward_is_too_late():
    w = torch.tensor(2.0, requires_grad=True)
    u = w * 3.0
    torch.relu(u + 1).backward()
    u.retain_grad()
    accepted("02.6", u.grad)


def test_02_1_computed_from_tensors_without_grad_is_a_leaf():
    x = torch.tensor(3.0)
    data = x * 2 + 1
    accepted("02.1", (data.is_leaf, data.requires_grad))


def test_02_2_a_copy_made_after_requires_grad_keeps_no_gradient():
    w = torch.randn(3, requires_grad=True).to(torch.float64)
    (w * w).sum().backward()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # PyTorch warns: .grad of a non-leaf
        grad = w.grad
    accepted("02.2", grad)


def test_02_3_requires_grad_before_the_copy_makes_a_non_leaf():
    w = torch.randn(3).requires_grad_().to(torch.float64)
    (w * w).sum().backward()
    accepted("02.3", w.is_leaf)


def test_03_3_slot_of_the_input_without_grad():
    x, w = torch.tensor(3.0), torch.tensor(2.0, requires_grad=True)
    y = x * w
    slot = next(i for i, (node, _) in enumerate(y.grad_fn.next_functions) if node is None)
    accepted("03.3", slot)


def test_03_4_two_passes_accumulate():
    w = torch.tensor(3.0, requires_grad=True)
    (w * w).backward()
    (w * w * w).backward()
    accepted("03.4", w.grad)


def test_03_5_output_index_after_unbind():
    t = torch.tensor([2.0, 5.0], requires_grad=True)
    p, q = torch.unbind(t)
    accepted("03.5", (q * 10).grad_fn.next_functions[0][1])


def test_03_1_the_mul_node_returns_none_for_the_input_without_grad():
    # notebook 03, steps 1 to 4: the neuron's nodes called by hand
    b = torch.tensor(1.0, requires_grad=True)
    w = torch.tensor(2.0, requires_grad=True)
    x = torch.tensor(3.0)
    a = torch.relu(w * x + b)
    dv = a.grad_fn(torch.tensor(1.0))
    add_node = a.grad_fn.next_functions[0][0]
    du, db = add_node(dv)
    mul_node = add_node.next_functions[0][0]
    dw, dx = mul_node(du)
    accepted("03.1", dx)


def test_03_2_resetting_the_gradient_between_two_backwards():
    w = torch.tensor(2.0, requires_grad=True)
    y = w * w
    y.backward(retain_graph=True)
    w.grad = None
    y.backward()
    accepted("03.2", w.grad)
    accepted("03.2", str(w.grad))  # what the second print shows


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


def test_04_4_needs_input_grad_of_power():
    x = torch.tensor(2.0, requires_grad=True)
    PowerFunction.apply(x, 3).backward()
    accepted("04.4", PowerFunction.seen)
    accepted("04.4", str(PowerFunction.seen))


def test_04_5_my_relu_passes_the_gradient_at_zero():
    x = torch.tensor(0.0, requires_grad=True)
    MyReLU.apply(x).backward()
    accepted("04.5", x.grad)


class SquareAndCube(Function):
    # notebook 04, section 6.2, recording the gradient backward receives for the cube
    grad_cube = None

    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x**2, x**3

    @staticmethod
    def backward(ctx, grad_square, grad_cube):
        SquareAndCube.grad_cube = grad_cube
        (x,) = ctx.saved_tensors
        return 2 * x * grad_square + 3 * x**2 * grad_cube


class DoubleInPlace(Function):
    # notebook 04, section 6.3, with the line ctx.mark_dirty(x) deleted
    @staticmethod
    def forward(ctx, x):
        x.mul_(2)
        return x

    @staticmethod
    def backward(ctx, grad_output):
        return 2 * grad_output


def test_04_1_an_unused_output_gets_a_gradient_of_zeros():
    x = torch.tensor(2.0, requires_grad=True)
    square, cube = SquareAndCube.apply(x)
    try:
        square.backward()  # cube is not used
    except RuntimeError:
        letter = "d"
    else:
        received = SquareAndCube.grad_cube
        if received is None:
            letter = "a"
        else:
            letter = {0.0: "b", 1.0: "c"}.get(received.item(), f"none: {received!r}")
    accepted("04.1", letter)


def test_04_2_without_mark_dirty_the_doubling_is_not_differentiated():
    w = torch.tensor([1.0, 3.0], requires_grad=True)
    x = w.clone()
    DoubleInPlace.apply(x)
    x.sum().backward()
    accepted("04.2", w.grad)


def test_07_3_variable_returns_a_plain_tensor():
    kind = type(torch.autograd.Variable(torch.ones(2)))
    accepted("07.3", kind)
    accepted("07.3", str(kind))  # what print(type(t)) shows: <class 'torch.Tensor'>


def test_07_4_the_methods_that_give_a_loss_as_a_python_number():
    loss = (torch.ones(3, requires_grad=True) * 2).sum()
    methods = [name for name in ("item", "tolist", "numpy") if type(_call(loss, name)) is float]
    assert methods == ["item", "tolist"]
    for name in methods:
        accepted("07.4", name)


def _call(tensor, method):
    try:
        return getattr(tensor, method)()
    except RuntimeError:
        return None  # numpy() refuses a tensor that requires grad


def test_07_5_data_hides_the_in_place_change():
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    y = x.exp()
    y.data.zero_()
    y.sum().backward()
    accepted("07.5", x.grad)


def test_07_1_the_old_constructor_given_whole_numbers_allocates_a_shape():
    # In deterministic mode PyTorch fills memory it allocates without writing with NaN: a
    # tensor of NaNs shows that torch.Tensor(2, 3) wrote no values, not even zeros.
    was_deterministic = torch.are_deterministic_algorithms_enabled()
    was_filling = torch.utils.deterministic.fill_uninitialized_memory
    torch.use_deterministic_algorithms(True)
    torch.utils.deterministic.fill_uninitialized_memory = True
    try:
        made = torch.Tensor(2, 3)
    finally:
        torch.use_deterministic_algorithms(was_deterministic)
        torch.utils.deterministic.fill_uninitialized_memory = was_filling
    if made.shape == (2,) and made.tolist() == [2.0, 3.0]:
        letter = "a"
    elif made.shape != (2, 3):
        letter = f"none: shape {tuple(made.shape)}"
    elif made.dtype == torch.int64:
        letter = "d"
    elif made.dtype == torch.float32 and bool(made.isnan().all()):
        letter = "b"
    elif bool((made == 0).all()):
        letter = "c"
    else:
        letter = f"none: {made!r}"
    accepted("07.1", letter)


def test_07_2_a_change_through_detach_is_counted_and_caught():
    x_small = torch.tensor([0.0, 1.0], requires_grad=True)
    y_small = x_small.exp()
    y_small.detach().zero_()  # instead of y_small.data.zero_()
    try:
        y_small.sum().backward()
    except RuntimeError as error:
        letter = "b" if "modified by an inplace operation" in str(error) else f"none: {error}"
    else:
        if torch.equal(x_small.grad, torch.zeros(2)):
            letter = "a"
        elif torch.allclose(x_small.grad, x_small.detach().exp()):
            letter = "c"
        else:
            letter = f"none: x_small.grad is {x_small.grad}"
    accepted("07.2", letter)

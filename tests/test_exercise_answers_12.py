"""Notebook 12's check cells accept what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here every question of
notebook 12 is computed with PyTorch (backward passes counted, tangents carried by dual tensors,
torch.func's transforms, gradcheck), and the check must accept the result and reject what a
plausible slip would give instead.
"""

import torch
from answers import accepted, rejected
from torch import nn
from torch.autograd import forward_ad
from torch.func import functional_call, grad, hessian, jacfwd, jacrev, vmap

# Notebook 12's f, section 1: 3 numbers in, 2 out.
M = torch.tensor([[1.0, -2.0, 0.5], [0.0, 1.0, 3.0]])


def f(x):
    return torch.tanh(M.to(x.dtype) @ x)


def backward_passes(function, x):
    """How many backward passes torch.autograd.functional.jacobian makes through ``function``:
    a hook on the input runs once in every pass that reaches it."""
    passes = 0

    def count(gradient):
        nonlocal passes
        passes += 1
        return gradient

    def counted(x):
        x.register_hook(count)
        return function(x)

    torch.autograd.functional.jacobian(counted, x)
    return passes


def forward_passes(function, x):
    """How many forward-mode passes build the Jacobian of ``function``, one dual pass per
    direction, until the columns found equal jacfwd's whole Jacobian."""
    columns = []
    whole = jacfwd(function)(x)
    for direction in torch.eye(x.numel()):
        with forward_ad.dual_level():
            output = function(forward_ad.make_dual(x, direction))
            columns.append(forward_ad.unpack_dual(output).tangent)
        if torch.stack(columns, dim=1).shape == whole.shape:
            break
    assert torch.allclose(torch.stack(columns, dim=1), whole, atol=1e-6)
    return len(columns)


def test_12_1_jacobian_makes_one_backward_pass_per_output():
    x = torch.tensor([0.2, -0.1, 0.3])
    passes = backward_passes(f, x)
    accepted("12.1", passes)
    rejected("12.1", x.numel())  # one per input: the direction of forward mode


def test_12_1_the_rows_the_passes_make_are_jacrevs_jacobian():
    x = torch.tensor([0.2, -0.1, 0.3])
    rows = []
    for v in torch.eye(2):
        leaf = x.clone().requires_grad_()
        rows.append(torch.autograd.grad(f(leaf), leaf, grad_outputs=v)[0])
    assert torch.allclose(torch.stack(rows), jacrev(f)(x))


def test_12_2_the_tangent_of_a_small_function():
    with forward_ad.dual_level():
        x = forward_ad.make_dual(torch.tensor(2.0), torch.tensor(0.5))
        primal, tangent = forward_ad.unpack_dual(x * x + 3 * x)
    accepted("12.2", tangent)
    accepted("12.2", str(tangent))  # what print shows, copied: "tensor(3.5000)"
    rejected("12.2", tangent / 0.5)  # the derivative, without the direction's length
    rejected("12.2", primal)


def test_12_3_passes_by_rows_and_by_columns_on_a_tall_function():
    torch.manual_seed(0)
    few, hidden, many = 4, 50, 2000
    V_in, V_out = torch.randn(hidden, few), torch.randn(many, hidden)

    def tall(x):
        return V_out @ torch.tanh(V_in @ x)

    x = torch.randn(few)
    by_rows, by_columns = backward_passes(tall, x), forward_passes(tall, x)
    accepted("12.3", [by_rows, by_columns])
    rejected("12.3", [by_columns, by_rows])


def test_12_4_hessian_of_a_product():
    def h(x):
        return x[0] ** 2 * x[1]

    H = hessian(h)(torch.tensor([1.0, 3.0]))
    accepted("12.4", H)
    accepted("12.4", str(H))
    rejected("12.4", torch.diag(torch.diagonal(H)))  # the mixed derivatives forgotten


def test_12_5_shape_of_per_sample_gradients():
    torch.manual_seed(0)
    model = nn.Linear(3, 2)
    params = {name: p.detach() for name, p in model.named_parameters()}

    def loss_of(params, x, target):
        return ((functional_call(model, params, (x,)) - target) ** 2).sum()

    xs, targets = torch.randn(8, 3), torch.randn(8, 2)
    per_sample = vmap(grad(loss_of), in_dims=(None, 0, 0))(params, xs, targets)
    shape = per_sample["weight"].shape
    accepted("12.5", shape)
    accepted("12.5", str(shape))  # "torch.Size([8, 2, 3])"
    accepted("12.5", list(shape))
    rejected("12.5", list(model.weight.shape))  # the batch's gradient, summed


class _Tanh(torch.autograd.Function):
    @staticmethod
    def forward(x):
        return torch.tanh(x)

    @staticmethod
    def setup_context(ctx, inputs, output):
        ctx.save_for_backward(output)
        ctx.save_for_forward(output)

    @staticmethod
    def backward(ctx, grad_output):
        (y,) = ctx.saved_tensors
        return grad_output * (1 - y * y)

    @staticmethod
    def jvp(ctx, x_tangent):
        (y,) = ctx.saved_tensors
        return x_tangent * (1 - y * y)


class _TanhWithWrongJvp(_Tanh):
    @staticmethod
    def jvp(ctx, x_tangent):
        (y,) = ctx.saved_tensors
        return -x_tangent * (1 - y * y)


def _gradchecks(function):
    x64 = torch.randn(5, dtype=torch.float64, requires_grad=True)
    return tuple(
        torch.autograd.gradcheck(
            function.apply, (x64,), check_forward_ad=forward, raise_exception=False
        )
        for forward in (False, True)
    )


def test_12_6_only_the_forward_check_finds_a_wrong_jvp():
    torch.manual_seed(0)
    accepted("12.6", _gradchecks(_TanhWithWrongJvp))
    rejected("12.6", _gradchecks(_Tanh))  # the notebook's MyTanh passes both

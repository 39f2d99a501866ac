"""Notebook 09's check cells accept what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here every question of
notebook 09 is computed, and the check must accept the result and reject what a plausible slip
would compute instead. The find-the-bug questions (09.3, 09.4) take their letter from what
PyTorch shows: the checklist's causes that the snippet rules out, and the one whose fix brings the
gradient back.
"""

import torch
from answers import accepted, rejected

# Notebook 09, section 4.1: the checklist's letters.
CAUSES = "abcdefg"


def small_network():
    # notebook 09, section 1.3
    torch.manual_seed(0)
    return torch.nn.Sequential(
        torch.nn.Linear(4, 8),
        torch.nn.Tanh(),
        torch.nn.Linear(8, 8),
        torch.nn.Tanh(),
        torch.nn.Linear(8, 1),
    )


def test_09_1_zero_grad_between_backward_and_step_leaves_none_though_the_hook_saw_a_gradient():
    model = small_network()
    seen = {}
    for name, p in model.named_parameters():
        p.register_hook(lambda grad, name=name: seen.__setitem__(name, grad.norm().item()))
    optimizer = torch.optim.SGD(model.parameters(), lr=0.1)
    inputs, targets = torch.randn(16, 4), torch.randn(16, 1)
    before = model[0].weight.detach().clone()

    loss = torch.nn.functional.mse_loss(model(inputs), targets)
    loss.backward()
    computed = model[0].weight.grad.clone()
    optimizer.zero_grad()  # moved between backward and step
    optimizer.step()

    assert seen["0.weight"] > 0  # backward did compute a gradient
    assert torch.equal(model[0].weight.detach(), before)  # step found nothing to apply
    accepted("09.1", model[0].weight.grad)
    accepted("09.1", str(model[0].weight.grad))
    rejected("09.1", computed)  # what .grad held before zero_grad


def test_09_2_the_hessian_vector_product_of_the_double_backward_is_hessian_times_v():
    w = torch.tensor([3.0, 2.0], requires_grad=True)
    v = torch.tensor([1.0, 0.0])
    (g,) = torch.autograd.grad(w[0] ** 2 * w[1], w, create_graph=True)
    (hv,) = torch.autograd.grad(g @ v, w)
    hessian = torch.autograd.functional.hessian(lambda w: w[0] ** 2 * w[1], w.detach())
    assert torch.allclose(hv, hessian @ v)
    accepted("09.2", hv)
    accepted("09.2", str(hv))
    rejected("09.2", hessian @ torch.tensor([0.0, 1.0]))  # the other column
    rejected("09.2", g.detach())  # the gradient, not H v


def gradient_of_w(scale_of):
    """Notebook 09's snippet for 09.3, with the scale computed by ``scale_of(w)``."""
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    b = torch.tensor(0.5, requires_grad=True)
    x = torch.tensor([3.0, 1.0])
    scale = scale_of(w)
    y = (x * scale).sum() + b
    y.backward()
    return w, b


def test_09_3_item_breaks_the_chain_between_the_loss_and_w():
    w, b = gradient_of_w(lambda w: w.abs().max().item())
    assert w.grad is None and b.grad is not None
    ruled_out = {"a": w.is_leaf, "b": w.requires_grad, "c": torch.is_grad_enabled()}
    assert all(ruled_out.values())
    fixed, _ = gradient_of_w(lambda w: w.abs().max())  # the same value, kept a tensor
    found = "d" if fixed.grad is not None else None
    accepted("09.3", found)
    for letter in set(CAUSES) - {found}:
        rejected("09.3", letter)


def test_09_4_a_unit_whose_input_is_negative_on_every_sample_gets_no_gradient():
    def grad_of_w(activation):
        w = torch.tensor([[1.0, 1.0], [-1.0, -2.0]], requires_grad=True)
        x = torch.tensor([[1.0, 2.0], [3.0, 1.0]])
        activation(x @ w.T).sum().backward()
        return w.grad, x @ w.T.detach()

    grad, unit_inputs = grad_of_w(torch.relu)
    assert torch.equal(grad[1], torch.zeros(2)) and not torch.equal(grad[0], torch.zeros(2))
    dead = (unit_inputs <= 0).all(dim=0)  # a unit whose input is never positive
    assert dead.tolist() == [False, True]
    leaky, _ = grad_of_w(torch.nn.functional.leaky_relu)  # a slope where ReLU is flat
    found = "f" if leaky[1].abs().sum() > 0 else None
    accepted("09.4", found)
    for letter in set(CAUSES) - {found}:
        rejected("09.4", letter)


def test_09_5_a_hook_on_the_output_scales_every_gradient_behind_it():
    x = torch.tensor(3.0, requires_grad=True)
    y = x * x
    y.register_hook(lambda grad: grad * 10)
    y.backward()
    accepted("09.5", x.grad)


def test_09_5_without_the_hook_the_answer_is_rejected():
    x = torch.tensor(3.0, requires_grad=True)
    (x * x).backward()
    rejected("09.5", x.grad)


def backward_after(line):
    """Run `line` after y = x.sigmoid(), then y.sum().backward(): None, or the error's text."""
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.sigmoid()
    namespace = {"x": x, "y": y}
    exec(line, namespace)
    try:
        namespace["y"].sum().backward()
    except RuntimeError as error:
        return str(error)
    return None


def test_09_6_only_the_augmented_assignment_breaks_backward():
    choices = {"a": "y = y * 2", "b": "y *= 2", "c": "z = y + 1"}
    failing = [
        c for c, line in choices.items() if "inplace operation" in (backward_after(line) or "")
    ]
    assert failing == ["b"]
    accepted("09.6", failing[0])
    for choice in choices.keys() - set(failing):
        rejected("09.6", choice)

"""Notebook 09's check cells accept what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here every question of
notebook 09 is computed, and the check must accept the result and reject what a plausible slip
would compute instead.
"""

import torch
from answers import accepted, rejected


def test_09_3_a_hook_on_the_output_scales_every_gradient_behind_it():
    x = torch.tensor(3.0, requires_grad=True)
    y = x * x
    y.register_hook(lambda grad: grad * 10)
    y.backward()
    accepted("09.3", x.grad)


def test_09_3_without_the_hook_the_answer_is_rejected():
    x = torch.tensor(3.0, requires_grad=True)
    (x * x).backward()
    rejected("09.3", x.grad)


def test_09_4_second_derivative_through_create_graph():
    x = torch.tensor(2.0, requires_grad=True)
    (g,) = torch.autograd.grad(x**4, x, create_graph=True)
    (h,) = torch.autograd.grad(g, x)
    accepted("09.4", h)
    rejected("09.4", g)  # the first derivative is the slip the question guards against


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


def test_09_5_only_the_augmented_assignment_breaks_backward():
    choices = {"a": "y = y * 2", "b": "y *= 2", "c": "z = y + 1"}
    failing = [
        c for c, line in choices.items() if "inplace operation" in (backward_after(line) or "")
    ]
    assert failing == ["b"]
    accepted("09.5", failing[0])
    for choice in choices.keys() - set(failing):
        rejected("09.5", choice)


def test_09_6_each_in_place_change_counts_once():
    t = torch.zeros(3)
    t.add_(1)
    t[0] = 5
    t.mul_(2)
    accepted("09.6", t._version)
    rejected("09.6", t._version - 1)

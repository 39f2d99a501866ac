"""The helpers on models of the shapes learners bring (tests/real_models.py, each written after
the public description of the code it comes from): grad is PyTorch's to the last bit or refuses
for a stated reason, trace runs, compare finds exact gradients right and names a planted error
first, a recorded forward pass folds into the model's modules, and a recording leaves the
pictures of later passes as they were."""

from __future__ import annotations

import pytest
import torch
from real_models import CASES

from helpers.backward import CannotMatchPyTorch, compare, grad, trace
from helpers.graph import build, draw, recording
from helpers.graph.model import build_graph
from helpers.graph.modules import modules_of

NAMES = sorted(CASES)


def make(name: str):
    """The case's model, with its weights drawn from seed 0, and its forward pass."""
    torch.manual_seed(0)
    return CASES[name]()


def loss_of(run) -> torch.Tensor:
    """A fresh loss of a forward pass, dropout and noise drawn from seed 1 each time."""
    torch.manual_seed(1)
    return run()


def forward(name: str, *, recorded: bool = False):
    """A model of the case, a fresh loss, and the parameters that require grad."""
    model, run = make(name)
    if recorded:
        with recording(model):
            loss = loss_of(run)
    else:
        loss = loss_of(run)
    return model, loss, [p for p in model.parameters() if p.requires_grad]


@pytest.mark.parametrize("name", NAMES)
def test_grad_is_pytorchs_to_the_last_bit_or_refused_for_a_reason(name):
    _, loss, parameters = forward(name)
    expected = torch.autograd.grad(loss, parameters, retain_graph=True, allow_unused=True)
    try:
        ours = grad(loss, parameters)
    except CannotMatchPyTorch as refusal:
        assert len(str(refusal)) > 40, "a refusal says why"
        return
    for mine, pytorchs in zip(ours, expected, strict=True):
        assert (mine is None) == (pytorchs is None)
        if mine is not None:
            assert mine.dtype == pytorchs.dtype and torch.equal(mine, pytorchs)


@pytest.mark.parametrize("name", NAMES)
def test_trace_records_the_pass(name):
    model, loss, parameters = forward(name)
    steps = trace(loss)
    assert len(steps) > 0
    assert all(p.grad is not None for p in parameters if p.grad is not None)


@pytest.mark.parametrize("name", NAMES)
def test_compare_finds_the_exact_gradients_right_and_names_a_planted_error(name):
    _, loss, parameters = forward(name)
    exact = torch.autograd.grad(loss, parameters, retain_graph=True, allow_unused=True)
    mine = {p: g for p, g in zip(parameters, exact, strict=True) if g is not None}
    assert compare(loss, mine).all_right
    planted = next(reversed(mine))  # the parameter nearest the input, as dicts keep order
    result = compare(loss, {**mine, planted: mine[planted] * 2 + 1})
    wrong = [check.name for check in result.checks if not check.right]
    assert wrong and result.first_wrong == wrong[0]
    assert len(wrong) == 1


@pytest.mark.parametrize("name", NAMES)
def test_a_recorded_pass_folds_into_the_models_modules(name):
    model, loss, _ = forward(name, recorded=True)
    graph = build_graph([loss], [])
    # The top-level modules that made a Node ("" for the model itself, one with no submodules).
    made = {path.split(".")[0] for path in modules_of(graph).of_box.values() if path is not None}
    assert made, "the recording labelled the Nodes of the model's modules"
    picture = build(loss)
    shown = {path.split(".")[0] for paths in picture.module_boxes.values() for path in paths}
    shown |= {frame.path.split(".")[0] for frame in picture.frames}
    assert made <= shown, f"modules neither folded nor framed: {made - shown}"
    draw(loss).svg()
    draw(loss, expand=sorted(made)[0]).svg()


@pytest.mark.parametrize("name", NAMES)
def test_a_recording_leaves_the_picture_of_a_later_pass_as_it_was(name):
    model, run = make(name)
    loss = loss_of(run)
    before = draw(loss).source
    with recording(model):
        loss_of(run)
    loss = loss_of(run)
    after = draw(loss).source
    assert after == before

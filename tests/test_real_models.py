"""The helpers on models of the shapes learners bring (tests/real_models.py, each written after
the public description of the code it comes from): grad is PyTorch's to the last bit or refuses
for a stated reason, trace runs, compare finds exact gradients right and names a planted error
first, a recorded forward pass folds into the model's modules, and a recording leaves the
pictures of later passes as they were."""

from __future__ import annotations

import library_models
import pytest
import real_models
import torch

from helpers.backward import CannotMatchPyTorch, compare, grad, trace
from helpers.graph import DEFAULT_SECONDS, VIEW_BYTES, build, draw, explore, recording
from helpers.graph.model import build_graph
from helpers.graph.modules import modules_of

CASES = {**real_models.CASES, **library_models.CASES}
# The libraries' models take most of the time: `pytest -m "not slow"` leaves them out.
NAMES = [
    pytest.param(name, marks=pytest.mark.slow) if name in library_models.CASES else name
    for name in sorted(CASES)
]


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


def view_payload(view) -> int:
    """What a view sends to the page: its output's bundle and the widget's state and script."""
    bundle, _ = view._repr_mimebundle_()
    widget = view.widget()
    state = sum(len(str(getattr(widget, name))) for name in ("svg", "index", "texts", "caption"))
    return sum(len(str(value)) for value in bundle.values()) + state + len(widget._esm)


@pytest.mark.parametrize("recorded", [True, False], ids=["recorded", "not recorded"])
@pytest.mark.parametrize("name", NAMES)
def test_the_view_of_a_pass_carries_at_most_500_kb(name, recorded):
    model, loss, _ = forward(name, recorded=recorded)
    view = explore(loss)
    assert view_payload(view) < VIEW_BYTES
    if "under 500 KB" in view.widget().caption:  # cut for the view: fewer boxes than draw's
        assert view.boxes < len(build(loss).nodes)


def test_a_view_cut_for_its_weight_says_so_and_max_nodes_none_is_not_cut():
    # d2l's GRU from scratch over 35 time steps, not recorded: 200 Nodes make 700 KB of view.
    _, loss, _ = forward("d2l GRU from scratch")
    view = explore(loss)
    caption = view.widget().caption
    assert view_payload(view) < VIEW_BYTES
    assert "The view keeps what it sends to the page under 500 KB" in caption
    whole = explore(loss, max_nodes=None)
    assert "under 500 KB" not in whole.widget().caption
    assert whole.boxes > view.boxes


MICROGRAD_DEMO = "micrograd demo (MLP 2-16-16-1, L2 penalty)"


def test_boxes_no_module_made_leave_the_model_folded_into_its_modules():
    # The penalty over 337 parameters makes some 700 boxes outside the model's forward: they
    # are there however the model folds, so they do not keep it folded into one box.
    _, loss, _ = forward(MICROGRAD_DEMO, recorded=True)
    folded = {path for paths in build(loss).module_boxes.values() for path in paths}
    assert folded and "" not in folded
    assert all(path.startswith("layers.") for path in folded)


def test_a_folded_picture_slow_to_lay_out_is_cut_like_any_default_picture():
    _, loss, _ = forward(MICROGRAD_DEMO, recorded=True)
    drawing = draw(loss)
    assert drawing.estimated_seconds <= DEFAULT_SECONDS
    picture = build(loss)
    (summary,) = [box for box in picture.nodes if box.kind == "summary"]
    hidden = picture.total_nodes - picture.drawn_nodes
    # The summary box and the caption count the same Nodes: those of no box drawn.
    assert f"{hidden:,} more" in summary.title and f"{hidden:,} more" in " ".join(picture.notes)
    everything = draw(loss, max_nodes=None)
    assert everything.estimated_seconds > DEFAULT_SECONDS

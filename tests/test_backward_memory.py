"""Specification of what `trace` and `grad` keep (issue 24): a large gradient as a summary, not a
copy, compared to the last bit all the same; the whole gradient only when it is small or asked
for. The memory and time this saves are measured in benchmarks/bench_backward.py."""

import math

import pytest
import torch
from torch import nn

from helpers.backward import KEPT_WHOLE, CannotMatchPyTorch, GradientSummary, grad, trace, watching
from helpers.backward_view import table_text

SIDE = 40  # a 40 x 40 gradient has 1,600 numbers: more than KEPT_WHOLE


def large_graph():
    """``(tanh(x @ w) * 3).sum()`` on 40 x 40 leaves: every gradient in it is large."""
    generator = torch.Generator().manual_seed(0)
    x = torch.randn(SIDE, SIDE, generator=generator, requires_grad=True)
    w = torch.randn(SIDE, SIDE, generator=generator, requires_grad=True)
    h = torch.tanh(x @ w)
    return (h * 3).sum(), x, w, h


def kept_tensors(steps):
    return [
        g
        for step in steps
        for g in (*step.grads_in, *step.grads_out, *(step.grads_arrived or ()))
        if isinstance(g, torch.Tensor)
    ]


def test_a_trace_keeps_no_copy_of_a_gradient_larger_than_kept_whole():
    assert SIDE * SIDE > KEPT_WHOLE
    output, *_ = large_graph()
    steps = trace(output)
    assert all(g.numel() <= KEPT_WHOLE for g in kept_tensors(steps))
    assert any(isinstance(g, GradientSummary) for step in steps for g in step.grads_in)


def test_a_summary_holds_shape_dtype_norms_first_values_of_the_gradient():
    output, x, w, h = large_graph()
    steps = trace(output)
    (leaf,) = [s for s in steps if s.name == "AccumulateGrad" and s.node.variable is w]
    summary = leaf.grads_in[0]
    assert isinstance(summary, GradientSummary)
    assert (summary.shape, summary.dtype, summary.layout) == (w.shape, w.dtype, torch.strided)
    assert summary.first == tuple(w.grad.flatten()[:4].tolist())
    assert math.isclose(summary.norm, w.grad.norm().item(), rel_tol=1e-6)
    assert summary.largest == w.grad.abs().max().item()
    assert summary.numel() == SIDE * SIDE and summary.dim() == 2


def test_a_summary_reads_as_code_in_any_language():
    output, *_ = large_graph()
    summary = trace(output)[0].grads_in[0]  # the output is a number: kept whole
    assert isinstance(summary, torch.Tensor)
    summary = trace(large_graph()[0])[1].grads_in[0]  # MulBackward0: a 40 x 40 gradient
    assert repr(summary).startswith("GradientSummary((40, 40), float32, norm=")


def test_small_gradients_stay_whole_tensors():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    steps = trace((x * 3).sum())
    assert all(isinstance(g, torch.Tensor) for step in steps for g in step.grads_in)
    assert torch.equal(steps[-1].grads_in[0], torch.tensor([3.0, 3.0]))


def test_keep_gradients_keeps_every_gradient_whole():
    output, x, w, h = large_graph()
    steps = trace(output, keep_gradients=True)
    assert not any(isinstance(g, GradientSummary) for step in steps for g in step.grads_in)
    (leaf,) = [s for s in steps if s.name == "AccumulateGrad" and s.node.variable is w]
    assert torch.equal(leaf.grads_in[0], w.grad)


def test_the_table_shows_a_summarised_gradient_as_a_tensor_of_its_size():
    output, x, w, h = large_graph()
    assert "(40, 40) float32 → AccumulateGrad of w" in table_text(trace(output))


def test_a_hook_that_changes_one_bit_of_a_large_gradient_is_seen():
    output, x, w, h = large_graph()

    def flip_the_sign_of_one_zero(g):  # -0.0 for 0.0: equal as numbers, not as bits
        g = g.clone()
        g[0, 0] = -0.0 if g[0, 0].item() == 0 and math.copysign(1, g[0, 0].item()) > 0 else 0.0
        return g

    h.register_hook(flip_the_sign_of_one_zero)
    steps = trace(output)
    changed = [step.node for step in steps if step.changed_by_hook]
    assert changed == [h.grad_fn]


def test_no_hook_means_no_change_on_large_gradients_that_meet():
    x = torch.randn(SIDE, SIDE, requires_grad=True)
    output = (x * x + torch.sin(x) * x).sum()  # three edges into x's node: summed on arrival
    steps = trace(output)
    assert all(step.grads_arrived is not None and not step.changed_by_hook for step in steps)


def test_grad_of_large_gradients_is_pytorchs_to_the_last_bit():
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(40, 40), nn.Tanh(), nn.Linear(40, 40))
    loss = model(torch.randn(64, 40)).pow(2).sum()
    parameters = list(model.parameters())
    expected = torch.autograd.grad(loss, parameters, retain_graph=True)
    ours = grad(loss, parameters)
    for mine, theirs in zip(ours, expected, strict=True):
        assert mine.numpy().tobytes() == theirs.numpy().tobytes()


def test_grad_keeps_summaries_of_large_gradients_while_it_checks(monkeypatch):
    watches = []
    real_watch = watching._Watch

    def spy(*args, **kwargs):
        watches.append(real_watch(*args, **kwargs))
        return watches[-1]

    monkeypatch.setattr(watching, "_Watch", spy)
    output, x, w, _ = large_graph()
    grad(output, [x, w])
    (watch,) = watches
    received = [g for run in watch.runs for g in run.received]
    assert all(g.numel() <= KEPT_WHOLE for g in received if isinstance(g, torch.Tensor))
    assert any(isinstance(g, GradientSummary) for run in watch.runs for g in run.received)


def test_grad_names_the_node_where_a_hook_changed_a_large_gradient():
    output, x, w, h = large_graph()
    h.register_hook(lambda g: g * 2)
    with pytest.raises(
        CannotMatchPyTorch,
        match=r"At TanhBackward0 \(the node that computed h\), PyTorch's engine received a "
        r"tensor of shape \(40, 40\) where .* had been sent to it",
    ):
        grad(output, [x, w])


def test_grad_names_a_post_hook_that_changed_what_a_large_node_sent():
    output, x, w, h = large_graph()
    h.grad_fn.register_hook(lambda grads_out, grads_in: (grads_out[0] * 2,))
    with pytest.raises(CannotMatchPyTorch, match=r"At TanhBackward0 .*sent on .*grad_fn\.register"):
        grad(output, [x, w])


def test_a_large_sparse_gradient_is_summarised_with_its_layout():
    torch.manual_seed(0)
    embedding = nn.Embedding(2000, 3, sparse=True)
    steps = trace(embedding(torch.tensor([1, 5, 5])).sum())
    (leaf,) = [s for s in steps if s.name == "AccumulateGrad"]
    summary = leaf.grads_in[0]
    assert isinstance(summary, GradientSummary) and summary.is_sparse
    assert summary.norm == pytest.approx(embedding.weight.grad.to_dense().norm().item())
    assert "(2000, 3) float32 sparse_coo" in table_text(steps)

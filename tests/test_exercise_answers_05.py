"""Notebook 05's check cells accept what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here every question of
notebook 05 is computed on the notebook's own network and data, and the check must accept the
result and reject what a plausible slip would give instead. Section 2's expected first loss is
run here too.
"""

import warnings

import torch
from answers import D_IN, D_OUT, H, N, accepted, make_data, rejected, step_down

LEARNING_RATE = 1e-6


def loss_at(x, y, w1, w2):
    return (x.mm(w1).clamp(min=0).mm(w2) - y).pow(2).sum()


def train(x, y, w1, w2, learning_rate, steps=500):
    """Notebook 05's train(): section 5's loop from copies of w1 and w2; the losses."""
    w1 = w1.clone().requires_grad_()
    w2 = w2.clone().requires_grad_()
    losses = []
    for _ in range(steps):
        loss = loss_at(x, y, w1, w2)
        losses.append(loss.item())
        loss.backward()
        step_down(learning_rate, w1, w2)
    return losses


def test_the_first_loss_is_near_the_expectation_from_the_weights_scale():
    # notebook 05, section 2: N * D_out * (H * D_in / 2 + 1), against the measured first loss
    x, y, w1, w2 = make_data()
    expected = N * D_OUT * (H * D_IN / 2 + 1)
    assert abs(loss_at(x, y, w1, w2).item() / expected - 1) < 0.15
    assert abs(x.mm(w1).std().item() / D_IN**0.5 - 1) < 0.05


def test_05_1_a_recorded_update_stops_the_loop_at_the_first_zeroing():
    # notebook 05, section 5: train_recording_the_update(steps=3), noting the line it is at
    x, y, w1, w2 = make_data()
    w1.requires_grad_()
    w2.requires_grad_()
    at = None
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # PyTorch warns: .grad of a non-leaf
            for t in range(3):
                at = ("backward", t)
                loss = loss_at(x, y, w1, w2)
                loss.backward()
                at = ("update", t)
                w1 = w1 - LEARNING_RATE * w1.grad
                w2 = w2 - LEARNING_RATE * w2.grad
                at = ("zero_", t)
                w1.grad.zero_()
                w2.grad.zero_()
            at = ("nowhere", 3)
    except (AttributeError, RuntimeError, TypeError):
        pass
    letters = {("backward", 1): "a", ("zero_", 0): "b", ("nowhere", 3): "c", ("update", 0): "d"}
    accepted("05.1", letters.get(at, f"none: stopped at {at}"))
    rejected("05.1", "d")


def loss_along_first_step(seed, learning_rate):
    """Notebook 05, section 6: the loss at 0 %, 1 %, ..., 100 % of the first step."""
    x, y, w1, w2 = make_data(seed)
    w1.requires_grad_()
    w2.requires_grad_()
    loss_at(x, y, w1, w2).backward()
    step1, step2 = learning_rate * w1.grad, learning_rate * w2.grad
    with torch.no_grad():
        return [
            loss_at(x, y, w1 - p / 100 * step1, w2 - p / 100 * step2).item() for p in range(101)
        ]


def test_section_6_seed_0_lands_lower_and_seed_1_higher_at_the_documents_rate():
    for seed, lowest, lands in ((0, 60, "lower"), (1, 49, "higher")):
        curve = loss_along_first_step(seed, LEARNING_RATE)
        assert curve.index(min(curve)) == lowest
        assert ("higher" if curve[100] > curve[0] else "lower") == lands


def test_05_2_a_doubled_learning_rate_overshoots_the_bottom():
    # notebook 05, section 6: learning_rate_tried = 2e-6, seed 0
    curve = loss_along_first_step(0, 2 * LEARNING_RATE)
    lowest = curve.index(min(curve))
    lands = "higher" if curve[100] > curve[0] else "lower"
    options = {"a": (60, "lower"), "b": (30, "higher"), "c": (100, "lower")}
    letter = next(
        (c for c, (at, way) in options.items() if abs(lowest - at) <= 5 and way == lands),
        f"none: lowest at {lowest} %, lands {lands}",
    )
    accepted("05.2", letter)
    rejected("05.2", "a")


def test_05_3_a_rescaled_start_begins_near_1e3_and_trains_at_1e_3():
    # notebook 05, section 7: train(..., learning_rate=1e-3) from the rescaled start
    x, y, w1, w2 = make_data()
    losses = train(x, y, w1 / D_IN**0.5, w2 / H**0.5, learning_rate=1e-3)
    first = min((3e7, 1e3, 1), key=lambda near: abs(torch.tensor(losses[0] / near).log()))
    last = "nan" if losses[-1] != losses[-1] else "below 1e-3" if losses[-1] < 1e-3 else "other"
    options = {
        "a": (3e7, "nan"),
        "b": (1e3, "nan"),
        "c": (1e3, "below 1e-3"),
        "d": (1, "below 1e-3"),
    }
    letter = next(
        (c for c, option in options.items() if option == (first, last)),
        f"none: first loss {losses[0]:.3g}, last {losses[-1]:.3g}",
    )
    accepted("05.3", letter)
    rejected("05.3", "a")


def test_section_7_the_documents_start_overflows_at_1e_3():
    x, y, w1, w2 = make_data()
    losses = train(x, y, w1, w2, learning_rate=1e-3)
    assert losses[-1] != losses[-1]  # nan


def test_05_4_without_zeroing_w2_grad_holds_the_sum_of_two_steps():
    # notebook 05, the loop of section 5 without the two .grad.zero_() lines, during step 1
    x, y, w1, w2 = make_data()
    w1.requires_grad_()
    w2.requires_grad_()
    loss_at(x, y, w1, w2).backward()
    step_0 = w2.grad.clone()
    with torch.no_grad():
        w1 -= LEARNING_RATE * w1.grad
        w2 -= LEARNING_RATE * w2.grad
    # step 1's own gradient, from fresh copies of the weights step 0 left
    w1_1, w2_1 = w1.detach().clone().requires_grad_(), w2.detach().clone().requires_grad_()
    loss_at(x, y, w1_1, w2_1).backward()
    step_1 = w2_1.grad
    loss_at(x, y, w1, w2).backward()  # step 1, nothing zeroed
    options = {"a": step_1, "b": step_0 + step_1, "c": step_0}
    letter = next(
        (c for c, grad in options.items() if torch.allclose(w2.grad, grad, rtol=1e-5)), "none"
    )
    accepted("05.4", letter)
    rejected("05.4", "a")


def test_05_5_one_gradient_per_weight():
    x, y, w1, w2 = make_data()
    w1.requires_grad_()
    w2.requires_grad_()
    loss_at(x, y, w1, w2).backward()
    accepted("05.5", sum(w.grad.numel() for w in (w1, w2) if w.grad is not None))
    rejected("05.5", w1.grad.numel())


def test_section_7_the_rescaled_start_has_its_own_edge_at_2e_3():
    x, y, w1, w2 = make_data()
    losses = train(x, y, w1 / D_IN**0.5, w2 / H**0.5, learning_rate=2e-3)
    assert losses[-1] != losses[-1]  # nan

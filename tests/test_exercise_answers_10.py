"""Notebook 10's check cells accept what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here every question of
notebook 10 is computed, on the notebook's own network and data, and the check must accept the
result and reject what a plausible slip would give instead. Section 6's claims (a mean loss
divides every gradient; softmax with cross-entropy has the gradient p - one_hot) are run here too.
"""

import torch
from answers import D_IN, D_OUT, H, N, accepted, make_data, rejected, step_down
from torch import nn

from helpers.backward import compare
from helpers.torch_version import clamp_gradient_at_zero

LEARNING_RATE = 1e-6
# From the loss towards the weights: each tensor, and the tensor whose gradient its own is made
# from (None for the first). The order in which notebook 10 computes the gradients.
MADE_FROM = {"y_pred": None, "w2": "y_pred", "h_relu": "y_pred", "h": "h_relu", "w1": "h"}


def forward():
    """Notebook 10's forward pass, each tensor named, with w1 and w2 requiring grad."""
    x, y, w1, w2 = make_data()
    w1.requires_grad_()
    w2.requires_grad_()
    h = x.mm(w1)
    h_relu = h.clamp(min=0)
    y_pred = h_relu.mm(w2)
    loss = (y_pred - y).pow(2).sum()
    return loss, {"x": x, "y": y, "w1": w1, "w2": w2, "h": h, "h_relu": h_relu, "y_pred": y_pred}


def by_hand(t, clone=True, mask=True):
    """Notebook 10's backward pass, by hand: with the copy and the mask, or without either."""
    with torch.no_grad():
        grad_y_pred = 2.0 * (t["y_pred"] - t["y"])
        grad_w2 = t["h_relu"].t().mm(grad_y_pred)
        grad_h_relu = grad_y_pred.mm(t["w2"].t())
        grad_h = grad_h_relu.clone() if clone else grad_h_relu
        if mask:
            grad_h[t["h"] < 0] = 0
        grad_w1 = t["x"].t().mm(grad_h)
    return {"y_pred": grad_y_pred, "w2": grad_w2, "h_relu": grad_h_relu, "h": grad_h, "w1": grad_w1}


def wrong_gradients(loss, tensors, mine):
    """The names whose hand-written gradient differs from autograd's, in MADE_FROM's order."""
    names = list(MADE_FROM)
    autograds = torch.autograd.grad(loss, [tensors[name] for name in names], retain_graph=True)
    return [
        name
        for name, auto in zip(names, autograds, strict=True)
        if not torch.allclose(mine[name], auto, rtol=1e-5, atol=1e-3)
    ]


def fix_first(wrong):
    """The wrong gradient nearest the loss whose own source gradient is right."""
    return next(name for name in wrong if MADE_FROM[name] not in wrong)


def test_the_backward_pass_of_section_2_is_right_everywhere():
    loss, tensors = forward()
    assert wrong_gradients(loss, tensors, by_hand(tensors)) == []


def test_10_1_the_relus_gradient_on_four_numbers_is_masked_where_h_is_negative():
    # exercise 10.1's h and grad_h_relu: no number of h is exactly 0, so every torch agrees
    h = torch.tensor([[2.0, -1.0], [-3.0, 0.5]], requires_grad=True)
    grad_h_relu = torch.tensor([[-4.0, 5.0], [6.0, 7.0]])
    h.clamp(min=0).backward(grad_h_relu)
    accepted("10.1", h.grad)
    accepted("10.1", h.grad.tolist())
    # the slips: no mask, a mask on the gradient's sign, a product with h_relu
    rejected("10.1", grad_h_relu)
    rejected("10.1", grad_h_relu.clamp(min=0))
    rejected("10.1", grad_h_relu * h.detach().clamp(min=0))


def test_10_3_without_the_mask_h_is_the_gradient_to_fix_first():
    loss, tensors = forward()
    wrong = wrong_gradients(loss, tensors, by_hand(tensors, mask=False))
    assert wrong == ["h", "w1"]  # w1 only inherits h's mistake
    accepted("10.3", fix_first(wrong))
    rejected("10.3", wrong[-1])


def test_10_2_without_the_copy_the_mask_makes_h_relu_wrong():
    loss, tensors = forward()
    wrong = wrong_gradients(loss, tensors, by_hand(tensors, clone=False))
    assert wrong == ["h_relu"]
    accepted("10.2", wrong[0])
    rejected("10.2", "h")


def test_10_3_and_10_2_are_what_compare_itself_names_first():
    # notebook 10's cells, with the names compare finds in the caller's variables
    loss, tensors = forward()
    x, y, w1, w2, h, h_relu, y_pred = tensors.values()  # noqa: F841 - named for compare
    without_mask = compare(loss, by_hand(tensors, mask=False))
    accepted("10.3", without_mask.first_wrong)
    without_copy = compare(loss, by_hand(tensors, clone=False))
    assert [check.name for check in without_copy.checks if not check.right] == ["h_relu"]
    accepted("10.2", without_copy.first_wrong)


def train_by_hand(steps=500):
    # notebook 10, section 4: the lines of section 2 in place of loss.backward(), the mask
    # following what this torch's clamp(min=0) sends back at exactly 0
    clamp_blocks_zero = clamp_gradient_at_zero() == 0.0
    x, y, w1, w2 = make_data()
    losses = []
    for _ in range(steps):
        h = x.mm(w1)
        h_relu = h.clamp(min=0)
        y_pred = h_relu.mm(w2)
        loss = (y_pred - y).pow(2).sum()
        losses.append(loss.item())
        grad_y_pred = 2.0 * (y_pred - y)
        grad_w2 = h_relu.t().mm(grad_y_pred)
        grad_h_relu = grad_y_pred.mm(w2.t())
        grad_h = grad_h_relu.clone()
        grad_h[h < 0] = 0
        if clamp_blocks_zero:
            grad_h[h == 0] = 0
        grad_w1 = x.t().mm(grad_h)
        w1 -= LEARNING_RATE * grad_w1
        w2 -= LEARNING_RATE * grad_w2
    return losses


def train_with_autograd(steps=500):
    # notebook 10, section 4: notebook 05's loop
    x, y, w1, w2 = make_data()
    w1.requires_grad_()
    w2.requires_grad_()
    losses = []
    for _ in range(steps):
        loss = (x.mm(w1).clamp(min=0).mm(w2) - y).pow(2).sum()
        losses.append(loss.item())
        loss.backward()
        step_down(LEARNING_RATE, w1, w2)
    return losses


def test_10_4_hand_and_autograd_train_to_the_same_bits():
    hand, auto = train_by_hand(), train_with_autograd()
    largest = max(abs(a - b) / b for a, b in zip(hand, auto, strict=True))
    if largest == 0:
        letter = "a"
    elif largest <= 1e-6:
        letter = "b"
    else:
        letter = "c"
    accepted("10.4", letter)


def test_10_7_only_x_transposed_times_grad_h_is_the_gradient_of_w1():
    loss, t = forward()
    (auto,) = torch.autograd.grad(loss, t["w1"], retain_graph=True)
    grad_h = by_hand(t)["h"]
    with torch.no_grad():
        options = {
            "a": t["x"].t().mm(grad_h),
            "b": grad_h.t().mm(t["x"]),
            "c": grad_h.mm(t["w1"].t()),
        }
    right = [c for c, g in options.items() if g.shape == auto.shape and torch.equal(g, auto)]
    assert right == ["a"]
    accepted("10.7", right[0])
    assert torch.equal(options["b"], auto.t())  # the same numbers, transposed: w1.T's shape
    rejected("10.7", "b")


def test_10_8_a_broadcast_bias_gets_the_gradient_summed_over_the_batch():
    _, t = forward()
    b2 = torch.randn(D_OUT, requires_grad=True)
    h_relu, w2, y = t["h_relu"].detach(), t["w2"].detach(), t["y"]
    y_pred = h_relu.mm(w2) + b2
    loss = (y_pred - y).pow(2).sum()
    (auto,) = torch.autograd.grad(loss, b2)
    grad_y_pred = 2.0 * (y_pred.detach() - y)
    options = {
        "a": grad_y_pred.sum(0),
        "b": grad_y_pred.sum(1),
        "c": grad_y_pred.mean(0),
        "d": grad_y_pred[0],
    }
    right = [
        c
        for c, g in options.items()
        if g.shape == auto.shape and torch.allclose(g, auto, rtol=1e-5, atol=1e-3)
    ]
    assert right == ["a"]
    accepted("10.8", right[0])
    rejected("10.8", "c")


def dropout_model():
    # notebook 10, section 5: the network as nn modules, with a Dropout after the ReLU
    torch.manual_seed(0)  # which hidden values Dropout zeroes is random
    x, _, w1, w2 = make_data()
    first, second = nn.Linear(D_IN, H, bias=False), nn.Linear(H, D_OUT, bias=False)
    with torch.no_grad():
        first.weight.copy_(w1.t())
        second.weight.copy_(w2.t())
    return nn.Sequential(first, nn.ReLU(), nn.Dropout(p=0.5), second), x


def same_twice_and_recorded(model, x):
    first, second = model(x), model(x)
    return torch.equal(first, second), first.requires_grad


def test_10_9_no_grad_without_eval_leaves_dropout_on():
    model, x = dropout_model()
    model.train()
    with torch.no_grad():
        accepted("10.9", same_twice_and_recorded(model, x))
    model.eval()
    with torch.no_grad():
        rejected("10.9", same_twice_and_recorded(model, x))  # (True, False): eval() as well


# --- section 6: a mean against a sum, and softmax with cross-entropy ---------------------------


def gradients_of_the_weights(loss_function, rows=N):
    """w1's and w2's gradients at make_data()'s start, for a loss over the first rows."""
    x, y, w1, w2 = make_data()
    w1.requires_grad_()
    w2.requires_grad_()
    y_pred = x[:rows].mm(w1).clamp(min=0).mm(w2)
    return torch.autograd.grad(loss_function(y_pred, y[:rows]), [w1, w2])


def equal_to_compares_margin(mine, autograds):
    # compare's margin: within 1e-4 of the gradient's largest value (allclose's default, relative
    # to each number, refuses a few entries of w2's gradient where the batch's terms nearly cancel)
    return torch.allclose(mine, autograds, rtol=0, atol=1e-4 * autograds.abs().max().item())


def test_10_5_a_mean_loss_divides_every_gradient_by_the_number_of_squares():
    sums = gradients_of_the_weights(nn.MSELoss(reduction="sum"))
    means = gradients_of_the_weights(nn.MSELoss())
    factors = {"a": N, "b": D_OUT, "c": N * D_OUT, "d": 1}
    right = [
        letter
        for letter, factor in factors.items()
        if all(
            equal_to_compares_margin(mean * factor, s) for mean, s in zip(means, sums, strict=True)
        )
    ]
    assert right == ["c"]
    accepted("10.5", right[0])
    rejected("10.5", "a")


def test_6_1_a_quarter_of_the_batch_divides_by_a_quarter_as_many_squares():
    # the change-and-see of section 6.1: rows = 16
    (_, g_sum), (_, g_mean) = (
        gradients_of_the_weights(loss, rows=16)
        for loss in (nn.MSELoss(reduction="sum"), nn.MSELoss())
    )
    assert equal_to_compares_margin(g_mean * 16 * D_OUT, g_sum)


def loss_after(loss_function, lr, steps):
    # notebook 10, section 6.1: section 5's training with another loss and learning rate
    x, y, w1, w2 = make_data()
    first, second = nn.Linear(D_IN, H, bias=False), nn.Linear(H, D_OUT, bias=False)
    with torch.no_grad():
        first.weight.copy_(w1.t())
        second.weight.copy_(w2.t())
    model = nn.Sequential(first, nn.ReLU(), second)
    optimizer = torch.optim.SGD(model.parameters(), lr=lr)
    for _ in range(steps):
        optimizer.zero_grad()
        loss_function(model(x), y).backward()
        optimizer.step()
    return (model(x) - y).pow(2).sum().item()


def test_6_1_a_mean_takes_the_sums_steps_only_at_640_times_the_learning_rate():
    steps, sum_loss, mean_loss = 10, nn.MSELoss(reduction="sum"), nn.MSELoss()
    start = loss_after(sum_loss, LEARNING_RATE, steps=0)
    by_sum = loss_after(sum_loss, LEARNING_RATE, steps)
    assert by_sum < start / 10
    assert abs(loss_after(mean_loss, LEARNING_RATE * N * D_OUT, steps) - by_sum) < 1e-3 * by_sum
    assert loss_after(mean_loss, LEARNING_RATE, steps) > start / 2  # barely moved


def logits_and_targets(seed=1):
    """Section 6.2's logits z (64 rows of 10 classes, requiring grad) and each row's class."""
    generator = torch.Generator().manual_seed(seed)
    z = torch.randn(N, D_OUT, generator=generator, requires_grad=True)
    target = torch.randint(D_OUT, (N,), generator=generator)
    return z, target


def by_hand_cross_entropy(z, target, rows=N):
    with torch.no_grad():
        return (z.softmax(dim=1) - nn.functional.one_hot(target, D_OUT)) / rows


def test_6_2_softmax_less_the_one_hot_over_the_batch_is_the_gradient_of_cross_entropy():
    z, target = logits_and_targets()
    cross_entropy = nn.CrossEntropyLoss()(z, target)
    assert compare(cross_entropy, {"z": by_hand_cross_entropy(z, target)}).all_right
    # the change-and-see: without the division it is wrong, and right again for the sum
    assert not compare(cross_entropy, {"z": by_hand_cross_entropy(z, target, rows=1)}).all_right
    summed = nn.CrossEntropyLoss(reduction="sum")(z, target)
    assert compare(summed, {"z": by_hand_cross_entropy(z, target, rows=1)}).all_right


def test_10_6_each_row_of_the_cross_entropy_gradient_adds_up_to_zero():
    sums = []
    for seed in (1, 2):  # two sets of logits: does the answer depend on them?
        z, target = logits_and_targets(seed)
        (grad_z,) = torch.autograd.grad(nn.CrossEntropyLoss()(z, target), z)
        sums.append(grad_z.sum(dim=1))
    options = {"a": 1.0, "b": 0.0, "c": -1 / N}
    right = [
        letter
        for letter, value in options.items()
        if all(torch.allclose(s, torch.full_like(s, value), rtol=0, atol=1e-6) for s in sums)
    ]
    assert right == ["b"]  # the same for both sets of logits, so not "d"
    accepted("10.6", right[0])
    rejected("10.6", "a")

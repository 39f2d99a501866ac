"""Specification: compare(output, mine) checks a backward pass written by hand against autograd's,
tensor by tensor, and names the gradient to fix first.

The network is notebook 10's: h = x @ w1, h_relu = relu(h), y_pred = h_relu @ w2, loss = sum of
squares, with its gradients written by hand. Autograd's answer is always PyTorch's own
(``torch.autograd.grad``), never a number written here.
"""

import pytest
import torch
from speaks import assert_speaks_chinese

from helpers.backward.comparison import compare, tolerance_of
from helpers.language import speaking

BACKWARD_ORDER = ["y_pred", "w2", "h_relu", "h", "w1"]


class Net:
    """The two-layer network, its forward pass kept, and its gradients written by hand."""

    def __init__(self, dtype=torch.float32, seed=0):
        generator = torch.Generator().manual_seed(seed)
        N, D_in, H, D_out = 64, 100, 30, 10
        self.x = torch.randn(N, D_in, generator=generator, dtype=dtype)
        self.y = torch.randn(N, D_out, generator=generator, dtype=dtype)
        self.w1 = torch.randn(D_in, H, generator=generator, dtype=dtype).requires_grad_()
        self.w2 = torch.randn(H, D_out, generator=generator, dtype=dtype).requires_grad_()
        self.h = self.x @ self.w1
        self.h_relu = self.h.clamp(min=0)
        self.y_pred = self.h_relu @ self.w2
        self.loss = (self.y_pred - self.y).pow(2).sum()

    def by_hand(self, mistake_at=None, mistake=lambda g: g * 1.5):
        """The learner's backward pass, each gradient computed from the one before it, with
        ``mistake`` applied to the gradient of ``mistake_at`` (and carried on from there)."""

        def made(name, g):
            return mistake(g) if name == mistake_at else g

        with torch.no_grad():
            grads = {"y_pred": made("y_pred", 2.0 * (self.y_pred - self.y))}
            grads["w2"] = made("w2", self.h_relu.T @ grads["y_pred"])
            grads["h_relu"] = made("h_relu", grads["y_pred"] @ self.w2.T)
            grad_h = grads["h_relu"].clone()
            grad_h[self.h < 0] = 0
            grads["h"] = made("h", grad_h)
            grads["w1"] = made("w1", self.x.T @ grads["h"])
        return grads

    def compare(self, mine, **options):
        # The names compare looks up are this frame's variables, as a notebook's would be.
        x, y, w1, w2, h, h_relu, y_pred, loss = (  # noqa: F841
            self.x, self.y, self.w1, self.w2, self.h, self.h_relu, self.y_pred, self.loss,
        )  # fmt: skip
        return compare(loss, mine, **options)


def test_right_gradients_are_all_right():
    net = Net()
    result = net.compare(net.by_hand())
    assert result.all_right
    assert result.first_wrong is None
    assert [check.name for check in result.checks] == BACKWARD_ORDER
    assert all(check.right for check in result.checks)


@pytest.mark.parametrize("position", BACKWARD_ORDER)
def test_a_planted_mistake_is_named_first_wrong_wherever_it_is(position):
    net = Net()
    result = net.compare(net.by_hand(mistake_at=position))
    assert result.first_wrong == position
    assert not result[position].right and not result[position].inherited
    # Everything computed from it is wrong, and only because of it.
    after = BACKWARD_ORDER[BACKWARD_ORDER.index(position) + 1 :]
    carried = {"y_pred": after, "h_relu": ["h", "w1"], "h": ["w1"]}.get(position, [])
    for name in carried:
        assert not result[name].right and result[name].inherited, name
    for name in BACKWARD_ORDER:
        if name != position and name not in carried:
            assert result[name].right, name


def test_the_verdict_names_what_to_fix_and_why():
    net = Net()
    grads = net.by_hand()
    grad_h = grads["h_relu"].clone()  # the ReLU's mask forgotten
    with torch.no_grad():
        grad_w1 = net.x.T @ grad_h
    h, h_relu, w1, loss = net.h, net.h_relu, net.w1, net.loss  # noqa: F841 - named as a notebook names them
    grad_h_relu = grads["h_relu"]
    result = compare(loss, {"h_relu": grad_h_relu, "h": grad_h, "w1": grad_w1})
    assert result.first_wrong == "h"
    assert result["h"].yours == "grad_h" and result["w1"].yours == "grad_w1"
    verdict = result.verdict()
    assert "Fix the gradient of h first (your grad_h)" in verdict
    assert "(h_relu)" in verdict  # the gradient it is computed from, which is right
    assert "The gradient of w1 follows rightly" in verdict
    assert verdict in repr(result)


def test_a_second_independent_mistake_is_named_too():
    net = Net()
    grads = net.by_hand(mistake_at="h_relu")
    with torch.no_grad():
        grads["w2"] = grads["w2"] * 2
    result = net.compare(grads)
    assert result.first_wrong == "w2"  # the engine reaches w2 before h_relu
    assert not result["h_relu"].inherited
    assert "The gradient of h_relu is wrong on its own as well" in result.verdict()


def test_a_mistake_on_top_of_a_wrong_input_is_the_learners_own():
    net = Net()
    grads = net.by_hand(mistake_at="y_pred")
    with torch.no_grad():
        grads["h_relu"] = grads["h_relu"] * 3  # wrong input, and a wrong step of its own
    result = net.compare(grads)
    assert result.first_wrong == "y_pred"
    assert not result["h_relu"].inherited
    assert result["w2"].inherited


def test_a_transposed_gradient_is_a_cross_with_both_shapes():
    net = Net()
    grads = net.by_hand()
    grads["w2"] = grads["w2"].T
    result = net.compare(grads)
    check = result["w2"]
    assert check.problem == "shape"
    assert (check.your_shape, check.shape) == ((10, 30), (30, 10))
    assert "transposed?" in repr(result)
    assert result.first_wrong == "w2"


def test_a_bias_gradient_not_summed_over_the_batch_says_so():
    x = torch.randn(8, 3)
    w = torch.randn(3, 2, requires_grad=True)
    b = torch.zeros(2, requires_grad=True)
    loss = (x @ w + b).pow(2).sum()
    with torch.no_grad():
        grad_out = 2 * (x @ w + b)
    result = compare(loss, {"b": grad_out, "w": x.T @ grad_out})
    assert result["b"].problem == "shape"
    assert "not summed over the broadcast dimensions?" in repr(result)
    assert result["w"].right
    summed = compare(loss, {"b": grad_out.sum(0)})
    assert summed.all_right


def test_float32_allows_another_order_of_sums_but_not_a_mistake():
    net = Net()
    grads = net.by_hand()
    scale = grads["w1"].abs().max()
    tiny = grads["w1"].clone()
    tiny[0, 0] += scale * 1e-6
    assert net.compare({"w1": tiny}).all_right
    small = grads["w1"].clone()
    small[0, 0] += scale * 1e-3
    result = net.compare({"w1": small})
    assert not result.all_right
    assert result["w1"].where == (0, 0)
    assert result["w1"].difference == pytest.approx(float(scale) * 1e-3, rel=1e-2)


def test_float64_is_held_to_float64s_precision():
    net = Net(dtype=torch.float64)
    grads = net.by_hand()
    assert tolerance_of(torch.float64) <= 1e-6 * tolerance_of(torch.float32)
    off = grads["w1"] * (1 + 1e-7)  # within float32's tolerance, far outside float64's
    assert not net.compare({"w1": off}).all_right
    assert net.compare(grads).all_right


def test_a_gradient_of_another_dtype_is_a_cross_saying_so():
    net = Net()
    grads = net.by_hand()
    result = net.compare({"w2": grads["w2"].double()})
    assert result["w2"].problem == "dtype"
    assert "dtype float64, autograd's float32" in repr(result)


def test_nan_in_a_gradient_is_wrong():
    net = Net()
    grads = net.by_hand()
    grads["w2"][3, 4] = float("nan")
    result = net.compare(grads)
    assert result["w2"].problem == "values" and result["w2"].where == (3, 4)


def test_nothing_is_written_to_grad_and_the_graph_stays_usable():
    net = Net()
    net.h.retain_grad()
    ran = []
    net.h_relu.register_hook(lambda g: ran.append(1))
    net.compare(net.by_hand())
    assert net.w1.grad is None and net.w2.grad is None and net.h.grad is None
    assert ran == []  # hooks are not run
    net.loss.backward()  # the graph was not freed
    assert net.w1.grad is not None


def test_autograds_gradients_are_pytorchs():
    net = Net()
    expected = torch.autograd.grad(net.loss, [net.w1, net.h], retain_graph=True)
    result = net.compare({"w1": expected[0], "h": expected[1]})
    assert result.all_right
    assert result["w1"].difference == 0.0 and result["h"].difference == 0.0


def test_a_non_scalar_output_takes_grad_output():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    y = w * 3
    v = torch.tensor([1.0, -1.0])
    assert compare(y, {"w": torch.tensor([3.0, -3.0])}, grad_output=v).all_right
    with pytest.raises(ValueError, match="grad_output"):
        compare(y, {"w": torch.tensor([3.0, 3.0])})


def test_one_right_gradient_is_one_and_the_tolerance_reads_as_written():
    net = Net()
    verdict = net.compare({"w2": net.by_hand()["w2"]}).verdict()
    assert verdict == (
        "The gradient of w2 is right: it equals autograd's to within 1e-4 of its largest value."
    )


def test_a_gradient_held_by_two_variables_shows_both_names():
    net = Net()
    h, h_relu, loss = net.h, net.h_relu, net.loss  # noqa: F841 - named as a notebook names them
    with torch.no_grad():
        grad_h_relu = 2.0 * (net.y_pred - net.y) @ net.w2.T
        grad_h = grad_h_relu  # no clone: the mask below changes grad_h_relu too
        grad_h[h < 0] = 0
    result = compare(loss, {"h_relu": grad_h_relu, "h": grad_h})
    assert result["h_relu"].yours == "grad_h = grad_h_relu"
    assert result.first_wrong == "h_relu"


def test_tensor_keys_are_named_as_the_code_names_them():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
    result = compare(loss, {w: torch.tensor([2.0, 4.0])})
    assert result.checks[0].name == "w" and result.all_right


# --- what a learner may get wrong --------------------------------------------------------------


def test_an_unknown_name_suggests_the_nearest():
    net = Net()
    with pytest.raises(KeyError, match="did you mean 'h_relu'"):
        net.compare({"h_rlu": net.by_hand()["h_relu"]})


def test_a_tensor_from_another_run_of_the_forward_pass_is_explained():
    net = Net()
    loss = net.loss
    h = net.x @ net.w1  # the forward cell run again: a new h, not in loss's graph
    with pytest.raises(ValueError, match="not in the graph of loss.*run the forward pass once"):
        compare(loss, {"h": torch.zeros_like(h)})


def test_a_tensor_that_needs_no_grad_is_refused_with_the_reason():
    net = Net()
    x = net.x
    with pytest.raises(ValueError, match="x does not require grad"):
        compare(net.loss, {"x": torch.zeros_like(x)})


@pytest.mark.parametrize(
    ("mine", "error", "words"),
    [
        ([1, 2], TypeError, "compare needs a dict"),
        ({}, ValueError, "empty dict"),
        ({"w1": None}, TypeError, "is None"),
        ({"w1": "grad"}, TypeError, "is a str"),
        ({1: torch.zeros(1)}, TypeError, "a key is a int"),
    ],
)
def test_a_wrong_kind_of_argument_says_what_to_pass(mine, error, words):
    net = Net()
    w1 = net.w1  # noqa: F841 - named for compare
    with pytest.raises(error, match=words):
        compare(net.loss, mine)


def test_after_backward_freed_the_graph_the_error_says_what_to_do():
    net = Net()
    net.loss.backward()
    with pytest.raises(RuntimeError, match="retain_graph"):
        net.compare(net.by_hand())


# --- in Chinese --------------------------------------------------------------------------------


def test_the_table_and_verdict_speak_chinese():
    from speaks import assert_speaks_chinese

    net = Net()
    with speaking("zh"):
        shown = repr(net.compare(net.by_hand(mistake_at="h")))
    assert "先修正 h 的梯度" in shown
    assert_speaks_chinese(shown.splitlines()[-1])
    assert "张量" in shown.splitlines()[0]


@pytest.mark.parametrize(
    "make_error",
    [
        lambda net: net.compare({"h_rlu": torch.zeros(1)}),
        lambda net: net.compare({}),
        lambda net: net.compare({"w1": None}),
        lambda net: compare(net.loss, {"x": torch.zeros(1)}),
    ],
)
def test_errors_speak_chinese(make_error):
    from speaks import assert_speaks_chinese

    net = Net()
    x = net.x  # noqa: F841 - named for compare
    with speaking("zh"), pytest.raises(Exception) as caught:
        make_error(net)
    assert_speaks_chinese(str(caught.value.args[0]))


# --- the picture -------------------------------------------------------------------------------


def test_the_picture_marks_each_compared_tensor_and_the_one_to_fix_first():
    from helpers.graph import build

    net = Net()
    result = net.compare(net.by_hand(mistake_at="h"))
    model = build(net.loss, marks=result)
    marked = {node.title: node.mark for node in model.nodes if node.mark}
    assert marked == {
        "y_pred": "right",
        "w2": "right",
        "h_relu": "right",
        "h": "first wrong",
        "w1": "wrong",
    }


def test_the_drawing_outlines_marks_and_says_what_they_mean():
    net = Net()
    result = net.compare(net.by_hand(mistake_at="h"))
    source = result.draw().source
    boxes = "\n".join(line for line in source.splitlines() if line.startswith("  n"))
    assert boxes.count("✓") == 3 and boxes.count("✗") == 2
    assert "penwidth=5" in source and "fix this first" in source  # the one to fix first
    assert "the thick red box is the one to fix first" in source.replace("<BR/>", " ")


def test_marks_of_the_wrong_kind_say_what_to_pass():
    from helpers.graph import draw

    net = Net()
    with pytest.raises(TypeError, match="marks takes what compare"):
        draw(net.loss, marks=[("w1", net.w1, "maybe")])


# --- edge cases met on real models ----------------------------------------------------------------


def test_two_unnamed_tensors_of_one_shape_keep_a_row_each():
    layers = [torch.randn(3, requires_grad=True) for _ in range(2)]
    loss = (layers[0] * layers[1]).sum()
    right, wrong = layers[1].detach(), torch.zeros(3)  # d/d(first) is the second, and back
    result = compare(loss, {layers[0]: right, layers[1]: wrong})
    assert [check.name for check in result.checks] == ["(3,)", "(3,) #2"]
    assert [check.right for check in result.checks] == [True, False]


def test_an_exact_gradient_holding_inf_is_right_when_yours_holds_the_same_inf():
    x = torch.tensor([0.0, 4.0], requires_grad=True)
    loss = x.sqrt().sum()  # d/dx sqrt(x) = 1 / (2 sqrt(x)): inf at 0
    result = compare(loss, {"x": torch.tensor([float("inf"), 0.25])})
    assert result.all_right, result
    assert not compare(loss, {"x": torch.tensor([float("-inf"), 0.25])}).all_right


def test_a_plain_number_for_a_float64_tensor_is_a_float64_gradient():
    x = torch.tensor(3.0, dtype=torch.float64, requires_grad=True)
    loss = x * 2
    assert compare(loss, {"x": 2.0}).all_right
    assert compare(loss, {"x": [2.0]}).checks[0].problem == "shape"


def test_a_tensor_cut_off_by_detach_is_not_said_to_come_from_another_run():
    w, d = torch.randn(3, requires_grad=True), torch.randn(3, requires_grad=True)
    fake = w * 2
    loss = (fake.detach() * d).sum()  # a discriminator's step on a generator's output
    with pytest.raises(ValueError, match=r"not in the graph of loss.*\.detach\(\)"):
        compare(loss, {"fake": torch.ones(3)})


def test_a_meta_tensor_is_refused_with_the_reason_in_both_languages():
    w = torch.randn(3, device="meta", requires_grad=True)
    loss = (w * 2).sum()
    with pytest.raises(ValueError, match="meta tensor.*no numbers"):
        compare(loss, {"w": torch.ones(3)})
    with speaking("zh"), pytest.raises(ValueError) as raised:
        compare(loss, {"w": torch.ones(3)})
    assert_speaks_chinese(str(raised.value))


def test_an_unknown_name_reads_as_a_sentence_not_a_quoted_key():
    net = Net()
    with pytest.raises(KeyError) as raised:
        compare(net.loss, {"hh": torch.zeros(1)})
    assert str(raised.value).startswith("hh") or not str(raised.value).startswith("'")
    assert "\\n" not in str(raised.value) and not str(raised.value).startswith(("'", '"'))


@pytest.mark.filterwarnings("ignore:The PyTorch API of nested tensors")
def test_compares_refusals_name_compare():
    nested = torch.nested.nested_tensor([torch.ones(2), torch.ones(3)], requires_grad=True)
    with pytest.raises(ValueError, match="compare"):
        compare(nested, {"x": torch.ones(2)})

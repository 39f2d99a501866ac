"""helpers.graph.recording: inside ``with recording(model):`` every autograd Node knows which module
of the model made it, and which line of code; after the block nothing of it is left installed.

The model of most tests is a small Transformer block written here (a LayerNorm, attention with a
softmax, an MLP, residual adds), and what it should give is written by hand: the module of each
Node, in `EXPECTED`.
"""

from __future__ import annotations

import importlib
import threading
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from deep_graphs import with_a_small_stack
from speaks import assert_speaks_chinese
from torch import nn

from helpers.graph.model import walk
from helpers.graph.recording import _ACTIVE, MadeBy, made_by, recording
from helpers.language import speaking

# The module itself: helpers.graph exports its function `recording` under the same name.
recording_module = importlib.import_module("helpers.graph.recording")

FUTURE = torch.ones(3, 3, dtype=torch.bool).triu(diagonal=1)


class Attention(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.qkv = nn.Linear(4, 12)
        self.proj = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        q, k, v = self.qkv(x).split(4, dim=-1)
        scores = q @ k.transpose(0, 1) / 2
        scores = scores.masked_fill(FUTURE, float("-inf"))
        return self.proj(scores.softmax(dim=-1) @ v)


class MLP(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.up = nn.Linear(4, 8)
        self.act = nn.GELU()
        self.down = nn.Linear(8, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.down(self.act(self.up(x)))


class Block(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(4)
        self.attn = Attention()
        self.mlp = MLP()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x + self.attn(self.norm(x))
        return x + self.mlp(x)


# (Node type, module): every Node of ``Block()(x).sum()`` but the AccumulateGrads, by hand.
# F.linear on a matrix makes two Nodes, TBackward0 (the weight's transpose) and AddmmBackward0.
EXPECTED = sorted(
    [
        ("NativeLayerNormBackward0", "norm"),
        ("TBackward0", "attn.qkv"),
        ("AddmmBackward0", "attn.qkv"),
        ("SplitBackward0", "attn"),  # q, k, v: one Node, three outputs
        ("TransposeBackward0", "attn"),
        ("MmBackward0", "attn"),  # q @ k^T
        ("DivBackward0", "attn"),
        ("MaskedFillBackward0", "attn"),
        ("SoftmaxBackward0", "attn"),
        ("MmBackward0", "attn"),  # @ v
        ("TBackward0", "attn.proj"),
        ("AddmmBackward0", "attn.proj"),
        ("AddBackward0", ""),  # the residual adds, written in Block.forward
        ("TBackward0", "mlp.up"),
        ("AddmmBackward0", "mlp.up"),
        ("GeluBackward0", "mlp.act"),
        ("TBackward0", "mlp.down"),
        ("AddmmBackward0", "mlp.down"),
        ("AddBackward0", ""),
        ("SumBackward0", None),  # .sum() in the with block, outside the model
    ],
    key=str,
)


def inputs() -> torch.Tensor:
    return torch.randn(3, 4, generator=torch.Generator().manual_seed(0))


def nodes_of(output: torch.Tensor) -> list:
    """Every Node of ``output``'s graph, walked as every helper walks it (and holds it)."""
    return walk([output.grad_fn]).nodes


def is_accumulate_grad(node) -> bool:
    return type(node).__name__ == "AccumulateGrad"


def modules_of(output: torch.Tensor) -> list[tuple[str, str | None]]:
    """(Node type, module) of every Node of ``output``'s graph but the AccumulateGrads; "no label"
    for a Node without one."""
    found = []
    for node in nodes_of(output):
        if not is_accumulate_grad(node):
            label = made_by(node)
            found.append((type(node).__name__, label.module if label else "no label"))
    return sorted(found, key=str)


def text_of_line(number: int) -> str:
    return Path(__file__).read_text(encoding="utf-8").splitlines()[number - 1].strip()


def line_of(text: str) -> int:
    """The number of the one line of this file that reads ``text``."""
    lines = Path(__file__).read_text(encoding="utf-8").splitlines()
    numbers = [number for number, line in enumerate(lines, 1) if line.strip() == text]
    assert len(numbers) == 1, numbers
    return numbers[0]


def hooks_on(model: nn.Module) -> list[str]:
    """The forward hook tables of ``model``'s modules that are not empty."""
    found = []
    for name, module in model.named_modules():
        for table in (
            "_forward_pre_hooks",
            "_forward_hooks",
            "_forward_hooks_always_called",
            "_forward_hooks_with_kwargs",
            "_forward_pre_hooks_with_kwargs",
        ):
            if getattr(module, table):
                found.append(f"{name or 'model'}.{table}")
    return found


def installed(model: nn.Module) -> list[str]:
    """What of a recording is installed now: module hooks, global hooks, modes."""
    found = hooks_on(model)
    for table in (
        "_global_forward_pre_hooks",
        "_global_forward_hooks",
        "_global_forward_hooks_always_called",
    ):
        if getattr(torch.nn.modules.module, table):
            found.append(table)
    if torch._C._len_torch_function_stack():
        found.append("a torch function mode")
    if getattr(_ACTIVE, "recorder", None) is not None:
        found.append("the thread's recorder")
    return found


# --- what each Node is labelled with --------------------------------------------------------------


def test_every_node_of_a_small_model_is_labelled_with_the_module_that_made_it():
    model = Block()
    with recording(model):
        output = model(inputs()).sum()
    assert modules_of(output) == EXPECTED


def test_every_node_of_a_small_model_knows_its_line_in_this_file():
    model = Block()
    with recording(model):
        output = model(inputs()).sum()
    labels = [made_by(node) for node in nodes_of(output) if not is_accumulate_grad(node)]
    assert {label.file for label in labels} == {__file__}
    assert all(label.code == text_of_line(label.line) for label in labels)


def test_the_residual_add_is_labelled_with_its_line_in_the_models_code():
    model = Block()
    with recording(model):
        output = model(inputs())
    add = output.grad_fn.next_functions[0][0]  # x in `x + self.mlp(x)`: the first residual add
    assert type(add).__name__ == "AddBackward0"
    assert made_by(add) == MadeBy(
        module="",
        module_types=("Block",),
        file=__file__,
        line=line_of("x = x + self.attn(self.norm(x))"),
        code="x = x + self.attn(self.norm(x))",
    )


def test_a_submodules_node_has_the_type_of_each_module_along_its_path():
    model = Block()
    with recording(model):
        output = model.attn(inputs())  # called on its own, outside Block.forward
    label = made_by(output.grad_fn)
    assert label.module == "attn.proj"
    assert label.along_path() == [("", "Block"), ("attn", "Attention"), ("attn.proj", "Linear")]
    assert label.code == "return self.proj(scores.softmax(dim=-1) @ v)"


def test_code_in_the_block_outside_the_model_belongs_to_no_module():
    model = Block()
    with recording(model):
        total = model(inputs()).sum()
    assert made_by(total.grad_fn) == MadeBy(
        module=None,
        module_types=(),
        file=__file__,
        line=line_of("total = model(inputs()).sum()"),
        code="total = model(inputs()).sum()",
    )


class Fused(nn.Module):
    def forward(self, q: torch.Tensor) -> torch.Tensor:
        return F.scaled_dot_product_attention(q, q, q, is_causal=True)


def test_every_node_of_one_call_gets_the_calls_label():
    # PyTorch's math path of attention makes many Nodes in one call, none of them handed back.
    model = Fused()
    q = torch.randn(1, 2, 4, 8, requires_grad=True)
    with torch.nn.attention.sdpa_kernel(torch.nn.attention.SDPBackend.MATH), recording(model):
        output = model(q)
    made = [node for node in nodes_of(output) if not is_accumulate_grad(node)]
    assert len(made) > 5
    assert {made_by(node) for node in made} == {made_by(output.grad_fn)}
    assert made_by(output.grad_fn).code == (
        "return F.scaled_dot_product_attention(q, q, q, is_causal=True)"
    )


def test_a_parameters_accumulate_grad_is_labelled_with_its_owner_and_name():
    model = Block()
    with recording(model):
        model(inputs()).sum()
        for name, parameter in model.named_parameters():
            label = made_by(torch.autograd.graph.get_gradient_edge(parameter).node)
            owner = name.rpartition(".")[0]
            assert (label.module, label.parameter, label.line) == (owner, name, None)


class Tied(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.embed = nn.Embedding(5, 4)
        self.head = nn.Linear(4, 5, bias=False)
        self.head.weight = self.embed.weight

    def forward(self, tokens: torch.Tensor) -> torch.Tensor:
        return self.head(self.embed(tokens))


def test_a_tied_weight_belongs_to_the_module_that_names_it_first():
    model = Tied()
    with recording(model):
        output = model(torch.tensor([0, 3]))
    weight = [made_by(node) for node in nodes_of(output) if is_accumulate_grad(node)]
    assert [(label.module, label.parameter) for label in weight] == [("embed", "embed.weight")]
    assert made_by(output.grad_fn).module == "head"


def test_a_leaf_that_is_no_parameter_stays_unlabelled():
    x = torch.randn(3, 4, requires_grad=True)
    model = Block()
    with recording(model):
        model(x)
        assert made_by(torch.autograd.graph.get_gradient_edge(x).node) is None


def test_nodes_made_before_the_block_stay_unlabelled():
    x = torch.randn(3, 4, requires_grad=True)
    before = x * 2
    model = Block()
    with recording(model):
        output = model(before)
    assert made_by(before.grad_fn) is None
    assert modules_of(output).count(("MulBackward0", "no label")) == 1


def test_nodes_made_after_the_block_are_not_labelled():
    model = Block()
    with recording(model):
        model(inputs())
    output = model(inputs()).sum()
    assert {module for _, module in modules_of(output)} == {"no label"}


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x: torch.Tensor) -> torch.Tensor:
        return x * 2

    @staticmethod
    def backward(ctx, grad: torch.Tensor) -> torch.Tensor:
        return grad * 2


class Doubler(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return Double.apply(x)


class UsesDoubler(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.doubler = Doubler()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.doubler(x) * 3


def test_a_custom_functions_node_belongs_to_the_module_that_applied_it():
    # Function.apply is no torch function: the Node is found from the module's output, and no
    # line is known for it.
    model = UsesDoubler()
    with recording(model):
        output = model(torch.randn(2, requires_grad=True))
    custom = output.grad_fn.next_functions[0][0]
    assert type(custom).__name__ == "DoubleBackward"
    assert (made_by(custom).module, made_by(custom).line) == ("doubler", None)
    assert made_by(output.grad_fn).module == ""


class WritesIntoAView(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.scale = nn.Parameter(torch.ones(3))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        y = x * self.scale
        y[0] = y[1] * 5  # in place into a view of y: PyTorch rewrites y's history (CopySlices)
        return y.exp()


def test_a_write_into_a_view_is_labelled():
    model = WritesIntoAView()
    with recording(model):
        output = model(torch.randn(3))
    found = modules_of(output)
    assert ("CopySlices", "") in found
    assert {module for _, module in found} == {""}


# --- how the model is used in the block -----------------------------------------------------------


def test_a_model_called_twice_labels_both_graphs():
    model = Block()
    with recording(model):
        output = (model(inputs()) + model(inputs())).sum()
    found = modules_of(output)
    assert found.count(("AddmmBackward0", "attn.qkv")) == 2
    assert "no label" not in {module for _, module in found}


class SameLayerTwice(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.layer = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = self.layer(x)
        return self.layer(x.relu())


def test_a_module_used_twice_labels_both_uses_with_its_name():
    model = SameLayerTwice()
    with recording(model):
        output = model(inputs())
    found = modules_of(output)
    assert found.count(("AddmmBackward0", "layer")) == 2
    assert ("ReluBackward0", "") in found


def test_a_submodule_called_outside_its_parents_forward_keeps_its_path():
    model = Block()
    with recording(model):
        output = model.mlp(inputs())
    assert modules_of(output) == sorted(
        [
            ("TBackward0", "mlp.up"),
            ("AddmmBackward0", "mlp.up"),
            ("GeluBackward0", "mlp.act"),
            ("TBackward0", "mlp.down"),
            ("AddmmBackward0", "mlp.down"),
        ],
        key=str,
    )


def test_what_the_learners_own_hooks_compute_belongs_to_the_module():
    model = Block()
    model.mlp.register_forward_pre_hook(lambda module, args: (args[0] * 0.5,))
    model.mlp.register_forward_hook(lambda module, args, output: output.tanh())
    with recording(model):
        output = model.mlp(inputs().requires_grad_())
    found = modules_of(output)
    assert ("MulBackward0", "mlp") in found
    assert ("TanhBackward0", "mlp") in found


def test_no_grad_inside_the_block_makes_nothing_and_the_rest_is_labelled():
    model = Block()
    with recording(model):
        with torch.no_grad():
            frozen = model(inputs())
        output = model(inputs()).sum()
    assert frozen.grad_fn is None
    assert modules_of(output) == EXPECTED


class Fails(nn.Module):
    def forward(self, x: torch.Tensor) -> torch.Tensor:
        x = x * 2
        raise ValueError("this module fails")


class CallsFails(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.fails = Fails()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.fails(x)


def test_after_a_forward_that_raised_inside_the_block_the_block_is_no_module():
    model = CallsFails()
    x = torch.randn(2, requires_grad=True)
    with recording(model):
        with pytest.raises(ValueError):
            model(x)
        after = x * 3
    assert made_by(after.grad_fn).module is None


# --- nested recordings ----------------------------------------------------------------------------


def test_a_recording_inside_one_of_the_same_model_changes_nothing():
    model = Block()
    with recording(model), recording(model):
        assert len(model.attn._forward_pre_hooks) == 1
        output = model(inputs()).sum()
    assert modules_of(output) == EXPECTED
    assert installed(model) == []


def test_a_recording_of_a_submodule_inside_keeps_the_outer_names():
    model = Block()
    with recording(model), recording(model.attn):
        output = model(inputs()).sum()
    assert modules_of(output) == EXPECTED


def test_a_recording_of_another_model_inside_names_its_modules_from_it():
    model, other = Block(), MLP()
    with recording(model):
        with recording(other):
            inner = other(inputs())
        assert hooks_on(other) == []  # the inner recording's hooks are gone
        assert "attn._forward_pre_hooks" in hooks_on(model)  # the outer one's are not
        outer = model(inputs()).sum()
    assert made_by(inner.grad_fn).module == "down"
    assert made_by(inner.grad_fn).along_path() == [("", "MLP"), ("down", "Linear")]
    assert modules_of(outer) == EXPECTED
    assert installed(model) == installed(other) == []


# --- nothing left behind --------------------------------------------------------------------------


def test_the_block_installs_hooks_and_a_mode_and_leaves_none():
    model = Block()
    with recording(model):
        during = installed(model)
        model(inputs())
    assert "attn.qkv._forward_pre_hooks" in during
    assert "a torch function mode" in during
    assert installed(model) == []


class Raises(nn.Module):
    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error
        self.layer = nn.Linear(4, 4)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.layer(x)
        raise self.error


def test_a_forward_that_raises_leaves_nothing_installed_and_its_error_unchanged():
    error = RuntimeError("the learner's own error")
    model = Raises(error)
    with pytest.raises(RuntimeError) as raised, recording(model):
        model(inputs())
    assert raised.value is error
    assert installed(model) == []


def test_another_threads_nodes_are_not_labelled():
    model = Block()
    inside, done = threading.Event(), threading.Event()
    made = {}

    def other_thread() -> None:
        inside.wait(timeout=60)
        made["output"] = (model(inputs()) * 2).sum()
        done.set()

    thread = threading.Thread(target=other_thread)
    thread.start()
    with recording(model):
        inside.set()
        assert done.wait(timeout=60)
        output = model(inputs()).sum()
    thread.join()
    assert {module for _, module in modules_of(made["output"])} == {"no label"}
    assert modules_of(output) == EXPECTED


class Gate(nn.Module):
    """Waits inside its forward until released."""

    def __init__(self) -> None:
        super().__init__()
        self.entered, self.released = threading.Event(), threading.Event()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        self.entered.set()
        assert self.released.wait(timeout=60)
        return x * 2


class Gated(nn.Module):
    def __init__(self) -> None:
        super().__init__()
        self.gate = Gate()

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return self.gate(x)


def test_another_thread_inside_the_models_forward_changes_no_label_here():
    model = Gated()
    x = torch.randn(2, requires_grad=True)
    made = {}
    thread = threading.Thread(target=lambda: made.update(output=model(x)))
    with recording(model):
        thread.start()
        assert model.gate.entered.wait(timeout=60)  # the other thread is inside gate.forward
        mine = x * 3
        model.gate.released.set()
        thread.join()
    assert made_by(mine.grad_fn).module is None
    assert made_by(made["output"].grad_fn) is None


LONG_CHAIN_RECORDED = """
import torch
from torch import nn
from helpers.graph.recording import recording

class Waves(nn.Module):
    def forward(self, x):
        for _ in range(30_000):
            x = torch.sin(x)
        return x

model = Waves()
with recording(model):
    y = model(torch.tensor(1.0, requires_grad=True))
y = None  # the learner lets the graph go
print("freed")
"""


def test_a_long_recorded_chain_is_safe_to_free():
    # The recording reads each Node it labels, and PyTorch frees Nodes Python has seen one
    # inside the other: 30,000 of them overflow a 2 MB stack, unless held (helpers.seen_nodes).
    code, printed, errors = with_a_small_stack(LONG_CHAIN_RECORDED)
    assert (code, printed) == (0, ["freed"]), errors


# --- errors ---------------------------------------------------------------------------------------


def test_recording_something_not_a_module_says_what_to_pass_in_chinese():
    with speaking("zh"), pytest.raises(TypeError) as raised, recording(torch.ones(2)):
        pass
    assert_speaks_chinese(str(raised.value))
    assert "with recording(model):" in str(raised.value)


def test_recording_a_module_class_says_to_make_the_model_first_in_chinese():
    with speaking("zh"), pytest.raises(TypeError) as raised, recording(Block):
        pass
    assert_speaks_chinese(str(raised.value))
    assert "model = Block(...)" in str(raised.value)


def test_made_by_given_a_tensor_says_to_pass_its_grad_fn_in_chinese():
    with speaking("zh"), pytest.raises(TypeError) as raised:
        made_by(torch.ones(2, requires_grad=True) * 2)
    assert_speaks_chinese(str(raised.value))
    assert "made_by(y.grad_fn)" in str(raised.value)


def test_made_by_given_something_else_names_it_in_chinese():
    with speaking("zh"), pytest.raises(TypeError) as raised:
        made_by("AddBackward0")
    assert_speaks_chinese(str(raised.value))
    assert "str" in str(raised.value)


def test_made_by_a_node_made_outside_a_recording_is_none():
    assert made_by((torch.ones(2, requires_grad=True) * 2).grad_fn) is None


# --- on every supported torch ---------------------------------------------------------------------

HAS_CREATION_HOOK = hasattr(torch.autograd.graph, "node_creation_hook")


@pytest.mark.skipif(not HAS_CREATION_HOOK, reason="torch before 2.14 has no Node-creation hook")
def test_from_torch_2_14_the_recording_reads_no_private_sequence_number(monkeypatch):
    def private(*args, **kwargs):
        raise AssertionError("the recording read PyTorch's private sequence numbers")

    monkeypatch.setattr(recording_module, "_next_sequence_nr", private)
    model = Block()
    with recording(model):
        output = model(inputs()).sum()
    assert modules_of(output) == EXPECTED


def test_without_the_node_creation_hook_sequence_numbers_label_the_same(monkeypatch):
    # What torch before 2.14 does, tried on any torch: the labels are the same.
    monkeypatch.setattr(recording_module, "_NODE_CREATION_HOOK", None)
    model = UsesDoubler()
    with recording(model):
        output = model(torch.randn(2, requires_grad=True))
    custom = output.grad_fn.next_functions[0][0]
    assert (made_by(custom).module, made_by(custom).line) == ("doubler", None)
    model = Block()
    with recording(model):
        output = model(inputs()).sum()
    assert modules_of(output) == EXPECTED


@pytest.mark.filterwarnings("ignore:`torch.jit.script` is deprecated")
@pytest.mark.parametrize("where", ["model", "submodule"])
def test_recording_a_scripted_model_says_to_record_it_before_scripting_in_chinese(where):
    model = torch.jit.script(MLP()) if where == "model" else nn.Sequential(torch.jit.script(MLP()))
    with speaking("zh"), pytest.raises(TypeError) as raised, recording(model):
        pass
    assert_speaks_chinese(str(raised.value))
    assert "TorchScript" in str(raised.value) and "with recording(model):" in str(raised.value)
    assert installed(model) == []
    with pytest.raises(TypeError, match="Record the plain nn.Module before it is scripted"):
        with recording(model):
            pass

"""Notebook 11's check cells accept what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here every question of
notebook 11 is computed on the notebook's own model, and the check must accept the result and
reject what a plausible slip would give instead. The model is not copied here: the classes and
functions that the English notebook's cells define (the editions run the same code,
tests/test_editions.py) are run as they are, each cell as a file of its own, as Jupyter runs it,
so that a Node's label names its line. Where a question is about a picture, the picture's own
data (`build`, what `draw` draws) says which boxes it shows and the numbers in them, and each
number is computed again from the parameters, as clip_grad_norm_ measures a gradient norm.
"""

import ast
import json
import linecache
import math
from pathlib import Path

import pytest
import torch
import torch.nn.functional as F
from answers import accepted, rejected
from torch import nn
from torch.nn.utils import get_total_norm

from helpers.exercises import exercises
from helpers.graph import build, made_by, recording
from helpers.graph.model import MODULE
from helpers.language import speaking

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "en" / "11_your_own_models_graph.ipynb"
# The cells that define the model, its data and loss, and the walk over a graph's Nodes; of each,
# the classes and functions it defines are run.
DEFINING_CELLS = ("lesson11-05", "lesson11-07", "lesson11-09", "lesson11-13")
DEFINITIONS = (ast.ClassDef, ast.FunctionDef)
# The boxes of the notebook's folded picture of the 4-block model (section 4), and the norms its
# section 8 prints.
IN_THE_PICTURE = ["embed", "position", "norm", "head"] + [
    f"blocks.{i}.{part}" for i in range(4) for part in ("norm1", "attention", "norm2", "mlp")
]


@pytest.fixture(scope="module")
def notebook():
    """The names the notebook's defining cells make: TinyTransformer, make_model, make_batch,
    loss_fn, nodes_behind, ..."""
    cells = {cell["id"]: cell for cell in json.loads(NOTEBOOK.read_text(encoding="utf-8"))["cells"]}
    namespace = {"math": math, "torch": torch, "nn": nn, "F": F}
    for cell_id in DEFINING_CELLS:
        source = "".join(cells[cell_id]["source"])
        file = f"<notebook 11, cell {cell_id}>"
        linecache.cache[file] = (len(source), None, source.splitlines(keepends=True), file)
        # The definitions only: what a cell goes on to run with them belongs to the notebook.
        tree = ast.parse(source)
        tree.body = [node for node in tree.body if isinstance(node, DEFINITIONS)]
        exec(compile(tree, file, "exec"), namespace)
    return namespace


def recorded_loss(notebook, blocks=4):
    """The notebook's model with ``blocks`` blocks, its loss on the batch, recorded."""
    model = notebook["make_model"](blocks)
    tokens, targets = notebook["make_batch"]()
    with recording(model):
        loss = notebook["loss_fn"](model(tokens), targets)
    return model, loss


def residual_add(notebook, loss, block, branch):
    """The AddBackward0 of block ``block``'s residual connection around ``branch``."""
    prefix = f"x = x + self.{branch}("
    (node,) = [
        node
        for node in notebook["nodes_behind"](loss)
        if (label := made_by(node)) is not None
        and label.module == f"blocks.{block}"
        and label.code.startswith(prefix)
    ]
    return node


def gradient_norm(modules):
    """One norm of the gradients of all the parameters of ``modules`` together: what
    torch.nn.utils.clip_grad_norm_ measures, and what a module box of the picture says."""
    return get_total_norm([p.grad for module in modules for p in module.parameters()]).item()


def module_boxes(loss):
    """The purple boxes of the default picture of ``loss``, by title: a module's path
    ("blocks.0") or a run's ("blocks.1–blocks.10"). In English, as the picture's notes are read."""
    with speaking("en"):
        graph = build(loss)
    return {node.title.split(" · ")[0]: node for node in graph.nodes if node.kind == MODULE}


def norm_shown(box):
    """The gradient norm a module box shows ("norm 0.7634"), as a number."""
    return float(box.grad.split()[-1])


def test_the_default_picture_has_a_box_for_each_part_of_each_block(notebook):
    _, loss = recorded_loss(notebook)
    assert sorted(module_boxes(loss)) == sorted(IN_THE_PICTURE)


def test_11_1_the_residual_add_sends_its_gradient_down_the_stream_and_into_the_attention(notebook):
    _, loss = recorded_loss(notebook)
    add = residual_add(notebook, loss, 1, "attention")
    (norm1,) = [
        node
        for node in notebook["nodes_behind"](loss)
        if node.name() == "NativeLayerNormBackward0" and made_by(node).module == "blocks.1.norm1"
    ]
    made_x = add.next_functions[0][0]
    options = {"a": add, "b": norm1, "c": made_x}
    seen = {}

    def watch(letter):
        def hook(grad_inputs, grad_outputs):
            seen[letter] = (grad_inputs, grad_outputs[0])

        return hook

    def arrived_at_x(grad_outputs):
        seen["x"] = grad_outputs[0]

    for letter, node in options.items():
        node.register_hook(watch(letter))
    made_x.register_prehook(arrived_at_x)
    loss.backward()

    def splits_into_the_attention(letter):
        # Sends what it received, unchanged, both to blocks.1's attention and to the stream.
        grad_inputs, received = seen[letter]
        into_the_attention = [
            sent
            for (next_node, _), sent in zip(
                options[letter].next_functions, grad_inputs, strict=True
            )
            if next_node is not None
            and (made_by(next_node).module or "").startswith("blocks.1.attention")
        ]
        unchanged = [
            sent for sent in grad_inputs if sent is not None and torch.equal(sent, received)
        ]
        return len(into_the_attention) == 1 and len(unchanged) == 2

    splitting = [letter for letter in options if splits_into_the_attention(letter)]
    assert splitting == ["a"]
    accepted("11.1", splitting[0])
    for letter in options.keys() - set(splitting):
        rejected("11.1", letter)
    # "c" is where the parts meet: x's gradient is what the add sent down the stream plus what
    # norm1 sent back to x.
    to_the_stream = seen["a"][0][0]
    from_norm1 = seen["b"][0][0]
    assert torch.allclose(seen["x"], to_the_stream + from_norm1)


def test_11_2_both_inputs_of_the_add_receive_its_gradient_unchanged(notebook):
    _, loss = recorded_loss(notebook)
    add = residual_add(notebook, loss, 3, "attention")
    seen = {}

    def hook(grad_inputs, grad_outputs):
        seen["sent"], seen["received"] = grad_inputs, grad_outputs[0]

    add.register_hook(hook)
    loss.backward()
    computed = tuple(torch.equal(sent, seen["received"]) for sent in seen["sent"])
    accepted("11.2", computed)
    rejected("11.2", (True, False))  # the attention's part thought changed by the attention
    rejected("11.2", (False, False))  # the gradient thought shared out between the paths


def test_11_2_the_parts_the_notebook_prints_have_the_sizes_its_text_says(notebook):
    # Section 7: the part back through the attention is "about a ninth" of what the add received.
    _, loss = recorded_loss(notebook)
    add = residual_add(notebook, loss, 3, "attention")
    seen = {}
    add.register_hook(lambda grad_inputs, grad_outputs: seen.update(received=grad_outputs[0]))
    add.next_functions[0][0].register_prehook(lambda grad_outputs: seen.update(x=grad_outputs[0]))
    loss.backward()
    ratio = (seen["x"] - seen["received"]).norm() / seen["received"].norm()
    assert 1 / 10 < ratio < 1 / 8


def test_11_3_the_head_has_the_largest_gradient_norm(notebook):
    model, loss = recorded_loss(notebook)
    loss.backward()
    boxes = module_boxes(loss)
    norms = {path: gradient_norm([model.get_submodule(path)]) for path in boxes}
    for path, box in boxes.items():  # each box shows its module's norm, to 4 digits
        assert norm_shown(box) == pytest.approx(norms[path], rel=5e-4), path
    largest, second = sorted(norms, key=norms.get, reverse=True)[:2]
    accepted("11.3", largest)
    rejected("11.3", second)
    # The worked answer and section 8 say 0.76, "nearly three times any other box".
    assert f"{norms[largest]:.2f}" in exercises()["11.3"].why["en"]
    assert 2.5 < norms[largest] / norms[second] < 3


def test_section_8_the_final_norm_outweighs_the_layernorms_inside_the_blocks(notebook):
    # Section 8: "the final norm has a norm of 0.23, the LayerNorms inside the blocks 0.02 to 0.04".
    model, loss = recorded_loss(notebook)
    loss.backward()
    inside = [gradient_norm([block.norm1]) for block in model.blocks]
    inside += [gradient_norm([block.norm2]) for block in model.blocks]
    assert f"{gradient_norm([model.norm]):.2f}" == "0.23"
    assert (f"{min(inside):.2f}", f"{max(inside):.2f}") == ("0.02", "0.04")


def test_11_4_twelve_blocks_deep_the_first_block_keeps_the_larger_gradient_norm(notebook):
    model, loss = recorded_loss(notebook, blocks=12)
    loss.backward()
    boxes = module_boxes(loss)
    # The picture: blocks.0, one box for the ten built alike between, blocks.11.
    blocks = {path for path in boxes if path.startswith("blocks")}
    assert blocks == {"blocks.0", "blocks.1–blocks.10", "blocks.11"}
    assert boxes["blocks.1–blocks.10"].notes == ["10 blocks built like blocks.0"]
    norms = {path: gradient_norm([model.get_submodule(path)]) for path in ("blocks.0", "blocks.11")}
    for path, norm in norms.items():
        assert norm_shown(boxes[path]) == pytest.approx(norm, rel=5e-4), path
    larger = max(norms, key=norms.get)
    accepted("11.4", larger)
    rejected("11.4", min(norms, key=norms.get))
    rejected("11.4", "blocks.1–blocks.10")  # the box with the largest number
    why = exercises()["11.4"].why["en"]
    assert f"{norms['blocks.0']:.3f}" in why and f"{norms['blocks.11']:.3f}" in why


def test_11_4_the_run_box_holds_the_norm_of_ten_blocks_together(notebook):
    # Section 9: "its norm, 0.72, is one norm of the gradients of all ten together: √10 ≈ 3.2
    # times that of a typical block among them (0.23)".
    model, loss = recorded_loss(notebook, blocks=12)
    loss.backward()
    middle = list(model.blocks[1:11])
    together = gradient_norm(middle)
    assert norm_shown(module_boxes(loss)["blocks.1–blocks.10"]) == pytest.approx(together, rel=5e-4)
    typical = math.sqrt(sum(gradient_norm([block]) ** 2 for block in middle) / len(middle))
    assert (f"{together:.2f}", f"{typical:.2f}") == ("0.72", "0.23")


def test_11_4_the_streams_gradient_grows_a_little_towards_the_input(notebook):
    # The worked answer: each block adds what comes back through it to the stream's gradient.
    model = notebook["make_model"](12)
    at_input = {}  # the norm of the stream's gradient at each block's input

    def keep(number):
        def hook(module, grad_inputs, grad_outputs):
            at_input[number] = grad_inputs[0].norm().item()

        return hook

    for number, block in enumerate(model.blocks):
        block.register_full_backward_hook(keep(number))
    tokens, targets = notebook["make_batch"]()
    notebook["loss_fn"](model(tokens), targets).backward()
    assert at_input[0] > at_input[11]


def test_11_5_the_key_bias_alone_gets_no_gradient(notebook):
    model, loss = recorded_loss(notebook)
    loss.backward()
    norms = {
        name: parameter.grad.norm().item()
        for name, parameter in model.blocks[0].attention.named_parameters()
    }
    smallest = min(norms, key=norms.get)
    accepted("11.5", smallest)
    assert norms[smallest] < 1e-7
    assert all(norm > 1e-4 for name, norm in norms.items() if name != smallest)
    # The same in every block: softmax ignores what the key's bias adds to a whole row.
    assert all(block.attention.key.bias.grad.norm() < 1e-7 for block in model.blocks)
    rejected("11.5", "query.bias")


def test_11_6_two_residual_adds_per_block_and_one_for_the_embeddings(notebook):
    for blocks, answer_or_slip in ((6, accepted), (4, rejected)):
        _, loss = recorded_loss(notebook, blocks=blocks)
        adds = [node for node in notebook["nodes_behind"](loss) if node.name() == "AddBackward0"]
        answer_or_slip("11.6", len(adds))
    assert len(adds) == 9  # the 4-block model's, as the worked answer says
    rejected("11.6", 2 * 6)  # the embeddings' add forgotten


# --- section 10: four things a Transformer of one's own has ----------------------------------


def tied_model(notebook):
    """The notebook's model, its head's weight tied to its embedding's as in section 10."""
    model = notebook["make_model"]()
    model.head.weight = model.embed.weight
    return model


def test_11_7_a_tied_weight_has_one_accumulate_grad_whose_grad_is_the_sum_of_its_two_uses(
    notebook,
):
    tied = tied_model(notebook)
    tokens, targets = notebook["make_batch"]()
    with recording(tied):
        loss = notebook["loss_fn"](tied(tokens), targets)
    behind = notebook["nodes_behind"](loss)
    accumulators = [node for node in behind if not node.next_functions]
    assert all(node.name().endswith("AccumulateGrad") for node in accumulators)
    accepted("11.7", len(accumulators))
    _, untied = recorded_loss(notebook)
    untied_accumulators = [n for n in notebook["nodes_behind"](untied) if not n.next_functions]
    rejected("11.7", len(untied_accumulators))
    # The shared weight's AccumulateGrad has two consumers: the embedding and the head.
    (shared,) = [node for node in accumulators if node.variable is tied.embed.weight]
    consumers = [
        node for node in behind if any(next_node is shared for next_node, _ in node.next_functions)
    ]
    assert sorted(made_by(node).module for node in consumers) == ["embed", "head"]
    # Section 10: .grad is, to the last bit, the two gradients of an untied twin added.
    loss.backward()
    twin = notebook["make_model"]()
    twin.head.weight = nn.Parameter(twin.embed.weight.detach().clone())
    notebook["loss_fn"](twin(tokens), targets).backward()
    assert torch.equal(tied.embed.weight.grad, twin.embed.weight.grad + twin.head.weight.grad)
    assert len(list(tied.parameters())) == 69


def test_section_10_dropout_is_one_node_in_train_mode_and_none_in_eval_mode(notebook):
    model = notebook["make_model"]()
    model.blocks[0].mlp.down = nn.Sequential(model.blocks[0].mlp.down, nn.Dropout(0.1))
    tokens, targets = notebook["make_batch"]()

    def made_by_dropout():
        with recording(model):
            loss = notebook["loss_fn"](model(tokens), targets)
        nodes = notebook["nodes_behind"](loss)
        return [n.name() for n in nodes if (made_by(n) or made_by).module == "blocks.0.mlp.down.1"]

    assert made_by_dropout() == ["MulBackward0"]  # on the CPU: the input times a mask
    model.eval()
    assert made_by_dropout() == []
    # "each forward pass in train mode draws a new mask": two losses
    model.train()
    first, second = (notebook["loss_fn"](model(tokens), targets) for _ in range(2))
    assert not torch.equal(first, second)
    # A number dropped in the forward pass gets a gradient of exactly 0; the rest 1 / (1 - p).
    x = torch.randn(1000, requires_grad=True)
    dropped = nn.Dropout(0.1)(x)
    dropped.sum().backward()
    assert torch.equal(x.grad == 0, dropped == 0)
    assert x.grad.unique().tolist() == [0.0, pytest.approx(1 / 0.9)]


def attention_inputs():
    """Section 10's q, k, v: one random draw of the shape of our model's attention."""
    generator = torch.Generator().manual_seed(0)
    return tuple(torch.randn(4, 2, 8, 8, generator=generator, requires_grad=True) for _ in range(3))


def by_hand(q, k, v):
    # SelfAttention.forward's attention, as section 10 writes it out.
    length, size = q.shape[-2], q.shape[-1]
    scores = q @ k.transpose(-2, -1) / math.sqrt(size)
    future = torch.ones(length, length, dtype=torch.bool).triu(diagonal=1)
    return scores.masked_fill(future, float("-inf")).softmax(dim=-1) @ v


def fused(q, k, v):
    return F.scaled_dot_product_attention(q, k, v, is_causal=True)


def test_section_10_scaled_dot_product_attention_is_one_node_with_the_same_gradients(notebook):
    q, k, v = attention_inputs()
    operations = {}
    gradients = {}
    for attention in (by_hand, fused):
        output = attention(q, k, v)
        operations[attention] = [n for n in notebook["nodes_behind"](output) if n.next_functions]
        if attention is fused:
            # It saves one number per row (logsumexp), not the weights of every position for
            # every position that the hand-written softmax keeps.
            assert operations[fused][0]._saved_logsumexp.shape == (4, 2, 8)
        gradients[attention] = torch.autograd.grad(output.sum(), (q, k, v))
    assert len(operations[by_hand]) == 16
    (node,) = operations[fused]
    assert node.name() == "ScaledDotProductFlashAttentionForCpuBackward0"
    assert all(
        torch.allclose(a, b, atol=1e-6)
        for a, b in zip(gradients[by_hand], gradients[fused], strict=True)
    )


def test_section_10_the_causal_mask_gives_later_keys_a_gradient_of_exactly_0():
    q, k, v = attention_inputs()
    for attention in (by_hand, fused):
        (k_gradient,) = torch.autograd.grad(attention(q, k, v)[:, :, 2].sum(), k)
        by_position = k_gradient.abs().sum(dim=(0, 1, 3))
        assert (by_position[3:] == 0).all() and (by_position[:3] > 0).all()


def test_11_8_the_logits_at_position_2_depend_on_positions_0_to_2_only(notebook):
    model = notebook["make_model"]()
    tokens, _ = notebook["make_batch"]()
    start = {}

    def keep_the_stream(module, inputs):
        inputs[0].retain_grad()
        start["stream"] = inputs[0]

    model.blocks[0].register_forward_pre_hook(keep_the_stream)
    model(tokens)[:, 2].sum().backward()
    gradient = start["stream"].grad  # (batch, length, width)
    reached = (gradient != 0).any(dim=2).any(dim=0)
    assert reached.tolist() == [True] * 3 + [False] * 5
    accepted("11.8", int(reached.sum()))
    rejected("11.8", tokens.shape[1])  # the mask forgotten: every position
    rejected("11.8", 1)  # the position itself only

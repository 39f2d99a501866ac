"""Specification: a recorded graph's boxes are grouped by the module that made them, folded into a
box per module, and repeated blocks into one box; the default picture of a big one is folded to
fit, and expand= draws a module whole inside the rest.
"""

import pytest
import torch
from real_models import RNNModel, Sequence
from torch import nn

from helpers.graph import recording
from helpers.graph.model import OP, build_graph
from helpers.graph.modules import (
    MODULE,
    MOST_BOXES,
    count_boxes,
    default_folding,
    fold,
    format_count,
    modules_of,
)
from helpers.language import speaking


class Attention(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.qkv = nn.Linear(width, 3 * width)
        self.out = nn.Linear(width, width)

    def forward(self, x):
        q, k, v = self.qkv(x).chunk(3, dim=-1)
        weights = (q @ k.transpose(-2, -1)).softmax(dim=-1)
        return self.out(weights @ v)


class Block(nn.Module):
    def __init__(self, width):
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.attention = Attention(width)
        self.mlp = nn.Sequential(
            nn.Linear(width, 2 * width), nn.GELU(), nn.Linear(2 * width, width)
        )

    def forward(self, x):
        x = x + self.attention(self.norm(x))
        return x + self.mlp(x)


class Model(nn.Module):
    def __init__(self, blocks=6, width=8):
        super().__init__()
        self.embed = nn.Linear(4, width)
        self.blocks = nn.ModuleList(Block(width) for _ in range(blocks))
        self.head = nn.Linear(width, 1)

    def forward(self, x):
        x = self.embed(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)


def recorded(blocks=12, backward=False):
    torch.manual_seed(0)
    model = Model(blocks)
    x = torch.randn(2, 3, 4)
    with recording(model):
        loss = model(x).pow(2).mean()
    if backward:
        loss.backward(retain_graph=True)
    graph = build_graph([loss], [("loss", loss)])
    return model, loss, graph, modules_of(graph)


def box_titled(graph, title):
    found = [node for node in graph.nodes if node.title == title]
    assert len(found) == 1, [node.title for node in graph.nodes]
    return found[0]


def test_every_box_of_the_model_knows_its_module():
    _, _, graph, modules = recorded(blocks=1)
    ops = {(node.title, modules.of_box[node.id]) for node in graph.nodes if node.kind == OP}
    assert ("SoftmaxBackward0", "blocks.0.attention") in ops
    assert ("AddBackward0", "blocks.0") in ops  # the residual adds, written in Block.forward
    assert ("NativeLayerNormBackward0", "blocks.0.norm") in ops
    assert ("GeluBackward0", "blocks.0.mlp.1") in ops
    assert ("MeanBackward0", None) in ops  # the loss, computed outside the model
    assert modules.types["blocks.0.attention"] == "Attention"


def test_an_unrecorded_graph_is_not_folded():
    x = torch.randn(3, requires_grad=True)
    graph = build_graph([(x * 2).sum()], [])
    modules = modules_of(graph)
    assert not modules.recorded
    assert default_folding(graph, modules) == set()


def test_a_small_recorded_graph_is_drawn_whole_in_frames():
    _, _, graph, modules = recorded(blocks=1)
    assert len(graph.nodes) <= MOST_BOXES
    assert default_folding(graph, modules) == set()
    framed = fold(graph, modules, set())
    paths = {frame.path: frame for frame in framed.frames}
    assert paths["blocks.0.attention"].parent == "blocks.0"
    assert "blocks" not in paths  # a ModuleList runs nothing of its own: no frame of its own
    assert paths["blocks.0"].parent is None
    softmax = box_titled(graph, "SoftmaxBackward0")
    assert softmax.id in paths["blocks.0.attention"].boxes


def test_a_big_recorded_graph_is_folded_to_fit_with_repeated_blocks_as_one_box():
    _, _, graph, modules = recorded(blocks=12)
    assert len(graph.nodes) > MOST_BOXES
    folded_paths = default_folding(graph, modules)
    folded = fold(graph, modules, folded_paths)
    assert len(folded.nodes) <= MOST_BOXES
    assert len(folded.nodes) == count_boxes(graph, modules, folded_paths)
    titles = [node.title for node in folded.nodes if node.kind == MODULE]
    assert "blocks.0 · Block" in titles and "blocks.11 · Block" in titles
    run = box_titled(folded, "blocks.1–blocks.10")
    assert run.notes == ["10 blocks built like blocks.0"]


def test_a_folded_box_keeps_the_modules_inputs_and_outputs():
    _, _, graph, modules = recorded(blocks=6)
    folded_paths = {"embed", *(f"blocks.{i}" for i in range(6)), "head"}
    folded = fold(graph, modules, folded_paths)
    box = {node.id: node for node in folded.nodes}

    def arrows(title):
        (node,) = [n for n in folded.nodes if n.title == title]
        ins = {box[e.source].title for e in folded.edges if e.target == node.id}
        outs = {box[e.target].title for e in folded.edges if e.source == node.id}
        return ins, outs

    assert arrows("embed · Linear") == (set(), {"blocks.0 · Block"})
    assert arrows("blocks.0 · Block") == ({"embed · Linear"}, {"blocks.1–blocks.4"})
    assert arrows("blocks.1–blocks.4") == ({"blocks.0 · Block"}, {"blocks.5 · Block"})
    assert arrows("blocks.5 · Block")[1] == {"head · Linear"}


def test_every_arrow_of_a_folded_picture_stands_for_arrows_of_the_graph():
    _, _, graph, modules = recorded(blocks=6)
    folded_paths = default_folding(graph, modules)
    folded = fold(graph, modules, folded_paths)
    # Where each box of the graph went: itself, or the folded box holding it.
    kept = {node.id for node in folded.nodes}
    members = {}
    for node in folded.nodes:
        if node.kind == MODULE:
            members[node.id] = set()
    for node in graph.nodes:
        if node.id in kept:
            continue
        own = modules.of_box[node.id]
        holder = [
            n.id for n in folded.nodes if n.kind == MODULE and own is not None and _holds(n, own)
        ]
        assert len(holder) == 1, (node.title, own)
        members[holder[0]].add(node.id)
    where = {box: box for box in kept}
    where.update({member: holder for holder, boxes in members.items() for member in boxes})
    crossing = {(where[e.source], where[e.target]) for e in graph.edges}
    crossing = {pair for pair in crossing if pair[0] != pair[1]}
    assert crossing == {(e.source, e.target) for e in folded.edges}


def _holds(box, path):
    title = box.title.split(" · ")[0]
    if "–" in title:
        first, last = title.split("–")
        parent, _, start = first.rpartition(".")
        end = last.rpartition(".")[2]
        return any(path == f"{parent}.{i}" or path.startswith(f"{parent}.{i}.")
                   for i in range(int(start), int(end) + 1))  # fmt: skip
    return path == title or path.startswith(title + ".")


def test_expand_draws_one_block_whole_inside_the_rest():
    _, _, graph, modules = recorded(blocks=6)
    folded_paths = default_folding(graph, modules, expand={"blocks.3"})
    assert not any(p == "blocks.3" or p.startswith("blocks.3.") for p in folded_paths)
    folded = fold(graph, modules, folded_paths, expand={"blocks.3"})
    inside = [n for n in graph.nodes if modules.inside(n.id, "blocks.3")]
    kept = {node.id for node in folded.nodes}
    assert inside and all(node.id in kept for node in inside)
    titles = {node.title for node in folded.nodes}
    # blocks.0-2 are too few to fold into one box (three, with the first and last kept)
    assert {"blocks.0 · Block", "blocks.1 · Block", "blocks.2 · Block"} <= titles
    assert "blocks.3" in {frame.path for frame in folded.frames}


def test_a_folded_module_counts_its_parameters_and_the_norm_of_their_gradients():
    model, _, graph, modules = recorded(blocks=2, backward=True)
    folded = fold(graph, modules, {"blocks.0", "blocks.1", "embed", "head"})
    block = box_titled(folded, "blocks.0 · Block")
    parameters = sum(p.numel() for p in model.blocks[0].parameters())
    assert block.value == f"{parameters:,} parameters"
    # One norm over all its parameters' gradients, as clip_grad_norm_ measures it.
    grads = [p.grad for p in model.blocks[0].parameters()]
    norm = float(torch.nn.utils.get_total_norm(grads))
    assert block.grad == f"grad norm {norm:.4g}"


def test_before_backward_a_folded_module_shows_no_gradient():
    _, _, graph, modules = recorded(blocks=2)
    folded = fold(graph, modules, {"blocks.0"})
    assert box_titled(folded, "blocks.0 · Block").grad is None


@pytest.mark.parametrize(
    ("count", "text"), [(528, "528"), (99_999, "99,999"), (786_432, "786k"), (7_087_872, "7.09M")]
)
def test_parameter_counts_read_at_a_glance(count, text):
    assert format_count(count) == text


def test_a_folded_box_sits_in_the_frame_of_its_parent_module():
    _, _, graph, modules = recorded(blocks=1)
    folded = fold(graph, modules, {"blocks.0.attention", "blocks.0.mlp", "blocks.0.norm"})
    frame = {f.path: f for f in folded.frames}["blocks.0"]
    inside = {node.title for node in folded.nodes if node.id in frame.boxes}
    assert {"blocks.0.attention · Attention", "blocks.0.mlp · Sequential"} <= inside
    assert "AddBackward0" in inside  # the residual adds Block.forward wrote


def test_an_ops_tooltip_names_the_line_of_code_that_made_it():
    _, _, graph, modules = recorded(blocks=1)
    framed = fold(graph, modules, set())
    adds = [n for n in framed.nodes if n.title == "AddBackward0"]
    assert any("x = x + self.attention(self.norm(x))" in n.tooltip for n in adds)
    assert all("made by blocks.0 at test_graph_modules.py:" in n.tooltip for n in adds)


def test_an_op_made_outside_the_model_says_so_in_either_language():
    _, _, graph, modules = recorded(blocks=1)
    framed = fold(graph, modules, set())
    mean = box_titled(framed, "MeanBackward0")  # the loss, computed outside the model
    assert "MeanBackward0, made outside any module at test_graph_modules.py:" in mean.tooltip
    with speaking("zh"):
        framed = fold(graph, modules, set())
    tooltip = box_titled(framed, "MeanBackward0").tooltip
    assert tooltip.startswith("MeanBackward0：不属于任何模块，由 test_graph_modules.py:")


def test_folded_boxes_speak_chinese():
    _, _, graph, modules = recorded()
    with speaking("zh"):
        folded = fold(graph, modules, default_folding(graph, modules))
    run = box_titled(folded, "blocks.1–blocks.10")
    assert run.notes == ["10 个结构与 blocks.0 相同的块"]
    assert any("个参数" in node.value for node in folded.nodes if node.kind == MODULE)


def test_a_folded_box_used_far_and_wide_keeps_its_arrows():
    # A module's output feeding many ops far below (an embedding added to every block's output)
    # is drawn as arrows: a copy of a folded box would say less than where its output goes.
    from helpers.graph.cut import add_references
    from helpers.graph.model import Graph, GraphEdge, GraphNode

    nodes = [GraphNode("m0", MODULE, "embed · Embedding")]
    edges = []
    for i in range(30):
        nodes.append(GraphNode(f"n{i}", OP, "AddBackward0"))
        if i:
            edges.append(GraphEdge(f"n{i - 1}", f"n{i}", "input", 0))
        edges.append(GraphEdge("m0", f"n{i}", "input", 1))
    picture, uses = add_references(Graph(nodes, edges, [], []))
    assert uses == {} and not any(node.same_as for node in picture.nodes)


# --- a recording's labels belong to its own pass --------------------------------------------------


def test_a_later_unrecorded_pass_draws_as_if_nothing_had_been_recorded():
    # PyTorch reuses a parameter's AccumulateGrad in every pass, with the label a recording gave it.
    from helpers.graph import draw

    torch.manual_seed(0)
    model = nn.RNN(8, 8, num_layers=2)
    x = torch.randn(12, 1, 8)
    before = draw(model(x)[0].sum())
    with recording(model):
        recorded = model(x)[0].sum()
    after = draw(model(x)[0].sum())
    assert after.source == before.source
    assert modules_of(build_graph([recorded], [])).recorded
    assert not modules_of(build_graph([model(x)[0].sum()], [])).recorded


def test_a_second_recording_labels_the_parameters_for_its_own_pass():
    model = Model(blocks=2)
    with recording(model):
        first = model(torch.randn(3, 4)).sum()
    with recording(model):
        second = model(torch.randn(3, 4)).sum()
    for output in (second, first):
        found = modules_of(build_graph([output], []))
        parameters = [b for b, path in found.of_box.items() if path == "head"]
        assert parameters, "the head's boxes are labelled"
    # The first recording's graph keeps its ops' labels; its parameters were relabelled by the
    # second, which it does not know: they count as unlabelled there.
    first_graph = build_graph([first], [])
    first_modules = modules_of(first_graph)
    leaves = [n.id for n in first_graph.nodes if hasattr(n.fn, "variable")]
    assert leaves and all(first_modules.of_box[leaf] is None for leaf in leaves)


# --- a module called more than once ---------------------------------------------------------------


def folded_boxes(output: torch.Tensor) -> list:
    from helpers.graph import build

    return [node for node in build(output).nodes if node.kind == MODULE]


def is_acyclic(picture) -> bool:
    inputs = {node.id: set() for node in picture.nodes}
    for edge in picture.edges:
        inputs[edge.target].add(edge.source)
    done: set[str] = set()
    while len(done) < len(inputs):
        ready = [box for box, sources in inputs.items() if box not in done and sources <= done]
        if not ready:
            return False
        done.update(ready)
    return True


def test_a_module_called_twice_is_one_folded_box_per_call():
    # One box for both uses of the Dropout would be its own input: the layout raised a KeyError.
    from helpers.graph import build, draw

    torch.manual_seed(0)
    model = RNNModel(tokens=50, width=16)
    tokens = torch.randint(0, 50, (7, 3))
    with recording(model):
        loss = nn.functional.nll_loss(model(tokens).view(-1, 50), tokens.view(-1))
    drops = [box for box in folded_boxes(loss) if box.title.startswith("drop ·")]
    assert sorted(box.notes for box in drops) == [["call 1 of 2"], ["call 2 of 2"]]
    assert is_acyclic(build(loss))
    draw(loss).svg()


def test_a_cell_run_at_every_step_is_one_box_with_its_steps_inside():
    # Each step feeds the next call of the same cell: inside one box, that is no cycle.
    torch.manual_seed(0)
    model = Sequence(width=8)
    with recording(model):
        loss = model(torch.randn(2, 5)).pow(2).mean()
    boxes = {box.title: box for box in folded_boxes(loss)}
    assert set(boxes) == {"cell1 · LSTMCell", "cell2 · LSTMCell", "linear · Linear"}
    assert all(box.notes == [] for box in boxes.values())
    from helpers.graph import build

    assert is_acyclic(build(loss))


def test_calls_that_depend_on_each_other_through_other_modules_share_parameters():
    # One Linear applied twice with another module between: the second call's box gets no arrow
    # from the parameters drawn in the first call's box.
    class Twice(nn.Module):
        def __init__(self):
            super().__init__()
            self.linear, self.norm = nn.Linear(4, 4), nn.LayerNorm(4)

        def forward(self, x):
            return self.linear(self.norm(self.linear(x)))

    model = Twice()
    with recording(model):
        loss = model(torch.randn(3, 4)).sum()
    graph = build_graph([loss], [])
    picture = fold(graph, modules_of(graph), {"linear", "norm"})
    boxes = [box for box in picture.nodes if box.title.startswith("linear ·")]
    boxes.sort(key=lambda box: box.notes)
    assert [box.notes for box in boxes] == [["call 1 of 2"], ["call 2 of 2"]]
    assert [box for box in boxes if "parameters" in box.value] == [boxes[0]]
    assert not [e for e in picture.edges if (e.source, e.target) == (boxes[0].id, boxes[1].id)]
    assert is_acyclic(picture)


def test_the_folded_models_box_offers_a_name_that_expand_takes():
    # A model written number by number, with no submodules: its one box is the model itself.
    from helpers.graph import build

    class Scalars(nn.Module):
        def __init__(self):
            super().__init__()
            self.weights = nn.ParameterList(nn.Parameter(torch.tensor(float(i))) for i in range(3))

        def forward(self, xs):
            return sum(w * x for w, x in zip(self.weights, xs, strict=True))

    model = Scalars()
    with recording(model):
        loss = model([torch.tensor(1.0), torch.tensor(2.0), torch.tensor(3.0)]).relu()
    graph = build_graph([loss], [])
    (box,) = [node for node in fold(graph, modules_of(graph), {""}).nodes if node.kind == MODULE]
    assert box.tooltip.startswith("the model, folded") and "expand='')" in box.tooltip
    whole = build(loss, expand="")  # the name offered is one expand takes
    assert not [node for node in whole.nodes if node.kind == MODULE]


def test_a_picture_of_one_folded_box_says_so_in_the_singular_in_both_languages():
    from helpers.graph.modules import folding_note

    model = nn.Sequential(nn.Linear(2, 2))
    with recording(model):
        loss = model(torch.randn(3, 2)).sum()
    graph = build_graph([loss], [])
    picture = fold(graph, modules_of(graph), {""})
    note = folding_note(picture, {""})
    assert note.startswith("Folded by module: the purple box stands for the model · Sequential.")
    assert "expand='')" in note and "each of the" not in note
    with speaking("zh"):
        assert "模块方框代表" in folding_note(picture, {""}, interactive=True)

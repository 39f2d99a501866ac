"""helpers/graph/model.py and cut.py: what the boxes say about unusual tensors, and what a cut
leaves out."""

import warnings

import pytest
import torch

from helpers.graph import build
from helpers.graph import model as graph_model
from helpers.graph.cut import cut
from helpers.graph.model import NODES_SAFE_TO_SEE, build_graph, describe, walk


def nested(*lengths: int) -> torch.Tensor:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # "the nested tensor API is a prototype"
        return torch.nested.nested_tensor([torch.ones(n) for n in lengths], requires_grad=True)


def test_a_nested_tensor_is_described_by_the_shapes_of_its_parts():
    assert describe(nested(2, 3)) == "nested [(2,), (3,)] float32"


def test_a_nested_tensor_of_many_parts_lists_the_first_few():
    assert describe(nested(1, 2, 3, 4, 5, 6)) == "nested [(1,), (2,), (3,), (4,), …] float32"


def test_a_graph_through_a_nested_tensor_is_built_with_its_boxes():
    parts = nested(2, 3)
    doubled = parts * 2
    graph = build_graph([doubled], [("parts", parts), ("doubled", doubled)])
    values = {node.title: node.value for node in graph.nodes if node.title in ("parts", "doubled")}
    assert values == {"parts": "nested [(2,), (3,)] float32", "doubled": values["parts"]}


@pytest.fixture
def outputs_of_a_long_chain() -> list[torch.Tensor]:
    weight = torch.randn(3, 3, requires_grad=True)
    h, outputs = torch.randn(1, 3), []
    for _ in range(30):
        h = torch.tanh(h @ weight)
        outputs.append(h)
    return outputs


def test_a_cut_counts_the_outputs_whose_nodes_it_left_out(outputs_of_a_long_chain):
    graph = cut(build_graph(outputs_of_a_long_chain, []), 20)
    shown = [node for node in graph.nodes if node.kind == "output"]
    assert graph.roots_hidden == 30 - len(shown) > 0


def test_a_picture_that_shows_every_output_counts_none_left_out(outputs_of_a_long_chain):
    assert build_graph(outputs_of_a_long_chain, []).roots_hidden == 0


def test_the_caption_of_a_cut_says_how_many_outputs_it_left_out(outputs_of_a_long_chain):
    graph = build(outputs_of_a_long_chain, max_nodes=20)
    assert graph.roots == 30
    note = next(note for note in graph.notes if "Showing" in note)
    assert f"{graph.roots_hidden} of the 30 tensors passed to draw() are among them" in note


def sin_chain_of(nodes: int) -> torch.Tensor:
    """A graph of exactly ``nodes`` autograd Nodes: a leaf's AccumulateGrad and sins after it."""
    y = torch.tensor(1.0, requires_grad=True)
    for _ in range(nodes - 1):
        y = torch.sin(y)
    return y


def test_a_graph_of_exactly_the_nodes_the_helpers_look_at_is_walked_whole():
    assert walk([sin_chain_of(NODES_SAFE_TO_SEE).grad_fn]).found_beyond == 0
    assert walk([sin_chain_of(NODES_SAFE_TO_SEE + 1).grad_fn]).found_beyond == 1


def test_the_model_holds_every_node_walked_each_box_marked_with_where_the_walk_met_it():
    model = build_graph([sin_chain_of(30)], [])
    ops = [node for node in model.nodes if node.fn is not None]
    assert [node.walk_order for node in ops] == list(range(30)) == list(range(model.walked_nodes))
    assert model.hidden == [] and not any(node.kind == "summary" for node in model.nodes)


def test_a_cut_keeps_the_nodes_met_first_and_walks_nothing_again(monkeypatch):
    y = sin_chain_of(30)
    model = build_graph([y], [])
    monkeypatch.setattr(graph_model, "walk", pytest.fail)  # the model is all a cut needs
    picture = cut(model, 20)
    walked = [node.fn for node in model.nodes if node.fn is not None]
    assert [node.fn for node in picture.nodes if node.fn is not None] == walked[:20]
    assert picture.hidden == walked[20:]
    summary = picture.nodes[-1]  # after y's box and the boxes of the 20 Nodes kept
    assert (summary.id, summary.title) == ("n21", "… 10 more nodes")
    (into_kept,) = [edge for edge in picture.edges if edge.source == summary.id]
    assert into_kept.target == picture.nodes[-2].id  # the last sin kept lost its input
    assert model.drawn_nodes == 30  # the model is not changed


def test_a_cut_of_a_graph_beyond_the_walk_counts_what_lies_beyond_in_its_summary():
    model = build_graph([sin_chain_of(NODES_SAFE_TO_SEE + 1)], [])
    assert model.nodes[-1].title == "… at least 1 more nodes"
    assert cut(model, 4990).nodes[-1].title == "… at least 11 more nodes"
    assert cut(model, NODES_SAFE_TO_SEE) is model

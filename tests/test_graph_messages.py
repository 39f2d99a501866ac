"""helpers.graph speaks Chinese: every error, caption, note and tooltip a drawing shows a learner.

Each error is caused for real, under ``speaking("zh")``, and its text read: Chinese, with no
English sentence outside code (`speaks.assert_speaks_chinese`). Code inside it stays code.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
from dataclasses import replace

import pytest
import torch
from speaks import assert_speaks_chinese

from helpers import graph
from helpers.graph import Drawing, GraphTooLarge, build, draw, to_dot
from helpers.graph import render as renderer
from helpers.graph.layout import plan
from helpers.graph.model import OP, SAVED, SUMMARY, build_graph, describe, walk
from helpers.graph.render import GraphvizNotFound, LayoutTooSlow, RenderError, render
from helpers.language import get_language, speaking


@pytest.fixture(autouse=True)
def english_after_each_test():
    yield
    assert get_language() == "en", "a test left the helpers speaking another language"


def chain(layers: int) -> torch.Tensor:
    h = torch.ones(1, 2)
    for _ in range(layers):
        h = torch.tanh(h @ torch.full((2, 2), 0.1, requires_grad=True) + 1)
    return h


def one_op() -> torch.Tensor:
    x = torch.tensor(2.0, requires_grad=True)
    return x * 3


def error_in_chinese(error: type[BaseException], call, *args, **kwargs) -> str:
    """The text of the ``error`` that ``call(*args, **kwargs)`` raises when the helpers speak
    Chinese, checked to read as Chinese."""
    with speaking("zh"), pytest.raises(error) as raised:
        call(*args, **kwargs)
    text = str(raised.value)
    assert_speaks_chinese(text)
    return text


# --- what draw() is given ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("output", "error", "code"),
    [
        (None, TypeError, "draw(loss)"),
        (3.0, TypeError, ".item()"),
        ("loss", TypeError, "str"),
        ([], ValueError, "draw([y1, y2])"),
        ([torch.ones(1, requires_grad=True), 3], TypeError, "int"),
    ],
)
def test_draw_given_no_tensor_says_so_in_chinese(output, error, code):
    assert code in error_in_chinese(error, draw, output)


@pytest.mark.parametrize("option", ["show_values", "show_grads", "show_saved"])
def test_a_true_or_false_option_given_anything_else_says_so_in_chinese(option):
    text = error_in_chinese(TypeError, draw, one_op(), **{option: "yes"})
    assert option in text and "'yes'" in text


def test_max_nodes_that_is_not_a_positive_whole_number_says_so_in_chinese():
    assert "max_nodes" in error_in_chinese(ValueError, draw, one_op(), max_nodes=-1)


@pytest.mark.parametrize("make", [draw, lambda y, **options: to_dot(build(y), **options)])
def test_an_unknown_direction_says_so_in_chinese(make):
    assert '"forward"' in error_in_chinese(ValueError, make, one_op(), direction="up")


@pytest.mark.parametrize(
    "names",
    [5, "w", torch.ones(1), [(1, 2, 3)], {"w": 5}],
    ids=["number", "str", "tensor", "not pairs", "value not a tensor"],
)
def test_names_of_the_wrong_kind_say_so_in_chinese(names):
    assert "names" in error_in_chinese(TypeError, draw, one_op(), names=names)


# --- highlight= and edge_labels= ---------------------------------------------------------------


def test_highlight_that_is_not_a_node_says_so_in_chinese():
    assert "y.grad_fn" in error_in_chinese(TypeError, draw, one_op(), highlight=5)


def test_highlight_of_a_node_of_another_graph_says_so_in_chinese():
    elsewhere = one_op().grad_fn
    assert "draw()" in error_in_chinese(ValueError, draw, one_op(), highlight=elsewhere)


def test_edge_labels_that_are_not_a_dict_say_so_in_chinese():
    text = error_in_chinese(TypeError, draw, one_op(), edge_labels=[(1, 2)])
    assert "(y.grad_fn, y.grad_fn.next_functions[0][0])" in text


def test_edge_labels_keyed_by_anything_but_nodes_say_so_in_chinese():
    text = error_in_chinese(TypeError, draw, one_op(), edge_labels={(1, 2): "grad"})
    assert "(node, next_node)" in text


def test_edge_labels_on_nodes_that_no_edge_joins_say_so_in_chinese():
    y = one_op()
    apart = (y.grad_fn, one_op().grad_fn)
    text = error_in_chinese(ValueError, draw, y, edge_labels={apart: "grad"})
    assert "next_functions" in text


def test_edge_labels_on_an_edge_of_another_graph_say_so_in_chinese():
    elsewhere = one_op().grad_fn
    edge = (elsewhere, elsewhere.next_functions[0][0])
    text = error_in_chinese(ValueError, draw, one_op(), edge_labels={edge: "grad"})
    assert "MulBackward0 -> AccumulateGrad" in text


# --- pictures too big to make ------------------------------------------------------------------


def dense_pair(width: int) -> tuple[torch.Tensor, dict]:
    """``width`` leaves each used by ``width`` ops, a label on every arrow: too slow to lay out
    at 90 (about 50 s estimated), and refused before Graphviz starts."""
    torch.manual_seed(0)
    layer = [torch.randn(1, requires_grad=True) for _ in range(width)]
    y = torch.stack([torch.stack(layer).sum() * (i + 1) for i in range(width)]).sum()
    labels = {
        (fn, next_fn): "grad"
        for fn in walk([y.grad_fn]).nodes
        for next_fn, _ in fn.next_functions
        if next_fn is not None
    }
    return y, labels


@pytest.mark.parametrize("max_nodes", [None, 1000])
def test_a_picture_too_big_to_lay_out_says_so_in_chinese(max_nodes):
    y, labels = dense_pair(90)
    text = error_in_chinese(GraphTooLarge, draw, y, max_nodes=max_nodes, edge_labels=labels)
    assert "max_nodes=" in text and ".source" in text
    assert ("全部" in text) == (max_nodes is None)


def test_asking_for_more_nodes_than_the_helpers_look_at_says_so_in_chinese():
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(graph.NODES_SAFE_TO_SEE + 100):
        y = torch.sin(y)
    text = error_in_chinese(GraphTooLarge, draw, y, max_nodes=None)
    assert f"{graph.NODES_SAFE_TO_SEE:,}" in text and "max_nodes=" in text


# --- rendering ---------------------------------------------------------------------------------


def slow_source() -> str:
    """DOT that takes Graphviz about a minute (as in tests/test_graphviz.py)."""
    torch.manual_seed(0)
    W = torch.randn(4, 4).requires_grad_()
    h = torch.randn(1, 4)
    for _ in range(100):
        h = torch.tanh(h @ W)
    model = build_graph([h], [("W", W)])
    return to_dot(model, layout=replace(plan(model), search_placement=True))


@pytest.fixture
def a_one_second_deadline(monkeypatch):
    monkeypatch.setattr(renderer, "CHILD_SECONDS", -4)  # the parent waits CHILD_SECONDS + 5


def test_a_layout_stopped_for_time_says_so_in_chinese(a_one_second_deadline):
    error_in_chinese(LayoutTooSlow, render, slow_source(), "svg", estimated_seconds=60)
    with speaking("zh"):
        assert_speaks_chinese(renderer.too_long())


def test_a_drawing_stopped_for_time_says_what_to_draw_instead_in_chinese(a_one_second_deadline):
    drawing = Drawing(slow_source(), estimated_seconds=60)
    assert "max_nodes=" in error_in_chinese(LayoutTooSlow, drawing.svg)


def test_dot_of_ones_own_stopped_for_time_says_where_the_dot_is_in_chinese(
    a_one_second_deadline,
):
    text = error_in_chinese(LayoutTooSlow, Drawing(slow_source()).svg)
    assert ".source" in text and "max_nodes" not in text


@pytest.mark.skipif(sys.platform == "win32", reason="a process cannot send itself SIGINT there")
def test_a_render_interrupted_says_so_in_chinese():
    # As Interrupt kernel does: SIGINT while the kernel waits for the child that renders.
    source = slow_source()
    interrupt = threading.Timer(2, os.kill, (os.getpid(), signal.SIGINT))
    with speaking("zh"), pytest.raises(KeyboardInterrupt) as stopped:
        interrupt.start()
        try:
            render(source, "svg", estimated_seconds=60)
        finally:
            interrupt.cancel()
    assert str(stopped.value) == renderer.INTERRUPTED["zh"]
    assert_speaks_chinese(str(stopped.value))


def test_dot_graphviz_cannot_read_says_so_in_chinese():
    assert "DOT" in error_in_chinese(RenderError, render, "digraph { a -> }", "svg")


def test_dot_graphviz_cannot_read_in_a_child_process_is_told_in_chinese_too():
    # The child process reports in the parent's language, and the parent quotes it.
    text = error_in_chinese(RenderError, Drawing("digraph { a -> }").svg)
    assert text.count("DOT") >= 2 and ".source" in text


def test_a_format_graphviz_cannot_draw_says_so_in_chinese():
    drawing = draw(chain(2))
    assert "nosuchformat" in error_in_chinese(RenderError, render, drawing.source, "nosuchformat")
    text = error_in_chinese(RenderError, drawing._render, "nosuchformat")
    assert ".svg()" in text and ".source" in text  # other formats may still work


@pytest.mark.skipif(sys.platform == "win32", reason="a process cannot send itself SIGSEGV there")
def test_graphviz_crashing_says_so_in_chinese(monkeypatch):
    crash = "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"
    monkeypatch.setattr(renderer, "_child_command", lambda fmt: [sys.executable, "-c", crash])
    text = error_in_chinese(RenderError, Drawing("digraph { a -> b }").svg)
    assert "SIGSEGV" in text


@pytest.fixture
def without_pygraphviz(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygraphviz", None)  # `import pygraphviz` now fails


def test_without_graphviz_the_error_says_how_to_install_it_in_chinese(
    without_pygraphviz, monkeypatch, tmp_path
):
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot program anywhere
    text = error_in_chinese(GraphvizNotFound, draw(chain(2)).svg)
    assert "`pip install pygraphviz`" in text and "`apt-get install graphviz`" in text


def test_the_dot_program_failing_is_said_in_chinese_with_its_own_words_quoted(
    without_pygraphviz, monkeypatch, tmp_path
):
    fake = tmp_path / "dot"  # a dot program that fails as Graphviz's does, in English
    fake.write_text(
        f"#!{sys.executable}\nimport sys\n"
        "sys.stderr.write(\"Error: syntax error in line 1 near '}'\\n\")\nsys.exit(1)\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    text = error_in_chinese(RenderError, draw(chain(2)).svg)
    assert "“Error: syntax error in line 1 near '}'”" in text


# --- Drawing and to_dot ------------------------------------------------------------------------


@pytest.mark.parametrize("source", [None, 5])
def test_a_drawing_of_anything_but_dot_text_says_so_in_chinese(source):
    assert "draw(y)" in error_in_chinese(TypeError, Drawing, source)


def test_saving_under_an_unknown_suffix_says_so_in_chinese(tmp_path):
    text = error_in_chinese(ValueError, draw(chain(1)).save, tmp_path / "g.jpg")
    assert "'g.jpg'" in text and ".svg" in text


def test_to_dot_of_a_tensor_says_so_in_chinese():
    assert "to_dot(build(y))" in error_in_chinese(TypeError, to_dot, chain(1))


def test_a_drawing_says_what_it_is_in_chinese_and_in_english():
    drawing = draw(chain(1))
    with speaking("zh"):
        shown = drawing._repr_mimebundle_()["text/plain"]
    assert shown.startswith("<") and shown.endswith(">")
    assert_speaks_chinese(shown[1:-1])  # the angle brackets would make it all read as code
    assert ".svg()" in shown
    assert repr(drawing).startswith("<Drawing of an autograd graph")


# --- what the picture says ---------------------------------------------------------------------


def test_the_caption_of_a_cut_picture_reads_as_one_chinese_paragraph():
    with speaking("zh"):
        model = build(chain(10), max_nodes=3)
    assert_speaks_chinese(model.notes[-1])
    assert "max_nodes=None" in model.notes[-1] and "。 " not in model.notes[-1]


def test_notes_and_tooltips_of_the_boxes_are_chinese():
    x = torch.ones(3, requires_grad=True)
    v = x * 2
    row = v[:2]  # a view of v
    y = (row.exp() * v[2]).sum()
    with speaking("zh"):
        before = build(y, names={"x": x, "v": v, "row": row}, show_saved=True)
        y.backward()
        after = build(y, names={"x": x, "v": v, "row": row}, show_saved=True)
    tooltips = [node.tooltip for node in before.nodes if node.kind == SAVED]
    tooltips += [node.tooltip for node in before.nodes if node.title == "row"]
    # Notes of our own (saved values such as dim=0 are PyTorch's names and numbers).
    notes = [note for node in after.nodes for note in node.notes if "=" not in note]
    assert len(tooltips) > 1 and any("backward()" in note for note in notes)
    assert any(" 的视图" in note for note in notes)
    for text in tooltips + notes:
        assert_speaks_chinese(text)


def test_the_box_of_a_tensor_without_a_graph_says_so_in_chinese():
    with speaking("zh"):
        model = build(torch.ones(2))
    assert_speaks_chinese(model.nodes[0].tooltip)
    assert_speaks_chinese(model.notes[0])


def test_the_tooltips_of_cut_and_repeated_boxes_are_chinese():
    W = torch.ones(2, 2, requires_grad=True)
    h = torch.ones(1, 2)
    for _ in range(30):  # W used at every step: drawn once, and repeated beside far uses
        h = torch.tanh(h @ W)
    with speaking("zh"):
        model = build(h, names={"W": W}, max_nodes=60)
    repeated = [node for node in model.nodes if node.same_as]
    summary = [node for node in model.nodes if node.kind == SUMMARY]
    assert repeated and summary
    for node in repeated + summary:
        assert_speaks_chinese(node.tooltip)


class SavesMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(*[x] * 12)
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2


def test_saved_tensors_left_out_are_counted_in_chinese():
    y = SavesMany.apply(torch.ones(1, requires_grad=True))
    with speaking("zh"):
        model = build(y, show_saved=True)
    (op,) = [node for node in model.nodes if node.kind == OP and node.title == "SavesManyBackward"]
    assert op.notes
    for note in op.notes:
        assert_speaks_chinese(note)


def test_a_saved_tensor_changed_in_place_is_said_in_chinese():
    x = torch.ones(2, requires_grad=True)
    a = x * 1
    y = a * a
    a.add_(1)
    with speaking("zh"):
        model = build(y, show_saved=True)
    notes = [note for node in model.nodes for note in node.notes]
    assert any("backward()" in note for note in notes)
    for note in notes:
        assert_speaks_chinese(note)


def test_a_text_too_long_to_draw_says_its_length_in_chinese():
    w = torch.tensor(1.0, requires_grad=True)
    with speaking("zh"):
        source = draw(w * 2, names={"权重" * 3000: w}).source
    assert "…（共 6,000 个字符）" in source


def test_a_child_process_is_told_the_language_to_speak():
    with speaking("zh"):
        command = renderer._child_command("svg")
    child = subprocess.run(command, input=b"digraph { a -> }", capture_output=True, timeout=60)
    said = child.stderr.decode("utf-8").strip().splitlines()[-1]
    assert child.returncode == 1
    assert_speaks_chinese(said)


def test_a_shape_shown_in_words_is_in_chinese():
    with speaking("zh"):
        assert describe(torch.tensor(2.0), show_values=False) == "标量 float32"
        nested = torch.nested.nested_tensor([torch.zeros(2), torch.zeros(3)])
        assert describe(nested) == "嵌套 [(2,), (3,)] float32"
    assert describe(torch.tensor(2.0), show_values=False) == "scalar float32"

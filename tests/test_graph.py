"""helpers.graph: the model of the autograd graph, its DOT text, and its rendering."""

from __future__ import annotations

import gc
import os
import subprocess
import sys
import textwrap
import types
import warnings
import weakref
import xml.etree.ElementTree as ElementTree

import pytest
import torch
from deep_graphs import let_go_after

from helpers import graph, seen_nodes
from helpers.graph import GraphvizNotFound, build, draw, to_dot
from helpers.graph.dot import BORDER, HIGHLIGHT_COLOUR
from helpers.graph.model import LEAF, OP, OUTPUT, SAVED, SUMMARY, TENSOR, format_number
from helpers.graph.render import render
from tools.make_images import relu_example

SVG = "{http://www.w3.org/2000/svg}"


# --- helpers for the tests ---------------------------------------------------------------------


def reachable_nodes(*roots: torch.Tensor) -> list:
    """Every autograd Node behind ``roots``, found independently of helpers.graph."""
    stack = [r.grad_fn for r in roots if r.grad_fn is not None]
    found: list = []
    while stack:
        fn = stack.pop()
        if any(fn is seen for seen in found):
            continue
        found.append(fn)
        stack.extend(next_fn for next_fn, _ in fn.next_functions if next_fn is not None)
    return found


def box(model: graph.Graph, title: str) -> graph.GraphNode:
    matches = [node for node in model.nodes if node.title == title]
    assert len(matches) == 1, f"expected one box titled {title!r}, found {len(matches)}"
    return matches[0]


def titles(model: graph.Graph, kind: str) -> set[str]:
    return {node.title for node in model.nodes if node.kind == kind}


def svg_texts(svg: str) -> list[str]:
    """The text of every <text> element: what a viewer of the SVG reads."""
    return [element.text or "" for element in ElementTree.fromstring(svg).iter(f"{SVG}text")]


def chain(layers: int) -> torch.Tensor:
    h = torch.ones(1, 2)
    for _ in range(layers):
        h = torch.tanh(h @ torch.full((2, 2), 0.1, requires_grad=True) + 1)
    return h


class Double(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return 2 * x

    @staticmethod
    def backward(ctx, grad):
        return 2 * grad


# --- every Node once -----------------------------------------------------------------------------


def graphs_to_walk():
    b, w, x, u, v, a = relu_example()
    shared = u * u + u  # u's sub-graph feeds three inputs
    first, second = (w * torch.ones(4)).split(2)
    custom = Double.apply(w * 3)
    (dy_dw,) = torch.autograd.grad(w**3, w, create_graph=True)
    return {
        "relu": [a],
        "shared sub-graph": [shared],
        "several roots": [a, shared, u],
        "multi-output node": [first * second],
        "custom Function": [custom],
        "double backward": [dy_dw],
    }


@pytest.mark.parametrize("case", list(graphs_to_walk()))
def test_build_draws_every_reachable_node_exactly_once(case):
    roots = graphs_to_walk()[case]
    model = build(roots, max_nodes=None)
    drawn = [node.fn for node in model.nodes if node.fn is not None]
    expected = reachable_nodes(*roots)
    assert len(drawn) == len(expected)
    assert all(any(fn is node for node in drawn) for fn in expected)


def test_op_boxes_are_labelled_with_the_node_type_name():
    w = torch.tensor(2.0, requires_grad=True)
    y = Double.apply(torch.relu(w * 3))
    assert titles(build(y), OP) == {"DoubleBackward", "ReluBackward0", "MulBackward0"}


def test_build_walks_1200_layers_without_recursion_error():
    y = chain(1200)  # 4,800 Nodes, 3,600 deep: beyond Python's recursion limit
    model = build(y, max_nodes=None)
    assert sum(1 for node in model.nodes if node.fn is not None) == 4 * 1200


def test_draw_renders_a_3000_layer_chain():
    svg = draw(chain(3000)).svg()
    assert "more nodes" in "".join(svg_texts(svg))


# --- graphs of more Nodes than the helpers look at ---------------------------------------------


@pytest.mark.skipif(sys.platform == "win32", reason="the stack is set with Unix's setrlimit")
def test_drawing_a_graph_bigger_than_the_helpers_look_at_leaves_it_safe_to_free():
    code, printed, errors = let_go_after("drawing = draw(y); drawing = None")
    assert (code, printed) == (0, ["freed"]), errors


@pytest.fixture(scope="module")
def beyond_the_walk() -> torch.Tensor:
    """A chain of more Nodes than the helpers look at."""
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for _ in range(graph.NODES_SAFE_TO_SEE + 100):
        y = torch.sin(y)
    return y


def test_the_default_picture_of_a_graph_beyond_the_walk_says_where_it_stopped(beyond_the_walk):
    model = build(beyond_the_walk)
    assert not model.walked_all and model.drawn_nodes == graph.DEFAULT_MAX_NODES
    summary = [node for node in model.nodes if node.kind == SUMMARY]
    assert [node.title for node in summary] == ["… at least 4,801 more nodes"]
    assert "the helpers look at no more than 5,000 nodes" in model.notes[-1]
    assert "max_nodes=None" not in model.notes[-1]


def test_the_default_picture_of_a_graph_one_wide_node_takes_beyond_the_walk_is_drawn():
    x = torch.ones(6000, requires_grad=True)
    y = torch.stack([x[i] * 2 for i in range(6000)]).sum()  # StackBackward0 has 6,000 inputs
    model = build(y)
    assert not model.walked_all and "at least" in model.notes[-1]
    assert "<svg" in draw(y).svg()


@pytest.mark.parametrize("max_nodes", [None, graph.NODES_SAFE_TO_SEE + 1])
def test_asking_for_more_nodes_than_the_helpers_look_at_is_refused(beyond_the_walk, max_nodes):
    with pytest.raises(graph.GraphTooLarge, match=r"more than 5,000 autograd nodes.*max_nodes="):
        draw(beyond_the_walk, max_nodes=max_nodes)


def test_highlight_and_labels_beyond_the_walk_are_ignored_like_those_cut_off(beyond_the_walk):
    far = beyond_the_walk.grad_fn
    for _ in range(graph.NODES_SAFE_TO_SEE + 50):
        far = far.next_functions[0][0]
    farther = far.next_functions[0][0]
    drawing = draw(beyond_the_walk, highlight=far, edge_labels={(far, farther): "never drawn"})
    assert "never drawn" not in drawing.source and "penwidth" not in drawing.source


def test_a_whole_graph_of_over_1000_nodes_renders_without_a_word_on_stderr(capfd):
    svg = draw(chain(300), max_nodes=None).svg()  # 1,201 boxes
    assert svg_texts(svg).count("TanhBackward0") == 300
    assert capfd.readouterr().err == ""  # a notebook would show anything written there


# --- determinism -------------------------------------------------------------------------------

DETERMINISM_SCRIPT = textwrap.dedent(
    """
    import torch
    from helpers.graph import draw
    b = torch.tensor(1.0, requires_grad=True)
    w = torch.tensor([2.0, -1.5], requires_grad=True)
    u = (w * 3).split(1)
    a = torch.relu(u[0] * u[1] + b)
    a.backward(retain_graph=True)
    drawing = draw([a, u[0]], show_saved=True)
    print(drawing.source)
    drawing.svg()
    """
)


def test_source_is_identical_in_two_processes():
    runs = [
        subprocess.run(
            [sys.executable, "-c", DETERMINISM_SCRIPT], capture_output=True, text=True, check=True
        )
        for _ in range(2)
    ]
    assert runs[0].stdout == runs[1].stdout
    assert "digraph" in runs[0].stdout


def test_rendering_prints_nothing_on_stderr():
    run = subprocess.run(
        [sys.executable, "-c", DETERMINISM_SCRIPT], capture_output=True, text=True, check=True
    )
    assert run.stderr == ""


# --- names -------------------------------------------------------------------------------------


def test_draw_names_tensors_from_the_callers_variables():
    b, w, x, u, v, a = relu_example()
    model = build(a)
    assert titles(model, LEAF) == {"b", "w"}
    assert titles(model, TENSOR) == {"u", "v"}
    assert titles(model, OUTPUT) == {"a"}


def test_names_are_found_past_frames_of_the_helpers_package():
    b, w, x, u, v, a = relu_example()
    # A function defined in a module of the helpers package, as helpers.backward is.
    helper = types.ModuleType("helpers.pretend_helper")
    exec("def draw_for_me(t, build):\n    return build(t)\n", helper.__dict__)
    model = helper.draw_for_me(a, build)
    assert titles(model, LEAF) == {"b", "w"}


def test_names_starting_with_underscore_are_skipped():
    b, w, x, u, v, a = relu_example()
    _ = w  # IPython keeps the last output in `_`
    _hidden = b
    del b
    model = build(a)
    assert titles(model, LEAF) == {"", "w"}


def test_a_tensor_with_two_names_gets_the_shortest():
    b, w, x, u, v, a = relu_example()
    weight = w  # noqa: F841 - a second name for w
    assert "w" in titles(build(a), LEAF)


def test_names_match_by_identity_not_by_value():
    w = torch.tensor(2.0, requires_grad=True)
    y = w * 3
    d = torch.tensor(2.0, requires_grad=True)  # noqa: F841 - same value, shorter name, not in graph
    assert titles(build(y), LEAF) == {"w"}


def test_given_names_win_over_variable_names():
    b, w, x, u, v, a = relu_example()
    model = build(a, names={"weight": w})
    assert titles(model, LEAF) == {"b", "weight"}


def test_module_parameters_get_their_dotted_names():
    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 1)
    loss = layer(torch.ones(1, 2)).sum()
    assert titles(build(loss, names=layer.named_parameters()), LEAF) == {"weight", "bias"}
    assert titles(build(loss), LEAF) == {"layer.weight", "layer.bias"}


def test_names_must_map_to_tensors():
    b, w, x, u, v, a = relu_example()
    with pytest.raises(TypeError, match="not a tensor"):
        draw(a, names={"lr": 0.1})


# --- what the boxes say ------------------------------------------------------------------------


def test_seed_example_before_backward_shows_values():
    b, w, x, u, v, a = relu_example()
    model = build(a)
    assert [box(model, name).value for name in "wbuva"] == ["2.0", "1.0", "6.0", "7.0", "7.0"]
    assert all(node.grad is None for node in model.nodes)


def test_seed_example_after_backward_shows_every_retained_gradient():
    b, w, x, u, v, a = relu_example()
    for tensor in (u, v, a):
        tensor.retain_grad()
    a.backward()
    model = build(a)
    shown = {name: (box(model, name).value, box(model, name).grad) for name in "wbua"}
    assert shown == {
        "w": ("2.0", "3.0"),
        "b": ("1.0", "1.0"),
        "u": ("6.0", "1.0"),
        "a": ("7.0", "1.0"),
    }


def test_gradients_not_retained_are_not_read():
    b, w, x, u, v, a = relu_example()
    a.backward()
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # reading .grad of a non-leaf would warn
        model = build(a)
    assert (box(model, "u").value, box(model, "u").grad) == ("6.0", None)


def test_leaves_that_do_not_require_grad_are_not_invented():
    b, w, x, u, v, a = relu_example()
    assert "x" not in {node.title for node in build(a).nodes}


def test_large_tensors_show_shape_and_dtype():
    weights = torch.ones(3, 4, requires_grad=True)
    y = weights.sum()
    assert box(build(y), "weights").value == "(3, 4) float32"


def test_values_and_gradients_can_be_left_out():
    b, w, x, u, v, a = relu_example()
    a.backward()
    assert box(build(a, show_grads=False), "w").grad is None
    without_values = box(build(a, show_values=False), "w")
    assert (without_values.value, without_values.grad) == ("scalar float32", "scalar float32")


@pytest.mark.parametrize(
    ("number", "text"),
    [(2.0, "2.0"), (0.123456, "0.1235"), (-1e-7, "-1e-07"), (12345.6, "1.235e+04"), (3, "3")],
)
def test_numbers_are_written_with_four_significant_digits(number, text):
    assert format_number(number) == text


def test_a_tensor_without_a_graph_is_one_box_with_a_note():
    k = torch.tensor(5.0)
    model = build(k)
    assert [(node.kind, node.title, node.value) for node in model.nodes] == [(OUTPUT, "k", "5.0")]
    assert "recorded nothing" in model.notes[0]
    assert "recorded nothing" in draw(k).source


def test_a_leaf_passed_to_draw_is_drawn_once_as_the_output():
    w = torch.tensor(2.0, requires_grad=True)
    model = build(w)
    assert [(node.kind, node.title, type(node.fn).__name__) for node in model.nodes] == [
        (OUTPUT, "w", "AccumulateGrad")
    ]


def test_each_named_output_of_a_multi_output_node_gets_its_box():
    w = torch.tensor([1.0, 2.0, 3.0, 4.0], requires_grad=True)
    first, second = (w * 2).split(2)
    model = build(first * second)
    split = box(model, "SplitBackward0").id
    produced = {e.target for e in model.edges if e.source == split and e.kind == "output"}
    assert produced == {box(model, "first").id, box(model, "second").id}


# --- saved tensors -----------------------------------------------------------------------------


def test_show_saved_draws_what_builtin_nodes_saved():
    b, w, x, u, v, a = relu_example()
    model = build(a, show_saved=True)
    assert "other = x" in titles(model, SAVED)  # MulBackward0 keeps x to compute w's gradient
    assert box(model, "other = x").value == "3.0"


def test_show_saved_draws_what_custom_functions_saved():
    w = torch.tensor(2.0, requires_grad=True)
    h = w * 3
    y = Double.apply(h)
    assert box(build(y, show_saved=True), "saved_tensors[0] = h").value == "6.0"


def test_saved_tensors_freed_by_backward_are_marked_freed():
    w = torch.tensor(2.0, requires_grad=True)
    y = Double.apply(torch.exp(w))
    y.backward()
    model = build(y, show_saved=True)
    assert box(model, "DoubleBackward").notes == ["saved_tensors: freed by backward()"]
    assert box(model, "ExpBackward0").notes == ["result: freed by backward()"]
    assert titles(model, SAVED) == set()


# --- views, in-place, several outputs, double backward -----------------------------------------


def test_views_inplace_ops_and_double_backward_draw_without_error():
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = w.clone()
    row = v[1:]
    row.mul_(2)  # in-place on a view of a non-leaf: autograd rewrites the graph (CopySlices)
    (dv,) = torch.autograd.grad(v.sum() ** 2, w, create_graph=True)
    model = build([v, row, dv], show_saved=True)
    ops = titles(model, OP)
    assert {"CopySlices", "CloneBackward0"} <= ops
    assert box(model, "row").notes == ["view of v"]
    assert "<svg" in draw([v, row, dv], show_saved=True).svg()


# --- direction, slots, colours, options for helpers.backward -----------------------------------


def test_arrows_follow_the_forward_computation_by_default():
    b, w, x, u, v, a = relu_example()
    model = build(a)
    leaf, mul = box(model, "w").id, box(model, "MulBackward0").id
    assert f"{leaf} -> {mul}" in to_dot(model)
    assert f"{mul} -> {leaf}" in to_dot(model, direction="backward")


def test_the_input_slot_is_shown_when_an_op_has_several_inputs():
    b, w, x, u, v, a = relu_example()
    model = build(a)
    add = box(model, "AddBackward0").id
    assert {e.slot for e in model.edges if e.target == add and e.kind == "input"} == {0, 1}
    assert 'headlabel="1"' in to_dot(model)
    assert 'taillabel="1"' in to_dot(model, direction="backward")


@pytest.mark.parametrize("direction", ["forward", "backward"])
def test_the_slot_numbers_of_parallel_arrows_stand_outside_them(direction):
    x = torch.tensor(3.0, requires_grad=True)
    svg = ElementTree.fromstring(draw(x * x, direction=direction).svg())
    sides = {}  # slot number -> (x of its text, leftmost and rightmost x of its arrow)
    for group in svg.iter(f"{SVG}g"):
        text = group.find(f"{SVG}text")
        if group.get("class") != "edge" or text is None:
            continue
        xs = [float(v.split(",")[0]) for v in group.find(f"{SVG}path").get("d")[1:].split()]
        sides[text.text] = (float(text.get("x")), min(xs), max(xs))
    (x0, left0, right0), (x1, left1, right1) = sides["0"], sides["1"]
    assert right0 < left1  # slot 0 is the left arrow
    assert x0 < left0 and x1 > right1  # its number on its left, slot 1's on its right


def test_a_single_arrow_into_an_op_carries_no_slot_number():
    b, w, x, u, v, a = relu_example()  # u = w * x: x does not require grad, so one arrow
    model = build(a)
    mul = box(model, "MulBackward0").id
    (into_mul,) = [e for e in model.edges if e.target == mul and e.kind == "input"]
    assert into_mul.slot is None
    (mul_line,) = [
        line
        for line in to_dot(model).splitlines()
        if line.endswith(f"-> {mul};") or f"-> {mul} [" in line
    ]
    assert "headlabel" not in mul_line


def test_an_unnamed_tensor_with_one_line_is_a_plain_box_coloured_like_its_kind():
    y = chain(1)  # its weight has no variable name here
    model = build(y)
    leaf = next(node for node in model.nodes if node.kind == LEAF)
    leaf_line = next(line for line in to_dot(model).splitlines() if f"  {leaf.id} [" in line)
    assert "<TABLE" not in leaf_line
    svg = ElementTree.fromstring(draw(y).svg())
    (leaf_group,) = [g for g in svg.iter(f"{SVG}g") if g.findtext(f"{SVG}title") == leaf.id]
    assert [t.text for t in leaf_group.iter(f"{SVG}text")] == ["[[0.1, 0.1], [0.1, 0.1]]"]
    (outline,) = leaf_group.iter(f"{SVG}polygon")  # one box: filled, with the border colour
    colours = (outline.get("fill"), outline.get("stroke"))
    assert colours == (graph.BOX_STYLES[LEAF].fill, BORDER)
    weight = leaf.fn.variable
    named = draw(y, names={"weight": weight}).source
    assert "<B>weight</B>" in named  # a name (or a gradient) needs the table's cells


def test_one_line_boxes_of_other_kinds_keep_their_own_colour():
    drawing = draw(torch.ones(2, requires_grad=True))  # an unnamed leaf passed to draw()
    svg = ElementTree.fromstring(drawing.svg())
    (node,) = [g for g in svg.iter(f"{SVG}g") if g.get("class") == "node"]
    assert [t.text for t in node.iter(f"{SVG}text")] == ["[1.0, 1.0]"]
    assert [p.get("fill") for p in node.iter(f"{SVG}polygon")] == [graph.BOX_STYLES[OUTPUT].fill]


def test_a_deep_chain_is_drawn_as_a_straight_column_with_the_weights_beside_it():
    svg = draw(chain(12), max_nodes=None).svg()
    nodes = [g for g in ElementTree.fromstring(svg).iter(f"{SVG}g") if g.get("class") == "node"]
    op_centres = {round(float(e.get("cx"))) for g in nodes for e in g.iter(f"{SVG}ellipse")}
    assert len(op_centres) == 1  # every op box straight below the one before
    width = float(ElementTree.fromstring(svg).get("width").removesuffix("pt"))
    assert width < 600  # not a staircase drifting one step sideways per layer


def test_each_kind_of_box_has_its_own_colour():
    b, w, x, u, v, a = relu_example()
    source = draw(a, show_saved=True).source
    for kind in (LEAF, TENSOR, OP, SAVED, OUTPUT):
        assert graph.BOX_STYLES[kind].fill in source
    assert len({graph.BOX_STYLES[kind].fill for kind in (LEAF, TENSOR, OP, SAVED, OUTPUT)}) == 5


def test_highlight_outlines_the_box_of_a_node():
    b, w, x, u, v, a = relu_example()
    accumulate_w = u.grad_fn.next_functions[0][0]
    source = draw(a, highlight=accumulate_w).source
    w_line = next(line for line in source.splitlines() if "<B>w</B>" in line)
    assert HIGHLIGHT_COLOUR in w_line
    others = [line for line in source.splitlines() if line != w_line]
    assert not any(HIGHLIGHT_COLOUR in line for line in others)


def box_sizes(source: str) -> dict[str, tuple[str, str]]:
    """Width and height of every box as Graphviz lays it out (its "plain" output)."""
    plain = render(source, "plain").decode()
    return {f[1]: (f[4], f[5]) for f in map(str.split, plain.splitlines()) if f[0] == "node"}


def test_highlighting_a_box_of_any_kind_keeps_every_box_its_size():
    b, w, x, u, v, a = relu_example()
    a.retain_grad()
    a.backward()  # w's box now has three cells: w | 2.0 | grad 3.0
    unnamed = chain(1)  # a one-line box, and ops
    for output in (a, unnamed):
        model = build(output)
        plain = box_sizes(to_dot(model))
        for node in model.nodes:
            if node.fn is not None:
                assert box_sizes(to_dot(model, highlight=node.fn)) == plain, node.title


def test_highlight_rejects_nodes_of_another_graph():
    b, w, x, u, v, a = relu_example()
    other = (w * 5).grad_fn
    with pytest.raises(ValueError, match="not in the graph"):
        draw(a, highlight=other)
    with pytest.raises(TypeError, match="grad_fn"):
        draw(a, highlight=w)


def test_edge_labels_are_written_on_the_arrow_between_two_nodes():
    b, w, x, u, v, a = relu_example()
    add, mul = v.grad_fn, u.grad_fn
    source = draw(a, edge_labels={(add, mul): "grad 1.0"}).source
    u_to_add = f"{box(build(a), 'u').id} -> {box(build(a), 'AddBackward0').id}"
    line = next(line for line in source.splitlines() if u_to_add in line)
    assert "grad 1.0>" in line and "label=<" in line
    assert draw(a, edge_labels={(mul, add): "grad 1.0"}).source == source  # either order


def test_edge_label_carries_the_input_slot_so_parallel_edges_do_not_collide():
    x = torch.tensor(3.0, requires_grad=True)
    y = x * x
    mul = y.grad_fn
    accumulate_x = mul.next_functions[0][0]  # both slots of x * x lead to x's AccumulateGrad
    source = draw(y, edge_labels={(mul, accumulate_x): "6.0"}).source
    labelled = [line for line in source.splitlines() if "6.0" in line]
    assert len(labelled) == 2
    assert any("0: </FONT>6.0" in line for line in labelled)
    assert any("1: </FONT>6.0" in line for line in labelled)
    assert not any("headlabel" in line or "taillabel" in line for line in labelled)


def test_edge_labels_for_unjoined_nodes_raise():
    b, w, x, u, v, a = relu_example()
    with pytest.raises(ValueError, match="not joined"):
        draw(a, edge_labels={(a.grad_fn, u.grad_fn): "?"})


def test_edge_labels_on_nodes_cut_off_by_max_nodes_are_ignored():
    y = chain(10)
    deep = y.grad_fn
    for _ in range(20):
        deep = deep.next_functions[0][0]
    key = (deep, deep.next_functions[0][0])
    assert "hidden>" not in draw(y, max_nodes=5, edge_labels={key: "hidden"}).source
    assert "hidden>" in draw(y, max_nodes=None, edge_labels={key: "hidden"}).source


# --- large graphs ------------------------------------------------------------------------------


def test_max_nodes_keeps_the_nodes_nearest_the_output_and_summarises_the_rest():
    y = chain(100)
    model = build(y, max_nodes=20)
    kept = [node.fn for node in model.nodes if node.fn is not None]
    assert len(kept) == 20
    assert kept[0] is y.grad_fn
    assert box(model, "… 380 more nodes").kind == SUMMARY
    assert "max_nodes=None" in model.notes[0]
    assert "max_nodes=None" in to_dot(model)


def test_max_nodes_none_draws_everything():
    y = chain(100)
    assert not any(node.kind == SUMMARY for node in build(y, max_nodes=None).nodes)


# --- hostile text ------------------------------------------------------------------------------

HOSTILE_NAMES = ['<b>{x}|"y"\\', "a & b", "]]><!--", "\nstarts with a newline", "tab\there"]
# Characters Python calls unprintable that a learner's names and labels are written with: the
# ideographic space, a no-break space, a family emoji (joined by ZWJ), Persian with a ZWNJ, a
# right-to-left mark.
UNPRINTABLE_BUT_WRITTEN = [
    "学习\u3000率",
    "a\u00a0b",
    "👨\u200d👩\u200d👧",
    "می\u200cخواهم",
    "x\u200fy",
]


@pytest.mark.parametrize("name", HOSTILE_NAMES + UNPRINTABLE_BUT_WRITTEN)
def test_any_name_renders_exactly_as_typed(name):
    w = torch.tensor(2.0, requires_grad=True)
    y = w * 3
    svg = draw(y, names={name: w}).svg()  # ElementTree raises if the SVG is broken
    shown = " ".join(svg_texts(svg))
    for part in name.replace("\t", " ").split("\n"):  # a tab shows as the space it looks like
        assert part in shown


@pytest.mark.parametrize(
    ("name", "shown"),
    [("bell\x07", "bell\ufffd"), ("esc\x1b[0m", "esc\ufffd[0m"), ("half\ud800", "half\ufffd")],
)
def test_characters_an_svg_cannot_hold_show_as_replacement_characters(name, shown):
    w = torch.tensor(2.0, requires_grad=True)
    svg = draw(w * 3, names={name: w}).svg()  # ElementTree raises if the SVG is broken
    assert shown in svg_texts(svg)


def test_a_name_or_note_of_many_thousand_characters_is_cut_and_the_picture_renders():
    x = torch.arange(8000.0, requires_grad=True)
    y = x.split([1] * 8000)[0].sum()  # SplitWithSizesBackward0 saved 8,000 sizes
    svg = draw(y, names={"权重" * 3000: x}, show_saved=True).svg()
    texts = svg_texts(svg)
    assert "权重" * 500 + "… (6,000 characters)" in texts
    assert any(text.endswith("characters)") and "split_sizes" in text for text in texts)


def test_a_custom_functions_odd_class_name_still_makes_a_valid_picture():
    Odd = type("Clip\x1b", (Double,), {})  # its Node's name is the op's title and its tooltip
    x = torch.tensor(1.0, requires_grad=True)
    svg = draw(Odd.apply(x)).svg()  # ElementTree raises if the SVG is broken
    assert "Clip\ufffdBackward" in svg_texts(svg)


# --- bad input ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("bad", "error", "message"),
    [
        (None, TypeError, "got None"),
        (3.5, TypeError, r"\.item\(\)"),
        ("loss", TypeError, "not a str"),
        ([], ValueError, "empty list"),
        ([torch.ones(1), 2], TypeError, "item 1"),
    ],
)
def test_bad_input_gets_an_error_a_learner_understands(bad, error, message):
    with pytest.raises(error, match=message):
        draw(bad)


def test_bad_options_are_refused():
    y = chain(2)
    with pytest.raises(ValueError, match="max_nodes"):
        draw(y, max_nodes=0)
    with pytest.raises(ValueError, match="direction"):
        draw(y, direction="sideways")


@pytest.mark.parametrize(
    ("options", "message"),
    [
        ({"show_values": "no"}, "show_values takes True or False"),
        ({"names": 5}, r"names must be a dict .* got int"),
        ({"names": "w"}, r"names must be a dict .* got str"),
        ({"edge_labels": [(1, 2)]}, r"edge_labels takes a dict .* got list"),
    ],
)
def test_options_of_the_wrong_kind_say_what_they_take(options, message):
    with pytest.raises(TypeError, match=message):
        draw(chain(1), **options)


def test_to_dot_and_drawing_say_what_they_take():
    with pytest.raises(TypeError, match=r"to_dot takes the Graph that build\(\) returns"):
        to_dot(chain(1))
    with pytest.raises(TypeError, match="Drawing takes DOT text"):
        graph.Drawing(None)


# --- no references kept ------------------------------------------------------------------------

# Run as a notebook cell runs: at module level, where the variables are the namespace's globals.
# (Inside a function, CPython before 3.13 keeps a snapshot of the function's locals in its frame
# once anything reads them, until the function returns or reads them again.)
# The Nodes a helper saw are let go of at the start of the next helper call (helpers.seen_nodes:
# never from a garbage collection, where an Interrupt kernel would be lost): let_go() stands for it.
NOTEBOOK_CELL = """
b, w, x, u, v, a = relu_example()
refs = [weakref.ref(t) for t in (b, w, x, u, v, a)]
kept = {keep}(a, show_saved=True)
del b, w, x, u, v, a
let_go()
gc.collect()
alive_with_it = [ref() is not None for ref in refs]
del kept
let_go()
gc.collect()
alive_without_it = [ref() is not None for ref in refs]
"""


def run_cell(keep: str) -> dict:
    namespace = {
        "relu_example": relu_example,
        "weakref": weakref,
        "gc": gc,
        "let_go": seen_nodes.let_go,
        keep: globals()[keep],
    }
    exec(NOTEBOOK_CELL.format(keep=keep), namespace)
    return namespace


def test_drawing_keeps_no_reference_to_the_tensors():
    cell = run_cell("draw")
    assert cell["alive_with_it"] == [False] * 6


def test_dropping_the_model_releases_the_tensors():
    cell = run_cell("build")
    assert cell["alive_with_it"][1]  # the model holds the Nodes, and AccumulateGrad holds w
    assert cell["alive_without_it"] == [False] * 6


# --- rendering ---------------------------------------------------------------------------------


def test_notebook_display_is_an_svg_that_scales_and_is_readable():
    b, w, x, u, v, a = relu_example()
    bundle = draw(a)._repr_mimebundle_()
    root = ElementTree.fromstring(bundle["image/svg+xml"])
    assert root.get("viewBox")  # lets JupyterLab scale the picture down instead of clipping it
    assert root.get("width").endswith("pt")
    sizes = [float(text.get("font-size")) for text in root.iter(f"{SVG}text")]
    assert sizes and min(sizes) >= 12


def test_save_writes_the_format_its_suffix_names(tmp_path):
    drawing = draw(chain(2))
    assert drawing.save(tmp_path / "g.dot").read_text() == drawing.source
    assert "<svg" in drawing.save(tmp_path / "g.svg").read_text()
    assert drawing.save(tmp_path / "g.png").read_bytes().startswith(b"\x89PNG")
    with pytest.raises(ValueError, match=r"\.svg, \.png or \.dot"):
        drawing.save(tmp_path / "g.jpg")


@pytest.fixture
def without_pygraphviz(monkeypatch):
    monkeypatch.setitem(sys.modules, "pygraphviz", None)  # `import pygraphviz` now fails


def test_without_pygraphviz_the_dot_program_renders(without_pygraphviz, monkeypatch, tmp_path):
    # A stand-in for Graphviz's dot program: it records its arguments and input, answers an SVG.
    fake = tmp_path / "dot"
    fake.write_text(
        f"#!{sys.executable}\n"
        "import sys, pathlib\n"
        "folder = pathlib.Path(sys.argv[0]).parent\n"
        "(folder / 'args').write_text(' '.join(sys.argv[1:]))\n"
        "(folder / 'input').write_bytes(sys.stdin.buffer.read())\n"
        "sys.stdout.write('<svg>rendered by dot</svg>')\n"
    )
    fake.chmod(0o755)
    monkeypatch.setenv("PATH", str(tmp_path))
    drawing = draw(chain(2))
    assert drawing.svg() == "<svg>rendered by dot</svg>"
    assert (tmp_path / "args").read_text() == "-Tsvg"
    assert (tmp_path / "input").read_text() == drawing.source


@pytest.mark.skipif(
    __import__("shutil").which("dot") is None, reason="the Graphviz dot program is not installed"
)
def test_without_pygraphviz_the_dot_program_renders_for_real(without_pygraphviz):
    b, w, x, u, v, a = relu_example()
    assert "MulBackward0" in svg_texts(draw(a).svg())


def test_without_any_engine_the_error_names_both_fixes(without_pygraphviz, monkeypatch, tmp_path):
    monkeypatch.setenv("PATH", str(tmp_path))  # no dot program anywhere
    drawing = draw(chain(2))
    with pytest.raises(GraphvizNotFound) as error:
        drawing.svg()
    assert "pip install pygraphviz" in str(error.value)
    assert "install graphviz" in str(error.value)
    assert "TanhBackward0" in drawing.source  # nothing lost: the DOT text is there


def test_notebook_outputs_stay_clean_when_a_cell_draws():
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    draw_cell = (
        "import torch\nfrom helpers.graph import draw\n"
        "w = torch.tensor(2.0, requires_grad=True)\ndraw(w * 3)"
    )
    # ipykernel forwards what C libraries write to the process's stderr from a thread, so it can
    # land in the next cell: give it one, and time to arrive. It stops forwarding when it sees
    # PYTEST_CURRENT_TEST, so the kernel starts without it, as a learner's kernel does.
    later_cell = "import time\ntime.sleep(1)"
    cells = [nbformat.v4.new_code_cell(code) for code in (draw_cell, later_cell)]
    notebook = nbformat.v4.new_notebook(cells=cells)
    environment = {k: v for k, v in os.environ.items() if k != "PYTEST_CURRENT_TEST"}
    client = nbclient.NotebookClient(notebook, timeout=120, kernel_name="python3")
    client.execute(env=environment)
    outputs = [output for cell in notebook.cells for output in cell.outputs]
    assert [output.output_type for output in outputs] == ["execute_result"]
    assert "image/svg+xml" in outputs[0].data


# --- what sits in a notebook's namespace and in saved tensors ----------------------------------


class ForgotSuperInit(torch.nn.Module):
    def __init__(self):  # no super().__init__(): the module has no _parameters
        self.size = 3


class ClassRaises:
    @property
    def __class__(self):
        raise RuntimeError("this object cannot say what it is")


def test_broken_objects_among_the_variables_do_not_break_drawing_or_tracing():
    from helpers.backward import trace
    from helpers.backward_view import step_through

    broken_module = ForgotSuperInit.__new__(ForgotSuperInit)  # noqa: F841 - in the namespace
    odd = ClassRaises()  # noqa: F841 - in the namespace
    b, w, x, u, v, a = relu_example()
    assert titles(build(a), LEAF) == {"b", "w"}
    steps = trace(a)
    assert "AccumulateGrad of w" in repr(steps)
    assert len(step_through(steps)) == len(steps)


class SaveWithBias(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, bias, bias_first):
        ctx.save_for_backward(*((bias, x) if bias_first else (x, bias)))
        return x * 2

    @staticmethod
    def backward(ctx, grad):
        return grad * 2, None, None


@pytest.mark.parametrize("bias_first", [False, True])
def test_a_saved_tuple_with_none_shows_each_tensor_the_same_way_wherever_it_sits(bias_first):
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = SaveWithBias.apply(x, None, bias_first)
    model = build(y, show_saved=True)
    x_slot = 1 if bias_first else 0
    assert box(model, f"saved_tensors[{x_slot}] = x").value == "[1.0, 2.0]"
    op = box(model, "SaveWithBiasBackward")
    assert op.notes == [f"saved_tensors[{1 - x_slot}]=None"]
    assert "\n" not in "".join(op.notes)
    assert "<svg" in draw(y, show_saved=True).svg()


def test_indexing_with_tensors_and_slices_shows_its_saved_indices():
    a = torch.arange(24.0).reshape(2, 3, 4).requires_grad_()
    i, j = torch.tensor([1]), torch.tensor([2])
    y = a[i, :, j]
    model = build(y, show_saved=True)
    assert {"indices[0] = i", "indices[2] = j"} <= titles(model, SAVED)
    assert "indices[1]=None" in box(model, "IndexBackward0").notes


@pytest.mark.parametrize("name", ["\\Gamma", "C:\\Temp\\Node", "\\N", "\\G\\L\\n"])
def test_a_name_with_backslashes_is_shown_exactly_as_typed(name):
    w = torch.tensor(2.0, requires_grad=True)
    svg = draw(w * 3, names={name: w}).svg()
    assert name in svg_texts(svg)


class SavesMany(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(*(x * i for i in range(5000)))
        return x.clone()

    @staticmethod
    def backward(ctx, grad):
        return grad


def test_an_op_that_saved_thousands_of_tensors_draws_ten_and_counts_the_rest():
    x = torch.ones(2, requires_grad=True)
    model = build(SavesMany.apply(x), show_saved=True)
    saved = [node.title for node in model.nodes if node.kind == SAVED]
    assert saved == [f"saved_tensors[{i}]" for i in range(10)]
    assert box(model, "SavesManyBackward").notes == ["4,990 more saved tensors not drawn"]


def test_a_saved_tensor_changed_in_place_is_not_said_to_be_freed():
    w = torch.tensor([2.0, 1.0], requires_grad=True)
    x = torch.tensor([3.0, 4.0])
    y = (w * x).sum()
    x.add_(1)  # after MulBackward0 saved it: backward() would fail
    model = build(y, show_saved=True)
    assert box(model, "MulBackward0").notes == [
        "other: changed in place after it was saved: backward() would fail"
    ]
    assert box(model, "SumBackward0").notes == [
        "self_sym_sizes=(2,)"
    ]  # a tuple, as Python shows it


def test_a_leaf_made_under_inference_mode_is_drawn_with_a_reason():
    with torch.inference_mode():
        frozen = torch.ones(2, requires_grad=True)
    model = build(frozen)
    assert [(node.kind, node.title) for node in model.nodes] == [(OUTPUT, "frozen")]
    assert "inference_mode" in model.notes[0]
    assert "<svg" in draw(frozen).svg()


@pytest.mark.parametrize("inside", [torch.inference_mode, torch.no_grad])
def test_a_leaf_drawn_from_inside_inference_mode_or_no_grad_is_drawn_as_outside(inside):
    w = torch.tensor(2.0, requires_grad=True)
    y = w * 3
    outside = draw([y, w]).source
    with inside():
        assert draw([y, w]).source == outside


def test_a_sparse_leaf_is_drawn_with_its_layout():
    sparse = torch.sparse_coo_tensor([[0, 2]], [1.0, 2.0], (3,), check_invariants=True)
    sparse.requires_grad_()
    model = build(sparse)
    (leaf,) = model.nodes
    assert leaf.title == "sparse" and leaf.value == "(3,) float32 sparse_coo"
    assert type(leaf.fn).__name__ == "AccumulateGrad"
    assert "<svg" in draw(sparse * 2).svg()


def test_names_may_give_a_module_for_its_parameters():
    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 1)
    loss = layer(torch.ones(1, 2)).sum()
    assert titles(build(loss, names={"first": layer}), LEAF) == {"first.weight", "first.bias"}


def test_a_long_caption_is_wrapped_so_it_never_widens_the_picture():
    # A caption as long as a folded picture's, or one listing many references, is broken into
    # lines of about 100 letters (60 Chinese characters), at spaces or between Chinese ones.
    from helpers.graph.dot import CAPTION_WIDTH, _width_in_points, _wrapped

    english = "word " * 80
    chinese = "按模块折叠，每一个模块方框代表你模型里的一个模块。" * 8
    for note in (english, chinese):
        lines = _wrapped(note)
        assert len(lines) > 1
        assert all(_width_in_points(line) <= CAPTION_WIDTH for line in lines)
        assert "".join(lines).replace(" ", "") == note.replace(" ", "")
    assert not any(line.startswith(("，", "。")) for line in _wrapped(chinese))
    assert all(line.split() == ["word"] * len(line.split()) for line in _wrapped(english))

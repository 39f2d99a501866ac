"""Specification of helpers.backward_view: the table and the pictures of a traced backward pass."""

import base64
import re
import sys
import types

import nbformat
import pygraphviz
import pytest
import torch
from nbclient import NotebookClient
from speaks import assert_speaks_chinese
from torch.utils.checkpoint import checkpoint

from helpers import backward_view, graph
from helpers.backward import Step, Trace, trace
from helpers.backward_view import (
    MAX_FRAMES,
    MESSAGES,
    frames,
    step_through,
    table_html,
    table_text,
)
from helpers.graph import captions as graph_captions
from helpers.language import speaking


def neuron():
    """relu(w * x + b) with w = 2, x = 3, b = 1: the neuron of notebook 03."""
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    x = torch.tensor(3.0)
    return torch.relu(w * x + b), w, b


def labels(svg):
    """Every piece of text a picture shows, in order."""
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def chain(length):
    x = torch.tensor([0.1, 0.2], requires_grad=True)
    h = x
    for _ in range(length - 2):  # plus SumBackward0 and x's AccumulateGrad
        h = torch.sin(h)
    return h.sum()


@pytest.fixture
def draw_calls(monkeypatch):
    """The keyword arguments of every helpers.graph.to_dot call: one per picture drawn."""
    calls = []
    real_to_dot = graph.to_dot

    def spy(*args, **kwargs):
        calls.append(kwargs)
        return real_to_dot(*args, **kwargs)

    monkeypatch.setattr(graph, "to_dot", spy)
    return calls


# --- the table ---------------------------------------------------------------------------------


def test_table_lists_each_step_with_its_node_and_the_gradients_in_and_out():
    a, w, b = neuron()
    assert table_text(trace(a)) == "\n".join(
        [
            "step  node                 gradients in  gradients out",
            "1     ReluBackward0        1.0           1.0 → AddBackward0 (step 2)",
            "2     AddBackward0         1.0           1.0 → MulBackward0 (step 4), "
            "1.0 → AccumulateGrad of b (step 3)",
            "3     AccumulateGrad of b  1.0           added to b.grad",
            "4     MulBackward0         1.0           3.0 → AccumulateGrad of w (step 5)",
            "5     AccumulateGrad of w  3.0           added to w.grad",
        ]
    )


def test_table_names_leaves_as_given_before_the_callers_variables():
    a, w, b = neuron()
    text = table_text(trace(a), names={"weight": w})
    assert "AccumulateGrad of weight" in text and "added to weight.grad" in text
    assert "AccumulateGrad of b" in text


def test_table_without_names_says_accumulate_grad_and_the_leaf():
    steps = trace(neuron()[0])  # the leaves are not variables here
    assert "AccumulateGrad  " in table_text(steps) and "added to the leaf.grad" in table_text(steps)


def test_table_writes_gradients_with_four_significant_digits_and_none_as_none():
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    first, second = x.unbind()
    steps = trace(first / 3)  # the unbind node receives nothing for `second`
    text = table_text(steps)
    assert "0.3333 → UnbindBackward0" in text
    assert re.search(r"UnbindBackward0\s+0.3333, None\s", text)


def test_table_of_a_long_trace_shows_its_ends_and_how_many_steps_are_left_out():
    text = table_text(trace(chain(200)))
    lines = text.splitlines()
    assert len(lines) == 1 + backward_view.MAX_ROWS  # the header, then rows and the "…" row
    assert re.search(r"^…\s+141 more steps$", text, re.MULTILINE)
    assert re.match(r"200\s+AccumulateGrad\s", lines[-1])


def test_table_html_is_a_table_with_a_header_and_escaped_cells():
    a, w, b = neuron()
    markup = table_html(trace(a), names={"<w>": w})
    assert markup.startswith("<table><thead><tr><th")
    assert markup.count("<tr>") == 1 + 5
    assert "AccumulateGrad of &lt;w&gt;" in markup and "<w>" not in markup


def test_a_trace_shows_itself_as_the_table():
    a, w, b = neuron()
    steps = trace(a)
    assert repr(steps) == table_text(steps)
    assert steps._repr_html_() == table_html(steps)


def test_a_trace_shown_by_ipython_takes_names_from_the_notebooks_namespace(monkeypatch):
    a, w, b = neuron()
    steps = trace(a)
    shell = types.SimpleNamespace(user_ns={"weight": w, "bias": b, "_": w})
    fake_ipython = types.SimpleNamespace(get_ipython=lambda: shell)
    monkeypatch.setitem(sys.modules, "IPython", fake_ipython)

    def shown_by_ipython():  # no variables of its own, like IPython's display machinery
        return repr(steps)

    del w, b
    text = shown_by_ipython()
    assert "AccumulateGrad of weight" in text and "AccumulateGrad of bias" in text


def test_names_given_win_over_the_notebooks_namespace(monkeypatch):
    a, w, b = neuron()
    steps = trace(a)
    shell = types.SimpleNamespace(user_ns={"weight": w})
    monkeypatch.setitem(sys.modules, "IPython", types.SimpleNamespace(get_ipython=lambda: shell))
    assert "AccumulateGrad of given" in table_text(steps, names={"given": w})


def test_table_shows_what_was_sent_and_what_a_hook_made_of_it():
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    h = a * 3
    h.register_hook(lambda g: g * 0)
    text = table_text(trace((h * h).sum()))
    assert re.search(r"^3\s+MulBackward0\s+\[6.0, 12.0\] → hook → \[0.0, 0.0\]\s", text, re.M)
    assert text.count("hook") == 1


def test_table_points_each_gradient_to_the_run_of_the_node_that_used_it():
    torch.manual_seed(0)
    lin = torch.nn.Linear(2, 2)
    x = torch.randn(3, 2, requires_grad=True)
    y = checkpoint(lin, x, use_reentrant=True).sum() + (lin.weight * 3).sum()
    lines = table_text(trace(y)).splitlines()[1:]
    weight_steps = [
        line.split()[0] for line in lines if "AccumulateGrad of lin.weight" in line[:40]
    ]
    assert len(weight_steps) == 2  # outside the checkpoint, then inside its own backward pass
    multiply = next(line for line in lines if re.match(r"\d+\s+MulBackward0", line))
    assert multiply.endswith(f"→ AccumulateGrad of lin.weight (step {weight_steps[0]})")


# --- misuse: errors that say what was expected -----------------------------------------------


@pytest.mark.parametrize("show", [step_through, frames, table_text, table_html])
def test_showing_a_tensor_instead_of_a_trace_says_to_trace_it_first(show):
    a, w, b = neuron()
    name = show.__name__
    with pytest.raises(
        TypeError,
        match=rf"{name} shows a recorded backward pass, and got a "
        rf"tensor\. .*{name}\(trace\(y\)\)",
    ):
        show(a)


def test_showing_something_else_says_what_a_trace_is():
    with pytest.raises(
        TypeError,
        match=r"the Trace that helpers\.backward\.trace\(y\) returns; "
        r"got list",
    ):
        step_through([1, 2])


@pytest.mark.parametrize(
    "names, described",
    [
        (torch.tensor(2.0), "a tensor"),
        ("w", "a str"),
        ({"w": 2.0}, "a dict that does not pair names with tensors"),
        ([("w",)], "a list that does not pair names with tensors"),
        (3, "an? int"),
    ],
    ids=["tensor", "string", "dict of numbers", "short pairs", "number"],
)
def test_names_that_are_not_names_for_tensors_are_refused_with_an_example(names, described):
    a, w, b = neuron()
    steps = trace(a)
    for show in (step_through, frames, table_text):
        with pytest.raises(
            TypeError,
            match=rf"names must be a dict .*got {described}\. "
            r"To name one tensor w: names=\{'w': w\}",
        ):
            show(steps, names=names)


def test_a_module_given_in_names_names_its_parameters():
    torch.manual_seed(0)
    layer = torch.nn.Linear(2, 1)
    output = layer(torch.ones(1, 2)).sum()
    text = table_text(trace(output), names={"net": layer})
    assert "AccumulateGrad of net.weight" in text


def test_names_given_as_a_generator_of_pairs_are_read_once_and_used():
    a, w, b = neuron()
    text = table_text(trace(a), names=(pair for pair in [("weight", w)]))
    assert "AccumulateGrad of weight" in text


@pytest.mark.parametrize("option", ["highlight", "edge_labels"])
def test_options_each_picture_sets_itself_are_refused_with_the_reason(option):
    a, w, b = neuron()
    steps = trace(a)
    for show in (frames, step_through):
        with pytest.raises(
            TypeError,
            match=rf"{show.__name__} sets {option} itself: each "
            rf"picture .*Leave {option}= out",
        ):
            show(steps, **{option: None})


def test_an_unknown_option_is_refused_with_the_list_of_options():
    a, w, b = neuron()
    with pytest.raises(
        TypeError,
        match=r"does not know the option colour\. .*direction, "
        r"max_nodes, show_grads, show_saved, show_values",
    ):
        frames(trace(a), colour="red")


# --- the pictures ------------------------------------------------------------------------------


def test_frames_draw_one_picture_per_step_highlighting_the_node_that_runs(draw_calls):
    a, w, b = neuron()
    steps = trace(a)
    drawings = frames(steps)
    assert len(drawings) == len(steps) == len(draw_calls)
    assert [call["highlight"] for call in draw_calls] == [step.node for step in steps]


def visible(labels):
    """The labels written so far: one text, or a text per arrow joining the two Nodes."""
    return {edge: text for edge, text in labels.items() if "".join(text).strip()}


def test_frames_write_every_gradient_sent_so_far_on_the_edge_it_travelled(draw_calls):
    a, w, b = neuron()
    steps = trace(a)
    frames(steps)
    relu, add, b_node, mul, w_node = (step.node for step in steps)
    assert visible(draw_calls[0]["edge_labels"]) == {(relu, add): "1.0"}
    assert visible(draw_calls[1]["edge_labels"]) == {
        (relu, add): "1.0",
        (add, mul): "1.0",
        (add, b_node): "1.0",
    }
    assert visible(draw_calls[4]["edge_labels"])[(mul, w_node)] == "3.0"
    assert "3.0>" in frames(trace(neuron()[0]))[-1].source


def test_frames_keep_room_for_labels_to_come_so_the_layout_stays_put(draw_calls):
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    drawings = frames(trace((x * x + torch.sin(x) * x).sum()))
    assert all(
        call["edge_labels"].keys() == draw_calls[-1]["edge_labels"].keys() for call in draw_calls
    )

    def centres(drawing):  # where Graphviz puts each box, in points
        layout = pygraphviz.AGraph(string=drawing.source)
        layout.layout(prog="dot")
        return {node: tuple(map(float, node.attr["pos"].split(","))) for node in layout.nodes()}

    last = centres(drawings[-1])
    assert len(last) == 7  # y, four operations, sin, x
    for drawing in drawings:
        for box, (x_position, y_position) in centres(drawing).items():
            assert abs(x_position - last[box][0]) + abs(y_position - last[box][1]) < 10


def test_frames_label_the_two_arrows_of_x_times_x_with_what_each_carried(draw_calls):
    x = torch.tensor(2.0, requires_grad=True)
    steps = trace(x * x)
    frames(steps)
    mul, x_node = steps[0].node, steps[1].node
    assert visible(draw_calls[-1]["edge_labels"]) == {(mul, x_node): ("2.0", "2.0")}


def test_two_arrows_between_the_same_nodes_each_show_what_went_along_it():
    x = torch.tensor(3.0, requires_grad=True)
    last = frames(trace(torch.sub(x, x, alpha=2)))[-1].source  # sends 1 on slot 0, -2 on slot 1
    assert re.search(r"0: </FONT>1\.0>", last) and re.search(r"1: </FONT>-2\.0>", last)
    assert "1.0, -2.0" not in last


def test_frames_follow_the_gradients_and_leave_out_the_final_grads_unless_told(draw_calls):
    a, w, b = neuron()
    trace(a, retain_graph=True)
    steps = trace(a)  # w.grad is 6.0 now, after two passes; this pass sent it 3.0
    default = frames(steps)[-1].source
    told = frames(steps, direction="forward", show_grads=True)[-1].source
    assert (draw_calls[0]["direction"], draw_calls[-1]["direction"]) == ("backward", "forward")
    assert "grad 6.0" not in default and "grad 6.0" in told


def test_a_leaf_shows_the_gradient_it_received_from_the_step_its_accumulate_grad_runs():
    a, w, b = neuron()
    steps = trace(a)
    pictures = frames(steps)
    w_step = next(
        i
        for i, step in enumerate(steps)
        if step.name == "AccumulateGrad" and step.node.variable is w
    )
    for number, picture in enumerate(pictures):
        shown = "grad 3.0" in picture.source  # w received 3.0 = x
        assert shown == (number >= w_step), f"frame {number + 1}"
    assert "grad 1.0" in pictures[-1].source  # and b its 1.0


def shared_input():
    """x * x + x * w with x = 2, w = 3: x's AccumulateGrad gets three gradients from two Nodes."""
    x = torch.tensor(2.0, requires_grad=True)
    w = torch.tensor(3.0, requires_grad=True)
    return x * x + x * w, x, w


def filled(source: str) -> set[str]:
    """The DOT names of the boxes a picture fills as ready to run: an ellipse filled so, or a
    table whose gradient cell is."""
    fill = graph.dot.READY_FILL
    return {
        line.split()[0]
        for line in source.splitlines()
        if f'fillcolor="{fill}"' in line or f'BGCOLOR="{fill}"' in line
    }


def test_a_node_is_pink_from_the_step_its_last_gradient_arrives_until_it_runs():
    y, x, w = shared_input()
    steps = trace(y)
    pictures = frames(steps, {"x": x, "w": w})
    model = graph.build(y, {"x": x, "w": w})
    box = {step.node: model.find(step.node).id for step in steps}
    # The engine counts one gradient per edge into a Node from a Node that runs: a Node is ready
    # once every Node sending to it has run (the first, from the start), until it runs itself.
    for number, picture in enumerate(pictures):
        ran = steps[: number + 1]
        ready = {
            box[step.node]
            for step in steps
            if not any(done.node is step.node for done in ran)
            and all(
                any(done is sender for done in ran)
                for sender in steps
                for node, _ in sender.sent
                if node is step.node
            )
        }
        assert filled(picture.source) == ready, f"frame {number + 1}"
    x_step = next(
        i
        for i, step in enumerate(steps)
        if step.name == "AccumulateGrad" and step.node.variable is x
    )
    later_product = max(i for i, step in enumerate(steps) if step.name == "MulBackward0")
    # x is shared: its cell turns pink only once both products sent theirs, until it runs.
    assert [box[steps[x_step].node] in filled(p.source) for p in pictures] == [
        later_product <= number < x_step for number in range(len(steps))
    ]


def test_a_predicted_pass_opens_with_only_the_first_node_ready():
    y, x, w = shared_input()
    steps = trace(y)
    start = step_through(steps, {"x": x, "w": w}, predict=True)._start
    model = graph.build(y, {"x": x, "w": w})
    assert filled(graph.to_dot(model)) == set()  # a picture of no pass is never pink
    assert f'fill="{graph.dot.READY_FILL}"' in start
    assert start.count(f'fill="{graph.dot.READY_FILL}"') == 1  # the output's Node alone


def test_the_note_below_a_step_picture_says_what_pink_means_in_each_language():
    y, x, w = shared_input()
    english = labels(frames(trace(y))[0].svg())
    with speaking("zh"):
        y, x, w = shared_input()
        chinese = labels(frames(trace(y))[0].svg())
    assert any(line.startswith("Pink: ready to run") for line in english)
    assert any(line.startswith("粉色：可以运行了") for line in chinese)


def test_in_the_view_each_step_marks_the_arrows_its_gradients_travel_along():
    y, x, w = shared_input()
    steps = trace(y)
    source = step_through(steps, {"x": x, "w": w}).view()._source
    for number, step in enumerate(steps, start=1):
        source.go_to(number)
        assert source.shown == number
        moving = re.findall(r'class="edge agv&#45;moving"', source.svg)
        assert len(moving) == len(step.sent), f"step {number}"  # x * x: two arrows, both move
    # Pictures drawn for a page, not the view, carry no such mark.
    assert "agv" not in "".join(picture.source for picture in frames(steps))


def test_drawn_forward_the_moving_arrows_say_they_point_against_the_gradient():
    y, x, w = shared_input()
    steps = trace(y)
    source = step_through(steps, {"x": x, "w": w}, direction="forward").view()._source
    source.go_to(1)
    against = re.findall(r'class="edge agv&#45;moving agv&#45;moving&#45;against"', source.svg)
    assert len(against) == len(steps[0].sent) == 2


def test_a_leaf_shows_no_gradient_word_before_its_gradient_arrives():
    a, w, b = neuron()
    first = frames(trace(a))[0].source  # only the output's Node has run
    # Both leaves' boxes keep the room of the gradient to come, blank: no "grad" alone in red.
    assert not re.search(r">grad\b", first)
    assert re.search(r">grad 3\.0<", frames(trace(neuron()[0]))[-1].source)


def test_a_leaf_whose_accumulate_grad_runs_twice_shows_what_it_received_so_far():
    torch.manual_seed(0)
    w = torch.randn((), requires_grad=True)
    x = torch.randn((), requires_grad=True)
    # w is used inside a reentrant checkpoint and outside it: its AccumulateGrad runs twice.
    y = checkpoint(lambda a: (a * w).sin(), x, use_reentrant=True) * w
    steps = trace(y)
    runs = [i for i, step in enumerate(steps) if step.name == "AccumulateGrad"]
    w_runs = [i for i in runs if steps[i].node.variable is w]
    assert len(w_runs) == 2
    first = steps[w_runs[0]].grads_in[0]
    pictures = frames(steps)
    assert f"grad {first.item():.4g}" in pictures[w_runs[0]].source
    assert f"grad {w.grad.item():.4g}" in pictures[w_runs[1]].source  # the sum, as .grad


CHANGED_SINCE = "value as in the backward pass (changed since)"


def box_of(source: str, name: str) -> str:
    """The DOT line of the box titled ``name``."""
    return next(line for line in source.splitlines() if f"<B>{name}</B>" in line)


def test_a_picture_shows_a_value_as_the_pass_saw_it_and_says_it_changed_since():
    x = torch.tensor(3.0, requires_grad=True)
    y = x * 3  # 9.0 during the pass
    z = y * 2
    steps = trace(z)
    with torch.no_grad():
        y.mul_(2)  # 18.0 now
    for picture in frames(steps):
        box = box_of(picture.source, "y")
        assert "9.0" in box and "18.0" not in box and CHANGED_SINCE in box
        assert CHANGED_SINCE not in box_of(picture.source, "z")  # unchanged: no note


def test_after_an_optimiser_step_a_leaf_shows_the_weights_the_pass_used():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    loss = (w * w).sum()
    steps = trace(loss)
    torch.optim.SGD([w], lr=0.1).step()  # w becomes [0.8, 1.6]
    box = box_of(frames(steps)[-1].source, "w")
    assert "[1.0, 2.0]" in box and "0.8" not in box and CHANGED_SINCE in box


def test_a_picture_without_values_keeps_the_shape_seen_during_the_pass():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    steps = trace((w * w).sum())
    with torch.no_grad():
        w.add_(1)
    box = box_of(frames(steps, show_values=False)[0].source, "w")
    assert "(2,) float32" in box and CHANGED_SINCE in box


def test_in_chinese_a_tensor_changed_since_the_pass_says_so_in_chinese():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    steps = trace((w * w).sum())
    with torch.no_grad():
        w.mul_(3)
    with speaking("zh"):
        box = box_of(frames(steps)[0].source, "w")
        note = graph_captions.caption("changed since the pass")
    assert note in box and "[1.0, 2.0]" in box
    assert_speaks_chinese(note)


def test_pictures_drawn_backward_say_so_in_their_caption():
    a, w, b = neuron()
    assert "Drawn backward" in frames(trace(a))[0].source
    assert "Drawn backward" not in frames(trace(neuron()[0]), direction="forward")[0].source


def test_frames_name_boxes_after_the_callers_variables():
    a, w, b = neuron()
    source = frames(trace(a))[0].source
    assert "<B>w</B>" in source and "<B>b</B>" in source


# --- stepping through ---------------------------------------------------------------------------


def test_step_through_is_a_widget_with_a_static_picture_strip_and_the_table_as_text():
    a, w, b = neuron()
    steps = trace(a)
    view = step_through(steps)
    bundle, _ = view._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html", "application/vnd.jupyter.widget-view+json"}
    assert bundle["text/plain"] == table_text(steps)
    pictures = re.findall(r"<img src='data:image/svg\+xml;base64,([^']+)'", bundle["text/html"])
    assert bundle["text/html"].count("<figure") == len(pictures) == 5
    # The pictures of frames(), each box carrying its id for the view.
    assert labels(base64.b64decode(pictures[2]).decode()) == labels(frames(steps)[2].svg())
    assert 'id="n0"' in base64.b64decode(pictures[2]).decode()


def test_each_picture_has_a_caption_with_the_step_node_and_gradients():
    a, w, b = neuron()
    view = step_through(trace(a))
    frame = view.frame_html(4)
    assert "<b>Step 5 of 5: AccumulateGrad of w</b><br>in: 3.0<br>out: added to w.grad" in frame
    # The caption is the figure's table caption, so it wraps to the picture's width.
    assert "display:table-caption" in frame and "display:table'" in frame


def test_the_step_control_of_the_view_shows_the_picture_and_caption_of_that_step():
    a, w, b = neuron()
    view = step_through(trace(a))
    widget = view.widget()
    assert (widget.steps, widget.step) == (5, 1)
    assert widget.svg == view.pictures[0][view.pictures[0].index("<svg") :].strip()
    assert widget.caption.startswith("Step 1 of 5: ReluBackward0")
    widget.step = 4
    assert widget.svg.startswith("<svg") and "<?xml" not in widget.svg  # inline SVG
    assert widget.svg == view.pictures[3][view.pictures[3].index("<svg") :].strip()
    assert widget.caption.startswith("Step 4 of 5:")


def test_a_click_on_a_node_in_the_view_reads_what_it_received_and_sent_so_far():
    a, w, b = neuron()
    steps = trace(a)
    view = step_through(steps)
    explorer = view.view()
    mul = next(node for node in explorer._source.picture.nodes if node.title == "MulBackward0")
    number = next(i for i, step in enumerate(steps, 1) if step.name == "MulBackward0")
    explorer._source.go_to(number - 1)
    before = explorer.read(mul.id)["sections"][0]
    assert before["rows"] == [[f"step {number}", "runs after the step shown"]]
    explorer._source.go_to(number)
    after = dict(explorer.read(mul.id)["sections"][0]["rows"])
    _, _, received, sent = view.rows[number - 1]
    assert after == {f"step {number}, received": received, f"step {number}, sent": sent}


def test_step_through_shows_the_same_text_and_html_on_every_run():
    def shown():
        a, w, b = neuron()
        bundle, _ = step_through(trace(a))._repr_mimebundle_()
        return bundle["text/plain"], bundle["text/html"]

    first, second = shown(), shown()
    assert first == second
    assert not re.search(r"0x[0-9a-fA-F]{6,}", first[0] + first[1])  # no memory addresses


def test_a_long_trace_is_shown_as_the_table_with_a_note_and_no_pictures(draw_calls):
    steps = trace(chain(MAX_FRAMES + 1))
    view = step_through(steps)
    bundle, _ = view._repr_mimebundle_()
    assert draw_calls == [] and len(view) == 0 and view.widget() is None
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/plain"].startswith(f"This backward pass ran {MAX_FRAMES + 1} nodes")
    assert f"pictures are drawn for at most {MAX_FRAMES}" in bundle["text/html"]
    assert "<table>" in bundle["text/html"]


def test_without_anywidget_step_through_shows_the_picture_strip(monkeypatch):
    monkeypatch.setitem(sys.modules, "anywidget", None)  # makes `import anywidget` fail
    a, w, b = neuron()
    bundle, _ = step_through(trace(a))._repr_mimebundle_()
    assert set(bundle) == {"text/plain", "text/html"}
    assert bundle["text/html"].count("<figure") == 5


def test_in_a_notebook_the_stored_outputs_are_the_same_on_every_run(tmp_path):
    """What nbval compares (every output but the widget's model id) does not change between runs."""
    source = (
        "import torch\n"
        "from helpers.backward import trace\n"
        "from helpers.backward_view import step_through\n"
        "w = torch.tensor(2.0, requires_grad=True)\n"
        "b = torch.tensor(1.0, requires_grad=True)\n"
        "a = torch.relu(w * 3.0 + b)\n"
        "steps = trace(a)"
    )

    def outputs():
        notebook = nbformat.v4.new_notebook()
        cells = (source, "steps", "step_through(steps)")
        notebook.cells = [nbformat.v4.new_code_cell(cell) for cell in cells]
        resources = {"metadata": {"path": str(tmp_path)}}
        NotebookClient(notebook, kernel_name="python3", timeout=120, resources=resources).execute()
        return [cell.outputs for cell in notebook.cells]

    first, second = outputs(), outputs()
    widget = "application/vnd.jupyter.widget-view+json"
    stepping = first[2][0]["data"]
    assert {"text/plain", "text/html", widget} <= set(stepping)
    for run in (first, second):
        run[2][0]["data"].pop(widget)
    assert first == second
    assert "AccumulateGrad of w" in first[1][0]["data"]["text/plain"]


# --- in Chinese ---------------------------------------------------------------------------------


def test_in_chinese_the_table_speaks_chinese_and_keeps_pytorchs_names():
    a, w, b = neuron()
    with speaking("zh"):
        text = table_text(trace(a))
    assert text == "\n".join(
        [
            "步  节点                 传入的梯度  传出的梯度",
            "1   ReluBackward0        1.0         1.0 → AddBackward0（第 2 步）",
            "2   AddBackward0         1.0         1.0 → MulBackward0（第 4 步），"
            "1.0 → b 的 AccumulateGrad（第 3 步）",
            "3   b 的 AccumulateGrad  1.0         加到 b.grad 上",
            "4   MulBackward0         1.0         3.0 → w 的 AccumulateGrad（第 5 步）",
            "5   w 的 AccumulateGrad  3.0         加到 w.grad 上",
        ]
    )


def display_width(text):
    """Columns in a monospace font: a Chinese character takes two."""
    return sum(2 if "\u4e00" <= character <= "\u9fff" else 1 for character in text)


def test_in_chinese_the_columns_line_up_in_a_monospace_font():
    # Padding by len() would shift every column after a Chinese name (b 的 AccumulateGrad).
    a, w, b = neuron()
    with speaking("zh"):
        header, *rows = table_text(trace(a)).splitlines()
    where_gradients_start = display_width(header.split("传入的梯度")[0])
    for row in rows[:4]:  # each of these rows receives 1.0
        assert display_width(row.split("1.0")[0]) == where_gradients_start, row


class _NodeWithoutInputs:
    """Stands for a node none of whose inputs needs a gradient: it sends nothing on."""

    next_functions = ((None, 0),)

    def name(self):
        return "SinkBackward0"


def sink_trace():
    node = _NodeWithoutInputs()
    step = Step(node, node.name(), (torch.tensor(1.0),), (None,))
    return Trace(torch.tensor(1.0), [step])


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "nothing: no input needs a gradient"), ("zh", "无：没有输入需要梯度")],
)
def test_a_node_that_sends_nothing_says_why(language, said):
    with speaking(language):
        assert table_text(sink_trace()).splitlines()[1].endswith(said)


def test_in_chinese_a_leaf_without_a_name_is_the_leaf():
    with speaking("zh"):
        text = table_text(trace(neuron()[0]))
    assert "加到叶子张量的 .grad 上" in text


def test_in_chinese_a_hook_that_changed_a_gradient_is_shown_as_a_hook():
    a, w, b = neuron()
    a.register_hook(lambda grad: grad * 0)
    with speaking("zh"):
        text = table_text(trace(a))
    assert "1.0 → 钩子 → 0.0" in text


def test_in_chinese_a_long_table_says_how_many_steps_are_left_out():
    with speaking("zh"):
        text = table_text(trace(chain(200)))
    assert re.search(r"^…\s+另有 141 步未列出$", text, re.MULTILINE)


def test_in_chinese_each_picture_has_a_chinese_caption():
    a, w, b = neuron()
    with speaking("zh"):
        view = step_through(trace(a))
        frame = view.frame_html(4)
        strip = view.static_html()
    assert (
        "<b>第 5 步（共 5 步）：w 的 AccumulateGrad</b><br>传入：3.0<br>传出：加到 w.grad 上"
        in frame
    )
    assert "alt='自动求导计算图'" in strip


def test_in_chinese_the_step_control_is_labelled_in_chinese():
    a, w, b = neuron()
    with speaking("zh"):
        widget = step_through(trace(a)).widget()
    assert (widget.texts["step"], widget.texts["play"]) == ("步", "播放")
    assert widget.caption.startswith("第 1 步（共 5 步）")


def test_in_chinese_a_long_trace_gets_its_note_in_chinese(draw_calls):
    with speaking("zh"):
        bundle, _ = step_through(trace(chain(MAX_FRAMES + 1)))._repr_mimebundle_()
    assert bundle["text/plain"].startswith(f"这次反向传播运行了 {MAX_FRAMES + 1} 个节点")
    assert f"图最多只画 {MAX_FRAMES} 步" in bundle["text/html"]
    assert "<th style='text-align:left'>传入的梯度</th>" in bundle["text/html"]


def test_in_chinese_the_table_html_has_chinese_headers():
    a, w, b = neuron()
    with speaking("zh"):
        markup = table_html(trace(a))
    assert "<th style='text-align:left'>步</th>" in markup and "加到 w.grad 上" in markup


def test_every_chinese_word_is_chinese():
    for key, entry in MESSAGES.texts.items():
        text = entry["zh"]
        if key != "between":  # the separator between gradients is punctuation
            assert re.search(r"[\u4e00-\u9fff]", text), (key, text)
        assert not re.search(r"[A-Za-z]{3,}(?: [A-Za-z]+){2,}", text), (key, text)


def test_english_stays_the_default_after_a_chinese_table():
    a, w, b = neuron()
    steps = trace(a)
    with speaking("zh"):
        table_text(steps)
    assert table_text(steps).startswith("step  node")


def test_frames_refuse_a_trace_too_long_to_read_and_point_to_the_table():
    steps = trace(chain(backward_view.MAX_FRAMES + 5))
    with pytest.raises(ValueError, match=r"at most 40 pictures.*table"):
        frames(steps)


def test_every_frame_carries_one_estimate_of_its_layout():
    a, w, b = neuron()
    drawings = frames(trace(a))
    estimates = {drawing.estimated_seconds for drawing in drawings}
    assert len(estimates) == 1 and estimates.pop() > 0

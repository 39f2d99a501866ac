"""The graph's interactive view (helpers.view, helpers.graph.panel and .explore), in the kernel.

The browser side (dragging, zooming, clicking in JupyterLab) is tests/test_explore_browser.py;
here, what the kernel answers: the picture and its box ids, the side panel's numbers, folding
and unfolding, what every output carries for where the view cannot run, and that the view
keeps no graph alive once its tensors are gone.
"""

from __future__ import annotations

import gc
import re
import sys
import weakref

import pytest
import torch
from torch import nn

from helpers import seen_nodes
from helpers.graph import Drawing, Explorer, draw, explore, recording
from helpers.graph.model import format_number, norm
from helpers.graph.panel import PANEL_TEXTS
from helpers.language import speaking
from helpers.view.widget import SCRIPT_PARTS, made_widget_class, script

WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


class Block(nn.Module):
    def __init__(self, width: int = 4) -> None:
        super().__init__()
        self.norm = nn.LayerNorm(width)
        self.linear = nn.Linear(width, width)

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        return x + self.linear(self.norm(x)).tanh()


def recorded(blocks: int = 8, backward: bool = True, width: int = 4):
    """A loss behind ``blocks`` residual blocks, recorded: big enough to be drawn folded. Blocks
    wider than 4 are built alike (a picture shows the values of smaller tensors, which differ)."""
    torch.manual_seed(0)
    model = nn.Sequential(*[Block(width) for _ in range(blocks)])
    w = torch.linspace(-1, 1, 3 * width).reshape(3, width).requires_grad_()
    with recording(model):
        loss = (model(w) ** 2).mean()
    if backward:
        loss.backward()
    return model, w, loss


def small():
    w = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
    x = torch.tensor([1.0, 2.0])
    y = (w @ x).tanh().sum()
    return w, y


def box_named(view: Explorer, title: str) -> str:
    return next(node.id for node in view._source.picture.nodes if node.title == title)


def rows(details: dict, heading: str) -> dict[str, str]:
    section = next(s for s in details["sections"] if s["heading"] == heading)
    return dict(section["rows"])


def svg_texts(svg: str) -> list[str]:
    return sorted(re.findall(r"<text[^>]*>([^<]*)</text>", svg))


# --- the picture ---------------------------------------------------------------------------------


def test_explore_shows_the_picture_draw_makes_with_an_id_on_every_box():
    _, _, loss = recorded()
    view = explore(loss)
    assert svg_texts(view.svg()) == svg_texts(draw(loss).svg())
    ids = re.findall(r'<g id="([^"]+)" class="node"', view.svg())
    assert sorted(ids) == sorted(node.id for node in view._source.picture.nodes)
    frames = re.findall(r'<g id="([^"]+)" class="cluster"', view.svg())
    assert frames and all(re.fullmatch(r"f\d+", frame) for frame in frames)


def test_the_view_shows_the_caption_below_the_picture_and_says_how_to_unfold_with_a_click():
    _, _, loss = recorded()
    view = explore(loss)
    assert "Folded by module" in view.svg()  # where the view cannot run: draw's caption
    widget_svg = view._source.svg
    assert "Folded by module" not in widget_svg
    assert "Click one to unfold it" in view._source.caption


def test_every_output_carries_the_picture_as_svg_and_as_an_image_for_where_widgets_cannot_run():
    w, y = small()
    bundle, _ = explore(y)._repr_mimebundle_()
    assert {"text/plain", "text/html", "image/svg+xml", WIDGET_VIEW} <= set(bundle)
    assert bundle["image/svg+xml"].startswith("<svg")
    assert bundle["text/html"].startswith("<img src='data:image/svg+xml;base64,")


def test_what_nbval_compares_is_the_same_on_every_run():
    def shown():
        w, y = small()
        bundle, _ = explore(y)._repr_mimebundle_()
        html = re.sub(r"data:image/svg\+xml;base64,[A-Za-z0-9+/=]+", "PICTURE", bundle["text/html"])
        return bundle["text/plain"], html

    assert shown() == shown()


def test_without_anywidget_the_output_is_the_picture_alone(monkeypatch):
    monkeypatch.setitem(sys.modules, "anywidget", None)
    w, y = small()
    bundle, _ = explore(y)._repr_mimebundle_()
    assert WIDGET_VIEW not in bundle and "image/svg+xml" in bundle


def test_the_widget_runs_the_script_shipped_with_the_package():
    assert made_widget_class()._esm == script()
    # One module: only its last part, the view, exports.
    exports = [part.name for part in SCRIPT_PARTS if "export " in part.read_text(encoding="utf-8")]
    assert exports == ["view.js"] and script().rstrip().endswith("export default { render };")


def test_the_payload_of_a_small_models_view_is_small():
    _, _, loss = recorded()
    view = explore(loss)
    bundle, _ = view._repr_mimebundle_()
    widget = view.widget()
    state = sum(len(str(getattr(widget, name))) for name in ("svg", "index", "texts", "caption"))
    total = sum(len(str(value)) for value in bundle.values()) + state + len(widget._esm)
    assert total < 200_000


# --- reading a box -----------------------------------------------------------------------------


def test_reading_a_leaf_gives_its_value_and_its_gradient_as_pytorch_computes_them():
    w, y = small()
    y.backward()
    view = explore(y)
    details = view.read(box_named(view, "w"))
    assert details["title"] == "w"
    value, grad = rows(details, "value"), rows(details, "gradient (.grad)")
    assert (value["shape"], value["dtype"], value["device"]) == ("(2, 2)", "float32", "cpu")
    assert value["min"] == "-2.0" and value["max"] == "4.0" and value["mean"] == "1.5"
    assert grad["norm"] == format_number(float(w.grad.double().norm()))
    assert grad["max"] == format_number(float(w.grad.max()))
    assert (
        grad["first values"] == "[" + ", ".join(map(format_number, w.grad.flatten().tolist())) + "]"
    )
    assert value["nan"] == value["inf"] == "0"


def test_a_tensor_with_nan_and_inf_counts_them():
    w = torch.tensor([1.0, float("nan"), float("inf"), float("-inf")], requires_grad=True)
    y = (w * 2).sum()
    view = explore(y)
    value = rows(view.read(box_named(view, "w")), "value")
    assert (value["nan"], value["inf"]) == ("1", "2")


def test_a_leaf_before_backward_says_it_has_no_gradient_yet():
    w, y = small()
    view = explore(y)
    section = next(s for s in view.read(box_named(view, "w"))["sections"] if "grad" in s["heading"])
    assert section["text"] == PANEL_TEXTS.say("no grad yet")


def test_reading_an_op_names_where_it_sends_its_gradients_and_what_it_saved():
    w, y = small()
    view = explore(y)
    details = view.read(box_named(view, "MvBackward0"))
    assert rows(details, "sends its gradient to (next_functions)") == {
        "0": "AccumulateGrad (w)",
        "1": "nothing: that input does not require grad",
    }
    assert rows(details, "saved for backward") == {"vec": "(2,) float32, version 0"}


def test_after_backward_an_op_says_its_saved_tensors_were_freed():
    w, y = small()
    y.backward()
    view = explore(y)
    saved = rows(view.read(box_named(view, "MvBackward0")), "saved for backward")
    assert saved == {"vec": "freed by backward()"}  # w @ x keeps x for w's gradient


def test_a_losss_saved_arguments_are_listed_apart_from_its_tensors_and_signed():
    # NLLLoss saves ignore_index=-100, which PyTorch hands to Python as 2**64 - 100.
    logits = torch.randn(3, 4, requires_grad=True)
    loss = torch.nn.functional.cross_entropy(logits, torch.tensor([0, 2, 1]))
    view = explore(loss)
    details = view.read(box_named(view, "NllLossBackward0"))
    tensors, values = rows(details, "saved for backward"), rows(details, "other values saved")
    assert "ignore_index" not in tensors and "self" in tensors
    assert values["ignore_index"] == "-100"


def test_a_saved_tensor_changed_in_place_says_so_with_both_versions():
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    h = w * 1.0
    y = (h * h).sum()
    with torch.no_grad():
        h.add_(1)
    view = explore(y)
    op = next(n.id for n in view._source.picture.nodes if n.title == "MulBackward0" and n.id != "n")
    saved = rows(view.read(op), "saved for backward")
    said = PANEL_TEXTS.say("changed in place", now=1, saved=0)
    assert saved == {"self": said, "other": said}


def test_an_op_of_a_recorded_model_names_its_module_and_line():
    _, _, loss = recorded(blocks=1)
    view = explore(loss)
    tanh = box_named(view, "TanhBackward0")
    made = rows(view.read(tanh), "made by")
    assert made["module"] == "0"
    assert "self.linear(self.norm(x)).tanh()" in made["line"]


# --- folding and unfolding ---------------------------------------------------------------------


def test_a_click_on_a_folded_module_unfolds_it_and_a_click_on_its_frame_folds_it_again():
    _, _, loss = recorded()
    view = explore(loss)
    before = view.boxes
    module = box_named(view, "3.linear · Linear")
    details, focus = view._source.click(module)
    assert view.boxes > before
    assert details["title"] == "3.linear · Linear"
    assert details["action"]["label"] == "Fold 3.linear"
    assert focus == details["action"]["box"] and focus.startswith("f")
    details, focus = view._source.click(focus)
    assert view.boxes == before and details["action"]["label"] == "Unfold 3.linear"


def test_unfold_and_fold_by_path_redraw_the_picture():
    _, _, loss = recorded()
    view = explore(loss)
    before = view.svg()
    view.unfold("3.linear")
    assert "3.linear · Linear" in re.findall(
        r'class="cluster">.*?<text[^>]*>([^<]*)', view.svg(), re.S
    )
    view.fold("3.linear")
    assert svg_texts(view.svg()) == svg_texts(before)
    with pytest.raises(ValueError, match="No module 'nowhere'"):
        view.unfold("nowhere")


def test_a_search_for_a_name_folded_away_finds_the_box_that_holds_it_and_reveal_unfolds_it():
    model, w, loss = recorded()
    view = explore(loss)
    entries = {entry[0]: entry for entry in view._source.index()}
    name, box, kind, holder = entries["model.5.linear.weight"]
    assert kind == "leaf" and holder == box_named(view, "5.linear · Linear")
    details, focus = view._source.reveal(box)
    assert focus == box and details["title"] == "model.5.linear.weight"
    assert box in {node.id for node in view._source.picture.nodes}


def test_a_run_of_blocks_built_alike_opens_into_its_blocks():
    _, _, loss = recorded(blocks=20, width=8)
    view = explore(loss)
    run = next(n for n in view._source.picture.nodes if n.kind == "module" and "–" in n.title)
    paths = view._source.picture.module_boxes[run.id]
    view._source.click(run.id)
    shown = {p for paths in view._source.picture.module_boxes.values() for p in paths}
    assert set(paths) <= shown
    assert all(len(paths) == 1 for paths in view._source.picture.module_boxes.values())


def test_refresh_draws_the_gradients_that_backward_computed_since():
    _, w, loss = recorded(backward=False)
    view = explore(loss)
    assert "grad norm" not in view.svg()
    loss.backward()
    assert view._source.refresh() is None
    assert "grad norm" in view.svg()


def test_the_widget_answers_a_click_with_the_panel_and_the_new_picture():
    _, _, loss = recorded()
    view = explore(loss)
    widget = view.widget()
    sent = []
    widget.send = sent.append
    view._answer(widget, {"kind": "click", "box": box_named(view, "2.linear · Linear")})
    kinds = [message["kind"] for message in sent]
    assert kinds == ["details", "focus"]
    assert widget.svg == view._source.svg and "2.linear · Linear" in widget.svg


# --- memory: the view keeps no graph alive ----------------------------------------------------


def test_the_view_lets_go_of_the_graph_with_its_tensors():
    w = torch.randn(1000, requires_grad=True)
    activation = torch.sin(w)  # saved by the next op, held only by the graph once named away
    watched = weakref.ref(activation)
    loss = (activation * activation).sum()
    del activation
    view = explore(loss)
    held = watched() is not None  # (pytest would keep what an assert's expression shows)
    assert held
    del loss
    # Before 3.13, Python keeps a snapshot of a function's variables once something has read
    # them (explore did, for names), and refreshes it only when they are read again.
    sys._getframe().f_locals  # noqa: B018
    gc.collect()
    seen_nodes.let_go()
    assert watched() is None, "the view kept the graph (and what it saved) alive"
    assert view.read("n0")["title"] == PANEL_TEXTS.say("gone title")


def test_a_drawing_made_by_draw_explores_its_graph_and_one_of_dot_text_cannot():
    w, y = small()
    assert isinstance(draw(y).explore(), Explorer)
    with pytest.raises(TypeError, match="Only a Drawing made by draw"):
        Drawing("digraph { a -> b }").explore()


# --- in Chinese ----------------------------------------------------------------------------------


def test_in_chinese_the_panel_and_the_view_speak_chinese():
    w, y = small()
    with speaking("zh"):
        view = explore(y)
        details = view.read(box_named(view, "w"))
        texts = view.widget().texts
    assert details["sections"][0]["heading"] == "值"
    assert dict(details["sections"][0]["rows"])["形状"] == "(2, 2)"
    assert texts["search"] == "查找名字…" and texts["fit"] == "全图"
    assert "{query}" in texts["no match"]


def test_the_norm_of_tens_of_millions_of_numbers_is_exact_to_seven_digits():
    # PyTorch's float32 norm of this many numbers is off in the third digit.
    numbers = torch.randn(50_257, 768, generator=torch.Generator().manual_seed(0)) * 3 + 0.5
    exact = float(torch.linalg.vector_norm(numbers.double()))
    assert norm(numbers) == pytest.approx(exact, rel=1e-6)
    assert norm(torch.tensor(3.0)) == 3.0 and norm(torch.tensor([3, 4])) == 5.0

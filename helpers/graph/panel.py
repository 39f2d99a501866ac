"""What the side panel of a graph's view says about a box, and what a search looks through.

A click on a box of `explore`'s picture, or of a traced pass's (`helpers.backward_view`), is
answered here: for a tensor its shape, dtype, device, statistics, first values and gradient;
for an op the module and the line of code that made it, where it sends its gradients, and what
it saved for its backward; for a module its parameters and their gradients' norms, and the
button that folds or unfolds it. `PictureSource` is what every source of a graph's pictures
shares: the view (`helpers.view`) asks it how many boxes there are and what a search finds.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import torch

from helpers.graph.model import (
    LEAF,
    MODULE,
    OP,
    OUTPUT,
    SAVED,
    SUMMARY,
    TENSOR,
    Graph,
    GraphNode,
    describe,
    format_number,
    norm,
    saved_slots,
    version_of,
)
from helpers.graph.modules import Modules
from helpers.graph.recording import made_by
from helpers.language import Catalogue
from helpers.view import Source

# A tensor's first numbers the side panel shows.
FIRST_VALUES = 6
# The most parameters a module's panel lists one by one.
LISTED_PARAMETERS = 12
# The most names a search looks through: every box drawn, and named tensors folded away.
SEARCHED = 5_000

_TEXTS = {
    # What the kernel says in the side panel.
    "gone title": {"en": "This graph is gone", "zh": "这张计算图已经不在了"},
    "gone": {
        "en": "The tensors this picture was drawn from no longer exist (a variable was assigned "
        "again, or deleted): run explore(...) again to look at the graph you have now.",
        "zh": "画这张图所用的张量已经不存在了（某个变量被重新赋值或删除了）："
        "请再运行一次 explore(...)，查看你现在的计算图。",
    },
    "no such box": {
        "en": "No box has this id in the picture shown now.",
        "zh": "现在显示的图里没有这个 id 的方框。",
    },
    "kind leaf": {
        "en": "leaf tensor: backward() adds its gradient to .grad",
        "zh": "叶子张量：backward() 把它的梯度累加到 .grad",
    },
    "kind tensor": {"en": "tensor computed by an op", "zh": "由操作算出的张量"},
    "kind output": {
        "en": "output: where the backward pass starts",
        "zh": "输出：反向传播从这里开始",
    },
    "kind op": {
        "en": "autograd Node: the backward of one operation",
        "zh": "autograd 节点：一个操作的反向计算",
    },
    "kind saved": {"en": "a tensor an op saved for its backward", "zh": "操作为反向计算保存的张量"},
    "kind summary": {
        "en": "the Nodes max_nodes left out: explore(..., max_nodes=...) draws more",
        "zh": "被 max_nodes 省略的节点：explore(..., max_nodes=...) 可以画出更多",
    },
    "kind module": {"en": "module of your model", "zh": "你模型里的模块"},
    "value": {"en": "value", "zh": "值"},
    "gradient": {"en": "gradient (.grad)", "zh": "梯度（.grad）"},
    "shape": {"en": "shape", "zh": "形状"},
    "dtype": {"en": "dtype", "zh": "数据类型"},
    "device": {"en": "device", "zh": "设备"},
    "min": {"en": "min", "zh": "最小值"},
    "max": {"en": "max", "zh": "最大值"},
    "mean": {"en": "mean", "zh": "平均值"},
    "norm": {"en": "norm", "zh": "范数"},
    "nan": {"en": "nan", "zh": "nan 个数"},
    "inf": {"en": "inf", "zh": "inf 个数"},
    "first values": {"en": "first values", "zh": "前几个值"},
    "version": {"en": "version", "zh": "版本"},
    "tensor gone": {
        "en": "This tensor no longer exists: only its box is left.",
        "zh": "这个张量已经不存在了，只剩下它的方框。",
    },
    "no grad needed": {
        "en": "none: this tensor does not require grad.",
        "zh": "没有：这个张量不需要梯度。",
    },
    "grad not kept": {
        "en": "not kept: PyTorch keeps .grad for leaves only; x.retain_grad() before "
        "backward() keeps this one's.",
        "zh": "没有保留：PyTorch 只为叶子张量保留 .grad；在 backward() 之前调用 "
        "x.retain_grad() 就能保留它的梯度。",
    },
    "no grad yet": {
        "en": "none yet: backward() has not reached it (↻ draws again after backward()).",
        "zh": "还没有：backward() 还没有到达它（backward() 之后点 ↻ 重画）。",
    },
    "made by": {"en": "made by", "zh": "由谁生成"},
    "module": {"en": "module", "zh": "模块"},
    "no module": {"en": "no module", "zh": "不属于任何模块"},
    "the model": {"en": "the model", "zh": "整个模型"},
    "parameter": {"en": "parameter", "zh": "参数"},
    "line": {"en": "line", "zh": "前向代码行"},
    "sends to": {
        "en": "sends its gradient to (next_functions)",
        "zh": "把梯度传给（next_functions）",
    },
    "no gradient goes": {
        "en": "nothing: that input does not require grad",
        "zh": "不传：那个输入不需要梯度",
    },
    "not drawn": {"en": "{name} (not in the picture)", "zh": "{name}（不在图中）"},
    "inside": {"en": "{name}, inside {box}", "zh": "{name}，在 {box} 里"},
    "saved": {"en": "saved for backward", "zh": "为反向传播保存的张量"},
    "saved values": {"en": "other values saved", "zh": "保存的其他值"},
    "saved nothing": {"en": "nothing", "zh": "没有"},
    "saved tensor": {"en": "{tensor}, version {version}", "zh": "{tensor}，版本 {version}"},
    "freed": {"en": "freed by backward()", "zh": "已被 backward() 释放"},
    "changed in place": {
        "en": "changed in place since it was saved (version {now}, saved at {saved}): "
        "backward() would fail",
        "zh": "保存之后被原地修改过（现在是版本 {now}，保存时是版本 {saved}）：backward() 会失败",
    },
    "parameters": {"en": "parameters", "zh": "参数个数"},
    "nodes inside": {"en": "autograd Nodes", "zh": "autograd 节点数"},
    "parameter list": {"en": "its parameters", "zh": "它的参数"},
    "with grad norm": {
        "en": "{tensor}, grad norm {norm}",
        "zh": "{tensor}，梯度范数 {norm}",
    },
    "more parameters": {"en": "{more:,} more", "zh": "另有 {more:,} 个"},
    "unfold": {"en": "Unfold {path}", "zh": "展开 {path}"},
    "fold": {"en": "Fold {path}", "zh": "折叠 {path}"},
}
PANEL_TEXTS = Catalogue("helpers.graph.panel", _TEXTS)
say = PANEL_TEXTS.say


@dataclass(frozen=True)
class Walked:
    """One walk of the graph, as the view draws it: the model of every Node (`build_graph`),
    the module of each box, and the folding the picture shows now (modules folded, and folded
    modules kept out of runs of blocks)."""

    model: Graph
    modules: Modules
    folded: frozenset[str]
    apart: frozenset[str]


class PictureSource(Source):
    """A source of pictures of a graph: ``picture`` is the one shown now, as a model without
    its Nodes (`without_nodes`)."""

    picture: Graph

    @property
    def boxes(self) -> int:
        return len(self.picture.nodes)

    def index(self) -> list[list[str]]:
        return search_index(self.picture)


def without_nodes(picture: Graph) -> Graph:
    """``picture`` without the autograd Nodes its boxes hold: what a view keeps of a picture
    for as long as it is shown (ids, titles, kinds, frames), which keeps no graph alive."""
    boxes = [replace(node, fn=None) if node.fn is not None else node for node in picture.nodes]
    return replace(picture, nodes=boxes, hidden=[])


def gone() -> dict[str, Any]:
    return {"title": say("gone title"), "sections": [text_section(say("gone"))]}


def box_of(picture: Graph, box: str) -> GraphNode | None:
    return next((node for node in picture.nodes if node.id == box), None)


def frame_of(picture: Graph, box: str) -> Any:
    if re.fullmatch(r"f\d+", box) and int(box[1:]) < len(picture.frames):
        return picture.frames[int(box[1:])]
    return None


def home_of(picture: Graph) -> str:
    """The box the view opens at: the first output's, else the last box."""
    outputs = [node.id for node in picture.nodes if node.kind == OUTPUT and not node.same_as]
    return outputs[0] if outputs else (picture.nodes[-1].id if picture.nodes else "")


def search_index(picture: Graph, walked: Walked | None = None) -> list[list[str]]:
    """What a search of the view looks through (`Source.index`)."""
    entries = [
        [node.title, node.id, node.kind, ""]
        for node in picture.nodes
        if node.title and not node.same_as
    ]
    if walked is not None:
        for node in walked.model.nodes:
            holder = picture.folded_into.get(node.id)
            if holder and node.title and node.kind in (LEAF, TENSOR, OUTPUT):
                entries.append([node.title, node.id, node.kind, holder])
    return entries[:SEARCHED]


# --- what the side panel says about a box ------------------------------------------------------


def read_box(picture: Graph, walked: Walked, box: str, foldable: bool = True) -> dict[str, Any]:
    """What the side panel shows for box ``box`` of ``picture``: a title, a line on what the box
    is, and sections of rows (label, value) or a sentence each; for a module, a button that
    folds or unfolds it, where the view can (``foldable``)."""
    node = box_of(picture, box)
    frame = frame_of(picture, box)
    if frame is not None:
        return module_details(picture, walked, (frame.path,), foldable)
    if node is None:
        node = next((n for n in walked.model.nodes if n.id == box), None)
        if node is None:
            return {"title": box, "sections": [text_section(say("no such box"))]}
    if node.same_as is not None:
        full = box_of(picture, node.same_as)
        node = full if full is not None else node
    if node.kind == MODULE:
        return module_details(picture, walked, picture.module_boxes.get(node.id, ()), foldable)
    if node.kind == SUMMARY:
        return {"title": node.title, "subtitle": say("kind summary"), "sections": []}
    if node.kind == SAVED:
        rows = [[say("value"), node.value]]
        return {"title": node.title, "subtitle": say("kind saved"), "sections": [_rows("", rows)]}
    if node.kind == OP:
        return _op_details(node, picture, walked)
    return _tensor_details(node)


def _tensor_details(node: GraphNode) -> dict[str, Any]:
    tensor = _tensor_of(node)
    kind = {LEAF: "kind leaf", TENSOR: "kind tensor", OUTPUT: "kind output"}[node.kind]
    title = node.title or node.value
    if tensor is None:
        return {
            "title": title,
            "subtitle": say(kind),
            "sections": [text_section(say("tensor gone"))],
        }
    sections = [_rows(say("value"), tensor_rows(tensor))]
    sections.append(_gradient_section(tensor))
    label = made_by(node.fn) if node.fn is not None else None
    if label is not None and label.parameter:
        rows = [
            [say("module"), label.module or say("the model")],
            [say("parameter"), label.parameter],
        ]
        sections.append(_rows(say("made by"), rows))
    return {"title": title, "subtitle": say(kind), "sections": sections}


def _tensor_of(node: GraphNode) -> torch.Tensor | None:
    leaf = getattr(node.fn, "variable", None) if node.fn is not None else None
    if isinstance(leaf, torch.Tensor):
        return leaf
    return node.tensor() if node.tensor is not None else None


def _gradient_section(tensor: torch.Tensor) -> dict[str, Any]:
    heading = say("gradient")
    if not tensor.requires_grad:
        return text_section(say("no grad needed"), heading)
    if not (tensor.is_leaf or tensor.retains_grad):
        return text_section(say("grad not kept"), heading)
    if tensor.grad is None:
        return text_section(say("no grad yet"), heading)
    return _rows(heading, tensor_rows(tensor.grad))


def _op_details(node: GraphNode, picture: Graph, walked: Walked) -> dict[str, Any]:
    fn = node.fn
    sections = []
    label = made_by(fn)
    if label is not None:
        rows = [[say("module"), label.module if label.module is not None else say("no module")]]
        if label.code is not None:
            rows.append([say("line"), f"{Path(label.file).name}:{label.line}: {label.code}"])
        sections.append(_rows(say("made by"), rows))
    sections.append(_rows(say("sends to"), _next_rows(fn, picture, walked)))
    sections.extend(saved_sections(fn))
    return {"title": node.title, "subtitle": say("kind op"), "sections": sections}


def _next_rows(fn: Any, picture: Graph, walked: Walked) -> list[list[str]]:
    """For each input of the op (each entry of ``next_functions``), the box its gradient goes
    to: drawn, inside a folded module, or left out of the picture."""
    boxes = {id(node.fn): node for node in walked.model.nodes if node.fn is not None}
    rows = []
    for slot, (next_fn, _) in enumerate(fn.next_functions):
        if next_fn is None:
            rows.append([str(slot), say("no gradient goes")])
            continue
        box = boxes.get(id(next_fn))
        name = box.title if box is not None and box.title else type(next_fn).__name__
        if box is not None and box.kind in (LEAF, OUTPUT) and box.title:
            name = f"{type(next_fn).__name__} ({box.title})"
        holder = picture.folded_into.get(box.id) if box is not None else None
        if box is None:
            name = say("not drawn", name=name)
        elif holder is not None:
            name = say("inside", name=name, box=_title_of(picture, holder))
        rows.append([str(slot), name])
    return rows


def _title_of(picture: Graph, box: str) -> str:
    node = box_of(picture, box)
    return node.title if node is not None else box


def saved_sections(fn: Any) -> list[dict[str, Any]]:
    """What the op saved for its backward: each tensor with its shape and version, and whether
    backward freed it or an in-place change spoiled it; then the other values it kept (a loss's
    ``ignore_index``, a dimension), apart, since they are not tensors."""
    tensors, values = [], []
    for slot_name, read in saved_slots(fn):
        try:
            value = read()
        except RuntimeError as error:
            tensors.append([slot_name, _unreadable(str(error))])
            continue
        items = value if isinstance(value, (list, tuple)) else [value]
        named = (
            [(f"{slot_name}[{i}]", v) for i, v in enumerate(items)]
            if len(items) > 1
            else [(slot_name, items[0] if items else value)]
        )
        for name, item in named:
            if isinstance(item, torch.Tensor):
                version = version_of(item)
                text = describe(item, show_values=False)
                if version is not None:
                    text = say("saved tensor", tensor=text, version=version)
                tensors.append([name, text])
            elif item is not None:
                values.append([name, " ".join(str(_signed(item)).split())[:80]])
    heading = say("saved")
    sections = [_rows(heading, tensors) if tensors else text_section(say("saved nothing"), heading)]
    if values:
        sections.append(_rows(say("saved values"), values))
    return sections


def _signed(value: Any) -> Any:
    # PyTorch hands a saved int64 to Python as unsigned: NLLLoss's ignore_index=-100 reads
    # 18446744073709551516. No saved size or index is near 2**63, so a larger one is negative.
    if isinstance(value, int) and not isinstance(value, bool) and value >= 2**63:
        return value - 2**64
    return value


def _unreadable(error: str) -> str:
    """Why PyTorch would not give a saved tensor back: freed by backward(), or changed in place
    since it was saved (its error names both versions)."""
    versions = re.search(r"is at version (\d+); expected version (\d+)", error)
    if versions:
        return say("changed in place", now=versions.group(1), saved=versions.group(2))
    return say("freed")


def module_details(
    picture: Graph, walked: Walked, paths: Sequence[str], foldable: bool = True
) -> dict[str, Any]:
    """A module's panel (a run of blocks: all of them): its parameters, each with its shape and
    the norm of its gradient, and the Nodes it made; and the button that folds or unfolds it."""
    found = walked.modules
    inside = [
        node
        for node in walked.model.nodes
        if not node.same_as and any(found.inside(node.id, path) for path in paths)
    ]
    parameters = [
        node for node in inside if isinstance(getattr(node.fn, "variable", None), torch.Tensor)
    ]
    ops = sum(1 for node in inside if node.kind == OP)
    rows = []
    for node in parameters[:LISTED_PARAMETERS]:
        leaf = node.fn.variable
        label = made_by(node.fn)
        name = node.title or (label.parameter if label is not None and label.parameter else "")
        text = describe(leaf, show_values=False)
        if leaf.grad is not None:
            text = say("with grad norm", tensor=text, norm=format_number(norm(leaf.grad)))
        rows.append([name, text])
    if len(parameters) > LISTED_PARAMETERS:
        rows.append(["…", say("more parameters", more=len(parameters) - LISTED_PARAMETERS)])
    count = sum(node.fn.variable.numel() for node in parameters)
    summary = [[say("parameters"), f"{count:,}"], [say("nodes inside"), f"{ops:,}"]]
    first = paths[0] if paths else ""
    title = found.label(first) if len(paths) == 1 else f"{paths[0]} – {paths[-1]}"
    details: dict[str, Any] = {
        "title": title,
        "subtitle": say("kind module"),
        "sections": [_rows("", summary), _rows(say("parameter list"), rows)],
    }
    if not foldable:
        return details
    folded = any(
        path in picture.module_boxes.get(box, ()) for box in picture.module_boxes for path in paths
    )
    box = next((b for b, p in picture.module_boxes.items() if first in p), None)
    if folded and box is not None:
        details["action"] = {"label": say("unfold", path=first or say("the model")), "box": box}
    else:
        number = next((i for i, frame in enumerate(picture.frames) if frame.path == first), None)
        if number is not None:
            details["action"] = {
                "label": say("fold", path=first or say("the model")),
                "box": f"f{number}",
            }
    return details


def tensor_rows(tensor: torch.Tensor) -> list[list[str]]:
    """A tensor's shape, dtype and device, its smallest and largest value, mean and norm, how
    many nan and inf it holds, its first values and its version, as the side panel lists them."""
    data = tensor.detach()
    rows = [
        [say("shape"), describe(data, show_values=False).rsplit(" ", 1)[0]],
        [say("dtype"), str(data.dtype).removeprefix("torch.")],
        [say("device"), str(data.device)],
    ]
    readable = data.layout == torch.strided and not data.is_nested and data.device.type != "meta"
    if readable and data.numel() > 0:
        rows += _statistics(data)
        first = data.flatten()[:FIRST_VALUES].tolist()
        more = ", …" if data.numel() > FIRST_VALUES else ""
        rows.append([say("first values"), "[" + ", ".join(map(_number, first)) + more + "]"])
    version = version_of(tensor)
    if version is not None:
        rows.append([say("version"), str(version)])
    return rows


def _statistics(data: torch.Tensor) -> list[list[str]]:
    if data.is_complex() or data.dtype == torch.bool:
        return []
    numbers = data if data.is_floating_point() else data.double()
    low, high = (float(value) for value in torch.aminmax(numbers))
    mean = float(numbers.mean())
    # aminmax passes a nan on, and an inf is the smallest or the largest: both finite, none of
    # either. Counting them costs more than the rest together, so only where there are some.
    nan = inf = 0
    if not (_finite(low) and _finite(high)):
        nan, inf = int(numbers.isnan().sum()), int(numbers.isinf().sum())
    return [
        [say("min"), _number(low)],
        [say("max"), _number(high)],
        [say("mean"), _number(mean)],
        [say("norm"), _number(norm(numbers))],
        [say("nan"), f"{nan:,}"],
        [say("inf"), f"{inf:,}"],
    ]


def _finite(number: float) -> bool:
    return number == number and abs(number) != float("inf")


def _number(value: Any) -> str:
    return format_number(value) if isinstance(value, (int, float, complex, bool)) else str(value)


def _rows(heading: str, rows: list[list[str]]) -> dict[str, Any]:
    return {"heading": heading, "rows": rows}


def text_section(text: str, heading: str = "") -> dict[str, Any]:
    return {"heading": heading, "rows": [], "text": text}

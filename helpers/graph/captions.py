"""What a picture of a graph says in words, in each language the helpers speak: its caption,
below the picture, and the few notes and tooltips of the boxes that are ours. What PyTorch names
(MulBackward0, a saved slot's name, shapes and dtypes) stays as PyTorch writes it."""

from __future__ import annotations

from typing import Any

from helpers.language import Catalogue

_CAPTION_TEXTS = {
    "why nodes safe to see": {
        "en": "the helpers look at no more than {seen:,} Nodes of a graph in one call, which "
        "keeps each call quick and well under the chain of Nodes seen from Python that PyTorch "
        "cannot free without crashing",
        "zh": "辅助工具每次调用最多只查看一张图的 {seen:,} 个节点：这样每次调用都很快，"
        "也远远短于 PyTorch 一释放就会崩溃的、被 Python 看到过的节点链",
    },
    # A tensor's shape, where its values are not shown: (3, 4) as Python writes it, these two
    # in words.
    "scalar": {"en": "scalar", "zh": "标量"},
    "nested shape": {"en": "nested [{parts}]", "zh": "嵌套 [{parts}]"},
    "recorded nothing, inference": {
        "en": "Autograd recorded nothing for {what}: it was made under torch.inference_mode(), "
        "whose tensors never join a graph. Make it outside that block to follow it.",
        "zh": "autograd 没有为{what}记录任何东西：它是在 torch.inference_mode() 中创建的，"
        "这样的张量永远不会进入计算图。要跟踪它，请在这个代码块之外创建它。",
    },
    "recorded nothing": {
        "en": "Autograd recorded nothing for {what}: it has no grad_fn and does not require grad.",
        "zh": "autograd 没有为{what}记录任何东西：它没有 grad_fn，也不需要梯度。",
    },
    "this tensor": {"en": "this tensor", "zh": "这个张量"},
    "named": {"en": "'{name}'", "zh": " {name} "},
    "more nodes": {"en": "… {hidden:,} more nodes", "zh": "… 另有 {hidden:,} 个节点"},
    "at least more nodes": {
        "en": "… at least {hidden:,} more nodes",
        "zh": "… 至少还有 {hidden:,} 个节点",
    },
    "references": {
        "en": "Dashed boxes repeat a box drawn in full, used in many places: {listed}.",
        "zh": "虚线框重复画出一个已完整画出的框，因为它在很多地方被使用：{listed}。",
    },
    "uses": {"en": "{title} ({count:,} uses)", "zh": "{title}（{count:,} 处使用）"},
    "uses shown": {
        "en": "{title} ({count:,} uses shown)",
        "zh": "{title}（图中 {count:,} 处使用）",
    },
    "and more": {"en": "and {more:,} more", "zh": "另有 {more:,} 个"},
    "list separator": {"en": ", ", "zh": "、"},
    "one tensor": {
        "en": "Each is one tensor (or Node); a tensor's gradient, shown once, is the sum over all "
        "its uses.",
        "zh": "它们都是同一个张量（或节点）；张量的梯度只显示一次，是所有使用处梯度的总和。",
    },
    "cut": {
        "en": "Showing the {kept:,} autograd nodes nearest the output; {hidden:,} more are folded "
        "into one box.",
        "zh": "只显示离输出最近的 {kept:,} 个 autograd 节点；其余 {hidden:,} 个折叠成一个框。",
    },
    "cut for the view": {
        "en": "The view keeps what it sends to the page under {most:,} KB, so it shows fewer "
        "nodes than draw() would.",
        "zh": "交互视图发送给页面的内容保持在 {most:,} KB 以内，所以它显示的节点比 draw() 少。",
    },
    "cut, layers": {
        "en": "Showing the last {layers} layers whole, and what follows them: the {kept:,} "
        "autograd nodes nearest the output, layer by layer; {hidden:,} more are folded into one "
        "box.",
        "zh": "完整显示最后 {layers} 层以及它们之后的部分：按层计算离输出最近的 {kept:,} 个 "
        "autograd 节点；其余 {hidden:,} 个折叠成一个框。",
    },
    "outputs cut": {
        "en": "{hidden:,} of the {total:,} tensors passed to draw() are among them: draw fewer "
        "at a time to see them.",
        "zh": "传给 draw() 的 {total:,} 个张量中有 {hidden:,} 个也在其中："
        "每次少画几个就能看到它们。",
    },
    "cut, more beyond": {
        "en": "Showing the {kept:,} autograd nodes nearest the output; at least {hidden:,} more "
        "are folded into one box (the helpers look at no more than {seen:,} nodes of a graph).",
        "zh": "只显示离输出最近的 {kept:,} 个 autograd 节点；其余至少 {hidden:,} 个折叠成一个框"
        "（辅助工具对一张图最多只查看 {seen:,} 个节点）。",
    },
    "draw all": {
        "en": "Pass max_nodes=None to draw them all.",
        "zh": "传入 max_nodes=None 可以画出全部节点。",
    },
    "no more": {
        "en": "Drawing more would take too long to lay out, or make a picture too big to read.",
        "zh": "再多画一些，排版会太慢，或者图会大得没法看。",
    },
    "draw more of many": {
        "en": "Pass max_nodes={more} to draw more.",
        "zh": "传入 max_nodes={more} 可以画出更多。",
    },
    "draw more": {
        "en": "Pass max_nodes={more} to draw more (drawing all would take too long, or make a "
        "picture too big to read).",
        "zh": "传入 max_nodes={more} 可以画出更多（全部画出会太慢，或者图会大得没法看）。",
    },
    "backward": {
        "en": "Drawn backward: the output is at the top, and the arrows follow the gradients "
        "down to the leaves.",
        "zh": "反向绘制：输出在最上方，箭头沿梯度的方向向下指向叶子节点。",
    },
    # A picture of one step of a backward pass (helpers.backward_view).
    "ready": {
        "en": "Pink: ready to run: the Node has received every gradient it gets in this pass and "
        "has not run yet (a leaf: its gradient's cell).",
        "zh": "粉色：可以运行了：这个节点已经收到这次反向传播中它会收到的全部梯度，还没有运行"
        "（叶子节点则是它的梯度那一格）。",
    },
    # A picture drawn inside forward_ad.dual_level(): forward mode's tangents beside the values.
    "tangents": {
        "en": "In blue, each dual tensor's tangent: its derivative along the direction given to "
        "make_dual, carried forward with its value (forward mode).",
        "zh": "蓝字是每个对偶张量的切向量：它沿 make_dual 所给方向的导数，"
        "随值一起向前传（前向模式）。",
    },
    "fix first": {"en": "fix this first", "zh": "先修正这个"},
    "marks": {
        "en": "Your gradients against autograd's: ✓ green, right; ✗ red, wrong; the thick red box "
        "is the one to fix first.",
        "zh": "你的梯度与 autograd 的比较：绿色 ✓ 表示对，红色 ✗ 表示错；"
        "粗红框是要先修正的那一个。",
    },
    # One sentence of the caption after another (Chinese puts no space after "。").
    "then": {"en": "{first} {second}", "zh": "{first}{second}"},
    # --- inside the boxes
    "view of": {"en": "view of {base}", "zh": "{base} 的视图"},
    "view": {"en": "view", "zh": "视图"},
    "freed": {"en": "{slots}: freed by backward()", "zh": "{slots}：已被 backward() 释放"},
    "changed in place": {
        "en": "{slots}: changed in place after it was saved: backward() would fail",
        "zh": "{slots}：保存之后又被原地修改过，backward() 会失败",
    },
    "more saved": {
        "en": "{more:,} more saved tensors not drawn",
        "zh": "另有 {more:,} 个保存的张量没有画出",
    },
    "one more saved": {
        "en": "{more:,} more saved tensor not drawn",
        "zh": "另有 {more:,} 个保存的张量没有画出",
    },
    # A text too long for Graphviz, cut (see helpers.graph.dot.LONGEST_TEXT).
    "text cut": {
        "en": "{text}… ({length:,} characters)",
        "zh": "{text}…（共 {length:,} 个字符）",
    },
    # --- tooltips, shown when the pointer rests on a box
    "tooltip tensor": {"en": "tensor", "zh": "张量"},
    "saved by": {"en": "saved by {op}", "zh": "由 {op} 保存"},
    "output of": {"en": "output {nr} of {op}", "zh": "{op} 的第 {nr} 个输出"},
    "cut off": {"en": "cut off by max_nodes", "zh": "被 max_nodes 截去的节点"},
    "same Node": {
        "en": "the same Node as the box drawn in full",
        "zh": "与完整画出的那个框是同一个节点",
    },
    "same tensor": {
        "en": "the same tensor as the box drawn in full",
        "zh": "与完整画出的那个框是同一个张量",
    },
    # In a picture of a recorded backward pass (helpers.backward_view): the box shows the value
    # the pass saw, and the tensor has been changed in place since (an optimiser step, y.mul_(2)).
    "changed since the pass": {
        "en": "value as in the backward pass (changed since)",
        "zh": "反向传播时的值（之后已被修改）",
    },
}
CAPTIONS = Catalogue("helpers.graph", _CAPTION_TEXTS)


def caption(key: str, **values: Any) -> str:
    """One caption text of `CAPTIONS`, in the language the helpers speak, with ``values`` in."""
    return CAPTIONS.say(key, **values)

"""The view's own words, in every language: its buttons, its search, its step control (sent to
the script, which fills the blanks in the browser), and what the kernel says of the view itself.
What the side panel says about a box is the picture's source's (`helpers.graph.panel`)."""

from __future__ import annotations

from helpers.language import Catalogue

_TEXTS = {
    # The script's words (script/*.js): buttons, search, steps. Blanks are filled in the browser.
    "search": {"en": "Find a name…", "zh": "查找名字…"},
    "zoom in": {"en": "Zoom in", "zh": "放大"},
    "zoom out": {"en": "Zoom out", "zh": "缩小"},
    "fit": {"en": "Fit", "zh": "全图"},
    "fit title": {"en": "Fit the whole picture into the view", "zh": "把整张图放进视图"},
    "actual size": {"en": "Actual size", "zh": "原始大小"},
    "refresh": {
        "en": "Draw again from the graph as it is now (after backward(), with its gradients)",
        "zh": "按计算图现在的样子重画（backward() 之后会带上梯度）",
    },
    "hint": {
        "en": "Drag to move, scroll to zoom, click a box to read it.",
        "zh": "拖动可移动，滚动滚轮可缩放，点击一个方框可查看它的内容。",
    },
    "hint folded": {
        "en": "Drag to move, scroll to zoom, click a box to read it; a purple box unfolds, a "
        "frame's name folds.",
        "zh": "拖动可移动，滚动滚轮可缩放，点击一个方框可查看它的内容；点击模块方框会展开，"
        "点击外框的名字会折叠。",
    },
    "no match": {"en": "No box is called “{query}”.", "zh": "没有叫“{query}”的方框。"},
    "revealing": {
        "en": "{name} is inside a folded module: unfolding it…",
        "zh": "{name} 在一个折叠的模块里：正在展开…",
    },
    "asking": {"en": "Asking the kernel…", "zh": "正在询问内核…"},
    "fold frame": {"en": "Click to fold this module", "zh": "点击可折叠这个模块"},
    "close": {"en": "Close", "zh": "关闭"},
    "previous": {"en": "Previous step", "zh": "上一步"},
    "next": {"en": "Next step", "zh": "下一步"},
    "play": {"en": "Play", "zh": "播放"},
    "step": {"en": "Step", "zh": "步"},
    "step of": {"en": "step {number} of {total}", "zh": "第 {number} 步，共 {total} 步"},
    # A predicted pass: the learner answers each step before it is shown.
    "your answer": {"en": "your answer, e.g. 3 or [1, 0]", "zh": "你的答案，例如 3 或 [1, 0]"},
    "check": {"en": "Check", "zh": "检查"},
    "show me": {"en": "Show me", "zh": "直接看这一步"},
    "replay": {"en": "Play again", "zh": "从头再来"},
    "click next": {
        "en": "Click the box of the Node you think runs next.",
        "zh": "点击你认为接下来运行的那个节点的方框。",
    },
    "repr": {
        "en": "<interactive view of an autograd graph, {boxes:,} boxes: drag to move, scroll to "
        "zoom, click a box to read it>",
        "zh": "<自动求导计算图的交互视图，{boxes:,} 个方框：拖动可移动，滚动可缩放，"
        "点击一个方框可查看它>",
    },
    "picture": {"en": "the autograd graph", "zh": "自动求导计算图"},
    "failed": {"en": "The kernel could not do it: {error}", "zh": "内核没能做到：{error}"},
    "cannot predict": {
        "en": "Only a backward pass shown with step_through(trace, predict=True) asks for "
        "predictions.",
        "zh": "只有用 step_through(trace, predict=True) 显示的反向传播才会请你预测。",
    },
    "cannot fold": {
        "en": "Only a graph recorded with `with recording(model):` has modules to fold, and "
        "this view shows the steps of a backward pass.",
        "zh": "只有用 `with recording(model):` 录制的计算图才有可以折叠的模块，"
        "而这个视图显示的是反向传播的各个步骤。",
    },
}
VIEW_TEXTS = Catalogue("helpers.view", _TEXTS)
# The texts the script shows, sent to it as they read in the language spoken now.
SCRIPT_TEXTS = {
    "search": {},
    "zoom in": {},
    "zoom out": {},
    "fit": {},
    "fit title": {},
    "actual size": {},
    "refresh": {},
    "hint": {},
    "hint folded": {},
    "no match": {"query": "{query}"},
    "revealing": {"name": "{name}"},
    "asking": {},
    "fold frame": {},
    "close": {},
    "previous": {},
    "next": {},
    "play": {},
    "step": {},
    "step of": {"number": "{number}", "total": "{total}"},
    "your answer": {},
    "check": {},
    "show me": {},
    "replay": {},
    "click next": {},
}


def script_texts() -> dict[str, str]:
    return {key: VIEW_TEXTS.say(key, **blanks) for key, blanks in SCRIPT_TEXTS.items()}

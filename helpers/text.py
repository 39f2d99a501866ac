"""Text as a learner reads it, in English and in Chinese: how wide it is, and where a line of
it may break. The captions of the graphs and of the loss curves, and the tables of a backward
pass, all measure and wrap with these.

English breaks at spaces. Chinese is written without them, and a line may end after almost any
character, but not inside a word: 节点 or 其中 split over two lines reads as two words. So a
term of the glossary (`notebooks/zh/GLOSSARY.md`) that the helpers' Chinese uses, and a few
common words, are kept whole (`KEPT_WHOLE`). Code is kept whole too: ``draw(..., expand='')``
is one piece, its spaces inside the brackets included, so that a call never loses its
arguments to the next line.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable

# Punctuation that closes (never begins a line: it stays with what it closes) and that opens
# (never ends a line: it goes with what it opens), Chinese and Latin.
CLOSING = "，。：；、！？）》」』”’】,.:;!?)]}"
OPENING = "（《「『“‘【([{"

# Chinese words a line never breaks inside: the glossary's terms that the helpers use (a test
# keeps this in step with the glossary) and common words the captions are made of.
KEPT_WHOLE = (
    "二元组 交互视图 传入的梯度 传出的梯度 保存的张量 先修正 全图 "
    "内核 再运行 初始梯度 前向传播 前置钩子 单元格 原地修改 参数 "
    "反向传播 反向计算 可重入的 叶子张量 叶子节点 后置钩子 坐标轴 "
    "复数 外框 展开 嵌套张量 广播 引擎 张量 形状 手写 手写引擎 "
    "折叠 报错 损失 损失曲线 提示 操作 收到的梯度 方框 权重 "
    "标签 标量 标题 梯度 梯度累加 梯度范数 检查点 模块 "
    "模块方框 模块的反向钩子 汇合 版本 确定性的 笔记本 箭头 线程 自动求导 "
    "自定义 节点 视图 解答 警告 计算图 训练 训练循环 记录 设备 "
    "跟踪 路径 转置 输出 运行 追踪记录 送出的梯度 逐位相同 "
    "重新运行 钩子 需要梯度 均值 总和 导数 局部导数 就绪 接下来 先预测 "
    "变换 批次 向量 切向量 前向模式 反向模式 对偶张量 原始值 样本 逐样本梯度 "
    # common words
    "其中 其余 一个 每个 所有 可以 显示 画出 只有 最近 "
    "数据 步骤 第一 之后 之前 如果 因为 所以 没有 已经 传给 "
    "这张 那些 这些 离输出 个数 范数 结果 "
).split()
_WORDS = sorted(KEPT_WHOLE, key=len, reverse=True)  # the longest first: 叶子节点 before 节点

# A piece a line may break after: code (a run of Latin characters, with any brackets it opens
# and what is inside them up to their close), a space, one of the words kept whole, or one
# Chinese character; punctuation joins the piece it belongs to (below).
_PIECE = re.compile(
    r"[^\s（《「『“‘【，。：；、！？）》」』”’】\u2E80-\u9FFF\uFF00-\uFFEF]+"
    r"|\s+|" + "|".join(map(re.escape, _WORDS)) + r"|."
)


def is_wide(character: str) -> bool:
    """Whether ``character`` takes two columns (Chinese, full-width forms)."""
    return unicodedata.east_asian_width(character) in ("W", "F")


def columns(text: str) -> int:
    """The columns ``text`` takes in a monospace font: a Chinese character takes two."""
    return sum(2 if is_wide(character) else 1 for character in text)


# In the pictures' proportional fonts, a space (and these narrow marks) is about half as wide as
# a digit or a letter; a Chinese character is wider still, but pictures blank only numbers.
NARROW = " ,.-[]()"


def spaces_as_wide_as(text: str) -> str:
    """Spaces about as wide as ``text`` in a picture: room kept for a text still to come (a
    gradient in a step picture), so that nothing moves when it arrives."""
    return " " * spaces_in(text)


def spaces_in(text: str) -> int:
    """How many spaces are about as wide as ``text`` in a picture (`spaces_as_wide_as`)."""
    return sum(1 if character in NARROW else 2 for character in text)


def pieces(text: str) -> list[str]:
    """``text`` in the pieces a line may break between, with a space before a word kept on the
    word's piece (so a line starting there drops it), closing punctuation on the piece before
    it and opening punctuation on the piece after it."""
    raw = _code_kept_whole(_PIECE.findall(text))
    result: list[str] = []
    carried = ""  # opening marks and spaces waiting for the piece they go with
    for piece in raw:
        if piece.isspace() or all(character in OPENING for character in piece):
            carried += piece
        elif result and not carried and all(character in CLOSING for character in piece):
            result[-1] += piece
        else:
            result.append(carried + piece)
            carried = ""
    if carried:
        result.append(carried)
    return result


def _code_kept_whole(raw: list[str]) -> list[str]:
    """The pieces, with a bracket opened in code and everything up to its close one piece:
    ``draw(..., expand='')`` is one, though it holds a space."""
    joined: list[str] = []
    depth = 0
    for piece in raw:
        if depth > 0:
            joined[-1] += piece
        else:
            joined.append(piece)
        if not any(is_wide(character) for character in piece):
            # A bracket right after a name or a dot opens code (draw(, x[); one after a space
            # opens a remark in prose, which may break like the rest of the sentence.
            opened = len(_CODE_OPENS.findall(piece))
            closed = piece.count(")") + piece.count("]") if depth or opened else 0
            depth = max(0, depth + opened - closed)
    return joined


_CODE_OPENS = re.compile(r"[\w.][(\[]")


def wrap(text: str, fits: Callable[[str], bool]) -> list[str]:
    """``text`` in lines that each ``fits`` (a piece too long for any line stands alone on
    one), broken only between `pieces`; no line starts or ends with a space."""
    lines: list[str] = []
    line = ""
    for piece in pieces(text):
        if line.strip() and not fits(line + piece.rstrip()):
            lines.append(line.rstrip())
            line = piece.lstrip()
        else:
            line += piece
    if line.strip():
        lines.append(line.rstrip())
    return lines

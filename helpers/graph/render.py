"""A `Drawing`, and its DOT rendered with Graphviz: in this process when quick, in a child when not.

pygraphviz's wheels carry Graphviz itself, so no ``dot`` program is needed. In this process a
picture costs no process start, which the notebooks' small pictures notice; but Graphviz's C code
cannot be interrupted there (Jupyter's *Interrupt kernel* waits until it returns). A picture
predicted to take longer than `IN_PROCESS_SECONDS` is therefore laid out by a child Python
process (this file run as a program) that the kernel waits for in a way an interrupt reaches:
the child is killed and the kernel keeps every variable. The child also stops itself after
`CHILD_SECONDS`, whatever happens to its parent.

DOT whose cost nobody predicted (text a learner wrote, or edited, and handed to `Drawing`) is
rendered in a child process too: its layout may take any time, and the Graphviz in pygraphviz's
wheels is built with its assertions on, so some input ends its process (a plain label that starts
with a line break, for one). A child that dies that way is an error message, not a dead kernel.

Without pygraphviz, Graphviz's ``dot`` program does the work, if it is installed.

This module imports nothing of `helpers.graph` (nor torch): the child process runs this file.
"""

from __future__ import annotations

import ctypes
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from helpers.language import Catalogue, get_language, set_language

# Above this predicted time, render in a child process that Interrupt kernel can stop.
IN_PROCESS_SECONDS = 0.5
# The child gives up after this long, so that no layout can run on unseen.
CHILD_SECONDS = 120

# What a Drawing and Graphviz's failures say to a learner. Graphviz's own words, quoted after "It
# said", stay as Graphviz wrote them; the child process speaks the parent's language (see
# `_child_command`).
# Keys are joined with "_": tests/test_messages.py takes two words in a raise for a sentence.
_TEXTS = {
    "too_long": {
        "en": "Graphviz did not finish this layout within {seconds} s, and was stopped.",
        "zh": "Graphviz 没能在 {seconds} 秒内排好这张图，已被停止。",
    },
    "interrupted": {
        "en": "Graphviz was stopped before it finished the picture.",
        "zh": "Graphviz 在画完这张图之前被停止了。",
    },
    "cannot_read": {
        "en": "Graphviz cannot read this DOT ({reason}).",
        "zh": "Graphviz 读不懂这段 DOT（“{reason}”）。",
    },
    "could_not_draw_in_process": {
        "en": "Graphviz (in pygraphviz) could not draw this graph as {fmt}.",
        "zh": "Graphviz（pygraphviz 里的）没能把这张图画成 {fmt} 格式。",
    },
    "crashed": {
        "en": "Graphviz crashed on this DOT ({signal}) before it finished the {fmt} picture.",
        "zh": "Graphviz 处理这段 DOT 时崩溃了（{signal}），没能画完 {fmt} 格式的图。",
    },
    "could_not_draw": {
        "en": "Graphviz could not draw this graph as {fmt}.",
        "zh": "Graphviz 没能把这张图画成 {fmt} 格式。",
    },
    # The child's last words are one of the texts above, in the learner's language.
    "could_not_draw_said": {
        "en": "Graphviz could not draw this graph as {fmt}. It said: {said}",
        "zh": "Graphviz 没能把这张图画成 {fmt} 格式。它说：{said}",
    },
    "dot_could_not_draw": {
        "en": "Graphviz's dot program could not draw this graph as {fmt}.",
        "zh": "Graphviz 的 dot 程序没能把这张图画成 {fmt} 格式。",
    },
    # The dot program's last words are Graphviz's own, in English.
    "dot_could_not_draw_said": {
        "en": "Graphviz's dot program could not draw this graph as {fmt}. It said: {said}",
        "zh": "Graphviz 的 dot 程序没能把这张图画成 {fmt} 格式。它的原话是：“{said}”",
    },
    "not_found": {
        "en": "Drawing needs Graphviz, and none was found: pygraphviz cannot be imported and the "
        "Graphviz `dot` program is not on PATH. Fix either one: `pip install pygraphviz` "
        "(its wheels include Graphviz), or install Graphviz (apt-get install graphviz, brew "
        "install graphviz or conda install graphviz). The DOT text is in .source meanwhile.",
        "zh": "画图需要 Graphviz，但哪里都没找到：pygraphviz 无法导入，PATH 上也没有 Graphviz 的 "
        "`dot` 程序。解决其中一个即可：`pip install pygraphviz`（它的 wheel 自带 Graphviz），"
        "或者安装 Graphviz（`apt-get install graphviz`、`brew install graphviz` 或 "
        "`conda install graphviz`）。在此之前，DOT 文本就在 .source 中。",
    },
    # --- a Drawing: what it is, and where its DOT is when Graphviz fails it
    "drawing_takes_text": {
        "en": "Drawing takes DOT text (a str), and got {got}: draw(y) makes the Drawing of a "
        "tensor's graph.",
        "zh": "Drawing 需要 DOT 文本（一个 str），但收到的是 {got}：一个张量的计算图的 Drawing "
        "由 draw(y) 来生成。",
    },
    "bad_suffix": {
        "en": "Cannot save a drawing as {name!r}: use a .svg, .png or .dot name.",
        "zh": "无法把绘图保存为 {name!r}：请用以 .svg、.png 或 .dot 结尾的文件名。",
    },
    "own_dot_too_slow": {
        "en": "{error} The DOT text is in .source.",
        "zh": "{error}DOT 文本在 .source 中。",
    },
    "too_slow": {
        "en": "{error} Draw a smaller part of the graph, draw(y, max_nodes=...) with fewer nodes "
        "than this picture has, or call draw(y) without max_nodes for a quick picture. The DOT "
        "text is in .source.",
        "zh": "{error}请画计算图的一小部分：用 draw(y, max_nodes=...)，节点比这张图少；"
        "或者不带 max_nodes 调用 draw(y)，很快就能得到一张图。DOT 文本在 .source 中。",
    },
    "render_failed": {
        "en": "{error} Its DOT text is in .source.",
        "zh": "{error}它的 DOT 文本在 .source 中。",
    },
    "render_failed_svg_may_work": {
        "en": "{error} Its DOT text is in .source. .svg() or saving as .svg or .dot may still "
        "work.",
        "zh": "{error}它的 DOT 文本在 .source 中。用 .svg()，或者存成 .svg 或 .dot 文件，"
        "也许仍然可行。",
    },
    "explore_needs_draw": {
        "en": "Only a Drawing made by draw(y) can be explored: it knows the graph. Call "
        "explore(y) to explore the graph of y.",
        "zh": "只有 draw(y) 画出的 Drawing 才能用 explore 查看：它知道自己的计算图。"
        "要查看 y 的计算图，请调用 explore(y)。",
    },
    "drawing": {
        "en": "<Drawing of an autograd graph: .source is its DOT text, .svg() renders it>",
        "zh": "<自动求导计算图的绘图：.source 是它的 DOT 文本，.svg() 把它渲染出来>",
    },
}
MESSAGES = Catalogue("helpers.graph.render", _TEXTS)
# The interrupted text in every language, as a test compares what a kernel reports with it.
INTERRUPTED = MESSAGES.texts["interrupted"]


def too_long() -> str:
    """What a layout stopped after `CHILD_SECONDS` says, in the language spoken now."""
    return MESSAGES.say("too_long", seconds=CHILD_SECONDS)


class GraphvizNotFound(RuntimeError):
    """Neither pygraphviz nor the Graphviz ``dot`` program is available to render a drawing."""


class RenderError(RuntimeError):
    """Graphviz could not turn this DOT into a picture; the DOT is kept in ``Drawing.source``."""


class LayoutTooSlow(RenderError):
    """Graphviz was stopped after `CHILD_SECONDS` without finishing the layout."""


class Drawing:
    """A picture of an autograd graph: DOT text, rendered by Graphviz when asked.

    ``estimated_seconds`` is how long the layout is expected to take; above half a second the
    picture is rendered in a child process that Jupyter's *Interrupt kernel* can stop. DOT of
    your own (``Drawing(text)``, no estimate) is rendered in a child process too: nobody knows
    how long it takes, and where it makes Graphviz crash, you get an error, not a dead kernel.
    """

    def __init__(
        self,
        source: str,
        estimated_seconds: float | None = None,
        explorer: Callable[[], Any] | None = None,
    ) -> None:
        if not isinstance(source, str):
            raise TypeError(MESSAGES.say("drawing_takes_text", got=type(source).__name__))
        self.source = source
        self.estimated_seconds = estimated_seconds
        self._svg: str | None = None
        self._explorer = explorer  # makes the view of a drawing made by draw

    def explore(self) -> Any:
        """This graph in the interactive view (`helpers.graph.explore`), with the options
        `draw` was given, but for ``highlight`` and ``edge_labels``."""
        if self._explorer is None:
            raise TypeError(MESSAGES.say("explore_needs_draw"))
        return self._explorer()

    def svg(self) -> str:
        """The picture as SVG text."""
        if self._svg is None:
            self._svg = self._render("svg").decode("utf-8")
        return self._svg

    def save(self, path: str | Path) -> Path:
        """Write the picture to ``path``; its suffix (.svg, .png or .dot) chooses the format."""
        path = Path(path)
        suffix = path.suffix.lower()
        if suffix == ".dot":
            path.write_text(self.source, encoding="utf-8")
        elif suffix == ".svg":
            path.write_text(self.svg(), encoding="utf-8")
        elif suffix == ".png":
            path.write_bytes(self._render("png"))
        else:
            raise ValueError(MESSAGES.say("bad_suffix", name=path.name))
        return path

    def _render(self, fmt: str) -> bytes:
        try:
            return render(self.source, fmt, self.estimated_seconds)
        except LayoutTooSlow as error:
            # DOT of one's own: draw's options do not apply.
            advice = "own_dot_too_slow" if self.estimated_seconds is None else "too_slow"
            raise LayoutTooSlow(MESSAGES.say(advice, error=error)) from None
        except RenderError as error:
            advice = "render_failed" if fmt == "svg" else "render_failed_svg_may_work"
            raise RenderError(MESSAGES.say(advice, error=error)) from None

    def _repr_mimebundle_(self, include: Any = None, exclude: Any = None) -> dict[str, str]:
        return {"image/svg+xml": fitted(self.svg()), "text/plain": repr(self)}

    def __repr__(self) -> str:
        return MESSAGES.say("drawing")


# A picture wider than this (in CSS pixels) is shown as wide as the notebook's cell instead: at
# its own size its first screen could hold no box at all (the output of a big graph drawn
# 2,000 px from the left edge), and a cell scrolls sideways from the left, not from the output.
FITTED_WIDTH = 1600
_SVG_SIZE = re.compile(r'<svg width="([\d.]+)pt" height="([\d.]+)pt"')


def fitted(svg: str) -> str:
    """``svg`` as a notebook shows it: a picture wider than `FITTED_WIDTH` scaled to the width
    of the cell (its size given as 100%, its viewBox keeping its proportions), a narrower one
    at its own size. What ``Drawing.svg()`` and ``save`` write is never changed."""
    size = _SVG_SIZE.search(svg)
    if size is None or float(size.group(1)) * 4 / 3 <= FITTED_WIDTH:  # points to CSS pixels
        return svg
    return svg[: size.start()] + '<svg width="100%"' + svg[size.end() :]


def render(source: str, fmt: str, estimated_seconds: float | None = 0.0) -> bytes:
    """Render DOT ``source`` to ``fmt`` (svg, png) bytes.

    ``estimated_seconds`` is the layout's predicted time, None where it was not predicted (DOT
    from elsewhere): either above `IN_PROCESS_SECONDS` renders in a child process.
    """
    if _pygraphviz() is None:
        return _render_with_dot_program(source, fmt)
    if estimated_seconds is None or estimated_seconds > IN_PROCESS_SECONDS:
        return _render_in_child(source, fmt)
    return _RENDERER.render(source, fmt)


class _InProcessRenderer:
    """pygraphviz's Graphviz library, called directly: one context for every picture.

    This is what ``pygraphviz.AGraph(string=source).draw(format=fmt, prog="dot")`` does, through
    the same calls, without the wrapper's extra work: a context made (and plugins loaded) for
    every picture, and a warning written to stderr for graphs of over 1,000 nodes.
    """

    def __init__(self) -> None:
        self._context: Any = None
        self._fonts_prepared = False

    def render(self, source: str, fmt: str) -> bytes:
        from pygraphviz import graphviz as gv  # pygraphviz's binding of Graphviz's C functions

        self._prepare_fonts()
        if self._context is None:
            # Wheels carry their plugins built in; other builds find them through Graphviz's
            # configuration file.
            self._context = getattr(gv, "gvContextWithBuiltins", gv.gvContext)()
        with tempfile.TemporaryFile() as file:  # Graphviz's reader wants a file
            file.write(source.encode("utf-8"))
            file.seek(0)
            try:
                handle = gv.agread(file, None)
            except ValueError as error:
                raise RenderError(MESSAGES.say("cannot_read", reason=error)) from None
        result: Any = None
        try:
            if gv.gvLayout(self._context, handle, b"dot") == 0:
                try:
                    result = gv.gvRenderData(self._context, handle, fmt.encode("ascii"))
                finally:
                    gv.gvFreeLayout(self._context, handle)
        finally:
            gv.agclose(handle)
        # Success is [0, data]; a failed render returns a bare error code instead.
        if isinstance(result, (list, tuple)) and len(result) == 2 and result[0] == 0:
            return result[1]
        # A failure can leave a half-made job in the context: the next picture gets a fresh one.
        # The old one is dropped, not freed, as freeing it in that state is not known to be safe.
        self._context = None
        raise RenderError(MESSAGES.say("could_not_draw_in_process", fmt=fmt))

    def _prepare_fonts(self) -> None:
        """Load the system's font configuration into pygraphviz's bundled fontconfig, once.

        pygraphviz's Linux wheels bundle fontconfig 2.13. When that library initialises itself
        it loads the system's fonts.conf and then also parses every template in
        /usr/share/fontconfig/conf.avail, only to list their descriptions (for fc-conflist). On
        systems with a newer fontconfig (Debian 12, Ubuntu 24.04) one template uses an element
        2.13 does not know, and it prints an "unknown element" warning on the process's stderr,
        which ipykernel copies into the notebook's outputs. Doing its initialisation ourselves
        with its own calls (parse fonts.conf, build the font list, make that configuration
        current) loads exactly the system's fonts and settings without that scan; Graphviz then
        finds fontconfig ready. Errors in the system's own configuration are still printed.
        Where no bundled fontconfig is found (macOS, Windows, a pygraphviz built against system
        libraries), nothing is done.
        """
        if self._fonts_prepared:
            return
        self._fonts_prepared = True
        libraries = Path(_pygraphviz().__file__).parent.parent / "pygraphviz.libs"
        found = sorted(libraries.glob("libfontconfig*.so*"))
        if not found:
            return
        try:
            fontconfig = ctypes.CDLL(str(found[0]))  # the copy Graphviz already loaded
        except OSError:
            return
        fontconfig.FcConfigCreate.restype = ctypes.c_void_p
        fontconfig.FcConfigParseAndLoad.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_int]
        fontconfig.FcConfigBuildFonts.argtypes = [ctypes.c_void_p]
        fontconfig.FcConfigSetCurrent.argtypes = [ctypes.c_void_p]
        fontconfig.FcConfigDestroy.argtypes = [ctypes.c_void_p]
        config = fontconfig.FcConfigCreate()
        # None: the default fonts.conf (or $FONTCONFIG_FILE), as the library's start-up reads it.
        loaded = fontconfig.FcConfigParseAndLoad(config, None, 1)
        if (
            loaded
            and fontconfig.FcConfigBuildFonts(config)
            and fontconfig.FcConfigSetCurrent(config)
        ):
            return
        fontconfig.FcConfigDestroy(config)  # leave initialisation to the library itself


_RENDERER = _InProcessRenderer()


def _render_in_child(source: str, fmt: str) -> bytes:
    """Render in a child process; Interrupt kernel (SIGINT) kills it and stops the wait."""
    command = _child_command(fmt)
    # The child must import the helpers as the parent does, wherever the kernel was started.
    package_root = str(Path(__file__).resolve().parents[2])
    search_path = [package_root, os.environ.get("PYTHONPATH", "")]
    environment = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, search_path))}
    child = subprocess.Popen(
        command,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=environment,
    )
    try:
        # communicate() waits in poll(): a KeyboardInterrupt is raised here at once, after
        # giving the child a quarter second to end (no wait when Interrupt kernel ended it too).
        output, errors = child.communicate(source.encode("utf-8"), timeout=CHILD_SECONDS + 5)
    except BaseException as stopped:  # whatever ends the wait, ends the child
        child.kill()
        child.wait()
        if isinstance(stopped, subprocess.TimeoutExpired):
            raise LayoutTooSlow(too_long()) from None
        if isinstance(stopped, KeyboardInterrupt):  # Interrupt kernel
            # Raised afresh, so that the traceback ends here rather than in subprocess's
            # internals: shorter to read, and quicker for IPython to format.
            raise KeyboardInterrupt(MESSAGES.say("interrupted")) from None
        raise
    if hasattr(signal, "SIGALRM") and child.returncode == -signal.SIGALRM:
        raise LayoutTooSlow(too_long())
    if child.returncode < 0:  # ended by a signal: Graphviz crashed (SIGSEGV) or asserted (SIGABRT)
        signal_name = _signal_name(-child.returncode)
        raise RenderError(MESSAGES.say("crashed", signal=signal_name, fmt=fmt))
    if child.returncode != 0:
        raise RenderError(_could_not_draw("could_not_draw", fmt, errors))
    return output


def _child_command(fmt: str) -> list[str]:
    """The child process that renders: this file run as a program (see `_child_main`), told the
    language to speak should it fail.

    Run by its path, not as ``python -m helpers.graph.render``: that would import the package
    `helpers.graph` first, and torch with it, which takes seconds. This module imports nothing
    of the package, so that the child starts in a tenth of a second.
    """
    return [sys.executable, str(Path(__file__).resolve()), fmt, get_language()]


def _render_with_dot_program(source: str, fmt: str) -> bytes:
    """Render with Graphviz's ``dot`` program: a child process, bounded and interruptible."""
    program = shutil.which("dot")
    if program is None:
        raise GraphvizNotFound(MESSAGES.say("not_found"))
    try:
        # run() kills the child if the wait is interrupted (KeyboardInterrupt) or times out.
        done = subprocess.run(
            [program, f"-T{fmt}"],
            input=source.encode("utf-8"),
            capture_output=True,
            timeout=CHILD_SECONDS,
        )
    except subprocess.TimeoutExpired:
        raise LayoutTooSlow(too_long()) from None
    if done.returncode != 0:
        raise RenderError(_could_not_draw("dot_could_not_draw", fmt, done.stderr))
    return done.stdout


def _could_not_draw(key: str, fmt: str, errors: bytes) -> str:
    """The text ``key`` of a failed render, with the last line the renderer wrote, if any."""
    said = errors.decode("utf-8", "replace").strip().splitlines()
    if not said:
        return MESSAGES.say(key, fmt=fmt)
    return MESSAGES.say(f"{key}_said", fmt=fmt, said=said[-1])


def _signal_name(number: int) -> str:
    try:
        return signal.Signals(number).name
    except ValueError:
        return f"signal {number}"


def _pygraphviz() -> Any:
    try:
        import pygraphviz
    except ImportError:
        return None
    return pygraphviz


def _child_main(fmt: str, language: str = "en") -> int:
    """The child process: DOT on stdin, the picture on stdout, and a deadline of its own."""
    set_language(language)  # its error, on stderr, is quoted to the learner
    # Interrupt kernel signals the kernel's whole process group, this child included: end at
    # once, even inside Graphviz's C code, where Python's KeyboardInterrupt would wait for it to
    # return (and the kernel, seeing its child still running, waits a quarter second more).
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    if hasattr(signal, "alarm"):
        # SIGALRM's default action ends the process even inside Graphviz's C code.
        signal.alarm(CHILD_SECONDS)
    source = sys.stdin.buffer.read().decode("utf-8")
    try:
        picture = _RENDERER.render(source, fmt)
    except RenderError as error:
        print(error, file=sys.stderr)
        return 1
    sys.stdout.buffer.write(picture)
    return 0


if __name__ == "__main__":
    sys.exit(_child_main(*sys.argv[1:]))

"""The interactive view of a graph (`helpers.graph.explore`) on a GPT-2-shaped model: the kernel's
time to open it, to unfold a block, to answer a click, and the bytes each output sends.

The model (`models.py`, 12 blocks of GPT-2 small's sizes, one sequence of 64 tokens) runs its
forward pass and loss once inside ``recording(model)``, then ``loss.backward()``. Then, each
timed `--repeat` times (medians), in the kernel, as a notebook would run it:

- **open**: ``explore(loss)`` and the output a notebook shows (`Explorer._repr_mimebundle_`:
  the view's picture, the picture as `draw` draws it for where the view cannot run, the widget):
  target `OPEN_TARGET` s;
- **unfold a block**: a click on the folded box of ``transformer.h.0`` (one level opens: its
  LayerNorms, attention and MLP, folded), and the click that makes ``transformer.h.3`` whole
  (its MLP, the last of its modules still folded, unfolded): target `UNFOLD_TARGET` s each;
- **answer a click**: what the side panel shows, through the widget's message handler, for an
  op, a block's weight (768 × 2,304) with its gradient, the token embedding (50,257 × 768, the
  largest tensor) and a folded block: target `CLICK_TARGET` s for each;
- **payload**: the bytes of the output a notebook stores (its MIME bundle) and of the widget's
  state (the picture, the names a search looks through, the words, the script and its style):
  target `PAYLOAD_TARGET` bytes.

The script fails when a target is missed.

    python benchmarks/bench_explore.py [--repeat 7]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import replace

import torch
from models import batch, gpt2, loss

from helpers.graph import explore, recording
from helpers.graph.modules import default_folding

OPEN_TARGET = 1.0
UNFOLD_TARGET = 0.5
CLICK_TARGET = 0.1
PAYLOAD_TARGET = 500_000
BLOCK = "transformer.h.3"


def timed(work: Callable[[], object], repeat: int, before: Callable[[], object] = lambda: None):
    """The median seconds of ``repeat`` runs of ``work`` (``before`` runs untimed before each),
    and what the last one returned."""
    seconds, result = [], None
    for _ in range(repeat):
        before()
        start = time.perf_counter()
        result = work()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds), result


class Answers:
    """Stands for the browser: keeps what the widget sends, as JSON, as the wire would."""

    def __init__(self) -> None:
        self.sent: list[str] = []

    def __call__(self, content: dict) -> None:
        self.sent.append(json.dumps(content))


def box(view, title: str) -> str:
    return next(node.id for node in view._source.picture.nodes if node.title.startswith(title))


def widget_state_bytes(widget) -> int:
    names = ("svg", "home", "index", "texts", "steps", "step", "caption", "_esm", "_css")
    return len(json.dumps({name: getattr(widget, name) for name in names}).encode())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    repeat = parser.parse_args().repeat
    torch.set_num_threads(1)
    model = gpt2(n_layer=12)
    tokens, targets = batch(model, 1, 64)
    with recording(model):
        output = loss(model, tokens, targets)
    output.backward()
    missed = []

    def opened():
        view = explore(output, {"model": model})
        return view, view._repr_mimebundle_()

    open_seconds, (view, (bundle, _)) = timed(opened, repeat)
    bundle_bytes = len(json.dumps(bundle).encode())
    state_bytes = widget_state_bytes(view.widget())
    print(f"open: explore(loss) and its output, {view.boxes} boxes: {open_seconds:.3f} s")
    print(
        f"payload: output {bundle_bytes:,} bytes + widget state {state_bytes:,} bytes "
        f"= {bundle_bytes + state_bytes:,} bytes"
    )
    if open_seconds > OPEN_TARGET:
        missed.append(f"open {open_seconds:.2f} s > {OPEN_TARGET} s")
    if bundle_bytes + state_bytes > PAYLOAD_TARGET:
        missed.append(f"payload {bundle_bytes + state_bytes:,} > {PAYLOAD_TARGET:,} bytes")

    widget = view.widget()
    widget.send = Answers()
    folded = view._source._folding

    def refold() -> None:  # every unfolding starts from the folding explore opened with
        view._source._draw(view._source._walked.__class__(
            view._source._walked.model, view._source._walked.modules, *folded
        ))  # fmt: skip

    def click(target: str) -> Callable[[], None]:
        return lambda: view._answer(widget, {"kind": "click", "box": target})

    refold()
    block = box(view, "transformer.h.0 ")
    seconds, _ = timed(click(block), repeat, refold)
    print(f"unfold a block (a click on transformer.h.0): {seconds:.3f} s, {view.boxes} boxes")
    if seconds > UNFOLD_TARGET:
        missed.append(f"unfold a block {seconds:.2f} s > {UNFOLD_TARGET} s")
    # The block whole: its modules unfolded one click at a time; the last click is timed.
    whole = default_folding(view._source._walked.model, view._source._walked.modules, [BLOCK])
    almost = whole | {f"{BLOCK}.mlp"}

    def unfolded_but_the_mlp() -> None:
        walked = view._source._walked
        view._source._draw(replace(walked, folded=frozenset(almost)))

    unfolded_but_the_mlp()
    seconds, _ = timed(click(box(view, f"{BLOCK}.mlp ")), repeat, unfolded_but_the_mlp)
    print(f"the block {BLOCK} whole (a click on its last folded module): {seconds:.3f} s, "
          f"{view.boxes} boxes")  # fmt: skip
    if seconds > UNFOLD_TARGET:
        missed.append(f"a block whole {seconds:.2f} s > {UNFOLD_TARGET} s")
    inside = next(
        entry[1]
        for entry in view._source.index()
        if entry[0].endswith(f"{BLOCK}.attn.c_attn.weight")
    )

    refold()
    view._source.reveal(inside)  # a block's weight in the picture, to click on
    targets = {
        "an op (the loss's NllLossBackward0)": box(view, "NllLossBackward0"),
        "a block's weight, 768 × 2,304, and its gradient": inside,
        "a folded block (transformer.h.0)": box(view, "transformer.h.0 "),
    }
    embedding = next(e[1] for e in view._source.index() if e[0].endswith("transformer.wte.weight"))
    view._source.reveal(embedding)
    targets["the token embedding, 50,257 × 768, and its gradient"] = embedding
    for what, target in targets.items():
        seconds, _ = timed(lambda target=target: view._answer(
            widget, {"kind": "read", "box": target}
        ), repeat)  # fmt: skip
        print(f"answer a click on {what}: {seconds * 1000:.1f} ms")
        if seconds > CLICK_TARGET:
            missed.append(f"a click on {what} {seconds:.3f} s > {CLICK_TARGET} s")
    for line in missed:
        print("target missed:", line, file=sys.stderr)
    return 1 if missed else 0


if __name__ == "__main__":
    sys.exit(main())

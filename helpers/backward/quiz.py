"""Predict, then see: a recorded backward pass asked as questions, one step at a time, in text.

    >>> quiz = trace(a).quiz()
    >>> quiz                        # the question now, and the score so far
    >>> quiz.answer("ReluBackward0")    # which Node the engine runs next: right, or why not
    >>> quiz.answer("1")                # what it sends back: right, or what and why
    >>> quiz.show()                     # the step revealed, without answering
    >>> quiz.restart()                  # the same pass from the start

Each step of the `Trace` asks, in the engine's own order, which Node runs next and then, when
its gradients are small (at most `SMALL` numbers each), what the Node sends to each input. The
answers are judged against what PyTorch's engine did in that pass, hooks and all: a wrong Node is
told why not from the trace's order and dependency counts, a wrong gradient gets the expected one
and the chain rule with the numbers filled in. Gradients are read as ``check`` reads numbers
(`helpers.exercises.reading`) and compared within the tolerance of `compare`. The quiz keeps its
state in itself only, and the interactive view asks it the same questions through
`Quiz.answer_next` and `Quiz.answer_gradient`.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import Any

import torch
from torch.autograd.graph import Node

from helpers import graph
from helpers.backward.comparison import tolerance_of
from helpers.backward.engine import consumers_of_each_node, short_name
from helpers.backward.messages import VIEW_MESSAGES
from helpers.backward.quiz_messages import QUIZ_MESSAGES as MESSAGES
from helpers.backward.records import Step
from helpers.backward.table import name_pairs
from helpers.exercises.reading import WrongKind, as_numbers
from helpers.graph.model import format_number, gradient_edge
from helpers.language import speaking

__all__ = ["SMALL", "Quiz", "Verdict"]

# A step is asked "what does it send back?" only when every gradient in and out has at most this
# many numbers: more is arithmetic to type, not an idea to predict.
SMALL = 6
NEXT, GRADIENT = "next", "gradient"
Names = Mapping[str, torch.Tensor] | Iterable[tuple[str, torch.Tensor]] | None


@dataclass(frozen=True, repr=False)
class Verdict:
    """What the quiz says of one answer: ``right``, ``readable`` (False: the answer could not be
    read as an answer to the question, which stays asked and is not scored) and ``said``, the
    sentence shown. ``question`` is the question asked after it (None once the pass is over),
    so that a notebook cell shows the verdict and what to answer next. A Node clicked too early
    names in ``waiting_for`` the Nodes whose gradients it still waits for (the view outlines
    their boxes)."""

    right: bool
    readable: bool
    said: str
    question: str | None = None
    waiting_for: tuple[Node, ...] = ()

    def __repr__(self) -> str:
        return self.said if self.question is None else f"{self.said}\n\n{self.question}"


class Quiz:
    """The backward pass of a `Trace` as questions, asked in the order its engine ran the steps.

    ``names`` names tensors as in `helpers.graph.draw` (by default, the caller's variables): a
    leaf's AccumulateGrad is then "AccumulateGrad of w", and a Node can be answered by its
    leaf's name or the name of the tensor it made. ``question`` is the question now (None when
    the pass is over); ``answer`` answers it; ``show`` reveals the step; ``score`` counts the
    questions right at the first try out of those asked; ``restart`` plays the pass again.
    """

    def __init__(self, trace: Sequence[Step], names: Names = None) -> None:
        self._steps = tuple(trace)
        pairs = name_pairs(names)
        self._names = _names_of_nodes(pairs)
        root = self._steps[0].node if self._steps else None
        self._consumers = consumers_of_each_node(root) if root is not None else {}
        self._boxes = _boxes_of(getattr(trace, "output", None), pairs) if self._steps else {}
        types = [short_name(step.node) for step in self._steps]
        self._shared_types = {name for name in types if types.count(name) > 1}
        self._questions = [
            (kind, index)
            for index, step in enumerate(self._steps)
            for kind in (NEXT, GRADIENT)
            if kind == NEXT or _asks_gradient(step)
        ]
        self.restart()

    # --- what a learner uses ---------------------------------------------------------------------

    @property
    def question(self) -> str | None:
        """The question asked now, in the helpers' language; None when the pass is over."""
        if self._at >= len(self._questions):
            return None
        kind, index = self._questions[self._at]
        number, total = index + 1, len(self._steps)
        if kind == NEXT:
            key = "first question" if index == 0 else "next question"
            return MESSAGES.say(key, number=number, total=total)
        step = self._steps[index]
        several = sum(g is not None for _, g in step.sent) > 1
        return MESSAGES.say(
            "gradients question" if several else "gradient question",
            number=number,
            total=total,
            node=self._label(step.node),
            incoming=self._incoming(step),
            targets=self._targets(step),
            derivative=_derivative(step),
        )

    @property
    def asking(self) -> str | None:
        """What the question now asks for: "next" (a Node), "gradient" (what a Node sends), or
        None when the pass is over."""
        return self._asked_now()[0]

    @property
    def settled(self) -> int:
        """How many steps, from the first, have all their questions answered or shown: the
        picture of the pass can show that many steps without giving an answer away."""
        kind, index = self._asked_now()
        return len(self._steps) if kind is None else index

    @property
    def score(self) -> tuple[int, int]:
        """``(right at the first try, questions asked)``: a question shown counts as asked."""
        return self._right, self._asked

    def answer(self, answer: Any) -> Verdict:
        """Answer the question asked now: a Node (its name, a box, the Node itself) or the
        gradients a Node sends, as `answer_next` and `answer_gradient` read them."""
        if self._at < len(self._questions) and self._questions[self._at][0] == GRADIENT:
            return self.answer_gradient(answer)
        return self.answer_next(answer)

    def answer_next(self, box_id_or_node: Any) -> Verdict:
        """Which Node runs next: an autograd Node, the id of its box in the picture that
        ``step_through`` draws with the same ``names`` ("n4"), or a name: ``"MulBackward0"``, a
        leaf's ``"w"``, ``"AccumulateGrad of w"``, ``"w 的 AccumulateGrad"``, or the name of the
        tensor a Node made. Right, or why not, from the trace's order and dependency counts."""
        kind, index = self._asked_now()
        if kind != NEXT:
            return self._unreadable(self._gradient_refusal(kind, index))
        node, refusal = self._node_of(box_id_or_node)
        if node is None:
            return self._unreadable(refusal)
        step = self._steps[index]
        if node is step.node:
            needed = len(self._consumers.get(node, []))
            key = "right first" if index == 0 else "right next"
            return self._judged(True, MESSAGES.say(key, node=self._label(node), needed=needed))
        said, waiting = self._why_not(node, index)
        return replace(self._judged(False, said), waiting_for=waiting)

    def answer_gradient(self, answer: Any) -> Verdict:
        """What the Node of this step sends to each of its inputs, in the order the question
        names them: ``3``, ``"六"``, ``"[1, 0, 3]"``, ``"【1，0，3】"``, a tensor, or one answer
        per input (``[3, 2]``, ``(tensor([1., 0.]), 2)``). Compared, number by number, with what
        the engine sent, within the tolerance `compare` allows for its dtype."""
        kind, index = self._asked_now()
        if kind != GRADIENT:
            return self._unreadable(self._gradient_refusal(kind, index))
        step = self._steps[index]
        sent = [(node, g) for node, g in step.sent if g is not None]
        yours, refusal = self._read_gradients(answer, step, sent)
        if yours is None:
            return self._unreadable(refusal)
        parts, right = [], True
        for (node, expected), mine in zip(sent, yours, strict=True):
            close = _close(mine, expected)
            right = right and close
            blanks = {"node": self._label(node), "expected": _text(expected)}
            blanks["reason"] = _reason(step, expected)
            if close:
                parts.append(MESSAGES.say("part right", **blanks))
            else:
                yours_text = _text(mine.reshape(expected.shape))
                parts.append(MESSAGES.say("part wrong", yours=yours_text, **blanks))
        joined = MESSAGES.say("parts between").join(parts)
        said = MESSAGES.say("right gradient" if right else "wrong gradient", parts=joined)
        return self._judged(right, said, advance=True)

    def show(self) -> str:
        """Reveal the step asked about now, without answering: which Node runs, what it
        receives, what it sends. Its question counts as asked, not right."""
        if self._at >= len(self._questions):
            return self._over()
        _, index = self._questions[self._at]
        if not self._tried:
            self._asked += 1
        while self._at < len(self._questions) and self._questions[self._at][1] == index:
            self._at += 1  # the rest of the step's questions are answered by the showing
        self._tried = False
        return self._shown(index)

    def restart(self) -> None:
        """Start the pass again from its first question, with the score at zero."""
        self._at = 0
        self._tried = False  # has the question asked now had a readable answer yet?
        self._right = self._asked = 0

    def __repr__(self) -> str:
        if self.question is None:
            return self._over()
        return f"{self.question}\n{self._score_line()}"

    # --- judging -------------------------------------------------------------------------------

    def _asked_now(self) -> tuple[str | None, int]:
        if self._at >= len(self._questions):
            return None, -1
        return self._questions[self._at]

    def _gradient_refusal(self, kind: str | None, index: int) -> str:
        if kind is None:
            return self._over()
        if kind == GRADIENT:
            return MESSAGES.say("asks gradient", node=self._label(self._steps[index].node))
        return MESSAGES.say("asks next")

    def _judged(self, right: bool, said: str, advance: bool = False) -> Verdict:
        """Score a readable answer (its first try only) and move on when it settles the question:
        a right answer, or any answer to a gradient (its verdict shows the expected one)."""
        if not self._tried:
            self._asked += 1
            self._right += right
        self._tried = True
        if right or advance:
            self._at += 1
            self._tried = False
        return Verdict(right, True, said, self.question)

    def _unreadable(self, said: str) -> Verdict:
        return Verdict(False, False, said, self.question)

    def _why_not(self, node: Node, index: int) -> tuple[str, tuple[Node, ...]]:
        """Why ``node`` is not the one the engine runs at step ``index``, from the trace, and the
        Nodes whose gradients it still waits for, if that is why."""
        label = self._label(node)
        if node not in self._consumers:
            return MESSAGES.say("not in graph", node=label), ()
        ran = [number for number, step in enumerate(self._steps) if step.node is node]
        earlier = [number for number in ran if number < index]
        if earlier and not any(number > index for number in ran):
            return MESSAGES.say("already ran", node=label, number=earlier[-1] + 1), ()
        if not ran:
            return MESSAGES.say("never runs", node=label), ()
        feeding = self._consumers[node]
        waiting = self._waiting_for(node, index)
        if waiting:
            said = MESSAGES.say(
                "waits",
                node=label,
                waiting=self._counted(waiting),
                arrived=len(feeding) - len(waiting),
                needed=len(feeding),
            )
            return said, waiting
        return MESSAGES.say("ready too", node=label), ()

    def _waiting_for(self, node: Node, index: int) -> tuple[Node, ...]:
        """The Nodes (one per edge) whose gradient ``node`` still waits for before step
        ``index``: dependency counting, as the engine does it, one gradient per edge into it."""
        done = {step.node for step in self._steps[:index]}
        return tuple(consumer for consumer in self._consumers.get(node, []) if consumer not in done)

    def _read_gradients(
        self, answer: Any, step: Step, sent: list[tuple[Node, torch.Tensor]]
    ) -> tuple[list[torch.Tensor] | None, str]:
        """The answer as one flat float64 tensor per input, or None and what to write instead."""
        sizes = [expected.numel() for _, expected in sent]
        blanks = {
            "node": self._label(step.node),
            "targets": self._targets(step),
            "count": sum(sizes),
            "example": _example(sent),
        }
        try:
            if isinstance(answer, (list, tuple)) and len(answer) == len(sent) > 1:
                parts = [as_numbers(part).flatten() for part in answer]
                if [part.numel() for part in parts] != sizes:
                    return None, MESSAGES.say("wrong count", written=_count(parts), **blanks)
                return parts, ""
            numbers = as_numbers(answer).flatten()
        except WrongKind:
            return None, MESSAGES.say("cannot read numbers", answer=_quoted(answer), **blanks)
        if numbers.numel() != sum(sizes):
            return None, MESSAGES.say("wrong count", written=numbers.numel(), **blanks)
        return list(numbers.split(sizes)), ""

    # --- Nodes and their names -----------------------------------------------------------------

    def _node_of(self, answer: Any) -> tuple[Node | None, str]:
        """The Node an answer names, or None and why it names none (or several)."""
        if isinstance(answer, Node):
            return answer, ""
        if isinstance(answer, str) and answer.strip() in self._boxes:
            return self._boxes[answer.strip()], ""
        found = self._called(answer) if isinstance(answer, str) else []
        if len(found) == 1:
            return found[0], ""
        examples = MESSAGES.say("list").join(self._examples())
        key = "several called" if found else "unknown name"
        return None, MESSAGES.say(key, answer=_quoted(answer), examples=examples)

    def _called(self, answer: str) -> list[Node]:
        """The Nodes of the graph whose name, in either language, is ``answer``."""
        wanted = _spelling(answer)
        found = []
        for node in self._consumers:
            if wanted in self._spellings(node) and node not in found:
                found.append(node)
        return found

    def _spellings(self, node: Node) -> set[str]:
        spellings = {_spelling(short_name(node))}
        name = self._names.get(node)
        if name is not None:
            spellings.add(_spelling(name))
            for language in ("en", "zh"):
                with speaking(language):
                    text = VIEW_MESSAGES.say("node of leaf", node=short_name(node), leaf=name)
                spellings.add(_spelling(text))
        return spellings

    def _label(self, node: Node) -> str:
        """How the table of a trace names a Node: a leaf's AccumulateGrad with the leaf's name;
        a Node whose type another Node of the pass shares, with the name of the tensor it made,
        where that has one (two MulBackward0 read apart as "MulBackward0 (square)")."""
        name = self._names.get(node)
        if short_name(node) == "AccumulateGrad" and name is not None:
            return VIEW_MESSAGES.say("node of leaf", node=short_name(node), leaf=name)
        if name is not None and short_name(node) in self._shared_types:
            return MESSAGES.say("node of tensor", node=short_name(node), tensor=name)
        return short_name(node)

    def _examples(self) -> list[str]:
        """A few names an answer may use: the first Nodes of the pass, by their labels."""
        labels = []
        for step in self._steps:
            label = self._label(step.node)
            if label not in labels:
                labels.append(label)
        return labels[:3]

    def _counted(self, nodes: Sequence[Node]) -> str:
        """Nodes named once each, with how many gradients each still owes where more than one."""
        parts = []
        for node in dict.fromkeys(nodes):
            count = nodes.count(node)
            label = self._label(node)
            parts.append(
                MESSAGES.say("gradients from", node=label, count=count) if count > 1 else label
            )
        return _listed(parts)

    # --- what a step received and sent, in words -------------------------------------------------

    def _incoming(self, step: Step) -> str:
        texts = []
        arrived = step.grads_arrived if step.changed_by_hook else None
        for position, received in enumerate(step.grads_in):
            text = _text(received)
            if arrived is not None and _text(arrived[position]) != text:
                text = MESSAGES.say(
                    "changed by hook", received=text, arrived=_text(arrived[position])
                )
            texts.append(text)
        return MESSAGES.say("list").join(texts)

    def _targets(self, step: Step) -> str:
        return _listed([self._label(node) for node, g in step.sent if g is not None])

    def _shown(self, index: int) -> str:
        step = self._steps[index]
        blanks = {
            "number": index + 1,
            "total": len(self._steps),
            "node": self._label(step.node),
            "incoming": self._incoming(step),
        }
        if short_name(step.node) == "AccumulateGrad":
            name = self._names.get(step.node)
            target = f"{name}.grad" if name is not None else MESSAGES.say("leaf grad")
            return MESSAGES.say("shown accumulate", target=target, **blanks)
        parts = [
            MESSAGES.say("sent to", value=_text(g), node=self._label(node)) for node, g in step.sent
        ]
        sent = _listed(parts) if parts else MESSAGES.say("nothing on")
        return MESSAGES.say("shown", sent=sent, **blanks)

    def _score_line(self) -> str:
        return MESSAGES.say("score line", score=self._score())

    def _score(self) -> str:
        return MESSAGES.say("score", right=self._right, asked=self._asked)

    def _over(self) -> str:
        return MESSAGES.say("over", score=self._score_line())


# --- the graph read once: names, boxes -----------------------------------------------------------


def _names_of_nodes(pairs: list[tuple[str, torch.Tensor]]) -> dict[Node, str]:
    """The name of each Node that has one: a leaf's AccumulateGrad gets the leaf's name, the Node
    that computed a named tensor that tensor's name. The first name given wins."""
    found: dict[Node, str] = {}
    for name, tensor in pairs:
        if not tensor.requires_grad:
            continue
        node = gradient_edge(tensor)[0] if tensor.is_leaf else tensor.grad_fn
        if node is not None:
            found.setdefault(node, name)
    return found


def _boxes_of(output: Any, pairs: list[tuple[str, torch.Tensor]]) -> dict[str, Node]:
    """The Node behind each box of the picture ``step_through`` draws, by the box's id: an op's
    or a leaf's own Node, and for a tensor's box the Node that computed it."""
    if not isinstance(output, torch.Tensor):
        return {}
    try:
        model = graph.build(output, pairs, show_grads=False, fold=False)
    except (ValueError, RuntimeError):
        return {}  # a graph the pictures cannot show has no boxes to click on
    return nodes_by_box(model)


def nodes_by_box(model: graph.Graph) -> dict[str, Node]:
    """The Node behind each box of ``model`` by its id: an op's or a leaf's own Node, for a
    tensor's box the Node that computed it, for a reference box that of the box it repeats."""
    fns = {box.id: box.fn for box in model.nodes if box.fn is not None}
    for edge in model.edges:
        if edge.kind == "output" and edge.source in fns:
            fns.setdefault(edge.target, fns[edge.source])
    for box in model.nodes:
        if box.same_as in fns:
            fns.setdefault(box.id, fns[box.same_as])
    return fns


def _asks_gradient(step: Step) -> bool:
    """Whether a step's gradients are small enough to predict: a few numbers in and out."""
    if short_name(step.node) == "AccumulateGrad" or not step.sent:
        return False
    gradients = [*step.grads_in, *(g for _, g in step.sent)]
    return all(
        isinstance(g, torch.Tensor)
        and g.layout == torch.strided
        and not g.is_complex()
        and g.numel() <= SMALL
        for g in gradients
    )


# --- the chain rule with numbers ------------------------------------------------------------------


def _derivative(step: Step) -> str:
    key = f"derivative {step.name}"
    return MESSAGES.say(key) if key in MESSAGES else MESSAGES.say("derivative", node=step.name)


def _reason(step: Step, sent: torch.Tensor) -> str:
    """The chain rule for one gradient sent: incoming × local derivative = sent. The local
    derivative's value is read off the pass itself (sent / incoming), where that division says
    it: one incoming gradient, nowhere zero, of the sent gradient's shape or a single number."""
    incoming = step.grads_in[0] if len(step.grads_in) == 1 else None
    blanks = {"derivative": _derivative(step), "sent": _text(sent)}
    if incoming is None:
        texts = MESSAGES.say("list").join(_text(g) for g in step.grads_in)
        return MESSAGES.say("chain without local", incoming=texts, **blanks)
    blanks["incoming"] = _text(incoming)
    fits = incoming.shape == sent.shape or incoming.numel() == 1
    if not fits or bool((incoming == 0).any()):
        return MESSAGES.say("chain without local", **blanks)
    local = sent.double() / incoming.double()  # a single incoming number broadcasts
    return MESSAGES.say("chain", local=_text(local.reshape(sent.shape)), **blanks)


def _close(yours: torch.Tensor, expected: torch.Tensor) -> bool:
    """Within `compare`'s tolerance: the largest difference at most that fraction of the larger
    of the two gradients' largest values."""
    target = expected.detach().cpu().to(torch.float64).flatten()
    scale = max(target.abs().max().item(), yours.abs().max().item()) if target.numel() else 0.0
    difference = (yours - target).abs().max().item() if target.numel() else 0.0
    return difference <= tolerance_of(expected.dtype) * scale


# --- numbers and lists as words -------------------------------------------------------------------


def _text(g: Any) -> str:
    """A gradient's numbers as a blackboard shows them: ``3.0``, ``[1.0, 0.0, 3.0]``."""
    if g is None:
        return "None"
    if not isinstance(g, torch.Tensor):
        return str(g)
    values = g.detach().cpu().tolist()
    return _nested(values)


def _nested(values: Any) -> str:
    if isinstance(values, list):
        return "[" + ", ".join(_nested(value) for value in values) + "]"
    return format_number(values)


def _listed(parts: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``, in the helpers' language."""
    if len(parts) <= 1:
        return "".join(parts)
    return MESSAGES.say("list").join(parts[:-1]) + MESSAGES.say("and") + parts[-1]


def _example(sent: list[tuple[Node, torch.Tensor]]) -> str:
    """How an answer of the right size is written, with zeros for its numbers."""
    shapes = [[0.0] * g.numel() if g.dim() else 0.0 for _, g in sent]
    flat = [
        number for shape in shapes for number in (shape if isinstance(shape, list) else [shape])
    ]
    return _nested(flat) if len(flat) > 1 else _nested(flat[0])


def _count(parts: list[torch.Tensor]) -> int:
    return sum(part.numel() for part in parts)


def _quoted(answer: Any) -> str:
    return repr(answer) if isinstance(answer, str) else type(answer).__name__


def _spelling(text: str) -> str:
    """A name as answers are compared: full-width forms as typed, case, spaces, quotes and the
    punctuation ending a sentence left out."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = "".join(text.split()).strip("\"'`“”‘’「」『』")
    return text.rstrip(".。!！").strip("\"'`“”‘’「」『』")

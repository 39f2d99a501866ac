"""Specification of helpers.backward.quiz: a traced backward pass asked as questions, judged
against what PyTorch's engine did, in both languages."""

import re

import pytest
import torch
from speaks import assert_speaks_chinese

from helpers.backward import trace
from helpers.backward.quiz import SMALL, Quiz, Verdict
from helpers.backward.quiz_messages import QUIZ_MESSAGES
from helpers.graph import build
from helpers.language import speaking


def neuron():
    """Notebook 03's neuron: a = relu(w * x + b), w = 2, x = 3, b = 1; x needs no gradient."""
    w = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(1.0, requires_grad=True)
    x = torch.tensor(3.0)
    v = w * x + b
    a = torch.relu(v)
    return trace(a), {"w": w, "b": b, "v": v, "a": a}


def shared_input():
    """y = x * x + sin(x): x's AccumulateGrad waits for three gradients, two from one Node."""
    x = torch.tensor(0.5, requires_grad=True)
    y = x * x + torch.sin(x)
    return trace(y), {"x": x, "y": y}


# The engine's order for the neuron: a leaf's AccumulateGrad runs before the other ready Nodes.
NEURON_ORDER = ["ReluBackward0", "AddBackward0", "b", "MulBackward0", "w"]


def play_right(quiz):
    """Answer every question of the neuron rightly, in the learner's written forms."""
    answers = {
        "ReluBackward0": "1",
        "AddBackward0": "[1, 1]",
        "MulBackward0": "3",
    }
    for node in NEURON_ORDER:
        assert quiz.answer(node).right
        if node in answers:
            assert quiz.answer(answers[node]).right


def test_the_neuron_played_right_scores_every_question():
    steps, names = neuron()
    quiz = steps.quiz(names)
    assert quiz.question.startswith("Step 1 of 5")
    play_right(quiz)
    assert quiz.question is None
    assert quiz.score == (8, 8)  # five Nodes, three of them with a gradient to predict
    assert "8 of 8" in repr(quiz)


def test_trace_quiz_is_a_quiz_of_that_trace():
    steps, names = neuron()
    assert isinstance(steps.quiz(names), Quiz)
    assert Quiz(steps, names).question == steps.quiz(names).question


def test_the_gradient_question_names_the_local_derivative_never_its_value():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    quiz.answer("ReluBackward0")
    quiz.answer("1")
    quiz.answer("AddBackward0")
    quiz.answer("1, 1")
    quiz.answer("b")
    quiz.answer("MulBackward0")
    assert quiz.question == (
        "Step 4 of 5: MulBackward0 receives grad_out 1.0. What does it send to AccumulateGrad "
        "of w? You need the other factor."
    )


def test_a_wrong_gradient_gets_the_expected_one_and_the_chain_rule_with_its_numbers():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    for answer in ["ReluBackward0", "1", "AddBackward0", "1 1", "b", "MulBackward0"]:
        quiz.answer(answer)
    verdict = quiz.answer("2")
    assert (verdict.right, verdict.readable) == (False, True)
    assert verdict.said == (
        "Not quite: AccumulateGrad of w gets 3.0, not 2.0 "
        "(grad_out 1.0 × the other factor 3.0 = 3.0)."
    )
    # The expected gradient is shown: the quiz moves on to the next question.
    assert quiz.question.startswith("Step 5 of 5: which Node")
    assert verdict.question == quiz.question
    assert quiz.score == (6, 7)


def test_a_wrong_next_node_is_told_why_and_asked_again():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    waits = quiz.answer("AccumulateGrad of w")
    assert (waits.right, waits.readable) == (False, True)
    assert waits.said == (
        "Not quite: AccumulateGrad of w is not ready: it still waits for a gradient from "
        "MulBackward0 (0 of 1 arrived)."
    )
    assert quiz.question.startswith("Step 1 of 5")
    assert quiz.answer("ReluBackward0").right
    assert quiz.score == (0, 1)  # only the first try counts


def test_the_next_node_reasons_from_the_engines_order():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    for answer in ["ReluBackward0", "1", "AddBackward0", "1 1"]:
        quiz.answer(answer)
    ready = quiz.answer("MulBackward0")
    assert "ready too" in ready.said and "AccumulateGrad first" in ready.said
    quiz.answer("b")
    ran = quiz.answer("ReluBackward0")
    assert ran.said.startswith("Not quite: ReluBackward0 already ran, at step 1")
    elsewhere = quiz.answer(torch.tensor(1.0, requires_grad=True).exp().grad_fn)
    assert "is not in this graph" in elsewhere.said


def test_a_shared_input_waits_for_every_gradient_of_every_use():
    # The engine's order: AddBackward0, SinBackward0, MulBackward0, AccumulateGrad of x.
    steps, names = shared_input()
    assert [step.name for step in steps] == [
        "AddBackward0",
        "SinBackward0",
        "MulBackward0",
        "AccumulateGrad",
    ]
    quiz = Quiz(steps, names)
    too_early = quiz.answer("x")
    assert too_early.said == (
        "Not quite: AccumulateGrad of x is not ready: it still waits for a gradient from "
        "MulBackward0 (2 gradients) and SinBackward0 (0 of 3 arrived)."
    )
    add, sin, mul, _ = (step.node for step in steps)
    assert sorted(map(id, too_early.waiting_for)) == sorted(map(id, [mul, mul, sin]))
    quiz.answer("AddBackward0")
    quiz.answer("1, 1")
    assert "MulBackward0 is ready too" in quiz.answer("MulBackward0").said  # sin came later
    assert quiz.answer("SinBackward0").right
    assert quiz.answer("0.8776").right  # cos(0.5), to float32's tolerance of 0.8776 is 1e-4 × 0.88
    # One use has sent its gradient, the other (twice, x * x) not yet.
    assert "waits for a gradient from MulBackward0 (2 gradients) (1 of 3 arrived)" in (
        quiz.answer("x").said
    )
    assert quiz.answer("MulBackward0").right
    assert quiz.answer("x").waiting_for == ()  # ready, not waiting: nothing to point at
    verdict = quiz.answer("[0.5, 0.5]")
    assert verdict.right
    assert verdict.said.count("AccumulateGrad of x gets 0.5") == 2
    assert quiz.answer("x 的 AccumulateGrad").right
    assert quiz.question is None


def test_the_quiz_expects_what_a_hook_made_the_engine_send():
    h = torch.tensor(2.0, requires_grad=True)
    z = h * 3
    z.register_hook(lambda g: g * 2)
    out = z + 1
    quiz = trace(out).quiz({"h": h})
    for answer in ["AddBackward0", "1", "MulBackward0"]:
        assert quiz.answer(answer).right
    assert "grad_out 2.0 (a hook changed it: 1.0 was sent)" in quiz.question
    assert not quiz.answer("3").right  # what a pass without the hook would send
    quiz.restart()
    for answer in ["AddBackward0", "1", "MulBackward0"]:
        quiz.answer(answer)
    assert quiz.answer("6").said == (
        "Right: AccumulateGrad of h gets 6.0 (grad_out 2.0 × the other factor 3.0 = 6.0)."
    )


def test_a_tensor_gradient_is_read_in_every_form_check_reads():
    w = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)
    out = torch.relu(w).sum()
    for form in ["[1, 0, 1]", "【1，0，1】", "1、0、1", "一 零 一", torch.tensor([1.0, 0.0, 1.0])]:
        quiz = trace(out, retain_graph=True).quiz({"w": w})
        quiz.answer("SumBackward0")
        quiz.answer("[1, 1, 1]")
        quiz.answer("ReluBackward0")
        verdict = quiz.answer(form)
        assert verdict.right, (form, verdict.said)
    assert "× the derivative of relu at its input [1.0, 0.0, 1.0]" in verdict.said


def test_gradients_for_several_inputs_may_be_given_one_per_input():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    quiz.answer("ReluBackward0")
    quiz.answer("1")
    quiz.answer("AddBackward0")
    verdict = quiz.answer((torch.tensor(1.0), "一"))
    assert verdict.right
    assert verdict.said.count("gets 1.0") == 2


def test_an_answer_of_the_wrong_size_is_not_scored():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    quiz.answer("ReluBackward0")
    quiz.answer("1")
    quiz.answer("AddBackward0")
    verdict = quiz.answer("1")
    assert (verdict.right, verdict.readable) == (False, False)
    assert "sends 2 numbers to MulBackward0 and AccumulateGrad of b" in verdict.said
    unreadable = quiz.answer("one and one")
    assert not unreadable.readable and "cannot read" in unreadable.said
    assert quiz.score == (3, 3)
    assert quiz.answer("[1, 1]").right


def test_a_gradient_is_right_within_compares_tolerance():
    for dtype, near, far in [
        (torch.float32, "3.0002", "3.001"),
        (torch.float64, "3.0", "3.000001"),
    ]:
        w = torch.tensor(2.0, dtype=dtype, requires_grad=True)
        out = w * 3.0  # w's gradient: 3.0
        quiz = trace(out).quiz({"w": w})
        quiz.answer("MulBackward0")
        assert quiz.answer(near).right
        quiz.restart()
        quiz.answer("MulBackward0")
        assert not quiz.answer(far).right


def test_a_big_gradient_is_not_asked_for():
    w = torch.ones(SMALL + 1, requires_grad=True)
    quiz = trace((w * 2).sum()).quiz({"w": w})
    quiz.answer("SumBackward0")
    assert "which Node" in quiz.question  # no gradient question: seven numbers each


def test_a_node_is_answered_by_a_box_of_the_picture():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    model = build(steps.output, names, show_grads=False, fold=False)
    assert quiz.answer_next(model.find(steps[0].node).id).right
    quiz.answer("1")
    # The box of v, the tensor AddBackward0 computed, stands for that Node.
    v_box = next(box for box in model.nodes if box.title == "v")
    assert quiz.answer_next(v_box.id).right


def test_the_view_calls_each_question_by_its_own_method():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    refused = quiz.answer_gradient("1")
    assert not refused.readable and "quiz.answer_next" in refused.said
    assert quiz.answer_next(steps[0].node).right
    refused = quiz.answer_next("AddBackward0")
    assert not refused.readable and "quiz.answer_gradient" in refused.said
    assert quiz.answer_gradient(1.0).right


def test_show_reveals_the_step_and_counts_it_asked():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    assert quiz.show() == (
        "Step 1 of 5: ReluBackward0 runs. It receives 1.0 and sends 1.0 to AddBackward0."
    )
    assert quiz.question.startswith("Step 2 of 5: which Node")
    assert quiz.score == (0, 1)
    quiz.answer("AddBackward0")
    quiz.answer("1 1")
    assert (
        quiz.show()
        == "Step 3 of 5: AccumulateGrad of b runs. It receives 1.0 and adds it to b.grad."
    )


def test_restart_plays_the_pass_again_from_zero():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    quiz.answer("w")
    quiz.show()
    quiz.restart()
    assert quiz.score == (0, 0)
    assert quiz.question.startswith("Step 1 of 5")
    play_right(quiz)
    assert quiz.score == (8, 8)


def test_answers_after_the_end_say_so():
    steps, names = neuron()
    quiz = Quiz(steps, names)
    play_right(quiz)
    verdict = quiz.answer("ReluBackward0")
    assert not verdict.readable and "quiz.restart()" in verdict.said
    assert "quiz.restart()" in quiz.show()
    assert "over" in repr(quiz)


def test_names_in_either_language_name_the_same_node():
    steps, names = neuron()
    for answer in ["w", "AccumulateGrad of w", "w 的 AccumulateGrad", "w的accumulategrad", "“w”"]:
        quiz = Quiz(steps, names)
        assert "AccumulateGrad of w is not ready" in quiz.answer(answer).said, answer
    quiz = Quiz(steps, names)
    assert not quiz.answer("six").readable


def test_the_neuron_played_in_chinese():
    steps, names = neuron()
    with speaking("zh"):
        quiz = Quiz(steps, names)
        said = [quiz.question]
        said.append(quiz.answer("w 的 AccumulateGrad").said)
        said.append(quiz.answer("ReluBackward0").said)
        said.append(quiz.question)
        said.append(quiz.answer("一").said)
        said.append(quiz.answer("AddBackward0").said)
        said.append(quiz.answer("【1，1】").said)
        said.append(quiz.answer("MulBackward0").said)
        said.append(quiz.answer("b").said)
        said.append(quiz.answer("MulBackward0").said)
        said.append(quiz.question)
        said.append(quiz.answer("六").said)
        said.append(quiz.answer("[1]").said)
        said.append(quiz.show())
        said.append(repr(quiz))
    assert said[1].startswith("不对：w 的 AccumulateGrad 还没有就绪")
    assert (
        said[4] == "对：AddBackward0 得到 1.0（grad_out 1.0 × relu 在其输入处的导数 1.0 = 1.0）。"
    )
    assert said[11] == (
        "不对：w 的 AccumulateGrad 得到的是 3.0，不是 6.0（grad_out 1.0 × 另一个因子 3.0 = 3.0）。"
    )
    assert "要用到：另一个因子" in said[10]
    for text in said:
        assert_speaks_chinese(text)
    assert quiz.score == (4, 8)


@pytest.mark.parametrize("language", ["en", "zh"])
def test_every_text_of_the_quiz_is_in_both_languages(language):
    for key in QUIZ_MESSAGES.texts:
        with speaking(language):
            text = QUIZ_MESSAGES.texts[key][language]
        assert text.strip()
        # Separators, and a formula written alike in both languages, hold no words to translate;
        # nor do the blanks a text is made of ("{node}（{tensor}）").
        words = any(character.isalpha() for character in re.sub(r"\{\w+\}", "", text))
        formula = QUIZ_MESSAGES.texts[key]["en"] == QUIZ_MESSAGES.texts[key]["zh"]
        if language == "zh" and words and not formula:
            assert_speaks_chinese(text.replace("{", "").replace("}", "") + "。")


def test_a_verdict_shows_its_sentence_and_the_next_question():
    verdict = Verdict(True, True, "Right.", "Step 2 of 2: which Node does the engine run next?")
    assert repr(verdict) == "Right.\n\nStep 2 of 2: which Node does the engine run next?"
    assert repr(Verdict(False, True, "Over.")) == "Over."

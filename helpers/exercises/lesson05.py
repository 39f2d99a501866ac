"""Check yourself, notebook 05: gradients add up, how many there are, updates outside no_grad."""

from __future__ import annotations

from typing import Any

from helpers.exercises import as_choice, as_number, exercise, means_none


@exercise(
    "05.1",
    "You delete the two .grad.zero_() lines from the loop. During step 1, after loss.backward(), "
    "what does w2.grad hold? 'a': the gradient of step 1; 'b': the sum of the gradients of "
    "steps 0 and 1; 'c': the gradient of step 0.",
    hint="What does backward() do with a .grad that already holds numbers: replace them or add "
    "to them? And what did step 0 leave in w2.grad?",
    why="backward() adds into .grad; nothing clears what step 0 left there, so w2.grad holds the "
    "gradient of step 0 plus that of step 1, and the update would follow that sum.",
    right_answers=("b", "B", " b ", "'b'"),
    wrong_answers=("a", "c", 2, "ab", ["b"], [False, True, False]),
)
def _gradients_accumulate(answer: Any) -> bool:
    return as_choice(answer, "abc") == "b"


@exercise(
    "05.2",
    "How many numbers does one loss.backward() write into .grad tensors in notebook 05's network?",
    hint="Only tensors that require grad get a .grad, and each .grad has the shape of its tensor. "
    "Which tensors of the network require grad, and how many numbers does each hold?",
    why="One gradient per weight: w1 holds 1000 x 100 = 100,000 numbers and w2 holds "
    "100 x 10 = 1,000, so 101,000. x and y do not require grad and get none.",
    right_answers=(101000, 101000.0, "101000", "101,000", "101_000", "1.01e5"),
    wrong_answers=(100000, 1000, 101100, 64000 + 640, "many", "101,0"),
)
def _number_of_gradients(answer: Any) -> bool:
    return as_number(answer) == 101000


@exercise(
    "05.3",
    "Outside torch.no_grad() you update with w1 = w1 - learning_rate * w1.grad, run the next "
    "forward pass and loss.backward(). What is w1.grad now?",
    hint="After w1 = w1 - ..., the name w1 points at a new tensor, the result of a subtraction "
    "that autograd recorded. Is that tensor a leaf? Which tensors does backward() fill .grad "
    "for?",
    why="The new w1 is the result of a subtraction: it has a grad_fn and is not a leaf, so "
    "backward() does not fill its .grad, which stays None (PyTorch warns when you read it).",
    right_answers=(None, "None", "none"),
    wrong_answers=(0, "0", "a tensor", "the gradient", [None], False),
)
def _update_outside_no_grad(answer: Any) -> bool:
    return means_none(answer)

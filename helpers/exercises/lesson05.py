"""Check yourself, notebook 05: gradients add up, how many there are, updates outside no_grad."""

from __future__ import annotations

from typing import Any

from helpers.exercises import as_choice, exercise


@exercise(
    "05.1",
    "You delete the two .grad.zero_() lines from the loop. During step 1, after loss.backward(), "
    "what does w2.grad hold? 'a': the gradient of step 1; 'b': the sum of the gradients of "
    "steps 0 and 1; 'c': the gradient of step 0.",
    "backward() adds into .grad; nothing clears what step 0 left there, so w2.grad holds the "
    "gradient of step 0 plus that of step 1, and the update would follow that sum.",
    right_answers=("b", "B", " b "),
    wrong_answers=("a", "c", 2, "ab"),
)
def _gradients_accumulate(answer: Any) -> bool:
    return as_choice(answer) == "b"


@exercise(
    "05.2",
    "How many numbers does one loss.backward() write into .grad tensors in notebook 05's network?",
    "One gradient per weight: w1 holds 1000 x 100 = 100,000 numbers and w2 holds 100 x 10 = 1,000, "
    "so 101,000. x and y do not require grad and get none.",
    right_answers=(101000, 101000.0, "101000", "101,000"),
    wrong_answers=(100000, 1000, 101100, 64000 + 640, "many"),
)
def _number_of_gradients(answer: Any) -> bool:
    if isinstance(answer, bool):
        return False
    if isinstance(answer, str):
        answer = float(answer.replace(",", "").replace("_", ""))
    return float(answer) == 101000


@exercise(
    "05.3",
    "Outside torch.no_grad() you update with w1 = w1 - learning_rate * w1.grad, run the next "
    "forward pass and loss.backward(). What is w1.grad now?",
    "The new w1 is the result of a subtraction: it has a grad_fn and is not a leaf, so backward() "
    "does not fill its .grad, which stays None (PyTorch warns when you read it).",
    right_answers=(None, "None", "none"),
    wrong_answers=(0, "0", "a tensor", "the gradient"),
)
def _update_outside_no_grad(answer: Any) -> bool:
    if answer is None:
        return True
    return isinstance(answer, str) and answer.strip().lower() == "none"

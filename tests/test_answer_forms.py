"""The answer forms a learner types, with English or Chinese habits, and the verdict each deserves.

Every row is run through `check()` itself, in both languages: the same value written another way
is right; a wrong value is "Not quite" with the exercise's hint; an answer the rules cannot read
as any value the question asks for is told so, with the note on how an answer to that question
is written (compared with the catalogue's own text for that note) and no hint on the idea. The
rules are the ones listed in helpers/exercises/reading.py.
"""

import itertools
import time

import numpy as np
import pytest
import torch
from speaks import assert_speaks_chinese

from helpers.exercises import MESSAGES, UnknownExercise, check, exercises
from helpers.exercises.lesson04 import _Cube, _CubeWritesIntoGradOutput, _CubeWrongDerivative
from helpers.language import LANGUAGES, Catalogue, speaking
from helpers.torch_version import clamp_gradient_at_zero

# The three verdicts an answer can get.
RIGHT = "right"
WRONG = "wrong"  # read as a wrong value: "Not quite" and the hint
UNREADABLE = "unreadable"  # read as no value the question asks for: how to write one, no hint

# 06.3's right letter follows the torch running (helpers/exercises/lesson06.py): "a" where clamp
# sends back 1 at exactly 0 (torch 2.13 and earlier), "b" where it sends back 0.
TIE, OTHER = ("a", "b") if clamp_gradient_at_zero() == 1.0 else ("b", "a")

# (exercise id, answer, verdict, the kind of note it shows or None)
FORMS = [
    # 1. The punctuation that ends a sentence is not part of the answer.
    ("01.3", "18。", RIGHT, None),
    ("01.3", "18.", RIGHT, None),
    ("01.3", "18．", RIGHT, None),
    ("01.3", "18！", RIGHT, None),
    ("01.3", "18!", RIGHT, None),
    ("01.3", "18，", RIGHT, None),
    ("01.3", "18；", RIGHT, None),
    ("01.3", "18 。", RIGHT, None),
    ("02.5", "-0.", RIGHT, None),
    ("02.5", "-0。", RIGHT, None),
    ("02.6", "None。", RIGHT, None),
    ("02.6", "None.", RIGHT, None),
    ("09.6", "b。", RIGHT, None),
    ("05.4", "B.", RIGHT, None),
    ("08.6", "q；", RIGHT, None),
    ("08.3", "(b)", RIGHT, None),
    ("08.3", "选 b", RIGHT, None),
    ("08.3", "B。", RIGHT, None),
    ("08.3", "a", WRONG, None),
    ("08.3", "d", WRONG, None),
    ("08.3", "b 和 c", UNREADABLE, "choice"),
    ("01.5", "[2, 0, 6]。", RIGHT, None),
    ("01.5", "[2, 0, 6].", RIGHT, None),
    ("01.4", "False.", RIGHT, None),
    ("01.4", "False。", RIGHT, None),
    ("01.4", "false！", RIGHT, None),
    ("04.4", "(True, False)。", RIGHT, None),
    ("02.4", "w, b。", RIGHT, None),
    ("07.3", "torch.Tensor。", RIGHT, None),
    ("07.4", "loss.item()。", RIGHT, None),
    ("01.3", "6。", WRONG, None),
    ("01.4", "True。", WRONG, None),
    ("09.6", "a。", WRONG, None),
    ("02.6", "无。", UNREADABLE, "none"),
    # 2. Chinese and full-width brackets and quotes are their ASCII twins.
    ("01.5", "【2，0，6】", RIGHT, None),
    ("01.5", "【2, 0, 6】", RIGHT, None),
    ("01.5", "〔2，0，6〕", RIGHT, None),
    ("01.5", "（2，0，6）", RIGHT, None),
    ("01.5", "［2，0，6］", RIGHT, None),
    ("01.4", "“False”", RIGHT, None),
    ("01.4", "'False'", RIGHT, None),
    ("01.4", '"False"', RIGHT, None),
    ("01.4", "「False」", RIGHT, None),
    ("01.4", "『False』", RIGHT, None),
    ("01.4", "‘False’", RIGHT, None),
    ("01.4", "`False`", RIGHT, None),
    ("02.6", "「None」", RIGHT, None),
    ("02.6", "『None』。", RIGHT, None),
    ("07.3", "「torch.Tensor」", RIGHT, None),
    ("07.4", "“item”", RIGHT, None),
    ("07.4", "「item()」", RIGHT, None),
    ("05.4", "「b」", RIGHT, None),
    ("06.5", "『a』", RIGHT, None),
    ("02.4", "｛「w」，「b」｝", RIGHT, None),
    ("02.4", "【'w', 'b'】", RIGHT, None),
    ("04.4", "【True，False】", RIGHT, None),
    ("01.5", "【2，4，6】", WRONG, None),
    ("01.4", "“True”", WRONG, None),
    ("01.4", "「是」", WRONG, None),  # read as True
    # 3. Separators between names and values, where a list or a set is asked.
    ("02.4", "w和b", RIGHT, None),
    ("02.4", "w 和 b", RIGHT, None),
    ("02.4", "w 与 b", RIGHT, None),
    ("02.4", "w及b", RIGHT, None),
    ("02.4", "w 以及 b", RIGHT, None),
    ("02.4", "w and b", RIGHT, None),
    ("02.4", "W AND B", RIGHT, None),
    ("02.4", "w、b", RIGHT, None),
    ("02.4", "w，b", RIGHT, None),
    ("02.4", "w；b", RIGHT, None),
    ("02.4", "w;b", RIGHT, None),
    ("02.4", "w b", RIGHT, None),
    ("02.4", "b 和 w。", RIGHT, None),
    ("02.4", "w 和 b 和 x", WRONG, None),
    ("02.4", "w、b、u", WRONG, None),
    ("02.4", "w", WRONG, None),
    ("02.4", "w or b", WRONG, None),
    ("01.5", "2和0和6", RIGHT, None),
    ("01.5", "2，0 和 6", RIGHT, None),
    ("01.5", "2、0 与 6", RIGHT, None),
    ("01.5", "2; 0; 6", RIGHT, None),
    ("01.5", "2 and 0 and 6", RIGHT, None),
    ("06.4", "0，1 和 2", RIGHT, None),
    ("07.5", "0 和 0", RIGHT, None),
    ("04.4", "True 和 False", RIGHT, None),
    ("04.4", "True、False", RIGHT, None),
    ("04.4", "True and False", RIGHT, None),
    ("04.4", "True；False", RIGHT, None),
    ("04.4", "True 或 False", UNREADABLE, "bools"),
    ("04.4", "是 和 否", RIGHT, None),
    # ... but never where one number is asked.
    ("01.3", "2 和 3", UNREADABLE, "number"),
    ("01.3", "18 和 18", UNREADABLE, "number"),
    ("01.3", "十八 和 十八", UNREADABLE, "number"),
    ("05.5", "100000 和 1000", UNREADABLE, "number"),
    # 4. Chinese numerals, 万 and 亿, and a unit word after a number.
    ("01.3", "十八", RIGHT, None),
    ("01.3", "十八。", RIGHT, None),
    ("01.3", "一八", RIGHT, None),
    ("01.3", "十八个", RIGHT, None),
    ("08.4", "三", RIGHT, None),
    ("08.4", "三个", RIGHT, None),
    ("08.4", "3个", RIGHT, None),
    ("08.4", "两", WRONG, None),
    ("08.4", "两个", WRONG, None),
    ("03.3", "〇", RIGHT, None),
    ("03.3", "零", RIGHT, None),
    ("02.5", "零", RIGHT, None),
    ("02.5", "负三", WRONG, None),
    ("03.4", "三十三", RIGHT, None),
    ("03.4", "三十三。", RIGHT, None),
    ("03.4", "二十七", WRONG, None),
    ("03.4", "三三十", UNREADABLE, "number"),
    ("05.5", "10.1万", RIGHT, None),
    ("05.5", "十万一千", RIGHT, None),
    ("05.5", "101000个", RIGHT, None),
    ("05.5", "10.1万个", RIGHT, None),
    ("05.5", "十万零一千", RIGHT, None),
    ("05.5", "１０.１万", RIGHT, None),
    ("05.5", "10.1 万", RIGHT, None),
    ("05.5", "十万一千个。", RIGHT, None),
    ("05.5", "10万1000", RIGHT, None),
    ("05.5", "十万", WRONG, None),
    ("05.5", "10万", WRONG, None),
    ("05.5", "10万个", WRONG, None),
    ("05.5", "一千", WRONG, None),
    ("05.5", "十万一百", WRONG, None),
    ("05.5", "10.1千", WRONG, None),
    ("05.5", "十十万", UNREADABLE, "number"),
    ("09.5", "六十", RIGHT, None),
    ("09.5", "三十", WRONG, None),
    ("04.5", "一", RIGHT, None),
    ("03.5", "一", RIGHT, None),
    ("03.5", "零", WRONG, None),
    ("08.5", "七", RIGHT, None),
    ("08.5", "六", WRONG, None),
    ("01.3", "一百零一", WRONG, None),
    # 5. A method called on any receiver.
    ("07.4", "x.item()", RIGHT, None),
    ("07.4", "loss.data.item()", RIGHT, None),
    ("07.4", "y.item()", RIGHT, None),
    ("07.4", "`loss.item()`", RIGHT, None),
    ("07.4", "model.loss.item", RIGHT, None),
    ("07.4", "LOSS.ITEM()", RIGHT, None),
    ("07.4", "x.tolist()", RIGHT, None),
    ("07.4", "loss.data", WRONG, None),
    ("07.4", "x.numpy()", WRONG, None),
    ("07.4", "loss.data[0]", WRONG, None),
    ("07.4", "x.items()", WRONG, None),
    ("07.4", "loss.itemize()", WRONG, None),
    # 6. Numbers written as an array or a tensor is made or printed.
    ("06.4", "array([0., 1., 2.])", RIGHT, None),
    ("06.4", "np.array([0., 1., 2.])", RIGHT, None),
    ("06.4", "numpy.array([0, 1, 2])", RIGHT, None),
    ("06.4", "tensor([0., 1., 2.])", RIGHT, None),
    ("06.4", "torch.tensor([0., 1., 2.])", RIGHT, None),
    ("06.4", "torch.tensor([0., 1., 2.], requires_grad=True)", RIGHT, None),
    ("06.4", "[0. 1. 2.]", RIGHT, None),
    ("06.4", "array([0., 1., 2.], dtype=float32)", RIGHT, None),
    ("06.4", "np.array([0, 1, 2])。", RIGHT, None),
    ("01.5", "array([2., 0., 6.])", RIGHT, None),
    ("01.5", "[2. 0. 6.]", RIGHT, None),
    ("07.5", "array([0., 0.])", RIGHT, None),
    ("07.5", "[0. 0.]", RIGHT, None),
    ("01.3", "array(18.)", RIGHT, None),
    ("01.3", "np.float64(18.0)", RIGHT, None),
    ("01.3", "torch.tensor(18.)", RIGHT, None),
    ("01.3", "np.array([18.])", RIGHT, None),
    ("06.4", "array([0., 0., 2.])", WRONG, None),
    ("06.4", "[0. 1. 1.]", WRONG, None),
    ("06.4", "np.array([[0, 1, 2]])", WRONG, None),
    ("06.4", "array([True, True, True])", UNREADABLE, "numbers"),
    ("10.1", "tensor([[-4., 0.], [0., 7.]])", RIGHT, None),
    ("10.1", "[[-4.  0.]\n [ 0.  7.]]", RIGHT, None),
    ("10.1", "array([[-4., 0.], [0., 7.]])", RIGHT, None),
    ("10.1", "【【-4，0】，【0，7】】", RIGHT, None),
    ("10.1", "-4、0、0、7", RIGHT, None),
    ("10.1", "[[0, 5], [6, 7]]", WRONG, None),
    ("10.1", "[[-4, 5], [6, 7]]", WRONG, None),
    ("10.1", "[-4, 0, 7]", WRONG, None),
    # 7. A list or a set question that cannot read the answer says so, never "one number".
    ("01.5", "two, zero, six", UNREADABLE, "numbers"),
    ("01.5", "2, 0, x", UNREADABLE, "numbers"),
    ("01.5", "{2, 0, 6}", UNREADABLE, "numbers"),
    ("01.5", "True, False, True", UNREADABLE, "numbers"),
    ("06.4", "c", UNREADABLE, "numbers"),
    ("07.5", "nothing", UNREADABLE, "numbers"),
    ("07.5", "RuntimeError", UNREADABLE, "numbers"),
    ("10.1", "[[-4, 0], [0, seven]]", UNREADABLE, "numbers"),
    ("10.1", "grad_h_relu", UNREADABLE, "numbers"),
    ("02.4", 3, UNREADABLE, "names"),
    ("02.4", ["w", 1], UNREADABLE, "names"),
    ("04.4", "(1, 0)", RIGHT, None),
    ("04.4", "yes, no", RIGHT, None),
    ("04.4", "{True, False}", UNREADABLE, "bools"),  # a set has no order; these flags do
    # 10. Case in 07.3: the small-letter spellings name the function, every other the class.
    ("07.3", "Tensor", RIGHT, None),
    ("07.3", "torch.Tensor", RIGHT, None),
    ("07.3", "TENSOR", RIGHT, None),
    ("07.3", "TORCH.TENSOR", RIGHT, None),
    ("07.3", "<class 'torch.Tensor'>", RIGHT, None),
    ("07.3", torch.Tensor, RIGHT, None),
    ("07.3", "tensor", WRONG, "class_not_function"),
    ("07.3", "torch.tensor", WRONG, "class_not_function"),
    ("07.3", "“tensor”。", WRONG, "class_not_function"),
    ("07.3", "<class 'torch.tensor'>", WRONG, "class_not_function"),
    ("07.3", torch.tensor, WRONG, "class_not_function"),
    ("07.3", "Variable", WRONG, None),
    ("07.3", None, UNREADABLE, "word"),
    # 11. Nothing makes a wrong idea right.
    ("01.4", "yes", WRONG, None),
    ("01.4", "是", WRONG, None),
    ("02.6", "nothing", UNREADABLE, "none"),
    ("02.6", "无", UNREADABLE, "none"),
    ("02.6", "没有。", UNREADABLE, "none"),
    ("05.5", "101,0", UNREADABLE, "number"),
    ("01.5", "2 4 6", WRONG, None),
    ("01.5", [[2, 0, 6]], WRONG, None),
    ("05.4", ["b"], UNREADABLE, "choice"),
    ("05.4", "ab", UNREADABLE, "choice"),
    ("05.4", "b 和 c", UNREADABLE, "choice"),
    ("09.6", "b、c", UNREADABLE, "choice"),
    ("04.3", 3, UNREADABLE, "function_class"),
    ("02.5", "None。", UNREADABLE, "number"),
    ("03.3", "x", UNREADABLE, "number"),
    ("01.3", "10²", UNREADABLE, "number"),
    ("01.3", "十²", UNREADABLE, "number"),
    ("08.6", "p。", WRONG, None),
    # 12. A phrase before the answer, in any kind of question, in either language.
    ("01.3", "答案是18", RIGHT, None),
    ("01.3", "答案：18", RIGHT, None),
    ("01.3", "答：十八", RIGHT, None),
    ("01.3", "是18", RIGHT, None),
    ("01.3", "the answer is 18", RIGHT, None),
    ("01.3", "答案是6", WRONG, None),
    ("01.3", "答案是", UNREADABLE, "number"),
    ("01.4", "答案是 False", RIGHT, None),
    ("01.5", "答案是 [2, 0, 6]", RIGHT, None),
    ("02.4", "答案是 w 和 b", RIGHT, None),
    ("02.5", "答案：0", RIGHT, None),
    ("02.6", "答案是 None", RIGHT, None),
    ("02.6", "The answer is None.", RIGHT, None),
    ("03.4", "答案：“33”", RIGHT, None),
    ("05.4", "选b", RIGHT, None),
    ("05.4", "选项 b", RIGHT, None),
    ("05.4", "答案：b", RIGHT, None),
    ("05.4", "option b", RIGHT, None),
    ("05.4", "Option (B)", RIGHT, None),
    ("05.4", "the answer is b", RIGHT, None),
    ("05.4", "b)", RIGHT, None),
    ("05.4", "选a", WRONG, None),
    ("05.4", "选项", UNREADABLE, "choice"),
    ("05.1", "选 b", RIGHT, None),
    ("05.2", "答案是 b", RIGHT, None),
    ("06.5", "选项a", RIGHT, None),
    ("06.3", f"答案：{TIE}", RIGHT, None),
    ("06.3", "选c", WRONG, None),
    ("06.1", "选B", RIGHT, None),
    ("06.2", "答案是 b", RIGHT, None),
    ("07.3", "答案是 torch.Tensor", RIGHT, None),
    ("07.4", "答案是 item()", RIGHT, None),
    ("07.1", "选项：b", RIGHT, None),
    ("07.2", "I choose b", RIGHT, None),
    ("08.6", "选 q", RIGHT, None),
    ("08.6", "选p", WRONG, None),
    ("09.6", "答案是b", RIGHT, None),
    ("10.4", "选a", RIGHT, None),
    ("10.4", "选项 a", RIGHT, None),
    ("10.4", "答案：a", RIGHT, None),
    ("10.4", "选b", WRONG, None),
    ("10.4", "exactly 0", UNREADABLE, "choice"),
    ("10.7", "选a", RIGHT, None),
    ("10.7", "选项 a", RIGHT, None),
    ("10.7", "答案：a", RIGHT, None),
    ("10.8", "选a", RIGHT, None),
    ("10.8", "选项 A", RIGHT, None),
    ("10.8", "答案：ａ", RIGHT, None),
    ("11.1", "选a", RIGHT, None),
    ("11.1", "选项 a", RIGHT, None),
    ("11.1", "答案：a", RIGHT, None),
    ("11.1", "答案是 c", WRONG, None),
    ("11.1", "AddBackward0", UNREADABLE, "choice"),
    # 13. Yes and no, and 1 and 0, where True or False is asked: one per value asked.
    ("01.4", "否", RIGHT, None),
    ("01.4", "不", RIGHT, None),
    ("01.4", "no", RIGHT, None),
    ("01.4", "NO", RIGHT, None),
    ("01.4", "错", RIGHT, None),
    ("01.4", "假", RIGHT, None),
    ("01.4", 0, RIGHT, None),
    ("01.4", "0", RIGHT, None),
    ("01.4", "对", WRONG, None),
    ("01.4", 1, WRONG, None),
    ("01.4", 0.0, UNREADABLE, "bool"),
    ("01.4", "maybe", UNREADABLE, "bool"),
    ("01.4", "是否", UNREADABLE, "bool"),
    ("02.3", "不是", RIGHT, None),
    ("02.3", "是的", WRONG, None),
    ("01.1", "是，否", RIGHT, None),
    ("01.1", "对，错", RIGHT, None),
    ("01.1", "(1,0)", RIGHT, None),
    ("01.1", "否，否", WRONG, None),
    ("01.1", "是", UNREADABLE, "bools"),
    ("01.2", "否，是", RIGHT, None),
    ("01.2", "都是 True", WRONG, None),
    ("02.1", "真，假", RIGHT, None),
    ("02.1", "yes, no", RIGHT, None),
    ("04.4", "是、否", RIGHT, None),
    ("10.9", "否，否", RIGHT, None),
    ("10.9", "不，不", RIGHT, None),
    ("10.9", "错，错", RIGHT, None),
    ("10.9", "(0,0)", RIGHT, None),
    ("10.9", "（0，0）", RIGHT, None),
    ("10.9", (0, 0), RIGHT, None),
    ("10.9", "都是 False", RIGHT, None),
    ("10.9", "答案是 否，否", RIGHT, None),
    ("10.9", "是，否", WRONG, None),
    ("10.9", "(1, 0)", WRONG, None),
    ("10.9", "否", UNREADABLE, "bools"),
    ("10.9", "否，否，否", UNREADABLE, "bools"),
    ("10.9", "(0.0, 0.0)", UNREADABLE, "bools"),
    ("11.2", "是，是", RIGHT, None),
    ("11.2", "对，对", RIGHT, None),
    ("11.2", "都是 True", RIGHT, None),
    ("11.2", "都对", RIGHT, None),
    ("11.2", "both True", RIGHT, None),
    ("11.2", "(1, 1)", RIGHT, None),
    ("11.2", "是，否", WRONG, None),
    ("11.2", "都是 False", WRONG, None),
    ("11.2", "是 True", UNREADABLE, "bools"),
    # ... and nowhere else: 是 is no number, no letter, no list, no name.
    ("01.3", "是", UNREADABLE, "number"),
    ("03.3", "否", UNREADABLE, "number"),
    ("11.6", "是", UNREADABLE, "number"),
    ("05.4", "是", UNREADABLE, "choice"),
    ("06.4", "是", UNREADABLE, "numbers"),
    ("10.3", "是", UNREADABLE, "name"),
    # 14. A name with words around it that say what it names, its parts joined any way.
    ("10.3", "h 的梯度", RIGHT, None),
    ("10.3", "h的梯度", RIGHT, None),
    ("10.3", "张量 h", RIGHT, None),
    ("10.3", "答案是h", RIGHT, None),
    ("10.3", "（h）", RIGHT, None),
    ("10.3", "the gradient of h", RIGHT, None),
    ("10.3", "h's gradient", RIGHT, None),
    ("10.3", "h.grad", RIGHT, None),
    ("10.3", "H 的梯度", RIGHT, None),
    ("10.3", "w1 的梯度", WRONG, None),
    ("10.3", "张量 w1", WRONG, None),
    ("10.3", "h_relu 的梯度", WRONG, None),
    ("10.3", "x", WRONG, None),
    ("10.3", "h, w1", UNREADABLE, "name"),
    ("10.3", "h 和 w1", UNREADABLE, "name"),
    ("10.3", "h w1", UNREADABLE, "name"),
    ("10.3", "h 的梯度是错的", UNREADABLE, "name"),
    ("10.3", "梯度", UNREADABLE, "name"),
    ("10.3", 1, UNREADABLE, "name"),
    ("10.2", "h_relu 的梯度", RIGHT, None),
    ("10.2", "张量 h_relu", RIGHT, None),
    ("10.2", "（h_relu）", RIGHT, None),
    ("10.2", "答案是 grad_h_relu", RIGHT, None),
    ("10.2", "h 的梯度", WRONG, None),
    ("10.2", "h_relu 和 h", UNREADABLE, "name"),
    ("11.3", "head层", RIGHT, None),
    ("11.3", "head 模块", RIGHT, None),
    ("11.3", "head 层", RIGHT, None),
    ("11.3", "the head layer", RIGHT, None),
    ("11.3", "head module", RIGHT, None),
    ("11.3", "model.head", RIGHT, None),
    ("11.3", "norm 层", WRONG, None),
    ("11.3", "第一个块", WRONG, None),
    ("11.3", "head 和 norm", UNREADABLE, "name"),
    ("11.4", "第一个块", RIGHT, None),
    ("11.4", "第 1 个块", RIGHT, None),
    ("11.4", "第1块", RIGHT, None),
    ("11.4", "block 0", RIGHT, None),
    ("11.4", "Block 0", RIGHT, None),
    ("11.4", "blocks。0", RIGHT, None),
    ("11.4", "blocks．0", RIGHT, None),
    ("11.4", "blocks[0]", RIGHT, None),
    ("11.4", "the first block", RIGHT, None),
    ("11.4", "最后一个块", WRONG, None),
    ("11.4", "第十二个块", WRONG, None),
    ("11.4", "the last block", WRONG, None),
    ("11.4", "block 11", WRONG, None),
    ("11.4", "blocks[11]", WRONG, None),
    ("11.4", "第一", UNREADABLE, "name"),
    ("11.4", "0", UNREADABLE, "name"),
    ("11.5", "key的偏置", RIGHT, None),
    ("11.5", "key 的偏置", RIGHT, None),
    ("11.5", "key bias", RIGHT, None),
    ("11.5", "key_bias", RIGHT, None),
    ("11.5", "key。bias", RIGHT, None),
    ("11.5", "KEY BIAS", RIGHT, None),
    ("11.5", "the bias of key", RIGHT, None),
    ("11.5", "key's bias", RIGHT, None),
    ("11.5", "blocks[0].attention.key.bias", RIGHT, None),
    ("11.5", "key的权重", WRONG, None),
    ("11.5", "query的偏置", WRONG, None),
    ("11.5", "query bias", WRONG, None),
    ("11.5", "value_bias", WRONG, None),
    ("11.5", "key 和 bias", UNREADABLE, "name"),
    # 15. The text of an option that is code, however spaced, is its letter.
    ("10.7", "x.t().mm(grad_h)", RIGHT, None),
    ("10.7", "x.t() .mm( grad_h )", RIGHT, None),
    ("10.7", "`x.t().mm(grad_h)`", RIGHT, None),
    ("10.7", "grad_h.t().mm(x)", WRONG, None),
    ("10.7", "grad_h.mm(w1.t())", WRONG, None),
    ("10.7", "x.T.mm(grad_h)", UNREADABLE, "choice"),
    ("10.8", "grad_y_pred.sum(0)", RIGHT, None),
    ("10.8", "grad_y_pred.sum(1)", WRONG, None),
    ("10.8", "grad_y_pred.mean(0)", WRONG, None),
    ("10.8", "grad_y_pred[0]", WRONG, None),
    ("10.8", "grad_y_pred.sum(dim=0)", UNREADABLE, "choice"),
    ("10.5", "选项 c", RIGHT, None),
    ("10.5", "答案是 c", RIGHT, None),
    ("10.5", "the answer is C", RIGHT, None),
    ("10.5", "选a", WRONG, None),
    ("10.5", "d。", WRONG, None),
    ("10.5", "640", UNREADABLE, "choice"),
    ("10.5", "乘以 640", UNREADABLE, "choice"),
    ("10.6", "选b", RIGHT, None),
    ("10.6", "答案：Ｂ", RIGHT, None),
    ("10.6", "（b）", RIGHT, None),
    ("10.6", "选项 a", WRONG, None),
    ("10.6", "d", WRONG, None),
    ("10.6", "0", UNREADABLE, "choice"),
    ("10.6", "每行之和为 0", UNREADABLE, "choice"),
    ("09.6", "y *= 2", RIGHT, None),
    ("09.6", "y*=2", RIGHT, None),
    ("09.6", "y = y * 2", WRONG, None),
    ("09.6", "z = y + 1", WRONG, None),
    ("04.1", "tensor(0.)", RIGHT, None),
    ("04.1", "None", WRONG, None),
    ("04.1", "tensor(1.)", WRONG, None),
    ("04.1", "0", UNREADABLE, "choice"),
    # 16. A word of quantity before or after a number.
    ("11.6", "共13个", RIGHT, None),
    ("11.6", "约13", RIGHT, None),
    ("11.6", "一共13个", RIGHT, None),
    ("11.6", "一共十三个", RIGHT, None),
    ("11.6", "大约 13", RIGHT, None),
    ("11.6", "13左右", RIGHT, None),
    ("11.6", "about 13", RIGHT, None),
    ("11.6", "13 in total", RIGHT, None),
    ("11.6", "total: 13", RIGHT, None),
    ("11.6", "共12个", WRONG, None),
    ("11.6", "约9", WRONG, None),
    ("11.6", "共", UNREADABLE, "number"),
    ("11.7", "共69个", RIGHT, None),
    ("11.7", "六十九", RIGHT, None),
    ("11.7", "69 in total", RIGHT, None),
    ("11.7", "七十个", WRONG, None),
    ("11.7", "AccumulateGrad", UNREADABLE, "number"),
    ("11.8", "三个", RIGHT, None),
    ("11.8", "3 个", RIGHT, None),
    ("11.8", "３", RIGHT, None),
    ("11.8", "答案是 3", RIGHT, None),
    ("11.8", "八个", WRONG, None),
    ("11.8", "0, 1, 2", UNREADABLE, "number"),
    ("05.5", "共 101000 个", RIGHT, None),
    ("08.4", "共3个", RIGHT, None),
    ("08.1", "一共1次", RIGHT, None),
    ("08.1", "共4次", WRONG, None),
    ("08.2", "一共五个", RIGHT, None),
    ("09.5", "共60", RIGHT, None),
    # 17. The exercises not met above, each with a right, a wrong and an unreadable form.
    ("01.1", "True，False", RIGHT, None),
    ("01.2", "(True, False)", WRONG, None),
    ("02.1", "(False, False)", WRONG, None),
    ("02.1", "{True, False}", UNREADABLE, "bools"),
    ("02.2", "None。", RIGHT, None),
    ("02.2", "tensor([0., 0., 0.])", WRONG, None),
    ("02.2", "无", UNREADABLE, "none"),
    ("02.3", "False", RIGHT, None),
    ("02.3", "True", WRONG, None),
    ("02.3", [False], UNREADABLE, "bool"),
    ("03.5", "一", RIGHT, None),
    ("03.5", "q", UNREADABLE, "number"),
    ("03.1", "答案是 None", RIGHT, None),
    ("03.1", "tensor(0.)", WRONG, None),
    ("03.1", "没有", UNREADABLE, "none"),
    ("03.2", "四", RIGHT, None),
    ("03.2", "答案是 8", WRONG, None),
    ("03.2", "4 和 8", UNREADABLE, "number"),
    ("04.3", _Cube, RIGHT, None),
    ("04.3", _CubeWrongDerivative, WRONG, None),
    ("04.3", "CubeFunction", UNREADABLE, "function_class"),
    ("04.5", "答案是 1", RIGHT, None),
    ("04.5", "0.5", WRONG, None),
    ("04.1", "选 b", RIGHT, None),
    ("04.1", "e", UNREADABLE, "choice"),
    ("04.2", "1、1", RIGHT, None),
    ("04.2", "答案是 [1, 1]", RIGHT, None),
    ("04.2", "[2, 2]", WRONG, None),
    ("04.2", "两个一", UNREADABLE, "numbers"),
    ("05.1", "d", WRONG, None),
    ("05.1", "b 或 d", UNREADABLE, "choice"),
    ("05.2", "a", WRONG, None),
    ("05.2", 0.3, UNREADABLE, "choice"),
    ("05.3", "答案是 c", RIGHT, None),
    ("05.3", "b", WRONG, None),
    ("05.3", 960, UNREADABLE, "choice"),
    ("06.3", TIE, RIGHT, None),
    ("06.3", OTHER, WRONG, None),
    ("06.1", "B", RIGHT, None),
    ("06.1", "bc", UNREADABLE, "choice"),
    ("06.2", "(b)", RIGHT, None),
    ("06.2", "a", WRONG, None),
    ("06.2", ["b"], UNREADABLE, "choice"),
    ("07.5", "答案是 [0, 0]", RIGHT, None),
    ("07.1", "b", RIGHT, None),
    ("07.1", "c", WRONG, None),
    ("07.1", 2, UNREADABLE, "choice"),
    ("07.2", "(b)", RIGHT, None),
    ("07.2", "a", WRONG, None),
    ("07.2", [0, 0], UNREADABLE, "choice"),
    ("08.5", "答案是7", RIGHT, None),
    ("08.1", "四次", WRONG, None),
    ("08.1", "一次或四次", UNREADABLE, "number"),
    ("08.2", "5个", RIGHT, None),
    ("08.2", "四", WRONG, None),
    ("09.5", "答案：60", RIGHT, None),
    ("09.1", "None。", RIGHT, None),
    ("09.1", "0", WRONG, None),
    ("09.1", "没有", UNREADABLE, "none"),
    ("09.2", "【4，6】", RIGHT, None),
    ("09.2", "[6, 4]", WRONG, None),
    ("09.2", "4 和 six", UNREADABLE, "numbers"),
    ("09.3", "选 d", RIGHT, None),
    ("09.3", "a", WRONG, None),
    ("09.3", "d、f", UNREADABLE, "choice"),
    ("09.4", "(f)", RIGHT, None),
    ("09.4", "e", WRONG, None),
    ("09.4", "ef", UNREADABLE, "choice"),
    ("10.2", "w1", WRONG, None),
    ("10.9", "(False, False)", RIGHT, None),
    ("11.3", "blocks.0", WRONG, None),
    ("11.5", "query.bias", WRONG, None),
    ("11.5", 0, UNREADABLE, "name"),
    ("01.2", "(True,)", UNREADABLE, "bools"),
    ("02.6", "0", WRONG, None),
    ("03.3", "1", WRONG, None),
    ("04.4", "(True, True)", WRONG, None),
    ("04.5", "一或零", UNREADABLE, "number"),
    ("06.5", "b", WRONG, None),
    ("06.5", "ab", UNREADABLE, "choice"),
    ("06.3", [TIE], UNREADABLE, "choice"),
    ("06.1", "a", WRONG, None),
    ("07.4", 0, UNREADABLE, "word"),
    ("07.5", "[1, 1]", WRONG, None),
    ("08.4", "三或四", UNREADABLE, "number"),
    ("08.5", "七和六", UNREADABLE, "number"),
    ("08.6", "pq", UNREADABLE, "choice"),
    ("08.2", "五个或四个", UNREADABLE, "number"),
    ("09.5", "60 和 6", UNREADABLE, "number"),
    ("09.5", "60x", UNREADABLE, "number"),
    ("09.5", "很多", UNREADABLE, "number"),
    # The forms read before, still read.
    ("01.3", 18, RIGHT, None),
    ("01.3", "18", RIGHT, None),
    ("01.3", "tensor(18.)", RIGHT, None),
    ("01.3", "１８", RIGHT, None),
    ("05.5", "101,000", RIGHT, None),
    ("05.5", "1.01e5", RIGHT, None),
    ("02.4", {"w", "b"}, RIGHT, None),
    ("02.4", "{'b', 'w'}", RIGHT, None),
    ("04.4", (True, False), RIGHT, None),
    ("07.4", "item", RIGHT, None),
    ("08.6", "Q", RIGHT, None),
    ("09.6", "“b”", RIGHT, None),
    ("02.6", None, RIGHT, None),
    ("06.5", "‘a’", RIGHT, None),
    ("05.4", "(b)", RIGHT, None),
    # 15. Lesson 12: passes counted, a tangent, two counts, a Hessian, a shape, two verdicts.
    ("12.1", "2 次", RIGHT, None),
    ("12.1", "两次", RIGHT, None),
    ("12.1", "２。", RIGHT, None),
    ("12.1", "3", WRONG, None),
    ("12.1", "每个输出一次", UNREADABLE, "number"),
    ("12.2", "3.5", RIGHT, None),
    ("12.2", "tensor(3.5000)", RIGHT, None),
    ("12.2", "３.５", RIGHT, None),
    ("12.2", "7", WRONG, None),
    ("12.2", "primal=tensor(10.), tangent=tensor(3.5000)", UNREADABLE, "number"),
    ("12.3", "[2000, 4]", RIGHT, None),
    ("12.3", "2000、4", RIGHT, None),
    ("12.3", "【2000，4】", RIGHT, None),
    ("12.3", "[4, 2000]", WRONG, None),
    ("12.3", "rows, columns", UNREADABLE, "numbers"),
    ("12.4", "[[6, 2], [2, 0]]", RIGHT, None),
    ("12.4", "tensor([[6., 2.],\n        [2., 0.]])", RIGHT, None),
    ("12.4", "【【6，2】，【2，0】】", RIGHT, None),
    ("12.4", "[[6, 0], [0, 0]]", WRONG, None),
    ("12.4", "[[6, 2], [2, zero]]", UNREADABLE, "numbers"),
    ("12.5", "torch.Size([8, 2, 3])", RIGHT, None),
    ("12.5", "(8, 2, 3)", RIGHT, None),
    ("12.5", "8×2×3", RIGHT, None),
    ("12.5", "8、2、3", RIGHT, None),
    ("12.5", "[2, 3]", WRONG, None),
    ("12.5", "batch, 2, 3", UNREADABLE, "numbers"),
    ("12.6", "True, False", RIGHT, None),
    ("12.6", "是，否", RIGHT, None),
    ("12.6", "（True，False）", RIGHT, None),
    ("12.6", "True, True", WRONG, None),
    ("12.6", "True", UNREADABLE, "bools"),
]


def _row_id(row):
    # The same on every run and in every pytest-xdist worker: no memory address, no set order.
    exercise_id, answer, verdict, kind = row
    return f"{exercise_id} {_stable_repr(answer)} {verdict}{' ' + kind if kind else ''}"


def _stable_repr(answer):
    if isinstance(answer, (set, frozenset)):
        return "{" + ", ".join(sorted(map(_stable_repr, answer))) + "}"
    if isinstance(answer, (list, tuple)):
        return type(answer).__name__ + "(" + ", ".join(map(_stable_repr, answer)) + ")"
    if isinstance(answer, (str, int, float, bool, type(None))):
        return repr(answer)
    if isinstance(answer, (torch.Tensor, np.ndarray, np.generic)):
        return f"{type(answer).__name__}{answer.tolist()!r}"
    return getattr(answer, "__qualname__", type(answer).__name__)


def kind_note(kind, language):
    """The catalogue's note for ``kind`` in ``language``, up to its first blank (the letters)."""
    return MESSAGES.texts[f"kind.{kind}"][language].split("{")[0]


def test_the_table_covers_at_least_200_forms_over_every_exercise():
    assert len(FORMS) >= 200
    assert {row[0] for row in FORMS} == set(exercises())
    for exercise_id in exercises():
        verdicts = {verdict for row_id, _, verdict, _ in FORMS if row_id == exercise_id}
        assert verdicts == {RIGHT, WRONG, UNREADABLE}, exercise_id


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize(
    ("exercise_id", "answer", "expected", "kind"), FORMS, ids=map(_row_id, FORMS)
)
def test_an_answer_form_gets_the_verdict_its_idea_deserves(
    exercise_id, answer, expected, kind, language
):
    item = exercises()[exercise_id]
    with speaking(language):
        verdict = check(exercise_id, answer)
        hint = MESSAGES.say("hint", hint=item.hint[language])
        not_quite = MESSAGES.say("wrong", id=exercise_id)
        cannot_read = MESSAGES.say("unreadable", id=exercise_id, note="")
    first_line, *rest = verdict.message.split("\n")
    assert verdict.correct is (expected == RIGHT), verdict.message
    assert verdict.readable is (expected != UNREADABLE), verdict.message
    if expected == WRONG:
        # Read as a wrong value: "Not quite" and the hint, a note only where the value has one.
        assert first_line.startswith(not_quite) and hint in rest
        if kind is None:
            assert first_line == not_quite
        else:
            assert kind_note(kind, language) in first_line
    if expected == UNREADABLE:
        # Not read as any value: how an answer is written, and nothing on the idea.
        assert first_line.startswith(cannot_read.strip())
        assert kind_note(kind, language) in first_line
        assert hint not in verdict.message and item.why[language] not in verdict.message


def test_an_answer_that_cannot_be_read_shows_how_this_question_writes_one():
    assert '"a", "b", "c"' in check("10.4", "exactly 0").message
    assert '"a", "b", "c", "d"' in check("10.8", "grad_y_pred.sum(dim=0)").message
    assert '"w2"' in check("10.3", "h, w1").message
    assert '"blocks.2.mlp"' in check("11.3", "head 和 norm").message
    assert '"query.weight"' in check("11.5", "key 和 bias").message
    with speaking("zh"):
        message = check("11.4", "第一").message
    assert_speaks_chinese(message)
    assert message.startswith("11.4：这个答案我读不懂。") and '"blocks.5"' in message


def test_the_example_a_note_shows_is_never_the_right_answer():
    for exercise_id, note_example in (("10.3", "w2"), ("10.2", "w2"), ("11.3", "blocks.2.mlp")):
        assert not check(exercise_id, note_example).correct
    for exercise_id, note_example in (("11.4", "blocks.5"), ("11.5", "query.weight")):
        assert not check(exercise_id, note_example).correct


def _forms_of(exercise_id):
    """Every form the data and the table give for the exercise, and the verdict each is given."""
    item = exercises()[exercise_id]
    forms = [(form, RIGHT) for form in item.right_answers]
    forms += [(form, WRONG) for form in item.wrong_answers]
    forms += [(answer, verdict) for row_id, answer, verdict, _ in FORMS if row_id == exercise_id]
    return forms


def test_no_exercise_names_a_form_that_another_with_the_same_answer_takes_as_wrong():
    # The rules are the same for every exercise: where two exercises have the same right answer
    # (10.4, 10.7, 10.8 and 11.1 all "a"), a form one takes as right, the other may fail to read
    # (the text of 10.7's option is no option of 10.4) but never takes as a wrong value; and a
    # form one reads as wrong, the other never takes as right.
    known = exercises()
    pairs = [
        (one, other)
        for one, other in itertools.permutations(sorted(known), 2)
        if check(other, known[one].right_answers[0]).correct
    ]
    assert ("10.4", "10.7") in pairs and ("01.1", "02.1") in pairs  # the check finds pairs
    for one, other in pairs:
        for form, verdict in _forms_of(one):
            seen = check(other, form)
            if verdict == RIGHT:
                assert seen.correct or not seen.readable, (one, other, form)
            elif check(one, form).readable:
                assert not seen.correct, (one, other, form)


def test_the_note_for_a_list_question_is_never_the_note_for_one_number():
    for exercise_id in ("01.5", "06.4", "07.5"):
        for answer in ("【2，0，6】x", "two zero six", "2, 0, six?"):
            message = check(exercise_id, answer).message
            assert kind_note("numbers", "en") in message
            assert kind_note("number", "en") not in message


def test_the_frame_and_the_kind_notes_are_one_catalogue_of_the_package():
    assert isinstance(MESSAGES, Catalogue) and MESSAGES.module == "helpers.exercises"
    kinds = {kind for *_, kind in FORMS if kind is not None}
    assert {f"kind.{kind}" for kind in kinds} <= set(MESSAGES.texts)


# --- exercise ids, read like answers -----------------------------------------------------------


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("written", ["０１.３", "1.3", "01-3", "1．3", "01.3。", "第1.3题", 1.3])
def test_an_exercise_id_is_read_like_an_answer_and_the_verdict_says_which(written, language):
    given = written.strip() if isinstance(written, str) else repr(written)
    with speaking(language):
        verdict = check(written, 18)
        note = MESSAGES.say("id_read_as", given=given, id="01.3")
    assert verdict.correct and verdict.exercise_id == "01.3"
    assert verdict.message.split("\n")[-1] == note
    assert f'"{given}"' in note and "01.3" in note
    if language == "zh":
        assert_speaks_chinese(note)


@pytest.mark.parametrize("written", ["01.3", " 01.3 "])
def test_an_id_written_as_registered_gets_no_note(written):
    assert check(written, 18).message == check("01.3", 18).message
    assert "\n" not in check(written, ...).message


def test_the_note_on_the_id_comes_after_the_verdict_and_the_hint():
    lines = check("1.3", 6).message.split("\n")
    assert lines[0] == MESSAGES.say("wrong", id="01.3")
    assert lines[-1] == MESSAGES.say("id_read_as", given="1.3", id="01.3")


@pytest.mark.parametrize(
    ("written", "nearest"),
    [
        ("1.9", ['"01.1"', '"01.2"', '"01.3"']),
        ("０２.７", ['"02.1"', '"02.2"', '"02.3"']),
        ("00.1", ['"01.1"', '"01.2"', '"01.3"']),
        ("01.1a", ['"01.1"']),
    ],
)
def test_an_unknown_id_names_the_nearest_ids_in_chinese(written, nearest):
    with speaking("zh"), pytest.raises(UnknownExercise) as raised:
        check(written, 1)
    text = str(raised.value)
    assert_speaks_chinese(text)
    assert text.startswith("没有") and f'"{written}"' in text
    for known_id in nearest:
        assert known_id in text


def test_an_unknown_id_is_a_key_error_in_english_that_names_the_nearest_ids():
    with pytest.raises(KeyError) as raised:
        check("1.9", 1)
    text = str(raised.value)
    assert text.startswith('There is no exercise "1.9".')  # a sentence, not a quoted key
    assert '"01.1", "01.2", "01.3"' in text


@pytest.mark.parametrize("written", ["abc", None, ""])
def test_an_id_that_is_no_id_at_all_is_told_what_an_id_looks_like(written):
    with speaking("zh"), pytest.raises(UnknownExercise) as raised:
        check(written, 1)
    text = str(raised.value)
    assert_speaks_chinese(text)
    assert '"01.1"' in text and "09.4" in text


# --- check() is the same under no_grad and inference_mode --------------------------------------

GRAD_MODES = {
    "no_grad": torch.no_grad,
    "inference_mode": torch.inference_mode,
    "enable_grad": torch.enable_grad,
}


@pytest.mark.parametrize("mode", GRAD_MODES)
def test_04_3_marks_a_function_the_same_under_no_grad_and_inference_mode(mode):
    with GRAD_MODES[mode]():
        grad_enabled, inference = torch.is_grad_enabled(), torch.is_inference_mode_enabled()
        assert check("04.3", _Cube).correct
        assert not check("04.3", _CubeWrongDerivative).correct
        assert not check("04.3", _CubeWritesIntoGradOutput).correct
        # ... and leaves the learner's mode as it found it.
        assert torch.is_grad_enabled() == grad_enabled
        assert torch.is_inference_mode_enabled() == inference


@pytest.mark.parametrize("mode", GRAD_MODES)
@pytest.mark.parametrize("exercise_id", sorted(exercises()))
def test_every_right_answer_is_right_under_every_grad_mode(exercise_id, mode):
    with GRAD_MODES[mode]():
        for answer in exercises()[exercise_id].right_answers:
            assert check(exercise_id, answer).correct, answer


def test_an_answer_computed_in_inference_mode_is_read():
    with torch.inference_mode():
        w = torch.tensor(3.0)
        gradient = 3 * (2 * w)  # an inference tensor, as a learner's cell makes it
        product = torch.tensor([1.0, 0.0, 1.0]) * 2 * torch.tensor([1.0, 2.0, 3.0])
    assert check("01.3", gradient).correct
    assert check("01.5", product).correct


# --- long text costs no time -------------------------------------------------------------------


@pytest.mark.parametrize("text", ["一" * 100_000, "'" * 100_000, "【" * 100_000, "1万" * 50_000])
def test_a_long_text_is_refused_quickly_by_every_exercise(text):
    start = time.perf_counter()
    for exercise_id in exercises():
        assert not check(exercise_id, text).correct
    assert time.perf_counter() - start < 2.0


# --- the catalogue speaks Chinese --------------------------------------------------------------

BLANKS = {
    "id": "01.1",
    "hint": "先算一次。",
    "why": "每次都会累加。",
    "note": "这里的答案是一个数。",
    "letters": '"a", "b", "c"',
    "example": "blocks.2.mlp",
    "given": '"1.9"',
    "nearest": '"01.1", "01.2"',
    "known": "01.1, 01.2, 01.3",
}


@pytest.mark.parametrize("key", sorted(MESSAGES.texts))
def test_every_text_of_the_catalogue_speaks_chinese_under_zh(key):
    with speaking("zh"):
        text = MESSAGES.say(key, **BLANKS)
    assert_speaks_chinese(text)

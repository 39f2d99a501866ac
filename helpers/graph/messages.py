"""What `helpers.graph` says to a learner who asks for something it cannot draw.

Errors about what `draw`, `build` and `to_dot` were given (the tensors, the names, the options,
``highlight=`` and ``edge_labels=``) and about a picture too big to make. What a picture itself
says (its caption, its notes and tooltips) is `helpers.graph.captions.CAPTIONS`; what a `Drawing`
and Graphviz say is in `helpers.graph.render`. Doubled braces are literal ones: texts are filled
with str.format. Keys are joined with "_": tests/test_messages.py takes two words in a raise for
an English sentence.
"""

from helpers.language import Catalogue

_TEXTS = {
    # --- what draw() was given
    "got_none": {
        "en": "draw() got None instead of a tensor. Pass the tensor whose graph you want, e.g. "
        "draw(loss); a function that forgets to `return` its result gives None.",
        "zh": "draw() 收到的是 None，而不是张量。请传入你想看其计算图的那个张量，例如 draw(loss)；"
        "忘了 `return` 结果的函数返回的就是 None。",
    },
    "not_a_tensor": {
        "en": "draw() needs a tensor or a list of tensors, not a {got}.",
        "zh": "draw() 需要一个张量或一个张量列表，而不是 {got}。",
    },
    "number_has_no_graph": {
        "en": "draw() needs a tensor or a list of tensors, not a {got}. A Python number (from "
        ".item() or float()) has no graph: draw the tensor.",
        "zh": "draw() 需要一个张量或一个张量列表，而不是 {got}。Python 数字（来自 .item() 或 "
        "float()）没有计算图：请画张量本身。",
    },
    "empty_list": {
        "en": "draw() got an empty list: pass at least one tensor, e.g. draw([y1, y2]).",
        "zh": "draw() 收到了一个空列表：请至少传入一个张量，例如 draw([y1, y2])。",
    },
    "item_not_a_tensor": {
        "en": "draw() got a list whose item {position} is a {got}, not a tensor: pass only "
        "tensors.",
        "zh": "draw() 收到的列表中，第 {position} 项是 {got}，不是张量：列表里只能放张量。",
    },
    "not_true_or_false": {
        "en": "{option} takes True or False, not {value!r}.",
        "zh": "{option} 只接受 True 或 False，不接受 {value!r}。",
    },
    "bad_max_nodes": {
        "en": "max_nodes must be a positive whole number or None, not {value!r}.",
        "zh": "max_nodes 必须是正整数或 None，不能是 {value!r}。",
    },
    "bad_draw_direction": {
        "en": 'direction must be "auto", "forward" or "backward", not {value!r}.',
        "zh": 'direction 必须是 "auto"、"forward" 或 "backward"，不能是 {value!r}。',
    },
    "bad_direction": {
        "en": 'direction must be "forward" or "backward", not {value!r}.',
        "zh": 'direction 必须是 "forward" 或 "backward"，不能是 {value!r}。',
    },
    # --- names=
    "names_is_a_tensor": {
        "en": "names must be a dict {{name: tensor}} or (name, tensor) pairs, not a tensor: e.g. "
        "names={{'w': w}}. The tensor to draw comes first: draw(y, names={{'w': w}}).",
        "zh": "names 必须是字典 {{name: tensor}} 或 (name, tensor) 二元组，不能是张量：例如 "
        "names={{'w': w}}。要画的张量是第一个参数：draw(y, names={{'w': w}})。",
    },
    "names_of_the_wrong_kind": {
        "en": "names must be a dict {{name: tensor}} or (name, tensor) pairs such as "
        "model.named_parameters(), and got {got}: e.g. names={{'w': w}}.",
        "zh": "names 必须是字典 {{name: tensor}}，或者像 model.named_parameters() 那样的 "
        "(name, tensor) 二元组，但收到的是 {got}：例如 names={{'w': w}}。",
    },
    "names_not_pairs": {
        "en": "names must be a dict {{name: tensor}} or (name, tensor) pairs such as "
        "model.named_parameters(), not a sequence of {got}.",
        "zh": "names 必须是字典 {{name: tensor}}，或者像 model.named_parameters() 那样的 "
        "(name, tensor) 二元组，不能是由 {got} 组成的序列。",
    },
    "named_value_not_a_tensor": {
        "en": "names[{name!r}] is a {got}, not a tensor: names map a name to the tensor (or the "
        "module, for its parameters) it labels.",
        "zh": "names[{name!r}] 是 {got}，不是张量：names 把一个名字对应到它所标注的张量"
        "（或者模块，用来给模块的参数命名）。",
    },
    # --- expand=, fold= and marks=
    "bad_expand": {
        "en": "expand takes a module's path, such as 'transformer.h.3', or a list of them, not a "
        "{got}.",
        "zh": "expand 需要一个模块的路径，例如 'transformer.h.3'，或者由路径组成的列表，"
        "不能是 {got}。",
    },
    "expand_needs_recording": {
        "en": "expand= unfolds modules of a recorded graph, and autograd recorded this one "
        "without them: write `with recording(model):` (from helpers.graph) around the forward "
        "pass, then draw.",
        "zh": "expand= 展开的是录制过的计算图里的模块，而这张图没有模块信息：请在前向传播外面写 "
        "`with recording(model):`（来自 helpers.graph），再画图。",
    },
    "unknown_module": {
        "en": "No module {path!r} made any part of this graph. Use a path as "
        "model.named_modules() writes it.",
        "zh": "这张计算图里没有任何部分是由模块 {path!r} 生成的。请使用 "
        "model.named_modules() 给出的路径。",
    },
    "unknown_module_nearest": {
        "en": "No module {path!r} made any part of this graph; did you mean {nearest}?",
        "zh": "这张计算图里没有任何部分是由模块 {path!r} 生成的；你是不是想写 {nearest}？",
    },
    "bad_marks": {
        "en": "marks takes what compare() returned, e.g. draw(loss, marks=result), not a {got}.",
        "zh": "marks 需要 compare() 的返回值，例如 draw(loss, marks=result)，不能是 {got}。",
    },
    # --- highlight= and edge_labels=
    "highlight_not_a_node": {
        "en": "highlight= takes an autograd Node such as y.grad_fn (or None), not a {got}.",
        "zh": "highlight= 需要一个 autograd 节点，例如 y.grad_fn（或者 None），不能是 {got}。",
    },
    "highlight_not_in_graph": {
        "en": "highlight: this {got} is not in the graph being drawn (it cannot be reached from "
        "the tensors passed to draw()).",
        "zh": "highlight：这个 {got} 不在要画的计算图里（从传给 draw() 的张量出发到达不了它）。",
    },
    "edge_labels_not_a_dict": {
        "en": "edge_labels takes a dict {{(node, next_node): text}}, e.g. "
        "{{(y.grad_fn, y.grad_fn.next_functions[0][0]): 'grad 2.0'}}, and got {got}.",
        "zh": "edge_labels 需要一个字典 {{(node, next_node): text}}，例如 "
        "{{(y.grad_fn, y.grad_fn.next_functions[0][0]): 'grad 2.0'}}，但收到的是 {got}。",
    },
    "edge_labels_keys": {
        "en": "edge_labels keys are pairs of autograd Nodes, (node, next_node), e.g. "
        "(y.grad_fn, y.grad_fn.next_functions[0][0]).",
        "zh": "edge_labels 的键是由两个 autograd 节点组成的二元组 (node, next_node)，例如 "
        "(y.grad_fn, y.grad_fn.next_functions[0][0])。",
    },
    "edge_not_joined": {
        "en": "edge_labels: {first} and {second} are not joined by an edge: one of them must "
        "appear in the other's next_functions.",
        "zh": "edge_labels：{first} 和 {second} 之间没有边相连：其中一个必须出现在另一个的 "
        "next_functions 里。",
    },
    "edge_not_in_graph": {
        "en": "edge_labels: the edge {node} -> {next_node} is not in the graph being drawn (it "
        "cannot be reached from the tensors passed).",
        "zh": "edge_labels：边 {node} -> {next_node} 不在要画的计算图里（从传入的张量出发到达不了"
        "它）。",
    },
    # --- a picture too big to make (GraphTooLarge)
    "too_large": {
        "en": "This picture is too big to lay out: {asked} of the graph's {total:,} autograd "
        "nodes make {boxes:,} boxes over {rows:,} rows, which Graphviz would take about "
        "{seconds:,.0f} s to place (the limit is {limit:.0f} s). Draw the part nearest the "
        "output instead, e.g. draw(..., max_nodes={smaller}), or call draw() without max_nodes "
        "for a quick picture. The DOT text is in this error's .source, for other tools.",
        "zh": "这张图太大，排不了版：计算图共有 {total:,} 个 autograd 节点，画出{asked}会得到"
        "分布在 {rows:,} 行上的 {boxes:,} 个框，Graphviz 大约要花 {seconds:,.0f} 秒来摆放"
        "（上限是 {limit:.0f} 秒）。请改画离输出最近的那一部分，例如 "
        "draw(..., max_nodes={smaller})；或者不带 max_nodes 调用 draw()，很快就能得到一张图。"
        "DOT 文本在这个错误的 .source 中，可以交给别的工具。",
    },
    "all_of_them": {"en": "all", "zh": "全部节点"},
    "some_of_them": {"en": "{count:,}", "zh": "其中 {count:,} 个"},
    "too_many_nodes": {
        "en": "This graph has more than {seen:,} autograd nodes, and {why}. Draw the part "
        "nearest the output: draw() without max_nodes, or with max_nodes={most} at most.",
        "zh": "这张计算图有超过 {seen:,} 个 autograd 节点，而{why}。请画离输出最近的那一部分："
        "不带 max_nodes 调用 draw()，或者传入 max_nodes={most} 或更小的数。",
    },
    # --- torch.func transforms and dual tensors (InsideTransform): NOTE [torch.func transforms]
    "inside_vmap": {
        "en": "{helper}() cannot look inside torch.func.vmap: there a tensor stands for a whole "
        "batch of samples, and what autograd records of it is kept outside the transform. Call "
        "{helper}() on the result of the vmapped function, outside the transform, or on one "
        "sample without vmap, e.g. f(x[0]).",
        "zh": "{helper}() 看不到 torch.func.vmap 的内部：在那里，一个张量代表一整个批次的样本，"
        "自动求导为它记录的东西保存在变换之外。请在变换之外，对被 vmap 的函数的结果调用 "
        "{helper}()；或者不用 vmap，只对一个样本调用，例如 f(x[0])。",
    },
    "inside_jvp": {
        "en": "{helper}() cannot look inside torch.func.jvp (nor jacfwd, which uses it): "
        "forward mode carries a tangent along with each value and records no backward graph. "
        "Call {helper}() on the function's result outside the transform, computed from inputs "
        "with requires_grad=True; the tangent is what jvp returns.",
        "zh": "{helper}() 看不到 torch.func.jvp 的内部（jacfwd 也用到它）：前向模式让切向量随"
        "每个值一起向前传，不记录反向传播的计算图。请在变换之外，对用 requires_grad=True 的"
        "输入算出的函数结果调用 {helper}()；切向量就是 jvp 返回的那一个。",
    },
    "backward_inside_transform": {
        "en": "{helper}() runs backward(), which PyTorch refuses inside a torch.func transform "
        "(grad, vjp, vmap, jacrev, ...). Call {helper}() outside the transform, on the "
        "function's result computed without it; inside torch.func.grad, grad(y, [x]) from "
        "helpers.backward gives the gradients and draw(y) the graph.",
        "zh": "{helper}() 要运行 backward()，而 PyTorch 不允许在 torch.func 的变换（grad、vjp、"
        "vmap、jacrev 等）里面这样做。请在变换之外，对不经变换算出的函数结果调用 {helper}()；"
        "在 torch.func.grad 里面，helpers.backward 的 grad(y, [x]) 能给出梯度，draw(y) 能画出"
        "计算图。",
    },
    "left_its_transform": {
        "en": "{helper}() got a tensor made inside a torch.func transform that has returned: "
        "the transform has finished with it and let go of its graph. Call "
        "{helper}() inside the function while the transform runs, or on the function's result "
        "computed without the transform.",
        "zh": "{helper}() 收到的张量是在一个已经返回的 torch.func 变换里面算出来的：变换已经用完了"
        "它，并释放了它的计算图。请在变换运行期间、在函数内部调用 "
        "{helper}()；或者对不经变换算出的函数结果调用 {helper}()。",
    },
    "view_inside_transform": {
        "en": "{helper}() cannot show a tensor from inside a torch.func transform: its view "
        "reads the tensors after the cell has run, when the transform has let go of them. Use "
        "draw() here, or {helper}() on the function's result outside the transform.",
        "zh": "{helper}() 无法显示 torch.func 变换内部的张量：它的视图在单元格运行完之后才读取"
        "张量，那时变换已经释放了它们。请在这里用 draw()，或者在变换之外对函数的结果调用 "
        "{helper}()。",
    },
    "dual_without_graph": {
        "en": "{helper}() got a dual tensor of forward mode (torch.autograd.forward_ad) that "
        "does not require grad: its tangent was computed along with its value, and autograd "
        "recorded no backward graph. Read the tangent with forward_ad.unpack_dual(y).tangent, or "
        "make the primal with requires_grad=True before make_dual, and {helper}() works on the "
        "backward graph of the same operations.",
        "zh": "{helper}() 收到的是前向模式（torch.autograd.forward_ad）的对偶张量，它不需要梯度："
        "它的切向量是和值一起算出来的，自动求导没有记录反向传播的计算图。请用 "
        "forward_ad.unpack_dual(y).tangent 读出切向量；或者在 make_dual 之前给原始值设置 "
        "requires_grad=True，{helper}() 就能用上同样这些操作的反向计算图。",
    },
    # --- to_dot()
    "to_dot_takes_a_graph": {
        "en": "to_dot takes the Graph that build() returns, and got {got}: to_dot(build(y)), or "
        "draw(y) for the picture.",
        "zh": "to_dot 需要 build() 返回的 Graph，但收到的是 {got}：请写 to_dot(build(y))；"
        "要直接得到图片，就用 draw(y)。",
    },
}
MESSAGES = Catalogue("helpers.graph.messages", _TEXTS)

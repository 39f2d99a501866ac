"""Every text `helpers.backward` shows a learner, in English and Chinese (``helpers.set_language``).

Two catalogues (`helpers.language.Catalogue`), from which each file of the package says its texts,
``MESSAGES.say("key", ...)``; an entry missing a language is refused when the package is imported:

- ``MESSAGES`` (helpers.backward): what `trace` and `grad` are given and refuse, what PyTorch's
  engine refused said as advice, and why `grad` cannot give PyTorch's answer;
- ``VIEW_MESSAGES`` (helpers.backward_view): every word of a trace's table, its pictures'
  captions and the slider, and what the view refuses.
"""

from __future__ import annotations

from helpers.language import Catalogue

# --- what trace and grad say ----------------------------------------------------------------------

_TEXTS = {
    # What trace and grad are given.
    "output not a tensor": {
        "en": "output must be a tensor, got {kind}.",
        "zh": "output 必须是张量，这里得到的是 {kind}。",
    },
    "several outputs": {
        "en": (
            "output must be one tensor, got a {kind} of {count}. To go backward from several "
            "outputs at once, add them into one number first, e.g. y1.sum() + y2.sum(): "
            "torch.autograd.grad and backward() add up the gradients of a list's outputs the "
            "same way. Or call it once for each output."
        ),
        "zh": (
            "output 必须是单个张量，这里得到的是含 {count} 个张量的 {kind}。想从几个输出同时"
            "反向传播，请先把它们加成一个数，例如 y1.sum() + y2.sum()：torch.autograd.grad 和 "
            "backward() 对一个列表里的各个输出也是这样把梯度加起来的。或者对每个输出分别调用一次。"
        ),
    },
    "nested tensor": {
        "en": (
            "{where} is a nested tensor (torch.nested), whose pieces have shapes of their own, "
            "and trace, grad and compare work with plain tensors only. Use output.backward() or "
            "torch.autograd.grad instead."
        ),
        "zh": (
            "{where} 是一个嵌套张量（torch.nested），它的各个分块形状各不相同，而 trace()、"
            "grad() 和 compare() 只处理普通张量。请改用 output.backward() 或 torch.autograd.grad。"
        ),
    },
    "nested in graph": {
        "en": (
            "This graph holds a nested tensor (torch.nested, at {node}), whose pieces have "
            "shapes of their own, and trace, grad and compare work with plain tensors only. Use "
            "output.backward() or torch.autograd.grad instead."
        ),
        "zh": (
            "这张计算图里有一个嵌套张量（torch.nested，在节点 {node} 处），它的各个分块形状各不"
            "相同，而 trace()、grad() 和 compare() 只处理普通张量。请改用 output.backward() 或 "
            "torch.autograd.grad。"
        ),
    },
    "retain_graph not bool": {
        "en": (
            "retain_graph must be True or False, got {got}. Pass retain_graph=True to keep the "
            "graph for another backward pass (or for grad), or leave it out."
        ),
        "zh": (
            "retain_graph 必须是 True 或 False，这里得到的是 {got}。想保留计算图、以便再做一次"
            "反向传播（或者再调用 grad()），请传入 retain_graph=True；否则不传这个参数即可。"
        ),
    },
    "no graph": {
        "en": (
            "output does not require grad, so there is no graph to go backward through. Compute "
            "it from a tensor with requires_grad=True, and not inside torch.no_grad()."
        ),
        "zh": (
            "output 不需要梯度，所以没有可以反向传播的计算图。请用 requires_grad=True "
            "的张量来计算它，并且不要在 torch.no_grad() 里面计算。"
        ),
    },
    "not a number": {
        "en": (
            "output has shape {shape}, not a single number, so there is no obvious gradient to "
            "start from. Pass grad_output= (a tensor of that shape, e.g. "
            "torch.ones_like(output)), or reduce output to a number first, e.g. output.sum()."
        ),
        "zh": (
            "output 的形状是 {shape}，不是单个数，所以没有显而易见的初始梯度。请传入 "
            "grad_output=（一个这个形状的张量，例如 torch.ones_like(output)），或者先把 output "
            "归约成一个数，例如 output.sum()。"
        ),
    },
    "complex output": {
        "en": (
            "output is a complex number, and PyTorch starts a backward pass by itself only from "
            "a real one (its words: 'grad can be implicitly created only for real scalar "
            "outputs'). Pass grad_output= (a complex tensor of output's shape), or differentiate "
            "a real number such as output.abs() or output.real."
        ),
        "zh": (
            "output 是复数，而 PyTorch 只会从实数自动开始反向传播（它的原话是 'grad can be "
            "implicitly created only for real scalar outputs'）。请传入 grad_output=（一个与 "
            "output 形状相同的复数张量），或者对一个实数求导，例如 output.abs() 或 output.real。"
        ),
    },
    "grad_output shape": {
        "en": "grad_output must be a tensor of output's shape {shape}, got {got}.",
        "zh": "grad_output 必须是形状为 {shape}（即 output 的形状）的张量，这里得到的是：{got}。",
    },
    "grad_output device": {
        "en": (
            "grad_output is on {there} but output is on {here}. Create it where output lives, "
            "e.g. torch.ones_like(output), or move it with .to(output.device)."
        ),
        "zh": (
            "grad_output 在 {there} 上，而 output 在 {here} 上。请在 output 所在的设备上创建它，"
            "例如 torch.ones_like(output)，或者用 .to(output.device) 把它移过去。"
        ),
    },
    "no inputs": {
        "en": (
            "inputs is empty, so there is nothing to take the gradient with respect to (PyTorch "
            "refuses too: '`inputs` argument to `grad()` cannot be empty'). Pass the tensors "
            "whose gradients you want, e.g. grad(y, [w, b])."
        ),
        "zh": (
            "inputs 是空的，所以没有要对之求梯度的张量（PyTorch 也会拒绝：'`inputs` argument to "
            "`grad()` cannot be empty'）。请传入你想求梯度的张量，例如 grad(y, [w, b])。"
        ),
    },
    "inputs not tensors": {
        "en": (
            "inputs must be a tensor or a list of tensors, got {kind}. Pass the tensors whose "
            "gradients you want, e.g. grad(y, [w, b])."
        ),
        "zh": (
            "inputs 必须是一个张量或一个张量列表，这里得到的是 {kind}。请传入你想求梯度的张量，"
            "例如 grad(y, [w, b])。"
        ),
    },
    "inputs a module": {
        "en": (
            "inputs is a module ({kind}), but grad takes the tensors themselves. For the "
            "gradients of its parameters, pass them as a list: grad(loss, "
            "list(model.parameters()))."
        ),
        "zh": (
            "inputs 是一个模块（{kind}），而 grad() 要的是张量本身。想求它的参数的梯度，请把"
            "参数作为列表传入：grad(loss, list(model.parameters()))。"
        ),
    },
    "input a module": {
        "en": (
            "inputs[{position}] is a module ({kind}), not a tensor. For the gradients of its "
            "parameters, pass them: grad(loss, list(model.parameters()))."
        ),
        "zh": (
            "inputs[{position}] 是一个模块（{kind}），不是张量。想求它的参数的梯度，请传入它的"
            "参数：grad(loss, list(model.parameters()))。"
        ),
    },
    "inputs a dict": {
        "en": (
            "inputs is a {kind}, but grad takes a tensor or a list of tensors (going through a "
            "dict gives its keys). Pass its values: grad(loss, list(d.values())), d being your "
            "dict. For a model's parameters, pass list(model.parameters()): the tensors of "
            "state_dict() do not require grad."
        ),
        "zh": (
            "inputs 是一个 {kind}，而 grad() 接收的是一个张量或一个张量列表（遍历字典只会得到"
            "它的键）。请传入它的值：grad(loss, list(d.values()))，其中 d 是你的字典。想求模型"
            "参数的梯度，请传入 list(model.parameters())：state_dict() 里的张量不需要梯度。"
        ),
    },
    "inputs named pairs": {
        "en": (
            "inputs holds (name, tensor) pairs, as model.named_parameters() gives, but grad takes "
            "the tensors alone. Pass [p for _, p in model.named_parameters()], or "
            "list(model.parameters())."
        ),
        "zh": (
            "inputs 里是（名字，张量）二元组，就像 model.named_parameters() 给出的那样，而 "
            "grad() 只要张量本身。请传入 [p for _, p in model.named_parameters()]，或者 "
            "list(model.parameters())。"
        ),
    },
    "input not a tensor": {
        "en": "inputs[{position}] must be a tensor, got {kind}.",
        "zh": "inputs[{position}] 必须是张量，这里得到的是 {kind}。",
    },
    "input needs no grad": {
        "en": (
            "inputs[{position}] does not require grad, so no gradient flows to it. Create it "
            "with requires_grad=True (or call .requires_grad_() on it)."
        ),
        "zh": (
            "inputs[{position}] 不需要梯度，所以没有梯度流向它。请用 requires_grad=True "
            "创建它（或者对它调用 .requires_grad_()）。"
        ),
    },
    "graph too large": {
        "en": (
            "This graph has more than {most:,} autograd nodes, and trace, grad and compare look "
            "at every one: {why}. Use them on a smaller graph (fewer layers or steps); "
            "output.backward() has no such limit."
        ),
        "zh": (
            "这张计算图有超过 {most:,} 个 autograd 节点，而 trace()、grad() 和 compare() "
            "要查看其中的每一个：{why}。请在一张更小的图（更少的层或步数）上使用它们；"
            "output.backward() 没有这个限制。"
        ),
    },
    # What PyTorch's engine refused, said so that a learner can act on it.
    "graph freed": {
        "en": (
            "This graph was already used by a backward pass, which freed the tensors its nodes "
            "saved. Run the forward computation again to rebuild the graph, or keep it the first "
            "time with retain_graph=True: y.backward(retain_graph=True), or trace(y, "
            "retain_graph=True)."
        ),
        "zh": (
            "这张计算图已经被一次反向传播用过了，那次反向传播释放了节点保存的张量。"
            "请重新运行前向计算来重建计算图，或者第一次就用 retain_graph=True 把它保留下来："
            "y.backward(retain_graph=True)，或 trace(y, retain_graph=True)。"
        ),
    },
    "reentrant checkpoint in grad": {
        "en": (
            "This graph holds a reentrant checkpoint (torch.utils.checkpoint with "
            "use_reentrant=True). Its backward starts a backward pass of its own, which writes "
            "into .grad, and the Nodes inside it are not part of this graph: "
            "torch.autograd.grad refuses to go through it, and gives None for a parameter used "
            "inside it, which output.backward() does fill. So grad refuses, before anything is "
            "written. Use output.backward() or trace(output); or checkpoint with "
            "use_reentrant=False and call torch.autograd.grad."
        ),
        "zh": (
            "这张计算图里有一个可重入的检查点（torch.utils.checkpoint 加上 use_reentrant=True）。"
            "它的 backward 会自己再启动一次反向传播，并写入 .grad；检查点内部的节点也不在这张"
            "计算图里：torch.autograd.grad 拒绝穿过它，而对在它内部用到的参数给出 None，"
            "尽管 output.backward() 会填充这些参数的 .grad。所以 grad() 拒绝运行，而且是在写入"
            "任何东西之前。请改用 output.backward() 或 trace(output)；或者用 use_reentrant=False "
            "做检查点，再调用 torch.autograd.grad。"
        ),
    },
    "reentrant checkpoint in compare": {
        "en": (
            "This graph holds a reentrant checkpoint (torch.utils.checkpoint with "
            "use_reentrant=True). Its backward starts a backward pass of its own, which writes "
            "into .grad, and compare promises to change no .grad. So compare refuses, before "
            "anything is written. Checkpoint with use_reentrant=False, or compare your "
            "gradients with those that output.backward() leaves in .grad."
        ),
        "zh": (
            "这张计算图里有一个可重入的检查点（torch.utils.checkpoint 加上 use_reentrant=True）。"
            "它的 backward 会自己再启动一次反向传播，并写入 .grad，而 compare() 承诺不改动任何 "
            ".grad。所以 compare() 拒绝运行，而且是在写入任何东西之前。请改用 "
            "use_reentrant=False 做检查点，或者把你的梯度与 output.backward() 留在 .grad 里的"
            "梯度相比较。"
        ),
    },
    "checkpoint recomputes": {
        "en": (
            "This graph holds a checkpoint (torch.utils.checkpoint with use_reentrant=False; "
            "{node} saved what it needs through it), whose forward runs again when a backward "
            "pass needs what it saved. grad goes through the graph twice, in PyTorch's engine "
            "and in its own, so your forward would run more often than with torch.autograd.grad, "
            "repeating its side effects (prints, BatchNorm's running statistics). So grad "
            "refuses, before running anything. Use torch.autograd.grad(output, inputs), or "
            "trace(output) to watch the pass."
        ),
        "zh": (
            "这张计算图里有一个检查点（torch.utils.checkpoint 加上 use_reentrant=False；节点 "
            "{node} 通过它保存了所需的张量），反向传播需要这些张量时，它会重新运行前向计算。"
            "grad() 要把计算图走两遍：一遍在 PyTorch 的引擎里，一遍在它自己的引擎里，所以你的前向"
            "计算会比用 torch.autograd.grad 时多运行，它的副作用（打印、BatchNorm 的滑动统计量）"
            "也会重复。所以 grad() 拒绝运行，而且是在运行任何东西之前。请改用 "
            "torch.autograd.grad(output, inputs)，或者用 trace(output) 观察这次反向传播。"
        ),
    },
    "checkpoint recomputed": {
        "en": (
            "This graph holds a checkpoint (torch.utils.checkpoint with use_reentrant=False), "
            "whose forward ran again when PyTorch's engine needed what it saved, as it does in "
            "torch.autograd.grad. grad would go through the graph a second time, in its own "
            "engine, and run your forward once more, repeating its side effects (prints, "
            "BatchNorm's running statistics), so it stops here. This torch hides the checkpoint "
            "until it runs (from torch 2.13 on, grad refuses before running anything). Use "
            "torch.autograd.grad(output, inputs), or trace(output) to watch the pass."
        ),
        "zh": (
            "这张计算图里有一个检查点（torch.utils.checkpoint 加上 use_reentrant=False）。"
            "PyTorch 的引擎需要它保存的张量时，重新运行了前向计算，这和 torch.autograd.grad "
            "做的一样。grad() 还要在自己的引擎里再走一遍计算图，那会让你的前向计算再运行一次，"
            "它的副作用（打印、BatchNorm 的滑动统计量）也会重复，所以 grad() 到此为止。"
            "这个版本的 torch 在检查点运行之前看不出它（从 torch 2.13 起，grad() 会在运行任何东西"
            "之前就拒绝）。"
            "请改用 torch.autograd.grad(output, inputs)，或者用 trace(output) 观察这次反向传播。"
        ),
    },
    "unpack hook runs again": {
        "en": (
            "{node} saved a tensor through torch.autograd.graph.saved_tensors_hooks, whose "
            "unpack hook ({hook}) runs each time the tensor is used. grad goes through the graph "
            "twice, in PyTorch's engine and in its own, so your hook would run more often than "
            "with torch.autograd.grad. So grad refuses, before running anything. Use "
            "torch.autograd.grad(output, inputs), or trace(output) to watch the pass."
        ),
        "zh": (
            "节点 {node} 通过 torch.autograd.graph.saved_tensors_hooks 保存了张量，每次用到这个"
            "张量时，它的解包钩子（{hook}）都会运行。grad() 要把计算图走两遍：一遍在 PyTorch "
            "的引擎里，一遍在它自己的引擎里，所以你的钩子会比用 torch.autograd.grad 时运行更多次。"
            "所以 grad() 拒绝运行，而且是在运行任何东西之前。请改用 "
            "torch.autograd.grad(output, inputs)，或者用 trace(output) 观察这次反向传播。"
        ),
    },
    "backward failed again": {
        "en": (
            "{node}'s backward ran without error in PyTorch's pass, then raised {kind} when grad "
            "ran it again: {error}. grad runs a custom Function's backward twice, once in each "
            "engine, so backward must not use up what it reads: take what forward left on ctx "
            "without changing it (no pop() from a list, no del). Or use torch.autograd.grad, "
            "which runs it once."
        ),
        "zh": (
            "{node} 的 backward 在 PyTorch 的那一遍里运行正常，grad() 再运行它一次时却抛出了 "
            "{kind}：“{error}”。grad() 会把自定义 Function 的 backward 运行两次，两个引擎各一次，"
            "所以 backward 不能把它读取的东西用掉：读取 forward 留在 ctx 上的东西时不要改动它"
            "（不要从列表里 pop()，也不要 del）。或者改用 torch.autograd.grad，它只运行一次。"
        ),
    },
    "wrong number of gradients": {
        "en": (
            "{error}. A custom Function's backward returns one gradient per argument of forward, "
            "None where there is none."
        ),
        "zh": (
            "PyTorch 报错：“{error}”。自定义 Function 的 backward 要为 forward "
            "的每个参数各返回一个梯度，没有梯度的参数返回 None。"
        ),
    },
    "too few gradients": {
        "en": (
            "{node}: backward returned {returned} gradients, but forward took {took} arguments. "
            "Return one per argument, None where there is none."
        ),
        "zh": (
            "{node}：backward 返回了 {returned} 个梯度，但 forward 接收了 {took} 个参数。"
            "请为每个参数返回一个梯度，没有梯度的参数返回 None。"
        ),
    },
    # CannotMatchPyTorch: the refusal, what happened where ({what}), who did it ({culprit}).
    "refuses": {
        "en": "grad cannot give PyTorch's answer here, so it refuses. {reason}",
        "zh": "grad() 在这里给不出 PyTorch 的答案，所以拒绝作答。{reason}",
    },
    "received other": {
        "en": "At {node}, PyTorch's engine received {received} where {sent} had been sent to it:",
        "zh": (
            "节点 {node}，在 PyTorch 的引擎中收到的梯度（{received}）与发给它的梯度（{sent}）不同："
        ),
    },
    "sent other": {
        "en": (
            "At {node}, PyTorch's engine sent on {theirs}, but the node computes {ours} from "
            "what it received:"
        ),
        "zh": (
            "节点 {node}，在 PyTorch 的引擎中传出的梯度（{theirs}）与它根据收到的梯度算出的结果"
            "（{ours}）不同："
        ),
    },
    "handed back other": {
        "en": "For {name}, PyTorch's engine handed back {theirs} where {mine} had arrived:",
        "zh": "对于 {name}，PyTorch 的引擎交回的梯度（{theirs}）与到达的梯度（{mine}）不同：",
    },
    "changed it": {
        "en": "{what} {culprit} changed it. {no_hooks}",
        "zh": "{what}是{culprit}改变了它。{no_hooks}",
    },
    "changed it, or zeros for None": {
        "en": (
            "{what} {culprit} changed it, or its Function called "
            "ctx.set_materialize_grads(False) and the by-hand engine handed backward zeros where "
            "PyTorch hands it None. {no_hooks}"
        ),
        "zh": (
            "{what}要么是{culprit}改变了它，要么是它的 Function 调用了 "
            "ctx.set_materialize_grads(False)：在没有梯度到达的地方，PyTorch 交给 backward 的是 "
            "None，手写引擎交的却是零。{no_hooks}"
        ),
    },
    "changed it, legacy module hook": {
        "en": (
            "{what} {culprit} changed it: a hook registered with the old "
            "Module.register_backward_hook, which PyTorch runs as a hook on the node that "
            "computed the module's output, and which sees only that node's gradients. "
            "{no_hooks} Register it with register_full_backward_hook, which sees the gradients "
            "of the module's inputs and outputs."
        ),
        "zh": (
            "{what}是{culprit}改变了它：这是用旧的 Module.register_backward_hook 注册的钩子，"
            "PyTorch 把它作为钩子挂在计算出模块输出的那个节点上，它只看得到这个节点的梯度。"
            "{no_hooks}请改用 register_full_backward_hook 注册它，这样它看到的是模块输入和输出的"
            "梯度。"
        ),
    },
    "no hooks": {
        "en": (
            "The by-hand engine calls each node directly, which runs no hooks. For the answer "
            "with the hooks, use torch.autograd.grad; to see where they act, trace(output, "
            "retain_graph=True)."
        ),
        "zh": (
            "手写引擎直接调用每个节点，这样不会运行任何钩子。想要包含钩子作用的答案，请用 "
            "torch.autograd.grad；想看钩子在哪里起作用，请用 trace(output, retain_graph=True)。"
        ),
    },
    "sparse sums": {
        "en": (
            "{what} it is a sparse gradient (rows and their values), and PyTorch's engine adds "
            "sparse gradients that meet at a node in an order of its own, which the by-hand "
            "engine does not copy, so the sums differ in the last bits. Use torch.autograd.grad."
        ),
        "zh": (
            "{what}这是一个稀疏梯度（若干行和它们的值）。在同一个节点汇合的稀疏梯度，PyTorch "
            "的引擎按它自己的顺序相加，手写引擎没有照搬这个顺序，所以两个和在最后几位上不同。"
            "请用 torch.autograd.grad。"
        ),
    },
    "cannot tell why": {
        "en": "{what} it cannot tell why. Use torch.autograd.grad.",
        "zh": "{what}grad() 说不出原因。请用 torch.autograd.grad。",
    },
    "not deterministic": {
        "en": (
            "{node} gave different bits when called twice on the same gradients: its backward is "
            "not deterministic here, so the by-hand answer cannot be checked against PyTorch's. "
            "Use torch.autograd.grad, or call torch.use_deterministic_algorithms(True) first."
        ),
        "zh": (
            "{node} 对同样的梯度调用两次，得到的结果并非逐位相同：它的 backward "
            "在这里不是确定性的，所以无法拿手写引擎的答案与 PyTorch 的答案对照。请用 "
            "torch.autograd.grad，或者先调用 torch.use_deterministic_algorithms(True)。"
        ),
    },
    "not deterministic, even so": {
        "en": (
            "{node} gave different bits when called twice on the same gradients, although "
            "torch.use_deterministic_algorithms(True) is on: its backward draws random numbers "
            "or reads state that changes, so the by-hand answer cannot be checked against "
            "PyTorch's. Use torch.autograd.grad, or make that backward depend only on what it "
            "receives and on what forward saved."
        ),
        "zh": (
            "{node} 对同样的梯度调用两次，得到的结果并非逐位相同，尽管 "
            "torch.use_deterministic_algorithms(True) 已经打开：它的 backward 用到了随机数，"
            "或者读取了会变化的状态，所以无法拿手写引擎的答案与 PyTorch 的答案对照。请用 "
            "torch.autograd.grad，或者让这个 backward 只依赖它收到的梯度和 forward 保存的东西。"
        ),
    },
    "built in threads": {
        "en": (
            "{what} parts of this graph were built in different threads (nodes {nodes} share a "
            "sequence number, and each thread numbers its operations from its own counter). "
            "PyTorch's engine runs nodes of equal number in an order of its own, which the "
            "by-hand engine does not copy, so gradients meeting at a node are added in another "
            "order and differ in the last bits. Build the whole graph in one thread, or use "
            "torch.autograd.grad."
        ),
        "zh": (
            "{what}这张计算图的各部分是在不同线程里构建的（节点 {nodes} 的序号相同：每个线程都用"
            "自己的计数器给操作编号）。对序号相同的节点，PyTorch 的引擎按它自己的顺序运行，手写"
            "引擎没有照搬这个顺序，所以在同一个节点汇合的梯度相加的顺序不同，结果在最后几位上"
            "不同。请在同一个线程里构建整张计算图，或者改用 torch.autograd.grad。"
        ),
    },
    "tensor or pre-hook": {
        "en": (
            "a hook on the tensor it computed (tensor.register_hook) or on the node itself "
            "(grad_fn.register_prehook)"
        ),
        "zh": (
            "它算出的张量上的钩子（tensor.register_hook）或这个节点自己的前置钩子（"
            "grad_fn.register_prehook）"
        ),
    },
    "post-hook": {
        "en": (
            "a hook registered on that node with grad_fn.register_hook (it runs after the node "
            "and may replace what it sends)"
        ),
        "zh": (
            "用 grad_fn.register_hook 注册在这个节点上的后置钩子（它在节点之后运行，"
            "可以替换节点传出的梯度）"
        ),
    },
    "tensor hook": {
        "en": "the hook on {name} ({hooks}, registered with {name}.register_hook)",
        "zh": "张量 {name} 上的钩子（{hooks}，用 {name}.register_hook 注册）",
    },
    # Chinese names the module in each entry: "模块 layer 上的反向钩子（double）".
    "module hooks": {"en": "the module backward hook {found}", "zh": "{found}"},
    "module hook on": {"en": "on {path} ({hook})", "zh": "模块 {path} 上的反向钩子（{hook}）"},
    "a module hook": {
        "en": "a module's backward hook (register_full_backward_hook or its _pre_hook)",
        "zh": "某个模块的反向钩子（register_full_backward_hook 或对应的 _pre_hook）",
    },
    "a lambda": {"en": "a lambda", "zh": "一个 lambda 函数"},
    "module hooks node": {
        "en": "BackwardHookFunctionBackward (a node nn.Module adds for its backward hooks)",
        "zh": "BackwardHookFunctionBackward（nn.Module 为它的反向钩子加入了这个节点）",
    },
    "node that computed": {
        "en": "{node} (the node that computed {tensor})",
        "zh": "{node}（它计算出了 {tensor}）",
    },
    "tensor of shape": {"en": "a tensor of shape {shape}", "zh": "形状为 {shape} 的张量"},
    "different values": {"en": "different values", "zh": "形状相同、数值不同的张量"},
    "list separator": {"en": "; ", "zh": "；"},
    "name separator": {"en": ", ", "zh": "、"},
}


MESSAGES = Catalogue("helpers.backward", _TEXTS)


# --- what a trace's table and pictures say --------------------------------------------------------

# Every word of a table, a caption or a slider. {blanks} are filled with numbers and with names
# as PyTorch writes them.
_WORDS = {
    # A predicted pass (step_through(trace, predict=True)).
    "before the pass": {
        "en": "The backward pass has not started: predict each step before it is shown.",
        "zh": "反向传播还没有开始：每一步显示之前，先预测它。",
    },
    "play as text": {
        "en": "Where this view cannot run, play the pass as text: quiz = trace(...).quiz(), then "
        "quiz.answer(...) for each question.",
        "zh": "在这个视图无法运行的地方，可以用文字来玩这次反向传播：quiz = trace(...).quiz()，"
        "然后对每个问题调用 quiz.answer(...)。",
    },
    "score": {
        "en": "right at the first try: {right} of {asked}",
        "zh": "第一次就答对：{right} / {asked}",
    },
    "step": {"en": "step", "zh": "步"},
    "node": {"en": "node", "zh": "节点"},
    "gradients in": {"en": "gradients in", "zh": "传入的梯度"},
    "gradients out": {"en": "gradients out", "zh": "传出的梯度"},
    "node of leaf": {"en": "{node} of {leaf}", "zh": "{leaf} 的 {node}"},
    "added to grad": {"en": "added to {leaf}.grad", "zh": "加到 {leaf}.grad 上"},
    "added to the leaf's grad": {"en": "added to the leaf.grad", "zh": "加到叶子张量的 .grad 上"},
    "nothing sent": {"en": "nothing: no input needs a gradient", "zh": "无：没有输入需要梯度"},
    "used at step": {"en": " (step {number})", "zh": "（第 {number} 步）"},
    "hook": {"en": "hook", "zh": "钩子"},
    "between": {"en": ", ", "zh": "，"},
    "more steps": {"en": "{count} more steps", "zh": "另有 {count} 步未列出"},
    "caption": {
        "en": "Step {number} of {total}: {node}",
        "zh": "第 {number} 步（共 {total} 步）：{node}",
    },
    "in": {"en": "in: {gradients}", "zh": "传入：{gradients}"},
    "out": {"en": "out: {gradients}", "zh": "传出：{gradients}"},
    "too long": {
        "en": (
            "This backward pass ran {count} nodes; pictures are drawn for at most {most}, beyond "
            "which they cannot be read. The table lists every step."
        ),
        "zh": (
            "这次反向传播运行了 {count} 个节点；图最多只画 {most} 步，再多就看不清了，"
            "所以这里不画图。下表列出了每一步。"
        ),
    },
    "play": {"en": "play", "zh": "播放"},
    # The side panel of the graph's view of a trace: what a clicked Node did in the pass.
    "in this pass": {"en": "in this backward pass", "zh": "在这次反向传播中"},
    "received at": {"en": "step {number}, received", "zh": "第 {number} 步收到"},
    "sent at": {"en": "step {number}, sent", "zh": "第 {number} 步传出"},
    "at step": {"en": "step {number}", "zh": "第 {number} 步"},
    "later": {"en": "runs after the step shown", "zh": "在当前显示的这一步之后运行"},
}
# What the public functions say when they are given something they cannot show.
_ERRORS = {
    "predict not true or false": {
        "en": "predict= is True (each step asked before it is shown) or False, not {value!r}.",
        "zh": "predict= 只能是 True（每一步显示之前先提问）或 False，不能是 {value!r}。",
    },
    "got a tensor": {
        "en": (
            "{function} shows a recorded backward pass, and got a tensor. Record the pass first "
            "with helpers.backward.trace, then show it: {function}(trace(y))."
        ),
        "zh": (
            "{function} 显示的是记录下来的反向传播，这里却得到了一个张量。请先用 "
            "helpers.backward.trace 记录反向传播，再显示它：{function}(trace(y))。"
        ),
    },
    "not a trace": {
        "en": (
            "{function} shows a recorded backward pass, the Trace that helpers.backward.trace(y) "
            "returns; got {kind}."
        ),
        "zh": (
            "{function} 显示的是记录下来的反向传播，也就是 helpers.backward.trace(y) 返回的 "
            "Trace；这里得到的是{kind}。"
        ),
    },
    "bad names": {
        "en": (
            "names must be a dict such as {{'w': w}}, or (name, tensor) pairs such as "
            "model.named_parameters(); got {kind}. To name one tensor w: names={{'w': w}}."
        ),
        "zh": (
            "names 必须是像 {{'w': w}} 这样的字典，或者像 model.named_parameters() 那样的 (name, "
            "tensor) 二元组；这里得到的是{kind}。要把一个张量命名为 w，请写 names={{'w': w}}。"
        ),
    },
    "kind tensor": {"en": "a tensor", "zh": "一个张量"},
    "kind unpaired": {
        "en": "a {type} that does not pair names with tensors",
        "zh": "一个没有把名字和张量配成对的 {type}",
    },
    "kind other": {"en": "a {type}", "zh": "一个 {type}"},
    "set by each picture": {
        "en": "{function} sets {option} itself: {reason}. Leave {option}= out.",
        "zh": "{function} 会自己设置 {option}：{reason}。请去掉 {option}=。",
    },
    "picture shows every node": {
        "en": "each picture shows every node of the pass, each module drawn whole in its frame",
        "zh": "每张图都画出这次反向传播的全部节点，每个模块都在自己的外框里完整画出",
    },
    "picture marks the gradients": {
        "en": "each picture writes the gradients sent so far on the arrows",
        "zh": "每张图都会把到那一步为止送出的梯度写在箭头上",
    },
    "picture outlines the node": {
        "en": "each picture outlines the node that runs at its step",
        "zh": "每张图都会框出在那一步运行的节点",
    },
    "picture labels the arrows": {
        "en": "each picture writes on the arrows the gradients sent so far",
        "zh": "每张图都会在箭头上写出到那一步为止传出的梯度",
    },
    "unknown option": {
        "en": (
            "{function} does not know the option {option}. Its options are those of "
            "helpers.graph.draw that pictures of a trace leave to you: {allowed}."
        ),
        "zh": (
            "{function} 没有 {option} 这个选项。它的选项是 helpers.graph.draw 的选项中，"
            "追踪记录的图留给你自己设置的那些：{allowed}。"
        ),
    },
    "too many frames": {
        "en": (
            "This backward pass ran {count} nodes; frames() draws at most {most} pictures, "
            "beyond which they cannot be read. Show the trace as a table instead (the trace "
            "itself, or step_through(trace)), or trace a smaller graph."
        ),
        "zh": (
            "这次反向传播运行了 {count} 个节点；frames() 最多画 {most} 张图，再多就看不清了。"
            "请改用表格显示这份追踪记录（直接显示 trace 本身，或用 step_through(trace)），"
            "或者追踪一张更小的图。"
        ),
    },
    "frames too slow": {
        "en": (
            "Each picture of this trace would take Graphviz about {seconds:,.0f} s to lay out "
            "(the limit is {limit:.0f} s). Draw fewer nodes in each, e.g. frames(trace, "
            "max_nodes=100)."
        ),
        "zh": (
            "这份追踪记录的每张图都要 Graphviz 花大约 {seconds:,.0f} 秒来排版（上限是 "
            "{limit:.0f} 秒）。请让每张图少画一些节点，例如 frames(trace, max_nodes=100)。"
        ),
    },
}
VIEW_MESSAGES = Catalogue("helpers.backward_view", {**_WORDS, **_ERRORS})

"""Everything the plots say outside a picture (errors, warnings, the live plot's
placeholder and its repr), in the chosen language whatever the fonts."""

from __future__ import annotations

from helpers.language import Catalogue

# What the plots say outside the picture, in the chosen language whatever the fonts.
_TEXTS = {
    # Also what a loop that never finishes its plot leaves: so it says when the curve comes.
    "placeholder": {
        "en": "(the loss curve is drawn here while the loop runs: first after {seconds} s, "
        "and in full at .finish(), which a with block calls when it ends)",
        "zh": "（训练循环运行时，损失曲线会画在这里：{seconds} 秒后第一次画出，调用 .finish() 时"
        "画出完整的曲线；with 块结束时会自动调用它）",
    },
    "not_drawn": {
        "en": "(the loss curve could not be drawn: the warning below says why; "
        "every loss is in .losses, with its step in .steps)",
        "zh": "（损失曲线画不出来，原因见下方的警告；每个损失都在 .losses 里，"
        "它的步数在 .steps 里）",
    },
    # --- plot_losses: the losses and steps it is given
    "no_runs": {
        "en": "There is nothing to plot: the dict of runs is empty. "
        "Give at least one run, e.g. {{'training': losses}}.",
        "zh": "没有可画的东西：存放各次运行的 dict 是空的。请至少给出一次运行，"
        "例如 {{'training': losses}}。",
    },
    # Filled into {run} below: nothing for a single run.
    "of_run": {"en": " of run {name}", "zh": "运行 {name} 的"},
    "not_a_list": {
        "en": "Expected a list of losses{run}, got {value} ({type}). "
        "Collect one number per step: losses.append(loss.item()).",
        "zh": "{run}损失应当是一个列表，这里得到的却是 {value}（{type}）。"
        "请每一步收集一个数：losses.append(loss.item())。",
    },
    "no_losses": {
        "en": "There is nothing to plot: the list of losses{run} is empty. "
        "Did the training loop run, and append loss.item() at each step?",
        "zh": "没有可画的东西：{run}损失列表是空的。训练循环运行了吗？"
        "每一步都把 loss.item() 追加到列表里了吗？",
    },
    "steps_not_a_list": {
        "en": "steps must be a list of whole numbers, one per loss, such as [0, 10, 20], "
        "got {value} ({type}).",
        "zh": "steps 必须是一个整数列表，每个损失对应一个步数，例如 [0, 10, 20]，"
        "这里得到的却是 {value}（{type}）。",
    },
    "steps_given_twice": {
        "en": "This dict already gives the step of each loss, {{step: loss}}, so steps= has "
        "nothing to add: leave it out, or pass the losses as a list with steps=.",
        "zh": "这个 dict 已经给出了每个损失的步数（{{step: loss}}），steps= 是多余的："
        "请去掉它，或者把损失放进一个列表、再用 steps= 给出步数。",
    },
    "steps_and_losses_differ": {
        "en": "There are {losses} losses{run} but {steps} steps: give exactly one step per loss.",
        "zh": "{run}损失有 {losses} 个，步数却有 {steps} 个：每个损失要正好对应一个步数。",
    },
    "step_not_whole": {
        "en": "A step must be a whole number such as 0, 1, 2, ..., got {value} ({type}).",
        "zh": "步数必须是整数，例如 0、1、2……，这里得到的却是 {value}（{type}）。",
    },
    "step_too_large": {
        "en": "The step {value} is too large to draw on an axis. "
        "Count steps with one counter that starts at 0.",
        "zh": "步数 {value} 太大，坐标轴上画不出来。请用一个从 0 开始的计数器记步数。",
    },
    "steps_go_back": {
        "en": "Steps must increase, but step {step} comes after step {previous}. "
        "Count steps with one counter for the whole run.",
        "zh": "步数必须递增，但第 {step} 步排在第 {previous} 步之后。"
        "整个训练请只用一个计数器记步数。",
    },
    # --- one number: a loss, or a step of the live plot; {what} starts the sentence
    "the_step": {"en": "The step", "zh": "这个步数"},
    "loss_at_step": {"en": "The loss at step {step}", "zh": "第 {step} 步的损失"},
    "loss_at_step_of_run": {
        "en": "The loss at step {step} of run {run}",
        "zh": "运行 {run} 第 {step} 步的损失",
    },
    "meta_tensor": {
        "en": "{what} is a meta tensor: it has a shape and a dtype but holds no numbers, so "
        "there is no value to plot. Compute it from tensors on a real device (cpu, cuda), "
        "not device='meta'.",
        "zh": "{what}是一个 meta 张量：它有形状和 dtype，却不存放任何数，所以没有值可画。"
        "请用真实设备（cpu、cuda）上的张量来计算它，不要用 device='meta'。",
    },
    "several_numbers": {
        "en": "{what} is a tensor or array of several numbers; a loss is one number "
        "per step. Record loss.item() after computing the (summed) loss.",
        "zh": "{what}是含有多个数的张量或数组，而损失每一步只有一个数。"
        "请先算出（求和后的）损失，再记录 loss.item()。",
    },
    "no_numbers": {
        "en": "{what} is an empty tensor or array: it holds no number, and a loss is one number "
        "per step. Record loss.item() after computing the (summed) loss.",
        "zh": "{what}是一个空的张量或数组，里面一个数也没有，而损失每一步是一个数。"
        "请先算出（求和后的）损失，再记录 loss.item()。",
    },
    # .item() failed for a reason of its own: that reason, not a guess, is what the learner needs.
    "item_failed": {
        "en": "{what} ({type}) could not be read as a number: its .item() raised "
        "{error_type}: {error}. Fix that error first, or record a Python float.",
        "zh": "{what}（{type}）读不出数值：它的 .item() 抛出了 {error_type}：“{error}”。"
        "请先解决这个错误，或者直接记录一个 Python 的 float。",
    },
    "not_a_number": {
        "en": "{what} is {value} ({type}), not a number. "
        "Record numbers, e.g. losses.append(loss.item()).{several_runs}",
        "zh": "{what}是 {value}（{type}），不是一个数。"
        "请记录数值，例如 losses.append(loss.item())。{several_runs}",
    },
    "several_runs": {
        "en": " To plot several runs, pass a dict: {{'run a': losses_a, 'run b': losses_b}}.",
        "zh": "要画多次运行，请传入一个 dict：{{'run a': losses_a, 'run b': losses_b}}。",
    },
    "live_step_not_a_number": {
        "en": "A step must be a number such as 0, 1, 2, ... (or an epoch such as 1.5), "
        "got {value} ({type}).",
        "zh": "步数必须是一个数，例如 0、1、2……（也可以是 1.5 这样的轮数，即 epoch），"
        "这里得到的却是 {value}（{type}）。",
    },
    # --- the title; {example} is TITLE_EXAMPLE
    "title_not_text": {
        "en": 'title must be a text, such as "two-layer network", or one text per language, '
        "such as {example}; got {value} ({type}).",
        "zh": 'title 必须是一段文字，例如 "two-layer network"，或者每种语言各一段文字，'
        "例如 {example}；这里得到的却是 {value}（{type}）。",
    },
    "title_unknown_language": {
        "en": "title has an entry for {language}, which is not a language the helpers speak "
        "({known}). Give the title in those, such as {example}.",
        "zh": "title 里有一项是 {language}，但辅助工具不会这种语言（它们会的是 {known}）。"
        "请只用这些语言给出标题，例如 {example}。",
    },
    "title_entry_not_text": {
        "en": "title[{language}] must be a text, got {value} ({type}). "
        "Give one text per language, such as {example}.",
        "zh": "title[{language}] 必须是一段文字，这里得到的却是 {value}（{type}）。"
        "请每种语言各给一段文字，例如 {example}。",
    },
    "title_without_english": {
        "en": "title has no English entry, {value}: it is the title wherever the chosen "
        "language's cannot be drawn (no font for its characters). Add one, such as {example}.",
        "zh": 'title 里没有英文（"en"）的一项：{value}。所选语言的标题画不出来时'
        "（没有能显示它的字符的字体），图上用的就是英文标题。请补上这一项，例如 {example}。",
    },
    # --- the live plot
    "every_seconds_not_a_number": {
        "en": "every_seconds must be a number of seconds, got {value}.",
        "zh": "every_seconds 必须是一个秒数，这里得到的却是 {value}。",
    },
    "every_seconds_negative": {
        "en": "every_seconds must be 0 or more, got {value}.",
        "zh": "every_seconds 必须大于或等于 0，这里得到的却是 {value}。",
    },
    "finished": {
        "en": "This live plot is finished: its final curve is drawn. Losses recorded after that "
        "are kept in .losses, with their steps in .steps, but not drawn: plot_losses(live.losses) "
        "draws them all. Create a new LiveLossPlot for a new training run.",
        "zh": "这个实时损失图已经结束，最终的曲线已经画好。之后记录的损失仍然保存在 .losses 里"
        "（步数在 .steps 里），但不会再画出来：plot_losses(live.losses) 可以把它们全部画出。"
        "新的一次训练请新建一个 LiveLossPlot。",
    },
    # The live plot's text form, e.g. when a cell ends with it.
    "live_repr": {
        "en": "<LiveLossPlot: losses recorded: {count}, pictures drawn: {redraws}; {state}>",
        "zh": "<LiveLossPlot：已记录 {count} 个损失，画了 {redraws} 张图；{state}>",
    },
    "live_running": {
        "en": "not finished: .finish(), or the end of a with block, draws the final curve",
        "zh": "尚未结束：调用 .finish()（或 with 块结束时）会画出最终的曲线",
    },
    "live_finished": {
        "en": "finished: the final curve is drawn",
        "zh": "已经结束，最终的曲线已经画好",
    },
    "live_gave_up": {
        "en": "stopped redrawing: matplotlib could not draw the curve, as the warning said",
        "zh": "已经停止重画：matplotlib 画不出这条曲线，原因见之前的警告",
    },
    # matplotlib's own words ({error}) are quoted in Chinese, as PyTorch's are.
    "stops_redrawing": {
        "en": "The live plot could not draw the loss curve ({error_type}: {error}), so it stops "
        "redrawing. Training goes on, and every loss is still in .losses, with its step in .steps.",
        "zh": "实时损失图画不出损失曲线（{error_type}：“{error}”），所以不再重画。训练照常进行，"
        "每个损失仍然都在 .losses 里，它的步数在 .steps 里。",
    },
}
MESSAGES = Catalogue("helpers.plot", _TEXTS)

"""Notebook 08's check cells accept what PyTorch actually does: each question's code, run.

tests/test_exercises.py proves each check accepts its sample answers; here every question of
notebook 08 is computed and the check must accept the result. Section 3's engine is taken from
the stored notebook itself, so that the questions about it are asked of the code the learner
reads, and its claims (bit for bit against PyTorch, a naive engine that loses a share, another
order one float32 step away) are run here too.
"""

import ast
from pathlib import Path

import torch
from answers import MyReLU, accepted, make_data, rejected
from notebook_cells import cells, source_of

from helpers.backward import trace

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "en" / "08_backward_step_by_step.ipynb"
ENGINE = ("count_dependencies", "newest_first", "all_arrived", "my_grad")
NAIVE = ("first_arrival", "as_they_come")


def notebook_functions() -> dict:
    """The functions section 3 of notebook 08 defines, run from the stored notebook's code."""
    wanted = {*ENGINE, *NAIVE}
    definitions = [
        statement
        for cell in cells(NOTEBOOK)
        if cell["cell_type"] == "code"
        for statement in ast.parse(source_of(cell)).body
        if isinstance(statement, ast.FunctionDef) and statement.name in wanted
    ]
    assert sorted(d.name for d in definitions) == sorted(wanted)
    namespace: dict = {}
    imports = "import heapq\nimport itertools\nimport torch\n"
    imports += "from torch.autograd.function import BackwardCFunction\n"
    exec(imports, namespace)  # noqa: S102 - the notebook's own code, stored in this repository
    exec(compile(ast.Module(definitions, type_ignores=[]), str(NOTEBOOK), "exec"), namespace)  # noqa: S102
    return namespace


ENGINE_CODE = notebook_functions()


def shared_leaf():
    x = torch.tensor(2.0, requires_grad=True)
    return x, x * x + torch.sin(x) * x


def test_08_1_accumulate_grad_runs_once_for_four_shares():
    x, y = shared_leaf()
    runs = sum(getattr(step.node, "variable", None) is x for step in trace(y))
    accepted("08.1", runs)


def test_08_2_accumulate_grad_waits_for_one_gradient_per_edge():
    x = torch.tensor(2.0, requires_grad=True)
    y = x * x * x + torch.sin(x) * x  # the changed line
    changed = trace(y)
    accumulate = changed[-1].node  # x's AccumulateGrad, the last node to run
    assert accumulate.variable is x
    arrived = [g for step in changed for node, g in step.sent if node is accumulate]
    accepted("08.2", len(arrived))


def test_08_3_the_naive_engine_misses_the_share_through_sin():
    x, y = shared_leaf()
    my_grad = ENGINE_CODE["my_grad"]
    (naive,) = my_grad(
        y, (x,), order=ENGINE_CODE["as_they_come"], runs_when=ENGINE_CODE["first_arrival"]
    )
    with torch.no_grad():
        shares = {
            "a": torch.sin(x),  # sent by sin(x) * x
            "b": x * torch.cos(x),  # sent by SinBackward0
            "c": x,  # one of the two sent by x * x
        }
        total = 2 * x + torch.sin(x) + x * torch.cos(x)
    missed = [letter for letter, share in shares.items() if torch.isclose(naive, total - share)]
    letter = missed[0] if missed else ("d" if torch.isclose(naive, total) else "none")
    assert len(missed) <= 1
    accepted("08.3", letter)
    for other in "acd":
        rejected("08.3", other)


def test_08_4_gradients_that_reach_sin_before_it_runs():
    x = torch.tensor(2.0, requires_grad=True)
    h = torch.sin(x)
    y = h * h + h
    sin_node = h.grad_fn
    arriving = sum(node is sin_node for step in trace(y) for node, g in step.sent if g is not None)
    accepted("08.4", arriving)


def test_08_5_summed_gradient_at_the_leaf():
    h = torch.tensor(3.0, requires_grad=True)
    y = h * h + h
    accumulate = next(step for step in trace(y) if step.name == "AccumulateGrad")
    accepted("08.5", accumulate.grads_in[0])


def test_08_6_engine_runs_the_later_created_node_first():
    x = torch.tensor(2.0, requires_grad=True)
    p = x * 2
    q = x * 3
    y = p + q
    order = [step.node for step in trace(y)]
    first = "p" if order.index(p.grad_fn) < order.index(q.grad_fn) else "q"
    accepted("08.6", first)


def test_the_notebooks_engine_counts_what_the_trace_shows():
    x, y = shared_leaf()
    waiting = ENGINE_CODE["count_dependencies"](y.grad_fn)
    edges_into = {}
    for step in trace(y):
        for node, _ in step.sent:
            edges_into[node] = edges_into.get(node, 0) + 1
    assert waiting == {node: edges_into.get(node, 0) for node in waiting}


def test_the_notebooks_engine_is_pytorch_bit_for_bit_and_leaves_grad_alone():
    x, y = shared_leaf()
    (ours,) = ENGINE_CODE["my_grad"](y, (x,))
    (theirs,) = torch.autograd.grad(y, (x,))
    assert torch.equal(ours, theirs)
    assert x.grad is None


def test_the_notebooks_engine_on_the_networks_of_notebooks_05_and_06():
    for relu in (lambda t: t.clamp(min=0), MyReLU.apply):
        x, y, w1, w2 = make_data()
        w1.requires_grad_()
        w2.requires_grad_()
        loss = (relu(x.mm(w1)).mm(w2) - y).pow(2).sum()
        ours = ENGINE_CODE["my_grad"](loss, (w1, w2))
        theirs = torch.autograd.grad(loss, (w1, w2))
        assert all(torch.equal(o, t) for o, t in zip(ours, theirs, strict=True))


def test_another_ready_order_gives_the_same_gradient_one_float32_step_away():
    x, y = shared_leaf()
    (pytorch_order,) = ENGINE_CODE["my_grad"](y, (x,))
    (arrival_order,) = ENGINE_CODE["my_grad"](y, (x,), order=ENGINE_CODE["as_they_come"])
    assert not torch.equal(pytorch_order, arrival_order)
    assert torch.equal(torch.nextafter(pytorch_order, arrival_order), arrival_order)

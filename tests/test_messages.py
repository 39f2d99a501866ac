"""Every error and warning a helper shows a learner comes from a catalogue, in both languages.

The helpers raise and warn with ``MESSAGES.say("key", ...)`` (see `helpers.language.Catalogue`).
A raise or a warning whose text is written out in English at the raise is read by nobody in the
Chinese edition as it should be: this test reads the helpers' source and names every such place.
Each module's own tests then run its errors under ``speaking("zh")`` and read the text.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

HELPERS = Path(__file__).resolve().parent.parent / "helpers"
# A string with two English words side by side is a sentence (or part of one); a code name such
# as "max_nodes" or "(2,)" is not.
_WORDS = re.compile(r"[A-Za-z]{2,}[ ,:;]+[A-Za-z]{2,}")
# The places allowed to raise a sentence of their own, and why.
SPEAKS_FOR_ITSELF = {
    # Says what it knows in both languages at once: the learner's language is what is unknown.
    ("language.py", "_read"),
    # Refuse a helper's own catalogue or exercise table when it is imported: read by whoever
    # writes the helpers, never by a learner (the test suite imports every one of them).
    ("language.py", "_check_entry"),
    ("exercises/__init__.py", "_check_languages"),
    ("exercises/__init__.py", "register"),
}


def _sentences(node: ast.AST, constants: dict[str, ast.AST]) -> list[str]:
    """The English text written into an expression: literals, f-strings, named constants.

    The key of a catalogue text (``MESSAGES.say("no graph", ...)``) names the text, and is not
    read: what the learner reads is the catalogue's sentence in their language.
    """
    if isinstance(node, ast.Call) and _called_name(node) in ("say", "caption") and node.args:
        parts = node.args[1:] + [keyword.value for keyword in node.keywords]
        return [text for part in parts for text in _sentences(part, constants)]
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [node.value] if _WORDS.search(node.value) else []
    if isinstance(node, ast.Name) and node.id in constants:
        return _sentences(constants[node.id], {})
    return [text for child in ast.iter_child_nodes(node) for text in _sentences(child, constants)]


def _module_constants(tree: ast.Module) -> dict[str, ast.AST]:
    constants = {}
    for statement in tree.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target = statement.targets[0]
            if isinstance(target, ast.Name) and isinstance(
                statement.value, (ast.Constant, ast.JoinedStr, ast.BinOp)
            ):
                constants[target.id] = statement.value
    return constants


def _spoken(call: ast.AST) -> list[ast.AST]:
    """The arguments of a raise or a warning that a learner reads as its text."""
    if isinstance(call, ast.Call):
        return list(call.args) + [keyword.value for keyword in call.keywords]
    return []


def _places_that_speak_english() -> list[str]:
    places = []
    for path in sorted(HELPERS.rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        constants = _module_constants(tree)
        name = path.relative_to(HELPERS).as_posix()
        for node, owner in _with_owner(tree, "<module>"):
            if (name, owner) in SPEAKS_FOR_ITSELF:
                continue
            if isinstance(node, ast.Raise) and node.exc is not None:
                arguments = _spoken(node.exc)
            elif isinstance(node, ast.Call) and _called_name(node) == "warn":
                arguments = _spoken(node)
            else:
                continue
            for argument in arguments:
                for sentence in _sentences(argument, constants):
                    places.append(f"{name}:{node.lineno} ({owner}): {sentence[:60]!r}")
    return places


def _with_owner(node: ast.AST, owner: str):
    """Every node under ``node`` with the name of the innermost function that holds it."""
    for child in ast.iter_child_nodes(node):
        yield child, owner
        inner = child.name if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)) else owner
        yield from _with_owner(child, inner)


def _called_name(call: ast.Call) -> str:
    if isinstance(call.func, ast.Attribute):
        return call.func.attr
    return call.func.id if isinstance(call.func, ast.Name) else ""


def test_every_raise_and_warning_of_the_helpers_says_a_catalogue_text():
    places = _places_that_speak_english()
    assert not places, "These raise or warn with English written at the spot:\n" + "\n".join(places)


def test_the_scan_finds_an_english_raise(tmp_path, monkeypatch):
    # The test above must be able to fail: a module with a plain English raise is found.
    module = tmp_path / "helpers"
    module.mkdir()
    (module / "bad.py").write_text(
        "TOO_LONG = 'Graphviz took too long'\n"
        "def f(x):\n"
        "    if x:\n"
        "        raise ValueError(f'x must be positive, got {x}')\n"
        "    raise RuntimeError(TOO_LONG)\n"
        "def g():\n"
        "    import warnings\n"
        "    warnings.warn('the plot stops redrawing')\n"
        "def h():\n"
        "    raise TypeError(MESSAGES.say('bad kind', got='int'))\n"
        "def i():\n"
        "    raise TypeError(MESSAGES.say('bad kind', got='an English sentence'))\n",
        encoding="utf-8",
    )
    monkeypatch.setitem(globals(), "HELPERS", module)
    places = _places_that_speak_english()
    assert len(places) == 4, places
    assert any("bad.py:4" in place for place in places)
    assert any("bad.py:5" in place for place in places)
    assert any("bad.py:8" in place for place in places)
    assert any("bad.py:12" in place for place in places)


@pytest.mark.parametrize(
    "text",
    [
        "This graph was already used by a backward pass.",
        "output 不需要梯度。Compute it from a tensor",
    ],
)
def test_a_text_with_an_english_sentence_does_not_pass_for_chinese(text):
    from speaks import assert_speaks_chinese

    with pytest.raises(AssertionError):
        assert_speaks_chinese(text)


def test_code_inside_a_chinese_sentence_is_not_english_prose():
    from speaks import assert_speaks_chinese

    assert_speaks_chinese(
        "这张图已经被一次反向传播用过了。要保留它，第一次就写 y.backward(retain_graph=True)，"
        "或者传入 max_nodes=None；PyTorch 的原话是 'grad can be implicitly created only'。"
    )

"""The names in a picture: the one way every helper finds what to call a tensor.

A box is called by the name the learner's code gives its tensor: ``names=`` first, then the
variables of the code that called the helper (a notebook cell, or a learner's function), then
the notebook's own. Tensors are matched by identity, never by value; a module's parameters are
named after it (``model.weight``). `helpers.graph` and `helpers.backward` both name tensors this
way, so that a tensor has the same name in every picture and table.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable, Mapping
from typing import Any

import torch

from helpers.graph.messages import MESSAGES

Names = Mapping[str, Any] | Iterable[tuple[str, Any]]


def resolve_names(names: Names | None = None) -> list[tuple[str, torch.Tensor]]:
    """Every (name, tensor) a picture may use, in order of preference.

    First ``names`` as given (``{name: tensor or module}`` or pairs such as
    ``model.named_parameters()``), then the variables of the first caller outside this package
    (a notebook cell, or a learner's function: its locals, then its globals), then, in IPython,
    the notebook's own variables (so that a trace IPython displays by itself still finds them).
    The one way every helper finds names, so that a tensor has the same name in every picture.
    """
    pairs = _explicit_names(names)
    frame = sys._getframe(1)
    while frame is not None and _is_ours(frame.f_globals.get("__name__", "")):
        frame = frame.f_back
    if frame is not None:
        namespace = {**frame.f_globals, **frame.f_locals}  # a local shadows a global of that name
        del frame  # a frame kept alive keeps every local alive with it
        pairs += named_tensors(namespace)
    pairs += named_tensors(_notebook_namespace())
    return pairs


def _explicit_names(names: Names | None) -> list[tuple[str, torch.Tensor]]:
    if names is None:
        return []
    if isinstance(names, torch.Tensor):
        raise TypeError(MESSAGES.say("names_is_a_tensor"))
    if isinstance(names, (str, bytes)) or not isinstance(names, Iterable):
        raise TypeError(MESSAGES.say("names_of_the_wrong_kind", got=type(names).__name__))
    pairs = names.items() if isinstance(names, Mapping) else names
    result: list[tuple[str, torch.Tensor]] = []
    for pair in pairs:
        if not (isinstance(pair, (tuple, list)) and len(pair) == 2):
            raise TypeError(MESSAGES.say("names_not_pairs", got=type(pair).__name__))
        name, value = pair
        if isinstance(value, torch.Tensor):
            result.append((str(name), value))
        elif isinstance(value, torch.nn.Module):
            result.extend(_parameters_of(str(name), value))
        else:
            got = type(value).__name__
            raise TypeError(MESSAGES.say("named_value_not_a_tensor", name=name, got=got))
    return result


def named_tensors(namespace: Mapping[str, Any]) -> list[tuple[str, torch.Tensor]]:
    """The tensors in a namespace, and the parameters of its modules (``model.weight``).

    Sorted shortest name first, then alphabetically, so the choice between two names for one
    tensor does not depend on the order in which they were assigned. Objects that cannot be
    inspected (a module whose ``__init__`` forgot ``super().__init__()``, an object whose
    ``__class__`` raises) are skipped: a notebook holds all sorts of things.
    """
    found: list[tuple[str, torch.Tensor]] = []
    for name, value in list(namespace.items()):
        if not isinstance(name, str) or name.startswith("_"):  # IPython's _, _1, _i1 ...
            continue
        try:
            if isinstance(value, torch.Tensor):
                found.append((name, value))
            elif isinstance(value, torch.nn.Module):
                found.extend(_parameters_of(name, value))
        except Exception:  # noqa: BLE001 - whatever a broken object raises, it names nothing
            continue
    return sorted(found, key=lambda pair: (len(pair[0]), pair[0]))


def _parameters_of(name: str, module: torch.nn.Module) -> list[tuple[str, torch.Tensor]]:
    try:
        return [(f"{name}.{part}", p) for part, p in module.named_parameters()]
    except Exception:  # noqa: BLE001 - a module that is not set up (no super().__init__())
        return []


def _notebook_namespace() -> Mapping[str, Any]:
    ipython_module = sys.modules.get("IPython")
    shell = ipython_module.get_ipython() if ipython_module is not None else None
    return {} if shell is None else shell.user_ns


def _is_ours(module_name: str) -> bool:
    return module_name.partition(".")[0] == __name__.partition(".")[0]

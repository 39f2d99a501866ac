"""Which torch the helpers support, checked when `helpers` is imported.

The helpers read parts of autograd that changed over PyTorch's releases (a Node's metadata, its
hooks, the engine's order), and the lessons print what the torch they run on computes. Both are
tested on the oldest torch named here and on the newest (`make compat`, README "Which torch").
An older torch fails at import, in both languages at once: a learner meets it before
``set_language`` has run.
"""

from __future__ import annotations

import importlib.metadata
import re

from helpers.language import LANGUAGES, Catalogue, speaking

__all__ = ["OLDEST_TORCH", "TorchTooOld", "check_torch", "clamp_gradient_at_zero", "torch_version"]

# The oldest torch the helpers support, as pyproject.toml's `torch>=` says (a test holds the two
# together): the oldest that Colab shipped in the year before this was set (2.8.0, November
# 2025; Kaggle's images take their torch from Colab's).
OLDEST_TORCH = (2, 8)

MESSAGES = Catalogue(
    "helpers.torch_version",
    {
        "too old": {
            "en": (
                "These helpers need torch {oldest} or newer, and this Python has torch {found}. "
                'Upgrade it with: pip install --upgrade "torch>={oldest}" (in a notebook, '
                "restart the kernel afterwards)."
            ),
            "zh": (
                "这些辅助工具需要 torch {oldest} 或更新的版本，而当前 Python 里的是 torch {found}。"
                '请用 pip install --upgrade "torch>={oldest}" 升级'
                "（在笔记本里，升级后请重启内核）。"
            ),
        },
    },
)


class TorchTooOld(ImportError):
    """The installed torch is older than `OLDEST_TORCH`."""


def torch_version(text: str) -> tuple[int, int] | None:
    """(major, minor) of a torch version string: ``"2.14.1+cu130"`` is (2, 14); None for a
    string that does not start with two numbers."""
    found = re.match(r"(\d+)\.(\d+)", text)
    return (int(found.group(1)), int(found.group(2))) if found else None


def check_torch(installed: str | None = None) -> None:
    """Raise `TorchTooOld`, in every language, if torch ``installed`` (by default the one this
    Python has) is older than `OLDEST_TORCH`. Without torch installed, nothing: the first import
    of torch says so itself."""
    if installed is None:
        try:
            installed = importlib.metadata.version("torch")
        except importlib.metadata.PackageNotFoundError:
            return
    version = torch_version(installed)
    if version is None or version >= OLDEST_TORCH:
        return  # a build whose version says nothing readable is given the benefit of the doubt
    oldest = ".".join(map(str, OLDEST_TORCH))
    sentences = []
    for language in LANGUAGES:
        with speaking(language):
            sentences.append(MESSAGES.say("too old", oldest=oldest, found=installed))
    raise TorchTooOld("\n".join(sentences))


def clamp_gradient_at_zero() -> float:
    """What ``x.clamp(min=0)`` sends back at exactly ``x = 0`` on the torch running: 1.0 up to
    torch 2.13, 0.0 from 2.14 on, where clamp follows PyTorch's documented rule for a point
    without a derivative (the subgradient nearest zero, as ``torch.relu`` always did). Lessons 06
    and 10 show it; their exercises' right answers follow it."""
    import torch  # here, not at the top: importing helpers checks torch without loading it

    x = torch.zeros((), requires_grad=True)
    with torch.enable_grad():
        x.clamp(min=0).backward()
    return float(x.grad)

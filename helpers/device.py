"""Where the tensors of a notebook live: a CUDA GPU if there is one, else Apple's GPU, else the CPU.

    device = pick_device()
    describe_device(device)  # 'cuda: NVIDIA A100-SXM4-40GB', 'mps: Apple GPU (Metal)' or 'cpu'

The notebooks create their random numbers on the CPU and then move them with ``.to(device)``,
so that they print the same numbers whichever device was picked.
"""

from __future__ import annotations

import torch

from helpers.language import Catalogue

__all__ = ["describe_device", "pick_device"]

# What describe_device says, in each language. The names of devices ('cuda:1', 'mps') and of
# the hardware (the GPU's name, as the driver reports it) stay as they are in both.
_TEXTS = {
    "cuda": {"en": "cuda: {name}", "zh": "cuda：GPU 型号为 {name}"},
    "mps": {"en": "mps: Apple GPU (Metal)", "zh": "mps：Apple GPU（通过 Metal 调用）"},
    "no_cuda": {
        "en": "This machine has no CUDA GPU that PyTorch can use, so there is no {device} to "
        "describe. Use pick_device() to get a device that exists.",
        "zh": "这台机器上没有 PyTorch 能用的 CUDA GPU，所以无从描述 {device}。"
        "请用 pick_device() 选一个真实存在的设备。",
    },
    "no_such_cuda": {
        "en": "This machine has {count} CUDA GPU(s), numbered from 0, so there is no {device}. "
        "Use 'cuda' (the current GPU) or pick_device().",
        "zh": "这台机器有 {count} 块 CUDA GPU，编号从 0 开始，所以没有 {device}。"
        "请用 'cuda'（当前的 GPU）或 pick_device()。",
    },
    "no_mps": {
        "en": "This machine has no Apple GPU that PyTorch can use, so there is no 'mps' to "
        "describe. Use pick_device() to get a device that exists.",
        "zh": "这台机器上没有 PyTorch 能用的 Apple GPU，所以无从描述 'mps'。"
        "请用 pick_device() 选一个真实存在的设备。",
    },
    "not_a_device": {
        "en": "Expected a torch.device or a name such as 'cpu', got {type}. "
        "Pass the result of pick_device().",
        "zh": "这里需要一个 torch.device，或者 'cpu' 这样的设备名，得到的却是 {type}。"
        "请传入 pick_device() 的结果。",
    },
    "unknown_name": {
        "en": "{name} is not a device name PyTorch knows. "
        "Use 'cpu', 'cuda', 'cuda:1' or 'mps', or simply pick_device().",
        "zh": "{name} 不是 PyTorch 认识的设备名。"
        "请用 'cpu'、'cuda'、'cuda:1' 或 'mps'，或者直接用 pick_device()。",
    },
}
MESSAGES = Catalogue("helpers.device", _TEXTS)


def pick_device() -> torch.device:
    """The fastest device this machine offers: ``cuda`` if available, else ``mps``, else ``cpu``."""
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def describe_device(device: torch.device | str) -> str:
    """One line saying which device this is, with the GPU's name where there is one.

    The CPU is named by its device name alone (``'cpu'``), the same in every language.
    """
    device = _as_device(device)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(MESSAGES.say("no_cuda", device=repr(str(device))))
        count = torch.cuda.device_count()
        if device.index is not None and device.index >= count:
            raise ValueError(MESSAGES.say("no_such_cuda", count=count, device=repr(str(device))))
        # Without an index, get_device_name names the current GPU, which is where
        # tensors sent to plain "cuda" go.
        return MESSAGES.say("cuda", name=torch.cuda.get_device_name(device))
    if device.type == "mps":
        if not torch.backends.mps.is_available():
            raise ValueError(MESSAGES.say("no_mps"))
        return MESSAGES.say("mps")
    return device.type if device.index is None else str(device)


def _as_device(device: torch.device | str) -> torch.device:
    if isinstance(device, torch.device):
        return device
    if not isinstance(device, str):
        raise TypeError(MESSAGES.say("not_a_device", type=type(device).__name__))
    try:
        return torch.device(device)
    except RuntimeError:
        raise ValueError(MESSAGES.say("unknown_name", name=repr(device))) from None

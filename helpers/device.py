"""Where the tensors of a notebook live: a CUDA GPU if there is one, else Apple's GPU, else the CPU.

    device = pick_device()
    describe_device(device)  # 'cuda: NVIDIA A100-SXM4-40GB', 'mps: Apple GPU (Metal)' or 'cpu'

The notebooks create their random numbers on the CPU and then move them with ``.to(device)``,
so that they print the same numbers whichever device was picked.
"""

from __future__ import annotations

import torch

__all__ = ["describe_device", "pick_device"]


def pick_device() -> torch.device:
    """The fastest device this machine offers: ``cuda`` if available, else ``mps``, else ``cpu``."""
    if torch.cuda.is_available():
        return torch.device("cuda")
    if torch.backends.mps.is_available():
        return torch.device("mps")
    return torch.device("cpu")


def describe_device(device: torch.device | str) -> str:
    """One line saying which device this is, with the GPU's name where there is one."""
    device = _as_device(device)
    if device.type == "cuda":
        if not torch.cuda.is_available():
            raise ValueError(
                "This machine has no CUDA GPU that PyTorch can use, so there is no "
                f"{str(device)!r} to describe. Use pick_device() to get a device that exists."
            )
        count = torch.cuda.device_count()
        if device.index is not None and device.index >= count:
            raise ValueError(
                f"This machine has {count} CUDA GPU(s), numbered from 0, so there is no "
                f"{str(device)!r}. Use 'cuda' (the current GPU) or pick_device()."
            )
        # Without an index, get_device_name names the current GPU, which is where
        # tensors sent to plain "cuda" go.
        return f"cuda: {torch.cuda.get_device_name(device)}"
    if device.type == "mps":
        if not torch.backends.mps.is_available():
            raise ValueError(
                "This machine has no Apple GPU that PyTorch can use, so there is no 'mps' to "
                "describe. Use pick_device() to get a device that exists."
            )
        return "mps: Apple GPU (Metal)"
    return device.type if device.index is None else str(device)


def _as_device(device: torch.device | str) -> torch.device:
    if isinstance(device, torch.device):
        return device
    if not isinstance(device, str):
        raise TypeError(
            f"Expected a torch.device or a name such as 'cpu', got {type(device).__name__}. "
            "Pass the result of pick_device()."
        )
    try:
        return torch.device(device)
    except RuntimeError:
        raise ValueError(
            f"{device!r} is not a device name PyTorch knows. "
            "Use 'cpu', 'cuda', 'cuda:1' or 'mps', or simply pick_device()."
        ) from None

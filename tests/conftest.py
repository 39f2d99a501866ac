"""Fixtures shared by the tests of helpers.device (test_device.py, test_device_messages.py)."""

import pytest
import torch


@pytest.fixture
def fake_gpus(monkeypatch):
    """Pretend which GPUs exist; returns a function taking cuda=..., mps=..."""

    def pretend(*, cuda: bool, mps: bool, cuda_count: int = 2) -> None:
        monkeypatch.setattr(torch.cuda, "is_available", lambda: cuda)
        monkeypatch.setattr(torch.cuda, "device_count", lambda: cuda_count if cuda else 0)
        monkeypatch.setattr(torch.backends.mps, "is_available", lambda: mps)

    return pretend


@pytest.fixture
def gpu_names(monkeypatch):
    """Fake torch.cuda.get_device_name; returns the list of devices it was asked about."""
    asked = []

    def get_device_name(device=None):
        asked.append(device)
        return (
            "NVIDIA Fake A100" if device is None or device.index in (None, 0) else "NVIDIA Fake T4"
        )

    monkeypatch.setattr(torch.cuda, "get_device_name", get_device_name)
    return asked

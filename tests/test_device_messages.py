"""helpers.device in Chinese: the description of a device and every error describe_device gives.

This machine has no GPU, so the CUDA and MPS paths run against faked availability, as in
tests/test_device.py. The names of devices and of the hardware stay as they are in Chinese.
"""

import pytest
import torch
from speaks import assert_speaks_chinese

from helpers.device import describe_device, pick_device
from helpers.language import get_language, speaking


@pytest.fixture(autouse=True)
def english_after_each_test():
    yield
    assert get_language() == "en", "a test left the helpers speaking another language"


def refused_in_chinese(error, device):
    """The text of the ``error`` that describe_device(device) raises in Chinese."""
    with speaking("zh"), pytest.raises(error) as refused:
        describe_device(device)
    text = str(refused.value)
    assert_speaks_chinese(text)
    return text


# --- what describe_device says ------------------------------------------------------------


def test_in_chinese_a_cuda_gpu_is_described_by_its_own_name(fake_gpus, gpu_names):
    fake_gpus(cuda=True, mps=False)
    with speaking("zh"):
        description = describe_device(torch.device("cuda"))
    assert_speaks_chinese(description)
    assert description.startswith("cuda") and "NVIDIA Fake A100" in description
    assert "\n" not in description


def test_in_chinese_a_numbered_cuda_device_is_described_by_that_gpus_name(fake_gpus, gpu_names):
    fake_gpus(cuda=True, mps=False)
    with speaking("zh"):
        description = describe_device("cuda:1")
    assert "NVIDIA Fake T4" in description
    assert gpu_names == [torch.device("cuda:1")]


def test_in_chinese_the_apple_gpu_is_described_in_chinese(fake_gpus):
    fake_gpus(cuda=False, mps=True)
    with speaking("zh"):
        description = describe_device("mps")
    assert_speaks_chinese(description)
    assert description.startswith("mps") and "Metal" in description


@pytest.mark.parametrize("language", ["en", "zh"])
def test_the_cpu_is_described_by_its_device_name_alone_in_either_language(language):
    with speaking(language):
        assert describe_device("cpu") == "cpu"
        assert describe_device(pick_device()).split(":")[0] in {"cpu", "cuda", "mps"}


# --- what describe_device refuses ---------------------------------------------------------


def test_describing_cuda_without_a_cuda_gpu_is_refused_in_chinese(fake_gpus):
    fake_gpus(cuda=False, mps=False)
    text = refused_in_chinese(ValueError, "cuda")
    assert "'cuda'" in text and "pick_device()" in text


def test_a_cuda_index_beyond_the_gpus_there_are_is_refused_in_chinese(fake_gpus, gpu_names):
    fake_gpus(cuda=True, mps=False, cuda_count=2)
    text = refused_in_chinese(ValueError, "cuda:5")
    assert "'cuda:5'" in text and "2" in text and "pick_device()" in text
    assert gpu_names == []  # refused before asking the driver about a GPU that is not there


def test_describing_mps_without_an_apple_gpu_is_refused_in_chinese(fake_gpus):
    fake_gpus(cuda=False, mps=False)
    text = refused_in_chinese(ValueError, "mps")
    assert "'mps'" in text and "pick_device()" in text


@pytest.mark.parametrize("not_a_device", [0, None, ["cpu"]])
def test_something_that_is_not_a_device_is_refused_in_chinese(not_a_device):
    text = refused_in_chinese(TypeError, not_a_device)
    assert type(not_a_device).__name__ in text and "torch.device" in text


def test_an_unknown_device_name_is_refused_in_chinese_with_names_that_work():
    text = refused_in_chinese(ValueError, "gpu")
    assert "'gpu'" in text and "'cuda:1'" in text

"""helpers.device: which device is picked, and how it is described.

This machine has no GPU, so the CUDA and MPS paths run against faked availability.
"""

import pytest
import torch

from helpers.device import describe_device, pick_device


def test_picks_cuda_when_a_cuda_gpu_is_available(fake_gpus):
    fake_gpus(cuda=True, mps=False)
    assert pick_device() == torch.device("cuda")


def test_prefers_cuda_over_mps_when_both_are_available(fake_gpus):
    fake_gpus(cuda=True, mps=True)
    assert pick_device() == torch.device("cuda")


def test_picks_mps_when_there_is_no_cuda_but_an_apple_gpu(fake_gpus):
    fake_gpus(cuda=False, mps=True)
    assert pick_device() == torch.device("mps")


def test_picks_cpu_when_there_is_no_gpu(fake_gpus):
    fake_gpus(cuda=False, mps=False)
    assert pick_device() == torch.device("cpu")


def test_describes_cuda_with_the_name_of_the_gpu(fake_gpus, gpu_names):
    fake_gpus(cuda=True, mps=False)
    assert describe_device(torch.device("cuda")) == "cuda: NVIDIA Fake A100"


def test_describes_a_numbered_cuda_device_by_that_gpus_name(fake_gpus, gpu_names):
    fake_gpus(cuda=True, mps=False)
    assert describe_device("cuda:1") == "cuda: NVIDIA Fake T4"
    assert gpu_names == [torch.device("cuda:1")]


def test_a_cuda_index_beyond_the_gpus_there_are_is_refused_with_the_fix(fake_gpus, gpu_names):
    fake_gpus(cuda=True, mps=False, cuda_count=1)
    with pytest.raises(ValueError, match=r"1 CUDA GPU\(s\).*pick_device"):
        describe_device("cuda:1")
    assert gpu_names == []


def test_describes_mps_as_the_apple_gpu(fake_gpus):
    fake_gpus(cuda=False, mps=True)
    assert describe_device(torch.device("mps")) == "mps: Apple GPU (Metal)"


def test_describing_mps_without_an_apple_gpu_says_there_is_none(fake_gpus):
    fake_gpus(cuda=False, mps=False)
    with pytest.raises(ValueError, match="no Apple GPU"):
        describe_device("mps")


def test_describes_cpu_in_one_word():
    assert describe_device(torch.device("cpu")) == "cpu"


def test_accepts_a_device_name_as_a_string():
    assert describe_device("cpu") == "cpu"


def test_describes_the_picked_device_of_this_machine_in_one_line():
    description = describe_device(pick_device())
    assert description.split(":")[0] in {"cpu", "cuda", "mps"}
    assert "\n" not in description


def test_describing_cuda_without_a_cuda_gpu_says_there_is_none(fake_gpus):
    fake_gpus(cuda=False, mps=False)
    with pytest.raises(ValueError, match="no CUDA GPU.*pick_device"):
        describe_device("cuda")


def test_an_unknown_device_name_is_refused_with_names_that_work():
    with pytest.raises(ValueError, match="'gpu' is not a device name.*'cpu', 'cuda'"):
        describe_device("gpu")


def test_something_that_is_not_a_device_is_refused():
    with pytest.raises(TypeError, match="torch.device.*got int.*pick_device"):
        describe_device(0)

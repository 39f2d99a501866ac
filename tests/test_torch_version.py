"""helpers.torch_version: the oldest torch the helpers support is stated once, held together with
pyproject.toml, environment.yml, the READMEs and docs/course.md, and an older torch is told at
import, in both languages, with the version needed."""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib

import pytest
import torch
from local_lab import ROOT
from packaging.requirements import Requirement
from speaks import assert_speaks_chinese

from helpers.torch_version import (
    OLDEST_TORCH,
    TorchTooOld,
    check_torch,
    clamp_gradient_at_zero,
    torch_version,
)

OLDEST = ".".join(map(str, OLDEST_TORCH))


def test_the_torch_running_these_tests_is_supported():
    check_torch(torch.__version__)
    check_torch()


@pytest.mark.parametrize("version", ["2.8.0", "2.8.0+cu126", "2.14.1+cu130", "2.15.0", "3.0.0"])
def test_the_oldest_supported_torch_and_newer_pass(version):
    check_torch(version)


@pytest.mark.parametrize("version", ["2.7.1", "2.1.2+cpu", "1.13.1"])
def test_an_older_torch_is_refused_in_both_languages_with_the_version_needed(version):
    with pytest.raises(TorchTooOld) as raised:
        check_torch(version)
    english, chinese = str(raised.value).split("\n")
    for sentence in (english, chinese):
        assert version in sentence and f'"torch>={OLDEST}"' in sentence
    assert "torch 2.8 or newer" in english
    assert_speaks_chinese(chinese)
    assert isinstance(raised.value, ImportError)


def test_versions_are_read_by_major_and_minor():
    assert torch_version("2.14.1+cu130") == (2, 14)
    assert torch_version("2.10.0a0+git1234") == (2, 10)
    assert torch_version("nightly") is None
    check_torch("nightly")  # nothing readable: not refused


def test_importing_helpers_with_an_older_torch_fails_at_once():
    code = (
        "import importlib.metadata as m\n"
        "real = m.version\n"
        "m.version = lambda name: '2.6.0' if name == 'torch' else real(name)\n"
        "import helpers\n"
    )
    result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert result.returncode != 0
    assert "TorchTooOld" in result.stderr and "torch 2.6.0" in result.stderr


def test_pyproject_requires_the_oldest_supported_torch():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    torch_requirement = next(
        Requirement(text) for text in project["dependencies"] if text.startswith("torch")
    )
    assert str(torch_requirement.specifier) == f">={OLDEST}"


def test_environment_yml_asks_conda_for_the_oldest_supported_torch_or_newer():
    text = (ROOT / "environment.yml").read_text(encoding="utf-8")
    assert re.search(rf"^\s*- pytorch-cpu>={re.escape(OLDEST)}\s*$", text, re.M)


@pytest.mark.parametrize("page", ["README.md", "README.zh-CN.md", "docs/course.md"])
def test_each_readme_states_the_supported_range_and_the_command_that_tests_it(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert f"torch {OLDEST}" in text
    assert "make compat TORCH_VERSION=" in text


# --- what the lessons say changed in torch 2.14 -----------------------------------------------


def test_clamp_sends_back_1_at_zero_up_to_torch_2_13_and_0_from_2_14_on():
    # Lesson 06 says so, and lessons 06 and 10 and exercise 06.2 follow it.
    newer = torch_version(torch.__version__) >= (2, 14)
    assert clamp_gradient_at_zero() == (0.0 if newer else 1.0)
    x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0], requires_grad=True)
    x.clamp(min=0).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0 if newer else 1.0, 1.0, 1.0]


def test_torch_relu_sends_back_0_at_zero_on_every_torch():
    x = torch.tensor([-2.0, -0.5, 0.0, 1.0, 3.0], requires_grad=True)
    torch.relu(x).sum().backward()
    assert x.grad.tolist() == [0.0, 0.0, 0.0, 1.0, 1.0]


def test_clamp_gradient_at_zero_is_measured_also_under_no_grad():
    with torch.no_grad():
        assert clamp_gradient_at_zero() in (0.0, 1.0)

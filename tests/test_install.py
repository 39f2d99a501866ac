"""What `make` installs, read from the commands it would run (`make -n`), nothing downloaded.

On Linux the CPU build of torch comes from PyTorch's CPU index unless TORCH=cuda asks for PyPI's
CUDA build; macOS takes PyPI's build; the index is asked about torch alone. The learner's `make
lab` installs requirements.txt only, `make test` the maintainer's tools too. Pythons outside the
supported range and Intel Macs get a message that says what to do.
"""

import os
import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
CPU_INDEX = "https://download.pytorch.org/whl/cpu"
TORCH_PIN = re.search(r"^torch==(\S+)$", (ROOT / "requirements.txt").read_text(), re.M).group(1)


def make(*arguments: str, cwd: Path = ROOT, **environment: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        ["make", "--no-print-directory", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        env={**os.environ, "MAKEFLAGS": "", **environment},
    )


def install_commands(target: str, *variables: str) -> list[str]:
    """The pip commands `make <target>` runs on a machine without the environment yet (-B)."""
    result = make("-n", "-B", target, *variables)
    assert result.returncode == 0, result.stderr
    return [line for line in result.stdout.splitlines() if " -m pip install" in line]


def torch_command(commands: list[str]) -> str:
    (line,) = [line for line in commands if re.search(r"\btorch(==|===)", line)]
    return line


# --- which torch ----------------------------------------------------------------------------------


def test_on_linux_torch_is_the_cpu_build_from_pytorchs_cpu_index():
    line = torch_command(install_commands("lab", "SYSTEM=Linux", "MACHINE=x86_64"))
    assert f"--extra-index-url {CPU_INDEX}" in line
    assert line.endswith(f" torch=={TORCH_PIN}+cpu")  # the local label admits the CPU build only


def test_the_cpu_index_is_asked_about_torch_alone():
    commands = install_commands("test", "SYSTEM=Linux", "MACHINE=x86_64")
    torch = torch_command(commands)
    assert "--no-deps" in torch
    assert [line for line in commands if "download.pytorch.org" in line] == [torch]


def test_torch_is_installed_before_the_requirements_that_pin_it_more_loosely():
    commands = install_commands("lab", "SYSTEM=Linux")
    requirements = next(i for i, line in enumerate(commands) if "-r requirements.txt" in line)
    assert commands.index(torch_command(commands)) < requirements


def test_torch_cuda_asks_for_pypis_linux_build_by_its_exact_version():
    line = torch_command(install_commands("lab", "TORCH=cuda", "SYSTEM=Linux"))
    assert line.endswith(f" torch==={TORCH_PIN}")
    assert "download.pytorch.org" not in line


def test_macos_on_apple_silicon_takes_pypis_build():
    line = torch_command(install_commands("lab", "SYSTEM=Darwin", "MACHINE=arm64"))
    assert line.endswith(f" torch=={TORCH_PIN}")
    assert "--extra-index-url" not in line


@pytest.mark.parametrize(
    ("variables", "message"),
    [
        (["TORCH=rocm"], "use TORCH=cpu (the default) or TORCH=cuda"),
        (["TORCH=cuda", "SYSTEM=Darwin"], "on Darwin use the default TORCH=cpu"),
    ],
)
def test_an_unknown_torch_build_is_refused_with_the_choices(variables, message):
    result = make("-n", "lab", *variables)
    assert result.returncode != 0
    assert message in result.stderr


def test_a_torch_exported_in_the_shell_is_not_read():
    # Only make's command line chooses the build: TORCH may be another program's setting.
    assert make("-n", "clean", TORCH="1").returncode == 0
    commands = [
        line
        for line in make("-n", "-B", "lab", "SYSTEM=Linux", TORCH="cuda").stdout.splitlines()
        if " -m pip install" in line
    ]
    assert torch_command(commands).endswith(f" torch=={TORCH_PIN}+cpu")


def test_an_intel_mac_is_sent_to_conda():
    result = make("supported-machine", "SYSTEM=Darwin", "MACHINE=x86_64")
    assert result.returncode != 0
    assert "use conda" in result.stderr
    assert make("supported-machine", "SYSTEM=Darwin", "MACHINE=arm64").returncode == 0


# --- what a learner installs, what a maintainer installs ------------------------------------------


def test_make_lab_installs_the_learners_requirements_only():
    commands = install_commands("lab")
    assert any(line.endswith("-r requirements.txt") for line in commands)
    assert not any("requirements-dev.txt" in line for line in commands)


@pytest.mark.parametrize("target", ["test", "unit", "nbval", "lint", "outputs", "images"])
def test_the_maintainers_targets_install_the_tools_as_well(target):
    commands = install_commands(target)
    assert any(line.endswith("-r requirements.txt") for line in commands)
    assert any(line.endswith("-r requirements-dev.txt") for line in commands)


# --- which Python ---------------------------------------------------------------------------------


@pytest.fixture
def python_reporting(tmp_path):
    """A stand-in `python` that reports a given version, as the Makefile asks it to."""

    def python(version: str) -> str:
        path = tmp_path / f"python{version}"
        path.write_text(f"#!/bin/sh\necho {version}\n")
        path.chmod(0o755)
        return str(path)

    return python


@pytest.mark.parametrize("version", ["3.9", "3.15", "2.7"])
def test_a_python_outside_the_supported_range_is_refused_with_a_message(python_reporting, version):
    result = make("python-version", f"PYTHON={python_reporting(version)}")
    assert result.returncode != 0
    assert "needs Python 3.10 to 3.14" in result.stderr
    assert f"is Python {version}" in result.stderr


@pytest.mark.parametrize("version", ["3.10", "3.14"])
def test_a_supported_python_is_accepted(python_reporting, version):
    assert make("python-version", f"PYTHON={python_reporting(version)}").returncode == 0


@pytest.fixture
def checkout_with_environment(tmp_path, python_reporting):
    """A copy of what the Makefile reads, with a .venv whose python reports a given version."""

    def checkout(version: str) -> Path:
        folder = tmp_path / f"checkout-{version}"
        (folder / ".venv" / "bin").mkdir(parents=True)
        for name in ("Makefile", "requirements.txt", "requirements-dev.txt", "pyproject.toml"):
            (folder / name).write_text((ROOT / name).read_text())
        (folder / ".venv" / "bin" / "python").symlink_to(python_reporting(version))
        return folder

    return checkout


def test_an_environment_made_with_an_unsupported_python_is_refused(checkout_with_environment):
    result = make("same-python", cwd=checkout_with_environment("3.9"))
    assert result.returncode != 0
    assert "is Python 3.9" in result.stderr and "Delete .venv" in result.stderr


def test_a_python_asked_for_that_is_not_the_environments_is_refused(
    checkout_with_environment, python_reporting
):
    checkout = checkout_with_environment("3.11")
    result = make("same-python", f"PYTHON={python_reporting('3.12')}", cwd=checkout)
    assert result.returncode != 0
    assert ".venv was made with Python 3.11" in result.stderr and "delete .venv" in result.stderr
    assert make("same-python", f"PYTHON={python_reporting('3.11')}", cwd=checkout).returncode == 0
    assert make("same-python", cwd=checkout).returncode == 0


def test_make_lab_checks_the_environments_python_every_time():
    assert "same-python" in make("-n", "lab").stdout


def test_a_missing_python_is_named_in_the_message():
    result = make("python-version", "PYTHON=/nowhere/python3")
    assert result.returncode != 0
    assert "'/nowhere/python3' did not run" in result.stderr


# --- another torch: make compat -------------------------------------------------------------------


def compat_commands(version: str) -> list[str]:
    result = make("-n", "-B", "compat", f"TORCH_VERSION={version}")
    assert result.returncode == 0, result.stderr
    return result.stdout.splitlines()


def test_compat_installs_pypis_torch_of_that_version_in_an_environment_of_its_own():
    commands = compat_commands("2.14.1")
    pip = [line for line in commands if " -m pip install" in line]
    assert pip and all(line.startswith(".venv-torch-2.14.1/bin/python") for line in pip)
    assert not any(line.startswith(".venv/") for line in commands)
    assert any(line.endswith(" torch==2.14.1") and "-r " not in line for line in pip)
    assert "download.pytorch.org" not in "\n".join(commands)
    # The pinned requirements, without their torch pin, installed with the torch asked for.
    assert any("sed '/^torch==/d' requirements.txt" in line for line in commands)
    (requirements,) = [line for line in pip if "-r " in line]
    assert requirements.endswith("-r .venv-torch-2.14.1/requirements-dev.txt torch==2.14.1")


def test_compat_runs_the_unit_tests_but_the_browser_and_install_checks_then_strict_nbval():
    commands = compat_commands("2.8.0")
    (unit,) = [line for line in commands if "pytest" in line and " tests" in line]
    assert '-m "not browser"' in unit
    assert "--ignore=tests/test_install.py" in unit and "--ignore=tests/test_platforms.py" in unit
    (nbval,) = [line for line in commands if "--nbval " in line]
    assert nbval.startswith(".venv-torch-2.8.0/bin/python -m pytest")
    assert "--nbval-lax" not in "\n".join(commands)


def test_compat_without_a_version_says_which_to_give():
    result = make("compat")
    assert result.returncode != 0
    assert "make compat TORCH_VERSION=2.14.1" in result.stderr


def test_test_copies_of_the_repository_leave_out_the_compat_environments():
    from local_lab import NOT_COPIED

    left_out = NOT_COPIED(str(ROOT), [".venv", ".venv-torch-2.14.1", "helpers", "notebooks"])
    assert left_out == {".venv", ".venv-torch-2.14.1"}

"""The hosted CI workflow (.github/workflows/ci.yml) runs the same check as `make test`, and the
notebooks on Windows and macOS the way the README installs them there.

GitHub cannot be reached from here, so the workflow is checked where it can be: by actionlint,
which knows the workflow syntax and the inputs of the common actions, and by reading what it does.
"""

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from local_lab import ROOT, SCREENSHOTS, running_in_ci

WORKFLOW = ROOT / ".github" / "workflows" / "ci.yml"


def workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def triggers() -> dict:
    # YAML 1.1 reads the bare key `on` as True.
    loaded = workflow()
    return loaded.get("on", loaded.get(True))


def steps(job: str = "test") -> list[dict]:
    return workflow()["jobs"][job]["steps"]


def step_using(action: str, job: str = "test") -> dict:
    return next(s for s in steps(job) if s.get("uses", "").split("@")[0] == action)


def commands(job: str) -> str:
    return "\n".join(step["run"] for step in steps(job) if "run" in step)


def find_actionlint() -> str | None:
    """actionlint next to this Python (installed from the lock) or on PATH."""
    beside = Path(sys.executable).parent / "actionlint"
    return str(beside) if beside.is_file() else shutil.which("actionlint")


def test_workflow_passes_actionlint():
    actionlint = find_actionlint()
    if actionlint is None:
        reason = "actionlint is not installed, so the workflow's syntax cannot be checked"
        if running_in_ci():
            pytest.fail(f"CI is set, but {reason}.", pytrace=False)
        pytest.skip(reason)
    result = subprocess.run(
        [actionlint, "-no-color", os.path.relpath(WORKFLOW, ROOT)],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    assert result.returncode == 0, result.stdout + result.stderr


def test_workflow_runs_on_every_push_and_pull_request():
    assert set(triggers()) >= {"push", "pull_request"}
    assert triggers()["push"] is None and triggers()["pull_request"] is None, "no branch filter"


def test_workflow_uses_python_3_11_with_the_pip_cache_keyed_on_the_requirements():
    setup = step_using("actions/setup-python")["with"]
    assert str(setup["python-version"]) == "3.11"
    assert setup["cache"] == "pip"
    assert {"requirements.txt", "requirements-dev.txt"} <= set(
        setup["cache-dependency-path"].split()
    )


def test_workflow_runs_make_test_as_a_developer_does():
    assert [s["run"].strip() for s in steps() if "run" in s and "make" in s["run"]] == ["make test"]


def test_workflow_installs_the_debian_packages_binder_installs():
    # apt.txt is Binder's list (a font with Chinese characters, for the Chinese edition's plots
    # and screenshots); GitHub's runners lack it too.
    packages = (ROOT / "apt.txt").read_text(encoding="utf-8").split()
    installs = [line for line in commands("test").splitlines() if "apt-get install" in line]
    assert packages and all(any(package in line for line in installs) for package in packages)


def test_workflow_leaves_the_choice_of_torch_build_to_the_makefile():
    # The Makefile names PyTorch's CPU index for torch alone; an index set for the whole job
    # would be asked about every package.
    text = WORKFLOW.read_text(encoding="utf-8")
    assert "PIP_EXTRA_INDEX_URL" not in text and "PIP_INDEX_URL" not in text


def test_workflow_uploads_the_screenshots_when_the_check_fails():
    upload = step_using("actions/upload-artifact")
    assert upload["if"] == "failure()"
    assert Path(upload["with"]["path"].rstrip("/")) == SCREENSHOTS.relative_to(ROOT)


# --- the notebooks on Windows and macOS --------------------------------------------------------


def test_notebooks_job_runs_on_windows_and_macos():
    job = workflow()["jobs"]["notebooks"]
    assert set(job["strategy"]["matrix"]["os"]) == {"windows-latest", "macos-latest"}
    assert job["runs-on"] == "${{ matrix.os }}"
    assert job["strategy"]["fail-fast"] is False


def test_notebooks_job_runs_nbval_and_not_the_browser_test():
    run = commands("notebooks")
    assert "make nbval" in run
    assert "--nbval --nbval-current-env" in run
    assert "browser" not in run and "make test" not in run and "make unit" not in run


def test_windows_installs_with_the_readmes_commands_and_runs_the_makefiles_nbval():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    windows = [s for s in steps("notebooks") if s.get("if") == "runner.os == 'Windows'"]
    windows_commands = "\n".join(step["run"] for step in windows)
    assert "python -m pip install -r requirements.txt" in readme.replace("\\", "/")
    assert ".venv/Scripts/python -m pip install -r requirements.txt" in windows_commands
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    nbval = re.search(r"^nbval:.*\n\t\$\(BIN\)/python (.*?)\\\n\t\t(.*)$", makefile, re.M)
    assert nbval, "the Makefile's nbval target changed shape: update this test"
    for part in (nbval.group(1).strip(), nbval.group(2).strip()):
        assert part in " ".join(windows_commands.split()), part


def test_macos_uses_make_as_the_readme_says():
    mac = [s for s in steps("notebooks") if s.get("if") == "runner.os == 'macOS'"]
    assert [s["run"].split()[:2] for s in mac] == [["make", "nbval"]]


# --- other torch versions than the pin ---------------------------------------------------------


def test_torch_job_runs_make_compat_for_the_oldest_supported_torch_and_the_newest_release():
    from helpers.torch_version import OLDEST_TORCH

    job = workflow()["jobs"]["torch"]
    oldest = ".".join(map(str, OLDEST_TORCH)) + ".0"
    assert job["strategy"]["matrix"]["torch"] == [oldest, "newest"]
    assert job["strategy"]["fail-fast"] is False
    run = commands("torch")
    assert 'make compat TORCH_VERSION="$version"' in run
    assert "pip index versions torch" in run


def test_ci_script_runs_make_test_then_make_compat_with_a_newer_torch():
    lines = [
        line.strip()
        for line in (ROOT / ".ci" / "run").read_text(encoding="utf-8").splitlines()
        if line.strip().startswith("make ")
    ]
    assert lines[0] == "make test"
    assert re.fullmatch(r"make compat TORCH_VERSION=2\.(1[4-9]|[2-9]\d)\.\d+", lines[1])

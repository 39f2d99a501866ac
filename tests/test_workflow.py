"""The hosted CI workflow (.github/workflows/ci.yml) runs the same check as `make test`.

GitHub cannot be reached from here, so the workflow is checked where it can be: by actionlint,
which knows the workflow syntax and the inputs of the common actions, and by reading what it does.
"""

import os
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


def steps() -> list[dict]:
    (job,) = workflow()["jobs"].values()
    return job["steps"]


def step_using(action: str) -> dict:
    return next(s for s in steps() if s.get("uses", "").split("@")[0] == action)


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


def test_workflow_uses_python_3_11_with_the_pip_cache_keyed_on_the_lock():
    setup = step_using("actions/setup-python")["with"]
    assert str(setup["python-version"]) == "3.11"
    assert setup["cache"] == "pip"
    assert "requirements.lock" in setup["cache-dependency-path"]


def test_workflow_runs_make_test_as_a_developer_does():
    assert [s["run"].strip() for s in steps() if "run" in s and "make" in s["run"]] == ["make test"]


def test_workflow_takes_torch_from_the_cpu_index():
    (job,) = workflow()["jobs"].values()
    assert job["env"]["PIP_EXTRA_INDEX_URL"] == "https://download.pytorch.org/whl/cpu"


def test_workflow_uploads_the_screenshots_when_the_check_fails():
    upload = step_using("actions/upload-artifact")
    assert upload["if"] == "failure()"
    assert Path(upload["with"]["path"].rstrip("/")) == SCREENSHOTS.relative_to(ROOT)

"""The project's own JupyterLab, started for a test, and the Chromium that looks at it.

`running_lab` starts exactly what `make lab` starts (`python tools/lab.py --host ... --port ...`)
on a free port, in a Jupyter environment of its own so that the tester's settings, kernels and
workspaces neither leak in nor get changed; a test may give that environment a user
configuration of its own. `find_chromium` finds
the system's browser, since Playwright's own browser download is not used.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SCREENSHOTS = ROOT / "build" / "screenshots"  # one full-page picture per notebook, for people
CHROMIUM_VARIABLE = "CHROMIUM_PATH"
CHROMIUM_NAMES = ("chromium", "chromium-browser", "google-chrome")
# Headless, and quiet: on a closed network Chromium's own background connections (updates,
# sync, QUIC probes) only fail and slow it down. Root needs --no-sandbox.
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
# What a test copy of the repository leaves out: environments (.venv, and make compat's
# .venv-torch-VERSION, several GB each), history and build products.
NOT_COPIED = shutil.ignore_patterns(
    ".venv",
    ".venv-*",
    ".git",
    "build",
    "*.egg-info",
    "__pycache__",
    ".*_cache",
    ".ipynb_checkpoints",
)
START_TIMEOUT_SECONDS = 120
LAB_SCRIPT = ROOT / "tools" / "lab.py"


def running_in_ci() -> bool:
    """True when the CI variable is set, as hosted CI services and `.ci/run` set it."""
    return os.environ.get("CI", "").strip().lower() not in ("", "0", "false", "no")


def find_chromium() -> str | None:
    """The Chromium to drive: $CHROMIUM_PATH if set, else the first of CHROMIUM_NAMES on PATH."""
    named = os.environ.get(CHROMIUM_VARIABLE)
    if named:
        return named if Path(named).is_file() else None
    for name in CHROMIUM_NAMES:
        found = shutil.which(name)
        if found:
            return found
    return None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def copy_repository(target: Path) -> Path:
    """Copy the repository's files (not .venv, .git or build products) to ``target``."""
    shutil.copytree(ROOT, target, ignore=NOT_COPIED)
    return target


@dataclass
class RunningLab:
    """A JupyterLab server started by `running_lab`."""

    host: str
    port: int
    token: str
    root_dir: Path
    log_path: Path
    pid: int

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    def log(self) -> str:
        """Everything the server printed so far."""
        return self.log_path.read_text(encoding="utf-8", errors="replace")

    def get(self, path: str, token: str | None = "") -> tuple[int, bytes]:
        """GET ``path`` from the server: with its token (default), another token, or none (None)."""
        headers = {}
        token = self.token if token == "" else token
        if token is not None:
            headers["Authorization"] = f"token {token}"
        request = urllib.request.Request(self.base_url + path, headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                return response.status, response.read()
        except urllib.error.HTTPError as error:
            return error.code, error.read()

    def delete(self, path: str) -> int:
        request = urllib.request.Request(
            self.base_url + path, method="DELETE", headers={"Authorization": f"token {self.token}"}
        )
        with urllib.request.urlopen(request, timeout=30) as response:
            return response.status

    def session_for(self, notebook: str) -> dict | None:
        """The server's session for ``notebook`` (a path relative to the root), if any."""
        status, body = self.get("/api/sessions")
        assert status == 200, f"GET /api/sessions answered {status}"
        sessions = [s for s in json.loads(body) if s["path"] == notebook]
        return sessions[0] if sessions else None

    def wait_until_kernel_idle(self, notebook: str, timeout: float, settle: float = 1.0) -> None:
        """Wait until the notebook's kernel has been idle for ``settle`` seconds in a row."""
        deadline = time.monotonic() + timeout
        idle_since = None
        while time.monotonic() < deadline:
            session = self.session_for(notebook)
            state = session["kernel"]["execution_state"] if session else None
            if state == "idle":
                idle_since = idle_since or time.monotonic()
                if time.monotonic() - idle_since >= settle:
                    return
            else:
                idle_since = None
            time.sleep(0.2)
        raise TimeoutError(f"the kernel of {notebook} was not idle within {timeout:.0f} s")

    def shut_down_kernel(self, notebook: str) -> None:
        session = self.session_for(notebook)
        if session:
            self.delete(f"/api/sessions/{session['id']}")


def _isolated_jupyter_environment(home: Path, user_config: dict | None) -> dict[str, str]:
    """Environment variables that give Jupyter a configuration of its own under ``home``.

    ``user_config`` is written as the user's jupyter_server_config.json, as a learner's own
    settings would be.
    """
    directories = {
        "JUPYTER_CONFIG_DIR": home / "config",
        "JUPYTER_DATA_DIR": home / "data",
        "JUPYTER_RUNTIME_DIR": home / "runtime",
        "JUPYTERLAB_SETTINGS_DIR": home / "lab-settings",
        "JUPYTERLAB_WORKSPACES_DIR": home / "lab-workspaces",
        "IPYTHONDIR": home / "ipython",
    }
    for directory in directories.values():
        directory.mkdir(parents=True, exist_ok=True)
    # `make lab` opens the learner's browser; a test opens its own.
    config = {"ServerApp": {"open_browser": False}}
    for section, values in (user_config or {}).items():
        config.setdefault(section, {}).update(values)
    (directories["JUPYTER_CONFIG_DIR"] / "jupyter_server_config.json").write_text(
        json.dumps(config)
    )
    return {name: str(path) for name, path in directories.items()}


@contextmanager
def running_lab(
    root_dir: Path,
    home: Path,
    host: str = "127.0.0.1",
    user_config: dict | None = None,
    extra_environment: dict[str, str] | None = None,
) -> Iterator[RunningLab]:
    """Start `make lab`'s JupyterLab serving ``root_dir``; stop it (and its kernels) on exit.

    ``home`` receives the server's configuration, runtime files and log (``lab.log``).
    """
    port = free_port()
    home.mkdir(parents=True, exist_ok=True)
    log_path = home / "lab.log"
    environment = {
        **os.environ,
        **_isolated_jupyter_environment(home, user_config),
        **(extra_environment or {}),
    }
    command = [
        sys.executable,
        str(LAB_SCRIPT),
        *("--host", host, "--port", str(port), "--root-dir", str(root_dir)),
    ]
    with open(log_path, "wb") as log:
        server = subprocess.Popen(
            command, env=environment, stdout=log, stderr=subprocess.STDOUT, cwd=root_dir
        )
    try:
        token, port = _wait_for_address(server, log_path, host)
        yield RunningLab(host, port, token, root_dir, log_path, server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait()


def _wait_for_address(server: subprocess.Popen, log_path: Path, host: str) -> tuple[str, int]:
    """The token and port of the address JupyterLab prints once it is listening."""
    address = re.compile(rf"http://{re.escape(host)}:(\d+)/lab\?token=(\w+)")
    deadline = time.monotonic() + START_TIMEOUT_SECONDS
    while time.monotonic() < deadline:
        log = log_path.read_text(encoding="utf-8", errors="replace")
        found = address.search(log)
        if found:
            return found.group(2), int(found.group(1))
        if server.poll() is not None:
            raise RuntimeError(f"JupyterLab exited with code {server.returncode}:\n{log[-3000:]}")
        time.sleep(0.2)
    raise TimeoutError(f"JupyterLab printed no address within {START_TIMEOUT_SECONDS} s")

"""Start JupyterLab on the notebooks: on this machine only, and always behind a fresh token.

    python tools/lab.py                  # what `make lab` runs: http://127.0.0.1:8888, token on
    python tools/lab.py --host 0.0.0.0   # open to the network: only when you mean it

Whatever the user's own Jupyter configuration says (a snippet from the web that empties the
token, for one), this lab requires the token generated here: settings given on the command line
outrank configuration files, and the server is checked once it has read them and is not started
if another token (or none) is in force. The token is handed to JupyterLab inside this process,
so it never appears in the process list; JupyterLab prints the address to open with it.

The lab also switches off JupyterLab's news and update checks (their pop-up covers the notebook on
first start and asks about the internet), and lets its kernels import `helpers` from this
checkout, so it runs the notebooks even where the package was not installed (conda, Windows).
Runs on Linux, macOS and Windows.
"""

from __future__ import annotations

import argparse
import ipaddress
import json
import os
import secrets
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LOOPBACK = "127.0.0.1"
DEFAULT_PORT = 8888
# The plugin settings this lab starts from, unless the user chose otherwise in JupyterLab.
LAB_DEFAULTS = {
    "@jupyterlab/apputils-extension:notification": {
        "fetchNews": "false",
        "checkForUpdates": False,
    },
}


def running_as_root() -> bool:
    """True for the superuser on Linux and macOS; Windows has no os.geteuid and no root."""
    return hasattr(os, "geteuid") and os.geteuid() == 0


def is_loopback(host: str) -> bool:
    """True if ``host`` is an address (or the name) that only this machine can reach."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False  # a host name: it may resolve to any interface


def lab_arguments(host: str, port: int, root_dir: Path, token: str, as_root: bool) -> list[str]:
    """JupyterLab's command-line settings: they outrank every configuration file."""
    arguments = [
        f"--ServerApp.ip={host}",
        f"--ServerApp.port={port}",
        f"--ServerApp.root_dir={root_dir}",
        "--ServerApp.port_retries=50",
        # The default identity provider is the one that checks tokens; a configuration file
        # could name another that does not.
        "--ServerApp.identity_provider_class=jupyter_server.auth.identity.PasswordIdentityProvider",
        f"--IdentityProvider.token={token}",
    ]
    if as_root:
        arguments.append("--allow-root")  # JupyterLab refuses to run as root otherwise
    return arguments


def start_up_notes(host: str, port: int, as_root: bool) -> list[str]:
    """What the learner should know before opening the lab: who can reach it, and as whom."""
    if is_loopback(host):
        notes = [
            f"The lab listens on {host} (port {port} or the next free one): only this machine "
            "can reach it, and every request needs the token in the address printed below."
        ]
    else:
        notes = [
            f"WARNING: the lab listens on {host}, so every machine that can reach this one on "
            f"port {port} (or the next free one) can connect to it, and whoever has the token "
            "printed below can run any code as you. Use this only on a network you trust; "
            f"without LAB_HOST (or --host) it listens on {LOOPBACK} only."
        ]
    if as_root:
        notes.append(
            "WARNING: you are running the lab as root: its notebooks and its terminal have "
            "root's rights over this whole machine, for you and for anyone who gets the token. "
            "Run it as an ordinary user if you can."
        )
    return notes


def token_in_force(server, token: str) -> bool:
    """True if ``server`` (an initialized ServerApp) authenticates with exactly ``token``."""
    provider = getattr(server, "identity_provider", None)
    return bool(token) and getattr(provider, "token", None) == token


def _write_lab_defaults(config_dir: Path) -> None:
    """Store LAB_DEFAULTS where JupyterLab reads default settings: labconfig/ on its path."""
    labconfig = config_dir / "labconfig"
    labconfig.mkdir(parents=True, exist_ok=True)
    (labconfig / "default_setting_overrides.json").write_text(json.dumps(LAB_DEFAULTS, indent=2))


def _prepend_path(variable: str, entry: Path) -> None:
    current = os.environ.get(variable)
    os.environ[variable] = str(entry) if not current else f"{entry}{os.pathsep}{current}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default=LOOPBACK, help=f"the address to listen on ({LOOPBACK})")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument("--root-dir", type=Path, default=ROOT / "notebooks")
    args = parser.parse_args(argv)
    try:
        from jupyterlab.labapp import LabApp
    except ImportError:
        print(
            "JupyterLab is not installed in this Python. Install the collection's environment "
            "first (`make lab` does; by hand: `python -m pip install -r requirements.txt`).",
            file=sys.stderr,
        )
        return 1

    as_root = running_as_root()
    for note in start_up_notes(args.host, args.port, as_root):
        print(note, flush=True)
    token = secrets.token_hex(24)
    with tempfile.TemporaryDirectory(prefix="autograd-lab-") as config_dir:
        _write_lab_defaults(Path(config_dir))
        # Jupyter reads defaults from every folder on this path, after the user's own settings.
        _prepend_path("JUPYTER_CONFIG_PATH", Path(config_dir))
        # Kernels inherit the environment: `import helpers` finds this checkout.
        _prepend_path("PYTHONPATH", ROOT)
        arguments = lab_arguments(args.host, args.port, args.root_dir, token, as_root)
        server = LabApp.initialize_server(argv=arguments)
        if not token_in_force(server, token):
            print(
                "JupyterLab did not take this lab's token (your Jupyter configuration overrides "
                "how it authenticates), so it was not started. Look for `token` or "
                "`identity_provider_class` in the files `jupyter --paths` lists under config.",
                file=sys.stderr,
            )
            return 1
        # Jupyter prints the whole address (token included) only for a token it generated, and
        # masks one that came from settings; this one was generated here, for this start.
        server.identity_provider.token_generated = True
        server.start()
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Start JupyterLab on the notebooks: localhost only, token authentication on (`make lab`)."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def lab_command(host: str, port: int, root_dir: Path, running_as_root: bool) -> list[str]:
    """The JupyterLab command line; JupyterLab refuses to run as root unless told it may."""
    command = [
        sys.executable,
        "-m",
        "jupyterlab",
        f"--ServerApp.ip={host}",
        f"--ServerApp.port={port}",
        f"--ServerApp.root_dir={root_dir}",
        "--ServerApp.port_retries=50",
    ]
    if running_as_root:
        command.append("--allow-root")
    return command


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8888)
    parser.add_argument("--root-dir", type=Path, default=ROOT / "notebooks")
    args = parser.parse_args()
    command = lab_command(args.host, args.port, args.root_dir, os.geteuid() == 0)
    # JupyterLab prints the address with its token once it is listening; open that address.
    os.execv(command[0], command)


if __name__ == "__main__":
    main()

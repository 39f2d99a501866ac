"""`make lab` serves this machine only, and only to whoever holds the token it prints.

The lab under test runs with a user configuration that tries to switch authentication off (the
empty-token snippet found on the web), so every check below also shows that the user's own
settings cannot open it.
"""

import ipaddress
import json
import os
import re
import subprocess
import types
from pathlib import Path

import pytest
from local_lab import ROOT, copy_repository, running_lab

import tools.lab
from tools.lab import lab_arguments, running_as_root, start_up_notes, token_in_force

LISTENING = "0A"  # the TCP state "listen" in /proc/net/tcp
# What a learner may have in ~/.jupyter/jupyter_server_config.json: both spellings of "no token".
EMPTY_TOKEN_CONFIG = {"IdentityProvider": {"token": ""}, "ServerApp": {"token": ""}}
NEWS_SETTINGS = "/lab/api/settings/@jupyterlab/apputils-extension:notification"


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("lab-security")
    repository = copy_repository(work / "repository")
    home = work / "jupyter"
    with running_lab(repository / "notebooks", home, user_config=EMPTY_TOKEN_CONFIG) as running:
        yield running


def listening_addresses(port: int) -> list[ipaddress.IPv4Address | ipaddress.IPv6Address]:
    """The local addresses of the sockets listening on ``port``, read from the Linux kernel."""
    found = []
    for table, width in (("/proc/net/tcp", 8), ("/proc/net/tcp6", 32)):
        if not Path(table).exists():
            continue
        for line in Path(table).read_text().splitlines()[1:]:
            local, state = line.split()[1], line.split()[3]
            address, port_hex = local.split(":")
            if state == LISTENING and int(port_hex, 16) == port and len(address) == width:
                # The kernel prints each 32-bit word of the address in host (little-endian) order.
                words = [bytes.fromhex(address[i : i + 8])[::-1] for i in range(0, width, 8)]
                found.append(ipaddress.ip_address(b"".join(words)))
    return found


def make_lab_line(*arguments: str, environment: dict[str, str] | None = None) -> str:
    """The command `make lab` would run to start the lab (-n prints commands, runs none)."""
    result = subprocess.run(
        ["make", "-n", "lab", *arguments],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "MAKEFLAGS": "", **(environment or {})},  # not the calling make's
    )
    assert result.returncode == 0, result.stderr
    return next(line for line in result.stdout.splitlines() if "tools/lab.py" in line)


def process_file(pid: int, name: str) -> bytes:
    path = Path(f"/proc/{pid}/{name}")
    if not path.exists():
        pytest.skip("reading another process's command line needs Linux's /proc")
    return path.read_bytes()


# --- the address ---------------------------------------------------------------------------------


def test_make_lab_asks_for_localhost():
    assert "--host 127.0.0.1" in make_lab_line()


def test_an_exported_host_variable_does_not_open_the_lab_to_the_network():
    exported = {"HOST": "0.0.0.0", "LAB_HOST": "0.0.0.0"}
    assert "--host 127.0.0.1" in make_lab_line(environment=exported)


def test_another_address_is_taken_only_from_makes_command_line():
    assert "--host 0.0.0.0" in make_lab_line("LAB_HOST=0.0.0.0")


def test_server_listens_on_the_loopback_address_only(lab):
    if not Path("/proc/net/tcp").exists():
        pytest.skip("reading listening sockets needs Linux's /proc/net/tcp")
    addresses = listening_addresses(lab.port)
    assert addresses, f"nothing listens on port {lab.port}"
    assert all(address.is_loopback for address in addresses), addresses


def test_start_up_says_that_only_this_machine_can_reach_the_lab(lab):
    assert "only this machine can reach it" in lab.log()


def test_start_up_on_another_address_warns_who_can_reach_the_lab():
    (note,) = start_up_notes("0.0.0.0", 8888, as_root=False)
    assert note.startswith("WARNING")
    assert "every machine that can reach this one on port 8888" in note


@pytest.mark.parametrize("host", ["127.0.0.1", "127.0.0.2", "::1", "localhost"])
def test_loopback_addresses_get_no_warning(host):
    assert not any("WARNING" in note for note in start_up_notes(host, 8888, as_root=False))


# --- the token -----------------------------------------------------------------------------------


def test_api_request_without_the_token_is_refused(lab):
    status, _ = lab.get("/api/contents", token=None)
    assert status == 403


def test_api_request_with_a_wrong_token_is_refused(lab):
    status, _ = lab.get("/api/contents", token="0" * len(lab.token))
    assert status == 403


def test_api_request_with_the_token_is_served(lab):
    status, _ = lab.get("/api/contents")
    assert status == 200


def test_a_user_configuration_that_empties_the_token_does_not_switch_authentication_off(lab):
    config_file = lab.log_path.parent / "config" / "jupyter_server_config.json"
    config = json.loads(config_file.read_text())
    assert config["IdentityProvider"]["token"] == ""  # the lab really ran with that configuration
    assert "authentication is disabled" not in lab.log()
    assert lab.token


def test_token_is_printed_only_inside_the_address_to_open(lab):
    log = lab.log()
    address = f"http://127.0.0.1:{lab.port}/lab?token={lab.token}"
    assert address in log
    assert log.count(lab.token) == log.count(address)


def test_token_is_not_on_the_process_command_line(lab):
    # Any user of the machine can read a process's command line (`ps`).
    assert lab.token.encode() not in process_file(lab.pid, "cmdline")


def test_each_start_makes_a_new_long_random_token(lab, tmp_path):
    assert re.fullmatch(r"[0-9a-f]{32,}", lab.token)
    with running_lab(lab.root_dir, tmp_path / "jupyter") as second:
        assert second.token != lab.token


def test_the_token_is_set_on_the_command_line_which_outranks_configuration_files():
    arguments = lab_arguments("127.0.0.1", 8888, ROOT / "notebooks", "abc123", as_root=False)
    assert "--IdentityProvider.token=abc123" in arguments
    provider = "jupyter_server.auth.identity.PasswordIdentityProvider"
    assert f"--ServerApp.identity_provider_class={provider}" in arguments


def test_token_in_force_only_when_the_server_uses_exactly_this_token():
    def server(token):
        return types.SimpleNamespace(identity_provider=types.SimpleNamespace(token=token))

    assert token_in_force(server("abc123"), "abc123")
    assert not token_in_force(server(""), "abc123")
    assert not token_in_force(server("other"), "abc123")
    assert not token_in_force(server(""), "")


def test_lab_refuses_to_start_when_its_token_is_not_in_force(monkeypatch, capsys):
    from jupyterlab.labapp import LabApp

    started = []
    unlocked = types.SimpleNamespace(
        identity_provider=types.SimpleNamespace(token=""), start=lambda: started.append(True)
    )
    monkeypatch.setattr(LabApp, "initialize_server", classmethod(lambda cls, argv: unlocked))
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "")
    monkeypatch.setenv("PYTHONPATH", "")
    assert tools.lab.main(["--port", "8888"]) == 1
    assert started == []
    assert "was not started" in capsys.readouterr().err


def test_kernels_started_by_the_lab_import_helpers_from_this_checkout(monkeypatch):
    from jupyterlab.labapp import LabApp

    seen = {}

    def initialize_server(cls, argv):
        seen["PYTHONPATH"] = os.environ["PYTHONPATH"]  # what the lab's kernels inherit
        return types.SimpleNamespace(identity_provider=types.SimpleNamespace(token=""))

    monkeypatch.setattr(LabApp, "initialize_server", classmethod(initialize_server))
    monkeypatch.setenv("JUPYTER_CONFIG_PATH", "")
    monkeypatch.setenv("PYTHONPATH", "/elsewhere")
    tools.lab.main([])
    assert seen["PYTHONPATH"].split(os.pathsep) == [str(ROOT), "/elsewhere"]


# --- root, Windows, and what the lab looks like --------------------------------------------------


def test_running_as_root_warns_and_allows_root():
    notes = start_up_notes("127.0.0.1", 8888, as_root=True)
    assert any(note.startswith("WARNING: you are running the lab as root") for note in notes)
    as_root = lab_arguments("127.0.0.1", 8888, ROOT / "notebooks", "t", as_root=True)
    as_user = lab_arguments("127.0.0.1", 8888, ROOT / "notebooks", "t", as_root=False)
    assert "--allow-root" in as_root
    assert "--allow-root" not in as_user
    assert not any("root" in note for note in start_up_notes("127.0.0.1", 8888, as_root=False))


def test_the_lab_started_as_root_printed_the_warning(lab):
    if not running_as_root():
        pytest.skip("these tests do not run as root")
    assert "WARNING: you are running the lab as root" in lab.log()


def test_without_os_geteuid_as_on_windows_the_lab_is_not_root(monkeypatch):
    monkeypatch.delattr(os, "geteuid", raising=False)
    assert running_as_root() is False


@pytest.mark.parametrize("page", ["README.md", "docs/setup.md"])
def test_readme_and_setup_page_document_the_network_opt_in_and_the_root_warning(page):
    text = (ROOT / page).read_text(encoding="utf-8")
    assert "make lab LAB_HOST=0.0.0.0" in text
    assert re.search(r"as root.{0,200}warn|warn.{0,200}as root", text, re.S)


def test_setup_page_says_an_exported_host_and_an_empty_token_change_nothing():
    text = " ".join((ROOT / "docs" / "setup.md").read_text(encoding="utf-8").split())
    assert "an exported `HOST` changes nothing" in text
    assert "an empty token there is overruled" in text


def test_news_and_update_pop_ups_are_off_by_default(lab):
    status, body = lab.get(NEWS_SETTINGS)
    assert status == 200
    defaults = json.loads(body)["schema"]["properties"]
    assert defaults["fetchNews"]["default"] == "false"  # "none" asks in a pop-up
    assert defaults["checkForUpdates"]["default"] is False

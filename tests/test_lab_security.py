"""`make lab` serves this machine only, and only to whoever holds the token it prints."""

import ipaddress
import re
import subprocess
from pathlib import Path

import pytest
from local_lab import ROOT, copy_repository, running_lab

from tools.lab import lab_command

LISTENING = "0A"  # the TCP state "listen" in /proc/net/tcp


@pytest.fixture(scope="module")
def lab(tmp_path_factory):
    work = tmp_path_factory.mktemp("lab-security")
    repository = copy_repository(work / "repository")
    with running_lab(repository / "notebooks", work / "jupyter") as running:
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


def test_make_lab_asks_for_localhost():
    # -n prints the commands without running them.
    commands = subprocess.run(
        ["make", "-n", "lab"], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout
    lab_line = next(line for line in commands.splitlines() if "tools/lab.py" in line)
    assert "--host 127.0.0.1" in lab_line


def test_server_listens_on_the_loopback_address_only(lab):
    if not Path("/proc/net/tcp").exists():
        pytest.skip("reading listening sockets needs Linux's /proc/net/tcp")
    addresses = listening_addresses(lab.port)
    assert addresses, f"nothing listens on port {lab.port}"
    assert all(address.is_loopback for address in addresses), addresses


def test_api_request_without_the_token_is_refused(lab):
    status, _ = lab.get("/api/contents", token=None)
    assert status == 403


def test_api_request_with_a_wrong_token_is_refused(lab):
    status, _ = lab.get("/api/contents", token="0" * len(lab.token))
    assert status == 403


def test_api_request_with_the_token_is_served(lab):
    status, _ = lab.get("/api/contents")
    assert status == 200


def test_token_is_printed_only_inside_the_address_to_open(lab):
    log = lab.log()
    address = f"http://127.0.0.1:{lab.port}/lab?token={lab.token}"
    assert address in log
    assert log.count(lab.token) == log.count(address)


def test_each_start_makes_a_new_long_random_token(lab, tmp_path):
    assert re.fullmatch(r"[0-9a-f]{32,}", lab.token)
    with running_lab(lab.root_dir, tmp_path / "jupyter") as second:
        assert second.token != lab.token


def test_lab_is_told_to_allow_root_only_when_running_as_root():
    as_root = lab_command("127.0.0.1", 8888, ROOT / "notebooks", running_as_root=True)
    as_user = lab_command("127.0.0.1", 8888, ROOT / "notebooks", running_as_root=False)
    assert "--allow-root" in as_root
    assert "--allow-root" not in as_user

"""Every pinned package has a wheel for every supported Python on Linux, macOS and Windows.

For each Python in the Makefile's SUPPORTED_PYTHONS and each platform the README gives commands
for (Linux x86_64, macOS on Apple silicon, Windows x86_64), the version that requirements.txt or
requirements-dev.txt pins there (markers evaluated for that Python and platform) must have a
wheel pip would install: the question `pip download --only-binary=:all: --no-deps
--python-version X --platform Y` answers. It is answered here from the configured package
index's file list (one request per package, nothing downloaded), with the wheel-tag rules pip
uses (packaging.tags): pip itself downloads every wheel to answer, and torch's alone weigh
100-530 MB for each Python and platform. One test asks pip (`pip index versions`, which reads the
same list) about a few cases, so that the two readings are known to agree.

On Linux `make` takes torch's CPU build (2.13.0+cpu) from PyTorch's own index, which this
machine cannot reach; the same release is checked on the configured index (PyPI's CUDA build).
Without the index these tests are skipped, except under CI, where they fail.
"""

from __future__ import annotations

import html.parser
import json
import os
import re
import subprocess
import sys
import urllib.error
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from local_lab import running_in_ci
from packaging.requirements import Requirement
from packaging.specifiers import SpecifierSet
from packaging.tags import Tag, compatible_tags, cpython_tags, mac_platforms
from packaging.utils import canonicalize_name, parse_wheel_filename
from packaging.version import InvalidVersion, Version

ROOT = Path(__file__).resolve().parent.parent
REQUIREMENTS = [ROOT / "requirements.txt", ROOT / "requirements-dev.txt"]
SUPPORTED_PYTHONS = (
    re.search(r"^SUPPORTED_PYTHONS := (.+)$", (ROOT / "Makefile").read_text(), re.M)
    .group(1)
    .split()
)
PYPI = "https://pypi.org/simple"


@dataclass(frozen=True)
class Platform:
    """A machine a learner uses: the wheel platforms it takes and how markers see it."""

    name: str
    platforms: tuple[str, ...]  # every platform tag a wheel for it may carry
    markers: tuple[tuple[str, str], ...]


PLATFORMS = [
    # torch's Linux wheels need glibc 2.28 (manylinux_2_28): every distribution since 2019.
    Platform(
        "linux-x86_64",
        (
            *(f"manylinux_2_{minor}_x86_64" for minor in range(28, 4, -1)),
            *("manylinux2014_x86_64", "manylinux2010_x86_64", "manylinux1_x86_64"),
        ),
        (("sys_platform", "linux"), ("platform_system", "Linux"), ("os_name", "posix")),
    ),
    # torch's macOS wheels need macOS 14 on Apple silicon.
    Platform(
        "macos-arm64",
        tuple(mac_platforms((14, 0), "arm64")),
        (("sys_platform", "darwin"), ("platform_system", "Darwin"), ("os_name", "posix")),
    ),
    Platform(
        "windows-x86_64",
        ("win_amd64",),
        (("sys_platform", "win32"), ("platform_system", "Windows"), ("os_name", "nt")),
    ),
]
MACHINES = {"linux-x86_64": "x86_64", "macos-arm64": "arm64", "windows-x86_64": "AMD64"}


@dataclass(frozen=True)
class IndexFile:
    filename: str
    requires_python: str | None
    yanked: bool


def configured_index() -> str:
    """The index pip installs from here: $PIP_INDEX_URL, pip's configuration, else PyPI."""
    if os.environ.get("PIP_INDEX_URL"):
        return os.environ["PIP_INDEX_URL"].split()[0].rstrip("/")
    result = subprocess.run(
        [sys.executable, "-m", "pip", "config", "get", "global.index-url"],
        capture_output=True,
        text=True,
    )
    configured = result.stdout.strip() if result.returncode == 0 else ""
    return (configured or PYPI).rstrip("/")


class _Anchors(html.parser.HTMLParser):
    """The files of a PEP 503 (HTML) project page."""

    def __init__(self) -> None:
        super().__init__()
        self.files: list[IndexFile] = []
        self._attributes: dict[str, str | None] | None = None

    def handle_starttag(self, tag, attrs):
        if tag == "a":
            self._attributes = dict(attrs)

    def handle_data(self, data):
        if self._attributes is not None and data.strip():
            attributes = self._attributes
            self.files.append(
                IndexFile(
                    data.strip(),
                    attributes.get("data-requires-python"),
                    "data-yanked" in attributes,
                )
            )
            self._attributes = None


def project_files(index: str, name: str) -> list[IndexFile]:
    """Every file the index lists for project ``name`` (PEP 691 JSON, or PEP 503 HTML)."""
    request = urllib.request.Request(
        f"{index}/{canonicalize_name(name)}/",
        headers={"Accept": "application/vnd.pypi.simple.v1+json, text/html;q=0.1"},
    )
    with urllib.request.urlopen(request, timeout=60) as response:
        body = response.read().decode("utf-8")
        content_type = response.headers.get("Content-Type", "")
    if "json" in content_type:
        return [
            IndexFile(f["filename"], f.get("requires-python"), bool(f.get("yanked")))
            for f in json.loads(body)["files"]
        ]
    anchors = _Anchors()
    anchors.feed(body)
    return anchors.files


def supported_tags(python: str, platform: Platform) -> set[Tag]:
    """The wheel tags pip accepts for CPython ``python`` on ``platform``."""
    version = tuple(int(part) for part in python.split("."))
    interpreter = f"cp{version[0]}{version[1]}"
    return set(cpython_tags(version, platforms=platform.platforms)) | set(
        compatible_tags(version, interpreter, platform.platforms)
    )


def marker_environment(python: str, platform: Platform) -> dict[str, str]:
    return {
        "python_version": python,
        "python_full_version": f"{python}.0",
        "implementation_name": "cpython",
        "platform_python_implementation": "CPython",
        "platform_machine": MACHINES[platform.name],
        **dict(platform.markers),
    }


def pinned(python: str, platform: Platform) -> dict[str, str]:
    """Package name to pinned version, for ``python`` on ``platform``."""
    chosen = {}
    environment = marker_environment(python, platform)
    for path in REQUIREMENTS:
        for line in path.read_text().splitlines():
            line = line.split(" #")[0].strip()
            if not line or line.startswith(("#", "-")):
                continue
            requirement = Requirement(line)
            if requirement.marker is None or requirement.marker.evaluate(environment):
                (specifier,) = requirement.specifier
                chosen[requirement.name] = specifier.version
    return chosen


def has_wheel(files: list[IndexFile], version: str, python: str, platform: Platform) -> bool:
    """True if ``files`` hold a wheel of ``version`` that pip installs for ``python`` there."""
    tags = supported_tags(python, platform)
    for file in files:
        if not file.filename.endswith(".whl") or file.yanked:
            continue
        try:
            _, wheel_version, _, wheel_tags = parse_wheel_filename(file.filename)
        except (InvalidVersion, ValueError):
            continue
        if wheel_version != Version(version):
            continue
        if file.requires_python and Version(python) not in SpecifierSet(file.requires_python):
            continue
        if wheel_tags & tags:
            return True
    return False


@pytest.fixture(scope="module")
def index_files() -> dict[str, list[IndexFile]]:
    """Every pinned package's files on the configured index, each asked for once."""
    index = configured_index()
    names = {
        canonicalize_name(name)
        for platform in PLATFORMS
        for python in SUPPORTED_PYTHONS
        for name in pinned(python, platform)
    }
    try:
        return {name: project_files(index, name) for name in sorted(names)}
    except (urllib.error.URLError, TimeoutError) as error:
        reason = f"the package index {index} cannot be reached ({error})"
        if running_in_ci():
            pytest.fail(f"CI is set, so the platform check must run, but {reason}", pytrace=False)
        pytest.skip(reason)


@pytest.mark.parametrize("platform", PLATFORMS, ids=lambda p: p.name)
@pytest.mark.parametrize("python", SUPPORTED_PYTHONS)
def test_every_pinned_package_has_a_wheel_for_this_python_and_platform(
    index_files, python, platform
):
    missing = [
        f"{name}=={version}"
        for name, version in pinned(python, platform).items()
        if not has_wheel(index_files[canonicalize_name(name)], version, python, platform)
    ]
    assert not missing, f"no wheel for Python {python} on {platform.name}: {', '.join(missing)}"


def pip_lists_version(name: str, version: str, python: str, platform: Platform) -> bool:
    """True if `pip index versions` lists ``version`` of ``name`` for ``python``/``platform``."""
    # Every platform tag spelled out: pip takes `--platform manylinux_2_28_x86_64` to mean that
    # tag alone, while a real Linux machine with glibc 2.28 also takes older manylinux wheels.
    platforms = [f"--platform={tag}" for tag in platform.platforms]
    command = [
        *(sys.executable, "-m", "pip", "index", "versions", name),
        *("--python-version", python, *platforms, "--only-binary=:all:"),
    ]
    result = subprocess.run(command, capture_output=True, text=True)
    listed = re.search(r"^Available versions: (.*)$", result.stdout, re.M)
    return bool(listed) and version in listed.group(1).split(", ")


@pytest.mark.parametrize(
    ("name", "version", "python", "platform"),
    [
        ("matplotlib", "3.11.2", "3.10", PLATFORMS[0]),  # no wheel: 3.11 dropped Python 3.10
        ("matplotlib", "3.11.2", "3.11", PLATFORMS[0]),
        ("torch", "2.13.0", "3.14", PLATFORMS[2]),
        ("pygraphviz", "2.0.4", "3.12", PLATFORMS[1]),
    ],
    ids=["matplotlib-3.10-linux", "matplotlib-3.11-linux", "torch-3.14-windows", "pygraphviz-mac"],
)
def test_this_reading_of_the_index_agrees_with_pips(index_files, name, version, python, platform):
    ours = has_wheel(index_files[canonicalize_name(name)], version, python, platform)
    assert ours == pip_lists_version(name, version, python, platform)

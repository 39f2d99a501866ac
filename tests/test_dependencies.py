"""pyproject.toml, requirements.lock and environment.yml name the same packages, compatibly."""

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# conda-forge spells a few packages differently from PyPI.
CONDA_TO_PYPI = {
    "pytorch-cpu": "torch",
    "python-graphviz": "graphviz",
    "playwright-python": "playwright",
}
NOT_PACKAGES = {"python", "pip"}


def canonical(name):
    return re.sub(r"[-_.]+", "-", name).lower()


def split_requirement(text):
    match = re.match(r"\s*([A-Za-z0-9_.\-]+)\s*(.*)", text)
    return canonical(match.group(1)), match.group(2).strip()


def pyproject_requirements():
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    listed = project["dependencies"] + project["optional-dependencies"]["dev"]
    return dict(split_requirement(r) for r in listed)


def lock_pins():
    lines = (ROOT / "requirements.lock").read_text().splitlines()
    pins = {}
    for line in lines:
        line = line.split("#")[0].strip()
        if line:
            name, spec = split_requirement(line)
            assert spec.startswith("=="), f"{line!r} in requirements.lock is not pinned with =="
            pins[name] = spec[2:]
    return pins


def conda_requirements():
    requirements = {}
    text = (ROOT / "environment.yml").read_text()
    for line in text.split("dependencies:", 1)[1].splitlines():
        match = re.match(r"\s+- ([A-Za-z0-9_.\-]+)(.*)$", line)
        if match and not line.strip().startswith("- -"):
            name = CONDA_TO_PYPI.get(match.group(1), canonical(match.group(1)))
            if name not in NOT_PACKAGES:
                requirements[name] = match.group(2).strip()
    return requirements


def version_tuple(text):
    return tuple(int(part) for part in re.findall(r"\d+", text)[:3])


def test_lock_pins_exactly_the_packages_pyproject_names():
    assert set(lock_pins()) == set(pyproject_requirements())


def test_environment_yml_names_the_same_packages():
    assert set(conda_requirements()) == set(pyproject_requirements())


def test_lock_pins_torch_exactly_to_the_validated_cpu_release():
    assert lock_pins()["torch"] == "2.13.0"


def test_every_pin_satisfies_the_lower_bounds_in_pyproject_and_environment_yml():
    pins = lock_pins()
    for source in (pyproject_requirements(), conda_requirements()):
        for name, spec in source.items():
            bound = re.match(r">=\s*([\d.]+)", spec)
            assert bound, f"{name}: give a lower bound (>=), got {spec!r}"
            assert version_tuple(pins[name]) >= version_tuple(bound.group(1)), name


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

"""Packaging: one import namespace, every subpackage listed, data files and the entry point shipped."""

from __future__ import annotations

import re
from importlib import metadata, resources
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAPPING = {"conformance": "strictconformance", "strategies": "strictconformance.strategies",
           "cassettes": "strictconformance.cassettes"}


def _listed_packages() -> set[str]:
    text = (ROOT / "pyproject.toml").read_text()
    block = re.search(r"^packages = \[(.*?)\]", text, re.S | re.M)
    assert block, "pyproject.toml lists no packages"
    return set(re.findall(r'"([\w.]+)"', block.group(1)))


def test_every_python_folder_and_cassette_folder_is_listed_in_pyproject() -> None:
    found = set()
    for folder, package in MAPPING.items():
        for init in (ROOT / folder).rglob("__init__.py"):
            relative = init.parent.relative_to(ROOT / folder)
            found.add(".".join([package, *relative.parts]))
    for data in (ROOT / "cassettes").rglob("*"):  # folders holding cassette files, for setuptools
        if data.is_file() and data.parent != ROOT / "cassettes" and "__pycache__" not in data.parts:
            found.add(".".join(["strictconformance.cassettes", *data.parent.relative_to(ROOT / "cassettes").parts]))
    assert found == _listed_packages()


def test_the_plugin_entry_point_is_registered() -> None:
    entry_points = [ep for ep in metadata.entry_points(group="pytest11") if ep.name == "strictconformance"]
    assert [ep.value for ep in entry_points] == ["strictconformance.plugin"]


def test_data_files_are_reachable_as_package_resources() -> None:
    package = resources.files("strictconformance")
    assert package.joinpath("py.typed").is_file()
    assert package.joinpath("report.schema.json").is_file()
    assert any(path.name.endswith(".yaml") for path in _walk(resources.files("strictconformance.cassettes")))


def _walk(node):  # type: ignore[no-untyped-def]
    for child in node.iterdir():
        if child.is_dir():
            yield from _walk(child)
        else:
            yield child


def test_runtime_dependencies_are_the_fields_own() -> None:
    requirements = metadata.requires("strictconformance") or []
    runtime = {re.split(r"[<>=!~ ;\[]", requirement)[0].lower() for requirement in requirements if "extra ==" not in requirement}
    assert runtime == {"pytest", "hypothesis", "hypothesis-jsonschema", "jsonschema", "vcrpy", "pytest-xdist", "pydantic"}
    assert any(r.startswith("hypothesis") and "<6.170.10" in r for r in requirements)


#: The wheel's bound: what the suite needs at run time (code, spec, cases, cassettes, Node harnesses).
WHEEL_LIMIT_BYTES = 2_000_000
#: What stays in the repository: generated output and the triage files, which the suite never reads.
_NOT_SHIPPED = re.compile(r"(^|/)(triage/[^/]+\.json|FINDINGS\.md|matrix\.(html|json|md)|summary\.json)$")


def test_the_wheel_is_small_and_holds_no_triage_or_matrix(tmp_path: Path) -> None:
    import shutil
    import subprocess
    import sys
    import zipfile

    source = tmp_path / "src"  # a copy of what the build reads: it writes build/ and egg-info where it runs
    skip = shutil.ignore_patterns("node_modules", "__pycache__", "*.egg-info", ".hypothesis")
    for folder in ("conformance", "strategies", "cassettes"):
        shutil.copytree(ROOT / folder, source / folder, ignore=skip)
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, source / name)
    command = [sys.executable, "-m", "pip", "wheel", "--no-deps", "--quiet", "-w", str(tmp_path / "out"), str(source)]
    try:  # the installed setuptools when it is recent enough, else pip's isolated build environment
        import setuptools

        if int(setuptools.__version__.split(".")[0]) >= 77:
            command.insert(4, "--no-build-isolation")
    except ImportError:
        pass
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False)
    assert done.returncode == 0, f"building the wheel failed:\n{done.stdout[-2000:]}\n{done.stderr[-4000:]}"
    [wheel] = (tmp_path / "out").glob("strictconformance-*.whl")
    size = wheel.stat().st_size
    assert size < WHEEL_LIMIT_BYTES, f"the wheel is {size:,} bytes, over {WHEEL_LIMIT_BYTES:,}"
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
    shipped = [name for name in names if _NOT_SHIPPED.search(name)]
    assert shipped == [], f"the wheel ships what only the repository needs: {shipped}"
    for needed in ("strictconformance/spec/SPEC.md", "strictconformance/sdks/triage.schema.json",
                   "strictconformance/process/node/harness-kit.mjs", "strictconformance/cases/cases.json"):
        assert needed in names, needed

"""The dormant plugin weighs nothing: installed, the kit's pytest11 entry point is loaded by every
pytest run of every project, so until the suite is activated it imports nothing of the kit (no
Hypothesis, pydantic, jsonschema, dialects, tool layer) and adds only a fixture no other project
would name. Issue 13, item 1."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import strictconformance
from strictconformance.bench import startup

#: What the dormant plugin may import of the kit: itself, the version, the profiles' names.
_DORMANT = {"strictconformance", "strictconformance._version", "strictconformance.plugin", "strictconformance.profiles"}
_HEAVY = ("hypothesis", "pydantic", "jsonschema", "hypothesis_jsonschema", "vcr", "yaml")


def _modules_after(code: str) -> list[str]:
    done = subprocess.run([sys.executable, "-c", f"{code}\nimport json, sys\nprint(json.dumps(sorted(sys.modules)))"],
                          capture_output=True, text=True, check=True, timeout=120)
    return json.loads(done.stdout.splitlines()[-1])


def test_importing_the_entry_point_imports_nothing_heavy() -> None:
    modules = _modules_after("import strictconformance.plugin")
    kit = {name for name in modules if name.split(".")[0] == "strictconformance"}
    assert kit <= _DORMANT, sorted(kit - _DORMANT)
    assert not [name for name in modules if name.split(".")[0] in _HEAVY]


def test_the_public_names_import_on_first_use() -> None:
    assert _modules_after("import strictconformance\nassert 'Adapter' in dir(strictconformance)")
    modules = _modules_after("from strictconformance import Adapter, ToolSpec, tool, __version__")
    assert "strictconformance.adapter" in modules and "strictconformance.wire" in modules
    for name in strictconformance.__all__:
        assert getattr(strictconformance, name) is not None, name
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        _ = strictconformance.nonexistent


_CONFTEST = """
import json, sys
def pytest_sessionfinish(session):
    kit = sorted(name for name in sys.modules if name.split(".")[0] == "strictconformance")
    with open("modules.json", "w") as out:
        json.dump(kit, out)
"""


def test_a_dormant_run_of_another_project_imports_nothing_of_the_kit(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(_CONFTEST)
    pytester.makepyfile(test_other="def test_other():\n    assert True\n")
    result = pytester.runpytest_subprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    kit = set(json.loads((pytester.path / "modules.json").read_text()))
    assert kit <= _DORMANT, sorted(kit - _DORMANT)


def test_the_fixture_has_a_name_no_other_project_uses(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_other="def test_other():\n    assert True\n")
    listed = pytester.runpytest_subprocess("-p", "no:cacheprovider", "--fixtures").stdout.str()
    assert "strictconformance_harness [session scope]" in listed
    assert "\nsc [session scope]" not in listed and "\nsc\n" not in listed
    # A project's own `sc` fixture is its own: nothing of the kit shadows or collides with it.
    pytester.makepyfile(test_sc="import pytest\n@pytest.fixture\ndef sc():\n    return 7\ndef test_sc(sc):\n    assert sc == 7\n")
    pytester.runpytest_subprocess("-p", "no:cacheprovider").assert_outcomes(passed=2)


def test_the_startup_benchmark_prints_both_side_by_side(capsys: pytest.CaptureFixture[str]) -> None:
    startup.main(["--runs", "1"])  # the figures depend on the machine: the verdict is read, not asserted
    lines = capsys.readouterr().out.splitlines()
    assert lines[2].startswith("kit installed (dormant)") and "ms" in lines[2]
    assert lines[3].startswith("-p no:strictconformance") and "ms" in lines[3]
    assert lines[4].startswith("cost of the kit") and "budget" in lines[4]

"""The shipped instructor adapters (``strictconformance.sdks.instructor``).

instructor 1.17.0 cannot be installed beside the kit's other SDKs (it pins ``jiter<0.15``, openai
3.57.0 needs ``jiter>=0.16``): the matrix runs its columns in an environment of their own
(``SdkPath.environment``, tests/test_matrix_environments.py). These tests need instructor importable,
so they run in that environment (``mbuild/venvs/instructor-*/bin/python -m pytest
tests/test_sdk_adapters_instructor.py``) and are skipped, saying so, everywhere else.
"""

from __future__ import annotations

import importlib.metadata
import json
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from conftest import SuiteRun
from strictconformance.adapter import load_adapter, read_declarations
from strictconformance.sdks import SDK_PATHS, SdkPath

pytest.importorskip("instructor", reason="instructor runs in its own environment (see this module's docstring)")

MINE = [path for path in SDK_PATHS if path.key.startswith("instructor/")]


def _path(key: str) -> SdkPath:
    return next(path for path in MINE if path.key == key)


def _keys(run: SuiteRun, rule_id: str) -> set[str]:
    assert run.report is not None, run.output
    return {str(finding.get("key")) for check in run.report["rules"][rule_id]["checks"]
            for finding in check.get("findings") or ()}


@pytest.mark.parametrize("path", MINE, ids=[path.key for path in MINE])
def test_declarations_load_and_name_the_installed_version(path: SdkPath) -> None:
    assert path.adapter is not None
    declarations = read_declarations(load_adapter(path.adapter), path.adapter)
    assert importlib.metadata.version("instructor") in declarations.sdk
    assert "strictify" in declarations.capabilities


_NESTED: dict[str, Any] = {"type": "object", "properties": {"inner": {"type": "object", "properties": {"x": {"type": "integer"}},
                                                                     "required": ["x"]},
                                                           "note": {"anyOf": [{"type": "string"}, {"type": "null"}], "default": None}},
                           "required": ["inner"]}


def test_openrouter_closes_only_the_root() -> None:
    """What the request carries: the model's schema with additionalProperties: false at the root
    only, the optional field left out of required, its default kept (triage/instructor.json)."""
    adapter = load_adapter(_path("instructor/openrouter-json-schema").adapter or "")
    sent = adapter.strictify(_NESTED, "openai")
    assert sent["additionalProperties"] is False
    assert "additionalProperties" not in sent["properties"]["inner"]
    assert sent["required"] == ["inner"] and sent["properties"]["note"]["default"] is None


def test_responses_tools_sends_openai_s_strict_schema() -> None:
    """RESPONSES_TOOLS sends openai-python's to_strict_json_schema of the model: every object closed,
    every property required."""
    adapter = load_adapter(_path("instructor/responses-tools").adapter or "")
    sent = adapter.strictify(_NESTED, "openai")
    assert sent["additionalProperties"] is False and sent["properties"]["inner"]["additionalProperties"] is False
    assert sorted(sent["required"]) == ["inner", "note"]


def test_openrouter_defects_are_found(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(_path("instructor/openrouter-json-schema").adapter, "--sc-rule", "SM-03,SM-29", "-k", "fixed_cases or traps")
    assert {"SM-03", "SM-29"} <= run.rules_with("failed"), run.output


@pytest.mark.parametrize("key", [path.key for path in MINE])
def test_reproducer_runs_alone(key: str) -> None:
    adapter = load_adapter(_path(key).adapter or "")
    source = adapter.reproduce("strictify", (_NESTED, "openai"))
    assert source is not None and "strictconformance" not in source
    shown = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=300, check=True)
    sent = json.loads(shown.stdout)  # response_format (chat) or text.format (Responses)
    schema = sent["json_schema"]["schema"] if "json_schema" in sent else sent["schema"]
    assert schema["additionalProperties"] is False

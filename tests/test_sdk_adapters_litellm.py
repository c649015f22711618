"""The shipped litellm adapters (``strictconformance.sdks.litellm``): each loads with valid
declarations naming the installed litellm, a small selection of the suite finds the defects checked
by hand (``conformance/sdks/triage/litellm.json``), and ``reproduce`` gives snippets that run alone.
Skipped with the reason when litellm is not installed.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import os
import subprocess
import sys
from collections.abc import Callable
from typing import Any

import pytest

from conftest import SuiteRun, import_before_first_test
from strictconformance.adapter import load_adapter, read_declarations
from strictconformance.sdks import SDK_PATHS, SdkPath

os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")  # no network at import
# Imported outside the suite's in-process runs (see tests/test_real_sdks.py for why).
_sdk_modules_imported_outside_the_inner_runs = import_before_first_test(
    "yaml", "pydantic.main", "litellm", "strictconformance.sdks.litellm")

MINE = [path for path in SDK_PATHS if path.key.startswith("litellm/")]


def _path(key: str) -> SdkPath:
    pytest.importorskip("litellm")
    return next(path for path in MINE if path.key == key)


def _failed(run: SuiteRun) -> set[str]:
    return run.rules_with("failed") | run.rules_with("error")


def _keys(run: SuiteRun, rule_id: str) -> set[str]:
    assert run.report is not None, run.output
    return {str(finding.get("key")) for check in run.report["rules"][rule_id]["checks"]
            for finding in check.get("findings") or ()}


@pytest.mark.parametrize("path", MINE, ids=[path.key for path in MINE])
def test_declarations_load_and_name_the_installed_version(path: SdkPath) -> None:
    pytest.importorskip("litellm")
    assert path.adapter is not None
    declarations = read_declarations(load_adapter(path.adapter), path.adapter)
    assert importlib.metadata.version("litellm") in declarations.sdk
    assert declarations.capabilities == ("strictify",) or "strictify" in declarations.capabilities


def test_gemini_paths_crash_on_a_boolean_or_list_items(run_suite: Callable[..., SuiteRun]) -> None:
    """build_vertex_schema's convert_anyof_null_to_nullable calls .get on ``items: false`` and on a
    draft-7 tuple's ``items: [...]`` (AttributeError), on both Gemini paths."""
    for key in ("litellm/gemini-tools", "litellm/gemini-response-schema"):
        path = _path(key)
        run = run_suite(path.adapter, "--sc-rule", "RT-1", "-k", "rt_1_traps")
        assert "RT-1" in _failed(run), run.output
        assert any(key.startswith("RT-1 crash: AttributeError from strictify()") for key in _keys(run, "RT-1")), run.output


def test_anthropic_output_format_closes_records_and_tuples(run_suite: Callable[..., SuiteRun]) -> None:
    """filter_anthropic_output_schema closes every object, records included, and turns a tuple into
    an array of no items: valid values are rejected (RT-4, identity codec)."""
    path = _path("litellm/anthropic-output-format")
    run = run_suite(path.adapter, "--sc-rule", "RT-4", "-k", "rt_4_traps")
    assert _failed(run) == {"RT-4"}, run.output
    assert run.report is not None and run.report["adapter"]["identity_codec"] is True
    keys = _keys(run, "RT-4")
    assert any("breaks `additionalProperties` (trap records" in key or "(trap allof-of-closed-objects" in key
               for key in keys), keys
    assert any("breaks `items` (trap tuples" in key for key in keys), keys


def test_anthropic_open_object_fallback_is_a_declared_refusal() -> None:
    """An open object sends the response format as a non-strict forced tool: the adapter's declared
    refusal, never a strict schema judged."""
    path = _path("litellm/anthropic-output-format")
    assert path.adapter is not None
    adapter = load_adapter(path.adapter)
    refusals = read_declarations(adapter, path.adapter).strictify_refusals
    with pytest.raises(refusals, match="non-strict forced tool"):
        adapter.strictify({"type": "object", "properties": {"d": {"type": "object", "additionalProperties": {"type": "integer"}}},
                           "required": ["d"]}, "anthropic")
    closed = adapter.strictify({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                                "additionalProperties": False}, "anthropic")
    assert closed["properties"] == {"a": {"type": "string"}}


@pytest.mark.parametrize("key", ["litellm/gemini-tools", "litellm/gemini-response-schema", "litellm/anthropic-output-format"])
def test_reproducer_runs_alone(key: str) -> None:
    path = _path(key)
    assert path.adapter is not None
    adapter = load_adapter(path.adapter)
    schema: dict[str, Any] = {"type": "object", "properties": {"a": {"type": "string", "description": "an a"}},
                              "required": ["a"], "additionalProperties": False}
    source = adapter.reproduce("strictify", (schema, adapter.strictify_dialects[0]))
    assert source is not None and "strictconformance" not in source
    shown = subprocess.run([sys.executable, "-c", source], capture_output=True, text=True, timeout=300, check=True)
    sent = json.loads(shown.stdout)
    if key == "litellm/anthropic-output-format":
        sent = sent["schema"]
    assert sent["properties"]["a"]["description"] == "an a"

"""The shipped adapters for dspy and llama-index-core (``strictconformance.sdks.dspy``,
``strictconformance.sdks.llama_index_core``).

Each adapter loads with valid declarations and names its SDK's installed version; the dspy
JSONAdapter column's strictify is what dspy itself sends for a signature; a small selection of the
suite runs on each path (``selftest`` profile) and finds the defects confirmed by hand
(``conformance/sdks/triage/dspy.json``, ``llama-index-core.json``). Tests of an SDK that is not
installed are skipped with the reason.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
from collections.abc import Callable

import pydantic
import pytest

from conftest import SuiteRun, import_before_first_test
from strictconformance.adapter import load_adapter, read_declarations
from strictconformance.sdks import SDK_PATHS, SdkPath, missing_distributions

# Imported outside the suite's in-process runs (see tests/test_real_sdks.py: some modules do not
# survive a second import in one process).
_sdk_modules_imported_outside_the_inner_runs = import_before_first_test(
    "yaml", "pydantic.main", "dspy", "llama_index.core", "strictconformance.sdks.dspy",
    "strictconformance.sdks.llama_index_core")

#: The SDK paths of this file, by the distribution that names them.
MINE = {"dspy": "dspy", "llama-index-core": "llama-index-core"}


def _paths(sdk: str) -> list[SdkPath]:
    return [path for path in SDK_PATHS if path.key.split("/")[0] == sdk]


def _path(key: str) -> SdkPath:
    path = next(path for path in SDK_PATHS if path.key == key)
    missing = missing_distributions(path)
    if missing:
        pytest.skip(f"{path.key}: not installed: {', '.join(missing)}")
    return path


def _failed(run: SuiteRun) -> set[str]:
    return run.rules_with("failed") | run.rules_with("error")


def _keys(run: SuiteRun, rule_id: str) -> set[str]:
    assert run.report is not None, run.output
    return {str(finding["key"]) for check in run.report["rules"][rule_id]["checks"] for finding in check.get("findings") or ()}


def _messages(run: SuiteRun, rule_id: str) -> str:
    assert run.report is not None, run.output
    return "\n".join(str(finding.get("message") or "") for check in run.report["rules"][rule_id]["checks"]
                     if check["outcome"] in ("failed", "error") for finding in check.get("findings") or ())


@pytest.mark.parametrize("path", [path for sdk in MINE for path in _paths(sdk)], ids=lambda path: path.key)
def test_adapter_loads_with_valid_declarations(path: SdkPath) -> None:
    path = _path(path.key)
    assert path.adapter is not None
    declarations = read_declarations(load_adapter(path.adapter))
    assert declarations.sdk.endswith(importlib.metadata.version(MINE[path.key.split("/")[0]])), declarations.sdk
    assert declarations.capabilities, f"{path.key} implements no capability"


def test_every_sdk_of_this_file_has_paths() -> None:
    keys = {path.key for path in SDK_PATHS}
    assert {"dspy/lm-response-format", "dspy/json-adapter", "llama-index-core/function-tool"} <= keys


# -- dspy ------------------------------------------------------------------------------------------


class Leaf(pydantic.BaseModel):
    label: str = "x"


class Inner(pydantic.BaseModel):
    """An output field's model: a record, a defaulted list, an optional list of submodels."""

    scores: dict[str, int]
    tags: list[str] = []
    leaves: list[Leaf] | None = None


def test_dspy_json_adapter_strictify_is_what_dspy_sends_for_a_signature() -> None:
    """The adapter runs dspy's nested ``enforce_required`` (rebuilt from its code object) and then
    ``_strict_json_schema`` on the output model's schema: for a real signature that is exactly the
    schema dspy's JSONAdapter response format gives ``dspy.LM`` to send."""
    _path("dspy/json-adapter")
    import dspy
    from dspy.adapters.json_adapter import _get_structured_outputs_response_format
    from dspy.clients.legacy_requests import _strict_json_schema

    from strictconformance.sdks.dspy import DspyJSONAdapter

    class Judge(dspy.Signature):
        essay: str = dspy.InputField()
        verdict: Inner = dspy.OutputField(desc="the verdict")
        confidence: float | None = dspy.OutputField()

    sent = _strict_json_schema(_get_structured_outputs_response_format(Judge).model_json_schema())
    fields = {name: (field.annotation, field.default) for name, field in Judge.output_fields.items()}
    model = pydantic.create_model("DSPyProgramOutputs", __config__=pydantic.ConfigDict(extra="forbid"), **fields)  # type: ignore[call-overload]
    original = model.model_json_schema()
    assert DspyJSONAdapter().strictify(original, "openai") == sent
    assert model.model_json_schema() == original, "strictify changed its argument"


def test_dspy_json_adapter_closes_records_empty(run_suite: Callable[..., SuiteRun]) -> None:
    """enforce_required gives an object without ``properties`` (a ``dict[str, T]`` field) an empty
    ``properties`` and ``additionalProperties: false``: every non-empty value is rejected (RT-4)."""
    path = _path("dspy/json-adapter")
    run = run_suite(path.adapter, "--sc-rule", "RT-4", "-k", "rt_4_case and trap-records")
    assert _failed(run) == {"RT-4"}, run.output
    assert "Additional properties are not allowed" in _messages(run, "RT-4")
    assert any(key.startswith("RT-4 violation: encoded value breaks `additionalProperties`") for key in _keys(run, "RT-4")), run.output


# -- llama-index-core ------------------------------------------------------------------------------


def test_llama_index_tool_calls_validate_nothing_and_hide_the_exception_type(run_suite: Callable[..., SuiteRun]) -> None:
    """call_tool_with_selection hands invalid input to the function, a generator function is never
    run (its repr is the result), an empty list becomes an empty text, an error result drops the
    exception type, and a direct call validates nothing (triage/llama-index-core.json)."""
    path = _path("llama-index-core/function-tool")
    run = run_suite(path.adapter, "--sc-rule", "TL-2,TL-3,TL-4,TL-6", "-k",
    "known_inputs or each_callback_kind or known_streams or direct_call_validates")
    assert _failed(run) == {"TL-2", "TL-3", "TL-4", "TL-6"}, run.output
    assert "reached the callback" in _messages(run, "TL-2")
    assert {"TL-3 violation: the error result does not carry the exception type",
            "TL-3 violation: a raising callback gave a success result"} <= _keys(run, "TL-3")
    assert "<generator object" in json.dumps(run.report), run.output


def test_llama_index_advertised_schema_and_description(run_suite: Callable[..., SuiteRun]) -> None:
    """get_parameters_dict drops a model's root additionalProperties: false, type-less Google-style
    Args: entries are not read as parameter descriptions, and the description holds the Args: section."""
    path = _path("llama-index-core/function-tool")
    run = run_suite(path.adapter, "--sc-rule", "TL-1,TL-8", "-k", "known_shapes or known_docstrings")
    assert _failed(run) == {"TL-1", "TL-8"}, run.output
    assert "/additionalProperties" in _messages(run, "TL-1")
    assert "TL-8 violation: the description holds the docstring's Args: section" in _keys(run, "TL-8")


def test_dspy_lm_response_format_keeps_open_objects_and_non_object_roots(run_suite: Callable[..., SuiteRun]) -> None:
    """_strict_json_schema leaves objects open where its walk does not go (an items list, oneOf,
    not...) and sends a non-object root (a RootModel) as it is."""
    path = _path("dspy/lm-response-format")
    run = run_suite(path.adapter, "--sc-rule", "RT-1", "-k", "traps_and_known_bad")
    assert _failed(run) == {"RT-1"}, run.output
    keys = _keys(run, "RT-1")
    assert any(key.startswith("RT-1 violation: SM-03 at ") for key in keys), sorted(keys)
    assert any(key.startswith("RT-1 violation: SM-01 at ") for key in keys), sorted(keys)

"""The shipped adapters for pydantic-ai, langchain-core, google-genai and mistralai (``strictconformance.sdks``).

Each adapter loads with valid declarations and names its SDK's installed version; a small selection
of the suite runs on each (``selftest`` profile) and the findings confirmed by hand are asserted;
``reproduce`` gives snippets that run on their own; every reproducer in the triage files of these
SDKs (``conformance/sdks/triage/<sdk>.json``) runs in a fresh interpreter and shows its bug
(prints ``BUG:``). Tests of an SDK that is not installed are skipped with the reason.
"""

from __future__ import annotations

import importlib
import importlib.metadata
import json
import re
import subprocess
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

from conftest import SuiteRun, import_before_first_test
from forkrun import ForkRunner
from strictconformance.adapter import load_adapter, read_declarations
from strictconformance.drift.body import json_body
from strictconformance.sdks import SDK_PATHS, SdkPath, missing_distributions

# Imported outside the suite's in-process runs (see tests/test_real_sdks.py: some modules do not
# survive a second import in one process).
_sdk_modules_imported_outside_the_inner_runs = import_before_first_test(
    "yaml", "pydantic.main", "strictconformance.drift.cassettes", "pydantic_ai", "langchain_core",
    "google.genai", "strictconformance.sdks.pydantic_ai", "strictconformance.sdks.langchain_core",
    "strictconformance.sdks.google_genai", "mistralai", "strictconformance.sdks.mistral")

TRIAGE = Path(__file__).resolve().parent.parent / "conformance" / "sdks" / "triage"
#: The SDK paths of this file, by the distribution that names them.
MINE = {"pydantic-ai": "pydantic-ai-slim", "langchain-core": "langchain-core", "google-genai": "google-genai",
        "mistralai": "mistralai"}


def _paths(sdk: str) -> list[SdkPath]:
    return [path for path in SDK_PATHS if path.key.split("/")[0] == sdk]


def _need(path: SdkPath) -> None:
    missing = missing_distributions(path)
    if missing:
        pytest.skip(f"{path.key}: not installed: {', '.join(missing)}")


def _failed(run: SuiteRun) -> set[str]:
    return run.rules_with("failed") | run.rules_with("error")


def _messages(run: SuiteRun, rule_id: str) -> str:
    assert run.report is not None, run.output
    checks: list[dict[str, Any]] = run.report["rules"][rule_id]["checks"]
    # report schema v2: each check lists its findings (the v1 single ``failure`` is gone)
    return "\n".join(str(finding.get("message") or "") for check in checks if check["outcome"] in ("failed", "error")
                     for finding in check.get("findings") or ())


# -- Declarations ----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", [path for sdk in MINE for path in _paths(sdk)], ids=lambda path: path.key)
def test_adapter_loads_with_valid_declarations(path: SdkPath) -> None:
    _need(path)
    assert path.adapter is not None
    declarations = read_declarations(load_adapter(path.adapter))
    distribution = MINE[path.key.split("/")[0]]
    assert declarations.sdk.endswith(importlib.metadata.version(distribution)), declarations.sdk
    assert declarations.capabilities, f"{path.key} implements no capability"


def test_every_sdk_of_this_file_has_paths() -> None:
    keys = {path.key for path in SDK_PATHS}
    assert {"pydantic-ai/openai-transformer", "pydantic-ai/anthropic-transformer", "pydantic-ai/google-transformer",
            "pydantic-ai/tools", "pydantic-ai/responses", "langchain-core/convert_to_openai_tool", "langchain-core/tools",
            "google-genai/schema", "google-genai/schema-from-json-schema", "google-genai/response-schema", "google-genai/responses",
            "google-genai/function-declarations", "mistralai/response-format"} <= keys


# -- The suite on each path: the findings confirmed by hand --------------------------------------------


def test_mistralai_response_format_defects(run_suite: Callable[..., SuiteRun]) -> None:
    """mistralai closes every object (records and allOf branches included) and keeps a non-object
    root: one defect per cause, the root rule reported as resting on an indirect source."""
    path = _path("mistralai/response-format")
    run = run_suite(path.adapter, "--sc-rule", "SM-01,RT-2,RT-4,RT-8", "-k",
    "sm_01 or rt_2_traps or (rt_4_case and trap-records) or rt_8_traps")
    assert run.report is not None, run.output
    assert _failed(run) == {"SM-01", "RT-4", "RT-8"}, run.output  # RT-2: called on a fresh copy, as the SDK does
    by_rule = {tuple(defect["rules"]): defect for defect in run.report["defects"]}
    assert set(by_rule) == {("SM-01",), ("RT-4",), ("RT-8",)}, list(by_rule)
    assert by_rule[("SM-01",)]["basis"] == "indirect"
    assert by_rule[("RT-4",)]["title"] == "a valid value encoded breaks `additionalProperties` (RT-4)"


def _path(key: str) -> SdkPath:
    path = next(path for path in SDK_PATHS if path.key == key)
    _need(path)
    return path


def test_langchain_convert_to_openai_tool(run_suite: Callable[..., SuiteRun]) -> None:
    """strict=True only closes objects and requires every property: oneOf, default... are kept."""
    path = _path("langchain-core/convert_to_openai_tool")
    run = run_suite(path.adapter, "--sc-rule", "SM-27,SM-33,SM-03", "-k", "openai")
    assert _failed(run) == {"SM-27", "SM-33", "SM-03"}, run.output
    assert "BannedOneOf" in _messages(run, "SM-27")


#: SM-03 on the case library's traps: one finding per keyword langchain's walk skips (and the free-form object)
LANGCHAIN_OPEN_OBJECTS = {
    "SM-03 violation: object inside prefixItems (trap tuple-of-objects)",
    "SM-03 violation: object inside oneOf (trap object-under-oneof)",
    "SM-03 violation: object inside not (trap object-under-not)",
    "SM-03 violation: object inside patternProperties (trap object-under-pattern-properties)",
    "SM-03 violation: empty object inside properties (trap free-form-object)",
    "SM-03 violation: object inside items (trap draft7-tuple-of-objects)",
}


def test_langchain_leaves_objects_open_where_its_walk_does_not_go(run_suite: Callable[..., SuiteRun]) -> None:
    """Each shape is pinned by a fixed case (whatever the generated schemas reach), reported as its
    own SM-03 finding and triaged as confirmed; the reference passes the same traps (test_strictify)."""
    path = _path("langchain-core/convert_to_openai_tool")
    run = run_suite(path.adapter, "--sc-rule", "SM-03", "-k", "fixed_cases")
    assert run.report is not None, run.output
    keys = {str(finding["key"]) for check in run.report["rules"]["SM-03"]["checks"] for finding in check.get("findings") or ()}
    assert keys >= LANGCHAIN_OPEN_OBJECTS, (sorted(keys), run.output)
    triaged = {entry["key"] for entry in json.loads((TRIAGE / "langchain-core.json").read_text(encoding="utf-8"))
               if entry["sdk_path"] == path.key and entry["rule"] == "SM-03" and entry["verdict"] == "confirmed"}
    assert keys <= triaged, sorted(keys - triaged)


def test_langchain_tools(run_suite: Callable[..., SuiteRun]) -> None:
    """A dict args_schema is not validated, exceptions escape tool.invoke, strict is stored unchecked."""
    path = _path("langchain-core/tools")
    run = run_suite(path.adapter, "--sc-rule", "TL-2,TL-3,TL-7", "-k", "input_is_validated or exceptions_become or kept_or_rejected")
    assert _failed(run) == {"TL-2", "TL-3", "TL-7"}, run.output
    assert "reached the callback" in _messages(run, "TL-2")
    assert "escaped the tool-use path" in _messages(run, "TL-3")


def test_google_genai_schema(run_suite: Callable[..., SuiteRun]) -> None:
    """FunctionDeclaration(parameters=...) keeps an array root (SM-01)."""
    path = _path("google-genai/schema")
    run = run_suite(path.adapter, "--sc-rule", "SM-01", "-k", "fixed_cases")
    assert _failed(run) == {"SM-01"}, run.output


@pytest.mark.parametrize("key", ["google-genai/schema", "google-genai/schema-from-json-schema"])
def test_google_genai_schema_refusals_are_declared(key: str, run_suite: Callable[..., SuiteRun]) -> None:
    """A schema outside the Schema subset (here `const`, `not`, `prefixItems`...) is refused by
    google-genai's pydantic models (extra="forbid"), a ValidationError naming the field: a declared
    refusal, counted, not an RT-1 crash (a kit false alarm on the matrix)."""
    path = _path(key)
    run = run_suite(path.adapter, "--sc-rule", "RT-1", "-k", "rt_1_case and known-bad-sm-44")
    assert run.report is not None, run.output
    summary = run.report["strictify"]["google-schema"]
    assert summary["refused_by"] == {"ValidationError": 1} and summary["crashed"] == 0, summary
    assert _failed(run) == set(), run.output


def test_google_genai_from_json_schema_conversion_error_is_a_crash(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only building the converter's input refuses: a ValidationError of the conversion itself, on a
    schema types.JSONSchema accepted, stays a crash (ConversionError is no declared refusal)."""
    pytest.importorskip("google.genai", reason="google-genai is not installed")
    import pydantic
    from google.genai import types

    from strictconformance.sdks.google_genai import ConversionError, GoogleGenaiSchemaFromJsonSchema

    adapter = GoogleGenaiSchemaFromJsonSchema()
    with pytest.raises(pydantic.ValidationError, match="const"):
        adapter.strictify({"type": "object", "properties": {"a": {"const": 1}}}, "google-schema")

    def failing(**_kwargs: Any) -> Any:
        # a ValidationError inside the converter, under pydantic 2.13 and 2.14 alike (a type list
        # escapes as AttributeError under 2.14: google-genai's enum _missing_ calls .upper())
        return types.Schema.model_validate({"minItems": "many"})

    monkeypatch.setattr(types.Schema, "from_json_schema", failing)
    with pytest.raises(ConversionError) as raised:
        adapter.strictify({"type": "object"}, "google-schema")
    assert not isinstance(raised.value, adapter.strictify_refusals)


def test_google_genai_response_schema(run_suite: Callable[..., SuiteRun]) -> None:
    """generate_content's response_schema path (t_schema, process_schema), on its confirmed defects:
    a described null branch of anyOf crashes (ValueError from list.remove), a draft-07
    ``#/definitions`` reference crashes (KeyError), a recursive $ref becomes ``{}`` (RT-5)."""
    path = _path("google-genai/response-schema")
    run = run_suite(path.adapter, "--sc-rule", "RT-1,RT-5", "-k",
    "(rt_1_case and (null-branch-with-description or ref-definitions)) or (rt_5_case and optional-recursive-property)")
    assert _failed(run) == {"RT-1", "RT-5"}, run.output
    crashes = _messages(run, "RT-1")
    assert "raised ValueError: list.remove(x): x not in list" in crashes, crashes
    assert "raised KeyError: '#/definitions/Id'" in crashes, crashes
    assert "'v' is a required property" in _messages(run, "RT-5")


def test_google_genai_response_schema_refusals() -> None:
    """process_schema's deliberate ValueErrors are declared refusals (ProcessSchemaRefusal); what
    the client sends is read back from the request (a string const becomes an enum)."""
    pytest.importorskip("google.genai", reason="google-genai is not installed")
    from strictconformance.sdks.google_genai import GoogleGenaiResponseSchema, ProcessSchemaRefusal

    adapter = GoogleGenaiResponseSchema()
    assert ProcessSchemaRefusal in adapter.strictify_refusals
    with pytest.raises(ProcessSchemaRefusal, match="Literal values must be strings"):
        adapter.strictify({"type": "object", "properties": {"n": {"type": "integer", "const": 3}}, "required": ["n"]}, "google-schema")
    with pytest.raises(ProcessSchemaRefusal, match="additionalProperties is only supported"):
        adapter.strictify({"type": "object", "additionalProperties": {"type": "number"}}, "google-schema")
    sent = adapter.strictify({"type": "object", "properties": {"s": {"type": "string", "const": "k"}, "n": {"type": "integer"}},
                              "required": ["s", "n"]}, "google-schema")
    assert sent == {"type": "object", "properties": {"s": {"type": "string", "enum": ["k"]}, "n": {"type": "integer"}},
    "required": ["s", "n"], "propertyOrdering": ["s", "n"]}


def test_google_genai_responses(run_suite: Callable[..., SuiteRun]) -> None:
    """The response converter crashes with TypeError on a non-object body, and an over-long
    integer escapes json.loads as ValueError (DR-6): which one the search meets first varies."""
    path = _path("google-genai/responses")
    run = run_suite(path.adapter, "--sc-rule", "DR-6", "-k", "any_payload")
    assert _failed(run) == {"DR-6"}, run.output
    messages = _messages(run, "DR-6")
    assert "raised TypeError" in messages or "raised ValueError: Exceeds the limit" in messages, messages


def test_pydantic_ai_transformer_paths(run_suite: Callable[..., SuiteRun]) -> None:
    """Each transformer path runs in its own dialect only: the OpenAI one keeps `not` (SM-20)."""
    path = _path("pydantic-ai/openai-transformer")
    run = run_suite(path.adapter, "--sc-rule", "SM-20")
    assert _failed(run) == {"SM-20"}, run.output
    assert "anthropic" not in _messages(run, "SM-20")


def test_pydantic_ai_transformer_refusals_are_declared(run_suite: Callable[..., SuiteRun]) -> None:
    """pydantic-ai raises UserError on purpose for a schema it will not make strict (the OpenAI
    transformer on an untyped array, the known-bad SM-04 schema): RT-1 counts it as a refusal; it
    reported it as a crash while the adapter did not declare it."""
    path = _path("pydantic-ai/openai-transformer")
    from pydantic_ai.exceptions import UserError

    assert path.adapter is not None
    assert UserError in read_declarations(load_adapter(path.adapter)).strictify_refusals
    run = run_suite(path.adapter, "--sc-rule", "RT-1", "-k", "traps_and_known_bad")
    assert "UserError" not in _messages(run, "RT-1"), run.output
    assert re.search(r"strictify openai: refused [1-9]", run.output), run.output


def test_pydantic_ai_requests_resolution(run_suite: Callable[..., SuiteRun]) -> None:
    """Kit false alarms on pydantic-ai's requests: a request with a provider config (which pydantic-ai
    cannot express) is refused alone, so RES-1 and RES-6 judge the others (they were not covered);
    a per-tool `false` that pydantic-ai leaves out for Anthropic (AnthropicModel sends `strict` only
    when true) is what Anthropic applies (strict tool use is opt-in), not an RES-1 violation; mode
    ANY with no tools, which pydantic-ai refuses with a UserError before sending, is not a crash."""
    path = _path("pydantic-ai/requests")
    run = run_suite(path.adapter, "--sc-rule", "RES-1,RES-6", "-k", "not seed_table")
    assert run.report is not None, run.output
    # judged now (the anthropic type-list crash, a real bug, may show; no false/omitted violation)
    assert run.report["rules"]["RES-1"]["outcome"] in ("passed", "failed"), run.output
    assert "carries strict=omitted, expected false" not in _messages(run, "RES-1"), run.output
    assert run.report["rules"]["RES-6"]["outcome"] in ("passed", "failed"), run.output
    assert "crash" not in _messages(run, "RES-6") and "UserError" not in _messages(run, "RES-6"), run.output


def test_pydantic_ai_chat_requests_say_which_openai_api_they_build() -> None:
    """Kit false alarm: OpenAIChatModel leaves out a tool's `strict` when it is false, which Chat
    Completions reads as false; the adapter did not say it builds Chat Completions requests, so
    RES-1 told omitted from false ('the tool's strict=false is not what the wire carries')."""
    from strictconformance.checks._support import same_tool_strict
    from strictconformance.sdks.pydantic_ai import PydanticAIChatRequests, PydanticAIRequests
    from strictconformance.wire import ToolSpec, ToolsRequest

    schema = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
    request = ToolsRequest("openai", "gpt-4o", True, (ToolSpec("lookup", schema, False),))
    for adapter, api in ((PydanticAIChatRequests(), "chat_completions"), (PydanticAIRequests(), "responses")):
        declarations = read_declarations(adapter)
        assert declarations.openai_api == api
        [tool] = adapter.build_request(request).tools
        assert same_tool_strict("openai", tool.strict, False, declarations.openai_api), (api, tool.strict)


def test_pydantic_ai_native_output_request_is_what_pydantic_ai_builds() -> None:
    """A request with a response schema is built as NativeOutput builds it (output_mode 'native'
    implies allow_text_output=True, pydantic_ai/models/__init__.py): the adapter's False, which
    pydantic-ai never produces, made it assert ("Either output_tools or allow_text_output...") and
    RES-6 reported a crash on requests-chat."""
    from strictconformance.wire import ToolsRequest

    path = _path("pydantic-ai/requests-chat")
    assert path.adapter is not None
    adapter: Any = load_adapter(path.adapter)
    request = ToolsRequest("google", "gemini-2.5-flash", False, (), function_calling_mode="NONE",
                           response_schema={"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]})
    wire = adapter.build_request(request)  # raised AssertionError before the fix
    assert wire is not None


def test_pydantic_ai_gemini_validation_error_is_drift_caught() -> None:
    """GoogleModel lets google-genai's pydantic ValidationError (a retyped field of the answer,
    named) through: DR-2 reported it as a crash while the adapter did not declare it."""
    path = _path("pydantic-ai/responses")
    import pydantic

    assert path.adapter is not None
    adapter: Any = load_adapter(path.adapter)
    assert pydantic.ValidationError in read_declarations(adapter).drift_errors
    payload = {"candidates": [{"content": {"role": "model", "parts": [{"text": "hi"}]}, "finishReason": "STOP"}],
               "usageMetadata": ["drift"]}
    with pytest.raises(read_declarations(adapter).drift_errors) as caught:
        adapter.check_response("gemini.generate_content", payload)
    assert "usage_metadata" in str(caught.value), caught.value


def test_anthropic_omitted_strict_is_false() -> None:
    from strictconformance.checks._support import same_tool_strict

    assert same_tool_strict("anthropic", None, False) and same_tool_strict("anthropic", False, False)
    assert not same_tool_strict("anthropic", None, True) and not same_tool_strict("anthropic", True, False)
    assert not same_tool_strict("openai", None, False) and same_tool_strict("openai", None, None)


# -- Reproducers -------------------------------------------------------------------------------------


def _python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)


def test_reproduce_snippets_run_on_their_own() -> None:
    """A strictify snippet of each SDK prints what the SDK returns; an unknown call gives None."""
    cases: list[tuple[str, str, tuple[Any, ...], str]] = [
        ("strictconformance.sdks.langchain_core:LangchainConvertToOpenAITool", "strictify",
         ({"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}}, "openai"), '"oneOf"'),
        ("strictconformance.sdks.google_genai:GoogleGenaiSchemaFromJsonSchema", "strictify",
         ({"type": "object", "properties": {"a": {"type": ["string", "null"]}}}, "google"), "nullable"),
        ("strictconformance.sdks.google_genai:GoogleGenaiResponses", "check_response",
         ("gemini.generate_content", True), "raised TypeError"),
        ("strictconformance.sdks.pydantic_ai:PydanticAIOpenAITransformer", "strictify",
         ({"type": "object", "properties": {"a": {"not": {"type": "null"}}}}, "openai"), '"not"'),
    ]
    for spec, method, args, shown in cases:
        module = spec.split(":")[0]
        pytest.importorskip(module, reason=f"{module}'s SDK is not installed")
        adapter: Any = load_adapter(spec)
        code = adapter.reproduce(method, args)
        assert isinstance(code, str) and "strictconformance" not in code, code
        run = _python(code)
        assert run.returncode == 0 and shown in run.stdout, (spec, code, run.stdout, run.stderr)
        assert adapter.reproduce("plan_request", ()) is None


def _triage_entries() -> list[tuple[str, dict[str, Any]]]:
    entries = []
    for sdk in MINE:
        path = TRIAGE / f"{sdk}.json"
        entries += [(sdk, entry) for entry in json.loads(path.read_text())] if path.exists() else []
    return entries


def test_triage_entries_name_registered_paths() -> None:
    keys = {path.key for path in SDK_PATHS}
    required = {"sdk_path", "version", "rule", "key", "summary", "reproducer", "verdict", "evidence"}
    entries = _triage_entries()
    assert {sdk for sdk, _ in entries} == set(MINE)
    optional = {"language", "upstream", "defects"}  # the schema's optional fields (conformance/sdks/triage.schema.json)
    for _sdk, entry in entries:
        assert required <= set(entry) <= required | optional, entry
        assert entry["sdk_path"] in keys and entry["verdict"] in ("confirmed", "disputed", "kit-bug-fixed"), entry
    assert len({(entry["sdk_path"], entry["key"]) for _, entry in entries}) == len(entries), "duplicate triage keys"


_IMPORTED = re.compile(r"^(?:from\s+([\w.]+)\s+import|import\s+([\w.]+))", re.MULTILINE)


@pytest.fixture(scope="module")
def reproducer_runners() -> Iterator[Callable[[str], ForkRunner]]:
    """One fork server per SDK (tests/forkrun.py): a process with the modules its reproducers
    import already imported, forking one child per reproducer."""
    runners: dict[str, ForkRunner] = {}

    def runner(sdk: str) -> ForkRunner:
        if sdk not in runners:
            top = _top_module(sdk).split(".")[0]
            modules = {match.group(1) or match.group(2) for owner, entry in _triage_entries() if owner == sdk
                       for match in _IMPORTED.finditer(entry["reproducer"])}
            runners[sdk] = ForkRunner(sorted(name for name in modules if name.split(".")[0] == top))
        return runners[sdk]

    yield runner
    for opened in runners.values():
        opened.close()


def _top_module(sdk: str) -> str:
    return MINE[sdk].replace("-slim", "").replace("-", "_").replace("google_genai", "google.genai")


@pytest.mark.parametrize(("sdk", "entry"), _triage_entries(), ids=lambda value: value["key"] if isinstance(value, dict) else value)
def test_triage_reproducer_shows_the_bug(sdk: str, entry: dict[str, Any],
                                         reproducer_runners: Callable[[str], ForkRunner]) -> None:
    """Each reproducer runs alone (a process of its own, only the SDK imported) and prints BUG:
    while the bug is there (a ``kit-bug-fixed`` entry's shows what the SDK does, which was right: no
    BUG:, as in test_sdk_adapters_a). With another SDK version installed, a reproducer that no
    longer shows it fails by name: re-triage."""
    pytest.importorskip(_top_module(sdk), reason=f"{sdk} is not installed")
    assert "strictconformance" not in entry["reproducer"]
    run = reproducer_runners(sdk).run(entry["reproducer"])
    assert run.returncode == 0, (entry["key"], run.stderr)
    if entry["verdict"] == "kit-bug-fixed":
        assert "BUG:" not in run.stdout, (entry["key"], run.stdout)
    else:
        assert "BUG:" in run.stdout, (entry["key"], run.stdout, run.stderr)


# -- drift.body (a kit fix found on these SDKs) --------------------------------------------------------


def test_json_body_encodes_what_json_dumps_cannot() -> None:
    """DR-6 sends payloads nested 10,000 deep and integers past the digit limit; json.dumps raised
    RecursionError / ValueError in the adapters, which the check blamed on the SDK."""
    deep: list[Any] = []
    node = deep
    for _ in range(10_000):
        node.append([])
        node = node[0]
    assert json_body(deep) == b"[" * 10_001 + b"]" * 10_001
    assert json_body({"n": 10**5000}).startswith(b'{"n": 1000')
    for value in ({"a": [1, 2.5, None, True, "é\""], "b": {}}, [[], {}], "x", 0):
        assert json_body(value) == json.dumps(value, ensure_ascii=False).encode()
    with pytest.raises(TypeError, match="not a JSON value"):
        json_body({"a": {1, 2}})

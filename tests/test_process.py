"""Process harnesses (strictconformance-process/1): faults of deliberately broken harnesses (a
Python one and a Node one) are named faults, the run continues, nothing hangs; every message a run
exchanges is valid against the protocol's schemas; check_harness; the plugin's --sc-adapter-cmd."""

from __future__ import annotations

import json
import os
import shutil
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from strictconformance.adapter import read_declarations
from strictconformance.process import (
    HarnessFault,
    ProcessAdapter,
    check_harness,
    message_problem,
    node_folder,
)
from strictconformance.process.protocol import HARNESS_MESSAGES, KIT_MESSAGES, message_schema
from strictconformance.wire import ToolSpec, ToolsRequest

HERE = Path(__file__).parent
PYTHON_HARNESS = [sys.executable, str(HERE / "harnesses" / "python_harness.py")]
NODE = shutil.which("node")
NODE_DIR = Path(node_folder())
needs_node = pytest.mark.skipif(NODE is None, reason="node is not installed")
needs_node_modules = pytest.mark.skipif(
    NODE is None or not (NODE_DIR / "node_modules" / "ai").is_dir(),
    reason=f"the Node harnesses' packages are not installed: run `npm ci` in {NODE_DIR}")

TOOL = ToolSpec("get_weather", {"type": "object", "properties": {}, "required": [], "additionalProperties": False}, None)
GOOD = ToolsRequest("openai", "gpt-4o", True, (TOOL,))
FAULTS = {
    "malformed": "not a JSON message",
    "wrong-type": "not an answer to a build_request call|invalid message",
    "crash": "before answering (a crash or an exit)",
    "hang": "no answer within 1 s; the kit killed the process",
    "huge": "longer than 1048576 bytes",
    "stdout-junk": "not a JSON message",
}


class _Quick(ProcessAdapter):
    process_timeout = 1.0
    max_message_bytes = 1024 * 1024


def _fault_request(fault: str) -> ToolsRequest:
    return ToolsRequest("openai", f"fault:{fault}", True, ())


def _harnesses() -> list[object]:
    node = [NODE or "node", str(NODE_DIR / "harnesses" / "broken.mjs")]
    return [pytest.param(PYTHON_HARNESS, id="python"), pytest.param(node, id="node", marks=needs_node)]


@pytest.mark.slow
@pytest.mark.parametrize("command", _harnesses())
def test_every_fault_is_named_and_the_harness_recovers(command: list[str]) -> None:
    """Each fault names the harness, the call and what happened; the next call works (a new process)."""
    adapter = _Quick(command)
    try:
        assert adapter.build_request(GOOD).tools[0].strict is True
        for fault, expected in FAULTS.items():
            began = time.monotonic()
            with pytest.raises(HarnessFault) as raised:
                adapter.build_request(_fault_request(fault))
            message = str(raised.value)
            assert "build_request" in message and "call #" in message and command[-1] in message, message
            assert any(part in message for part in expected.split("|")), (fault, message)
            assert time.monotonic() - began < 30, fault  # generous: the bound is 1 s
            assert adapter.build_request(GOOD).tools[0].strict is True, f"no recovery after {fault}"
        assert adapter.harness.restarts == len(FAULTS)
    finally:
        adapter.close()


def test_crash_fault_shows_stderr_and_exit_code() -> None:
    adapter = _Quick(PYTHON_HARNESS)
    try:
        with pytest.raises(HarnessFault, match=r"(?s)exited with code 3.*crashing on purpose"):
            adapter.build_request(_fault_request("crash"))
    finally:
        adapter.close()


def test_declarations_capabilities_and_errors_come_from_the_handshake() -> None:
    adapter = ProcessAdapter(PYTHON_HARNESS)
    try:
        declarations = read_declarations(adapter, "harness")
        assert declarations.capabilities == {"build_request", "check_response", "define_tool", "describe_tool"}
        assert [error.__name__ for error in declarations.drift_errors] == ["DriftError"]
        with pytest.raises(declarations.drift_errors) as raised:
            adapter.check_response("openai.chat", {"choices": None})
        assert adapter.drift_error_path(raised.value) == "choices"
        assert declarations.tool_layer_traits.sources == {"json_schema"}
        snippet = adapter.reproduce("build_request", (GOOD,))
        assert snippet is not None and "python_harness.py" in snippet and "build_request" in snippet
        assert adapter.reproduce("check_response", ("openai.chat", {})) is None
    finally:
        adapter.close()


def test_a_bad_handshake_is_a_usage_error_naming_the_problem() -> None:
    from strictconformance.adapter import AdapterContractError

    with pytest.raises(AdapterContractError, match=r"started message breaks schemas/started\.json"):
        _Quick([*PYTHON_HARNESS, "bad-handshake"])
    with pytest.raises(AdapterContractError, match=r"not a JSON message: b'hello from the harness"):
        _Quick([*PYTHON_HARNESS, "startup-junk"])
    with pytest.raises(AdapterContractError, match="could not be started"):
        _Quick(["/nonexistent/harness"])


def test_schemas_are_valid_and_reject_junk() -> None:
    from jsonschema import Draft202012Validator

    for kind in KIT_MESSAGES + HARNESS_MESSAGES:
        Draft202012Validator.check_schema(message_schema(kind))
    assert message_problem({"type": "result", "id": 1, "value": None}, "harness") is None
    assert "not one a harness sends" in (message_problem({"type": "call", "id": 1, "method": "encode", "args": {}}, "harness") or "")
    assert "/id" in (message_problem({"type": "result", "id": "1", "value": None}, "harness") or "")
    assert message_problem({"type": "result", "id": 1}, "harness") is not None


def test_check_harness_passes_a_conforming_harness_and_fails_a_broken_one() -> None:
    verdict = check_harness(PYTHON_HARNESS)
    assert verdict.ok, verdict.render()
    assert len(verdict.messages) >= 8
    broken = check_harness([*PYTHON_HARNESS, "malformed"], timeout=2)
    assert not broken.ok
    assert any("not a JSON message" in problem for problem in broken.problems), broken.render()


def test_a_run_through_the_plugin_continues_past_faults_and_every_message_is_valid(pytester: pytest.Pytester) -> None:
    """The suite against the Python harness through --sc-adapter-cmd: RES rules run and report;
    a recording adapter validates every message the run exchanged against the schemas."""
    record = pytester.path / "messages.jsonl"
    pytester.makepyfile(recording_adapter=f'''
import json
import os
from strictconformance.process import ProcessAdapter

class Recording(ProcessAdapter):
    command = {PYTHON_HARNESS!r}

    def __new__(cls):
        record = []
        self = super().__new__(cls, record=record)
        import atexit
        import os
        path = {str(record)!r} + "." + str(os.getpid())  # each process its own (supervisor, workers)
        atexit.register(lambda: open(path, "w").write("\\n".join(json.dumps([s, m]) for s, m in record)))
        return self
''')
    result = pytester.runpytest_subprocess("-p", "strictconformance", "--sc-adapter", "recording_adapter:Recording",
                                           "--sc-rule", "RES-1,RES-2", "--sc-profile", "ci", "-p", "no:cacheprovider")
    text = result.stdout.str()
    assert "RES-1" in text and "python-test-harness" in text, text
    lines = [json.loads(line) for part in sorted(record.parent.glob(record.name + ".*"))
             for line in part.read_text().splitlines()]
    assert len(lines) > 20
    kinds = {message["type"] for _, message in lines}
    assert {"start", "started", "call", "result"} <= kinds
    for sender, message in lines:
        assert message_problem(message, sender) is None, (sender, message)


@needs_node_modules
def test_a_node_harness_run_exchanges_only_valid_messages(pytester: pytest.Pytester) -> None:
    """The same, against the Vercel AI harness on a few checks that use every message type: a
    stream parsed into a parse-fidelity result (check_stream), the tool layer with callbacks the
    kit runs (callback, callback_result) and the error results of TL-3, a declared drift error."""
    record = pytester.path / "messages.jsonl"
    pytester.makepyfile(recording_adapter=f'''
import json
import os
from strictconformance.process import ProcessAdapter

class Recording(ProcessAdapter):
    command = "node harnesses/vercel-ai.mjs"
    cwd = {str(NODE_DIR)!r}
    process_timeout = 30.0

    def __new__(cls):
        record = []
        self = super().__new__(cls, record=record)
        import atexit
        import os
        path = {str(record)!r} + "." + str(os.getpid())
        atexit.register(lambda: open(path, "w").write("\\n".join(json.dumps([s, m]) for s, m in record)))
        return self
''')
    result = pytester.runpytest_subprocess("-p", "strictconformance", "--sc-adapter", "recording_adapter:Recording",
                                           "--sc-rule", "DR-2,DR-7,TL-3", "-k", "stream_tool_call or each_callback_kind or seed_missing_choices",
                                           "--sc-profile", "ci", "-p", "no:cacheprovider")
    text = result.stdout.str()
    assert "DR-7" in text and "vercel-ai-sdk" in text, text
    lines = [json.loads(line) for part in sorted(record.parent.glob(record.name + ".*"))
             for line in part.read_text().splitlines()]
    kinds = {message["type"] for _, message in lines}
    assert {"start", "started", "call", "result", "error", "callback", "callback_result"} <= kinds, kinds
    methods = {message["method"] for _, message in lines if message["type"] == "call"}
    assert {"check_stream", "define_tool", "invoke_tool"} <= methods, methods
    assert any(message["type"] == "result" and isinstance(message["value"], dict) and "tool_calls" in message["value"]
               for _, message in lines), "no parse-fidelity result was exchanged"
    for sender, message in lines:
        assert message_problem(message, sender) is None, (sender, message)


def test_sc_adapter_cmd_under_xdist_names_the_harness_in_faults_report_and_replay(pytester: pytest.Pytester) -> None:
    """--sc-adapter-cmd with two xdist workers (a harness process each) and a harness that crashes
    on every call: each check fails with a fault naming the harness, the call and the exit code,
    the run finishes with its report, and the replay command names the harness command."""
    command = " ".join([*PYTHON_HARNESS, "crash"])
    result = pytester.runpytest_subprocess("-p", "strictconformance", "--sc-adapter-cmd", command, "-n", "2",
                                           "--sc-rule", "RES-1,RES-2", "-k", "seed_table",  # explicit cases: no shrinking
                                           "--sc-profile", "ci", "-p", "no:cacheprovider")
    text = result.stdout.str()
    assert f"adapter  {command}" in text, text
    assert "RES-1   failed" in text and "RES-2   failed" in text, text
    assert "exited with code 3 before answering" in text and "call #1 build_request" in text, text
    assert "replay: pytest -p strictconformance --sc-adapter-cmd" in text, text


@needs_node_modules
def test_vercel_ai_harness_speaks_the_protocol() -> None:
    verdict = check_harness(["node", "harnesses/vercel-ai.mjs"], cwd=str(NODE_DIR), timeout=30)
    assert verdict.ok, verdict.render()
    assert verdict.implementation["name"] == "vercel-ai-sdk"


@needs_node_modules
def test_vercel_ai_harness_stream_drift_carries_no_path_into_one_event() -> None:
    """DR-3 false alarm of the harness: the provider packages validate each stream event on its own,
    so a zod issue's path is a path into one event ("index"), and the error does not say which
    event; the harness reported it as the payload's path, and DR-3 found "drift reported at the
    wrong path" (expected events[1].data.index). A stream's drift error carries no path now (as the
    Python adapters'); a response body's still carries the path zod names."""
    import copy

    from strictconformance.drift.sse import SSEEvent

    adapter = ProcessAdapter(["node", "harnesses/vercel-ai.mjs"], cwd=str(NODE_DIR))
    try:
        events = list(_recorded("anthropic/messages/stream_refusal.yaml").events())  # type: ignore[attr-defined]
        data = json.loads(events[1].data)
        assert data["type"] == "content_block_start"
        del data["index"]
        events[1] = SSEEvent(json.dumps(data), events[1].event)
        with pytest.raises(adapter.drift_errors) as caught:
            adapter.check_stream("anthropic.messages", events)
        assert type(caught.value).__name__ == "AI_TypeValidationError" and caught.value.path is None, caught.value.path
        body = copy.deepcopy(_recorded("anthropic/messages/tool_use.yaml").payload())  # type: ignore[attr-defined]
        body["content"][1]["id"] = 7
        with pytest.raises(adapter.drift_errors) as caught:
            adapter.check_response("anthropic.messages", body)
        assert caught.value.path == "content[1].id", caught.value.path
    finally:
        adapter.close()


@needs_node_modules
def test_vercel_ai_harness_marks_a_cut_stream_incomplete() -> None:
    """DR-9 false alarm of the harness: the provider packages end a stream cut before its terminal
    event with finishReason.unified "interrupted" (documented: the stream ended without a completion
    signal, output may be incomplete); the harness dropped that mark and DR-9 said the reading was
    not marked incomplete."""
    adapter = ProcessAdapter(["node", "harnesses/vercel-ai.mjs"], cwd=str(NODE_DIR))
    try:
        for location in ("anthropic/messages/stream_refusal.yaml", "openai/chat/stream_tool_call.yaml"):
            events = list(_recorded(location).events())  # type: ignore[attr-defined]
            whole = adapter.check_stream(location.split("/")[0] + "." + location.split("/")[1], events)
            cut = adapter.check_stream(location.split("/")[0] + "." + location.split("/")[1], events[:3])
            assert whole is not None and not whole.incomplete, location
            assert cut is not None and cut.incomplete, location
    finally:
        adapter.close()


@needs_node_modules
def test_vercel_ai_harness_raises_the_sdks_error_on_a_stream_cut_before_any_output() -> None:
    """DR-9 false alarm of the harness: an Anthropic stream cut right after message_start gives no
    finish part at all (@ai-sdk/anthropic emits its "interrupted" finish only once output arrived);
    the harness returned an unmarked reading, while streamText, the SDK's streaming call, rejects
    such a stream with AI_NoOutputGeneratedError. The harness raises that declared error."""
    adapter = ProcessAdapter(["node", "harnesses/vercel-ai.mjs"], cwd=str(NODE_DIR))
    try:
        events = list(_recorded("anthropic/messages/stream_refusal.yaml").events())  # type: ignore[attr-defined]
        assert "AI_NoOutputGeneratedError" in [error.__name__ for error in adapter.drift_errors]
        with pytest.raises(Exception, match="ended without a finish chunk") as raised:
            adapter.check_stream("anthropic.messages", events[:1])
        assert type(raised.value).__name__ == "AI_NoOutputGeneratedError"
        whole = adapter.check_stream("anthropic.messages", events)
        assert whole is not None and not whole.incomplete
    finally:
        adapter.close()


def test_unset_and_auto_gemini_modes_are_the_same() -> None:
    from strictconformance.checks._support import same_gemini_mode

    assert same_gemini_mode("AUTO", None) and same_gemini_mode(None, "AUTO") and not same_gemini_mode("ANY", None)
    assert same_gemini_mode("VALIDATED", "VALIDATED") and not same_gemini_mode("VALIDATED", None)


def test_false_alarms_met_on_real_sdks_stay_fixed(pytester: pytest.Pytester) -> None:
    """One run, three behaviours of real TypeScript SDKs that conform (each failed the kit before):
    * Gemini's unset function-calling mode spelled out as AUTO (Vercel AI SDK; the API's default),
      RES-2 and RES-6;
    * structured-output support read from the model id (Effect, Vercel): RES-3's seed row without
      support names a model without it (it named claude-sonnet-4-5);
    * every input of a check refused (a harness without response formats): RES-4 is not covered
      with the reason, not a FailedHealthCheck;
    * no function-calling mode sent for a Gemini request without tools (Vercel AI SDK): RES-6."""
    pytester.makepyfile(ts_like="""
import dataclasses
from strictconformance.findings import refuse
from strictconformance.reference import ReferenceAdapter

class TypeScriptLike(ReferenceAdapter):
    def build_request(self, request):
        if request.response_schema is not None:
            refuse("no response formats here")  # what ProcessAdapter raises for a harness's refusal
        if request.provider == "anthropic":
            request = dataclasses.replace(request, supports_structured_outputs=not request.model.startswith("claude-3"))
        wire = super().build_request(request)
        if request.provider == "google" and wire.function_calling_mode is None:
            wire = dataclasses.replace(wire, function_calling_mode="AUTO")
        if request.provider == "google" and not request.tools:  # no declarations: no toolConfig
            wire = dataclasses.replace(wire, function_calling_mode=None)
        return wire
""")
    result = pytester.runpytest_subprocess("-p", "strictconformance", "--sc-adapter", "ts_like:TypeScriptLike",
                                           "--sc-rule", "RES-2,RES-3,RES-4,RES-6", "--sc-profile", "ci", "-p", "no:cacheprovider")
    text = result.stdout.str()
    for rule in ("RES-2", "RES-3", "RES-6"):
        assert f"{rule}   passed" in text, text
    assert "not covered: RES-4" in text and "no response formats here" in text, text
    assert "FailedHealthCheck" not in text, text


_GEMINI_LIKE_VERCEL = """
import dataclasses
from strictconformance.reference import ReferenceAdapter
from strictconformance.wire import WireTool

class GeminiLikeVercel(ReferenceAdapter):
    # @ai-sdk/google 4.0.121 prepareTools/getArgs: strict tools switch an unset or AUTO mode to
    # VALIDATED, a caller's ANY or NONE stays; on gemini-2.5 a structured output beside tools goes
    # as one more function (the answer's schema as parameters) with mode ANY.
    FORCE_WITHOUT_ANSWER = False

    def build_request(self, request):
        wire = super().build_request(request)
        if request.provider != "google":
            return wire
        if request.function_calling_mode in ("ANY", "NONE"):
            wire = dataclasses.replace(wire, function_calling_mode=request.function_calling_mode)
        if request.tools and request.response_schema is not None:
            answer = () if self.FORCE_WITHOUT_ANSWER else (WireTool("json", None, request.response_schema),)
            wire = dataclasses.replace(wire, tools=wire.tools + answer, response_format=None, function_calling_mode="ANY")
        return wire

class ForcesAnyWithoutAnswer(GeminiLikeVercel):
    FORCE_WITHOUT_ANSWER = True
"""


@pytest.mark.slow
def test_gemini_modes_that_keep_the_request_meaning(pytester: pytest.Pytester) -> None:
    """RES-2/RES-6 false alarms met on Vercel AI SDK's Gemini requests: a caller's ANY stays ANY
    beside a strict tool (ANY "guarantees function schema adherence", Gemini function-calling
    guide), a caller's NONE stays NONE, and a structured output sent as an answer function comes
    with mode ANY. Forcing ANY without such an answer function still fails both rules."""
    pytester.makepyfile(gemini_like=_GEMINI_LIKE_VERCEL)
    args = ("-p", "strictconformance", "--sc-rule", "RES-2,RES-6", "--sc-profile", "ci", "-p", "no:cacheprovider")
    text = pytester.runpytest_subprocess("--sc-adapter", "gemini_like:GeminiLikeVercel", *args).stdout.str()
    assert "RES-2   passed" in text and "RES-6   passed" in text, text
    text = pytester.runpytest_subprocess("--sc-adapter", "gemini_like:ForcesAnyWithoutAnswer", *args).stdout.str()
    assert "RES-2   failed" in text and "RES-6   failed" in text, text
    assert "the wire has mode 'ANY'" in text, text


def test_gemini_mode_kept_cases() -> None:
    """The accepted modes, case by case (:func:`gemini_mode_kept`)."""
    from strictconformance.checks._support import gemini_answer_tool, gemini_mode_kept
    from strictconformance.wire import ToolSpec, ToolsRequest, WireRequest, WireTool

    schema = {"type": "object", "properties": {}, "required": [], "additionalProperties": False}
    answer = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}

    def case(caller, wire_mode, *, strict, response=None, extra=()):
        request = ToolsRequest("google", "gemini-2.5-flash", True, (ToolSpec("t", schema, True if strict else None),),
                               response_schema=response, function_calling_mode=caller)
        wire = WireRequest(tools=(WireTool("t", None, schema), *extra), function_calling_mode=wire_mode)
        return gemini_mode_kept(request, wire, strict=strict)[0]

    assert case(None, "VALIDATED", strict=True) and case("AUTO", "VALIDATED", strict=True)
    assert not case(None, "ANY", strict=True) and not case(None, None, strict=True) and not case(None, "AUTO", strict=True)
    assert case("ANY", "ANY", strict=True) and case("ANY", "VALIDATED", strict=True) and not case("ANY", "AUTO", strict=True)
    assert case("NONE", "NONE", strict=True) and not case("NONE", "ANY", strict=True)
    assert case(None, None, strict=False) and case(None, "AUTO", strict=False) and not case(None, "ANY", strict=False)
    assert not case(None, "VALIDATED", strict=False) and case("ANY", "ANY", strict=False)
    json_tool = (WireTool("json", None, answer),)
    assert case(None, "ANY", strict=False, response=answer, extra=json_tool)
    assert case(None, "ANY", strict=True, response=answer, extra=json_tool)
    assert not case(None, "ANY", strict=False, response=answer)  # no answer function on the wire
    assert not case(None, "ANY", strict=False, response=answer, extra=(WireTool("json", None, schema),))  # not the answer's schema
    assert not case(None, "AUTO", strict=True, response=answer, extra=json_tool)
    request = ToolsRequest("google", "gemini-2.5-flash", True, (ToolSpec("t", schema, None),), response_schema=answer)
    wire = WireRequest(tools=(WireTool("t", None, schema),), function_calling_mode="ANY", response_format={"schema": answer})
    assert gemini_answer_tool(request, wire) is None  # the answer went as a response format


def test_deep_and_huge_values_cross_the_boundary() -> None:
    """The drift fuzz sends arrays nested thousands deep and integers past Python's 4300-digit
    text limit; the kit's encoding must carry them to the harness, not raise (DR-6 false alarms)."""
    import subprocess

    from strictconformance.process.protocol import _dumps_deep, dumps, encode_args

    sample = {"a": [1, {"b": [2.5, None, "x"], "c": True}], "z": "é"}
    assert _dumps_deep(sample) == json.dumps(sample, ensure_ascii=False, separators=(",", ":"))
    deep: list[object] = []
    node = deep
    for _ in range(20_000):
        node.append([])
        node = node[0]  # type: ignore[assignment]
    message = {"type": "call", "id": 1, "method": "check_response", "args": encode_args("check_response", ("openai.chat", deep))}
    line = dumps(message)
    assert line.startswith(b'{"type":"call","id":1,"method":"check_response","args":{"api":"openai.chat","payload":[[[')
    assert line.count(b"[") == 20_001 and line.endswith(b"]}}\n")
    huge = dumps({"type": "result", "id": 1, "value": 10**5000})
    assert huge.startswith(b'{"type":"result","id":1,"value":1000') and len(huge) > 5000
    if NODE is not None:  # the Node kit parses both and writes the deep one back
        script = ('import("./harness-kit.mjs").then(({stringifyDeep}) => { let s = ""; process.stdin.on("data", (d) => s += d);'
                  'process.stdin.on("end", () => process.stdout.write(stringifyDeep(JSON.parse(s)))); })')
        echoed = subprocess.run([NODE, "-e", script], input=line, capture_output=True, cwd=NODE_DIR, timeout=60, check=True)
        assert echoed.stdout == line.rstrip(b"\n")


def test_to_json_keeps_key_order() -> None:
    from strictconformance.process.protocol import to_json

    schema = {"type": "object", "properties": {"query": {"type": "string"}, "limit": {"type": "integer"}},
              "required": ["query", "limit"]}
    converted = to_json(schema)
    assert list(converted) == ["type", "properties", "required"]
    assert list(converted["properties"]) == ["query", "limit"]


def test_node_doubles_past_2_53_read_back_as_floats() -> None:
    """JavaScript prints the double 7.165124718205338e16 as 71651247182053380; from a Node harness
    that is the double again (an int would differ from the value sent), from others an int."""
    from strictconformance.process.client import HarnessProcess

    process = HarnessProcess(["unused"])
    process.started = {"implementation": {"language": "node"}}
    assert process._parse_int("71651247182053380") == 7.165124718205338e16
    assert isinstance(process._parse_int("12"), int)
    process.started = {"implementation": {"language": "python"}}
    assert process._parse_int("71651247182053380") == 71651247182053380


@needs_node_modules
@pytest.mark.parametrize("harness", ["effect-ai", "strands"])
def test_shipped_harnesses_speak_the_protocol(harness: str) -> None:
    verdict = check_harness(["node", f"harnesses/{harness}.mjs"], cwd=str(NODE_DIR), timeout=30)
    assert verdict.ok, verdict.render()


def test_a_callbacks_exception_the_sdk_lets_through_is_raised_as_itself() -> None:
    """TL-6 false alarm met on Strands Agents (tool.invoke() lets the callback's error through): a
    kit callback raised ValueError in the kit, the harness answered an error of that type and
    message, and the kit raised a class of its own named ValueError (not a ValueError), so a direct
    call "raised ValueError instead of the callback's ValueError". Now the callback's own exception
    is raised; an error the SDK makes of it (another type or message) stays the harness's error."""
    from strictconformance.process import HarnessCallError
    from strictconformance.tools.contract import ToolDefinition

    schema = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"], "additionalProperties": False}
    raised = [ValueError(""), LookupError("no such city: Atlantis")]

    def raising(arguments: object) -> object:
        raise raised[0]

    adapter = ProcessAdapter([*PYTHON_HARNESS, "call-tool"])
    try:
        passes_on = adapter.define_tool(ToolDefinition("passes_on", "Lets errors through", raising, input_schema=schema))
        for exception in list(raised):
            raised[0] = exception
            with pytest.raises(type(exception)) as caught:
                adapter.call_tool(passes_on, {"query": "q"}, None)
            assert caught.value is exception
        assert adapter.call_tool(adapter.define_tool(ToolDefinition("plain", "Returns", lambda arguments: {"ok": True}, input_schema=schema)),
                                 {"query": "q"}, None) == {"ok": True}
        wraps = adapter.define_tool(ToolDefinition("wraps_errors", "Wraps errors", raising, input_schema=schema))
        with pytest.raises(HarnessCallError, match="tool wraps_errors failed") as wrapped:
            adapter.call_tool(wraps, {"query": "q"}, None)
        assert not isinstance(wrapped.value, LookupError) and wrapped.value.type_name == "RuntimeError"
    finally:
        adapter.close()


@needs_node_modules
def test_strands_direct_call_raises_the_callbacks_own_exception() -> None:
    """The same through the Strands harness: tool.invoke() lets the callback's ValueError('') through."""
    from strictconformance.tools.contract import ToolDefinition

    schema = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"], "additionalProperties": False}
    exception = ValueError("")

    def raising(arguments: object) -> object:
        raise exception

    adapter = ProcessAdapter(["node", "harnesses/strands.mjs"], cwd=str(NODE_DIR))
    try:
        tool = adapter.define_tool(ToolDefinition("a", "Tool a for tests.", raising, input_schema=schema))
        with pytest.raises(ValueError, match=r"^$") as caught:
            adapter.call_tool(tool, {"query": "q"}, None)
        assert caught.value is exception
    finally:
        adapter.close()


def test_an_input_json_cannot_carry_is_refused_not_a_fault() -> None:
    """NaN or infinity in a call's arguments never reaches the harness: the input is refused (the
    example discarded, an explicit case not covered), not answered by a fault whose message a
    check could read as the SDK's rejection (TL-7's NaN strict 'passed' that way)."""
    from strictconformance.findings import refusal_type

    # the kit's refusal type (an UnsatisfiedAssumption), not a fresh import of Hypothesis's class:
    # after an in-process pytester run restores sys.modules, that import is another class object
    adapter = ProcessAdapter(PYTHON_HARNESS)
    assert "UnsatisfiedAssumption" in [base.__name__ for base in refusal_type().__mro__]
    try:
        with pytest.raises(refusal_type(), match="strict: nan has no JSON form"):
            adapter.build_request(ToolsRequest("openai", "gpt-4o", True, (ToolSpec("t", {"type": "object"}, float("nan")),)))
        assert adapter.harness.generation == 1
    finally:
        adapter.close()


def test_a_check_result_with_a_big_negative_integer_crosses_to_the_xdist_controller() -> None:
    # execnet's serializer fails on an int below -2**31 (struct.error: an INTERNALERROR that lost
    # the run); a Zod tool advertises integers with minimum -(2**53 - 1), so a TL-1 finding holds one.
    execnet = pytest.importorskip("execnet.gateway_base")
    from strictconformance.plugin import worker_property

    value = {"rule_id": "TL-1", "outcome": "failed", "findings": [{"counterexample": {"minimum": -(2**53 - 1), "big": 10**40}}]}
    carried = worker_property(value)
    execnet.dumps_internal(("testreport", {"user_properties": [("strictconformance", carried)]}))
    assert isinstance(carried, str) and json.loads(carried) == value


def test_install_node_runs_npm_ci_in_the_kits_node_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                           capsys: pytest.CaptureFixture[str]) -> None:
    from strictconformance.process import __main__ as cli
    from strictconformance.process import node_folder

    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    log = tmp_path / "npm.log"
    npm = bin_dir / "npm"
    npm.write_text(f'#!/bin/sh\necho "$PWD $*" > {log}\nexit "${{NPM_EXIT:-0}}"\n', encoding="utf-8")
    npm.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    assert cli.main(["install-node"]) == 0
    assert log.read_text(encoding="utf-8").split() == [str(Path(node_folder())), "ci", "--no-audit", "--no-fund"]
    monkeypatch.setenv("NPM_EXIT", "3")
    assert cli.main(["install-node"]) == 2
    assert "npm ci in" in capsys.readouterr().err
    monkeypatch.setattr(cli.shutil, "which", lambda name: None)
    assert cli.main(["install-node"]) == 2
    assert "npm is not installed" in capsys.readouterr().err


# -- the Effect AI harness's response parsing (check_response / check_stream) --------------------------

needs_effect = pytest.mark.skipif(
    NODE is None or not (NODE_DIR / "node_modules" / "@effect" / "ai-openai").is_dir(),
    reason=f"the Effect AI harness's packages are not installed: run `npm ci` in {NODE_DIR}")


def _effect_harness() -> ProcessAdapter:
    return ProcessAdapter(["node", "harnesses/effect-ai.mjs"], cwd=str(NODE_DIR))


def _recorded(location: str, index: int = 0) -> object:
    from strictconformance.drift.cassettes import load_cassette

    return list(load_cassette(location).responses())[index]


@needs_effect
def test_effect_harness_parses_recorded_responses_with_effects_own_code() -> None:
    """generateText() / streamText() on OpenAiLanguageModel read a recorded Responses body and
    stream; what the harness returns is what Effect parsed, and it is what the response holds
    (a function call of a tool the caller offers, its id and arguments, the token counts)."""
    from strictconformance.drift.fidelity import (
        ParsedResponse,
        ParsedToolCall,
        expected_parse,
        parse_differences,
    )

    adapter = _effect_harness()
    try:
        assert set(adapter.drift_apis) == {"openai.responses", "anthropic.messages"} and adapter.parse_fidelity
        body = _recorded("openai/responses/function_call_reasoning.yaml").payload()  # type: ignore[attr-defined]
        parsed = adapter.check_response("openai.responses", body)
        assert isinstance(parsed, ParsedResponse)
        assert parsed.tool_calls == (ParsedToolCall("weather", {"location": "Florence, Italy"}, "call_ves1YcSxZVxr4IGeGzt3Hn6u"),)
        assert parsed.usage == {"input_tokens": 63, "output_tokens": 132}
        expected = expected_parse("openai.responses", body)
        assert expected is not None and parse_differences(expected, parsed) == []
        for location in ("openai/responses/stream_function_call.yaml", "openai/responses/stream_text.yaml"):
            events = _recorded(location).events()  # type: ignore[attr-defined]
            streamed = adapter.check_stream("openai.responses", events)
            expected = expected_parse("openai.responses", events=events)
            assert isinstance(streamed, ParsedResponse) and expected is not None, location
            assert parse_differences(expected, streamed) == [], location
        assert streamed.text == "Oi!"
        # Anthropic: a recorded tool_use body with the usage keys Effect's schema requires (DR-1's
        # finding is that the real body lacks them)
        anthropic = _recorded("anthropic/messages/tool_use.yaml").payload()  # type: ignore[attr-defined]
        anthropic["usage"]["inference_geo"] = None
        read = adapter.check_response("anthropic.messages", anthropic)
        assert isinstance(read, ParsedResponse) and read.text == "I'll check the weather in Florence, Italy for you."
        assert read.tool_calls == (ParsedToolCall("weather", {"location": "Florence, Italy"}, "toolu_01Dx5rwFL7pCC3c11qUZiSFH"),)
    finally:
        adapter.close()


@needs_effect
def test_effect_harness_reports_drift_as_declared_errors_at_the_payload_path() -> None:
    """A breaking change is Effect's InvalidOutputError (a declared drift error) at the path Effect
    names, read back in the kit's syntax (a stream's as events[i].data...); a provider's error
    frame in a stream is Effect's ErrorPart (a declared API error)."""
    import copy

    from strictconformance.drift.sse import SSEEvent

    adapter = _effect_harness()
    try:
        body = _recorded("openai/responses/function_call_reasoning.yaml").payload()  # type: ignore[attr-defined]
        broken = copy.deepcopy(body)
        broken["output"][1]["arguments"] = 7
        with pytest.raises(adapter.drift_errors) as caught:
            adapter.check_response("openai.responses", broken)
        assert type(caught.value).__name__ == "InvalidOutputError" and caught.value.path == "output[1].arguments"
        events = list(_recorded("openai/responses/stream_text.yaml").events())  # type: ignore[attr-defined]
        data = json.loads(events[4].data)
        data["delta"] = None
        events[4] = SSEEvent(json.dumps(data), events[4].event)
        with pytest.raises(adapter.drift_errors) as caught:
            adapter.check_stream("openai.responses", events)
        assert caught.value.path == "events[4].data.delta", caught.value.path
        frame = SSEEvent(json.dumps({"type": "error", "code": "server_error", "message": "The server had an error.",
                                     "param": None, "sequence_number": 1}), "error")
        first = _recorded("openai/responses/stream_text.yaml").events()[0]  # type: ignore[attr-defined]
        with pytest.raises(adapter.api_errors) as raised:
            adapter.check_stream("openai.responses", [first, frame])
        assert type(raised.value).__name__ == "ErrorPart" and "server_error" in str(raised.value)
    finally:
        adapter.close()


@needs_effect
def test_effect_harness_false_alarms_stay_fixed() -> None:
    """Two false alarms of the harness itself (not Effect's behaviour):
    * a function call whose name is "" failed with ToolNotFoundError (DR-3 crash): the caller's
      toolkit left that name out; it offers a tool of every name the response calls;
    * a usage count that makes Effect's own response parts invalid (reasoning_tokens 0.5) fails
      LanguageModel's decode of those parts: its path is into Effect's parts, not the payload,
      and was reported as the payload's (events[0].usage.outputTokens.text)."""
    import copy

    adapter = _effect_harness()
    try:
        body = _recorded("openai/responses/function_call_reasoning.yaml").payload()  # type: ignore[attr-defined]
        unnamed = copy.deepcopy(body)
        unnamed["output"][1]["name"] = ""
        parsed = adapter.check_response("openai.responses", unnamed)
        assert parsed is not None and [call.name for call in parsed.tool_calls] == [""]
        fractional = copy.deepcopy(body)
        fractional["usage"]["output_tokens_details"]["reasoning_tokens"] = 0.5
        with pytest.raises(adapter.drift_errors) as caught:
            adapter.check_response("openai.responses", fractional)
        assert "LanguageModel." in str(caught.value) and caught.value.path is None
    finally:
        adapter.close()


def test_check_harness_samples_responses_of_a_declared_drift_api() -> None:
    """check_harness called check_response/check_stream with an OpenAI Chat response whatever the
    harness declared, and counted the refusal of a harness that parses other APIs only (Effect AI:
    openai.responses, anthropic.messages) as a problem."""
    from types import SimpleNamespace

    from strictconformance.process.conformance import _sample_args

    effect_like = SimpleNamespace(drift_apis=("openai.responses", "anthropic.messages"), providers=("openai",), strictify_dialects=())
    api, payload = _sample_args("check_response", effect_like)
    assert api == "openai.responses" and payload["object"] == "response"
    api, events = _sample_args("check_stream", effect_like)
    assert api == "openai.responses" and json.loads(events[0].data)["type"].startswith("response.")
    for declared in (None, ("openai.chat", "anthropic.messages")):
        assert _sample_args("check_response", SimpleNamespace(drift_apis=declared, providers=(), strictify_dialects=()))[0] == "openai.chat"


@needs_effect
def test_effect_harness_defines_and_describes_tools() -> None:
    """define_tool is Tool.dynamic with the raw JSON Schema (Tool.Strict when set); describe_tool
    reads back Tool.getJsonSchema and Tool.getStrictMode (unset stays unset)."""
    from strictconformance.tools.contract import ToolDefinition

    schema = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": False}
    adapter = _effect_harness()
    try:
        for strict in (True, False, None):
            tool = adapter.define_tool(ToolDefinition("get_weather", "Weather in a city", lambda arguments: "ok",
                                                      input_schema=schema, strict=strict))
            advertised = adapter.describe_tool(tool)
            assert (advertised.name, advertised.description, advertised.strict) == ("get_weather", "Weather in a city", strict)
            assert advertised.input_schema == schema
    finally:
        adapter.close()


# -- drift_unread: the fields the Effect and Vercel harnesses declare their SDK does not read --------------


def _mutated_body(location: str, change: Callable[[Any], None]) -> tuple[Any, Any]:
    import copy

    body = _recorded(location).payload()  # type: ignore[attr-defined]
    mutated = copy.deepcopy(body)
    change(mutated)
    return body, mutated


def _mutated_stream(location: str, index: int, change: Callable[[Any], None]) -> tuple[Any, Any]:
    from strictconformance.drift.sse import SSEEvent

    events = list(next(r for r in load_cassette_responses(location) if r.is_stream).events())
    data = json.loads(events[index].data)
    change(data)
    mutated = [*events[:index], SSEEvent(json.dumps(data), events[index].event), *events[index + 1:]]
    return events, mutated


def load_cassette_responses(location: str) -> list[Any]:
    from strictconformance.drift.cassettes import load_cassette

    return list(load_cassette(location).responses())


def _set(path: tuple[Any, ...], value: Any) -> Callable[[Any], None]:
    def change(node: Any) -> None:
        for part in path[:-1]:
            node = node[part]
        node[path[-1]] = value
    return change


def _drop(path: tuple[Any, ...]) -> Callable[[Any], None]:
    def change(node: Any) -> None:
        for part in path[:-1]:
            node = node[part]
        del node[path[-1]]
    return change


_RESPONSES, _MESSAGES = "openai.responses", "anthropic.messages"


@pytest.mark.parametrize(("harness", "declared", "cases"), [
    ("effect-ai.mjs", {(_RESPONSES, path) for path in ("status", "completed_at", "events[*].data.response.status",
                                                        "events[*].data.response.completed_at")}, [
        ("check_response", _RESPONSES, _mutated_body("openai/responses/function_call_reasoning.yaml", _set(("status",), 7))),
        ("check_response", _RESPONSES, _mutated_body("openai/responses/function_call_reasoning.yaml", _set(("completed_at",), True))),
        ("check_stream", _RESPONSES, _mutated_stream("openai/responses/stream_function_call.yaml", 0, _set(("response", "status"), 7))),
    ]),
    ("vercel-ai.mjs", {(_RESPONSES, "output[type=function_call].status"), (_RESPONSES, "events[type=response.created].data.sequence_number"),
                       (_MESSAGES, "events[type=message_start].data.message.type"), ("openai.chat", "object"),
                       ("openai.chat", "system_fingerprint")}, [
        ("check_response", "openai.chat", _mutated_body("openai/chat/tool_call.yaml", _set(("object",), 7))),
        ("check_response", "openai.chat", _mutated_body("openai/chat/tool_call.yaml", _set(("system_fingerprint",), 7))),
        ("check_response", _RESPONSES, _mutated_body("openai/responses/function_call_reasoning.yaml", _set(("output", 1, "status"), 7))),
        ("check_stream", _RESPONSES, _mutated_stream("openai/responses/stream_function_call.yaml", 0, _drop(("sequence_number",)))),
        ("check_stream", _MESSAGES, _mutated_stream("anthropic/messages/stream_text.yaml", 0, _set(("message", "type"), 7))),
    ]),
])
@needs_effect
def test_harnesses_declare_unread_only_fields_their_sdk_does_not_read(harness: str, declared: set[tuple[str, str]], cases: list[Any]) -> None:
    """Kit false alarm (DR-2/DR-3 "missed breaking drift" on fields the SDK never declares): the
    harness declares them in drift_unread, each with its source, and the SDK indeed does not read
    them: the mutated response parses without error into exactly what the unmutated one gives."""
    adapter = ProcessAdapter(["node", f"harnesses/{harness}"], cwd=str(NODE_DIR))
    try:
        fields = read_declarations(adapter).drift_unread
        assert {(field.api, field.path) for field in fields} == declared
        assert all("dist/" in field.source and ".js:" in field.source for field in fields), fields
        for method, api, (original, mutated) in cases:
            assert getattr(adapter, method)(api, mutated) == getattr(adapter, method)(api, original)
    finally:
        adapter.close()

"""The reference drift validator: the 004 cases, absent/null/empty, streams, and totality (DR-6)."""

from __future__ import annotations

import contextlib
import copy
import json
import pickle
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strictconformance.drift import (
    SchemaDriftError,
    SSEEvent,
    check_response,
    check_response_text,
    check_stream,
    paths_match,
    validate_response,
    validate_stream,
)
from strictconformance.drift.cassettes import load_cassette, recorded_responses
from strictconformance.drift.errors import bounded_json, describe_type, key_text, short_repr
from strictconformance.drift.oracles import fingerprint
from strictconformance.drift.shapes import API_IDS
from strictconformance.drift.shapes.model import accepted_types
from strictconformance.drift.validator import MAX_NOTICES, FieldSite, response_sites
from strictconformance.strategies.responses import (
    HUGE_INTEGERS,
    deep_json,
    hostile_events,
    hostile_payloads,
    json_values,
)

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]


def _payload(location: str, index: int = 0) -> Any:
    return copy.deepcopy(load_cassette(location).interactions[index].json())


def _events(location: str, index: int = 0) -> list[SSEEvent]:
    return list(load_cassette(location).interactions[index].events())


def _raises(api: str, payload: Any) -> SchemaDriftError:
    with pytest.raises(SchemaDriftError) as caught:
        check_response(api, payload)
    return caught.value


@pytest.mark.parametrize("response", recorded_responses(), ids=lambda r: r.label)
def test_every_recorded_response_passes(response: Any) -> None:
    """DR-1 on the reference: every shipped cassette, payloads and streams."""
    if response.is_stream:
        report = check_stream(response.api, response.events())
    else:
        report = check_response(response.api, response.payload())
    assert report.ok


# -- the four cases of seeds/004 ----------------------------------------------------------------------


def test_004_reshaped_tool_use_id_fails_at_content_id() -> None:
    payload = _payload("anthropic/messages/tool_use.yaml")
    block = payload["content"][1]
    assert block["type"] == "tool_use"
    block["metadata"] = {"id": block.pop("id")}
    error = _raises("anthropic.messages", payload)
    assert paths_match(error.path, "content[*].id")
    assert error.path == "content[1].id"
    assert (error.provider, error.api, error.rule_id) == ("anthropic", "anthropic.messages", "DR-3")
    assert error.expected == "non-empty string"
    assert error.actual_type == "absent"


def test_004_renamed_tool_use_fails_at_content_type_with_the_actual_value() -> None:
    payload = _payload("anthropic/messages/tool_use.yaml")
    payload["content"][1]["type"] = "function_call"
    error = _raises("anthropic.messages", payload)
    assert paths_match(error.path, "content[*].type")
    assert error.rule_id == "DR-5"
    assert error.actual == "'function_call'"
    assert error.actual_type == "string"
    assert "tool_use" in error.expected
    assert "function_call" in str(error)


def test_004_missing_choices_message_fails() -> None:
    payload = _payload("openai/chat/tool_call.yaml")
    del payload["choices"][0]["message"]
    error = _raises("openai.chat", payload)
    assert (error.path, error.rule_id, error.expected, error.actual_type) == ("choices[0].message", "DR-2", "object", "absent")


def test_004_unknown_block_type_passes_as_a_notice() -> None:
    payload = _payload("anthropic/messages/tool_use.yaml")
    payload["content"].insert(1, {"type": "fancy_new_block", "payload": {"x": 1}})
    report = check_response("anthropic.messages", payload)
    assert report.ok
    assert [n.path for n in report.notices_of("unknown_variant")] == ["content[1].type"]


# -- absent, null and empty are kept apart -------------------------------------------------------------


def test_absent_null_and_empty_are_distinct() -> None:
    payload = _payload("openai/chat/tool_call.yaml")
    payload["choices"][0]["message"]["content"] = None  # nullable: fine
    assert check_response("openai.chat", payload).ok
    del payload["choices"][0]["message"]["content"]  # optional: fine
    assert check_response("openai.chat", payload).ok
    payload["choices"][0]["message"]["role"] = None  # required, not nullable
    assert _raises("openai.chat", payload).actual_type == "null"
    payload = _payload("openai/chat/tool_call.yaml")
    payload["choices"] = []  # an SDK reads choices[0]
    error = _raises("openai.chat", payload)
    assert (error.path, error.actual_type) == ("choices", "empty array")
    payload = _payload("anthropic/messages/tool_use.yaml")
    payload["content"][1]["id"] = ""
    assert _raises("anthropic.messages", payload).actual_type == "empty string"


def test_reasoning_models_omit_logprobs_and_send_null_fingerprint() -> None:
    payload = _payload("openai/chat/text_reasoning_model.yaml")
    assert "logprobs" not in payload["choices"][0]
    assert payload["system_fingerprint"] is None
    assert check_response("openai.chat", payload).ok


def test_tool_calls_with_finish_reason_stop_is_valid() -> None:
    """The converse of DR-5 does not hold (forced tool_choice gives 'stop')."""
    payload = _payload("openai/chat/tool_call.yaml")
    payload["choices"][0]["finish_reason"] = "stop"
    assert check_response("openai.chat", payload).ok


def test_finish_reason_tool_calls_without_tool_calls_fails() -> None:
    for variant in ("absent", "null", "empty"):
        payload = _payload("openai/chat/tool_call.yaml")
        message = payload["choices"][0]["message"]
        if variant == "absent":
            del message["tool_calls"]
        else:
            message["tool_calls"] = None if variant == "null" else []
        error = _raises("openai.chat", payload)
        assert (error.path, error.rule_id) == ("choices[0].message.tool_calls", "DR-5")
        assert error.actual_type == {"absent": "absent", "null": "null", "empty": "empty array"}[variant]


def test_gemini_proto3_omissions_are_not_drift() -> None:
    payload = _payload("gemini/generate_content/max_tokens_no_parts.yaml")
    assert "parts" not in payload["candidates"][0]["content"]
    assert check_response("gemini.generate_content", payload).ok
    payload = _payload("gemini/generate_content/function_call.yaml")
    candidate = payload["candidates"][0]
    for key in ("index", "finishReason", "finishMessage"):
        del candidate[key]
    del payload["usageMetadata"]["promptTokensDetails"]
    assert check_response("gemini.generate_content", payload).ok
    payload["candidates"][0]["content"]["parts"][0]["functionCall"]["name"] = None
    assert _raises("gemini.generate_content", payload).path == "candidates[0].content.parts[0].functionCall.name"


def test_anthropic_stop_reason_is_null_only_in_message_start() -> None:
    """response_shapes.md §3: stop_reason is null only in the stream's message_start, so a
    response body with it null (or without it) is drift; message_start itself passes."""
    for change in ("null", "absent"):
        payload = _payload("anthropic/messages/tool_use.yaml")
        if change == "null":
            payload["stop_reason"] = None
        else:
            del payload["stop_reason"]
        error = _raises("anthropic.messages", payload)
        assert (error.rule_id, error.path, error.actual_type) == ("DR-2", "stop_reason", change)
    events = _events("anthropic/messages/stream_text.yaml")
    start = json.loads(events[0].data)
    assert start["type"] == "message_start" and start["message"]["stop_reason"] is None
    assert check_stream("anthropic.messages", events).ok


_GEMINI = "gemini.generate_content"


def _rename_key(container: dict[str, Any], old: str, new: str) -> None:
    container[new] = container.pop(old)


@pytest.mark.parametrize(
    ("location", "rename", "path"),
    [
        ("function_call.yaml", lambda p: _rename_key(p, "candidates", "responseCandidates"), "candidates"),
        ("function_call.yaml", lambda p: _rename_key(p["candidates"][0], "content", "body"), "candidates[*].content"),
        ("function_call.yaml", lambda p: _rename_key(p["candidates"][0]["content"], "parts", "items"), "candidates[*].content.parts"),
        ("function_call.yaml", lambda p: _rename_key(p["candidates"][0]["content"]["parts"][0], "functionCall", "function_call"),
         "candidates[0].content.parts[0]"),
        # the thought summary beside it does not count: thoughts are not candidate tokens
        ("thinking_function_call.yaml", lambda p: _rename_key(p["candidates"][0]["content"]["parts"][1], "functionCall", "function_call"),
         "candidates[0].content.parts[1]"),
        ("function_call.yaml", lambda p: p.clear(), "candidates"),
    ],
    ids=["candidates", "content", "parts", "functionCall", "functionCall-beside-a-thought", "empty-object"],
)
def test_gemini_renames_are_dr5_drift(location: str, rename: Any, path: str) -> None:
    """Every Gemini field is optional (proto3), so these renames used to pass with notices (or,
    for ``{}``, none); the DR-5 invariants of response_shapes.md §4 catch them."""
    payload = _payload(f"gemini/generate_content/{location}")
    rename(payload)
    error = _raises(_GEMINI, payload)
    assert (error.rule_id, error.path) == ("DR-5", path), error
    if path.endswith("]"):
        assert "function_call" in (error.actual or "")  # names what it found instead


def test_gemini_legitimately_empty_answers_pass() -> None:
    """The invariants never cry wolf on the empty answers Gemini really sends."""
    blocked = _payload("gemini/generate_content/blocked_prompt.yaml")
    assert "candidates" not in blocked and check_response(_GEMINI, blocked).ok
    assert check_response(_GEMINI, _payload("gemini/generate_content/max_tokens_no_parts.yaml")).ok
    # STOP with no parts and no candidate tokens: gemini-2.5-flash-lite after a tool result
    # (BerriAI/litellm#24442, googleapis/python-genai#2667)
    empty_stop = {
        "candidates": [{"content": {"role": "model"}, "finishReason": "STOP", "index": 0}],
        "usageMetadata": {"promptTokenCount": 3130, "totalTokenCount": 3130, "promptTokensDetails": [{"modality": "TEXT", "tokenCount": 3130}]},
        "modelVersion": "gemini-2.5-flash-lite",
        "responseId": "8ZfBaYu9LarVz7IPlJG7gQU",
    }
    assert check_response(_GEMINI, empty_stop).ok
    thoughts_only = copy.deepcopy(empty_stop)
    thoughts_only["candidates"][0]["content"]["parts"] = [{"text": "Thinking...", "thought": True}]
    assert check_response(_GEMINI, thoughts_only).ok
    # content cleared by a safety stop after tokens were generated; a new finish reason likewise
    for reason in ("SAFETY", "RECITATION", "MALFORMED_FUNCTION_CALL", "NO_IMAGE", "SC_NEW_REASON"):
        cleared = _payload("gemini/generate_content/function_call.yaml")
        cleared["candidates"][0]["finishReason"] = reason
        del cleared["candidates"][0]["content"]
        assert check_response(_GEMINI, cleared).ok, reason
    # several candidates: the token count is their sum, so one empty STOP beside another is fine
    two = _payload("gemini/generate_content/function_call.yaml")
    two["candidates"].append({"content": {"role": "model"}, "finishReason": "STOP", "index": 1})
    del two["candidates"][0]["content"]["parts"]
    assert check_response(_GEMINI, two).ok
    # a brand-new part type beside a known one is additive
    added = _payload("gemini/generate_content/function_call.yaml")
    added["candidates"][0]["content"]["parts"].append({"sc_new_part": {"x": 1}})
    report = check_response(_GEMINI, added)
    assert report.ok and report.notices_of("unknown_variant")


def test_gemini_streams_are_judged_whole() -> None:
    """Stream chunks are partial (parts in early chunks, the finish reason in the last), so the
    Gemini invariants read the whole stream."""
    events = _events("gemini/generate_content/stream_function_call.yaml", 1)
    assert check_stream(_GEMINI, events).ok
    final = json.loads(events[-1].data)
    del final["candidates"][0]["content"]  # the last chunk carries no parts of its own
    assert check_stream(_GEMINI, [*events[:-1], SSEEvent(json.dumps(final), None)]).ok
    assert check_stream(_GEMINI, []).ok  # nothing arrived: no candidates to expect
    renamed = []
    for event in events:
        data = json.loads(event.data)
        data["responseCandidates"] = data.pop("candidates")
        renamed.append(SSEEvent(json.dumps(data), None))
    with pytest.raises(SchemaDriftError) as caught:
        check_stream(_GEMINI, renamed)
    assert (caught.value.rule_id, caught.value.path) == ("DR-5", "events[*].data.candidates")
    call = _events("gemini/generate_content/stream_function_call.yaml", 0)
    data = json.loads(call[0].data)
    _rename_key(data["candidates"][0]["content"]["parts"][0], "functionCall", "function_call")
    with pytest.raises(SchemaDriftError) as caught:
        check_stream(_GEMINI, [SSEEvent(json.dumps(data), None)])
    assert (caught.value.rule_id, caught.value.path) == ("DR-5", "events[0].data.candidates[0].content.parts[0]")
    # an empty STOP stream (no candidate tokens) passes
    data = json.loads(call[0].data)
    del data["candidates"][0]["content"]["parts"]
    del data["usageMetadata"]["candidatesTokenCount"]
    assert check_stream(_GEMINI, [SSEEvent(json.dumps(data), None)]).ok


def test_cloudflare_object_content_and_missing_finish_reason_are_not_drift() -> None:
    payload = _payload("cloudflare/chat/json_schema_object_content.yaml")
    assert isinstance(payload["choices"][0]["message"]["content"], dict)
    assert check_response("cloudflare.chat", payload).ok
    events = _events("cloudflare/chat/stream_text.yaml")
    assert "finish_reason" not in json.loads(events[0].data)["choices"][0]
    assert check_stream("cloudflare.chat", events).ok
    # the same object content is drift for OpenAI, whose content is a string
    openai = _payload("openai/chat/tool_call.yaml", 1)
    openai["choices"][0]["message"]["content"] = {"title": "x"}
    assert _raises("openai.chat", openai).path == "choices[0].message.content"


def test_unread_fields_report_notices_not_errors() -> None:
    payload = _payload("openai/responses/function_call_reasoning.yaml")
    payload["temperature"] = "hot"  # documented, no SDK relies on it
    payload["brand_new"] = 1
    report = check_response("openai.responses", payload)
    assert report.ok
    kinds = {(n.kind, n.path) for n in report.notices}
    assert ("unread_mismatch", "temperature") in kinds
    assert ("unknown_field", "brand_new") in kinds


def test_unknown_enum_values_are_notices() -> None:
    payload = _payload("groq/chat/tool_call.yaml")
    payload["service_tier"] = "turbo"
    report = check_response("groq.chat", payload)
    assert report.ok
    assert [n.path for n in report.notices_of("unknown_value")] == ["service_tier"]


def test_integral_floats_are_integers_but_booleans_are_not() -> None:
    payload = _payload("anthropic/messages/tool_use.yaml")
    payload["usage"]["input_tokens"] = 394.0
    assert check_response("anthropic.messages", payload).ok
    payload["usage"]["input_tokens"] = True
    assert _raises("anthropic.messages", payload).actual_type == "boolean"
    payload["usage"]["input_tokens"] = 1.5
    assert _raises("anthropic.messages", payload).actual_type == "number"


# -- streams --------------------------------------------------------------------------------------------


def _anthropic_tool_stream(block_type: str = "tool_use") -> list[SSEEvent]:
    events = [
        ("message_start", {"type": "message_start", "message": {"id": "msg_1", "type": "message", "role": "assistant", "model": "m", "content": [], "stop_reason": None, "usage": {"input_tokens": 5, "output_tokens": 1}}}),
        ("content_block_start", {"type": "content_block_start", "index": 0, "content_block": {"type": block_type, "id": "toolu_1", "name": "weather", "input": {}}}),
        ("content_block_delta", {"type": "content_block_delta", "index": 0, "delta": {"type": "input_json_delta", "partial_json": "{}"}}),
        ("content_block_stop", {"type": "content_block_stop", "index": 0}),
        ("message_delta", {"type": "message_delta", "delta": {"stop_reason": "tool_use"}, "usage": {"output_tokens": 9}}),
        ("message_stop", {"type": "message_stop"}),
    ]
    return [SSEEvent.of(data, name) for name, data in events]


def test_anthropic_stream_rename_of_tool_use_fails_at_content_block_type() -> None:
    assert check_stream("anthropic.messages", _anthropic_tool_stream()).ok
    events = _anthropic_tool_stream("function_call")
    with pytest.raises(SchemaDriftError) as caught:
        check_stream("anthropic.messages", events)
    assert caught.value.path == "events[1].data.content_block.type"
    assert (caught.value.rule_id, caught.value.actual) == ("DR-5", "'function_call'")


def test_named_events_must_carry_their_type() -> None:
    events = _events("anthropic/messages/stream_text.yaml")
    events[2] = SSEEvent(events[2].data, None)  # the SDK drops events without a name
    with pytest.raises(SchemaDriftError) as caught:
        check_stream("anthropic.messages", events)
    assert (caught.value.path, caught.value.actual_type) == ("events[2].event", "absent")
    events[2] = SSEEvent(events[2].data, "content_block_stop")
    with pytest.raises(SchemaDriftError, match=r"events\[2\]\.event"):
        check_stream("anthropic.messages", events)


def test_stream_terminators_and_invalid_data() -> None:
    events = _events("openai/chat/stream_tool_call.yaml")
    assert events[-1].data == "[DONE]"
    unterminated = check_stream("openai.chat", events[:-1])
    assert [n.kind for n in unterminated.notices] == ["stream_unterminated"]
    trailing = check_stream("openai.chat", [*events, SSEEvent("{not json")])
    assert [n.kind for n in trailing.notices] == ["after_terminator"]
    with pytest.raises(SchemaDriftError) as caught:
        check_stream("openai.chat", [SSEEvent("{not json"), *events])
    assert (caught.value.path, caught.value.actual_type) == ("events[0].data", "invalid JSON text")


def test_stream_text_and_parsed_events_agree() -> None:
    raw = load_cassette("gemini/generate_content/stream_code_execution.yaml").interactions[0].response_body
    assert "\r\n" in raw
    assert validate_stream("gemini.generate_content", raw) == validate_stream("gemini.generate_content", _events("gemini/generate_content/stream_code_execution.yaml"))


def test_openai_stream_finish_reason_needs_a_tool_call_fragment() -> None:
    events = _events("groq/chat/stream_tool_call.yaml")
    without = [e for e in events if "tool_calls\":[" not in e.data]
    with pytest.raises(SchemaDriftError) as caught:
        check_stream("groq.chat", without)
    assert caught.value.rule_id == "DR-5"
    assert paths_match(caught.value.path, "events[*].data.choices[*].delta.tool_calls")


# -- errors, inputs the validator refuses ----------------------------------------------------------------


def test_errors_survive_pickling_and_read_well() -> None:
    error = SchemaDriftError("anthropic", "anthropic.messages", "content[3].id", "string", "absent", "DR-3")
    copy_ = pickle.loads(pickle.dumps(error))
    assert copy_.as_dict() == error.as_dict()
    assert str(error) == "anthropic.messages: DR-3 drift at content[3].id: expected string, got absent"


def test_unknown_api_is_a_clear_caller_error() -> None:
    with pytest.raises(ValueError, match=r"known: openai\.chat"):
        check_response("openai.chats", {})


def test_raw_text_that_is_not_json_is_dr6_drift() -> None:
    for text in ("{", b"\xff\xfe", "NaN", "[" * 100_000):
        with pytest.raises(SchemaDriftError) as caught:
            check_response_text("openai.chat", text)
        assert caught.value.rule_id == "DR-6"
    assert check_response_text("openai.chat", json.dumps(_payload("openai/chat/tool_call.yaml"))).ok


def test_non_json_python_values_are_drift_not_crashes() -> None:
    cyclic: dict[str, Any] = {}
    cyclic["message"] = cyclic
    for value in ({1, 2}, b"bytes", float("nan"), object(), {1: "int key"}, [cyclic], {"choices": [cyclic]}):
        report = validate_response("openai.chat", value)
        assert not report.ok
    payload = _payload("openai/chat/tool_call.yaml")
    payload["usage"]["prompt_tokens"] = float("inf")
    assert _raises("openai.chat", payload).rule_id == "DR-6"
    payload = _payload("openai/chat/tool_call.yaml")
    payload[7] = "int key"  # type: ignore[index]
    assert _raises("openai.chat", payload).rule_id == "DR-6"


def _set_at(payload: Any, path: tuple[Any, ...], value: Any) -> None:
    node = payload
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value


@pytest.mark.parametrize("api", API_IDS)
def test_integers_too_long_to_print_are_described_never_raised(api: str) -> None:
    """DR-6: ``repr(10**5000)`` raises ValueError (CPython's 4300-digit limit), so a message
    quoting such a value used to crash the validator (an ``id`` or ``finish_reason`` of 10**5000
    raised ValueError). At every field of a recorded response, as a value and as a key, it is
    now drift or a notice, and every error and notice renders."""
    huge = HUGE_INTEGERS[0]
    payload = recorded_responses(api, streams=False)[0].payload()
    sites = [site for site in response_sites(api, payload) if isinstance(site, FieldSite)]
    assert sites
    for site in sites:
        for value in (huge, {huge: "key"}, [huge]):
            mutated = copy.deepcopy(payload)
            _set_at(mutated, site.path, value)
            report = validate_response(api, mutated)
            for found in (*report.errors, *report.notices):
                assert str(found)  # rendering never raises either
            if site.field.reads and "integer" not in accepted_types(site.field.shape) and not isinstance(value, (dict, list)):
                assert report.errors, site.path
                assert "<integer of about 5001 digits>" in str(report.errors[0])
    events = [SSEEvent('{"type": ' + "1" * 5000 + "}", None)]
    with pytest.raises(SchemaDriftError):  # valid JSON text Python's json refuses (ValueError)
        check_stream(api, events)


def test_describing_a_value_never_raises() -> None:
    class LoudStr(str):
        def __repr__(self) -> str:
            raise RuntimeError("repr")

    class LoudInt(int):
        def __repr__(self) -> str:
            raise RuntimeError("repr")

    class LoudDict(dict):  # type: ignore[type-arg]
        def __len__(self) -> int:
            raise RuntimeError("len")

    for value in (*HUGE_INTEGERS, LoudStr("x"), LoudInt(3), LoudDict(a=1), object(), float("nan"), b"\xff", {1, 2}):
        assert short_repr(value)
        assert describe_type(value)
        assert bounded_json({"v": value, "list": [value]})
        assert key_text(value)
    assert short_repr(10**5000) == "<integer of about 5001 digits>"
    assert short_repr(-(10**5000)) == "<-integer of about 5001 digits>"
    assert short_repr(2**64) == "18446744073709551616"
    assert bounded_json({10**5000: 10**5000}) == '{"<integer of about 5001 digits>":"<integer of about 5001 digits>"}'


def test_notices_are_capped_for_huge_payloads() -> None:
    payload = _payload("anthropic/messages/tool_use.yaml")
    payload["content"].extend({"type": "fancy", "n": i} for i in range(MAX_NOTICES + 500))
    report = check_response("anthropic.messages", payload)
    assert report.ok
    assert len(report.notices) == MAX_NOTICES
    assert report.notices_dropped == 500


def test_very_deep_and_very_large_payloads() -> None:
    deep: Any = {"end": True}
    for _ in range(200_000):
        deep = [deep]
    for api in ("openai.chat", "anthropic.messages", "gemini.generate_content"):
        assert not validate_response(api, deep).ok
        assert not validate_response(api, {"content": deep, "choices": deep, "candidates": deep}).ok
    payload = _payload("anthropic/messages/tool_use.yaml")
    payload["content"][1]["input"] = {"nested": deep}  # inside a field no one looks into
    assert check_response("anthropic.messages", payload).ok
    wide = _payload("anthropic/messages/tool_use.yaml")
    wide["content"] = [{"type": "text", "text": "x"} for _ in range(100_000)]
    wide["stop_reason"] = "end_turn"
    assert check_response("anthropic.messages", wide).ok


@settings(max_examples=60, deadline=None, suppress_health_check=_QUIET)
@given(hostile_payloads())
def test_fuzz_raises_only_schema_drift_error_and_never_mutates(value: Any) -> None:
    """DR-6 on the reference: arbitrary, deep, large and spliced JSON."""
    before = fingerprint(value)
    for api in ("openai.chat", "openai.responses", "anthropic.messages", "gemini.generate_content", "cloudflare.chat"):
        with contextlib.suppress(SchemaDriftError):
            check_response(api, value)
    assert fingerprint(value) == before


@settings(max_examples=40, deadline=None, suppress_health_check=_QUIET)
@given(hostile_events())
def test_stream_fuzz_raises_only_schema_drift_error(events: tuple[SSEEvent, ...]) -> None:
    for api in ("openai.chat", "openai.responses", "anthropic.messages", "gemini.generate_content"):
        with contextlib.suppress(SchemaDriftError):
            check_stream(api, events)


@settings(max_examples=20, deadline=None, suppress_health_check=_QUIET)
@given(json_values() | deep_json(min_depth=10, max_depth=2_000))
def test_anything_as_a_stream_argument_is_drift_not_a_crash(value: Any) -> None:
    with contextlib.suppress(SchemaDriftError):
        check_stream("openai.chat", value)


def test_an_anthropic_server_tool_result_is_an_object_except_web_search() -> None:
    """anthropic 2.13.0 types a server tool's result block's ``content`` as one object (its result
    or an error object); only web search's may be a list of results. A shape that took a list
    anywhere generated 'valid' responses with ``web_fetch_tool_result.content: []``, and DR-4
    blamed pydantic-ai's AttributeError on one of them (the matrix's pydantic-ai/responses DR-4
    crash) though the response itself was drift."""
    def body(block: dict[str, Any]) -> dict[str, Any]:
        return {"id": "msg_1", "type": "message", "role": "assistant", "model": "claude-sonnet-4-5",
                "content": [{"type": "server_tool_use", "id": "srvtoolu_1", "name": "web_fetch", "input": {}}, block],
                "stop_reason": "end_turn", "stop_sequence": None, "usage": {"input_tokens": 1, "output_tokens": 1}}

    for block_type in ("web_fetch_tool_result", "code_execution_tool_result", "bash_code_execution_tool_result",
                       "text_editor_code_execution_tool_result", "tool_search_tool_result"):
        listed = validate_response("anthropic.messages", body({"type": block_type, "tool_use_id": "srvtoolu_1", "content": []}))
        assert [error.path for error in listed.errors] == ["content[1].content"], (block_type, listed)
        assert validate_response("anthropic.messages", body({"type": block_type, "tool_use_id": "srvtoolu_1",
                                                             "content": {"type": f"{block_type}_error", "error_code": "unavailable"}})).ok
    assert validate_response("anthropic.messages", body({"type": "web_search_tool_result", "tool_use_id": "srvtoolu_1", "content": []})).ok


def _exactly_equal(left: Any, right: Any) -> bool:
    """Equal as DR-6 means it: the same types all the way down (a list is not a tuple, 1 is not
    1.0 or True), dict keys in the same order, NaN equal to NaN."""
    if type(left) is not type(right):
        return False
    if isinstance(left, float) and left != left:
        return right != right
    if isinstance(left, dict):
        return list(map(type, left)) == list(map(type, right)) and list(left) == list(right) and all(
            _exactly_equal(left[key], right[key]) for key in left)
    if isinstance(left, (list, tuple)):
        return len(left) == len(right) and all(_exactly_equal(a, b) for a, b in zip(left, right, strict=True))
    return bool(left == right)


_LEAVES = st.sampled_from([None, True, False, 0, 1, 1.0, 0.0, float("nan"), "a", "", b"a"])
_NEAR_VALUES = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=2) | st.tuples(inner) | st.dictionaries(st.sampled_from(["a", "b", 1, True]), inner, max_size=2),
    max_leaves=6,
)


@settings(max_examples=300, deadline=None, suppress_health_check=_QUIET)
@given(_NEAR_VALUES, _NEAR_VALUES)
def test_fingerprints_are_equal_exactly_when_the_values_are(left: Any, right: Any) -> None:
    """The snapshot DR-6 compares before and after a check: equal exactly when the values are
    (drawn from few leaves, so equal pairs are common), and a deep copy is equal."""
    assert (fingerprint(left) == fingerprint(right)) == _exactly_equal(left, right), (left, right)
    assert fingerprint(copy.deepcopy(left)) == fingerprint(left)


def test_fingerprints_of_cycles_and_deep_nesting() -> None:
    looped: list[Any] = [1]
    looped.append(looped)
    assert fingerprint(looped) == fingerprint(looped) != fingerprint([1, [1]])
    deep: Any = 1
    for _ in range(10_000):
        deep = {"content": deep}
    before = fingerprint(deep)
    inner = deep
    for _ in range(9_999):
        inner = inner["content"]
    inner["content"] = 1.0  # the innermost leaf, 1 made 1.0
    assert fingerprint(deep) != before

"""DR-7, parse fidelity: the kit's reading of recorded responses (written out here by hand from the
cassettes), how differences are worded, and the rule through the plugin."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import yaml  # noqa: F401  (imported outside the in-process runs: PyYAML's C loader breaks when re-imported)

from conftest import SuiteRun
from strictconformance.drift.cassettes import load_cassette
from strictconformance.drift.fidelity import (
    ParsedResponse,
    ParsedToolCall,
    expected_parse,
    parse_differences,
    parsed_problem,
)


def _reading(location: str, index: int = 0) -> ParsedResponse | None:
    response = list(load_cassette(location).responses())[index]
    if response.is_stream:
        return expected_parse(response.api, events=response.events())
    return expected_parse(response.api, response.payload())


def test_anthropic_body_text_and_tool_use() -> None:
    parsed = _reading("anthropic/messages/tool_use.yaml")
    assert parsed is not None
    assert parsed.text.startswith("I'll check the weather in Florence")
    assert parsed.tool_calls == (ParsedToolCall("weather", {"location": "Florence, Italy"}, "toolu_01Dx5rwFL7pCC3c11qUZiSFH"),)
    assert parsed.stop_reason == "tool_use"
    assert parsed.usage == {"input_tokens": 394, "output_tokens": 66}
    assert parsed.sources["tool_calls[0]"] == "content[1]"


def test_anthropic_stream_server_tool_is_not_a_user_tool_call() -> None:
    parsed = _reading("anthropic/messages/stream_server_tool.yaml")
    assert parsed is not None
    assert parsed.tool_calls == ()
    assert parsed.text.endswith("The 20th Fibonacci number is **6765**.")
    assert parsed.stop_reason == "end_turn"


def test_responses_stream_reads_call_id_from_the_final_response() -> None:
    parsed = _reading("openai/responses/stream_function_call.yaml")
    assert parsed is not None
    assert [(call.name, call.id) for call in parsed.tool_calls] == [("weather", "call_4TL7SrUyTg60nSUcfgeWLFXO")]
    assert parsed.tool_calls[0].arguments == {"location": "Florence, Italy"}
    assert parsed.stop_reason == "completed"


def test_responses_custom_tool_call_is_a_tool_call() -> None:
    """A Responses `custom_tool_call` output item is a call the user runs (its input free text): an
    SDK that reads it as a tool call must not be told it invented one."""
    payload = {"id": "resp_1", "object": "response", "status": "completed", "output": [
        {"type": "custom_tool_call", "call_id": "call_1", "name": "grep", "input": "Florence", "id": "ctc_1"},
        {"type": "custom_tool_call", "call_id": "call_2", "name": "calc", "input": "[1, 2]"},
    ]}
    parsed = expected_parse("openai.responses", payload)
    assert parsed is not None
    assert parsed.tool_calls == (ParsedToolCall("grep", "Florence", "call_1"), ParsedToolCall("calc", "[1, 2]", "call_2"))
    assert parsed.sources["tool_calls[1]"] == "output[1]"
    assert parse_differences(parsed, parsed) == []


def test_chat_stream_assembles_tool_call_deltas() -> None:
    parsed = _reading("openai/chat/stream_tool_call.yaml")
    assert parsed is not None
    assert parsed.tool_calls == (ParsedToolCall("weather", {"location": "Florence, Italy"}, "call_9W0PDPMmK2SHo8Ph5qmngr60"),)
    assert parsed.stop_reason == "tool_calls"


def test_gemini_function_call_without_id() -> None:
    parsed = _reading("gemini/generate_content/function_call.yaml")
    assert parsed is not None
    assert parsed.tool_calls == (ParsedToolCall("weather", {"location": "Florence, Italy"}, None),)
    assert parsed.stop_reason == "STOP"


def test_gemini_blocked_prompt_stops_for_its_block_reason() -> None:
    # No candidate: the response stopped because the prompt was blocked (promptFeedback.blockReason,
    # "If set, the prompt was blocked and no candidates are returned"); the AI SDK reads it so.
    parsed = _reading("gemini/generate_content/blocked_prompt.yaml")
    assert parsed == ParsedResponse("", (), "SAFETY", {"input_tokens": 12})


def test_content_that_is_not_text_is_not_judged() -> None:
    assert _reading("cloudflare/chat/json_schema_object_content.yaml") is None


def test_differences_name_the_field_and_the_payload_path() -> None:
    expected = _reading("anthropic/messages/tool_use.yaml")
    assert expected is not None
    wrong = ParsedResponse(expected.text + "{}", (ParsedToolCall("weather", {"location": "Florence"}, "x"), ParsedToolCall("extra", {})))
    differences = parse_differences(expected, wrong)
    assert any(d.startswith("text:") for d in differences)
    assert any(d.startswith("tool_calls[0].id: the SDK read 'x'") and "content[1]" in d for d in differences)
    assert any(d.startswith("tool_calls[0].arguments") for d in differences)
    assert any(d.startswith("tool_calls[1]") and "invented" in d for d in differences)
    assert parse_differences(expected, ParsedResponse(expected.text)) == [
        "tool_calls[0]: the response holds a call of 'weather' at content[1]; the SDK dropped it"]
    # JSON equality: True is not 1
    one = ParsedResponse("", (ParsedToolCall("f", {"a": 1}, "i"),))
    assert parse_differences(one, ParsedResponse("", (ParsedToolCall("f", {"a": True}, "i"),)))
    assert not parse_differences(one, ParsedResponse("", (ParsedToolCall("f", {"a": 1.0}, "i"),)))


@pytest.mark.parametrize(("value", "problem"), [
    (None, None),
    (ParsedResponse("x"), None),
    ("text", "expected None or a strictconformance.drift.ParsedResponse"),
    (ParsedResponse(3), "text is int"),  # type: ignore[arg-type]
    (ParsedResponse("", ({"name": "f"},)), "tool_calls[0] is dict"),  # type: ignore[arg-type]
    (ParsedResponse("", usage={"input_tokens": "3"}), "usage is not a mapping of token counts"),  # type: ignore[dict-item]
])
def test_junk_parses_are_named(value: object, problem: str | None) -> None:
    found = parsed_problem(value)
    assert (found is None) if problem is None else (found is not None and problem in found), found


@pytest.mark.slow
def test_a_faithful_parse_passes_every_drift_rule(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("fidelity_adapters:ParsesFaithfully", "--sc-rule", "DR")
    assert not (run.rules_with("failed") | run.rules_with("error")), run.output
    assert "DR-7" in run.rules_with("passed"), run.output


def test_unknown_block_turned_into_text_fails_dr7_on_the_explicit_case(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("fidelity_adapters:TextifiesUnknownBlocks", "--sc-rule", "DR-7")
    assert run.rules_with("failed") == {"DR-7"}, run.output
    outcomes = {check["nodeid"].split("::")[-1]: check["outcome"] for check in run.report["rules"]["DR-7"]["checks"]}  # type: ignore[index]
    assert outcomes["test_dr_7_seed_unknown_block_is_not_text"] == "failed", outcomes
    assert "fancy_new_block" in run.output


def test_dr7_is_not_covered_without_the_declaration(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_drift:ParentPath", "--sc-rule", "DR-7")
    assert run.outcome("DR-7") == "not covered", run.output


def test_a_parse_that_is_not_one_is_an_adapter_fault(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("fidelity_adapters:ReturnsText", "--sc-rule", "DR-1")
    assert run.rules_with("failed") | run.rules_with("error") == {"DR-1"}, run.output
    assert "DR-1 fault:" in run.output and "expected None or a strictconformance.drift.ParsedResponse" in run.output
    assert {finding["kind"] for finding in run.report["rules"]["DR-1"]["findings"]} == {"fault"}, run.output  # type: ignore[index]

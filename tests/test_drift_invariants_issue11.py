"""Invariants of issue 11 item 4. Chat-family ``finish_reason: tool_calls`` needs a tool call of a KNOWN type: a
response whose every tool call was renamed to an unknown type passed before (the invariant counted
calls of any type), though an SDK has no call it can run. A new call type beside a known one is
additive. A stream whose only start event is renamed is breaking."""

from __future__ import annotations

import pytest

from strictconformance.drift.cassettes import load_cassette
from strictconformance.drift.mutations import ResponseSubject, all_mutations
from strictconformance.drift.validator import validate_response

CHAT_TOOL_CALLS = ["openai/chat/tool_call.yaml", "groq/chat/tool_call.yaml", "cerebras/chat/tool_call.yaml", "cloudflare/chat/tool_call.yaml"]


def _payload(location: str) -> dict:
    return next(r for r in load_cassette(location).responses() if not r.is_stream).payload()


@pytest.mark.parametrize("location", CHAT_TOOL_CALLS)
def test_every_call_renamed_is_dr5_at_the_type(location: str) -> None:
    payload = _payload(location)
    api = load_cassette(location).api
    for call in payload["choices"][0]["message"]["tool_calls"]:
        call["type"] = "function_v2"
    errors = validate_response(api, payload).errors
    assert [(error.rule_id, error.path) for error in errors] == [("DR-5", "choices[0].message.tool_calls[0].type")], errors
    assert "function_v2" in str(errors[0])


def test_a_new_call_type_beside_a_known_one_is_additive() -> None:
    payload = _payload("openai/chat/tool_call.yaml")
    payload["choices"][0]["message"]["tool_calls"].append({"id": "call_x", "type": "sc_new_tool", "sc_new_tool": {"input": "x"}})
    report = validate_response("openai.chat", payload)
    assert not report.errors, report.errors
    assert any(notice.kind == "unknown_variant" for notice in report.notices)


def test_the_rename_mutation_is_labelled_breaking_dr5() -> None:
    subject = ResponseSubject("openai.chat", payload=_payload("openai/chat/tool_call.yaml"))
    renames = [m for m in all_mutations(subject) if m.kind == "rename_discriminator" and "tool_calls" in m.path]
    assert renames, [m.summary() for m in all_mutations(subject)]
    assert all(m.breaking and m.rule_id == "DR-5" for m in renames), [m.summary() for m in renames]


@pytest.mark.parametrize(("location", "start"), [("anthropic/messages/stream_text.yaml", "message_start"),
                                                  ("openai/responses/stream_text.yaml", "response.created")])
def test_renaming_the_only_start_event_is_breaking(location: str, start: str) -> None:
    """A validating client that rejects a stream whose start event was renamed is right: the
    mutation is breaking (DR-5), not additive (it was labelled additive, so DR-4 faulted the client)."""
    response = next(r for r in load_cassette(location).responses() if r.is_stream)
    subject = ResponseSubject(response.api, events=response.events())
    renames = [m for m in all_mutations(subject) if m.kind == "rename_discriminator" and m.path == "events[0].data.type"]
    assert renames and all(m.breaking and m.rule_id == "DR-5" for m in renames), [m.summary() for m in renames]
    assert any(start in m.description for m in renames)

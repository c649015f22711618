"""``Adapter.drift_unread``: response fields an SDK declares it does not read are not mutated by
DR-2/DR-3 (SPEC §5 DR-2: drift in a field the SDK does not read is nothing to detect), the
declaration is checked at start-up against the shipped shapes and DR-7, and it shows in the report.

The kit once reported "missed breaking drift" on fields Effect AI and the Vercel AI SDK never
declare (Responses ``status``/``completed_at``, a function_call item's ``status``, a
``response.created`` event's ``sequence_number``): these tests fail without the declaration."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import pytest

from broken_drift import ReferenceLike
from conftest import SuiteRun
from strictconformance.adapter import AdapterContractError, read_declarations
from strictconformance.drift.cassettes import load_cassette
from strictconformance.drift.mutations import ResponseSubject, candidate_label, mutation_candidates
from strictconformance.drift.paths import format_path
from strictconformance.drift.unread import FIDELITY_PATHS, _walk, parse_unread_path, read_unread
from strictconformance.process.protocol import message_problem

_ALL = ("openai.responses", "anthropic.messages", "gemini.generate_content", "openai.chat")


def _declared(**declared: Any) -> Any:
    bad = type("Bad", (ReferenceLike,), {"drift_apis": _ALL, **declared})
    return read_declarations(bad())


def _refused(unread: Any) -> str:
    with pytest.raises(AdapterContractError) as caught:
        _declared(drift_unread=unread)
    return str(caught.value)


def test_the_declaration_is_read_and_shown_in_the_report_declarations() -> None:
    unread = {"openai.responses": {"completed_at": "sdk.js:1", "output[type=function_call].status": "sdk.js:2",
                                   "events[type=response.created].data.sequence_number": "sdk.js:3"},
              "anthropic.messages": {"usage.cache_creation": "sdk.js:4"}}
    declarations = _declared(drift_unread=unread)
    assert {(field.api, field.path, field.source) for field in declarations.drift_unread} == {
        (api, path, source) for api, fields in unread.items() for path, source in fields.items()}
    assert declarations.as_json()["drift_unread"] == unread
    assert _declared().as_json()["drift_unread"] == {}


@pytest.mark.parametrize(("unread", "words"), [
    ({"nope.chat": {"id": "x"}}, ["drift_unread names unknown APIs ['nope.chat']", "known: openai.chat"]),
    ({"groq.chat": {"id": "x"}}, ["'groq.chat' is not in drift_apis"]),
    ({"openai.responses": {"completed_on": "x"}}, ["'completed_on' is not a field of the shipped openai.responses shape"]),
    ({"openai.responses": {"output[*].nonesuch": "x"}}, ["'nonesuch' is not a field", "at output[*]"]),
    ({"openai.responses": {"output[type=bogus].status": "x"}}, ["'bogus' is not a known variant there"]),
    ({"openai.responses": {"output[1].status": "x"}}, ["names an array position; write [*]"]),
    ({"anthropic.messages": {"events[*].message": "x"}}, ["a stream path starts events[*].data"]),
    ({"anthropic.messages": {"usage.cache_creation": ""}}, ["needs a source, a non-empty string"]),
    ({"anthropic.messages": ["usage"]}, ["drift_unread must map API names to {field path: source}"]),
    # fields DR-7 always reads (text, a tool call's id, name, arguments) and what holds them
    ({"anthropic.messages": {"content[type=text].text": "x"}}, ["DR-7 reads the text from content[type=text].text"]),
    ({"anthropic.messages": {"content": "x"}}, ["DR-7 reads the text", "cannot be declared unread"]),
    ({"openai.responses": {"output[type=function_call].call_id": "x"}}, ["DR-7 reads the tool calls from output[type=function_call].call_id"]),
    ({"openai.responses": {"output[*].arguments": "x"}}, ["DR-7 reads the tool calls"]),
    ({"openai.chat": {"choices[*].message.tool_calls[*].function.name": "x"}}, ["DR-7 reads the tool calls"]),
    ({"gemini.generate_content": {"candidates[*].content.parts[*].text": "x"}}, ["DR-7 reads the text"]),
    ({"anthropic.messages": {"events[type=content_block_delta].data.delta.partial_json": "x"}}, ["DR-7 reads the tool calls"]),
])
def test_a_bad_declaration_is_a_usage_error_naming_the_problem(unread: Any, words: list[str]) -> None:
    message = _refused(unread)
    assert message.startswith("Bad.drift_unread"), message
    for word in words:
        assert word in message, message


def test_every_path_dr7_reads_is_a_field_of_the_shipped_shape() -> None:
    """The table of DR-7's fields is checked like a declaration (a shape change cannot leave it stale)."""
    for api, parts in FIDELITY_PATHS.items():
        for paths in parts.values():
            for path in paths:
                _walk(api, parse_unread_path(path), path)  # raises naming a path that is not a field


def _subject(location: str, *, stream: bool) -> ResponseSubject:
    response = next(r for r in load_cassette(location).responses() if r.is_stream == stream)
    if stream:
        return ResponseSubject(response.api, events=response.events(), source=response.label)
    return ResponseSubject(response.api, payload=response.payload(), source=response.label)


def _breaking_at(subject: ResponseSubject, **kwargs: Any) -> dict[str, set[str]]:
    """Each rule's mutated paths (DR-2..DR-5) among the candidates."""
    out: dict[str, set[str]] = {}
    for candidate in mutation_candidates(subject, **kwargs):
        if candidate.site is None:
            continue
        breaking, rule = candidate_label(subject, candidate)
        if breaking:
            out.setdefault(rule, set()).add(format_path(candidate.site.path))
    return out


@pytest.mark.parametrize(("location", "stream", "api", "path", "gone"), [
    ("openai/responses/function_call_reasoning.yaml", False, "openai.responses", "completed_at", {"completed_at"}),
    ("openai/responses/function_call_reasoning.yaml", False, "openai.responses", "output[type=function_call].status",
     {"output[1].status"}),
    ("openai/responses/stream_function_call.yaml", True, "openai.responses", "events[type=response.created].data.sequence_number",
     {"events[0].data.sequence_number"}),
    ("anthropic/messages/thinking_tool_use.yaml", False, "anthropic.messages", "usage.cache_creation",
     {"usage.cache_creation", "usage.cache_creation.ephemeral_5m_input_tokens", "usage.cache_creation.ephemeral_1h_input_tokens"}),
])
def test_dr2_dr3_mutations_skip_a_declared_field_and_nothing_else(location: str, stream: bool, api: str, path: str,
                                                                   gone: set[str]) -> None:
    subject = _subject(location, stream=stream)
    before = _breaking_at(subject)
    after = _breaking_at(subject, unread=read_unread({api: {path: "x"}}, (api,)))
    mutated_before = before.get("DR-2", set()) | before.get("DR-3", set())
    mutated_after = after.get("DR-2", set()) | after.get("DR-3", set())
    assert gone <= mutated_before, "without the declaration the field is mutated"
    assert mutated_before - mutated_after == gone, "exactly the declared field (and what is inside it) is skipped"
    assert before.get("DR-5") == after.get("DR-5"), "DR-5 (invariants, relations) is unchanged"
    # the same field in other events of the stream is still mutated
    if path.startswith("events[type="):
        assert "events[1].data.sequence_number" in mutated_after


def test_a_variant_declaration_leaves_the_other_variants_fields_alone() -> None:
    subject = _subject("openai/responses/refusal.yaml", stream=False)
    message_status = {p for p in _breaking_at(subject).get("DR-3", set()) if p.endswith("].status")}
    assert message_status, "the refusal's message item has a status the DR-3 mutations change"
    unread = read_unread({"openai.responses": {"output[type=function_call].status": "x"}}, ("openai.responses",))
    assert message_status <= _breaking_at(subject, unread=unread).get("DR-3", set())


def test_dr4_additive_mutations_are_unchanged_inside_a_declared_field() -> None:
    subject = _subject("anthropic/messages/thinking_tool_use.yaml", stream=False)
    unread = read_unread({"anthropic.messages": {"usage.cache_creation": "x"}}, ("anthropic.messages",))
    additive = [(c.kind, c.site) for c in mutation_candidates(subject) if c.kind in ("add_unknown_field", "add_unknown_variant")]
    assert additive == [(c.kind, c.site) for c in mutation_candidates(subject, unread=unread)
                        if c.kind in ("add_unknown_field", "add_unknown_variant")]


def test_the_handshake_schema_takes_the_declaration() -> None:
    started = {"type": "started", "protocol": "strictconformance-process/1",
               "implementation": {"name": "h", "version": "1", "language": "node", "sdk": {}},
               "capabilities": ["check_response"],
               "declarations": {"drift_errors": ["E"], "drift_unread": {"openai.responses": {"status": "x.js:1"}}}}
    assert message_problem(started, "harness") is None
    started["declarations"]["drift_unread"] = {"openai.responses": {"status": ""}}
    assert "drift_unread" in (message_problem(started, "harness") or "")


# -- through the plugin ------------------------------------------------------------------------------------------


def _dr2_paths(run: SuiteRun) -> set[str]:
    assert run.report is not None
    return {f["counterexample"]["mutation"]["path"] for f in run.report["rules"]["DR-2"]["findings"]
            if isinstance(f.get("counterexample"), dict) and "mutation" in f["counterexample"]}


def test_an_ignored_field_fails_dr2_without_the_declaration_and_passes_with_it(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("unread_adapters:IgnoresCacheCreation", "--sc-rule", "DR-2")
    assert run.rules_with("failed") == {"DR-2"}, run.output
    paths = _dr2_paths(run)
    assert paths and all(path.startswith("usage.cache_creation") for path in paths), paths
    declared = run_suite("unread_adapters:DeclaresCacheCreationUnread", "--sc-rule", "DR-2")
    assert declared.rules_with("passed") == {"DR-2"}, declared.output
    assert declared.report is not None
    assert declared.report["adapter"]["drift_unread"] == {
        "anthropic.messages": {"usage.cache_creation": "tests/unread_adapters.py: the check drops errors inside it"}}


def test_a_field_ignored_but_not_declared_still_fails_dr2_on_its_own(run_suite: Callable[..., SuiteRun]) -> None:
    """All of usage ignored, usage.cache_creation declared: DR-2 fails on the other usage fields
    only (the declaration takes away its own field's findings, no other's)."""
    run = run_suite("unread_adapters:IgnoresUsageDeclaresOne", "--sc-rule", "DR-2")
    assert run.rules_with("failed") == {"DR-2"}, run.output
    paths = _dr2_paths(run)
    assert paths and all(path.startswith("usage") and not path.startswith("usage.cache_creation") for path in paths), paths


def test_a_stop_reason_returned_from_a_field_declared_unread_fails_dr7(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("unread_adapters:StopReasonFromUnreadField", "--sc-rule", "DR-7")
    assert run.rules_with("failed") == {"DR-7"}, run.output
    assert run.report is not None
    messages = [f["message"] for f in run.report["rules"]["DR-7"]["findings"]]
    assert any("declares stop_reason of anthropic.messages unread (drift_unread) but returned a stop reason" in m for m in messages), \
        json.dumps(messages)[:2000]

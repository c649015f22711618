"""Streams as state machines (DR-8, DR-9): the lifecycle data, the validator's reading of it, the
lifecycle mutations and their labels, and the judges on adapters that accept a broken stream or
report a cut one (through the plugin too). Also the moves agents depend on: token usage moved into
a nested object (breaking, DR-2/DR-3) and a new stop reason beside tool calls (additive, DR-4;
DR-7 checks the calls stay)."""

from __future__ import annotations

import collections
import functools
import json
from collections.abc import Callable

import pytest

from broken_drift import (
    AcceptsUnopenedIndex,
    IgnoresMovedUsage,
    NoLifecycle,
    ReferenceLike,
    RejectsNewStopReason,
)
from conftest import SuiteRun
from fidelity_adapters import (
    CutStreamMarkedIncomplete,
    CutStreamRaisesApiError,
    CutStreamUnmarked,
    DropsCallsOnNewStopReason,
    ParsesFaithfully,
)
from strictconformance.drift.cassettes import list_cassettes, load_cassette
from strictconformance.drift.lifecycle import (
    LIFECYCLES,
    claimed_by_a_later_event,
    lifecycle_breaches,
)
from strictconformance.drift.mutations import (
    LIFECYCLE_VARIETIES,
    DriftMutation,
    ResponseSubject,
    apply_mutation,
    mutation_candidates,
)
from strictconformance.drift.oracles import DriftChecker, judge_fidelity, judge_mutation
from strictconformance.drift.paths import parse_path
from strictconformance.drift.shapes import API_IDS
from strictconformance.drift.sse import SSEEvent
from strictconformance.drift.validator import stream_document, validate_response, validate_stream


@functools.cache
def _streams() -> tuple[ResponseSubject, ...]:
    return tuple(ResponseSubject(r.api, events=r.events(), source=r.label)
                 for location in list_cassettes() for r in load_cassette(location).responses() if r.is_stream)


@functools.cache
def _lifecycle_mutations() -> tuple[DriftMutation, ...]:
    return tuple(apply_mutation(subject, candidate, choice) for subject in _streams() for candidate in mutation_candidates(subject)
                 if candidate.kind == "break_lifecycle" for choice in candidate.choices)


def _first(family: str, api: str | None = None) -> DriftMutation:
    return next(m for m in _lifecycle_mutations() if m.family == family and (api is None or m.api == api))


def test_every_streaming_api_has_a_lifecycle_with_a_source() -> None:
    assert set(LIFECYCLES) == set(API_IDS)
    for api, lifecycle in LIFECYCLES.items():
        assert lifecycle.api == api
        assert lifecycle.source.startswith("https://"), api
        assert lifecycle.terminal or lifecycle.finish_key, api


def test_every_recorded_stream_follows_its_lifecycle() -> None:
    assert len(_streams()) >= 10
    for subject in _streams():
        assert subject.events is not None
        assert lifecycle_breaches(subject.api, stream_document(subject.api, subject.events)) == [], subject.source


def test_every_variety_is_made_and_the_reference_reports_it_at_its_path() -> None:
    made = collections.Counter(m.family for m in _lifecycle_mutations())
    assert {f"break_lifecycle:{variety}" for variety in LIFECYCLE_VARIETIES} <= set(made), made
    for mutation in _lifecycle_mutations():
        assert mutation.breaking
        assert mutation.rule_id == ("DR-9" if mutation.family.endswith(":truncated") else "DR-8"), mutation.summary()
        assert mutation.subject.events is not None
        errors = validate_stream(mutation.api, mutation.subject.events).errors
        assert errors, mutation.summary()
        assert (errors[0].path, errors[0].rule_id) == (mutation.path, mutation.rule_id), mutation.summary()


def test_a_cut_stream_is_drift_in_every_api() -> None:
    cut = {m.api for m in _lifecycle_mutations() if m.family == "break_lifecycle:truncated"}
    assert cut == {subject.api for subject in _streams()}


@pytest.mark.parametrize(("api", "events", "path"), [
    ("anthropic.messages", [{"type": "message_start", "message": {}}, {"type": "content_block_delta", "index": 3},
                            {"type": "message_stop"}], "events[1].data.index"),
    ("openai.chat", [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "function": {"arguments": "{}"}}]}}]},
                     {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}],
     "events[0].data.choices[0].delta.tool_calls[0].index"),
    ("openai.chat", [{"choices": [{"index": 0, "delta": {"tool_calls": [{"index": 0, "id": "c", "function": {"arguments": "{\"a\""}}]}}]},
                     {"choices": [{"index": 0, "delta": {}, "finish_reason": "tool_calls"}]}],
     "events[0].data.choices[0].delta.tool_calls[0].function.arguments"),
    ("gemini.generate_content", [{"candidates": [{"content": {"parts": [{"text": "hi"}]}}]}], "events"),
    # an output item added as a function call and done as something else: the stream contradicts itself
    ("openai.responses", [{"type": "response.created", "response": {}},
                          {"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call"}},
                          {"type": "response.output_item.done", "output_index": 0, "item": {"type": "tool_call"}},
                          {"type": "response.completed", "response": {}}], "events[2].data.item.type"),
    # function-call argument deltas for a message item; a text delta for a part never added; a
    # text delta for a refusal part
    ("openai.responses", [{"type": "response.created", "response": {}},
                          {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message"}},
                          {"type": "response.function_call_arguments.delta", "output_index": 0, "delta": "{}"},
                          {"type": "response.output_item.done", "output_index": 0, "item": {"type": "message"}},
                          {"type": "response.completed", "response": {}}], "events[2].data.type"),
    ("openai.responses", [{"type": "response.created", "response": {}},
                          {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message"}},
                          {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "hi"},
                          {"type": "response.output_item.done", "output_index": 0, "item": {"type": "message"}},
                          {"type": "response.completed", "response": {}}], "events[2].data.content_index"),
    ("openai.responses", [{"type": "response.created", "response": {}},
                          {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message"}},
                          {"type": "response.content_part.added", "output_index": 0, "content_index": 0, "part": {"type": "refusal"}},
                          {"type": "response.output_text.delta", "output_index": 0, "content_index": 0, "delta": "hi"},
                          {"type": "response.content_part.done", "output_index": 0, "content_index": 0, "part": {"type": "refusal"}},
                          {"type": "response.output_item.done", "output_index": 0, "item": {"type": "message"}},
                          {"type": "response.completed", "response": {}}], "events[3].data.type"),
    # the final snapshot restates a function call as another item; the done item restates an
    # output_text part as another part
    ("openai.responses", [{"type": "response.created", "response": {}},
                          {"type": "response.output_item.added", "output_index": 0, "item": {"type": "function_call"}},
                          {"type": "response.output_item.done", "output_index": 0, "item": {"type": "function_call"}},
                          {"type": "response.completed", "response": {"output": [{"type": "tool_call"}]}}],
     "events[3].data.response.output[0].type"),
    ("openai.responses", [{"type": "response.created", "response": {}},
                          {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message"}},
                          {"type": "response.content_part.added", "output_index": 0, "content_index": 0, "part": {"type": "output_text"}},
                          {"type": "response.content_part.done", "output_index": 0, "content_index": 0, "part": {"type": "output_text"}},
                          {"type": "response.output_item.done", "output_index": 0, "item": {"type": "message", "content": [{"type": "text"}]}},
                          {"type": "response.completed", "response": {}}], "events[4].data.item.content[0].type"),
    # a reasoning item's summary part restated as another part; a summary delta for a part never added
    ("openai.responses", [{"type": "response.created", "response": {}},
                          {"type": "response.output_item.added", "output_index": 0, "item": {"type": "reasoning", "id": "rs_1"}},
                          {"type": "response.reasoning_summary_part.added", "output_index": 0, "summary_index": 0, "part": {"type": "summary_text"}},
                          {"type": "response.reasoning_summary_part.done", "output_index": 0, "summary_index": 0, "part": {"type": "summary_text"}},
                          {"type": "response.output_item.done", "output_index": 0, "item": {"type": "reasoning", "id": "rs_1", "summary": [{"type": "text"}]}},
                          {"type": "response.completed", "response": {}}], "events[4].data.item.summary[0].type"),
    ("openai.responses", [{"type": "response.created", "response": {}},
                          {"type": "response.output_item.added", "output_index": 0, "item": {"type": "reasoning", "id": "rs_1"}},
                          {"type": "response.reasoning_summary_text.delta", "output_index": 0, "summary_index": 0, "delta": "Think"},
                          {"type": "response.output_item.done", "output_index": 0, "item": {"type": "reasoning", "id": "rs_1"}},
                          {"type": "response.completed", "response": {}}], "events[2].data.summary_index"),
])
def test_lifecycle_breaches_of_hand_written_streams(api: str, events: list[dict[str, object]], path: str) -> None:
    """Each stream breaks its lifecycle first at ``path``."""
    document = {"events": [{"event": None, "data": data} for data in events]}
    assert lifecycle_breaches(api, document)[0].path == path


def test_renaming_a_start_or_stop_event_is_breaking_in_every_stream() -> None:
    """Every rename of an event the lifecycle hangs on (Anthropic message_start,
    content_block_start, content_block_stop, message_stop; Responses response.created,
    response.output_item.added/.done, response.completed) is breaking, in every recorded stream."""
    renamed: collections.Counter[str] = collections.Counter()
    for subject in _streams():
        lifecycle = LIFECYCLES[subject.api]
        for candidate in mutation_candidates(subject):
            site = candidate.site
            if candidate.kind != "rename_discriminator" or site is None or len(site.path) != 3:
                continue  # an event's own type (events[i].data), not a block's inside it
            variant = getattr(site, "variant", None)
            if variant not in lifecycle.start_and_stop_events:
                continue
            for choice in candidate.choices:
                mutation = apply_mutation(subject, candidate, choice)
                assert mutation.breaking, mutation.summary()
                renamed[f"{subject.api}:{variant}"] += 1
    recorded = {"anthropic.messages": ("message_start", "content_block_start", "content_block_stop", "message_stop"),
                "openai.responses": ("response.created", "response.output_item.added", "response.output_item.done", "response.completed")}
    for api, events in recorded.items():
        for event in events:
            assert renamed[f"{api}:{event}"], (api, event, renamed)


def test_a_streamed_item_renamed_where_it_is_restated_is_breaking() -> None:
    """Responses restates what it streamed: response.completed holds the whole output, and
    output_item.done its item with its content parts. A kind renamed there, and only there, makes
    the stream contradict itself (the SDK reading the snapshot sees another item than the one
    streamed): breaking (DR-8), at the renamed value, in every recorded Responses stream. It used to
    be additive, an unknown variant of the snapshot's output."""
    restated = collections.Counter[str]()
    for subject in _streams():
        if subject.api != "openai.responses":
            continue
        for candidate in mutation_candidates(subject):
            site = candidate.site
            where = ".".join(str(part) for part in getattr(site, "path", ()))
            if candidate.kind != "rename_discriminator" or not ("response.output" in where or "item.content" in where):
                continue
            mutation = apply_mutation(subject, candidate, candidate.choices[0])
            assert mutation.breaking and mutation.rule_id == "DR-8", mutation.summary()
            restated["output" if "response.output" in where else "content"] += 1
            document = stream_document(mutation.subject.api, mutation.subject.events)
            assert lifecycle_breaches("openai.responses", document)[0].path == mutation.path
    assert restated["output"] >= 2 and restated["content"] >= 1, restated


def test_a_snapshot_item_is_the_one_streamed_with_its_id_whatever_its_position() -> None:
    """Stream positions can have gaps (openai-python keys stream items by output_index and
    documents that "stream indexes can have gaps when a provider emits an empty added event"): the
    final snapshot's items are matched to the streamed ones by id, so a gap is no contradiction
    and a renamed item is one at any position."""
    def stream(final_types: tuple[str, str]) -> dict[str, object]:
        events = [{"type": "response.created", "response": {}},
                  {"type": "response.output_item.added", "output_index": 1, "item": {"type": "reasoning", "id": "rs_1"}},
                  {"type": "response.output_item.done", "output_index": 1, "item": {"type": "reasoning", "id": "rs_1"}},
                  {"type": "response.output_item.added", "output_index": 2, "item": {"type": "function_call", "id": "fc_1"}},
                  {"type": "response.output_item.done", "output_index": 2, "item": {"type": "function_call", "id": "fc_1"}},
                  {"type": "response.completed", "response": {"output": [{"type": final_types[0], "id": "rs_1"},
                                                                          {"type": final_types[1], "id": "fc_1"}]}}]
        return {"events": [{"event": None, "data": data} for data in events]}
    assert lifecycle_breaches("openai.responses", stream(("reasoning", "function_call"))) == []
    renamed = lifecycle_breaches("openai.responses", stream(("reasoning", "tool_call")))
    assert [(b.path, b.actual) for b in renamed] == [("events[5].data.response.output[1].type", "'tool_call'")]


def test_a_restated_item_never_opened_is_not_compared() -> None:
    """Only blocks and parts the stream opened are compared with their restatement: a snapshot
    item at a position no output_item.added opened is the other breaches' business, not a rename."""
    events = [{"type": "response.created", "response": {}},
              {"type": "response.completed", "response": {"output": [{"type": "tool_call", "content": [{"type": "x"}]}]}}]
    assert lifecycle_breaches("openai.responses", {"events": [{"event": None, "data": d} for d in events]}) == []


def test_content_block_start_renamed_is_breaking_for_a_text_block() -> None:
    """It used to be additive where no invariant needed the block (a text block)."""
    subject = next(s for s in _streams() if s.api == "anthropic.messages")
    verdicts = []
    for candidate in mutation_candidates(subject):
        if candidate.kind == "rename_discriminator" and getattr(candidate.site, "variant", None) == "content_block_start":
            verdicts.append(apply_mutation(subject, candidate, candidate.choices[0]))
    assert verdicts and all(m.breaking and m.rule_id in ("DR-5", "DR-8") for m in verdicts), [m.summary() for m in verdicts]


def _verdict(adapter: ReferenceLike, mutation: DriftMutation) -> str:
    return judge_mutation(DriftChecker.from_adapter(adapter), mutation).status


def test_an_sdk_accepting_a_delta_for_an_unopened_index_fails() -> None:
    for api in ("anthropic.messages", "openai.chat", "openai.responses"):
        mutation = _first("break_lifecycle:unknown_index", api)
        assert _verdict(AcceptsUnopenedIndex(), mutation) == "fail", mutation.summary()
        assert _verdict(NoLifecycle(), mutation) == "fail", mutation.summary()
        assert _verdict(ReferenceLike(), mutation) == "pass", mutation.summary()


def test_a_cut_stream_raising_the_documented_error_passes_and_a_reading_without_stop_reason_fails() -> None:
    for subject_api in sorted({m.api for m in _lifecycle_mutations() if m.family == "break_lifecycle:truncated"}):
        mutation = _first("break_lifecycle:truncated", subject_api)
        assert _verdict(CutStreamRaisesApiError(), mutation) == "pass", mutation.summary()
        assert _verdict(CutStreamMarkedIncomplete(), mutation) == "pass", mutation.summary()
        unmarked = judge_mutation(DriftChecker.from_adapter(CutStreamUnmarked()), mutation)
        assert unmarked.status == "fail", mutation.summary()
        assert "not marked incomplete (stop_reason None)" in unmarked.message, unmarked.message


def test_a_stream_carrying_a_provider_error_has_no_lifecycle_breach() -> None:
    events = [SSEEvent('{"type":"message_start","message":{}}', "message_start"),
              SSEEvent('{"type":"error","error":{"type":"overloaded_error","message":"x"}}', "error")]
    assert lifecycle_breaches("anthropic.messages", stream_document("anthropic.messages", events)) == []


@pytest.mark.parametrize("adapter", ["fidelity_adapters:CutStreamRaisesApiError", "fidelity_adapters:CutStreamMarkedIncomplete"])
def test_reporting_a_cut_stream_passes_every_drift_rule(run_suite: Callable[..., SuiteRun], adapter: str) -> None:
    run = run_suite(adapter, "--sc-rule", "DR-8", "--sc-rule", "DR-9")
    assert not (run.rules_with("failed") | run.rules_with("error")), run.output
    assert run.rules_with("passed") == {"DR-8", "DR-9"}, run.output


def test_a_cut_stream_read_without_stop_reason_fails_dr9_on_the_explicit_case(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("fidelity_adapters:CutStreamUnmarked", "--sc-rule", "DR-9")
    assert run.rules_with("failed") == {"DR-9"}, run.output
    outcomes = {check["nodeid"].split("::")[-1]: check["outcome"] for check in run.report["rules"]["DR-9"]["checks"]}  # type: ignore[index]
    assert outcomes["test_dr_9_stream_cut_before_its_stop_reason"] == "failed", outcomes


def test_accepting_an_unopened_index_fails_dr8_on_the_explicit_case(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_drift:AcceptsUnopenedIndex", "--sc-rule", "DR-8")
    assert run.rules_with("failed") == {"DR-8"}, run.output
    outcomes = {check["nodeid"].split("::")[-1]: check["outcome"] for check in run.report["rules"]["DR-8"]["checks"]}  # type: ignore[index]
    assert outcomes["test_dr_8_delta_for_an_index_never_started"] == "failed", outcomes


def test_trusting_the_top_level_types_fails_dr2_on_the_explicit_case(run_suite: Callable[..., SuiteRun]) -> None:
    """The explicit retype of the top-level field holding the text and tool calls meets an SDK that
    trusts the body's top level on every run, whatever the fuzz draws; the reference passes it."""
    run = run_suite("broken_drift:TrustsTopLevelTypes", "--sc-rule", "DR-2")
    assert run.rules_with("failed") == {"DR-2"}, run.output
    outcomes = {check["nodeid"].split("::")[-1]: check["outcome"] for check in run.report["rules"]["DR-2"]["checks"]}  # type: ignore[index]
    assert outcomes["test_dr_2_content_holders_retyped"] == "failed", outcomes
    reference = run_suite("broken_drift:ReferenceLike", "--sc-rule", "DR-2")
    assert reference.rules_with("passed") == {"DR-2"}, reference.output


# -- the moves agents depend on: usage moved, a new stop reason beside tool calls -----------------------


@functools.cache
def _all_subjects() -> tuple[ResponseSubject, ...]:
    return tuple(ResponseSubject(r.api, events=r.events(), source=r.label) if r.is_stream
                 else ResponseSubject(r.api, payload=r.payload(), source=r.label)
                 for location in list_cassettes() for r in load_cassette(location).responses())


def _family(family: str) -> list[DriftMutation]:
    return [apply_mutation(subject, candidate, choice) for subject in _all_subjects() for candidate in mutation_candidates(subject)
            if candidate.family == family for choice in candidate.choices]


def test_moved_usage_is_breaking_at_its_place_in_every_api_that_has_it() -> None:
    moved = _family("move_field:optional_object")
    assert {m.api for m in moved} >= {"openai.chat", "openai.responses", "gemini.generate_content", "groq.chat"}
    for mutation in moved:
        assert mutation.breaking and mutation.rule_id in ("DR-2", "DR-3"), mutation.summary()
        assert mutation.path.rsplit(".", 1)[-1] in ("usage", "usageMetadata"), mutation.summary()
        report = (validate_stream(mutation.api, mutation.subject.events) if mutation.subject.events is not None
                  else validate_response(mutation.api, mutation.subject.payload))
        assert report.errors and report.errors[0].path == mutation.path, mutation.summary()
        assert report.errors[0].actual_type.startswith("absent (moved to metadata_v2."), report.errors[0]
        assert _verdict(IgnoresMovedUsage(), mutation) == "fail", mutation.summary()
        assert _verdict(ReferenceLike(), mutation) == "pass", mutation.summary()


def test_usage_absent_or_beside_an_unrelated_new_object_is_not_drift() -> None:
    payload = {"id": "x", "object": "chat.completion", "created": 1, "model": "m",
               "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "hi"}}]}
    assert not validate_response("openai.chat", payload).errors
    assert not validate_response("openai.chat", {**payload, "sc_new_metadata": {"tokens": 3}}).errors


def test_a_new_stop_reason_beside_tool_calls_is_additive_and_the_calls_stay() -> None:
    changed = _family("new_stop_reason")
    assert {m.api for m in changed} >= {"openai.chat", "anthropic.messages", "gemini.generate_content"}
    for mutation in changed:
        assert not mutation.breaking and mutation.rule_id == "DR-4", mutation.summary()
        assert _verdict(ReferenceLike(), mutation) == "pass", mutation.summary()
        assert _verdict(RejectsNewStopReason(), mutation) == "fail", mutation.summary()
        checker = DriftChecker.from_adapter(DropsCallsOnNewStopReason())
        assert judge_fidelity(checker, mutation.subject).status == "fail", mutation.summary()
        assert judge_fidelity(DriftChecker.from_adapter(ParsesFaithfully()), mutation.subject).status == "pass", mutation.summary()


@pytest.mark.parametrize(("adapter", "rule_id"), [("broken_drift:IgnoresMovedUsage", "DR-2"),
                                                  ("broken_drift:RejectsNewStopReason", "DR-4"),
                                                  ("fidelity_adapters:DropsCallsOnNewStopReason", "DR-7")])
def test_move_families_fail_their_rule_through_the_plugin(run_suite: Callable[..., SuiteRun], adapter: str, rule_id: str) -> None:
    run = run_suite(adapter, "--sc-rule", rule_id)
    assert run.rules_with("failed") == {rule_id}, run.output


def test_every_resplit_of_a_recorded_stream_keeps_its_lifecycle() -> None:
    """Merging a delta into the one before keeps the second's finish marker (a Gemini chunk's
    finishReason): the merged stream still ends, so DR-1's re-split streams are not cut (DR-9)."""
    merged = 0
    for subject in _streams():
        for candidate in mutation_candidates(subject):
            if candidate.kind != "resplit_stream":
                continue
            for choice in candidate.choices:
                mutation = apply_mutation(subject, candidate, choice)
                assert mutation.subject.events is not None
                assert not validate_stream(mutation.api, mutation.subject.events).errors, mutation.summary()
                merged += choice == "merge"
    assert merged


def _indexes(events: tuple[SSEEvent, ...], field: str) -> list[int]:
    out = []
    for event in events:
        try:
            data = json.loads(event.data)
        except ValueError:
            continue
        if isinstance(data, dict) and isinstance(data.get(field), int):
            out.append(data[field])
    return out


#: Snapshot arrays of a stream and the index field by which later events fill them (from the
#: providers' streaming references, written here apart from the kit's lifecycle data).
_FILLED_BY = {("openai.responses", "response.output"): "output_index", ("openai.responses", "item.content"): "content_index",
              ("anthropic.messages", "message.content"): "index"}


def test_an_element_added_to_a_stream_never_takes_a_position_a_later_event_fills() -> None:
    """``response.created`` carries ``response.output: []`` and ``response.output_item.added`` then
    fills position 0 (``output_index``); Anthropic's ``message_start`` and ``content_block_start``
    (``index``) likewise. An element added there would be a second thing at position 0, which an
    accumulating SDK (openai's ``responses.stream``) rightly rejects ("Duplicate response output
    index 0"): not an additive change. Every element the kit adds to a stream array sits at a
    position no later event names; where the array is complete (``response.completed``), it is
    still added."""
    added = filled = 0
    for subject in _streams():
        for candidate in mutation_candidates(subject):
            if candidate.kind != "add_unknown_variant" or candidate.site is None:
                continue
            mutation = apply_mutation(subject, candidate, candidate.choices[0])
            assert mutation.subject.events is not None
            path = parse_path(mutation.path)
            event, position = int(path[1]), path[-1]
            field = _FILLED_BY.get((subject.api, ".".join(str(part) for part in path[3:-1])))
            if field is not None:
                filled += 1
                assert position not in _indexes(mutation.subject.events[event + 1:], field), f"{subject.source}: {mutation.summary()}"
            added += 1
    assert added and filled, (added, filled)


def test_claimed_positions_are_judged_from_the_stream_itself() -> None:
    """The check reads the stream: the same snapshot array is free to grow when no later event
    names the position an element would take."""
    created = {"type": "response.created", "response": {"output": []}}
    added = {"type": "response.output_item.added", "output_index": 0, "item": {"type": "message", "content": []}}
    part = {"type": "response.content_part.added", "output_index": 0, "content_index": 0}
    assert claimed_by_a_later_event("openai.responses", (created, added), ("events", 0, "data", "response", "output"))
    assert not claimed_by_a_later_event("openai.responses", (created,), ("events", 0, "data", "response", "output"))
    assert claimed_by_a_later_event("openai.responses", (created, added, part), ("events", 1, "data", "item", "content"))
    assert not claimed_by_a_later_event("openai.responses", (created, added), ("events", 1, "data", "item", "content"))
    assert not claimed_by_a_later_event("openai.chat", (created, added), ("events", 0, "data", "response", "output"))

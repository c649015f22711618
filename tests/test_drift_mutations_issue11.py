"""Mutations and relations of issue 11 item 4: a field emptied where it is declared non-empty, the
JSON type swaps a Python check misses (``True`` for an integer, ``1`` for a boolean), tool-call
ids unique within a response (chat ``tool_calls[].id``, Anthropic ``tool_use.id``, Responses
``call_id``), usage totals where the API documents them (chat and Responses; Anthropic has no
total), and a Responses stream's ``sequence_number`` typed and increasing. Each is judged by the
reference, labelled right by the mutations, drawn by the strategies under the ``ci`` profile, and
a broken adapter that misses only it fails its rule (and only it) through the plugin."""

from __future__ import annotations

import copy
import re
from collections.abc import Callable
from typing import Any

import pytest

from conftest import SuiteRun
from strictconformance.drift.cassettes import load_cassette
from strictconformance.drift.mutations import (
    DriftMutation,
    ResponseSubject,
    apply_mutation,
    candidate_label,
    mutation_candidates,
)
from strictconformance.drift.shapes import get_shape
from strictconformance.drift.validator import stream_document, validate_response, validate_stream
from strictconformance.strategies.responses import drift_mutations, responses


def _body(location: str, index: int = 0) -> Any:
    return [r for r in load_cassette(location).responses() if not r.is_stream][index].payload()


def _stream(location: str) -> ResponseSubject:
    response = next(r for r in load_cassette(location).responses() if r.is_stream)
    return ResponseSubject(response.api, events=response.events())


def _errors(api: str, payload: Any) -> list[tuple[str, str]]:
    return [(error.rule_id, error.path) for error in validate_response(api, payload).errors]


# -- the reference judges them ---------------------------------------------------------------------


@pytest.mark.parametrize(("location", "array", "copy_at"), [
    ("openai/chat/tool_call.yaml", ("choices", 0, "message", "tool_calls"), "choices[0].message.tool_calls[1].id"),
    ("groq/chat/tool_call.yaml", ("choices", 0, "message", "tool_calls"), "choices[0].message.tool_calls[1].id"),
    ("anthropic/messages/tool_use.yaml", ("content",), None),
    ("openai/responses/function_call_reasoning.yaml", ("output",), None),
])
def test_a_tool_call_id_used_twice_is_dr5_at_the_second(location: str, array: tuple[Any, ...], copy_at: str | None) -> None:
    payload = _body(location)
    api = load_cassette(location).api
    node = payload
    for part in array:
        node = node[part]
    position, call = next((i, e) for i, e in enumerate(node) if e.get("type") in ("function", "tool_use", "function_call"))
    node.append(copy.deepcopy(call))
    key = "call_id" if api == "openai.responses" else "id"
    expected = copy_at or f"{'.'.join(map(str, array))}[{len(node) - 1}].{key}"
    assert _errors(api, payload) == [("DR-5", expected)]
    node[-1][key] = node[-1][key] + "_2"  # another id: no relation broken
    assert _errors(api, payload) == []
    assert position >= 0


@pytest.mark.parametrize(("location", "usage", "total"), [
    ("openai/chat/tool_call.yaml", "usage", "total_tokens"),
    ("cerebras/chat/tool_call.yaml", "usage", "total_tokens"),
    ("openai/responses/refusal.yaml", "usage", "total_tokens"),
])
def test_a_usage_total_that_is_not_the_sum_is_dr5_at_the_total(location: str, usage: str, total: str) -> None:
    payload = _body(location)
    api = load_cassette(location).api
    payload[usage][total] += 1
    assert _errors(api, payload) == [("DR-5", f"{usage}.{total}")]
    error = validate_response(api, payload).errors[0]
    assert str(payload[usage][total] - 1) in error.expected and "+" in error.expected, error


def test_anthropic_has_no_usage_total_to_check() -> None:
    """The Messages API reports input and output tokens and no total: nothing to relate, said in the shape."""
    shape = get_shape("anthropic.messages")
    assert {relation.kind for relation in shape.relations} == {"unique"}
    assert "No usage total" in shape.notes


def test_a_sequence_number_that_does_not_increase_is_dr5_and_one_of_another_type_dr3() -> None:
    subject = _stream("openai/responses/stream_text.yaml")
    assert subject.events is not None
    events = list(subject.events)
    document = stream_document(subject.api, events)

    def with_sequence(index: int, value: Any) -> list[Any]:
        data = copy.deepcopy(document["events"][index]["data"])
        data["sequence_number"] = value
        changed = list(events)
        changed[index] = type(events[index])(__import__("json").dumps(data), events[index].event)
        return changed

    assert [(e.rule_id, e.path) for e in validate_stream(subject.api, with_sequence(3, 2)).errors] == [("DR-5", "events[3].data.sequence_number")]
    for retyped in (True, "3", 3.5, None):
        assert [(e.rule_id, e.path) for e in validate_stream(subject.api, with_sequence(3, retyped)).errors] == \
            [("DR-3", "events[3].data.sequence_number")], retyped


@pytest.mark.parametrize(("path", "value"), [
    (("usage", "prompt_tokens"), True),       # isinstance(True, int)
    (("usage", "prompt_tokens"), "61"),       # lax validation reads it as 61
    (("created",), False),
    (("id",), ""),                              # declared non-empty
    (("choices",), []),                         # declared non-empty
])
def test_type_swaps_and_empties_a_python_check_misses_are_dr2(path: tuple[str, ...], value: Any) -> None:
    payload = _body("openai/chat/tool_call.yaml")
    node = payload
    for part in path[:-1]:
        node = node[part]
    node[path[-1]] = value
    assert _errors("openai.chat", payload) == [("DR-2", ".".join(path))]


def test_one_is_not_true_for_a_boolean() -> None:
    payload = _body("gemini/generate_content/thinking_function_call.yaml")
    part = next(p for p in payload["candidates"][0]["content"]["parts"] if p.get("thought") is True)
    part["thought"] = 1
    assert [rule for rule, _ in _errors("gemini.generate_content", payload)] == ["DR-3"]


# -- the mutations label them ------------------------------------------------------------------------


def _labels(subject: ResponseSubject, kind: str) -> dict[str, tuple[bool, str]]:
    return {apply_mutation(subject, c, c.choices[0]).path: candidate_label(subject, c)
            for c in mutation_candidates(subject) if c.kind == kind}


def test_emptied_fields_are_labelled_by_the_shape() -> None:
    chat = _labels(ResponseSubject("openai.chat", payload=_body("openai/chat/tool_call.yaml")), "empty_field")
    assert chat["id"] == (True, "DR-2")
    assert chat["choices"] == (True, "DR-2")
    assert chat["choices[0].message.tool_calls[0].id"] == (True, "DR-3")
    assert chat["choices[0].message.tool_calls[0].function.name"] == (True, "DR-3")
    assert chat["choices[0].message.tool_calls"] == (True, "DR-5")  # finish_reason tool_calls needs one
    assert "model" not in chat  # empty is neither declared drift nor documented: no label guessed
    anthropic = _labels(ResponseSubject("anthropic.messages", payload=_body("anthropic/messages/tool_use.yaml")), "empty_field")
    assert anthropic["content"] == (True, "DR-5")  # stop_reason tool_use
    end_turn = {"id": "msg_01", "type": "message", "role": "assistant", "model": "claude-sonnet-4-20250514",
                "content": [{"type": "text", "text": "Done."}], "stop_reason": "end_turn", "stop_sequence": None,
                "usage": {"input_tokens": 10, "output_tokens": 2}}
    documented = _labels(ResponseSubject("anthropic.messages", payload=end_turn), "empty_field")
    assert documented["content"] == (False, "DR-4")  # "Sometimes Claude returns an empty response ... end_turn"


def test_type_changes_try_the_near_misses_first() -> None:
    """The swap Python blurs (a bool for an int, an int for a bool) is a family of its own, so the
    strategies reach it as often as any kind; then the numeric string lax validation coerces."""
    subject = ResponseSubject("openai.chat", payload=_body("openai/chat/tool_call.yaml"))
    by_family = {(c.site.path, c.family): c.choices for c in mutation_candidates(subject) if c.kind == "change_type" and c.site is not None}
    assert by_family[(("usage", "prompt_tokens"), "change_type:bool_int")] == (True,)
    assert by_family[(("usage", "prompt_tokens"), "change_type")][0] == "7"
    assert by_family[(("id",), "change_type")][:2] == (7, 0.5)
    assert (("id",), "change_type:bool_int") not in by_family
    gemini = ResponseSubject("gemini.generate_content", payload=_body("gemini/generate_content/thinking_function_call.yaml"))
    thought = next(c.choices for c in mutation_candidates(gemini)
                   if c.family == "change_type:bool_int" and c.site is not None and c.site.path[-1] == "thought")
    assert thought == (1,) and type(thought[0]) is int


def test_every_relation_has_a_breaking_mutation_on_a_recording() -> None:
    found: set[str] = set()
    for location in ("openai/chat/tool_call.yaml", "openai/chat/stream_tool_call.yaml", "anthropic/messages/tool_use.yaml",
                     "openai/responses/function_call_reasoning.yaml", "openai/responses/stream_function_call.yaml"):
        for response in load_cassette(location).responses():
            subject = (ResponseSubject(response.api, events=response.events()) if response.is_stream
                       else ResponseSubject(response.api, payload=response.payload()))
            for candidate in mutation_candidates(subject):
                if candidate.kind == "break_relation":
                    for choice in candidate.choices:
                        mutation = apply_mutation(subject, candidate, choice)
                        assert (mutation.breaking, mutation.rule_id) == (True, "DR-5")
                        found.add(re.findall(r"\(([a-z_.]+): ", mutation.description)[-1])
    assert {"openai.chat.unique_tool_call_ids", "openai.chat.usage_total", "openai.chat.stream.usage_total",
            "anthropic.messages.unique_tool_use_ids", "openai.responses.unique_call_ids", "openai.responses.usage_total",
            "openai.responses.stream.unique_call_ids", "openai.responses.stream.usage_total",
            "openai.responses.stream.sequence_number_increasing"} <= found, found


@pytest.mark.parametrize("api", ["openai.chat", "openai.responses", "anthropic.messages"])
def test_generated_responses_keep_their_relations(api: str) -> None:
    from hypothesis import HealthCheck, given, settings

    @settings(max_examples=25, deadline=None, database=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(responses(api))
    def run(payload: Any) -> None:
        assert validate_response(api, payload).ok, validate_response(api, payload).errors

    run()


# -- the ci profile reaches them: an adapter missing only one fails its rule --------------------------


#: The families each new mutation belongs to, and the rule whose check draws them.
_NEW_FAMILIES = {
    "DR-2": ("empty_field", "change_type:bool_int"),
    "DR-3": ("empty_field", "change_type:bool_int"),
    "DR-5": ("empty_field", "break_relation:unique", "break_relation:sum", "break_relation:increasing"),
}


@pytest.mark.parametrize("rule_id", sorted(_NEW_FAMILIES))
def test_the_ci_profile_draws_every_new_family(rule_id: str) -> None:
    """What the DR-2/3/5 checks draw (the same strategy, every API, the ci profile's examples and
    scale) holds every new family: the strategies spread draws over families, not places."""
    from hypothesis import given, settings

    from strictconformance.profiles import profile_settings

    ci = profile_settings()["ci"]
    seen: set[str] = set()

    @settings(ci, max_examples=ci.max_examples * 2)
    @given(drift_mutations(breaking=True, rule_id=rule_id))
    def run(mutation: DriftMutation) -> None:
        seen.add(mutation.kind if mutation.kind != "break_relation" else "break_relation:" + _relation_kind(mutation))
        if mutation.kind == "change_type" and (type(_changed(mutation)) is bool or type(_changed(mutation)) is int):
            seen.add("change_type:bool_int")

    run()
    assert set(_NEW_FAMILIES[rule_id]) <= seen, seen


def _relation_kind(mutation: DriftMutation) -> str:
    text = mutation.description
    return "unique" if "used twice" in text or "the id" in text else "sum" if "total" in text else "increasing"


def _changed(mutation: DriftMutation) -> Any:
    from strictconformance.drift.paths import parse_path, resolve_path

    document = (stream_document(mutation.api, mutation.subject.events) if mutation.subject.events is not None
                else mutation.subject.payload)
    found = resolve_path(document, parse_path(mutation.path))
    return found[0][1] if found else None


@pytest.mark.parametrize(("adapter", "rules", "shown"), [
    ("broken_drift:EmptyValuesPass", "DR-2,DR-3", "empty_field"),
    ("broken_drift:BoolIsAnInt", "DR-2", "to true"),
    ("broken_drift:DuplicateIdsPass", "DR-5", "used twice"),
    ("broken_drift:UsageTotalUnchecked", "DR-5", "usage_total"),
    ("broken_drift:SequenceUnchecked", "DR-5", "sequence_number"),
])
def test_an_adapter_that_misses_only_it_fails_exactly_its_rule(run_suite: Callable[..., SuiteRun], adapter: str, rules: str,
                                                                shown: str) -> None:
    run = run_suite(adapter, "--sc-rule", rules)
    assert run.rules_with("failed") == set(rules.split(",")), run.output
    assert run.report is not None
    for rule_id in rules.split(","):
        messages = " ".join(finding["message"] for finding in run.report["rules"][rule_id]["findings"])
        assert shown in messages, messages

"""The response strategies themselves: they build valid responses, reach every variant and every
mutation kind, and re-chunked SSE bytes parse to the same events."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from strictconformance.drift import parse_sse
from strictconformance.drift.cassettes import recorded_responses
from strictconformance.drift.mutations import MUTATION_KINDS, DriftMutation, ResponseSubject
from strictconformance.drift.paths import parse_path, resolve_path
from strictconformance.drift.shapes import API_IDS, get_shape
from strictconformance.drift.shapes.model import Arr, Keyed, Tagged
from strictconformance.drift.sse import SSEEvent
from strictconformance.drift.validator import check_response
from strictconformance.strategies.responses import (
    drift_mutations,
    elements,
    recorded_subjects,
    responses,
    sse_chunkings,
)

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]
_FIND = settings(max_examples=1000, database=None, derandomize=True, phases=[Phase.generate], suppress_health_check=_QUIET)


def _top_unions(api: str) -> list[tuple[str, Tagged | Keyed]]:
    """The discriminated arrays directly reachable in a response (content[], output[], parts...)."""
    shape = get_shape(api).response
    out = []
    stack: list[tuple[str, Any]] = [("", shape)]
    while stack:
        where, node = stack.pop()
        for field in getattr(node, "fields", ()):
            target = field.shape
            if isinstance(target, Arr) and isinstance(target.items, (Tagged, Keyed)) and field.reads:
                out.append((f"{where}{field.name}", target.items))
            elif isinstance(target, Arr) and hasattr(target.items, "fields"):
                stack.append((f"{where}{field.name}[*].", target.items))
            elif hasattr(target, "fields"):
                stack.append((f"{where}{field.name}.", target))
    return out


def _variants_in(value: Any, union: Tagged | Keyed) -> set[str]:
    found: set[str] = set()
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(union, Tagged) and node.get(union.discriminator) in union.variants:
                found.add(node[union.discriminator])
            if isinstance(union, Keyed):
                found.update(key for key in union.variants if key in node)
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _variants_reached(api: str, where: str, union: Tagged | Keyed) -> set[str]:
    seen: set[str] = set()

    @settings(max_examples=8 * len(union.variants), derandomize=True, database=None, deadline=None, suppress_health_check=_QUIET)
    @given(elements(api, where))
    def collect(value: Any) -> None:
        seen.update(_variants_in(value, union))

    collect()
    return seen


@pytest.mark.parametrize("api", API_IDS)
def test_every_variant_of_the_main_arrays_is_reached(api: str) -> None:
    unions = _top_unions(api)
    assert unions
    for where, union in unions:
        seen = _variants_reached(api, where, union)
        for variant in set(union.variants) - seen:  # the few a sweep missed: searched for directly
            found = find(elements(api, where), lambda value, u=union, v=variant: v in _variants_in(value, u), settings=_FIND)
            assert variant in _variants_in(found, union)
        # and whole responses do carry such elements
        find(responses(api), lambda value, w=where: bool(_at(value, w)), settings=_FIND)


def _at(value: Any, where: str) -> list[Any]:
    return [item for _, array in resolve_path(value, parse_path(where)) if isinstance(array, list) for item in array]


@pytest.mark.parametrize("api", API_IDS)
def test_generated_responses_pass_the_reference(api: str) -> None:
    @settings(max_examples=20, deadline=None, suppress_health_check=_QUIET, database=None)
    @given(responses(api))
    def run(payload: Any) -> None:
        check_response(api, payload)
        json.dumps(payload)  # plain JSON, no Python-only values

    run()


def test_invariants_hold_by_construction() -> None:
    found = find(
        responses("anthropic.messages"),
        lambda p: p.get("stop_reason") == "tool_use",
        settings=_FIND,
    )
    assert any(block.get("type") == "tool_use" for block in found["content"])
    found = find(responses("openai.chat"), lambda p: any(c.get("finish_reason") == "tool_calls" for c in p["choices"]), settings=_FIND)
    choice = next(c for c in found["choices"] if c["finish_reason"] == "tool_calls")
    assert choice["message"]["tool_calls"]


@pytest.mark.parametrize(
    "broken",
    [
        {"usageMetadata": {"promptTokenCount": 3}},  # no candidates, no block reason
        {"candidates": [{"finishReason": "STOP"}], "usageMetadata": {"candidatesTokenCount": 5}},  # no content
        {"candidates": [{"content": None, "finishReason": "STOP"}], "usageMetadata": {"candidatesTokenCount": 5}},
        {"candidates": [{"content": {"parts": [{"text": "hm", "thought": True}]}, "finishReason": "STOP"}],
         "usageMetadata": {"candidatesTokenCount": 5}},
    ],
)
def test_gemini_invariants_hold_by_construction(broken: dict[str, Any]) -> None:
    """Generated Gemini responses get the candidate, or the part (objects made on the way, never
    a thought), the invariants need."""
    from strictconformance.strategies.responses import _satisfy_invariants

    shape = get_shape("gemini.generate_content")

    @settings(max_examples=10, deadline=None, suppress_health_check=_QUIET, database=None)
    @given(st.data())
    def run(data: st.DataObject) -> None:
        payload = data.draw(_satisfy_invariants(shape, copy.deepcopy(broken)))
        check_response("gemini.generate_content", payload)

    run()


@pytest.mark.parametrize("kind", MUTATION_KINDS)
def test_every_mutation_kind_is_reached(kind: str) -> None:
    mutation: DriftMutation = find(drift_mutations(kinds=[kind]), lambda m: True, settings=_FIND)  # type: ignore[list-item]
    assert mutation.kind == kind


@pytest.mark.parametrize(("breaking", "rule"), [(True, "DR-2"), (True, "DR-3"), (True, "DR-5"), (False, "DR-4"), (False, "DR-1")])
def test_breaking_and_additive_draws_reach_every_rule(breaking: bool, rule: str) -> None:
    found = find(drift_mutations(breaking=breaking), lambda m: m.rule_id == rule, settings=_FIND)
    assert found.breaking is breaking


def test_recorded_subjects_are_fresh_copies() -> None:
    @settings(max_examples=10, deadline=None, database=None, suppress_health_check=_QUIET)
    @given(recorded_subjects("openai.chat", streams=False))
    def run(subject: Any) -> None:
        subject.payload["choices"].clear()  # a test may mutate what it drew

    run()
    for response in recorded_responses("openai.chat", streams=False):
        assert response.payload()["choices"]


@settings(max_examples=40, deadline=None, suppress_health_check=_QUIET, database=None)
@given(recorded_subjects(streams=True).flatmap(lambda s: sse_chunkings(s.events).map(lambda chunks: (s.events, chunks))))
def test_any_chunking_of_the_bytes_parses_to_the_same_events(case: tuple[tuple[SSEEvent, ...], list[bytes]]) -> None:
    events, chunks = case
    assert parse_sse(chunks) == tuple(SSEEvent(e.data, e.event) for e in events)


def test_the_recording_tool_comes_from_the_tool_strategy_deterministically() -> None:
    from strictconformance.record import recording_tool

    first = recording_tool()
    assert recording_tool.__wrapped__() == first  # drawn afresh: the same tool every time
    parameters = first["parameters"]
    assert first["name"].startswith("tool_00_")
    assert first["description"]
    assert len(parameters["properties"]) >= 2
    assert set(parameters["required"]) == set(parameters["properties"])  # strict-ready
    assert parameters["additionalProperties"] is False


def _drawn_mutations(rule_id: str, breaking: bool) -> list[tuple[str, str, str]]:
    from strictconformance.strategies.responses import (
        drift_mutations,
        generated_subjects,
        recorded_subjects,
    )

    base = st.one_of([recorded_subjects(API_IDS), generated_subjects(API_IDS)])
    strategy = drift_mutations(API_IDS, breaking=breaking, rule_id=rule_id, base=base)
    drawn: list[tuple[str, str, str]] = []

    @settings(max_examples=40, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draw(data: st.DataObject) -> None:
        mutation = data.draw(strategy)
        drawn.append((mutation.kind, mutation.path, mutation.description))

    draw()
    return drawn


@pytest.mark.parametrize(("rule_id", "breaking"), [("DR-2", True), ("DR-4", False), ("DR-5", True)])
def test_a_drawn_copy_of_a_recorded_response_reuses_its_candidates(monkeypatch: pytest.MonkeyPatch, rule_id: str, breaking: bool) -> None:
    """A drift check draws a copy of a recorded response, then a mutation of it: the copy's
    candidates (and their labels, each a probe mutation) are the recorded response's, computed when
    the strategy was built, not again per example (a fifth of the drift checks' CPU). The draws are
    the ones computing them per copy makes."""
    from strictconformance.strategies import responses as module

    computed = []
    original = module.mutation_candidates

    def counting(subject: ResponseSubject, **kwargs: Any) -> Any:
        computed.append(subject.source)
        return original(subject, **kwargs)

    monkeypatch.setattr(module, "mutation_candidates", counting)
    reused = _drawn_mutations(rule_id, breaking)  # builds the strategy and its recorded candidates
    computed.clear()
    assert _drawn_mutations(rule_id, breaking) == reused
    assert any(kind for kind, _, _ in reused)
    assert [source for source in computed if source != "generated"] == [], "a recorded response's candidates computed per example"
    monkeypatch.setattr(module, "_is_recorded_copy", lambda subject: False)
    assert _drawn_mutations(rule_id, breaking) == reused

"""Mutations of every shipped response: breaking ones caught at their path, additive ones pass.

The sweep applies every mutation candidate of every recorded response (first choice each) and
checks the reference validator against the label; a second implementation (the Draft 2020-12
export, run by ``jsonschema``) must agree on validity for every one of them.
"""

from __future__ import annotations

import collections
from collections.abc import Iterator
from functools import cache

import jsonschema
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strictconformance.drift import SchemaDriftError, check_response, check_stream, paths_match
from strictconformance.drift.cassettes import recorded_responses
from strictconformance.drift.errors import DriftReport
from strictconformance.drift.jsonschema_export import response_json_schema, stream_json_schema
from strictconformance.drift.mutations import (
    MUTATION_KINDS,
    DriftMutation,
    ResponseSubject,
    all_mutations,
    apply_mutation,
    candidate_label,
    mutation_candidates,
)
from strictconformance.drift.paths import format_path
from strictconformance.drift.shapes import API_IDS, get_shape
from strictconformance.drift.validator import (
    stream_document,
    validate_response,
    validate_stream,
    violated_relations,
)
from strictconformance.strategies.responses import drift_mutations, responses

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]


def _subjects() -> Iterator[tuple[str, ResponseSubject]]:
    for response in recorded_responses():
        if response.is_stream:
            yield response.label, ResponseSubject(response.api, events=response.events())
        else:
            yield response.label, ResponseSubject(response.api, payload=response.payload())


@cache
def _sweep() -> tuple[tuple[str, DriftMutation], ...]:
    return tuple((label, mutation) for label, subject in _subjects() for mutation in all_mutations(subject))


def _report(subject: ResponseSubject) -> DriftReport:
    if subject.events is not None:
        return validate_stream(subject.api, subject.events)
    return validate_response(subject.api, subject.payload)


def test_sweep_covers_every_kind_and_rule() -> None:
    kinds = collections.Counter(m.kind for _, m in _sweep())
    rules = collections.Counter((m.rule_id, m.breaking) for _, m in _sweep())
    assert set(kinds) == set(MUTATION_KINDS)
    assert {("DR-2", True), ("DR-3", True), ("DR-5", True), ("DR-4", False), ("DR-1", False)} <= set(rules)
    apis = {m.api for _, m in _sweep() if m.breaking}
    assert apis == set(API_IDS)


def test_every_breaking_mutation_is_caught_at_its_path_with_its_rule() -> None:
    misses = []
    for label, mutation in _sweep():
        if not mutation.breaking:
            continue
        report = _report(mutation.subject)
        first = report.errors[0] if report.errors else None
        if first is None or not paths_match(first.path, mutation.path) or first.rule_id != mutation.rule_id:
            misses.append(f"{label}: {mutation.description} -> {first}")
    assert not misses, "\n".join(misses[:20])


def test_every_additive_mutation_passes() -> None:
    cried_wolf = []
    for label, mutation in _sweep():
        if mutation.breaking:
            continue
        report = _report(mutation.subject)
        if report.errors:
            cried_wolf.append(f"{label}: {mutation.description} -> {report.errors[0]}")
    assert not cried_wolf, "\n".join(cried_wolf[:20])


def test_gemini_renames_have_catching_mutations() -> None:
    """Each Gemini DR-5 invariant has mutations it alone catches: candidates, content or parts
    dropped (what a rename leaves), a part's functionCall renamed; bodies and streams."""
    found = {(label.split("#")[0].rsplit("/", 1)[-1], m.kind, m.path) for label, m in _sweep()
             if m.api == "gemini.generate_content" and m.breaking and m.rule_id == "DR-5"}
    for expected in [
        ("function_call.yaml", "drop_field", "candidates"),
        ("function_call.yaml", "drop_field", "candidates[0].content"),
        ("function_call.yaml", "drop_field", "candidates[0].content.parts"),
        ("function_call.yaml", "rename_discriminator", "candidates[0].content.parts[0]"),
        ("thinking_function_call.yaml", "rename_discriminator", "candidates[0].content.parts[1]"),
        ("stream_function_call.yaml", "drop_field", "events[0].data.candidates"),
        ("stream_function_call.yaml", "rename_discriminator", "events[0].data.candidates[0].content.parts[0]"),
    ]:
        assert expected in found, (expected, sorted(found))
    # renaming the thought summary beside the call, or a part where another carries the output, stays additive
    additive = {(label, m.path) for label, m in _sweep()
                if m.api == "gemini.generate_content" and m.kind == "rename_discriminator" and not m.breaking}
    assert ("gemini/generate_content/thinking_function_call.yaml#0", "candidates[0].content.parts[0]") in additive


def test_mutations_never_touch_the_original() -> None:
    label, subject = next((label, s) for label, s in _subjects() if label.startswith("anthropic/messages/tool_use"))
    before = repr(subject.payload)
    for mutation in all_mutations(subject):
        assert mutation.original is subject
    assert repr(subject.payload) == before, label


def test_the_json_schema_export_agrees_with_the_validator_everywhere() -> None:
    """An independent implementation: Draft 2020-12 validity == no reference error."""
    validators = {
        api: (jsonschema.Draft202012Validator(response_json_schema(api)), jsonschema.Draft202012Validator(stream_json_schema(api)))
        for api in API_IDS
    }
    disagreements = []
    # every recorded response, and up to two mutations per response, kind and label (jsonschema
    # takes milliseconds per payload; the full sweep is checked against the labels above)
    taken: collections.Counter[tuple[str, str, bool]] = collections.Counter()
    sample = []
    for label, mutation in _sweep():
        key = (label, mutation.kind, mutation.breaking)
        if taken[key] < 2:
            taken[key] += 1
            sample.append((label, mutation.subject))
    subjects = [*_subjects(), *sample]
    for label, subject in subjects:
        payload_validator, stream_validator = validators[subject.api]
        if subject.events is not None:
            theirs = stream_validator.is_valid(stream_document(subject.api, subject.events))
        else:
            theirs = payload_validator.is_valid(subject.payload)
        if theirs != _ok_but_relations(subject):
            disagreements.append(label)
    assert not disagreements, disagreements[:10]


def _ok_but_relations(subject: ResponseSubject) -> bool:
    """The reference's verdict without its relation breaches (unique ids, totals, increasing
    counters) and its lifecycle breaches (DR-8, DR-9: the events' order), which Draft 2020-12
    cannot express and the export leaves out."""
    shape = get_shape(subject.api)
    if subject.events is not None:
        breaches = violated_relations(shape.stream.relations, stream_document(subject.api, subject.events))
    else:
        breaches = violated_relations(shape.relations, subject.payload)
    relation_paths = {format_path(breach.path) for breach in breaches}
    return not [error for error in _report(subject).errors
                if not (error.rule_id == "DR-5" and error.path in relation_paths) and error.rule_id not in ("DR-8", "DR-9")]


@pytest.mark.parametrize("api", API_IDS)
def test_generated_responses_pass_and_their_mutations_are_labelled_right(api: str) -> None:
    validator = jsonschema.Draft202012Validator(response_json_schema(api))

    @settings(max_examples=15, deadline=None, suppress_health_check=_QUIET, database=None)
    @given(drift_mutations(api, base=responses(api).map(lambda p: ResponseSubject(api, payload=p))))
    def run(mutation: DriftMutation) -> None:
        if mutation.original.source is not None:
            return  # a recorded stand-in: the generated body admits no mutation of the family drawn (judged by the sweep)
        assert _report(mutation.original).ok
        assert validator.is_valid(mutation.original.payload)
        report = _report(mutation.subject)
        if mutation.breaking:
            assert report.errors, mutation.description
            assert paths_match(report.errors[0].path, mutation.path), (mutation.description, report.errors[0])
        else:
            assert report.ok, (mutation.description, report.errors)
        assert validator.is_valid(mutation.subject.payload) == _ok_but_relations(mutation.subject)

    run()


@settings(max_examples=40, deadline=None, suppress_health_check=_QUIET, database=None)
@given(st.deferred(drift_mutations))  # built when the test runs, not when each worker collects it (1.6 s)
def test_any_choice_of_any_candidate_is_labelled_right(mutation: DriftMutation) -> None:
    call = check_stream if mutation.subject.is_stream else check_response
    argument = mutation.subject.events if mutation.subject.is_stream else mutation.subject.payload
    if mutation.breaking:
        with pytest.raises(SchemaDriftError) as caught:
            call(mutation.api, argument)  # type: ignore[operator]
        assert paths_match(caught.value.path, mutation.path)
        assert caught.value.rule_id == mutation.rule_id
    else:
        call(mutation.api, argument)  # type: ignore[operator]


def test_candidate_labels_agree_with_every_choice_applied() -> None:
    """candidate_label predicts (breaking, rule) without applying; every choice must agree with it."""
    checked = 0
    for label, subject in _subjects():
        for candidate in mutation_candidates(subject):
            expected = candidate_label(subject, candidate)
            for choice in candidate.choices:
                mutation = apply_mutation(subject, candidate, choice)
                assert (mutation.breaking, mutation.rule_id) == expected, (label, mutation.summary())
                checked += 1
    assert checked > 1000


def test_mutation_summaries_name_kind_path_source_and_rule() -> None:
    response = recorded_responses("anthropic.messages", streams=False)[0]
    subject = ResponseSubject(response.api, payload=response.payload(), source=response.label)
    mutation = next(all_mutations(subject))
    summary = mutation.summary()
    assert summary.startswith(f"{mutation.kind} at {mutation.path} of {response.label}")
    assert mutation.rule_id in summary


def test_resplit_keeps_the_text_and_the_sequence_numbers() -> None:
    response = next(r for r in recorded_responses("openai.responses", streams=True) if "function_call" in r.label)
    subject = ResponseSubject(response.api, events=response.events())
    splits = [c for c in mutation_candidates(subject) if c.kind == "resplit_stream"]
    assert splits
    for candidate in splits:
        for choice in candidate.choices:
            mutated = apply_mutation(subject, candidate, choice).subject
            assert mutated.events is not None
            numbers = [stream_document(subject.api, mutated.events)["events"][i]["data"]["sequence_number"] for i in range(len(mutated.events))]
            assert numbers == list(range(len(numbers)))
            pieces = "".join(
                e["data"]["delta"] for e in stream_document(subject.api, mutated.events)["events"] if e["data"]["type"].endswith("arguments.delta")
            )
            assert pieces == '{"location":"Florence, Italy"}'


def test_a_gemini_rename_is_never_the_proto_field_name() -> None:
    """Gemini's JSON is proto3's JSON mapping: a parser takes ``function_call`` for ``functionCall``
    (https://protobuf.dev/programming-guides/json/), and google-genai reads it as the call. Renaming
    a variant key to its snake_case spelling is therefore no rename, and DR-5 blamed google-genai
    for reading the call it was given (the matrix's google-genai/responses DR-5 rename finding)."""
    renames = [(m.path, m.description) for label, m in _sweep()
               if m.api == "gemini.generate_content" and m.kind == "rename_discriminator"]
    assert renames
    for subject_label, subject in _subjects():
        if not subject_label.startswith("gemini/"):
            continue
        for candidate in mutation_candidates(subject):
            if candidate.kind != "rename_discriminator" or candidate.site is None:
                continue
            variant = candidate.site.variant
            snake = "".join(f"_{c.lower()}" if c.isupper() else c for c in variant).lstrip("_")
            if snake != variant:
                assert snake not in candidate.choices, (subject_label, variant, candidate.choices)
    # and the realistic rename of a call is still drawn, so the invariant keeps its catching mutation
    assert any("'functionCall' to 'functionInvocation'" in description for _, description in renames), renames[:5]

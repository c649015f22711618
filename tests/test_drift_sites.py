"""The mutation sites come from the shape data, not from the reference validator's walk."""

from __future__ import annotations

from typing import Any

import pytest

from strictconformance.drift import sites, validator
from strictconformance.drift.cassettes import recorded_responses
from strictconformance.drift.mutations import ResponseSubject, apply_mutation, mutation_candidates
from strictconformance.drift.oracles import DriftChecker, judge_mutation
from strictconformance.drift.shapes import get_shape
from strictconformance.drift.shapes.model import Obj


def test_the_shape_walk_finds_the_sites_the_reference_checks_on_every_recording() -> None:
    """On sound recorded responses both walks see the same places (the reference is not wrong there)."""
    compared = 0
    for response in recorded_responses():
        if response.is_stream:
            ours = sites.stream_sites(response.api, response.events())
            theirs = validator.stream_sites(response.api, response.events())
        else:
            ours = sites.response_sites(response.api, response.payload())
            theirs = validator.response_sites(response.api, response.payload())
        assert ours, response.label
        assert ours == theirs, response.label
        compared += 1
    assert compared >= 10


def _blind_reference(monkeypatch: pytest.MonkeyPatch, api: str, name: str) -> None:
    """Make the reference validator's walk skip the top-level field ``name`` of ``api`` (a planted
    reference bug: it neither checks the field nor records it as a site)."""
    root = get_shape(api).response
    assert isinstance(root, Obj) and name in root.by_name
    blind = Obj(tuple(f for f in root.fields if f.name != name), report_unknown=root.report_unknown,
                extra_known=root.extra_known | {name})
    original = validator._walk

    def walk(shape: Any, value: object, node: Any, out: Any, **kwargs: Any) -> None:
        original(blind if shape is root else shape, value, node, out, **kwargs)

    monkeypatch.setattr(validator, "_walk", walk)


def test_a_field_the_reference_walk_skips_is_still_mutated_and_the_rule_fails_the_reference(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api = "anthropic.messages"
    recorded = next(r for r in recorded_responses() if r.api == api and not r.is_stream)
    subject = ResponseSubject(api, payload=recorded.payload())
    _blind_reference(monkeypatch, api, "id")
    assert ("id",) not in {site.path for site in validator.response_sites(api, subject.payload)}  # the plant took

    drops = [c for c in mutation_candidates(subject) if c.kind == "drop_field" and c.site.path == ("id",)]
    assert drops, "the generator must mutate a declared field even when the reference walk skips it"
    mutation = apply_mutation(subject, drops[0], drops[0].choices[0])
    assert mutation.breaking and mutation.rule_id == "DR-2"

    verdict = judge_mutation(DriftChecker.reference(), mutation)
    assert verdict.status == "fail", verdict
    assert "missed breaking drift" in verdict.message


def test_the_unplanted_reference_catches_the_same_mutation() -> None:
    api = "anthropic.messages"
    recorded = next(r for r in recorded_responses() if r.api == api and not r.is_stream)
    subject = ResponseSubject(api, payload=recorded.payload())
    drop = next(c for c in mutation_candidates(subject) if c.kind == "drop_field" and c.site.path == ("id",))
    assert judge_mutation(DriftChecker.reference(), apply_mutation(subject, drop, drop.choices[0])).status == "pass"

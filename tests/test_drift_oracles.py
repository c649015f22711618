"""The DR-1..DR-6 property logic: the reference passes every judge, each broken check fails its rule.

Every broken adapter in ``broken_drift.py`` must fail the judges of its rule, and (where
practical) no other rule: ``ALSO_FAILS`` lists the knock-on failures a fault cannot avoid.
"""

from __future__ import annotations

import collections
import copy
import functools
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from broken_drift import BROKEN, EXTRA_BROKEN, ReferenceLike, StrictSDKTypes
from strictconformance.adapter import Adapter
from strictconformance.drift.cassettes import load_cassette, recorded_responses
from strictconformance.drift.mutations import DriftMutation, ResponseSubject, all_mutations
from strictconformance.drift.oracles import (
    DriftChecker,
    Verdict,
    judge_mutation,
    judge_recorded,
    judge_total,
)
from strictconformance.strategies.responses import hostile_payloads

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]

#: Failures a fault drags along: strict SDK types reject the recorded bodies their additive
#: mutations are made from, so DR-4 fails with DR-1.
ALSO_FAILS: dict[str, set[str]] = {"DR-1": {"DR-4"}}


@cache
def _recorded() -> tuple[tuple[str, ResponseSubject], ...]:
    out = []
    for response in recorded_responses():
        if response.is_stream:
            out.append((response.label, ResponseSubject(response.api, events=response.events())))
        else:
            out.append((response.label, ResponseSubject(response.api, payload=response.payload())))
    return tuple(out)


@cache
def _sample() -> tuple[DriftMutation, ...]:
    """Up to two mutations per recorded response, kind and label: every rule, every API."""
    taken: collections.Counter[tuple[str, str, bool]] = collections.Counter()
    out = []
    for label, subject in _recorded():
        for mutation in all_mutations(subject):
            key = (label, mutation.kind, mutation.breaking)
            if taken[key] < 2:
                taken[key] += 1
                out.append(mutation)
    return tuple(out)


def _hostile() -> list[Any]:
    deep: Any = "bottom"
    for _ in range(50_000):
        deep = [deep]
    valid = copy.deepcopy(load_cassette("openai/chat/tool_call.yaml").interactions[0].json())
    valid["surprise_field"] = {"new": True}
    cyclic: dict[str, Any] = {"model": "m"}
    cyclic["choices"] = [cyclic]
    too_long_to_print = {"model": "m", "created": 10**5000, "choices": []}  # JSON numbers have no size limit
    return [cyclic, None, True, 0, "text", [], {}, [1, {"choices": None}], deep, {"choices": deep}, valid,
            {"id": {"id": {"id": []}}}, too_long_to_print]


def _judges(checker: DriftChecker) -> Iterator[tuple[str, Callable[[], Verdict]]]:
    """Every judge of ``checker``, with the rule it judges: the recorded responses (DR-1), the
    sampled mutations (each its own rule), the hostile payloads on each API (DR-6)."""
    for label, subject in _recorded():
        yield "DR-1", functools.partial(judge_recorded, checker, subject, label=label)
    for mutation in _sample():
        yield mutation.rule_id, functools.partial(judge_mutation, checker, mutation)
    for value in _hostile():
        for api in ("openai.chat", "anthropic.messages", "gemini.generate_content"):
            yield "DR-6", functools.partial(judge_total, checker, api, value)


def _verdicts(checker: DriftChecker) -> list[Verdict]:
    return [judge() for _, judge in _judges(checker)]


def _failed_rules(verdicts: Iterable[Verdict]) -> set[str]:
    return {v.rule_id for v in verdicts if v.failed}


def _fails(checker: DriftChecker, rule_id: str) -> bool:
    """Whether some judge of ``rule_id`` fails ``checker``: only that rule's judges run, and the
    first failure ends the search."""
    return any(verdict.failed and verdict.rule_id == rule_id
               for verdict in (judge() for rule, judge in _judges(checker) if rule == rule_id))


def test_the_reference_passes_every_judge() -> None:
    verdicts = _verdicts(DriftChecker.reference())
    failures = [str(v) for v in verdicts if not v.passed]
    assert not failures, "\n".join(failures[:5])
    assert {v.rule_id for v in verdicts} == {"DR-1", "DR-2", "DR-3", "DR-4", "DR-5", "DR-6", "DR-8", "DR-9"}


def test_a_reference_like_adapter_passes_through_its_own_error_type() -> None:
    """SDK errors with a pydantic-style loc tuple, read by drift_error_path, are judged like ours."""
    checker = DriftChecker.from_adapter(ReferenceLike())
    assert checker.name == "reference-like"
    failures = [str(v) for v in _verdicts(checker) if not v.passed]
    assert not failures, "\n".join(failures[:5])


@pytest.mark.slow
@pytest.mark.parametrize("rule_id", sorted(BROKEN))
def test_each_broken_check_fails_its_rule_and_only_that(rule_id: str) -> None:
    checker = DriftChecker.from_adapter(BROKEN[rule_id]())
    failed = _failed_rules(_verdicts(checker))
    assert rule_id in failed, f"{checker.name} was not caught by {rule_id}"
    assert failed <= {rule_id, *ALSO_FAILS.get(rule_id, set())}, f"{checker.name} also failed {sorted(failed - {rule_id})}"


@pytest.mark.slow
@pytest.mark.parametrize(
    ("rule_id", "broken"), [(rule, broken) for rule, extras in EXTRA_BROKEN.items() for broken in extras], ids=lambda x: getattr(x, "__name__", x)
)
def test_extra_broken_checks_are_caught_by_their_rule(rule_id: str, broken: type[ReferenceLike]) -> None:
    checker = DriftChecker.from_adapter(broken())
    assert _fails(checker, rule_id), f"{checker.name} was not caught by {rule_id}"


class _NoGeminiInvariants(ReferenceLike):
    """The reference as it was before Gemini had DR-5 invariants."""

    name = "no-gemini-invariants"

    def keep(self, error: Any) -> bool:
        return not (error.api == "gemini.generate_content" and error.rule_id == "DR-5")


def test_gemini_renames_are_missed_without_the_gemini_invariants() -> None:
    """The Gemini DR-5 mutations (candidates/content/parts dropped or emptied as a rename leaves
    them, a part's functionCall renamed) fail a check without the Gemini invariants, and pass the reference."""
    mutations = [m for label, subject in _recorded() if subject.api == "gemini.generate_content"
                 for m in all_mutations(subject) if m.rule_id == "DR-5"]
    assert {m.kind for m in mutations} == {"drop_field", "empty_field", "rename_discriminator"}
    old = DriftChecker.from_adapter(_NoGeminiInvariants())
    for mutation in mutations:
        verdict = judge_mutation(old, mutation)
        assert verdict.failed and "missed breaking drift" in verdict.message, mutation.summary()
        assert judge_mutation(DriftChecker.reference(), mutation).passed, mutation.summary()


def test_failing_verdicts_say_what_to_fix() -> None:
    checker = DriftChecker.from_adapter(BROKEN["DR-5"]())
    # the non-stream rename (a renamed stream start event is DR-5 too since the stream invariants, and comes first)
    renamed = next(m for m in _sample() if m.rule_id == "DR-5" and m.kind == "rename_discriminator"
                   and m.path == "content[1].type")
    verdict = judge_mutation(checker, renamed)
    assert verdict.failed
    text = str(verdict)
    assert "DR-5 fail" in text
    assert "missed breaking drift" in text
    assert "content[1].type" in text
    assert "no-invariants.check_response('anthropic.messages', payload)" in text
    assert '"function_call"' in text  # the counterexample, as JSON
    strict = judge_recorded(DriftChecker.from_adapter(StrictSDKTypes()), _recorded_by_label("openai/chat/text_reasoning_model.yaml#0"))
    assert strict.failed
    assert "system_fingerprint" in strict.message


def _recorded_by_label(label: str) -> ResponseSubject:
    return dict(_recorded())[label]


def test_a_missing_capability_is_a_skip_that_names_it() -> None:
    checker = DriftChecker.from_adapter(Adapter())
    assert checker.check_response is None
    assert checker.check_stream is None
    label, subject = _recorded()[0]
    verdict = judge_recorded(checker, subject, label=label)
    assert verdict.status == "skip"
    assert "check_" in verdict.message
    assert "not covered" in verdict.message


@settings(max_examples=25, deadline=None, suppress_health_check=_QUIET, database=None)
@given(hostile_payloads())
def test_dr6_fuzz_on_the_reference(value: Any) -> None:
    checker = DriftChecker.reference()
    for api in ("openai.chat", "openai.responses", "groq.chat"):
        assert judge_total(checker, api, value).passed

"""Checks of SPEC §5 (DR-1..DR-9): does the SDK's response handling notice breaking drift at the
right path, and tolerate additive change?

The adapter's ``check_response`` / ``check_stream`` are reached only through the harness
(:func:`adapter_checker`) and judged by :mod:`strictconformance.drift.oracles`:

* DR-1: every shipped cassette, one check each (its counterexample names the cassette and its
  provenance), and recorded streams with their deltas re-split into other chunks.
* DR-2, DR-3, DR-5: breaking mutations (a field dropped, moved, retyped or nulled; a variant
  renamed so an invariant fails) of recorded responses and of responses generated from the
  shapes; each must raise a declared drift error at the mutation's path (when the adapter's
  error tells a path, see ``drift_error_path``).
* DR-4: additive mutations (a new field, a new variant, a variant renamed to an unknown name).
* DR-8: recorded streams taken off their documented event lifecycle (a delta before its start or
  for an index never opened, fragments that do not join into JSON, events reordered or duplicated,
  a block never closed, an event after the terminal one, a start or stop event renamed).
* DR-9: recorded streams cut before their terminal event: a declared error or a reading marked
  incomplete.
* DR-6: hostile payloads, generated and mutated responses, and streams of arbitrary events; and,
  explicitly for every declared API, bodies and events nested 10,000 levels deep (ten times
  Python's recursion limit).

A mutation is judged only when the adapter accepts the unmutated response: otherwise its verdict
would not be about the change (DR-1 reports the rejection). Only the APIs the adapter declares in
``drift_apis`` are used. The four cases of seeds/004 are explicit checks, and so are the pinned
mutations: ones the ``ci`` profile once drew that met a real SDK's bug, kept fixed so a change of
Hypothesis's draws cannot lose them.
"""

from __future__ import annotations

import copy
import functools
import json
import re
from collections.abc import Callable, Sequence
from importlib import resources
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strictconformance.adapter import Declarations
from strictconformance.drift.cassettes import (
    RecordedResponse,
    list_cassettes,
    load_cassette,
    recorded_responses,
)
from strictconformance.drift.errors import bounded_json
from strictconformance.drift.mutations import (
    DriftMutation,
    MutationKind,
    ResponseSubject,
    apply_mutation,
    mutation_candidates,
)
from strictconformance.drift.oracles import (
    DriftChecker,
    Verdict,
    judge_fidelity,
    judge_mutation,
    judge_recorded,
    judge_total,
)
from strictconformance.drift.paths import format_path
from strictconformance.drift.provider_errors import chain_text
from strictconformance.drift.shapes import get_shape
from strictconformance.drift.shapes.model import Arr
from strictconformance.drift.sse import SSEEvent
from strictconformance.drift.unread import ALWAYS_COMPARED, FIDELITY_PATHS, UnreadField
from strictconformance.findings import not_covered
from strictconformance.harness import ConformanceFailure, Harness, check
from strictconformance.profiles import scaled
from strictconformance.strategies.responses import (
    HUGE_INTEGERS,
    drift_mutations,
    generated_subjects,
    hostile_events,
    hostile_payloads,
    mutable_recorded,
    recorded_subjects,
    responses,
)

# DR-6 payloads nest up to this deep, far past Python's recursion limit (1000), so an SDK that
# walks a payload recursively fails DR-6 as it would on such a response. The harness copies and
# compares them without recursion (snapshot iterative past depth 100; the kit's self-tests check
# it at 20,000 levels), and Hypothesis prints them as bounded JSON (:class:`_Drawn`).
_DEEPEST = 20_000
# The explicit deep case: every declared API gets a body nested this deep at its root and inside
# a recorded response, and an event nested as deep (ten times Python's recursion limit).
_DEEP_CASE = 10_000
# Counterexample payloads larger than this are shown as truncated JSON text.
_SHOWN_CHARS = 20_000
_RESPLIT: tuple[MutationKind, ...] = ("resplit_stream",)
# Mutation checks run twice the profile's examples: each example is cheap, and the space of
# (response, place, change) is large.
_MUTATION_SCALE = 2


# -- what the adapter covers ------------------------------------------------------------------------


def adapter_checker(strictconformance_harness: Harness, *, judge_other_errors: bool = False) -> DriftChecker:
    """The adapter behind the ``strictconformance_harness`` fixture as a :class:`DriftChecker`, called only through the harness.

    Every call goes through :meth:`Harness.attempt`, so timeouts, mutation checks, junk
    results and the call transcript work as for any check, and the harness's failures
    (:class:`~strictconformance.harness.ConformanceFailure`) and pytest's outcomes propagate
    out of the judges. Declared drift errors come back to the judge. Any other exception is an
    adapter fault raised by the harness, unless ``judge_other_errors`` (DR-6, whose rule is
    precisely which exceptions may escape): then the judge sees it and words the violation.
    """
    harness = strictconformance_harness
    drift_errors = tuple(harness.declarations.drift_errors)
    api_errors = tuple(getattr(harness.declarations, "api_errors", ()))
    allowed: tuple[type[BaseException], ...] = (
        (*drift_errors, *api_errors, Exception) if judge_other_errors else (*drift_errors, *api_errors))

    def through_harness(method: str) -> Any:
        if not harness.has(method):
            return None

        def call(api: str, argument: Any) -> Any:
            __tracebackhide__ = True
            attempt = harness.attempt(method, api, argument, allowed=allowed)
            if attempt.error is not None:
                raise attempt.error
            return attempt.value

        return call

    return DriftChecker(
        check_response=through_harness("check_response"),
        check_stream=through_harness("check_stream"),
        error_types=drift_errors,
        read_path=harness.adapter.drift_error_path,
        name="adapter",
        propagate=(ConformanceFailure, pytest.skip.Exception, pytest.fail.Exception),
        not_implemented_is_missing=False,
        api_error_types=api_errors,
    )


def _streams(declarations: Declarations) -> bool | None:
    """Which recorded subjects the adapter can be called on: both kinds (None), streams only
    (True) or response bodies only (False)."""
    responses_ok = "check_response" in declarations.capabilities
    streams_ok = "check_stream" in declarations.capabilities
    return None if responses_ok and streams_ok else streams_ok


def _form(streams: bool | None) -> str:
    return {None: "response or stream", True: "stream", False: "response body"}[streams]


def _mutations_exist(rule_id: str, *, breaking: bool, kinds: Sequence[MutationKind] | None = None) -> Callable[[Declarations], str | None]:
    """``requires`` of a mutation check: why it cannot run for this adapter, or None."""

    def requires(declarations: Declarations) -> str | None:
        if not declarations.drift_apis:
            return "the adapter declares no drift APIs (drift_apis)"
        streams = _streams(declarations)
        if mutable_recorded(declarations.drift_apis, breaking=breaking, kinds=kinds, rule_id=rule_id, streams=streams,
                            unread=declarations.drift_unread):
            return None
        needs = " (re-split streams need check_stream())" if kinds == _RESPLIT else ""
        return (f"no recorded {_form(streams)} of {', '.join(declarations.drift_apis)} admits a {rule_id} "
                f"mutation{needs}")

    return requires


def _api_covered(api: str, method: str) -> Callable[[Declarations], str | None]:
    """``requires`` of an explicit case on ``api`` called with ``method``."""

    def requires(declarations: Declarations) -> str | None:
        if api not in declarations.drift_apis:
            return f"the adapter does not declare {api} in drift_apis"
        if method not in declarations.capabilities:
            return f"the adapter does not implement {method}()"
        return None

    return requires


def _any_api(declarations: Declarations) -> str | None:
    return None if declarations.drift_apis else "the adapter declares no drift APIs (drift_apis)"


def _stream_fuzz(declarations: Declarations) -> str | None:
    if "check_stream" not in declarations.capabilities:
        return "the adapter does not implement check_stream()"
    return _any_api(declarations)


# -- judging ---------------------------------------------------------------------------------------


def _shown(value: Any) -> Any:
    """``value`` itself for the counterexample when it is plain JSON that prints whole, else its
    JSON text, truncated when it is large or deep (an int too long to print is described)."""
    text = bounded_json(value, _SHOWN_CHARS, max_depth=50)
    if len(text) >= _SHOWN_CHARS or '"…"' in text:
        return text
    try:
        exact = json.loads(text) == value
    except (ValueError, RecursionError):
        exact = False
    return value if exact else text


def _subject_notes(subject: ResponseSubject) -> dict[str, Any]:
    if subject.events is not None:
        return {"events": _shown([{"event": event.event, "data": event.data} for event in subject.events])}
    return {"payload": _shown(subject.payload)}


def _settle(strictconformance_harness: Harness, verdict: Verdict) -> None:
    __tracebackhide__ = True
    if verdict.status == "skip":
        not_covered(f"{verdict.message}")
    strictconformance_harness.expect(verdict.passed, verdict.message, detail=verdict.defect)


def _judge_change(strictconformance_harness: Harness, mutation: DriftMutation, *, explicit: bool = False) -> Verdict:
    """Judge ``mutation`` if the adapter accepts the response it was made from."""
    __tracebackhide__ = True
    strictconformance_harness.note(
        api=mutation.api,
        mutated_from=mutation.original.source or "explicit case",
        mutation={"kind": mutation.kind, "rule": mutation.rule_id, "breaking": mutation.breaking,
                  "path": mutation.path, "change": mutation.description},
        checked="the unmutated response (it must pass before the change is judged)",
        **_subject_notes(mutation.original),
    )
    checker = adapter_checker(strictconformance_harness)
    before = judge_recorded(checker, mutation.original, label=mutation.original.source or "")
    if before.failed:
        # The verdict would not be about the change; DR-1 reports the rejection itself.
        if explicit:
            pytest.skip(f"the unmutated response is already rejected, see DR-1: {before.message}")
        return before
    strictconformance_harness.note(checked="the mutated response", **_subject_notes(mutation.subject))
    verdict = judge_mutation(checker, mutation)
    _settle(strictconformance_harness, verdict)
    return verdict


# Strategies are built once per set of arguments: a fresh one per example costs more than the draw.
@functools.cache
def _mutations(apis: tuple[str, ...], streams: bool | None, rule_id: str, breaking: bool,
               kinds: tuple[MutationKind, ...] | None, generated: bool,
               unread: tuple[UnreadField, ...] = ()) -> st.SearchStrategy[DriftMutation]:
    bases = [recorded_subjects(apis, streams=streams)]
    if generated:
        bases.append(generated_subjects(apis))
    return drift_mutations(apis, breaking=breaking, kinds=kinds, rule_id=rule_id, streams=streams, base=st.one_of(bases),
                           unread=unread)


def _draw_mutation(strictconformance_harness: Harness, data: st.DataObject, rule_id: str, *, breaking: bool,
                   kinds: tuple[MutationKind, ...] | None = None) -> DriftMutation:
    """A mutation of ``rule_id`` of a recorded (or, with check_response, generated) response of a declared API."""
    # generated responses are bodies, never streams
    generated = strictconformance_harness.has("check_response") and kinds != _RESPLIT and rule_id not in _STREAM_RULES
    declarations = strictconformance_harness.declarations
    strategy = _mutations(tuple(declarations.drift_apis), _streams(declarations), rule_id, breaking, kinds, generated,
                          tuple(declarations.drift_unread))
    mutation: DriftMutation = data.draw(strategy, label="mutation")
    return mutation


# -- DR-1 a recorded real response passes -------------------------------------------------------------


def _cassette_file(location: str) -> str:
    return str(resources.files("strictconformance.cassettes").joinpath(*location.split("/")))


def _method(response: RecordedResponse) -> str:
    return "check_stream" if response.is_stream else "check_response"


def _usable_responses(strictconformance_harness: Harness, cassette: str) -> list[RecordedResponse]:
    """The cassette's responses the adapter can be handed (skips the check when there are none)."""
    loaded = load_cassette(cassette)
    if loaded.api not in strictconformance_harness.declarations.drift_apis:
        not_covered(f"the adapter does not declare {loaded.api} in drift_apis")
    recorded = list(loaded.responses())
    usable = [response for response in recorded if strictconformance_harness.has(_method(response))]
    if not usable:
        missing = sorted({_method(response) for response in recorded})
        not_covered(f"{cassette} holds only what {' and '.join(missing)}() receives, which the adapter does not implement")
    return usable


def _distinct_cases(responses: Sequence[RecordedResponse]) -> list[tuple[str, RecordedResponse]]:
    """The responses as fixed cases, each named by its label."""
    return [(response.label, response) for response in responses]


def _subject(response: RecordedResponse) -> ResponseSubject:
    if response.is_stream:
        return ResponseSubject(response.api, events=response.events(), source=response.label)
    return ResponseSubject(response.api, payload=response.payload(), source=response.label)


@check("DR-1")
@pytest.mark.parametrize("cassette", list_cassettes())
def test_dr_1_recorded_cassette_passes(strictconformance_harness: Harness, cassette: str) -> None:
    """Every successful response of the cassette (bodies and streams) raises nothing."""
    usable = _usable_responses(strictconformance_harness, cassette)
    loaded = load_cassette(cassette)
    provenance = loaded.provenance
    checker = adapter_checker(strictconformance_harness)

    def judge(_: str, response: RecordedResponse) -> None:
        strictconformance_harness.note(
            cassette=cassette,
            response=response.label,
            file=_cassette_file(cassette),
            provenance={"origin": provenance.origin, "recorded_by": provenance.recorded_by,
                        "recorded_on": provenance.recorded_on, "source": provenance.source},
        )
        _settle(strictconformance_harness, judge_recorded(checker, _subject(response), label=response.label))
    # each response judged: one rejected response never hides another's different failure
    strictconformance_harness.each_case(_distinct_cases(usable), judge, name_in_key=False)


@check("DR-1", requires=_mutations_exist("DR-1", breaking=False, kinds=_RESPLIT))
@given(data=st.data())
def test_dr_1_recorded_stream_resplit_passes(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A recorded stream whose deltas are split differently (or merged) is the same response."""
    _judge_change(strictconformance_harness, _draw_mutation(strictconformance_harness, data, "DR-1", breaking=False, kinds=_RESPLIT))


# -- DR-2 a missing or retyped field an SDK reads is drift, at its path ----------------------------


@check("DR-2", requires=_mutations_exist("DR-2", breaking=True))
@scaled(_MUTATION_SCALE)
@given(data=st.data())
def test_dr_2_missing_or_retyped_field_is_caught(strictconformance_harness: Harness, data: st.DataObject) -> None:
    _judge_change(strictconformance_harness, _draw_mutation(strictconformance_harness, data, "DR-2", breaking=True))


# -- DR-3 elements of discriminated arrays are checked per variant -----------------------------------


@check("DR-3", requires=_mutations_exist("DR-3", breaking=True))
@scaled(_MUTATION_SCALE)
@given(data=st.data())
def test_dr_3_variant_fields_are_checked(strictconformance_harness: Harness, data: st.DataObject) -> None:
    _judge_change(strictconformance_harness, _draw_mutation(strictconformance_harness, data, "DR-3", breaking=True))


# -- DR-4 additive change passes -----------------------------------------------------------------------


@check("DR-4", requires=_mutations_exist("DR-4", breaking=False))
@scaled(_MUTATION_SCALE)
@given(data=st.data())
def test_dr_4_additive_change_passes(strictconformance_harness: Harness, data: st.DataObject) -> None:
    _judge_change(strictconformance_harness, _draw_mutation(strictconformance_harness, data, "DR-4", breaking=False))


@check("DR-4")
@pytest.mark.parametrize("cassette", list_cassettes())
def test_dr_4_unknown_variant_in_every_recorded_array(strictconformance_harness: Harness, cassette: str) -> None:
    """Each open discriminated array of each recorded response, in turn, gains an element of a
    variant no shape knows: the response still passes (the property may miss a given array)."""
    judged = rejected = 0
    mutations: list[DriftMutation] = []
    for response in _usable_responses(strictconformance_harness, cassette):
        subject = _subject(response)
        mutations += [apply_mutation(subject, candidate, candidate.choices[0])
                      for candidate in mutation_candidates(subject) if candidate.kind == "add_unknown_variant"]

    def judge(_: str, mutation: DriftMutation) -> None:
        nonlocal judged, rejected
        strictconformance_harness.note(cassette=cassette)
        verdict = _judge_change(strictconformance_harness, mutation)
        if verdict.failed:  # only when the unmutated response is rejected: DR-1's to report
            rejected += 1
        else:
            judged += 1
    # each array its own finding: a rejected element in one array never hides another array's
    strictconformance_harness.each_case([(f"{m.original.source or 'response'} at {m.path}", m) for m in mutations], judge,
                                        name_in_key=False)
    if not judged:
        pytest.skip("no recorded response of this cassette has an open discriminated array"
                    if not rejected else "the unmutated responses are rejected already, see DR-1")


# -- DR-5 cross-field invariants catch a renamed variant ----------------------------------------------


@check("DR-5", requires=_mutations_exist("DR-5", breaking=True))
@scaled(_MUTATION_SCALE)
@given(data=st.data())
def test_dr_5_invariants_catch_a_renamed_variant(strictconformance_harness: Harness, data: st.DataObject) -> None:
    _judge_change(strictconformance_harness, _draw_mutation(strictconformance_harness, data, "DR-5", breaking=True))


# -- DR-8 a stream follows its documented event lifecycle ---------------------------------------------

#: Rules only streams admit (their mutations are made of recorded streams, never generated bodies).
_STREAM_RULES = ("DR-8", "DR-9")


@check("DR-8", requires=_mutations_exist("DR-8", breaking=True))
@given(data=st.data())
def test_dr_8_stream_off_its_lifecycle_is_caught(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A recorded stream taken off its event lifecycle: drift at the event that leaves it."""
    _judge_change(strictconformance_harness, _draw_mutation(strictconformance_harness, data, "DR-8", breaking=True))


# -- DR-9 a stream cut before its terminal event is reported ------------------------------------------


@check("DR-9", requires=_mutations_exist("DR-9", breaking=True))
@given(data=st.data())
def test_dr_9_cut_stream_is_reported(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A recorded stream cut before its terminal event: a declared error or a reading marked incomplete."""
    _judge_change(strictconformance_harness, _draw_mutation(strictconformance_harness, data, "DR-9", breaking=True))


def _judge_each_api(strictconformance_harness: Harness, family: str) -> None:
    """The first mutation of ``family`` of each declared API's first recorded stream that admits one."""
    judged = 0
    for api in strictconformance_harness.declarations.drift_apis:
        for location in list_cassettes(api):
            found = next(((subject, candidate) for subject in (ResponseSubject(r.api, events=r.events(), source=r.label)
                                                              for r in load_cassette(location).responses() if r.is_stream)
                          for candidate in mutation_candidates(subject) if candidate.family == family), None)
            if found is not None:
                subject, candidate = found
                judged += 1
                verdict = _judge_change(strictconformance_harness, apply_mutation(subject, candidate, candidate.choices[0]), explicit=True)
                if not verdict.passed:
                    return
                break
    if not judged:
        not_covered(f"no recorded stream of {', '.join(strictconformance_harness.declarations.drift_apis)} admits {family}")


def _top_level_retypes(declarations: Declarations) -> str | None:
    if "check_response" not in declarations.capabilities:
        return "the adapter does not implement check_response()"
    return _mutations_exist("DR-2", breaking=True)(declarations)


@functools.cache
def _content_holders(api: str) -> frozenset[str]:
    """The top-level fields of ``api``'s response body that hold what every SDK reads: the text and
    the tool calls (DR-7 compares them whatever the SDK returns, and no adapter may declare them
    unread): ``choices``, ``output``, ``content``, ``candidates``."""
    paths = (path for part in ALWAYS_COMPARED for path in FIDELITY_PATHS.get(api, {}).get(part, ()))
    return frozenset(re.split(r"[.\[]", path, maxsplit=1)[0] for path in paths if not path.startswith("events"))


@check("DR-2", requires=_top_level_retypes)
def test_dr_2_content_holders_retyped(strictconformance_harness: Harness) -> None:
    """Explicitly, for every declared API: the top-level field holding the response's text and tool
    calls (``choices``, ``output``, ``content``, ``candidates``), in the first recorded body that has
    it, given each other JSON type. The fuzz draws retypes at any depth among every kind of change;
    this is the field no SDK can parse a response without, where a parser that trusts the body
    fails first, so every run meets it."""
    judged = 0
    checker = adapter_checker(strictconformance_harness)
    unread = strictconformance_harness.declarations.drift_unread
    for api in strictconformance_harness.declarations.drift_apis:
        left = set(_content_holders(api))  # each retyped once, in the first accepted body that has it
        bodies = (ResponseSubject(r.api, payload=r.payload(), source=r.label) for location in list_cassettes(api)
                  for r in load_cassette(location).responses() if not r.is_stream)
        for subject in bodies:
            if not left:
                break
            retypes = [candidate for candidate in mutation_candidates(subject, unread=unread)
                       if candidate.kind == "change_type" and candidate.site is not None and len(candidate.site.path) == 1
                       and candidate.site.path[0] in left]
            if not retypes or judge_recorded(checker, subject, label=subject.source or "").failed:
                continue  # DR-1 reports a recorded body the SDK rejects; the next body that has the field serves
            for candidate in retypes:
                assert candidate.site is not None
                left.discard(candidate.site.path[0])
                for choice in candidate.choices:
                    mutation = apply_mutation(subject, candidate, choice)
                    if not mutation.breaking or mutation.rule_id != "DR-2":
                        continue
                    judged += 1
                    if not _judge_change(strictconformance_harness, mutation, explicit=True).passed:
                        return
    if not judged:
        not_covered(f"no recorded response body of {', '.join(strictconformance_harness.declarations.drift_apis)} "
                    "holds its text and tool calls in a top-level field to retype")


@check("DR-8", requires=_mutations_exist("DR-8", breaking=True))
def test_dr_8_delta_for_an_index_never_started(strictconformance_harness: Harness) -> None:
    """Explicitly, for every declared API with indexed deltas: a delta (or a tool-call argument
    fragment) for an index never started is drift at that index."""
    _judge_each_api(strictconformance_harness, "break_lifecycle:unknown_index")


@check("DR-9", requires=_mutations_exist("DR-9", breaking=True))
def test_dr_9_stream_cut_before_its_stop_reason(strictconformance_harness: Harness) -> None:
    """Explicitly, for every declared API: its first recorded stream cut right before the event
    that carries the stop reason (Anthropic message_delta, Responses response.completed, the chat
    chunk with finish_reason, the Gemini chunk with finishReason)."""
    _judge_each_api(strictconformance_harness, "break_lifecycle:truncated")


# -- DR-7 what the SDK parsed is what the response holds -----------------------------------------------


def _parses(declarations: Declarations) -> str | None:
    if not declarations.parse_fidelity:
        return ("the adapter's response checks do not return what the SDK parsed (declare parse_fidelity = True and "
                "return a strictconformance.drift.fidelity.ParsedResponse)")
    return _any_api(declarations)


@check("DR-7", requires=_parses)
@pytest.mark.parametrize("cassette", list_cassettes())
def test_dr_7_recorded_response_is_parsed_as_it_holds(strictconformance_harness: Harness, cassette: str) -> None:
    """Every response of the cassette (bodies and streams) is parsed into what it holds; every
    difference of every response is reported."""
    usable = _usable_responses(strictconformance_harness, cassette)
    checker = adapter_checker(strictconformance_harness)
    judged = 0

    def judge(_: str, response: RecordedResponse) -> None:
        nonlocal judged
        strictconformance_harness.note(cassette=cassette, response=response.label, file=_cassette_file(cassette))
        verdict = judge_fidelity(checker, _subject(response), unread=strictconformance_harness.declarations.drift_unread)
        if verdict.status == "skip":
            return
        judged += 1
        strictconformance_harness.expect(verdict.passed, f"{response.label}: {verdict.message}", detail=verdict.defect)
    # each response judged, its failure keyed by what the SDK misread: one never hides another
    strictconformance_harness.each_case(_distinct_cases(usable), judge, name_in_key=False)
    if not judged:
        not_covered(f"no response of {cassette} could be judged (the kit cannot read it, or the check raised: see DR-1)")


def _parses_and_mutations(declarations: Declarations) -> str | None:
    return _parses(declarations) or _mutations_exist("DR-4", breaking=False)(declarations)


@check("DR-7", requires=_parses_and_mutations)
@scaled(_MUTATION_SCALE)
@given(data=st.data())
def test_dr_7_additive_change_is_parsed_as_it_holds(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A response with an additive change (a new field, a block of an unknown type...) is parsed
    into what it holds: the unknown part is not text, no call is dropped or invented."""
    mutation = _draw_mutation(strictconformance_harness, data, "DR-4", breaking=False)
    strictconformance_harness.note(api=mutation.api, mutated_from=mutation.original.source or "generated",
            mutation={"kind": mutation.kind, "path": mutation.path, "change": mutation.description},
            **_subject_notes(mutation.subject))
    verdict = judge_fidelity(adapter_checker(strictconformance_harness), mutation.subject,
                             unread=strictconformance_harness.declarations.drift_unread)
    if verdict.status != "skip":
        strictconformance_harness.expect(verdict.passed, verdict.message, detail=verdict.defect)


# -- DR-6 only drift errors, on any value, and the value is left alone --------------------------------


def _payload_of(mutation: DriftMutation) -> Any:
    return mutation.subject.payload


class _Drawn:
    """A drawn DR-6 input, shown by Hypothesis as bounded JSON: its pretty-printer recurses, and
    these inputs nest 20,000 deep."""

    __slots__ = ("value",)

    def __init__(self, value: Any) -> None:
        self.value = value

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(bounded_json(self.value, 2000, max_depth=20))


def _events_json(events: Sequence[SSEEvent]) -> list[dict[str, Any]]:
    return [{"event": event.event, "data": event.data} for event in events]


@functools.cache
def _any_payload(api: str) -> st.SearchStrategy[_Drawn]:
    """Hostile JSON, a documented-shape response, or a real one with breaking drift."""
    sources: list[st.SearchStrategy[Any]] = [hostile_payloads(api, max_depth=_DEEPEST), responses(api)]
    if mutable_recorded(api, breaking=True, streams=False):
        sources.append(drift_mutations(api, breaking=True, streams=False).map(_payload_of))
    return st.one_of(sources).map(_Drawn)


class _DrawnEvents(_Drawn):
    """Drawn events, shown as their ``{event, data}`` JSON (bounded)."""

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        printer.text(bounded_json(_events_json(self.value), 2000, max_depth=20))


@functools.cache
def _any_events(api: str) -> st.SearchStrategy[_Drawn]:
    return hostile_events(api, max_depth=_DEEPEST).map(_DrawnEvents)


@check("DR-6", requires=_any_api)
@given(data=st.data())
def test_dr_6_any_payload_raises_only_drift_errors(strictconformance_harness: Harness, data: st.DataObject) -> None:
    api = data.draw(st.sampled_from(strictconformance_harness.declarations.drift_apis), label="api")
    payload = data.draw(_any_payload(api), label="payload").value
    strictconformance_harness.note(api=api, payload=_shown(payload))
    checker = adapter_checker(strictconformance_harness, judge_other_errors=True)
    _settle(strictconformance_harness, judge_total(checker, api, payload))


@check("DR-6", requires=_stream_fuzz)
@given(data=st.data())
def test_dr_6_any_stream_raises_only_drift_errors(strictconformance_harness: Harness, data: st.DataObject) -> None:
    api = data.draw(st.sampled_from(strictconformance_harness.declarations.drift_apis), label="api")
    events = data.draw(_any_events(api), label="events").value
    strictconformance_harness.note(api=api, events=_shown(_events_json(events)))
    checker = adapter_checker(strictconformance_harness, judge_other_errors=True)
    _settle(strictconformance_harness, judge_total(checker, api, events, stream=True))


#: What each API family sends when the provider fails (response_shapes.md): an error body, and the
#: error frame of its stream.
_OPENAI_ERROR = {"error": {"message": "The server had an error while processing your request.", "type": "server_error",
                           "param": None, "code": None}}
_PROVIDER_ERRORS: dict[str, tuple[Any, SSEEvent]] = {
    "openai.chat": (_OPENAI_ERROR, SSEEvent(json.dumps(_OPENAI_ERROR), None)),
    "openai.responses": (_OPENAI_ERROR, SSEEvent(json.dumps({"type": "error", "code": "server_error", "message": "The server had an error.",
                                                             "param": None, "sequence_number": 1}), "error")),
    "anthropic.messages": ({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}, "request_id": "req_011CSHoEeqs5C35K2UUqR7Fy"},
                           SSEEvent(json.dumps({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}), "error")),
    "gemini.generate_content": ({"error": {"code": 503, "message": "The model is overloaded. Please try again later.", "status": "UNAVAILABLE"}},
                                SSEEvent(json.dumps({"error": {"code": 503, "message": "The model is overloaded.", "status": "UNAVAILABLE"}}), None)),
    "groq.chat": (_OPENAI_ERROR, SSEEvent(json.dumps({"error": {"message": "Service Unavailable", "type": "internal_server_error"}, "status_code": 503}), None)),
    "cerebras.chat": (_OPENAI_ERROR, SSEEvent(json.dumps({"error": {"message": "Service Unavailable", "type": "service_unavailable"}, "status_code": 503}), None)),
    "cloudflare.chat": ({"result": None, "success": False, "errors": [{"code": 7009, "message": "Upstream service unavailable"}], "messages": []},
                        SSEEvent(json.dumps({"result": None, "success": False, "errors": [{"code": 7009, "message": "Upstream service unavailable"}],
                                             "messages": []}), None)),
}


@check("DR-6", requires=_any_api)
def test_dr_6_provider_errors_raise_only_declared_errors(strictconformance_harness: Harness) -> None:
    """Each declared API gets the error its provider sends (an error body; with check_stream, a
    recorded stream's first event then the error frame): raising a declared API error or a drift
    error for it is right, and so is returning; anything else fails DR-6."""
    checker = adapter_checker(strictconformance_harness, judge_other_errors=True)
    for api in strictconformance_harness.declarations.drift_apis:
        body, frame = _PROVIDER_ERRORS[api]
        if strictconformance_harness.has("check_response"):
            strictconformance_harness.note(api=api, case="the provider's error body", payload=body)
            _settle(strictconformance_harness, judge_total(checker, api, copy.deepcopy(body)))
        if strictconformance_harness.has("check_stream"):
            prefix = next((response.events()[:1] for response in recorded_responses(api, streams=True)), ())
            events = (*prefix, frame)
            strictconformance_harness.note(api=api, case="a stream whose provider sends an error frame", events=_events_json(events))
            _settle(strictconformance_harness, judge_total(checker, api, events, stream=True))


def _nested(depth: int, leaf: Any, key: str | None) -> Any:
    """``leaf`` nested ``depth`` levels deep (in lists, or in objects under ``key``), built without recursion."""
    value = leaf
    for _ in range(depth):
        value = [value] if key is None else {key: value}
    return value


def _deep_payloads(api: str) -> list[tuple[str, Any]]:
    """Payloads nested :data:`_DEEP_CASE` deep: lists at the root, and a recorded response whose
    first element of its main array (``choices``, ``content``...) is nested under that key."""
    shape = get_shape(api)
    arrays = [field.name for field in shape.response.fields if isinstance(field.shape, Arr)]
    cases: list[tuple[str, Any]] = [("nested lists at the root", _nested(_DEEP_CASE, 1, None))]
    for response in recorded_responses(api, streams=False):
        payload = response.payload()
        name = next((name for name in arrays if isinstance(payload.get(name), list) and payload[name]), None)
        if name is not None:
            payload[name][0] = _nested(_DEEP_CASE, payload[name][0], name)
            cases.append((f"{response.label} with {name}[0] nested under {name!r} {_DEEP_CASE} times", payload))
            break
    else:
        cases.append(("nested objects at the root", _nested(_DEEP_CASE, {}, arrays[0] if arrays else "content")))
    return cases


def _deep_stream() -> tuple[str, tuple[SSEEvent, ...]]:
    return ("an event whose data is JSON text nested in objects",
            (SSEEvent('{"a":' * _DEEP_CASE + "1" + "}" * _DEEP_CASE, None),))


@check("DR-6", requires=_any_api)
def test_dr_6_payloads_nested_past_the_recursion_limit(strictconformance_harness: Harness) -> None:
    """Every declared API gets bodies (and, with check_stream, an event) nested 10,000 deep, far
    past Python's recursion limit: an SDK that walks or converts them recursively raises
    RecursionError (not a drift error), as it would on such a response."""
    checker = adapter_checker(strictconformance_harness, judge_other_errors=True)
    for api in strictconformance_harness.declarations.drift_apis:
        if strictconformance_harness.has("check_response"):
            for name, payload in _deep_payloads(api):
                strictconformance_harness.note(api=api, case=name, payload=_shown(payload))
                _settle(strictconformance_harness, judge_total(checker, api, payload))
        if strictconformance_harness.has("check_stream"):
            name, events = _deep_stream()
            strictconformance_harness.note(api=api, case=name, events=_shown(_events_json(events)))
            _settle(strictconformance_harness, judge_total(checker, api, events, stream=True))


@check("DR-6", requires=_any_api)
def test_dr_6_integers_too_long_to_print(strictconformance_harness: Harness) -> None:
    """JSON numbers have no size limit: every declared API gets integers too long for Python to
    print (10**5000, past the 4,300-digit conversion limit), as the body and as a field of an
    object, whatever the fuzz above happens to draw. An SDK that formats them raises ValueError."""
    if not strictconformance_harness.has("check_response"):
        not_covered("DR-6 integers too long to print: the adapter has no check_response")
    checker = adapter_checker(strictconformance_harness, judge_other_errors=True)
    for api in strictconformance_harness.declarations.drift_apis:
        for number in HUGE_INTEGERS:
            for name, payload in (("the body", number), ("a field of an object", {"id": number})):
                strictconformance_harness.note(api=api, case=f"an integer of {len(format(number, 'x'))} hex digits as {name}")
                _settle(strictconformance_harness, judge_total(checker, api, payload))


# -- the four cases of seeds/004_a0237f49a68a70ed.txt ---------------------------------------------------

_ANTHROPIC_TOOL_USE = "anthropic/messages/tool_use.yaml"
_OPENAI_TOOL_CALL = "openai/chat/tool_call.yaml"
_ANTHROPIC_STREAM = "anthropic/messages/stream_text.yaml"
_GEMINI_THINKING_CALL = "gemini/generate_content/thinking_function_call.yaml"


def _seed_subject(location: str) -> ResponseSubject:
    cassette = load_cassette(location)
    return ResponseSubject(cassette.api, payload=cassette.interactions[0].json(), source=f"{location}#0")


def _tool_use_index(payload: Any) -> int:
    return next(index for index, block in enumerate(payload["content"]) if block["type"] == "tool_use")


def _seed_case(location: str, change: Callable[[Any], tuple[str, str]], *, kind: MutationKind,
               breaking: bool, rule_id: str) -> DriftMutation:
    """The explicit mutation ``change`` makes on the first response of ``location`` (it changes
    the payload in place and returns the path where the change must be caught, and a description)."""
    original = _seed_subject(location)
    mutated = _seed_subject(location)
    path, description = change(mutated.payload)
    return DriftMutation(kind=kind, breaking=breaking, rule_id=rule_id, path=path, description=f"{description} (seeds/004)",
                         subject=mutated, original=original)


@check("DR-3", requires=_api_covered("anthropic.messages", "check_response"))
def test_dr_3_seed_reshaped_tool_use_id(strictconformance_harness: Harness) -> None:
    """Anthropic moves ``tool_use.id`` to ``tool_use.metadata.id``: drift at ``content[*].id``."""

    def move_id(payload: Any) -> tuple[str, str]:
        index = _tool_use_index(payload)
        block = payload["content"][index]
        block["metadata"] = {"id": block.pop("id")}
        return f"content[{index}].id", f"move content[{index}].id to content[{index}].metadata.id"

    _judge_change(strictconformance_harness, _seed_case(_ANTHROPIC_TOOL_USE, move_id, kind="move_field", breaking=True, rule_id="DR-3"), explicit=True)


@check("DR-5", requires=_api_covered("anthropic.messages", "check_response"))
def test_dr_5_seed_renamed_tool_use(strictconformance_harness: Harness) -> None:
    """Anthropic renames ``tool_use`` blocks to ``function_call`` under ``stop_reason: tool_use``:
    drift at ``content[*].type``, and the error says what it found (``function_call``)."""

    def rename(payload: Any) -> tuple[str, str]:
        index = _tool_use_index(payload)
        payload["content"][index]["type"] = "function_call"
        return f"content[{index}].type", f"rename variant 'tool_use' to 'function_call' at content[{index}].type"

    verdict = _judge_change(strictconformance_harness, _seed_case(_ANTHROPIC_TOOL_USE, rename, kind="rename_discriminator", breaking=True, rule_id="DR-5"),
                            explicit=True)
    error = verdict.error
    # The value may be in the error's text, its args, its attributes or its causes (an SDK error
    # wrapping pydantic's ValidationError keeps the input there): read the whole chain.
    shown = chain_text(error) if error is not None else ""
    strictconformance_harness.expect("function_call" in shown, detail="the drift error does not name the actual value", message=(
        f"the drift error does not name the actual value 'function_call' (SPEC DR-5: it fails at content[*].type "
        f"with the actual value), in its text, args, attributes or causes; it reads: {type(error).__name__}: {error}"))


def _add_unknown_block(payload: Any) -> tuple[str, str]:
    payload["content"].insert(1, {"type": "fancy_new_block", "text": "not the model's words", "payload": {"x": 1}})
    return "content[1]", "insert a block of unknown type 'fancy_new_block' (with a text field) at content[1]"


@check("DR-7", requires=lambda declarations: _parses(declarations)
       or _api_covered("anthropic.messages", "check_response")(declarations))
def test_dr_7_seed_unknown_block_is_not_text(strictconformance_harness: Harness) -> None:
    """Anthropic adds a block type nobody knows yet, with a ``text`` field: the SDK reads the same
    text and tool calls as without it (the block is not the model's words)."""
    mutation = _seed_case(_ANTHROPIC_TOOL_USE, _add_unknown_block, kind="add_unknown_variant", breaking=False, rule_id="DR-4")
    strictconformance_harness.note(api=mutation.api, mutation={"kind": mutation.kind, "path": mutation.path, "change": mutation.description},
            **_subject_notes(mutation.subject))
    verdict = judge_fidelity(adapter_checker(strictconformance_harness), mutation.subject,
                             unread=strictconformance_harness.declarations.drift_unread)
    if verdict.status == "skip":
        pytest.skip(f"not judged: {verdict.message}")
    strictconformance_harness.expect(verdict.passed, verdict.message, detail=verdict.defect)


# -- pinned mutations: drawn once by the ci profile, each met a real SDK's bug ----------------------
# A change of Hypothesis's draws (a new release, another derandomized stream) lost them from the
# matrix while the SDKs still had the bug; as fixed cases the kit meets them whatever it draws.


def _recorded_subject(location: str, *, stream: bool) -> ResponseSubject:
    """The first response of the cassette at ``location`` that is (or is not) a stream."""
    response = next(response for response in load_cassette(location).responses() if response.is_stream == stream)
    if stream:
        return ResponseSubject(response.api, events=response.events(), source=response.label)
    return ResponseSubject(response.api, payload=response.payload(), source=response.label)


def _pinned(location: str, *, stream: bool, kind: MutationKind, path: str, choice: Any) -> DriftMutation:
    """The mutation of ``kind`` at ``path`` with ``choice``, made on a recorded response by the
    same code as the drawn ones (so its label, breaking and rule, is theirs)."""
    subject = _recorded_subject(location, stream=stream)
    for candidate in mutation_candidates(subject):
        if candidate.kind == kind and candidate.site is not None and format_path(candidate.site.path) == path:
            return apply_mutation(subject, candidate, choice)
    raise LookupError(f"{location} offers no {kind} mutation at {path}: the pin no longer fits the cassette")


@check("DR-2", requires=_api_covered("anthropic.messages", "check_response"))
def test_dr_2_pinned_retyped_content(strictconformance_harness: Harness) -> None:
    """Anthropic's ``content`` (the array of blocks) arrives as an object: drift at ``content``.
    Pinned: pydantic-ai 2.68.0's AnthropicModel crashed on it with AssertionError (an ``assert`` on
    each block's type), not a drift error (triage pydantic-ai.json, DR-2)."""
    mutation = _pinned(_ANTHROPIC_TOOL_USE, stream=False, kind="change_type", path="content", choice={"drift": 1})
    _judge_change(strictconformance_harness, mutation, explicit=True)


@check("DR-5", requires=_api_covered("anthropic.messages", "check_stream"))
def test_dr_5_pinned_renamed_message_start(strictconformance_harness: Harness) -> None:
    """A stream's one ``message_start`` is renamed (``message_start_v2``): the stream has no message
    to build (the invariant anthropic.messages.stream.message_start): drift at
    ``events[0].data.type``. Pinned: the AI SDK's Anthropic provider (@ai-sdk/anthropic 4.0.105)
    threw a plain Error on a first event it cannot read, not a declared AI_* error (triage
    vercel-ai.json, DR-5)."""
    mutation = _pinned(_ANTHROPIC_STREAM, stream=True, kind="rename_discriminator", path="events[0].data", choice="message_start_v2")
    _judge_change(strictconformance_harness, mutation, explicit=True)


@check("DR-3", requires=_api_covered("gemini.generate_content", "check_response"))
def test_dr_3_pinned_retyped_part_field(strictconformance_harness: Harness) -> None:
    """A function-call part's ``thoughtSignature`` (a string) arrives as 7: drift at
    ``candidates[0].content.parts[1].thoughtSignature``, inside the part (a variant's field).
    Pinned: the AI SDK's Google provider (@ai-sdk/google 4.0.121) reported it at
    ``candidates[0].content`` (its part union), not at the field (triage vercel-ai.json, DR-3)."""
    mutation = _pinned(_GEMINI_THINKING_CALL, stream=False, kind="change_type", path="candidates[0].content.parts[1].thoughtSignature", choice=7)
    _judge_change(strictconformance_harness, mutation, explicit=True)


@check("DR-2", requires=_api_covered("openai.chat", "check_response"))
def test_dr_2_seed_missing_choices_message(strictconformance_harness: Harness) -> None:
    """OpenAI drops ``choices[0].message``: drift at ``choices[0].message``."""

    def drop_message(payload: Any) -> tuple[str, str]:
        del payload["choices"][0]["message"]
        return "choices[0].message", "drop required field choices[0].message"

    _judge_change(strictconformance_harness, _seed_case(_OPENAI_TOOL_CALL, drop_message, kind="drop_field", breaking=True, rule_id="DR-2"), explicit=True)


@check("DR-4", requires=_api_covered("anthropic.messages", "check_response"))
def test_dr_4_seed_unknown_block_type_passes(strictconformance_harness: Harness) -> None:
    """Anthropic adds a block type nobody knows yet: the response still passes (forward compatibility)."""

    def add_block(payload: Any) -> tuple[str, str]:
        payload["content"].insert(1, {"type": "fancy_new_block", "payload": {"x": 1}})
        return "content[1]", "insert a block of unknown type 'fancy_new_block' at content[1]"

    _judge_change(strictconformance_harness, _seed_case(_ANTHROPIC_TOOL_USE, add_block, kind="add_unknown_variant", breaking=False, rule_id="DR-4"),
                  explicit=True)

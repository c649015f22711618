"""Deliberately broken drift checks: each breaks one DR rule the way real SDK code does (or did).

Every class is an adapter whose ``check_response`` / ``check_stream`` is the reference validator
with one fault, raising its own SDK-style error (a pydantic-like ``loc`` tuple, read by
``drift_error_path``). ``BROKEN`` maps each rule to its broken adapter; ``EXTRA_BROKEN`` holds
further faults of an already covered rule.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from typing import Any

from strictconformance.adapter import Adapter
from strictconformance.drift.errors import DriftReport, SchemaDriftError
from strictconformance.drift.paths import format_path, parse_path
from strictconformance.drift.shapes import get_shape
from strictconformance.drift.validator import (
    stream_document,
    validate_response,
    validate_stream,
    violated_relations,
)


class SDKResponseError(Exception):
    """What a typical SDK raises: a message and a location tuple, no kit-specific fields."""

    def __init__(self, message: str, loc: tuple[str | int, ...]) -> None:
        super().__init__(message)
        self.loc = loc


def _loc(path: str) -> tuple[str | int, ...]:
    """A kit path as a pydantic-style location (``[*]`` as ``"*"``)."""
    return tuple(part if isinstance(part, (str, int)) else "*" for part in parse_path(path))


def _raise(error: SchemaDriftError) -> None:
    raise SDKResponseError(str(error), _loc(error.path))


class ReferenceLike(Adapter):
    """The reference validator behind an SDK-style error; subclasses add one fault each."""

    name = "reference-like"
    drift_errors = (SDKResponseError,)

    def drift_error_path(self, error: BaseException) -> Any:
        return getattr(error, "loc", None)

    def report(self, api: str, payload: Any) -> DriftReport:
        return validate_response(api, payload)

    def stream_report(self, api: str, events: Sequence[Any]) -> DriftReport:
        return validate_stream(api, events)

    def keep(self, error: SchemaDriftError) -> bool:
        """Which reference errors this check still raises."""
        return True

    def check_response(self, api: str, payload: Any) -> None:
        self._finish(self.report(api, payload), api, payload)

    def check_stream(self, api: str, events: Sequence[Any]) -> None:
        self._finish(self.stream_report(api, events), api, None)

    def _finish(self, report: DriftReport, api: str, payload: Any) -> None:
        for error in report.errors:
            if self.keep(error):
                _raise(error)
        self.after(report, api, payload)

    def after(self, report: DriftReport, api: str, payload: Any) -> None:
        """A hook run when no error was raised."""


class StrictSDKTypes(ReferenceLike):
    """DR-1: validates against the SDK's own types, which lag reality.

    openai-python 2.45 made ``usage.input_tokens_details.cache_write_tokens`` required while
    real bodies lacked it; strict chat types want a string ``system_fingerprint`` (gpt-5 sends
    null) and a ``usage`` object (Cloudflare omits it with json_schema).
    """

    name = "strict-sdk-types"

    def after(self, report: DriftReport, api: str, payload: Any) -> None:
        if not isinstance(payload, dict):
            return
        if api == "openai.responses" and isinstance(payload.get("usage"), dict):
            details = payload["usage"].get("input_tokens_details")
            if isinstance(details, dict) and "cache_write_tokens" not in details:
                raise SDKResponseError("cache_write_tokens: field required", ("usage", "input_tokens_details", "cache_write_tokens"))
        if api.endswith(".chat"):
            if "system_fingerprint" in payload and payload["system_fingerprint"] is None:
                raise SDKResponseError("system_fingerprint: input should be a string", ("system_fingerprint",))
            if "usage" not in payload:
                raise SDKResponseError("usage: field required", ("usage",))


class NoEnvelopeChecks(ReferenceLike):
    """DR-2: trusts the envelope (choices, message, usage...) and checks only union elements."""

    name = "no-envelope-checks"

    def keep(self, error: SchemaDriftError) -> bool:
        return error.rule_id != "DR-2"


class NoElementChecks(ReferenceLike):
    """DR-3: the PR #40 hole: top-level fields are checked, elements of discriminated arrays are not."""

    name = "no-element-checks"

    def keep(self, error: SchemaDriftError) -> bool:
        return error.rule_id != "DR-3"


class RejectsUnknownVariants(ReferenceLike):
    """DR-4: treats a new block type (or stream event type) as an error instead of a notice."""

    name = "rejects-unknown-variants"

    def after(self, report: DriftReport, api: str, payload: Any) -> None:
        for notice in report.notices_of("unknown_variant"):
            raise SDKResponseError(f"unknown variant: {notice.detail}", _loc(notice.path))


class ClosedAnnotationTypes(ReferenceLike):
    """DR-4 (extra): Chat Completions message annotations typed as a closed union (as
    openai-python's strict validation has them): a new annotation type is rejected, every other
    new variant passes. Only the per-array sweep finds it reliably; a random draw rarely lands there."""

    name = "closed-annotation-types"

    def after(self, report: DriftReport, api: str, payload: Any) -> None:
        for notice in report.notices_of("unknown_variant"):
            if ".annotations[" in notice.path:
                raise SDKResponseError(f"unknown annotation type: {notice.detail}", _loc(notice.path))


class NoInvariants(ReferenceLike):
    """DR-5: checks every field but never relates stop_reason to the blocks (a renamed tool_use slips by)."""

    name = "no-invariants"

    def keep(self, error: SchemaDriftError) -> bool:
        return error.rule_id != "DR-5"


class CrashesOnOddInput(ReferenceLike):
    """DR-6: reads the payload before validating it, so a body that is not an object crashes (AttributeError)."""

    name = "crashes-on-odd-input"

    def check_response(self, api: str, payload: Any) -> None:
        model = payload.get("modelVersion" if api == "gemini.generate_content" else "model")  # AttributeError on a list
        del model
        super().check_response(api, payload)


class EmptyValuesPass(ReferenceLike):
    """DR-2/DR-3 (extra): checks ids and names with ``is not None``, so ``id: ""``, a tool name
    ``""`` or ``choices: []`` pass where the API declares them non-empty."""

    name = "empty-values-pass"

    def keep(self, error: SchemaDriftError) -> bool:
        return not error.actual_type.startswith("empty ")


class BoolIsAnInt(ReferenceLike):
    """DR-2 (extra): types counts with ``isinstance(x, int)``, which ``True`` passes (a bool is an
    int in Python): ``usage.total_tokens: true`` is read as 1."""

    name = "bool-is-an-int"

    def keep(self, error: SchemaDriftError) -> bool:
        return not (error.actual_type == "boolean" and ("integer" in error.expected or "number" in error.expected))


class _SkipsRelations(ReferenceLike):
    """The reference without the relations of the kinds in ``skipped`` (unique, sum, increasing)."""

    skipped: tuple[str, ...] = ()

    def _without(self, report: DriftReport, relations: Sequence[Any], document: Any) -> DriftReport:
        paths = {format_path(breach.path) for breach in violated_relations(relations, document) if breach.relation.kind in self.skipped}
        kept = tuple(error for error in report.errors if not (error.rule_id == "DR-5" and error.path in paths))
        return DriftReport(report.api, kept, report.notices, report.notices_dropped, report.fields_checked)

    def report(self, api: str, payload: Any) -> DriftReport:
        return self._without(validate_response(api, payload), get_shape(api).relations, payload)

    def stream_report(self, api: str, events: Sequence[Any]) -> DriftReport:
        report = validate_stream(api, events)
        try:
            document = stream_document(api, events)
        except Exception:  # events that are not SSE events: the reference reports them itself
            return report
        return self._without(report, get_shape(api).stream.relations, document)


class DuplicateIdsPass(_SkipsRelations):
    """DR-5 (extra): keeps tool calls in a dict by id without noticing two calls share one (the
    second silently replaces the first)."""

    name = "duplicate-ids-pass"
    skipped = ("unique",)


class UsageTotalUnchecked(_SkipsRelations):
    """DR-5 (extra): reads usage.total_tokens as sent, never against input + output."""

    name = "usage-total-unchecked"
    skipped = ("sum",)


class SequenceUnchecked(_SkipsRelations):
    """DR-5 (extra): processes Responses stream events as they come, never looking at sequence_number's order."""

    name = "sequence-unchecked"
    skipped = ("increasing",)


def _to_model(value: Any) -> Any:
    """What SDK code converting JSON to its own objects often is: a recursive walk."""
    if isinstance(value, dict):
        return {key: _to_model(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_to_model(item) for item in value]
    return value


class RecursesIntoPayload(ReferenceLike):
    """DR-6 (extra): converts the payload (and each event's parsed data) to its own objects with
    a recursive walk, so a body nested past the recursion limit escapes as RecursionError."""

    name = "recurses-into-payload"

    def check_response(self, api: str, payload: Any) -> None:
        _to_model(payload)
        super().check_response(api, payload)

    def check_stream(self, api: str, events: Sequence[Any]) -> None:
        for event in events:
            try:
                data = json.loads(getattr(event, "data", ""))
            except ValueError:
                continue
            _to_model(data)
        super().check_stream(api, events)


class PrintsNumbers(ReferenceLike):
    """DR-6 (extra): formats every number of the payload (for its usage log, say), so an integer
    too long to print (10**5000: JSON numbers have no size limit) escapes as ValueError."""

    name = "prints-numbers"

    def check_response(self, api: str, payload: Any) -> None:
        stack, seen = [payload], set()
        while stack:
            value = stack.pop()
            if isinstance(value, (dict, list)):
                if id(value) in seen:  # the kit's own tests hand checks a dict inside itself too
                    continue
                seen.add(id(value))
            if isinstance(value, dict):
                stack.extend(value.values())
            elif isinstance(value, list):
                stack.extend(value)
            elif isinstance(value, int):
                str(value)
        super().check_response(api, payload)


class CleansUpPayload(ReferenceLike):
    """DR-6 (extra): "helpfully" strips fields it does not know from the caller's payload."""

    name = "cleans-up-payload"

    def after(self, report: DriftReport, api: str, payload: Any) -> None:
        if isinstance(payload, dict):
            for notice in report.notices_of("unknown_field"):
                parts = parse_path(notice.path)
                if len(parts) == 1 and isinstance(parts[0], str):
                    payload.pop(parts[0], None)


class ParentPath(ReferenceLike):
    """DR-2 (extra): detects drift but reports the parent object's path instead of the field's."""

    name = "parent-path"

    def drift_error_path(self, error: BaseException) -> Any:
        loc = getattr(error, "loc", ())
        return loc[:-1] if loc else loc


class RaisesBareKeyError(ReferenceLike):
    """DR-2 (extra): detects a missing field by crashing with KeyError, not a declared error."""

    name = "raises-bare-key-error"

    def _finish(self, report: DriftReport, api: str, payload: Any) -> None:
        if report.errors:
            raise KeyError(report.errors[0].path)


class NoLifecycle(ReferenceLike):
    """DR-8: checks every event on its own, never the events' order (a delta for a block never
    started, fragments that do not join, a block never closed all slip by)."""

    name = "no-lifecycle"

    def keep(self, error: SchemaDriftError) -> bool:
        return error.rule_id != "DR-8"


class AcceptsUnopenedIndex(ReferenceLike):
    """DR-8: accepts a delta (or tool-call fragment) for an index never opened, as SDKs that index
    a dict of blocks by the delta's index do (the rest of the lifecycle is checked)."""

    name = "accepts-unopened-index"

    def keep(self, error: SchemaDriftError) -> bool:
        return not (error.rule_id == "DR-8" and "never" in (error.actual_type or "") and "closed" not in (error.actual_type or ""))


class IgnoresMovedUsage(ReferenceLike):
    """DR-2: reads token usage only where the API reference places it, and takes a usage moved
    under a new key for an absent one (no usage, no error)."""

    name = "ignores-moved-usage"

    def keep(self, error: SchemaDriftError) -> bool:
        return not (error.actual_type or "").startswith("absent (moved to")


class RejectsNewStopReason(ReferenceLike):
    """DR-4: a closed enum of stop reasons: a new value raises, though the response is whole."""

    name = "rejects-new-stop-reason"

    def after(self, report: DriftReport, api: str, payload: Any) -> None:
        for notice in report.notices:
            if notice.kind == "unknown_value" and notice.path.rsplit(".", 1)[-1] in ("finish_reason", "stop_reason", "finishReason"):
                raise SDKResponseError(f"unknown stop reason: {notice.detail}", _loc(notice.path))


BROKEN: Mapping[str, type[ReferenceLike]] = {
    "DR-1": StrictSDKTypes,
    "DR-2": NoEnvelopeChecks,
    "DR-3": NoElementChecks,
    "DR-4": RejectsUnknownVariants,
    "DR-5": NoInvariants,
    "DR-6": CrashesOnOddInput,
    "DR-8": NoLifecycle,
}

EXTRA_BROKEN: Mapping[str, tuple[type[ReferenceLike], ...]] = {
    "DR-4": (ClosedAnnotationTypes, RejectsNewStopReason),
    "DR-2": (ParentPath, RaisesBareKeyError, IgnoresMovedUsage),
    "DR-6": (CleansUpPayload, RecursesIntoPayload, PrintsNumbers),
    "DR-8": (AcceptsUnopenedIndex,),
}


class ThreeRelationsUnchecked(_SkipsRelations):
    """DR-5, three defects at once: duplicate tool-call ids, a wrong usage total and a
    non-increasing sequence_number all pass (DuplicateIdsPass, UsageTotalUnchecked and
    SequenceUnchecked in one SDK): three findings, each with its own counterexample."""

    name = "three-relations-unchecked"
    skipped = ("unique", "sum", "increasing")



class TrustsTopLevelTypes(ReferenceLike):
    """DR-2: checks every nested field but trusts the types of the body's top-level fields (as
    google-genai iterated a ``candidates`` that was an object, or an integer): a retyped top-level
    field reads without an error; a missing one still raises."""

    name = "trusts-top-level-types"

    def keep(self, error: SchemaDriftError) -> bool:
        top_level = bool(error.path) and not any(mark in error.path for mark in ".[")
        top_level_retype = error.rule_id == "DR-2" and top_level and not (error.actual_type or "").startswith("absent")
        return not top_level_retype

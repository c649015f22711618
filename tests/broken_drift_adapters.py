"""Broken drift adapters for the plugin run: each makes exactly one DR rule fail.

``BROKEN[rule_id]`` names (``module:Class``) the adapter whose one plausible SDK bug breaks that
rule. The classes live in ``broken_drift.py`` (also used by the oracle self-tests); each is the
reference validator behind an SDK-style error with a pydantic-like ``loc`` tuple. ``EXTRA`` holds
further bugs with the rule that must catch them (they may fail other rules too); the classes
defined here besides those differ from the reference without breaking any rule.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from broken_drift import ReferenceLike
from strictconformance.adapter import Adapter

BROKEN: dict[str, str] = {
    "DR-1": "broken_drift:StrictSDKTypes",
    "DR-2": "broken_drift:NoEnvelopeChecks",
    "DR-3": "broken_drift:NoElementChecks",
    "DR-4": "broken_drift:RejectsUnknownVariants",
    "DR-5": "broken_drift:NoInvariants",
    "DR-6": "broken_drift:CrashesOnOddInput",
    "DR-7": "fidelity_adapters:ReadsItemIdAsCallId",
    "DR-8": "broken_drift:NoLifecycle",
    "DR-9": "fidelity_adapters:CutStreamUnmarked",
}

#: Further bugs, and the rule that must catch each.
EXTRA: Mapping[str, str] = {
    "broken_drift:ParentPath": "DR-2",
    "broken_drift_adapters:MutatesPayload": "DR-6",
    "fidelity_adapters:TextifiesUnknownBlocks": "DR-7",
    "fidelity_adapters:InventsToolCall": "DR-7",
    "fidelity_adapters:ReturnsNothing": "DR-7",
    "broken_drift:AcceptsUnopenedIndex": "DR-8",
    "broken_drift:IgnoresMovedUsage": "DR-2",
    "broken_drift:RejectsNewStopReason": "DR-4",
    "fidelity_adapters:DropsCallsOnNewStopReason": "DR-7",
}


class MutatesPayload(ReferenceLike):
    """DR-6 (extra): normalises the caller's payload in place (drops ``null`` values at the top)."""

    name = "mutates-payload"

    def check_response(self, api: str, payload: Any) -> None:
        if isinstance(payload, dict):
            for key in [key for key, value in payload.items() if value is None]:
                del payload[key]
        super().check_response(api, payload)


class PathlessErrors(ReferenceLike):
    """Passes: its drift error carries no path the suite can read (paths are then not checked)."""

    name = "pathless-errors"

    def drift_error_path(self, error: BaseException) -> Any:
        return None


class ResponsesOnlyOpenAI(ReferenceLike):
    """Passes: checks OpenAI Chat bodies only (no check_stream, one declared API); the rest is not covered."""

    name = "responses-only-openai"
    drift_apis = ("openai.chat",)
    check_stream = Adapter.check_stream  # the base's: not implemented


class StreamsOnly(ReferenceLike):
    """Passes what it covers: only check_stream (DR-6 needs check_response: not covered)."""

    name = "streams-only"
    check_response = Adapter.check_response  # the base's: not implemented

"""Broken adapters with the bugs of real SDKs that the ``ci`` profile's draws once met and then
lost (a change of Hypothesis's draws): each is pinned in the kit as a fixed case (the case library,
``conformance/cases/cases.json``) or a fixed mutation (``test_dr_*_pinned_*`` in
``checks/test_drift.py``), and each adapter here shows the pin meets its bug whatever is drawn.

``PINNED_CASES``: adapter -> (case id, rule, the finding key the pin must give);
``PINNED_MUTATIONS``: adapter -> (check name, rule, the finding key).
"""

from __future__ import annotations

import copy
from collections.abc import Mapping, Sequence
from typing import Any

from broken_drift import ReferenceLike, SDKResponseError
from broken_strict_adapters import _nodes
from strictconformance.dialects import Strictified
from strictconformance.drift.sse import SSEEvent
from strictconformance.reference import ReferenceAdapter
from strictconformance.reference.strictify import reference_strictify

_MODULE = __name__


class _Pinned(ReferenceAdapter):
    """The reference strictify in one dialect, with one SDK's bug."""

    strictify_dialects: tuple[str, ...] = ("google-schema",)


class CrashesOnARootRef(_Pinned):
    """google-genai 2.34.0 Schema.from_json_schema: ``$ref: "#"`` is looked up as the key ``''`` of
    the root (``ref.lstrip('#/').split('/')``): KeyError (case ``root-ref-recursion``)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        if any(node.get("$ref") == "#" for node in _nodes(schema)):
            raise KeyError("")
        return reference_strictify(schema, dialect)


class DropsTheDescriptionBesideARef(_Pinned):
    """google-genai 2.34.0 Schema.from_json_schema: a ``$ref`` is replaced by its target, and the
    description written beside it goes with it, silently (case ``nested-ref-with-description``)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        stripped = copy.deepcopy(dict(schema))
        for node in _nodes(stripped):
            if "$ref" in node:
                node.pop("description", None)
        return reference_strictify(stripped, dialect)


class KeepsFormatUnderTypeListItems(_Pinned):
    """pydantic-ai 2.68.0 GoogleJsonSchemaTransformer: array keywords are walked only where
    ``type`` is exactly ``'array'``, so a ``format`` under the ``items`` of a ``['array', 'null']``
    property is sent as is (case ``format-under-type-list-items``, SM-31 through RT-1)."""

    strictify_dialects = ("google",)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        strict = copy.deepcopy(result.schema)
        for name, original in (schema.get("properties") or {}).items():
            kept = (original.get("items") or {}).get("format") if isinstance(original.get("type"), list) else None
            if kept is None:
                continue
            node = strict["properties"][name]
            for branch in [node, *node.get("anyOf", [])]:
                if branch.get("type") == "array" and isinstance(branch.get("items"), dict):
                    branch["items"]["format"] = kept
        return Strictified(strict, result.losses)


class AssertsOnBlockTypes(ReferenceLike):
    """pydantic-ai 2.68.0 AnthropicModel: ``assert`` on each content block's type, so a ``content``
    retyped as an object crashes with AssertionError (iterating it gives its keys), not a drift
    error (``test_dr_2_pinned_retyped_content``)."""

    name = "asserts-on-block-types"

    def check_response(self, api: str, payload: Any) -> None:
        if api == "anthropic.messages" and isinstance(payload, dict):
            for block in payload.get("content") or ():
                assert isinstance(block, dict), f"unexpected item type {type(block)}"
        super().check_response(api, payload)


class PlainErrorOnAnUnreadableFirstEvent(ReferenceLike):
    """@ai-sdk/anthropic 4.0.105 doStream: a first event that is not a message_start it can read
    becomes ``new Error('Expected a normalized Anthropic stream error')``, not a declared error
    (``test_dr_5_pinned_renamed_message_start``)."""

    name = "plain-error-on-an-unreadable-first-event"

    def check_stream(self, api: str, events: Sequence[SSEEvent]) -> None:
        if api == "anthropic.messages" and events and '"type":"message_start"' not in events[0].data.replace(" ", ""):
            raise RuntimeError("Expected a normalized Anthropic stream error")
        super().check_stream(api, events)


class ReportsAPartAtItsContent(ReferenceLike):
    """@ai-sdk/google 4.0.121: a part whose field is retyped matches no member of its part union,
    and zod reports the union's holder, ``candidates[0].content``, not the field
    (``test_dr_3_pinned_retyped_part_field``)."""

    name = "reports-a-part-at-its-content"

    def check_response(self, api: str, payload: Any) -> None:
        if api == "gemini.generate_content" and isinstance(payload, dict):
            for index, candidate in enumerate(payload.get("candidates") or ()):
                parts = ((candidate.get("content") or {}).get("parts") or ()) if isinstance(candidate, dict) else ()
                if any(isinstance(part, dict) and "thoughtSignature" in part and not isinstance(part["thoughtSignature"], str)
                       for part in parts):
                    raise SDKResponseError("Unrecognized keys in object", ("candidates", index, "content"))
        super().check_response(api, payload)


PINNED_CASES: dict[str, tuple[str, str, str]] = {
    f"{_MODULE}:CrashesOnARootRef": ("root-ref-recursion", "RT-1", "RT-1 crash: KeyError from strictify()"),
    f"{_MODULE}:DropsTheDescriptionBesideARef": (
        "nested-ref-with-description", "RT-9", "RT-9 violation: a `description` dropped at a nested node"),
    f"{_MODULE}:KeepsFormatUnderTypeListItems": (
        "format-under-type-list-items", "RT-1", "RT-1 violation: SM-31 at `format` of a string inside items"),
}

PINNED_MUTATIONS: dict[str, tuple[str, str, str]] = {
    f"{_MODULE}:AssertsOnBlockTypes": (
        "test_dr_2_pinned_retyped_content", "DR-2", "DR-2 crash: AssertionError from check_response()"),
    f"{_MODULE}:PlainErrorOnAnUnreadableFirstEvent": (
        "test_dr_5_pinned_renamed_message_start", "DR-5", "DR-5 crash: RuntimeError from check_stream()"),
    f"{_MODULE}:ReportsAPartAtItsContent": (
        "test_dr_3_pinned_retyped_part_field", "DR-3", "DR-3 violation: drift reported at the wrong path (change_type)"),
}

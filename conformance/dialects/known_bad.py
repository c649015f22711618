"""Known-bad schemas: for every SM rule, a schema that breaks that rule and no other rule of the
dialect named, with the pointer where the break is. The validator must report exactly it.

Each is a small change to a schema every shipped strict dialect accepts, so a report that names
any other rule is a validator bug, not a side effect.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass
from typing import Any

__all__ = ["KnownBad", "known_bad_cases"]


@dataclass(frozen=True)
class KnownBad:
    rule_id: str
    dialect: str
    schema: dict[str, Any]
    pointer: str


def _base(**properties: Any) -> dict[str, Any]:
    """A closed root object whose properties are all required."""
    properties = properties or {"a": {"type": "string"}}
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def _closed(**properties: Any) -> dict[str, Any]:
    return _base(**properties)


def _with(extra: dict[str, Any], **properties: Any) -> dict[str, Any]:
    schema = _base(**properties)
    schema.update(copy.deepcopy(extra))
    return schema


def _nested(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = _closed(n=node)
    return node


def known_bad_cases() -> tuple[KnownBad, ...]:
    """One case per SM rule (built fresh on each call: callers may not mutate shared data)."""
    string = {"type": "string"}
    cases = [
        KnownBad("SM-01", "openai", {"type": "array", "items": string}, ""),
        KnownBad("SM-02", "openai", _base(a={}), "/properties/a"),
        KnownBad("SM-03", "openai", {"type": "object", "properties": {"a": string}, "required": ["a"]}, ""),
        KnownBad("SM-04", "openai", _base(a={"type": "array"}), "/properties/a"),
        KnownBad("SM-05", "openai", _with({"patternProperties": {"^x": string}}), "/patternProperties"),
        KnownBad("SM-06", "openai@2025-01", _with({"$defs": {"s": string}}, a={"$ref": "#/$defs/s"}), "/properties/a/$ref"),
        KnownBad("SM-07", "openai", _base(a={"type": "string", "$anchor": "here"}), "/properties/a/$anchor"),
        KnownBad("SM-08", "openai@2025-01", _base(a={"$dynamicRef": "#here"}), "/properties/a/$dynamicRef"),
        KnownBad("SM-09", "openai", _base(a={"type": "string", "$dynamicAnchor": "here"}), "/properties/a/$dynamicAnchor"),
        KnownBad("SM-10", "openai", _with({"dependentSchemas": {"a": {"type": "object", "additionalProperties": False}}}), "/dependentSchemas"),
        KnownBad("SM-11", "openai", _with({"dependentRequired": {"a": ["a"]}}), "/dependentRequired"),
        KnownBad("SM-12", "openai", _with({"unevaluatedProperties": False}), "/unevaluatedProperties"),
        KnownBad("SM-13", "openai", _base(a={"type": "array", "items": string, "unevaluatedItems": False}), "/properties/a/unevaluatedItems"),
        KnownBad("SM-14", "openai", _base(a={"type": "array", "items": string, "contains": string}), "/properties/a/contains"),
        KnownBad("SM-15", "openai", _base(a={"type": "array", "items": string, "minContains": 1}), "/properties/a/minContains"),
        KnownBad("SM-16", "openai", _base(a={"type": "array", "items": string, "maxContains": 3}), "/properties/a/maxContains"),
        KnownBad("SM-17", "openai", _base(a={"type": "string", "if": string}), "/properties/a/if"),
        KnownBad("SM-18", "openai", _base(a={"type": "string", "then": string}), "/properties/a/then"),
        KnownBad("SM-19", "openai", _base(a={"type": "string", "else": string}), "/properties/a/else"),
        KnownBad("SM-20", "openai", _base(a={"type": "string", "not": {"type": "null"}}), "/properties/a/not"),
        KnownBad("SM-21", "openai@2025-01", _nested(6), "/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n"),
        KnownBad("SM-22", "openai", _base(**{f"p{i}": {"type": "boolean"} for i in range(5001)}), ""),
        KnownBad("SM-23", "openai", _base(a={"type": "string", "enum": [f"v{i}" for i in range(1001)]}), ""),
        KnownBad("SM-24", "openai", _base(**{f"{i:02d}" + "x" * 4100: {"type": "boolean"} for i in range(30)}), ""),
        KnownBad("SM-25", "openai", _base(a={"type": "string", "enum": [f"{i:03d}" + "y" * 57 for i in range(251)]}), "/properties/a/enum"),
        KnownBad("SM-26", "openai", _base(a={"allOf": [string]}), "/properties/a/allOf"),
        KnownBad("SM-27", "openai", _base(a={"oneOf": [string]}), "/properties/a/oneOf"),
        KnownBad("SM-28", "openai", _base(a={"type": "array", "prefixItems": [string]}), "/properties/a/prefixItems"),
        KnownBad("SM-29", "openai", {"type": "object", "properties": {"a": string}, "required": [], "additionalProperties": False}, "/properties/a"),
        KnownBad("SM-30", "openai", _with({"anyOf": [{"type": "object", "properties": {}, "required": [], "additionalProperties": False}]}), "/anyOf"),
        KnownBad("SM-31", "openai", _base(a={"type": "string", "format": "uri"}), "/properties/a/format"),
        KnownBad("SM-32", "openai", _base(a={"type": "array", "items": string, "uniqueItems": True}), "/properties/a/uniqueItems"),
        KnownBad("SM-33", "openai", _base(a={"type": "string", "default": "x"}), "/properties/a/default"),
        KnownBad("SM-34", "anthropic",
                 _with({"$defs": {"n": {"type": "object", "properties": {"c": {"$ref": "#/$defs/n"}}, "required": [], "additionalProperties": False}}},
                       a={"$ref": "#/$defs/n"}),
                 "/$defs/n/properties/c/$ref"),
        KnownBad("SM-35", "anthropic", _base(a={"type": "integer", "minimum": 1}), "/properties/a/minimum"),
        KnownBad("SM-36", "anthropic", _base(a={"type": "string", "maxLength": 5}), "/properties/a/maxLength"),
        KnownBad("SM-37", "anthropic", _base(a={"type": "array", "items": string, "minItems": 2}), "/properties/a/minItems"),
        KnownBad("SM-38", "anthropic", _base(a={"type": "array", "items": string, "maxItems": 2}), "/properties/a/maxItems"),
        KnownBad("SM-39", "anthropic", _base(a={"enum": [[1], "x"]}), "/properties/a/enum/0"),
        KnownBad("SM-40", "anthropic", _with({"$defs": {"s": string}}, a={"allOf": [{"$ref": "#/$defs/s"}]}), "/properties/a/allOf/0"),
        KnownBad("SM-41", "openai", _base(a={"$ref": "https://example.com/schemas/a.json"}), "/properties/a/$ref"),
        KnownBad("SM-42", "google", _with({"propertyOrdering": ["b"]}), "/propertyOrdering"),
        KnownBad("SM-43", "anthropic", _base(a={"type": "string", "pattern": "^(a)\\1$"}), "/properties/a/pattern"),
        KnownBad("SM-44", "google", _base(a={"type": "string", "const": "x"}), "/properties/a/const"),
        KnownBad("SM-45", "google", _base(a={"type": "integer", "exclusiveMinimum": 0}), "/properties/a/exclusiveMinimum"),
    ]
    return tuple(cases)

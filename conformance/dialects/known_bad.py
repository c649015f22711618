"""Known-bad schemas: for every SM rule, a schema that breaks that rule and no other rule of the
dialect named, with the pointer where the break is. The validator must report exactly it.

Each is a small change to a schema every shipped strict dialect accepts, so a report that names
any other rule is a validator bug, not a side effect.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strictconformance.cases import library

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


def _nested(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = _closed(n=node)
    return node


def known_bad_cases() -> tuple[KnownBad, ...]:
    """One case per SM rule (built fresh on each call: callers may not mutate shared data)."""
    # the fixed ones are data (strictconformance/cases/cases.json); those sized around a limit are built here
    cases = [KnownBad(case.breaks["rule"], case.breaks["dialect"], case.schema, case.breaks["pointer"])
             for case in library() if case.kind == "known-bad" and case.breaks is not None]
    cases += [
        KnownBad("SM-21", "openai@2025-01", _nested(6), "/properties/n/properties/n/properties/n/properties/n/properties/n/properties/n"),
        KnownBad("SM-22", "openai", _base(**{f"p{i}": {"type": "boolean"} for i in range(5001)}), ""),
        KnownBad("SM-23", "openai", _base(a={"type": "string", "enum": [f"v{i}" for i in range(1001)]}), ""),
        KnownBad("SM-24", "openai", _base(**{f"{i:02d}" + "x" * 4100: {"type": "boolean"} for i in range(30)}), ""),
        KnownBad("SM-25", "openai", _base(a={"type": "string", "enum": [f"{i:03d}" + "y" * 57 for i in range(251)]}), "/properties/a/enum"),
    ]
    return tuple(sorted(cases, key=lambda case: int(case.rule_id[3:])))

"""A finding's key names where the broken keyword sits (``shape_at``): a keyword's value is never
read as a schema. ``uniqueItems: true`` and ``default: true`` are values; before the fix the key
said "boolean schema true inside uniqueItems", so one SDK defect (a kept ``default``) split into
keys of two shapes ("`default` of a string inside ..." and "boolean schema true inside default")
and a triage pattern written for the one missed the other (the matrix build at b2d10ee on
openai-python showed both)."""

from __future__ import annotations

from typing import Any

import pytest

from strictconformance.dialects.oracles import check_sm_rule, shape_at

SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "flag": {"type": "boolean", "default": True},
        "default": True,  # a property named like the keyword: a schema
        "properties": {"type": "array", "uniqueItems": True, "items": True},
        "limits": {"type": "object", "default": {"a": 1}, "properties": {"a": {"type": "integer"}}},
    },
    "additionalProperties": True,
    "prefixItems": [True],
}


@pytest.mark.parametrize(("pointer", "expected"), [
    ("/properties/flag/default", "`default` of a boolean inside properties"),
    ("/properties/properties/uniqueItems", "`uniqueItems` of an array inside properties"),
    ("/properties/limits/default", "`default` of an object inside properties"),
    ("/properties/default", "boolean schema true inside properties"),
    ("/properties/properties/items", "boolean schema true inside items"),
    ("/additionalProperties", "boolean schema true inside additionalProperties"),
    ("/prefixItems/0", "boolean schema true inside prefixItems"),
    ("", "object at the root"),
])
def test_a_keyword_value_is_not_described_as_a_schema(pointer: str, expected: str) -> None:
    assert shape_at(SCHEMA, pointer) == expected


def test_a_kept_default_has_one_key_whatever_its_value() -> None:
    def keep(schema: dict[str, Any]) -> dict[str, Any]:  # a strictify that closes objects and keeps `default`
        return {**schema, "additionalProperties": False, "required": list(schema["properties"])}

    keys = set()
    for value in (True, False, "yes", {"a": 1}, [1]):
        finding = check_sm_rule("SM-33", {"type": "object", "properties": {"on": {"type": "boolean", "default": value}}}, keep, "openai")
        assert finding is not None
        keys.add(finding.key)
    assert keys == {"SM-33 violation: `default` of a boolean inside properties"}

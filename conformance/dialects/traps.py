"""The classic traps of strictify, as fixed cases: a schema and values of it that a careless
strictify or codec gets wrong. Checks run every RT oracle on them besides the generated cases."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["Trap", "traps"]


@dataclass(frozen=True)
class Trap:
    name: str
    why: str
    schema: dict[str, Any]
    values: tuple[Any, ...]


def traps() -> tuple[Trap, ...]:
    """The cases (built fresh on each call)."""
    return (
        Trap("optional-and-nullable", "absent and null meet when an optional property becomes required | null",
             {"type": "object", "properties": {"note": {"type": ["string", "null"]}, "id": {"type": "integer"}}, "required": ["id"]},
             ({"id": 1}, {"id": 1, "note": None}, {"id": 2, "note": "x"})),
        Trap("allOf-of-objects", "closing each branch separately makes the conjunction unsatisfiable",
             {"allOf": [{"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]},
                        {"type": "object", "properties": {"b": {"type": "integer"}}}]},
             ({"a": "x"}, {"a": "x", "b": 2})),
        Trap("ref-with-siblings", "a $ref's sibling keywords apply too (Draft 2020-12), not only the target",
             {"type": "object", "properties": {"code": {"$ref": "#/$defs/Code", "description": "the code", "maxLength": 4}},
              "required": ["code"], "$defs": {"Code": {"type": "string", "pattern": "^[A-Z]+$"}}},
             ({"code": "AB"}, {"code": "ABCD"})),
        Trap("recursion", "a recursive definition must be kept, or unrolled and truncated with a loss",
             {"type": "object", "properties": {"root": {"$ref": "#/$defs/Tree"}}, "required": ["root"],
              "$defs": {"Tree": {"type": "object", "properties": {"name": {"type": "string"},
                                                                 "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}},
                                 "required": ["name"]}}},
             ({"root": {"name": "a"}}, {"root": {"name": "a", "children": [{"name": "b", "children": [{"name": "c", "children": [
                 {"name": "d", "children": [{"name": "e", "children": [{"name": "f"}]}]}]}]}]}})),
        Trap("records", "a map with a value schema has no closed-object form: pairs on the wire",
             {"type": "object", "properties": {"scores": {"type": "object", "additionalProperties": {"type": "number"}}},
              "required": ["scores"]},
             ({"scores": {}}, {"scores": {"alice": 1.5, "bob": 2}})),
        Trap("tuples", "prefixItems become numeric-key objects; a short tuple's missing positions are absent",
             {"type": "object", "properties": {"point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"},
                                                                                         {"type": "string"}],
                                                        "minItems": 2, "items": False}},
              "required": ["point"]},
             ({"point": [1, 2]}, {"point": [1.5, 2, "label"]})),
        Trap("type-lists", "a type list becomes one branch per type, each with its own keywords",
             {"type": "object", "properties": {"v": {"type": ["integer", "string", "null"], "minimum": 0, "maxLength": 3}},
              "required": ["v"]},
             ({"v": 3}, {"v": "abc"}, {"v": None})),
        Trap("non-object-root", "only an object can be the arguments: other roots travel wrapped",
             {"type": "array", "items": {"type": "string"}},
             ([], ["a", "b"])),
        Trap("anyOf-root", "a root anyOf of objects is not an object either",
             {"anyOf": [{"type": "object", "properties": {"kind": {"const": "a"}}, "required": ["kind"]},
                        {"type": "object", "properties": {"kind": {"const": "b"}, "n": {"type": "integer"}}, "required": ["kind"]}]},
             ({"kind": "a"}, {"kind": "b", "n": 3})),
        Trap("deep-nesting", "depth limits truncate below the limit, reporting the loss",
             {"type": "object", "properties": {"l1": {"type": "object", "properties": {"l2": {"type": "object", "properties": {
                 "l3": {"type": "object", "properties": {"l4": {"type": "object", "properties": {"l5": {"type": "object", "properties": {
                     "l6": {"type": "string"}}, "required": ["l6"]}}, "required": ["l5"]}}, "required": ["l4"]}}, "required": ["l3"]}},
                 "required": ["l2"]}}, "required": ["l1"]},
             ({"l1": {"l2": {"l3": {"l4": {"l5": {"l6": "deep"}}}}}},)),
    )

"""The classic traps of strictify, as fixed cases: a schema and values of it that a careless
strictify or codec gets wrong. Checks run every RT oracle on them besides the generated cases.

Some are sized from the dialect they are checked in: the deep nesting goes one level past its
depth limit, and where it caps the characters of names and values, one object goes past that
(so the truncation codec is met in every dialect that truncates, whatever the generated schemas
reach).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strictconformance.dialects.model import Dialect

__all__ = ["DEFAULT_DEEP_LEVELS", "Trap", "traps"]

#: Levels of the deep-nesting trap in a dialect without a depth limit (one past the catalogue's 5).
DEFAULT_DEEP_LEVELS = 6


@dataclass(frozen=True)
class Trap:
    name: str
    why: str
    schema: dict[str, Any]
    values: tuple[Any, ...]


def _deep_nesting(levels: int) -> Trap:
    """Objects nested ``levels`` deep (``l1`` ... ``l<levels>``), a string at the bottom."""
    schema: dict[str, Any] = {"type": "string"}
    value: Any = "deep"
    for level in range(levels, 0, -1):
        name = f"l{level}"
        schema = {"type": "object", "properties": {name: schema}, "required": [name]}
        value = {name: value}
    return Trap("deep-nesting", f"depth limits truncate below the limit, reporting the loss ({levels} levels)", schema, (value,))


def _over_string_size(limit: int) -> Trap:
    """One nested object whose property name alone is over the dialect's character budget."""
    name = "n" * (limit + 1)
    return Trap("string-size", f"past the budget of {limit} characters of names and values, a subtree travels as JSON text, reporting the loss",
                {"type": "object", "properties": {"id": {"type": "integer"},
                                                  "big": {"type": "object", "properties": {name: {"type": "string"}}, "required": [name],
                                                          "additionalProperties": False}},
                 "required": ["id", "big"], "additionalProperties": False},
                ({"id": 1, "big": {name: "x"}},))


def traps(dialect: Dialect | None = None) -> tuple[Trap, ...]:
    """The cases (built fresh on each call), sized for ``dialect`` where it has limits."""
    limits = dialect.limits if dialect is not None else None
    levels = limits.max_depth + 1 if limits is not None and limits.max_depth is not None else DEFAULT_DEEP_LEVELS
    sized = (_over_string_size(limits.max_total_string_length),) if limits is not None and limits.max_total_string_length is not None else ()
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
        Trap("bounds", "array, string, map and number bounds: one silently dropped lets the model answer what the original forbids",
             {"type": "object", "properties": {
                 "one": {"type": "array", "items": {"type": "integer"}, "minItems": 1, "maxItems": 1},
                 "pair": {"type": "array", "items": {"type": "boolean"}, "minItems": 2, "maxItems": 2},
                 "code": {"type": "string", "minLength": 2, "maxLength": 2},
                 "few": {"type": "object", "additionalProperties": {"type": "integer"}, "minProperties": 1, "maxProperties": 1},
                 "small": {"type": "integer", "minimum": 1, "maximum": 2}},
              "required": ["one", "pair", "code", "few", "small"]},
             ({"one": [1], "pair": [True, False], "code": "ab", "few": {"k": 1}, "small": 2},)),
        _deep_nesting(levels),
        *sized,
    )

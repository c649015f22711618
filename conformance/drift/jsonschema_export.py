"""Shapes as JSON Schema (Draft 2020-12): an independent second implementation of drift errors.

:func:`response_json_schema` accepts exactly the payloads the reference validator reports no
error for (notices have no schema equivalent: unknown keys and variants are simply allowed).
Discriminated unions become ``if``/``then`` per variant, invariants become ``if``/``then`` with
``contains``. Relations between values (a tool-call id used once, a usage total equal to the sum
of its parts, an increasing ``sequence_number``) have no Draft 2020-12 equivalent and are left
out: the self-tests compare the two implementations without them. The self-tests run both
implementations over every cassette and mutation; the benchmark compares their speed.

:func:`stream_json_schema` describes the stream document ``{"events": [{"event", "data"}]}``;
the two sequence rules JSON Schema cannot state (the ``event:`` name must equal the data's type;
events after the terminator are ignored) are left out, and so is the event lifecycle (DR-8, DR-9:
:mod:`strictconformance.drift.lifecycle`), a state machine over the events' order.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from strictconformance.drift.paths import ANY_INDEX, PathPart, parse_path
from strictconformance.drift.shapes import get_shape
from strictconformance.drift.shapes.model import (
    MOVABLE_OPTIONAL_OBJECTS,
    AnyJson,
    ApiShape,
    Arr,
    Field,
    Invariant,
    Keyed,
    Obj,
    Tagged,
    Value,
    ValueShape,
    accepted_types,
    fold_shape,
)

__all__ = ["response_json_schema", "stream_json_schema"]

DIALECT = "https://json-schema.org/draft/2020-12/schema"
Schema = dict[str, Any]


def _typed(shape: ValueShape, constraints: Schema, *, nullable: bool, nonempty: bool = False) -> Schema:
    types = sorted(accepted_types(shape) | ({"null"} if nullable else set()))
    schema: Schema = {"type": types[0] if len(types) == 1 else types, **constraints}
    if nonempty:
        schema.update({"minLength": 1, "minItems": 1, "minProperties": 1})
    return schema


class _ToSchema:
    """The fold that turns a shape into the constraints on a present, non-null value."""

    def value(self, shape: Value) -> Schema:
        return {}

    def any_json(self, shape: AnyJson) -> Schema:
        return {}

    def obj(self, shape: Obj, fields: Sequence[tuple[Field, Schema]]) -> Schema:
        properties = {
            f.name: _typed(f.shape, child, nullable=f.nullable, nonempty=f.nonempty) if f.reads else {} for f, child in fields
        }
        required = [f.name for f, _ in fields if f.required and f.reads]
        schema: Schema = {"properties": properties}
        if required:
            schema["required"] = required
        # an optional object every SDK reads at its place (token usage), absent here while an
        # undeclared key holds an object that has it, was moved one level down: an error
        moved = [
            {"if": {"not": {"required": [f.name]}},
             "then": {"properties": {key: {} for key in sorted(shape.known)},
                      "additionalProperties": {"not": {"type": "object", "required": [f.name]}}}}
            for f, _ in fields
            if f.reads and not f.required and f.name in MOVABLE_OPTIONAL_OBJECTS and isinstance(f.shape, Obj)
        ]
        if moved:
            schema["allOf"] = moved
        return schema

    def array(self, shape: Arr, items: Schema) -> Schema:
        return {"items": _typed(shape.items, items, nullable=False)}

    def tagged(self, shape: Tagged, variants: Mapping[str, Schema]) -> Schema:
        key = shape.discriminator
        return {
            "required": [key],
            "properties": {key: {"type": "string"}},
            "allOf": [{"if": {"properties": {key: {"const": name}}}, "then": schema} for name, schema in variants.items()],
        }

    def keyed(self, shape: Keyed, variants: Mapping[str, Schema]) -> Schema:
        schema: Schema = {"allOf": [{"if": {"required": [key]}, "then": s} for key, s in variants.items()]}
        if shape.closed:
            schema["anyOf"] = [{"required": [key]} for key in shape.variants]
        return schema


def _nest(parts: Sequence[PathPart], leaf: Schema, *, exists: bool) -> Schema:
    """A schema reaching ``leaf`` along ``parts``: keys become properties (required when
    ``exists``), ``[*]`` becomes ``contains`` (some element) when ``exists``, else ``items``."""
    schema = leaf
    for part in reversed(parts):
        if part is ANY_INDEX:
            schema = {"type": "array", "contains": schema} if exists else {"items": schema}
        else:
            key = str(part)
            schema = {"type": "object", "properties": {key: schema}, "required": [key]} if exists else {"properties": {key: schema}}
    return schema


_NOT_NULL: Schema = {"not": {"type": "null"}}
_GUARDS: dict[str, Schema] = {
    "positive": {"type": "number", "exclusiveMinimum": 0},
    "single": {"type": "array", "minItems": 1, "maxItems": 1},
}


def _invariant(invariant: Invariant) -> Schema:
    conditions: list[Schema] = []
    if invariant.when is not None:
        when = parse_path(invariant.when)
        value: Schema = _NOT_NULL if invariant.equals is None else {"const": invariant.equals}
        conditions.append(_nest(when, value, exists=True))
        if invariant.every:  # and every value there (a key that is present) is that one
            conditions.append(_nest(when, value, exists=False))
    conditions.extend(_nest(parse_path(path), _GUARDS[test], exists=True) for path, test in invariant.guards)
    if invariant.variant is not None:
        values = list(invariant.variants())
        accepted: Schema = {"const": values[0]} if len(values) == 1 else {"enum": values}
        element: Schema = {"type": "array", "contains": _nest(invariant.element_path, accepted, exists=True)}
    elif invariant.with_keys:
        counted: Schema = {"type": "object", "anyOf": [{"required": [key]} for key in invariant.with_keys]}
        if invariant.excluding:
            counted["not"] = {"anyOf": [{"required": [key], "properties": {key: {"const": value}}} for key, value in invariant.excluding]}
        element = {"type": "array", "contains": counted}
    else:
        element = {"type": "array", "minItems": 1}
    requirement = _nest(invariant.array_path, element, exists=True)
    if invariant.unless is not None:
        requirement = {"anyOf": [requirement, _nest(parse_path(invariant.unless), _NOT_NULL, exists=True)]}
    rule = {"if": {"allOf": conditions}, "then": requirement} if conditions else requirement
    scope = parse_path(invariant.scope) if invariant.scope else ()
    return _nest(scope, rule, exists=False)


def _document(root: ValueShape, invariants: Sequence[Invariant], title: str) -> Schema:
    schema = _typed(root, fold_shape(root, _ToSchema()), nullable=False)
    rules = [_invariant(invariant) for invariant in invariants]
    if rules:
        schema = {**schema, "allOf": [*schema.get("allOf", []), *rules]}
    return {"$schema": DIALECT, "title": title, **schema}


def response_json_schema(api: str | ApiShape) -> Schema:
    """A Draft 2020-12 schema equivalent to the reference check of a response body."""
    shape = get_shape(api)
    return _document(shape.response, shape.invariants, f"{shape.api} response (strictconformance drift shape)")


def stream_json_schema(api: str | ApiShape) -> Schema:
    """A Draft 2020-12 schema for the stream document ``{"events": [{"event", "data"}]}``."""
    shape = get_shape(api)
    stream = shape.stream
    event = _typed(stream.event, fold_shape(stream.event, _ToSchema()), nullable=False)
    data: Schema = {"anyOf": [{"const": stream.terminator}, event]} if stream.terminator else event
    document = {
        "type": "object",
        "required": ["events"],
        "properties": {"events": {"type": "array", "items": {"type": "object", "required": ["data"], "properties": {"data": data}}}},
    }
    rules = [_invariant(invariant) for invariant in stream.invariants]
    return {"$schema": DIALECT, "title": f"{shape.api} stream document", **document, **({"allOf": rules} if rules else {})}

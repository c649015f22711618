"""Where a JSON Schema keeps its subschemas: one table, one walker.

The table (the kit's keyword facts, from :mod:`strictconformance.spec.keywords`) says, per
keyword, whether it holds one schema, a list or a map of them, and whether the subschemas apply to the same instance as their parent (``allOf``, ``$ref``...) or to a part
of it (``properties``, ``items``...). The distinction matters for cycles: a ``$ref`` loop that
only passes through same-instance keywords never consumes input and never terminates.
Source: JSON Schema 2020-12 Core §10 (applicators) and §8.2.4 (``$defs``); draft-07 forms
(``definitions``, array ``items``, ``additionalItems``, ``dependencies``) are walked too so that
older schemas can be inspected before they are rejected or translated.
"""

from __future__ import annotations

import copy
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Literal

from strictconformance.spec.keywords import DEFINITION_KEYWORDS, SUBSCHEMAS

__all__ = ["DEFINITION_KEYWORDS", "SUBSCHEMA_KEYWORDS", "Subschema", "iter_subschemas", "map_subschemas"]

Shape = Literal["single", "list", "map", "items"]

_SHAPES: Mapping[str, Shape] = {"schema": "single", "schema-array": "list", "schema-map": "map"}

#: keyword -> (how it holds subschemas, do they apply to the parent's own instance?), from the
#: kit's keyword facts (strictconformance.spec.keywords): every keyword holding subschemas, the
#: annotation ``contentSchema`` too, so a copy or a rewrite reaches every one.
SUBSCHEMA_KEYWORDS: Mapping[str, tuple[Shape, bool]] = MappingProxyType({
    keyword: ("items" if entry.array_form else _SHAPES[entry.holds], entry.applies == "in-place")
    for keyword, entry in SUBSCHEMAS.items()
})


@dataclass(frozen=True)
class Subschema:
    """One subschema of a schema object: where it sits and how it applies."""

    keyword: str
    key: str | int | None  # property name / list index, None for single-schema keywords
    schema: object
    same_instance: bool
    definition: bool

    @property
    def path(self) -> tuple[str | int, ...]:
        return (self.keyword,) if self.key is None else (self.keyword, self.key)


def _is_schema(value: object) -> bool:
    return isinstance(value, (Mapping, bool))


def iter_subschemas(schema: Mapping[str, object]) -> Iterator[Subschema]:
    """The direct subschemas of ``schema`` (booleans included), in keyword order."""
    for keyword, value in schema.items():
        layout = SUBSCHEMA_KEYWORDS.get(keyword)
        if layout is None:
            continue
        shape, same_instance = layout
        definition = keyword in DEFINITION_KEYWORDS
        if shape == "items":
            shape = "list" if isinstance(value, list) else "single"
        if shape == "single":
            if _is_schema(value):
                yield Subschema(keyword, None, value, same_instance, definition)
        elif shape == "list":
            if isinstance(value, list):
                for index, item in enumerate(value):
                    if _is_schema(item):
                        yield Subschema(keyword, index, item, same_instance, definition)
        elif isinstance(value, Mapping):
            for name, item in value.items():
                if _is_schema(item):
                    yield Subschema(keyword, name, item, same_instance, definition)


def map_subschemas(schema: Mapping[str, object], transform: Callable[[Subschema], object]) -> dict[str, object]:
    """A copy of ``schema`` with every direct subschema replaced by ``transform(subschema)``.

    Values that are not subschemas (``enum``, ``default``, ``required``...) are deep-copied, so
    the result never shares a mutable object with the input.
    """
    replaced: dict[tuple[str | int, ...], object] = {sub.path: transform(sub) for sub in iter_subschemas(schema)}
    out: dict[str, object] = {}
    for keyword, value in schema.items():
        if (keyword,) in replaced:
            out[keyword] = replaced[(keyword,)]
        elif isinstance(value, list) and any((keyword, i) in replaced for i in range(len(value))):
            out[keyword] = [replaced.get((keyword, i), copy.deepcopy(item)) for i, item in enumerate(value)]
        elif isinstance(value, Mapping) and keyword in SUBSCHEMA_KEYWORDS:
            out[keyword] = {name: replaced.get((keyword, name), copy.deepcopy(item)) for name, item in value.items()}
        else:
            out[keyword] = copy.deepcopy(value)
    return out

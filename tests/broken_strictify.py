"""Deliberately broken strictify implementations and codecs, as adapters.

Each one is the reference with one bug, named after it; the self-tests show the rule it breaks
fails (and, where practical, only that rule).
"""

from __future__ import annotations

import copy
import dataclasses
from collections.abc import Callable, Mapping
from typing import Any

from strictconformance.adapter import Adapter
from strictconformance.dialects import SHIPPED, Limits, Strictified
from strictconformance.reference.strictify import (
    reference_decode,
    reference_encode,
    reference_strictify,
    strictify,
)

_ALL = tuple(SHIPPED)


def _map_nodes(node: Any, fn: Callable[[dict[str, Any], int], dict[str, Any]], depth: int = 0) -> Any:
    """Apply ``fn(node, data_depth)`` to every schema dict, children first."""
    if isinstance(node, list):
        return [_map_nodes(item, fn, depth) for item in node]
    if not isinstance(node, dict):
        return node
    result: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("properties", "$defs"):
            result[key] = {name: _map_nodes(sub, fn, depth + (key == "properties")) for name, sub in value.items()}
        elif key in ("items", "additionalProperties", "prefixItems"):
            result[key] = _map_nodes(value, fn, depth + 1)
        elif key in ("anyOf", "oneOf", "allOf"):
            result[key] = _map_nodes(value, fn, depth)
        else:
            result[key] = value
    return fn(result, depth)


class ReferenceStrictifyAdapter(Adapter):
    """The reference strictify and codec as an adapter (the control)."""

    strictify_dialects = _ALL

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        return reference_strictify(schema, dialect)

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return reference_encode(schema, dialect, value)

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return reference_decode(schema, dialect, value)


class OpenBelowDepth3(ReferenceStrictifyAdapter):
    """Forgets ``additionalProperties: false`` on objects nested 3 levels or deeper (SM-03, RT-1)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        result = reference_strictify(schema, dialect)

        def reopen(node: dict[str, Any], depth: int) -> dict[str, Any]:
            return {k: v for k, v in node.items() if k != "additionalProperties"} if depth >= 3 and node.get("type") == "object" else node
        return Strictified(_map_nodes(result.schema, reopen), result.losses)


class RequiredWithoutNull(ReferenceStrictifyAdapter):
    """Makes optional properties required but forgets ``| null`` (RT-4: absent has no wire value)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        result = reference_strictify(schema, dialect)

        def drop_null(node: dict[str, Any], depth: int) -> dict[str, Any]:
            properties = node.get("properties")
            if not isinstance(properties, dict):
                return node
            fixed = {}
            for name, sub in properties.items():
                branches = sub.get("anyOf") if isinstance(sub, dict) else None
                if isinstance(branches, list) and len(branches) == 2 and branches[1] == {"type": "null"} and set(sub) == {"anyOf"}:
                    sub = branches[0]
                fixed[name] = sub
            return {**node, "properties": fixed}
        return Strictified(_map_nodes(result.schema, drop_null), result.losses)


class MutatesInput(ReferenceStrictifyAdapter):
    """Strictifies in place: the caller's schema changes (RT-2)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        result = reference_strictify(schema, dialect)
        if isinstance(schema, dict):
            schema.setdefault("additionalProperties", False)
            schema["required"] = list(schema.get("properties", {}))
        return result


class CollapsesSilently(ReferenceStrictifyAdapter):
    """Lets absent and null of an optional nullable property meet without reporting it (RT-6)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        result = reference_strictify(schema, dialect)
        return Strictified(result.schema, tuple(loss for loss in result.losses if loss.kind != "absent-null-collapse"))


class NotIdempotent(ReferenceStrictifyAdapter):
    """Wraps the root every time, even a root that already is a plain object (RT-3)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        result = reference_strictify(schema, dialect)
        wrapped = {"type": "object", "properties": {"value": result.schema}, "required": ["value"], "additionalProperties": False}
        return Strictified(wrapped, result.losses)


class DecodeKeepsWireShapes(ReferenceStrictifyAdapter):
    """Hands the wire value to user code as it is: pairs and numeric-key objects leak (RT-5, RT-7)."""

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return copy.deepcopy(value)


class EncodeKeepsOriginalShapes(ReferenceStrictifyAdapter):
    """Sends values as they are: maps and tuples never become pairs or numeric-key objects (RT-4)."""

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return copy.deepcopy(value)


class NullMeansAbsentEverywhere(ReferenceStrictifyAdapter):
    """Decodes every null as absent, even where the original requires a nullable property (RT-5, RT-7)."""

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        def drop(item: Any) -> Any:
            if isinstance(item, dict):
                return {k: drop(v) for k, v in item.items() if v is not None}
            if isinstance(item, list):
                return [drop(v) for v in item]
            return item
        return drop(reference_decode(schema, dialect, value))


class KeepsNot(ReferenceStrictifyAdapter):
    """Leaves a `not` on string nodes (SM-20 where the dialect bans it)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        result = reference_strictify(schema, dialect)

        def add_not(node: dict[str, Any], depth: int) -> dict[str, Any]:
            return {**node, "not": {"type": "null"}} if node.get("type") == "string" else node
        return Strictified(_map_nodes(result.schema, add_not), result.losses)


class NoDepthLimit(ReferenceStrictifyAdapter):
    """Never truncates deep schemas (SM-21 in dialects with a depth limit)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        unlimited = dataclasses.replace(SHIPPED[dialect], limits=Limits())
        return strictify(schema, unlimited).as_strictified()


class KeepsRecursiveRefs(ReferenceStrictifyAdapter):
    """Keeps `$ref` to recursive definitions even where the dialect forbids references (SM-06)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        base = SHIPPED[dialect]
        keywords = (base.encoding.keywords or frozenset()) | {"$ref", "$defs"}
        keeping = dataclasses.replace(base, encoding=dataclasses.replace(base.encoding, references="keep", recursion="keep", keywords=keywords))
        return strictify(schema, keeping).as_strictified()


BROKEN: dict[str, type[ReferenceStrictifyAdapter]] = {
    cls.__name__: cls
    for cls in (OpenBelowDepth3, RequiredWithoutNull, MutatesInput, CollapsesSilently, NotIdempotent,
                DecodeKeepsWireShapes, EncodeKeepsOriginalShapes, NullMeansAbsentEverywhere, KeepsNot,
                NoDepthLimit, KeepsRecursiveRefs)
}

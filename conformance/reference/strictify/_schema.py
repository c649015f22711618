"""Strictify's view of a schema: where subschemas live, its private marks, and the one mapper.

Working nodes are plain dicts. Each carries a private mark under :data:`MARK` (a key no JSON
Schema uses; input holding it is rejected): the node's ``origin`` (a pointer into the ORIGINAL
schema, for losses), its ``sem`` number (its node in the semantic snapshot, for the codec), and the
value transform a pass applied (``codec``). The final pass strips every mark.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from strictconformance.dialects.pointers import join_pointer
from strictconformance.spec.keywords import (
    APPLICATOR_KEYWORDS,
    SCHEMA_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    SUBSCHEMAS,
)

__all__ = [
    "DATA_EDGES",
    "MARK",
    "Node",
    "json_type_of",
    "map_children",
    "mark",
    "origin",
    "strip_marks",
    "strip_marks_shared",
    "type_set",
]

#: The private mark key: a NUL-prefixed name no schema author writes.
MARK = "\x00strictconformance"

Node = dict[str, Any]

# keyword -> how subschemas sit under it: "one" (a schema), "map" (names -> schemas),
# "list" (a list of schemas), from the kit's keyword facts. `items` may also be a draft-7 list.
# Left out on purpose: draft-07 `dependencies` (a map whose members may be property-name arrays),
# which strictify treats as one opaque keyword: stripped with a loss, or kept whole.
SUBSCHEMA_KEYWORDS: dict[str, str] = {
    keyword: "one" if keyword in SCHEMA_KEYWORDS else "map" if keyword in SCHEMA_MAP_KEYWORDS else "list"
    for keyword in sorted(APPLICATOR_KEYWORDS)
    if not SUBSCHEMAS[keyword].string_array_members
}

#: Edges that nest a value one level deeper (the depth SM-21 counts): the providers' notion of
#: depth (members and items), not a keyword fact; the child applicators are in spec.keywords.
DATA_EDGES = frozenset({"properties", "items", "additionalProperties", "prefixItems"})


def mark(node: Node) -> dict[str, Any]:
    """The node's private mark (created empty if missing)."""
    found = node.get(MARK)
    if not isinstance(found, dict):
        found = {}
        node[MARK] = found
    return found


def origin(node: Any, fallback: str = "") -> str:
    if isinstance(node, dict) and isinstance(node.get(MARK), dict):
        return str(node[MARK].get("origin", fallback))
    return fallback


def subschema_kind(keyword: str, value: Any) -> str | None:
    kind = SUBSCHEMA_KEYWORDS.get(keyword)
    if keyword == "items" and isinstance(value, list):
        return "list"
    return kind


def map_children(node: Node, fn: Callable[[Any, str, str | int | None], Any]) -> Node:
    """A shallow copy of ``node`` with every direct subschema replaced by ``fn(sub, keyword, key)``.

    ``key`` is the property/definition name or list index (``None`` under a single-schema keyword).
    """
    result: Node = {}
    for keyword, value in node.items():
        kind = subschema_kind(keyword, value) if keyword != MARK else None
        if kind == "one":
            result[keyword] = fn(value, keyword, None)
        elif kind == "map" and isinstance(value, dict):
            result[keyword] = {name: fn(sub, keyword, name) for name, sub in value.items()}
        elif kind == "list" and isinstance(value, list):
            result[keyword] = [fn(sub, keyword, index) for index, sub in enumerate(value)]
        elif keyword == MARK and isinstance(value, dict):
            result[keyword] = dict(value)
        else:
            result[keyword] = value
    return result


def child_pointer(pointer: str, keyword: str, key: str | int | None) -> str:
    return join_pointer(pointer, keyword) if key is None else join_pointer(pointer, keyword, key)


def strip_marks(node: Any) -> Any:
    """A copy of ``node`` without any private mark."""
    if isinstance(node, dict):
        cleaned = map_children(node, lambda sub, keyword, key: strip_marks(sub))
        cleaned.pop(MARK, None)
        return cleaned
    return node


def strip_marks_shared(node: Any) -> tuple[Any, dict[int, Any]]:
    """``node`` without marks, each distinct (possibly shared) dict converted once and the result
    shared again (the semantic snapshot is a DAG where recursion was unrolled: a copy per path would
    grow with the unfolded tree), and a table from each ``sem`` number to its converted node."""
    done: dict[int, tuple[Any, Any]] = {}  # id -> (the node, kept alive so ids stay unique; its copy)
    table: dict[int, Any] = {}

    def strip(sub: Any) -> Any:
        if not isinstance(sub, dict):
            return sub
        if id(sub) not in done:
            cleaned = map_children(sub, lambda child, keyword, key: strip(child))
            marks = cleaned.pop(MARK, None)
            if isinstance(marks, dict) and "sem" in marks:
                table[marks["sem"]] = cleaned
            done[id(sub)] = (sub, cleaned)
        return done[id(sub)][1]
    return strip(node), table


def type_set(node: Any) -> frozenset[str]:
    """The types a node declares (empty: undeclared)."""
    if not isinstance(node, dict):
        return frozenset()
    declared = node.get("type")
    if isinstance(declared, str):
        return frozenset({declared})
    if isinstance(declared, list):
        return frozenset(t for t in declared if isinstance(t, str))
    return frozenset()


def json_type_of(value: Any) -> str:
    """The JSON Schema type name of a JSON value (integers as "integer")."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int) or (isinstance(value, float) and value.is_integer()):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object"


def on_cycles(successors: Mapping[str, Sequence[str]]) -> set[str]:
    """The keys of a graph (key -> successor keys) that can reach themselves again."""
    cyclic: set[str] = set()
    for start in successors:
        seen: set[str] = set()
        frontier = list(successors[start])
        while frontier:
            current = frontier.pop()
            if current == start:
                cyclic.add(start)
                break
            if current not in seen:
                seen.add(current)
                frontier.extend(successors[current])
    return cyclic

"""The reference strictify: any JSON Schema into a dialect's strict subset, with its value codec.

``strictify(schema, dialect)`` runs ``check_input`` and then the named passes of :data:`PASSES`
in order, and returns a :class:`StrictifyResult`: the strict schema, the losses (pointers into the
ORIGINAL schema) and the :class:`Codec` (``encode``: original value -> wire value, ``decode``:
back). It is pure (the input is never touched), deterministic and idempotent; bad input gets a
:class:`~strictconformance.dialects.SchemaError` naming the pointer and the problem.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from strictconformance.dialects.model import Dialect, Loss, SchemaError, Strictified
from strictconformance.dialects.registry import resolve_dialect
from strictconformance.reference.strictify._input import MAX_NESTING, check_input
from strictconformance.reference.strictify._passes import (
    PASSES,
    ROOT_KEY,
    State,
    _has_nested_schema,
)
from strictconformance.reference.strictify._schema import (
    DATA_EDGES,
    MARK,
    strip_marks,
    strip_marks_shared,
    subschema_kind,
)
from strictconformance.reference.strictify.codec import (
    MAX_VALUE_DEPTH,
    Codec,
    CodecError,
    build_codec,
    has_reshaping_codec,
)
from strictconformance.spec.keywords import DEFINITION_KEYWORDS

__all__ = [
    "MAX_NESTING",
    "MAX_VALUE_DEPTH",
    "PASSES",
    "PASS_NAMES",
    "ROOT_KEY",
    "Codec",
    "CodecError",
    "SchemaError",
    "StrictifyResult",
    "reference_decode",
    "reference_encode",
    "reference_reshapes",
    "reference_strictify",
    "strictify",
]

#: The pipeline, in order, by name.
PASS_NAMES: tuple[str, ...] = ("check_input", *(name for name, _, _ in PASSES), "build_codec")


@dataclass(frozen=True)
class StrictifyResult:
    """The strict schema, what was lost (pointers into the original), and the value codec."""

    schema: dict[str, Any]
    losses: tuple[Loss, ...]
    codec: Codec
    dialect: str
    #: Whether the codec reshapes values (a wrapped root, records as pairs, a tuple as an object):
    #: the strict schema carries the original's values only through this codec.
    reshapes: bool = False

    def as_strictified(self) -> Strictified:
        return Strictified(self.schema, self.losses)


def strictify(schema: Mapping[str, Any] | bool, dialect: str | Dialect) -> StrictifyResult:
    """``schema`` rewritten into ``dialect``'s strict subset, with its losses and codec."""
    resolved = resolve_dialect(dialect)
    checked = check_input(schema)
    state = State(resolved, checked.schema, checked.refs, detached=checked.detached)
    for name, run, _ in PASSES:
        run(state)
        if name == "resolve_references":
            _within_output_limit(state.schema, resolved.limits.max_depth)
    # passes share unchanged subtrees (and lists such as `required`): the output is made a tree of
    # its own, so editing one place of it changes no other (RT-2)
    strict = _unshared(state.schema)
    if not isinstance(strict, dict):  # `false` at the root: nothing is valid
        strict = {"not": {}}
    codec = build_codec(state.schema, strict, *strip_marks_shared(state.semantic))
    losses = tuple(dict.fromkeys(state.losses))  # the same loss met twice (a shared subtree) once
    if checked.aliases:  # a Python object the input shared, kept once: named where it was first used
        losses = tuple(dict.fromkeys(_unaliased(loss, checked.aliases) for loss in losses))
    return StrictifyResult(strict, losses, codec, resolved.name, has_reshaping_codec(state.schema))


#: Subschemas the strict schema may hold once written out as JSON. A dialect that cannot refer
#: to a shared definition (it inlines references) writes it out at every place that uses it: a
#: DAG of shared definitions would come out exponentially large, far beyond any provider's limit
#: on a request, so it is refused instead.
MAX_OUTPUT_SUBSCHEMAS = 1_000_000


def _within_output_limit(schema: Any, depth_limit: int | None) -> None:
    """Refuse a working schema that, written out as JSON, would hold more than
    :data:`MAX_OUTPUT_SUBSCHEMAS` subschemas: counted over its shared nodes without unfolding
    them, and, under a depth limit, only as deep as ``truncate_depth`` will keep it."""
    counts: dict[tuple[int, int], int] = {}
    keep: list[Any] = []  # keeps every counted node alive, so ids stay unique

    def count(node: Any, depth: int) -> int:
        if not isinstance(node, dict):
            return 0
        key = (id(node), depth)
        if key not in counts:
            keep.append(node)
            if depth_limit is not None and depth >= depth_limit and _has_nested_schema(node):
                counts[key] = 1  # cut there: it travels as JSON text
            else:
                total = 1
                for keyword, value in node.items():
                    kind = subschema_kind(keyword, value) if keyword != MARK else None
                    below = 0 if keyword in DEFINITION_KEYWORDS else depth + 1 if keyword in DATA_EDGES else depth
                    if depth_limit is not None:
                        below = min(below, depth_limit)
                    if kind == "one":
                        total += count(value, below)
                    elif kind == "map" and isinstance(value, dict):
                        total += sum(count(sub, below) for sub in value.values())
                    elif kind == "list" and isinstance(value, list):
                        total += sum(count(sub, below) for sub in value)
                counts[key] = total
        return counts[key]

    total = count(schema, 0)
    if total > MAX_OUTPUT_SUBSCHEMAS:
        raise SchemaError("", f"the strict schema would hold {total} subschemas once written out as JSON (the input shares "
                          f"definitions this dialect must write out at every use), over the {MAX_OUTPUT_SUBSCHEMAS} "
                          "strictify builds")


def _unaliased(loss: Loss, aliases: Mapping[str, str]) -> Loss:
    """``loss`` with a pointer into a definition :func:`hoist_shared` made pointing where the
    original first used that object."""
    parts = loss.pointer.split("/", 3)
    prefix = "/".join(parts[:3])
    if len(parts) >= 3 and prefix in aliases:
        return dataclasses.replace(loss, pointer=aliases[prefix] + loss.pointer[len(prefix):])
    return loss


def _unshared(marked: Any) -> Any:
    """The working schema without marks, as a tree that shares no node (the working schema shares
    subtrees where recursion was unrolled). Marks are stripped once per shared node and the tree is
    unfolded by a JSON round trip (C speed: an inlining dialect's output can hold 10^5 nodes)."""
    shared, _ = strip_marks_shared(marked)
    try:
        return json.loads(json.dumps(shared, ensure_ascii=False, allow_nan=False))
    except (ValueError, RecursionError):  # beyond what json round-trips (digits limit, depth)
        return _tree_copy(strip_marks(marked))


class _DialectKey:
    """A dialect as a cache key: a :class:`Dialect` holds mappings and is not hashable, so it is
    hashed by name and compared by value (an adapter's own dialect may share a shipped name)."""

    __slots__ = ("dialect",)

    def __init__(self, dialect: Dialect) -> None:
        self.dialect = dialect

    def __hash__(self) -> int:
        return hash(self.dialect.name)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _DialectKey) and (other.dialect is self.dialect or other.dialect == self.dialect)


# Room for every fixed case of a run in every dialect (about 900 under ci, 1,600 with the whole
# corpus under nightly): the case checks ask about each case once per rule, a rule's cases and
# dialects one after the other, so a memo of 256 computed nearly every one again for each rule.
@lru_cache(maxsize=4096)
def _cached(schema_text: str, dialect: _DialectKey) -> StrictifyResult:
    return strictify(json.loads(schema_text), dialect.dialect)


def _memo(schema: Mapping[str, Any], dialect: str | Dialect) -> StrictifyResult:
    try:
        text = json.dumps(schema, sort_keys=False)
    except (TypeError, ValueError, RecursionError):
        return strictify(schema, dialect)  # raises the SchemaError naming the problem
    return _cached(text, _DialectKey(resolve_dialect(dialect)))


def reference_strictify(schema: Mapping[str, Any], dialect: str | Dialect) -> Strictified:
    """The adapter-shaped ``strictify`` of the reference (memoised on the schema's JSON text).
    ``dialect``: a shipped dialect's name or any :class:`Dialect` (e.g. an adapter's own).
    Each call returns a schema of its own: a caller editing it changes no other call's (RT-2)."""
    result = _memo(schema, dialect)
    return Strictified(_tree_copy(result.schema), result.losses)


def _tree_copy(node: Any) -> Any:
    """A copy of a JSON value in which no dict or list appears twice (a shared subtree is copied
    at each place), iteratively."""
    if not isinstance(node, (dict, list)):
        return node
    top: Any = {} if isinstance(node, dict) else []
    stack: list[tuple[Any, Any]] = [(node, top)]
    while stack:
        source, target = stack.pop()
        items = source.items() if isinstance(source, dict) else enumerate(source)
        for key, value in items:
            copied = ({} if isinstance(value, dict) else []) if isinstance(value, (dict, list)) else value
            if isinstance(target, dict):
                target[key] = copied
            else:
                target.append(copied)
            if copied is not value:
                stack.append((value, copied))
    return top


def reference_reshapes(schema: Mapping[str, Any], dialect: str | Dialect) -> bool:
    """Whether the reference's strict schema for ``schema`` needs a codec that reshapes values
    (:data:`~strictconformance.reference.strictify.codec.RESHAPING_CODECS`)."""
    return _memo(schema, dialect).reshapes


def reference_encode(schema: Mapping[str, Any], dialect: str | Dialect, value: Any) -> Any:
    """The adapter-shaped ``encode``: ``schema`` is the ORIGINAL schema."""
    return _memo(schema, dialect).codec.encode(value)


def reference_decode(schema: Mapping[str, Any], dialect: str | Dialect, value: Any) -> Any:
    """The adapter-shaped ``decode``: ``schema`` is the ORIGINAL schema."""
    return _memo(schema, dialect).codec.decode(value)

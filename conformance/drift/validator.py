"""The reference drift validator: a payload (or a stream) against its API's shape.

One iterative walk (:func:`_walk`) follows the shape into the payload, so its work is bounded by
the shape's depth and the payload's arrays, never by how deep the payload nests, and it never
recurses. The walk only reads: the payload is never modified. It collects every error and
notice; :func:`check_response` / :func:`check_stream` raise the first error.

Rule IDs on errors: DR-2 for a missing, null or retyped field; DR-3 when that field sits inside
an element of a discriminated union (or is the discriminator itself); DR-5 for a broken
invariant; DR-6 when the input is not JSON at all (unparseable text, a Python ``set``...).

The same walk, asked to, records the *sites* it checked (fields, objects, union elements);
:mod:`strictconformance.drift.mutations` mutates payloads at those sites.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from strictconformance.drift.errors import (
    DriftNotice,
    DriftReport,
    NoticeKind,
    SchemaDriftError,
    describe_type,
    json_type,
    key_text,
    short_repr,
    type_name,
)
from strictconformance.drift.lifecycle import lifecycle_breaches
from strictconformance.drift.paths import (
    ANY_INDEX,
    PathPart,
    format_path,
    parse_path,
    paths_match,
    resolve_path,
)
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
    Relation,
    Tagged,
    Value,
    ValueShape,
    accepted_types,
)
from strictconformance.drift.sse import SSEEvent, parse_sse

__all__ = [
    "MAX_NOTICES",
    "ArraySite",
    "FieldSite",
    "ObjectSite",
    "RelationBreach",
    "Site",
    "UnionSite",
    "check_response",
    "check_response_text",
    "check_stream",
    "invariant_blame",
    "json_type",
    "load_json_text",
    "response_sites",
    "stream_document",
    "stream_sites",
    "validate_response",
    "validate_stream",
    "violated_invariants",
    "violated_relations",
]

#: Notices kept per report; the rest are counted in ``notices_dropped``.
MAX_NOTICES = 1000

_MISSING: Any = object()
_NUMBERS_ARE_INTEGERS = frozenset({"integer", "number"})

# path nodes are linked (parent, part) pairs, rendered only when a message needs them
_Node = tuple[Any, PathPart] | None


def _parts(node: _Node) -> tuple[PathPart, ...]:
    out: list[PathPart] = []
    while node is not None:
        node, part = node
        out.append(part)
    return tuple(reversed(out))


# -- sites: what the walk checked, for mutations ----------------------------------------------------


@dataclass(frozen=True)
class FieldSite:
    """A declared field that is present in the payload and had the right type."""

    path: tuple[PathPart, ...]
    field: Field
    value: object
    in_variant: bool
    reads: bool


@dataclass(frozen=True)
class ObjectSite:
    """An object checked against declared fields (``known`` are the keys it may have)."""

    path: tuple[PathPart, ...]
    known: frozenset[str]
    in_variant: bool
    reads: bool


@dataclass(frozen=True)
class UnionSite:
    """An element of a discriminated union with a known variant."""

    path: tuple[PathPart, ...]
    union: Tagged | Keyed
    variant: str
    in_array: bool
    reads: bool


@dataclass(frozen=True)
class ArraySite:
    """An array of union elements (where an unknown variant may be inserted)."""

    path: tuple[PathPart, ...]
    items: Tagged | Keyed
    reads: bool


Site = FieldSite | ObjectSite | UnionSite | ArraySite


# -- the walk ---------------------------------------------------------------------------------------


class _Collector:
    """Errors, notices and (optionally) sites of one validation."""

    __slots__ = ("api", "errors", "fields", "notices", "notices_dropped", "provider", "sites")

    def __init__(self, shape: ApiShape, *, record_sites: bool) -> None:
        self.api = shape.api
        self.provider = shape.provider
        self.errors: list[SchemaDriftError] = []
        self.notices: list[DriftNotice] = []
        self.notices_dropped = 0
        self.fields = 0
        self.sites: list[Site] | None = [] if record_sites else None

    def notice(self, kind: NoticeKind, node: _Node, detail: str) -> None:
        if len(self.notices) < MAX_NOTICES:
            self.notices.append(DriftNotice(kind, format_path(_parts(node)), detail))
        else:
            self.notices_dropped += 1

    def problem(
        self,
        node: _Node,
        expected: str,
        value: object,
        *,
        reads: bool,
        in_variant: bool,
        actual_type: str | None = None,
    ) -> None:
        """A mismatch: drift where an SDK reads the field, a notice where none does."""
        if actual_type is None:
            actual_type = describe_type(value)
        actual = short_repr(value) if value is not _MISSING and value is not None else None
        if not reads:
            shown = f"{actual_type} {actual}" if actual else actual_type
            self.notice("unread_mismatch", node, f"expected {expected}, got {shown}")
            return
        not_json = actual_type.endswith("(not JSON)")
        rule = "DR-6" if not_json else ("DR-3" if in_variant else "DR-2")
        self.error(node, expected, actual_type, rule, actual)

    def error(self, node: _Node, expected: str, actual_type: str, rule_id: str, actual: str | None = None) -> None:
        path = format_path(_parts(node))
        self.errors.append(SchemaDriftError(self.provider, self.api, path, expected, actual_type, rule_id, actual))

    def report(self) -> DriftReport:
        return DriftReport(self.api, tuple(self.errors), tuple(self.notices), self.notices_dropped, self.fields)


def _expected(field: Field) -> str:
    types = " or ".join(sorted(accepted_types(field.shape) - ({"integer"} if "number" in accepted_types(field.shape) else set())))
    if field.nonempty:
        types = f"non-empty {types}"
    return f"{types} or null" if field.nullable else types


def _variant_names(union: Tagged | Keyed) -> str:
    names = list(union.variants)
    shown = ", ".join(repr(name) for name in names[:6])
    return shown + (f" (+{len(names) - 6} more)" if len(names) > 6 else "")


def _moved_under(shape: Obj, current: Mapping[str, Any], name: str) -> str | None:
    """The undeclared key of ``current`` whose object holds ``name`` (a field moved one level down)."""
    for key, value in current.items():
        if key not in shape.known and isinstance(value, dict) and name in value:
            return str(key)
    return None


def _walk(root: ValueShape, value: object, node: _Node, out: _Collector, *, in_variant: bool = False) -> None:
    """Check ``value`` (the root of a payload or of one event's data) against ``root``."""
    kind = json_type(value) if value is not None else "null"
    if kind is None or kind not in accepted_types(root):
        out.problem(node, " or ".join(sorted(accepted_types(root))), value, reads=True, in_variant=in_variant)
        return
    sites = out.sites
    # (shape, value, path node, inside a union element, an SDK reads it, report unknown keys)
    stack: list[tuple[ValueShape, Any, _Node, bool, bool, bool]] = [(root, value, node, in_variant, True, True)]
    while stack:
        shape, current, here, variant_scope, reads, report_unknown = stack.pop()
        if isinstance(shape, Obj):
            if sites is not None:
                sites.append(ObjectSite(_parts(here), shape.known, variant_scope, reads))
            out.fields += len(shape.fields)
            for field in shape.fields:
                item = current.get(field.name, _MISSING)
                field_reads = reads and field.reads
                where: _Node = (here, field.name)
                if item is _MISSING:
                    if field.required:
                        out.problem(where, _expected(field), item, reads=field_reads, in_variant=variant_scope, actual_type="absent")
                    elif field.name in MOVABLE_OPTIONAL_OBJECTS and isinstance(field.shape, Obj):
                        moved_to = _moved_under(shape, current, field.name)
                        if moved_to is not None:
                            out.problem(where, f"{_expected(field)} here", item, reads=field_reads, in_variant=variant_scope,
                                        actual_type=f"absent (moved to {moved_to}.{field.name})")
                    continue
                if item is None:
                    if not field.nullable:
                        out.problem(where, _expected(field), None, reads=field_reads, in_variant=variant_scope)
                    continue
                item_type = json_type(item)
                target = field.shape
                if item_type is None or item_type not in accepted_types(target):
                    out.problem(where, _expected(field), item, reads=field_reads, in_variant=variant_scope)
                    continue
                if field.nonempty and item_type in ("string", "array", "object") and not item:
                    out.problem(where, _expected(field), item, reads=field_reads, in_variant=variant_scope, actual_type=f"empty {item_type}")
                    continue
                if sites is not None:
                    sites.append(FieldSite(_parts(where), field, item, variant_scope, field_reads))
                if isinstance(target, Value):
                    if target.known_values and item not in target.known_values:
                        out.notice("unknown_value", where, f"{short_repr(item)} is not a documented value")
                elif not isinstance(target, AnyJson):
                    stack.append((target, item, where, variant_scope, field_reads, True))
            if report_unknown and shape.report_unknown and len(current) > 0:
                known = shape.known
                for key in current:
                    if key not in known:
                        if type(key) is not str:
                            out.problem((here, key_text(key)), "a string key", key, reads=True, in_variant=variant_scope, actual_type=f"{type_name(key)} key (not JSON)")
                        else:
                            out.notice("unknown_field", (here, key), f"new field ({describe_type(current[key])})")
        elif isinstance(shape, Arr):
            items = shape.items
            accepted = accepted_types(items)
            leaf = isinstance(items, (Value, AnyJson))
            union = isinstance(items, (Tagged, Keyed))
            if sites is not None and union:
                sites.append(ArraySite(_parts(here), items, reads))  # type: ignore[arg-type]
            for index, element in enumerate(current):
                where = (here, index)
                element_type = json_type(element) if element is not None else "null"
                if element_type is None or element_type not in accepted:
                    expected = " or ".join(sorted(accepted))
                    out.problem(where, expected, element, reads=reads, in_variant=variant_scope or union)
                    continue
                if not leaf:
                    stack.append((items, element, where, variant_scope, reads, True))
                elif isinstance(items, Value) and items.known_values and element not in items.known_values:
                    out.notice("unknown_value", where, f"{short_repr(element)} is not a documented value")
        elif isinstance(shape, Tagged):
            tag_name = shape.discriminator
            tag = current.get(tag_name, _MISSING)
            where = (here, tag_name)
            if tag is _MISSING or type(tag) is not str:
                out.problem(
                    where,
                    f"string naming a variant ({_variant_names(shape)})",
                    tag,
                    reads=reads,
                    in_variant=True,
                    actual_type="absent" if tag is _MISSING else None,
                )
                continue
            variant = shape.merged.get(tag)
            if variant is None:
                out.notice("unknown_variant", where, f"{tag!r} is not a known {tag_name}")
                continue
            if sites is not None:
                sites.append(UnionSite(_parts(here), shape, tag, isinstance(here[1] if here else None, int), reads))
            stack.append((variant, current, here, True, reads, report_unknown))
        elif isinstance(shape, Keyed):
            matched = [key for key in shape.variants if key in current]
            if not matched:
                first = next(iter(shape.variants))
                if shape.closed:
                    out.problem((here, first), f"one of the keys {_variant_names(shape)}", _MISSING, reads=reads, in_variant=True, actual_type="absent")
                else:
                    keys = ", ".join(sorted(map(key_text, current))) or "no keys"
                    out.notice("unknown_variant", here, f"no known variant key ({keys})")
                continue
            for position, key in enumerate(matched):
                if sites is not None:
                    sites.append(UnionSite(_parts(here), shape, key, isinstance(here[1] if here else None, int), reads))
                # with several variant keys present, each variant's fields count; unknown keys once
                stack.append((shape.merged[key], current, here, True, reads, report_unknown and position == 0))


# -- invariants -------------------------------------------------------------------------------------


def _is_value(value: object, wanted: object) -> bool:
    return type(value) is type(wanted) and value == wanted


def _applies(invariant: Invariant, scope_value: object) -> bool:
    """Whether ``invariant``'s conditions hold at one place its scope reaches."""
    if invariant.when is not None:
        values = [value for _, value in resolve_path(scope_value, parse_path(invariant.when))]
        if invariant.equals is None:
            if not any(value is not None for value in values):
                return False
        elif invariant.every:
            if not values or not all(_is_value(value, invariant.equals) for value in values):
                return False
        elif not any(_is_value(value, invariant.equals) for value in values):
            return False
    for path, test in invariant.guards:
        values = [value for _, value in resolve_path(scope_value, parse_path(path))]
        if test == "positive":
            passed = any(type(value) in (int, float) and value > 0 for value in values)  # type: ignore[operator]
        else:
            passed = any(isinstance(value, list) and len(value) == 1 for value in values)
        if not passed:
            return False
    if invariant.unless is not None:
        return not any(value is not None for _, value in resolve_path(scope_value, parse_path(invariant.unless)))
    return True


def _counts(invariant: Invariant, element: object) -> bool:
    """Whether ``element`` of the required array satisfies ``invariant``."""
    if invariant.variant is not None:
        wanted = invariant.variants()
        return any(any(_is_value(value, one) for one in wanted) for _, value in resolve_path(element, invariant.element_path))
    if invariant.with_keys:
        if not isinstance(element, dict) or not any(key in element for key in invariant.with_keys):
            return False
        return not any(_is_value(element.get(key, _MISSING), value) for key, value in invariant.excluding)
    return True


def violated_invariants(
    invariants: Sequence[Invariant], document: object
) -> list[tuple[Invariant, tuple[PathPart, ...]]]:
    """Each invariant broken in ``document``, with the scope path where it is broken."""
    broken: list[tuple[Invariant, tuple[PathPart, ...]]] = []
    for invariant in invariants:
        scope = parse_path(invariant.scope) if invariant.scope else ()
        for scope_path, scope_value in resolve_path(document, scope):
            if not _applies(invariant, scope_value):
                continue
            arrays = [array for _, array in resolve_path(scope_value, invariant.array_path) if isinstance(array, list)]
            if not any(_counts(invariant, item) for array in arrays for item in array):
                broken.append((invariant, scope_path))
    return broken


def _check_invariants(invariants: Sequence[Invariant], document: object, out: _Collector) -> None:
    for invariant, scope_path in violated_invariants(invariants, document):
        _invariant_error(invariant, document, scope_path, out)


def invariant_blame(document: object, location: Sequence[PathPart]) -> tuple[tuple[PathPart, ...], str]:
    """Where a required array at ``location`` (which may hold ``[*]``) is missing: the first
    step no place reaches any more, with what is there instead (``absent``, ``null``), or the
    array itself when it is there (``empty array``)."""
    nodes: list[object] = [document]
    for depth, part in enumerate(location):
        following: list[object] = []
        null = False
        for node in nodes:
            if isinstance(part, str):
                if isinstance(node, dict) and part in node:
                    if node[part] is None:
                        null = True
                    else:
                        following.append(node[part])
            elif isinstance(node, list):
                if part is ANY_INDEX:
                    following.extend(node)
                elif isinstance(part, int) and -len(node) <= part < len(node):
                    following.append(node[part])
        if not following:
            return tuple(location[: depth + 1]), "null" if null else "absent"
        nodes = following
    arrays = [node for node in nodes if isinstance(node, list)]
    if not arrays:
        return tuple(location), describe_type(nodes[0])
    return tuple(location), "empty array" if not any(arrays) else "array without such an element"


def _invariant_error(invariant: Invariant, document: object, scope_path: tuple[PathPart, ...], out: _Collector) -> None:
    because = invariant.condition()
    location = (*scope_path, *invariant.array_path)
    if invariant.variant is not None or invariant.with_keys:
        if invariant.variant is not None:
            values = invariant.variants()
            shown = repr(values[0]) if len(values) == 1 else "one of " + ", ".join(repr(v) for v in values)
            expected = f"an element with {invariant.element_path[-1]} {shown} ({because})"
            pattern = format_path((*location, ANY_INDEX, *invariant.element_path))
        else:
            keys = ", ".join(repr(key) for key in invariant.with_keys[:6]) + (", …" if len(invariant.with_keys) > 6 else "")
            unless = "".join(f", not {key}: {value!r}" for key, value in invariant.excluding)
            expected = f"an element with one of the keys {keys}{unless} ({because})"
            pattern = format_path((*location, ANY_INDEX))
        renamed = next((n for n in out.notices if n.kind == "unknown_variant" and paths_match(n.path, pattern)), None)
        if renamed is not None:
            found = resolve_path(document, parse_path(renamed.path))
            value = found[0][1] if found else _MISSING
            if invariant.variant is not None or not isinstance(value, dict):
                actual = short_repr(value)
            else:
                actual = short_repr("keys " + ", ".join(key_text(key) for key in list(value)[:8]))
            out.errors.append(SchemaDriftError(out.provider, out.api, renamed.path, expected, describe_type(value), invariant.rule_id, actual))
            return
        if invariant.variant is not None:
            blamed, actual_type = invariant_blame(document, location)
            if actual_type != "array without such an element":  # no array, or an empty one: blame the array
                out.errors.append(SchemaDriftError(out.provider, out.api, format_path(blamed), expected, actual_type, invariant.rule_id))
            else:
                out.errors.append(SchemaDriftError(out.provider, out.api, pattern, expected, "absent", invariant.rule_id))
            return
    else:
        expected = f"a non-empty array ({because})"
    blamed, actual_type = invariant_blame(document, location)
    out.errors.append(SchemaDriftError(out.provider, out.api, format_path(blamed), expected, actual_type, invariant.rule_id))


# -- relations between values -------------------------------------------------------------------------


@dataclass(frozen=True)
class RelationBreach:
    """Where a :class:`Relation` is broken: the value's path, what was expected there, the value."""

    relation: Relation
    path: tuple[PathPart, ...]
    expected: str
    value: object


def _is_int(value: object) -> bool:
    # JSON integers only: True is an int in Python, and 2.0 is a number here, not a count
    return type(value) is int


def _relation_breaches(relation: Relation, scope_path: tuple[PathPart, ...], scope_value: object) -> list[RelationBreach]:
    if relation.kind == "sum":
        total = resolve_path(scope_value, parse_path(relation.values))
        addends = [resolve_path(scope_value, parse_path(part)) for part in relation.parts]
        if len(total) != 1 or not _is_int(total[0][1]) or any(len(a) != 1 or not _is_int(a[0][1]) for a in addends):
            return []  # absent or retyped: not this relation's business
        expected_total = sum(int(a[0][1]) for a in addends)  # type: ignore[call-overload]
        if total[0][1] == expected_total:
            return []
        terms = " + ".join(relation.parts)
        return [RelationBreach(relation, (*scope_path, *total[0][0]), f"{terms} = {short_repr(expected_total)} ({relation.description})",
                               total[0][1])]
    found = resolve_path(scope_value, parse_path(relation.values))
    if relation.kind == "unique":
        first_at: dict[str, tuple[PathPart, ...]] = {}
        for where, value in found:
            if type(value) is not str:
                continue
            if value in first_at:
                return [RelationBreach(relation, (*scope_path, *where),
                                       f"an id not used before (it is already {format_path((*scope_path, *first_at[value]))}; "
                                       f"{relation.description})", value)]
            first_at[value] = where
        return []
    previous: tuple[tuple[PathPart, ...], int] | None = None
    for where, value in found:
        if not _is_int(value):
            continue
        if previous is not None and value <= previous[1]:  # type: ignore[operator]
            return [RelationBreach(relation, (*scope_path, *where),
                                   f"an integer above {short_repr(previous[1])} (at {format_path((*scope_path, *previous[0]))}; {relation.description})",
                                   value)]
        previous = (where, value)  # type: ignore[assignment]
    return []


def violated_relations(relations: Sequence[Relation], document: object) -> list[RelationBreach]:
    """Each breach of ``relations`` in ``document`` (at most one per relation and scope place)."""
    breaches: list[RelationBreach] = []
    for relation in relations:
        scope = parse_path(relation.scope) if relation.scope else ()
        for scope_path, scope_value in resolve_path(document, scope):
            breaches.extend(_relation_breaches(relation, scope_path, scope_value))
    return breaches


def _check_relations(relations: Sequence[Relation], document: object, out: _Collector) -> None:
    for breach in violated_relations(relations, document):
        out.errors.append(SchemaDriftError(out.provider, out.api, format_path(breach.path), breach.expected,
                                           describe_type(breach.value), breach.relation.rule_id, short_repr(breach.value)))


# -- public API: responses --------------------------------------------------------------------------


def _response(api: str | ApiShape, payload: object, *, record_sites: bool) -> _Collector:
    shape = get_shape(api)
    out = _Collector(shape, record_sites=record_sites)
    _walk(shape.response, payload, None, out)
    if not out.errors:  # invariants read a payload whose structure is known to be sound
        _check_invariants(shape.invariants, payload, out)
        _check_relations(shape.relations, payload, out)
    return out


def validate_response(api: str | ApiShape, payload: object) -> DriftReport:
    """Every drift error and notice in ``payload`` (a decoded JSON body); never raises on it."""
    return _response(api, payload, record_sites=False).report()


def check_response(api: str | ApiShape, payload: object) -> DriftReport:
    """Validate ``payload``; raise :class:`SchemaDriftError` on drift, else return the report.

    Raises nothing else for any ``payload``; ``api`` must be a known id or an
    :class:`~strictconformance.drift.shapes.model.ApiShape` (else ``ValueError``).
    """
    return validate_response(api, payload).raise_for_drift()


def response_sites(api: str | ApiShape, payload: object) -> list[Site]:
    """The sites the walk checked in a payload (for mutations)."""
    return _response(api, payload, record_sites=True).sites or []


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def load_json_text(text: str | bytes | bytearray) -> object:
    """Strict JSON parsing (no NaN/Infinity) with a plain ``ValueError`` for any bad text.

    CPython's parser recurses per nesting level; absurdly deep text is a ``ValueError`` too.
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("JSON text nests too deeply to parse") from None
    except (ValueError, UnicodeDecodeError) as exc:
        raise ValueError(f"not JSON text: {exc}") from None
    except TypeError as exc:
        raise ValueError(f"not JSON text: {exc}") from None


def check_response_text(api: str | ApiShape, text: str | bytes | bytearray) -> DriftReport:
    """Like :func:`check_response` for a raw body; text that is not JSON is DR-6 drift."""
    shape = get_shape(api)
    try:
        payload = load_json_text(text)
    except ValueError as exc:
        raise SchemaDriftError(shape.provider, shape.api, "", "a JSON body", "invalid JSON text", "DR-6", str(exc)[:120]) from None
    return check_response(shape, payload)


# -- public API: streams ----------------------------------------------------------------------------


def _events(source: object, out: _Collector) -> list[SSEEvent | None]:
    if isinstance(source, (str, bytes, bytearray)):
        return list(parse_sse(source))
    if not isinstance(source, Iterable) or isinstance(source, Mapping):
        out.error(None, "a sequence of SSE events (or the raw stream text)", f"{type_name(source)} (not a stream)", "DR-6")
        return []
    events: list[SSEEvent | None] = []
    for index, event in enumerate(source):
        if isinstance(event, SSEEvent):
            events.append(event)
        elif isinstance(getattr(event, "data", None), str):  # another SSE library's event object
            name = getattr(event, "event", None)
            events.append(SSEEvent(event.data, name if isinstance(name, str) and name else None))
        else:
            out.error(((None, "events"), index), "an SSEEvent", f"{type_name(event)} (not an SSE event)", "DR-6")
            events.append(None)
    return events


def _stream(api: str | ApiShape, source: object, *, record_sites: bool) -> tuple[_Collector, dict[str, Any]]:
    shape = get_shape(api)
    stream = shape.stream
    out = _Collector(shape, record_sites=record_sites)
    document: dict[str, Any] = {"events": []}
    entries: list[dict[str, Any]] = document["events"]
    events = _events(source, out)
    terminated = False
    discriminator = stream.event.discriminator if isinstance(stream.event, Tagged) else None
    events_node: _Node = (None, "events")
    for index, event in enumerate(events):
        node: _Node = (events_node, index)
        if event is None:
            entries.append({"event": None, "data": None})
            continue
        if terminated:
            out.notice("after_terminator", node, "event after the stream's terminator (SDKs stop reading there)")
            entries.append({"event": event.event, "data": event.data})
            continue
        if stream.terminator is not None and event.data.strip() == stream.terminator:
            terminated = True
            entries.append({"event": event.event, "data": event.data})
            continue
        data_node: _Node = (node, "data")
        try:
            data = load_json_text(event.data)
        except ValueError as exc:
            out.error(data_node, "JSON text", "invalid JSON text", "DR-2", short_repr(str(exc)))
            entries.append({"event": event.event, "data": event.data})
            continue
        entries.append({"event": event.event, "data": data})
        errors_before = len(out.errors)
        _walk(stream.event, data, data_node, out)
        if discriminator is not None and isinstance(data, dict):
            tag = data.get(discriminator)
            if isinstance(tag, str) and event.event != tag and len(out.errors) == errors_before:
                out.error(
                    (node, "event"),
                    f"event name {tag!r} (the data's {discriminator}; SDKs dispatch on it)",
                    "absent" if event.event is None else "string",
                    "DR-2",
                    None if event.event is None else short_repr(event.event),
                )
    if stream.terminator is not None and not terminated:
        out.notice("stream_unterminated", events_node, f"the stream ended without {stream.terminator!r}")
    if not out.errors:
        _check_invariants(stream.invariants, document, out)
        _check_relations(stream.relations, document, out)
    if not out.errors:
        _check_lifecycle(shape.api, document, out)
    return out, document


def _check_lifecycle(api: str, document: dict[str, Any], out: _Collector) -> None:
    """DR-8/DR-9: the stream follows its documented event lifecycle (:mod:`~strictconformance.drift.lifecycle`)."""
    for breach in lifecycle_breaches(api, document):
        path = parse_path(breach.path)
        node: _Node = None
        for part in path:
            node = (node, part)
        out.error(node, breach.expected, breach.actual, breach.rule_id)


def validate_stream(api: str | ApiShape, events: Iterable[SSEEvent] | str | bytes) -> DriftReport:
    """Every drift error and notice in a stream: its events in order, or the raw SSE text.

    Paths address the stream as ``events[3].data.delta.text`` (and ``events[3].event`` for the
    event name).
    """
    return _stream(api, events, record_sites=False)[0].report()


def check_stream(api: str | ApiShape, events: Iterable[SSEEvent] | str | bytes) -> DriftReport:
    """Validate a stream; raise :class:`SchemaDriftError` on drift, else return the report."""
    return validate_stream(api, events).raise_for_drift()


def stream_sites(api: str | ApiShape, events: Iterable[SSEEvent]) -> list[Site]:
    """The sites the walk checked in a stream (paths start ``events[i].data``)."""
    return _stream(api, events, record_sites=True)[0].sites or []


def stream_document(api: str | ApiShape, events: Iterable[SSEEvent]) -> dict[str, Any]:
    """The virtual document ``{"events": [{"event", "data"}, ...]}`` stream paths address."""
    return _stream(api, events, record_sites=False)[1]

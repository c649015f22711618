"""Mutation sites read from the shape data by a walk of their own.

The drift mutations change a response at the places its API shape declares: a field present in
the response, an object with declared keys, an element of a discriminated union, an array of
union elements. This module finds those places from the shape (:mod:`strictconformance.drift.shapes`)
and the response alone. It shares no code with the reference validator's walk
(:mod:`strictconformance.drift.validator`), so a field that walk fails to look at is still
mutated, and the rules then judge the reference on it like any SDK.

Only places whose value fits the shape are sites (a value of the wrong type is already drift;
mutating below it would label a change to a broken response). Site records are the plain data
classes the mutation kinds consume (:class:`~strictconformance.drift.validator.FieldSite` and
its siblings); the order matches a depth-first walk with later siblings first.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from strictconformance.drift.errors import json_type
from strictconformance.drift.paths import PathPart
from strictconformance.drift.shapes import get_shape
from strictconformance.drift.shapes.model import (
    AnyJson,
    ApiShape,
    Arr,
    Keyed,
    Obj,
    Tagged,
    Value,
    ValueShape,
    accepted_types,
)
from strictconformance.drift.sse import SSEEvent
from strictconformance.drift.validator import ArraySite, FieldSite, ObjectSite, Site, UnionSite

__all__ = ["response_sites", "shape_sites", "stream_sites"]

_ABSENT: Any = object()


def _fits(shape: ValueShape, value: object) -> bool:
    kind = json_type(value) if value is not None else "null"
    return kind is not None and kind in accepted_types(shape)


def shape_sites(root: ValueShape, value: object, prefix: tuple[PathPart, ...] = ()) -> list[Site]:
    """Every site of ``value`` under ``root``; paths start with ``prefix``."""
    sites: list[Site] = []
    if not _fits(root, value):
        return sites
    # (shape, value, path, inside a union element, an SDK reads it)
    pending: list[tuple[ValueShape, Any, tuple[PathPart, ...], bool, bool]] = [(root, value, prefix, False, True)]
    while pending:
        shape, current, path, in_variant, reads = pending.pop()
        if isinstance(shape, Obj):
            sites.append(ObjectSite(path, shape.known, in_variant, reads))
            for declared in shape.fields:
                item = current.get(declared.name, _ABSENT)
                if item is _ABSENT or item is None:
                    continue
                if not _fits(declared.shape, item):
                    continue
                if declared.nonempty and isinstance(item, (str, list, dict)) and not item:
                    continue
                here = (*path, declared.name)
                field_reads = reads and declared.reads
                sites.append(FieldSite(here, declared, item, in_variant, field_reads))
                if not isinstance(declared.shape, (Value, AnyJson)):
                    pending.append((declared.shape, item, here, in_variant, field_reads))
        elif isinstance(shape, Arr):
            items = shape.items
            is_union = isinstance(items, (Tagged, Keyed))
            if is_union:
                sites.append(ArraySite(path, items, reads))  # type: ignore[arg-type]
            if isinstance(items, (Value, AnyJson)):
                continue
            for index, element in enumerate(current):
                if _fits(items, element):
                    pending.append((items, element, (*path, index), in_variant, reads))
        elif isinstance(shape, Tagged):
            tag = current.get(shape.discriminator)
            if type(tag) is not str or tag not in shape.merged:
                continue
            in_array = bool(path) and isinstance(path[-1], int)
            sites.append(UnionSite(path, shape, tag, in_array, reads))
            pending.append((shape.merged[tag], current, path, True, reads))
        elif isinstance(shape, Keyed):
            in_array = bool(path) and isinstance(path[-1], int)
            for key in shape.variants:
                if key in current:
                    sites.append(UnionSite(path, shape, key, in_array, reads))
                    pending.append((shape.merged[key], current, path, True, reads))
    return sites


def response_sites(api: str | ApiShape, payload: object) -> list[Site]:
    """The sites of a decoded JSON body, from its API's response shape."""
    return shape_sites(get_shape(api).response, payload)


def stream_sites(api: str | ApiShape, events: Iterable[SSEEvent]) -> list[Site]:
    """The sites of a stream's events (paths start ``events[i].data``), from its stream shape.

    Events after the terminator, the terminator itself and events whose data is not JSON carry
    no sites.
    """
    stream = get_shape(api).stream
    sites: list[Site] = []
    for index, event in enumerate(events):
        if stream.terminator is not None and event.data.strip() == stream.terminator:
            break
        try:
            data = json.loads(event.data)
        except ValueError:
            continue
        sites.extend(shape_sites(stream.event, data, ("events", index, "data")))
    return sites

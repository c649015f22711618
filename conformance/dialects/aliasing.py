"""RT-2's aliasing part: a strict schema shares no mutable node (dict or list) with the input it
was made from, with an earlier output, or with itself.

A caller that adds a key to the strict schema (an SDK setting ``strict``, a user editing a tool)
must not change the tool's original schema, the next call's output, or another place of the same
output: those are the shared nodes found here. Identity is what is compared (``is``), never
equality: two equal lists are fine, one list in two places is not.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from strictconformance.dialects.pointers import join_pointer

__all__ = ["first_shared_node"]


def _containers(value: Any) -> list[tuple[str, Any]]:
    """(pointer, container) of every dict and list in ``value``, iteratively, each met once per place."""
    found: list[tuple[str, Any]] = []
    stack: list[tuple[str, Any]] = [("", value)]
    while stack:
        pointer, item = stack.pop()
        if isinstance(item, dict):
            found.append((pointer, item))
            stack.extend((join_pointer(pointer, key), sub) for key, sub in item.items() if isinstance(sub, (dict, list)))
        elif isinstance(item, list):
            found.append((pointer, item))
            stack.extend((join_pointer(pointer, index), sub) for index, sub in enumerate(item) if isinstance(sub, (dict, list)))
        if len(found) > 1_000_000:
            break  # a DAG unfolding exponentially: what was found already says enough
    return found


def first_shared_node(output: Any, others: Mapping[str, Any] | None = None, *, within: bool = True) -> tuple[str, str] | None:
    """The first dict or list of ``output`` that is also somewhere in one of ``others`` (by name),
    or (``within``) twice in ``output`` itself: ``(pointer in output, what it is shared with)``;
    None when there is none."""
    elsewhere: dict[int, str] = {}
    for name, other in (others or {}).items():
        for pointer, container in _containers(other):
            elsewhere.setdefault(id(container), f"{name} at {pointer or '/'}")
    seen: dict[int, str] = {}
    for pointer, container in sorted(_containers(output), key=lambda item: (item[0].count("/"), item[0])):
        key = id(container)
        if key in elsewhere:
            return pointer or "/", elsewhere[key]
        if within and key in seen:
            return pointer or "/", f"the output itself at {seen[key] or '/'}"
        seen[key] = pointer
    return None

"""JSON values: equality as JSON Schema sees it (``1 == 1.0``, ``true != 1``, key order ignored),
and what makes a Python value not JSON."""

from __future__ import annotations

import json
import math
import sys
from collections.abc import Mapping
from typing import Any

from strictconformance.dialects.pointers import join_pointer

__all__ = ["MAX_JSON_NESTING", "canonical", "exact_json_text", "json_equal", "json_problem", "locate_json_problem"]

#: JSON nesting the kit takes from outside (an input schema, an adapter's strict schema or value):
#: far above any provider's limit (OpenAI: 10 levels), far below where copying or validating recurses too deep.
MAX_JSON_NESTING = 500


def _normal(item: Any) -> Any:
    if isinstance(item, bool) or item is None or isinstance(item, str):
        return item
    if isinstance(item, float) and item.is_integer():
        return int(item)
    if isinstance(item, dict):
        return {key: _normal(sub) for key, sub in item.items()}
    if isinstance(item, (list, tuple)):
        return [_normal(sub) for sub in item]
    return item


def canonical(value: Any) -> str:
    """A JSON text equal exactly for JSON-equal values."""
    return json.dumps(_normal(value), sort_keys=True)


def json_equal(a: Any, b: Any) -> bool:
    return canonical(a) == canonical(b)


_LEAVES = (str, int, float, bool, type(None))
# Python refuses to write or read integers longer than this as text (CPython 3.11+; unbounded before)
_MAX_INT_DIGITS: int = getattr(sys, "get_int_max_str_digits", lambda: 0)()


def _too_long_integer(item: Any) -> bool:
    """An integer json.dumps (and json.loads) refuses: more decimal digits than Python allows."""
    if not _MAX_INT_DIGITS or isinstance(item, bool) or not isinstance(item, int):
        return False
    # bit_length bounds the digits from above cheaply; compare exactly only near the limit
    return item.bit_length() > _MAX_INT_DIGITS * 3.32 and abs(item) >= 10 ** _MAX_INT_DIGITS


_EXACT = frozenset({dict, list, str, int, float, bool, type(None)})


def exact_json_text(value: object, *, sort_keys: bool = False) -> str | None:
    """``value``'s JSON text when the text says all there is to it, else None.

    That is when ``value`` is made of dicts with string keys, lists and JSON scalars of exactly
    those types (not a tuple, which jsonschema does not count as an array, not another mapping,
    not a subclass, not a key ``1`` that the text writes as ``"1"``), holds no container twice (a
    cycle, or a shared sub-value: the text would repeat it, exponentially for a DAG of shared
    levels) and can be written (no integer too long to print, not nested past the recursion
    limit). Two such values with the same text are equal, types and key order included (without
    ``sort_keys``), so the text can key a memo of anything computed from the value, and
    ``json.loads`` of it is an exact copy. Linear in the value."""
    stack: list[object] = [value]
    seen: set[int] = set()
    while stack:
        node = stack.pop()
        kind = node.__class__
        if kind not in _EXACT:
            return None
        if kind is dict or kind is list:
            if id(node) in seen:
                return None
            seen.add(id(node))
            if kind is dict:
                if any(key.__class__ is not str for key in node):  # type: ignore[attr-defined]
                    return None
                stack.extend(node.values())  # type: ignore[attr-defined]
            else:
                stack.extend(node)  # type: ignore[arg-type]
    try:
        return json.dumps(value, sort_keys=sort_keys)
    except (ValueError, RecursionError):  # an integer too long to print, or nested too deep
        return None


def json_problem(value: Any, *, max_depth: int | None = None) -> str | None:
    """Why ``value`` is not a JSON value, naming the JSON pointer (None when it is one); see
    :func:`locate_json_problem`."""
    found = locate_json_problem(value, max_depth=max_depth)
    if found is None:
        return None
    pointer, problem = found
    if len(pointer) > 200:  # a deep place: its start and end say enough
        pointer = f"{pointer[:100]}...{pointer[-60:]}"
    return f"at {pointer or '/'}: {problem}"


def locate_json_problem(value: Any, *, max_depth: int | None = None,
                        python_containers: bool = False) -> tuple[str, str] | None:
    """``(pointer, problem)`` where ``value`` stops being a JSON value (None when it is one).

    JSON here is what ``json.loads`` gives back: dicts with string keys, lists, strings, finite
    numbers, booleans and None (a tuple, a set, NaN or an int key is not: ``json.dumps`` would
    turn some of them into something else silently). With ``python_containers`` any mapping with
    string keys is an object and a tuple an array (what Python code hands the tool helper). The
    walk is iterative, so any depth is fine; ``max_depth`` bounds it where the caller cannot take
    deeper values.
    """
    objects: tuple[type, ...] = (Mapping,) if python_containers else (dict,)
    arrays: tuple[type, ...] = (list, tuple) if python_containers else (list,)
    on_path: set[int] = set()
    # (value, pointer, depth, leaving): ``leaving`` pops a container off the path once its items are done
    stack: list[tuple[Any, str, int, bool]] = [(value, "", 0, False)]
    while stack:
        item, pointer, depth, leaving = stack.pop()
        if leaving:
            on_path.discard(id(item))
            continue
        if isinstance(item, _LEAVES):
            if isinstance(item, float) and not math.isfinite(item):
                return pointer, f"{item!r} is not a JSON number"
            if isinstance(item, int) and _too_long_integer(item):
                return pointer, (f"an integer of {item.bit_length()} bits has more than {_MAX_INT_DIGITS} digits: "
                                 "Python's json cannot write or read it (sys.set_int_max_str_digits)")
            continue
        if not isinstance(item, objects + arrays):
            hint = " (JSON arrays are lists)" if isinstance(item, tuple) else ""
            return pointer, f"a value of type {type(item).__name__} is not a JSON value{hint}"
        if id(item) in on_path:
            return pointer, "the value contains itself (a cyclic Python object, not JSON)"
        if max_depth is not None and depth >= max_depth:
            return pointer, f"the value nests deeper than {max_depth} levels"
        on_path.add(id(item))
        stack.append((item, pointer, depth, True))
        if isinstance(item, Mapping):  # (a mapping other than a dict got here only with python_containers)
            for key in item:
                if not isinstance(key, str):
                    return pointer, f"the key {key!r} is a {type(key).__name__}; JSON object keys are strings"
            stack.extend((sub, join_pointer(pointer, key), depth + 1, False) for key, sub in reversed(list(item.items())))
        elif isinstance(item, (list, tuple)):
            stack.extend((sub, join_pointer(pointer, index), depth + 1, False) for index, sub in reversed(list(enumerate(item))))
    return None

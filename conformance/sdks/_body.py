"""The JSON text of a payload the suite hands an adapter, as a provider would send it: written
without recursion (DR-6 sends payloads nested 10,000 deep) and with integers of any length (the
suite's hostile payloads hold ints past CPython's 4300-digit ``str()`` limit). ``json.dumps`` fails on
both, which would make the adapter fail before the SDK ever reads the body."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["json_body"]

#: Digits per chunk when writing a long int: under the smallest integer string limit CPython allows (640).
_CHUNK = 600
_CHUNK_BASE = 10**_CHUNK


def _int_text(number: int) -> str:
    if number < 0:
        return "-" + _int_text(-number)
    if number < _CHUNK_BASE:
        return str(number)
    chunks: list[str] = []
    while number >= _CHUNK_BASE:
        number, rest = divmod(number, _CHUNK_BASE)
        chunks.append(str(rest).zfill(_CHUNK))
    chunks.append(str(number))
    return "".join(reversed(chunks))


def _leaf(value: Any) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return json.dumps(value)
    if isinstance(value, int):
        return _int_text(int(value))
    raise TypeError(f"not a JSON value: {type(value).__name__}")


def json_body(value: Any) -> bytes:
    """``value`` (dicts with string keys, lists, strings, numbers, booleans, None) as compact JSON
    bytes, however deep and however long its integers."""
    out: list[str] = []
    todo: list[Any] = [value]  # values to write, and str tokens to emit as they are
    marker = object()
    while todo:
        item = todo.pop()
        if isinstance(item, tuple) and item and item[0] is marker:
            out.append(item[1])
        elif isinstance(item, dict):
            parts: list[Any] = []
            for index, (key, child) in enumerate(item.items()):
                parts.append((marker, ("," if index else "") + json.dumps(str(key)) + ":"))
                parts.append(child)
            todo.append((marker, "}"))
            todo.extend(reversed(parts))
            todo.append((marker, "{"))
        elif isinstance(item, list):
            parts = []
            for index, child in enumerate(item):
                if index:
                    parts.append((marker, ","))
                parts.append(child)
            todo.append((marker, "]"))
            todo.extend(reversed(parts))
            todo.append((marker, "["))
        else:
            out.append(_leaf(item))
    return "".join(out).encode()

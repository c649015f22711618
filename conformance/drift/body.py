"""The HTTP body of a response payload, for adapters that answer their SDK's HTTP client.

``check_response`` receives a decoded JSON payload; an adapter whose SDK reads HTTP answers has to
turn it back into bytes. ``json.dumps`` cannot do that for every payload DR-6 sends: one nested
10,000 deep raises ``RecursionError`` and an integer past Python's digit limit ``ValueError``, in
the adapter, before the SDK sees anything; the check would then blame the SDK for the adapter's
encoding. :func:`json_body` encodes any JSON value without recursion and prints every integer.
"""

from __future__ import annotations

import json
import sys
import typing
from collections.abc import Iterator
from typing import Any

__all__ = ["json_body"]

_encode_string = json.JSONEncoder(ensure_ascii=False).encode


def json_body(payload: Any) -> bytes:
    """``payload`` (dicts with string keys, lists, strings, numbers, booleans, None) as compact
    UTF-8 JSON, as ``json.dumps(payload, ensure_ascii=False)`` writes it when it can (with
    ``", "``/``": "`` separators), at any nesting depth and for integers of any length."""
    return "".join(_pieces(payload)).encode("utf-8", "surrogatepass")


def _scalar(value: Any) -> str:
    if isinstance(value, bool) or value is None or isinstance(value, (str, float)):
        return _encode_string(value)
    if isinstance(value, int):
        return _int_text(value)
    raise TypeError(f"{type(value).__name__} is not a JSON value")


def _int_text(value: int) -> str:
    try:
        return str(value)
    except ValueError:  # past sys.get_int_max_str_digits(): print it anyway, it is the payload
        limit = sys.get_int_max_str_digits()
        sys.set_int_max_str_digits(0)
        try:
            return str(value)
        finally:
            sys.set_int_max_str_digits(limit)


class _Frame:
    """A container being written: its remaining items, its closing bracket, whether one is out."""

    __slots__ = ("close", "is_object", "items", "started")

    def __init__(self, items: Iterator[Any], close: str, is_object: bool) -> None:
        self.items, self.close, self.is_object, self.started = items, close, is_object, False


_END = object()


def _pieces(value: Any) -> Iterator[str]:
    stack: list[_Frame] = []
    current: Any = value
    while True:
        if isinstance(current, dict):
            yield "{"
            stack.append(_Frame(iter(current.items()), "}", True))
        elif isinstance(current, (list, tuple)):
            yield "["
            stack.append(_Frame(iter(current), "]", False))
        else:
            yield _scalar(current)
        while stack:
            frame = stack[-1]
            item = next(frame.items, _END)
            if item is not _END:
                break
            stack.pop()
            yield frame.close
        else:
            return
        if frame.started:
            yield ", "
        frame.started = True
        if frame.is_object:
            key, current = typing.cast("tuple[Any, Any]", item)
            if not isinstance(key, str):
                raise TypeError(f"object key {key!r} is not a string")
            yield _encode_string(key) + ": "
        else:
            current = item

"""Paths into response payloads: one syntax, a parser that reads the others, and a matcher.

The kit writes paths as ``choices[0].message.tool_calls[1].function.arguments``: object keys
joined by dots, array positions in brackets, ``[*]`` for "any element". A key that is not a
plain identifier is written ``["key.with.dots"]`` (JSON-quoted). The root is ``""``.

Stream paths address the virtual document ``{"events": [{"event": name, "data": ...}, ...]}``,
so an error in the fourth event's data reads ``events[3].data.delta.text``.

An SDK reports paths its own way: JSON Pointer (``/content/3/id``), dotted with numeric parts
(``content.3.id``) or a pydantic ``loc`` tuple (``("content", 3, "id")``). :func:`parse_path`
reads all of them, and :func:`paths_match` compares two paths with ``[*]`` matching any position,
so ``content[3].id`` matches ``content[*].id``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Sequence
from typing import Final

__all__ = [
    "ANY_INDEX",
    "PathLike",
    "PathPart",
    "format_path",
    "parse_path",
    "paths_match",
    "resolve_path",
    "wildcard_path",
]


class _AnyIndex:
    """The ``[*]`` segment: any array position."""

    _instance: _AnyIndex | None = None

    def __new__(cls) -> _AnyIndex:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "ANY_INDEX"

    def __reduce__(self) -> str:
        return "ANY_INDEX"


#: The ``[*]`` segment.
ANY_INDEX: Final = _AnyIndex()

PathPart = str | int | _AnyIndex
#: What the helpers accept: a path string in any supported syntax, or a sequence of parts.
PathLike = str | Sequence[str | int]

_DIGITS = re.compile(r"[0-9]+")
_PLAIN_KEY = re.compile(r"^[A-Za-z_$@][A-Za-z0-9_$@-]*$")
_TOKEN = re.compile(
    r"""\s*(?:
        \[\s*(?P<index>-?\d+|\*)\s*\]           # [3] or [*]
      | \[\s*(?P<quoted>"(?:[^"\\]|\\.)*"|'(?:[^'\\]|\\.)*')\s*\]  # ["odd key"]
      | \.?(?P<key>[^.\[\]]+)                   # key, optionally after a dot
    )""",
    re.VERBOSE,
)


def format_path(parts: Sequence[PathPart]) -> str:
    """The kit's syntax for ``parts``: ``("content", 3, "id")`` -> ``content[3].id``."""
    out: list[str] = []
    for part in parts:
        if isinstance(part, _AnyIndex):
            out.append("[*]")
        elif not isinstance(part, str):
            out.append(f"[{int(part)}]")
        elif _PLAIN_KEY.match(part):
            out.append(f".{part}" if out else part)
        else:
            out.append(f"[{json.dumps(part, ensure_ascii=False)}]")
    return "".join(out)


def wildcard_path(path: PathLike) -> str:
    """``path`` with every array position replaced by ``[*]``."""
    return format_path([ANY_INDEX if _is_index(part) else part for part in parse_path(path)])


def parse_path(path: PathLike) -> tuple[PathPart, ...]:
    """Read a path in any supported syntax into parts (ints for positions, ``ANY_INDEX`` for ``*``).

    Dotted and pointer forms cannot tell a numeric key from a position; they come back as the
    string (``"3"``), and :func:`paths_match` treats a digit string and the int alike.
    Raises ``ValueError`` naming the problem when ``path`` is not a path.
    """
    if isinstance(path, str):
        return _parse_string(path)
    if isinstance(path, (bytes, bytearray)) or not isinstance(path, Sequence):
        raise ValueError(f"a path is a string or a sequence of keys and indices, not {type(path).__name__}")
    parts: list[PathPart] = []
    for part in path:
        if isinstance(part, bool) or not isinstance(part, (str, int, _AnyIndex)):
            raise ValueError(f"path part {part!r} is not a key (str) or an index (int)")
        parts.append(ANY_INDEX if part == "*" else part)
    return tuple(parts)


def _parse_string(text: str) -> tuple[PathPart, ...]:
    text = text.strip()
    if text.startswith("/"):  # JSON Pointer
        return tuple(seg.replace("~1", "/").replace("~0", "~") for seg in text[1:].split("/"))
    if text.startswith("$"):
        text = text[1:]
    parts: list[PathPart] = []
    position = 0
    while position < len(text):
        match = _TOKEN.match(text, position)
        if match is None or match.end() == position:
            raise ValueError(f"cannot read path {text!r} at position {position}")
        position = match.end()
        if match["index"] is not None:
            parts.append(ANY_INDEX if match["index"] == "*" else int(match["index"]))
        elif match["quoted"] is not None:
            quoted = match["quoted"]
            if quoted.startswith("'"):
                quoted = '"' + quoted[1:-1].replace('"', '\\"') + '"'
            try:
                parts.append(json.loads(quoted))
            except ValueError:
                raise ValueError(f"bad quoted key {match['quoted']} in path {text!r}") from None
        else:
            key = match["key"].strip()
            parts.append(ANY_INDEX if key == "*" else key)
    return tuple(parts)


def _is_index(part: PathPart) -> bool:
    return isinstance(part, _AnyIndex) or (isinstance(part, int) and not isinstance(part, bool)) or (
        isinstance(part, str) and _DIGITS.fullmatch(part) is not None
    )


def _part_matches(reported: PathPart, expected: PathPart) -> bool:
    if isinstance(expected, _AnyIndex) or isinstance(reported, _AnyIndex):
        return _is_index(reported) and _is_index(expected)
    if _is_index(reported) and _is_index(expected):
        return int(reported) == int(expected)
    return reported == expected


def paths_match(reported: PathLike, expected: PathLike) -> bool:
    """Whether two paths name the same place, ``[*]`` on either side matching any position.

    ``paths_match("/content/3/id", "content[*].id")`` is true. A path that cannot be read
    matches nothing.
    """
    try:
        left, right = parse_path(reported), parse_path(expected)
    except ValueError:
        return False
    return len(left) == len(right) and all(_part_matches(a, b) for a, b in zip(left, right, strict=False))


def resolve_path(document: object, path: Sequence[PathPart]) -> list[tuple[tuple[PathPart, ...], object]]:
    """Every (concrete path, value) that ``path`` reaches in ``document``; ``[*]`` fans out.

    Missing keys, out-of-range positions and type mismatches simply reach nothing. Iterative:
    the work is bounded by the path's length and the arrays it fans out over.
    """
    found: list[tuple[tuple[PathPart, ...], object]] = [((), document)]
    for part in path:
        step: list[tuple[tuple[PathPart, ...], object]] = []
        for where, node in found:
            if isinstance(part, _AnyIndex):
                if isinstance(node, list):
                    step.extend(((*where, index), item) for index, item in enumerate(node))
            elif isinstance(part, int) and not isinstance(part, bool):
                if isinstance(node, list) and -len(node) <= part < len(node):
                    step.append(((*where, part), node[part]))
            elif isinstance(node, dict) and part in node:
                step.append(((*where, part), node[part]))
        found = step
        if not found:
            break
    return found

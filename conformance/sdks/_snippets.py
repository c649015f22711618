"""Helpers for the shipped adapters' reproducers (``Adapter.reproduce``): JSON values as Python
source, and the snippet's text. A reproducer runs on its own with only its SDK installed, so what it
embeds is plain Python source, never an object of the kit.

Large regular values are written as the expressions that build them, so that a size-limit
counterexample (5,000 properties ``p0`` ... ``p4999``, a 100,000-character name) is a few lines
that run, not half a megabyte: a long run of one character as ``'x' * 99000``, a list or dict
whose items follow one numbered pattern as a comprehension (``{f'p{i}': {'type': 'string'} for i
in range(5000)}``), a list of equal items as ``[... for _ in range(n)]`` (fresh copies: the SDK may
mutate them). Every such expression is evaluated when written and kept only if it builds exactly
the value (same types too); otherwise the plain literal is written."""

from __future__ import annotations

import pprint
import re
from typing import Any

__all__ = ["python_literal", "snippet"]

#: Ints wider than this are written in hex: Python refuses decimal literals past 4300 digits
#: (its integer string conversion limit), never hexadecimal ones.
_DECIMAL_BITS = 4000
#: A string is written as an expression when a run of one character this long is in it.
_MIN_RUN = 40
#: A list or dict is written as a comprehension from this many items.
_MIN_ITEMS = 16
_DIGITS = re.compile(r"\d+")
_RUN = re.compile(r"(.)\1{" + str(_MIN_RUN - 1) + ",}", re.DOTALL)


class _Code:
    """Python source that pprint writes as it is (its repr)."""

    def __init__(self, source: str) -> None:
        self.source = source

    def __repr__(self) -> str:
        return self.source


class _Hex(int):
    def __repr__(self) -> str:
        return hex(self)


def _same(built: Any, value: Any) -> bool:
    """``built == value`` with the types of every part equal too (``1 == True`` is not enough)."""
    if type(built) is not type(value):
        return False
    if isinstance(value, dict):
        return list(built) == list(value) and all(_same(built[k], value[k]) for k in value)
    if isinstance(value, list):
        return len(built) == len(value) and all(_same(a, b) for a, b in zip(built, value, strict=True))
    return bool(built == value)


def _source(value: Any) -> str:
    """One-line source of an already compacted value."""
    return pprint.pformat(value, width=10**9, sort_dicts=False)


def _checked(source: str, value: Any) -> _Code | None:
    try:
        built = eval(source, {"__builtins__": {"range": range}})  # source we just wrote, from JSON data
    except Exception:  # any failure: write the plain literal
        return None
    return _Code(source) if _same(built, value) else None


def _string(text: str) -> Any:
    runs = [(m.start(), m.end()) for m in re.finditer(_RUN, text)]
    if not runs:
        return text
    parts: list[str] = []
    at = 0
    for start, end in runs:
        if start > at:
            parts.append(repr(text[at:start]))
        parts.append(f"{text[start]!r} * {end - start}")
        at = end
    if at < len(text):
        parts.append(repr(text[at:]))
    source = parts[0] if len(parts) == 1 else "(" + " + ".join(parts) + ")"
    return _checked(source, text) or text


def _numbered(texts: list[str]) -> tuple[str, int] | None:
    """An f-string over ``i`` and its first index, that writes each of ``texts`` from its index (``f'p{i}'`` for p0 p1
    ...; ``f'{i:03d}' + 'y' * 57`` for 000yyy... 001yyy...), or None when they follow no such pattern."""
    first = texts[0]
    for match in _DIGITS.finditer(first):
        prefix, suffix = first[:match.start()], first[match.end():]
        start = int(match.group())
        width = len(match.group())
        ok = True
        for offset, text in enumerate(texts):
            number = start + offset
            body = text[len(prefix):len(text) - len(suffix)] if len(text) >= len(prefix) + len(suffix) else ""
            if not (text.startswith(prefix) and text.endswith(suffix) and body.isdigit() and int(body) == number):
                ok = False
                break
        if not ok:
            continue
        padded = all(len(text) - len(prefix) - len(suffix) == width for text in texts)
        field = f"{{i:0{width}d}}" if padded and width > 1 else "{i}"
        parts: list[str] = []
        literal = ""  # plain text joins the f-string; a compacted run is added as its expression
        for part in (prefix, None, suffix):
            compacted = _string(part) if part else part
            if part is None:
                literal += field
            elif isinstance(compacted, str) and not re.search(r"[{}'\\\n\r]", compacted) and compacted.isprintable():
                literal += compacted
            elif part:
                if literal:
                    parts.append(f"f'{literal}'")
                    literal = ""
                parts.append(_source(compacted))
        if literal:
            parts.append(f"f'{literal}'")
        source = " + ".join(parts)
        return (f"({source})" if len(parts) > 1 else source), start
    return None


def _range(start: int, count: int) -> str:
    return f"range({count})" if start == 0 else f"range({start}, {start + count})"


def _compact(value: Any) -> Any:
    if isinstance(value, bool) or value is None or isinstance(value, float):
        return value
    if isinstance(value, int):
        return _Hex(value) if value.bit_length() > _DECIMAL_BITS else value
    if isinstance(value, str):
        return _string(value) if len(value) >= _MIN_RUN else value
    if isinstance(value, list):
        if len(value) >= _MIN_ITEMS:
            if all(isinstance(item, str) for item in value):
                found = _numbered(value)
                if found is not None:
                    expression, start = found
                    code = _checked(f"[{expression} for i in {_range(start, len(value))}]", value)
                    if code is not None:
                        return code
            if all(_same(item, value[0]) for item in value):
                code = _checked(f"[{_source(_compact(value[0]))} for _ in range({len(value)})]", value)
                if code is not None:
                    return code
        return [_compact(item) for item in value]
    if isinstance(value, dict):
        keys = list(value)
        if len(keys) >= _MIN_ITEMS and all(isinstance(key, str) for key in keys):
            items = list(value.values())
            found = _numbered(keys)
            if found is not None and all(_same(item, items[0]) for item in items):
                expression, start = found
                code = _checked(f"{{{expression}: {_source(_compact(items[0]))} for i in {_range(start, len(keys))}}}", value)
                if code is not None:
                    return code
        return {_compact(key) if isinstance(key, str) else key: _compact(item) for key, item in value.items()}
    return value


def python_literal(value: Any, indent: int = 0) -> str:
    """``value`` (a JSON value: dicts, lists, strings, numbers, booleans, None) as Python source
    that evaluates back to it, wrapped to 100 columns, large regular parts written as the
    expressions that build them; continuation lines are indented by ``indent`` spaces."""
    text = pprint.pformat(_compact(value), width=max(40, 100 - indent), sort_dicts=False)
    return text.replace("\n", "\n" + " " * indent)


def snippet(*lines: str) -> str:
    """The lines of a reproducer as one text, ending without a newline."""
    return "\n".join(lines).rstrip("\n")

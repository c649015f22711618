"""Helpers for the shipped adapters' reproducers (``Adapter.reproduce``): JSON values as Python
source, and the snippet's text. A reproducer runs on its own with only its SDK installed, so what it
embeds is plain Python literals, never an object of the kit."""

from __future__ import annotations

import pprint
from typing import Any

__all__ = ["python_literal", "snippet"]

#: Ints wider than this are written in hex: Python refuses decimal literals past 4300 digits
#: (its integer string conversion limit), never hexadecimal ones.
_DECIMAL_BITS = 4000


class _Hex(int):
    def __repr__(self) -> str:
        return hex(self)


def _hex_wide_ints(value: Any) -> Any:
    if isinstance(value, int) and not isinstance(value, bool) and value.bit_length() > _DECIMAL_BITS:
        return _Hex(value)
    if isinstance(value, dict):
        return {key: _hex_wide_ints(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_hex_wide_ints(item) for item in value]
    return value


def python_literal(value: Any, indent: int = 0) -> str:
    """``value`` (a JSON value: dicts, lists, strings, numbers, booleans, None) as Python source,
    wrapped to 100 columns; continuation lines are indented by ``indent`` spaces."""
    text = pprint.pformat(_hex_wide_ints(value), width=max(40, 100 - indent), sort_dicts=False)
    return text.replace("\n", "\n" + " " * indent)


def snippet(*lines: str) -> str:
    """The lines of a reproducer as one text, ending without a newline."""
    return "\n".join(lines).rstrip("\n")

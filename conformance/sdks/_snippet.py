"""Helpers for the shipped adapters' reproducers (``Adapter.reproduce``): standalone Python snippets
that call only the SDK. Imports no SDK."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = ["literal", "snippet", "sse_literal"]


def literal(value: Any) -> str:
    """``value`` (JSON: dicts, lists, strings, finite numbers, booleans, None) as Python source
    that evaluates back to it, pretty-printed, large regular parts written as the expressions that
    build them (:func:`strictconformance.sdks._snippets.python_literal`)."""
    from strictconformance.sdks._snippets import python_literal

    return python_literal(value)


def sse_literal(events: Sequence[Any]) -> str:
    """A stream's server-sent events (``strictconformance.drift.SSEEvent``) as the literal text of
    the HTTP body (``event:``/``data:`` lines), so the snippet needs nothing from the kit."""
    from strictconformance.drift.sse import format_sse

    return repr(format_sse(events))


def snippet(*lines: str) -> str:
    """The snippet's lines joined, ending with a newline."""
    return "\n".join(lines) + "\n"

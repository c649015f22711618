"""Provider errors a response or a stream carries, and the text an exception chain exposes.

An SDK is right to raise its API error (``Adapter.api_errors``) for an error the provider sent:
an error body, or an error frame in a stream. Which payloads carry one is a fact of each API
(``shared/reference/response_shapes.md``):

* OpenAI (Chat Completions, Responses), Gemini, Groq, Cerebras and Anthropic error bodies hold a
  non-null ``error`` member at the top level (Anthropic's also says ``"type": "error"``); a Groq
  stream may end with an error chunk ``{"error": {...}, "status_code": ...}``.
* Cloudflare wraps errors in its v4 envelope: ``{"success": false, "errors": [...]}``.
* Anthropic streams send ``event: error`` with ``{"type": "error", "error": {...}}``; the Responses
  stream can send an ``error`` event (``{"type": "error", ...}``); an OpenAI-compatible chunk that
  carries ``error`` makes the openai SDK raise.

:func:`carried_error` says where a payload or stream carries one (or ``None``).
:func:`exception_chain` and :func:`chain_text` read an exception with its ``__cause__`` /
``__context__`` chain and the attributes an SDK's error exposes, so an SDK that keeps the path or
the actual value in a cause (pydantic's ``ValidationError`` under the SDK's own error) is read
as it is meant to be.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from strictconformance.drift.sse import SSEEvent

__all__ = ["carried_error", "chain_text", "exception_chain"]

#: How many exceptions of a chain are read (a chain can be cyclic or very long).
_CHAIN_LIMIT = 16
#: How much of one attribute's text is read.
_ATTRIBUTE_TEXT = 2000


#: Members of a success body (a response, a chunk): such a body's ``error`` member is a field of the
#: response (the Responses API's ``error: null``, a failed response's ``error: {...}``), not an
#: error body.
_SUCCESS_MEMBERS = frozenset({"id", "object", "choices", "output", "content", "candidates", "usage"})


def _body_error(value: Any, *, in_stream: bool = False) -> str | None:
    """Where a decoded body (or, ``in_stream``, an event's data) carries a provider error."""
    if not isinstance(value, dict):
        return None
    error = value.get("error")
    # An OpenAI-compatible stream chunk that carries ``error`` is an error frame (the openai SDK
    # raises on it), whatever else it holds; a body is an error body only if it is not a response.
    if error not in (None, False, "", {}) and (in_stream or value.get("type") == "error" or not (_SUCCESS_MEMBERS & value.keys())):
        return "error"
    if value.get("success") is False and isinstance(value.get("errors"), list) and value["errors"]:
        return "errors"
    return None


def _event_error(index: int, event: Any) -> str | None:
    if not isinstance(event, SSEEvent):
        return None
    if event.event == "error":
        return f"events[{index}] (event: error)"
    try:
        data = json.loads(event.data)
    except (ValueError, TypeError, RecursionError):
        return None
    if isinstance(data, dict):
        if data.get("type") == "error":
            return f"events[{index}] (type: error)"
        where = _body_error(data, in_stream=not str(data.get("type", "")).startswith("response."))
        if where is not None:
            return f"events[{index}].{where}"
    return None


def carried_error(payload: Any = None, events: Sequence[Any] | None = None) -> str | None:
    """Where ``payload`` (a decoded body) or ``events`` (a stream) carries a provider error: a
    path such as ``error`` or ``events[3] (event: error)``; ``None`` when it carries none."""
    if events is not None:
        for index, event in enumerate(events):
            where = _event_error(index, event)
            if where is not None:
                return where
        return None
    return _body_error(payload)


def exception_chain(error: BaseException) -> Iterator[BaseException]:
    """``error``, then its ``__cause__`` (or, without one, its ``__context__``), and so on: each
    exception once, at most :data:`_CHAIN_LIMIT` of them."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen and len(seen) < _CHAIN_LIMIT:
        seen.add(id(current))
        yield current
        current = current.__cause__ if current.__cause__ is not None else current.__context__


def _safe_text(value: Any) -> str:
    try:
        text = value if isinstance(value, str) else repr(value)
    except Exception:  # an attribute whose repr raises says nothing
        return ""
    return text[:_ATTRIBUTE_TEXT]


def _exposed(error: BaseException) -> Iterator[str]:
    """The texts one exception exposes: its message, its args, its public attributes and, for
    pydantic-style errors, ``errors()``."""
    yield _safe_text(_message(error))
    yield _safe_text(error.args)
    try:
        attributes = dict(vars(error))
    except TypeError:
        attributes = {}
    for name, value in attributes.items():
        if not name.startswith("_"):
            yield _safe_text(value)
    errors = getattr(error, "errors", None)
    if callable(errors):
        try:
            listed = errors()
        except Exception:  # not pydantic's errors(): nothing more to read
            listed = None
        if listed is not None:
            yield _safe_text(listed)


def _message(error: BaseException) -> str:
    try:
        return str(error)
    except Exception:
        return "<message not printable>"


def chain_text(error: BaseException) -> str:
    """Everything the exception chain of ``error`` says, as one text to search."""
    return "\n".join(text for link in exception_chain(error) for text in _exposed(link) if text)

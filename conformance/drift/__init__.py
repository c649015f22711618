"""Drift detection (SPEC §5): response shapes as data, the reference validator, cassettes.

Checking a response::

    from strictconformance.drift import check_response, check_stream, SchemaDriftError

    report = check_response("anthropic.messages", payload)   # raises SchemaDriftError on drift
    report.notices                                           # additive changes (new fields...)
    check_stream("openai.chat", sse_text_or_events)          # a stream: events or raw SSE text

API ids: ``openai.chat``, ``openai.responses``, ``anthropic.messages``,
``gemini.generate_content``, ``groq.chat``, ``cerebras.chat``, ``cloudflare.chat``
(:data:`API_IDS`; shapes in :mod:`strictconformance.drift.shapes`).

Paths use ``content[3].id`` (``events[3].data…`` in streams); :func:`paths_match` compares an
SDK's path with ``[*]`` wildcards. Adapters receive stream events as :class:`SSEEvent`.
The property logic for DR-1..DR-6 is in :mod:`strictconformance.drift.oracles`; the shipped
cassettes are listed and loaded by :mod:`strictconformance.drift.cassettes`.
"""

from __future__ import annotations

from strictconformance.drift.errors import DriftNotice, DriftReport, SchemaDriftError
from strictconformance.drift.fidelity import ParsedResponse, ParsedToolCall
from strictconformance.drift.paths import (
    ANY_INDEX,
    format_path,
    parse_path,
    paths_match,
    wildcard_path,
)
from strictconformance.drift.shapes import API_IDS, SHAPES, get_shape
from strictconformance.drift.sse import SSEEvent, format_sse, parse_sse
from strictconformance.drift.validator import (
    check_response,
    check_response_text,
    check_stream,
    validate_response,
    validate_stream,
)

__all__ = [
    "ANY_INDEX",
    "API_IDS",
    "SHAPES",
    "DriftNotice",
    "DriftReport",
    "ParsedResponse",
    "ParsedToolCall",
    "SSEEvent",
    "SchemaDriftError",
    "check_response",
    "check_response_text",
    "check_stream",
    "format_path",
    "format_sse",
    "get_shape",
    "parse_path",
    "parse_sse",
    "paths_match",
    "validate_response",
    "validate_stream",
    "wildcard_path",
]

"""Cloudflare Workers AI, OpenAI-compatible endpoint (``cloudflare.chat``).

``POST https://api.cloudflare.com/client/v4/accounts/{account_id}/ai/v1/chat/completions``.
Differences from OpenAI, each with its source: with ``response_format: json_schema``,
``message.content`` is a JSON **object** and ``usage`` is omitted (CHL 2025-12); ``tool_calls``
may be ``null``; ``matched_stop`` and ``reasoning_content`` are extra; stream chunks carry no
``finish_reason`` key until the last one. Binding streams (Workers ``env.AI.run``) may end with a
non-OpenAI trailer event ``{"response": "", "usage": {…}}``, accepted as a known variant.
"""

from __future__ import annotations

from strictconformance.drift.shapes._chat_family import ChatDifferences, chat_api
from strictconformance.drift.shapes.model import ANY, NUMBER, STRING, Obj, Value, info, opt, req

__all__ = ["SHAPE"]

CF = "response_shapes.md §7 (CF-DOC https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/)"
CF_CHL = "response_shapes.md §7; posit-dev/chatlas tests/_vcr/test_provider_cloudflare (2025-12)"
CF_STREAM = "response_shapes.md §7 Streams (REST llama-3.3, CHL 2025-12; binding gemma-4, CF-S03 2026-10)"

SHAPE = chat_api(
    api="cloudflare.chat",
    provider="cloudflare",
    title="Cloudflare Workers AI Chat Completions (OpenAI-compatible)",
    endpoint="POST https://api.cloudflare.com/client/v4/accounts/{account_id}/ai/v1/chat/completions",
    sources=("response_shapes.md §7", "https://developers.cloudflare.com/workers-ai/configuration/open-ai-compatibility/"),
    differences=ChatDifferences(
        choice_extra=(info("matched_stop", ANY, CF_CHL),),
        message={
            "content": opt(
                "content",
                Value(("string", "object")),
                CF_CHL,
                note="an object, not a string, with response_format json_schema",
            ),
        },
        message_extra=(
            opt("reasoning_content", STRING, CF),
            opt("reasoning", STRING, CF),
        ),
        usage_extra=(info("neurons", NUMBER, CF_STREAM),),
        chunk_extra=(info("p", STRING, CF_STREAM, note="padding on binding streams"),),
        delta_extra=(opt("reasoning_content", STRING, CF_STREAM),),
        chunk_variants={
            "response": Obj(
                (
                    req("response", STRING, CF_STREAM, note="binding-stream trailer before [DONE]"),
                    info("usage", ANY, CF_STREAM),
                    info("p", STRING, CF_STREAM),
                )
            )
        },
        finish_cleared_with_null=False,
        stream_source=CF_STREAM,
    ),
    notes="Errors use the Cloudflare v4 envelope ({result, success, errors, messages}); that is an error body, not a completion.",
)

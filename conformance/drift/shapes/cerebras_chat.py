"""Cerebras Chat Completions (``cerebras.chat``): ``https://api.cerebras.ai/v1/chat/completions``.

Differences from OpenAI, each with its source: ``system_fingerprint`` is required by the
cerebras SDK; ``time_info`` carries timings (``created`` is a float in 2026 bodies); tool calls
need ``type`` and ``function`` but not ``id``; a stream may carry an error chunk
``{"error": {…}, "status_code": int}``; real streams end without ``data: [DONE]``.
"""

from __future__ import annotations

from strictconformance.drift.shapes._chat_family import OPENAI_TOOL_CALL, ChatDifferences, chat_api
from strictconformance.drift.shapes.model import (
    ANY,
    INT,
    NUMBER,
    STRING,
    Obj,
    Tagged,
    Value,
    enum,
    info,
    opt,
    req,
)

__all__ = ["SHAPE"]

CEREBRAS = "response_shapes.md §6 (cerebras_cloud_sdk 1.91.0 types/chat/chat_completion.py)"
CEREBRAS_STREAM = "response_shapes.md §6 Stream; FAN cerebras-qwen-3-coder-480b streams (no [DONE])"

_TOOL_CALL = Tagged(
    "type",
    {
        "function": Obj(
            (
                opt("id", STRING, CEREBRAS, nullable=False),
                info("index", INT, CEREBRAS),
                req("function", OPENAI_TOOL_CALL.variants["function"].by_name["function"].shape, CEREBRAS),
            )
        )
    },
)
_TIME_INFO = Obj(
    (
        info("queue_time", NUMBER, CEREBRAS),
        info("prompt_time", NUMBER, CEREBRAS),
        info("completion_time", NUMBER, CEREBRAS),
        info("total_time", NUMBER, CEREBRAS),
        info("created", NUMBER, CEREBRAS, note="float in 2026 docs, int in 2024 examples"),
    )
)
_SERVICE_TIER = opt("service_tier", Value(("string",)), "cerebras 2024-07-31; sent as null")

SHAPE = chat_api(
    api="cerebras.chat",
    provider="cerebras",
    title="Cerebras Chat Completions (OpenAI-compatible)",
    endpoint="POST https://api.cerebras.ai/v1/chat/completions",
    sources=("response_shapes.md §6", "https://inference-docs.cerebras.ai/api-reference/chat-completions", "cerebras_cloud_sdk 1.91.0"),
    differences=ChatDifferences(
        top={
            "system_fingerprint": req("system_fingerprint", STRING, CEREBRAS, note="REQ in the cerebras SDK since 0.3.0"),
            "service_tier": _SERVICE_TIER,
        },
        top_extra=(
            opt("time_info", _TIME_INFO, CEREBRAS),
            info("service_tier_used", STRING, "Cerebras docs (not in SDK 1.91.0)"),
        ),
        choice={"finish_reason": req("finish_reason", enum("stop", "length", "content_filter", "tool_calls"), CEREBRAS)},
        choice_extra=(info("reasoning_logprobs", ANY, "cerebras 2025-12-31"),),
        message_extra=(opt("reasoning", STRING, "cerebras 2025-08-05 (gpt-oss)"),),
        tool_call=_TOOL_CALL,
        chunk={"system_fingerprint": opt("system_fingerprint", STRING, CEREBRAS_STREAM), "service_tier": _SERVICE_TIER},
        chunk_extra=(opt("time_info", _TIME_INFO, CEREBRAS_STREAM),),
        chunk_choice_extra=(info("text", ANY, CEREBRAS_STREAM), info("tokens", ANY, CEREBRAS_STREAM)),
        delta_extra=(opt("reasoning", STRING, CEREBRAS_STREAM),),
        chunk_variants={
            "error": Obj(
                (
                    req("error", Obj((opt("message", STRING, CEREBRAS_STREAM),), report_unknown=False), CEREBRAS_STREAM),
                    info("status_code", INT, CEREBRAS_STREAM),
                )
            )
        },
        terminator="[DONE]",
        finish_cleared_with_null=False,
        stream_source=CEREBRAS_STREAM,
    ),
    notes="usage and time_info appear only on the final chunk; the stream may end without [DONE] (notice only).",
)

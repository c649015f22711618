"""Groq's OpenAI-compatible Chat Completions (``groq.chat``).

``https://api.groq.com/openai/v1/chat/completions``. Differences from OpenAI, each with its
source: ``x_groq`` (request id, stream usage), timing fields in ``usage``, ``service_tier``
``on_demand`` (outside OpenAI's literal), ``message.reasoning``, no ``refusal``, tool-call ids
like ``functions.weather:0``. A streamed tool call arrives whole in one delta.
"""

from __future__ import annotations

from strictconformance.drift.shapes._chat_family import ChatDifferences, chat_api
from strictconformance.drift.shapes.model import (
    ANY,
    NUMBER,
    STRING,
    Arr,
    Obj,
    Tagged,
    enum,
    info,
    opt,
    req,
)

__all__ = ["SHAPE"]

GROQ = "response_shapes.md §5 (groq 1.7.0 types/chat/chat_completion.py)"
GROQ_CHUNK = "response_shapes.md §5 Stream (groq 1.7.0 types/chat/chat_completion_chunk.py; FAN groq-kimi-k2 streams)"

_X_GROQ = Obj(
    (
        req("id", STRING, GROQ, note="req_…"),
        info("seed", ANY, GROQ),
        info("usage", ANY, GROQ_CHUNK, note="legacy location of stream usage, still read by the SDK example"),
        info("debug", ANY, GROQ),
        info("error", ANY, "groq e28f277 (2024-05-22)"),
    )
)
_TIMINGS = (
    info("queue_time", NUMBER, "groq a4773b6 (2024-03-01)"),
    info("prompt_time", NUMBER, GROQ),
    info("completion_time", NUMBER, GROQ),
    info("total_time", NUMBER, GROQ),
)
_ANNOTATION = Tagged(
    "type",
    {
        "document_citation": Obj((), report_unknown=False),
        "function_citation": Obj((), report_unknown=False),
    },
)

SHAPE = chat_api(
    api="groq.chat",
    provider="groq",
    title="Groq Chat Completions (OpenAI-compatible)",
    endpoint="POST https://api.groq.com/openai/v1/chat/completions",
    sources=("response_shapes.md §5", "https://console.groq.com/docs/api-reference#chat-create", "groq-python 1.7.0"),
    differences=ChatDifferences(
        top={
            "service_tier": opt("service_tier", enum("auto", "on_demand", "flex", "performance"), GROQ),
        },
        top_extra=(
            opt("x_groq", _X_GROQ, "groq 2f14acf (2025-11-18); sent earlier by the API"),
            info("usage_breakdown", ANY, "groq b735d35 (2025-04-01)"),
            info("mcp_list_tools", ANY, "groq 2f14acf (2025-11-18)"),
        ),
        choice={"finish_reason": req("finish_reason", enum("stop", "length", "tool_calls", "function_call"), GROQ)},
        message={"annotations": opt("annotations", Arr(_ANNOTATION), GROQ)},
        message_extra=(
            opt("reasoning", STRING, "groq 3cee54e (2025-02-03)"),
            info("executed_tools", ANY, "groq b735d35 (2025-04-01)"),
        ),
        usage_extra=_TIMINGS,
        chunk={
            "service_tier": opt("service_tier", enum("auto", "on_demand", "flex", "performance"), GROQ_CHUNK),
        },
        chunk_extra=(opt("x_groq", _X_GROQ, GROQ_CHUNK),),
        delta_extra=(opt("reasoning", STRING, GROQ_CHUNK), info("executed_tools", ANY, GROQ_CHUNK)),
    ),
    notes="Stream usage arrives twice on the finish chunk (x_groq.usage and usage); both are accepted.",
)

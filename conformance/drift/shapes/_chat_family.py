"""The Chat Completions envelope shared by OpenAI and the OpenAI-compatible endpoints.

OpenAI's shape is the base (sources: response_shapes.md §1 and openai-python's
``types/chat/chat_completion.py`` / ``chat_completion_chunk.py``). Groq, Cerebras and Cloudflare
modules call :func:`chat_api` with their differences, each difference with its own source.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from strictconformance.drift.shapes.model import (
    ANY,
    INT,
    OBJECT,
    STRING,
    ApiShape,
    Arr,
    Field,
    Invariant,
    Keyed,
    Obj,
    Relation,
    SplitRule,
    StreamShape,
    Tagged,
    ValueShape,
    enum,
    info,
    opt,
    req,
)

__all__ = ["ChatDifferences", "amend", "chat_api", "openai_chat_shape"]

OAI = "response_shapes.md §1 (openai-python 3.54.0 types/chat/chat_completion.py)"
OAI_CHUNK = "response_shapes.md §1 Stream (openai-python 3.54.0 types/chat/chat_completion_chunk.py)"
OAI_INV = "SPEC.md §5 DR-5; response_shapes.md §1 Invariants"

FINISH_REASONS = ("stop", "length", "tool_calls", "content_filter", "function_call")
SERVICE_TIERS = ("auto", "default", "flex", "scale", "priority", "fast")


def amend(fields: Sequence[Field], replace: Mapping[str, Field | None] | None = None, add: Sequence[Field] = ()) -> tuple[Field, ...]:
    """``fields`` with some replaced (or removed, with None) by name, and others appended."""
    replace = replace or {}
    unknown = set(replace) - {f.name for f in fields}
    if unknown:
        raise ValueError(f"cannot replace fields that do not exist: {sorted(unknown)}")
    kept = [replace.get(f.name, f) for f in fields]
    return (*(f for f in kept if f is not None), *add)


@dataclass(frozen=True)
class ChatDifferences:
    """What an OpenAI-compatible endpoint changes in the Chat Completions shape (by field name)."""

    top: Mapping[str, Field | None] = field(default_factory=dict)
    top_extra: Sequence[Field] = ()
    choice: Mapping[str, Field | None] = field(default_factory=dict)
    choice_extra: Sequence[Field] = ()
    message: Mapping[str, Field | None] = field(default_factory=dict)
    message_extra: Sequence[Field] = ()
    usage_extra: Sequence[Field] = ()
    tool_call: ValueShape | None = None
    chunk: Mapping[str, Field | None] = field(default_factory=dict)
    chunk_extra: Sequence[Field] = ()
    chunk_choice: Mapping[str, Field | None] = field(default_factory=dict)
    chunk_choice_extra: Sequence[Field] = ()
    delta_extra: Sequence[Field] = ()
    #: Extra variants of a stream event besides the ``choices`` chunk (error chunks, trailers).
    chunk_variants: Mapping[str, Obj] = field(default_factory=dict)
    terminator: str | None = "[DONE]"
    #: Whether a split's first half gets ``finish_reason: null`` (OpenAI) or loses the key.
    finish_cleared_with_null: bool = True
    stream_source: str = OAI_CHUNK
    #: Whether the endpoint documents usage.total_tokens as prompt_tokens + completion_tokens.
    usage_total: bool = True


def _usage(extra: Sequence[Field]) -> Obj:
    return Obj(
        (
            req("prompt_tokens", INT, OAI),
            req("completion_tokens", INT, OAI),
            req("total_tokens", INT, OAI),
            opt(
                "prompt_tokens_details",
                Obj(
                    (
                        opt("cached_tokens", INT, OAI),
                        opt("audio_tokens", INT, OAI),
                        opt("cache_write_tokens", INT, "openai-python f16fbbd2 (2026-07-09)"),
                        opt("image_tokens", INT, "openai-python f38355ec (2026-08-14)"),
                        opt("text_tokens", INT, "openai-python f38355ec (2026-08-14)"),
                    )
                ),
                OAI,
            ),
            opt(
                "completion_tokens_details",
                Obj(
                    (
                        opt("reasoning_tokens", INT, "openai-python 2bfec1a2 (2024-09-12)"),
                        opt("audio_tokens", INT, OAI),
                        opt("accepted_prediction_tokens", INT, "OAS 2aa4906 (2024-11-04)"),
                        opt("rejected_prediction_tokens", INT, "OAS 2aa4906 (2024-11-04)"),
                        opt("text_tokens", INT, "openai-python f38355ec (2026-08-14)"),
                    )
                ),
                OAI,
            ),
            *extra,
        )
    )


_FUNCTION_TOOL_CALL = Obj(
    (
        req("id", STRING, OAI, nonempty=True),
        req(
            "function",
            Obj((req("name", STRING, OAI, nonempty=True), req("arguments", STRING, OAI, note="a JSON string, may be invalid JSON"))),
            OAI,
        ),
    )
)
_CUSTOM_TOOL_CALL = Obj(
    (
        req("id", STRING, OAI, nonempty=True),
        req("custom", Obj((req("name", STRING, OAI, nonempty=True), req("input", STRING, OAI))), "openai-python caf837bb (2025-08-07)"),
    )
)
OPENAI_TOOL_CALL = Tagged("type", {"function": _FUNCTION_TOOL_CALL, "custom": _CUSTOM_TOOL_CALL})

_URL_CITATION = Obj(
    (
        req(
            "url_citation",
            Obj(
                (
                    req("url", STRING, OAI),
                    opt("title", STRING, OAI),
                    opt("start_index", INT, OAI),
                    opt("end_index", INT, OAI),
                )
            ),
            "openai-python 2954945e (2025-03-11)",
        ),
    )
)


OAI_USAGE = ("https://platform.openai.com/docs/api-reference/chat/object#chat/object-usage (total_tokens: 'Total number "
             "of tokens used in the request (prompt + completion)'); response_shapes.md §1 Invariants")
OAI_IDS = "https://platform.openai.com/docs/api-reference/chat/object (tool_calls[].id: 'The ID of the tool call'); response_shapes.md §1 Invariants"


def _usage_total(api: str, scope: str, stream: bool) -> Relation:
    return Relation(
        id=f"{api}.{'stream.' if stream else ''}usage_total",
        kind="sum",
        description="usage.total_tokens is prompt_tokens + completion_tokens",
        source=OAI_USAGE,
        scope=scope,
        values="total_tokens",
        parts=("prompt_tokens", "completion_tokens"),
    )


def _known_call_types(tool_call: ValueShape) -> tuple[str, ...]:
    """The tool-call types a chat API documents (its tool-call union's variants)."""
    return tuple(tool_call.variants) if isinstance(tool_call, Tagged) else ("function",)


def _message(d: ChatDifferences) -> Obj:
    base = (
        req("role", enum("assistant"), OAI),
        opt("content", STRING, OAI, note="null with tool calls or a refusal"),
        opt("refusal", STRING, "OAS b372961 (2024-08-06)"),
        opt("annotations", Arr(Tagged("type", {"url_citation": _URL_CITATION})), "openai-python 2954945e (2025-03-11)",
            empty_documented="response_shapes.md §1 (message.annotations: 'Sent as []')"),
        opt("tool_calls", Arr(d.tool_call or OPENAI_TOOL_CALL), "OAS 802d487 (2023-11-06)"),
        opt("function_call", Obj((req("name", STRING, OAI), req("arguments", STRING, OAI))), OAI, note="deprecated"),
        info("audio", OBJECT, OAI),
    )
    return Obj(amend(base, d.message, d.message_extra))


def _delta_tool_call() -> Obj:
    return Obj(
        (
            req("index", INT, OAI_CHUNK, note="REQ: fragments with the same index concatenate"),
            opt("id", STRING, OAI_CHUNK, note="first fragment only"),
            opt("type", enum("function"), OAI_CHUNK, note="first fragment only"),
            opt(
                "function",
                Obj((opt("name", STRING, OAI_CHUNK), opt("arguments", STRING, OAI_CHUNK))),
                OAI_CHUNK,
            ),
        )
    )


def chat_api(
    *, api: str, provider: str, title: str, endpoint: str, sources: tuple[str, ...], differences: ChatDifferences, notes: str = ""
) -> ApiShape:
    """The Chat Completions shape with ``differences`` applied."""
    d = differences
    usage = _usage(d.usage_extra)
    choice = Obj(
        amend(
            (
                req("index", INT, OAI),
                req("finish_reason", enum(*FINISH_REASONS), OAI),
                info("logprobs", ANY, OAI),
                req("message", _message(d), OAI),
            ),
            d.choice,
            d.choice_extra,
        )
    )
    response = Obj(
        amend(
            (
                req("id", STRING, OAI, nonempty=True),
                req("object", enum("chat.completion"), OAI),
                req("created", INT, OAI),
                req("model", STRING, OAI),
                req("choices", Arr(choice), OAI, nonempty=True, note="an SDK reads choices[0]"),
                opt("usage", usage, OAI),
                opt("service_tier", enum(*SERVICE_TIERS), "openai-python 6c8fcd54 (2024-06-18)"),
                opt("system_fingerprint", STRING, OAI, note="null for gpt-5 and o-series"),
                info("metadata", ANY, OAI),
                info("moderation", ANY, "openai-python 87e46c25 (2026-06-03)"),
            ),
            d.top,
            d.top_extra,
        )
    )
    delta = Obj(
        (
            opt("role", enum("assistant", "developer", "system", "user", "tool"), OAI_CHUNK),
            opt("content", STRING, OAI_CHUNK),
            opt("refusal", STRING, OAI_CHUNK),
            opt("tool_calls", Arr(_delta_tool_call()), OAI_CHUNK),
            opt("function_call", Obj((opt("name", STRING, OAI_CHUNK), opt("arguments", STRING, OAI_CHUNK))), OAI_CHUNK),
            *d.delta_extra,
        )
    )
    chunk_choice = Obj(
        amend(
            (
                req("index", INT, OAI_CHUNK),
                req("delta", delta, OAI_CHUNK),
                opt("finish_reason", enum(*FINISH_REASONS), OAI_CHUNK, note="null (or absent) until the last chunk"),
                info("logprobs", ANY, OAI_CHUNK),
            ),
            d.chunk_choice,
            d.chunk_choice_extra,
        )
    )
    chunk = Obj(
        amend(
            (
                req("id", STRING, OAI_CHUNK, nonempty=True),
                req("object", enum("chat.completion.chunk"), OAI_CHUNK),
                req("created", INT, OAI_CHUNK),
                req("model", STRING, OAI_CHUNK),
                req("choices", Arr(chunk_choice), OAI_CHUNK, note="[] on the include_usage chunk"),
                opt("usage", usage, OAI_CHUNK),
                opt("service_tier", enum(*SERVICE_TIERS), OAI_CHUNK),
                opt("system_fingerprint", STRING, OAI_CHUNK),
                info("obfuscation", STRING, "FAN commit 1aab862 (2025-09); openai-python c7d8e1d2 (2026-08-19)"),
            ),
            d.chunk,
            d.chunk_extra,
        )
    )
    error_chunk = Obj(
        (req("error", Obj((opt("message", STRING, OAI_CHUNK), info("type", ANY, OAI_CHUNK), info("code", ANY, OAI_CHUNK)), report_unknown=False), OAI_CHUNK),),
    )
    event = Keyed({"choices": chunk, "error": error_chunk, **d.chunk_variants}, closed=True)
    tool_call_path = "choices[0].delta.tool_calls[0]"
    stream = StreamShape(
        event=event,
        source=d.stream_source,
        framing="data",
        terminator=d.terminator,
        # tool-call ids are not related in streams: only the first fragment of a call carries its id,
        # and some endpoints repeat it on every fragment (the same call, not a second one)
        relations=(_usage_total(api, "events[*].data.usage", True),) if d.usage_total else (),
        invariants=(
            Invariant(
                id=f"{api}.stream.finish_reason_tool_calls",
                description="a chunk with finish_reason 'tool_calls' needs at least one delta.tool_calls fragment in the stream",
                source=OAI_INV,
                when="events[*].data.choices[*].finish_reason",
                equals="tool_calls",
                requires="events[*].data.choices[*].delta.tool_calls[*]",
            ),
        ),
        splits=(
            SplitRule(
                text="choices[0].delta.content",
                head_clears=("choices[0].finish_reason", "usage"),
                clear_with_null=d.finish_cleared_with_null,
                tail_drops=("choices[0].delta.role",),
                same_item=("choices[0].index",),
            ),
            SplitRule(
                text=f"{tool_call_path}.function.arguments",
                head_clears=("choices[0].finish_reason", "usage"),
                clear_with_null=d.finish_cleared_with_null,
                tail_drops=(f"{tool_call_path}.id", f"{tool_call_path}.type", f"{tool_call_path}.function.name", "choices[0].delta.role"),
                same_item=("choices[0].index", f"{tool_call_path}.index"),
            ),
        ),
    )
    return ApiShape(
        api=api,
        provider=provider,
        title=title,
        endpoint=endpoint,
        response=response,
        stream=stream,
        sources=sources,
        relations=(
            Relation(
                id=f"{api}.unique_tool_call_ids",
                kind="unique",
                description="each tool call of a message has its own id (the tool's answer is matched to it)",
                source=OAI_IDS,
                scope="choices[*]",
                values="message.tool_calls[*].id",
            ),
            *((_usage_total(api, "usage", False),) if d.usage_total else ()),
        ),
        invariants=(
            Invariant(
                id=f"{api}.finish_reason_tool_calls",
                description=("finish_reason 'tool_calls' needs a tool call of a known type in message.tool_calls "
                             "(the converse does not hold): a call of a renamed type is no call an SDK can run"),
                source=OAI_INV,
                scope="choices[*]",
                when="finish_reason",
                equals="tool_calls",
                requires="message.tool_calls[*].type",
                variant=_known_call_types(d.tool_call or OPENAI_TOOL_CALL),
            ),
        ),
        notes=notes,
    )


def openai_chat_shape() -> ApiShape:
    return chat_api(
        api="openai.chat",
        provider="openai",
        title="OpenAI Chat Completions",
        endpoint="POST https://api.openai.com/v1/chat/completions",
        sources=(
            "response_shapes.md §1",
            "https://platform.openai.com/docs/api-reference/chat/object",
            "openai-python 3.54.0 src/openai/types/chat/",
        ),
        differences=ChatDifferences(),
        notes=(
            "Non-empty tool_calls with finish_reason 'stop' is valid (forced tool_choice; vllm PR #25054). "
            "Reasoning models omit choices[].logprobs; gpt-4o sends null."
        ),
    )


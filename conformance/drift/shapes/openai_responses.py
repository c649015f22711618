"""OpenAI Responses (``openai.responses``): ``POST /v1/responses`` and its named-event stream.

``output[]`` is discriminated by ``type`` (28 known item types); the common items (message,
reasoning, function_call) carry the fields SDKs read, the rest are modelled loosely. ``output_text``
is an SDK convenience property, not a wire field. Stream events repeat their type in ``event:``
and count up ``sequence_number``.

``usage.input_tokens_details.cache_write_tokens`` became required in openai-python 2.45.0
(2026-07-09) while bodies recorded up to 2026-06 lack it (response_shapes.md §8 drift #1): here
it is optional, because those bodies are real.
"""

from __future__ import annotations

from strictconformance.drift.shapes.model import (
    ANY,
    ARRAY,
    BOOL,
    INT,
    NUMBER,
    OBJECT,
    STRING,
    ApiShape,
    Arr,
    Invariant,
    Obj,
    Relation,
    SplitRule,
    StreamShape,
    Tagged,
    Value,
    enum,
    info,
    opt,
    req,
)

__all__ = ["SHAPE"]

SDK = "response_shapes.md §2 (openai-python 3.54.0 types/responses/response.py)"
ITEMS = "response_shapes.md §2 (openai-python 3.54.0 types/responses/response_output_item.py)"
STREAM = "response_shapes.md §2 Stream (openai-python types/responses/response_stream_event.py)"

_ANNOTATION = Tagged(
    "type",
    {
        "url_citation": Obj((info("url", STRING, ITEMS), info("title", STRING, ITEMS), info("start_index", INT, ITEMS), info("end_index", INT, ITEMS))),
        "file_citation": Obj((info("file_id", STRING, ITEMS), info("filename", STRING, ITEMS), info("index", INT, ITEMS))),
        "container_file_citation": Obj((), report_unknown=False),
        "file_path": Obj((info("file_id", STRING, ITEMS), info("index", INT, ITEMS))),
    },
)

CONTENT_PART = Tagged(
    "type",
    {
        "output_text": Obj(
            (
                req("text", STRING, ITEMS),
                opt("annotations", Arr(_ANNOTATION), ITEMS, note="REQ in the SDK, usually []"),
                info("logprobs", ANY, "openai-python 1.83.0 (2025-06-02)"),
            )
        ),
        "refusal": Obj((req("refusal", STRING, ITEMS),)),
        "reasoning_text": Obj((req("text", STRING, "openai-python 2026d533 (2025-08-05)"),)),
    },
)

_SUMMARY = Tagged("type", {"summary_text": Obj((req("text", STRING, ITEMS),))})
_REASONING_CONTENT = Tagged("type", {"reasoning_text": Obj((req("text", STRING, "openai-python 2026d533 (2025-08-05)"),))})

_STATUS = enum("in_progress", "completed", "incomplete", "searching", "failed", "interpreting", "generating")


def _loose(*names: str) -> Obj:
    """An item modelled only by name: its documented keys are known, none is required."""
    return Obj(tuple(info(name, ANY, ITEMS) for name in names), report_unknown=False)


OUTPUT_ITEM = Tagged(
    "type",
    {
        "message": Obj(
            (
                req("id", STRING, ITEMS, nonempty=True, note="msg_…"),
                req("role", enum("assistant"), ITEMS),
                opt("status", _STATUS, ITEMS),
                req("content", Arr(CONTENT_PART), ITEMS),
                info("phase", STRING, "openai-python 656e3cab (2026-02-24)"),
            )
        ),
        "reasoning": Obj(
            (
                req("id", STRING, ITEMS, nonempty=True, note="rs_…"),
                req("summary", Arr(_SUMMARY), ITEMS, empty_documented="response_shapes.md §2 Output items (reasoning): 'Real gpt-5 bodies send content: [] and summary: []'"),
                opt("content", Arr(_REASONING_CONTENT), "openai-python 2026d533 (2025-08-05)"),
                opt("encrypted_content", STRING, "openai-python b8a3720e (2025-05-02)"),
                opt("status", _STATUS, ITEMS),
            )
        ),
        "function_call": Obj(
            (
                req("arguments", STRING, ITEMS, note="a JSON string; \"\" in output_item.added"),
                req("call_id", STRING, ITEMS, nonempty=True, note="call_…: the id used to return output"),
                req("name", STRING, ITEMS, nonempty=True),
                opt("id", STRING, ITEMS, nullable=False, note="fc_…"),
                opt("status", _STATUS, ITEMS),
                info("namespace", STRING, ITEMS),
                info("caller", ANY, ITEMS),
            )
        ),
        "custom_tool_call": Obj(
            (
                req("call_id", STRING, ITEMS, nonempty=True),
                req("input", STRING, ITEMS),
                req("name", STRING, ITEMS, nonempty=True),
                opt("id", STRING, ITEMS, nullable=False),
                info("status", STRING, ITEMS),
            )
        ),
        "function_call_output": _loose("id", "call_id", "output", "status"),
        "custom_tool_call_output": _loose("id", "call_id", "output", "status"),
        "file_search_call": _loose("id", "queries", "status", "results"),
        "web_search_call": _loose("id", "status", "action"),
        "computer_call": _loose("id", "call_id", "action", "pending_safety_checks", "status"),
        "computer_call_output": _loose("id", "call_id", "output", "status"),
        "code_interpreter_call": _loose("id", "code", "container_id", "outputs", "status"),
        "image_generation_call": _loose("id", "result", "status"),
        "local_shell_call": _loose("id", "action", "call_id", "status"),
        "local_shell_call_output": _loose("id", "output", "status"),
        "shell_call": _loose("id", "action", "call_id", "status"),
        "shell_call_output": _loose("id", "output", "call_id", "status"),
        "apply_patch_call": _loose("id", "call_id", "operation", "status"),
        "apply_patch_call_output": _loose("id", "call_id", "output", "status"),
        "mcp_call": _loose("id", "arguments", "name", "server_label", "output", "error", "status"),
        "mcp_list_tools": _loose("id", "server_label", "tools", "error"),
        "mcp_approval_request": _loose("id", "arguments", "name", "server_label"),
        "mcp_approval_response": _loose("id", "approval_request_id", "approve", "reason"),
        "program": _loose("id"),
        "program_output": _loose("id"),
        "tool_search_call": _loose("id"),
        "tool_search_output": _loose("id"),
        "additional_tools": _loose("id"),
        "compaction": _loose("id"),
    },
)

USAGE = Obj(
    (
        req("input_tokens", INT, SDK),
        req("output_tokens", INT, SDK),
        req("total_tokens", INT, SDK),
        req(
            "input_tokens_details",
            Obj(
                (
                    req("cached_tokens", INT, "openai-python bff8da95 (2025-03-18)"),
                    opt(
                        "cache_write_tokens",
                        INT,
                        "openai-python f16fbbd2 (2026-07-09)",
                        note="REQ in the SDK since 2.45.0, absent from real bodies up to 2026-06",
                    ),
                )
            ),
            "openai-python bff8da95 (2025-03-18)",
        ),
        req("output_tokens_details", Obj((req("reasoning_tokens", INT, SDK),)), SDK),
    )
)

RESPONSE = Obj(
    (
        req("id", STRING, SDK, nonempty=True, note="resp_…"),
        req("object", enum("response"), SDK),
        req("created_at", NUMBER, SDK),
        opt("status", enum("completed", "failed", "in_progress", "cancelled", "queued", "incomplete"), SDK),
        opt("completed_at", NUMBER, "openai-python 5da8c5f3 (2026-01-09)"),
        req("model", STRING, SDK),
        req("output", Arr(OUTPUT_ITEM), SDK, note="[] while in progress"),
        opt("error", Obj((opt("code", STRING, SDK), opt("message", STRING, SDK))), SDK),
        opt(
            "incomplete_details",
            Obj((opt("reason", enum("max_output_tokens", "max_messages", "content_filter", "steered"), SDK),)),
            SDK,
        ),
        opt("usage", USAGE, SDK, note="null while in progress"),
        info("parallel_tool_calls", BOOL, SDK),
        info("tool_choice", Value(("string", "object")), SDK),
        info("tools", ARRAY, SDK),
        info("reasoning", OBJECT, SDK),
        info("text", OBJECT, "openai-python f4e41b87 (2025-08-08)"),
        info("instructions", ANY, SDK),
        info("max_output_tokens", INT, SDK),
        info("max_tool_calls", INT, SDK),
        info("previous_response_id", STRING, SDK),
        info("prompt_cache_key", STRING, SDK),
        info("prompt_cache_retention", STRING, "openai-python ac534dcd (2025-11-13)"),
        info("safety_identifier", STRING, SDK),
        info("service_tier", STRING, SDK),
        info("store", BOOL, SDK),
        info("temperature", NUMBER, SDK),
        info("top_p", NUMBER, SDK),
        info("top_logprobs", INT, SDK),
        info("truncation", STRING, SDK),
        info("background", BOOL, SDK),
        info("user", STRING, SDK),
        info("metadata", OBJECT, SDK),
        info("billing", OBJECT, "response_shapes.md §0.3 (in real bodies, not in SDK types)"),
        info("frequency_penalty", NUMBER, "response_shapes.md §0.3"),
        info("presence_penalty", NUMBER, "response_shapes.md §0.3"),
        info("moderation", ANY, "openai-python 87e46c25 (2026-06-03)"),
        info("conversation", ANY, SDK),
        info("prompt", ANY, SDK),
    )
)

_ITEM_REF = (req("item_id", STRING, STREAM, nonempty=True), req("output_index", INT, STREAM))
_PART_REF = (*_ITEM_REF, req("content_index", INT, STREAM))
_SUMMARY_REF = (*_ITEM_REF, req("summary_index", INT, STREAM))

_KNOWN_LOOSE_EVENTS = (
    "response.audio.delta",
    "response.audio.done",
    "response.audio.transcript.delta",
    "response.audio.transcript.done",
    "response.code_interpreter_call_code.delta",
    "response.code_interpreter_call_code.done",
    "response.code_interpreter_call.completed",
    "response.code_interpreter_call.in_progress",
    "response.code_interpreter_call.interpreting",
    "response.file_search_call.completed",
    "response.file_search_call.in_progress",
    "response.file_search_call.searching",
    "response.web_search_call.completed",
    "response.web_search_call.in_progress",
    "response.web_search_call.searching",
    "response.image_generation_call.completed",
    "response.image_generation_call.generating",
    "response.image_generation_call.in_progress",
    "response.image_generation_call.partial_image",
    "response.mcp_call_arguments.delta",
    "response.mcp_call_arguments.done",
    "response.mcp_call.completed",
    "response.mcp_call.failed",
    "response.mcp_call.in_progress",
    "response.mcp_list_tools.completed",
    "response.mcp_list_tools.failed",
    "response.mcp_list_tools.in_progress",
    "response.output_text.annotation.added",
    "response.custom_tool_call_input.delta",
    "response.custom_tool_call_input.done",
)

_SEQUENCE = req("sequence_number", INT, STREAM, note="REQ on every event type of openai-python; counts up from 0 (the increasing relation)")
_USAGE_DOC = ("https://platform.openai.com/docs/api-reference/responses/object#responses/object-usage "
              "(total_tokens: 'The total number of tokens used'; input_tokens + output_tokens); response_shapes.md §2 Invariants")
_IDS_DOC = ("https://platform.openai.com/docs/guides/function-calling (call_id: 'the id used to return the function "
            "call output', one per call); response_shapes.md §2")


def _relations(scope: str) -> tuple[Relation, ...]:
    inside = f"{scope}." if scope else ""
    return (
        Relation(
            id=f"openai.responses.{'stream.' if scope else ''}unique_call_ids",
            kind="unique",
            description="each tool call of a response has its own call_id (its output is matched to it)",
            source=_IDS_DOC,
            scope=scope,
            values="output[*].call_id",
        ),
        Relation(
            id=f"openai.responses.{'stream.' if scope else ''}usage_total",
            kind="sum",
            description="usage.total_tokens is input_tokens + output_tokens",
            source=_USAGE_DOC,
            scope=f"{inside}usage",
            values="total_tokens",
            parts=("input_tokens", "output_tokens"),
        ),
    )

EVENT = Tagged(
    "type",
    {
        **{name: Obj((req("response", RESPONSE, STREAM),)) for name in (
            "response.created",
            "response.in_progress",
            "response.completed",
            "response.failed",
            "response.incomplete",
            "response.queued",
        )},
        "response.output_item.added": Obj((req("output_index", INT, STREAM), req("item", OUTPUT_ITEM, STREAM))),
        "response.output_item.done": Obj((req("output_index", INT, STREAM), req("item", OUTPUT_ITEM, STREAM))),
        "response.content_part.added": Obj((*_PART_REF, req("part", CONTENT_PART, STREAM))),
        "response.content_part.done": Obj((*_PART_REF, req("part", CONTENT_PART, STREAM))),
        "response.output_text.delta": Obj((*_PART_REF, req("delta", STRING, STREAM), info("logprobs", ANY, STREAM), info("obfuscation", STRING, STREAM))),
        "response.output_text.done": Obj((*_PART_REF, req("text", STRING, STREAM), info("logprobs", ANY, STREAM))),
        "response.refusal.delta": Obj((*_PART_REF, req("delta", STRING, STREAM))),
        "response.refusal.done": Obj((*_PART_REF, req("refusal", STRING, STREAM))),
        "response.function_call_arguments.delta": Obj((*_ITEM_REF, req("delta", STRING, STREAM), info("obfuscation", STRING, STREAM))),
        "response.function_call_arguments.done": Obj((*_ITEM_REF, req("arguments", STRING, STREAM), info("name", STRING, STREAM))),
        "response.reasoning_summary_part.added": Obj((*_SUMMARY_REF, req("part", OBJECT, STREAM))),
        "response.reasoning_summary_part.done": Obj((*_SUMMARY_REF, req("part", OBJECT, STREAM))),
        "response.reasoning_summary_text.delta": Obj((*_SUMMARY_REF, req("delta", STRING, STREAM), info("obfuscation", STRING, STREAM))),
        "response.reasoning_summary_text.done": Obj((*_SUMMARY_REF, req("text", STRING, STREAM))),
        "response.reasoning_text.delta": Obj((*_PART_REF, req("delta", STRING, STREAM), info("obfuscation", STRING, STREAM))),
        "response.reasoning_text.done": Obj((*_PART_REF, req("text", STRING, STREAM))),
        "error": Obj((opt("code", STRING, STREAM), req("message", STRING, STREAM), info("param", ANY, STREAM))),
        **{name: Obj((), report_unknown=False) for name in _KNOWN_LOOSE_EVENTS},
    },
    common=(_SEQUENCE,),
)

_SPLIT_REF = ("item_id", "output_index")

SHAPE = ApiShape(
    api="openai.responses",
    provider="openai",
    title="OpenAI Responses",
    endpoint="POST https://api.openai.com/v1/responses",
    response=RESPONSE,
    stream=StreamShape(
        event=EVENT,
        source=STREAM,
        framing="named",
        final_events=("response.completed", "response.failed", "response.incomplete", "error"),
        relations=(
            *_relations("events[*].data.response"),
            Relation(
                id="openai.responses.stream.sequence_number_increasing",
                kind="increasing",
                description="events count up: each event's sequence_number is above the one before",
                source=("https://platform.openai.com/docs/api-reference/responses-streaming (every event: "
                        "'sequence_number: The sequence number of this event'); response_shapes.md §2 Stream"),
                values="events[*].data.sequence_number",
            ),
        ),
        invariants=(
            Invariant(
                id="openai.responses.stream.response_created",
                description=("a stream opens with response.created, the response's id and status: a stream whose "
                             "only start event is renamed or gone has no response to build"),
                source=STREAM,
                requires="events[*].data.type",
                variant="response.created",
            ),
        ),
        splits=(
            SplitRule(text="delta", variant="response.output_text.delta", renumber="sequence_number", same_item=(*_SPLIT_REF, "content_index")),
            SplitRule(text="delta", variant="response.function_call_arguments.delta", renumber="sequence_number", same_item=_SPLIT_REF),
            SplitRule(text="delta", variant="response.reasoning_summary_text.delta", renumber="sequence_number", same_item=(*_SPLIT_REF, "summary_index")),
        ),
    ),
    sources=(
        "response_shapes.md §2",
        "https://platform.openai.com/docs/api-reference/responses/object",
        "https://platform.openai.com/docs/api-reference/responses-streaming",
        "openai-python 3.54.0 src/openai/types/responses/",
    ),
    relations=_relations(""),
    notes=("Relations (DR-5): call_ids unique, usage.total_tokens = input_tokens + output_tokens, stream "
           "sequence_number increasing; status/usage consistency is not checked."),
)

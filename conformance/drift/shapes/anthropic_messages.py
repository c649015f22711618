"""Anthropic Messages (``anthropic.messages``): ``POST /v1/messages`` and its named-event stream.

``content[]`` is discriminated by ``type``; every GA and beta block type is known, with the
fields SDKs read. ``stop_reason`` is null only in the stream's ``message_start``, so a response
body without a string there is drift (the SDK's type is Optional for the stream's sake). The stream has
no ``[DONE]``: it ends with ``message_stop``; ``ping`` events may appear anywhere and ``data:``
JSON may be padded with spaces.
"""

from __future__ import annotations

from strictconformance.drift.shapes.model import (
    ANY,
    BOOL,
    INT,
    OBJECT,
    STRING,
    ApiShape,
    Arr,
    Field,
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

SDK = "response_shapes.md §3 (anthropic 2.12.0 types/message.py, types/content_block.py)"
STREAM = "response_shapes.md §3 Stream (anthropic 2.12.0 types/raw_message_stream_event.py)"
SERVER_TOOLS = "anthropic-sdk-python 2da00f26 (2025-05-07): server tools"
GA_2026 = "anthropic-sdk-python 4de03c2d (2026-02-17): code execution, web fetch, tool search blocks GA"
INVARIANT = "SPEC.md §5 DR-5; response_shapes.md §3 Invariants"
IDS = ("https://docs.anthropic.com/en/docs/build-with-claude/tool-use/implement-tool-use (tool_result.tool_use_id: "
       "'The id of the tool use request this is a result for'); response_shapes.md §3 Invariants ('tool_use.id is unique')")

STOP_REASONS = (
    "end_turn",
    "max_tokens",
    "stop_sequence",
    "tool_use",
    "pause_turn",
    "refusal",
    "model_context_window_exceeded",
    "compaction",
)


#: Where a server tool's result block may carry a list: only web search's (a list of
#: web_search_result blocks, or an error object). Every other result is one object (its result
#: block or an error object): anthropic 2.13.0 types/web_fetch_tool_result_block.py,
#: code_execution_tool_result_block_content.py, bash_code_execution_tool_result_block.py,
#: text_editor_code_execution_tool_result_block.py, tool_search_tool_result_block.py (``content:
#: Union[<Error>, <Result>]``), web_search_tool_result_block_content.py (``Union[<Error>,
#: List[WebSearchResultBlock]]``). A list where an object is documented is a retyped field: the
#: generated responses that must pass (DR-1, DR-4's unmutated ones) never carry one.
RESULT_TYPES = ("object",)
WEB_SEARCH_RESULT_TYPES = ("array", "object")


def _tool_result(source: str, types: tuple[str, ...] = RESULT_TYPES) -> Obj:
    # the result payload varies per tool (its result block or an error object); SDKs pass it through
    return Obj((req("tool_use_id", STRING, source, nonempty=True), req("content", Value(types), source)))


_CITATION = Tagged(
    "type",
    {
        name: Obj((info("cited_text", STRING, SDK),), report_unknown=False)
        for name in (
            "char_location",
            "page_location",
            "content_block_location",
            "web_search_result_location",
            "search_result_location",
        )
    },
)

CONTENT_BLOCK = Tagged(
    "type",
    {
        "text": Obj((req("text", STRING, SDK), opt("citations", Arr(_CITATION), SDK))),
        "thinking": Obj(
            (
                req("thinking", STRING, "anthropic-sdk-python b363339f (2025-02-24)"),
                req("signature", STRING, "anthropic-sdk-python b363339f", note='"" at content_block_start'),
            )
        ),
        "redacted_thinking": Obj((req("data", STRING, "anthropic-sdk-python b363339f"),)),
        "tool_use": Obj(
            (
                req("id", STRING, SDK, nonempty=True, note="toolu_…"),
                req("name", STRING, SDK, nonempty=True),
                req("input", OBJECT, SDK, note="always an object, never a string",
                    empty_documented="response_shapes.md §3 Stream (content_block_start carries input: {}; a tool without parameters gets {})"),
                opt("caller", Obj((req("type", STRING, GA_2026), info("tool_id", STRING, GA_2026))), GA_2026),
            )
        ),
        "server_tool_use": Obj(
            (
                req("id", STRING, SERVER_TOOLS, nonempty=True, note="srvtoolu_…"),
                req("name", STRING, SERVER_TOOLS, nonempty=True),
                req("input", OBJECT, SERVER_TOOLS),
                opt("caller", OBJECT, GA_2026),
            )
        ),
        "web_search_tool_result": _tool_result(SERVER_TOOLS, WEB_SEARCH_RESULT_TYPES),
        "web_fetch_tool_result": _tool_result(GA_2026),
        "code_execution_tool_result": _tool_result(GA_2026),
        "bash_code_execution_tool_result": _tool_result(GA_2026),
        "text_editor_code_execution_tool_result": _tool_result(GA_2026),
        "tool_search_tool_result": _tool_result(GA_2026),
        "container_upload": Obj((req("file_id", STRING, GA_2026),)),
        # beta namespace (response_shapes.md §3)
        "mcp_tool_use": Obj(
            (
                req("id", STRING, SDK, nonempty=True),
                req("name", STRING, SDK, nonempty=True),
                info("server_name", STRING, SDK),
                req("input", OBJECT, SDK),
            )
        ),
        "mcp_tool_result": Obj((req("tool_use_id", STRING, SDK), info("is_error", BOOL, SDK), info("content", ANY, SDK))),
        "compaction": Obj((), report_unknown=False),
        "advisor_tool_result": Obj((), report_unknown=False),
        "fallback": Obj((), report_unknown=False),
        "mcp_tool_listing": Obj((), report_unknown=False),
    },
)

USAGE = Obj(
    (
        req("input_tokens", INT, SDK, note="excludes cached tokens"),
        req("output_tokens", INT, SDK),
        opt("cache_creation_input_tokens", INT, "anthropic-sdk-python 4e0b15e2 (2024-12-17)"),
        opt("cache_read_input_tokens", INT, "anthropic-sdk-python 4e0b15e2 (2024-12-17)"),
        opt(
            "cache_creation",
            Obj(
                (
                    req("ephemeral_5m_input_tokens", INT, "anthropic-sdk-python 2411906a (2025-08-13)"),
                    req("ephemeral_1h_input_tokens", INT, "anthropic-sdk-python 2411906a (2025-08-13)"),
                )
            ),
            "anthropic-sdk-python 2411906a (2025-08-13)",
        ),
        opt(
            "server_tool_use",
            Obj((opt("web_search_requests", INT, SERVER_TOOLS), opt("web_fetch_requests", INT, GA_2026))),
            SERVER_TOOLS,
        ),
        opt("service_tier", enum("standard", "priority", "batch"), "anthropic-sdk-python 68d82262 (2025-05-22)"),
        opt("inference_geo", STRING, "anthropic-sdk-python a4a29cab (2026-02-05)"),
        opt("output_tokens_details", Obj((opt("thinking_tokens", INT, "anthropic-sdk-python 2b826760"),)), "anthropic-sdk-python 2b826760 (2026-05-28)"),
    )
)

_STOP_DETAILS = Obj(
    (req("type", STRING, "anthropic-sdk-python a304cccf (2026-04-01)"), info("category", STRING, SDK), info("explanation", STRING, SDK))
)
_CONTAINER = Obj((req("id", STRING, GA_2026), info("expires_at", STRING, GA_2026), info("skills", ANY, GA_2026)))

def _message(stop_reason: Field) -> Obj:
    return Obj(
        (
            req("id", STRING, SDK, nonempty=True, note="msg_…"),
            req("type", enum("message"), SDK),
            req("role", enum("assistant"), SDK),
            req("model", STRING, SDK),
            req("content", Arr(CONTENT_BLOCK), SDK, note="[] in message_start",
                empty_documented=("https://platform.claude.com/docs/en/build-with-claude/handling-stop-reasons: 'Sometimes "
                                  "Claude returns an empty response (exactly 2-3 tokens with no content) with stop_reason: end_turn'")),
            stop_reason,
            opt("stop_sequence", STRING, SDK),
            opt("stop_details", _STOP_DETAILS, "anthropic-sdk-python a304cccf (2026-04-01)"),
            opt("container", _CONTAINER, GA_2026),
            req("usage", USAGE, SDK),
        )
    )


#: A response body: it has finished, so it says why (the SDK type is Optional because the
#: stream's message_start shares it).
MESSAGE = _message(req("stop_reason", enum(*STOP_REASONS), SDK, note="null only in the stream's message_start, so never null here"))
#: The message of the stream's ``message_start``: nothing has finished yet.
MESSAGE_START = _message(opt("stop_reason", enum(*STOP_REASONS), STREAM, note="null in message_start; message_delta carries it"))

_DELTA = Tagged(
    "type",
    {
        "text_delta": Obj((req("text", STRING, STREAM),)),
        # an empty piece is documented ('the first one is often ""'), but emptying one that holds
        # JSON changes the tool's input: not an additive change, so not declared empty_documented
        "input_json_delta": Obj((req("partial_json", STRING, STREAM, note='the first one is often ""'),)),
        "thinking_delta": Obj((req("thinking", STRING, STREAM),)),
        "signature_delta": Obj((req("signature", STRING, STREAM),)),
        "citations_delta": Obj((req("citation", OBJECT, STREAM),)),
    },
)

_MESSAGE_DELTA_USAGE = Obj(
    (
        req("output_tokens", INT, STREAM, note="cumulative"),
        opt("input_tokens", INT, STREAM),
        opt("cache_creation_input_tokens", INT, STREAM),
        opt("cache_read_input_tokens", INT, STREAM),
        opt("server_tool_use", USAGE.by_name["server_tool_use"].shape, STREAM),
        info("cache_creation", ANY, STREAM),
        info("service_tier", STRING, STREAM),
        info("inference_geo", STRING, STREAM),
        info("output_tokens_details", ANY, STREAM),
    )
)

EVENT = Tagged(
    "type",
    {
        "message_start": Obj((req("message", MESSAGE_START, STREAM),)),
        "content_block_start": Obj((req("index", INT, STREAM), req("content_block", CONTENT_BLOCK, STREAM))),
        "content_block_delta": Obj((req("index", INT, STREAM), req("delta", _DELTA, STREAM))),
        "content_block_stop": Obj((req("index", INT, STREAM),)),
        "message_delta": Obj(
            (
                req(
                    "delta",
                    Obj(
                        (
                            opt("stop_reason", enum(*STOP_REASONS), STREAM),
                            opt("stop_sequence", STRING, STREAM),
                            opt("stop_details", _STOP_DETAILS, STREAM),
                            opt("container", _CONTAINER, STREAM),
                        )
                    ),
                    STREAM,
                ),
                req("usage", _MESSAGE_DELTA_USAGE, STREAM),
            )
        ),
        "message_stop": Obj(()),
        "ping": Obj(()),
        "error": Obj((req("error", Obj((req("type", STRING, STREAM), opt("message", STRING, STREAM))), STREAM),)),
    },
)

SHAPE = ApiShape(
    api="anthropic.messages",
    provider="anthropic",
    title="Anthropic Messages",
    endpoint="POST https://api.anthropic.com/v1/messages",
    response=MESSAGE,
    stream=StreamShape(
        event=EVENT,
        source=STREAM,
        framing="named",
        final_events=("message_stop",),
        invariants=(
            Invariant(
                id="anthropic.messages.stream.message_start",
                description=("a stream opens with message_start, which carries the message's id, model and input "
                             "usage: a stream whose only start event is renamed or gone has no message to build"),
                source=STREAM,
                requires="events[*].data.type",
                variant="message_start",
            ),
            Invariant(
                id="anthropic.messages.stream.stop_reason_tool_use",
                description="message_delta stop_reason 'tool_use' needs a content_block_start with a tool_use block",
                source=INVARIANT,
                when="events[*].data.delta.stop_reason",
                equals="tool_use",
                requires="events[*].data.content_block.type",
                variant="tool_use",
            ),
        ),
        relations=(
            Relation(id="anthropic.messages.stream.unique_tool_use_ids", kind="unique",
                     description="each tool_use (and server tool use) block of a message has its own id",
                     source=IDS, values="events[*].data.content_block.id"),
        ),
        splits=(
            SplitRule(text="delta.text", variant="content_block_delta", same_item=("index", "delta.type")),
            SplitRule(text="delta.partial_json", variant="content_block_delta", same_item=("index", "delta.type")),
            SplitRule(text="delta.thinking", variant="content_block_delta", same_item=("index", "delta.type")),
        ),
    ),
    sources=(
        "response_shapes.md §3",
        "https://docs.anthropic.com/en/api/messages",
        "https://docs.anthropic.com/en/docs/build-with-claude/streaming",
        "anthropic-sdk-python 2.12.0 src/anthropic/types/",
    ),
    invariants=(
        Invariant(
            id="anthropic.messages.stop_reason_tool_use",
            description="stop_reason 'tool_use' needs at least one tool_use block (the converse is weaker)",
            source=INVARIANT,
            when="stop_reason",
            equals="tool_use",
            requires="content[*].type",
            variant="tool_use",
        ),
    ),
    relations=(
        Relation(id="anthropic.messages.unique_tool_use_ids", kind="unique",
                 description="each tool_use (and server tool use) block of a message has its own id",
                 source=IDS, values="content[*].id"),
    ),
    notes=("Server tools finish with end_turn or pause_turn, never tool_use; a tool_use block with max_tokens is valid. "
           "No usage total: the Messages API reports input_tokens and output_tokens (and cache counts) and no total "
           "to check them against."),
)


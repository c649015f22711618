"""Drift adapters that report what they parsed (DR-7, parse fidelity), each with one reading bug
real SDKs have had. Each is the reference validator (``broken_drift.ReferenceLike``) returning the
kit's reading of the response with one fault:

* :class:`ReadsItemIdAsCallId` gives a Responses function call the item's ``id`` (``fc_...``)
  instead of its ``call_id`` (``call_...``), the id a tool result must answer: DR-7 fails on every
  recorded Responses function call.
* :class:`TextifiesUnknownBlocks` turns an Anthropic content block of a type it does not know into
  text (its JSON), so the user reads a new block type as the model's words: DR-7 fails on the
  explicit unknown-block case and on additive changes.
* :class:`DropsLaterToolCalls` keeps only a response's first tool call.
* :class:`ReturnsNothing` declares ``parse_fidelity`` and returns nothing: DR-7 fails.
* :class:`ParsesFaithfully` is the reference reading: every DR rule passes.
* :class:`CutStreamUnmarked` accepts a stream cut before its terminal event and returns a reading
  with no stop reason and no mark: DR-9 fails. :class:`CutStreamMarkedIncomplete` (marks it) and
  :class:`CutStreamRaisesApiError` (raises its documented API error) pass every rule.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Sequence
from typing import Any

from broken_drift import ReferenceLike
from strictconformance.drift.errors import SchemaDriftError
from strictconformance.drift.fidelity import ParsedResponse, ParsedToolCall, expected_parse
from strictconformance.drift.validator import validate_stream

_KNOWN_ANTHROPIC = {"text", "tool_use", "thinking", "redacted_thinking", "server_tool_use", "web_search_tool_result",
                    "code_execution_tool_result", "bash_code_execution_tool_result", "text_editor_code_execution_tool_result",
                    "web_fetch_tool_result", "mcp_tool_use", "mcp_tool_result", "container_upload", "tool_search_tool_result"}


class ParsesFaithfully(ReferenceLike):
    name = "parses-faithfully"
    parse_fidelity = True

    def check_response(self, api: str, payload: Any) -> ParsedResponse | None:
        super().check_response(api, payload)
        return self.read(api, expected_parse(api, payload) or ParsedResponse(""), payload)

    def check_stream(self, api: str, events: Sequence[Any]) -> ParsedResponse | None:
        super().check_stream(api, events)
        return self.read(api, expected_parse(api, events=events) or ParsedResponse(""), None)

    def read(self, api: str, parsed: ParsedResponse, payload: Any) -> ParsedResponse | None:
        return parsed


class ReadsItemIdAsCallId(ParsesFaithfully):
    name = "reads-item-id-as-call-id"

    def read(self, api: str, parsed: ParsedResponse, payload: Any) -> ParsedResponse | None:
        if api != "openai.responses" or payload is None:
            return parsed
        item_ids = [item.get("id") for item in payload.get("output", []) if isinstance(item, dict) and item.get("type") == "function_call"]
        calls = tuple(dataclasses.replace(call, id=item_id) for call, item_id in zip(parsed.tool_calls, item_ids, strict=False))
        return dataclasses.replace(parsed, tool_calls=calls)


class TextifiesUnknownBlocks(ParsesFaithfully):
    name = "textifies-unknown-blocks"

    def read(self, api: str, parsed: ParsedResponse, payload: Any) -> ParsedResponse | None:
        if api != "anthropic.messages" or not isinstance(payload, dict):
            return parsed
        extra = "".join(json.dumps(block) for block in payload.get("content", [])
                        if isinstance(block, dict) and block.get("type") not in _KNOWN_ANTHROPIC)
        return dataclasses.replace(parsed, text=parsed.text + extra)


class DropsLaterToolCalls(ParsesFaithfully):
    name = "drops-later-tool-calls"

    def read(self, api: str, parsed: ParsedResponse, payload: Any) -> ParsedResponse | None:
        return dataclasses.replace(parsed, tool_calls=parsed.tool_calls[:1])


class ReturnsNothing(ParsesFaithfully):
    name = "returns-nothing"

    def read(self, api: str, parsed: ParsedResponse, payload: Any) -> ParsedResponse | None:
        return None


class InventsToolCall(ParsesFaithfully):
    name = "invents-tool-call"

    def read(self, api: str, parsed: ParsedResponse, payload: Any) -> ParsedResponse | None:
        if parsed.tool_calls or api != "openai.chat":
            return parsed
        return dataclasses.replace(parsed, tool_calls=(ParsedToolCall("weather", {}, "call_0"),))


class ReturnsText(ParsesFaithfully):
    """Returns the response text as a str, not a ParsedResponse: an adapter fault."""

    name = "returns-text"

    def read(self, api: str, parsed: ParsedResponse, payload: Any) -> Any:
        return parsed.text


class _IgnoresCuts(ParsesFaithfully):
    """Accepts a stream cut before its terminal event and returns its reading (see subclasses)."""

    def keep(self, error: SchemaDriftError) -> bool:
        return error.rule_id != "DR-9"


class CutStreamUnmarked(_IgnoresCuts):
    """DR-9: a stream cut short gives a reading with stop_reason None and no mark (what
    accumulating stream helpers return): the caller cannot tell."""

    name = "cut-stream-unmarked"


class CutStreamMarkedIncomplete(_IgnoresCuts):
    """Passes DR-9: a stream cut short gives a reading marked incomplete."""

    name = "cut-stream-marked-incomplete"

    def check_stream(self, api: str, events: Sequence[Any]) -> ParsedResponse | None:
        parsed = super().check_stream(api, events)
        if parsed is not None and any(error.rule_id == "DR-9" for error in validate_stream(api, events).errors):
            return dataclasses.replace(parsed, incomplete=True)
        return parsed


class StreamCutError(Exception):
    """An SDK's documented error for a stream that ended before its terminal event."""


class CutStreamRaisesApiError(_IgnoresCuts):
    """Passes DR-9: raises its documented API error for a stream that ended early."""

    name = "cut-stream-raises-api-error"
    api_errors = (StreamCutError,)

    def check_stream(self, api: str, events: Sequence[Any]) -> ParsedResponse | None:
        report = validate_stream(api, events)
        if any(error.rule_id == "DR-9" for error in report.errors):
            raise StreamCutError("the stream ended before its terminal event")
        return super().check_stream(api, events)


_TOOL_STOP_REASONS = ("tool_calls", "tool_use", "STOP")


class DropsCallsOnNewStopReason(ParsesFaithfully):
    """DR-7: keeps a response's tool calls only when its stop reason is the tool-call one (an agent
    loop keyed on ``finish_reason == "tool_calls"``): a new stop reason beside the calls drops them."""

    name = "drops-calls-on-new-stop-reason"

    def read(self, api: str, parsed: ParsedResponse, payload: Any) -> ParsedResponse | None:
        if parsed.stop_reason is not None and parsed.stop_reason not in _TOOL_STOP_REASONS:
            return dataclasses.replace(parsed, tool_calls=())
        return parsed

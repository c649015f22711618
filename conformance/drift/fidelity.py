"""Parse fidelity (DR-7): what an SDK parsed from a response, against what the response holds.

``check_response`` / ``check_stream`` may return a :class:`ParsedResponse`: the SDK's reading of
the response in a small normalized form (the text the user gets, the tool calls with id, name and
arguments as JSON, and optionally the stop reason and token usage, all as the provider wrote
them). :func:`expected_parse` is the kit's own reading of a payload or a stream, per API
(``shared/reference/response_shapes.md``); :func:`parse_differences` lists where the SDK's reading
differs, each with the path in the payload that holds the right value.

What counts, per API family:

* text: the response's text parts in order, joined with no separator: chat ``message.content``
  (and ``delta.content`` of a stream); Responses ``output[*]`` messages' ``output_text`` parts;
  Anthropic ``text`` blocks; Gemini ``parts[*].text`` that are not thoughts. Refusals, reasoning,
  thinking and blocks of unknown types are not text.
* tool calls: the calls the user is asked to run, in order: chat ``tool_calls`` of type
  ``function`` (arguments: the JSON text parsed); Responses ``function_call`` items (id: ``call_id``);
  Anthropic ``tool_use`` blocks (arguments: ``input``; a stream's ``input_json_delta`` parts joined
  and parsed, none meaning ``{}``); Gemini ``functionCall`` parts (id when the part has one).
  Server-side tool use (Anthropic ``server_tool_use``, Responses ``web_search_call``...) is not a
  call the user runs.
* stop reason: chat ``finish_reason``, Responses ``status``, Anthropic ``stop_reason``, Gemini
  ``finishReason`` (the first candidate's; for a blocked prompt, which has no candidate,
  ``promptFeedback.blockReason``), as written.
* usage: input and output tokens as the provider counts them.

A reading the kit cannot make (a Responses stream without its final response event, tool-call
arguments that are not JSON) is ``None``: DR-7 does not judge that response.
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from strictconformance.drift.sse import SSEEvent

__all__ = ["ParsedResponse", "ParsedToolCall", "expected_parse", "parse_differences", "parsed_problem"]

_CHAT_FAMILY = ("openai.chat", "groq.chat", "cerebras.chat", "cloudflare.chat")


@dataclass(frozen=True)
class ParsedToolCall:
    """One tool call as the SDK read it: its id (``None`` when the provider sent none), the tool's
    name and the arguments as a JSON value (parsed, not the JSON text)."""

    name: str
    arguments: Any
    id: str | None = None


@dataclass(frozen=True)
class ParsedResponse:
    """What an SDK read from one response (or stream), for DR-7. ``stop_reason`` and ``usage`` are
    compared only when given (``usage`` keys: ``input_tokens``, ``output_tokens``)."""

    text: str
    tool_calls: tuple[ParsedToolCall, ...] = ()
    stop_reason: str | None = None
    usage: Mapping[str, int] | None = None
    #: paths in the payload the kit's reading came from (set on expected readings only)
    sources: Mapping[str, str] = field(default_factory=dict, compare=False)
    #: the SDK marks its reading incomplete (the stream ended before its terminal event, DR-9)
    incomplete: bool = False


def parsed_problem(value: Any) -> str | None:
    """Why ``value`` is not a usable :class:`ParsedResponse` (what check_response returned), or ``None``."""
    if value is None:
        return None
    if not isinstance(value, ParsedResponse):
        return f"returned {type(value).__qualname__}; expected None or a strictconformance.drift.ParsedResponse"
    raw: Any = value  # typed fields, but an adapter may have put anything in them
    if not isinstance(raw.text, str):
        return f"returned a ParsedResponse whose text is {type(raw.text).__qualname__}, not str"
    if not isinstance(raw.tool_calls, (tuple, list)):
        return f"returned a ParsedResponse whose tool_calls is {type(raw.tool_calls).__qualname__}, not a tuple"
    for index, item in enumerate(raw.tool_calls):
        call: Any = item
        if not isinstance(call, ParsedToolCall):
            return f"returned a ParsedResponse whose tool_calls[{index}] is {type(call).__qualname__}, not a ParsedToolCall"
        fields: Any = (call.name, call.id)
        if not isinstance(fields[0], str) or not (fields[1] is None or isinstance(fields[1], str)):
            return f"returned a ParsedResponse whose tool_calls[{index}] has a name or id that is not a string"
    if not isinstance(raw.incomplete, bool):
        return "returned a ParsedResponse whose incomplete is not a boolean"
    if raw.stop_reason is not None and not isinstance(raw.stop_reason, str):
        return "returned a ParsedResponse whose stop_reason is not a string or None"
    if raw.usage is not None and (not isinstance(raw.usage, Mapping)
                                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in raw.usage.values())):
        return "returned a ParsedResponse whose usage is not a mapping of token counts"
    return None


class _Unreadable(Exception):
    """The kit cannot read this response (DR-7 does not judge it)."""


def _arguments(text: Any, where: str) -> Any:
    if isinstance(text, (dict, list)):
        return text
    if not isinstance(text, str):
        raise _Unreadable(f"{where} is not JSON text")
    if not text.strip():
        return {}
    try:
        return json.loads(text)
    except ValueError as exc:
        raise _Unreadable(f"{where} is not JSON: {exc}") from exc


def _free_input(text: Any, where: str) -> str:
    """A custom tool call's input: free text, kept as the text (JSON-looking text included)."""
    if not isinstance(text, str):
        raise _Unreadable(f"{where} is not text")
    return text


def _int(value: Any) -> int | None:
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _usage(input_tokens: Any, output_tokens: Any) -> dict[str, int] | None:
    usage = {name: count for name, count in (("input_tokens", _int(input_tokens)), ("output_tokens", _int(output_tokens)))
             if count is not None}
    return usage or None


# -- bodies -------------------------------------------------------------------------------------------


def _chat_body(payload: Mapping[str, Any]) -> ParsedResponse:
    choices = payload.get("choices") or []
    choice = choices[0] if choices and isinstance(choices[0], Mapping) else {}
    message = choice.get("message") or {}
    content = message.get("content")
    if content is not None and not isinstance(content, str):
        raise _Unreadable("choices[0].message.content is not text")  # e.g. Cloudflare's object content
    text = content or ""
    calls: list[ParsedToolCall] = []
    sources = {"text": "choices[0].message.content"}
    for index, call in enumerate(message.get("tool_calls") or []):
        if not isinstance(call, Mapping) or call.get("type", "function") != "function":
            continue
        function = call.get("function") or {}
        where = f"choices[0].message.tool_calls[{index}]"
        calls.append(ParsedToolCall(str(function.get("name")), _arguments(function.get("arguments"), f"{where}.function.arguments"),
                                    call.get("id")))
        sources[f"tool_calls[{len(calls) - 1}]"] = where
    usage = payload.get("usage") or {}
    return ParsedResponse(text, tuple(calls), choice.get("finish_reason"),
                          _usage(usage.get("prompt_tokens"), usage.get("completion_tokens")) if isinstance(usage, Mapping) else None,
                          sources)


def _responses_body(payload: Mapping[str, Any]) -> ParsedResponse:
    texts: list[str] = []
    calls: list[ParsedToolCall] = []
    sources: dict[str, str] = {}
    for index, item in enumerate(payload.get("output") or []):
        if not isinstance(item, Mapping):
            continue
        if item.get("type") == "message":
            for part_index, part in enumerate(item.get("content") or []):
                if isinstance(part, Mapping) and part.get("type") == "output_text" and isinstance(part.get("text"), str):
                    texts.append(part["text"])
                    sources.setdefault("text", f"output[{index}].content[{part_index}].text")
        elif item.get("type") == "function_call":
            where = f"output[{index}]"
            calls.append(ParsedToolCall(str(item.get("name")), _arguments(item.get("arguments"), f"{where}.arguments"), item.get("call_id")))
            sources[f"tool_calls[{len(calls) - 1}]"] = where
        elif item.get("type") == "custom_tool_call":
            # a call of a custom tool: a tool call the user runs, its input free text, not JSON
            # (https://platform.openai.com/docs/guides/function-calling#custom-tools): the reading
            # is that text, even when it looks like JSON
            where = f"output[{index}]"
            calls.append(ParsedToolCall(str(item.get("name")), _free_input(item.get("input"), f"{where}.input"), item.get("call_id")))
            sources[f"tool_calls[{len(calls) - 1}]"] = where
    usage = payload.get("usage") or {}
    return ParsedResponse("".join(texts), tuple(calls), payload.get("status"),
                          _usage(usage.get("input_tokens"), usage.get("output_tokens")) if isinstance(usage, Mapping) else None, sources)


def _anthropic_body(payload: Mapping[str, Any]) -> ParsedResponse:
    texts: list[str] = []
    calls: list[ParsedToolCall] = []
    sources: dict[str, str] = {}
    for index, block in enumerate(payload.get("content") or []):
        if not isinstance(block, Mapping):
            continue
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
            sources.setdefault("text", f"content[{index}].text")
        elif block.get("type") == "tool_use":
            calls.append(ParsedToolCall(str(block.get("name")), block.get("input"), block.get("id")))
            sources[f"tool_calls[{len(calls) - 1}]"] = f"content[{index}]"
    usage = payload.get("usage") or {}
    return ParsedResponse("".join(texts), tuple(calls), payload.get("stop_reason"),
                          _usage(usage.get("input_tokens"), usage.get("output_tokens")) if isinstance(usage, Mapping) else None, sources)


def _gemini_parts(payload: Mapping[str, Any], texts: list[str], calls: list[ParsedToolCall], sources: dict[str, str],
                  prefix: str = "") -> str | None:
    candidates = payload.get("candidates") or []
    candidate = candidates[0] if candidates and isinstance(candidates[0], Mapping) else {}
    content = candidate.get("content") or {}
    for index, part in enumerate(content.get("parts") or [] if isinstance(content, Mapping) else []):
        if not isinstance(part, Mapping):
            continue
        if isinstance(part.get("text"), str) and not part.get("thought"):
            texts.append(part["text"])
            sources.setdefault("text", f"{prefix}candidates[0].content.parts[{index}].text")
        elif isinstance(part.get("functionCall"), Mapping):
            call = part["functionCall"]
            calls.append(ParsedToolCall(str(call.get("name")), call.get("args", {}), call.get("id")))
            sources[f"tool_calls[{len(calls) - 1}]"] = f"{prefix}candidates[0].content.parts[{index}].functionCall"
    reason = candidate.get("finishReason")
    if not candidates and isinstance(payload.get("promptFeedback"), Mapping):
        # a blocked prompt has no candidate; promptFeedback.blockReason is why nothing was generated
        reason = payload["promptFeedback"].get("blockReason")
    return reason if isinstance(reason, str) else None


def _gemini_body(payload: Mapping[str, Any]) -> ParsedResponse:
    texts: list[str] = []
    calls: list[ParsedToolCall] = []
    sources: dict[str, str] = {}
    reason = _gemini_parts(payload, texts, calls, sources)
    usage = payload.get("usageMetadata") or {}
    return ParsedResponse("".join(texts), tuple(calls), reason,
                          _usage(usage.get("promptTokenCount"), usage.get("candidatesTokenCount")) if isinstance(usage, Mapping) else None,
                          sources)


# -- streams ------------------------------------------------------------------------------------------


def _data(events: Sequence[SSEEvent]) -> list[tuple[int, Any]]:
    out: list[tuple[int, Any]] = []
    for index, event in enumerate(events):
        if event.data.strip() == "[DONE]":
            break
        try:
            out.append((index, json.loads(event.data)))
        except ValueError:
            continue
    return out


def _chat_stream(events: Sequence[SSEEvent]) -> ParsedResponse:
    text: list[str] = []
    calls: dict[int, dict[str, Any]] = {}
    order: list[int] = []
    reason: str | None = None
    usage: dict[str, int] | None = None
    sources: dict[str, str] = {}
    for index, chunk in _data(events):
        if not isinstance(chunk, Mapping):
            continue
        if isinstance(chunk.get("usage"), Mapping):
            usage = _usage(chunk["usage"].get("prompt_tokens"), chunk["usage"].get("completion_tokens"))
        for choice in chunk.get("choices") or []:
            if not isinstance(choice, Mapping) or choice.get("index", 0) != 0:
                continue
            delta = choice.get("delta") or {}
            if isinstance(delta.get("content"), str):
                text.append(delta["content"])
                sources.setdefault("text", f"events[{index}].data.choices[*].delta.content")
            for call in delta.get("tool_calls") or []:
                if not isinstance(call, Mapping):
                    continue
                position = call.get("index", 0)
                if position not in calls:
                    calls[position] = {"id": None, "name": "", "arguments": "", "type": "function"}
                    order.append(position)
                    sources[f"tool_calls[{len(order) - 1}]"] = f"events[{index}].data.choices[*].delta.tool_calls[*]"
                entry = calls[position]
                if call.get("id"):
                    entry["id"] = call["id"]
                if call.get("type"):
                    entry["type"] = call["type"]
                function = call.get("function") or {}
                if isinstance(function.get("name"), str):
                    entry["name"] += function["name"]
                if isinstance(function.get("arguments"), str):
                    entry["arguments"] += function["arguments"]
            if choice.get("finish_reason"):
                reason = choice["finish_reason"]
    parsed = tuple(ParsedToolCall(calls[p]["name"], _arguments(calls[p]["arguments"], f"tool call {p}'s arguments"), calls[p]["id"])
                   for p in order if calls[p]["type"] == "function")
    return ParsedResponse("".join(text), parsed, reason, usage, sources)


def _responses_stream(events: Sequence[SSEEvent]) -> ParsedResponse:
    for index, data in reversed(_data(events)):
        if isinstance(data, Mapping) and data.get("type") in ("response.completed", "response.incomplete", "response.failed") \
                and isinstance(data.get("response"), Mapping):
            parsed = _responses_body(data["response"])
            return ParsedResponse(parsed.text, parsed.tool_calls, parsed.stop_reason, parsed.usage,
                                  {key: f"events[{index}].data.response.{path}" for key, path in parsed.sources.items()})
    raise _Unreadable("the stream has no final response event")


def _anthropic_stream(events: Sequence[SSEEvent]) -> ParsedResponse:
    blocks: dict[int, dict[str, Any]] = {}
    order: list[int] = []
    reason: str | None = None
    input_tokens: Any = None
    output_tokens: Any = None
    sources: dict[str, str] = {}
    for index, data in _data(events):
        if not isinstance(data, Mapping):
            continue
        kind = data.get("type")
        if kind == "message_start" and isinstance(data.get("message"), Mapping):
            usage = data["message"].get("usage") or {}
            if isinstance(usage, Mapping):
                input_tokens, output_tokens = usage.get("input_tokens"), usage.get("output_tokens", output_tokens)
        elif kind == "content_block_start" and isinstance(data.get("content_block"), Mapping):
            position = data.get("index", len(order))
            block = dict(data["content_block"])
            block["_json"] = ""
            block["_where"] = f"events[{index}].data.content_block"
            if position not in blocks:
                order.append(position)
            blocks[position] = block
        elif kind == "content_block_delta" and isinstance(data.get("delta"), Mapping):
            target = blocks.get(data.get("index", -1))
            if target is None:
                continue
            block = target
            delta = data["delta"]
            if delta.get("type") == "text_delta" and isinstance(delta.get("text"), str):
                block["text"] = block.get("text", "") + delta["text"]
            elif delta.get("type") == "input_json_delta" and isinstance(delta.get("partial_json"), str):
                block["_json"] += delta["partial_json"]
        elif kind == "message_delta":
            delta = data.get("delta") or {}
            if isinstance(delta, Mapping) and delta.get("stop_reason"):
                reason = delta["stop_reason"]
            usage = data.get("usage") or {}
            if isinstance(usage, Mapping):
                output_tokens = usage.get("output_tokens", output_tokens)
                input_tokens = usage.get("input_tokens", input_tokens) or input_tokens
    texts: list[str] = []
    calls: list[ParsedToolCall] = []
    for position in order:
        block = blocks[position]
        if block.get("type") == "text" and isinstance(block.get("text"), str):
            texts.append(block["text"])
            sources.setdefault("text", block["_where"])
        elif block.get("type") == "tool_use":
            arguments = _arguments(block["_json"], f"{block['_where']} input_json_delta") if block["_json"] else (block.get("input") or {})
            calls.append(ParsedToolCall(str(block.get("name")), arguments, block.get("id")))
            sources[f"tool_calls[{len(calls) - 1}]"] = block["_where"]
    return ParsedResponse("".join(texts), tuple(calls), reason, _usage(input_tokens, output_tokens), sources)


def _gemini_stream(events: Sequence[SSEEvent]) -> ParsedResponse:
    texts: list[str] = []
    calls: list[ParsedToolCall] = []
    sources: dict[str, str] = {}
    reason: str | None = None
    usage: dict[str, int] | None = None
    for index, data in _data(events):
        if not isinstance(data, Mapping):
            continue
        reason = _gemini_parts(data, texts, calls, sources, prefix=f"events[{index}].data.") or reason
        metadata = data.get("usageMetadata")
        if isinstance(metadata, Mapping):
            usage = _usage(metadata.get("promptTokenCount"), metadata.get("candidatesTokenCount")) or usage
    return ParsedResponse("".join(texts), tuple(calls), reason, usage, sources)


def expected_parse(api: str, payload: Any = None, events: Sequence[SSEEvent] | None = None) -> ParsedResponse | None:
    """The kit's reading of a response of ``api`` (a body, or ``events``), or ``None`` when it
    cannot read it (DR-7 then does not judge that response)."""
    try:
        if events is not None:
            if api in _CHAT_FAMILY:
                return _chat_stream(events)
            readers = {"openai.responses": _responses_stream, "anthropic.messages": _anthropic_stream,
                       "gemini.generate_content": _gemini_stream}
            return readers[api](events)
        if not isinstance(payload, Mapping):
            return None
        if api in _CHAT_FAMILY:
            return _chat_body(payload)
        bodies = {"openai.responses": _responses_body, "anthropic.messages": _anthropic_body, "gemini.generate_content": _gemini_body}
        return bodies[api](payload)
    except (_Unreadable, KeyError, TypeError, AttributeError, RecursionError):
        return None


def _same(a: Any, b: Any) -> bool:
    """JSON equality: 1 == 1.0, but True is not 1, and NaN never appears (JSON has none)."""
    if isinstance(a, bool) or isinstance(b, bool):
        return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b
    if isinstance(a, Mapping) and isinstance(b, Mapping):
        return a.keys() == b.keys() and all(_same(a[key], b[key]) for key in a)
    if isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b, strict=True))
    return type(a) is type(b) and a == b


def _shown(value: Any) -> str:
    text = json.dumps(value, ensure_ascii=False, default=repr)
    return text if len(text) <= 200 else text[:197] + "..."


def parse_differences(expected: ParsedResponse, got: ParsedResponse) -> list[str]:
    """Where the SDK's reading ``got`` differs from the payload (``expected``), each with the path
    in the payload that holds the right value."""
    where = expected.sources
    differences: list[str] = []
    if got.text != expected.text:
        differences.append(f"text: the SDK read {_shown(got.text)}, the response holds {_shown(expected.text)}"
                           f" (at {where.get('text', 'no text part')})")
    for index in range(max(len(expected.tool_calls), len(got.tool_calls))):
        path = where.get(f"tool_calls[{index}]", "")
        if index >= len(expected.tool_calls):
            call = got.tool_calls[index]
            differences.append(f"tool_calls[{index}]: the SDK read a call of {call.name!r} the response does not hold (invented)")
            continue
        want = expected.tool_calls[index]
        if index >= len(got.tool_calls):
            differences.append(f"tool_calls[{index}]: the response holds a call of {want.name!r} at {path}; the SDK dropped it")
            continue
        call = got.tool_calls[index]
        if call.name != want.name:
            differences.append(f"tool_calls[{index}].name: the SDK read {call.name!r}, the response holds {want.name!r} at {path}")
        if call.id != want.id:
            differences.append(f"tool_calls[{index}].id: the SDK read {call.id!r}, the response holds {want.id!r} at {path}")
        if not _same(call.arguments, want.arguments):
            differences.append(f"tool_calls[{index}].arguments: the SDK read {_shown(call.arguments)}, the response holds "
                               f"{_shown(want.arguments)} at {path}")
    if got.stop_reason is not None and got.stop_reason != expected.stop_reason:
        differences.append(f"stop_reason: the SDK read {got.stop_reason!r}, the response holds {expected.stop_reason!r}")
    if got.usage is not None and expected.usage is not None:
        for key, count in got.usage.items():
            if key in expected.usage and expected.usage[key] != count:
                differences.append(f"usage.{key}: the SDK read {count}, the response holds {expected.usage[key]}")
    return differences


def difference_field(difference: str) -> str:
    """What one of :func:`parse_differences`' lines is about, without the values: ``text``,
    ``tool_calls (invented)``, ``tool_calls (dropped)``, ``tool_calls[].id``, ``stop_reason``,
    ``usage`` (a finding's key: distinct kinds of misreading are distinct findings)."""
    field = re.sub(r"\[\d+\]", "[]", difference.partition(":")[0])
    if field == "tool_calls[]":
        return "tool_calls (invented)" if difference.endswith("(invented)") else "tool_calls (dropped)"
    return "usage" if field.startswith("usage.") else field

"""The process protocol, ``strictconformance-process/1``: messages, their JSON Schemas, and how
adapter arguments and results travel as JSON.

One JSON object per line. The kit writes to the harness's stdin, the harness answers on its stdout;
stderr is the harness's own (logs, shown in faults). The message types and their schemas are in
``schemas/<type>.json`` (shipped with the kit); the README's "Process harnesses" section is the
contract other languages implement.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from strictconformance.wire import (
    ModelSpec,
    Plan,
    StrictSupport,
    WireRequest,
    WireTool,
    read_wire_request,
)

__all__ = [
    "HARNESS_MESSAGES",
    "KIT_MESSAGES",
    "PROTOCOL",
    "ProtocolError",
    "decode_result",
    "encode_args",
    "message_problem",
    "message_schema",
    "to_json",
]

PROTOCOL = "strictconformance-process/1"
#: Message types the kit sends, and those a harness sends.
KIT_MESSAGES: tuple[str, ...] = ("start", "call", "callback_result", "stop")
HARNESS_MESSAGES: tuple[str, ...] = ("started", "result", "error", "refusal", "callback")


class ProtocolError(Exception):
    """A message or value that breaks the protocol (the text says which rule)."""


@cache
def message_schema(kind: str) -> dict[str, Any]:
    """The JSON Schema of message type ``kind`` (shipped as ``schemas/<kind>.json``)."""
    if kind not in KIT_MESSAGES + HARNESS_MESSAGES:
        raise ValueError(f"unknown message type {kind!r}; known: {', '.join(KIT_MESSAGES + HARNESS_MESSAGES)}")
    text = resources.files("strictconformance.process").joinpath("schemas").joinpath(f"{kind}.json").read_text("utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


@cache
def _validator(kind: str) -> Draft202012Validator:
    return Draft202012Validator(message_schema(kind))


def message_problem(message: object, sender: str) -> str | None:
    """Why ``message`` is not a valid message from ``sender`` (``"kit"`` or ``"harness"``), or None."""
    allowed = KIT_MESSAGES if sender == "kit" else HARNESS_MESSAGES
    if not isinstance(message, dict):
        return f"a message is a JSON object, got {type(message).__name__}"
    kind = message.get("type")
    if kind not in allowed:
        return f"message type {kind!r} is not one a {sender} sends ({', '.join(allowed)})"
    error = next(iter(_validator(kind).iter_errors(message)), None)
    if error is None:
        return None
    where = "/" + "/".join(str(part) for part in error.absolute_path)
    return f"{kind} message breaks schemas/{kind}.json at {where}: {error.message[:300]}"


# -- Arguments (kit -> harness) ------------------------------------------------------------------


def to_json(value: Any, where: str = "value") -> Any:
    """``value`` as plain JSON (mappings as objects, tuples as arrays, dataclasses as objects); a
    non-finite number or a type JSON lacks is a ProtocolError naming where. Iterative: the drift
    fuzz hands adapters values nested thousands deep, which must cross the boundary as they are."""
    root: list[Any] = [None]
    stack: list[tuple[Any, list[Any] | dict[str, Any], Any, str]] = [(value, root, 0, where)]
    while stack:
        node, parent, slot, path = stack.pop()
        if node is None or isinstance(node, (bool, str, int)):
            parent[slot] = node
        elif isinstance(node, float):
            if not math.isfinite(node):
                raise ProtocolError(f"{path}: {node!r} has no JSON form")
            parent[slot] = node
        elif isinstance(node, Mapping) or (dataclasses.is_dataclass(node) and not isinstance(node, type)):
            items = list(node.items()) if isinstance(node, Mapping) else [(f.name, getattr(node, f.name)) for f in dataclasses.fields(node)]
            out: dict[str, Any] = {str(key): None for key, _ in items}  # keys in their order
            parent[slot] = out
            for key, item in items:
                stack.append((item, out, str(key), f"{path}/{key}"))
        elif isinstance(node, (list, tuple, frozenset, set)):
            members = sorted(node, key=repr) if isinstance(node, (frozenset, set)) else node
            array: list[Any] = [None] * len(members)
            parent[slot] = array
            for index, item in enumerate(members):
                stack.append((item, array, index, f"{path}/{index}"))
        else:
            raise ProtocolError(f"{path}: a {type(node).__name__} has no JSON form")
    return root[0]


def dumps(message: Mapping[str, Any]) -> bytes:
    """One message as a line of UTF-8 JSON. Values nested deeper than the json module's recursion
    allows are written by an iterative encoder (the fuzz sends such values on purpose)."""
    try:
        return json.dumps(message, ensure_ascii=False, separators=(",", ":"), allow_nan=False).encode("utf-8") + b"\n"
    except RecursionError:
        return _dumps_deep(message).encode("utf-8") + b"\n"
    except ValueError as exc:
        if "integer string conversion" not in str(exc):
            raise ProtocolError(f"not JSON: {exc}") from None
    # An integer past Python's int-to-text limit (JSON has none; the fuzz sends them on purpose).
    previous = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return _dumps_deep(message).encode("utf-8") + b"\n"
    finally:
        sys.set_int_max_str_digits(previous)


def _dumps_deep(value: Any) -> str:
    parts: list[str] = []
    stack: list[Any] = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, _Raw):
            parts.append(node.text)
        elif isinstance(node, dict):
            parts.append("{")
            tail: list[Any] = [_Raw("}")]
            for index, (key, item) in enumerate(reversed(list(node.items()))):
                tail.append(item)
                tail.append(_Raw(("" if index == len(node) - 1 else ",") + json.dumps(str(key), ensure_ascii=False) + ":"))
            stack.extend(tail)
        elif isinstance(node, list):
            parts.append("[")
            tail = [_Raw("]")]
            for index, item in enumerate(reversed(node)):
                tail.append(item)
                if index != len(node) - 1:
                    tail.append(_Raw(","))
            stack.extend(tail)
        else:
            parts.append(json.dumps(node, ensure_ascii=False, allow_nan=False))
    return "".join(parts)


@dataclasses.dataclass(frozen=True)
class _Raw:
    text: str


#: Argument names per method, in the order the adapter method takes them.
ARGUMENT_NAMES: Mapping[str, tuple[str, ...]] = {
    "build_request": ("request",),
    "plan_request": ("request",),
    "strict_support": ("model",),
    "strictify": ("schema", "dialect"),
    "encode": ("schema", "dialect", "value"),
    "decode": ("schema", "dialect", "value"),
    "check_response": ("api", "payload"),
    "check_stream": ("api", "events"),
    "define_tool": ("definition",),
    "describe_tool": ("tool",),
    "invoke_tool": ("tool", "tool_use_id", "tool_input", "invocation_state"),
    "call_tool": ("tool", "tool_input", "context"),
}


def encode_args(method: str, args: Sequence[Any]) -> dict[str, Any]:
    """The ``args`` object of a call message for ``adapter.method(*args)``. Tool objects and
    callbacks are already replaced by their handles (strings) by the caller."""
    names = ARGUMENT_NAMES[method]
    if len(args) != len(names):
        raise ProtocolError(f"{method} takes {len(names)} arguments ({', '.join(names)}), got {len(args)}")
    return {name: to_json(value, f"{method}.{name}") for name, value in zip(names, args, strict=True)}


# -- Results (harness -> kit) --------------------------------------------------------------------


def _expect(value: Any, kind: type, where: str) -> Any:
    if not isinstance(value, kind) or (isinstance(value, bool) and kind is not bool):
        raise ProtocolError(f"{where} must be a JSON {_JSON_NAMES.get(kind, kind.__name__)}, got {json.dumps(value)[:200]}")
    return value


_JSON_NAMES = {dict: "object", list: "array", str: "string", bool: "boolean"}


def wire_request(value: Any, where: str) -> WireRequest:
    """A build_request result: a captured HTTP request ``{"api", "body", "headers"?}`` read with
    :func:`strictconformance.read_wire_request`, or the wire parts themselves ``{"tools": [...],
    "betas"?, "function_calling_mode"?, "response_format"?}``."""
    _expect(value, dict, where)
    if "api" in value:
        headers = value.get("headers") or {}
        _expect(headers, dict, f"{where}.headers")
        return read_wire_request(_expect(value["api"], str, f"{where}.api"), value.get("body"),
                                 {str(k): str(v) for k, v in headers.items()})
    tools = []
    for index, tool in enumerate(_expect(value.get("tools"), list, f"{where}.tools")):
        _expect(tool, dict, f"{where}.tools[{index}]")
        strict = tool.get("strict")
        if strict is not None:
            _expect(strict, bool, f"{where}.tools[{index}].strict")
        tools.append(WireTool(_expect(tool.get("name"), str, f"{where}.tools[{index}].name"), strict, tool.get("input_schema")))
    betas = _expect(value.get("betas", []), list, f"{where}.betas")
    return WireRequest(tuple(tools), frozenset(betas), value.get("function_calling_mode"), value.get("response_format"))


def decode_result(method: str, value: Any) -> Any:
    """The Python value of a result message's ``value`` for ``method`` (tool results are read by
    the adapter, which holds the tool handles)."""
    where = f"{method} result"
    if method == "build_request":
        return wire_request(value, where)
    if method == "plan_request":
        _expect(value, dict, where)
        model = _expect(value.get("model"), dict, f"{where}.model")
        return Plan(ModelSpec(model.get("provider"), model.get("id"), model.get("strict_format")),
                    wire_request(value.get("request"), f"{where}.request"))
    if method == "strict_support":
        _expect(value, dict, where)
        return StrictSupport(value.get("dialect"), value.get("capable"))
    if method == "strictify":
        from strictconformance.dialects.model import Loss, Strictified

        if isinstance(value, dict) and set(value) <= {"schema", "losses"} and isinstance(value.get("schema"), dict):
            losses = tuple(Loss(str(loss.get("pointer")), str(loss.get("kind")), str(loss.get("keyword")), str(loss.get("detail", "")))
                           for loss in _expect(value.get("losses", []), list, f"{where}.losses"))
            return Strictified(value["schema"], losses)
        raise ProtocolError(f"{where} must be {{\"schema\": {{...}}, \"losses\": [...]}}")
    if method in ("check_response", "check_stream") and value is not None:
        return parsed_response(value, where)
    return value


def parsed_response(value: Any, where: str) -> Any:
    """A check_response / check_stream result that is not null: what the SDK parsed, ``{"text",
    "tool_calls": [{"name", "arguments", "id"?}], "stop_reason"?, "usage"?: {"input_tokens"?,
    "output_tokens"?}, "incomplete"?: true}``, as a :class:`strictconformance.drift.fidelity.ParsedResponse` (DR-7)."""
    from strictconformance.drift.fidelity import ParsedResponse, ParsedToolCall

    _expect(value, dict, where)
    unknown = sorted(set(value) - {"text", "tool_calls", "stop_reason", "usage", "incomplete"})
    if unknown:
        raise ProtocolError(f"{where} has unknown keys {unknown}; expected null or "
                            f"{{\"text\", \"tool_calls\", \"stop_reason\", \"usage\", \"incomplete\"}}")
    calls = []
    for index, call in enumerate(_expect(value.get("tool_calls", []), list, f"{where}.tool_calls")):
        _expect(call, dict, f"{where}.tool_calls[{index}]")
        if "arguments" not in call:
            raise ProtocolError(f"{where}.tool_calls[{index}] has no arguments (the parsed JSON value)")
        call_id = call.get("id")
        if call_id is not None:
            _expect(call_id, str, f"{where}.tool_calls[{index}].id")
        calls.append(ParsedToolCall(_expect(call.get("name"), str, f"{where}.tool_calls[{index}].name"), call["arguments"], call_id))
    reason = value.get("stop_reason")
    if reason is not None:
        _expect(reason, str, f"{where}.stop_reason")
    usage = value.get("usage")
    if usage is not None:
        _expect(usage, dict, f"{where}.usage")
        for key, count in usage.items():
            if key not in ("input_tokens", "output_tokens") or not isinstance(count, int) or isinstance(count, bool):
                raise ProtocolError(f"{where}.usage must map input_tokens / output_tokens to integers, got {key!r}: {count!r}")
    incomplete = _expect(value.get("incomplete", False), bool, f"{where}.incomplete")
    return ParsedResponse(_expect(value.get("text"), str, f"{where}.text"), tuple(calls), reason, usage, incomplete=incomplete)

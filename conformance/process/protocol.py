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
from collections.abc import Mapping, Sequence
from functools import cache
from importlib import resources
from typing import Any

from jsonschema import Draft202012Validator

from strictconformance.wire import ModelSpec, Plan, StrictSupport, WireRequest, WireTool, read_wire_request

__all__ = [
    "HARNESS_MESSAGES",
    "KIT_MESSAGES",
    "PROTOCOL",
    "ProtocolError",
    "decode_result",
    "encode_args",
    "to_json",
    "message_problem",
    "message_schema",
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
    text = resources.files("strictconformance.process").joinpath("schemas", f"{kind}.json").read_text("utf-8")
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
    """``value`` as plain JSON (mappings as objects, tuples as arrays); a non-finite number or a
    type JSON lacks is a ProtocolError naming where."""
    if value is None or isinstance(value, (bool, str, int)):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ProtocolError(f"{where}: {value!r} has no JSON form")
        return value
    if isinstance(value, Mapping):
        return {str(key): to_json(item, f"{where}/{key}") for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_json(item, f"{where}/{index}") for index, item in enumerate(value)]
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: to_json(getattr(value, f.name), f"{where}/{f.name}") for f in dataclasses.fields(value)}
    if isinstance(value, (frozenset, set)):
        return sorted(to_json(item, where) for item in value)
    raise ProtocolError(f"{where}: a {type(value).__name__} has no JSON form")


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
    return value

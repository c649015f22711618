"""What the resolution capabilities take and return.

Inputs describe a tool-calling request the way every SDK has it: tools with a strict setting, a
provider config, a model (boolean convention) or candidate models (priority convention).
The output is the *wire request*: for each tool, what goes on the request for ``strict``
(``True``, ``False`` or omitted, written ``None``), plus the request-level parts strict mode
touches (Anthropic beta flags, Google's function-calling mode, a structured-output format).

An adapter that captures the real HTTP body its SDK would send can turn it into a
:class:`WireRequest` with :func:`read_wire_request` instead of building one by hand.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from strictconformance._text import int_text

__all__ = [
    "ANTHROPIC_STRUCTURED_OUTPUTS_BETA",
    "FAMILIES",
    "PROVIDERS",
    "WIRE_APIS",
    "InvalidStrictSetting",
    "ModelSpec",
    "Plan",
    "PlanRequest",
    "StrictSetting",
    "StrictSupport",
    "ToolSpec",
    "ToolsRequest",
    "WireFormatError",
    "WireRequest",
    "WireTool",
    "priority_of",
    "read_wire_request",
    "validate_strict_setting",
]

#: Providers of the boolean convention (SPEC §1, RES-1..RES-6).
PROVIDERS: tuple[str, ...] = ("openai", "anthropic", "google")
#: Strict-format families (dialect families) a model can have (SPEC §1, RES-13).
FAMILIES: tuple[str, ...] = ("openai", "anthropic", "google")
#: The beta flag Anthropic requires beside `strict` (RES-5; provider_limits.md, Anthropic section).
ANTHROPIC_STRUCTURED_OUTPUTS_BETA = "structured-outputs-2025-11-13"
#: HTTP request formats :func:`read_wire_request` understands.
WIRE_APIS: tuple[str, ...] = ("openai.chat", "openai.responses", "anthropic.messages", "gemini.generate_content")

JSONSchema = Mapping[str, Any]
StrictFormat = Literal["openai", "anthropic", "google", "none"]

#: A tool's strict setting: ``True``/``False``/``None`` (unset) in the boolean convention, plus a
#: positive number (a priority) in the priority convention.
StrictSetting = bool | int | float | None


class InvalidStrictSetting(ValueError):
    """A strict setting that is neither a bool, None, nor a finite number > 0."""


def validate_strict_setting(value: object, *, tool_name: str | None = None, allow_priority: bool = True) -> StrictSetting:
    """Return ``value`` if it is a valid strict setting, else raise :class:`InvalidStrictSetting`.

    Valid: ``True``, ``False``, ``None`` and, when ``allow_priority``, any finite real number > 0.
    Strings, zero, negative numbers, NaN and infinities are rejected with a message naming the
    tool, at definition time, never replaced by a default.
    """
    where = f"tool {tool_name!r}: " if tool_name else ""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        if not allow_priority:
            raise InvalidStrictSetting(
                f"{where}strict must be True, False or None in the boolean convention, got {value!r}"
            )
        try:
            finite = math.isfinite(float(value))
        except OverflowError:  # an int beyond float range (10**400): no usable priority
            finite = False
        if not finite or value <= 0:
            shown = repr(value) if isinstance(value, float) else int_text(value)
            raise InvalidStrictSetting(
                f"{where}strict priority must be a finite number > 0, got {shown}"
            )
        return value
    raise InvalidStrictSetting(
        f"{where}strict must be True, False, None or a number > 0, got {type(value).__name__} {value!r}"
    )


def priority_of(setting: StrictSetting) -> float | None:
    """A tool's claim on strict in the priority convention (RES-10, BUD-1): ``inf`` for ``True``,
    ``None`` (no claim) for ``False``, 1 when unset, else the number itself."""
    if setting is True:
        return math.inf
    if setting is False:
        return None
    if setting is None:
        return 1.0
    return float(setting)


@dataclass(frozen=True)
class ToolSpec:
    """A tool as the user defines it. ``strict`` is the per-tool setting, ``None`` when unset."""

    name: str
    input_schema: JSONSchema
    strict: StrictSetting = None
    description: str = ""


@dataclass(frozen=True)
class ModelSpec:
    """A model. ``strict_format`` is the explicit strict format, ``None`` when unset (RES-13)."""

    provider: str
    id: str
    strict_format: StrictFormat | None = None


@dataclass(frozen=True)
class ToolsRequest:
    """Boolean convention: build one request for ``provider``.

    ``config_strict`` is the provider-level setting (``strictJsonSchema``); ``response_schema`` asks
    for a structured-output response format; ``function_calling_mode`` is what the caller set for
    Google (``AUTO``, ``ANY``, ``NONE``, ``VALIDATED``) or ``None``.
    """

    provider: str
    model: str
    supports_structured_outputs: bool
    tools: tuple[ToolSpec, ...]
    config_strict: bool | None = None
    response_schema: JSONSchema | None = None
    function_calling_mode: str | None = None


@dataclass(frozen=True)
class PlanRequest:
    """Priority convention: choose a model among ``candidates`` (in the caller's order of
    preference, otherwise equal) and decide each tool's wire strict."""

    tools: tuple[ToolSpec, ...]
    candidates: tuple[ModelSpec, ...]


@dataclass(frozen=True)
class WireTool:
    """One tool as it goes on the wire. ``strict`` is ``None`` when the field is omitted."""

    name: str
    strict: bool | None
    input_schema: JSONSchema | None = None


@dataclass(frozen=True)
class WireRequest:
    """The strict-relevant parts of one request as it goes on the wire."""

    tools: tuple[WireTool, ...]
    betas: frozenset[str] = field(default_factory=frozenset)
    function_calling_mode: str | None = None
    response_format: Mapping[str, Any] | None = None

    def tool(self, name: str) -> WireTool | None:
        return next((tool for tool in self.tools if tool.name == name), None)


@dataclass(frozen=True)
class Plan:
    """Priority convention result: the chosen candidate and the request built for it."""

    model: ModelSpec
    request: WireRequest


@dataclass(frozen=True)
class StrictSupport:
    """A model's resolved strict format: its dialect family (``None`` if none resolves or it opts
    out) and whether it is strict-capable (RES-13, RES-14)."""

    dialect: str | None
    capable: bool


class WireFormatError(ValueError):
    """A captured HTTP request body that is not of the named API's shape."""


def read_wire_request(api: str, body: Mapping[str, Any] | str | bytes, headers: Mapping[str, str] | None = None) -> WireRequest:
    """Read a captured HTTP request (JSON body and headers) of ``api`` into a :class:`WireRequest`.

    ``api`` is one of :data:`WIRE_APIS`. Keys are read in the provider's wire spelling (camelCase
    for Gemini; snake_case is accepted too).
    """
    if isinstance(body, (str, bytes)):
        try:
            body = json.loads(body)
        except ValueError as exc:
            raise WireFormatError(f"{api}: request body is not JSON: {exc}") from None
    if not isinstance(body, Mapping):
        raise WireFormatError(f"{api}: request body must be a JSON object, got {type(body).__name__}")
    header_map = {key.lower(): value for key, value in (headers or {}).items()}
    readers = {
        "openai.chat": _read_openai_chat,
        "openai.responses": _read_openai_responses,
        "anthropic.messages": _read_anthropic,
        "gemini.generate_content": _read_gemini,
    }
    try:
        reader = readers[api]
    except KeyError:
        raise WireFormatError(f"unknown api {api!r}; known: {', '.join(WIRE_APIS)}") from None
    return reader(body, header_map)


def _strict_field(api: str, where: str, container: Mapping[str, Any]) -> bool | None:
    if "strict" not in container or container["strict"] is None:
        return None
    value = container["strict"]
    if not isinstance(value, bool):
        raise WireFormatError(f"{api}: {where}.strict must be a boolean, got {value!r}")
    return value


def _list(api: str, body: Mapping[str, Any], key: str) -> Sequence[Any]:
    value = body.get(key)
    if value is None:
        return []
    if not isinstance(value, list):
        raise WireFormatError(f"{api}: {key} must be an array, got {type(value).__name__}")
    return value


def _mapping(api: str, where: str, value: object) -> Mapping[str, Any]:
    if not isinstance(value, Mapping):
        raise WireFormatError(f"{api}: {where} must be an object, got {type(value).__name__}")
    return value


def _read_openai_chat(body: Mapping[str, Any], headers: Mapping[str, str]) -> WireRequest:
    api = "openai.chat"
    tools = []
    for index, raw in enumerate(_list(api, body, "tools")):
        raw = _mapping(api, f"tools[{index}]", raw)
        if raw.get("type") != "function":
            continue  # custom and built-in tools carry no strict setting
        function = _mapping(api, f"tools[{index}].function", raw.get("function"))
        tools.append(WireTool(str(function.get("name")), _strict_field(api, f"tools[{index}].function", function), function.get("parameters")))
    response_format = body.get("response_format")
    return WireRequest(tools=tuple(tools), response_format=response_format if isinstance(response_format, Mapping) else None)


def _read_openai_responses(body: Mapping[str, Any], headers: Mapping[str, str]) -> WireRequest:
    api = "openai.responses"
    tools = []
    for index, raw in enumerate(_list(api, body, "tools")):
        raw = _mapping(api, f"tools[{index}]", raw)
        if raw.get("type") != "function":
            continue
        tools.append(WireTool(str(raw.get("name")), _strict_field(api, f"tools[{index}]", raw), raw.get("parameters")))
    text = body.get("text")
    response_format = text.get("format") if isinstance(text, Mapping) else None
    return WireRequest(tools=tuple(tools), response_format=response_format if isinstance(response_format, Mapping) else None)


def _read_anthropic(body: Mapping[str, Any], headers: Mapping[str, str]) -> WireRequest:
    api = "anthropic.messages"
    tools = []
    for index, raw in enumerate(_list(api, body, "tools")):
        raw = _mapping(api, f"tools[{index}]", raw)
        if "input_schema" not in raw:
            continue  # server tools (web_search, ...) have a type and no input schema
        tools.append(WireTool(str(raw.get("name")), _strict_field(api, f"tools[{index}]", raw), raw.get("input_schema")))
    betas = {beta.strip() for beta in headers.get("anthropic-beta", "").split(",") if beta.strip()}
    betas.update(str(beta) for beta in _list(api, body, "betas"))
    output_config = body.get("output_config")
    response_format = output_config.get("format") if isinstance(output_config, Mapping) else body.get("output_format")
    return WireRequest(tools=tuple(tools), betas=frozenset(betas), response_format=response_format if isinstance(response_format, Mapping) else None)


def _read_gemini(body: Mapping[str, Any], headers: Mapping[str, str]) -> WireRequest:
    api = "gemini.generate_content"
    tools = []
    for index, raw in enumerate(_list(api, body, "tools")):
        raw = _mapping(api, f"tools[{index}]", raw)
        declarations = raw.get("functionDeclarations", raw.get("function_declarations")) or []
        if not isinstance(declarations, list):
            raise WireFormatError(f"{api}: tools[{index}].functionDeclarations must be an array")
        for position, declaration in enumerate(declarations):
            declaration = _mapping(api, f"tools[{index}].functionDeclarations[{position}]", declaration)
            schema = next((declaration[key] for key in ("parametersJsonSchema", "parameters_json_schema", "parameters") if key in declaration), None)
            # Gemini has no per-tool strict field; one sent anyway is reported as sent.
            tools.append(WireTool(str(declaration.get("name")), _strict_field(api, f"functionDeclarations[{position}]", declaration), schema))
    tool_config = body.get("toolConfig", body.get("tool_config"))
    mode = None
    if isinstance(tool_config, Mapping):
        calling = tool_config.get("functionCallingConfig", tool_config.get("function_calling_config"))
        if isinstance(calling, Mapping) and calling.get("mode") is not None:
            mode = str(calling["mode"])
    generation = body.get("generationConfig", body.get("generation_config"))
    response_format = None
    if isinstance(generation, Mapping):
        schema = next((generation[key] for key in ("responseJsonSchema", "response_json_schema", "responseSchema", "response_schema") if key in generation), None)
        response_format = {"schema": schema} if schema is not None else None
    return WireRequest(tools=tuple(tools), function_calling_mode=mode, response_format=response_format)

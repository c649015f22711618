"""Reference strict resolution (SPEC.md §1 and §2): both conventions, as small pure functions.

Boolean convention (seeds/000): :func:`resolve_wire_strict` for one tool, :func:`build_tools_request`
for a whole request. Priority convention (seeds/001): :func:`resolve_strict_support` for a model,
:func:`plan_request` for model selection plus budget allocation. An SDK can import any of them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from strictconformance.reference.budgets import StrictCandidate, allocate_strict
from strictconformance.reference.errors import StrictPlanError, StrictSelectionError
from strictconformance.reference.models import CURATED_STRICT_MODELS, CuratedEntry, match_curated
from strictconformance.spec.resolution import PUBLISHED_BUDGETS, Budget, schema_cost
from strictconformance.wire import (
    ANTHROPIC_STRUCTURED_OUTPUTS_BETA,
    FAMILIES,
    PROVIDERS,
    InvalidStrictSetting,
    ModelSpec,
    Plan,
    PlanRequest,
    StrictSetting,
    StrictSupport,
    ToolSpec,
    ToolsRequest,
    WireRequest,
    WireTool,
    priority_of,
    validate_strict_setting,
)

__all__ = [
    "REFERENCE_DEFAULTS",
    "InvalidStrictSetting",
    "StrictPlanError",
    "StrictSelectionError",
    "StrictSetting",
    "build_tools_request",
    "plan_request",
    "priority_of",
    "resolve_strict_support",
    "resolve_wire_strict",
    "validate_strict_setting",
]

#: The seed's provider defaults (RES-2): what an unset tool under an unset config resolves to.
REFERENCE_DEFAULTS: Mapping[str, bool | None] = {"openai": True, "anthropic": True, "google": None}


# ---------------------------------------------------------------------------------------------
# Boolean convention


def resolve_wire_strict(
    tool_strict: bool | None,
    config_strict: bool | None,
    provider: str,
    *,
    supports_structured_outputs: bool = True,
    defaults: Mapping[str, bool | None] = REFERENCE_DEFAULTS,
) -> bool | None:
    """What goes on the wire for one tool: ``tool ?? config ?? default`` (RES-1, RES-2), omitted
    (``None``) for an Anthropic model without structured outputs (RES-3).

    For Google the result is the tool's resolved setting; Google has no per-tool field, so
    :func:`build_tools_request` turns it into the request's mode (RES-6).
    """
    if provider not in PROVIDERS:
        raise ValueError(f"unknown provider {provider!r}; known: {', '.join(PROVIDERS)}")
    if provider == "anthropic" and not supports_structured_outputs:
        return None
    for setting in (tool_strict, config_strict, defaults.get(provider)):
        if setting is not None:
            return setting
    return None


def build_tools_request(request: ToolsRequest, *, defaults: Mapping[str, bool | None] = REFERENCE_DEFAULTS) -> WireRequest:
    """The wire request of the boolean convention (RES-1..RES-6)."""
    for tool in request.tools:
        validate_strict_setting(tool.strict, tool_name=tool.name, allow_priority=False)
    resolved = [
        resolve_wire_strict(tool.strict, request.config_strict, request.provider,  # type: ignore[arg-type]
                            supports_structured_outputs=request.supports_structured_outputs, defaults=defaults)
        for tool in request.tools
    ]
    any_strict = any(value is True for value in resolved)
    response_format = None if request.response_schema is None else _response_format(request)
    if request.provider == "google":
        return WireRequest(
            tools=tuple(WireTool(tool.name, None, tool.input_schema) for tool in request.tools),
            function_calling_mode="VALIDATED" if any_strict else request.function_calling_mode,
            response_format=response_format,
        )
    betas = frozenset({ANTHROPIC_STRUCTURED_OUTPUTS_BETA}) if request.provider == "anthropic" and any_strict else frozenset()
    return WireRequest(
        tools=tuple(WireTool(tool.name, value, tool.input_schema) for tool, value in zip(request.tools, resolved, strict=True)),
        betas=betas,
        response_format=response_format,
    )


def _response_format(request: ToolsRequest) -> dict[str, Any]:
    schema = dict(request.response_schema or {})
    if request.provider == "openai":
        strict = True if request.config_strict is None else request.config_strict
        return {"type": "json_schema", "json_schema": {"name": "response", "schema": schema, "strict": strict}}
    if request.provider == "anthropic":
        return {"type": "json_schema", "schema": schema}  # RES-4: the API has no strict field here
    return {"schema": schema}


# ---------------------------------------------------------------------------------------------
# Priority convention


def resolve_strict_support(model: ModelSpec, *, table: Sequence[CuratedEntry] = CURATED_STRICT_MODELS) -> StrictSupport:
    """RES-13: an explicit strict format wins; unset takes the dialect from the provider name or
    the id's ``family/`` prefix, and the capability only from the curated table."""
    if model.strict_format == "none":
        return StrictSupport(None, False)
    if model.strict_format is not None:
        if model.strict_format not in FAMILIES:
            raise ValueError(f"model {model.id!r}: unknown strict format {model.strict_format!r}")
        return StrictSupport(model.strict_format, True)
    entry = match_curated(model.id, tuple(table))
    if entry is not None:
        return StrictSupport(entry.dialect, True)
    if model.provider in FAMILIES:
        return StrictSupport(model.provider, False)
    prefix = model.id.split("/", 1)[0] if "/" in model.id else None
    return StrictSupport(prefix if prefix in FAMILIES else None, False)


def plan_request(
    request: PlanRequest,
    *,
    table: Sequence[CuratedEntry] = CURATED_STRICT_MODELS,
    budgets: Mapping[str, Budget] = PUBLISHED_BUDGETS,
) -> Plan:
    """Choose a model and each tool's wire strict (RES-10..RES-12, BUD-1..BUD-6).

    Raises :class:`StrictSelectionError` when required tools find no strict-capable candidate,
    :class:`~strictconformance.reference.budgets.BudgetExceeded` when they exceed a budget alone,
    :class:`InvalidStrictSetting` for a bad setting.
    """
    for tool in request.tools:
        validate_strict_setting(tool.strict, tool_name=tool.name)
    if not request.candidates:
        raise StrictSelectionError("no candidate models to choose from")
    supports = [resolve_strict_support(model, table=table) for model in request.candidates]
    required = [tool.name for tool in request.tools if tool.strict is True]
    wanting = [tool for tool in request.tools if priority_of(tool.strict) is not None]
    capable = [index for index, support in enumerate(supports) if support.capable]
    if required and not capable:
        raise StrictSelectionError(
            f"tools {', '.join(map(repr, required))} require strict mode (strict=True) but no candidate "
            f"model is strict-capable: {', '.join(model.id for model in request.candidates)}"
        )
    chosen = capable[0] if (wanting and capable) else 0
    model, support = request.candidates[chosen], supports[chosen]
    strict_names: set[str] = set()
    if support.capable and support.dialect is not None:
        allocation = allocate_strict(
            [StrictCandidate(tool.name, priority, schema_cost(tool.input_schema))
             for tool in wanting if (priority := priority_of(tool.strict)) is not None],
            budgets.get(support.dialect),
        )
        strict_names = set(allocation.strict)
    return Plan(model, _plan_wire(request.tools, support, strict_names))


def _plan_wire(tools: Sequence[ToolSpec], support: StrictSupport, strict_names: set[str]) -> WireRequest:
    if not support.capable or support.dialect is None:
        return WireRequest(tools=tuple(WireTool(tool.name, None, tool.input_schema) for tool in tools))
    if support.dialect == "google":
        return WireRequest(
            tools=tuple(WireTool(tool.name, None, tool.input_schema) for tool in tools),
            function_calling_mode="VALIDATED" if strict_names else None,
        )
    betas = frozenset({ANTHROPIC_STRUCTURED_OUTPUTS_BETA}) if support.dialect == "anthropic" and strict_names else frozenset()
    return WireRequest(
        tools=tuple(WireTool(tool.name, tool.name in strict_names, tool.input_schema) for tool in tools),
        betas=betas,
    )

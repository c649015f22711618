"""Strategies for whole requests: boolean-convention ``ToolsRequest``s and priority-convention
``PlanRequest``s of 0-40 tools, including budget-shaped ones (uniform costs, required tools over
budget, everything fitting)."""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from strictconformance.strategies._choices import as_received, made_once, sampled
from strictconformance.wire import PROVIDERS, ModelSpec, PlanRequest, ToolSpec, ToolsRequest

from .models import explicit_models, unknown_models
from .tools import PLACEMENTS, Placement, schema_with_cost, tool_lists, tool_schemas

__all__ = [
    "ANTHROPIC_STRICT_MODEL",
    "budget_requests",
    "fitting_requests",
    "over_budget_requests",
    "plan_requests",
    "provider_configs",
    "tools_requests",
    "uniform_cost_requests",
]

#: A candidate every adapter must treat as strict-capable in the Anthropic dialect (explicit format).
ANTHROPIC_STRICT_MODEL = ModelSpec("anthropic", "claude-sonnet-4-5", "anthropic")

_RESPONSE_SCHEMA = {"type": "object", "properties": {"answer": {"type": "string"}}, "required": ["answer"],
                    "additionalProperties": False}


def provider_configs() -> st.SearchStrategy[bool | None]:
    """The provider-level strict setting (``strictJsonSchema``): unset, true or false."""
    return st.sampled_from([None, True, False])


@st.composite
def tools_requests(draw: st.DrawFn, *, providers: tuple[str, ...] = PROVIDERS, supports_structured_outputs: bool | None = None,
                   response_schema: bool | None = None, min_tools: int = 0, max_tools: int = 6,
                   config: st.SearchStrategy[bool | None] | None = None,
                   strict: st.SearchStrategy[Any] | None = None) -> ToolsRequest:
    """Boolean-convention requests. ``config`` and ``strict`` narrow the provider config and the
    per-tool settings drawn (to aim a check at the cases its rule is about)."""
    provider = as_received(draw(sampled(tuple(providers))))
    supports = draw(st.booleans()) if supports_structured_outputs is None else supports_structured_outputs
    config_strict = draw(config if config is not None else provider_configs())
    with_response = draw(st.booleans()) if response_schema is None else response_schema
    mode = draw(sampled((None, "AUTO", "ANY", "NONE"))) if provider == "google" else None
    event(f"provider: {provider}{'' if supports else ' (no structured outputs)'}")
    event(f"provider config strict: {config_strict!r}")
    return ToolsRequest(
        provider=provider,
        model={"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5" if supports else "claude-3-haiku-20240307",
               "google": "gemini-2.5-flash"}[provider],
        supports_structured_outputs=supports,
        tools=draw(tool_lists("boolean", min_size=min_tools, max_size=max_tools, strict=strict,
                              schema=tool_schemas(max_properties=3, max_depth=1))),
        config_strict=config_strict,
        response_schema=_RESPONSE_SCHEMA if with_response else None,
        function_calling_mode=mode,
    )


@made_once
def _candidates(min_size: int = 1) -> st.SearchStrategy[tuple[ModelSpec, ...]]:
    return st.lists(st.one_of(explicit_models(), unknown_models()), min_size=min_size, max_size=4).map(tuple)


@st.composite
def plan_requests(draw: st.DrawFn, *, strict: st.SearchStrategy[Any] | None = None, min_tools: int = 0, max_tools: int = 8,
                  schema: st.SearchStrategy[dict[str, Any]] | None = None,
                  candidates: st.SearchStrategy[tuple[ModelSpec, ...]] | None = None) -> PlanRequest:
    """Priority-convention requests over candidates whose strict support RES-13 alone decides."""
    tools = draw(tool_lists("priority", min_size=min_tools, max_size=max_tools, strict=strict,
                            schema=schema if schema is not None else tool_schemas(max_properties=2, max_depth=1)))
    chosen = draw(candidates if candidates is not None else _candidates())
    return PlanRequest(tools=tools, candidates=chosen)


_PRESSURES = {
    # which budget binds first: per-tool (optional, union) cost ranges
    "tool count": ((0, 1), (0, 0)),
    "optional parameters": ((1, 4), (0, 1)),
    "union-typed parameters": ((0, 1), (1, 4)),
    "mixed": ((0, 3), (0, 2)),
}
# Budget-check priorities: few distinct values, so ties and orderings are common. Ordered simplest
# first (what a failing example shrinks towards); `true` last, about one tool in ten.
_BUDGET_SETTINGS: tuple[Any, ...] = (1, None, 2, 3, 4, 5, False, 2.5, True)


def _tool_codes(optional: tuple[int, int], union: tuple[int, int], *, required: bool = True) -> st.SearchStrategy[int]:
    """One integer per tool, decoded by :func:`_decode_tool`: one draw per tool keeps 40-tool
    requests cheap to generate and quick to shrink."""
    settings = len(_BUDGET_SETTINGS) - (0 if required else 1)
    size = settings * len(PLACEMENTS) * (union[1] - union[0] + 1) * (optional[1] - optional[0] + 1)
    return st.integers(0, size - 1)


def _decode(code: int, optional: tuple[int, int], union: tuple[int, int], *,
            required: bool = True) -> tuple[Any, Placement, int, int]:
    """A tool code's strict setting, placement, and optional and union-typed parameter counts."""
    settings = len(_BUDGET_SETTINGS) - (0 if required else 1)
    code, setting = divmod(code, settings)
    code, placement = divmod(code, len(PLACEMENTS))
    extra_optional, extra_union = divmod(code, union[1] - union[0] + 1)
    return _BUDGET_SETTINGS[setting], PLACEMENTS[placement], optional[0] + extra_optional, union[0] + extra_union


def _decode_tool(index: int, code: int, optional: tuple[int, int], union: tuple[int, int], *, required: bool = True) -> ToolSpec:
    setting, placement, optional_count, union_count = _decode(code, optional, union, required=required)
    return ToolSpec(f"tool_{index:02d}", schema_with_cost(optional_count, union_count, placement=placement), setting)


@st.composite
def budget_requests(draw: st.DrawFn, *, max_tools: int = 40) -> PlanRequest:
    """0-40 tools for one strict-capable Anthropic candidate, with costs chosen so that each budget
    (tool count, optional, union-typed) is the binding one in some requests; about one tool in nine
    is ``strict=True``."""
    pressure = draw(sampled(tuple(sorted(_PRESSURES))))
    optional, union = _PRESSURES[pressure]
    size = draw(st.integers(0, max_tools))  # drawn first: long requests, where budgets bind, are common
    codes = draw(st.lists(_tool_codes(optional, union), min_size=size, max_size=size))
    event(f"budget request: {pressure} pressure")
    event(f"budget request: {_size_label(size)} tools")
    tools = tuple(_decode_tool(index, code, optional, union) for index, code in enumerate(codes))
    _placement_events(tools)
    return PlanRequest(tools=tools, candidates=(ANTHROPIC_STRICT_MODEL,))


def _placement_events(tools: tuple[ToolSpec, ...]) -> None:
    """One event per place a costed property sits in (SPEC §2 counts them all)."""
    for where in sorted({_placement_of(tool.input_schema) for tool in tools}):
        event(f"budget request: costed properties {where}")


def _placement_of(schema: Mapping[str, Any]) -> str:
    wrapper = schema["properties"].get("inner")
    if wrapper is None:
        return "flat"
    return "in array items" if "items" in wrapper else "in an anyOf branch" if "anyOf" in wrapper else "in a nested object"


def _size_label(size: int) -> str:
    return "0" if size == 0 else "1-5" if size <= 5 else "6-20" if size <= 20 else "21-40"


@st.composite
def uniform_cost_requests(draw: st.DrawFn, *, max_tools: int = 40) -> PlanRequest:
    """Tools that all cost the same, with assorted priorities (the first few ``true``), for one
    strict-capable Anthropic candidate: the strict tools must be a prefix of the priority order (BUD-2)."""
    optional, union, placement = draw(st.tuples(st.integers(0, 3), st.integers(0, 2), sampled(PLACEMENTS)))
    size = draw(st.integers(0, max_tools))
    settings = draw(st.lists(st.integers(0, len(_BUDGET_SETTINGS) - 2), min_size=size, max_size=size))
    required_count = draw(st.integers(0, 3))
    schema = schema_with_cost(optional, union, placement=placement)
    tools = tuple(ToolSpec(f"tool_{index:02d}", schema, True if index < required_count else _BUDGET_SETTINGS[setting])
                  for index, setting in enumerate(settings))
    return PlanRequest(tools=tools, candidates=(ANTHROPIC_STRICT_MODEL,))


_BUDGET_LIMITS = {"max_strict_tools": 20, "max_optional_params": 24, "max_union_params": 16}


@st.composite
def over_budget_requests(draw: st.DrawFn) -> tuple[PlanRequest, str]:
    """Requests whose ``strict=True`` tools alone exceed one of Anthropic's budgets, with the name of
    the budget they exceed (BUD-5); a few other tools are mixed in."""
    budget = draw(sampled(tuple(sorted(_BUDGET_LIMITS))))
    limit = _BUDGET_LIMITS[budget]
    if budget == "max_strict_tools":
        costs = [(0, 0)] * draw(st.integers(limit + 1, limit + 5))
    else:
        count = draw(st.integers(2, 6))
        per_tool = -(-(limit + 1) // count)  # ceil: the required tools together go over
        # one union-typed parameter each beside the optional ones (at most 6 of 16): room for an
        # anyOf placement, so a counter that skips anyOf branches is caught here too
        costs = [(per_tool, 1) if budget == "max_optional_params" else (0, per_tool)] * count
    event(f"over budget: {budget}")
    placements = draw(st.lists(sampled(PLACEMENTS), min_size=len(costs), max_size=len(costs)))
    required = [ToolSpec(f"must_{index:02d}", schema_with_cost(optional, union, placement=where), True)
                for index, ((optional, union), where) in enumerate(zip(costs, placements, strict=True))]
    _placement_events(tuple(required))
    others = [dataclasses.replace(_decode_tool(index, code, (0, 2), (0, 0), required=False), name=f"may_{index:02d}")
              for index, code in enumerate(draw(st.lists(_tool_codes((0, 2), (0, 0), required=False), max_size=3)))]
    order = draw(st.permutations(range(len(required) + len(others))))
    pool = required + others
    return PlanRequest(tools=tuple(pool[index] for index in order), candidates=(ANTHROPIC_STRICT_MODEL,)), budget


@st.composite
def fitting_requests(draw: st.DrawFn) -> PlanRequest:
    """Requests whose strict-wanting tools all fit every Anthropic budget together (BUD-6): at most
    20 tools, at most 24 optional and 16 union-typed parameters in all."""
    size = draw(st.integers(0, 20))
    codes = draw(st.lists(_tool_codes((0, 3), (0, 2)), min_size=size, max_size=size))
    optional_left, union_left = _BUDGET_LIMITS["max_optional_params"], _BUDGET_LIMITS["max_union_params"]
    tools = []
    for index, code in enumerate(codes):  # clip each tool's cost to what is left
        setting, placement, wanted_optional, wanted_union = _decode(code, (0, 3), (0, 2))
        optional, union = min(wanted_optional, optional_left), min(wanted_union, union_left)
        optional_left, union_left = optional_left - optional, union_left - union
        tools.append(ToolSpec(f"tool_{index:02d}", schema_with_cost(optional, union, placement=placement), setting))
    _placement_events(tuple(tools))
    return PlanRequest(tools=tuple(tools), candidates=(ANTHROPIC_STRICT_MODEL,))

"""Strategies for whole requests: boolean-convention ``ToolsRequest``s and priority-convention
``PlanRequest``s of 0-40 tools, including budget-shaped ones (uniform costs, required tools over
budget, everything fitting)."""

from __future__ import annotations

from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from strictconformance.wire import PROVIDERS, ModelSpec, PlanRequest, ToolSpec, ToolsRequest

from .models import explicit_models, unknown_models
from .tools import costed_schemas, strict_settings, tool_lists, tool_schemas

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
                   response_schema: bool | None = None, max_tools: int = 6) -> ToolsRequest:
    """Boolean-convention requests."""
    provider = draw(st.sampled_from(providers))
    supports = draw(st.booleans()) if supports_structured_outputs is None else supports_structured_outputs
    config = draw(provider_configs())
    with_response = draw(st.booleans()) if response_schema is None else response_schema
    mode = draw(st.sampled_from([None, "AUTO", "ANY", "NONE"])) if provider == "google" else None
    event(f"provider: {provider}{'' if supports else ' (no structured outputs)'}")
    event(f"provider config strict: {config!r}")
    return ToolsRequest(
        provider=provider,
        model={"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5" if supports else "claude-3-haiku-20240307",
               "google": "gemini-2.5-flash"}[provider],
        supports_structured_outputs=supports,
        tools=draw(tool_lists("boolean", max_size=max_tools, schema=tool_schemas(max_properties=3, max_depth=1))),
        config_strict=config,
        response_schema=_RESPONSE_SCHEMA if with_response else None,
        function_calling_mode=mode,
    )


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


@st.composite
def budget_requests(draw: st.DrawFn, *, max_tools: int = 40, required: st.SearchStrategy[bool] | None = None) -> PlanRequest:
    """0-40 tools for one strict-capable Anthropic candidate, with costs chosen so that each budget
    (tool count, optional, union-typed) is the binding one in some requests. ``required`` draws, per
    tool, whether it is ``strict=True`` (rarely, by default)."""
    pressure = draw(st.sampled_from(sorted(_PRESSURES)))
    (optional_low, optional_high), (union_low, union_high) = _PRESSURES[pressure]
    size = draw(st.integers(min_value=0, max_value=max_tools))
    event(f"budget request: {pressure} pressure")
    event(f"budget request: {_size_label(size)} tools")
    wants_required = required if required is not None else st.integers(0, 9).map(lambda n: n == 0)
    tools = []
    for index in range(size):
        setting = True if draw(wants_required) else draw(strict_settings("priority", required=False))
        cost = (draw(st.integers(optional_low, optional_high)), draw(st.integers(union_low, union_high)))
        tools.append(ToolSpec(f"tool_{index:02d}", draw(costed_schemas(*cost)), setting))
    return PlanRequest(tools=tuple(tools), candidates=(ANTHROPIC_STRICT_MODEL,))


def _size_label(size: int) -> str:
    return "0" if size == 0 else "1-5" if size <= 5 else "6-20" if size <= 20 else "21-40"


@st.composite
def uniform_cost_requests(draw: st.DrawFn, *, max_tools: int = 40) -> PlanRequest:
    """Tools that all share one schema (equal costs) with assorted priorities, for one strict-capable
    Anthropic candidate: the strict tools must then be a prefix of the priority order (BUD-2)."""
    schema = draw(tool_schemas(max_properties=3, max_depth=0))
    size = draw(st.integers(min_value=0, max_value=max_tools))
    settings = draw(st.lists(st.one_of(st.integers(1, 4), st.sampled_from([None, False])), min_size=size, max_size=size))
    required_count = draw(st.integers(0, 3))
    tools = tuple(
        ToolSpec(f"tool_{index:02d}", schema, True if index < required_count else setting)
        for index, setting in enumerate(settings)
    )
    return PlanRequest(tools=tools, candidates=(ANTHROPIC_STRICT_MODEL,))


_BUDGET_LIMITS = {"max_strict_tools": 20, "max_optional_params": 24, "max_union_params": 16}


@st.composite
def over_budget_requests(draw: st.DrawFn) -> tuple[PlanRequest, str]:
    """Requests whose ``strict=True`` tools alone exceed one of Anthropic's budgets, with the name of
    a budget they exceed (BUD-5). Other tools may be mixed in."""
    budget = draw(st.sampled_from(sorted(_BUDGET_LIMITS)))
    limit = _BUDGET_LIMITS[budget]
    if budget == "max_strict_tools":
        count = draw(st.integers(limit + 1, limit + 5))
        costs = [(0, 0)] * count
    else:
        count = draw(st.integers(2, 6))
        per_tool = -(-(limit + 1) // count)  # ceil: the required tools together go one or more over
        costs = [(per_tool, 0) if budget == "max_optional_params" else (0, per_tool)] * count
    event(f"over budget: {budget}")
    required = [ToolSpec(f"must_{index:02d}", draw(costed_schemas(optional, union)), True)
                for index, (optional, union) in enumerate(costs)]
    others = [ToolSpec(f"may_{index:02d}", draw(tool_schemas(max_properties=2, max_depth=0)),
                       draw(strict_settings("priority", required=False)))
              for index in range(draw(st.integers(0, 3)))]
    tools = tuple(draw(st.permutations(required + others)))
    return PlanRequest(tools=tools, candidates=(ANTHROPIC_STRICT_MODEL,)), budget


@st.composite
def fitting_requests(draw: st.DrawFn) -> PlanRequest:
    """Requests whose strict-wanting tools all fit every Anthropic budget together (BUD-6)."""
    size = draw(st.integers(0, 20))
    optional_left, union_left = _BUDGET_LIMITS["max_optional_params"], _BUDGET_LIMITS["max_union_params"]
    tools = []
    for index in range(size):
        optional = draw(st.integers(0, min(3, optional_left)))
        union = draw(st.integers(0, min(2, union_left)))
        optional_left -= optional
        union_left -= union
        tools.append(ToolSpec(f"tool_{index:02d}", draw(costed_schemas(optional, union)),
                              draw(strict_settings("priority", unset=True))))
    return PlanRequest(tools=tuple(tools), candidates=(ANTHROPIC_STRICT_MODEL,))

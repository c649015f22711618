"""The RES/BUD strategies build what they promise and reach every feature the checks need."""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strictconformance.reference.errors import InvalidStrictSetting
from strictconformance.reference.resolution import (
    priority_of,
    resolve_strict_support,
    validate_strict_setting,
)
from strictconformance.spec.resolution import ANTHROPIC_BUDGET, schema_cost
from strictconformance.strategies.models import curated_models, models_with_support
from strictconformance.strategies.requests import (
    budget_requests,
    fitting_requests,
    over_budget_requests,
    plan_requests,
    tools_requests,
    uniform_cost_requests,
)
from strictconformance.strategies.tools import (
    PLACEMENTS,
    Placement,
    invalid_strict_settings,
    schema_with_cost,
    strict_settings,
    tool_schemas,
)

_SWEEP = settings(max_examples=300, derandomize=True, database=None, deadline=None,
                  suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])


def _reach(strategy: st.SearchStrategy[Any], features: Callable[[Any], set[str]]) -> set[str]:
    seen: set[str] = set()

    @_SWEEP
    @given(strategy)
    def collect(value: Any) -> None:
        seen.update(features(value))

    collect()
    return seen


@given(st.integers(0, 6), st.integers(0, 6), st.sampled_from(PLACEMENTS), st.integers(0, 3))
def test_schema_with_cost_costs_exactly_what_it_says(optional: int, union: int, placement: Placement, plain: int) -> None:
    cost = schema_cost(schema_with_cost(optional, union, placement=placement, plain=plain))
    assert (cost.optional_params, cost.union_params) == (optional, union)


def _budget_shapes(request: Any) -> set[str]:
    """Where a request's costed properties sit and which union forms they use: what a counter
    must walk into (SPEC §2: every property at any depth; anyOf, oneOf and type lists)."""
    found = set()
    for tool in request.tools:
        stack = [(tool.input_schema, "top")]
        while stack:
            node, where = stack.pop()
            for name, sub in node.get("properties", {}).items():
                if name not in node.get("required", []):
                    found.add(f"optional {where}")
                for form in ("anyOf", "oneOf"):
                    if form in sub:
                        found.add(f"union {form}")
                if isinstance(sub.get("type"), list):
                    found.add("union type-list")
                if sub.get("type") == "object":
                    stack.append((sub, "in object"))
                if isinstance(sub.get("items"), dict):
                    stack.append((sub["items"], "in array items"))
                stack.extend((branch, "in anyOf branch") for branch in sub.get("anyOf", []) if "properties" in branch)
    return found


_EVERY_SHAPE = {"optional top", "optional in object", "optional in array items", "optional in anyOf branch",
                "union anyOf", "union oneOf", "union type-list"}


def test_budget_strategies_put_costed_properties_everywhere_a_counter_must_look() -> None:
    assert _reach(budget_requests(), _budget_shapes) == _EVERY_SHAPE
    assert _reach(fitting_requests(), _budget_shapes) == _EVERY_SHAPE
    assert _reach(uniform_cost_requests(), _budget_shapes) == _EVERY_SHAPE
    assert _reach(over_budget_requests().map(lambda case: case[0]), _budget_shapes) == _EVERY_SHAPE


def test_schema_cost_counts_at_any_depth() -> None:
    schema = {
        "type": "object", "required": ["a"],
        "properties": {
            "a": {"type": "array", "items": {"type": "object", "properties": {"x": {"type": ["string", "null"]}}, "required": []}},
            "b": {"anyOf": [{"type": "object", "properties": {"y": {"oneOf": [{"type": "string"}, {"type": "integer"}]}},
                                                              "required": ["y"]}, {"type": "null"}]},
        },
        "$defs": {"D": {"type": "object", "properties": {"z": {"type": "integer"}}}},
    }
    cost = schema_cost(schema)
    # optional: a.x, b, D.z; union: a.x (type list), b (anyOf), y (oneOf)
    assert (cost.optional_params, cost.union_params) == (3, 3)


def test_strict_settings_are_valid_and_invalid_ones_are_not() -> None:
    @_SWEEP
    @given(strict_settings("priority"), invalid_strict_settings("priority"), invalid_strict_settings("boolean"))
    def check(valid: Any, invalid: Any, invalid_boolean: Any) -> None:
        assert validate_strict_setting(valid) == valid or (isinstance(valid, float) and math.isnan(valid))
        for value, allow in ((invalid, True), (invalid_boolean, False)):
            try:
                validate_strict_setting(value, tool_name="t", allow_priority=allow)
            except InvalidStrictSetting as error:
                assert "tool 't'" in str(error)
            else:
                raise AssertionError(f"{value!r} accepted")

    check()


def test_tool_schemas_reach_every_feature() -> None:
    def features(schema: dict[str, Any]) -> set[str]:
        found = set()
        cost = schema_cost(schema)
        found |= {"optional"} if cost.optional_params else set()
        found |= {"union"} if cost.union_params else set()
        text = repr(schema)
        found |= {name for name in ("anyOf", "'null'", "enum", "'array'", "'integer'", "'boolean'") if name in text}
        found |= {"nested"} if any(p.get("type") == "object" for p in schema["properties"].values()) else set()
        return found

    assert _reach(tool_schemas(), features) == {"optional", "union", "anyOf", "'null'", "enum", "'array'", "'integer'",
                                                 "'boolean'", "nested"}


def test_tools_requests_reach_every_provider_and_setting() -> None:
    def features(request: Any) -> set[str]:
        found = {f"provider:{request.provider}", f"config:{request.config_strict}", f"so:{request.supports_structured_outputs}"}
        found |= {f"tool:{tool.strict}" for tool in request.tools}
        found |= {"response_schema"} if request.response_schema else set()
        found |= {f"mode:{request.function_calling_mode}"} if request.provider == "google" else set()
        return found

    seen = _reach(tools_requests(), features)
    assert {"provider:openai", "provider:anthropic", "provider:google", "config:None", "config:True", "config:False",
            "so:True", "so:False", "tool:None", "tool:True", "tool:False", "response_schema", "mode:None",
            "mode:AUTO", "mode:ANY", "mode:NONE"} <= seen


def test_budget_requests_bind_every_budget() -> None:
    def features(request: Any) -> set[str]:
        wanting = [t for t in request.tools if priority_of(t.strict) is not None]
        costs = [schema_cost(t.input_schema) for t in wanting]
        found = set()
        if len(wanting) > 20:
            found.add("tools over 20")
        if sum(c.optional_params for c in costs) > 24:
            found.add("optional over 24")
        if sum(c.union_params for c in costs) > 16:
            found.add("union over 16")
        found |= {"true"} if any(t.strict is True for t in request.tools) else set()
        found |= {"false"} if any(t.strict is False for t in request.tools) else set()
        found |= {"float"} if any(isinstance(t.strict, float) for t in request.tools) else set()
        return found

    assert _reach(budget_requests(), features) == {"tools over 20", "optional over 24", "union over 16", "true", "false", "float"}


def test_shaped_budget_requests_are_what_they_claim() -> None:
    @_SWEEP
    @given(over_budget_requests(), fitting_requests(), uniform_cost_requests())
    def check(over: Any, fitting: Any, uniform: Any) -> None:
        request, budget_name = over
        required = [schema_cost(t.input_schema) for t in request.tools if t.strict is True]
        used = {"max_strict_tools": len(required), "max_optional_params": sum(c.optional_params for c in required),
                "max_union_params": sum(c.union_params for c in required)}
        assert used[budget_name] > getattr(ANTHROPIC_BUDGET, budget_name)
        wanting = [schema_cost(t.input_schema) for t in fitting.tools if priority_of(t.strict) is not None]
        assert len(wanting) <= 20
        assert sum(c.optional_params for c in wanting) <= 24 and sum(c.union_params for c in wanting) <= 16
        assert len({repr(t.input_schema) for t in uniform.tools}) <= 1

    check()


def test_model_strategies_agree_with_spec() -> None:
    @_SWEEP
    @given(models_with_support(), curated_models())
    def check(case: Any, curated: Any) -> None:
        for model, expected in (case, curated):
            support = resolve_strict_support(model)
            assert support.capable == expected.capable
            if expected.capable or model.strict_format not in (None, "none"):
                assert support.dialect == expected.dialect

    check()


def test_plan_requests_have_distinct_tool_names() -> None:
    @_SWEEP
    @given(plan_requests(max_tools=8))
    def check(request: Any) -> None:
        names = [tool.name for tool in request.tools]
        assert len(names) == len(set(names))
        assert not any(a != b and b.startswith(a) for a in names for b in names)

    check()

"""Checks of SPEC §2 (BUD-1..BUD-6): per-request budgets on an Anthropic strict-capable model.

Costs are counted on the schemas as they go on the wire (``schema_cost``, the SPEC's counting).
BUD-3 is the reference's exact greedy policy and runs only where the adapter declares it.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from hypothesis import given

from strictconformance.adapter import Declarations
from strictconformance.checks._support import cost_on_wire, wire_tools
from strictconformance.harness import Harness, check
from strictconformance.spec.resolution import Budget, SchemaCost, schema_cost
from strictconformance.strategies.requests import (
    ANTHROPIC_STRICT_MODEL,
    budget_requests,
    fitting_requests,
    over_budget_requests,
    uniform_cost_requests,
)
from strictconformance.wire import Plan, PlanRequest, ToolSpec, priority_of


def _one(cost: SchemaCost) -> int:
    return 1


def _optional(cost: SchemaCost) -> int:
    return cost.optional_params


def _union(cost: SchemaCost) -> int:
    return cost.union_params


# What each tool uses of each budget.
_DIMENSIONS: dict[str, Callable[[SchemaCost], int]] = {
    "max_strict_tools": _one,
    "max_optional_params": _optional,
    "max_union_params": _union,
}
# How an error may name each budget (case-insensitive), besides its field name and its limit. The
# tool-count budget needs more than the word "tools": every BUD-5 error names the tools.
_BUDGET_WORDS = {
    "max_strict_tools": r"tool count|number of (?:strict )?tools|too many (?:strict )?tools|\d+ strict tools|strict tools? (?:limit|budget|cap)",
    "max_optional_params": r"optional",
    "max_union_params": r"union",
}


def _names_budget(message: str, name: str, limit: int, tools: list[str]) -> bool:
    """Whether ``message`` names budget ``name``: by its words, its field name or its limit as a
    number of its own (tool names such as ``must_20`` taken out first)."""
    for tool in sorted(tools, key=len, reverse=True):
        message = message.replace(tool, "<tool>")
    return bool(re.search(_BUDGET_WORDS[name], message, re.IGNORECASE) or name in message
                or re.search(rf"(?<![\w.]){limit}(?![\w.])", message))


def _anthropic_budget(declarations: Declarations) -> str | None:
    if declarations.budgets.get("anthropic") is None:
        return "the adapter declares no Anthropic budget (budgets)"
    return None


def _greedy_policy(declarations: Declarations) -> str | None:
    if declarations.allocation_policy != "greedy":
        return "the adapter does not declare allocation_policy = 'greedy' (BUD-3 is that exact policy)"
    return _anthropic_budget(declarations)


def _budget(strictconformance_harness: Harness) -> Budget:
    budget = strictconformance_harness.declarations.budgets["anthropic"]  # present: every check here requires it
    return budget


def _plan(strictconformance_harness: Harness, request: PlanRequest) -> Plan | BaseException:
    attempt = strictconformance_harness.attempt("plan_request", request, allowed=strictconformance_harness.declarations.rejection_errors)
    return attempt.error if attempt.error is not None else attempt.value


def _strict_set(strictconformance_harness: Harness, request: PlanRequest, plan: Plan) -> dict[str, SchemaCost]:
    """Names of the tools shipping strict, with their cost on the wire."""
    wired = wire_tools(strictconformance_harness, plan.request, request.tools)
    return {tool.name: cost_on_wire(tool, wired[tool.name]) for tool in request.tools if wired[tool.name].strict is True}


def _requires_plan(strictconformance_harness: Harness, request: PlanRequest, outcome: Plan | BaseException) -> Plan:
    __tracebackhide__ = True
    strictconformance_harness.expect(isinstance(outcome, Plan), f"the adapter refused a request it can serve: {type(outcome).__name__}: {outcome}",
                                     detail="refused a request it can serve")
    assert isinstance(outcome, Plan)
    return outcome


def _order_key(indexed: tuple[int, ToolSpec]) -> tuple[float, int]:
    index, tool = indexed
    return (-(priority_of(tool.strict) or 0.0), index)


def _walk_order(request: PlanRequest) -> list[ToolSpec]:
    """BUD-2: true first, then priorities high to low, ties in declaration order."""
    wanting = [(index, tool) for index, tool in enumerate(request.tools) if priority_of(tool.strict) is not None]
    return [tool for _, tool in sorted(wanting, key=_order_key)]


def _required_costs(request: PlanRequest) -> list[SchemaCost]:
    return [schema_cost(tool.input_schema) for tool in request.tools if tool.strict is True]


def _exceeded_by_required(request: PlanRequest, budget: Budget) -> list[str]:
    """The budgets the strict=true tools alone exceed."""
    costs = _required_costs(request)
    return [name for name in budget.names() if sum(_DIMENSIONS[name](cost) for cost in costs) > getattr(budget, name)]


@check("BUD-1", requires=_anthropic_budget)
@given(request=budget_requests())
def test_bud_1_strict_tools_stay_within_budgets(strictconformance_harness: Harness, request: PlanRequest) -> None:
    budget = _budget(strictconformance_harness)
    outcome = _plan(strictconformance_harness, request)
    if not isinstance(outcome, Plan):
        return  # refusing is always within budget; BUD-5 decides when it must
    strict = _strict_set(strictconformance_harness, request, outcome)
    for name in budget.names():
        used = sum(_DIMENSIONS[name](cost) for cost in strict.values())
        limit = getattr(budget, name)
        strictconformance_harness.expect(used <= limit, detail=f"strict tools over {name}", message=(
            f"the strict tools use {used} against {name} = {limit}: {sorted(strict)} "
            f"(costs: {{{', '.join(f'{k}: {v.optional_params} optional/{v.union_params} union' for k, v in strict.items())}}})"))


@check("BUD-2", requires=_anthropic_budget)
@given(request=uniform_cost_requests())
def test_bud_2_priority_order_with_equal_costs(strictconformance_harness: Harness, request: PlanRequest) -> None:

    plan = _requires_plan(strictconformance_harness, request, _plan(strictconformance_harness, request))
    strict = _strict_set(strictconformance_harness, request, plan)
    order = [tool.name for tool in _walk_order(request)]
    shipped = [name for name in order if name in strict]
    strictconformance_harness.expect(shipped == order[: len(shipped)], detail="strict tools out of priority order", message=(
        f"with equal costs the strict tools must be the first of the order true-first, then high-to-low, ties in "
        f"declaration order: {order}; the adapter ships strict {shipped}"))


def _greedy(request: PlanRequest, budget: Budget) -> list[str]:
    """BUD-3's policy, stated as the check reads SPEC §2: each tool in order ships strict when it
    still fits every remaining budget."""
    remaining = {name: getattr(budget, name) for name in budget.names()}
    shipped = []
    for tool in _walk_order(request):
        cost = schema_cost(tool.input_schema)
        needs = {name: _DIMENSIONS[name](cost) for name in remaining}
        if tool.strict is True or all(needs[name] <= remaining[name] for name in remaining):
            shipped.append(tool.name)
            remaining = {name: remaining[name] - needs[name] for name in remaining}
    return shipped


@check("BUD-3", requires=_greedy_policy)
@given(request=budget_requests())
def test_bud_3_greedy_fit(strictconformance_harness: Harness, request: PlanRequest) -> None:
    budget = _budget(strictconformance_harness)
    if _exceeded_by_required(request, budget):
        return  # BUD-5
    plan = _requires_plan(strictconformance_harness, request, _plan(strictconformance_harness, request))
    expected = _greedy(request, budget)
    actual = [tool.name for tool in _walk_order(request) if tool.name in _strict_set(strictconformance_harness, request, plan)]
    strictconformance_harness.expect(actual == expected, detail="not the greedy fit", message=(
        f"greedy fit ships strict {expected}; the adapter ships {actual} "
        f"(missing {sorted(set(expected) - set(actual))}, extra {sorted(set(actual) - set(expected))})"))


@check("BUD-3", requires=_greedy_policy)
def test_bud_3_twenty_five_equal_tools(strictconformance_harness: Harness) -> None:
    """seeds/001: 25 tools, the first five priority 100, the rest 1: tools 0-19 strict, 20-24 lenient."""
    schema = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False}
    tools = tuple(ToolSpec(f"tool-{index}", schema, 100 if index < 5 else 1) for index in range(25))
    request = PlanRequest(tools, (ANTHROPIC_STRICT_MODEL,))
    plan = _requires_plan(strictconformance_harness, request, _plan(strictconformance_harness, request))
    strict = _strict_set(strictconformance_harness, request, plan)
    expected = [f"tool-{index}" for index in range(20)]
    strictconformance_harness.expect(sorted(strict, key=lambda n: int(n.split("-")[1])) == expected, detail="seeds/001: not tools 0-19 strict", message=(
        f"expected tools 0-19 strict and 20-24 lenient; strict: {sorted(strict, key=lambda n: int(n.split('-')[1]))}"))


@check("BUD-4", requires=_anthropic_budget)
@given(request=budget_requests())
def test_bud_4_no_cheaper_higher_priority_left_lenient(strictconformance_harness: Harness, request: PlanRequest) -> None:
    budget = _budget(strictconformance_harness)
    outcome = _plan(strictconformance_harness, request)
    if not isinstance(outcome, Plan):
        return
    strict = _strict_set(strictconformance_harness, request, outcome)
    wired = wire_tools(strictconformance_harness, outcome.request, request.tools)
    costs = {tool.name: cost_on_wire(tool, wired[tool.name]) for tool in request.tools}
    wanting = [tool for tool in request.tools if priority_of(tool.strict) is not None]
    for higher in wanting:
        if higher.name in strict:
            continue
        for lower in wanting:
            if lower.name not in strict or (priority_of(lower.strict) or 0) >= (priority_of(higher.strict) or 0):
                continue
            no_dearer = all(_DIMENSIONS[name](costs[higher.name]) <= _DIMENSIONS[name](costs[lower.name]) for name in budget.names())
            strictconformance_harness.expect(not no_dearer, detail="a cheaper higher-priority tool left lenient", message=(
                f"{higher.name!r} (strict={higher.strict!r}) ships lenient while {lower.name!r} "
                f"(strict={lower.strict!r}), which costs at least as much on every budget, ships strict"))


@check("BUD-5", requires=_anthropic_budget)
@given(case=over_budget_requests())
def test_bud_5_required_over_budget_is_an_error(strictconformance_harness: Harness, case: tuple[PlanRequest, str]) -> None:
    request, _ = case
    budget = _budget(strictconformance_harness)
    exceeded = _exceeded_by_required(request, budget)
    if not exceeded:
        return  # the adapter declares a larger budget than the published one
    required = [tool.name for tool in request.tools if tool.strict is True]
    outcome = _plan(strictconformance_harness, request)
    if isinstance(outcome, Plan):
        wired = wire_tools(strictconformance_harness, outcome.request, request.tools)
        lenient = [name for name in required if wired[name].strict is not True]
        strictconformance_harness.fail(f"the strict=true tools alone exceed {', '.join(exceeded)}, yet the adapter "
                f"sent the request" + (f" with required tools lenient: {lenient}" if lenient else " over budget"),
                detail="required strict tools over budget sent" + (" with some lenient" if lenient else ""))
    message = str(outcome)
    names_budget = any(_names_budget(message, name, getattr(budget, name), [tool.name for tool in request.tools])
                       for name in exceeded)
    strictconformance_harness.expect(names_budget, f"the error does not name the exceeded budget ({', '.join(exceeded)}): {message}",
                                     detail="the error does not name the exceeded budget")
    missing = [name for name in required if name not in message]
    strictconformance_harness.expect(not missing, f"the error does not name the required tools {missing}: {message}",
                                     detail="the error does not name the required tools")


@check("BUD-6", requires=_anthropic_budget)
@given(request=fitting_requests())
def test_bud_6_everything_fits_everything_ships_strict(strictconformance_harness: Harness, request: PlanRequest) -> None:

    plan = _requires_plan(strictconformance_harness, request, _plan(strictconformance_harness, request))
    strict = _strict_set(strictconformance_harness, request, plan)
    wanting = [tool.name for tool in request.tools if priority_of(tool.strict) is not None]
    lenient = [name for name in wanting if name not in strict]
    strictconformance_harness.expect(not lenient, detail="fitting strict-wanting tools left lenient", message=(
        f"every strict-wanting tool fits the budgets together, yet {lenient} ship lenient on {plan.model.id!r}"))


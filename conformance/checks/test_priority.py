"""Checks of SPEC §1, priority convention (RES-10..RES-12): model selection and lenient fallback.

Candidates here have explicit strict formats or unknown ids, so RES-13 alone decides which are
strict-capable; the curated table (RES-14) is checked on its own.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strictconformance.checks._support import implements, ships_strict, wire_tool
from strictconformance.harness import Harness, check
from strictconformance.strategies.models import expected_support
from strictconformance.strategies.requests import plan_requests
from strictconformance.strategies.tools import strict_settings, tool_schemas
from strictconformance.wire import (
    ANTHROPIC_STRUCTURED_OUTPUTS_BETA,
    ModelSpec,
    Plan,
    PlanRequest,
    StrictSupport,
    ToolSpec,
    priority_of,
)

# Small tools, at most a few required ones: budgets (BUD-*) never decide these checks.
_SMALL = tool_schemas(max_properties=2, max_depth=0, optional=False, unions=False)


def _plan(strictconformance_harness: Harness, request: PlanRequest) -> Plan | BaseException:
    attempt = strictconformance_harness.attempt("plan_request", request, allowed=strictconformance_harness.declarations.rejection_errors)
    return attempt.error if attempt.error is not None else attempt.value


def _chosen_support(strictconformance_harness: Harness, request: PlanRequest, plan: Plan) -> StrictSupport:
    strictconformance_harness.expect(plan.model in request.candidates, f"the plan chose {plan.model}, which is not one of the candidates",
                                     detail="chose a model that is not a candidate")
    return expected_support(plan.model)


@check("RES-10")
@given(request=plan_requests(strict=st.sampled_from([True, True, False, None, 2, 0.5]), min_tools=1, max_tools=5, schema=_SMALL))
def test_res_10_required_strict_filters_or_fails(strictconformance_harness: Harness, request: PlanRequest) -> None:
    required = [tool.name for tool in request.tools if tool.strict is True]
    if not required:
        return
    capable = [model for model in request.candidates if expected_support(model).capable]
    outcome = _plan(strictconformance_harness, request)
    if not capable:
        strictconformance_harness.expect(isinstance(outcome, BaseException), detail="planned required strict with no capable candidate", message=(
            f"tools {required} require strict but no candidate is strict-capable; the adapter planned {outcome} "
            "instead of failing"))
        message = str(outcome)
        strictconformance_harness.expect(any(name in message for name in required), detail="the error does not name a required tool", message=(
            f"the error does not name a required tool ({', '.join(required)}): {type(outcome).__name__}: {message}"))
        return
    strictconformance_harness.expect(isinstance(outcome, Plan), detail="refused with strict-capable candidates", message=(
        f"strict-capable candidates exist ({', '.join(m.id for m in capable)}) but the adapter refused: "
        f"{type(outcome).__name__}: {outcome}"))
    assert isinstance(outcome, Plan)
    support = _chosen_support(strictconformance_harness, request, outcome)
    strictconformance_harness.expect(support.capable, detail="required strict on a model that is not strict-capable", message=(
        f"tools {required} require strict, yet the plan chose {outcome.model.id!r} (strict_format="
        f"{outcome.model.strict_format!r}), which is not strict-capable; capable candidates: {[m.id for m in capable]}"))
    for name in required:
        wired = wire_tool(strictconformance_harness, outcome.request, name)
        strictconformance_harness.expect(ships_strict(outcome.request, wired, support.dialect), detail="a required tool ships lenient", message=(
            f"required tool {name!r} ships lenient on {outcome.model.id!r} (wire strict={wired.strict!r}, "
            f"mode={outcome.request.function_calling_mode!r})"))


@st.composite
def _with_a_false_tool(draw: st.DrawFn) -> PlanRequest:
    """A priority request in which at least one tool says strict=false: RES-11 judges those tools
    alone, so a request without one would test nothing."""
    request = draw(plan_requests(strict=strict_settings("priority"), min_tools=1, max_tools=6, schema=_SMALL))
    if any(tool.strict is False for tool in request.tools):
        return request
    index = draw(st.integers(0, len(request.tools) - 1))
    tools = tuple(dataclasses.replace(tool, strict=False) if i == index else tool for i, tool in enumerate(request.tools))
    return dataclasses.replace(request, tools=tools)


@check("RES-11")
@given(request=_with_a_false_tool())
def test_res_11_false_is_never_strict(strictconformance_harness: Harness, request: PlanRequest) -> None:
    outcome = _plan(strictconformance_harness, request)
    if not isinstance(outcome, Plan):
        return  # refusals are RES-10's business
    support = _chosen_support(strictconformance_harness, request, outcome)
    lenient = [tool.name for tool in request.tools if tool.strict is False]
    for name in lenient:
        wired = wire_tool(strictconformance_harness, outcome.request, name)
        strictconformance_harness.expect(wired.strict is not True, f"tool {name!r} has strict=false but ships strict=true on {outcome.model.id!r}",
                                         detail="a strict=false tool ships strict")
    if support.dialect == "google" and lenient and len(lenient) == len(request.tools):
        strictconformance_harness.expect(outcome.request.function_calling_mode != "VALIDATED", detail="VALIDATED with every tool strict=false", message=(
            f"every tool has strict=false, yet the Google request switches to VALIDATED ({outcome.model.id!r})"))


@check("RES-12")
@given(request=plan_requests(strict=strict_settings("priority", required=False), max_tools=6, schema=_SMALL))
def test_res_12_priority_prefers_never_filters(strictconformance_harness: Harness, request: PlanRequest) -> None:
    outcome = _plan(strictconformance_harness, request)
    strictconformance_harness.expect(isinstance(outcome, Plan), detail="refused with no required strict tool", message=(
        f"no tool has strict=true, so nothing may filter the candidates, yet the adapter refused: "
        f"{type(outcome).__name__}: {outcome}"))
    assert isinstance(outcome, Plan)
    support = _chosen_support(strictconformance_harness, request, outcome)
    wanting = [tool.name for tool in request.tools if priority_of(tool.strict) is not None]
    capable = [model.id for model in request.candidates if expected_support(model).capable]
    if wanting and capable:
        strictconformance_harness.expect(support.capable, detail="a strict-capable candidate passed over", message=(
            f"tools {wanting} prefer strict and candidates {capable} are strict-capable, yet the plan chose "
            f"{outcome.model.id!r}, which is not"))
    if not support.capable:
        for tool in request.tools:
            wired = wire_tool(strictconformance_harness, outcome.request, tool.name)
            strictconformance_harness.expect(not ships_strict(outcome.request, wired, support.dialect), detail="strict on a model that is not strict-capable", message=(
                f"{outcome.model.id!r} is not strict-capable, yet tool {tool.name!r} ships strict "
                f"(wire strict={wired.strict!r}, mode={outcome.request.function_calling_mode!r})"))


@check("RES-12")
@pytest.mark.parametrize("priority", [1, 1.0], ids=["int", "float"])
def test_res_12_the_default_priority_is_preferred_not_required(strictconformance_harness: Harness, priority: float) -> None:
    """Priority 1 is what an omitted setting means (SPEC §1): equal to ``True`` in Python, yet
    preferred, never required. With no strict-capable candidate the request is planned, lenient."""
    model = ModelSpec("acme", "acme-large", None)  # no family, no table entry: not strict-capable (RES-13)
    request = PlanRequest((ToolSpec("lookup", {"type": "object", "properties": {}, "required": [], "additionalProperties": False}, priority),),
                          (model,))
    outcome = _plan(strictconformance_harness, request)
    strictconformance_harness.expect(isinstance(outcome, Plan), detail="refused with no required strict tool", message=(
        f"no tool has strict=true (the one tool has priority {priority!r}, the default), so nothing may filter the "
        f"candidates, yet the adapter refused: {type(outcome).__name__}: {outcome}"))


@check("RES-5", requires=implements("plan_request"))
@given(request=plan_requests(strict=strict_settings("priority"), min_tools=1, max_tools=5, schema=_SMALL))
def test_res_5_a_planned_anthropic_strict_request_carries_beta(strictconformance_harness: Harness, request: PlanRequest) -> None:
    """The beta flag goes with strict on Anthropic whichever convention chose it: a plan that ships
    a tool strict on an Anthropic-dialect model carries it too."""
    outcome = _plan(strictconformance_harness, request)
    if not isinstance(outcome, Plan):
        return  # refusals are RES-10's business
    support = _chosen_support(strictconformance_harness, request, outcome)
    strict_tools = [tool.name for tool in outcome.request.tools if tool.strict is True]
    if support.dialect != "anthropic":
        strictconformance_harness.expect(ANTHROPIC_STRUCTURED_OUTPUTS_BETA not in outcome.request.betas,
                                         detail="the Anthropic beta on another provider's request", message=(
            f"the plan chose {outcome.model.id!r} ({support.dialect or 'no'} dialect), yet its request carries Anthropic's beta "
            f"{ANTHROPIC_STRUCTURED_OUTPUTS_BETA!r} (betas {sorted(outcome.request.betas)})"))
        return
    if not strict_tools:
        return
    strictconformance_harness.expect(ANTHROPIC_STRUCTURED_OUTPUTS_BETA in outcome.request.betas, detail="strict tools without the beta", message=(
        f"the plan chose {outcome.model.id!r} (Anthropic dialect) and ships tools {strict_tools} strict, but the "
        f"request's betas {sorted(outcome.request.betas)} lack {ANTHROPIC_STRUCTURED_OUTPUTS_BETA!r}"))

"""The reference's resolution functions on the examples the seeds and SPEC give, and the wire reader."""

from __future__ import annotations

import math

import pytest

from strictconformance.reference.budgets import BudgetExceeded
from strictconformance.reference.errors import InvalidStrictSetting, StrictSelectionError
from strictconformance.reference.resolution import (
    build_tools_request,
    plan_request,
    resolve_strict_support,
    resolve_wire_strict,
    validate_strict_setting,
)
from strictconformance.spec.resolution import RES14_CAPABLE, RES14_LENIENT
from strictconformance.wire import (
    ANTHROPIC_STRUCTURED_OUTPUTS_BETA,
    ModelSpec,
    PlanRequest,
    ToolSpec,
    ToolsRequest,
    WireFormatError,
    read_wire_request,
)

SCHEMA = {"type": "object", "properties": {"q": {"type": "string"}}, "required": ["q"], "additionalProperties": False}
CLAUDE = ModelSpec("anthropic", "claude-sonnet-4-5", "anthropic")


@pytest.mark.parametrize(("provider", "supports", "tool", "config", "expected"), [
    ("openai", True, None, None, True),        # default (OpenAI)
    ("anthropic", True, None, None, True),     # default (Anthropic, structured outputs)
    ("anthropic", False, None, None, None),    # default (Anthropic, no structured outputs): omitted
    ("openai", True, None, False, False),      # global non-strict
    ("openai", True, False, True, False),      # per-tool override
    ("openai", True, True, False, True),       # per-tool strict on non-strict global
    ("anthropic", False, True, True, None),    # RES-3 whatever the tool and config say
    ("google", True, None, None, None),
])
def test_seed_table(provider: str, supports: bool, tool: bool | None, config: bool | None, expected: bool | None) -> None:
    assert resolve_wire_strict(tool, config, provider, supports_structured_outputs=supports) is expected


def test_anthropic_strict_brings_the_beta_and_format_has_no_strict() -> None:
    wire = build_tools_request(ToolsRequest("anthropic", "claude-sonnet-4-5", True, (ToolSpec("t", SCHEMA),), response_schema=SCHEMA))
    assert wire.tools[0].strict is True and ANTHROPIC_STRUCTURED_OUTPUTS_BETA in wire.betas
    assert "strict" not in wire.response_format  # type: ignore[operator]


def test_google_switches_mode_only_for_a_strict_tool() -> None:
    strict = build_tools_request(ToolsRequest("google", "gemini-2.5-pro", True, (ToolSpec("t", SCHEMA, True),), function_calling_mode="AUTO"))
    assert strict.function_calling_mode == "VALIDATED" and strict.tools[0].strict is None
    lenient = build_tools_request(ToolsRequest("google", "gemini-2.5-pro", True, (ToolSpec("t", SCHEMA, False),), function_calling_mode="AUTO"))
    assert lenient.function_calling_mode == "AUTO"


def test_twenty_five_tools_ship_twenty_strict() -> None:
    tools = tuple(ToolSpec(f"tool-{i}", SCHEMA, 100 if i < 5 else 1) for i in range(25))
    plan = plan_request(PlanRequest(tools, (CLAUDE,)))
    assert [t.name for t in plan.request.tools if t.strict] == [f"tool-{i}" for i in range(20)]


def test_a_smaller_tool_further_down_still_fits() -> None:
    big = {"type": "object", "properties": {f"o{i}": {"type": "string"} for i in range(20)}, "required": []}
    small = {"type": "object", "properties": {"o": {"type": "string"}}, "required": []}
    tools = (ToolSpec("a", big, 5), ToolSpec("b", big, 4), ToolSpec("c", small, 1))
    plan = plan_request(PlanRequest(tools, (CLAUDE,)))
    assert {t.name: t.strict for t in plan.request.tools} == {"a": True, "b": False, "c": True}


def test_required_tools_over_budget_name_the_budget_and_tools() -> None:
    tools = tuple(ToolSpec(f"must_{i}", SCHEMA, True) for i in range(21))
    with pytest.raises(BudgetExceeded) as caught:
        plan_request(PlanRequest(tools, (CLAUDE,)))
    assert "20 (max_strict_tools)" in str(caught.value) and "must_0" in str(caught.value) and "must_20" in str(caught.value)


def test_required_strict_without_a_capable_model_is_an_error_naming_the_tool() -> None:
    with pytest.raises(StrictSelectionError, match="'lookup'"):
        plan_request(PlanRequest((ToolSpec("lookup", SCHEMA, True),), (ModelSpec("openai", "gpt-3.5-turbo"),)))
    plan = plan_request(PlanRequest((ToolSpec("lookup", SCHEMA, 3),), (ModelSpec("openai", "gpt-3.5-turbo"),)))
    assert plan.request.tools[0].strict is None  # lenient, silently (RES-12)


def test_selection_prefers_a_capable_model() -> None:
    candidates = (ModelSpec("openai", "gpt-3.5-turbo"), ModelSpec("openai", "gpt-4o"))
    assert plan_request(PlanRequest((ToolSpec("t", SCHEMA),), candidates)).model.id == "gpt-4o"
    assert plan_request(PlanRequest((ToolSpec("t", SCHEMA, False),), candidates)).model.id == "gpt-3.5-turbo"


@pytest.mark.parametrize("row", RES14_CAPABLE + RES14_LENIENT, ids=lambda row: row[1])
def test_curated_table(row: tuple[str, str, str]) -> None:
    provider, model_id, dialect = row
    support = resolve_strict_support(ModelSpec(provider, model_id))
    assert support.capable is (row in RES14_CAPABLE)
    if support.capable:
        assert support.dialect == dialect


def test_explicit_format_wins_and_none_opts_out() -> None:
    assert resolve_strict_support(ModelSpec("openai", "gpt-4o", "none")).capable is False
    assert resolve_strict_support(ModelSpec("acme", "flagship", "openai")).capable is True
    assert resolve_strict_support(ModelSpec("openrouter", "google/unknown-x")) .dialect == "google"


@pytest.mark.parametrize("value", [0, -1, 0.0, math.nan, math.inf, "true", [True]])
def test_invalid_strict_settings_are_rejected_with_the_tool_named(value: object) -> None:
    with pytest.raises(InvalidStrictSetting, match="tool 'lookup'"):
        validate_strict_setting(value, tool_name="lookup")
    with pytest.raises(InvalidStrictSetting):
        plan_request(PlanRequest((ToolSpec("lookup", SCHEMA, value),), (CLAUDE,)))  # type: ignore[arg-type]


def test_read_wire_request_for_each_api() -> None:
    chat = read_wire_request("openai.chat", {"tools": [{"type": "function", "function": {"name": "f", "parameters": SCHEMA, "strict": True}}],
                                             "response_format": {"type": "json_schema", "json_schema": {"strict": True}}})
    assert chat.tools[0].strict is True and chat.response_format is not None
    responses = read_wire_request("openai.responses", '{"tools": [{"type": "function", "name": "f", "parameters": {}}, {"type": "web_search"}]}')
    assert [(t.name, t.strict) for t in responses.tools] == [("f", None)]
    anthropic = read_wire_request("anthropic.messages", {"tools": [{"name": "f", "input_schema": SCHEMA, "strict": True},
                                                                   {"type": "web_search_20250305", "name": "web_search"}],
                                                         "output_config": {"format": {"type": "json_schema", "schema": SCHEMA}}},
                                  {"Anthropic-Beta": "a-beta, structured-outputs-2025-11-13"})
    assert anthropic.betas == {"a-beta", ANTHROPIC_STRUCTURED_OUTPUTS_BETA} and len(anthropic.tools) == 1
    gemini = read_wire_request("gemini.generate_content", {"tools": [{"functionDeclarations": [{"name": "f", "parametersJsonSchema": SCHEMA}]}],
                                                           "toolConfig": {"functionCallingConfig": {"mode": "VALIDATED"}}})
    assert gemini.function_calling_mode == "VALIDATED" and gemini.tools[0].input_schema == SCHEMA


@pytest.mark.parametrize(("api", "body", "message"), [
    ("openai.chat", "{not json", "not JSON"),
    ("openai.chat", "[1]", "must be a JSON object"),
    ("openai.chat", {"tools": {}}, "tools must be an array"),
    ("anthropic.messages", {"tools": [{"name": "f", "input_schema": {}, "strict": "yes"}]}, "strict must be a boolean"),
    ("mistral.chat", {}, "unknown api 'mistral.chat'"),
])
def test_read_wire_request_errors_name_the_problem(api: str, body: object, message: str) -> None:
    with pytest.raises(WireFormatError, match=message):
        read_wire_request(api, body)  # type: ignore[arg-type]

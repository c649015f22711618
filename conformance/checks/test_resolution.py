"""Checks of SPEC §1, boolean convention (RES-1..RES-6) and strict-format resolution (RES-13, RES-14).

Each check takes the ``strictconformance_harness`` harness and belongs to one rule (``@check``). The seven rows of the
table in seeds/000 §5 are explicit cases of the rule each exemplifies.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strictconformance.adapter import Declarations
from strictconformance.checks._support import (
    gemini_mode_kept,
    implements,
    same_tool_strict,
    wire_tool,
)
from strictconformance.findings import not_covered
from strictconformance.harness import Harness, check
from strictconformance.strategies._choices import as_received
from strictconformance.strategies.models import curated_cases, curated_models, models_with_support
from strictconformance.strategies.requests import tools_requests
from strictconformance.wire import (
    ANTHROPIC_STRUCTURED_OUTPUTS_BETA,
    ModelSpec,
    StrictSupport,
    ToolSpec,
    ToolsRequest,
)

_SCHEMA = {"type": "object", "properties": {"query": {"type": "string"}}, "required": ["query"], "additionalProperties": False}


def _first_set(*settings: object) -> object:
    return next((setting for setting in settings if setting is not None), None)


def _declared_default(strictconformance_harness: Harness, provider: str) -> bool | None:
    return strictconformance_harness.declarations.strict_defaults[provider]


_MODELS = {"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5", "google": "gemini-2.5-flash"}
#: An Anthropic model without structured-output support, for rows that say so: an SDK that reads
#: support from the model id (Vercel AI SDK, Effect) must see a model that really lacks it.
_ANTHROPIC_UNSTRUCTURED_MODEL = "claude-3-haiku-20240307"


def _provider(name: str) -> Callable[[Declarations], str | None]:
    def requires(declarations: Declarations) -> str | None:
        return None if name in declarations.providers else f"the adapter's providers do not include {name!r}"
    return requires


def _for_adapter(strictconformance_harness: Harness, request: ToolsRequest, allowed: tuple[str, ...] = ("openai", "anthropic", "google")) -> ToolsRequest:
    """``request`` moved to a provider the adapter declares, when its own is not one."""
    usable = [provider for provider in allowed if provider in strictconformance_harness.declarations.providers]
    if request.provider in usable or not usable:
        return request
    provider = as_received(usable[len(request.tools) % len(usable)])
    supports = request.supports_structured_outputs or provider != "anthropic"
    return dataclasses.replace(request, provider=provider, model=_MODELS[provider], supports_structured_outputs=supports,
                               function_calling_mode=request.function_calling_mode if provider == "google" else None)


def _show(value: object) -> str:
    return "omitted" if value is None else str(value).lower()


@check("RES-1")
@given(request=tools_requests(providers=("openai", "anthropic"), supports_structured_outputs=True))
def test_res_1_tool_beats_config_beats_default(strictconformance_harness: Harness, request: ToolsRequest) -> None:
    """For every tool that has a setting (or whose config does): wire = tool ?? config ?? default."""
    request = _for_adapter(strictconformance_harness, request, ("openai", "anthropic"))
    wire = strictconformance_harness.call("build_request", request)
    for tool in request.tools:
        if tool.strict is None and request.config_strict is None:
            continue  # that case is RES-2's
        expected = _first_set(tool.strict, request.config_strict, _declared_default(strictconformance_harness, request.provider))
        actual = wire_tool(strictconformance_harness, wire, tool.name).strict
        strictconformance_harness.expect(same_tool_strict(request.provider, actual, expected, strictconformance_harness.declarations.openai_api), detail=(
            _setting_ignored(request.provider, "tool" if tool.strict is not None else "config", expected, actual)), message=(
            f"{request.provider}: tool {tool.name!r} has strict={_show(tool.strict)}, provider config "
            f"strict={_show(request.config_strict)}; the wire carries strict={_show(actual)}, expected "
            f"{_show(expected)} (tool ?? config ?? default)"))


@check("RES-2")
@given(request=tools_requests(supports_structured_outputs=True, config=st.none(), min_tools=1,
                              strict=st.sampled_from([None, None, True, False])))
def test_res_2_unset_gets_declared_default(strictconformance_harness: Harness, request: ToolsRequest) -> None:
    """An unset tool under an unset config gets the provider default the adapter declares."""
    request = _for_adapter(strictconformance_harness, request)
    wire = strictconformance_harness.call("build_request", request)
    default = _declared_default(strictconformance_harness, request.provider)
    unset = [tool for tool in request.tools if tool.strict is None]
    if request.config_strict is not None or not unset:
        return
    if request.provider == "google":
        if any(tool.strict is True for tool in request.tools):
            return  # a strict tool decides Google's mode (RES-6)
        kept, expected_mode = gemini_mode_kept(request, wire, strict=default is True)
        strictconformance_harness.expect(kept, detail=f"google: {expected_mode} not sent for unset tools", message=(
            f"google: unset tools under an unset config, declared default {_show(default)}: expected function-calling "
            f"{expected_mode}, the wire has {_show_mode(wire.function_calling_mode)}"))
        return
    for tool in unset:
        actual = wire_tool(strictconformance_harness, wire, tool.name).strict
        strictconformance_harness.expect(actual == default, detail=f"{request.provider}: unset strict not sent as the declared default", message=(
            f"{request.provider}: tool {tool.name!r} and the provider config are unset; the wire carries "
            f"strict={_show(actual)}, the adapter declares the default {_show(default)}"))


@check("RES-3", requires=_provider("anthropic"))
@given(request=tools_requests(providers=("anthropic",), supports_structured_outputs=False))
def test_res_3_anthropic_without_structured_outputs_omits(strictconformance_harness: Harness, request: ToolsRequest) -> None:
    wire = strictconformance_harness.call("build_request", request)
    for tool in request.tools:
        actual = wire_tool(strictconformance_harness, wire, tool.name).strict
        strictconformance_harness.expect(actual is None, detail="strict sent to a model without structured outputs", message=(
            f"anthropic model {request.model!r} has no structured-output support, yet tool {tool.name!r} "
            f"(strict={_show(tool.strict)}, config {_show(request.config_strict)}) carries strict={_show(actual)}; "
            "it must be omitted"))


def _strict_keys(value: Any, path: str = "") -> list[str]:
    found: list[str] = []
    stack: list[tuple[Any, str]] = [(value, path)]
    while stack:
        node, where = stack.pop()
        if isinstance(node, dict):
            for key, item in node.items():
                if key == "strict":
                    found.append(f"{where}/strict")
                stack.append((item, f"{where}/{key}"))
        elif isinstance(node, (list, tuple)):
            stack.extend((item, f"{where}/{index}") for index, item in enumerate(node))
    return sorted(found)


@check("RES-4", requires=_provider("anthropic"))
@given(request=tools_requests(providers=("anthropic",), response_schema=True))
def test_res_4_anthropic_response_format_has_no_strict(strictconformance_harness: Harness, request: ToolsRequest) -> None:
    wire = strictconformance_harness.call("build_request", request)
    if wire.response_format is None:
        strictconformance_harness.expect(not request.supports_structured_outputs, detail="no response_format on the wire", message=(
            "the request asks for a structured-output response (response_schema) on a model with structured "
            "outputs, but the wire request has no response_format to check (WireRequest.response_format)"))
        return
    found = _strict_keys(wire.response_format, "response_format")
    strictconformance_harness.expect(not found, f"the Anthropic response format carries strict at {', '.join(found)}; the API has no such field",
                                     detail="strict in the response format")


def _builds(name: str) -> Callable[[Declarations], str | None]:
    """``_provider(name)``, for a rule a planner (plan_request) can be judged on instead."""
    def requires(declarations: Declarations) -> str | None:
        return implements("build_request")(declarations) or _provider(name)(declarations)
    return requires


@check("RES-5", requires=_builds("anthropic"))
@given(request=tools_requests(providers=("anthropic",)))
def test_res_5_anthropic_strict_carries_beta(strictconformance_harness: Harness, request: ToolsRequest) -> None:
    wire = strictconformance_harness.call("build_request", request)
    strict_tools = [tool.name for tool in wire.tools if tool.strict is True]
    strictconformance_harness.expect(not strict_tools or ANTHROPIC_STRUCTURED_OUTPUTS_BETA in wire.betas, detail="strict tools without the beta", message=(
        f"tools {strict_tools} are sent with strict=true but the request's betas {sorted(wire.betas)} lack "
        f"{ANTHROPIC_STRUCTURED_OUTPUTS_BETA!r}"))


def _builds_beyond_anthropic(declarations: Declarations) -> str | None:
    """An SDK that builds Anthropic requests and another provider's: one that knows no Anthropic has
    no Anthropic beta to misplace, and RES-5 says nothing about it."""
    missing = _builds("anthropic")(declarations)
    if missing is not None:
        return missing
    if not {"openai", "google"} & set(declarations.providers):
        return "the adapter's providers include neither 'openai' nor 'google'"
    return None


@check("RES-5", requires=_builds_beyond_anthropic)
@given(request=tools_requests(providers=("openai", "google")))
def test_res_5_the_beta_goes_to_anthropic_only(strictconformance_harness: Harness, request: ToolsRequest) -> None:
    """The structured-outputs beta is Anthropic's: an OpenAI or Google request never carries it."""
    request = _for_adapter(strictconformance_harness, request, ("openai", "google"))
    wire = strictconformance_harness.call("build_request", request)
    strictconformance_harness.expect(ANTHROPIC_STRUCTURED_OUTPUTS_BETA not in wire.betas, detail="the Anthropic beta on another provider's request",
                                     message=(f"a {request.provider} request carries Anthropic's beta {ANTHROPIC_STRUCTURED_OUTPUTS_BETA!r} "
                                              f"(betas {sorted(wire.betas)})"))


@check("RES-6", requires=_provider("google"))
@given(request=tools_requests(providers=("google",)))
def test_res_6_google_strict_switches_mode(strictconformance_harness: Harness, request: ToolsRequest) -> None:
    wire = strictconformance_harness.call("build_request", request)
    default = _declared_default(strictconformance_harness, "google")
    for tool in request.tools:
        actual = wire_tool(strictconformance_harness, wire, tool.name).strict
        strictconformance_harness.expect(actual is None, f"google has no per-tool strict field, yet tool {tool.name!r} carries strict={_show(actual)}",
                                         detail="a per-tool strict field on google")
    if not request.tools and wire.function_calling_mode is None:
        return  # no function declarations: no mode applies (Vercel AI SDK sends no toolConfig then)
    resolved_strict = [tool.name for tool in request.tools if _first_set(tool.strict, request.config_strict, default) is True]
    kept, expected = gemini_mode_kept(request, wire, strict=bool(resolved_strict))
    strictconformance_harness.expect(kept, detail=f"{expected} not sent", message=(
        f"tools resolved to strict: {resolved_strict or 'none'}; {_mode_set_by_caller(request)}; "
        f"expected {expected}, the wire has {_show_mode(wire.function_calling_mode)}"))


def _mode_set_by_caller(request: ToolsRequest) -> str:
    mode = request.function_calling_mode
    return "the caller left the mode unset" if mode is None else f"the caller set mode {mode!r}"


def _show_mode(mode: str | None) -> str:
    return "no mode" if mode is None else f"mode {mode!r}"


# -- The seven rows of seeds/000_35448232797e90f4.txt §5 ------------------------------------------

_SEED_TABLE = [
    # (rule, row, provider, structured outputs, tool strict, config strict, expected on the wire)
    ("RES-2", "default-openai", "openai", True, None, None, "declared"),
    ("RES-2", "default-anthropic-structured-outputs", "anthropic", True, None, None, "declared"),
    ("RES-3", "default-anthropic-no-structured-outputs", "anthropic", False, None, None, None),
    ("RES-1", "global-non-strict-openai", "openai", True, None, False, False),
    ("RES-1", "per-tool-false-over-true-openai", "openai", True, False, True, False),
    ("RES-1", "per-tool-false-over-true-anthropic", "anthropic", True, False, True, False),
    ("RES-1", "per-tool-true-on-non-strict-openai", "openai", True, True, False, True),
    ("RES-1", "per-tool-true-on-non-strict-anthropic", "anthropic", True, True, False, True),
]


def _table_case(strictconformance_harness: Harness, provider: str, supports: bool, tool_strict: bool | None, config: bool | None, expected: Any) -> None:
    __tracebackhide__ = True
    if provider not in strictconformance_harness.declarations.providers:
        not_covered(f"the adapter's providers do not include {provider!r}")
    model = _ANTHROPIC_UNSTRUCTURED_MODEL if provider == "anthropic" and not supports else _MODELS[provider]
    request = ToolsRequest(provider, model, supports, (ToolSpec("lookup", _SCHEMA, tool_strict),), config_strict=config)
    if expected == "declared":  # the seed says true; SPEC §1 checks the adapter's declared default
        expected = _declared_default(strictconformance_harness, provider)
    actual = wire_tool(strictconformance_harness, strictconformance_harness.call("build_request", request), "lookup").strict
    # a row with a tool or config setting states what the property check states: one finding per cause
    source = "tool" if tool_strict is not None else "config" if config is not None else None
    detail = (_setting_ignored(provider, source, expected, actual) if source is not None
              else f"seed table row ({provider}): strict={_show(expected)} expected, {_show(actual)} sent")
    strictconformance_harness.expect(same_tool_strict(provider, actual, expected, strictconformance_harness.declarations.openai_api),
                                     f"seed table row: expected strict={_show(expected)}, the wire carries {_show(actual)}", detail=detail)


def _setting_ignored(provider: str, source: str, expected: Any, actual: Any) -> str:
    """The finding key's detail of a tool's or config's strict setting the wire does not carry."""
    return f"{provider}: the {source}'s strict={_show(expected)} is not what the wire carries ({_show(actual)} sent)"


def _table_params(rule: str) -> list[Any]:
    return [pytest.param(*row[2:], id=row[1]) for row in _SEED_TABLE if row[0] == rule]


@check("RES-1")
@pytest.mark.parametrize(("provider", "supports", "tool_strict", "config", "expected"), _table_params("RES-1"))
def test_res_1_seed_table(strictconformance_harness: Harness, provider: str, supports: bool, tool_strict: bool | None, config: bool | None, expected: Any) -> None:
    _table_case(strictconformance_harness, provider, supports, tool_strict, config, expected)


@check("RES-2")
@pytest.mark.parametrize(("provider", "supports", "tool_strict", "config", "expected"), _table_params("RES-2"))
def test_res_2_seed_table(strictconformance_harness: Harness, provider: str, supports: bool, tool_strict: bool | None, config: bool | None, expected: Any) -> None:
    _table_case(strictconformance_harness, provider, supports, tool_strict, config, expected)


@check("RES-3")
@pytest.mark.parametrize(("provider", "supports", "tool_strict", "config", "expected"), _table_params("RES-3"))
def test_res_3_seed_table(strictconformance_harness: Harness, provider: str, supports: bool, tool_strict: bool | None, config: bool | None, expected: Any) -> None:
    _table_case(strictconformance_harness, provider, supports, tool_strict, config, expected)


@check("RES-4", requires=_provider("anthropic"))
def test_res_4_seed_table_output_config_format(strictconformance_harness: Harness) -> None:
    """Row 4: Anthropic `output_config.format` carries no strict, whatever the config says."""
    for config in (None, True, False):
        request = ToolsRequest("anthropic", "claude-sonnet-4-5", True, (), config_strict=config,
                               response_schema={"type": "object", "properties": {}, "required": [], "additionalProperties": False})
        wire = strictconformance_harness.call("build_request", request)
        strictconformance_harness.expect(wire.response_format is not None, "the request asks for a structured-output response, but the wire request has no response_format",
                                         detail="no response_format on the wire")
        found = _strict_keys(wire.response_format, "response_format")
        strictconformance_harness.expect(not found, f"config strict={_show(config)}: the response format carries strict at {', '.join(found)}",
                                         detail="strict in the response format")


# -- Strict-format resolution ---------------------------------------------------------------------


def _support_text(support: StrictSupport) -> str:
    return f"dialect {support.dialect!r}, {'strict-capable' if support.capable else 'not strict-capable'}"


@check("RES-13")
@given(case=models_with_support())
def test_res_13_strict_format_resolution(strictconformance_harness: Harness, case: tuple[ModelSpec, StrictSupport]) -> None:
    model, expected = case
    actual: StrictSupport = strictconformance_harness.call("strict_support", model)
    strictconformance_harness.expect(actual.capable == expected.capable, detail="strict capability misread", message=(
        f"model {model.provider}/{model.id} with strict_format={model.strict_format!r}: the adapter says "
        f"{_support_text(actual)}; expected {'strict-capable' if expected.capable else 'not strict-capable'} "
        + ("(an explicit family opts in)" if model.strict_format not in (None, "none") else
           "('none' opts out)" if model.strict_format == "none" else "(the fallback picks a dialect, never a capability)")))
    if model.strict_format != "none":
        strictconformance_harness.expect(actual.dialect == expected.dialect, detail="another dialect", message=(
            f"model {model.provider}/{model.id} with strict_format={model.strict_format!r}: dialect {actual.dialect!r}, "
            f"expected {expected.dialect!r} (explicit value, else provider name, else the id's family/ prefix)"))


def _curated_table(declarations: Declarations) -> str | None:
    return None if declarations.curated_model_table else "the adapter declares no curated model table (curated_model_table = False)"


@check("RES-14", requires=_curated_table)
@given(case=curated_models())
def test_res_14_curated_table(strictconformance_harness: Harness, case: tuple[ModelSpec, StrictSupport]) -> None:
    _expect_curated(strictconformance_harness, *case)


@check("RES-14", requires=_curated_table)
def test_res_14_every_listed_model(strictconformance_harness: Harness) -> None:
    """Every id SPEC RES-14 fixes, in turn: a table wrong about one of them fails even where the
    property's sample missed it."""
    for model, expected in curated_cases():
        _expect_curated(strictconformance_harness, model, expected)


def _expect_curated(strictconformance_harness: Harness, model: ModelSpec, expected: StrictSupport) -> None:
    actual: StrictSupport = strictconformance_harness.call("strict_support", model)
    strictconformance_harness.expect(actual.capable == expected.capable, detail="strict capability misread", message=(
        f"{model.provider} model {model.id!r} (strict format unset): the adapter says {_support_text(actual)}; "
        f"SPEC RES-14 has it {'strict-capable' if expected.capable else 'lenient'}"))
    if expected.capable:
        strictconformance_harness.expect(actual.dialect == expected.dialect, detail="another dialect", message=(
            f"{model.provider} model {model.id!r}: dialect {actual.dialect!r}, expected {expected.dialect!r}"))

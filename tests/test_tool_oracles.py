"""The TL checks: the reference passes them all; each broken layer fails its rule and only it."""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from broken_tools import (
    BROKEN,
    CONFORMING,
    CONFORMING_ON,
    EXTRA_BROKEN,
    MULTI_BROKEN,
    ContextDroppingCallLayer,
    FieldlessContextCallErrorLayer,
    NoDefaultAnnotationsLayer,
    UnvalidatedContextCallLayer,
    drop_null,
    strip_keyword,
)
from strictconformance.harness import AdapterFault
from strictconformance.spec import all_rules
from strictconformance.strategies import callbacks
from strictconformance.tools import AdvertisedTool, Tool, ToolInvocation, ToolResult, result_content
from strictconformance.tools.cases import CallLog, RecordingCase
from strictconformance.tools.contract import ToolLayer, ToolLayerTraits
from strictconformance.tools.layer import ReferenceToolLayer
from strictconformance.tools.oracles import CHECKS, ToolRuleViolation, Violation, assert_conforms
from strictconformance.tools.shapes import FieldShape, ObjectShape

#: A shape with defaults and a nullable field: what annotation-dropping and null-dropping layers touch.
_OPTIONAL_SHAPE = ObjectShape("Opt", (("query", FieldShape("string")), ("limit", FieldShape("integer", nullable=True, default=None)),
                                      ("level", FieldShape("integer", default=2))))

#: TL-11 judges a refusal against the adapter's declared tool_refusals: its check lives with the
#: harness (conformance/checks/test_tools.py), as RT-10's does; tests/test_broken_tool_suite.py runs it.
TL_RULES = [rule_id for rule_id in all_rules() if rule_id.startswith("TL-") and rule_id != "TL-11"]

#: Rule -> the strategy of the cases its check takes.
CASES: Mapping[str, st.SearchStrategy[Any]] = {
    "TL-1": callbacks.shape_cases(),
    "TL-2": callbacks.recording_cases(),
    "TL-3": callbacks.raising_cases(),
    "TL-4": callbacks.streaming_cases(),
    "TL-5": callbacks.context_cases(),
    "TL-6": callbacks.direct_call_cases(),
    "TL-7": callbacks.strict_cases(),
    "TL-8": callbacks.description_cases(),
    "TL-9": callbacks.extra_keys_cases(),
    "TL-10": callbacks.defaults_cases(),
}

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]


def _first_violation(layer: ToolLayer, rule_id: str, max_examples: int = 600) -> list[Violation]:
    """The violations of the first case that breaks ``rule_id`` on ``layer`` (no shrinking)."""
    case = find(
        CASES[rule_id],
        lambda case: bool(CHECKS[rule_id](layer, case)),
        settings=settings(max_examples=max_examples, phases=[Phase.generate], database=None, deadline=None, suppress_health_check=_QUIET),
    )
    return CHECKS[rule_id](layer, case)


def test_every_tl_rule_has_a_check_a_strategy_and_a_broken_layer() -> None:
    assert [f"TL-{n}" for n in range(1, 11)] == TL_RULES
    assert [rule_id for rule_id in all_rules() if rule_id.startswith("TL-")] == [*TL_RULES, "TL-11"]
    assert sorted(CHECKS) == sorted(CASES) == sorted(BROKEN) == sorted(TL_RULES)


@pytest.mark.parametrize("rule_id", TL_RULES)
def test_the_reference_layer_passes(rule_id: str) -> None:
    layer = ReferenceToolLayer()

    @settings(max_examples=25, deadline=None, suppress_health_check=_QUIET)
    @given(case=CASES[rule_id])
    def holds(case: Any) -> None:
        assert_conforms(CHECKS[rule_id](layer, case))

    holds()


@pytest.mark.parametrize(("rule_id", "layer_class"), [*BROKEN.items(), *EXTRA_BROKEN], ids=lambda v: getattr(v, "__name__", v))
def test_a_broken_layer_fails_its_rule_with_an_actionable_violation(rule_id: str, layer_class: type[ToolLayer]) -> None:
    violations = _first_violation(layer_class(), rule_id)
    assert violations
    assert {violation.rule_id for violation in violations} == {rule_id}
    for violation in violations:
        assert violation.message
        assert violation.call.startswith("layer.")
        json.dumps(violation.counterexample, default=repr)  # a counterexample is printable as JSON
    with pytest.raises(ToolRuleViolation, match=rf"\[{rule_id}\]"):
        assert_conforms(violations)


@pytest.mark.parametrize(
    ("broken_rule", "layer_class", "rule_id"),
    [(broken, layer_class, rule) for broken, layer_class in [*BROKEN.items(), *EXTRA_BROKEN] for rule in TL_RULES if rule != broken],
    ids=lambda v: getattr(v, "__name__", v),
)
def test_a_broken_layer_fails_no_other_rule(broken_rule: str, layer_class: type[ToolLayer], rule_id: str) -> None:
    layer = layer_class()

    @settings(max_examples=6, deadline=None, suppress_health_check=_QUIET, database=None)
    @given(case=CASES[rule_id])
    def holds(case: Any) -> None:
        assert_conforms(CHECKS[rule_id](layer, case))

    holds()


@pytest.mark.parametrize(
    ("rule_ids", "layer_class", "rule_id"),
    [(rule_ids, layer_class, rule_id) for rule_ids, layer_class in MULTI_BROKEN for rule_id in TL_RULES],
    ids=lambda v: getattr(v, "__name__", v if isinstance(v, str) else ""),
)
def test_a_bug_several_rules_see_fails_each_of_them_and_no_other(rule_ids: frozenset[str], layer_class: type[ToolLayer], rule_id: str) -> None:
    layer = layer_class()
    if rule_id in rule_ids:
        assert _first_violation(layer, rule_id)
        return

    @settings(max_examples=6, deadline=None, suppress_health_check=_QUIET, database=None)
    @given(case=CASES[rule_id])
    def holds(case: Any) -> None:
        assert_conforms(CHECKS[rule_id](layer, case))

    holds()


@pytest.mark.parametrize(("layer_class", "rule_id"), [(layer, rule) for layer, rules in CONFORMING_ON for rule in rules],
                         ids=lambda v: getattr(v, "__name__", v))
def test_a_layer_that_conforms_on_a_rule_passes_it(layer_class: type[ToolLayer], rule_id: str) -> None:
    """Undeclared keys dropped with a warning or a log record naming them (TL-9), a redaction the
    layer declares (TL-3): conformant."""
    layer = layer_class()

    @settings(max_examples=25, deadline=None, suppress_health_check=_QUIET, database=None)
    @given(case=CASES[rule_id])
    def holds(case: Any) -> None:
        assert_conforms(CHECKS[rule_id](layer, case))

    holds()


@pytest.mark.parametrize("rule_id", TL_RULES)
@pytest.mark.parametrize("layer_class", CONFORMING, ids=lambda v: v.__name__)
def test_a_layer_that_conforms_its_own_way_passes(layer_class: type[ToolLayer], rule_id: str) -> None:
    """No ``default`` annotations, results as text only (compact or ASCII JSON), fields named by
    dotted path or only in pydantic-style text: none of it breaks a rule, so no check may fail."""
    layer = layer_class()

    @settings(max_examples=25, deadline=None, suppress_health_check=_QUIET, database=None)
    @given(case=CASES[rule_id])
    def holds(case: Any) -> None:
        assert_conforms(CHECKS[rule_id](layer, case))

    holds()


# -- TL-1 and TL-5 compare a layer with itself ---------------------------------------------------


def _advertising(transform: Callable[[Tool[..., Any]], Callable[[Any], Any] | None]) -> ReferenceToolLayer:
    """The reference layer advertising ``transform(handle)(schema)`` (None: unchanged)."""

    class Advertising(ReferenceToolLayer):
        def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
            advertised = super().describe_tool(handle)
            change = transform(handle)
            return advertised if change is None else replace(advertised, input_schema=change(dict(advertised.input_schema)))

    return Advertising()


def test_tl1_wants_every_source_alike_and_the_raw_schemas_meaning() -> None:
    # defaults dropped for model tools only: the sources disagree
    def no_defaults(schema: Any) -> Any:
        return strip_keyword(schema, "default")

    assert _first_violation(_advertising(lambda handle: no_defaults if handle.source == "model" else None), "TL-1")
    # null dropped for every source: they agree, but no longer validate as the raw schema does
    violations = _first_violation(_advertising(lambda h: drop_null), "TL-1")
    assert "validates differently from the shape's raw JSON Schema" in violations[0].message
    # defaults dropped for every source: annotations only, nothing validates differently
    assert CHECKS["TL-1"](NoDefaultAnnotationsLayer(), callbacks.shape_case(_OPTIONAL_SHAPE)) == []


def test_tl1_an_always_true_subschema_is_the_same_as_none() -> None:
    # Zod's toJSONSchema writes "additionalProperties": {} where the raw schema has none: an
    # always-true subschema under such a keyword validates alike (false alarm on Vercel AI + Zod).
    def open_extras(schema: Any) -> Any:
        return {**{k: v for k, v in schema.items() if k != "additionalProperties"}, "additionalProperties": {}, "propertyNames": True}

    open_shape = ObjectShape("Open", (("query", FieldShape("string")),), closed=False)
    assert CHECKS["TL-1"](_advertising(lambda handle: open_extras), callbacks.shape_case(open_shape)) == []


class LeakingRawContextLayer(ReferenceToolLayer):
    """Tools from a raw schema or a model that take context advertise a "context" property."""

    def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
        advertised = super().describe_tool(handle)
        if handle.source == "signature" or not handle.takes_context:
            return advertised
        schema = dict(advertised.input_schema)
        schema["properties"] = {**schema["properties"], "context": {"type": "object"}}
        return replace(advertised, input_schema=schema)


def test_tl5_checks_context_on_every_source_not_only_type_hints() -> None:
    violations = _first_violation(LeakingRawContextLayer(), "TL-5")
    assert violations[0].message.startswith("the advertised schema differs from the same tool without context; first difference at /properties/context")
    assert violations[0].counterexample["definition"]["source"] in ("model", "json_schema")
    raw_only = type("RawOnly", (LeakingRawContextLayer,), {"traits": ToolLayerTraits(sources=frozenset({"json_schema"}))})()
    assert _first_violation(raw_only, "TL-5")  # a layer with raw schemas only is checked too


# -- TL-2 reads what identifies the field and the call -------------------------------------------


class VagueErrorsLayer(ReferenceToolLayer):
    """Invalid input gives an error whose text names no field, in words a field could be named."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        vague = "input is not of the expected type, or a required property is missing [type=invalid]"
        return ToolInvocation(tuple(
            ToolResult(tool_use_id, "error", content=vague, error_type="ValidationError", error_message=vague)
            if isinstance(item, ToolResult) and item.error_type == "ToolInputError" else item
            for item in invocation.outputs
        ))


@pytest.mark.parametrize("field_name", ["type", "required"])
def test_tl2_a_generic_word_in_the_error_text_does_not_name_a_field_of_that_name(field_name: str) -> None:
    shape = ObjectShape("Probe", ((field_name, FieldShape("integer")),))
    log = CallLog()
    definition = callbacks.recording_definition(shape, "json_schema", name="probe", log=log, returns=None)
    case = RecordingCase(definition, shape, log, {field_name: 1}, {field_name: "x"}, f"/{field_name}", None)
    violations = CHECKS["TL-2"](VagueErrorsLayer(), case)
    assert [violation.message for violation in violations] == [f"the error result does not name the failing field /{field_name}"]
    assert CHECKS["TL-2"](ReferenceToolLayer(), case) == []


# -- conventions are declared, not guessed ------------------------------------------------------


class LastItemLayer(ReferenceToolLayer):
    """An SDK whose generators give their result as the last yielded item (declared in traits)."""

    traits = ToolLayerTraits(final_value="last_item")

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        if not invocation.events or invocation.results[0].status != "success" or invocation.results[0].value is not None:
            return invocation
        *events, last = invocation.events
        result = replace(invocation.results[0], value=last.data, content=result_content(last.data))
        return ToolInvocation(outputs=(*events, result))


def test_tl4_follows_the_layers_declared_final_value_convention() -> None:
    layer = LastItemLayer()

    @settings(max_examples=30, deadline=None, suppress_health_check=_QUIET)
    @given(case=callbacks.streaming_cases(convention="last_item"))
    def holds(case: Any) -> None:
        assert_conforms(CHECKS["TL-4"](layer, case))

    holds()
    # the kit's own convention is not that SDK's: judged by the wrong declaration it fails
    assert _first_violation(layer, "TL-4")


def test_rules_outside_a_layers_sources_are_not_judged() -> None:
    class RawOnly(ReferenceToolLayer):
        traits = ToolLayerTraits(sources=frozenset({"json_schema"}))

    layer = RawOnly()

    @settings(max_examples=15, deadline=None, suppress_health_check=_QUIET)
    @given(case=callbacks.recording_cases(sources=("model", "signature")))
    def skipped(case: Any) -> None:
        assert CHECKS["TL-2"](layer, case) == []

    skipped()


def test_a_layer_that_raises_while_defining_gets_a_violation_not_a_crash() -> None:
    class Refusing(ReferenceToolLayer):
        def define_tool(self, definition: Any) -> Any:
            raise RuntimeError("no tools today")

    violations = _first_violation(Refusing(), "TL-2", max_examples=5)
    assert violations[0].rule_id == "TL-2"
    assert "no tools today" in violations[0].message


# -- harness failures are not the layer's answer -------------------------------------------------


@pytest.mark.parametrize(("rule_id", "method"), [(rule_id, method) for rule_id in TL_RULES for method in all_rules()[rule_id].capabilities])
def test_harness_failures_pass_through_every_check(rule_id: str, method: str) -> None:
    """When the layer is an adapter behind the ``strictconformance_harness`` fixture, a call the harness judged (hung,
    junk result, mutated input) raises a ConformanceFailure: no check may turn it into a violation
    of its own, or swallow it where the layer is expected to raise (TL-6, TL-7)."""
    fault = AdapterFault(method, "did not return within 10 s")

    def failing(*args: Any) -> Any:
        raise fault

    layer = type("Faulty", (ReferenceToolLayer,), {method: failing})()
    raised = []

    @settings(max_examples=10, deadline=None, suppress_health_check=_QUIET, database=None)
    @given(case=CASES[rule_id])
    def passes_through(case: Any) -> None:
        try:
            CHECKS[rule_id](layer, case)
        except AdapterFault as failure:
            assert failure is fault
            raised.append(failure)

    passes_through()
    assert raised, f"{rule_id} never called {method} in 10 examples"


@pytest.mark.parametrize("layer_class", [UnvalidatedContextCallLayer, ContextDroppingCallLayer, FieldlessContextCallErrorLayer],
                         ids=lambda layer_class: layer_class.__name__)
def test_a_direct_call_of_a_context_tool_is_judged_by_tl6(layer_class: type[ReferenceToolLayer]) -> None:
    """The context direct-call bugs fail TL-6 on its context cases; the reference passes them."""
    layer = layer_class()
    case = find(callbacks.context_direct_call_cases(), lambda case: bool(CHECKS["TL-6"](layer, case)),
                settings=settings(max_examples=300, phases=[Phase.generate], database=None, deadline=None, suppress_health_check=_QUIET))
    assert {violation.rule_id for violation in CHECKS["TL-6"](layer, case)} == {"TL-6"}

    reference = ReferenceToolLayer()

    @settings(max_examples=25, deadline=None, suppress_health_check=_QUIET)
    @given(case=callbacks.context_direct_call_cases())
    def holds(case: Any) -> None:
        assert_conforms(CHECKS["TL-6"](reference, case))

    holds()

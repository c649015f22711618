"""Checks of SPEC §6 (TL-1..TL-11): the SDK's tool layer, through define_tool, describe_tool,
invoke_tool and call_tool, and define_tool_from_function for tools made by the SDK's own decorator
from a documented function (TL-2..TL-4 and TL-6 "from a function", TL-8..TL-10).

The decisions are the kit's oracles (:mod:`strictconformance.tools.oracles`): each takes a tool
layer and one case and returns the violations it found. Here the layer is the adapter, reached
only through the harness (:class:`_AdapterToolLayer`); each violation fails the check with its
message, and its counterexample (the definition, input and result that show it) goes into the
report. Cases come from :mod:`strictconformance.strategies.callbacks`, drawn with ``st.data()``
once the adapter's ``tool_layer_traits`` are read (which input-schema sources, how a generator
gives its final value, which strict convention), so that only the curated counterexample, not the
raw case, is reported. The explicit cases are bugs found in today's SDKs, and SPEC §1's
strict values.
"""

from __future__ import annotations

import dataclasses
import json
import math
import sys
from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strictconformance.findings import not_covered
from strictconformance.harness import ConformanceFailure, Harness, RuleViolation, check
from strictconformance.spec import all_rules
from strictconformance.strategies import callbacks
from strictconformance.tools.cases import CallbackKind, CallLog, RecordingCase, RefusalCase
from strictconformance.tools.contract import (
    AdvertisedTool,
    StrictConvention,
    ToolDefinition,
    ToolLayerTraits,
)
from strictconformance.tools.helper import InputSource
from strictconformance.tools.jsonvalue import JSONValue
from strictconformance.tools.oracles import CHECKS, FromFunction, Violation
from strictconformance.tools.results import ToolContext, ToolInvocation
from strictconformance.tools.shapes import FieldShape, ObjectShape, schema_for

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import ExceptionGroup

_ALL_SOURCES: frozenset[InputSource] = frozenset({"signature", "model", "json_schema"})
_SCHEMA_SOURCES: frozenset[InputSource] = frozenset({"model", "json_schema"})

#: Where each rule's cases take input schemas from: a layer that declares none of them can't be judged.
#: TL-3/TL-4 callbacks take ``callback(input)`` (a model or raw schema).
_CASE_SOURCES: Mapping[str, frozenset[InputSource]] = {
    "TL-1": _ALL_SOURCES,
    "TL-2": _ALL_SOURCES,
    "TL-3": _SCHEMA_SOURCES,
    "TL-4": _SCHEMA_SOURCES,
    "TL-5": _ALL_SOURCES,
    "TL-6": _ALL_SOURCES,
    "TL-7": _ALL_SOURCES,
    "TL-8": _ALL_SOURCES,
    "TL-9": _ALL_SOURCES,
    "TL-10": _ALL_SOURCES,
    "TL-11": _ALL_SOURCES,
}


class _AdapterToolLayer:
    """The adapter's tool layer as the oracles drive it (a :class:`~strictconformance.tools.ToolLayer`).

    Every call goes through the harness, so it is recorded, timed out and checked for junk results
    and mutated arguments (those failures propagate as they are). What the SDK raises is handed back
    to the oracle unchanged: it is the oracle that knows when raising is right (TL-6's direct call,
    TL-7's invalid strict value) and when it is a violation (TL-3's escaped exception).
    """

    def __init__(self, strictconformance_harness: Harness) -> None:
        self._sc = strictconformance_harness
        traits: ToolLayerTraits = strictconformance_harness.declarations.tool_layer_traits
        self.traits = traits

    def _forward(self, method: str, *args: Any) -> Any:
        __tracebackhide__ = True
        attempt = self._sc.attempt(method, *args, allowed=(Exception,))
        if attempt.error is not None:
            raise attempt.error
        return attempt.value

    def _define(self, method: str, *args: Any) -> Any:
        """A definition; one the layer refuses with a declared refusal (``Adapter.tool_refusals``) is
        not this check's to judge (TL-11 is): counted for the report, and the example discarded
        (an explicit case: not covered, with the refusal)."""
        __tracebackhide__ = True
        attempt = self._sc.attempt(method, *args, allowed=(Exception,))
        error = attempt.error
        if error is None:
            return attempt.value
        refusals = self._sc.declarations.tool_refusals
        if refusals and isinstance(error, refusals):
            said = self._sc.count_tool_refusal(error)
            reason = f"the tool layer refused the definition with a declared refusal (tool_refusals; TL-11 judges it): {said}"
            self._sc.refusal_reasons[self._sc.current_nodeid] = reason
            from hypothesis import currently_in_test_context

            if not currently_in_test_context():
                not_covered(reason)
            self._sc.refused = reason  # @check discards the example, whatever the oracle makes of the error
        raise error

    def define_tool(self, definition: ToolDefinition) -> Any:
        return self._define("define_tool", definition)

    def describe_tool(self, handle: Any) -> AdvertisedTool:
        advertised: AdvertisedTool = self._forward("describe_tool", handle)
        return advertised

    def invoke_tool(self, handle: Any, tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation: ToolInvocation = self._forward("invoke_tool", handle, tool_use_id, input, invocation_state)
        return invocation

    def call_tool(self, handle: Any, input: Mapping[str, Any], context: ToolContext | None) -> Any:
        return self._forward("call_tool", handle, input, context)

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Any:
        return self._define("define_tool_from_function", function, strict)


def _layer(strictconformance_harness: Harness, rule_id: str, sources: Collection[InputSource] | None = None) -> _AdapterToolLayer:
    """The adapter's tool layer for ``rule_id``, or a "not covered" skip when the adapter lacks a
    capability the rule needs or declares none of the input-schema ``sources`` its cases use."""
    _no_direct_call(strictconformance_harness, rule_id)
    missing = [method for method in all_rules()[rule_id].capabilities if not strictconformance_harness.has(method)]
    if missing:
        not_covered(f"the adapter does not implement {', '.join(f'{method}()' for method in missing)}")
    layer = _AdapterToolLayer(strictconformance_harness)
    needed = frozenset(sources) if sources is not None else _CASE_SOURCES[rule_id]
    if not needed & layer.traits.sources:
        not_covered(f"these {rule_id} cases define tools from {' or '.join(sorted(needed))} input schemas; "
                    f"tool_layer_traits.sources declares only {', '.join(sorted(layer.traits.sources)) or 'none'}")
    return layer


def _no_direct_call(strictconformance_harness: Harness, rule_id: str) -> None:
    """TL-6 judges the SDK's documented direct call: a declared absence of one is "not covered"
    with the declared reason, never a failure; a declared one is named in TL-6's counterexamples."""
    if rule_id != "TL-6":
        return
    traits: ToolLayerTraits | None = strictconformance_harness.declarations.tool_layer_traits
    if traits is None:
        return
    if traits.no_direct_call is not None:
        not_covered(f"the SDK has no documented direct call that validates (tool_layer_traits.no_direct_call): {traits.no_direct_call}")
    strictconformance_harness.note(direct_call=traits.direct_call or "not declared (tool_layer_traits.direct_call names the SDK's "
                                                                     "documented direct call that call_tool makes)")


def _function_layer(strictconformance_harness: Harness, rule_id: str) -> _AdapterToolLayer:
    """The adapter's tool layer for a check of tools defined from a function alone, or a "not
    covered" skip when it lacks ``define_tool_from_function`` or a capability ``rule_id`` needs."""
    _no_direct_call(strictconformance_harness, rule_id)
    needed = ("define_tool_from_function", *(method for method in all_rules()[rule_id].capabilities if method != "define_tool"))
    missing = [method for method in needed if not strictconformance_harness.has(method)]
    if missing:
        not_covered(f"the adapter does not implement {', '.join(f'{method}()' for method in missing)} "
                    "(tools defined from a function by the SDK's decorator)")
    return _AdapterToolLayer(strictconformance_harness)


def _schema_source(layer: _AdapterToolLayer) -> InputSource:
    """Where a ``callback(input)`` tool's schema comes from in ``layer``: a raw schema, else a model."""
    return "json_schema" if "json_schema" in layer.traits.sources else "model"


def _case_json(value: Any) -> Any:
    """A case as its counterexample shows it: definitions as their summaries, shapes as their JSON
    Schema, call logs left out (what the callback received is in the violation's counterexample)."""
    if isinstance(value, ToolDefinition):
        return value.as_json()
    if isinstance(value, ObjectShape):
        return schema_for(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        out: dict[str, Any] = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if isinstance(item, CallLog):
                continue
            key = "schema" if isinstance(item, ObjectShape) else field.name
            out.setdefault(key, _case_json(item))
        return out
    if isinstance(value, tuple):
        return [_case_json(item) for item in value]
    return value


def _judge(strictconformance_harness: Harness, layer: _AdapterToolLayer | FromFunction, rule_id: str, case: Any) -> None:
    """Run ``rule_id``'s oracle on ``case``; its first violation fails the check (the others are
    listed). The counterexample is the violation's own; after an adapter fault, the whole case."""
    __tracebackhide__ = True
    try:
        violations: Sequence[Violation] = CHECKS[rule_id](layer, case)
    except ConformanceFailure:
        strictconformance_harness.note(case=_case_json(case))
        raise
    if not violations:
        return
    # each kind of defect its own finding, with its own counterexample: an SDK whose error result
    # names no field and that also runs the callback on invalid input shows both
    distinct: dict[str, Violation] = {}
    for violation in violations:
        distinct.setdefault(violation.defect or violation.message, violation)
    notes = dict(strictconformance_harness.notes)
    failures: list[ConformanceFailure] = []
    for violation in distinct.values():
        # the oracle names the layer's methods; for the user they are the adapter's, with the tool as "handle"
        strictconformance_harness.notes = {**notes, "call": violation.call.replace("layer.", "adapter.", 1), **violation.counterexample}
        if len(distinct) == 1:
            strictconformance_harness.fail(violation.message, detail=violation.defect or None)
        failure = RuleViolation(violation.message, rule_id=rule_id, detail=violation.defect or None)
        failure.calls = list(strictconformance_harness.transcript)
        failure.drawn = dict(strictconformance_harness.notes)
        failure.with_inputs = True  # type: ignore[attr-defined]  # @check adds the check's inputs
        failures.append(failure)
    raise ExceptionGroup(f"{len(failures)} defects of {rule_id}", failures)


# -- TL-1: one shape, one advertised schema ------------------------------------------------------


@check("TL-1")
@given(data=st.data())
def test_tl_1_one_shape_advertises_one_schema(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A pydantic model, a raw JSON Schema and a typed signature of one shape advertise one schema."""
    layer = _layer(strictconformance_harness, "TL-1")
    _judge(strictconformance_harness, layer, "TL-1", data.draw(callbacks.shape_cases(), label="case"))


_OWNER = ObjectShape("Owner", (("name", FieldShape("string")), ("level", FieldShape("integer", default=1))), closed=True)

#: The shapes SDKs get wrong today: ``T | None = None`` loses its null, nested models.
_KNOWN_SHAPES: Mapping[str, ObjectShape] = {
    "optional scalar T | None = None keeps null": ObjectShape(
        "Search", (("query", FieldShape("string", description="What to look for")),
                   ("limit", FieldShape("integer", nullable=True, default=None))), closed=True),
    "optional nested model | None = None keeps null": ObjectShape(
        "Assign", (("note", FieldShape("string")), ("owner", FieldShape("object", nullable=True, default=None, obj=_OWNER))),
        closed=True),
    "list of nested models": ObjectShape(
        "Team", (("members", FieldShape("list", item=FieldShape("object", obj=_OWNER))),), closed=True),
    "union str | int (and | None) keeps its variants": ObjectShape(
        "Lookup", (("key", FieldShape("union", variants=("string", "integer"))),
                   ("fallback", FieldShape("union", variants=("string", "boolean"), nullable=True, default=None, any_of=True))),
        closed=True),
    "constraints stay where they apply": ObjectShape(
        "Page", (("size", FieldShape("integer", constraints=(("minimum", 1), ("maximum", 100)))),
                 ("cursor", FieldShape("string", nullable=True, default=None, constraints=(("maxLength", 16), ("pattern", "^[a-z]*$")))),
                 ("ids", FieldShape("list", item=FieldShape("integer"), constraints=(("maxItems", 3),)))),
        closed=True),
}


@check("TL-1")
@pytest.mark.parametrize("shape_name", sorted(_KNOWN_SHAPES))
def test_tl_1_known_shapes(strictconformance_harness: Harness, shape_name: str) -> None:
    """Shapes whose schemas SDKs get wrong, written every way: all advertise the raw schema's shape."""
    _judge(strictconformance_harness, _layer(strictconformance_harness, "TL-1"), "TL-1", callbacks.shape_case(_KNOWN_SHAPES[shape_name], "known_shape"))


# -- TL-2: input validated before the callback -------------------------------------------------


@check("TL-2")
@given(data=st.data())
def test_tl_2_input_is_validated_before_the_callback(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """Valid input reaches the callback as given (nested models as models); invalid input never
    does and gives an error result naming the field."""
    layer = _layer(strictconformance_harness, "TL-2")
    case = data.draw(callbacks.recording_cases(sources=layer.traits.sources & _ALL_SOURCES, returns=layer.traits.callback_returns), label="case")
    _judge(strictconformance_harness, layer, "TL-2", case)


_ORDER = ObjectShape("Order", (("item", FieldShape("string")), ("owner", FieldShape("object", obj=_OWNER))), closed=True)
_SEARCH = _KNOWN_SHAPES["optional scalar T | None = None keeps null"]

#: (source, shape, valid input, input invalid at the pointer, pointer): bugs found in today's SDKs.
_KNOWN_INPUTS: Mapping[str, tuple[InputSource, ObjectShape, dict[str, JSONValue], dict[str, JSONValue], str]] = {
    "raw JSON Schema input is validated": (
        "json_schema", callbacks.SIMPLE_SHAPE, {"query": "q", "limit": 2}, {"query": "q", "limit": "2"}, "/limit"),
    "type hints: nested model arrives as a model": (
        "signature", _ORDER, {"item": "book", "owner": {"name": "Ada"}}, {"item": "book", "owner": {"name": 7}}, "/owner/name"),
    "pydantic model: nested model arrives as a model": (
        "model", _ORDER, {"item": "book", "owner": {"name": "Ada", "level": 2}}, {"item": "book", "owner": {"level": 2}}, "/owner/name"),
    "type hints: T | None = None accepts null": (
        "signature", _SEARCH, {"query": "q", "limit": None}, {"query": "q", "limit": "ten"}, "/limit"),
    "raw JSON Schema: null is refused where the type has no null": (
        "json_schema", _SEARCH, {"query": "q", "limit": None}, {"query": None, "limit": 2}, "/query"),
    "raw JSON Schema: constraints are enforced, not only types": (
        "json_schema", _KNOWN_SHAPES["constraints stay where they apply"], {"size": 100, "ids": [1, 2, 3]},
        {"size": 0, "ids": [1]}, "/size"),
    "pydantic model: a pattern is enforced": (
        "model", _KNOWN_SHAPES["constraints stay where they apply"], {"size": 1, "cursor": "abc", "ids": []},
        {"size": 1, "cursor": "ABC", "ids": []}, "/cursor"),
}


@check("TL-2")
@pytest.mark.parametrize("name", sorted(_KNOWN_INPUTS))
def test_tl_2_known_inputs(strictconformance_harness: Harness, name: str) -> None:
    """Raw schemas validated, nested models delivered as models, ``T | None`` taking null."""
    source, shape, valid, invalid, pointer = _KNOWN_INPUTS[name]
    layer = _layer(strictconformance_harness, "TL-2", {source})
    log = CallLog()
    returns: JSONValue = "ok" if layer.traits.callback_returns == "text" else {"ok": True}
    definition = callbacks.recording_definition(shape, source, name="known_input", log=log, returns=returns)
    _judge(strictconformance_harness, layer, "TL-2", RecordingCase(definition, shape, log, valid, invalid, pointer, returns))


# -- TL-3: exceptions become error results -------------------------------------------------------


@check("TL-3")
@given(data=st.data())
def test_tl_3_exceptions_become_error_results(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A callback's exception (sync, async, generators after some items) becomes one error result
    with its type, message and the tool-use id; it never escapes."""
    layer = _layer(strictconformance_harness, "TL-3")
    _judge(strictconformance_harness, layer, "TL-3", data.draw(callbacks.raising_cases(), label="case"))


_KINDS: tuple[CallbackKind, ...] = ("sync", "async", "sync_generator", "async_generator")


@check("TL-3")
@pytest.mark.parametrize("kind", _KINDS)
def test_tl_3_each_callback_kind(strictconformance_harness: Harness, kind: CallbackKind) -> None:
    """Errors neither escape nor hide, whatever kind of callback raised them."""
    layer = _layer(strictconformance_harness, "TL-3")
    items: tuple[JSONValue, ...] = ("looking up",) if kind.endswith("generator") else ()
    case = callbacks.raising_case(kind, LookupError, "no such city: Atlantis", items=items, source=_schema_source(layer))
    _judge(strictconformance_harness, layer, "TL-3", case)


# -- TL-4: events in order, then one result ------------------------------------------------------


@check("TL-4")
@given(data=st.data())
def test_tl_4_events_in_order_then_one_result(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """Generator items stream as progress events in order, then exactly one final result (the
    final value as the layer declares it is given, or the declared empty value)."""
    layer = _layer(strictconformance_harness, "TL-4")
    case = data.draw(callbacks.streaming_cases(convention=layer.traits.final_value), label="case")
    _judge(strictconformance_harness, layer, "TL-4", case)


#: (kind, items, gives a final value): generators turned into text, and empty generators.
_KNOWN_STREAMS: Mapping[str, tuple[CallbackKind, tuple[JSONValue, ...], bool]] = {
    "sync generator: items are events, not text": ("sync_generator", ("step 1", {"step": 2, "of": 2}), True),
    "async generator: items are events, not text": ("async_generator", ("step 1", {"step": 2, "of": 2}), True),
    "empty sync generator gives the declared value": ("sync_generator", (), False),
    "empty async generator gives the declared value": ("async_generator", (), False),
}


@check("TL-4")
@pytest.mark.parametrize("name", sorted(_KNOWN_STREAMS))
def test_tl_4_known_streams(strictconformance_harness: Harness, name: str) -> None:
    """Generators stream their items, then one result; an empty one gives the declared value."""
    layer = _layer(strictconformance_harness, "TL-4")
    kind, items, gives_final = _KNOWN_STREAMS[name]
    convention = layer.traits.final_value
    # how the declared convention lets a generator give a final value, if at all
    has_final = convention != "none" and (gives_final or (convention == "last_item" and bool(items)))
    case = callbacks.streaming_case(kind, items, final={"temperature": 21.5}, has_final=has_final, convention=convention,
                                    source=_schema_source(layer))
    _judge(strictconformance_harness, layer, "TL-4", case)


# -- TL-5: context is opt-in and never in the schema -------------------------------------------


@check("TL-5")
@given(data=st.data())
def test_tl_5_context_is_opt_in_and_stays_out_of_the_schema(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A context parameter is not advertised, receives the tool-use id and invocation state; a
    tool that did not opt in gets no context."""
    layer = _layer(strictconformance_harness, "TL-5")
    _judge(strictconformance_harness, layer, "TL-5", data.draw(callbacks.context_cases(sources=layer.traits.sources & _ALL_SOURCES), label="case"))


@check("TL-5")
@pytest.mark.parametrize("source", sorted(_ALL_SOURCES))
def test_tl_5_each_source(strictconformance_harness: Harness, source: InputSource) -> None:
    """Context from each schema source the layer declares: a type-hinted parameter, or the second
    argument of a model or raw-schema tool."""
    layer = _layer(strictconformance_harness, "TL-5", {source})
    if source not in layer.traits.sources:
        not_covered(f"tool_layer_traits.sources does not declare {source}")
    shape = _KNOWN_SHAPES["optional nested model | None = None keeps null"]
    case = callbacks.context_case(shape, source, name="known_context", parameter="ctx", input={"note": "n", "owner": {"name": "Ada"}},
                                  tool_use_id="toolu_ctx", invocation_state={"user_id": 7})
    _judge(strictconformance_harness, layer, "TL-5", case)


# -- TL-6: a direct call validates and raises --------------------------------------------------


@check("TL-6")
@given(data=st.data())
def test_tl_6_direct_call_validates_and_raises(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """Calling the tool object validates its input and raises (invalid input, the callback's
    exception); the tool-use path returns an error result for the same invalid input."""
    layer = _layer(strictconformance_harness, "TL-6")
    case = data.draw(callbacks.direct_call_cases(sources=layer.traits.sources & _ALL_SOURCES, returns=layer.traits.callback_returns), label="case")
    _judge(strictconformance_harness, layer, "TL-6", case)


@check("TL-6")
@given(data=st.data())
def test_tl_6_direct_call_of_a_context_tool(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A tool that opted in to context, called directly: with the context supplied, the callback
    gets it and invalid input raises an error naming the field; without one, invalid input still
    never reaches the callback."""
    layer = _layer(strictconformance_harness, "TL-6")
    case = data.draw(callbacks.context_direct_call_cases(sources=layer.traits.sources & _ALL_SOURCES, returns=layer.traits.callback_returns),
                     label="case")
    _judge(strictconformance_harness, layer, "TL-6", case)


@check("TL-6")
@pytest.mark.parametrize("source", sorted(_ALL_SOURCES))
def test_tl_6_context_tool_each_source(strictconformance_harness: Harness, source: InputSource) -> None:
    """A context tool from each schema source the layer declares, called directly with its context
    and without: ``note(owner={"name": 7})`` raises naming ``/owner/name``, the callback not run."""
    layer = _layer(strictconformance_harness, "TL-6", {source})
    if source not in layer.traits.sources:
        not_covered(f"tool_layer_traits.sources does not declare {source}")
    returns: JSONValue = "ok" if layer.traits.callback_returns == "text" else {"ok": True}
    case = callbacks.context_direct_call_case(_ORDER, source, name="known_context_call", parameter="ctx",
                                              valid_input={"item": "book", "owner": {"name": "Ada"}},
                                              invalid_input={"item": "book", "owner": {"name": 7}}, invalid_field="/owner/name",
                                              returns=returns, tool_use_id="toolu_direct_ctx", invocation_state={"user_id": 7})
    _judge(strictconformance_harness, layer, "TL-6", case)


# -- TL-7: strict validated at definition --------------------------------------------------------


@check("TL-7")
@given(data=st.data())
def test_tl_7_strict_is_kept_or_rejected_at_definition(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A valid strict setting is advertised exactly as given; an invalid one (the kit's
    invalid_strict_settings) is refused by define_tool with an error that mentions strict."""
    layer = _layer(strictconformance_harness, "TL-7")
    convention = layer.traits.strict_convention
    case = data.draw(callbacks.strict_cases(convention, sources=layer.traits.sources & _ALL_SOURCES), label="case")
    _judge(strictconformance_harness, layer, "TL-7", case)


def _valid_strict(value: object, convention: StrictConvention) -> bool:
    """SPEC §1: true, false and unset always; a finite number > 0 in the priority convention."""
    if value is None or isinstance(value, bool):
        return True
    if convention != "priority" or not isinstance(value, (int, float)):
        return False
    try:
        return math.isfinite(float(value)) and value > 0
    except OverflowError:  # an int too large for a float (10**400) is no usable priority
        return False


#: SPEC §1's examples: negative or zero numbers, NaN, strings are errors; bools, unset, priorities are kept.
_SPEC_STRICT_VALUES: tuple[object, ...] = (True, False, None, 1, 0.5, 0, -1, -0.5, math.nan, math.inf, 10**400, "true", "")


def _strict_id(value: object) -> str:
    return "10**400" if value == 10**400 else repr(value)


@check("TL-7")
@pytest.mark.parametrize("strict", _SPEC_STRICT_VALUES, ids=_strict_id)
def test_tl_7_spec_strict_values(strictconformance_harness: Harness, strict: object) -> None:
    """SPEC §1's strict values, each judged under the layer's declared strict convention."""
    layer = _layer(strictconformance_harness, "TL-7")
    source: InputSource = "json_schema" if "json_schema" in layer.traits.sources else min(layer.traits.sources & _ALL_SOURCES)
    case = callbacks.strict_case(strict, _valid_strict(strict, layer.traits.strict_convention), source=source)
    _judge(strictconformance_harness, layer, "TL-7", case)


# -- tools defined from a function: TL-2, TL-3, TL-4, TL-6 again ----------------------------------
# The same oracles, with each type-hint definition handed to define_tool_from_function (the SDK's
# decorator, nothing else said): the error handling, streaming and direct calls users get from
# @function_tool, @tool, Tool(fn). An undeclared key is TL-9's here, not TL-2's.

_NO_EXTRA_KEYS = ("unexpected",)
_SIGNATURE: tuple[InputSource, ...] = ("signature",)


@check("TL-2")
@given(data=st.data())
def test_tl_2_from_function(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """A tool from a documented function validates its input before the callback runs."""
    layer = FromFunction(_function_layer(strictconformance_harness, "TL-2"))
    case = data.draw(callbacks.recording_cases(sources=_SIGNATURE, exclude_mutations=_NO_EXTRA_KEYS, returns=layer.traits.callback_returns), label="case")
    _judge(strictconformance_harness, layer, "TL-2", case)


@check("TL-3")
@pytest.mark.parametrize("kind", _KINDS)
def test_tl_3_from_function(strictconformance_harness: Harness, kind: CallbackKind) -> None:
    """A tool from a function of each kind: its exception becomes an error result, never escapes."""
    layer = FromFunction(_function_layer(strictconformance_harness, "TL-3"))
    items: tuple[JSONValue, ...] = ("looking up",) if kind.endswith("generator") else ()
    case = callbacks.raising_case(kind, LookupError, "no such city: Atlantis", items=items, source="signature", name="find_city")
    _judge(strictconformance_harness, layer, "TL-3", case)


@check("TL-3")
@given(data=st.data())
def test_tl_3_from_function_drawn(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """Drawn exceptions and messages from functions of every kind."""
    layer = FromFunction(_function_layer(strictconformance_harness, "TL-3"))
    _judge(strictconformance_harness, layer, "TL-3", data.draw(callbacks.raising_cases(sources=_SIGNATURE), label="case"))


@check("TL-4")
@pytest.mark.parametrize("name", sorted(_KNOWN_STREAMS))
def test_tl_4_from_function(strictconformance_harness: Harness, name: str) -> None:
    """Generator functions handed to the decorator stream their items, then one result."""
    layer = FromFunction(_function_layer(strictconformance_harness, "TL-4"))
    kind, items, gives_final = _KNOWN_STREAMS[name]
    convention = layer.traits.final_value
    has_final = convention != "none" and (gives_final or (convention == "last_item" and bool(items)))
    case = callbacks.streaming_case(kind, items, final={"temperature": 21.5}, has_final=has_final, convention=convention,
                                    source="signature", name="stream_weather")
    _judge(strictconformance_harness, layer, "TL-4", case)


@check("TL-6")
@given(data=st.data())
def test_tl_6_from_function(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """Calling a decorated function's tool validates and raises, where the SDK lets it be called
    (call_tool); an SDK whose tool objects cannot be called leaves call_tool out: not covered."""
    layer = FromFunction(_function_layer(strictconformance_harness, "TL-6"))
    case = data.draw(callbacks.direct_call_cases(sources=_SIGNATURE, exclude_mutations=_NO_EXTRA_KEYS, returns=layer.traits.callback_returns), label="case")
    _judge(strictconformance_harness, layer, "TL-6", case)


# -- TL-8: the docstring's summary is the description -------------------------------------------


def get_weather(city: str, unit: str = "celsius") -> str:
    """Get the current weather for a city.

    Args:
        city: City name or zip code.
        unit: Temperature unit, celsius or fahrenheit.

    Returns:
        A short forecast text.
    """
    return f"{city}: 21 {unit}"


def search_catalogue(query: str, limit: int = 10) -> list[str]:
    """Search the catalogue and return the best matches.

    Results are ranked by relevance; the catalogue is refreshed every hour.

    Args:
        query: What to look for in titles and authors.
        limit: How many matches to return at most.

    Raises:
        LookupError: When the catalogue is offline.
    """
    return [query][:limit]


def book_table(restaurant: str, seats: int) -> str:
    """
    Book a table at a restaurant.

    Args:
        restaurant: The restaurant's name as listed.
        seats: How many seats to book, one to twelve.
    """
    return f"{seats} at {restaurant}"


#: Functions as users write them: a one-line summary, a two-paragraph one, a summary opening on
#: the line after the quotes; Args, Returns and Raises sections.
_DOCUMENTED: Mapping[str, Callable[..., Any]] = {function.__name__: function for function in (get_weather, search_catalogue, book_table)}


@check("TL-8")
@pytest.mark.parametrize("name", sorted(_DOCUMENTED))
def test_tl_8_known_docstrings(strictconformance_harness: Harness, name: str) -> None:
    """The description is the summary; the Args/Returns/Raises sections stay out of it."""
    layer = _function_layer(strictconformance_harness, "TL-8")
    _judge(strictconformance_harness, layer, "TL-8", callbacks.documented_function_case(_DOCUMENTED[name]))


@check("TL-8")
@given(data=st.data())
def test_tl_8_description_is_the_summary(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """Drawn documented functions: the tool's name is the function's, its description the summary."""
    layer = _function_layer(strictconformance_harness, "TL-8")
    _judge(strictconformance_harness, layer, "TL-8", data.draw(callbacks.description_cases(), label="case"))


# -- TL-9: extra keys on a closed schema -----------------------------------------------------------


@check("TL-9")
@given(data=st.data())
def test_tl_9_extra_keys_are_rejected_or_reported(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """An undeclared key under a closed advertised schema is rejected or reported, never dropped
    silently (an open advertised schema may drop it)."""
    layer = _function_layer(strictconformance_harness, "TL-9")
    _judge(strictconformance_harness, layer, "TL-9", data.draw(callbacks.extra_keys_cases(), label="case"))


@check("TL-9")
@pytest.mark.parametrize("strict", [None, True], ids=repr)
def test_tl_9_known_extra_key(strictconformance_harness: Harness, strict: bool | None) -> None:
    """``lookup(query, limit=3)`` called with ``unexpected_extra``, strict unset and true; not
    covered when the layer advertises an open schema for it (then dropping the key is allowed)."""
    layer = _function_layer(strictconformance_harness, "TL-9")
    case = callbacks.extra_keys_case(callbacks.SIMPLE_SHAPE, callbacks.SIMPLE_INPUT, name="lookup", strict=strict)
    try:
        advertised = layer.describe_tool(layer.define_tool_from_function(case.function, strict))
    except ConformanceFailure:
        raise
    except Exception:  # the oracle defines the tool again and reports what it raises
        advertised = None
    if advertised is not None and advertised.input_schema.get("additionalProperties") is not False:
        not_covered("the layer advertises this function tool with an open schema (no additionalProperties: false): "
                    "an undeclared key may be dropped")
    _judge(strictconformance_harness, layer, "TL-9", case)


# -- TL-10: defaults advertised or their loss declared --------------------------------------------


def forecast(city: str, days: int = 3, unit: str = "celsius", hourly: bool = False, note: str | None = None) -> str:
    """Forecast the weather for a city.

    Args:
        city: City name.
        days: How many days ahead.
        unit: Temperature unit.
        hourly: Hour by hour instead of daily.
        note: A note to attach.
    """
    return f"{city} {days} {unit} {hourly} {note}"


@check("TL-10")
@pytest.mark.parametrize("strict", [None, True, False], ids=repr)
def test_tl_10_known_defaults(strictconformance_harness: Harness, strict: bool | None) -> None:
    """``forecast(city, days=3, unit="celsius", hourly=False, note=None)``: each default is
    advertised, or the layer declares that it drops them (always, or when strict)."""
    layer = _function_layer(strictconformance_harness, "TL-10")
    _judge(strictconformance_harness, layer, "TL-10", callbacks.function_defaults_case(forecast, strict=strict))


@check("TL-10")
@given(data=st.data())
def test_tl_10_defaults_are_advertised(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """Drawn functions with defaulted parameters of every kind, strict unset, true or false."""
    layer = _function_layer(strictconformance_harness, "TL-10")
    _judge(strictconformance_harness, layer, "TL-10", data.draw(callbacks.defaults_cases(), label="case"))


# -- TL-11: a strict tool refused only where strict mode cannot express it ------------------------


def _tl11(strictconformance_harness: Harness, case: RefusalCase) -> None:
    """Define the strict tool of ``case``; judge a refusal as SPEC TL-11 says (declared, and only
    for a schema strict mode cannot express). Accepting the tool is never this rule's finding."""
    __tracebackhide__ = True
    strictconformance_harness.note(call=f"adapter.define_tool({json.dumps(case.definition.as_json(), default=repr)})",
                                   definition=case.definition.as_json(), schema=schema_for(case.shape), expressible=case.expressible)
    attempt = strictconformance_harness.attempt("define_tool", case.definition, allowed=(Exception,))
    error = attempt.error
    if error is None:
        return
    declared = strictconformance_harness.declarations.tool_refusals
    said = f"{type(error).__qualname__}: {str(error)[:300]}"
    if not (declared and isinstance(error, declared)):
        strictconformance_harness.fail(
            f"define_tool refused a strict tool with {said}, which is not one of the adapter's tool_refusals: a layer refuses a "
            "definition only with an exception it declares (Adapter.tool_refusals)",
            detail=f"an undeclared refusal: {type(error).__qualname__}")
    if case.expressible:
        strictconformance_harness.refusal(
            f"define_tool refused a strict tool whose input schema strict mode expresses (every object closed) with {said}",
            detail=f"{type(error).__qualname__}: {_abstract(str(error))}")
    strictconformance_harness.count_tool_refusal(error)  # declared, for a schema strict mode cannot express: counted


def _abstract(text: str) -> str:
    """A refusal's message with the values taken out (one defect, whichever definition met it)."""
    from strictconformance.defects import message_shape

    return message_shape(text)[:160]


@check("TL-11")
@given(data=st.data())
def test_tl_11_refuses_only_what_strict_mode_cannot_express(strictconformance_harness: Harness, data: st.DataObject) -> None:
    """Strict tools with every object closed, and with an open object (``dict[str, Any]``): only the
    latter may be refused, and only with a declared exception (counted in the report)."""
    layer = _layer(strictconformance_harness, "TL-11")
    _tl11(strictconformance_harness, data.draw(callbacks.refusal_cases(sources=layer.traits.sources & _ALL_SOURCES), label="case"))


#: The known refusal cases: a closed nested model beside scalars (``item: str, owner: Owner``); the
#: same with the model nullable (``owner: Owner | None``, an ``anyOf`` of the object and null, whose
#: optional ``level`` strict mode makes required and nullable: a shape one SDK refuses in strict
#: mode); and the first with ``metadata: dict[str, Any]`` (an open object: no strict mode expresses it).
_REFUSAL_SHAPES: Mapping[str, tuple[ObjectShape, bool]] = {
    "closed": (_ORDER, False),
    "nullable-model": (ObjectShape("Order", (("item", FieldShape("string")), ("owner", FieldShape("object", nullable=True, obj=_OWNER))), closed=True), False),
    "open": (_ORDER, True),
}
_KNOWN_REFUSALS: tuple[tuple[InputSource, str], ...] = tuple((source, variant) for source in sorted(_ALL_SOURCES) for variant in _REFUSAL_SHAPES)


@check("TL-11")
@pytest.mark.parametrize(("source", "variant"), _KNOWN_REFUSALS)
def test_tl_11_known_refusals(strictconformance_harness: Harness, source: InputSource, variant: str) -> None:
    """``item: str, owner: Owner`` (closed) and ``owner: Owner | None`` strict: never refused; with
    ``metadata: dict[str, Any]``: refused only with a declared exception, or accepted."""
    layer = _layer(strictconformance_harness, "TL-11")
    if source not in layer.traits.sources:
        not_covered(f"tool_layer_traits.sources does not declare {source}")
    shape, open_object = _REFUSAL_SHAPES[variant]
    _tl11(strictconformance_harness, callbacks.refusal_case(shape, source, name="known_refusal", open_object=open_object))

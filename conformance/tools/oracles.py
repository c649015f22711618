"""The TL checks as pure decisions: a tool layer and one case in, violations out (SPEC.md §6).

Each ``check_tl*`` drives a :class:`ToolLayer` through one case and returns the list of
:class:`Violation` it found, empty when the layer conforms. A violation names its rule ID, says
what went wrong in a sentence a maintainer can act on, shows the adapter call that produced it
and a JSON counterexample. Nothing the layer raises escapes a check: an unexpected exception is
itself reported against the rule being checked — except the harness's own failures
(:class:`~strictconformance.findings.CheckFailure`, the harness's ConformanceFailure: a call that hung, returned junk or
mutated its input, when the layer is an adapter driven through the ``strictconformance_harness`` fixture), which
propagate as they are. :func:`assert_conforms` turns violations into one ``AssertionError`` for
Hypothesis to shrink.

The checks are strict where the SPEC is and lenient where SDKs legitimately differ: schemas are
compared by what they accept, with the oracles' own comparison (:mod:`~strictconformance.tools.equivalence`:
titles, ``$defs`` placement and ``anyOf``-vs-type-list do not matter, a lost ``null`` or a dropped
``additionalProperties`` does), and a layer is compared
with itself: TL-1 wants every source of one shape to advertise what the layer advertises for
the shape's raw JSON Schema, and that to validate as the raw schema does (annotations such as
``default`` may go, as long as every source drops them alike); TL-5 compares a tool with context
to the same tool without. An omitted optional argument may arrive absent or as its declared
default; an error may be reported in structured fields or only in the result text (naming the
field by pointer, path or quoted name); a success value may be structured or only text (JSON
compared parsed); a generator's final value follows the layer's declared convention
(:class:`ToolLayerTraits`).
"""

from __future__ import annotations

import inspect
import json
import logging
import re
import warnings
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any, TypeVar

from pydantic_core import PydanticSerializationError, to_jsonable_python

from strictconformance.dialects.pointers import split_pointer
from strictconformance.findings import CheckFailure
from strictconformance.tools.cases import (
    CallLog,
    ContextCase,
    ContextDirectCallCase,
    DefaultsCase,
    DescriptionCase,
    DirectCallCase,
    ExtraKeysCase,
    RaisingCase,
    RecordingCase,
    ShapeCase,
    StreamingCase,
    StrictCase,
)
from strictconformance.tools.contract import (
    FunctionToolLayer,
    ToolDefinition,
    ToolLayer,
    ToolLayerTraits,
)
from strictconformance.tools.equivalence import Difference, compare_schemas, input_schema_problem
from strictconformance.tools.jsonvalue import parse_json_text
from strictconformance.tools.results import ToolContext, ToolEvent, ToolInvocation, ToolResult
from strictconformance.tools.shapes import (
    ObjectShape,
    as_json,
    fill_defaults,
    json_equal,
    schema_for,
    type_mismatches,
)

__all__ = [
    "CHECKS",
    "FromFunction",
    "ToolRuleViolation",
    "Violation",
    "assert_conforms",
    "check_tl1",
    "check_tl2",
    "check_tl3",
    "check_tl4",
    "check_tl5",
    "check_tl6",
    "check_tl7",
    "check_tl8",
    "check_tl9",
    "check_tl10",
]

T = TypeVar("T")


@dataclass(frozen=True)
class Violation:
    """One broken rule: which, why, the adapter call, and a JSON counterexample."""

    rule_id: str
    message: str
    call: str
    counterexample: Mapping[str, Any]
    #: What kind of mistake it is, without the drawn values: part of the finding's key, so two
    #: defects of one rule are two findings.
    defect: str = ""

    def __str__(self) -> str:
        example = json.dumps(self.counterexample, indent=2, default=repr, ensure_ascii=False)
        return f"[{self.rule_id}] {self.message}\n  call: {self.call}\n  counterexample: {example}"


class ToolRuleViolation(AssertionError):
    """Raised by :func:`assert_conforms`; carries the violations."""

    def __init__(self, violations: Sequence[Violation]) -> None:
        self.violations = tuple(violations)
        super().__init__("\n\n".join(str(violation) for violation in self.violations))


def assert_conforms(violations: Sequence[Violation]) -> None:
    """Raise :class:`ToolRuleViolation` when there is any violation."""
    if violations:
        raise ToolRuleViolation(violations)


def _dump(value: object) -> str:
    try:
        text = json.dumps(value, default=repr, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    return text if len(text) <= 400 else text[:397] + "..."


def _call(method: str, *args: object) -> str:
    return f"layer.{method}({', '.join(arg if isinstance(arg, str) and arg == 'handle' else _dump(arg) for arg in args)})"


class _Escaped(Exception):
    """Internal: a layer call raised; carries a violation for it."""

    def __init__(self, violation: Violation) -> None:
        super().__init__(violation.message)
        self.violation = violation


def _attempt(rule_id: str, call: str, example: Mapping[str, Any], action: Callable[[], T], what: str) -> T:
    try:
        return action()
    except CheckFailure:
        raise
    except Exception as exc:
        raise _Escaped(Violation(rule_id, f"{what} raised {type(exc).__qualname__}: {exc}", call, example, defect=f"{what} raised {type(exc).__qualname__}")) from exc


def _define(rule_id: str, layer: ToolLayer, definition: ToolDefinition, example: Mapping[str, Any]) -> Any:
    return _attempt(rule_id, _call("define_tool", definition.as_json()), example, lambda: layer.define_tool(definition), "defining a valid tool")


def _invoke(rule_id: str, layer: ToolLayer, handle: Any, tool_use_id: str, input: Mapping[str, Any], state: Mapping[str, Any], example: Mapping[str, Any], what: str) -> tuple[ToolInvocation, str]:
    call = _call("invoke_tool", "handle", tool_use_id, input, state)
    invocation = _attempt(rule_id, call, example, lambda: layer.invoke_tool(handle, tool_use_id, input, state), what)
    return invocation, call


def _checked(rule_id: str, run: Callable[[], list[Violation]]) -> list[Violation]:
    try:
        return run()
    except _Escaped as escaped:
        return [escaped.violation]


def _single_result(rule_id: str, invocation: ToolInvocation, call: str, example: Mapping[str, Any]) -> tuple[ToolResult | None, list[Violation]]:
    if len(invocation.results) == 1:
        return invocation.results[0], []
    return None, [Violation(rule_id, f"expected exactly one final result, got {len(invocation.results)}", call, {**example, "invocation": invocation.as_json()}, defect="not exactly one final result")]


def _text(result: ToolResult) -> str:
    return " ".join(part for part in (result.error_type, result.error_message, result.content) if part)


def _to_json(value: object) -> object:
    try:
        return to_jsonable_python(value, by_alias=True)
    except PydanticSerializationError:
        return value


def _carries(result: ToolResult, expected: object) -> bool:
    """A success result carries ``expected`` as its value, or as its text (SDKs that stringify):
    JSON text is compared parsed (compact or not, ASCII-escaped or not), a string as itself."""
    expected_json = _to_json(expected)
    if json_equal(_to_json(result.value), expected_json):
        return True
    if isinstance(expected_json, str) and result.content == expected_json:
        return True
    try:
        return json_equal(parse_json_text(result.content), expected_json)
    except ValueError:
        return False


def _id_problem(results: Sequence[ToolResult], expected: str) -> str | None:
    wrong = [result.tool_use_id for result in results if result.tool_use_id != expected]
    return f"carries tool-use id {wrong[0]!r}, not {expected!r}" if wrong else None


def _new_calls(log: CallLog, before: int) -> list[Any]:
    return log.calls[before:]


def _received_ok(received: object, given: Mapping[str, Any], definition: ToolDefinition, shape: ObjectShape) -> bool:
    """``received`` equals ``given``, except that omitted defaulted properties may appear as their
    defaults, and (model and type-hint tools only) undeclared properties of open objects may go."""
    received_json = as_json(received)
    if not isinstance(received_json, Mapping):
        return False
    keep = definition.source == "json_schema"
    return json_equal(fill_defaults(received_json, shape, keep_undeclared=keep), fill_defaults(given, shape, keep_undeclared=keep))


_QUOTES = "'\"`\u2018\u2019\u201c\u201d"


def _path_parts(field: str) -> list[str]:
    """A failing field as its path segments: a JSON pointer, or a dotted/bracketed path (``a.b[0]``)."""
    if field.startswith("/") or field == "":
        return split_pointer(field)
    return [part.strip(_QUOTES) for part in re.findall(r"[^.\[\]]+", field)]


def _mentions_path(text: str, parts: list[str]) -> bool:
    """Whether ``text`` names the field at ``parts``: by pointer, by dotted path, by quoted name, or
    by its path alone on a line (pydantic's layout). A bare word is not enough: a field named
    ``type`` or ``required`` would match any message saying "is not of type" or "required property"."""
    if not parts:
        return False
    pointer = "/" + "/".join(part.replace("~", "~0").replace("/", "~1") for part in parts)
    dotted = ".".join(parts)
    bracketed = "".join(f"[{part}]" if part.isdigit() else f".{part}" for part in parts).lstrip(".")
    names = [part for part in parts if not part.isdigit()]
    patterns = [re.escape(pointer) + r"(?![\w~])", rf"(?m)^\s*{re.escape(dotted)}\s*(:|$)"]
    if len(parts) > 1:
        patterns += [rf"(?<![\w.]){re.escape(path)}(?![\w])" for path in (dotted, bracketed)]
    if names:
        patterns.append(rf"[{_QUOTES}]{re.escape(names[-1])}[{_QUOTES}]")
    return any(re.search(pattern, text) for pattern in patterns)


def _names_field(result: ToolResult, pointer: str) -> bool:
    """The error result names the failing field: in ``error_field`` (any path notation), or in its text."""
    parts = split_pointer(pointer)
    if result.error_field is not None and _path_parts(result.error_field) == parts:
        return True
    return _mentions_path(_text(result), parts)


# -- TL-1 ---------------------------------------------------------------------------------------


#: Keywords that only annotate a schema: a layer may leave them out of what it advertises (many
#: drop ``default``, which strict modes reject) as long as it does so for every source alike.
ANNOTATIONS = frozenset({"default", "examples", "deprecated", "readOnly", "writeOnly", "title", "$comment"})


#: Keywords whose always-true subschema (``{}`` or ``true``) constrains nothing: the same as absent
#: (Zod's toJSONSchema writes ``"additionalProperties": {}`` for an object that keeps extra keys).
#: Not ``contains`` (an array must then be non-empty) nor ``not`` (rejects everything).
NO_OP_WHEN_TRUE = frozenset({"additionalProperties", "items", "additionalItems", "unevaluatedProperties",
                             "unevaluatedItems", "propertyNames"})


def _difference_text(difference: Difference, left: str, right: str) -> str:
    """A schema difference as a maintainer reads it: the first place, or the input that tells them apart."""
    if difference.by_instance:
        return (f"{left} {difference.left} the input {_dump(difference.witness)}, {right} {difference.right} it")
    return f"first difference at {difference.where}: {_dump(difference.left)} instead of {_dump(difference.right)}"


def _advertised_schema(rule_id: str, layer: ToolLayer, handle: Any, definition: ToolDefinition, example: Mapping[str, Any]) -> tuple[Mapping[str, Any] | None, str, Any, list[Violation]]:
    """Describe the tool ``handle`` defined from ``definition``: (its advertised schema, or None when
    it is unusable, the describe call, what was advertised, violations when it is unusable)."""
    call = _call("describe_tool", "handle")
    advertised = _attempt(rule_id, call, example, lambda: layer.describe_tool(handle), "describe_tool")
    problem = input_schema_problem(advertised.input_schema)
    if problem is None:
        return advertised.input_schema, call, advertised.input_schema, []
    message = f"the schema advertised for a {definition.source} definition is unusable: input schema: {problem}"
    return None, call, advertised.input_schema, [Violation(rule_id, message, call, {**example, "advertised": advertised.input_schema}, defect=f"the schema advertised for a {definition.source} definition is unusable")]


def check_tl1(layer: ToolLayer, case: ShapeCase) -> list[Violation]:
    """TL-1: a model, a raw JSON Schema (and a typed signature) of one shape advertise one schema.

    The layer is compared with itself: every source must advertise what the layer advertises for
    the shape's raw JSON Schema (or, without raw schemas, for the first source it takes), and that
    must validate as the raw schema does. The kit's own annotations are not demanded."""
    expected = case.schema
    definitions = [definition for definition in case.definitions if definition.source in layer.traits.sources]
    if layer.traits.strict_default:
        # a layer strict by default transforms unset-strict schemas for its provider's strict mode
        # (every property required, ...): SM-* judge that; TL-1 compares the sources without it
        definitions = [replace(definition, strict=False) if definition.strict is None else definition for definition in definitions]
    definitions.sort(key=lambda definition: definition.source != "json_schema")  # the raw schema first: the yardstick
    violations: list[Violation] = []
    baseline: tuple[str, Mapping[str, Any]] | None = None
    for definition in definitions:
        example = {"source": definition.source, "raw_schema": case.schema, "definition": definition.as_json()}

        def run(definition: ToolDefinition = definition, example: dict[str, Any] = example) -> list[Violation]:
            nonlocal baseline
            handle = _define("TL-1", layer, definition, example)
            got, call, advertised, problems = _advertised_schema("TL-1", layer, handle, definition, example)
            if got is None:
                return problems
            shown = {**example, "advertised": advertised}
            if baseline is None:
                baseline = (definition.source, got)
                difference = compare_schemas(got, expected, ignore=ANNOTATIONS, absent_when_true=NO_OP_WHEN_TRUE)
                if difference is None:
                    return []
                text = _difference_text(difference, "the advertised schema", "the raw schema")
                return [Violation("TL-1", f"the {definition.source} definition advertises a schema that validates differently "
                                          f"from the shape's raw JSON Schema; {text}", call, shown, defect=f"the {definition.source} definition validates differently from the raw JSON Schema")]
            source, yardstick = baseline
            # one schema by what it accepts: an always-true keyword (pydantic writes
            # ``additionalProperties: true`` for ``dict[str, Any]``) is the keyword left out
            difference = compare_schemas(got, yardstick, absent_when_true=NO_OP_WHEN_TRUE)
            if difference is None:
                return []
            what = "the same shape as raw JSON Schema" if source == "json_schema" else f"the same shape as a {source} definition"
            text = _difference_text(difference, "this schema", f"the one advertised for the {source} definition")
            return [Violation("TL-1", f"the {definition.source} definition advertises a different schema than {what}; {text}",
                              call, {**shown, f"advertised_for_{source}": yardstick}, defect=f"the {definition.source} definition advertises another schema than {what}")]

        violations.extend(_checked("TL-1", run))
    return violations


# -- TL-2 ---------------------------------------------------------------------------------------


def check_tl2(layer: ToolLayer, case: RecordingCase) -> list[Violation]:
    """TL-2: valid input reaches the callback as given; invalid input never does and names its field."""
    if case.definition.source not in layer.traits.sources:
        return []
    example: dict[str, Any] = {"definition": case.definition.as_json(), "schema": schema_for(case.shape)}

    def run() -> list[Violation]:
        violations: list[Violation] = []
        handle = _define("TL-2", layer, case.definition, example)
        before = len(case.log.calls)
        valid_example = {**example, "input": case.valid_input}
        invocation, call = _invoke("TL-2", layer, handle, "toolu_valid", case.valid_input, {}, valid_example, "invoking with valid input")
        result, problems = _single_result("TL-2", invocation, call, valid_example)
        violations += problems
        calls = _new_calls(case.log, before)
        if result is not None and result.status != "success":
            violations.append(Violation("TL-2", f"valid input gave an error result: {result.content}", call, {**valid_example, "result": result.as_json()}, defect="valid input gave an error result"))
        elif result is not None and (wrong_id := _id_problem([result], "toolu_valid")):
            violations.append(Violation("TL-2", f"the success result {wrong_id}", call, {**valid_example, "result": result.as_json()}, defect="the success result has the wrong tool-use id"))
        if len(calls) != 1:
            violations.append(Violation("TL-2", f"valid input should call the callback once, it was called {len(calls)} times", call, valid_example, defect="valid input did not call the callback once"))
        else:
            received = calls[0].input
            if not _received_ok(received, case.valid_input, case.definition, case.shape):
                violations.append(Violation("TL-2", "the callback did not receive the input as given", call, {**valid_example, "received": as_json(received)}, defect="the callback did not receive the input as given"))
            mismatches = type_mismatches(received, case.shape, expect_models=case.definition.source != "json_schema")
            if mismatches:
                violations.append(Violation("TL-2", f"the callback received the wrong types: {'; '.join(mismatches)}", call, valid_example, defect="the callback received the wrong types"))
        before = len(case.log.calls)
        invalid_example = {**example, "input": case.invalid_input, "invalid_at": case.invalid_field}
        invocation, call = _invoke("TL-2", layer, handle, "toolu_invalid", case.invalid_input, {}, invalid_example, "invoking with invalid input")
        result, problems = _single_result("TL-2", invocation, call, invalid_example)
        violations += problems
        if _new_calls(case.log, before):
            violations.append(Violation("TL-2", f"input invalid at {case.invalid_field} reached the callback", call, invalid_example, defect="invalid input reached the callback"))
        if result is not None:
            if result.status != "error":
                violations.append(Violation("TL-2", f"input invalid at {case.invalid_field} gave a success result", call, {**invalid_example, "result": result.as_json()}, defect="invalid input gave a success result"))
            elif not _names_field(result, case.invalid_field):
                violations.append(Violation("TL-2", f"the error result does not name the failing field {case.invalid_field}", call, {**invalid_example, "result": result.as_json()}, defect="the error result does not name the failing field"))
            elif wrong_id := _id_problem([result], "toolu_invalid"):
                violations.append(Violation("TL-2", f"the error result for invalid input {wrong_id}", call, {**invalid_example, "result": result.as_json()}, defect="the error result for invalid input has the wrong tool-use id"))
        return violations

    return _checked("TL-2", run)


# -- TL-3 ---------------------------------------------------------------------------------------


def check_tl3(layer: ToolLayer, case: RaisingCase) -> list[Violation]:
    """TL-3: a callback's exception becomes an error result with its type and message."""
    if case.definition.source not in layer.traits.sources:
        return []
    example: dict[str, Any] = {
        "definition": case.definition.as_json(),
        "callback": case.kind,
        "raises": f"{case.exception_type.__qualname__}({case.message!r})",
        "items_before": list(case.items_before),
    }

    def run() -> list[Violation]:
        handle = _define("TL-3", layer, case.definition, example)
        call = _call("invoke_tool", "handle", "toolu_raise", case.input, {})
        try:
            invocation = layer.invoke_tool(handle, "toolu_raise", case.input, {})
        except CheckFailure:
            raise
        except Exception as exc:
            return [Violation("TL-3", f"the callback's {type(exc).__qualname__} escaped the tool-use path", call, example, defect="the callback's exception escaped the tool-use path")]
        result, violations = _single_result("TL-3", invocation, call, example)
        if result is None:
            return violations
        shown = {**example, "result": result.as_json()}
        if result.status != "error":
            violations.append(Violation("TL-3", "a raising callback gave a success result", call, shown, defect="a raising callback gave a success result"))
            return violations
        text = _text(result)
        redacted = layer.traits.error_text
        if redacted is not None:
            # the layer declares it puts this fixed text in every error result instead of the exception
            if redacted not in text:
                violations.append(Violation("TL-3", f"the error result does not carry the declared error_text {redacted!r}", call, shown, defect="the error result does not carry the declared error_text"))
        elif case.exception_type.__name__ not in text:
            violations.append(Violation("TL-3", f"the error result does not carry the exception type {case.exception_type.__qualname__}", call, shown, defect="the error result does not carry the exception type"))
        if redacted is None and case.exception_text and case.exception_text not in text:
            violations.append(Violation("TL-3", f"the error result does not carry the exception message {case.exception_text!r}", call, shown, defect="the error result does not carry the exception message"))
        if result.tool_use_id != "toolu_raise":
            violations.append(Violation("TL-3", f"the error result carries tool-use id {result.tool_use_id!r}, not 'toolu_raise'", call, shown, defect="the error result has the wrong tool-use id"))
        got = [event.data for event in invocation.events]
        if not json_equal(got, list(case.items_before)):
            violations.append(Violation("TL-3", "the progress events before the exception were not delivered in order", call, {**shown, "events": got}, defect="the progress events before the exception are not delivered in order"))
        return violations

    return _checked("TL-3", run)


# -- TL-4 ---------------------------------------------------------------------------------------


def _events_after_a_result(invocation: ToolInvocation) -> int:
    """How many progress events the invocation emitted after its first result."""
    kinds = [isinstance(item, ToolEvent) for item in invocation.outputs]
    first_result = kinds.index(False) if False in kinds else len(kinds)
    return sum(kinds[first_result:])


def check_tl4(layer: ToolLayer, case: StreamingCase) -> list[Violation]:
    """TL-4: items stream as events in order, then exactly one final result with the final value."""
    if case.definition.source not in layer.traits.sources:
        return []
    expected_final = case.final if case.has_final else layer.traits.empty_generator_value
    example: dict[str, Any] = {
        "definition": case.definition.as_json(),
        "callback": case.kind,
        "convention": case.convention,
        "items": list(case.items),
        "final": expected_final,
    }

    def run() -> list[Violation]:
        handle = _define("TL-4", layer, case.definition, example)
        invocation, call = _invoke("TL-4", layer, handle, "toolu_stream", case.input, {}, example, "invoking a streaming tool")
        result, violations = _single_result("TL-4", invocation, call, example)
        got = [event.data for event in invocation.events]
        if not json_equal(got, list(case.items)):
            violations.append(Violation("TL-4", f"progress events {_dump(got)} differ from the items yielded {_dump(list(case.items))}", call, {**example, "invocation": invocation.as_json()}, defect="progress events differ from the items yielded"))
        if any(event.tool_use_id != "toolu_stream" for event in invocation.events):
            violations.append(Violation("TL-4", "a progress event carries the wrong tool-use id", call, example, defect="a progress event carries the wrong tool-use id"))
        late = _events_after_a_result(invocation)
        if late:
            violations.append(Violation("TL-4", f"{late} progress event(s) came after the final result; events stream first, then the "
                                                "one result", call, {**example, "invocation": invocation.as_json()}, defect="progress events after the final result"))
        if result is not None:
            if result.status != "success":
                violations.append(Violation("TL-4", f"the stream ended in an error result: {result.content}", call, {**example, "result": result.as_json()}, defect="the stream ended in an error result"))
            elif not _carries(result, expected_final):
                what = "an empty generator's result" if not case.items and not case.has_final else "the final result"
                violations.append(Violation("TL-4", f"{what} carries {_dump(result.value)} (text {_dump(result.content)}) instead of "
                                                    f"{_dump(expected_final)}", call, {**example, "result": result.as_json()}, defect=f"{what} carries another value"))
            elif wrong_id := _id_problem([result], "toolu_stream"):
                violations.append(Violation("TL-4", f"the final result {wrong_id}", call, {**example, "result": result.as_json()}, defect="the final result has the wrong tool-use id"))
        return violations

    return _checked("TL-4", run)


# -- TL-5 ---------------------------------------------------------------------------------------


def check_tl5(layer: ToolLayer, case: ContextCase) -> list[Violation]:
    """TL-5: context is opt-in, carries the tool-use id and invocation state, and stays out of the schema.

    The tool with context must advertise what the layer advertises for the same tool without it."""
    if case.definition.source not in layer.traits.sources:
        return []
    example: dict[str, Any] = {
        "definition": case.definition.as_json(),
        "context_parameter": case.context_parameter,
        "input": case.input,
        "tool_use_id": case.tool_use_id,
        "invocation_state": case.invocation_state,
    }
    plain_example = {**example, "definition": case.plain_definition.as_json()}

    def run() -> list[Violation]:
        violations: list[Violation] = []
        plain_handle = _define("TL-5", layer, case.plain_definition, plain_example)
        without, _, _, problems = _advertised_schema("TL-5", layer, plain_handle, case.plain_definition, plain_example)
        violations += problems
        handle = _define("TL-5", layer, case.definition, example)
        call = _call("describe_tool", "handle")
        advertised = _attempt("TL-5", call, example, lambda: layer.describe_tool(handle), "describe_tool")
        properties = advertised.input_schema.get("properties", {})
        leaked = case.context_parameter is not None and isinstance(properties, Mapping) and case.context_parameter in properties
        problem = input_schema_problem(advertised.input_schema)
        difference = None if without is None or problem is not None else compare_schemas(advertised.input_schema, without)
        same = without is None or (problem is None and difference is None)
        if leaked or not same:
            detail = f"the context parameter {case.context_parameter!r} appears in the advertised schema" if leaked else "the advertised schema differs from the same tool without context"
            if not leaked:
                detail += (f" (it is unusable: {problem})" if problem is not None else
                           f"; {_difference_text(difference, 'with context it', 'without it')}" if difference is not None else "")
            violations.append(Violation("TL-5", detail, call, {**example, "advertised": advertised.input_schema, "advertised_without_context": without}, defect="the context parameter is in the advertised schema" if leaked else "context changes the advertised schema"))
        before = len(case.log.calls)
        invocation, call = _invoke("TL-5", layer, handle, case.tool_use_id, case.input, case.invocation_state, example, "invoking a tool with context")
        calls = _new_calls(case.log, before)
        if len(calls) != 1:
            result = invocation.results[0].as_json() if invocation.results else None
            violations.append(Violation("TL-5", f"the context tool's callback ran {len(calls)} times for one valid invocation", call, {**example, "result": result}, defect="the context tool's callback did not run once"))
        else:
            context = calls[0].context
            if not isinstance(context, ToolContext):
                violations.append(Violation("TL-5", f"the callback received {type(context).__name__} as its context, not a ToolContext", call, example, defect="the context is not a ToolContext"))
            else:
                if context.tool_use_id != case.tool_use_id:
                    violations.append(Violation("TL-5", f"the context carries tool-use id {context.tool_use_id!r}, not {case.tool_use_id!r}", call, example, defect="the context carries the wrong tool-use id"))
                if not json_equal(dict(context.invocation_state), dict(case.invocation_state)):
                    violations.append(Violation("TL-5", "the context does not carry the invocation state", call, {**example, "received_state": dict(context.invocation_state)}, defect="the context does not carry the invocation state"))
        before = len(case.plain_log.calls)
        invocation, call = _invoke("TL-5", layer, plain_handle, case.tool_use_id, case.input, case.invocation_state, plain_example, "invoking a tool without context")
        for recorded in _new_calls(case.plain_log, before):
            if recorded.context is not None or recorded.surplus:
                violations.append(Violation("TL-5", "a tool that did not opt in to context received one", call, {**plain_example, "surplus": [repr(item) for item in recorded.surplus]}, defect="a tool that did not opt in received a context"))
        return violations

    return _checked("TL-5", run)


# -- TL-6 ---------------------------------------------------------------------------------------


def _caused_by(error: BaseException, kind: type[BaseException]) -> bool:
    """Whether ``error`` wraps an exception of ``kind`` (its ``__cause__`` or ``__context__``, at any depth)."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        if isinstance(current, kind):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return False


def _error_names_field(error: BaseException, pointer: str) -> bool:
    """Whether a raised error, or one it wraps (``__cause__``/``__context__``), names the failing
    field: in a ``field`` attribute (any path notation), or in its message as TL-2 reads a result's."""
    parts = split_pointer(pointer)
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        field = getattr(current, "field", None)
        if isinstance(field, str) and _path_parts(field) == parts:
            return True
        try:
            text = str(current)
        except Exception:  # a broken __str__ names nothing
            text = ""
        if _mentions_path(text, parts):
            return True
        # what the user's traceback shows: a context suppressed by ``raise ... from None`` is not
        current = current.__cause__ or (None if current.__suppress_context__ else current.__context__)
    return False


def _check_tl6_context(layer: ToolLayer, case: ContextDirectCallCase) -> list[Violation]:
    """TL-6 for a tool that opted in to context: a direct call with the context supplied passes it
    to the callback and validates as any direct call does (invalid input raises an error naming the
    field, the callback not run); without a context, invalid input still never reaches the callback."""
    recording = case.recording
    if recording.definition.source not in layer.traits.sources:
        return []
    context = case.context
    shown_context = {"tool_use_id": context.tool_use_id, "tool_name": context.tool_name, "invocation_state": dict(context.invocation_state)}
    example: dict[str, Any] = {"definition": recording.definition.as_json(), "schema": schema_for(recording.shape), "context": shown_context}

    def run() -> list[Violation]:
        violations: list[Violation] = []
        handle = _define("TL-6", layer, recording.definition, example)
        before = len(recording.log.calls)
        call = _call("call_tool", "handle", recording.valid_input, shown_context)
        valid_example = {**example, "input": recording.valid_input}
        returned = _attempt("TL-6", call, valid_example, lambda: layer.call_tool(handle, recording.valid_input, context),
                            "a direct call of a context tool with valid input and its context")
        calls = _new_calls(recording.log, before)
        if not json_equal(_to_json(returned), recording.returns):
            violations.append(Violation("TL-6", f"a direct call of a context tool returned {_dump(returned)}, not the callback's {_dump(recording.returns)}",
                                        call, valid_example, defect="a direct call of a context tool did not return the callback's value"))
        if len(calls) != 1 or not _received_ok(calls[0].input, recording.valid_input, recording.definition, recording.shape):
            violations.append(Violation("TL-6", "a direct call of a context tool with valid input did not pass it to the callback once, as given",
                                        call, valid_example, defect="a direct call of a context tool did not pass valid input to the callback once"))
        else:
            received = calls[0].context
            if not isinstance(received, ToolContext) or received.tool_use_id != context.tool_use_id or not json_equal(
                    dict(received.invocation_state), dict(context.invocation_state)):
                got = (received.__dict__ if isinstance(received, ToolContext) else repr(received))
                violations.append(Violation("TL-6", f"a direct call of a context tool did not pass the context it was given to the callback "
                                                    f"(it received {_dump(got)})", call, valid_example,
                                            defect="a direct call of a context tool did not pass its context to the callback"))
        for given, label in ((context, "with its context"), (None, "without a context")):
            before = len(recording.log.calls)
            call = _call("call_tool", "handle", recording.invalid_input, shown_context if given is not None else None)
            invalid_example = {**example, "input": recording.invalid_input, "invalid_at": recording.invalid_field}
            if given is None:
                invalid_example["context"] = None
            try:
                returned = layer.call_tool(handle, recording.invalid_input, given)
            except CheckFailure:
                raise
            except Exception as exc:
                if given is not None and not _error_names_field(exc, recording.invalid_field):
                    violations.append(Violation("TL-6", f"a direct call of a context tool with input invalid at {recording.invalid_field} raised "
                                                        f"{type(exc).__qualname__}: {_dump(str(exc))}, which does not name the failing field",
                                                call, invalid_example, defect="a direct call of a context tool raised an error that does not name the failing field"))
            else:
                violations.append(Violation("TL-6", f"a direct call of a context tool {label}, with input invalid at {recording.invalid_field}, "
                                                    f"returned {_dump(returned)} instead of raising", call, invalid_example,
                                            defect=f"a direct call of a context tool {label} with invalid input did not raise"))
            if _new_calls(recording.log, before):
                violations.append(Violation("TL-6", f"a direct call of a context tool {label} passed invalid input to the callback", call,
                                            invalid_example, defect=f"a direct call of a context tool {label} passed invalid input to the callback"))
        return violations

    return _checked("TL-6", run)


def check_tl6(layer: ToolLayer, case: DirectCallCase | ContextDirectCallCase) -> list[Violation]:
    """TL-6: calling the tool object validates and raises; the tool-use path returns results instead.
    A tool with context is called with its context and without (:func:`_check_tl6_context`)."""
    if isinstance(case, ContextDirectCallCase):
        return _check_tl6_context(layer, case)
    recording = case.recording
    if recording.definition.source not in layer.traits.sources:
        return []
    example: dict[str, Any] = {"definition": recording.definition.as_json(), "schema": schema_for(recording.shape)}

    def run() -> list[Violation]:
        violations: list[Violation] = []
        handle = _define("TL-6", layer, recording.definition, example)
        before = len(recording.log.calls)
        call = _call("call_tool", "handle", recording.valid_input, None)
        valid_example = {**example, "input": recording.valid_input}
        returned = _attempt("TL-6", call, valid_example, lambda: layer.call_tool(handle, recording.valid_input, None), "a direct call with valid input")
        calls = _new_calls(recording.log, before)
        if not json_equal(_to_json(returned), recording.returns):
            violations.append(Violation("TL-6", f"a direct call returned {_dump(returned)}, not the callback's {_dump(recording.returns)}", call, valid_example, defect="a direct call did not return the callback's value"))
        if len(calls) != 1 or not _received_ok(calls[0].input, recording.valid_input, recording.definition, recording.shape):
            violations.append(Violation("TL-6", "a direct call with valid input did not pass it to the callback once, as given", call, valid_example, defect="a direct call did not pass valid input to the callback once"))
        before = len(recording.log.calls)
        call = _call("call_tool", "handle", recording.invalid_input, None)
        invalid_example = {**example, "input": recording.invalid_input, "invalid_at": recording.invalid_field}
        try:
            returned = layer.call_tool(handle, recording.invalid_input, None)
        except CheckFailure:
            raise
        except Exception:
            pass
        else:
            violations.append(Violation("TL-6", f"a direct call with input invalid at {recording.invalid_field} returned {_dump(returned)} instead of raising", call, invalid_example, defect="a direct call with invalid input did not raise"))
        if _new_calls(recording.log, before):
            violations.append(Violation("TL-6", "a direct call passed invalid input to the callback", call, invalid_example, defect="a direct call passed invalid input to the callback"))
        call = _call("invoke_tool", "handle", "toolu_direct", recording.invalid_input, {})
        try:
            invocation = layer.invoke_tool(handle, "toolu_direct", recording.invalid_input, {})
        except CheckFailure:
            raise
        except Exception as exc:
            violations.append(Violation("TL-6", f"the tool-use path raised {type(exc).__qualname__} for invalid input instead of returning an error result", call, invalid_example, defect="the tool-use path raised for invalid input"))
        else:
            wrong_id = _id_problem(invocation.results, "toolu_direct")
            if wrong_id:
                shown = {**invalid_example, "invocation": invocation.as_json()}
                violations.append(Violation("TL-6", f"the tool-use path's result for invalid input {wrong_id}", call, shown, defect="the tool-use path's result for invalid input has the wrong tool-use id"))
        raising = case.raising
        raising_example = {"definition": raising.definition.as_json(), "raises": f"{raising.exception_type.__qualname__}({raising.message!r})"}
        if raising.definition.source in layer.traits.sources:
            raising_handle = _define("TL-6", layer, raising.definition, raising_example)
            call = _call("call_tool", "handle", raising.input, None)
            try:
                returned = layer.call_tool(raising_handle, raising.input, None)
            except raising.exception_type:
                pass
            except CheckFailure:
                raise
            except Exception as exc:
                # an SDK may raise its documented wrapper with the callback's exception as its cause
                if not _caused_by(exc, raising.exception_type):
                    violations.append(Violation("TL-6", f"a direct call raised {type(exc).__qualname__} instead of the callback's {raising.exception_type.__qualname__} (neither it nor a wrapper whose __cause__ it is)", call, raising_example, defect="a direct call raised another exception than the callback's"))
            else:
                violations.append(Violation("TL-6", f"a direct call of a raising callback returned {_dump(returned)} instead of raising", call, raising_example, defect="a direct call of a raising callback did not raise"))
        return violations

    return _checked("TL-6", run)


# -- TL-7 ---------------------------------------------------------------------------------------


def check_tl7(layer: ToolLayer, case: StrictCase) -> list[Violation]:
    """TL-7: a valid strict setting is kept exactly; an invalid one is rejected at definition."""
    strict = case.definition.strict
    example: dict[str, Any] = {"definition": case.definition.as_json(), "strict": repr(strict), "valid": case.valid}
    call = _call("define_tool", case.definition.as_json())
    try:
        handle = layer.define_tool(case.definition)
    except CheckFailure:
        raise
    except Exception as exc:
        if case.valid:
            return [Violation("TL-7", f"a valid strict setting {strict!r} was rejected: {type(exc).__qualname__}: {exc}", call, example, defect="a valid strict setting was rejected")]
        if "strict" not in str(exc).lower():
            return [Violation("TL-7", f"the error for strict={strict!r} does not mention the strict setting: {exc}", call, example, defect="the error for an invalid strict setting does not mention strict")]
        return []
    if not case.valid:
        return [Violation("TL-7", f"an invalid strict setting {strict!r} was accepted at definition time", call, example, defect="an invalid strict setting was accepted at definition time")]

    # An unset strict is advertised as the layer's declared default (ToolLayerTraits.strict_default).
    expected = layer.traits.strict_default if strict is None else strict

    def run() -> list[Violation]:
        advertised = _attempt("TL-7", _call("describe_tool", "handle"), example, lambda: layer.describe_tool(handle), "describe_tool")
        same = type(advertised.strict) is type(expected) and advertised.strict == expected
        if expected is False and advertised.strict is None and layer.traits.omitted_strict_is_false:
            same = True  # the layer's API reads a tool without strict as not strict: the same request
        if not same:
            wanted = "" if expected is strict else f" (unset strict is advertised as the declared strict_default {expected!r})"
            return [Violation("TL-7", f"strict={strict!r} was defined but {advertised.strict!r} is advertised{wanted}", call, example, defect="the advertised strict differs from the one defined")]
        return []

    return _checked("TL-7", run)


# -- tools defined from a function (TL-2..TL-4 and TL-6 through FromFunction, TL-8..TL-10) ------


class FromFunction:
    """``layer`` seen through ``define_tool_from_function``: ``define_tool`` of a type-hint
    definition hands its callback (whose ``__name__`` and docstring are the definition's name and
    description) to the SDK's decorator alone, so the TL-2..TL-4 and TL-6 oracles judge the tools
    users write with ``@function_tool``, ``@tool`` or ``Tool(fn)``. Its traits declare the
    ``signature`` source only (the oracles skip cases of other sources)."""

    def __init__(self, layer: FunctionToolLayer) -> None:
        self._layer = layer
        self.traits: ToolLayerTraits = replace(layer.traits, sources=frozenset({"signature"}))

    def define_tool(self, definition: ToolDefinition) -> Any:
        if definition.source != "signature" or definition.context:
            raise ValueError(f"FromFunction defines type-hint tools without context only, not {definition.as_json()}")
        strict = definition.strict
        return self._layer.define_tool_from_function(definition.callback, strict if isinstance(strict, bool) else None)

    def describe_tool(self, handle: Any) -> Any:
        return self._layer.describe_tool(handle)

    def invoke_tool(self, handle: Any, tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        return self._layer.invoke_tool(handle, tool_use_id, input, invocation_state)

    def call_tool(self, handle: Any, input: Mapping[str, Any], context: ToolContext | None) -> Any:
        return self._layer.call_tool(handle, input, context)


def _function_json(function: Callable[..., Any]) -> dict[str, Any]:
    """A function tool's counterexample: its name, signature and docstring, as a user wrote them."""
    try:
        signature = str(inspect.signature(function))
    except (TypeError, ValueError):
        signature = "(...)"
    return {"name": getattr(function, "__name__", repr(function)), "signature": signature, "docstring": inspect.getdoc(function) or ""}


def _define_function(rule_id: str, layer: FunctionToolLayer, function: Callable[..., Any], strict: bool | None, example: Mapping[str, Any]) -> Any:
    call = _call("define_tool_from_function", getattr(function, "__name__", "function"), strict)
    return _attempt(rule_id, call, example, lambda: layer.define_tool_from_function(function, strict), "defining a tool from a documented function")


def _words(text: str) -> str:
    return " ".join(text.split())


# -- TL-8 ---------------------------------------------------------------------------------------


def check_tl8(layer: FunctionToolLayer, case: DescriptionCase) -> list[Violation]:
    """TL-8: a function's tool is named after the function and its description holds the
    docstring's summary (at least its first paragraph; whitespace and markup around it aside),
    never its ``Args:`` section: the header or a parameter's description (those belong to the
    parameters). Other sections may follow the summary (pydantic-ai adds ``Returns:`` on purpose)."""
    example: dict[str, Any] = {"definition": _function_json(case.function), "expected_description": case.summary}

    def run() -> list[Violation]:
        handle = _define_function("TL-8", layer, case.function, None, example)
        call = _call("describe_tool", "handle")
        advertised = _attempt("TL-8", call, example, lambda: layer.describe_tool(handle), "describe_tool")
        shown = {**example, "advertised_name": advertised.name, "advertised_description": advertised.description}
        violations: list[Violation] = []
        if advertised.name != case.function.__name__:
            violations.append(Violation("TL-8", f"the tool is advertised as {advertised.name!r}, not as its function's name "
                                                f"{case.function.__name__!r}", call, shown, defect="advertised under another name than its function's"))
        got, summary, first = _words(advertised.description), _words(case.summary), _words(case.first_paragraph)
        leaked = [text for text in case.args_texts if _words(text) in got and _words(text) not in summary]
        if leaked:
            violations.append(Violation("TL-8", f"the description holds the docstring's Args: section, not only its summary: "
                                                f"{_dump(leaked[0])} is in {_dump(advertised.description)}", call, shown, defect="the description holds the docstring's Args: section"))
        elif first not in got:
            violations.append(Violation("TL-8", f"the description {_dump(advertised.description)} does not hold the docstring's "
                                                f"summary {_dump(case.summary)}", call, shown, defect="the description does not hold the docstring's summary"))
        return violations

    return _checked("TL-8", run)


# -- TL-9 ---------------------------------------------------------------------------------------


@contextmanager
def _reports() -> Iterator[list[str]]:
    """The warnings and log records (WARNING and above) emitted inside the block, as text."""
    seen: list[str] = []

    class _Handler(logging.Handler):
        def emit(self, record: logging.LogRecord) -> None:
            try:
                seen.append(record.getMessage())
            except Exception:  # a record whose arguments do not format is still a report
                seen.append(str(record.msg))

    handler = _Handler(logging.WARNING)
    root = logging.getLogger()
    root.addHandler(handler)
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            yield seen
        seen.extend(str(warning.message) for warning in caught)
    finally:
        root.removeHandler(handler)


def check_tl9(layer: FunctionToolLayer, case: ExtraKeysCase) -> list[Violation]:
    """TL-9: under a closed advertised schema (``additionalProperties: false``), an input with an
    undeclared key is rejected (an error result, the callback not run), or the key is reported (a
    warning or log record naming it, or the key passed on to the callback), never dropped silently.
    An open advertised schema may drop it: nothing to judge."""
    extra = {**case.valid_input, case.extra_key: 7}
    example: dict[str, Any] = {"definition": _function_json(case.function), "strict": case.strict, "input": extra,
                               "undeclared_key": case.extra_key}

    def run() -> list[Violation]:
        handle = _define_function("TL-9", layer, case.function, case.strict, example)
        advertised = _attempt("TL-9", _call("describe_tool", "handle"), example, lambda: layer.describe_tool(handle), "describe_tool")
        if advertised.input_schema.get("additionalProperties") is not False:
            return []
        shown = {**example, "advertised": advertised.input_schema}
        before = len(case.log.calls)
        with _reports() as reported:
            invocation, call = _invoke("TL-9", layer, handle, "toolu_extra", extra, {}, shown, "invoking with an undeclared key")
        calls = _new_calls(case.log, before)
        result, violations = _single_result("TL-9", invocation, call, shown)
        if result is None:
            return violations
        if result.status == "error":
            if calls:
                violations.append(Violation("TL-9", "input with an undeclared key gave an error result, but only after running the callback",
                                            call, {**shown, "result": result.as_json()}, defect="an undeclared key was rejected only after running the callback"))
            return violations
        if len(calls) != 1:
            violations.append(Violation("TL-9", f"the callback ran {len(calls)} times for one accepted input", call, shown, defect="the callback ran more than once for one accepted input"))
            return violations
        received = as_json(calls[0].input)
        if isinstance(received, Mapping) and case.extra_key in received:
            return violations  # passed on, not dropped
        if any(case.extra_key in text for text in reported):
            return violations  # reported
        violations.append(Violation("TL-9", f"the undeclared key {case.extra_key!r} was dropped silently: the schema advertised "
                                            "additionalProperties: false, but the input was neither rejected nor the key reported",
                                    call, {**shown, "received": received, "result": result.as_json()}, defect="an undeclared key was dropped silently"))
        return violations

    return _checked("TL-9", run)


# -- TL-10 --------------------------------------------------------------------------------------


def _property_node(schema: Mapping[str, Any], name: str) -> Mapping[str, Any] | None:
    properties = schema.get("properties")
    node = properties.get(name) if isinstance(properties, Mapping) else None
    return node if isinstance(node, Mapping) else None


def check_tl10(layer: FunctionToolLayer, case: DefaultsCase) -> list[Violation]:
    """TL-10: every parameter default is advertised (``default`` on its property, equal as JSON),
    unless the layer declares that it drops them (``advertised_defaults``: ``"dropped"``, or
    ``"dropped_when_strict"`` for a tool advertised strict). A wrong default is always a violation."""
    example: dict[str, Any] = {"definition": _function_json(case.function), "strict": case.strict, "defaults": dict(case.defaults)}
    convention = layer.traits.advertised_defaults

    def run() -> list[Violation]:
        handle = _define_function("TL-10", layer, case.function, case.strict, example)
        call = _call("describe_tool", "handle")
        advertised = _attempt("TL-10", call, example, lambda: layer.describe_tool(handle), "describe_tool")
        strict = advertised.strict not in (None, False)
        may_drop = convention == "dropped" or (convention == "dropped_when_strict" and strict)
        shown = {**example, "advertised": advertised.input_schema, "advertised_strict": repr(advertised.strict)}
        violations: list[Violation] = []
        for name, default in case.defaults.items():
            node = _property_node(advertised.input_schema, name)
            if node is None:
                continue  # a missing property is TL-1's
            if "default" in node:
                if not json_equal(_to_json(node["default"]), _to_json(default)):
                    violations.append(Violation("TL-10", f"parameter {name!r} defaults to {_dump(default)} but {_dump(node['default'])} "
                                                         "is advertised", call, shown, defect="an advertised default differs from the parameter's"))
            elif not may_drop:
                why = (f"tool_layer_traits.advertised_defaults is {convention!r}" +
                       (" and the tool is not advertised strict" if convention == "dropped_when_strict" else ""))
                violations.append(Violation("TL-10", f"the default of parameter {name!r} ({_dump(default)}) is not in the advertised "
                                                     f"schema, and its loss is not declared ({why})", call, shown, defect="a default is not advertised and its loss not declared"))
        return violations

    return _checked("TL-10", run)

#: Rule ID -> its check (TL-8..TL-10 take a FunctionToolLayer). The plugin pairs each with the strategy of the same case type.
CHECKS: Mapping[str, Callable[[Any, Any], list[Violation]]] = {
    "TL-1": check_tl1,
    "TL-2": check_tl2,
    "TL-3": check_tl3,
    "TL-4": check_tl4,
    "TL-5": check_tl5,
    "TL-6": check_tl6,
    "TL-7": check_tl7,
    "TL-8": check_tl8,
    "TL-9": check_tl9,
    "TL-10": check_tl10,
}

"""The callback strategies: their inputs are what they claim, and they reach every feature."""

from __future__ import annotations

import importlib.util
import inspect
import re
from collections.abc import Callable
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, Phase, find, given, settings
from hypothesis import strategies as st

from strictconformance.strategies import callbacks
from strictconformance.tools import ToolInputError, canonical_input_schema, tool
from strictconformance.tools.cases import RaisingCase, RecordingCase, StreamingCase
from strictconformance.tools.shapes import FieldShape, ObjectShape, model_for, schema_for

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]


@settings(max_examples=30, deadline=None, suppress_health_check=_QUIET)
@given(case=callbacks.recording_cases())
def test_valid_inputs_are_valid_and_invalid_ones_fail_exactly_where_announced(case: RecordingCase) -> None:
    validator = jsonschema.Draft202012Validator(schema_for(case.shape))
    assert list(validator.iter_errors(case.valid_input)) == []
    assert list(validator.iter_errors(case.invalid_input)) != []
    checker = tool(lambda data: data, name="probe", input_schema=schema_for(case.shape))
    with pytest.raises(ToolInputError) as raised:
        checker.validate_input(case.invalid_input)
    assert case.invalid_field in [problem.field for problem in raised.value.problems]


def _fields(shape: ObjectShape) -> list[FieldShape]:
    found: list[FieldShape] = []
    for _, field in shape.fields:
        found.append(field)
        if field.obj is not None:
            found.extend(_fields(field.obj))
        if field.item is not None:
            found.append(field.item)
            if field.item.obj is not None:
                found.extend(_fields(field.item.obj))
    return found


def _depth(shape: ObjectShape) -> int:
    inner = [field.obj or (field.item.obj if field.item else None) for _, field in shape.fields]
    return 1 + max((_depth(obj) for obj in inner if obj is not None), default=0)


def _field_with(test: Callable[[FieldShape], bool]) -> Callable[[ObjectShape], bool]:
    return lambda shape: any(test(field) for field in _fields(shape))


def _kind(kind: str) -> Callable[[ObjectShape], bool]:
    return _field_with(lambda field: field.kind == kind)


def _source(source: str) -> Callable[[RecordingCase], bool]:
    return lambda case: case.definition.source == source


def _raises(exception: type[Exception]) -> Callable[[RaisingCase], bool]:
    return lambda case: case.exception_type is exception


def _streams(kind: str) -> Callable[[StreamingCase], bool]:
    return lambda case: case.kind == kind


def _top_level(case: RecordingCase) -> bool:
    return case.invalid_field.count("/") == 1 and not case.invalid_field.endswith(callbacks.UNEXPECTED_PROPERTY)


def _at(value: Any, pointer: str) -> tuple[bool, Any]:
    """(present?, the value) at ``pointer`` in ``value``."""
    for part in [part for part in pointer.split("/")[1:]]:
        if isinstance(value, list) and part.isdigit() and int(part) < len(value):
            value = value[int(part)]
        elif isinstance(value, dict) and part in value:
            value = value[part]
        else:
            return False, None
    return True, value


def _breaks_only_a_constraint(case: RecordingCase) -> bool:
    """The invalid input is valid once the schema's constraints are left out: it broke a constraint,
    with a value of the right type."""
    def loose(schema: Any) -> Any:
        if isinstance(schema, dict):
            return {key: loose(value) for key, value in schema.items()
                    if key not in ("minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems")}
        return [loose(item) for item in schema] if isinstance(schema, list) else schema

    return jsonschema.Draft202012Validator(loose(schema_for(case.shape))).is_valid(case.invalid_input)


_SHAPES = callbacks.input_shapes()
_RECORDING = callbacks.recording_cases()

FEATURES: dict[str, tuple[st.SearchStrategy[Any], Callable[[Any], bool]]] = {
    **{f"field kind {kind}": (_SHAPES, _kind(kind)) for kind in ("string", "integer", "number", "boolean", "enum", "list", "object")},
    "T | None = None": (_SHAPES, _field_with(lambda f: f.nullable and f.default is None)),
    "T | None required": (_SHAPES, _field_with(lambda f: f.nullable and f.required)),
    "non-null default": (_SHAPES, _field_with(lambda f: f.default is not None and not f.required)),
    "union as a type list": (_SHAPES, _field_with(lambda f: f.kind == "union" and not f.any_of)),
    "union as anyOf, nullable": (_SHAPES, _field_with(lambda f: f.kind == "union" and f.any_of and f.nullable)),
    **{f"constraint {keyword}": (_SHAPES, _field_with(lambda f, keyword=keyword: f.constraint(keyword) is not None))
       for keyword in ("minimum", "maximum", "minLength", "maxLength", "pattern", "minItems", "maxItems")},
    "constrained list item": (_SHAPES, _field_with(lambda f: f.item is not None and bool(f.item.constraints))),
    "constrained and nullable": (_SHAPES, _field_with(lambda f: f.nullable and bool(f.constraints))),
    "description": (_SHAPES, _field_with(lambda f: bool(f.description))),
    "list of objects": (_SHAPES, _field_with(lambda f: f.item is not None and f.item.obj is not None)),
    "three levels": (_SHAPES, lambda shape: _depth(shape) >= 3),
    "open object": (_SHAPES, lambda shape: not shape.closed),
    "keyword as property name": (_SHAPES, lambda shape: any(name in ("type", "properties", "required") for name, _ in shape.fields)),
    **{f"source {source}": (_RECORDING, _source(source)) for source in ("signature", "model", "json_schema")},
    "invalid: wrong type": (_RECORDING, lambda case: _top_level(case) and case.invalid_field[1:] in case.invalid_input),
    "invalid: missing": (_RECORDING, lambda case: _top_level(case) and case.invalid_field[1:] not in case.invalid_input),
    "invalid: unexpected": (_RECORDING, lambda case: case.invalid_field.endswith(callbacks.UNEXPECTED_PROPERTY)),
    "invalid: null for a non-nullable field": (_RECORDING, lambda case: _at(case.invalid_input, case.invalid_field) == (True, None)),
    "invalid: a broken constraint": (_RECORDING, lambda case: _breaks_only_a_constraint(case)),
    "invalid: nested": (_RECORDING, lambda case: case.invalid_field.count("/") >= 2 and not case.invalid_field.endswith(callbacks.UNEXPECTED_PROPERTY)),
    **{f"raises {exc.__qualname__}": (callbacks.raising_cases(), _raises(exc)) for exc in callbacks.EXCEPTION_TYPES},
    "raises after items": (callbacks.raising_cases(), lambda case: case.kind == "async_generator" and len(case.items_before) >= 2),
    **{f"streams from {kind}": (callbacks.streaming_cases(), _streams(kind)) for kind in ("sync", "async", "sync_generator", "async_generator")},
    "empty generator": (callbacks.streaming_cases(), lambda case: case.kind.endswith("generator") and not case.items and not case.has_final),
    "many items and a final value": (callbacks.streaming_cases(), lambda case: len(case.items) >= 3 and case.has_final),
    "context with state": (callbacks.context_cases(), lambda case: bool(case.invocation_state) and case.context_parameter is not None),
    **{f"context from {source}": (callbacks.context_cases(), lambda case, source=source: case.definition.source == source)
       for source in ("signature", "model", "json_schema")},
    "valid strict priority": (callbacks.strict_cases(), lambda case: case.valid and isinstance(case.definition.strict, float)),
    "invalid strict string": (callbacks.strict_cases(), lambda case: not case.valid and isinstance(case.definition.strict, str)),
    "invalid strict from invalid_strict_settings": (callbacks.strict_cases(), lambda case: case.definition.strict == [True]),
    "boolean convention: a number is invalid": (
        callbacks.strict_cases("boolean"), lambda case: not case.valid and type(case.definition.strict) is int and case.definition.strict > 0),
    "strict on a type-hinted tool": (callbacks.strict_cases(sources=("signature",)), lambda case: case.definition.source == "signature"),
    **{f"direct call with context from {source}": (callbacks.context_direct_call_cases(), lambda case, source=source: case.recording.definition.source == source)
       for source in ("signature", "model", "json_schema")},
    "direct call with context, invalid nested": (callbacks.context_direct_call_cases(), lambda case: case.recording.invalid_field.count("/") >= 2),
    **{f"strict tool {'with an open object' if open_object else 'every object closed'} from {source}": (
        callbacks.refusal_cases(), lambda case, source=source, open_object=open_object: case.definition.source == source and case.expressible is not open_object)
       for source in ("signature", "model", "json_schema") for open_object in (True, False)},
    "strict tool, closed nested object": (callbacks.refusal_cases(), lambda case: case.expressible and _depth(case.shape) >= 2),
}


def _open_objects(schema: Any) -> int:
    """How many object nodes of a raw schema are open (no ``additionalProperties: false``)."""
    if isinstance(schema, list):
        return sum(_open_objects(item) for item in schema)
    if not isinstance(schema, dict):
        return 0
    own = 1 if schema.get("type") == "object" and schema.get("additionalProperties") is not False else 0
    return own + sum(_open_objects(value) for key, value in schema.items() if key not in ("default", "enum", "const", "required"))


@settings(max_examples=40, deadline=None, suppress_health_check=_QUIET)
@given(case=callbacks.refusal_cases())
def test_refusal_cases_are_strict_and_open_exactly_when_said(case: Any) -> None:
    """TL-11's cases: strict, and an open object in the raw schema exactly when not expressible."""
    assert case.definition.strict is True
    assert (_open_objects(schema_for(case.shape)) > 0) is (not case.expressible)


@pytest.mark.parametrize("feature", sorted(FEATURES))
def test_every_feature_is_reached(feature: str) -> None:
    strategy, present = FEATURES[feature]
    find(strategy, present, settings=settings(max_examples=400, phases=[Phase.generate], database=None, deadline=None, suppress_health_check=_QUIET))


@settings(max_examples=40, deadline=None, suppress_health_check=_QUIET)
@given(shape=callbacks.input_shapes())
def test_a_shape_written_as_a_model_validates_as_its_raw_schema(shape: ObjectShape) -> None:
    """The pydantic model of a shape (constraints, unions, null) advertises the raw schema's canonical form."""
    model_schema = canonical_input_schema(model_for(shape).model_json_schema(by_alias=True)).schema
    assert model_schema == canonical_input_schema(schema_for(shape)).schema


@pytest.mark.parametrize("copy_made_shape", [True, False], ids=["shape from the copy", "shape from the module"])
def test_a_second_copy_of_the_shapes_module_reads_required_fields_alike(copy_made_shape: bool) -> None:
    """pytester's in-process runs drop modules imported during a run and re-import them in the next,
    while a package imported before keeps its attribute to the old submodule: two copies of
    ``shapes`` then meet (a shape from one, the builders of the other). ``NO_DEFAULT`` must read the
    same in both, or required fields get ``"default": NO_DEFAULT`` and nothing is required."""
    from strictconformance.tools import shapes

    spec = importlib.util.find_spec(shapes.__name__)
    assert spec is not None and spec.loader is not None
    other = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(other)
    assert other.NO_DEFAULT is not shapes.NO_DEFAULT
    maker, user = (other, shapes) if copy_made_shape else (shapes, other)
    shape = maker.ObjectShape("Copy", (("query", maker.FieldShape("string")), ("limit", maker.FieldShape("integer", default=3))))
    assert user.schema_for(shape) == {"type": "object", "additionalProperties": False, "required": ["query"],
                                      "properties": {"query": {"type": "string"}, "limit": {"type": "integer", "default": 3}}}
    assert user.fill_defaults({"query": "q"}, shape) == {"query": "q", "limit": 3}


@settings(max_examples=60, deadline=None, suppress_health_check=_QUIET)
@given(case=callbacks.strict_cases("boolean"))
def test_the_boolean_convention_never_calls_a_number_valid(case: Any) -> None:
    strict = case.definition.strict
    assert case.valid == (strict is None or isinstance(strict, bool))


@pytest.mark.parametrize(("build", "problem"), [
    (lambda: callbacks.streaming_case("sync", ("item",)), "returns one value"),
    (lambda: callbacks.streaming_case("async", has_final=False), "returns one value"),
    (lambda: callbacks.streaming_case("sync_generator", convention="none"), "'none' convention"),
    (lambda: callbacks.streaming_case("async_generator", ("x",), has_final=False, convention="last_item"), "'last_item' convention"),
    (lambda: callbacks.streaming_case("async_generator", use_return=True), "return statement"),
    (lambda: callbacks.raising_case("sync", ValueError, "boom", items=("x",)), "cannot yield"),
    (lambda: callbacks.raising_case("sync", ValueError, "boom", source="text"), "takes a source from"),
])
def test_case_builders_refuse_what_a_callback_cannot_express(build: Callable[[], Any], problem: str) -> None:
    with pytest.raises(ValueError, match=re.escape(problem)):
        build()


def test_a_raising_case_from_a_signature_takes_its_fields_as_keywords() -> None:
    """TL-3 from a function (define_tool_from_function) builds its raising tool this way: a typed
    function over the simple shape that yields, then raises, like the callback(input) it wraps."""
    case = callbacks.raising_case("sync_generator", LookupError, "no such city", items=(1, "x"), source="signature", name="find_city")
    assert case.definition.source == "signature"
    assert set(inspect.signature(case.definition.callback).parameters) == {"query", "limit"}
    stream = case.definition.callback(**case.input)
    assert [next(stream), next(stream)] == [1, "x"]
    with pytest.raises(LookupError, match="no such city"):
        next(stream)


def test_case_builders_give_fresh_inputs() -> None:
    first, second = callbacks.raising_case("sync", ValueError, "boom"), callbacks.raising_case("sync", ValueError, "boom")
    assert first.input == second.input == callbacks.SIMPLE_INPUT and first.input is not second.input


@settings(max_examples=50, deadline=None, suppress_health_check=_QUIET)
@given(case=callbacks.recording_cases(returns="text"))
def test_a_text_layer_gets_callbacks_returning_a_string_or_none(case: RecordingCase) -> None:
    """``callback_returns="text"`` (anthropic's beta_tool takes ``str | Iterable[content block]``):
    the recording callback returns a string or None, never a number, a boolean or an object."""
    assert case.returns is None or isinstance(case.returns, str), case.returns


def test_a_json_layer_gets_callbacks_returning_other_json_values_too() -> None:
    found = find(callbacks.recording_cases(), lambda case: isinstance(case.returns, (bool, int, float)),
                 settings=settings(max_examples=500, database=None, suppress_health_check=_QUIET))
    assert not isinstance(found.returns, str)

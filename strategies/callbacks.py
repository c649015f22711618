"""Strategies for tools with observable callbacks (SPEC.md §6, TL-1..TL-7).

Every case is built constructively: a shape first, then valid inputs from the shape, then an
invalid input made by one known mutation (wrong type, ``null`` where null is not allowed, a
broken constraint, missing required property, unexpected property of a closed object) at a
known JSON pointer. Callbacks record what they receive,
raise a chosen exception, or stream a chosen list of items. ``hypothesis.event`` labels every
feature so ``--hypothesis-show-statistics`` shows what was reached.

Each case has a plain builder (``shape_case``, ``raising_case``, ``streaming_case``,
``strict_case``, ``recording_definition``) that the strategies draw arguments for; checks use
the builders for fixed, named cases. Strategies and builders only: nothing here asserts.
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Collection, Mapping
from dataclasses import replace
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from strictconformance.dialects.pointers import pointer_from_path
from strictconformance.strategies._choices import made_once, sampled
from strictconformance.strategies.instances import json_values
from strictconformance.strategies.tools import invalid_strict_settings, strict_settings
from strictconformance.tools.cases import (
    CallbackKind,
    CallLog,
    ContextCase,
    ContextDirectCallCase,
    DefaultsCase,
    DescriptionCase,
    DirectCallCase,
    ExtraKeysCase,
    RaisingCase,
    RecordedCall,
    RecordingCase,
    RefusalCase,
    ShapeCase,
    StreamingCase,
    StrictCase,
)
from strictconformance.tools.contract import (
    CallbackReturns,
    FinalValueConvention,
    StrictConvention,
    ToolDefinition,
)
from strictconformance.tools.docstrings import parse_docstring
from strictconformance.tools.helper import InputSource
from strictconformance.tools.jsonvalue import JSONValue
from strictconformance.tools.results import ToolContext, ToolReturn
from strictconformance.tools.shapes import (
    NO_DEFAULT,
    UNION_KINDS,
    FieldKind,
    FieldShape,
    ObjectShape,
    describe_function,
    model_for,
    schema_for,
    signature_callback,
)

__all__ = [
    "CONTEXT_PARAMETER_NAMES",
    "EXCEPTION_TYPES",
    "INVALID_STRICT_SETTINGS",
    "PROPERTY_NAMES",
    "RETURNS_TEXTS",
    "SIMPLE_INPUT",
    "SIMPLE_SHAPE",
    "SUMMARY_PARAGRAPHS",
    "UNEXPECTED_PROPERTY",
    "ToolFailure",
    "callback_return_values",
    "context_case",
    "context_cases",
    "context_direct_call_case",
    "context_direct_call_cases",
    "defaults_case",
    "defaults_cases",
    "description_case",
    "description_cases",
    "direct_call_cases",
    "documented_function_case",
    "extra_keys_case",
    "extra_keys_cases",
    "field_shapes",
    "function_defaults_case",
    "input_shapes",
    "invalid_inputs",
    "keyword_callback",
    "outcome_callback",
    "raising_case",
    "raising_cases",
    "recording_cases",
    "recording_definition",
    "refusal_case",
    "refusal_cases",
    "shape_case",
    "shape_cases",
    "simple_definition",
    "streaming_case",
    "streaming_cases",
    "strict_case",
    "strict_cases",
    "tool_names",
    "valid_inputs",
    "wrong_values",
]

#: Property names: ordinary ones and JSON Schema keywords (a walker that confuses a property
#: named "type" with the keyword shows up here).
PROPERTY_NAMES = (
    "query", "limit", "city", "unit", "tags", "owner", "note", "level", "mode", "flag",
    "title", "type", "properties", "items", "required", "default", "description", "enum",
)  # fmt: skip

#: Names for an opted-in context parameter; disjoint from PROPERTY_NAMES.
CONTEXT_PARAMETER_NAMES = ("ctx", "tool_context", "context", "run_info")
_CONTEXT_STATES = st.dictionaries(st.sampled_from(("user_id", "session", "depth", "agent")), json_values(3), max_size=3)

#: Property added by the "unexpected property" mutation; never a declared name.
UNEXPECTED_PROPERTY = "unexpected_extra"

_DESCRIPTIONS = (
    "How many results to return.",
    "City name or zip code",
    "Unit: celsius or fahrenheit",
    "Città di partenza (default ok)",
    "A longer description that mentions the default, 5, and keeps going",
)
_MAYBE_DESCRIPTION = st.none() | st.sampled_from(_DESCRIPTIONS)

_ENUM_POOL = ("red", "green", "blue", "celsius", "fahrenheit", "a b", "ünï")


class ToolFailure(Exception):
    """A user-defined exception type a callback raises (not a builtin, so its name is telling)."""


class NestedFailure:
    class Error(LookupError):
        """An exception class nested in another class: its qualified name has a dot."""


#: Exception types callbacks raise: builtins with quirks (KeyError quotes its message) and
#: user-defined ones.
EXCEPTION_TYPES: tuple[type[Exception], ...] = (
    ValueError, KeyError, RuntimeError, TypeError, ZeroDivisionError, ToolFailure, NestedFailure.Error,
)  # fmt: skip

#: Strict settings that SPEC §1 rejects at definition time.
INVALID_STRICT_SETTINGS: tuple[object, ...] = (
    0, -1, -0.5, 0.0, math.nan, math.inf, -math.inf, "true", "false", "1", "", [], {}, b"1",
)  # fmt: skip

SCALAR_KINDS: tuple[FieldKind, ...] = ("string", "integer", "number", "boolean", "enum")

#: Unions of two scalar kinds (in :data:`~strictconformance.tools.shapes.UNION_KINDS` order; an
#: integer is a number, so those two never meet).
UNION_VARIANTS: tuple[tuple[FieldKind, ...], ...] = tuple(
    (first, second) for i, first in enumerate(UNION_KINDS) for second in UNION_KINDS[i + 1 :] if {first, second} != {"integer", "number"}
)

#: String patterns: (pattern, characters it accepts, a character it refuses). Anchored, so that
#: JSON Schema's search and pydantic's match agree.
STRING_PATTERNS: tuple[tuple[str, str, str], ...] = (("^[a-z]*$", "abcxyz", "Q"), ("^[0-9]*$", "0123789", "x"))

_CALLBACK_KINDS: tuple[CallbackKind, ...] = ("sync", "async", "sync_generator", "async_generator")
_GENERATOR_KINDS: tuple[CallbackKind, ...] = ("sync_generator", "async_generator")
_SCHEMA_SOURCES: tuple[InputSource, ...] = ("model", "json_schema")
_ALL_SOURCES: tuple[InputSource, ...] = ("signature", "model", "json_schema")
_RAW_SCHEMA_ONLY: tuple[InputSource, ...] = ("json_schema",)


def _in_order(sources: Collection[InputSource]) -> tuple[InputSource, ...]:
    """``sources`` in one fixed order (model, raw schema, signature): a set's order varies by run."""
    return tuple(source for source in ("model", "json_schema", "signature") if source in sources)


_LOWER = "abcdefghijklmnopqrstuvwxyz"
_ALNUM = _LOWER + "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


def _words(first: str, rest: str, max_size: int) -> st.SearchStrategy[str]:
    # st.text over a small alphabet, not st.from_regex: a regex strategy makes Hypothesis compute
    # its UTF-8 character map, seconds of work in every fresh directory (the suite's CI runs)
    return st.builds(str.__add__, st.sampled_from(first), st.text(alphabet=rest, max_size=max_size))


@made_once
def tool_names() -> st.SearchStrategy[str]:
    """Names matching ``[a-z][a-z0-9_]{0,20}``."""
    return _words(_LOWER, _LOWER + "0123456789_", 20)


# -- shapes ------------------------------------------------------------------------------------


@made_once
def _scalar_default(kind: FieldKind, enum_values: tuple[str, ...]) -> st.SearchStrategy[JSONValue]:
    if kind == "string":
        return st.text(max_size=5)
    if kind == "integer":
        return st.integers(-5, 5)
    if kind == "number":
        return st.sampled_from((0.5, 1.0, -2.25))
    if kind == "boolean":
        return st.booleans()
    return st.sampled_from(enum_values)


@made_once
@st.composite
def _constraints(draw: st.DrawFn, kind: FieldKind) -> tuple[tuple[str, Any], ...]:
    """Constraints for a field of ``kind`` (maybe none): bounds, lengths, a pattern, item counts,
    always satisfiable, and each breakable alone (a value of the right type breaks just that one)."""
    if kind not in ("integer", "number", "string", "list") or not draw(st.booleans(), label="constrained"):
        return ()
    out: list[tuple[str, Any]] = []
    if kind in ("integer", "number"):
        low = draw(st.integers(-5, 5)) if kind == "integer" else draw(sampled((-2.5, 0, 0.5)))
        span = draw(st.integers(0, 10)) if kind == "integer" else draw(sampled((1, 10.25)))
        which = draw(sampled(("minimum", "maximum", "both")))
        if which != "maximum":
            out.append(("minimum", low))
        if which != "minimum":
            out.append(("maximum", low + span))
    elif kind == "string":
        shortest = draw(st.integers(0, 2))
        if shortest:
            out.append(("minLength", shortest))
        if draw(st.booleans()):
            out.append(("maxLength", shortest + draw(st.integers(1, 6))))
        if draw(st.booleans()) or not out:
            out.append(("pattern", draw(sampled(STRING_PATTERNS))[0]))
    else:
        fewest = draw(st.integers(0, 2))
        if fewest:
            out.append(("minItems", fewest))
        if draw(st.booleans()) or not out:
            out.append(("maxItems", fewest + draw(st.integers(0, 3)) or 1))
    event(f"constraints: {', '.join(keyword for keyword, _ in out)}")
    return tuple(out)


@made_once
@st.composite
def field_shapes(draw: st.DrawFn, name: str, depth: int = 2) -> FieldShape:
    """One field: a scalar (maybe constrained), a string enum, a union of scalars, a list, or
    (while ``depth`` lasts) a nested object."""
    kinds: tuple[FieldKind, ...] = SCALAR_KINDS + ("union",) + (("list", "object") if depth > 0 else ("list",))
    kind = draw(sampled(kinds), label="kind")
    nullable = draw(st.booleans(), label="nullable")
    description = draw(_MAYBE_DESCRIPTION, label="description")
    enum_values: tuple[str, ...] = ()
    variants: tuple[FieldKind, ...] = ()
    any_of = False
    item: FieldShape | None = None
    obj: ObjectShape | None = None
    if kind == "enum":
        # sorted: typing caches Optional[Literal[...]] by set-equality, so two orders of one set
        # would share the first one's order in pydantic's schema
        enum_values = tuple(sorted(draw(st.lists(sampled(_ENUM_POOL), min_size=2, max_size=4, unique=True))))
    elif kind == "union":
        variants = draw(sampled(UNION_VARIANTS), label="variants")
        any_of = draw(st.booleans(), label="union as anyOf")
        event(f"union: {' | '.join(variants)} as {'anyOf' if any_of else 'a type list'}")
    elif kind == "list":
        item_kind = draw(sampled(SCALAR_KINDS + (("object",) if depth > 0 else ())), label="item kind")
        if item_kind == "object":
            item = FieldShape("object", obj=draw(input_shapes(f"{name}_item", depth=depth - 1)))
        else:
            values = tuple(sorted(draw(st.lists(sampled(_ENUM_POOL), min_size=2, max_size=3, unique=True)))) if item_kind == "enum" else ()
            item = FieldShape(item_kind, nullable=draw(st.booleans()), enum_values=values, constraints=draw(_constraints(item_kind)))
    elif kind == "object":
        obj = draw(input_shapes(name, depth=depth - 1))
    # item counts only for lists of scalars: a default list of objects would reach a model-typed
    # callback as dicts (defaults are not validated), which is right but not what the checks expect
    constraints = draw(_constraints(kind)) if item is None or item.obj is None else ()
    shape = FieldShape(kind, nullable=nullable, description=description, enum_values=enum_values, item=item, obj=obj,
                       variants=variants, any_of=any_of, constraints=constraints)
    default: Any = NO_DEFAULT
    if draw(st.booleans(), label="optional"):
        if nullable:
            default = None  # the `T | None = None` case
        elif kind == "list":
            default = [] if not shape.constraint("minItems") else draw(_values(shape))
        elif shape.constraints or kind == "union":
            default = draw(_values(shape))  # a default that meets its own constraints
            if isinstance(default, int) and not isinstance(default, bool) and "number" in (kind, *variants):
                default = float(default)  # a model keeps its default unvalidated: give the type it declares
        elif kind != "object":
            default = draw(_scalar_default(kind, enum_values))
    event(f"field: {kind}{' | None' if nullable else ''}{' (default)' if default is not NO_DEFAULT else ''}")
    return replace(shape, default=default)


@made_once
def _maybe_docstring(name: str) -> st.SearchStrategy[str | None]:
    return st.none() | st.just(f"The {name} object.")


@made_once
@st.composite
def input_shapes(draw: st.DrawFn, name: str = "Input", depth: int = 2, *, closed: bool | None = None, min_fields: int = 0) -> ObjectShape:
    """An object shape with up to four fields; ``closed`` None draws it."""
    names = draw(st.lists(sampled(PROPERTY_NAMES), min_size=min_fields, max_size=4, unique=True), label="fields")
    fields = tuple((field_name, draw(field_shapes(f"{name}_{field_name}", depth))) for field_name in names)
    is_closed = draw(st.booleans(), label="closed") if closed is None else closed
    docstring = draw(_maybe_docstring(name), label="docstring")
    event(f"object: {'closed' if is_closed else 'open'}, {len(fields)} fields")
    return ObjectShape(name=name, fields=fields, closed=is_closed, description=docstring)


# -- inputs ------------------------------------------------------------------------------------


def _pattern(field: FieldShape) -> tuple[str, str, str] | None:
    pattern = field.constraint("pattern")
    return next((entry for entry in STRING_PATTERNS if entry[0] == pattern), None) if pattern is not None else None


def _strings(field: FieldShape, *, max_size: int = 8) -> st.SearchStrategy[str]:
    if not field.constraints:
        return st.text(max_size=max_size)
    shortest = field.constraint("minLength") or 0
    longest = field.constraint("maxLength")
    pattern = _pattern(field)
    alphabet = st.sampled_from(pattern[1]) if pattern is not None else st.characters(codec="utf-8")
    return st.text(alphabet, min_size=shortest, max_size=longest if longest is not None else shortest + max_size)


def _numbers(field: FieldShape) -> st.SearchStrategy[JSONValue]:
    low, high = field.constraint("minimum"), field.constraint("maximum")
    if field.kind == "integer":
        return st.integers(-(2**40) if low is None else low, 2**40 if high is None else high)
    floats = st.floats(-1e9 if low is None else low, 1e9 if high is None else high, allow_nan=False)
    whole = st.integers(-1000 if low is None else math.ceil(low), 1000 if high is None else math.floor(high))
    return whole | floats


def _values(field: FieldShape) -> st.SearchStrategy[JSONValue]:
    base: st.SearchStrategy[JSONValue]
    if field.kind == "string":
        base = _strings(field)
    elif field.kind in ("integer", "number"):
        base = _numbers(field)
    elif field.kind == "boolean":
        base = st.booleans()
    elif field.kind == "enum":
        base = st.sampled_from(field.enum_values)
    elif field.kind == "union":
        base = st.one_of([_values(FieldShape(kind)) for kind in field.variants])
    elif field.kind == "list":
        assert field.item is not None
        fewest = field.constraint("minItems") or 0
        most = field.constraint("maxItems")
        base = st.lists(_values(field.item), min_size=fewest, max_size=most if most is not None else max(fewest, 3))
    else:
        assert field.obj is not None
        base = valid_inputs(field.obj)
    return st.none() | base if field.nullable else base


def valid_inputs(shape: ObjectShape) -> st.SearchStrategy[dict[str, JSONValue]]:
    """Inputs valid under ``shape``: required properties always, optional ones sometimes."""
    required = {name: _values(field) for name, field in shape.fields if field.required}
    optional: dict[str, st.SearchStrategy[JSONValue]] = {name: _values(field) for name, field in shape.fields if not field.required}
    if not shape.closed:
        optional["x_undeclared"] = st.integers(0, 9)  # open objects accept undeclared properties
    return st.fixed_dictionaries(required, optional=optional)


#: Values of the wrong type, per kind (``null`` is a mutation of its own).
_WRONG_VALUES: Mapping[str, tuple[JSONValue, ...]] = {
    "string": (5, True, [], {"a": 1}),
    "integer": ("5", 1.5, True, []),
    "number": ("1.5", True, [], {}),
    "boolean": (1, "true", 0, []),
    "enum": ("not-a-choice", 3, ["red"]),
    "list": ("a", 7, {"0": 1}),
    "object": (7, "x", [], True),
}

#: Candidates for a value no variant of a union accepts.
_UNION_WRONG_POOL: tuple[JSONValue, ...] = ("x", 5, 1.5, True, [], {"a": 1})


def _fits_kind(value: JSONValue, kind: FieldKind) -> bool:
    if kind == "string":
        return isinstance(value, str)
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return isinstance(value, int) and not isinstance(value, bool)
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def wrong_values(field: FieldShape) -> tuple[JSONValue, ...]:
    """Values of the wrong type for ``field`` (``null`` is its own mutation, for non-nullable fields)."""
    if field.kind == "union":
        return tuple(value for value in _UNION_WRONG_POOL if not any(_fits_kind(value, kind) for kind in field.variants))
    return _WRONG_VALUES[field.kind]


def _constraint_breakers(field: FieldShape) -> list[tuple[str, st.SearchStrategy[JSONValue]]]:
    """(constraint, values of the right type that break only it) for each constraint of ``field``."""
    out: list[tuple[str, st.SearchStrategy[JSONValue]]] = []
    step = 1 if field.kind == "integer" else 0.5
    pattern = _pattern(field)
    fine = pattern[1][0] if pattern is not None else "a"
    shortest = field.constraint("minLength") or 0
    longest = field.constraint("maxLength")
    for keyword, limit in field.constraints:
        if keyword == "minimum":
            out.append((keyword, st.just(limit - step)))
        elif keyword == "maximum":
            out.append((keyword, st.just(limit + step)))
        elif keyword == "minLength":
            out.append((keyword, st.just(fine * (limit - 1))))
        elif keyword == "maxLength":
            out.append((keyword, st.just(fine * (limit + 1))))
        elif keyword == "pattern" and pattern is not None:
            # the refused character, as many times as the lengths allow (at least once)
            at_least = max(shortest, 1)
            out.append((keyword, st.text(st.just(pattern[2]), min_size=at_least, max_size=at_least if longest is None else max(longest, 1))))
        elif keyword in ("minItems", "maxItems"):
            assert field.item is not None
            size = limit - 1 if keyword == "minItems" else limit + 1
            out.append((keyword, st.lists(_values(field.item), min_size=size, max_size=size)))
    return out


Site = tuple[str, tuple[str | int, ...], FieldShape | None]


def _field_sites(field: FieldShape, where: tuple[str | int, ...]) -> list[Site]:
    sites: list[Site] = [("wrong type", where, field)]
    if not field.nullable:
        sites.append(("null", where, field))
    if field.constraints:
        sites.append(("constraint", where, field))
    return sites


def _mutation_sites(value: Mapping[str, Any], shape: ObjectShape, path: tuple[str | int, ...]) -> list[Site]:
    """(mutation, path, field) for every place one mutation makes ``value`` invalid."""
    sites: list[Site] = []
    for name, field in shape.fields:
        where = (*path, name)
        sites.extend(_field_sites(field, where))
        if field.required:
            sites.append(("missing", where, None))
        current = value.get(name)
        if field.kind == "object" and field.obj is not None and isinstance(current, Mapping):
            sites.extend(_mutation_sites(current, field.obj, where))
        if field.kind == "list" and field.item is not None and isinstance(current, list):
            for index, item in enumerate(current):
                sites.extend(_field_sites(field.item, (*where, index)))
                if field.item.obj is not None and isinstance(item, Mapping):
                    sites.extend(_mutation_sites(item, field.item.obj, (*where, index)))
    if shape.closed:
        sites.append(("unexpected", (*path, UNEXPECTED_PROPERTY), None))
    return sites


def _replace(value: Any, path: tuple[str | int, ...], mutation: str, replacement: JSONValue) -> Any:
    """A copy of ``value`` with the mutation applied at ``path`` (whose parent exists)."""
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        copied_list = list(value)
        copied_list[int(head)] = _replace(copied_list[int(head)], rest, mutation, replacement) if rest else replacement
        return copied_list
    copied = dict(value)
    if rest:
        copied[str(head)] = _replace(copied[str(head)], rest, mutation, replacement)
    elif mutation == "missing":
        copied.pop(str(head), None)
    else:
        copied[str(head)] = replacement
    return copied


@st.composite
def invalid_inputs(
    draw: st.DrawFn, shape: ObjectShape, valid: Mapping[str, JSONValue], exclude: Collection[str] = ()
) -> tuple[dict[str, JSONValue], str]:
    """An input invalid at exactly one known place, and that place's JSON pointer. The kind of
    mutation is drawn first, then its place, so that rarer kinds (a broken constraint, ``null``)
    are tried as often as the common ones. ``exclude`` names kinds left out (``"unexpected"``:
    an undeclared property, which TL-9 judges for tools from a function)."""
    sites = [site for site in _mutation_sites(valid, shape, ()) if site[0] not in exclude]
    kinds = sorted({site[0] for site in sites})
    mutation = draw(sampled(tuple(kinds)), label="mutation")
    _, path, field = draw(st.sampled_from([site for site in sites if site[0] == mutation]), label="where")
    replacement: JSONValue = None
    label = mutation
    if mutation == "wrong type":
        assert field is not None
        replacement = draw(st.sampled_from(wrong_values(field)), label="wrong value")
        label = f"wrong type ({field.kind})"
    elif mutation == "null":
        assert field is not None
        label = f"null for a non-nullable {field.kind}"
    elif mutation == "constraint":
        assert field is not None
        keyword, breakers = draw(st.sampled_from(_constraint_breakers(field)), label="broken constraint")
        replacement = draw(breakers, label="constraint breaker")
        label = f"constraint {keyword} ({field.kind})"
    elif mutation == "unexpected":
        replacement = draw(st.integers(0, 9))
    event(f"invalid input: {label}, depth {len(path)}")
    return _replace(valid, path, mutation, replacement), pointer_from_path(path)


# -- definitions and cases ----------------------------------------------------------------------
# Plain builders (no drawing): the strategies below draw their arguments, and a check that
# needs a fixed, named case (the bugs the issue lists) builds it with the same functions.


def _recording_callback(log: CallLog, returns: JSONValue, *, context: bool) -> Callable[..., JSONValue]:
    if context:

        def with_context(input: Any, context: ToolContext) -> JSONValue:
            log.record(RecordedCall(input=input, context=context))
            return returns

        return with_context

    def plain(input: Any, *surplus: Any) -> JSONValue:
        log.record(RecordedCall(input=input, surplus=surplus))
        return returns

    return plain


def recording_definition(
    shape: ObjectShape,
    source: InputSource,
    *,
    name: str,
    log: CallLog,
    returns: JSONValue,
    context: bool | str = False,
) -> ToolDefinition:
    """A tool for ``shape`` whose input schema comes from ``source`` and whose callback records
    each call in ``log`` and returns ``returns``. A ``"signature"`` tool needs a closed root
    (keyword arguments cannot take undeclared properties); ``context`` names its context parameter."""
    description = f"Tool {name} for tests."
    if source == "signature":
        parameter = context if isinstance(context, str) else None

        def body(kwargs: dict[str, Any], ctx: ToolContext | None) -> JSONValue:
            log.record(RecordedCall(input=kwargs, context=ctx))
            return returns

        callback = signature_callback(shape, body, name=name, summary=description, context_parameter=parameter)
        return ToolDefinition(name=name, description=description, callback=callback, context=context)
    callback = _recording_callback(log, returns, context=bool(context))
    if source == "model":
        return ToolDefinition(name=name, description=description, callback=callback, input_model=model_for(shape), context=bool(context))
    return ToolDefinition(name=name, description=description, callback=callback, input_schema=schema_for(shape), context=bool(context))


#: The input shape of the raising, streaming and strict cases, and an input valid under it.
SIMPLE_SHAPE = ObjectShape("Simple", (("query", FieldShape("string")), ("limit", FieldShape("integer", default=3))), closed=True)
SIMPLE_INPUT: Mapping[str, JSONValue] = {"query": "q"}


def outcome_callback(
    kind: CallbackKind,
    items: tuple[JSONValue, ...],
    *,
    final: JSONValue,
    has_final: bool,
    convention: FinalValueConvention,
    failure: tuple[type[Exception], str] | None,
    use_return: bool,
) -> Callable[[Any], Any]:
    """A ``callback(input)`` of ``kind`` that streams ``items``, then raises ``failure`` or gives
    ``final`` the way ``convention`` says (``use_return``: a sync generator's ``return``)."""

    def fail() -> None:
        if failure is not None:
            raise failure[0](failure[1])

    if kind == "sync":

        def sync_callback(input: Any) -> JSONValue:
            fail()
            return final

        return sync_callback
    if kind == "async":

        async def async_callback(input: Any) -> JSONValue:
            fail()
            return final

        return async_callback
    if kind == "sync_generator":

        def sync_generator(input: Any) -> Any:
            yield from items
            fail()
            if has_final and convention == "tool_return":
                if use_return:
                    return final
                yield ToolReturn(final)
            elif has_final and convention == "last_item":
                yield final
            return None

        return sync_generator

    async def async_generator(input: Any) -> Any:
        for item in items:
            yield item
        fail()
        if has_final and convention == "tool_return":
            yield ToolReturn(final)
        elif has_final and convention == "last_item":
            yield final

    return async_generator


def keyword_callback(callback: Callable[[Any], Any], shape: ObjectShape, *, name: str, summary: str, sections: str = "") -> Callable[..., Any]:
    """A function of the same kind as ``callback(input)`` (sync, async, generator) taking ``shape``'s
    fields as keyword arguments, described by its signature and docstring (``describe_function``),
    that calls ``callback`` with them as one dict: the form a user hands to an SDK's decorator."""
    function: Callable[..., Any]
    if inspect.isasyncgenfunction(callback):

        async def async_generator(**kwargs: Any) -> Any:
            async for item in callback(kwargs):
                yield item

        function = async_generator
    elif inspect.isgeneratorfunction(callback):

        def sync_generator(**kwargs: Any) -> Any:
            return (yield from callback(kwargs))

        function = sync_generator
    elif inspect.iscoroutinefunction(callback):

        async def coroutine(**kwargs: Any) -> Any:
            return await callback(kwargs)

        function = coroutine
    else:

        def plain(**kwargs: Any) -> Any:
            return callback(kwargs)

        function = plain
    return describe_function(function, shape, name=name, summary=summary, sections=sections)


def simple_definition(name: str, callback: Callable[..., Any], source: InputSource) -> ToolDefinition:
    """A ``callback(input)`` tool over :data:`SIMPLE_SHAPE` from ``source``; a ``"signature"`` one
    takes its fields as keyword arguments (:func:`keyword_callback`) and passes them on as a dict."""
    if source not in _ALL_SOURCES:
        raise ValueError(f"simple_definition takes a source from {_ALL_SOURCES}, not {source!r}")
    description = f"Tool {name} for tests."
    if source == "signature":
        return ToolDefinition(name=name, description=description, callback=keyword_callback(callback, SIMPLE_SHAPE, name=name, summary=description))
    if source == "model":
        return ToolDefinition(name=name, description=description, callback=callback, input_model=model_for(SIMPLE_SHAPE))
    return ToolDefinition(name=name, description=description, callback=callback, input_schema=schema_for(SIMPLE_SHAPE))


def shape_case(shape: ObjectShape, name: str = "shape_tool") -> ShapeCase:
    """TL-1: ``shape`` as a model, a raw schema and, for a closed root, a typed signature."""
    sources: tuple[InputSource, ...] = ("model", "json_schema", "signature") if shape.closed else ("model", "json_schema")
    definitions = tuple(recording_definition(shape, source, name=name, log=CallLog(), returns=None) for source in sources)
    return ShapeCase(shape=shape, schema=schema_for(shape), definitions=definitions)


def raising_case(
    kind: CallbackKind,
    exception_type: type[Exception],
    message: str,
    *,
    items: tuple[JSONValue, ...] = (),
    source: InputSource = "json_schema",
    name: str = "raising_tool",
) -> RaisingCase:
    """TL-3: a ``kind`` callback that yields ``items`` (generators only) and raises ``exception_type(message)``."""
    if items and kind not in _GENERATOR_KINDS:
        raise ValueError(f"a {kind} callback cannot yield items before it raises")
    callback = outcome_callback(kind, items, final=None, has_final=False, convention="tool_return", failure=(exception_type, message), use_return=False)
    return RaisingCase(simple_definition(name, callback, source), dict(SIMPLE_INPUT), kind, exception_type, message, items)


def streaming_case(
    kind: CallbackKind,
    items: tuple[JSONValue, ...] = (),
    *,
    final: JSONValue = None,
    has_final: bool = True,
    convention: FinalValueConvention = "tool_return",
    use_return: bool = False,
    source: InputSource = "json_schema",
    name: str = "streaming_tool",
) -> StreamingCase:
    """TL-4: a ``kind`` callback that streams ``items`` and gives ``final`` (when ``has_final``)
    the way ``convention`` says. Refuses combinations a callback of that kind cannot express."""
    if kind not in _GENERATOR_KINDS and (items or not has_final):
        raise ValueError(f"a {kind} callback returns one value: no items, and has_final must be True")
    if kind in _GENERATOR_KINDS and convention == "none" and has_final:
        raise ValueError("under the 'none' convention a generator gives no final value: has_final must be False")
    if kind in _GENERATOR_KINDS and convention == "last_item" and items and not has_final:
        raise ValueError("under the 'last_item' convention a generator that yielded has given its final value: has_final must be True")
    if use_return and kind != "sync_generator":
        raise ValueError("only a sync generator can give its final value with a return statement")
    callback = outcome_callback(kind, items, final=final, has_final=has_final, convention=convention, failure=None, use_return=use_return)
    definition = simple_definition(name, callback, source)
    return StreamingCase(definition, dict(SIMPLE_INPUT), kind, convention, items, final if has_final else None, has_final)


def strict_case(strict: object, valid: bool, *, source: InputSource = "json_schema", name: str = "strict_tool") -> StrictCase:
    """TL-7: a tool over :data:`SIMPLE_SHAPE` defined with ``strict`` (``valid`` says whether SPEC §1 accepts it)."""
    definition = recording_definition(SIMPLE_SHAPE, source, name=name, log=CallLog(), returns=None)
    return StrictCase(replace(definition, strict=strict), valid)


# -- strategies ----------------------------------------------------------------------------------


def _sources(root_closed: bool) -> st.SearchStrategy[InputSource]:
    return st.sampled_from(("signature", "model", "json_schema") if root_closed else ("model", "json_schema"))


@st.composite
def shape_cases(draw: st.DrawFn) -> ShapeCase:
    """TL-1: a shape as a pydantic model, a raw schema and (closed roots) a typed signature."""
    case = shape_case(draw(input_shapes()), draw(tool_names()))
    for definition in case.definitions:
        event(f"source: {definition.source}")
    return case


def callback_return_values(returns: CallbackReturns = "json") -> st.SearchStrategy[JSONValue]:
    """What a recording callback returns in a layer whose callbacks may return ``returns`` (see
    :data:`~strictconformance.tools.contract.CallbackReturns`): any JSON value, or a string or null."""
    if returns == "text":
        return st.none() | st.text(max_size=20)
    return json_values()


@st.composite
def recording_cases(
    draw: st.DrawFn, sources: Collection[InputSource] | None = None, exclude_mutations: Collection[str] = (),
    returns: CallbackReturns = "json",
) -> RecordingCase:
    """TL-2: a recording tool, a valid input and an input invalid at a known field; ``sources``
    limits where its input schema comes from (a ``"signature"`` tool gets a closed root);
    ``exclude_mutations`` the kinds of invalid input left out (see :func:`invalid_inputs`);
    ``returns`` what the layer's callbacks may return (its ``tool_layer_traits.callback_returns``)."""
    closed = draw(st.booleans(), label="root closed")
    shape = draw(input_shapes(closed=closed, min_fields=1))
    source = draw(sampled(tuple(sorted(sources))) if sources else _sources(closed), label="source")
    event(f"source: {source}")
    if source == "signature" and not shape.closed:
        shape = ObjectShape(shape.name, shape.fields, closed=True, description=shape.description)
    log = CallLog()
    returned = draw(callback_return_values(returns), label="returns")
    definition = recording_definition(shape, source, name=draw(tool_names()), log=log, returns=returned)
    valid = draw(valid_inputs(shape), label="valid input")
    invalid, pointer = draw(invalid_inputs(shape, valid, exclude_mutations))
    return RecordingCase(definition, shape, log, valid, invalid, pointer, returned)


@made_once
def _item_values() -> st.SearchStrategy[JSONValue]:
    return st.text(max_size=10) | st.integers(0, 100) | st.dictionaries(st.sampled_from(("step", "of")), st.integers(0, 9), min_size=1)


@st.composite
def raising_cases(
    draw: st.DrawFn, kinds: tuple[CallbackKind, ...] = _CALLBACK_KINDS, sources: Collection[InputSource] = _SCHEMA_SOURCES
) -> RaisingCase:
    """TL-3: a callback of some kind that raises a chosen exception (generators after some items),
    its input schema from one of ``sources``."""
    kind = draw(sampled(kinds), label="kind")
    exception_type = draw(sampled(EXCEPTION_TYPES), label="exception")
    message = draw(st.text(st.characters(exclude_categories=("Cs", "Cc")), max_size=20), label="message")
    items = tuple(draw(st.lists(_item_values(), max_size=3))) if kind in _GENERATOR_KINDS else ()
    event(f"raises {exception_type.__qualname__} from {kind}{' after items' if items else ''}")
    source = draw(sampled(_in_order(sources)))
    return raising_case(kind, exception_type, message, items=items, source=source, name=draw(tool_names()))


@st.composite
def streaming_cases(
    draw: st.DrawFn, convention: FinalValueConvention = "tool_return", sources: Collection[InputSource] = _SCHEMA_SOURCES
) -> StreamingCase:
    """TL-4: sync, async and generator callbacks with 0..4 progress items and a final value (or none)."""
    kind = draw(sampled(_CALLBACK_KINDS), label="kind")
    final = draw(json_values(), label="final")
    items: tuple[JSONValue, ...] = ()
    has_final = True
    if kind in _GENERATOR_KINDS:
        items = tuple(draw(st.lists(_item_values(), max_size=4), label="items"))
        # with "last_item" a generator that yielded anything has given its final value
        has_final = convention != "none" and ((convention == "last_item" and bool(items)) or draw(st.booleans(), label="has final"))
    use_return = kind == "sync_generator" and has_final and convention == "tool_return" and draw(st.booleans(), label="return statement")
    event(f"stream: {kind}, {len(items)} items, {'final' if has_final else 'no final'}{' via return' if use_return else ''}")
    source = draw(sampled(_in_order(sources)))
    return streaming_case(kind, items, final=final, has_final=has_final, convention=convention, use_return=use_return,
                          source=source, name=draw(tool_names()))


def context_case(
    shape: ObjectShape,
    source: InputSource,
    *,
    name: str,
    parameter: str,
    input: Mapping[str, JSONValue],
    tool_use_id: str,
    invocation_state: Mapping[str, JSONValue],
) -> ContextCase:
    """TL-5: a tool over ``shape`` from ``source`` that opts in to context (a type-hinted one in
    its parameter ``parameter``, the others as a second argument), and the same tool without it."""
    log, plain_log = CallLog(), CallLog()
    if source == "signature" and not shape.closed:
        shape = replace(shape, closed=True)
    opt_in: bool | str = parameter if source == "signature" else True
    definition = recording_definition(shape, source, name=name, log=log, returns="ok", context=opt_in)
    plain = recording_definition(shape, source, name=name, log=plain_log, returns="ok")
    return ContextCase(definition, plain, shape, log, plain_log, input, tool_use_id, invocation_state)


@st.composite
def context_cases(draw: st.DrawFn, sources: Collection[InputSource] | None = None) -> ContextCase:
    """TL-5: a tool with context and the same tool without, from one of ``sources`` (default any)."""
    source = draw(sampled(tuple(sorted(sources)) if sources else ("json_schema", "model", "signature")), label="source")
    event(f"context source: {source}")
    shape = draw(input_shapes(closed=True if source == "signature" else None))
    parameter = draw(sampled(CONTEXT_PARAMETER_NAMES), label="context parameter")
    state = draw(_CONTEXT_STATES, label="state")
    tool_use_id = draw(sampled(("toolu_", "call_")), label="tool use id prefix") + draw(st.text(_ALNUM, min_size=1, max_size=16), label="tool use id")
    return context_case(shape, source, name=draw(tool_names()), parameter=parameter, input=draw(valid_inputs(shape)),
                        tool_use_id=tool_use_id, invocation_state=state)


def context_direct_call_case(
    shape: ObjectShape,
    source: InputSource,
    *,
    name: str,
    parameter: str,
    valid_input: Mapping[str, JSONValue],
    invalid_input: Mapping[str, JSONValue],
    invalid_field: str,
    returns: JSONValue,
    tool_use_id: str,
    invocation_state: Mapping[str, JSONValue],
) -> ContextDirectCallCase:
    """TL-6: a recording tool over ``shape`` from ``source`` that opts in to context (a type-hinted
    one in its parameter ``parameter``, the others as a second argument), to be called directly
    with ``valid_input`` and ``invalid_input`` (invalid at ``invalid_field``), with the context
    ``ToolContext(tool_use_id, name, invocation_state)`` supplied and without one."""
    if source == "signature" and not shape.closed:
        shape = replace(shape, closed=True)
    log = CallLog()
    opt_in: bool | str = parameter if source == "signature" else True
    definition = recording_definition(shape, source, name=name, log=log, returns=returns, context=opt_in)
    context = ToolContext(tool_use_id=tool_use_id, tool_name=name, invocation_state=dict(invocation_state))
    return ContextDirectCallCase(RecordingCase(definition, shape, log, valid_input, invalid_input, invalid_field, returns), context)


@st.composite
def context_direct_call_cases(
    draw: st.DrawFn, sources: Collection[InputSource] | None = None, returns: CallbackReturns = "json",
) -> ContextDirectCallCase:
    """TL-6: a tool with context from one of ``sources`` (default any), called directly with a valid
    and an invalid input, with and without a context; ``returns`` as for :func:`recording_cases`."""
    source = draw(sampled(tuple(sorted(sources)) if sources else ("json_schema", "model", "signature")), label="source")
    event(f"direct call with context, source: {source}")
    shape = draw(input_shapes(closed=True if source == "signature" else None, min_fields=1))
    valid = draw(valid_inputs(shape), label="valid input")
    invalid, pointer = draw(invalid_inputs(shape, valid))
    state = draw(_CONTEXT_STATES, label="state")
    tool_use_id = draw(sampled(("toolu_", "call_")), label="tool use id prefix") + draw(st.text(_ALNUM, min_size=1, max_size=16), label="tool use id")
    return context_direct_call_case(shape, source, name=draw(tool_names()), parameter=draw(sampled(CONTEXT_PARAMETER_NAMES), label="context parameter"),
                                    valid_input=valid, invalid_input=invalid, invalid_field=pointer,
                                    returns=draw(callback_return_values(returns), label="returns"), tool_use_id=tool_use_id, invocation_state=state)


@st.composite
def direct_call_cases(
    draw: st.DrawFn, sources: Collection[InputSource] | None = None, exclude_mutations: Collection[str] = (),
    returns: CallbackReturns = "json",
) -> DirectCallCase:
    """TL-6: a recording tool (from ``sources``, default any) and a raising tool, both with sync
    callbacks (the raising one from a ``"signature"`` when that is the only source); ``returns``
    as for :func:`recording_cases`."""
    raising_sources = ("signature",) if sources is not None and set(sources) == {"signature"} else _SCHEMA_SOURCES
    return DirectCallCase(recording=draw(recording_cases(sources, exclude_mutations, returns)),
                          raising=draw(raising_cases(kinds=("sync",), sources=raising_sources)))


#: An open object with no declared properties: a ``dict[str, Any]`` parameter, ``{"type": "object"}``.
OPEN_OBJECT = FieldShape("object", obj=ObjectShape("Metadata", (), closed=False))


def _closed_everywhere(shape: ObjectShape) -> ObjectShape:
    """``shape`` with every object in it closed: an input schema strict mode expresses."""

    def close(field: FieldShape) -> FieldShape:
        return replace(field, obj=_closed_everywhere(field.obj) if field.obj is not None else None,
                       item=close(field.item) if field.item is not None else None)

    return replace(shape, closed=True, fields=tuple((name, close(field)) for name, field in shape.fields))


def refusal_case(shape: ObjectShape, source: InputSource, *, name: str, open_object: bool) -> RefusalCase:
    """TL-11: a strict tool (``strict=True``) over ``shape`` with every object closed, plus, when
    ``open_object``, a required ``metadata`` parameter that is an open object (``dict[str, Any]``),
    which no strict mode expresses."""
    closed = _closed_everywhere(shape)
    if open_object:
        fields = tuple((field_name, field) for field_name, field in closed.fields if field_name != "metadata")
        closed = replace(closed, fields=(*fields, ("metadata", OPEN_OBJECT)))
    definition = replace(recording_definition(closed, source, name=name, log=CallLog(), returns="ok"), strict=True)
    return RefusalCase(definition, closed, expressible=not open_object)


@st.composite
def refusal_cases(draw: st.DrawFn, sources: Collection[InputSource] | None = None) -> RefusalCase:
    """TL-11: a strict tool from one of ``sources`` (default any), whose input schema strict mode
    expresses (every object closed) or does not (with an open object)."""
    source = draw(sampled(tuple(sorted(sources)) if sources else ("json_schema", "model", "signature")), label="source")
    open_object = draw(st.booleans(), label="open object")
    event(f"strict tool, {'with an open object' if open_object else 'every object closed'}, source: {source}")
    return refusal_case(draw(input_shapes(closed=True)), source, name=draw(tool_names()), open_object=open_object)


@st.composite
def strict_cases(
    draw: st.DrawFn,
    convention: StrictConvention = "priority",
    *,
    valid: bool | None = None,
    sources: Collection[InputSource] = _RAW_SCHEMA_ONLY,
) -> StrictCase:
    """TL-7: a tool with a strict setting valid in ``convention`` (SPEC §1: true, false, unset and,
    in the priority convention, a finite number > 0) or an invalid one (the kit's
    :func:`~strictconformance.strategies.tools.invalid_strict_settings` and the fixed
    :data:`INVALID_STRICT_SETTINGS`). ``valid`` fixes which; ``sources`` where the schema comes from."""
    is_valid = draw(st.booleans(), label="valid strict") if valid is None else valid
    strict: object
    if is_valid:
        strict = draw(strict_settings(convention), label="strict")
    else:
        strict = draw(invalid_strict_settings(convention) | st.sampled_from(INVALID_STRICT_SETTINGS), label="strict")
    event(f"strict: {'valid' if is_valid else 'invalid'} {type(strict).__name__}")
    source = draw(sampled(tuple(sorted(sources))), label="source")
    return strict_case(strict, is_valid, source=source, name=draw(tool_names()))


# -- tools from a documented function (TL-8..TL-10) ----------------------------------------------

#: Summary paragraphs for documented functions: the first lines users write, and longer ones.
SUMMARY_PARAGRAPHS = (
    "Get the current weather for a city.",
    "Search the catalogue and return the best matches.",
    "Book a table; the restaurant confirms by e-mail.",
    "Results are cached for ten minutes, so repeated calls are cheap.",
    "Uses the partner API. Città e località accepted.",
)

#: What a ``Returns:`` section says.
RETURNS_TEXTS = ("A short forecast text.", "The matching items, best first.")
_MAYBE_RETURNS = st.none() | st.sampled_from(RETURNS_TEXTS)


def _documented(shape: ObjectShape) -> ObjectShape:
    """``shape`` with every top-level field described (so its ``Args:`` section lists them all)."""
    fields = tuple((name, field if field.description else replace(field, description=f"The {name} to use."))
                   for name, field in shape.fields)
    return replace(shape, fields=fields)


def description_case(shape: ObjectShape, *, name: str, paragraphs: tuple[str, ...], returns: str | None = None) -> DescriptionCase:
    """TL-8: a function over ``shape`` (every parameter in ``Args:``) whose docstring's summary is
    ``paragraphs``, then its ``Args:`` and (with ``returns``) ``Returns:`` sections."""
    if not paragraphs:
        raise ValueError("a documented function needs at least one summary paragraph")
    shape = _documented(shape)
    summary = "\n\n".join(paragraphs)
    sections = f"Returns:\n    {returns}" if returns else ""

    def function(**kwargs: Any) -> JSONValue:
        return "ok"

    described = describe_function(function, shape, name=name, summary=summary, sections=sections)
    texts = ["Args:", *(field.description or "" for _, field in shape.fields)]
    return DescriptionCase(described, summary, paragraphs[0], tuple(text for text in texts if text))


@st.composite
def description_cases(draw: st.DrawFn) -> DescriptionCase:
    """TL-8: a documented function: one or two summary paragraphs, ``Args:`` for every parameter,
    sometimes ``Returns:``."""
    shape = draw(input_shapes(closed=True, min_fields=1, depth=1))
    paragraphs = tuple(draw(st.lists(sampled(SUMMARY_PARAGRAPHS), min_size=1, max_size=2, unique=True), label="summary"))
    returns = draw(_MAYBE_RETURNS, label="returns")
    event(f"docstring: {len(paragraphs)} summary paragraph(s){', Returns' if returns else ''}")
    return description_case(shape, name=draw(tool_names()), paragraphs=paragraphs, returns=returns)


def extra_keys_case(shape: ObjectShape, valid_input: Mapping[str, JSONValue], *, name: str, strict: bool | None = None) -> ExtraKeysCase:
    """TL-9: a recording function over the closed ``shape`` (defined with ``strict``), an input
    valid under it, and the key (:data:`UNEXPECTED_PROPERTY`) to add."""
    log = CallLog()

    def body(kwargs: dict[str, Any], ctx: ToolContext | None) -> JSONValue:
        log.record(RecordedCall(input=kwargs))
        return "ok"

    function = signature_callback(replace(shape, closed=True), body, name=name, summary=f"Tool {name} for tests.")
    return ExtraKeysCase(function, shape, log, dict(valid_input), UNEXPECTED_PROPERTY, strict)


@st.composite
def extra_keys_cases(draw: st.DrawFn) -> ExtraKeysCase:
    """TL-9: a function tool, strict unset or true (strict modes close schemas), and a valid input
    to add an undeclared key to."""
    shape = draw(input_shapes(closed=True, depth=1))
    strict = draw(sampled((None, True)), label="strict")
    return extra_keys_case(shape, draw(valid_inputs(shape), label="valid input"), name=draw(tool_names()), strict=strict)


#: A defaulted field added to a drawn shape that has none (TL-10 needs one to judge).
_DEFAULTED = ("limit", FieldShape("integer", default=5))


def defaults_case(shape: ObjectShape, *, name: str, strict: bool | None) -> DefaultsCase:
    """TL-10: a function over the closed ``shape`` defined with ``strict``; its defaults are those of
    ``shape``'s top-level optional fields."""
    shape = replace(shape, closed=True)

    def body(kwargs: dict[str, Any], ctx: ToolContext | None) -> JSONValue:
        return "ok"

    function = signature_callback(shape, body, name=name, summary=f"Tool {name} for tests.")
    defaults = {field_name: field.default for field_name, field in shape.fields if not field.required}
    return DefaultsCase(function, shape, strict, defaults)


@st.composite
def defaults_cases(draw: st.DrawFn) -> DefaultsCase:
    """TL-10: a function tool with at least one defaulted parameter, strict unset, true or false."""
    shape = draw(input_shapes(closed=True, depth=1))
    if all(field.required for _, field in shape.fields):
        shape = replace(shape, fields=(*[item for item in shape.fields if item[0] != _DEFAULTED[0]], _DEFAULTED))
    strict = draw(sampled((None, True, False)), label="strict")
    event(f"defaults: {sum(not field.required for _, field in shape.fields)}, strict {strict}")
    return defaults_case(shape, name=draw(tool_names()), strict=strict)


_ARGS_HEADERS = ("Args:", "Arguments:", "Parameters:")


def documented_function_case(function: Callable[..., Any]) -> DescriptionCase:
    """TL-8 for a function written by hand: its summary and the texts only its ``Args:`` section
    holds, as the kit's docstring reader (:func:`~strictconformance.tools.docstrings.parse_docstring`) sees them."""
    doc = inspect.getdoc(function) or ""
    parsed = parse_docstring(doc)
    if not parsed.description:
        raise ValueError(f"{function.__name__} has no docstring summary to judge")
    texts = [*parsed.params.values(), *(header for header in _ARGS_HEADERS if header in doc)]
    return DescriptionCase(function, parsed.description, parsed.description.split("\n\n")[0], tuple(texts))


def function_defaults_case(function: Callable[..., Any], *, strict: bool | None) -> DefaultsCase:
    """TL-10 for a function written by hand: its parameters' defaults (JSON values), read from its signature."""
    defaults = {name: parameter.default for name, parameter in inspect.signature(function).parameters.items()
                if parameter.default is not inspect.Parameter.empty}
    return DefaultsCase(function, None, strict, defaults)

"""The tool helper as a user meets it: definition, schemas, invocation, errors, context, direct calls."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import dataclasses
import functools
import io
import math
from collections.abc import AsyncIterator, Callable, Generator, Iterator
from pathlib import Path
from typing import Annotated, Any, Literal

import pydantic
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typing_extensions import TypedDict

from strictconformance.strategies.instances import json_values
from strictconformance.tools import (
    Tool,
    ToolContext,
    ToolDefinitionError,
    ToolInputError,
    ToolReturn,
    canonical_input_schema,
    tool,
)
from strictconformance.tools.docstrings import parse_docstring


def repr_short(value: object) -> str:
    """A parametrize id: the repr, or the size of an integer too long to show."""
    return f"int of {value.bit_length()} bits" if isinstance(value, int) and abs(value) > 10**20 else repr(value)


# -- the documented example (docs/tool-helper.md), run exactly as written -------------------------------------------------

README_EXAMPLE = '''
from pydantic import BaseModel

from strictconformance.tools import ToolContext, ToolReturn, tool


class Address(BaseModel):
    city: str
    zip_code: str | None = None


@tool(strict=True)
def ship(address: Address, count: int = 1, note: str | None = None) -> str:
    """Ship parcels to an address.

    Args:
        address: Where the parcels go.
        count: How many parcels.
    """
    return f"{count} parcel(s) to {address.city}"


print(ship.input_schema["properties"]["note"])  # {'type': ['string', 'null'], 'default': None}
print(ship.input_schema["required"])  # ['address']

result = ship.invoke("toolu_1", {"address": {"city": "Oslo"}, "count": 2}).result
print(result.status, result.content)  # success 2 parcel(s) to Oslo

bad = ship.invoke("toolu_2", {"address": {"city": 7}}).result
print(bad.status, bad.error_field)  # error /address/city

print(ship(Address(city="Bergen")))  # 1 parcel(s) to Bergen (a direct call, validated)


@tool(context=True)
async def countdown(n: int, ctx: ToolContext):
    """Count down, reporting progress."""
    for i in range(n, 0, -1):
        yield f"{i}..."
    yield ToolReturn(f"liftoff for {ctx.tool_use_id}")


run = countdown.invoke("toolu_3", {"n": 3})
print([event.data for event in run.events], run.result.value)  # ['3...', '2...', '1...'] liftoff for toolu_3
'''


def test_readme_example_runs_as_written_and_prints_what_its_comments_say() -> None:
    readme = (Path(__file__).resolve().parents[1] / "docs" / "tool-helper.md").read_text(encoding="utf-8")
    assert f"```python\n{README_EXAMPLE.strip()}\n```" in readme, "docs/tool-helper.md's example differs from README_EXAMPLE"
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        exec(compile(README_EXAMPLE, "README.md", "exec"), {"__name__": "readme_example"})
    expected = [
        line.split("  # ", 1)[1].split(" (a direct call", 1)[0]
        for line in README_EXAMPLE.splitlines()
        if line.startswith("print(")
    ]
    assert out.getvalue().splitlines() == expected


# -- definition forms ---------------------------------------------------------------------------


def _add(a: int, b: int = 2) -> int:
    """Add two numbers.

    Args:
        a: The first number.
        b: The second number.
    """
    return a + b


def test_decorator_without_and_with_arguments_and_function_form_agree() -> None:
    bare = tool(_add)
    called = tool()(_add)
    plain = tool(_add, name="add", description="Adds.", strict=False)
    assert bare.spec() == called.spec()
    assert bare.name == "_add"
    assert plain.name == "add"
    assert bare.description == "Add two numbers."
    assert plain.description == "Adds."
    assert plain.strict is False
    assert bare.strict is None
    assert bare.input_schema == {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "a": {"type": "integer", "description": "The first number."},
            "b": {"type": "integer", "description": "The second number.", "default": 2},
        },
        "required": ["a"],
    }


def test_tool_keeps_the_function_look() -> None:
    add = tool(_add)
    assert isinstance(add, Tool)
    assert getattr(add, "__name__", None) == "_add"
    assert add.__doc__ == _add.__doc__
    assert add.__wrapped__ is _add


@pytest.mark.parametrize(
    "doc",
    [
        "Summary.\n\nArgs:\n    a (int): First\n        continued.\n    b: Second.\n\nReturns:\n    x\n",
        "Summary.\n\nParameters\n----------\na : int\n    First\n    continued.\nb : int\n    Second.\n\nReturns\n-------\nint\n",
        "Summary.\n\n:param a: First\n    continued.\n:param int b: Second.\n:returns: x\n",
    ],
    ids=["google", "numpy", "sphinx"],
)
def test_docstring_styles_give_the_same_descriptions(doc: str) -> None:
    def f(a: int, b: int) -> int:
        return a + b

    f.__doc__ = doc
    made = tool(f)
    assert made.description == "Summary."
    assert made.input_schema["properties"]["a"]["description"] == "First continued."
    assert made.input_schema["properties"]["b"]["description"] == "Second."


def test_a_docstring_that_opens_with_its_args_section_still_describes_the_parameters() -> None:
    def f(a: int, b: int = 0) -> int:
        """Args:
            a: First
                continued.
            b: Second.
        """
        return a + b

    made = tool(f)
    assert made.description == ""
    assert made.input_schema["properties"]["a"]["description"] == "First continued."
    assert made.input_schema["properties"]["b"]["description"] == "Second."


def _scaled(value: int, factor: int, unit: str = "m") -> str:
    """Scale a value.

    Args:
        value: What to scale.
        factor: By how much.
        unit: The unit.
    """
    return f"{value * factor}{unit}"


def test_a_partial_with_a_name_is_a_tool_described_by_its_function() -> None:
    """The name error says to pass name= for partials: with it, the partial is a tool whose hints and
    docstring come from the wrapped function, minus the arguments the partial fixed positionally."""
    made = tool(functools.partial(_scaled, 3, unit="cm"), name="triple")
    assert made.description == "Scale a value."
    assert made.input_schema == {
        "type": "object",
        "additionalProperties": False,
        "properties": {
            "factor": {"type": "integer", "description": "By how much."},
            "unit": {"type": "string", "description": "The unit.", "default": "cm"},
        },
        "required": ["factor"],
    }
    assert made.invoke("t", {"factor": 2}).result.value == "6cm"
    assert made(factor=4) == "12cm"
    with pytest.raises(ToolInputError):
        made(factor="x")


class _Counter:
    """Count things."""

    def __call__(self, things: list[str], start: int = 0) -> int:
        return start + len(things)


def test_a_callable_instance_is_a_tool_described_by_its_call_method() -> None:
    made = tool(_Counter(), name="count")
    assert made.description == "Count things."
    assert made.input_schema["properties"] == {"things": {"type": "array", "items": {"type": "string"}}, "start": {"type": "integer", "default": 0}}
    assert made.invoke("t", {"things": ["a", "b"], "start": 1}).result.value == 3


def test_annotated_field_description_beats_the_docstring() -> None:
    def f(a: Annotated[int, pydantic.Field(description="from Field", ge=0)]) -> int:
        """Do.

        Args:
            a: from the docstring
        """
        return a

    assert tool(f).input_schema["properties"]["a"] == {"type": "integer", "description": "from Field", "minimum": 0}


# -- one shape, three sources, one schema (TL-1) --------------------------------------------------


class Unit(pydantic.BaseModel):
    """A unit."""

    name: Literal["celsius", "fahrenheit"]


class Reading(pydantic.BaseModel):
    city: str
    unit: Unit | None = None
    tags: list[str] = []


RAW_READING: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Reading",
    "type": "object",
    "properties": {
        "city": {"type": "string", "title": "City"},
        "unit": {
            "anyOf": [
                {"$ref": "#/definitions/Unit"},
                {"type": "null"},
            ],
            "default": None,
        },
        "tags": {"type": "array", "items": {"type": "string"}, "default": []},
    },
    "required": ["city"],
    "definitions": {
        "Unit": {
            "description": "A unit.",
            "type": "object",
            "properties": {"name": {"enum": ["celsius", "fahrenheit"], "type": "string"}},
            "required": ["name"],
        }
    },
}


def test_model_raw_schema_and_signature_advertise_the_same_schema() -> None:
    from_model = tool(lambda reading: reading, name="r", input_schema=Reading)
    from_raw = tool(lambda reading: reading, name="r", input_schema=RAW_READING)

    def r(city: str, unit: Unit | None = None, tags: list[str] = []) -> None:  # noqa: B006 - a default like any other
        return None

    from_hints = tool(r)
    assert from_model.input_schema == from_raw.input_schema
    assert from_hints.input_schema == {**from_model.input_schema, "additionalProperties": False}
    assert from_model.input_schema["properties"]["unit"]["anyOf"][1] == {"type": "null"}
    assert "unit" not in from_model.input_schema["required"]


def test_optional_none_keeps_null_and_is_not_required() -> None:
    def f(a: int | None = None, b: int | None = 3, *, c: int | None) -> None:
        return None

    schema = tool(f).input_schema
    assert schema["properties"]["a"] == {"type": ["integer", "null"], "default": None}
    assert schema["properties"]["b"] == {"type": ["integer", "null"], "default": 3}
    assert schema["required"] == ["c"]


def test_dataclasses_and_typeddicts_are_models_too() -> None:
    @dataclasses.dataclass
    class Point:
        x: int
        y: int = 0

    class PointDict(TypedDict):
        x: int
        y: int

    made = tool(lambda point: point.x + point.y, name="p", input_schema=Point)
    assert made.invoke("t", {"x": 2}).result.value == 2
    assert tool(lambda point: point["x"], name="q", input_schema=PointDict).invoke("t", {"x": 1, "y": 1}).result.value == 1


def test_recursive_models_keep_their_recursion() -> None:
    class Node(pydantic.BaseModel):
        value: int
        children: list[Node] = []

    made = tool(lambda node: len(node.children), name="tree", input_schema=Node)
    assert made.input_schema["properties"]["children"]["items"] == {"$ref": "#"}
    assert made.invoke("t", {"value": 1, "children": [{"value": 2, "children": [{"value": 3}]}]}).result.value == 1
    bad = made.invoke("t", {"value": 1, "children": [{"children": []}]}).result
    assert bad.error_field == "/children/0/value"


# -- bad definitions: clear errors at definition time --------------------------------------------


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ([1, 2], "must be a JSON Schema"),
        ({"type": "strng"}, "not a valid JSON Schema"),
        ({"type": "array", "items": {}}, "root must describe an object"),
        ({"$ref": "#"}, "never descends into the input"),
        ({"type": "object", "properties": {"a": {"$ref": "#/$defs/missing"}}}, "does not exist"),
        ({"type": "object", "properties": {"a": {"$ref": "https://example.com/s.json"}}}, "not a local JSON pointer"),
        ({"type": "object", "properties": {"a": {"type": "number", "minimum": math.nan}}}, "not a JSON number"),
        ({"type": "object", "properties": {"a": {"enum": {1, 2}}}}, "is not a JSON value"),
        ({"$schema": "http://json-schema.org/draft-04/schema#", "type": "object"}, "not supported"),
        ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"a": {"items": [{}]}}}, "draft 2020-12"),
    ],
)
def test_bad_raw_schemas_are_rejected_with_a_clear_error(schema: Any, words: str) -> None:
    with pytest.raises(ToolDefinitionError, match="tool 'bad'") as raised:
        tool(lambda data: data, name="bad", input_schema=schema)
    assert words in str(raised.value)


def test_self_containing_and_absurdly_deep_schemas_are_errors_not_crashes() -> None:
    looped: dict[str, Any] = {"type": "object", "properties": {}}
    looped["properties"]["self"] = looped
    with pytest.raises(ToolDefinitionError, match="contains itself"):
        tool(lambda data: data, name="loop", input_schema=looped)
    deep: dict[str, Any] = {"type": "string"}
    for _ in range(5000):
        deep = {"type": "object", "properties": {"a": deep}}
    with pytest.raises(ToolDefinitionError, match="nests deeper"):
        tool(lambda data: data, name="deep", input_schema=deep)


def test_draft_07_schemas_without_changed_keywords_are_accepted() -> None:
    made = tool(lambda data: data["a"], name="old", input_schema={
        "$schema": "http://json-schema.org/draft-07/schema#",
        "type": "object",
        "properties": {"a": {"$ref": "#/definitions/A"}},
        "definitions": {"A": {"type": "integer"}},
    })
    assert made.input_schema == {"type": "object", "properties": {"a": {"type": "integer"}}}


@pytest.mark.parametrize("strict", [0, -1, math.nan, math.inf, "true", [], "yes", 10**400, -(10**5000)], ids=repr_short)
def test_invalid_strict_settings_fail_at_definition(strict: Any) -> None:
    with pytest.raises(ToolDefinitionError, match="strict"):
        tool(_add, strict=strict)


@pytest.mark.parametrize("strict", [True, False, None, 1, 0.5, 10])
def test_valid_strict_settings_are_kept_exactly(strict: Any) -> None:
    made = tool(_add, strict=strict)
    assert made.strict is strict or (made.strict == strict and type(made.strict) is type(strict))


def test_bad_signatures_and_names_are_definition_errors() -> None:
    def star(*args: int) -> None:
        return None

    def ctx_without_opt_in(a: int, ctx: ToolContext) -> None:
        return None

    def bad_default(a: object = object()) -> None:
        return None

    def opaque(a: Opaque) -> None:
        return None

    def unresolvable(a: NoSuchName) -> None:  # type: ignore[name-defined]  # noqa: F821
        return None

    with pytest.raises(ToolDefinitionError, match=r"\*args"):
        tool(star)
    with pytest.raises(ToolDefinitionError, match="context=True"):
        tool(ctx_without_opt_in)
    with pytest.raises(ToolDefinitionError, match="cannot be advertised"):
        tool(bad_default)
    with pytest.raises(ToolDefinitionError, match="no JSON Schema"):
        tool(opaque)
    with pytest.raises(ToolDefinitionError, match="NoSuchName"):
        tool(unresolvable)
    with pytest.raises(ToolDefinitionError, match="pass name="):
        tool(lambda: None)
    with pytest.raises(ToolDefinitionError, match="must match"):
        tool(_add, name="has space")
    with pytest.raises(ToolDefinitionError, match="callback"):
        tool(lambda a, b, c: None, name="arity", input_schema={"type": "object"})
    with pytest.raises(ToolDefinitionError, match="exactly one parameter"):
        tool(_add, context=True)


class Opaque:
    """A type pydantic has no schema for."""


# -- invocation ---------------------------------------------------------------------------------


def test_nested_models_arrive_as_instances() -> None:
    seen: list[Any] = []

    def check(reading: Reading, extra: list[Unit]) -> str:
        seen.extend([reading, *extra])
        return "ok"

    made = tool(check)
    result = made.invoke("t", {"reading": {"city": "Oslo", "unit": {"name": "celsius"}}, "extra": [{"name": "fahrenheit"}]}).result
    assert result.status == "success"
    assert isinstance(seen[0], Reading)
    assert isinstance(seen[0].unit, Unit)
    assert isinstance(seen[1], Unit)


def test_omitted_optional_arguments_use_the_function_default() -> None:
    sentinel_seen: list[dict[str, Any]] = []

    def f(a: int, b: int = 5, **_: Any) -> int:
        return a + b

    with pytest.raises(ToolDefinitionError):
        tool(f)

    def g(a: int, b: int = 5) -> int:
        sentinel_seen.append({"a": a, "b": b})
        return a + b

    assert tool(g).invoke("t", {"a": 1}).result.value == 6
    assert sentinel_seen == [{"a": 1, "b": 5}]


def test_raw_schema_tools_get_a_copy_of_the_input_as_given() -> None:
    given = {"a": [1, {"b": None}], "c": "x"}
    received: list[Any] = []
    def keep(data: Any) -> str:
        received.append(data)
        return "done"

    made = tool(keep, input_schema={"type": "object"})
    made.invoke("t", given)
    assert received == [given]
    assert received[0] is not given


def test_invalid_input_gives_an_error_result_naming_the_field_and_skips_the_callback() -> None:
    calls: list[Any] = []
    made = tool(lambda data: calls.append(data), name="strict_input", input_schema={
        "type": "object",
        "properties": {"limit": {"type": "integer"}, "mode": {"enum": ["a", "b"]}},
        "required": ["limit"],
        "additionalProperties": False,
    })
    cases = {
        "/limit": {"limit": "10"},
        "/mode": {"limit": 1, "mode": "c"},
        "/other": {"limit": 1, "other": True},
    }
    for field, data in cases.items():
        result = made.invoke("toolu_x", data).result
        assert (result.status, result.error_type, result.error_field, result.tool_use_id) == ("error", "ToolInputError", field, "toolu_x")
        assert field in result.content
    missing = made.invoke("toolu_x", {}).result
    assert missing.error_field == "/limit"
    assert "required" in missing.content
    assert calls == []


@pytest.mark.parametrize(
    ("data", "words"),
    [
        ("[1, 2]", "must be a JSON object"),
        ("{not json", "not valid JSON text"),
        ("[" * 100_000, "nests too deeply"),
        ('{"a": NaN}', "not a JSON number"),
        ({"a": {1, 2}}, "is not a JSON value"),
        ({"a": float("inf")}, "not a JSON number"),
        (["not", "an", "object"], "must be a JSON object"),
    ],
)
def test_unusable_input_is_an_error_result_not_a_crash(data: Any, words: str) -> None:
    result = tool(lambda data: data, name="t", input_schema={"type": "object"}).invoke("t1", data).result
    assert result.status == "error"
    assert words in result.content


def test_json_text_input_is_parsed_like_provider_arguments() -> None:
    assert tool(_add).invoke("t", '{"a": 40}').result.value == 42


def test_deep_input_on_a_recursive_schema_is_an_input_error() -> None:
    made = tool(lambda data: "ok", name="rec", input_schema={"type": "object", "properties": {"c": {"$ref": "#"}}})
    nested: dict[str, Any] = {}
    for _ in range(10_000):
        nested = {"c": nested}
    result = made.invoke("t", nested).result
    assert result.status == "error"
    assert "nests deeper" in result.content
    assert made.invoke("t", {"c": {"c": {}}}).result.status == "success"


def test_results_are_json_and_non_json_returns_are_output_errors() -> None:
    def returns(value: Any) -> Tool[..., Any]:
        return tool(lambda data: value, name="r", input_schema={"type": "object"})

    assert returns({"a": (1, 2)}).invoke("t", {}).result.value == {"a": [1, 2]}
    assert returns(Unit(name="celsius")).invoke("t", {}).result.content == '{"name": "celsius"}'
    assert returns("plain text").invoke("t", {}).result.content == "plain text"
    assert returns(None).invoke("t", {}).result.content == "null"
    for bad in (object(), math.nan, {"a": math.inf}):
        result = returns(bad).invoke("t", {}).result
        assert (result.status, result.error_type) == ("error", "ToolOutputError")
    with pytest.raises(TypeError):
        returns(object()).invoke("t", {}, raise_errors=True)


class _Unprintable(Exception):
    def __str__(self) -> str:
        raise RuntimeError("no")


@pytest.mark.parametrize(
    ("exc", "content"),
    [
        (ValueError("bad value"), "ValueError: bad value"),
        (KeyError("k"), "KeyError: 'k'"),
        (RuntimeError(), "RuntimeError"),
        (_Unprintable(), "_Unprintable: <unprintable _Unprintable>"),
    ],
)
def test_exceptions_become_error_results_with_id_type_and_message(exc: Exception, content: str) -> None:
    def fail(data: Any) -> None:
        raise exc

    result = tool(fail, input_schema={"type": "object"}).invoke("toolu_9", {}).result
    assert (result.status, result.tool_use_id, result.content) == ("error", "toolu_9", content)
    assert result.error_type == type(exc).__qualname__
    assert result.exception is exc


def test_raise_errors_reraises_the_original_exception_and_input_errors() -> None:
    boom = ValueError("boom")

    def fail(data: Any) -> None:
        raise boom

    made = tool(fail, input_schema={"type": "object", "properties": {"a": {"type": "integer"}}}, raise_errors=True)
    with pytest.raises(ValueError, match="boom") as raised:
        made.invoke("t", {})
    assert raised.value is boom
    with pytest.raises(ToolInputError):
        made.invoke("t", {"a": "x"})
    assert made.invoke("t", {}, raise_errors=False).result.status == "error"


def test_base_exceptions_like_cancellation_are_not_swallowed() -> None:
    async def cancelled(data: Any) -> None:
        raise asyncio.CancelledError

    with pytest.raises(asyncio.CancelledError):
        tool(cancelled, input_schema={"type": "object"}).invoke("t", {})


# -- streaming (TL-4) ---------------------------------------------------------------------------


def test_an_invocation_keeps_everything_it_emitted_in_order() -> None:
    def gen(data: Any) -> Generator[str, None, str]:
        yield "a"
        yield "b"
        return "done"

    run = _stream_tool(gen).invoke("t", {})
    assert [type(item).__name__ for item in run.outputs] == ["ToolEvent", "ToolEvent", "ToolResult"]
    assert run.outputs[-1] is run.result
    assert run.events == run.outputs[:2]


def _stream_tool(callback: Callable[..., Any]) -> Tool[..., Any]:
    return tool(callback, name="s", input_schema={"type": "object"})


def test_sync_generator_items_are_events_and_its_return_value_is_the_result() -> None:
    def gen(data: Any) -> Generator[str, None, str]:
        yield "a"
        yield "b"
        return "done"  # the generator's return value is the tool's final value

    run = _stream_tool(gen).invoke("t", {})
    assert [(event.index, event.data, event.tool_use_id) for event in run.events] == [(0, "a", "t"), (1, "b", "t")]
    assert run.results[0].value == "done"


def test_async_generator_gives_its_final_value_with_tool_return_and_stops_there() -> None:
    closed: list[bool] = []

    async def agen(data: Any) -> AsyncIterator[Any]:
        try:
            yield 1
            yield ToolReturn({"total": 1})
            yield "never seen"
        finally:
            closed.append(True)

    run = _stream_tool(agen).invoke("t", {})
    assert [event.data for event in run.events] == [1]
    assert run.result.value == {"total": 1}
    assert closed == [True]


@pytest.mark.parametrize("kind", ["sync", "async"])
def test_empty_generators_give_a_success_result_with_value_none(kind: str) -> None:
    def empty(data: Any) -> Iterator[Any]:
        yield from ()

    async def aempty(data: Any) -> AsyncIterator[Any]:
        nothing: tuple[Any, ...] = ()
        for item in nothing:
            yield item

    run = _stream_tool(empty if kind == "sync" else aempty).invoke("t", {})
    assert run.events == ()
    assert len(run.results) == 1
    assert (run.result.status, run.result.value, run.result.content) == ("success", None, "null")


def test_an_exception_mid_stream_keeps_the_events_then_gives_one_error_result() -> None:
    async def agen(data: Any) -> AsyncIterator[int]:
        yield 1
        raise RuntimeError("half way")

    run = _stream_tool(agen).invoke("t", {})
    assert [event.data for event in run.events] == [1]
    assert len(run.results) == 1
    assert run.result.content == "RuntimeError: half way"


def test_stream_yields_events_as_they_happen() -> None:
    order: list[str] = []

    async def agen(data: Any) -> AsyncIterator[str]:
        order.append("produced 1")
        yield "1"
        order.append("produced 2")
        yield "2"

    async def consume() -> None:
        async for item in _stream_tool(agen).stream("t", {}):
            order.append(f"got {type(item).__name__}")

    asyncio.run(consume())
    assert order == ["produced 1", "got ToolEvent", "produced 2", "got ToolEvent", "got ToolResult"]


def test_invoke_works_inside_a_running_event_loop() -> None:
    async def inside() -> Any:
        sync_result = tool(_add).invoke("t", {"a": 1}).result.value
        async_result = (await tool(_add).ainvoke("t", {"a": 2})).result.value
        return sync_result, async_result

    assert asyncio.run(inside()) == (3, 4)


_REQUEST_ID: contextvars.ContextVar[str] = contextvars.ContextVar("request_id", default="unset")


def test_invoke_inside_a_running_event_loop_keeps_the_callers_context_variables() -> None:
    def whose() -> str:
        """Report the request id."""
        return _REQUEST_ID.get()

    async def inside() -> Any:
        _REQUEST_ID.set("req-42")
        return tool(whose).invoke("t", {}).result.value, (await tool(whose).ainvoke("t", {})).result.value

    assert asyncio.run(inside()) == ("req-42", "req-42")


# -- context (TL-5) -----------------------------------------------------------------------------


def test_context_is_opt_in_and_carries_id_name_and_the_same_state_object() -> None:
    seen: list[ToolContext] = []

    @tool(context="run")
    def with_named(a: int, run: ToolContext) -> int:
        seen.append(run)
        return a

    @tool(context=True)
    def with_annotated(a: int, anything: ToolContext) -> int:
        seen.append(anything)
        return a

    state = {"user": "u1"}
    for made in (with_named, with_annotated):
        assert list(made.input_schema["properties"]) == ["a"]
        assert made.invoke("toolu_c", {"a": 1}, state).result.value == 1
    assert all(ctx.tool_use_id == "toolu_c" and ctx.invocation_state is state for ctx in seen)
    assert [ctx.tool_name for ctx in seen] == ["with_named", "with_annotated"]


def test_an_optional_context_parameter_never_leaks_into_the_schema() -> None:
    def maybe(a: int, ctx: ToolContext | None = None) -> int:
        return a

    with pytest.raises(ToolDefinitionError, match="context=True"):
        tool(maybe)
    made = tool(maybe, context=True)
    assert list(made.input_schema["properties"]) == ["a"]
    assert made.context_parameter == "ctx"


def test_context_for_schema_tools_is_a_second_argument() -> None:
    made = tool(lambda data, ctx: ctx.tool_use_id, name="c", input_schema={"type": "object"}, context=True)
    assert made.invoke("toolu_s", {}).result.value == "toolu_s"
    with pytest.raises(ToolDefinitionError, match="context=True"):
        tool(lambda data, ctx: None, name="c", input_schema={"type": "object"}, context="ctx")


# -- direct calls (TL-6) ------------------------------------------------------------------------


def test_a_direct_call_validates_then_behaves_like_the_function() -> None:
    add = tool(_add)
    assert add(1) == 3
    assert add(1, b=5) == 6
    with pytest.raises(ToolInputError) as raised:
        add("one")  # type: ignore[arg-type]
    assert raised.value.field == "/a"
    with pytest.raises(TypeError):
        add()  # type: ignore[call-arg]

    def fail(a: int) -> None:
        raise LookupError("not found")

    with pytest.raises(LookupError, match="not found"):
        tool(fail)(1)


def test_a_direct_call_of_an_async_tool_returns_an_awaitable() -> None:
    async def double(a: int) -> int:
        return 2 * a

    made = tool(double)
    assert asyncio.run(made(a=4)) == 8
    with pytest.raises(ToolInputError):
        made(a="x")  # type: ignore[arg-type, unused-coroutine]  # validated before any coroutine exists


def test_a_direct_call_of_a_context_tool_needs_the_context() -> None:
    @tool(context=True)
    def whoami(ctx: ToolContext) -> str:
        return ctx.tool_use_id

    assert whoami(ctx=ToolContext("toolu_d", "whoami")) == "toolu_d"
    with pytest.raises(TypeError):
        whoami()  # type: ignore[call-arg]


def test_a_direct_call_of_a_model_tool_accepts_an_instance_or_a_dict() -> None:
    made = tool(lambda reading: reading.city, name="m", input_schema=Reading)
    assert made(Reading(city="Oslo")) == "Oslo"
    assert made({"city": "Rome"}) == "Rome"
    with pytest.raises(ToolInputError):
        made({"city": 3})


# -- anything at all in, a clear answer out -----------------------------------------------------

_ANYTHING = json_values(max_leaves=12) | st.sampled_from([math.nan, {1: 2}, {"a": {1, 2}}, object(), b"{}", "{"])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(schema=_ANYTHING | st.fixed_dictionaries({"type": st.just("object")}, optional={"properties": st.dictionaries(st.text(max_size=3), _ANYTHING, max_size=3)}))
def test_any_value_as_a_schema_is_canonical_or_a_definition_error(schema: Any) -> None:
    with contextlib.suppress(ToolDefinitionError):
        canonical_input_schema(schema)


@settings(max_examples=60, deadline=None)
@given(data=_ANYTHING)
def test_any_value_as_input_gives_exactly_one_result(data: Any) -> None:
    run = tool(_add).invoke("t", data)
    assert len(run.results) == 1
    assert run.result.status in ("success", "error")


@settings(max_examples=60, deadline=None)
@given(doc=st.text(max_size=200) | st.lists(st.sampled_from(["Args:", "    a: x", "Parameters", "----------", ":param b: y", "", "  z"]), max_size=8).map("\n".join))
def test_any_docstring_parses(doc: str) -> None:
    parsed = parse_docstring(doc)
    assert isinstance(parsed.description, str)
    assert all(isinstance(text, str) and text for text in parsed.params.values())

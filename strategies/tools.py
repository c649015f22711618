"""Strategies for tools: names, strict settings (valid and invalid), input schemas, tool specs.

Input schemas are built constructively with a known number of optional and union-typed
properties, at any depth, so budget checks reach every budget. Each feature is an
``hypothesis.event`` (see ``--hypothesis-show-statistics``).
"""

from __future__ import annotations

import math
from typing import Any, Literal

from hypothesis import event
from hypothesis import strategies as st

from strictconformance.strategies._choices import made_once, sampled
from strictconformance.wire import ToolSpec

__all__ = [
    "PLACEMENTS",
    "Placement",
    "costed_schemas",
    "invalid_strict_settings",
    "schema_with_cost",
    "strict_settings",
    "tool_lists",
    "tool_names",
    "tool_schemas",
    "tools",
]

Convention = Literal["boolean", "priority"]
Placement = Literal["flat", "object", "array", "anyOf"]

_WORDS = ("search", "lookup", "weather", "calc", "email", "fetch", "book", "quote", "translate", "ship")


@made_once
def tool_names() -> st.SearchStrategy[str]:
    """Names every provider accepts (``^[a-zA-Z_][a-zA-Z0-9_-]{0,63}$``)."""
    return st.from_regex(r"\A[a-zA-Z_][a-zA-Z0-9_-]{0,20}\Z")


@made_once
def strict_settings(convention: Convention = "boolean", *, unset: bool = True, required: bool = True) -> st.SearchStrategy[Any]:
    """Valid per-tool strict settings: ``True`` (unless ``required=False``), ``False``, ``None``
    (unset) and, in the priority convention, numbers > 0 (integers and floats)."""
    choices: list[st.SearchStrategy[Any]] = [st.just(False)]
    if required:
        choices.insert(0, st.just(True))
    if unset:
        choices.append(st.none())
    if convention == "priority":
        choices += [
            st.integers(min_value=1, max_value=100),
            st.floats(min_value=1e-6, max_value=1e6, allow_nan=False, allow_infinity=False, exclude_min=False),
        ]
    return st.one_of(choices)


@made_once
def invalid_strict_settings(convention: Convention = "priority") -> st.SearchStrategy[Any]:
    """Settings an SDK must reject at definition time: zero, negative numbers, NaN, infinities,
    strings and other types (and, in the boolean convention, any number)."""
    bad: list[st.SearchStrategy[Any]] = [
        st.just(0), st.just(0.0), st.integers(max_value=-1), st.floats(max_value=-1e-9, allow_nan=False),
        st.just(math.nan), st.just(math.inf), st.just(-math.inf),
        st.sampled_from(["true", "false", "1", "strict", ""]), st.just([True]), st.just({"strict": True}),
    ]
    if convention == "boolean":
        bad.append(st.integers(min_value=1, max_value=100))
    return st.one_of(bad)


def _leaf_schema(kind: str) -> dict[str, Any]:
    leaves: dict[str, dict[str, Any]] = {
        "string": {"type": "string"},
        "integer": {"type": "integer"},
        "number": {"type": "number"},
        "boolean": {"type": "boolean"},
        "enum": {"type": "string", "enum": ["a", "b", "c"]},
        "anyOf": {"anyOf": [{"type": "string"}, {"type": "integer"}]},
        "type-list": {"type": ["string", "null"]},
        "oneOf": {"oneOf": [{"type": "string"}, {"type": "integer"}]},
    }
    return leaves[kind]


@made_once
@st.composite
def tool_schemas(draw: st.DrawFn, *, max_properties: int = 5, max_depth: int = 2,
                 optional: bool = True, unions: bool = True) -> dict[str, Any]:
    """Closed object schemas whose properties are optional or not and union-typed or not, with
    nested objects and arrays of objects down to ``max_depth``."""

    def build(depth: int) -> dict[str, Any]:
        count = draw(st.integers(min_value=0, max_value=max_properties))
        properties: dict[str, Any] = {}
        required: list[str] = []
        kinds = ["string", "integer", "number", "boolean", "enum"]
        if unions:
            kinds += ["anyOf", "type-list"]
        if depth < max_depth:
            kinds += ["object", "array-of-objects"]
        for index in range(count):
            kind = draw(sampled(tuple(kinds)))
            if kind == "object":
                event("tool schema: nested object")
                schema = build(depth + 1)
            elif kind == "array-of-objects":
                event("tool schema: array of objects")
                schema = {"type": "array", "items": build(depth + 1)}
            else:
                schema = _leaf_schema(kind)
                if kind in ("anyOf", "type-list"):
                    event(f"tool schema: union property ({kind})")
            name = f"p{index}"
            properties[name] = schema
            if not optional or draw(st.booleans()):
                required.append(name)
            else:
                event("tool schema: optional property")
        return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}

    return build(0)


#: Where :func:`schema_with_cost` puts half of its costed properties, simplest first (what a
#: failing example shrinks towards): beside the others, in a nested object, in the object an
#: array's ``items`` describes, or in an object that is one branch of an ``anyOf``.
PLACEMENTS: tuple[Placement, ...] = ("flat", "object", "array", "anyOf")
# Union-typed properties cycle through the three forms SPEC §2 counts.
_UNION_FORMS = ("anyOf", "type-list", "oneOf")


def schema_with_cost(optional: int, union: int, *, placement: Placement = "flat", plain: int = 1) -> dict[str, Any]:
    """A schema with exactly ``optional`` optional and ``union`` union-typed properties (SPEC §2
    counting) and ``plain`` required plain ones. Unless ``placement`` is ``"flat"``, half of them
    sit deeper, behind a required wrapper property: a nested object, an array of objects, or an
    ``anyOf`` of an object and ``null`` (that wrapper is union-typed itself, so it takes one of the
    ``union`` slots; with none to spare the half goes into a nested object)."""
    if placement == "anyOf" and union == 0:
        placement = "object"
    if placement == "anyOf":
        union -= 1  # the wrapper
    slots = ["optional"] * optional + ["union"] * union + ["plain"] * plain
    inner, outer = ([], slots) if placement == "flat" else (slots[::2], slots[1::2])

    def make(kinds: list[str], prefix: str) -> dict[str, Any]:
        properties = {
            f"{prefix}{i}": (_leaf_schema(_UNION_FORMS[i % len(_UNION_FORMS)]) if kind == "union" else {"type": "string"})
            for i, kind in enumerate(kinds)
        }
        required = [f"{prefix}{i}" for i, kind in enumerate(kinds) if kind != "optional"]
        return {"type": "object", "properties": properties, "required": required, "additionalProperties": False}

    schema = make(outer, "p")
    if placement != "flat":
        nested = make(inner, "q")
        wrapper = {"object": nested, "array": {"type": "array", "items": nested},
                   "anyOf": {"anyOf": [nested, {"type": "null"}]}}[placement]
        schema["properties"]["inner"] = wrapper
        schema["required"].append("inner")
    return schema


def costed_schemas(optional: int, union: int) -> st.SearchStrategy[dict[str, Any]]:
    """Schemas costing exactly ``optional`` optional and ``union`` union-typed parameters, flat or
    with half of them deeper (every placement of :data:`PLACEMENTS`)."""
    return st.tuples(st.sampled_from(PLACEMENTS), st.integers(0, 2)).map(
        lambda drawn: schema_with_cost(optional, union, placement=drawn[0], plain=drawn[1]))


@made_once
@st.composite
def tools(draw: st.DrawFn, convention: Convention = "boolean", *, name: str | None = None,
          strict: st.SearchStrategy[Any] | None = None, schema: st.SearchStrategy[dict[str, Any]] | None = None) -> ToolSpec:
    """One :class:`~strictconformance.wire.ToolSpec`."""
    setting = draw(strict if strict is not None else strict_settings(convention))
    event(f"tool strict: {_setting_label(setting)}")
    return ToolSpec(
        name=name if name is not None else draw(tool_names()),
        input_schema=draw(schema if schema is not None else tool_schemas()),
        strict=setting,
        description=draw(sampled(("", "Looks something up.", "Does a thing with its arguments."))),
    )


@made_once
@st.composite
def tool_lists(draw: st.DrawFn, convention: Convention = "boolean", *, min_size: int = 0, max_size: int = 8,
               strict: st.SearchStrategy[Any] | None = None,
               schema: st.SearchStrategy[dict[str, Any]] | None = None) -> tuple[ToolSpec, ...]:
    """Tools with distinct, distinctive names (``tool_07_weather``: none is a prefix of another)."""
    size = draw(st.integers(min_value=min_size, max_value=max_size))
    event(f"tools per request: {_size_label(size)}")
    return tuple(
        draw(tools(convention, name=f"tool_{index:02d}_{draw(sampled(_WORDS))}", strict=strict, schema=schema))
        for index in range(size)
    )


def _setting_label(setting: Any) -> str:
    if setting is None or isinstance(setting, bool):
        return repr(setting)
    return "number"


def _size_label(size: int) -> str:
    return "0" if size == 0 else "1-5" if size <= 5 else "6-20" if size <= 20 else "21-40"

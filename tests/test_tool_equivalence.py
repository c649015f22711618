"""The TL oracles' own schema comparison: each equivalence holds both ways, each near miss is a
difference named where a maintainer finds it, undecidable keywords fall back to instances, and
TL-1 sees an error in the reference helper's normaliser instead of sharing it."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings

from conftest import SuiteRun
from strictconformance.strategies import callbacks
from strictconformance.tools import AdvertisedTool, Tool, canonical, equivalence
from strictconformance.tools.equivalence import (
    Difference,
    SchemaComparisonError,
    compare_schemas,
    input_schema_problem,
)
from strictconformance.tools.layer import ReferenceToolLayer
from strictconformance.tools.oracles import ANNOTATIONS, NO_OP_WHEN_TRUE, check_tl1, check_tl5
from strictconformance.tools.shapes import FieldShape, ObjectShape, model_for, schema_for

_QUIET = [HealthCheck.too_slow, HealthCheck.data_too_large]


def _object(properties: dict[str, Any], **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, **more}


def _prop(schema: Any, **more: Any) -> dict[str, Any]:
    """A root object with one property ``a`` of ``schema``."""
    return _object({"a": schema}, **more)


_NODE = {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
         "required": ["v"]}
_RECURSIVE = {"$defs": {"Node": _NODE}, "$ref": "#/$defs/Node"}


def _unfolded(inner_required: bool = True) -> dict[str, Any]:
    """``_RECURSIVE`` unfolded once, the cycle closed on the root instead of on ``$defs``."""
    inner = {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": {"$ref": "#"}}}}
    if inner_required:
        inner["required"] = ["v"]
    return {"type": "object", "properties": {"v": {"type": "integer"}, "kids": {"type": "array", "items": inner}}, "required": ["v"]}


#: (name, left, right, keyword arguments): pairs that accept the same inputs.
EQUAL: list[tuple[str, Any, Any, dict[str, Any]]] = [
    ("anyOf of types vs a type list, null first", _prop({"anyOf": [{"type": "string"}, {"type": "null"}]}), _prop({"type": ["null", "string"]}), {}),
    ("null order in a type list", _prop({"type": ["integer", "null"]}), _prop({"type": ["null", "integer"]}), {}),
    ("null order in anyOf", _prop({"anyOf": [{"$ref": "#/$defs/X"}, {"type": "null"}]}, **{"$defs": {"X": {"type": "string", "minLength": 2}}}),
     _prop({"anyOf": [{"type": "null"}, {"type": "string", "minLength": 2}]}), {}),
    ("a constraint on the branch vs beside the type list", _prop({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}),
     _prop({"type": ["integer", "null"], "minimum": 1}), {}),
    ("a nullable literal", _prop({"anyOf": [{"enum": ["x", "y"], "type": "string"}, {"type": "null"}]}),
     _prop({"type": ["string", "null"], "enum": ["x", "y", None]}), {}),
    ("one-value enum vs const", _prop({"enum": [1]}), _prop({"const": 1}), {}),
    ("enum order and repeats", _prop({"enum": ["b", "a", "b"]}), _prop({"enum": ["a", "b"]}), {}),
    ("a type the enum implies", _prop({"type": "string", "enum": ["a", "b"]}), _prop({"enum": ["a", "b"]}), {}),
    ("const 1 vs const 1.0", _prop({"const": 1}), _prop({"const": 1.0}), {}),
    ("one-branch allOf", _prop({"allOf": [{"type": "string", "maxLength": 3}]}), _prop({"type": "string", "maxLength": 3}), {}),
    ("one-branch anyOf with an annotation beside it", _prop({"anyOf": [{"type": "string"}], "description": "d"}),
     _prop({"type": "string", "description": "d"}), {}),
    ("one-branch oneOf", _prop({"oneOf": [{"type": "integer"}]}), _prop({"type": "integer"}), {}),
    ("required order and repeats", _object({"a": {"type": "string"}, "b": {"type": "integer"}}, required=["b", "a", "b"]),
     _object({"a": {"type": "string"}, "b": {"type": "integer"}}, required=["a", "b"]), {}),
    ("a $ref with a description beside it vs inline", _prop({"$ref": "#/$defs/X", "description": "d"}, **{"$defs": {"X": {"type": "object", "title": "X", "properties": {"b": {"type": "integer"}}}}}),
     _prop({"type": "object", "description": "d", "properties": {"b": {"type": "integer"}}}), {}),
    ("draft-07 definitions vs $defs", {"$schema": "http://json-schema.org/draft-07/schema#", **_prop({"$ref": "#/definitions/X"}), "definitions": {"X": {"type": "integer"}}},
     _prop({"$ref": "#/$defs/Y"}, **{"$defs": {"Y": {"type": "integer"}}}), {}),
    ("a recursive definition vs its unfolding", _RECURSIVE, _unfolded(), {}),
    ("mutual recursion vs self-recursion", {"$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"next": {"$ref": "#/$defs/B"}}},
                                                                            "B": {"type": "object", "properties": {"next": {"$ref": "#/$defs/A"}}}}},
     {"type": "object", "properties": {"next": {"$ref": "#"}}}, {}),
    ("true vs {}", _prop({"type": "array", "items": True}), _prop({"type": "array", "items": {}}), {}),
    ("titles and comments", _prop({"type": "string", "title": "A", "$comment": "c"}, title="Root"), _prop({"type": "string"}), {}),
    ("the root's description and an absent root type", {"properties": {"a": {"type": "string"}}, "description": "the tool"}, _prop({"type": "string"}), {}),
    ("empty required and properties", {"type": "object", "properties": {}, "required": []}, {"type": "object"}, {}),
    ("annotations the rule ignores", _prop({"type": "string", "default": "q", "examples": ["e"]}), _prop({"type": "string"}), {"ignore": ANNOTATIONS}),
    ("an always-true subschema the rule ignores", _prop({"type": "string"}, additionalProperties={}), _prop({"type": "string"}), {"absent_when_true": NO_OP_WHEN_TRUE}),
    ("branches that only list values", _prop({"anyOf": [{"const": "a"}, {"const": "b"}, {"type": "null"}]}), _prop({"enum": ["a", "b", None]}), {}),
    ("a keyword the comparison does not model, inert", _prop({"type": "string", "x-order": 1}), _prop({"type": "string"}), {}),
    ("draft-07 array items vs prefixItems", {"$schema": "http://json-schema.org/draft-07/schema#", **_prop({"type": "array", "items": [{"type": "string"}], "additionalItems": False})},
     _prop({"type": "array", "prefixItems": [{"type": "string"}], "items": False}), {}),
]

#: (name, left, right, keyword arguments, where the difference is): near misses.
DIFFERENT: list[tuple[str, Any, Any, dict[str, Any], str]] = [
    ("a two-value enum vs const", _prop({"enum": [1, 2]}), _prop({"const": 1}), {}, "/properties/a"),
    ("a required property dropped", _object({"a": {"type": "string"}, "b": {"type": "integer"}}, required=["a", "b"]),
     _object({"a": {"type": "string"}, "b": {"type": "integer"}}, required=["a"]), {}, "/required"),
    ("null dropped", _prop({"anyOf": [{"type": "string"}, {"type": "null"}]}), _prop({"type": "string"}), {}, "/properties/a/type"),
    ("null dropped from a constrained branch", _prop({"anyOf": [{"type": "integer", "minimum": 1}, {"type": "null"}]}), _prop({"type": "integer", "minimum": 1}), {}, "/properties/a"),
    ("a recursive definition vs an unfolding that loses required inside", _RECURSIVE, _unfolded(inner_required=False), {}, "/properties/kids/items/required"),
    ("closed vs open", _prop({"type": "string"}, additionalProperties=False), _prop({"type": "string"}), {}, "/additionalProperties"),
    ("an always-true subschema where the rule keeps it", _prop({"type": "string"}, additionalProperties={}), _prop({"type": "string"}), {}, "/additionalProperties"),
    ("a default the rule keeps", _prop({"type": "string", "default": "q"}), _prop({"type": "string"}), {}, "/properties/a/default"),
    ("a description", _prop({"type": "string", "description": "x"}), _prop({"type": "string", "description": "y"}), {"ignore": ANNOTATIONS}, "/properties/a/description"),
    ("const true vs const 1", _prop({"const": True}), _prop({"const": 1}), {}, "/properties/a"),
    ("an enum value dropped", _prop({"enum": ["a", "b", "c"]}), _prop({"enum": ["a", "b"]}), {}, "/properties/a/enum"),
    ("a bound", _prop({"type": "integer", "minimum": 1}), _prop({"type": "integer", "minimum": 0}), {}, "/properties/a/minimum"),
    ("a property of a $defs object", _prop({"$ref": "#/$defs/X"}, **{"$defs": {"X": {"type": "object", "properties": {"b": {"type": "integer"}}}}}),
     _prop({"type": "object", "properties": {"b": {"type": "string"}}}), {}, "/properties/a/properties/b/type"),
    # beside a $ref, additionalProperties: false sees no properties of its own: it is not the merged schema
    ("a $ref's closing sibling is not merged", _prop({"$ref": "#/$defs/X", "additionalProperties": False},
                                                      **{"$defs": {"X": {"type": "object", "properties": {"b": {"type": "integer"}}}}}),
     _prop({"type": "object", "properties": {"b": {"type": "integer"}}, "additionalProperties": False}), {}, "/properties/a"),
    ("a branch of anyOf", _prop({"anyOf": [{"type": "string", "maxLength": 3}, {"type": "integer"}]}),
     _prop({"anyOf": [{"type": "string", "maxLength": 4}, {"type": "integer"}]}), {}, "/properties/a/anyOf"),
]


@pytest.mark.parametrize(("left", "right", "options"), [case[1:] for case in EQUAL], ids=[case[0] for case in EQUAL])
def test_an_equivalence_holds_both_ways(left: Any, right: Any, options: dict[str, Any]) -> None:
    assert compare_schemas(left, right, **options) is None
    assert compare_schemas(right, left, **options) is None


@pytest.mark.parametrize(("left", "right", "options", "where"), [case[1:] for case in DIFFERENT], ids=[case[0] for case in DIFFERENT])
def test_a_near_miss_is_a_difference_both_ways_named_where_it_is(left: Any, right: Any, options: dict[str, Any], where: str) -> None:
    for a, b in ((left, right), (right, left)):
        found = compare_schemas(a, b, **options)
        assert isinstance(found, Difference), (a, b)
        assert not found.by_instance
        assert found.where.startswith(where), found


def test_a_keyword_it_does_not_model_is_judged_on_instances() -> None:
    def dynamic(kind: str) -> dict[str, Any]:
        return {"type": "object", "properties": {"a": {"$dynamicRef": "#/$defs/I"}}, "$defs": {"I": {"type": kind}}}

    assert compare_schemas(dynamic("integer"), dynamic("integer")) is None
    found = compare_schemas(dynamic("integer"), dynamic("string"))
    assert found is not None and found.by_instance
    verdicts = {found.left, found.right}
    assert verdicts == {"accepted", "rejected"} and isinstance(found.witness, dict) and "a" in found.witness


def test_when_even_instances_cannot_judge_it_is_the_kits_error() -> None:
    remote = _prop({"$ref": "https://example.invalid/schema.json"})
    with pytest.raises(SchemaComparisonError):
        compare_schemas(remote, remote)


def test_a_ref_cycle_that_consumes_no_input_ends() -> None:
    # {"$ref": A} with A = {"$ref": B}, B = {"$ref": A}: unusable as advertised, nothing to compare
    # structurally and no endless recursion; jsonschema cannot validate it either: the kit's error
    loop = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"$ref": "#/$defs/A"}}}
    assert "never descends into the input" in (input_schema_problem(loop) or "")
    with pytest.raises(SchemaComparisonError, match="never descends into the input"):
        compare_schemas(loop, loop)


@pytest.mark.parametrize(("schema", "problem"), [
    ([], "got list"),
    ({"type": "object", "properties": {"a": {"type": "strung"}}}, "not a valid JSON Schema"),
    ({"type": "object", "properties": {"a": {"$ref": "#/$defs/Missing"}}}, "points at nothing"),
    ({"type": "string"}, "the root must describe an object"),
    ({"$schema": "https://example.invalid/draft", "type": "object"}, "not a draft the kit reads"),
])
def test_an_unusable_advertised_schema_is_named(schema: Any, problem: str) -> None:
    found = input_schema_problem(schema)
    assert found is not None and problem in found


def test_a_usable_advertised_schema_has_no_problem() -> None:
    assert input_schema_problem(_RECURSIVE) is None
    assert input_schema_problem(_prop({"type": ["string", "null"]})) is None


@settings(max_examples=60, deadline=None, suppress_health_check=_QUIET)
@given(shape=callbacks.input_shapes())
def test_pydantics_schema_of_a_shape_is_its_raw_schema(shape: ObjectShape) -> None:
    """pydantic's form ($defs, titles, anyOf for null, const/enum) and the kit's raw form of one shape
    accept the same inputs, annotations included; a dropped required property is seen. A free-form
    object (``dict[str, Any]``) is ``additionalProperties: true`` in pydantic's, left out in the
    raw one: the same, as TL-1 compares them."""
    from strictconformance.tools.oracles import NO_OP_WHEN_TRUE

    model_schema, raw = model_for(shape).model_json_schema(by_alias=True), schema_for(shape)
    assert compare_schemas(model_schema, raw, absent_when_true=NO_OP_WHEN_TRUE) is None
    assert compare_schemas(raw, model_schema, absent_when_true=NO_OP_WHEN_TRUE) is None
    if raw.get("required"):
        assert compare_schemas({**raw, "required": raw["required"][:-1]}, model_schema, absent_when_true=NO_OP_WHEN_TRUE) is not None


def test_the_comparison_does_not_import_the_reference_normaliser() -> None:
    tree = ast.parse(Path(inspect.getfile(equivalence)).read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert not {name for name in imported if name and name.endswith((".canonical", ".helper", ".layer"))}, imported


# -- a planted error in the reference helper's normaliser ----------------------------------------------------


def _keep_first(key: str, count: int) -> Callable[[dict[str, Any]], dict[str, Any]]:
    """A plausible normaliser bug: only the first ``count`` entries of ``key`` survive. Idempotent, as
    a normaliser is: normalising its own output again changes nothing, so a check that normalises
    both sides with it sees two equal schemas."""
    def plant(node: dict[str, Any]) -> dict[str, Any]:
        value = node.get(key)
        return {**node, key: value[:count]} if isinstance(value, list) and len(value) > count else node
    return plant


_PLANTED_SHAPE = ObjectShape("Planted", (("query", FieldShape("string")), ("level", FieldShape("integer")),
                                         ("mode", FieldShape("enum", enum_values=("fast", "slow", "exact")))))


@pytest.mark.parametrize(("key", "count", "where"), [("required", 1, "/required"), ("enum", 2, "/properties/mode/enum")])
def test_tl1_fails_the_reference_when_its_normaliser_drops_something(monkeypatch: pytest.MonkeyPatch, key: str, count: int, where: str) -> None:
    """canonical.py's per-node rules drop ``required`` entries or enum values: the reference helper
    advertises the loss for every source alike. Compared with the raw schema by the oracle's own
    comparison, TL-1 fails; an oracle that normalised both sides with canonical.py saw nothing."""
    case = callbacks.shape_case(_PLANTED_SHAPE)
    assert check_tl1(ReferenceToolLayer(), case) == []
    normalise = canonical._normalise
    monkeypatch.setattr(canonical, "_normalise", lambda node: _keep_first(key, count)(normalise(node)))
    assert canonical.canonical_input_schema(canonical.canonical_input_schema(case.schema).schema) == canonical.canonical_input_schema(case.schema)
    violations = check_tl1(ReferenceToolLayer(), case)
    assert violations, "TL-1 passed a reference that advertises a lossy schema"
    assert "validates differently from the shape's raw JSON Schema" in violations[0].message
    assert f"first difference at {where}" in violations[0].message


def _with_context_advertising(change: Callable[[dict[str, Any]], dict[str, Any]]) -> ReferenceToolLayer:
    """The reference layer advertising ``change(schema)`` for tools that take context."""

    class Advertising(ReferenceToolLayer):
        def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
            advertised = super().describe_tool(handle)
            return replace(advertised, input_schema=change(dict(advertised.input_schema))) if handle.takes_context else advertised

    return Advertising()


def _reordered(schema: dict[str, Any]) -> dict[str, Any]:
    """The same schema written another way: required reversed, nullable types as anyOf, null first."""
    out = {**schema, "required": list(reversed(schema.get("required", [])))}
    properties = {}
    for name, sub in schema.get("properties", {}).items():
        kinds = sub.get("type") if isinstance(sub, dict) else None
        if isinstance(kinds, list):
            sub = {**{k: v for k, v in sub.items() if k != "type"}, "anyOf": [{"type": kind} for kind in reversed(kinds)]}
        properties[name] = sub
    return {**out, "properties": properties}


@settings(max_examples=25, deadline=None, suppress_health_check=_QUIET, database=None)
@given(case=callbacks.context_cases())
def test_tl5_takes_the_same_schema_written_another_way_and_names_a_loss(case: Any) -> None:
    assert check_tl5(_with_context_advertising(_reordered), case) == []
    reference = ReferenceToolLayer()
    plain = reference.describe_tool(reference.define_tool(case.plain_definition)).input_schema
    dropped = check_tl5(_with_context_advertising(lambda schema: {**schema, "required": schema.get("required", [])[1:]}), case)
    if plain.get("required"):
        assert dropped and "first difference at /required" in dropped[0].message, dropped
    else:
        assert dropped == []


def test_tl1_fails_the_planted_reference_through_the_plugin(monkeypatch: pytest.MonkeyPatch, run_suite: Callable[..., SuiteRun]) -> None:
    normalise = canonical._normalise
    monkeypatch.setattr(canonical, "_normalise", lambda node: _keep_first("required", 1)(normalise(node)))
    run = run_suite(None, "--sc-rule", "TL-1")
    assert run.rules_with("failed") == {"TL-1"}, run.output
    assert "first difference at" in run.output and "/required" in run.output, run.output

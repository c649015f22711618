"""The canonical advertised input schema: what it normalises, what it keeps, and that it keeps meaning."""

from __future__ import annotations

import copy
from typing import Any

import jsonschema  # type: ignore[import-untyped]
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from strictconformance.strategies.instances import instances
from strictconformance.strategies.schemas import json_schemas
from strictconformance.tools import ToolDefinitionError, canonical_input_schema


def canonical(schema: Any) -> dict[str, Any]:
    return canonical_input_schema(schema).schema


#: Features the tool helper rejects on purpose (anchors, dynamic refs, non-object roots).
_UNSUPPORTED = {"$anchor", "dynamic-ref", "non-object-root"}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(data=st.data())
def test_canonical_form_is_pure_idempotent_valid_and_keeps_meaning(data: st.DataObject) -> None:
    schema = data.draw(json_schemas(exclude=_UNSUPPORTED, root_types=("object",)), label="schema")
    before = copy.deepcopy(schema)
    result = canonical(schema)
    assert schema == before  # the input is not mutated
    jsonschema.Draft202012Validator.check_schema(result)
    assert canonical(result) == result  # idempotent
    original, canonical_validator = jsonschema.Draft202012Validator(schema), jsonschema.Draft202012Validator(result)
    value = data.draw(instances(schema, engine="compiled"), label="instance of the original")
    assert canonical_validator.is_valid(value), (result, value)
    value = data.draw(instances(result, engine="compiled"), label="instance of the canonical form")
    assert original.is_valid(value), (schema, value)


def test_titles_comments_and_schema_uri_go_but_a_property_named_title_stays() -> None:
    schema = {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "$id": "https://example.com/tool",
        "$comment": "internal",
        "title": "Args",
        "type": "object",
        "properties": {"title": {"type": "string", "title": "Title"}, "type": {"type": "integer"}},
    }
    assert canonical(schema) == {
        "type": "object",
        "properties": {"title": {"type": "string"}, "type": {"type": "integer"}},
    }


def test_nullable_forms_meet_in_one_type_list_with_null_last() -> None:
    forms = [
        {"anyOf": [{"type": "integer"}, {"type": "null"}]},
        {"anyOf": [{"type": "null"}, {"type": "integer"}]},
        {"type": ["null", "integer"]},
        {"anyOf": [{"type": "integer"}, {"type": ["null", "integer"]}]},
    ]
    assert {str(canonical({"type": "object", "properties": {"a": form}})["properties"]["a"]) for form in forms} == {
        str({"type": ["integer", "null"]})
    }
    constrained = {"anyOf": [{"type": "string", "maxLength": 3}, {"type": "null"}]}
    assert canonical({"type": "object", "properties": {"a": constrained}})["properties"]["a"] == constrained


def test_refs_are_inlined_with_their_siblings_and_unused_definitions_dropped() -> None:
    schema = {
        "type": "object",
        "properties": {
            "home": {"$ref": "#/$defs/Address", "description": "Where I live."},
            "work": {"$ref": "#/$defs/Address", "required": ["zip"]},
        },
        "$defs": {
            "Address": {"type": "object", "description": "An address.", "properties": {"zip": {"type": "string"}}, "required": ["zip"]},
            "Unused": {"type": "integer"},
        },
    }
    result = canonical(schema)
    assert "$defs" not in result
    assert result["properties"]["home"]["description"] == "Where I live."  # an annotation sibling wins
    work = result["properties"]["work"]  # a clashing validation keyword is kept apart, not lost
    assert work == {"allOf": [schema["$defs"]["Address"], {"required": ["zip"]}]}  # type: ignore[index]


def test_only_definitions_on_a_cycle_stay_behind_a_ref() -> None:
    schema = {
        "type": "object",
        "properties": {"tree": {"$ref": "#/definitions/Tree"}, "leaf": {"$ref": "#/definitions/Leaf"}},
        "definitions": {
            "Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/definitions/Tree"}}, "leaf": {"$ref": "#/definitions/Leaf"}}},
            "Leaf": {"type": "string"},
        },
    }
    result = canonical(schema)
    assert result["properties"] == {"tree": {"$ref": "#/$defs/Tree"}, "leaf": {"type": "string"}}
    assert result["$defs"] == {"Tree": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}, "leaf": {"type": "string"}}}}


def test_a_root_that_is_only_a_ref_becomes_its_target_and_recursion_points_at_the_root() -> None:
    pydantic_style = {
        "$ref": "#/$defs/Node",
        "$defs": {"Node": {"title": "Node", "description": "A node.", "type": "object", "properties": {"next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]}}}},
    }
    hand_written = {"type": "object", "properties": {"next": {"anyOf": [{"$ref": "#"}, {"type": "null"}]}}}
    result = canonical_input_schema(pydantic_style)
    assert result.schema == canonical(hand_written)
    assert result.root_description == "A node."


def test_small_rewrites_enum_const_one_branch_combinators_required_order() -> None:
    schema = {
        "type": "object",
        "properties": {
            "a": {"enum": ["only"]},
            "b": {"allOf": [{"type": "integer"}]},
            "c": {"anyOf": [{"type": "string", "minLength": 1}]},
        },
        "required": ["c", "a"],
    }
    assert canonical(schema) == {
        "type": "object",
        "properties": {"a": {"const": "only"}, "b": {"type": "integer"}, "c": {"type": "string", "minLength": 1}},
        "required": ["a", "c"],
    }


def test_the_root_gets_type_object_and_properties() -> None:
    assert canonical({}) == {"type": "object", "properties": {}}
    assert canonical({"required": ["x"]}) == {"type": "object", "properties": {}, "required": ["x"]}


@pytest.mark.parametrize(
    ("schema", "words"),
    [
        ({"type": "object", "properties": {"a": {"$id": "inner", "type": "string"}}}, "'$id' at /properties/a"),
        ({"type": "object", "properties": {"a": {"$dynamicRef": "#x"}}}, "'$dynamicRef'"),
        ({"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "$defs": {"A": {"allOf": [{"$ref": "#/$defs/A"}]}}}, "never descends"),
        ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "properties": {"a": {"$ref": "#/definitions/A", "minimum": 1}}, "definitions": {"A": {"type": "integer"}}}, "draft-07 ignores"),
        ({"$schema": "http://json-schema.org/draft-07/schema#", "type": "object", "dependencies": {"a": ["b"]}}, "'dependencies'"),
        ({"type": "object", "properties": {"a": True}, "$schema": 7}, "$schema must be a string"),
        (True, "JSON Schema object"),
        ({"type": ["object", "null"]}, "root must describe an object"),
    ],
)
def test_unsupported_schemas_are_named_errors(schema: Any, words: str) -> None:
    with pytest.raises(ToolDefinitionError) as raised:
        canonical(schema)
    assert words in str(raised.value)


def test_definitions_that_multiply_when_inlined_are_stopped() -> None:
    defs: dict[str, Any] = {"D0": {"type": "string"}}
    for level in range(1, 20):
        defs[f"D{level}"] = {"type": "object", "properties": {"a": {"$ref": f"#/$defs/D{level - 1}"}, "b": {"$ref": f"#/$defs/D{level - 1}"}}}
    with pytest.raises(ToolDefinitionError, match=r"multiply|deeper"):
        canonical({"type": "object", "properties": {"x": {"$ref": "#/$defs/D19"}}, "$defs": defs})


def test_a_schema_defined_again_is_checked_against_its_metaschema_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """jsonschema's metaschema check is the costly part of defining a tool (a sixth of the tool
    checks' CPU): the same schema, as JSON, is checked once per draft, and a schema it rejects is
    still rejected, with the same message, every time it is defined."""
    from strictconformance.tools import jsonvalue

    checked: list[Any] = []
    original = jsonschema.Draft202012Validator.check_schema

    def counting(schema: Any, *args: Any, **kwargs: Any) -> None:
        checked.append(schema)
        original(schema, *args, **kwargs)

    monkeypatch.setattr(jsonschema.Draft202012Validator, "check_schema", counting)
    monkeypatch.setattr(jsonvalue, "_METASCHEMA_ERRORS", {})
    valid = {"type": "object", "properties": {"city": {"type": "string", "maxLength": 40}}, "required": ["city"]}
    invalid = {"type": "object", "properties": {"city": {"type": "strung"}}}
    for _ in range(3):
        canonical(copy.deepcopy(valid))
        with pytest.raises(ToolDefinitionError, match=r"not a valid JSON Schema: 'strung' is not valid under any of the given schemas \(at /properties/city/type\)"):
            canonical(copy.deepcopy(invalid))
    assert len(checked) == 2
    changed = copy.deepcopy(valid)
    changed["properties"]["city"]["maxLength"] = "40"  # a changed schema is a new one
    with pytest.raises(ToolDefinitionError, match="not a valid JSON Schema"):
        canonical(changed)
    assert len(checked) == 3


def test_the_metaschema_memo_tells_a_tuple_and_another_mapping_from_json() -> None:
    """A tuple is written as a JSON array, but jsonschema does not count it as one: a schema whose
    `required` is a tuple is rejected, the same schema with a list accepted, in either order. A
    mapping that is not a dict is checked, not serialised (it was a TypeError, not a clear error)."""
    from types import MappingProxyType

    from strictconformance.tools.equivalence import input_schema_problem

    listed = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
    tupled = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ("a",)}
    for first, second in ((listed, tupled), (tupled, listed), (listed, tupled)):
        verdicts = {id(first): input_schema_problem(first), id(second): input_schema_problem(second)}
        assert verdicts[id(listed)] is None
        assert "is not of type 'array'" in str(verdicts[id(tupled)])
    assert canonical(listed)["required"] == ["a"]
    with pytest.raises(ToolDefinitionError, match="is not of type 'array'"):
        canonical(tupled)
    proxy = MappingProxyType({"type": "object"})
    assert "not a valid JSON Schema" in str(input_schema_problem(proxy))
    with pytest.raises(ToolDefinitionError, match="not a valid JSON Schema"):
        canonical(proxy)

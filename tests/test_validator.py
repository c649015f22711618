"""The SM validator: every rule caught on its known-bad schema, and only that rule; no false alarm
on schemas inside the strict subset; clear errors on input that is not a schema."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings

from strictconformance.dialects import SHIPPED, SchemaError, validate_strict
from strictconformance.dialects.known_bad import known_bad_cases
from strictconformance.strategies.schemas import strict_schemas

CASES = known_bad_cases()


@pytest.mark.parametrize("case", CASES, ids=[c.rule_id for c in CASES])
def test_known_bad_schema_breaks_exactly_its_rule(case) -> None:  # type: ignore[no-untyped-def]
    violations = validate_strict(case.schema, case.dialect)
    assert {v.rule_id for v in violations} == {case.rule_id}, [str(v) for v in violations]
    assert case.pointer in {v.pointer for v in violations}
    assert all(v.check == SHIPPED[case.dialect].rule(case.rule_id).check for v in violations)


def test_every_rule_has_a_known_bad_case() -> None:
    assert {c.rule_id for c in CASES} == {r.id for d in SHIPPED.values() for r in d.rules}


def test_known_bad_cases_pass_where_the_rule_does_not_apply() -> None:
    for case in CASES:
        assert validate_strict(case.schema, "lenient") == []


def test_property_names_that_look_like_keywords_are_not_keywords() -> None:
    schema = {"type": "object", "additionalProperties": False, "required": ["not", "$ref", "if"],
              "properties": {"not": {"type": "string"}, "$ref": {"type": "string"}, "if": {"type": "string"}}}
    for name in ("openai", "openai@2025-01", "anthropic"):
        assert validate_strict(schema, name) == []


def test_depth_counts_data_edges_not_combinators() -> None:
    leaf = {"type": "string"}
    node = leaf
    for _ in range(5):  # five object levels, each behind an anyOf: depth 5, allowed by the catalogue
        node = {"anyOf": [{"type": "object", "properties": {"n": node}, "required": ["n"], "additionalProperties": False}, {"type": "null"}]}
    schema = node["anyOf"][0]
    assert validate_strict(schema, "openai@2025-01") == []
    deeper = {"type": "object", "properties": {"m": schema}, "required": ["m"], "additionalProperties": False}
    assert [v.rule_id for v in validate_strict(deeper, "openai@2025-01")] == ["SM-21"]


def test_very_deep_input_is_reported_not_crashed() -> None:
    node: dict = {"type": "string"}
    for _ in range(5000):
        node = {"type": "object", "properties": {"n": node}, "required": ["n"], "additionalProperties": False}
    violations = validate_strict(node, "openai")
    assert [v.rule_id for v in violations] == ["SM-21"]


@pytest.mark.parametrize("bad", [[], 3, "schema", None])
def test_input_that_is_not_a_schema_is_a_schema_error(bad: object) -> None:
    with pytest.raises(SchemaError, match="a schema is an object or a boolean"):
        validate_strict(bad, "openai")


def test_malformed_keywords_and_cycles_are_schema_errors() -> None:
    with pytest.raises(SchemaError, match="/properties"):
        validate_strict({"type": "object", "properties": ["a"]}, "openai")
    looped: dict = {"type": "object", "properties": {}}
    looped["properties"]["self"] = looped
    with pytest.raises(SchemaError, match="contains itself"):
        validate_strict(looped, "openai")


@pytest.mark.parametrize("dialect", sorted(SHIPPED))
def test_strict_schemas_of_a_dialect_raise_no_violation(dialect: str) -> None:
    @settings(max_examples=40, deadline=None, database=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
    @given(strict_schemas(dialect))
    def check(schema: dict) -> None:
        assert validate_strict(schema, dialect) == [], schema
    check()


@pytest.mark.parametrize("dialect", sorted(SHIPPED))
def test_names_that_are_not_strings_are_schema_errors(dialect: str) -> None:
    # JSON object keys are strings: an int property or definition name is not a schema (it crashed SM-24's count)
    with pytest.raises(SchemaError, match="`properties` names must be strings") as caught:
        validate_strict({"type": "object", "properties": {1: {"type": "string"}}}, dialect)
    assert caught.value.pointer == "/properties"
    with pytest.raises(SchemaError, match="`\\$defs` names must be strings"):
        validate_strict({"type": "object", "$defs": {("a",): {}}}, dialect)


def test_property_ordering_entries_that_are_not_names_are_a_violation() -> None:
    base = {"type": "object", "properties": {"a": {"type": "string"}}}
    for ordering in ([{}], [["a"]], ["a", 1], "a"):
        violations = validate_strict({**base, "propertyOrdering": ordering}, "google")
        assert [(v.rule_id, v.pointer) for v in violations] == [("SM-42", "/propertyOrdering")], ordering
        assert "not a list of property names" in violations[0].message
    assert validate_strict({**base, "propertyOrdering": ["a"]}, "google") == []


def test_malformed_keyword_values_never_crash_a_check() -> None:
    # rules read keywords of any shape: a wrong one is reported or ignored, never a TypeError
    deep: list = []
    for _ in range(5000):
        deep = [deep]
    odd = {"type": "object", "properties": {"a": {"type": "array", "items": {}, "minItems": deep, "enum": [deep]}},
           "required": [{}, "a"], "additionalProperties": {"type": "string", "format": deep}}
    for dialect in sorted(SHIPPED):
        assert all(isinstance(v.message, str) for v in validate_strict(odd, dialect))


@pytest.mark.parametrize("dialect", ["openai", "anthropic", "google"])
def test_a_reference_cycle_describing_no_value_is_an_sm_41_violation(dialect: str) -> None:
    base = {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"], "additionalProperties": False}
    cyclic = {**base, "$defs": {"A": {"$ref": "#/$defs/B"}, "B": {"allOf": [{"$ref": "#/$defs/A"}]}}}
    flagged = [v for v in validate_strict(cyclic, dialect) if v.rule_id == "SM-41"]
    assert {v.pointer for v in flagged} == {"/$defs/A/$ref", "/$defs/B/allOf/0/$ref"}
    assert "never reaches a schema" in flagged[0].message
    # recursion through a value describes trees: not this rule's business
    tree = {**base, "$defs": {"A": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/A"}}},
                                    "required": ["kids"], "additionalProperties": False}}}
    assert [v for v in validate_strict(tree, dialect) if v.rule_id == "SM-41"] == []


@pytest.mark.parametrize("dialect", ["openai", "anthropic", "google"])
def test_a_reference_naming_the_schema_by_its_id_is_inside_it(dialect: str) -> None:
    """Case ``ref-with-id-base``: ``$ref: "https://example.com/s.json#/$defs/A"`` under the root
    ``$id`` ``https://example.com/s.json`` (or written relative to it) is a reference inside the
    schema (JSON Schema 2020-12 Core §8.2.1). SM-41 called it external, a false alarm on
    pydantic-ai's Google transformer, which keeps ``$id`` and the reference as written; a reference
    into another document, or one that names nothing here, still breaks SM-41."""

    def sm_41(ref: str) -> list[str]:
        schema = {"$id": "https://example.com/s.json", "type": "object", "properties": {"a": {"$ref": ref}},
                  "required": ["a"], "additionalProperties": False, "$defs": {"A": {"type": "string"}}}
        return [v.message for v in validate_strict(schema, dialect) if v.rule_id == "SM-41"]

    assert sm_41("https://example.com/s.json#/$defs/A") == []
    assert sm_41("s.json#/$defs/A") == []
    assert sm_41("#/$defs/A") == []
    assert sm_41("https://example.com/other.json#/$defs/A") == ["external reference 'https://example.com/other.json#/$defs/A'"]
    assert sm_41("https://example.com/s.json#/$defs/B") == ["reference 'https://example.com/s.json#/$defs/B' does not resolve inside the schema"]


def test_an_older_drafts_plain_name_id_is_an_anchor_for_every_reader() -> None:
    """Corpus Github_easy/o35904 (draft 04): ``$ref: "#jumpDriveCapability"`` names the definition
    whose ``id`` is ``"#jumpDriveCapability"``. Judged in its own draft since older drafts get
    RT-4/RT-5, the oracle could not follow it to the definition, so the reference's loss reported
    there (``minimum`` stripped) explained nothing and the nightly run blamed RT-5 on it."""
    from strictconformance.dialects.pointers import resolve_local_reference

    schema = {"$schema": "http://json-schema.org/draft-04/schema#",
              "definitions": {"D": {"id": "#drive", "type": "object"}, "S": {"$id": "#seven", "type": "string"}}}
    assert resolve_local_reference(schema, "#drive") == ("/definitions/D", schema["definitions"]["D"])
    assert resolve_local_reference(schema, "#seven") == ("/definitions/S", schema["definitions"]["S"])
    assert resolve_local_reference(schema, "#nothing") is None
    # under 2020-12 (no older $schema) `id` is no keyword and a `$id` holds no fragment: no anchor
    newer = {k: v for k, v in schema.items() if k != "$schema"}
    assert resolve_local_reference(newer, "#drive") is None and resolve_local_reference(newer, "#seven") is None

"""The oracles of RT-8 (a witness built constructively), RT-9 (annotations survive) and RT-2's
aliasing part (issue 10, item 6), on hand-written schemas; and the reference fixes they led to.

That each rule fails on its broken adapter, alone among the RT rules, is
tests/test_broken_strict_suite.py's (BROKEN and MORE_BROKEN list the adapters).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from strictconformance.dialects import SHIPPED, Loss, Strictified
from strictconformance.dialects.aliasing import first_shared_node
from strictconformance.dialects.annotations import annotations_of, check_rt9_annotations_survive
from strictconformance.dialects.oracles import check_rt2_pure
from strictconformance.dialects.witness import (
    Undecided,
    Unsatisfiable,
    Witness,
    check_rt8_satisfiable,
    witness_of,
)
from strictconformance.reference.strictify import reference_strictify, strictify


def _object(properties: dict[str, Any], required: list[str] | None = None, **more: Any) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties) if required is None else required,
            "additionalProperties": False, **more}


# -- RT-8: the witness -------------------------------------------------------------------------------


@pytest.mark.parametrize("schema", [
    _object({"a": {"type": "string", "minLength": 2, "maxLength": 4}, "b": {"type": "integer", "exclusiveMinimum": 3, "maximum": 9,
                                                                                "multipleOf": 2}}),
    _object({"e": {"type": "string", "enum": ["x", "y"]}, "c": {"const": 5}, "n": {"type": ["number", "null"]}}),
    _object({"l": {"type": "array", "items": {"type": "string", "pattern": "^[A-Z]{3}-\\d+$"}, "minItems": 2}}),
    _object({"u": {"anyOf": [{"type": "object", "properties": {"x": False}, "required": ["x"]}, {"type": "boolean"}]}}),
    # recursion with its exits: an optional property, a nullable branch, an array of no items
    _object({"root": {"$ref": "#/$defs/Node"}}, **{"$defs": {"Node": _object({"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}},
                                                                              "next": {"anyOf": [{"$ref": "#/$defs/Node"}, {"type": "null"}]},
                                                                              "opt": {"$ref": "#/$defs/Node"}}, ["kids", "next"])}}),
    _object({"r": {"type": "object", "minProperties": 2, "additionalProperties": {"type": "integer"}}}, additionalProperties=False),
])
def test_a_witness_is_built_and_accepted(schema: dict[str, Any]) -> None:
    assert isinstance(witness_of(schema), Witness), witness_of(schema)


@pytest.mark.parametrize(("schema", "says"), [
    (_object({"a": False}), "`false`"),
    (_object({"a": {"not": {}}}), "`not`"),
    (_object({"a": {"type": "string", "enum": []}}), "`enum` is empty"),
    (_object({"a": {"type": "integer", "minimum": 2, "maximum": 1}}), "over its upper bound"),
    (_object({"a": {"type": "integer", "minimum": 1.2, "maximum": 1.8}}), "no integer"),
    (_object({"a": {"type": "array", "items": {"type": "string"}, "minItems": 3, "maxItems": 1}}), "minItems 3"),
    (_object({}, ["ghost"]), "not among the properties"),
    (_object({"a": {"anyOf": [{"type": "string", "maxLength": 0, "minLength": 1}, {"enum": []}]}}), "no branch"),
    (_object({"root": {"$ref": "#/$defs/Node"}}, **{"$defs": {"Node": _object({"next": {"$ref": "#/$defs/Node"}})}}), "recursion"),
    # a real schema's property (corpus o30959): string names under type object, then made required
    (_object({"a": {"type": "object", "enum": ["ALL", "RSA-MD5"]}}), "no `enum` value is of the declared `type`"),
    (_object({"a": {"type": ["integer", "null"], "enum": ["1", 2.5]}}), "no `enum` value is of the declared `type`"),
    (_object({"a": {"type": "string", "const": 1}}), "`const` is not of the declared `type`"),
])
def test_an_empty_schema_is_proven_empty(schema: dict[str, Any], says: str) -> None:
    verdict = witness_of(schema)
    assert isinstance(verdict, Unsatisfiable) and says in verdict.reason, verdict


@pytest.mark.parametrize("schema", [
    {"type": "integer", "enum": [1.0]},  # an integral float is an integer
    {"type": ["string", "null"], "enum": [None]},
    {"type": "number", "const": 3},
    {"enum": ["no type", 1]},
])
def test_an_enum_or_const_of_the_declared_type_is_a_witness(schema: dict[str, Any]) -> None:
    assert isinstance(witness_of(schema), Witness), witness_of(schema)


def test_no_proof_where_the_constructor_cannot_decide() -> None:
    # a lookahead it cannot write a match for: no witness, and no claim that there is none
    assert isinstance(witness_of(_object({"a": {"type": "string", "pattern": "^(?=.*x)(?=.*y)"}})), Undecided)


def test_rt_8_fails_only_a_proven_empty_strict_schema_of_a_satisfiable_original() -> None:
    original = _object({"a": {"type": "integer"}})
    empty = _object({"a": {"type": "integer", "minimum": 2, "maximum": 1}})
    finding = check_rt8_satisfiable(original, empty)
    assert finding is not None and finding.rule == "RT-8" and finding.where == "/properties/a"
    assert "lower bound over its upper bound" in finding.key
    assert check_rt8_satisfiable(original, original) is None
    assert check_rt8_satisfiable(_object({"a": False}), empty) is None  # the original has no value either


def test_rt_8_counts_only_values_a_reported_root_narrowing_keeps() -> None:
    # an untyped root whose object values recurse forever: only non-objects satisfy it; narrowed
    # (reported) to an object, there is nothing left to keep
    original = {"properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"],
                "$defs": {"A": {"type": "object", "properties": {"a": {"$ref": "#/$defs/A"}}, "required": ["a"]}}}
    strict = reference_strictify(original, "openai")
    assert isinstance(witness_of(strict.schema), Unsatisfiable)
    assert check_rt8_satisfiable(original, strict.schema, None, losses=strict.losses) is None
    assert check_rt8_satisfiable(original, strict.schema, None) is not None  # the narrowing is what excuses it


# -- RT-9: annotations ---------------------------------------------------------------------------------


_ANNOTATED = {"type": "object", "description": "root", "properties": {
    "a": {"type": "object", "title": "A", "properties": {"b": {"type": "string", "description": "the b"}}},
    "c": {"$ref": "#/$defs/C", "description": "the c"}},
    "$defs": {"C": {"type": "integer", "description": "a C"}, "Unused": {"type": "string", "description": "never used"}}}


def test_annotations_of_reachable_nodes_only() -> None:
    assert {(a.pointer, a.text) for a in annotations_of(_ANNOTATED)} == {
        ("", "root"), ("/properties/a", "A"), ("/properties/a/properties/b", "the b"), ("/properties/c", "the c"), ("/$defs/C", "a C")}


def test_a_reference_to_the_root_reaches_no_definition() -> None:
    # `$ref: "#"` re-enters the root's own tree: an unused definition still annotates nothing
    schema = {"type": "object", "properties": {"parent": {"$ref": "#"}}, "$defs": {"D": {"type": "string", "description": "unused"}}}
    assert annotations_of(schema) == []


def test_annotations_kept_or_folded_into_an_ancestor_survive() -> None:
    folded = _object({"a": _object({"b": {"type": "string"}}, title="A"), "c": {"type": "integer", "description": "the c (a C)"}},
                     description="root. Also: the b")
    assert check_rt9_annotations_survive(_ANNOTATED, Strictified(folded)) is None


def test_a_dropped_or_misplaced_annotation_fails_unless_a_loss_explains_it() -> None:
    dropped = _object({"a": _object({"b": {"type": "string"}}, title="A"), "c": {"type": "integer", "description": "the c, a C"}},
                      description="root")
    finding = check_rt9_annotations_survive(_ANNOTATED, Strictified(dropped))
    assert finding is not None and finding.where == "/properties/a/properties/b" and "dropped" in finding.key
    # in another property's description: not its node, nor an ancestor
    misplaced = copy.deepcopy(dropped)
    misplaced["properties"]["c"]["description"] += " / the b"
    finding = check_rt9_annotations_survive(_ANNOTATED, Strictified(misplaced))
    assert finding is not None and "moved elsewhere" in finding.key
    for loss in (Loss("/properties/a/properties/b", "annotation-dropped", "description", "cut"),
                 Loss("/properties/a", "truncated", "properties", "travels as JSON text"),
                 Loss("/properties/a", "keyword-stripped", "properties", "stripped")):
        assert check_rt9_annotations_survive(_ANNOTATED, Strictified(dropped, (loss,))) is None, loss
    # a loss elsewhere, or one that changes values, explains nothing here
    for loss in (Loss("/properties/c", "annotation-dropped", "description", "cut"), Loss("/properties/a", "loosened", "properties", "x")):
        assert check_rt9_annotations_survive(_ANNOTATED, Strictified(dropped, (loss,))) is not None, loss


@pytest.mark.parametrize("dialect", sorted(SHIPPED))
def test_the_reference_keeps_or_folds_a_description_beside_a_reference(dialect: str) -> None:
    schema = {"type": "object", "properties": {"c": {"$ref": "#/$defs/C", "description": "the c", "title": "C here"}}, "required": ["c"],
              "$defs": {"C": {"type": "integer", "description": "a C", "title": "C"}}}
    assert check_rt9_annotations_survive(schema, reference_strictify(schema, dialect)) is None


@pytest.mark.parametrize("dialect", sorted(SHIPPED))
def test_definitions_beside_a_reference_do_not_cost_its_description(dialect: str) -> None:
    # the quick start's dev run found it: `$defs` beside the root `$ref` sent the reference through
    # an allOf merge that kept the target's description and silently dropped the reference's own
    schema = {"$ref": "#/$defs/D", "description": "a reference with siblings",
              "$defs": {"D": {"type": "object", "properties": {"id": {"type": "string"}}, "required": ["id"],
                              "additionalProperties": False, "description": "what this value means"}}}
    assert check_rt9_annotations_survive(schema, reference_strictify(schema, dialect)) is None



def test_a_record_value_description_in_its_pairs_survives_beside_a_property_named_value() -> None:
    # the quick start's dev run: a record's values become `items/properties/value`, and the original
    # also had a property named "value", so the pairs' name read as another branch (a false alarm)
    record = {"type": "object", "additionalProperties": {"type": "integer", "description": "the count"}}
    schema = {"type": "object", "properties": {"tags": record, "value": {"type": "string"}}, "required": ["tags", "value"]}
    for dialect in ("anthropic", "cohere"):
        assert check_rt9_annotations_survive(schema, reference_strictify(schema, dialect)) is None, dialect
    # the property of the original named "value" is still a branch of its own
    strict = _object({"tags": {"type": "array", "items": _object({"key": {"type": "string"}, "value": {"type": "integer"}})},
                      "value": {"type": "string", "description": "the count"}})
    assert check_rt9_annotations_survive(schema, Strictified(strict)) is not None

# -- RT-2: aliasing ------------------------------------------------------------------------------------


def test_first_shared_node_finds_input_sharing_self_sharing_and_cycles() -> None:
    enum = ["a", "b"]
    given = {"type": "string", "enum": enum}
    assert first_shared_node({"properties": {"x": {"enum": enum}}}, {"input": given}) == ("/properties/x/enum", "input at /enum")
    twice = {"type": "string"}
    assert first_shared_node({"properties": {"x": twice, "y": twice}}) == ("/properties/y", "the output itself at /properties/x")
    assert first_shared_node({"properties": {"x": {"enum": ["a"]}, "y": {"enum": ["a"]}}}, {"input": given}) is None  # equal is fine


def test_rt_2_reports_a_strictify_that_returns_its_cached_output() -> None:
    cache: dict[str, Any] = {}

    def cached(schema: dict[str, Any]) -> Strictified:
        return cache.setdefault("s", reference_strictify(schema, "openai"))
    finding = check_rt2_pure(_object({"a": {"type": "string"}}), cached)
    assert finding is not None and "between calls" in finding.key


@pytest.mark.parametrize("dialect", sorted(SHIPPED))
def test_the_reference_output_is_a_tree_of_its_own(dialect: str) -> None:
    # required lists and unrolled definitions were shared within the output; the memo returned the same dict twice
    schema = {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}, "enum": {"enum": ["a", "b"]}}, "required": ["root"],
              "$defs": {"Node": {"type": "object", "properties": {"kids": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
                                 "required": ["kids"]}}}
    given = copy.deepcopy(schema)
    first, second = reference_strictify(given, dialect), reference_strictify(given, dialect)
    assert first_shared_node(first.schema, {"input": given, "earlier": second.schema}) is None
    assert first_shared_node(strictify(given, dialect).schema, {"input": given}) is None


def test_rt9_a_definition_reached_only_through_a_dropped_subtree_loses_its_annotations_with_it() -> None:
    """A false alarm on the reference under the nightly profile: the only way into /$defs/Def0 is
    an additionalProperties the closing of the object drops (a narrowed loss at the root)."""
    from strictconformance.dialects.annotations import check_rt9_annotations_survive
    from strictconformance.dialects.model import Loss, Strictified

    original = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"],
                "additionalProperties": {"$ref": "#/$defs/Def0"},
                "$defs": {"Def0": {"type": "string", "description": "deep note"}}}
    closed = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}
    narrowed = Loss("", "narrowed", "additionalProperties", "the object is closed")
    assert check_rt9_annotations_survive(original, Strictified(closed, (narrowed,))) is None
    for dialect in ("openai", "anthropic", "cohere"):
        result = strictify(original, dialect)
        assert check_rt9_annotations_survive(original, Strictified(result.schema, result.losses)) is None, dialect
    # reached through a kept property too: dropping its description is still a finding
    both = {**original, "properties": {"a": {"type": "string"}, "b": {"$ref": "#/$defs/Def0"}}, "required": ["a", "b"]}
    kept = {**closed, "properties": {"a": {"type": "string"}, "b": {"type": "string"}}, "required": ["a", "b"]}
    finding = check_rt9_annotations_survive(both, Strictified(kept, (narrowed,)))
    assert finding is not None and finding.where == "/$defs/Def0"
    # and without the loss, the dropped-path definition's annotation is a finding as before
    assert check_rt9_annotations_survive(original, Strictified(closed, ())) is not None

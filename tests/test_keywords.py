"""The keyword facts table (strictconformance.spec.keywords) against the official meta-schemas
shipped with jsonschema-specifications, and every walker of the kit reading it alike."""

from __future__ import annotations

import json
from importlib import resources
from typing import Any

import pytest

from strictconformance.spec import keywords as kw

_FOLDERS = {"draft-04": "draft4", "draft-06": "draft6", "draft-07": "draft7", "2019-09": "draft201909", "2020-12": "draft202012"}
#: Keywords a draft defines that its shipped meta-schema does not list, and why.
_NOT_IN_METASCHEMA = {
    "draft-04": {"$ref"},  # a JSON Reference (draft-04 core §7), not a meta-schema property
    "draft-07": {"writeOnly"},  # in draft-07 validation §10.3; the published meta-schema lists only readOnly
}


def _metaschemas(draft: kw.Draft) -> list[dict[str, Any]]:
    """The draft's meta-schema and, from 2019-09 on, its vocabulary meta-schemas."""
    folder = resources.files("jsonschema_specifications") / "schemas" / _FOLDERS[draft]
    found = [json.loads((folder / "metaschema.json").read_text("utf-8"))]
    vocabularies = folder / "vocabularies"
    if vocabularies.is_dir():
        found += [json.loads(entry.read_text("utf-8")) for entry in vocabularies.iterdir() if entry.is_file()]
    return found


def _properties(draft: kw.Draft) -> dict[str, Any]:
    merged: dict[str, Any] = {}
    for document in _metaschemas(draft):
        merged.update(document.get("properties", {}))
    return merged


_SCHEMA_REFS = ({"$dynamicRef": "#meta"}, {"$recursiveRef": "#"}, {"$ref": "#"})
_DRAFT4_BOOLEAN_OR_SCHEMA = {"anyOf": [{"type": "boolean"}, {"$ref": "#"}]}


def _is_schema(node: Any) -> bool:
    return node in _SCHEMA_REFS


def _is_schema_array(node: Any) -> bool:
    return isinstance(node, dict) and node.get("$ref") in ("#/$defs/schemaArray", "#/definitions/schemaArray")


def _is_string_array(node: Any) -> bool:
    return isinstance(node, dict) and str(node.get("$ref", "")).endswith("stringArray")


def _derived(definition: Any) -> tuple[frozenset[str], bool, bool] | None:
    """What a meta-schema property says its keyword holds: (forms, map members may be string
    arrays, draft-04 boolean form), or None when it holds no subschema."""
    if _is_schema(definition):
        return frozenset({"schema"}), False, False
    if definition == _DRAFT4_BOOLEAN_OR_SCHEMA or (
            isinstance(definition, dict) and definition.get("anyOf") == _DRAFT4_BOOLEAN_OR_SCHEMA["anyOf"]):
        return frozenset({"schema"}), False, True
    if _is_schema_array(definition):
        return frozenset({"schema-array"}), False, False
    if not isinstance(definition, dict):
        return None
    branches = definition.get("anyOf")
    if isinstance(branches, list) and len(branches) == 2 and _is_schema(branches[0]) and _is_schema_array(branches[1]):
        return frozenset({"schema", "schema-array"}), False, False
    members = definition.get("additionalProperties")
    if definition.get("type") == "object" and members is not None:
        if _is_schema(members):
            return frozenset({"schema-map"}), False, False
        alternatives = members.get("anyOf") if isinstance(members, dict) else None
        if (isinstance(alternatives, list) and len(alternatives) == 2 and _is_schema(alternatives[0])
                and _is_string_array(alternatives[1])):
            return frozenset({"schema-map"}), True, False
    return None


def _from_table(entry: kw.Subschema, draft: kw.Draft) -> tuple[frozenset[str], bool, bool]:
    forms = {entry.holds} | ({"schema-array"} if draft in entry.array_form else set())
    return frozenset(forms), entry.string_array_members, draft in entry.boolean_form


@pytest.mark.parametrize("draft", kw.DRAFTS)
def test_subschema_keywords_agree_with_the_metaschema(draft: kw.Draft) -> None:
    """Which keywords hold a schema, an array or a map of schemas, as the draft's meta-schema
    (2020-12: core, applicator, unevaluated, content vocabularies) declares their values."""
    derived = {keyword: shape for keyword, definition in _properties(draft).items()
               if (shape := _derived(definition)) is not None}
    table = {entry.keyword: _from_table(entry, draft) for entry in kw.SUBSCHEMAS.values() if draft in entry.drafts}
    assert derived == table


@pytest.mark.parametrize("draft", kw.DRAFTS)
def test_every_keyword_of_a_draft_is_in_the_table(draft: kw.Draft) -> None:
    listed = set(_properties(draft))
    assert kw.KEYWORDS[draft] - listed == _NOT_IN_METASCHEMA.get(draft, set())
    assert listed - kw.KEYWORDS[draft] == set()


def test_deprecated_keywords_are_those_the_2020_12_metaschema_marks() -> None:
    marked = {keyword for keyword, definition in _properties("2020-12").items()
              if isinstance(definition, dict) and definition.get("deprecated") is True}
    table = {entry.keyword for entry in kw.SUBSCHEMAS.values() if "2020-12" in entry.deprecated}
    assert table == marked & set(kw.SUBSCHEMAS)
    assert marked - table == {"$recursiveRef", "$recursiveAnchor"}  # references, no subschemas


def test_annotations_are_the_meta_data_vocabulary() -> None:
    vocabulary = next(document for document in _metaschemas("2020-12") if document.get("$id", "").endswith("/meta/meta-data"))
    assert set(vocabulary["properties"]) == kw.ANNOTATION_KEYWORDS


def test_applicator_classes() -> None:
    """In place vs child, as JSON Schema 2020-12 Core §10.2 / §10.3 list them (with the older
    drafts' keywords in the class of their 2020-12 successor)."""
    classes = {"in place": kw.IN_PLACE_APPLICATORS, "child": kw.CHILD_APPLICATORS, "definitions": kw.DEFINITION_KEYWORDS,
               "combinators": kw.COMBINATORS, "older drafts": kw.OLD_DRAFT_SUBSCHEMA_KEYWORDS}
    assert classes == {
        "in place": {"allOf", "anyOf", "oneOf", "not", "if", "then", "else", "dependentSchemas", "dependencies"},
        "child": {"prefixItems", "items", "contains", "properties", "patternProperties", "additionalProperties",
                  "propertyNames", "unevaluatedItems", "unevaluatedProperties", "additionalItems"},
        "definitions": {"$defs", "definitions"},
        "combinators": {"allOf", "anyOf", "oneOf"},
        "older drafts": {"additionalItems", "dependencies"},
    }
    assert kw.holds("items", [{}]) == "schema-array" and kw.holds("items", {}) == "schema"
    assert kw.holds("prefixItems", [{}]) == "schema-array" and kw.holds("type", "string") is None

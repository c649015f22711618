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


# --- every walker of the kit reads the table alike ---------------------------------------------

def _leaf() -> dict[str, Any]:
    return {"type": "object", "properties": {"o": {"type": "string"}}}  # one optional parameter


def _every_subschema_position(draft: kw.Draft) -> tuple[dict[str, Any], set[str]]:
    """A schema with a leaf under every subschema keyword of ``draft`` (2020-12: the current ones;
    draft-07: the ones 2020-12 dropped, and array ``items``), and the leaves' pointers."""
    schema: dict[str, Any] = {"type": "object", "properties": {}, "required": []}
    pointers: set[str] = set()
    for entry in kw.SUBSCHEMAS.values():
        if draft == "2020-12" and ("2020-12" not in entry.drafts or "2020-12" in entry.deprecated):
            continue
        if draft == "draft-07" and not (entry.keyword in kw.OLD_DRAFT_SUBSCHEMA_KEYWORDS | {"definitions"} or entry.array_form):
            continue
        holds = "schema-array" if draft in entry.array_form else entry.holds
        if holds == "schema":
            schema[entry.keyword] = _leaf()
            pointers.add(f"/{entry.keyword}")
        elif holds == "schema-array":
            schema[entry.keyword] = [_leaf()]
            pointers.add(f"/{entry.keyword}/0")
        else:
            schema[entry.keyword] = {**schema.get(entry.keyword, {}), "n": _leaf()}
            pointers.add(f"/{entry.keyword}/n")
            if entry.string_array_members:
                schema[entry.keyword]["m"] = ["n"]  # property names, not a schema
    schema["required"] = ["n"] if "n" in schema["properties"] else []
    return schema, pointers


def _schema_walk_pointers(schema: Any, at: str = "") -> set[str]:
    from strictconformance.dialects.pointers import join_pointer
    from strictconformance.tools.schema_walk import iter_subschemas

    found: set[str] = set()
    for sub in iter_subschemas(schema):
        pointer = join_pointer(at, *sub.path)
        found.add(pointer)
        if isinstance(sub.schema, dict):
            found |= _schema_walk_pointers(sub.schema, pointer)
    return found


@pytest.mark.parametrize("draft", ["2020-12", "draft-07"])
def test_every_walker_reaches_the_subschemas_the_table_names(draft: kw.Draft) -> None:
    """The validator, strictify's input walk, the tool layer's walker and the budget counter
    reach every subschema the table names, except where a walker leaves a keyword out on purpose
    (none walks the annotation ``contentSchema`` but the tool layer's copier; strictify keeps
    draft-07 ``dependencies`` whole)."""
    from strictconformance.dialects.validator import iter_schema_nodes
    from strictconformance.reference.strictify._input import _walk
    from strictconformance.spec.resolution import schema_cost

    schema, leaves = _every_subschema_position(draft)
    everything = leaves | {leaf + "/properties/o" for leaf in leaves}  # each leaf's own property
    annotation = {p for p in everything if p.startswith("/contentSchema")}
    dependencies = {p for p in everything if p.startswith("/dependencies")}
    assert {node.pointer for node in iter_schema_nodes(schema)} - {""} == everything - annotation
    assert _schema_walk_pointers(schema) == everything
    assert {pointer for pointer, _ in _walk(schema)} - {""} == everything - annotation - dependencies
    assert schema_cost(schema).optional_params == len(leaves - annotation)


_LOOP_THROUGH_DEPENDENT_SCHEMAS = {
    "type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": False,
    "$ref": "#/$defs/A", "$defs": {"A": {"dependentSchemas": {"x": {"$ref": "#/$defs/A"}}}},
}


def test_a_ref_loop_through_dependent_schemas_is_a_cycle_for_every_walker() -> None:
    """``dependentSchemas`` applies to the same object, so ``A = {dependentSchemas: {x: A}}`` never
    ends on an object with ``x``. The tool layer rejected it; the validator (SM-41) and strictify,
    which called ``dependentSchemas`` a value edge, let it through (strictify's lenient output kept
    the loop, and jsonschema recursed until RecursionError on ``{"x": "a"}``)."""
    from strictconformance.dialects.model import SchemaError
    from strictconformance.dialects.validator import validate_strict
    from strictconformance.reference.strictify import strictify
    from strictconformance.tools.canonical import canonical_input_schema
    from strictconformance.tools.errors import ToolDefinitionError

    with pytest.raises(ToolDefinitionError, match="never descends"):
        canonical_input_schema(_LOOP_THROUGH_DEPENDENT_SCHEMAS)
    found = [(v.rule_id, v.pointer) for v in validate_strict(_LOOP_THROUGH_DEPENDENT_SCHEMAS, "google")]
    assert ("SM-41", "/$defs/A/dependentSchemas/x/$ref") in found
    with pytest.raises(SchemaError, match="cyclic definition"):
        strictify(_LOOP_THROUGH_DEPENDENT_SCHEMAS, "lenient")


def test_a_ref_loop_through_a_child_applicator_is_recursion_for_every_walker() -> None:
    """The counterpart: through ``properties`` the loop consumes the value, and all accept it."""
    from strictconformance.dialects.validator import validate_strict
    from strictconformance.reference.strictify import strictify
    from strictconformance.tools.canonical import canonical_input_schema

    schema = {"$ref": "#/$defs/A", "$defs": {"A": {"type": "object", "properties": {"x": {"$ref": "#/$defs/A"}}}}}
    canonical_input_schema(schema)
    assert "SM-41" not in {v.rule_id for v in validate_strict(schema, "google")}
    assert strictify(schema, "lenient").schema == schema

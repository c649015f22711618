"""Dialects as data: the shipped dialects, their rules and sources, the explicit registry."""

from __future__ import annotations

import dataclasses

import pytest

from strictconformance.dialects import (
    CATALOGUE,
    LENIENT,
    OPENAI,
    SHIPPED,
    Dialect,
    DialectRegistry,
    StrictRule,
    ValueEncoding,
    get_dialect,
    register_dialect,
    validate_strict,
)
from strictconformance.dialects.catalogue import rule
from strictconformance.spec import all_rules

# The catalogue of seeds/003_44ca71bf0217c3d9.txt, copied by hand: IDs and check names must stay.
SEED_003 = {
    "SM-01": "RootNotObject", "SM-02": "MissingType", "SM-03": "MissingAdditionalProperties",
    "SM-04": "MissingItems", "SM-05": "BannedPatternProperties", "SM-06": "BannedSchemaRef",
    "SM-07": "BannedAnchor", "SM-08": "BannedDynamicRef", "SM-09": "BannedDynamicAnchor",
    "SM-10": "BannedDependentSchemas", "SM-11": "BannedDependentRequired",
    "SM-12": "BannedUnevaluatedProperties", "SM-13": "BannedUnevaluatedItems", "SM-14": "BannedContains",
    "SM-15": "BannedMinContains", "SM-16": "BannedMaxContains", "SM-17": "BannedIf", "SM-18": "BannedThen",
    "SM-19": "BannedElse", "SM-20": "BannedNot", "SM-21": "DepthExceeded",
}


def test_shipped_dialects_are_the_five_of_the_spec_plus_cohere_mistral_and_gemini_schema_mode() -> None:
    assert set(SHIPPED) == {"openai", "openai@2025-01", "anthropic", "google", "cohere", "mistral", "lenient", "google-schema"}


def test_dated_openai_reproduces_the_catalogue_exactly() -> None:
    dated = get_dialect("openai@2025-01")
    assert {r.id: r.check for r in dated.rules} == SEED_003
    assert dated.rule("SM-21").params["limit"] == 5
    assert "published OpenAI strict-mode rules reference" in dated.rule("SM-06").source


def test_current_openai_follows_the_documentation_and_records_the_disagreement() -> None:
    assert OPENAI.rule("SM-21").params["limit"] == 10
    assert OPENAI.rule("SM-22").params["limit"] == 5000
    assert "SM-06" not in OPENAI.rule_ids
    assert any("SM-06" in note for note in OPENAI.notes)
    assert {"SM-26", "SM-27", "SM-28"} <= set(OPENAI.rule_ids)  # no allOf / oneOf / prefixItems
    assert OPENAI.rule("SM-21").note  # how levels are counted is ambiguous: recorded


def test_every_rule_has_id_check_source_and_reason() -> None:
    for dialect in SHIPPED.values():
        for strict_rule in dialect.rules:
            assert strict_rule.check
            assert strict_rule.reason
            assert strict_rule.title
            assert strict_rule.source.startswith(("https://", "strictconformance/spec/SPEC.md"))
            assert CATALOGUE[strict_rule.id].check == strict_rule.check


def test_every_catalogue_rule_is_used_and_is_a_spec_rule() -> None:
    used = {r.id for dialect in SHIPPED.values() for r in dialect.rules}
    assert used == set(CATALOGUE)
    rules = all_rules()
    for rule_id in CATALOGUE:
        assert rules[rule_id].capabilities == ("strictify",)
    assert [rules[f"RT-{n}"].capabilities for n in range(1, 8)] == [
        ("strictify",), ("strictify",), ("strictify",), ("encode", "decode"), ("decode",), ("encode",), ("decode",)]


def test_dialect_families_differ_as_the_spec_says() -> None:
    anthropic, google = get_dialect("anthropic"), get_dialect("google")
    assert anthropic.encoding.optional == "optional"
    assert OPENAI.encoding.optional == "required_nullable"
    assert "SM-34" in anthropic.rule_ids
    assert anthropic.budgets["strict_tools"] == 20
    assert google.encoding.tuples == "native"
    assert google.encoding.property_ordering
    assert google.rule("SM-31").params["formats"] == ("date-time", "date", "time")
    assert LENIENT.rules == ()
    assert LENIENT.encoding == ValueEncoding()


def test_registering_returns_a_new_registry_and_changes_nothing_else() -> None:
    custom = dataclasses.replace(OPENAI, name="acme", rules=(rule("SM-01"), rule("SM-21", limit=2)))
    registry = register_dialect(custom)
    assert get_dialect("acme", registry) is custom
    assert "acme" not in SHIPPED
    assert "acme" not in DialectRegistry()
    with pytest.raises(KeyError, match="unknown dialect 'acme'"):
        get_dialect("acme")
    deep = {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "object", "properties": {"c": {"type": "string"}}}}}}}
    assert [v.rule_id for v in validate_strict(deep, registry["acme"])] == ["SM-21"]


def test_registration_refuses_duplicates_unless_replacing() -> None:
    registry = register_dialect(dataclasses.replace(LENIENT, name="mine"))
    with pytest.raises(ValueError, match="already registered"):
        registry.with_dialect(dataclasses.replace(LENIENT, name="mine"))
    replaced = registry.with_dialect(dataclasses.replace(LENIENT, name="mine", description="v2"), replace=True)
    assert replaced["mine"].description == "v2"
    with pytest.raises(TypeError):
        registry.with_dialect("openai")  # type: ignore[arg-type]


def test_bad_rule_data_is_refused_when_defined() -> None:
    with pytest.raises(ValueError, match="unknown kind"):
        StrictRule("SM-99", "X", "no_such_kind", "t", "r", "s")
    with pytest.raises(ValueError, match="lacks parameters"):
        StrictRule("SM-99", "X", "max_depth", "t", "r", "s")
    with pytest.raises(ValueError, match="twice"):
        Dialect("dup", "d", (rule("SM-01"), rule("SM-01")), ValueEncoding())


def _object(**properties: object) -> dict:
    return {"type": "object", "properties": properties, "required": list(properties)}


def test_google_flags_what_its_schema_reference_says_it_lacks_and_strictify_agrees() -> None:
    """provider_limits.md (Gemini `Schema`): "No allOf, oneOf, not, const, prefixItems, uniqueItems,
    exclusive bounds" (JSON-Schema mode adds prefixItems); min/max properties are in the Schema."""
    from strictconformance.reference.strictify import strictify

    google = get_dialect("google")
    lacking = {"SM-44": {"const": "x"}, "SM-45": {"type": "integer", "exclusiveMinimum": 0}, "SM-32": {"type": "array", "items": {"type": "string"}, "uniqueItems": True}}
    for rule_id, node in lacking.items():
        assert [v.rule_id for v in validate_strict(_object(a=node), google)] == [rule_id]
        assert google.rule(rule_id).source == "https://ai.google.dev/api/caching#Schema"
        strict = strictify(_object(a=node), google)
        assert validate_strict(strict.schema, google) == []
        assert {loss.kind for loss in strict.losses} <= {"keyword-stripped"}  # const becomes a one-value enum: no loss
    # multipleOf: the documentation is silent, so no rule flags it (strictify drops it, reporting the loss); noted
    assert validate_strict(_object(a={"type": "integer", "multipleOf": 2}), google) == []
    assert any("multipleOf" in note for note in google.notes)
    # minProperties/maxProperties are in the Schema: kept, no loss
    sized = strictify(_object(a={"type": "object", "properties": {"b": {"type": "string"}}, "minProperties": 1, "maxProperties": 1}), google)
    assert sized.schema["properties"]["a"]["minProperties"] == 1 and sized.losses == ()


def test_google_property_ordering_is_checked_where_present_and_emitted_by_strictify() -> None:
    from strictconformance.reference.strictify import strictify

    google = get_dialect("google")
    # JSON-Schema mode orders output by the schema's keys: no propertyOrdering is fine (documented on SM-42)
    assert validate_strict(_object(a={"type": "string"}, b={"type": "string"}), google) == []
    assert "implicit key ordering" in google.rule("SM-42").note
    strict = strictify(_object(a={"type": "string"}, b=_object(c={"type": "string"}, d={"type": "string"})), google).schema
    assert strict["propertyOrdering"] == ["a", "b"] and strict["properties"]["b"]["propertyOrdering"] == ["c", "d"]


@pytest.mark.parametrize("dialect", ["google", "openai"])
def test_recursion_through_the_root_stays_ref_hash(dialect: str) -> None:
    """SPEC §3 (google: recursion through `$ref: "#"`); provider_limits.md (OpenAI: `"$ref": "#"` for the root)."""
    import json

    from strictconformance.reference.strictify import strictify

    tree = {"type": "object", "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#"}}},
            "required": ["name", "children"], "additionalProperties": False}
    result = strictify(tree, dialect)
    assert "$defs" not in result.schema  # the root is not copied into a definition
    assert '"$ref": "#"' in json.dumps(result.schema)
    assert validate_strict(result.schema, dialect) == []
    value = {"name": "a", "children": [{"name": "b", "children": []}]}
    assert result.codec.decode(result.codec.encode(value)) == value
    # a wrapped root (not an object) is moved to $defs: "#" is the wrapper now
    wrapped = strictify({"type": "array", "items": {"anyOf": [{"type": "string"}, {"$ref": "#"}]}}, dialect)
    assert wrapped.schema["properties"]["result"] == {"$ref": "#/$defs/root"}
    assert '"$ref": "#"' not in json.dumps(wrapped.schema)
    assert validate_strict(wrapped.schema, dialect) == []
    assert wrapped.codec.decode(wrapped.codec.encode(["x", ["y", []]])) == ["x", ["y", []]]


# -- cohere and mistral (issue 13): every rule from the provider's documentation, the silences noted ---------


_COHERE_BANS = {  # (node, the rule, where) per item of Cohere's "Unsupported schema features" list
    "allOf": ({"allOf": [{"type": "string"}]}, "SM-26", "/properties/a/allOf"),
    "oneOf": ({"oneOf": [{"type": "string"}]}, "SM-27", "/properties/a/oneOf"),
    "not": ({"type": "string", "not": {"const": "x"}}, "SM-20", "/properties/a/not"),
    "minimum": ({"type": "integer", "minimum": 1}, "SM-35", "/properties/a/minimum"),
    "maximum": ({"type": "number", "maximum": 1.5}, "SM-35", "/properties/a/maximum"),
    "minItems": ({"type": "array", "items": {"type": "string"}, "minItems": 1}, "SM-38", "/properties/a/minItems"),
    "maxItems": ({"type": "array", "items": {"type": "string"}, "maxItems": 3}, "SM-38", "/properties/a/maxItems"),
    "minLength": ({"type": "string", "minLength": 1}, "SM-36", "/properties/a/minLength"),
    "maxLength": ({"type": "string", "maxLength": 9}, "SM-36", "/properties/a/maxLength"),
    "lookahead": ({"type": "string", "pattern": "a(?=b)"}, "SM-43", "/properties/a/pattern"),
    "negative lookahead": ({"type": "string", "pattern": "a(?!b)"}, "SM-43", "/properties/a/pattern"),
    "format": ({"type": "string", "format": "email"}, "SM-31", "/properties/a/format"),
    "uniqueItems": ({"type": "array", "items": {"type": "string"}, "uniqueItems": True}, "SM-32", "/properties/a/uniqueItems"),
}


@pytest.mark.parametrize("feature", list(_COHERE_BANS))
def test_cohere_flags_each_documented_unsupported_feature_and_strictify_removes_it(feature: str) -> None:
    from strictconformance.reference.strictify import strictify

    node, rule_id, pointer = _COHERE_BANS[feature]
    schema = _object(a=node)
    assert [(v.rule_id, v.pointer) for v in validate_strict(schema, "cohere")] == [(rule_id, pointer)]
    assert get_dialect("cohere").rule(rule_id).source.startswith("https://docs.cohere.com/")
    strict = strictify(schema, "cohere")
    assert validate_strict(strict.schema, "cohere") == []
    assert strict.losses  # what was dropped is reported


def test_cohere_accepts_what_its_documentation_supports() -> None:
    supported = _object(
        a={"type": "string", "format": "date-time"}, b={"type": "string", "enum": ["x", "y"]}, c={"const": 3},
        d={"anyOf": [{"type": "string"}, {"type": "integer"}]}, e={"$ref": "#/$defs/E"},
        f={"type": "object", "additionalProperties": {"type": "integer"}}, g={"type": "string", "pattern": "[a-z]+"},
        h={"type": "array", "items": {"type": "array", "items": {"type": "number"}}},
        i={"type": "number", "exclusiveMinimum": 0, "multipleOf": 2},  # not named by Cohere: not flagged
    )
    supported["$defs"] = {"E": _object(x={"type": "boolean"})}
    assert validate_strict(supported, "cohere") == []
    assert validate_strict({"type": "array", "items": {"type": "string"}}, "cohere")[0].rule_id == "SM-01"


def test_cohere_and_mistral_say_where_their_documentation_is_silent_or_not_modelled() -> None:
    cohere, mistral = get_dialect("cohere"), get_dialect("mistral")
    assert any("at least one required" in note for note in cohere.notes)
    assert any("200 fields" in note for note in cohere.notes)
    assert any("^ and $" in note for note in cohere.notes)
    assert mistral.rule_ids == ("SM-01",) and any("silent" in note for note in mistral.notes)
    assert validate_strict({"type": "object", "properties": {"a": {"allOf": [{"type": "string"}]}}}, "mistral") == []
    assert validate_strict({"type": "string"}, "mistral")[0].rule_id == "SM-01"

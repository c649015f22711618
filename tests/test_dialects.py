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


def test_shipped_dialects_are_the_five_of_the_spec() -> None:
    assert set(SHIPPED) == {"openai", "openai@2025-01", "anthropic", "google", "lenient"}


def test_dated_openai_reproduces_the_catalogue_exactly() -> None:
    dated = get_dialect("openai@2025-01")
    assert {r.id: r.check for r in dated.rules} == SEED_003
    assert dated.rule("SM-21").params["limit"] == 5
    assert "seeds/003" in dated.rule("SM-06").source


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
            assert strict_rule.source.startswith(("https://", "seeds/", "SPEC.md"))
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

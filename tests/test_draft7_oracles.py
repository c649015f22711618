"""A schema that names an older draft is read in that draft by the round-trip oracles (a draft-07
``items`` list is a tuple, not a schema: read as 2020-12 it crashed RT-4/RT-5/RT-7 on every SDK that
returns a draft-07 schema), and the reference, which rewrites the older drafts' forms in 2020-12,
says so in the ``$schema`` it writes (its ``prefixItems`` under a draft-07 ``$schema`` read as "no
items at all")."""

from __future__ import annotations

from strictconformance.dialects.oracles import check_rt5_sound, schema_validator
from strictconformance.reference import ReferenceAdapter

DRAFT7 = {
    "$schema": "http://json-schema.org/draft-07/schema#",
    "type": "object",
    "properties": {"range": {"type": "array", "items": [{"type": "integer"}, {"type": "integer"}],
                             "additionalItems": False, "minItems": 2}},
    "required": ["range"],
}


def test_older_drafts_are_read_in_their_draft() -> None:
    validator = schema_validator(DRAFT7)
    assert validator.is_valid({"range": [1, 2]})
    assert not validator.is_valid({"range": [1, 2, 3]})
    assert schema_validator({"prefixItems": [{"type": "integer"}], "items": False}).is_valid([1])


def test_the_reference_writes_2020_12_where_it_rewrote_an_older_draft() -> None:
    adapter = ReferenceAdapter()
    for dialect in ("lenient", "mistral", "openai"):
        strict = adapter.strictify(DRAFT7, dialect)
        assert strict.schema.get("$schema", "https://json-schema.org/draft/2020-12/schema") == \
            "https://json-schema.org/draft/2020-12/schema", (dialect, strict.schema)
        wire = adapter.encode(DRAFT7, dialect, {"range": [3, 7]}) if hasattr(adapter, "encode") else {"range": [3, 7]}
        assert schema_validator(strict.schema).is_valid(wire), (dialect, strict.schema, wire)
        assert check_rt5_sound(DRAFT7, strict, lambda value, dialect=dialect: adapter.decode(DRAFT7, dialect, value), wire) is None


def test_values_of_a_draft7_tuple_are_drawn() -> None:
    """An SDK's strict schema may keep a draft-07 tuple (openai-python does): RT-5 draws values of
    it; the generators crashed on the `items` list and RT-5 blamed the SDK's schema."""
    import jsonschema
    from hypothesis import given, settings

    from strictconformance.strategies.instances import in_2020_12, instances

    plain = {"type": "object"}
    assert in_2020_12(plain) is plain

    @settings(max_examples=25, database=None)
    @given(instances(DRAFT7, engine="compiled"), instances(DRAFT7, engine="auto"))
    def drawn(compiled: object, auto: object) -> None:
        assert jsonschema.Draft7Validator(DRAFT7).is_valid(compiled), compiled
        assert jsonschema.Draft7Validator(DRAFT7).is_valid(auto), auto

    drawn()
    assert DRAFT7["properties"]["range"]["items"][0] == {"type": "integer"}  # the input is not changed


def test_values_are_drawn_through_a_reference_to_the_documents_own_id() -> None:
    """`$ref: "https://example.com/s.json#/$defs/A"` in the document whose `$id` is that URL is a
    local reference: the generators said "only local references resolve" and the check failed
    (case ref-with-id-base, on every SDK that keeps the reference)."""
    import jsonschema
    from hypothesis import given, settings

    from strictconformance.strategies.instances import instances

    schema = {"$id": "https://example.com/s.json", "type": "object",
              "properties": {"a": {"$ref": "https://example.com/s.json#/$defs/A"}, "b": {"$ref": "s.json#/$defs/A"}},
              "required": ["a", "b"], "additionalProperties": False, "$defs": {"A": {"type": "integer", "minimum": 3}}}

    @settings(max_examples=20, database=None)
    @given(instances(schema, engine="compiled"))
    def drawn(value: object) -> None:
        assert jsonschema.Draft202012Validator(schema).is_valid(value), value

    drawn()


def test_a_false_subschema_names_the_keyword_holding_it() -> None:
    """A value a ``false`` subschema rejects is keyed by the keyword that holds it: jsonschema's
    error names no validator there, and the key read "decoded value breaks `None`" (anthropic's
    transform_schema moving ``prefixItems: [false]`` into the description)."""
    from strictconformance.dialects.model import Strictified

    original = {"type": "object", "properties": {"t": {"type": "array", "prefixItems": [False]}}}
    strict = Strictified({"type": "object", "properties": {"t": {"type": "array"}}, "additionalProperties": False})
    finding = check_rt5_sound(original, strict, lambda value: value, {"t": [None]})
    assert finding is not None and finding.key == "RT-5 violation: decoded value breaks `prefixItems`", finding

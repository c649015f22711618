"""The reference strictify on explicit cases: the classic traps per dialect, its passes, its
losses, its errors on bad input, and the codec's edge cases."""

from __future__ import annotations

import contextlib
import copy
import json
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from strictconformance.dialects import SHIPPED, Loss, SchemaError, Strictified, validate_strict
from strictconformance.dialects.annotations import check_rt9_annotations_survive
from strictconformance.dialects.known_bad import KnownBad, known_bad_cases
from strictconformance.dialects.oracles import (
    check_rt1_obeys_rules,
    check_rt2_pure,
    check_rt3_idempotent,
    check_rt4_complete,
    check_rt5_sound,
    check_rt6_no_silent_collapse,
    check_rt7_decodes_wire,
    require,
)
from strictconformance.dialects.traps import traps
from strictconformance.reference.strictify import (
    MAX_NESTING,
    PASS_NAMES,
    CodecError,
    strictify,
)

DIALECTS = sorted(SHIPPED)
TRAPS = traps()


def _losses(schema: dict[str, Any], dialect: str) -> set[tuple[str, str]]:
    return {(loss.pointer, loss.kind) for loss in strictify(schema, dialect).losses}


SIZED_TRAPS = [(dialect, trap) for dialect in DIALECTS for trap in traps(SHIPPED[dialect])]


@pytest.mark.parametrize(("dialect", "trap"), SIZED_TRAPS, ids=[f"{t.name}-{d}" for d, t in SIZED_TRAPS])
def test_classic_trap_passes_every_round_trip_rule(trap, dialect: str) -> None:  # type: ignore[no-untyped-def]
    def bound(schema: dict[str, Any]) -> Any:
        return strictify(schema, dialect).as_strictified()

    require(check_rt1_obeys_rules(trap.schema, bound, dialect))
    require(check_rt2_pure(trap.schema, bound))
    require(check_rt3_idempotent(trap.schema, bound))
    result = strictify(trap.schema, dialect)
    for value in trap.values:
        require(check_rt4_complete(trap.schema, result.as_strictified(), result.codec.encode, result.codec.decode, value))
        require(check_rt6_no_silent_collapse(trap.schema, result.as_strictified(), result.codec.encode, value))
        require(check_rt7_decodes_wire(trap.schema, result.codec.decode, value, result.codec.encode(value), result.losses))


def test_pipeline_is_named_passes_in_order() -> None:
    assert PASS_NAMES[0] == "check_input"
    assert PASS_NAMES[-1] == "build_codec"
    for expected in ("resolve_references", "combine_all_of", "close_objects", "optional_to_nullable", "records_to_pairs",
                     "tuples_to_objects", "wrap_root", "strip_unsupported", "declare_types", "truncate_depth", "apply_limits"):
        assert expected in PASS_NAMES
    assert PASS_NAMES.index("records_to_pairs") < PASS_NAMES.index("truncate_depth")


def test_optional_becomes_required_nullable_and_null_means_absent() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string"}, "b": {"type": "integer"}}, "required": ["b"]}
    result = strictify(schema, "openai")
    assert result.schema["required"] == ["a", "b"]
    assert result.schema["properties"]["a"] == {"anyOf": [{"type": "string"}, {"type": "null"}]}
    assert result.codec.encode({"b": 1}) == {"a": None, "b": 1}
    assert result.codec.decode({"a": None, "b": 1}) == {"b": 1}


def test_optional_and_nullable_together_is_a_reported_collapse() -> None:
    schema = TRAPS[0].schema
    assert ("/properties/note", "absent-null-collapse") in _losses(schema, "openai")
    result = strictify(schema, "openai")
    assert result.codec.encode({"id": 1}) == result.codec.encode({"id": 1, "note": None})
    # anthropic keeps optional properties optional: nothing collapses
    assert not any(kind == "absent-null-collapse" for _, kind in _losses(schema, "anthropic"))


def test_allof_of_objects_merges_before_closing() -> None:
    result = strictify(TRAPS[1].schema, "openai")
    assert set(result.schema["properties"]) == {"a", "b"}
    assert result.schema["additionalProperties"] is False
    assert "allOf" not in json.dumps(result.schema)


def test_ref_siblings_apply_as_well_as_the_target() -> None:
    result = strictify(TRAPS[2].schema, "openai@2025-01")
    code = result.schema["properties"]["code"]
    assert code["pattern"] == "^[A-Z]+$"
    assert code["maxLength"] == 4


def test_recursion_is_kept_where_allowed_and_unrolled_with_a_loss_elsewhere() -> None:
    schema = TRAPS[3].schema
    kept = strictify(schema, "openai").schema
    assert "Tree" in kept["$defs"]
    assert "$ref" not in json.dumps(strictify(schema, "anthropic").schema)
    assert any(kind == "truncated" and pointer.startswith("/$defs/Tree") for pointer, kind in _losses(schema, "anthropic"))
    assert "$ref" not in json.dumps(strictify(schema, "openai@2025-01").schema)


def test_records_and_tuples_change_shape_on_the_wire() -> None:
    records = strictify(TRAPS[4].schema, "openai")
    assert records.codec.encode({"scores": {"x": 1}}) == {"scores": [{"key": "x", "value": 1}]}
    assert records.codec.decode({"scores": [{"key": "x", "value": 1}]}) == {"scores": {"x": 1}}
    tuples = strictify(TRAPS[5].schema, "openai")
    assert tuples.codec.encode({"point": [1, 2]}) == {"point": {"0": 1, "1": 2, "2": None}}
    assert tuples.codec.decode({"point": {"0": 1, "1": 2, "2": None}}) == {"point": [1, 2]}
    native = strictify(TRAPS[5].schema, "google")
    assert native.codec.encode({"point": [1, 2]}) == {"point": [1, 2]}


def test_non_object_roots_are_wrapped() -> None:
    result = strictify({"type": "array", "items": {"type": "string"}}, "openai")
    assert result.schema["required"] == ["result"]
    assert result.codec.encode(["a"]) == {"result": ["a"]}
    assert result.codec.decode({"result": ["a"]}) == ["a"]
    assert strictify({"type": "array", "items": {"type": "string"}}, "lenient").schema == {"type": "array", "items": {"type": "string"}}


def _named(name: str, dialect: str) -> Any:
    return next(trap for trap in traps(SHIPPED[dialect]) if trap.name == name)


@pytest.mark.parametrize(("dialect", "cut_at"), [("openai@2025-01", 5), ("openai", 10)])
def test_depth_limit_truncates_to_json_text_with_a_loss(dialect: str, cut_at: int) -> None:
    # the trap goes one level past each dialect's own limit, so the truncation codec is met in each
    deep = _named("deep-nesting", dialect)
    result = strictify(deep.schema, dialect)
    assert validate_strict(result.schema, dialect) == []
    assert [loss.kind for loss in result.losses].count("truncated") == 1
    wire = result.codec.encode(deep.values[0])
    inner = wire
    for level in range(1, cut_at):
        inner = inner[f"l{level}"]
    assert isinstance(inner[f"l{cut_at}"], str)  # below the limit: JSON text
    assert result.codec.decode(wire) == deep.values[0]


def test_string_size_limit_truncates_a_subtree_with_a_loss() -> None:
    trap = _named("string-size", "openai")
    result = strictify(trap.schema, "openai")
    assert validate_strict(result.schema, "openai") == []
    assert [(loss.pointer, loss.kind) for loss in result.losses] == [("/properties/big", "truncated")]
    wire = result.codec.encode(trap.values[0])
    assert wire["id"] == 1 and isinstance(wire["big"], str)
    assert result.codec.decode(wire) == trap.values[0]
    assert [t.name for t in traps(SHIPPED["anthropic"])].count("string-size") == 0  # no such limit there


def test_documented_limits_are_kept() -> None:
    many = {"type": "object", "properties": {f"p{i}": {"type": "boolean"} for i in range(5001)}}
    result = strictify(many, "openai")
    assert validate_strict(result.schema, "openai") == []  # the root stays an object (SM-01): it is wrapped
    assert result.codec.decode(result.codec.encode({"p1": True})) == {"p1": True}
    assert any(loss.kind == "truncated" for loss in result.losses)
    big_enum = {"type": "object", "properties": {"e": {"type": "string", "enum": [f"v{i}" for i in range(1200)]}}}
    result = strictify(big_enum, "openai")
    assert validate_strict(result.schema, "openai") == []
    assert ("/properties/e", "keyword-stripped") in {(loss.pointer, loss.kind) for loss in result.losses}


KNOWN_BAD = known_bad_cases()
# input strictify must refuse: a $dynamicRef naming no anchor, an external $ref
_UNUSABLE = {"SM-08", "SM-41"}


@pytest.mark.parametrize("case", KNOWN_BAD, ids=[case.rule_id for case in KNOWN_BAD])
def test_known_bad_schemas_come_out_obeying_every_rule(case: KnownBad) -> None:
    """Each schema breaking a rule, strictified for every dialect applying that rule, breaks no rule."""
    for dialect in SHIPPED.values():
        if case.rule_id not in dialect.rule_ids:
            continue
        if case.rule_id in _UNUSABLE:
            with pytest.raises(SchemaError):
                strictify(case.schema, dialect)
            continue
        assert validate_strict(strictify(case.schema, dialect).schema, dialect) == [], dialect.name


def test_array_without_items_carries_its_elements_as_json_text() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "array"}, "e": {"type": "array", "enum": [[1], []]}}, "required": ["a", "e"]}
    result = strictify(schema, "openai")
    assert validate_strict(result.schema, "openai") == []
    value = {"a": [1, "x", {"k": None}], "e": [1]}
    wire = result.codec.encode(value)
    assert wire["a"] == ["1", '"x"', '{"k": null}'] and isinstance(wire["e"], str)
    assert result.codec.decode(wire) == value
    assert {("/properties/a", "opaque"), ("/properties/e", "opaque")} <= {(loss.pointer, loss.kind) for loss in result.losses}


@pytest.mark.parametrize("dialect", ["anthropic", "openai"])
def test_json_text_that_python_reads_as_a_non_finite_number_decodes_as_the_text(dialect: str) -> None:
    """Python's json reads NaN and Infinity, and 1e999 as inf: none is JSON. A strict answer holding
    such text where JSON text travels decodes to the text itself, a JSON value (found by the nightly
    fuzz: RT-5 on corpus case Github_easy/o90449 in anthropic and cohere decoded 'Infinity' to inf)."""
    schema = {"type": "object", "properties": {"params": {"type": "array"}}, "required": ["params"]}
    result = strictify(schema, dialect)
    texts = ["Infinity", "-Infinity", "NaN", "1e999", "[-1e400]", '{"a": NaN}']
    wire = {"params": texts}
    assert Draft202012Validator(result.schema).is_valid(wire)
    decoded = result.codec.decode(wire)
    assert decoded == {"params": texts}
    json.dumps(decoded, allow_nan=False)  # a JSON value
    assert check_rt5_sound(schema, result.as_strictified(), result.codec.decode, wire) is None
    assert result.codec.decode({"params": ["1.5", "1e3"]}) == {"params": [1.5, 1000.0]}  # finite numbers still read


def test_enums_of_arrays_or_objects_are_dropped_where_enums_must_be_scalars() -> None:
    schema = {"type": "object", "properties": {"a": {"enum": [[1], "x"]}}, "required": ["a"]}
    result = strictify(schema, "anthropic")
    assert validate_strict(result.schema, "anthropic") == []
    assert ("/properties/a", "enum") in {(loss.pointer, loss.keyword) for loss in result.losses}
    assert result.codec.decode(result.codec.encode({"a": [1]})) == {"a": [1]}
    assert strictify(schema, "openai").schema["properties"]["a"]["enum"] == [[1], "x"]  # openai has no such rule


def test_unsupported_keywords_are_stripped_and_reported_annotations_silently() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "integer", "minimum": 3, "default": 4, "title": "N"}}, "required": ["n"]}
    result = strictify(schema, "anthropic")
    assert result.schema["properties"]["n"] == {"type": "integer", "default": 4, "title": "N"}
    losses = {(loss.pointer, loss.keyword) for loss in result.losses}
    assert ("/properties/n", "minimum") in losses
    assert not any(keyword in ("title", "default") for _, keyword in losses)


def test_strictify_is_pure_and_deterministic() -> None:
    for trap in TRAPS:
        before = copy.deepcopy(trap.schema)
        first = strictify(trap.schema, "openai")
        assert trap.schema == before
        assert json.dumps(strictify(trap.schema, "openai").schema) == json.dumps(first.schema)


@pytest.mark.parametrize(("schema", "pointer", "message"), [
    ([], "", "a schema is an object or a boolean"),
    ({"type": "object", "properties": {"a": 3}}, "/properties/a", "must be an object or a boolean"),
    ({"properties": {"a": {"$ref": "https://example.com/a.json"}}}, "/properties/a/$ref", "external \\$ref"),
    ({"properties": {"a": {"$ref": "#/$defs/missing"}}}, "/properties/a/$ref", "does not resolve"),
    ({"$defs": {"a": {"$ref": "#/$defs/b"}, "b": {"anyOf": [{"$ref": "#/$defs/a"}]}}, "$ref": "#/$defs/a"}, "", "cyclic definition"),
    ({"type": "object", "required": "a"}, "/required", "array of distinct strings"),
    ({"type": 5}, "/type", "one of .* or a non-empty array"),
    ({"\x00strictconformance": {}}, "", "reserved"),
    # keyword values of the wrong shape for Draft 2020-12 (found by fuzzing: each crashed a pass)
    ({"type": "string", "format": []}, "/format", "`format` must be a string"),
    ({"type": "string", "format": {"a": 1}}, "/format", "`format` must be a string"),
    ({"type": "array", "items": {}, "minItems": None}, "/minItems", "non-negative integer"),
    ({"type": "array", "items": {}, "minItems": {}}, "/minItems", "non-negative integer"),
    ({"type": "array", "items": {}, "minItems": "x"}, "/minItems", "non-negative integer"),
    ({"type": "array", "items": {}, "minItems": [1]}, "/minItems", "non-negative integer"),
    ({"type": "array", "items": {}, "maxItems": 1.5}, "/maxItems", "non-negative integer"),
    ({"type": "number", "multipleOf": 0}, "/multipleOf", "greater than 0"),
    ({"type": "number", "exclusiveMinimum": "0"}, "/exclusiveMinimum", "a number"),  # (draft 04's boolean is accepted)
    ({"type": "bogus"}, "/type", "one of"),
    ({"type": "object", "required": ["a", "a"]}, "/required", "distinct"),
    ({"anyOf": []}, "/anyOf", "at least one schema"),
    ({"type": "object", "properties": {"a": {"type": "string", "pattern": "["}}}, "/properties/a/pattern", "regular expression"),
    ({"type": "object", "patternProperties": {"(": {}}}, "/patternProperties/(", "not a regular expression"),
    # JSON has string keys only, anywhere
    ({"type": "object", "properties": {1: {"type": "string"}}}, "/properties", "names must be strings"),
    ({"$defs": {2: {}}}, "/$defs", "names must be strings"),
    ({"const": {1: "x"}}, "/const", "keys are strings"),
])
def test_bad_input_is_a_schema_error_naming_the_pointer(schema: Any, pointer: str, message: str) -> None:
    with pytest.raises(SchemaError, match=message) as caught:
        strictify(schema, "openai")
    assert caught.value.pointer.startswith(pointer) or pointer == ""


def test_deep_input_is_a_clear_error_not_a_recursion_error() -> None:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(MAX_NESTING + 5):
        node = {"type": "object", "properties": {"n": node}}
    with pytest.raises(SchemaError, match="nests deeper"):
        strictify(node, "openai")
    shallow: dict[str, Any] = {"type": "string"}
    for _ in range(MAX_NESTING // 2 - 2):
        shallow = {"type": "object", "properties": {"n": shallow}}
    assert validate_strict(strictify(shallow, "openai").schema, "openai") == []


def test_non_json_input_is_a_schema_error() -> None:
    with pytest.raises(SchemaError, match="not JSON"):
        strictify({"type": "number", "maximum": float("nan")}, "openai")
    deep_value: Any = []
    for _ in range(5000):  # not a subschema: only the JSON walk sees it (json.dumps would recurse)
        deep_value = [deep_value]
    with pytest.raises(SchemaError, match="nests deeper"):
        strictify({"const": deep_value}, "openai")
    looped: dict[str, Any] = {"type": "object", "properties": {}}
    looped["properties"]["me"] = looped
    with pytest.raises(SchemaError, match="contains itself"):
        strictify(looped, "openai")


def test_codec_reports_too_deep_values_and_never_crashes_on_wrong_shapes() -> None:
    recursive = {"type": "object", "properties": {"next": {"$ref": "#"}}}
    codec = strictify(recursive, "openai").codec
    deep: dict[str, Any] = {}
    for _ in range(2000):
        deep = {"next": deep}
    with pytest.raises(CodecError, match="deeper"):
        codec.encode(deep)
    records = strictify(TRAPS[4].schema, "openai").codec
    for garbage in (None, 3, "x", [1], {"scores": "not pairs"}, {"scores": [{"key": 1}]}):
        records.decode(garbage)  # returned as is; validation names the problem


def test_every_dialect_output_validates_its_own_instances() -> None:
    for dialect in DIALECTS:
        for trap in TRAPS:
            result = strictify(trap.schema, dialect)
            validator = Draft202012Validator(result.schema)
            for value in trap.values:
                assert validator.is_valid(result.codec.encode(value)), (dialect, trap.name, value)


def test_benchmark_command_runs_and_prints_its_figures(capsys: pytest.CaptureFixture[str]) -> None:
    from strictconformance.bench.schemas import main

    assert main(["all", "--examples", "5", "--sizes", "10,40"]) == 0
    printed = capsys.readouterr().out
    assert "compiled vs hypothesis-jsonschema" in printed
    assert "growth: time ~ nodes^" in printed


def test_an_absent_tuple_position_that_accepts_null_travels_as_null() -> None:
    schema = {"type": "object", "properties": {"t": {"type": "array", "prefixItems": [{"type": "null"}], "minItems": 0, "items": False}},
              "required": ["t"]}
    result = strictify(schema, "openai")
    wire = result.codec.encode({"t": []})
    assert wire == {"t": {"0": None}}
    assert Draft202012Validator(result.schema).is_valid(wire)
    assert ("/properties/t/prefixItems/0", "absent-null-collapse") in {(loss.pointer, loss.kind) for loss in result.losses}


def test_an_open_object_closed_explains_its_extra_keys_only() -> None:
    # the optional-and-nullable trap has an open root: closing it must not excuse the silent collapse of `note`
    trap = TRAPS[0]
    result = strictify(trap.schema, "openai")
    silent = Strictified(result.schema, tuple(loss for loss in result.losses if loss.kind != "absent-null-collapse"))
    assert [loss.kind for loss in silent.losses] == ["narrowed"]
    failure = check_rt6_no_silent_collapse(trap.schema, silent, result.codec.encode, {"id": 1, "note": None})
    assert failure is not None and failure.where == "/note"
    # ... while an extra key is explained
    require(check_rt4_complete(trap.schema, result.as_strictified(), result.codec.encode, result.codec.decode, {"id": 1, "extra": 2}))


# Arbitrary JSON whose keys are mostly schema keywords and whose values are mostly of the kinds
# those keywords take, right or wrong: the input a fuzzer gives strictify.
_FUZZ_KEYWORDS = ("type", "properties", "required", "additionalProperties", "items", "prefixItems", "anyOf", "allOf", "oneOf",
                  "not", "enum", "const", "$ref", "$defs", "definitions", "format", "pattern", "minItems", "maxItems",
                  "minLength", "maximum", "exclusiveMinimum", "multipleOf", "propertyOrdering", "patternProperties", "if",
                  "then", "contains", "minContains", "dependentRequired", "dependentSchemas", "$anchor", "$dynamicRef",
                  "uniqueItems", "default", "$id", "propertyNames", "unevaluatedProperties", "additionalItems")
_FUZZ_SCALARS = st.one_of(
    st.none(), st.booleans(), st.integers(-3, 10**20), st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(["object", "array", "string", "null", "integer", "#", "#/$defs/a", "#/properties/x", "a", "date-time",
                     "(a)\\1", "[", "#a", "^[a-z]+$"]),
    st.text(max_size=3),
)
_FUZZ_JSON = st.recursive(
    _FUZZ_SCALARS,
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.sampled_from((*_FUZZ_KEYWORDS, "a", "x", "0")), inner, max_size=3)),
    max_leaves=12,
)


@settings(max_examples=400, deadline=None, database=None, derandomize=True, suppress_health_check=list(HealthCheck))
@given(schema=_FUZZ_JSON, dialect=st.sampled_from(DIALECTS))
def test_arbitrary_json_gets_a_schema_error_or_a_strict_schema(schema: Any, dialect: str) -> None:
    """Whatever JSON it is given, strictify raises a SchemaError or returns a JSON schema that obeys
    the dialect; the validator raises a SchemaError or lists violations. Nothing else escapes."""
    with contextlib.suppress(SchemaError):
        validate_strict(schema, dialect)
    try:
        result = strictify(schema, dialect)
    except SchemaError:
        return
    json.dumps(result.schema, allow_nan=False)
    assert validate_strict(result.schema, dialect) == [], (schema, result.schema)


def test_a_loss_explains_a_difference_only_where_it_says() -> None:
    """SPEC §4 RT-5: "except where a reported loss explains the difference, and only there"."""
    original = {"type": "object", "additionalProperties": False, "required": ["a", "b"], "properties": {
        "a": {"type": "string", "enum": ["x"]},
        "b": {"type": "object", "additionalProperties": False, "required": ["c"], "properties": {"c": {"type": "string", "enum": ["y"]}}}}}
    strict = copy.deepcopy(original)
    del strict["properties"]["a"]["enum"], strict["properties"]["b"]["properties"]["c"]["enum"]
    wire = {"a": "z", "b": {"c": "w"}}

    def verdict(*losses: Loss) -> Any:
        return check_rt5_sound(original, Strictified(strict, losses), lambda value: value, wire)

    def stripped(pointer: str, keyword: str = "enum") -> Loss:
        return Loss(pointer, "keyword-stripped", keyword, "")

    assert verdict() is not None  # dropped silently
    catch_all = verdict(stripped("", "*"))
    assert catch_all is not None and "names nothing in the original schema" in catch_all.message and "`*`" in catch_all.message
    # a keyword the root has explains the root's own assertions, not the enums below it
    root_only = verdict(stripped("", "type"))
    assert root_only is not None and root_only.where == "/properties/a/enum"
    one_only = verdict(stripped("/properties/a"))
    assert one_only is not None and one_only.where == "/properties/b/properties/c/enum"
    # each enum's loss explains it: on the node, on the keyword itself, or merged with another keyword of the node
    assert verdict(stripped("/properties/a"), stripped("/properties/b/properties/c")) is None
    assert verdict(stripped("/properties/a/enum"), stripped("/properties/b/properties/c/enum")) is None
    assert verdict(stripped("/properties/a", "type, enum"), stripped("/properties/b/properties/c", "enum")) is None
    # a keyword the node lacks, or a pointer into the strict schema, names nothing
    lacking = verdict(stripped("/properties/a", "pattern"), stripped("/properties/b/properties/c"))
    assert lacking is not None and "has no `pattern` to lose" in lacking.message
    wrapped = verdict(stripped("/properties/result/properties/a"), stripped("/properties/b/properties/c"))
    assert wrapped is not None and "points at nothing in the original schema" in wrapped.message
    # a truncation explains its whole subtree
    assert verdict(stripped("/properties/a"), Loss("/properties/b", "truncated", "", "")) is None


def test_a_completeness_loss_naming_nothing_fails_rt_4() -> None:
    original = {"type": "object", "properties": {"a": {"type": "integer"}}, "required": ["a"]}
    result = strictify(original, "openai")
    bogus = Strictified(result.schema, (*result.losses, Loss("/properties/zzz", "narrowed", "type", "")))
    failure = check_rt4_complete(original, bogus, result.codec.encode, result.codec.decode, {"a": 1})
    assert failure is not None and failure.rule == "RT-4" and "points at nothing" in failure.message
    star = Strictified(result.schema, (*result.losses, Loss("", "narrowed", "*", "")))
    failure = check_rt4_complete(original, star, result.codec.encode, result.codec.decode, {"a": 1})
    assert failure is not None and "not a JSON Schema keyword" in failure.message
    require(check_rt4_complete(original, result.as_strictified(), result.codec.encode, result.codec.decode, {"a": 1, "x": 2}))


def test_losses_name_the_original_keyword_when_the_wire_form_renames_it() -> None:
    # a map's maxProperties travels as its pairs' maxItems; stripped in anthropic, the loss says maxProperties
    record = {"type": "object", "additionalProperties": {"type": "string"}, "minProperties": 3, "maxProperties": 5}
    losses = {(loss.pointer, loss.keyword) for loss in strictify(record, "anthropic").losses if loss.kind == "keyword-stripped"}
    assert losses == {("", "minProperties"), ("", "maxProperties")}


# -- shared definitions (issue 10 item 11) -----------------------------------------------------------

#: Dialects that keep `$ref` and have no depth limit: a definition several places refer to is kept once.
SHARING = [name for name in DIALECTS if SHIPPED[name].encoding.references == "keep" and SHIPPED[name].limits.max_depth is None
           and name != "lenient"]


def _nodes(schema: Any) -> int:
    """Dict nodes of a JSON value, as written (the reference's output shares no node)."""
    return json.dumps(schema).count("{")


def _references(schema: Any) -> dict[str, int]:
    found: dict[str, int] = {}
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            if isinstance(node.get("$ref"), str):
                found[node["$ref"]] = found.get(node["$ref"], 0) + 1
            stack.extend(node.values())
        elif isinstance(node, list):
            stack.extend(node)
    return found


def _bound(dialect: str) -> Any:
    return lambda schema: strictify(schema, dialect).as_strictified()


def test_the_sharing_dialects_are_those_with_references_and_no_depth_limit() -> None:
    assert SHARING == ["anthropic", "cohere", "google", "google-schema", "mistral"]


@pytest.mark.parametrize("dialect", SHARING)
def test_a_dag_of_shared_definitions_grows_linearly_not_exponentially(dialect: str) -> None:
    from strictconformance.bench.scaling import shared_dag

    sizes = {depth: _nodes(strictify(shared_dag(depth), dialect).schema) for depth in (8, 9, 10, 11, 12)}
    steps = {sizes[depth + 1] - sizes[depth] for depth in (8, 9, 10, 11)}
    assert len(steps) == 1 and sizes[12] < 400, sizes  # unfolded, depth 12 is 2^12 leaves: 12288 nodes before
    result = strictify(shared_dag(12), dialect)
    references = _references(result.schema)
    assert set(result.schema["$defs"]) == {f"d{i}" for i in range(1, 13)}  # d0, used once, is inlined
    assert all(references[f"#/$defs/{name}"] == 2 for name in result.schema["$defs"])
    require(check_rt1_obeys_rules(shared_dag(12), _bound(dialect), dialect))
    require(check_rt2_pure(shared_dag(12), _bound(dialect)))
    require(check_rt3_idempotent(shared_dag(12), _bound(dialect)))


@pytest.mark.parametrize("dialect", ["openai", "openai@2025-01"])
def test_a_depth_limited_dialect_still_inlines_shared_definitions(dialect: str) -> None:
    from strictconformance.bench.scaling import shared_dag

    assert "$ref" not in json.dumps(strictify(shared_dag(3), dialect).schema)


_POINT = {"type": "object", "properties": {"x": {"type": "number"}, "y": {"type": "number"}}, "required": ["x", "y"]}


@pytest.mark.parametrize("dialect", SHARING)
def test_a_definition_left_with_one_use_is_inlined_and_a_described_use_keeps_its_description(dialect: str) -> None:
    described = {"type": "object", "$defs": {"P": _POINT}, "required": ["a", "b"], "properties": {
        "a": {"$ref": "#/$defs/P", "description": "the start"}, "b": {"$ref": "#/$defs/P"}}}
    titled = {"type": "object", "$defs": {"P": _POINT}, "required": ["a", "b"], "properties": {
        "a": {"allOf": [{"title": "Start"}, {"$ref": "#/$defs/P"}]}, "b": {"allOf": [{"title": "End"}, {"$ref": "#/$defs/P"}]}}}
    merged = {"type": "object", "$defs": {"P": _POINT}, "required": ["a", "b"], "properties": {
        "a": {"allOf": [{"$ref": "#/$defs/P"}, {"properties": {"z": {"type": "integer"}}, "required": ["z"]}]}, "b": {"$ref": "#/$defs/P"}}}
    for schema in (described, titled, merged):
        result = strictify(schema, dialect)
        # each leaves P used at most once on the wire (where allOf is merged: mistral keeps it, and
        # its two references): inlined, and a second strictify changes nothing
        if schema is described or SHIPPED[dialect].encoding.combine_all_of:
            assert "$ref" not in json.dumps(result.schema) and "$defs" not in result.schema, result.schema
        require(check_rt3_idempotent(schema, _bound(dialect)))
        require(check_rt1_obeys_rules(schema, _bound(dialect), dialect))
        assert check_rt9_annotations_survive(schema, result.as_strictified()) is None
    kept = {**described, "properties": {**described["properties"], "c": {"$ref": "#/$defs/P"}}, "required": ["a", "b", "c"]}
    result = strictify(kept, dialect)
    assert _references(result.schema) == {"#/$defs/P": 2}
    assert "the start" in json.dumps(result.schema["properties"])
    require(check_rt3_idempotent(kept, _bound(dialect)))


@pytest.mark.parametrize("dialect", SHARING)
def test_two_shared_references_merged_are_merged_through_their_definitions(dialect: str) -> None:
    named = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}
    aged = {"type": "object", "properties": {"age": {"type": "integer"}}, "required": ["age"]}
    schema = {"type": "object", "$defs": {"Named": named, "Aged": aged}, "required": ["person", "pet", "owner"], "properties": {
        "person": {"allOf": [{"$ref": "#/$defs/Named"}, {"$ref": "#/$defs/Aged"}]},
        "pet": {"$ref": "#/$defs/Named"}, "owner": {"$ref": "#/$defs/Aged"}}}
    result = strictify(schema, dialect)
    person = result.schema["properties"]["person"]
    if "properties" in person:  # (records-as-pairs dialects keep the object: it has properties)
        assert set(person["properties"]) == {"name", "age"} and set(person["required"]) == {"name", "age"}
    assert not any(loss.keyword == "$ref" for loss in result.losses), result.losses
    require(check_rt3_idempotent(schema, _bound(dialect)))
    value = {"person": {"name": "a", "age": 3}, "pet": {"name": "b"}, "owner": {"age": 40}}
    require(check_rt4_complete(schema, result.as_strictified(), result.codec.encode, result.codec.decode, value))


def test_a_run_strictifies_each_fixed_case_once_per_dialect() -> None:
    """The case checks ask the reference about every fixed case in each of their rules (whether it
    refuses the case, its strict schema for the oracles): in a run's order (every case and dialect
    of one rule, then the next rule) the memo holds them all, so the second rule computes none. With
    a memo of 256 entries most were computed again for each rule (a tenth of the main job's CPU)."""
    from strictconformance.cases import library, shipped_corpus
    from strictconformance.checks.test_cases import CORPUS_STRIDE
    from strictconformance.reference.strictify import _cached, reference_strictify

    cases = [*library(), *list(shipped_corpus())[::CORPUS_STRIDE]]
    accepted = []  # a refusal raises, and is not kept: the few schemas it refuses are not counted
    for dialect in SHIPPED:
        for case in cases:
            with contextlib.suppress(SchemaError):
                reference_strictify(case.schema, dialect)
                accepted.append((case.schema, dialect))
    assert len(accepted) > 800

    _cached.cache_clear()
    for schema, dialect in accepted:  # the first rule
        reference_strictify(schema, dialect)
    computed = _cached.cache_info().misses
    for schema, dialect in accepted:  # the next
        reference_strictify(schema, dialect)
    assert _cached.cache_info().misses == computed, _cached.cache_info()

"""Checks of SPEC §4 (RT-1..RT-9): strictify and its value codec, in every dialect the adapter
declares: shipped ones (test IDs ``[openai]``...) and its own (``Adapter.dialects``, IDs with their
names).

Each rule has a property over generated schemas (the whole Draft 2020-12 space of
:func:`strictconformance.strategies.schemas.json_schemas`, and one in :data:`NEAR_LIMIT_ONE_IN`
schemas just under, at or over one of the dialect's depth and size limits from
:func:`strictconformance.strategies.schemas.near_limit_schemas`, so truncation is met; values from
:func:`strictconformance.strategies.instances.instances`) and the classic traps, sized for the
dialect, as explicit cases (RT-1 also takes the known-bad schema of every rule of the dialect). The verdicts are the kit's
oracles (:mod:`strictconformance.dialects.oracles`); the adapter is reached only through the
harness (:class:`strictconformance.checks._strict.StrictImplementation`).

Which strict schema a codec rule uses: the adapter's own when it implements ``strictify``, else the
reference's (the dialect fixes the wire shape: pairs, numeric-key objects, null for absent). RT-7
decodes the wire value a model would answer with: the adapter's own encoding when it has
``encode``, else the dialect's wire shape (the reference's), when the strict schema accepts it.

A schema the adapter's strictify refuses (raises on) fails RT-1 unless the reference refuses it
too (input that is not a usable schema); the other rules do not judge it.
"""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strictconformance.baseline import baseline_encode, baseline_reshapes, baseline_strictify
from strictconformance.checks._strict import (
    Refused,
    StrictImplementation,
    budget,
    parametrize_dialects,
    require_dialect,
    show,
    strict_values,
    validated,
)
from strictconformance.dialects import Dialect, Strictified
from strictconformance.dialects.annotations import check_rt9_annotations_survive
from strictconformance.dialects.known_bad import known_bad_cases
from strictconformance.dialects.oracles import (
    check_rt2_pure,
    check_rt3_idempotent,
    check_rt4_complete,
    check_rt5_sound,
    check_rt6_no_silent_collapse,
    check_rt7_decodes_wire,
    schema_validator,
    shape_at,
)
from strictconformance.dialects.traps import Trap, traps
from strictconformance.dialects.witness import (
    Unsatisfiable,
    Witness,
    check_rt8_satisfiable,
    variations,
    witness_of,
)
from strictconformance.findings import Finding, not_covered
from strictconformance.harness import Harness, RuleViolation, check
from strictconformance.strategies.instances import instances
from strictconformance.strategies.schemas import json_schemas, near_limit_schemas

_SCHEMAS = json_schemas()
# RT-1..RT-3 cost a strictify or two per example; RT-4..RT-7 also compile and draw values and
# validate them, several times over where losses must be located; RT-5's trap check draws a wire
# value for every trap in each example
_RT1, _LIGHT, _HEAVY, _RT5_TRAPS = 0.5, 0.3, 0.3, 0.1

#: One generated schema in this many is aimed at one of the dialect's depth and size limits.
NEAR_LIMIT_ONE_IN = 16
# The limits aimed at: depth (SM-21), enum values (SM-23), a large enum's size (SM-25), and for the
# rules that draw no values (RT-1..RT-3), the total of properties (SM-22: a value of a 5000-property
# object, original or strict, is too large to draw). SM-24's schemas are 120,000 characters: its
# trap meets it instead.
_LIMIT_KINDS_WITH_VALUES = frozenset({"max_depth", "max_enum_values", "large_enum_string_length"})
_LIMIT_KINDS = _LIMIT_KINDS_WITH_VALUES | {"max_total_properties"}
_AIMED: dict[tuple[int, bool], tuple[Dialect, st.SearchStrategy[dict[str, Any]] | None]] = {}
_TRAPS: dict[int, tuple[Dialect, tuple[Trap, ...]]] = {}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_dialects(metafunc)  # every dialect of the run: the shipped ones and the adapter's own


def _near_limit(dialect: Dialect, with_values: bool) -> st.SearchStrategy[dict[str, Any]] | None:
    """Schemas around the dialect's depth and size limits (None when it has none), built once per
    dialect object (the run's registry keeps each alive)."""
    key = (id(dialect), with_values)
    if key not in _AIMED:
        kinds = _LIMIT_KINDS_WITH_VALUES if with_values else _LIMIT_KINDS
        aimed = [near_limit_schemas(rule) for rule in dialect.rules if rule.kind in kinds]
        _AIMED[key] = (dialect, st.one_of(aimed) if aimed else None)
    return _AIMED[key][1]


def _schema(strictconformance_harness: Harness, data: st.DataObject, dialect: Dialect, *, with_values: bool = True) -> dict[str, Any]:
    """A generated schema; now and then one around the dialect's limits (``with_values``: one
    whose values are small enough to draw)."""
    aimed = _near_limit(dialect, with_values)
    near = aimed is not None and data.draw(st.sampled_from((False,) * (NEAR_LIMIT_ONE_IN - 1) + (True,)), label="near a limit?")
    schema: dict[str, Any] = data.draw(aimed if near and aimed is not None else _SCHEMAS, label="schema")
    strictconformance_harness.note(dialect=dialect.name, schema=show(schema))
    return schema


def _traps(dialect: Dialect) -> tuple[Trap, ...]:
    """The classic traps sized for ``dialect`` (built once per dialect object)."""
    if id(dialect) not in _TRAPS:
        _TRAPS[id(dialect)] = (dialect, traps(dialect))
    return _TRAPS[id(dialect)][1]


def _trap(strictconformance_harness: Harness, trap: Trap, dialect: Dialect) -> Trap:
    strictconformance_harness.note(dialect=dialect.name, trap=trap.name, why=trap.why, schema=trap.schema)
    return trap


def _trap_cases(dialect: Dialect, *, values: bool = False) -> list[tuple[str, Any]]:
    """The traps of ``dialect`` as fixed cases (:meth:`Harness.each_case`), or with ``values``
    one case per (trap, value) pair."""
    if not values:
        return [(f"trap {trap.name}", trap) for trap in _traps(dialect)]
    return [(f"trap {trap.name} value {index}", (trap, value)) for trap in _traps(dialect) for index, value in enumerate(trap.values)]


def _needs(strictconformance_harness: Harness, rule_id: str, *methods: str) -> None:
    """Skip as not covered unless the adapter implements every one of ``methods``."""
    missing = [method for method in methods if not strictconformance_harness.has(method)]
    if missing:
        have = [method for method in methods if method not in missing]
        not_covered(f"{rule_id} needs {' and '.join(f'{m}()' for m in methods)}; the adapter implements "
                    f"{', '.join(f'{m}()' for m in have) or 'neither'}")


def _strict_for_codec(strictconformance_harness: Harness, implementation: StrictImplementation, schema: dict[str, Any]) -> Strictified | None:
    """The strict schema and losses the codec is judged against: the adapter's (None when it
    refuses the schema: RT-1's business), or the reference's when it has no strictify."""
    if strictconformance_harness.has("strictify"):
        try:
            strict = implementation.strictify(schema)
        except Refused:
            return None
        source = "adapter.strictify"
    else:
        strict = baseline_strictify(schema, implementation.dialect)
        source = "the reference strictify (the adapter has no strictify())"
    strictconformance_harness.note(strict=show(strict.schema), losses=[loss.as_json() for loss in strict.losses], strict_from=source)
    return strict


# -- RT-1: the output obeys every rule of the dialect -------------------------------------------------


def _rt1(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any]) -> None:
    __tracebackhide__ = True
    try:
        strict = StrictImplementation(strictconformance_harness, dialect).strictify(schema)
    except Refused as refusal:
        if refusal.declared or refusal.reference_refuses:
            return  # a declared refusal (counted and reported), or input that is not a usable schema
        strictconformance_harness.crash("strictify", refusal.error, (
            f" on a valid JSON Schema that the reference strictifies, and {type(refusal.error).__qualname__} is not one of "
            "the adapter's strictify_refusals: a crash. strictify must accept any schema and report what it loosens "
            "as losses, or refuse it with a declared exception (SPEC §4)"))
    violations = validated(strictconformance_harness, strict.schema, dialect)
    if violations:
        strictconformance_harness.note(strict=show(strict.schema), violations=[str(violation) for violation in violations[:10]])
        rules = sorted({violation.rule_id for violation in violations})
        first = violations[0]
        # the search shrinks the first break; the others this output shows (as noted) are remembered,
        # so a second defect is reported even when no example shows it first
        also = [RuleViolation(f"{dialect.name}: the strict schema breaks {violation} (beside {first.rule_id}, the break this "
                              f"example's search shrank)", where=violation.pointer or "/",
                              detail=f"{violation.rule_id} at {shape_at(strict.schema, violation.pointer)}")
                for violation in violations[1:10]]
        strictconformance_harness.fail(f"{dialect.name}: the strict schema breaks {len(violations)} rule check(s) of {', '.join(rules)}; "
                f"first: {first}", where=first.pointer or "/", detail=f"{first.rule_id} at {shape_at(strict.schema, first.pointer)}",
                also=also)


@check("RT-1")
@budget(_RT1)
@given(data=st.data())
def test_rt_1_output_obeys_every_rule(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    resolved = require_dialect(strictconformance_harness, dialect)
    _rt1(strictconformance_harness, resolved, _schema(strictconformance_harness, data, resolved, with_values=False))


@check("RT-1")
def test_rt_1_traps_and_known_bad_schemas(strictconformance_harness: Harness, dialect: str) -> None:
    """The classic traps and the known-bad schema of every rule of the dialect come out strict."""
    resolved = require_dialect(strictconformance_harness, dialect)
    rules = resolved.rule_ids
    cases = [(f"trap {trap.name}", trap.schema) for trap in _traps(resolved)]
    cases += [(f"known-bad {case.rule_id} schema", case.schema) for case in known_bad_cases() if case.rule_id in rules]

    def judge(name: str, schema: dict[str, Any]) -> None:
        strictconformance_harness.note(dialect=dialect, case=name, schema=show(schema))
        _rt1(strictconformance_harness, resolved, schema)
    strictconformance_harness.each_case(cases, judge)


# -- RT-2: pure; RT-3: idempotent --------------------------------------------------------------------


def _rt2(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any]) -> None:
    __tracebackhide__ = True
    implementation = StrictImplementation(strictconformance_harness, dialect)
    implementation.judge(lambda: check_rt2_pure(schema, implementation.strictify))


def _rt3(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any]) -> None:
    __tracebackhide__ = True
    implementation = StrictImplementation(strictconformance_harness, dialect)
    implementation.judge(lambda: check_rt3_idempotent(schema, implementation.strictify))


@check("RT-2")
@budget(_LIGHT)
@given(data=st.data())
def test_rt_2_strictify_is_pure(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """The input is not mutated; the same input gives the same schema and losses."""
    resolved = require_dialect(strictconformance_harness, dialect)
    _rt2(strictconformance_harness, resolved, _schema(strictconformance_harness, data, resolved, with_values=False))


@check("RT-2")
def test_rt_2_traps(strictconformance_harness: Harness, dialect: str) -> None:
    resolved = require_dialect(strictconformance_harness, dialect)
    strictconformance_harness.each_case(_trap_cases(resolved), lambda _, trap: _rt2(strictconformance_harness, resolved, _trap(strictconformance_harness, trap, resolved).schema))


@check("RT-3")
@budget(_LIGHT)
@given(data=st.data())
def test_rt_3_strictify_is_idempotent(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """strictify(strictify(s)) is strictify(s)."""
    resolved = require_dialect(strictconformance_harness, dialect)
    _rt3(strictconformance_harness, resolved, _schema(strictconformance_harness, data, resolved, with_values=False))


@check("RT-3")
def test_rt_3_traps(strictconformance_harness: Harness, dialect: str) -> None:
    resolved = require_dialect(strictconformance_harness, dialect)
    strictconformance_harness.each_case(_trap_cases(resolved), lambda _, trap: _rt3(strictconformance_harness, resolved, _trap(strictconformance_harness, trap, resolved).schema))


# -- RT-4: completeness ------------------------------------------------------------------------------


def _rt4(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any], value: Any) -> None:
    __tracebackhide__ = True
    implementation = StrictImplementation(strictconformance_harness, dialect)
    strict = _strict_for_codec(strictconformance_harness, implementation, schema)
    if strict is not None:
        strictconformance_harness.note(value=show(value))
        encode, decode = implementation.encode_fn(schema), implementation.decode_fn(schema)
        implementation.judge(lambda: check_rt4_complete(schema, strict, encode, decode, value), strict)


@check("RT-4")
@budget(_HEAVY)
@given(data=st.data())
def test_rt_4_values_encode_validly_and_decode_back(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """A value of the original encodes to a value of the strict schema and decodes back to itself,
    except where a reported loss explains it."""
    resolved = require_dialect(strictconformance_harness, dialect)
    _needs(strictconformance_harness, "RT-4", "encode", "decode")
    schema = _schema(strictconformance_harness, data, resolved)
    _rt4(strictconformance_harness, resolved, schema, data.draw(instances(schema, engine="compiled"), label="value"))


@check("RT-4")
def test_rt_4_traps(strictconformance_harness: Harness, dialect: str) -> None:
    resolved = require_dialect(strictconformance_harness, dialect)
    _needs(strictconformance_harness, "RT-4", "encode", "decode")
    strictconformance_harness.each_case(_trap_cases(resolved, values=True), lambda _, case: _rt4(strictconformance_harness, resolved, _trap(strictconformance_harness, case[0], resolved).schema, case[1]))


# -- RT-5: soundness ---------------------------------------------------------------------------------


def _constructed_key(dialect: Dialect, schema: Any, strict: Any) -> tuple[str, str, str] | None:
    """The key of RT-5's constructed values for ``schema`` and its ``strict`` output in ``dialect``
    (None when either is not JSON text: then they are judged every time)."""
    try:
        return dialect.name, json.dumps(schema, sort_keys=True), json.dumps(strict, sort_keys=True)
    except (TypeError, ValueError, RecursionError):
        return None


def _rt5(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any], data: st.DataObject, *, alone: bool = False) -> None:
    """RT-5 on ``schema``: a value drawn from its strict schema decodes to a value of it. A strict
    schema proved to have no value has nothing to decode (RT-8 judges that): ``alone`` (one fixed
    case per check) ends the check as not covered, saying so; otherwise the example judges nothing
    and the next one goes on (a trap loop never stops at it)."""
    __tracebackhide__ = True
    implementation = StrictImplementation(strictconformance_harness, dialect)
    strict = _strict_for_codec(strictconformance_harness, implementation, schema)
    if strict is None:
        return
    empty = witness_of(strict.schema)
    if isinstance(empty, Unsatisfiable):
        reason = f"the strict schema has no value to decode ({empty.reason}, at {empty.pointer or 'the root'!r}): RT-8 judges it"
        if alone:
            not_covered(reason)
        strictconformance_harness.note(rt5_skipped=reason)
        return
    decode = implementation.decode_fn(schema)
    judged_key = _constructed_key(dialect, schema, strict.schema) if alone else None
    if alone and isinstance(empty, Witness) and (judged_key is None or judged_key not in strictconformance_harness.constructed_judged):
        # a fixed case is judged constructively first: values near the strict schema's witness,
        # where a loosened keyword shows whether or not a drawn value happens to meet it. The same
        # values every example: once they passed for this output, the next examples (and checks of
        # the same schema and output in this session) draw only (~20 ms an example of each case)
        validator = schema_validator(strict.schema)

        def constructed() -> Finding | None:
            for wire in variations(empty.value):
                if validator.is_valid(wire):
                    found = check_rt5_sound(schema, strict, decode, wire)
                    if found is not None:
                        strictconformance_harness.note(wire=show(wire), wire_from="constructed near the strict schema's witness")
                        return found
            return None
        implementation.judge(constructed, strict)
        if judged_key is not None:
            strictconformance_harness.constructed_judged.add(judged_key)

    def oracle() -> Finding | None:
        with strictconformance_harness.drawing_from("the strict schema"):
            wire = data.draw(strict_values(strictconformance_harness, strict.schema), label="wire value")
        strictconformance_harness.note(wire=show(wire))
        if not schema_validator(strict.schema).is_valid(wire):
            # the kit's generator drew a value the strict schema rejects: its bug, never the SDK's finding
            raise KitGeneratorError(f"the value generator drew {show(wire)!r}, which the strict schema itself rejects")
        return check_rt5_sound(schema, strict, decode, wire)
    implementation.judge(oracle, strict)


@check("RT-5")
@budget(_HEAVY)
@given(data=st.data())
def test_rt_5_strict_values_decode_to_original_values(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """A value of the strict schema decodes to a value of the original, except where a reported
    loss explains the difference, and only there."""
    resolved = require_dialect(strictconformance_harness, dialect)
    _rt5(strictconformance_harness, resolved, _schema(strictconformance_harness, data, resolved), data)


@check("RT-5")
@budget(_RT5_TRAPS)
@given(data=st.data())
def test_rt_5_traps(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """Values of every trap's strict schema, one drawn per trap in each example (a trap lists values
    of its original schema only): each example meets the bounds trap, where a dropped maxItems shows."""
    resolved = require_dialect(strictconformance_harness, dialect)
    strictconformance_harness.each_case(_trap_cases(resolved), lambda _, trap: _rt5(strictconformance_harness, resolved, _trap(strictconformance_harness, trap, resolved).schema, data))


# -- RT-6: no silent collapse of absent and null ------------------------------------------------------


def _rt6(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any], value: Any) -> None:
    __tracebackhide__ = True
    implementation = StrictImplementation(strictconformance_harness, dialect)
    strict = _strict_for_codec(strictconformance_harness, implementation, schema)
    if strict is not None:
        strictconformance_harness.note(value=show(value))
        encode = implementation.encode_fn(schema)
        implementation.judge(lambda: check_rt6_no_silent_collapse(schema, strict, encode, value), strict)


@check("RT-6")
@budget(_HEAVY)
@given(data=st.data())
def test_rt_6_absent_and_null_stay_apart_or_are_reported(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """An optional property that is null and the same value without it encode apart, or a loss says so."""
    resolved = require_dialect(strictconformance_harness, dialect)
    schema = _schema(strictconformance_harness, data, resolved)
    _rt6(strictconformance_harness, resolved, schema, data.draw(instances(schema, engine="compiled"), label="value"))


@check("RT-6")
def test_rt_6_traps(strictconformance_harness: Harness, dialect: str) -> None:
    resolved = require_dialect(strictconformance_harness, dialect)
    strictconformance_harness.each_case(_trap_cases(resolved, values=True), lambda _, case: _rt6(strictconformance_harness, resolved, _trap(strictconformance_harness, case[0], resolved).schema, case[1]))


# -- RT-7: the model's answer is decoded before user code ----------------------------------------------


def _rt7(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any], value: Any) -> None:
    """Decode the wire value a model answers with: the adapter's own encoding of ``value`` when it
    has encode(), else the dialect's (the reference's); judged only when it is valid under the
    strict schema (a model's strict answer is)."""
    __tracebackhide__ = True
    implementation = StrictImplementation(strictconformance_harness, dialect)
    strictconformance_harness.note(value=show(value))
    strict = _strict_for_codec(strictconformance_harness, implementation, schema)
    if strict is None:
        return
    if strictconformance_harness.implements("encode"):
        encoded = strictconformance_harness.attempt("encode", copy.deepcopy(schema), dialect.name, value, allowed=(Exception,))
        if encoded.error is not None:
            return  # RT-4's business
        wire, source = encoded.value, "adapter.encode"
    elif strictconformance_harness.implements("strictify"):
        # the SDK's own strict schema asks for its own wire shape: without encode() the kit cannot know it
        not_covered("RT-7 needs the adapter's encode() beside its strictify(): the wire shape the SDK asks the model "
                    "for is its own (the kit does not judge it against the reference's wire shape)")
    else:  # a decode-only adapter is judged against the reference's strict schema, so its wire shape is the reference's
        wire, source = baseline_encode(schema, dialect, value), "the reference's wire shape (the adapter has neither strictify() nor encode())"
    strictconformance_harness.note(wire=show(wire), wire_from=source)
    decode = implementation.decode_fn(schema)

    def oracle() -> Finding | None:
        if not schema_validator(strict.schema).is_valid(wire):
            # no model answers this in strict mode: the value holds what cannot travel (RT-4
            # judges that), or the dialect's shape is not what the adapter's strict schema asks for
            return None
        return check_rt7_decodes_wire(schema, decode, value, wire, strict.losses)
    implementation.judge(oracle, strict)


@check("RT-7")
@budget(_HEAVY)
@given(data=st.data())
def test_rt_7_wire_answers_decode_to_original_values(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """A value's wire shape (pairs, numeric-key objects, null for absent, JSON text) decodes to the
    value itself."""
    resolved = require_dialect(strictconformance_harness, dialect)
    schema = _schema(strictconformance_harness, data, resolved)
    _rt7(strictconformance_harness, resolved, schema, data.draw(instances(schema, engine="compiled"), label="value"))


@check("RT-7")
def test_rt_7_traps(strictconformance_harness: Harness, dialect: str) -> None:
    resolved = require_dialect(strictconformance_harness, dialect)
    strictconformance_harness.each_case(_trap_cases(resolved, values=True), lambda _, case: _rt7(strictconformance_harness, resolved, _trap(strictconformance_harness, case[0], resolved).schema, case[1]))


# -- RT-8: a strict schema has a value whenever the original has one ----------------------------------


def _original_value(schema: dict[str, Any], data: st.DataObject | None) -> tuple[Any, ...]:
    """A value of the original: built (:func:`witness_of`), else drawn from ``data``; () when neither."""
    built = witness_of(schema)
    if isinstance(built, Witness):
        return (built.value,)
    if isinstance(built, Unsatisfiable) or data is None:
        return ()
    return (data.draw(instances(schema, engine="compiled"), label="value of the original"),)


def _rt8(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any], value: tuple[Any, ...]) -> None:
    """Judge RT-8 on ``schema`` whose value is ``value`` (one, or none known: then nothing to keep)."""
    __tracebackhide__ = True
    if not value:
        return
    implementation = StrictImplementation(strictconformance_harness, dialect)
    try:
        strict = implementation.strictify(schema)
    except Refused:
        return  # RT-1's business
    strictconformance_harness.note(strict=show(strict.schema), value=show(value[0]))
    implementation.judge(lambda: check_rt8_satisfiable(schema, strict.schema, value[0], losses=strict.losses), strict)


@check("RT-8")
@budget(_LIGHT)
@given(data=st.data())
def test_rt_8_strict_schema_has_a_value_when_the_original_has_one(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """A witness built from the strict schema is accepted by the validator whenever the original has a value."""
    resolved = require_dialect(strictconformance_harness, dialect)
    schema = _schema(strictconformance_harness, data, resolved)
    _rt8(strictconformance_harness, resolved, schema, _original_value(schema, data))


@check("RT-8")
def test_rt_8_traps(strictconformance_harness: Harness, dialect: str) -> None:
    resolved = require_dialect(strictconformance_harness, dialect)

    def judge(_: str, trap: Trap) -> None:
        _trap(strictconformance_harness, trap, resolved)
        _rt8(strictconformance_harness, resolved, trap.schema, tuple(trap.values[:1]) or _original_value(trap.schema, None))
    strictconformance_harness.each_case(_trap_cases(resolved), judge)


# -- RT-9: annotations survive ------------------------------------------------------------------------


def _rt9(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any]) -> None:
    __tracebackhide__ = True
    implementation = StrictImplementation(strictconformance_harness, dialect)
    try:
        strict = implementation.strictify(schema)
    except Refused:
        return  # RT-1's business
    strictconformance_harness.note(strict=show(strict.schema), losses=[loss.as_json() for loss in strict.losses])
    implementation.judge(lambda: check_rt9_annotations_survive(schema, strict), strict)


@check("RT-9")
@budget(_LIGHT)
@given(data=st.data())
def test_rt_9_descriptions_and_titles_survive(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """Every description and title is in the strict schema at its node or above, or a loss says why not."""
    resolved = require_dialect(strictconformance_harness, dialect)
    _rt9(strictconformance_harness, resolved, _schema(strictconformance_harness, data, resolved, with_values=False))


@check("RT-9")
def test_rt_9_traps(strictconformance_harness: Harness, dialect: str) -> None:
    resolved = require_dialect(strictconformance_harness, dialect)
    strictconformance_harness.each_case(_trap_cases(resolved), lambda _, trap: _rt9(strictconformance_harness, resolved, _trap(strictconformance_harness, trap, resolved).schema))


class KitGeneratorError(RuntimeError):
    """The kit's value generator drew a value its own schema rejects (a kit error, reported as such)."""


# -- RT-10: refuse only what the dialect cannot express -----------------------------------------------


def _abstract_message(text: str) -> str:
    """A refusal's message with the values taken out (one defect, whichever schema met it)."""
    from strictconformance.defects import message_shape

    return message_shape(text)[:160]


#: Losses no strictify can avoid, which the providers document as the way to write the schema:
#: an optional property made required and nullable where every property must be required (OpenAI
#: Structured Outputs: "emulate an optional parameter with a union type with null"), and a
#: description no strict schema can place. Refusing a schema for them alone is refusing for nothing.
_UNAVOIDABLE_LOSSES = frozenset({"absent-null-collapse", "annotation-dropped"})


def _codec_reshapes(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any]) -> bool:
    """Whether the adapter's own codec gives a value of ``schema`` another shape on the wire: no
    codec (the identity codec judges it) or an ``encode`` that hands a value on as it is does not.
    Without a value to try, or when ``encode`` raises, it is taken to (the refusal stays judged)."""
    if not strictconformance_harness.implements("encode"):
        return False
    built = witness_of(schema)
    if not isinstance(built, Witness):
        return True
    try:
        encoded = StrictImplementation(strictconformance_harness, dialect).encode_fn(schema)(copy.deepcopy(built.value))
    except Exception:
        return True
    return bool(encoded != built.value)


def _needs_unsettled(schema: Any, dialect: Dialect) -> bool:
    """Whether a node of ``schema`` uses one of the dialect's unsettled keywords with any value but ``false``."""
    from strictconformance.dialects.validator import iter_schema_nodes

    return bool(dialect.unsettled) and any(
        isinstance(node.schema, dict) and keyword in node.schema and node.schema[keyword] is not False
        for node in iter_schema_nodes(schema) for keyword in dialect.unsettled)


def _rt10(strictconformance_harness: Harness, dialect: Dialect, schema: dict[str, Any]) -> None:
    __tracebackhide__ = True
    with strictconformance_harness.judging_refusals():
        try:
            StrictImplementation(strictconformance_harness, dialect).strictify(schema)
        except Refused as refusal:
            if not refusal.declared:
                return  # an undeclared exception is RT-1's crash
            try:
                reference = baseline_strictify(schema, dialect)
            except Exception:
                return
            if any(loss.kind not in _UNAVOIDABLE_LOSSES for loss in reference.losses):
                return  # the dialect cannot express it whole: refusing rather than loosening is the SDK's choice
            if _needs_unsettled(reference.schema, dialect):
                return  # it needs a keyword the provider may not take (Dialect.unsettled): refusing may be right
            if baseline_reshapes(schema, dialect) and not _codec_reshapes(strictconformance_harness, dialect, schema):
                # the dialect expresses it only through a codec that reshapes values (a wrapped
                # root, records as pairs): a strictify without such a codec has no lossless way
                return
            error = refusal.error
            said = _abstract_message(str(error))
            strictconformance_harness.note(dialect=dialect.name, schema=show(schema), refusal=f"{type(error).__qualname__}: {error}",
                                           reference_strict=show(reference.schema))
            strictconformance_harness.refusal(
                f"{dialect.name}: strictify refused a schema the dialect expresses without loss ({type(error).__qualname__}: "
                f"{str(error)[:300]}); the reference's strict schema for it has no loss, so the provider accepts it in strict mode",
                detail=f"{type(error).__qualname__}: {said}")


@check("RT-10")
@budget(_LIGHT)
@given(data=st.data())
def test_rt_10_refuses_only_what_the_dialect_cannot_express(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
    """A declared refusal of a schema the dialect expresses without loss is an unnecessary refusal."""
    resolved = require_dialect(strictconformance_harness, dialect)
    _rt10(strictconformance_harness, resolved, _schema(strictconformance_harness, data, resolved, with_values=False))


@check("RT-10")
def test_rt_10_cases(strictconformance_harness: Harness, dialect: str) -> None:
    """The case library (traps, shapes real SDKs trip on, regressions): refused only where needed."""
    from strictconformance.cases import library

    resolved = require_dialect(strictconformance_harness, dialect)
    cases = [(case.id, case.schema) for case in library() if case.kind != "known-bad" and case.applies_to(dialect)]

    def judge(name: str, schema: dict[str, Any]) -> None:
        strictconformance_harness.note(dialect=dialect, case=name, schema=show(schema))
        _rt10(strictconformance_harness, resolved, schema)
    # a refusal is one defect whichever cases met it: the case is in the notes, not the key
    strictconformance_harness.each_case(cases, judge, name_in_key=False)


# -- one entry point for the kit's self-tests -----------------------------------------------------------


def judge_strict_rule(strictconformance_harness: Harness, rule_id: str, dialect: Dialect, schema: dict[str, Any], data: st.DataObject) -> None:
    """Judge ``rule_id`` (an SM rule or RT-1..RT-9) on ``schema`` in ``dialect`` exactly as the
    shipped checks do (the same functions), drawing values from ``data``; a broken rule raises the
    check's failure. The kit's self-tests drive the checks' logic through this, not a second runner."""
    __tracebackhide__ = True
    from strictconformance.checks.test_strict_mode import judge_sm_rule

    if rule_id.startswith("SM-"):
        judge_sm_rule(strictconformance_harness, dialect, dialect.rule(rule_id), schema)
    elif rule_id in ("RT-1", "RT-2", "RT-3", "RT-9", "RT-10"):
        {"RT-1": _rt1, "RT-2": _rt2, "RT-3": _rt3, "RT-9": _rt9, "RT-10": _rt10}[rule_id](strictconformance_harness, dialect, schema)
    elif rule_id == "RT-8":
        _rt8(strictconformance_harness, dialect, schema, _original_value(schema, data))
    elif rule_id == "RT-5":
        _rt5(strictconformance_harness, dialect, schema, data)
    elif rule_id in ("RT-4", "RT-6", "RT-7"):
        if rule_id == "RT-4":
            _needs(strictconformance_harness, "RT-4", "encode", "decode")
        value = data.draw(instances(schema, engine="compiled"), label="value")
        {"RT-4": _rt4, "RT-6": _rt6, "RT-7": _rt7}[rule_id](strictconformance_harness, dialect, schema, value)
    else:
        raise ValueError(f"{rule_id} is not a strict-mode rule (SM-xx or RT-1..RT-10)")

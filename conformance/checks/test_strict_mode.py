"""Checks of SPEC §3 (SM-01..SM-43): the strict schema the adapter's strictify returns obeys each
rule of the dialect, in every dialect that applies the rule and the adapter declares: shipped ones
(test IDs ``[openai]``...) and the adapter's own (``Adapter.dialects``, IDs with their names).

Two checks per rule, generated from the catalogue (one rule each, so the report lists every rule):

* ``test_sm_NN_<check name>``: schemas aimed at what the rule is about
  (:func:`strictconformance.strategies.schemas.rule_schemas`: the constructs it concerns, sizes and
  depths around its limit), half of them from the whole Draft 2020-12 space;
* ``test_sm_NN_fixed_cases``: the known-bad schema of the rule (one breaking exactly it) and the
  classic traps.

The verdict is the kit's own validator (:func:`strictconformance.dialects.validate_strict`), which
shares no code with the reference strictify. A schema the adapter refuses (raises on) is not judged
here: RT-1 fails when it refuses a schema the reference strictifies.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from strictconformance.checks._strict import (
    Refused,
    StrictImplementation,
    budget,
    parametrize_dialects,
    require_dialect,
    show,
    validated,
)
from strictconformance.dialects import CATALOGUE, Dialect, StrictRule
from strictconformance.dialects.known_bad import known_bad_cases
from strictconformance.dialects.oracles import shape_at
from strictconformance.dialects.traps import traps
from strictconformance.harness import Harness, check
from strictconformance.strategies.schemas import rule_schemas

#: Examples of a generated check, as a share of the profile's: schemas over a size limit take
#: strictify a while (thousands of properties); the others are cheap but many (a hundred checks).
_SHARE = {"max_total_properties": 0.03, "max_enum_values": 0.1, "max_total_string_length": 0.1,
          "large_enum_string_length": 0.1}
_DEFAULT_SHARE = 0.15


#: The SM rules checked here, one row each: rule ID -> the catalogue check that judges it (the
#: validator's name for it, in the generated checks' names: ``test_sm_27_banned_one_of``). Two
#: checks are generated per row; tests/test_rule_ids.py keeps the rows equal to the catalogue.
SM_CHECKS: dict[str, str] = {
    "SM-01": "RootNotObject", "SM-02": "MissingType", "SM-03": "MissingAdditionalProperties",
    "SM-04": "MissingItems", "SM-05": "BannedPatternProperties", "SM-06": "BannedSchemaRef", "SM-07": "BannedAnchor",
    "SM-08": "BannedDynamicRef", "SM-09": "BannedDynamicAnchor", "SM-10": "BannedDependentSchemas",
    "SM-11": "BannedDependentRequired", "SM-12": "BannedUnevaluatedProperties", "SM-13": "BannedUnevaluatedItems",
    "SM-14": "BannedContains", "SM-15": "BannedMinContains", "SM-16": "BannedMaxContains", "SM-17": "BannedIf",
    "SM-18": "BannedThen", "SM-19": "BannedElse", "SM-20": "BannedNot", "SM-21": "DepthExceeded",
    "SM-22": "TooManyProperties", "SM-23": "TooManyEnumValues", "SM-24": "StringSizeExceeded",
    "SM-25": "LargeEnumTooLong", "SM-26": "BannedAllOf", "SM-27": "BannedOneOf", "SM-28": "BannedPrefixItems",
    "SM-29": "PropertyNotRequired", "SM-30": "RootIsCombinator", "SM-31": "UnsupportedFormat",
    "SM-32": "BannedUniqueItems", "SM-33": "BannedDefault", "SM-34": "RecursiveSchema",
    "SM-35": "BannedNumericConstraint", "SM-36": "BannedStringLength", "SM-37": "UnsupportedMinItems",
    "SM-38": "BannedArrayConstraint", "SM-39": "EnumNotScalar", "SM-40": "AllOfWithRef", "SM-41": "ExternalRef",
    "SM-42": "PropertyOrderingMismatch", "SM-43": "UnsupportedRegex", "SM-44": "BannedConst",
    "SM-45": "BannedExclusiveBound",
}


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    parametrize_dialects(metafunc)  # the dialects applying the check's rule, shipped and the adapter's own


def judge_sm_rule(strictconformance_harness: Harness, dialect: Dialect, rule: StrictRule, schema: dict[str, Any]) -> bool:
    """Fail when the adapter's strict version of ``schema`` breaks ``rule``; False when it refused."""
    __tracebackhide__ = True
    strictconformance_harness.note(dialect=dialect.name, schema=show(schema))
    try:
        strict = StrictImplementation(strictconformance_harness, dialect).strictify(schema)
    except Refused:
        return False  # no output to judge: counted (a declared refusal, or a crash RT-1 reports)
    broken = [violation for violation in validated(strictconformance_harness, strict.schema, dialect) if violation.rule_id == rule.id]
    if broken:
        strictconformance_harness.note(strict=show(strict.schema), violations=[str(violation) for violation in broken[:10]])
        first = broken[0]
        more = f" (and {len(broken) - 1} more place(s))" if len(broken) > 1 else ""
        strictconformance_harness.fail(f"{dialect.name}: the strict schema breaks {rule.id} {rule.check} at {first.pointer or '/'}: "
                f"{first.message}{more}. The rule: {rule.title.replace('`', '')}, because {rule.reason[0].lower()}{rule.reason[1:]} "
                f"(source: {rule.source})", where=first.pointer or "/", detail=shape_at(strict.schema, first.pointer))
    return True


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _generated_check(rule_id: str) -> Callable[..., None]:
    kind = CATALOGUE[rule_id].kind
    # the aimed strategy of each dialect's version of the rule (its own limit), built once per rule
    # object: a dialect's rules live as long as the dialect, which the run's registry keeps
    schemas: dict[int, tuple[StrictRule, st.SearchStrategy[dict[str, Any]]]] = {}

    def test(strictconformance_harness: Harness, dialect: str, data: st.DataObject) -> None:
        resolved = require_dialect(strictconformance_harness, dialect)
        rule = resolved.rule(rule_id)
        if id(rule) not in schemas:
            schemas[id(rule)] = (rule, rule_schemas(rule))
        judge_sm_rule(strictconformance_harness, resolved, rule, data.draw(schemas[id(rule)][1], label="schema"))

    test.__name__ = test.__qualname__ = f"test_{rule_id.lower().replace('-', '_')}_{_snake(SM_CHECKS.get(rule_id, CATALOGUE[rule_id].check))}"
    test.__doc__ = f"{rule_id}: the strict schema of generated schemas breaks it nowhere."
    aimed: Callable[..., None] = given(data=st.data())(test)
    # a schema over a size limit is large by nature and each try costs a strictify of it:
    # shrinking would only walk the count down to the limit, slowly
    aimed = budget(_SHARE.get(kind, _DEFAULT_SHARE), at_least=3, shrink=kind not in _SHARE)(aimed)
    return check(rule_id)(aimed)


def _fixed_check(rule_id: str) -> Callable[..., None]:
    def test(strictconformance_harness: Harness, dialect: str) -> None:
        resolved = require_dialect(strictconformance_harness, dialect)
        rule = resolved.rule(rule_id)
        cases = [(f"known-bad {rule_id} schema", case.schema) for case in known_bad_cases() if case.rule_id == rule_id]
        cases += [(f"trap {trap.name}", trap.schema) for trap in traps(resolved)]

        def judge(name: str, schema: dict[str, Any]) -> None:
            strictconformance_harness.note(case=name)
            judge_sm_rule(strictconformance_harness, resolved, rule, schema)
        # every case is judged, each failing one is its own finding; one refused by strictify is
        # counted (a check that judged no output is "not judged", never passed)
        strictconformance_harness.each_case(cases, judge)

    test.__name__ = test.__qualname__ = f"test_{rule_id.lower().replace('-', '_')}_fixed_cases"
    test.__doc__ = f"{rule_id}: the strict schema of its known-bad schema and of the classic traps breaks it nowhere."
    return check(rule_id)(test)


def _checks() -> dict[str, Callable[..., None]]:
    """Two checks per row of :data:`SM_CHECKS`, the catalogue's rules (every one is applied by a shipped
    dialect, and an adapter's own dialect may apply any of them); pytest_generate_tests gives each its dialects."""
    found: dict[str, Callable[..., None]] = {}
    # a catalogue rule without its row is still checked (tests/test_rule_ids.py asks for the row)
    for rule_id in [*SM_CHECKS, *sorted(set(CATALOGUE) - set(SM_CHECKS))]:
        for made in (_generated_check(rule_id), _fixed_check(rule_id)):
            found[made.__name__] = made
    return found


globals().update(_checks())

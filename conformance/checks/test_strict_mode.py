"""Checks of SPEC §3 (SM-01..SM-43): the strict schema the adapter's strictify returns obeys each
rule of the dialect, in every shipped dialect that applies the rule and the adapter declares.

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
    dialects_applying,
    require_dialect,
    show,
)
from strictconformance.dialects import CATALOGUE, SHIPPED, StrictRule, validate_strict
from strictconformance.dialects.known_bad import known_bad_cases
from strictconformance.dialects.traps import traps
from strictconformance.harness import Harness, check
from strictconformance.strategies.schemas import rule_schemas

#: Examples of a generated check, as a share of the profile's: schemas over a size limit take
#: strictify a while (thousands of properties); the others are cheap but many (a hundred checks).
_SHARE = {"max_total_properties": 0.03, "max_enum_values": 0.1, "max_total_string_length": 0.1,
          "large_enum_string_length": 0.1}
_DEFAULT_SHARE = 0.15


def _judge(sc: Harness, dialect: str, rule: StrictRule, schema: dict[str, Any]) -> bool:
    """Fail when the adapter's strict version of ``schema`` breaks ``rule``; False when it refused."""
    __tracebackhide__ = True
    sc.note(dialect=dialect, schema=show(schema))
    try:
        strict = StrictImplementation(sc, dialect).strictify(schema)
    except Refused:
        return False  # RT-1's business
    broken = [violation for violation in validate_strict(strict.schema, dialect) if violation.rule_id == rule.id]
    if broken:
        sc.note(strict=show(strict.schema), violations=[str(violation) for violation in broken[:10]])
        first = broken[0]
        more = f" (and {len(broken) - 1} more place(s))" if len(broken) > 1 else ""
        sc.fail(f"{dialect}: the strict schema breaks {rule.id} {rule.check} at {first.pointer or '/'}: "
                f"{first.message}{more}. The rule: {rule.title.replace('`', '')}, because {rule.reason[0].lower()}{rule.reason[1:]} "
                f"(source: {rule.source})")
    return True


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _generated_check(rule_id: str, dialects: list[str]) -> Callable[..., None]:
    kind = CATALOGUE[rule_id].kind
    schemas = {name: rule_schemas(SHIPPED[name].rule(rule_id)) for name in dialects}

    def test(sc: Harness, dialect: str, data: st.DataObject) -> None:
        rule = require_dialect(sc, dialect).rule(rule_id)
        _judge(sc, dialect, rule, data.draw(schemas[dialect], label="schema"))

    test.__name__ = test.__qualname__ = f"test_{rule_id.lower().replace('-', '_')}_{_snake(CATALOGUE[rule_id].check)}"
    test.__doc__ = f"{rule_id}: the strict schema of generated schemas breaks it nowhere."
    aimed: Callable[..., None] = given(data=st.data())(test)
    # a schema over a size limit is large by nature and each try costs a strictify of it:
    # shrinking would only walk the count down to the limit, slowly
    aimed = budget(_SHARE.get(kind, _DEFAULT_SHARE), at_least=3, shrink=kind not in _SHARE)(aimed)
    aimed = pytest.mark.parametrize("dialect", dialects)(aimed)
    return check(rule_id)(aimed)


def _fixed_check(rule_id: str, dialects: list[str]) -> Callable[..., None]:
    def test(sc: Harness, dialect: str) -> None:
        rule = require_dialect(sc, dialect).rule(rule_id)
        cases = [(f"known-bad {rule_id} schema", case.schema) for case in known_bad_cases() if case.rule_id == rule_id]
        cases += [(f"trap {trap.name}", trap.schema) for trap in traps()]
        judged = 0
        for name, schema in cases:
            sc.notes.clear()  # a counterexample names the last case only
            sc.note(case=name)
            judged += _judge(sc, dialect, rule, schema)
        if not judged:
            pytest.skip(f"not covered: strictify refused every fixed case of {rule_id} in {dialect}")

    test.__name__ = test.__qualname__ = f"test_{rule_id.lower().replace('-', '_')}_fixed_cases"
    test.__doc__ = f"{rule_id}: the strict schema of its known-bad schema and of the classic traps breaks it nowhere."
    return check(rule_id)(pytest.mark.parametrize("dialect", dialects)(test))


def _checks() -> dict[str, Callable[..., None]]:
    found: dict[str, Callable[..., None]] = {}
    for rule_id in sorted(CATALOGUE):
        dialects = dialects_applying(rule_id)
        if dialects:  # a catalogue rule no shipped dialect applies has nothing to be checked in
            for made in (_generated_check(rule_id, dialects), _fixed_check(rule_id, dialects)):
                found[made.__name__] = made
    return found


globals().update(_checks())

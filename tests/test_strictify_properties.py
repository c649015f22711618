"""RT-1..RT-7 (and the SM rules, through RT-1) as properties: they hold for the reference on
generated schemas in every dialect, and each fails on a deliberately broken strictify or codec.

``SC_STRICTIFY_EXAMPLES`` scales the examples per property (20 by default; a nightly-size run
uses e.g. 500).
"""

from __future__ import annotations

import os
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from broken_strictify import (
    BROKEN,
    ReferenceStrictifyAdapter,
)
from strictconformance.adapter import read_declarations
from strictconformance.checks.test_roundtrip import judge_strict_rule
from strictconformance.dialects import SHIPPED
from strictconformance.findings import Finding
from strictconformance.harness import ConformanceFailure, Harness
from strictconformance.strategies.schemas import json_schemas

EXAMPLES = int(os.environ.get("SC_STRICTIFY_EXAMPLES", "20"))
RT_RULES = tuple(f"RT-{n}" for n in range(1, 8))
REFERENCE = ReferenceStrictifyAdapter()


_HARNESSES: dict[int, tuple[Any, Harness]] = {}


def run_rule(rule_id: str, adapter: Any, dialect: str, schema: dict[str, Any], data: st.DataObject) -> Finding | None:
    """One rule on one generated schema, judged by the shipped checks' own code
    (:func:`judge_strict_rule`) through a harness on ``adapter``: its finding, or None."""
    if id(adapter) not in _HARNESSES:
        _HARNESSES[id(adapter)] = (adapter, Harness(adapter, read_declarations(adapter), call_timeout=0))
    sc = _HARNESSES[id(adapter)][1]
    sc.begin_item(f"self-test::{rule_id}[{dialect}]", rule_id)
    sc.begin_example()
    try:
        judge_strict_rule(sc, rule_id, sc.declarations.dialect_registry[dialect], schema, data)
    except ConformanceFailure as failure:
        failure.rule_id = failure.rule_id or rule_id
        if failure.drawn is None:
            failure.drawn = {"dialect": dialect, "schema": schema, **sc.notes}
        return failure.finding()
    return None


def require(finding: Finding | None) -> None:
    if finding is not None:
        raise AssertionError(finding.render())


_SETTINGS = {"deadline": None, "database": None, "derandomize": True, "suppress_health_check": list(HealthCheck)}


@pytest.mark.parametrize("rule_id", RT_RULES)
@pytest.mark.parametrize("dialect", sorted(SHIPPED))
def test_reference_holds_the_round_trip_rules(dialect: str, rule_id: str) -> None:
    @settings(max_examples=EXAMPLES, **_SETTINGS)
    @given(json_schemas(), st.data())
    def check(schema: dict[str, Any], data: st.DataObject) -> None:
        require(run_rule(rule_id, REFERENCE, dialect, schema, data))
    check()


def first_failure(adapter: Any, dialect: str, rule_id: str, schemas: st.SearchStrategy[dict[str, Any]], examples: int = 80) -> Finding | None:
    """Search (generation only, no shrinking: we want a failure, not the smallest) for a schema
    on which ``rule_id`` fails for ``adapter``."""
    @settings(max_examples=examples, phases=[Phase.generate], **_SETTINGS)
    @given(schemas, st.data())
    def search(schema: dict[str, Any], data: st.DataObject) -> None:
        failure = run_rule(rule_id, adapter, dialect, schema, data)
        if failure is not None:
            raise _Found(failure)  # stops the search at the first failure

    try:
        search()
    except _Found as found:
        return found.failure
    return None


class _Found(Exception):
    def __init__(self, failure: Finding) -> None:
        super().__init__(failure.render())
        self.failure = failure


_OBJECTS = ("object", "string", "integer", "boolean")
BROKEN_CASES = [
    # (broken adapter, dialect, rule it breaks, schema features that reach the bug)
    ("OpenBelowDepth3", "openai", "SM-03", json_schemas(features=_OBJECTS, max_depth=5, root_types=("object",))),
    ("OpenBelowDepth3", "anthropic", "RT-1", json_schemas(features=_OBJECTS, max_depth=5, root_types=("object",))),
    ("RequiredWithoutNull", "openai", "RT-4", json_schemas(features=(*_OBJECTS, "optional"), root_types=("object",))),
    ("MutatesInput", "openai", "RT-2", json_schemas()),
    ("CollapsesSilently", "openai", "RT-6", json_schemas(features=(*_OBJECTS, "optional", "nullable", "optional-nullable"), root_types=("object",))),
    ("NotIdempotent", "google", "RT-3", json_schemas()),
    ("DecodeKeepsWireShapes", "openai", "RT-5", json_schemas(features=(*_OBJECTS, "record", "tuple"), root_types=("object",))),
    ("DecodeKeepsWireShapes", "anthropic", "RT-7", json_schemas(features=(*_OBJECTS, "record", "tuple"), root_types=("object",))),
    ("EncodeKeepsOriginalShapes", "openai", "RT-4", json_schemas(features=(*_OBJECTS, "record", "tuple"), root_types=("object",))),
    ("NullMeansAbsentEverywhere", "openai", "RT-5", json_schemas(features=(*_OBJECTS, "nullable"), root_types=("object",))),
    ("NullMeansAbsentEverywhere", "google", "RT-7", json_schemas(features=(*_OBJECTS, "nullable"), root_types=("object",))),
    ("KeepsNot", "openai", "SM-20", json_schemas(features=_OBJECTS)),
    ("NoDepthLimit", "openai@2025-01", "SM-21", json_schemas(features=_OBJECTS, max_depth=7, root_types=("object",))),
    ("KeepsRecursiveRefs", "openai@2025-01", "SM-06", json_schemas(features=(*_OBJECTS, "$ref", "recursion", "root-recursion"), root_types=("object",))),
]


@pytest.mark.parametrize(("broken", "dialect", "rule_id", "schemas"), BROKEN_CASES,
                         ids=[f"{b}-{d}-{r}" for b, d, r, _ in BROKEN_CASES])
def test_broken_implementation_fails_its_rule(broken: str, dialect: str, rule_id: str, schemas: st.SearchStrategy[dict[str, Any]]) -> None:
    failure = first_failure(BROKEN[broken](), dialect, rule_id, schemas)
    assert failure is not None, f"{broken} was not caught by {rule_id}"
    assert failure.rule == rule_id, failure.render()
    assert failure.counterexample and failure.calls, failure.render()
    # the same search finds nothing wrong with the reference
    assert first_failure(REFERENCE, dialect, rule_id, schemas, examples=25) is None


@pytest.mark.parametrize(("broken", "dialect", "spared"), [
    ("MutatesInput", "openai", ("RT-1", "RT-3", "RT-4", "RT-5")),
    ("DecodeKeepsWireShapes", "openai", ("RT-1", "RT-2", "RT-3", "RT-6")),
    ("CollapsesSilently", "openai", ("RT-1", "RT-2", "RT-3", "RT-5")),
])
def test_a_broken_implementation_fails_only_its_rules(broken: str, dialect: str, spared: tuple[str, ...]) -> None:
    schemas = json_schemas(features=(*_OBJECTS, "record", "tuple", "optional", "nullable", "optional-nullable"), root_types=("object",))
    for rule_id in spared:
        failure = first_failure(BROKEN[broken](), dialect, rule_id, schemas, examples=20)
        assert failure is None, failure.render()

"""RT-1..RT-5, RT-8 and RT-9 on fixed cases: the case library (:func:`strictconformance.cases.library`: the
classic traps, the known-bad schemas, the shapes real SDKs trip on, regressions), the curated
real-world corpus (:func:`strictconformance.cases.shipped_corpus`) and ``--sc-corpus DIR``.

Each case is its own test item per rule and dialect (``test_rt_1_case[openai-trap-records]``), so
one failing case never hides another. The shipped corpus runs sampled (every
:data:`CORPUS_STRIDE`-th schema) except under the ``nightly`` profile, where it runs whole; a
``--sc-corpus`` folder always runs whole. RT-4 checks a case's listed values, RT-5 values drawn
from the strict schema; both only where the original is Draft 2020-12 as written (the oracles
read 2020-12: a schema declaring draft 04-07 is checked for RT-1..RT-3).
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from strictconformance.baseline import baseline_strictify
from strictconformance.cases import Case, corpus_cases, library, shipped_corpus
from strictconformance.checks import test_roundtrip as _roundtrip
from strictconformance.checks._strict import budget, require_dialect, run_dialects
from strictconformance.dialects import SchemaError
from strictconformance.findings import not_covered
from strictconformance.harness import Harness, check

#: Outside the nightly profile, every CORPUS_STRIDE-th schema of the shipped corpus runs.
CORPUS_STRIDE = 6


def _corpus(config: pytest.Config) -> list[Case]:
    shipped = list(shipped_corpus())
    if hypothesis_settings.get_current_profile_name() != "nightly":
        shipped = shipped[::CORPUS_STRIDE]
    folder = config.getoption("sc_corpus", default=None)
    return shipped + (list(corpus_cases(folder, source=f"--sc-corpus {folder}")) if folder else [])


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "case" not in metafunc.fixturenames:
        return
    cases = _corpus(metafunc.config) if metafunc.definition.name.endswith("_corpus") else list(library())
    if not metafunc.definition.name.startswith("test_rt_1_"):
        # a known-bad schema is about the validator and RT-1: its other rules are the traps' business
        cases = [case for case in cases if case.kind != "known-bad"]
    pairs = [(dialect, case) for dialect in run_dialects(metafunc.config) for case in cases if case.applies_to(dialect)]
    metafunc.parametrize(("dialect", "case"), pairs, ids=[f"{dialect}-{case.id}" for dialect, case in pairs])


def _start(sc: Harness, dialect: str, case: Case, rule_id: str) -> Any:
    """The dialect, after noting the case; a "not covered" skip where the reference refuses the
    schema (it is not a usable schema: only RT-1 judges what the adapter does with it)."""
    resolved = require_dialect(sc, dialect)
    sc.note(dialect=dialect, case=case.id, exercises=case.exercises, source=case.source)
    if rule_id != "RT-1":
        try:
            baseline_strictify(case.schema, resolved)
        except SchemaError as refused:
            not_covered(f"{rule_id} on case {case.id}: the reference refuses it too ({refused})")
    return resolved


def _rt1(sc: Harness, dialect: str, case: Case) -> None:
    _roundtrip._rt1(sc, _start(sc, dialect, case, "RT-1"), case.schema)


def _rt2(sc: Harness, dialect: str, case: Case) -> None:
    _roundtrip._rt2(sc, _start(sc, dialect, case, "RT-2"), case.schema)


def _rt3(sc: Harness, dialect: str, case: Case) -> None:
    _roundtrip._rt3(sc, _start(sc, dialect, case, "RT-3"), case.schema)


def _rt4(sc: Harness, dialect: str, case: Case) -> None:
    resolved = _start(sc, dialect, case, "RT-4")
    _roundtrip._needs(sc, "RT-4", "encode", "decode")
    if not case.values or not case.values_judged:
        not_covered(f"case {case.id} lists no values of a Draft 2020-12 schema")
    for value in case.values:
        _roundtrip._rt4(sc, resolved, case.schema, value)


def _rt5(sc: Harness, dialect: str, case: Case, data: st.DataObject) -> None:
    resolved = _start(sc, dialect, case, "RT-5")
    _roundtrip._needs(sc, "RT-5", "decode")
    if not case.values_judged:
        not_covered(f"case {case.id} declares an older draft than 2020-12 (values are judged in 2020-12)")
    _roundtrip._rt5(sc, resolved, case.schema, data, alone=True)


def _rt8(sc: Harness, dialect: str, case: Case) -> None:
    resolved = _start(sc, dialect, case, "RT-8")
    listed = tuple(case.values[:1]) if case.values and case.values_judged else ()
    value = listed or _roundtrip._original_value(case.schema, None)
    if not value:
        not_covered(f"case {case.id}: no value of the original is listed or could be built")
    _roundtrip._rt8(sc, resolved, case.schema, value)


def _rt9(sc: Harness, dialect: str, case: Case) -> None:
    _roundtrip._rt9(sc, _start(sc, dialect, case, "RT-9"), case.schema)


@check("RT-1")
def test_rt_1_case(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    """The case's strict schema obeys every rule of the dialect (or the reference refuses it too)."""
    _rt1(strictconformance_harness, dialect, case)


@check("RT-2")
def test_rt_2_case(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    _rt2(strictconformance_harness, dialect, case)


@check("RT-3")
def test_rt_3_case(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    _rt3(strictconformance_harness, dialect, case)


@check("RT-4")
def test_rt_4_case(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    _rt4(strictconformance_harness, dialect, case)


@check("RT-5")
@budget(0.03, at_least=3)
@given(data=st.data())
def test_rt_5_case(strictconformance_harness: Harness, dialect: str, case: Case, data: st.DataObject) -> None:
    _rt5(strictconformance_harness, dialect, case, data)


@check("RT-1")
def test_rt_1_corpus(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    """A real-world schema's strict schema obeys every rule of the dialect."""
    _rt1(strictconformance_harness, dialect, case)


@check("RT-2")
def test_rt_2_corpus(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    _rt2(strictconformance_harness, dialect, case)


@check("RT-3")
def test_rt_3_corpus(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    _rt3(strictconformance_harness, dialect, case)


@check("RT-5")
@budget(0.03, at_least=3)
@given(data=st.data())
def test_rt_5_corpus(strictconformance_harness: Harness, dialect: str, case: Case, data: st.DataObject) -> None:
    _rt5(strictconformance_harness, dialect, case, data)


@check("RT-8")
def test_rt_8_case(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    """The case's strict schema has a value when the original has one."""
    _rt8(strictconformance_harness, dialect, case)


@check("RT-9")
def test_rt_9_case(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    """The case's descriptions and titles survive, folded or reported."""
    _rt9(strictconformance_harness, dialect, case)


@check("RT-8")
def test_rt_8_corpus(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    _rt8(strictconformance_harness, dialect, case)


@check("RT-9")
def test_rt_9_corpus(strictconformance_harness: Harness, dialect: str, case: Case) -> None:
    _rt9(strictconformance_harness, dialect, case)

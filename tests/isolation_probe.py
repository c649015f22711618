"""Run by tests/test_selftest_isolation.py in a pytest process of its own, in this order: the first
test runs the suite in-process and keeps weak references to that run's pytest sessions; the
second runs it again and checks that they are gone. (Within one test pytester keeps every run
alive until the test ends, so the leak shows only across tests.)"""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Callable

import pytest
from _pytest.config import Config

from conftest import SuiteRun, _from_a_library

_FIRST_RUN: list[weakref.ref[Config]] = []


def _inner_configs(outer: Config) -> list[Config]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, Config) and o is not outer]


def test_first_run(run_suite: Callable[..., SuiteRun], request: pytest.FixtureRequest) -> None:
    before = set(sys.modules)
    # a failing check: Hypothesis's pytest plugin imports its example patcher (libcst) for it
    run = run_suite("broken_resolution:ForgetsBeta", "--sc-rule", "RES-5,SM-01,TL-1")
    assert run.report is not None, run.output
    assert run.rules_with("failed") == {"RES-5"}, run.output
    kept = set(sys.modules) - before
    # what the run imported from the installed libraries (libcst, for Hypothesis's patcher of
    # failing examples) stays for the next run, not imported again
    assert kept, "the run imported no library module, or pytester took them all out after it"
    # the kit's modules, the checks collected as test files and the run's own modules do not
    assert all(_from_a_library(name) for name in kept), sorted(name for name in kept if not _from_a_library(name))
    _FIRST_RUN.extend(weakref.ref(config) for config in _inner_configs(request.config))
    assert _FIRST_RUN, "the in-process run made no pytest Config"


def test_second_run(run_suite: Callable[..., SuiteRun]) -> None:
    assert _FIRST_RUN, "test_first_run did not run first"
    run = run_suite(None, "--sc-rule", "SM-01,TL-1")
    assert run.report is not None, run.output
    gc.collect()
    alive = sum(ref() is not None for ref in _FIRST_RUN)
    assert not alive, (
        f"{alive} pytest session(s) of the first test's in-process run still alive during the next test: "
        "something outside the run holds its modules, its assertion-rewriting hook or its plugins")

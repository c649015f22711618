"""Every RES and BUD check can fail: each deliberately broken adapter makes exactly its rule fail."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from broken_resolution import BROKEN, MAY_ALSO_FAIL, MORE_BROKEN
from conftest import SuiteRun, fails_exactly
from strictconformance.spec import all_rules

RESOLUTION_RULES = [rule_id for rule_id in all_rules() if rule_id.startswith(("RES-", "BUD-"))]


def test_every_resolution_rule_has_a_broken_adapter() -> None:
    assert sorted(BROKEN) == sorted(RESOLUTION_RULES)


@pytest.mark.parametrize("rule_id", RESOLUTION_RULES)
def test_broken_adapter_fails_exactly_its_rule(run_suite: Callable[..., SuiteRun], rule_id: str) -> None:
    run = fails_exactly(run_suite, BROKEN[rule_id], {rule_id}, RESOLUTION_RULES)
    failed = run.rules_with("failed") | run.rules_with("error")
    assert failed == {rule_id}, run.output
    assert f"{rule_id} violation" in run.output  # the rule ID is in what the user reads
    checks = run.report["rules"][rule_id]["checks"]  # type: ignore[index]
    failing = [c["nodeid"] for c in checks if c["outcome"] == "failed"]
    # the Hypothesis property finds it, not only an explicit example
    assert any("seed_table" not in nodeid and "twenty_five" not in nodeid for nodeid in failing), failing
    counterexamples = run.report["rules"][rule_id]["findings"]  # type: ignore[index]
    assert counterexamples and counterexamples[0]["calls"], counterexamples
    assert counterexamples[0]["replay"].startswith("pytest -p strictconformance --sc-adapter")


# ids from the adapter's name alone: a frozenset's text order differs between xdist workers
@pytest.mark.parametrize(("adapter", "rules"), [pytest.param(adapter, rules, id=adapter.split(":")[-1])
                                                for adapter, rules in sorted(MORE_BROKEN.items())])
def test_more_realistic_bugs_fail_exactly_their_rules(run_suite: Callable[..., SuiteRun], adapter: str, rules: frozenset[str]) -> None:
    """Counting blind spots (array items, oneOf, anyOf branches), a budget error that names no
    budget, and curated tables one pattern too loose: each fails the rules it breaks, no other."""
    may_fail = rules | MAY_ALSO_FAIL.get(adapter, frozenset())
    run = fails_exactly(run_suite, adapter, may_fail, RESOLUTION_RULES)
    failed = run.rules_with("failed") | run.rules_with("error")
    assert rules <= failed <= rules | MAY_ALSO_FAIL.get(adapter, frozenset()), run.output
    for rule_id in rules:
        assert f"{rule_id} violation" in run.output

"""The DR checks through the plugin: each deliberately broken adapter fails exactly its rule, and
a failure tells a maintainer what to fix. That the reference passes them all is the main job's
test (tests/test_plugin.py), which runs every rule at this profile."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from broken_drift_adapters import BROKEN, EXTRA
from broken_pinned import PINNED_MUTATIONS
from conftest import SuiteRun, fails_exactly
from strictconformance.drift.cassettes import list_cassettes
from strictconformance.spec import all_rules

DRIFT_RULES = [rule_id for rule_id in all_rules() if rule_id.startswith("DR-")]


def test_every_drift_rule_has_a_broken_adapter() -> None:
    assert sorted(BROKEN) == sorted(DRIFT_RULES)


@pytest.mark.slow
@pytest.mark.parametrize("rule_id", DRIFT_RULES)
def test_broken_adapter_fails_exactly_its_rule(run_suite: Callable[..., SuiteRun], rule_id: str) -> None:
    run = fails_exactly(run_suite, BROKEN[rule_id], {rule_id}, DRIFT_RULES)
    failed = run.rules_with("failed") | run.rules_with("error")
    assert failed == {rule_id}, run.output
    assert f"{rule_id} violation" in run.output  # the rule ID is in what the user reads
    counterexamples = run.report["rules"][rule_id]["findings"]  # type: ignore[index]
    assert counterexamples and counterexamples[0]["calls"], counterexamples
    assert counterexamples[0]["replay"].startswith("pytest -p strictconformance --sc-adapter")


@pytest.mark.parametrize(("adapter", "rule_id"), sorted(EXTRA.items()))
def test_extra_bugs_are_caught_by_their_rule(run_suite: Callable[..., SuiteRun], adapter: str, rule_id: str) -> None:
    run = run_suite(adapter, "--sc-rule", rule_id)
    assert run.rules_with("failed") == {rule_id}, run.output


def test_dr6_fails_a_check_that_recurses_into_deep_payloads(run_suite: Callable[..., SuiteRun]) -> None:
    """DR-6 hands every declared API bodies and events nested 10,000+ levels deep (past Python's
    recursion limit; it used to stop at 300): a check that converts them with a recursive walk
    fails with RecursionError, in the explicit deep check and in the fuzz, and the failure
    renders (the harness copies the payload without recursion, Hypothesis prints it bounded)."""
    run = run_suite("broken_drift:RecursesIntoPayload", "--sc-rule", "DR-6")
    assert run.rules_with("failed") == {"DR-6"}, run.output
    assert run.report is not None
    outcomes = {check["nodeid"].split("::")[-1]: check["outcome"] for check in run.report["rules"]["DR-6"]["checks"]}
    assert outcomes["test_dr_6_payloads_nested_past_the_recursion_limit"] == "failed", outcomes
    assert outcomes["test_dr_6_any_payload_raises_only_drift_errors"] == "failed", outcomes
    failure = next(f for f in run.report["rules"]["DR-6"]["findings"] if "nested_past" in f["nodeid"])
    assert "raised RecursionError" in failure["message"]
    assert failure["counterexample"]["case"]
    assert "INTERNALERROR" not in run.output and "Flaky" not in run.output


def test_dr6_fails_a_check_that_cannot_print_a_huge_integer(run_suite: Callable[..., SuiteRun]) -> None:
    """DR-6's fuzz gives adapters integers too long to print (10**5000); a check that chokes on
    one fails DR-6 with the integer described in the counterexample, never an INTERNALERROR."""
    run = run_suite("broken_drift:PrintsNumbers", "--sc-rule", "DR-6")
    assert run.rules_with("failed") == {"DR-6"}, run.output
    assert run.report is not None
    failure = run.report["rules"]["DR-6"]["findings"][0]
    assert "raised ValueError" in failure["message"], failure["message"]
    assert "integer of about" in json.dumps(failure["counterexample"]) + json.dumps(failure["calls"])
    assert "INTERNALERROR" not in run.output


def test_dr4_sweeps_every_recorded_array_for_an_unknown_variant(run_suite: Callable[..., SuiteRun]) -> None:
    """A check whose only fault is one closed union (Chat Completions annotations) fails DR-4 in
    the per-cassette sweep, at the array's path, however few examples the profile allows."""
    run = run_suite("broken_drift:ClosedAnnotationTypes", "--sc-rule", "DR-4")
    assert run.rules_with("failed") == {"DR-4"}, run.output
    assert run.report is not None
    failed = [check for check in run.report["rules"]["DR-4"]["checks"] if check["outcome"] == "failed"]
    assert any("unknown_variant_in_every_recorded_array" in check["nodeid"] and "openai/chat/" in check["nodeid"]
               for check in failed), failed
    assert any(".annotations[" in f["message"] for f in run.report["rules"]["DR-4"]["findings"])


def test_a_dr1_failure_names_the_cassette_and_what_was_rejected(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(BROKEN["DR-1"], "--sc-rule", "DR-1")
    assert run.report is not None
    failure = run.report["rules"]["DR-1"]["findings"][0]
    counterexample = failure["counterexample"]
    assert counterexample["cassette"] in list_cassettes()
    assert counterexample["response"].startswith(counterexample["cassette"] + "#")
    assert counterexample["file"].endswith(counterexample["cassette"])
    assert counterexample["provenance"]["origin"] in ("recorded-live", "documented-shape")
    assert "reported drift on a recorded real response" in failure["message"]
    assert "SDKResponseError" in failure["message"]


def test_a_mutation_failure_shows_the_mutation_and_where_it_was_expected(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(BROKEN["DR-3"], "--sc-rule", "DR-3")
    assert run.report is not None
    failures = run.report["rules"]["DR-3"]["findings"]
    seed = next(f for f in failures if "seed_reshaped_tool_use_id" in f["nodeid"])
    assert "missed breaking drift" in seed["message"]
    assert "content[1].id" in seed["message"]
    assert seed["counterexample"]["mutation"]["path"] == "content[1].id"
    assert seed["counterexample"]["mutated_from"] == "anthropic/messages/tool_use.yaml#0"
    assert seed["counterexample"]["payload"]["content"][1]["metadata"]["id"].startswith("toolu_")
    prop = next(f for f in failures if "variant_fields_are_checked" in f["nodeid"])
    assert prop["counterexample"]["mutation"]["rule"] == "DR-3"
    assert len(prop["calls"]) == 2  # the unmutated response, accepted; then the mutated one


def test_a_harness_fault_fails_the_rule_and_names_the_method(run_suite: Callable[..., SuiteRun]) -> None:
    """An undeclared exception is an adapter fault (harness failures are not swallowed by the judges)."""
    run = run_suite("broken_drift:RaisesBareKeyError", "--sc-rule", "DR-2")
    assert run.rules_with("failed") == {"DR-2"}, run.output
    assert "DR-2 crash: adapter.check_response() raised KeyError" in run.output or \
        "DR-2 crash: adapter.check_stream() raised KeyError" in run.output, run.output


def test_errors_without_a_path_are_judged_on_detection_alone(run_suite: Callable[..., SuiteRun]) -> None:
    """An SDK error that tells no path still passes the rules whose checks compare paths."""
    run = run_suite("broken_drift_adapters:PathlessErrors", "--sc-rule", "DR-2,DR-3,DR-5")
    assert run.rules_with("passed") == {"DR-2", "DR-3", "DR-5"}, run.output


@pytest.mark.parametrize(
    ("adapter", "not_covered"),
    [
        # DR-7 (parse fidelity) is for adapters whose checks return what they parsed; these return nothing
        # DR-8 and DR-9 judge streams only
        ("broken_drift_adapters:ResponsesOnlyOpenAI", {"DR-7", "DR-8", "DR-9"}),
        ("broken_drift_adapters:StreamsOnly", {"DR-6", "DR-7"}),
    ],
)
@pytest.mark.slow
def test_partial_adapters_pass_what_they_cover(run_suite: Callable[..., SuiteRun], adapter: str, not_covered: set[str]) -> None:
    run = run_suite(adapter, "--sc-rule", "DR")
    assert run.rules_with("failed") | run.rules_with("error") == set(), run.output
    assert run.rules_with("not covered") == not_covered, run.output
    assert run.rules_with("passed") == set(DRIFT_RULES) - not_covered, run.output
    assert run.report is not None
    reasons = {check["reason"] for data in run.report["rules"].values() for check in data["checks"] if check["outcome"] == "not covered"}
    assert reasons, "an adapter that covers part of the APIs or methods has checks reported as not covered"


@pytest.mark.parametrize("adapter", sorted(PINNED_MUTATIONS))
def test_a_pinned_mutation_meets_the_sdk_bug_it_pins(run_suite: Callable[..., SuiteRun], adapter: str) -> None:
    """A mutation pinned after the ci profile's draws stopped meeting a real SDK's bug: an adapter
    with that bug fails the pinned check with the finding key the SDK's triage entry names (only the
    pinned check runs here, nothing drawn); the reference passes it."""
    check_name, rule_id, key = PINNED_MUTATIONS[adapter]
    run = run_suite(adapter, "--sc-rule", rule_id, "-k", check_name)
    assert run.rules_with("failed") == {rule_id}, run.output
    assert run.report is not None
    keys = {finding["key"] for check in run.report["rules"][rule_id]["checks"] for finding in check.get("findings", [])}
    assert keys == {key}, keys
    assert run_suite(None, "--sc-rule", rule_id, "-k", check_name).rules_with("passed") == {rule_id}

"""Distinct defects are distinct findings in every area, not only in strictify's (issue 11: "use
the verdict model of the strict-schema issue (one finding type, every distinct finding) for DR
and TL"). Every DR, TL, RES and BUD finding was keyed "<rule> violation": an SDK with three DR-5
defects showed one, and the matrix merged the findings of a rule's checks into one. Now a finding's
key names the kind of defect (the mutation family, what the tool layer got wrong, which setting
the wire ignored), so each defect is its own finding with its own counterexample."""

from __future__ import annotations

from collections.abc import Callable

from conftest import SuiteRun


def _keys(run: SuiteRun, rule_id: str) -> set[str]:
    assert run.report is not None, run.output
    return {finding["key"] for finding in run.report["rules"][rule_id]["findings"]}


def test_three_unchecked_relations_are_three_dr_5_findings(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_drift:ThreeRelationsUnchecked", "--sc-rule", "DR-5", profile="selftest")
    keys = _keys(run, "DR-5")
    assert {f"DR-5 violation: missed breaking drift (break_relation:{kind})" for kind in ("unique", "sum", "increasing")} <= keys, keys


def test_one_unchecked_relation_is_one_dr_5_finding(run_suite: Callable[..., SuiteRun]) -> None:
    alone = _keys(run_suite("broken_drift:DuplicateIdsPass", "--sc-rule", "DR-5"), "DR-5")
    assert {key for key in alone if "break_relation" in key} == {"DR-5 violation: missed breaking drift (break_relation:unique)"}, alone


def test_two_tl_2_defects_are_two_findings_with_their_own_counterexamples(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_tool_adapters:TwoValidationDefectsAdapter", "--sc-rule", "TL-2")
    assert run.report is not None, run.output
    findings = run.report["rules"]["TL-2"]["findings"]
    by_key = {finding["key"]: finding for finding in findings}
    assert "TL-2 violation: invalid input reached the callback" in by_key, sorted(by_key)
    assert "TL-2 violation: the callback received the wrong types" in by_key, sorted(by_key)
    unvalidated = by_key["TL-2 violation: invalid input reached the callback"]["counterexample"]
    dicts = by_key["TL-2 violation: the callback received the wrong types"]["counterexample"]
    assert '"json_schema"' in str(unvalidated).replace("'", '"'), unvalidated  # a raw-schema tool's case
    assert '"signature"' in str(dicts).replace("'", '"'), dicts  # a type-hinted tool's case


def test_an_oracle_with_two_violations_on_one_case_reports_both(run_suite: Callable[..., SuiteRun]) -> None:
    """A raw-schema tool that never validates lets invalid input reach the callback and returns a
    success result for it: one case, two defects, two findings (the first no longer hides the rest)."""
    keys = _keys(run_suite("broken_tool_adapters:UnvalidatedRawSchemaAdapter", "--sc-rule", "TL-2"), "TL-2")
    assert {"TL-2 violation: invalid input reached the callback", "TL-2 violation: invalid input gave a success result"} <= keys, keys


def test_resolution_findings_name_what_the_wire_got_wrong(run_suite: Callable[..., SuiteRun]) -> None:
    keys = _keys(run_suite("broken_resolution:ConfigBeatsTool", "--sc-rule", "RES-1"), "RES-1")
    assert keys and all(key.startswith(("RES-1 violation: ", "RES-1 fault", "RES-1 crash")) for key in keys), keys
    assert any("seed table row (anthropic)" in key or "is not what the wire carries" in key for key in keys), keys

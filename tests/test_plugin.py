"""The plugin as a user runs it: activation, selection, profiles, xdist, expected failures, the
report in the terminal and as JSON (valid against its shipped schema)."""

from __future__ import annotations

from collections.abc import Callable

import jsonschema
import pytest

from conftest import SuiteRun
from strictconformance.drift.cassettes import list_cassettes
from strictconformance.report import REPORT_SCHEMA, load_report_schema


def _valid_report(run: SuiteRun) -> dict:  # type: ignore[type-arg]
    assert run.report is not None, run.output
    jsonschema.Draft202012Validator(load_report_schema()).validate(run.report)
    return run.report


def test_report_schema_is_a_valid_schema() -> None:
    schema = load_report_schema()
    jsonschema.Draft202012Validator.check_schema(schema)
    assert schema["properties"]["schema"]["const"] == REPORT_SCHEMA


@pytest.mark.slow
def test_main_job_from_outside_the_repository_passes_and_prints_the_report(run_suite: Callable[..., SuiteRun]) -> None:
    """What the README's first command does: the reference, every rule, in a fresh directory, in a
    subprocess, at the selftest profile (30 examples a check, no shrinking). It is also the test
    that the reference passes every check of every family: the families' broken-adapter tests
    (test_broken_*_suite.py) show that each check can fail. One run for both: a run of the whole
    suite pays for its fixed cases and corpus schemas whatever the examples, and the four runs it
    replaces (this one at three examples, three families at thirty) cost a third more CPU."""
    run = run_suite(None, subprocess=True)
    assert run.result.ret == pytest.ExitCode.OK, run.output
    report = _valid_report(run)
    assert report["adapter"]["adapter"] == "strictconformance.reference:ReferenceAdapter"
    ran = {rule_id for rule_id, data in report["rules"].items() if data["outcome"] != "not run"}
    assert ran == set(report["rules"]), f"rules without a check: {set(report['rules']) - ran}"
    assert run.rules_with("passed") == ran, {r: d["outcome"] for r, d in report["rules"].items() if d["outcome"] != "passed"}
    assert all(data["examples"] > 0 for data in report["rules"].values())
    drawn = [rule_id for rule_id in report["rules"] if rule_id.startswith(("DR-", "TL-"))]
    assert drawn and all(report["rules"][rule_id]["examples"] >= 30 for rule_id in drawn), report["rules"]
    # one DR-1 check per shipped cassette, each named after it
    nodeids = {check["nodeid"] for check in report["rules"]["DR-1"]["checks"]}
    for location in list_cassettes():
        assert any(f"[{location}]" in nodeid for nodeid in nodeids), location
    assert "strictconformance report" in run.output
    assert "RES-1   passed" in run.output


def test_inert_unless_requested(pytester: pytest.Pytester) -> None:
    """Installed, the plugin is loaded in every pytest run: it must not add the suite there."""
    pytester.makepyfile(test_mine="def test_mine():\n    assert True\n")
    result = pytester.runpytest_inprocess("-p", "no:cacheprovider")
    result.assert_outcomes(passed=1)
    assert "strictconformance report" not in result.stdout.str()


def test_explicit_paths_run_beside_the_suite(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    pytester.makepyfile(test_mine="def test_mine():\n    assert True\n")
    run = run_suite(None, "test_mine.py", "--sc-rule", "RES-1")
    assert "test_mine.py ." in run.output
    assert run.rules_with("passed") == {"RES-1"}


def test_rule_selection(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(None, "--sc-rule", "BUD", "--sc-rule", "RES-13,RES-14")
    assert run.rules_with("passed") == {"BUD-1", "BUD-2", "BUD-3", "BUD-4", "BUD-5", "BUD-6", "RES-13", "RES-14"}
    unknown = run_suite(None, "--sc-rule", "RES-99")
    assert unknown.result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--sc-rule 'RES-99' matches no rule" in unknown.output


def test_a_rule_selection_builds_only_the_checks_of_the_selected_rules(run_suite: Callable[..., SuiteRun]) -> None:
    """With --sc-rule, the checks of other rules make no test item (no case or dialect of theirs is
    generated only to be deselected), and the selected rule's checks are all there."""
    run = run_suite(None, "--sc-rule", "SM-14,TL-1", "--collect-only", "-q")
    collected = [line for line in run.result.outlines if "::" in line]
    assert collected, run.output
    assert all("test_strict_mode.py::test_sm_14_" in line or "test_tools.py::test_tl_1_" in line for line in collected), collected
    assert any("test_tl_1_" in line for line in collected) and any("test_sm_14_" in line for line in collected), collected
    assert "deselected" not in run.output, run.output
    everything = run_suite(None, "--collect-only", "-q")
    assert len([line for line in everything.result.outlines if "::" in line]) > 20 * len(collected)


def test_adapter_from_environment_and_ini(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester,
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("STRICTCONFORMANCE_ADAPTER", "broken_resolution:ForgetsBeta")
    assert run_suite(None, "--sc-rule", "RES-5").rules_with("failed") == {"RES-5"}
    monkeypatch.delenv("STRICTCONFORMANCE_ADAPTER")
    pytester.makeini("[pytest]\nsc_adapter = broken_resolution:GoogleNeverValidated\n")
    assert run_suite(None, "--sc-rule", "RES-6").rules_with("failed") == {"RES-6"}


@pytest.mark.slow
@pytest.mark.parametrize(("args", "env_ci", "profile"), [
    ((), False, "dev"),
    ((), True, "ci"),
    (("--sc-profile", "ci"), False, "ci"),
    (("--hypothesis-profile", "nightly"), False, "nightly"),
])
def test_profiles(run_suite: Callable[..., SuiteRun], monkeypatch: pytest.MonkeyPatch,
                  args: tuple[str, ...], env_ci: bool, profile: str) -> None:
    if env_ci:
        monkeypatch.setenv("CI", "true")
    else:
        monkeypatch.delenv("CI", raising=False)
        monkeypatch.delenv("GITHUB_ACTIONS", raising=False)
    run = run_suite(None, "--sc-rule", "RES-3", *args, subprocess=True, profile=None)
    report = _valid_report(run)
    assert report["profile"] == profile
    expected_examples = {"dev": 60, "ci": 100, "nightly": 2000}[profile]
    assert report["rules"]["RES-3"]["checks"][0]["examples"] >= expected_examples


@pytest.mark.parametrize("xdist", [False, True], ids=["one-process", "xdist"])
def test_under_ci_a_failure_is_one_line_in_the_short_summary_and_replays_with_the_ci_profile(
        run_suite: Callable[..., SuiteRun], monkeypatch: pytest.MonkeyPatch, xdist: bool) -> None:
    """pytest prints a string longrepr whole in the short summary when CI is set: the block would
    come twice. The replay command names the profile CI chose, so pasting it locally reproduces."""
    monkeypatch.setenv("CI", "true")
    extra = ("-n", "2") if xdist else ()
    run = run_suite("broken_resolution:ConfigBeatsTool", "--sc-rule", "RES-1", "-k", "seed_table and false-over-true-openai",
                    *extra, profile=None, subprocess=True)
    output = run.output
    assert output.count("counterexample (JSON):") == 1, output
    summary = [line for line in output.splitlines() if line.startswith("FAILED ")]
    assert summary and all(" - RES-1 violation: " in line for line in summary), summary
    assert "replay: pytest -p strictconformance --sc-adapter broken_resolution:ConfigBeatsTool --sc-profile ci " in output


def test_collect_only_writes_no_report(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("-p", "strictconformance", "--collect-only", "-q", "--sc-report", "report.json")
    assert result.ret == pytest.ExitCode.OK, result.outlines
    assert not (pytester.path / "report.json").exists()


def test_ci_profile_is_deterministic(run_suite: Callable[..., SuiteRun], monkeypatch: pytest.MonkeyPatch) -> None:
    """CI=true selects the derandomized `ci` profile, also when CI was set after Hypothesis was
    imported (Hypothesis loads its `ci` only at import): under xdist this test got `dev` and two
    different random findings, depending on what the worker had loaded before."""
    from hypothesis import settings

    previous = settings.get_current_profile_name()
    settings.load_profile("default")  # as a process that imported Hypothesis before CI was set
    monkeypatch.setenv("CI", "true")
    try:
        first = run_suite("broken_resolution:ConfigBeatsTool", "--sc-rule", "RES-1", profile=None)
        second = run_suite("broken_resolution:ConfigBeatsTool", "--sc-rule", "RES-1", profile=None)
    finally:
        settings.load_profile(previous)
    assert first.report is not None and second.report is not None
    assert first.report["profile"] == second.report["profile"] == "ci", first.output
    assert first.report["rules"]["RES-1"]["findings"] == second.report["rules"]["RES-1"]["findings"]


@pytest.mark.slow
def test_xdist_aggregates_every_result(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_resolution:TiesReversed", "-n", "2", "--sc-rule", "RES,BUD", subprocess=True)
    report = _valid_report(run)
    assert run.rules_with("failed") == {"BUD-2"}
    assert run.rules_with("not covered") == {"BUD-3"}
    ran = [r for r, d in report["rules"].items() if d["outcome"] not in ("not run",)]
    assert len(ran) == 17
    assert all(report["rules"][rule_id]["examples"] > 0 for rule_id in ran if rule_id != "BUD-3")
    assert report["rules"]["BUD-2"]["findings"][0]["calls"]


def test_expected_failures_are_strict(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    pytester.makepyfile(expecting="""
        from broken_resolution import ForgetsBeta, PlannerForgetsBeta
        from strictconformance.reference import ReferenceAdapter

        class KnownBug(ForgetsBeta):
            expected_failures = {"RES-5": "beta flag not sent yet (issue 12)"}

        class StaleExpectation(ReferenceAdapter):
            expected_failures = {"RES-5": "fixed long ago"}

        class ExpectsUncovered(ReferenceAdapter):
            expected_failures = {"BUD-3": "policy differs"}
            allocation_policy = "unspecified"

        class KnownPlannerBug(PlannerForgetsBeta):
            expected_failures = {"RES-5": "the planner drops the beta"}
    """)
    known = run_suite("expecting:KnownBug", "--sc-rule", "RES-5")
    assert known.result.ret == pytest.ExitCode.OK, known.output
    assert known.outcome("RES-5") == "xfailed"
    assert "beta flag not sent yet (issue 12)" in known.output

    stale = run_suite("expecting:StaleExpectation", "--sc-rule", "RES-5")
    assert stale.result.ret == pytest.ExitCode.TESTS_FAILED
    assert stale.outcome("RES-5") == "failed"
    assert stale.report is not None
    assert stale.report["rules"]["RES-5"]["reasons"] == [
        "unexpected pass of an expected failure (fixed long ago): the check passes now; remove the rule from expected_failures"]
    assert "(unexpected pass of an expected failure (fixed long ago)" in stale.output  # under the RES-5 row

    # the expectation is the rule's: met by its one failing check (the planner's), while its other
    # check (requests built from per-tool settings) passes; that pass is no stale expectation
    planner = run_suite("expecting:KnownPlannerBug", "--sc-rule", "RES-5")
    assert planner.result.ret == pytest.ExitCode.OK, planner.output
    assert planner.outcome("RES-5") == "xfailed", planner.output
    assert planner.report is not None
    checks = {check["outcome"]: check for check in planner.report["rules"]["RES-5"]["checks"]}
    assert set(checks) == {"xfailed", "passed"}, checks
    assert checks["passed"]["reason"] == "passes, though its rule is declared an expected failure (the planner drops the beta)"

    # -k leaving out the check that fails: the expectation is not judged, never called stale
    narrowed = run_suite("expecting:KnownPlannerBug", "--sc-rule", "RES-5", "-k", "carries_beta and not planned")
    assert narrowed.result.ret == pytest.ExitCode.OK, narrowed.output
    assert narrowed.outcome("RES-5") == "passed", narrowed.output
    assert ("expected failure RES-5 (the planner drops the beta) neither met nor stale: the run selected some of its "
            "checks only (-k 'carries_beta and not planned')") in narrowed.output

    uncovered = run_suite("expecting:ExpectsUncovered", "--sc-rule", "BUD")
    assert "expected_failures entry BUD-3 matches no check that runs" in uncovered.output


def test_a_kit_error_under_an_expected_failure_stays_an_error(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """Only a finding meets an expected failure: a check that raises (here the kit's own check, as an
    oracle bug would) is the kit's error, never an xfail, and it keeps the rule's passing checks
    from being called stale."""
    pytester.makepyfile(test_mine="""
        from strictconformance.harness import check

        @check("RES-2")
        def test_oracle_raises(strictconformance_harness):
            raise RuntimeError("the oracle's table has no row for this model")
    """, expecting="""
        from strictconformance.reference import ReferenceAdapter

        class ExpectsRes2(ReferenceAdapter):
            expected_failures = {"RES-2": "defaults differ"}
    """)
    run = run_suite("expecting:ExpectsRes2", "test_mine.py", "--sc-rule", "RES-2")
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    assert run.outcome("RES-2") == "kit error", run.output
    assert run.report is not None
    outcomes = {check["nodeid"].rpartition("::")[2]: check for check in run.report["rules"]["RES-2"]["checks"]}
    assert outcomes["test_oracle_raises"]["outcome"] == "kit error", outcomes["test_oracle_raises"]
    assert "RuntimeError: the oracle's table has no row for this model" in outcomes["test_oracle_raises"]["reason"]
    others = [check for name, check in outcomes.items() if name != "test_oracle_raises"]
    assert others and all(check["outcome"] == "passed" for check in others), others
    assert "xfailed" not in {check["outcome"] for check in outcomes.values()}
    assert "unexpected pass" not in run.output


def test_suite_collected_whatever_python_files_says(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    pytester.makeini("[pytest]\npython_files = check_*.py\n")
    run = run_suite(None, "--sc-rule", "RES-1")
    assert run.rules_with("passed") == {"RES-1"}


def test_report_directory_must_exist(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_inprocess("-p", "strictconformance", "--sc-report", "missing/dir/report.json",
                                          "-W", "ignore::pytest.PytestAssertRewriteWarning")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert "its directory does not exist" in "\n".join(result.outlines + result.errlines)


def test_failure_output_is_actionable(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_resolution:WrongOpenAIDefault", "--sc-rule", "RES-2", "-k", "declared_default")
    output = run.output
    assert "RES-2 violation: openai: tool" in output
    assert "counterexample (JSON):" in output
    assert "adapter calls (last is the one that failed):\nadapter.build_request(ToolsRequest(" in output
    assert "replay: pytest -p strictconformance --sc-adapter broken_resolution:WrongOpenAIDefault" in output
    assert "@reproduce_failure" not in output  # users can't decorate the kit's checks
    # Hypothesis's own note repeating the example as a Python call (with the harness argument):
    # the JSON counterexample says it. Hypothesis 6.170 writes "Failing test case", older ones
    # "Falsifying example".
    for note in ("Failing test case", "Failing explicit example", "Falsifying example", "strictconformance_harness=<strictconformance harness"):
        assert note not in output, note


def test_a_requirement_that_raises_errors_its_check_only(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """``requires`` runs at collection (a broken cassette, a kit bug): its exception errors that
    check with the reason; the rest of the run and the report go on, no INTERNALERROR."""
    pytester.makepyfile(test_mine="""
        from strictconformance.harness import check

        def needs_cassettes(declarations):
            raise KeyError("anthropic/messages/tool_use.yaml is gone")

        @check("RES-2", requires=needs_cassettes)
        def test_needs_cassettes(strictconformance_harness):
            pass
    """)
    run = run_suite(None, "test_mine.py", "--sc-rule", "RES-1,RES-2")
    assert "INTERNALERROR" not in run.output
    assert run.outcome("RES-1") == "passed"
    assert run.outcome("RES-2") == "error"
    assert "could not decide whether test_needs_cassettes applies to this adapter: KeyError" in run.output


_DYING = """
import os
from strictconformance.reference import ReferenceAdapter

class DiesOnOneRow(ReferenceAdapter):
    \"\"\"Kills its process on the seed table's per-tool strict=false rows (os._exit: no report).\"\"\"
    def build_request(self, request):
        if len(request.tools) == 1 and request.tools[0].name == "lookup" and request.tools[0].strict is False:
            os._exit(1)
        return super().build_request(request)

class DiesInStrictSupport(ReferenceAdapter):
    def strict_support(self, model):
        os._exit(1)
"""


def test_a_check_whose_xdist_worker_dies_is_an_error_of_its_rule(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """xdist reports a worker that died running a check without the kit's result on the report:
    the check is an error of its rule (never missing, so the rule cannot show 'passed')."""
    pytester.makepyfile(dying=_DYING)
    run = run_suite("dying:DiesOnOneRow", "-n", "2", "--sc-rule", "RES-1", subprocess=True)
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    report = _valid_report(run)
    assert report["rules"]["RES-1"]["outcome"] == "error"
    assert report["summary"]["error"] == 1 and report["summary"]["passed"] == 0, report["summary"]
    died = {check["nodeid"].rpartition("::")[2]: check["reason"] for check in report["rules"]["RES-1"]["checks"] if check["outcome"] == "error"}
    assert set(died) == {"test_res_1_seed_table[per-tool-false-over-true-openai]", "test_res_1_seed_table[per-tool-false-over-true-anthropic]"}
    assert all("crashed while running" in reason and "died before reporting a result" in reason for reason in died.values()), died
    assert "RES-1   error" in run.output
    assert f"summary: 1 error, {len(report['rules']) - 1} not run (not selected)" in run.output


def test_a_selected_rule_without_results_says_why_not_not_selected(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """A rule whose checks were selected but never reported (the run stopped first: a worker died
    with no restarts left, or -x) is 'not run' with that reason, never 'not selected'."""
    pytester.makepyfile(dying=_DYING)
    run = run_suite("dying:DiesInStrictSupport", "-n", "1", "--max-worker-restart", "0", "--sc-rule", "RES-13,RES-14", subprocess=True)
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    report = _valid_report(run)
    assert report["rules"]["RES-13"]["outcome"] == "error"
    assert report["rules"]["RES-14"]["outcome"] == "not run"
    assert report["rules"]["RES-14"]["reasons"] and "selected, but no result came back" in report["rules"]["RES-14"]["reasons"][0]
    assert "not run: RES-14 - selected, but no result came back" in run.output
    assert f"summary: 1 error, 1 not run (selected, no result), {len(report['rules']) - 2} not run (not selected)" in run.output

    stopped = run_suite("broken_resolution:ConfigBeatsTool", "--sc-rule", "RES-1,RES-2", "-x")
    assert stopped.outcome("RES-1") == "failed"
    assert stopped.outcome("RES-2") == "not run"
    assert "not run: RES-2 - selected, but no result came back: the run stopped before it" in stopped.output
    assert f"summary: 1 failed, 1 not run (selected, no result), {len(report['rules']) - 2} not run (not selected)" in stopped.output

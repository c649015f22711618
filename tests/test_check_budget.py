"""A check that spins ends at its budget with what it found; a run always leaves a report.

The adapters spin for a fixed amount of CPU (tests/hostile.py): budgets are CPU seconds, so a busy
machine reaches them no sooner than an idle one, and no assertion here reads the clock but the
generous bound of a wait.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import TESTS_DIR, SuiteRun
from strictconformance.checkbudget import CheckBudget, Limits, parse_limits
from strictconformance.cli import main as cli_main
from strictconformance.report import journal_path, load_report, load_report_schema

#: RT-3's Hypothesis check and its fixed-case loop, in the one dialect the spinning adapters declare.
_RT3 = ("--sc-rule", "RT-3", "-k", "test_rt_3_strictify_is_idempotent or test_rt_3_traps")


def _check(run: SuiteRun, name: str) -> dict:  # type: ignore[type-arg]
    assert run.report is not None, run.output
    [check] = [c for c in run.report["rules"]["RT-3"]["checks"] if c["nodeid"].endswith(f"{name}[openai]")]
    return check  # type: ignore[no-any-return]


def test_a_check_spinning_in_its_adapter_ends_at_its_budget_with_its_findings(run_suite: Callable[..., SuiteRun]) -> None:
    """strictify costs 0.3 s of CPU a call (0.6 s an example) and breaks RT-3 on every schema: with
    a budget of 2 s (the first example finishes even with a cold start's imports) a check ends after
    a few examples, failed with its finding (not fully shrunk) and the budget note."""
    run = run_suite("hostile:SpinsInStrictify", *_RT3, "--sc-check-budget", "cpu=2", profile="selftest")
    assert run.outcome("RT-3") == "failed", run.output

    searched = _check(run, "test_rt_3_strictify_is_idempotent")
    assert searched["outcome"] == "failed", searched
    budget = searched["budget"]
    assert budget["exhausted"] == "cpu", budget
    assert budget["note"].startswith(f"budget exhausted after {budget['after_examples']} example"), budget
    assert 1 <= budget["after_examples"] < 9, budget  # the selftest profile runs 9 examples of this check
    assert 2.0 <= budget["spent"]["cpu_s"] < 15, budget
    [finding] = searched["findings"]
    assert finding["key"].startswith("RT-3 violation"), finding
    assert finding["fully_shrunk"] is False  # found while generating: its shrinking never began
    assert budget["unshrunk"] == [finding["key"]]

    cases = _check(run, "test_rt_3_traps")  # no Hypothesis: stops between its fixed cases
    assert cases["outcome"] == "failed", cases
    assert cases["findings"], cases
    assert cases["budget"]["after_cases"] == len(cases["findings"]) < 10, cases["budget"]
    assert cases["budget"]["note"].startswith("budget exhausted after"), cases["budget"]

    assert "(budget exhausted after" in run.output and "test_rt_3_strictify_is_idempotent[openai])" in run.output
    assert "(not fully shrunk: the check's budget ran out)" in run.output
    assert "budget: 2 checks ran out of their budget" in run.output


def test_a_passing_check_that_runs_out_of_budget_passes_on_what_it_ran_and_says_so(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("hostile:SpinsInStrictifyCorrectly", "--sc-rule", "RT-3", "-k", "test_rt_3_strictify_is_idempotent",
                    "--sc-check-budget", "cpu=2,calls=0")
    check = _check(run, "test_rt_3_strictify_is_idempotent")
    assert check["outcome"] == "passed", check
    assert check["budget"]["exhausted"] == "cpu" and check["budget"]["after_examples"] < 9, check
    assert check["budget"]["limits"] == {"cpu_s": 2.0, "examples": 5000, "calls": 0}


def test_a_pass_cut_by_its_budget_leaves_an_expected_failure_unconfirmed(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """The examples a budget cut off may be the ones that show the declared bug: a rule whose only
    check passed on what its budget let it run is neither met nor stale, and the run says so."""
    pytester.makepyfile(expecting="""
        from hostile import SpinsInStrictifyCorrectly

        class ExpectsRt3(SpinsInStrictifyCorrectly):
            expected_failures = {"RT-3": "strictify is not idempotent on tuples"}
    """)
    run = run_suite("expecting:ExpectsRt3", "--sc-rule", "RT-3", "-k", "test_rt_3_strictify_is_idempotent",
                    "--sc-check-budget", "cpu=2,calls=0")
    check = _check(run, "test_rt_3_strictify_is_idempotent")
    assert check["outcome"] == "passed" and check["budget"]["exhausted"] == "cpu", check
    assert run.result.ret == pytest.ExitCode.OK, run.output
    assert "unexpected pass" not in run.output
    assert ("expected failure RT-3 (strictify is not idempotent on tuples) neither met nor stale: 1 of its checks "
            "did not finish (passed on what its budget let it run); the run selected some of its checks only "
            "(-k 'test_rt_3_strictify_is_idempotent')") in run.output


def test_an_examples_budget_is_the_same_on_any_machine(run_suite: Callable[..., SuiteRun]) -> None:
    """Counted, not timed: the same examples and findings on an idle machine and a busy one."""
    runs = [run_suite("broken_strict_adapters:DescriptionGrows", *_RT3, "--sc-check-budget", "examples=3,cpu=0", profile="selftest")
            for _ in range(2)]
    checks = [_check(run, "test_rt_3_strictify_is_idempotent") for run in runs]
    for check in checks:
        assert check["outcome"] == "failed" and check["budget"]["exhausted"] == "examples", check
        assert check["budget"]["after_examples"] == 3, check["budget"]
    assert checks[0]["findings"][0]["counterexample"] == checks[1]["findings"][0]["counterexample"]


@pytest.mark.slow
def test_checks_not_started_when_the_run_budget_is_spent_are_not_judged(run_suite: Callable[..., SuiteRun]) -> None:
    """Supervised (one worker), the default of a real run: the first check spends the run's second
    of CPU; every later one is reported "not judged: run budget exhausted", none is dropped."""
    run = run_suite("hostile:SpinsInStrictify", *_RT3, "--sc-run-budget", "1", "--sc-check-budget", "cpu=5",
                    subprocess=True, supervised=True)
    assert run.report is not None, run.output
    checks = {c["nodeid"].rpartition("::")[2]: c for c in run.report["rules"]["RT-3"]["checks"]}
    judged = [c for c in checks.values() if c["outcome"] == "not judged"]
    ran = [c for c in checks.values() if c["outcome"] == "failed"]
    assert ran and judged, checks
    for check in judged:
        assert check["reason"].startswith("run budget exhausted (1 s of CPU"), check
    assert all(c["outcome"] in ("failed", "not judged", "not covered") for c in checks.values()), checks
    assert "run budget exhausted after" in run.output and "not judged" in run.output


def test_a_finished_run_leaves_its_journal_and_a_complete_report(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    run = run_suite(None, "--sc-rule", "RES-1", "-k", "seed_table")
    assert run.report is not None and run.report["complete"] is True, run.output
    journal = pytester.path / "sc-report.json.jsonl"
    assert run.report["journal"] == journal.name
    records = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [r["record"] for r in records[:2]] == ["run", "expected"]
    assert records[-1]["record"] == "summary" and records[-1]["summary"] == run.report["summary"]
    checks = [r for r in records if r["record"] == "check"]
    assert len(checks) == len(run.report["rules"]["RES-1"]["checks"]) == len(records[1]["checks"])
    assert load_report(pytester.path / "sc-report.json") == run.report  # complete: read as it is


def test_a_run_killed_mid_way_leaves_every_finished_check(tmp_path: Path) -> None:
    """SIGKILL of pytest once some checks have finished: the report written at the start says it is
    incomplete, and read with its journal it holds every check that finished, with its findings."""
    report = tmp_path / "sc-report.json"
    journal = Path(journal_path(report))
    env = {**os.environ, "PYTHONPATH": str(TESTS_DIR)}
    env.pop("STRICTCONFORMANCE_ADAPTER", None)
    words = [sys.executable, "-m", "pytest", "-p", "strictconformance", "-p", "no:cacheprovider", "--sc-adapter",
             "hostile:SpinsInStrictify", "--sc-rule", "RT-3", "-k", "test_rt_3_case", "--sc-call-timeout", "120",
             "--sc-report", str(report), "-q"]
    process = subprocess.Popen(words, cwd=tmp_path, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                               start_new_session=True)
    try:
        deadline = time.monotonic() + 600  # a generous bound for a loaded machine; the wait ends at 3 findings
        failed: list[dict] = []  # type: ignore[type-arg]
        while time.monotonic() < deadline and process.poll() is None:
            if journal.exists():
                lines = journal.read_text().splitlines()
                failed = [r for r in map(json.loads, lines[:-1]) if r["record"] == "check" and r["outcome"] == "failed"]
                if len(failed) >= 3:
                    break
            time.sleep(0.2)
        assert process.poll() is None and len(failed) >= 3, f"the run ended or never reached 3 failed checks: {failed}"
        os.kill(process.pid, signal.SIGKILL)  # pytest itself, as an outer timeout does
    finally:
        process.wait(timeout=60)
        os.killpg(process.pid, signal.SIGKILL)  # its worker too, if the kill of pytest left it running

    assert json.loads(report.read_text())["complete"] is False
    rebuilt = load_report(report)
    assert rebuilt["complete"] is False and "rebuilt from the journal" in rebuilt["incomplete"]
    checks = {c["nodeid"]: c for c in rebuilt["rules"]["RT-3"]["checks"]}
    finished = [r for r in map(json.loads, journal.read_text().splitlines()[:-1]) if r["record"] == "check"]
    assert len(finished) >= 3
    for record in finished:  # every finished check, as it was written
        assert checks[record["nodeid"]]["outcome"] == record["outcome"]
        assert checks[record["nodeid"]]["findings"] == record["findings"]
    assert sum(1 for c in checks.values() if c["outcome"] == "failed") >= 3
    unfinished = [c for c in checks.values() if c["outcome"] == "not run"]
    assert unfinished, "the kill came mid-way: some checks never finished"
    assert rebuilt["rules"]["RT-3"]["outcome"] == "failed"
    assert rebuilt["summary"]["failed"] == 1
    import jsonschema

    jsonschema.validate(rebuilt, load_report_schema())
    markdown = tmp_path / "report.md"  # the command line reads it so too
    assert cli_main(["report", str(report), "--format", "markdown", "--output", str(markdown)]) == 0
    assert "**Incomplete:** the run ended before writing its report" in markdown.read_text()


def test_check_budget_limits_read_from_the_option() -> None:
    base = Limits(cpu=60, examples=5000, calls=50_000)
    assert parse_limits("cpu=1.5, calls=0", base) == Limits(cpu=1.5, examples=5000, calls=0)
    assert parse_limits("", base) == base
    for bad, says in (("cpu", "NAME=VALUE"), ("time=3", "NAME one of cpu, examples, calls"),
                      ("examples=many", "'many' is not a number"), ("cpu=-1", "negative")):
        with pytest.raises(ValueError, match=says):
            parse_limits(bad, base)


def test_a_bad_check_budget_is_a_usage_error(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(None, "--sc-rule", "RES-1", "--sc-check-budget", "seconds=3")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    assert "--sc-check-budget 'seconds=3'" in run.output and "NAME one of cpu, examples, calls" in run.output


class _Harness:
    """What the engine hook reads of the kit's harness fixture: the current check's budget."""

    def __init__(self, budget: CheckBudget) -> None:
        self.budget = budget


def _burn(seconds: float) -> None:
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


def test_an_example_spinning_in_its_value_generator_is_cut_at_its_next_draws() -> None:
    """One example would draw 2,000 values at 10 ms of CPU each (20 s): with a 0.5 s budget the
    engine's run ends within a few dozen draws of the limit, not after the example."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from strictconformance.checkbudget import install

    install()
    start = time.thread_time()
    budget = CheckBudget(Limits(cpu=0.5), lambda: time.thread_time() - start)

    @settings(max_examples=3, database=None, deadline=None, derandomize=True, suppress_health_check=list(HealthCheck))
    @given(values=st.lists(st.integers(0, 10).map(lambda n: (_burn(0.01), n)[1]), min_size=2000, max_size=2000))
    def spins(strictconformance_harness: _Harness, values: list[int]) -> None:
        budget.examples += 1

    with pytest.raises(Exception, match="Unable to satisfy"):  # no example finished: the plugin reports "not judged"
        spins(strictconformance_harness=_Harness(budget))
    assert budget.exhausted == "cpu"
    assert time.thread_time() - start < 5, "the example ran on past its budget"
    assert budget.examples == 0


def test_workers_stop_starting_checks_when_the_run_budget_is_spent_over_all_of_them(tmp_path: Path) -> None:
    """Under xdist each worker sees only its own checks' CPU: the supervising process adds up every
    finished check's and creates a file when the run's budget is spent, which each worker looks for
    before starting a check (even one that spent nothing itself)."""
    from strictconformance.plugin import _ConformanceRun, _State

    flag = tmp_path / "spent"

    def run(budget: float) -> _ConformanceRun:
        state = _State(harness=None, report=None, adapter_path="", profile_arg=[], previous_profile="",  # type: ignore[arg-type]
                       report_path=None, selected_rules=())
        state.run_budget, state.run_budget_flag = budget, str(flag)
        return _ConformanceRun(state, tmp_path)

    controller, worker = run(3.0), run(3.0)
    for cpu in (1.0, 1.0, 0.5):
        controller._count_run_cpu(cpu)
    assert not flag.exists() and not worker._run_budget_spent()
    controller._count_run_cpu(0.5)  # 3.0 s over the run's checks
    assert flag.exists() and worker._run_budget_spent() and controller._run_budget_spent()
    assert worker.state.run_cpu_here == worker.state.run_cpu_reported == 0
    assert not run(0.0)._run_budget_spent()  # 0: no limit, whatever was spent

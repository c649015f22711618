"""A run that cannot report a pass it did not earn (issue 11, item 6): an adapter ending the process,
wedging it in native code or returning a result too big to inspect; a stale report; the seed of a
random run; --collect-only. The hostile adapters are in tests/hostile.py."""

from __future__ import annotations

import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest

from conftest import SuiteRun
from strictconformance.adapter import MAX_RESULT_ELEMENTS, result_problem, result_size_problem
from strictconformance.report import ConformanceReport
from strictconformance.watchdog import describe_call

#: One check of RES-1 (an explicit example, one adapter call): each attack costs one worker at most.
_ONE_CHECK = ("--sc-rule", "RES-1", "-k", "seed_table and false-over-true-openai")
_STALE = {"schema": "strictconformance-report/1", "summary": {"passed": 82}, "rules": {}}


def _checks(run: SuiteRun, rule_id: str = "RES-1") -> list[dict]:  # type: ignore[type-arg]
    assert run.report is not None, run.output
    return list(run.report["rules"][rule_id]["checks"])


def test_os_exit_zero_in_the_adapter_fails_a_run_without_workers(run_suite: Callable[..., SuiteRun]) -> None:
    """-n 0 (and no -n): the checks run in a supervised child, so os._exit(0) costs that child, not
    the verdict: the run exits non-zero and its report says error, never passed."""
    run = run_suite("hostile:ExitsZero", "-n", "0", *_ONE_CHECK, subprocess=True, supervised=True)
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    assert run.outcome("RES-1") == "error"
    assert run.report is not None and run.report["summary"]["passed"] == 0
    [check] = _checks(run)
    assert "died before reporting a result" in check["reason"], check
    assert "strictconformance: checks run in a supervised child process" in run.output


def test_a_stale_report_does_not_survive_a_run_that_never_writes_one(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """In-process (--sc-in-process), os._exit(0) ends pytest with 0 (nothing in the process can stop
    that, which is why checks run in a child by default), but the last run's passing report is gone:
    the report there is the one the run wrote when it started, marked incomplete."""
    monkeypatch.setenv("PYTHONPATH", os.path.dirname(__file__))
    report = pytester.path / "report.json"
    report.write_text(json.dumps(_STALE))
    result = pytester.runpytest_subprocess("-p", "strictconformance", "-p", "no:cacheprovider", "--sc-in-process",
                                           "--sc-adapter", "hostile:ExitsZero", "--sc-report", str(report), *_ONE_CHECK)
    assert result.ret == 0  # the lie this test documents: only the report can stay honest here
    written = json.loads(report.read_text())  # the one the run wrote when it started, never the stale one
    assert written["complete"] is False and written["summary"]["passed"] == 0, written


def test_a_capability_spinning_in_c_with_the_gil_held_is_stopped_and_named(run_suite: Callable[..., SuiteRun]) -> None:
    """A catastrophic regular expression holds the GIL: the in-process call timeout cannot run. The
    supervising process ends the worker after the timeout and a grace period, naming the call."""
    start = time.monotonic()
    run = run_suite("hostile:SpinsHoldingTheGil", "--sc-call-timeout", "1", *_ONE_CHECK, subprocess=True, supervised=True)
    elapsed = time.monotonic() - start
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    [check] = _checks(run)
    assert check["outcome"] == "error"
    assert "stopped by the run-level watchdog: adapter.build_request(" in check["reason"], check
    assert '"name": "f"' in check["reason"] or "ToolsRequest" in check["reason"], check  # its input
    assert "did not return within 1 s (--sc-call-timeout)" in check["reason"]
    assert elapsed < 120, elapsed  # 1 s + 5 s of grace + start-up on a loaded machine; the regex alone runs for ages


def test_a_two_million_element_result_fails_fast_naming_its_size(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("hostile:HugeResult", *_ONE_CHECK)
    assert run.outcome("RES-1") == "failed", run.output
    [check] = _checks(run)
    assert f"returned a result of more than {MAX_RESULT_ELEMENTS:,} elements (one container holds 2,000,000)" in check["findings"][0]["message"]
    assert check["duration_s"] < 30, check  # inspecting it deeply took minutes, at every shrink step


def test_result_size_is_checked_before_the_deep_validation() -> None:
    start = time.monotonic()
    problem = result_problem("encode", list(range(2_000_000)))
    assert problem is not None and "2,000,000" in problem
    assert time.monotonic() - start < 5
    assert result_size_problem([[index] for index in range(MAX_RESULT_ELEMENTS)]) is not None  # many small ones
    assert result_size_problem("x" * 10_000_001) is not None
    assert result_size_problem({"type": "object", "properties": {"a": {"type": "string"}}}) is None

    @dataclass
    class Holder:
        items: list[int]

    assert result_size_problem(Holder(list(range(MAX_RESULT_ELEMENTS + 1)))) is not None
    assert result_size_problem(Holder([1, 2])) is None


def test_the_call_description_is_json_of_the_input_cut_short() -> None:
    @dataclass
    class Request:
        tools: tuple[str, ...]
        betas: frozenset[str]

    text = describe_call("build_request", (Request(("a", "b"), frozenset({"x"})), object()))
    assert text.startswith('adapter.build_request({"__type__": "Request", "tools": ["a", "b"], "betas": ["x"]}, "<object object>"')
    assert len(describe_call("encode", ("x" * 100_000,))) < 4100


def test_the_report_is_written_atomically(tmp_path: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "report.json"  # type: ignore[operator]
    path.write_text("old")
    report = ConformanceReport(adapter={"adapter": "x"}, profile="ci")

    def broken_replace(source: str, target: str) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(OSError, match="disk full"):
        report.write_json(str(path))
    assert path.read_text() == "old"
    assert [p.name for p in path.parent.iterdir()] == ["report.json"]  # no temporary file left
    monkeypatch.undo()
    report.write_json(str(path))
    assert json.loads(path.read_text())["profile"] == "ci"


@pytest.mark.parametrize("supervised", [False, True], ids=["in-process", "supervised"])
def test_a_random_run_records_its_seed_and_replays_with_it(run_suite: Callable[..., SuiteRun], supervised: bool) -> None:
    # supervised (a real run's default): the worker parses the command line again, so it must take
    # the controller's seed from the environment, or the report's seed replays nothing it ran
    run = run_suite("broken_resolution:ConfigBeatsTool", "--sc-profile", "dev", "--sc-rule", "RES-1", "-k", "not seed_table",
                    profile=None, supervised=supervised, subprocess=supervised)
    assert run.report is not None, run.output
    seed = run.report["seed"]
    assert seed is not None and seed.isdigit(), run.report["seed"]
    failures = [check for check in _checks(run) if check.get("findings")]
    assert failures and all(f"--hypothesis-seed={seed}" in check["replay"] for check in failures)
    if supervised:
        return
    derandomized = run_suite(None, "--sc-rule", "RES-13")
    assert derandomized.report is not None and derandomized.report["seed"] is None  # the selftest profile


def test_collect_only_reports_no_rule_as_not_run(pytester: pytest.Pytester) -> None:
    result = pytester.runpytest_subprocess("-p", "strictconformance", "-p", "no:cacheprovider", "--collect-only", "-q",
                                           "--sc-rule", "RES")
    assert result.ret == pytest.ExitCode.OK
    output = result.stdout.str()
    assert "collect only: " in output and "nothing was run" in output
    assert "not run" not in output and "worker died" not in output


def _examples(run: SuiteRun) -> dict[str, tuple[str, int, object]]:
    assert run.report is not None, run.output
    return {check["nodeid"]: (check["outcome"], check["examples"], (check.get("findings") or [{}])[0].get("counterexample"))
            for rule in run.report["rules"].values() for check in rule["checks"] if check["outcome"] != "not run"}


def test_under_ci_a_check_tries_the_same_examples_whatever_n_and_the_selection(
        run_suite: Callable[..., SuiteRun], monkeypatch: pytest.MonkeyPatch) -> None:
    """Each check seeds from its own identity under the derandomized ci profile: what it tries, and
    the counterexample it reports, do not depend on -n, on the other checks selected or their order
    (issue 11 named DR-3, DR-4 and DR-6 among those that did)."""
    monkeypatch.setenv("CI", "true")
    rules = ("--sc-rule", "RES-1,DR-3,DR-6")
    alone = run_suite("broken_resolution:ConfigBeatsTool", *rules, profile=None, subprocess=True)
    spread = run_suite("broken_resolution:ConfigBeatsTool", *rules, "-n", "2", "-p", "no:randomly", profile=None, subprocess=True)
    one = run_suite("broken_resolution:ConfigBeatsTool", "--sc-rule", "RES-1", "-k", "tool_beats_config", profile=None,
                    subprocess=True)
    assert _examples(alone) == _examples(spread)
    [(nodeid, single)] = _examples(one).items()
    assert single == _examples(alone)[nodeid] and single[0] == "failed" and single[2] is not None

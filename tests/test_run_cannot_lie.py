"""A run that cannot report a pass it did not earn (issue 11, item 6): an adapter ending the process,
wedging it in native code or returning a result too big to inspect; a stale report; the seed of a
random run; --collect-only. The hostile adapters are in tests/hostile.py."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

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


@pytest.mark.slow
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
    cycle: list[Any] = [1]
    cycle.append(cycle)
    assert result_size_problem(cycle) is None  # counted once: the capability's own check names it


@settings(max_examples=300, deadline=None)
@given(st.recursive(st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=3),
                    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(st.text(max_size=2), inner, max_size=5)
                    | st.tuples(inner, inner)),
       st.integers(1, 60))
def test_the_quick_count_of_plain_json_agrees_with_the_exact_walk(value: Any, limit: int) -> None:
    """result_size_problem answers plain JSON with a quick count, and anything else (or a count
    past the limit) with its exact walk: both must give one answer for every value and limit."""
    from strictconformance import adapter

    quick = adapter._plain_json_within(value, limit)
    walked = _exact_size_problem(value, limit)
    assert (result_size_problem(value, limit=limit) is None) == (walked is None)
    if quick:
        assert walked is None, (value, limit)


def _exact_size_problem(value: Any, limit: int) -> str | None:
    from unittest import mock

    from strictconformance import adapter

    with mock.patch.object(adapter, "_plain_json_within", return_value=False):
        return adapter.result_size_problem(value, limit=limit)


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
    assert failures and all(f"--sc-seed={seed}" in check["replay"] for check in failures)
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


@pytest.mark.slow
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


# -- an adapter call that damages the process's state: a fault of that check, the state restored ------

@pytest.mark.parametrize(
    ("adapter", "named"),
    [
        ("hostile:LowersRecursionLimit", "sys.setrecursionlimit(60) (it was "),
        ("hostile:LowersRecursionLimitAndRunsOn", "sys.setrecursionlimit(60) (it was "),
        ("hostile:ReplacesStdout", "replaced sys.stdout"),
        ("hostile:ClosesStdout", "closed sys.stdout (the suite kept it open)"),
        ("hostile:ChangesDirectory", "os.chdir("),
        ("hostile:SlowsThreadSwitching", "sys.setswitchinterval(0.5) (it was "),
    ],
    ids=["recursion-limit", "recursion-limit-while-the-call-runs", "stdout-replaced", "stdout-closed", "chdir", "switch-interval"],
)
@pytest.mark.slow
def test_an_adapter_that_changes_the_process_state_fails_its_check_by_name(
        run_suite: Callable[..., SuiteRun], adapter: str, named: str) -> None:
    """sys.setrecursionlimit(60) in an adapter call used to end the run in hundreds of INTERNALERROR
    lines (exit 3, no report): the state is process-wide, pytest and Hypothesis run under it too. Each
    change is restored after the call and reported as a fault of the check that made it, in a run
    that goes on (a supervised child, as a real run; a subprocess, so this session is not damaged)."""
    run = run_suite(adapter, "--sc-rule", "RES-1", subprocess=True, supervised=True)
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    assert "INTERNALERROR" not in run.output
    assert "strictconformance report" in run.output  # the terminal report is there
    assert run.outcome("RES-1") == "failed"
    messages = [finding["message"] for check in _checks(run) for finding in check.get("findings") or []]
    assert messages, run.output
    assert all("changed the state of the whole Python process" in message and named in message for message in messages), messages
    assert all(check["outcome"] == "failed" for check in _checks(run)), _checks(run)  # every check ran, none errored


def test_the_state_guard_restores_in_process(run_suite: Callable[..., SuiteRun]) -> None:
    """In-process (--sc-in-process) the checks share this very process: after the run, the working
    directory and the recursion limit of the test session are what they were."""
    limit, cwd = sys.getrecursionlimit(), os.getcwd()
    run = run_suite("hostile:ChangesDirectory", *_ONE_CHECK)
    assert run.outcome("RES-1") == "failed", run.output
    assert (sys.getrecursionlimit(), os.getcwd()) == (limit, cwd)


_HARNESS = os.path.join(os.path.dirname(__file__), "harnesses", "python_harness.py")


@pytest.mark.parametrize(
    ("args", "named"),
    [
        (("--sc-adapter", "hostile:InitRaises"), "RuntimeError: no client"),
        (("--sc-adapter-cmd", f"{sys.executable} {_HARNESS} bad-handshake"), "started message breaks"),
        (("--sc-adapter", "hostile:DeclaresNothing"), "must declare strict_defaults"),
    ],
    ids=["adapter-init-raises", "harness-handshake-fails", "bad-declarations"],
)
def test_a_usage_error_removes_the_reports_of_an_earlier_run(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch,
                                                            args: tuple[str, ...], named: str) -> None:
    """The last run's passing report (JSON and Markdown) must not survive a run that stops before
    writing its own: a CI step uploading the report `if: always()` would publish it as this run's."""
    monkeypatch.setenv("PYTHONPATH", os.path.dirname(__file__))
    monkeypatch.syspath_prepend(os.path.dirname(__file__))
    report, markdown = pytester.path / "report.json", pytester.path / "report.md"
    report.write_text(json.dumps(_STALE))
    markdown.write_text("# strictconformance: 82 passed\n")
    result = pytester.runpytest_inprocess("-p", "strictconformance", "-p", "no:cacheprovider", *args,
                                          "--sc-report", str(report), "--sc-markdown", str(markdown), *_ONE_CHECK)
    assert result.ret == pytest.ExitCode.USAGE_ERROR, result.outlines + result.errlines
    assert named in "\n".join(result.outlines + result.errlines)
    assert not report.exists() and not markdown.exists()


# -- a run that judged nothing is not a pass ------------------------------------------------------

_BOOLEAN_ONLY = """
from strictconformance import Adapter
from strictconformance.reference.resolution import REFERENCE_DEFAULTS, build_tools_request

class BooleanOnly(Adapter):
    strict_defaults = REFERENCE_DEFAULTS

    def build_request(self, request):
        return build_tools_request(request)
"""


def test_a_run_in_which_nothing_was_judged_fails_saying_why(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """Every selected check not covered (the adapter lacks plan_request()): exit 1 and a line saying
    that nothing was judged; --sc-allow-empty accepts it; a run with one judged rule is unaffected."""
    pytester.makepyfile(boolean_only=_BOOLEAN_ONLY)
    empty = run_suite("boolean_only:BooleanOnly", "--sc-rule", "RES-10,RES-11")
    assert empty.result.ret == pytest.ExitCode.TESTS_FAILED, empty.output
    assert empty.rules_with("not covered") == {"RES-10", "RES-11"}
    assert "ERROR: nothing was judged: none of the " in empty.output and "not covered" in empty.output
    assert "pass --sc-allow-empty for a run that means it" in empty.output
    allowed = run_suite("boolean_only:BooleanOnly", "--sc-rule", "RES-10,RES-11", "--sc-allow-empty")
    assert allowed.result.ret == pytest.ExitCode.OK, allowed.output
    assert "(accepted: --sc-allow-empty)" in allowed.output
    mixed = run_suite("boolean_only:BooleanOnly", "--sc-rule", "RES-10,RES-2")
    assert mixed.result.ret == pytest.ExitCode.OK, mixed.output
    assert mixed.rules_with("passed") == {"RES-2"} and "nothing was judged" not in mixed.output


def test_a_run_whose_strictify_refused_every_schema_fails(run_suite: Callable[..., SuiteRun]) -> None:
    """Every selected rule "not judged" (strictify refused every input): not a pass either."""
    from strictconformance import checks

    rt_checks = os.path.join(os.path.dirname(checks.__file__), "test_roundtrip.py")
    run = run_suite("broken_verdict_adapters:RefusesEverything", "--sc-rule", "RT-1", ".", rt_checks, "-k", "output_obeys")
    assert run.rules_with("not judged") == {"RT-1"}, run.output
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    assert "ERROR: nothing was judged" in run.output and "not judged" in run.output

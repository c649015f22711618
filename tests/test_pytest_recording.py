"""The plugin beside pytest-recording, which projects that record HTTP with vcrpy often have:
both load at once, with no option clash, and the suite runs under its network block."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from conftest import SuiteRun

pytest.importorskip("pytest_recording", reason="pytest-recording is in the test extra: pip install -e '.[test]'")


def test_the_suite_runs_with_pytest_recording_loaded(run_suite: Callable[..., SuiteRun]) -> None:
    """pytest-recording's own options are accepted in the same run (an option registered twice
    would stop pytest at start-up), and DR-1 replays every shipped cassette with the network
    blocked: the suite never needs it."""
    run = run_suite(None, "--sc-rule", "DR-1", "--record-mode=none", "--block-network", subprocess=True)
    assert run.result.ret == 0, run.output
    assert run.rules_with("passed") == {"DR-1"}, run.output
    # the options above really are pytest-recording's: without it they are unknown
    without = run_suite(None, "-p", "no:recording", "--sc-rule", "DR-1", "--record-mode=none", subprocess=True)
    assert without.result.ret == pytest.ExitCode.USAGE_ERROR, without.output
    assert "--record-mode" in without.output

"""A random run remembers: the `dev` and `nightly` profiles keep Hypothesis's example database
(`.hypothesis/examples` where the run starts) and replay a saved failure first, while the run
still has a seed of its own that the report records and every replay names (`--sc-seed`). The
`ci` profile stays derandomized and neither reads nor writes the database.

Hypothesis keeps no database when its global seed is forced (`--hypothesis-seed`), so the kit
never forces it: each check draws from a seed derived from the run's seed and its name.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from conftest import SuiteRun
from strictconformance.profiles import check_seed

#: A random check ConfigBeatsTool fails (config strict overrides the tool's own): the first
#: failing draw and its shrinking take dozens of examples; a replayed minimal failure, a couple.
_FAILING = "broken_resolution:ConfigBeatsTool"
_CHECK = "test_res_1_tool_beats_config_beats_default"
_ONE_CHECK = ("--sc-rule", "RES-1", "-k", "tool_beats_config")
#: "A handful": the replay from the database plus what the shrinker tries on the minimal example it
#: replayed (4 to 8 over 12 runs of these tests); a search from scratch took 50 to 115.
_REPLAYED_WITHIN = 12


@pytest.fixture(autouse=True)
def _own_storage(monkeypatch: pytest.MonkeyPatch) -> None:
    # the database must land in each run's own directory, not where an outer setting points
    monkeypatch.delenv("HYPOTHESIS_STORAGE_DIRECTORY", raising=False)
    monkeypatch.delenv("STRICTCONFORMANCE_RUN_SEED", raising=False)


def _result(run: SuiteRun) -> dict[str, Any]:
    assert run.report is not None, run.output
    [check] = [c for c in run.report["rules"]["RES-1"]["checks"] if c["nodeid"].endswith(_CHECK)]
    return dict(check)


def _database(directory: Path) -> dict[str, bytes]:
    folder = directory / ".hypothesis" / "examples"
    return {str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _dev(run_suite: Callable[..., SuiteRun], adapter: str = _FAILING, *args: str, supervised: bool = False) -> SuiteRun:
    # supervised: the child process of a user's run (an xdist worker) writes the database
    return run_suite(adapter, "--sc-profile", "dev", *_ONE_CHECK, *args, profile=None, supervised=supervised,
                     subprocess=supervised)


def test_a_failure_found_in_dev_is_replayed_first_by_the_next_run(run_suite: Callable[..., SuiteRun],
                                                                   pytester: pytest.Pytester) -> None:
    first = _dev(run_suite, supervised=True)
    found = _result(first)
    assert found["outcome"] == "failed", first.output
    assert _database(pytester.path), "the first run saved nothing in .hypothesis/examples"

    second = _dev(run_suite, supervised=True)
    replayed = _result(second)
    assert second.report is not None and first.report is not None
    assert second.report["seed"] != first.report["seed"]  # not the seed: the database found it again
    assert replayed["outcome"] == "failed"
    assert replayed["examples"] <= min(_REPLAYED_WITHIN, found["examples"] - 1), (
        f"the second run needed {replayed['examples']} examples (the first {found['examples']}): "
        "the saved failure was not tried first")
    assert replayed["findings"][0]["counterexample"] == found["findings"][0]["counterexample"]
    assert f"--sc-seed={second.report['seed']}" in replayed["replay"]


def test_the_seed_alone_replays_a_random_run(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """Without the database (a fresh directory), --sc-seed tries what the recorded run tried."""
    first = _dev(run_suite, _FAILING, "--sc-seed", "20261128")
    found = _result(first)
    assert first.report is not None and first.report["seed"] == "20261128"
    assert found["outcome"] == "failed" and "--sc-seed=20261128" in found["replay"]
    for path in sorted((pytester.path / ".hypothesis").rglob("*"), reverse=True):
        path.unlink() if path.is_file() else path.rmdir()
    again = _result(_dev(run_suite, _FAILING, "--sc-seed", "20261128"))
    assert (again["examples"], again["findings"][0]["counterexample"]) == (found["examples"], found["findings"][0]["counterexample"])


def test_another_adapter_does_not_erase_a_saved_failure(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """Hypothesis deletes a saved example that no longer fails: a run of an adapter that passes it
    must not be the one to decide, so each adapter keeps its own examples."""
    found = _result(_dev(run_suite))
    assert found["outcome"] == "failed"
    saved = _database(pytester.path)
    assert _result(_dev(run_suite, "strictconformance.reference:ReferenceAdapter"))["outcome"] == "passed"
    assert set(saved) <= set(_database(pytester.path)), "the passing adapter's run deleted the failing adapter's examples"
    replayed = _result(_dev(run_suite))
    assert replayed["outcome"] == "failed"
    assert replayed["examples"] <= min(_REPLAYED_WITHIN, found["examples"] - 1), (replayed["examples"], found["examples"])
    assert replayed["findings"][0]["counterexample"] == found["findings"][0]["counterexample"]


def test_the_ci_profile_neither_reads_nor_writes_the_database(run_suite: Callable[..., SuiteRun],
                                                               pytester: pytest.Pytester,
                                                               monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("CI", "true")
    fresh = _result(run_suite(_FAILING, *_ONE_CHECK, profile=None))
    assert fresh["outcome"] == "failed"
    assert not _database(pytester.path), "a ci run wrote to the example database"

    monkeypatch.delenv("CI")
    _dev(run_suite)  # a dev run leaves the failure in the database
    saved = _database(pytester.path)
    assert saved
    monkeypatch.setenv("CI", "true")
    run = run_suite(_FAILING, *_ONE_CHECK, profile=None)
    assert run.report is not None and run.report["profile"] == "ci" and run.report["seed"] is None
    again = _result(run)
    # the same examples as in a directory without a database, and the database untouched
    assert (again["examples"], again["findings"][0]["counterexample"]) == (fresh["examples"], fresh["findings"][0]["counterexample"])
    assert _database(pytester.path) == saved
    assert "--sc-seed" not in again["replay"]


@pytest.mark.parametrize(("args", "message"), [
    (("--sc-profile", "ci", "--sc-seed", "7"), "--sc-seed seeds a random profile"),
    (("--sc-profile", "dev", "--sc-seed", "7", "--hypothesis-seed", "7"), "give --sc-seed or --hypothesis-seed, not both"),
])
def test_a_seed_that_cannot_apply_is_a_usage_error(pytester: pytest.Pytester, args: tuple[str, ...], message: str) -> None:
    result = pytester.runpytest_subprocess("-p", "strictconformance", "-p", "no:cacheprovider", "--sc-rule", "RES-1", *args)
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    assert message in result.stderr.str()


def test_a_check_seed_depends_on_the_run_seed_and_the_check_alone() -> None:
    assert check_seed(1, "test_resolution::a") == check_seed(1, "test_resolution::a")
    assert len({check_seed(1, "test_resolution::a"), check_seed(2, "test_resolution::a"),
                check_seed(1, "test_resolution::b")}) == 3

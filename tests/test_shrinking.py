"""The ci shrink budget (strictconformance.shrinking): a kit check shrinks each finding within a
number of calls, never a number of seconds; other tests shrink as Hypothesis does."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException

from conftest import SuiteRun
from strictconformance import shrinking
from strictconformance.profiles import register_profiles


@pytest.fixture
def ci_profile() -> Iterator[None]:
    previous = settings.get_current_profile_name()
    register_profiles()
    settings.load_profile("ci")
    shrinking.install()
    yield
    settings.load_profile(previous)


def _calls_of_failing_test(*, kit_check: bool) -> tuple[int, list[int]]:
    """Calls of a test whose failure takes many shrinks to minimise, and its reported example."""
    calls = 0
    seen: list[list[int]] = []

    @settings(max_examples=30)
    @given(st.lists(st.integers(0, 10_000), min_size=5, max_size=60))
    def failing(values: list[int]) -> None:
        nonlocal calls
        calls += 1
        seen.append(values)
        if sum(values) > 20_000:
            raise ValueError("too big")

    if kit_check:
        failing.hypothesis.inner_test.strictconformance_check = True  # type: ignore[attr-defined]
    with pytest.raises((ValueError, HypothesisException)):
        failing()
    return calls, seen[-1]


def test_a_kit_check_under_ci_shrinks_within_the_budget(ci_profile: None) -> None:
    plain_calls, _ = _calls_of_failing_test(kit_check=False)
    budgeted_calls, example = _calls_of_failing_test(kit_check=True)
    # 30 generated examples at most, one finding shrunk for CALLS_PER_FINDING calls, its replays
    assert budgeted_calls <= 30 + shrinking.CALLS_PER_FINDING + 5
    assert plain_calls > budgeted_calls, "the unbudgeted shrink should need more calls than the budget"
    assert sum(example) > 20_000  # still a failing example
    # deterministic: the same calls and the same counterexample again
    assert _calls_of_failing_test(kit_check=True) == (budgeted_calls, example)


def test_a_kit_check_looks_for_further_bugs_by_calls_not_seconds() -> None:
    """Hypothesis stops looking for further distinct bugs once its first is ten seconds old; on a
    busy machine a check then reported two of an adapter's three bugs. For a kit check only the
    call-count limits end that search: a runner whose first bug is an hour old goes on generating
    when it is a kit check, and stops when it is not (Hypothesis's own rule, left alone)."""
    import time
    from types import SimpleNamespace

    from hypothesis import Phase
    from hypothesis.internal.conjecture.engine import ConjectureRunner

    shrinking.install()

    def runner(*, kit_check: bool) -> object:
        test = SimpleNamespace(**({shrinking.MARK: True} if kit_check else {}))
        state = SimpleNamespace(test=test)
        fake = SimpleNamespace(
            settings=SimpleNamespace(max_examples=100, phases=tuple(Phase), report_multiple_bugs=True),
            valid_test_cases=20, invalid_test_cases=0, overrun_test_cases=0, call_count=20,
            interesting_test_cases={"first": object()}, first_bug_found_at=10, last_bug_found_at=15,
            first_bug_found_time=time.monotonic() - 3600,  # found an hour ago (a slow, loaded machine)
            _ConjectureRunner__tree_is_exhausted=lambda: False,
            _test_function=SimpleNamespace(__self__=state),
        )
        return fake

    assert ConjectureRunner.should_generate_more(runner(kit_check=True)) is True  # type: ignore[arg-type]
    assert ConjectureRunner.should_generate_more(runner(kit_check=False)) is False  # type: ignore[arg-type]


_BENDS = '''
from strictconformance.reference import ReferenceAdapter


def _bent(value):
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value + 1000
    if isinstance(value, str):
        return value + "!!!!!!!!!!!!"
    if isinstance(value, list):
        return [_bent(item) for item in value] + [None]
    if isinstance(value, dict):
        return {key: _bent(item) for key, item in value.items()}
    return value


class BendsEveryValue(ReferenceAdapter):
    """Decodes every value a little wrong: in each example of RT-5's trap loop several traps fail,
    their findings of two defects in combinations that change from example to example."""

    strictify_dialects = ("openai",)

    def decode(self, schema, dialect, value):
        return _bent(super().decode(schema, dialect, value))
'''


def test_a_trap_loop_shrinks_what_is_new_not_every_combination(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """Each example of the trap loop raises a group of its traps' findings, and Hypothesis tells a
    group apart by its members: every combination of findings was a failure of its own, shrunk for
    its own calls, each call a whole loop (eight shrinks and 1,319 calls of this check; 2,356 calls
    on google-genai's from_json_schema, a minute of CPU). A failure whose findings were all in a
    failure shrunk before now keeps its example: the same findings, each from the smallest example
    showing it, in fewer calls. Counted, never timed: the same on any machine."""
    from hypothesis.internal.conjecture.shrinker import Shrinker

    pytester.makepyfile(bends=_BENDS)
    shrinks: list[object] = []
    shrink = Shrinker.shrink

    def counted(self: Shrinker) -> None:
        shrinks.append(self.shrink_target)
        shrink(self)

    monkeypatch.setattr(Shrinker, "shrink", counted)
    run = run_suite("bends:BendsEveryValue", "--sc-rule", "RT-5", "-k", "test_rt_5_traps", "--sc-profile", "ci", profile=None)
    assert run.report is not None, run.output
    [check] = [c for c in run.report["rules"]["RT-5"]["checks"] if c["nodeid"].endswith("test_rt_5_traps[openai]")]
    assert check["outcome"] == "failed", check
    assert {defect["title"] for defect in run.report["defects"]} == {
        "strict output drops a constraint of the original (RT-5): values it forbids are accepted",
        "a valid value decoded breaks `type` (RT-5)"}, run.report["defects"]
    # each trap's finding, once, from its smallest example (Hypothesis lists the largest first)
    keys = [finding["key"] for finding in check["findings"]]
    assert len(keys) == len(set(keys)) >= 8, keys
    assert all(finding["key"].endswith(f"(trap {finding['counterexample']['trap']})") for finding in check["findings"])
    [any_of] = [f for f in check["findings"] if f["counterexample"]["trap"] == "anyof-root"]
    assert any_of["counterexample"]["wire"] == {"result": {"kind": "a"}}, any_of["counterexample"]
    [pattern] = [f for f in check["findings"] if f["counterexample"]["trap"] == "object-under-pattern-properties"]
    assert pattern["counterexample"]["wire"] == {"headers": [{"key": "x-", "value": {"value": "", "sensitive": False}}]}, pattern
    # a shrink for a failure showing a finding no shrunk one showed: four, where every combination
    # was shrunk eight times (1,319 calls of the check; 770 now)
    assert len(shrinks) <= 4, len(shrinks)

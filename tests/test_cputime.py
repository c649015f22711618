"""Call timeouts count CPU time, not a busy machine's clock: on a shared runner a correct call that
gets a sixth of a core is not a hang (it was, and every later call of the capability then failed
as hung), while a call that spins is stopped after its timeout and one that blocks after
WALL_FACTOR times it."""

from __future__ import annotations

import time
from collections.abc import Callable

import pytest

from strictconformance.cputime import (
    WALL_FACTOR,
    CallBudget,
    process_cpu_seconds,
    thread_cpu_reader,
)


class _Clock:
    def __init__(self) -> None:
        self.wall = 0.0
        self.cpu = 0.0


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> _Clock:
    fake = _Clock()
    monkeypatch.setattr("strictconformance.cputime.time.monotonic", lambda: fake.wall)
    return fake


def test_a_starved_call_is_not_stopped_a_spinning_one_is(clock: _Clock) -> None:
    starved = CallBudget(10.0, lambda: clock.cpu)
    clock.wall, clock.cpu = 30.0, 3.0  # three times the timeout on the clock, 3 s of CPU: a busy machine
    assert not starved.expired()
    clock.wall, clock.cpu = 10.0 * WALL_FACTOR, 3.5  # but not forever: blocked, or starved beyond reason
    assert starved.expired()

    clock.wall, clock.cpu = 0.0, 0.0
    spinning = CallBudget(10.0, lambda: clock.cpu)
    clock.wall, clock.cpu = 9.9, 9.9
    assert not spinning.expired()
    clock.wall, clock.cpu = 10.1, 10.05
    assert spinning.expired()


def test_without_a_cpu_clock_the_wall_clock_decides(clock: _Clock) -> None:
    for reader in (None, lambda: None):
        budget = CallBudget(2.0, reader)
        clock.wall = 1.9
        assert not budget.expired()
        clock.wall = 2.0
        assert budget.expired()
        clock.wall = 0.0


def test_cpu_readers_measure_real_cpu() -> None:
    import os
    import threading

    reader = thread_cpu_reader()
    if reader is None:
        pytest.skip("no per-thread CPU clock on this platform")
    seen: dict[str, float] = {}

    def spin_then_sleep(read: Callable[[], float]) -> None:
        begin = read()
        end = time.process_time() + 0.2
        while time.process_time() < end:
            pass
        seen["spun"] = read() - begin
        begin = read()
        time.sleep(0.3)
        seen["slept"] = read() - begin

    worker = threading.Thread(target=lambda: spin_then_sleep(thread_cpu_reader()))  # type: ignore[arg-type]
    worker.start()
    worker.join(60)
    assert seen["spun"] >= 0.1 and seen["slept"] < 0.1, seen
    mine = process_cpu_seconds(os.getpid())
    if mine is not None:
        assert mine > 0 and abs(mine - time.process_time()) < 1.0


_SLOW_THEN_HANGS = """
import time
from strictconformance.reference import ReferenceAdapter

class Slow(ReferenceAdapter):
    slept = False

    def strict_support(self, model):
        if not Slow.slept:  # once: no CPU, as a call starved on a busy machine, longer than the timeout
            Slow.slept = True
            time.sleep(1.5)
        return super().strict_support(model)
"""


def test_a_slow_call_that_uses_little_cpu_is_not_a_hang(run_suite: Callable[..., object],
                                                        pytester: pytest.Pytester) -> None:
    """The call takes 1.5 s of clock and almost no CPU with a 1 s timeout: on a busy machine that is
    a correct call, and it passes (with the clock alone it failed as a hang)."""
    pytester.makepyfile(slow=_SLOW_THEN_HANGS)
    run = run_suite("slow:Slow", "--sc-rule", "RES-13", "--sc-call-timeout", "1")
    assert run.report is not None, run.output  # type: ignore[attr-defined]
    outcome = run.report["rules"]["RES-13"]["outcome"]  # type: ignore[attr-defined]
    assert outcome in ("passed", "not covered"), run.output  # type: ignore[attr-defined]
    assert "did not return within" not in run.output  # type: ignore[attr-defined]

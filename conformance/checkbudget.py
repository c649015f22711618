"""What one check, and one run, may spend: examples, adapter calls and CPU seconds.

Each profile sets a check's limits (:data:`strictconformance.profiles.CHECK_LIMITS`; the
``--sc-check-budget`` option overrides them). A check that reaches one ends with what it has: the
findings it found so far (their counterexamples as far as they were shrunk; a finding whose
shrinking was cut says so) and "budget exhausted after N examples" in the report. Never a run
killed from outside with no report at all.

How a Hypothesis check is stopped: Hypothesis's engine asks :func:`install`'s wrapper before each
example; once a limit is reached the engine ends its run there (generation or shrinking alike) and
reports the failures it found, each with the smallest example found for it so far. An example
running when a limit is reached is discarded at its next draw or adapter call, so one slow example
(a value generator spinning on an SDK's output) cannot hold the check past its budget either. An
adapter call itself is never cut: ``--sc-call-timeout`` bounds it. The examples that Hypothesis
replays to report its failures are never cut (a failure must reproduce to be reported). A check
without Hypothesis (a loop over fixed cases) stops between cases.

CPU is counted, not the clock, so a busy machine reaches a limit no sooner than an idle one: the
CPU of the thread running the check plus that of the adapter's calls (their thread in this
process, or a harness process's own CPU).

The run's limit (``--sc-run-budget``, CPU seconds over all checks) is kept by the plugin: a check
that has not started when it is reached is reported "not judged: run budget exhausted".
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import pytest

__all__ = ["LIMIT_NAMES", "CheckBudget", "Limits", "RunBudgetExhausted", "install", "parse_limits"]

#: The limits a check has, by the names the option and the report use.
LIMIT_NAMES = ("cpu", "examples", "calls")

#: A Hypothesis draw asks the budget once in this many draws (reading a CPU clock is a system call).
_DRAWS_PER_LOOK = 16


class RunBudgetExhausted(pytest.skip.Exception):  # type: ignore[misc,name-defined]
    """A check not started because the run's budget is spent: reported "not judged"."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


@dataclass(frozen=True)
class Limits:
    """A check's limits; 0 is no limit."""

    cpu: float = 0.0  # CPU seconds
    examples: int = 0  # examples run (generated, shrunk or replayed)
    calls: int = 0  # adapter calls

    def as_json(self) -> dict[str, float | int]:
        return {"cpu_s": self.cpu, "examples": self.examples, "calls": self.calls}


def parse_limits(text: str, base: Limits) -> Limits:
    """``base`` with the limits ``text`` names (``cpu=30,examples=2000,calls=0``); a clear error
    for anything else."""
    changes: dict[str, Any] = {}
    for part in (piece.strip() for piece in text.split(",")):
        if not part:
            continue
        name, sep, value = part.partition("=")
        name = name.strip()
        if not sep or name not in LIMIT_NAMES:
            raise ValueError(f"a check budget is NAME=VALUE pairs, NAME one of {', '.join(LIMIT_NAMES)} "
                             f"(e.g. cpu=30,examples=2000); got {part!r}")
        try:
            number = float(value) if name == "cpu" else int(value)
        except ValueError:
            raise ValueError(f"check budget {name}: {value.strip()!r} is not a number") from None
        if number < 0:
            raise ValueError(f"check budget {name}: {value.strip()} is negative (0 means no limit)")
        changes[name] = number
    return dataclasses.replace(base, **changes)


class CheckBudget:
    """One check's spending against its :class:`Limits`.

    ``cpu`` reads the CPU seconds the check has used so far (the harness gives it). Once a limit is
    reached the budget stays exhausted (:attr:`exhausted`), even if a later reading would differ.
    """

    def __init__(self, limits: Limits, cpu: Callable[[], float]) -> None:
        self.limits = limits
        self._cpu = cpu
        self.examples = 0
        self.calls = 0
        self.exhausted: str | None = None  # which limit was reached: "cpu", "examples" or "calls"
        self.examples_at_exhaustion = 0
        self.cpu_at_exhaustion = 0.0
        #: the defects (``harness.identity_of``) whose counterexample was not fully shrunk when the
        #: budget ran out; once the check is reported, the keys of their findings
        self.unshrunk: set[str] = set()
        #: while Hypothesis's engine runs an example it may discard (not a replay of a failure)
        self.interruptible = False
        self._data: Any = None  # that example's ConjectureData
        self._draws = 0
        self._cpu_final: float | None = None
        #: in a check without Hypothesis: the fixed cases judged before the budget ran out
        self.cases_judged: int | None = None

    def cpu_seconds(self) -> float:
        return self._cpu_final if self._cpu_final is not None else self._cpu()

    def finish(self) -> None:
        """The check ended: its CPU figure is fixed."""
        if self._cpu_final is None:
            self._cpu_final = self._cpu()

    def reached(self) -> str | None:
        """The limit reached (sticky), or None."""
        if self.exhausted is None:
            limits = self.limits
            if limits.examples and self.examples >= limits.examples:
                self.exhausted = "examples"
            elif limits.calls and self.calls >= limits.calls:
                self.exhausted = "calls"
            elif limits.cpu and self.cpu_seconds() >= limits.cpu:
                self.exhausted = "cpu"
            if self.exhausted is not None:
                self.examples_at_exhaustion = self.examples
                self.cpu_at_exhaustion = self.cpu_seconds()
        return self.exhausted

    def checkpoint(self) -> bool:
        """Called between the steps of a check (an adapter call, a fixed case). Inside an example
        Hypothesis may discard, a reached limit discards it now (Hypothesis's engine then ends the
        run before the next); elsewhere, True tells the caller to stop."""
        if self.reached() is None:
            return False
        if self.interruptible and self._data is not None:
            self._data.mark_invalid("strictconformance: the check's budget ran out")
        return True

    def note(self) -> str:
        """``budget exhausted after N examples (what ran out)``, for the report."""
        spent = {"cpu": f"{self.cpu_at_exhaustion:.1f} s of CPU, limit {self.limits.cpu:g} s",
                 "examples": f"{self.examples} examples run, limit {self.limits.examples}",
                 "calls": f"{self.calls} adapter calls, limit {self.limits.calls}"}[self.exhausted or "cpu"]
        count, what = self.examples_at_exhaustion, "example"
        if self.cases_judged is not None:
            count, what = self.cases_judged, "fixed case"
        return f"budget exhausted after {count} {what}{'' if count == 1 else 's'} ({spent})"

    def as_json(self) -> dict[str, Any]:
        """The check's ``budget`` field of the report (only written when a limit was reached)."""
        data: dict[str, Any] = {"exhausted": self.exhausted, "after_examples": self.examples_at_exhaustion,
                                "note": self.note(), "limits": self.limits.as_json(),
                                "spent": {"cpu_s": round(self.cpu_seconds(), 3), "examples": self.examples, "calls": self.calls}}
        if self.cases_judged is not None:
            data["after_cases"] = self.cases_judged
        if self.unshrunk:
            data["unshrunk"] = sorted(self.unshrunk)
        return data


# -- Hypothesis's engine ------------------------------------------------------------------------

#: Set on Hypothesis's engine class once it is wrapped: a flag on the class, not in this module, so a
#: Hypothesis imported afresh (pytester's in-process runs drop the modules a run imported) is wrapped too.
_WRAPPED = "_strictconformance_check_budget"


def _budget_of(runner: Any) -> CheckBudget | None:
    """The budget of the kit check ``runner`` runs (its harness fixture's), or None."""
    cached = runner.__dict__.get("_strictconformance_budget", False)
    if cached is not False:
        return cached  # type: ignore[no-any-return]
    state = getattr(runner._test_function, "__self__", None)  # StateForActualGivenExecution
    kwargs = getattr(getattr(state, "stuff", None), "kwargs", None) or {}
    harness = kwargs.get("strictconformance_harness") if isinstance(kwargs, Mapping) else None
    budget = getattr(harness, "budget", None)
    budget = budget if isinstance(budget, CheckBudget) else None
    runner._strictconformance_budget = budget
    return budget


def _stop(runner: Any, budget: CheckBudget) -> None:
    """End the engine's run: the failures found so far are reported, shrunk as far as they got."""
    from hypothesis import Phase
    from hypothesis.internal.conjecture.engine import ExitReason, RunIsComplete

    from strictconformance.shrinking import finding_keys

    if Phase.shrink in runner.settings.phases:
        shrunk = set(runner.shrunk_test_cases)
        done = set().union(*(finding_keys(origin) for origin in shrunk)) if shrunk else set()
        for origin in runner.interesting_test_cases:
            if origin not in shrunk:
                budget.unshrunk |= finding_keys(origin) - done
    runner.statistics["stopped-because"] = f"the strictconformance check budget ran out: {budget.note()}"
    runner.exit_reason = ExitReason.max_examples
    raise RunIsComplete


def install() -> None:
    """Wrap Hypothesis's engine once: a kit check's run ends when its budget is reached."""
    from hypothesis.internal.conjecture import engine
    from hypothesis.internal.conjecture.data import ConjectureData

    runner_type = engine.ConjectureRunner
    if runner_type.__dict__.get(_WRAPPED):
        return
    test_function = runner_type.test_function
    shrink_cases = runner_type.shrink_interesting_test_cases
    shrink = runner_type.shrink

    def budgeted_test_function(self: Any, data: Any) -> None:
        budget = _budget_of(self)
        if budget is None or self.ignore_limits:
            test_function(self, data)
            return
        if budget.reached() is not None:
            _stop(self, budget)
        # the replays that open the shrink phase must reproduce their failure: never discarded
        replaying = self.__dict__.get("_strictconformance_replaying", False)
        budget.interruptible, budget._data = not replaying, data
        data._strictconformance_budget = budget
        try:
            test_function(self, data)
        finally:
            budget.interruptible, budget._data = False, None

    def budgeted_shrink_cases(self: Any) -> None:
        self._strictconformance_replaying = True  # until the first shrink
        try:
            shrink_cases(self)
        finally:
            self._strictconformance_replaying = False

    def budgeted_shrink(self: Any, *args: Any, **kwargs: Any) -> Any:
        self._strictconformance_replaying = False
        return shrink(self, *args, **kwargs)

    draw = ConjectureData.draw

    def budgeted_draw(self: Any, *args: Any, **kwargs: Any) -> Any:
        budget = self.__dict__.get("_strictconformance_budget")
        if budget is not None and budget.interruptible:
            budget._draws += 1
            if budget._draws % _DRAWS_PER_LOOK == 0:
                budget.checkpoint()
        return draw(self, *args, **kwargs)

    runner_type.test_function = budgeted_test_function  # type: ignore[method-assign]
    runner_type.shrink_interesting_test_cases = budgeted_shrink_cases  # type: ignore[method-assign]
    runner_type.shrink = budgeted_shrink  # type: ignore[method-assign]
    ConjectureData.draw = budgeted_draw  # type: ignore[method-assign]
    setattr(runner_type, _WRAPPED, True)

"""A deterministic budget for shrinking the kit's checks under the ``ci`` profile.

Hypothesis shrinks every distinct failure of a test (``report_multiple_bugs``), and a finding key
met while shrinking is shrunk too; it stops only after five minutes of *wall-clock* time. On an
SDK whose strictify breaks a rule in many places, a single SM check found 20 and more keys and
spent its whole five minutes shrinking (5,465 calls of the check on openai-python), and where it
stopped depended on the machine's load: a ``ci`` run neither fast nor reproducible.

Under the ``ci`` profile each finding of a kit check is shrunk for at most
:data:`CALLS_PER_FINDING` calls of the check, and at most :data:`MAX_FINDINGS` findings (the number
the report keeps) are shrunk; later ones keep the example they were found with. Counted in calls,
never in seconds, so a run gives the same counterexamples on any machine and with any ``-n``.
Shrinking mostly happens in its first calls (the big cuts); the tail is fine-tuning of examples
that are already small. Other profiles, and tests that are not the kit's checks, shrink as
Hypothesis does.

In every profile, a kit check shrinks once per defect: Hypothesis tells failures apart by their
exception, and a fixed-case loop inside an example (``Harness.each_case``) raises a group of its
cases' findings, so every *combination* of defects met in one example is a failure of its own, and
was shrunk as one (13 shrinks for six defects of one trap loop, each call a whole loop). A group's
defects are shrunk one by one, each to the smallest example that shows it whatever else fails
beside it; a failure whose defects were all shrunk before keeps the example it was found with
(the report takes each defect's finding from its smallest example).

In every profile, a kit check goes on looking for further distinct bugs after its first one for as
many calls as Hypothesis allows, not for ten seconds of wall-clock time (Hypothesis's rule), so
a busy machine reports the same findings as an idle one.
"""

from __future__ import annotations

import time
from typing import Any

__all__ = ["CALLS_PER_FINDING", "MAX_FINDINGS", "finding_keys", "install"]

#: Calls of a check spent shrinking one finding (``ci`` profile).
CALLS_PER_FINDING = 150
#: Findings shrunk per check (``ci`` profile): the report keeps this many (report.MAX_FINDINGS).
MAX_FINDINGS = 20
#: The attribute marking a kit check's per-example function (set by ``harness.check``).
MARK = "strictconformance_check"

_installed = False


def _kit_check(runner: Any) -> bool:
    """Whether ``runner`` runs one of the kit's checks."""
    state = getattr(runner._test_function, "__self__", None)  # StateForActualGivenExecution
    return bool(getattr(getattr(state, "test", None), MARK, False))


def _budgeted(runner: Any) -> bool:
    """Whether ``runner`` runs a kit check under the ``ci`` profile."""
    from hypothesis import settings

    return settings.get_current_profile_name() == "ci" and _kit_check(runner)


def finding_keys(origin: Any) -> set[str]:
    """The defects of one of Hypothesis's interesting origins (a group's: of its members): each
    kit failure's type carries the identity of its defect (``harness._keyed``)."""
    keys: set[str] = set()
    key = getattr(getattr(origin, "exc_type", None), "_finding_key", None)
    if isinstance(key, str):
        keys.add(key)
    for member in getattr(origin, "group_elems", ()) or ():
        keys |= finding_keys(member)
    return keys


def _defects_to_shrink(runner: Any, example: Any) -> list[str] | None:
    """The defects of ``example``'s failure that no failure this run shrank before, each to be
    shrunk on its own; None for a failure of one defect (shrunk as Hypothesis does)."""
    keys = finding_keys(getattr(example, "interesting_origin", None))
    if not keys:  # not a kit finding (an error of the check): shrunk as Hypothesis does
        return None
    covered: set[str] = runner.__dict__.setdefault("_strictconformance_covered", set())
    new = sorted(keys - covered)
    covered |= keys
    if len(keys) == 1 and new:
        return None
    return new


def install() -> None:
    """Wrap Hypothesis's engine once so kit checks under ``ci`` shrink within the budget."""
    global _installed
    if _installed:
        return
    from hypothesis.internal.conjecture import engine
    from hypothesis.internal.conjecture.data import Status
    from hypothesis.internal.conjecture.shrinker import StopShrinking

    runner_type = engine.ConjectureRunner
    shrink = runner_type.shrink
    test_function = runner_type.test_function

    def shrink_each_defect(self: Any, example: Any, predicate: Any = None, allow_transition: Any = None) -> Any:
        defects = _defects_to_shrink(self, example) if predicate is not None and _kit_check(self) else None
        if defects is None:
            return budgeted_shrink(self, example, predicate, allow_transition)
        # a group's defects, each shrunk to the smallest example showing it whatever else fails
        # beside it (the other cases of its loop then pass: that example is a failure of its own)
        for defect in defects:
            def shows(data: Any, defect: str = defect) -> bool:
                return bool(data.status >= Status.INTERESTING and defect in finding_keys(data.interesting_origin))
            budgeted_shrink(self, example, shows, allow_transition)
        return example

    def budgeted_shrink(self: Any, example: Any, predicate: Any = None, allow_transition: Any = None) -> Any:
        if not _budgeted(self):
            return shrink(self, example, predicate, allow_transition)
        shrunk = getattr(self, "_strictconformance_shrunk", 0)
        if shrunk >= MAX_FINDINGS:
            self.exit_with(engine.ExitReason.max_shrinks)  # the rest keep the example they were found with
        self._strictconformance_shrunk = shrunk + 1
        self._strictconformance_stop_at = self.call_count + CALLS_PER_FINDING
        try:
            return shrink(self, example, predicate, allow_transition)
        finally:
            self._strictconformance_stop_at = None

    def budgeted_test_function(self: Any, data: Any) -> None:
        stop_at = getattr(self, "_strictconformance_stop_at", None)
        if stop_at is not None and self.call_count >= stop_at:
            raise StopShrinking  # caught by the shrinker: this finding keeps its smallest example so far
        test_function(self, data)

    should_generate_more = runner_type.should_generate_more

    def generate_by_calls(self: Any) -> bool:
        # Hypothesis stops looking for further bugs once its first bug is ten seconds old: on a
        # busy machine a check then reports fewer distinct findings (a loaded CI run found two of
        # an adapter's three bugs). For the kit's checks the first bug is always "just found", so
        # only Hypothesis's call-count limits end the search: the same findings at any load.
        if _kit_check(self) and getattr(self, "first_bug_found_time", None) is not None:
            self.first_bug_found_time = time.monotonic()
        return should_generate_more(self)

    runner_type.shrink = shrink_each_defect  # type: ignore[method-assign,assignment]
    runner_type.test_function = budgeted_test_function  # type: ignore[method-assign]
    runner_type.should_generate_more = generate_by_calls  # type: ignore[method-assign]
    _installed = True

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

In every profile, a kit check shrinks a failure only when it shows a finding no failure shrunk
before did. A fixed-case loop inside an example (``Harness.each_case``) raises a group of its
cases' findings, and Hypothesis tells a group apart by its members: every *combination* of findings
met in one example was a failure of its own, each shrunk for its own calls of the whole loop (13
shrinks for six findings of one trap loop). A failure whose findings all were in a failure shrunk
before keeps the example it was found with; the report takes each finding from its smallest
example (``plugin._smallest_of_each``).

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
#: Set on Hypothesis's engine class once wrapped: a flag on the class, not in this module, so a
#: second import of the module (a test run in process after another) does not wrap it again
_WRAPPED = "_strictconformance_shrinking"


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
    kit failure's type carries what the search shrinks it as (``harness.search_key_of``: its
    defect, and the fixed case that met it when its finding names the case)."""
    keys: set[str] = set()
    key = getattr(getattr(origin, "exc_type", None), "_search_key", None)
    if isinstance(key, str):
        keys.add(key)
    for member in getattr(origin, "group_elems", ()) or ():
        keys |= finding_keys(member)
    return keys


def _covered(runner: Any, example: Any) -> bool:
    """Whether every finding of ``example``'s failure is one a failure shrunk before in this run
    showed (then its shrink is a whole search for nothing new); records them otherwise."""
    keys = finding_keys(getattr(example, "interesting_origin", None))
    covered: set[str] = runner.__dict__.setdefault("_strictconformance_covered", set())
    if keys and keys <= covered:
        return True
    covered |= keys
    return False


def install() -> None:
    """Wrap Hypothesis's engine once so kit checks under ``ci`` shrink within the budget."""
    from hypothesis.internal.conjecture import engine
    from hypothesis.internal.conjecture.shrinker import StopShrinking

    runner_type = engine.ConjectureRunner
    if runner_type.__dict__.get(_WRAPPED):
        return
    shrink = runner_type.shrink
    test_function = runner_type.test_function

    def shrink_what_is_new(self: Any, example: Any, predicate: Any = None, allow_transition: Any = None) -> Any:
        if predicate is not None and _kit_check(self) and _covered(self, example):
            return example  # kept as found: each of its findings is in a smaller example already
        return budgeted_shrink(self, example, predicate, allow_transition)

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

    runner_type.shrink = shrink_what_is_new  # type: ignore[method-assign,assignment]
    runner_type.test_function = budgeted_test_function  # type: ignore[method-assign]
    runner_type.should_generate_more = generate_by_calls  # type: ignore[method-assign]
    setattr(runner_type, _WRAPPED, True)

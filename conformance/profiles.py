"""Hypothesis profiles of the suite: ``dev`` (the default), ``ci`` and ``nightly``.

``ci`` extends Hypothesis's own ``ci`` profile (loaded automatically when ``CI=true``):
derandomized, no example database, so a CI run is reproducible. No profile prints
``@reproduce_failure`` blobs: the checks live in the installed kit, so a user replays a failure
with the command the report prints (and, in ``dev``/``nightly``, from the example database). ``nightly`` is the fuzzer:
many random examples, failures saved in the example database and replayed first next time.

``dev`` and ``nightly`` are built on Hypothesis's ``default`` profile, never on the profile that
happens to be loaded: under ``CI=true`` (GitHub sets it) Hypothesis loads its ``ci`` profile at
import, and a nightly built on it would run without the example database it is meant to keep.
``STRICTCONFORMANCE_NIGHTLY_EXAMPLES`` sets the nightly profile's examples per check (a longer or
a shorter fuzz from a scheduled workflow's input).
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis import settings

__all__ = ["CHECK_LIMITS", "NIGHTLY_EXAMPLES_ENV", "PROFILE_NAMES", "RUN_BUDGETS", "check_limits", "profile_settings",
           "register_profiles", "run_budget", "scaled"]

#: The profiles' names; this module imports Hypothesis only when a profile is built, so the
#: plugin can offer the names without importing it.
PROFILE_NAMES = ("dev", "ci", "nightly")
NIGHTLY_EXAMPLES_ENV = "STRICTCONFORMANCE_NIGHTLY_EXAMPLES"
_NIGHTLY_EXAMPLES = 2000

#: What one check may spend in each profile, as ``cpu`` seconds, ``examples`` run (generated,
#: shrunk and replayed) and adapter ``calls`` (0: no limit); see :mod:`strictconformance.checkbudget`.
#: Far above what a check of a conforming SDK takes (a few seconds): they stop a check that spins in
#: search or shrinking on an SDK's output, with its findings so far. ``ci`` shrinks at most 20
#: findings for 150 calls each (:mod:`strictconformance.shrinking`), well within its examples.
CHECK_LIMITS: Mapping[str, Mapping[str, float]] = {
    "dev": {"cpu": 60.0, "examples": 5000, "calls": 50_000},
    "ci": {"cpu": 60.0, "examples": 5000, "calls": 50_000},
    "nightly": {"cpu": 600.0, "examples": 50_000, "calls": 500_000},
}
#: CPU seconds all the checks of a run may spend, per profile (0: no limit); checks not started when
#: it is spent are reported "not judged: run budget exhausted". ``nightly`` has none: a fuzz is as long
#: as its schedule allows (its workflow's timeout bounds it, and the report's journal keeps every
#: check that finished before it).
RUN_BUDGETS: Mapping[str, float] = {"dev": 1800.0, "ci": 1800.0, "nightly": 0.0}


def check_limits(profile: str) -> Mapping[str, float]:
    """A check's limits under ``profile``; a profile that is not the kit's gets ``dev``'s."""
    return CHECK_LIMITS.get(profile, CHECK_LIMITS["dev"])


def run_budget(profile: str) -> float:
    """The run's CPU seconds under ``profile``; a profile that is not the kit's gets ``dev``'s."""
    return RUN_BUDGETS.get(profile, RUN_BUDGETS["dev"])


def _nightly_examples() -> int:
    raw = os.environ.get(NIGHTLY_EXAMPLES_ENV, "").strip()
    if not raw:
        return _NIGHTLY_EXAMPLES
    if not raw.isdigit() or int(raw) < 1:
        raise ValueError(f"${NIGHTLY_EXAMPLES_ENV} must be a positive number of examples per check, got {raw!r}")
    return int(raw)


def profile_settings() -> Mapping[str, settings]:
    """The three profiles; ``ci`` is built on Hypothesis's registered ``ci`` profile."""
    from hypothesis import HealthCheck, Phase, settings

    # Generating 40-tool requests or deep schemas can be slow without being wrong.
    suppressed = [HealthCheck.too_slow, HealthCheck.data_too_large]
    # No explain phase: it re-runs a failing check hundreds of times to annotate lines of the kit's
    # own code, which tells an SDK maintainer nothing and multiplies the time of every failure.
    phases = [phase for phase in Phase if phase.name != "explain"]
    return {
        "dev": settings(settings.get_profile("default"), max_examples=60, deadline=None, print_blob=False,
                        suppress_health_check=suppressed, phases=phases),
        "ci": settings(settings.get_profile("ci"), max_examples=100, deadline=None, derandomize=True,
                       database=None, print_blob=False, suppress_health_check=suppressed, phases=phases),
        "nightly": settings(settings.get_profile("default"), max_examples=_nightly_examples(), deadline=None,
                            derandomize=False, print_blob=False, suppress_health_check=suppressed, phases=phases),
    }


def register_profiles() -> None:
    """Register (or refresh) the suite's profiles under their names."""
    from hypothesis import settings

    for name, profile in profile_settings().items():
        settings.register_profile(name, profile)


def scaled(factor: float, *, at_least: int = 5) -> settings:
    """Settings running ``factor`` times the current profile's examples: for checks whose examples
    are much heavier (or lighter) than the typical one."""
    from hypothesis import settings

    current = settings.get_profile(settings.get_current_profile_name())
    return settings(max_examples=max(at_least, int(current.max_examples * factor)))

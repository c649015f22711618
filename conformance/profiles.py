"""Hypothesis profiles of the suite: ``dev`` (the default), ``ci`` and ``nightly``.

``ci`` extends Hypothesis's own ``ci`` profile (loaded automatically when ``CI=true``):
derandomized, no example database, so a CI run is reproducible. No profile prints
``@reproduce_failure`` blobs: the checks live in the installed kit, so a user replays a failure
with the command the report prints (and, in ``dev``/``nightly``, from the example database). ``nightly`` is the fuzzer:
many random examples, failures saved in the example database and replayed first next time.

A random run (``dev``, ``nightly``) has a seed of its own, but never Hypothesis's global seed
(``--hypothesis-seed``): with one, Hypothesis turns its example database off. Each check draws
from a seed of its own instead, derived from the run's seed and the check's name
(:func:`check_seed`), so the database is read and written and the run's seed still replays it.
The database is scoped by adapter (:func:`adapter_scoped`): a run of one adapter never replays,
nor deletes as no longer failing, the examples another adapter failed in the same directory.

``dev`` and ``nightly`` are built on Hypothesis's ``default`` profile, never on the profile that
happens to be loaded: under ``CI=true`` (GitHub sets it) Hypothesis loads its ``ci`` profile at
import, and a nightly built on it would run without the example database it is meant to keep.
``STRICTCONFORMANCE_NIGHTLY_EXAMPLES`` sets the nightly profile's examples per check (a longer or
a shorter fuzz from a scheduled workflow's input).
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis import settings
    from hypothesis.database import ExampleDatabase

__all__ = ["CHECK_LIMITS", "NIGHTLY_EXAMPLES_ENV", "PROFILE_NAMES", "RANDOM_PROFILES", "RUN_BUDGETS", "adapter_scoped",
           "check_limits", "check_seed", "examples_directory", "profile_settings", "register_profiles", "run_budget", "scaled"]

#: The profiles' names; this module imports Hypothesis only when a profile is built, so the
#: plugin can offer the names without importing it.
PROFILE_NAMES = ("dev", "ci", "nightly")
#: The profiles that draw random examples and keep the example database.
RANDOM_PROFILES = ("dev", "nightly")
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


def check_seed(run_seed: int, check: str) -> int:
    """The seed one check draws from in a random run: a function of the run's seed and the
    check's name alone, so the check tries the same examples whatever else runs, in any order,
    on any xdist worker, and a replay naming the run's seed tries them again."""
    digest = hashlib.sha256(f"{run_seed}\0{check}".encode()).digest()
    return int.from_bytes(digest[:16], "big")


def adapter_scoped(database: ExampleDatabase, adapter: str) -> ExampleDatabase:
    """``database`` with every key prefixed by a digest of ``adapter``: Hypothesis deletes a saved
    example that no longer fails, so without a scope a run of one adapter would erase the failures
    another adapter left in the same ``.hypothesis/examples``."""
    from hypothesis.database import ExampleDatabase

    prefix = hashlib.sha256(adapter.encode()).hexdigest()[:16].encode() + b"."

    class AdapterScopedDatabase(ExampleDatabase):
        def save(self, key: bytes, value: bytes) -> None:
            database.save(prefix + key, value)

        def fetch(self, key: bytes) -> Iterable[bytes]:
            return database.fetch(prefix + key)

        def delete(self, key: bytes, value: bytes) -> None:
            database.delete(prefix + key, value)

        def move(self, src: bytes, dest: bytes, value: bytes) -> None:
            database.move(prefix + src, prefix + dest, value)

        def __repr__(self) -> str:
            return f"adapter_scoped({database!r}, {adapter!r})"

        def __eq__(self, other: object) -> bool:
            return repr(self) == repr(other)

        def __hash__(self) -> int:
            return hash(repr(self))

    return AdapterScopedDatabase()


def examples_directory(run_directory: Path) -> Path:
    """Where the random profiles keep the example database: Hypothesis's own place,
    ``.hypothesis/examples`` under the directory the run started in (the folder the nightly
    workflow caches), or under ``$HYPOTHESIS_STORAGE_DIRECTORY`` when that is set."""
    home = os.environ.get("HYPOTHESIS_STORAGE_DIRECTORY")
    return (Path(home) if home else run_directory / ".hypothesis") / "examples"


def profile_settings(adapter: str | None = None, examples: Path | None = None) -> Mapping[str, settings]:
    """The three profiles; ``ci`` is built on Hypothesis's registered ``ci`` profile. The random
    profiles keep their example database in ``examples`` (Hypothesis's default place when None),
    scoped to ``adapter`` when one is named."""
    from hypothesis import HealthCheck, Phase, settings
    from hypothesis.database import DirectoryBasedExampleDatabase

    # Generating 40-tool requests or deep schemas can be slow without being wrong.
    suppressed = [HealthCheck.too_slow, HealthCheck.data_too_large]
    # No explain phase: it re-runs a failing check hundreds of times to annotate lines of the kit's
    # own code, which tells an SDK maintainer nothing and multiplies the time of every failure.
    phases = [phase for phase in Phase if phase.name != "explain"]
    database = settings.get_profile("default").database if examples is None else DirectoryBasedExampleDatabase(examples)
    if database is not None and adapter is not None:
        database = adapter_scoped(database, adapter)
    return {
        "dev": settings(settings.get_profile("default"), max_examples=60, deadline=None, print_blob=False,
                        database=database, suppress_health_check=suppressed, phases=phases),
        "ci": settings(settings.get_profile("ci"), max_examples=100, deadline=None, derandomize=True,
                       database=None, print_blob=False, suppress_health_check=suppressed, phases=phases),
        "nightly": settings(settings.get_profile("default"), max_examples=_nightly_examples(), deadline=None,
                            derandomize=False, print_blob=False, database=database,
                            suppress_health_check=suppressed, phases=phases),
    }


def register_profiles(adapter: str | None = None, examples: Path | None = None) -> None:
    """Register (or refresh) the suite's profiles under their names (see :func:`profile_settings`)."""
    from hypothesis import settings

    for name, profile in profile_settings(adapter, examples).items():
        settings.register_profile(name, profile)


def scaled(factor: float, *, at_least: int = 5) -> settings:
    """Settings running ``factor`` times the current profile's examples: for checks whose examples
    are much heavier (or lighter) than the typical one."""
    from hypothesis import settings

    current = settings.get_profile(settings.get_current_profile_name())
    return settings(max_examples=max(at_least, int(current.max_examples * factor)))

"""Hypothesis profiles of the suite: ``dev`` (the default), ``ci`` and ``nightly``.

``ci`` extends Hypothesis's own ``ci`` profile (loaded automatically when ``CI=true``):
derandomized, no example database, so a CI run is reproducible. No profile prints
``@reproduce_failure`` blobs: the checks live in the installed kit, so a user replays a failure
with the command the report prints (and, in ``dev``/``nightly``, from the example database). ``nightly`` is the fuzzer:
many random examples, failures saved in the example database and replayed first next time.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from hypothesis import settings

__all__ = ["PROFILE_NAMES", "profile_settings", "register_profiles", "scaled"]

#: The profiles' names; this module imports Hypothesis only when a profile is built, so the
#: plugin can offer the names without importing it.
PROFILE_NAMES = ("dev", "ci", "nightly")


def profile_settings() -> Mapping[str, settings]:
    """The three profiles; ``ci`` is built on Hypothesis's registered ``ci`` profile."""
    from hypothesis import HealthCheck, Phase, settings

    # Generating 40-tool requests or deep schemas can be slow without being wrong.
    suppressed = [HealthCheck.too_slow, HealthCheck.data_too_large]
    # No explain phase: it re-runs a failing check hundreds of times to annotate lines of the kit's
    # own code, which tells an SDK maintainer nothing and multiplies the time of every failure.
    phases = [phase for phase in Phase if phase.name != "explain"]
    return {
        "dev": settings(max_examples=60, deadline=None, print_blob=False, suppress_health_check=suppressed,
                        phases=phases),
        "ci": settings(settings.get_profile("ci"), max_examples=100, deadline=None, derandomize=True,
                       database=None, print_blob=False, suppress_health_check=suppressed, phases=phases),
        "nightly": settings(max_examples=2000, deadline=None, derandomize=False, print_blob=False,
                            suppress_health_check=suppressed, phases=phases),
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

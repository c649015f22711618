"""What installing the kit costs other projects: pytest start-up of a one-test project with the
kit's plugin loaded (dormant, as in every project where the kit is installed) and without it
(``-p no:strictconformance``), run alternately, printed side by side.

``python -m strictconformance.bench startup [--runs N] [--target-ms MS] [--keep-other-plugins]``.
Both kinds of run disable the other installed pytest plugins (their imports, alike in both, would
only add noise; ``--keep-other-plugins`` keeps them). CPU time (user + system of the pytest
process) is the figure compared against the target, the fastest of the runs of each kind: wall time
and medians on a shared machine measure the neighbours. Exit status 1 when the difference exceeds
``--target-ms``.
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

__all__ = ["Timing", "main", "measure"]

#: The issue's budget for the dormant plugin: +50 ms of start-up per pytest run.
TARGET_MS = 50.0


@dataclass(frozen=True)
class Timing:
    """One pytest run: wall and CPU seconds of the child process."""

    wall: float
    cpu: float


def _run_pytest(project: Path, extra: Sequence[str]) -> Timing:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    env = {key: value for key, value in os.environ.items() if key != "PYTEST_ADDOPTS"}
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra], cwd=project,
                          env=env, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if done.returncode != 0:
        raise RuntimeError(f"pytest {' '.join(extra)} in the one-test project failed ({done.returncode}):\n{done.stdout}{done.stderr}")
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return Timing(wall, cpu)


def other_plugins() -> list[str]:
    """The names of the installed pytest plugins (``pytest11`` entry points) other than the kit's."""
    from importlib.metadata import entry_points

    return sorted({point.name for point in entry_points(group="pytest11") if point.name != "strictconformance"})


def measure(runs: int = 9, *, keep_other_plugins: bool = False) -> tuple[list[Timing], list[Timing]]:
    """``runs`` start-ups of a one-test project with the kit's plugin and as many without it,
    alternated so that the machine's load falls on both alike (one warm-up of each first)."""
    common = [] if keep_other_plugins else [word for name in other_plugins() for word in ("-p", f"no:{name}")]
    with tempfile.TemporaryDirectory(prefix="sc-startup-") as folder:
        project = Path(folder)
        (project / "test_one.py").write_text("def test_one():\n    assert 1 + 1 == 2\n")
        _run_pytest(project, common)
        _run_pytest(project, [*common, "-p", "no:strictconformance"])
        with_kit: list[Timing] = []
        without: list[Timing] = []
        for _ in range(runs):
            with_kit.append(_run_pytest(project, common))
            without.append(_run_pytest(project, [*common, "-p", "no:strictconformance"]))
    return with_kit, without


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.bench startup", description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=9, help="start-ups of each kind (default 9)")
    parser.add_argument("--keep-other-plugins", action="store_true", help="leave the other installed pytest plugins on")
    parser.add_argument("--target-ms", type=float, default=TARGET_MS, help=f"budget for the difference (default {TARGET_MS:g})")
    args = parser.parse_args(argv)
    if args.runs < 1:
        parser.error("--runs must be at least 1")
    with_kit, without = measure(args.runs, keep_other_plugins=args.keep_other_plugins)

    def ms(values: Sequence[float]) -> str:
        return f"{min(values) * 1000:6.0f} ms (median {statistics.median(values) * 1000:5.0f})"

    others = "other plugins kept" if args.keep_other_plugins else f"{len(other_plugins())} other plugins disabled in both"
    print(f"pytest start-up of a one-test project, fastest of {args.runs} runs each ({others})")
    print(f"{'':26}{'CPU':>26}{'wall':>26}")
    print(f"{'kit installed (dormant)':26}{ms([t.cpu for t in with_kit]):>26}{ms([t.wall for t in with_kit]):>26}")
    print(f"{'-p no:strictconformance':26}{ms([t.cpu for t in without]):>26}{ms([t.wall for t in without]):>26}")
    cpu_cost = (min(t.cpu for t in with_kit) - min(t.cpu for t in without)) * 1000
    wall_cost = (min(t.wall for t in with_kit) - min(t.wall for t in without)) * 1000
    verdict = "within" if cpu_cost <= args.target_ms else "OVER"
    print(f"{'cost of the kit':26}{cpu_cost:+13.0f} ms CPU{wall_cost:+19.0f} ms wall   ({verdict} the {args.target_ms:g} ms budget)")
    return 0 if cpu_cost <= args.target_ms else 1


if __name__ == "__main__":
    raise SystemExit(main())

"""``python -m strictconformance.bench [instances|strictify|drift|startup|process|matrix|all] [options]``: print figures.

``instances`` and ``strictify`` run :mod:`strictconformance.bench.schemas`; ``drift`` runs
:mod:`strictconformance.bench.drift`; ``startup`` runs :mod:`strictconformance.bench.startup` (what the
dormant plugin costs every pytest run); ``process`` runs :mod:`strictconformance.bench.process` (the
process protocol's round trip); ``matrix`` times the suite per SDK path (``python -m
strictconformance.matrix --bench``, its options after it); ``all`` (the default) runs the first two with their defaults.
Benchmarks assert nothing; speed targets are read off their output (see the README).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    which = args.pop(0) if args and not args[0].startswith("-") else "all"
    from strictconformance.bench import drift, process, schemas, startup

    if which == "startup":
        return startup.main(args)
    if which in ("instances", "strictify"):
        return schemas.main([which, *args])
    if which == "drift":
        return drift.main(args)
    if which == "process":
        return process.main(args)
    if which == "matrix":  # the whole suite per SDK path (slow: minutes per path); not part of "all"
        from strictconformance.matrix.__main__ import main as matrix_main

        return matrix_main(["--bench", "--out", "sc-matrix-bench", *args])
    if which == "all":
        return schemas.main(["all", *args]) or drift.main([])
    print(f"unknown benchmark {which!r}; choose instances, strictify, drift, startup, process, matrix or all", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())

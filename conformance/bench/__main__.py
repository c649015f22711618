"""``python -m strictconformance.bench [instances|strictify|scaling|corpus|drift|startup|process|matrix|all] [options]``: print figures.

``instances`` and ``strictify`` run :mod:`strictconformance.bench.schemas`; ``scaling`` runs
:mod:`strictconformance.bench.scaling` (``validate_strict`` against nesting depth, ``$ref`` chains,
``$defs`` and shared sub-schemas; strictify on a DAG); ``corpus`` runs :mod:`strictconformance.bench.corpus`
(the real-world corpus: the validator beside schemafit, strictify per dialect); ``drift`` runs
:mod:`strictconformance.bench.drift`; ``startup`` runs :mod:`strictconformance.bench.startup` (what the
dormant plugin costs every pytest run); ``process`` runs :mod:`strictconformance.bench.process` (the
process protocol's round trip); ``defects`` runs :mod:`strictconformance.bench.defects` (grouping
findings into defects, beside a report's check time); ``matrix`` times the suite per SDK path (``python -m
strictconformance.matrix --bench``, its options after it); ``all`` (the default) runs instances, strictify and drift with their defaults.
Benchmarks assert nothing; speed targets are read off their output (see the README).
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: python -m strictconformance.bench [BENCHMARK] [options]

benchmarks (each prints figures and asserts nothing; `BENCHMARK --help` shows its options):
  all        instances, strictify and drift, with their defaults (the default)
  instances  compiled instance strategies vs hypothesis-jsonschema and hand-written ones
  strictify  the reference strictify's throughput and growth with schema size
  drift      the drift validator vs jsonschema over every shipped cassette
  process    the process protocol's round trip against a direct call
  startup    what the dormant plugin costs every pytest run
  scaling    validate_strict vs depth, $ref chains, $defs, DAGs; strictify on a DAG
  corpus     the real-world corpus: validate_strict beside schemafit, strictify per dialect
  defects    grouping findings into defects, beside the checks' time of the report it belongs to
  matrix     the whole suite per SDK path (minutes per path; python -m strictconformance.matrix --bench)"""


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if args[:1] in (["-h"], ["--help"]):  # the benchmarks' own parsers know only their own options
        print(USAGE)
        return 0
    which = args.pop(0) if args and not args[0].startswith("-") else "all"
    from strictconformance.bench import corpus, defects, drift, process, scaling, schemas, startup

    if which == "startup":
        return startup.main(args)
    if which in ("instances", "strictify"):
        return schemas.main([which, *args])
    if which == "scaling":
        return scaling.main(args)
    if which == "corpus":
        return corpus.main(args)
    if which == "drift":
        return drift.main(args)
    if which == "process":
        return process.main(args)
    if which == "defects":
        return defects.main(args)
    if which == "matrix":  # the whole suite per SDK path (slow: minutes per path); not part of "all"
        from strictconformance.matrix.__main__ import main as matrix_main

        return matrix_main(["--bench", "--out", "sc-matrix-bench", *args])
    if which == "all":
        return schemas.main(["all", *args]) or drift.main([])
    print(f"unknown benchmark {which!r}; choose instances, strictify, scaling, corpus, defects, drift, startup, process, matrix or all", file=sys.stderr)
    return 2


if __name__ == "__main__":
    raise SystemExit(main())

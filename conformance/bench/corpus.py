"""The real-world corpus, timed schema by schema: the SM validator beside a peer linter, and the
reference strictify per shipped dialect. Figures only.

``python -m strictconformance.bench corpus [--corpus DIR] [--limit N] [--dialects a,b] [--lint-dialect D]``

- ``validate_strict`` (every rule of a dialect) and schemafit's ``lint`` (a provider linter with
  far fewer rules; ``pip install schemafit``) on every schema of the corpus, in one run, alternately
  per schema: median, p99 and max milliseconds per schema for both, and their ratio.
- the reference strictify on every schema in every shipped dialect: median, p99 (target < 50 ms)
  and max (target < 1 s) per dialect, with the slowest schema named.

``--corpus`` defaults to ``../shared/corpus/jsonschemabench`` (JSONSchemaBench, see its README) when
present, else the subset shipped in ``strictconformance/cases/corpus``.
"""

from __future__ import annotations

import argparse
import gc
import json
import math
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

__all__ = [
    "MAX_TARGET_MS",
    "P99_TARGET_MS",
    "bench_linters",
    "bench_strictify_corpus",
    "default_corpus",
    "load_corpus",
    "main",
    "summary",
]

#: The issue's targets for the reference strictify on the corpus, per schema.
P99_TARGET_MS = 50.0
MAX_TARGET_MS = 1000.0
#: schemafit names its providers itself; a shipped dialect maps to the provider it lints for.
_SCHEMAFIT_PROVIDER = {"openai": "openai", "openai@2025-01": "openai", "anthropic": "anthropic", "google": "gemini",
                       "cohere": "cohere", "mistral": "mistral"}


def default_corpus() -> Path:
    """The shared JSONSchemaBench folder beside the project when present, else the shipped subset."""
    here = Path(__file__).resolve()
    for folder in here.parents:  # a checkout (or a worktree of one) beside ../shared
        if (folder / "shared" / "corpus" / "jsonschemabench").is_dir():
            return folder / "shared" / "corpus" / "jsonschemabench"
    return here.parents[1] / "cases" / "corpus"


def load_corpus(folder: Path, limit: int | None = None) -> list[tuple[str, Any]]:
    """(name relative to ``folder``, schema) of every ``*.json`` file below ``folder``, sorted by
    name; ``limit`` keeps an evenly spaced sample. Files that are not JSON are skipped."""
    if not folder.is_dir():
        raise SystemExit(f"corpus folder {folder} does not exist")
    files = sorted(path for path in folder.rglob("*.json") if path.is_file())
    if limit is not None and 0 < limit < len(files):
        step = len(files) / limit
        files = [files[int(index * step)] for index in range(limit)]
    loaded = []
    for path in files:
        try:
            loaded.append((str(path.relative_to(folder)), json.loads(path.read_text(encoding="utf-8"))))
        except (ValueError, UnicodeDecodeError):
            continue
    return loaded


def summary(seconds: Sequence[float]) -> tuple[float, float, float]:
    """(median, p99, max) in milliseconds (p99: the value 99% of the runs do not exceed)."""
    ordered = sorted(seconds)
    if not ordered:
        return (math.nan, math.nan, math.nan)
    median = ordered[len(ordered) // 2] if len(ordered) % 2 else (ordered[len(ordered) // 2 - 1] + ordered[len(ordered) // 2]) / 2
    p99 = ordered[max(0, math.ceil(0.99 * len(ordered)) - 1)]
    return (median * 1e3, p99 * 1e3, ordered[-1] * 1e3)


def _timed(run: Callable[..., Any], *arguments: Any) -> tuple[float, BaseException | None]:
    gc.disable()  # as timeit does: the cyclic collector's pauses are not the function's work
    try:
        started = time.process_time()
        try:
            run(*arguments)
        except Exception as error:  # a schema the tool refuses is counted, not timed
            return time.process_time() - started, error
        return time.process_time() - started, None
    finally:
        gc.enable()


def bench_linters(corpus: Sequence[tuple[str, Any]], dialect: str = "openai",
                  write: Callable[[str], None] = print) -> dict[str, tuple[float, float, float]]:
    """validate_strict and schemafit's lint on every schema, alternately; print per-schema figures."""
    from strictconformance.dialects.validator import validate_strict

    schemafit: Any
    try:
        import schemafit  # type: ignore[import-not-found, unused-ignore, no-redef]
    except ImportError:
        schemafit = None
    tools: dict[str, Callable[[Any], Any]] = {"validate_strict": lambda schema: validate_strict(schema, dialect)}
    if schemafit is not None:
        provider = _SCHEMAFIT_PROVIDER.get(dialect, "openai")
        tools[f"schemafit {schemafit.__version__} ({provider})"] = lambda schema: schemafit.lint(schema, provider)
    for tool in tools.values():  # warm up (first-call imports and caches are not per-schema work)
        _timed(tool, corpus[0][1] if corpus else {})
    times: dict[str, list[float]] = {name: [] for name in tools}
    refused: dict[str, int] = dict.fromkeys(tools, 0)
    for _, schema in corpus:
        for name, tool in tools.items():
            seconds, error = _timed(tool, schema)
            if error is None:
                times[name].append(seconds)
            else:
                refused[name] += 1
    write(f"SM validator beside a peer linter, {len(corpus)} corpus schemas, dialect {dialect} (CPU ms per schema)")
    write(f"{'tool':<34}{'median':>10}{'p99':>10}{'max':>10}{'total s':>10}{'refused':>9}")
    figures = {}
    for name in tools:
        figures[name] = summary(times[name])
        median, p99, most = figures[name]
        write(f"{name:<34}{median:>10.3f}{p99:>10.3f}{most:>10.2f}{sum(times[name]):>10.2f}{refused[name]:>9}")
    if schemafit is None:
        write("schemafit is not installed (pip install schemafit): no peer figures")
    else:
        ours, theirs = (figures[name] for name in tools)
        write(f"validate_strict / schemafit: {ours[0] / theirs[0]:.2f}x the median time, {ours[1] / theirs[1]:.2f}x the p99 "
              f"(schemafit checks {_rule_count(schemafit, dialect)} rules here, validate_strict {_our_rule_count(dialect)})")
    return figures


def _rule_count(schemafit: Any, dialect: str) -> int:
    return len(schemafit.linter.load_rule_pack(_SCHEMAFIT_PROVIDER.get(dialect, "openai")).get("rules", []))


def _our_rule_count(dialect: str) -> int:
    from strictconformance.dialects.registry import resolve_dialect
    return len(resolve_dialect(dialect).rules)


def bench_strictify_corpus(corpus: Sequence[tuple[str, Any]], dialects: Sequence[str] | None = None,
                           write: Callable[[str], None] = print) -> dict[str, tuple[float, float, float]]:
    """The reference strictify once per schema per dialect; print median, p99 and max per dialect."""
    from strictconformance.dialects.shipped import SHIPPED
    from strictconformance.reference.strictify import strictify

    figures: dict[str, tuple[float, float, float]] = {}
    write(f"reference strictify on {len(corpus)} corpus schemas (CPU ms per schema; targets: p99 < {P99_TARGET_MS:.0f}, "
          f"max < {MAX_TARGET_MS:.0f})")
    write(f"{'dialect':<16}{'median':>9}{'p99':>9}{'max':>10}  {'refused':>7}  slowest schema, verdict")
    for dialect in dialects or list(SHIPPED):
        _timed(strictify, corpus[0][1] if corpus else {}, dialect)  # warm up
        times: list[tuple[float, str]] = []
        refused = 0
        for name, schema in corpus:
            seconds, error = _timed(strictify, schema, dialect)
            if error is None:
                times.append((seconds, name))
            else:
                refused += 1
        figures[dialect] = summary([seconds for seconds, _ in times])
        median, p99, most = figures[dialect]
        slowest = max(times)[1] if times else "-"
        missed = []
        if p99 >= P99_TARGET_MS:
            missed.append(f"p99 {p99 / P99_TARGET_MS:.1f}x the target")
        if most >= MAX_TARGET_MS:
            missed.append(f"max {most / MAX_TARGET_MS:.1f}x the target")
        write(f"{dialect:<16}{median:>9.2f}{p99:>9.2f}{most:>10.1f}  {refused:>7}  {slowest}, "
              + ("; ".join(missed) if missed else "meets the targets"))
    write("(refused: schemas strictify rejects with a SchemaError, e.g. an unresolvable $ref; not timed)")
    return figures


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.bench corpus", description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", type=Path, default=None, help="folder of *.json schemas (default: JSONSchemaBench if present)")
    parser.add_argument("--limit", type=int, default=None, help="an evenly spaced sample of this many schemas")
    parser.add_argument("--dialects", default="", help="comma-separated dialects for strictify (default: every shipped one)")
    parser.add_argument("--lint-dialect", default="openai", help="dialect for validate_strict beside schemafit (none: skip that table)")
    arguments = parser.parse_args(list(argv) if argv is not None else None)
    corpus = load_corpus(arguments.corpus or default_corpus(), arguments.limit)
    if arguments.lint_dialect != "none":
        bench_linters(corpus, arguments.lint_dialect)
        print()
    bench_strictify_corpus(corpus, [name for name in arguments.dialects.split(",") if name] or None)
    return 0

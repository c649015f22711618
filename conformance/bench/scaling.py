"""How the SM validator and the reference strictify grow with the shape of a schema. Figures only.

``python -m strictconformance.bench scaling [--sizes 100,200,...] [--dag-depths 4,8,...] [--dialect D]``

- ``validate_strict`` on four families of schemas, each at growing sizes: nesting depth (objects
  inside objects), a ``$ref`` chain (definition i is a reference to definition i+1), the number of
  ``$defs`` (each used once from the root), and shared sub-schemas (definition i refers to
  definition i+1 twice, a DAG whose unfolded tree has 2^N nodes). For each: milliseconds per size
  and the fitted growth exponent of time against size (1.00 is linear).
- the reference strictify on the shared-sub-schema DAG of depth N in every shipped dialect: time
  and nodes of the output, and whether both grow polynomially in N (the output never shares a
  node, so its node count is its JSON size). A dialect without ``$ref`` (``openai@2025-01``) must
  inline; its depth limit keeps the inlined output polynomial.
- the same for an ``anyOf`` DAG whose levels are shared Python objects (no ``$ref`` written):
  a dialect that keeps references keeps each shared object once; one that inlines them refuses
  what would come out exponentially large.
"""

from __future__ import annotations

import argparse
import contextlib
import gc
import math
import statistics
import time
from collections.abc import Callable, Sequence
from typing import Any

__all__ = ["FAMILIES", "bench_dag_strictify", "bench_validator", "growth_exponent", "main", "shared_objects", "unfolded_size"]


def growth_exponent(points: Sequence[tuple[float, float]]) -> float:
    """Least-squares slope of log(time) against log(size): time ~ size^slope."""
    xs = [math.log(size) for size, _ in points]
    ys = [math.log(max(seconds, 1e-9)) for _, seconds in points]
    mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum((x - mean_x) ** 2 for x in xs)


def _closed(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


def nested(depth: int) -> dict[str, Any]:
    """Objects ``depth`` deep, each holding the next under ``child`` beside a string."""
    node: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        node = _closed({"name": {"type": "string"}, "child": node})
    return node


def ref_chain(length: int) -> dict[str, Any]:
    """``d0`` is a reference to ``d1``, ..., the last one a string; the root uses ``d0``."""
    definitions: dict[str, Any] = {f"d{i}": {"$ref": f"#/$defs/d{i + 1}"} for i in range(length - 1)}
    definitions[f"d{length - 1}"] = {"type": "string"}
    return {**_closed({"value": {"$ref": "#/$defs/d0"}}), "$defs": definitions}


def many_defs(count: int) -> dict[str, Any]:
    """``count`` definitions, each an object of two properties, each used once from the root."""
    definitions = {f"d{i}": _closed({"id": {"type": "integer"}, "label": {"type": "string"}}) for i in range(count)}
    return {**_closed({f"p{i}": {"$ref": f"#/$defs/d{i}"} for i in range(count)}), "$defs": definitions}


def shared_dag(depth: int) -> dict[str, Any]:
    """``d{i}`` holds ``left`` and ``right``, both references to ``d{i+1}``: unfolded, 2^depth leaves."""
    definitions: dict[str, Any] = {f"d{i}": _closed({"left": {"$ref": f"#/$defs/d{i + 1}"}, "right": {"$ref": f"#/$defs/d{i + 1}"}})
                                   for i in range(depth)}
    definitions[f"d{depth}"] = {"type": "string"}
    return {**_closed({"tree": {"$ref": "#/$defs/d0"}}), "$defs": definitions}


def shared_objects(depth: int) -> dict[str, Any]:
    """``depth`` levels of ``anyOf: [next, integer, next]`` where ``next`` is one Python object
    used twice: written out as JSON, about 3 * 2^depth subschemas; as Python objects, 2 * depth."""
    node: dict[str, Any] = {"type": "string"}
    for _ in range(depth):
        node = {"anyOf": [node, {"type": "integer"}, node]}
    return _closed({"value": node})


#: (name, size unit, builder)
FAMILIES: tuple[tuple[str, str, Callable[[int], dict[str, Any]]], ...] = (
    ("nesting depth", "levels", nested),
    ("$ref chain", "references", ref_chain),
    ("number of $defs", "definitions", many_defs),
    ("shared sub-schemas (DAG)", "levels", shared_dag),
    ("shared Python objects", "levels", shared_objects),
)


def _median_seconds(run: Callable[[], Any], budget: float = 0.5, most: int = 25) -> float:
    """Median CPU time of ``run`` repeated within about ``budget`` CPU seconds (3 runs at least;
    CPU time, since on a shared machine the wall time of a run counts whoever else ran meanwhile),
    with the cyclic garbage collector paused as timeit does."""
    times: list[float] = []
    gc.collect()  # once: a full collection per run costs more than a small run inside a big process
    gc.disable()
    try:
        while len(times) < 3 or (sum(times) < budget and len(times) < most):
            started = time.process_time()
            run()
            times.append(time.process_time() - started)
    finally:
        gc.enable()
    return statistics.median(times)


def _verdict(exponent: float) -> str:
    return "linear" if exponent < 1.2 else "NOT linear"


def bench_validator(sizes: Sequence[int] = (100, 200, 400, 800, 1600), dialect: str = "openai",
                    write: Callable[[str], None] = print, budget: float = 0.5) -> dict[str, dict[int, float]]:
    """Time ``validate_strict`` per family and size; print ms per size and the growth exponent."""
    from strictconformance.dialects.validator import validate_strict

    figures: dict[str, dict[int, float]] = {}
    write(f"validate_strict ({dialect}): median CPU ms per schema by size")
    write(f"{'family':<28}" + "".join(f"{size:>10}" for size in sizes) + f"{'exponent':>10}  verdict")
    for name, _, build in FAMILIES:
        row: dict[int, float] = {}
        for size in sizes:
            schema = build(size)
            row[size] = _median_seconds(lambda schema=schema: validate_strict(schema, dialect), budget=budget)  # type: ignore[misc]
        figures[name] = row
        exponent = growth_exponent(sorted(row.items())) if len(row) >= 2 else float("nan")
        write(f"{name:<28}" + "".join(f"{row[size] * 1e3:>10.2f}" for size in sizes) + f"{exponent:>10.2f}  {_verdict(exponent)}")
    write("(exponent: slope of log time against log size; 1.00 is linear, 2.00 quadratic)")
    return figures


def unfolded_size(node: Any) -> tuple[int, int]:
    """(distinct dict nodes, nodes of the unfolded tree) of a JSON-like value whose subtrees may be
    shared objects; counted without unfolding (the unfolded count is a sum over the DAG)."""
    memo: dict[int, int] = {}
    keep: list[Any] = []  # keeps every counted node alive, so ids stay unique

    def count(value: Any) -> int:
        if isinstance(value, dict):
            key = id(value)
            if key not in memo:
                keep.append(value)
                memo[key] = 1 + sum(count(sub) for sub in value.values())
            return memo[key]
        if isinstance(value, list):
            return sum(count(sub) for sub in value)
        return 0

    total = count(node)
    return len(memo), total


def bench_dag_strictify(depths: Sequence[int] = (4, 8, 12, 16, 20), dialects: Sequence[str] | None = None,
                        write: Callable[[str], None] = print, build: Callable[[int], dict[str, Any]] = shared_dag,
                        what: str = "a shared-sub-schema DAG") -> dict[str, dict[int, tuple[float, int]]]:
    """Strictify the DAG ``build(N)`` of each depth in each dialect: time and output nodes,
    their growth exponents, and whether either grows like 2^N (exponential) over the last step.
    A schema strictify refuses (its output would be too large) is shown as refused."""
    from strictconformance.dialects.model import SchemaError
    from strictconformance.dialects.shipped import SHIPPED
    from strictconformance.reference.strictify import strictify

    figures: dict[str, dict[int, tuple[float, int]]] = {}
    write(f"reference strictify of {what} of depth N (unfolding it would give 2^N nodes): "
          f"CPU ms / nodes of the output, N = {', '.join(map(str, depths))}")
    for dialect in dialects or list(SHIPPED):
        row: dict[int, tuple[float, int]] = {}
        refused: dict[int, float] = {}
        for depth in depths:
            schema = build(depth)
            try:
                output = strictify(schema, dialect).schema
            except SchemaError:
                started = time.process_time()
                with contextlib.suppress(SchemaError):
                    strictify(schema, dialect)
                refused[depth] = time.process_time() - started
                continue
            seconds = _median_seconds(lambda schema=schema, dialect=dialect: strictify(schema, dialect), budget=0.2, most=5)  # type: ignore[misc]
            row[depth] = (seconds, unfolded_size(output)[1])
        figures[dialect] = row
        if refused:
            cells = "  ".join([f"{t * 1e3:.1f}/{n}" for t, n in row.values()] + [f"refused in {t * 1e3:.1f}" for t in refused.values()])
            write(f"  {dialect:<16}{cells}   (refused: the output would be too large once written out)")
            continue
        points = sorted(row.items())
        time_exponent = growth_exponent([(d, t) for d, (t, _) in points]) if len(points) >= 2 else float("nan")
        size_exponent = growth_exponent([(d, float(n)) for d, (_, n) in points]) if len(points) >= 2 else float("nan")
        cells = "  ".join(f"{t * 1e3:.1f}/{n}" for t, n in row.values())
        verdict = "EXPONENTIAL" if _doubles_per_level(points) else "polynomial"
        write(f"  {dialect:<16}{cells}   time ~ N^{time_exponent:.2f}, output ~ N^{size_exponent:.2f}: {verdict}")
    return figures


def _doubles_per_level(points: Sequence[tuple[int, tuple[float, int]]]) -> bool:
    """Over the last step of depths, does time or output size grow like 2^N (at least a quarter
    of 2^step, which noise on a busy machine does not reach for polynomial growth)?"""
    if len(points) < 2:
        return False
    (before, (time_before, size_before)), (after, (time_after, size_after)) = points[-2], points[-1]
    unfolding = max(2.0, 2 ** (after - before - 1))
    return bool(time_after / max(time_before, 1e-9) >= unfolding or size_after / max(size_before, 1) >= unfolding)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.bench scaling", description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", default="100,200,400,800,1600", help="sizes of each validate_strict family")
    parser.add_argument("--dag-depths", default="4,8,12,16,20", help="depths of the DAG given to strictify")
    parser.add_argument("--object-depths", default="6,10,12,18,22", help="depths of the shared-object anyOf DAG given to strictify")
    parser.add_argument("--dialect", default="openai", help="dialect for validate_strict")
    parser.add_argument("--budget", type=float, default=0.5, help="seconds of repeated runs per validate_strict cell (3 runs at least)")
    parser.add_argument("--dag-dialects", default="", help="comma-separated dialects for the DAG (default: every shipped one)")
    arguments = parser.parse_args(list(argv) if argv is not None else None)
    bench_validator([int(size) for size in arguments.sizes.split(",")], arguments.dialect, budget=arguments.budget)
    print()
    dag_dialects = [name for name in arguments.dag_dialects.split(",") if name] or None
    bench_dag_strictify([int(depth) for depth in arguments.dag_depths.split(",")], dag_dialects)
    print()
    bench_dag_strictify([int(depth) for depth in arguments.object_depths.split(",")], dag_dialects,
                        build=shared_objects, what="an anyOf DAG of shared Python objects")
    return 0

"""Benchmarks of the schema machinery. They print figures and assert nothing.

``python -m strictconformance.bench.schemas [instances|strictify|all]``

- ``instances``: drawing values of the same strict schemas with the compiled strategies,
  hypothesis-jsonschema, and hand-written strategies (targets: compiled at least 4x faster than
  hypothesis-jsonschema, within 1.5x of hand-written).
- ``strictify``: the reference strictify's throughput on schemas of 10 to 10,000 nodes, and how
  its time grows with size (the fitted exponent should be close to 1: linear).
"""

from __future__ import annotations

import argparse
import gc
import math
import statistics
import sys
import time
import warnings
from collections.abc import Callable, Sequence
from typing import Any

from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

__all__ = ["bench_instances", "bench_strictify", "main", "sized_schema"]

# --- instances -----------------------------------------------------------------------------------

_NAME = st.text(min_size=0, max_size=12)


def _nullable(strategy: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.none() | strategy


_FLAT = {
    "type": "object",
    "properties": {
        "name": {"type": "string"},
        "count": {"type": "integer", "minimum": 0, "maximum": 100},
        "ratio": {"type": "number", "minimum": 0, "maximum": 1},
        "active": {"type": "boolean"},
        "kind": {"type": "string", "enum": ["a", "b", "c"]},
        "note": {"anyOf": [{"type": "string"}, {"type": "null"}]},
    },
    "required": ["name", "count", "ratio", "active", "kind", "note"],
    "additionalProperties": False,
}
_PAIRS = {"type": "array", "items": {"type": "object", "properties": {"key": {"type": "string"}, "value": {"type": "integer"}},
                                     "required": ["key", "value"], "additionalProperties": False}}
_NESTED = {
    "type": "object",
    "properties": {
        "id": {"type": "string"},
        "tags": {"type": "array", "items": {"type": "string"}, "maxItems": 4},
        "scores": _PAIRS,
        "owner": {"type": "object", "properties": {"name": {"type": "string"}, "age": {"anyOf": [{"type": "integer"}, {"type": "null"}]}},
                  "required": ["name", "age"], "additionalProperties": False},
    },
    "required": ["id", "tags", "scores", "owner"],
    "additionalProperties": False,
}
_TUPLE_UNION = {
    "type": "object",
    "properties": {
        "point": {"type": "object", "properties": {"0": {"type": "number"}, "1": {"type": "number"},
                                                  "2": {"anyOf": [{"type": "string"}, {"type": "null"}]}},
                  "required": ["0", "1", "2"], "additionalProperties": False},
        "shape": {"anyOf": [
            {"type": "object", "properties": {"kind": {"type": "string", "enum": ["circle"]}, "r": {"type": "number"}},
             "required": ["kind", "r"], "additionalProperties": False},
            {"type": "object", "properties": {"kind": {"type": "string", "enum": ["square"]}, "side": {"type": "number"}},
             "required": ["kind", "side"], "additionalProperties": False},
        ]},
    },
    "required": ["point", "shape"],
    "additionalProperties": False,
}

_NUMBER = st.floats(allow_nan=False, allow_infinity=False)

#: (name, strict schema, a hand-written strategy for it)
_HANDWRITTEN: tuple[tuple[str, dict[str, Any], st.SearchStrategy[Any]], ...] = (
    ("flat object", _FLAT, st.fixed_dictionaries({
        "name": st.text(), "count": st.integers(0, 100), "ratio": st.floats(0, 1), "active": st.booleans(),
        "kind": st.sampled_from(["a", "b", "c"]), "note": _nullable(st.text()),
    })),
    ("nested, pairs", _NESTED, st.fixed_dictionaries({
        "id": st.text(), "tags": st.lists(st.text(), max_size=4),
        "scores": st.lists(st.fixed_dictionaries({"key": st.text(), "value": st.integers()}), max_size=3),
        "owner": st.fixed_dictionaries({"name": st.text(), "age": _nullable(st.integers())}),
    })),
    ("tuple, union", _TUPLE_UNION, st.fixed_dictionaries({
        "point": st.fixed_dictionaries({"0": _NUMBER, "1": _NUMBER, "2": _nullable(st.text())}),
        "shape": st.fixed_dictionaries({"kind": st.just("circle"), "r": _NUMBER})
        | st.fixed_dictionaries({"kind": st.just("square"), "side": _NUMBER}),
    })),
)


def _seconds_per_example(strategy: st.SearchStrategy[Any], examples: int) -> float:
    """Wall time per example of a Hypothesis run that only draws from ``strategy``."""
    @settings(max_examples=examples, phases=[Phase.generate], database=None, derandomize=True, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(strategy)
    def draw(value: Any) -> None:
        pass

    started = time.perf_counter()
    draw()
    return (time.perf_counter() - started) / examples


def bench_instances(examples: int = 300, write: Callable[[str], None] = print) -> dict[str, dict[str, float]]:
    """Compare instance generation on the same strict schemas; print a table; return the figures."""
    from hypothesis_jsonschema import from_schema

    from strictconformance.strategies.instances import compile_instances

    figures: dict[str, dict[str, float]] = {}
    write(f"instance generation, {examples} examples per schema (ms per example)")
    write(f"{'schema':<16}{'compiled':>10}{'h-jsonschema':>14}{'hand-written':>14}{'hjs/compiled':>14}{'compiled/hand':>15}")
    for name, schema, handwritten in _HANDWRITTEN:
        compiled = compile_instances(schema)
        general = from_schema(schema)
        timings = {
            "compiled": _seconds_per_example(compiled, examples),
            "hypothesis-jsonschema": _seconds_per_example(general, examples),
            "hand-written": _seconds_per_example(handwritten, examples),
        }
        figures[name] = timings
        write(f"{name:<16}{timings['compiled'] * 1e3:>10.3f}{timings['hypothesis-jsonschema'] * 1e3:>14.3f}"
              f"{timings['hand-written'] * 1e3:>14.3f}{timings['hypothesis-jsonschema'] / timings['compiled']:>13.1f}x"
              f"{timings['compiled'] / timings['hand-written']:>14.2f}x")
    speedups = [t["hypothesis-jsonschema"] / t["compiled"] for t in figures.values()]
    overheads = [t["compiled"] / t["hand-written"] for t in figures.values()]
    write(f"compiled vs hypothesis-jsonschema: {statistics.geometric_mean(speedups):.1f}x faster (geometric mean; target >= 4x)")
    write(f"compiled vs hand-written: {statistics.geometric_mean(overheads):.2f}x the time (geometric mean; target <= 1.5x)")
    return figures


# --- strictify -----------------------------------------------------------------------------------

def sized_schema(nodes: int) -> dict[str, Any]:
    """A deterministic schema of about ``nodes`` subschemas: objects of 8 properties mixing
    scalars, optional and nullable properties, records, tuples and arrays, nested 4 deep."""
    made = 0

    def leaf(index: int) -> dict[str, Any]:
        nonlocal made
        made += 1
        kind = index % 6
        if kind == 0:
            return {"type": "string", "maxLength": 20}
        if kind == 1:
            return {"type": ["integer", "null"], "minimum": 0}
        if kind == 2:
            made += 1
            return {"type": "object", "additionalProperties": {"type": "number"}}
        if kind == 3:
            made += 2
            return {"type": "array", "prefixItems": [{"type": "string"}, {"type": "boolean"}], "items": False}
        if kind == 4:
            made += 1
            return {"type": "array", "items": {"type": "string", "format": "date"}}
        return {"type": "boolean", "default": False}

    def build(depth: int) -> dict[str, Any]:
        nonlocal made
        made += 1
        properties = {}
        for index in range(8):
            if made >= nodes:
                break
            properties[f"p{depth}_{index}_{made}"] = build(depth + 1) if depth < 3 and index % 4 == 0 else leaf(index)
        return {"type": "object", "properties": properties, "required": list(properties)[::2]}

    root = build(0)
    while made < nodes:  # widen at the root until the size is reached
        root["properties"][f"more_{made}"] = build(1)
    return root


def _count_nodes(schema: Any) -> int:
    from strictconformance.dialects.validator import iter_schema_nodes
    return sum(1 for _ in iter_schema_nodes(schema))


def bench_strictify(sizes: Sequence[int] = (10, 100, 1000, 10_000), dialect: str = "openai",
                    write: Callable[[str], None] = print) -> dict[int, float]:
    """Time the reference strictify per schema size; print throughput and the growth exponent."""
    from strictconformance.reference.strictify import strictify

    figures: dict[int, float] = {}
    write(f"reference strictify ({dialect}): median of repeated runs, garbage collector paused as timeit does")
    write(f"{'nodes':>8}{'ms':>12}{'nodes/s':>12}")
    for size in sizes:
        schema = sized_schema(size)
        nodes = _count_nodes(schema)
        repeats = max(3, min(50, 20_000 // max(nodes, 1)))
        times = []
        # one full collection per size, not per run: in a long-lived process (a test worker holding
        # gigabytes) each full collection took seconds, 100 of them 16 minutes
        gc.collect()
        for _ in range(repeats):
            gc.disable()  # as timeit does: the cyclic collector's pauses are not strictify's work
            try:
                started = time.perf_counter()
                strictify(schema, dialect)
                times.append(time.perf_counter() - started)
            finally:
                gc.enable()
        median = statistics.median(times)
        figures[nodes] = median
        write(f"{nodes:>8}{median * 1e3:>12.2f}{nodes / median:>12.0f}")
    points = sorted(figures.items())
    if len(points) >= 2:
        xs = [math.log(n) for n, _ in points]
        ys = [math.log(t) for _, t in points]
        mean_x, mean_y = statistics.fmean(xs), statistics.fmean(ys)
        slope = sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sum((x - mean_x) ** 2 for x in xs)
        write(f"growth: time ~ nodes^{slope:.2f} (1.00 is linear; fitted over {points[0][0]}..{points[-1][0]} nodes)")
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.bench.schemas", description=__doc__.split("\n\n")[0])
    parser.add_argument("what", nargs="?", choices=("instances", "strictify", "all"), default="all")
    parser.add_argument("--examples", type=int, default=300, help="examples per schema for the instance benchmark")
    parser.add_argument("--sizes", default="10,100,1000,10000", help="schema sizes (nodes) for the strictify benchmark")
    parser.add_argument("--dialect", default="openai", help="dialect for the strictify benchmark")
    arguments = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # hypothesis-jsonschema's deprecation chatter is not a figure
    if arguments.what in ("instances", "all"):
        bench_instances(arguments.examples)
    if arguments.what in ("strictify", "all"):
        if arguments.what == "all":
            print()
        bench_strictify([int(size) for size in arguments.sizes.split(",")], arguments.dialect)
    return 0


if __name__ == "__main__":
    sys.exit(main())

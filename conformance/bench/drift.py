"""Benchmark: the reference drift validator against ``jsonschema`` on the shipped cassettes.

``python -m strictconformance.bench.drift [--repeat N] [--api API] [--json]``

For each API, every recorded response body is validated by :func:`validate_response` and by a
pre-built ``jsonschema.Draft202012Validator`` (``is_valid``) on the equivalent schema from
:mod:`strictconformance.drift.jsonschema_export`; streams likewise, where the validator also
parses each event's JSON text and ``jsonschema`` gets the already parsed stream document.
The best of three timed rounds is reported. It prints figures and asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial
from typing import Any

import jsonschema  # type: ignore[import-untyped]

from strictconformance.drift.cassettes import recorded_responses
from strictconformance.drift.jsonschema_export import response_json_schema, stream_json_schema
from strictconformance.drift.shapes import API_IDS
from strictconformance.drift.validator import stream_document, validate_response, validate_stream

__all__ = ["BenchRow", "main", "run"]


@dataclass(frozen=True)
class BenchRow:
    api: str
    kind: str
    samples: int
    ours_us: float
    jsonschema_us: float

    @property
    def speedup(self) -> float:
        return self.jsonschema_us / self.ours_us if self.ours_us else float("inf")


def _time_per_call(calls: Sequence[Callable[[], object]], repeat: int) -> float:
    """Best of three rounds, in microseconds per call."""
    best = float("inf")
    for _ in range(3):
        start = time.perf_counter_ns()
        for _ in range(repeat):
            for call in calls:
                call()
        elapsed = (time.perf_counter_ns() - start) / 1_000 / (repeat * len(calls))
        best = min(best, elapsed)
    return best


def run(apis: Sequence[str] = API_IDS, repeat: int = 100) -> list[BenchRow]:
    rows = []
    for api in apis:
        payloads = [r.payload() for r in recorded_responses(api, streams=False)]
        streams = [r.events() for r in recorded_responses(api, streams=True)]
        if payloads:
            validator = jsonschema.Draft202012Validator(response_json_schema(api))
            for payload in payloads:  # both must agree before being timed
                if validator.is_valid(payload) != validate_response(api, payload).ok:
                    raise AssertionError(f"{api}: the schema and the validator disagree on a cassette")
            ours = _time_per_call([partial(validate_response, api, p) for p in payloads], repeat)
            theirs = _time_per_call([partial(validator.is_valid, p) for p in payloads], repeat)
            rows.append(BenchRow(api, "response", len(payloads), ours, theirs))
        if streams:
            validator = jsonschema.Draft202012Validator(stream_json_schema(api))
            documents = [stream_document(api, events) for events in streams]
            ours = _time_per_call([partial(validate_stream, api, e) for e in streams], max(1, repeat // 4))
            theirs = _time_per_call([partial(validator.is_valid, d) for d in documents], max(1, repeat // 4))
            rows.append(BenchRow(api, "stream", len(streams), ours, theirs))
    return rows


def _table(rows: Sequence[BenchRow]) -> str:
    header = f"{'api':<26}{'kind':<10}{'n':>3}{'ours µs':>12}{'jsonschema µs':>16}{'speedup':>10}"
    lines = [header, "-" * len(header)]
    lines += [f"{r.api:<26}{r.kind:<10}{r.samples:>3}{r.ours_us:>12.1f}{r.jsonschema_us:>16.1f}{r.speedup:>9.1f}x" for r in rows]
    total_ours = sum(r.ours_us * r.samples for r in rows)
    total_theirs = sum(r.jsonschema_us * r.samples for r in rows)
    lines.append("-" * len(header))
    lines.append(f"{'all cassettes':<36}{total_ours:>13.1f}{total_theirs:>16.1f}{total_theirs / total_ours:>9.1f}x")
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.bench.drift", description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=100, help="timed passes over the cassettes per round (default: 100)")
    parser.add_argument("--api", action="append", choices=API_IDS, help="only these APIs (repeatable)")
    parser.add_argument("--json", action="store_true", help="print the figures as JSON")
    args = parser.parse_args(argv)
    rows = run(tuple(args.api) if args.api else API_IDS, max(1, args.repeat))
    if args.json:
        payload: list[dict[str, Any]] = [{**r.__dict__, "speedup": r.speedup} for r in rows]
        print(json.dumps(payload, indent=2))
    else:
        print(_table(rows))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""What grouping findings into defects costs, beside the run it belongs to.

``python -m strictconformance.bench defects [--report PATH ...] [--findings N]`` times
:func:`strictconformance.defects.group_defects` (as the report calls it) on each report's findings
and prints it beside the report's own check time (the sum of its checks' durations): the grouping
runs once per report, so its share of a column's time is the figure to read. Without a report, it
times N synthetic findings of the shapes real reports hold (SM violations met by many cases, RT-1
restatements, crashes with an origin, drift misses). Asserts nothing.
"""

from __future__ import annotations

import argparse
import json
import time
from collections.abc import Sequence
from typing import Any

from strictconformance.defects import group_defects, identity_dialects


def _synthetic(count: int) -> list[dict[str, Any]]:
    findings: list[dict[str, Any]] = []
    for index in range(count):
        rule = f"SM-{index % 40 + 1:02d}"
        kind = index % 7
        if kind == 0:
            findings.append({"rule": "RT-1", "kind": "crash", "key": "RT-1 crash: TypeError from strictify()", "where": None,
                             "message": "", "counterexample": {"schema": {"type": "object"}},
                             "origin": {"file": "sdk/walk.py", "function": f"f{index % 5}", "line": index}})
        elif kind == 1:
            findings.append({"rule": "DR-2", "kind": "violation", "key": "DR-2 violation: missed breaking drift (drop_field)",
                             "where": None, "message": "", "counterexample": {"api": "openai.chat", "mutation": {"path": f"f{index % 9}"}}})
        else:
            schema = {"type": "object", "properties": {f"p{index}": {"type": "string"}}}
            findings.append({"rule": rule, "kind": "violation", "key": f"{rule} violation: `kw{index % 3}` of an object (trap t{index})",
                             "where": f"/properties/p{index}", "message": "",
                             "counterexample": {"dialect": "openai", "schema": schema, "strict": schema,
                                                "violations": [f"{rule} X at /properties/p{index}: keyword {index % 3} is not allowed"]}})
    return findings


def _time(findings: list[dict[str, Any]], identity: frozenset[str]) -> tuple[float, int]:
    best = float("inf")
    defects = 0
    for _ in range(5):
        started = time.process_time()
        defects = len(group_defects(findings, identity=identity))
        best = min(best, time.process_time() - started)
    return best, defects


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.bench defects", description=__doc__.split("\n\n")[0])
    parser.add_argument("--report", action="append", default=[], metavar="PATH", help="a JSON report (--sc-report); repeatable")
    parser.add_argument("--findings", type=int, default=2000, help="synthetic findings to time without a report (default 2000)")
    args = parser.parse_args(argv)
    print(f"{'input':<40} {'findings':>8} {'defects':>8} {'grouping CPU':>13} {'checks':>10} {'share':>7}")
    if not args.report:
        findings = _synthetic(args.findings)
        seconds, defects = _time(findings, frozenset())
        print(f"{'synthetic':<40} {len(findings):>8} {defects:>8} {seconds * 1000:>10.1f} ms {'-':>10} {'-':>7}")
    for path in args.report:
        with open(path, encoding="utf-8") as handle:
            report = json.load(handle)
        findings = [dict(finding) for data in report.get("rules", {}).values() for finding in data.get("findings", [])]
        checks = sum(check.get("duration_s", 0.0) for data in report.get("rules", {}).values() for check in data.get("checks", []))
        seconds, defects = _time(findings, identity_dialects(report.get("strictify", {})))
        share = f"{100 * seconds / checks:.3f}%" if checks else "-"
        print(f"{path[-40:]:<40} {len(findings):>8} {defects:>8} {seconds * 1000:>10.1f} ms {checks:>9.1f}s {share:>7}")
    print("target: grouping adds under 10% to a column's time (it runs once per report)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``python -m strictconformance.process check "COMMAND" [--cwd DIR]``: does a harness speak the protocol?"""

from __future__ import annotations

import argparse
import sys

from strictconformance.process.conformance import check_harness


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.process")
    sub = parser.add_subparsers(dest="action", required=True)
    check = sub.add_parser("check", help="check that a harness speaks strictconformance-process/1")
    check.add_argument("command", help='the harness command line, e.g. "node harness.mjs"')
    check.add_argument("--cwd", default=None, help="working directory of the harness")
    check.add_argument("--timeout", type=float, default=10.0, help="seconds per call (default 10)")
    options = parser.parse_args(argv)
    verdict = check_harness(options.command, cwd=options.cwd, timeout=options.timeout)
    print(verdict.render())
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())

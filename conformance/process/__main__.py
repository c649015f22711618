"""``python -m strictconformance.process check "COMMAND" [--cwd DIR]``: does a harness speak the protocol?

``python -m strictconformance.process install-node``: install the shipped Node harnesses' packages
(``npm ci`` from the committed lockfile, in the kit's Node folder, wherever pip put the kit), so
the matrix's TypeScript SDK columns can run.

``python -m strictconformance.process kit-path [--folder]``: where the Node harness kit
(``harness-kit.mjs``) is, or with ``--folder`` the kit's Node folder (the shipped harnesses are in
its ``harnesses/``), wherever pip put the kit: a harness of your own copies the kit from there."""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from strictconformance.process import node_folder
from strictconformance.process.conformance import check_harness


def install_node() -> int:
    """``npm ci`` in :func:`node_folder`; 0 when it worked, 2 with the reason when it did not."""
    folder = node_folder()
    npm = shutil.which("npm")
    if npm is None:
        print("error: npm is not installed (Node 20 or later with npm is needed for the Node harnesses)",
              file=sys.stderr)
        return 2
    print(f"install-node: npm ci in {folder}", file=sys.stderr, flush=True)
    try:
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=folder, check=False)
    except OSError as error:
        print(f"error: could not run npm in {folder}: {error}", file=sys.stderr)
        return 2
    if done.returncode != 0:
        print(f"error: npm ci in {folder} failed with exit code {done.returncode} (its output is above)",
              file=sys.stderr)
        return 2
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.process")
    sub = parser.add_subparsers(dest="action", required=True)
    check = sub.add_parser("check", help="check that a harness speaks strictconformance-process/1")
    check.add_argument("command", help='the harness command line, e.g. "node harness.mjs"')
    check.add_argument("--cwd", default=None, help="working directory of the harness")
    check.add_argument("--timeout", type=float, default=10.0, help="seconds per call (default 10)")
    sub.add_parser("install-node", help="npm ci the shipped Node harnesses' packages (for the matrix's TypeScript columns)")
    kit_path = sub.add_parser("kit-path", help="print the path of the Node harness kit (harness-kit.mjs) to copy beside "
                                               "your harness, or with --folder the kit's Node folder")
    kit_path.add_argument("--folder", action="store_true", help="print the Node folder (harness-kit.mjs, harnesses/, "
                                                                "package.json) instead")
    options = parser.parse_args(argv)
    if options.action == "install-node":
        return install_node()
    if options.action == "kit-path":
        folder = Path(node_folder())
        print(folder if options.folder else folder / "harness-kit.mjs")
        return 0
    verdict = check_harness(options.command, cwd=options.cwd, timeout=options.timeout)
    print(verdict.render())
    return 0 if verdict.ok else 1


if __name__ == "__main__":
    sys.exit(main())

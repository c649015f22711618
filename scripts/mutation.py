"""Mutation testing of the reference implementation under the suite, one family at a time.

Each family names the reference modules it mutates and the suite's checks of its own rules: a
mutant is run against those checks only (the `ci` profile, stop at the first failure). The tool is
cosmic-ray (``tox -e mutation``); it edits the module in place and restores it after each mutant,
so run this in a checkout of its own, never one you are editing.

    python scripts/mutation.py planner            # init + exec + score; exit 1 under the threshold
    python scripts/mutation.py planner --report   # the score and the survivors of the last session
    python scripts/mutation.py --list             # the families

Sessions are kept in ``mutation-build/<family>.sqlite`` (an interrupted run resumes there).
The score is killed / (killed + survived - survivors argued equivalent in docs/mutation.md); any
other survivor wants a new case in the suite.
"""

from __future__ import annotations

import argparse
import ast
import os
import re
import shlex
import shutil
import sqlite3
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
BUILD = ROOT / "mutation-build"
THRESHOLD = 0.90
#: the committed list of survivors argued equivalent: lines "- `module:line` `operator` #occurrence: why"
EQUIVALENTS = ROOT / "docs" / "mutation.md"
_EQUIVALENT = re.compile(r"^- `(?P<module>[^`:]+):(?P<line>\d+)` `(?P<operator>[^`]+)` #(?P<occurrence>\d+): \S")


@dataclass(frozen=True)
class Family:
    modules: tuple[str, ...]  # files under the repository root
    checks: tuple[str, ...]  # modules of strictconformance.checks that judge the family's rules


FAMILIES: dict[str, Family] = {
    # the planner's budget allocation alone (BUD-1..BUD-6 and the priority rules): the fast subset
    "budgets": Family(("conformance/reference/budgets.py",), ("test_budgets", "test_priority")),
    "planner": Family(("conformance/reference/budgets.py", "conformance/reference/resolution.py"),
                      ("test_budgets", "test_priority", "test_resolution")),
    "codec": Family(("conformance/reference/strictify/codec.py",), ("test_roundtrip",)),
    "strictify": Family(("conformance/reference/strictify/_passes.py",), ("test_strict_mode", "test_roundtrip")),
    "drift": Family(("conformance/drift/validator.py",), ("test_drift",)),
    "tools": Family(("conformance/tools/helper.py",), ("test_tools",)),
}

#: what the nightly workflow and a bare `tox -e mutation` run (budgets is a fast subset of planner)
NIGHTLY = ("planner", "codec", "strictify", "drift", "tools")


def _cosmic_ray() -> str:
    """cosmic-ray's command: the one installed beside this Python (a venv run without activating
    it has it there, not on PATH), else the one on PATH."""
    beside = Path(sys.executable).parent / "cosmic-ray"
    if beside.is_file():
        return str(beside)
    found = shutil.which("cosmic-ray")
    if found is None:
        sys.exit("cosmic-ray is not installed: pip install -e '.[mutation]' (or tox -e mutation)")
    return found


def test_command(family: Family) -> str:
    """The family's checks on the reference adapter (the plugin's default), small and fast."""
    targets = " ".join(f"strictconformance.checks.{name}" for name in family.checks)
    return (f"{shlex.quote(sys.executable)} -m pytest -p strictconformance -p no:cacheprovider -q -x -n 0 "
            f"--sc-profile ci --sc-in-process --pyargs {targets}")


def _config(name: str, family: Family) -> Path:
    BUILD.mkdir(exist_ok=True)
    path = BUILD / f"{name}.toml"
    modules = ", ".join(f'"{module}"' for module in family.modules)
    path.write_text(
        "[cosmic-ray]\n"
        f"module-path = [{modules}]\n"
        "timeout = 300.0\n"
        "excluded-modules = []\n"
        f"test-command = {_toml_string(test_command(family))}\n"
        "\n[cosmic-ray.distributor]\nname = \"local\"\n",
        encoding="utf-8")
    return path


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _stale_bytecode(family: Family) -> None:
    """A mutant of the same size written within the same second as the file it replaces would be
    served from the old .pyc: remove the caches and write none (PYTHONDONTWRITEBYTECODE)."""
    for module in family.modules:
        cache = (ROOT / module).parent / "__pycache__"
        if cache.is_dir():
            shutil.rmtree(cache)


def _annotation_spans(path: Path) -> list[tuple[tuple[int, int], tuple[int, int]]]:
    """Where the module's annotations are ((row, col) start, end). Every reference module has
    ``from __future__ import annotations``: an annotation is never evaluated, so a mutant inside
    one (``str | None`` to ``str & None``) is equivalent by construction and is not run."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    if not any(isinstance(node, ast.ImportFrom) and node.module == "__future__"
               and any(alias.name == "annotations" for alias in node.names) for node in tree.body):
        raise ValueError(f"{path}: no `from __future__ import annotations`, its annotations are evaluated")
    spans = []
    for node in ast.walk(tree):
        annotations: list[ast.expr | None] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            annotations.append(node.returns)
            arguments = node.args
            for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]:
                if arg is not None:
                    annotations.append(arg.annotation)
        elif isinstance(node, ast.AnnAssign):
            annotations.append(node.annotation)
        for annotation in annotations:
            if annotation is not None:
                spans.append(((annotation.lineno, annotation.col_offset),
                              (annotation.end_lineno or annotation.lineno, annotation.end_col_offset or 0)))
    return spans


def skip_annotations(session: Path) -> int:
    """Mark the session's mutants inside annotations as skipped (run or not); how many."""
    from cosmic_ray.work_db import WorkDB, use_db
    from cosmic_ray.work_item import WorkerOutcome, WorkResult

    skipped = 0
    with use_db(str(session), WorkDB.Mode.open) as db:
        spans: dict[Path, list[tuple[tuple[int, int], tuple[int, int]]]] = {}
        for item in list(db.work_items):
            for mutation in item.mutations:
                module = Path(mutation.module_path)
                if module not in spans:
                    spans[module] = _annotation_spans(ROOT / module)
                start = tuple(mutation.start_pos)
                if any(low <= start < high for low, high in spans[module]):
                    db.set_result(item.job_id, WorkResult(worker_outcome=WorkerOutcome.SKIPPED,
                                                          output="inside an annotation (never evaluated)"))
                    skipped += 1
                    break
    return skipped


def run(name: str, family: Family) -> None:
    config = _config(name, family)
    session = BUILD / f"{name}.sqlite"
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    env.pop("GITHUB_ACTIONS", None)
    env["CI"] = "true"  # the derandomized `ci` profile: the same examples for every mutant
    _stale_bytecode(family)
    if not session.exists():
        subprocess.run([_cosmic_ray(), "init", str(config), str(session)], check=True, cwd=ROOT, env=env)
    print(f"{name}: {skip_annotations(session)} mutants inside annotations skipped (equivalent)")
    # the unmutated run must pass, or every mutant would count as killed
    baseline = subprocess.run(shlex.split(test_command(family)), cwd=ROOT, env=env)
    if baseline.returncode != 0:
        raise SystemExit(f"mutation: the {name} checks fail on the unmutated reference: no score")
    subprocess.run([_cosmic_ray(), "exec", str(config), str(session)], check=True, cwd=ROOT, env=env)


def score(name: str) -> tuple[int, int, int, list[str]]:
    """(killed, survived, pending, survivors as 'file:line operator occurrence'); the skipped
    (inside annotations) are none of these."""
    session = BUILD / f"{name}.sqlite"
    if not session.exists():
        raise SystemExit(f"mutation: no session for {name} ({session}); run it first")
    db = sqlite3.connect(session)
    rows = db.execute(
        "SELECT m.module_path, m.start_pos_row, m.operator_name, m.occurrence, r.test_outcome, r.worker_outcome "
        "FROM mutation_specs m LEFT JOIN work_results r ON r.job_id = m.job_id "
        "ORDER BY m.module_path, m.start_pos_row").fetchall()
    killed = survived = pending = 0
    survivors = []
    for module, row, operator, occurrence, outcome, worker in rows:
        if worker == "SKIPPED":
            continue
        if outcome is None:
            pending += 1
        elif outcome == "SURVIVED":
            survived += 1
            survivors.append(f"{Path(module).as_posix()}:{row} {operator} #{occurrence}")
        else:  # KILLED, INCOMPETENT (the mutant does not even import): the suite caught it
            killed += 1
    return killed, survived, pending, survivors


def equivalents(path: Path = EQUIVALENTS) -> set[str]:
    """The survivors argued equivalent, as 'file:line operator #occurrence' (what score() lists).
    An entry whose line no longer holds that mutant stops matching, and the mutant counts again."""
    found = set()
    for line in path.read_text(encoding="utf-8").splitlines():
        match = _EQUIVALENT.match(line)
        if match:
            found.add(f"{match['module']}:{match['line']} {match['operator']} #{match['occurrence']}")
    return found


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("family", nargs="*", help=f"one or more of {', '.join(FAMILIES)}")
    parser.add_argument("--report", action="store_true", help="only report the last session")
    parser.add_argument("--list", action="store_true", help="list the families and their commands")
    args = parser.parse_args(argv)
    if args.list or not args.family:
        for name, family in FAMILIES.items():
            print(f"{name}: {', '.join(family.modules)}\n    {test_command(family)}")
        return 0
    unknown = [name for name in args.family if name not in FAMILIES]
    if unknown:
        parser.error(f"unknown family {', '.join(unknown)}; known: {', '.join(FAMILIES)}")
    status = 0
    for name in args.family:
        if not args.report:
            run(name, FAMILIES[name])
        killed, survived, pending, survivors = score(name)
        argued = equivalents()
        equivalent = [line for line in survivors if line in argued]
        total = killed + survived - len(equivalent)
        ratio = killed / total if total else 0.0
        print(f"{name}: {killed}/{total} killed ({ratio:.1%}); {len(equivalent)} survivors argued "
              f"equivalent in {EQUIVALENTS.relative_to(ROOT)} left out; {pending} not run")
        for line in survivors:
            print(f"  {'equivalent' if line in argued else 'SURVIVED'}: {line}")
        if pending or ratio < THRESHOLD:
            status = 1
    return status


if __name__ == "__main__":
    sys.exit(main())

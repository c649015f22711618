"""``python -m strictconformance.matrix``: the suite against every installed SDK path, in one page.

Runs the suite against the reference and each SDK path of :data:`strictconformance.sdks.SDK_PATHS`
(each in its own process, progress on stderr), then writes to ``--out``: ``matrix.json`` (the
combined document, ``matrix.schema.json``), ``matrix.md``, ``matrix.html`` (one static page) and
``summary.json`` (the small summary the repository keeps as ``matrix/summary.json``), beside ``reports/`` (each column's own report) and ``logs/`` (each column's pytest output).
``--retriage`` runs nothing: it joins the triage files to the matrix already in ``--out`` again.
A distributed build runs one column per job with ``--shard`` (each job's ``--out`` then holds that
column's report and its result in ``columns/``) and joins them with ``--combine DIR...``.

Exit status: 0 when the matrix was built and every selected path ran or is unavailable; 3 when it
was built but a column errored (crashed, hung, wrote no report); 2 on bad options or reports that
cannot be combined (different kit versions or case sets). Findings are data, not an exit status.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path
from typing import Any

from strictconformance.matrix.combine import (
    FINDING_VERDICTS,
    ColumnResult,
    MatrixError,
    annotate_triage,
    cell_verdicts,
    changes_lines,
    check_matrix,
    combine,
    diff_matrices,
    summarize,
)
from strictconformance.matrix.render import render_html, render_markdown
from strictconformance.matrix.run import REFERENCE, run_column, unavailable_reason
from strictconformance.sdks import SDK_PATHS, SdkPath

__all__ = ["build_parser", "main"]

#: The speed target: the whole suite on one SDK path, ci profile, 2 cores.
TARGET_S = 180.0


def build_parser() -> argparse.ArgumentParser:
    from strictconformance.profiles import PROFILE_NAMES

    parser = argparse.ArgumentParser(
        prog="python -m strictconformance.matrix",
        description="Run the conformance suite against the reference and every installed SDK path; "
                    "write the matrix as JSON, Markdown and one static HTML page.")
    parser.add_argument("--paths", action="append", default=[], metavar="KEY",
                        help="SDK paths to run (keys, or an SDK name for all its paths; repeat or comma-separate). "
                             "Default: all. The reference always runs.")
    parser.add_argument("--adapter", action="append", default=[], metavar="KEY=MODULE:ATTR",
                        help="an extra column: your own adapter (importable from the current folder)")
    parser.add_argument("--rules", action="append", default=[], metavar="ID",
                        help="run only these rules (IDs or areas, as --sc-rule); default all")
    parser.add_argument("--profile", choices=PROFILE_NAMES, default="ci", help="Hypothesis profile (default ci)")
    parser.add_argument("-n", dest="workers", default=None, metavar="N",
                        help="pytest-xdist workers per column (passed through as -n N; 'auto' works)")
    parser.add_argument("--out", type=Path, default=Path("sc-matrix"), help="output folder (default ./sc-matrix)")
    parser.add_argument("--against", type=Path, default=None, metavar="OLD.json",
                        help="a previous matrix.json: print and render what changed")
    parser.add_argument("--timeout", type=float, default=1800.0, metavar="SECONDS",
                        help="a column running longer is stopped and shown as an error (default 1800)")
    parser.add_argument("--triage", type=Path, default=None, metavar="DIR",
                        help="triage folder (default: the shipped conformance/sdks/triage)")
    parser.add_argument("--bench", action="store_true",
                        help=f"print each column's wall time against the target ({TARGET_S:.0f} s per SDK path)")
    parser.add_argument("--list", action="store_true", help="list the SDK paths and whether each can run here")
    parser.add_argument("--json", action="store_true",
                        help="with --list: the paths as a JSON list of {key, name, language} (name: the key as a "
                             "file name), e.g. for a CI job matrix with one job per column")
    parser.add_argument("--keep", action="store_true",
                        help="with --paths: run only those columns and carry every other column over, as it was "
                             "built, from the matrix already in --out (its report in OUT/reports); reports of "
                             "another kit version or case set are still refused")
    parser.add_argument("--jobs", type=int, default=1, metavar="N",
                        help="columns run at the same time, each in its own process (default 1; with -n, each "
                             "column also has its own xdist workers)")
    parser.add_argument("--shard", action="store_true",
                        help="with --paths: run only the columns named (the reference only if named too) and "
                             "write their reports and results (OUT/columns/) but no matrix: one job of a "
                             "distributed build, joined by --combine")
    parser.add_argument("--combine", nargs="+", type=Path, default=None, metavar="DIR",
                        help="run nothing: join the columns that --shard runs wrote into each DIR (their "
                             "results and reports) into one matrix in --out; reports of different kit "
                             "versions or case sets are refused, as in a build")
    parser.add_argument("--retriage", action="store_true",
                        help="run nothing: join the current triage files to OUT/matrix.json again and re-render "
                             "matrix.md and matrix.html (after editing triage)")
    return parser


def _split(values: Sequence[str]) -> list[str]:
    return [part.strip() for value in values for part in value.split(",") if part.strip()]


def select_paths(tokens: Sequence[str], adapters: Sequence[str], *, reference: bool = True) -> list[SdkPath]:
    """The reference (unless ``reference`` is false and it is not named), then the chosen SDK paths
    in registry order, then ``--adapter`` columns. Raises ValueError naming an unknown key."""
    known = {path.key: path for path in SDK_PATHS}
    chosen: list[SdkPath] = [REFERENCE] if reference or "reference" in tokens else []
    if tokens:
        for token in tokens:
            if token == "reference":
                continue
            matches = [p for p in SDK_PATHS if p.key == token or p.key.split("/", 1)[0] == token]
            if not matches:
                raise ValueError(f"--paths {token!r} matches no SDK path; known: {', '.join(known) or 'none'}")
        wanted = set(tokens)
        chosen += [p for p in SDK_PATHS if p.key in wanted or p.key.split("/", 1)[0] in wanted]
    else:
        chosen += list(SDK_PATHS)
    for spec in adapters:
        key, sep, target = spec.partition("=")
        if not sep or ":" not in target or not key:
            raise ValueError(f"--adapter {spec!r}: expected KEY=MODULE:ATTR")
        if any(p.key == key for p in chosen):
            raise ValueError(f"--adapter {spec!r}: column {key!r} already exists")
        chosen.append(SdkPath(key=key, title=key, distributions=(), adapter=target))
    return chosen


def _check_rules(tokens: Sequence[str]) -> None:
    from strictconformance.spec import all_rules

    known = all_rules()
    for token in tokens:
        if token not in known and not any(rule_id.startswith(token + "-") for rule_id in known):
            raise ValueError(f"--rules {token!r} matches no rule (IDs like SM-03, or areas: RES, BUD, SM, RT, DR, TL)")


#: Where a build writes the ready-to-file upstream issues, one folder per column.
UPSTREAM_DIR = "upstream"


def write_upstream_issues(document: dict[str, Any], columns: Sequence[ColumnResult], triage: Sequence[Any],
                          out: Path) -> int:
    """Per column, an upstream issue (Markdown, ``strictconformance.upstream``) for each defect its
    confirmed triage entries cover, written to ``OUT/upstream/<column>/``; each finding of such a
    defect names its issue (``upstream_issue``), which the HTML page links. Links and issues written
    before (a matrix joined to its triage again) are replaced. Returns the count."""
    import shutil

    from strictconformance.matrix.run import safe_name
    from strictconformance.upstream import upstream_issues

    for cells in document["cells"].values():
        for cell in cells.values():
            for finding in cell["findings"]:
                finding.pop("upstream_issue", None)
    written = 0
    for column in columns:
        if column.report is None:
            continue
        folder = out / UPSTREAM_DIR / safe_name(column.key)
        shutil.rmtree(folder, ignore_errors=True)
        issues = upstream_issues(column.report, triage, column=column)
        if not issues:
            continue
        folder.mkdir(parents=True, exist_ok=True)
        by_defect: dict[str, str] = {}
        for issue in issues:
            (folder / issue.file_name).write_text(issue.markdown, encoding="utf-8")
            for defect in issue.defects:
                by_defect[defect] = f"{UPSTREAM_DIR}/{safe_name(column.key)}/{issue.file_name}"
            written += 1
        for cell in document["cells"].get(column.key, {}).values():
            for finding in cell["findings"]:
                if finding.get("defect") in by_defect:
                    finding["upstream_issue"] = by_defect[finding["defect"]]
    return written


def _finish(document: dict[str, Any], columns: Sequence[ColumnResult], triage: Sequence[Any], out: Path,
            old: dict[str, Any] | None) -> None:
    """What every matrix written gets before it is written: its upstream issues, what changed since
    ``old``, and the check of the whole document (MatrixError naming what is wrong)."""
    write_upstream_issues(document, columns, triage, out)
    if old is not None:
        document["changes"] = diff_matrices(old, document)
    check_matrix(document)


def _print_changes(document: Mapping[str, Any], bench: bool) -> int:
    """What changed (with --against) and the bench table (with --bench) on stdout; the exit status
    (3 when a column errored)."""
    if "changes" in document:
        print("\n".join(changes_lines(document["changes"])))
    if bench:
        print(bench_table(dict(document)))
    return 3 if any(column["status"] == "error" for column in document["columns"]) else 0


def _in_matrix_order(columns: Iterable[ColumnResult]) -> list[ColumnResult]:
    """The reference, then the registry's SDK paths in order, then any other column."""
    order = [REFERENCE.key, *(path.key for path in SDK_PATHS)]
    return sorted(columns, key=lambda c: order.index(c.key) if c.key in order else len(order))


def _column_result(data: Mapping[str, Any]) -> ColumnResult:
    """A column's result from its JSON (a matrix's column entry or a --shard result file): every
    field of :class:`ColumnResult` but the report; TypeError when a required one is missing."""
    from dataclasses import fields

    names = {field.name for field in fields(ColumnResult)} - {"report"}
    return ColumnResult(**{key: value for key, value in data.items() if key in names})


def write_outputs(document: dict[str, Any], out: Path) -> None:
    """matrix.json, matrix.md and matrix.html in ``out``. A finding's adapter calls stay in its
    column's report (``reports/``): the counterexample and the reproducer say what to run, and the
    calls of 1,500 findings made the page 13 MB."""
    out.mkdir(parents=True, exist_ok=True)
    for cells in document["cells"].values():  # each call a finding made is in its column's report
        for cell in cells.values():
            for finding in cell["findings"]:
                finding.pop("calls", None)
    (out / "matrix.json").write_text(json.dumps(document, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    (out / "matrix.md").write_text(render_markdown(document) + "\n", encoding="utf-8")
    (out / "matrix.html").write_text(render_html(document), encoding="utf-8")
    (out / "summary.json").write_text(json.dumps(summarize(document), indent=1, ensure_ascii=False) + "\n",
                                      encoding="utf-8")


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)

    def say(message: str) -> None:
        print(f"matrix: {message}", file=sys.stderr, flush=True)

    try:
        if args.shard and not (args.paths or args.adapter):
            raise ValueError("--shard needs --paths (the columns this job runs)")
        if args.jobs < 1:
            raise ValueError(f"--jobs {args.jobs}: must be at least 1")
        paths = select_paths(_split(args.paths), args.adapter, reference=not args.shard)
        rules = _split(args.rules)
        _check_rules(rules)
        from strictconformance.sdks.triage import TriageError, load_triage

        try:
            triage = load_triage(args.triage)
        except TriageError as error:
            raise ValueError(f"triage: {error}") from None
        old = None
        if args.against is not None:
            try:
                old = json.loads(args.against.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise ValueError(f"--against {args.against}: not readable JSON: {error}") from None
            check_matrix(old, f"--against {args.against}")
    except (ValueError, MatrixError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2

    if args.list and args.json:
        from strictconformance.matrix.run import safe_name

        print(json.dumps([{"key": path.key, "name": safe_name(path.key), "language": path.language} for path in paths]))
        return 0
    if args.list:
        for path in paths:
            reason = unavailable_reason(path)
            print(f"{path.key:<40} {'ready' if reason is None else 'unavailable: ' + reason}")
        return 0

    out: Path = args.out
    if args.retriage:
        return retriage(out, triage, old)
    if args.combine is not None:
        return combine_shards(args.combine, out, profile=args.profile, rules=rules, triage=triage, old=old,
                              bench=args.bench, say=say)
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"error: --out {out}: {error}", file=sys.stderr)
        return 2
    kept: dict[str, ColumnResult] = {}
    if args.keep:
        if not args.paths:
            print("error: --keep needs --paths (the columns to run again)", file=sys.stderr)
            return 2
        try:
            kept = kept_columns(out, {path.key for path in paths})
        except ValueError as error:
            print(f"error: --keep: {error}", file=sys.stderr)
            return 2
    started = time.monotonic()

    def run_one(index: int, path: SdkPath) -> ColumnResult:
        def progress(message: str) -> None:
            say(f"[{index}/{len(paths)}] {message}")
        try:
            return run_column(path, out, profile=args.profile, rules=rules, workers=args.workers,
                              timeout=args.timeout, progress=progress,
                              extra_pythonpath=[os.getcwd()] if path.key not in {p.key for p in SDK_PATHS}
                              and path is not REFERENCE else ())
        except Exception as error:  # the kit's own error: this column's, never the other columns' results
            reason = (f"strictconformance's own error while running this column (not a finding about the SDK; please "
                      f"report it): {type(error).__name__}: {error}")
            progress(f"{path.key}: error ({reason})")
            return ColumnResult(key=path.key, title=path.title, language=path.language, adapter=path.adapter,
                                command=path.command, status="error", reason=reason)

    if args.jobs > 1 and len(paths) > 1:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(max_workers=args.jobs) as pool:  # each column is a process of its own
            columns = list(pool.map(run_one, range(1, len(paths) + 1), paths))
    else:
        columns = [run_one(index, path) for index, path in enumerate(paths, 1)]
    if args.shard:
        try:
            write_shard(columns, out)
        except OSError as error:
            print(f"error: writing the columns' results to {out}: {error}", file=sys.stderr)
            return 2
        say(f"wrote {len(columns)} column(s) to {out / SHARD_DIR} (join them with --combine)")
        return 3 if any(column.status == "error" for column in columns) else 0
    if kept:
        columns = _in_matrix_order({column.key: column for column in [*kept.values(), *columns]}.values())
        say(f"kept {len(kept)} columns as built before: {', '.join(kept)}")
    try:
        document = combine(columns, profile=args.profile, selection=rules, triage=triage)
        _finish(document, columns, triage, out, old)
    except MatrixError as error:
        print(f"error: {error} (each column's own report is in {out / 'reports'})", file=sys.stderr)
        return 2
    except OSError as error:  # the upstream issues
        print(f"error: writing the matrix to {out}: {error}", file=sys.stderr)
        return 2
    try:
        write_outputs(document, out)
    except OSError as error:
        print(f"error: writing the matrix to {out}: {error}", file=sys.stderr)
        return 2
    say(f"wrote {out / 'matrix.json'}, {out / 'matrix.md'}, {out / 'matrix.html'}, {out / 'summary.json'} "
        f"({time.monotonic() - started:.0f} s)")
    return _print_changes(document, args.bench)


#: Where ``--shard`` writes each column's result (its report is in ``reports/``, as in a build).
SHARD_DIR = "columns"


def write_shard(columns: Sequence[ColumnResult], out: Path) -> None:
    """``--shard``: each column's result (everything but its report, which is in ``reports/``) as
    ``OUT/columns/<column>.json``."""
    from dataclasses import asdict

    from strictconformance.matrix.run import safe_name

    (out / SHARD_DIR).mkdir(parents=True, exist_ok=True)
    for column in columns:
        data = asdict(column)
        data.pop("report")
        data["kit_version"] = (column.report or {}).get("kit_version")
        (out / SHARD_DIR / f"{safe_name(column.key)}.json").write_text(
            json.dumps(data, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")


def read_shards(folders: Sequence[Path], out: Path) -> list[ColumnResult]:
    """The columns ``--shard`` runs wrote into ``folders``, in matrix column order, their reports and
    logs copied into ``out``. Raises ValueError naming a folder with no column, a column found twice
    or a report that is missing or unreadable."""
    import shutil

    found: dict[str, ColumnResult] = {}
    for folder in folders:
        files = sorted((folder / SHARD_DIR).glob("*.json"))
        if not files:
            raise ValueError(f"{folder}: no column results in {folder / SHARD_DIR} (written by --shard)")
        for file in files:
            try:
                data = json.loads(file.read_text(encoding="utf-8"))
                column = _column_result(data)
            except (OSError, ValueError, TypeError) as error:
                raise ValueError(f"{file}: not a column result: {error}") from None
            if column.key in found:
                raise ValueError(f"column {column.key} is in two of the folders (the second: {folder})")
            for attribute in ("report_file", "log_file"):
                relative = getattr(column, attribute)
                if relative is None or not (folder / relative).is_file():
                    if attribute == "report_file" and column.status == "ran":
                        raise ValueError(f"column {column.key}: its report {folder / str(relative)} is missing")
                    continue
                (out / relative).parent.mkdir(parents=True, exist_ok=True)
                if (folder / relative).resolve() != (out / relative).resolve():
                    shutil.copyfile(folder / relative, out / relative)
            if column.status == "ran":
                try:
                    column.report = json.loads((out / str(column.report_file)).read_text(encoding="utf-8"))
                except (OSError, ValueError) as error:
                    raise ValueError(f"column {column.key}: its report is not readable: {error}") from None
            found[column.key] = column
    return _in_matrix_order(found.values())


def combine_shards(folders: Sequence[Path], out: Path, *, profile: str, rules: Sequence[str], triage: Sequence[Any],
                   old: dict[str, Any] | None, bench: bool, say: Any) -> int:
    """``--combine``: the matrix of the columns in ``folders``, written into ``out``."""
    try:
        out.mkdir(parents=True, exist_ok=True)
        columns = read_shards(folders, out)
        document = combine(columns, profile=profile, selection=rules, triage=triage)
        _finish(document, columns, triage, out, old)
        write_outputs(document, out)
    except ValueError as error:  # MatrixError included
        print(f"error: --combine: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: --combine: writing the matrix to {out}: {error}", file=sys.stderr)
        return 2
    say(f"combined {len(columns)} columns from {len(folders)} folder(s) into {out / 'matrix.json'}")
    return _print_changes(document, bench)


def read_matrix(source: Path) -> dict[str, Any]:
    """The matrix document in ``source``, checked; ValueError (a MatrixError when it is JSON but no
    matrix) naming what is wrong."""
    try:
        document: dict[str, Any] = json.loads(source.read_text(encoding="utf-8"))
    except (OSError, ValueError) as error:
        raise ValueError(f"{source} is not a readable matrix: {error}") from None
    check_matrix(document, str(source))
    return document


def kept_columns(out: Path, running: set[str]) -> dict[str, ColumnResult]:
    """``--keep``: the columns of the matrix in ``out`` that are not run again, with their reports.
    Raises ValueError naming what is missing."""
    document = read_matrix(out / "matrix.json")
    kept: dict[str, ColumnResult] = {}
    for entry in document["columns"]:
        if entry["key"] in running:
            continue
        column = _column_result(entry)
        if column.status == "ran":
            report = out / (column.report_file or "")
            try:
                column.report = json.loads(report.read_text(encoding="utf-8"))
            except (OSError, ValueError) as error:
                raise ValueError(f"column {column.key}: its report {report} is not readable: {error}") from None
        kept[column.key] = column
    return kept


def _columns_with_reports(document: Mapping[str, Any], out: Path) -> list[ColumnResult]:
    """The columns of a built matrix whose report is still in ``out`` (the upstream issues need it;
    a column without one simply has none written)."""
    columns = []
    for entry in document["columns"]:
        report_file = entry.get("report_file")
        if entry["status"] != "ran" or not report_file or not (out / report_file).is_file():
            continue
        try:
            report = json.loads((out / report_file).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        column = _column_result(entry)
        column.report = report
        columns.append(column)
    return columns


def retriage(out: Path, triage: Sequence[Any], old: dict[str, Any] | None) -> int:
    """``--retriage``: the matrix in ``out`` joined to ``triage`` again, written back; no suite run."""
    source = out / "matrix.json"
    try:
        document = annotate_triage(read_matrix(source), triage)
        document.pop("changes", None)
        _finish(document, _columns_with_reports(document, out), triage, out, old)  # the issues as triage now says
        write_outputs(document, out)
    except ValueError as error:  # MatrixError included
        print(f"error: --retriage: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: writing the matrix to {out}: {error}", file=sys.stderr)
        return 2
    verdicts = [verdict for cells in document["cells"].values() for cell in cells.values() for verdict in cell_verdicts(cell)]
    by_verdict = ", ".join(f"{verdicts.count(verdict)} {verdict}" for verdict in FINDING_VERDICTS)
    print(f"matrix: re-joined {len(triage)} triage entries to {source}: {len(verdicts)} findings ({by_verdict}), "
          f"{len(document.get('unmatched_triage', []))} entries match no finding", file=sys.stderr)
    if "changes" in document:
        print("\n".join(changes_lines(document["changes"])))
    return 0


def bench_table(document: dict[str, Any]) -> str:
    """Per column: wall time of its suite run, against the target."""
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = [f"matrix benchmark: {document['profile']} profile, {len(document['rules'])} rules, "
             f"{os.cpu_count()} CPUs, load average {load:.1f} (target: under {TARGET_S:.0f} s per SDK path)",
             f"{'SDK path':<40} {'wall s':>8} {'CPU s':>8}  verdict"]
    for column in document["columns"]:
        if column["status"] == "unavailable":
            verdict = f"not run: {column['reason']}"
        elif column["status"] == "error":
            verdict = f"error: {column['reason'][:80]}"
        else:
            verdict = "within target" if column["duration_s"] < TARGET_S else "OVER TARGET"
        lines.append(f"{column['key']:<40} {column['duration_s']:>8.1f} {column.get('cpu_s', 0.0):>8.1f}  {verdict}")
    return "\n".join(lines)


if __name__ == "__main__":
    raise SystemExit(main())

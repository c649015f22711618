"""The ``strictconformance`` command (also ``python -m strictconformance``).

- ``lint PATH... [--dialect openai,anthropic] [--format text|json|sarif]``: check JSON Schema files
  (and every ``*.json`` under folders) against strict dialects. Exit 1 on violations, 0 when clean,
  2 on a usage error or a file that is not JSON or not a schema (named on stderr).
- ``strictify FILE --dialect D``: the reference strict schema for ``D`` and what it had to lose, as JSON.
- ``report FILE --format markdown|html|junit [--against OLD]``: render a saved ``--sc-report`` file.
- ``report --upstream FILE [--triage FILE_OR_DIR] [--column KEY] [--out DIR]``: one ready-to-file
  issue in Markdown per confirmed defect of an SDK path's report (``strictconformance.upstream``).
- ``scan PATH... [--fix]``: look for secrets in cassette files (folders: every ``*.yaml``/``*.yml``);
  exit 1 when one is found; ``--fix`` scrubs the files in place first, as the recorder would.
- ``--version``.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any, NoReturn

from strictconformance._version import __version__

__all__ = ["main"]

EXIT_OK, EXIT_FINDINGS, EXIT_USAGE = 0, 1, 2


class _UsageError(Exception):
    """Bad input to a command: printed as ``strictconformance <command>: error: ...``, exit 2."""


def _dialects(text: str | None) -> tuple[Any, ...]:
    from strictconformance.dialects import SHIPPED
    from strictconformance.lint import DEFAULT_LINT_DIALECTS

    names = [n.strip() for n in (text or ",".join(DEFAULT_LINT_DIALECTS)).split(",") if n.strip()]
    if not names:
        raise _UsageError("--dialect: name at least one dialect")
    unknown = [n for n in names if n not in SHIPPED]
    if unknown:
        raise _UsageError(f"--dialect: unknown dialect {', '.join(map(repr, unknown))}; shipped: {', '.join(SHIPPED)}")
    return tuple(SHIPPED[n] for n in dict.fromkeys(names))


def _read_json(path: str, what: str) -> Any:
    try:
        text = Path(path).read_text(encoding="utf-8-sig")
    except (OSError, UnicodeDecodeError) as error:
        raise _UsageError(f"{what} {path}: cannot be read: {error}") from None
    try:
        return json.loads(text)
    except ValueError as error:
        raise _UsageError(f"{what} {path}: not JSON: {error}") from None
    except RecursionError:
        raise _UsageError(f"{what} {path}: JSON nested too deeply to read") from None


def _read_report(path: str) -> Any:
    """A saved report; one a run never finished is read with its journal (report.load_report)."""
    document = _read_json(path, "report")
    if isinstance(document, dict) and document.get("complete") is False:
        from strictconformance.report import load_report

        try:
            return load_report(path)
        except (OSError, ValueError) as error:
            raise _UsageError(f"report {path}: incomplete, and its journal cannot be read: {error}") from None
    return document


def _write(text: str, output: str | None) -> None:
    if output is None:
        try:
            sys.stdout.write(text)
            sys.stdout.flush()
        except BrokenPipeError:  # `strictconformance lint ... | head`: the reader left, the verdict stands
            sys.stdout = open(os.devnull, "w")  # noqa: SIM115 - replaces the closed stdout to the end
        return
    try:
        Path(output).write_text(text, encoding="utf-8")
    except OSError as error:
        raise _UsageError(f"--output {output}: cannot be written: {error}") from None


def _cmd_lint(args: argparse.Namespace) -> int:
    from strictconformance.lint import (
        lint_paths,
        render_lint_json,
        render_lint_sarif,
        render_lint_text,
    )

    result = lint_paths(args.paths, _dialects(args.dialect))
    renderer = {"text": render_lint_text, "json": render_lint_json, "sarif": render_lint_sarif}[args.format]
    _write(renderer(result), args.output)
    if args.format != "text" or args.output:  # the text format prints its errors inline already
        for error in result.errors:
            print(f"strictconformance lint: error: {error}", file=sys.stderr)
    return result.exit_code


def _cmd_strictify(args: argparse.Namespace) -> int:
    from strictconformance.dialects import SchemaError
    from strictconformance.lint import schema_problem

    dialect = _dialects(args.dialect)
    if len(dialect) != 1:
        raise _UsageError("--dialect: strictify takes exactly one dialect")
    schema = _read_json(args.file, "schema")
    problem = schema_problem(schema)
    if problem:
        raise _UsageError(f"schema {args.file}: {problem}")
    # the reference implementation is the kit's answer to "what should the strict schema be"
    from strictconformance.baseline import baseline_strictify

    try:
        result = baseline_strictify(schema, dialect[0])
    except SchemaError as error:
        raise _UsageError(f"schema {args.file}: {error}") from None
    document = {"dialect": dialect[0].name, "schema": result.schema, "losses": [loss.as_json() for loss in result.losses]}
    _write(json.dumps(document, indent=2, ensure_ascii=False) + "\n", args.output)
    return EXIT_OK


def _cmd_upstream(args: argparse.Namespace) -> int:
    import shutil
    import tempfile

    from strictconformance.render import ReportFormatError, check_report
    from strictconformance.sdks import SDK_PATHS, SdkPath
    from strictconformance.sdks.triage import TriageError, load_triage
    from strictconformance.upstream import UpstreamError, column_of, upstream_issues

    if args.file or args.against or args.output or args.format != "markdown":
        raise _UsageError("--upstream takes the report itself (report --upstream REPORT.json [--triage FILE] [--out DIR]); "
                          "FILE, --format, --against and --output belong to rendering a report")
    try:
        report = check_report(_read_json(args.upstream, "report"), args.upstream)
    except ReportFormatError as error:
        raise _UsageError(str(error)) from None
    try:
        if args.column:
            column = next((path for path in SDK_PATHS if path.key == args.column), None)
            if column is None:  # a path of your own: a Python column named by its key
                column = SdkPath(args.column, args.column, (args.column.split("/")[0],),
                                 adapter=str((report.get("adapter") or {}).get("adapter") or "-"))
        else:
            column = column_of(report, SDK_PATHS)
        known = [*SDK_PATHS, *([] if column in SDK_PATHS else [column])]
        triage_path = Path(args.triage) if args.triage else None
        if triage_path is not None and not triage_path.exists():
            raise _UsageError(f"--triage {args.triage}: no such file or folder")
        if triage_path is not None and triage_path.is_file():
            with tempfile.TemporaryDirectory() as folder:  # load_triage reads a folder of <sdk>.json files
                shutil.copy(triage_path, Path(folder) / triage_path.name)
                entries = load_triage(Path(folder), known_paths=known)
        else:
            entries = load_triage(triage_path, known_paths=known)
        issues = upstream_issues(report, entries, column=column)
    except (TriageError, UpstreamError) as error:
        raise _UsageError(str(error)) from None
    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for issue in issues:
            (out / issue.file_name).write_text(issue.markdown, encoding="utf-8")
    except OSError as error:
        raise _UsageError(f"--out {args.out}: cannot be written: {error}") from None
    for issue in issues:
        print(f"{out / issue.file_name}: {issue.title}")
    defects = len(report.get("defects") or [])
    covered = sum(len(issue.defects) for issue in issues)
    print(f"{len(issues)} upstream report(s) written to {out} ({column.key}: {covered} of {defects} defect(s) confirmed by triage)")
    return EXIT_OK


def _cmd_report(args: argparse.Namespace) -> int:
    from strictconformance.render import (
        ReportFormatError,
        check_report,
        render_html,
        render_junit,
        render_markdown,
    )

    if args.upstream:
        return _cmd_upstream(args)
    if not args.file:
        raise _UsageError("name the report to render (report FILE), or --upstream REPORT.json")
    if args.against and args.format == "junit":
        raise _UsageError("--against compares two reports in markdown or html; junit has no place for a comparison")
    try:
        report = check_report(_read_report(args.file), args.file)
        against = check_report(_read_report(args.against), args.against) if args.against else None
        if args.format == "junit":
            text = render_junit(report)
        else:
            render = render_markdown if args.format == "markdown" else render_html
            text = render(report, against=against, against_name=args.against or "")
    except ReportFormatError as error:
        raise _UsageError(str(error)) from None
    _write(text, args.output)
    return EXIT_OK


def _cmd_scan(args: argparse.Namespace) -> int:
    from strictconformance.drift.secrets import scan_cassette_text, scrub_cassette_text

    files: list[Path] = []
    for raw in args.paths:
        path = Path(raw)
        if path.is_dir():
            files.extend(sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file()))
        elif path.is_file():
            files.append(path)
        else:
            raise _UsageError(f"{raw}: no such file or folder")
    if not files:
        raise _UsageError(f"no cassette (*.yaml, *.yml) under {', '.join(args.paths)}")
    found = 0
    for path in files:
        try:
            text = path.read_text(encoding="utf-8")
            if args.fix:
                scrubbed = scrub_cassette_text(text)
                if scrubbed != text and scan_cassette_text(text, str(path)):
                    path.write_text(scrubbed, encoding="utf-8")
                    text = scrubbed
                    print(f"{path}: scrubbed")
        except (OSError, UnicodeDecodeError) as error:
            raise _UsageError(f"{path}: cannot be read: {error}") from None
        for finding in scan_cassette_text(text, path.as_posix()):
            found += 1
            print(finding)
    print(f"{len(files)} cassettes scanned: {found} possible secrets")
    return EXIT_FINDINGS if found else EXIT_OK


class _Parser(argparse.ArgumentParser):
    def error(self, message: str) -> NoReturn:  # argparse exits 2 too; keep its wording, our prefix
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    from strictconformance.lint import DEFAULT_LINT_DIALECTS

    parser = _Parser(prog="strictconformance", description="Strict-mode conformance kit for LLM SDKs: lint schemas "
                     "against provider dialects, strictify one, render a saved report. The conformance suite itself "
                     "runs under pytest: pytest -p strictconformance --sc-adapter MODULE:CLASS.")
    parser.add_argument("--version", action="version", version=f"strictconformance {__version__}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    lint = commands.add_parser("lint", help="check JSON Schema files against strict dialects",
                               description="Check JSON Schemas (files, or every *.json under folders) against "
                               "strict dialects. Exit 1 on violations, 0 when clean, 2 when a file is not JSON or "
                               "not a schema (or on bad options).")
    lint.add_argument("paths", nargs="+", metavar="PATH", help="a schema file or a folder of them")
    lint.add_argument("--dialect", default=None, metavar="D[,D...]",
                      help=f"dialects to check against (default: {','.join(DEFAULT_LINT_DIALECTS)})")
    lint.add_argument("--format", choices=("text", "json", "sarif"), default="text",
                      help="text (default), json, or sarif (SARIF 2.1.0, for GitHub code scanning)")
    lint.add_argument("--output", "-o", default=None, metavar="FILE", help="write there instead of stdout")
    lint.set_defaults(run=_cmd_lint)

    strictify = commands.add_parser("strictify", help="the reference strict schema for a dialect, and its losses",
                                    description="Rewrite a JSON Schema into a dialect's strict subset with the kit's "
                                    "reference implementation; print {dialect, schema, losses} as JSON.")
    strictify.add_argument("file", metavar="FILE")
    strictify.add_argument("--dialect", required=True, metavar="D")
    strictify.add_argument("--output", "-o", default=None, metavar="FILE")
    strictify.set_defaults(run=_cmd_strictify)

    report = commands.add_parser("report", help="render a saved JSON report (--sc-report) as markdown, html or junit",
                                 description="Render a report written by pytest --sc-report (version 1 or 2); or, "
                                 "with --upstream, write one ready-to-file issue per confirmed defect.")
    report.add_argument("file", metavar="FILE", nargs="?")
    report.add_argument("--format", choices=("markdown", "html", "junit"), default="markdown")
    report.add_argument("--against", default=None, metavar="OLD", help="an older report: show what changed since")
    report.add_argument("--output", "-o", default=None, metavar="FILE")
    report.add_argument("--upstream", default=None, metavar="REPORT",
                        help="write an issue in Markdown (title, versions, reproducer, expected behaviour with its "
                             "documentation, rules) per defect of this SDK path's report that confirmed triage "
                             "entries cover")
    report.add_argument("--triage", default=None, metavar="FILE_OR_DIR",
                        help="with --upstream: a triage file (named <sdk>.json) or folder (default: the shipped triage)")
    report.add_argument("--column", default=None, metavar="KEY",
                        help="with --upstream: the SDK path the report is of (default: the shipped path of its adapter)")
    report.add_argument("--out", default="upstream", metavar="DIR",
                        help="with --upstream: the folder the issues are written to (default: ./upstream)")
    report.set_defaults(run=_cmd_report)

    scan = commands.add_parser("scan", help="look for secrets in cassette files (exit 1 when one is found)",
                               description="Scan vcrpy cassettes (files, or every *.yaml/*.yml under folders) for "
                               "keys, tokens, URL credentials, key query parameters, sensitive headers, also inside "
                               "binary, gzip, base64 and percent-encoded bodies. Exit 1 when something is found.")
    scan.add_argument("paths", nargs="+", metavar="PATH")
    scan.add_argument("--fix", action="store_true", help="scrub each file that holds a secret in place first")
    scan.set_defaults(run=_cmd_scan)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help(sys.stderr)
        return EXIT_USAGE
    try:
        code: int = args.run(args)
    except _UsageError as error:
        print(f"strictconformance {args.command}: error: {error}", file=sys.stderr)
        return EXIT_USAGE
    return code


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())

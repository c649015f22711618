"""Triage files: the hand-checked findings of each SDK, and the documentation made from them.

``conformance/sdks/triage/<sdk>.json`` holds one entry per distinct finding the suite reports on
one of the SDK's paths, checked by hand: the rule, the finding's key, a one-line summary, a
standalone reproducer, the verdict (``confirmed``, ``disputed``, ``kit-bug-fixed``) and the
evidence (provider documentation or the SDK's source line). The files follow
``triage.schema.json`` (beside this module). The SDK matrix joins findings to entries by
``sdk_path`` + ``rule`` + ``key`` and marks the findings no ``confirmed`` entry covers.

The triage files are the repository's (``conformance/sdks/triage/``), not the wheel's: the suite
never reads them; the matrix and the documentation build do, in a checkout.

``python -m strictconformance.sdks.triage check`` validates every file;
``python -m strictconformance.sdks.triage readme`` prints the SDK matrix page's findings block (the
matrix's columns and every confirmed finding in a line) and, with ``--findings FILE``, writes the
findings document (every entry with its verdict and evidence), from the triage files and the
matrix summary. The documentation build (``scripts/docs_hooks.py``) makes both the same way.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from strictconformance.sdks import SdkPath

__all__ = [
    "FINDINGS_FILE",
    "MATRIX_SUMMARY",
    "README_END",
    "README_START",
    "TRIAGE_DIR",
    "TriageEntry",
    "TriageError",
    "findings_document",
    "load_triage",
    "load_triage_schema",
    "readme_block",
    "replace_readme_block",
]

#: The shipped triage folder (one JSON file per SDK).
TRIAGE_DIR = Path(__file__).resolve().parent / "triage"
VERDICTS = ("confirmed", "disputed", "kit-bug-fixed")
#: The documentation page holding every triaged finding with its evidence (generated at build time,
#: beside the matrix page that links to it).
FINDINGS_FILE = "findings.md"
#: The matrix summary the repository keeps (``summary.json`` of a matrix build).
MATRIX_SUMMARY = "matrix/summary.json"
README_START = "<!-- sdk-findings:start -->"
README_END = "<!-- sdk-findings:end -->"


class TriageError(ValueError):
    """A triage file is not valid: names the file and what is wrong."""


@dataclass(frozen=True)
class TriageEntry:
    """One hand-checked finding."""

    sdk_path: str
    version: str
    rule: str
    key: str
    summary: str
    reproducer: str
    verdict: str
    evidence: str
    language: str = "python"
    upstream: str | None = None
    #: The defects (report ids) the entry was checked for: a match holds only for their findings
    defects: tuple[str, ...] = ()
    #: The file the entry came from (not part of the JSON entry).
    file: str = ""

    def fits(self, finding: Mapping[str, Any]) -> bool:
        """Whether the entry may speak for ``finding``: it names no defects, or the finding's."""
        return not self.defects or str(finding.get("defect") or "") in self.defects

    @property
    def join_key(self) -> tuple[str, str, str]:
        """What the matrix matches a finding on."""
        return (self.sdk_path, self.rule, self.key)

    def as_json(self) -> dict[str, Any]:
        data = asdict(self)
        data.pop("file")
        if data["upstream"] is None:
            data.pop("upstream")
        if data["defects"]:
            data["defects"] = list(data["defects"])
        else:
            data.pop("defects")
        return data


def load_triage_schema() -> dict[str, Any]:
    """The JSON Schema of a triage file."""
    text = resources.files("strictconformance.sdks").joinpath("triage.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def load_triage(folder: Path | None = None, *, known_paths: Iterable[str | SdkPath] | None = None) -> list[TriageEntry]:
    """Every entry of every ``*.json`` file in ``folder`` (default: the shipped one), validated.

    Raises :class:`TriageError` naming the file and the problem: JSON that does not parse, an
    entry the schema rejects, an entry of another SDK than the file's name, a rule the spec does
    not have, an ``sdk_path`` that is no shipped SDK path (``known_paths``, keys or
    :class:`~strictconformance.sdks.SdkPath` objects; default
    :data:`strictconformance.sdks.SDK_PATHS`; the reference has no triage: its findings are kit bugs, fixed), the same finding twice,
    a ``language`` other than its SDK path's, a ``version`` naming a package its path does not
    use, or a ``confirmed``/``disputed`` reproducer that breaks the reproducer contract (it never
    prints ``BUG:``; Python that does not compile; Node that is no ES module).
    """
    import jsonschema  # type: ignore[import-untyped]

    from strictconformance.sdks import SDK_PATHS, SdkPath
    from strictconformance.sdks.reproduce import entry_pins, reproducer_problem
    from strictconformance.spec import all_rules

    folder = TRIAGE_DIR if folder is None else Path(folder)
    if not folder.is_dir():
        raise TriageError(f"no triage folder at {folder}: the triage files are in a checkout of the repository "
                          "(conformance/sdks/triage/), not in the installed wheel; pass --dir")
    registry: dict[str, SdkPath | None] = {}
    for known_path in (SDK_PATHS if known_paths is None else known_paths):
        if isinstance(known_path, SdkPath):
            registry[known_path.key] = known_path
        else:
            registry[known_path] = next((path for path in SDK_PATHS if path.key == known_path), None)
    known = set(registry)
    rules = all_rules()
    validator = jsonschema.Draft202012Validator(load_triage_schema())
    entries: list[TriageEntry] = []
    seen: dict[tuple[str, str, str], str] = {}
    if not folder.is_dir():
        return entries
    for file in sorted(folder.glob("*.json")):
        name = file.name
        try:
            data = json.loads(file.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            raise TriageError(f"triage file {name}: not readable JSON: {error}") from None
        problems = sorted(validator.iter_errors(data), key=lambda e: list(e.absolute_path))
        if problems:
            first = problems[0]
            where = "/" + "/".join(str(part) for part in first.absolute_path)
            more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
            raise TriageError(f"triage file {name}: at {where}: {first.message}{more}")
        sdk = file.stem
        for index, item in enumerate(data):
            path = registry.get(item["sdk_path"])
            language = path.language if path is not None else item.get("language", "python")
            if item.get("language", language) != language:
                raise TriageError(f"triage file {name}, entry {index} ({item['rule']} {item['key']!r}): language "
                                  f"{item['language']!r}, but the reproducers of {item['sdk_path']} are {language}")
            entry = TriageEntry(**{**item, "language": language, "defects": tuple(item.get("defects", ()))}, file=name)
            where = f"triage file {name}, entry {index} ({entry.rule} {entry.key!r})"
            if entry.sdk_path.split("/", 1)[0] != sdk:
                raise TriageError(f"{where}: sdk_path {entry.sdk_path!r} is not a path of {sdk!r} "
                                  f"(the file of SDK X is X.json)")
            if entry.sdk_path not in known:
                raise TriageError(f"{where}: sdk_path {entry.sdk_path!r} is no shipped SDK path; "
                                  f"known: {', '.join(sorted(known))}")
            if entry.rule not in rules:
                raise TriageError(f"{where}: no rule {entry.rule} in the spec")
            if path is not None and entry.verdict != "kit-bug-fixed":
                entry_pins(entry, path)  # raises naming a version string it cannot read
            problem = reproducer_problem(entry, language)
            if problem is not None:
                raise TriageError(f"{where}: {problem}")
            if entry.join_key in seen:
                raise TriageError(f"{where}: the same finding is triaged twice (also in {seen[entry.join_key]})")
            seen[entry.join_key] = name
            entries.append(entry)
    return entries


# -- The README block ------------------------------------------------------------------------



def _matrix_table(entries: Sequence[TriageEntry], matrix: Mapping[str, Any]) -> list[str]:
    """The committed matrix's columns, counted by verdict against today's triage."""
    from strictconformance.matrix.combine import annotate_triage, column_counts

    matrix = annotate_triage(matrix, entries)  # today's triage, not the one the matrix was built with
    lines = [f"The matrix (kit {matrix.get('kit_version')}, `{matrix.get('profile')}` profile, "
             f"{len(matrix.get('rules', {}))} rules; the repository keeps its summary, `{MATRIX_SUMMARY}`), counted "
             "against today's triage files:", "",
             "| SDK path | versions | rules failed | defects | distinct findings | confirmed | disputed | "
             "kit false alarms (fixed since) | unconfirmed |",
             "|---|---|---|---|---|---|---|---|---|"]
    for column in matrix.get("columns", []):
        counts = column_counts(matrix, column["key"])
        versions = ", ".join(f"{name} {version or 'not installed'}"
                             for name, version in column.get("versions", {}).items()) or "-"
        if column["status"] != "ran":
            lines.append(f"| `{column['key']}` | {versions} | {column['status']}: "
                         f"{_md(column.get('reason', ''))} | - | - | - | - | - | - |")
            continue
        lines.append(f"| `{column['key']}` | {versions} | {counts['failed_rules']} | {counts['defects'] or '-'} | {counts['findings']} | "
                     f"{counts['confirmed']} | {counts['disputed']} | {counts['kit_bug_fixed']} | "
                     f"{counts['unconfirmed']} |")
    lines.append("")
    return lines


def _by_path(entries: Sequence[TriageEntry]) -> list[tuple[str, list[TriageEntry]]]:
    from strictconformance.spec import rule_sort_key

    groups: dict[str, list[TriageEntry]] = {}
    for entry in entries:
        groups.setdefault(entry.sdk_path, []).append(entry)
    return [(path, sorted(groups[path], key=lambda e: (rule_sort_key(e.rule), e.key))) for path in sorted(groups)]


def readme_block(entries: Sequence[TriageEntry], matrix: Mapping[str, Any] | None = None) -> str:
    """The README's generated "What it finds in real SDKs" block (between the markers): a table
    of the committed matrix's SDK columns (when there is one), then every confirmed finding in one
    line by SDK path. The evidence, the disputed findings and the kit's fixed false alarms are in
    :func:`findings_document` (``FINDINGS_FILE``)."""
    lines: list[str] = [README_START, "<!-- generated from conformance/sdks/triage/*.json and the matrix summary -->", ""]
    if matrix is not None:
        lines += _matrix_table(entries, matrix)
    if not entries:
        lines.append("No finding is triaged yet.")
    else:
        verdicts = {verdict: sum(entry.verdict == verdict for entry in entries) for verdict in VERDICTS}
        lines.append(f"The confirmed findings, one line each ({verdicts['confirmed']} triage entries; a pattern entry "
                     f"covers one defect met at many places). Each was checked by hand against the SDK (its reproducer "
                     f"runs with only the SDK installed) and the provider's documentation; the evidence of each, the "
                     f"{verdicts['disputed']} disputed findings and the {verdicts['kit-bug-fixed']} kit false alarms "
                     f"fixed since are on the [findings page]({FINDINGS_FILE}):")
        lines.append("")
        for sdk_path, group in _by_path(entries):
            confirmed = [entry for entry in group if entry.verdict == "confirmed"]
            if not confirmed:
                continue
            versions = ", ".join(sorted({e.version for e in confirmed}))
            lines.append(f"* **`{sdk_path}`** ({versions}):")
            lines += [f"  * **{entry.rule}** {_md(entry.summary)}" for entry in confirmed]
    lines.append("")
    lines.append(README_END)
    return "\n".join(lines)


def findings_document(entries: Sequence[TriageEntry], matrix: Mapping[str, Any] | None = None) -> str:
    """``FINDINGS_FILE``: every triage entry by SDK path, with its verdict and evidence."""
    lines = ["# What the kit finds in real SDKs, with the evidence", "",
             "<!-- generated from conformance/sdks/triage/*.json and the matrix summary -->", "",
             "Every triage entry of `conformance/sdks/triage/*.json`, by SDK path: the rule, what the finding is, "
             "its verdict when it is not `confirmed` (`disputed`: the SDK's maintainers or the provider's documentation "
             "say otherwise; `kit-bug-fixed`: a kit false alarm, fixed in the kit with a self-test), and the evidence "
             "(the provider's documentation or the SDK's source line). Each entry's standalone reproducer is in its "
             "triage file in the repository; `python -m strictconformance.sdks.triage reproduce` runs them.", ""]
    if matrix is not None:
        lines += _matrix_table(entries, matrix)
    if not entries:
        lines.append("No finding is triaged yet.")
    for sdk_path, group in _by_path(entries):
        versions = ", ".join(sorted({e.version for e in group}))
        lines.append(f"* **`{sdk_path}`** ({versions}):")
        for entry in group:
            verdict = "" if entry.verdict == "confirmed" else f" *({entry.verdict})*"
            lines.append(f"  * **{entry.rule}** {_md(entry.summary)}{verdict} — evidence: {_md(entry.evidence)}")
    lines.append("")
    return "\n".join(lines)


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def replace_readme_block(readme: str, block: str) -> str:
    """``readme`` with its generated block replaced by ``block``; raises :class:`TriageError` when
    the markers are missing."""
    start = readme.find(README_START)
    end = readme.find(README_END)
    if start < 0 or end < start:
        raise TriageError(f"the README has no generated findings block (the markers {README_START!r} "
                          f"and {README_END!r})")
    return readme[:start] + block + readme[end + len(README_END):]


def current_readme_block(readme: str) -> str:
    """The generated block as it stands in ``readme`` (markers included)."""
    start = readme.find(README_START)
    end = readme.find(README_END)
    if start < 0 or end < start:
        raise TriageError("the README has no generated findings block")
    return readme[start:end + len(README_END)]


def load_matrix_file(path: Path) -> dict[str, Any] | None:
    """The committed matrix at ``path``, or None when there is none."""
    if not path.is_file():
        return None
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def main(argv: Sequence[str] | None = None, *, sdk_paths: Sequence[SdkPath] | None = None) -> int:
    """The command line; ``sdk_paths`` replaces :data:`strictconformance.sdks.SDK_PATHS` (self-tests)."""
    parser = argparse.ArgumentParser(prog="python -m strictconformance.sdks.triage",
                                     description="validate the triage files; regenerate the README's findings block; "
                                                 "run the reproducers, each SDK in an environment of its own")
    sub = parser.add_subparsers(dest="command", required=True)
    check = sub.add_parser("check", help="validate every triage file")
    check.add_argument("--dir", type=Path, default=None, help="triage folder (default: the shipped one)")
    readme = sub.add_parser("readme", help="print (or --write) the README's generated findings block")
    readme.add_argument("--dir", type=Path, default=None, help="triage folder (default: the shipped one)")
    readme.add_argument("--matrix", type=Path, default=Path(MATRIX_SUMMARY),
                        help=f"a matrix or its summary (default {MATRIX_SUMMARY}; skipped when absent)")
    readme.add_argument("--write", type=Path, default=None, metavar="README",
                        help="replace the block in this README instead of printing it, and write the findings "
                             f"document with the evidence ({FINDINGS_FILE} beside it, or --findings)")
    readme.add_argument("--findings", type=Path, default=None, metavar="FILE",
                        help=f"where --write writes the findings document (default: {FINDINGS_FILE} in the README's folder)")
    rerun = sub.add_parser("reproduce", help="run every confirmed/disputed reproducer in an environment holding only its "
                                             "SDK at the triaged versions; exit 0 only if each shows its bug")
    rerun.add_argument("--dir", type=Path, default=None, help="triage folder (default: the shipped one)")
    rerun.add_argument("--sdk", action="append", default=[], metavar="NAME",
                       help="only this SDK (its triage file's name, e.g. anthropic) or SDK path; repeatable")
    rerun.add_argument("--venvs", type=Path, default=None, metavar="DIR",
                       help="keep the environments in DIR and reuse them while the versions match "
                            "(default: a temporary folder, removed afterwards)")
    rerun.add_argument("--timeout", type=float, default=60.0, metavar="S", help="seconds per reproducer (default 60)")
    rerun.add_argument("--install-timeout", type=float, default=1200.0, metavar="S",
                       help="seconds per environment's install (default 1200)")
    rerun.add_argument("--pip-option", action="append", default=[], metavar="OPTION",
                       help="an extra option for pip install, e.g. --pip-option=--no-index --pip-option=--find-links=DIR")
    rerun.add_argument("--python", default=sys.executable, help="the interpreter that creates the venvs (default: this one)")
    args = parser.parse_args(argv)
    try:
        entries = load_triage(args.dir, known_paths=sdk_paths)
        if args.command == "reproduce":
            return _reproduce_command(args, entries, sdk_paths)
        if args.command == "check":
            print(f"{len(entries)} triage entries, all valid")
            return 0
        matrix = load_matrix_file(args.matrix)
        block = readme_block(entries, matrix)
        if args.write is None:
            print(block)
            return 0
        text = args.write.read_text(encoding="utf-8")
        updated = replace_readme_block(text, block)
        if updated != text:
            args.write.write_text(updated, encoding="utf-8")
            print(f"{args.write}: findings block regenerated")
        else:
            print(f"{args.write}: findings block already up to date")
        document = args.findings or args.write.resolve().parent / FINDINGS_FILE
        full = findings_document(entries, matrix)
        if not document.exists() or document.read_text(encoding="utf-8") != full:
            document.parent.mkdir(parents=True, exist_ok=True)
            document.write_text(full, encoding="utf-8")
            print(f"{document}: regenerated")
        return 0
    except (TriageError, ValueError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 2


def _reproduce_command(args: argparse.Namespace, entries: list[TriageEntry], sdk_paths: Sequence[SdkPath] | None) -> int:
    from strictconformance.sdks import SDK_PATHS
    from strictconformance.sdks.reproduce import SHOWN_VERDICTS, format_table, reproduce

    if args.timeout <= 0 or args.install_timeout <= 0:
        raise TriageError("--timeout and --install-timeout take a number of seconds above 0")
    if args.sdk:
        names = {entry.sdk_path.split("/", 1)[0] for entry in entries} | {entry.sdk_path for entry in entries}
        unknown = [name for name in args.sdk if name not in names]
        if unknown:
            raise TriageError(f"--sdk {', '.join(unknown)}: no triage entry of that SDK; "
                              f"known: {', '.join(sorted(n for n in names if '/' not in n))}")
        entries = [entry for entry in entries if entry.sdk_path in args.sdk or entry.sdk_path.split("/", 1)[0] in args.sdk]
    selected = [entry for entry in entries if entry.verdict in SHOWN_VERDICTS]
    if not selected:
        raise TriageError("no confirmed or disputed entry selected: nothing to reproduce")

    def say(message: str) -> None:
        print(f"reproduce: {message}", file=sys.stderr, flush=True)

    outcomes = reproduce(selected, paths=SDK_PATHS if sdk_paths is None else sdk_paths, venvs=args.venvs,
                         timeout=args.timeout, install_timeout=args.install_timeout, pip_options=args.pip_option,
                         python=args.python, say=say)
    print(format_table(outcomes))
    return 0 if all(outcome.shows_bug for outcome in outcomes) else 1


if __name__ == "__main__":
    raise SystemExit(main())

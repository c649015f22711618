"""Combining per-SDK reports into one matrix document, joining triage, and diffing two matrices.

The matrix document follows ``matrix.schema.json`` (beside this module, ``$id``
``.../strictconformance-matrix/1``). Columns are SDK paths (the reference first); rows are the
rules any column ran; a cell is the rule's outcome on that path with its distinct findings (one
per finding key, with how many checks reported it).

Pure functions on JSON data: no subprocess, no file system (the command lives in ``run``).
"""

from __future__ import annotations

import copy
import fnmatch
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

__all__ = [
    "FINDING_VERDICTS",
    "MATRIX_SCHEMA",
    "READABLE_REPORT_SCHEMAS",
    "ColumnResult",
    "MatrixError",
    "annotate_triage",
    "cell_verdicts",
    "column_counts",
    "combine",
    "diff_matrices",
    "finding_verdict",
    "load_matrix_schema",
    "report_findings",
    "summarize",
]

MATRIX_SCHEMA = "strictconformance-matrix/1"
#: Report versions the matrix reads: v1 (``counterexamples``) and v2 (``findings``).
READABLE_REPORT_SCHEMAS = ("strictconformance-report/1", "strictconformance-report/2")
#: Outcomes of a cell with no report behind it.
UNAVAILABLE, ERROR = "unavailable", "error"


class MatrixError(ValueError):
    """The reports cannot be combined (different kit versions or case sets, an unreadable report),
    or a matrix document is not one: the message says which columns and why."""


@dataclass
class ColumnResult:
    """What running one SDK path produced: its report, or why there is none."""

    key: str
    title: str
    language: str = "python"
    adapter: str | None = None
    command: str | None = None
    #: Installed version of each distribution (None: not installed).
    versions: dict[str, str | None] = field(default_factory=dict)
    #: ``ran`` (a report came back), ``unavailable`` (not runnable here, e.g. SDK not installed)
    #: or ``error`` (the run crashed, hung, or wrote no usable report).
    status: str = "ran"
    reason: str = ""
    duration_s: float = 0.0
    #: CPU seconds of the column's processes (less sensitive to a loaded machine than wall time).
    cpu_s: float = 0.0
    report: Mapping[str, Any] | None = None
    report_file: str | None = None
    log_file: str | None = None


def report_findings(rule_id: str, rule_data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The findings of one rule of a report: v2's ``findings``, or v1's ``counterexamples`` read as
    findings (their key is the rule, kind and the check's function: v1 has no finding key)."""
    if "findings" in rule_data:
        return [dict(finding) for finding in rule_data["findings"]]
    findings = []
    for example in rule_data.get("counterexamples", []):
        kind = example.get("kind") or "violation"
        nodeid = example.get("nodeid") or ""
        function = nodeid.rpartition("::")[2].partition("[")[0] or "check"
        findings.append({
            "rule": rule_id,
            "kind": kind,
            "key": f"{rule_id} {kind}: {function}",
            "where": None,
            "message": example.get("message", ""),
            "counterexample": example.get("counterexample"),
            "calls": example.get("calls", []),
            "replay": example.get("replay", ""),
            "reproducer": example.get("reproducer"),
            "nodeid": nodeid,
        })
    return findings


def _distinct(findings: Iterable[Mapping[str, Any]]) -> list[dict[str, Any]]:
    """One finding per key, crash origin and defect (the first reported), with ``count``: how many
    checks reported it (two crashes of one type from two functions stay two, as they are two
    defects; so do two defects whose findings a key does not tell apart, as an unresolvable and an
    external `$ref` met at the same place)."""
    by_key: dict[tuple[str, str, str], dict[str, Any]] = {}
    for finding in findings:
        key = str(finding.get("key") or f"{finding.get('rule')} {finding.get('kind')}")
        raw_origin = finding.get("origin")
        origin: Mapping[str, Any] = raw_origin if isinstance(raw_origin, Mapping) else {}
        identity = (key, f"{origin.get('file', '')}:{origin.get('function', '')}", str(finding.get("defect") or ""))
        if identity in by_key:
            by_key[identity]["count"] += 1
        else:
            by_key[identity] = {**finding, "key": key, "kind": str(finding.get("kind") or "violation"),
                                "message": str(finding.get("message") or ""), "count": 1}
    return list(by_key.values())


def _case_set(report: Mapping[str, Any]) -> dict[str, Any]:
    """What two reports must share to sit in one matrix: the rules, the profile, and the case
    library when the report names one."""
    case_set: dict[str, Any] = {"rules": sorted(report.get("rules", {})), "profile": report.get("profile")}
    for name in ("cases", "case_set"):
        value = report.get(name)
        # the case library's identity only: per-run counts of cases would differ between any two SDKs
        if isinstance(value, str):
            case_set[name] = value
        elif isinstance(value, Mapping):
            identity = {part: value[part] for part in ("id", "version", "digest") if part in value}
            if identity:
                case_set[name] = identity
    return case_set


def _check_combinable(columns: Sequence[ColumnResult]) -> None:
    ran = [column for column in columns if column.status == "ran" and column.report is not None]
    for column in ran:
        assert column.report is not None
        schema = column.report.get("schema")
        if schema not in READABLE_REPORT_SCHEMAS:
            raise MatrixError(f"column {column.key}: its report is {schema!r}, not one of "
                              f"{', '.join(READABLE_REPORT_SCHEMAS)}")
    versions = {column.key: column.report.get("kit_version") for column in ran if column.report is not None}
    if len(set(versions.values())) > 1:
        listed = ", ".join(f"{key}: {version}" for key, version in versions.items())
        raise MatrixError(f"refusing to combine reports of different kit versions ({listed}); "
                          f"rebuild every column with one kit")
    if not ran:
        return
    first = ran[0]
    assert first.report is not None
    expected = _case_set(first.report)
    for column in ran[1:]:
        assert column.report is not None
        got = _case_set(column.report)
        if got != expected:
            what = []
            for name in sorted(set(expected) | set(got)):
                if expected.get(name) != got.get(name):
                    if name == "rules":
                        extra = sorted(set(got["rules"]) - set(expected["rules"]))
                        missing = sorted(set(expected["rules"]) - set(got["rules"]))
                        what.append(f"rules (+{', '.join(extra) or 'none'}; -{', '.join(missing) or 'none'})")
                    else:
                        what.append(f"{name} ({expected.get(name)!r} vs {got.get(name)!r})")
            raise MatrixError(f"refusing to combine reports of different case sets: {first.key} and "
                              f"{column.key} differ in {'; '.join(what)}")


def combine(columns: Sequence[ColumnResult], *, profile: str, selection: Sequence[str] = (),
            triage: Iterable[Any] = ()) -> dict[str, Any]:
    """The matrix document of ``columns`` (in order). Raises :class:`MatrixError` when the
    reports that came back differ in kit version or case set. ``triage``: entries of
    :func:`strictconformance.sdks.triage.load_triage`, joined to the findings."""
    from strictconformance._version import __version__
    from strictconformance.spec import all_rules, rule_sort_key

    _check_combinable(columns)
    reports = [column.report for column in columns if column.status == "ran" and column.report is not None]
    kit_version = reports[0].get("kit_version") if reports else __version__
    spec = all_rules()

    # Rows: every rule a column selected; with no report at all, the rules the selection names.
    row_ids: set[str] = set()
    for report in reports:
        row_ids.update(rule_id for rule_id, data in report.get("rules", {}).items() if data.get("checks"))
    if not reports:
        row_ids = {rule_id for rule_id in spec
                   if not selection or any(rule_id == t or rule_id.startswith(t + "-") for t in selection)}
    titles: dict[str, dict[str, str]] = {}
    for rule_id in sorted(row_ids, key=rule_sort_key):
        data = next((r["rules"][rule_id] for r in reports if rule_id in r.get("rules", {})), None)
        rule = spec.get(rule_id)
        titles[rule_id] = {"title": (data or {}).get("title") or (rule.title if rule else ""),
                           "section": (data or {}).get("section") or (rule.section if rule else "")}

    document_columns: list[dict[str, Any]] = []
    cells: dict[str, dict[str, Any]] = {}
    for column in columns:
        entry: dict[str, Any] = {"key": column.key, "title": column.title, "language": column.language,
                                 "adapter": column.adapter, "command": column.command,
                                 "versions": dict(column.versions), "status": column.status,
                                 "reason": column.reason, "duration_s": round(column.duration_s, 1),
                                 "cpu_s": round(column.cpu_s, 1)}
        if column.report_file:
            entry["report_file"] = column.report_file
        if column.log_file:
            entry["log_file"] = column.log_file
        column_cells: dict[str, Any] = {}
        if column.status == "ran" and column.report is not None:
            entry["sdk"] = column.report.get("adapter", {}).get("sdk")
            entry["summary"] = dict(column.report.get("summary", {}))
            from strictconformance.render import report_defects

            entry["defects"] = [{name: defect[name] for name in ("id", "title", "kind", "rules", "witnesses", "findings") if name in defect}
                                for defect in report_defects(column.report)]
            entry["refusals"] = [{"dialect": dialect, **{name: seen.get(name) for name in ("type", "message", "count")}}
                                 for dialect, counts in (column.report.get("strictify") or {}).items()
                                 for seen in counts.get("refusals") or []]
            rules = column.report.get("rules", {})
            for rule_id in titles:
                data = rules.get(rule_id, {"outcome": "not run", "reasons": []})
                findings = _distinct(report_findings(rule_id, data))
                column_cells[rule_id] = {"outcome": data.get("outcome", "not run"),
                                         "reasons": list(data.get("reasons", [])),
                                         "findings": findings}
        else:
            for rule_id in titles:
                column_cells[rule_id] = {"outcome": column.status, "reasons": [column.reason], "findings": []}
        document_columns.append(entry)
        cells[column.key] = column_cells

    document: dict[str, Any] = {
        "schema": MATRIX_SCHEMA,
        "kit_version": kit_version,
        "profile": profile,
        "selection": list(selection),
        "rules": titles,
        "columns": document_columns,
        "cells": cells,
    }
    return annotate_triage(document, triage)


#: An RT finding that restates an SM finding: "RT-1 violation: SM-03 at object inside items" is
#: the strictify output breaking SM-03 there, the defect of "SM-03 violation: object inside items";
#: RT-4..RT-7 say the same when the strict schema they would judge values against breaks SM-xx.
_RT_FROM_SM = re.compile(r"^RT-\d+ violation: (SM-\d+) at (.+)$")


def _key_entry(entries: Mapping[tuple[str, str], Sequence[Any]], exact: Mapping[tuple[str, str, str], Any],
               column_key: str, rule_id: str, key: str, finding: Mapping[str, Any]) -> tuple[Any, str] | None:
    """The entry of ``column_key``/``rule_id`` written for finding ``key``: the one naming the key,
    else the most specific one whose key is a pattern (``*`` for any text) the key fits; an entry
    that names the defects it was checked for holds only for ``finding`` of one of them."""
    entry = exact.get((column_key, rule_id, key))
    if entry is not None and entry.fits(finding):
        return entry, "key"
    fitting = [e for e in entries.get((column_key, rule_id), ())
               if "*" in e.key and fnmatch.fnmatchcase(key, e.key) and e.fits(finding)]
    if fitting:
        return max(fitting, key=lambda e: (len(e.key.replace("*", "")), e.verdict == "confirmed")), "pattern"
    return None


#: A triage key that names a defect (``D-`` and eight hex digits, the report's defect id): it
#: matches every finding of that defect, whichever cases and keys the draws met it with.
_DEFECT_KEY = re.compile(r"^D-[0-9a-f]{8}$")


def _defect_entry(entries: Mapping[tuple[str, str], Sequence[Any]], column_key: str, rule_id: str,
                  defect_id: str) -> tuple[Any, str] | None:
    for entry in entries.get((column_key, rule_id), ()):
        if _DEFECT_KEY.match(entry.key) and entry.key == defect_id:
            return entry, "defect"
    return None


def annotate_triage(document: Mapping[str, Any], triage: Iterable[Any]) -> dict[str, Any]:
    """A copy of ``document`` whose findings carry ``triage`` (the matching entry's verdict,
    summary, evidence and version, or None) and ``confirmed`` (a ``confirmed`` entry matches).

    An entry matches a finding of its column and rule by ``key``: the finding's grouping key as the
    report writes it, or a pattern of keys (``*`` stands for any text) for one defect the suite
    meets at several places (``SM-07 violation: `$anchor` of *``; the most specific pattern wins).
    An RT finding that restates an SM finding (``RT-1 violation: SM-03 at <where>``: the strictify
    output breaks SM-03 there; RT-4..RT-7 say so of the strict schema they would judge values
    against) takes the entry of that SM finding (``matched_by: "via SM-03"``), or failing one, of
    RT-1's finding restating the same (``"via RT-1"``), when no entry of its own rule names it. Failing all that, an entry written by hand (its key a description)
    matches by column and rule alone (``matched_by: "rule"``), and confirms the finding only when it
    is the cell's one finding: a second distinct finding of the rule stays unconfirmed until triaged.
    An entry whose key is a defect id (``D-1a2b3c4d``, the report's) matches every finding of that
    defect under its rule (``matched_by: "defect"``): it stays valid when the draws move."""
    entries = list(triage)
    exact = {(entry.sdk_path, entry.rule, entry.key): entry for entry in entries}
    by_rule: dict[tuple[str, str], list[Any]] = {}
    for entry in entries:
        by_rule.setdefault((entry.sdk_path, entry.rule), []).append(entry)
    annotated = copy.deepcopy(dict(document))
    matched: set[tuple[str, str, str]] = set()
    for column_key, column_cells in annotated["cells"].items():
        for rule_id, cell in column_cells.items():
            for finding in cell["findings"]:
                found = _key_entry(by_rule, exact, column_key, rule_id, finding["key"], finding)
                if found is None and finding.get("defect"):  # an entry naming the defect: valid whatever the draws
                    found = _defect_entry(by_rule, column_key, rule_id, str(finding["defect"]))
                restated = _RT_FROM_SM.match(finding["key"]) if rule_id.startswith("RT-") else None
                if found is None and restated is not None:
                    sm_rule = restated.group(1)
                    via = _key_entry(by_rule, exact, column_key, sm_rule,
                                     f"{sm_rule} violation: {restated.group(2)}", finding)
                    if via is not None:
                        found = (via[0], f"via {sm_rule}")
                    elif rule_id != "RT-1":  # RT-1 met the same break (only the round trip showed it)
                        via = _key_entry(by_rule, exact, column_key, "RT-1", f"RT-1 violation: {sm_rule} at {restated.group(2)}", finding)
                        if via is not None:
                            found = (via[0], "via RT-1")
                if found is None:
                    candidates = sorted((e for e in by_rule.get((column_key, rule_id), [])
                                         if "*" not in e.key and not _DEFECT_KEY.match(e.key) and e.fits(finding)),
                                        key=lambda e: e.verdict != "confirmed")  # a pattern says what it covers
                    found = (candidates[0], "rule") if candidates else None
                entry, matched_by = found if found is not None else (None, "")
                if entry is not None:
                    matched.add(entry.join_key)
                finding["triage"] = None if entry is None else {
                    "verdict": entry.verdict, "summary": entry.summary, "evidence": entry.evidence,
                    "version": entry.version, "matched_by": matched_by,
                    **({"upstream": entry.upstream} if entry.upstream else {})}
                finding["confirmed"] = (entry is not None and entry.verdict == "confirmed"
                                        and (matched_by != "rule" or len(cell["findings"]) == 1))
    # Entries for a column that ran and a rule it ran, matching no finding: a stale key, or a bug fixed
    ran = {column["key"] for column in annotated["columns"] if column["status"] == "ran"}
    annotated["unmatched_triage"] = [
        {"sdk_path": entry.sdk_path, "rule": entry.rule, "key": entry.key, "verdict": entry.verdict,
         "version": entry.version}
        for entry in entries
        if entry.join_key not in matched and entry.sdk_path in ran and entry.rule in annotated["rules"]
        and entry.verdict != "kit-bug-fixed"]
    return annotated


#: A finding's triage verdict, as the matrix shows it: the three verdicts of a triage entry
#: (strictconformance.sdks.triage.VERDICTS), or ``unconfirmed`` when no entry of its own covers it.
FINDING_VERDICTS = ("confirmed", "disputed", "kit-bug-fixed", "unconfirmed")


def finding_verdict(finding: Mapping[str, Any], alone: bool) -> str:
    """``finding``'s verdict (one of :data:`FINDING_VERDICTS`). ``alone``: it is its cell's only
    finding. An entry matched by rule alone (a hand-written entry of the column and rule) speaks for
    the cell's one finding only; beside other findings of the rule it leaves them unconfirmed."""
    triage = finding.get("triage")
    if not triage or (triage.get("matched_by") == "rule" and not alone):
        return "unconfirmed"
    return str(triage.get("verdict"))


def cell_verdicts(cell: Mapping[str, Any]) -> list[str]:
    """The verdict of each of ``cell``'s findings, in order."""
    findings = cell["findings"]
    return [finding_verdict(finding, len(findings) == 1) for finding in findings]


def column_counts(document: Mapping[str, Any], column_key: str) -> dict[str, int]:
    """Per column: rules failed (failed or error), distinct findings, and the findings by verdict:
    ``confirmed``, ``disputed``, ``kit_bug_fixed`` (a false alarm the kit has since fixed) and
    ``unconfirmed`` (no triage entry of its own); the four add up to ``findings``."""
    cells = document["cells"].get(column_key, {})
    failed = sum(1 for cell in cells.values() if cell["outcome"] in ("failed", "error"))
    verdicts = [verdict for cell in cells.values() for verdict in cell_verdicts(cell)]
    column: Mapping[str, Any] = next((entry for entry in document.get("columns", []) if entry.get("key") == column_key), {})
    return {"failed_rules": failed, "defects": len(column.get("defects") or []), "findings": len(verdicts),
            "confirmed": verdicts.count("confirmed"),
            "disputed": verdicts.count("disputed"), "kit_bug_fixed": verdicts.count("kit-bug-fixed"),
            "unconfirmed": verdicts.count("unconfirmed")}


#: The columns' fields a summary keeps (what the tables of the documentation and ``--against`` read).
_SUMMARY_COLUMN = ("key", "title", "language", "adapter", "command", "versions", "status", "reason", "duration_s",
                   "cpu_s", "sdk", "summary", "defects", "refusals")


def summarize(document: Mapping[str, Any]) -> dict[str, Any]:
    """The matrix's small summary, itself a valid matrix document: every column and cell, each
    finding by its key, kind and defect id alone (no message, counterexample, reproducer, nor triage: join the
    triage files with :func:`annotate_triage` when reading it). The repository keeps this (a few
    hundred KB) instead of the whole matrix; ``--against`` takes it as the old matrix."""
    check_matrix(document, "the matrix to summarize")
    return {
        "schema": MATRIX_SCHEMA,
        "kit_version": document["kit_version"],
        "profile": document["profile"],
        "selection": list(document["selection"]),
        "rules": {rule_id: {"title": row["title"], "section": row["section"]} for rule_id, row in document["rules"].items()},
        "columns": [{field: column[field] for field in _SUMMARY_COLUMN if field in column} for column in document["columns"]],
        "cells": {key: {rule_id: {"outcome": cell["outcome"], "reasons": [],
                                  "findings": [{"key": finding["key"], "kind": finding["kind"], "message": "",
                                                "count": finding["count"], "triage": None, "confirmed": False,
                                                # a triage entry may name the defect: the summary keeps what it joins on
                                                **({"defect": finding["defect"]} if finding.get("defect") else {})}
                                               for finding in cell["findings"]]}
                        for rule_id, cell in cells.items()}
                  for key, cells in document["cells"].items()},
    }


def diff_matrices(old: Mapping[str, Any], new: Mapping[str, Any]) -> dict[str, Any]:
    """What changed from ``old`` to ``new``: findings new and fixed (by column, rule and key),
    outcome changes, distribution versions that changed, columns added and removed."""
    check_matrix(old, "the --against matrix")
    check_matrix(new, "the new matrix")
    old_columns = {column["key"]: column for column in old["columns"]}
    new_columns = {column["key"]: column for column in new["columns"]}
    changes: dict[str, Any] = {
        "against": {"kit_version": old.get("kit_version"), "profile": old.get("profile")},
        "new_findings": [], "fixed_findings": [], "outcomes": [], "versions": [],
        "columns_added": sorted(set(new_columns) - set(old_columns)),
        "columns_removed": sorted(set(old_columns) - set(new_columns)),
    }
    if old.get("kit_version") != new.get("kit_version"):
        changes["kit_version"] = {"old": old.get("kit_version"), "new": new.get("kit_version")}
    for key, column in new_columns.items():
        before = old_columns.get(key)
        if before is None:
            continue
        for name in sorted(set(before.get("versions", {})) | set(column.get("versions", {}))):
            was, now = before.get("versions", {}).get(name), column.get("versions", {}).get(name)
            if was != now:
                changes["versions"].append({"column": key, "distribution": name, "old": was, "new": now})
        old_cells, new_cells = old["cells"].get(key, {}), new["cells"].get(key, {})
        # A column that could not run says nothing about its findings: no "fixed" from an error.
        comparable = before["status"] == "ran" and column["status"] == "ran"
        for rule_id in sorted(set(old_cells) | set(new_cells)):
            old_cell, new_cell = old_cells.get(rule_id), new_cells.get(rule_id)
            if old_cell is not None and new_cell is not None and old_cell["outcome"] != new_cell["outcome"]:
                changes["outcomes"].append({"column": key, "rule": rule_id,
                                            "old": old_cell["outcome"], "new": new_cell["outcome"]})
            if not comparable or old_cell is None or new_cell is None:
                continue
            old_keys = {finding["key"]: finding for finding in old_cell["findings"]}
            new_keys = {finding["key"]: finding for finding in new_cell["findings"]}
            for finding_key in sorted(set(new_keys) - set(old_keys)):
                changes["new_findings"].append({"column": key, "rule": rule_id, "key": finding_key,
                                                "message": new_keys[finding_key].get("message", "")})
            for finding_key in sorted(set(old_keys) - set(new_keys)):
                changes["fixed_findings"].append({"column": key, "rule": rule_id, "key": finding_key,
                                                  "message": old_keys[finding_key].get("message", "")})
    return changes


def changes_lines(changes: Mapping[str, Any]) -> list[str]:
    """The changes as plain text lines (what ``--against`` prints)."""
    lines: list[str] = []
    against = changes.get("against", {})
    lines.append(f"changes against the matrix of kit {against.get('kit_version')} ({against.get('profile')} profile):")
    if "kit_version" in changes:
        lines.append(f"  kit version: {changes['kit_version']['old']} -> {changes['kit_version']['new']}")
    for version in changes["versions"]:
        lines.append(f"  new version: {version['column']}: {version['distribution']} "
                     f"{version['old'] or 'not installed'} -> {version['new'] or 'not installed'}")
    for key in changes["columns_added"]:
        lines.append(f"  column added: {key}")
    for key in changes["columns_removed"]:
        lines.append(f"  column removed: {key}")
    for finding in changes["new_findings"]:
        lines.append(f"  NEW finding: {finding['column']} {finding['rule']}: {finding['key']}")
    for finding in changes["fixed_findings"]:
        lines.append(f"  fixed: {finding['column']} {finding['rule']}: {finding['key']}")
    for outcome in changes["outcomes"]:
        lines.append(f"  outcome: {outcome['column']} {outcome['rule']}: {outcome['old']} -> {outcome['new']}")
    if len(lines) == 1:
        lines.append("  nothing changed")
    return lines


def load_matrix_schema() -> dict[str, Any]:
    """The JSON Schema of the matrix document."""
    text = resources.files("strictconformance.matrix").joinpath("matrix.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema


def check_matrix(document: Any, what: str = "the matrix") -> None:
    """Raise :class:`MatrixError` naming the first problem when ``document`` is not a matrix
    document of this version."""
    import jsonschema  # type: ignore[import-untyped]

    if not isinstance(document, Mapping) or document.get("schema") != MATRIX_SCHEMA:
        found = document.get("schema") if isinstance(document, Mapping) else type(document).__name__
        raise MatrixError(f"{what} is not a {MATRIX_SCHEMA} document (schema: {found!r})")
    errors = sorted(jsonschema.Draft202012Validator(load_matrix_schema()).iter_errors(document),
                    key=lambda e: list(e.absolute_path))
    if errors:
        where = "/" + "/".join(str(part) for part in errors[0].absolute_path)
        raise MatrixError(f"{what} does not follow {MATRIX_SCHEMA}: at {where}: {errors[0].message}")

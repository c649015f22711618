"""Upstream reports: one ready-to-file issue in Markdown per confirmed defect of an SDK path.

A column's report (``pytest --sc-report``) groups its findings into defects; the triage files
(``strictconformance.sdks.triage``) say which findings were checked by hand and confirmed. A defect
every finding of which a ``confirmed`` entry covers (matched as the SDK matrix matches them,
:func:`strictconformance.matrix.combine.annotate_triage`) becomes one issue: a title, the SDK and
provider versions, the minimal reproducer in the SDK's language (the triage entry's, else the
finding's own), what it does, what the provider's documentation says it should do (the links of the
entry's evidence, the dialect's and the rule's sources) and the rule(s). Pure functions on JSON data
and triage entries; the command is ``strictconformance report --upstream REPORT.json``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

__all__ = ["UpstreamError", "UpstreamIssue", "column_of", "upstream_issues"]

_URL = re.compile(r"https?://[^\s)'\"\]>,;]+")
_TITLE_CHARS = 160


class UpstreamError(ValueError):
    """The report cannot be turned into upstream issues: the message says why and what to pass."""


@dataclass(frozen=True)
class UpstreamIssue:
    """One ready-to-file issue: ``file_name`` (a slug of the column and its first defect) and its Markdown."""

    column: str
    #: The report's defect ids the issue covers (several when the same confirmed entries explain them).
    defects: tuple[str, ...]
    title: str
    file_name: str
    markdown: str


def column_of(report: Mapping[str, Any], sdk_paths: Sequence[Any]) -> Any:
    """The SDK path (:class:`strictconformance.sdks.SdkPath`) whose adapter wrote ``report``; raises
    :class:`UpstreamError` when none does (a process harness or an adapter of your own: name it)."""
    adapter = (report.get("adapter") or {}).get("adapter")
    for path in sdk_paths:
        if path.adapter is not None and path.adapter == adapter:
            return path
    raise UpstreamError(f"the report's adapter {adapter!r} is no shipped SDK path's: name the column with --column "
                        f"(one of {', '.join(path.key for path in sdk_paths)})")


def _urls(text: str) -> list[str]:
    return [url.rstrip(".") for url in _URL.findall(text or "")]


def _unique(items: Iterable[str]) -> list[str]:
    seen: dict[str, None] = {}
    for item in items:
        seen.setdefault(item, None)
    return list(seen)


def _findings_by_defect(report: Mapping[str, Any]) -> dict[str, list[dict[str, Any]]]:
    from strictconformance.render import rule_findings

    grouped: dict[str, list[dict[str, Any]]] = {}
    for rule_id, data in (report.get("rules") or {}).items():
        for finding in rule_findings(rule_id, data):
            finding.setdefault("rule", rule_id)
            if finding.get("defect"):
                grouped.setdefault(str(finding["defect"]), []).append(finding)
    return grouped


def _confirmations(report: Mapping[str, Any], column: str, triage: Sequence[Any]) -> dict[tuple[str, str], dict[str, Any]]:
    """(rule, key) of each of the report's findings -> its triage annotation, matched as the matrix
    matches (one finding per key and origin per rule, then :func:`annotate_triage`)."""
    from strictconformance.matrix.combine import _distinct, annotate_triage, report_findings

    rules = report.get("rules") or {}
    cells = {column: {rule_id: {"findings": _distinct(report_findings(rule_id, data))} for rule_id, data in rules.items()}}
    document = {"columns": [{"key": column, "status": "ran"}], "rules": dict.fromkeys(rules), "cells": cells}
    annotated = annotate_triage(document, triage)
    found: dict[tuple[str, str], dict[str, Any]] = {}
    for rule_id, cell in annotated["cells"][column].items():
        for finding in cell["findings"]:
            found[(rule_id, finding["key"])] = finding
    return found


def _entry_for(triage: Sequence[Any], column: str, rule: str, annotation: Mapping[str, Any]) -> Any:
    """The triage entry behind an annotation (the annotation keeps its summary, not the entry)."""
    summary = (annotation.get("triage") or {}).get("summary")
    return next((entry for entry in triage if entry.sdk_path == column and entry.rule == rule and entry.summary == summary), None)


def upstream_issues(report: Mapping[str, Any], triage: Sequence[Any], *, column: Any) -> list[UpstreamIssue]:
    """One issue per defect of ``report`` whose findings are all covered by ``confirmed`` triage
    entries of ``column`` (an :class:`~strictconformance.sdks.SdkPath`, or any object with ``key``,
    ``title`` and ``language``), in the report's defect order."""
    from strictconformance.render import report_defects

    key = str(column.key)
    by_defect = _findings_by_defect(report)
    annotations = _confirmations(report, key, triage)
    # Defects the suite tells apart (a refusal met by two cases, one cause seen through two keywords)
    # that the same confirmed entries explain are one cause for the maintainer: one issue.
    grouped: dict[tuple[tuple[str, str, str], ...], tuple[list[Mapping[str, Any]], list[dict[str, Any]], list[Any]]] = {}
    for defect in report_defects(report):
        findings = by_defect.get(str(defect.get("id")), [])
        if not findings:
            continue
        notes = [annotations.get((str(f["rule"]), str(f.get("key")))) for f in findings]
        if not all(note is not None and note.get("confirmed") for note in notes):
            continue
        entries = _unique_entries(_entry_for(triage, key, str(f["rule"]), note or {}) for f, note in zip(findings, notes, strict=True))
        if not entries:
            continue
        defects, witnesses, _ = grouped.setdefault(tuple(sorted(entry.join_key for entry in entries)), ([], [], entries))
        defects.append(defect)
        witnesses.extend(findings)
    return [_issue(report, defects, findings, entries, column) for defects, findings, entries in grouped.values()]


def _unique_entries(entries: Iterable[Any]) -> list[Any]:
    out: list[Any] = []
    for entry in entries:
        if entry is not None and all(entry.join_key != seen.join_key for seen in out):
            out.append(entry)
    return out


def _slug(text: str) -> str:
    return re.sub(r"[^A-Za-z0-9]+", "-", text).strip("-").lower()


def _fence(text: str, language: str) -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{language}\n{text.rstrip()}\n{fence}"


def _dialects(findings: Sequence[Mapping[str, Any]], report: Mapping[str, Any]) -> list[str]:
    named = [str(f["counterexample"]["dialect"]) for f in findings
             if isinstance(f.get("counterexample"), Mapping) and f["counterexample"].get("dialect")]
    return _unique(named) or [str(d) for d in (report.get("adapter") or {}).get("strictify_dialects", [])]


def _issue(report: Mapping[str, Any], defects: Sequence[Mapping[str, Any]], findings: Sequence[Mapping[str, Any]],
           entries: Sequence[Any], column: Any) -> UpstreamIssue:
    from strictconformance.dialects import SHIPPED
    from strictconformance.spec import all_rules

    spec = all_rules()
    adapter = report.get("adapter") or {}
    sdk = str(adapter.get("sdk") or column.key)
    first = entries[0]
    title = f"{sdk}: {first.summary}"
    if len(title) > _TITLE_CHARS:
        title = title[:_TITLE_CHARS - 1].rstrip() + "…"
    rules = _unique([str(rule) for defect in defects for rule in defect.get("rules") or []] + [str(f["rule"]) for f in findings])
    ids = [str(defect.get("id")) for defect in defects]
    witnesses = sum(int(defect.get("witnesses") or 0) for defect in defects) or len(findings)
    dialects = _dialects(findings, report)
    language = getattr(first, "language", None) or getattr(column, "language", "python")
    fence_language = "js" if language == "node" else "python"
    reproducer = first.reproducer or next((str(f["reproducer"]) for f in findings if f.get("reproducer")), "")
    documentation = _unique([url for entry in entries for url in _urls(entry.evidence)]
                            + [SHIPPED[name].source for name in dialects if name in SHIPPED and SHIPPED[name].source]
                            + [url for rule in rules if rule in spec for url in _urls(spec[rule].source)])
    lines = [
        f"# {title}", "",
        f"<!-- strictconformance upstream report: {column.key} {' '.join(ids)} -->", "",
        f"- **SDK:** {sdk} (triaged on {', '.join(_unique(entry.version for entry in entries))}; "
        f"path `{column.key}`: {column.title})",
        f"- **Provider:** {', '.join(f'`{name}` ({SHIPPED[name].description})' if name in SHIPPED else f'`{name}`' for name in dialects) or 'n/a'}",
        f"- **Found by:** strictconformance {report.get('kit_version', '?')}, profile `{report.get('profile', '?')}`, "
        f"rule{'s' if len(rules) > 1 else ''} {', '.join(rules)}; defect{'s' if len(ids) > 1 else ''} {', '.join(ids)}, "
        f"{witnesses} witness{'es' if witnesses != 1 else ''}",
    ]
    filed = _unique(entry.upstream for entry in entries if getattr(entry, "upstream", None))
    if filed:
        lines.append(f"- **Already filed:** {', '.join(filed)}")
    lines += ["", "## What happens", ""]
    lines += [f"- {entry.summary}" for entry in entries]
    message = str(findings[0].get("message") or "").strip()
    if message:
        lines += ["", "As the conformance suite reported it:", "", _fence(message, "text")]
    lines += ["", "## Reproducer", "",
              f"Standalone, only the SDK installed ({'node, an ES module' if language == 'node' else 'python'}); "
              "it prints a line starting `BUG:` while the bug is there:", "",
              _fence(reproducer, fence_language), "",
              "## What it should do", ""]
    for rule in rules:
        if rule in spec:
            lines.append(f"- **{rule}** {spec[rule].title}: {spec[rule].statement}")
    lines += ["", "Evidence:", ""]
    lines += [f"- {entry.evidence}" for entry in entries]
    if documentation:
        lines += ["", "Documentation:", ""]
        lines += [f"- {url}" for url in documentation]
    lines += ["", "## Rules", ""]
    lines += [f"- {rule}: {spec[rule].title} (source: {spec[rule].source})" if rule in spec else f"- {rule}" for rule in rules]
    lines.append("")
    file_name = f"{_slug(column.key)}--{_slug(ids[0])}.md"
    return UpstreamIssue(column=str(column.key), defects=tuple(ids), title=title, file_name=file_name,
                         markdown="\n".join(lines))

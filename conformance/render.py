"""Render a saved JSON report (a dict) as Markdown, HTML or JUnit XML, and compare two reports.

Pure functions from the report document to text: the plugin writes the Markdown one to the GitHub
job summary, ``strictconformance report`` renders any of them from a file. They read version 2
reports (``findings`` per rule) and version 1 reports (``counterexamples``, each one a finding of
its ``kind``), so an old saved report still renders and compares.
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from xml.etree import ElementTree

from strictconformance.spec import rule_url

__all__ = [
    "ReportDiff",
    "ReportFormatError",
    "check_report",
    "defects_headline",
    "diff_reports",
    "render_html",
    "render_junit",
    "render_markdown",
    "report_defects",
    "rule_findings",
]

#: Outcomes in the order a reader wants them (the worst first).
_OUTCOME_ORDER = ("failed", "error", "kit error", "passed", "not judged", "xfailed", "skipped", "not covered", "not run")
_PROBLEM_OUTCOMES = ("failed", "error", "kit error")
#: A rule ID (a saved report of another kit may name others; those get no page link).
_RULE_ID = re.compile(r"^[A-Z]+-[0-9]+$")
#: Longest counterexample/call text shown inline; the JSON report keeps everything.
_SHOWN_CHARS = 3000
#: GitHub truncates a job summary above 1 MiB; stay well below it.
_MARKDOWN_BUDGET = 900_000


class ReportFormatError(ValueError):
    """A document that is not a strictconformance report: says what is missing."""


def check_report(report: object, name: str = "the report") -> Mapping[str, Any]:
    """``report`` when it has the fields the renderers read; a :class:`ReportFormatError` naming
    the first that is missing otherwise (any schema version ``strictconformance-report/N``)."""
    if not isinstance(report, Mapping):
        raise ReportFormatError(f"{name} is a JSON {type(report).__name__}, not a strictconformance report (an object)")
    schema = report.get("schema")
    if not isinstance(schema, str) or not schema.startswith("strictconformance-report/"):
        raise ReportFormatError(f"{name} is not a strictconformance report: its \"schema\" is {json.dumps(schema)[:80]}, "
                                f"expected \"strictconformance-report/N\" (written by --sc-report)")
    rules = report.get("rules")
    if not isinstance(rules, Mapping):
        raise ReportFormatError(f"{name} ({schema}) has no \"rules\" object")
    for rule_id, data in rules.items():
        if not isinstance(data, Mapping) or not isinstance(data.get("outcome"), str):
            raise ReportFormatError(f"{name} ({schema}): rules.{rule_id} has no \"outcome\"")
    return report


def rule_findings(rule_id: str, data: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The findings of one rule: ``findings`` (report version 2) or, from a version 1 report, each
    counterexample as a finding of its ``kind``, keyed by rule, kind and the message's first line."""
    if isinstance(data.get("findings"), list):
        return [dict(f) for f in data["findings"] if isinstance(f, Mapping)]
    findings = []
    for example in data.get("counterexamples") or []:
        if not isinstance(example, Mapping):
            continue
        kind = str(example.get("kind") or "failure")
        message = str(example.get("message") or "")
        first = message.strip().splitlines()[0] if message.strip() else ""
        findings.append({
            "rule": rule_id, "kind": kind, "key": f"{rule_id} {kind}: {first[:120]}", "where": None,
            "message": message, "counterexample": example.get("counterexample"),
            "calls": example.get("calls") or [], "replay": example.get("replay") or "",
            "reproducer": example.get("reproducer"), "nodeid": example.get("nodeid") or "",
        })
    return findings


def report_defects(report: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The report's defects (``defects``), or, for a report written before them, its findings
    grouped here the same way (:func:`strictconformance.defects.group_defects`)."""
    if isinstance(report.get("defects"), list):
        return [dict(defect) for defect in report["defects"] if isinstance(defect, Mapping)]
    from strictconformance.defects import group_defects

    findings = [finding for rule_id, data in report.get("rules", {}).items() for finding in rule_findings(rule_id, data)]
    return [defect.as_json() for defect in group_defects(findings)]


def example_finding(report: Mapping[str, Any], defect: Mapping[str, Any]) -> dict[str, Any]:
    """The whole finding a defect names as its example (rule, key and check), else the example as given."""
    example = defect.get("example") or {}
    rule_id = str(example.get("rule", ""))
    for finding in rule_findings(rule_id, report.get("rules", {}).get(rule_id, {})) if rule_id in report.get("rules", {}) else []:
        if finding.get("key") == example.get("key") and finding.get("nodeid") == example.get("nodeid"):
            return finding
    return dict(example)


def defects_headline(defects: list[dict[str, Any]]) -> str:
    """"12 defects across 37 rules (366 witnesses)"."""
    rules = {rule for defect in defects for rule in defect.get("rules", [])}
    witnesses = sum(int(defect.get("witnesses", 1)) for defect in defects)
    def plural(n: int, word: str, many: str) -> str:
        return f"{n} {word if n == 1 else many}"

    return (f"{plural(len(defects), 'defect', 'defects')} across {plural(len(rules), 'rule', 'rules')} "
            f"({plural(witnesses, 'witness', 'witnesses')})")


def _unexplained(data: Mapping[str, Any]) -> list[str]:
    """Reasons of failed/errored checks that carry no finding (an unexpected pass, a dead worker)."""
    return sorted({str(c.get("reason")) for c in data.get("checks") or []
                   if isinstance(c, Mapping) and c.get("outcome") in _PROBLEM_OUTCOMES
                   and "failure" not in c and not c.get("findings") and c.get("reason")})


def _counts(report: Mapping[str, Any]) -> dict[str, int]:
    counts = dict.fromkeys(_OUTCOME_ORDER, 0)
    for data in report["rules"].values():
        counts[data["outcome"]] = counts.get(data["outcome"], 0) + 1
    return counts


def _headline(report: Mapping[str, Any]) -> str:
    counts = _counts(report)
    problems = counts["failed"] + counts["error"]
    if problems:
        return f"{problems} of {len(report['rules'])} rules failed"
    if counts["passed"] == 0:
        return "no rule passed (nothing was checked)"
    return f"all {counts['passed']} checked rules passed"


def _witnesses(defect: Mapping[str, Any]) -> str:
    count = int(defect.get("witnesses", 1))
    return f"{count} witness" + ("" if count == 1 else "es")


def _one_line(value: Any, limit: int) -> str:
    text = json.dumps(value, ensure_ascii=False, sort_keys=True, default=str)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _shown(value: Any, limit: int = _SHOWN_CHARS) -> str:
    text = value if isinstance(value, str) else json.dumps(value, indent=2, ensure_ascii=False, default=str)
    return text if len(text) <= limit else text[:limit] + f"\n… ({len(text) - limit} more characters in the JSON report)"


def _adapter_line(report: Mapping[str, Any]) -> str:
    adapter = report.get("adapter") if isinstance(report.get("adapter"), Mapping) else {}
    assert isinstance(adapter, Mapping)
    sdk = f" ({adapter['sdk']})" if adapter.get("sdk") else ""
    seed = f", seed {report['seed']}" if report.get("seed") else ""
    return (f"adapter `{adapter.get('adapter', '?')}`{sdk}, profile `{report.get('profile', '?')}`{seed}, "
            f"kit {report.get('kit_version', '?')}, {report.get('schema')}")


# -- comparing two reports ------------------------------------------------------------------------


@dataclass(frozen=True)
class ReportDiff:
    """What changed from an OLD report to a NEW one: rule outcomes, and findings by grouping key."""

    changed: tuple[tuple[str, str, str], ...]  # (rule, old outcome, new outcome)
    new_findings: tuple[tuple[str, str], ...]  # (rule, key)
    fixed_findings: tuple[tuple[str, str], ...]

    @property
    def regressed(self) -> bool:
        return bool(self.new_findings) or any(new in _PROBLEM_OUTCOMES and old not in _PROBLEM_OUTCOMES
                                              for _, old, new in self.changed)


def _keys(report: Mapping[str, Any]) -> set[tuple[str, str]]:
    return {(rule_id, str(f.get("key") or f.get("message") or "")) for rule_id, data in report["rules"].items()
            for f in rule_findings(rule_id, data)}


def diff_reports(old: Mapping[str, Any], new: Mapping[str, Any]) -> ReportDiff:
    """Rules whose outcome changed, findings only NEW has and findings only OLD had."""
    rule_ids = list(new["rules"]) + [r for r in old["rules"] if r not in new["rules"]]
    changed = tuple(
        (rule_id, old["rules"].get(rule_id, {}).get("outcome", "absent"), new["rules"].get(rule_id, {}).get("outcome", "absent"))
        for rule_id in rule_ids
        if old["rules"].get(rule_id, {}).get("outcome", "absent") != new["rules"].get(rule_id, {}).get("outcome", "absent")
    )
    old_keys, new_keys = _keys(old), _keys(new)
    order = {rule_id: index for index, rule_id in enumerate(rule_ids)}
    return ReportDiff(changed,
                      tuple(sorted(new_keys - old_keys, key=lambda k: (order.get(k[0], 0), k[1]))),
                      tuple(sorted(old_keys - new_keys, key=lambda k: (order.get(k[0], 0), k[1]))))


# -- Markdown --------------------------------------------------------------------------------------


def _md_cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _fence(text: str, language: str = "") -> str:
    fence = "```"
    while fence in text:
        fence += "`"
    return f"{fence}{language}\n{text}\n{fence}"


def _md_diff(diff: ReportDiff, against: str) -> list[str]:
    lines = [f"### Changes since {against}", ""]
    if not (diff.changed or diff.new_findings or diff.fixed_findings):
        return [*lines, "No rule changed outcome; no finding appeared or went away.", ""]
    if diff.changed:
        lines += ["| rule | before | now |", "|---|---|---|"]
        lines += [f"| {rule_id} | {old} | {new} |" for rule_id, old, new in diff.changed]
        lines.append("")
    lines += [f"- **new** {_md_cell(key)}" for _, key in diff.new_findings]
    lines += [f"- **gone** {_md_cell(key)}" for _, key in diff.fixed_findings]
    return [*lines, ""]


def _md_finding(finding: Mapping[str, Any]) -> list[str]:
    summary = html.escape(str(finding.get("key") or finding.get("kind") or "finding"))
    lines = ["<details>", f"<summary>{summary}</summary>", ""]
    if finding.get("where"):
        lines += [f"**where** `{finding['where']}`", ""]
    lines += [_fence(str(finding.get("message") or "").strip()), ""]
    if finding.get("counterexample") is not None:
        lines += ["counterexample:", "", _fence(_shown(finding["counterexample"]), "json"), ""]
    calls = finding.get("calls") or []
    if calls and isinstance(calls[-1], Mapping):
        last = calls[-1]
        outcome = f"raised {last['raised']}" if last.get("raised") else f"returned {_shown(last.get('returned'), 600)}"
        lines += ["failing call:", "", _fence(f"{last.get('call', '')}\n# {outcome}", "python"), ""]
    if finding.get("replay"):
        lines += ["replay:", "", _fence(str(finding["replay"]), "sh"), ""]
    if finding.get("reproducer"):
        lines += ["reproducer:", "", _fence(str(finding["reproducer"]), str(finding.get("reproducer_language") or "python")), ""]
    return [*lines, "</details>", ""]


def render_markdown(report: Mapping[str, Any], *, against: Mapping[str, Any] | None = None,
                    against_name: str = "the previous report") -> str:
    """A GitHub-flavoured Markdown report (for ``$GITHUB_STEP_SUMMARY`` or a pull request comment):
    the verdict, a tally per outcome, the failed rules with each finding folded, what was not
    covered, and, with ``against``, what changed since that report."""
    report = check_report(report)
    counts = _counts(report)
    lines = [f"## strictconformance: {_headline(report)}", "", _adapter_line(report), "",
             "| outcome | rules |", "|---|---|"]
    lines += [f"| {outcome} | {count} |" for outcome, count in counts.items() if count]
    lines.append("")
    if report.get("complete") is False:
        lines += [f"**Incomplete:** {_md_cell(str(report.get('incomplete') or 'the run did not finish'))}", ""]
    if against is not None:
        lines += _md_diff(diff_reports(check_report(against, against_name), report), against_name)
    defects = report_defects(report)
    if defects:
        lines += [f"### {defects_headline(defects)}", "", "| defect | kind | rules | witnesses |", "|---|---|---|---|"]
        lines += [f"| {defect['id']} {_md_cell(str(defect.get('title', '')))} | {defect.get('kind', '')} | "
                  f"{', '.join(defect.get('rules', []))} | {defect.get('witnesses', 1)} |" for defect in defects]
        lines.append("")
        budget = _MARKDOWN_BUDGET - sum(len(line) + 1 for line in lines)
        for defect in defects:
            section = [f"#### {defect['id']} {defect.get('title', '')}", "",
                       f"rules {', '.join(defect.get('rules', []))}; {_witnesses(defect)}; the smallest:", ""]
            section += _md_finding(example_finding(report, defect))
            size = sum(len(line) + 1 for line in section)
            if size > budget:
                lines += ["", "(further defects left out: the summary would pass GitHub's size limit; "
                              "the JSON report has them all)", ""]
                break
            budget -= size
            lines += [*section, ""]
    refusals = [(dialect, seen) for dialect, counts in (report.get("strictify") or {}).items()
                for seen in counts.get("refusals") or []]
    if refusals:
        lines += ["### Refusals", "", "What strictify refused on purpose (RT-10 judges whether the dialect could express it):", "",
                  "| dialect | refused | exception | an example schema |", "|---|---|---|---|"]
        lines += [f"| {dialect} | {seen.get('count', 1)} | {_md_cell(str(seen.get('type', '')) + ': ' + str(seen.get('message', '')))} | "
                  f"`{_md_cell(_one_line(seen.get('schema'), 200))}` |" for dialect, seen in refusals]
        lines.append("")
    failed = {rule_id: data for rule_id, data in report["rules"].items() if data["outcome"] in _PROBLEM_OUTCOMES}
    if failed:
        lines += ["### Failed rules", "", "| rule | outcome | findings | defects | title |", "|---|---|---|---|---|"]
        for rule_id, data in failed.items():
            findings = rule_findings(rule_id, data)
            found = sorted({str(defect["id"]) for defect in defects if rule_id in defect.get("rules", [])})
            why = "; ".join(_unexplained(data))
            lines.append(f"| {rule_id} | {data['outcome']} | {len(findings)} | {', '.join(found) or _md_cell(why)} | "
                         f"{_md_cell(str(data.get('title', '')))} |")
        lines.append("")
    not_covered: dict[str, list[str]] = {}
    for rule_id, data in report["rules"].items():
        if data["outcome"] in ("not covered", "skipped", "xfailed"):
            reason = "; ".join(data.get("reasons") or []) or data["outcome"]
            not_covered.setdefault(f"{data['outcome']}: {reason}", []).append(rule_id)
    if not_covered:
        lines += ["<details>", "<summary>Not covered, skipped or expected to fail</summary>", ""]
        lines += [f"- {', '.join(rule_ids)}: {_md_cell(reason)}" for reason, rule_ids in not_covered.items()]
        lines += ["", "</details>", ""]
    return "\n".join(lines).rstrip("\n") + "\n"


# -- HTML ------------------------------------------------------------------------------------------

_CSS = """body{font:14px/1.45 system-ui,sans-serif;margin:2em auto;max-width:72em;padding:0 1em;color:#1b1f24}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #d0d7de;padding:.25em .6em;text-align:left;vertical-align:top}
pre{background:#f6f8fa;padding:.6em;overflow:auto;white-space:pre-wrap}summary{cursor:pointer;font-weight:600}
.failed,.error{color:#cf222e;font-weight:600}.passed{color:#1a7f37}.gone{color:#1a7f37}.new{color:#cf222e}"""


def _e(value: Any) -> str:
    return html.escape(str(value), quote=True)


def _html_finding(finding: Mapping[str, Any]) -> str:
    parts = [f"<details><summary>{_e(finding.get('key') or finding.get('kind') or 'finding')}</summary>"]
    if finding.get("where"):
        parts.append(f"<p>where <code>{_e(finding['where'])}</code></p>")
    parts.append(f"<pre>{_e(str(finding.get('message') or '').strip())}</pre>")
    if finding.get("counterexample") is not None:
        parts.append(f"<p>counterexample</p><pre>{_e(_shown(finding['counterexample']))}</pre>")
    calls = finding.get("calls") or []
    if calls and isinstance(calls[-1], Mapping):
        last = calls[-1]
        outcome = f"raised {last['raised']}" if last.get("raised") else f"returned {_shown(last.get('returned'), 600)}"
        parts.append(f"<p>failing call</p><pre>{_e(last.get('call', ''))}\n# {_e(outcome)}</pre>")
    for label in ("replay", "reproducer"):
        if finding.get(label):
            parts.append(f"<p>{label}</p><pre>{_e(finding[label])}</pre>")
    parts.append("</details>")
    return "\n".join(parts)


def render_html(report: Mapping[str, Any], *, against: Mapping[str, Any] | None = None,
                against_name: str = "the previous report") -> str:
    """A self-contained HTML page (no script, no external resource): every rule with its outcome,
    examples and reasons, each finding folded under its rule, and the changes since ``against``."""
    report = check_report(report)
    title = f"strictconformance: {_headline(report)}"
    body = [f"<h1>{_e(title)}</h1>", f"<p>{_e(_adapter_line(report).replace('`', ''))}</p>", "<table><tr><th>outcome</th><th>rules</th></tr>"]
    body += [f"<tr><td class=\"{_e(o)}\">{_e(o)}</td><td>{n}</td></tr>" for o, n in _counts(report).items() if n]
    body.append("</table>")
    if against is not None:
        diff = diff_reports(check_report(against, against_name), report)
        body.append(f"<h2>Changes since {_e(against_name)}</h2>")
        if diff.changed:
            body.append("<table><tr><th>rule</th><th>before</th><th>now</th></tr>")
            body += [f"<tr><td>{_e(r)}</td><td class=\"{_e(o)}\">{_e(o)}</td><td class=\"{_e(n)}\">{_e(n)}</td></tr>"
                     for r, o, n in diff.changed]
            body.append("</table>")
        items = [f"<li class=\"new\">new: {_e(k)}</li>" for _, k in diff.new_findings]
        items += [f"<li class=\"gone\">gone: {_e(k)}</li>" for _, k in diff.fixed_findings]
        body.append(f"<ul>{''.join(items)}</ul>" if items or diff.changed else "<p>No change.</p>")
    defects = report_defects(report)
    if defects:
        body.append(f"<h2>{_e(defects_headline(defects))}</h2>")
        for defect in defects:
            body.append(f"<section id=\"{_e(defect['id'])}\"><h3>{_e(defect['id'])} {_e(defect.get('title', ''))}</h3>"
                        f"<p>{_e(defect.get('kind', ''))}; rules {_e(', '.join(defect.get('rules', [])))}; "
                        f"{_e(_witnesses(defect))}; the smallest:</p>{_html_finding(example_finding(report, defect))}</section>")
    body.append("<h2>Rules</h2><table><tr><th>rule</th><th>outcome</th><th>examples</th><th>title</th><th>details</th></tr>")
    for rule_id, data in report["rules"].items():
        if data["outcome"] == "not run" and not data.get("checks"):
            continue
        found = sorted({str(f.get("defect")) for f in rule_findings(rule_id, data) if f.get("defect")})
        details = [f"<a href=\"#{_e(d)}\">{_e(d)}</a>" for d in found] if found else [_html_finding(f) for f in rule_findings(rule_id, data)]
        reasons = list(data.get("reasons") or []) + _unexplained(data)
        if reasons:
            details.append("<br>".join(_e(r) for r in dict.fromkeys(reasons)))
        body.append(f"<tr id=\"{_e(rule_id)}\"><td>{_e(rule_id)}</td><td class=\"{_e(data['outcome'])}\">{_e(data['outcome'])}</td>"
                    f"<td>{_e(data.get('examples', 0))}</td><td>{_e(data.get('title', ''))}</td><td>{''.join(details)}</td></tr>")
    body.append("</table>")
    return ("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
            f"<title>{_e(title)}</title><style>{_CSS}</style></head>\n<body>\n" + "\n".join(body) + "\n</body></html>\n")


# -- JUnit XML -------------------------------------------------------------------------------------


_XML_INVALID = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff]")


def _xml(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot carry (a counterexample may hold any)."""
    return _XML_INVALID.sub("\ufffd", text)


def render_junit(report: Mapping[str, Any]) -> str:
    """JUnit XML in the xunit2 family (the one pytest writes by default): one ``<testsuite>`` per
    rule named by its ID, one ``<testcase>`` per check with ``classname="strictconformance.<RULE>"``
    and the rule ID leading its ``name``, so dashboards group by rule; its properties ``sc_rule`` and
    ``sc_rule_url`` (the rule's page on the documentation site), as ``--junitxml`` writes them. A failed check carries its
    findings (or its reason); not covered, skipped and expected failures are ``<skipped>``."""
    report = check_report(report)
    root = ElementTree.Element("testsuites", {"name": "strictconformance"})
    totals = dict.fromkeys(("tests", "failures", "errors", "skipped"), 0)
    total_time = 0.0
    for rule_id, data in report["rules"].items():
        checks = [c for c in data.get("checks") or [] if isinstance(c, Mapping)]
        if not checks:
            continue
        findings = rule_findings(rule_id, data)
        counts = dict.fromkeys(totals, 0)
        suite_time = 0.0
        suite = ElementTree.SubElement(root, "testsuite", {"name": rule_id})
        for check in checks:
            nodeid = str(check.get("nodeid", ""))
            seconds = float(check.get("duration_s") or 0)
            suite_time += seconds
            case = ElementTree.SubElement(suite, "testcase", {
                "classname": f"strictconformance.{rule_id}", "name": _xml(f"{rule_id} {nodeid.rsplit('::', 1)[-1]}"),
                "file": nodeid.split("::", 1)[0], "time": f"{seconds:.3f}"})
            properties = ElementTree.SubElement(case, "properties")
            ElementTree.SubElement(properties, "property", {"name": "sc_rule", "value": rule_id})
            if _RULE_ID.match(rule_id):
                ElementTree.SubElement(properties, "property", {"name": "sc_rule_url", "value": rule_url(rule_id)})
            counts["tests"] += 1
            outcome = check.get("outcome")
            own = [f for f in check.get("findings") or [] if isinstance(f, Mapping)] or [f for f in findings if f.get("nodeid") == nodeid]
            if outcome in _PROBLEM_OUTCOMES:
                tag = "failure" if outcome == "failed" else "error"
                counts["failures" if tag == "failure" else "errors"] += 1
                first = own[0] if own else {}
                message = str(first.get("key") or first.get("message") or check.get("reason") or outcome)
                text = "\n\n".join(f"{f.get('message', '')}\ncounterexample: {_shown(f.get('counterexample'))}\nreplay: {f.get('replay', '')}"
                                   for f in own) or str(check.get("reason") or "")
                element = ElementTree.SubElement(case, tag, {"message": _xml(message[:500]), "type": str(first.get("kind") or outcome)})
                element.text = _xml(text)
                found = sorted({str(f.get("defect")) for f in own if f.get("defect")})
                if found:
                    properties = ElementTree.SubElement(case, "properties")
                    for defect_id in found:
                        ElementTree.SubElement(properties, "property", {"name": "strictconformance.defect", "value": defect_id})
            elif outcome in ("skipped", "not covered", "xfailed", "not run"):
                counts["skipped"] += 1
                reason = str(check.get("reason") or "")
                ElementTree.SubElement(case, "skipped", {"message": _xml(f"{outcome}: {reason}" if reason else str(outcome))})
        suite.attrib.update({key: str(value) for key, value in counts.items()})
        suite.set("time", f"{suite_time:.3f}")
        for key in totals:
            totals[key] += counts[key]
        total_time += suite_time
    root.attrib.update({key: str(value) for key, value in totals.items()})
    root.set("time", f"{total_time:.3f}")
    ElementTree.indent(root)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ElementTree.tostring(root, encoding="unicode") + "\n"

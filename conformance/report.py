"""The conformance report: per-rule outcomes, in the terminal and as versioned JSON.

The JSON document follows ``report.schema.json`` (shipped beside this module; its ``$id`` names
the version, :data:`REPORT_SCHEMA`). A new field is a minor change; removing or renaming one bumps
the version.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from importlib import resources
from typing import Any

from strictconformance._version import __version__
from strictconformance.defects import Defect, group_defects, identity_dialects
from strictconformance.spec import DOCS_URL, Rule, all_rules, rule_sort_key

__all__ = ["REPORT_SCHEMA", "CheckResult", "ConformanceReport", "ReportJournal", "journal_path", "load_report",
           "load_report_schema"]

REPORT_SCHEMA = "strictconformance-report/2"

# Rule outcome precedence: the worst check outcome decides the rule's.
# "not judged": the checks ran, but strictify gave no output to judge (it refused or crashed on every
# input), so the rule is not passed.
# "kit error": the kit's own oracle or generator raised: no finding about the adapter, and no pass.
_RULE_OUTCOMES = ("failed", "error", "kit error", "passed", "not judged", "xfailed", "skipped", "not covered", "not run")
#: A rule's outcome is its worst check's, in this order: an expected failure one check meets makes
#: the rule xfailed though its other checks pass (the adapter's ``expected_failures`` names rules,
#: and a bug rarely shows in every check of its rule).
_RULE_RANK = ("failed", "error", "kit error", "xfailed", "passed", "not judged", "skipped", "not covered", "not run")
#: The reason a check passing under its rule's expected failure carries (pytest's XPASS).
EXPECTED_BUT_PASSED = "passes, though its rule is declared an expected failure"
#: Findings listed per check at most (each distinct, with its own counterexample).
MAX_FINDINGS = 20


def tool_refusals_note(counts: Mapping[str, Any]) -> str:
    """What declared refusals of tool definitions were (``Adapter.tool_refusals``): the total and
    the three most frequent, each with its count."""
    seen = ", ".join(f"{key} x{count}" for key, count in sorted(counts["refusals"].items(), key=lambda item: (-item[1], item[0]))[:3])
    return f"the tool layer refused {counts['count']} strict tool definition(s) with a declared refusal (tool_refusals): {seen}"


def rule_tool_refusals(checks: Sequence[Mapping[str, Any]]) -> list[str]:
    """The note of a rule's passed checks' declared refusals: one line for them all, each refusal
    once with its count summed over the checks (two checks meeting one refusal said it twice)."""
    merged: dict[str, Any] = {"count": 0, "refusals": {}}
    older: set[str] = set()  # a report written before the counts were recorded: its notes as written
    for check in checks:
        if check["outcome"] != "passed":
            continue
        counts = check.get("tool_refusals")
        if counts:
            merged["count"] += counts["count"]
            for key, count in counts["refusals"].items():
                merged["refusals"][key] = merged["refusals"].get(key, 0) + count
        elif check.get("reason", "").startswith("the tool layer refused"):
            older.add(check["reason"])
    return ([tool_refusals_note(merged)] if merged["count"] else []) + sorted(older)


@dataclass
class CheckResult:
    """The outcome of one check (one test item) of one rule."""

    nodeid: str
    rule_id: str
    outcome: str = "not run"  # passed, failed, error, not judged, xfailed, skipped, not covered
    examples: int = 0
    duration: float = 0.0
    reason: str = ""
    findings: list[dict[str, Any]] = field(default_factory=list)  # Finding.as_json() of each
    replay: str = ""
    #: what strictify gave this check's calls: {"outputs": n, "refused": {type: n}, "crashed": {type: n}}
    strictify: dict[str, Any] | None = None
    #: CPU seconds the check used (its own thread and its adapter calls); None when it did not run
    cpu: float | None = None
    #: CheckBudget.as_json() when the check's budget ran out
    budget: dict[str, Any] | None = None
    #: the tool definitions the layer refused with a declared refusal: {"count": n, "refusals": {text: n}}
    tool_refusals: dict[str, Any] | None = None

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"nodeid": self.nodeid, "outcome": self.outcome, "examples": self.examples,
                                "duration_s": round(self.duration, 4)}
        if self.reason:
            data["reason"] = self.reason
        data["findings"] = list(self.findings)
        if self.replay:
            data["replay"] = self.replay
        if self.strictify is not None:
            data["strictify"] = self.strictify
        if self.cpu is not None:
            data["cpu_s"] = round(self.cpu, 4)
        if self.budget is not None:
            data["budget"] = self.budget
        if self.tool_refusals is not None:
            data["tool_refusals"] = self.tool_refusals
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any], rule_id: str) -> CheckResult:
        """The result :meth:`as_json` wrote (a journal's check record)."""
        return cls(str(data["nodeid"]), rule_id, str(data["outcome"]), examples=int(data.get("examples", 0)),
                   duration=float(data.get("duration_s", 0.0)), reason=str(data.get("reason", "")),
                   findings=list(data.get("findings", [])), replay=str(data.get("replay", "")),
                   strictify=data.get("strictify"), cpu=data.get("cpu_s"), budget=data.get("budget"),
                   tool_refusals=data.get("tool_refusals"))

    @property
    def dialect(self) -> str | None:
        """The dialect of the check's strictify calls (else of a check parametrized by one: its node
        ID ends in ``[name]``)."""
        if self.strictify and isinstance(self.strictify.get("dialect"), str):
            return str(self.strictify["dialect"])
        return self.nodeid.rpartition("[")[2].rstrip("]") if self.nodeid.endswith("]") else None


@dataclass
class ConformanceReport:
    """Results gathered over a run (on the xdist controller when distributed)."""

    adapter: Mapping[str, Any]
    profile: str
    seed: str | None = None
    checks: dict[str, CheckResult] = field(default_factory=dict)

    def record(self, result: CheckResult) -> None:
        """Merge one phase's result: a failing setup or teardown outranks the call's outcome."""
        known = self.checks.get(result.nodeid)
        if known is None or _RULE_OUTCOMES.index(result.outcome) <= _RULE_OUTCOMES.index(known.outcome) or known.outcome == "not run":
            if known is not None:
                result.examples = max(result.examples, known.examples)
                result.duration += known.duration
                result.findings = result.findings or known.findings
                result.strictify = result.strictify or known.strictify
                result.cpu = result.cpu if result.cpu is not None else known.cpu
                result.budget = result.budget or known.budget
                result.tool_refusals = result.tool_refusals or known.tool_refusals
            self.checks[result.nodeid] = result
        else:
            known.examples = max(known.examples, result.examples)
            known.duration += result.duration
            known.findings = known.findings or result.findings
            known.cpu = known.cpu if known.cpu is not None else result.cpu
            known.budget = known.budget or result.budget
            known.tool_refusals = known.tool_refusals or result.tool_refusals

    def expect(self, nodeid: str, rule_id: str, reason: str) -> None:
        """Note a check that will run: until its result is recorded it is ``not run`` for ``reason``
        (a selected check whose result never came back), not missing (a rule nobody selected)."""
        self.checks.setdefault(nodeid, CheckResult(nodeid, rule_id, "not run", reason=reason))

    def rule_outcomes(self) -> dict[str, dict[str, Any]]:
        by_rule: dict[str, list[CheckResult]] = {}
        for result in self.checks.values():
            by_rule.setdefault(result.rule_id, []).append(result)
        outcomes: dict[str, dict[str, Any]] = {}
        rules = all_rules()
        for rule_id in sorted(set(rules) | set(by_rule), key=rule_sort_key):
            results = sorted(by_rule.get(rule_id, []), key=lambda r: r.nodeid)
            outcome = min((r.outcome for r in results), key=_RULE_RANK.index, default="not run")
            rule: Rule | None = rules.get(rule_id)
            reasons = sorted({r.reason for r in results if r.reason and (r.outcome in ("not covered", "skipped", "xfailed", "not judged")
                                                                         or (r.outcome in ("failed", "error", "kit error") and not r.findings)
                                                                         or (r.outcome == "not run" and outcome == "not run"))})
            outcomes[rule_id] = {
                "title": rule.title if rule else "",
                "section": rule.section if rule else "",
                "source": rule.source if rule else "",
                "outcome": outcome,
                "examples": sum(r.examples for r in results),
                "reasons": reasons,
                "checks": [r.as_json() for r in results],
                "findings": [finding for r in results for finding in r.findings],
            }
        return outcomes

    def summary(self) -> dict[str, int]:
        counts = dict.fromkeys(_RULE_OUTCOMES, 0)
        for data in self.rule_outcomes().values():
            counts[data["outcome"]] += 1
        return counts

    def defects(self, outcomes: Mapping[str, Mapping[str, Any]] | None = None) -> list[Defect]:
        """The run's findings grouped into defects (:mod:`strictconformance.defects`), most
        witnesses first; each finding of ``outcomes`` (the rule entries) gets its defect's ``id``."""
        outcomes = self.rule_outcomes() if outcomes is None else outcomes
        findings = [finding for data in outcomes.values() for finding in data["findings"]]
        defects = group_defects(findings, identity=identity_dialects(self.strictify_summary()))
        for defect in defects:
            for finding in defect.findings:
                finding["defect"] = defect.id  # type: ignore[index]
        return defects

    def as_json(self, *, complete: bool = True, journal: str | None = None) -> dict[str, Any]:
        """The report document; ``complete`` false for one written before the run's end (or
        rebuilt from the journal of a run that never ended), ``journal`` the journal's file name."""
        rules = self.rule_outcomes()
        # the rule entries' findings are copies: each is given its defect's id
        for entry in rules.values():
            entry["findings"] = [dict(finding) for finding in entry["findings"]]
        defects = self.defects(rules)
        data: dict[str, Any] = {
            "schema": REPORT_SCHEMA,
            "kit_version": __version__,
            "adapter": dict(self.adapter),
            "profile": self.profile,
            "seed": self.seed,
            "complete": complete,
            "summary": self.summary(),
            "defects": [defect.as_json() for defect in defects],
            "strictify": self.strictify_summary(),
            "rules": rules,
        }
        if journal is not None:
            data["journal"] = journal
        return data

    def strictify_summary(self) -> dict[str, dict[str, Any]]:
        """Per dialect, what the adapter's strictify gave over all checks: outputs, declared
        refusals and crashes, by exception type."""
        by_dialect: dict[str, dict[str, Any]] = {}
        for result in self.checks.values():
            if result.strictify is None:
                continue
            total = by_dialect.setdefault(result.dialect or "", {"calls": 0, "outputs": 0, "refused": 0, "crashed": 0,
                                                                  "refused_by": {}, "crashed_by": {},
                                                                  "invalid_input": 0, "invalid_input_by": {},
                                                                  "refusals": {}})
            for key, seen in (result.strictify.get("refusals") or {}).items():
                known = total["refusals"].get(key)
                if known is None:
                    total["refusals"][key] = dict(seen)
                else:
                    known["count"] += seen["count"]
            total["outputs"] += result.strictify["outputs"]
            total["unchanged"] = total.get("unchanged", 0) + result.strictify.get("unchanged", 0)
            for kind in ("refused", "crashed", "invalid_input"):
                for name, count in result.strictify.get(kind, {}).items():
                    total[kind] += count
                    total[f"{kind}_by"][name] = total[f"{kind}_by"].get(name, 0) + count
            total["calls"] = total["outputs"] + total["refused"] + total["crashed"] + total["invalid_input"]
        for total in by_dialect.values():  # each distinct refusal, the most frequent first
            total["refusals"] = sorted(total["refusals"].values(), key=lambda seen: (-seen["count"], seen["type"], seen["message"]))
        return dict(sorted(by_dialect.items()))

    def write_json(self, path: str, *, complete: bool = True, journal: str | None = None) -> None:
        """Write the report to ``path`` atomically: a reader (a CI step, a dashboard) sees the old
        file or the whole new one, never half of it."""
        text = json.dumps(self.as_json(complete=complete, journal=journal), indent=2, sort_keys=False, ensure_ascii=False) + "\n"
        directory = os.path.dirname(os.path.abspath(path))
        handle, temporary = tempfile.mkstemp(prefix=".sc-report-", suffix=".tmp", dir=directory)
        try:
            with os.fdopen(handle, "w", encoding="utf-8") as out:
                out.write(text)
            os.replace(temporary, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def render_lines(self, *, verbose: bool = False) -> Iterable[str]:
        """The terminal summary: one line per rule that ran, then what was not covered."""
        outcomes = self.rule_outcomes()
        adapter = self.adapter
        sdk = f" ({adapter['sdk']})" if adapter.get("sdk") else ""
        yield f"adapter  {adapter.get('adapter')}{sdk}"
        yield f"profile  {self.profile}{'  seed ' + self.seed if self.seed else ''}   kit {__version__}   schema {REPORT_SCHEMA}"
        yield f"rules    {DOCS_URL}rules/<ID>/  (what each rule checks, and why)"
        if adapter.get("identity_codec"):
            yield ("codec    none declared: RT-4..RT-6 judge the identity codec (the SDK hands the provider's answer to its "
                   "user unchanged); RT-7 needs encode()")
        yield ""
        for data in outcomes.values():
            data["findings"] = [dict(finding) for finding in data["findings"]]
        defects = self.defects(outcomes)
        titles = {defect.id: defect.title for defect in defects}
        yield from _defect_lines(defects)
        shown = {rule_id: data for rule_id, data in outcomes.items() if data["outcome"] not in ("not covered", "not run")}
        if shown:
            yield f"{'rule':<7} {'outcome':<12} {'examples':>8}  title"
            for rule_id, data in shown.items():
                yield f"{rule_id:<7} {data['outcome']:<12} {data['examples']:>8}  {data['title']}"
                uncovered = [check for check in data["checks"] if check["outcome"] in ("not covered", "skipped")]
                elsewhere = [check for check in uncovered if _undeclared(check.get("reason", ""))]
                uncovered = [check for check in uncovered if check not in elsewhere]
                if data["outcome"] == "passed" and uncovered:  # passed, but not every check it applies to could run
                    why = "; ".join(sorted({check.get("reason", "") for check in uncovered} - {""}))
                    yield (f"{'':<7} {'':<12} {'':>8}  ({len(uncovered)} of {len(data['checks']) - len(elsewhere)} checks "
                           f"not covered{': ' + why if why else ''})")
                refusals = rule_tool_refusals(data["checks"])
                if refusals:  # declared refusals of tool definitions: passed, and said
                    yield f"{'':<7} {'':<12} {'':>8}  ({'; '.join(refusals)})"
                if data["outcome"] in ("xfailed", "skipped", "not judged") and data["reasons"]:
                    yield f"{'':<7} {'':<12} {'':>8}  ({'; '.join(data['reasons'])})"
                unexplained = sorted({c["reason"] for c in data["checks"]
                                      if c["outcome"] in ("failed", "error", "kit error") and not c["findings"] and c.get("reason")})
                if unexplained:  # a failure without a counterexample (an unexpected pass, a crash): say why here
                    yield f"{'':<7} {'':<12} {'':>8}  ({'; '.join(unexplained)})"
                for check in data["checks"]:  # a check that ran out of budget ended with what it had
                    if check.get("budget"):
                        yield f"{'':<7} {'':<12} {'':>8}  ({check['budget']['note']}: {check['nodeid'].rpartition('::')[2]})"
                by_defect: dict[str, int] = {}
                unshrunk: set[str] = set()
                for finding in data["findings"]:  # each defect once under its rule (the defects above have the detail)
                    by_defect[finding["defect"]] = by_defect.get(finding["defect"], 0) + 1
                    if finding.get("fully_shrunk") is False:
                        unshrunk.add(finding["defect"])
                for defect_id, count in by_defect.items():
                    cut = " (not fully shrunk: the check's budget ran out)" if defect_id in unshrunk else ""
                    yield f"{'':<7} - {defect_id} {titles[defect_id]}" + (f" ({count} findings)" if count > 1 else "") + cut
        for dialect, counts in self.strictify_summary().items():
            if counts["refused"] or counts["crashed"] or counts["invalid_input"]:
                parts = [f"refused {counts['refused']} of {counts['calls']} schemas"
                         + (f" ({_by_type(counts['refused_by'])})" if counts["refused"] else "")]
                if counts["crashed"]:
                    parts.append(f"raised an undeclared exception on {counts['crashed']} ({_by_type(counts['crashed_by'])}; "
                                 "RT-1 judges each: a crash on a valid schema fails it)")
                if counts["invalid_input"]:
                    parts.append(f"raised on {counts['invalid_input']} inputs that are not usable schemas "
                                 f"({_by_type(counts['invalid_input_by'])}; the reference refuses them too: not judged)")
                yield f"strictify {dialect or '?'}: {', '.join(parts)}"
                for seen in counts.get("refusals", []):
                    example = json.dumps(seen.get("schema"), ensure_ascii=False, sort_keys=True)
                    example = example if len(example) <= 160 else example[:157] + "..."
                    yield f"{'':<10}refused x{seen['count']}: {seen['type']}: {seen['message'][:160]}  e.g. {example}"
        not_covered: dict[str, list[str]] = {}
        undeclared: set[str] = set()
        for rule_id, data in outcomes.items():
            undeclared.update(name for check in data["checks"] if (name := _undeclared(check.get("reason", ""))))
            if data["outcome"] == "not covered":
                own = [reason for reason in data["reasons"] if not _undeclared(reason)]
                reason = "; ".join(own) if own else "its checks are for dialects or providers the adapter does not declare"
                if own and len(own) < len(data["reasons"]):  # a rule judged through several capabilities
                    reason += "; its other checks are for dialects or providers the adapter does not declare"
                not_covered.setdefault(reason, []).append(rule_id)
        for reason, rule_ids in not_covered.items():
            yield f"not covered: {_compact(rule_ids)} - {reason}"
        if undeclared:
            yield f"not run for this adapter (dialects and providers it does not declare): {', '.join(sorted(undeclared))}"
        # "not run" is two things: selected with no result back (say why, always), or not selected
        no_result: dict[str, list[str]] = {}
        for rule_id, data in outcomes.items():
            if data["outcome"] == "not run" and data["checks"]:
                no_result.setdefault("; ".join(data["reasons"]) or "no result", []).append(rule_id)
        for reason, rule_ids in no_result.items():
            yield f"not run: {_compact(rule_ids)} - {reason}"
        not_selected = [rule_id for rule_id, data in outcomes.items() if data["outcome"] == "not run" and not data["checks"]]
        if not_selected and verbose:
            yield f"not run: {_compact(not_selected)}"
        counts = self.summary()
        parts = [f"{count} {outcome}" for outcome, count in counts.items() if count and outcome != "not run"]
        unreported = sum(len(rule_ids) for rule_ids in no_result.values())
        if unreported:
            parts.append(f"{unreported} not run (selected, no result)")
        if not_selected:
            parts.append(f"{len(not_selected)} not run (not selected)")
        yield "summary: " + ", ".join(parts)


#: A check not covered because its dialect or provider is not the adapter's: no news to its
#: maintainer, said once at the end of the report instead of under every rule.
_UNDECLARED = re.compile(r"^the adapter's (strictify_dialects|providers)\b.* do not include '([^']+)'$")


def _undeclared(reason: str) -> str | None:
    """The dialect or provider a "not covered" reason says the adapter does not declare, else None."""
    match = _UNDECLARED.match(reason or "")
    return match.group(2) if match else None


def _defect_lines(defects: list[Defect]) -> Iterable[str]:
    """The defects block that leads the terminal report: one entry per cause, with its rules, its
    witness count and its smallest counterexample's finding."""
    if not defects:
        return
    rules = {rule for defect in defects for rule in defect.rules}
    witnesses = sum(defect.witnesses for defect in defects)
    yield (f"{len(defects)} defect{'s' if len(defects) != 1 else ''} across {len(rules)} rule{'s' if len(rules) != 1 else ''} "
           f"({witnesses} witness{'es' if witnesses != 1 else ''})")
    documented = [defect for defect in defects if defect.basis != "indirect"]
    indirect = [defect for defect in defects if defect.basis == "indirect"]
    for defect in documented + indirect:
        if indirect and defect is indirect[0]:
            yield (f"{len(indirect)} of them on rules the provider documents only indirectly "
                   "(the keyword is neither listed as supported nor rejected):")
        example = defect.example
        yield f"{defect.id}  {defect.title}"
        yield f"{'':<10}{defect.kind}, rules {_compact(defect.rules)}, {defect.witnesses} witness{'es' if defect.witnesses != 1 else ''}"
        where = f" at {example['where']}" if example.get("where") else ""
        yield f"{'':<10}smallest: {example.get('key', '')}{where}  [{str(example.get('nodeid', '')).rpartition('::')[2]}]"
        if example.get("replay"):
            yield f"{'':<10}replay: {example['replay']}"
    yield ""


def journal_path(report_path: str | os.PathLike[str]) -> str:
    """The journal beside a report: ``<report>.jsonl`` (``sc-report.json`` -> ``sc-report.json.jsonl``)."""
    return os.fspath(report_path) + ".jsonl"


class ReportJournal:
    """The report as the run goes: JSON Lines, one record a line, each written and flushed whole.

    A ``run`` record first (the schema, kit version, adapter, profile and seed), ``expected``
    records naming the checks that will run (nodeid -> rule), one ``check`` record per finished
    check (its rule and its entry of the report's ``checks``), and a ``summary`` record last. A run
    killed from outside (SIGKILL, an outer timeout) leaves every finished check's record and no
    summary: :func:`load_report` rebuilds the report from it, marked incomplete.
    """

    def __init__(self, path: str | os.PathLike[str]) -> None:
        self.path = os.fspath(path)
        self._out = open(self.path, "w", encoding="utf-8")  # noqa: SIM115  # open for the run, closed by close()

    def _write(self, record: Mapping[str, Any]) -> None:
        self._out.write(json.dumps(record, ensure_ascii=False, default=repr) + "\n")
        self._out.flush()  # in the kernel's hands: a killed process loses nothing written

    def run(self, report: ConformanceReport) -> None:
        self._write({"record": "run", "schema": REPORT_SCHEMA, "kit_version": __version__, "adapter": dict(report.adapter),
                     "profile": report.profile, "seed": report.seed})

    def expected(self, checks: Mapping[str, str]) -> None:
        if checks:
            self._write({"record": "expected", "checks": dict(checks)})

    def check(self, result: CheckResult) -> None:
        self._write({"record": "check", "rule_id": result.rule_id, **result.as_json()})

    def summary(self, report: ConformanceReport) -> None:
        self._write({"record": "summary", "summary": report.summary()})

    def close(self) -> None:
        with contextlib.suppress(OSError):
            self._out.close()


#: Why a report rebuilt from its journal is incomplete.
_INCOMPLETE = ("the run ended before writing its report (killed from outside, or it crashed): "
               "rebuilt from the journal, with every check that finished")


def load_report(path: str | os.PathLike[str]) -> dict[str, Any]:
    """The report at ``path``; one written at the start of a run that never wrote its final report
    (``"complete": false``) is rebuilt from its journal: every check that finished, with its
    findings, the checks that did not as "not run", and ``"complete": false`` still."""
    with open(path, encoding="utf-8") as handle:
        document: dict[str, Any] = json.load(handle)
    if document.get("complete", True) is not False or not isinstance(document.get("journal"), str):
        return document
    journal = os.path.join(os.path.dirname(os.path.abspath(path)), document["journal"])
    try:
        with open(journal, encoding="utf-8") as handle:
            lines = handle.read().split("\n")
    except OSError:
        return document
    report = ConformanceReport(adapter=document.get("adapter", {}), profile=document.get("profile", ""), seed=document.get("seed"))
    for line in lines:
        try:
            record = json.loads(line)
        except ValueError:  # the last line, cut by the kill
            continue
        kind = record.get("record") if isinstance(record, dict) else None
        if kind == "run":
            report.adapter, report.profile, report.seed = record.get("adapter", {}), record.get("profile", ""), record.get("seed")
        elif kind == "expected":
            for nodeid, rule_id in record.get("checks", {}).items():
                report.expect(nodeid, rule_id, "not finished: " + _INCOMPLETE.split(":")[0])
        elif kind == "check":
            result = CheckResult.from_json(record, str(record["rule_id"]))
            report.checks[result.nodeid] = result
    rebuilt = report.as_json(complete=False, journal=document["journal"])
    rebuilt["incomplete"] = _INCOMPLETE
    return rebuilt


def _by_type(counts: Mapping[str, int]) -> str:
    return ", ".join(f"{name} x{count}" for name, count in sorted(counts.items(), key=lambda item: -item[1]))


def _compact(rule_ids: list[str]) -> str:
    """RES-1, RES-2, RES-3 -> RES-1..RES-3: runs of rules adjacent in SPEC order."""
    order = {rule_id: index for index, rule_id in enumerate(all_rules())}
    parts: list[str] = []
    run: list[str] = []
    for rule_id in sorted(rule_ids, key=rule_sort_key):
        adjacent = run and rule_id in order and run[-1] in order and order[rule_id] == order[run[-1]] + 1
        if run and not (adjacent and rule_sort_key(run[-1])[0] == rule_sort_key(rule_id)[0]):
            parts.append(run[0] if len(run) == 1 else f"{run[0]}..{run[-1]}")
            run = []
        run.append(rule_id)
    if run:
        parts.append(run[0] if len(run) == 1 else f"{run[0]}..{run[-1]}")
    return ", ".join(parts)


def load_report_schema() -> dict[str, Any]:
    """The JSON Schema of the report document."""
    text = resources.files("strictconformance").joinpath("report.schema.json").read_text(encoding="utf-8")
    schema: dict[str, Any] = json.loads(text)
    return schema

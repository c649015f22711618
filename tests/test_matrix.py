"""The SDK matrix: combining reports (and refusing to), Markdown, the diff, one real run of
``python -m strictconformance.matrix`` with columns that crash, hang or write no report, and the
HTML page as a reader sees it in headless Chromium."""

from __future__ import annotations

import copy
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from chromium_pipe import Chromium
from strictconformance.matrix import (
    MatrixError,
    combine,
    diff_matrices,
    render_html,
    render_markdown,
)
from strictconformance.matrix.__main__ import main as matrix_main
from strictconformance.matrix.combine import (
    ColumnResult,
    changes_lines,
    check_matrix,
    column_counts,
)
from strictconformance.matrix.render import cell_id, cell_text
from strictconformance.matrix.run import column_versions, install_hint, run_column
from strictconformance.sdks import SdkPath
from strictconformance.sdks.triage import TriageEntry
from strictconformance.spec import all_rules

RULES = ("SM-03", "TL-2")


def _finding(rule: str, key: str, **extra: Any) -> dict[str, Any]:
    return {"rule": rule, "kind": "violation", "key": key, "where": "/properties/a", "message": f"{key} message",
            "counterexample": {"schema": {"type": "object"}}, "calls": [], "replay": "pytest ...",
            "reproducer": "from sdk import f\nprint(f({'type': 'object'}))", "reproducer_language": "python",
            "nodeid": f"test_x.py::test_{rule}[openai]", **extra}


def _report(findings: dict[str, list[dict[str, Any]]] | None = None, *, kit: str = "0.1.0", profile: str = "ci",
            v1: bool = False, rules: tuple[str, ...] | None = None) -> dict[str, Any]:
    """A synthetic report in which RULES ran: failed where ``findings`` has some, else passed."""
    findings = findings or {}
    data: dict[str, Any] = {}
    for rule_id in rules if rules is not None else all_rules():
        ran = rule_id in RULES
        rule_findings = findings.get(rule_id, [])
        rule: dict[str, Any] = {
            "title": f"title of {rule_id}", "section": "", "source": "",
            "outcome": ("failed" if rule_findings else "passed") if ran else "not run",
            "examples": 3, "reasons": [],
            "checks": [{"nodeid": f"test_x.py::test_{rule_id}", "outcome": "passed"}] if ran else []}
        if v1:
            rule["counterexamples"] = [{k: v for k, v in f.items() if k not in ("key", "rule", "where")}
                                       for f in rule_findings]
        else:
            rule["findings"] = rule_findings
        data[rule_id] = rule
    return {"schema": "strictconformance-report/1" if v1 else "strictconformance-report/2", "kit_version": kit,
            "adapter": {"sdk": "x 1.0"}, "profile": profile, "seed": None, "summary": {"passed": 1}, "rules": data}


def _column(key: str, report: dict[str, Any] | None, status: str = "ran", reason: str = "") -> ColumnResult:
    return ColumnResult(key=key, title=key.upper(), adapter="m:A", versions={"sdk": "1.0"}, status=status,
                        reason=reason, report=report)


# -- Combining ---------------------------------------------------------------------------------

def test_combine_rows_cells_and_distinct_findings() -> None:
    same = _finding("SM-03", "SM-03 violation: object inside prefixItems")
    other = _finding("SM-03", "SM-03 violation: empty nested object")
    document = combine([
        _column("reference", _report()),
        _column("acme/strictify", _report({"SM-03": [same, dict(same), other]})),
        _column("acme/old", _report({"SM-03": [other]}, v1=True)),
        _column("absent/path", None, "unavailable", "SDK not installed: absent"),
        _column("broken/path", None, "error", "pytest was killed by SIGSEGV"),
    ], profile="ci")
    check_matrix(document)
    assert list(document["rules"]) == ["SM-03", "TL-2"]  # only the rules a column ran, in SPEC order
    assert [c["key"] for c in document["columns"]] == ["reference", "acme/strictify", "acme/old", "absent/path",
                                                       "broken/path"]
    cell = document["cells"]["acme/strictify"]["SM-03"]
    assert cell["outcome"] == "failed"
    assert [(f["key"], f["count"]) for f in cell["findings"]] == [
        ("SM-03 violation: object inside prefixItems", 2), ("SM-03 violation: empty nested object", 1)]
    # v1 reports: counterexamples read as findings, keyed by rule, kind and check
    old = document["cells"]["acme/old"]["SM-03"]["findings"]
    assert [f["key"] for f in old] == ["SM-03 violation: test_SM-03"]
    assert old[0]["message"] == other["message"]
    # columns that did not run: every cell says why
    assert document["cells"]["absent/path"]["TL-2"] == {"outcome": "unavailable",
                                                        "reasons": ["SDK not installed: absent"], "findings": []}
    assert document["cells"]["broken/path"]["SM-03"]["outcome"] == "error"
    assert document["columns"][4]["reason"] == "pytest was killed by SIGSEGV"


def test_combine_refuses_different_kit_versions() -> None:
    with pytest.raises(MatrixError, match=r"different kit versions \(reference: 0\.1\.0, acme/x: 0\.2\.0\)"):
        combine([_column("reference", _report()), _column("acme/x", _report(kit="0.2.0"))], profile="ci")


def test_combine_refuses_different_case_sets() -> None:
    fewer = tuple(rule for rule in all_rules() if rule != "BUD-1")
    with pytest.raises(MatrixError, match=r"different case sets: reference and acme/x differ in rules \(\+none; -BUD-1\)"):
        combine([_column("reference", _report()), _column("acme/x", _report(rules=fewer))], profile="ci")
    with pytest.raises(MatrixError, match=r"case sets: .* profile \('ci' vs 'nightly'\)"):
        combine([_column("reference", _report()), _column("acme/x", _report(profile="nightly"))], profile="ci")
    cases = _report()
    cases["cases"] = {"digest": "abc"}
    with pytest.raises(MatrixError, match=r"case sets: .* cases"):
        combine([_column("reference", _report()), _column("acme/x", cases)], profile="ci")
    counts = _report()
    counts["cases"] = {"digest": "abc", "refused": 3}  # per-run counts are not the case set
    other = _report()
    other["cases"] = {"digest": "abc", "refused": 0}
    combine([_column("reference", counts), _column("acme/x", other)], profile="ci")


def test_combine_refuses_an_unknown_report_version() -> None:
    report = _report()
    report["schema"] = "strictconformance-report/9"
    with pytest.raises(MatrixError, match=r"column reference: its report is 'strictconformance-report/9'"):
        combine([_column("reference", report)], profile="ci")


def test_errored_columns_only_still_make_a_matrix() -> None:
    document = combine([_column("reference", None, "error", "wrote no report")], profile="ci", selection=["TL-2"])
    check_matrix(document)
    assert list(document["rules"]) == ["TL-2"]
    assert document["cells"]["reference"]["TL-2"]["reasons"] == ["wrote no report"]


def test_triage_join_marks_unconfirmed_findings() -> None:
    keys = ["SM-03 violation: a", "SM-03 violation: b", "SM-03 violation: c"]
    report = _report({"SM-03": [_finding("SM-03", key) for key in keys]})

    def entry(key: str, verdict: str, path: str = "acme/x") -> TriageEntry:
        return TriageEntry(sdk_path=path, version="1.0", rule="SM-03", key=key, summary="s", reproducer="r",
                           verdict=verdict, evidence="acme/x.py:12")

    document = combine([_column("acme/x", report)], profile="ci",
                       triage=[entry(keys[0], "confirmed"), entry(keys[1], "disputed"),
                               entry(keys[2], "confirmed", path="acme/other")])
    findings = document["cells"]["acme/x"]["SM-03"]["findings"]
    assert [f["confirmed"] for f in findings] == [True, False, False]
    assert findings[0]["triage"]["evidence"] == "acme/x.py:12"
    assert findings[1]["triage"]["verdict"] == "disputed"
    # c: the entry naming its key is another path's; this path's hand-written entries of the rule
    # are shown on it (matched by rule), but confirm nothing beside two other findings
    assert findings[2]["triage"]["matched_by"] == "rule" and findings[0]["triage"]["matched_by"] == "key"
    # a hand-written entry (its key a description) confirms the one finding of its column and rule
    single = combine([_column("acme/x", _report({"SM-03": [_finding("SM-03", keys[0])]}))], profile="ci",
                     triage=[entry("keeps oneOf", "confirmed")])
    assert [f["confirmed"] for f in single["cells"]["acme/x"]["SM-03"]["findings"]] == [True]
    # an entry for a column and rule that ran, matching no finding, is listed
    passed = _report({"SM-03": []})
    assert [(e["sdk_path"], e["key"]) for e in combine(
        [_column("acme/x", passed)], profile="ci",
        triage=[entry("SM-03 violation: gone", "confirmed")])["unmatched_triage"]] == [("acme/x", "SM-03 violation: gone")]
    assert document["unmatched_triage"] == []  # acme/other did not run here: nothing said about it
    markdown = render_markdown(document)
    assert "failed: 3 findings (1 disputed, 1 unconfirmed)" in markdown
    assert "**SM-03** SM-03 violation: a (confirmed;" in markdown
    assert "SM-03 violation: b (disputed;" in markdown
    assert "SM-03 violation: c (**unconfirmed**;" in markdown
    stale = combine([_column("acme/x", passed)], profile="ci", triage=[entry("SM-03 violation: gone", "confirmed")])
    assert "* `acme/x` **SM-03** SM-03 violation: gone (confirmed, 1.0)" in render_markdown(stale)
    assert "SM-03 violation: gone (confirmed, 1.0)</li>" in render_html(stale)


def test_markdown_rules_as_rows_sdk_paths_as_columns() -> None:
    document = combine([
        _column("reference", _report()),
        _column("acme/x", _report({"TL-2": [_finding("TL-2", "TL-2 crash: ValueError")]})),
        _column("absent/y", None, "unavailable", "SDK not installed: absent"),
    ], profile="ci", selection=["SM-03", "TL"])
    lines = render_markdown(document).splitlines()
    assert "kit 0.1.0, `ci` profile, 2 rules x 3 SDK paths, rules selected: SM-03, TL" in lines
    assert "| rule | title | `reference` | `acme/x` | `absent/y` |" in lines
    assert "| SM-03 | title of SM-03 | ✅ passed | ✅ passed | 🚫 unavailable |" in lines
    assert "| TL-2 | title of TL-2 | ✅ passed | ❌ failed: 1 finding (1 unconfirmed) | 🚫 unavailable |" in lines
    assert "| `absent/y` | sdk 1.0 | **unavailable**: SDK not installed: absent | 0 s |" in lines


def test_diff_new_fixed_versions_and_outcomes() -> None:
    old = combine([_column("reference", _report()),
                   _column("acme/x", _report({"SM-03": [_finding("SM-03", "SM-03 violation: a")]})),
                   _column("gone/z", _report())], profile="ci")
    new_column = _column("acme/x", _report({"TL-2": [_finding("TL-2", "TL-2 crash: ValueError")]}))
    new_column.versions = {"sdk": "1.1"}
    new = combine([_column("reference", _report()), new_column, _column("added/w", _report())], profile="ci")
    changes = diff_matrices(old, new)
    assert [(c["column"], c["rule"], c["key"]) for c in changes["new_findings"]] == [("acme/x", "TL-2", "TL-2 crash: ValueError")]
    assert [(c["column"], c["rule"], c["key"]) for c in changes["fixed_findings"]] == [("acme/x", "SM-03", "SM-03 violation: a")]
    assert changes["versions"] == [{"column": "acme/x", "distribution": "sdk", "old": "1.0", "new": "1.1"}]
    assert {(c["rule"], c["old"], c["new"]) for c in changes["outcomes"]} == {("SM-03", "failed", "passed"),
                                                                               ("TL-2", "passed", "failed")}
    assert (changes["columns_added"], changes["columns_removed"]) == (["added/w"], ["gone/z"])
    text = "\n".join(changes_lines(changes))
    assert "NEW finding: acme/x TL-2: TL-2 crash: ValueError" in text
    assert "fixed: acme/x SM-03: SM-03 violation: a" in text
    assert "new version: acme/x: sdk 1.0 -> 1.1" in text
    new["changes"] = changes
    check_matrix(new)
    assert "* NEW finding: acme/x TL-2: TL-2 crash: ValueError" in render_markdown(new)
    page = render_html(new)
    assert page.count('<span class="new-badge">') == 1
    assert re.search(r'<h4>TL-2 crash: ValueError &mdash; <span class="v v-unconfirmed" [^>]*>unconfirmed</span> '
                     r'\(no triage entry\) <span class="new-badge">', page)


def test_diff_says_nothing_about_findings_of_a_column_that_errored() -> None:
    old = combine([_column("acme/x", _report({"SM-03": [_finding("SM-03", "SM-03 violation: a")]}))], profile="ci")
    new = combine([_column("acme/x", None, "error", "timed out")], profile="ci")
    changes = diff_matrices(old, new)
    assert changes["fixed_findings"] == []  # an error is not a fix
    assert ("SM-03", "failed", "error") in {(c["rule"], c["old"], c["new"]) for c in changes["outcomes"]}


def test_check_matrix_names_the_problem() -> None:
    with pytest.raises(MatrixError, match=r"not a strictconformance-matrix/1 document \(schema: 'strictconformance-report/2'\)"):
        check_matrix(_report())
    document = combine([_column("reference", _report())], profile="ci")
    broken = copy.deepcopy(document)
    broken["columns"][0]["status"] = "fine"
    with pytest.raises(MatrixError, match=r"at /columns/0/status: 'fine' is not one of"):
        check_matrix(broken)


# -- One real run ------------------------------------------------------------------------------

_CRASHES = "import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n"
_HANGS = "import time\ntime.sleep(600)\n"


@pytest.mark.slow
def test_real_run_reference_and_columns_that_fail_to_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    """The command as a user runs it, on the reference with one rule, beside a column whose process
    is killed and one whose adapter does not load: both are error columns naming why, the matrix is
    still written (exit status 3), and --against prints what changed."""
    (tmp_path / "crashes.py").write_text(_CRASHES)
    monkeypatch.chdir(tmp_path)
    old = combine([_column("reference", _report({"SM-03": [_finding("SM-03", "SM-03 violation: old bug")]}))],
                  profile="ci")
    old["kit_version"] = "0.0.9"
    (tmp_path / "old.json").write_text(json.dumps(old))
    # --paths reference: no SDK path column (the default is every registered one, 24 of them, minutes of runs)
    code = matrix_main(["--paths", "reference", "--rules", "SM-03", "--profile", "ci", "--out", "out", "--against", "old.json",
                        "--adapter", "crash=crashes:Adapter", "--adapter", "missing=crashes_not_here:Adapter", "--bench"])
    captured = capsys.readouterr()
    assert code == 3, captured.err
    assert "[1/3] reference: done in" in captured.err
    document = json.loads((tmp_path / "out" / "matrix.json").read_text())
    check_matrix(document)
    columns = {c["key"]: c for c in document["columns"]}
    assert columns["reference"]["status"] == "ran"
    assert document["cells"]["reference"]["SM-03"]["outcome"] == "passed"
    assert columns["reference"]["versions"]["strictconformance"] == document["kit_version"]
    assert columns["crash"]["status"] == "error"
    assert "killed by SIGKILL" in columns["crash"]["reason"]
    assert columns["missing"]["status"] == "error"
    assert "exited with code 4 (usage error)" in columns["missing"]["reason"]
    assert "crashes_not_here" in columns["missing"]["reason"]
    assert (tmp_path / "out" / columns["reference"]["report_file"]).is_file()
    assert "fixed: reference SM-03: SM-03 violation: old bug" in captured.out
    assert "kit version: 0.0.9 -> " in captured.out
    bench = captured.out[captured.out.index("matrix benchmark: ci profile, 1 rules"):]
    assert re.search(r"\nreference +\d+\.\d +\d+\.\d  within target\n", bench), bench
    assert re.search(r"\ncrash +\d+\.\d +\d+\.\d  error: pytest was killed by SIGKILL", bench), bench
    markdown = (tmp_path / "out" / "matrix.md").read_text()
    assert "| `crash` | - | **error**: pytest was killed by SIGKILL" in markdown
    assert "* fixed: reference SM-03: SM-03 violation: old bug" in markdown
    assert "fixed: reference SM-03" in (tmp_path / "out" / "matrix.html").read_text()


def test_a_hanging_column_is_stopped_and_named(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "hangs.py").write_text(_HANGS)
    monkeypatch.setattr("strictconformance.matrix.run.HEARTBEAT_S", 1.0)
    messages: list[str] = []
    result = run_column(SdkPath(key="hang", title="hang", distributions=(), adapter="hangs:Adapter"), tmp_path / "out",
                        profile="ci", rules=["SM-03"], timeout=4, extra_pythonpath=[str(tmp_path)],
                        progress=messages.append)
    assert result.status == "error"
    assert result.reason.startswith("timed out after 4 s (killed)")
    assert result.report is None
    assert any("ERROR after" in message for message in messages)
    assert any(message.startswith("hang: still running (") for message in messages), messages


def test_a_node_column_names_its_npm_package_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The committed matrix gave the three Node columns no versions ('-'): a column names the
    packages it ran, read from node_modules as the harness reads them; an absent one is None."""
    import strictconformance.matrix.run as run

    package = tmp_path / "node_modules" / "@acme" / "sdk"
    package.mkdir(parents=True)
    (package / "package.json").write_text(json.dumps({"name": "@acme/sdk", "version": "4.0.0-beta.7"}))
    monkeypatch.setattr(run, "node_harness_dir", lambda: tmp_path)
    path = SdkPath(key="acme/node", title="acme", distributions=("@acme/sdk", "@acme/absent"), adapter=None,
                   command="node harnesses/acme.mjs", language="node")
    assert column_versions(path) == {"@acme/sdk": "4.0.0-beta.7", "@acme/absent": None}
    assert run_column(path, tmp_path / "out", profile="ci").versions == {"@acme/sdk": "4.0.0-beta.7", "@acme/absent": None}


def test_unavailable_sdk_and_bad_options(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    absent = SdkPath(key="absent/path", title="absent", distributions=("no-such-distribution-sc",), adapter="x:Y")
    result = run_column(absent, tmp_path, profile="ci")
    assert (result.status, result.reason) == (
        "unavailable", 'SDK not installed: no-such-distribution-sc (pip install no-such-distribution-sc, '
        'or pip install ".[sdks]" in a checkout of strictconformance)')
    # a shipped SDK: the version the `sdks` extra pins (the kit is on no index: "strictconformance[sdks]" finds nothing)
    assert install_hint(["openai", "pydantic-ai-slim"]).startswith(
        'pip install openai==3.57.0 "pydantic-ai-slim[anthropic,google,openai]==2.68.0", or')
    assert result.versions == {"no-such-distribution-sc": None}
    assert matrix_main(["--rules", "NOPE-1", "--out", str(tmp_path)]) == 2
    assert "--rules 'NOPE-1' matches no rule" in capsys.readouterr().err
    assert matrix_main(["--paths", "nosuchsdk", "--out", str(tmp_path)]) == 2
    assert "--paths 'nosuchsdk' matches no SDK path" in capsys.readouterr().err
    (tmp_path / "file").write_text("")
    assert matrix_main(["--out", str(tmp_path / "file" / "out")]) == 2
    assert "error: --out " in capsys.readouterr().err
    (tmp_path / "old.json").write_text(json.dumps(_report()))
    assert matrix_main(["--against", str(tmp_path / "old.json"), "--out", str(tmp_path)]) == 2
    assert "is not a strictconformance-matrix/1 document" in capsys.readouterr().err


# -- The page, in headless Chromium --------------------------------------------------------------

def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it "
                "where apt-get is available): the HTML page of the matrix is not checked in a browser")


def _browse(page: Path, fragment: str, tmp_path: Path, *extra: str) -> str:
    profile = tmp_path / f"chromium-profile-{len(list(tmp_path.iterdir()))}"
    command = [_chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
               "--disable-background-networking", "--disable-component-update", "--disable-sync",
               f"--user-data-dir={profile}", "--window-size=1200,1000", *extra, f"{page.as_uri()}#{fragment}"]
    done = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout


def _page_document() -> dict[str, Any]:
    reproducer = "from acme import strictify\nprint(strictify({'prefixItems': [{'type': 'object'}]}))"
    return combine([
        _column("reference", _report()),
        _column("acme/strictify", _report({"SM-03": [_finding("SM-03", "SM-03 violation: object inside prefixItems",
                                                              reproducer=reproducer)]})),
        _column("absent/path", None, "unavailable", "SDK not installed: absent"),
    ], profile="ci")


def test_html_page_in_headless_chromium(tmp_path: Path) -> None:
    page = tmp_path / "matrix.html"
    page.write_text(render_html(_page_document()))
    opened = cell_id("acme/strictify", "SM-03")
    dom = _browse(page, f"open={opened}", tmp_path, "--dump-dom")
    # the matrix: a row per rule, a column per SDK path, each cell its outcome and findings
    assert '<tr data-area="SM" id="row-SM-03">' in dom
    assert f'data-cell="{opened}" data-verdicts="unconfirmed" title="failed: 1 finding (1 unconfirmed)"><a ' in dom
    assert ('data-cell="cell-absent_path--TL-2" data-verdicts="none" title="unavailable">'
            '<span title="SDK not installed: absent">unavailable</span></td>') in dom
    # the finding opened by the script: its section is open, with the reproducer, the counterexample and the mark
    start = dom.index(f'<section class="cell-findings open" id="{opened}"')
    section = dom[start:dom.index("</section>", start)]
    assert "from acme import strictify\nprint(strictify({'prefixItems': [{'type': 'object'}]}))" in section.replace("&#x27;", "'")
    assert 'class="counterexample"' in section
    assert re.search(r'<span class="v v-unconfirmed" [^>]*>unconfirmed</span> \(no triage entry\)', section)
    assert f'<td class="cell o-failed selected" data-col="acme/strictify" data-cell="{opened}" ' in dom
    assert 'id="panel-title">SM-03 on acme/strictify: failed: 1 finding (1 unconfirmed)<' in dom
    # filters: area TL only, one SDK column
    dom = _browse(page, "area=TL&sdk=reference", tmp_path, "--dump-dom")
    assert '<tr data-area="SM" id="row-SM-03" class="hidden">' in dom
    assert '<tr data-area="TL" id="row-TL-2">' in dom
    assert '<th class="col hidden" data-col="acme/strictify" data-sdk="acme" data-lang="python"' in dom
    assert '<th class="col" data-col="reference" data-sdk="reference" data-lang="python"' in dom
    # and a screenshot a person can look at
    shot = tmp_path / "matrix.png"
    _browse(page, f"open={opened}", tmp_path, f"--screenshot={shot}")
    assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000
    if os.environ.get("SC_MATRIX_SCREENSHOT"):  # keep it for a person to look at
        shutil.copy(shot, os.environ["SC_MATRIX_SCREENSHOT"])


#: The synthetic wide matrix: 50 SDK paths (40 Python, 10 TypeScript) of 13 SDKs, every rule a row.
_WIDE = [(f"sdk-{index % 13:02d}/path-{index:02d}", "node" if index >= 40 else "python") for index in range(50)]
#: The cell a shared link opens: far right and far down, where neither it nor its panel is in view.
_FAR = (_WIDE[47][0], "TL-2")


def _wide_document() -> dict[str, Any]:
    """50 columns; SM-03 fails in every column and TL-2 in every fourth, with findings of each verdict."""
    keys = ["SM-03 violation: a", "SM-03 violation: b", "SM-03 violation: c"]
    columns, triage = [], []
    for index, (key, language) in enumerate(_WIDE):
        findings = {"SM-03": [_finding("SM-03", k) for k in keys[:1 + index % 3]]}
        if index % 4 == 3:
            findings["TL-2"] = [_finding("TL-2", "TL-2 crash: ValueError")]
        report = _report(findings)
        for rule_id, rule in report["rules"].items():  # every rule ran: a row each, 88 rows
            if rule["outcome"] == "not run":
                rule.update(outcome="passed", checks=[{"nodeid": f"test_x.py::test_{rule_id}", "outcome": "passed"}])
        column = _column(key, report)
        column.language = language
        columns.append(column)
        triage += [TriageEntry(sdk_path=key, version="1.0", rule="SM-03", key=k, summary="s", reproducer="r",
                               verdict=verdict, evidence="e.py:1")
                   for k, verdict in zip(keys[:1 + index % 3], ("confirmed", "disputed"), strict=False)]
    return combine(columns, profile="ci", triage=triage)


def test_the_legend_tells_unconfirmed_from_disputed() -> None:
    """A finding with a disputed entry is disputed, one without an entry of its own unconfirmed:
    per cell, per column and per finding the page and the Markdown count them apart."""
    document = _wide_document()
    cell = document["cells"][_WIDE[2][0]]["SM-03"]  # three findings: confirmed, disputed, no entry
    assert cell_text(cell) == "failed: 3 findings (1 disputed, 1 unconfirmed)"
    counts = column_counts(document, _WIDE[2][0])
    assert (counts["confirmed"], counts["disputed"], counts["kit_bug_fixed"], counts["unconfirmed"]) == (1, 1, 0, 1)
    assert column_counts(document, _WIDE[1][0])["disputed"] == 1 and column_counts(document, _WIDE[1][0])["unconfirmed"] == 0
    page = render_html(document)
    ident = cell_id(_WIDE[2][0], "SM-03")
    start = page.index(f'data-cell="{ident}"')
    td = page[start:page.index("</td>", start)]
    assert 'data-verdicts="confirmed disputed unconfirmed"' in td
    assert all(f'class="v v-{v}"' in td for v in ("confirmed", "disputed", "unconfirmed"))
    section = page[page.index(f'id="{ident}"'):]
    section = section[:section.index("</section>")]
    assert [m for m in re.findall(r'<div class="finding" data-verdict="([a-z-]+)">', section)] == ["confirmed", "disputed", "unconfirmed"]
    assert "kit false alarm" in page[:page.index('id="matrix-box"')]  # the legend names every verdict
    assert "SM-03 violation: b (disputed;" in render_markdown(document)


def _browser(tmp_path: Path) -> Chromium:
    return Chromium(_chromium(), tmp_path / f"chromium-profile-{len(list(tmp_path.iterdir()))}", width=1280, height=900)


def test_a_50_column_page_keeps_its_headers_and_opens_a_shared_link(tmp_path: Path) -> None:
    page = tmp_path / "matrix.html"
    page.write_text(render_html(_wide_document()), encoding="utf-8")
    rect = "(function(e){var r=e.getBoundingClientRect();return {top:r.top,bottom:r.bottom,left:r.left,right:r.right};})"
    with _browser(tmp_path) as browser:
        browser.open(page.as_uri())
        # scrolled right and down as far as the box goes: the header row and the rule column stay in view
        box = browser.js("(function(){var b=document.getElementById('matrix-box');b.scrollLeft=b.scrollWidth;"
                         "b.scrollTop=b.scrollHeight;return {left:b.scrollLeft,top:b.scrollTop};})()")
        assert box["left"] > 3000 and box["top"] > 2000, box  # 50 columns and 88 rows: far out of the first view
        frame = browser.js(f"{rect}(document.getElementById('matrix-box'))")
        last_header = browser.js(f"{rect}(document.querySelector('#matrix thead th.col:last-child'))")
        corner = browser.js(f"{rect}(document.querySelector('#matrix thead th.rule'))")
        last_rule = browser.js(f"{rect}(document.querySelector('#matrix tbody tr:last-child th.rule'))")
        assert abs(last_header["top"] - frame["top"]) <= 2 and abs(corner["top"] - frame["top"]) <= 2, (last_header, frame)
        assert abs(corner["left"] - frame["left"]) <= 2 and abs(last_rule["left"] - frame["left"]) <= 2, (last_rule, frame)
        assert last_rule["bottom"] <= frame["bottom"] + 1 and last_header["right"] <= frame["right"] + 1
        browser.screenshot(tmp_path / "scrolled.png")

        # a shared link to a cell far right and far down: its panel opens and is scrolled to, and the
        # cell itself is scrolled into the box, clear of the sticky header and rule column
        opened = cell_id(*_FAR)
        browser.open(f"{page.as_uri()}#open={opened}")
        assert browser.js(f"document.getElementById('{opened}').classList.contains('open')")
        assert browser.js("window.scrollY") > 200
        section = browser.js(f"{rect}(document.getElementById('{opened}'))")
        height = browser.js("window.innerHeight")
        assert 0 <= section["top"] < height / 2, (section, height)
        assert browser.js("document.getElementById('panel-title').textContent") == f"TL-2 on {_FAR[0]}: failed: 1 finding (1 unconfirmed)"
        cell = browser.js(f"{rect}(document.querySelector('td[data-cell=\"{opened}\"].selected'))")
        frame = browser.js(f"{rect}(document.getElementById('matrix-box'))")
        header = browser.js(f"{rect}(document.querySelector('#matrix thead th.rule'))")
        assert header["right"] - 1 <= cell["left"] and cell["right"] <= frame["right"] + 1, (cell, header, frame)
        assert header["bottom"] - 1 <= cell["top"] and cell["bottom"] <= frame["bottom"] + 1, (cell, header, frame)
        shot = tmp_path / "deep-link.png"
        browser.screenshot(shot)
        assert shot.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and shot.stat().st_size > 10_000

        # filters: two SDKs' TypeScript columns, rows with an unconfirmed finding in them (path-41's
        # SM-03 has a finding without an entry, path-43's TL-2 crash has none)
        browser.open(f"{page.as_uri()}#sdk=sdk-02&sdk=sdk-04&lang=node&verdict=unconfirmed")
        columns = browser.js("Array.from(document.querySelectorAll('#matrix thead th.col:not(.hidden)')).map(function(t){return t.dataset.col;})")
        assert columns == ["sdk-02/path-41", "sdk-04/path-43"]
        rows = browser.js("Array.from(document.querySelectorAll('#matrix tbody tr:not(.hidden)')).map(function(t){return t.id;})")
        assert rows == ["row-SM-03", "row-TL-2"], rows
        assert browser.js("document.querySelectorAll('#columns tbody tr:not(.hidden)').length") == len(columns)
        # a filter changed by hand is written to the address, so the view can be shared
        browser.js("(function(){var i=document.querySelector('input[name=area][value=SM]');i.click();})()")
        assert browser.js("location.hash").count("area=") >= 1
        assert browser.js("Array.from(document.querySelectorAll('#matrix tbody tr:not(.hidden)')).map(function(t){return t.id;})") == ["row-TL-2"]
    if os.environ.get("SC_MATRIX_SCREENSHOT"):  # keep them for a person to look at
        for name in ("scrolled.png", "deep-link.png"):
            shutil.copy(tmp_path / name, Path(os.environ["SC_MATRIX_SCREENSHOT"]) / name)


def test_html_page_is_self_contained() -> None:
    page = render_html(_page_document())
    for external in ("src=", "<link", "@import", "url(", 'href="http', "fetch(", "XMLHttpRequest"):
        assert external not in page, external
    assert page.count("<script>") == 1


def test_matrix_is_a_python_module_entry_point() -> None:
    done = subprocess.run([sys.executable, "-m", "strictconformance.matrix", "--help"], capture_output=True, text=True,
                          timeout=120, check=True)
    assert "--against OLD.json" in done.stdout and "--bench" in done.stdout


def test_column_command_lines(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from strictconformance.matrix import run as matrix_run
    from strictconformance.matrix.run import pytest_command, unavailable_reason

    python_path = SdkPath(key="acme/x", title="x", distributions=("pytest",), adapter="acme.adapter:X")
    words = pytest_command(python_path, tmp_path / "r.json", profile="ci", rules=["SM", "TL-2"], workers="2",
                           python="py")
    assert words[:7] == ["py", "-m", "pytest", "-p", "strictconformance", "--sc-adapter", "acme.adapter:X"]
    assert words[words.index("--sc-report") + 1] == str(tmp_path / "r.json")
    assert words[words.index("--sc-profile") + 1] == "ci"
    assert " ".join(words).endswith("--sc-rule SM --sc-rule TL-2 -n 2")
    node_path = SdkPath(key="vercel/ai", title="ai", distributions=("ai",), command="node harness.mjs", language="node")
    words = pytest_command(node_path, tmp_path / "r.json", profile="ci", rules=[], workers=None, python="py")
    assert words[5:7] == ["--sc-adapter-cmd", "node harness.mjs"] and "-n" not in words
    assert unavailable_reason(python_path) is None
    # whether node and the harness packages are installed depends on the machine: make each missing in turn
    monkeypatch.setattr(matrix_run, "node_harness_dir", lambda: tmp_path / "harness")
    assert unavailable_reason(node_path) == f"the node harness folder {tmp_path / 'harness'} is missing"
    (tmp_path / "harness" / "node_modules").mkdir(parents=True)
    assert unavailable_reason(node_path) == f"not installed: ai (npm install in {tmp_path / 'harness'})"
    (tmp_path / "harness" / "node_modules" / "ai").mkdir()
    monkeypatch.setattr(matrix_run.shutil, "which", lambda name: None)
    assert unavailable_reason(node_path) == "node is not installed"
    monkeypatch.setattr(matrix_run.shutil, "which", lambda name: "/usr/bin/" + name)
    assert unavailable_reason(node_path) is None


def test_the_committed_summary_is_valid_and_has_every_registered_sdk_path() -> None:
    """matrix/summary.json (the repository keeps the matrix's summary; the matrix workflow publishes the
    whole matrix) is a valid matrix, has a column per registered SDK path, every one of its findings is
    triaged and no triage entry is left over from an older build."""
    from strictconformance.sdks import SDK_PATHS

    committed = Path(__file__).resolve().parent.parent / "matrix" / "summary.json"
    document = json.loads(committed.read_text(encoding="utf-8"))
    check_matrix(document, "matrix/summary.json")
    assert [column["key"] for column in document["columns"]] == ["reference", *(path.key for path in SDK_PATHS)], (
        "matrix/summary.json does not have a column per registered SDK path (strictconformance.sdks.SDK_PATHS); "
        "rebuild the matrix from the repository root with the SDK extra installed and keep its summary: "
        "pip install -e '.[sdks]' && python -m strictconformance.matrix --out matrix-build && "
        "cp matrix-build/summary.json matrix/summary.json")
    assert document["profile"] == "ci" and document["selection"] == []
    assert [c["key"] for c in document["columns"] if c["status"] != "ran"] == []  # every column ran
    from strictconformance.matrix.combine import annotate_triage, column_counts, summarize
    from strictconformance.sdks.triage import load_triage

    assert summarize(document) == document, "matrix/summary.json is not a summary (python -m strictconformance.matrix writes one)"
    joined = annotate_triage(document, load_triage())
    # every finding triaged, and no confirmed or disputed entry left over from an older build: an
    # entry matching nothing is a fixed bug or a changed key, to be re-triaged, never kept
    untriaged = {column["key"]: count for column in joined["columns"]
                 if (count := column_counts(joined, column["key"])["unconfirmed"])}
    assert untriaged == {}, (f"findings of the committed summary no triage entry covers (by key or pattern, or by "
                             f"its rule when the finding is its rule's only one), per column: {untriaged}")
    stale = [(entry["sdk_path"], entry["key"]) for entry in joined["unmatched_triage"]]
    assert stale == [], f"{len(stale)} triage entries match no finding of the committed summary: {stale[:10]}"


def test_a_summary_keeps_what_the_docs_and_against_read(tmp_path: Path) -> None:
    """summary.json beside every build: each finding by key and kind, nothing heavy; --against takes it."""
    from strictconformance.matrix.combine import summarize

    key = "SM-03 violation: a"
    document = combine([_column("acme/strictify", _report({"SM-03": [_finding("SM-03", key)]}))], profile="ci")
    summary = summarize(document)
    check_matrix(summary, "the summary")
    [finding] = summary["cells"]["acme/strictify"]["SM-03"]["findings"]
    assert finding == {"key": key, "kind": "violation", "message": "", "count": 1, "triage": None, "confirmed": False}
    assert summarize(summary) == summary
    out = tmp_path / "out"
    out.mkdir()
    (out / "matrix.json").write_text(json.dumps(document), encoding="utf-8")
    assert matrix_main(["--out", str(out), "--retriage", "--triage", str(tmp_path)]) == 0
    written = json.loads((out / "summary.json").read_text(encoding="utf-8"))
    assert written == summarize(json.loads((out / "matrix.json").read_text(encoding="utf-8")))
    old = summarize(combine([_column("acme/strictify", _report({}))], profile="ci"))
    assert [f["key"] for f in diff_matrices(old, document)["new_findings"]] == [key]


def test_a_triage_entry_naming_a_defect_matches_the_summary_too() -> None:
    """The committed summary is what the triage is checked against: it keeps each finding's defect
    id, so an entry keyed by the defect (valid whatever the draws) matches there as in the matrix."""
    from strictconformance.matrix.combine import annotate_triage, summarize

    path = "langchain-core/convert_to_openai_tool"
    report = _report({"SM-03": [_finding("SM-03", "SM-03 violation: a"), _finding("SM-03", "SM-03 violation: b")]})
    for finding in report["rules"]["SM-03"]["findings"]:
        finding["defect"] = "D-0123abcd"
    entry = TriageEntry(sdk_path=path, version="1.0", rule="SM-03", key="D-0123abcd", summary="s",
                        reproducer="print('BUG: x')", verdict="confirmed", evidence="x.py:1")
    summary = summarize(combine([_column(path, report)], profile="ci"))
    check_matrix(summary, "the summary")
    joined = annotate_triage(summary, [entry])
    check_matrix(joined, "the joined summary")  # 'defect' is a matched_by the matrix schema knows
    assert [f["triage"]["matched_by"] for f in joined["cells"][path]["SM-03"]["findings"]] == ["defect", "defect"]
    assert joined["unmatched_triage"] == [] and column_counts(joined, path)["confirmed"] == 2


def test_a_report_that_is_not_one_is_an_error_column(tmp_path: Path) -> None:
    from strictconformance.matrix.run import report_problem
    from strictconformance.report import REPORT_SCHEMA

    assert report_problem([]) == "the report has no rules (not a strictconformance report)"
    assert report_problem({"schema": REPORT_SCHEMA, "rules": []}) is not None
    broken = {"schema": REPORT_SCHEMA, "rules": {}, "kit_version": 3}
    assert (report_problem(broken) or "").startswith(f"the report does not follow {REPORT_SCHEMA}: at ")


def test_retriage_joins_edited_triage_without_running_the_suite(tmp_path: Path,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    key = "SM-03 violation: a"
    path = "langchain-core/convert_to_openai_tool"  # a triage file must name a shipped SDK path
    out = tmp_path / "out"
    document = combine([_column(path, _report({"SM-03": [_finding("SM-03", key)]}))], profile="ci")
    out.mkdir()
    (out / "matrix.json").write_text(json.dumps(document), encoding="utf-8")
    triage = tmp_path / "triage"
    triage.mkdir()
    (triage / "langchain-core.json").write_text(json.dumps([{
        "sdk_path": path, "version": "1.0", "rule": "SM-03", "key": key, "summary": "keeps an object open",
        "reproducer": "print('BUG: open')", "verdict": "confirmed", "evidence": "acme/x.py:12"}]), encoding="utf-8")
    assert document["cells"][path]["SM-03"]["findings"][0]["confirmed"] is False

    assert matrix_main(["--out", str(out), "--retriage", "--triage", str(triage)]) == 0
    rejoined = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    assert rejoined["cells"][path]["SM-03"]["findings"][0]["confirmed"] is True
    assert rejoined["columns"] == document["columns"]  # nothing ran: the columns are as they were
    assert "**SM-03** SM-03 violation: a (confirmed;" in (out / "matrix.md").read_text(encoding="utf-8")
    assert "1 findings (1 confirmed, 0 disputed, 0 kit-bug-fixed, 0 unconfirmed)" in capsys.readouterr().err

    (out / "matrix.json").write_text("{not json", encoding="utf-8")
    assert matrix_main(["--out", str(out), "--retriage", "--triage", str(triage)]) == 2
    assert "is not a readable matrix" in capsys.readouterr().err


def test_triage_patterns_and_rt1_restating_an_sm_finding() -> None:
    path = "langchain-core/convert_to_openai_tool"
    keys = {"SM-07": ["SM-07 violation: `$anchor` of a string inside $defs", "SM-07 violation: `$anchor` of a null at the root"],
            "SM-02": ["SM-02 violation: untyped node inside items"],
            "RT-1": ["RT-1 violation: SM-07 at `$anchor` of a null at the root",
                     "RT-1 violation: SM-02 at untyped node inside items",
                     "RT-1 violation: SM-03 at object inside items",
                     "RT-1 crash: RecursionError from strictify()"],
            # the strict schema RT-4 would judge values against breaks SM-02: the same defect
            "RT-4": ["RT-4 violation: SM-02 at untyped node inside items"],
            # no SM-41 entry: RT-1's entry for the same break speaks for RT-5's
            "RT-5": ["RT-5 violation: SM-41 at `$ref` of a $ref node inside properties"]}
    report = _report({rule: [_finding(rule, key) for key in rule_keys] for rule, rule_keys in keys.items()}, rules=None)
    for rule in ("SM-07", "SM-02", "RT-1", "RT-4", "RT-5"):
        report["rules"][rule].update(outcome="failed", checks=[{"nodeid": f"t::{rule}", "outcome": "failed"}])

    def entry(rule: str, key: str, verdict: str = "confirmed") -> TriageEntry:
        return TriageEntry(sdk_path=path, version="1.0", rule=rule, key=key, summary=f"{rule} {key}",
                           reproducer="print('BUG: x')", verdict=verdict, evidence="x.py:1")

    document = combine([_column(path, report)], profile="ci", triage=[
        entry("SM-07", "SM-07 violation: `$anchor` of *"),
        entry("SM-07", "SM-07 violation: `$anchor` of a null *", "disputed"),  # more specific: wins at the root
        entry("SM-02", "SM-02 violation: untyped node inside items"),
        entry("RT-1", "RT-1 violation: SM-41 at `$ref` of *")])
    cells = document["cells"][path]
    sm07 = {f["key"]: f for f in cells["SM-07"]["findings"]}
    assert sm07[keys["SM-07"][0]]["confirmed"] and sm07[keys["SM-07"][0]]["triage"]["matched_by"] == "pattern"
    assert not sm07[keys["SM-07"][1]]["confirmed"] and sm07[keys["SM-07"][1]]["triage"]["verdict"] == "disputed"
    rt1 = {f["key"]: f for f in cells["RT-1"]["findings"]}
    # an RT-1 finding restating an SM finding takes that finding's entry, verdict and all
    assert rt1[keys["RT-1"][0]]["triage"]["matched_by"] == "via SM-07" and not rt1[keys["RT-1"][0]]["confirmed"]
    assert rt1[keys["RT-1"][1]]["triage"]["matched_by"] == "via SM-02" and rt1[keys["RT-1"][1]]["confirmed"]
    # no SM-03 entry, and a crash restates nothing: both stay unconfirmed
    assert rt1[keys["RT-1"][2]]["triage"] is None and rt1[keys["RT-1"][3]]["triage"] is None
    [rt4] = cells["RT-4"]["findings"]
    assert rt4["triage"]["matched_by"] == "via SM-02" and rt4["confirmed"]
    [rt5] = cells["RT-5"]["findings"]
    assert rt5["triage"]["matched_by"] == "via RT-1" and rt5["confirmed"]
    assert document["unmatched_triage"] == []
    check_matrix(document)
    # a pattern that fits nothing is listed as matching nothing
    stale = combine([_column(path, report)], profile="ci", triage=[entry("SM-07", "SM-07 violation: `$ref` *")])
    assert [e["key"] for e in stale["unmatched_triage"]] == ["SM-07 violation: `$ref` *"]


def test_keep_reruns_only_the_chosen_columns(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "out"
    (out / "reports").mkdir(parents=True)
    lc, an = "langchain-core/convert_to_openai_tool", "anthropic/transform_schema"
    old_columns = []
    for key, findings in (("reference", {}), (lc, {"SM-03": [_finding("SM-03", "SM-03 violation: old")]}),
                          (an, {"TL-2": [_finding("TL-2", "TL-2 crash: kept")]})):
        column = _column(key, _report(findings))
        column.report_file = f"reports/{key.replace('/', '__')}.json"
        column.duration_s = 99.0
        (out / column.report_file).write_text(json.dumps(column.report), encoding="utf-8")
        old_columns.append(column)
    (out / "matrix.json").write_text(json.dumps(combine(old_columns, profile="ci")), encoding="utf-8")
    ran: list[str] = []

    def fake_run(path: SdkPath, out_dir: Path, **_: Any) -> ColumnResult:
        ran.append(path.key)
        return _column(path.key, _report({"SM-03": [_finding("SM-03", "SM-03 violation: new")]} if path.key == lc else {}))

    monkeypatch.setattr("strictconformance.matrix.__main__.run_column", fake_run)
    assert matrix_main(["--paths", lc, "--keep", "--out", str(out)]) == 0
    assert ran == ["reference", lc]
    document = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    assert [c["key"] for c in document["columns"]] == ["reference", an, lc]  # registry order
    assert [f["key"] for f in document["cells"][lc]["SM-03"]["findings"]] == ["SM-03 violation: new"]
    assert [f["key"] for f in document["cells"][an]["TL-2"]["findings"]] == ["TL-2 crash: kept"]
    assert {c["key"]: c["duration_s"] for c in document["columns"]}[an] == 99.0
    assert f"kept 1 columns as built before: {an}" in capsys.readouterr().err
    (out / "reports" / "anthropic__transform_schema.json").unlink()
    assert matrix_main(["--paths", lc, "--keep", "--out", str(out)]) == 2
    assert "column anthropic/transform_schema: its report" in capsys.readouterr().err
    assert matrix_main(["--keep", "--out", str(out)]) == 2
    assert "--keep needs --paths" in capsys.readouterr().err


# -- A distributed build: one job per column, then one combine ----------------------------------

def _fake_runs(monkeypatch: pytest.MonkeyPatch, reports: dict[str, dict[str, Any]]) -> list[str]:
    """run_column replaced by one that writes ``reports[key]`` as the column's report and log, as a
    run does (the suite itself is tested by test_real_run_reference_and_columns_that_fail_to_run)."""
    ran: list[str] = []

    def fake_run(path: SdkPath, out_dir: Path, **_: Any) -> ColumnResult:
        ran.append(path.key)
        column = _column(path.key, reports[path.key])
        name = path.key.replace("/", "__")
        column.report_file, column.log_file = f"reports/{name}.json", f"logs/{name}.log"
        for relative, text in ((column.report_file, json.dumps(column.report)), (column.log_file, "log\n")):
            (out_dir / relative).parent.mkdir(parents=True, exist_ok=True)
            (out_dir / relative).write_text(text, encoding="utf-8")
        column.cpu_s = 12.5
        return column

    monkeypatch.setattr("strictconformance.matrix.__main__.run_column", fake_run)
    return ran


def test_shards_run_one_column_each_and_combine_into_the_matrix(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture[str]) -> None:
    lc, an = "langchain-core/convert_to_openai_tool", "anthropic/transform_schema"
    ran = _fake_runs(monkeypatch, {"reference": _report(), lc: _report({"SM-03": [_finding("SM-03", "SM-03 violation: x")]}),
                                   an: _report({"TL-2": [_finding("TL-2", "TL-2 crash: y")]})})
    assert matrix_main(["--shard", "--paths", lc, "--out", str(tmp_path / "job-lc")]) == 0
    assert ran == [lc]  # a shard runs only its own columns: no reference in every job
    assert matrix_main(["--shard", "--paths", "reference", "--out", str(tmp_path / "job-ref")]) == 0
    assert matrix_main(["--shard", "--paths", an, "--out", str(tmp_path / "job-an")]) == 0
    assert not (tmp_path / "job-lc" / "matrix.json").exists()
    assert (tmp_path / "job-lc" / "columns" / "langchain-core__convert_to_openai_tool.json").is_file()
    out = tmp_path / "matrix"
    assert matrix_main(["--combine", str(tmp_path / "job-lc"), str(tmp_path / "job-an"), str(tmp_path / "job-ref"),
                        "--out", str(out)]) == 0, capsys.readouterr().err
    document = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    check_matrix(document)
    assert [c["key"] for c in document["columns"]] == ["reference", an, lc]  # matrix order, not folder order
    assert [f["key"] for f in document["cells"][lc]["SM-03"]["findings"]] == ["SM-03 violation: x"]
    assert {c["key"]: c["cpu_s"] for c in document["columns"]}[an] == 12.5
    for column in document["columns"]:  # each column's report and log copied beside the matrix
        assert (out / column["report_file"]).is_file() and (out / column["log_file"]).is_file()
    assert (out / "summary.json").is_file() and (out / "matrix.html").is_file()
    # the same column from two jobs, a folder no shard wrote, and an unreadable report are refused
    assert matrix_main(["--combine", str(tmp_path / "job-lc"), str(tmp_path / "job-lc"), "--out", str(out)]) == 2
    assert "column langchain-core/convert_to_openai_tool is in two of the folders" in capsys.readouterr().err
    assert matrix_main(["--combine", str(tmp_path), "--out", str(out)]) == 2
    assert "no column results in" in capsys.readouterr().err
    (tmp_path / "job-an" / "reports" / "anthropic__transform_schema.json").write_text("{not json")
    assert matrix_main(["--combine", str(tmp_path / "job-an"), "--out", str(tmp_path / "m2")]) == 2
    assert "column anthropic/transform_schema: its report is not readable" in capsys.readouterr().err
    assert matrix_main(["--shard", "--out", str(tmp_path / "nothing")]) == 2
    assert "--shard needs --paths" in capsys.readouterr().err


def test_combining_shards_of_different_kit_versions_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    lc = "langchain-core/convert_to_openai_tool"
    _fake_runs(monkeypatch, {"reference": _report(kit="0.1.0"), lc: _report(kit="0.2.0")})
    assert matrix_main(["--shard", "--paths", "reference", "--out", str(tmp_path / "a")]) == 0
    assert matrix_main(["--shard", "--paths", lc, "--out", str(tmp_path / "b")]) == 0
    assert matrix_main(["--combine", str(tmp_path / "a"), str(tmp_path / "b"), "--out", str(tmp_path / "m")]) == 2
    error = capsys.readouterr().err
    assert "--combine" in error and "0.2.0" in error, error
    assert not (tmp_path / "m" / "matrix.json").exists()


def test_jobs_run_columns_side_by_side_in_matrix_order(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    lc, an = "langchain-core/convert_to_openai_tool", "anthropic/transform_schema"
    ran = _fake_runs(monkeypatch, {"reference": _report(), lc: _report(), an: _report()})
    assert matrix_main(["--paths", f"{lc},{an}", "--jobs", "3", "--out", str(tmp_path / "out")]) == 0
    assert sorted(ran) == sorted(["reference", an, lc])
    document = json.loads((tmp_path / "out" / "matrix.json").read_text(encoding="utf-8"))
    assert [c["key"] for c in document["columns"]] == ["reference", an, lc]
    assert matrix_main(["--jobs", "0", "--out", str(tmp_path / "out")]) == 2


def test_a_column_counts_its_own_cpu_when_columns_run_side_by_side(tmp_path: Path) -> None:
    """Each column's CPU is its own process's (and its waited-for workers'), not every child's of the
    matrix process: with --jobs, two columns run at once."""
    from strictconformance.matrix.run import _wait

    burn = subprocess.Popen([sys.executable, "-c", "sum(i * i for i in range(6_000_000))"], text=True)
    idle = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(0.5)"], text=True)
    code_burn, usage_burn = _wait(burn, 600)
    code_idle, usage_idle = _wait(idle, 600)
    assert (code_burn, code_idle) == (0, 0)
    assert usage_burn is not None and usage_idle is not None
    assert usage_burn.ru_utime > 0.2  # about a second of CPU whatever the load
    assert usage_idle.ru_utime < usage_burn.ru_utime / 2
    hang = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], text=True)
    with pytest.raises(subprocess.TimeoutExpired):
        _wait(hang, 0.2)
    hang.kill()
    assert _wait(hang, 600)[0] != 0


def test_the_matrix_links_each_confirmed_defect_to_its_upstream_issue(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                       capsys: pytest.CaptureFixture[str]) -> None:
    """A build writes a ready-to-file issue per defect its confirmed triage covers (none for a
    disputed one), each finding of the defect names it and the HTML page links it; --retriage
    writes them again from the triage as it is then."""
    lc = "langchain-core/convert_to_openai_tool"
    confirmed = _finding("SM-03", "SM-03 violation: open object", defect="D-11111111")
    disputed = _finding("SM-03", "SM-03 violation: empty object", defect="D-22222222")
    report = _report({"SM-03": [confirmed, disputed]})
    report["defects"] = [{"id": "D-11111111", "title": "objects left open", "kind": "violation", "rules": ["SM-03"],
                          "witnesses": 1, "findings": 1},
                         {"id": "D-22222222", "title": "empty object", "kind": "violation", "rules": ["SM-03"],
                          "witnesses": 1, "findings": 1}]
    _fake_runs(monkeypatch, {"reference": _report(), lc: report})
    triage = tmp_path / "triage"
    triage.mkdir()

    def entry(rule: str, key: str, verdict: str) -> dict[str, Any]:
        return {"sdk_path": lc, "version": "1.8.3", "rule": rule, "key": key, "summary": f"{rule} summary",
                "reproducer": "print('BUG: it shows')", "verdict": verdict,
                "evidence": "langchain_core/utils/function_calling.py:12; https://platform.openai.com/docs/guides/structured-outputs"}

    (triage / "langchain-core.json").write_text(json.dumps([entry("SM-03", confirmed["key"], "confirmed"),
                                                            entry("SM-03", disputed["key"], "disputed")]))
    out = tmp_path / "out"
    assert matrix_main(["--paths", lc, "--out", str(out), "--triage", str(triage)]) == 0, capsys.readouterr().err
    document = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    check_matrix(document)
    linked, unlinked = document["cells"][lc]["SM-03"]["findings"]
    assert (linked["key"], unlinked["key"]) == (confirmed["key"], disputed["key"])
    assert "upstream_issue" not in unlinked
    issue = out / linked["upstream_issue"]
    assert linked["upstream_issue"].startswith("upstream/langchain-core__convert_to_openai_tool/")
    text = issue.read_text(encoding="utf-8")
    assert "print('BUG: it shows')" in text and "SM-03" in text and "https://platform.openai.com/docs/guides/structured-outputs" in text
    assert len(list((out / "upstream").rglob("*.md"))) == 1
    assert f'href="{linked["upstream_issue"]}"' in (out / "matrix.html").read_text(encoding="utf-8")
    # the triage changes (the SM-03 entry disputed now): --retriage drops the link
    (triage / "langchain-core.json").write_text(json.dumps([entry("SM-03", confirmed["key"], "disputed"),
                                                            entry("SM-03", disputed["key"], "disputed")]))
    assert matrix_main(["--out", str(out), "--retriage", "--triage", str(triage)]) == 0
    document = json.loads((out / "matrix.json").read_text(encoding="utf-8"))
    assert "upstream_issue" not in document["cells"][lc]["SM-03"]["findings"][0]
    assert list((out / "upstream").rglob("*.md")) == []  # nor is its issue left behind


def test_two_defects_met_under_one_key_stay_two_findings_each_joined_to_its_entry() -> None:
    """An unresolvable and an external `$ref` both break SM-41 at the same place: one finding key,
    two defects. The matrix keeps a finding per defect, and an entry naming each defect matches its
    own (one of them was left matching nothing, stale, when the key alone made the finding)."""
    lc = "langchain-core/convert_to_openai_tool"
    key = "SM-03 violation: SM-41 at `$ref` of a $ref node inside properties"
    report = _report({"SM-03": [_finding("SM-03", key, defect="D-aaaaaaaa"), _finding("SM-03", key, defect="D-aaaaaaaa"),
                                _finding("SM-03", key, defect="D-bbbbbbbb")]})

    def entry(defect: str) -> TriageEntry:
        return TriageEntry(sdk_path=lc, version="1.0", rule="SM-03", key=defect, summary=defect, reproducer="print('BUG')",
                           verdict="confirmed", evidence="x.py:1")

    document = combine([_column(lc, report)], profile="ci", triage=[entry("D-aaaaaaaa"), entry("D-bbbbbbbb")])
    findings = document["cells"][lc]["SM-03"]["findings"]
    assert [(f["defect"], f["count"]) for f in findings] == [("D-aaaaaaaa", 2), ("D-bbbbbbbb", 1)]
    assert [f["triage"]["summary"] for f in findings] == ["D-aaaaaaaa", "D-bbbbbbbb"]
    assert document["unmatched_triage"] == []

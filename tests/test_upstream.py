"""``strictconformance report --upstream``: one ready-to-file issue per confirmed defect.

A fabricated report and triage file (no suite run): a defect confirmed by triage gets an issue
with the entry's reproducer, the SDK version, the documentation link of its evidence and the rule;
a disputed or untriaged defect gets none; defects the same confirmed entry explains make one issue.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from strictconformance.cli import main

COLUMN = "demo-sdk/transform"
REPRODUCER = "from demo_sdk import transform\n\nprint('BUG: it crashed') if transform({'$ref': '#/definitions/A'}) is None else print('OK')\n"
DOC = "https://example.org/provider/docs#schema"


def _finding(rule: str, key: str, defect: str, message: str) -> dict[str, Any]:
    return {"rule": rule, "kind": "crash" if rule == "RT-1" else "violation", "key": key, "where": None, "message": message,
            "counterexample": {"dialect": "openai", "schema": {"$ref": "#/definitions/A"}}, "calls": [], "replay": "",
            "reproducer": "print('the finding reproducer')", "nodeid": "x", "defect": defect}


def _report() -> dict[str, Any]:
    crash = "RT-1 crash: KeyError from strictify()"
    return {
        "schema": "strictconformance-report/2", "kit_version": "0.1.0", "profile": "ci",
        "adapter": {"adapter": "demo_adapter:Transform", "sdk": "demo-sdk 1.2.3", "strictify_dialects": ["openai"]},
        "summary": {},
        "defects": [
            {"id": "D-crash", "title": "strictify() raises KeyError", "kind": "crash", "rules": ["RT-1"], "witnesses": 3, "findings": 2},
            {"id": "D-crash2", "title": "strictify() raises KeyError (trap)", "kind": "crash", "rules": ["RT-1"], "witnesses": 1, "findings": 1},
            {"id": "D-loose", "title": "RT-5", "kind": "violation", "rules": ["RT-5"], "witnesses": 1, "findings": 1},
            {"id": "D-new", "title": "RT-9", "kind": "violation", "rules": ["RT-9"], "witnesses": 1, "findings": 1},
        ],
        "rules": {
            "RT-1": {"outcome": "failed", "findings": [
                _finding("RT-1", crash, "D-crash", "adapter.strictify() raised KeyError: '#/definitions/A'"),
                _finding("RT-1", crash, "D-crash", "adapter.strictify() raised KeyError: '#/definitions/B'"),
                _finding("RT-1", crash + " (trap refs)", "D-crash2", "adapter.strictify() raised KeyError: '#'")]},
            "RT-5": {"outcome": "failed", "findings": [_finding("RT-5", "RT-5 violation: decoded value breaks `type`", "D-loose", "m")]},
            "RT-9": {"outcome": "failed", "findings": [_finding("RT-9", "RT-9 violation: a `description` dropped", "D-new", "m")]},
        },
    }


def _entry(rule: str, key: str, verdict: str, summary: str) -> dict[str, Any]:
    return {"sdk_path": COLUMN, "version": "1.2.3", "rule": rule, "key": key, "summary": summary,
            "reproducer": REPRODUCER, "verdict": verdict,
            "evidence": f"demo_sdk/transform.py:12 (looks up only $defs); the provider documents $ref ({DOC})"}


@pytest.fixture
def files(tmp_path: Path) -> tuple[Path, Path]:
    report = tmp_path / "report.json"
    report.write_text(json.dumps(_report()), encoding="utf-8")
    triage = tmp_path / "demo-sdk.json"
    triage.write_text(json.dumps([
        _entry("RT-1", "RT-1 crash: KeyError from strictify()*", "confirmed", "transform crashes with KeyError on a #/definitions reference"),
        _entry("RT-5", "RT-5 violation: decoded value breaks `type`", "disputed", "a disputed loosening"),
    ]), encoding="utf-8")
    return report, triage


def test_one_issue_per_confirmed_cause(files: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    report, triage = files
    out = tmp_path / "issues"
    assert main(["report", "--upstream", str(report), "--triage", str(triage), "--column", COLUMN, "--out", str(out)]) == 0
    written = sorted(out.iterdir())
    # D-crash and D-crash2 are one cause (one confirmed entry covers both); D-loose is disputed, D-new untriaged
    assert [path.name for path in written] == ["demo-sdk-transform--d-crash.md"], written
    text = written[0].read_text(encoding="utf-8")
    assert text.startswith("# demo-sdk 1.2.3: transform crashes with KeyError on a #/definitions reference\n")
    assert "defects D-crash, D-crash2, 4 witnesses" in text
    assert f"```python\n{REPRODUCER.rstrip()}\n```" in text  # the triage entry's reproducer, not the finding's
    assert "the finding reproducer" not in text
    assert f"- {DOC}" in text and "- https://developers.openai.com/api/docs/guides/structured-outputs" in text  # the evidence's link, the dialect's source
    assert "## Rules\n\n- RT-1: strictify's output obeys every rule of the dialect" in text
    assert "KeyError: '#/definitions/A'" in text  # what it does, as the suite saw it
    assert "1 upstream report(s) written" in capsys.readouterr().out


def test_no_issue_without_a_confirmed_entry(files: tuple[Path, Path], tmp_path: Path) -> None:
    report, triage = files
    entries = json.loads(triage.read_text(encoding="utf-8"))
    entries[0]["verdict"] = "disputed"
    triage.write_text(json.dumps(entries), encoding="utf-8")
    out = tmp_path / "issues"
    assert main(["report", "--upstream", str(report), "--triage", str(triage), "--column", COLUMN, "--out", str(out)]) == 0
    assert list(out.iterdir()) == []


def test_a_report_of_an_unknown_adapter_needs_its_column(files: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    report, triage = files
    assert main(["report", "--upstream", str(report), "--triage", str(triage)]) == 2
    assert "name the column with --column" in capsys.readouterr().err
    assert main(["report", str(report), "--upstream", str(report)]) == 2

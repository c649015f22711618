"""Triage files: every shipped one is valid, a bad one is refused naming the file and the problem,
and the SDK matrix page's findings block is what the triage files and the committed matrix summary
generate."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from strictconformance.sdks.triage import (
    FINDINGS_FILE,
    MATRIX_SUMMARY,
    README_END,
    README_START,
    TRIAGE_DIR,
    TriageError,
    current_readme_block,
    findings_document,
    load_matrix_file,
    load_triage,
    main,
    readme_block,
    replace_readme_block,
)

ROOT = Path(__file__).resolve().parent.parent
KNOWN = ["acme/strictify", "acme/tools"]


def _entry(**changes: Any) -> dict[str, Any]:
    entry = {"sdk_path": "acme/strictify", "version": "1.2.3", "rule": "SM-03",
             "key": "SM-03 violation: object inside prefixItems", "summary": "leaves prefixItems objects open",
             "reproducer": "from acme import strictify\nif strictify({}).get('prefixItems'):\n    print('BUG: kept')",
             "verdict": "confirmed",
             "evidence": "acme/strictify.py:41"}
    entry.update(changes)
    return entry


def _folder(tmp_path: Path, name: str, entries: Any) -> Path:
    (tmp_path / name).write_text(json.dumps(entries))
    return tmp_path


def test_every_shipped_triage_file_is_valid() -> None:
    """The shipped files, against the schema and the registry of SDK paths (a file per SDK)."""
    entries = load_triage()
    for file in TRIAGE_DIR.glob("*.json"):
        assert any(entry.file == file.name for entry in entries) or json.loads(file.read_text()) == [], file


def test_a_valid_file_loads(tmp_path: Path) -> None:
    folder = _folder(tmp_path, "acme.json", [_entry(), _entry(rule="TL-2", key="TL-2 crash: ValueError",
                                                              sdk_path="acme/tools", verdict="disputed",
                                                              upstream="https://example.invalid/acme/1")])
    entries = load_triage(folder, known_paths=KNOWN)
    assert [(e.sdk_path, e.rule, e.verdict, e.file) for e in entries] == [
        ("acme/strictify", "SM-03", "confirmed", "acme.json"), ("acme/tools", "TL-2", "disputed", "acme.json")]
    assert entries[1].as_json()["upstream"] == "https://example.invalid/acme/1"
    assert "upstream" not in entries[0].as_json() and "file" not in entries[0].as_json()


@pytest.mark.parametrize(("name", "entries", "message"), [
    ("acme.json", "{not json", r"triage file acme.json: not readable JSON"),
    ("acme.json", {"entries": []}, r"triage file acme.json: at /: .* is not of type 'array'"),
    ("acme.json", [_entry(verdict="maybe")], r"triage file acme.json: at /0/verdict: 'maybe' is not one of"),
    ("acme.json", [{k: v for k, v in _entry().items() if k != "evidence"}], r"at /0: 'evidence' is a required property"),
    ("acme.json", [_entry(summary="two\nlines")], r"at /0/summary: .* does not match"),
    ("acme.json", [_entry(extra=1)], r"at /0: Additional properties are not allowed \('extra' was unexpected\)"),
    ("other.json", [_entry()], r"entry 0 \(SM-03 .*\): sdk_path 'acme/strictify' is not a path of 'other'"),
    ("acme.json", [_entry(sdk_path="acme/nope")], r"sdk_path 'acme/nope' is no shipped SDK path; known: acme/strictify, acme/tools"),
    ("acme.json", [_entry(rule="SM-999", key="SM-999 violation")], r"no rule SM-999 in the spec"),
    ("acme.json", [_entry(version="latest")], r"at /0/version: 'latest' does not match"),
    ("acme.json", [_entry(), _entry(summary="again")], r"entry 1 .*: the same finding is triaged twice \(also in acme.json\)"),
])
def test_a_bad_file_is_refused_naming_the_problem(tmp_path: Path, name: str, entries: Any, message: str) -> None:
    if isinstance(entries, str):
        (tmp_path / name).write_text(entries)
    else:
        _folder(tmp_path, name, entries)
    with pytest.raises(TriageError, match=message):
        load_triage(tmp_path, known_paths=KNOWN)


def test_readme_block_lists_triaged_findings_and_the_matrix(tmp_path: Path) -> None:
    from strictconformance.matrix.combine import ColumnResult, combine

    entries = load_triage(_folder(tmp_path, "acme.json", [
        _entry(), _entry(rule="SM-01", key="SM-01 violation: x", summary="a | b", verdict="disputed")]),
        known_paths=KNOWN)
    report = {"schema": "strictconformance-report/2", "kit_version": "0.1.0", "profile": "ci", "adapter": {},
              "summary": {}, "rules": {"SM-03": {"title": "t", "section": "s", "outcome": "failed", "reasons": [],
                                                 "checks": [{"nodeid": "x"}],
                                                 "findings": [{"key": _entry()["key"], "kind": "violation",
                                                               "message": "m"}]}}}
    matrix = combine([ColumnResult(key="acme/strictify", title="Acme", versions={"acme": "1.2.3"}, report=report)],
                     profile="ci")
    block = readme_block(entries, matrix)
    assert block.startswith(README_START) and block.endswith(README_END)
    assert "| `acme/strictify` | acme 1.2.3 | 1 | 1 | 1 | 1 | 0 | 0 | 0 |" in block  # confirmed by today's triage
    # the README: confirmed findings in a line each; the evidence and the rest in the findings document
    assert "* **`acme/strictify`** (1.2.3):\n  * **SM-03** leaves prefixItems objects open\n" in block
    assert "SM-01" not in block and "evidence: acme" not in block and FINDINGS_FILE in block
    document = findings_document(entries, matrix)
    assert "| `acme/strictify` | acme 1.2.3 | 1 | 1 | 1 | 1 | 0 | 0 | 0 |" in document
    assert "* **`acme/strictify`** (1.2.3):" in document
    assert "  * **SM-01** a \\| b *(disputed)* — evidence: acme/strictify.py:41" in document
    assert "  * **SM-03** leaves prefixItems objects open — evidence: acme/strictify.py:41" in document
    assert document.index("SM-01") < document.index("**SM-03**")
    assert "No finding is triaged yet." in readme_block([], None)
    readme = f"intro\n{README_START}\nold\n{README_END}\noutro\n"
    assert replace_readme_block(readme, block) == f"intro\n{block}\noutro\n"
    with pytest.raises(TriageError, match="no generated findings block"):
        replace_readme_block("no markers", block)


def test_the_matrix_page_block_comes_from_the_triage_files_and_the_summary(capsys: pytest.CaptureFixture[str]) -> None:
    """The SDK matrix page's block (generated when the site is built, scripts/docs_hooks.py) counts the
    committed summary's columns against today's triage files; the command prints the same."""
    entries, matrix = load_triage(), load_matrix_file(ROOT / MATRIX_SUMMARY)
    assert matrix is not None, f"{MATRIX_SUMMARY} is missing"
    block = readme_block(entries, matrix)
    assert "| `openai-python/client` | openai " in block and f"]({FINDINGS_FILE})" in block
    assert main(["readme", "--matrix", str(ROOT / MATRIX_SUMMARY)]) == 0
    assert capsys.readouterr().out.strip() == block.strip()
    page = (ROOT / "docs" / "matrix.md").read_text(encoding="utf-8")
    assert current_readme_block(page) == f"{README_START}\n{README_END}"  # filled in by the build, not committed


def test_command_check_and_write(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check"]) == 0
    assert "triage entries, all valid" in capsys.readouterr().out
    readme = tmp_path / "README.md"
    readme.write_text(f"# x\n{README_START}\n{README_END}\n")
    empty = tmp_path / "empty"  # an empty triage folder: the shipped one has entries
    empty.mkdir()
    assert main(["readme", "--dir", str(empty), "--matrix", str(tmp_path / "none.json"), "--write", str(readme)]) == 0
    assert "No finding is triaged yet." in readme.read_text()
    assert "No finding is triaged yet." in (tmp_path / FINDINGS_FILE).read_text()  # beside the README
    assert main(["readme", "--dir", str(empty), "--matrix", str(tmp_path / "none.json"), "--write", str(readme)]) == 0
    assert "already up to date" in capsys.readouterr().out
    _folder(tmp_path, "acme.json", [_entry(verdict="maybe")])
    assert main(["check", "--dir", str(tmp_path)]) == 2
    assert "error: triage file acme.json: at /0/verdict" in capsys.readouterr().err

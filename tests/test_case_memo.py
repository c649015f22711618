"""Fixed cases cost what they find: the checks of one case share one strictify call per dialect,
one strict output is validated once per dialect, and neither merges nor drops a finding."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import memo_adapters
import strictconformance.dialects
from conftest import SuiteRun

FIRST = {"type": "object", "properties": {"a": {"type": "string", "description": "one"}}}
SECOND = {"type": "object", "properties": {"a": {"type": "string", "description": "two"}}}


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    folder = tmp_path / "memo-corpus"
    folder.mkdir()
    (folder / "memo-first.json").write_text(json.dumps(FIRST), encoding="utf-8")
    (folder / "memo-second.json").write_text(json.dumps(SECOND), encoding="utf-8")
    return folder


def _failed_checks(run: SuiteRun, rule_id: str) -> dict[str, list[dict[str, Any]]]:
    assert run.report is not None, run.output
    return {check["nodeid"].rpartition("[")[2].rstrip("]"): check.get("findings", [])
            for check in run.report["rules"][rule_id]["checks"] if check["outcome"] == "failed"}


def test_the_checks_of_a_case_share_one_strictify_call(run_suite: Callable[..., SuiteRun], corpus: Path) -> None:
    memo_adapters.CALLS.clear()
    run = run_suite("memo_adapters:CountsStrictifyCalls", "--sc-corpus", str(corpus), "--sc-rule", "RT-1",
                    "--sc-rule", "RT-3", "--sc-rule", "RT-8", "--sc-rule", "RT-9", "-k", "corpus and openai-memo")
    assert run.rules_with("failed") == set(), run.output
    for schema in (FIRST, SECOND):
        # four rule checks of the case, one call (RT-3's second call strictifies the output)
        assert memo_adapters.CALLS[("openai", json.dumps(schema, sort_keys=True))] == 1, memo_adapters.CALLS
    assert run.report is not None
    # every check still counts the output it judged
    for check in run.report["rules"]["RT-1"]["checks"]:
        if "[openai-memo" in check["nodeid"]:
            assert check["strictify"]["outputs"] == 1, check


def test_rt2_calls_strictify_itself(run_suite: Callable[..., SuiteRun], corpus: Path) -> None:
    """Purity is judged on calls of its own: RT-2 never takes a remembered answer."""
    memo_adapters.CALLS.clear()
    run = run_suite("memo_adapters:CountsStrictifyCalls", "--sc-corpus", str(corpus), "--sc-rule", "RT-1",
                    "--sc-rule", "RT-2", "-k", "corpus and openai-memo")
    assert run.rules_with("failed") == set(), run.output
    # RT-1's call, then RT-2's own two
    assert memo_adapters.CALLS[("openai", json.dumps(FIRST, sort_keys=True))] == 3, memo_adapters.CALLS


def test_one_output_is_validated_once_and_each_case_still_fails(run_suite: Callable[..., SuiteRun], corpus: Path,
                                                                monkeypatch: pytest.MonkeyPatch) -> None:
    judged: list[str] = []
    validate = strictconformance.dialects.validate_strict

    def counting(schema: Any, dialect: Any) -> Any:
        judged.append(json.dumps(schema, sort_keys=True))
        return validate(schema, dialect)
    monkeypatch.setattr(strictconformance.dialects, "validate_strict", counting)
    run = run_suite("memo_adapters:LeavesEveryObjectOpen", "--sc-corpus", str(corpus), "--sc-rule", "RT-1",
                    "-k", "corpus and openai-memo")
    failed = _failed_checks(run, "RT-1")
    # both cases are reported, each with its own call and the same defect
    assert set(failed) == {"openai-memo-first", "openai-memo-second"}, run.output
    for case, findings in failed.items():
        assert len(findings) == 1 and findings[0]["key"].startswith("RT-1 violation: SM-03"), findings
        assert findings[0]["counterexample"]["case"] == case.removeprefix("openai-")
        assert findings[0]["calls"][-1]["method"] == "strictify"
        assert findings[0]["calls"][-1]["args"][0] == (FIRST if case.endswith("first") else SECOND)
    # the one output both cases share is validated once
    assert len(judged) == 1, judged


def test_a_refused_input_is_refused_once_and_still_counted_each_time(run_suite: Callable[..., SuiteRun]) -> None:
    """A refusal is remembered like an answer: RT-5's trap loop met google-genai's refused allOf
    trap in every example of its search and shrink (14,711 calls of 35,717); the report still
    counts each refusal, and a trap it refuses is judged on nothing, as before."""
    from strictconformance.dialects import get_dialect
    from strictconformance.dialects.traps import traps

    [refused] = [trap.schema for trap in traps(get_dialect("openai")) if trap.name == "allof-of-closed-objects"]
    memo_adapters.CALLS.clear()
    run = run_suite("memo_adapters:RefusesAllOf", "--sc-rule", "RT-5", "-k", "test_rt_5_traps")
    assert run.rules_with("passed") == {"RT-5"}, run.output
    assert memo_adapters.CALLS[("openai", json.dumps(refused, sort_keys=True))] == 1, memo_adapters.CALLS
    assert run.report is not None
    [check] = [c for c in run.report["rules"]["RT-5"]["checks"] if c["nodeid"].endswith("[openai]")]
    assert check["strictify"]["refused"] == {"ValueError": check["examples"]}, check

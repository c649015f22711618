"""The OpenAI Node SDK harness (conformance/process/node/harnesses/openai-node.mjs), both columns: a small
selection of the suite finds what was triaged by hand (conformance/sdks/triage/openai-node.json), and a
fixed case whose every input the harness refuses is reported not covered with the reason.

Skipped, with the reason, without Node or without the harnesses' packages (``python -m
strictconformance.process install-node``). When a release changes a finding, its test fails and names
it: re-check the finding, then update the test and the triage file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from conftest import SuiteRun, needs_node_package
from strictconformance.process import node_folder

NODE_DIR = Path(node_folder())
HARNESS = NODE_DIR / "harnesses" / "openai-node.mjs"

pytestmark = needs_node_package("openai")


def _command(*flags: str) -> str:
    return " ".join(["node", str(HARNESS), *flags])


def _checks(run: SuiteRun, rule_id: str) -> list[dict[str, Any]]:
    assert run.report is not None, run.output
    return list(run.report["rules"][rule_id]["checks"])


def _keys(run: SuiteRun, rule_id: str) -> set[str]:
    return {finding["key"] for check in _checks(run, rule_id) for finding in check["findings"]}


def test_to_strict_json_schema_closes_a_free_form_object_and_refuses_on_purpose(run_suite: Callable[..., SuiteRun]) -> None:
    """RT-4 (identity codec): a free-form object is closed silently; RT-1 on the traps and known-bad
    schemas fails (what it passes through), and its own TypeError (tuple-form items) is a declared
    refusal, never an RT-1 crash."""
    run = run_suite(None, "--sc-adapter-cmd", _command(), "--sc-rule", "RT-4,RT-1",
                    "-k", "openai-empty-nested-object or test_rt_1_traps")
    assert run.outcome("RT-1") == "failed", run.output
    assert "RT-4 violation: encoded value breaks `additionalProperties`" in _keys(run, "RT-4"), run.output
    assert not any(key.startswith("RT-1 crash") for key in _keys(run, "RT-1")), run.output


def test_zod_fixed_case_whose_input_zod_cannot_express_is_not_covered(run_suite: Callable[..., SuiteRun]) -> None:
    """A fixed RT-5 case the harness refuses (z.fromJSONSchema cannot convert it) is not covered, with
    the refusal's reason, not an error of the check (Hypothesis gives up when every example is refused)."""
    run = run_suite(None, "--sc-adapter-cmd", _command("--zod"), "--sc-rule", "RT-5", "-k", "openai-ref-definitions")
    (check,) = [check for check in _checks(run, "RT-5") if "openai-ref-definitions" in check["nodeid"]]
    assert check["outcome"] == "not covered", (check, run.output)
    assert "every input of the check was refused" in check["reason"] and "z.fromJSONSchema" in check["reason"], check

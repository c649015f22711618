"""The shipped process harness for the Anthropic TypeScript SDK (``@anthropic-ai/sdk``,
``harnesses/anthropic-sdk.mjs``): a small selection of the suite finds what was confirmed by hand
(``conformance/sdks/triage/anthropic-ts.json``) on each of its columns.

Skipped, with the reason, when Node or the harness folder's packages (``npm ci``) are missing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import SuiteRun, needs_node_package
from strictconformance.process import node_folder
from strictconformance.sdks import SDK_PATHS

NODE_DIR = Path(node_folder())
HARNESS = NODE_DIR / "harnesses" / "anthropic-sdk.mjs"

pytestmark = needs_node_package("@anthropic-ai/sdk")


def _command(flag: str = "") -> str:
    return f"node {HARNESS} {flag}".strip()


def _failed(run: SuiteRun) -> set[str]:
    return run.rules_with("failed") | run.rules_with("error")



def _messages(run: SuiteRun, rule_id: str) -> str:
    return "\n".join(finding["message"] for finding in run.findings(rule_id))


def test_the_columns_are_registered() -> None:
    columns = {path.key: path for path in SDK_PATHS if path.key.startswith("anthropic-ts/")}
    assert set(columns) == {"anthropic-ts/json-schema-output-format", "anthropic-ts/beta-tool"}
    assert all(path.language == "node" and path.distributions == ("@anthropic-ai/sdk",) for path in columns.values())


def test_json_schema_output_format_keeps_what_anthropic_rejects(run_suite: Callable[..., SuiteRun]) -> None:
    """``jsonSchemaOutputFormat``'s transform keeps recursive, allOf-with-$ref and external
    references; its two deliberate errors (a non-object root, an untyped node) are counted as the
    declared refusals, never crashes."""
    run = run_suite(None, "--sc-adapter-cmd", _command(), "--sc-rule", "SM-34,SM-40,SM-41,RT-1", "-k", "fixed_cases or traps")
    assert _failed(run) == {"SM-34", "SM-40", "SM-41", "RT-1"}, run.output
    assert "crash" not in _messages(run, "RT-1"), run.output
    assert run.report is not None
    counts = run.report["strictify"]["anthropic"]
    assert counts["crashed"] == 0 and counts["refused"] >= 1, counts
    assert set(counts["refused_by"]) <= {"NonObjectRootError", "UntypedNodeError"}, counts
    (failure, *_) = run.findings("SM-40")
    assert failure["reproducer_language"] == "node"
    assert 'import { jsonSchemaOutputFormat } from "@anthropic-ai/sdk/helpers/json-schema";' in failure["reproducer"]


def test_json_schema_output_format_identity_codec(run_suite: Callable[..., SuiteRun]) -> None:
    """Its parse is JSON.parse, so the round trip judges the identity codec: a record closed empty
    shows (RT-4), as the triage entry D-cca81664 says."""
    run = run_suite(None, "--sc-adapter-cmd", _command(), "--sc-rule", "RT-4", "-k", "rt_4_traps")
    assert _failed(run) == {"RT-4"}, run.output
    assert run.report is not None and run.report["adapter"]["identity_codec"] is True
    keys = {finding["key"] for finding in run.findings("RT-4")}
    assert "RT-4 violation: encoded value breaks `additionalProperties` (trap records value 1)" in keys, keys


def test_beta_tool_validates_nothing_and_loses_the_error_type(run_suite: Callable[..., SuiteRun]) -> None:
    """``betaTool`` + ``toolRunner``: invalid input reaches ``run`` (its parse is a type cast, TL-2
    and TL-6), and the runner's error result is ``Error: <message>`` (TL-3: the type is lost, the
    message kept)."""
    run = run_suite(None, "--sc-adapter-cmd", _command("--tools"), "--sc-rule", "TL-2,TL-3,TL-6",
                    "-k", "known_inputs or each_callback_kind or direct_call_validates")
    assert _failed(run) == {"TL-2", "TL-3", "TL-6"}, run.output
    assert "reached the callback" in _messages(run, "TL-2")
    tl3 = _messages(run, "TL-3")
    assert "does not carry the exception type" in tl3 and "does not carry the exception message" not in tl3, tl3
    assert "instead of raising" in _messages(run, "TL-6") or "passed invalid input" in _messages(run, "TL-6")

"""The shipped process harness for LangChain.js's core package (``@langchain/core``,
``harnesses/langchain-core.mjs``): a small selection of the suite finds what was confirmed by hand
(``conformance/sdks/triage/langchain-core-ts.json``).

Skipped, with the reason, when Node or the harness folder's packages (``npm ci``) are missing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import SuiteRun, needs_node_package
from strictconformance.process import node_folder
from strictconformance.sdks import SDK_PATHS

NODE_DIR = Path(node_folder())
HARNESS = NODE_DIR / "harnesses" / "langchain-core.mjs"

pytestmark = needs_node_package("@langchain/core")



def test_the_column_is_registered() -> None:
    columns = {path.key: path for path in SDK_PATHS if path.key.startswith("langchain-core-ts/")}
    assert set(columns) == {"langchain-core-ts/convert-to-openai-tool"}
    (path,) = columns.values()
    assert path.language == "node" and path.distributions == ("@langchain/core",)
    assert path.command == "node harnesses/langchain-core.mjs"


def test_strict_true_sends_the_schema_unchanged_one_defect(run_suite: Callable[..., SuiteRun]) -> None:
    """``convertToOpenAITool(tool, {strict: true})`` sets the flag and sends the JSON Schema as
    written: the report says so once, as one defect, whichever rules and fixed cases meet it (the
    curated RT-1 cases, whose counterexamples name the strict output only, included)."""
    run = run_suite(None, "--sc-adapter-cmd", f"node {HARNESS}", "--sc-rule", "SM-03,SM-26,RT-1",
                    "-k", "test_rt_1_case or sm_03 or sm_26")
    assert {"SM-03", "RT-1"} <= run.rules_with("failed"), run.output
    assert run.report is not None
    counts = run.report["strictify"]["openai"]
    assert counts["outputs"] >= 2 and counts["unchanged"] == counts["outputs"], counts
    violations = [d for d in run.report["defects"] if d["kind"] == "violation"]
    assert [d["title"] for d in violations] == ["strictify returns its input unchanged (openai)"], \
        [d["title"] for d in run.report["defects"]]
    assert {"SM-03", "RT-1"} <= set(violations[0]["rules"])
    (finding, *_) = run.findings("SM-03")
    assert finding["reproducer_language"] == "node"
    assert 'import { convertToOpenAITool } from "@langchain/core/utils/function_calling";' in finding["reproducer"]


def test_a_root_without_a_string_type_crashes(run_suite: Callable[..., SuiteRun]) -> None:
    """A ``StructuredToolParams`` whose JSON Schema root has no string ``type`` (an ``anyOf`` or
    ``$ref`` root) is not recognised as a LangChain tool and is used as an OpenAI tool definition:
    ``toolDef.function.strict = ...`` throws a TypeError, one crash defect at its origin."""
    run = run_suite(None, "--sc-adapter-cmd", f"node {HARNESS}", "--sc-rule", "RT-1", "-k", "test_rt_1_case")
    assert run.report is not None, run.output
    crashes = [d for d in run.report["defects"] if d["kind"] == "crash"]
    assert len(crashes) == 1, [d["title"] for d in run.report["defects"]]
    assert crashes[0]["example"]["origin"]["file"] == "@langchain/core/dist/utils/function_calling.js"
    assert "TypeError" in crashes[0]["title"]

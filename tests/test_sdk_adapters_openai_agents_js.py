"""The @openai/agents harness (conformance/process/node/harnesses/openai-agents-js.mjs), both columns:
a small selection of the suite finds what was triaged by hand (conformance/sdks/triage/openai-agents-js.json).

Skipped, with the reason, without Node or without the harnesses' packages (``python -m
strictconformance.process install-node``). When a release changes a finding, its test fails and names
it: re-check the finding, then update the test and the triage file.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import SuiteRun, needs_node_package
from strictconformance.process import node_folder

NODE_DIR = Path(node_folder())
HARNESS = NODE_DIR / "harnesses" / "openai-agents-js.mjs"

pytestmark = needs_node_package("@openai/agents")


def _command(*flags: str) -> str:
    return " ".join(["node", str(HARNESS), *flags])



def test_tool_layer_runs_execute_on_invalid_input_and_refuses_a_nullable_object_branch(
        run_suite: Callable[..., SuiteRun]) -> None:
    """TL-2: a JSON Schema tool's arguments are parsed, not validated (documented); a nullable
    object with an optional field is refused by tool() in strict mode with its declared UserError
    (deliberate): TL-5 leaves that case to TL-11, which reports it as an unnecessary refusal (strict
    mode expresses the schema); TL-7 and TL-3 (with the default error function's fixed text
    declared) pass."""
    run = run_suite(None, "--sc-adapter-cmd", _command(), "--sc-rule", "TL-2,TL-3,TL-5,TL-7,TL-11",
                    "-k", "known_inputs or tl_5 or tl_3 or spec_strict or tl_11_known")
    assert run.outcome("TL-2") == "failed", run.output
    assert {finding["key"] for finding in run.findings("TL-2")} <= {
        "TL-2 violation: invalid input reached the callback", "TL-2 violation: invalid input gave a success result"}, run.output
    assert run.outcome("TL-5") == "passed", run.output
    assert "tool_refusals; TL-11 judges it" in run.output, run.output
    assert run.outcome("TL-11") == "failed", run.output
    [refusal] = run.findings("TL-11")
    assert refusal["kind"] == "refusal" and "anyOf` branch containing optional object properties" in refusal["message"], run.output
    assert run.outcome("TL-3") == "passed", run.output
    assert run.outcome("TL-7") == "passed", run.output

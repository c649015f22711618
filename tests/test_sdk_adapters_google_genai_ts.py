"""The shipped process harness for the Google Gen AI TypeScript SDK (``@google/genai``,
``harnesses/google-genai.mjs``): a small selection of the suite finds what was confirmed by hand
(``conformance/sdks/triage/google-genai-ts.json``).

Skipped, with the reason, when Node or the harness folder's packages (``npm ci``) are missing.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import SuiteRun, needs_node_package
from strictconformance.process import node_folder
from strictconformance.sdks import SDK_PATHS

NODE_DIR = Path(node_folder())
HARNESS = NODE_DIR / "harnesses" / "google-genai.mjs"

pytestmark = needs_node_package("@google/genai")



def _keys(run: SuiteRun, rule_id: str) -> set[str]:
    return {finding["key"] for finding in run.findings(rule_id)}


def test_the_column_is_registered() -> None:
    columns = {path.key: path for path in SDK_PATHS if path.key.startswith("google-genai-ts/")}
    assert set(columns) == {"google-genai-ts/response-schema"}
    (path,) = columns.values()
    assert path.language == "node" and path.distributions == ("@google/genai",)
    assert SDK_PATHS[-1].key == "google-genai-ts/response-schema"


def test_keywords_outside_the_schema_subset_are_sent_as_written(run_suite: Callable[..., SuiteRun]) -> None:
    """processJsonSchema copies every keyword it does not know (allOf, oneOf, const...) into the
    OpenAPI-subset Schema; its two deliberate errors are declared refusals, never crashes."""
    run = run_suite(None, "--sc-adapter-cmd", f"node {HARNESS}", "--sc-rule", "SM-26,SM-27,SM-44,RT-1", "-k", "test_rt_1_case")
    assert {"SM-26", "SM-27", "SM-44"} <= {key.split(" ")[2] for key in _keys(run, "RT-1") if key.startswith("RT-1 violation: SM-")}, \
        _keys(run, "RT-1")
    assert run.report is not None
    counts = run.report["strictify"]["google-schema"]
    assert counts["crashed"] == 0, counts
    (finding, *_) = run.findings("RT-1")
    assert finding["reproducer_language"] == "node"
    assert 'import { GoogleGenAI } from "@google/genai";' in finding["reproducer"]


def test_additional_properties_and_boolean_items_are_lost(run_suite: Callable[..., SuiteRun]) -> None:
    """With the identity codec, RT-5 shows what the schema sent lost: a record's value schema and a
    closed object (additionalProperties dropped), and a closed tuple (`items: false` sent as `{}`)."""
    run = run_suite(None, "--sc-adapter-cmd", f"node {HARNESS}", "--sc-rule", "RT-5", "-k", "test_rt_5_case")
    assert run.report is not None and run.report["adapter"]["identity_codec"] is True, run.output
    keys = _keys(run, "RT-5")
    assert {"RT-5 violation: decoded value breaks `type`", "RT-5 violation: decoded value breaks `items`"} <= keys, keys

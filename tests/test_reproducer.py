"""The reproducer hook (``Adapter.reproduce``): a failing check shows the adapter's standalone
snippet for the call that failed, in the terminal and in the report, and a broken hook never breaks
the report."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import jsonschema
import pytest

from conftest import SuiteRun
from strictconformance.adapter import AdapterContractError, read_declarations
from strictconformance.report import load_report_schema

# Adapters that fail RES-2 (the broken resolution adapter) with one kind of reproduce() each.
_ADAPTERS = '''
import time

from broken_resolution import WrongOpenAIDefault


class Reproduces(WrongOpenAIDefault):
    def reproduce(self, method, args):
        (request,) = args
        names = [tool.name for tool in request.tools]
        request.tools[0].input_schema["mutated"] = True  # a copy: the report keeps the original
        return f"import acme\\nprint(acme.{method}({names!r}, provider={request.provider!r}))"


class ReproducesInNode(WrongOpenAIDefault):
    reproducer_language = "node"

    def reproduce(self, method, args):
        return "console.log(require('acme').build())"


class RaisingReproducer(WrongOpenAIDefault):
    def reproduce(self, method, args):
        raise RuntimeError("no snippet today")


class SkippingReproducer(WrongOpenAIDefault):
    def reproduce(self, method, args):
        import pytest
        pytest.skip("not here")


class JunkReproducer(WrongOpenAIDefault):
    def reproduce(self, method, args):
        return 42


class HangingReproducer(WrongOpenAIDefault):
    def reproduce(self, method, args):
        time.sleep(30)
'''

_RES_2 = ("--sc-rule", "RES-2", "-k", "declared_default")


@pytest.fixture
def run_res_2(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> Callable[..., SuiteRun]:
    pytester.makepyfile(reproducer_adapters=_ADAPTERS)
    pytester.syspathinsert()

    def run(adapter: str, *args: str) -> SuiteRun:
        run = run_suite(f"reproducer_adapters:{adapter}", *_RES_2, *args)
        assert run.outcome("RES-2") == "failed", run.output  # the hook never changes the verdict
        assert run.report is not None
        jsonschema.Draft202012Validator(load_report_schema()).validate(run.report)
        return run

    return run


def _failure(run: SuiteRun) -> dict[str, Any]:
    assert run.report is not None, run.output
    (check,) = [check for check in run.report["rules"]["RES-2"]["checks"] if check["outcome"] == "failed"]
    (failure,) = check["findings"]  # report schema v2: a check's findings replaced its "failure"
    assert isinstance(failure, dict)
    return failure


def test_the_reproducer_of_the_failing_call_is_shown_and_reported(run_res_2: Callable[..., SuiteRun]) -> None:
    run = run_res_2("Reproduces")
    failure = _failure(run)
    snippet = failure["reproducer"]
    assert snippet.startswith("import acme\nprint(acme.build_request(['tool_00_"), snippet  # the last call, its args
    assert snippet.endswith("provider='openai'))")
    assert failure["reproducer_language"] == "python"
    assert "reproducer_error" not in failure
    assert "reproducer (python, the SDK alone):\nimport acme\nprint(acme.build_request(" in run.output
    assert run.output.index("reproducer (python") < run.output.index("replay: pytest")
    # reproduce() got a copy: what it changed is not in the recorded call
    assert "mutated" not in str(failure["calls"][-1]["args"])
    assert "mutated" not in run.output.split("reproducer (python")[0]
    assert run.report is not None
    assert run.report["rules"]["RES-2"]["findings"][0]["reproducer"] == snippet


def test_the_reproducer_language_comes_from_the_adapter(run_res_2: Callable[..., SuiteRun]) -> None:
    run = run_res_2("ReproducesInNode")
    assert _failure(run)["reproducer_language"] == "node"
    assert "reproducer (node, the SDK alone):\nconsole.log(require('acme').build())" in run.output


@pytest.mark.parametrize(("adapter", "problem"), [
    ("RaisingReproducer", "reproduce() raised RuntimeError: no snippet today"),
    ("SkippingReproducer", "reproduce() raised Skipped: not here"),
    ("JunkReproducer", "reproduce() returned 42, expected a snippet (str) or None"),
])
def test_a_broken_reproducer_is_reported_as_unavailable(run_res_2: Callable[..., SuiteRun], adapter: str, problem: str) -> None:
    run = run_res_2(adapter)
    failure = _failure(run)
    assert failure["reproducer"] is None
    assert "reproducer_language" not in failure
    assert failure["reproducer_error"] == problem
    assert f"reproducer unavailable: {problem}" in run.output
    assert "RES-2 violation: openai: tool" in run.output  # the failure itself is intact


def test_a_hanging_reproducer_times_out(run_res_2: Callable[..., SuiteRun]) -> None:
    run = run_res_2("HangingReproducer", "--sc-call-timeout", "0.5")
    assert _failure(run)["reproducer_error"] == "reproduce() did not return within 0.5 s (--sc-call-timeout)"


def test_without_a_reproducer_the_field_is_null(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_resolution:WrongOpenAIDefault", *_RES_2)
    failure = _failure(run)
    assert failure["reproducer"] is None
    assert "reproducer_error" not in failure and "reproducer_language" not in failure
    assert "reproducer (" not in run.output and "reproducer unavailable" not in run.output


def test_reproducer_language_is_validated() -> None:
    from broken_resolution import WrongOpenAIDefault

    class Ruby(WrongOpenAIDefault):
        reproducer_language = "ruby"

    with pytest.raises(AdapterContractError, match=r"reproducer_language must be one of \('python', 'node'\), got 'ruby'"):
        read_declarations(Ruby())
    assert "reproduce" not in read_declarations(WrongOpenAIDefault()).capabilities  # not a capability

"""Provider errors and exception chains in the DR checks (issue 11 items 2 and 3).

An SDK that raises its documented API error for an error the provider sent is right (it failed
DR-6 before ``api_errors`` existed); one that raises it for a good response is not; an SDK that
keeps the path or the actual value in the cause of its error is read through the chain (DR-5
demanded the value in the error's own text)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
import yaml  # noqa: F401  (imported outside the in-process runs: PyYAML's C loader breaks when re-imported)

import strictconformance.drift.cassettes  # noqa: F401  (likewise)
from conftest import SuiteRun
from strictconformance.drift.provider_errors import carried_error, chain_text, exception_chain
from strictconformance.drift.sse import SSEEvent


@pytest.mark.parametrize(("payload", "where"), [
    ({"error": {"message": "overloaded", "type": "server_error"}}, "error"),
    ({"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}}, "error"),
    ({"result": None, "success": False, "errors": [{"code": 7009}], "messages": []}, "errors"),
    # a Responses object's own error member is a field of the response, not an error body
    ({"id": "resp_1", "object": "response", "status": "failed", "error": {"code": "server_error", "message": "x"}}, None),
    ({"id": "resp_1", "object": "response", "error": None}, None),
    ({"choices": []}, None),
    ([{"error": "x"}], None),
])
def test_carried_error_in_bodies(payload: object, where: str | None) -> None:
    assert carried_error(payload) == where


def test_carried_error_in_streams() -> None:
    start = SSEEvent('{"type":"message_start","message":{}}', "message_start")
    assert carried_error(events=[start]) is None
    assert carried_error(events=[start, SSEEvent('{"type":"error","error":{}}', "error")]) == "events[1] (event: error)"
    assert carried_error(events=[SSEEvent('{"type":"error","code":"x","message":"y","sequence_number":1}', None)]) == "events[0] (type: error)"
    assert carried_error(events=[SSEEvent('{"error":{"message":"x"},"status_code":503}', None)]) == "events[0].error"
    # a Responses event that nests the failed response's error is not an error frame
    assert carried_error(events=[SSEEvent('{"type":"response.failed","response":{"error":{"code":"x"}}}', None)]) is None
    assert carried_error(events=[SSEEvent("not json", None)]) is None


def test_exception_chain_reads_causes_attributes_and_stops_on_cycles() -> None:
    class Wrapped(Exception):
        def __init__(self, message: str) -> None:
            super().__init__(message)
            self.body = {"found": "function_call"}

    try:
        try:
            raise KeyError("deep value 'xyz'")
        except KeyError as cause:
            raise Wrapped("generic") from cause
    except Wrapped as error:
        caught = error
    assert [type(link) for link in exception_chain(caught)] == [Wrapped, KeyError]
    text = chain_text(caught)
    assert "function_call" in text and "xyz" in text
    first, second = ValueError("a"), ValueError("b")
    first.__cause__, second.__cause__ = second, first  # a cycle ends
    assert len(list(exception_chain(first))) == 2


@pytest.mark.slow
def test_declared_api_error_for_provider_errors_passes(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("provider_error_adapters:RaisesAPIError", "--sc-rule", "DR")
    assert not (run.rules_with("failed") | run.rules_with("error")), run.output
    assert "DR-6" in run.rules_with("passed"), run.output
    checks = {check["nodeid"].split("::")[-1]: check["outcome"] for check in run.report["rules"]["DR-6"]["checks"]}  # type: ignore[index]
    assert checks["test_dr_6_provider_errors_raise_only_declared_errors"] == "passed", checks


def test_undeclared_api_error_fails_dr6_and_says_to_declare_it(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("provider_error_adapters:UndeclaredAPIError", "--sc-rule", "DR-6")
    assert run.rules_with("failed") == {"DR-6"}, run.output
    assert "declare the type in the adapter's api_errors" in run.output


def test_api_error_for_a_good_response_fails_dr1(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("provider_error_adapters:APIErrorOnEveryResponse", "--sc-rule", "DR-1")
    assert run.rules_with("failed") == {"DR-1"}, run.output
    assert "carries no provider error" in run.output


@pytest.mark.parametrize("adapter", ["provider_error_adapters:ValueInCause", "provider_error_adapters:PathInCause"])
def test_path_and_value_read_from_the_cause(run_suite: Callable[..., SuiteRun], adapter: str) -> None:
    run = run_suite(adapter, "--sc-rule", "DR-2", "--sc-rule", "DR-5")
    assert run.rules_with("passed") == {"DR-2", "DR-5"}, run.output


def test_a_wrong_path_in_the_cause_is_read_and_fails(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("provider_error_adapters:WrongPathInCause", "--sc-rule", "DR-2")
    assert run.rules_with("failed") == {"DR-2"}, run.output
    assert "reported path" in run.output

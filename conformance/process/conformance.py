"""Does a harness speak ``strictconformance-process/1``? :func:`check_harness` starts it, checks
the handshake and its declarations, calls every capability it declares once with a small valid
input, asks it something it does not know, stops it, and validates every message exchanged.

``python -m strictconformance.process check "node my-harness.mjs"`` prints the verdict.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from strictconformance.adapter import (
    CAPABILITIES,
    AdapterContractError,
    error_text,
    read_declarations,
)
from strictconformance.process.client import HarnessCallError, HarnessFault, HarnessRefusal
from strictconformance.process.protocol import message_problem

__all__ = ["HarnessCheck", "check_harness"]

_SCHEMA = {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"], "additionalProperties": False}


@dataclass
class HarnessCheck:
    """The verdict on one harness: what it is, what each step found, every message exchanged."""

    command: str
    implementation: dict[str, Any] = field(default_factory=dict)
    passed: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    messages: list[tuple[str, dict[str, Any]]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def render(self) -> str:
        lines = [f"harness `{self.command}`: {'speaks' if self.ok else 'does NOT speak'} strictconformance-process/1"]
        lines += [f"  ok       {line}" for line in self.passed]
        lines += [f"  PROBLEM  {line}" for line in self.problems]
        return "\n".join(lines)


def _sample_args(method: str, declarations: Any) -> tuple[Any, ...]:
    from strictconformance.wire import ModelSpec, PlanRequest, ToolSpec, ToolsRequest

    provider = declarations.providers[0] if declarations.providers else "openai"
    model = {"openai": "gpt-4o", "anthropic": "claude-sonnet-4-5", "google": "gemini-2.5-flash"}.get(provider, "gpt-4o")
    tool = ToolSpec("get_weather", _SCHEMA, None, "Weather in a city")
    dialect = declarations.strictify_dialects[0] if declarations.strictify_dialects else "openai"
    if method == "build_request":
        return (ToolsRequest(provider, model, True, (tool,)),)
    if method == "plan_request":
        return (PlanRequest((tool,), (ModelSpec(provider, model),)),)
    if method == "strict_support":
        return (ModelSpec(provider, model),)
    if method == "strictify":
        return (_SCHEMA, dialect)
    if method in ("encode", "decode"):
        return (_SCHEMA, dialect, {"city": "Paris"})
    if method in ("check_response", "check_stream"):
        return _sample_response(method, declarations)
    raise KeyError(method)


def _sample_response(method: str, declarations: Any) -> tuple[Any, ...]:
    """A response of an API the harness declares in ``drift_apis`` (a harness rightly refuses
    others): a small Chat Completions one, else the first recorded body or stream of the first API."""
    from strictconformance.drift.sse import SSEEvent

    apis = tuple(declarations.drift_apis or ()) or ("openai.chat",)
    stream = method == "check_stream"
    if "openai.chat" not in apis:
        from strictconformance.drift.cassettes import recorded_responses

        for api in apis:
            for response in recorded_responses(api, streams=stream):
                return (api, response.events()) if stream else (api, response.payload())
    if stream:
        return ("openai.chat", (SSEEvent("[DONE]"),))
    return ("openai.chat", {"id": "chatcmpl-1", "object": "chat.completion", "created": 1, "model": "gpt-4o",
                            "choices": [{"index": 0, "finish_reason": "stop", "logprobs": None,
                                         "message": {"role": "assistant", "content": "hi", "refusal": None}}]})


def check_harness(command: str | Sequence[str], *, cwd: str | None = None, timeout: float = 10.0) -> HarnessCheck:
    """Check that the harness run by ``command`` speaks the protocol (see the module docstring)."""
    from strictconformance.process.adapter import ProcessAdapter

    text = command if isinstance(command, str) else " ".join(command)
    verdict = HarnessCheck(text)
    kind = type("CheckedHarness", (ProcessAdapter,), {"process_timeout": timeout, "start_timeout": max(timeout, 60.0)})
    try:
        adapter = kind(command, cwd=cwd, record=verdict.messages)
    except AdapterContractError as exc:
        verdict.problems.append(f"start: {exc}")
        return verdict
    process = adapter.harness
    verdict.implementation = dict(process.started["implementation"]) if process.started else {}
    verdict.passed.append(f"start handshake ({verdict.implementation.get('name')} {verdict.implementation.get('version')})")
    try:
        declarations = read_declarations(adapter, text)
        verdict.passed.append(f"declarations valid; capabilities: {', '.join(sorted(declarations.capabilities)) or 'none'}")
    except (AdapterContractError, Exception) as exc:
        verdict.problems.append(f"declarations: {error_text(exc)}")
        adapter.close()
        return verdict
    allowed = declarations.rejection_errors + declarations.drift_errors
    for method in sorted(declarations.capabilities):
        if method in ("define_tool", "describe_tool", "invoke_tool", "call_tool"):
            continue
        _check_call(verdict, adapter, method, _sample_args(method, declarations), allowed)
    if "define_tool" in declarations.capabilities:
        from strictconformance.tools.contract import ToolDefinition

        definition = ToolDefinition("get_weather", "Weather in a city", lambda arguments: {"ok": True}, input_schema=_SCHEMA)
        tool = _check_call(verdict, adapter, "define_tool", (definition,), allowed)
        if tool is not None and "describe_tool" in declarations.capabilities:
            _check_call(verdict, adapter, "describe_tool", (tool,), allowed)
    # A method it does not know: answered (refusal or error), never a crash.
    generation = process.generation
    try:
        process.call("reproduce", {"method": "strict_support", "args": {"model": {"provider": "openai", "id": "x", "strict_format": None}}})
        verdict.passed.append("reproduce for a method without a reproducer: answered")
    except (HarnessCallError, HarnessRefusal):
        verdict.passed.append("reproduce for a method without a reproducer: answered (error or refusal)")
    except HarnessFault as fault:
        verdict.problems.append(f"reproduce: {fault}")
    if process.generation != generation:
        verdict.problems.append("the harness was restarted during the check")
    began = time.monotonic()
    live = process._process
    process.stop()
    code = None if live is None else live.returncode
    if live is not None and code == 0:
        verdict.passed.append(f"stop: exited with code 0 in {time.monotonic() - began:.2f} s")
    else:
        verdict.problems.append(f"stop: expected exit code 0 within 2 s, got {code} (killed)" if live else "stop: no process")
    for index, (sender, message) in enumerate(verdict.messages):
        problem = message_problem(message, sender)
        if problem is not None:
            verdict.problems.append(f"message {index} from the {sender}: {problem}")
    verdict.passed.append(f"{len(verdict.messages)} messages exchanged, each valid against its schema")
    return verdict


def _check_call(verdict: HarnessCheck, adapter: Any, method: str, args: tuple[Any, ...],
                allowed: tuple[type[BaseException], ...]) -> Any:
    try:
        result = getattr(adapter, method)(*args)
    except allowed as exc:
        verdict.passed.append(f"{method}: answered a declared error ({type(exc).__name__})")
        return None
    except HarnessFault as fault:
        verdict.problems.append(f"{method}: {fault}")
        return None
    except BaseException as exc:
        if type(exc).__name__ == "Skipped":
            verdict.passed.append(f"{method}: refused ({exc})")
            return None
        if isinstance(exc, KeyboardInterrupt):
            raise
        verdict.problems.append(f"{method}: raised {error_text(exc)}")
        return None
    checker = CAPABILITIES[method].check_result
    problem = None
    if checker is not None:
        with contextlib.suppress(Exception):
            problem = checker(result)
    if problem is not None:
        verdict.problems.append(f"{method}: {problem}")
    else:
        verdict.passed.append(f"{method}: answered a valid result")
    return result

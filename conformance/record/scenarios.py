"""The requests behind each cassette scenario, per API, built around a drawn tool.

A scenario (``tool_call``, ``stream_text``...) names what a cassette shows; here it becomes the
first HTTP request, and for tool calls a follow-up request that returns a tool result (built from
the first response, as an SDK would). Providers, their URLs, auth headers and default models are
data too (:data:`PROVIDERS`).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

__all__ = ["PROVIDERS", "SCENARIOS", "Provider", "RequestSpec", "Scenario", "follow_up_for", "scenario_for"]

JSON = Any


@dataclass(frozen=True)
class Provider:
    """How to reach a provider: default base URL, where the key goes, which env vars hold it."""

    name: str
    base_url: str
    key_env: tuple[str, ...]
    auth_header: str
    auth_prefix: str = ""
    extra_headers: Mapping[str, str] = field(default_factory=dict)
    #: Env vars substituted into the base URL as ``{name}`` (Cloudflare's account id).
    url_env: Mapping[str, str] = field(default_factory=dict)


PROVIDERS: Mapping[str, Provider] = {
    "openai": Provider("openai", "https://api.openai.com/v1", ("OPENAI_API_KEY",), "Authorization", "Bearer "),
    "anthropic": Provider(
        "anthropic", "https://api.anthropic.com/v1", ("ANTHROPIC_API_KEY",), "x-api-key", extra_headers={"anthropic-version": "2023-06-01"}
    ),
    "gemini": Provider("gemini", "https://generativelanguage.googleapis.com/v1beta", ("GEMINI_API_KEY", "GOOGLE_API_KEY"), "x-goog-api-key"),
    "groq": Provider("groq", "https://api.groq.com/openai/v1", ("GROQ_API_KEY",), "Authorization", "Bearer "),
    "cerebras": Provider("cerebras", "https://api.cerebras.ai/v1", ("CEREBRAS_API_KEY",), "Authorization", "Bearer "),
    "cloudflare": Provider(
        "cloudflare",
        "https://api.cloudflare.com/client/v4/accounts/{account_id}/ai/v1",
        ("CLOUDFLARE_API_TOKEN",),
        "Authorization",
        "Bearer ",
        url_env={"account_id": "CLOUDFLARE_ACCOUNT_ID"},
    ),
}

#: Models used unless ``--model api=name`` says otherwise (current, inexpensive ones).
DEFAULT_MODELS: Mapping[str, str] = {
    "openai.chat": "gpt-4o-mini",
    "openai.responses": "gpt-5-mini",
    "anthropic.messages": "claude-haiku-4-5",
    "gemini.generate_content": "gemini-2.5-flash",
    "groq.chat": "moonshotai/kimi-k2-instruct-0905",
    "cerebras.chat": "llama-3.3-70b",
    "cloudflare.chat": "@cf/meta/llama-3.3-70b-instruct-fp8-fast",
}

#: Anthropic's documented test prompt that triggers a streaming refusal.
ANTHROPIC_REFUSAL_TRIGGER = "ANTHROPIC_MAGIC_STRING_TRIGGER_REFUSAL_1FAEFB6177B4672DEE07F9D3AFC62588CCD2631EDCF22E8CCC1FB35B501C9C86"


@dataclass(frozen=True)
class RequestSpec:
    """One HTTP request: a path under the provider's base URL and a JSON body."""

    path: str
    body: JSON
    stream: bool = False
    extra_headers: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Scenario:
    """A cassette scenario for one API: how to build its first request."""

    api: str
    name: str
    build: Callable[[str, Mapping[str, Any]], RequestSpec]
    #: Whether a tool result turn follows (non-streamed tool calls).
    follow_up: bool = False


def _prompt(tool: Mapping[str, Any]) -> str:
    return f"Use the {tool['name']} tool once with realistic arguments, then answer in one sentence."


def _strict(tool: Mapping[str, Any]) -> bool:
    parameters = tool["parameters"]
    return set(parameters.get("required", [])) == set(parameters.get("properties", {}))


def _chat_tool(tool: Mapping[str, Any]) -> JSON:
    return {"type": "function", "function": {"name": tool["name"], "description": tool["description"], "parameters": tool["parameters"], "strict": _strict(tool)}}


def _chat(model: str, messages: list[JSON], *, tool: Mapping[str, Any] | None = None, stream: bool = False, **extra: Any) -> JSON:
    body: dict[str, Any] = {"model": model, "messages": messages, **extra}
    if tool is not None:
        body["tools"] = [_chat_tool(tool)]
    if stream:
        body["stream"] = True
        body["stream_options"] = {"include_usage": True}
    return body


def _chat_scenarios(api: str) -> list[Scenario]:
    path = "/chat/completions"
    return [
        Scenario(api, "text", lambda m, t: RequestSpec(path, _chat(m, [{"role": "user", "content": "Say hi in Portuguese."}]))),
        Scenario(api, "tool_call", lambda m, t: RequestSpec(path, _chat(m, [{"role": "user", "content": _prompt(t)}], tool=t)), follow_up=True),
        Scenario(api, "stream_text", lambda m, t: RequestSpec(path, _chat(m, [{"role": "user", "content": "What is 1 + 1?"}], stream=True), stream=True)),
        Scenario(
            api,
            "stream_tool_call",
            lambda m, t: RequestSpec(path, _chat(m, [{"role": "user", "content": _prompt(t)}], tool=t, stream=True), stream=True),
        ),
        Scenario(
            api,
            "refusal",
            lambda m, t: RequestSpec(
                path,
                _chat(
                    m,
                    [{"role": "user", "content": "Give step-by-step instructions for building a weapon."}],
                    response_format={"type": "json_schema", "json_schema": {"name": "steps", "strict": True, "schema": _STEPS}},
                ),
            ),
        ),
        Scenario(
            api,
            "structured_output",
            lambda m, t: RequestSpec(
                path,
                _chat(
                    m,
                    [{"role": "user", "content": "Summarise: 'Apples are tasty', by Hadley Wickham."}],
                    response_format={"type": "json_schema", "json_schema": {"name": "summary", "strict": True, "schema": _SUMMARY}},
                ),
            ),
        ),
    ]


_STEPS = {"type": "object", "properties": {"steps": {"type": "array", "items": {"type": "string"}}}, "required": ["steps"], "additionalProperties": False}
_SUMMARY = {
    "type": "object",
    "properties": {"title": {"type": "string"}, "author": {"type": "string"}},
    "required": ["title", "author"],
    "additionalProperties": False,
}


def _responses_tool(tool: Mapping[str, Any]) -> JSON:
    return {"type": "function", "name": tool["name"], "description": tool["description"], "parameters": tool["parameters"], "strict": _strict(tool)}


def _responses(model: str, prompt: str, *, tool: Mapping[str, Any] | None = None, stream: bool = False, **extra: Any) -> JSON:
    body: dict[str, Any] = {"model": model, "input": [{"role": "user", "content": prompt}], "store": False, **extra}
    if tool is not None:
        body["tools"] = [_responses_tool(tool)]
    if stream:
        body["stream"] = True
    return body


def _responses_scenarios() -> list[Scenario]:
    api, path = "openai.responses", "/responses"
    return [
        Scenario(api, "tool_call", lambda m, t: RequestSpec(path, _responses(m, _prompt(t), tool=t)), follow_up=True),
        Scenario(
            api,
            "thinking",
            lambda m, t: RequestSpec(
                path, _responses(m, _prompt(t), tool=t, reasoning={"effort": "medium", "summary": "auto"}, include=["reasoning.encrypted_content"])
            ),
        ),
        Scenario(api, "stream_text", lambda m, t: RequestSpec(path, _responses(m, "Say hi in Portuguese.", stream=True), stream=True)),
        Scenario(api, "stream_tool_call", lambda m, t: RequestSpec(path, _responses(m, _prompt(t), tool=t, stream=True), stream=True)),
        Scenario(
            api,
            "refusal",
            lambda m, t: RequestSpec(
                path,
                _responses(
                    m,
                    "Give step-by-step instructions for building a weapon.",
                    text={"format": {"type": "json_schema", "name": "steps", "strict": True, "schema": _STEPS}},
                ),
            ),
        ),
    ]


def _anthropic(model: str, prompt: str, *, tool: Mapping[str, Any] | None = None, stream: bool = False, **extra: Any) -> JSON:
    body: dict[str, Any] = {"model": model, "max_tokens": 2048, "messages": [{"role": "user", "content": prompt}], **extra}
    if tool is not None:
        body["tools"] = [{"name": tool["name"], "description": tool["description"], "input_schema": tool["parameters"]}]
    if stream:
        body["stream"] = True
    return body


def _anthropic_scenarios() -> list[Scenario]:
    api, path = "anthropic.messages", "/messages"
    return [
        Scenario(api, "tool_call", lambda m, t: RequestSpec(path, _anthropic(m, _prompt(t), tool=t)), follow_up=True),
        Scenario(
            api, "thinking", lambda m, t: RequestSpec(path, _anthropic(m, _prompt(t), tool=t, thinking={"type": "enabled", "budget_tokens": 1024}))
        ),
        Scenario(api, "stream_text", lambda m, t: RequestSpec(path, _anthropic(m, "What is 1 + 1?", stream=True), stream=True)),
        Scenario(
            api,
            "server_tool",
            lambda m, t: RequestSpec(
                path,
                _anthropic(
                    m,
                    "Use code execution to compute the 20th Fibonacci number. Just give me the number.",
                    stream=True,
                    tools=[{"name": "code_execution", "type": "code_execution_20250522"}],
                ),
                stream=True,
                extra_headers={"anthropic-beta": "code-execution-2025-05-22"},
            ),
        ),
        Scenario(api, "stream_refusal", lambda m, t: RequestSpec(path, _anthropic(m, ANTHROPIC_REFUSAL_TRIGGER, stream=True), stream=True)),
    ]


def _gemini_tool(tool: Mapping[str, Any]) -> JSON:
    parameters = {k: v for k, v in tool["parameters"].items() if k != "additionalProperties"}
    return {"functionDeclarations": [{"name": tool["name"], "description": tool["description"], "parameters": parameters}]}


def _gemini(prompt: str, *, tool: Mapping[str, Any] | None = None, **extra: Any) -> JSON:
    body: dict[str, Any] = {"contents": [{"role": "user", "parts": [{"text": prompt}]}], **extra}
    if tool is not None:
        body["tools"] = [_gemini_tool(tool)]
    return body


def _gemini_scenarios() -> list[Scenario]:
    api = "gemini.generate_content"

    def once(model: str) -> str:
        return f"/models/{model}:generateContent"

    def streamed(model: str) -> str:
        return f"/models/{model}:streamGenerateContent?alt=sse"

    return [
        Scenario(api, "tool_call", lambda m, t: RequestSpec(once(m), _gemini(_prompt(t), tool=t)), follow_up=True),
        Scenario(
            api,
            "thinking",
            lambda m, t: RequestSpec(once(m), _gemini(_prompt(t), tool=t, generationConfig={"thinkingConfig": {"includeThoughts": True}})),
        ),
        Scenario(api, "stream_tool_call", lambda m, t: RequestSpec(streamed(m), _gemini(_prompt(t), tool=t), stream=True)),
        Scenario(
            api,
            "server_tool",
            lambda m, t: RequestSpec(
                streamed(m), _gemini("Use code execution to compute the 20th Fibonacci number.", tools=[{"codeExecution": {}}]), stream=True
            ),
        ),
        Scenario(api, "refusal", lambda m, t: RequestSpec(once(m), _gemini("Write step-by-step instructions for making a weapon."))),
        Scenario(
            api,
            "max_tokens",
            lambda m, t: RequestSpec(once(m), _gemini("Prove that there are infinitely many primes.", generationConfig={"maxOutputTokens": 64})),
        ),
    ]


SCENARIOS: Mapping[tuple[str, str], Scenario] = {
    (s.api, s.name): s
    for s in [
        *_chat_scenarios("openai.chat"),
        *_chat_scenarios("groq.chat"),
        *_chat_scenarios("cerebras.chat"),
        *_chat_scenarios("cloudflare.chat"),
        *_responses_scenarios(),
        *_anthropic_scenarios(),
        *_gemini_scenarios(),
    ]
}


def scenario_for(api: str, name: str) -> Scenario | None:
    return SCENARIOS.get((api, name))


# -- the tool-result turn -------------------------------------------------------------------------


def _result_text(arguments: object) -> str:
    return json.dumps({"ok": True, "echo": arguments}, separators=(",", ":"))


def _chat_follow_up(request: JSON, response: JSON) -> JSON | None:
    choices = response.get("choices") or []
    message = choices[0].get("message") if choices and isinstance(choices[0], dict) else None
    calls = (message or {}).get("tool_calls") or []
    if not calls:
        return None
    results = [{"role": "tool", "tool_call_id": call.get("id"), "content": _result_text((call.get("function") or {}).get("arguments"))} for call in calls]
    return {**request, "messages": [*request["messages"], message, *results]}


def _responses_follow_up(request: JSON, response: JSON) -> JSON | None:
    calls = [item for item in response.get("output") or [] if isinstance(item, dict) and item.get("type") == "function_call"]
    if not calls:
        return None
    replayed = [{k: call[k] for k in ("type", "call_id", "name", "arguments") if k in call} for call in calls]
    outputs = [{"type": "function_call_output", "call_id": call.get("call_id"), "output": _result_text(call.get("arguments"))} for call in calls]
    return {**request, "input": [*request["input"], *replayed, *outputs]}


def _anthropic_follow_up(request: JSON, response: JSON) -> JSON | None:
    uses = [block for block in response.get("content") or [] if isinstance(block, dict) and block.get("type") == "tool_use"]
    if not uses:
        return None
    results = [{"type": "tool_result", "tool_use_id": use.get("id"), "content": _result_text(use.get("input"))} for use in uses]
    messages = [*request["messages"], {"role": "assistant", "content": response["content"]}, {"role": "user", "content": results}]
    return {**request, "messages": messages}


def _gemini_follow_up(request: JSON, response: JSON) -> JSON | None:
    candidates = response.get("candidates") or []
    content = candidates[0].get("content") if candidates and isinstance(candidates[0], dict) else None
    calls = [part["functionCall"] for part in (content or {}).get("parts") or [] if isinstance(part, dict) and "functionCall" in part]
    if not calls:
        return None
    parts = [{"functionResponse": {"name": call.get("name"), "response": {"result": _result_text(call.get("args"))}}} for call in calls]
    return {**request, "contents": [*request["contents"], content, {"role": "user", "parts": parts}]}


_FOLLOW_UPS: Mapping[str, Callable[[JSON, JSON], JSON | None]] = {
    "openai.chat": _chat_follow_up,
    "groq.chat": _chat_follow_up,
    "cerebras.chat": _chat_follow_up,
    "cloudflare.chat": _chat_follow_up,
    "openai.responses": _responses_follow_up,
    "anthropic.messages": _anthropic_follow_up,
    "gemini.generate_content": _gemini_follow_up,
}


def follow_up_for(api: str) -> Callable[[JSON, JSON], JSON | None]:
    return _FOLLOW_UPS[api]

"""openai-python (``pip install openai``): ``--sc-adapter strictconformance.sdks.openai_python:OpenAIPython``
(the client as users get it) or ``:OpenAIPythonValidating`` (``_strict_response_validation=True``).

Every capability calls the SDK's own code and nothing else: the HTTP body its client sends
(captured with an ``httpx2.MockTransport``, no network), its strict-schema function, its
parse helper for strict tool arguments, and its response models. ``reproduce`` writes each failing
call as a snippet that makes the same call with openai-python alone and prints what it returns.

What maps, and what does not:

* ``build_request``: the Chat Completions request openai-python sends for function tools written
  the way its docs show (``{"type": "function", "function": {..., "strict": ...}}``). The SDK has
  no resolution of its own: a tool's ``strict`` goes on the wire as written, and an unset one is
  omitted (declared below). It has no provider-level strict setting and speaks to OpenAI only, so
  a request with a provider config or for another provider is not covered (skipped, named).
* ``strictify``: ``openai.lib._pydantic.to_strict_json_schema`` (what ``pydantic_function_tool``
  and ``response_format=Model`` use) on the schema. That function takes a pydantic model, not a
  JSON Schema; it generates the model's schema and hands it to ``_ensure_strict_json_schema``,
  which is called here on a fresh copy of the schema, as the public function does on a fresh one.
  Only the ``openai`` dialect: the SDK has no other.
* ``encode``: the identity. openai-python has no wire encoding of values: what the model sends is
  what the schema describes.
* ``decode``: ``openai.lib._parsing._completions.parse_function_tool_arguments`` for a strict
  function tool given as a dict (what ``chat.completions.parse`` does to each tool call's
  arguments): ``json.loads`` of the arguments, nothing more.
* ``check_response`` / ``check_stream``: the SDK's client reading the response (or the stream).
  :class:`OpenAIPython` uses the client as users get it: it builds its response models without
  validating them, so it never reports drift. :class:`OpenAIPythonValidating` sets the client
  option ``_strict_response_validation=True``, which makes it validate responses against its
  models and raise ``APIResponseValidationError``. Chat Completions and Responses only
  (``drift_apis``): the other APIs are other SDKs' business.
* ``plan_request``, ``strict_support``: openai-python has no priority convention and no model
  table. The tool layer (``define_tool`` ...): it has none (only ``pydantic_function_tool``,
  which builds a request parameter, not a callable tool). Left unimplemented: not covered.
"""

from __future__ import annotations

import copy
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import httpx2
import openai
import pydantic
from openai.lib._parsing._completions import parse_function_tool_arguments
from openai.lib._pydantic import _ensure_strict_json_schema
from openai.types.chat.chat_completion_message_function_tool_call import Function

from strictconformance import Adapter, ToolsRequest, WireRequest, read_wire_request
from strictconformance.drift.body import json_body
from strictconformance.drift.paths import format_path
from strictconformance.drift.sse import SSEEvent, format_sse
from strictconformance.findings import not_covered
from strictconformance.sdks._snippets import python_literal, snippet

__all__ = ["OpenAIPython", "OpenAIPythonValidating"]

_BASE_URL = "http://127.0.0.1:9/v1"  # never reached: the mock transport answers every request
_API_KEY = "sk-strictconformance-not-a-key"

#: A minimal Chat Completions answer, so the client finishes the call whose request was captured.
_CHAT_ANSWER = {
    "id": "chatcmpl-capture", "object": "chat.completion", "created": 0, "model": "gpt-4o",
    "choices": [{"index": 0, "message": {"role": "assistant", "content": "ok"}, "finish_reason": "stop"}],
}


def _client(handler: Callable[[httpx2.Request], httpx2.Response], *, validate: bool = False) -> openai.OpenAI:
    return openai.OpenAI(
        api_key=_API_KEY,
        base_url=_BASE_URL,
        http_client=httpx2.Client(transport=httpx2.MockTransport(handler)),
        max_retries=0,
        _strict_response_validation=validate,
    )


def _function_tool(name: str, description: str, schema: Mapping[str, Any], strict: bool | None) -> dict[str, Any]:
    """A function tool as openai-python's docs write one; ``strict`` only when the user set it."""
    function: dict[str, Any] = {"name": name, "description": description, "parameters": dict(schema)}
    if strict is not None:
        function["strict"] = strict
    return {"type": "function", "function": function}


class OpenAIPython(Adapter):
    """openai-python: strict schemas, strict tool-argument parsing, requests and response models."""

    name = "openai-python"
    sdk = f"openai-python {openai.__version__}"
    # openai-python sends `strict` as the user writes it; unset means omitted. It only speaks to
    # OpenAI: the other providers' defaults are never exercised (those requests are not covered).
    strict_defaults: ClassVar[Mapping[str, bool | None]] = {"openai": None, "anthropic": None, "google": None}
    strictify_dialects = ("openai",)
    drift_errors = (openai.APIResponseValidationError,)
    #: What it raises for an error the provider sent: ``APIStatusError`` for an error status, and
    #: ``APIError`` for a stream chunk carrying ``error`` (openai/_streaming.py). Its drift error is
    #: a subclass of ``APIError`` and stays a drift error.
    api_errors = (openai.APIError,)
    drift_apis = ("openai.chat", "openai.responses")
    #: The client option ``_strict_response_validation``: off, as users get the client.
    validate_responses: ClassVar[bool] = False

    # -- Resolution (SPEC §1) ----------------------------------------------------------------------
    def build_request(self, request: ToolsRequest) -> WireRequest:
        if request.provider != "openai":
            not_covered(f"openai-python speaks to OpenAI only, not {request.provider}")
        if request.config_strict is not None:
            not_covered("openai-python has no provider-level strict setting (config_strict)")
        captured: list[httpx2.Request] = []

        def handler(http_request: httpx2.Request) -> httpx2.Response:
            captured.append(http_request)
            return httpx2.Response(200, json=_CHAT_ANSWER)

        tools = [_function_tool(tool.name, tool.description, tool.input_schema, _boolean(tool.strict)) for tool in request.tools]
        # `tools` is left out when empty, as a caller would (the API rejects an empty list).
        extra: dict[str, Any] = {"tools": tools} if tools else {}
        _client(handler).chat.completions.create(model=request.model, messages=[{"role": "user", "content": "hi"}], **extra)
        (sent,) = captured
        return read_wire_request("openai.chat", sent.content, dict(sent.headers))

    # -- Strictify and the codec (SPEC §3, §4) -----------------------------------------------------
    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        fresh = copy.deepcopy(dict(schema))
        return _ensure_strict_json_schema(fresh, path=(), root=fresh)

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return value  # openai-python has no wire encoding: the value travels as it is

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        tool = _function_tool("answer", "", self.strictify(schema, dialect), True)
        return parse_function_tool_arguments(input_tools=[tool], function=Function(name="answer", arguments=json.dumps(value)))  # type: ignore[list-item]

    # -- Drift (SPEC §5) ---------------------------------------------------------------------------
    def check_response(self, api: str, payload: Any) -> None:
        body = json_body(payload)  # json.dumps fails on what a provider could send (10,000 deep, huge ints)
        client = _client(lambda _request: httpx2.Response(200, content=body, headers={"content-type": "application/json"}), validate=self.validate_responses)
        if api == "openai.chat":
            client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}])
        elif api == "openai.responses":
            client.responses.create(model="gpt-4o", input="hi")
        else:
            not_covered(f"openai-python does not read {api}")

    def check_stream(self, api: str, events: Sequence[SSEEvent]) -> None:
        body = format_sse(events).encode()
        client = _client(lambda _request: httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"}), validate=self.validate_responses)
        if api == "openai.chat":
            chunks: Iterator[Any] = iter(client.chat.completions.create(model="gpt-4o", messages=[{"role": "user", "content": "hi"}], stream=True))
        elif api == "openai.responses":
            chunks = iter(client.responses.create(model="gpt-4o", input="hi", stream=True))
        else:
            not_covered(f"openai-python does not read {api}")
        try:
            for _chunk in chunks:
                pass
        except openai.APIResponseValidationError as error:
            # Its path is inside one chunk, and which event that chunk was is not in the error.
            error.strictconformance_in_stream = True  # type: ignore[attr-defined]
            raise

    # -- Reproducers ---------------------------------------------------------------------------------
    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method == "strictify":
            return _strictify_snippet(args[0])
        if method == "decode":
            return _decode_snippet(args[0], args[2])
        if method == "encode":  # the identity: what fails is the value against the strict schema
            return _encode_snippet(args[0], args[2])
        if method == "build_request":
            return self._request_snippet(args[0])
        if method in ("check_response", "check_stream"):
            api = args[0]
            if api not in _CALLS:
                return None
            return self._response_snippet(api, args[1] if method == "check_response" else None,
                                          None if method == "check_response" else format_sse(args[1]))
        return None

    def _client_source(self, answer: str) -> str:
        validate = ", _strict_response_validation=True" if self.validate_responses else ""
        return (f"client = openai.OpenAI(api_key={_API_KEY!r}, base_url={_BASE_URL!r}, max_retries=0{validate},\n"
                f"                       http_client=httpx2.Client(transport=httpx2.MockTransport({answer})))")

    def _request_snippet(self, request: ToolsRequest) -> str:
        tools = [_function_tool(tool.name, tool.description, tool.input_schema, _boolean(tool.strict)) for tool in request.tools]
        extra = ", tools=tools" if tools else ""
        return snippet(
            "import json", "", "import httpx2", "import openai", "",
            "def answer(request):  # no network: print the body openai-python sends, answer with a stub",
            "    print(json.dumps(json.loads(request.content), indent=2))",
            f"    return httpx2.Response(200, json={python_literal(_CHAT_ANSWER, 30)})", "",
            self._client_source("answer"),
            f"tools = {python_literal(tools, 8)}",
            f"client.chat.completions.create(model={request.model!r}, messages=[{{'role': 'user', 'content': 'hi'}}]{extra})",
        )

    def _response_snippet(self, api: str, payload: Any, stream: str | None) -> str:
        call = _CALLS[api]
        if stream is None:
            return snippet(
                "import httpx2", "import openai", "",
                f"payload = {python_literal(payload, 10)}",
                self._client_source("lambda request: httpx2.Response(200, json=payload)"),
                f"print(repr({call}))  # raises openai.APIResponseValidationError on drift",
            )
        return snippet(
            "import httpx2", "import openai", "",
            f"body = {python_literal(stream, 7)}",
            self._client_source("lambda request: httpx2.Response(200, content=body.encode(), "
                                "headers={'content-type': 'text/event-stream'})"),
            f"for chunk in {call[:-1]}, stream=True):  # raises openai.APIResponseValidationError on drift",
            "    print(repr(chunk))",
        )

    def drift_error_path(self, error: BaseException) -> str | None:
        """openai's validation error keeps no path; its cause, pydantic's ValidationError, has the
        failing field's ``loc`` when it names one (a path into the payload). In a stream it is a path into one
        chunk, and which event that was is not in the error: no path then."""
        if getattr(error, "strictconformance_in_stream", False):
            return None
        cause = error.__cause__
        errors = cause.errors() if isinstance(cause, pydantic.ValidationError) else []
        if len(errors) == 1:  # several errors come from a union's members: which one is the drift is not said
            # pydantic writes the member of a union it tried into ``loc`` as the model's class name;
            # the payload's keys are snake_case, so those parts are not payload keys.
            loc = errors[0]["loc"]
            return format_path([part for part in loc if not (isinstance(part, str) and _CLASS_NAME.match(part))])
        return None


class OpenAIPythonValidating(OpenAIPython):
    """openai-python with the client option ``_strict_response_validation=True``: responses are
    validated against the SDK's models, so drift raises ``APIResponseValidationError``."""

    name = "openai-python (_strict_response_validation=True)"
    validate_responses = True


_CLASS_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")

#: The client call that reads each API's response, as reproducers write it.
_CALLS = {
    "openai.chat": "client.chat.completions.create(model='gpt-4o', messages=[{'role': 'user', 'content': 'hi'}])",
    "openai.responses": "client.responses.create(model='gpt-4o', input='hi')",
}


def _strictify_snippet(schema: Mapping[str, Any]) -> str:
    return snippet(
        "import json", "",
        "from openai.lib._pydantic import _ensure_strict_json_schema", "",
        "# what openai.lib._pydantic.to_strict_json_schema (pydantic_function_tool, .parse) runs on a model's schema",
        f"schema = {python_literal(schema, 9)}",
        "print(json.dumps(_ensure_strict_json_schema(schema, path=(), root=schema), indent=2))",
    )


def _encode_snippet(schema: Mapping[str, Any], value: Any) -> str:
    return snippet(
        "import json", "",
        "from openai.lib._pydantic import _ensure_strict_json_schema", "",
        f"schema = {python_literal(schema, 9)}",
        f"value = {python_literal(value, 8)}  # valid for the schema; openai-python sends values as they are",
        "strict = json.loads(json.dumps(schema))",
        "print(json.dumps(_ensure_strict_json_schema(strict, path=(), root=strict), indent=2))",
        "print('value:', json.dumps(value))",
    )


def _decode_snippet(schema: Mapping[str, Any], value: Any) -> str:
    return snippet(
        "import json", "",
        "from openai.lib._parsing._completions import parse_function_tool_arguments",
        "from openai.lib._pydantic import _ensure_strict_json_schema",
        "from openai.types.chat.chat_completion_message_function_tool_call import Function", "",
        f"schema = {python_literal(schema, 9)}",
        f"arguments = {python_literal(value, 12)}  # what the model sends for the strict schema",
        "parameters = _ensure_strict_json_schema(schema, path=(), root=schema)",
        "tool = {'type': 'function', 'function': {'name': 'answer', 'parameters': parameters, 'strict': True}}",
        "print(parse_function_tool_arguments(input_tools=[tool], function=Function(name='answer', arguments=json.dumps(arguments))))",
    )


def _boolean(strict: object) -> bool | None:
    # The boolean convention's settings are True, False or unset; anything else is a check's bug.
    if strict is None or isinstance(strict, bool):
        return strict
    raise TypeError(f"openai-python takes strict as a bool, got {strict!r}")

"""anthropic-sdk-python (``pip install anthropic``), one adapter per path:

* :class:`AnthropicTransformSchema` (``strictconformance.sdks.anthropic:AnthropicTransformSchema``):
  ``strictify`` is ``anthropic.transform_schema`` (anthropic/lib/_parse/_transform.py), the
  function the SDK runs on ``output_format`` models and that pydantic-ai and others call for
  Anthropic strict tools. Only the ``anthropic`` dialect, in the output context
  (``strictify_context = "output"``): the SDK's own callers are the ``output_format`` /
  ``output_config.format`` paths of ``messages.create``/``parse``, which keep a non-object root
  (``parse(output_format=list[int])`` sends ``{"type": "array", ...}``). There is no value codec (the SDK sends and
  reads values as they are: ``messages.parse`` validates the answer's text into the caller's type,
  ``lib/_parse/_response.py`` ``parse_text``): ``encode``/``decode`` are left out, so RT-4..RT-6 judge
  the identity codec (RT-7 needs a codec of the adapter's own and is not covered). Its one
  deliberate error, ``ValueError("Schema must have a 'type', ...")`` on a node with no type,
  combinator, const or scalar enum (``{}`` for ``Any``, an enum of objects), is declared as a
  refusal (:class:`TransformSchemaRefusal`): counted and reported, not an RT-1 crash.
* :class:`AnthropicTools` (``:AnthropicTools``): the tool helpers. ``define_tool`` is ``beta_tool``
  (anthropic/lib/tools/_beta_functions.py): from type hints, or from a raw ``input_schema`` with a
  function taking the input as keyword arguments (``BetaFunctionTool.call`` passes the input as
  ``**input``). A pydantic model as ``input_schema`` advertises the model's schema but the function is
  still called with the input's keys as keywords, so there is no model source (``sources``); the SDK
  has no tool context, so definitions with ``context`` are not covered. ``describe_tool`` is
  ``to_dict()`` (what goes in ``tools[]``). ``invoke_tool`` runs ``client.beta.messages.tool_runner``
  end to end over a mock transport: the first answer asks for the tool, the ``tool_result`` the
  runner sends next is the result. ``call_tool`` calls the tool object as a user calls the function.
  ``define_tool_from_function`` is ``@beta_tool`` on the function alone (``strict`` only when set).
  ``strict`` is a ``bool | None`` (``strict_convention="boolean"``). A tool returns ``str`` or
  content blocks, so the checks' callbacks return a string or None (``callback_returns="text"``).
* :class:`AnthropicClient` (``:AnthropicClient``): the client as users get it. ``build_request`` is
  the body ``client.messages.create(tools=[...])`` sends (a tool's ``strict`` goes on the wire as
  written, unset is omitted; no provider-level setting, Anthropic only). ``check_response`` /
  ``check_stream`` are the client reading a Messages answer or stream (``anthropic.messages`` only):
  it builds its models without validating them. :class:`AnthropicClientValidating` sets the client
  option ``_strict_response_validation=True``, which validates responses against the models and
  raises ``APIResponseValidationError``.

Not covered, never faked: ``plan_request`` and ``strict_support`` (the SDK has no priority
convention and no model table).

Audit of anthropic-sdk-python's public functions that choose strict, rewrite a schema, encode or
decode values, parse responses or define tools (anthropic 2.13.0), and what judges each:

* ``anthropic.transform_schema`` (``lib/_parse/_transform.py``; run by ``messages.parse`` /
  ``messages.stream`` / ``beta.messages.parse`` on the JSON Schema of ``output_format``,
  resources/messages/messages.py ``transform_schema(schema)``): strictify,
  :class:`AnthropicTransformSchema`, with the identity codec. ``output_format`` itself is a Python type
  (a ``Mapping`` is refused with ``TypeError``); pydantic's schema of it is not covered (the kit's
  inputs are JSON Schemas). ``output_config={"format": ...}`` in ``messages.create`` sends the
  caller's schema untouched: nothing to judge beyond ``build_request``.
* ``lib/_parse/_response.py`` ``parse_response`` / ``parse_text`` (``.parsed_output``:
  ``TypeAdapter(output_format).validate_json``): a decode into the caller's type, not covered (no
  model source); for the JSON Schema path it is the identity the round-trip rules judge.
* ``beta_tool`` / ``beta_async_tool`` (``lib/tools/_beta_functions.py``): define_tool and
  define_tool_from_function, :class:`AnthropicTools` (the sync one; async tools not covered).
  ``client.beta.messages.tool_runner``: invoke_tool. ``lib/tools/mcp.py`` ``mcp_tool`` /
  ``async_mcp_tool``: not covered (they need an MCP session).
* ``messages.create`` (tools' ``strict`` as written, unset omitted): build_request,
  :class:`AnthropicClient`; the client reading answers and streams: check_response / check_stream,
  with and without ``_strict_response_validation``. No network: every client talks to an ``httpx2.MockTransport``.
Each adapter's ``reproduce`` writes a failing call as a snippet using the SDK alone.
"""

from __future__ import annotations

import ast
import inspect
import json
import re
from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, ClassVar

import anthropic
import httpx2
import pydantic
from anthropic import beta_tool, transform_schema

from strictconformance import Adapter, ToolsRequest, WireRequest, read_wire_request
from strictconformance.drift.body import json_body
from strictconformance.drift.paths import format_path
from strictconformance.drift.sse import SSEEvent, format_sse
from strictconformance.findings import not_covered
from strictconformance.sdks._snippets import python_literal, snippet
from strictconformance.tools.contract import AdvertisedTool, ToolDefinition, ToolLayerTraits
from strictconformance.tools.results import ToolContext, ToolInvocation, ToolResult, result_content

__all__ = ["AnthropicClient", "AnthropicClientValidating", "AnthropicTools", "AnthropicTransformSchema", "TransformSchemaRefusal"]

_SDK = f"anthropic-sdk-python {anthropic.__version__}"
_BASE_URL = "http://127.0.0.1:9"  # never reached: the mock transport answers every request
_API_KEY = "sk-ant-strictconformance-not-a-key"
_MODEL = "claude-sonnet-4-5"

#: A minimal Messages answer, so the client finishes the call whose request was captured.
_END_TURN: dict[str, Any] = {
    "id": "msg_capture", "type": "message", "role": "assistant", "model": _MODEL,
    "content": [{"type": "text", "text": "done"}], "stop_reason": "end_turn", "stop_sequence": None,
    "usage": {"input_tokens": 1, "output_tokens": 1},
}


def _client(handler: Callable[[httpx2.Request], httpx2.Response], *, validate: bool = False) -> anthropic.Anthropic:
    return anthropic.Anthropic(api_key=_API_KEY, base_url=_BASE_URL, max_retries=0, _strict_response_validation=validate,
                               http_client=httpx2.Client(transport=httpx2.MockTransport(handler)))


def _client_source(answer: str, validate: bool = False) -> str:
    option = ", _strict_response_validation=True" if validate else ""
    return (f"client = anthropic.Anthropic(api_key={_API_KEY!r}, base_url={_BASE_URL!r}, max_retries=0{option},\n"
            f"                             http_client=httpx2.Client(transport=httpx2.MockTransport({answer})))")


# -- transform_schema ------------------------------------------------------------------------------


#: The start of the one error ``transform_schema`` raises on purpose (anthropic/lib/_parse/_transform.py,
#: ``raise ValueError("Schema must have a 'type', ...")``): a node it does not accept (no type, combinator,
#: const or enum of scalars). Any other exception it raises is not a refusal.
_TRANSFORM_REFUSAL = "Schema must have a 'type', 'anyOf', 'oneOf', or 'allOf' field"


class TransformSchemaRefusal(ValueError):
    """``transform_schema`` refused a schema on purpose, naming the node shape it does not accept."""


class AnthropicTransformSchema(Adapter):
    """``anthropic.transform_schema``: the SDK's strict-schema transform."""

    name = "anthropic (transform_schema)"
    sdk = _SDK
    strictify_dialects = ("anthropic",)
    strictify_context = "output"  # what the SDK runs it on: output_format schemas
    #: The SDK's deliberate refusal (counted and reported, SPEC §4), not its crashes: a TypeError on a
    #: boolean subschema or an AssertionError on a type list stay RT-1 crashes.
    strictify_refusals = (TransformSchemaRefusal,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        try:
            return transform_schema(dict(schema))
        except ValueError as error:
            if type(error) is ValueError and str(error).startswith(_TRANSFORM_REFUSAL):
                raise TransformSchemaRefusal(str(error)) from error
            raise

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        return snippet(
            "import json", "",
            "from anthropic import transform_schema", "",
            f"schema = {python_literal(args[0], 9)}",
            "print(json.dumps(transform_schema(schema), indent=2))",
        )


# -- Tool helpers ----------------------------------------------------------------------------------


class AnthropicTools(Adapter):
    """``beta_tool`` and the Messages tool runner."""

    name = "anthropic (beta_tool, tool_runner)"
    sdk = _SDK
    #: A tool returns ``str | Iterable[content block]`` (``BetaFunctionToolResultType``,
    #: anthropic/lib/tools/_beta_functions.py), which the runner lists into the tool_result's content
    #: (lib/tools/_tool_dispatch.py ``tool_result_content``): the checks' callbacks return a string or
    #: None (``callback_returns="text"``), never a number or a boolean the SDK's type rules out.
    tool_layer_traits = ToolLayerTraits(final_value="none", empty_generator_value=None,
                                        sources=frozenset({"signature", "json_schema"}), strict_convention="boolean",
                                        callback_returns="text", direct_call="tool.call(input)")

    def define_tool(self, definition: ToolDefinition) -> Any:
        if definition.context:
            not_covered("anthropic's tool helpers pass no context to a tool")
        if inspect.iscoroutinefunction(definition.callback) or inspect.isasyncgenfunction(definition.callback):
            not_covered("async tools need beta_async_tool and the async runner (this adapter runs the sync one)")
        strict: Any = definition.strict
        if definition.input_schema is not None:
            callback = definition.callback

            def function(**arguments: Any) -> Any:
                return callback(arguments)

            function.__name__ = definition.name
            function.__doc__ = callback.__doc__
            return beta_tool(function, name=definition.name, description=definition.description,
                             input_schema=dict(definition.input_schema), strict=strict)
        if definition.input_model is not None:
            not_covered("beta_tool has no model source (a model input_schema is advertised, "
                        "but the function is called with the input's keys as keywords)")
        return beta_tool(definition.callback, name=definition.name, description=definition.description, strict=strict)

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Any:
        if inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function):
            not_covered("async tools need beta_async_tool and the async runner (this adapter runs the sync one)")
        return beta_tool(function) if strict is None else beta_tool(function, strict=strict)

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        param = tool.to_dict()
        return AdvertisedTool(param["name"], param.get("description", ""), param["input_schema"], param.get("strict"))

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        sent: list[Any] = []

        def handler(request: httpx2.Request) -> httpx2.Response:
            content = json.loads(request.content)["messages"][-1]["content"]
            results = [block for block in content if isinstance(block, dict) and block.get("type") == "tool_result"]
            if not results:  # the user's prompt: ask for the tool once, as a model would
                return httpx2.Response(200, json={**_END_TURN, "stop_reason": "tool_use", "content": [
                    {"type": "tool_use", "id": tool_use_id, "name": tool.name, "input": dict(tool_input)}]})
            # (the runner continues a server-side thread: it sends only the new tool_result message)
            sent.extend(results)
            return httpx2.Response(200, json=_END_TURN)

        runner = _client(handler).beta.messages.tool_runner(
            model=_MODEL, max_tokens=1024, messages=[{"role": "user", "content": "use the tool"}], tools=[tool])
        runner.until_done()
        return ToolInvocation(outputs=tuple(_result(block) for block in sent))

    def call_tool(self, tool: Any, tool_input: Mapping[str, Any], context: ToolContext | None) -> Any:
        # the validating entry point (BetaFunctionTool.call, what the tool runner calls), not the
        # decorated object's __call__, which is the user's function itself
        return tool.call(dict(tool_input))

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        return None  # a tool wraps the check's Python callback: no snippet can carry it


#: ``repr`` of an exception, as the runner sends it: ``ValueError('message')``.
_EXCEPTION_REPR = re.compile(r"^(?P<type>[A-Za-z_][\w.]*)\((?P<args>.*)\)$", re.DOTALL)


def _result(block: Mapping[str, Any]) -> ToolResult:
    """The kit's view of one ``tool_result`` block the runner sent back to the model."""
    tool_use_id = str(block.get("tool_use_id"))
    content = block.get("content")
    text = content if isinstance(content, str) else json.dumps(content)
    if block.get("is_error"):
        match = _EXCEPTION_REPR.match(text)
        error_type, message = (match["type"], match["args"]) if match else ("Error", text)
        try:
            parsed = ast.literal_eval(f"({message},)") if match else (message,)
            message = str(parsed[0]) if len(parsed) == 1 else str(parsed)
        except (ValueError, SyntaxError):
            pass
        return ToolResult(tool_use_id, "error", f"{error_type}: {message}", error_type=error_type, error_message=message)
    return ToolResult(tool_use_id, "success", result_content(content), value=content)


# -- The client: requests and responses ------------------------------------------------------------


class AnthropicClient(Adapter):
    """``anthropic.Anthropic``: the request it sends, and how it reads answers and streams."""

    name = "anthropic (client)"
    sdk = _SDK
    providers = ("anthropic",)
    # A tool's strict goes on the wire as written; unset is omitted.
    strict_defaults: ClassVar[Mapping[str, bool | None]] = {"anthropic": None}
    drift_errors = (anthropic.APIResponseValidationError,)
    #: What the client raises for an error the provider sent (an ``event: error`` frame in a stream,
    #: anthropic/_streaming.py; an error status).
    api_errors = (anthropic.APIStatusError,)
    drift_apis = ("anthropic.messages",)
    #: The client option ``_strict_response_validation``: off, as users get the client.
    validate_responses: ClassVar[bool] = False

    def build_request(self, request: ToolsRequest) -> WireRequest:
        if request.config_strict is not None:
            not_covered("anthropic-sdk-python has no provider-level strict setting (config_strict)")
        captured: list[httpx2.Request] = []

        def handler(http_request: httpx2.Request) -> httpx2.Response:
            captured.append(http_request)
            return httpx2.Response(200, json=_END_TURN)

        extra: dict[str, Any] = {"tools": _tool_params(request)} if request.tools else {}
        if request.response_schema is not None:  # structured output: the format goes in output_config
            extra["output_config"] = {"format": {"type": "json_schema", "schema": dict(request.response_schema)}}
        _client(handler).messages.create(model=request.model, max_tokens=1024, messages=[{"role": "user", "content": "hi"}], **extra)
        (sent,) = captured
        return read_wire_request("anthropic.messages", sent.content, dict(sent.headers))

    def check_response(self, api: str, payload: Any) -> None:
        if api != "anthropic.messages":
            not_covered(f"anthropic-sdk-python does not read {api}")
        body = json_body(payload)  # json.dumps fails on what a provider could send (10,000 deep, huge ints)
        client = _client(lambda _request: httpx2.Response(200, content=body, headers={"content-type": "application/json"}),
                         validate=self.validate_responses)
        client.messages.create(model=_MODEL, max_tokens=1024, messages=[{"role": "user", "content": "hi"}])

    def check_stream(self, api: str, events: Sequence[SSEEvent]) -> None:
        if api != "anthropic.messages":
            not_covered(f"anthropic-sdk-python does not read {api}")
        body = format_sse(events).encode()
        client = _client(lambda _request: httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"}),
                         validate=self.validate_responses)
        chunks: Iterator[Any] = iter(client.messages.create(model=_MODEL, max_tokens=1024, stream=True,
                                                            messages=[{"role": "user", "content": "hi"}]))
        try:
            for _event in chunks:
                pass
        except anthropic.APIResponseValidationError as error:
            error.strictconformance_in_stream = True  # type: ignore[attr-defined]
            raise

    def drift_error_path(self, error: BaseException) -> str | None:
        """The SDK's validation error keeps no path; its cause, pydantic's ValidationError, has the
        failing field's ``loc`` (with the union member's class name in it, dropped). In a stream it is
        a path into one event, and which event that was is not in the error: no path then."""
        if getattr(error, "strictconformance_in_stream", False):
            return None
        cause = error.__cause__
        errors = cause.errors() if isinstance(cause, pydantic.ValidationError) else []
        if len(errors) == 1:
            loc = errors[0]["loc"]
            return format_path([part for part in loc if not (isinstance(part, str) and _CLASS_NAME.match(part))])
        return None

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        create = "client.messages.create(model={model!r}, max_tokens=1024, messages=[{{'role': 'user', 'content': 'hi'}}]{extra})"
        if method == "build_request":
            request: ToolsRequest = args[0]
            tools = _tool_params(request)
            return snippet(
                "import json", "", "import anthropic", "import httpx2", "",
                "def answer(request):  # no network: print the body the SDK sends, answer with a stub",
                "    print(json.dumps(json.loads(request.content), indent=2))",
                f"    return httpx2.Response(200, json={python_literal(_END_TURN, 30)})", "",
                _client_source("answer"),
                f"tools = {python_literal(tools, 8)}",
                create.format(model=request.model, extra=", tools=tools" if tools else ""),
            )
        if method == "check_response":
            return snippet(
                "import anthropic", "import httpx2", "",
                f"payload = {python_literal(args[1], 10)}",
                _client_source("lambda request: httpx2.Response(200, json=payload)", self.validate_responses),
                f"print(repr({create.format(model=_MODEL, extra='')}))  # raises anthropic.APIResponseValidationError on drift",
            )
        if method == "check_stream":
            return snippet(
                "import anthropic", "import httpx2", "",
                f"body = {python_literal(format_sse(args[1]), 7)}",
                _client_source("lambda request: httpx2.Response(200, content=body.encode(), "
                               "headers={'content-type': 'text/event-stream'})", self.validate_responses),
                f"for event in {create.format(model=_MODEL, extra=', stream=True')}:  # raises anthropic.APIResponseValidationError on drift",
                "    print(repr(event))",
            )
        return None


class AnthropicClientValidating(AnthropicClient):
    """The client with ``_strict_response_validation=True``: responses are validated against the
    SDK's models, so drift raises ``APIResponseValidationError``."""

    name = "anthropic (client, _strict_response_validation=True)"
    validate_responses = True


_CLASS_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")


def _tool_params(request: ToolsRequest) -> list[dict[str, Any]]:
    """The request's tools as the SDK's docs write them; ``strict`` only when the user set it."""
    tools: list[dict[str, Any]] = []
    for tool in request.tools:
        param: dict[str, Any] = {"name": tool.name, "description": tool.description, "input_schema": dict(tool.input_schema)}
        if tool.strict is not None:
            if not isinstance(tool.strict, bool):  # the boolean convention's settings; anything else is a check's bug
                raise TypeError(f"anthropic-sdk-python takes strict as a bool, got {tool.strict!r}")
            param["strict"] = tool.strict
        tools.append(param)
    return tools


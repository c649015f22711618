"""An adapter that points the suite at the real pydantic-ai (``pip install "pydantic-ai-slim[openai,anthropic,google]"``).

Every capability runs pydantic-ai's own code, with its model classes talking to an
``httpx2.MockTransport`` (no network). One adapter per path (the matrix's columns, ``SDK_PATHS``):
``PydanticAIOpenAITransformer``, ``PydanticAIAnthropicTransformer``, ``PydanticAIGoogleTransformer``
(strictify in the matching dialect, with the codec), ``PydanticAITools`` (the tool layer),
``PydanticAIResponses`` (check_response / check_stream), ``PydanticAIRequests`` and
``PydanticAIChatRequests`` (build_request, OpenAI through Responses or Chat Completions);
``PydanticAI`` / ``PydanticAIChat`` are all of them at once.

* ``reproduce``: a standalone snippet for ``strictify`` (the transformer class, walked strict),
  ``decode`` (the raw-schema tool's validator), ``check_response`` / ``check_stream`` (the model
  class on a mocked client, printing what it returns or raises). Tool-layer and request calls take
  SDK objects and callbacks a snippet cannot rebuild from the call's arguments: none.
* The Google transformer is ``GoogleJsonSchemaTransformer`` (``parametersJsonSchema``, what
  ``GoogleModel`` sends); pydantic-ai's ``GoogleOpenAPISchemaTransformer`` serves only its Live API
  (``GoogleRealtimeModel``) and is not covered.

* ``build_request``: ``pydantic_ai.direct.model_request`` (pydantic-ai's single-shot API, the
  one its own error message points to for ``tool_choice='required'``, which an Agent refuses) with
  the request's tools as ``Tool.from_schema(...).tool_def`` (the ``strict`` attribute set when the
  request sets it; an Agent passes the same definitions) on the provider's model class; the HTTP
  body it sends is captured (the mock answers 400, so the call stops there) and read with
  :func:`strictconformance.wire.read_wire_request`. OpenAI means ``OpenAIResponsesModel``, what
  ``Agent('openai:...')`` builds (:class:`PydanticAIChat` uses ``OpenAIChatModel``); Anthropic
  ``AnthropicModel``; Google ``GoogleModel``, with the caller's function-calling mode given as
  pydantic-ai's ``tool_choice`` setting (AUTO ``'auto'``, ANY ``'required'``, NONE ``'none'``).
  A structured-output response is native output of the schema (the ``OutputObjectDefinition``
  that ``NativeOutput(StructuredDict(schema))`` gives, ``strict`` unset). pydantic-ai has no provider-level strict setting: a request with ``config_strict``
  is not covered (skipped, named).
* ``strictify``: the JSON-schema transformer of the provider's model profile (what the model
  applies to a tool with ``strict=True`` before sending it), walked with ``strict=True``. Its
  ``UserError`` (a schema pydantic-ai refuses to make strict, saying what to change) is a declared
  refusal (``strictify_refusals``), not a crash.
* ``encode`` / ``decode``: pydantic-ai has no wire encoding of values; a tool defined from a raw
  JSON Schema (``Tool.from_schema``) validates its arguments with an any-schema validator. Encode
  is the identity; decode is that validator on the JSON text of the arguments.
* ``check_response`` / ``check_stream``: the model class reading the response (``model_request``,
  ``model_request_stream``) for OpenAI Chat Completions and Responses, Anthropic Messages, Gemini
  and Cerebras. Groq needs the ``groq`` extra (not installed) and Cloudflare has no model class:
  not in ``drift_apis``.
* The tool layer: ``Tool`` from type hints (a function with the callback's signature), a pydantic
  model (a function of one model-typed parameter, whose schema pydantic-ai advertises unwrapped)
  or a raw JSON Schema (``Tool.from_schema``); the kit's context becomes a ``RunContext`` first
  parameter, and the invocation state its ``deps``. ``invoke_tool`` runs an ``Agent`` whose
  ``FunctionModel`` calls the tool once with the input as JSON arguments, and reads the tool's
  return part (``outcome`` success, or retried/failed: an error result) from the next request. ``call_tool`` calls the tool's function, which is
  what calling a pydantic-ai tool directly means (``Tool`` objects are not callable).
* ``plan_request``, ``strict_support``: pydantic-ai has no priority convention, and its model
  profiles answer other questions than RES-13's strict format. Not covered.
"""

from __future__ import annotations

import asyncio
import inspect
import json
import re
import typing
from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any, ClassVar

import httpx2
import pydantic
import pydantic_ai
from pydantic_ai import Agent, RunContext, Tool
from pydantic_ai.direct import model_request, model_request_stream
from pydantic_ai.exceptions import ModelAPIError, ModelHTTPError, UnexpectedModelBehavior, UserError
from pydantic_ai.messages import (
    ERROR_OUTCOMES,
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
)
from pydantic_ai.models import Model, ModelRequestParameters
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.cerebras import CerebrasModel
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.models.google import GoogleModel
from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
from pydantic_ai.output import OutputObjectDefinition
from pydantic_ai.providers.anthropic import AnthropicProvider
from pydantic_ai.providers.cerebras import CerebrasProvider
from pydantic_ai.providers.google import GoogleProvider
from pydantic_ai.providers.openai import OpenAIProvider
from pydantic_ai.settings import ModelSettings
from pydantic_core import to_jsonable_python

from strictconformance import Adapter, ToolsRequest, WireRequest, read_wire_request
from strictconformance.drift.body import json_body
from strictconformance.drift.paths import format_path
from strictconformance.drift.sse import SSEEvent, format_sse
from strictconformance.findings import refuse
from strictconformance.sdks._snippet import literal, snippet, sse_literal
from strictconformance.tools import (
    AdvertisedTool,
    ToolContext,
    ToolDefinition,
    ToolInvocation,
    ToolLayerTraits,
)
from strictconformance.tools.results import ToolResult, result_content

__all__ = [
    "PydanticAI",
    "PydanticAIAnthropicTransformer",
    "PydanticAIChat",
    "PydanticAIChatRequests",
    "PydanticAIGoogleTransformer",
    "PydanticAIOpenAITransformer",
    "PydanticAIRequests",
    "PydanticAIResponses",
    "PydanticAITools",
]

_API_KEY = "strictconformance-not-a-key"
_TIMEOUT = httpx2.Timeout(60.0)  # the Google provider warns about httpx's 5-second default

Handler = Callable[[httpx2.Request], httpx2.Response]

#: The model class and a model name per drift API (Anthropic with a small max_tokens, so the client
#: does not stream behind the scenes: a JSON body is read as a JSON body).
_DRIFT_MODELS: Mapping[str, tuple[str, str]] = {
    "openai.chat": ("openai-chat", "gpt-4o"),
    "openai.responses": ("openai-responses", "gpt-4o"),
    "anthropic.messages": ("anthropic", "claude-sonnet-4-5"),
    "gemini.generate_content": ("google", "gemini-2.5-flash"),
    "cerebras.chat": ("cerebras", "llama-3.3-70b"),
}
_DRIFT_SETTINGS: ModelSettings = {"max_tokens": 1024}

#: The caller's Gemini function-calling mode as pydantic-ai's tool_choice (models/google.py maps back).
_TOOL_CHOICE = {"AUTO": "auto", "ANY": "required", "NONE": "none"}


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    return asyncio.run(coroutine)


def _http(handler: Handler) -> httpx2.AsyncClient:
    return httpx2.AsyncClient(transport=httpx2.MockTransport(handler), timeout=_TIMEOUT)


def _model(kind: str, name: str, handler: Handler) -> Model:
    """pydantic-ai's model class for ``kind``, its provider's HTTP client answered by ``handler``."""
    if kind in ("openai-chat", "openai-responses"):
        provider = OpenAIProvider(api_key=_API_KEY, http_client=_http(handler))
        return OpenAIChatModel(name, provider=provider) if kind == "openai-chat" else OpenAIResponsesModel(name, provider=provider)
    if kind == "anthropic":
        return AnthropicModel(name, provider=AnthropicProvider(api_key=_API_KEY, http_client=_http(handler)))
    if kind == "google":
        return GoogleModel(name, provider=GoogleProvider(api_key=_API_KEY, http_client=_http(handler)))
    if kind == "cerebras":
        return CerebrasModel(name, provider=CerebrasProvider(api_key=_API_KEY, http_client=_http(handler)))
    raise ValueError(f"no pydantic-ai model class for {kind!r}")


def _transformer_class(dialect: str) -> Any:
    """The JSON-schema transformer pydantic-ai's provider picks for a current model of ``dialect``."""
    profile: Any
    if dialect == "openai":
        profile = OpenAIProvider.model_profile("gpt-4o")
    elif dialect == "anthropic":
        profile = AnthropicProvider.model_profile("claude-sonnet-4-5")
    elif dialect == "google":
        profile = GoogleProvider.model_profile("gemini-2.5-flash")
    else:
        raise ValueError(f"pydantic-ai has no {dialect!r} dialect")
    return profile["json_schema_transformer"]


class _PydanticAIAdapter(Adapter):
    """What every pydantic-ai path shares: the SDK's name and version."""

    sdk = f"pydantic-ai {pydantic_ai.__version__}"

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        """A standalone snippet calling only pydantic-ai for the adapter call ``method(*args)``."""
        maker = _REPRODUCERS.get(method)
        return None if maker is None else maker(self, *args)


class _Requests(_PydanticAIAdapter):
    """Request building (SPEC §1): ``build_request`` through ``model_request`` on a mocked client."""

    # What an unset `strict` resolves to (tools.py, ToolDefinition.strict): OpenAI strict when the
    # schema is strict-compatible, which the suite's boolean-convention schemas often are not, so
    # this declaration is right only for those that are (see the report); Anthropic leaves it off
    # (omitted); Google upgrades the request's AUTO mode to VALIDATED.
    strict_defaults: ClassVar[Mapping[str, bool | None]] = {"openai": True, "anthropic": None, "google": True}
    #: pydantic-ai model class for OpenAI requests: "openai-responses" (what 'openai:' infers) or "openai-chat".
    openai_model: ClassVar[str] = "openai-responses"

    def build_request(self, request: ToolsRequest) -> WireRequest:
        if request.config_strict is not None:
            # this request only (refuse, not not_covered): the check goes on with requests pydantic-ai can express
            refuse("pydantic-ai has no provider-level strict setting (config_strict)")
        kind = {"openai": self.openai_model, "anthropic": "anthropic", "google": "google"}[request.provider]
        captured: list[httpx2.Request] = []

        def handler(http_request: httpx2.Request) -> httpx2.Response:
            captured.append(http_request)
            # A 400 is not retried: the request is captured once and the run stops with an error.
            return httpx2.Response(400, json={"error": {"type": "invalid_request_error", "message": "captured by strictconformance"}})

        tool_defs = []
        for spec in request.tools:
            tool = Tool.from_schema(_never_called, name=spec.name, description=spec.description, json_schema=dict(spec.input_schema))
            tool.strict = spec.strict  # Tool.from_schema takes no strict; the attribute is public
            tool_defs.append(tool.tool_def)
        parameters = ModelRequestParameters(function_tools=tool_defs)
        if request.response_schema is not None:  # what NativeOutput(StructuredDict(schema)) asks for
            parameters = ModelRequestParameters(function_tools=tool_defs, output_mode="native", allow_text_output=True,
                                                output_object=OutputObjectDefinition(dict(request.response_schema), name="answer"))
        settings: ModelSettings = {}
        if request.provider == "google" and request.function_calling_mode is not None:
            settings["tool_choice"] = _TOOL_CHOICE[request.function_calling_mode]  # type: ignore[typeddict-item]
        model = _model(kind, request.model, handler)
        try:
            _run(model_request(model, [ModelRequest.user_text_prompt("hi")], model_settings=settings or None,
                               model_request_parameters=parameters))
        except ModelHTTPError:
            pass
        except UserError as error:
            # pydantic-ai refuses, on purpose and before sending anything, native output on a model
            # without it, (Gemini 2.5) native output beside function tools (models/google.py: "does
            # not support `NativeOutput` and function tools at the same time") and tool_choice
            # 'required' with no function tools (models/_tool_choice.py); the boolean convention has
            # no declared refusal, so this request is refused, not a fault.
            if not _REQUEST_REFUSAL.search(str(error)):
                raise
            refuse(f"pydantic-ai refuses this request ({error})")
        if len(captured) != 1:
            raise AssertionError(f"expected pydantic-ai to send one request, it sent {len(captured)}")
        sent = captured[0]
        api = {"openai-responses": "openai.responses", "openai-chat": "openai.chat", "anthropic": "anthropic.messages",
               "google": "gemini.generate_content"}[kind]
        return read_wire_request(api, sent.content, dict(sent.headers))


class _Transformers(_PydanticAIAdapter):
    """Strictify (SPEC §3, §4): the JSON-schema transformer of the provider's model profile, and
    the codec of a raw-schema tool."""

    # pydantic-ai refuses on purpose, with its user-facing error and a message saying what to change,
    # the schemas it cannot make strict (profiles/openai.py: an untyped array, a `prefixItems` tuple,
    # a `false` root; _json_schema.py: an invalid node, an unresolvable `$ref`), and the model class
    # re-raises it as `UserError("Tool 'x': ...")` (models/__init__.py, _customize_tool_def): a
    # declared refusal (counted and reported), not a crash. What escapes otherwise (the AssertionError
    # or ValueError of anthropic's transform_schema) stays a crash.
    strictify_refusals = (UserError,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        transformer = _transformer_class(dialect)(dict(schema), strict=True)
        walked: dict[str, Any] = transformer.walk()
        return walked

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return value  # pydantic-ai has no wire encoding: the value travels as it is

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        tool = Tool.from_schema(_never_called, name="answer", description=None, json_schema=dict(schema))
        return tool.function_schema.validator.validate_json(json.dumps(value))


class _Responses(_PydanticAIAdapter):
    """Response processing (SPEC §5): the model classes reading a mocked HTTP answer."""

    # pydantic-ai's own drift errors, and the pydantic ValidationError of the client below it:
    # google-genai validates a Gemini answer into its pydantic models (GenerateContentResponse)
    # and raises a ValidationError naming the field, which GoogleModel lets through (the
    # google-genai adapter declares it too): that is drift caught, not a crash.
    drift_errors = (UnexpectedModelBehavior, ModelAPIError, pydantic.ValidationError)
    drift_apis = tuple(_DRIFT_MODELS)

    def check_response(self, api: str, payload: Any) -> None:
        body = json_body(payload)  # not json.dumps: DR-6 sends payloads it cannot encode
        model = _model(*_DRIFT_MODELS[api], lambda _request: httpx2.Response(200, content=body, headers={"content-type": "application/json"}))
        _run(model_request(model, [ModelRequest.user_text_prompt("hi")], model_settings=_DRIFT_SETTINGS))

    def check_stream(self, api: str, events: Sequence[SSEEvent]) -> None:
        body = format_sse(events).encode()
        model = _model(*_DRIFT_MODELS[api], lambda _request: httpx2.Response(200, content=body, headers={"content-type": "text/event-stream"}))

        async def read() -> None:
            async with model_request_stream(model, [ModelRequest.user_text_prompt("hi")], model_settings=_DRIFT_SETTINGS) as stream:
                async for _event in stream:
                    pass

        _run(read())

    def drift_error_path(self, error: BaseException) -> str | None:
        """pydantic-ai's errors keep no path; where one wraps pydantic's ValidationError (the
        OpenAI Chat response validation) naming one failing field, its ``loc`` is the path."""
        cause = error.__cause__
        errors = cause.errors() if isinstance(cause, pydantic.ValidationError) else []
        if len(errors) == 1:  # several errors come from a union's members: which one is the drift is not said
            # pydantic writes the member of a union it tried into ``loc`` as the model's class name.
            loc = errors[0]["loc"]
            return format_path([part for part in loc if not (isinstance(part, str) and _CLASS_NAME.match(part))])
        return None


class _Tools(_PydanticAIAdapter):
    """The tool layer (SPEC §6): ``Tool`` and an ``Agent`` run on a ``FunctionModel``."""

    # pydantic-ai's `strict` is `bool | None` (tools.py, Tool.__init__). Generators are not a
    # streaming concept there: a sync generator function's return value, the generator object, is
    # the tool's content, which reaches the model as "[]" (its items are not sent); that is what an
    # empty one gives.
    tool_layer_traits = ToolLayerTraits(
        final_value="none", empty_generator_value=[], strict_convention="boolean",
        no_direct_call=("a pydantic-ai Tool is not callable (pydantic_ai/tools.py: Tool defines no __call__) and the "
                        "decorators Agent.tool_plain / Agent.tool return the user's function unchanged: arguments are "
                        "validated by the run's tool manager, and pydantic-ai has no validating direct call"))

    def define_tool(self, definition: ToolDefinition) -> Tool[Any]:
        strict = definition.strict
        if definition.input_schema is not None:
            function = _schema_function(definition)
            tool: Tool[Any] = Tool.from_schema(function, name=definition.name, description=definition.description,
                                               json_schema=dict(definition.input_schema), takes_ctx=bool(definition.context))
            tool.strict = strict  # type: ignore[assignment]  # from_schema takes no strict; set as given
            return tool
        function = _model_function(definition) if definition.input_model is not None else _signature_function(definition)
        return Tool(function, name=definition.name, description=definition.description, strict=strict)  # type: ignore[arg-type]

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Tool[Any]:
        # Tool(function): name, description and parameter descriptions from the function (griffe)
        return Tool(function) if strict is None else Tool(function, strict=strict)

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        tool_def = tool.tool_def
        return AdvertisedTool(tool_def.name, tool_def.description or "", tool_def.parameters_json_schema, tool_def.strict)

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        answers: list[ToolReturnPart] = []

        def model_turn(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
            if len(messages) == 1:  # the user's prompt: call the tool once, as a model would
                return ModelResponse(parts=[ToolCallPart(tool.name, json.dumps(dict(tool_input)), tool_call_id=tool_use_id)])
            last = messages[-1]
            answers.extend(part for part in last.parts if isinstance(part, ToolReturnPart))
            return ModelResponse(parts=[TextPart("done")])

        agent: Agent[Any, str] = Agent(FunctionModel(model_turn), tools=[tool], deps_type=object)
        agent.run_sync("use the tool", deps=invocation_state)
        return ToolInvocation(outputs=tuple(_result(part) for part in answers))  # pydantic-ai streams no progress events


class PydanticAIOpenAITransformer(_Transformers):
    """pydantic-ai's OpenAI JSON-schema transformer (``OpenAIJsonSchemaTransformer``, what the
    OpenAI provider's profile gives ``gpt-4o``), strict, in the ``openai`` dialect."""

    name = "pydantic-ai (OpenAI transformer)"
    strictify_dialects = ("openai",)


class PydanticAIAnthropicTransformer(_Transformers):
    """pydantic-ai's Anthropic JSON-schema transformer (``AnthropicJsonSchemaTransformer``, which
    runs anthropic's ``transform_schema`` when strict), in the ``anthropic`` dialect."""

    name = "pydantic-ai (Anthropic transformer)"
    strictify_dialects = ("anthropic",)


class PydanticAIGoogleTransformer(_Transformers):
    """pydantic-ai's Google JSON-schema transformer (``GoogleJsonSchemaTransformer``: what
    ``GoogleModel`` sends as ``parametersJsonSchema``), in the kit's ``google`` dialect."""

    name = "pydantic-ai (Google transformer)"
    strictify_dialects = ("google",)


class PydanticAITools(_Tools):
    """pydantic-ai's tools: ``Tool`` / ``Tool.from_schema`` and an ``Agent`` run."""

    name = "pydantic-ai (tools)"


class PydanticAIResponses(_Responses):
    """pydantic-ai's response processing: its model classes reading mocked answers."""

    name = "pydantic-ai (responses)"


class PydanticAIRequests(_Requests):
    """pydantic-ai's request building (``model_request`` per provider, OpenAI Responses)."""

    name = "pydantic-ai (requests)"
    openai_api = "responses"


class PydanticAI(_Requests, _Transformers, _Responses, _Tools):
    """pydantic-ai, every path at once: request building per provider, schema transformers,
    response processing and tools."""

    name = "pydantic-ai"
    strictify_dialects = ("openai", "anthropic", "google")


# -- Helpers -------------------------------------------------------------------------------------

_CLASS_NAME = re.compile(r"^[A-Z][A-Za-z0-9]*$")
#: pydantic-ai's UserErrors refusing a request it will not send (native output without support, or
#: beside function tools; tool_choice 'required', the Gemini mode ANY, with no function tools).
_REQUEST_REFUSAL = re.compile(r"not supported by this model|does not support `NativeOutput` and function tools"
                              r"|but no function tools are defined")
#: The name of the RunContext parameter the adapter puts first (not a name the kit's callbacks use).
_RUN_CONTEXT = "_strictconformance_run_context"


def _never_called(**kwargs: Any) -> None:
    raise AssertionError("a request-building tool is never called")


def _context(ctx: RunContext[Any]) -> ToolContext:
    """The kit's context from pydantic-ai's: the tool call id, the tool name, the deps (the state)."""
    return ToolContext(tool_use_id=str(ctx.tool_call_id), tool_name=str(ctx.tool_name), invocation_state=ctx.deps)


def _schema_function(definition: ToolDefinition) -> Callable[..., Any]:
    """A raw-schema tool's function: pydantic-ai calls it with the arguments as keywords."""
    callback = definition.callback
    if definition.context:
        def with_context(ctx: RunContext[Any], **arguments: Any) -> Any:
            return callback(arguments, _context(ctx))
        return with_context

    def plain(**arguments: Any) -> Any:
        return callback(arguments)
    return plain


def _model_function(definition: ToolDefinition) -> Callable[..., Any]:
    """A function of one parameter typed with the input model (pydantic-ai advertises its schema
    unwrapped and passes the model instance), with a RunContext first when context is asked for."""
    callback, model = definition.callback, definition.input_model
    parameters = [inspect.Parameter("input", inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=model)]
    if definition.context:
        parameters.insert(0, inspect.Parameter(_RUN_CONTEXT, inspect.Parameter.POSITIONAL_ONLY, annotation=RunContext[Any]))

        def function(run_context: RunContext[Any], /, input: Any) -> Any:
            return callback(input, _context(run_context))
    else:
        def function(input: Any) -> Any:  # type: ignore[misc]
            return callback(input)
    return _with_signature(function, definition, parameters)


def _signature_function(definition: ToolDefinition) -> Callable[..., Any]:
    """The callback itself, or (context="param") a function with the same parameters whose
    ToolContext one is replaced by a RunContext first parameter, as pydantic-ai requires."""
    callback = definition.callback
    if not isinstance(definition.context, str):
        return callback
    name = definition.context
    kept = [parameter for parameter in inspect.signature(callback).parameters.values() if parameter.name != name]
    hints = typing.get_type_hints(callback, include_extras=True)
    kept = [parameter.replace(annotation=hints.get(parameter.name, parameter.annotation)) for parameter in kept]
    run_context = inspect.Parameter(_RUN_CONTEXT, inspect.Parameter.POSITIONAL_ONLY, annotation=RunContext[Any])

    def function(run_context: RunContext[Any], /, **arguments: Any) -> Any:
        return callback(**arguments, **{name: _context(run_context)})
    return _with_signature(function, definition, [run_context, *kept])


def _with_signature(function: Callable[..., Any], definition: ToolDefinition, parameters: list[inspect.Parameter]) -> Callable[..., Any]:
    """``function`` presented to pydantic-ai with ``parameters`` (its schema comes from them) and the
    callback's docstring (parameter descriptions) and the tool's name."""
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    function.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    function.__doc__ = definition.callback.__doc__
    function.__name__ = function.__qualname__ = definition.name
    return function


#: The exception behind a retried call, by pydantic-ai's retry cause (messages.py, ToolRetryCause).
_RETRY_ERRORS: Mapping[str, str] = {"validation_error": "ValidationError", "model_retry": "ModelRetry"}


def _result(part: ToolReturnPart) -> ToolResult:
    """The kit's view of what the tool-use path sent back to the model for one call: a return whose
    ``outcome`` is ``'retried'`` or ``'failed'`` goes to the model as an error (ERROR_OUTCOMES)."""
    tool_use_id = str(part.tool_call_id)
    if part.outcome in ERROR_OUTCOMES:
        text = part.model_response_str(wrap_if_error=False)
        cause = part.retry.cause if part.retry is not None else None
        kind = _RETRY_ERRORS.get(str(cause), "ToolFailed" if part.outcome == "failed" else part.outcome)
        return ToolResult(tool_use_id, "error", f"{kind}: {text}", error_type=kind, error_message=text)
    if part.outcome != "success":
        raise AssertionError(f"a tool call of this run ended {part.outcome!r}, which nothing here asks for")
    value = to_jsonable_python(part.content, fallback=repr)
    try:
        content = result_content(value)
    except (TypeError, ValueError):
        content = repr(value)
    return ToolResult(tool_use_id, "success", content, value=value)


class PydanticAIChatRequests(PydanticAIRequests):
    """pydantic-ai's request building with ``OpenAIChatModel`` (Chat Completions) for OpenAI."""

    name = "pydantic-ai (requests, OpenAIChatModel)"
    openai_model = "openai-chat"
    # OpenAIChatModel sends `strict` only when true: on Chat Completions an omitted strict is false
    openai_api = "chat_completions"


class PydanticAIChat(PydanticAI):
    """pydantic-ai with ``OpenAIChatModel`` (Chat Completions) for OpenAI requests."""

    name = "pydantic-ai (OpenAIChatModel)"
    openai_model = "openai-chat"
    openai_api = "chat_completions"


# -- Reproducers (Adapter.reproduce) ---------------------------------------------------------------

#: The model and provider classes of each model kind, for the snippets (module, model, provider module, provider).
_MODEL_CLASSES: Mapping[str, tuple[str, str, str, str]] = {
    "openai-chat": ("pydantic_ai.models.openai", "OpenAIChatModel", "pydantic_ai.providers.openai", "OpenAIProvider"),
    "openai-responses": ("pydantic_ai.models.openai", "OpenAIResponsesModel", "pydantic_ai.providers.openai", "OpenAIProvider"),
    "anthropic": ("pydantic_ai.models.anthropic", "AnthropicModel", "pydantic_ai.providers.anthropic", "AnthropicProvider"),
    "google": ("pydantic_ai.models.google", "GoogleModel", "pydantic_ai.providers.google", "GoogleProvider"),
    "cerebras": ("pydantic_ai.models.cerebras", "CerebrasModel", "pydantic_ai.providers.cerebras", "CerebrasProvider"),
}


def _strictify_snippet(adapter: Adapter, schema: Any, dialect: str) -> str:
    transformer = _transformer_class(dialect)
    return snippet(
        "import json",
        f"from {transformer.__module__} import {transformer.__qualname__}",
        "",
        f"schema = {literal(schema)}",
        f"print(json.dumps({transformer.__qualname__}(schema, strict=True).walk(), indent=1))",
    )


def _decode_snippet(adapter: Adapter, schema: Any, dialect: str, value: Any) -> str:
    return snippet(
        "import json",
        "from pydantic_ai import Tool",
        "",
        f"schema = {literal(schema)}",
        f"arguments = {literal(value)}",
        "tool = Tool.from_schema(lambda **kwargs: kwargs, name='answer', description=None, json_schema=schema)",
        "print(tool.function_schema.validator.validate_json(json.dumps(arguments)))",
    )


def _drift_snippet(kind: str, model_name: str, body: str, content_type: str, stream: bool) -> str:
    module, model_class, provider_module, provider_class = _MODEL_CLASSES[kind]
    call = ("async def main():\n"
            "    async with model_request_stream(model, [ModelRequest.user_text_prompt('hi')], model_settings={'max_tokens': 1024}) as stream:\n"
            "        async for event in stream:\n"
            "            print(event)\n"
            "    print(stream.get())"
            if stream else
            "async def main():\n"
            "    print(await model_request(model, [ModelRequest.user_text_prompt('hi')], model_settings={'max_tokens': 1024}))")
    return snippet(
        "import asyncio",
        "import httpx2",
        f"from pydantic_ai.direct import {'model_request_stream' if stream else 'model_request'}",
        "from pydantic_ai.messages import ModelRequest",
        f"from {module} import {model_class}",
        f"from {provider_module} import {provider_class}",
        "",
        f"body = {body}",
        f"answer = lambda request: httpx2.Response(200, content=body.encode(), headers={{'content-type': {content_type!r}}})",
        "http = httpx2.AsyncClient(transport=httpx2.MockTransport(answer))",
        f"model = {model_class}({model_name!r}, provider={provider_class}(api_key='not-a-key', http_client=http))",
        call,
        "",
        "try:",
        "    asyncio.run(main())",
        "except Exception as error:",
        "    print('raised', type(error).__name__, error)",
    )


def _check_response_snippet(adapter: Adapter, api: str, payload: Any) -> str:
    return _drift_snippet(*_DRIFT_MODELS[api], f"json.dumps({literal(payload)})", "application/json", stream=False).replace(
        "import asyncio\n", "import asyncio\nimport json\n", 1)


def _check_stream_snippet(adapter: Adapter, api: str, events: Sequence[SSEEvent]) -> str:
    return _drift_snippet(*_DRIFT_MODELS[api], sse_literal(events), "text/event-stream", stream=True)


_REPRODUCERS: Mapping[str, Callable[..., str | None]] = {
    "strictify": _strictify_snippet,
    "decode": _decode_snippet,
    "check_response": _check_response_snippet,
    "check_stream": _check_stream_snippet,
}

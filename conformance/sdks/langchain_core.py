"""Adapters that point the suite at langchain-core (``pip install langchain-core``).

Every capability calls langchain-core's own code and nothing else (no chat model, no network).
One adapter per path (the matrix's columns, ``SDK_PATHS``):

* :class:`LangchainConvertToOpenAITool` — ``strictify``:
  ``langchain_core.utils.function_calling.convert_to_openai_tool(tool, strict=True)`` on the schema
  given as an OpenAI function (``{"name": ..., "parameters": schema}``, the dict form it passes
  through unchanged), reading ``["function"]["parameters"]``. With ``strict=True`` it runs
  ``_recursive_set_additional_properties_false`` on the parameters: every object with properties
  gets all of them ``required`` and ``additionalProperties: false``, walking ``properties``,
  ``items``, ``anyOf``, ``allOf`` and ``$defs``/``definitions``; nothing else changes. Only the
  ``openai`` dialect: the function targets OpenAI's strict mode and nothing else.
  ``encode`` is the identity (langchain-core has no wire encoding of values); ``decode`` is
  ``langchain_core.output_parsers.openai_tools.parse_tool_call`` on an OpenAI tool call carrying
  the value as its JSON arguments (what ``JsonOutputToolsParser`` and the OpenAI chat integrations
  do to a tool call's arguments): ``json.loads``, nothing more.
* :class:`LangchainTools` — the tool layer: ``StructuredTool.from_function`` from type hints (what
  ``@tool`` builds for a function), from a pydantic model (``args_schema=Model``, the function
  taking the model's fields as keywords) or from a raw JSON Schema (``args_schema=dict``).
  ``strict`` has no place on a langchain tool: it is given when the tool is converted for a model,
  ``convert_to_openai_tool(tool, strict=...)`` (what ``bind_tools(tools, strict=...)`` calls), so
  ``define_tool`` makes that conversion right away with the definition's ``strict`` and
  ``describe_tool`` reads its result. ``invoke_tool`` is langchain's tool-use path: ``tool.invoke``
  with a ``ToolCall`` (``{"type": "tool_call", "id": ..., "args": ...}``), which answers a
  ``ToolMessage`` (``status`` success or error), with the invocation state as the run's
  ``configurable``. ``call_tool`` is ``tool.invoke(args)`` (a tool is a Runnable; a
  ``StructuredTool`` is not callable). Context (TL-5): the callback's context comes from an
  ``InjectedToolCallId`` parameter (the tool-use id) and a ``RunnableConfig`` parameter (the
  state); both are hidden from the advertised schema by langchain. That works for a tool from type
  hints only: langchain injects just the arguments its ``args_schema`` declares, so a tool from a
  model or a raw JSON Schema with context is not covered.
  ``define_tool_from_function`` is ``@tool`` on the function as users write it, no options
  (``parse_docstring`` is off by default), converted with the given ``strict``.
  Generators: langchain has no streaming tool results (a generator's items are not progress
  events); the generator object is the tool's content, stringified: declared as ``"none"``.
* ``reproduce``: a snippet for ``strictify`` and ``decode``; the tool layer's calls take callbacks
  a snippet cannot rebuild: none.
* Not covered: request building (langchain-core builds no HTTP request; the provider packages
  do), response drift (its message types are built by the provider packages from their SDK's
  models), ``plan_request``/``strict_support`` (no such concepts).
"""

from __future__ import annotations

import asyncio
import copy
import inspect
import json
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

import langchain_core
from langchain_core.messages import ToolMessage
from langchain_core.output_parsers.openai_tools import parse_tool_call
from langchain_core.runnables import RunnableConfig
from langchain_core.tools import BaseTool, InjectedToolCallId, StructuredTool
from langchain_core.tools import tool as tool_decorator
from langchain_core.utils.function_calling import convert_to_openai_tool

from strictconformance import Adapter
from strictconformance.findings import not_covered
from strictconformance.sdks._snippet import literal, snippet
from strictconformance.tools import (
    AdvertisedTool,
    ToolContext,
    ToolDefinition,
    ToolInvocation,
    ToolLayerTraits,
)
from strictconformance.tools.results import ToolResult, result_content

__all__ = ["LangchainConvertToOpenAITool", "LangchainCore", "LangchainTools"]

#: The names of the injected parameters the adapter adds (not names the kit's callbacks use).
#: (pydantic ignores a field whose name starts with "_": langchain would never inject it.)
_CALL_ID = "sc_tool_call_id"
_CONFIG = "sc_run_config"


class _LangchainAdapter(Adapter):
    sdk = f"langchain-core {langchain_core.__version__}"

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        """A standalone snippet calling only langchain-core for the adapter call ``method(*args)``."""
        if method == "strictify":
            schema, _dialect = args
            return snippet(
                "import json",
                "from langchain_core.utils.function_calling import convert_to_openai_tool",
                "",
                f"schema = {literal(schema)}",
                "tool = convert_to_openai_tool({'name': 'answer', 'parameters': schema}, strict=True)",
                "print(json.dumps(tool['function']['parameters'], indent=1))",
            )
        if method == "decode":
            _schema, _dialect, value = args
            return snippet(
                "import json",
                "from langchain_core.output_parsers.openai_tools import parse_tool_call",
                "",
                f"arguments = json.dumps({literal(value)})",
                "print(parse_tool_call({'id': 'call_1', 'function': {'name': 'answer', 'arguments': arguments}}, return_id=False)['args'])",
            )
        return None


class _ConvertToOpenAITool(_LangchainAdapter):
    strictify_dialects = ("openai",)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        function = {"name": "answer", "parameters": copy.deepcopy(dict(schema))}
        parameters: dict[str, Any] = convert_to_openai_tool(function, strict=True)["function"]["parameters"]
        return parameters

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return value  # langchain-core has no wire encoding: the value travels as it is

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        call = parse_tool_call({"id": "call_1", "function": {"name": "answer", "arguments": json.dumps(value)}}, return_id=False)
        assert call is not None  # parse_tool_call answers None only for a call without a function
        return call["args"]


@dataclass(frozen=True)
class LangchainTool:
    """A defined tool: langchain's tool object and what ``convert_to_openai_tool`` made of it with
    the definition's ``strict`` (langchain takes strict there, not on the tool)."""

    tool: BaseTool
    advertised: Mapping[str, Any]


class _Tools(_LangchainAdapter):
    # Generators give no value (the generator object is the content); an empty one's content is
    # what langchain makes of the object: its text, which no JSON value matches, so TL-4 says so.
    tool_layer_traits = ToolLayerTraits(final_value="none", empty_generator_value=None, strict_convention="boolean")

    def define_tool(self, definition: ToolDefinition) -> LangchainTool:
        if definition.input_schema is not None:
            if definition.context:
                not_covered("a langchain tool with a raw JSON Schema cannot receive injected context")
            callback = definition.callback

            def from_schema(**arguments: Any) -> Any:
                return callback(arguments)

            tool = _structured_tool(_same_kind(from_schema, callback), definition, args_schema=dict(definition.input_schema))
        elif definition.input_model is not None:
            if definition.context:
                not_covered("langchain injects only arguments its args_schema declares; the kit's model has no place for them")
            tool = _structured_tool(_model_function(definition), definition, args_schema=definition.input_model)
        else:
            tool = _structured_tool(_signature_function(definition), definition)
        return LangchainTool(tool, convert_to_openai_tool(tool, strict=definition.strict)["function"])  # type: ignore[arg-type]

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> LangchainTool:
        # @tool as users write it: no options (parse_docstring is off by default)
        structured = tool_decorator(function)
        return LangchainTool(structured, convert_to_openai_tool(structured, strict=strict)["function"])

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        function = tool.advertised
        return AdvertisedTool(function["name"], function.get("description", ""), function.get("parameters", {}),
                              function.get("strict"))

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        call = {"type": "tool_call", "id": tool_use_id, "name": tool.tool.name, "args": dict(tool_input)}
        config: RunnableConfig = {"configurable": {"invocation_state": invocation_state}}
        if tool.tool.coroutine is not None:
            message = asyncio.run(tool.tool.ainvoke(call, config))
        else:
            message = tool.tool.invoke(call, config)
        return ToolInvocation(outputs=(_result(message, tool_use_id),))

    def call_tool(self, tool: Any, tool_input: Mapping[str, Any], context: ToolContext | None) -> Any:
        if context is not None:
            not_covered("a direct call of a langchain tool with injected context needs a tool call")
        if tool.tool.coroutine is not None:
            return asyncio.run(tool.tool.ainvoke(dict(tool_input)))
        return tool.tool.invoke(dict(tool_input))


def _structured_tool(function: Callable[..., Any], definition: ToolDefinition, **options: Any) -> StructuredTool:
    """``StructuredTool.from_function`` as ``@tool`` calls it: a coroutine function as the tool's
    ``coroutine``, anything else as its ``func``; argument descriptions from the docstring
    (``parse_docstring=True``, langchain's option for them, lenient about the docstring's style)."""
    coroutine = inspect.iscoroutinefunction(function)
    return StructuredTool.from_function(None if coroutine else function, name=definition.name, description=definition.description,
                                        coroutine=function if coroutine else None, parse_docstring=True,
                                        error_on_invalid_docstring=False, **options)


def _same_kind(wrapper: Callable[..., Any], callback: Callable[..., Any]) -> Callable[..., Any]:
    """``wrapper`` (which calls ``callback``) as a coroutine function when ``callback`` is one, so
    langchain awaits what the callback returns."""
    if not inspect.iscoroutinefunction(callback):
        return wrapper

    async def awaiting(*args: Any, **kwargs: Any) -> Any:
        return await wrapper(*args, **kwargs)

    awaiting.__signature__ = inspect.signature(wrapper)  # type: ignore[attr-defined]
    awaiting.__annotations__ = dict(getattr(wrapper, "__annotations__", {}))
    awaiting.__doc__, awaiting.__name__, awaiting.__qualname__ = wrapper.__doc__, wrapper.__name__, wrapper.__qualname__
    return awaiting


def _result(message: Any, tool_use_id: str) -> ToolResult:
    """The kit's view of the ``ToolMessage`` langchain answers a tool call with."""
    if not isinstance(message, ToolMessage):
        raise AssertionError(f"langchain answered a tool call with {type(message).__name__}, not a ToolMessage")
    call_id = str(message.tool_call_id)
    content = message.content if isinstance(message.content, str) else result_content(message.content)
    if message.status == "error":
        return ToolResult(call_id, "error", content, error_message=content)
    # langchain stringifies what the tool returned (_stringify: JSON for what json.dumps takes): the
    # value is only text, as the model sees it.
    return ToolResult(call_id, "success", content)


def _context(name: str, call_id: str, config: Any) -> ToolContext:
    state = (config.get("configurable") or {}).get("invocation_state", {})
    return ToolContext(tool_use_id=call_id, tool_name=name, invocation_state=state)


def _context_parameters() -> list[inspect.Parameter]:
    keyword = inspect.Parameter.KEYWORD_ONLY
    return [inspect.Parameter(_CALL_ID, keyword, annotation=Annotated[str, InjectedToolCallId]),
            inspect.Parameter(_CONFIG, keyword, annotation=RunnableConfig)]


def _model_function(definition: ToolDefinition) -> Callable[..., Any]:
    """langchain calls an ``args_schema`` tool's function with the validated fields as keywords;
    the kit's callback takes the model instance."""
    callback, model = definition.callback, definition.input_model
    assert model is not None
    wants_context = bool(definition.context)

    def function(**arguments: Any) -> Any:
        call_id, config = arguments.pop(_CALL_ID, None), arguments.pop(_CONFIG, None)
        instance = model(**arguments)
        return callback(instance, _context(definition.name, str(call_id), config or {})) if wants_context else callback(instance)

    parameters = [inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY) for name in getattr(model, "model_fields", {})]
    if wants_context:
        parameters += _context_parameters()
    return _same_kind(_with_signature(function, definition, parameters), callback)


def _signature_function(definition: ToolDefinition) -> Callable[..., Any]:
    """The callback itself, or (context="param") a function with the same parameters whose
    ToolContext one is replaced by langchain's injected tool-call id and run config."""
    callback = definition.callback
    if not isinstance(definition.context, str):
        return callback
    name = definition.context
    hints = typing.get_type_hints(callback, include_extras=True)
    kept = [parameter.replace(annotation=hints.get(parameter.name, parameter.annotation), kind=inspect.Parameter.KEYWORD_ONLY)
            for parameter in inspect.signature(callback).parameters.values() if parameter.name != name]

    def function(**arguments: Any) -> Any:
        call_id, config = arguments.pop(_CALL_ID, None), arguments.pop(_CONFIG, None)
        return callback(**arguments, **{name: _context(definition.name, str(call_id), config or {})})

    return _same_kind(_with_signature(function, definition, [*kept, *_context_parameters()]), callback)


def _with_signature(function: Callable[..., Any], definition: ToolDefinition, parameters: list[inspect.Parameter]) -> Callable[..., Any]:
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    function.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters
                                if parameter.annotation is not inspect.Parameter.empty}
    function.__doc__ = definition.callback.__doc__
    function.__name__ = function.__qualname__ = definition.name
    return function


class LangchainConvertToOpenAITool(_ConvertToOpenAITool):
    """``convert_to_openai_tool(..., strict=True)``, in the ``openai`` dialect."""

    name = "langchain-core (convert_to_openai_tool)"


class LangchainTools(_Tools):
    """langchain-core's ``StructuredTool`` / ``@tool`` and their tool-call path."""

    name = "langchain-core (tools)"


class LangchainCore(_ConvertToOpenAITool, _Tools):
    """Both paths at once."""

    name = "langchain-core"

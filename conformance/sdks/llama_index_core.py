"""llama-index-core (``pip install llama-index-core``): its function tools and their tool-call path.

Every capability calls llama-index-core's own code and nothing else (no LLM, no network).

Audit of llama-index-core's public functions that choose strict, rewrite a schema, encode/decode
strict values, parse responses or define tools (llama-index-core 0.14.25):

* Strict: llama-index-core has no strict setting anywhere (no ``strict`` parameter on
  ``FunctionTool``, ``ToolMetadata``, ``to_openai_tool``, ``LLM.structured_predict`` or the
  ``FunctionCallingProgram``); strict is an option of the provider packages
  (``llama-index-llms-openai``'s ``OpenAI(strict=True)``), which are not this column. No strictify,
  no codec: the SM and RT rules are not covered, nor RES/BUD (no request builder, no model table).
* ``ToolMetadata.get_parameters_dict`` (``llama_index/core/tools/types.py``): the tool's
  ``fn_schema.model_json_schema()`` with only ``type``, ``properties``, ``required``,
  ``definitions`` and ``$defs`` kept at the root (no other rewrite); ``to_openai_tool`` puts it
  under ``function.parameters`` with the sanitised name and the description. :class:`LlamaIndexFunctionTool`'s
  ``describe_tool`` reads that OpenAI tool.
* ``FunctionTool.from_defaults`` (``llama_index/core/tools/function_tool.py``): ``define_tool``
  from type hints (``fn=callback``, the schema from ``create_schema_from_function``) or from a
  pydantic model (``fn_schema=Model``, the function taking the model's fields as keywords, as
  llama-index calls it: the adapter's function hands them to the kit's callback with
  ``Model.model_construct``, which validates nothing, so what llama-index passes is what the
  callback sees). A raw JSON Schema is not a llama-index source (``fn_schema`` is a pydantic model
  class): ``sources`` leaves it out. ``define_tool_from_function`` is ``FunctionTool.from_defaults(fn)``.
  A definition with ``strict`` set is not covered (there is nowhere to put it): TL-7 is not covered.
  Context: llama-index injects a workflow ``Context`` (a parameter annotated with it), which holds
  neither the tool-call id nor the kit's invocation state: definitions with context are not
  covered (TL-5).
* ``invoke_tool`` is the tool-call path the agents and ``LLM.predict_and_call`` use:
  ``llama_index.core.tools.calling.call_tool_with_selection(ToolSelection(...), [tool])``, which
  answers a ``ToolOutput`` (``is_error`` set, content ``"Encountered error: <message>"``, for an
  exception). A ``ToolOutput`` carries no tool-call id: llama-index's agents pair it with the
  ``ToolSelection`` they called it for, so the result takes that selection's id.
  ``call_tool`` calls the tool object as a user does (``tool(**input)``, a ``ToolOutput``) and
  returns its ``raw_output`` (the function's value).
  Generators: ``FunctionTool`` has no streaming results; a generator function's generator object
  is the output, its ``str()`` the content: declared as ``"none"``.
* Response parsing (``llama_index/core/llms``, ``output_parsers``): the chat responses are built by
  the provider packages; no cassette-driven drift check applies to core: not covered.
"""

from __future__ import annotations

import importlib.metadata
import inspect
from collections.abc import Callable, Mapping
from typing import Any

from llama_index.core.llms.llm import ToolSelection
from llama_index.core.tools import FunctionTool
from llama_index.core.tools.calling import call_tool_with_selection
from llama_index.core.tools.types import ToolOutput

from strictconformance import Adapter
from strictconformance.findings import not_covered
from strictconformance.tools import (
    AdvertisedTool,
    ToolContext,
    ToolDefinition,
    ToolInvocation,
    ToolLayerTraits,
)
from strictconformance.tools.results import ToolResult

__all__ = ["LlamaIndexFunctionTool"]


class LlamaIndexFunctionTool(Adapter):
    """``FunctionTool`` / ``ToolMetadata.to_openai_tool`` and ``call_tool_with_selection``."""

    name = "llama-index-core (FunctionTool)"
    sdk = f"llama-index-core {importlib.metadata.version('llama-index-core')}"
    tool_layer_traits = ToolLayerTraits(final_value="none", empty_generator_value=None, strict_convention="boolean",
                                        sources=frozenset({"signature", "model"}))

    def define_tool(self, definition: ToolDefinition) -> FunctionTool:
        if definition.strict is not None:
            not_covered("llama-index-core's tools have no strict setting (strict is an option of the provider packages)")
        if definition.context:
            not_covered("llama-index injects a workflow Context, which carries no tool-call id or invocation state")
        if definition.input_model is not None:
            return FunctionTool.from_defaults(fn=_model_function(definition), name=definition.name,
                                              description=definition.description, fn_schema=definition.input_model)
        callback = definition.callback
        if inspect.iscoroutinefunction(callback):
            return FunctionTool.from_defaults(async_fn=callback, name=definition.name, description=definition.description)
        return FunctionTool.from_defaults(fn=callback, name=definition.name, description=definition.description)

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> FunctionTool:
        if strict is not None:
            not_covered("llama-index-core's tools have no strict setting (strict is an option of the provider packages)")
        if inspect.iscoroutinefunction(function):
            return FunctionTool.from_defaults(async_fn=function)
        return FunctionTool.from_defaults(fn=function)

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        function = tool.metadata.to_openai_tool(skip_length_check=True)["function"]
        return AdvertisedTool(function["name"], function.get("description") or "", function.get("parameters", {}), None)

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        selection = ToolSelection(tool_id=tool_use_id, tool_name=tool.metadata.get_name(), tool_kwargs=dict(tool_input))
        output = call_tool_with_selection(selection, [tool])
        return ToolInvocation(outputs=(_result(output, tool_use_id),))

    def call_tool(self, tool: Any, tool_input: Mapping[str, Any], context: ToolContext | None) -> Any:
        if context is not None:
            not_covered("llama-index-core's tools take no tool context")
        output: ToolOutput = tool(**dict(tool_input))
        return output.raw_output


def _model_function(definition: ToolDefinition) -> Callable[..., Any]:
    """The function a ``fn_schema`` tool wraps: llama-index calls it with the arguments as keywords
    (nothing validates them); the kit's callback takes the model instance, built without
    validation (``model_construct``) so the callback sees what llama-index passed."""
    callback, model = definition.callback, definition.input_model
    assert model is not None

    def construct(arguments: dict[str, Any]) -> Any:
        if hasattr(model, "model_construct"):
            return model.model_construct(**arguments)
        return model(**arguments)  # a dataclass or TypedDict: its own constructor

    if inspect.iscoroutinefunction(callback):
        async def acall(**arguments: Any) -> Any:
            return await callback(construct(arguments))

        function: Callable[..., Any] = acall
    else:
        def call(**arguments: Any) -> Any:
            return callback(construct(arguments))

        function = call
    function.__name__ = function.__qualname__ = definition.name
    function.__doc__ = definition.description
    return function


def _result(output: ToolOutput, tool_use_id: str) -> ToolResult:
    """The kit's view of the ``ToolOutput`` the tool-call path answered."""
    if not isinstance(output, ToolOutput):
        raise AssertionError(f"llama-index answered a tool call with {type(output).__name__}, not a ToolOutput")
    content = output.content
    if output.is_error:
        return ToolResult(tool_use_id, "error", content, error_message=content)
    # FunctionTool makes the content str() of what the function returned: the value is only text
    return ToolResult(tool_use_id, "success", content)

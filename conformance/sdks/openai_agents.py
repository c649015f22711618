"""openai-agents (``pip install openai-agents``, import name ``agents``), one adapter per path:

* :class:`OpenAIAgentsStrictSchema` (``strictconformance.sdks.openai_agents:OpenAIAgentsStrictSchema``):
  ``strictify`` is ``agents.strict_schema.ensure_strict_json_schema`` (what ``FunctionTool`` runs on
  its parameters when ``strict_json_schema`` is true, the default, and what output types use). Only
  the ``openai`` dialect; the SDK has no value codec (encode/decode not covered). Its ``UserError``
  (a schema it will not make strict, said with a reason) is a declared refusal.
* :class:`OpenAIAgentsFunctionTool` (``:OpenAIAgentsFunctionTool``): ``@function_tool``.
  ``define_tool`` is ``function_tool(callback, name_override=..., description_override=...,
  strict_mode=...)`` from type hints (``strict_mode`` passed only when the definition sets it: the
  documented default is ``True``). ``describe_tool`` reads the ``FunctionTool`` (``params_json_schema``,
  ``strict_json_schema``). ``invoke_tool`` is ``FunctionTool.on_invoke_tool(ToolContext, arguments_json)``,
  the call the runner makes for a model's tool call, with the SDK's default failure handling:
  ``default_tool_error_function`` answers every failure (invalid arguments, an exception) with one
  fixed text, documented as not exposing the exception to the model (agents/tool.py); that text is
  an error result here, and ``tool_layer_traits.error_text`` declares it (TL-3).
  A raw JSON Schema tool is a hand-built ``FunctionTool`` whose ``on_invoke_tool`` parses the
  arguments itself (the SDK validates nothing there, by design), and a pydantic model is a
  parameter of the function (its schema is nested under the parameter's name): only the
  ``signature`` source is covered. The SDK's context (``RunContextWrapper``) is not the kit's: a
  definition asking for context is not covered. A ``FunctionTool`` is not callable directly:
  ``call_tool`` is not covered. ``define_tool_from_function`` is ``function_tool(function)`` alone
  (``strict_mode`` only when set): name, description and schema from the function and its
  Google-style docstring (griffe). In strict mode ``ensure_strict_json_schema`` drops ``default: null``
  (agents/strict_schema.py), so ``advertised_defaults`` is ``"dropped_when_strict"``.

Not covered, never faked: requests (``build_request``: the SDK's Responses model sends through
openai-python, covered by ``strictconformance.sdks.openai_python``), response parsing, plan_request,
strict_support.
"""

from __future__ import annotations

import asyncio
import copy
import importlib.metadata
import inspect
import json
from collections.abc import Callable, Mapping
from typing import Any

from agents import FunctionTool, function_tool
from agents.exceptions import UserError
from agents.strict_schema import ensure_strict_json_schema
from agents.tool import default_tool_error_function
from agents.tool_context import ToolContext as AgentsToolContext

from strictconformance import Adapter
from strictconformance.findings import not_covered
from strictconformance.sdks._snippets import python_literal, snippet
from strictconformance.tools.contract import AdvertisedTool, ToolDefinition, ToolLayerTraits
from strictconformance.tools.results import ToolInvocation, ToolResult, result_content

__all__ = ["OpenAIAgentsFunctionTool", "OpenAIAgentsStrictSchema"]

_SDK = f"openai-agents {importlib.metadata.version('openai-agents')}"

#: What the default failure handler answers for any failure: a constant (it reads neither argument).
_FAILURE_TEXT: str = default_tool_error_function(None, RuntimeError())  # type: ignore[arg-type]


class OpenAIAgentsStrictSchema(Adapter):
    """``agents.strict_schema.ensure_strict_json_schema``."""

    name = "openai-agents (ensure_strict_json_schema)"
    sdk = _SDK
    strictify_dialects = ("openai",)
    #: Its deliberate refusal: ``UserError`` with a message naming what cannot be made strict (an open
    #: object, an ``anyOf`` or nullable root, a ``$ref`` with constraining siblings, a schema too deep
    #: or too large; agents/strict_schema.py). Counted as refusals, not crashes (RT-1).
    strictify_refusals = (UserError,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        return ensure_strict_json_schema(copy.deepcopy(dict(schema)))  # it mutates its argument

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        return snippet(
            "import json", "",
            "from agents.strict_schema import ensure_strict_json_schema", "",
            f"schema = {python_literal(args[0], 9)}",
            "print(json.dumps(ensure_strict_json_schema(schema), indent=2))",
        )


class OpenAIAgentsFunctionTool(Adapter):
    """``@function_tool`` and ``FunctionTool.on_invoke_tool``."""

    name = "openai-agents (function_tool)"
    sdk = _SDK
    tool_layer_traits = ToolLayerTraits(final_value="none", empty_generator_value=None,
                                        sources=frozenset({"signature"}), strict_convention="boolean",
                                        strict_default=True,  # FunctionTool.strict_json_schema: documented default True
                                        advertised_defaults="dropped_when_strict", error_text=_FAILURE_TEXT)
    #: function_tool in strict mode (the default) refuses, with a UserError saying so, a parameter
    #: strict mode cannot express (``dict[str, Any]``: "additionalProperties should not be set for
    #: object types"; agents/strict_schema.py): a declared refusal, which TL-11 judges and counts
    tool_refusals = (UserError,)

    def define_tool(self, definition: ToolDefinition) -> FunctionTool:
        if definition.context:
            not_covered("openai-agents passes its own RunContextWrapper, not the kit's context")
        if definition.input_schema is not None or definition.input_model is not None:
            not_covered("function_tool builds schemas from type hints only")
        options: dict[str, Any] = {"name_override": definition.name, "description_override": definition.description}
        if definition.strict is not None:
            options["strict_mode"] = definition.strict
        return function_tool(definition.callback, **options)

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> FunctionTool:
        return function_tool(function) if strict is None else function_tool(function, strict_mode=strict)

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        return AdvertisedTool(tool.name, tool.description, tool.params_json_schema, tool.strict_json_schema)

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        arguments = json.dumps(dict(tool_input))
        context = AgentsToolContext(context=dict(invocation_state), tool_name=tool.name, tool_call_id=tool_use_id,
                                    tool_arguments=arguments)
        try:
            output = asyncio.run(_awaited(tool.on_invoke_tool(context, arguments)))
        except Exception as error:  # the runner's view: an error the failure handler did not turn into output
            text = str(error)
            return ToolInvocation(outputs=(ToolResult(tool_use_id, "error", f"{type(error).__qualname__}: {text}",
                                                      error_type=type(error).__qualname__, error_message=text, exception=error),))
        if output == _FAILURE_TEXT:  # the default failure handler's answer: the SDK's error result
            return ToolInvocation(outputs=(ToolResult(tool_use_id, "error", output, error_message=output),))
        return ToolInvocation(outputs=(_success(tool_use_id, output),))

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        return None  # a tool wraps the check's Python callback: no snippet can carry it


async def _awaited(value: Any) -> Any:
    return await value if inspect.isawaitable(value) else value


def _success(tool_use_id: str, output: Any) -> ToolResult:
    """What the runner sends back for a tool's output: a string, or ``str()`` of anything else."""
    try:
        content = result_content(output)
    except (TypeError, ValueError):
        content = str(output)
    try:
        json.dumps(output)
        value = output
    except (TypeError, ValueError):
        value = str(output)
    return ToolResult(tool_use_id, "success", content, value=value)

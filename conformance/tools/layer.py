"""The kit's own tool helper as a :class:`ToolLayer`: the reference every TL check must pass."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from strictconformance.tools.contract import AdvertisedTool, ToolDefinition, ToolLayerTraits
from strictconformance.tools.helper import Tool
from strictconformance.tools.results import ToolContext, ToolInvocation

__all__ = ["ReferenceToolLayer"]


class ReferenceToolLayer:
    """Drives :func:`strictconformance.tools.tool` through the tool-layer capability."""

    traits = ToolLayerTraits()

    def define_tool(self, definition: ToolDefinition) -> Tool[..., Any]:
        source: Mapping[str, Any] | type[Any] | None = (
            definition.input_schema if definition.input_schema is not None else definition.input_model
        )
        return Tool(
            definition.callback,
            name=definition.name,
            description=definition.description,
            input_schema=source,
            strict=definition.strict,  # passed as given: invalid values are the point of TL-7
            context=definition.context,
        )

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Tool[..., Any]:
        """``tool(function)``: name, description and schema from the function alone."""
        return Tool(function, strict=strict)

    def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
        return AdvertisedTool(name=handle.name, description=handle.description, input_schema=handle.input_schema, strict=handle.strict)

    def invoke_tool(
        self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]
    ) -> ToolInvocation:
        return handle.invoke(tool_use_id, input, invocation_state)

    def call_tool(self, handle: Tool[..., Any], input: Mapping[str, Any], context: ToolContext | None) -> Any:
        if handle.source == "signature":
            arguments = dict(input)
            if handle.context_parameter is not None:
                arguments[handle.context_parameter] = context
            return handle(**arguments)
        return handle(input, context) if handle.takes_context else handle(input)

"""The tool helper: define tools from type hints, pydantic models or raw JSON Schema, and invoke them.

``tool`` defines a :class:`Tool`; invoking it yields :class:`ToolEvent` progress items and one
:class:`ToolResult` (SPEC.md §6, TL-1..TL-7). See ``helper.py`` for the full contract.

For adapters: :class:`ToolLayer` is the capability the TL checks drive (``define_tool``,
``describe_tool``, ``invoke_tool``, ``call_tool``) with :class:`ToolDefinition` in and
:class:`ToolInvocation` / :class:`AdvertisedTool` out; :class:`ReferenceToolLayer` is the kit's
own implementation. The checks are in :mod:`strictconformance.tools.oracles`.
"""

from strictconformance.tools.canonical import CanonicalSchema, canonical_input_schema
from strictconformance.tools.contract import (
    AdvertisedTool,
    FinalValueConvention,
    StrictConvention,
    ToolDefinition,
    ToolLayer,
    ToolLayerTraits,
)
from strictconformance.tools.errors import (
    InputProblem,
    ToolDefinitionError,
    ToolInputError,
    ToolOutputError,
)
from strictconformance.tools.helper import TOOL_NAME_PATTERN, InputSource, Tool, tool
from strictconformance.tools.layer import ReferenceToolLayer
from strictconformance.tools.results import (
    ToolContext,
    ToolEvent,
    ToolInvocation,
    ToolResult,
    ToolReturn,
    ToolStatus,
    result_content,
)

__all__ = [
    "TOOL_NAME_PATTERN",
    "AdvertisedTool",
    "CanonicalSchema",
    "FinalValueConvention",
    "InputProblem",
    "InputSource",
    "ReferenceToolLayer",
    "StrictConvention",
    "Tool",
    "ToolContext",
    "ToolDefinition",
    "ToolDefinitionError",
    "ToolEvent",
    "ToolInputError",
    "ToolInvocation",
    "ToolLayer",
    "ToolLayerTraits",
    "ToolOutputError",
    "ToolResult",
    "ToolReturn",
    "ToolStatus",
    "canonical_input_schema",
    "result_content",
    "tool",
]

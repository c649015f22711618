"""The tool helper: define tools from type hints, pydantic models or raw JSON Schema, and invoke them.

``tool`` defines a :class:`Tool`; invoking it yields :class:`ToolEvent` progress items and one
:class:`ToolResult` (SPEC.md §6, TL-1..TL-7). See ``helper.py`` for the full contract.
"""

from strictconformance.tools.canonical import CanonicalSchema, canonical_input_schema
from strictconformance.tools.errors import (
    InputProblem,
    ToolDefinitionError,
    ToolInputError,
    ToolOutputError,
)
from strictconformance.tools.helper import TOOL_NAME_PATTERN, InputSource, Tool, tool
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
    "CanonicalSchema",
    "InputProblem",
    "InputSource",
    "Tool",
    "ToolContext",
    "ToolDefinitionError",
    "ToolEvent",
    "ToolInputError",
    "ToolInvocation",
    "ToolOutputError",
    "ToolResult",
    "ToolReturn",
    "ToolStatus",
    "canonical_input_schema",
    "result_content",
    "tool",
]

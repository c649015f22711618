"""strictconformance: a conformance suite, shipped as a pytest plugin, for how LLM SDKs handle
strict mode in tool calling.

Write an :class:`Adapter` for your SDK and run ``pytest -p strictconformance --sc-adapter
your.module:YourAdapter``. The data types below are what the adapter's capabilities take and
return. The reference implementation is :mod:`strictconformance.reference`; rules are in
:mod:`strictconformance.spec`.
"""

from strictconformance._version import __version__
from strictconformance.adapter import Adapter, AdapterContractError
from strictconformance.dialects import Loss, Strictified
from strictconformance.drift.errors import SchemaDriftError
from strictconformance.drift.sse import SSEEvent
from strictconformance.spec.resolution import Budget
from strictconformance.tools import (
    AdvertisedTool,
    Tool,
    ToolContext,
    ToolDefinition,
    ToolInvocation,
    ToolLayerTraits,
    ToolResult,
    ToolReturn,
    tool,
)
from strictconformance.wire import (
    ModelSpec,
    Plan,
    PlanRequest,
    StrictSupport,
    ToolSpec,
    ToolsRequest,
    WireRequest,
    WireTool,
    read_wire_request,
)

__all__ = [
    "Adapter",
    "AdapterContractError",
    "AdvertisedTool",
    "Budget",
    "Loss",
    "ModelSpec",
    "Plan",
    "PlanRequest",
    "SSEEvent",
    "SchemaDriftError",
    "StrictSupport",
    "Strictified",
    "Tool",
    "ToolContext",
    "ToolDefinition",
    "ToolInvocation",
    "ToolLayerTraits",
    "ToolResult",
    "ToolReturn",
    "ToolSpec",
    "ToolsRequest",
    "WireRequest",
    "WireTool",
    "__version__",
    "read_wire_request",
    "tool",
]

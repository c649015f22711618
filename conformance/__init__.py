"""strictconformance: a conformance suite, shipped as a pytest plugin, for how LLM SDKs handle
strict mode in tool calling.

Write an :class:`Adapter` for your SDK and run ``pytest -p strictconformance --sc-adapter
your.module:YourAdapter``. The data types below are what the adapter's capabilities take and
return. The reference implementation is :mod:`strictconformance.reference`; rules are in
:mod:`strictconformance.spec`.

The names are imported on first use (PEP 562): the pytest plugin is loaded in every project where
the kit is installed, and importing this package must cost those projects nothing.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from strictconformance._version import __version__

if TYPE_CHECKING:
    from strictconformance.adapter import Adapter, AdapterContractError
    from strictconformance.dialects import Loss, Strictified
    from strictconformance.drift.errors import SchemaDriftError
    from strictconformance.drift.fidelity import ParsedResponse, ParsedToolCall
    from strictconformance.drift.sse import SSEEvent
    from strictconformance.findings import Finding, NotCovered, not_covered
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

#: Each public name and the module it comes from (the imports above, for type checkers).
_EXPORTS = {
    "Adapter": "strictconformance.adapter",
    "AdapterContractError": "strictconformance.adapter",
    "Loss": "strictconformance.dialects",
    "Strictified": "strictconformance.dialects",
    "SchemaDriftError": "strictconformance.drift.errors",
    "SSEEvent": "strictconformance.drift.sse",
    "ParsedResponse": "strictconformance.drift.fidelity",
    "ParsedToolCall": "strictconformance.drift.fidelity",
    **dict.fromkeys(("Finding", "NotCovered", "not_covered"), "strictconformance.findings"),
    "Budget": "strictconformance.spec.resolution",
    **dict.fromkeys(("AdvertisedTool", "Tool", "ToolContext", "ToolDefinition", "ToolInvocation",
                     "ToolLayerTraits", "ToolResult", "ToolReturn", "tool"), "strictconformance.tools"),
    **dict.fromkeys(("ModelSpec", "Plan", "PlanRequest", "StrictSupport", "ToolSpec", "ToolsRequest",
                     "WireRequest", "WireTool", "read_wire_request"), "strictconformance.wire"),
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'strictconformance' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "Adapter",
    "AdapterContractError",
    "AdvertisedTool",
    "Budget",
    "Finding",
    "Loss",
    "ModelSpec",
    "NotCovered",
    "ParsedResponse",
    "ParsedToolCall",
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
    "not_covered",
    "read_wire_request",
    "tool",
]

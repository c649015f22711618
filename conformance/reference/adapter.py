"""The reference implementation, as an adapter: what the suite runs when no adapter is named."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from strictconformance._version import __version__
from strictconformance.adapter import Adapter
from strictconformance.dialects import SHIPPED, Dialect, Strictified
from strictconformance.drift import validator as drift_validator
from strictconformance.drift.errors import SchemaDriftError
from strictconformance.drift.fidelity import ParsedResponse, expected_parse
from strictconformance.drift.sse import SSEEvent
from strictconformance.reference.errors import InvalidStrictSetting, StrictPlanError
from strictconformance.reference.resolution import (
    REFERENCE_DEFAULTS,
    build_tools_request,
    plan_request,
    resolve_strict_support,
)
from strictconformance.reference.strictify import (
    reference_decode,
    reference_encode,
    reference_strictify,
)
from strictconformance.tools import (
    AdvertisedTool,
    ReferenceToolLayer,
    ToolContext,
    ToolDefinition,
    ToolInvocation,
)
from strictconformance.wire import (
    ModelSpec,
    Plan,
    PlanRequest,
    StrictSupport,
    ToolsRequest,
    WireRequest,
)

__all__ = ["ReferenceAdapter"]

#: The reference's parse of a response the kit cannot read (DR-7 does not judge those).
_UNREAD = ParsedResponse(text="")


class ReferenceAdapter(Adapter):
    """strictconformance's own reference implementation of SPEC.md, every capability."""

    name = "strictconformance reference implementation"
    sdk = f"strictconformance {__version__}"
    strict_defaults = REFERENCE_DEFAULTS
    allocation_policy = "greedy"
    curated_model_table = True
    rejection_errors = (StrictPlanError, InvalidStrictSetting)
    strictify_dialects = tuple(SHIPPED)
    drift_errors = (SchemaDriftError,)
    # The reference's parse is the kit's own reading of a response (drift.fidelity.expected_parse):
    # it passes DR-7 by construction; tests/test_drift_fidelity.py checks that reading against
    # values written out by hand from the shipped cassettes.
    parse_fidelity = True
    tool_layer_traits = ReferenceToolLayer.traits

    def __init__(self) -> None:
        self._tools = ReferenceToolLayer()

    # Resolution (SPEC §1, §2)
    def build_request(self, request: ToolsRequest) -> WireRequest:
        return build_tools_request(request)

    def plan_request(self, request: PlanRequest) -> Plan:
        return plan_request(request)

    def strict_support(self, model: ModelSpec) -> StrictSupport:
        return resolve_strict_support(model)

    # Strictify and its codec (SPEC §3, §4)
    def _dialect(self, name: str) -> str | Dialect:
        """A subclass's own dialect (declared in ``dialects``) by name, else the shipped name."""
        return next((dialect for dialect in self.dialects if dialect.name == name), name)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        return reference_strictify(schema, self._dialect(dialect))

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return reference_encode(schema, self._dialect(dialect), value)

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return reference_decode(schema, self._dialect(dialect), value)

    # Response drift (SPEC §5)
    def check_response(self, api: str, payload: Any) -> ParsedResponse:
        drift_validator.check_response(api, payload)
        return expected_parse(api, payload) or _UNREAD

    def check_stream(self, api: str, events: Sequence[SSEEvent]) -> ParsedResponse:
        drift_validator.check_stream(api, events)
        return expected_parse(api, events=events) or _UNREAD

    # The tool layer (SPEC §6)
    def define_tool(self, definition: ToolDefinition) -> Any:
        return self._tools.define_tool(definition)

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Any:
        return self._tools.define_tool_from_function(function, strict)

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        return self._tools.describe_tool(tool)

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        return self._tools.invoke_tool(tool, tool_use_id, tool_input, invocation_state)

    def call_tool(self, tool: Any, tool_input: Mapping[str, Any], context: ToolContext | None) -> Any:
        return self._tools.call_tool(tool, tool_input, context)

"""The reference implementation, as an adapter: what the suite runs when no adapter is named."""

from __future__ import annotations

from strictconformance._version import __version__
from strictconformance.adapter import Adapter
from strictconformance.reference.errors import InvalidStrictSetting, StrictPlanError
from strictconformance.reference.resolution import (
    REFERENCE_DEFAULTS,
    build_tools_request,
    plan_request,
    resolve_strict_support,
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


class ReferenceAdapter(Adapter):
    """strictconformance's own reference implementation of SPEC.md."""

    name = "strictconformance reference implementation"
    sdk = f"strictconformance {__version__}"
    strict_defaults = REFERENCE_DEFAULTS
    allocation_policy = "greedy"
    curated_model_table = True
    rejection_errors = (StrictPlanError, InvalidStrictSetting)

    def build_request(self, request: ToolsRequest) -> WireRequest:
        return build_tools_request(request)

    def plan_request(self, request: PlanRequest) -> Plan:
        return plan_request(request)

    def strict_support(self, model: ModelSpec) -> StrictSupport:
        return resolve_strict_support(model)

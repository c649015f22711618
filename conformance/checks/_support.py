"""What several checks need to read from an adapter's answers: which tools ship strict."""

from __future__ import annotations

from strictconformance.harness import Harness
from strictconformance.spec.resolution import SchemaCost, schema_cost
from strictconformance.wire import ToolSpec, WireRequest, WireTool

__all__ = ["cost_on_wire", "ships_strict", "wire_tool"]


def wire_tool(sc: Harness, request: WireRequest, name: str) -> WireTool:
    """The wire tool named ``name``; a request that drops or duplicates a tool fails the check."""
    __tracebackhide__ = True
    found = [tool for tool in request.tools if tool.name == name]
    sc.expect(len(found) == 1, f"the wire request carries tool {name!r} {len(found)} times, expected once "
                                       f"(wire tools: {[tool.name for tool in request.tools]})")
    return found[0]


def ships_strict(request: WireRequest, tool: WireTool, dialect: str | None) -> bool:
    """Whether ``tool`` is strict on the wire: its ``strict`` is true, or, for Google (no per-tool
    field), the request's function-calling mode is VALIDATED."""
    if dialect == "google":
        return request.function_calling_mode == "VALIDATED" or tool.strict is True
    return tool.strict is True


def cost_on_wire(tool: ToolSpec, wired: WireTool) -> SchemaCost:
    """A tool's budget cost, counted on its schema as it goes on the wire (the input schema when
    the adapter reports none)."""
    return schema_cost(wired.input_schema if wired.input_schema is not None else tool.input_schema)

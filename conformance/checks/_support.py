"""What several checks need to read from an adapter's answers: which tools ship strict."""

from __future__ import annotations

from collections.abc import Sequence

from strictconformance.harness import Harness
from strictconformance.spec.resolution import SchemaCost, schema_cost
from strictconformance.wire import ToolSpec, WireRequest, WireTool

__all__ = ["cost_on_wire", "ships_strict", "wire_tool", "wire_tools"]


def wire_tools(harness: Harness, request: WireRequest, tools: Sequence[ToolSpec]) -> dict[str, WireTool]:
    """The wire tool of each of ``tools`` by name; a request that drops or duplicates one fails the check."""
    __tracebackhide__ = True
    by_name: dict[str, WireTool] = {}
    duplicated = set()
    for wired in request.tools:
        if wired.name in by_name:
            duplicated.add(wired.name)
        by_name[wired.name] = wired
    for tool in tools:
        harness.expect(tool.name in by_name and tool.name not in duplicated, (
            f"the wire request carries tool {tool.name!r} {'twice or more' if tool.name in duplicated else 'not at all'}, "
            f"expected once (wire tools: {[wired.name for wired in request.tools]})"))
    return by_name


def wire_tool(harness: Harness, request: WireRequest, name: str) -> WireTool:
    """The wire tool named ``name`` (see :func:`wire_tools`)."""
    __tracebackhide__ = True
    return wire_tools(harness, request, [ToolSpec(name, {})])[name]


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


def same_gemini_mode(wire: str | None, expected: str | None) -> bool:
    """Gemini's function-calling modes compared as the API applies them: an unset mode IS ``AUTO``
    ("If unspecified, the default value will be set to AUTO": FunctionCallingConfig.mode in the
    Gemini API reference), so an SDK that spells out AUTO leaves the mode as the caller set it."""
    return (wire or "AUTO") == (expected or "AUTO")


def same_tool_strict(provider: str, wire: bool | None, expected: object) -> bool:
    """A tool's wire ``strict`` compared as the provider applies it: on Anthropic, strict tool use is
    opt-in (a tool is strict only with ``strict: true``, platform.claude.com/docs/en/agents-and-tools/
    tool-use/strict-tool-use), so an omitted ``strict`` IS ``false`` there: an SDK that leaves out a
    per-tool ``false`` sends what was asked. OpenAI is not so: unset means the API's own default
    (the Responses API tries strict), so omitted and ``false`` differ."""
    if provider == "anthropic" and expected is False:
        return wire in (False, None)
    return wire == expected

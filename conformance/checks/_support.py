"""What several checks need to read from an adapter's answers: which tools ship strict."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from strictconformance.adapter import Declarations
from strictconformance.harness import Harness
from strictconformance.spec.resolution import SchemaCost, schema_cost
from strictconformance.wire import ToolSpec, ToolsRequest, WireRequest, WireTool

__all__ = ["cost_on_wire", "gemini_answer_tool", "gemini_mode_kept", "implements", "ships_strict", "wire_tool", "wire_tools"]


def implements(method: str) -> Callable[[Declarations], str | None]:
    """A check's ``requires`` for a rule judged through several capabilities: the check applies
    when the adapter implements ``method`` (the rule is covered by whichever check applies)."""
    def requires(declarations: Declarations) -> str | None:
        return None if method in declarations.judged_capabilities else f"the adapter does not implement {method}()"
    return requires


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
        harness.expect(tool.name in by_name and tool.name not in duplicated, detail="a tool missing from the wire or sent twice", message=(
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


def gemini_answer_tool(request: ToolsRequest, wire: WireRequest) -> WireTool | None:
    """The function an SDK declared to carry a structured-output answer on Gemini, or None.

    Gemini 2.5 models take no response schema beside function declarations, so an SDK may send the
    answer as one more function whose parameters are the response schema, and force a function
    call (mode ``ANY``): the model then either calls one of the caller's tools or answers through
    that function, which is what the caller asked for (Vercel AI SDK's ``jsonResponseTool``,
    @ai-sdk/google ``getArgs``). It is recognised on the wire: the request has a response schema,
    the wire request has no response format, and exactly one declared function is not one of the
    request's tools, with the response schema as its parameters."""
    if request.response_schema is None or wire.response_format is not None:
        return None
    own = {tool.name for tool in request.tools}
    extra = [tool for tool in wire.tools if tool.name not in own]
    if len(extra) == 1 and extra[0].input_schema == request.response_schema:
        return extra[0]
    return None


def gemini_mode_kept(request: ToolsRequest, wire: WireRequest, *, strict: bool) -> tuple[bool, str]:
    """Whether the wire's Gemini function-calling mode is what the request asks for, and the
    expected mode in words.

    Unset (``AUTO``) with a tool resolved to strict becomes ``VALIDATED`` (RES-6); otherwise the
    mode is the caller's. Two more wire modes keep the request's meaning, by the Gemini API's
    function-calling guide (https://ai.google.dev/gemini-api/docs/function-calling, "Function
    calling modes"): ``ANY`` "is constrained to always predict a function call and guarantees
    function schema adherence", so a caller's ``ANY`` already gives strict tools what ``VALIDATED``
    would, and turning it into ``VALIDATED`` would drop the forced call the caller asked for; a
    caller's ``NONE`` forbids function calls, so there is nothing to validate. And an answer sent
    as a function (:func:`gemini_answer_tool`) comes with ``ANY``, the SDK's way to make the model
    call a tool or answer, which also guarantees schema adherence."""
    caller = request.function_calling_mode
    if strict:
        accepted = {"VALIDATED"} | ({caller} if caller in ("ANY", "NONE") else set())
    else:
        accepted = {caller or "AUTO"}
    if gemini_answer_tool(request, wire) is not None:
        accepted.add("ANY")
    words = " or ".join(f"mode {mode!r}" if mode != "AUTO" or caller == "AUTO" else "no mode" for mode in sorted(accepted))
    return (wire.function_calling_mode or "AUTO") in accepted, words


def same_tool_strict(provider: str, wire: bool | None, expected: object, openai_api: str | None = None) -> bool:
    """A tool's wire ``strict`` compared as the provider applies it: on Anthropic, strict tool use is
    opt-in (a tool is strict only with ``strict: true``, platform.claude.com/docs/en/agents-and-tools/
    tool-use/strict-tool-use), so an omitted ``strict`` IS ``false`` there: an SDK that leaves out a
    per-tool ``false`` sends what was asked. So on OpenAI Chat Completions, where a tool without
    ``strict`` is not strict (developers.openai.com/api/docs/guides/function-calling). On the
    Responses API an omitted strict is the API's own default (it tries strict), so there (and when
    the adapter does not say which OpenAI API it targets, ``Adapter.openai_api``) they differ."""
    if expected is False and (provider == "anthropic" or (provider == "openai" and openai_api == "chat_completions")):
        return wire in (False, None)
    return wire == expected

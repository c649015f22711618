"""SPEC.md §5, drift detection: DR-1..DR-9.

Capabilities: DR-1..DR-5 are checked with either ``check_response`` or ``check_stream`` (each
rule has cases of both kinds; an adapter with one of them is covered by that kind). DR-6 is about
arbitrary JSON values, which only ``check_response`` receives: its check calls ``check_response``
(and ``check_stream`` with arbitrary event data when the adapter has it). DR-8 and DR-9 are about
streams as sequences: only ``check_stream`` receives them.
"""

from __future__ import annotations

from strictconformance.spec import Rule

__all__ = ["RULES"]

_SECTION = "strictconformance/spec/SPEC.md §5 Drift detection"
#: The providers' API references the response shapes (strictconformance.drift.shapes) follow.
_APIS = ("https://platform.openai.com/docs/api-reference/chat/object, "
         "https://platform.openai.com/docs/api-reference/responses/object, https://docs.anthropic.com/en/api/messages, "
         "https://ai.google.dev/api/generate-content#generatecontentresponse")
_STREAMS = ("https://platform.openai.com/docs/api-reference/responses-streaming, "
            "https://docs.anthropic.com/en/docs/build-with-claude/streaming")
_EITHER = ("check_response", "check_stream")
#: The documented event lifecycles (strictconformance.drift.lifecycle) DR-8 and DR-9 follow.
_LIFECYCLES = ("https://docs.anthropic.com/en/docs/build-with-claude/streaming (event flow), "
               "https://platform.openai.com/docs/api-reference/responses-streaming, "
               "https://platform.openai.com/docs/api-reference/chat-streaming/streaming and "
               "https://platform.openai.com/docs/guides/function-calling#streaming (tool-call fragments), "
               "https://ai.google.dev/api/generate-content#FinishReason")

RULES: tuple[Rule, ...] = (
    Rule(
        id="DR-1",
        title="A recorded real response passes",
        statement=(
            "A real response recorded from the provider (every shipped cassette, streams included, also "
            "with their deltas re-split into other chunks) is accepted by the SDK's response check."
        ),
        source=f"{_SECTION} DR-1; {_APIS} (absent vs null vs empty per provider)",
        capabilities=_EITHER,
    ),
    Rule(
        id="DR-2",
        title="A missing or retyped field an SDK reads raises SchemaDriftError with provider, path and types",
        statement=(
            "A missing, null (where not nullable), empty (where declared non-empty: id \"\", choices []) or retyped "
            "field that an SDK reads raises a drift error carrying the provider, the path (array elements as "
            "content[3].id), the expected type and the actual value's type. Retyped includes the swaps Python "
            "blurs (true for an integer, 1 for a boolean) and numeric strings; an empty value the provider "
            "documents is additive (DR-4)."
        ),
        source=f"{_SECTION} DR-2; {_APIS} (a missing choices[0].message; field types and non-empty ids)",
        capabilities=_EITHER,
    ),
    Rule(
        id="DR-3",
        title="Discriminated array elements are checked per variant",
        statement=(
            "Elements of discriminated arrays are checked per variant: every known variant's fields count, "
            "and a missing or non-string discriminator is drift (a reshaped tool_use.id fails at content[*].id)."
        ),
        source=f"{_SECTION} DR-3; {_APIS} (element shapes inside arrays)",
        capabilities=_EITHER,
    ),
    Rule(
        id="DR-4",
        title="Additive change passes",
        statement=(
            "New fields, and elements whose discriminator value is unknown, pass; they are reported as "
            "notices, not errors."
        ),
        source=f"{_SECTION} DR-4; {_APIS}; {_STREAMS} (new block and event types are added without notice)",
        capabilities=_EITHER,
    ),
    Rule(
        id="DR-5",
        title="Cross-field invariants catch a renamed variant",
        statement=(
            "Anthropic stop_reason 'tool_use' needs at least one tool_use block; OpenAI-style finish_reason "
            "'tool_calls' needs non-empty tool_calls (streams: at least one tool-call fragment). A block "
            "renamed from tool_use to function_call fails at content[*].type with the actual value "
            "function_call, while a brand-new block type beside the known ones passes. The converse "
            "(tool_calls with finish_reason 'stop') is valid. Relations between values too: a tool-call id "
            "is used once per response (chat tool_calls[].id, Anthropic tool_use.id, Responses call_id); "
            "usage.total_tokens equals prompt + completion (chat) or input + output (Responses) tokens "
            "(Anthropic documents no total); a Responses stream's sequence_number increases."
        ),
        source=(f"{_SECTION} DR-5; {_APIS} (a renamed tool_use block; usage.total_tokens); "
                "https://platform.openai.com/docs/api-reference/responses-streaming (sequence_number)"),
        capabilities=_EITHER,
    ),
    Rule(
        id="DR-6",
        title="The check raises only drift errors on any JSON value and never mutates it",
        statement=(
            "On any JSON value, however malformed, deep or large, the response check raises nothing but "
            "its drift error type, and leaves the payload unchanged. For an error the provider sent (an "
            "error body, an error event in a stream) the SDK's declared API error is right too; an API "
            "error raised for a response that carries no provider error fails the rule judging that response."
        ),
        source=f"{_SECTION} DR-6; {_APIS} (error bodies); {_STREAMS} (error events)",
        capabilities=("check_response",),
    ),
    Rule(
        id="DR-7",
        title="What the SDK parsed is what the response holds",
        statement=(
            "For every recorded response (bodies and streams) and every additive change of one, what the SDK "
            "parsed (the text the user gets, each tool call's id, name and arguments as JSON, and the stop "
            "reason and token usage when it reports them) equals what the payload holds: no tool call "
            "dropped or invented, no wrong id, no arguments other than the JSON sent, no block of an unknown "
            "type turned into text. Judged for adapters whose response checks return what the SDK parsed "
            "(parse_fidelity)."
        ),
        source=f"{_SECTION} (parse fidelity, added with DR-7); {_APIS}; {_STREAMS} (text parts, tool calls, stop reasons and usage per API)",
        capabilities=_EITHER,
    ),
    Rule(
        id="DR-8",
        title="A stream that leaves its documented event lifecycle is drift",
        statement=(
            "Each streaming API's event lifecycle is data (which event opens the stream, which opens each "
            "block, output item or tool call, which deltas may follow for an open index, what closes it, which "
            "event ends the stream). A delta for an index never started or already stopped, a tool-call "
            "argument fragment for a call never opened, a block started twice, argument fragments that do not "
            "join into JSON, an event after the terminal one, a block never closed, a block or part closed or "
            "restated (a Responses output_item.done item, the response.completed output) as another kind than it "
            "opened as, or a stream that does not "
            "open with its start event raises a drift error at that event. Renaming a start or stop event "
            "is therefore breaking in every stream that has one."
        ),
        source=f"{_SECTION} DR-8; {_LIFECYCLES}",
        capabilities=("check_stream",),
    ),
    Rule(
        id="DR-9",
        title="A stream cut before its terminal event is reported as incomplete",
        statement=(
            "A stream that ends before its terminal event (Anthropic message_delta and message_stop, Responses "
            "response.completed, response.incomplete or response.failed, a chat chunk with finish_reason, a "
            "Gemini chunk with finishReason) makes the SDK raise a declared error (drift or API error) or "
            "return its reading marked incomplete (ParsedResponse.incomplete). A reading with no stop reason "
            "and no mark, or no error at all, fails: the caller cannot tell the response was cut short."
        ),
        source=f"{_SECTION} DR-9; {_LIFECYCLES} (the terminal events and finish markers)",
        capabilities=("check_stream",),
    ),
)

"""SPEC.md §6 (TL): tool definition and invocation, as data.

The checks live in :mod:`strictconformance.tools.oracles` (``check_tl1`` ... ``check_tl7``);
the capabilities name the tool-layer methods of :class:`strictconformance.tools.ToolLayer`
each check calls.
"""

from __future__ import annotations

from strictconformance.spec import Rule

__all__ = ["RULES"]

_SPEC6 = "strictconformance/spec/SPEC.md §6"
_SEED_SCHEMA = f"{_SPEC6} ('Schema Definition Strategy', 'Allowing manual JSON Schema')"
_SEED_ERRORS = f"{_SPEC6} ('Error Handling')"
_SEED_STREAMING = f"{_SPEC6} ('With streaming', 'Streaming Tool')"
_SEED_CONTEXT = f"{_SPEC6} ('Context Parameter Injection')"
_SEED_CALLABLE = f"{_SPEC6} ('Callable Function Behavior', 'Context Parameter Injection', 'With context parameter')"
_SPEC1 = "strictconformance/spec/SPEC.md §6 and §1 (invalid strict values are rejected at tool definition time)"

_SEED_FUNCTION = (f"{_SPEC6} (added by the kit for tools defined from a function; the decorators' documented behaviour: "
                  "https://openai.github.io/openai-agents-python/tools/#function-tools, "
                  "https://python.langchain.com/docs/how_to/custom_tools/, https://ai.pydantic.dev/tools/)")
_SEED_EXTRA_KEYS = (f"{_SPEC6} (added by the kit; a closed schema, additionalProperties false: "
                    "https://json-schema.org/understanding-json-schema/reference/object#additionalproperties, "
                    "https://platform.openai.com/docs/guides/function-calling#strict-mode)")
_SEED_DEFAULTS = (f"{_SPEC6} (added by the kit; strict modes reject default: "
                  "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas)")

_SEED_REFUSALS = (f"{_SPEC6} (added by the kit, the tool layer's counterpart of §7's declared strictify refusals; strict "
                  "mode requires every object closed: https://platform.openai.com/docs/guides/structured-outputs#additionalproperties-false-must-always-be-set-in-objects, "
                  "https://docs.anthropic.com/en/docs/build-with-claude/tool-use/implement-tool-use#strict-tool-use)")

_DEFINE = ("define_tool", "describe_tool")
_FROM_FUNCTION = ("define_tool_from_function", "describe_tool")
_INVOKE = ("define_tool", "invoke_tool")

RULES: tuple[Rule, ...] = (
    Rule("TL-1", "a typed model and a raw JSON Schema of one shape advertise the same schema",
         "A tool's input schema comes from a typed model (pydantic) or a raw JSON Schema; both give the "
         "same advertised schema for the same shape.", _SEED_SCHEMA, _DEFINE),
    Rule("TL-2", "input is validated before the callback; invalid input names its field and never runs it",
         "Input is validated against the advertised schema before the callback runs; invalid input gives "
         "an error result naming the failing field, and the callback is not called.", _SEED_SCHEMA, _INVOKE),
    Rule("TL-3", "a callback's exception becomes an error result with its type and message",
         "A callback's exception becomes an error result carrying the exception type and message (or the "
         "fixed text the layer declares it puts there instead); it never escapes the tool-use path.",
         _SEED_ERRORS, _INVOKE),
    Rule("TL-4", "generator items stream as ordered events, then exactly one final result",
         "Sync, async and generator callbacks: a generator's items stream as progress events, in order, "
         "then exactly one final result; an empty generator gives a defined result.", _SEED_STREAMING, _INVOKE),
    Rule("TL-5", "context is opt-in, carries the tool-use id and state, and stays out of the schema",
         "Context is opt-in, carries the tool-use id and the invocation state, and never appears in the "
         "advertised schema.", _SEED_CONTEXT, ("define_tool", "describe_tool", "invoke_tool")),
    Rule("TL-6", "a direct call validates and raises; the tool-use path returns error results",
         "Where the SDK offers a direct call of a tool, it validates and raises, while the tool-use path "
         "returns error results; a tool the SDK makes uncallable is not covered. The direct call judged is "
         "the SDK's documented, validating entry point (an SDK without one declares it: not covered); a "
         "tool with context, called with its context, passes it to the callback and raises an error naming "
         "the failing field for invalid input; without a context, invalid input never reaches the callback.",
         _SEED_CALLABLE,
         ("define_tool", "call_tool", "invoke_tool")),
    Rule("TL-7", "the strict setting is validated when the tool is defined",
         "The tool's strict setting follows §1 and is validated when the tool is defined: true, false, "
         "unset or a finite number > 0 is kept as given; anything else is a clear error at definition "
         "time, never a silent default.", _SPEC1, _DEFINE),
    Rule("TL-8", "a function's tool is described by its docstring's summary, not its Args section",
         "A tool defined from a documented function is named after the function and its description holds "
         "the docstring's summary (the text before its sections), never its Args: section, whose parameter "
         "descriptions belong to the parameters; other sections may follow the summary.",
         _SEED_FUNCTION, _FROM_FUNCTION),
    Rule("TL-9", "extra input keys on a closed schema are rejected or reported, never dropped silently",
         "When the advertised input schema is closed (additionalProperties: false), an input with an "
         "undeclared key is rejected with an error result, or the key is reported (a warning, a log "
         "record, or passed on to the callback); it is never dropped silently.", _SEED_EXTRA_KEYS,
         ("define_tool_from_function", "describe_tool", "invoke_tool")),
    Rule("TL-10", "parameter defaults are advertised, or their loss is declared",
         "A parameter's default appears, unchanged, in the advertised schema; a layer that drops defaults "
         "(always, or for strict tools, whose strict mode rejects them) declares it.", _SEED_DEFAULTS,
         _FROM_FUNCTION),
    Rule("TL-11", "a strict tool is refused only with a declared error, and only when strict mode cannot express it",
         "A tool layer may refuse to define a strict tool whose input schema strict mode cannot express (an open "
         "object: a dict[str, Any] parameter) with an exception it declares; the refusal is counted and reported. "
         "Refusing a strict tool whose schema strict mode expresses (every object closed) is an unnecessary "
         "refusal; refusing with an exception it does not declare is a violation.", _SEED_REFUSALS, ("define_tool",)),
)

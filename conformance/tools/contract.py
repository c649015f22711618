"""The tool-layer capability an adapter provides for the TL checks (SPEC.md §6).

An SDK's tool layer is driven through four calls; :class:`ToolLayer` states them. The kit's own
helper implements them in :class:`strictconformance.tools.layer.ReferenceToolLayer`.

How the kit's callbacks expect to be called, whatever the SDK (the adapter translates):

- a definition from a raw JSON Schema or a model class: ``callback(input)``, or
  ``callback(input, context)`` when ``context`` is True;
- a definition from type hints (neither ``input_schema`` nor ``input_model``): the callback's
  own keyword arguments; with ``context="param"`` that parameter (annotated
  :class:`ToolContext`) receives the context;
- ``context`` is always a :class:`strictconformance.tools.ToolContext` carrying the tool-use id
  and the invocation state the check passed; an adapter builds it from its SDK's own context;
- a function handed to ``define_tool_from_function`` (optional) is a plain Python function: its
  ``__name__`` is the tool's name, its type hints the input, its Google-style docstring the
  description (summary) and the parameters' descriptions (``Args:``); it takes its keyword
  arguments and nothing else (no context).

Two methods are optional: ``define_tool_from_function`` (tools made by the SDK's own decorator,
``@function_tool``, ``@tool``, ``Tool(fn)``, ``@beta_tool``: the checks marked "from a function"
need it) and ``call_tool`` (a direct call). ``call_tool`` makes the SDK's *documented* direct call:
where the SDK has several call paths, the entry point its documentation offers for calling a tool
directly and says validates the input (langchain's ``tool.invoke(args)`` for a ``StructuredTool``,
a Runnable), named in ``ToolLayerTraits.direct_call``; never a function the tool keeps that the
documentation says runs unvalidated (that fails TL-6 by construction, not by the SDK's fault). An
SDK with no such entry point (openai-agents' ``FunctionTool`` cannot be called; pydantic-ai's
decorators return the plain function) declares the absence in ``ToolLayerTraits.no_direct_call``
and leaves ``call_tool`` out: TL-6 is then "not covered" with that reason, never failed for it. A
``call_tool`` that calls :func:`strictconformance.findings.not_covered` for a tool it cannot call
is not covered too.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol, get_args, runtime_checkable

from strictconformance.tools.jsonvalue import MAX_INPUT_DEPTH, json_value_problem
from strictconformance.tools.results import ToolContext, ToolInvocation

__all__ = [
    "AdvertisedTool",
    "CallbackReturns",
    "DefaultsConvention",
    "FinalValueConvention",
    "FunctionToolLayer",
    "InputSource",
    "StrictConvention",
    "ToolDefinition",
    "ToolLayer",
    "ToolLayerTraits",
    "validated_traits",
]

#: Where a tool's input schema came from.
InputSource = Literal["signature", "model", "json_schema"]

#: How a generator callback gives its final value in a tool layer:
#: ``"tool_return"`` - the kit's: ``yield ToolReturn(value)`` last (a sync generator may also
#: ``return value``); ``"last_item"`` - the last yielded item is the result, not a progress
#: event; ``"none"`` - generators give no value: the result carries the empty value.
FinalValueConvention = Literal["tool_return", "last_item", "none"]

#: Whether an advertised schema keeps a parameter's default (TL-10): ``"kept"`` - always;
#: ``"dropped_when_strict"`` - a strict tool may lose defaults (strict modes reject ``default``),
#: a non-strict one keeps them; ``"dropped"`` - the layer never advertises defaults.
DefaultsConvention = Literal["kept", "dropped_when_strict", "dropped"]

#: What a tool's callback may return for the layer to make a result of it: ``"json"`` - any JSON
#: value (the default); ``"text"`` - a string, or null for no value: the layer's documented return
#: type is narrower (anthropic's ``beta_tool``: ``str | Iterable[content block]``, so a number or a
#: boolean is outside it). The checks' callbacks return only what the layer takes: a value outside
#: the contract would make a result error that no rule is about.
CallbackReturns = Literal["json", "text"]

#: Which strict values a tool definition takes (SPEC §1): ``"priority"`` - true, false, unset or a
#: finite number > 0; ``"boolean"`` - true, false or unset only (any number is invalid).
StrictConvention = Literal["boolean", "priority"]


@dataclass(frozen=True)
class ToolDefinition:
    """What a check asks a tool layer to define.

    At most one of ``input_schema`` (a raw JSON Schema) and ``input_model`` (a pydantic model,
    dataclass or TypedDict class) is set; with neither, the callback's type hints describe the
    input. ``strict`` is passed through as given, even when invalid (TL-7 checks the layer
    rejects it).
    """

    name: str
    description: str
    callback: Callable[..., Any]
    input_schema: Mapping[str, Any] | None = None
    input_model: type[Any] | None = None
    strict: object = None
    context: bool | str = False

    def __post_init__(self) -> None:
        if self.input_schema is not None and self.input_model is not None:
            raise ValueError(f"tool definition {self.name!r}: give input_schema or input_model, not both")

    @property
    def source(self) -> InputSource:
        if self.input_schema is not None:
            return "json_schema"
        return "model" if self.input_model is not None else "signature"

    def as_json(self) -> dict[str, Any]:
        """A JSON-compatible summary for counterexamples."""
        out: dict[str, Any] = {"name": self.name, "source": self.source, "strict": repr(self.strict), "context": self.context}
        if self.input_schema is not None:
            out["input_schema"] = dict(self.input_schema)
        if self.input_model is not None:
            out["input_model"] = getattr(self.input_model, "__name__", repr(self.input_model))
        return out


@dataclass(frozen=True)
class AdvertisedTool:
    """What the layer would send to a provider for one tool."""

    name: str
    description: str
    input_schema: Mapping[str, Any]
    strict: object = None


@dataclass(frozen=True)
class ToolLayerTraits:
    """Declared, SDK-specific conventions the checks must respect instead of guessing."""

    final_value: FinalValueConvention = "tool_return"
    #: the value of a success result from a generator that gave no final value
    empty_generator_value: Any = None
    #: where input schemas may come from in this layer (the checks skip the others)
    sources: frozenset[InputSource] = field(default_factory=lambda: frozenset({"signature", "model", "json_schema"}))
    #: the strict values a definition takes (TL-7): ``"boolean"`` for SDKs whose strict is a bool
    strict_convention: StrictConvention = "priority"
    #: what a tool defined with strict unset is advertised as (TL-7): ``None`` (unset stays unset),
    #: or the layer's documented default, e.g. ``True`` for openai-agents' ``function_tool``
    #: (``strict_mode=True``)
    strict_default: bool | None = None
    #: the fixed text a layer puts in every error result instead of the callback's exception
    #: (TL-3): ``None`` - the exception's type and message reach the result (the default); a
    #: string - the layer redacts, documented, and the result carries this text instead
    error_text: str | None = None
    #: whether advertised schemas keep parameters' defaults (TL-10); see :data:`DefaultsConvention`
    advertised_defaults: DefaultsConvention = "kept"
    #: what the checks' callbacks may return (TL-2, TL-6); see :data:`CallbackReturns`
    callback_returns: CallbackReturns = "json"
    #: whether the layer's tools go to an API where a tool without ``strict`` is not strict (Anthropic
    #: tool use; OpenAI Chat Completions): a tool defined with ``strict=False`` may then be advertised
    #: without ``strict`` (TL-7), as that is the same request
    omitted_strict_is_false: bool = False
    #: the SDK's documented direct call of a tool that ``call_tool`` makes (TL-6), as a user writes it,
    #: e.g. ``"tool(**input)"`` or ``"tool.invoke(input)"``: named in TL-6's findings. Where the SDK
    #: has several call paths, the documented, validating direct-call entry point, never a function
    #: the tool keeps that its documentation says skips validation
    direct_call: str | None = None
    #: why the SDK has no documented direct call that validates (its tools wrap a function whose
    #: documentation says it runs unvalidated, or the tool object cannot be called): a declared
    #: absence. TL-6 is then not covered, with this reason; ``call_tool`` is left out
    no_direct_call: str | None = None


def _allowed(values: tuple[str, ...]) -> str:
    return ", ".join(repr(value) for value in values)


def validated_traits(traits: ToolLayerTraits) -> ToolLayerTraits:
    """``traits`` checked field by field (``sources`` as a frozenset); a bad value raises
    ``ValueError`` naming the field and the allowed values. A value the checks do not know would
    otherwise be judged by a convention the layer never declared, or skip every rule silently."""
    raw: Any = traits  # typed fields, but an adapter may have put anything in them
    final_values: tuple[str, ...] = get_args(FinalValueConvention)
    if raw.final_value not in final_values:
        raise ValueError(f"final_value is {raw.final_value!r}; allowed: {_allowed(final_values)} "
                         "(how a generator callback gives its final value)")
    conventions: tuple[str, ...] = get_args(StrictConvention)
    if raw.strict_convention not in conventions:
        raise ValueError(f"strict_convention is {raw.strict_convention!r}; allowed: {_allowed(conventions)} "
                         "(whether strict takes priorities > 0 or only True/False/None)")
    known: tuple[str, ...] = get_args(InputSource)
    sources = raw.sources
    if isinstance(sources, str) or not isinstance(sources, Collection) or not all(isinstance(source, str) for source in sources):
        raise ValueError(f"sources is {sources!r}; expected a set of input-schema sources, e.g. frozenset({{'json_schema'}}), from {_allowed(known)}")
    unknown = sorted(set(sources) - set(known))
    if unknown or not sources:
        what = f"names unknown sources {unknown}" if unknown else "is empty (a layer defines tools from at least one source)"
        raise ValueError(f"sources {what}; allowed: {_allowed(known)}")
    if raw.strict_default not in (None, True, False) or (isinstance(raw.strict_default, int) and not isinstance(raw.strict_default, bool)):
        raise ValueError(f"strict_default is {raw.strict_default!r}; allowed: None, True, False "
                         "(what a tool defined with strict unset is advertised as)")
    if raw.error_text is not None and (not isinstance(raw.error_text, str) or not raw.error_text.strip()):
        raise ValueError(f"error_text is {raw.error_text!r}; allowed: None (exceptions reach the result) or the "
                         "non-empty fixed text the layer puts in every error result")
    defaults: tuple[str, ...] = get_args(DefaultsConvention)
    if raw.advertised_defaults not in defaults:
        raise ValueError(f"advertised_defaults is {raw.advertised_defaults!r}; allowed: {_allowed(defaults)} "
                         "(whether advertised schemas keep parameters' defaults)")
    returns: tuple[str, ...] = get_args(CallbackReturns)
    if raw.callback_returns not in returns:
        raise ValueError(f"callback_returns is {raw.callback_returns!r}; allowed: {_allowed(returns)} "
                         "(what a tool's callback may return)")
    if not isinstance(raw.omitted_strict_is_false, bool):
        raise ValueError(f"omitted_strict_is_false is {raw.omitted_strict_is_false!r}; allowed: True, False "
                         "(whether the layer's API reads a tool without strict as not strict)")
    for name in ("direct_call", "no_direct_call"):
        text = getattr(raw, name)
        if text is not None and (not isinstance(text, str) or not text.strip()):
            raise ValueError(f"{name} is {text!r}; allowed: None or a non-empty text ("
                             + ("the SDK's documented direct call that call_tool makes, e.g. 'tool.invoke(input)')" if name == "direct_call"
                                else "why the SDK has no documented direct call that validates)"))
    if raw.direct_call is not None and raw.no_direct_call is not None:
        raise ValueError("direct_call and no_direct_call are both set; declare the documented direct call, "
                         "or its absence, not both")
    problem = json_value_problem(raw.empty_generator_value, max_depth=MAX_INPUT_DEPTH)
    if problem is not None:
        raise ValueError(f"empty_generator_value is not a JSON value: {problem}")
    return replace(traits, sources=frozenset(sources))


@runtime_checkable
class ToolLayer(Protocol):
    """An SDK's tool layer, as the TL checks drive it."""

    traits: ToolLayerTraits

    def define_tool(self, definition: ToolDefinition) -> Any:
        """Define a tool and return the SDK's handle for it; raise on an invalid definition."""
        ...

    def describe_tool(self, handle: Any) -> AdvertisedTool:
        """The advertised name, description, input schema and strict setting of a defined tool."""
        ...

    def invoke_tool(self, handle: Any, tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        """Run the tool-use path once and report every progress event and final result seen."""
        ...

    def call_tool(self, handle: Any, input: Mapping[str, Any], context: ToolContext | None) -> Any:
        """Call the tool directly, the way a user would call the function (optional: see the module
        docstring for SDKs whose tool objects cannot be called)."""
        ...


@runtime_checkable
class FunctionToolLayer(ToolLayer, Protocol):
    """A tool layer that also defines tools the way users write them: a typed, documented function
    handed to the SDK's decorator, with nothing else said (TL-2..TL-4, TL-6 from a function, TL-8..TL-10)."""

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Any:
        """The SDK's tool for ``function`` as its decorator makes it (``@function_tool``, ``@tool``,
        ``Tool(function)``): name, description and input schema from the function alone; ``strict``
        passed only when it is not ``None`` (unset: the layer's default)."""
        ...

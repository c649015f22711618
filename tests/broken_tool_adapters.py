"""Deliberately broken tool-layer adapters: each breaks exactly one TL rule of SPEC.md §6.

Each is the reference adapter with its tool layer swapped for one of the broken layers in
``broken_tools`` (one plausible SDK bug each, described there). ``BROKEN[rule_id]`` names the
adapter (``module:Class``) that must make that rule, and only that rule, fail; ``EXTRA_BROKEN``
holds further bugs of a covered rule. The adapters after those exercise the contract itself:
faults of the adapter, declared traits, missing capabilities.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any, ClassVar

from broken_tools import (
    REDACTED,
    AnonymousStreamResultLayer,
    ConstraintIgnoringLayer,
    ContextDroppingCallLayer,
    DeclaredRedactingErrorsLayer,
    DictNestedModelsLayer,
    EscapingErrorsLayer,
    FieldlessContextCallErrorLayer,
    InputErrorIdLayer,
    LeakingContextLayer,
    LenientStrictLayer,
    NestedObjectRefusingLayer,
    NoDefaultAnnotationsLayer,
    NullAcceptingLayer,
    NullDroppingLayer,
    RedactingErrorsLayer,
    ResultFirstLayer,
    SilentKeyDroppingLayer,
    StaleIdLayer,
    StrictOpenObjectRefusingLayer,
    StrictSchemaUnsupported,
    StrictTransformByDefaultLayer,
    TextifiedGeneratorLayer,
    TwoValidationDefectsLayer,
    UndeclaredDefaultsDroppingLayer,
    UnvalidatedContextCallLayer,
    UnvalidatedDirectCallLayer,
    UnvalidatedRawSchemaLayer,
    WarningKeyDroppingLayer,
    WholeDocstringLayer,
)
from strictconformance import Adapter
from strictconformance.findings import not_covered
from strictconformance.reference import ReferenceAdapter
from strictconformance.reference.resolution import validate_strict_setting
from strictconformance.tools import (
    AdvertisedTool,
    ReferenceToolLayer,
    Tool,
    ToolContext,
    ToolDefinition,
    ToolInvocation,
    ToolLayerTraits,
    ToolResult,
)


class _LayerAdapter(ReferenceAdapter):
    """The reference adapter with its tool capabilities served by ``layer_class``."""

    layer_class: ClassVar[type[ReferenceToolLayer]] = ReferenceToolLayer

    def __init__(self) -> None:
        super().__init__()
        self._layer = self.layer_class()

    def define_tool(self, definition: ToolDefinition) -> Any:
        return self._layer.define_tool(definition)

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Any:
        return self._layer.define_tool_from_function(function, strict)

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        return self._layer.describe_tool(tool)

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        return self._layer.invoke_tool(tool, tool_use_id, tool_input, invocation_state)

    def call_tool(self, tool: Any, tool_input: Mapping[str, Any], context: ToolContext | None) -> Any:
        return self._layer.call_tool(tool, tool_input, context)


class ToolCallFailed(Exception):
    """WrapsCallbackErrorsAdapter's documented error: the callback's exception is its __cause__."""


class WrapsCallbackErrorsAdapter(_LayerAdapter):
    """Conforms its own way: a direct call raises the layer's documented wrapper, with the callback's
    (or the validation's) exception as its ``__cause__``, as several SDKs do (TL-6 holds)."""

    def call_tool(self, tool: Any, tool_input: Mapping[str, Any], context: ToolContext | None) -> Any:
        try:
            return self._layer.call_tool(tool, tool_input, context)
        except Exception as error:
            raise ToolCallFailed(f"tool call failed: {error}") from error


class NullDroppingAdapter(_LayerAdapter):
    """TL-1: model-defined tools advertise ``T | None`` as plain ``T``."""

    layer_class = NullDroppingLayer


class UnvalidatedRawSchemaAdapter(_LayerAdapter):
    """TL-2: a raw JSON Schema is advertised but never validates the input."""

    layer_class = UnvalidatedRawSchemaLayer


class TwoValidationDefectsAdapter(_LayerAdapter):
    """TL-2 twice: raw schemas never validate, and nested models arrive as dicts."""

    layer_class = TwoValidationDefectsLayer


class DictNestedModelsAdapter(_LayerAdapter):
    """TL-2: type-hinted tools receive nested models as dicts."""

    layer_class = DictNestedModelsLayer


class EscapingErrorsAdapter(_LayerAdapter):
    """TL-3: the callback's exception propagates out of the tool-use path."""

    layer_class = EscapingErrorsLayer


class TextifiedGeneratorAdapter(_LayerAdapter):
    """TL-4: generator items are joined into the result text; no progress events."""

    layer_class = TextifiedGeneratorLayer


class LeakingContextAdapter(_LayerAdapter):
    """TL-5: the context parameter appears in the advertised schema."""

    layer_class = LeakingContextLayer


class UnvalidatedDirectCallAdapter(_LayerAdapter):
    """TL-6: calling the tool object runs the bare function, unvalidated."""

    layer_class = UnvalidatedDirectCallLayer


class UnvalidatedContextCallAdapter(_LayerAdapter):
    """TL-6: a direct call of a tool with context runs the bare function, unvalidated."""

    layer_class = UnvalidatedContextCallLayer


class ContextDroppingCallAdapter(_LayerAdapter):
    """TL-6: a direct call of a tool with context drops the context it was given."""

    layer_class = ContextDroppingCallLayer


class FieldlessContextCallErrorAdapter(_LayerAdapter):
    """TL-6: a direct call of a tool with context raises on invalid input without naming the field."""

    layer_class = FieldlessContextCallErrorLayer


class LenientStrictAdapter(_LayerAdapter):
    """TL-7: an invalid strict setting silently becomes unset."""

    layer_class = LenientStrictLayer


class NullAcceptingAdapter(_LayerAdapter):
    """TL-2: raw-schema tools accept null for every field."""

    layer_class = NullAcceptingLayer


class ConstraintIgnoringAdapter(_LayerAdapter):
    """TL-2: raw-schema tools check types only, never constraints."""

    layer_class = ConstraintIgnoringLayer


class StaleIdAdapter(_LayerAdapter):
    """TL-2: later results of a tool carry the tool-use id of its first call."""

    layer_class = StaleIdLayer


class InputErrorIdAdapter(_LayerAdapter):
    """TL-2 and TL-6: the error result for invalid input carries a placeholder id."""

    layer_class = InputErrorIdLayer


class ResultFirstAdapter(_LayerAdapter):
    """TL-4: the final result comes before the progress events."""

    layer_class = ResultFirstLayer


class AnonymousStreamResultAdapter(_LayerAdapter):
    """TL-4: a generator's final result has no tool-use id."""

    layer_class = AnonymousStreamResultLayer


class NoDefaultAnnotationsAdapter(_LayerAdapter):
    """Conforms: advertises no ``default`` annotations, for every source alike, and declares it (TL-10)."""

    layer_class = NoDefaultAnnotationsLayer
    tool_layer_traits = ToolLayerTraits(advertised_defaults="dropped")


class WholeDocstringAdapter(_LayerAdapter):
    """TL-8: a function's whole docstring, Args: and all, is its tool's description."""

    layer_class = WholeDocstringLayer


class SilentKeyDroppingAdapter(_LayerAdapter):
    """TL-9: a function tool's schema is closed, but undeclared keys are dropped silently."""

    layer_class = SilentKeyDroppingLayer


class UndeclaredDefaultsDroppingAdapter(_LayerAdapter):
    """TL-10: no ``default`` in any advertised schema, and ``advertised_defaults`` left at "kept"."""

    layer_class = UndeclaredDefaultsDroppingLayer


class RedactingErrorsAdapter(_LayerAdapter):
    """TL-3: a fixed text instead of the callback's exception, not declared."""

    layer_class = RedactingErrorsLayer


class DeclaredRedactingErrorsAdapter(_LayerAdapter):
    """Conforms: the same fixed text, declared as ``error_text``."""

    layer_class = DeclaredRedactingErrorsLayer
    tool_layer_traits = ToolLayerTraits(error_text=REDACTED)


class WarningKeyDroppingAdapter(_LayerAdapter):
    """Conforms: undeclared keys dropped, with a warning naming them (TL-9)."""

    layer_class = WarningKeyDroppingLayer


class StrictTransformByDefaultAdapter(_LayerAdapter):
    """Conforms: strict by default, declared, and a strict tool's schema transformed for strict mode
    (openai-agents' function_tool); TL-1 flagged the transform before it compared with strict off."""

    layer_class = StrictTransformByDefaultLayer
    tool_layer_traits = ToolLayerTraits(strict_convention="boolean", strict_default=True)


class UncallableToolsAdapter(_LayerAdapter):
    """An SDK whose tool objects cannot be called directly (openai-agents' ``FunctionTool``): its
    call_tool says so, TL-6 is not covered, and nothing else changes."""

    def call_tool(self, tool: Any, tool_input: Mapping[str, Any], context: ToolContext | None) -> Any:
        not_covered("this SDK's tool objects cannot be called directly")


class UndeclaredStrictRefusalAdapter(_LayerAdapter):
    """TL-11: refuses a strict tool with an open object, with an exception it does not declare."""

    layer_class = StrictOpenObjectRefusingLayer


class DeclaredStrictRefusalAdapter(_LayerAdapter):
    """Conforms: the same refusal, declared in tool_refusals: counted and reported, never failed."""

    layer_class = StrictOpenObjectRefusingLayer
    tool_refusals = (StrictSchemaUnsupported,)


class OverRefusingAdapter(_LayerAdapter):
    """TL-11: a declared refusal of every strict tool with a nested object, closed ones included."""

    layer_class = NestedObjectRefusingLayer
    tool_refusals = (StrictSchemaUnsupported,)


#: What an SDK whose tools keep the plain function, documented as running unvalidated, declares.
NO_DIRECT_CALL = "the decorator returns the plain function, documented as running without validation; the tool object is not callable"


class KeptFunctionDirectCallAdapter(_LayerAdapter):
    """Maps TL-6's direct call to the function the tool keeps, which the SDK documents as running
    unvalidated (pydantic-ai's decorators return the plain function): TL-6 fails by construction,
    and names the undeclared direct call in its counterexample."""

    layer_class = UnvalidatedDirectCallLayer


class DeclaredKeptFunctionDirectCallAdapter(KeptFunctionDirectCallAdapter):
    """The same, with the call path named: TL-6 still judges it (the declaration says which call
    is the SDK's documented one; a documented direct call that skips validation fails)."""

    tool_layer_traits = ToolLayerTraits(direct_call="tool.function(**input)")


class NoDirectCallAdapter(_LayerAdapter):
    """The same SDK, mapped as the adapter guide says: no validating direct call exists, declared,
    and call_tool left out. TL-6 is not covered with the declared reason; nothing else changes."""

    layer_class = UnvalidatedDirectCallLayer
    tool_layer_traits = ToolLayerTraits(no_direct_call=NO_DIRECT_CALL)
    call_tool = Adapter.call_tool  # type: ignore[assignment]


class NoDirectCallButCallToolAdapter(_LayerAdapter):
    """Declares no direct call yet overrides call_tool: a usage error naming both."""

    tool_layer_traits = ToolLayerTraits(no_direct_call=NO_DIRECT_CALL)


class NoFunctionToolsAdapter(ReferenceAdapter):
    """Defines tools from ToolDefinitions only (no define_tool_from_function): TL-8..TL-10 and the
    "from a function" checks are not covered, the rest pass."""

    define_tool_from_function = Adapter.define_tool_from_function


#: Rule ID -> the adapter that breaks exactly that rule.
BROKEN: dict[str, str] = {
    "TL-1": "broken_tool_adapters:NullDroppingAdapter",
    "TL-2": "broken_tool_adapters:UnvalidatedRawSchemaAdapter",
    "TL-3": "broken_tool_adapters:EscapingErrorsAdapter",
    "TL-4": "broken_tool_adapters:TextifiedGeneratorAdapter",
    "TL-5": "broken_tool_adapters:LeakingContextAdapter",
    "TL-6": "broken_tool_adapters:UnvalidatedDirectCallAdapter",
    "TL-7": "broken_tool_adapters:LenientStrictAdapter",
    "TL-8": "broken_tool_adapters:WholeDocstringAdapter",
    "TL-9": "broken_tool_adapters:SilentKeyDroppingAdapter",
    "TL-10": "broken_tool_adapters:UndeclaredDefaultsDroppingAdapter",
    "TL-11": "broken_tool_adapters:UndeclaredStrictRefusalAdapter",
}

#: Further bugs of a covered rule: (rule ID, adapter).
EXTRA_BROKEN: tuple[tuple[str, str], ...] = (
    ("TL-2", "broken_tool_adapters:DictNestedModelsAdapter"),
    ("TL-2", "broken_tool_adapters:NullAcceptingAdapter"),
    ("TL-2", "broken_tool_adapters:ConstraintIgnoringAdapter"),
    ("TL-2", "broken_tool_adapters:StaleIdAdapter"),
    ("TL-4", "broken_tool_adapters:ResultFirstAdapter"),
    ("TL-4", "broken_tool_adapters:AnonymousStreamResultAdapter"),
    ("TL-3", "broken_tool_adapters:RedactingErrorsAdapter"),
    ("TL-6", "broken_tool_adapters:UnvalidatedContextCallAdapter"),
    ("TL-6", "broken_tool_adapters:ContextDroppingCallAdapter"),
    ("TL-6", "broken_tool_adapters:FieldlessContextCallErrorAdapter"),
)

#: Bugs more than one rule rightly sees: (the rules, adapter).
MULTI_BROKEN: tuple[tuple[frozenset[str], str], ...] = (
    (frozenset({"TL-2", "TL-6"}), "broken_tool_adapters:InputErrorIdAdapter"),
)


# -- the contract itself ---------------------------------------------------------------------------


class JunkInvocationAdapter(ReferenceAdapter):
    """An adapter bug, not an SDK bug: invoke_tool returns the result's dict, not a ToolInvocation.
    The harness must report it as an adapter fault of every rule that invokes, never as the SDK
    "raising" something."""

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(tool, tool_use_id, tool_input, invocation_state)
        junk: Any = invocation.result.as_json()
        return junk  # type: ignore[no-any-return]


class JunkEventsAdapter(ReferenceAdapter):
    """An adapter bug: a progress event reported as a bare string, not a ToolEvent."""

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(tool, tool_use_id, tool_input, invocation_state)
        junk: Any = "junk"
        return ToolInvocation(outputs=(junk, *invocation.outputs))


class JunkResultsAdapter(ReferenceAdapter):
    """An adapter bug: the result reported as a dict, not a ToolResult."""

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        junk: Any = {"status": "success"}
        return ToolInvocation(outputs=(junk,))


class JunkResultStatusAdapter(ReferenceAdapter):
    """An adapter bug: a result with status "ok" and no content (not an SDK rejecting input)."""

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(tool, tool_use_id, tool_input, invocation_state)
        junk: Any = {"status": "ok", "content": None}
        return ToolInvocation(tuple(replace(item, **junk) if isinstance(item, ToolResult) else item for item in invocation.outputs))


class BadFinalValueTraitsAdapter(ReferenceAdapter):
    """Declares traits no check knows: an unknown final-value convention and strict convention."""

    tool_layer_traits = ToolLayerTraits(final_value="whatever", strict_convention="bool")  # type: ignore[arg-type]


class BadSourcesTraitsAdapter(ReferenceAdapter):
    """Declares an input-schema source no check knows."""

    tool_layer_traits = ToolLayerTraits(sources=frozenset({"yaml"}))  # type: ignore[arg-type]


class RawSchemaOnlyAdapter(ReferenceAdapter):
    """A layer whose tools come only from raw JSON Schemas (declared): every rule runs on
    raw-schema tools alone (TL-5 with context as a second argument) and passes."""

    tool_layer_traits = ToolLayerTraits(sources=frozenset({"json_schema"}))


class DefineOnlyAdapter(Adapter):
    """Defines and describes tools but cannot invoke or call them: only TL-1 and TL-7 apply."""

    def __init__(self) -> None:
        self._layer = ReferenceToolLayer()

    def define_tool(self, definition: ToolDefinition) -> Any:
        return self._layer.define_tool(definition)

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        return self._layer.describe_tool(tool)


class _BooleanStrictLayer(ReferenceToolLayer):
    """An SDK whose strict is a bool (openai-python's function tools): numbers are refused."""

    def define_tool(self, definition: ToolDefinition) -> Tool[..., Any]:
        validate_strict_setting(definition.strict, tool_name=definition.name, allow_priority=False)
        return super().define_tool(definition)


class BooleanStrictAdapter(_LayerAdapter):
    """Declares the boolean strict convention and follows it: conforms."""

    layer_class = _BooleanStrictLayer
    tool_layer_traits = ToolLayerTraits(strict_convention="boolean")


class UndeclaredBooleanStrictAdapter(_LayerAdapter):
    """Follows the boolean strict convention without declaring it: TL-7 (priority) fails."""

    layer_class = _BooleanStrictLayer


class _StrictByDefaultLayer(_BooleanStrictLayer):
    """An SDK whose tools are strict unless told otherwise (openai-agents' ``function_tool``,
    ``strict_mode=True``): an unset strict is advertised as ``True``."""

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        advertised = super().describe_tool(tool)
        return advertised if advertised.strict is not None else replace(advertised, strict=True)


class StrictByDefaultAdapter(_LayerAdapter):
    """Declares its documented strict default (``strict_default=True``) and follows it: conforms."""

    layer_class = _StrictByDefaultLayer
    tool_layer_traits = ToolLayerTraits(strict_convention="boolean", strict_default=True)


class UndeclaredStrictByDefaultAdapter(_LayerAdapter):
    """Advertises unset strict as ``True`` without declaring it: TL-7 fails (unset must stay unset)."""

    layer_class = _StrictByDefaultLayer
    tool_layer_traits = ToolLayerTraits(strict_convention="boolean")


class BadStrictDefaultTraitsAdapter(ReferenceAdapter):
    """Declares a strict default that is not a strict setting: a usage error naming the field."""

    tool_layer_traits = ToolLayerTraits(strict_default="yes")  # type: ignore[arg-type]


class _TextResultsLayer(ReferenceToolLayer):
    """An SDK whose tools return text (anthropic's ``beta_tool``: ``str | Iterable[content block]``):
    on the tool-use path any other return value is an error result, as the runner's ``list(True)``
    raises ``TypeError``; a direct call returns the callback's value as it is."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        outputs = []
        for output in invocation.outputs:
            if isinstance(output, ToolResult) and output.status == "success" and not isinstance(output.value, (str, type(None))):
                message = f"{type(output.value).__name__!r} object is not iterable"
                output = ToolResult(tool_use_id, "error", f"TypeError: {message}", error_type="TypeError", error_message=message)
            outputs.append(output)
        return ToolInvocation(outputs=tuple(outputs))


class TextResultsAdapter(_LayerAdapter):
    """Declares that its tools return text (``callback_returns="text"``) and follows it: conforms."""

    layer_class = _TextResultsLayer
    tool_layer_traits = ToolLayerTraits(callback_returns="text")


class UndeclaredTextResultsAdapter(_LayerAdapter):
    """Takes only text from its tools without declaring it: the checks' callbacks return other JSON
    values, and TL-2 fails on valid input (a result error no rule is about)."""

    layer_class = _TextResultsLayer


class BadCallbackReturnsTraitsAdapter(ReferenceAdapter):
    """Declares a callback return convention the kit does not know: a usage error naming the field."""

    tool_layer_traits = ToolLayerTraits(callback_returns="bytes")  # type: ignore[arg-type]

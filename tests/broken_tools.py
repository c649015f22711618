"""Deliberately broken tool layers: each breaks one TL rule the way a real SDK does (or did).

Every class is the reference layer with one fault, so its rule's check must fail and, where
practical, only that one. ``BROKEN`` maps each rule to its broken layer (the self-tests read it);
``EXTRA_BROKEN`` holds further faults of an already covered rule, ``MULTI_BROKEN`` faults that
several rules rightly see. ``CONFORMING`` are layers that differ from the reference in ways the
SPEC allows (no ``default`` annotations, text-only results, dotted field paths): they must pass.
"""

from __future__ import annotations

import inspect
import json
import logging
import warnings
import weakref
from collections.abc import Callable, Mapping
from dataclasses import replace
from typing import Any

import pydantic

from strictconformance.reference.resolution import InvalidStrictSetting, validate_strict_setting
from strictconformance.tools import Tool, ToolContext, ToolInvocation, ToolResult, tool
from strictconformance.tools.contract import AdvertisedTool, ToolDefinition, ToolLayerTraits
from strictconformance.tools.layer import ReferenceToolLayer
from strictconformance.tools.schema_walk import map_subschemas


def drop_null(schema: Any) -> Any:
    """Optional[X] -> X everywhere, the way a helper that 'cleans up' pydantic output loses null."""
    if not isinstance(schema, dict):
        return schema
    node = map_subschemas(schema, lambda sub: drop_null(sub.schema))
    declared = node.get("type")
    if isinstance(declared, list):
        kinds = [kind for kind in declared if kind != "null"]
        node["type"] = kinds[0] if len(kinds) == 1 else kinds
    branches = node.get("anyOf")
    if isinstance(branches, list) and any(branch == {"type": "null"} for branch in branches):
        rest = [branch for branch in branches if branch != {"type": "null"}]
        del node["anyOf"]
        if len(rest) == 1 and isinstance(rest[0], dict):
            node.update(rest[0])
        else:
            node["anyOf"] = rest
    return node


class NullDroppingLayer(ReferenceToolLayer):
    """TL-1: model-defined tools advertise ``T | None`` as plain ``T`` (raw schemas keep null)."""

    def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
        advertised = super().describe_tool(handle)
        if handle.source != "model":
            return advertised
        return replace(advertised, input_schema=drop_null(dict(advertised.input_schema)))


class UnvalidatedRawSchemaLayer(ReferenceToolLayer):
    """TL-2: a raw JSON Schema is advertised but never used to validate input."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        if handle.source != "json_schema":
            return super().invoke_tool(handle, tool_use_id, input, invocation_state)
        permissive = tool(handle.callback, name=handle.name, input_schema={"type": "object"}, context=handle.takes_context)
        return permissive.invoke(tool_use_id, input, invocation_state)


class DictNestedModelsLayer(ReferenceToolLayer):
    """TL-2: type-hinted tools receive nested models as plain dicts (``model_dump`` before the call)."""

    def define_tool(self, definition: ToolDefinition) -> Tool[..., Any]:
        if definition.source != "signature":
            return super().define_tool(definition)
        callback = definition.callback

        def dumped(**kwargs: Any) -> Any:
            plain = {key: value.model_dump() if isinstance(value, pydantic.BaseModel) else value for key, value in kwargs.items()}
            return callback(**plain)

        dumped.__signature__ = getattr(callback, "__signature__", None)  # type: ignore[attr-defined]
        dumped.__annotations__ = dict(getattr(callback, "__annotations__", {}))
        dumped.__doc__, dumped.__name__ = callback.__doc__, definition.name
        return super().define_tool(replace(definition, callback=dumped))


def _nullable_everywhere(schema: Any) -> Any:
    """Every typed node also accepts null (an enum too), the way a validator that treats every
    field as Optional behaves."""
    if not isinstance(schema, dict):
        return schema
    node = map_subschemas(schema, lambda sub: _nullable_everywhere(sub.schema))
    declared = node.get("type")
    if isinstance(declared, str) and declared != "null":
        node["type"] = [declared, "null"]
    elif isinstance(declared, list) and "null" not in declared:
        node["type"] = [*declared, "null"]
    if isinstance(node.get("enum"), list) and None not in node["enum"]:
        node["enum"] = [*node["enum"], None]
    if isinstance(node.get("anyOf"), list) and {"type": "null"} not in node["anyOf"]:
        node["anyOf"] = [*node["anyOf"], {"type": "null"}]
    return node


#: Constraint keywords a types-only validator never looks at.
_CONSTRAINT_KEYWORDS = ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength",
                        "pattern", "minItems", "maxItems")


def _types_only(schema: Any) -> Any:
    """``schema`` without its constraint keywords."""
    if not isinstance(schema, dict):
        return schema
    node = map_subschemas(schema, lambda sub: _types_only(sub.schema))
    return {key: value for key, value in node.items() if key not in _CONSTRAINT_KEYWORDS}


class _RawSchemaValidatedAs(ReferenceToolLayer):
    """Raw-schema tools validate their input with ``lax(schema)`` instead of the schema they advertise."""

    @staticmethod
    def lax(schema: dict[str, Any]) -> dict[str, Any]:
        return schema

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        if handle.source != "json_schema":
            return super().invoke_tool(handle, tool_use_id, input, invocation_state)
        schema = self.lax(handle.input_schema)
        schema["type"] = "object"
        lax = tool(handle.callback, name=handle.name, input_schema=schema, context=handle.takes_context)
        return lax.invoke(tool_use_id, input, invocation_state)


class NullAcceptingLayer(_RawSchemaValidatedAs):
    """TL-2: raw-schema tools accept ``null`` for every field (all treated as Optional)."""

    lax = staticmethod(_nullable_everywhere)


class ConstraintIgnoringLayer(_RawSchemaValidatedAs):
    """TL-2: raw-schema tools check types only: minimum, maxLength, pattern, maxItems... are ignored."""

    lax = staticmethod(_types_only)


class StaleIdLayer(ReferenceToolLayer):
    """TL-2: a tool remembers the tool-use id of its first call and puts it on every later result."""

    def __init__(self) -> None:
        self._first_ids: weakref.WeakKeyDictionary[Tool[..., Any], str] = weakref.WeakKeyDictionary()

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        first = self._first_ids.setdefault(handle, tool_use_id)
        return ToolInvocation(tuple(replace(item, tool_use_id=first) if isinstance(item, ToolResult) else item for item in invocation.outputs))


class InputErrorIdLayer(ReferenceToolLayer):
    """TL-2 and TL-6: the error result for invalid input carries a placeholder id, not the call's
    (both rules read that result: TL-2 on the tool-use path, TL-6 after a direct call)."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        return ToolInvocation(tuple(
            replace(item, tool_use_id="invalid-input") if isinstance(item, ToolResult) and item.error_type == "ToolInputError" else item
            for item in invocation.outputs
        ))


class EscapingErrorsLayer(ReferenceToolLayer):
    """TL-3: exceptions from the callback propagate out of the tool-use path."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        result = invocation.results[0]
        if result.status == "error" and result.error_type != "ToolInputError" and result.exception is not None:
            raise result.exception
        return invocation


class TextifiedGeneratorLayer(ReferenceToolLayer):
    """TL-4: a generator's items are silently joined into the result text; no progress events."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        result = invocation.results[0]
        if not invocation.events or result.status != "success":
            return invocation
        text = "".join(str(event.data) for event in invocation.events) + result.content
        return ToolInvocation(outputs=(ToolResult(tool_use_id, "success", content=text, value=text),))


class ResultFirstLayer(ReferenceToolLayer):
    """TL-4: the final result is emitted first, the buffered progress events after it."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        return ToolInvocation((*invocation.results, *invocation.events))


class AnonymousStreamResultLayer(ReferenceToolLayer):
    """TL-4: a generator's final result is built without the tool-use id (its events have it)."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        if not (inspect.isgeneratorfunction(handle.callback) or inspect.isasyncgenfunction(handle.callback)):
            return invocation
        return ToolInvocation(tuple(
            replace(item, tool_use_id="") if isinstance(item, ToolResult) and item.status == "success" else item
            for item in invocation.outputs
        ))


class LeakingContextLayer(ReferenceToolLayer):
    """TL-5: the context parameter of a type-hinted tool shows up in the advertised schema."""

    def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
        advertised = super().describe_tool(handle)
        if handle.context_parameter is None:
            return advertised
        schema = dict(advertised.input_schema)
        schema["properties"] = {**schema["properties"], handle.context_parameter: {"type": "object"}}
        schema["required"] = [*schema.get("required", []), handle.context_parameter]
        return replace(advertised, input_schema=schema)


class UnvalidatedDirectCallLayer(ReferenceToolLayer):
    """TL-6: calling the tool object runs the bare function, without validation."""

    def call_tool(self, handle: Tool[..., Any], input: Mapping[str, Any], context: ToolContext | None) -> Any:
        if handle.source == "signature":
            return handle.callback(**input)
        return handle.callback(input, context) if handle.takes_context else handle.callback(input)


class UnvalidatedContextCallLayer(ReferenceToolLayer):
    """TL-6: a direct call of a tool that takes a context binds the context and runs the bare
    function, unvalidated (validation lives only in the tool-use path's context injection); a tool
    without context is called as the reference does."""

    def call_tool(self, handle: Tool[..., Any], input: Mapping[str, Any], context: ToolContext | None) -> Any:
        if not handle.takes_context:
            return super().call_tool(handle, input, context)
        if handle.source == "signature":
            return handle.callback(**input, **{handle.context_parameter or "ctx": context})
        return handle.callback(input, context)


class ContextDroppingCallLayer(ReferenceToolLayer):
    """TL-6: a direct call of a context tool validates, but hands the callback no context (the one
    the caller gave is dropped)."""

    def call_tool(self, handle: Tool[..., Any], input: Mapping[str, Any], context: ToolContext | None) -> Any:
        return super().call_tool(handle, input, None)


class FieldlessContextCallErrorLayer(ReferenceToolLayer):
    """TL-6: a direct call of a context tool raises on invalid input, but with a message that names
    no field ("invalid arguments")."""

    def call_tool(self, handle: Tool[..., Any], input: Mapping[str, Any], context: ToolContext | None) -> Any:
        if not handle.takes_context:
            return super().call_tool(handle, input, context)
        try:
            handle.validate_input(input)
        except ValueError:
            raise TypeError("invalid arguments") from None
        return super().call_tool(handle, input, context)


class StrictSchemaUnsupported(ValueError):
    """The strict-refusing layers' documented refusal: strict mode cannot express this input schema."""


def _objects(schema: Any) -> list[dict[str, Any]]:
    """Every object node of ``schema`` (by ``type: object`` or ``properties``)."""
    found: list[dict[str, Any]] = []
    if isinstance(schema, dict):
        if schema.get("type") == "object" or "properties" in schema:
            found.append(schema)
        map_subschemas(schema, lambda sub: found.extend(_objects(sub.schema)) or sub.schema)
    return found


class StrictOpenObjectRefusingLayer(ReferenceToolLayer):
    """A strict tool layer that refuses, at definition, a strict tool with an open object (strict
    mode requires every object closed), with its documented StrictSchemaUnsupported."""

    def define_tool(self, definition: ToolDefinition) -> Tool[..., Any]:
        handle = super().define_tool(definition)
        if definition.strict not in (None, False) and any(node.get("additionalProperties") is not False for node in _objects(handle.input_schema)):
            raise StrictSchemaUnsupported(f"tool {definition.name!r}: strict mode needs every object closed (additionalProperties: false)")
        return handle


class NestedObjectRefusingLayer(ReferenceToolLayer):
    """TL-11: refuses every strict tool with a nested object, closed or not (strict mode expresses a
    closed one), with its documented StrictSchemaUnsupported."""

    def define_tool(self, definition: ToolDefinition) -> Tool[..., Any]:
        handle = super().define_tool(definition)
        if definition.strict not in (None, False) and len(_objects(handle.input_schema)) > 1:
            raise StrictSchemaUnsupported(f"tool {definition.name!r}: nested objects are not supported in strict mode")
        return handle


class LenientStrictLayer(ReferenceToolLayer):
    """TL-7: an invalid strict setting silently becomes 'unset' instead of an error."""

    def define_tool(self, definition: ToolDefinition) -> Tool[..., Any]:
        try:
            validate_strict_setting(definition.strict)
        except InvalidStrictSetting:
            definition = replace(definition, strict=None)
        return super().define_tool(definition)


class WholeDocstringLayer(ReferenceToolLayer):
    """TL-8: a tool from a function is described by its whole docstring, ``Args:`` and all
    (langchain-core's ``@tool`` without ``parse_docstring=True``)."""

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Tool[..., Any]:
        return Tool(function, description=inspect.getdoc(function) or "", strict=strict)


class _KeyDroppingLayer(ReferenceToolLayer):
    """Tools from a function drop the input's undeclared keys before validating it, although
    their advertised schema is closed (pydantic's default ``extra='ignore'``)."""

    def __init__(self) -> None:
        self._from_function: weakref.WeakSet[Tool[..., Any]] = weakref.WeakSet()

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Tool[..., Any]:
        handle = super().define_tool_from_function(function, strict)
        self._from_function.add(handle)
        return handle

    def _report(self, dropped: list[str]) -> None:
        """How the layer tells the user about the keys it dropped: not at all."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        if handle in self._from_function and isinstance(input, Mapping):
            declared = handle.input_schema.get("properties", {})
            dropped = [key for key in input if key not in declared]
            if dropped:
                self._report(dropped)
            input = {key: value for key, value in input.items() if key in declared}
        return super().invoke_tool(handle, tool_use_id, input, invocation_state)


class SilentKeyDroppingLayer(_KeyDroppingLayer):
    """TL-9: undeclared keys dropped silently under a closed advertised schema."""


class WarningKeyDroppingLayer(_KeyDroppingLayer):
    """Conforms: drops undeclared keys, but says so in a warning naming them."""

    def _report(self, dropped: list[str]) -> None:
        warnings.warn(f"ignored undeclared arguments: {', '.join(dropped)}", UserWarning, stacklevel=2)


class LoggingKeyDroppingLayer(_KeyDroppingLayer):
    """Conforms: drops undeclared keys, but logs a warning naming them."""

    def _report(self, dropped: list[str]) -> None:
        logging.getLogger("some_sdk.tools").warning("ignored undeclared arguments: %s", ", ".join(dropped))


class UndeclaredDefaultsDroppingLayer(ReferenceToolLayer):
    """TL-10: advertises no ``default`` annotations, and does not declare it (traits say "kept")."""

    def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
        advertised = super().describe_tool(handle)
        return replace(advertised, input_schema=strip_keyword(dict(advertised.input_schema), "default"))


#: The fixed text a redacting layer puts in every error result instead of the exception.
REDACTED = "An error occurred while running the tool. Please try again."


class RedactingErrorsLayer(ReferenceToolLayer):
    """TL-3 (undeclared): every callback exception becomes one fixed text (openai-agents' default
    failure function keeps the message; some SDKs drop it), without declaring ``error_text``."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        return ToolInvocation(tuple(
            ToolResult(item.tool_use_id, "error", REDACTED)
            if isinstance(item, ToolResult) and item.status == "error" and item.error_field is None else item
            for item in invocation.outputs
        ))


class DeclaredRedactingErrorsLayer(RedactingErrorsLayer):
    """Conforms: the same redaction, declared (``error_text``)."""

    traits = ToolLayerTraits(error_text=REDACTED)


def _all_required(schema: Mapping[str, Any]) -> dict[str, Any]:
    """An OpenAI-style strict transform of the root: every property required."""
    out = dict(schema)
    if isinstance(out.get("properties"), Mapping):
        out["required"] = list(out["properties"])
    return out


class StrictTransformByDefaultLayer(ReferenceToolLayer):
    """Conforms, declared: tools are strict unless told otherwise (openai-agents' ``function_tool``);
    a strict tool's schema is transformed for strict mode (every property required). TL-1 must
    compare its sources with strict off, not flag the transform (the false alarm issue 11 names)."""

    traits = ToolLayerTraits(strict_convention="boolean", strict_default=True)

    def define_tool(self, definition: ToolDefinition) -> Tool[..., Any]:
        validate_strict_setting(definition.strict, tool_name=definition.name, allow_priority=False)
        return super().define_tool(definition)

    def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
        advertised = super().describe_tool(handle)
        if advertised.strict is False:
            return advertised
        return replace(advertised, strict=True, input_schema=_all_required(advertised.input_schema))


#: Rule ID -> the layer that breaks exactly that rule.
BROKEN: Mapping[str, type[ReferenceToolLayer]] = {
    "TL-1": NullDroppingLayer,
    "TL-2": UnvalidatedRawSchemaLayer,
    "TL-3": EscapingErrorsLayer,
    "TL-4": TextifiedGeneratorLayer,
    "TL-5": LeakingContextLayer,
    "TL-6": UnvalidatedDirectCallLayer,
    "TL-7": LenientStrictLayer,
    "TL-8": WholeDocstringLayer,
    "TL-9": SilentKeyDroppingLayer,
    "TL-10": UndeclaredDefaultsDroppingLayer,
}

#: Further faults of an already covered rule: (rule ID, layer).
EXTRA_BROKEN: tuple[tuple[str, type[ReferenceToolLayer]], ...] = (
    ("TL-2", DictNestedModelsLayer),
    ("TL-2", NullAcceptingLayer),
    ("TL-2", ConstraintIgnoringLayer),
    ("TL-2", StaleIdLayer),
    ("TL-4", ResultFirstLayer),
    ("TL-4", AnonymousStreamResultLayer),
    ("TL-3", RedactingErrorsLayer),
)

#: Faults more than one rule sees, each rightly: (the rules, layer).
MULTI_BROKEN: tuple[tuple[frozenset[str], type[ReferenceToolLayer]], ...] = (
    (frozenset({"TL-2", "TL-6"}), InputErrorIdLayer),
)


# -- correct, though not the kit's way: every TL rule must pass ------------------------------------


def strip_keyword(schema: Any, keyword: str) -> Any:
    if not isinstance(schema, dict):
        return schema
    node = map_subschemas(schema, lambda sub: strip_keyword(sub.schema, keyword))
    node.pop(keyword, None)
    return node


class NoDefaultAnnotationsLayer(ReferenceToolLayer):
    """Advertises every schema without ``default`` annotations (as strict-mode transformers do),
    and declares it (TL-10); validation is unchanged."""

    traits = ToolLayerTraits(advertised_defaults="dropped")

    def describe_tool(self, handle: Tool[..., Any]) -> AdvertisedTool:
        advertised = super().describe_tool(handle)
        return replace(advertised, input_schema=strip_keyword(dict(advertised.input_schema), "default"))


def _text_only(dumps: Callable[[Any], str]) -> type[ReferenceToolLayer]:
    class TextOnly(ReferenceToolLayer):
        def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
            invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
            return ToolInvocation(tuple(
                ToolResult(tool_use_id, "success", content=item.value if isinstance(item.value, str) else dumps(item.value))
                if isinstance(item, ToolResult) and item.status == "success" else item
                for item in invocation.outputs
            ))

    return TextOnly


class CompactTextOnlyLayer(_text_only(lambda value: json.dumps(value, separators=(",", ":")))):  # type: ignore[misc]
    """Success results carry only text, compact JSON (what many SDKs send the model); no value."""


class AsciiTextOnlyLayer(_text_only(json.dumps)):  # type: ignore[misc]
    """Success results carry only text, ``json.dumps``'s default ASCII escapes; no value."""


class DottedFieldLayer(ReferenceToolLayer):
    """Names the failing field as a dotted path (``owner.name``) in ``error_field`` and the text."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        outputs: list[Any] = []
        for item in invocation.outputs:
            if isinstance(item, ToolResult) and item.error_field is not None:
                dotted = ".".join(part for part in item.error_field.split("/") if part)
                message = f"validation failed at {dotted}"
                item = ToolResult(tool_use_id, "error", content=f"ToolInputError: {message}", error_type="ToolInputError",
                                  error_message=message, error_field=dotted)
            outputs.append(item)
        return ToolInvocation(tuple(outputs))


class TextOnlyFieldLayer(ReferenceToolLayer):
    """Reports invalid input in text only, pydantic's way (the field's path alone on a line), with
    no ``error_field``: a field named ``type`` must be found there, not in "[type=...]"."""

    def invoke_tool(self, handle: Tool[..., Any], tool_use_id: str, input: Mapping[str, Any], invocation_state: Mapping[str, Any]) -> ToolInvocation:
        invocation = super().invoke_tool(handle, tool_use_id, input, invocation_state)
        outputs: list[Any] = []
        for item in invocation.outputs:
            if isinstance(item, ToolResult) and item.error_field is not None:
                path = ".".join(part for part in item.error_field.split("/") if part)
                text = f"1 validation error for input\n{path}\n  Input is invalid [type=invalid, input_type=object]"
                item = ToolResult(tool_use_id, "error", content=text, error_type="ValidationError", error_message=text)
            outputs.append(item)
        return ToolInvocation(tuple(outputs))


#: Layers that conform in their own way: they must pass every TL rule.
CONFORMING: tuple[type[ReferenceToolLayer], ...] = (
    NoDefaultAnnotationsLayer, CompactTextOnlyLayer, AsciiTextOnlyLayer, DottedFieldLayer, TextOnlyFieldLayer,
)

#: Layers that conform in their own way on the rules named (the only ones their difference touches).
CONFORMING_ON: tuple[tuple[type[ReferenceToolLayer], tuple[str, ...]], ...] = (
    (WarningKeyDroppingLayer, ("TL-2", "TL-9")),
    (LoggingKeyDroppingLayer, ("TL-9",)),
    (DeclaredRedactingErrorsLayer, ("TL-3", "TL-6")),
)


class TwoValidationDefectsLayer(UnvalidatedRawSchemaLayer, DictNestedModelsLayer):
    """TL-2, two defects at once: raw-schema tools never validate (invalid input reaches the
    callback) and type-hinted tools hand nested models over as dicts (the callback gets the wrong
    types): two findings, each with its own counterexample."""

"""Deliberately broken strictify/codec adapters: one per SM and RT rule of SPEC §3 and §4.

``BROKEN[rule_id]`` names the adapter (``module:Class``) that must make that rule fail when the
suite runs. Each is the reference with one plausible bug and declares the one dialect its rule is
checked in (the others are then not covered, which keeps the self-test runs short).

Most SM rules are broken the way a strictify that skips unreferenced ``$defs`` breaks them: an
unused definition keeps something the dialect forbids (:class:`KeepsUnusedDefinition`). It changes
no value's validity, so only the rule (and RT-1, which is every rule at once) can see it. The size
rules are broken by a strictify that ignores the limit (:class:`IgnoresLimit`); a few rules have a
bug of their own. Where an RT rule can only fail alone for an adapter that lacks a capability (the
spec ties RT-4 to RT-6), the broken adapter lacks it, and says so.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Callable, Mapping
from typing import Any

from strictconformance.adapter import Adapter
from strictconformance.dialects import (
    LOSS_KINDS,
    SHIPPED,
    Dialect,
    Loss,
    Strictified,
    validate_strict,
)
from strictconformance.dialects.pointers import resolve_pointer
from strictconformance.reference import ReferenceAdapter
from strictconformance.reference.strictify import (
    reference_decode,
    reference_strictify,
    strictify,
)
from strictconformance.reference.strictify._passes import OPAQUE_DESCRIPTION

_MODULE = __name__
_UNUSED = "Unused"  # the injected definitions' names start with it
_TARGET = {"type": "string"}


def _map_nodes(node: Any, fn: Callable[[dict[str, Any]], dict[str, Any]]) -> Any:
    """``fn`` applied to every dict in a JSON value, children first."""
    if isinstance(node, list):
        return [_map_nodes(item, fn) for item in node]
    if isinstance(node, dict):
        return fn({key: _map_nodes(value, fn) for key, value in node.items()})
    return node


class _Broken(ReferenceAdapter):
    """The reference strictify with its output post-processed by :meth:`bug`."""

    dialect: str = "openai"

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        return schema  # the subclass's bug is elsewhere (its codec)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        return Strictified(self.bug(copy.deepcopy(result.schema)), result.losses)


def _declaring(dialect: str) -> Callable[[type[_Broken]], type[_Broken]]:
    def declare(cls: type[_Broken]) -> type[_Broken]:
        cls.dialect = dialect
        cls.strictify_dialects = (dialect,)
        return cls
    return declare


# -- SM rules: an unreferenced definition keeps what the dialect forbids -----------------------------


class KeepsUnusedDefinition(_Broken):
    """Strictifies what the schema uses and leaves an unreferenced definition as it was: one that
    breaks ``rule_id``. The injected definitions are removed from its input first, so strictifying
    its own output gives the same output (RT-3 holds)."""

    rule_id = ""
    definitions: Mapping[str, Any] = {}

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        cleaned = dict(schema)
        if isinstance(schema.get("$defs"), dict):
            kept = {name: sub for name, sub in schema["$defs"].items() if not name.startswith(_UNUSED)}
            cleaned = {key: value for key, value in schema.items() if key != "$defs"}
            if kept:
                cleaned["$defs"] = kept
        return super().strictify(cleaned, dialect)

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        schema["$defs"] = {**schema.get("$defs", {}), **copy.deepcopy(dict(self.definitions))}
        return schema


def _nested_arrays(levels: int) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    for _ in range(levels):
        node = {"type": "array", "items": node}
    return node


#: rule -> (dialect, unused definitions breaking it and no other rule of that dialect)
_UNUSED_DEFINITIONS: Mapping[str, tuple[str, dict[str, Any]]] = {
    "SM-05": ("openai", {"Unused": {"type": "string", "patternProperties": {"^x$": _TARGET}}}),
    "SM-06": ("openai@2025-01", {"Unused": {"$ref": "#/$defs/UnusedTarget"}, "UnusedTarget": _TARGET}),
    "SM-07": ("openai", {"Unused": {"type": "string", "$anchor": "unused"}}),
    "SM-08": ("openai", {"Unused": {"$dynamicRef": "#/$defs/UnusedTarget"}, "UnusedTarget": _TARGET}),
    "SM-09": ("openai", {"Unused": {"type": "string", "$dynamicAnchor": "unused"}}),
    "SM-10": ("openai", {"Unused": {"type": "string", "dependentSchemas": {"a": _TARGET}}}),
    "SM-11": ("openai", {"Unused": {"type": "string", "dependentRequired": {"a": ["b"]}}}),
    "SM-12": ("openai", {"Unused": {"type": "string", "unevaluatedProperties": False}}),
    "SM-13": ("openai", {"Unused": {"type": "string", "unevaluatedItems": False}}),
    "SM-14": ("openai", {"Unused": {"type": "string", "contains": _TARGET}}),
    "SM-15": ("openai", {"Unused": {"type": "string", "minContains": 1}}),
    "SM-16": ("openai", {"Unused": {"type": "string", "maxContains": 2}}),
    "SM-17": ("openai", {"Unused": {"type": "string", "if": _TARGET}}),
    "SM-18": ("openai", {"Unused": {"type": "string", "then": _TARGET}}),
    "SM-19": ("openai", {"Unused": {"type": "string", "else": _TARGET}}),
    "SM-20": ("openai", {"Unused": {"type": "string", "not": {"type": "null"}}}),
    "SM-21": ("openai", {"Unused": _nested_arrays(11)}),
    "SM-26": ("openai", {"Unused": {"allOf": [_TARGET]}}),
    "SM-27": ("openai", {"Unused": {"oneOf": [_TARGET]}}),
    "SM-28": ("openai", {"Unused": {"type": "array", "items": _TARGET, "prefixItems": [_TARGET]}}),
    "SM-29": ("openai", {"Unused": {"type": "object", "properties": {"a": _TARGET}, "required": [], "additionalProperties": False}}),
    "SM-31": ("openai", {"Unused": {"type": "string", "format": "uri"}}),
    "SM-32": ("openai", {"Unused": {"type": "array", "items": _TARGET, "uniqueItems": True}}),
    "SM-33": ("openai", {"Unused": {"type": "string", "default": "x"}}),
    "SM-34": ("anthropic", {"Unused": {"type": "array", "items": {"$ref": "#/$defs/Unused"}}}),
    "SM-35": ("anthropic", {"Unused": {"type": "integer", "minimum": 0}}),
    "SM-36": ("anthropic", {"Unused": {"type": "string", "maxLength": 5}}),
    "SM-37": ("anthropic", {"Unused": {"type": "array", "items": _TARGET, "minItems": 2}}),
    "SM-38": ("anthropic", {"Unused": {"type": "array", "items": _TARGET, "maxItems": 2}}),
    "SM-39": ("anthropic", {"Unused": {"type": "array", "items": _TARGET, "enum": [["a"]]}}),
    "SM-40": ("anthropic", {"Unused": {"allOf": [{"$ref": "#/$defs/UnusedTarget"}]}, "UnusedTarget": _TARGET}),
    "SM-41": ("openai", {"Unused": {"$ref": "#/$defs/UnusedMissing"}}),
    "SM-43": ("anthropic", {"Unused": {"type": "string", "pattern": "^(a)\\1$"}}),
    "SM-44": ("google", {"Unused": {"type": "string", "const": "x"}}),
    "SM-45": ("google", {"Unused": {"type": "integer", "exclusiveMaximum": 3}}),
}


def _unused_definition_adapter(rule_id: str) -> type[KeepsUnusedDefinition]:
    dialect, definitions = _UNUSED_DEFINITIONS[rule_id]
    name = f"KeepsUnusedDefinition_{rule_id.replace('-', '_')}"
    cls = type(name, (KeepsUnusedDefinition,), {
        "rule_id": rule_id, "definitions": definitions, "dialect": dialect, "strictify_dialects": (dialect,),
        "__doc__": f"{rule_id} in {dialect}: an unreferenced definition is left as it was, breaking the rule.",
        "__module__": _MODULE,
    })
    return cls


for _rule_id in _UNUSED_DEFINITIONS:
    _made = _unused_definition_adapter(_rule_id)
    globals()[_made.__name__] = _made


# -- SM rules with a bug of their own -----------------------------------------------------------------


@_declaring("anthropic")
class LeavesNonObjectRootsUnwrapped(_Broken):
    """SM-01: never wraps a root that is not an object, and its codec does not either (consistent,
    so RT-4..RT-7 hold). In anthropic, whose roots may not be ``anyOf`` either (SM-30 is openai's)."""

    @staticmethod
    def _unwrapped() -> Dialect:
        anthropic = SHIPPED["anthropic"]
        return dataclasses.replace(anthropic, name="anthropic-unwrapped", encoding=dataclasses.replace(anthropic.encoding, wrap_root=False))

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        return strictify(schema, self._unwrapped()).as_strictified()

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return strictify(schema, self._unwrapped()).codec.encode(value)

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return strictify(schema, self._unwrapped()).codec.decode(value)


@_declaring("openai")
class UntypedOpaqueNodes(_Broken):
    """SM-02: a part it sends as JSON text keeps the empty schema it came from (no ``type``); the
    codec still sends it as JSON text."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        def untype(node: dict[str, Any]) -> dict[str, Any]:
            if node.get("description") == OPAQUE_DESCRIPTION and node.get("type") == "string":
                return {key: value for key, value in node.items() if key != "type"}
            return node
        return dict(_map_nodes(schema, untype))


@_declaring("openai")
class ClosesWithAnEmptyEnum(_Broken):
    """SM-03: closes objects with ``additionalProperties: {"enum": []}`` (matches nothing: the same
    meaning) instead of the literal ``false`` the provider requires."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        def close(node: dict[str, Any]) -> dict[str, Any]:
            return {**node, "additionalProperties": {"enum": []}} if node.get("additionalProperties") is False else node
        return dict(_map_nodes(schema, close))


@_declaring("openai")
class DropsItemsOfAnything(_Broken):
    """SM-04: an array whose elements may be anything (sent as JSON text) loses its ``items``."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        def drop(node: dict[str, Any]) -> dict[str, Any]:
            items = node.get("items")
            if node.get("type") == "array" and isinstance(items, dict) and items.get("description") == OPAQUE_DESCRIPTION:
                return {key: value for key, value in node.items() if key != "items"}
            return node
        return dict(_map_nodes(schema, drop))


@_declaring("openai")
class RepeatsTheRootInAnyOf(_Broken):
    """SM-30: repeats the root object inside a root ``anyOf`` (the same meaning)."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        body = {key: value for key, value in schema.items() if key != "$defs"}
        return {**schema, "anyOf": [copy.deepcopy(body)]}


@_declaring("google")
class PropertyOrderingOffByOne(_Broken):
    """SM-42: ``propertyOrdering`` leaves out the last property."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        def order(node: dict[str, Any]) -> dict[str, Any]:
            ordering = node.get("propertyOrdering")
            return {**node, "propertyOrdering": ordering[:-1]} if isinstance(ordering, list) and ordering else node
        return dict(_map_nodes(schema, order))


class IgnoresLimit(ReferenceAdapter):
    """A strictify that does not apply one of the dialect's size limits (its codec is the
    reference's, which no schema under the limit tells apart)."""

    strictify_dialects = ("openai",)
    limit = ""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        openai = SHIPPED["openai"]
        no_limit: dict[str, Any] = {self.limit: None}
        unlimited = dataclasses.replace(openai, limits=dataclasses.replace(openai.limits, **no_limit))
        return strictify(schema, unlimited).as_strictified()


class IgnoresPropertyLimit(IgnoresLimit):
    """SM-22: no limit on the total of object properties."""

    limit = "max_total_properties"


class IgnoresEnumLimit(IgnoresLimit):
    """SM-23: no limit on the total of enum values."""

    limit = "max_enum_values"


class IgnoresStringLimit(IgnoresLimit):
    """SM-24: no limit on the characters of names and values."""

    limit = "max_total_string_length"


class IgnoresLargeEnumLimit(IgnoresLimit):
    """SM-25: no limit on the size of a large string enum."""

    limit = "large_enum_string_length"


# -- RT rules ---------------------------------------------------------------------------------------


@_declaring("openai")
class RefusesAllOf(_Broken):
    """RT-1: raises on any schema with ``allOf`` (a valid schema the reference strictifies). The
    other rules do not judge a refused schema."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        if "allOf" in repr(schema):
            raise NotImplementedError("allOf is not supported")
        return reference_strictify(schema, dialect)


@_declaring("openai")
class LossOrderChangesBetweenCalls(_Broken):
    """RT-2: gathers its losses in a table whose order depends on the call (as a dict keyed by
    object ids would), so the same schema strictified twice reports the same losses in another
    order. (A strictify reporting the previous call's losses, as one that never clears its list
    does, fails RT-4 and RT-5 too: those losses name nothing in the new schema.)"""

    def __init__(self) -> None:
        super().__init__()
        self._calls = 0

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        self._calls += 1
        losses = result.losses[::-1] if self._calls % 2 else result.losses
        return Strictified(result.schema, losses)


@_declaring("openai")
class DescriptionGrows(_Broken):
    """RT-3: prefixes the root description with a note each time, also on its own output."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {**schema, "description": "Strict. " + str(schema.get("description", ""))}


@_declaring("openai")
class RequiredWithoutNull(_Broken):
    """RT-4: makes optional properties required but forgets ``| null``: an absent property has no
    wire value the strict schema accepts. (Not where the property is a reference: a recursive one
    would then be required with no exit, and the strict schema have no value at all, RT-8.)"""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        def drop_null(node: dict[str, Any]) -> dict[str, Any]:
            properties = node.get("properties")
            if not isinstance(properties, dict):
                return node
            fixed = {}
            for name, sub in properties.items():
                branches = sub.get("anyOf") if isinstance(sub, dict) else None
                if (isinstance(branches, list) and len(branches) == 2 and branches[1] == {"type": "null"} and set(sub) == {"anyOf"}
                        and "$ref" not in branches[0]):
                    sub = branches[0]
                fixed[name] = sub
            return {**node, "properties": fixed}
        return dict(_map_nodes(schema, drop_null))


@_declaring("openai@2025-01")
class DecodeRejectsWhatItNeverSends(_Broken):
    """RT-5: decode raises on wire values the strict schema accepts but its own encode never
    produces: a record (pairs list) repeating a key, a part sent as JSON text that does not parse.
    (In openai@2025-01, whose depth limit and unrolled recursion send parts as JSON text.)"""

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        texts = _json_text_values(reference_strictify(schema, dialect).schema, value)
        for text in texts:
            json.loads(text)  # raises on text that does not parse
        stack = [value]
        while stack:
            node = stack.pop()
            if isinstance(node, list):
                keys = [item["key"] for item in node if isinstance(item, dict) and set(item) == {"key", "value"}]
                if len(set(map(str, keys))) != len(keys):
                    raise ValueError(f"repeated key in {keys}")
                stack.extend(node)
            elif isinstance(node, dict):
                stack.extend(node.values())
        return reference_decode(schema, dialect, value)


def _json_text_values(strict: Any, wire: Any) -> list[str]:
    """The strings of ``wire`` at places the strict schema sends as JSON text (walking properties,
    items and references; enough for the reference's strict schemas)."""
    definitions = strict.get("$defs", {}) if isinstance(strict, dict) else {}
    found: list[str] = []
    stack = [(strict, wire)]
    while stack:
        node, here = stack.pop()
        if not isinstance(node, dict):
            continue
        if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/$defs/"):
            stack.append((definitions.get(node["$ref"][len("#/$defs/"):]), here))
        elif node.get("description") == OPAQUE_DESCRIPTION and isinstance(here, str):
            found.append(here)
        elif isinstance(here, dict) and isinstance(node.get("properties"), dict):
            stack.extend((sub, here[name]) for name, sub in node["properties"].items() if name in here)
        elif isinstance(here, list) and isinstance(node.get("items"), dict):
            stack.extend((node["items"], item) for item in here)
        for branch in node.get("anyOf", []):
            stack.append((branch, here))
    return found


@_declaring("openai")
class CollapsesSilentlyWithoutDecode(_Broken):
    """RT-6: absent and null of an optional nullable property meet on the wire and no loss says
    so. It has no decode: with one, RT-4 fails as well (SPEC §4: silent collapse fails RT-4)."""

    decode = Adapter.decode  # type: ignore[assignment]

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        return Strictified(result.schema, tuple(loss for loss in result.losses if loss.kind != "absent-null-collapse"))


@_declaring("openai")
class DecodesListsBackwards(_Broken):
    """RT-7: builds decoded lists by prepending, so a list of the original comes back reversed (still
    valid: RT-5 holds). A decode-only adapter: with encode, RT-4 sees the same bug."""

    strictify = Adapter.strictify  # type: ignore[assignment]
    encode = Adapter.encode  # type: ignore[assignment]

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return _reversed_lists(reference_decode(schema, dialect, value), schema)


def _reversed_lists(value: Any, schema: Any) -> Any:
    """``value`` with every list its schema types as a plain array (``items``, no tuple) reversed."""
    if not isinstance(schema, Mapping):
        return value
    if isinstance(value, list) and "items" in schema and "prefixItems" not in schema:
        return [_reversed_lists(item, schema["items"]) for item in reversed(value)]
    properties = schema.get("properties")
    if isinstance(value, dict) and isinstance(properties, Mapping):
        return {key: _reversed_lists(item, properties.get(key)) for key, item in value.items()}
    return value


@_declaring("openai")
class RequiresAnImpossibleProperty(_Broken):
    """RT-8: adds a required ``schema_version`` property to the root, pinned with its bounds the
    wrong way round (``minimum: 2, maximum: 1``): no integer fits, so the strict schema has no
    value at all. Its shape breaks no rule of the dialect. It has no encode: with one (or with no
    codec at all, judged as the identity), RT-4 fails as well (no original value can encode to a
    value of a schema that has none); RT-5 has no value to draw."""

    encode = Adapter.encode  # type: ignore[assignment]

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        if not isinstance(schema.get("properties"), dict) or "schema_version" in schema["properties"]:
            return schema
        return {**schema, "properties": {**schema["properties"], "schema_version": {"type": "integer", "minimum": 2, "maximum": 1}},
                "required": [*schema.get("required", []), "schema_version"]}


@_declaring("openai")
class DropsNestedDescriptions(_Broken):
    """RT-9: keeps the root's description and title but silently drops every one below it (a
    strictify rebuilding nested nodes from their types and forgetting the annotations)."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        def strip(node: Any, top: bool) -> Any:
            if isinstance(node, list):
                return [strip(item, False) for item in node]
            if not isinstance(node, dict):
                return node
            kept = {key: strip(value, False) if key not in ("enum", "const", "required") else value
                    for key, value in node.items() if top or key not in ("description", "title")}
            if "properties" in node:  # property names, not subschemas: walk their values only
                kept["properties"] = {name: strip(sub, False) for name, sub in node["properties"].items()}
            return kept
        return dict(strip(schema, True))


@_declaring("openai")
class SharesNodesWithItsInput(_Broken):
    """RT-2 (aliasing): returns the caller's own ``enum`` lists inside the strict schema instead of
    copies (an SDK that copies dicts but not lists): appending to an enum of the strict schema
    changes the tool's original schema."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        originals = [node["enum"] for node in _nodes(schema) if isinstance(node.get("enum"), list)]

        def reuse(node: dict[str, Any]) -> dict[str, Any]:
            if isinstance(node.get("enum"), list):
                same = next((enum for enum in originals if enum == node["enum"]), None)
                if same is not None:
                    return {**node, "enum": same}
            return node
        return Strictified(dict(_map_nodes(result.schema, reuse)), result.losses)


@_declaring("openai")
class SharesOneNodeInTwoPlaces(_Broken):
    """RT-2 (aliasing): builds equal subschemas once and puts the same dict at every place (a
    cache keyed by the subschema's text): editing one property's schema edits the others."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        built: dict[str, Any] = {}

        def intern(node: dict[str, Any]) -> dict[str, Any]:
            return built.setdefault(json.dumps(node, sort_keys=True), node)
        return Strictified(dict(_map_nodes(result.schema, intern)), result.losses)


def _nodes(value: Any) -> list[dict[str, Any]]:
    found, stack = [], [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            found.append(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


# -- More RT-5 bugs, and a correct strictify that reports its losses differently ---------------------


@_declaring("openai")
class DropsEnumWithACatchAllLoss(_Broken):
    """RT-5: drops ``enum`` from typed nodes without saying where, and reports one catch-all loss at
    the root naming ``*``: a loss explains a difference only where it says, and this one names nothing."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)

        def drop(node: dict[str, Any]) -> dict[str, Any]:
            return {key: value for key, value in node.items() if key != "enum"} if "type" in node else node
        catch_all = Loss("", "keyword-stripped", "*", "something may have been dropped somewhere")
        return Strictified(_map_nodes(copy.deepcopy(result.schema), drop), (*result.losses, catch_all))


@_declaring("openai")
class DropsMaxItemsSilently(_Broken):
    """RT-5: drops ``maxItems`` everywhere and reports nothing. Generated arrays seldom outgrow their
    bound; the bounds trap's one-item and two-item arrays do at once."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        return dict(_map_nodes(schema, lambda node: {key: value for key, value in node.items() if key != "maxItems"}))


@_declaring("openai")
class LossesMergedPerNodeOnTheKeyword(_Broken):
    """Correct, reported differently: the losses of one node merged into one (the first of each kind
    of harm), a stripped keyword's loss pointing at the keyword itself (``/properties/a/maxLength``
    rather than ``/properties/a``). It must pass every RT rule."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        merged: dict[tuple[str, bool], Loss] = {}
        for loss in result.losses:
            merged.setdefault((loss.pointer, LOSS_KINDS[loss.kind][0]), loss)
        moved = []
        for loss in merged.values():
            at_keyword = f"{loss.pointer}/{loss.keyword.replace('~', '~0').replace('/', '~1')}"
            if loss.kind == "keyword-stripped" and _resolves(schema, at_keyword):
                loss = dataclasses.replace(loss, pointer=at_keyword)
            moved.append(loss)
        return Strictified(result.schema, tuple(moved))


def _resolves(document: Any, pointer: str) -> bool:
    try:
        resolve_pointer(document, pointer)
    except LookupError:
        return False
    return True


#: Broken strictify adapters beyond one per rule (rule they fail, alone among the RT rules).
MORE_BROKEN: dict[str, str] = {"DropsEnumWithACatchAllLoss": "RT-5", "DropsMaxItemsSilently": "RT-5",
                               "SharesNodesWithItsInput": "RT-2", "SharesOneNodeInTwoPlaces": "RT-2"}
#: Correct strictify adapters that differ from the reference: they pass every RT rule.
CORRECT_VARIANTS: tuple[str, ...] = ("LossesMergedPerNodeOnTheKeyword",)


# -- Junk answers: each fails the check that called it, naming the method, never a crash -----------


@_declaring("openai")
class LossesNotLosses(_Broken):
    """strictify returns a Strictified whose losses are strings (a Strictified is not type-checked when built)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        return Strictified(reference_strictify(schema, dialect).schema, ("junk",))  # type: ignore[arg-type]


@_declaring("openai")
class NaNInTheSchema(_Broken):
    """strictify puts NaN in the strict schema (json.dumps would write it; JSON has no NaN)."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {**schema, "maxProperties": float("nan")}


@_declaring("openai")
class IntegerPropertyName(_Broken):
    """strictify adds a property whose name is an int (json.dumps would turn it into "1")."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {**schema, "properties": {**schema.get("properties", {}), 1: {"type": "string"}}}


@_declaring("openai")
class FiveThousandLevels(_Broken):
    """strictify returns a schema nested 5000 objects deep (a repr or json.dumps of it recurses too deep)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        node: dict[str, Any] = {"type": "string"}
        for _ in range(5000):
            node = {"type": "object", "properties": {"a": node}, "required": ["a"], "additionalProperties": False}
        return Strictified(node)


@_declaring("openai")
class StrictifyReturnsText(_Broken):
    """strictify returns the schema as JSON text."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        return json.dumps(reference_strictify(schema, dialect).schema)  # type: ignore[return-value]


@_declaring("openai")
class EncodeReturnsASet(_Broken):
    """encode returns a set."""

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return {1, 2}


@_declaring("openai")
class DecodeReturnsAnObject(_Broken):
    """decode returns a Python object that is not a JSON value."""

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return object()


class NullableRefused(ValueError):
    """RefusesNullableFields's declared refusal."""


@_declaring("openai")
class RefusesNullableFields(_Broken):
    """RT-10: refuses every schema holding a nullable type (``["string", "null"]``), with its declared
    refusal; every strict dialect expresses one, and the reference strictifies it with no loss. The
    other rules do not judge a refused schema."""

    strictify_refusals = (NullableRefused,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        # a schema already strict (its own output, RT-3's input) is taken as it is
        if '"null"' in json.dumps(schema) and validate_strict(dict(schema), SHIPPED[dialect]):
            raise NullableRefused("nullable fields are not supported")
        return super().strictify(schema, dialect)


class ReturnsItsInput(ReferenceAdapter):
    """Not one rule's bug: a strictify whose ``strict: true`` only sets the flag, returning every
    schema unchanged (one defect that breaks most strict-schema rules)."""

    strictify_dialects = ("openai",)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        return Strictified(copy.deepcopy(dict(schema)), ())


def _path(cls: type) -> str:
    return f"{_MODULE}:{cls.__name__}"


#: adapter -> (the rule whose checks meet the junk first, the method named, what the failure says)
JUNK: dict[str, tuple[str, str, str]] = {
    "LossesNotLosses": ("RT-1", "strictify", "losses[0] is 'junk', expected a Loss"),
    "NaNInTheSchema": ("RT-1", "strictify", "at /maxProperties: nan is not a JSON number"),
    "IntegerPropertyName": ("RT-1", "strictify", "at /properties: the key 1 is a int; JSON object keys are strings"),
    "FiveThousandLevels": ("RT-1", "strictify", "the value nests deeper than 500 levels"),
    "StrictifyReturnsText": ("RT-1", "strictify", "must return a dict (the strict schema) or a Strictified(schema, losses), got str"),
    "EncodeReturnsASet": ("RT-4", "encode", "at /: a value of type set is not a JSON value"),
    "DecodeReturnsAnObject": ("RT-5", "decode", "at /: a value of type object is not a JSON value"),
}


BROKEN: dict[str, str] = {
    "SM-01": _path(LeavesNonObjectRootsUnwrapped),
    "SM-02": _path(UntypedOpaqueNodes),
    "SM-03": _path(ClosesWithAnEmptyEnum),
    "SM-04": _path(DropsItemsOfAnything),
    **{rule_id: f"{_MODULE}:KeepsUnusedDefinition_{rule_id.replace('-', '_')}" for rule_id in _UNUSED_DEFINITIONS},
    "SM-22": _path(IgnoresPropertyLimit),
    "SM-23": _path(IgnoresEnumLimit),
    "SM-24": _path(IgnoresStringLimit),
    "SM-25": _path(IgnoresLargeEnumLimit),
    "SM-30": _path(RepeatsTheRootInAnyOf),
    "SM-42": _path(PropertyOrderingOffByOne),
    "RT-1": _path(RefusesAllOf),
    "RT-2": _path(LossOrderChangesBetweenCalls),
    "RT-3": _path(DescriptionGrows),
    "RT-4": _path(RequiredWithoutNull),
    "RT-5": _path(DecodeRejectsWhatItNeverSends),
    "RT-6": _path(CollapsesSilentlyWithoutDecode),
    "RT-7": _path(DecodesListsBackwards),
    "RT-8": _path(RequiresAnImpossibleProperty),
    "RT-9": _path(DropsNestedDescriptions),
    "RT-10": _path(RefusesNullableFields),
}

#: The dialect each broken adapter declares (the one its rule is checked in).
DIALECT_OF: dict[str, str] = {rule_id: globals()[path.split(":")[1]].strictify_dialects[0] for rule_id, path in BROKEN.items()}


# -- defects: planted bugs, as a maintainer's SDK might have them (tests/test_defects_e2e.py) ------------


def _close_enum(node: dict[str, Any]) -> dict[str, Any]:
    if "enum" in node:
        raise TypeError("enum values are not closed")  # planted: one crash, one function
    return node


def _inline_union(node: dict[str, Any]) -> dict[str, Any]:
    if "anyOf" in node:
        raise TypeError("cannot inline a union")  # planted: the same type, another function
    return node


@_declaring("openai")
class ThreePlantedBugs(_Broken):
    """Three causes met by many cases each: ``$anchor`` added to every output (SM-07), TypeError from
    :func:`_close_enum` on an enum, TypeError from :func:`_inline_union` on an ``anyOf``."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        _map_nodes(copy.deepcopy(dict(schema)), _close_enum)
        _map_nodes(copy.deepcopy(dict(schema)), _inline_union)
        return super().strictify(schema, dialect)

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        return {**schema, "$anchor": "root"}


@_declaring("openai")
class LeavesADanglingReference(_Broken):
    """Its strict schema points a property at a definition it does not carry: SM-41 (a reference
    that does not resolve inside the schema), which the value generator cannot follow either."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        if schema.get("type") != "object" or not isinstance(schema.get("properties"), dict):
            return schema
        properties = {**schema["properties"], "gone": {"$ref": "#/$defs/Gone"}}
        return {**schema, "properties": properties, "required": [*schema.get("required", []), "gone"]}


@_declaring("openai")
class LoosensArrayItems(_Broken):
    """RT-5 on fixed cases: every array's ``items`` becomes ``{}`` in the strict schema (any item),
    and decode passes the wire value through: a strict answer with a number where the original
    wants a string reaches user code. A drawn value may well hold only items the original accepts
    too (the first draw of an array is the empty one); a value constructed near the witness holds
    one of each type."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        return _map_nodes(schema, lambda node: {**node, "items": {}} if node.get("type") == "array" and "items" in node else node)

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return value


@_declaring("openai")
class LeavesTheLastPropertyOptional(_Broken):
    """SM-29 at every object with two or more properties: the last one is left out of ``required``.
    One cause, met at any node shape a draw puts the object under (properties, items, anyOf...)."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        def drop(node: dict[str, Any]) -> dict[str, Any]:
            names = list(node.get("properties") or {}) if isinstance(node.get("properties"), dict) else []
            if len(names) >= 2 and isinstance(node.get("required"), list):
                return {**node, "required": [name for name in node["required"] if name != names[-1]]}
            return node
        return _map_nodes(schema, drop)


@_declaring("openai")
class AnchorsTheRootAndAddsIf(_Broken):
    """Two defects in every output with a string: ``$anchor`` at the root (SM-07), ``if`` beside
    every string (SM-17). The validator lists SM-07 first, so RT-1's search only ever shrinks it:
    SM-17 is seen beside it, never first."""

    def bug(self, schema: dict[str, Any]) -> dict[str, Any]:
        marked = _map_nodes(schema, lambda node: {**node, "if": {"type": "string"}} if node.get("type") == "string" else node)
        return {**marked, "$anchor": "root"}

"""Strategies for values of a JSON Schema.

:func:`instances` compiles a schema straight into Hypothesis strategies (fixed dictionaries,
lists, ``one_of``): constructive for the strict subsets, records, tuples and references
(recursion is unrolled :data:`MAX_UNROLL` times, then only the base cases remain), with a filter
only where a keyword restricts values in a way no construction expresses (``not``, ``if``,
``oneOf`` exclusivity, ``dependentSchemas``, ``contains``). ``engine="hypothesis-jsonschema"``
uses hypothesis-jsonschema instead; ``"auto"`` compiles what it builds constructively and hands
other schemas to hypothesis-jsonschema where it can take them (no recursion, no dynamic or
unevaluated keywords).
"""

from __future__ import annotations

import copy
import functools
import json
import math
from collections import Counter, OrderedDict
from collections.abc import Callable
from datetime import timezone
from typing import Any, Literal

from hypothesis import event
from hypothesis import strategies as st
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from strictconformance.dialects.pointers import resolve_local_reference, written_before_2019_09
from strictconformance.dialects.values import canonical, exact_json_text
from strictconformance.spec.keywords import ANNOTATION_KEYWORDS, SCHEMA_MAP_KEYWORDS

__all__ = ["MAX_UNROLL", "compile_instances", "instances", "json_values", "uses_only_constructive_keywords"]

MAX_UNROLL = 3
_DEFAULT_MAX_ITEMS = 3
_NUMBER_RANGE = 10**6

# keywords the compiler builds values for without any filter (and below, those it filters for): a
# property of this compiler, not keyword facts (those are in strictconformance.spec.keywords)
_CONSTRUCTIVE = frozenset({
    "type", "enum", "const", "properties", "required", "additionalProperties", "items", "prefixItems",
    "minItems", "maxItems", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
    "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "anyOf", "$ref", "$defs", "definitions",
    "patternProperties", "propertyNames", "minProperties", "maxProperties", "dependentRequired",
    "unevaluatedProperties", "unevaluatedItems", "allOf", "title", "description", "default", "examples",
    "$comment", "$schema", "$id", "$anchor", "propertyOrdering", "deprecated", "readOnly", "writeOnly",
})
_RESTRICTIVE = ("not", "if", "then", "else", "dependentSchemas", "contains", "minContains", "maxContains", "oneOf", "uniqueItems")
_HJS_UNSUPPORTED = ("$dynamicRef", "$dynamicAnchor", "unevaluatedProperties", "unevaluatedItems", "$anchor")
_EVERY_TYPE = frozenset({"array", "boolean", "null", "number", "object", "string"})  # "integer" is a number


def _owned(strategy: st.SearchStrategy[Any], values: list[Any]) -> st.SearchStrategy[Any]:
    """``strategy`` of the schema's own ``values``, drawing a copy of an object or array (the
    compiled strategy outlives the draw: :func:`instances` keeps it for the next caller)."""
    return strategy.map(copy.deepcopy) if any(isinstance(value, (dict, list)) for value in values) else strategy


def _accepts_everything(node: Any) -> bool:
    """Whether ``node`` accepts every JSON value as written: true, ``{}``, or only a ``type`` listing
    every type (besides annotations). ``{"not": ...}`` of it is the idiom of a forbidden member."""
    if node is True:
        return True
    if not isinstance(node, dict) or set(node) - ANNOTATION_KEYWORDS - {"$comment", "type"}:
        return False
    declared = node.get("type", list(_EVERY_TYPE))
    return isinstance(declared, list) and set(declared) >= _EVERY_TYPE


@functools.cache
def json_values(max_leaves: int = 6) -> st.SearchStrategy[Any]:
    """Any JSON value, kept small (one shared strategy per size: building a recursive strategy is costly)."""
    scalars = st.none() | st.booleans() | st.integers(-1000, 1000) | st.floats(allow_nan=False, allow_infinity=False, width=32) | st.text(max_size=8)
    return st.recursive(scalars, lambda inner: st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=max_leaves)


def _format_strategy(name: str) -> st.SearchStrategy[str] | None:
    strategies: dict[str, Callable[[], st.SearchStrategy[str]]] = {
        "date-time": lambda: st.datetimes(timezones=st.just(timezone.utc)).map(lambda d: d.isoformat()),
        "date": lambda: st.dates().map(lambda d: d.isoformat()),
        "time": lambda: st.times().map(lambda t: t.isoformat() + "Z"),
        "duration": lambda: st.tuples(st.integers(0, 30), st.integers(0, 23)).map(lambda p: f"P{p[0]}DT{p[1]}H"),
        "email": lambda: st.from_regex(r"\A[a-z]{1,8}@[a-z]{1,8}\.(com|org)\Z"),
        "hostname": lambda: st.from_regex(r"\A[a-z]{1,10}(\.[a-z]{1,10}){0,2}\Z"),
        "ipv4": lambda: st.ip_addresses(v=4).map(str),
        "ipv6": lambda: st.ip_addresses(v=6).map(str),
        "uuid": lambda: st.uuids().map(str),
        "uri": lambda: st.from_regex(r"\Ahttps://[a-z]{1,10}\.com/[a-z0-9]{0,8}\Z"),
    }
    make = strategies.get(name)
    return make() if make else None


def _noted(strategy: st.SearchStrategy[Any], feature: str) -> st.SearchStrategy[Any]:
    """``strategy`` recording ``hypothesis.event(feature)`` at each draw (never when compiling)."""
    def note(value: Any) -> Any:
        event(f"instances: {feature}")
        return value
    return strategy.map(note)


class _Compiler:
    def __init__(self, root: Any, *, older: bool | None = None) -> None:
        self.root = root
        self.validator = Draft202012Validator(root)
        self.anchors: dict[str, Any] = {}
        #: the strategies built, by (node id, reference counts), with their node (see compile)
        self.compiled: dict[tuple[int, frozenset[tuple[int, int]]], tuple[Any, st.SearchStrategy[Any]]] = {}
        # written in draft 04-07 (``older``: as first written, before in_2020_12), a plain-name
        # `id`/`$id` ("#name") is an anchor too, as the validator reads it
        older = written_before_2019_09(root) if older is None else older
        stack = [root]
        while stack:
            node = stack.pop()
            if isinstance(node, dict):
                for key in ("$anchor", "$dynamicAnchor"):
                    if isinstance(node.get(key), str):
                        self.anchors.setdefault(node[key], node)
                for key in ("id", "$id") if older else ():
                    if isinstance(node.get(key), str) and node[key].startswith("#") and len(node[key]) > 1:
                        self.anchors.setdefault(node[key][1:], node)
                stack.extend(v for k, v in node.items() if k not in ("enum", "const", "default", "examples"))
            elif isinstance(node, list):
                stack.extend(node)

    def valid(self, schema: Any) -> Callable[[Any], bool]:
        bound = self.validator.evolve(schema=schema)
        return lambda value: bool(bound.is_valid(value))

    def resolve(self, reference: str) -> Any:
        """What ``reference`` names, resolved as the validator resolves it (one function for both:
        JSON pointers, ``$anchor``, a draft 04-07 plain-name ``id``/``$id``, the root's ``$id``)."""
        if reference.startswith("#") and reference[1:] in self.anchors:
            return self.anchors[reference[1:]]
        found = resolve_local_reference(self.root, reference)
        if found is None:
            raise ValueError(f"cannot generate values for reference {reference!r}: it does not resolve inside the schema "
                             "(another document, or a pointer or anchor nothing in it defines)")
        return found[1]

    def compile(self, node: Any, chain: tuple[int, ...] = ()) -> st.SearchStrategy[Any]:
        """The strategy of ``node`` reached through the references ``chain``. Only how often each
        reference target is in the chain matters (MAX_UNROLL), so a node met again with the same
        counts gets the strategy already built: a schema whose definitions refer to each other
        from several places compiles in time linear in its size times the unrolling, not in the
        number of paths through it (nine self-references unrolled three deep were 9**3 copies)."""
        counts = frozenset(Counter(chain).items())
        key = (id(node), counts)
        kept = self.compiled.get(key)
        if kept is not None and kept[0] is node:
            return kept[1]
        strategy = self._compile(node, chain)
        self.compiled[key] = (node, strategy)  # the node is kept, so its id stays its own
        return strategy

    def _compile(self, node: Any, chain: tuple[int, ...]) -> st.SearchStrategy[Any]:
        if node is True or node == {}:
            return json_values()
        if node is False:
            return st.nothing()
        if not isinstance(node, dict):
            raise ValueError(f"not a schema: {node!r}")
        reference = node.get("$ref", node.get("$dynamicRef"))
        if isinstance(reference, str):
            target = self.resolve(reference)
            if chain.count(id(target)) >= MAX_UNROLL:
                return st.nothing()  # deeper recursion: only the base cases remain
            base = _noted(self.compile(target, (*chain, id(target))), "reference")
            rest = {k: v for k, v in node.items() if k not in ("$ref", "$dynamicRef")}
            return base.filter(self.valid(rest)) if set(rest) - {"description", "title"} else base
        if "not" in node and _accepts_everything(node["not"]):
            return st.nothing()  # drawn and filtered, every value was rejected, each time
        restrictive = [k for k in _RESTRICTIVE if k in node]
        if restrictive:
            plain = {k: v for k, v in node.items() if k not in ("not", "if", "then", "else", "dependentSchemas", "oneOf")}
            if "oneOf" in node:
                branches = node["oneOf"]
                checks = [self.valid(b) for b in branches]

                def only(index: int) -> Callable[[Any], bool]:
                    return lambda value: not any(check(value) for j, check in enumerate(checks) if j != index)

                options = []
                for i, b in enumerate(branches):
                    combined = _conjoin(plain, b)
                    base = self.compile(combined, chain) if combined is not None else self.compile(plain, chain).filter(checks[i])
                    options.append(base.filter(only(i)))
                usable = [o for o in options if not o.is_empty]
                return st.one_of(usable) if usable else st.nothing()
            return self._compile_plain(plain, chain).filter(self.valid(node))
        return self._compile_plain(node, chain)

    def _compile_plain(self, node: dict[str, Any], chain: tuple[int, ...]) -> st.SearchStrategy[Any]:
        if "allOf" in node:
            merged = {k: v for k, v in node.items() if k != "allOf"}
            leftovers = []
            for branch in node["allOf"]:
                combined = _conjoin(merged, branch)
                if combined is None:
                    leftovers.append(branch)
                else:
                    merged = combined
            base = self.compile(merged, chain)
            return base.filter(self.valid({"allOf": leftovers})) if leftovers else base
        if "anyOf" in node:
            rest = {k: v for k, v in node.items() if k != "anyOf"}
            options = []
            for branch in node["anyOf"]:
                combined = _conjoin(rest, branch)
                options.append(self.compile(combined, chain) if combined is not None else self.compile(branch, chain).filter(self.valid(rest)))
            usable = [o for o in options if not o.is_empty]
            return st.one_of(usable) if usable else st.nothing()
        if "const" in node:
            return _owned(st.just(node["const"]), [node["const"]]) if self.valid(node)(node["const"]) else st.nothing()
        if "enum" in node:
            check = self.valid(node)
            values = [v for v in node["enum"] if check(v)]
            return _owned(st.sampled_from(values), values) if values else st.nothing()
        declared = node.get("type")
        if isinstance(declared, list):
            options = [self._typed({**node, "type": name}, name, chain) for name in declared]
            usable = [o for o in options if not o.is_empty]
            return st.one_of(usable) if usable else st.nothing()
        if isinstance(declared, str):
            return self._typed(node, declared, chain)
        # no type: the keywords apply only to their own type, any other type passes
        return json_values().filter(self.valid(node))

    def _typed(self, node: dict[str, Any], name: str, chain: tuple[int, ...]) -> st.SearchStrategy[Any]:
        strategy = self._typed_unnoted(node, name, chain)
        return strategy if strategy.is_empty else _noted(strategy, name)

    def _typed_unnoted(self, node: dict[str, Any], name: str, chain: tuple[int, ...]) -> st.SearchStrategy[Any]:
        if name == "null":
            return st.none()
        if name == "boolean":
            return st.booleans()
        if name == "string":
            return self._string(node)
        if name in ("integer", "number"):
            return _numbers(node, name)
        if name == "array":
            return self._array(node, chain)
        if name == "object":
            return self._object(node, chain)
        return st.nothing()

    def _string(self, node: dict[str, Any]) -> st.SearchStrategy[str]:
        low, high = node.get("minLength", 0), node.get("maxLength")
        if "pattern" in node:
            def fits(text: str) -> bool:
                return len(text) >= low and (high is None or len(text) <= high)
            return st.from_regex(node["pattern"]).filter(fits)
        formatted = _format_strategy(node["format"]) if "format" in node else None
        if formatted is not None:
            return formatted.filter(lambda text: len(text) >= low and (high is None or len(text) <= high))
        return st.text(min_size=low, max_size=high if high is not None else max(low, 12))

    def _array(self, node: dict[str, Any], chain: tuple[int, ...]) -> st.SearchStrategy[list[Any]]:
        prefix = [self.compile(sub, chain) for sub in node.get("prefixItems", [])]
        rest_schema = node.get("items", True)
        if node.get("unevaluatedItems") is False and "items" not in node:
            rest_schema = False
        rest = self.compile(rest_schema, chain)
        low = node.get("minItems", 0)
        high = node.get("maxItems")
        unique = node.get("uniqueItems") is True
        usable_prefix = 0
        for strategy in prefix:
            if strategy.is_empty:
                break
            usable_prefix += 1
        top = usable_prefix if high is None else min(usable_prefix, high)
        # past the prefix only where every prefix item has a value and `items` allows more
        longest = top if rest.is_empty or usable_prefix < len(prefix) else high
        if (longest is not None and low > longest) or (high is not None and high < low):
            return st.nothing()  # no length both allowed and reachable (`items: false` with minItems 1)
        strategy = _array_values(prefix, rest, low, high, top, unique)
        return strategy.filter(self.valid(node)) if unique else strategy

    def _object(self, node: dict[str, Any], chain: tuple[int, ...]) -> st.SearchStrategy[dict[str, Any]]:
        properties: dict[str, Any] = node.get("properties", {})
        required = [name for name in node.get("required", [])]
        compiled = {name: self.compile(sub, chain) for name, sub in properties.items()}
        for name in required:
            if name not in compiled:
                compiled[name] = self.compile(node.get("additionalProperties", True), chain)
            if compiled[name].is_empty:
                return st.nothing()
        closed = node.get("additionalProperties") is False or node.get("unevaluatedProperties") is False
        patterns: dict[str, Any] = node.get("patternProperties", {})
        extra_schema = node.get("additionalProperties", True)
        if patterns:
            pattern, pattern_schema = next(iter(patterns.items()))
            keys: st.SearchStrategy[Any] = st.from_regex(pattern, fullmatch=True)
            extra_values = self.compile(pattern_schema, chain)
            closed = False
            patterns_check = self.valid({"patternProperties": patterns, "additionalProperties": extra_schema})
        else:
            names = node.get("propertyNames", {})
            keys = st.text(alphabet="klmnopqrstuvwxyz", min_size=1, max_size=6)
            if isinstance(names, dict) and isinstance(names.get("enum"), list):
                # a closed set of names (a record keyed by an enum): draw from it
                listed = [name for name in names["enum"] if isinstance(name, str)]
                keys = st.sampled_from(listed) if listed else st.nothing()
                closed = closed or not listed
            elif isinstance(names, dict) and isinstance(names.get("const"), str):
                keys = st.just(names["const"])
            elif isinstance(names, dict) and "pattern" in names:
                keys = st.from_regex(names["pattern"], fullmatch=True)
            if names not in ({}, True):  # every name must be valid under it, whatever else it says
                keys = keys.filter(self.valid(names))
            extra_values = self.compile(extra_schema, chain)
            patterns_check = None
        if extra_values.is_empty:
            closed = True
        low, high = node.get("minProperties", 0), node.get("maxProperties")
        dependencies: dict[str, list[str]] = node.get("dependentRequired", {})
        optional = [name for name in properties if name not in required and not compiled[name].is_empty]

        declared = frozenset(properties)
        fresh = keys.filter(lambda key: key not in declared)
        strategy = _object_values(compiled, required, optional, dependencies, closed, fresh, extra_values, low, high, {})
        if high is not None or low or patterns_check is not None:
            return strategy.filter(self.valid(node))
        return strategy


# Module-level composites: Hypothesis inspects a composite function's source when it is defined,
# so one defined per compiled node would cost milliseconds per schema node.
@st.composite
def _array_values(draw: st.DrawFn, prefix: list[st.SearchStrategy[Any]], rest: st.SearchStrategy[Any], low: int,
                  high: int | None, top: int, unique: bool) -> list[Any]:
    count = draw(st.integers(min(low, top), top), label="prefix items")
    values = [draw(prefix[i], label=f"prefix item {i}") for i in range(count)]
    if count == len(prefix) and not rest.is_empty:
        room = (max(low - count, 0), (high - count) if high is not None else max(low - count, 0) + _DEFAULT_MAX_ITEMS)
        extra = draw(st.lists(rest, min_size=room[0], max_size=max(room), unique_by=canonical if unique else None), label="items")
        values.extend(extra)
    return values


@st.composite
def _object_values(draw: st.DrawFn, compiled: dict[str, st.SearchStrategy[Any]], required: list[str], optional: list[str],
                   dependencies: dict[str, list[str]], closed: bool, fresh: st.SearchStrategy[Any],
                   extra_values: st.SearchStrategy[Any], low: int, high: int | None,
                   extras: dict[tuple[int, int], st.SearchStrategy[Any]]) -> dict[str, Any]:
    """``fresh``: the names an extra key may take (none of the declared properties); ``extras``:
    the strategy of the extra keys per room left for them, made once per node and room, not per
    draw (a strategy drawn from for the first time computes its properties, see strategies._choices)."""
    chosen = [name for name in optional if draw(st.booleans(), label=f"include {name}")]
    for name in list(chosen):
        chosen.extend(dep for dep in dependencies.get(name, []) if dep not in chosen and dep not in required)
    value = {name: draw(compiled[name], label=name) for name in required}
    for name in chosen:
        if name in compiled and name not in value:
            value[name] = draw(compiled[name], label=name)
    if not closed:
        room_low = max(low - len(value), 0)
        room_high = (high - len(value)) if high is not None else room_low + _DEFAULT_MAX_ITEMS
        if room_high >= room_low:
            room = (room_low, room_high)
            made = extras.get(room)
            if made is None:
                made = extras[room] = st.dictionaries(fresh, extra_values, min_size=room_low, max_size=room_high)
            for key, item in draw(made, label="extra keys").items():
                value.setdefault(key, item)
    return value


def _numbers(node: dict[str, Any], name: str) -> st.SearchStrategy[Any]:
    low = node.get("minimum")
    high = node.get("maximum")
    ex_low = node.get("exclusiveMinimum")
    ex_high = node.get("exclusiveMaximum")
    step = node.get("multipleOf")
    if name == "integer" or (isinstance(step, int) and not isinstance(step, bool)):
        lowest = max([v for v in (low, None if ex_low is None else math.floor(ex_low) + 1) if v is not None], default=-_NUMBER_RANGE)
        highest = min([v for v in (high, None if ex_high is None else math.ceil(ex_high) - 1) if v is not None], default=_NUMBER_RANGE)
        lowest, highest = math.ceil(lowest), math.floor(highest)
        if step:
            first, last = math.ceil(lowest / step), math.floor(highest / step)
            return st.integers(first, last).map(lambda k: k * step) if first <= last else st.nothing()
        return st.integers(lowest, highest) if lowest <= highest else st.nothing()
    floats = st.floats(
        min_value=low if low is not None else ex_low if ex_low is not None else -_NUMBER_RANGE,
        max_value=high if high is not None else ex_high if ex_high is not None else _NUMBER_RANGE,
        exclude_min=low is None and ex_low is not None, exclude_max=high is None and ex_high is not None,
        allow_nan=False, allow_infinity=False,
    )
    strategy = floats if step is None else floats.map(lambda x: round(x / step) * step)
    return strategy.filter(Draft202012Validator(node).is_valid) if step is not None or (low is not None and ex_low is not None) or (high is not None and ex_high is not None) else strategy


def _conjoin(a: dict[str, Any], b: Any) -> dict[str, Any] | None:
    """``a`` and ``b`` as one schema when no keyword clashes (``None`` otherwise)."""
    if not isinstance(b, dict):
        return None if b is False else dict(a)
    other = _closed_out(b, a)
    first = _closed_out(a, other) if other is not None else None
    if first is None or other is None or not _properties_conjoin(first, other) or not _properties_conjoin(other, first):
        return None
    merged = dict(first)
    for key, value in other.items():
        if key in merged and merged[key] != value:
            if key == "properties" and isinstance(value, dict) and isinstance(merged[key], dict):
                # a property both declare must match both
                merged[key] = {**merged[key], **{name: sub if name not in merged[key] or merged[key][name] == sub
                                                 else {"allOf": [merged[key][name], sub]} for name, sub in value.items()}}
            elif key == "required":
                merged[key] = list(dict.fromkeys([*merged[key], *value]))
            elif key in ANNOTATION_KEYWORDS or key == "$comment":
                continue
            else:
                return None
        else:
            merged[key] = value
    return merged


def _closed_out(b: dict[str, Any], a: dict[str, Any]) -> dict[str, Any] | None:
    """``b`` without the properties ``a`` closes out (``a`` has ``additionalProperties: false`` and
    does not declare them: no value of the conjunction holds them); None when ``b`` requires one
    (the conjunction has no object value)."""
    if a.get("additionalProperties") is not False or "patternProperties" in a or not isinstance(b.get("properties"), dict):
        return b
    declared = set(a.get("properties") or {})
    forbidden = set(b["properties"]) - declared
    if not forbidden:
        return b
    if forbidden & set(b.get("required") or ()):
        return None
    return {**b, "properties": {name: sub for name, sub in b["properties"].items() if name not in forbidden}}


def _properties_conjoin(a: dict[str, Any], b: dict[str, Any]) -> bool:
    """Whether ``b``'s properties can join ``a``'s in one schema: ``a``'s ``additionalProperties``
    (or ``patternProperties``) judges every property ``a`` does not declare, so a property only
    ``b`` declares stays under it in the conjunction, which one merged ``properties`` would lose
    (a branch's property under a parent closed with ``additionalProperties: false`` is rejected)."""
    extra = set(b.get("properties") or {}) - set(a.get("properties") or {}) if isinstance(b.get("properties"), dict) else set()
    if not extra:
        return True
    return a.get("additionalProperties", True) is True and "patternProperties" not in a and "unevaluatedProperties" not in a


def uses_only_constructive_keywords(schema: Any) -> bool:
    """True when every keyword of ``schema`` is one the compiler builds without filtering."""
    stack = [schema]
    while stack:
        node = stack.pop()
        if isinstance(node, dict):
            for key, value in node.items():
                if key in SCHEMA_MAP_KEYWORDS and isinstance(value, dict):
                    if key not in _CONSTRUCTIVE:  # `dependentSchemas` is filtered, `dependencies` not compiled
                        return False
                    stack.extend(value.values())
                elif key in ("enum", "const", "default", "examples", "required", "dependentRequired", "propertyOrdering"):
                    continue
                else:
                    if key not in _CONSTRUCTIVE:
                        return False
                    if isinstance(value, (dict, list)):
                        stack.append(value)
        elif isinstance(node, list):
            stack.extend(node)
    return True


def _hypothesis_jsonschema_can(schema: Any) -> bool:
    text = repr(schema)
    return not any(keyword in text for keyword in _HJS_UNSUPPORTED) and "'$ref'" not in text


def compile_instances(schema: Any, *, older: bool | None = None) -> st.SearchStrategy[Any]:
    """The compiled strategy for ``schema`` (see the module docstring); ``older``: whether it was
    written in draft 04-07 (default: what its ``$schema`` says)."""
    return _Compiler(schema, older=older).compile(schema)


def in_2020_12(schema: Any) -> Any:
    """``schema`` with the older drafts' array form of ``items`` (a tuple: drafts 04 to 2019-09)
    written as 2020-12 says the same (``prefixItems``, with ``additionalItems`` as ``items``), at
    every subschema; the same object when there is none. The values of both are the same, and the
    generators speak 2020-12 (a draft-07 tuple in an SDK's strict schema crashed RT-5's draws)."""
    from strictconformance.spec.keywords import holds

    def walk(node: Any) -> Any:
        if not isinstance(node, dict):
            return node
        out: dict[str, Any] = {}
        changed = False
        for keyword, value in node.items():
            form = holds(keyword, value)
            if form == "schema":
                new = walk(value)
            elif form == "schema-array":
                new = [walk(item) for item in value]
            elif form == "schema-map" and isinstance(value, dict):
                new = {name: walk(item) for name, item in value.items()}
            else:
                new = value
            changed = changed or new is not value
            out[keyword] = new
        if isinstance(out.get("items"), list):
            changed = True
            tuple_items = out.pop("items")
            rest = out.pop("additionalItems", None)
            out["prefixItems"] = tuple_items
            if rest is not None:
                out["items"] = rest
        return out if changed else node

    result = walk(schema)
    if result is not schema and isinstance(result.get("$schema"), str):
        result["$schema"] = "https://json-schema.org/draft/2020-12/schema"  # what it is written in now
    return result


#: compiled strategies built by :func:`instances`, by engine, draft and exact JSON text of the
#: schema (most recently used last): a check asks again for the same schema in every example (a fixed case's
#: strict schema, a tool's input schema), and building one, with Hypothesis working out whether
#: each part can be drawn from at all, cost as much as drawing from it
_BUILT: OrderedDict[tuple[str, bool, str], st.SearchStrategy[Any]] = OrderedDict()
_BUILT_LIMIT = 256


def instances(schema: Any, *, engine: Literal["auto", "compiled", "hypothesis-jsonschema"] = "auto") -> st.SearchStrategy[Any]:
    """Values valid under ``schema``. A schema the engine cannot handle gets its error when the
    strategy is drawn from (so one bad case fails its own test, not the collection). The same
    schema (the same JSON text, types and key order included) gets the compiled strategy built
    for it before; each value drawn is the drawer's own (a ``const`` or ``enum`` object or array
    is a copy), so a caller that changes one changes no later draw."""
    older = written_before_2019_09(schema)
    schema = in_2020_12(schema)

    def build() -> st.SearchStrategy[Any]:
        if engine != "compiled" and not (engine == "auto" and (uses_only_constructive_keywords(schema) or not _hypothesis_jsonschema_can(schema))):
            from hypothesis_jsonschema import from_schema
            return from_schema(schema)  # not remembered: its constants are the schema's own objects
        text = exact_json_text(schema)
        if text is None:
            return compile_instances(schema, older=older)
        key = (engine, older, text)
        if key in _BUILT:
            _BUILT.move_to_end(key)
            return _BUILT[key]
        try:
            private = json.loads(text)  # the caller may change its schema later: the memo's is its own
        except RecursionError:
            return compile_instances(schema, older=older)
        built = _BUILT[key] = compile_instances(private, older=older)
        if len(_BUILT) > _BUILT_LIMIT:
            _BUILT.popitem(last=False)
        return built
    return st.deferred(build)

"""Strategies for JSON Schemas: the general Draft 2020-12 space the strict rules talk about, and
schemas already inside a dialect's strict subset.

Everything is built constructively (nothing is filtered), every schema is satisfiable, and each
feature used is an ``hypothesis.event`` (``--hypothesis-show-statistics`` shows coverage).
:func:`schema_features` names the features a schema uses, so tests can check every one is reached.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping
from dataclasses import dataclass, replace
from types import MappingProxyType
from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from strictconformance.dialects import Dialect, StrictRule, resolve_dialect
from strictconformance.dialects.validator import iter_schema_nodes
from strictconformance.strategies._choices import made_once, sampled

__all__ = ["FEATURES", "RULE_FEATURES", "json_schemas", "near_limit_schemas", "rule_schemas", "schema_features", "strict_schemas"]

#: Every feature :func:`json_schemas` can produce (pass some to ``features=`` or ``exclude=``).
FEATURES: frozenset[str] = frozenset({
    # shapes
    "object", "array", "string", "integer", "number", "boolean", "null", "any",
    "record", "tuple", "open-tuple", "open-object", "mixed-record", "pattern-record", "bare-array",
    "enum", "const", "type-list", "anyOf", "oneOf", "allOf", "allOf-objects",
    "optional", "nullable", "optional-nullable", "non-object-root", "deep",
    # references
    "$ref", "recursion", "root-recursion", "ref-siblings", "$anchor", "dynamic-ref",
    # constraints and formats
    "string-constraints", "pattern", "format", "numeric-constraints", "array-constraints",
    "object-constraints",
    # keywords strict subsets ban
    "not", "if-then-else", "contains", "uniqueItems", "dependentRequired", "dependentSchemas",
    "unevaluatedProperties", "unevaluatedItems", "default", "propertyNames",
    # shapes real schemas use (frequencies in the real-world corpus, see
    # CORPUS_SHAPES): annotations on any node, `$schema`, draft-07 `definitions`, an empty
    # nested object, `additionalProperties: true`, a typed `const`, a described null branch,
    # a `$ref` into a non-definition location, `allOf` of a union of properties-only members,
    # an optional recursive property
    "annotations", "$schema", "definitions", "empty-object", "explicit-open", "typed-const",
    "null-branch", "ref-into", "allOf-union", "optional-recursion",
})

#: How often the real-world corpus (``../shared/corpus/jsonschemabench``, 6,070 schemas; see the
#: cases README) uses the shapes :data:`FEATURES` names, in percent of schemas: measured once with
#: ``python -m strictconformance.bench corpus-shapes`` style counting (schema nodes only, not
#: property names). Generators weight the common ones up; the self-tests check each is reached.
CORPUS_SHAPES: Mapping[str, float] = MappingProxyType({
    "description": 68.9, "$schema": 54.4, "title": 38.1, "definitions": 14.6, "default": 12.4,
    "empty-object": 8.2, "type-list with null": 4.2, "explicit-open": 3.8, "any": 2.4, "record": 2.3,
    "ref-siblings": 1.8, "pattern-record": 3.5, "ref-into": 0.9, "allOf-union": 0.4, "const": 0.7,
    "typed-const": 0.3, "null-branch": 0.1,
})

_NAMES = ("id", "name", "tags", "count", "meta", "kind", "note", "when", "size", "a/b", "x~y", "value")
_PATTERNS = ("^[a-z]+$", "^[A-Z][a-z]*$", "^[0-9]{3}-[0-9]{2}$", "[a-f]", "^(yes|no)$")
_FORMATS = ("date-time", "date", "time", "duration", "email", "hostname", "ipv4", "ipv6", "uuid", "uri", "uri-reference", "json-pointer")
_SCALAR_TYPES = ("string", "integer", "number", "boolean")


@dataclass(frozen=True)
class _Knobs:
    features: frozenset[str]
    max_depth: int
    max_properties: int
    root_types: tuple[str, ...]

    def on(self, feature: str) -> bool:
        return feature in self.features


def _sometimes(draw: st.DrawFn, one_in: int, label: str) -> bool:
    """True once in ``one_in`` draws; shrinks to False (so a minimal counterexample drops the
    optional feature), which ``integers(...) == 0`` would not."""
    return bool(draw(sampled((False,) * (one_in - 1) + (True,)), label=label))


def _use(feature: str) -> None:
    event(f"schema feature: {feature}")


_words = st.text(alphabet="abcdefgh", min_size=1, max_size=6)

_scalars = st.one_of(_words, st.integers(-50, 50), st.booleans())


@made_once
@st.composite
def _string(draw: st.DrawFn, knobs: _Knobs) -> dict[str, Any]:
    node: dict[str, Any] = {"type": "string"}
    choice = draw(sampled(("plain", "length", "pattern", "format")), label="string kind")
    if choice == "length" and knobs.on("string-constraints"):
        _use("string-constraints")
        low = draw(st.integers(0, 3), label="minLength")
        node.update(minLength=low, maxLength=low + draw(st.integers(0, 8), label="length span"))
    elif choice == "pattern" and knobs.on("pattern"):
        _use("pattern")
        node["pattern"] = draw(sampled(_PATTERNS), label="pattern")
    elif choice == "format" and knobs.on("format"):
        _use("format")
        node["format"] = draw(sampled(_FORMATS), label="format")
    return node


@made_once
@st.composite
def _number(draw: st.DrawFn, knobs: _Knobs, kind: str) -> dict[str, Any]:
    node: dict[str, Any] = {"type": kind}
    if knobs.on("numeric-constraints") and draw(st.booleans(), label="numeric constraints"):
        _use("numeric-constraints")
        low = draw(st.integers(-20, 20), label="minimum")
        style = draw(sampled(("inclusive", "exclusive", "multiple")), label="bound style")
        if style == "inclusive":
            # spans leave room for a few distinct values (uniqueItems arrays need them)
            node.update(minimum=low, maximum=low + draw(st.integers(3, 40), label="span"))
        elif style == "exclusive":
            node.update(exclusiveMinimum=low, exclusiveMaximum=low + draw(st.integers(4, 40), label="span"))
        else:
            node.update(multipleOf=draw(sampled((2, 3, 5)), label="multipleOf"), minimum=low)
    return node


@made_once
@st.composite
def _leaf(draw: st.DrawFn, knobs: _Knobs) -> dict[str, Any]:
    kinds = [k for k in ("string", "integer", "number", "boolean", "null", "enum", "const", "any") if knobs.on(k)] or ["string"]
    kind = draw(sampled(tuple(kinds)), label="leaf kind")
    _use(kind)
    if kind == "string":
        return draw(_string(knobs))
    if kind in ("integer", "number"):
        return draw(_number(knobs, kind))
    if kind == "enum":
        values = draw(st.lists(_scalars, min_size=1, max_size=4, unique_by=lambda v: (type(v), v)), label="enum values")
        return {"enum": values}
    if kind == "const":
        value = draw(_scalars, label="const value")
        if knobs.on("typed-const") and _sometimes(draw, 3, "typed const?"):
            _use("typed-const")
            return {"type": {str: "string", int: "integer", bool: "boolean"}[type(value)], "const": value}
        return {"const": value}
    if kind == "any":
        return {}
    return {"type": kind}


class _Builder:
    """Builds one schema; remembers the definitions it created so references can point at them."""

    def __init__(self, draw: st.DrawFn, knobs: _Knobs) -> None:
        self.draw = draw
        self.knobs = knobs
        self.definitions: dict[str, Any] = {}
        self.anchors: list[str] = []
        self.notes = 0
        # draft-07 style `definitions` instead of `$defs` (one of the two per schema)
        self.defs_keyword = "definitions" if knobs.on("definitions") and _sometimes(draw, 4, "definitions keyword?") else "$defs"

    def node(self, depth: int) -> dict[str, Any]:
        knobs, draw = self.knobs, self.draw
        composite = ["object", "array", "record", "tuple", "anyOf", "oneOf", "allOf", "type-list", "open-object",
                     "mixed-record", "pattern-record", "$ref", "empty-object", "allOf-union"]
        kinds = ["leaf"] + ([k for k in composite if knobs.on(k)] if depth < knobs.max_depth else [])
        if "$ref" in kinds and not self.definitions:
            kinds.remove("$ref")
        kind = draw(sampled(tuple(kinds)), label="node kind")
        if depth >= 3:
            _use("deep")
        node = draw(_leaf(knobs)) if kind == "leaf" else getattr(self, "_" + kind.replace("-", "_").replace("$", ""))(depth)
        return self.decorate(node)

    def decorate(self, node: dict[str, Any]) -> dict[str, Any]:
        knobs, draw = self.knobs, self.draw
        declared = node.get("type")
        if knobs.on("default") and isinstance(declared, str) and declared in _SCALAR_TYPES and _sometimes(draw, 10, "default?"):
            _use("default")
            node["default"] = {"string": "x", "integer": 1, "number": 1.5, "boolean": True}[declared]
        if knobs.on("not") and isinstance(declared, str) and _sometimes(draw, 12, "not?"):
            _use("not")
            node["not"] = {"type": "null" if declared != "null" else "string"}  # never excludes a value of the node
        if knobs.on("if-then-else") and isinstance(declared, str) and _sometimes(draw, 12, "if?"):
            _use("if-then-else")
            node.update({"if": {"type": declared}, "then": {"type": declared}, "else": {"type": "null"}})
        return self.annotate(node)

    def annotate(self, node: dict[str, Any]) -> dict[str, Any]:
        """A description (most real schemas have them), sometimes a title or examples too."""
        if self.knobs.on("annotations") and _sometimes(self.draw, 3, "annotated?"):
            _use("annotations")
            self.notes += 1
            node.setdefault("description", f"note {self.notes}: what this value means")
            if _sometimes(self.draw, 2, "title?"):
                node.setdefault("title", f"Title{self.notes}")
        return node

    def properties(self, depth: int) -> tuple[dict[str, Any], list[str]]:
        names = self.draw(st.lists(sampled(_NAMES), min_size=1, max_size=self.knobs.max_properties, unique=True), label="property names")
        properties: dict[str, Any] = {}
        required: list[str] = []
        for name in names:
            sub = self.node(depth + 1)
            optional = self.knobs.on("optional") and self.draw(st.booleans(), label=f"{name} optional")
            nullable = self.knobs.on("nullable") and _sometimes(self.draw, 4, f"{name} nullable")
            if nullable:
                _use("nullable")
                null: dict[str, Any] = {"type": "null"}
                if self.knobs.on("null-branch") and _sometimes(self.draw, 3, f"{name} null described?"):
                    _use("null-branch")
                    null["description"] = "absent when unknown"
                sub = {"anyOf": [sub, null]}
            if optional:
                _use("optional")
                if nullable:
                    _use("optional-nullable")
            else:
                required.append(name)
            properties[name] = sub
        return properties, required

    def _object(self, depth: int) -> dict[str, Any]:
        properties, required = self.properties(depth)
        node: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
        closing = self.draw(sampled(("closed", "closed", "unevaluated", "open")), label="object closing")
        if closing == "unevaluated" and self.knobs.on("unevaluatedProperties"):
            _use("unevaluatedProperties")
            node["unevaluatedProperties"] = False
        elif closing != "open" or not self.knobs.on("open-object"):
            node["additionalProperties"] = False
        else:
            _use("open-object")
        optional = [name for name in properties if name not in required]
        if len(optional) >= 2 and self.knobs.on("dependentRequired") and _sometimes(self.draw, 4, "dependentRequired?"):
            _use("dependentRequired")
            node["dependentRequired"] = {optional[0]: [optional[1]]}
        if optional and self.knobs.on("dependentSchemas") and _sometimes(self.draw, 3, "dependentSchemas?"):
            _use("dependentSchemas")
            node["dependentSchemas"] = {optional[0]: {"type": "object"}}
        return node

    def _open_object(self, depth: int) -> dict[str, Any]:
        _use("open-object")
        properties, required = self.properties(depth)
        node: dict[str, Any] = {"type": "object", "properties": properties, "required": required}
        if self.knobs.on("explicit-open") and self.draw(st.booleans(), label="explicitly open?"):
            _use("explicit-open")
            node["additionalProperties"] = True
        return node

    def _empty_object(self, depth: int) -> dict[str, Any]:
        """``{"type": "object"}`` with nothing else: any object (8% of real schemas have one)."""
        _use("empty-object")
        return {"type": "object"}

    def _allOf_union(self, depth: int) -> dict[str, Any]:
        """``allOf`` of a ``oneOf`` whose members only add ``properties`` (a discriminator each),
        and an object declaring them: the merged node must still let each member's property appear."""
        _use("allOf-union")
        kinds = self.draw(st.lists(sampled(("circle", "square", "line")), min_size=2, max_size=3, unique=True), label="union members")
        members = []
        for kind in kinds:
            member: dict[str, Any] = {"properties": {"kind": {"const": kind}}, "required": ["kind"]}
            if self.draw(st.booleans(), label=f"{kind} has a size"):
                member["properties"]["size"] = {"type": "integer", "minimum": 0, "maximum": 9}
            members.append(member)
        return {"allOf": [
            # the discriminator plain here: an enum would tie every union to an enum, and a shrinker
            # aiming at one keyword could not drop the other
            {"type": "object", "properties": {"kind": {"type": "string"}, "size": {"type": "integer"}}, "required": ["kind"]},
            {"oneOf": members},
        ]}

    def _array(self, depth: int) -> dict[str, Any]:
        if self.knobs.on("bare-array") and _sometimes(self.draw, 6, "array without items?"):
            _use("bare-array")
            return {"type": "array"}  # elements of any type
        items = self.node(depth + 1)
        node: dict[str, Any] = {"type": "array", "items": items}
        if self.knobs.on("array-constraints") and self.draw(st.booleans(), label="array constraints"):
            _use("array-constraints")
            node.update(minItems=self.draw(st.integers(0, 2), label="minItems"), maxItems=self.draw(st.integers(2, 4), label="maxItems"))
        scalar = items.get("type") in _SCALAR_TYPES and not any(k in items for k in ("not", "if"))
        if scalar and self.knobs.on("uniqueItems") and _sometimes(self.draw, 4, "uniqueItems?"):
            _use("uniqueItems")
            node["uniqueItems"] = True
        if scalar and self.knobs.on("contains") and _sometimes(self.draw, 3, "contains?"):
            _use("contains")
            node.update(contains={"type": items["type"]}, minContains=1, maxContains=10, minItems=max(1, node.get("minItems", 0)))
        return node

    def _record(self, depth: int) -> dict[str, Any]:
        node: dict[str, Any] = {"type": "object", "additionalProperties": self.node(depth + 1)}
        if self.knobs.on("propertyNames") and self.draw(st.booleans(), label="propertyNames?"):
            _use("propertyNames")
            node["propertyNames"] = {"pattern": "^[a-z]+$"}
        if self.knobs.on("object-constraints") and self.draw(st.booleans(), label="record size"):
            _use("object-constraints")
            node["maxProperties"] = self.draw(st.integers(1, 4), label="maxProperties")
        return node

    def _mixed_record(self, depth: int) -> dict[str, Any]:
        properties, required = self.properties(depth)
        return {"type": "object", "properties": properties, "required": required, "additionalProperties": self.node(depth + 1)}

    def _pattern_record(self, depth: int) -> dict[str, Any]:
        return {"type": "object", "patternProperties": {"^[a-z]+$": self.node(depth + 1)}, "additionalProperties": False}

    def _tuple(self, depth: int) -> dict[str, Any]:
        prefix = [self.node(depth + 1) for _ in range(self.draw(st.integers(1, 3), label="tuple length"))]
        low = self.draw(st.integers(0, len(prefix)), label="tuple minItems")
        node: dict[str, Any] = {"type": "array", "prefixItems": prefix, "minItems": low}
        closing = self.draw(sampled(("items", "max", "unevaluated", "open")), label="tuple closing")
        if closing == "unevaluated" and self.knobs.on("unevaluatedItems"):
            _use("unevaluatedItems")
            node["unevaluatedItems"] = False
        elif closing == "open" and self.knobs.on("open-tuple"):
            _use("open-tuple")
            node["items"] = self.node(depth + 1)
        elif closing == "max":
            node["maxItems"] = len(prefix)
        else:
            node["items"] = False
        return node

    def _anyOf(self, depth: int) -> dict[str, Any]:
        return {"anyOf": [self.node(depth + 1) for _ in range(self.draw(st.integers(2, 3), label="anyOf size"))]}

    def _oneOf(self, depth: int) -> dict[str, Any]:
        # branches of distinct types (exactly one matches), or integer/number (overlapping)
        if self.draw(st.booleans(), label="oneOf overlaps"):
            return {"oneOf": [{"type": "integer"}, {"type": "number"}]}
        kinds = self.draw(st.lists(sampled(("string", "boolean", "null", "array", "object")), min_size=2, max_size=3, unique=True), label="oneOf types")
        branches = []
        for kind in kinds:
            if kind == "array":
                branches.append({"type": "array", "items": self.node(depth + 1)})
            elif kind == "object":
                branches.append(self._object(depth))
            else:
                branches.append({"type": kind})
        return {"oneOf": branches}

    def _allOf(self, depth: int) -> dict[str, Any]:
        if self.knobs.on("allOf-objects") and self.draw(st.booleans(), label="allOf of objects"):
            _use("allOf-objects")
            first, first_required = self.properties(depth)
            second, second_required = self.properties(depth)
            second = {name: sub for name, sub in second.items() if name not in first}
            return {"allOf": [
                {"type": "object", "properties": first, "required": first_required},
                {"type": "object", "properties": second, "required": [n for n in second_required if n in second]},
            ]}
        low = self.draw(st.integers(0, 3), label="allOf minLength")
        return {"allOf": [{"type": "string", "minLength": low}, {"type": "string", "maxLength": low + 5}]}

    def _type_list(self, depth: int) -> dict[str, Any]:
        kinds = self.draw(st.lists(sampled(("string", "integer", "null", "boolean", "array", "object")), min_size=2, max_size=3, unique=True), label="type list")
        node: dict[str, Any] = {"type": kinds}
        if "string" in kinds:
            node["maxLength"] = 12
        if "array" in kinds:
            node["items"] = self.node(depth + 1)
        if "object" in kinds:
            node["properties"], node["required"] = self.properties(depth)
            node["additionalProperties"] = False
        return node

    def _ref(self, depth: int) -> dict[str, Any]:
        name = self.draw(sampled(tuple(sorted(self.definitions))), label="ref target")
        target = self.definitions[name]
        anchor = target.get("$anchor")
        dynamic = target.get("$dynamicAnchor")
        if dynamic and self.draw(st.booleans(), label="dynamic ref"):
            _use("dynamic-ref")
            node: dict[str, Any] = {"$dynamicRef": f"#{dynamic}"}
        elif anchor and self.draw(st.booleans(), label="anchor ref"):
            _use("$anchor")
            node = {"$ref": f"#{anchor}"}
        elif self.knobs.on("ref-into") and isinstance(target.get("properties"), dict) and target["properties"] and self.draw(st.booleans(), label="ref into a property?"):
            _use("ref-into")
            inner = self.draw(sampled(tuple(sorted(target["properties"]))), label="ref into which property")
            escaped = inner.replace("~", "~0").replace("/", "~1")
            node = {"$ref": f"#/{self.defs_keyword}/{name}/properties/{escaped}"}
        else:
            node = {"$ref": f"#/{self.defs_keyword}/{name}"}
        _use("$ref")
        if self.knobs.on("ref-siblings") and self.draw(st.booleans(), label="ref siblings"):
            _use("ref-siblings")
            node["description"] = "a reference with siblings"
            if target.get("type") == "string":
                node["maxLength"] = 40
        return node

    def definitions_for(self, depth: int) -> None:
        count = self.draw(st.integers(0, 2), label="definitions") if self.knobs.on("$ref") else 0
        for index in range(count):
            name = f"Def{index}"
            definition = self.node(min(depth + 1, self.knobs.max_depth))
            if self.knobs.on("$anchor") and self.draw(st.booleans(), label="anchor"):
                definition["$anchor"] = f"anchor{index}"
            elif self.knobs.on("dynamic-ref") and self.draw(st.booleans(), label="dynamic anchor"):
                definition["$dynamicAnchor"] = f"dyn{index}"
            self.definitions[name] = definition
        if self.knobs.on("recursion") and self.knobs.on("$ref") and self.draw(st.booleans(), label="recursive definition"):
            _use("recursion")
            here = f"#/{self.defs_keyword}/Node"
            self.definitions["Node"] = {
                "type": "object",
                "properties": {"label": {"type": "string", "maxLength": 8},
                               "children": {"type": "array", "items": {"$ref": here}, "maxItems": 2}},
                "required": ["label"],
                "additionalProperties": False,
            }
            if self.knobs.on("optional-recursion") and self.draw(st.booleans(), label="optional recursive property?"):
                _use("optional-recursion")
                self.definitions["Node"]["properties"]["next"] = {"$ref": here}


@st.composite
def _schemas(draw: st.DrawFn, knobs: _Knobs) -> dict[str, Any]:
    builder = _Builder(draw, knobs)
    builder.definitions_for(1)
    root_kind = draw(sampled(knobs.root_types), label="root kind")
    if root_kind == "object":
        root = builder._object(0)
        if knobs.on("root-recursion") and _sometimes(draw, 5, "root recursion"):
            _use("root-recursion")
            root["properties"]["parent"] = {"$ref": "#"}
    else:
        _use("non-object-root")
        root = builder.node(0) if root_kind == "any" else builder.decorate(
            {"array": lambda: builder._array(0), "anyOf": lambda: builder._anyOf(0)}.get(root_kind, lambda: draw(_leaf(_Knobs(frozenset({root_kind}), 0, 1, ()))))()
        )
    if builder.definitions:
        root[builder.defs_keyword] = builder.definitions
        if builder.defs_keyword == "definitions":
            _use("definitions")
    if knobs.on("$schema") and _sometimes(draw, 2, "$schema?"):
        _use("$schema")
        root = {"$schema": "https://json-schema.org/draft/2020-12/schema", **root}
    return root


def json_schemas(
    *,
    features: Collection[str] | None = None,
    exclude: Collection[str] = (),
    max_depth: int = 3,
    max_properties: int = 4,
    root_types: Collection[str] = ("object", "object", "object", "array", "string", "integer", "anyOf", "any"),
) -> st.SearchStrategy[dict[str, Any]]:
    """Satisfiable Draft 2020-12 schemas over :data:`FEATURES` (all by default).

    ``features``/``exclude`` restrict the features used; ``max_depth`` bounds nesting (in
    subschema levels); ``root_types`` weights the root's kind (``"any"`` draws any node).
    """
    chosen = frozenset(FEATURES if features is None else features) - frozenset(exclude)
    unknown = chosen - FEATURES
    if unknown:
        raise ValueError(f"unknown schema features {sorted(unknown)}; known: {sorted(FEATURES)}")
    return _schemas(_Knobs(chosen, max_depth, max_properties, tuple(root_types)))


# --- schemas aimed at one rule -----------------------------------------------------------------

#: The :data:`FEATURES` that tempt a strictify into breaking a rule, by rule kind (for banned
#: keywords, by keyword): the input constructs the rule is about. Size kinds have their own
#: strategy (:func:`near_limit_schemas`).
RULE_FEATURES: Mapping[str, frozenset[str]] = MappingProxyType({
    "root_object": frozenset({"non-object-root", "anyOf", "oneOf", "allOf-objects", "type-list", "any"}),
    "root_not_combinator": frozenset({"non-object-root", "anyOf", "oneOf", "allOf-objects"}),
    "type_declared": frozenset({"any", "enum", "const", "type-list", "anyOf", "oneOf", "allOf", "not", "$ref", "open-tuple"}),
    "closed_objects": frozenset({"open-object", "record", "mixed-record", "pattern-record", "allOf-objects", "tuple",
                                 "unevaluatedProperties", "object-constraints", "type-list", "dependentSchemas"}),
    "array_items": frozenset({"array", "bare-array", "tuple", "open-tuple", "array-constraints", "contains", "type-list"}),
    "max_depth": frozenset({"deep", "record", "tuple", "$ref", "recursion", "root-recursion", "allOf-objects"}),
    "all_required": frozenset({"optional", "nullable", "optional-nullable", "record", "mixed-record", "tuple",
                               "allOf-objects", "dependentRequired", "dependentSchemas"}),
    "format_whitelist": frozenset({"format"}),
    "no_recursion": frozenset({"$ref", "recursion", "root-recursion", "ref-siblings", "$anchor", "dynamic-ref"}),
    "enum_scalars": frozenset({"enum", "const", "tuple", "record"}),
    "keyword_values": frozenset({"array", "array-constraints", "tuple", "contains"}),
    "all_of_without_ref": frozenset({"allOf", "allOf-objects", "$ref", "ref-siblings", "recursion"}),
    "internal_refs": frozenset({"$ref", "recursion", "root-recursion", "ref-siblings", "$anchor", "dynamic-ref"}),
    "property_ordering": frozenset({"optional", "record", "mixed-record", "tuple", "allOf-objects", "open-object"}),
    "simple_regex": frozenset({"pattern", "pattern-record", "propertyNames", "format"}),
    # banned keywords
    "patternProperties": frozenset({"pattern-record", "propertyNames"}),
    "$ref": frozenset({"$ref", "recursion", "root-recursion", "ref-siblings", "$anchor", "dynamic-ref"}),
    "$anchor": frozenset({"$ref", "$anchor"}),
    "$dynamicRef": frozenset({"$ref", "dynamic-ref"}),
    "$dynamicAnchor": frozenset({"$ref", "dynamic-ref"}),
    "dependentSchemas": frozenset({"dependentSchemas", "optional"}),
    "dependentRequired": frozenset({"dependentRequired", "optional"}),
    "unevaluatedProperties": frozenset({"unevaluatedProperties", "allOf-objects"}),
    "unevaluatedItems": frozenset({"array", "unevaluatedItems", "tuple"}),
    "contains": frozenset({"array", "contains"}),
    "minContains": frozenset({"array", "contains"}),
    "maxContains": frozenset({"array", "contains"}),
    "if": frozenset({"if-then-else"}),
    "then": frozenset({"if-then-else"}),
    "else": frozenset({"if-then-else"}),
    "not": frozenset({"not"}),
    "allOf": frozenset({"allOf", "allOf-objects", "ref-siblings"}),
    "oneOf": frozenset({"oneOf"}),
    "prefixItems": frozenset({"array", "tuple", "open-tuple"}),
    "uniqueItems": frozenset({"array", "uniqueItems"}),
    "default": frozenset({"default"}),
    "const": frozenset({"const", "enum", "type-list"}),
    "minimum": frozenset({"number", "numeric-constraints"}),
    "maximum": frozenset({"number", "numeric-constraints"}),
    "exclusiveMinimum": frozenset({"number", "numeric-constraints"}),
    "exclusiveMaximum": frozenset({"number", "numeric-constraints"}),
    "multipleOf": frozenset({"number", "numeric-constraints"}),
    "minLength": frozenset({"string-constraints", "allOf", "ref-siblings", "type-list"}),
    "maxLength": frozenset({"string-constraints", "allOf", "ref-siblings", "type-list"}),
    "minItems": frozenset({"array", "array-constraints", "tuple", "contains"}),
    "maxItems": frozenset({"array", "array-constraints", "tuple", "$ref", "recursion"}),
})
_SIZE_KINDS = frozenset({"max_total_properties", "max_enum_values", "max_total_string_length", "large_enum_string_length"})
# every aimed schema still has the ordinary shapes around what it aims at
_BASE_FEATURES = frozenset({"object", "string", "integer"})


def _closed_object(properties: dict[str, Any]) -> dict[str, Any]:
    return {"type": "object", "properties": properties, "required": list(properties), "additionalProperties": False}


@st.composite
def _near_total_properties(draw: st.DrawFn, limit: int) -> dict[str, Any]:
    total = draw(st.integers(max(limit - 3, 1), limit + 30), label="total properties")
    nested = draw(st.integers(0, total - 1), label="properties in the nested object")
    outer = {f"p{i}": {"type": "boolean"} for i in range(total - nested - 1)}
    outer["nested"] = _closed_object({f"q{i}": {"type": "integer"} for i in range(nested)})
    return _closed_object(outer)


@st.composite
def _near_enum_values(draw: st.DrawFn, limit: int) -> dict[str, Any]:
    total = draw(st.integers(max(limit - 3, 1), limit + 30), label="total enum values")
    count = draw(st.integers(1, 4), label="enums")
    sizes = [total // count + (1 if index < total % count else 0) for index in range(count)]
    return _closed_object({f"e{index}": {"type": "string", "enum": [f"v{i}" for i in range(size)]}
                           for index, size in enumerate(sizes) if size})


@st.composite
def _near_string_length(draw: st.DrawFn, limit: int) -> dict[str, Any]:
    # names and values are whole blocks, so the size is the drawn total rounded down to a block
    total = draw(st.integers(max(limit - 400, 1), limit + 3000), label="total characters")
    in_names = draw(st.integers(0, total), label="characters in property names")
    width = draw(sampled((500, 2000, 4000)), label="name length")
    names = [f"{i:05d}" + "n" * (width - 5) for i in range(in_names // width)]
    properties: dict[str, Any] = {name: {"type": "boolean"} for name in names}
    values = [f"{i:05d}" + "v" * 94 for i in range((total - len(names) * width) // 100)]
    if values:
        properties["e"] = {"type": "string", "enum": values}  # 1 + 99 characters a value
    return _closed_object(properties)


@st.composite
def _near_large_enum(draw: st.DrawFn, threshold: int, limit: int) -> dict[str, Any]:
    count = draw(st.integers(max(threshold - 2, 1), threshold + 20), label="enum values")
    width = max(limit // count + draw(st.integers(-5, 20), label="value length offset"), 4)
    return _closed_object({"e": {"type": "string", "enum": [f"{i:04d}" + "w" * (width - 4) for i in range(count)]}})


# levels that nest a value deeper come four times as often as those that do not
_NESTING = ("object", "array", "record", "tuple") * 4 + ("nullable", "anyOf", "definition")


@st.composite
def _near_depth(draw: st.DrawFn, limit: int) -> dict[str, Any]:
    """A chain of nestings (objects, arrays, records, tuples, unions, definitions) whose semantic
    depth is around ``limit``: one draw per level."""
    levels = draw(st.lists(sampled(_NESTING), min_size=max(limit, 1), max_size=limit + 6), label="nesting")
    definitions: dict[str, Any] = {}
    node: dict[str, Any] = {"type": "string"}
    for kind in reversed(levels):
        if kind == "object":
            node = _closed_object({"n": node, "s": {"type": "integer"}})
        elif kind == "array":
            node = {"type": "array", "items": node}
        elif kind == "record":
            node = {"type": "object", "additionalProperties": node}
        elif kind == "tuple":
            node = {"type": "array", "prefixItems": [{"type": "boolean"}, node], "items": False}
        elif kind == "nullable":
            node = {"anyOf": [node, {"type": "null"}]}
        elif kind == "anyOf":
            node = {"anyOf": [{"type": "integer"}, node]}
        else:
            name = f"Level{len(definitions)}"
            definitions[name] = node
            node = {"$ref": f"#/$defs/{name}"}
    root = node if node.get("type") == "object" else _closed_object({"root": node})
    if definitions:
        root = {**root, "$defs": definitions}
    return root


def near_limit_schemas(rule: StrictRule) -> st.SearchStrategy[dict[str, Any]]:
    """Schemas just under, at and over a size or depth rule's limit (SM-21..SM-25 kinds), spread
    over a few objects or enums and built from a handful of draws, so a failure shrinks at once."""
    params = rule.params
    if rule.kind == "max_depth":
        return _near_depth(params["limit"])
    if rule.kind == "max_total_properties":
        return _near_total_properties(params["limit"])
    if rule.kind == "max_enum_values":
        return _near_enum_values(params["limit"])
    if rule.kind == "max_total_string_length":
        return _near_string_length(params["limit"])
    if rule.kind == "large_enum_string_length":
        return _near_large_enum(params["threshold"], params["limit"])
    raise ValueError(f"rule {rule.id} ({rule.kind}) has no limit to aim at; kinds with one: {sorted(_SIZE_KINDS | {'max_depth'})}")


def rule_schemas(rule: StrictRule) -> st.SearchStrategy[dict[str, Any]]:
    """Schemas that tempt a strictify into breaking ``rule``: aimed at the constructs it is about
    (:data:`RULE_FEATURES`; around the limit for size and depth rules),
    or, one draw in two, anything :func:`json_schemas` makes (the constructs meet others there)."""
    if rule.kind in _SIZE_KINDS:
        return near_limit_schemas(rule)
    keys = rule.params["keywords"] if rule.kind == "banned_keywords" else (rule.kind,)
    aimed = _BASE_FEATURES.union(*(RULE_FEATURES.get(key, frozenset()) for key in keys))
    if rule.kind == "max_depth":
        return st.one_of(near_limit_schemas(rule), json_schemas(features=aimed, root_types=("object",)), json_schemas())
    roots = ("object", "array", "string", "anyOf", "any") if rule.kind in ("root_object", "root_not_combinator") else ("object",)
    return st.one_of(json_schemas(features=aimed, root_types=roots), json_schemas())


# --- strict schemas ----------------------------------------------------------------------------

@dataclass(frozen=True)
class _StrictKnobs:
    """What a schema may use in a dialect (hashable: the node strategies are made once per knobs,
    depth and references, see :func:`_choices.made_once`)."""

    banned: frozenset[str]
    formats: tuple[str, ...] | None
    depth: int
    closed: bool = False
    all_required: bool = False
    recursion: bool = True
    min_items: tuple[int, ...] | None = None


def _strict_features(dialect: Dialect) -> _StrictKnobs:
    """What a schema may use in ``dialect``, read from its rules (not from strictify's data)."""
    banned: set[str] = set()
    formats: tuple[str, ...] | None = None
    depth_limit = 4
    flags: dict[str, Any] = {}
    for rule in dialect.rules:
        if rule.kind == "banned_keywords":
            banned.update(rule.params["keywords"])
        elif rule.kind == "format_whitelist":
            formats = tuple(rule.params["formats"])
        elif rule.kind == "max_depth":
            depth_limit = min(depth_limit, rule.params["limit"])
        elif rule.kind == "closed_objects":
            flags["closed"] = True
        elif rule.kind == "all_required":
            flags["all_required"] = True
        elif rule.kind == "no_recursion":
            flags["recursion"] = False
        elif rule.kind == "keyword_values" and rule.params["keyword"] == "minItems":
            flags["min_items"] = tuple(rule.params["allowed"])
    return _StrictKnobs(frozenset(banned), formats, depth_limit, **flags)


@made_once
@st.composite
def _strict_node(draw: st.DrawFn, rules: _StrictKnobs, depth: int, refs: tuple[str, ...]) -> dict[str, Any]:
    banned = rules.banned
    kinds = ["string", "integer", "number", "boolean", "enum"]
    if depth < rules.depth:
        kinds += ["object", "array", "nullable"]
        if refs:
            kinds.append("ref")
    kind = draw(sampled(tuple(kinds)), label="strict node kind")
    _use(f"strict {kind}")
    if kind == "string":
        node: dict[str, Any] = {"type": "string"}
        if "pattern" not in banned and draw(st.booleans(), label="pattern?"):
            node["pattern"] = draw(sampled(("^[a-z]+$", "^[0-9]+$")), label="pattern")
        elif draw(st.booleans(), label="format?"):
            candidates = rules.formats if rules.formats is not None else _FORMATS
            node["format"] = draw(sampled(tuple(candidates)), label="format")
        return node
    if kind in ("integer", "number"):
        node = {"type": kind}
        if "minimum" not in banned and draw(st.booleans(), label="bounds?"):
            node.update(minimum=0, maximum=draw(st.integers(1, 100), label="maximum"))
        return node
    if kind == "boolean":
        return {"type": "boolean"}
    if kind == "enum":
        return {"type": "string", "enum": draw(st.lists(_words, min_size=1, max_size=4, unique=True), label="enum")}
    if kind == "ref":
        return {"$ref": f"#/$defs/{draw(sampled(tuple(refs)), label='ref')}"}
    if kind == "nullable":
        return {"anyOf": [draw(_strict_node(rules, depth, refs)), {"type": "null"}]}
    if kind == "array":
        node = {"type": "array", "items": draw(_strict_node(rules, depth + 1, refs))}
        if "maxItems" not in banned and draw(st.booleans(), label="array bounds?"):
            allowed = rules.min_items or (0, 1, 2)
            node.update(minItems=draw(sampled(tuple(allowed)), label="minItems"))
            if "maxItems" not in banned:
                node["maxItems"] = node["minItems"] + 3
        return node
    names = draw(st.lists(sampled(_NAMES), min_size=0, max_size=4, unique=True), label="strict property names")
    properties = {name: draw(_strict_node(rules, depth + 1, refs)) for name in names}
    required = list(names) if rules.all_required else [n for n in names if draw(st.booleans(), label=f"{n} required")]
    node = {"type": "object", "properties": properties, "required": required}
    if rules.closed or draw(st.booleans(), label="closed?"):
        node["additionalProperties"] = False
    return node


@st.composite
def _strict_schema(draw: st.DrawFn, rules: _StrictKnobs) -> dict[str, Any]:
    definitions: dict[str, Any] = {}
    if "$ref" not in rules.banned and draw(st.booleans(), label="definitions?"):
        _use("strict $defs")
        definitions["Leaf"] = draw(_strict_node(rules, rules.depth, ()))
        if rules.recursion and draw(st.booleans(), label="recursive?"):
            _use("strict recursion")
            definitions["Tree"] = {
                "type": "object",
                "properties": {"name": {"type": "string"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Tree"}}},
                "required": ["name", "children"],
                "additionalProperties": False,
            }
    root = draw(_strict_node(replace(rules, depth=max(rules.depth, 1)), 0, tuple(sorted(definitions))), label="root")
    if root.get("type") != "object":
        wrapped: dict[str, Any] = {"type": "object", "properties": {"result": root}, "required": ["result"], "additionalProperties": False}
        root = wrapped
    if definitions:
        root["$defs"] = definitions
    return root


def strict_schemas(dialect: str | Dialect) -> st.SearchStrategy[dict[str, Any]]:
    """Schemas inside ``dialect``'s strict subset, built from its rules (closed objects, required
    properties, formats, depth, recursion and banned keywords as the rules say)."""
    return _strict_schema(_strict_features(resolve_dialect(dialect)))


def schema_features(schema: Any) -> set[str]:
    """The :data:`FEATURES` a schema uses, read from the schema itself (for coverage tests)."""
    found: set[str] = set()
    if isinstance(schema, dict) and schema.get("type") != "object":
        found.add("non-object-root")
    if isinstance(schema, dict):
        if "$schema" in schema:
            found.add("$schema")
        if isinstance(schema.get("definitions"), dict):
            found.add("definitions")
        node_defs = schema.get("$defs", schema.get("definitions"))
        node = node_defs.get("Node") if isinstance(node_defs, dict) else None
        if isinstance(node, dict) and "next" in node.get("properties", {}):
            found.add("optional-recursion")
    for visited in iter_schema_nodes(schema):
        if not isinstance(visited.schema, dict):
            continue
        node, depth = visited.schema, visited.depth
        declared = node.get("type")
        if isinstance(declared, list):
            found.add("type-list")
        elif isinstance(declared, str):
            found.add(declared)
        if depth >= 3:
            found.add("deep")
        if not node:
            found.add("any")
        keys = set(node)
        for keyword, feature in (("enum", "enum"), ("const", "const"), ("anyOf", "anyOf"), ("oneOf", "oneOf"), ("allOf", "allOf"),
                                 ("$ref", "$ref"), ("not", "not"), ("if", "if-then-else"), ("contains", "contains"),
                                 ("uniqueItems", "uniqueItems"), ("dependentRequired", "dependentRequired"),
                                 ("dependentSchemas", "dependentSchemas"), ("unevaluatedProperties", "unevaluatedProperties"),
                                 ("unevaluatedItems", "unevaluatedItems"), ("default", "default"), ("propertyNames", "propertyNames"),
                                 ("pattern", "pattern"), ("format", "format"), ("$dynamicRef", "dynamic-ref"), ("$anchor", "$anchor")):
            if keyword in keys:
                found.add(feature)
        if keys & {"minLength", "maxLength"}:
            found.add("string-constraints")
        if keys & {"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}:
            found.add("numeric-constraints")
        if keys & {"minItems", "maxItems"} and "prefixItems" not in keys:
            found.add("array-constraints")
        if keys & {"minProperties", "maxProperties"}:
            found.add("object-constraints")
        if "$ref" in keys and keys - {"$ref"}:
            found.add("ref-siblings")
        if node.get("$ref") == "#":
            found.add("root-recursion")
        if isinstance(node.get("$ref"), str) and node["$ref"] in ("#/$defs/Node", "#/definitions/Node"):
            found.add("recursion")
        if isinstance(node.get("$ref"), str) and "/properties/" in node["$ref"]:
            found.add("ref-into")
        if keys & {"description", "title"} and not (declared == "null" and keys == {"type", "description"}):
            found.add("annotations")
        if declared == "null" and "description" in keys:
            found.add("null-branch")
        if "const" in keys and isinstance(declared, str):
            found.add("typed-const")
        if declared == "object" and not keys & {"properties", "additionalProperties", "patternProperties", "unevaluatedProperties",
                                                "propertyNames", "allOf", "anyOf", "oneOf", "$ref"}:
            found.add("empty-object")
        if node.get("additionalProperties") is True:
            found.add("explicit-open")
        if "allOf" in keys and any(isinstance(b, dict) and "oneOf" in b for b in node["allOf"]):
            found.add("allOf-union")
        if declared == "array" and not keys & {"items", "prefixItems"}:
            found.add("bare-array")
        if "prefixItems" in keys:
            found.add("tuple" if node.get("items") is False or "maxItems" in keys or "unevaluatedItems" in keys else "open-tuple")
        if "patternProperties" in keys:
            found.add("pattern-record")
        extra = node.get("additionalProperties")
        if isinstance(extra, dict):
            found.add("mixed-record" if node.get("properties") else "record")
        if declared == "object" and "properties" in keys and "additionalProperties" not in keys and "unevaluatedProperties" not in keys:
            found.add("open-object")
        if "allOf" in keys and all(isinstance(b, dict) and b.get("type") == "object" for b in node["allOf"]):
            found.add("allOf-objects")
        properties: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
        required = set(node.get("required", [])) if isinstance(node.get("required"), list) else set()
        for name, sub in properties.items():
            nullable = isinstance(sub, dict) and {"type": "null"} in sub.get("anyOf", [])
            if nullable:
                found.add("nullable")
            if name not in required:
                found.add("optional")
                if nullable:
                    found.add("optional-nullable")
    return found

"""The strict rule catalogue: every SM rule once, with its check name, reason and default source.

SM-01..SM-21 are the catalogue of ``seeds/003_44ca71bf0217c3d9.txt`` (IDs and check names kept).
SM-22 upward are rules from the providers' documentation (SPEC.md §3), each with its own source.
A dialect takes a rule from here with :func:`rule`, adding its parameters (a depth limit, a
format whitelist) and, where its provider documents the rule elsewhere, its own source and note.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from strictconformance.dialects.model import StrictRule

__all__ = ["CATALOGUE", "SOURCES", "RuleDefinition", "rule"]

#: Where the facts come from (see shared/reference/provider_limits.md for the gathered numbers).
SOURCES: Mapping[str, str] = MappingProxyType({
    "seed003": "https://platform.openai.com/docs/guides/structured-outputs#supported-schemas (as catalogued in a published OpenAI strict-mode rules reference, SM-01..SM-21; strictconformance/spec/SPEC.md §3)",
    "openai": "https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas",
    "openai-limits": "https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas (limits raised July 2025)",
    "anthropic": "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations",
    "anthropic-tools": "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use",
    "google": "https://ai.google.dev/gemini-api/docs/structured-output",
    "google-functions": "https://ai.google.dev/gemini-api/docs/function-calling",
    "google-schema": "https://ai.google.dev/api/caching#Schema",
    "spec": "strictconformance/spec/SPEC.md §3",
    "cohere": "https://docs.cohere.com/v2/docs/structured-outputs#unsupported-schema-features",
    "cohere-constraints": "https://docs.cohere.com/v2/docs/structured-outputs#schema-constraints",
    "cohere-supported": "https://docs.cohere.com/v2/docs/structured-outputs#supported-schema-features",
    "mistral": "https://docs.mistral.ai/capabilities/structured-output/custom_structured_output",
    "google-generation-config": "https://ai.google.dev/api/generate-content#generationconfig",
    "google-function-declaration": "https://ai.google.dev/api/caching#FunctionDeclaration",
})


@dataclass(frozen=True)
class RuleDefinition:
    """A catalogue entry: what a rule is, independent of the dialect that applies it."""

    id: str
    check: str
    kind: str
    title: str
    reason: str
    source: str
    params: Mapping[str, Any] = field(default_factory=dict)


def _banned(rule_id: str, check: str, keyword: str, reason: str) -> RuleDefinition:
    return RuleDefinition(rule_id, check, "banned_keywords", f"No `{keyword}`", reason, SOURCES["seed003"], {"keywords": (keyword,)})


_DEFINITIONS: tuple[RuleDefinition, ...] = (
    RuleDefinition("SM-01", "RootNotObject", "root_object", 'Root must be `type: "object"`',
                   "The provider wraps the root in a function call; only objects are valid argument containers", SOURCES["seed003"]),
    RuleDefinition("SM-02", "MissingType", "type_declared", "All schema nodes must declare `type`",
                   "The parser needs an unambiguous type for every node (combinator wrappers, enum/const and $ref nodes excepted)", SOURCES["seed003"]),
    RuleDefinition("SM-03", "MissingAdditionalProperties", "closed_objects", "Objects must have `additionalProperties: false`",
                   "Prevents the model from inventing fields outside the schema", SOURCES["seed003"]),
    RuleDefinition("SM-04", "MissingItems", "array_items", "Arrays must have `items`",
                   "The parser needs an element schema for every array (`prefixItems` counts)", SOURCES["seed003"]),
    _banned("SM-05", "BannedPatternProperties", "patternProperties", "Regex-keyed maps are incompatible with the deterministic output parser"),
    _banned("SM-06", "BannedSchemaRef", "$ref", "All references must be resolved inline; the API (as catalogued) does not resolve $ref"),
    _banned("SM-07", "BannedAnchor", "$anchor", "Fragment identifiers are not supported by the runtime validator"),
    _banned("SM-08", "BannedDynamicRef", "$dynamicRef", "Dynamic scoping is not supported"),
    _banned("SM-09", "BannedDynamicAnchor", "$dynamicAnchor", "Dynamic scoping is not supported"),
    _banned("SM-10", "BannedDependentSchemas", "dependentSchemas", "Conditional sub-schemas add non-deterministic validation paths"),
    _banned("SM-11", "BannedDependentRequired", "dependentRequired", "Conditional required fields add non-deterministic validation paths"),
    _banned("SM-12", "BannedUnevaluatedProperties", "unevaluatedProperties", "Cross-schema annotation collection is not implemented"),
    _banned("SM-13", "BannedUnevaluatedItems", "unevaluatedItems", "Cross-schema annotation collection is not implemented"),
    _banned("SM-14", "BannedContains", "contains", "Array containment checks are not supported by the output parser"),
    _banned("SM-15", "BannedMinContains", "minContains", "Companion to `contains`; not supported"),
    _banned("SM-16", "BannedMaxContains", "maxContains", "Companion to `contains`; not supported"),
    _banned("SM-17", "BannedIf", "if", "Conditional schemas create non-deterministic output paths"),
    _banned("SM-18", "BannedThen", "then", "Companion to `if`; not supported"),
    _banned("SM-19", "BannedElse", "else", "Companion to `if`; not supported"),
    _banned("SM-20", "BannedNot", "not", "Negation is incompatible with generating values that match a schema"),
    RuleDefinition("SM-21", "DepthExceeded", "max_depth", "Semantic depth within the limit",
                   "The provider's parser has a fixed nesting limit; depth counts properties/items/additionalProperties/prefixItems edges, combinators do not count",
                   SOURCES["seed003"]),
    RuleDefinition("SM-22", "TooManyProperties", "max_total_properties", "Total object properties within the limit",
                   "The provider caps the properties of one schema, counted over every object", SOURCES["openai-limits"]),
    RuleDefinition("SM-23", "TooManyEnumValues", "max_enum_values", "Total enum values within the limit",
                   "The provider caps enum values summed over every enum of one schema", SOURCES["openai-limits"]),
    RuleDefinition("SM-24", "StringSizeExceeded", "max_total_string_length", "Total string size within the limit",
                   "The provider caps the characters of property names, definition names, enum and const values together", SOURCES["openai-limits"]),
    RuleDefinition("SM-25", "LargeEnumTooLong", "large_enum_string_length", "A large string enum within its size limit",
                   "One string enum with more than the threshold of values may total only so many characters", SOURCES["openai-limits"]),
    RuleDefinition("SM-26", "BannedAllOf", "banned_keywords", "No `allOf`",
                   "Not in the provider's supported subset", SOURCES["openai"], {"keywords": ("allOf",)}),
    RuleDefinition("SM-27", "BannedOneOf", "banned_keywords", "No `oneOf`",
                   "Not in the provider's supported subset (only anyOf is)", SOURCES["openai"], {"keywords": ("oneOf",)}),
    RuleDefinition("SM-28", "BannedPrefixItems", "banned_keywords", "No `prefixItems`",
                   "Tuples are not in the provider's supported subset", SOURCES["openai"], {"keywords": ("prefixItems",)}),
    RuleDefinition("SM-29", "PropertyNotRequired", "all_required", "Every property listed in `required`",
                   "Strict mode needs every field present; optional means a union with null", SOURCES["openai"]),
    RuleDefinition("SM-30", "RootIsCombinator", "root_not_combinator", "Root must not be `anyOf`",
                   "The root is the argument object itself, not a choice of objects", SOURCES["openai"], {"keywords": ("anyOf",)}),
    RuleDefinition("SM-31", "UnsupportedFormat", "format_whitelist", "`format` only from the provider's list",
                   "The provider constrains output only for the formats it lists", SOURCES["openai"]),
    RuleDefinition("SM-32", "BannedUniqueItems", "banned_keywords", "No `uniqueItems`",
                   "Not in the provider's supported subset and rejected in practice", SOURCES["openai"], {"keywords": ("uniqueItems",)}),
    RuleDefinition("SM-33", "BannedDefault", "banned_keywords", "No `default`",
                   "Rejected by the provider (\"'default' is not permitted\")", SOURCES["openai"], {"keywords": ("default",)}),
    RuleDefinition("SM-34", "RecursiveSchema", "no_recursion", "No recursive schemas",
                   "The provider compiles the schema into a finite grammar", SOURCES["anthropic"]),
    RuleDefinition("SM-35", "BannedNumericConstraint", "banned_keywords", "No numeric constraints",
                   "Numeric bounds are not enforced by the provider's grammar", SOURCES["anthropic"],
                   {"keywords": ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf")}),
    RuleDefinition("SM-36", "BannedStringLength", "banned_keywords", "No string length constraints",
                   "String lengths are not enforced by the provider's grammar", SOURCES["anthropic"], {"keywords": ("minLength", "maxLength")}),
    RuleDefinition("SM-37", "UnsupportedMinItems", "keyword_values", "`minItems` only 0 or 1",
                   "The provider supports only these array lower bounds", SOURCES["anthropic"], {"keyword": "minItems", "allowed": (0, 1)}),
    RuleDefinition("SM-38", "BannedArrayConstraint", "banned_keywords", "No array constraints other than `minItems`",
                   "Other array constraints are not enforced by the provider's grammar", SOURCES["anthropic"], {"keywords": ("maxItems", "uniqueItems")}),
    RuleDefinition("SM-39", "EnumNotScalar", "enum_scalars", "`enum` values are scalars",
                   "Complex values in enums are not supported", SOURCES["anthropic"]),
    RuleDefinition("SM-40", "AllOfWithRef", "all_of_without_ref", "No `$ref` inside `allOf`",
                   "The provider supports allOf except with $ref", SOURCES["anthropic"]),
    RuleDefinition("SM-41", "ExternalRef", "internal_refs", "`$ref` points inside the schema and resolves",
                   "The provider resolves only local references (no external documents)", SOURCES["openai"]),
    RuleDefinition("SM-42", "PropertyOrderingMismatch", "property_ordering", "`propertyOrdering` lists exactly the properties",
                   "The provider orders output by it; a name missing or extra breaks ordering", SOURCES["google"]),
    RuleDefinition("SM-43", "UnsupportedRegex", "simple_regex", "`pattern` uses simple regex constructs only",
                   "Backreferences, lookaround and word boundaries are not supported", SOURCES["anthropic"]),
    RuleDefinition("SM-44", "BannedConst", "banned_keywords", "No `const`",
                   "Not in the provider's schema subset (an enum of one value says the same)", SOURCES["google-schema"],
                   {"keywords": ("const",)}),
    RuleDefinition("SM-45", "BannedExclusiveBound", "banned_keywords", "No exclusive bounds",
                   "The provider's schema subset has minimum and maximum only", SOURCES["google-schema"],
                   {"keywords": ("exclusiveMinimum", "exclusiveMaximum")}),
)

CATALOGUE: Mapping[str, RuleDefinition] = MappingProxyType({definition.id: definition for definition in _DEFINITIONS})


def rule(rule_id: str, *, source: str | None = None, note: str = "", basis: str = "documented", **params: Any) -> StrictRule:
    """A dialect's rule: the catalogue entry with the dialect's parameters, source, note and basis
    (``"indirect"`` where the provider's documentation is silent on it)."""
    definition = CATALOGUE[rule_id]
    return StrictRule(
        id=definition.id,
        check=definition.check,
        kind=definition.kind,
        title=definition.title,
        reason=definition.reason,
        source=source or definition.source,
        params={**definition.params, **params},
        note=note,
        basis=basis,
    )

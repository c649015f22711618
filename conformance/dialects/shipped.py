"""The shipped dialects: ``openai``, ``openai@2025-01``, ``anthropic``, ``google`` (Gemini's JSON-Schema
mode), ``google-schema`` (its OpenAPI-subset ``Schema`` mode), ``cohere``, ``mistral``, ``lenient``.

Each dialect's rules are those of tool input schemas; ``contexts`` (data in
:mod:`strictconformance.dialects.contexts`) says how they differ for structured-output schemas.

``openai`` follows the provider's current documentation (July 2025 limits: 10 levels, 5000
properties, ``$defs``/``$ref`` and recursion allowed, no ``allOf``/``oneOf``/``prefixItems``).
``openai@2025-01`` reproduces the catalogue of ``seeds/003_44ca71bf0217c3d9.txt`` as written
(SM-01..SM-21 only, depth 5, no ``$ref``); it is named after the state of the documentation the
catalogue describes (before the July 2025 change). Every number has its source beside it.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from strictconformance.dialects.catalogue import SOURCES, rule
from strictconformance.dialects.contexts import (
    ANTHROPIC_CONTEXTS,
    COHERE_CONTEXTS,
    GOOGLE_CONTEXTS,
    GOOGLE_SCHEMA_CONTEXTS,
    MISTRAL_CONTEXTS,
    OPENAI_2025_01_CONTEXTS,
    OPENAI_CONTEXTS,
)
from strictconformance.dialects.model import Dialect, Limits, ValueEncoding

__all__ = ["ANTHROPIC", "COHERE", "GOOGLE", "GOOGLE_SCHEMA", "LENIENT", "MISTRAL", "OPENAI", "OPENAI_2025_01", "SHIPPED"]

_ANNOTATIONS = frozenset({"title", "description"})
_BANNED_CATALOGUE = tuple(f"SM-{n:02d}" for n in range(7, 21))  # $anchor .. not

_OPENAI_FORMATS = ("date-time", "time", "date", "duration", "email", "hostname", "ipv4", "ipv6", "uuid")
_ANTHROPIC_FORMATS = ("date-time", "time", "date", "duration", "email", "hostname", "uri", "ipv4", "ipv6", "uuid")
_GOOGLE_FORMATS = ("date-time", "date", "time")

_DEPTH_NOTE = (
    "The provider does not say how levels are counted. The validator counts data-shape edges "
    "(properties, items, additionalProperties, prefixItems) from the root at 0, per schema tree "
    "(the root and each $defs entry), without following $ref: the reading that flags least."
)
_NOT_LISTED_NOTE = (
    "Not in the provider's documented list of supported keywords; the documentation does not say "
    "whether it is rejected or ignored, so a strict schema must not rely on it."
)
_CYCLIC_REFERENCE_NOTE = (
    "A reference that only leads back to itself through references and allOf/anyOf/oneOf/not/if "
    "(A = {$ref: B}, B = {allOf: [{$ref: A}]}) resolves to no schema: JSON Schema 2020-12 Core "
    "(https://json-schema.org/draft/2020-12/json-schema-core, \"Guarding Against Infinite Recursion\") "
    "says schemas should not do it and leaves the behaviour undefined. Recursion through a value "
    "(properties, items...) is not flagged here."
)
_SHARED_DEFINITIONS_NOTE = (
    "strictify keeps a definition that two places or more of the strict schema refer to once under "
    "$defs, referred to by $ref, instead of inlining it at each place (a DAG of shared definitions "
    "would unfold exponentially); one used once, or with a title or description beside the "
    "reference, is inlined there."
)
_GOOGLE_IGNORED_NOTE = (
    "Gemini ignores unsupported JSON Schema keywords instead of rejecting them; a schema that "
    "keeps one promises a constraint the model does not honour."
)

OPENAI_2025_01 = Dialect(
    name="openai@2025-01",
    description="OpenAI strict mode as catalogued in seeds/003 (before the July 2025 limits): SM-01..SM-21, depth 5, no $ref",
    rules=(
        rule("SM-01"), rule("SM-02"), rule("SM-03"), rule("SM-04"), rule("SM-05"), rule("SM-06"),
        *(rule(rule_id) for rule_id in _BANNED_CATALOGUE),
        rule("SM-21", limit=5),
    ),
    encoding=ValueEncoding(
        records="pairs", tuples="numeric_keys", optional="required_nullable",
        recursion="unroll", references="inline", unroll_depth=5,
        close_objects=True, wrap_root=True, declare_types=True, combine_all_of=True,
        # the catalogue's "Allowed Keywords" list
        keywords=frozenset({
            "type", "properties", "items", "prefixItems", "additionalProperties", "required",
            "anyOf", "oneOf", "allOf", "enum", "const", "title", "description", "default",
            "examples", "$id", "$defs", "minLength", "maxLength", "pattern", "minimum", "maximum",
            "exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "uniqueItems",
        }),
    ),
    limits=Limits(max_depth=5, source=SOURCES["seed003"]),
    source=SOURCES["seed003"],
    contexts=OPENAI_2025_01_CONTEXTS,
    notes=("Records become arrays of {key, value} pairs and tuples numeric-key objects, as for `openai`.",),
)

OPENAI = Dialect(
    name="openai",
    description="OpenAI Structured Outputs / strict function tools per the current documentation",
    rules=(
        rule("SM-01", source=SOURCES["openai"]),
        rule("SM-02"),
        rule("SM-03", source=SOURCES["openai"]),
        rule("SM-04"),
        rule("SM-05", source=SOURCES["openai"], note="patternProperties is a fine-tuned-model restriction too"),
        *(rule(rule_id, note=_NOT_LISTED_NOTE, basis="indirect") for rule_id in ("SM-07", "SM-08", "SM-09")),
        *(rule(rule_id, source=SOURCES["openai"]) for rule_id in ("SM-10", "SM-11")),
        *(rule(rule_id, note=_NOT_LISTED_NOTE, basis="indirect") for rule_id in ("SM-12", "SM-13", "SM-14", "SM-15", "SM-16")),
        *(rule(rule_id, source=SOURCES["openai"]) for rule_id in ("SM-17", "SM-18", "SM-19", "SM-20")),
        rule("SM-21", source=SOURCES["openai-limits"], limit=10, note=_DEPTH_NOTE),
        rule("SM-22", limit=5000),
        rule("SM-23", limit=1000),
        rule("SM-24", limit=120_000),
        rule("SM-25", threshold=250, limit=15_000),
        rule("SM-26"),
        rule("SM-27", note="Not listed as supported; rejected in practice.", basis="indirect"),
        rule("SM-28", note="Not listed as supported; rejected in practice.", basis="indirect"),
        rule("SM-29"),
        rule("SM-30"),
        rule("SM-31", formats=_OPENAI_FORMATS),
        rule("SM-32"),
        rule("SM-33"),
        rule("SM-41", note=_CYCLIC_REFERENCE_NOTE),
    ),
    encoding=ValueEncoding(
        records="pairs", tuples="numeric_keys", optional="required_nullable",
        recursion="keep", references="keep",
        close_objects=True, wrap_root=True, declare_types=True, combine_all_of=True, one_of_as_any_of=True,
        formats=frozenset(_OPENAI_FORMATS),
        keywords=frozenset({
            "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
            "const", "$defs", "$ref", "pattern", "format", "multipleOf", "maximum",
            "exclusiveMaximum", "minimum", "exclusiveMinimum", "minItems", "maxItems",
        }) | _ANNOTATIONS,
    ),
    limits=Limits(
        max_depth=10, max_total_properties=5000, max_enum_values=1000,
        max_total_string_length=120_000, large_enum_threshold=250, large_enum_string_length=15_000,
        source=SOURCES["openai-limits"],
    ),
    source=SOURCES["openai"],
    contexts=OPENAI_CONTEXTS,
    notes=(
        "SM-06 BannedSchemaRef (catalogue) is not enforced: the current documentation supports "
        "$defs and $ref, including recursion. `openai@2025-01` keeps it.",
        "minLength/maxLength are not in the documented list of string keywords; the validator does "
        "not flag them (the documentation does not say they are rejected), strictify drops them.",
        "strictify keeps $ref only to recursive definitions and inlines shared ones: the depth limit "
        "is counted on the tree (SM-21 does not follow $ref), so a kept shared definition could hide "
        "levels the provider counts.",
    ),
)

ANTHROPIC = Dialect(
    name="anthropic",
    description="Anthropic strict tool use / JSON outputs (structured-outputs-2025-11-13)",
    rules=(
        rule("SM-01", source=SOURCES["anthropic-tools"]),
        rule("SM-03", source=SOURCES["anthropic"]),
        *(rule(rule_id, source=SOURCES["anthropic"], note=_NOT_LISTED_NOTE, basis="indirect") for rule_id in ("SM-05", *_BANNED_CATALOGUE)),
        rule("SM-27", source=SOURCES["anthropic"], note=_NOT_LISTED_NOTE, basis="indirect"),
        rule("SM-28", source=SOURCES["anthropic"], note=_NOT_LISTED_NOTE, basis="indirect"),
        rule("SM-31", source=SOURCES["anthropic"], formats=_ANTHROPIC_FORMATS),
        rule("SM-34"),
        rule("SM-35", note="The documentation names minimum, maximum and multipleOf; exclusive bounds are numeric constraints too."),
        rule("SM-36"),
        rule("SM-37"),
        rule("SM-38"),
        rule("SM-39"),
        rule("SM-40"),
        rule("SM-41", source=SOURCES["anthropic"], note=_CYCLIC_REFERENCE_NOTE),
        rule("SM-43"),
    ),
    encoding=ValueEncoding(
        records="pairs", tuples="numeric_keys", optional="optional",
        # no recursion: unroll a recursive definition this many times (a kit choice; the
        # provider documents no depth limit), then truncate
        recursion="unroll", references="keep", unroll_depth=3,
        close_objects=True, wrap_root=True, declare_types=True, combine_all_of=True, one_of_as_any_of=True,
        formats=frozenset(_ANTHROPIC_FORMATS), min_items_allowed=frozenset({0, 1}), simple_patterns_only=True,
        scalar_enums=True,
        keywords=frozenset({
            "type", "properties", "required", "additionalProperties", "items", "anyOf", "allOf",
            "enum", "const", "$ref", "$defs", "definitions", "default", "format", "pattern", "minItems",
        }) | _ANNOTATIONS,
    ),
    source=SOURCES["anthropic"],
    contexts=ANTHROPIC_CONTEXTS,
    budgets={"strict_tools": 20, "optional_parameters": 24, "union_parameters": 16},
    notes=(
        "Recursive definitions are unrolled (no recursion); a definition that is not recursive is "
        "kept as $ref only where it is shared: " + _SHARED_DEFINITIONS_NOTE,
    ),
)

_GOOGLE_UNLISTED_NOTE = (
    "The Schema reference says it has no such keyword (\"No allOf, oneOf, not, const, prefixItems, "
    "uniqueItems, exclusive bounds\"); the JSON-Schema mode adds prefixItems only. " + _GOOGLE_IGNORED_NOTE
)
_PROPERTY_ORDERING_NOTE = (
    "Checked where present, not required: with a JSON Schema (parametersJsonSchema) the output "
    "follows the schema's key order (\"implicit key ordering\"); propertyOrdering belongs to the "
    "OpenAPI Schema. strictify emits it on every object with properties all the same (SPEC §3)."
)

GOOGLE = Dialect(
    name="google",
    description="Gemini function declarations with parametersJsonSchema / JSON-Schema structured output",
    rules=(
        rule("SM-01", source=SOURCES["google-functions"]),
        *(rule(rule_id, source=SOURCES["google"], note=_GOOGLE_IGNORED_NOTE)
          for rule_id in ("SM-05", "SM-10", "SM-11", "SM-12", "SM-13", "SM-14", "SM-15", "SM-16",
                          "SM-17", "SM-18", "SM-19", "SM-20", "SM-26", "SM-27")),
        rule("SM-31", source=SOURCES["google"], formats=_GOOGLE_FORMATS),
        rule("SM-32", source=SOURCES["google-schema"], note=_GOOGLE_UNLISTED_NOTE),
        rule("SM-41", source=SOURCES["google"], note=_CYCLIC_REFERENCE_NOTE),
        rule("SM-42", note=_PROPERTY_ORDERING_NOTE),
        rule("SM-44", note=_GOOGLE_UNLISTED_NOTE),
        rule("SM-45", note=_GOOGLE_UNLISTED_NOTE),
    ),
    encoding=ValueEncoding(
        records="native", tuples="native", optional="optional", recursion="keep", references="keep",
        close_objects=False, wrap_root=True, declare_types=True, property_ordering=True, combine_all_of=True, one_of_as_any_of=True,
        formats=frozenset(_GOOGLE_FORMATS),
        # the Schema reference's keywords (min/max properties included) and the JSON-Schema mode's
        # additions (additionalProperties, prefixItems, $ref/$defs)
        keywords=frozenset({
            "type", "properties", "required", "additionalProperties", "items", "prefixItems",
            "anyOf", "enum", "$ref", "$defs", "format", "minimum", "maximum", "minItems",
            "maxItems", "minLength", "maxLength", "pattern", "propertyOrdering", "minProperties", "maxProperties",
        }) | _ANNOTATIONS,
    ),
    source=SOURCES["google"],
    contexts=GOOGLE_CONTEXTS,
    notes=(
        "`multipleOf` is in neither the Schema reference nor the JSON-Schema mode's list, and the "
        "documentation does not say it is unsupported: no rule flags it; strictify drops it, as a loss.",
        "Recursion through the root stays `$ref: \"#\"` (SPEC §3), moved to `$defs` when the root is wrapped.",
        "Recursive definitions stay under `$defs`, and shared ones: " + _SHARED_DEFINITIONS_NOTE,
    ),
)

_GOOGLE_SCHEMA_NOT_A_FIELD_NOTE = (
    "Not a field of the Schema object (\"a select subset of an OpenAPI 3.0 schema object\"), which "
    "lists no allOf, oneOf, not, const, prefixItems, uniqueItems or exclusive bounds either."
)

GOOGLE_SCHEMA = Dialect(
    name="google-schema",
    description="Gemini's OpenAPI-subset Schema mode: function declarations' parameters / responseSchema",
    rules=(
        rule("SM-01", source=SOURCES["google-function-declaration"],
             note="A function declaration's parameters are an object of named parameters."),
        *(rule(rule_id, source=SOURCES["google-schema"], note=_GOOGLE_SCHEMA_NOT_A_FIELD_NOTE)
          for rule_id in ("SM-05", "SM-10", "SM-11", "SM-12", "SM-13", "SM-14", "SM-15", "SM-16",
                          "SM-17", "SM-18", "SM-19", "SM-20", "SM-26", "SM-27", "SM-28", "SM-32")),
        rule("SM-41", source=SOURCES["google-schema"], note="`ref` points to a root `defs` entry. " + _CYCLIC_REFERENCE_NOTE),
        rule("SM-42", source=SOURCES["google-schema"],
             note="Checked where present, not required: the Schema object's own ordering field."),
        rule("SM-44", source=SOURCES["google-schema"], note=_GOOGLE_SCHEMA_NOT_A_FIELD_NOTE),
        rule("SM-45", source=SOURCES["google-schema"], note=_GOOGLE_SCHEMA_NOT_A_FIELD_NOTE),
    ),
    encoding=ValueEncoding(
        # no prefixItems in the Schema object: tuples travel as numeric-key objects
        records="native", tuples="numeric_keys", optional="optional", recursion="keep", references="keep",
        close_objects=False, wrap_root=True, declare_types=True, property_ordering=True, combine_all_of=True,
        one_of_as_any_of=True,
        # the Schema object's fields, as JSON Schema (defs/ref are $defs/$ref, nullable a null type)
        keywords=frozenset({
            "type", "format", "properties", "required", "additionalProperties", "items", "anyOf", "enum",
            "$ref", "$defs", "minimum", "maximum", "minItems", "maxItems", "minLength", "maxLength",
            "pattern", "propertyOrdering", "minProperties", "maxProperties",
        }) | _ANNOTATIONS,
    ),
    source=SOURCES["google-schema"],
    contexts=GOOGLE_SCHEMA_CONTEXTS,
    unsettled={"additionalProperties": (
        "google-genai's Schema has the field (\"Can either be a boolean or an object\") and sends it, but the "
        f"Schema object's API reference ({SOURCES['google-schema']}) does not list it, and google-genai refuses it "
        "in Gemini Developer API mode (_transformers.py: \"additionalProperties is only supported in Gemini "
        "Enterprise Agent Platform mode\"); only the Vertex AI mode takes it")},
    notes=(
        "`format`: \"Any value is allowed, but most do not trigger any special functionality\" "
        f"({SOURCES['google-schema']}); google-genai's Schema.format lists float, double, int32, int64, email, "
        "byte, date, date-time, password \"and other formats\". No format rule, unlike `google` (the "
        "JSON-Schema mode: date-time, date, time).",
        "The Schema object writes `type` in capitals, `nullable` for null and `defs`/`ref` for `$defs`/`$ref`: "
        "an adapter returns it read as the JSON Schema it means (google-genai's adapter shows how).",
        "`additionalProperties` is a field of google-genai's Schema (\"Can either be a boolean or an object\"); "
        "the API reference does not list it: no rule flags it (the reading that flags less), and a refusal of "
        "a schema that needs it is no unnecessary refusal (`unsettled`).",
        "`defs` holds the recursive definitions and the shared ones: " + _SHARED_DEFINITIONS_NOTE,
    ),
)

_COHERE_FORMATS = ("date-time", "uuid", "date", "time")
_COHERE_SOME_NOTE = (
    "Cohere's list is \"some unsupported features\", not a complete list; keywords it does not "
    "name are not flagged."
)

COHERE = Dialect(
    name="cohere",
    description="Cohere Structured Outputs: response_format json_schema and strict_tools (Chat API v2)",
    rules=(
        rule("SM-01", source=SOURCES["cohere-constraints"], note="\"The type in the top level schema must be object\"."),
        rule("SM-20", source=SOURCES["cohere"], note="Schema composition: not. " + _COHERE_SOME_NOTE),
        rule("SM-26", source=SOURCES["cohere"], note="Schema composition: allOf (anyOf is supported)."),
        rule("SM-27", source=SOURCES["cohere"], note="Schema composition: oneOf (anyOf is supported)."),
        rule("SM-31", source=SOURCES["cohere"], formats=_COHERE_FORMATS,
             note="\"The following formats are the only supported ones: date-time, uuid, date, time\"."),
        rule("SM-32", source=SOURCES["cohere-supported"], note="The supported-features table says uniqueItems: No (JSON and Tools)."),
        rule("SM-35", source=SOURCES["cohere"], keywords=("minimum", "maximum"),
             note="Numeric ranges: the documentation names minimum and maximum only; exclusive bounds and "
                  "multipleOf are not named, so not flagged (the reading that flags less)."),
        rule("SM-36", source=SOURCES["cohere"], note="String length: maxLength and minLength."),
        rule("SM-38", source=SOURCES["cohere"], keywords=("minItems", "maxItems"),
             note="Array length ranges: Cohere names minItems AND maxItems (the catalogue title, which allows "
                  "minItems, is Anthropic's reading); uniqueItems is SM-32 here."),
        rule("SM-43", source=SOURCES["cohere"],
             note="The documentation lists lookahead (?= and ?!) and the anchors ^ and $ as unsupported in "
                  "patterns. This rule flags lookaround, backreferences and \\b; the anchors are not flagged by any "
                  "rule (see the dialect notes)."),
    ),
    encoding=ValueEncoding(
        # records as key/value pairs: every object is closed (no hallucinated fields), and the
        # documentation says a schema-valued additionalProperties "does not enforce required"
        records="pairs", tuples="numeric_keys", optional="optional", recursion="keep", references="keep",
        close_objects=True, wrap_root=True, declare_types=True, combine_all_of=True, one_of_as_any_of=True,
        formats=frozenset(_COHERE_FORMATS), simple_patterns_only=True,
        # the "Supported schema features" tables: basic types, arrays, nested objects, enum, const,
        # pattern, format, $ref, $defs, additionalProperties, anyOf
        keywords=frozenset({
            "type", "properties", "required", "additionalProperties", "items", "anyOf", "enum", "const",
            "pattern", "format", "$ref", "$defs",
        }) | _ANNOTATIONS,
    ),
    source=SOURCES["cohere"],
    contexts=COHERE_CONTEXTS,
    notes=(
        "Not checked: \"Every object in the schema must have at least one required field specified\" "
        f"({SOURCES['cohere-constraints']}); strict_tools also refuses tools with only optional parameters. "
        "No SM rule of the catalogue states it; it needs a new rule in the specification.",
        "Not checked: the anchors ^ and $ in `pattern` (listed as unsupported); strictify does not drop them.",
        "Not checked: \"a maximum of 200 fields across all tools\" with strict_tools (a per-request budget "
        "the kit does not model for Cohere).",
        "Silent: recursion, prefixItems, patternProperties, if/then/else, dependent*, unevaluated*, contains "
        "and default are not mentioned; no rule flags them, strictify keeps only the supported keywords.",
        "$ref/$defs are supported: recursive definitions stay under $defs, and shared ones: " + _SHARED_DEFINITIONS_NOTE,
    ),
)

MISTRAL = Dialect(
    name="mistral",
    description="Mistral custom structured outputs (response_format json_schema, strict) and strict function tools",
    rules=(
        rule("SM-01", source=SOURCES["mistral"], basis="indirect",
             note="\"Your output should be an instance of a JSON object following this schema\" (the "
                  "instruction the API prepends); function parameters are an object too. Read from a "
                  "prompt text, not from a documented schema rule."),
    ),
    encoding=ValueEncoding(wrap_root=True),
    source=SOURCES["mistral"],
    contexts=MISTRAL_CONTEXTS,
    notes=(
        "Mistral documents `strict` (response_format json_schema and function definitions) but no "
        "supported subset, no unsupported keyword and no limit: the documentation is silent, so this "
        "dialect flags only a root that is not an object. Add rules only with a documented source.",
        "Recursive definitions stay under $defs, and shared ones: " + _SHARED_DEFINITIONS_NOTE,
    ),
)

LENIENT = Dialect(
    name="lenient",
    description="No strict subset: every schema is accepted as written",
    rules=(),
    encoding=ValueEncoding(),
    source=SOURCES["spec"],
)

#: The shipped dialects by name (read-only).
SHIPPED: Mapping[str, Dialect] = MappingProxyType({
    dialect.name: dialect for dialect in (OPENAI, OPENAI_2025_01, ANTHROPIC, GOOGLE, COHERE, MISTRAL, LENIENT, GOOGLE_SCHEMA)
})

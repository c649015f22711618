"""SPEC.md §1 (RES) and §2 (BUD): strict resolution and per-request budgets, as data.

Besides the rules this module holds what those rules are stated in terms of: the published
budgets, how a schema's cost against them is counted, and the model ids whose strict capability
RES-14 fixes.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from strictconformance.spec import Rule
from strictconformance.spec.keywords import APPLICATOR_KEYWORDS, holds

__all__ = [
    "ANTHROPIC_BUDGET",
    "PUBLISHED_BUDGETS",
    "RES14_CAPABLE",
    "RES14_LENIENT",
    "RULES",
    "Budget",
    "SchemaCost",
    "schema_cost",
]

_STRICT_DOCS = ("https://platform.openai.com/docs/guides/function-calling#strict-mode, "
                "https://platform.claude.com/docs/en/agents-and-tools/tool-use/strict-tool-use, "
                "https://ai.google.dev/gemini-api/docs/function-calling")
_SPEC1 = "strictconformance/spec/SPEC.md §1; " + _STRICT_DOCS
_SPEC1P = "strictconformance/spec/SPEC.md §1 (the strict flag, auto-resolution and the strict format); " + _STRICT_DOCS
_SPEC2 = "strictconformance/spec/SPEC.md §2 (per-request budgets)"
_ANTHROPIC_LIMITS = "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations"

_BOOLEAN = ("build_request",)
_PRIORITY = ("plan_request",)

RULES: tuple[Rule, ...] = (
    Rule("RES-1", "per-tool setting beats provider config beats provider default",
         "wire = tool ?? config ?? provider_default. A per-tool false beats a provider true; a per-tool "
         "true beats a provider false.", _SPEC1, _BOOLEAN),
    Rule("RES-2", "an unset tool under an unset config gets the declared provider default",
         "Provider defaults: OpenAI true; Anthropic true when the model supports structured outputs; "
         "Google omitted. Checked against the adapter's declared defaults (the seed's are the reference's).",
         _SPEC1, _BOOLEAN),
    Rule("RES-3", "Anthropic without structured-output support: strict omitted",
         "An Anthropic model without structured-output support gets strict omitted, whatever the tool or "
         "config say.", _SPEC1, _BOOLEAN),
    Rule("RES-4", "Anthropic structured-output formats carry no strict",
         "Anthropic structured-output response formats carry no `strict` at all (the API has no such field).",
         _SPEC1, _BOOLEAN),
    Rule("RES-5", "strict sent to Anthropic comes with the structured-outputs beta flag",
         "When strict is sent for Anthropic, the request also carries the structured-outputs beta flag "
         "(structured-outputs-2025-11-13), whichever convention chose strict (a request built from "
         "per-tool settings, or a plan that ships a tool strict on an Anthropic-dialect model); the beta "
         "is Anthropic's, so no other provider's request carries it.",
         _SPEC1 + "; " + _ANTHROPIC_LIMITS, (*_BOOLEAN, *_PRIORITY)),
    Rule("RES-6", "Google: no per-tool flag; a strict tool switches the mode to VALIDATED",
         "Google has no per-tool flag: a tool resolved to strict true switches the request's function-"
         "calling mode to VALIDATED; otherwise the mode is left as the caller set it.",
         "strictconformance/spec/SPEC.md §1; https://ai.google.dev/gemini-api/docs/function-calling (function calling modes: VALIDATED)", _BOOLEAN),
    Rule("RES-10", "strict=true is required: selection filters, else a clear error naming the tool",
         "true: model selection keeps only strict-capable models (strict format is a family); if none "
         "remains the request fails with a clear error naming the tool. Never silently lenient.",
         _SPEC1P, _PRIORITY),
    Rule("RES-11", "strict=false is never strict",
         "false: never strict, whatever the model supports. (On Google, which has no per-tool flag, a "
         "request whose tools are all false never switches to VALIDATED.)", _SPEC1P, _PRIORITY),
    Rule("RES-12", "a strict priority prefers, never filters, and goes lenient silently",
         "number (and unset, which means 1): selection prefers strict-capable models but never filters; "
         "on a model without strict support the tool goes lenient, silently.", _SPEC1P, _PRIORITY),
    Rule("RES-13", "strict format: explicit value wins; the fallback picks a dialect, not a capability",
         "An explicit strict format wins (`none` opts out even if a table said otherwise); unset resolves "
         "the dialect from the provider name if it names a family, else from the model id's `family/` "
         "prefix. Only an explicit value or a curated table entry makes a model strict-capable.",
         _SPEC1P, ("strict_support",)),
    Rule("RES-14", "the curated table marks exactly the strict-capable families",
         "Strict-capable: OpenAI gpt-4o and later (gpt-4.1, gpt-5, o1/o3/o4), Claude 4.5 and the Claude 4 "
         "family (Sonnet/Haiku/Opus 4, including on Bedrock), Gemini 2.0 and later, and the same families "
         "behind an aggregator's openai/, anthropic/, google/ prefixes. Older models (gpt-3.5-turbo, "
         "claude-3-*) stay lenient.", _SPEC1P + " ('Wiring up the curated table')", ("strict_support",)),
    Rule("BUD-1", "the strict tools of a request never exceed any budget",
         "Counted over the schemas as they go on the wire: strict tools, optional parameters (properties "
         "not in `required`, at any depth) and union-typed parameters (anyOf/oneOf or a type list of more "
         "than one entry) stay within every published budget.", _SPEC2 + "; " + _ANTHROPIC_LIMITS, _PRIORITY),
    Rule("BUD-2", "budget order: true first, then priorities high to low, ties in declaration order",
         "Tools are considered true first, then numbers from high to low; ties keep declaration order. "
         "Checked where costs are uniform: the strict tools are then exactly a prefix of that order.",
         _SPEC2, _PRIORITY),
    Rule("BUD-3", "greedy fit: each tool in order ships strict iff it still fits (declared policy only)",
         "Walking in BUD-2 order, a tool ships strict when it still fits every remaining budget; otherwise "
         "it ships lenient and the walk goes on. 25 equal tools on Anthropic ship 20 strict. Checked only "
         "where the adapter declares allocation_policy = 'greedy'.", _SPEC2, _PRIORITY),
    Rule("BUD-4", "a higher-priority tool is never lenient while a no-cheaper lower one is strict",
         "If tool A has higher priority than tool B, A costs no more than B on every budget, and B ships "
         "strict, then A ships strict (B's place would have fit A).", _SPEC2, _PRIORITY),
    Rule("BUD-5", "required tools over budget: a clear error naming the budget and the tools",
         "When the true tools alone exceed a budget the request fails with an error that names the budget "
         "and the tools; it is never sent with a required tool lenient.", _SPEC2, _PRIORITY),
    Rule("BUD-6", "when everything fits, every strict-wanting tool ships strict",
         "When all strict-wanting tools fit every budget together, every one of them ships strict on a "
         "strict-capable model.", _SPEC2, _PRIORITY),
)


@dataclass(frozen=True)
class Budget:
    """A per-request cap on strict schema, summed over the strict tools of one request."""

    max_strict_tools: int | None
    max_optional_params: int | None
    max_union_params: int | None
    source: str = ""

    def names(self) -> tuple[str, ...]:
        return tuple(name for name in ("max_strict_tools", "max_optional_params", "max_union_params") if getattr(self, name) is not None)


#: Anthropic's published per-request limits for strict tools.
ANTHROPIC_BUDGET = Budget(20, 24, 16, source=_ANTHROPIC_LIMITS)
#: Providers with a published per-request cap; OpenAI and Google have none (SPEC §2).
PUBLISHED_BUDGETS: Mapping[str, Budget] = {"anthropic": ANTHROPIC_BUDGET}


@dataclass(frozen=True)
class SchemaCost:
    """One strict tool's cost against a :class:`Budget`: every tool costs one tool slot."""

    optional_params: int
    union_params: int




def _is_union(schema: object) -> bool:
    if not isinstance(schema, Mapping):
        return False
    kind = schema.get("type")
    return "anyOf" in schema or "oneOf" in schema or (isinstance(kind, list) and len(kind) > 1)


def schema_cost(schema: Mapping[str, Any]) -> SchemaCost:
    """Count a schema's optional and union-typed parameters, at any depth (SPEC §2).

    Every object property counts, wherever it sits (nested objects, array items, anyOf branches,
    definitions — each definition once; `$ref`s are not followed). A property is optional when it is
    not listed in its object's `required`; it is union-typed when its schema has anyOf/oneOf or a
    type list of more than one entry.
    """
    optional = union = 0
    stack: list[Any] = [schema]
    while stack:
        node = stack.pop()
        if not isinstance(node, Mapping):
            continue
        properties = node.get("properties")
        if isinstance(properties, Mapping):
            required = node.get("required")
            required_names = set(required) if isinstance(required, list) else set()
            for name, subschema in properties.items():
                optional += name not in required_names
                union += _is_union(subschema)
        for key, value in node.items():
            # where subschemas sit: the kit's keyword facts (a draft-07 `items` list, `dependencies`...)
            form = holds(key, value) if key in APPLICATOR_KEYWORDS else None
            if form == "schema-map":
                if isinstance(value, Mapping):
                    stack.extend(value.values())  # `dependencies`' name arrays are skipped as non-schemas
            elif form == "schema-array":
                if isinstance(value, list):
                    stack.extend(value)
            elif form == "schema":
                stack.append(value)
    return SchemaCost(optional, union)


# RES-14: ids whose capability is fixed by SPEC.md. (provider, id, dialect); the lists stay
# conservative so a correct table never fails: only ids SPEC.md names or clearly covers.
RES14_CAPABLE: tuple[tuple[str, str, str], ...] = (
    ("openai", "gpt-4o", "openai"),
    ("openai", "gpt-4o-mini", "openai"),
    ("openai", "gpt-4o-2024-08-06", "openai"),
    ("openai", "gpt-4.1", "openai"),
    ("openai", "gpt-4.1-mini", "openai"),
    ("openai", "gpt-4.1-nano", "openai"),
    ("openai", "gpt-5", "openai"),
    ("openai", "gpt-5-mini", "openai"),
    ("openai", "o1", "openai"),
    ("openai", "o3", "openai"),
    ("openai", "o3-mini", "openai"),
    ("openai", "o4-mini", "openai"),
    ("anthropic", "claude-sonnet-4-5", "anthropic"),
    ("anthropic", "claude-sonnet-4-5-20250929", "anthropic"),
    ("anthropic", "claude-haiku-4-5", "anthropic"),
    ("anthropic", "claude-opus-4-5", "anthropic"),
    ("anthropic", "claude-opus-4-1", "anthropic"),
    ("anthropic", "claude-opus-4-1-20250805", "anthropic"),
    ("anthropic", "claude-sonnet-4-20250514", "anthropic"),
    ("anthropic", "claude-opus-4-20250514", "anthropic"),
    ("bedrock", "anthropic.claude-sonnet-4-5-20250929-v1:0", "anthropic"),
    ("bedrock", "us.anthropic.claude-sonnet-4-20250514-v1:0", "anthropic"),
    ("bedrock", "anthropic.claude-opus-4-20250514-v1:0", "anthropic"),
    ("bedrock", "anthropic.claude-haiku-4-5-20251001-v1:0", "anthropic"),
    ("bedrock", "us.anthropic.claude-opus-4-1-20250805-v1:0", "anthropic"),
    ("google", "gemini-2.0-flash", "google"),
    ("google", "gemini-2.0-flash-lite", "google"),
    ("google", "gemini-2.5-pro", "google"),
    ("google", "gemini-2.5-flash", "google"),
    ("google", "gemini-3-pro-preview", "google"),
    ("openrouter", "openai/gpt-4o", "openai"),
    ("openrouter", "openai/gpt-4.1-mini", "openai"),
    ("openrouter", "openai/gpt-5", "openai"),
    ("openrouter", "anthropic/claude-sonnet-4.5", "anthropic"),
    ("openrouter", "anthropic/claude-opus-4", "anthropic"),
    ("openrouter", "google/gemini-2.5-pro", "google"),
    ("openrouter", "google/gemini-2.0-flash-001", "google"),
)
# Lenient: what came before the families above ("gpt-4o+, claude 4.5+, gemini 2.0+" in the seed;
# SPEC's "older models ... stay lenient"), wherever it is served: directly, on Bedrock, behind an
# aggregator's prefix. A table matching a family too loosely (`gpt-4.*`, any Bedrock Claude) fails here.
RES14_LENIENT: tuple[tuple[str, str, str], ...] = (
    ("openai", "gpt-3.5-turbo", "openai"),
    ("openai", "gpt-3.5-turbo-0125", "openai"),
    ("openai", "gpt-4", "openai"),
    ("openai", "gpt-4-0613", "openai"),
    ("openai", "gpt-4-turbo", "openai"),
    ("openai", "gpt-4-turbo-2024-04-09", "openai"),
    ("anthropic", "claude-3-5-sonnet-20241022", "anthropic"),
    ("anthropic", "claude-3-7-sonnet-20250219", "anthropic"),
    ("anthropic", "claude-3-haiku-20240307", "anthropic"),
    ("anthropic", "claude-3-opus-20240229", "anthropic"),
    ("google", "gemini-1.5-pro", "google"),
    ("google", "gemini-1.5-flash", "google"),
    ("bedrock", "anthropic.claude-3-5-sonnet-20240620-v1:0", "anthropic"),
    ("bedrock", "us.anthropic.claude-3-7-sonnet-20250219-v1:0", "anthropic"),
    ("bedrock", "anthropic.claude-3-haiku-20240307-v1:0", "anthropic"),
    ("openrouter", "openai/gpt-3.5-turbo", "openai"),
    ("openrouter", "openai/gpt-4-turbo", "openai"),
    ("openrouter", "anthropic/claude-3.7-sonnet", "anthropic"),
    ("openrouter", "anthropic/claude-3.5-sonnet", "anthropic"),
    ("openrouter", "anthropic/claude-3-haiku", "anthropic"),
    ("openrouter", "google/gemini-1.5-pro", "google"),
)

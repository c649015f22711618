"""JSON Schema keyword facts, per draft: the one table every schema walker in the kit reads.

Which keywords a draft has; which of them hold subschemas, and how (one schema, an array of
schemas, a map of names to schemas); whether those subschemas apply to the *same* instance as
the schema holding them (in-place applicators: ``allOf``, ``if``, ``dependentSchemas``...), to
*another* value (child applicators: a member, an item or a property name: ``properties``,
``items``, ``propertyNames``...), or to nothing by themselves (``$defs``, reached only by
``$ref``; ``contentSchema``, an annotation about decoded content); and which keywords only
annotate. The validator, strictify, the tool layer, the budget counter and the strategies keep
their own walkers (the oracle must not share the code it judges); they share these facts.

Not here, on purpose: what a dialect allows or bans (``dialects/shipped.py``, ``catalogue.py``:
provider facts), SM-21's depth edges (a provider's notion of nesting), how strictify merges or
the instance compiler builds each keyword (their own logic).

Sources: the meta-schemas and specifications of each draft (draft-04 ``schema``; draft-06 and
draft-07 ``schema``; 2019-09 and 2020-12 ``meta/core``, ``meta/applicator``, ``meta/validation``,
``meta/meta-data``, ``meta/format``/``meta/format-annotation``, ``meta/content``,
``meta/unevaluated``), and JSON Schema 2020-12 Core §10 (in-place vs child applicators), §8.2.4
(``$defs``), Appendix G (``dependencies``, array ``items``, ``additionalItems`` and
``definitions`` from older drafts). ``tests/test_keywords.py`` checks the table against the
meta-schemas shipped with ``jsonschema-specifications``. This module imports nothing of the kit.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "ALL_DRAFTS",
    "ANNOTATION_KEYWORDS",
    "APPLICATOR_KEYWORDS",
    "CHILD_APPLICATORS",
    "COMBINATORS",
    "DEFINITION_KEYWORDS",
    "DRAFTS",
    "IN_PLACE_APPLICATORS",
    "KEYWORDS",
    "OLD_DRAFT_SUBSCHEMA_KEYWORDS",
    "REFERENCE_KEYWORDS",
    "SCHEMA_ARRAY_KEYWORDS",
    "SCHEMA_KEYWORDS",
    "SCHEMA_MAP_KEYWORDS",
    "SUBSCHEMAS",
    "Applies",
    "Draft",
    "Holds",
    "Subschema",
    "holds",
    "keywords_of",
    "subschema_keywords",
]

Draft = Literal["draft-04", "draft-06", "draft-07", "2019-09", "2020-12"]
#: The drafts the kit reads, oldest first.
DRAFTS: tuple[Draft, ...] = ("draft-04", "draft-06", "draft-07", "2019-09", "2020-12")
ALL_DRAFTS: frozenset[Draft] = frozenset(DRAFTS)

#: How a keyword's value holds subschemas.
Holds = Literal["schema", "schema-array", "schema-map"]
#: What its subschemas apply to: the same instance ("in-place"), another value: a member, an
#: item or a property name ("child"), nothing until a ``$ref`` reaches them ("definitions"), or
#: nothing at all: an annotation about decoded content ("annotation", ``contentSchema``).
Applies = Literal["in-place", "child", "definitions", "annotation"]


def _since(first: Draft) -> frozenset[Draft]:
    return frozenset(DRAFTS[DRAFTS.index(first):])


def _until(last: Draft) -> frozenset[Draft]:
    return frozenset(DRAFTS[:DRAFTS.index(last) + 1])


@dataclass(frozen=True)
class Subschema:
    """One keyword whose value holds subschemas."""

    keyword: str
    holds: Holds
    applies: Applies
    drafts: frozenset[Draft]
    #: drafts where the value may also be an array of schemas (``items`` up to 2019-09)
    array_form: frozenset[Draft] = frozenset()
    #: a map member may be an array of property names instead of a schema (``dependencies``)
    string_array_members: bool = False
    #: drafts where the value may be a boolean although boolean schemas do not exist yet
    #: (draft-04's ``additionalProperties``/``additionalItems``: ``false`` closes)
    boolean_form: frozenset[Draft] = frozenset()
    #: drafts whose meta-schema keeps the keyword only for compatibility ("deprecated": true)
    deprecated: frozenset[Draft] = frozenset()


_DRAFT4_BOOLEAN: frozenset[Draft] = frozenset({"draft-04"})

_TABLE: tuple[Subschema, ...] = (
    # in place: the subschemas judge the very instance their parent judges (Core 2020-12 §10.2)
    Subschema("allOf", "schema-array", "in-place", ALL_DRAFTS),
    Subschema("anyOf", "schema-array", "in-place", ALL_DRAFTS),
    Subschema("oneOf", "schema-array", "in-place", ALL_DRAFTS),
    Subschema("not", "schema", "in-place", ALL_DRAFTS),
    Subschema("if", "schema", "in-place", _since("draft-07")),
    Subschema("then", "schema", "in-place", _since("draft-07")),
    Subschema("else", "schema", "in-place", _since("draft-07")),
    # applies its subschema to the same object when the named property is present (§10.2.2.4)
    Subschema("dependentSchemas", "schema-map", "in-place", _since("2019-09")),
    # up to draft-07; still in the 2019-09/2020-12 meta-schemas, deprecated (Appendix G)
    Subschema("dependencies", "schema-map", "in-place", ALL_DRAFTS, string_array_members=True,
              deprecated=_since("2019-09")),
    # child: the subschemas judge a member, an item or a property name (§10.3)
    Subschema("properties", "schema-map", "child", ALL_DRAFTS),
    Subschema("patternProperties", "schema-map", "child", ALL_DRAFTS),
    Subschema("additionalProperties", "schema", "child", ALL_DRAFTS, boolean_form=_DRAFT4_BOOLEAN),
    Subschema("propertyNames", "schema", "child", _since("draft-06")),
    Subschema("unevaluatedProperties", "schema", "child", _since("2019-09")),
    Subschema("prefixItems", "schema-array", "child", _since("2020-12")),
    Subschema("items", "schema", "child", ALL_DRAFTS, array_form=_until("2019-09")),
    Subschema("additionalItems", "schema", "child", _until("2019-09"), boolean_form=_DRAFT4_BOOLEAN),
    Subschema("contains", "schema", "child", _since("draft-06")),
    Subschema("unevaluatedItems", "schema", "child", _since("2019-09")),
    # definitions: reached by reference only (§8.2.4); `definitions` is kept in the 2019-09 and
    # 2020-12 meta-schemas (deprecated) because it remains in common use
    Subschema("$defs", "schema-map", "definitions", _since("2019-09")),
    Subschema("definitions", "schema-map", "definitions", ALL_DRAFTS, deprecated=_since("2019-09")),
    # describes the decoded content of a string; applies to no instance (Validation 2020-12 §8.5)
    Subschema("contentSchema", "schema", "annotation", _since("2019-09")),
)

#: keyword -> its facts, every draft together.
SUBSCHEMAS: Mapping[str, Subschema] = MappingProxyType({entry.keyword: entry for entry in _TABLE})


def subschema_keywords(*, applies: frozenset[str] | None = None, draft: Draft | None = None) -> frozenset[str]:
    """The keywords holding subschemas, optionally only those whose subschemas apply as one of
    ``applies`` and only those ``draft`` has."""
    return frozenset(entry.keyword for entry in _TABLE
                     if (applies is None or entry.applies in applies) and (draft is None or draft in entry.drafts))


#: Subschemas applied to the same instance.
IN_PLACE_APPLICATORS = subschema_keywords(applies=frozenset({"in-place"}))
#: Subschemas applied to another value: a member, an item, a property name.
CHILD_APPLICATORS = subschema_keywords(applies=frozenset({"child"}))
#: Subschemas applied only where a reference leads.
DEFINITION_KEYWORDS = subschema_keywords(applies=frozenset({"definitions"}))
#: What the kit's walkers visit: every subschema that validates something (the annotation
#: ``contentSchema`` is not walked: no rule or transform looks inside it).
APPLICATOR_KEYWORDS = IN_PLACE_APPLICATORS | CHILD_APPLICATORS | DEFINITION_KEYWORDS
#: The walked keywords by how they hold subschemas (``items`` is in SCHEMA_KEYWORDS; its older
#: array form is told by :func:`holds`).
SCHEMA_KEYWORDS = frozenset(k for k in APPLICATOR_KEYWORDS if SUBSCHEMAS[k].holds == "schema")
SCHEMA_ARRAY_KEYWORDS = frozenset(k for k in APPLICATOR_KEYWORDS if SUBSCHEMAS[k].holds == "schema-array")
SCHEMA_MAP_KEYWORDS = frozenset(k for k in APPLICATOR_KEYWORDS if SUBSCHEMAS[k].holds == "schema-map")
#: The in-place keywords holding an array of branches.
COMBINATORS = frozenset(k for k in IN_PLACE_APPLICATORS if SUBSCHEMAS[k].holds == "schema-array")
#: Subschema keywords of the older drafts that 2020-12 no longer has (``definitions`` aside, a
#: plain rename); array ``items`` is the other older form.
OLD_DRAFT_SUBSCHEMA_KEYWORDS = frozenset(
    k for k in APPLICATOR_KEYWORDS
    if ("2020-12" not in SUBSCHEMAS[k].drafts or "2020-12" in SUBSCHEMAS[k].deprecated) and SUBSCHEMAS[k].applies != "definitions")


def holds(keyword: str, value: Any) -> Holds | None:
    """How ``value`` under ``keyword`` holds subschemas: the table's form, or ``"schema-array"``
    for ``items`` written as an array (drafts up to 2019-09); None for other keywords."""
    entry = SUBSCHEMAS.get(keyword)
    if entry is None:
        return None
    if entry.array_form and isinstance(value, list):
        return "schema-array"
    return entry.holds


# --- every keyword, by draft ---------------------------------------------------------------

_VALIDATION_04 = ("type", "enum", "multipleOf", "maximum", "exclusiveMaximum", "minimum", "exclusiveMinimum",
                  "maxLength", "minLength", "pattern", "maxItems", "minItems", "uniqueItems", "maxProperties",
                  "minProperties", "required", "format")
_VALIDATION_06 = (*_VALIDATION_04, "const")
_VALIDATION_2019 = (*_VALIDATION_06, "maxContains", "minContains", "dependentRequired")

#: The meta-data keywords (Validation 2020-12 §9): annotations only, never an assertion.
_META_DATA: Mapping[Draft, frozenset[str]] = MappingProxyType({
    "draft-04": frozenset({"title", "description", "default"}),
    "draft-06": frozenset({"title", "description", "default", "examples"}),
    "draft-07": frozenset({"title", "description", "default", "examples", "readOnly", "writeOnly"}),
    "2019-09": frozenset({"title", "description", "default", "examples", "readOnly", "writeOnly", "deprecated"}),
    "2020-12": frozenset({"title", "description", "default", "examples", "readOnly", "writeOnly", "deprecated"}),
})
#: Annotation keywords (meta-data, every draft together): a validator ignores them; dropping or
#: adding one changes no outcome. ``$comment`` (core, draft-07 on) is for readers only and
#: ``format`` may assert, so neither is here.
ANNOTATION_KEYWORDS: frozenset[str] = frozenset().union(*_META_DATA.values())
#: Keywords that reference another schema in place of (or beside) the node's own keywords.
REFERENCE_KEYWORDS: Mapping[Draft, frozenset[str]] = MappingProxyType({
    "draft-04": frozenset({"$ref"}),
    "draft-06": frozenset({"$ref"}),
    "draft-07": frozenset({"$ref"}),
    "2019-09": frozenset({"$ref", "$recursiveRef"}),
    "2020-12": frozenset({"$ref", "$dynamicRef"}),
})

_CORE: Mapping[Draft, frozenset[str]] = MappingProxyType({
    # draft-04's metaschema does not list `$ref` (a JSON Reference, not a keyword of its own), but
    # every draft-04 validator resolves it
    "draft-04": frozenset({"id", "$schema", "$ref"}),
    "draft-06": frozenset({"$id", "$schema", "$ref"}),
    "draft-07": frozenset({"$id", "$schema", "$ref", "$comment"}),
    "2019-09": frozenset({"$id", "$schema", "$ref", "$anchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary",
                          "$comment"}),
    "2020-12": frozenset({"$id", "$schema", "$ref", "$anchor", "$dynamicRef", "$dynamicAnchor", "$vocabulary",
                          "$comment"}),
})
_VALIDATION: Mapping[Draft, tuple[str, ...]] = MappingProxyType({
    "draft-04": _VALIDATION_04, "draft-06": _VALIDATION_06, "draft-07": (*_VALIDATION_06, "contentMediaType", "contentEncoding"),
    "2019-09": (*_VALIDATION_2019, "contentMediaType", "contentEncoding"),
    "2020-12": (*_VALIDATION_2019, "contentMediaType", "contentEncoding"),
})

#: Every keyword of each draft (its meta-schema's, with the deprecated ones the 2019-09 and
#: 2020-12 meta-schemas keep: ``definitions``, ``dependencies``, and in 2020-12 ``$recursiveRef``,
#: ``$recursiveAnchor``).
KEYWORDS: Mapping[Draft, frozenset[str]] = MappingProxyType({
    draft: frozenset(_CORE[draft] | frozenset(_VALIDATION[draft]) | _META_DATA[draft]
                     | subschema_keywords(draft=draft)
                     | (frozenset({"$recursiveRef", "$recursiveAnchor"}) if draft == "2020-12" else frozenset()))
    for draft in DRAFTS
})


def keywords_of(draft: Draft) -> frozenset[str]:
    """Every keyword ``draft`` defines (see :data:`KEYWORDS`)."""
    return KEYWORDS[draft]

"""Merging two schemas into one that accepts exactly what both accept (``allOf`` of two).

Exact where JSON Schema allows (types intersect, bounds tighten, ``required`` unites, properties
merge, ``anyOf`` distributes); where it cannot be exact it keeps the first side's keyword and
reports a ``loosened`` loss, so the result never rejects a value both sides accept. Two sides that
differ where one is a kept reference are merged through ``resolve`` (the reference's target, where
the caller can give it): two different references cannot be one.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from strictconformance.dialects.values import canonical
from strictconformance.reference.strictify._schema import MARK, Node, type_set
from strictconformance.spec.keywords import ANNOTATION_KEYWORDS

__all__ = ["MAX_CROSS_PRODUCT", "attributed", "canonical", "merge_schemas"]

MAX_CROSS_PRODUCT = 16

_LOWER = ("minimum", "exclusiveMinimum", "minLength", "minItems", "minProperties", "minContains")
_UPPER = ("maximum", "exclusiveMaximum", "maxLength", "maxItems", "maxProperties", "maxContains")
_ANNOTATIONS = ANNOTATION_KEYWORDS | {"$comment"}

#: report(keyword, detail): called where the merge had to loosen.
Report = Callable[[str, str], None]
#: resolve(node): a kept reference as its target's body (annotated as the reference is), anything
#: else as it is.
Resolve = Callable[[Any], Any]


def _intersect_types(a: frozenset[str], b: frozenset[str]) -> frozenset[str]:
    both = set(a & b)
    if ("integer" in a and "number" in b) or ("number" in a and "integer" in b):
        both.add("integer")
    return frozenset(both)


def _open_to(node: Node, names: set[str]) -> bool:
    """Does ``node`` let other schemas' property ``names`` through unconstrained?"""
    declared = set(node.get("properties", {}))
    extra = names - declared
    return not extra or (node.get("additionalProperties", True) in (True, {}) and "patternProperties" not in node
                         and "unevaluatedProperties" not in node)


def _says_something(node: Node) -> bool:
    return any(keyword != MARK and keyword not in _ANNOTATIONS for keyword in node)


def merge_schemas(a: Any, b: Any, report: Report, resolve: Resolve | None = None) -> Any:
    """A schema accepting what both ``a`` and ``b`` accept (``False`` when nothing can)."""
    if a is False or b is False:
        return False
    if not isinstance(a, dict) or not isinstance(b, dict):
        return a if isinstance(a, dict) else b
    if resolve is not None and a.get("$ref") != b.get("$ref") and _says_something(a) and _says_something(b):
        # (a side saying nothing but annotations keeps the reference)
        resolved = resolve(a)
        a = attributed(resolved) if resolved is not a else a
        b = resolve(b)
    result: Node = dict(a)
    for keyword, theirs in b.items():
        if keyword == MARK:
            continue
        if keyword not in result:
            result[keyword] = theirs
            continue
        ours = result[keyword]
        if canonical(ours) == canonical(theirs) or keyword in _ANNOTATIONS:
            continue
        result[keyword] = _merge_keyword(keyword, ours, theirs, a, b, report, resolve)
    return _keep_keyword_origins(result, a, b)


def attributed(node: Any) -> Any:
    """``node`` whose keywords remember where they come from (``MARK["from"]``): merged as the
    first side, its keywords would otherwise be taken for the merged node's own."""
    marks = node.get(MARK) if isinstance(node, dict) else None
    if not isinstance(marks, dict) or "origin" not in marks:
        return node
    sources = {keyword: marks["origin"] for keyword in node if keyword != MARK}
    return {**node, MARK: {**marks, "from": {**sources, **marks.get("from", {})}}}


def _keep_keyword_origins(result: Node, a: Node, b: Node) -> Node:
    """Remember where each keyword ``b`` contributed came from (``MARK["from"]``), so a later
    loss on that keyword names the original node that has it, not ``a``'s."""
    theirs_mark, ours_mark = b.get(MARK), a.get(MARK)
    if not isinstance(theirs_mark, dict) or "origin" not in theirs_mark:
        return result
    ours_origin = ours_mark.get("origin") if isinstance(ours_mark, dict) else None
    theirs_from = theirs_mark.get("from", {})
    contributed = {}
    for keyword, theirs in b.items():
        if keyword == MARK or keyword not in result:
            continue
        source = theirs_from.get(keyword, theirs_mark["origin"])
        if source == ours_origin:
            continue
        if keyword not in a or (canonical(result[keyword]) == canonical(theirs) and canonical(a[keyword]) != canonical(theirs)):
            contributed[keyword] = source
    if not contributed:
        return result
    mark = dict(ours_mark) if isinstance(ours_mark, dict) else {}
    mark["from"] = {**mark.get("from", {}), **contributed}
    result[MARK] = mark
    return result


def _merge_keyword(keyword: str, ours: Any, theirs: Any, a: Node, b: Node, report: Report, resolve: Resolve | None) -> Any:
    if keyword == "type":
        common = _intersect_types(type_set(a), type_set(b))
        if not common:
            report("type", f"allOf of types {sorted(type_set(a))} and {sorted(type_set(b))} accepts nothing; kept the first")
            return ours
        ordered = [t for t in (ours if isinstance(ours, list) else [ours]) if t in common] or sorted(common)
        return ordered[0] if len(ordered) == 1 else ordered
    if keyword == "properties" and isinstance(ours, dict) and isinstance(theirs, dict):
        if not (_open_to(a, set(theirs)) and _open_to(b, set(ours))):
            report("additionalProperties", "allOf branches close over different properties; the merged object accepts both sets")
        merged = dict(ours)
        for name, sub in theirs.items():
            merged[name] = merge_schemas(merged[name], sub, report, resolve) if name in merged else sub
        return merged
    if keyword == "required":
        return list(dict.fromkeys([*ours, *theirs]))
    if keyword in _LOWER and _numbers(ours, theirs):
        return max(ours, theirs)
    if keyword in _UPPER and _numbers(ours, theirs):
        return min(ours, theirs)
    if keyword == "multipleOf" and _numbers(ours, theirs):
        big, small = max(ours, theirs), min(ours, theirs)
        if small and (big / small).is_integer():
            return big
    if keyword == "enum" and isinstance(ours, list) and isinstance(theirs, list):
        allowed = {canonical(value) for value in theirs}
        common_values = [value for value in ours if canonical(value) in allowed]
        if common_values:
            return common_values
        report("enum", "allOf of disjoint enums accepts nothing; kept the first")
        return ours
    # single-schema child keywords whose two schemas merge into one (not `contains`: two
    # witnesses need not be one item; not `additionalItems`: it depends on the sibling `items`)
    if keyword in ("items", "additionalProperties", "propertyNames", "unevaluatedItems", "unevaluatedProperties"):
        return merge_schemas(ours, theirs, report, resolve)
    if keyword == "not":
        return {"anyOf": [ours, theirs]}
    if keyword == "prefixItems" and isinstance(ours, list) and isinstance(theirs, list):
        common_length = min(len(ours), len(theirs))
        merged_items = [merge_schemas(x, y, report, resolve) for x, y in zip(ours[:common_length], theirs[:common_length], strict=True)]
        return merged_items + ours[common_length:] + theirs[common_length:]
    if keyword == "anyOf" and isinstance(ours, list) and isinstance(theirs, list):
        if len(ours) * len(theirs) <= MAX_CROSS_PRODUCT:
            product = [merge_schemas(x, y, report, resolve) for x in ours for y in theirs]
            kept = [branch for branch in product if branch is not False]
            if kept:
                return kept
        report("anyOf", "allOf of two anyOf too large to distribute; kept the first")
        return ours
    report(keyword, f"allOf branches disagree on `{keyword}` ({canonical(ours)[:60]} vs {canonical(theirs)[:60]}); kept the first")
    return ours


def _numbers(*values: Any) -> bool:
    return all(isinstance(value, (int, float)) and not isinstance(value, bool) for value in values)

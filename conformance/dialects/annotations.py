"""RT-9's oracle: every ``description`` and ``title`` of the original survives strictify.

An annotation survives when its text is in a ``description`` or ``title`` of the strict schema at
the node it annotates or at an ancestor (folded into its description), or when a reported loss
explains its absence: an ``annotation-dropped`` loss at its node, a ``truncated`` or ``opaque``
loss at its node or an ancestor (the subtree travels as JSON text), or a ``keyword-stripped`` or
``narrowed`` loss of the keyword it sits under (``not``, ``propertyNames``...; a closed object's
``additionalProperties`` covers its ``patternProperties``). Only annotations
of nodes that annotate something are judged: those reachable from the root (through local
``$ref``); an unused definition annotates nothing.

"The node or an ancestor" is read by property names, the one part of a path every encoding keeps
(a record's pairs, a tuple's numeric keys and a wrapped root add names of their own): the
property names on the way to the strict node carrying the text, less the names the original has
nowhere (the encoding's), must be a start of the names on the way to the original node. A carrier inside ``$defs`` (or an
original node reached only through a reference) is matched by text alone.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from strictconformance.dialects.model import Loss, SchemaError, Strictified
from strictconformance.dialects.pointers import (
    is_under,
    join_pointer,
    resolve_local_reference,
    split_pointer,
)
from strictconformance.dialects.validator import SchemaNode, iter_schema_nodes
from strictconformance.findings import Finding

__all__ = ["Annotation", "annotations_of", "check_rt9_annotations_survive"]

ANNOTATION_KEYWORDS = ("description", "title")
_SUBTREE_LOSSES = frozenset({"keyword-stripped", "narrowed"})
_TEXT_LOSSES = frozenset({"truncated", "opaque"})


@dataclass(frozen=True)
class Annotation:
    """One annotation: the pointer of its node, the keyword, the text, and the property names on
    the way to its node (None when the node is reached only through a reference)."""

    pointer: str
    keyword: str
    text: str
    names: tuple[str, ...] | None


def _names(pointer: str) -> tuple[str, ...] | None:
    """The property names on the way to ``pointer`` in its tree; None inside a definition."""
    tokens = split_pointer(pointer)
    if tokens and tokens[0] in ("$defs", "definitions"):
        return None
    names = []
    index = 0
    while index < len(tokens):
        if tokens[index] in ("$defs", "definitions"):
            return None
        if tokens[index] == "properties" and index + 1 < len(tokens):
            names.append(tokens[index + 1])
            index += 2
            continue
        index += 1
    return tuple(names)


def _reachable(nodes: Sequence[SchemaNode], root: Any) -> list[SchemaNode]:
    """The nodes the root reaches: its own tree, and below each local reference's target the
    nodes of the target's own tree (a definition nested in it is reached only if referenced)."""
    tree_of = {node.pointer: node.tree for node in nodes}
    targets: set[tuple[str, str]] = {("", "")}
    changed = True
    while changed:
        changed = False
        for node in nodes:
            if not isinstance(node.schema, dict) or not _in(node, targets):
                continue
            reference = node.schema.get("$ref")
            found = resolve_local_reference(root, reference) if isinstance(reference, str) else None
            if found is not None and found[0] in tree_of and (found[0], tree_of[found[0]]) not in targets:
                targets.add((found[0], tree_of[found[0]]))
                changed = True
    return [node for node in nodes if _in(node, targets)]


def _in(node: SchemaNode, targets: set[tuple[str, str]]) -> bool:
    return any(node.tree == tree and is_under(node.pointer, target) for target, tree in targets)


def annotations_of(schema: Any) -> list[Annotation]:
    """Every non-empty ``description``/``title`` string of the nodes ``schema``'s root reaches."""
    try:
        nodes = list(iter_schema_nodes(schema))
    except SchemaError:
        return []
    found = []
    for node in _reachable(nodes, schema):
        if isinstance(node.schema, dict):
            for keyword in ANNOTATION_KEYWORDS:
                text = node.schema.get(keyword)
                if isinstance(text, str) and text.strip():
                    found.append(Annotation(node.pointer, keyword, text, _names(node.pointer)))
    return found


#: The property names of a record's key/value pairs (an array of ``{key, value}`` objects).
_PAIR_NAMES = frozenset({"key", "value"})


def _carriers(strict: Any) -> Iterator[tuple[str, str, tuple[str, ...] | None]]:
    """(pointer, text, property names) of every description and title of the strict schema."""
    for node in iter_schema_nodes(strict):
        if isinstance(node.schema, dict):
            for keyword in ANNOTATION_KEYWORDS:
                text = node.schema.get(keyword)
                if isinstance(text, str):
                    yield node.pointer, text, _strict_names(strict, node.pointer)


def _strict_names(strict: Any, pointer: str) -> tuple[str, ...] | None:
    """``_names`` of a strict node, less the ``key``/``value`` of a record's pairs: the encoding's
    names even where the original also uses them for a property of its own."""
    names = _names(pointer)
    if names is None:
        return None
    tokens = split_pointer(pointer)
    node, kept, index = strict, [], 0
    while index < len(tokens):
        token = tokens[index]
        if token == "properties" and index + 1 < len(tokens) and isinstance(node, dict):
            name = tokens[index + 1]
            pairs = index > 0 and tokens[index - 1] == "items" and set(node.get("properties") or ()) == _PAIR_NAMES
            if not (pairs and name in _PAIR_NAMES):
                kept.append(name)
            node = (node.get("properties") or {}).get(name)
            index += 2
            continue
        node = node.get(token) if isinstance(node, dict) else (
            node[int(token)] if isinstance(node, list) and token.isdigit() and int(token) < len(node) else None)
        index += 1
    return tuple(kept)


def _at_or_above(carrier: tuple[str, ...] | None, annotated: tuple[str, ...] | None, original_names: frozenset[str]) -> bool:
    """Whether a carrier with property names ``carrier`` is the annotated node or an ancestor:
    its names, less those the encoding adds (names the original has nowhere), are a start of
    the annotated node's; a name of the original off that way is another branch."""
    if carrier is None or annotated is None:
        return True
    on_the_way = set(annotated)
    if any(name in original_names and name not in on_the_way for name in carrier):
        return False
    kept = tuple(name for name in carrier if name in on_the_way)
    return annotated[:len(kept)] == kept


def _property_names(schema: Any) -> frozenset[str]:
    names: set[str] = set()
    for node in iter_schema_nodes(schema):
        if isinstance(node.schema, dict) and isinstance(node.schema.get("properties"), dict):
            names.update(node.schema["properties"])
    return frozenset(names)


def _explained(annotation: Annotation, losses: Sequence[Loss]) -> bool:
    for loss in losses:
        if loss.kind == "annotation-dropped" and loss.pointer == annotation.pointer and loss.keyword in ("", annotation.keyword):
            return True
        if loss.kind in _TEXT_LOSSES and is_under(annotation.pointer, loss.pointer):
            return True
        if loss.kind in _SUBTREE_LOSSES and loss.keyword:
            # an object closed against extra keys drops its pattern-matched keys too
            closed = loss.kind == "narrowed" and loss.keyword == "additionalProperties"
            for keyword in (loss.keyword, "patternProperties") if closed else (loss.keyword,):
                if is_under(annotation.pointer, join_pointer(loss.pointer, keyword)):
                    return True
    return False


def _reference_sites(schema: Any) -> dict[str, list[str]]:
    """For each local reference target, the pointers of the reachable nodes that refer to it."""
    try:
        nodes = list(iter_schema_nodes(schema))
    except SchemaError:
        return {}
    sites: dict[str, list[str]] = {}
    for node in _reachable(nodes, schema):
        reference = node.schema.get("$ref") if isinstance(node.schema, dict) else None
        found = resolve_local_reference(schema, reference) if isinstance(reference, str) else None
        if found is not None and found[0]:
            sites.setdefault(found[0], []).append(node.pointer)
    return sites


def _dropped_with_its_references(pointer: str, losses: Sequence[Loss], sites: Mapping[str, list[str]],
                                 seen: frozenset[str] = frozenset()) -> bool:
    """Whether the node at ``pointer``, inside a definition, travels only through references
    whose own subtree a loss drops (the object holding them closed, the keyword stripped, the
    subtree sent as text): then its annotations went with them."""
    holders = [target for target in sites if is_under(pointer, target)]
    if not holders:
        return False
    references = sites[max(holders, key=len)]  # the innermost definition holding it
    for site in references:
        if site in seen:
            continue  # a reference from inside the definition itself: recursion adds no way in
        if _subtree_dropped(site, losses):
            continue
        if _names(site) is None and _dropped_with_its_references(site, losses, sites, seen | {site}):
            continue
        return False
    return any(site not in seen for site in references)


def _subtree_dropped(pointer: str, losses: Sequence[Loss]) -> bool:
    probe = Annotation(pointer, "description", "", None)
    return any(loss.kind != "annotation-dropped" and _explained(probe, (loss,)) for loss in losses)


def check_rt9_annotations_survive(original: Mapping[str, Any], strict: Strictified) -> Finding | None:
    """RT-9: the first annotation of ``original`` that is neither in ``strict`` at its node or an
    ancestor nor explained by a loss, as a finding (None when every one survives)."""
    try:
        carriers = list(_carriers(strict.schema))
    except SchemaError:
        return None  # not a schema: RT-1 says so
    annotations = annotations_of(original)
    original_names = _property_names(original) if annotations else frozenset()
    for annotation in annotations:
        if any(annotation.text in text and _at_or_above(names, annotation.names, original_names) for _, text, names in carriers):
            continue
        if _explained(annotation, strict.losses):
            continue
        if annotation.names is None and _dropped_with_its_references(annotation.pointer, strict.losses, _reference_sites(original)):
            continue
        elsewhere = [pointer for pointer, text, _ in carriers if annotation.text in text]
        where = f" (it is only at {elsewhere[0] or '/'}, not at its node or an ancestor)" if elsewhere else ""
        return Finding(
            rule="RT-9", kind="violation",
            key=f"RT-9 violation: a `{annotation.keyword}` {'moved elsewhere' if elsewhere else 'dropped'} at a {_depth(annotation)} node",
            message=(f"the {annotation.keyword} {annotation.text[:80]!r} of {annotation.pointer or '/'} is not in the strict schema"
                     f"{where}, and no loss reports it (an `annotation-dropped` loss at that pointer would)"),
            where=annotation.pointer or None,
            counterexample={"schema": dict(original), "strict": strict.schema, "losses": [loss.as_json() for loss in strict.losses],
                            "annotation": {"pointer": annotation.pointer, "keyword": annotation.keyword, "text": annotation.text}},
        )
    return None


def _depth(annotation: Annotation) -> str:
    if not annotation.pointer:
        return "root"
    return "nested" if annotation.names is None or len(annotation.names) != 1 else "top-level property"

"""The canonical advertised form of a tool's input schema (SPEC.md TL-1).

A tool's input schema may come from type hints, from a pydantic model or from a raw JSON Schema;
all three pass through :func:`canonical_input_schema`, so the same shape gives the same
advertised schema however it was written. The canonical form, precisely:

- Draft 2020-12. A raw schema may declare draft 2020-12, 2019-09 or draft-07 in ``$schema``;
  older drafts are accepted only when they use no keyword whose meaning changed (array
  ``items``, ``additionalItems``, ``dependencies``, keywords next to a draft-07 ``$ref``).
- ``$ref`` is inlined wherever it can be. Only a definition that is part of a reference cycle
  stays behind a ``$ref``: it lives in the root ``$defs`` under its own name (the last segment
  of its pointer), and a cycle through the root itself is written ``{"$ref": "#"}``. A root that
  is only a ``$ref`` (pydantic's form for a recursive model) becomes that definition's body.
  Unused definitions are dropped. A ``$ref`` with sibling keywords merges with its target; where
  both constrain the same keyword they are kept apart under ``allOf``.
- ``title``, ``$comment``, ``$schema``, the root ``$id`` and OpenAPI's ``discriminator`` are
  removed: they do not change what validates, and pydantic adds titles a hand-written schema
  lacks. The root ``description`` moves to the tool's description.
- Nullable: an ``anyOf`` whose branches are all bare ``{"type": ...}`` becomes one ``type``
  list, and ``"null"`` goes last in every ``type`` list (``int | None`` and
  ``{"type": ["null", "integer"]}`` both give ``{"type": ["integer", "null"]}``). A one-entry
  list becomes a string. ``T | None = None`` keeps its ``null`` and its ``default: null``, and is
  not required; nothing else touches ``default``.
- A one-value ``enum`` becomes ``const``; a one-branch ``allOf``/``anyOf`` merges into its parent.
- ``required`` is deduplicated and follows the order of ``properties``; an empty one is dropped.
- The root is ``type: "object"`` (added when absent) with a ``properties`` map (``{}`` when
  absent). Object closedness (``additionalProperties``) is kept exactly as given.
- Keys are ordered ``$ref``, ``type``, ``description``, then alphabetically, ``$defs`` last, so
  two canonical schemas compare equal as JSON text too. Property order is kept.

Everything else is kept as given. Bad input never escapes as ``RecursionError`` or
``KeyError``: it raises :class:`ToolDefinitionError` naming the problem and its JSON pointer.
"""

from __future__ import annotations

import copy
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

import jsonschema  # type: ignore[import-untyped]
from jsonschema.protocols import Validator  # type: ignore[import-untyped]

from strictconformance.dialects.pointers import pointer_from_path, split_pointer
from strictconformance.dialects.validator import iter_schema_nodes
from strictconformance.spec.keywords import ANNOTATION_KEYWORDS as META_DATA_KEYWORDS
from strictconformance.spec.keywords import DEFINITION_KEYWORDS, OLD_DRAFT_SUBSCHEMA_KEYWORDS
from strictconformance.tools.errors import ToolDefinitionError
from strictconformance.tools.jsonvalue import (
    MAX_SCHEMA_DEPTH,
    json_value_problem,
    metaschema_error,
)
from strictconformance.tools.schema_walk import iter_subschemas, map_subschemas

__all__ = [
    "MAX_CANONICAL_NODES",
    "SUPPORTED_DRAFTS",
    "CanonicalSchema",
    "canonical_input_schema",
]

DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"

#: ``$schema`` values accepted, each with the jsonschema validator class that checks it.
SUPPORTED_DRAFTS: Mapping[str, type[Validator]] = {
    DRAFT_2020_12: jsonschema.Draft202012Validator,
    "https://json-schema.org/draft/2019-09/schema": jsonschema.Draft201909Validator,
    "http://json-schema.org/draft-07/schema": jsonschema.Draft7Validator,
}

#: Keywords that never change what validates and that the canonical form removes.
DROPPED_KEYWORDS = frozenset({"title", "$comment", "discriminator"})

#: Keywords that only annotate (the kit's keyword facts, and ``$comment``); when a ``$ref``
#: sibling repeats one, the sibling wins.
ANNOTATION_KEYWORDS = META_DATA_KEYWORDS | frozenset({"$comment"})

#: Identification keywords a tool schema may not use below the root (refs must be local pointers).
UNSUPPORTED_KEYWORDS = frozenset(
    {"$id", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"}
)

#: Keywords whose meaning differs before draft 2020-12 (Core §A "Changes from draft 2019-09"),
#: from the kit's keyword facts; the array form of ``items`` is the other one.
OLD_DRAFT_KEYWORDS = OLD_DRAFT_SUBSCHEMA_KEYWORDS

#: Inlining refs can multiply a schema's size; beyond this many schema objects we stop.
MAX_CANONICAL_NODES = 20_000

#: Schema levels the canonical form may nest after inlining (jsonschema's metaschema check
#: overflows the default stack near 100 levels).
MAX_CANONICAL_LEVELS = 48

_KEY_ORDER_FIRST = ("$ref", "type", "description")


@dataclass(frozen=True)
class CanonicalSchema:
    """A canonical input schema and the root description that was moved out of it."""

    schema: dict[str, Any]
    root_description: str | None


def _fail(message: str) -> ToolDefinitionError:
    return ToolDefinitionError(f"input schema: {message}")


def _where(pointer: str) -> str:
    return pointer or "the root"


@dataclass
class _Document:
    """One raw schema being canonicalised: its root and what its refs point at."""

    root: Mapping[str, Any]
    old_draft: str | None
    nodes_emitted: int = 0
    recursive: set[str] = field(default_factory=set)
    names: dict[str, str] = field(default_factory=dict)

    def resolve(self, ref: object, at: str) -> str:
        """The JSON pointer a ``$ref`` value points at, checked to exist and be a schema."""
        if not isinstance(ref, str) or not ref.startswith("#") or (len(ref) > 1 and ref[1] != "/"):
            raise _fail(
                f"$ref {ref!r} at {_where(at)} is not a local JSON pointer ('#' or '#/...'); "
                "external and anchor references are not supported"
            )
        pointer = unquote(ref[1:])
        self.node_at(pointer, at)
        return pointer

    def node_at(self, pointer: str, referenced_from: str) -> object:
        node: object = self.root
        for part in split_pointer(pointer):
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise _fail(f"$ref at {_where(referenced_from)} points at #{pointer}, which does not exist")
        if not isinstance(node, (Mapping, bool)):
            raise _fail(f"$ref at {_where(referenced_from)} points at #{pointer}, which is not a schema")
        return node


def _refs_used(node: object, pointer: str, doc: _Document, same_instance: bool = True) -> Iterator[tuple[str, bool]]:
    """(target, reached without consuming input?) for each ``$ref`` applying under ``node``."""
    if not isinstance(node, Mapping):
        return
    if "$ref" in node:
        yield doc.resolve(node["$ref"], pointer), same_instance
    for sub in iter_subschemas(node):
        if not sub.definition:
            yield from _refs_used(sub.schema, pointer + pointer_from_path(sub.path), doc, same_instance and sub.same_instance)


def _reaches(graph: Mapping[str, set[str]], start: str, goal: str) -> bool:
    seen: set[str] = set()
    todo = list(graph.get(start, ()))
    while todo:
        current = todo.pop()
        if current == goal:
            return True
        if current not in seen:
            seen.add(current)
            todo.extend(graph.get(current, ()))
    return False


def _check_keywords(doc: _Document) -> None:
    for found in iter_schema_nodes(doc.root):
        if not isinstance(found.schema, dict):
            continue
        pointer, node = found.pointer, found.schema
        for keyword in node:
            if keyword in UNSUPPORTED_KEYWORDS and not (keyword == "$id" and pointer == ""):
                raise _fail(f"keyword {keyword!r} at {_where(pointer)} is not supported in a tool input schema")
        if doc.old_draft is None:
            continue
        for keyword in node:
            if keyword in OLD_DRAFT_KEYWORDS or (keyword == "items" and isinstance(node[keyword], list)):
                raise _fail(
                    f"{keyword!r} at {_where(pointer)} means something else in {doc.old_draft} than in "
                    "draft 2020-12; rewrite the schema for draft 2020-12 (prefixItems, items, "
                    "dependentRequired, dependentSchemas)"
                )
        if "draft-07" in doc.old_draft and "$ref" in node:
            ignored = sorted(set(node) - {"$ref"} - ANNOTATION_KEYWORDS - DEFINITION_KEYWORDS - {"$schema"})
            if ignored:
                raise _fail(
                    f"draft-07 ignores {ignored} next to the $ref at {_where(pointer)}; "
                    "declare draft 2020-12, where they apply, or move them under allOf"
                )


def _analyse_refs(doc: _Document, root_pointer: str) -> None:
    """Find the definitions on a reference cycle and name them; reject cycles that consume nothing."""
    graph: dict[str, set[str]] = {}
    same_instance_graph: dict[str, set[str]] = {}
    todo = [root_pointer]
    while todo:
        target = todo.pop()
        if target in graph:
            continue
        graph[target] = set()
        same_instance_graph[target] = set()
        node = doc.node_at(target, target)
        for used, same_instance in _refs_used(node, target, doc):
            graph[target].add(used)
            if same_instance:
                same_instance_graph[target].add(used)
            todo.append(used)
    for target in graph:
        if _reaches(same_instance_graph, target, target):
            raise _fail(
                f"the $ref cycle through #{target} never descends into the input "
                "(only $ref/allOf/anyOf/oneOf/not/if between repeats); it cannot validate anything"
            )
        if _reaches(graph, target, target):
            doc.recursive.add(target)
    taken: set[str] = set()
    for target in sorted(doc.recursive):
        if target in ("", root_pointer):
            doc.names[target] = "#"
            continue
        parts = split_pointer(target)
        base = parts[-1] if parts and len(parts) >= 2 and parts[-2] in DEFINITION_KEYWORDS else "_".join(parts)
        name, suffix = base or "root", 2
        while name in taken:
            name, suffix = f"{base}_{suffix}", suffix + 1
        taken.add(name)
        doc.names[target] = f"#/$defs/{pointer_from_path([name])[1:]}"
    doc.names.setdefault("", "#")
    doc.names.setdefault(root_pointer, "#")


def _merge(body: object, siblings: dict[str, Any]) -> object:
    """``body`` (a ref's target) combined with the keywords written next to the ``$ref``."""
    if not siblings:
        return body
    if body is True:
        return siblings
    if body is False or not isinstance(body, dict):
        return {**siblings, "allOf": [body]}
    clashes = {key for key in siblings if key in body and key not in ANNOTATION_KEYWORDS}
    if not clashes:
        return {**body, **siblings}
    own = {key: value for key, value in siblings.items() if key not in ANNOTATION_KEYWORDS}
    notes = {key: value for key, value in siblings.items() if key in ANNOTATION_KEYWORDS}
    return {**notes, "allOf": [body, own]}


def _order_keys(node: dict[str, Any]) -> dict[str, Any]:
    first = [key for key in _KEY_ORDER_FIRST if key in node]
    rest = sorted(key for key in node if key not in _KEY_ORDER_FIRST and key != "$defs")
    tail = ["$defs"] if "$defs" in node else []
    return {key: node[key] for key in (*first, *rest, *tail)}


def _normalise_type(value: object) -> object:
    if not isinstance(value, list):
        return value
    kinds: list[object] = []
    for kind in value:
        if kind not in kinds:
            kinds.append(kind)
    kinds.sort(key=lambda kind: kind == "null")  # stable: only moves "null" last
    return kinds[0] if len(kinds) == 1 else kinds


def _absorb_single_branch(node: dict[str, Any], keyword: str) -> dict[str, Any]:
    """``{"allOf": [X], ...}`` -> X merged into the node, when nothing clashes."""
    branches = node.get(keyword)
    if not (isinstance(branches, list) and len(branches) == 1):
        return node
    (branch,) = branches
    rest = {key: value for key, value in node.items() if key != keyword}
    if branch is True:
        return rest
    if not isinstance(branch, dict) or any(key in rest and key not in ANNOTATION_KEYWORDS for key in branch):
        return node
    return {**branch, **rest}  # the parent's own annotations win


def _normalise(node: dict[str, Any]) -> dict[str, Any]:
    """The per-object rules of the canonical form (children are already canonical)."""
    node = {key: value for key, value in node.items() if key not in DROPPED_KEYWORDS}
    node = _absorb_single_branch(node, "allOf")
    node = _absorb_single_branch(node, "anyOf")
    branches = node.get("anyOf")
    if (
        "type" not in node
        and isinstance(branches, list)
        and len(branches) > 1
        and all(isinstance(b, dict) and set(b) == {"type"} for b in branches)
    ):
        kinds: list[object] = []
        for branch in branches:
            kinds.extend(branch["type"] if isinstance(branch["type"], list) else [branch["type"]])
        node = {key: value for key, value in node.items() if key != "anyOf"}
        node["type"] = kinds
    if "type" in node:
        node["type"] = _normalise_type(node["type"])
    enum = node.get("enum")
    if isinstance(enum, list) and len(enum) == 1 and "const" not in node:
        node = {key: value for key, value in node.items() if key != "enum"}
        node["const"] = enum[0]
    required = node.get("required")
    if isinstance(required, list):
        properties = node.get("properties")
        order = list(properties) if isinstance(properties, Mapping) else []
        unique = list(dict.fromkeys(required))
        ranked = [name for name in order if name in unique] + [name for name in unique if name not in order]
        if ranked:
            node["required"] = ranked
        else:
            del node["required"]
    return _order_keys(node)


def _emit(doc: _Document, node: object, pointer: str, level: int) -> object:
    """The canonical form of the subschema ``node`` found at ``pointer``."""
    if level > MAX_CANONICAL_LEVELS:
        raise _fail(f"nesting deeper than {MAX_CANONICAL_LEVELS} schema levels at {_where(pointer)} (after inlining $ref)")
    if isinstance(node, bool) or not isinstance(node, Mapping):
        return node
    doc.nodes_emitted += 1
    if doc.nodes_emitted > MAX_CANONICAL_NODES:
        raise _fail(f"more than {MAX_CANONICAL_NODES} schema objects after inlining $ref; the definitions multiply")
    own = {key: value for key, value in node.items() if key not in ("$ref", "$defs", "definitions", "$schema", "$id")}
    rest = map_subschemas(own, lambda sub: _emit(doc, sub.schema, pointer + pointer_from_path(sub.path), level + 1))
    if "$ref" not in node:
        return _normalise(rest)
    target = doc.resolve(node["$ref"], pointer)
    if target in doc.recursive or target in doc.names:
        return _normalise({"$ref": doc.names[target], **rest})
    body = _emit(doc, doc.node_at(target, pointer), target, level)
    siblings = {key: value for key, value in rest.items() if key not in DROPPED_KEYWORDS}
    merged = _merge(body, siblings)
    return _normalise(merged) if isinstance(merged, dict) else merged


def _effective_root(doc: _Document) -> str:
    """Follow a root that is nothing but a ``$ref`` (pydantic's recursive models) to its body."""
    pointer, seen = "", set()
    node: object = doc.root
    while isinstance(node, Mapping) and "$ref" in node:
        remaining = set(node) - {"$ref", "$defs", "definitions", "$schema", "$id"} - DROPPED_KEYWORDS
        if remaining or pointer in seen:
            break
        seen.add(pointer)
        pointer = doc.resolve(node["$ref"], pointer)
        node = doc.node_at(pointer, pointer)
    return pointer


def _draft_of(schema: Mapping[str, Any]) -> tuple[type[Validator], str | None]:
    declared = schema.get("$schema")
    if declared is None:
        return jsonschema.Draft202012Validator, None
    if not isinstance(declared, str):
        raise _fail(f"$schema must be a string, got {declared!r}")
    uri = declared.rstrip("#")
    if uri not in SUPPORTED_DRAFTS:
        raise _fail(f"$schema {declared!r} is not supported; use draft 2020-12 (or 2019-09, draft-07)")
    return SUPPORTED_DRAFTS[uri], None if uri == DRAFT_2020_12 else uri


def canonical_input_schema(schema: object) -> CanonicalSchema:
    """Check ``schema`` is a JSON Schema fit for a tool's input and return its canonical form.

    Raises :class:`ToolDefinitionError` naming the problem: not JSON, too deep, not a schema
    (checked against its draft's metaschema with jsonschema), unsupported draft or keyword,
    unresolvable or non-local ``$ref``, a ``$ref`` cycle that consumes no input, a root that is
    not an object schema. The input is never mutated.
    """
    problem = json_value_problem(schema, max_depth=MAX_SCHEMA_DEPTH)
    if problem is not None:
        raise _fail(problem)
    if not isinstance(schema, Mapping):
        raise _fail(f"must be a JSON Schema object describing the tool's input object, got {type(schema).__name__}")
    validator_class, old_draft = _draft_of(schema)
    error = metaschema_error(validator_class, schema)
    if error is not None:
        raise _fail(f"not a valid JSON Schema: {error.message} (at {_where(pointer_from_path(error.absolute_path))})") from None
    doc = _Document(root=copy.deepcopy(dict(schema)), old_draft=old_draft)
    _check_keywords(doc)
    root_pointer = _effective_root(doc)
    _analyse_refs(doc, root_pointer)
    root = _emit(doc, doc.node_at(root_pointer, ""), root_pointer, 0)
    if not isinstance(root, dict):
        raise _fail("the root must be an object schema ({'type': 'object', ...}), not a boolean schema")
    root_type = root.get("type", "object")
    if root_type != "object":
        raise _fail(f"the root must describe an object (type 'object'), got type {root_type!r}")
    root["type"] = "object"
    root.setdefault("properties", {})
    description = root.pop("description", None)
    definitions = {}
    for target in sorted(doc.recursive):
        name = doc.names[target]
        if name != "#":
            definitions[split_pointer(name[1:])[-1]] = _emit(doc, doc.node_at(target, target), target, 1)
    if definitions:
        root["$defs"] = definitions
    root = _order_keys(root)
    return CanonicalSchema(schema=root, root_description=description if isinstance(description, str) else None)

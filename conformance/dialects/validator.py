"""The SM rule validator: every place a schema breaks a dialect's rules, with rule ID and pointer.

It is written apart from the reference strictify on purpose (RT-1 checks strictify with it): its
own walker, its own table of where subschemas live, and it reads a dialect's *rules*, never the
value encoding or keyword allowlist strictify works from. The walk is iterative, so any depth of
input is fine; input that is not a schema gets a :class:`SchemaError` naming the pointer.
"""

from __future__ import annotations

import bisect
import json
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from types import MappingProxyType
from typing import Any

from strictconformance.dialects.model import Dialect, SchemaError, StrictRule, Violation
from strictconformance.dialects.pointers import (
    join_pointer,
    resolve_local_reference,
    same_document_reference,
    split_pointer,
)
from strictconformance.dialects.registry import resolve_dialect
from strictconformance.dialects.values import json_problem
from strictconformance.spec.keywords import (
    COMBINATORS,
    DEFINITION_KEYWORDS,
    IN_PLACE_APPLICATORS,
    SCHEMA_ARRAY_KEYWORDS,
    SCHEMA_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    SUBSCHEMAS,
    holds,
)

__all__ = ["SchemaNode", "iter_schema_nodes", "validate_strict"]

# Where subschemas live: the kit's keyword facts (strictconformance.spec.keywords), every draft.
_SINGLE = SCHEMA_KEYWORDS
_MAPS = SCHEMA_MAP_KEYWORDS
_LISTS = SCHEMA_ARRAY_KEYWORDS
#: Keywords whose subschemas sit one data level deeper (SM-21's "semantic depth"). Not a keyword
#: fact: the providers' depth counts members and items, not every child applicator.
_DEPTH_EDGES = frozenset({"properties", "items", "additionalProperties", "prefixItems"})
_DEF_KEYWORDS = DEFINITION_KEYWORDS
_COMBINATORS = COMBINATORS


@dataclass(frozen=True)
class SchemaNode:
    """One subschema met by the walk."""

    pointer: str
    schema: dict[str, Any] | bool
    depth: int
    keyword: str  # the keyword it sits under ("" for the root)
    tree: str  # pointer of the tree it belongs to: "" (root) or a $defs entry


def _types(node: Mapping[str, Any]) -> tuple[str, ...]:
    declared = node.get("type")
    if isinstance(declared, str):
        return (declared,)
    if isinstance(declared, list):
        return tuple(t for t in declared if isinstance(t, str))
    return ()


def iter_schema_nodes(schema: object) -> Iterator[SchemaNode]:
    """Every subschema of ``schema`` in document order, iteratively (no recursion limit)."""
    if not isinstance(schema, (dict, bool)):
        raise SchemaError("", f"a schema is an object or a boolean, got {type(schema).__name__}")
    # stack of (node, pointer, depth, keyword, tree); a node's exit marker (None, id) sits below its
    # children, so `on_path` holds the ids of the dicts on the current path (a set, not a copy per node)
    stack: list[tuple[Any, ...]] = [(schema, "", 0, "", "")]
    on_path: set[int] = set()
    while stack:
        entry = stack.pop()
        if entry[0] is None:
            on_path.discard(entry[1])
            continue
        node, pointer, depth, keyword, tree = entry
        if isinstance(node, bool):
            yield SchemaNode(pointer, node, depth, keyword, tree)
            continue
        if not isinstance(node, dict):
            raise SchemaError(pointer, f"a subschema must be an object or a boolean, got {type(node).__name__}")
        if id(node) in on_path:
            raise SchemaError(pointer, "the schema contains itself (a cyclic Python object, not JSON)")
        for key in node:
            if not isinstance(key, str):
                raise SchemaError(pointer, f"keys must be strings, got {key!r}")
        yield SchemaNode(pointer, node, depth, keyword, tree)
        on_path.add(id(node))
        stack.append((None, id(node)))
        children: list[tuple[Any, ...]] = []
        for key, value in node.items():
            child_depth = depth + 1 if key in _DEPTH_EDGES else depth
            if key in _SINGLE and holds(key, value) == "schema":
                children.append((value, join_pointer(pointer, key), child_depth, key, tree))
            elif key in _MAPS:
                if not isinstance(value, dict):
                    raise SchemaError(join_pointer(pointer, key), f"`{key}` must map names to schemas, got {type(value).__name__}")
                for name, sub in value.items():
                    if not isinstance(name, str):
                        raise SchemaError(join_pointer(pointer, key), f"`{key}` names must be strings, got {name!r}")
                    if SUBSCHEMAS[key].string_array_members and isinstance(sub, list):
                        continue  # draft-07 `dependencies`: property names, not a schema
                    sub_pointer = join_pointer(pointer, key, name)
                    if key in _DEF_KEYWORDS:  # a definition is a tree of its own (depth from 0)
                        children.append((sub, sub_pointer, 0, key, sub_pointer))
                    else:
                        children.append((sub, sub_pointer, child_depth, key, tree))
            elif key in _LISTS or holds(key, value) == "schema-array":
                if not isinstance(value, list):
                    raise SchemaError(join_pointer(pointer, key), f"`{key}` must be a list of schemas, got {type(value).__name__}")
                for index, sub in enumerate(value):
                    children.append((sub, join_pointer(pointer, key, index), child_depth, key, tree))
        stack.extend(reversed(children))


# ---------------------------------------------------------------------------------------------
# One function per rule kind: (rule, nodes, root) -> violations.

_Check = Callable[[StrictRule, Sequence[SchemaNode], Any], Iterator[Violation]]


_SHOWN_CHARS = 200


def _shown(value: Any) -> str:
    """``value`` as JSON for a message, cut short (a deep or odd value cannot crash the message)."""
    try:
        text = json.dumps(value) if json_problem(value) is None else repr(value)
    except RecursionError:  # JSON nested deeper than json.dumps goes
        text = f"<a {type(value).__name__} nested too deep to show>"
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "..."


def _violation(rule: StrictRule, pointer: str, message: str) -> Violation:
    return Violation(rule.id, rule.check, pointer, message)


def _dicts(nodes: Sequence[SchemaNode]) -> Iterator[tuple[SchemaNode, dict[str, Any]]]:
    for node in nodes:
        if isinstance(node.schema, dict):
            yield node, node.schema


def _check_root_object(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    if not isinstance(root, dict) or _types(root) != ("object",):
        found = root.get("type") if isinstance(root, dict) else root
        yield _violation(rule, "", f'the root must be type "object", found type {_shown(found)}')


def _check_root_not_combinator(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    if isinstance(root, dict):
        for keyword in rule.params["keywords"]:
            if keyword in root:
                yield _violation(rule, join_pointer("", keyword), f"the root must not be `{keyword}`")


def _check_type_declared(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node in nodes:
        if isinstance(node.schema, bool):
            # `additionalProperties: false` / `items: false` close a shape; `true` is an untyped "anything"
            if node.schema is True:
                yield _violation(rule, node.pointer, "`true` accepts any value and declares no type")
            continue
        schema = node.schema
        if "type" in schema or any(k in schema for k in (*_COMBINATORS, "enum", "const", "$ref", "$dynamicRef")):
            continue
        yield _violation(rule, node.pointer, "the node declares no `type`")


def _check_closed_objects(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node, schema in _dicts(nodes):
        if "object" in _types(schema) and schema.get("additionalProperties") is not False:
            found = _shown(schema["additionalProperties"]) if "additionalProperties" in schema else "absent"
            yield _violation(rule, node.pointer, f"an object needs `additionalProperties: false`, found {found}")


def _check_array_items(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node, schema in _dicts(nodes):
        if "array" in _types(schema) and "items" not in schema and "prefixItems" not in schema:
            yield _violation(rule, node.pointer, "an array needs `items`")


def _check_banned_keywords(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node, schema in _dicts(nodes):
        for keyword in rule.params["keywords"]:
            if keyword in schema:
                yield _violation(rule, join_pointer(node.pointer, keyword), f"`{keyword}` is not allowed")


def _check_max_depth(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    limit = rule.params["limit"]
    for node in nodes:
        # report where a path first crosses the limit, not every node below
        # `additionalProperties: false` closes a shape, it nests nothing
        if node.depth == limit + 1 and node.keyword in _DEPTH_EDGES and isinstance(node.schema, dict):
            yield _violation(rule, node.pointer, f"nesting depth {node.depth} exceeds the limit of {limit}")


def _check_all_required(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node, schema in _dicts(nodes):
        properties = schema.get("properties")
        if isinstance(properties, dict):
            required = schema.get("required", [])
            listed = {name for name in required if isinstance(name, str)} if isinstance(required, list) else set()
            for name in properties:
                if name not in listed:
                    yield _violation(rule, join_pointer(node.pointer, "properties", name), f"property {name!r} is not in `required`")


def _check_max_total_properties(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    total = sum(len(schema["properties"]) for _, schema in _dicts(nodes) if isinstance(schema.get("properties"), dict))
    if total > rule.params["limit"]:
        yield _violation(rule, "", f"{total} object properties in total exceed the limit of {rule.params['limit']}")


def _check_max_enum_values(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    total = sum(len(schema["enum"]) for _, schema in _dicts(nodes) if isinstance(schema.get("enum"), list))
    if total > rule.params["limit"]:
        yield _violation(rule, "", f"{total} enum values in total exceed the limit of {rule.params['limit']}")


def _check_max_total_string_length(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    total = 0
    for _, schema in _dicts(nodes):
        for key in ("properties", "$defs", "definitions"):
            if isinstance(schema.get(key), dict):
                total += sum(len(name) for name in schema[key])
        if isinstance(schema.get("enum"), list):
            total += sum(len(value) for value in schema["enum"] if isinstance(value, str))
        if isinstance(schema.get("const"), str):
            total += len(schema["const"])
    if total > rule.params["limit"]:
        yield _violation(rule, "", f"{total} characters of names, enum and const values exceed the limit of {rule.params['limit']}")


def _check_large_enum_string_length(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node, schema in _dicts(nodes):
        values = schema.get("enum")
        if isinstance(values, list) and len(values) > rule.params["threshold"]:
            size = sum(len(value) for value in values if isinstance(value, str))
            if size > rule.params["limit"]:
                yield _violation(rule, join_pointer(node.pointer, "enum"),
                                 f"an enum of {len(values)} values totals {size} characters, over {rule.params['limit']}")


def _check_format_whitelist(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    allowed = rule.params["formats"]
    for node, schema in _dicts(nodes):
        if "format" in schema and schema["format"] not in allowed:
            yield _violation(rule, join_pointer(node.pointer, "format"), f"format {_shown(schema['format'])} is not one of {', '.join(allowed)}")


def _ref_target(root: Any, ref: str) -> str | None:
    """Pointer of a local reference's target, or None when it is external or does not resolve."""
    found = resolve_local_reference(root, ref)
    return None if found is None else found[0]


def _refs(nodes: Sequence[SchemaNode]) -> Iterator[tuple[SchemaNode, str]]:
    for node, schema in _dicts(nodes):
        if isinstance(schema.get("$ref"), str):
            yield node, schema["$ref"]


def _in_place(tokens: Sequence[str]) -> bool:
    """Does this path (keywords, with names and indexes) stay on the same value? Only in-place
    applicators do (``dependentSchemas`` too: it applies to the same object); a child applicator
    is recursion through a value, which describes something, and a definition applies nowhere."""
    index = 0
    while index < len(tokens):
        keyword = tokens[index]
        if keyword not in IN_PLACE_APPLICATORS:
            return False  # a value edge, a definition, or no subschema position at all
        index += 1 if SUBSCHEMAS[keyword].holds == "schema" else 2  # an array's index, a map's name
    return True


def _sites_under(sites: Sequence[str], target: str) -> list[str]:
    """The pointers of the sorted ``sites`` that are ``target`` or lie below it. Those below are a
    contiguous run of the sorted list, from ``target + "/"`` up to ``target + "0"`` ("0" follows
    "/"), found by bisection: a chain of N references costs N log N, not N^2."""
    found = [target] if (at := bisect.bisect_left(sites, target)) < len(sites) and sites[at] == target else []
    return found + list(sites[bisect.bisect_left(sites, target + "/"):bisect.bisect_left(sites, target + "0")])


def _cycles_without_value(refs: Sequence[tuple[str, str]]) -> set[str]:
    """The reference sites whose target leads back to them through references and in-place
    combinators only: a definition like ``A = {"$ref": B}``, ``B = {"allOf": [{"$ref": A}]}``."""
    sites = sorted(site for site, _ in refs)
    successors: dict[str, list[str]] = {}
    for site, target in refs:
        target_tokens = split_pointer(target)
        successors[site] = [other for other in _sites_under(sites, target)
                            if _in_place(split_pointer(other)[len(target_tokens):])]
    return _on_cycles(successors)


def _on_cycles(successors: Mapping[str, Sequence[str]]) -> set[str]:
    """The nodes of a graph (node -> successors) that can reach themselves again: the members of
    strongly connected components with a cycle (Tarjan's algorithm, iterative: linear in the
    graph). (The validator keeps its own graph search: it must not share strictify's code, to
    catch strictify's bugs.)"""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    cyclic: set[str] = set()
    for root in successors:
        if root in index:
            continue
        work: list[tuple[str, int]] = [(root, 0)]
        while work:
            node, position = work.pop()
            if position == 0:
                index[node] = low[node] = len(index)
                stack.append(node)
                on_stack.add(node)
            children = successors.get(node, ())
            if position < len(children):
                work.append((node, position + 1))
                child = children[position]
                if child not in index:
                    work.append((child, 0))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1 or node in successors.get(node, ()):
                    cyclic.update(component)
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])
    return cyclic


def _check_internal_refs(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    resolved: list[tuple[str, str]] = []
    for node, ref in _refs(nodes):
        # a URI naming this very document by its root `$id` is a reference inside it (JSON Schema
        # 2020-12 Core §8.2.1): only another document is external
        local = same_document_reference(root, ref)
        target = _ref_target(root, local) if local is not None else None
        if local is None:
            yield _violation(rule, join_pointer(node.pointer, "$ref"), f"external reference {ref!r}")
        elif target is None:
            yield _violation(rule, join_pointer(node.pointer, "$ref"), f"reference {ref!r} does not resolve inside the schema")
        else:
            resolved.append((node.pointer, target))
    for site in sorted(_cycles_without_value(resolved)):
        yield _violation(rule, join_pointer(site, "$ref"),
                         "this reference only leads back to itself through references and combinators: it never "
                         "reaches a schema describing a value (JSON Schema 2020-12 Core leaves such a schema undefined)")


def _check_no_recursion(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    # A reference r leads to every reference inside its target's subtree; recursion is a cycle.
    refs = [(node.pointer, _ref_target(root, ref)) for node, ref in _refs(nodes)]
    sites = sorted(pointer for pointer, _ in refs)
    successors = {pointer: _sites_under(sites, target) if target is not None else [] for pointer, target in refs}
    on_cycle = _on_cycles(successors)
    for pointer, _ in refs:
        if pointer in on_cycle:
            yield _violation(rule, join_pointer(pointer, "$ref"), "this reference is part of a recursive cycle")


def _check_enum_scalars(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node, schema in _dicts(nodes):
        values = schema.get("enum")
        if isinstance(values, list):
            for index, value in enumerate(values):
                if isinstance(value, (dict, list)):
                    yield _violation(rule, join_pointer(node.pointer, "enum", index), f"enum value {_shown(value)} is not a scalar")


def _check_keyword_values(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    keyword, allowed = rule.params["keyword"], rule.params["allowed"]
    for node, schema in _dicts(nodes):
        if keyword in schema and schema[keyword] not in allowed:
            yield _violation(rule, join_pointer(node.pointer, keyword), f"`{keyword}` {_shown(schema[keyword])} is not one of {list(allowed)}")


def _check_all_of_without_ref(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node in nodes:
        if node.keyword == "allOf" and isinstance(node.schema, dict) and "$ref" in node.schema:
            yield _violation(rule, node.pointer, "`allOf` with a `$ref` branch")


def _check_property_ordering(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node, schema in _dicts(nodes):
        if "propertyOrdering" not in schema:
            continue
        ordering = schema["propertyOrdering"]
        names = list(schema.get("properties", {})) if isinstance(schema.get("properties"), dict) else []
        if not isinstance(ordering, list) or not all(isinstance(name, str) for name in ordering):
            yield _violation(rule, join_pointer(node.pointer, "propertyOrdering"),
                             f"propertyOrdering {_shown(ordering)} is not a list of property names (strings)")
        elif len(set(ordering)) != len(ordering) or set(ordering) != set(names):
            yield _violation(rule, join_pointer(node.pointer, "propertyOrdering"),
                             f"propertyOrdering {_shown(ordering)} does not list exactly the properties {names}")


def _regex_problem(pattern: str) -> str | None:
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            following = pattern[index + 1]
            if following.isdigit() and following != "0":
                return f"backreference \\{following}"
            if following == "k" and pattern[index + 2:index + 3] == "<":
                return "named backreference \\k<...>"
            if following in "bB":
                return f"word boundary \\{following}"
            index += 2
            continue
        if char == "(" and pattern[index + 1:index + 3] in ("?=", "?!"):
            return f"lookahead {pattern[index:index + 3]}"
        if char == "(" and pattern[index + 1:index + 4] in ("?<=", "?<!"):
            return f"lookbehind {pattern[index:index + 4]}"
        index += 1
    return None


def _check_simple_regex(rule: StrictRule, nodes: Sequence[SchemaNode], root: Any) -> Iterator[Violation]:
    for node, schema in _dicts(nodes):
        if isinstance(schema.get("pattern"), str):
            problem = _regex_problem(schema["pattern"])
            if problem:
                yield _violation(rule, join_pointer(node.pointer, "pattern"), f"pattern {schema['pattern']!r} uses a {problem}")


_CHECKS: Mapping[str, _Check] = MappingProxyType({
    "root_object": _check_root_object,
    "root_not_combinator": _check_root_not_combinator,
    "type_declared": _check_type_declared,
    "closed_objects": _check_closed_objects,
    "array_items": _check_array_items,
    "banned_keywords": _check_banned_keywords,
    "max_depth": _check_max_depth,
    "all_required": _check_all_required,
    "max_total_properties": _check_max_total_properties,
    "max_enum_values": _check_max_enum_values,
    "max_total_string_length": _check_max_total_string_length,
    "large_enum_string_length": _check_large_enum_string_length,
    "format_whitelist": _check_format_whitelist,
    "no_recursion": _check_no_recursion,
    "enum_scalars": _check_enum_scalars,
    "keyword_values": _check_keyword_values,
    "all_of_without_ref": _check_all_of_without_ref,
    "internal_refs": _check_internal_refs,
    "property_ordering": _check_property_ordering,
    "simple_regex": _check_simple_regex,
})


def validate_strict(schema: object, dialect: str | Dialect) -> list[Violation]:
    """Every violation of ``dialect``'s rules in ``schema``: by rule, then in document order.

    Raises :class:`SchemaError` when ``schema`` is not a schema at all (not an object or boolean,
    a keyword of the wrong shape, a cyclic Python object).
    """
    resolved = resolve_dialect(dialect)
    nodes = list(iter_schema_nodes(schema))
    violations: list[Violation] = []
    for rule in resolved.rules:
        violations.extend(_CHECKS[rule.kind](rule, nodes, schema))
    return violations

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
)

__all__ = ["SchemaNode", "iter_schema_nodes", "validate_strict"]

# Where subschemas live: the kit's keyword facts (strictconformance.spec.keywords), every draft.
_SINGLE = SCHEMA_KEYWORDS
_MAPS = SCHEMA_MAP_KEYWORDS
_LISTS = SCHEMA_ARRAY_KEYWORDS
#: How each walked keyword holds subschemas: 1 one schema, 2 a map of them, 3 a list of them.
_HOLDS: dict[str, int] = {**dict.fromkeys(_SINGLE, 1), **dict.fromkeys(_MAPS, 2), **dict.fromkeys(_LISTS, 3)}
#: Keywords whose subschemas sit one data level deeper (SM-21's "semantic depth"). Not a keyword
#: fact: the providers' depth counts members and items, not every child applicator.
_DEPTH_EDGES = frozenset({"properties", "items", "additionalProperties", "prefixItems"})
_DEF_KEYWORDS = DEFINITION_KEYWORDS
_COMBINATORS = COMBINATORS
_WALKED = frozenset(_HOLDS)
_SCALAR_TYPES = frozenset({"string", "number", "integer", "boolean", "null"})
#: The key types a schema may have (a subclass of str is checked one key at a time).
_STR_ONLY = frozenset({str})
_STRING_ARRAY_MAPS = frozenset(keyword for keyword in _MAPS if SUBSCHEMAS[keyword].string_array_members)


def _escape(token: str | int) -> str:
    text = str(token)
    return text.replace("~", "~0").replace("/", "~1") if ("~" in text or "/" in text) else text


class SchemaNode:
    """One subschema met by the walk. Its JSON pointer is built only when asked for (from the
    chain of parents), so a walk holds one token per node, not a pointer string as long as the
    node's depth: memory and time stay linear in the nesting depth."""

    __slots__ = ("_definition", "_parent", "_pointer", "_tokens", "count", "depth", "keyword", "schema")

    def __init__(self, schema: dict[str, Any] | bool, depth: int, keyword: str, parent: SchemaNode | None,
                 tokens: tuple[str | int, ...], definition: SchemaNode | bool | None) -> None:
        self.schema = schema
        self.depth = depth
        self.keyword = keyword  # the keyword it sits under ("" for the root)
        self._parent = parent
        self._tokens = tokens  # the pointer tokens from the parent to this node
        # the `$defs` entry whose tree it belongs to (None: the root's; True: this node is one)
        self._definition: SchemaNode | None = self if definition is True else (definition or None)
        #: how many paths from the root lead here (1 in a tree; more where a walk shared a node)
        self.count = 1
        self._pointer: str | None = None  # built when first asked for (a violation names it)

    @property
    def pointer(self) -> str:
        """The JSON pointer of this node (of the first path the walk met it by)."""
        if self._pointer is not None:
            return self._pointer
        parts: list[str | int] = []
        node: SchemaNode | None = self
        while node is not None:
            parts.extend(reversed(node._tokens))
            node = node._parent
        self._pointer = "".join("/" + _escape(token) for token in reversed(parts))
        return self._pointer

    @property
    def tree(self) -> str:
        """Pointer of the tree the node belongs to: "" (the root's) or a ``$defs`` entry."""
        return "" if self._definition is None else self._definition.pointer

    def __repr__(self) -> str:
        return f"SchemaNode(pointer={self.pointer!r}, depth={self.depth}, keyword={self.keyword!r})"


def _types(node: Mapping[str, Any]) -> tuple[str, ...]:
    declared = node.get("type")
    if isinstance(declared, str):
        return (declared,)
    if isinstance(declared, list):
        return tuple(t for t in declared if isinstance(t, str))
    return ()


class _Walk:
    """The nodes of one schema, each met once per context: ``nodes`` in document order, ``dicts``
    the object ones with their schema; with ``share``, a Python object met again in the same
    context (same clamped depth, same keyword) is not walked again: ``edges`` holds the extra
    (parent, child) uses and each node's ``count`` the number of paths to it."""

    __slots__ = ("_shaped", "_totals", "all_banned", "banned", "deepest", "dicts", "edges", "keywords", "nodes", "postorder", "refs", "targets")

    def __init__(self) -> None:
        self.refs: list[tuple[SchemaNode, str]] = []  # the nodes with a `$ref` string, in document order
        self.banned: list[tuple[SchemaNode, dict[str, Any]]] | None = None
        self.all_banned: frozenset[str] = frozenset()
        self.keywords: set[str] = set()  # every key of every object node
        self.deepest = 0  # the greatest depth met (counted up to the walk's cap)
        self._shaped: list[tuple[SchemaNode, dict[str, Any]]] | None = None
        self._totals: tuple[int, int, int] | None = None
        self.targets: dict[str, tuple[str, Any] | None] = {}
        self.nodes: list[SchemaNode] = []
        self.dicts: list[tuple[SchemaNode, dict[str, Any]]] = []
        self.edges: list[tuple[SchemaNode, SchemaNode]] = []
        self.postorder: list[SchemaNode] = []

    @property
    def shared(self) -> bool:
        return bool(self.edges)

    def shaped(self) -> list[tuple[SchemaNode, dict[str, Any]]]:
        """The object nodes that may be an object or an array (a `type` naming neither is
        skipped) or that hold `properties`: all the shape rules look at."""
        if self._shaped is None:
            self._shaped = [(node, schema) for node, schema in self.dicts
                            if "properties" in schema or ((declared := schema.get("type")) is not None
                                                          and (declared.__class__ is not str or declared not in _SCALAR_TYPES))]
        return self._shaped

    def totals(self) -> tuple[int, int, int]:
        """(object properties, enum values, characters of names, enum and const strings) over
        the whole schema, each node counted once per path to it."""
        if self._totals is None:
            properties = values = characters = 0
            for node, schema in self.dicts:
                if _COUNTED_STRINGS.isdisjoint(schema):
                    continue
                size = 0
                for key in ("properties", "$defs", "definitions"):
                    if isinstance(schema.get(key), dict):
                        size += sum(len(name) for name in schema[key])
                enum = schema.get("enum")
                if isinstance(enum, list):
                    size += sum(len(value) for value in enum if isinstance(value, str))
                    values += len(enum) * node.count
                if isinstance(schema.get("const"), str):
                    size += len(schema["const"])
                if isinstance(schema.get("properties"), dict):
                    properties += len(schema["properties"]) * node.count
                characters += size * node.count
            self._totals = (properties, values, characters)
        return self._totals


def _walk(schema: object, depth_cap: int | None = None, share: bool = False) -> _Walk:
    """Every subschema of ``schema`` in document order, iteratively (no recursion limit).
    ``depth_cap``: depths are counted up to it only (all a depth rule needs), so a shared node
    met at many depths is one context; ``share``: see :class:`_Walk`."""
    if not isinstance(schema, (dict, bool)):
        raise SchemaError("", f"a schema is an object or a boolean, got {type(schema).__name__}")
    walk = _Walk()
    nodes, dicts, postorder, keywords = walk.nodes, walk.dicts, walk.postorder, walk.keywords
    seen: dict[tuple[int, int, str], SchemaNode] = {}
    # stack of (value, parent, tokens, depth, keyword, definition); a node's exit marker
    # (None, node) sits below its children, so `on_path` holds the ids of the dicts on the
    # current path (a set, not a copy per node)
    stack: list[tuple[Any, ...]] = [(schema, None, (), 0, "", None)]
    on_path: set[int] = set()
    holds_kind = _HOLDS.get
    cap = depth_cap if depth_cap is not None else -1  # -1: no cap
    deepest = 0
    while stack:
        entry = stack.pop()
        value = entry[0]
        if value is None:
            on_path.discard(id(entry[1].schema))
            postorder.append(entry[1])
            continue
        _, parent, tokens, depth, keyword, definition = entry
        if value is True or value is False:
            nodes.append(SchemaNode(value, depth, keyword, parent, tokens, definition))
            continue
        if not isinstance(value, dict):
            raise SchemaError(SchemaNode(value, depth, keyword, parent, tokens, definition).pointer,
                              f"a subschema must be an object or a boolean, got {type(value).__name__}")
        if id(value) in on_path:
            raise SchemaError(SchemaNode(value, depth, keyword, parent, tokens, definition).pointer,
                              "the schema contains itself (a cyclic Python object, not JSON)")
        if share:
            key = (id(value), depth, keyword)
            met = seen.get(key)
            if met is not None:
                walk.edges.append((parent, met))  # the root is never met twice: `parent` is a node
                continue
        node = SchemaNode(value, depth, keyword, parent, tokens, definition)
        if share:
            seen[key] = node
        if not _STR_ONLY.issuperset(map(type, value)):
            odd = next((name for name in value if not isinstance(name, str)), None)
            if odd is not None:
                raise SchemaError(node.pointer, f"keys must be strings, got {odd!r}")
        nodes.append(node)
        dicts.append((node, value))
        keywords.update(value)
        if "$ref" in value and isinstance(value["$ref"], str):
            walk.refs.append((node, value["$ref"]))
        if _WALKED.isdisjoint(value):  # a leaf: no subschema below
            postorder.append(node)
            continue
        on_path.add(id(value))
        stack.append((None, node))
        children: list[tuple[Any, ...]] = []
        for key_word, sub in value.items():
            kind = holds_kind(key_word)
            if kind is None:
                continue
            child_depth = depth + 1 if key_word in _DEPTH_EDGES else depth
            if child_depth > cap >= 0:
                child_depth = cap
            if child_depth > deepest:
                deepest = child_depth
            if kind == 1 and not (key_word == "items" and isinstance(sub, list)):
                children.append((sub, node, (key_word,), child_depth, key_word, definition))
            elif kind == 2:
                if not isinstance(sub, dict):
                    raise SchemaError(join_pointer(node.pointer, key_word), f"`{key_word}` must map names to schemas, got {type(sub).__name__}")
                is_definition = key_word in _DEF_KEYWORDS
                skip_lists = key_word in _STRING_ARRAY_MAPS
                for name, member in sub.items():
                    if not isinstance(name, str):
                        raise SchemaError(join_pointer(node.pointer, key_word), f"`{key_word}` names must be strings, got {name!r}")
                    if skip_lists and isinstance(member, list):
                        continue  # draft-07 `dependencies`: property names, not a schema
                    if is_definition:  # a definition is a tree of its own (depth from 0)
                        children.append((member, node, (key_word, name), 0, key_word, True))
                    else:
                        children.append((member, node, (key_word, name), child_depth, key_word, definition))
            else:
                if not isinstance(sub, list):
                    raise SchemaError(join_pointer(node.pointer, key_word), f"`{key_word}` must be a list of schemas, got {type(sub).__name__}")
                for index, member in enumerate(sub):
                    children.append((member, node, (key_word, index), child_depth, key_word, definition))
        stack.extend(reversed(children))
    walk.deepest = deepest
    return walk


def iter_schema_nodes(schema: object) -> Iterator[SchemaNode]:
    """Every subschema of ``schema`` in document order, iteratively (no recursion limit); a
    Python object used at several places is met at each of them."""
    yield from _walk(schema).nodes


# ---------------------------------------------------------------------------------------------
# One function per rule kind: (rule, nodes, root) -> violations.

_Check = Callable[[StrictRule, _Walk, Any], Iterator[Violation]]


_SHOWN_CHARS = 200


def _shown(value: Any) -> str:
    """``value`` as JSON for a message, cut short (a deep or odd value cannot crash the message)."""
    if value is None or value is True or value is False:
        return "null" if value is None else "true" if value else "false"
    if value.__class__ in (int, str):
        text = json.dumps(value)  # a scalar: JSON as it is
        return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "..."
    try:
        text = json.dumps(value) if json_problem(value) is None else repr(value)
    except RecursionError:  # JSON nested deeper than json.dumps goes
        text = f"<a {type(value).__name__} nested too deep to show>"
    return text if len(text) <= _SHOWN_CHARS else text[:_SHOWN_CHARS] + "..."


_new_violation = object.__new__


def _violation(rule: StrictRule, pointer: str, message: str) -> Violation:
    # the frozen dataclass's __init__ sets each field through object.__setattr__; filling the
    # instance dict directly makes the same object (equal, same hash and repr) at a third of the cost
    violation = _new_violation(Violation)
    violation.__dict__.update(rule_id=rule.id, check=rule.check, pointer=pointer, message=message)
    return violation


def _check_root_object(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    if not isinstance(root, dict) or _types(root) != ("object",):
        found = root.get("type") if isinstance(root, dict) else root
        yield _violation(rule, "", f'the root must be type "object", found type {_shown(found)}')


def _check_root_not_combinator(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    if isinstance(root, dict):
        for keyword in rule.params["keywords"]:
            if keyword in root:
                yield _violation(rule, join_pointer("", keyword), f"the root must not be `{keyword}`")


#: Keywords that say what a node is without `type`.
_DECLARES = frozenset({"type", *_COMBINATORS, "enum", "const", "$ref", "$dynamicRef"})


def _check_type_declared(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node in walk.nodes:
        if isinstance(node.schema, bool):
            # `additionalProperties: false` / `items: false` close a shape; `true` is an untyped "anything"
            if node.schema is True:
                yield _violation(rule, node.pointer, "`true` accepts any value and declares no type")
            continue
        if not _DECLARES.isdisjoint(node.schema):
            continue
        yield _violation(rule, node.pointer, "the node declares no `type`")


def _check_closed_objects(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node, schema in walk.shaped():
        declared = schema.get("type")
        if declared is None or (declared.__class__ is str and declared != "object"):
            continue
        if "object" in _types(schema) and schema.get("additionalProperties") is not False:
            found = _shown(schema["additionalProperties"]) if "additionalProperties" in schema else "absent"
            yield _violation(rule, node.pointer, f"an object needs `additionalProperties: false`, found {found}")


def _check_array_items(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node, schema in walk.shaped():
        if "type" in schema and "array" in _types(schema) and "items" not in schema and "prefixItems" not in schema:
            yield _violation(rule, node.pointer, "an array needs `items`")


def _check_banned_keywords(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    keywords = rule.params["keywords"]
    banned = frozenset(keywords)
    if walk.banned is None:  # the nodes holding any keyword some rule of the dialect bans
        walk.banned = [(node, schema) for node, schema in walk.dicts if not walk.all_banned.isdisjoint(schema)]
    for node, schema in walk.banned:
        if banned.isdisjoint(schema):
            continue
        for keyword in keywords:
            if keyword in schema:
                yield _violation(rule, join_pointer(node.pointer, keyword), f"`{keyword}` is not allowed")


def _check_max_depth(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    limit = rule.params["limit"]
    if walk.deepest <= limit:
        return
    for node in walk.nodes:
        # report where a path first crosses the limit, not every node below
        # `additionalProperties: false` closes a shape, it nests nothing
        if node.depth == limit + 1 and node.keyword in _DEPTH_EDGES and isinstance(node.schema, dict):
            yield _violation(rule, node.pointer, f"nesting depth {node.depth} exceeds the limit of {limit}")


def _check_all_required(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node, schema in walk.shaped():
        properties = schema.get("properties")
        if isinstance(properties, dict):
            required = schema.get("required", [])
            listed = {name for name in required if isinstance(name, str)} if isinstance(required, list) else set()
            for name in properties:
                if name not in listed:
                    yield _violation(rule, join_pointer(node.pointer, "properties", name), f"property {name!r} is not in `required`")


def _check_max_total_properties(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    total = walk.totals()[0]
    if total > rule.params["limit"]:
        yield _violation(rule, "", f"{total} object properties in total exceed the limit of {rule.params['limit']}")


def _check_max_enum_values(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    total = walk.totals()[1]
    if total > rule.params["limit"]:
        yield _violation(rule, "", f"{total} enum values in total exceed the limit of {rule.params['limit']}")


_COUNTED_STRINGS = frozenset({"properties", "$defs", "definitions", "enum", "const"})


def _check_max_total_string_length(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    total = walk.totals()[2]
    if total > rule.params["limit"]:
        yield _violation(rule, "", f"{total} characters of names, enum and const values exceed the limit of {rule.params['limit']}")


def _check_large_enum_string_length(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node, schema in walk.dicts:
        values = schema.get("enum")
        if isinstance(values, list) and len(values) > rule.params["threshold"]:
            size = sum(len(value) for value in values if isinstance(value, str))
            if size > rule.params["limit"]:
                yield _violation(rule, join_pointer(node.pointer, "enum"),
                                 f"an enum of {len(values)} values totals {size} characters, over {rule.params['limit']}")


def _check_format_whitelist(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    allowed = rule.params["formats"]
    for node, schema in walk.dicts:
        if "format" in schema and schema["format"] not in allowed:
            yield _violation(rule, join_pointer(node.pointer, "format"), f"format {_shown(schema['format'])} is not one of {', '.join(allowed)}")


def _ref_target(walk: _Walk, root: Any, ref: str) -> tuple[str, Any] | None:
    """(pointer, node) of a local reference's target, or None when it is external or does not
    resolve; resolved once per distinct reference of the walk."""
    if ref not in walk.targets:
        walk.targets[ref] = resolve_local_reference(root, ref)
    return walk.targets[ref]


def _refs(walk: _Walk) -> list[tuple[SchemaNode, str]]:
    return walk.refs


def _cyclic_sites(walk: _Walk, refs: Sequence[tuple[SchemaNode, tuple[str, Any] | None]], in_place_only: bool) -> set[str]:
    """Pointers of the reference sites that lead back to themselves: through anything
    (``in_place_only`` False: recursion), or through references and in-place applicators only.
    A tree is searched by pointer (a site leads to every site below its target); a walk that
    shared Python objects by the objects themselves (their first pointers would not nest)."""
    if not walk.shared:
        pairs = [(node.pointer, None if target is None else target[0]) for node, target in refs]
        if in_place_only:
            return _cycles_without_value([(site, target) for site, target in pairs if target is not None])
        sites = sorted(site for site, _ in pairs)
        return _on_cycles({site: _sites_under(sites, target) if target is not None else [] for site, target in pairs})
    successors: dict[Any, list[Any]] = {}
    uses = [(node._parent, node) for node, _ in walk.dicts if node._parent is not None]
    for parent, child in (*uses, *walk.edges):
        if isinstance(child.schema, dict) and (not in_place_only or child.keyword in IN_PLACE_APPLICATORS):
            successors.setdefault(id(parent.schema), []).append(id(child.schema))
    for node, target in refs:
        if target is not None and isinstance(target[1], dict):
            successors.setdefault(id(node.schema), []).append(("$ref", id(node.schema)))
            successors[("$ref", id(node.schema))] = [id(target[1])]
    cyclic = _on_cycles(successors)
    return {node.pointer for node, _ in refs if ("$ref", id(node.schema)) in cyclic}


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


def _on_cycles(successors: Mapping[Any, Sequence[Any]]) -> set[Any]:
    """The nodes of a graph (node -> successors) that can reach themselves again: the members of
    strongly connected components with a cycle (Tarjan's algorithm, iterative: linear in the
    graph). (The validator keeps its own graph search: it must not share strictify's code, to
    catch strictify's bugs.)"""
    index: dict[Any, int] = {}
    low: dict[Any, int] = {}
    on_stack: set[Any] = set()
    stack: list[Any] = []
    cyclic: set[Any] = set()
    for root in successors:
        if root in index:
            continue
        work: list[tuple[Any, int]] = [(root, 0)]
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


def _check_internal_refs(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    resolved: list[tuple[SchemaNode, tuple[str, Any] | None]] = []
    for node, ref in _refs(walk):
        # a URI naming this very document by its root `$id` is a reference inside it (JSON Schema
        # 2020-12 Core §8.2.1): only another document is external
        local = same_document_reference(root, ref)
        target = _ref_target(walk, root, local) if local is not None else None
        if local is None:
            yield _violation(rule, join_pointer(node.pointer, "$ref"), f"external reference {ref!r}")
        elif target is None:
            yield _violation(rule, join_pointer(node.pointer, "$ref"), f"reference {ref!r} does not resolve inside the schema")
        else:
            resolved.append((node, target))
    for site in sorted(_cyclic_sites(walk, resolved, in_place_only=True)):
        yield _violation(rule, join_pointer(site, "$ref"),
                         "this reference only leads back to itself through references and combinators: it never "
                         "reaches a schema describing a value (JSON Schema 2020-12 Core leaves such a schema undefined)")


def _check_no_recursion(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    # A reference r leads to every reference inside its target's subtree; recursion is a cycle.
    refs = [(node, _ref_target(walk, root, ref)) for node, ref in _refs(walk)]
    if not refs:
        return
    on_cycle = _cyclic_sites(walk, refs, in_place_only=False)
    for node, _ in refs:
        pointer = node.pointer
        if pointer in on_cycle:
            yield _violation(rule, join_pointer(pointer, "$ref"), "this reference is part of a recursive cycle")


def _check_enum_scalars(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node, schema in walk.dicts:
        values = schema.get("enum")
        if isinstance(values, list):
            for index, value in enumerate(values):
                if isinstance(value, (dict, list)):
                    yield _violation(rule, join_pointer(node.pointer, "enum", index), f"enum value {_shown(value)} is not a scalar")


def _check_keyword_values(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    keyword, allowed = rule.params["keyword"], rule.params["allowed"]
    for node, schema in walk.dicts:
        if keyword in schema and schema[keyword] not in allowed:
            yield _violation(rule, join_pointer(node.pointer, keyword), f"`{keyword}` {_shown(schema[keyword])} is not one of {list(allowed)}")


def _check_all_of_without_ref(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node in walk.nodes:
        if node.keyword == "allOf" and isinstance(node.schema, dict) and "$ref" in node.schema:
            yield _violation(rule, node.pointer, "`allOf` with a `$ref` branch")


def _check_property_ordering(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node, schema in walk.dicts:
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


def _check_simple_regex(rule: StrictRule, walk: _Walk, root: Any) -> Iterator[Violation]:
    for node, schema in walk.dicts:
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

    A Python object used at several places of ``schema`` (a DAG of shared sub-schemas, which
    JSON text would write out at each place) is checked once per context and its violations
    named at the first place the walk meets it; the limits on totals count every place. Time and
    memory are linear in the schema as written, however deep it nests or however often its
    objects are shared.
    """
    plan = _plan(resolve_dialect(dialect).rules)
    walk = _walk(schema, depth_cap=plan.depth_cap, share=True)
    if walk.shared:
        _count_paths(walk)
    walk.all_banned = plan.banned
    violations: list[Violation] = []
    for rule, check in plan.active(walk.keywords):
        violations.extend(check(rule, walk, schema))
    return violations


#: The keywords a rule kind looks at: when no node of a schema holds any of them, the rule
#: cannot fire and is not run (None: always run).
_TRIGGERS: Mapping[str, Callable[[StrictRule], frozenset[str] | None]] = MappingProxyType({
    "banned_keywords": lambda rule: frozenset(rule.params["keywords"]),
    "format_whitelist": lambda rule: frozenset({"format"}),
    "max_enum_values": lambda rule: frozenset({"enum"}),
    "large_enum_string_length": lambda rule: frozenset({"enum"}),
    "enum_scalars": lambda rule: frozenset({"enum"}),
    "keyword_values": lambda rule: frozenset({rule.params["keyword"]}),
    "property_ordering": lambda rule: frozenset({"propertyOrdering"}),
    "simple_regex": lambda rule: frozenset({"pattern"}),
    "all_required": lambda rule: frozenset({"properties"}),
    "max_total_properties": lambda rule: frozenset({"properties"}),
    "internal_refs": lambda rule: frozenset({"$ref"}),
    "no_recursion": lambda rule: frozenset({"$ref"}),
    "all_of_without_ref": lambda rule: frozenset({"allOf"}),
    "closed_objects": lambda rule: frozenset({"type"}),
    "array_items": lambda rule: frozenset({"type"}),
    "max_total_string_length": lambda rule: _COUNTED_STRINGS,
})

class _Plan:
    """What validating against one tuple of rules needs, made once per tuple: each rule with its
    check, the rules that always run, those each keyword brings in, every keyword a
    `banned_keywords` rule names, and the depth the walk counts up to."""

    __slots__ = ("_active", "always", "banned", "by_keyword", "depth_cap", "rules", "steps", "trigger_keywords")

    def __init__(self, rules: tuple[StrictRule, ...]) -> None:
        self.rules = rules
        self.steps = tuple((rule, _CHECKS[rule.kind]) for rule in rules)
        self.always = tuple(index for index, rule in enumerate(rules) if rule.kind not in _TRIGGERS)
        by_keyword: dict[str, list[int]] = {}
        for index, rule in enumerate(rules):
            if rule.kind in _TRIGGERS:
                for keyword in _TRIGGERS[rule.kind](rule) or ():
                    by_keyword.setdefault(keyword, []).append(index)
        self.by_keyword = {keyword: tuple(indexes) for keyword, indexes in by_keyword.items()}
        self.trigger_keywords = frozenset(by_keyword)
        self.banned = frozenset(keyword for rule in rules if rule.kind == "banned_keywords" for keyword in rule.params["keywords"])
        limits = [rule.params["limit"] for rule in rules if rule.kind == "max_depth"]
        self.depth_cap = max(limits) + 2 if limits else 0
        self._active: dict[frozenset[str], tuple[tuple[StrictRule, _Check], ...]] = {}

    def active(self, keywords: set[str]) -> tuple[tuple[StrictRule, _Check], ...]:
        """The (rule, check) pairs to run, in rule order, for a schema whose nodes hold
        ``keywords``: a rule runs when some node holds a keyword it looks at (or always, see
        _TRIGGERS). Kept per set of trigger keywords met (few distinct ones in practice)."""
        met = self.trigger_keywords.intersection(keywords)
        steps = self._active.get(met)
        if steps is None:
            indexes = set(self.always)
            for keyword in met:
                indexes.update(self.by_keyword[keyword])
            steps = tuple(self.steps[index] for index in sorted(indexes))
            if len(self._active) > 256:
                self._active.clear()
            self._active[met] = steps
        return steps


_PLANS: dict[int, _Plan] = {}


def _plan(rules: tuple[StrictRule, ...]) -> _Plan:
    known = _PLANS.get(id(rules))
    if known is None or known.rules is not rules:
        if len(_PLANS) > 64:
            _PLANS.clear()
        known = _PLANS[id(rules)] = _Plan(rules)
    return known


def _count_paths(walk: _Walk) -> None:
    """Each node's ``count``: the number of paths from the root to it (a sum over the DAG, in
    topological order: the reverse of the walk's post-order)."""
    uses: dict[int, list[SchemaNode]] = {}
    for node, _ in walk.dicts:
        node.count = 0
        if node._parent is not None:
            uses.setdefault(id(node._parent), []).append(node)
    for parent, child in walk.edges:
        uses.setdefault(id(parent), []).append(child)
    walk.nodes[0].count = 1
    for node in reversed(walk.postorder):
        for child in uses.get(id(node), ()):
            child.count += node.count

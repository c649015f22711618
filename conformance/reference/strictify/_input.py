"""Pass ``check_input``: is this a schema strictify can work on? Clear errors, never a crash.

Rejected with a :class:`SchemaError` naming the pointer: something that is not a schema or not
JSON (NaN, a set, a key that is not a string, anywhere), a keyword whose value has the wrong
shape for Draft 2020-12 (:data:`KEYWORD_SHAPES`, from its meta-schemas, plus the draft-7 forms
the kit accepts: ``items`` as a list, ``additionalItems``, ``definitions``), a ``pattern`` or
``patternProperties`` key that is not a regular expression, a cyclic Python object, nesting deeper
than :data:`MAX_NESTING`, an external or unresolvable ``$ref``, and definitions that refer to
themselves without going through a value (``A = {"$ref": A}``, ``A = {"anyOf": [A, ...]}``),
which have no meaning. The walk is iterative, so deep input gets the depth error, not a
``RecursionError``.

Patterns are ECMA-262 regular expressions (Draft 2020-12 validation §6.3.3). They are compiled
with Python's ``re``, which is what the kit's oracles (jsonschema) and value strategies evaluate
them with: a pattern ``re`` cannot compile is refused, even one only ECMA-262 accepts (``\\cX``,
``[^]``, ``(?<name>...)``, ``\\p{L}``), since nothing could check values against it. Refusing costs
an adapter nothing: RT-1 counts a refusal against an adapter only when the reference accepts the
schema.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

from strictconformance.dialects.model import SchemaError
from strictconformance.dialects.pointers import (
    is_under,
    join_pointer,
    resolve_pointer,
    split_pointer,
    written_before_2019_09,
)
from strictconformance.dialects.values import MAX_JSON_NESTING, locate_json_problem
from strictconformance.reference.strictify._schema import MARK, Node, on_cycles, subschema_kind
from strictconformance.spec.keywords import (
    CHILD_APPLICATORS,
    DEFINITION_KEYWORDS,
    SCHEMA_ARRAY_KEYWORDS,
)

__all__ = ["KEYWORD_SHAPES", "MAX_NESTING", "MAX_VALUE_NESTING", "CheckedInput", "check_input", "ref_target"]

#: Subschema nesting strictify accepts; real schemas stay far below it.
MAX_NESTING = 100
#: JSON nesting of the whole input (a `const` or `enum` value too): past it, copying would recurse too deep.
MAX_VALUE_NESTING = MAX_JSON_NESTING

_SIMPLE_TYPES = frozenset({"array", "boolean", "integer", "null", "number", "object", "string"})


def _is_integer(value: Any) -> bool:  # JSON Schema's "integer": 1 and 1.0, never true
    return not isinstance(value, bool) and (isinstance(value, int) or (isinstance(value, float) and value.is_integer()))


def _is_number(value: Any) -> bool:
    return not isinstance(value, bool) and isinstance(value, (int, float))


def _unique_strings(value: Any) -> bool:
    return isinstance(value, list) and all(isinstance(item, str) for item in value) and len(set(value)) == len(value)


def _type_value(value: Any) -> bool:
    if isinstance(value, str):
        return value in _SIMPLE_TYPES
    return isinstance(value, list) and len(value) >= 1 and _unique_strings(value) and set(value) <= _SIMPLE_TYPES


def _regex(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    try:
        re.compile(value)
    except (re.error, OverflowError, RecursionError):
        return False
    return True


_NON_NEGATIVE_INTEGER = (lambda v: _is_integer(v) and v >= 0, "a non-negative integer")
_NUMBER = (_is_number, "a number")
_STRING = (lambda v: isinstance(v, str), "a string")
_BOOLEAN = (lambda v: isinstance(v, bool), "a boolean")
_ARRAY = (lambda v: isinstance(v, list), "an array")

#: The value each non-subschema keyword must have, from the Draft 2020-12 meta-schemas
#: (https://json-schema.org/draft/2020-12/meta/core, .../validation, .../meta-data,
#: .../format-annotation, .../content): (test, what it must be). Subschema keywords are checked
#: by the walk itself.
KEYWORD_SHAPES: Mapping[str, tuple[Callable[[Any], bool], str]] = MappingProxyType({
    **{keyword: _NON_NEGATIVE_INTEGER for keyword in ("maxLength", "minLength", "maxItems", "minItems", "maxContains",
                                                     "minContains", "maxProperties", "minProperties")},
    **{keyword: _NUMBER for keyword in ("minimum", "maximum")},
    # a number, or draft 04's boolean form (normalised to the number form by the tagging copy)
    **{keyword: (lambda v: _is_number(v) or isinstance(v, bool), "a number (or draft 04's boolean)")
       for keyword in ("exclusiveMinimum", "exclusiveMaximum")},
    "multipleOf": (lambda v: _is_number(v) and v > 0, "a number greater than 0"),
    **{keyword: _STRING for keyword in ("$ref", "$dynamicRef", "$anchor", "$dynamicAnchor", "$id", "$schema", "$comment",
                                        "title", "description", "format", "contentEncoding", "contentMediaType")},
    "pattern": (_regex, "a regular expression (compiled with Python's re; see the module docstring)"),
    **{keyword: _BOOLEAN for keyword in ("uniqueItems", "deprecated", "readOnly", "writeOnly")},
    "enum": _ARRAY,
    "examples": _ARRAY,
    "required": (_unique_strings, "an array of distinct strings"),
    "dependentRequired": (lambda v: isinstance(v, dict) and all(_unique_strings(names) for names in v.values()),
                          "an object whose values are arrays of distinct strings"),
    "type": (_type_value, f"one of {sorted(_SIMPLE_TYPES)} or a non-empty array of distinct ones"),
    "$vocabulary": (lambda v: isinstance(v, dict) and all(isinstance(flag, bool) for flag in v.values()), "an object of booleans"),
})
# Subschema lists Draft 2020-12 requires non-empty ("schemaArray": minItems 1)
_NON_EMPTY_LISTS = SCHEMA_ARRAY_KEYWORDS

# Keywords under which a subschema constrains a value nested inside the current one (not
# `dependentSchemas`: it applies to the same object, so a `$ref` loop through it never ends).
_VALUE_EDGES = CHILD_APPLICATORS


@dataclass(frozen=True)
class CheckedInput:
    """The input as a tagged working copy, and where each of its references points."""

    schema: Node
    refs: dict[str, str]  # pointer of a node holding $ref/$dynamicRef -> target pointer
    anchors: dict[str, str]
    #: subschemas a `$ref` reaches outside any keyword (`{"$ref": "#/standard"}`, `standard` a
    #: member no keyword defines), tagged, by pointer: the tagged tree leaves such members as they are
    detached: dict[str, Node] = field(default_factory=dict)
    #: where the definitions :func:`hoist_shared` made stand in the original: ``/$defs/<name>``
    #: -> the pointer of the first place that used the shared object (for the losses' pointers)
    aliases: dict[str, str] = field(default_factory=dict)


def ref_target(reference: str, anchors: dict[str, str], base_id: str, document: Any, where: str) -> str:
    """The pointer a local reference resolves to, or a :class:`SchemaError`."""
    if base_id and reference.startswith(base_id):
        reference = reference[len(base_id):]
    if not reference.startswith("#"):
        raise SchemaError(where, f"external $ref {reference!r} is not supported: bundle it into $defs")
    fragment = reference[1:]
    if fragment and not fragment.startswith("/"):
        if fragment not in anchors:
            raise SchemaError(where, f"$ref {reference!r} names no $anchor in this schema")
        return anchors[fragment]
    try:
        tokens = split_pointer(fragment)
    except ValueError as exc:
        raise SchemaError(where, f"$ref {reference!r}: {exc}") from None
    node = document
    for token in tokens:
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise SchemaError(where, f"$ref {reference!r} does not resolve: no {token!r}")
    if not isinstance(node, (dict, bool)):
        raise SchemaError(where, f"$ref {reference!r} points at a {type(node).__name__}, not a schema")
    return join_pointer("", *tokens)


def _walk(schema: Any, at: str = "", older: bool = False) -> list[tuple[str, Node]]:
    """(pointer, node) for every dict node, checking shapes on the way; iterative. ``at``: the
    pointer of ``schema`` in its document (a subschema a `$ref` reaches outside any keyword);
    ``older``: the document is written in drafts 04 to 07, where the members of ``dependencies``
    that are not arrays of names are subschemas (as :func:`_tag` reads them)."""
    found: list[tuple[str, Node]] = []
    stack: list[tuple[Any, str, int, frozenset[int]]] = [(schema, at, 0, frozenset())]
    while stack:
        node, pointer, nesting, on_path = stack.pop()
        if isinstance(node, bool):
            continue
        if not isinstance(node, dict):
            raise SchemaError(pointer, f"a subschema must be an object or a boolean, got {type(node).__name__}")
        if nesting > MAX_NESTING:
            raise SchemaError(pointer, f"the schema nests deeper than {MAX_NESTING} subschema levels")
        if id(node) in on_path:
            raise SchemaError(pointer, "the schema contains itself (a cyclic Python object, not JSON)")
        found.append((pointer, node))
        inner = on_path | {id(node)}
        for keyword, value in node.items():
            if not isinstance(keyword, str):
                raise SchemaError(pointer, f"keys must be strings, got {keyword!r}")
            if keyword == MARK:
                raise SchemaError(pointer, "the key reserved for strictconformance's own marks is not allowed in input")
            kind = subschema_kind(keyword, value)
            if older and keyword == "dependencies" and isinstance(value, dict):
                # each member is an array of property names or a subschema (its name is a property's,
                # never a keyword: a dependency on a property named `type` is a schema like any other)
                stack.extend((sub, join_pointer(pointer, keyword, name), nesting + 1, inner)
                             for name, sub in value.items() if not isinstance(sub, list))
            elif kind == "one":
                stack.append((value, join_pointer(pointer, keyword), nesting + 1, inner))
            elif kind == "map":
                if not isinstance(value, dict):
                    raise SchemaError(join_pointer(pointer, keyword), f"`{keyword}` must map names to schemas, got {type(value).__name__}")
                for name in value:
                    if not isinstance(name, str):
                        raise SchemaError(join_pointer(pointer, keyword), f"`{keyword}` names must be strings, got {name!r}")
                    if keyword == "patternProperties" and not _regex(name):
                        raise SchemaError(join_pointer(pointer, keyword, name), f"the key {name!r} is not a regular expression "
                                          "(compiled with Python's re: ECMA-262-only constructs are refused too)")
                stack.extend((sub, join_pointer(pointer, keyword, name), nesting + 1, inner) for name, sub in value.items())
            elif kind == "list":
                if not isinstance(value, list):
                    raise SchemaError(join_pointer(pointer, keyword), f"`{keyword}` must be a list of schemas, got {type(value).__name__}")
                if not value and keyword in _NON_EMPTY_LISTS:
                    raise SchemaError(join_pointer(pointer, keyword), f"`{keyword}` must list at least one schema")
                stack.extend((sub, join_pointer(pointer, keyword, index), nesting + 1, inner) for index, sub in enumerate(value))
            elif keyword in KEYWORD_SHAPES:
                valid, what = KEYWORD_SHAPES[keyword]
                if not valid(value):
                    raise SchemaError(join_pointer(pointer, keyword), f"`{keyword}` must be {what}, got {_short(value)}")
    return found


def _short(value: Any) -> str:
    try:
        text = json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        text = f"a {type(value).__name__}"
    return text if len(text) <= 80 else text[:80] + "..."


def _cyclic_definitions(refs: dict[str, str], document: Node) -> str | None:
    """A reference whose target reaches it again through combinators and references only."""

    def reachable_without_value_edge(target: str) -> list[str]:
        reached = []
        for ref_pointer in refs:
            if not is_under(ref_pointer, target):
                continue
            tokens = split_pointer(ref_pointer)[len(split_pointer(target)):]
            # walk the tokens: a keyword token followed (for maps/lists) by a name or index
            node: Any = document
            for token in split_pointer(target):
                node = node[int(token)] if isinstance(node, list) else node[token]
            index, through_value = 0, False
            while index < len(tokens):
                keyword = tokens[index]
                if keyword in _VALUE_EDGES or keyword in DEFINITION_KEYWORDS:
                    through_value = True  # a nested value, or a definition not applied here
                    break
                value = node[keyword]
                kind = subschema_kind(keyword, value)
                if kind in ("map", "list"):
                    node = value[int(tokens[index + 1])] if isinstance(value, list) else value[tokens[index + 1]]
                    index += 2
                else:
                    node = value
                    index += 1
            if not through_value:
                reached.append(ref_pointer)
        return reached

    successors = {ref_pointer: reachable_without_value_edge(target) for ref_pointer, target in refs.items()}
    cyclic = on_cycles(successors)
    return next((ref_pointer for ref_pointer in successors if ref_pointer in cyclic), None)


#: ``$schema`` values of the drafts :func:`_draft_2020_12` rewrites, and the one it writes.
_OLDER_DRAFTS = ("draft-03", "draft-04", "draft-06", "draft-07", "draft/2019-09")
DRAFT_2020_12 = "https://json-schema.org/draft/2020-12/schema"


def _draft_2020_12(node: Node, older: bool = False) -> tuple[Node, dict[str, str]]:
    """``node`` with the older drafts' forms written as Draft 2020-12 says the same thing (exact),
    and where each renamed keyword was in the original: ``items`` as a list (drafts 04 to 2019-09)
    is ``prefixItems``, with ``additionalItems`` as ``items``; draft 04's boolean
    ``exclusiveMinimum``/``exclusiveMaximum`` makes the ``minimum``/``maximum`` beside it exclusive;
    a plain-name fragment ``id``/``$id`` (``"#gate"``) is ``$anchor`` (``"gate"``); a ``$schema``
    naming an older draft names 2020-12; in a document of drafts 04 to 07 (``older``),
    ``dependencies`` is ``dependentRequired`` (its arrays of names) and ``dependentSchemas`` (its
    subschemas), as Draft 2019-09 split it (under 2020-12 ``dependencies`` means nothing)."""
    renamed: dict[str, str] = {}
    declared = node.get("$schema")
    if isinstance(declared, str) and any(draft in declared for draft in _OLDER_DRAFTS):
        # what follows is written in 2020-12 now: a draft-07 `$schema` over a `prefixItems` tuple
        # would tell a validator to read `items: false` as "no items at all"
        node = {**node, "$schema": DRAFT_2020_12}
    if isinstance(node.get("items"), list):
        rest = {k: v for k, v in node.items() if k not in ("items", "additionalItems")}
        rest["prefixItems"] = node["items"]
        renamed["prefixItems"] = "items"
        if "additionalItems" in node:
            rest["items"] = node["additionalItems"]
            renamed["items"] = "additionalItems"
        node = rest
    for exclusive, bound in (("exclusiveMinimum", "minimum"), ("exclusiveMaximum", "maximum")):
        if isinstance(node.get(exclusive), bool):
            flag = node[exclusive]
            node = {k: v for k, v in node.items() if k != exclusive}
            if flag and bound in node:
                node[exclusive] = node.pop(bound)
    for keyword in ("id", "$id"):
        # drafts 04-07 name a plain-name fragment with `id`/`$id` ("#gate"), which 2020-12 writes
        # `$anchor` ("gate"): left as it was under a 2020-12 `$schema`, a `$ref: "#gate"` kept in
        # the output resolves to nothing
        name = node.get(keyword)
        if isinstance(name, str) and name.startswith("#") and len(name) > 1 and "/" not in name:
            node = {k: v for k, v in node.items() if k != keyword}
            node.setdefault("$anchor", name[1:])
            renamed["$anchor"] = keyword
    dependencies = node.get("dependencies")
    if older and isinstance(dependencies, dict):
        node = {k: v for k, v in node.items() if k != "dependencies"}
        names = {key: value for key, value in dependencies.items() if isinstance(value, list)}
        schemas = {key: value for key, value in dependencies.items() if not isinstance(value, list)}
        for keyword, split in (("dependentRequired", names), ("dependentSchemas", schemas)):
            if split:
                node[keyword] = {**split, **node.get(keyword, {})}
                renamed[keyword] = "dependencies"
    return node, renamed


def _tag(node: Any, pointer: str, older: bool = False) -> Any:
    """A copy with `true` subschemas as `{}` and every dict tagged with its origin pointer (older
    drafts' forms written in Draft 2020-12: :func:`_draft_2020_12`; ``older``: the document is
    written in drafts 04 to 07)."""
    if node is True:
        return {MARK: {"origin": pointer}}
    if not isinstance(node, dict):
        return node
    result: Node = {}
    normal, renamed = _draft_2020_12(node, older)
    for keyword, value in normal.items():
        kind = subschema_kind(keyword, value)
        was = renamed.get(keyword, keyword)  # origins point into the original as written
        if kind == "one":
            result[keyword] = _tag(value, join_pointer(pointer, was), older)
        elif kind == "map":
            result[keyword] = {name: _tag(sub, join_pointer(pointer, was, name), older) for name, sub in value.items()}
        elif kind == "list":
            result[keyword] = [_tag(sub, join_pointer(pointer, was, index), older) for index, sub in enumerate(value)]
        else:
            result[keyword] = value
    result[MARK] = {"origin": pointer}
    dependencies = {keyword: was for keyword, was in renamed.items() if was == "dependencies"}
    if dependencies:  # a loss of one names the keyword the original has (see the strip pass)
        result[MARK]["renamed"] = dependencies
    return result


#: Subschemas a schema may hold once written out as JSON before the Python objects it shares are
#: kept once (under `$defs`) instead of being written out at every place that uses them.
UNFOLDED_LIMIT = 2_000


def _children(node: Node, older: bool) -> list[tuple[str, str | int | None, Any]]:
    """(keyword, name or index, subschema) of each direct subschema of ``node`` (as :func:`_walk`
    reads them; ill-shaped keywords are left to it)."""
    found: list[tuple[str, str | int | None, Any]] = []
    for keyword, value in node.items():
        kind = subschema_kind(keyword, value)
        if older and keyword == "dependencies" and isinstance(value, dict):
            found.extend((keyword, name, sub) for name, sub in value.items() if not isinstance(sub, list))
        elif kind == "one":
            found.append((keyword, None, value))
        elif kind == "map" and isinstance(value, dict):
            found.extend((keyword, name, sub) for name, sub in value.items())
        elif kind == "list" and isinstance(value, list):
            found.extend((keyword, index, sub) for index, sub in enumerate(value))
    return found


def hoist_shared(schema: Any, older: bool = False) -> tuple[Any, dict[str, str]]:
    """``schema`` with every subschema object it uses at several places kept once, under
    `$defs`, and referred to from each place, when written out as JSON it would hold more than
    :data:`UNFOLDED_LIMIT` subschemas (and several times the distinct ones): a DAG of shared
    Python objects unfolds exponentially in JSON text. Returns the schema (itself when nothing
    is hoisted) and, per new definition, the pointer of the first place that used it. Linear in
    the distinct objects; a cyclic object is left for :func:`_walk` to name."""
    if not isinstance(schema, dict):
        return schema, {}
    uses: dict[int, int] = {id(schema): 0}
    objects: dict[int, Node] = {id(schema): schema}
    first: dict[int, str] = {id(schema): ""}
    children: dict[int, list[tuple[str, str | int | None, Any]]] = {}
    stack: list[Node] = [schema]
    order: list[Node] = []
    while stack:
        node = stack.pop()
        order.append(node)
        children[id(node)] = _children(node, older)
        for keyword, key, child in children[id(node)]:
            if not isinstance(child, dict):
                continue
            if id(child) in objects:
                uses[id(child)] += 1
            else:
                objects[id(child)] = child
                uses[id(child)] = 1
                first[id(child)] = join_pointer(first[id(node)], keyword) if key is None else join_pointer(first[id(node)], keyword, key)
                stack.append(child)
    if all(count <= 1 for count in uses.values()):
        return schema, {}  # a tree
    waiting = dict(uses)  # topological order (Kahn): the number of paths to each object
    paths = {id(schema): 1}
    ready: list[Node] = [schema]
    topological: list[Node] = []
    while ready:
        node = ready.pop()
        topological.append(node)
        for _, _, child in children[id(node)]:
            if isinstance(child, dict):
                paths[id(child)] = paths.get(id(child), 0) + paths[id(node)]
                waiting[id(child)] -= 1
                if waiting[id(child)] == 0:
                    ready.append(child)
    if len(topological) < len(objects):
        return schema, {}  # a cyclic Python object: _walk names it
    unfolded = sum(paths.values())
    if unfolded <= UNFOLDED_LIMIT or unfolded <= 4 * len(objects):
        return schema, {}
    existing = schema.get("$defs")
    taken = set(existing) if isinstance(existing, dict) else set()
    names: dict[int, str] = {}
    for node in order:
        if uses[id(node)] >= 2:
            number = len(names) + 1
            while f"shared-{number}" in taken:
                number += 1
            taken.add(f"shared-{number}")
            names[id(node)] = f"shared-{number}"
    copies: dict[int, Node] = {}

    def use(child: Any) -> Any:
        if not isinstance(child, dict):
            return child
        if id(child) in names:
            return {"$ref": f"#/$defs/{names[id(child)]}"}
        return copies[id(child)]

    for node in reversed(topological):  # children before their parents
        copy = dict(node)
        for keyword, key, _ in children[id(node)]:
            value = node[keyword]
            if key is None:
                copy[keyword] = use(value)
            elif isinstance(value, dict):
                if copy[keyword] is value:
                    copy[keyword] = dict(value)
                copy[keyword][key] = use(value[key])
            else:
                if copy[keyword] is value:
                    copy[keyword] = list(value)
                copy[keyword][key] = use(value[key])
        copies[id(node)] = copy
    root = copies[id(schema)]
    definitions = dict(root["$defs"]) if isinstance(root.get("$defs"), dict) else {}
    for key, name in names.items():
        definitions[name] = copies[key]
    root["$defs"] = definitions
    return root, {join_pointer("", "$defs", name): first[key] for key, name in names.items()}


def check_input(schema: object) -> CheckedInput:
    """Validate ``schema`` and return a tagged working copy (the input is never touched)."""
    if not isinstance(schema, (dict, bool)):
        raise SchemaError("", f"a schema is an object or a boolean, got {type(schema).__name__}")
    # drafts 04 to 07 (2019-09 split `dependencies` into `dependentRequired`/`dependentSchemas`)
    older = written_before_2019_09(schema)
    schema, aliases = hoist_shared(schema, older)
    nodes = _walk(schema, older=older)
    problem = locate_json_problem(schema, max_depth=MAX_VALUE_NESTING)
    if problem is not None:
        raise SchemaError(problem[0], f"the schema is not JSON: {problem[1]}")
    copied = json.loads(json.dumps(schema))
    if isinstance(copied, bool):
        copied = {} if copied else {"not": {}}
    anchors: dict[str, str] = {}
    for pointer, node in nodes:
        for keyword in ("$anchor", "$dynamicAnchor"):
            if keyword in node:
                anchors.setdefault(node[keyword], pointer)
        for keyword in ("$id", "id"):  # drafts 04-07 name a plain-name fragment with `id`/`$id`: "#name"
            name = node.get(keyword)
            if isinstance(name, str) and name.startswith("#") and len(name) > 1 and "/" not in name:
                anchors.setdefault(name[1:], pointer)
    base_id = schema.get("$id", "") if isinstance(schema, dict) else ""
    if not base_id and isinstance(schema, dict):
        base_id = schema.get("id", "")  # draft 04
    base_id = base_id.split("#", 1)[0] if isinstance(base_id, str) else ""
    refs: dict[str, str] = {}
    walked = {pointer for pointer, _ in nodes}
    detached_roots: list[str] = []
    pending = nodes
    while pending:  # a target outside every keyword is a schema too: walk it, and what it refers to
        for pointer, node in pending:
            for keyword in ("$ref", "$dynamicRef"):
                if keyword in node:
                    refs[pointer] = ref_target(node[keyword], anchors, base_id, copied, join_pointer(pointer, keyword))
        pending = []
        for target in sorted(set(refs.values()) - walked, key=lambda target: len(split_pointer(target))):
            if target in walked:
                continue  # walked with a detached root met just before
            detached_roots.append(target)
            more = _walk(resolve_pointer(copied, target), target, older)
            walked.update(pointer for pointer, _ in more)
            walked.add(target)
            pending.extend(more)
    cyclic = _cyclic_definitions(refs, copied)
    if cyclic is not None:
        raise SchemaError(cyclic, "cyclic definition: this $ref reaches itself again without describing any value")
    detached = {target: _tag(resolve_pointer(copied, target), target, older) for target in detached_roots}
    return CheckedInput(_tag(copied, "", older), refs, anchors, detached, aliases)

"""Pass ``check_input``: is this a schema strictify can work on? Clear errors, never a crash.

Rejected with a :class:`SchemaError` naming the pointer: something that is not a schema, keys
that are not strings, a keyword of the wrong shape, a cyclic Python object, nesting deeper than
:data:`MAX_NESTING`, an external or unresolvable ``$ref``, and definitions that refer to
themselves without going through a value (``A = {"$ref": A}``, ``A = {"anyOf": [A, ...]}``),
which have no meaning. The walk is iterative, so deep input gets the depth error, not a
``RecursionError``.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from strictconformance.dialects.model import SchemaError
from strictconformance.dialects.pointers import is_under, join_pointer, split_pointer
from strictconformance.reference.strictify._schema import MARK, Node, on_cycles, subschema_kind

__all__ = ["MAX_NESTING", "CheckedInput", "check_input", "ref_target"]

#: Subschema nesting strictify accepts; real schemas stay far below it.
MAX_NESTING = 100

# Keywords under which a subschema constrains a value nested inside the current one.
_VALUE_EDGES = frozenset({
    "properties", "patternProperties", "additionalProperties", "items", "prefixItems", "contains",
    "propertyNames", "dependentSchemas", "unevaluatedItems", "unevaluatedProperties", "additionalItems",
})


@dataclass(frozen=True)
class CheckedInput:
    """The input as a tagged working copy, and where each of its references points."""

    schema: Node
    refs: dict[str, str]  # pointer of a node holding $ref/$dynamicRef -> target pointer
    anchors: dict[str, str]


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


def _walk(schema: Any) -> list[tuple[str, Node]]:
    """(pointer, node) for every dict node, checking shapes on the way; iterative."""
    found: list[tuple[str, Node]] = []
    stack: list[tuple[Any, str, int, frozenset[int]]] = [(schema, "", 0, frozenset())]
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
            if keyword in ("$ref", "$dynamicRef", "$anchor", "$dynamicAnchor", "$id") and not isinstance(value, str):
                raise SchemaError(join_pointer(pointer, keyword), f"`{keyword}` must be a string, got {type(value).__name__}")
            kind = subschema_kind(keyword, value)
            if kind == "one":
                stack.append((value, join_pointer(pointer, keyword), nesting + 1, inner))
            elif kind == "map":
                if not isinstance(value, dict):
                    raise SchemaError(join_pointer(pointer, keyword), f"`{keyword}` must map names to schemas, got {type(value).__name__}")
                stack.extend((sub, join_pointer(pointer, keyword, name), nesting + 1, inner) for name, sub in value.items())
            elif kind == "list":
                if not isinstance(value, list):
                    raise SchemaError(join_pointer(pointer, keyword), f"`{keyword}` must be a list of schemas, got {type(value).__name__}")
                stack.extend((sub, join_pointer(pointer, keyword, index), nesting + 1, inner) for index, sub in enumerate(value))
            elif keyword == "required" and not (isinstance(value, list) and all(isinstance(v, str) for v in value)):
                raise SchemaError(join_pointer(pointer, keyword), "`required` must be a list of strings")
            elif keyword == "type" and not (isinstance(value, str) or (isinstance(value, list) and all(isinstance(v, str) for v in value))):
                raise SchemaError(join_pointer(pointer, keyword), "`type` must be a string or a list of strings")
            elif keyword == "enum" and not isinstance(value, list):
                raise SchemaError(join_pointer(pointer, keyword), "`enum` must be a list")
    return found


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
                if keyword in _VALUE_EDGES or keyword in ("$defs", "definitions"):
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


def _tag(node: Any, pointer: str) -> Any:
    """A copy with `true` subschemas as `{}` and every dict tagged with its origin pointer."""
    if node is True:
        return {MARK: {"origin": pointer}}
    if not isinstance(node, dict):
        return node
    result: Node = {}
    for keyword, value in node.items():
        kind = subschema_kind(keyword, value)
        if kind == "one":
            result[keyword] = _tag(value, join_pointer(pointer, keyword))
        elif kind == "map":
            result[keyword] = {name: _tag(sub, join_pointer(pointer, keyword, name)) for name, sub in value.items()}
        elif kind == "list":
            result[keyword] = [_tag(sub, join_pointer(pointer, keyword, index)) for index, sub in enumerate(value)]
        else:
            result[keyword] = value
    result[MARK] = {"origin": pointer}
    return result


def check_input(schema: object) -> CheckedInput:
    """Validate ``schema`` and return a tagged working copy (the input is never touched)."""
    if not isinstance(schema, (dict, bool)):
        raise SchemaError("", f"a schema is an object or a boolean, got {type(schema).__name__}")
    nodes = _walk(schema)
    try:
        copied = json.loads(json.dumps(schema, allow_nan=False))
    except (TypeError, ValueError) as exc:
        raise SchemaError("", f"the schema is not JSON: {exc}") from None
    if isinstance(copied, bool):
        copied = {} if copied else {"not": {}}
    anchors: dict[str, str] = {}
    for pointer, node in nodes:
        for keyword in ("$anchor", "$dynamicAnchor"):
            if keyword in node:
                anchors.setdefault(node[keyword], pointer)
    base_id = schema.get("$id", "") if isinstance(schema, dict) else ""
    base_id = base_id.split("#", 1)[0] if isinstance(base_id, str) else ""
    refs: dict[str, str] = {}
    for pointer, node in nodes:
        for keyword in ("$ref", "$dynamicRef"):
            if keyword in node:
                refs[pointer] = ref_target(node[keyword], anchors, base_id, copied, join_pointer(pointer, keyword))
    cyclic = _cyclic_definitions(refs, copied)
    if cyclic is not None:
        raise SchemaError(cyclic, "cyclic definition: this $ref reaches itself again without describing any value")
    return CheckedInput(_tag(copied, ""), refs, anchors)

"""Whether two tool input schemas accept the same inputs: the TL oracles' own comparison (SPEC.md §6).

TL-1 and TL-5 compare what a layer advertises with the shape's raw JSON Schema, or with what the
layer advertises for another source. This module decides that by walking both schemas side by
side, on its own: it shares no code with the normaliser a tool helper advertises with, so an
error there is found instead of repeated on both sides. It reads only the kit's keyword facts
(which keywords hold subschemas, :mod:`strictconformance.tools.schema_walk`).

Two schemas are the same when they are equal up to these equivalences, each of which changes no
instance's verdict (JSON Schema 2020-12 Core §10, Validation §6):

- ``$ref`` stands for its target (local JSON pointers, ``#`` included); keywords beside it apply
  with it (merged into the target's, or kept beside it as ``allOf`` where both constrain the same
  keyword or keywords that read each other: ``properties``/``additionalProperties``, ``items``/
  ``prefixItems``, ``contains``/``minContains``, ``if``/``then``). A recursive definition is
  compared co-inductively: a pair of places already being compared is assumed equal, so a cycle
  and its unfolding compare equal and nothing recurses forever. Where the definitions live
  (``$defs``, ``definitions``, inline) does not matter.
- ``true`` is ``{}``; a one-branch ``allOf``/``anyOf``/``oneOf`` is its branch.
- A ``type`` list is an ``anyOf`` of one branch per type, each with the keywords that apply to
  that type; ``anyOf`` branches (nested ``anyOf`` flattened) are an unordered set, so the order of
  ``null`` does not matter. An enum's values split by type the same way.
- ``enum`` is a set (order and repeats do not matter); a one-value ``enum`` is ``const``; a
  ``type`` every enum value already has says nothing more; ``{"const": null}`` is
  ``{"type": "null"}`` and ``{"enum": [true, false]}`` is ``{"type": "boolean"}``; branches that
  are only enums are one enum.
- ``required`` is a set; ``allOf``/``oneOf`` branches are unordered; an empty ``required``,
  ``properties``, ``patternProperties``, ``dependentRequired`` or ``dependentSchemas`` is absent.
- JSON values compare as JSON (``1 == 1.0``, ``true != 1``).
- The root of a tool input is an object: an absent root ``type`` is ``"object"``; the root
  ``description`` is the tool's description, not part of its input schema.
- ``title``, ``$comment``, ``$schema``, ``$id``, ``$anchor`` and OpenAPI's ``discriminator`` never
  matter. The caller names the other keywords that do not (``ignore``: annotations) and those
  whose always-true subschema is the same as none (``absent_when_true``).

Everything else must be equal: a keyword of the JSON Schema vocabulary present on one side only,
or with another value, is a :class:`Difference` at the place a maintainer can find it. A keyword
this module does not model (outside the vocabulary, or ``$dynamicRef``) cannot be judged by
structure: the two schemas are then compared on instances drawn from both (each validated against
both with ``jsonschema``), and differ only when one instance is accepted by one and rejected by the
other (the difference names it). When even that cannot run, :class:`SchemaComparisonError` says so:
an error of the kit, never a finding about the SDK.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import unquote

import jsonschema  # type: ignore[import-untyped]

from strictconformance.dialects.pointers import join_pointer, split_pointer
from strictconformance.spec.keywords import KEYWORDS
from strictconformance.tools.jsonvalue import MAX_SCHEMA_DEPTH, json_value_problem, metaschema_error
from strictconformance.tools.schema_walk import SUBSCHEMA_KEYWORDS

__all__ = ["ALWAYS_IGNORED", "Difference", "SchemaComparisonError", "compare_schemas", "input_schema_problem"]

#: Keywords that never change which inputs validate, whatever the rule.
ALWAYS_IGNORED = frozenset({"title", "$comment", "$schema", "$id", "$anchor", "$vocabulary", "discriminator", "$defs", "definitions"})

#: Annotations that stay on the node they describe (not split into ``type`` branches).
_NOTES = frozenset({"description", "default", "examples", "deprecated", "readOnly", "writeOnly"})

#: Keywords that read each other's work on one instance: never merged from two schemas into one.
_INTERACTING = (
    frozenset({"properties", "patternProperties", "additionalProperties", "unevaluatedProperties"}),
    frozenset({"prefixItems", "items", "additionalItems", "unevaluatedItems"}),
    frozenset({"contains", "minContains", "maxContains"}),
    frozenset({"if", "then", "else"}),
)

#: Keywords that apply only to instances of one type (Validation 2020-12 §6.2-§6.5, Core §10.3).
_TYPE_KEYWORDS: Mapping[str, frozenset[str]] = {
    "string": frozenset({"minLength", "maxLength", "pattern", "format", "contentEncoding", "contentMediaType", "contentSchema"}),
    "number": frozenset({"minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "multipleOf"}),
    "object": frozenset({"properties", "patternProperties", "additionalProperties", "unevaluatedProperties", "propertyNames",
                         "required", "minProperties", "maxProperties", "dependentRequired", "dependentSchemas"}),
    "array": frozenset({"prefixItems", "items", "unevaluatedItems", "contains", "minContains", "maxContains",
                        "minItems", "maxItems", "uniqueItems"}),
}
_TYPE_KEYWORDS = {**_TYPE_KEYWORDS, "integer": _TYPE_KEYWORDS["number"]}
_TYPED = frozenset().union(*_TYPE_KEYWORDS.values())

#: Every keyword this module knows the meaning of (it compares them as described above).
_VOCABULARY = frozenset().union(*KEYWORDS.values()) - {"$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor"}

#: Empty values that say nothing: the same as the keyword being absent.
_EMPTY_IS_ABSENT = frozenset({"required", "properties", "patternProperties", "dependentRequired", "dependentSchemas"})

_SET_VALUED = frozenset({"required", "enum"})

#: Structural steps before the comparison gives up and compares instances instead.
_BUDGET = 50_000

#: ``$schema`` -> the validator that reads it (without ``$schema``: draft 2020-12).
_DRAFTS: Mapping[str, Any] = {
    "https://json-schema.org/draft/2020-12/schema": jsonschema.Draft202012Validator,
    "https://json-schema.org/draft/2019-09/schema": jsonschema.Draft201909Validator,
    "http://json-schema.org/draft-07/schema": jsonschema.Draft7Validator,
    "http://json-schema.org/draft-06/schema": jsonschema.Draft6Validator,
    "http://json-schema.org/draft-04/schema": jsonschema.Draft4Validator,
}
_OLD_DRAFTS = frozenset({"http://json-schema.org/draft-07/schema", "http://json-schema.org/draft-06/schema",
                         "http://json-schema.org/draft-04/schema"})


def _validator_class(schema: object) -> Any:
    """The validator class for ``schema``'s ``$schema``; ``ValueError`` for one the kit does not read."""
    declared = schema.get("$schema") if isinstance(schema, Mapping) else None
    if declared is None:
        return jsonschema.Draft202012Validator
    uri = declared.rstrip("#") if isinstance(declared, str) else declared
    if uri not in _DRAFTS:
        raise ValueError(f"$schema {declared!r} is not a draft the kit reads ({', '.join(sorted(_DRAFTS))})")
    return _DRAFTS[uri]


class SchemaComparisonError(RuntimeError):
    """The kit could not judge whether two schemas accept the same inputs (its own error)."""


@dataclass(frozen=True)
class Difference:
    """The first place two schemas differ: where (a path through the left schema, ``$ref`` inlined),
    what the left and the right schema have there, and, when instances decided, the witness."""

    where: str
    left: object
    right: object
    witness: object = None
    by_instance: bool = False


_ABSENT = "<absent>"


class _Undecided(Exception):
    """Internal: structure cannot judge (budget, a reference it cannot follow)."""


@dataclass
class _Doc:
    root: object
    old_draft: bool

    def resolve(self, ref: object) -> _At:
        if not isinstance(ref, str) or not ref.startswith("#") or (len(ref) > 1 and ref[1] != "/"):
            raise _Undecided(f"the $ref {ref!r} is not a local JSON pointer")
        pointer = unquote(ref[1:])
        node: object = self.root
        for part in split_pointer(pointer):
            if isinstance(node, Mapping) and part in node:
                node = node[part]
            elif isinstance(node, list) and part.isdigit() and int(part) < len(node):
                node = node[int(part)]
            else:
                raise _Undecided(f"the $ref {ref!r} points at nothing")
        return _At(self, pointer, node)


@dataclass(frozen=True)
class _At:
    """A subschema where it sits: its document, its pointer there (its identity), the schema."""

    doc: _Doc
    pointer: str
    schema: object = field(compare=False)


def _raw(value: object) -> object:
    """A view's value as JSON, for a message."""
    if isinstance(value, _At):
        return value.schema
    if isinstance(value, Mapping):
        return {key: _raw(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_raw(item) for item in value]
    return value


def _json_equal(left: object, right: object) -> bool:
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        return left.keys() == right.keys() and all(_json_equal(left[key], right[key]) for key in left)
    if isinstance(left, list) and isinstance(right, list):
        return len(left) == len(right) and all(_json_equal(a, b) for a, b in zip(left, right, strict=True))
    return type(left) is type(right) and left == right


def _unique(values: Sequence[object]) -> list[object]:
    out: list[object] = []
    for value in values:
        if not any(_json_equal(value, seen) for seen in out):
            out.append(value)
    return out


def _same_set(left: Sequence[object], right: Sequence[object]) -> bool:
    a, b = _unique(left), _unique(right)
    return len(a) == len(b) and all(any(_json_equal(x, y) for y in b) for x in a)


def _has_type(value: object, kind: str) -> bool:
    """JSON Schema's ``type`` test (an integer-valued float is an integer)."""
    if kind == "null":
        return value is None
    if kind == "boolean":
        return isinstance(value, bool)
    if kind == "integer":
        return not isinstance(value, bool) and (isinstance(value, int) or (isinstance(value, float) and value.is_integer()))
    if kind == "number":
        return not isinstance(value, bool) and isinstance(value, (int, float))
    if kind == "string":
        return isinstance(value, str)
    if kind == "array":
        return isinstance(value, list)
    if kind == "object":
        return isinstance(value, Mapping)
    return False


def _types(value: object) -> list[str] | None:
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(kind, str) for kind in value):
        return list(dict.fromkeys(value))
    return None


View = dict[str, Any]
#: A flattened schema: its view, or False for a schema that accepts nothing.
Flat = View | Literal[False]


class _Comparer:
    def __init__(self, ignore: frozenset[str], absent_when_true: frozenset[str]) -> None:
        self.ignore = ALWAYS_IGNORED | ignore
        self.absent_when_true = absent_when_true
        self.notes = _NOTES - self.ignore
        self.assumed: set[tuple[int, str, int, str]] = set()
        self.steps = 0
        #: keywords outside the vocabulary that differ: structure cannot say whether they matter
        self.unmodelled: list[str] = []

    def _step(self) -> None:
        self.steps += 1
        if self.steps > _BUDGET:
            raise _Undecided(f"more than {_BUDGET} comparison steps")

    # -- one schema as a view: refs followed, ignored keywords out, one-branch combinators in ----

    def flatten(self, at: _At, chain: frozenset[str] = frozenset()) -> Flat:
        self._step()
        schema = at.schema
        if schema is True:
            return {}
        if schema is False or not isinstance(schema, Mapping):
            return False
        node: Mapping[str, Any] = schema
        if at.doc.old_draft and "$ref" in node:
            node = {"$ref": node["$ref"]}  # before 2019-09 a $ref's siblings are ignored
        view: View = {}
        for key, value in node.items():
            if key in self.ignore or key == "$ref":
                continue
            if key in ("$dynamicRef", "$recursiveRef"):
                raise _Undecided(f"{key} is not followed")
            here = join_pointer(at.pointer, key)
            layout = SUBSCHEMA_KEYWORDS.get(key)
            if key == "items" and isinstance(value, list):  # the older array form is prefixItems
                key, layout = "prefixItems", ("list", False)
            elif key == "additionalItems" and isinstance(node.get("items"), list):
                key, layout = "items", ("single", False)
            elif key == "additionalItems":
                continue  # without an items array it does nothing
            if layout is None:
                view[key] = value
            elif layout[0] in ("single", "items") and isinstance(value, (Mapping, bool)):
                view[key] = _At(at.doc, here, value)
            elif layout[0] in ("list", "items") and isinstance(value, list):
                view[key] = [_At(at.doc, join_pointer(here, index), item) for index, item in enumerate(value)]
            elif layout[0] == "map" and isinstance(value, Mapping):
                view[key] = {name: _At(at.doc, join_pointer(here, name), item) if isinstance(item, (Mapping, bool)) else item
                             for name, item in value.items()}
            else:
                view[key] = value
        for key in list(view):
            empty = key in _EMPTY_IS_ABSENT and isinstance(view[key], (list, Mapping)) and not view[key]
            if empty or (key in self.absent_when_true and isinstance(view[key], _At) and self._always_true(view[key].schema)):
                del view[key]
        if "$ref" in node:
            target = at.doc.resolve(node["$ref"])
            if target.pointer in chain:
                raise _Undecided(f"the $ref cycle through #{target.pointer} never descends into the input")
            body = self.flatten(target, chain | {target.pointer})
            view = self._merge(view, body, target)
        for keyword in ("allOf", "anyOf", "oneOf"):
            branches = view.get(keyword)
            if isinstance(branches, list) and len(branches) == 1 and isinstance(branches[0], _At):
                rest = {key: value for key, value in view.items() if key != keyword}
                view = self._merge(rest, self.flatten(branches[0], chain), branches[0], as_keyword=keyword)
        return view

    def _always_true(self, schema: object) -> bool:
        """``true``, or an object of ignored keywords only (no ``$ref`` followed: a child may recurse)."""
        return schema is True or (isinstance(schema, Mapping) and all(key in self.ignore for key in schema))

    def _merge(self, own: View, body: Flat, at: _At, as_keyword: str = "allOf") -> View:
        """``own``'s keywords with ``body``'s (the schema at ``at`` applying to the same instance)."""
        if body is False:
            return {**own, "allOf": [*own.get("allOf", []), at]} if as_keyword == "allOf" else {**own, as_keyword: [at]}
        validating = {key for key in body if key not in _NOTES}
        mine = {key for key in own if key not in _NOTES}
        clash = any(key in mine and not _json_equal(_raw(own[key]), _raw(body[key])) for key in validating)
        clash = clash or any(group & validating and group & mine for group in _INTERACTING)
        if clash:
            kept = own.get(as_keyword, [])
            return {**own, as_keyword: [*(kept if isinstance(kept, list) else []), at]}
        notes = {key: value for key, value in body.items() if key in _NOTES and key not in own}  # the nearer annotation wins
        return {**{key: value for key, value in body.items() if key not in _NOTES}, **notes, **own}

    # -- disjuncts: type lists and anyOf as sets of branches --------------------------------------

    def disjuncts(self, view: View, depth: int = 0) -> list[Flat]:
        """``view`` as the branches it is the ``anyOf`` of: its ``anyOf`` branches (nested ones
        flattened), or one branch per type of a ``type`` list; else ``view`` alone."""
        if depth > 32:
            raise _Undecided("anyOf nests deeper than 32 levels")
        branches = view.get("anyOf")
        if isinstance(branches, list) and len(branches) > 1 and "oneOf" not in view:
            rest = {key: value for key, value in view.items() if key != "anyOf"}
            out: list[Flat] = []
            for branch in branches:
                flat = self.flatten(branch)
                if flat is False:
                    continue  # a branch that accepts nothing adds nothing
                for part in self.disjuncts(flat, depth + 1):
                    merged = None if part is False else self._conjoin(rest, part)
                    if merged is None:
                        return [self._simplify(view)]
                    out.extend(self._split_types(merged))
            return self._join_enums([self._simplify(part) if isinstance(part, dict) else part for part in out])
        return self._join_enums([self._simplify(part) for part in self._split_types(view)])

    def _split_types(self, view: View) -> list[View]:
        kinds = _types(view.get("type"))
        if kinds is None or len(kinds) < 2 or "anyOf" in view or "oneOf" in view:
            return [view]
        return [part for kind in kinds if (part := self._typed_part(view, kind)) is not None]

    @staticmethod
    def _conjoin(rest: View, part: View) -> View | None:
        """``rest`` and ``part`` as one view, or None where they constrain the same thing."""
        for key, value in rest.items():
            if key in part and not (isinstance(value, (str, int, float, bool)) and _json_equal(value, part[key])):
                return None
        if any(group & set(rest) and group & set(part) for group in _INTERACTING):
            return None
        return {**rest, **part}

    @staticmethod
    def _typed_part(view: View, kind: str) -> View | None:
        part: View = {"type": kind}
        for key, value in view.items():
            if key == "type" or (key in _TYPED and key not in _TYPE_KEYWORDS.get(kind, frozenset())):
                continue
            part[key] = value
        if "const" in part and not _has_type(part["const"], kind):
            return None
        if isinstance(part.get("enum"), list):
            part["enum"] = [value for value in part["enum"] if _has_type(value, kind)]
            if not part["enum"]:
                return None
        return part

    @staticmethod
    def _simplify(view: View) -> View:
        view = dict(view)
        kinds = _types(view.get("type"))
        if kinds is not None:
            view["type"] = kinds[0] if len(kinds) == 1 else kinds
        enum = view.get("enum")
        if isinstance(enum, list) and "const" not in view:
            enum = _unique(enum)
            if len(enum) == 1:
                del view["enum"]
                view["const"] = enum[0]
            else:
                view["enum"] = enum
        values = [view["const"]] if "const" in view else view.get("enum") if isinstance(view.get("enum"), list) else None
        if values is not None and kinds is not None and all(any(_has_type(value, kind) for kind in kinds) for value in values):
            del view["type"]
        if set(view) == {"const"} and view["const"] is None:
            view = {"type": "null"}
        elif set(view) == {"enum"} and _same_set(view["enum"], [True, False]):
            view = {"type": "boolean"}
        return view

    @staticmethod
    def _join_enums(parts: list[Flat]) -> list[Flat]:
        """Branches that only list values are one ``enum``."""
        def values(part: Flat) -> list[object] | None:
            if not isinstance(part, dict) or not part or not set(part) <= {"enum", "const", "type"}:
                return None
            if set(part) == {"type"}:
                return [None] if part["type"] == "null" else [True, False] if part["type"] == "boolean" else None
            if "type" in part:
                return None
            if "const" in part:
                return [part["const"]] if "enum" not in part else None
            return list(part["enum"]) if isinstance(part["enum"], list) else None

        listed = [values(part) for part in parts]
        if sum(found is not None for found in listed) < 2:
            return parts
        joined: list[object] = _unique([value for found in listed if found is not None for value in found])
        others = [part for part, found in zip(parts, listed, strict=True) if found is None]
        return [*others, _Comparer._simplify({"enum": joined})]

    # -- the comparison ----------------------------------------------------------------------------

    def at(self, left: _At, right: _At, path: str) -> Difference | None:
        key = (id(left.doc), left.pointer, id(right.doc), right.pointer)
        if key in self.assumed:
            return None  # co-induction: assumed equal while it is being compared
        self.assumed.add(key)
        try:
            return self.views(self.flatten(left), self.flatten(right), path)
        finally:
            self.assumed.discard(key)

    def views(self, left: Flat, right: Flat, path: str) -> Difference | None:
        self._step()
        if left is False or right is False:
            return None if left is right else Difference(path or "(root)", _raw(left), _raw(right))
        for name in [*left, *(key for key in right if key not in left)]:
            if name in self.notes and (name in left or name in right):
                a, b = left.get(name, _ABSENT), right.get(name, _ABSENT)
                if not _json_equal(a, b):
                    return Difference(join_pointer(path, name), a, b)
        lefts = self.disjuncts({k: v for k, v in left.items() if k not in self.notes})
        rights = self.disjuncts({k: v for k, v in right.items() if k not in self.notes})
        if len(lefts) == 1 and len(rights) == 1:
            return self.plain(lefts[0], rights[0], path)
        if all(isinstance(part, dict) and set(part) == {"type"} for part in [*lefts, *rights]):
            kinds = [[part["type"] for part in parts if isinstance(part, dict)] for parts in (lefts, rights)]
            if sorted(map(str, kinds[0])) != sorted(map(str, kinds[1])):  # a type lost or added: name the types
                return Difference(join_pointer(path, "type"), kinds[0], kinds[1])
        if len(lefts) != len(rights):
            return Difference(join_pointer(path, "anyOf"), _raw(lefts), _raw(rights))
        return self.matching(lefts, rights, join_pointer(path, "anyOf"))

    def matching(self, lefts: Sequence[Flat], rights: Sequence[Flat], path: str, ats: bool = False) -> Difference | None:
        """Each left branch equal to its own right branch, in any order (backtracking)."""
        def compare(a: Any, b: Any, where: str) -> Difference | None:
            return self.at(a, b, where) if ats else self.views(a, b, where)

        used: list[bool] = [False] * len(rights)

        def place(index: int) -> bool:
            if index == len(lefts):
                return True
            for candidate, taken in enumerate(used):
                if not taken and compare(lefts[index], rights[candidate], join_pointer(path, index)) is None:
                    used[candidate] = True
                    if place(index + 1):
                        return True
                    used[candidate] = False
            return False

        if len(lefts) == len(rights) and place(0):
            return None
        for index, branch in enumerate(lefts):  # name the first branch with no partner
            if not any(compare(branch, other, join_pointer(path, index)) is None for other in rights):
                return Difference(join_pointer(path, index), _raw(branch), _raw(list(rights)))
        return Difference(path, _raw(list(lefts)), _raw(list(rights)))

    def plain(self, left: Flat, right: Flat, path: str) -> Difference | None:
        if left is False or right is False:
            return self.views(left, right, path)
        for name in [*left, *(key for key in right if key not in left)]:
            where = join_pointer(path, name)
            if (name not in left or name not in right) and name in _EMPTY_IS_ABSENT:
                empty: object = {} if isinstance(left.get(name, right.get(name)), Mapping) else []
                found = self.keyword(name, left.get(name, empty), right.get(name, empty), where)
                if found is not None:
                    return found
                continue
            if name not in left or name not in right:
                if name not in _VOCABULARY:
                    self.unmodelled.append(where)
                    continue
                return Difference(where, _raw(left.get(name, _ABSENT)), _raw(right.get(name, _ABSENT)))
            found = self.keyword(name, left[name], right[name], where)
            if found is not None:
                return found
        return None

    def keyword(self, name: str, a: Any, b: Any, where: str) -> Difference | None:
        if isinstance(a, _At) and isinstance(b, _At):
            return self.at(a, b, where)
        if isinstance(a, list) and isinstance(b, list) and all(isinstance(item, _At) for item in [*a, *b]):
            if name == "prefixItems":
                if len(a) != len(b):
                    return Difference(where, _raw(a), _raw(b))
                for index, (x, y) in enumerate(zip(a, b, strict=True)):
                    found = self.at(x, y, join_pointer(where, index))
                    if found:
                        return found
                return None
            return self.matching(a, b, where, ats=True)
        if isinstance(a, Mapping) and isinstance(b, Mapping) and name in SUBSCHEMA_KEYWORDS:
            for member in [*a, *(key for key in b if key not in a)]:
                here = join_pointer(where, member)
                if member not in a or member not in b:
                    return Difference(here, _raw(a.get(member, _ABSENT)), _raw(b.get(member, _ABSENT)))
                x, y = a[member], b[member]
                found = self.at(x, y, here) if isinstance(x, _At) and isinstance(y, _At) else (
                    None if _json_equal(_raw(x), _raw(y)) else Difference(here, _raw(x), _raw(y)))
                if found:
                    return found
            return None
        if name in _SET_VALUED and isinstance(a, list) and isinstance(b, list):
            return None if _same_set(a, b) else Difference(where, a, b)
        if name == "type" and _types(a) is not None and _types(b) is not None:
            return None if set(_types(a) or ()) == set(_types(b) or ()) else Difference(where, a, b)
        if name == "dependentRequired" and isinstance(a, Mapping) and isinstance(b, Mapping):
            same = a.keys() == b.keys() and all(isinstance(a[k], list) and isinstance(b[k], list) and _same_set(a[k], b[k]) for k in a)
            return None if same else Difference(where, a, b)
        if _json_equal(_raw(a), _raw(b)):
            return None
        if name not in _VOCABULARY:
            self.unmodelled.append(where)
            return None
        return Difference(where, _raw(a), _raw(b))


# -- instances, where structure cannot judge --------------------------------------------------------


_SCALARS: tuple[object, ...] = (None, True, False, 0, 1, -1, 2.5, "", "a", "abc", [], {})


def _instances(schema: object, doc: object, depth: int = 0, budget: list[int] | None = None) -> Iterator[object]:
    """Values near what ``schema`` accepts and rejects: its constants and bounds, objects with and
    without each property, arrays of its items. Deterministic, bounded."""
    budget = budget if budget is not None else [400]
    if budget[0] <= 0 or depth > 4 or not isinstance(schema, Mapping):
        return
    budget[0] -= 1
    if "$ref" in schema and isinstance(schema["$ref"], str) and schema["$ref"].startswith("#"):
        try:
            target = _Doc(doc, False).resolve(schema["$ref"]).schema
        except _Undecided:
            target = None
        yield from _instances(target, doc, depth + 1, budget)
    for key in ("const", "default"):
        if key in schema:
            yield schema[key]
    for key in ("enum", "examples"):
        if isinstance(schema.get(key), list):
            yield from schema[key]
    for key in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems"):
        bound = schema.get(key)
        if isinstance(bound, (int, float)) and not isinstance(bound, bool) and math.isfinite(bound) and abs(bound) <= 1000:
            if "Length" in key:
                yield from ("x" * max(0, int(bound) - 1), "x" * int(bound), "x" * (int(bound) + 1))
            elif "Items" in key:
                yield from ([0] * max(0, int(bound) - 1), [0] * int(bound), [0] * (int(bound) + 1))
            else:
                yield from (bound - 1, bound - 0.5, bound, bound + 0.5, bound + 1)
    yield from _SCALARS
    for key in ("allOf", "anyOf", "oneOf", "prefixItems"):
        if isinstance(schema.get(key), list):
            for branch in schema[key]:
                yield from _instances(branch, doc, depth + 1, budget)
    for key in ("not", "if", "then", "else"):
        yield from _instances(schema.get(key), doc, depth + 1, budget)
    items = schema.get("items")
    if isinstance(items, Mapping):
        for value in list(_instances(items, doc, depth + 1, budget))[:8]:
            yield [value]
    properties = schema.get("properties")
    if isinstance(properties, Mapping) and properties:
        choices = {name: list(_instances(sub, doc, depth + 1, budget))[:6] for name, sub in properties.items()}
        width = max((len(values) for values in choices.values()), default=0)
        for index in range(width):
            full = {name: values[index % len(values)] for name, values in choices.items() if values}
            yield full
            for name in full:
                yield {key: value for key, value in full.items() if key != name}
            yield {**full, "unexpected_key": 0}
        yield {}


def _validator(schema: object) -> Any:
    try:
        return _validator_class(schema)(schema)
    except Exception as exc:  # any failure here is the kit's, reported as such
        raise SchemaComparisonError(f"cannot build a validator for {schema!r}: {exc}") from exc


def _instance_difference(left: object, right: object, why: str) -> Difference | None:
    judge_left, judge_right = _validator(left), _validator(right)
    for instance in [*_instances(left, left), *_instances(right, right)]:
        try:
            a, b = judge_left.is_valid(instance), judge_right.is_valid(instance)
        except Exception as exc:  # the validator's own failure: the kit's
            raise SchemaComparisonError(f"cannot compare the schemas ({why}), and validating an instance failed: {exc}") from exc
        if a != b:
            return Difference(f"the instance {instance!r}", "accepted" if a else "rejected", "accepted" if b else "rejected",
                              witness=instance, by_instance=True)
    return None


# -- the entry points ---------------------------------------------------------------------------------


def _old_draft(schema: object) -> bool:
    """Whether ``schema`` declares a draft before 2019-09 (``$ref`` siblings ignored, array ``items``)."""
    declared = schema.get("$schema") if isinstance(schema, Mapping) else None
    return isinstance(declared, str) and declared.rstrip("#") in _OLD_DRAFTS


def compare_schemas(left: object, right: object, *, ignore: frozenset[str] = frozenset(),
                    absent_when_true: frozenset[str] = frozenset()) -> Difference | None:
    """The first difference between two tool input schemas ``left`` and ``right`` (JSON values,
    object schemas at the root), or None when they accept the same inputs up to the equivalences
    above. ``ignore``: annotations that do not matter here; ``absent_when_true``: keywords whose
    always-true subschema is the same as none. Raises :class:`SchemaComparisonError` when it
    cannot judge."""
    comparer = _Comparer(frozenset(ignore), frozenset(absent_when_true))
    try:
        left, right = json.loads(json.dumps(left)), json.loads(json.dumps(right))  # tuples as lists, keys as given
    except (TypeError, ValueError) as exc:
        raise SchemaComparisonError(f"the schemas are not JSON: {exc}") from exc
    docs = [_Doc(schema, _old_draft(schema)) for schema in (left, right)]
    try:
        views = [comparer.flatten(_At(doc, "", doc.root)) for doc in docs]
        for view in views:
            if isinstance(view, dict):
                view.pop("description", None)  # the root's is the tool's description
                if "type" not in view:
                    view["type"] = "object"
        difference = comparer.views(views[0], views[1], "")
    except _Undecided as exc:
        return _instance_difference(left, right, str(exc))
    except RecursionError as exc:
        raise SchemaComparisonError("the schemas nest too deeply to compare") from exc
    if difference is None and comparer.unmodelled:
        return _instance_difference(left, right, f"unmodelled keyword at {comparer.unmodelled[0]}")
    return difference


def input_schema_problem(schema: object) -> str | None:
    """Why ``schema`` cannot be a tool's advertised input schema, or None: not JSON, not a JSON
    Schema (its draft's metaschema, by ``jsonschema``), a ``$ref`` that points at nothing, or a
    root that does not describe an object."""
    problem = json_value_problem(schema, max_depth=MAX_SCHEMA_DEPTH)
    if problem is not None:
        return problem
    if not isinstance(schema, Mapping):
        return f"must be a JSON Schema object describing the tool's input object, got {type(schema).__name__}"
    try:
        error = metaschema_error(_validator_class(schema), schema)
    except ValueError as exc:
        return str(exc)
    if error is not None:
        return f"not a valid JSON Schema: {error.message!s}"
    doc = _Doc(schema, _old_draft(schema))
    todo: list[object] = [schema]
    while todo:
        node = todo.pop()
        if isinstance(node, Mapping):
            ref = node.get("$ref")
            if ref is not None:
                if not isinstance(ref, str) or not ref.startswith("#"):
                    return f"the $ref {ref!r} is not a local JSON pointer"
                seen: set[str] = set()
                while isinstance(ref, str):  # a chain of $ref that comes back never descends into the input
                    try:
                        target = doc.resolve(ref)
                    except _Undecided as exc:
                        return str(exc)
                    if target.pointer in seen:
                        return f"the $ref cycle through #{target.pointer} never descends into the input"
                    seen.add(target.pointer)
                    ref = target.schema.get("$ref") if isinstance(target.schema, Mapping) else None
            todo.extend(node.values())
        elif isinstance(node, list):
            todo.extend(node)
    root: object = schema
    for _ in range(32):
        if isinstance(root, Mapping) and "$ref" in root and "type" not in root:
            try:
                root = doc.resolve(root["$ref"]).schema
            except _Undecided as exc:
                return str(exc)
        else:
            break
    kinds = _types(root.get("type", "object")) if isinstance(root, Mapping) else None
    if kinds != ["object"]:
        return f"the root must describe an object (type 'object'), got {root.get('type') if isinstance(root, Mapping) else root!r}"
    return None

"""The value codec of a strictified schema: ``encode`` (original -> wire), ``decode`` (wire -> original).

Built from the marks the passes left on the strict schema. Every codec node receives the value
of its position in the ORIGINAL shape when encoding and the wire value when decoding. Decoding
never raises on a value of the wrong shape: it returns what it cannot read unchanged, so the
caller's validation names the problem. Values nested deeper than :data:`MAX_VALUE_DEPTH` get a
:class:`CodecError`, never a ``RecursionError``.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from strictconformance.reference.strictify._schema import MARK

__all__ = ["MAX_VALUE_DEPTH", "Codec", "CodecError", "build_codec"]

MAX_VALUE_DEPTH = 150
_ROOT_REF = "#"


class CodecError(ValueError):
    """A value the codec cannot carry (nested deeper than the codec supports, or not JSON)."""


def _deeper(depth: int) -> int:
    if depth > MAX_VALUE_DEPTH:
        raise CodecError(f"the value nests deeper than {MAX_VALUE_DEPTH} levels")
    return depth + 1


class _Node:
    identity = False

    def encode(self, value: Any, depth: int) -> Any:
        raise NotImplementedError

    def decode(self, value: Any, depth: int) -> Any:
        raise NotImplementedError


class _Identity(_Node):
    identity = True

    def encode(self, value: Any, depth: int) -> Any:
        return value

    def decode(self, value: Any, depth: int) -> Any:
        return value


IDENTITY = _Identity()
_NO_VALUE = object()


class _JsonText(_Node):
    def encode(self, value: Any, depth: int) -> Any:
        try:
            return json.dumps(value, ensure_ascii=False, allow_nan=False)
        except RecursionError:
            raise CodecError("the value nests too deep to travel as JSON text") from None
        except (TypeError, ValueError) as exc:
            raise CodecError(f"the value is not JSON: {exc}") from None

    def decode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, str):
            return value
        try:
            # JSON text only: Python's json also reads NaN and Infinity, and a number too large for a
            # float (1e999) becomes inf; none of them is a JSON value, so the text stays as it came
            return json.loads(value, parse_constant=_not_json_number, parse_float=_finite_float)
        except (ValueError, RecursionError):
            return value


def _not_json_number(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    number = float(text)
    if not math.isfinite(number):
        raise ValueError(f"{text} is too large for a float")
    return number


@dataclass
class _Object(_Node):
    properties: dict[str, _Node]
    absent_as_null: frozenset[str] = frozenset()
    collapsed: frozenset[str] = frozenset()
    extra: _Node = IDENTITY

    def encode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, dict):
            return value
        depth = _deeper(depth)
        out: dict[str, Any] = {}
        for name, child in self.properties.items():
            if name in value:
                out[name] = child.encode(value[name], depth)
            elif name in self.absent_as_null or name in self.collapsed:
                out[name] = None
        for name, item in value.items():
            if name not in self.properties:
                out[name] = self.extra.encode(item, depth)
        return out

    def decode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, dict):
            return value
        depth = _deeper(depth)
        out: dict[str, Any] = {}
        for name, item in value.items():
            if name in self.properties:
                if item is None and name in self.absent_as_null:
                    continue
                out[name] = self.properties[name].decode(item, depth)
            else:
                out[name] = self.extra.decode(item, depth)
        return out


@dataclass
class _Nullable(_Node):
    inner: _Node

    def encode(self, value: Any, depth: int) -> Any:
        return self.inner.encode(value, depth)

    def decode(self, value: Any, depth: int) -> Any:
        return None if value is None else self.inner.decode(value, depth)


@dataclass
class _Pairs(_Node):
    value: _Node

    def encode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, dict):
            return value
        depth = _deeper(depth)
        return [{"key": key, "value": self.value.encode(item, depth)} for key, item in value.items()]

    def decode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, list) or not all(isinstance(p, dict) and isinstance(p.get("key"), str) and "value" in p for p in value):
            return value
        depth = _deeper(depth)
        return {pair["key"]: self.value.decode(pair["value"], depth) for pair in value}


@dataclass
class _Tuple(_Node):
    positions: list[_Node]
    absent_as_null: frozenset[str] = frozenset()
    #: positions that accept null themselves: absent travels as null too (a reported loss)
    collapsed: frozenset[str] = frozenset()

    def encode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, list):
            return value
        depth = _deeper(depth)
        out: dict[str, Any] = {}
        for index, child in enumerate(self.positions):
            if index < len(value):
                out[str(index)] = child.encode(value[index], depth)
            elif str(index) in self.absent_as_null or str(index) in self.collapsed:
                out[str(index)] = None
        return out

    def decode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, dict):
            return value
        depth = _deeper(depth)
        out: list[Any] = []
        for index, child in enumerate(self.positions):
            key = str(index)
            if key not in value or (value[key] is None and key in self.absent_as_null):
                break
            out.append(child.decode(value[key], depth))
        return out


@dataclass
class _Array(_Node):
    prefix: list[_Node]
    items: _Node

    def encode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, list):
            return value
        depth = _deeper(depth)
        return [(self.prefix[i] if i < len(self.prefix) else self.items).encode(item, depth) for i, item in enumerate(value)]

    def decode(self, value: Any, depth: int) -> Any:
        if not isinstance(value, list):
            return value
        depth = _deeper(depth)
        return [(self.prefix[i] if i < len(self.prefix) else self.items).decode(item, depth) for i, item in enumerate(value)]


@dataclass
class _Wrap(_Node):
    key: str
    inner: _Node

    def encode(self, value: Any, depth: int) -> Any:
        return {self.key: self.inner.encode(value, _deeper(depth))}

    def decode(self, value: Any, depth: int) -> Any:
        if isinstance(value, dict) and self.key in value:
            return self.inner.decode(value[self.key], _deeper(depth))
        return value


@dataclass
class _AnyOf(_Node):
    """Encode through the first branch the ORIGINAL value matches; decode through the first branch
    the wire value matches."""

    branches: list[tuple[Callable[[Any], bool], Callable[[Any], bool], _Node]]

    def encode(self, value: Any, depth: int) -> Any:
        for matches_original, _, child in self.branches:
            if matches_original(value):
                return child.encode(value, depth)
        return value

    def decode(self, value: Any, depth: int) -> Any:
        # a loosened branch may accept another branch's wire value: prefer the branch whose
        # decoded value its original branch accepts
        fallback: Any = _NO_VALUE
        for matches_original, matches_wire, child in self.branches:
            if matches_wire(value):
                decoded = child.decode(value, depth)
                if matches_original(decoded):
                    return decoded
                if fallback is _NO_VALUE:
                    fallback = decoded
        return value if fallback is _NO_VALUE else fallback


@dataclass
class _Ref(_Node):
    name: str
    table: dict[str, _Node] = field(repr=False)

    def encode(self, value: Any, depth: int) -> Any:
        return self.table[self.name].encode(value, _deeper(depth))

    def decode(self, value: Any, depth: int) -> Any:
        return self.table[self.name].decode(value, _deeper(depth))


@dataclass(frozen=True)
class Codec:
    """``encode``: a value of the original schema -> its wire value; ``decode``: back."""

    _root: _Node = field(repr=False)

    @property
    def is_identity(self) -> bool:
        return self._root.identity

    def encode(self, value: Any) -> Any:
        return self._root.encode(value, 0)

    def decode(self, value: Any) -> Any:
        return self._root.decode(value, 0)


#: The codecs that give a value another shape on the wire (a wrapped root, a record as pairs, a
#: tuple as an object): a strictify without a codec of its own cannot carry a value through them.
RESHAPING_CODECS = frozenset({"wrap", "pairs", "tuple"})


def has_reshaping_codec(marked: Any) -> bool:
    """Whether the marked strict schema ``marked`` needs a codec that reshapes values (one of
    :data:`RESHAPING_CODECS`), not only absent-as-null or a JSON-text subtree."""
    return _has_codec_marks(marked, RESHAPING_CODECS)


def _has_codec_marks(node: Any, kinds: frozenset[str] | None = None) -> bool:
    """Whether a node of ``node`` carries a codec mark (of one of ``kinds``, when given)."""
    stack = [node]
    seen: set[int] = set()  # a shared subtree (unrolled recursion) is looked at once
    while stack:
        current = stack.pop()
        if isinstance(current, (dict, list)):
            if id(current) in seen:
                continue
            seen.add(id(current))
        if isinstance(current, dict):
            marks = current.get(MARK)
            if isinstance(marks, dict) and (marks.get("codec") in kinds if kinds is not None else
                                            ("codec" in marks or marks.get("absent_as_null") or marks.get("collapsed"))):
                return True
            stack.extend(value for key, value in current.items() if key != MARK)
        elif isinstance(current, list):
            stack.extend(current)
    return False


def build_codec(marked: Any, strict: Any, semantic: Any, semantic_nodes: Mapping[int, Any]) -> Codec:
    """The codec of a strict schema, from its marked form (``marked``), its final form
    (``strict``, for wire-side branch choice) and the semantic snapshot (original-side choice;
    ``semantic_nodes``: its node by ``sem`` number)."""
    if not _has_codec_marks(marked):
        return Codec(IDENTITY)
    wire_validator = Draft202012Validator(strict)
    original_validator = Draft202012Validator(semantic) if isinstance(semantic, (dict, bool)) else None
    table: dict[str, _Node] = {}

    def matcher(validator: Draft202012Validator | None, schema: Any) -> Callable[[Any], bool]:
        if validator is None:
            return lambda value: True
        bound = validator.evolve(schema=schema)
        return lambda value: bool(bound.is_valid(value))

    built: dict[int, tuple[Any, _Node]] = {}  # id -> (node kept alive so ids stay unique, its codec)

    def build(node: Any, wire: Any) -> _Node:
        """The codec of the marked ``node``; ``wire`` is the same node in ``strict`` (marks
        stripped). A subtree shared by unrolled recursion gets one codec (its meaning and its wire
        form are the same wherever it is met), so the build grows with the DAG, not the unfolding."""
        if not isinstance(node, dict):
            return IDENTITY
        if id(node) not in built:
            built[id(node)] = (node, build_node(node, wire))
        return built[id(node)][1]

    def build_node(node: dict[str, Any], wire: Any) -> _Node:
        marks = node.get(MARK, {})
        codec = marks.get("codec")
        properties: dict[str, Any] = node["properties"] if isinstance(node.get("properties"), dict) else {}
        if codec == "json":
            return _JsonText()
        if codec == "wrap":
            key = marks["key"]
            return _Wrap(key, build(properties[key], wire["properties"][key]))
        if codec == "pairs":
            value = node["items"]["properties"]["value"]
            return _Pairs(build(value, wire["items"]["properties"]["value"]))
        if codec == "tuple":
            return _Tuple([build(properties[str(i)], wire["properties"][str(i)]) for i in range(marks["positions"])],
                          frozenset(marks.get("absent_as_null", ())), frozenset(marks.get("collapsed", ())))
        if codec == "nullable":
            return _Nullable(build(node["anyOf"][0], wire["anyOf"][0]))
        if isinstance(node.get("$ref"), str) and node["$ref"].startswith("#/$defs/"):
            return _Ref(node["$ref"][len("#/$defs/"):], table)
        if node.get("$ref") == _ROOT_REF:
            return _Ref(_ROOT_REF, table)
        combinator = "anyOf" if isinstance(node.get("anyOf"), list) else "oneOf"
        if isinstance(node.get(combinator), list) and not properties:
            children = [build(branch, wire[combinator][i]) for i, branch in enumerate(node[combinator])]
            if all(child.identity for child in children):
                return IDENTITY
            branches = []
            for i, (branch, child) in enumerate(zip(node[combinator], children, strict=True)):
                sem = branch.get(MARK, {}).get("sem") if isinstance(branch, dict) else None
                original_schema = semantic_nodes.get(sem) if sem is not None else None
                wire_schema = wire[combinator][i]
                branches.append((
                    matcher(original_validator, original_schema) if original_schema is not None else matcher(wire_validator, wire_schema),
                    matcher(wire_validator, wire_schema),
                    child,
                ))
            return _AnyOf(branches)
        if properties or isinstance(node.get("additionalProperties"), dict):
            members = {name: build(sub, wire["properties"][name]) for name, sub in properties.items()}
            extra = build(node["additionalProperties"], wire["additionalProperties"]) \
                if isinstance(node.get("additionalProperties"), dict) else IDENTITY
            absent_as_null = frozenset(marks.get("absent_as_null", ()))
            collapsed = frozenset(marks.get("collapsed", ()))
            if all(child.identity for child in members.values()) and extra.identity and not absent_as_null and not collapsed:
                return IDENTITY
            return _Object(members, absent_as_null, collapsed, extra)
        prefix_nodes: list[Any] = node["prefixItems"] if isinstance(node.get("prefixItems"), list) else []
        if prefix_nodes or isinstance(node.get("items"), dict):
            prefix = [build(sub, wire["prefixItems"][i]) for i, sub in enumerate(prefix_nodes)]
            items = build(node["items"], wire["items"]) if isinstance(node.get("items"), dict) else IDENTITY
            if items.identity and all(child.identity for child in prefix):
                return IDENTITY
            return _Array(prefix, items)
        return IDENTITY

    root = build(marked, strict)
    table[_ROOT_REF] = root  # recursion through the root: `$ref: "#"` (no definition name has that character)
    definitions = marked.get("$defs", {}) if isinstance(marked, dict) else {}
    for name, sub in definitions.items():
        table[name] = build(sub, strict["$defs"][name])
    return Codec(root)

"""The vocabulary response shapes are written in: fields, objects, arrays, discriminated unions.

A shape says, for every field an SDK relies on, its JSON type and its optionality with the three
cases kept apart: may it be **absent**, may it be **null**, may it be **empty** (``""``, ``[]``,
``{}``). Each field names its source. Fields no SDK reads can still be declared (``reads=False``)
so they are not reported as unknown; a mismatch there is a notice, never an error.

Unions come in two kinds:

* :class:`Tagged`: elements carry a discriminator field (``content[].type``). An unknown value is
  additive (DR-4); a missing or non-string discriminator is drift (DR-3).
* :class:`Keyed`: the variant is whichever key is present (Gemini parts: ``text``,
  ``functionCall``...). An element with none of the keys is an unknown variant, or drift when the
  union is ``closed`` (an OpenAI chunk without ``choices``).

Shapes are immutable data; :func:`fold_shape` is the one recursive walk over them (shapes are a
few levels deep; payload walks are iterative and live in :mod:`strictconformance.drift.validator`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Literal, Protocol, TypeVar

from strictconformance.drift.paths import ANY_INDEX, PathPart, parse_path

__all__ = [
    "ANY",
    "ARRAY",
    "BOOL",
    "INT",
    "JSON_TYPES",
    "MOVABLE_OPTIONAL_OBJECTS",
    "NUMBER",
    "OBJECT",
    "STRING",
    "AnyJson",
    "ApiShape",
    "Arr",
    "Field",
    "GuardTest",
    "Invariant",
    "Keyed",
    "Obj",
    "Relation",
    "RelationKind",
    "ShapeAlgebra",
    "SplitRule",
    "StreamShape",
    "Tagged",
    "Value",
    "ValueShape",
    "accepted_types",
    "enum",
    "fold_shape",
    "info",
    "opt",
    "req",
    "shape_at",
]

JSON_TYPES: frozenset[str] = frozenset({"string", "integer", "number", "boolean", "object", "array", "null"})
#: Optional objects every SDK reads where the API reference places them (token usage: OpenAI chat
#: and Responses ``usage``, https://platform.openai.com/docs/api-reference/chat/object and
#: https://platform.openai.com/docs/api-reference/responses/object; Gemini ``usageMetadata``,
#: https://ai.google.dev/api/generate-content#generatecontentresponse). Absent is valid, but found
#: one level down under a new key it was moved: an SDK reading its place reports no usage and
#: no error, so a move is drift (DR-2/DR-3) at the field's place, not an absent field.
MOVABLE_OPTIONAL_OBJECTS: frozenset[str] = frozenset({"usage", "usageMetadata"})
JsonScalar = str | int | float | bool


@dataclass(frozen=True, eq=False)
class Value:
    """A leaf: the value must have one of ``types``; it is not looked into.

    ``known_values`` lists documented values (an enum); another value is a notice, not drift.
    ``"number"`` admits integers; ``"integer"`` admits floats with no fractional part.
    """

    types: tuple[str, ...]
    known_values: tuple[JsonScalar, ...] = ()

    def __post_init__(self) -> None:
        bad = [name for name in self.types if name not in JSON_TYPES or name == "null"]
        if not self.types or bad:
            raise ValueError(f"Value types must be JSON type names other than null (use nullable=); got {self.types}")


@dataclass(frozen=True, eq=False)
class AnyJson:
    """Any JSON value; not looked into (a tool's arguments object, a provider's metadata)."""


@dataclass(frozen=True, eq=False)
class Field:
    """One key of an object.

    ``required``: absent is drift. ``nullable``: ``null`` is accepted. ``nonempty``: ``""``,
    ``[]`` and ``{}`` are drift. ``empty_documented``: where the provider documents an empty value
    (its source): an emptied field is then additive (else emptying it is labelled only when it is
    ``nonempty`` or an invariant then fails). ``reads``: an SDK reads the field, so a mismatch is
    drift; otherwise it is a notice.
    """

    name: str
    shape: ValueShape
    source: str
    required: bool = False
    nullable: bool = False
    nonempty: bool = False
    reads: bool = True
    note: str = ""
    empty_documented: str = ""

    def __post_init__(self) -> None:
        if not self.source.strip():
            raise ValueError(f"field {self.name!r} names no source")
        if (self.nonempty or self.empty_documented) and not accepted_types(self.shape) & {"string", "array", "object"}:
            raise ValueError(f"field {self.name!r}: nonempty and empty_documented only apply to strings, arrays and objects")
        if self.nonempty and self.empty_documented:
            raise ValueError(f"field {self.name!r} cannot be both nonempty and documented as possibly empty")


@dataclass(frozen=True, eq=False)
class Obj:
    """An object with declared fields; keys not declared are reported as unknown (a notice)."""

    fields: tuple[Field, ...]
    #: False for objects modelled only loosely: their undeclared keys are not worth a notice.
    report_unknown: bool = True
    #: Keys that are known without being fields (a union's discriminator, its sibling variants).
    extra_known: frozenset[str] = frozenset()
    by_name: Mapping[str, Field] = field(init=False, repr=False)
    known: frozenset[str] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        names = [f.name for f in self.fields]
        duplicates = sorted({name for name in names if names.count(name) > 1})
        if duplicates:
            raise ValueError(f"object declares {duplicates} twice")
        object.__setattr__(self, "by_name", MappingProxyType({f.name: f for f in self.fields}))
        object.__setattr__(self, "known", frozenset(names) | self.extra_known)


@dataclass(frozen=True, eq=False)
class Arr:
    """An array whose every element has shape ``items``."""

    items: ValueShape


@dataclass(frozen=True, eq=False)
class Tagged:
    """Objects discriminated by a string field; each variant lists its own fields.

    ``common`` fields apply to every variant. :attr:`merged` holds each variant as one
    :class:`Obj` (common fields first) that knows the discriminator.
    """

    discriminator: str
    variants: Mapping[str, Obj]
    common: tuple[Field, ...] = ()
    merged: Mapping[str, Obj] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.variants:
            raise ValueError("a Tagged union needs at least one variant")
        merged = {
            name: Obj(
                (*self.common, *variant.fields),
                report_unknown=variant.report_unknown,
                extra_known=variant.extra_known | {self.discriminator},
            )
            for name, variant in self.variants.items()
        }
        object.__setattr__(self, "merged", MappingProxyType(merged))


@dataclass(frozen=True, eq=False)
class Keyed:
    """Objects whose variant is the key present (proto ``oneof``); each variant declares its key.

    ``closed``: an element with none of the keys is drift (reported as the first key missing)
    rather than an unknown variant.
    """

    variants: Mapping[str, Obj]
    common: tuple[Field, ...] = ()
    closed: bool = False
    merged: Mapping[str, Obj] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not self.variants:
            raise ValueError("a Keyed union needs at least one variant")
        for key, variant in self.variants.items():
            if key not in variant.by_name:
                raise ValueError(f"Keyed variant {key!r} must declare the field {key!r}")
        every_key = frozenset(self.variants)
        merged = {
            key: Obj(
                (*self.common, *variant.fields),
                report_unknown=variant.report_unknown,
                extra_known=variant.extra_known | every_key,
            )
            for key, variant in self.variants.items()
        }
        object.__setattr__(self, "merged", MappingProxyType(merged))


ValueShape = Value | AnyJson | Obj | Arr | Tagged | Keyed

_ALL_TYPES = JSON_TYPES - {"null"}


def accepted_types(shape: ValueShape) -> frozenset[str]:
    """The JSON type names a value of ``shape`` may have (``null`` is the field's business)."""
    if isinstance(shape, Value):
        types = frozenset(shape.types)
        return types | {"integer"} if "number" in types else types
    if isinstance(shape, AnyJson):
        return _ALL_TYPES
    if isinstance(shape, Arr):
        return frozenset({"array"})
    return frozenset({"object"})


# -- field helpers: the vocabulary the per-API modules are written in ------------------------------


def req(name: str, shape: ValueShape, source: str, *, nullable: bool = False, nonempty: bool = False, note: str = "",
        empty_documented: str = "") -> Field:
    """A field an SDK reads and cannot do without: absent is drift."""
    return Field(name, shape, source, required=True, nullable=nullable, nonempty=nonempty, note=note, empty_documented=empty_documented)


def opt(name: str, shape: ValueShape, source: str, *, nullable: bool = True, nonempty: bool = False, note: str = "",
        empty_documented: str = "") -> Field:
    """A field an SDK reads when present: absent is fine, a wrong type is drift."""
    return Field(name, shape, source, required=False, nullable=nullable, nonempty=nonempty, note=note, empty_documented=empty_documented)


def info(name: str, shape: ValueShape, source: str, *, note: str = "") -> Field:
    """A documented field no SDK relies on: declared so it is not unknown; mismatches are notices."""
    return Field(name, shape, source, required=False, nullable=True, reads=False, note=note)


def enum(*values: JsonScalar) -> Value:
    """A string with documented values; another value is a notice (new values are additive)."""
    return Value(("string",), known_values=values)


STRING = Value(("string",))
INT = Value(("integer",))
NUMBER = Value(("number",))
BOOL = Value(("boolean",))
OBJECT = Value(("object",))  # an object the shape does not look into
ARRAY = Value(("array",))  # an array the shape does not look into
ANY = AnyJson()


# -- invariants and streams ------------------------------------------------------------------------


#: Tests a guard applies to the values at its path (any value passing is enough): ``positive``, a
#: number above 0; ``single``, an array of exactly one element.
GuardTest = Literal["positive", "single"]


@dataclass(frozen=True)
class Invariant:
    """A cross-field rule (DR-5): when it applies, ``requires`` finds an element.

    Paths are relative to each place ``scope`` reaches (``""`` is the whole document).
    ``requires`` is an array path followed by ``[*]`` and optionally an element key: with
    ``variant`` set, some element's key must hold that value (``content[*].type`` =
    ``tool_use``), or one of those values when it is a tuple (the known variants of an open
    union: a chat tool call of type ``function`` or ``custom``); with ``with_keys``, some element must be an object with one of those keys
    (a proto ``oneof``'s known variants: Gemini parts), not counting elements whose keys hold
    the values in ``excluding`` (``thought: true``); with neither, the array must simply be
    non-empty (``message.tool_calls[*]``).

    It applies when every condition holds: some value at ``when`` equals ``equals`` (``every``:
    every value there does, and there is one; ``equals`` None: some value there is not null;
    ``when`` None: always), and each of ``guards`` (``(path, test)``, see :data:`GuardTest`).
    A value that is not null at ``unless`` satisfies it (an alternative the provider documents).
    """

    id: str
    description: str
    source: str
    requires: str
    when: str | None = None
    equals: JsonScalar | None = None
    every: bool = False
    guards: tuple[tuple[str, GuardTest], ...] = ()
    unless: str | None = None
    variant: JsonScalar | tuple[JsonScalar, ...] | None = None
    with_keys: tuple[str, ...] = ()
    excluding: tuple[tuple[str, JsonScalar], ...] = ()
    scope: str = ""
    rule_id: str = "DR-5"
    array_path: tuple[PathPart, ...] = field(init=False, repr=False)
    element_path: tuple[PathPart, ...] = field(init=False, repr=False)

    def __post_init__(self) -> None:
        parts = parse_path(self.requires)
        if ANY_INDEX not in parts:
            raise ValueError(f"invariant {self.id}: requires {self.requires!r} has no [*]")
        last = len(parts) - 1 - list(reversed(parts)).index(ANY_INDEX)
        object.__setattr__(self, "array_path", parts[:last])
        object.__setattr__(self, "element_path", parts[last + 1 :])
        if self.variant is not None and not self.element_path:
            raise ValueError(f"invariant {self.id}: a variant needs an element key after [*]")
        if self.variant is not None and self.with_keys:
            raise ValueError(f"invariant {self.id}: a variant or with_keys, not both")
        if (self.with_keys or self.excluding) and self.element_path:
            raise ValueError(f"invariant {self.id}: with_keys and excluding look at the elements themselves (no key after [*])")
        if self.excluding and not self.with_keys:
            raise ValueError(f"invariant {self.id}: excluding needs with_keys")
        if self.when is None and (self.equals is not None or self.every):
            raise ValueError(f"invariant {self.id}: equals and every need a when path")
        for path, test in self.guards:
            parse_path(path)
            if test not in ("positive", "single"):
                raise ValueError(f"invariant {self.id}: unknown guard test {test!r} (positive or single)")

    def variants(self) -> tuple[JsonScalar, ...]:
        """The values ``variant`` accepts (the first is the one generated responses use)."""
        if self.variant is None:
            return ()
        return self.variant if isinstance(self.variant, tuple) else (self.variant,)

    def condition(self) -> str:
        """Why the invariant applies, in words (for error messages)."""
        parts: list[str] = []
        if self.when is not None:
            if self.equals is None:
                parts.append(f"{self.when} is set")
            else:
                parts.append(f"{'every ' if self.every else ''}{self.when} is {self.equals!r}")
        for path, test in self.guards:
            parts.append(f"{path} > 0" if test == "positive" else f"{path} holds one element")
        text = f"because {' and '.join(parts)}" if parts else "always"
        return f"{text}, unless {self.unless} is set" if self.unless is not None else text


#: What a :class:`Relation` asserts: ``unique``, the values are pairwise distinct; ``sum``, the total
#: equals the sum of its parts; ``increasing``, the values strictly increase in document order.
RelationKind = Literal["unique", "sum", "increasing"]


@dataclass(frozen=True)
class Relation:
    """A relation between values of one response or stream (DR-5), checked where the values are
    of the right JSON type (a retyped value is DR-2/DR-3's business, never this one's).

    ``values`` is a path with ``[*]`` relative to each place ``scope`` reaches: ``unique`` strings
    there are pairwise distinct (tool-call ids); ``increasing`` integers strictly increase in
    document order (Responses' ``sequence_number``). For ``sum``, ``values`` is the total's path
    and ``parts`` the paths of its addends, all integers (``usage.total_tokens``). The breach is
    reported at the value that breaks it: the second of two equal ids, the first number not above
    its predecessor, the total.
    """

    id: str
    kind: RelationKind
    description: str
    source: str
    values: str
    parts: tuple[str, ...] = ()
    scope: str = ""
    rule_id: str = "DR-5"

    def __post_init__(self) -> None:
        if self.kind not in ("unique", "sum", "increasing"):
            raise ValueError(f"relation {self.id}: unknown kind {self.kind!r}")
        parsed = parse_path(self.values)
        if self.kind == "sum":
            if not self.parts or ANY_INDEX in parsed:
                raise ValueError(f"relation {self.id}: a sum names its total (no [*]) and its parts")
            for part in self.parts:
                if ANY_INDEX in parse_path(part):
                    raise ValueError(f"relation {self.id}: a sum's parts are single values (no [*])")
        elif self.parts or ANY_INDEX not in parsed:
            raise ValueError(f"relation {self.id}: {self.kind} compares the values at a path with [*], and has no parts")


@dataclass(frozen=True)
class SplitRule:
    """How one kind of stream event can be split in two (or two merged) without changing meaning.

    ``text`` is the path (inside the event data) of the string that is split. ``tail_drops``
    are removed from the second half (fields only the first fragment carries, like a tool call's
    id and name); ``head_clears`` are cleared in the first half (the finish marker, which only the
    last fragment carries), set to null or deleted per ``clear_with_null``. ``renumber`` names a
    counter to renumber afterwards (Responses' ``sequence_number``). ``same_item`` lists paths
    that must be equal for two events to be merged.
    """

    text: str
    variant: str | None = None
    tail_drops: tuple[str, ...] = ()
    head_clears: tuple[str, ...] = ()
    clear_with_null: bool = False
    renumber: str | None = None
    same_item: tuple[str, ...] = ()


@dataclass(frozen=True, eq=False)
class StreamShape:
    """A provider's SSE stream: the shape of each event's data and the sequence rules.

    ``framing="named"``: every event carries ``event:`` equal to the data's discriminator (SDKs
    dispatch on it). ``terminator``: a data sentinel that ends the stream (``[DONE]``).
    ``final_events``: the documented last event types. A missing terminator is a notice, not
    drift: real streams end without it (Cerebras sends no ``[DONE]``); a stream that ends before
    its terminal event is DR-9, judged by the event lifecycle
    (:mod:`strictconformance.drift.lifecycle`).
    """

    event: ValueShape
    source: str
    framing: Literal["data", "named"] = "data"
    terminator: str | None = None
    final_events: tuple[str, ...] = ()
    invariants: tuple[Invariant, ...] = ()
    splits: tuple[SplitRule, ...] = ()
    relations: tuple[Relation, ...] = ()

    def __post_init__(self) -> None:
        if self.framing == "named" and not isinstance(self.event, Tagged):
            raise ValueError("a stream with named events needs a Tagged event shape")


@dataclass(frozen=True, eq=False)
class ApiShape:
    """One API's response and stream shapes, with their invariants and sources."""

    api: str
    provider: str
    title: str
    endpoint: str
    response: Obj
    stream: StreamShape
    sources: tuple[str, ...]
    invariants: tuple[Invariant, ...] = ()
    notes: str = ""
    #: Relations between values of a body (DR-5): unique tool-call ids, usage totals.
    relations: tuple[Relation, ...] = ()


# -- the one walk over shapes ----------------------------------------------------------------------

T = TypeVar("T")


class ShapeAlgebra(Protocol[T]):
    """What :func:`fold_shape` needs: one method per kind of shape, children already folded."""

    def value(self, shape: Value) -> T: ...

    def any_json(self, shape: AnyJson) -> T: ...

    def obj(self, shape: Obj, fields: Sequence[tuple[Field, T]]) -> T: ...

    def array(self, shape: Arr, items: T) -> T: ...

    def tagged(self, shape: Tagged, variants: Mapping[str, T]) -> T: ...

    def keyed(self, shape: Keyed, variants: Mapping[str, T]) -> T: ...


def fold_shape(shape: ValueShape, algebra: ShapeAlgebra[T]) -> T:
    """Fold ``shape`` bottom-up with ``algebra``; shared sub-shapes are folded once.

    Union variants are folded in their merged form (common fields included).
    """
    memo: dict[int, T] = {}

    def go(node: ValueShape) -> T:
        key = id(node)
        if key in memo:
            return memo[key]
        result: T
        if isinstance(node, Value):
            result = algebra.value(node)
        elif isinstance(node, AnyJson):
            result = algebra.any_json(node)
        elif isinstance(node, Obj):
            result = algebra.obj(node, [(f, go(f.shape)) for f in node.fields])
        elif isinstance(node, Arr):
            result = algebra.array(node, go(node.items))
        elif isinstance(node, Tagged):
            result = algebra.tagged(node, {name: go(variant) for name, variant in node.merged.items()})
        else:
            result = algebra.keyed(node, {key_: go(variant) for key_, variant in node.merged.items()})
        memo[key] = result
        return result

    return go(shape)


def shape_at(root: ValueShape, path: str | Sequence[PathPart]) -> list[ValueShape]:
    """The shapes a wildcard path reaches from ``root`` (every variant that declares the key)."""
    parts = parse_path(path) if isinstance(path, str) else tuple(path)
    current: list[ValueShape] = [root]
    for part in parts:
        following: list[ValueShape] = []
        for node in current:
            if isinstance(part, str):
                objects: list[Obj] = []
                if isinstance(node, Obj):
                    objects = [node]
                elif isinstance(node, (Tagged, Keyed)):
                    objects = list(node.merged.values())
                following.extend(o.by_name[part].shape for o in objects if part in o.by_name)
            elif isinstance(node, Arr):
                following.append(node.items)
        current = following
    return current


"""RT-8's oracle: a witness (a value the schema accepts) built constructively, not drawn.

:func:`build_witness` walks a schema of the strict subsets (objects with their required
properties, ``anyOf`` by its first satisfiable branch, ``enum``/``const``, string and number
bounds, arrays with ``minItems``, local ``$ref`` with recursion cut where it re-enters a reference
it is already building, so an optional property or a nullable branch is the exit) and returns one
of three verdicts: a :class:`Witness` (a value, to be confirmed by the validator), an
:class:`Unsatisfiable` (a proof that no value exists, naming the pointer and why: ``false``, an
empty ``enum``, a minimum over its maximum, a required recursive property with no exit...), or
:class:`Undecided` (a keyword it does not reason about, e.g. ``pattern``: no verdict).

It is written apart from the reference strictify (which it judges) and from value generation (a
drawn value finds a witness by luck; this one is built). A proof is claimed only where it is
sound for the keywords met; where keywords are combined (``allOf``, an ``anyOf`` beside other
constraints) a failed construction is :class:`Undecided`, never a proof.
"""

from __future__ import annotations

import importlib
import math
import re
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from decimal import Decimal
from typing import Any

from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]

from strictconformance.dialects.model import Loss
from strictconformance.dialects.pointers import join_pointer, resolve_local_reference
from strictconformance.findings import Finding

__all__ = ["Undecided", "Unsatisfiable", "Witness", "build_witness", "check_rt8_satisfiable", "variations", "witness_of"]

#: Steps of construction before giving up (Undecided): a schema of many branches stays cheap.
MAX_STEPS = 20_000
_ANNOTATIONS = frozenset({"title", "description", "default", "examples", "$comment", "deprecated", "readOnly",
                          "writeOnly", "$schema", "$id", "$anchor", "$defs", "definitions", "propertyOrdering",
                          "format", "contentEncoding", "contentMediaType"})
_TYPE_ORDER = ("null", "boolean", "integer", "number", "string", "array", "object")
_FORMAT_SAMPLES = {"date-time": "2024-01-01T00:00:00Z", "date": "2024-01-01", "time": "00:00:00Z",
                   "email": "a@example.com", "uri": "https://example.com", "uuid": "00000000-0000-0000-0000-000000000000",
                   "ipv4": "127.0.0.1", "ipv6": "::1", "hostname": "example.com", "duration": "P1D"}


@dataclass(frozen=True)
class Witness:
    """A value built for the schema."""

    value: Any


@dataclass(frozen=True)
class Unsatisfiable:
    """No value exists: why, and the pointer of the node that admits none."""

    pointer: str
    reason: str


@dataclass(frozen=True)
class Undecided:
    """The constructor could not build a value and cannot prove there is none."""

    pointer: str
    reason: str


Verdict = Witness | Unsatisfiable | Undecided


class _Builder:
    def __init__(self, root: Any) -> None:
        self.root = root
        self.steps = 0
        self.building: list[str] = []  # references being built, innermost last

    def build(self, node: Any, pointer: str) -> Verdict:
        self.steps += 1
        if self.steps > MAX_STEPS:
            return Undecided(pointer, f"gave up after {MAX_STEPS} steps")
        if node is True:
            return Witness(None)
        if node is False:
            return Unsatisfiable(pointer, "the schema is `false`")
        if not isinstance(node, Mapping):
            return Undecided(pointer, "not a schema")
        if "$ref" in node:
            return self._reference(node, pointer)
        if "not" in node and node["not"] in ({}, True):
            return Unsatisfiable(pointer, "`not` of a schema that accepts everything")
        if "allOf" in node:
            return self._all_of(node, pointer)
        for keyword in ("anyOf", "oneOf"):
            if keyword in node:
                return self._any_of(node, keyword, pointer)
        return self._typed(node, pointer)

    def _reference(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        reference = node["$ref"]
        found = resolve_local_reference(self.root, reference) if isinstance(reference, str) else None
        if found is None:
            return Undecided(pointer, f"`$ref` {reference!r} does not resolve locally")
        target_pointer, target = found
        if target_pointer in self.building:
            # a minimal witness never re-enters the reference it is building: cut here, so the
            # caller takes an exit (an optional property left out, another branch, fewer items)
            return Unsatisfiable(pointer, f"recursion into {target_pointer or '#'} with no exit on this path")
        siblings = {key: value for key, value in node.items() if key != "$ref" and key not in _ANNOTATIONS}
        self.building.append(target_pointer)
        try:
            verdict = self.build(target, target_pointer)
        finally:
            self.building.pop()
        if siblings and isinstance(verdict, Witness):
            return self._confirmed(verdict, node, pointer)
        if siblings and isinstance(verdict, Unsatisfiable) and "recursion" not in verdict.reason:
            return verdict  # the target alone admits nothing: with siblings, still nothing
        return verdict

    def _all_of(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        members = node["allOf"]
        if not isinstance(members, list):
            return Undecided(pointer, "`allOf` is not a list")
        for index, member in enumerate(members):
            verdict = self.build(member, join_pointer(pointer, "allOf", index))
            if isinstance(verdict, Unsatisfiable) and "recursion" not in verdict.reason:
                return verdict  # one member admits nothing: neither does the conjunction
        merged: dict[str, Any] = {key: value for key, value in node.items() if key != "allOf"}
        for member in members:
            if isinstance(member, Mapping):
                for key, value in member.items():
                    merged.setdefault(key, value)
        verdict = self.build(merged, pointer)
        return self._confirmed(verdict, node, pointer) if isinstance(verdict, Witness) else Undecided(pointer, "`allOf` not merged")

    def _any_of(self, node: Mapping[str, Any], keyword: str, pointer: str) -> Verdict:
        branches = node[keyword]
        if not isinstance(branches, list):
            return Undecided(pointer, f"`{keyword}` is not a list")
        siblings = {key: value for key, value in node.items() if key != keyword and key not in _ANNOTATIONS}
        proofs: list[Unsatisfiable] = []
        undecided: Undecided | None = None
        for index, branch in enumerate(branches):
            here = join_pointer(pointer, keyword, index)
            if siblings and isinstance(branch, Mapping):
                verdict = self.build({**siblings, **branch}, here)
                if isinstance(verdict, Unsatisfiable):
                    alone = self.build(branch, here)
                    verdict = alone if isinstance(alone, Unsatisfiable) else Undecided(here, "a branch with its siblings")
            else:
                verdict = self.build(branch, here)
            if isinstance(verdict, Witness):
                confirmed = self._confirmed(verdict, node, pointer)
                if isinstance(confirmed, Witness):
                    return confirmed
                undecided = undecided or confirmed  # type: ignore[assignment]
            elif isinstance(verdict, Unsatisfiable):
                proofs.append(verdict)
            else:
                undecided = undecided or verdict
        if undecided is not None:
            return undecided
        if not branches:
            return Unsatisfiable(pointer, f"`{keyword}` has no branch")
        recursive = any("recursion" in proof.reason for proof in proofs)
        return Unsatisfiable(pointer, f"no branch of `{keyword}` admits a value" + (" (recursion with no exit)" if recursive else ""))

    def _typed(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        declared_types = _declared_types(node)
        if "const" in node:
            if declared_types is not None and not _of_types(node["const"], declared_types):
                return Unsatisfiable(pointer, "`const` is not of the declared `type`")
            return self._confirmed(Witness(node["const"]), node, pointer)
        if "enum" in node:
            values = node["enum"]
            if isinstance(values, list) and not values:
                return Unsatisfiable(pointer, "`enum` is empty")
            if isinstance(values, list) and declared_types is not None and not any(_of_types(value, declared_types) for value in values):
                return Unsatisfiable(pointer, "no `enum` value is of the declared `type`")
            for value in values if isinstance(values, list) else ():
                confirmed = self._confirmed(Witness(value), node, pointer)
                if isinstance(confirmed, Witness):
                    return confirmed
            return Undecided(pointer, "no `enum` value confirmed")
        declared = node.get("type")
        types = [declared] if isinstance(declared, str) else list(declared) if isinstance(declared, list) else None
        if types is not None and not types:
            return Unsatisfiable(pointer, "`type` is an empty list")
        candidates = [t for t in _TYPE_ORDER if t in types] if types is not None else _implied_types(node)
        proofs: list[Unsatisfiable] = []
        undecided: Undecided | None = None
        for kind in candidates:
            verdict = getattr(self, f"_{kind}")(node, pointer)
            if isinstance(verdict, Witness):
                return verdict
            if isinstance(verdict, Unsatisfiable):
                proofs.append(verdict)
            else:
                undecided = undecided or verdict
        if undecided is not None or not proofs:
            return undecided or Undecided(pointer, "no type to build")
        return proofs[0] if len(proofs) == 1 else Unsatisfiable(pointer, "; ".join(proof.reason for proof in proofs))

    def _confirmed(self, witness: Witness, node: Mapping[str, Any], pointer: str) -> Verdict:
        """``witness`` if ``node`` (read in the root document) accepts it, else Undecided."""
        if _accepts(self.root, node, witness.value):
            return witness
        return Undecided(pointer, "a value was built but the schema does not accept it")

    # -- one constructor per type ---------------------------------------------------------------

    def _null(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        return Witness(None)

    def _boolean(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        return Witness(False)

    def _integer(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        return self._number(node, pointer, integer=True)

    def _number(self, node: Mapping[str, Any], pointer: str, *, integer: bool = False) -> Verdict:
        low, high, low_open, high_open = _bounds(node)
        if low is not None and high is not None and (low > high or (low == high and (low_open or high_open))):
            return Unsatisfiable(pointer, f"its lower bound {_number_text(low)} is over its upper bound {_number_text(high)}")
        step = node.get("multipleOf")
        unit = Decimal(str(step)) if isinstance(step, (int, float)) and not isinstance(step, bool) and step > 0 else None
        if integer:
            unit = unit if unit is not None and unit == unit.to_integral_value() else (None if unit is None else unit)
        start = Decimal(0) if low is None or (low < 0 and (high is None or high >= 0)) else low
        if low is not None and (start < low or (start == low and low_open)):
            start = low
        candidate = _next_allowed(start, low, low_open, unit, integer)
        if candidate is None:
            return Undecided(pointer, "`multipleOf` with a non-integer step on an integer")
        if high is not None and (candidate > high or (candidate == high and high_open)):
            if unit is None and integer:
                return Unsatisfiable(pointer, f"no integer between {_number_text(low)} and {_number_text(high)}")
            return Undecided(pointer, "no multiple found within the bounds") if unit is not None else Undecided(pointer, "bounds")
        value: Any = int(candidate) if integer or candidate == candidate.to_integral_value() else float(candidate)
        return self._confirmed(Witness(value), {**node, "type": "integer" if integer else "number"}, pointer)

    def _string(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        low, high = node.get("minLength", 0), node.get("maxLength")
        if isinstance(high, int) and isinstance(low, int) and low > high:
            return Unsatisfiable(pointer, f"minLength {low} is over maxLength {high}")
        sample = _FORMAT_SAMPLES.get(str(node.get("format")), "")
        length = low if isinstance(low, int) else 0
        candidates = [sample, "a" * length] if sample and len(sample) >= length else ["a" * length]
        pattern = node.get("pattern")
        if isinstance(pattern, str):
            matched = _string_matching(pattern)
            if matched is not None:
                # a pattern search matches anywhere: pad with its own characters to the length bounds
                candidates = [matched, matched + (matched[-1:] or "a") * max(0, length - len(matched)), *candidates]
        for candidate in candidates:
            confirmed = self._confirmed(Witness(candidate), {**node, "type": "string"}, pointer)
            if isinstance(confirmed, Witness):
                return confirmed
        return Undecided(pointer, "no string built (a `pattern`?)")

    def _array(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        low, high = node.get("minItems", 0), node.get("maxItems")
        low = low if isinstance(low, int) else 0
        if isinstance(high, int) and low > high:
            return Unsatisfiable(pointer, f"minItems {low} is over maxItems {high}")
        prefix = node.get("prefixItems", [])
        prefix = prefix if isinstance(prefix, list) else []
        items: list[Any] = []
        for index in range(low):
            if index < len(prefix):
                schema, here = prefix[index], join_pointer(pointer, "prefixItems", index)
            else:
                schema, here = node.get("items", True), join_pointer(pointer, "items")
            verdict = self.build(schema, here)
            if not isinstance(verdict, Witness):
                return verdict
            items.append(verdict.value)
        if node.get("uniqueItems") is True and len({repr(item) for item in items}) < len(items):
            return Undecided(pointer, "unique items not built")
        return self._confirmed(Witness(items), {**node, "type": "array"}, pointer)

    def _object(self, node: Mapping[str, Any], pointer: str) -> Verdict:
        properties = node.get("properties", {})
        properties = properties if isinstance(properties, Mapping) else {}
        required = [name for name in node.get("required", []) if isinstance(name, str)] if isinstance(node.get("required"), list) else []
        extra = node.get("additionalProperties", True)
        value: dict[str, Any] = {}
        for name in dict.fromkeys(required):
            if name in properties:
                schema, here = properties[name], join_pointer(pointer, "properties", name)
            elif "patternProperties" in node:
                return Undecided(pointer, "a required name under `patternProperties`")
            else:
                schema, here = extra, join_pointer(pointer, "additionalProperties")
                if extra is False:
                    return Unsatisfiable(pointer, f"required {name!r} is not among the properties and no other property is allowed")
            verdict = self.build(schema, here)
            if not isinstance(verdict, Witness):
                if isinstance(verdict, Unsatisfiable):
                    return Unsatisfiable(verdict.pointer, f"required property {name!r}: {verdict.reason}")
                return verdict
            value[name] = verdict.value
        most = node.get("maxProperties")
        if isinstance(most, int) and len(value) > most:
            return Unsatisfiable(pointer, f"{len(value)} required properties but maxProperties {most}")
        least = node.get("minProperties", 0)
        for name, schema in properties.items():
            if not isinstance(least, int) or len(value) >= least:
                break
            if name not in value:
                verdict = self.build(schema, join_pointer(pointer, "properties", name))
                if isinstance(verdict, Witness):
                    value[name] = verdict.value
        if isinstance(least, int) and len(value) < least:
            if extra is False and "patternProperties" not in node:
                return Unsatisfiable(pointer, f"minProperties {least} but only {len(value)} properties can be present")
            filler = self.build(extra, join_pointer(pointer, "additionalProperties"))
            if not isinstance(filler, Witness) or "patternProperties" in node:
                return Undecided(pointer, "minProperties beyond the listed properties")
            names = (f"extra{index}" for index in range(least + len(properties)))
            for name in names:
                if len(value) >= least:
                    break
                if name not in properties:
                    value[name] = filler.value
        return self._confirmed(Witness(value), {**node, "type": "object"}, pointer)


def _string_matching(pattern: str) -> str | None:
    """A short string ``pattern`` matches (its literals, a class's first member, a repeat's least
    count, an alternation's first branch); None where the pattern is beyond this (lookaround...)."""
    try:
        parser: Any = importlib.import_module("re._parser")  # Python 3.11+
    except ImportError:  # pragma: no cover - Python 3.10
        parser = importlib.import_module("sre_parse")
    try:
        parsed = parser.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return None

    def emit(items: Any, depth: int = 0) -> str | None:
        if depth > 50:
            return None
        out = []
        for op, argument in items:
            name = str(op).upper()
            if name == "LITERAL":
                out.append(chr(argument))
            elif name == "NOT_LITERAL":
                out.append("a" if argument != ord("a") else "b")
            elif name == "ANY":
                out.append("a")
            elif name == "IN":
                member = _class_member(argument)
                if member is None:
                    return None
                out.append(member)
            elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
                least, _, body = argument
                inner = emit(body, depth + 1)
                if inner is None:
                    return None
                out.append(inner * least)
            elif name == "SUBPATTERN":
                inner = emit(argument[-1], depth + 1)
                if inner is None:
                    return None
                out.append(inner)
            elif name == "BRANCH":
                inner = emit(argument[1][0], depth + 1)
                if inner is None:
                    return None
                out.append(inner)
            elif name == "AT":
                continue  # ^ and $ hold for the whole string built
            elif name == "ATOMIC_GROUP":
                inner = emit(argument, depth + 1)
                if inner is None:
                    return None
                out.append(inner)
            else:
                return None  # lookaround, backreference, category outside a class...
        return "".join(out)

    built = emit(parsed)
    return built if built is not None and re.search(pattern, built) else None


def _class_member(items: Any) -> str | None:
    """One character of a character class (``[...]``), or None for a negated or unusual one."""
    for op, argument in items:
        name = str(op).upper()
        if name == "NEGATE":
            return None
        if name == "LITERAL":
            return chr(argument)
        if name == "RANGE":
            return chr(argument[0])
        if name == "CATEGORY":
            return {"CATEGORY_DIGIT": "0", "CATEGORY_WORD": "a", "CATEGORY_SPACE": " ", "CATEGORY_NOT_DIGIT": "a",
                    "CATEGORY_NOT_WORD": "-", "CATEGORY_NOT_SPACE": "a"}.get(str(argument).upper())
    return None


def _declared_types(node: Mapping[str, Any]) -> list[str] | None:
    """The node's ``type`` as a list (None: no ``type``, or one that is not a string or list of them)."""
    declared = node.get("type")
    if isinstance(declared, str):
        return [declared]
    if isinstance(declared, list) and all(isinstance(name, str) for name in declared):
        return list(declared)
    return None


def _of_types(value: Any, types: Sequence[str]) -> bool:
    """Whether ``value`` is an instance of one of the JSON ``types`` (an integral float is an integer)."""
    if value is None:
        return "null" in types
    if isinstance(value, bool):
        return "boolean" in types
    if isinstance(value, (int, float)):
        integral = isinstance(value, int) or (isinstance(value, float) and value.is_integer())
        return "number" in types or (integral and "integer" in types)
    if isinstance(value, str):
        return "string" in types
    if isinstance(value, list):
        return "array" in types
    if isinstance(value, Mapping):
        return "object" in types
    return True  # not a JSON value: no proof


def _implied_types(node: Mapping[str, Any]) -> list[str]:
    """The types to try for a node with no ``type``: any (null first), as JSON Schema says."""
    return list(_TYPE_ORDER)


def _bounds(node: Mapping[str, Any]) -> tuple[Decimal | None, Decimal | None, bool, bool]:
    def number(key: str) -> Decimal | None:
        value = node.get(key)
        if isinstance(value, bool) or not isinstance(value, (int, float)) or (isinstance(value, float) and not math.isfinite(value)):
            return None
        return Decimal(str(value))
    low, high = number("minimum"), number("maximum")
    low_open = high_open = False
    exclusive_low, exclusive_high = number("exclusiveMinimum"), number("exclusiveMaximum")
    if exclusive_low is not None and (low is None or exclusive_low >= low):
        low, low_open = exclusive_low, True
    if exclusive_high is not None and (high is None or exclusive_high <= high):
        high, high_open = exclusive_high, True
    return low, high, low_open, high_open


def _next_allowed(start: Decimal, low: Decimal | None, low_open: bool, unit: Decimal | None, integer: bool) -> Decimal | None:
    """The smallest allowed number at or above ``start`` (a multiple of ``unit``, an integer)."""
    candidate = start
    if integer:
        candidate = candidate.to_integral_value(rounding="ROUND_CEILING")
    if low is not None and low_open and candidate <= low:
        candidate = (low + 1).to_integral_value(rounding="ROUND_FLOOR") if integer else low + (unit or Decimal("0.5"))
    if unit is not None:
        multiple = (candidate / unit).to_integral_value(rounding="ROUND_CEILING") * unit
        if low is not None and low_open and multiple <= low:
            multiple += unit
        if integer and multiple != multiple.to_integral_value():
            # the least common multiple of `unit` and 1 lies within a few steps when `unit` is decimal
            for _ in range(1000):
                if multiple == multiple.to_integral_value():
                    break
                multiple += unit
            else:
                return None
        candidate = multiple
    return candidate


def _number_text(value: Decimal | None) -> str:
    return "none" if value is None else format(value.normalize(), "f")


def _accepts(root: Any, node: Mapping[str, Any], value: Any) -> bool:
    """Whether ``node`` (a subschema of ``root``, whose ``$defs`` its references read) accepts ``value``."""
    if node is root:
        schema: Any = node
    else:
        schema = {**node}
        for keyword in ("$defs", "definitions"):
            if isinstance(root, Mapping) and keyword in root and keyword not in schema:
                schema[keyword] = root[keyword]
        if any(isinstance(ref, str) and ref.startswith("#/") and not ref.startswith(("#/$defs", "#/definitions"))
               for ref in _refs(node)):
            return True  # a reference into the root's own tree: the final check on the whole value decides
    try:
        return bool(validator_for(schema, default=Draft202012Validator)(schema).is_valid(value))
    except Exception:  # a schema jsonschema cannot read: the final check decides
        return True


def _refs(node: Any) -> list[Any]:
    found, stack = [], [node]
    while stack:
        item = stack.pop()
        if isinstance(item, Mapping):
            if "$ref" in item:
                found.append(item["$ref"])
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return found


def build_witness(schema: Any) -> Verdict:
    """A witness of ``schema``, a proof that it has none, or no verdict (see the module)."""
    return _Builder(schema).build(schema, "")


def witness_of(schema: Any) -> Verdict:
    """:func:`build_witness`, confirmed on the whole schema by the validator: a Witness is a value
    ``schema`` accepts; a built value it rejects is Undecided."""
    verdict = build_witness(schema)
    if isinstance(verdict, Witness):
        try:
            accepted = validator_for(schema, default=Draft202012Validator)(schema).is_valid(verdict.value)
        except Exception as error:  # a schema jsonschema cannot read
            return Undecided("", f"the validator cannot read the schema: {type(error).__name__}")
        if not accepted:
            return Undecided("", "the value built is rejected by the validator")
    return verdict


_NOTHING = object()

#: What a variation puts at a place of a witness: one value of each JSON type, and an edge or two.
_PROBES: tuple[Any, ...] = (None, 0, -1, 1.5, "", "x", True, [], {})


def variations(value: Any, limit: int = 400) -> Iterator[Any]:
    """Values near ``value`` (a witness): each place (the value itself, an item, a property's value)
    replaced by a probe of every JSON type, each array given one more item of each, each object one
    more key of each. A fixed case's strict schema and its original differ at such places when a
    keyword was loosened (``items: {}`` where the original said more): constructed, they meet the
    difference that drawn values may miss. At most ``limit`` values, the shallowest places first."""
    produced = 0
    queue: list[tuple[tuple[Any, ...], Any]] = [((), value)]
    while queue and produced < limit:
        path, here = queue.pop(0)
        changes: list[Any] = list(_PROBES)
        if isinstance(here, list):
            changes += [[*here, probe] for probe in _PROBES]
            queue.extend(((*path, index), item) for index, item in enumerate(here))
        elif isinstance(here, dict):
            changes += [{**here, "extra_key": probe} for probe in _PROBES]
            queue.extend(((*path, key), item) for key, item in here.items())
        for change in changes:
            if change == here and type(change) is type(here):
                continue
            yield _replaced(value, path, change)
            produced += 1
            if produced >= limit:
                return


def _replaced(value: Any, path: tuple[Any, ...], new: Any) -> Any:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(value, list):
        return [(_replaced(item, rest, new) if index == head else item) for index, item in enumerate(value)]
    return {key: (_replaced(item, rest, new) if key == head else item) for key, item in value.items()}


def check_rt8_satisfiable(original: Any, strict: Any, original_value: Any = _NOTHING, losses: Sequence[Loss] = ()) -> Finding | None:
    """RT-8: when ``original`` has a value (``original_value``, else one built by
    :func:`witness_of`), the ``strict`` schema has one too. A finding only for a proof that the
    strict schema has none (an undecided construction is no verdict). Where a reported loss
    narrows the untyped root to the strict root's types, the original's values of those types
    count (a root that only non-objects satisfy, made an object, has none to keep)."""
    if original_value is _NOTHING:
        built = witness_of(original)
        if not isinstance(built, Witness):
            return None  # not known to have a value: nothing to preserve
        original_value = built.value
    verdict = witness_of(strict)
    if not isinstance(verdict, Unsatisfiable):
        return None
    narrowed_root = any(loss.pointer == "" and loss.kind == "narrowed" and loss.keyword == "type" for loss in losses)
    kept_types = strict.get("type") if isinstance(strict, Mapping) else None
    if narrowed_root and kept_types is not None:
        survivor = witness_of({"allOf": [original, {"type": kept_types}]})
        if not isinstance(survivor, Witness):
            return None  # the original has no value of the types the reported narrowing keeps
        original_value = survivor.value
    return Finding(
        rule="RT-8", kind="violation", key=f"RT-8 violation: {_proof_kind(verdict.reason)}",
        message=(f"the original schema has a value but the strict schema has none: at {verdict.pointer or '/'}, "
                 f"{verdict.reason}"),
        where=verdict.pointer or None,
        counterexample={"schema": original, "a value of the original": original_value, "strict": strict,
                        "why the strict schema has no value": f"{verdict.pointer or '/'}: {verdict.reason}"},
    )


def _proof_kind(reason: str) -> str:
    """What kind of proof ``reason`` is, for a finding's key (distinct bugs, distinct keys)."""
    for marker, kind in (("properties can be present", "minProperties over the properties allowed"), ("recursion", "a required recursion with no exit"), ("`enum` is empty", "an empty enum"),
                         ("of the declared `type`", "an enum or const of another type"),
                         ("`false`", "a `false` schema where a value is needed"), ("`not`", "`not` of everything"),
                         ("over", "a lower bound over its upper bound"), ("no integer", "no integer between the bounds"),
                         ("not among the properties", "a required name no property allows"), ("no branch", "no satisfiable branch"),
                         ("properties can be present", "minProperties over the properties allowed"),
                         ("required properties but maxProperties", "maxProperties under the required properties")):
        if marker in reason:
            return kind
    return "no value"

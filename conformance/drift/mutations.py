"""Drift mutations of real responses, each labelled breaking or additive with its expected path.

A mutation is a pure transform of a response (a JSON body or an SSE stream) at a *site* its
shape declares, found by a walk of the shape data independent of the reference validator
(:func:`~strictconformance.drift.sites.response_sites`):

======================== ==================================================== ====================
kind                     change                                               label
======================== ==================================================== ====================
``drop_field``           remove a required field an SDK reads, or an          breaking, DR-2/3;
                         optional one an invariant needs (Gemini ``content``) DR-5 for those
``move_field``           move it under a new key (``tool.metadata.id``);      breaking, DR-2/3
                         also the optional objects SDKs read (``usage``,
                         ``usageMetadata``)
``change_type``          give a field an unaccepted JSON type                 breaking, DR-2/3
``null_field``           set a non-nullable field to ``null``                 breaking, DR-2/3
``empty_field``          empty a string, array or object: ``id: ""``,         breaking, DR-2/3 where
                         ``choices: []``, ``content: []``                     declared non-empty;
                                                                              DR-5 when an invariant
                                                                              then fails; additive
                                                                              (DR-4) where the
                                                                              provider documents it
``break_relation``       break a relation between values: a tool-call id      breaking, DR-5
                         used twice, ``usage.total_tokens`` off by one, a
                         stream ``sequence_number`` not above the last one
``rename_discriminator`` rename a variant (``tool_use`` -> ``function_call``; breaking (DR-5) when
                         a Gemini part's ``functionCall`` key likewise)       an invariant then
                                                                              fails, else additive
``add_unknown_variant``  insert an element (or stream event) of a new type    additive, DR-4
``add_unknown_field``    add an undeclared key to an object                   additive, DR-4
``resplit_stream``       split one delta event in two, or merge two           not breaking, DR-1
``new_stop_reason``      a stop or finish reason of a new value beside the    additive, DR-4 (and
                         response's tool calls                                DR-7: the calls stay)
``break_lifecycle``      take a stream off its event lifecycle: a delta       breaking, DR-8;
                         before its start or for an index never opened,       DR-9 for a cut
                         fragments that do not join into JSON, events
                         reordered or duplicated, a block never closed, an
                         event after the terminal one, the stream cut before
                         its terminal event
======================== ==================================================== ====================

A renamed start or stop event (``content_block_start``, ``response.output_item.added``...) is
breaking too: the lifecycle data (:mod:`strictconformance.drift.lifecycle`) labels it, DR-8 (or
DR-9 for a renamed terminal event) at the first event the stream then leaves its lifecycle.

``change_type`` tries the near misses first: a boolean for an integer or a number (``True`` is an
``int`` in Python, so a check written ``isinstance(x, int)`` lets it by), an integer for a boolean
(``1 == True``), a numeric string for a number (lax validation coerces it), a number for a string,
an array for an object and the reverse.

DR-3 replaces DR-2 when the site lies inside an element of a discriminated union. Labels come
from the shape's declarations (required, nullable, accepted types) and, for renames, from the
shape's invariants; they never come from running the validator on the mutated response.

:func:`mutation_candidates` lists what can be mutated with the possible choices;
:func:`apply_mutation` builds one mutation; :func:`all_mutations` applies every candidate's first
choice (a deterministic sweep). ``strictconformance.strategies.responses`` draws from these.
"""

from __future__ import annotations

import copy
import dataclasses
import json
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Literal, get_args

from strictconformance.drift.errors import bounded_json, json_type
from strictconformance.drift.fidelity import expected_parse
from strictconformance.drift.lifecycle import (
    Lifecycle,
    claimed_by_a_later_event,
    lifecycle_breaches,
    lifecycle_of,
)
from strictconformance.drift.paths import (
    ANY_INDEX,
    PathPart,
    format_path,
    parse_path,
    paths_match,
    resolve_path,
)
from strictconformance.drift.shapes import get_shape
from strictconformance.drift.shapes.model import (
    MOVABLE_OPTIONAL_OBJECTS,
    AnyJson,
    ApiShape,
    Arr,
    Field,
    Keyed,
    Obj,
    Relation,
    SplitRule,
    Tagged,
    Value,
    ValueShape,
    accepted_types,
    fold_shape,
)
from strictconformance.drift.sites import response_sites, stream_sites
from strictconformance.drift.sse import SSEEvent
from strictconformance.drift.unread import UnreadField, unread_at
from strictconformance.drift.validator import (
    ArraySite,
    FieldSite,
    ObjectSite,
    Site,
    UnionSite,
    invariant_blame,
    load_json_text,
    stream_document,
    violated_invariants,
    violated_relations,
)

__all__ = [
    "BREAKING_KINDS",
    "MUTATION_KINDS",
    "Candidate",
    "DriftMutation",
    "MutationKind",
    "ResponseSubject",
    "all_mutations",
    "apply_mutation",
    "candidate_label",
    "mutation_candidates",
]

MutationKind = Literal[
    "drop_field",
    "move_field",
    "change_type",
    "null_field",
    "empty_field",
    "break_relation",
    "rename_discriminator",
    "add_unknown_variant",
    "add_unknown_field",
    "resplit_stream",
    "new_stop_reason",
    "break_lifecycle",
]
MUTATION_KINDS: tuple[MutationKind, ...] = get_args(MutationKind)
#: Kinds that are always breaking (a rename is breaking only when an invariant fails).
BREAKING_KINDS: frozenset[str] = frozenset({"drop_field", "move_field", "change_type", "null_field", "break_relation",
                                            "break_lifecycle"})

#: Replacement values by JSON type, for change_type.
_REPLACEMENTS: dict[str, object] = {
    "string": "drift",
    "integer": 7,
    "number": 0.5,
    "boolean": True,
    "object": {"drift": 1},
    "array": ["drift"],
}
#: The near misses of each accepted type, tried first: values a lax or Python-typed check takes
#: for that type (``isinstance(True, int)``; ``1 == True``; pydantic's lax mode reads ``"7"`` as 7).
_NEAR_MISSES: dict[str, tuple[object, ...]] = {
    "integer": (True, "7"),
    "number": (True, "0.5"),
    "boolean": (1, "true"),
    "string": (7, 0.5),
    "object": (["drift"],),
    "array": ({"drift": 1},),
}
_EMPTY: dict[str, object] = {"string": "", "array": [], "object": {}}
#: New field names: synthetic on purpose. A realistic name (``moderation``, ``obfuscation``,
#: ``caller``...) may already be a typed field the SDK under test knows at that place, where the
#: kit's shapes do not list it (openai-python 3.54 types ``moderation`` on chat chunks): adding it
#: with an arbitrary value is then a type change for that SDK, and DR-4 would cry wolf.
FRESH_FIELDS = ("sc_new_field", "sc_new_metadata", "x_sc_trace")
#: Realistic renames of variants; anything else gets a ``_v2`` suffix. Never a camelCase key's
#: snake_case spelling (see :func:`_renamed`).
RENAMES = {
    "tool_use": "function_call",
    "text": "output_text",
    "function": "tool",
    "function_call": "tool_call",
    "message": "assistant_message",
    "thinking": "reasoning",
    "functionCall": "functionInvocation",
    "choices": "choice",
    "content_block_start": "content_block_begin",
}
#: New variant tags, synthetic for the same reason (``tool_reference`` is a real Anthropic block).
FRESH_VARIANTS = ("fancy_new_block", "sc_new_block", "sc_new_delta")
_MOVED_UNDER = "metadata_v2"
#: The stop reason's field per API family (chat ``finish_reason``, Anthropic ``stop_reason``,
#: Gemini ``finishReason``) and the new value given to it beside tool calls. A new value is
#: additive (DR-4: documented values are listed, not closed; Anthropic's
#: https://docs.anthropic.com/en/api/handling-stop-reasons has clients handle values they do not
#: know): the response's tool calls are still to be run, and DR-7 checks the SDK still reports them.
STOP_REASON_FIELDS = frozenset({"finish_reason", "stop_reason", "finishReason"})
NEW_STOP_REASON = "sc_new_stop_reason"


@dataclass(frozen=True)
class ResponseSubject:
    """What a drift check is called on: one JSON body, or one stream's events."""

    api: str
    payload: Any = None
    events: tuple[SSEEvent, ...] | None = None
    #: Where it comes from (``openai/chat/tool_call.yaml#0`` for a recorded response), if known.
    source: str | None = field(default=None, compare=False)

    @property
    def is_stream(self) -> bool:
        return self.events is not None

    def describe(self, limit: int = 4000) -> str:
        """The subject as JSON text (streams as a list of ``{event, data}``), for counterexamples."""
        if self.events is not None:
            return bounded_json([{"event": e.event, "data": e.data} for e in self.events], limit)
        return bounded_json(self.payload, limit)


@dataclass(frozen=True)
class DriftMutation:
    """A mutated response, what changed and whether a drift check must catch it (and where)."""

    kind: MutationKind
    breaking: bool
    rule_id: str
    path: str
    description: str
    subject: ResponseSubject
    original: ResponseSubject
    #: What kind of change this is, finer than ``kind`` where one kind covers several
    #: (``change_type:bool_int``, ``break_relation:unique`` or ``:sum`` or ``:increasing``): a finding's key names
    #: it, so an SDK that misses two families shows two findings.
    family: str = ""

    @property
    def api(self) -> str:
        return self.subject.api

    def summary(self) -> str:
        """One line: what changed, where it must be caught, and what it was made from."""
        label = "breaking" if self.breaking else "not breaking"
        made_from = f" of {self.original.source}" if self.original.source else ""
        return f"{self.kind} at {self.path}{made_from} ({self.api}, {label}, {self.rule_id}): {self.description}"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        # Hypothesis prints drawn values with this; the full subject is in the suite's counterexample.
        printer.text(f"<DriftMutation {self.summary()}>")


@dataclass(frozen=True)
class Candidate:
    """A place a mutation of ``kind`` can happen, and the choices it can take there."""

    kind: MutationKind
    site: Site | None
    event_index: int | None
    choices: tuple[Any, ...]
    split: SplitRule | None = None
    #: A finer family than the kind, when one kind covers several things (``break_relation:sum``).
    variety: str = ""

    @property
    def family(self) -> str:
        """What strategies spread their draws over: the kind, or the kind and its variety."""
        return f"{self.kind}:{self.variety}" if self.variety else self.kind


# -- helpers ------------------------------------------------------------------------------------------


class _KeyedKeys:
    """Fold: the identities of every Keyed union's variant-key fields below a shape."""

    def value(self, shape: Value) -> frozenset[int]:
        return frozenset()

    def any_json(self, shape: AnyJson) -> frozenset[int]:
        return frozenset()

    def obj(self, shape: Obj, fields: Sequence[tuple[Field, frozenset[int]]]) -> frozenset[int]:
        return frozenset(i for _, found in fields for i in found)

    def array(self, shape: Arr, items: frozenset[int]) -> frozenset[int]:
        return items

    def tagged(self, shape: Tagged, variants: Mapping[str, frozenset[int]]) -> frozenset[int]:
        return frozenset(i for found in variants.values() for i in found)

    def keyed(self, shape: Keyed, variants: Mapping[str, frozenset[int]]) -> frozenset[int]:
        keys = {id(variant.by_name[key]) for key, variant in shape.variants.items()}
        return frozenset(keys) | {i for found in variants.values() for i in found}


@cache
def _keyed_key_fields(shape: ApiShape) -> frozenset[int]:
    """Identities of the fields that are a Keyed union's variant key (dropping one is a rename)."""
    in_response: frozenset[int] = fold_shape(shape.response, _KeyedKeys())
    in_stream: frozenset[int] = fold_shape(shape.stream.event, _KeyedKeys())
    return in_response | in_stream


def _invariant_array(shape: ApiShape, site: FieldSite, stream: bool) -> bool:
    """Whether ``site`` is an array an invariant requires, or on the way to one (``content`` of
    ``candidates[*].content.parts``): dropping it may break the invariant."""
    invariants = shape.stream.invariants if stream else shape.invariants
    for invariant in invariants:
        scope = parse_path(invariant.scope) if invariant.scope else ()
        required = (*scope, *invariant.array_path)
        if len(site.path) <= len(required) and paths_match(format_path(site.path), format_path(required[: len(site.path)])):
            return True
    return False


def _rule(site_in_variant: bool) -> str:
    return "DR-3" if site_in_variant else "DR-2"


def _parent(document: Any, path: Sequence[PathPart]) -> tuple[Any, PathPart]:
    node = document
    for part in path[:-1]:
        node = node[part]
    return node, path[-1]


def _fresh(name_pool: Sequence[str], taken: set[str] | frozenset[str]) -> tuple[str, ...]:
    return tuple(name for name in name_pool if name not in taken) or ("x_new_field",)


def _snake_case(name: str) -> str:
    return "".join(f"_{c.lower()}" if c.isupper() else c for c in name).lstrip("_")


def _renamed(value: str, taken: Sequence[str]) -> tuple[str, ...]:
    """The names a variant ``value`` may be renamed to. Never its snake_case spelling: Gemini's
    JSON is proto3's JSON mapping, whose parsers accept a field's lowerCamelCase name and its
    original proto name alike (https://protobuf.dev/programming-guides/json/: "Parsers accept both
    the lowerCamelCase name ... and the original proto field name"), so ``function_call`` is the
    same field as ``functionCall``, not a renamed variant; google-genai reads it as such."""
    options = [RENAMES.get(value, ""), f"{value}_v2", f"new_{value}"]
    same_field = _snake_case(value)
    return tuple(dict.fromkeys(o for o in options if o and o not in taken and o != same_field))


def _expected_types(field: Field) -> str:
    return " or ".join(sorted(accepted_types(field.shape)))


def _type_changes(accepted: frozenset[str]) -> tuple[object, ...]:
    """Values of a JSON type outside ``accepted``: each accepted type's near misses, then one of
    every other type."""
    out: list[object] = []
    for name in sorted(accepted):
        out.extend(_NEAR_MISSES.get(name, ()))
    out.extend(_REPLACEMENTS.values())
    kept: dict[str, object] = {}
    for value in out:
        if json_type(value) not in accepted:
            kept.setdefault(f"{type(value).__name__}:{value!r}", value)
    return tuple(kept.values())


def _python_blurs(value: object, accepted: frozenset[str]) -> bool:
    """Whether ``value`` swaps booleans and integers, which Python equates (``True == 1`` and
    ``isinstance(True, int)``), for a field of the ``accepted`` types."""
    if type(value) is bool:
        return bool(accepted & {"integer", "number"})
    return type(value) is int and value in (0, 1) and "boolean" in accepted


def _serialize(data: object) -> str:
    return json.dumps(data, separators=(",", ":"), ensure_ascii=False)


# -- candidates ---------------------------------------------------------------------------------------


def mutation_candidates(subject: ResponseSubject, *, unread: Sequence[UnreadField] = ()) -> list[Candidate]:
    """Every place ``subject`` can be mutated, per kind, with the choices available there.

    ``unread``: fields the SDK under test declares it does not read (``Adapter.drift_unread``):
    no DR-2/DR-3 mutation is made at or inside them, as at a ``reads=False`` field; the DR-4 and
    DR-5 ones there stay."""
    out = _candidates(subject)
    mine = [declared for declared in unread if declared.api == subject.api]
    if not mine:
        return out
    document = stream_document(get_shape(subject.api), subject.events) if subject.events is not None else subject.payload
    return [candidate for candidate in out if not _unread_breaking(subject, candidate, mine, document)]


def _unread_breaking(subject: ResponseSubject, candidate: Candidate, unread: Sequence[UnreadField], document: Any) -> bool:
    """Whether ``candidate`` is a DR-2/DR-3 mutation at or inside a declared unread field."""
    site = candidate.site
    if not isinstance(site, (FieldSite, UnionSite)) or candidate.kind not in _FIELD_KINDS:
        return False
    if unread_at(unread, subject.api, document, site.path) is None:
        return False
    return candidate_label(subject, candidate)[1] in ("DR-2", "DR-3")


#: The kinds that change one field (or a union's discriminator) and demand a raise there.
_FIELD_KINDS = frozenset({"drop_field", "move_field", "change_type", "null_field", "empty_field"})


def _candidates(subject: ResponseSubject) -> list[Candidate]:
    shape = get_shape(subject.api)
    key_fields = _keyed_key_fields(shape)
    sites = stream_sites(shape, subject.events) if subject.events is not None else response_sites(shape, subject.payload)
    out: list[Candidate] = []
    parsed: list[Any] | None = None  # the stream's event data, parsed once when an array site needs it
    for site in sites:
        if isinstance(site, FieldSite):
            field = site.field
            if not site.reads:
                continue
            if field.required and id(field) not in key_fields:
                out.append(Candidate("drop_field", site, None, (None,)))
                out.append(Candidate("move_field", site, None, (_MOVED_UNDER,)))
            elif not field.required and field.name in MOVABLE_OPTIONAL_OBJECTS and isinstance(field.shape, Obj):
                # an optional object every SDK reads at its place (token usage): moved, it is drift
                out.append(Candidate("move_field", site, None, (_MOVED_UNDER,), variety="optional_object"))
            elif not field.required and _invariant_array(shape, site, subject.is_stream):
                drop = Candidate("drop_field", site, None, (None,))
                if apply_mutation(subject, drop, None).breaking:  # only when an invariant then fails
                    out.append(drop)
            if not isinstance(field.shape, AnyJson):
                accepted = accepted_types(field.shape)
                replacements = _type_changes(accepted)
                # the swap Python itself blurs (bool is an int subclass) is a family of its own
                traps = tuple(value for value in replacements if _python_blurs(value, accepted))
                if traps:
                    out.append(Candidate("change_type", site, None, traps, variety="bool_int"))
                rest = tuple(value for value in replacements if not _python_blurs(value, accepted))
                if rest:
                    out.append(Candidate("change_type", site, None, rest))
            if not field.nullable:
                out.append(Candidate("null_field", site, None, (None,)))
            if field.name in STOP_REASON_FIELDS and isinstance(site.value, str) and _has_tool_calls(subject):
                out.append(Candidate("new_stop_reason", site, None, (NEW_STOP_REASON,)))
            empty = _empty_candidate(subject, site)
            if empty is not None:
                out.append(empty)
        elif isinstance(site, UnionSite):
            if isinstance(site.union, Tagged):
                if site.reads:
                    out.append(Candidate("change_type", site, None, (7, {"drift": 1})))
                    out.append(Candidate("null_field", site, None, (None,)))
                out.append(Candidate("rename_discriminator", site, None, _renamed(site.variant, list(site.union.variants))))
            else:
                out.append(Candidate("rename_discriminator", site, None, _renamed(site.variant, list(site.union.variants))))
        elif isinstance(site, ArraySite):
            union = site.items
            if isinstance(union, Keyed) and union.closed:
                continue
            if subject.events is not None:
                parsed = _event_data(subject.events) if parsed is None else parsed
                if claimed_by_a_later_event(subject.api, parsed, site.path):
                    continue  # the element would take a position a later event fills: not additive
            out.append(Candidate("add_unknown_variant", site, None, _fresh(FRESH_VARIANTS, frozenset(union.variants))))
        elif isinstance(site, ObjectSite):
            out.append(Candidate("add_unknown_field", site, None, _fresh(FRESH_FIELDS, site.known)))
    if subject.events is not None:
        out.extend(_stream_candidates(shape, subject.events))
        out.extend(_lifecycle_candidates(subject))
    out.extend(_relation_candidates(shape, subject))
    return out


def _has_tool_calls(subject: ResponseSubject) -> bool:
    """Whether the response asks for a tool call (the kit's own reading of it)."""
    parsed = expected_parse(subject.api, subject.payload, subject.events)
    return parsed is not None and bool(parsed.tool_calls)


def _empty_candidate(subject: ResponseSubject, site: FieldSite) -> Candidate | None:
    """Empty the field's value, when that is drift (declared non-empty, or an invariant then
    fails) or documented as possible (additive); else no candidate: the kit does not guess."""
    field = site.field
    kind = json_type(site.value)
    if kind not in _EMPTY or not site.value or isinstance(field.shape, (Obj, AnyJson)):
        return None  # already empty, not emptiable, or an object of required fields (drop_field's)
    candidate = Candidate("empty_field", site, None, (_EMPTY[kind],))
    if field.nonempty:
        return candidate
    probe = apply_mutation(subject, candidate, candidate.choices[0])
    return candidate if probe.breaking or field.empty_documented else None


def _relations(shape: ApiShape, subject: ResponseSubject) -> tuple[tuple[Relation, ...], Any]:
    if subject.events is not None:
        return shape.stream.relations, stream_document(shape, subject.events)
    return shape.relations, subject.payload


def _relation_candidates(shape: ApiShape, subject: ResponseSubject) -> list[Candidate]:
    """Each relation of the response that holds at some place, with the ways to break it there
    (choices are ``(relation index, scope path, how)``)."""
    relations, document = _relations(shape, subject)
    out: list[Candidate] = []
    for number, relation in enumerate(relations):
        scope = parse_path(relation.scope) if relation.scope else ()
        for scope_path, scope_value in resolve_path(document, scope):
            choices = _relation_choices(relation, scope_value, stream=subject.is_stream)
            if choices:
                out.append(Candidate("break_relation", None, None, tuple((number, scope_path, how) for how in choices),
                                     variety=relation.kind))
    return out


def _related_values(relation: Relation, scope_value: Any) -> list[tuple[tuple[PathPart, ...], Any]]:
    """The values a unique (strings) or increasing (integers) relation compares, as the validator counts them."""
    wanted = str if relation.kind == "unique" else int
    return [(where, value) for where, value in resolve_path(scope_value, parse_path(relation.values)) if type(value) is wanted]


def _relation_choices(relation: Relation, scope_value: Any, *, stream: bool) -> list[Any]:
    if relation.kind == "sum":
        total = resolve_path(scope_value, parse_path(relation.values))
        addends = [resolve_path(scope_value, parse_path(part)) for part in relation.parts]
        ints = [found[0][1] if len(found) == 1 and type(found[0][1]) is int else None for found in (total, *addends)]
        return [1, -1] if None not in ints else []
    found = _related_values(relation, scope_value)
    if relation.kind == "increasing":
        return [("repeat", position) for position in dict.fromkeys((1, len(found) // 2, len(found) - 1)) if position >= 1]
    choices: list[Any] = [("copy", position) for position in range(1, min(len(found), 3))]
    if found:
        parts = parse_path(relation.values)
        star = len(parts) - 1 - list(reversed(parts)).index(ANY_INDEX)
        if not (stream and star == 1 and not relation.scope):  # never duplicate a whole stream event
            choices.append(("duplicate", 0))
    return choices


def _break_relation(subject: ResponseSubject, choice: Any) -> DriftMutation:
    number, scope_path, how = choice
    shape = get_shape(subject.api)
    relations, document = _relations(shape, subject)
    relation = relations[number]
    document = copy.deepcopy(document)
    scope_value = _at(document, scope_path)
    if relation.kind == "sum":
        total_path = parse_path(relation.values)
        addends = sum(resolve_path(scope_value, parse_path(part))[0][1] for part in relation.parts)  # type: ignore[misc]
        container, key = _parent(scope_value, total_path)
        off = addends + int(how)
        container[key] = off if off >= 0 else addends + 1  # a count stays a count
        where = (*scope_path, *total_path)
        description = (f"set {format_path(where)} to {container[key]}, not {' + '.join(relation.parts)} = {addends}")
    else:
        found = _related_values(relation, scope_value)
        action, position = how
        if action == "duplicate":
            parts = parse_path(relation.values)
            star = len(parts) - 1 - list(reversed(parts)).index(ANY_INDEX)
            first = found[0][0]
            array = _at(scope_value, first[:star])
            array.append(copy.deepcopy(array[first[star]]))
            where = (*scope_path, *first[:star], len(array) - 1, *first[star + 1:])
            description = (f"append a copy of {format_path((*scope_path, *first[:star + 1]))} at "
                           f"{format_path((*scope_path, *first[:star], len(array) - 1))}: its id {found[0][1]!r} is used twice")
        else:
            previous, target = found[position - 1], found[position]
            container, key = _parent(scope_value, target[0])
            container[key] = previous[1]
            where = (*scope_path, *target[0])
            if relation.kind == "unique":
                description = f"give {format_path(where)} the id {previous[1]!r} of {format_path((*scope_path, *previous[0]))}"
            else:
                description = f"repeat {format_path((*scope_path, *previous[0]))} = {previous[1]} at {format_path(where)} (not increasing)"
    mutated = _rebuild(subject, document, where) if subject.events is not None else ResponseSubject(subject.api, payload=document, source=subject.source)
    return DriftMutation(
        kind="break_relation",
        breaking=True,
        rule_id=relation.rule_id,
        path=format_path(where),
        description=f"{description} ({relation.id}: {relation.description})",
        subject=mutated,
        original=subject,
        family=f"break_relation:{relation.kind}",
    )


def _stream_candidates(shape: ApiShape, events: Sequence[SSEEvent]) -> list[Candidate]:
    out: list[Candidate] = []
    stream = shape.stream
    parsed = [_parse(event) for event in events]
    if isinstance(stream.event, Tagged) and stream.framing == "named":
        positions = tuple(range(1, len(events)))
        if positions:
            out.append(Candidate("add_unknown_variant", None, None, positions))
    for index, data in enumerate(parsed):
        if data is None:
            continue
        for rule in stream.splits:
            if not _rule_applies(rule, stream.event, data):
                continue
            text = _text_at(data, rule.text)
            if text is None:
                continue
            choices: list[Any] = []
            if len(text) >= 2:
                middle = len(text) // 2
                choices.extend(dict.fromkeys((middle, 1, len(text) - 1)))
            following = parsed[index + 1] if index + 1 < len(parsed) else None
            if following is not None and _mergeable(rule, stream.event, data, following):
                choices.append("merge")
            if choices:
                out.append(Candidate("resplit_stream", None, index, tuple(choices), split=rule))
    return out


def _parse(event: SSEEvent) -> Any:
    try:
        data = load_json_text(event.data)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _rule_applies(rule: SplitRule, event_shape: ValueShape, data: dict[str, Any]) -> bool:
    if rule.variant is None:
        return True
    return isinstance(event_shape, Tagged) and data.get(event_shape.discriminator) == rule.variant


def _text_at(data: object, path: str) -> str | None:
    found = resolve_path(data, parse_path(path))
    return found[0][1] if len(found) == 1 and isinstance(found[0][1], str) else None


def _mergeable(rule: SplitRule, event_shape: ValueShape, first: dict[str, Any], second: dict[str, Any]) -> bool:
    if not _rule_applies(rule, event_shape, second) or _text_at(second, rule.text) is None:
        return False
    if any(_present(first, path) for path in rule.head_clears) or any(_present(second, path) for path in rule.tail_drops):
        return False  # the first carries a finish marker, or the second starts a new item
    return all(
        [v for _, v in resolve_path(first, parse_path(p))] == [v for _, v in resolve_path(second, parse_path(p))] for p in rule.same_item
    )


def _present(data: object, path: str) -> bool:
    return any(value is not None for _, value in resolve_path(data, parse_path(path)))


# -- applying -----------------------------------------------------------------------------------------


def apply_mutation(subject: ResponseSubject, candidate: Candidate, choice: Any) -> DriftMutation:
    """The mutation ``candidate`` makes with ``choice`` (one of ``candidate.choices``), with its family."""
    mutation = _apply(subject, candidate, choice)
    return mutation if mutation.family else dataclasses.replace(mutation, family=candidate.family)


def _apply(subject: ResponseSubject, candidate: Candidate, choice: Any) -> DriftMutation:
    if candidate.kind == "resplit_stream":
        return _resplit(subject, candidate, choice)
    if candidate.kind == "break_relation":
        return _break_relation(subject, choice)
    if candidate.kind == "break_lifecycle":
        mutation = _lifecycle_mutation(subject, candidate.variety, choice)
        if mutation is None:
            raise ValueError(f"{candidate.family} at {choice!r} does not break the stream's lifecycle")
        return mutation
    if candidate.kind == "add_unknown_variant" and candidate.site is None:
        return _insert_event(subject, int(choice))
    site = candidate.site
    assert site is not None
    shape = get_shape(subject.api)
    if subject.events is not None:
        document: Any = copy.deepcopy(stream_document(shape, subject.events))
    else:
        document = copy.deepcopy(subject.payload)
    path = site.path
    kind = candidate.kind
    breaking = kind in BREAKING_KINDS
    where = path
    rule_id = "DR-4"
    description: str
    if isinstance(site, FieldSite):
        container, key = _parent(document, path)
        rule_id = _rule(site.in_variant)
        if kind == "drop_field":
            del container[key]
            description = f"drop required field {format_path(path)}"
            if not site.field.required:
                invariants = shape.stream.invariants if subject.events is not None else shape.invariants
                breaking = bool(violated_invariants(invariants, document))
                rule_id = "DR-5"
                description = f"drop {format_path(path)}, which an invariant requires"
        elif kind == "move_field":
            value = container.pop(key)
            target = str(choice)
            container[target] = {key: value}
            description = f"move {format_path(path)} to {format_path((*path[:-1], target, key))}"
        elif kind == "change_type":
            container[key] = copy.deepcopy(choice)
            description = f"change {format_path(path)} from {_expected_types(site.field)} to {json.dumps(choice)}"
        elif kind == "null_field":
            container[key] = None
            description = f"set non-nullable {format_path(path)} to null"
        elif kind == "new_stop_reason":
            previous = container[key]
            container[key] = str(choice)
            breaking = False
            description = f"give {format_path(path)} the new value {choice!r} (was {previous!r}) beside the response's tool calls"
        elif kind == "empty_field":
            container[key] = copy.deepcopy(choice)
            breaking = site.field.nonempty
            description = f"empty {format_path(path)} ({json.dumps(choice)})"
            if breaking:
                description += ", declared non-empty"
            else:
                invariants = shape.stream.invariants if subject.events is not None else shape.invariants
                broken = violated_invariants(invariants, document)
                breaking = bool(broken)
                if breaking:
                    rule_id = "DR-5"
                    invariant, scope_path = broken[0]
                    where = invariant_blame(document, (*scope_path, *invariant.array_path))[0]
                    description += ", which an invariant requires non-empty"
                else:
                    description += f", documented as possible ({site.field.empty_documented})"
        else:  # pragma: no cover - candidates never pair these
            raise ValueError(f"{kind} does not apply to a field")
    elif isinstance(site, UnionSite):
        element = _at(document, path)
        if isinstance(site.union, Tagged):
            discriminator = site.union.discriminator
            where = (*path, discriminator)
            if kind == "rename_discriminator":
                element[discriminator] = str(choice)
                description = f"rename variant {site.variant!r} to {choice!r} at {format_path(where)}"
            elif kind == "change_type":
                element[discriminator] = copy.deepcopy(choice)
                rule_id = "DR-3"
                description = f"change discriminator {format_path(where)} to {json.dumps(choice)}"
            else:
                element[discriminator] = None
                rule_id = "DR-3"
                description = f"set discriminator {format_path(where)} to null"
        else:
            renamed = {(str(choice) if k == site.variant else k): v for k, v in element.items()}
            element.clear()
            element.update(renamed)
            description = f"rename variant key {site.variant!r} to {choice!r} at {format_path(path)}"
            if site.union.closed:
                breaking = True
                rule_id = "DR-3"
                where = (*path, next(iter(site.union.variants)))
        if kind == "rename_discriminator" and not (isinstance(site.union, Keyed) and site.union.closed):
            invariants = shape.stream.invariants if subject.events is not None else shape.invariants
            if violated_invariants(invariants, document):
                breaking, rule_id = True, "DR-5"
            elif subject.events is not None:
                # a renamed start or stop event leaves the stream off its documented lifecycle
                breaches = lifecycle_breaches(subject.api, document)
                if breaches:
                    breaking, rule_id = True, breaches[0].rule_id
                    where = parse_path(breaches[0].path)
                    description += f": the stream no longer follows its lifecycle ({breaches[0].expected})"
    elif isinstance(site, ArraySite):
        array = _at(document, path)
        position = len(array)
        if isinstance(site.items, Tagged):
            array.insert(position, {site.items.discriminator: str(choice), "detail": "added by strictconformance"})
        else:
            array.insert(position, {str(choice): {"detail": "added by strictconformance"}})
        where = (*path, position)
        description = f"add an element of unknown variant {choice!r} at {format_path(where)}"
    elif isinstance(site, ObjectSite):
        target_object = _at(document, path)
        target_object[str(choice)] = {"added_by": "strictconformance"}
        where = (*path, str(choice))
        description = f"add unknown field {format_path(where)}"
    else:  # pragma: no cover
        raise TypeError(f"unknown site {site!r}")
    mutated = _rebuild(subject, document, path)
    return DriftMutation(
        kind=kind,
        breaking=breaking,
        rule_id=rule_id if breaking else "DR-4",
        path=format_path(where),
        description=description,
        subject=mutated,
        original=subject,
    )


def candidate_label(subject: ResponseSubject, candidate: Candidate) -> tuple[bool, str]:
    """``(breaking, rule_id)`` of every mutation ``candidate`` makes on ``subject`` (the label
    depends on the place, never on the choice made there), mostly without applying it: only a
    renamed tagged variant is applied, since an invariant decides whether it breaks."""
    kind, site = candidate.kind, candidate.site
    if kind == "resplit_stream":
        return False, "DR-1"
    if kind in ("add_unknown_variant", "add_unknown_field"):
        return False, "DR-4"
    if kind == "break_lifecycle":
        return True, "DR-9" if candidate.variety == "truncated" else "DR-8"
    if kind == "break_relation":
        relations, _ = _relations(get_shape(subject.api), subject)
        return True, relations[candidate.choices[0][0]].rule_id
    if isinstance(site, FieldSite):
        if kind == "new_stop_reason":
            return False, "DR-4"
        if kind == "empty_field" and not site.field.nonempty:
            probe = apply_mutation(subject, candidate, candidate.choices[0])
            return probe.breaking, probe.rule_id
        if kind == "drop_field" and not site.field.required:
            return True, "DR-5"  # listed only when an invariant then fails
        return True, _rule(site.in_variant)
    if isinstance(site, UnionSite):
        if kind != "rename_discriminator":
            return True, "DR-3"
        if isinstance(site.union, Keyed) and site.union.closed:
            return True, "DR-3"
        probe = apply_mutation(subject, candidate, candidate.choices[0])
        return probe.breaking, probe.rule_id
    raise ValueError(f"no label for a {kind} candidate at {site!r}")


def _at(document: Any, path: Sequence[PathPart]) -> Any:
    node = document
    for part in path:
        node = node[part]
    return node


def _rebuild(subject: ResponseSubject, document: Any, path: Sequence[PathPart]) -> ResponseSubject:
    """The subject with the mutated document; for a stream only the touched event is re-serialised."""
    if subject.events is None:
        return ResponseSubject(subject.api, payload=document, source=subject.source)
    index = int(path[1])  # type: ignore[arg-type]  # stream paths are ("events", i, "data", ...)
    shape = get_shape(subject.api)
    events = list(subject.events)
    entry = document["events"][index]
    data = entry["data"]
    name = events[index].event
    if shape.stream.framing == "named" and isinstance(shape.stream.event, Tagged) and len(path) <= 3 and isinstance(data, dict):
        tag = data.get(shape.stream.event.discriminator)
        if isinstance(tag, str):
            name = tag  # a renamed event is renamed on the wire too
    events[index] = SSEEvent(_serialize(data), name, events[index].id)
    return ResponseSubject(subject.api, events=tuple(events), source=subject.source)


def _insert_event(subject: ResponseSubject, position: int) -> DriftMutation:
    assert subject.events is not None
    shape = get_shape(subject.api)
    assert isinstance(shape.stream.event, Tagged)
    name = _fresh(FRESH_VARIANTS, frozenset(shape.stream.event.variants))[0]
    event_type = f"{name}.added" if "." in next(iter(shape.stream.event.variants)) else name
    data = {shape.stream.event.discriminator: event_type, "detail": "added by strictconformance"}
    events = list(subject.events)
    events.insert(position, SSEEvent(_serialize(data), event_type))
    return DriftMutation(
        kind="add_unknown_variant",
        breaking=False,
        rule_id="DR-4",
        path=f"events[{position}]",
        description=f"insert an event of unknown type {event_type!r} at position {position}",
        subject=ResponseSubject(subject.api, events=tuple(events), source=subject.source),
        original=subject,
    )


def _set_path(data: Any, path: str, value: Any, *, delete: bool = False) -> None:
    parts = parse_path(path)
    found = resolve_path(data, parts[:-1])
    if not found:
        return
    container = found[0][1]
    key = parts[-1]
    if isinstance(container, dict) and isinstance(key, str) and key in container:
        if delete:
            del container[key]
        else:
            container[key] = value
    elif isinstance(container, list) and isinstance(key, int) and -len(container) <= key < len(container):
        container[key] = value


def _resplit(subject: ResponseSubject, candidate: Candidate, choice: Any) -> DriftMutation:
    assert subject.events is not None
    assert candidate.split is not None
    assert candidate.event_index is not None
    rule, index = candidate.split, candidate.event_index
    events = list(subject.events)
    first = load_json_text(events[index].data)
    if choice == "merge":
        second = load_json_text(events[index + 1].data)
        merged_text = (_text_at(first, rule.text) or "") + (_text_at(second, rule.text) or "")
        _set_path(first, rule.text, merged_text)
        for path in rule.head_clears:  # the merged event ends as the second did (its finish marker)
            found = resolve_path(second, parse_path(path))
            if found and found[0][1] is not None:
                parts = parse_path(path)
                parents = resolve_path(first, parts[:-1])
                if parents and isinstance(parents[0][1], dict) and isinstance(parts[-1], str):
                    parents[0][1][parts[-1]] = copy.deepcopy(found[0][1])
        events[index : index + 2] = [SSEEvent(_serialize(first), events[index].event, events[index].id)]
        description = f"merge events {index} and {index + 1} ({rule.text})"
    else:
        offset = int(choice)
        text = _text_at(first, rule.text) or ""
        head, tail = copy.deepcopy(first), copy.deepcopy(first)
        _set_path(head, rule.text, text[:offset])
        _set_path(tail, rule.text, text[offset:])
        for path in rule.head_clears:
            if _present(head, path):
                _set_path(head, path, None, delete=not rule.clear_with_null)
        for path in rule.tail_drops:
            _set_path(tail, path, None, delete=True)
        name = events[index].event
        events[index : index + 1] = [SSEEvent(_serialize(head), name), SSEEvent(_serialize(tail), name)]
        description = f"split event {index} at {rule.text}[{offset}:]"
    if rule.renumber is not None:
        events = _renumber(events, rule.renumber)
    return DriftMutation(
        kind="resplit_stream",
        breaking=False,
        rule_id="DR-1",
        path=f"events[{index}]",
        description=description,
        subject=ResponseSubject(subject.api, events=tuple(events), source=subject.source),
        original=subject,
    )


def _renumber(events: list[SSEEvent], key: str) -> list[SSEEvent]:
    counter: int | None = None
    out = []
    for event in events:
        try:
            data = load_json_text(event.data)
        except ValueError:
            out.append(event)
            continue
        if isinstance(data, dict) and isinstance(data.get(key), int):
            counter = data[key] if counter is None else counter + 1
            data[key] = counter
            out.append(SSEEvent(_serialize(data), event.event, event.id))
        else:
            out.append(event)
    return out


def all_mutations(subject: ResponseSubject) -> Iterator[DriftMutation]:
    """Every candidate with its first choice: a deterministic sweep over ``subject``."""
    for candidate in mutation_candidates(subject):
        yield apply_mutation(subject, candidate, candidate.choices[0])



# -- stream lifecycle (DR-8, DR-9) --------------------------------------------------------------------

#: How a stream's lifecycle is broken, each a family of its own.
LIFECYCLE_VARIETIES = (
    "delta_before_start",  # a block's first delta moved before its start event
    "unknown_index",  # a delta (or tool-call fragment) for an index never opened
    "fragments_not_json",  # argument fragments that no longer join into JSON
    "reordered",  # a block's stop event moved before its last delta
    "duplicated",  # a block's start event sent twice
    "unclosed",  # a block's stop event gone
    "after_terminal",  # the terminal event moved before the last event
    "truncated",  # the stream cut before the event that carries the stop reason
)
#: At most this many choices per variety (streams are short; each choice is built to be labelled).
_LIFECYCLE_CHOICES = 3


def _event_data(events: Sequence[SSEEvent]) -> list[Any]:
    return [_parse(event) for event in events]


def _with_data(event: SSEEvent, data: Any) -> SSEEvent:
    return SSEEvent(_serialize(data), event.event, event.id)


def _index_of(lifecycle: Lifecycle, data: Any) -> int | None:
    value = data.get(lifecycle.index) if isinstance(data, dict) else None
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def _stop_position(lifecycle: Lifecycle, parsed: Sequence[Any]) -> int | None:
    """Where the event carrying the stop reason is (Anthropic's message_delta, the terminal event
    elsewhere, a chunk with a finish marker): a stream cut there has no stop reason."""
    for position, data in enumerate(parsed):
        if not isinstance(data, dict):
            continue
        if lifecycle.finish_array:
            items = data.get(lifecycle.finish_array)
            if isinstance(items, list) and any(isinstance(i, dict) and i.get(lifecycle.finish_key) is not None for i in items):
                return position
        elif data.get("type") == "message_delta" or data.get("type") in lifecycle.terminal:
            return position
    return None


def _chat_fragments(parsed: Sequence[Any]) -> list[tuple[int, int, int, int, bool]]:
    """(position, choice number, fragment number, call index, opens) of every chat tool-call fragment."""
    out = []
    seen: set[tuple[int, int]] = set()
    for position, data in enumerate(parsed):
        choices = data.get("choices") if isinstance(data, dict) else None
        for number, choice in enumerate(choices if isinstance(choices, list) else ()):
            delta = choice.get("delta") if isinstance(choice, dict) else None
            calls = delta.get("tool_calls") if isinstance(delta, dict) else None
            for k, call in enumerate(calls if isinstance(calls, list) else ()):
                index = call.get("index") if isinstance(call, dict) else None
                if isinstance(index, int) and not isinstance(index, bool):
                    key = (choice.get("index", number), index)
                    out.append((position, number, k, index, key not in seen))
                    seen.add(key)
    return out


def _lifecycle_choices(lifecycle: Lifecycle, variety: str, parsed: Sequence[Any]) -> list[Any]:
    named = not lifecycle.finish_array
    types = [data.get("type") if isinstance(data, dict) else None for data in parsed]
    indexes = [_index_of(lifecycle, data) for data in parsed]
    if variety == "truncated":
        stop = _stop_position(lifecycle, parsed)
        return [] if not stop else list(dict.fromkeys((stop, max(1, stop // 2))))
    if lifecycle.tool_calls and variety in ("unknown_index", "fragments_not_json"):
        fragments = _chat_fragments(parsed)
        if variety == "unknown_index":
            return [(p, n, k) for p, n, k, _, opens in fragments if not opens]
        last: dict[int, tuple[int, int, int]] = {}
        for p, n, k, index, _ in fragments:
            last[index] = (p, n, k)
        return list(last.values())
    if not named:
        return []
    if variety == "delta_before_start":
        return [p for p in range(len(parsed) - 1) if types[p] == lifecycle.block_open and indexes[p] is not None
                and indexes[p + 1] == indexes[p] and types[p + 1] not in (lifecycle.block_open, lifecycle.block_close)]
    if variety == "unknown_index":
        return [p for p, kind in enumerate(types) if indexes[p] is not None and kind not in (lifecycle.block_open, lifecycle.block_close)]
    if variety == "fragments_not_json":
        last_named: dict[int, int] = {}
        for p, data in enumerate(parsed):
            for fragment in lifecycle.fragments:
                if types[p] == fragment.event and indexes[p] is not None and (
                        not fragment.kind_path or _text_at(data, fragment.kind_path) == fragment.kind):
                    last_named[indexes[p]] = p  # type: ignore[index]
        return list(last_named.values())
    if variety == "reordered":
        return [p for p in range(1, len(parsed)) if types[p] == lifecycle.block_close and indexes[p] is not None
                and indexes[p - 1] == indexes[p] and types[p - 1] != lifecycle.block_open]
    if variety in ("duplicated", "unclosed"):
        wanted = lifecycle.block_open if variety == "duplicated" else lifecycle.block_close
        return [p for p, kind in enumerate(types) if kind == wanted and indexes[p] is not None]
    if variety == "after_terminal":
        return [p for p, kind in enumerate(types) if kind in lifecycle.terminal and p >= 1 and types[p - 1] not in lifecycle.ignored]
    raise ValueError(f"unknown lifecycle variety {variety!r}")


def _break_stream(lifecycle: Lifecycle, variety: str, events: Sequence[SSEEvent], choice: Any) -> tuple[list[SSEEvent], str]:
    """The events with the lifecycle broken as ``variety`` says at ``choice``, and what changed."""
    out = list(events)
    parsed = _event_data(events)
    if variety == "truncated":
        return out[: int(choice)], f"cut the stream before event {choice} (of {len(out)}): no terminal event"
    if lifecycle.tool_calls and variety in ("unknown_index", "fragments_not_json"):
        position, number, k = choice
        data = copy.deepcopy(parsed[position])
        call = data["choices"][number]["delta"]["tool_calls"][k]
        if variety == "unknown_index":
            used = [index for _, _, _, index, _ in _chat_fragments(parsed)]
            call["index"] = max(used) + 1
            description = f"give the tool-call fragment at events[{position}] the index {call['index']}, never opened"
        else:
            function = call.setdefault("function", {})
            function["arguments"] = str(function.get("arguments") or "")[:-1] or "{"
            description = f"change the last arguments fragment of tool call {call.get('index')} so the fragments do not join into JSON"
        out[position] = _with_data(out[position], data)
        return out, description
    position = int(choice)
    data = copy.deepcopy(parsed[position])
    if variety == "delta_before_start":
        out[position], out[position + 1] = out[position + 1], out[position]
        description = f"move the delta at events[{position + 1}] before its block's start event"
    elif variety == "unknown_index":
        top = max(index for index in (_index_of(lifecycle, d) for d in parsed) if index is not None)
        data[lifecycle.index] = top + 1
        out[position] = _with_data(out[position], data)
        description = f"give the {data.get('type')!r} at events[{position}] the {lifecycle.index} {top + 1}, never started"
    elif variety == "fragments_not_json":
        fragment = next(f for f in lifecycle.fragments if f.event == data.get("type"))
        text = _text_at(data, fragment.text) or ""
        _set_path(data, fragment.text, text[:-1] if text else "{")
        out[position] = _with_data(out[position], data)
        description = f"change the last argument fragment at events[{position}] so the fragments do not join into JSON"
    elif variety == "reordered":
        out[position - 1], out[position] = out[position], out[position - 1]
        description = f"move the stop event at events[{position}] before the delta it follows"
    elif variety == "duplicated":
        out.insert(position + 1, out[position])
        description = f"send the start event at events[{position}] twice"
    elif variety == "unclosed":
        del out[position]
        description = f"drop the stop event at events[{position}]: its block is never closed"
    else:  # after_terminal
        out[position - 1], out[position] = out[position], out[position - 1]
        description = f"move the terminal event at events[{position}] before the event it follows"
    return out, description


def _lifecycle_mutation(subject: ResponseSubject, variety: str, choice: Any) -> DriftMutation | None:
    """The mutation, labelled with the first breach the lifecycle data finds in it; ``None`` when
    the change breaks nothing there or also breaks an invariant or a relation (its label would be
    theirs)."""
    assert subject.events is not None
    lifecycle = lifecycle_of(subject.api)
    if lifecycle is None:
        return None
    shape = get_shape(subject.api)
    events, description = _break_stream(lifecycle, variety, subject.events, choice)
    renumber = next((rule.renumber for rule in shape.stream.splits if rule.renumber), None)
    if renumber is not None:
        events = _renumber(events, renumber)
    document = stream_document(shape, events)
    if violated_invariants(shape.stream.invariants, document) or violated_relations(shape.stream.relations, document):
        return None
    breaches = lifecycle_breaches(subject.api, document)
    if not breaches:
        return None
    first = breaches[0]
    return DriftMutation(
        kind="break_lifecycle",
        breaking=True,
        rule_id=first.rule_id,
        path=first.path,
        description=f"{description} ({lifecycle.source})",
        subject=ResponseSubject(subject.api, events=tuple(events), source=subject.source),
        original=subject,
        family=f"break_lifecycle:{variety}",
    )


def _lifecycle_candidates(subject: ResponseSubject) -> list[Candidate]:
    lifecycle = lifecycle_of(subject.api)
    if lifecycle is None or subject.events is None:
        return []
    if lifecycle_breaches(subject.api, stream_document(get_shape(subject.api), subject.events)):
        return []  # already off its lifecycle (an error event, a recorded cut): nothing to label
    parsed = _event_data(subject.events)
    out = []
    for variety in LIFECYCLE_VARIETIES:
        choices = []
        for choice in _lifecycle_choices(lifecycle, variety, parsed):
            mutation = _lifecycle_mutation(subject, variety, choice)
            if mutation is not None and mutation.rule_id == ("DR-9" if variety == "truncated" else "DR-8"):
                choices.append(choice)
            if len(choices) == _LIFECYCLE_CHOICES:
                break
        if choices:
            out.append(Candidate("break_lifecycle", None, None, tuple(choices), variety=variety))
    return out

"""Hypothesis strategies for provider responses: generated from shapes, recorded, mutated, hostile.

* :func:`responses` builds response bodies directly from an API's shape (required fields always,
  optional ones sometimes omitted, ``null`` only where the shape allows it, discriminated arrays
  with every variant reachable, invariants satisfied by construction).
* :func:`recorded_subjects` draws real recorded responses and streams from the shipped cassettes.
* :func:`drift_mutations` mutates real (or generated) responses: each draw is labelled breaking
  or additive with the path where a check must catch it (see
  :mod:`strictconformance.drift.mutations`).
* :func:`json_values`, :func:`deep_json`, :func:`hostile_payloads`, :func:`hostile_events` feed the
  DR-6 fuzz; :func:`sse_chunkings` re-chunks raw stream bytes.

Strategies only: no assertions here. ``hypothesis.event`` marks what was drawn, so
``--hypothesis-show-statistics`` shows coverage per API, variant and mutation kind.
"""

from __future__ import annotations

import copy
import itertools
import json
from collections.abc import Collection, Mapping, Sequence
from functools import cache
from typing import Any, Literal, TypeAlias

from hypothesis import event
from hypothesis import strategies as st

from strictconformance.drift.cassettes import recorded_responses
from strictconformance.drift.mutations import (
    Candidate,
    DriftMutation,
    MutationKind,
    ResponseSubject,
    apply_mutation,
    candidate_label,
    mutation_candidates,
)
from strictconformance.drift.paths import ANY_INDEX, PathPart, parse_path, resolve_path
from strictconformance.drift.shapes import API_IDS, get_shape
from strictconformance.drift.shapes.model import (
    AnyJson,
    ApiShape,
    Arr,
    Field,
    Keyed,
    Obj,
    Tagged,
    Value,
    fold_shape,
    shape_at,
)
from strictconformance.drift.sse import SSEEvent, format_sse
from strictconformance.drift.unread import UnreadField
from strictconformance.drift.validator import violated_invariants, violated_relations
from strictconformance.strategies._choices import sampled

__all__ = [
    "additive_mutations",
    "api_ids",
    "breaking_mutations",
    "deep_json",
    "drift_mutations",
    "elements",
    "generated_subjects",
    "hostile_events",
    "hostile_payloads",
    "json_values",
    "mutable_recorded",
    "odd_json_values",
    "recorded_subjects",
    "responses",
    "sse_chunkings",
]

_WORDS = ("Florence", "weather", "ok", "40°C", "résumé", "東京", "🙂", "")
# Everything UTF-8 can carry, i.e. no lone surrogates (same set as codec="utf-8", which costs
# seconds per process to compute).
_SURROGATES: tuple[Literal["Cs"]] = ("Cs",)
_chars = st.characters(exclude_categories=_SURROGATES)
_text = st.one_of(st.sampled_from(_WORDS), st.text(_chars, max_size=12))
_nonempty_text = st.text(_chars, min_size=1, max_size=12) | st.sampled_from(
    ("a", "msg_01X", "call_1", "weather")
)


def api_ids() -> st.SearchStrategy[str]:
    return st.sampled_from(API_IDS)


# -- arbitrary JSON -----------------------------------------------------------------------------------


@cache
def json_values(*, max_leaves: int = 30) -> st.SearchStrategy[Any]:
    """Any JSON value (finite numbers, unicode strings and keys), small enough to shrink well.
    One strategy per size, made once (strategies of generated responses make it per field)."""
    leaves = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _text
    return st.recursive(
        leaves,
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_text, inner, max_size=4),
        max_leaves=max_leaves,
    )


def _nest(depth: int, kind: str, key: str) -> Any:
    value: Any = {"end": True}
    for level in range(depth):
        value = [value] if kind == "list" or (kind == "mixed" and level % 2) else {key: value}
    return value


def deep_json(*, min_depth: int = 1_000, max_depth: int = 20_000) -> st.SearchStrategy[Any]:
    """JSON nested thousands of levels deep (built without recursion), under a familiar key."""
    return st.builds(
        _nest,
        st.integers(min_depth, max_depth),
        st.sampled_from(("list", "dict", "mixed")),
        st.sampled_from(("content", "choices", "candidates", "message", "input")),
    )


def _large(width: int, key: str) -> Any:
    return {key: [{"type": "text", "text": "x" * 16, "extra": i} for i in range(width)], "id": "big"}


def large_json(*, min_width: int = 10_000, max_width: int = 50_000) -> st.SearchStrategy[Any]:
    """Wide payloads (thousands of elements) with familiar top-level keys."""
    return st.builds(_large, st.integers(min_width, max_width), st.sampled_from(("content", "choices", "output", "candidates")))


# -- generated responses ------------------------------------------------------------------------------


def _leaf(shape: Value, *, nonempty: bool) -> st.SearchStrategy[Any]:
    if shape.known_values:
        return st.sampled_from(shape.known_values)
    options: list[st.SearchStrategy[Any]] = []
    for name in shape.types:
        if name == "string":
            options.append(_nonempty_text if nonempty else _text)
        elif name == "integer":
            options.append(st.integers(0, 10**6))
        elif name == "number":
            options.append(st.floats(0, 10**6, allow_nan=False) | st.integers(0, 10**6))
        elif name == "boolean":
            options.append(st.booleans())
        elif name == "object":
            options.append(st.dictionaries(_text, json_values(max_leaves=4), min_size=1 if nonempty else 0, max_size=3))
        elif name == "array":
            options.append(st.lists(json_values(max_leaves=4), min_size=1 if nonempty else 0, max_size=3))
    return st.one_of(options)


class _Generate:
    """The fold from a shape to a strategy for present, non-null values of that shape."""

    def __init__(self, api: str) -> None:
        self.api = api

    def value(self, shape: Value) -> st.SearchStrategy[Any]:
        return _leaf(shape, nonempty=False)

    def any_json(self, shape: AnyJson) -> st.SearchStrategy[Any]:
        return json_values(max_leaves=6)

    def obj(self, shape: Obj, fields: Sequence[tuple[Field, st.SearchStrategy[Any]]]) -> st.SearchStrategy[Any]:
        required: dict[str, st.SearchStrategy[Any]] = {}
        optional: dict[str, st.SearchStrategy[Any]] = {}
        for field, child in fields:
            strategy = _leaf(field.shape, nonempty=True) if field.nonempty and isinstance(field.shape, Value) else child
            if field.nonempty and isinstance(field.shape, Arr):
                strategy = st.lists(fold_shape(field.shape.items, self), min_size=1, max_size=3)
            if field.nullable:
                strategy = strategy | st.none()
            (required if field.required else optional)[field.name] = strategy
        return st.fixed_dictionaries(required, optional=optional)

    def array(self, shape: Arr, items: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
        return st.lists(items, max_size=3)

    def tagged(self, shape: Tagged, variants: Mapping[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
        def tag(name: str) -> Any:
            def with_tag(body: dict[str, Any]) -> dict[str, Any]:
                event(f"{self.api}: variant {shape.discriminator}={name}")
                return {shape.discriminator: name, **body}

            return with_tag

        return st.one_of([strategy.map(tag(name)) for name, strategy in variants.items()])

    def keyed(self, shape: Keyed, variants: Mapping[str, st.SearchStrategy[Any]]) -> st.SearchStrategy[Any]:
        def mark(key: str) -> Any:
            def marked(body: dict[str, Any]) -> dict[str, Any]:
                event(f"{self.api}: variant key {key}")
                return body

            return marked

        return st.one_of([strategy.map(mark(key)) for key, strategy in variants.items()])


@cache
def _response_strategy(shape: ApiShape) -> st.SearchStrategy[Any]:
    return fold_shape(shape.response, _Generate(shape.api))


@cache
def _element_strategy(shape: ApiShape, pattern: tuple[PathPart, ...], variant: object) -> st.SearchStrategy[Any]:
    """A strategy for one element of the array at ``pattern`` (of ``variant`` when given)."""
    generate = _Generate(shape.api)
    arrays = [node for node in shape_at(shape.response, pattern) if isinstance(node, Arr)]
    items = arrays[0].items
    if variant is not None and isinstance(items, Tagged):
        body = fold_shape(items.merged[str(variant)], generate)
        return body.map(lambda b: {items.discriminator: variant, **b})
    if variant is not None and isinstance(items, Keyed):
        return fold_shape(items.merged[str(variant)], generate)
    return fold_shape(items, generate)


def _array_at(payload: Any, location: Sequence[PathPart]) -> list[Any]:
    """The array at ``location`` in ``payload``, made on the way when missing or null: an object
    for a missing key, the first element at ``[*]`` (an empty object added to an empty array)."""
    node = payload
    for position, part in enumerate(location):
        if isinstance(part, str):
            if position == len(location) - 1 or not isinstance(location[position + 1], str):
                if not isinstance(node.get(part), list):
                    node[part] = []
            elif not isinstance(node.get(part), dict):
                node[part] = {}
            node = node[part]
        else:
            if not node:
                node.append({})
            node = node[0 if part is ANY_INDEX else part]
    assert isinstance(node, list)
    return node


@st.composite
def _satisfy_invariants(draw: st.DrawFn, shape: ApiShape, payload: dict[str, Any]) -> dict[str, Any]:
    """Add the elements a triggered invariant needs (a tool_use block, a tool call, a Gemini
    part with a data key), making the objects on the way when they are missing."""
    for _ in range(4):
        broken = violated_invariants(shape.invariants, payload)
        if not broken:
            return payload
        for invariant, scope_path in broken:
            location = (*scope_path, *invariant.array_path)
            pattern = tuple(ANY_INDEX if isinstance(p, int) else p for p in location)
            variant = invariant.variants()[0] if invariant.variant is not None else next(iter(invariant.with_keys), None)
            element = draw(_element_strategy(shape, pattern, variant))
            for key, value in invariant.excluding:
                if isinstance(element, dict) and type(element.get(key)) is type(value) and element.get(key) == value:
                    del element[key]
            _array_at(payload, location).append(element)
            event(f"{shape.api}: invariant {invariant.id} satisfied by construction")
    return payload


def _satisfy_relations(shape: ApiShape, payload: dict[str, Any]) -> dict[str, Any]:
    """Repair what breaks a relation: an id used twice gets a suffix, a total becomes the sum of its parts."""
    for _ in range(20):
        breaches = violated_relations(shape.relations, payload)
        if not breaches:
            return payload
        for breach in breaches:
            container: Any = payload
            for part in breach.path[:-1]:
                container = container[part]
            if breach.relation.kind == "unique":
                container[breach.path[-1]] = f"{breach.value}_{len(breach.path)}{breach.path[-2]}"
            elif breach.relation.kind == "sum":
                scope: Any = payload
                for part in breach.path[: len(breach.path) - len(parse_path(breach.relation.values))]:
                    scope = scope[part]
                counts: list[int] = [value for part in breach.relation.parts for _, value in resolve_path(scope, parse_path(part))
                                     if type(value) is int]
                container[breach.path[-1]] = sum(counts)
            event(f"{shape.api}: relation {breach.relation.id} satisfied by construction")
    return payload


def elements(api: str, path: str) -> st.SearchStrategy[Any]:
    """One element of the array at ``path`` in ``api``'s response (``content``, ``choices[*].message.tool_calls``)."""
    shape = get_shape(api)
    pattern = tuple(ANY_INDEX if isinstance(p, int) else p for p in parse_path(path))
    if not any(isinstance(node, Arr) for node in shape_at(shape.response, pattern)):
        raise ValueError(f"{path!r} is not an array in the {api} response shape")
    return _element_strategy(shape, pattern, None).map(copy.deepcopy)


def responses(api: str) -> st.SearchStrategy[Any]:
    """Response bodies of ``api`` built from its shape; every draw passes the reference check."""
    shape = get_shape(api)
    return (_response_strategy(shape).map(copy.deepcopy).flatmap(lambda payload: _satisfy_invariants(shape, payload))
            .map(lambda payload: _satisfy_relations(shape, payload)))


# -- recorded responses and mutations -----------------------------------------------------------------


#: One API id, several, or ``None`` for every shipped API.
ApiFilter: TypeAlias = "str | Collection[str] | None"


def _api_tuple(api: ApiFilter) -> tuple[str, ...] | None:
    """``None`` (every API), or the given API ids as a sorted tuple (a cache key)."""
    if api is None:
        return None
    return (api,) if isinstance(api, str) else tuple(sorted(set(api)))


@cache
def _recorded_of(api: str | None, streams: bool | None) -> tuple[tuple[str, ResponseSubject], ...]:
    out = []
    for response in recorded_responses(api, streams=streams):
        if response.is_stream:
            subject = ResponseSubject(response.api, events=response.events(), source=response.label)
        else:
            subject = ResponseSubject(response.api, payload=response.payload(), source=response.label)
        out.append((response.label, subject))
    return tuple(out)


def _recorded(api: ApiFilter, streams: bool | None) -> tuple[tuple[str, ResponseSubject], ...]:
    apis = _api_tuple(api)
    if apis is None:
        return _recorded_of(None, streams)
    return tuple(item for one in apis for item in _recorded_of(one, streams))


def _fresh(subject: ResponseSubject) -> ResponseSubject:
    """A copy of a cached recorded subject that its user may change freely."""
    if subject.events is not None:
        return subject  # events are immutable
    return ResponseSubject(subject.api, payload=copy.deepcopy(subject.payload), source=subject.source)


@cache
def _recorded_by_source() -> dict[str | None, ResponseSubject]:
    return {subject.source: subject for _, subject in _recorded(None, None)}


def _is_recorded_copy(subject: ResponseSubject) -> bool:
    """Whether ``subject`` is an unchanged copy of a recorded one (:func:`recorded_subjects` draws
    copies): its candidates and their labels were computed once, with the strategy (by source: each
    recorded response has its own), where computing them again for each drawn copy was most of a
    drift example's time."""
    origin = _recorded_by_source().get(subject.source)
    return origin is not None and (origin is subject or origin == subject)


def recorded_subjects(api: ApiFilter = None, *, streams: bool | None = None) -> st.SearchStrategy[ResponseSubject]:
    """A real recorded response (or stream) from the shipped cassettes, as a fresh copy; ``api``
    is one API id, a collection of them, or ``None`` for all."""
    recorded = _recorded(api, streams)
    if not recorded:
        raise ValueError(f"no shipped cassette has {'streams' if streams else 'responses'} for {api!r}")

    def fresh(item: tuple[str, ResponseSubject]) -> ResponseSubject:
        label, subject = item
        event(f"recorded: {label}")
        return _fresh(subject)

    return st.sampled_from(recorded).map(fresh)


def generated_subjects(api: ApiFilter = None) -> st.SearchStrategy[ResponseSubject]:
    """A response body generated from the shape of one of the APIs (:func:`responses`), as a subject."""
    apis = _api_tuple(api)
    if apis is None:
        apis = API_IDS
    if not apis:
        raise ValueError("generated_subjects needs at least one API")
    return st.sampled_from(apis).flatmap(lambda one: responses(one).map(lambda payload: ResponseSubject(one, payload=payload, source="generated")))


def _labelled(
    subject: ResponseSubject,
    kinds: tuple[MutationKind, ...] | None,
    breaking: bool | None,
    rule_id: str | None = None,
    unread: tuple[UnreadField, ...] = (),
    *,
    recorded: bool = False,
) -> list[Candidate]:
    """The candidates of ``subject`` of the given kinds whose label is ``breaking`` (any if None)
    and whose rule is ``rule_id`` (any if None), none of them DR-2/DR-3 in a field of ``unread``.
    ``recorded``: ``subject`` is a recorded one (kept for the process), whose candidates are
    computed once whatever the filters."""
    kept = []
    for candidate in (_recorded_candidates(subject, unread) if recorded else mutation_candidates(subject, unread=unread)):
        if kinds is not None and candidate.kind not in kinds:
            continue
        if breaking is None and rule_id is None:
            kept.append(candidate)
            continue
        is_breaking, rule = candidate_label(subject, candidate)
        if (breaking is None or is_breaking == breaking) and (rule_id is None or rule == rule_id):
            kept.append(candidate)
    return kept


#: The mutation candidates of each recorded subject (by its id and the unread fields), with the
#: subject itself so its id stays its own: the filters of the checks' ``requires`` and draws (kinds,
#: breaking, rule) select from them, so a recorded subject's candidates are computed once per process,
#: not once per filter (they cost about 7 s of CPU per run when computed per filter).
_RECORDED_CANDIDATES: dict[tuple[int, tuple[UnreadField, ...]], tuple[ResponseSubject, tuple[Candidate, ...]]] = {}


def _recorded_candidates(subject: ResponseSubject, unread: tuple[UnreadField, ...]) -> tuple[Candidate, ...]:
    key = (id(subject), unread)
    kept = _RECORDED_CANDIDATES.get(key)
    if kept is None or kept[0] is not subject:
        kept = (subject, tuple(mutation_candidates(subject, unread=unread)))
        _RECORDED_CANDIDATES[key] = kept
    return kept[1]


@cache
def _mutable(
    apis: tuple[str, ...] | None,
    kinds: tuple[MutationKind, ...] | None,
    breaking: bool | None,
    rule_id: str | None,
    streams: bool | None,
    unread: tuple[UnreadField, ...] = (),
) -> tuple[tuple[ResponseSubject, tuple[Candidate, ...]], ...]:
    """Recorded subjects with at least one such mutation, and those candidates (draws never reject)."""
    found = []
    for _, subject in _recorded(apis, streams):
        candidates = _labelled(subject, kinds, breaking, rule_id, unread, recorded=True)
        if candidates:
            found.append((subject, tuple(candidates)))
    return tuple(found)


@cache
def _mutable_by_family(
    apis: tuple[str, ...] | None,
    kinds: tuple[MutationKind, ...] | None,
    breaking: bool | None,
    rule_id: str | None,
    streams: bool | None,
    unread: tuple[UnreadField, ...] = (),
) -> dict[str, tuple[tuple[ResponseSubject, tuple[Candidate, ...]], ...]]:
    """The recorded subjects admitting each family of mutation, with those candidates only."""
    grouped: dict[str, list[tuple[ResponseSubject, tuple[Candidate, ...]]]] = {}
    for subject, candidates in _mutable(apis, kinds, breaking, rule_id, streams, unread):
        for family in dict.fromkeys(c.family for c in candidates):
            grouped.setdefault(family, []).append((subject, tuple(c for c in candidates if c.family == family)))
    return {family: tuple(items) for family, items in grouped.items()}


def mutable_recorded(
    api: ApiFilter = None,
    *,
    breaking: bool | None = None,
    kinds: Sequence[MutationKind] | None = None,
    rule_id: str | None = None,
    streams: bool | None = None,
    unread: Sequence[UnreadField] = (),
) -> tuple[ResponseSubject, ...]:
    """The recorded responses :func:`drift_mutations` can mutate with these filters (empty when
    none can: the caller decides before drawing whether the mutations exist at all)."""
    wanted = tuple(kinds) if kinds is not None else None
    return tuple(subject for subject, _ in _mutable(_api_tuple(api), wanted, breaking, rule_id, streams, tuple(unread)))


def drift_mutations(
    api: ApiFilter = None,
    *,
    breaking: bool | None = None,
    kinds: Sequence[MutationKind] | None = None,
    base: st.SearchStrategy[ResponseSubject] | None = None,
    rule_id: str | None = None,
    streams: bool | None = None,
    unread: Sequence[UnreadField] = (),
) -> st.SearchStrategy[DriftMutation]:
    """A labelled mutation of a recorded response (or of ``base``), optionally only breaking
    or only non-breaking ones, of given kinds, of one rule (``DR-2`` ...), of streams or bodies
    only, of one API or several; never a DR-2/DR-3 one in a field of ``unread`` (the fields the
    SDK under test declares it does not read, ``Adapter.drift_unread``).

    Draws pick the family first (the kind, or a relation's kind: every family is reached), then
    the place. With ``base``, a drawn subject that admits no mutation of that family is replaced
    by a recorded one that does (constructive: nothing is rejected). ``ValueError`` at once when no recorded
    response admits such a mutation (see :func:`mutable_recorded`).
    """
    wanted = tuple(kinds) if kinds is not None else None
    skipped = tuple(unread)
    sources = _mutable(_api_tuple(api), wanted, breaking, rule_id, streams, skipped)
    by_family = _mutable_by_family(_api_tuple(api), wanted, breaking, rule_id, streams, skipped)
    families = tuple(sorted(by_family))
    if not sources:
        raise ValueError(
            f"no recorded {'stream' if streams else 'response' if streams is False else 'response or stream'} of "
            f"{api or 'any API'} admits mutations {wanted or 'of any kind'} with breaking={breaking}, rule {rule_id or 'any'}"
        )

    @st.composite
    def mutations(draw: st.DrawFn) -> DriftMutation:
        # the family first (drop_field, empty_field, break_relation:sum ...), so every family is
        # reached however few places admit it: an even draw over places would rarely empty a field
        family = draw(sampled(families), label="family")
        candidates: tuple[Candidate, ...] = ()
        stable = True  # the candidates computed when the strategy was built, the same objects at every draw
        if base is not None:
            subject = draw(base)
            if _is_recorded_copy(subject):  # its candidates of the family, as filtered once
                candidates = next((kept for recorded, kept in by_family.get(family, ()) if recorded.source == subject.source), ())
            else:
                candidates = tuple(c for c in _labelled(subject, wanted, breaking, rule_id, skipped) if c.family == family)
                stable = False
        if not candidates:
            recorded, candidates = draw(sampled(by_family[family]))
            subject = _fresh(recorded)
            stable = True
        choose = sampled if stable else st.sampled_from  # fresh candidates: nothing to keep
        candidate = draw(choose(candidates))
        choice = draw(choose(candidate.choices))
        mutation = apply_mutation(subject, candidate, choice)
        event(f"mutation: {mutation.kind} ({'breaking' if mutation.breaking else 'not breaking'}, {mutation.rule_id})")
        event(f"mutated api: {mutation.api}{' stream' if mutation.subject.is_stream else ''}")
        return mutation

    return mutations()


def breaking_mutations(api: ApiFilter = None, **kwargs: Any) -> st.SearchStrategy[DriftMutation]:
    """Mutations a check must catch: a field dropped, moved, retyped or nulled; a renamed variant an invariant misses."""
    return drift_mutations(api, breaking=True, **kwargs)


def additive_mutations(api: ApiFilter = None, **kwargs: Any) -> st.SearchStrategy[DriftMutation]:
    """Mutations a check must tolerate: new fields, new variants, re-split streams."""
    return drift_mutations(api, breaking=False, **kwargs)


# -- hostile input for DR-6 ---------------------------------------------------------------------------


def _replace_somewhere(payload: Any, path_choice: int, value: Any) -> Any:
    """``payload`` with the value at one of its paths (chosen by index) replaced by ``value``."""
    paths: list[tuple[PathPart, ...]] = []
    stack: list[tuple[tuple[PathPart, ...], Any]] = [((), payload)]
    while stack and len(paths) < 500:
        where, node = stack.pop()
        paths.append(where)
        if isinstance(node, dict):
            stack.extend(((*where, k), v) for k, v in node.items())
        elif isinstance(node, list):
            stack.extend(((*where, i), v) for i, v in enumerate(node))
    target = paths[path_choice % len(paths)]
    if not target:
        return value
    copied = copy.deepcopy(payload)
    node = copied
    for part in target[:-1]:
        node = node[part]
    node[target[-1]] = value
    return copied


#: JSON numbers Python cannot print: ``repr`` (and ``json.dumps``, ``str``, an f-string) of an int
#: past 4300 digits raises ``ValueError``. JSON sets no size limit, so a response may carry one.
HUGE_INTEGERS: tuple[int, ...] = (10**5000, -(10**5000) + 1, 2**20_000)


def odd_json_values() -> st.SearchStrategy[Any]:
    """JSON values that trip code which renders or converts what it reads: integers too long to
    print, the extreme finite floats, 64-bit overflows, strings of 100,000 characters, and
    objects whose values are of those."""
    leaves = st.sampled_from(
        (*HUGE_INTEGERS, 1.7976931348623157e308, -5e-324, 2**63, -(2**63) - 1, "x" * 100_000, "", None, True)
    )
    return leaves | st.dictionaries(st.sampled_from(("id", "model", "type", "content", "finish_reason")), leaves, min_size=1, max_size=3)


def hostile_payloads(api: ApiFilter = None, *, max_depth: int = 5_000, odd_values: bool = True) -> st.SearchStrategy[Any]:
    """Anything a broken provider (or a buggy caller) could hand a response check: arbitrary
    JSON, JSON nested up to ``max_depth`` levels, real responses of ``api`` with junk spliced in
    anywhere, and wide payloads; with ``odd_values``, :func:`odd_json_values` too (integers too
    long to print, alone and spliced in)."""
    deep = deep_json(min_depth=min(500, max_depth), max_depth=max_depth)
    junk: st.SearchStrategy[Any] = json_values() | deep_json(min_depth=min(200, max_depth), max_depth=max_depth) | st.sampled_from((None, True, 0, "", [], {}))
    if odd_values:
        junk = junk | odd_json_values()
    real = st.sampled_from([s.payload for _, s in _recorded(api, False)] or [{}])
    spliced = st.builds(_replace_somewhere, real, st.integers(0, 10_000), junk)
    sources = [json_values(), deep, spliced, large_json(min_width=1_000, max_width=5_000)]
    if odd_values:
        sources.append(odd_json_values())
    return st.one_of(sources)


def hostile_events(api: ApiFilter = None, *, max_depth: int = 3_000) -> st.SearchStrategy[tuple[SSEEvent, ...]]:
    """Streams whose events carry arbitrary data: JSON of any shape, invalid text, nesting up to ``max_depth``."""
    data = st.one_of(
        json_values().map(lambda v: json.dumps(v, ensure_ascii=False)),
        st.text(max_size=40),
        st.integers(min(200, max_depth), max_depth).map(lambda d: "[" * d + "]" * d),
        st.just("[DONE]"),
        # valid JSON text Python's json cannot load: ValueError (not JSONDecodeError) past 4300 digits
        st.sampled_from(("9" * 5000, '{"type": ' + "1" * 5000 + ', "id": "x"}')),
    )
    names = st.none() | st.sampled_from(("message_start", "response.created", "ping", "error")) | st.text(max_size=8)
    return st.lists(st.builds(SSEEvent, data, names), max_size=8).map(tuple)


# -- transport ----------------------------------------------------------------------------------------


@st.composite
def sse_chunkings(draw: st.DrawFn, events: Sequence[SSEEvent]) -> list[bytes]:
    """The wire bytes of ``events`` cut at arbitrary points (inside UTF-8 sequences and CRLFs too)."""
    crlf = draw(st.booleans())
    text = format_sse(events)
    if crlf:
        text = text.replace("\n", "\r\n")
    raw = text.encode("utf-8")
    cuts = sorted(set(draw(st.lists(st.integers(0, len(raw)), max_size=12))))
    event(f"sse chunking: {len(cuts) + 1} chunks{' CRLF' if crlf else ''}")
    bounds = [0, *cuts, len(raw)]
    return [raw[a:b] for a, b in itertools.pairwise(bounds)]

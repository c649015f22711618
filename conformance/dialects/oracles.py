"""The property logic of RT-1..RT-7 and the SM checks, as pure functions over the implementation
under test.

Each ``check_*`` takes the implementation's callables (``strictify``, ``encode``, ``decode``,
already bound to a dialect) plus the generated schema or value, and returns ``None`` when the
rule holds or an :class:`Finding` naming the rule, the JSON pointer and a counterexample
as JSON. :func:`require` turns a failure into an ``AssertionError`` for a test.

"Except where a reported loss explains it, and only there": a loss explains a difference only
where it says. A ``keyword-stripped`` or ``loosened`` loss explains errors of its node's own
assertions, at the node or at what it applies in place (``allOf``/``anyOf``/``oneOf`` branches,
``$ref`` targets: a merged node's origin is where the merge happened), never of what nests below
it unless it names that keyword (:func:`_soundness_places`); a ``truncated`` or ``opaque`` loss,
everything below its node; a completeness loss, the values its node governs, found by validating
the value against the original schema with that node replaced by a marker that always fails. A
loss that names nothing in the original (a pointer that does not resolve, a stripped keyword the
node does not have, ``*``) explains nothing and fails the rule that would use it
(:func:`loss_problem`).
"""

from __future__ import annotations

import copy
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from jsonschema import Draft202012Validator, validators  # type: ignore[import-untyped]
from jsonschema.exceptions import ValidationError  # type: ignore[import-untyped]

from strictconformance.dialects.aliasing import first_shared_node
from strictconformance.dialects.model import LOSS_KINDS, Dialect, Loss, Strictified
from strictconformance.dialects.pointers import (
    is_under,
    join_pointer,
    pointer_from_path,
    resolve_local_reference,
    resolve_pointer,
    split_pointer,
)
from strictconformance.dialects.validator import validate_strict
from strictconformance.dialects.values import canonical, json_equal
from strictconformance.findings import Finding
from strictconformance.spec.keywords import (
    CHILD_APPLICATORS,
    COMBINATORS,
    DEFINITION_KEYWORDS,
    KEYWORDS,
    OLD_DRAFT_SUBSCHEMA_KEYWORDS,
    SCHEMA_ARRAY_KEYWORDS,
    SCHEMA_MAP_KEYWORDS,
    SUBSCHEMAS,
)

__all__ = [
    "check_rt1_obeys_rules",
    "check_rt2_pure",
    "check_rt3_idempotent",
    "check_rt4_complete",
    "check_rt5_sound",
    "check_rt6_no_silent_collapse",
    "check_rt7_decodes_wire",
    "check_sm_rule",
    "explained_by_losses",
    "governed_value_paths",
    "loss_problem",
    "oracle_finding",
    "require",
    "schema_location",
]

Schema = dict[str, Any]
StrictifyFn = Callable[[Schema], Any]
CodecFn = Callable[[Any], Any]
ValuePath = tuple[str | int, ...]

_MARKER = "\x00strictconformance: a value governed by a loss"


def oracle_finding(rule_id: str, pointer: str, message: str, counterexample: dict[str, Any] | None = None, *,
                   detail: str | None = None) -> Finding:
    """A broken rule as the kit's :class:`~strictconformance.findings.Finding` (a violation): which,
    where (``pointer``, "" for none), why, what tells this bug from the rule's others (``detail``,
    part of the key) and the counterexample (JSON)."""
    key = f"{rule_id} violation: {detail}" if detail else f"{rule_id} violation"
    return Finding(rule=rule_id, kind="violation", key=key, message=message, where=pointer or None,
                   counterexample=dict(counterexample or {}))


def require(failure: Finding | None) -> None:
    """Raise ``AssertionError`` carrying the finding (for tests)."""
    if failure is not None:
        shown = json.dumps(failure.counterexample, indent=2, sort_keys=False, default=repr)
        raise AssertionError(f"{failure.key} at {failure.where or '/'}: {failure.message}\ncounterexample:\n{shown}")


#: Keywords whose value holds subschemas by name or index: a node under one is described by it.
_HOLDERS = SCHEMA_MAP_KEYWORDS | SCHEMA_ARRAY_KEYWORDS | {k for k, entry in SUBSCHEMAS.items() if entry.array_form}


def shape_at(schema: Any, pointer: str) -> str:
    """The node shape at ``pointer`` in ``schema`` and where it sits, for a finding's key: "object
    inside prefixItems", "empty object inside properties", "`format` of a string at the root"...
    Two bugs at differently placed or shaped nodes get different keys."""
    try:
        tokens: list[str] = list(split_pointer(pointer))
    except ValueError:
        return "a node"
    keyword = ""
    try:
        node = resolve_pointer(schema, pointer)
    except (LookupError, ValueError):
        node = None
    if tokens and (not isinstance(node, (dict, bool)) or not _schema_position(schema, tokens)):
        # a keyword's value (`uniqueItems: true`, `default: {...}` are values, not schemas): describe its node
        keyword = tokens.pop()
        try:
            node = resolve_pointer(schema, join_pointer("", *tokens))
        except (LookupError, ValueError):
            node = None
    kind = _node_kind(node)
    if keyword:
        kind = f"`{keyword}` of {'an' if kind[0] in 'aeiou' else 'a'} {kind}"
    if not tokens:
        return f"{kind} at the root"
    holder = tokens[-2] if len(tokens) >= 2 and tokens[-2] in _HOLDERS and tokens[-1] not in _HOLDERS else tokens[-1]
    if holder.isdigit():
        holder = "an array"
    return f"{kind} inside {holder}"


def _schema_position(schema: Any, tokens: Sequence[str]) -> bool:
    """Whether the pointer ``tokens`` names a schema (the root, a subschema keyword's value, a member
    of a map or array of subschemas) rather than a keyword's value, read from the root down: a
    property named ``default`` is a schema, the ``default`` beside ``type`` is a value."""
    node, position = schema, "schema"
    for token in tokens:
        if position == "schema":
            entry = SUBSCHEMAS.get(token) if isinstance(node, dict) else None
            node = node.get(token) if isinstance(node, dict) else None
            if entry is None:
                return False  # a keyword's value, and everything under it
            position = "map" if entry.holds == "schema-map" else "array" if entry.holds == "schema-array" or isinstance(node, list) else "schema"
        else:  # a member of a map (by name) or of an array (by index) of subschemas
            try:
                node = node[int(token)] if isinstance(node, list) else node.get(token) if isinstance(node, dict) else None
            except (ValueError, IndexError):
                node = None
            position = "schema"
    return position == "schema"


def _node_kind(node: Any) -> str:
    if isinstance(node, bool):
        return f"boolean schema {str(node).lower()}"
    if not isinstance(node, dict):
        return "node"
    declared = node.get("type")
    types = declared if isinstance(declared, list) else [declared] if isinstance(declared, str) else []
    if "object" in types or "properties" in node:
        empty = not node.get("properties") and not node.get("patternProperties") and not isinstance(node.get("additionalProperties"), dict)
        return "empty object" if empty else "object"
    if types:
        return "/".join(str(t) for t in types)
    for keyword in ("$ref", "anyOf", "oneOf", "allOf", "enum", "const", "not"):
        if keyword in node:
            return f"{keyword} node"
    return "untyped node" if node else "empty schema"


def _raised(error: str) -> str:
    """The exception type of an error text ``Type: message``."""
    return error.split(":", 1)[0]


class _Refused(Exception):
    """The implementation refused the input (raised): not a rule violation by itself."""


def _strictified(strictify: StrictifyFn, schema: Schema, rule_id: str, *, accepted: bool = False) -> Strictified | Finding:
    """Call ``strictify`` on a copy of ``schema``. Raising on a caller's schema is a refusal
    (:class:`_Refused`); raising where it must accept (``accepted``), or returning something unusable, fails."""
    try:
        result = strictify(copy.deepcopy(schema))
    except Exception as exc:
        if accepted:
            return oracle_finding(rule_id, "", f"strictify raised on a schema it must accept (its own output, or an input it accepted before): {type(exc).__name__}: {exc}", {"schema": schema},
                                  detail=f"strictify raises {type(exc).__name__} on its own output")
        raise _Refused(f"{type(exc).__name__}: {exc}") from exc
    try:
        return Strictified.coerce(result)
    except (TypeError, ValueError) as exc:
        return oracle_finding(rule_id, "", f"strictify returned an unusable result: {exc}", {"schema": schema}, detail="unusable result")


def _refusals_pass(check: Callable[..., Finding | None]) -> Callable[..., Finding | None]:
    """A schema the implementation refuses (raises on) is not a violation of these rules."""
    def run(*args: Any, **kwargs: Any) -> Finding | None:
        try:
            return check(*args, **kwargs)
        except _Refused:
            return None
    run.__name__, run.__doc__ = check.__name__, check.__doc__
    return run


def _losses_json(losses: Iterable[Loss]) -> list[dict[str, str]]:
    return [loss.as_json() for loss in losses]


# --- RT-1, RT-2, RT-3, SM --------------------------------------------------------------------

@_refusals_pass
def check_rt1_obeys_rules(schema: Schema, strictify: StrictifyFn, dialect: str | Dialect) -> Finding | None:
    """RT-1: the strict schema breaks no rule of the dialect (per the independent validator)."""
    result = _strictified(strictify, schema, "RT-1")
    if isinstance(result, Finding):
        return result
    violations = validate_strict(result.schema, dialect)
    if not violations:
        return None
    first = violations[0]
    return oracle_finding("RT-1", first.pointer, f"{len(violations)} rule violation(s), first: {first}",
                          detail=f"{first.rule_id} at {shape_at(result.schema, first.pointer)}", counterexample=
                         {"schema": schema, "strict": result.schema, "violations": [str(v) for v in violations[:10]]})


@_refusals_pass
def check_sm_rule(rule_id: str, schema: Schema, strictify: StrictifyFn, dialect: str | Dialect) -> Finding | None:
    """SM-xx: the strict schema breaks this one rule nowhere."""
    result = _strictified(strictify, schema, rule_id)
    if isinstance(result, Finding):
        return result
    violations = [v for v in validate_strict(result.schema, dialect) if v.rule_id == rule_id]
    if not violations:
        return None
    return oracle_finding(rule_id, violations[0].pointer, f"{violations[0].check}: {violations[0].message}",
                          detail=shape_at(result.schema, violations[0].pointer), counterexample=
                         {"schema": schema, "strict": result.schema, "violations": [str(v) for v in violations[:10]]})


@_refusals_pass
def check_rt2_pure(schema: Schema, strictify: StrictifyFn) -> Finding | None:
    """RT-2: the input is not mutated, the same input gives the same output, and the output shares
    no dict or list with itself or with a second call's output (its sharing with the input is
    the harness's to see: it alone holds the adapter's own argument)."""
    pristine = copy.deepcopy(schema)
    given = copy.deepcopy(schema)
    try:
        returned = strictify(given)
    except Exception as exc:
        raise _Refused(str(exc)) from exc
    if canonical(given) != canonical(pristine) or list(_key_orders(given)) != list(_key_orders(pristine)):
        return oracle_finding("RT-2", "", "strictify mutated its input", {"schema": pristine, "after the call": given},
                              detail="strictify() mutates its input")
    try:
        first = Strictified.coerce(returned)
    except (TypeError, ValueError) as exc:
        return oracle_finding("RT-2", "", f"strictify returned an unusable result: {exc}", {"schema": schema}, detail="unusable result")
    second = _strictified(strictify, schema, "RT-2", accepted=True)
    if isinstance(second, Finding):
        return second
    shared = first_shared_node(first.schema, {"the output of a second call": second.schema})
    if shared is not None:  # editing one place of the output (or one call's output) edits another
        within = shared[1].startswith("the output itself")
        return oracle_finding("RT-2", shared[0] if shared[0] != "/" else "", f"the strict schema's node at {shared[0]} is the very object of "
                              f"{shared[1]} (not a copy)", {"schema": schema, "strict": first.schema},
                              detail="a node shared within the output" if within else "a node shared between calls' outputs")
    if json.dumps(first.schema) != json.dumps(second.schema) or first.losses != second.losses:
        return oracle_finding("RT-2", "", "the same input gave different outputs", detail="different outputs for the same input", counterexample=
                             {"schema": schema, "first": first.schema, "second": second.schema,
                              "first losses": _losses_json(first.losses), "second losses": _losses_json(second.losses)})
    return None


def _key_orders(value: Any) -> Iterator[tuple[str, ...]]:
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            yield tuple(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


@_refusals_pass
def check_rt3_idempotent(schema: Schema, strictify: StrictifyFn) -> Finding | None:
    """RT-3: strictifying the output again changes nothing."""
    once = _strictified(strictify, schema, "RT-3")
    if isinstance(once, Finding):
        return once
    twice = _strictified(strictify, once.schema, "RT-3", accepted=True)
    if isinstance(twice, Finding):
        return twice
    if canonical(once.schema) == canonical(twice.schema):
        return None
    differs = _first_difference(once.schema, twice.schema)
    return oracle_finding("RT-3", differs, "strictify(strictify(s)) differs from strictify(s)", detail=f"changes {shape_at(once.schema, differs)}",
                          counterexample=
                         {"schema": schema, "once": once.schema, "twice": twice.schema})


def _first_difference(a: Any, b: Any, path: ValuePath = ()) -> str:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in list(a) + [k for k in b if k not in a]:
            if key not in a or key not in b or canonical(a[key]) != canonical(b[key]):
                return _first_difference(a.get(key), b.get(key), (*path, key)) if key in a and key in b else pointer_from_path((*path, key))
    if isinstance(a, list) and isinstance(b, list) and len(a) == len(b):
        for index, (x, y) in enumerate(zip(a, b, strict=True)):
            if canonical(x) != canonical(y):
                return _first_difference(x, y, (*path, index))
    return pointer_from_path(path)


# --- what a loss names ------------------------------------------------------------------------

#: Draft 2020-12's keywords (with the deprecated ones its meta-schema keeps) and the older drafts'
#: subschema keywords the kit reads: what a loss's ``keyword`` may name.
_KEYWORDS = KEYWORDS["2020-12"] | OLD_DRAFT_SUBSCHEMA_KEYWORDS | DEFINITION_KEYWORDS
#: Keywords whose errors jsonschema reports under another keyword, or whose meaning another keyword
#: completes: removing or loosening the first changes what the others reject.
_EVALUATED_WITH: dict[str, tuple[str, ...]] = {
    "minContains": ("contains",), "maxContains": ("contains",), "contains": ("minContains", "maxContains"),
    "then": ("if",), "else": ("if",), "if": ("then", "else"),
    "patternProperties": ("additionalProperties", "unevaluatedProperties"),
    "additionalProperties": ("unevaluatedProperties", "patternProperties"),
    "properties": ("additionalProperties", "unevaluatedProperties"),
    "prefixItems": ("items", "unevaluatedItems"), "items": ("prefixItems", "unevaluatedItems", "additionalItems"),
}


def _named_keywords(loss: Loss) -> list[str]:
    """The keywords a loss names: one, or several for a merged loss (``"minLength, maxLength"``)."""
    return [part for part in loss.keyword.replace(",", " ").split() if part]


def _applied_in_place(original: Any, pointer: str) -> list[tuple[str, dict[str, Any]]]:
    """The original's schema nodes that apply to the same value as the node at ``pointer``: itself,
    its ``allOf``/``anyOf``/``oneOf`` branches and ``$ref`` targets, transitively (no value edges)."""
    try:
        start = resolve_pointer(original, pointer)
    except LookupError:
        return []
    found: list[tuple[str, dict[str, Any]]] = []
    seen: set[str] = set()
    stack: list[tuple[str, Any]] = [(pointer, start)]
    while stack:
        here, node = stack.pop()
        if here in seen or not isinstance(node, dict):
            continue
        seen.add(here)
        found.append((here, node))
        for combinator in COMBINATORS:  # not `not`/`if`/`dependentSchemas`: negated or conditional
            if isinstance(node.get(combinator), list):
                stack.extend((join_pointer(here, combinator, index), branch) for index, branch in enumerate(node[combinator]))
        for keyword in ("$ref", "$dynamicRef"):
            if isinstance(node.get(keyword), str):
                target = resolve_local_reference(original, node[keyword])
                if target is not None:
                    stack.append(target)
    return found


def _keyword_loss_node(original: Any, loss: Loss) -> str:
    """The node a keyword loss is about: its pointer, or the pointer's parent when the pointer
    names the keyword itself (``/properties/a/maxLength`` with keyword ``maxLength``)."""
    tokens = split_pointer(loss.pointer) if loss.pointer.startswith("/") or loss.pointer == "" else []
    keywords = _named_keywords(loss)
    if tokens and tokens[-1] in keywords:
        parent = join_pointer("", *tokens[:-1])
        try:
            here = resolve_pointer(original, loss.pointer)
        except LookupError:
            return loss.pointer
        if not (isinstance(here, dict) and tokens[-1] in here):  # not a node holding that keyword itself
            return parent
    return loss.pointer


def loss_problem(original: Any, loss: Loss) -> str | None:
    """Why ``loss`` names nothing real in ``original`` (None when it does): its pointer must
    resolve; a ``keyword-stripped``/``loosened`` loss must name a keyword its node (or what the node
    applies in place) has; any other loss names a JSON Schema keyword or none."""
    pointer = loss.pointer
    if loss.kind == "absent-null-collapse":
        try:
            tokens = split_pointer(pointer)
        except ValueError:
            tokens = []
        if len(tokens) < 2 or tokens[-2] not in ("properties", "prefixItems"):
            return f"an absent/null collapse names a property (/properties/<name> under its object), not {pointer!r}"
        pointer = join_pointer("", *tokens[:-2])
    try:
        resolve_pointer(original, pointer)
    except (LookupError, ValueError):
        return f"its pointer {loss.pointer!r} points at nothing in the original schema (loss pointers point into the ORIGINAL schema)"
    keywords = _named_keywords(loss)
    if loss.kind in ("keyword-stripped", "loosened"):
        if not keywords:
            return f"a {loss.kind} loss must name the keyword it is about"
        node = _keyword_loss_node(original, loss)
        present = {keyword for _, schema in _applied_in_place(original, node) for keyword in schema}
        missing = [keyword for keyword in keywords if keyword not in present]
        if missing:
            return f"the node at {node or '/'} has no {', '.join(f'`{k}`' for k in missing)} to lose"
        return None
    unknown = [keyword for keyword in keywords if keyword not in _KEYWORDS]
    if unknown:
        return f"{', '.join(f'`{k}`' for k in unknown)} is not a JSON Schema keyword"
    return None


def _unreal_loss(rule_id: str, original: Any, losses: Sequence[Loss], *, completeness: bool) -> Finding | None:
    """The failure for the first loss of the kinds ``rule_id`` uses that names nothing real."""
    for loss in losses:
        breaks_completeness, breaks_soundness, _ = LOSS_KINDS[loss.kind]
        if not (breaks_completeness if completeness else breaks_soundness):
            continue
        problem = loss_problem(original, loss)
        if problem is not None:
            return oracle_finding(rule_id, loss.pointer,
                                 f"the reported loss {json.dumps(loss.as_json())} names nothing in the original schema: {problem}. "
                                 "A loss explains a difference only where it says (SPEC §4: \"and only there\")", detail=f"a {loss.kind} loss names nothing",
                                  counterexample=
                                 {"schema": original, "losses": _losses_json(losses)})
    return None


#: Keywords whose subschemas constrain values nested in the node's value (or its keys' neighbours):
#: errors below them are not the node's own. Child applicators and definitions, but not
#: ``propertyNames``: it judges the node's own keys, so a loss at the node (an object closed to
#: its declared names) explains its errors.
_NESTING_KEYWORDS = (CHILD_APPLICATORS | DEFINITION_KEYWORDS) - {"propertyNames"}


@dataclass(frozen=True)
class _Places:
    """Where soundness losses explain errors: anywhere under a ``subtree``, or exactly at an ``own``
    keyword (an error of the keyword itself, not of a subschema below it)."""

    subtrees: tuple[str, ...]
    own: frozenset[str]

    def explain(self, visited: Sequence[str]) -> bool:
        return bool(visited) and (visited[-1] in self.own or any(is_under(pointer, prefix) for prefix in self.subtrees for pointer in visited))


def _soundness_places(original: Any, losses: Iterable[Loss]) -> _Places:
    """Where the soundness losses explain an error. A truncated or opaque node: its whole subtree.
    A stripped or loosened keyword: the assertions of its node, that is of every node applied in
    place with it (``allOf``/``anyOf``/``oneOf`` branches, ``$ref`` targets; a merged node's origin is
    where the merge happened), with the subschemas of the keywords it names and of in-place ones
    (``not``, ``if``...), never what nests below (``properties``, ``items``...) unless it names that
    keyword. Several keywords stripped at one node may be reported as one loss naming one of them.
    Losses naming nothing real explain nothing."""
    subtrees: list[str] = []
    own: set[str] = set()
    for loss in losses:
        if not LOSS_KINDS[loss.kind][1] or loss_problem(original, loss) is not None:
            continue
        if loss.kind not in ("keyword-stripped", "loosened"):
            subtrees.append(loss.pointer)
            continue
        keywords = _named_keywords(loss)
        named = {*keywords, *(other for keyword in keywords for other in _EVALUATED_WITH.get(keyword, ()))}
        for here, schema in _applied_in_place(original, _keyword_loss_node(original, loss)):
            for keyword in schema:
                if keyword in ("$ref", "$dynamicRef"):
                    continue  # the targets are nodes of their own in the list
                place = join_pointer(here, keyword)
                if keyword in COMBINATORS or (keyword in _NESTING_KEYWORDS and keyword not in named):
                    # the keyword's own verdict only: a combinator's branches are nodes of their own in
                    # the list, and below a nesting keyword lie other nodes
                    own.add(place)
                else:
                    subtrees.append(place)
    return _Places(tuple(dict.fromkeys(subtrees)), frozenset(own))


# --- where losses apply ------------------------------------------------------------------------

def _with_marker(document: Any, pointer: str) -> Any | None:
    """A copy of ``document`` whose node at ``pointer`` also asserts a marker that always fails,
    so every value position the node applies to reports it (None if the pointer does not resolve).
    The node keeps its own keywords, so positions it reaches through recursion report too."""
    marker = {"const": _MARKER}
    result = copy.deepcopy(document)
    if not isinstance(result, dict):
        return {"allOf": [result, marker]}
    parent: Any = None
    last: str | int | None = None
    node: Any = result
    for token in split_pointer(pointer):
        parent = node
        if isinstance(node, dict) and token in node:
            last, node = token, node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            last, node = int(token), node[int(token)]
        else:
            return None
    if isinstance(node, dict):
        node["allOf"] = [*node.get("allOf", []), marker] if isinstance(node.get("allOf", []), list) else [marker]
    elif isinstance(node, bool) and parent is not None and last is not None:
        parent[last] = {"allOf": [node, marker]}
    else:
        return None
    return result


def _all_errors(errors: Iterable[ValidationError]) -> Iterator[ValidationError]:
    stack = list(errors)
    while stack:
        error = stack.pop()
        yield error
        stack.extend(error.context or ())


def _parallel_nodes(marked: Any, original: Any, found: dict[int, Any]) -> None:
    """Map each dict of ``marked`` (by identity) to the same place in ``original``."""
    stack = [(marked, original)]
    while stack:
        ours, theirs = stack.pop()
        if isinstance(ours, dict) and isinstance(theirs, dict):
            found[id(ours)] = theirs
            stack.extend((ours[key], theirs[key]) for key in ours if key in theirs)
        elif isinstance(ours, list) and isinstance(theirs, list):
            stack.extend(zip(ours, theirs, strict=False))


def schema_validator(schema: Any) -> Any:
    """A validator of ``schema`` in the draft its ``$schema`` names (draft-07's ``items`` list is a
    tuple there, and not a schema at all under 2020-12), 2020-12 when it names none."""
    return validators.validator_for(schema, default=Draft202012Validator)(schema)


def _branch_aware_validator(original: Any, marked: Any) -> Any:
    """A validator of ``marked`` whose ``anyOf``/``oneOf`` descend into every branch the value
    matches under the ORIGINAL schema (any of them may be the one an encoder chose), so a marker
    in a matching branch is found even when another branch also matches."""
    plain = schema_validator(original)
    originals: dict[int, Any] = {}
    _parallel_nodes(marked, original, originals)
    base = type(plain)
    standard = base.VALIDATORS

    def branches(keyword: str) -> Callable[..., Iterator[ValidationError]]:
        def check(validator: Any, subschemas: Any, instance: Any, schema: Any) -> Iterator[ValidationError]:
            matching = [
                index for index, branch in enumerate(subschemas)
                if plain.evolve(schema=originals.get(id(branch), branch)).is_valid(instance)
            ]
            if not matching:
                yield from standard[keyword](validator, subschemas, instance, schema)
            for index in matching:
                yield from validator.descend(instance, subschemas[index], schema_path=index)
        return check

    extended = validators.extend(base, {"anyOf": branches("anyOf"), "oneOf": branches("oneOf")})
    return extended(marked)


def governed_value_paths(original: Any, pointer: str, value: Any) -> set[ValuePath]:
    """The paths inside ``value`` that the original schema's node at ``pointer`` constrains."""
    marked = _with_marker(original, pointer)
    if marked is None:
        return set()
    try:
        validator = _branch_aware_validator(original, marked)
        return {
            tuple(error.absolute_path)
            for error in _all_errors(validator.iter_errors(value))
            if error.validator == "const" and error.validator_value == _MARKER
        }
    except Exception:  # a marker inside an unusual keyword position: it governs nothing we can find
        return set()


def _loss_regions(original: Any, losses: Iterable[Loss], value: Any, *, completeness: bool) -> set[ValuePath]:
    """Value paths where losses of the relevant kind explain a difference."""
    regions: set[ValuePath] = set()
    for loss in losses:
        breaks_completeness, _, _ = LOSS_KINDS.get(loss.kind, (True, True, ""))
        if completeness and not breaks_completeness:
            continue
        if loss_problem(original, loss) is not None:
            continue  # names nothing: explains nothing
        if loss.kind == "absent-null-collapse":
            tokens = split_pointer(loss.pointer)
            if len(tokens) >= 2 and tokens[-2] in ("properties", "prefixItems"):
                parent = join_pointer("", *tokens[:-2])
                key: str | int = int(tokens[-1]) if tokens[-2] == "prefixItems" else tokens[-1]
                regions.update((*path, key) for path in governed_value_paths(original, parent, value))
            continue
        governed = governed_value_paths(original, loss.pointer, value)
        narrowed_to = _narrowed_positions(original, loss) if loss.kind == "narrowed" else None
        if narrowed_to is None:
            regions.update(governed)
            continue
        for path in governed:  # only the extra keys or items the loss says cannot travel
            here = _value_at(value, path)
            if isinstance(here, dict):
                regions.update((*path, key) for key in here if narrowed_to(key))
            elif isinstance(here, list):
                regions.update((*path, index) for index in range(len(here)) if narrowed_to(index))
    return regions


def _narrowed_positions(original: Any, loss: Loss) -> Callable[[str | int], bool] | None:
    """For a loss of extra keys (``additionalProperties``) or extra tuple items (``items``): which
    keys or indexes of a governed value it covers. None: the whole value (anything else, or a node
    whose declared keys cannot be told for sure)."""
    try:
        node = resolve_pointer(original, loss.pointer)
    except LookupError:
        return None
    if not isinstance(node, dict):
        return None
    if loss.keyword == "items" and isinstance(node.get("prefixItems"), list):
        positions = len(node["prefixItems"])
        return lambda index: isinstance(index, int) and index >= positions
    if loss.keyword != "additionalProperties":
        return None
    declared: set[str] = set()
    stack, seen = [node], set()
    while stack:
        current = stack.pop()
        if not isinstance(current, dict) or id(current) in seen:
            continue
        seen.add(id(current))
        if "patternProperties" in current or "$dynamicRef" in current:
            return None  # which keys it declares depends on more than names
        if isinstance(current.get("properties"), dict):
            declared.update(current["properties"])
        for combinator in COMBINATORS:
            if isinstance(current.get(combinator), list):
                stack.extend(current[combinator])
        if isinstance(current.get("$ref"), str):
            target = resolve_local_reference(original, current["$ref"])
            if target is None:
                return None
            stack.append(target[1])
    return lambda key: key not in declared


def _value_at(value: Any, path: ValuePath) -> Any:
    for step in path:
        found = (isinstance(value, dict) and step in value) or (isinstance(value, list) and isinstance(step, int) and step < len(value))
        if not found:
            return None
        value = value[step]
    return value


def _differences(a: Any, b: Any, path: ValuePath = ()) -> Iterator[ValuePath]:
    if isinstance(a, dict) and isinstance(b, dict):
        for key in dict.fromkeys([*a, *b]):
            if key not in a or key not in b:
                yield (*path, key)
            else:
                yield from _differences(a[key], b[key], (*path, key))
    elif isinstance(a, list) and isinstance(b, list):
        for index, (x, y) in enumerate(zip(a, b, strict=False)):
            yield from _differences(x, y, (*path, index))
        for index in range(min(len(a), len(b)), max(len(a), len(b))):  # an item one side lacks
            yield (*path, index)
    elif canonical(a) != canonical(b):
        yield path


def _under_region(path: ValuePath, regions: set[ValuePath]) -> bool:
    return any(path[: len(region)] == region for region in regions)


def _visited(original: Any, schema_path: Sequence[str | int]) -> list[str]:
    """Every pointer into ``original`` a jsonschema error's ``absolute_schema_path`` passes,
    following the ``$ref`` hops jsonschema leaves out of the path (a ref site, then its target)."""
    node, pointer = original, ""
    visited = [pointer]
    for token in schema_path:
        key = str(token)
        if key in ("$ref", "$dynamicRef") and isinstance(node, dict) and isinstance(node.get(key), str):
            target = resolve_local_reference(original, node[key])  # jsonschema names this hop (it omits $ref's)
            if target is not None:
                pointer, node = target
                visited.append(pointer)
                continue
        while isinstance(node, dict) and key not in node and isinstance(hop := node.get("$ref", node.get("$dynamicRef")), str):
            target = resolve_local_reference(original, hop)
            if target is None:
                break
            pointer, node = target
            visited.append(pointer)
        if isinstance(node, dict) and key in node:
            node, pointer = node[key], join_pointer(pointer, key)
        elif isinstance(node, list) and isinstance(token, int) and token < len(node):
            node, pointer = node[token], join_pointer(pointer, token)
        else:
            node, pointer = None, join_pointer(pointer, key)
        visited.append(pointer)
    return visited


def schema_location(original: Any, schema_path: Sequence[str | int]) -> str:
    """The pointer into ``original`` that a jsonschema error's ``absolute_schema_path`` names."""
    return _visited(original, schema_path)[-1]


def explained_by_losses(original: Any, error: ValidationError, losses: Sequence[Loss]) -> bool:
    """Is this validation error (of a decoded value against the original) where a reported loss
    says (see the module docstring)? A failed ``anyOf``/``oneOf`` is explained when every error of
    one of its branches is."""
    return _explained(original, error, _soundness_places(original, losses))


def _explained(original: Any, error: ValidationError, places: _Places) -> bool:
    # the error's path through the original, $ref hops included: a loss's place reached that way counts
    if places.explain(_visited(original, list(error.absolute_schema_path))):
        return True
    if error.context:
        by_branch: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            by_branch.setdefault(sub.relative_schema_path[0] if sub.relative_schema_path else None, []).append(sub)
        return any(all(_explained(original, sub, places) for sub in subs) for subs in by_branch.values())
    return False


# --- RT-4 .. RT-7 --------------------------------------------------------------------------------

def _call(fn: CodecFn, value: Any) -> tuple[Any, str | None]:
    try:
        return fn(copy.deepcopy(value)), None
    except Exception as exc:  # the implementation under test raised: report it as the failure
        return None, f"{type(exc).__name__}: {exc}"


def check_rt4_complete(original: Schema, strict: Strictified, encode: CodecFn, decode: CodecFn, value: Any) -> Finding | None:
    """RT-4: ``value`` (valid under the original) encodes to a strict-valid wire value that
    decodes back to an equal value, except where a completeness loss governs it."""
    unreal = _unreal_loss("RT-4", original, strict.losses, completeness=True)
    if unreal is not None:
        return unreal
    example = {"schema": original, "strict": strict.schema, "value": value, "losses": _losses_json(strict.losses)}
    regions = _loss_regions(original, strict.losses, value, completeness=True)
    wire, error = _call(encode, value)
    if error:
        return None if regions else oracle_finding("RT-4", "", f"encode raised {error}", example, detail=f"encode raises {_raised(error)}")
    example["wire"] = wire
    wire_errors = list(schema_validator(strict.schema).iter_errors(wire))
    if wire_errors:
        if regions:  # the value holds what a reported loss says cannot travel: nothing more to check
            return None
        first = min(wire_errors, key=lambda e: len(e.absolute_path))
        return oracle_finding("RT-4", pointer_from_path(first.absolute_path),
                             f"the encoded value is not valid under the strict schema: {first.message}", example,
                              detail=f"encoded value breaks `{_failing_keyword(first)}`")
    decoded, error = _call(decode, wire)
    if error:
        return None if regions else oracle_finding("RT-4", "", f"decode raised {error}", example, detail=f"decode raises {_raised(error)}")
    example["decoded"] = decoded
    unexplained = [path for path in _differences(value, decoded) if not _under_region(path, regions)]
    if unexplained:
        return oracle_finding("RT-4", pointer_from_path(unexplained[0]),
                             "decode(encode(value)) differs from value and no reported loss explains it", example,
                              detail="decode(encode(value)) is not value")
    return None


def _failing_keyword(error: Any) -> str:
    """The keyword a validation error names, for a finding's key: its ``validator``, or, where a
    ``false`` subschema rejected the value (jsonschema names no validator then), the keyword holding
    that subschema (``prefixItems`` for ``prefixItems: [false]``), never ``None``."""
    if error.validator is not None:
        return str(error.validator)
    return next((part for part in reversed(list(error.absolute_schema_path)) if isinstance(part, str)), "false")


def check_rt5_sound(original: Schema, strict: Strictified, decode: CodecFn, wire: Any) -> Finding | None:
    """RT-5: ``wire`` (valid under the strict schema) decodes to a value valid under the original,
    except where a reported loss explains an error, and only there."""
    unreal = _unreal_loss("RT-5", original, strict.losses, completeness=False)
    if unreal is not None:
        return unreal
    example = {"schema": original, "strict": strict.schema, "wire": wire, "losses": _losses_json(strict.losses)}
    decoded, error = _call(decode, wire)
    if error:
        return oracle_finding("RT-5", "", f"decode raised {error} on a value valid under the strict schema", example,
                              detail=f"decode raises {_raised(error)}")
    example["decoded"] = decoded
    places = _soundness_places(original, strict.losses)
    for failure in schema_validator(original).iter_errors(decoded):
        if not _explained(original, failure, places):
            return oracle_finding("RT-5", schema_location(original, list(failure.absolute_schema_path)),
                                 f"the decoded value is not valid under the original schema at value path "
                                 f"{pointer_from_path(failure.absolute_path) or '/'}: {failure.message}", example,
                                  detail=f"decoded value breaks `{_failing_keyword(failure)}`")
    return None


def _null_partners(value: Any, path: ValuePath = ()) -> Iterator[tuple[ValuePath, Any]]:
    """For every ``null`` property in ``value``: (its path, ``value`` with it absent)."""
    if isinstance(value, dict):
        for key, item in value.items():
            if item is None:
                yield (*path, key), {k: v for k, v in value.items() if k != key}
            for sub_path, partner in _null_partners(item, (*path, key)):
                yield sub_path, {**value, key: partner}
    elif isinstance(value, list):
        for index, item in enumerate(value):
            for sub_path, partner in _null_partners(item, (*path, index)):
                yield sub_path, [*value[:index], partner, *value[index + 1:]]


def check_rt6_no_silent_collapse(original: Schema, strict: Strictified, encode: CodecFn, value: Any) -> Finding | None:
    """RT-6: an optional property that is ``null`` in ``value`` and its absence, both valid, must
    encode apart, or a reported loss must cover that property."""
    validator = schema_validator(original)
    base, error = _call(encode, value)
    if error:
        return None  # RT-4's business
    for path, partner in _null_partners(value):
        if not validator.is_valid(partner):
            continue
        encoded, error = _call(encode, partner)
        if error or not json_equal(encoded, base):
            continue
        # a collapse loss at that property explains it, as does a narrowing that drops the region
        regions = _loss_regions(original, strict.losses, partner, completeness=True)
        regions |= _loss_regions(original, strict.losses, value, completeness=True)
        if not _under_region(path, regions):
            return oracle_finding("RT-6", pointer_from_path(path), "absent and null encode to the same wire value and no loss reports it",
                                 {"schema": original, "strict": strict.schema, "with null": value, "absent": partner,
                                  "wire": base, "losses": _losses_json(strict.losses)}, detail="absent and null collapse silently")
    return None


def check_rt7_decodes_wire(original: Schema, decode: CodecFn, value: Any, wire: Any, reference_losses: Sequence[Loss] = ()) -> Finding | None:
    """RT-7: the dialect's wire shape of ``value`` (``wire``, from the reference encoding) decodes
    to ``value`` itself, valid under the original: no wire shape reaches user code."""
    example = {"schema": original, "value": value, "wire": wire, "reference losses": _losses_json(reference_losses)}
    regions = _loss_regions(original, reference_losses, value, completeness=True)
    decoded, error = _call(decode, wire)
    if error:
        return None if regions else oracle_finding("RT-7", "", f"decode raised {error}", example, detail=f"decode raises {_raised(error)}")
    example["decoded"] = decoded
    unexplained = [path for path in _differences(value, decoded) if not _under_region(path, regions)]
    if unexplained:
        return oracle_finding("RT-7", pointer_from_path(unexplained[0]), "the decoded answer is not the original value (a wire shape reached user code)", example,
                              detail="a wire shape reaches user code")
    return None

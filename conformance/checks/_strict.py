"""What the SM and RT checks share: the dialects they are checked in, the adapter's strictify,
encode and decode reached through the harness, and how an oracle's verdict becomes a failure.

The dialects are the shipped ones and the adapter's own (``Adapter.dialects``): the check modules
parametrize over them at collection (:func:`parametrize_dialects`, from the run's declarations), so a
shipped dialect keeps its test ID (``[openai]``) and an adapter's own adds IDs with its name.

The oracles of :mod:`strictconformance.dialects.oracles` take the implementation as callables and
catch what it raises (a refusal, a codec error) to judge it themselves. The callables here go
through the harness, whose failures (a hang, a mutated argument, a junk result) must reach pytest
as they are: :class:`StrictImplementation` keeps the first one and re-raises it once the oracle
has returned, whatever the oracle did with it.
"""

from __future__ import annotations

import copy
import functools
import json
import reprlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, NoReturn

import pytest
from hypothesis import Phase, settings
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]
from jsonschema.exceptions import best_match  # type: ignore[import-untyped]
from jsonschema.validators import validator_for  # type: ignore[import-untyped]

from strictconformance.baseline import baseline_strictify
from strictconformance.dialects import Dialect, DialectRegistry, SchemaError, Strictified
from strictconformance.dialects.pointers import pointer_from_path
from strictconformance.dialects.validator import iter_schema_nodes
from strictconformance.findings import Finding, not_covered
from strictconformance.harness import (
    CallRecord,
    ConformanceFailure,
    Harness,
    _is_refusal,
    active_declarations,
)
from strictconformance.profiles import scaled

__all__ = [
    "Refused",
    "StrictImplementation",
    "budget",
    "dialects_checked",
    "parametrize_dialects",
    "require_dialect",
    "run_dialects",
    "show",
    "strict_values",
    "validated",
]

_META_SCHEMA = Draft202012Validator(Draft202012Validator.META_SCHEMA)
# strict schemas and values are JSON: shown in full up to this size and depth, then as the start of their text
_SHOWN_CHARS = 20_000
_SHOWN_DEPTH = 100


def run_dialects(config: pytest.Config) -> DialectRegistry:
    """The dialects of this run: the shipped ones, then the adapter's own (shipped only when the
    suite is not active: the checks are then collected and skipped)."""
    declarations = active_declarations(config)
    return declarations.dialect_registry if declarations is not None else DialectRegistry()


def dialects_checked(rule_id: str | None, registry: Mapping[str, Dialect]) -> list[str]:
    """The dialects a check of ``rule_id`` runs in: for an SM rule those applying it, else all."""
    if rule_id is not None and rule_id.startswith("SM-"):
        return [name for name, dialect in registry.items() if rule_id in dialect.rule_ids]
    return list(registry)


def parametrize_dialects(metafunc: pytest.Metafunc) -> None:
    """``pytest_generate_tests`` of the check modules: a check taking ``dialect`` runs once per
    dialect of the run that its rule (the ``sc_rule`` marker) is checked in."""
    if "dialect" not in metafunc.fixturenames:
        return
    marker = metafunc.definition.get_closest_marker("sc_rule")
    rule_id = str(marker.args[0]) if marker is not None and marker.args else None
    metafunc.parametrize("dialect", dialects_checked(rule_id, run_dialects(metafunc.config)))


def require_dialect(strictconformance_harness: Harness, dialect: str) -> Dialect:
    """The dialect called ``dialect`` (shipped or the adapter's own), or a "not covered" skip when
    the adapter does not declare it."""
    if dialect not in strictconformance_harness.declarations.strictify_dialects:
        not_covered(f"the adapter's strictify_dialects {list(strictconformance_harness.declarations.strictify_dialects)} "
                    f"do not include {dialect!r}")
    return strictconformance_harness.declarations.dialect_registry[dialect]


def budget(factor: float, *, at_least: int = 5, shrink: bool = True) -> settings:
    """``factor`` times the profile's examples (``at_least`` of them), without Hypothesis's explain
    phase (it re-runs a failing example many times; the report's counterexample says what failed)
    and, unless ``shrink``, without shrinking."""
    current = settings.get_profile(settings.get_current_profile_name())
    dropped = {Phase.explain} if shrink else {Phase.explain, Phase.shrink}
    return settings(scaled(factor, at_least=at_least), phases=tuple(phase for phase in current.phases if phase not in dropped))


def show(value: Any) -> Any:
    """``value`` for a counterexample: itself, or the start of its JSON text when it nests very deep
    (written without recursion: an adapter's junk may nest thousands deep)."""
    # a big value is kept whole: the report summarises it and writes it to a file (findings.bounded).
    # Called on every strictify answer: the depth walk alone decides (writing the JSON text first
    # cost ~4% of a strict check's CPU), the text is written only for a value that nests too deep
    if _depth_within(value, _SHOWN_DEPTH):
        return value
    text, complete, depth = _json_prefix(value, _SHOWN_CHARS)
    why = f"cut at {_SHOWN_CHARS} characters" if not complete else f"nested {depth} levels deep"
    return f"{text[:_SHOWN_CHARS]}{'...' if not complete else ''} ({why})"


def _depth_within(value: Any, limit: int) -> bool:
    """Whether ``value`` nests at most ``limit`` levels (iterative)."""
    stack = [(value, 0)]
    while stack:
        item, depth = stack.pop()
        if depth > limit:
            return False
        if isinstance(item, dict):
            stack.extend((sub, depth + 1) for sub in item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend((sub, depth + 1) for sub in item)
    return True


class _Text(str):
    """A piece of JSON text already written (a bracket, a separator, a key)."""


def _json_prefix(value: Any, limit: int) -> tuple[str, bool, int]:
    """The JSON text of ``value`` up to about ``limit`` characters, whether that is all of it, and
    the deepest nesting met. Iterative; anything that is not JSON is written as its short repr."""
    parts: list[str] = []
    size = deepest = 0
    stack: list[tuple[Any, int]] = [(value, 0)]
    while stack and size <= limit:
        item, depth = stack.pop()
        deepest = max(deepest, depth)
        if isinstance(item, _Text):
            piece: str = item
        elif isinstance(item, dict):
            stack.append((_Text("}"), depth))
            for index, (key, sub) in reversed(list(enumerate(item.items()))):
                stack.append((sub, depth + 1))
                stack.append((_Text(("" if index == 0 else ", ") + json.dumps(str(key)) + ": "), depth))
            piece = "{"
        elif isinstance(item, (list, tuple)):
            stack.append((_Text("]"), depth))
            for index, sub in reversed(list(enumerate(item))):
                stack.append((sub, depth + 1))
                if index:
                    stack.append((_Text(", "), depth))
            piece = "["
        elif item is None or isinstance(item, (str, int, float, bool)):
            piece = json.dumps(item)
        else:
            piece = reprlib.repr(item)
        parts.append(piece)
        size += len(piece)
    return "".join(parts), not stack, deepest


class Refused(Exception):
    """The adapter's strictify raised on a schema: a declared refusal (``declared``, one of its
    ``strictify_refusals``) or a crash. No output: the SM rules and RT-2..RT-7 do not judge it; RT-1
    reports a crash."""

    def __init__(self, error: BaseException, schema: Mapping[str, Any], dialect: Dialect, *, declared: bool) -> None:
        super().__init__(f"{type(error).__name__}: {error}")
        self.error = error
        self.declared = declared
        self._schema, self._dialect = schema, dialect

    @functools.cached_property
    def reference_refuses(self) -> bool:
        """Whether the reference refuses the schema too (input that is not a usable schema)."""
        return _reference_refuses(self._schema, self._dialect)


@dataclass
class StrictImplementation:
    """The adapter's strictify/encode/decode for one dialect, called through the harness (with the
    dialect's name, as the adapter contract says).

    What the adapter raises is handed back to the caller (an oracle judges it); the harness's own
    failures are kept and re-raised by :meth:`settle`.
    """

    strictconformance_harness: Harness
    dialect: Dialect
    failure: ConformanceFailure | None = None

    def _through(self, call: Callable[[], Any]) -> Any:
        __tracebackhide__ = True
        try:
            return call()
        except ConformanceFailure as failure:
            self.failure = self.failure or failure
            raise

    def strictify(self, schema: Mapping[str, Any]) -> Strictified:
        """The adapter's strict schema and losses for ``schema``. Raises :class:`Refused` when the
        adapter raises; a result that is not a Strictified of a JSON Schema object fails the check."""
        __tracebackhide__ = True
        harness = self.strictconformance_harness
        key = _memo_key(harness, self.dialect, schema)
        if key is not None and key in harness.strictify_memo:
            # the answer this input already got in this session (a clean call): recorded again
            # as this check's call, so its findings and reproducer still name it
            memo: tuple[Any, Strictified] = copy.deepcopy(harness.strictify_memo[key])
            answer, value = memo
            harness.transcript.append(CallRecord("strictify", (schema, self.dialect.name), result=answer, done=True))
            harness.count_strictify(dialect=self.dialect.name, unchanged=_same_json(value.schema, schema))
            return value
        if key is not None and key in harness.strictify_refusal_memo:
            # refused before in this session: the same exception, recorded as this check's call
            error = harness.strictify_refusal_memo[key]
            harness.transcript.append(CallRecord("strictify", (schema, self.dialect.name), error=error, done=True))
            self._refused(error, schema)
        attempt = self._through(lambda: harness.attempt("strictify", schema, self.dialect.name, allowed=(Exception,)))
        if attempt.error is not None:
            # only a declared refusal: a process harness's refusal answer goes through the
            # harness's handling of refusals each time, and a crash, a timeout or a dead harness
            # process may not happen again
            if key is not None and isinstance(attempt.error, harness.declarations.strictify_refusals):
                harness.strictify_refusal_memo[key] = attempt.error
            self._refused(attempt.error, schema)
        try:
            result = Strictified.coerce(attempt.value)
            problem = _schema_problem(result.schema)
        except (TypeError, ValueError) as error:
            problem = str(error)
            self.strictconformance_harness.count_strictify(dialect=self.dialect.name)
        else:
            self.strictconformance_harness.count_strictify(dialect=self.dialect.name, unchanged=_same_json(result.schema, schema))
        if problem is not None:
            self._fail(f"adapter.strictify() returned an unusable result: {problem}", detail="strictify() returned an unusable result")
        if key is not None:
            try:
                kept = copy.deepcopy((attempt.value, result))
            except Exception:  # an answer that cannot be copied is not kept: the next check calls again
                kept = None
            if kept is not None:
                harness.strictify_memo[key] = kept
        return result

    def _refused(self, error: BaseException, schema: Mapping[str, Any]) -> NoReturn:
        declared = (isinstance(error, self.strictconformance_harness.declarations.strictify_refusals)
                    or _is_refusal(error))  # a process harness's refusal answer (RT-10 judges it)
        refused = Refused(error, schema, self.dialect, declared=declared)
        # an undeclared exception on input the reference refuses too is no crash: the input is not a usable schema
        self.strictconformance_harness.count_strictify(error, declared=declared, dialect=self.dialect.name,
                                                       invalid_input=not declared and refused.reference_refuses, schema=schema)
        raise refused

    def _fail(self, message: str, *, detail: str | None = None, where: str | None = None) -> NoReturn:
        __tracebackhide__ = True
        try:
            self.strictconformance_harness.fail(message, detail=detail, where=where)
        except ConformanceFailure as failure:
            self.failure = self.failure or failure
            raise

    def strictify_fn(self) -> Callable[[dict[str, Any]], Strictified]:
        """:meth:`strictify` as the oracles call it (raising :class:`Refused` on a refusal)."""
        return self.strictify

    def encode_fn(self, original: Mapping[str, Any]) -> Callable[[Any], Any]:
        """The adapter's ``encode`` for values of ``original``, as the oracles call it."""
        return lambda value: self._codec("encode", original, value)

    def decode_fn(self, original: Mapping[str, Any]) -> Callable[[Any], Any]:
        """The adapter's ``decode`` for wire values of ``original``, as the oracles call it."""
        return lambda value: self._codec("decode", original, value)

    def _codec(self, method: str, original: Mapping[str, Any], value: Any) -> Any:
        __tracebackhide__ = True
        # every call gets its own copy of the original: a mutation of one is not seen by the next
        attempt = self._through(lambda: self.strictconformance_harness.attempt(method, copy.deepcopy(original), self.dialect.name, value, allowed=(Exception,)))
        if attempt.error is not None:
            raise attempt.error  # the oracle decides whether raising is allowed here
        return attempt.value

    def judge(self, oracle: Callable[[], Finding | None], strict: Strictified | None = None) -> None:
        """Run ``oracle`` and :meth:`settle` its verdict. When it crashes on the adapter's
        ``strict`` schema (jsonschema cannot use it), the check fails naming what is wrong with it."""
        __tracebackhide__ = True
        try:
            outcome = oracle()
        except Exception:
            if self.failure is not None:
                raise self.failure from None
            if strict is not None:
                self._breaks_the_dialect(strict)
            problem = _schema_problem(strict.schema, against_meta_schema=True) if strict is not None else None
            if problem is None:
                raise  # the kit's own error: the plugin reports it as such, never as the SDK's failure
            self._fail(f"adapter.strictify() returned a schema values cannot be checked against: {problem}",
                       detail="strictify() returned a schema values cannot be checked against")
        self.settle(outcome)

    def _breaks_the_dialect(self, strict: Strictified) -> None:
        """When an oracle could not use the adapter's strict schema (a dangling ``$ref``, an anchor
        nothing defines), fail with the dialect rule that schema breaks: the finding is that rule's
        (grouped with RT-1's), not the oracle's traceback. Returns when it breaks none."""
        __tracebackhide__ = True
        from strictconformance.dialects import validate_strict
        from strictconformance.dialects.oracles import shape_at

        try:
            violations = validate_strict(strict.schema, self.dialect)
        except Exception:
            return
        if not violations:
            return
        first = violations[0]
        self.strictconformance_harness.note(strict=show(strict.schema), violations=[str(violation) for violation in violations[:10]])
        self._fail(f"{self.dialect.name}: the strict schema breaks {first.rule_id} ({first}), so values cannot be checked against it",
                   where=first.pointer or "/", detail=f"{first.rule_id} at {shape_at(strict.schema, first.pointer)}")

    def settle(self, outcome: Finding | None) -> None:
        """Re-raise a harness failure met during the oracle; else fail with the oracle's verdict."""
        __tracebackhide__ = True
        if self.failure is not None:
            raise self.failure
        if outcome is None:
            return
        self.strictconformance_harness.note(**{key: show(value) for key, value in (outcome.counterexample or {}).items()})
        where = f" (at {outcome.where})" if outcome.where else ""
        detail = outcome.key.partition(": ")[2] or None
        self.strictconformance_harness.fail(f"{self.dialect.name}: {outcome.message}{where}", where=outcome.where, detail=detail)


def _memo_key(harness: Harness, dialect: Dialect, schema: Any) -> tuple[str, str] | None:
    """The key of ``schema``'s strictify answer in ``dialect`` in the harness's memo, or None when
    the call must be made: in RT-2's checks (purity and aliasing are judged on the call itself),
    once strictify hung (its later calls fail as that hang), or for input that is not JSON. The
    key is the JSON text as written: key order and ``true`` against ``1`` tell inputs apart."""
    if harness.current_rule == "RT-2" or "strictify" in harness._hung:
        return None
    try:
        return dialect.name, json.dumps(schema, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        return None


def validated(harness: Harness, schema: Mapping[str, Any], dialect: Dialect) -> list[Any]:
    """:func:`validate_strict` of a strict schema in ``dialect``, judged once per session for one
    output (by its JSON text): the same strict schema coming out of several cases or rule checks
    is validated once, and each check still fails on its own case with the same violations."""
    from strictconformance.dialects import validate_strict

    try:
        key: tuple[str, str] | None = dialect.name, json.dumps(schema, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        key = None
    if key is not None and key in harness.verdict_memo:
        return list(harness.verdict_memo[key])
    violations = list(validate_strict(schema, dialect))
    if key is not None:
        harness.verdict_memo[key] = tuple(violations)
    return violations


def strict_values(harness: Harness, schema: Mapping[str, Any]) -> Any:
    """The strategy of values of a strict schema, built once per session for one schema (by its
    JSON text): the examples and cases drawing from the same strict schema share its shape."""
    from strictconformance.strategies.instances import instances

    try:
        key: str | None = json.dumps(schema, ensure_ascii=False, allow_nan=False)
    except (TypeError, ValueError, RecursionError):
        key = None
    if key is None:
        return instances(schema, engine="compiled")
    if key not in harness.strategy_memo:
        harness.strategy_memo[key] = instances(copy.deepcopy(schema), engine="compiled")
    return harness.strategy_memo[key]


def _same_json(output: Any, given: Any) -> bool:
    """Whether strictify's output is its input as JSON (bool and int told apart, key order
    ignored). Linear in the input as written: a pair of shared sub-schemas is compared once."""
    seen: set[tuple[int, int]] = set()
    stack = [(output, given)]
    while stack:
        left, right = stack.pop()
        if left is right and isinstance(left, (str, int, float, bool, type(None))):
            continue
        if type(left) is not type(right) and not (isinstance(left, (list, tuple)) and isinstance(right, (list, tuple))):
            return False
        if isinstance(left, (dict, list, tuple)):
            pair = (id(left), id(right))
            if pair in seen:
                continue
            seen.add(pair)
            if len(left) != len(right):
                return False
            if isinstance(left, dict):
                if left.keys() != right.keys():
                    return False
                stack.extend((left[key], right[key]) for key in left)
            else:
                stack.extend(zip(left, right, strict=True))
        elif left != right:
            return False
    return True


def _schema_problem(schema: Any, *, against_meta_schema: bool = False) -> str | None:
    """Why ``schema`` is not a JSON Schema the checks can read (None when it is one)."""
    if not isinstance(schema, dict):
        return f"the strict schema is a {type(schema).__name__}, expected a JSON Schema object"
    try:
        for _ in iter_schema_nodes(schema):
            pass
    except SchemaError as not_a_schema:
        return f"the strict schema is not a JSON Schema: {not_a_schema}"
    # the meta-schema check is slow (tens of milliseconds): only to explain a crash
    invalid: Any = None
    draft = "Draft 2020-12"
    if against_meta_schema:  # in the draft its $schema names (a draft-07 tuple is valid draft-07)
        named = validator_for(schema, default=Draft202012Validator)
        meta = _META_SCHEMA if named is Draft202012Validator else named(named.META_SCHEMA)
        draft = "Draft 2020-12" if named is Draft202012Validator else f"{named.__name__.removesuffix('Validator')}"
        invalid = best_match(meta.iter_errors(schema))
    if invalid is not None:
        return f"the strict schema is not valid {draft} at {pointer_from_path(invalid.absolute_path) or '/'}: {invalid.message}"
    return None


def _reference_refuses(schema: Mapping[str, Any], dialect: Dialect) -> bool:
    try:
        baseline_strictify(schema, dialect)
    except SchemaError:
        return True
    return False

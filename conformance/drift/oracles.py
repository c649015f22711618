"""The property logic of DR-1..DR-6: call a drift check under test and judge what it did.

Each judge takes the check as a :class:`DriftChecker` (the adapter's ``check_response`` /
``check_stream``, its declared drift error types and how to read a path from them) plus one
response, and returns a :class:`Verdict` naming the rule, the call, what was expected and found,
and the counterexample as JSON. Judges never raise for anything the check does, except the
exception types the checker says to let through (``propagate``): the suite's harness failures
when the checker is the adapter called through the harness (the checks build it, in
``strictconformance.checks.test_drift``: the judges know nothing of the harness).

=========== ===============================================================================
DR-1        a recorded real response (also re-split into other chunks) raises nothing
DR-2/3/5    a breaking mutation raises a declared drift error, at the mutation's path when the
            adapter can tell the path
DR-4        an additive mutation (new field, new variant) raises nothing
DR-6        any JSON value raises nothing but a declared drift error, and is not modified
=========== ===============================================================================

An SDK's declared API errors (``Adapter.api_errors``) are its answer to an error the provider sent
(an error body, an error frame in a stream: :func:`~strictconformance.drift.provider_errors.carried_error`):
raising one for a payload that carries such an error is correct under every judge; raising one for
a payload that carries none is a failure of the judge's rule. The path a drift error reports is
read along its exception chain (``__cause__``/``__context__``), so an SDK that keeps it in a cause
is read as it means.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from strictconformance.drift.errors import SchemaDriftError, describe_type
from strictconformance.drift.fidelity import (
    ParsedResponse,
    difference_field,
    expected_parse,
    parse_differences,
)
from strictconformance.drift.mutations import DriftMutation, ResponseSubject
from strictconformance.drift.paths import PathLike, format_path, parse_path, paths_match
from strictconformance.drift.provider_errors import carried_error, exception_chain
from strictconformance.drift.sse import SSEEvent
from strictconformance.drift.unread import UnreadField, fidelity_conflicts

__all__ = [
    "DriftChecker",
    "Verdict",
    "fingerprint",
    "judge_fidelity",
    "judge_mutation",
    "judge_recorded",
    "judge_total",
]

CheckResponse = Callable[[str, Any], object]
CheckStream = Callable[[str, Sequence[SSEEvent]], object]
ReadPath = Callable[[BaseException], "PathLike | None"]
_COUNTEREXAMPLE_LIMIT = 4000


def _path_attribute(error: BaseException) -> PathLike | None:
    path = getattr(error, "path", None)
    return path if isinstance(path, (str, tuple, list)) else None


@dataclass(frozen=True)
class DriftChecker:
    """A drift check under test: what the oracles call and which errors count as detection."""

    check_response: CheckResponse | None
    check_stream: CheckStream | None
    error_types: tuple[type[BaseException], ...]
    read_path: ReadPath = _path_attribute
    name: str = "adapter"
    #: Exceptions the judges re-raise instead of judging (the harness's own failures).
    propagate: tuple[type[BaseException], ...] = ()
    #: Whether ``NotImplementedError`` from a check means "capability missing" (a skip verdict);
    #: when the suite already knows the capabilities, it is an error like any other.
    not_implemented_is_missing: bool = True
    #: The SDK's API errors: what it raises for an error the provider sent (``Adapter.api_errors``).
    api_error_types: tuple[type[BaseException], ...] = ()

    @classmethod
    def reference(cls) -> DriftChecker:
        """The kit's reference validator as a checker (it passes every DR judge)."""
        from strictconformance.drift.validator import check_response, check_stream

        return cls(check_response, check_stream, (SchemaDriftError,), _path_attribute, "reference")

    @classmethod
    def from_adapter(cls, adapter: Any) -> DriftChecker:
        """Read an adapter: its overridden ``check_response`` / ``check_stream``, its
        ``drift_errors`` and its ``drift_error_path``. A method left at the base class's
        default counts as missing (the judges then skip, naming the capability)."""
        from strictconformance.adapter import Adapter as base

        def overridden(name: str) -> Any:
            method = getattr(adapter, name, None)
            if method is None:
                return None
            if isinstance(adapter, base) and getattr(type(adapter), name, None) is getattr(base, name, None):
                return None
            return method

        reader = getattr(adapter, "drift_error_path", None)
        return cls(
            check_response=overridden("check_response"),
            check_stream=overridden("check_stream"),
            error_types=tuple(getattr(adapter, "drift_errors", ()) or ()),
            read_path=reader if callable(reader) else _path_attribute,
            name=str(getattr(adapter, "name", None) or type(adapter).__qualname__),
            api_error_types=tuple(getattr(adapter, "api_errors", ()) or ()),
        )


@dataclass(frozen=True)
class Verdict:
    """The outcome of one judge: pass, fail (with what went wrong) or skip (capability missing)."""

    rule_id: str
    status: Literal["pass", "fail", "skip"]
    message: str
    call: str
    counterexample: str | None = None
    #: What the check raised, if anything (a drift error, or the exception that failed it).
    error: BaseException | None = field(default=None, compare=False, repr=False)
    #: What tells a failure from the rule's others (a stable phrase without the drawn values: the
    #: kind of mistake, the mutation family, the exception type): part of the finding's key, so
    #: distinct defects are distinct findings, each with its own counterexample.
    defect: str | None = None

    @property
    def passed(self) -> bool:
        return self.status == "pass"

    @property
    def failed(self) -> bool:
        return self.status == "fail"

    def __str__(self) -> str:
        text = f"{self.rule_id} {self.status}: {self.message}\n  call: {self.call}"
        if self.counterexample is not None and self.status == "fail":
            text += f"\n  counterexample:\n{self.counterexample}"
        return text


# -- calling the check --------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Outcome:
    error: BaseException | None
    missing: str | None = None
    #: what the check returned (DR-7: what the SDK parsed, or None)
    result: Any = None


def _call(checker: DriftChecker, subject: ResponseSubject) -> tuple[str, _Outcome]:
    method = "check_stream" if subject.is_stream else "check_response"
    argument = "events" if subject.is_stream else "payload"
    call = f"{checker.name}.{method}({subject.api!r}, {argument})"
    function = checker.check_stream if subject.is_stream else checker.check_response
    if function is None:
        return call, _Outcome(None, missing=method)
    try:
        if subject.is_stream:
            assert subject.events is not None
            result = function(subject.api, list(subject.events))
        else:
            result = function(subject.api, subject.payload)
    except BaseException as error:  # judges report whatever the check raises
        if isinstance(error, (KeyboardInterrupt, SystemExit, *checker.propagate)):
            raise
        if isinstance(error, NotImplementedError) and checker.not_implemented_is_missing:
            return call, _Outcome(None, missing=method)
        return call, _Outcome(error)
    return call, _Outcome(None, result=result)


def _counterexample(subject: ResponseSubject) -> str:
    return subject.describe(_COUNTEREXAMPLE_LIMIT)


def _is_drift_error(checker: DriftChecker, error: BaseException) -> bool:
    return bool(checker.error_types) and isinstance(error, checker.error_types)


def _is_api_error(checker: DriftChecker, error: BaseException | None) -> bool:
    """A declared API error that is not also a declared drift error (a type declared as both is
    judged as a drift error)."""
    return (error is not None and bool(checker.api_error_types) and isinstance(error, checker.api_error_types)
            and not _is_drift_error(checker, error))


def _carried(subject: ResponseSubject) -> str | None:
    if subject.is_stream:
        return carried_error(events=subject.events or ())
    return carried_error(subject.payload)


def _api_error_verdict(checker: DriftChecker, outcome: _Outcome, subject: ResponseSubject, rule_id: str,
                       call: str) -> Verdict | None:
    """The verdict on a declared API error, or ``None`` when the check raised none: right for a
    payload that carries a provider error, wrong for one that carries none."""
    if not _is_api_error(checker, outcome.error):
        return None
    assert outcome.error is not None
    where = _carried(subject)
    if where is not None:
        return _verdict(outcome, rule_id, "pass",
                        f"raised its declared API error {_describe_error(outcome.error)} for the provider error at {where}", call)
    return _verdict(
        outcome, rule_id, "fail",
        f"raised its API error {_describe_error(outcome.error)} for a response that carries no provider error "
        "(no error body, no error event): a declared API error answers an error the provider sent",
        call, _counterexample(subject), defect=f"API error {type(outcome.error).__qualname__} without a provider error")


def _read_path(checker: DriftChecker, error: BaseException) -> PathLike | None:
    """The path the drift error reports: read from the error, else from its causes."""
    for link in exception_chain(error):
        path = checker.read_path(link)
        if path is not None:
            return path
    return None


def _describe_error(error: BaseException) -> str:
    try:
        text = str(error)[:300]
    except Exception:  # an exception whose message cannot be rendered (it holds a 10**5000 int...)
        text = "<message not printable>"
    return f"{type(error).__qualname__}: {text}"


def _skip(rule_id: str, call: str, missing: str) -> Verdict:
    return Verdict(rule_id, "skip", f"the adapter does not implement {missing}(); {rule_id} is not covered", call)


# -- judges -------------------------------------------------------------------------------------------


def _verdict(outcome: _Outcome, rule_id: str, status: Literal["pass", "fail", "skip"], message: str, call: str,
             counterexample: str | None = None, *, defect: str | None = None) -> Verdict:
    """A verdict carrying what the check raised (and, failing, what kind of defect it is)."""
    return Verdict(rule_id, status, message, call, counterexample, error=outcome.error, defect=defect)


def _raised(error: BaseException | None) -> str:
    return type(error).__qualname__ if error is not None else "nothing"


def judge_recorded(checker: DriftChecker, subject: ResponseSubject, *, label: str = "") -> Verdict:
    """DR-1: a recorded real response passes the check."""
    call, outcome = _call(checker, subject)
    if outcome.missing:
        return _skip("DR-1", call, outcome.missing)
    where = f" ({label})" if label else ""
    if outcome.error is None:
        return _verdict(outcome, "DR-1", "pass", f"recorded response{where} accepted", call)
    api_verdict = _api_error_verdict(checker, outcome, subject, "DR-1", call)
    if api_verdict is not None:
        return api_verdict
    kind = "reported drift on" if _is_drift_error(checker, outcome.error) else "crashed on"
    return _verdict(
        outcome,
        "DR-1",
        "fail",
        f"{kind} a recorded real response{where}: {_describe_error(outcome.error)}",
        call,
        _counterexample(subject),
        defect=f"{kind} a recorded response ({_raised(outcome.error)})",
    )


def judge_mutation(checker: DriftChecker, mutation: DriftMutation) -> Verdict:
    """A breaking mutation must be detected at its path; a non-breaking one must pass."""
    rule = mutation.rule_id
    call, outcome = _call(checker, mutation.subject)
    if outcome.missing:
        return _skip(rule, call, outcome.missing)
    change = f"{mutation.kind}: {mutation.description}"
    error = outcome.error
    if rule == "DR-9":
        return _judge_cut(checker, outcome, mutation, change, call)
    api_verdict = _api_error_verdict(checker, outcome, mutation.subject, rule, call)
    if api_verdict is not None:
        return api_verdict
    if not mutation.breaking:
        if error is None:
            return _verdict(outcome, rule, "pass", f"tolerated {change}", call)
        kind = "reported drift on" if _is_drift_error(checker, error) else "crashed on"
        return _verdict(
            outcome,
            rule,
            "fail",
            f"{kind} a change that is not drift ({change}): {_describe_error(error)}",
            call,
            _counterexample(mutation.subject),
            defect=f"{kind} an additive change ({mutation.family or mutation.kind}, {_raised(error)})",
        )
    if error is None:
        return _verdict(
            outcome,
            rule, "fail", f"missed breaking drift ({change}); expected a drift error at {mutation.path}", call, _counterexample(mutation.subject),
            defect=f"missed breaking drift ({mutation.family or mutation.kind})",
        )
    if not _is_drift_error(checker, error):
        declared = ", ".join(t.__qualname__ for t in checker.error_types) or "none declared"
        return _verdict(
            outcome,
            rule,
            "fail",
            f"raised {_describe_error(error)} on breaking drift ({change}), not a declared drift error ({declared})",
            call,
            _counterexample(mutation.subject),
            defect=f"undeclared {_raised(error)} on breaking drift ({mutation.family or mutation.kind})",
        )
    try:
        reported = _read_path(checker, error)
    except Exception as exc:  # the adapter's path reader failing is its fault, reported as such
        return _verdict(outcome, rule, "fail", f"drift_error_path() raised {_describe_error(exc)}", call, _counterexample(mutation.subject),
                        defect=f"drift_error_path() raised {_raised(exc)}")
    if reported is None:
        return _verdict(outcome, rule, "pass", f"detected {change} (the error carries no path; path not checked)", call)
    if paths_match(reported, mutation.path):
        return _verdict(outcome, rule, "pass", f"detected {change} at {_render(reported)}", call)
    return _verdict(
        outcome,
        rule,
        "fail",
        f"detected {change} but reported path {_render(reported)}; expected {mutation.path} ([*] matches any position)",
        call,
        _counterexample(mutation.subject),
        defect=f"drift reported at the wrong path ({mutation.family or mutation.kind})",
    )


def _judge_cut(checker: DriftChecker, outcome: _Outcome, mutation: DriftMutation, change: str, call: str) -> Verdict:
    """DR-9: a stream cut before its terminal event is reported, by a declared error (drift or API:
    an SDK's documented error for a broken stream; its path is not judged, a cut has no field) or by
    a reading marked incomplete (``ParsedResponse.incomplete``)."""
    error = outcome.error
    if error is not None:
        if _is_drift_error(checker, error) or _is_api_error(checker, error):
            return _verdict(outcome, "DR-9", "pass", f"raised {_describe_error(error)} on {change}", call)
        declared = ", ".join(t.__qualname__ for t in (*checker.error_types, *checker.api_error_types)) or "none declared"
        return _verdict(outcome, "DR-9", "fail",
                        f"raised {_describe_error(error)} on a stream cut short ({change}), not a declared error ({declared})",
                        call, _counterexample(mutation.subject),
                        defect=f"undeclared {_raised(error)} on a cut stream ({mutation.family or mutation.kind})")
    result = outcome.result
    if isinstance(result, ParsedResponse) and result.incomplete is True:
        return _verdict(outcome, "DR-9", "pass", f"marked its reading incomplete on {change}", call)
    returned = (f"a reading not marked incomplete (stop_reason {result.stop_reason!r})" if isinstance(result, ParsedResponse)
                else "without an error")
    return _verdict(outcome, "DR-9", "fail",
                    f"returned {returned} for a stream cut before its terminal event ({change}): the caller cannot tell "
                    "the response is incomplete; expected a declared error or a reading marked incomplete",
                    call, _counterexample(mutation.subject),
                    defect=f"cut stream not reported ({mutation.family or mutation.kind})")


def judge_fidelity(checker: DriftChecker, subject: ResponseSubject, *, unread: Sequence[UnreadField] = ()) -> Verdict:
    """DR-7: what the SDK parsed (what its check returned) is what the response holds.

    A skip verdict when it cannot be judged: the check raised (DR-1/DR-4 judge that), or the kit
    cannot read the response itself. Returning nothing fails: it is judged only for adapters that
    declare ``parse_fidelity``. A stop reason or usage returned while the adapter declares the
    field it comes from unread (``unread``, ``Adapter.drift_unread``) fails: the SDK reads it."""
    call, outcome = _call(checker, subject)
    if outcome.missing:
        return _skip("DR-7", call, outcome.missing)
    if outcome.error is not None:
        return _verdict(outcome, "DR-7", "skip", f"the check raised {_describe_error(outcome.error)}: its parse is not judged "
                        "(DR-1 and DR-4 judge what it raises)", call)
    if outcome.result is None:
        return _verdict(outcome, "DR-7", "fail", f"{call.split('(')[0]}() returned nothing, but the adapter declares "
                        "parse_fidelity: return what the SDK parsed, a strictconformance.drift.fidelity.ParsedResponse", call,
                        _counterexample(subject), defect="returned nothing")
    declared = [entry for entry in unread if entry.stream == subject.is_stream]
    for part, given in (("stop_reason", outcome.result.stop_reason), ("usage", outcome.result.usage)):
        clash = fidelity_conflicts(declared, subject.api, part) if given is not None else []
        if clash:
            entry, path = clash[0]
            return _verdict(outcome, "DR-7", "fail", f"the adapter declares {entry.path} of {entry.api} unread (drift_unread) but "
                            f"returned a {part.replace('_', ' ')}, which DR-7 reads from {path}: the SDK reads that field; "
                            "drop it from drift_unread", call, _counterexample(subject),
                            defect=f"returns a {part.replace('_', ' ')} from a field declared unread")
    expected = (expected_parse(subject.api, events=subject.events or ()) if subject.is_stream
                else expected_parse(subject.api, subject.payload))
    if expected is None:
        return _verdict(outcome, "DR-7", "skip", "the kit cannot read this response (not judged)", call)
    differences = parse_differences(expected, outcome.result)
    if not differences:
        return _verdict(outcome, "DR-7", "pass", "parsed what the response holds", call)
    return _verdict(outcome, "DR-7", "fail", "the SDK's parse differs from the response: " + "; ".join(differences), call,
                    _counterexample(subject), defect="parse differs in " + ", ".join(sorted({difference_field(d) for d in differences})))


def _render(path: PathLike) -> str:
    try:
        return format_path(parse_path(path))
    except ValueError:
        return repr(path)


def judge_total(checker: DriftChecker, api: str, value: object, *, stream: bool = False) -> Verdict:
    """DR-6: on any value the check raises nothing but a drift error, and leaves the value as it was."""
    if stream:
        events = tuple(value) if isinstance(value, (list, tuple)) else (value,)
        subject = ResponseSubject(api, events=events)  # arbitrary items on purpose: DR-6
    else:
        subject = ResponseSubject(api, payload=value)
    before = fingerprint(value)
    call, outcome = _call(checker, subject)
    if outcome.missing:
        return _skip("DR-6", call, outcome.missing)
    api_verdict = _api_error_verdict(checker, outcome, subject, "DR-6", call)
    if api_verdict is not None and api_verdict.failed:
        return api_verdict
    if outcome.error is not None and not _is_drift_error(checker, outcome.error) and api_verdict is None:
        return _verdict(
            outcome,
            "DR-6",
            "fail",
            f"raised {_describe_error(outcome.error)} on {_a(describe_type(value))} input; only declared drift errors may escape"
            + _api_error_hint(subject),
            call,
            _counterexample(subject),
            defect=f"undeclared {_raised(outcome.error)} on {_a(describe_type(value))} input",
        )
    if fingerprint(value) != before:
        return _verdict(outcome, "DR-6", "fail", "modified the payload it was given", call, _counterexample(subject),
                        defect="modified the payload it was given")
    return _verdict(outcome, "DR-6", "pass", "raised nothing but drift errors and left the input unchanged", call)


def _api_error_hint(subject: ResponseSubject) -> str:
    where = _carried(subject)
    if where is None:
        return ""
    return (f" (the input carries a provider error at {where}: if this is the SDK's API error for it, "
            "declare the type in the adapter's api_errors)")


def _a(noun: str) -> str:
    return f"an {noun}" if noun[:1] in "aeiou" else f"a {noun}"


def fingerprint(value: object) -> tuple[object, ...]:
    """An exact, order-preserving snapshot of a JSON-like value, built without recursion.

    Two snapshots are equal exactly when the values are (NaN equals NaN here, and ``1`` differs
    from ``1.0`` and ``True``); unknown objects are compared by identity and type; a container
    that contains itself is marked where the cycle closes instead of being walked forever.
    Linear in the value; DR-6 takes two of every payload nested 10,000 deep, so the walk looks at
    the exact JSON types first and builds no object per key.
    """
    tokens: list[object] = []
    add = tokens.append
    stack: list[object] = [value]
    push, pop = stack.append, stack.pop
    open_ids: set[int] = set()
    alive: list[object] = []  # unknown objects stay referenced so their ids are not reused
    while stack:
        node = pop()
        kind = node.__class__
        if kind is _Close:
            open_ids.discard(node.container)  # type: ignore[attr-defined]
            add("close")
            continue
        if kind is _Key:
            key = node.key  # type: ignore[attr-defined]
            add(("k", type(key).__name__, key))
            continue
        if kind is str or kind is int or kind is bool or node is None:
            add((kind.__name__, node))
            continue
        if isinstance(node, (dict, list, tuple)):
            container = id(node)
            if container in open_ids:
                add(("cycle",))
                continue
            open_ids.add(container)
            push(_Close(container))
            if isinstance(node, dict):
                add(("{", len(node)))
                for key, item in reversed(list(node.items())):
                    push(item)
                    push(_Key(key))
            else:
                add(("[" if isinstance(node, list) else "(", len(node)))
                stack.extend(reversed(node))
        elif isinstance(node, float) and math.isnan(node):
            add(("nan",))
        elif isinstance(node, (bool, int, float, str, bytes)):
            add((type(node).__name__, node))
        else:
            alive.append(node)
            add(("obj", type(node).__qualname__, id(node)))
    return tuple(tokens)


class _Close:
    """Where a container's walk ends (a plain class: one is made per container)."""

    __slots__ = ("container",)

    def __init__(self, container: int) -> None:
        self.container = container


class _Key:
    """A dict key on the walk's stack (a plain class: one is made per key)."""

    __slots__ = ("key",)

    def __init__(self, key: object) -> None:
        self.key = key

"""The verdict of a check: the findings it reports, and "not covered".

A :class:`Finding` is one distinct bug a check found: the rule, its kind, the grouping ``key`` (two
findings with the same key are the same bug), where it is, what is wrong, the minimal
counterexample, the adapter calls that showed it, the command that replays it and, when the adapter
can give one, a standalone reproducer. It is what the JSON report lists per rule and per check
(``report.schema.json``, ``$defs/finding``) and what the terminal report prints under each rule.

A check that does not apply to the adapter raises :class:`NotCovered` (:func:`not_covered`); the
plugin reads the exception's type, never its text.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn

import pytest

__all__ = ["FINDING_KINDS", "SHOWN_BYTES", "CheckFailure", "Finding", "NotCovered", "bounded", "not_covered"]

#: A counterexample (or an adapter call's arguments or result) whose JSON is bigger than this is
#: summarised in the report and the terminal, and written whole to a file the summary names.
SHOWN_BYTES = 20_000

#: What a finding can be. ``violation``: the SDK's result breaks the rule. ``crash``: the SDK raised
#: an exception it did not declare. ``refusal``: the SDK refused an input with a declared exception
#: where the rule says it must not. ``fault``: the adapter misbehaved (hung, returned junk, stopped
#: the test run, skipped from inside), or the check itself could not run (a health-check error).
FINDING_KINDS = ("violation", "crash", "refusal", "fault")


@dataclass(frozen=True)
class Finding:
    """One distinct bug a check found, with its own minimal counterexample."""

    rule: str
    kind: str
    key: str
    message: str
    where: str | None = None
    counterexample: Any = None
    calls: tuple[Mapping[str, Any], ...] = ()
    replay: str = ""
    reproducer: str | None = None
    reproducer_language: str | None = None
    #: why there is no reproducer when the adapter's reproduce() failed (raised, hung, returned junk)
    reproducer_error: str | None = None
    nodeid: str = ""
    #: a crash's origin: where the implementation raised ({"file", "function", "line"}), else None
    origin: Mapping[str, Any] | None = None
    #: the check's own text for the terminal (counterexample, calls, Hypothesis notes), when it has one
    text: str = field(default="", compare=False)

    def __post_init__(self) -> None:
        if self.kind not in FINDING_KINDS:
            raise ValueError(f"a finding's kind is one of {FINDING_KINDS}, not {self.kind!r}")

    def as_json(self) -> dict[str, Any]:
        """The finding as the report's ``$defs/finding``."""
        data: dict[str, Any] = {
            "rule": self.rule, "kind": self.kind, "key": self.key, "where": self.where, "message": self.message,
            "counterexample": self.counterexample, "calls": [dict(call) for call in self.calls],
            "replay": self.replay, "reproducer": self.reproducer, "nodeid": self.nodeid,
        }
        if self.reproducer is not None:
            data["reproducer_language"] = self.reproducer_language or "python"
        elif self.reproducer_error is not None:
            data["reproducer_error"] = self.reproducer_error
        if self.origin is not None:
            data["origin"] = dict(self.origin)
        return data

    @classmethod
    def from_json(cls, data: Mapping[str, Any]) -> Finding:
        """The finding written by :meth:`as_json` (findings travel from xdist workers as JSON)."""
        return cls(rule=str(data["rule"]), kind=str(data["kind"]), key=str(data["key"]), message=str(data["message"]),
                   where=data.get("where"), counterexample=data.get("counterexample"),
                   calls=tuple(data.get("calls") or ()), replay=str(data.get("replay") or ""),
                   reproducer=data.get("reproducer"), reproducer_language=data.get("reproducer_language"),
                   reproducer_error=data.get("reproducer_error"), nodeid=str(data.get("nodeid") or ""),
                   origin=data.get("origin"))

    def render(self) -> str:
        """The finding as the terminal shows it (the check's own text when it has one)."""
        if self.text:
            return self.text
        lines = [f"{self.key}", f"{self.message}" + (f" (at {self.where})" if self.where else "")]
        if self.counterexample is not None:
            lines += ["counterexample (JSON):", json.dumps(self.counterexample, indent=2, sort_keys=True, ensure_ascii=False)]
        if self.reproducer:
            lines += ["reproducer:", self.reproducer]
        elif self.reproducer_error:
            lines.append(f"reproducer unavailable: {self.reproducer_error}")
        if self.replay:
            lines.append(f"replay: {self.replay}")
        return "\n".join(lines)


def bounded(finding: Finding, directory: Path | Callable[[], Path]) -> Finding:
    """``finding`` with every part over :data:`SHOWN_BYTES` of JSON (its counterexample, an adapter
    call's ``args`` or ``returned``) summarised: ``{"summary", "size", "pointer", "file"}``, the
    file (in ``directory``, made on first use) holding that part whole."""
    written: list[Path] = []

    def place(part: Any, label: str) -> Any:
        text = json.dumps(part, ensure_ascii=False, default=repr)
        if len(text.encode("utf-8")) <= SHOWN_BYTES:
            return part
        folder = directory() if callable(directory) else directory
        folder.mkdir(parents=True, exist_ok=True)
        digest = hashlib.sha256(f"{finding.nodeid}\0{finding.key}\0{label}".encode()).hexdigest()[:12]
        name = re.sub(r"[^A-Za-z0-9_.-]+", "_", f"{finding.rule}-{finding.nodeid.rpartition('::')[2]}")[:80]
        path = folder / f"{name}-{label}-{digest}.json"
        path.write_text(text, encoding="utf-8")
        written.append(path)
        return {"summary": summarise(part), "size": len(text), "pointer": finding.where, "file": str(path)}

    counterexample = place(finding.counterexample, "counterexample")
    calls = []
    for index, call in enumerate(finding.calls):
        shown = dict(call)
        if isinstance(shown.get("args"), (list, tuple)):
            # each argument on its own: ``args`` stays a list (the report schema says so)
            shown["args"] = [place(argument, f"call{index}-arg{position}") for position, argument in enumerate(shown["args"])]
        if "returned" in shown:
            shown["returned"] = place(shown["returned"], f"call{index}-returned")
        calls.append(shown)
    if not written:
        return finding
    return dataclasses.replace(finding, counterexample=counterexample, calls=tuple(calls))


def summarise(value: Any, depth: int = 0) -> Any:
    """A short description of a big JSON value's shape: small parts as they are, big ones as
    "object with 5000 keys (a, b, c, ...)", "array of 300 items", "string of 120000 characters"."""
    text = json.dumps(value, ensure_ascii=False, default=repr)
    if len(text) <= 500:
        return value
    if isinstance(value, dict):
        if depth < 2 and len(value) <= 12:
            return {str(key): summarise(item, depth + 1) for key, item in value.items()}
        keys = list(value)
        shown = ", ".join(str(key) for key in keys[:8]) + (", ..." if len(keys) > 8 else "")
        nested = ""
        if isinstance(value.get("properties"), dict):
            nested = f", {len(value['properties'])} properties"
        return f"object with {len(keys)} keys ({shown}){nested}, {len(text)} characters of JSON"
    if isinstance(value, list):
        return f"array of {len(value)} items, {len(text)} characters of JSON"
    if isinstance(value, str):
        return f"string of {len(value)} characters: {value[:80]!r}..."
    return f"{type(value).__name__}, {len(text)} characters of JSON"


def old_report_findings(rule: Mapping[str, Any]) -> list[Finding]:
    """The findings of a rule entry of a version-1 report (``counterexamples``): each counterexample
    is a finding of the kind it names (``adapter fault`` is a fault)."""
    found = []
    for item in rule.get("counterexamples", ()) or ():
        kind = {"adapter fault": "fault", "failure": "violation"}.get(item.get("kind"), item.get("kind", "violation"))
        rule_id = str(item.get("rule") or "")
        found.append(Finding(rule=rule_id, kind=kind if kind in FINDING_KINDS else "violation",
                             key=f"{rule_id} {kind}".strip(), message=str(item.get("message", "")),
                             counterexample=item.get("counterexample"), calls=tuple(item.get("calls") or ()),
                             replay=str(item.get("replay") or ""), nodeid=str(item.get("nodeid") or "")))
    return found


class CheckFailure(AssertionError):
    """A failure the suite's harness raised inside a check (a violation, or an adapter call that hung,
    returned junk or mutated its input): it already carries its verdict, so an oracle that turns the
    exceptions of the code it judges into violations lets it through. Its one kind is the harness's
    :class:`~strictconformance.harness.ConformanceFailure`; the oracles, below the harness, name this base."""


class NotCovered(pytest.skip.Exception):  # type: ignore[misc,name-defined]
    """The check does not apply to this adapter (a capability or declaration it lacks): the check is
    reported as "not covered" with this reason. A skip to pytest."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def not_covered(reason: str) -> NoReturn:
    """End the check as not covered, for ``reason`` (say what the adapter lacks)."""
    __tracebackhide__ = True
    raise NotCovered(reason)


def refusal_type() -> type[BaseException]:
    """The exception of a refused input: a process harness's ``refusal`` answer (or an input JSON
    cannot carry to it). A subclass of Hypothesis's UnsatisfiedAssumption, so the harness discards
    the example as ``assume(False)`` would (an explicit case is not covered, with the reason). Only
    this type is a refusal: ``hypothesis.assume()`` (a plain UnsatisfiedAssumption) raised inside an
    adapter is a fault, like ``pytest.skip()``. Built on first use (the plugin imports Hypothesis
    only when the suite runs)."""
    from hypothesis.errors import UnsatisfiedAssumption

    # one class per Hypothesis module object: a run that imports Hypothesis afresh (pytester's
    # in-process runs do) gets a refusal its engine recognises as an unsatisfied assumption
    return _refusal_type_on(UnsatisfiedAssumption)


@functools.cache
def _refusal_type_on(base: type[BaseException]) -> type[BaseException]:
    return type("HarnessRefused", (base,), {"__module__": __name__, "__doc__": refusal_type.__doc__})


def refuse(reason: str) -> NoReturn:
    """Refuse the input of the current adapter call, for ``reason`` (see :func:`refusal_type`)."""
    __tracebackhide__ = True
    raise refusal_type()(reason)


def repeat_key(finding: Finding, defect: str = "") -> tuple[str, str, str, str]:
    """What makes two findings of one check repeats (the first, the smallest, is kept): the same
    key, crash origin and defect (``harness.identity_of``). Two crashes of one exception type raised
    by two functions, or two defects met at one place under one key (an external and an
    unresolvable `$ref`), are two findings though their keys read the same."""
    origin = finding.origin or {}
    return (finding.key, str(origin.get("file", "")), str(origin.get("function", "")), defect)

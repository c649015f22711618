"""Lint JSON Schema files against strict dialects: the engine behind ``strictconformance lint``.

:func:`lint_paths` reads files and folders of JSON Schemas, checks each schema against each dialect
with :func:`strictconformance.dialects.validate_strict`, and returns a :class:`LintResult`; the
renderers turn it into text, JSON or SARIF 2.1.0 (for GitHub code scanning). Every violation keeps
its JSON pointer, and the line of that pointer in the file, so code scanning points at the keyword.
"""

from __future__ import annotations

import json
import re
import warnings
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from strictconformance._version import __version__
from strictconformance.dialects import (
    SHIPPED,
    Dialect,
    SchemaError,
    StrictRule,
    Violation,
    validate_strict,
)
from strictconformance.spec import rule_url

__all__ = [
    "DEFAULT_LINT_DIALECTS",
    "LintError",
    "LintFinding",
    "LintResult",
    "lint_paths",
    "lint_schema_text",
    "pointer_lines",
    "render_lint_json",
    "render_lint_sarif",
    "render_lint_text",
    "schema_problem",
]

#: Dialects ``lint`` checks when ``--dialect`` is not given: every shipped provider dialect in
#: its current state (not the dated ``openai@2025-01`` nor ``lenient``, which flags nothing).
DEFAULT_LINT_DIALECTS: tuple[str, ...] = tuple(
    name for name, dialect in SHIPPED.items() if "@" not in name and dialect.rules
)

SARIF_SCHEMA_URI = "https://json.schemastore.org/sarif-2.1.0.json"
_INFORMATION_URI = "https://github.com/strictconformance/strictconformance"


@dataclass(frozen=True)
class LintFinding:
    """One violation of one dialect's rule in one file."""

    path: str
    dialect: str
    rule_id: str
    check: str
    pointer: str
    message: str
    line: int
    column: int


@dataclass(frozen=True)
class LintError:
    """A file that could not be linted (not JSON, not a schema, unreadable)."""

    path: str
    problem: str

    def __str__(self) -> str:
        return f"{self.path}: {self.problem}"


@dataclass
class LintResult:
    """Everything ``lint`` found over its inputs."""

    dialects: tuple[Dialect, ...]
    files: list[str] = field(default_factory=list)
    findings: list[LintFinding] = field(default_factory=list)
    errors: list[LintError] = field(default_factory=list)

    @property
    def exit_code(self) -> int:
        """2 when a file could not be linted, 1 when a schema breaks a rule, 0 when all is clean."""
        if self.errors:
            return 2
        return 1 if self.findings else 0


# -- JSON pointer -> line ------------------------------------------------------------------------

_WS = re.compile(r"[ \t\r\n]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"', re.DOTALL)
_SCALAR = re.compile(r"-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?|true|false|null")


def _escape_token(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def pointer_lines(text: str) -> dict[str, tuple[int, int]]:
    """The (line, column), 1-based, where each JSON value of ``text`` starts, by JSON pointer.

    For object members the position is the member's key (where an editor should point). Call only
    on text ``json.loads`` accepts; the scan is iterative, so any nesting depth is fine."""
    positions: dict[str, tuple[int, int]] = {}
    line_starts = [0] + [m.end() for m in re.finditer(r"\n", text)]

    def where(offset: int) -> tuple[int, int]:
        low, high = 0, len(line_starts) - 1
        while low < high:
            middle = (low + high + 1) // 2
            if line_starts[middle] <= offset:
                low = middle
            else:
                high = middle - 1
        return low + 1, offset - line_starts[low] + 1

    # stack of containers: [kind, pointer, next array index]
    stack: list[list[Any]] = []
    index = _WS.match(text, 0).end()  # type: ignore[union-attr]
    pending: tuple[str, int] | None = ("", index)  # pointer and key offset of the next value
    while index < len(text):
        char = text[index]
        if pending is None and stack and stack[-1][0] == "array" and char not in ",]":
            pending = (f"{stack[-1][1]}/{stack[-1][2]}", index)
            stack[-1][2] += 1
        if char == "{" or char == "[":
            assert pending is not None
            positions.setdefault(pending[0], where(pending[1]))
            stack.append(["object" if char == "{" else "array", pending[0], 0])
            pending = None
            index += 1
        elif char in "}]":
            stack.pop()
            index += 1
        elif char == ",":
            index += 1
        elif char == '"':
            match = _STRING.match(text, index)
            assert match is not None
            end = _WS.match(text, match.end()).end()  # type: ignore[union-attr]
            if stack and stack[-1][0] == "object" and pending is None and end < len(text) and text[end] == ":":
                key = json.loads(match.group(0))
                pending = (f"{stack[-1][1]}/{_escape_token(key)}", index)
                index = end + 1
            else:
                assert pending is not None
                positions.setdefault(pending[0], where(pending[1]))
                pending = None
                index = match.end()
        else:
            match = _SCALAR.match(text, index)
            if match is None:
                break  # not JSON after all: positions found so far stand
            assert pending is not None
            positions.setdefault(pending[0], where(pending[1]))
            pending = None
            index = match.end()
        index = _WS.match(text, index).end()  # type: ignore[union-attr]
    return positions


def _locate(positions: dict[str, tuple[int, int]], pointer: str) -> tuple[int, int]:
    """The position of ``pointer``, or of its nearest ancestor that has one."""
    while True:
        if pointer in positions:
            return positions[pointer]
        if not pointer:
            return (1, 1)
        pointer = pointer.rsplit("/", 1)[0]


# -- linting -------------------------------------------------------------------------------------


def _iter_files(paths: Iterable[str | Path]) -> Iterator[tuple[Path, str | None]]:
    """(file, problem) for each input: folders give their ``*.json`` files, sorted, recursively."""
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            found = sorted(p for p in path.rglob("*.json") if p.is_file())
            if not found:
                yield path, "a folder with no *.json file in it"
            for child in found:
                yield child, None
        elif path.is_file():
            yield path, None
        else:
            yield path, "no such file or folder"


def schema_problem(schema: object) -> str | None:
    """Why ``schema`` is not a JSON Schema (checked against its draft's metaschema), or None."""
    if not isinstance(schema, (dict, bool)):
        return f"not a JSON Schema: the document is a JSON {type(schema).__name__}, a schema is an object or a boolean"
    if isinstance(schema, bool):
        return None
    import jsonschema  # type: ignore[import-untyped]
    from jsonschema.exceptions import SchemaError as MetaschemaError  # type: ignore[import-untyped]

    declared = schema.get("$schema")
    if declared is not None and not isinstance(declared, str):
        return f"not a JSON Schema: $schema is {json.dumps(declared)[:60]}, expected a URI string"
    cls = jsonschema.validators.validator_for(schema, default=jsonschema.Draft202012Validator)
    try:
        with warnings.catch_warnings():  # the metaschema's "regex" format compiles user patterns
            warnings.simplefilter("ignore", FutureWarning)
            cls.check_schema(schema)
    except MetaschemaError as error:
        where = "/" + "/".join(_escape_token(str(p)) for p in error.absolute_path)
        return f"not a JSON Schema: at {where} (against the {cls.__name__[:-9]} metaschema): {_short(error.message)}"
    return None


def _short(text: str, limit: int = 240) -> str:
    return text if len(text) <= limit else text[:limit] + "…"


def lint_schema_text(text: str, path: str, dialects: Sequence[Dialect]) -> tuple[list[LintFinding], LintError | None]:
    """Lint one document's text; a text that is not JSON or not a schema is a :class:`LintError`."""
    try:
        schema = json.loads(text)
    except ValueError as error:
        return [], LintError(path, f"not JSON: {error}")
    except RecursionError:
        return [], LintError(path, "not readable: JSON nested too deeply for the parser")
    problem = schema_problem(schema)
    if problem:
        return [], LintError(path, problem)
    positions = pointer_lines(text)
    findings: list[LintFinding] = []
    for dialect in dialects:
        try:
            violations: list[Violation] = validate_strict(schema, dialect)
        except SchemaError as error:
            return [], LintError(path, f"not a usable schema: {error}")
        for violation in violations:
            line, column = _locate(positions, violation.pointer)
            findings.append(LintFinding(path, dialect.name, violation.rule_id, violation.check,
                                        violation.pointer, violation.message, line, column))
    return findings, None


def lint_paths(paths: Iterable[str | Path], dialects: Sequence[Dialect]) -> LintResult:
    """Lint every file (folders: every ``*.json`` under them) against every dialect."""
    result = LintResult(tuple(dialects))
    for path, problem in _iter_files(paths):
        shown = path.as_posix()
        if problem:
            result.errors.append(LintError(shown, problem))
            continue
        try:
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as unreadable:
            result.errors.append(LintError(shown, f"cannot be read: {unreadable}"))
            continue
        result.files.append(shown)
        findings, problem_found = lint_schema_text(text, shown, dialects)
        result.findings.extend(findings)
        if problem_found:
            result.errors.append(problem_found)
    return result


# -- rendering -----------------------------------------------------------------------------------


def render_lint_text(result: LintResult) -> str:
    """One line per violation (``path:line:col: RULE [dialect] check at pointer: message``), then a tally."""
    lines = [f"{f.path}:{f.line}:{f.column}: {f.rule_id} [{f.dialect}] {f.check} at {f.pointer or '/'}: {f.message}"
             for f in result.findings]
    lines.extend(f"{error.path}: error: {error.problem}" for error in result.errors)
    failing = len({f.path for f in result.findings})
    names = ", ".join(d.name for d in result.dialects)
    lines.append(f"{_count(len(result.files), 'file')} checked against {names}: {_count(len(result.findings), 'violation')} in "
                 f"{_count(failing, 'file')}" + (f", {_count(len(result.errors), 'file')} not linted" if result.errors else ""))
    return "\n".join(lines) + "\n"


def _count(number: int, noun: str) -> str:
    return f"{number} {noun}" + ("" if number == 1 else "s")


def render_lint_json(result: LintResult) -> str:
    document = {
        "kit_version": __version__,
        "dialects": [d.name for d in result.dialects],
        "files": result.files,
        "violations": [
            {"path": f.path, "dialect": f.dialect, "rule": f.rule_id, "check": f.check, "pointer": f.pointer,
             "message": f.message, "line": f.line, "column": f.column}
            for f in result.findings
        ],
        "errors": [{"path": e.path, "problem": e.problem} for e in result.errors],
    }
    return json.dumps(document, indent=2, ensure_ascii=False) + "\n"


def _rule_help(rule: StrictRule, dialects: Sequence[str]) -> str:
    text = f"{rule.title}. {rule.reason}"
    if rule.note:
        text += f" Note: {rule.note}"
    return f"{text} Source: {rule.source} (dialects: {', '.join(dialects)})"


def render_lint_sarif(result: LintResult) -> str:
    """A SARIF 2.1.0 log: one run, a reporting descriptor per rule ID met (help text, source), one
    result per violation with the file, line and column of the JSON pointer, and the pointer itself
    as a logical location. Files that could not be linted are tool execution notifications."""
    rules_by_id: dict[str, tuple[StrictRule, list[str]]] = {}
    for dialect in result.dialects:
        for rule in dialect.rules:
            known = rules_by_id.setdefault(rule.id, (rule, []))
            known[1].append(dialect.name)
    used = sorted({f.rule_id for f in result.findings} & set(rules_by_id), key=_rule_key)
    index = {rule_id: position for position, rule_id in enumerate(used)}
    descriptors = []
    for rule_id in used:
        rule, names = rules_by_id[rule_id]
        descriptor: dict[str, Any] = {
            "id": rule_id,
            "name": rule.check,
            "shortDescription": {"text": rule.title},
            "fullDescription": {"text": rule.reason},
            "help": {"text": _rule_help(rule, names)},
            "defaultConfiguration": {"level": "error"},
            "properties": {"dialects": names, "source": rule.source},
        }
        descriptor["helpUri"] = rule_url(rule_id)  # the rule's page: what it checks, why, an example, its sources
        descriptors.append(descriptor)
    results = []
    for finding in result.findings:
        sarif_result: dict[str, Any] = {
            "ruleId": finding.rule_id,
            "level": "error",
            "message": {"text": f"[{finding.dialect}] {finding.check} at {finding.pointer or '/'}: {finding.message}"},
            "locations": [{
                "physicalLocation": {
                    "artifactLocation": {"uri": finding.path},
                    "region": {"startLine": finding.line, "startColumn": finding.column},
                },
                "logicalLocations": [{"fullyQualifiedName": finding.pointer or "/", "kind": "member"}],
            }],
            "properties": {"dialect": finding.dialect, "jsonPointer": finding.pointer},
        }
        if finding.rule_id in index:
            sarif_result["ruleIndex"] = index[finding.rule_id]
        results.append(sarif_result)
    notifications = [
        {"level": "error", "message": {"text": error.problem},
         "locations": [{"physicalLocation": {"artifactLocation": {"uri": error.path}}}]}
        for error in result.errors
    ]
    log = {
        "$schema": SARIF_SCHEMA_URI,
        "version": "2.1.0",
        "runs": [{
            "tool": {"driver": {"name": "strictconformance", "version": __version__,
                                "semanticVersion": __version__, "informationUri": _INFORMATION_URI,
                                "rules": descriptors}},
            "invocations": [{"executionSuccessful": not result.errors,
                             "toolExecutionNotifications": notifications}],
            "results": results,
        }],
    }
    return json.dumps(log, indent=2, ensure_ascii=False) + "\n"


def _rule_key(rule_id: str) -> tuple[str, int]:
    prefix, _, number = rule_id.partition("-")
    return prefix, int(number) if number.isdigit() else 0

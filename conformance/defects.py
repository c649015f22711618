"""Findings grouped into defects: one cause, one entry, whatever the number of cases that met it.

A check reports a :class:`~strictconformance.findings.Finding` per distinct failure it saw, keyed by
what failed where. Many findings are the same bug seen through different inputs (a keyword the
SDK always keeps meets every fixed case that holds it) or through different rules (an SDK whose
strictify returns its input unchanged breaks most of the strict-schema rules). A maintainer acts on
defects, so every report leads with them.

A defect's identity is its *cause*, computed from the finding alone, never from which case met it:

- a crash: the exception type, the adapter method, and the innermost frame of the implementation
  that raised it (``origin``: file and function, as Hypothesis tells distinct failures apart);
- a strict-schema violation: the dialect rule broken (``SM-xx``, also when RT-1 reports it) and the
  keyword at fault; a round-trip violation: the rule and the keyword the value broke;
- a drift violation: the rule, the kind of change missed and the exception type, if any;
- a refusal: the exception type and its message with the values taken out;
- any other violation or fault: the rule and the check's own description of what failed, with
  the case names taken out.

One cause that breaks many rules is one defect listing them: a crash is keyed without its rule,
and where the adapter's strictify returned its input unchanged on every call of a dialect
(``identity``), every strict-schema finding of that dialect whose output equals its input is the
one defect "strictify returns its input unchanged".
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Defect", "cause_of", "failure_identity", "group_defects", "identity_dialects", "message_shape"]

#: A parenthetical naming the case that met a failure, not its cause: "(known-bad SM-01 schema)",
#: "(trap records)", "(trap bounds value 0)", "(case ...)", "(corpus o123)".
_CASE_NOTE = re.compile(r"\s*\((?:known-bad [^()]*|trap [^()]*|case [^()]*|corpus [^()]*|fixed case [^()]*)\)")
_BACKTICKED = re.compile(r"`([^`]+)`")
_NUMBERS = re.compile(r"(?<![A-Za-z_])-?\d+(?:\.\d+)?")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
#: A reference written unquoted in a message: a JSON pointer or anchor ("#/$defs/Node", "#gate") or
#: a path through a schema ("Node/properties/next"): the schema's names, not the message. A match
#: starts only where a run of its characters starts (linear in the text); a path is taken out only
#: when it names a container keyword ("if/then/else are not supported" stays as it is).
_REFERENCE = re.compile(r"(?<![\w$.~'\"/#-])(?:#[^\s'\",;)\]]*|[\w$.~-]+(?:/[\w$.~-]+){2,})")
_CONTAINERS = frozenset({"properties", "$defs", "definitions", "items", "prefixItems", "anyOf", "allOf", "oneOf",
                         "patternProperties", "additionalProperties", "dependentSchemas"})


def _reference(match: re.Match[str]) -> str:
    text = match.group()
    return "…" if text.startswith("#") or _CONTAINERS.intersection(text.split("/")) else text
#: A strict-schema rule, as SM-xx findings and RT-1 ("SM-41 at ...") name it.
_SM_AT = re.compile(r"^(SM-\d+) at ")
#: Rules that judge strictify's output (their findings carry the input and the output).
_STRICT_OUTPUT_RULES = re.compile(r"^(SM-\d+|RT-1|RT-9)$")


@dataclass(frozen=True)
class Cause:
    """What a finding says went wrong, without the case that showed it."""

    signature: str
    title: str


@dataclass
class Defect:
    """One cause, with every finding that shows it."""

    id: str
    signature: str
    title: str
    kind: str
    rules: list[str] = field(default_factory=list)
    findings: list[Mapping[str, Any]] = field(default_factory=list)
    witnesses: int = 0
    #: ``"indirect"`` when the rule broken rests on documentation that is silent (a keyword the
    #: provider neither lists nor rejects): reported apart from documented violations, saying so
    basis: str = "documented"
    basis_note: str = ""

    @property
    def example(self) -> Mapping[str, Any]:
        """The finding to show: the one with the smallest counterexample (the most minimal witness),
        preferring one with a reproducer."""
        return min(self.findings, key=_example_order)

    def as_json(self) -> dict[str, Any]:
        example = self.example
        return {
            "id": self.id, "title": self.title, "kind": self.kind, "signature": self.signature, "basis": self.basis,
            **({"basis_note": self.basis_note} if self.basis_note else {}),
            "rules": list(self.rules), "witnesses": self.witnesses, "findings": len(self.findings),
            "keys": sorted({str(finding.get("key", "")) for finding in self.findings}),
            # the finding itself (its counterexample, its calls) is in its rule's findings: named, not copied
            "example": {name: example.get(name) for name in ("rule", "key", "where", "message",
                                                              "reproducer", "reproducer_language", "replay", "nodeid", "origin")
                        if example.get(name) is not None},
        }


def _example_order(finding: Mapping[str, Any]) -> tuple[int, int, str]:
    size = len(json.dumps(finding.get("counterexample"), sort_keys=True, default=repr))
    return (0 if finding.get("reproducer") else 1, size, str(finding.get("key", "")))


def _without_cases(text: str) -> str:
    return _CASE_NOTE.sub("", text).strip()


def message_shape(text: str) -> str:
    """``text`` with the values taken out (quoted strings, references and numbers): what identifies a message
    met on several inputs (a refusal, a validator's words) as one. A pydantic ``ValidationError``
    is its model and the errors it names, without the fields and input values that met them."""
    return _NUMBERS.sub("N", _REFERENCE.sub(_reference, _QUOTED.sub("'…'", _pydantic_shape(text)))).strip()


#: pydantic's ValidationError text: "2 validation errors for Schema", then per error its location
#: on a line of its own, "  <message> [type=<error type>, input_value=..., input_type=...]" and
#: "    For further information visit <url>".
_PYDANTIC_HEADER = re.compile(r"\b\d+ validation errors? for ([^\n]+)\n")
_PYDANTIC_ERROR = re.compile(r"^  (\S[^\n]*?) \[type=([\w.-]+)", re.M)


def _pydantic_shape(text: str) -> str:
    """A pydantic validation error as its model and its distinct errors: the same refusal met at
    another field (``definitions``, ``allOf``) or with another input value is one message."""
    header = _PYDANTIC_HEADER.search(text)
    if header is None:
        return text
    errors = sorted({f"{message} [type={kind}]" for message, kind in _PYDANTIC_ERROR.findall(text, header.end())})
    if not errors:
        return text
    return f"{text[:header.start()]}validation errors for {header.group(1)}: {'; '.join(errors)}"


def _detail(finding: Mapping[str, Any]) -> str:
    """The part of a finding's key after "RULE kind: ", without case names."""
    key = str(finding.get("key", ""))
    head = f"{finding.get('rule', '?')} {finding.get('kind', '')}"
    detail = key[len(head):].lstrip(": ") if key.startswith(head) else key.partition(": ")[2]
    return _without_cases(detail)


def _origin_text(origin: Any) -> str:
    if isinstance(origin, Mapping) and origin.get("file"):
        function = f":{origin['function']}" if origin.get("function") else ""
        return f"{origin['file']}{function}"
    return ""


def cause_of(finding: Mapping[str, Any]) -> Cause:
    """The cause of one finding (see the module's docstring for what identifies it)."""
    rule = str(finding.get("rule", "?"))
    kind = str(finding.get("kind", "violation"))
    detail = _detail(finding)
    if kind == "crash":
        # "TypeError from strictify()": the same crash is one defect under every rule that met it
        exception, _, method = detail.partition(" from ")
        origin = _origin_text(finding.get("origin"))
        where = f" in {origin}" if origin else ""
        return Cause(f"crash|{exception}|{method}|{origin}", f"{method or 'the SDK'} raises {exception}{where}")
    if kind == "refusal":
        message = message_shape(str(finding.get("message", "")))
        return Cause(f"refusal|{rule}|{message_shape(detail)}|{message[:200]}", f"refuses what the dialect can express: {detail or message}")
    if kind == "fault":
        # the same fault under every rule that met it (an environment that cannot import the SDK's module)
        return Cause(f"fault|{detail}", f"the adapter: {detail}" if detail else "the adapter misbehaved")
    # violations
    if detail.startswith(_UNREADABLE):
        return _unreadable(finding)
    sm = _SM_AT.match(detail)
    if rule.startswith("SM-") or sm:
        dialect_rule = rule if rule.startswith("SM-") else sm.group(1) if sm else rule
        said = _violation_text(finding, dialect_rule)
        shown = _violation_text(finding, dialect_rule, abstract=False)
        keyword = _BACKTICKED.search(detail)
        at = f" `{keyword.group(1)}`" if keyword and keyword.group(1) not in shown else ""
        return Cause(f"strict|{dialect_rule}|{keyword.group(1) if keyword else ''}|{said}",
                     f"strict output breaks {dialect_rule}{at}" + (f": {shown}" if shown else ""))
    if rule in ("RT-4", "RT-5", "RT-6"):
        keyword = _BACKTICKED.search(detail)
        if keyword:
            verb = "encoded" if rule == "RT-4" else "decoded" if rule == "RT-5" else "round-tripped"
            if rule == "RT-5" and _constraint_dropped(finding):
                # the keyword is gone from the strict node: one defect, whichever constraint it was
                return Cause(f"value|{rule}|dropped", "strict output drops a constraint of the original (RT-5): "
                                                      "values it forbids are accepted")
            return Cause(f"value|{rule}|{keyword.group(1)}", f"a valid value {verb} breaks `{keyword.group(1)}` ({rule})")
    for pattern, family in _SAME_CAUSE.get(rule, ()):
        if pattern.search(detail):
            return Cause(f"violation|{rule}|{family}", f"{rule}: {family}")
    if rule.startswith("DR-"):
        api = _counterexample(finding).get("api") or ""
        missed = re.match(r"missed breaking drift \(([^,)]+)", detail)
        if missed:
            family = missed.group(1).split(":")[0]
            if rule == "DR-5":  # a cross-field invariant: one per API and kind of relation
                return Cause(f"drift|{rule}|missed|{api}|{family}", f"{rule}: {api} breaking drift not reported ({family})")
            path = _field_path(finding)
            return Cause(f"drift|{rule}|missed|{api}|{path}", f"{rule}: breaking drift not reported at {api} {path}".rstrip())
        reported = re.match(r"reported drift on an? ([a-z ]+?) \(([^)]*)\)", detail)
        if reported:
            exception = reported.group(2).rpartition(", ")[2]
            return Cause(f"drift|{rule}|reported|{api}|{reported.group(1)}|{exception}",
                         f"{rule}: {api} drift reported on {reported.group(1)} ({exception})")
        if rule == "DR-9" and detail.startswith("cut stream not reported"):
            # the SDK does not notice a stream of this API ended without its terminal event, however
            # the event went missing (cut short, renamed): one defect per API, not per mutation
            return Cause(f"drift|{rule}|cut|{api}", f"{rule}: a cut {api + ' ' if api else ''}stream is not reported as incomplete")
        undeclared = re.match(r"undeclared (\S+)", detail)
        if undeclared:
            return Cause(f"drift|{rule}|undeclared|{undeclared.group(1)}", f"{rule}: {undeclared.group(1)} escapes undeclared")
    keyword = _BACKTICKED.search(detail)
    if keyword and rule.startswith("RT-"):
        return Cause(f"violation|{rule}|{keyword.group(1)}", f"{rule}: `{keyword.group(1)}` " + re.sub(r" at an? [a-z -]+ node$", "", detail).replace(f"a `{keyword.group(1)}` ", ""))
    return Cause(f"violation|{rule}|{message_shape(detail)}", f"{rule}: {detail}" if detail else rule)


def failure_identity(finding: Mapping[str, Any]) -> str:
    """What a check's search tells apart while it runs: the finding's cause (:func:`cause_of`), so
    Hypothesis searches and shrinks one counterexample per defect, not one per case or node shape
    that met it (an SDK that never lists a property in ``required`` met SM-29 at 19 node shapes: 19
    shrinks for one bug). A drift finding keeps its key: a missed change's cause names the field,
    finer than the key (the kind of change), which the report reads across fields
    (:func:`group_defects`) to tell an SDK that validates nothing from one gap; and the shrinks of a
    drift failure's input kinds ("undeclared AttributeError on a null input", "... on an array
    input") are where other crashes of the same parser turn up (a KeyError of pydantic-ai's)."""
    if str(finding.get("rule", "")).startswith("DR-"):
        return str(finding.get("key", ""))
    if finding.get("kind") == "refusal":
        # the key holds the error's whole message shaped; the message cuts it at 300 characters,
        # perhaps inside a quoted value, whose raw text then changes as the example shrinks
        return f"refusal|{finding.get('rule', '?')}|{message_shape(_detail(finding))}"
    return cause_of(finding).signature


#: An oracle could not read the adapter's strict schema (checks/_strict.py, ``judge``): the schema
#: breaks its draft's meta-schema, whichever rule's oracle met it first (RT-4, RT-5, RT-7...).
_UNREADABLE = "strictify() returned a schema values cannot be checked against"
_INVALID_AT = re.compile(r"the strict schema is not valid (.+?) at (/.*?): (.*)$", re.S)
#: jsonschema's words for what is wrong, after the offending value it starts with (the rightmost
#: such phrase outside quotes: the value's own text comes first)
_VERDICT = re.compile(r" (is not|is a |is too|is less|is greater|is expected|does not|should |has non|were unexpected|are not allowed)")
#: A JSON pointer inside a message ("at /properties/city"): where, not what
_POINTER = re.compile(r"(?<![\w/])/[^\s:()]*")


def _keywords_along(tokens: Sequence[str]) -> Iterable[int]:
    """The positions of the keywords among a schema pointer's ``tokens``: a property name or an
    index after its keyword is skipped (in /properties/properties/type, 0 and 2)."""
    from strictconformance.spec.keywords import SCHEMA_ARRAY_KEYWORDS, SCHEMA_MAP_KEYWORDS

    index = 0
    while index < len(tokens):
        keyword = tokens[index]
        if keyword.isdigit():  # an index the walk did not skip (a draft-7 `items` list)
            index += 1
            continue
        yield index
        index += 2 if keyword in SCHEMA_MAP_KEYWORDS or (keyword in SCHEMA_ARRAY_KEYWORDS and index + 1 < len(tokens)
                                                         and tokens[index + 1].isdigit()) else 1


def _keyword_at(pointer: str) -> str:
    """The last keyword on the JSON pointer ``pointer`` of a schema (a property name or an index
    after its keyword is skipped: /properties/properties/type is `type`, /properties/a is `properties`)."""
    tokens = pointer.split("/")[1:]
    return next((tokens[index] for index in reversed(list(_keywords_along(tokens)))), "")


def _unreadable(finding: Mapping[str, Any]) -> Cause:
    """One defect per way the strict schema breaks its draft (the keyword and jsonschema's verdict,
    values taken out), not one per rule whose oracle met it: a draft-7 ``items`` list kept in a
    2020-12 output is one bug, whether RT-4 or RT-5 drew from it first."""
    message = str(finding.get("message", ""))
    found = _INVALID_AT.search(message)
    if found is None:
        said = message.partition(f"{_UNREADABLE}: ")[2] or message
        return Cause(f"unreadable|{message_shape(_POINTER.sub('/…', said))}", f"strict output is not a schema values can be checked against: {said}")
    draft, pointer, problem = found.groups()
    keyword = _keyword_at(pointer)
    unquoted = _QUOTED.sub(lambda quoted: "x" * len(quoted.group()), problem)
    verdicts = list(_VERDICT.finditer(unquoted))
    words = problem[verdicts[-1].start() + 1:] if verdicts else problem
    where = f"`{keyword}` " if keyword else "the root "
    return Cause(f"unreadable|{draft}|{keyword}|{message_shape(words)}", f"strict output is not valid {draft}: {where}{words[:200]}")


#: Check descriptions that are one cause under one rule (one check states it several ways, by
#: which symptom the example showed first).
_SAME_CAUSE: dict[str, tuple[tuple[re.Pattern[str], str], ...]] = {
    "RT-2": ((re.compile(r"^strictify\(\) (mutates its input|shares a node with its input)"),
              "strictify works on its input in place (mutates it, or returns nodes of it)"),),
    "TL-2": ((re.compile(r"^invalid input (reached the callback|gave a success result)"), "invalid input is not rejected before the callback"),),
    "TL-6": ((re.compile(r"^a direct call (passed invalid input to the callback|with invalid input did not raise)"),
              "a direct call does not validate its input"),),
    "TL-4": ((re.compile(r"(progress events differ|final result carries another value|empty generator's result carries another value)"),
              "a generator's items are not delivered as progress events and its return value as the result"),),
}


def _counterexample(finding: Mapping[str, Any]) -> Mapping[str, Any]:
    counterexample = finding.get("counterexample")
    if isinstance(counterexample, Mapping):
        summary = counterexample.get("summary")
        return summary if isinstance(summary, Mapping) else counterexample
    return {}


#: What a validator message says it met instead ("..., found type 'array'"): the symptom of one
#: example, not the cause (an SDK that never wraps a non-object root meets every type there).
_FOUND = re.compile(r",? (?:found|got) .*$")


def _violation_text(finding: Mapping[str, Any], rule: str, *, abstract: bool = True) -> str:
    """The validator's words for ``rule`` in the finding's counterexample: with what it found and the
    values taken out (``abstract``, for the identity), or as written (for the title). The words
    noted at the finding's own place (``where``) when there are some: an output breaking SM-41
    twice (an external reference, one that resolves nowhere) is two findings, each its own words."""
    noted = [said for said in _counterexample(finding).get("violations") or ()
             if isinstance(said, str) and said.startswith(rule + " ")]
    where = finding.get("where")
    here = [said for said in noted if isinstance(where, str) and f" at {where or '/'}: " in said]
    for said in here or noted:
        text = said.partition(": ")[2]
        return message_shape(_FOUND.sub("", text)) if abstract else text
    return ""


def _field_path(finding: Mapping[str, Any]) -> str:
    """The response field a drift mutation changed, without positions ("choices[0].x" -> "choices[].x")."""
    mutation = _counterexample(finding).get("mutation")
    path = str(mutation.get("path", "")) if isinstance(mutation, Mapping) else ""
    return re.sub(r"\[\d+\]", "[]", path)


def _node(schema: Any, pointer: str) -> Any:
    from strictconformance.dialects.pointers import resolve_pointer

    try:
        return resolve_pointer(schema, pointer)
    except LookupError:
        return None


#: Keywords whose whole subschema an SDK drops with the record it describes: a value the strict
#: schema lets through breaks whatever keyword of that subschema it meets first (its `type`, `enum`,
#: `required`...), one defect.
_RECORD_KEYWORDS = frozenset({"additionalProperties", "patternProperties"})


def _constraint_dropped(finding: Mapping[str, Any]) -> bool:
    """Whether the keyword an RT-5 finding names (``where`` ends in it) is in the original node and
    gone from the strict node at the same place, or lies under a record keyword
    (``additionalProperties``, ``patternProperties``) the strict node at its place lacks."""
    where = finding.get("where")
    counterexample = _counterexample(finding)
    if not isinstance(where, str) or "/" not in where:
        return False
    original_schema, strict_schema = counterexample.get("schema"), counterexample.get("strict")

    def gone(parent: str, keyword: str) -> bool:
        original, strict = _node(original_schema, parent), _node(strict_schema, parent)
        return isinstance(original, Mapping) and keyword in original and isinstance(strict, Mapping) and keyword not in strict

    parent, _, keyword = where.rpartition("/")
    if gone(parent, keyword):
        return True
    from strictconformance.dialects.pointers import join_pointer, split_pointer

    try:
        tokens = split_pointer(where)
    except ValueError:
        return False
    return any(tokens[index] in _RECORD_KEYWORDS and gone(join_pointer("", *tokens[:index]), tokens[index])
               for index in _keywords_along(tokens))


def _dialect_of(finding: Mapping[str, Any]) -> str | None:
    counterexample = finding.get("counterexample")
    if isinstance(counterexample, Mapping):
        if isinstance(counterexample.get("dialect"), str):
            return str(counterexample["dialect"])
        summary = counterexample.get("summary")
        if isinstance(summary, Mapping) and isinstance(summary.get("dialect"), str):
            return str(summary["dialect"])
    return None


def _unchanged(finding: Mapping[str, Any]) -> bool:
    """Whether the finding's counterexample shows strictify's output equal to its input."""
    counterexample = finding.get("counterexample")
    if not isinstance(counterexample, Mapping):
        return False
    if isinstance(counterexample.get("summary"), Mapping):  # too big to show whole: compare the summaries
        counterexample = counterexample["summary"]
    schema, strict = counterexample.get("schema"), counterexample.get("strict")
    if schema is None and strict is not None:
        # a fixed case's counterexample (RT-1 on a curated schema) names the strict output only: its
        # input is the strictify call the finding recorded
        return _strictify_returned(finding.get("calls"), strict)
    return schema is not None and schema == strict


def _strictify_returned(calls: Any, strict: Any) -> bool:
    """Whether the finding's recorded calls hold a strictify call that returned ``strict`` and
    every strictify call among them returned its input unchanged."""
    if not isinstance(calls, Sequence):
        return False
    made = [call for call in calls if isinstance(call, Mapping) and call.get("method") == "strictify"]
    outputs = []
    for call in made:
        args, returned = call.get("args"), call.get("returned")
        if not (isinstance(args, Sequence) and args and isinstance(returned, Mapping)):
            return False
        # a result with losses ({"schema", "losses"}: a harness's answer, a StrictifyResult) or the schema itself
        output = returned["schema"] if {"schema", "losses"} <= returned.keys() else returned
        if output != args[0]:
            return False
        outputs.append(output)
    return strict in outputs


def identity_dialects(strictify: Mapping[str, Mapping[str, Any]]) -> frozenset[str]:
    """The dialects in which strictify returned its input unchanged on every call that gave an
    output, with at least two such calls (``strictify`` is the report's per-dialect summary)."""
    return frozenset(dialect for dialect, counts in strictify.items()
                     if counts.get("outputs", 0) >= 2 and counts.get("unchanged", 0) == counts.get("outputs"))


#: Distinct fields at which breaking drift went unreported that make it one "does not validate" defect.
_WHOLESALE = 5
#: Kinds of breaking change (drop, move, null, retype...) missed at one field, a retype among them,
#: that make it one "does not validate" defect: a validating SDK with a gap misses one or two kinds
#: (a boolean read as an integer, an empty string) or every presence change of a field it declares
#: optional, but checks the field's type; one that validates nothing misses them all at the first
#: field met.
_UNVALIDATED_KINDS = 4


def _mutation_kind(finding: Mapping[str, Any]) -> str:
    """The kind of change a missed-drift finding made ("drop_field", "change_type:bool_int"), as
    its key names it (a boolean for an integer is a retype the mutation calls change_type too)."""
    said = re.search(r"missed breaking drift \(([^)]+)\)", str(finding.get("key", "")))
    if said:
        return said.group(1)
    mutation = _counterexample(finding).get("mutation")
    return str(mutation["kind"]) if isinstance(mutation, Mapping) and mutation.get("kind") else ""


def _cause_in_run(finding: Mapping[str, Any], identity: Sequence[str] | frozenset[str]) -> Cause:
    rule = str(finding.get("rule", "?"))
    dialect = _dialect_of(finding)
    if finding.get("kind") == "violation" and dialect in identity and _STRICT_OUTPUT_RULES.match(rule) and _unchanged(finding):
        return Cause(f"identity|{dialect}", f"strictify returns its input unchanged ({dialect})")
    return cause_of(finding)


def _set_basis(defect: Defect) -> None:
    """A strict-schema defect whose rule the dialect's provider documents only indirectly (the
    shipped dialect's rule says ``basis="indirect"``) says so: one verdict per fact, decided in
    the dialect data with its source, the same for every SDK."""
    parts = defect.signature.split("|")
    if parts[0] != "strict":
        return
    from strictconformance.dialects import SHIPPED

    dialect = SHIPPED.get(_dialect_of(defect.example) or "")
    if dialect is None or parts[1] not in dialect.rule_ids:
        return
    rule = dialect.rule(parts[1])
    if rule.basis == "indirect":
        defect.basis, defect.basis_note = "indirect", f"{dialect.name}: {rule.note} ({rule.source})"
        defect.title += " [the provider's documentation is silent on it]"


def _defect_id(signature: str) -> str:
    return "D-" + hashlib.sha256(signature.encode()).hexdigest()[:8]


def group_defects(findings: Iterable[Mapping[str, Any]], *, identity: Sequence[str] | frozenset[str] = ()) -> list[Defect]:
    """The defects the findings show, most witnesses first. ``identity``: the dialects in which
    strictify returned every input unchanged (:func:`identity_dialects`)."""
    findings = list(findings)
    causes = [_cause_in_run(finding, identity) for finding in findings]
    # an SDK that misses breaking drift at many fields, or lets one field be dropped, moved, nulled
    # and retyped alike, validates none of them: one defect per rule
    missed: dict[str, set[str]] = {}
    kinds: dict[tuple[str, str], set[str]] = {}
    for finding, cause in zip(findings, causes, strict=True):
        parts = cause.signature.split("|")
        if parts[0] == "drift" and parts[2] == "missed" and parts[1] in ("DR-2", "DR-3"):
            missed.setdefault(parts[1], set()).add(cause.signature)
            kinds.setdefault((parts[1], cause.signature), set()).add(_mutation_kind(finding))
    wholesale = {rule for rule, signatures in missed.items() if len(signatures) >= _WHOLESALE}
    # a field that may be dropped, nulled, moved or emptied may be optional: retyped too, it is not checked
    wholesale |= {rule for (rule, _), met in kinds.items() if len(met - {""}) >= _UNVALIDATED_KINDS and "change_type" in met}
    by_signature: dict[str, Defect] = {}
    for finding, cause in zip(findings, causes, strict=True):
        rule = str(finding.get("rule", "?"))
        parts = cause.signature.split("|")
        if parts[0] == "drift" and parts[1] in wholesale and parts[2] == "missed":
            what = "responses" if parts[1] == "DR-2" else "stream events"
            cause = Cause(f"drift|{parts[1]}|missed|*", f"{parts[1]}: breaking drift in {what} is not reported at "
                                                        f"{len(missed[parts[1]])} fields (the SDK does not validate them)")
        defect = by_signature.get(cause.signature)
        if defect is None:
            defect = by_signature[cause.signature] = Defect(id=_defect_id(cause.signature), signature=cause.signature,
                                                           title=cause.title, kind=str(finding.get("kind", "violation")))
        defect.findings.append(finding)
        defect.witnesses += int(finding.get("count", 1) or 1)
        if rule not in defect.rules:
            defect.rules.append(rule)
    from strictconformance.spec import rule_sort_key

    for defect in by_signature.values():
        defect.rules.sort(key=rule_sort_key)
        _set_basis(defect)
    return sorted(by_signature.values(), key=lambda defect: (-defect.witnesses, defect.signature))

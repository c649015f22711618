"""SPEC.md §3 (SM) and §4 (RT): the strict rule catalogue and the round trip, as data.

The SM rules come from the dialect catalogue (:mod:`strictconformance.dialects.catalogue`), so a
rule's title, reason and source are written once; each statement says which shipped dialects
apply it and with what parameters.
"""

from __future__ import annotations

from strictconformance.dialects.catalogue import CATALOGUE, RuleDefinition
from strictconformance.dialects.shipped import SHIPPED
from strictconformance.spec import Rule

__all__ = ["RULES"]

_SPEC3 = "strictconformance/spec/SPEC.md §3"
_SPEC4 = "strictconformance/spec/SPEC.md §4"
_STRICTIFY = ("strictify",)
_STRUCTURED_OUTPUTS = "https://platform.openai.com/docs/guides/structured-outputs"


def _applied_by(definition: RuleDefinition) -> str:
    uses = []
    for dialect in SHIPPED.values():
        for rule in dialect.rules:
            if rule.id == definition.id:
                params = ", ".join(f"{key}={value}" for key, value in rule.params.items() if key not in definition.params)
                uses.append(f"{dialect.name} ({params})" if params else dialect.name)
    return ", ".join(uses) or "no shipped dialect (available to custom dialects)"


def _waived_for(definition: RuleDefinition) -> str:
    """The shipped dialects that waive the rule in another context (SPEC §3, contexts), and why."""
    waived = [f"{dialect.name} for {change.context} schemas ({change.waived[definition.id]})"
              for dialect in SHIPPED.values() for change in dialect.contexts if definition.id in change.waived]
    return f" Waived by: {'; '.join(waived)}" if waived else ""


def _sm_rule(definition: RuleDefinition) -> Rule:
    statement = (
        f"{definition.title}: the strict schema strictify returns for a dialect applying this rule "
        f"breaks it nowhere (check {definition.check}). Why: {definition.reason}. "
        f"Applied by: {_applied_by(definition)}.{_waived_for(definition)}"
    )
    source = definition.source if _SPEC3 in definition.source else f"{_SPEC3}; {definition.source}"
    return Rule(definition.id, definition.title.replace("`", ""), statement, source, _STRICTIFY)


RULES: tuple[Rule, ...] = (
    *(_sm_rule(definition) for definition in CATALOGUE.values()),
    Rule("RT-1", "strictify's output obeys every rule of the dialect",
         "Output obeys every rule of the dialect, checked by the SM validator, not by the same code.",
         _SPEC4, _STRICTIFY),
    Rule("RT-2", "strictify is pure",
         "The input is not mutated; the same input gives the same output (schema and losses); the output "
         "shares no dict or list with the input, with another call's output or with itself (aliasing: "
         "editing one would edit the other).", f"{_SPEC4} (aliasing is part of purity: a node shared between two schemas is edited through either)", _STRICTIFY),
    Rule("RT-3", "strictify is idempotent",
         "Strictifying the output again changes nothing.", _SPEC4, _STRICTIFY),
    Rule("RT-4", "completeness: every original value encodes validly and decodes back",
         "Every value valid under the original schema encodes to a value valid under the strict schema "
         "and decodes back to an equal value, except where a reported loss (absent/null collapse, a "
         "narrowed construct) explains it, and only there.", _SPEC4, ("encode", "decode")),
    Rule("RT-5", "soundness: every strict value decodes to an original value",
         "Every value valid under the strict schema decodes to a value valid under the original schema, "
         "except where a reported loss explains the difference, and only there.", _SPEC4, ("decode",)),
    Rule("RT-6", "no silent collapse of absent and null",
         "Where the encoding cannot keep two original values apart (an optional property that is also "
         "nullable: absent vs null), strictify either encodes them apart or reports the loss.",
         _SPEC4, ("encode",)),
    Rule("RT-7", "the validation round trip decodes before user code",
         "A model's strict answer in the dialect's wire shape (pairs, numeric-key objects, null for "
         "absent) decodes to the original value, valid under the original schema: a wire shape never "
         "reaches user code.", _SPEC4 + " (validation round trip)", ("decode",)),
    Rule("RT-8", "satisfiability preserved: the strict schema has a value whenever the original has one",
         "When the original schema has a valid value, the strict schema has one too: a witness built "
         "constructively from the strict schema (required properties, a first satisfiable anyOf branch, "
         "enum/const, bounds, minItems, references cut at optional or nullable exits) that the validator "
         "accepts. A strict schema proven to have none (a required `false` property, an empty enum, "
         "minimum over maximum, a required recursion with no exit) fails.",
         f"{_SPEC4}; a strict-mode tool call must match the schema (OpenAI Structured Outputs, "
         f"{_STRUCTURED_OUTPUTS}; Anthropic strict tool use): with no valid value the model has no valid answer", _STRICTIFY),
    Rule("RT-9", "annotations survive: every description and title is kept, folded into an ancestor, or reported",
         "Every `description` and `title` of a node the original's root reaches is in a description or "
         "title of the strict schema at that node or an ancestor (folded), or a reported loss explains its "
         "absence (`annotation-dropped` at its node; `truncated`/`opaque` at it or above; the keyword it sits "
         "under stripped or narrowed).",
         f"{_SPEC4}; OpenAI Structured Outputs lists `title` and `description` among the keywords strict mode "
         f"supports ({_STRUCTURED_OUTPUTS}), so nothing forces their loss; descriptions are how the model learns what each parameter means (OpenAI "
         "function calling and Anthropic tool use guides: describe every parameter)", _STRICTIFY),
    Rule("RT-10", "strictify refuses only what the dialect cannot express",
         "A declared refusal (one of the adapter's strictify_refusals, or a process harness's refusal "
         "answer) of a schema that the reference turns into a strict schema of the dialect with no loss, "
         "or only with the losses the provider's documentation makes unavoidable (an optional property "
         "made required and nullable where every property must be required; a description with no place "
         "to go), is an unnecessary refusal: the provider accepts that schema in strict mode, so the SDK's "
         "user is refused for nothing. A refusal where the reference reports any other loss is the SDK's "
         "choice (refuse rather than loosen), reported and counted, never judged; so is a refusal by a "
         "strictify with no codec that reshapes values (none, or an encode that hands values on as they are) of a schema the dialect expresses only through a codec that "
         "reshapes values (a non-object root wrapped in an object, records as pairs, a tuple as an object): "
         "it has no lossless way to send it.",
         f"{_SPEC4}; strictify may refuse a schema with a declared exception, never judged as a pass "
         "(SPEC §7, refusals); what each dialect accepts in strict mode: "
         "https://developers.openai.com/api/docs/guides/structured-outputs#supported-schemas, "
         "https://platform.claude.com/docs/en/build-with-claude/structured-outputs#json-schema-limitations, "
         "https://ai.google.dev/gemini-api/docs/structured-output", _STRICTIFY),
)

"""Findings grouped into defects: one cause is one defect, two causes are two (strictconformance.defects).

The grouping is a pure function of the findings (and of which dialects strictify returned unchanged),
so these tests build findings as the report holds them; tests/test_plugin.py and the broken adapters
below show the same through whole runs.
"""

from __future__ import annotations

import copy
import os
import sysconfig
from pathlib import Path
from typing import Any

import pytest

from strictconformance.defects import (
    cause_of,
    failure_identity,
    group_defects,
    identity_dialects,
    message_shape,
)
from strictconformance.harness import crash_origin


def _sm(rule: str, detail: str, case: str | None, *, schema: Any = None, strict: Any = None, said: str = "") -> dict[str, Any]:
    key = f"{rule} violation: {detail}" + (f" ({case})" if case else "")
    counterexample: dict[str, Any] = {"dialect": "openai", "schema": schema or {"type": "array"}, "strict": strict or schema or {"type": "array"}}
    if said:
        counterexample["violations"] = [f"{rule.split(' ')[0]} X at /: {said}"]
    return {"rule": rule, "kind": "violation", "key": key, "where": "/", "message": detail, "counterexample": counterexample}


def _crash(rule: str, exception: str, method: str, origin: dict[str, Any] | None) -> dict[str, Any]:
    finding: dict[str, Any] = {"rule": rule, "kind": "crash", "key": f"{rule} crash: {exception} from {method}()", "where": None,
                               "message": f"adapter.{method}() raised {exception}", "counterexample": {"schema": {}}}
    if origin is not None:
        finding["origin"] = origin
    return finding


def test_one_defect_met_by_many_cases_is_one_defect() -> None:
    """The key names the case ("(trap ...)", "(known-bad ...)"); the defect does not."""
    findings = [_sm("SM-05", "`patternProperties` of an object inside properties", case) for case in
                (None, "trap object-under-pattern-properties", "known-bad SM-05 schema", "trap records value 0")]
    findings.append({**_sm("RT-1", "SM-05 at `patternProperties` of an object at the root", "known-bad SM-05 schema"), "rule": "RT-1"})
    defects = group_defects(findings)
    assert len(defects) == 1
    assert defects[0].rules == ["SM-05", "RT-1"]
    assert defects[0].witnesses == 5


def test_three_planted_causes_are_three_defects_whatever_the_cases() -> None:
    findings = []
    for case in ("trap a", "trap b", "known-bad SM-27 schema", None):
        findings.append(_sm("SM-27", "`oneOf` of an oneOf node inside properties", case))
        findings.append(_sm("SM-04", "array inside properties", case, said="an array needs `items`"))
    findings += [_crash("RT-1", "TypeError", "strictify", {"file": "sdk/walk.py", "function": "walk", "line": 3})] * 4
    assert len(group_defects(findings)) == 3


def test_two_crashes_of_one_type_from_different_functions_are_two_defects() -> None:
    one = _crash("RT-1", "TypeError", "strictify", {"file": "sdk/walk.py", "function": "close_objects", "line": 10})
    other = _crash("RT-1", "TypeError", "strictify", {"file": "sdk/walk.py", "function": "inline_refs", "line": 99})
    moved = _crash("RT-3", "TypeError", "strictify", {"file": "sdk/walk.py", "function": "close_objects", "line": 12})
    defects = group_defects([one, other, moved])
    assert len(defects) == 2
    # the same function under another rule, at another line, is the same defect: its rules are listed
    assert sorted(d.rules for d in defects) == [["RT-1"], ["RT-1", "RT-3"]]


def test_crash_origin_is_the_implementations_innermost_frame() -> None:
    """Not the kit's frame, not the standard library's: the frame of the code under test that raised."""
    namespace: dict[str, Any] = {}
    exec(compile("import json\ndef parse(text):\n    return json.loads(text)\n", "/tmp/site-packages/fakesdk/io.py", "exec"), namespace)
    try:
        namespace["parse"]("{not json")
    except ValueError as error:
        origin = crash_origin(error)
    assert origin == {"file": "fakesdk/io.py", "function": "parse", "line": 3}


def test_an_sdk_installed_inside_the_standard_librarys_folder_is_still_the_origin() -> None:
    """Outside a venv (pyenv, python.org, conda) site-packages is inside the standard library's
    folder: its frames are the SDK's, the standard library's beside them are not. The kit named the
    harness that called google-genai as the origin of the SDK's own AttributeError (_common.py's
    enum `_missing_` calling `.upper()` on a type list), and every SDK crash of one type and method
    was one defect."""
    stdlib = sysconfig.get_paths()["stdlib"]
    namespace: dict[str, Any] = {}
    exec(compile("def to_type(value):\n    return value.upper()\n", os.path.join(stdlib, "site-packages", "fakesdk", "common.py"), "exec"),
         namespace)
    exec(compile("def call(function, value):\n    return function(value)\n", os.path.join(stdlib, "fakelib.py"), "exec"), namespace)
    try:
        namespace["call"](namespace["to_type"], ["string", "null"])
    except AttributeError as error:
        origin = crash_origin(error)
    assert origin == {"file": "fakesdk/common.py", "function": "to_type", "line": 2}


def test_a_harness_reports_the_origin() -> None:
    error = RuntimeError("boom")
    error.origin = {"file": "@acme/sdk/dist/index.js", "function": "toStrict", "line": 7}  # type: ignore[attr-defined]
    assert crash_origin(error) == {"file": "@acme/sdk/dist/index.js", "function": "toStrict", "line": 7}


def test_a_harness_origin_in_the_kit_or_in_node_modules_is_the_same_on_every_checkout() -> None:
    """A shipped Node harness reports its own file by absolute path (a crash thrown from its
    driftError): the vercel-ai column's one crash had two defect ids, built from two checkouts."""
    import strictconformance

    kit = Path(strictconformance.__file__).resolve().parent
    for reported, expected in (
        (str(kit / "process" / "node" / "harnesses" / "vercel-ai.mjs"), "strictconformance/process/node/harnesses/vercel-ai.mjs"),
        ("file://" + str(kit / "process" / "node" / "harnesses" / "vercel-ai.mjs"), "strictconformance/process/node/harnesses/vercel-ai.mjs"),
        ("/elsewhere/app/node_modules/ai/dist/index.mjs", "ai/dist/index.mjs"),
        # a Node stack's file URL is percent-encoded; a package under the kit's own node_modules is the package's
        ("file://" + str(kit / "process" / "node" / "harnesses" / "my harness.mjs").replace(" ", "%20"),
         "strictconformance/process/node/harnesses/my harness.mjs"),
        (str(kit / "process" / "node" / "node_modules" / "ai" / "dist" / "index.mjs"), "ai/dist/index.mjs"),
        ("dist/index.js", "dist/index.js"),
    ):
        error = RuntimeError("boom")
        error.origin = {"file": reported, "function": "driftError", "line": 3}  # type: ignore[attr-defined]
        assert crash_origin(error) == {"file": expected, "function": "driftError", "line": 3}, reported


def test_two_breaks_of_one_rule_in_one_output_are_each_read_at_their_own_place() -> None:
    """RT-1 reports the other breaks of an output beside the first, each with that output's noted
    violations: the one at ``/properties/b/$ref`` (a reference that resolves nowhere) is its own
    defect, not the external reference noted first at ``/properties/a/$ref``."""
    noted = ["SM-03 MissingAdditionalProperties at /: an object needs `additionalProperties: false`",
             "SM-41 ExternalRef at /properties/a/$ref: external reference 'https://example.com/a.json'",
             "SM-41 ExternalRef at /properties/b/$ref: reference '#/$defs/Gone' does not resolve inside the schema"]

    def finding(where: str) -> dict[str, Any]:
        return {"rule": "RT-1", "kind": "violation", "key": "RT-1 violation: SM-41 at `$ref` of a $ref node inside properties",
                "where": where, "message": "...", "counterexample": {"dialect": "openai", "violations": noted}}

    external, dangling = cause_of(finding("/properties/a/$ref")), cause_of(finding("/properties/b/$ref"))
    assert external.signature != dangling.signature
    assert "external reference" in external.title and "does not resolve" in dangling.title, (external, dangling)
    assert failure_identity(finding("/properties/b/$ref")) == dangling.signature


def test_a_refusal_searched_with_its_message_cut_anywhere_is_one_failure() -> None:
    """A refusal's message carries the error cut at 300 characters, perhaps inside a quoted value
    whose raw text then changes as Hypothesis shrinks it: the search tells refusals apart by the
    key (the whole error, shaped), so one refusal is one failure to shrink, not six."""
    def refusal(value: str) -> dict[str, Any]:
        error = f"ValueError: cannot express the pattern '{value}' in strict mode"
        return {"rule": "RT-10", "kind": "refusal", "key": f"RT-10 refusal: {message_shape(error)}",
                "message": f"openai: strictify refused a schema the dialect can express: {error}"[:120], "counterexample": {}}

    identities = {failure_identity(refusal("x" * length)) for length in (10, 60, 80, 95, 120, 300)}
    assert len(identities) == 1, identities


def test_an_identity_strictify_is_one_defect_listing_every_rule_it_breaks() -> None:
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "x"}}, "patternProperties": {"^x": {}}}
    findings = [
        _sm("SM-01", "array at the root", "known-bad SM-01 schema", schema={"type": "array"}),
        _sm("SM-03", "object at the root", None, schema=schema),
        _sm("SM-05", "`patternProperties` of an object at the root", "trap records", schema=schema),
        {**_sm("RT-1", "SM-05 at `patternProperties` of an object at the root", None, schema=schema), "rule": "RT-1"},
    ]
    # a finding whose output differs from its input is another cause, even in that dialect
    changed = _sm("SM-07", "`$anchor` of an object", None, schema={"$anchor": "a"}, strict={"$anchor": "a", "type": "object"})
    identity = identity_dialects({"openai": {"outputs": 40, "unchanged": 40}, "anthropic": {"outputs": 40, "unchanged": 39}})
    assert identity == frozenset({"openai"})
    defects = group_defects([*findings, changed], identity=identity)
    assert len(defects) == 2
    whole = next(d for d in defects if d.signature.startswith("identity"))
    assert whole.rules == ["SM-01", "SM-03", "SM-05", "RT-1"]
    assert "unchanged" in whole.title
    # without the column-wide evidence, the same findings are one defect per rule broken
    assert len(group_defects(findings)) == 3


def _case(rule_broken: str, schema: Any, returned: Any) -> dict[str, Any]:
    """An RT-1 finding on a fixed case, as the report holds it: the counterexample names the strict
    output only, the recorded strictify call its input."""
    return {"rule": "RT-1", "kind": "violation", "key": f"RT-1 violation: {rule_broken} at object inside properties (known-bad {rule_broken} schema)",
            "where": "/properties/a", "message": f"openai: the strict schema breaks 1 rule check(s) of {rule_broken}",
            "counterexample": {"dialect": "openai", "case": f"known-bad-{rule_broken.lower()}", "strict": returned,
                               "violations": [f"{rule_broken} X at /properties/a: banned"]},
            "calls": [{"method": "strictify", "args": [schema, "openai"], "returned": {"schema": returned, "losses": []}}]}


def test_an_identity_strictify_takes_the_fixed_cases_whose_recorded_call_returned_its_input() -> None:
    """A fixed case's counterexample has no input schema: the strictify call it recorded shows the
    output is the input, so its findings are the identity defect too, not one defect per rule."""
    schema = {"type": "object", "properties": {"a": {"type": "string", "pattern": "x"}}}
    findings = [_sm("SM-03", "object at the root", None, schema=schema)]
    for rule_broken in ("SM-26", "SM-27", "SM-32", "SM-33"):
        one = {"type": "object", "properties": {"a": {"type": "string", rule_broken: True}}}
        findings.append(_case(rule_broken, one, one))
    # a case whose call changed the schema is its own cause, even in that dialect
    changed_input = {"type": "object", "properties": {"a": {"oneOf": [{"type": "string"}]}}}
    changed_output = {**changed_input, "additionalProperties": False}
    changed = _case("SM-20", changed_input, changed_output)
    defects = group_defects([*findings, changed], identity=frozenset({"openai"}))
    assert len(defects) == 2, [d.title for d in defects]
    whole = next(d for d in defects if d.signature.startswith("identity"))
    assert whole.rules == ["SM-03", "RT-1"] and whole.witnesses == 5


def test_two_messages_of_one_rule_are_two_defects() -> None:
    """SM-41 said two ways: an external document, and a reference that does not resolve inside."""
    external = _sm("SM-41", "`$ref` of a $ref node inside properties", None, said="external reference 'https://x/a.json'")
    dangling = _sm("SM-41", "`$ref` of a $ref node inside items", None, said="reference '#/definitions/Foo' does not resolve inside the schema")
    dangling_too = _sm("SM-41", "`$ref` of a $ref node at the root", None, said="reference '#/definitions/Bar' does not resolve inside the schema")
    assert len(group_defects([external, dangling, dangling_too])) == 2


def test_a_dropped_constraint_is_one_defect_whatever_the_keyword() -> None:
    def dropped(keyword: str, value: Any) -> dict[str, Any]:
        schema = {"type": "object", "properties": {"a": {"type": "string", keyword: value}}}
        strict = {"type": "object", "properties": {"a": {"type": "string", "description": f"{{{keyword}: {value}}}"}}}
        return {"rule": "RT-5", "kind": "violation", "key": f"RT-5 violation: decoded value breaks `{keyword}`",
                "where": f"/properties/a/{keyword}", "message": "", "counterexample": {"schema": schema, "strict": strict}}

    kept = {"rule": "RT-5", "kind": "violation", "key": "RT-5 violation: decoded value breaks `required`", "where": "/required",
            "message": "", "counterexample": {"schema": {"required": ["a"]}, "strict": {"required": ["a"]}}}
    defects = group_defects([dropped("minLength", 2), dropped("pattern", "x"), dropped("maxLength", 3), kept])
    assert len(defects) == 2


def test_drift_missed_at_one_field_per_api_and_at_many_fields() -> None:
    def missed(rule: str, kind: str, path: str, api: str = "openai.chat") -> dict[str, Any]:
        return {"rule": rule, "kind": "violation", "key": f"{rule} violation: missed breaking drift ({kind})", "where": None, "message": "",
                "counterexample": {"api": api, "mutation": {"kind": kind, "path": path}}}

    # the same field missed by several kinds of change: one defect; another field: another
    few = [missed("DR-2", "drop_field", "id"), missed("DR-2", "empty_field", "id"), missed("DR-2", "change_type", "created")]
    assert len(group_defects(few)) == 2
    # an SDK that validates nothing misses every field: one defect for the rule
    many = [missed("DR-3", "drop_field", f"events[{n}].data.f{n}") for n in range(6)]
    assert len(group_defects(many)) == 1


def test_drift_missed_in_every_way_at_one_field_is_an_sdk_that_validates_nothing() -> None:
    """A client that builds its objects without validating lets the first field met (``id``) be
    dropped, moved, nulled and retyped alike: the boolean token count it also misses is the same
    cause (one defect), where a validating client missing two kinds at two fields has two."""
    def missed(kind: str, path: str) -> dict[str, Any]:
        return {"rule": "DR-2", "kind": "violation", "key": f"DR-2 violation: missed breaking drift ({kind})", "where": None,
                "message": "", "counterexample": {"api": "anthropic.messages", "mutation": {"kind": kind.partition(":")[0], "path": path}}}

    unvalidated = [missed(kind, "id") for kind in ("drop_field", "move_field", "null_field", "change_type")]
    unvalidated += [missed("change_type:bool_int", "usage.input_tokens"), missed("drop_field", "content")]
    [defect] = group_defects(unvalidated)
    assert "does not validate" in defect.title and defect.witnesses == 6
    gaps = [missed("empty_field", "id"), missed("change_type:bool_int", "created")]
    assert len(group_defects(gaps)) == 2
    # a validating SDK whose schema makes `id` optional and nullable misses every presence change
    # there but checks its type: the boolean token count it also misses is another cause
    optional = [missed(kind, "id") for kind in ("drop_field", "move_field", "null_field", "empty_field")]
    assert len(group_defects([*optional, missed("change_type:bool_int", "usage.cache_creation.ephemeral_5m_input_tokens")])) == 2


@pytest.mark.parametrize("detail", ["invalid input reached the callback", "invalid input gave a success result"])
def test_one_check_saying_one_cause_two_ways_is_one_defect(detail: str) -> None:
    other = "invalid input gave a success result" if detail.endswith("callback") else "invalid input reached the callback"
    findings = [{"rule": "TL-2", "kind": "violation", "key": f"TL-2 violation: {text}", "where": None, "message": "", "counterexample": {}}
                for text in (detail, other)]
    findings.append({"rule": "TL-2", "kind": "violation", "key": "TL-2 violation: the error result does not name the failing field",
                     "where": None, "message": "", "counterexample": {}})
    assert len(group_defects(findings)) == 2


def test_defect_ids_are_stable_and_the_example_is_the_smallest() -> None:
    small = _sm("SM-04", "array inside properties", None, schema={"type": "array"}, said="an array needs `items`")
    big = _sm("SM-04", "array inside items", "trap x", schema={"type": "array", "description": "x" * 500}, said="an array needs `items`")
    first = group_defects([big, small])[0]
    again = group_defects([copy.deepcopy(small), copy.deepcopy(big)])[0]
    assert first.id == again.id and first.id.startswith("D-")
    assert first.example is small
    assert first.as_json()["witnesses"] == 2


def test_refusals_are_grouped_by_type_and_message_without_values() -> None:
    def refused(depth: int) -> dict[str, Any]:
        return {"rule": "RT-10", "kind": "refusal", "key": "RT-10 refusal: ValueError: nested N levels, limit is N",
                "where": None, "message": f"strictify refused: ValueError: nested {depth} levels, limit is 2", "counterexample": {}}
    nullable = {"rule": "RT-10", "kind": "refusal", "key": "RT-10 refusal: ValueError: nullable fields are not supported",
                "where": None, "message": "refused: nullable fields are not supported", "counterexample": {}}
    assert len(group_defects([refused(3), refused(4), nullable])) == 2


def test_a_pydantic_refusal_is_one_defect_whichever_field_met_it() -> None:
    """A kit split: an SDK whose pydantic schema model forbids the keywords it does not convert
    refuses `definitions`, `$schema` and `allOf` with one ValidationError text naming the field and
    its input value; the refusal is one cause (one defect), and another error type is another."""
    from pydantic import BaseModel, ConfigDict, ValidationError

    class Schema(BaseModel):
        model_config = ConfigDict(extra="forbid")
        type: str | None = None

    def refused(schema: dict[str, Any]) -> dict[str, Any]:
        try:
            Schema.model_validate(schema)
        except ValidationError as error:
            shape = message_shape(str(error))
            return {"rule": "RT-10", "kind": "refusal", "key": f"RT-10 refusal: ValidationError: {shape[:160]}", "where": None,
                    "message": f"google: strictify refused a schema (ValidationError: {str(error)[:300]}); the reference ...",
                    "counterexample": {}}
        raise AssertionError(f"{schema} was accepted")

    extra = [refused({"definitions": {"A": {"type": "string"}}}), refused({"$schema": "http://json-schema.org/draft-07/schema#"}),
             refused({"$schema": "x", "allOf": [{"type": "object"}]}), refused({"type": "object", "oneOf": [{}]})]
    wrong_type = refused({"type": 3})
    defects = group_defects([*extra, wrong_type])
    assert len(defects) == 2, [defect.title for defect in defects]
    assert len({finding["key"] for finding in extra}) == 1
    assert "Extra inputs are not permitted [type=extra_forbidden]" in defects[0].title
    assert "definitions" not in defects[0].title and "input_value" not in defects[0].title


def test_cause_of_never_names_the_case() -> None:
    a = cause_of(_sm("SM-02", "empty schema inside properties", "known-bad SM-02 schema", said="the node declares no `type`"))
    b = cause_of(_sm("SM-02", "empty schema inside properties", "trap anything", said="the node declares no `type`"))
    assert a == b and "known-bad" not in a.title and "trap" not in a.title


def test_the_matrix_findings_group_into_as_many_defects_as_there_are_triaged_causes() -> None:
    """On every column of the SDK matrix (its findings under the ci profile, each with the cause
    triaged by hand), the grouping finds the number of causes within 1.5x: a maintainer with no
    triage file reads one entry per defect, not a wall of witnesses (1,804 findings, 420 causes)."""
    import gzip
    import json
    from pathlib import Path

    document = json.loads(gzip.decompress((Path(__file__).parent / "data" / "matrix_findings_by_cause.json.gz").read_bytes()))
    total_findings = total_defects = 0
    for column, rows in document["columns"].items():
        findings = [{"rule": rule, "kind": kind, "key": key, "where": where, "count": count, "counterexample": counterexample,
                     "cause": cause} for rule, kind, key, where, count, counterexample, cause in rows]
        causes = len({finding["cause"] for finding in findings})
        defects = group_defects(findings)
        assert causes / 1.5 <= len(defects) <= causes * 1.5, (column, causes, len(defects))
        total_findings += len(findings)
        total_defects += len(defects)
    assert total_defects * 3 < total_findings


def test_a_rule_the_provider_documents_only_indirectly_is_said_so_for_every_sdk() -> None:
    """OpenAI neither lists `$anchor` as supported nor rejects it: the dialect data says the rule is
    indirect (one verdict per fact), and the defect says so; `allOf`, which OpenAI lists as not
    supported, is a documented violation."""
    anchor = _sm("SM-07", "`$anchor` of an object inside properties", None, said="`$anchor` is not allowed")
    all_of = _sm("SM-26", "`allOf` of an allOf node inside properties", None, said="`allOf` is not allowed")
    by_rule = {defect.rules[0]: defect for defect in group_defects([anchor, all_of])}
    assert by_rule["SM-07"].basis == "indirect" and "silent" in by_rule["SM-07"].title
    assert "structured-outputs" in by_rule["SM-07"].basis_note
    assert by_rule["SM-26"].basis == "documented"


def test_the_generator_resolves_what_the_validator_resolves() -> None:
    """A draft-04 plain-name `id` anchor the validator accepts is one the value generator follows; a
    pointer nothing defines is a ValueError naming the reference, never a bare KeyError."""
    from hypothesis import given, settings
    from jsonschema import Draft4Validator

    from strictconformance.dialects.pointers import resolve_local_reference
    from strictconformance.strategies.instances import instances

    schema = {"$schema": "http://json-schema.org/draft-04/schema#", "type": "object", "required": ["a"],
              "properties": {"a": {"$ref": "#gate"}}, "definitions": {"g": {"id": "#gate", "type": "integer", "minimum": 3}}}
    assert resolve_local_reference(schema, "#gate") is not None

    @settings(max_examples=10, database=None)
    @given(instances(schema, engine="compiled"))
    def drawn(value: Any) -> None:
        assert Draft4Validator(schema).is_valid(value), value
    drawn()

    dangling = {"type": "object", "required": ["a"], "properties": {"a": {"$ref": "#/definitions/none"}}}
    with pytest.raises(ValueError, match="'#/definitions/none': it does not resolve inside the schema"):
        instances(dangling, engine="compiled").example()


def test_values_drawn_under_a_closed_parent_obey_it() -> None:
    """A kit false alarm: the generator merged an allOf branch's `properties` into a parent closed
    with `additionalProperties: false`, drew a value the strict schema rejects, and RT-5 blamed the
    SDK. A branch's property the closed parent does not declare cannot be in any value."""
    from hypothesis import given, settings
    from jsonschema import Draft202012Validator

    from strictconformance.strategies.instances import instances

    schema = {"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"], "additionalProperties": False,
              "allOf": [{"anyOf": [{"properties": {"b": {"type": "integer"}}}, {"properties": {"c": {"type": "string"}}}]}]}

    @settings(max_examples=40, database=None)
    @given(instances(schema, engine="compiled"))
    def drawn(value: Any) -> None:
        assert Draft202012Validator(schema).is_valid(value), value
    drawn()


def test_an_environment_that_cannot_import_is_one_adapter_fault() -> None:
    """A kit false alarm: `ModuleNotFoundError: No module named 'mcp'` inside define_tool became 46
    TL violations. It is an adapter fault (install the module), one defect under every rule."""
    from strictconformance.harness import AdapterFault

    error = ModuleNotFoundError("No module named 'mcp'", name="mcp")
    faults = [AdapterFault("define_tool", f"raised ModuleNotFoundError: {error}", rule_id=rule, crash=error) for rule in ("TL-1", "TL-2", "TL-6")]
    assert {fault.kind for fault in faults} == {"fault"}
    assert "install it" in faults[0].message
    findings = [fault.finding().as_json() for fault in faults]
    defects = group_defects(findings)
    assert len(defects) == 1 and defects[0].rules == ["TL-1", "TL-2", "TL-6"]


def test_an_omitted_strict_is_false_where_the_api_says_so() -> None:
    """A kit false alarm: RES-1's seed row and TL-7 told an omitted strict from strict: false on
    OpenAI Chat Completions, where a tool without strict is not strict. An adapter says which
    OpenAI API it targets (openai_api); a tool layer, whether its API reads them alike."""
    from strictconformance.checks._support import same_tool_strict
    from strictconformance.tools.contract import ToolLayerTraits, validated_traits

    assert same_tool_strict("openai", None, False, "chat_completions")
    assert not same_tool_strict("openai", None, False, "responses")
    assert not same_tool_strict("openai", None, False, None)
    assert not same_tool_strict("openai", None, True, "chat_completions")
    assert validated_traits(ToolLayerTraits(omitted_strict_is_false=True)).omitted_strict_is_false
    with pytest.raises(ValueError, match="omitted_strict_is_false"):
        validated_traits(ToolLayerTraits(omitted_strict_is_false="yes"))  # type: ignore[arg-type]


def test_dialects_the_adapter_does_not_declare_are_said_once() -> None:
    """A kit noise: every not-covered line listed each undeclared dialect per rule (20+ lines of
    "strictify_dialects ['mistral'] do not include 'openai'" for a one-dialect adapter)."""
    from strictconformance.report import CheckResult, ConformanceReport

    report = ConformanceReport(adapter={"adapter": "a:A"}, profile="ci")
    for dialect in ("openai", "anthropic", "google"):
        for rule in ("SM-07", "RT-3"):
            report.record(CheckResult(f"x::{rule}[{dialect}]", rule, "not covered",
                                      reason=f"the adapter's strictify_dialects ['mistral'] do not include {dialect!r}"))
    report.record(CheckResult("x::RT-3[mistral]", "RT-3", "passed"))
    lines = list(report.render_lines())
    assert sum("do not include" in line for line in lines) == 0, lines
    assert [line for line in lines if line.startswith("not run for this adapter")] == [
        "not run for this adapter (dialects and providers it does not declare): anthropic, google, openai"]
    assert not any("checks not covered" in line for line in lines), lines  # RT-3 passed where it applies
    assert any(line.startswith("not covered: SM-07 - its checks are for dialects or providers") for line in lines), lines


def test_a_triage_entry_can_name_a_defect() -> None:
    """Triage attached to a defect id stays valid when the draws move (the findings' keys change)."""
    from strictconformance.matrix.combine import annotate_triage
    from strictconformance.sdks.triage import TriageEntry

    def finding(key: str) -> dict[str, Any]:
        return {"rule": "SM-05", "kind": "violation", "key": key, "defect": "D-0123abcd", "message": ""}

    document = {"columns": [{"key": "acme/strict", "status": "ran"}], "rules": {"SM-05": {}},
                "cells": {"acme/strict": {"SM-05": {"findings": [finding("SM-05 violation: one (trap a)"),
                                                                  finding("SM-05 violation: another, drawn tonight")]}}}}
    entry = TriageEntry(sdk_path="acme/strict", version="1.0", rule="SM-05", key="D-0123abcd", summary="s",
                        reproducer="print('BUG:')", verdict="confirmed", evidence="e")
    annotated = annotate_triage(document, [entry])
    findings = annotated["cells"]["acme/strict"]["SM-05"]["findings"]
    assert all(f["confirmed"] and f["triage"]["matched_by"] == "defect" for f in findings)
    assert annotated["unmatched_triage"] == []


def test_a_pattern_entry_naming_its_defects_confirms_no_other_defect_met_at_its_place() -> None:
    """A pattern written for one defect ("keeps a `$ref` to an external document", SM-41 *) confirmed
    a new defect met at the same place with the same key (a root reference pointing at itself),
    with the first one's evidence, directly and via RT-1. An entry that names the defects it was
    checked for holds for their findings only; the new one stays unconfirmed until triaged."""
    from strictconformance.matrix.combine import annotate_triage
    from strictconformance.sdks.triage import TriageEntry

    def finding(rule: str, key: str, defect: str) -> dict[str, Any]:
        return {"rule": rule, "kind": "violation", "key": key, "defect": defect, "message": ""}

    place = "`$ref` of a $ref node inside properties"
    document = {"columns": [{"key": "acme/strict", "status": "ran"}], "rules": {"SM-41": {}, "RT-1": {}},
                "cells": {"acme/strict": {
                    "SM-41": {"findings": [finding("SM-41", f"SM-41 violation: {place}", "D-0000000a"),
                                           finding("SM-41", f"SM-41 violation: {place} (case loop)", "D-0000000b")]},
                    "RT-1": {"findings": [finding("RT-1", f"RT-1 violation: SM-41 at {place}", "D-0000000b")]}}}}
    entry = TriageEntry(sdk_path="acme/strict", version="1.0", rule="SM-41", key="SM-41 violation: *", summary="external",
                        reproducer="print('BUG:')", verdict="confirmed", evidence="e", defects=("D-0000000a",))
    cells = annotate_triage(document, [entry])["cells"]["acme/strict"]
    confirmed = {(f["rule"], f["defect"]): f["confirmed"] for cell in cells.values() for f in cell["findings"]}
    assert confirmed == {("SM-41", "D-0000000a"): True, ("SM-41", "D-0000000b"): False, ("RT-1", "D-0000000b"): False}
    anyone = TriageEntry(**{**entry.__dict__, "defects": ()})  # without the field: every finding of the pattern, as before
    cells = annotate_triage(document, [anyone])["cells"]["acme/strict"]
    assert all(f["confirmed"] for cell in cells.values() for f in cell["findings"])


def _cut(api: str, family: str) -> dict[str, Any]:
    return {"rule": "DR-9", "kind": "violation", "key": f"DR-9 violation: cut stream not reported ({family})", "where": None,
            "message": "returned without an error for a stream cut before its terminal event", "counterexample": {"api": api}}


def test_a_cut_stream_is_one_defect_per_api_however_its_end_went_missing() -> None:
    """DR-9: an SDK that does not notice a stream ended without its terminal event misses it however
    the event went missing (cut short, renamed, moved): one defect per API, two APIs two defects."""
    findings = [_cut("openai.chat", "break_lifecycle:truncated"), _cut("openai.chat", "rename_discriminator"),
                _cut("openai.responses", "break_lifecycle:truncated"), _cut("openai.responses", "rename_discriminator")]
    defects = group_defects(findings)
    assert sorted(defect.title for defect in defects) == ["DR-9: a cut openai.chat stream is not reported as incomplete",
                                                          "DR-9: a cut openai.responses stream is not reported as incomplete"]
    assert all(defect.witnesses == 2 for defect in defects)


def _unreadable(rule: str, pointer: str, problem: str, case: str) -> dict[str, Any]:
    message = ("adapter.strictify() returned a schema values cannot be checked against: "
               f"the strict schema is not valid Draft 2020-12 at {pointer}: {problem}")
    return {"rule": rule, "kind": "violation", "where": None, "message": message, "counterexample": {"case": case},
            "key": f"{rule} violation: strictify() returned a schema values cannot be checked against ({case})"}


def test_an_unreadable_strict_schema_is_one_defect_per_way_it_breaks_its_draft_whichever_rule_met_it() -> None:
    """pydantic-ai's Gemini transformers keep a draft-7 `items` list in a 2020-12 output: the oracles
    of RT-4, RT-5 and RT-7 each meet it first on some case, and the report showed one defect per
    rule ("RT-4: strictify() returned a schema values cannot be checked against", "RT-5: ...").
    One bug is one defect, named by the keyword and jsonschema's verdict; another break is another."""
    items_list = [
        _unreadable("RT-4", "/properties/pair/items", "[{'type': 'string'}, {'type': 'integer'}] is not of type 'object', 'boolean'",
                    "tuple-draft7-items-list"),
        _unreadable("RT-5", "/properties/range/items", "[{'type': 'object', 'required': ['page']}] is not of type 'object', 'boolean'",
                    "trap draft7-tuple-of-objects"),
        _unreadable("RT-7", "/items/0/properties/x/items", "[{'type': 'string'}] is not of type 'object', 'boolean'", "trap other"),
    ]
    bad_type = _unreadable("RT-5", "/properties/a/type", "'strung' is not valid under any of the given schemas", "case y")
    bad_property = _unreadable("RT-4", "/properties/a", "5 is not of type 'object', 'boolean'", "case z")
    defects = group_defects([*items_list, bad_type, bad_property])
    assert len(defects) == 3, [defect.title for defect in defects]
    [items] = [defect for defect in defects if "`items`" in defect.title]
    assert items.rules == ["RT-4", "RT-5", "RT-7"] and items.witnesses == 3
    assert items.title == "strict output is not valid Draft 2020-12: `items` is not of type 'object', 'boolean'"
    assert any(defect.title.endswith("`properties` is not of type 'object', 'boolean'") for defect in defects)


def test_refusals_naming_different_references_are_one_defect() -> None:
    """pydantic-ai's Gemini transformer refuses every recursive schema with the reference's name in
    its message, unquoted ("... not supported by Gemini: #/$defs/Tree", ".../Node"): one cause,
    reported as three defects. References, anchors and paths are taken out like quoted values."""
    def refused(message: str) -> dict[str, Any]:
        return {"rule": "RT-10", "kind": "refusal", "key": f"RT-10 refusal: UserError: {message}", "where": None,
                "message": f"google-schema: strictify refused a schema the dialect expresses without loss (UserError: {message})",
                "counterexample": {}}

    recursion = [refused(f"Recursive `$ref`s in JSON Schema are not supported by Gemini: #/$defs/{name}") for name in ("Tree", "Node", "L")]
    missing = [refused("Could not find $ref definition for #gate"), refused("Could not find $ref definition for Node/properties/next")]
    defects = group_defects([*recursion, *missing])
    assert sorted(defect.witnesses for defect in defects) == [2, 3], [defect.title for defect in defects]
    assert message_shape("external reference 'https://x/a.json' at /properties/a") == "external reference '…' at /properties/a"


def test_an_unreadable_schema_is_keyed_by_its_keyword_wherever_the_property_and_whatever_its_name() -> None:
    """Property names with spaces, a property named like a keyword, a value whose text says " is not",
    and a schema that is not one at all (the message names the property's pointer): the place and
    the names are not the cause."""
    verdict = "is not of type 'object', 'boolean'"
    same = [_unreadable("RT-4", "/properties/first name/items", f"[{{'x': 'a is not b'}}] {verdict}", "a"),
            _unreadable("RT-5", "/properties/properties/properties/b/items", f"[1] {verdict}", "b"),
            _unreadable("RT-7", "/items/0/properties/c/items", f"[2] {verdict}", "c")]
    defects = group_defects(same)
    assert [defect.title for defect in defects] == [f"strict output is not valid Draft 2020-12: `items` {verdict}"]
    keyword_named = _unreadable("RT-5", "/properties/properties/type", "'strung' is not valid under any of the given schemas", "d")
    assert "`type`" in cause_of(keyword_named).title
    not_a_schema = [{**_unreadable("RT-4", "/", "", name), "message": (
        "adapter.strictify() returned a schema values cannot be checked against: the strict schema is not a JSON Schema: "
        f"a subschema must be an object or a boolean, got str at /properties/{name} (JSON pointer /properties/{name})")}
        for name in ("city", "zip")]
    assert len(group_defects(not_a_schema)) == 1


def test_words_with_slashes_that_name_no_schema_place_stay_as_written() -> None:
    assert message_shape("allOf/anyOf are not supported") != message_shape("if/then/else are not supported")
    assert message_shape("expected application/json") == "expected application/json"
    assert message_shape("no definition for Node/properties/next") == message_shape("no definition for Tree/items/leaf")


def test_a_defect_seen_beside_is_reported_once_and_never_over_a_reported_finding() -> None:
    """``Harness.seen_beside``: a defect an example showed beside the one its search shrank is
    returned when no reported failure shows it; not when a reported failure has its identity or
    its key (the report would keep one finding of that key and label the shrunk one unshrunk)."""
    from strictconformance.adapter import read_declarations
    from strictconformance.harness import Harness, RuleViolation, _keyed
    from strictconformance.reference import ReferenceAdapter

    adapter = ReferenceAdapter()
    harness = Harness(adapter, read_declarations(adapter), call_timeout=0)
    harness.begin_item("check", "RT-1")
    noted = {"violations": ["SM-07 BannedAnchor at /$anchor: `$anchor` is not allowed",
                            "SM-17 BannedIf at /properties/a/if: `if` is not allowed",
                            "SM-35 BannedKeyword at /properties/n/maximum: `maximum` is not allowed"]}

    def violation(rule: str, where: str, detail: str) -> RuleViolation:
        failure = RuleViolation(f"breaks {rule}", rule_id="RT-1", where=where, detail=detail)
        failure.drawn = dict(noted)
        return failure

    shrunk = violation("SM-07", "/$anchor", "SM-07 at `$anchor` of an object at the root")
    shrunk.also = [violation("SM-17", "/properties/a/if", "SM-17 at string inside if"),
                   violation("SM-35", "/properties/n/maximum", "SM-35 at `maximum` of a number inside properties"),
                   violation("SM-17", "/properties/a/if", "SM-17 at string inside if")]
    harness.observe(shrunk)
    reported = _keyed(shrunk)
    # a reported failure of the same key whose example said other words there: another identity
    same_key = violation("SM-35", "/properties/n/maximum", "SM-35 at `maximum` of a number inside properties")
    same_key.drawn = {"violations": ["SM-35 BannedKeyword at /properties/n/maximum: `maximum` is above the limit"]}
    same_key = _keyed(same_key)
    assert type(same_key)._finding_key != type(reported)._finding_key
    extra = harness.seen_beside([reported])
    assert [failure.key for failure in extra] == ["RT-1 violation: SM-17 at string inside if",
                                                    "RT-1 violation: SM-35 at `maximum` of a number inside properties"]
    assert all(failure.seen_beside and failure.drawn == noted for failure in extra)
    assert [failure.key for failure in harness.seen_beside([reported, same_key])] == ["RT-1 violation: SM-17 at string inside if"]
    harness.begin_item("next check", "RT-1")
    assert harness.seen_beside([reported]) == []  # observations belong to one check


def _rt5(where: str, schema: Any, strict: Any) -> dict[str, Any]:
    keyword = where.rpartition("/")[2]
    return {"rule": "RT-5", "kind": "violation", "key": f"RT-5 violation: decoded value breaks `{keyword}`", "where": where,
            "message": "...", "counterexample": {"dialect": "google-schema", "schema": schema, "strict": strict}}


def test_a_record_dropped_whole_is_one_dropped_constraint_whatever_keyword_a_value_meets_in_it() -> None:
    """pydantic-ai's Gemini transformer drops `additionalProperties` and `patternProperties` whole: a
    value then breaks the record's `enum`, `required` or `type`, three symptoms of one defect (the
    kit reported three). A property named `additionalProperties` is a name, not the keyword."""
    record = {"type": "object", "properties": {"id": {"type": "object", "additionalProperties": {
        "type": "object", "properties": {"k": {"enum": ["a"]}}, "required": ["k"]}}}}
    strict = {"type": "object", "properties": {"id": {"type": "object"}}}
    causes = {cause_of(_rt5(where, record, strict)).signature for where in (
        "/properties/id/additionalProperties/required", "/properties/id/additionalProperties/properties/k/enum",
        "/properties/id/additionalProperties/type")}
    assert causes == {"value|RT-5|dropped"}, causes
    named = {"type": "object", "properties": {"additionalProperties": {"type": "object", "properties": {"x": {"type": "string"}}}}}
    assert cause_of(_rt5("/properties/additionalProperties/properties/x/type", named, {"type": "object", "properties": {}})
                    ).signature == "value|RT-5|type"

"""The case library and the corpus: the data is valid against its schema, and the reference
strictify passes every case and corpus schema in every shipped dialect (no crash, output valid by
the kit's validator, idempotent, pure, RT-4 on listed values and RT-5 on drawn ones, RT-8 and RT-9); regression
tests for the reference bugs the corpus found (issue 10).

The whole shared corpus (``../shared/corpus/jsonschemabench``, 6,070 schemas, when present) runs
sampled by default (every 60th schema: about 100 schemas, well under a minute) and whole when
``SC_FULL_CORPUS=1`` is set; the shipped subset always runs whole.
"""

from __future__ import annotations

import copy
import json
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st
from hypothesis.errors import Unsatisfiable

from broken_pinned import PINNED_CASES
from conftest import SuiteRun
from strictconformance.cases import (
    Case,
    CaseLibraryError,
    corpus_cases,
    library,
    load_cases,
    shipped_corpus,
)
from strictconformance.dialects import SHIPPED, SchemaError, validate_strict
from strictconformance.dialects.annotations import check_rt9_annotations_survive
from strictconformance.dialects.oracles import (
    check_rt1_obeys_rules,
    check_rt2_pure,
    check_rt3_idempotent,
    check_rt4_complete,
    check_rt5_sound,
    require,
)
from strictconformance.dialects.witness import check_rt8_satisfiable
from strictconformance.reference.strictify import strictify
from strictconformance.strategies.instances import instances

DIALECTS = sorted(SHIPPED)
#: ``../shared/corpus/jsonschemabench`` beside the checkout (or beside a folder holding checkouts)
SHARED_CORPUS = next((folder / "shared" / "corpus" / "jsonschemabench" for folder in Path(__file__).resolve().parents[1:4]
                      if (folder / "shared" / "corpus" / "jsonschemabench").is_dir()),
                     Path(__file__).resolve().parents[2] / "shared" / "corpus" / "jsonschemabench")
SHARED_STRIDE = 1 if os.environ.get("SC_FULL_CORPUS") == "1" else 60


def _judge(case: Case, dialect: str, *, drawn: int = 0) -> None:
    """Every RT rule the reference can be judged by on ``case`` in ``dialect``."""
    original = copy.deepcopy(case.schema)

    def bound(schema: Any) -> Any:
        return strictify(schema, dialect).as_strictified()

    try:
        result = strictify(case.schema, dialect)
    except SchemaError as refused:  # only for input that is not a usable schema, naming the place
        assert refused.pointer is not None
        return
    assert case.schema == original, "strictify changed its input"
    assert not validate_strict(result.schema, dialect), validate_strict(result.schema, dialect)[:3]
    require(check_rt1_obeys_rules(case.schema, bound, dialect))
    require(check_rt2_pure(case.schema, bound))
    require(check_rt3_idempotent(case.schema, bound))
    strict = result.as_strictified()
    require(check_rt9_annotations_survive(case.schema, strict))
    listed = case.values[:1] if case.values_judged else ()
    require(check_rt8_satisfiable(case.schema, strict.schema, *listed, losses=strict.losses))
    if not case.values_judged or dialect == "lenient":
        return
    for value in case.values:
        require(check_rt4_complete(case.schema, strict, result.codec.encode, result.codec.decode, value))
    if drawn:
        @settings(max_examples=drawn, database=None, deadline=None, derandomize=True, phases=[Phase.generate],
                  suppress_health_check=list(HealthCheck))
        @given(st.data())
        def sound(data: st.DataObject) -> None:
            wire = data.draw(instances(strict.schema, engine="compiled"))
            require(check_rt5_sound(case.schema, strict, result.codec.decode, wire))
        try:
            sound()
        except Unsatisfiable:
            # no value of the strict schema could be drawn (it has none, as corpus o17683's endless
            # required recursion, or the generator cannot build one): RT-5 is not covered here, as
            # the shipped check reports it (tests/test_findings.py), never a pass or a failure
            return


LIBRARY = library()


def test_library_is_valid_and_covers_the_shapes_of_issue_10() -> None:
    ids = {case.id for case in LIBRARY}
    assert len(ids) == len(LIBRARY)
    for shape in ("untyped-property", "null-branch-with-description", "const-string", "const-integer", "const-untyped",
                  "record-of-schemas", "additional-properties-true", "pattern-properties", "empty-nested-object",
                  "recursive-ref-with-siblings", "tuple-prefix-items", "tuple-draft7-items-list", "type-list-with-null",
                  "type-list-without-null", "allof-of-objects", "allof-of-oneof-properties-only", "ref-into-non-keyword",
                  "ref-definitions", "ref-draft4-id-anchor", "ref-with-id-base", "draft4-boolean-exclusive-minimum",
                  "draft7-dependencies", "annotations-everywhere", "optional-recursive-property"):
        assert shape in ids
    assert {case.kind for case in LIBRARY} == {"trap", "known-bad", "shape", "regression"}
    for case in LIBRARY:  # a misspelt dialect name would leave the case run nowhere, silently
        assert set(case.dialects) <= {"*", *DIALECTS}, f"{case.id}: unknown dialects {set(case.dialects) - {'*', *DIALECTS}}"


def test_bad_library_documents_are_refused_naming_the_place(tmp_path: Path) -> None:
    with pytest.raises(CaseLibraryError, match="/cases/0"):
        load_cases({"cases": [{"id": "Bad Id", "kind": "shape", "exercises": "x", "source": "y", "dialects": ["*"], "schema": {}}]})
    with pytest.raises(CaseLibraryError, match="used twice"):
        load_cases({"cases": [{"id": "a", "kind": "shape", "exercises": "x", "source": "y", "dialects": ["*"], "schema": {}}] * 2})
    (tmp_path / "broken.json").write_text("{", encoding="utf-8")
    with pytest.raises(CaseLibraryError, match=r"broken\.json: not a JSON file"):
        corpus_cases(tmp_path)
    with pytest.raises(CaseLibraryError, match="not a directory"):
        corpus_cases(tmp_path / "missing")


# The reference on every library case, in every dialect the case lists, is judged by the main job
# (tests/test_plugin.py runs the whole suite, whose case checks draw each case in its dialects):
# judging it here again was the same work twice (about 20 s of CPU per self-test run).


def test_the_shipped_case_checks_run_each_library_case_only_in_its_dialects(run_suite: Callable[..., SuiteRun]) -> None:
    """A case listing dialects (``ref-with-id-base``: not lenient, google-schema, cohere, mistral)
    is judged in those only, as ``Case.applies_to`` says; and every other case in every dialect."""
    run = run_suite(None, "--sc-rule", "RT-9", "-k", "test_rt_9_case", "--collect-only", "-q")
    ids = [line.split("[", 1)[1].rstrip("]") for line in run.result.outlines if "test_rt_9_case[" in line]
    # an item's id is "<dialect>-<case id>", and dialect names hold "-" too (google-schema)
    ran = {(item[len(dialect) + 1:], dialect) for item in ids
           for dialect in [max((name for name in DIALECTS if item.startswith(f"{name}-")), key=len)]}
    assert ran == {(case.id, dialect) for case in LIBRARY if case.kind != "known-bad" for dialect in DIALECTS
                   if "*" in case.dialects or dialect in case.dialects}, run.output
    restricted = [case for case in LIBRARY if "*" not in case.dialects and case.kind != "known-bad"]
    assert restricted, "the library has no case restricted to some dialects: this test would prove nothing"
    for case in restricted:
        assert set(DIALECTS) - set(case.dialects), f"{case.id} lists every shipped dialect: it would prove nothing"
        assert {dialect for case_id, dialect in ran if case_id == case.id} == set(case.dialects) & set(DIALECTS)


def test_traps_are_built_only_for_their_dialects(monkeypatch: pytest.MonkeyPatch) -> None:
    """The SM and RT trap checks (:func:`strictconformance.dialects.traps.traps`) honour a trap
    case's ``dialects`` too."""
    from strictconformance.dialects import traps as trap_module

    only_openai = Case("trap-only-openai", "trap", "x", "y", ("openai",), {"type": "object"})
    everywhere = Case("trap-everywhere", "trap", "x", "y", ("*",), {"type": "object"})
    monkeypatch.setattr(trap_module, "library", lambda: (only_openai, everywhere))
    names = {dialect: {trap.name for trap in trap_module.traps(SHIPPED[dialect])} for dialect in DIALECTS}
    assert {"only-openai", "everywhere"} <= names["openai"]
    assert "only-openai" not in names["lenient"] and "everywhere" in names["lenient"]
    assert {"only-openai", "everywhere"} <= {trap.name for trap in trap_module.traps()}  # no dialect: every trap


SHIPPED_CORPUS = shipped_corpus()


def test_shipped_corpus_is_small_and_keeps_its_provenance() -> None:
    folder = Path(__file__).resolve().parents[1] / "conformance" / "cases" / "corpus"
    size = sum(path.stat().st_size for path in folder.rglob("*.json"))
    assert size < 300_000
    note = (folder / "README.md").read_text(encoding="utf-8")
    assert "ba103c73756198dd9b149ddc7db7867da7a077f6" in note and "MIT" in note
    assert len(SHIPPED_CORPUS) >= 90


@pytest.mark.parametrize("dialect", DIALECTS)
@pytest.mark.parametrize("case", SHIPPED_CORPUS, ids=lambda case: case.id)
def test_reference_passes_every_shipped_corpus_schema(case: Case, dialect: str) -> None:
    _judge(case, dialect, drawn=2)


def _shared_corpus() -> list[Path]:
    return sorted(SHARED_CORPUS.rglob("*.json"))[::SHARED_STRIDE] if SHARED_CORPUS.is_dir() else []


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="the shared corpus (../shared/corpus/jsonschemabench) is not here")
@pytest.mark.parametrize("path", _shared_corpus(), ids=lambda path: f"{path.parent.name}/{path.stem}")
def test_reference_on_the_shared_corpus(path: Path) -> None:
    """Sampled (every 60th) unless SC_FULL_CORPUS=1: no crash, valid, idempotent, pure, in every dialect."""
    case = Case(path.stem, "corpus", "shared corpus", str(path), ("*",), json.loads(path.read_text(encoding="utf-8")))
    for dialect in DIALECTS:
        _judge(case, dialect)


#: The corpus schemas whose draft-06/07 `dependencies` hold a `$ref` under a member (a property named
#: `type` or `operator`): the reference raised KeyError on each, in every dialect but lenient.
DEPENDENCIES_WITH_REFS = ("Github_medium/o72196", "Github_medium/o72203", "Github_medium/o72217")


@pytest.mark.skipif(not SHARED_CORPUS.is_dir(), reason="the shared corpus (../shared/corpus/jsonschemabench) is not here")
@pytest.mark.parametrize("name", DEPENDENCIES_WITH_REFS)
def test_reference_on_corpus_schemas_with_references_under_dependencies(name: str) -> None:
    """Whole, in every dialect: no crash, valid, idempotent, pure (was KeyError
    '/dependencies/type/oneOf/0/...': the references under `dependencies` were never collected)."""
    path = SHARED_CORPUS / f"{name}.json"
    case = Case(path.stem, "corpus", "shared corpus", str(path), ("*",), json.loads(path.read_text(encoding="utf-8")))
    for dialect in DIALECTS:
        _judge(case, dialect)


@pytest.mark.parametrize("dialect", DIALECTS)
def test_a_reference_under_a_draft_07_dependency_named_like_a_keyword(dialect: str) -> None:
    """Was KeyError: '/dependencies/type/properties/name' (the walk collecting references skipped
    draft-07 `dependencies`; the walk tagging nodes read its schema members as `dependentSchemas`)."""
    schema = {"$schema": "http://json-schema.org/draft-07/schema#", "type": "object",
              "properties": {"type": {"type": "string"}, "name": {"type": "string"}},
              "dependencies": {"type": {"properties": {"name": {"$ref": "#/definitions/name"}}}, "name": ["type"]},
              "definitions": {"name": {"type": "string", "maxLength": 20}}}
    result = strictify(schema, dialect)
    assert not validate_strict(result.schema, dialect)
    require(check_rt3_idempotent(schema, lambda s: strictify(s, dialect).as_strictified()))
    value = {"type": "a", "name": "b"}
    assert result.codec.decode(result.codec.encode(value)) == value


# -- regressions found by the corpus (issue 10) -------------------------------------------------------


@pytest.mark.parametrize("dialect", DIALECTS)
def test_ref_into_a_member_no_keyword_defines(dialect: str) -> None:
    """Was KeyError: '' (the target's own $ref was never walked)."""
    schema = {"type": "object", "properties": {"a": {"$ref": "#/standard"}}, "required": ["a"],
              "standard": {"type": "object", "properties": {"b": {"$ref": "#/definitions/B"}}}, "definitions": {"B": {"type": "string"}}}
    result = strictify(schema, dialect)
    assert not validate_strict(result.schema, dialect)
    assert result.codec.decode(result.codec.encode({"a": {"b": "x"}})) == {"a": {"b": "x"}}


@pytest.mark.parametrize("dialect", DIALECTS)
def test_prefix_items_false_ends_the_tuple(dialect: str) -> None:
    """Was KeyError: '0'."""
    result = strictify({"type": "object", "properties": {"t": {"type": "array", "prefixItems": [False]}}}, dialect)
    assert not validate_strict(result.schema, dialect)
    assert result.codec.decode(result.codec.encode({"t": []})) == {"t": []}


def test_an_integer_python_cannot_write_is_a_schema_error_naming_the_pointer() -> None:
    """Was a bare ValueError from json.dumps."""
    with pytest.raises(SchemaError) as caught:
        strictify({"type": "object", "properties": {"n": {"const": 10**5000}}}, "openai")
    assert caught.value.pointer == "/properties/n/const"
    assert strictify({"const": 10**4000}, "lenient").schema == {"const": 10**4000}  # below the limit: a value


def test_properties_beside_branches_go_into_each_branch() -> None:
    """allOf of a oneOf with a properties-only member: `c` stayed beside closed branches and could never appear."""
    schema = {"type": "object", "properties": {"c": {"type": "string"}},
              "allOf": [{"oneOf": [{"properties": {"a": {"type": "string"}}},
                                   {"type": "object", "properties": {"b": {"type": "integer"}}, "required": ["b"]}]}]}
    for dialect in ("openai", "openai@2025-01", "anthropic"):
        result = strictify(schema, dialect)
        assert not validate_strict(result.schema, dialect)
        require(check_rt4_complete(schema, result.as_strictified(), result.codec.encode, result.codec.decode, {"c": "x"}))
        assert "c" in json.dumps(result.codec.encode({"c": "x"}))


def test_draft_04_forms_are_written_in_2020_12() -> None:
    schema = {"type": "object", "properties": {"n": {"type": "number", "minimum": 0, "exclusiveMinimum": True},
                                                "p": {"type": "array", "items": [{"type": "string"}], "additionalItems": False}},
              "definitions": {"G": {"id": "#g", "type": "integer"}}, "required": ["n"]}
    schema["properties"]["g"] = {"$ref": "#g"}
    out = strictify(schema, "lenient").schema
    assert out["properties"]["n"] == {"type": "number", "exclusiveMinimum": 0}
    assert out["properties"]["p"] == {"type": "array", "prefixItems": [{"type": "string"}], "items": False}


def test_mutual_recursion_is_unrolled_to_a_total_depth() -> None:
    """A definition recursing through nine properties grew as 9^(3 per definition) and took minutes."""
    expr: dict[str, Any] = {"anyOf": [{"type": "number"}, *({"type": "object", "properties": {name: {"$ref": "#/$defs/e"}},
                                                             "required": [name], "additionalProperties": False} for name in "abc")]}
    result = strictify({"$defs": {"e": expr}, "$ref": "#/$defs/e"}, "anthropic")
    assert not validate_strict(result.schema, "anthropic")
    assert len(json.dumps(result.schema)) < 50_000


@pytest.mark.parametrize("adapter", sorted(PINNED_CASES))
def test_a_pinned_case_meets_the_sdk_bug_it_pins(run_suite: Callable[..., SuiteRun], adapter: str) -> None:
    """A case pinned after the ci profile's draws stopped meeting a real SDK's bug: an adapter with
    that bug fails the case's rule with the finding key the SDK's triage entry names, drawn
    examples or not (only the case's own test items run here)."""
    case_id, rule_id, key = PINNED_CASES[adapter]
    assert case_id in {case.id for case in LIBRARY}
    run = run_suite(adapter, "--sc-rule", rule_id, "-k", f"case and {case_id}")
    assert run.rules_with("failed") == {rule_id}, run.output
    assert run.report is not None
    keys = {finding["key"] for check in run.report["rules"][rule_id]["checks"] for finding in check.get("findings", [])}
    assert keys == {key}, keys

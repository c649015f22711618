"""Defects through whole runs of the plugin: one cause is one defect in the report, whatever the
number of cases and rules that meet it; two causes are two, even when they raise the same
exception type; a refusal the dialect did not need is a finding; an oracle that cannot use the
SDK's strict schema is no kit traceback but the rule that schema breaks."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from conftest import SuiteRun
from strictconformance import checks

_CHECKS = (".", str(Path(checks.__file__).parent / "test_strict_mode.py"), str(Path(checks.__file__).parent / "test_roundtrip.py"))


def test_a_strictify_returning_its_input_is_one_defect_listing_the_rules(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_strict_adapters:ReturnsItsInput", "--sc-rule", "SM-05,SM-07,SM-27,RT-1", *_CHECKS)
    assert run.report is not None, run.output
    assert {"SM-05", "SM-07", "SM-27", "RT-1"} <= run.rules_with("failed"), run.output
    defects = run.report["defects"]
    assert len(defects) == 1, [defect["title"] for defect in defects]
    assert defects[0]["title"] == "strictify returns its input unchanged (openai)"
    assert set(defects[0]["rules"]) == {"SM-05", "SM-07", "SM-27", "RT-1"}
    assert defects[0]["witnesses"] > 4
    assert "1 defect across 4 rules" in run.output
    # every finding names it
    assert {f["defect"] for data in run.report["rules"].values() for f in data["findings"]} == {defects[0]["id"]}


def test_three_planted_bugs_are_three_defects(run_suite: Callable[..., SuiteRun]) -> None:
    """Two of them raise TypeError, from different functions: two defects, told apart by origin."""
    # the case library, one item per case: each planted bug meets many cases (in a drawn check the
    # first bug found would hide the others: Hypothesis shrinks what it found first)
    cases = str(Path(checks.__file__).parent / "test_cases.py")
    run = run_suite("broken_strict_adapters:ThreePlantedBugs", "--sc-rule", "SM-07,RT-1", *_CHECKS[:2], cases,
                    "-k", "rt_1_case or sm_07")
    assert run.report is not None, run.output
    defects = run.report["defects"]
    titles = sorted(defect["title"] for defect in defects)
    assert len(defects) == 3, titles
    crashes = [defect for defect in defects if defect["kind"] == "crash"]
    assert sorted(defect["example"]["origin"]["function"] for defect in crashes) == ["_close_enum", "_inline_union"]
    kept = next(defect for defect in defects if defect["kind"] == "violation")
    assert set(kept["rules"]) == {"SM-07", "RT-1"}
    assert sum(len(data["findings"]) for data in run.report["rules"].values()) > 3  # many findings, three defects


def test_an_unnecessary_refusal_is_a_finding(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_strict_adapters:RefusesNullableFields", "--sc-rule", "RT-10", *_CHECKS)
    assert run.rules_with("failed") == {"RT-10"}, run.output
    findings = run.report["rules"]["RT-10"]["findings"] if run.report else []
    assert findings and {finding["kind"] for finding in findings} == {"refusal"}
    assert "NullableRefused: nullable fields are not supported" in findings[0]["message"]
    assert len(run.report["defects"]) == 1  # one refusal, whichever schemas met it
    # and the report lists it, with an example schema
    refusals = run.report["strictify"]["openai"]["refusals"]
    assert refusals[0]["type"] == "NullableRefused" and refusals[0]["schema"] is not None


def test_a_dangling_reference_is_the_rule_it_breaks_not_a_kit_traceback(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_strict_adapters:LeavesADanglingReference", "--sc-rule", "RT-1,RT-5", *_CHECKS)
    assert run.report is not None, run.output
    assert not run.rules_with("kit error") and not run.rules_with("error"), run.output
    assert {"RT-1", "RT-5"} <= run.rules_with("failed"), run.output
    rt5 = run.report["rules"]["RT-5"]["findings"]
    assert rt5 and all(finding["key"].startswith("RT-5 violation: SM-41 at") for finding in rt5), [f["key"] for f in rt5]
    # RT-1 and RT-5 met the same cause: one defect
    assert len(run.report["defects"]) == 1, [defect["title"] for defect in run.report["defects"]]


def test_a_fixed_case_is_judged_constructively(run_suite: Callable[..., SuiteRun]) -> None:
    """RT-5 on a fixed case meets a loosened `items` with a value constructed near the strict
    schema's witness, before any drawn value (the counterexample says where the value came from)."""
    cases = str(Path(checks.__file__).parent / "test_cases.py")
    # in its own process: the adapter's Loss must be the kit's (an in-process run re-imports the kit)
    run = run_suite("broken_strict_adapters:LoosensArrayItems", "--sc-rule", "RT-5", ".", cases,
                    "-k", "rt_5_case and (trap-bounds or trap-non-object-root)", subprocess=True)
    assert run.report is not None, run.output
    findings = run.report["rules"]["RT-5"]["findings"]
    assert findings, run.output
    assert all(finding["counterexample"]["wire_from"] == "constructed near the strict schema's witness" for finding in findings)
    assert {finding["key"] for finding in findings} == {"RT-5 violation: decoded value breaks `type`"}


def test_constructed_values_meet_what_the_first_draw_misses() -> None:
    from strictconformance.dialects.oracles import schema_validator
    from strictconformance.dialects.witness import Witness, variations, witness_of

    original = {"type": "array", "items": {"type": "string"}}
    strict = {"type": "array", "items": {}}
    witness = witness_of(strict)
    assert isinstance(witness, Witness) and schema_validator(original).is_valid(witness.value)  # the minimal value hides it
    met = [value for value in variations(witness.value) if schema_validator(strict).is_valid(value)
           and not schema_validator(original).is_valid(value)]
    assert met and met[0] in ([None], [0], [-1], [1.5], [True], [[]], [{}])


def test_a_refusal_of_an_unsettled_keyword_is_no_unnecessary_refusal(run_suite: Callable[..., SuiteRun]) -> None:
    """google-schema keeps `additionalProperties` (google-genai's Schema has it) though the Gemini
    API reference does not list it and google-genai refuses it in Gemini Developer API mode
    (``Dialect.unsettled``): refusing a record there is not refusing for nothing. RT-10 called the
    records traps of google-genai's response_schema column unnecessary refusals."""
    run = run_suite("unsettled_adapters:RefusesRecordsInGoogleSchema", "--sc-rule", "RT-10", "-k", "rt_10_cases")
    assert run.report is not None, run.output
    refused = run.report["strictify"]["google-schema"]
    assert refused["refused"] >= 2, refused  # the records cases were met, and refused
    assert run.rules_with("failed") == set(), run.output


def test_a_refusal_only_a_reshaping_codec_could_avoid_is_unnecessary_only_with_a_codec(run_suite: Callable[..., SuiteRun]) -> None:
    """openai-agents' ensure_strict_json_schema (schema in, schema out, no codec) refuses an anyOf
    root; the reference expresses it by wrapping the root in an object, which only a codec can undo.
    RT-10 called that refusal unnecessary: for a strictify without a codec it is the only lossless
    answer. With a codec of its own, the same refusals are unnecessary."""
    without = run_suite("unsettled_adapters:RefusesReshapingWithoutCodec", "--sc-rule", "RT-10", "-k", "rt_10_cases")
    assert without.report is not None, without.output
    assert without.report["strictify"]["openai"]["refused"] >= 2, without.report["strictify"]  # the cases were met
    assert without.rules_with("failed") == set(), without.output
    identity = run_suite("unsettled_adapters:RefusesReshapingWithAnIdentityEncode", "--sc-rule", "RT-10", "-k", "rt_10_cases")
    assert identity.rules_with("failed") == set(), identity.output
    with_codec = run_suite("unsettled_adapters:RefusesReshapingWithItsCodec", "--sc-rule", "RT-10", "-k", "rt_10_cases")
    assert with_codec.rules_with("failed") == {"RT-10"}, with_codec.output


def test_one_refusal_met_by_several_cases_is_one_defect(run_suite: Callable[..., SuiteRun]) -> None:
    """The case library meets one refusal at several cases: one finding, one defect (the case's name
    stayed in the key, and each case made a defect of its own)."""
    run = run_suite("broken_strict_adapters:RefusesNullableFields", "--sc-rule", "RT-10", "-k", "rt_10_cases")
    assert run.report is not None, run.output
    assert run.report["strictify"]["openai"]["refused"] >= 2, run.report["strictify"]
    keys = {finding["key"] for finding in run.report["rules"]["RT-10"]["findings"]}
    assert keys == {"RT-10 refusal: NullableRefused: nullable fields are not supported"}, keys
    assert len(run.report["defects"]) == 1, run.report["defects"]


def test_one_cause_at_many_node_shapes_is_searched_and_shrunk_once(run_suite: Callable[..., SuiteRun]) -> None:
    """The drawn SM-29 check meets the planted bug under many node shapes (an object inside
    properties, items, anyOf...). Hypothesis tells failures apart by the defect they show, so it
    shrinks one counterexample, not one per shape (19 searches and shrinks for one bug on a real
    SDK): one finding, and the statistics say one distinct failure."""
    run = run_suite("broken_strict_adapters:LeavesTheLastPropertyOptional", "--sc-rule", "SM-29", _CHECKS[0], _CHECKS[1],
                    "-k", "property_not_required", "--hypothesis-show-statistics", profile="selftest")
    assert run.report is not None, run.output
    assert run.rules_with("failed") == {"SM-29"}, run.output
    findings = run.report["rules"]["SM-29"]["findings"]
    assert len(findings) == 1, [finding["key"] for finding in findings]
    assert len(run.report["defects"]) == 1, [defect["title"] for defect in run.report["defects"]]
    assert "more distinct error" not in run.output, run.output  # no second failure found while shrinking


def test_a_second_defect_an_output_shows_is_reported_though_never_first(run_suite: Callable[..., SuiteRun]) -> None:
    """RT-1 shrinks the first rule an output breaks. An SDK whose every output breaks SM-07 (listed
    first) and, wherever a string is, SM-17: the search only ever meets SM-07 first, so SM-17 is
    reported from the example that showed it beside SM-07, saying it was not shrunk on its own."""
    run = run_suite("broken_strict_adapters:AnchorsTheRootAndAddsIf", "--sc-rule", "RT-1", _CHECKS[0], _CHECKS[2],
                    "-k", "output_obeys", profile="selftest")
    assert run.report is not None, run.output
    findings = run.report["rules"]["RT-1"]["findings"]
    by_rule = {finding["key"].split(" at ")[0].rpartition(" ")[2]: finding for finding in findings}
    assert set(by_rule) == {"SM-07", "SM-17"}, [finding["key"] for finding in findings]
    assert by_rule["SM-17"]["fully_shrunk"] is False and "fully_shrunk" not in by_rule["SM-07"], findings
    assert "not shrunk on its own" in run.output, run.output
    assert "`if` is not allowed" in by_rule["SM-17"]["message"], by_rule["SM-17"]
    assert sorted(defect["signature"].split("|")[1] for defect in run.report["defects"]) == ["SM-07", "SM-17"], run.report["defects"]

"""The verdict model through the plugin, as a maintainer meets it (issue 10, items 1, 2, 5, 10):
every distinct finding with its own counterexample, mutation judged once under RT-2, declared
refusals counted and never passed, crashes and test-control exceptions inside the adapter
reported as what they are, and big counterexamples summarised so the report stays small."""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from broken_verdict_adapters import has_array, has_enum
from conftest import SuiteRun
from strictconformance import checks
from strictconformance.findings import FINDING_KINDS

SM_CHECKS = str(Path(checks.__file__).parent / "test_strict_mode.py")
CASE_CHECKS = str(Path(checks.__file__).parent / "test_cases.py")
RT_CHECKS = str(Path(checks.__file__).parent / "test_roundtrip.py")
_ADAPTERS = "broken_verdict_adapters"


def _whole(counterexample: Any) -> Any:
    """A counterexample as written, or the whole one from the file its summary names."""
    if isinstance(counterexample, dict) and set(counterexample) == {"summary", "size", "pointer", "file"}:
        return json.loads(Path(counterexample["file"]).read_text(encoding="utf-8"))
    return counterexample


def _findings(run: SuiteRun, rule_id: str, check: str = "") -> list[dict[str, Any]]:
    assert run.report is not None, run.output
    return [finding for finding in run.report["rules"][rule_id]["findings"] if check in finding["nodeid"]]


@pytest.mark.slow
def test_three_bugs_are_three_findings_each_with_its_own_counterexample(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_ADAPTERS}:ThreeBugs", "--sc-rule", "RT-1", ".", RT_CHECKS, "-k", "output_obeys", profile="selftest")
    findings = _findings(run, "RT-1", "test_rt_1_output_obeys_every_rule")
    by_key = {finding["key"]: finding for finding in findings}
    assert set(by_key) == {"RT-1 crash: ValueError from strictify()", "RT-1 crash: KeyError from strictify()",
                           "RT-1 violation: SM-03 at object at the root"}, run.output
    # each was shrunk on its own: its counterexample holds its own trigger and not the others'
    value_error = _whole(by_key["RT-1 crash: ValueError from strictify()"]["counterexample"])["schema"]
    key_error = _whole(by_key["RT-1 crash: KeyError from strictify()"]["counterexample"])["schema"]
    left_open = _whole(by_key["RT-1 violation: SM-03 at object at the root"]["counterexample"])["schema"]
    assert has_enum(value_error) and not has_array(value_error), value_error
    assert has_array(key_error) and not has_enum(key_error), key_error
    assert not has_enum(left_open) and not has_array(left_open), left_open
    assert by_key["RT-1 crash: ValueError from strictify()"]["kind"] == "crash"
    assert by_key["RT-1 violation: SM-03 at object at the root"]["where"] == "/"
    for finding in findings:
        assert finding["calls"] and finding["calls"][-1]["method"] == "strictify", finding
        assert finding["replay"].startswith("pytest -p strictconformance"), finding
        assert finding["reproducer"] is None and finding["kind"] in FINDING_KINDS
        assert f"- {finding['defect']} " in run.output, run.output  # every finding's defect under its rule in the terminal
    assert run.output.count("counterexample (JSON):") >= 3, run.output


def test_each_failing_trap_is_its_own_finding(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_ADAPTERS}:ThreeBugs", "--sc-rule", "RT-1", ".", RT_CHECKS, "-k", "traps")
    findings = _findings(run, "RT-1", "test_rt_1_traps_and_known_bad_schemas")
    cases = {_whole(finding["counterexample"])["case"] for finding in findings}
    assert {"trap tuples", "trap records", "trap non-object-root"} <= cases, sorted(cases)
    assert len({finding["key"] for finding in findings}) == len(findings) > 5


def test_an_input_mutation_fails_rt_2_only_and_shows_the_input_as_it_was(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_ADAPTERS}:MutatesInput", "--sc-rule", "SM-03,RT", ".", SM_CHECKS, RT_CHECKS)
    assert run.rules_with("failed") == {"RT-2"}, run.output
    assert {"RT-1", "RT-3", "RT-4", "RT-5", "RT-6", "RT-7", "SM-03"} <= run.rules_with("passed"), run.output
    findings = _findings(run, "RT-2")
    assert findings and all(finding["key"].startswith("RT-2 violation: strictify() mutates its input") for finding in findings)
    for finding in findings:
        shown = _whole(finding["counterexample"])["schema"]
        assert "x-seen" not in json.dumps(shown), finding  # the original input, not the mutated one
        if len(json.dumps(shown)) < 20_000:
            assert finding["calls"][-1]["args"][0] == shown, finding


def test_a_declared_refusal_is_counted_and_passes_nothing(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_ADAPTERS}:RefusesEverything", "--sc-rule", "SM-03,SM-05,RT-1,RT-2,RT-4", ".", SM_CHECKS, RT_CHECKS)
    assert run.report is not None, run.output
    assert not run.rules_with("passed") and not run.rules_with("failed"), run.output
    assert run.rules_with("not judged") == {"SM-03", "SM-05", "RT-1", "RT-2", "RT-4"}, run.output
    counts = run.report["strictify"]["openai"]
    assert counts["refused"] == counts["calls"] > 0 and counts["outputs"] == 0 and counts["refused_by"] == {"Unsupported": counts["refused"]}
    assert f"strictify openai: refused {counts['refused']} of {counts['calls']} schemas (Unsupported x{counts['refused']})" in run.output
    assert "declared refusals" in " ".join(run.report["rules"]["SM-03"]["reasons"])
    assert run.report["adapter"]["strictify_refusals"] == ["broken_verdict_adapters.Unsupported"]


def test_an_undeclared_exception_is_a_crash_of_rt_1(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_ADAPTERS}:CrashesOnEverything", "--sc-rule", "SM-03,RT-1", ".", SM_CHECKS, RT_CHECKS)
    assert run.rules_with("failed") == {"RT-1"}, run.output
    assert run.outcome("SM-03") == "not judged", run.output
    findings = _findings(run, "RT-1", "output_obeys")
    assert [finding["key"] for finding in findings] == ["RT-1 crash: Unsupported from strictify()"], findings
    assert findings[0]["kind"] == "crash" and "raised Unsupported: this SDK strictifies nothing" in findings[0]["message"]
    assert run.report is not None and run.report["strictify"]["openai"]["crashed"] > 0


@pytest.mark.parametrize(("adapter", "raised"), [("SkipsInside", "Skipped"), ("ExitsInside", "Exit"),
                                                 ("AssumesInside", "UnsatisfiedAssumption")])
def test_test_control_from_inside_the_adapter_is_a_fault(run_suite: Callable[..., SuiteRun], adapter: str, raised: str) -> None:
    run = run_suite(f"{_ADAPTERS}:{adapter}", "--sc-rule", "SM-03,RT-1", ".", SM_CHECKS, RT_CHECKS, "-k", "output_obeys or missing")
    assert run.rules_with("failed") == {"RT-1", "SM-03"}, run.output
    for rule_id in ("RT-1", "SM-03"):
        finding = _findings(run, rule_id)[0]
        assert finding["kind"] == "fault" and f"raised {raised}" in finding["message"], finding
        assert "pytest.skip()/pytest.exit()/hypothesis.assume()" in finding["message"], finding


def test_a_big_counterexample_is_summarised_and_the_report_stays_small(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    run = run_suite("broken_strict_adapters:IgnoresPropertyLimit", "--sc-rule", "SM-22", ".", SM_CHECKS)
    assert run.rules_with("failed") == {"SM-22"}, run.output
    assert (pytester.path / "sc-report.json").stat().st_size < 1_000_000
    finding = _findings(run, "SM-22")[0]
    shown = finding["counterexample"]
    assert set(shown) == {"summary", "size", "pointer", "file"} and shown["size"] > 20_000, shown
    assert "5000 keys" in json.dumps(shown["summary"]) or "properties" in json.dumps(shown["summary"]), shown
    whole = _whole(shown)
    schema = whole.get("schema", whole)
    assert sum(1 for _ in json.dumps(schema).split('"type"')) > 5000  # held whole in the file
    assert Path(shown["file"]).parent == pytester.path / "sc-report.json.findings"
    assert len(run.output) < 200_000 and shown["file"] in run.output
    # a big argument of the adapter call is summarised in place: the report still follows its schema
    # (the matrix refused a real SDK's report whose call ``args`` had become one summary object)
    call = finding["calls"][0]
    assert isinstance(call["args"], list) and set(call["args"][0]) == {"summary", "size", "pointer", "file"}, call
    assert _whole(call["args"][0]) == schema
    from importlib import resources

    import jsonschema
    report_schema = json.loads((resources.files("strictconformance") / "report.schema.json").read_text(encoding="utf-8"))
    jsonschema.validate(json.loads((pytester.path / "sc-report.json").read_text(encoding="utf-8")), report_schema)


def test_a_strict_schema_with_no_value_leaves_rt_5_not_covered_and_fails_rt_8(run_suite: Callable[..., SuiteRun]) -> None:
    """openai-python's RT-5 read 'error' on the matrix: its strict schema of an optional recursive
    property has no value, Hypothesis found nothing to draw and gave up (Unsatisfiable). A strict
    schema proved empty (the witness) or one no draw could satisfy is RT-8's finding, and leaves
    RT-5 not covered, saying why; never an error of the check."""
    cases = "optional-recursive-property or allof-recursive-ref-and-implied-type"
    run = run_suite(f"{_ADAPTERS}:EveryPropertyRequired", "--sc-rule", "RT-5,RT-8", ".", CASE_CHECKS,
                    "-k", f"(rt_5_case or rt_8_case) and ({cases})")
    assert run.report is not None, run.output
    rt5 = run.report["rules"]["RT-5"]
    assert rt5["outcome"] == "not covered", (rt5, run.output)
    reasons = " ".join(rt5["reasons"])
    assert "the strict schema has no value to decode (required property 'next'" in reasons, reasons  # proved by the witness
    assert "no value of the strict schema could be generated in any example" in reasons, reasons  # no draw returned
    assert "could not run" not in json.dumps(run.report), run.output
    assert run.outcome("RT-8") == "failed", run.output
    assert {finding["key"] for finding in _findings(run, "RT-8")} == {"RT-8 violation: a required recursion with no exit"}


@pytest.mark.parametrize("adapter", [None, f"{_ADAPTERS}:ThreeBugs"])
def test_an_exception_on_input_the_reference_refuses_too_is_not_counted_as_a_crash(run_suite: Callable[..., SuiteRun], adapter: str | None) -> None:
    """The reference's own report said it 'raised an undeclared exception' (RT-1: 'a crash') on the
    known-bad cases it refuses as not usable schemas (SchemaError). Such input is counted apart, not judged."""
    run = run_suite(adapter, "--sc-rule", "RT-1", ".", CASE_CHECKS, "-k", "rt_1_case and openai-known-bad-sm-08")
    assert run.report is not None, run.output
    counts = run.report["strictify"]["openai"]
    assert counts["crashed"] == 0 and counts["invalid_input"] == 1, counts
    assert "undeclared exception" not in run.output and "inputs that are not usable schemas" in run.output, run.output
    assert run.outcome("RT-1") != "failed", run.output


def test_a_strict_schema_the_generator_cannot_draw_from_is_not_covered_not_an_error(run_suite: Callable[..., SuiteRun]) -> None:
    """The lenient strict schema of case allof-recursive-ref-and-required (allOf of a recursive
    map and a required key) has values, but the generator filters out every draw: Hypothesis's
    filter health check stopped RT-5 with an error. It is not covered, saying why."""
    run = run_suite(None, "--sc-rule", "RT-5", ".", CASE_CHECKS, "-k", "rt_5_case and lenient-allof-recursive-ref-and-required")
    assert run.report is not None, run.output
    rt5 = run.report["rules"]["RT-5"]
    assert rt5["outcome"] == "not covered", (rt5, run.output)
    assert any("no value of the strict schema could be generated" in reason for reason in rt5["reasons"]), rt5


def test_older_draft_cases_have_their_values_judged(run_suite: Callable[..., SuiteRun]) -> None:
    """Cases naming draft 04 or 07 were 'not covered' for RT-4/RT-5 ('values are judged in
    2020-12') though the oracles read each schema in its own draft. They are judged now, and the
    reference's lenient output of a draft-04 `id` anchor keeps a `$ref` that resolves."""
    from strictconformance.cases import library

    older = [case for case in library() if isinstance(case.schema, dict) and "draft-0" in str(case.schema.get("$schema", ""))]
    assert older and all(case.values_judged for case in older), [case.id for case in older if not case.values_judged]
    run = run_suite(None, "--sc-rule", "RT-4,RT-5", ".", CASE_CHECKS, "-k", "ref-draft4-id-anchor or draft4-boolean-exclusive-minimum")
    assert run.outcome("RT-4") == "passed" and run.outcome("RT-5") == "passed", run.output
    assert "older draft" not in run.output, run.output

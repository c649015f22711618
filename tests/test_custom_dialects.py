"""An SDK's own strict dialect (``Adapter.dialects``) is checked like a shipped one.

The adapters are in tests/custom_dialect_adapters.py: ``acme`` is openai's rules without the size
limits and formats, plus no recursion (SM-34), with depth 4 instead of 10. The reference run in it
passes every SM check of its rules and every RT check, under test IDs ending in ``[acme]``; a
strictify that keeps openai's depth limit for acme fails SM-21 (and RT-1, every rule at once) in
acme only; bad declarations stop the run with a message, never an INTERNALERROR.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable
from pathlib import Path

import jsonschema
import pytest

from conftest import SuiteRun
from custom_dialect_adapters import ACME, ACME_DEPTH, AcmeAdapter
from strictconformance import checks
from strictconformance.adapter import AdapterContractError, read_declarations
from strictconformance.dialects import OPENAI, SHIPPED, Limits, validate_strict
from strictconformance.reference.strictify import reference_strictify
from strictconformance.report import load_report_schema
from strictconformance.spec import all_rules

_CHECKS_DIR = Path(checks.__file__).parent
# the runs collect only the SM and RT modules; "." keeps the run directory's conftest (selftest profile)
STRICT_CHECKS = (".", str(_CHECKS_DIR / "test_strict_mode.py"), str(_CHECKS_DIR / "test_roundtrip.py"))
ACME_SM_RULES = set(ACME.rule_ids)
SM_RULES = {rule_id for rule_id in all_rules() if rule_id.startswith("SM-")}
RT_RULES = {rule_id for rule_id in all_rules() if rule_id.startswith("RT-")}
_MODULE = "custom_dialect_adapters"


def _checks_of(run: SuiteRun, rule_id: str) -> dict[str, str]:
    """nodeid -> outcome of every check of ``rule_id`` in the run's report."""
    assert run.report is not None, run.output
    return {check["nodeid"]: check["outcome"] for check in run.report["rules"][rule_id]["checks"]}


def test_the_reference_passes_every_sm_and_rt_check_of_a_custom_dialect(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_MODULE}:AcmeOnly", "--sc-rule", "SM,RT", *STRICT_CHECKS)
    assert run.result.ret == pytest.ExitCode.OK, run.output
    assert run.rules_with("passed") == ACME_SM_RULES | RT_RULES, run.output
    # the SM rules acme does not apply run in shipped dialects only, which this adapter does not declare
    assert run.rules_with("not covered") == SM_RULES - ACME_SM_RULES
    for rule_id in sorted(ACME_SM_RULES | RT_RULES):
        ran = [nodeid for nodeid, outcome in _checks_of(run, rule_id).items() if outcome == "passed"]
        assert ran and all(nodeid.endswith("[acme]") for nodeid in ran), (rule_id, ran)

    assert run.report is not None
    jsonschema.Draft202012Validator(load_report_schema()).validate(run.report)
    adapter = run.report["adapter"]
    assert adapter["strictify_dialects"] == ["acme"]
    [listed] = adapter["dialects"]
    assert listed["name"] == "acme" and listed["source"] == ACME.source
    assert listed["rules"]["SM-21"] == {"limit": ACME_DEPTH}
    assert set(listed["rules"]) == ACME_SM_RULES
    assert listed["limits"] == {"max_depth": ACME_DEPTH, "source": ACME.limits.source}
    assert listed["encoding"]["recursion"] == "unroll" and listed["encoding"]["formats"] is None


@pytest.mark.slow
def test_a_strictify_ignoring_the_custom_limit_fails_it_in_that_dialect_only(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_MODULE}:AcmeWithOpenAIDepth", "--sc-rule", "SM,RT", *STRICT_CHECKS)
    # RT-1 is every rule of the dialect at once: it fails with any SM rule
    assert run.rules_with("failed") == {"SM-21", "RT-1"}, run.output
    for rule_id in ("SM-21", "RT-1"):
        outcomes = _checks_of(run, rule_id)
        failed = {nodeid for nodeid, outcome in outcomes.items() if outcome == "failed"}
        assert failed and all(nodeid.endswith("[acme]") for nodeid in failed), outcomes
        assert all(outcome == "passed" for nodeid, outcome in outcomes.items() if nodeid.endswith("[openai]")), outcomes
    assert "FAILED" in run.output and "test_sm_21_depth_exceeded[acme]" in run.output
    assert "acme: the strict schema breaks SM-21 DepthExceeded" in run.output
    assert f"exceeds the limit of {ACME_DEPTH}" in run.output
    assert run.report is not None
    counterexample = run.report["rules"]["SM-21"]["findings"][0]
    assert counterexample["counterexample"]["dialect"] == "acme"
    assert counterexample["replay"].endswith("[acme]'")


def test_custom_dialects_add_test_ids_and_shipped_ones_keep_theirs(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.syspath_prepend(str(Path(__file__).parent))
    monkeypatch.delenv("STRICTCONFORMANCE_ADAPTER", raising=False)

    def collected(*args: str) -> set[str]:
        result = pytester.runpytest_inprocess("--collect-only", "-q", "-p", "no:cacheprovider", *args, *STRICT_CHECKS[1:])
        assert result.ret == pytest.ExitCode.OK, result.outlines
        return {line.split("::", 1)[1] for line in result.outlines if "::" in line}

    without_plugin = collected()
    assert "test_sm_21_depth_exceeded[openai]" in without_plugin
    assert not any("[acme]" in name for name in without_plugin)

    with_acme = collected("-p", "strictconformance", "--sc-adapter", f"{_MODULE}:AcmeAdapter")
    added = with_acme - without_plugin
    assert without_plugin <= with_acme
    assert added and all(name.endswith("[acme]") for name in added)
    assert {"test_sm_21_depth_exceeded[acme]", "test_sm_34_recursive_schema[acme]", "test_rt_7_traps[acme]"} <= added
    assert not any(name.startswith(("test_sm_22_", "test_sm_31_")) for name in added)  # rules acme does not apply
    rules_with_acme_checks = {name.split("_")[2] for name in added if name.startswith("test_sm_")}
    assert {f"SM-{number}" for number in rules_with_acme_checks} == ACME_SM_RULES


def test_each_xdist_worker_collects_the_custom_dialect(run_suite: Callable[..., SuiteRun]) -> None:
    # each worker loads the adapter itself: its acme checks exist there (else the rules were not covered)
    run = run_suite(f"{_MODULE}:AcmeOnly", "-n", "2", "--sc-rule", "SM-21,SM-34", *STRICT_CHECKS, subprocess=True)
    assert run.result.ret == pytest.ExitCode.OK, run.output
    assert run.rules_with("passed") == {"SM-21", "SM-34"}, run.output
    for rule_id in ("SM-21", "SM-34"):
        passed = sorted(nodeid.rsplit("::", 1)[1] for nodeid, outcome in _checks_of(run, rule_id).items() if outcome == "passed")
        number = rule_id.split("-")[1]
        assert [name.split("[")[1] for name in passed] == ["acme]", "acme]"], passed
        assert all(name.startswith(f"test_sm_{number}_") for name in passed)


@pytest.mark.parametrize(("adapter", "message"), [
    ("UnknownDialectName", "UnknownDialectName.strictify_dialects names unknown dialects ['no-such-provider']; "
                           "known: openai, openai@2025-01, anthropic, google, cohere, mistral, lenient"),
    ("NameInsteadOfDialect", "NameInsteadOfDialect.dialects[0] is a str ('acme'), expected a strictconformance.dialects.Dialect"),
    ("ShippedNameClash", "ShippedNameClash.dialects: 'openai' is the name of a shipped dialect; give your variant its own name"),
    ("TwoAcmes", "TwoAcmes.dialects declares two dialects named 'acme'"),
    ("DeclaredButNotListed", "DeclaredButNotListed.dialects declares ['acme'] but strictify_dialects does not list them"),
    ("RuleOutsideTheCatalogue", "dialect 'acme-extra' rule SM-99 is not in the catalogue"),
])
def test_a_bad_dialect_declaration_is_a_usage_error(run_suite: Callable[..., SuiteRun], adapter: str, message: str) -> None:
    run = run_suite(f"{_MODULE}:{adapter}")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR, run.output
    assert message in run.output
    assert "INTERNALERROR" not in run.output


def test_more_declarations_the_suite_refuses() -> None:
    def refused(**attributes: object) -> str:
        adapter = type("Declared", (AcmeAdapter,), attributes)()
        with pytest.raises(AdapterContractError) as caught:
            read_declarations(adapter)
        return str(caught.value)

    assert "must be a collection of strictconformance.dialects.Dialect objects" in refused(dialects=ACME)
    assert "it is the shipped dialect itself: list its name in strictify_dialects only" in refused(dialects=(OPENAI,))
    assert "a dialect needs a non-empty name" in refused(dialects=(dataclasses.replace(ACME, name=" acme"),))
    wrong_kind = dataclasses.replace(ACME, rules=(dataclasses.replace(ACME.rule("SM-21"), kind="no_recursion"),))
    assert "rule SM-21 has kind 'no_recursion'; the catalogue's SM-21 is 'max_depth'" in refused(dialects=(wrong_kind,))
    # the shipped dialects alone: nothing new in the registry or the report
    plain = read_declarations(type("Plain", (AcmeAdapter,), {"dialects": (), "strictify_dialects": ("openai",)})())
    assert plain.dialects == () and list(plain.dialect_registry) == list(SHIPPED)
    assert plain.as_json()["dialects"] == []


def test_the_reference_strictify_takes_a_dialect_object() -> None:
    deep = {"type": "object", "properties": {"a": {"type": "object", "properties": {"b": {"type": "object", "properties": {
        "c": {"type": "object", "properties": {"d": {"type": "object", "properties": {"e": {"type": "string"}}}}}}}}}}}
    in_openai = reference_strictify(deep, "openai")
    in_acme = reference_strictify(deep, ACME)
    assert validate_strict(in_acme.schema, ACME) == []
    assert [violation.rule_id for violation in validate_strict(in_openai.schema, ACME)] == ["SM-21"]
    assert any(loss.kind == "truncated" for loss in in_acme.losses)
    # memoised by the dialect's value, not its name: another "acme" with other limits is another result
    shallower = dataclasses.replace(ACME, limits=Limits(max_depth=1))
    assert reference_strictify(deep, shallower).schema != in_acme.schema
    assert reference_strictify(deep, dataclasses.replace(ACME)).schema == in_acme.schema


def test_the_readme_example_declares_a_valid_dialect() -> None:
    """The dialects page's "Your own dialect" example, run as written: the adapter's declarations pass
    start-up validation and the dialect is acme, beside openai."""
    import re
    from pathlib import Path

    from strictconformance.adapter import read_declarations

    readme = (Path(__file__).resolve().parents[1] / "docs" / "dialects.md").read_text(encoding="utf-8")
    found = re.search(r"```python\n(from strictconformance import Adapter\nfrom strictconformance\.dialects import OPENAI.*?)```", readme, re.S)
    assert found, "docs/dialects.md lost its custom dialect example"
    namespace: dict[str, object] = {}
    exec(compile(found.group(1), "README.md", "exec"), namespace)
    adapter_class = namespace["AcmeAdapter"]
    assert isinstance(adapter_class, type)
    declarations = read_declarations(adapter_class(), "readme:AcmeAdapter")
    assert declarations.strictify_dialects == ("openai", "acme")
    assert [dialect.name for dialect in declarations.dialects] == ["acme"]

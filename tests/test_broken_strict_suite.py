"""Every SM and RT check can fail: each deliberately broken adapter of tests/broken_strict_adapters.py
makes its rule fail when the suite runs through the plugin (that the reference passes them all is
the main job's test, tests/test_plugin.py).

Fifty rules times the whole SM and RT selection would take many minutes, so the isolation is shown
in three cheaper parts:

* each SM adapter runs with its own rule selected and fails it; that its output breaks no other
  rule of its dialect is checked directly with the validator (on the traps, its known-bad schema
  and aimed schemas), and one SM+RT run per kind of SM bug shows the RT rules other than RT-1
  hold. RT-1 ("the output obeys every rule") fails with every SM rule by definition.
* each RT adapter runs with all RT rules selected and fails its rule alone. RT-6 and RT-7 fail
  alone only for adapters without decode or without encode: with both, their bugs break RT-4 too
  (SPEC §4 says so of a silent collapse), so those two broken adapters lack the capability; so does
  RT-8's (a strict schema with no value breaks RT-4 for every value, and leaves RT-5 none to draw).
  MORE_BROKEN adds RT-2's aliasing bugs (a node shared with the input, one node at two places).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, Phase, given, settings

from broken_strict_adapters import BROKEN, CORRECT_VARIANTS, DIALECT_OF, JUNK, MORE_BROKEN
from conftest import SuiteRun, fails_exactly
from strictconformance import checks
from strictconformance.dialects import SHIPPED, SchemaError, validate_strict
from strictconformance.dialects.known_bad import known_bad_cases
from strictconformance.dialects.traps import traps
from strictconformance.spec import all_rules
from strictconformance.strategies.schemas import rule_schemas

# the runs collect only these modules (the other areas' checks would be imported for nothing); "."
# (the run's directory, no tests) keeps its conftest, which registers the selftest profile
SM_CHECKS = (".", str(Path(checks.__file__).parent / "test_strict_mode.py"))
RT_CHECKS = (".", str(Path(checks.__file__).parent / "test_roundtrip.py"))
BOTH_CHECKS = (*SM_CHECKS, RT_CHECKS[1])
STRICT_RULES = [rule_id for rule_id in all_rules() if rule_id.startswith(("SM-", "RT-"))]
SM_RULES = [rule_id for rule_id in STRICT_RULES if rule_id.startswith("SM-")]
RT_RULES = [rule_id for rule_id in STRICT_RULES if rule_id.startswith("RT-")]


def _adapter(rule_id: str) -> Any:
    import broken_strict_adapters

    return getattr(broken_strict_adapters, BROKEN[rule_id].split(":")[1])()


def _assert_failure_is_actionable(run: SuiteRun, rule_id: str) -> None:
    assert any(f"{rule_id} {kind}" in run.output for kind in ("violation", "fault", "crash", "refusal")), run.output
    assert run.report is not None
    counterexamples = run.report["rules"][rule_id]["findings"]
    assert counterexamples and counterexamples[0]["calls"], counterexamples
    shown = counterexamples[0]["counterexample"]
    shown = shown["summary"] if "file" in shown else shown  # a big one is summarised (its file holds it whole)
    assert shown["dialect"] == DIALECT_OF[rule_id]
    assert counterexamples[0]["replay"].startswith("pytest -p strictconformance --sc-adapter")


def test_every_strict_rule_has_a_broken_adapter() -> None:
    assert sorted(BROKEN) == sorted(STRICT_RULES)
    for rule_id, dialect in DIALECT_OF.items():
        assert rule_id.startswith("RT-") or rule_id in SHIPPED[dialect].rule_ids, (rule_id, dialect)


@pytest.mark.parametrize("rule_id", SM_RULES)
def test_broken_strictify_fails_its_sm_rule(run_suite: Callable[..., SuiteRun], rule_id: str) -> None:
    run = run_suite(BROKEN[rule_id], "--sc-rule", rule_id, *SM_CHECKS)
    assert run.rules_with("failed") == {rule_id}, run.output
    _assert_failure_is_actionable(run, rule_id)


@pytest.mark.parametrize("rule_id", SM_RULES)
def test_broken_strictify_breaks_no_other_rule_of_its_dialect(rule_id: str) -> None:
    adapter, dialect = _adapter(rule_id), DIALECT_OF[rule_id]
    schemas = [trap.schema for trap in traps()] + [case.schema for case in known_bad_cases() if case.rule_id == rule_id]
    rule = SHIPPED[dialect].rule(rule_id)
    broken: set[str] = set()

    def judge(schema: dict[str, Any]) -> None:
        try:
            strict = adapter.strictify(schema, dialect)
        except SchemaError:
            return  # input strictify must refuse (the known-bad SM-08 and SM-41 schemas)
        broken.update(violation.rule_id for violation in validate_strict(strict.schema, dialect))

    for schema in schemas:
        judge(schema)
    sized = rule.kind.startswith(("max_total", "max_enum", "large_"))  # each example is thousands of nodes

    @settings(max_examples=3 if sized else 10, derandomize=True, database=None, deadline=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(rule_schemas(rule))
    def aimed(schema: dict[str, Any]) -> None:
        judge(schema)
    aimed()
    assert broken == {rule_id}


# one SM bug of each kind: an unused definition (openai), a codec of its own (anthropic)
@pytest.mark.parametrize("rule_id", ["SM-20", "SM-01"])
def test_an_sm_bug_fails_rt_1_and_no_other_rt_rule(run_suite: Callable[..., SuiteRun], rule_id: str) -> None:
    # the other RT rules pass at selftest-smoke (fails_exactly checks it)
    run = fails_exactly(run_suite, BROKEN[rule_id], {rule_id, "RT-1"}, [rule_id, *RT_RULES], *BOTH_CHECKS,
                        others_may_be_not_covered=False)
    assert run.rules_with("failed") == {rule_id, "RT-1"}, run.output


@pytest.mark.slow
@pytest.mark.parametrize("rule_id", RT_RULES)
def test_broken_codec_fails_exactly_its_rt_rule(run_suite: Callable[..., SuiteRun], rule_id: str) -> None:
    run = fails_exactly(run_suite, BROKEN[rule_id], {rule_id}, RT_RULES, *RT_CHECKS)
    assert run.rules_with("failed") | run.rules_with("error") == {rule_id}, run.output
    _assert_failure_is_actionable(run, rule_id)


@pytest.mark.parametrize("adapter", sorted(JUNK))
def test_a_junk_answer_fails_cleanly_naming_the_method(run_suite: Callable[..., SuiteRun], adapter: str) -> None:
    """A result the checks cannot read (not JSON, losses that are not losses, nested 5000 deep) is an
    adapter fault of the method that returned it, never a TypeError, AttributeError or RecursionError."""
    rule_id, method, says = JUNK[adapter]
    run = run_suite(f"broken_strict_adapters:{adapter}", "--sc-rule", rule_id, *RT_CHECKS)
    assert run.rules_with("failed") == {rule_id}, run.output
    assert f"{rule_id} fault: adapter.{method}() " in run.output, run.output
    assert says in run.output, run.output
    for crash in ("INTERNALERROR", "RecursionError", "AttributeError", "Traceback"):
        assert crash not in run.output, run.output


def test_show_writes_deep_and_large_values_without_recursion() -> None:
    from strictconformance.checks._strict import show

    deep: dict[str, Any] = {"type": "string"}
    for _ in range(20_000):
        deep = {"properties": {"a": deep}}
    shown = show(deep)
    assert isinstance(shown, str) and shown.startswith('{"properties": {"a": {"properties"') and "cut at" in shown
    narrow: list[Any] = []
    for _ in range(150):  # short text, but deeper than a counterexample should nest
        narrow = [narrow]
    assert show(narrow) == "[" * 151 + "]" * 151 + " (nested 150 levels deep)"
    small = {"a": [1, 2.5, None, True, "x"]}
    assert show(small) is small


@pytest.mark.slow
@pytest.mark.parametrize("adapter", sorted(MORE_BROKEN))
def test_more_broken_strictify_fails_exactly_its_rt_rule(run_suite: Callable[..., SuiteRun], adapter: str) -> None:
    rule_id = MORE_BROKEN[adapter]
    # shrunk (the selftest profile): the minimal counterexample's dialect is the first, openai
    run = fails_exactly(run_suite, f"broken_strict_adapters:{adapter}", {rule_id}, RT_RULES, *RT_CHECKS, profile="selftest")
    assert run.rules_with("failed") | run.rules_with("error") == {rule_id}, run.output
    assert run.report is not None
    counterexamples = run.report["rules"][rule_id]["findings"]
    assert counterexamples and counterexamples[0]["calls"], counterexamples
    shown = counterexamples[0]["counterexample"]
    assert (shown["summary"] if "file" in shown else shown)["dialect"] == "openai", shown


def test_a_silently_dropped_max_items_fails_rt_5_under_the_ci_profile(run_suite: Callable[..., SuiteRun]) -> None:
    # the trap check alone: its bounds trap is what catches it in CI's derandomized examples
    run = run_suite("broken_strict_adapters:DropsMaxItemsSilently", "--sc-rule", "RT-5", "-k", "test_rt_5_traps", *RT_CHECKS, profile="ci")
    assert run.rules_with("failed") == {"RT-5"}, run.output
    shown = run.report["rules"]["RT-5"]["findings"][0]["counterexample"]  # type: ignore[index]
    assert "trap" in (shown["summary"] if "file" in shown else shown), run.output
    assert "is too long" in run.output or "has too many" in run.output, run.output


@pytest.mark.parametrize("adapter", CORRECT_VARIANTS)
def test_a_correct_strictify_reporting_losses_differently_passes(run_suite: Callable[..., SuiteRun], adapter: str) -> None:
    run = run_suite(f"broken_strict_adapters:{adapter}", "--sc-rule", "RT", *RT_CHECKS)
    assert run.rules_with("passed") == set(RT_RULES), run.output

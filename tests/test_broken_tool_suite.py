"""Every TL check can fail, through the plugin: each deliberately broken tool-layer adapter makes
exactly its rule fail; declared traits and missing capabilities are respected; an adapter's own
faults are reported as faults, not as the SDK's behaviour. That the reference passes them all is
the main job's test (tests/test_plugin.py)."""

from __future__ import annotations

import json
from collections.abc import Callable

import pytest

from broken_tool_adapters import BROKEN, EXTRA_BROKEN, MULTI_BROKEN
from conftest import SuiteRun, fails_exactly
from strictconformance.spec import all_rules

TL_RULES = [rule_id for rule_id in all_rules() if rule_id.startswith("TL-")]


def test_every_tl_rule_has_a_broken_adapter() -> None:
    assert sorted(BROKEN) == sorted(TL_RULES)


@pytest.mark.slow
@pytest.mark.parametrize(("rule_id", "adapter"), [*BROKEN.items(), *EXTRA_BROKEN], ids=lambda value: value.split(":")[-1])
def test_a_broken_adapter_fails_exactly_its_rule(run_suite: Callable[..., SuiteRun], rule_id: str, adapter: str) -> None:
    run = fails_exactly(run_suite, adapter, {rule_id}, TL_RULES)
    failed = run.rules_with("failed") | run.rules_with("error")
    assert failed == {rule_id}, run.output
    assert f"{rule_id} violation" in run.output  # the rule ID is in what the user reads
    counterexample = run.report["rules"][rule_id]["findings"][0]  # type: ignore[index]
    assert counterexample["calls"], counterexample
    shown = counterexample["counterexample"]  # the violation's own: the failing call and the definition
    assert shown["call"].startswith("adapter.") and shown["definition"]["name"], counterexample
    assert counterexample["replay"].startswith("pytest -p strictconformance --sc-adapter")


@pytest.mark.parametrize(("rule_ids", "adapter"), MULTI_BROKEN, ids=lambda value: value.split(":")[-1] if isinstance(value, str) else "")
def test_a_bug_several_rules_see_fails_exactly_those(run_suite: Callable[..., SuiteRun], rule_ids: frozenset[str], adapter: str) -> None:
    run = fails_exactly(run_suite, adapter, rule_ids, TL_RULES)
    assert run.rules_with("failed") | run.rules_with("error") == set(rule_ids), run.output
    assert "carries tool-use id 'invalid-input'" in run.output


@pytest.mark.slow
def test_a_layer_that_conforms_its_own_way_passes(run_suite: Callable[..., SuiteRun]) -> None:
    # no `default` annotations in any advertised schema: the schemas still agree and validate alike (TL-1, TL-5)
    run = run_suite("broken_tool_adapters:NoDefaultAnnotationsAdapter", "--sc-rule", "TL")
    assert run.rules_with("passed") == set(TL_RULES), run.output


def test_a_direct_call_may_raise_the_layers_wrapper_of_the_callbacks_exception(run_suite: Callable[..., SuiteRun]) -> None:
    """A kit false alarm: TL-6 demanded the callback's own exception type from a direct call and
    failed an SDK raising its documented wrapper with the original as __cause__."""
    run = run_suite("broken_tool_adapters:WrapsCallbackErrorsAdapter", "--sc-rule", "TL-6")
    assert run.rules_with("passed") == {"TL-6"}, run.output


@pytest.mark.parametrize(("adapter", "problem"), [
    ("JunkEventsAdapter", "returned a ToolInvocation whose outputs[0] is str 'junk', expected a ToolEvent or a ToolResult"),
    ("JunkResultsAdapter", "returned a ToolInvocation whose outputs[0] is dict {'status': 'success'}, expected a ToolEvent or a ToolResult"),
    ("JunkResultStatusAdapter", "returned a ToolInvocation whose outputs[0] (a ToolResult) status is 'ok', expected 'success' or 'error'"),
])
def test_junk_inside_an_invocation_is_an_adapter_fault_naming_the_method(run_suite: Callable[..., SuiteRun], adapter: str, problem: str) -> None:
    """Not an AttributeError from deep inside a check, and not a rule violation of the SDK: the
    adapter's invoke_tool returned something malformed, and the message says what."""
    run = run_suite(f"broken_tool_adapters:{adapter}", "--sc-rule", "TL-2,TL-4")
    assert run.rules_with("failed") == {"TL-2", "TL-4"}, run.output
    for rule_id in ("TL-2", "TL-4"):
        failure = run.report["rules"][rule_id]["findings"][0]  # type: ignore[index]
        assert failure["kind"] == "fault", failure
        assert failure["message"] == f"adapter.invoke_tool() {problem}" or problem in failure["message"], failure
    assert "AttributeError" not in run.output and "violation" not in run.output and "INTERNALERROR" not in run.output


@pytest.mark.parametrize(("adapter", "message"), [
    ("BadFinalValueTraitsAdapter", "BadFinalValueTraitsAdapter.tool_layer_traits: final_value is 'whatever'; allowed: 'tool_return', 'last_item', 'none'"),
    ("BadSourcesTraitsAdapter", "BadSourcesTraitsAdapter.tool_layer_traits: sources names unknown sources ['yaml']; allowed: 'signature', 'model', 'json_schema'"),
    ("BadStrictDefaultTraitsAdapter", "BadStrictDefaultTraitsAdapter.tool_layer_traits: strict_default is 'yes'; allowed: None, True, False"),
    ("BadCallbackReturnsTraitsAdapter", "BadCallbackReturnsTraitsAdapter.tool_layer_traits: callback_returns is 'bytes'; allowed: 'json', 'text'"),
])
def test_unknown_tool_layer_traits_are_a_usage_error(run_suite: Callable[..., SuiteRun], adapter: str, message: str) -> None:
    """An unknown convention would be judged by the kit's default (false failures), an unknown source
    would skip every rule: both stop the run at start-up, naming the field and what it may be."""
    run = run_suite(f"broken_tool_adapters:{adapter}", "--sc-rule", "TL")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR, run.output
    assert message in run.output
    assert "INTERNALERROR" not in run.output


def test_an_adapter_fault_is_reported_as_one_not_as_the_sdk_raising(run_suite: Callable[..., SuiteRun]) -> None:
    # TL-2 meets the fault inside the oracles' generic "the layer raised" guard, TL-3 and TL-6 inside
    # their own "it must not raise" guards: all must let the harness's fault through untouched
    run = run_suite("broken_tool_adapters:JunkInvocationAdapter", "--sc-rule", "TL-2,TL-3,TL-6")
    assert run.rules_with("failed") == {"TL-2", "TL-3", "TL-6"}, run.output
    for rule_id in ("TL-2", "TL-3", "TL-6"):
        assert f"{rule_id} fault: adapter.invoke_tool() returned dict" in run.output
        failure = run.report["rules"][rule_id]["findings"][0]  # type: ignore[index]
        assert failure["kind"] == "fault" and failure["counterexample"]["case"], failure  # the whole case
    assert "raised AdapterFault" not in run.output and "escaped" not in run.output


@pytest.mark.slow
def test_declared_sources_and_missing_capabilities_are_not_covered_never_passed(run_suite: Callable[..., SuiteRun]) -> None:
    raw_only = run_suite("broken_tool_adapters:RawSchemaOnlyAdapter", "--sc-rule", "TL")
    assert raw_only.rules_with("passed") == set(TL_RULES), raw_only.output  # TL-5 too: context as a second argument
    assert raw_only.report is not None
    tl5 = {check["nodeid"].split("::")[-1]: check["outcome"] for check in raw_only.report["rules"]["TL-5"]["checks"]}
    assert tl5["test_tl_5_each_source[json_schema]"] == "passed", tl5
    assert tl5["test_tl_5_each_source[signature]"] == tl5["test_tl_5_each_source[model]"] == "not covered", tl5

    define_only = run_suite("broken_tool_adapters:DefineOnlyAdapter", "--sc-rule", "TL")
    # TL-11 needs define_tool alone (it judges refusals at definition)
    assert define_only.rules_with("passed") == {"TL-1", "TL-7", "TL-11"}, define_only.output
    assert define_only.rules_with("not covered") == set(TL_RULES) - {"TL-1", "TL-7", "TL-11"}, define_only.output


def test_the_declared_strict_convention_decides_which_strict_values_are_valid(run_suite: Callable[..., SuiteRun]) -> None:
    declared = run_suite("broken_tool_adapters:BooleanStrictAdapter", "--sc-rule", "TL-7")
    assert declared.rules_with("passed") == {"TL-7"}, declared.output
    undeclared = run_suite("broken_tool_adapters:UndeclaredBooleanStrictAdapter", "--sc-rule", "TL-7")
    assert undeclared.rules_with("failed") == {"TL-7"}, undeclared.output
    assert "was rejected" in undeclared.output


def test_a_declared_callback_return_type_is_what_the_checks_callbacks_return(run_suite: Callable[..., SuiteRun]) -> None:
    """A layer whose tools return text (anthropic's beta_tool: a number or a boolean is outside its
    return type, and the runner's tool_result_content raises TypeError on one) gets callbacks that
    return a string or None when it declares callback_returns="text": TL-2 and TL-6 pass. Before the
    declaration existed the checks' callbacks returned any JSON value, and TL-2 reported "valid input
    gave an error result" on anthropic/tools (a kit false alarm, triage/anthropic.json)."""
    declared = run_suite("broken_tool_adapters:TextResultsAdapter", "--sc-rule", "TL-2,TL-6")
    assert declared.rules_with("passed") == {"TL-2", "TL-6"}, declared.output
    undeclared = run_suite("broken_tool_adapters:UndeclaredTextResultsAdapter", "--sc-rule", "TL-2")
    assert undeclared.rules_with("failed") == {"TL-2"}, undeclared.output
    assert "valid input gave an error result: TypeError" in undeclared.output


def test_a_declared_strict_default_is_what_unset_strict_advertises(run_suite: Callable[..., SuiteRun]) -> None:
    """A layer whose tools are strict unless told otherwise (openai-agents' function_tool) advertises
    unset strict as True: conformant when it declares strict_default=True (TL-7 failed it before the
    declaration existed), a TL-7 failure when it does not."""
    declared = run_suite("broken_tool_adapters:StrictByDefaultAdapter", "--sc-rule", "TL-7")
    assert declared.rules_with("passed") == {"TL-7"}, declared.output
    undeclared = run_suite("broken_tool_adapters:UndeclaredStrictByDefaultAdapter", "--sc-rule", "TL-7")
    assert undeclared.rules_with("failed") == {"TL-7"}, undeclared.output
    assert "strict=None was defined but True is advertised" in undeclared.output


@pytest.mark.slow
@pytest.mark.parametrize(("adapter", "rules"), [
    ("DeclaredRedactingErrorsAdapter", "TL-3,TL-6"),  # a fixed error text, declared as error_text
    ("WarningKeyDroppingAdapter", "TL-2,TL-9"),  # undeclared keys dropped with a warning naming them
    ("StrictTransformByDefaultAdapter", "TL"),  # strict by default, declared, schemas transformed when strict
])
def test_a_declared_or_reported_difference_passes(run_suite: Callable[..., SuiteRun], adapter: str, rules: str) -> None:
    """What the SDK declares (error_text, strict_default) or reports (a warning) is not a finding.
    StrictTransformByDefaultAdapter is issue 11's TL-1 false alarm: a layer strict by default
    (openai-agents' function_tool) requires every property in its strict schemas; TL-1 compares its
    sources with strict off and passes it."""
    run = run_suite(f"broken_tool_adapters:{adapter}", "--sc-rule", rules)
    selected = {rule_id for rule_id in TL_RULES if rules == "TL" or rule_id in rules.split(",")}
    assert run.rules_with("passed") == selected, run.output


def test_tools_that_cannot_be_called_directly_leave_tl6_not_covered(run_suite: Callable[..., SuiteRun]) -> None:
    """An SDK whose tool objects cannot be called (openai-agents' FunctionTool) says so from
    call_tool: TL-6 is not covered, with the reason, never failed; the tool-use path's checks run."""
    run = run_suite("broken_tool_adapters:UncallableToolsAdapter", "--sc-rule", "TL-3,TL-6")
    assert run.rules_with("passed") == {"TL-3"}, run.output
    assert run.rules_with("not covered") == {"TL-6"}, run.output
    assert "cannot be called directly" in json.dumps(run.report["rules"]["TL-6"])  # type: ignore[index]


@pytest.mark.slow
def test_tl6_judges_the_declared_direct_call_and_a_declared_absence_is_not_covered(run_suite: Callable[..., SuiteRun]) -> None:
    """An SDK whose tools keep a function documented as running unvalidated: mapped to that function,
    TL-6 fails by construction, and its counterexample says the direct call is not declared; with the
    call path declared, the counterexample names it. Declaring that the SDK has no validating direct
    call (call_tool left out) makes TL-6 not covered with that reason, never failed; the rest passes."""
    kept = run_suite("broken_tool_adapters:KeptFunctionDirectCallAdapter", "--sc-rule", "TL-6")
    assert kept.rules_with("failed") == {"TL-6"}, kept.output
    shown = kept.report["rules"]["TL-6"]["findings"][0]["counterexample"]  # type: ignore[index]
    assert shown["direct_call"].startswith("not declared (tool_layer_traits.direct_call"), shown
    declared = run_suite("broken_tool_adapters:DeclaredKeptFunctionDirectCallAdapter", "--sc-rule", "TL-6")
    assert declared.rules_with("failed") == {"TL-6"}, declared.output
    assert declared.report["rules"]["TL-6"]["findings"][0]["counterexample"]["direct_call"] == "tool.function(**input)"  # type: ignore[index]
    absent = run_suite("broken_tool_adapters:NoDirectCallAdapter", "--sc-rule", "TL")
    assert absent.rules_with("not covered") == {"TL-6"}, absent.output
    assert absent.rules_with("passed") == set(TL_RULES) - {"TL-6"}, absent.output
    reasons = {check["reason"] for check in absent.report["rules"]["TL-6"]["checks"]}  # type: ignore[index]
    assert reasons == {"the SDK has no documented direct call that validates (tool_layer_traits.no_direct_call): "
                       "the decorator returns the plain function, documented as running without validation; the tool object is not callable"}, reasons
    assert absent.report["adapter"]["tool_layer_traits"]["no_direct_call"].startswith("the decorator returns")  # type: ignore[index]


def test_a_declared_absence_of_a_direct_call_beside_call_tool_is_a_usage_error(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_tool_adapters:NoDirectCallButCallToolAdapter", "--sc-rule", "TL-6")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR, run.output
    assert "NoDirectCallButCallToolAdapter.tool_layer_traits.no_direct_call declares that the SDK has no validating direct call, " \
           "but the adapter overrides call_tool()" in run.output


def test_a_declared_refusal_of_what_strict_mode_cannot_express_passes_and_is_reported(run_suite: Callable[..., SuiteRun]) -> None:
    """A strict tool layer that refuses a dict[str, Any] parameter with its declared exception passes
    every TL rule (the other checks discard that case; TL-11 counts it) and the report says so."""
    run = run_suite("broken_tool_adapters:DeclaredStrictRefusalAdapter", "--sc-rule", "TL-11,TL-6")
    assert run.rules_with("passed") == {"TL-11", "TL-6"}, run.output
    reasons = [check.get("reason", "") for check in run.report["rules"]["TL-11"]["checks"]]  # type: ignore[index]
    assert any(reason.startswith("the tool layer refused") and "StrictSchemaUnsupported" in reason for reason in reasons), reasons
    assert "(the tool layer refused" in run.output
    assert run.report["adapter"]["tool_refusals"] == ["broken_tools.StrictSchemaUnsupported"]  # type: ignore[index]
    # one note for the rule, each refusal once with its count summed over the checks that met it
    # (two checks meeting one refusal printed it twice, "x1" and "x60")
    counted = [check["tool_refusals"] for check in run.report["rules"]["TL-11"]["checks"] if check.get("tool_refusals")]  # type: ignore[index]
    assert len(counted) >= 2, counted
    total = sum(counts["count"] for counts in counted)
    tl11 = run.output[run.output.index("TL-11   passed"):].splitlines()
    notes = [text for text in tl11[1:4] if "(the tool layer refused" in text]
    assert len(notes) == 1, tl11[:4]
    assert f"refused {total} strict tool definition(s)" in notes[0], (notes[0], total)
    assert notes[0].count("StrictSchemaUnsupported") == len({key for counts in counted for key in counts["refusals"]}), notes[0]


@pytest.mark.slow
def test_a_declared_refusal_of_what_strict_mode_expresses_fails_tl11_as_a_refusal(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_tool_adapters:OverRefusingAdapter", "--sc-rule", "TL")
    assert run.rules_with("failed") | run.rules_with("error") == {"TL-11"}, run.output
    assert run.report["rules"]["TL-11"]["findings"][0]["kind"] == "refusal"  # type: ignore[index]
    assert "TL-11 refusal: define_tool refused a strict tool whose input schema strict mode expresses" in run.output


def test_without_define_tool_from_function_the_function_checks_are_not_covered(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite("broken_tool_adapters:NoFunctionToolsAdapter", "--sc-rule", "TL-3,TL-8,TL-9,TL-10")
    assert run.rules_with("not covered") == {"TL-8", "TL-9", "TL-10"}, run.output
    assert run.rules_with("passed") == {"TL-3"}, run.output
    tl3 = {check["nodeid"].split("::")[-1].split("[")[0]: check["outcome"] for check in run.report["rules"]["TL-3"]["checks"]}  # type: ignore[index]
    assert tl3["test_tl_3_from_function"] == "not covered" and tl3["test_tl_3_each_callback_kind"] == "passed", tl3
    assert "define_tool_from_function()" in json.dumps(run.report["rules"]["TL-8"])  # type: ignore[index]

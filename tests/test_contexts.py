"""Dialect contexts (SPEC.md §3): a strictify serves tool input schemas (the default) or
structured-output schemas (``Adapter.strictify_context``), and Gemini's two schema modes are two
dialects (``google``: JSON Schema, ``google-schema``: the OpenAPI-subset Schema object).

The adapters are in tests/context_adapters.py. Gemini output schemas may have any root, so a strictify
keeping an array root passes there and fails SM-01 for function parameters; the Schema mode allows
any ``format`` and no ``prefixItems``, the JSON-Schema mode the reverse.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import jsonschema
import pytest

from conftest import SuiteRun
from strictconformance.adapter import AdapterContractError, read_declarations
from strictconformance.dialects import (
    CONTEXTS,
    GOOGLE,
    GOOGLE_SCHEMA,
    SHIPPED,
    ContextRules,
    Dialect,
    ValueEncoding,
    validate_strict,
)
from strictconformance.dialects.catalogue import rule
from strictconformance.report import load_report_schema
from test_custom_dialects import STRICT_CHECKS

_MODULE = "context_adapters"


def _outcomes(run: SuiteRun, rule_id: str) -> dict[str, str]:
    assert run.report is not None, run.output
    return {check["nodeid"].rpartition("::")[2]: check["outcome"] for check in run.report["rules"][rule_id]["checks"]}


def _in(run: SuiteRun, rule_id: str, dialect: str) -> set[str]:
    """The outcomes of ``rule_id``'s checks in ``dialect``."""
    return {outcome for nodeid, outcome in _outcomes(run, rule_id).items() if nodeid.endswith(f"[{dialect}]")}


# -- the data ----------------------------------------------------------------------------------

@pytest.mark.parametrize("name", list(SHIPPED))
def test_every_shipped_dialect_says_how_its_output_rules_differ_with_sources(name: str) -> None:
    dialect = SHIPPED[name]
    assert dialect.context == "tool_input"
    output = dialect.in_context("output")
    assert output.name == name and output.context == "output" and output.encoding == dialect.encoding
    assert set(output.rule_ids) <= set(dialect.rule_ids)
    for change in dialect.contexts:
        for rule_id, why in {**change.waived, **change.kept}.items():
            # every difference (or sameness) has its source, or says the documentation is silent
            assert "https://" in why, (name, rule_id, why)
        for rule_id, why in change.waived.items():
            assert rule_id not in output.rule_ids and any(why in note for note in output.notes)
        for rule_id, why in change.kept.items():
            assert why in output.rule(rule_id).note
    if dialect.rules:
        assert dialect.contexts, f"{name} does not say whether its rules hold for output schemas"


def test_root_rules_per_provider_for_output_schemas() -> None:
    array_root = {"type": "array", "items": {"type": "string"}}
    for name, flags_array_root in {"openai": True, "openai@2025-01": True, "cohere": True, "mistral": True,
                                   "google": False, "google-schema": False, "anthropic": False}.items():
        output = SHIPPED[name].in_context("output")
        flagged = {violation.rule_id for violation in validate_strict(array_root, output)}
        assert ("SM-01" in flagged) is flags_array_root, (name, flagged)
        assert "SM-01" in {violation.rule_id for violation in validate_strict(array_root, SHIPPED[name])}
    assert "silent" in SHIPPED["anthropic"].contexts[0].waived["SM-01"]
    assert "SM-30" in SHIPPED["openai"].in_context("output").rule_ids


def test_the_two_gemini_modes_differ_where_documented() -> None:
    email = {"type": "object", "properties": {"to": {"type": "string", "format": "email"}}, "required": ["to"]}
    pair = {"type": "object", "properties": {"p": {"type": "array", "prefixItems": [{"type": "string"}], "items": False}}}
    assert {v.rule_id for v in validate_strict(email, GOOGLE)} == {"SM-31"}
    assert not validate_strict(email, GOOGLE_SCHEMA)
    assert "SM-28" in {v.rule_id for v in validate_strict(pair, GOOGLE_SCHEMA)}
    assert "SM-28" not in {v.rule_id for v in validate_strict(pair, GOOGLE)}
    assert "format" in " ".join(GOOGLE_SCHEMA.notes) and "Any value is allowed" in " ".join(GOOGLE_SCHEMA.notes)


def test_context_data_is_checked() -> None:
    assert CONTEXTS == ("tool_input", "output")
    with pytest.raises(ValueError, match="unknown context 'response'"):
        ContextRules("response")
    with pytest.raises(ValueError, match="needs a reason"):
        ContextRules("output", waived={"SM-01": " "})
    with pytest.raises(ValueError, match="both waives and keeps"):
        ContextRules("output", waived={"SM-01": "x"}, kept={"SM-01": "y"})
    with pytest.raises(ValueError, match="not SM rule IDs"):
        Dialect("d", "", (rule("SM-03"),), ValueEncoding(), contexts=(ContextRules("output", waived={"RT-1": "why"}),))
    # a derived dialect without a rule its contexts name keeps them: the rule is passed over
    fewer = Dialect("d", "", (rule("SM-03"),), ValueEncoding(), contexts=(ContextRules("output", waived={"SM-01": "why"}),))
    assert fewer.in_context("output").rule_ids == ("SM-03",) and not any("SM-01" in n for n in fewer.in_context("output").notes)
    with pytest.raises(ValueError, match="described twice"):
        Dialect("d", "", (rule("SM-01"),), ValueEncoding(), contexts=(ContextRules("tool_input"),))
    with pytest.raises(ValueError, match="unknown context"):
        GOOGLE.in_context("response")
    bare = Dialect("d", "", (rule("SM-01"),), ValueEncoding())
    assert bare.in_context("output").rule_ids == ("SM-01",) and "No difference documented" in bare.in_context("output").notes[-1]


# -- the declaration -----------------------------------------------------------------------------

def test_strictify_context_picks_each_dialects_rules() -> None:
    import context_adapters as adapters

    plain = read_declarations(adapters.GeminiSchemaMode())
    assert plain.strictify_contexts == {"google-schema": "tool_input"}
    assert plain.dialect_registry["google-schema"] is GOOGLE_SCHEMA
    for kind in (adapters.GeminiOutputBareRoot, adapters.GeminiOutputBareRootPerDialect):
        declared = read_declarations(kind())
        assert declared.strictify_contexts == {"google": "output"}
        assert declared.dialect_registry["google"] == GOOGLE.in_context("output")
        assert declared.dialect_registry["openai"] is SHIPPED["openai"]  # undeclared dialects keep theirs
        assert declared.as_json()["strictify_contexts"] == {"google": "output"}


@pytest.mark.parametrize(("adapter", "message"), [
    ("UnknownContext", "unknown context 'response'"),
    ("ContextForUndeclaredDialect", "names dialects ['openai'] that strictify_dialects does not list"),
    ("ContextNotAName", "must be a context name or a mapping"),
])
def test_a_bad_context_declaration_is_refused(adapter: str, message: str) -> None:
    import context_adapters as adapters

    with pytest.raises(AdapterContractError, match=re.escape(message)):
        read_declarations(getattr(adapters, adapter)())


# -- through the suite ---------------------------------------------------------------------------

def test_an_array_root_passes_for_gemini_output_schemas(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_MODULE}:GeminiOutputBareRoot", "--sc-rule", "SM-01,SM-31,RT-1", *STRICT_CHECKS)
    assert run.result.ret == pytest.ExitCode.OK, run.output
    assert "test_sm_01_root_not_object[google]" not in run.output  # not a rule of Gemini output schemas
    assert _in(run, "RT-1", "google") == {"passed"}, run.output
    assert not [nodeid for nodeid in _outcomes(run, "SM-01") if nodeid.endswith("[google]")]
    assert run.rules_with("failed") == set()
    assert run.report is not None
    jsonschema.Draft202012Validator(load_report_schema()).validate(run.report)
    assert run.report["adapter"]["strictify_contexts"] == {"google": "output"}


def test_an_array_root_fails_sm_01_for_gemini_function_parameters(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_MODULE}:GeminiToolInputBareRoot", "--sc-rule", "SM-01", *STRICT_CHECKS)
    assert run.rules_with("failed") == {"SM-01"}, run.output
    assert "google: the strict schema breaks SM-01 RootNotObject" in run.output


def test_gemini_schema_mode_keeps_formats_the_json_schema_mode_bans(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_MODULE}:GeminiSchemaMode", "--sc-rule", "SM-28,SM-31,RT-1", *STRICT_CHECKS)
    assert run.result.ret == pytest.ExitCode.OK, run.output
    assert _in(run, "RT-1", "google-schema") == {"passed"}, run.output
    assert _in(run, "SM-28", "google-schema") == {"passed"}, run.output
    assert "SM-31" in run.rules_with("not covered")  # google-schema has no format rule
    assert not _in(run, "SM-31", "google-schema")
    # declared as the JSON-Schema mode (what the google-genai Schema adapters did), the same output fails
    wrong = run_suite(f"{_MODULE}:GeminiSchemaModeDeclaredAsJsonSchemaMode", "--sc-rule", "SM-31", *STRICT_CHECKS)
    assert wrong.rules_with("failed") == {"SM-31"}, wrong.output
    assert "google: the strict schema breaks SM-31 UnsupportedFormat" in wrong.output


def test_gemini_json_schema_mode_keeps_prefix_items_the_schema_mode_bans(run_suite: Callable[..., SuiteRun]) -> None:
    run = run_suite(f"{_MODULE}:GeminiSchemaModeKeepsPrefixItems", "--sc-rule", "SM-28", *STRICT_CHECKS)
    assert run.rules_with("failed") == {"SM-28"}, run.output
    assert "google-schema: the strict schema breaks SM-28 BannedPrefixItems" in run.output
    fine = run_suite(f"{_MODULE}:GeminiJsonSchemaModeKeepsPrefixItems", "--sc-rule", "SM-28", "--sc-allow-empty", *STRICT_CHECKS)
    assert fine.result.ret == pytest.ExitCode.OK, fine.output
    assert "SM-28" in fine.rules_with("not covered")


# -- the shipped SDK adapters declare the context and mode their SDK path serves -----------------

def test_google_genai_schema_paths_are_judged_in_the_schema_mode() -> None:
    """FunctionDeclaration(parameters=...) and Schema.from_json_schema keep any format, as Gemini's
    Schema object allows: no SM-31 in google-schema (in google, the JSON-Schema mode, both failed it)."""
    pytest.importorskip("google.genai")
    from strictconformance.sdks.google_genai import (
        GoogleGenaiSchema,
        GoogleGenaiSchemaFromJsonSchema,
    )

    schema = {"type": "object", "properties": {"e": {"type": "string", "format": "email"},
                                               "n": {"type": "integer", "format": "int64"}}, "required": ["e"]}
    for adapter in (GoogleGenaiSchema(), GoogleGenaiSchemaFromJsonSchema()):
        declared = read_declarations(adapter)
        assert declared.strictify_dialects == ("google-schema",)
        strict = adapter.strictify(schema, "google-schema")
        assert strict["properties"]["e"]["format"] == "email"
        assert not validate_strict(strict, declared.dialect_registry["google-schema"])
        assert {v.rule_id for v in validate_strict(strict, GOOGLE)} == {"SM-31"}


def test_anthropic_transform_schema_is_judged_as_an_output_schema() -> None:
    """transform_schema serves output_format schemas and keeps an array root there (the SDK's
    parse(output_format=list[int]) sends one): no SM-01 finding, which the tool context would give."""
    pytest.importorskip("anthropic")
    from strictconformance.sdks.anthropic import AnthropicTransformSchema

    adapter = AnthropicTransformSchema()
    declared = read_declarations(adapter)
    assert declared.strictify_contexts == {"anthropic": "output"}
    strict = adapter.strictify({"type": "array", "items": {"type": "string"}}, "anthropic")
    assert strict["type"] == "array"
    assert not validate_strict(strict, declared.dialect_registry["anthropic"])
    assert {v.rule_id for v in validate_strict(strict, SHIPPED["anthropic"])} == {"SM-01"}

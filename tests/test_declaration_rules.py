"""Adapter declarations are validated from one table (strictconformance.adapter.DECLARATION_RULES):
every row rejects a bad value with its own message, unknown values are named with the known ones,
and a capability that needs a declaration says so when it is left empty."""

from __future__ import annotations

from typing import Any

import pytest

from strictconformance import Budget
from strictconformance.adapter import (
    DECLARATION_RULES,
    Adapter,
    AdapterContractError,
    DeclarationRule,
    _Reading,
    implemented_capabilities,
    read_declarations,
)
from strictconformance.reference import ReferenceAdapter

_ROWS = {rule.name: rule for rule in DECLARATION_RULES}

#: A value of the wrong type or shape for each row.
BAD: dict[str, Any] = {
    "name": 42,
    "sdk": None,
    "conventions": "boolean",
    "providers": (),
    "strict_defaults": ["openai"],
    "allocation_policy": "knapsack",
    "budgets": {"mistral": Budget(1, 1, 1)},
    "curated_model_table": "yes",
    "openai_api": "completions",
    "rejection_errors": (ValueError, "oops"),
    "drift_errors": KeyError(),
    "strictify_refusals": [int],
    "tool_refusals": ("StrictSchemaUnsupported",),
    "api_errors": "HTTPError",
    "drift_apis": "openai.chat",
    "drift_unread": {"openai.chat": ["usage"]},
    "dialects": "openai",
    "strictify_dialects": "openai",
    "strictify_context": 42,
    "tool_layer_traits": {"final_value": "tool_return"},
    "reproducer_language": "ruby",
    "expected_failures": {"RES-1": 3},
    "parse_fidelity": 1,
}

#: Values of the right type that name something the kit does not know, and the unknown part.
UNKNOWN: dict[str, tuple[Any, list[str]]] = {
    "conventions": (("boolean", "bogus", "priority"), ["bogus"]),
    "providers": (("openai", "azure"), ["azure"]),
    "drift_apis": (("openai.chat", "nope.chat"), ["nope.chat"]),
    "drift_unread": ({"openai.chat": {"usage.prompt_tokens_details": "x"}, "nope.chat": {"id": "x"}}, ["nope.chat"]),
    "strictify_dialects": (("openai", "mystery"), ["mystery"]),
    "expected_failures": ({"RES-1": "known", "RES-99": "typo"}, ["RES-99"]),
}

#: Declarations a capability needs, left empty.
REQUIRED = ("rejection_errors", "drift_errors", "strictify_dialects")


def _error(**declarations: Any) -> str:
    bad = type("Bad", (ReferenceAdapter,), declarations)
    with pytest.raises(AdapterContractError) as caught:
        read_declarations(bad())
    return str(caught.value)


def _reading() -> _Reading:
    return _Reading("Bad", implemented_capabilities(ReferenceAdapter()), {"dialects": ()})


def test_the_table_has_a_row_for_every_declaration_of_the_adapter_class() -> None:
    declared = [name for name in Adapter.__annotations__]
    assert sorted(declared) == sorted(_ROWS), "Adapter's class attributes and DECLARATION_RULES differ"
    assert sorted(BAD) == sorted(_ROWS), "each row needs a bad value here"


def test_the_reference_passes_every_row() -> None:
    declarations = read_declarations(ReferenceAdapter())
    assert declarations.name == ReferenceAdapter.name
    assert declarations.conventions == {"boolean", "priority"}


@pytest.mark.parametrize("rule", DECLARATION_RULES, ids=lambda rule: rule.name)
def test_each_row_rejects_a_bad_value_with_its_message(rule: DeclarationRule) -> None:
    value = BAD[rule.name]
    choices = () if callable(rule.allowed) or rule.allowed is None else tuple(rule.allowed)
    expected = rule.message.format(owner="Bad", name=rule.name, value=value, choices=choices)
    assert _error(**{rule.name: value}) == expected
    assert expected.startswith("Bad"), "a message names the adapter class"


@pytest.mark.parametrize("name", sorted(UNKNOWN))
def test_each_row_with_allowed_values_names_the_unknown_ones_and_the_known(name: str) -> None:
    rule = _ROWS[name]
    value, unknown = UNKNOWN[name]
    known = rule.choices(_reading())
    assert known, "the row lists what it allows"
    expected = rule.unknown.format(owner="Bad", name=name, value=value, unknown=unknown, known=", ".join(known))
    assert _error(**{name: value}) == expected


@pytest.mark.parametrize("name", REQUIRED)
def test_a_capability_that_needs_a_declaration_says_so(name: str) -> None:
    rule = _ROWS[name]
    assert rule.required_by and rule.required
    assert _error(**{name: ()}) == rule.required.format(owner="Bad", name=name)


def test_a_row_read_only_with_its_capability_ignores_it_otherwise() -> None:
    """strict_defaults belongs to build_request: an adapter without it may leave anything there."""

    class Drift(Adapter):
        drift_errors = (ValueError,)
        strict_defaults = "not read"  # type: ignore[assignment]

        def check_response(self, api, payload):  # type: ignore[no-untyped-def]
            return None

    assert read_declarations(Drift()).strict_defaults == {}

"""One table of declarations: every adapter declaration has one definition (DECLARATION_RULES and
ToolLayerTraits) that drives the Python adapter, the process handshake's schema and the report.

A harness must be able to declare whatever a Python adapter can: a declaration without a protocol
form is a false alarm waiting to happen (a refusal read as a crash, a strict-by-default tool
layer read as unset)."""

from __future__ import annotations

import dataclasses
import json
from typing import Any

import jsonschema
import pytest

from strictconformance.adapter import (
    DECLARATION_RULES,
    handshake_declarations_schema,
    read_declarations,
)
from strictconformance.process.adapter import ProcessAdapter, _class_namespace
from strictconformance.process.protocol import message_schema
from strictconformance.tools.contract import ToolLayerTraits


@pytest.mark.parametrize("rule", DECLARATION_RULES, ids=lambda rule: rule.name)
def test_every_declaration_has_a_protocol_form(rule: Any) -> None:
    assert rule.protocol, f"declaration {rule.name} has no protocol form: give it a JSON Schema, or say how a harness declares it"


def test_the_shipped_handshake_schema_is_the_tables() -> None:
    """schemas/started.json is what harness authors read: it must be exactly what the table makes."""
    assert message_schema("started")["properties"]["declarations"] == handshake_declarations_schema()


def test_every_trait_is_in_the_protocol() -> None:
    traits = handshake_declarations_schema()["properties"]["tool_layer_traits"]["properties"]
    assert set(traits) == {field.name for field in dataclasses.fields(ToolLayerTraits)}


_HANDSHAKE: dict[str, Any] = {
    "type": "started", "protocol": "strictconformance-process/1",
    "implementation": {"name": "acme", "version": "1.0", "language": "node", "sdk": {"acme": "1.0"}},
    "capabilities": ["strictify", "define_tool", "describe_tool", "invoke_tool", "call_tool"],
    "declarations": {
        "strictify_dialects": ["openai"],
        "strictify_refusals": ["SchemaTooComplex"],
        "tool_layer_traits": {"final_value": "last_item", "strict_default": True, "error_text": "tool failed",
                              "advertised_defaults": "dropped_when_strict", "callback_returns": "text",
                              "sources": ["json_schema"], "strict_convention": "boolean", "empty_generator_value": None},
        "expected_failures": {},
    },
}


def test_a_harness_declares_everything_a_python_adapter_can() -> None:
    jsonschema.validate(_HANDSHAKE, message_schema("started"))
    namespace = _class_namespace(json.loads(json.dumps(_HANDSHAKE)))
    kind = type("Harnessed", (ProcessAdapter,), namespace)
    declarations = read_declarations(object.__new__(kind), "acme-harness")
    assert [error.__name__ for error in declarations.strictify_refusals] == ["SchemaTooComplex"]
    traits = declarations.tool_layer_traits
    assert (traits.strict_default, traits.error_text, traits.advertised_defaults, traits.callback_returns, traits.final_value) == (
        True, "tool failed", "dropped_when_strict", "text", "last_item")
    assert traits.sources == frozenset({"json_schema"})


def test_an_unknown_trait_is_refused_by_name() -> None:
    handshake = json.loads(json.dumps(_HANDSHAKE))
    handshake["declarations"]["tool_layer_traits"]["strictness"] = 1
    with pytest.raises(ValueError, match="unknown keys \\['strictness'\\]"):
        _class_namespace(handshake)

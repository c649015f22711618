"""The compiled value strategy builds a node reached again through the same references once."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator  # type: ignore[import-untyped]

from strictconformance.strategies import instances as instances_module
from strictconformance.strategies.instances import compile_instances


def _operators(count: int) -> dict[str, Any]:
    """An expression language: ``count`` operators, each holding an expression (a definition
    referring to itself from ``count`` places)."""
    branches: list[Any] = [{"type": "number"}]
    for index in range(count):
        name = f"op{index}"
        branches.append({"type": "object", "properties": {name: {"$ref": "#/$defs/expr"}}, "required": [name],
                         "additionalProperties": False})
    return {"$defs": {"expr": {"anyOf": branches}}, "$ref": "#/$defs/expr"}


def test_a_self_reference_from_many_places_compiles_each_node_once_per_depth(monkeypatch: pytest.MonkeyPatch) -> None:
    built: list[int] = []
    original = instances_module._Compiler._object

    def counting(self: Any, node: dict[str, Any], chain: tuple[int, ...]) -> Any:
        built.append(id(node))
        return original(self, node, chain)

    monkeypatch.setattr(instances_module._Compiler, "_object", counting)
    compile_instances(_operators(9)).validate()
    # nine object nodes, each built once per unrolling depth (not once per path: 9 + 81 + 729)
    assert len(built) <= 9 * (instances_module.MAX_UNROLL + 1), len(built)


def test_shared_strategies_still_draw_valid_values() -> None:
    schema = _operators(9)
    strategy = compile_instances(schema)
    validator = Draft202012Validator(schema)

    @settings(max_examples=30, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draws_valid(data: st.DataObject) -> None:
        assert validator.is_valid(data.draw(strategy))

    draws_valid()


#: How real schemas forbid a member: ``not`` of a schema every value meets (corpus o4179 writes
#: ``{"not": {"type": [every type]}}`` under properties and patternProperties).
FORBIDDEN = [{"not": {}}, {"not": True}, {"not": {"type": ["array", "boolean", "integer", "null", "number", "object", "string"]}},
             {"not": {"description": "anything", "type": ["array", "boolean", "null", "number", "object", "string"]}}]


@pytest.mark.parametrize("forbidden", FORBIDDEN, ids=lambda schema: str(schema["not"])[:30])
def test_a_forbidden_member_is_never_drawn_and_costs_no_rejected_example(forbidden: dict[str, Any]) -> None:
    """A member whose schema has no value is left out (optional) or the object has no value
    (required), known when the strategy is built: drawn and filtered, every value was rejected, and
    an object holding such members took 500 attempts for a few values (seconds per RT-5 example)."""
    assert compile_instances(forbidden).is_empty
    schema = {"type": "object", "properties": {"gone": forbidden, "kept": {"type": "string"}},
              "patternProperties": {"_Localised$": forbidden}, "required": ["kept"]}
    strategy = compile_instances(schema)
    validator = Draft202012Validator(schema)
    attempts = []

    @settings(max_examples=20, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def draws_valid(data: st.DataObject) -> None:
        attempts.append(1)
        value = data.draw(strategy)
        assert validator.is_valid(value) and "gone" not in value, value

    draws_valid()
    assert len(attempts) <= 25, len(attempts)
    assert compile_instances({**schema, "required": ["kept", "gone"]}).is_empty


def test_not_of_a_schema_that_rejects_something_still_draws() -> None:
    strategy = compile_instances({"not": {"type": ["string", "integer", "number", "boolean", "array", "object"]}})
    assert not strategy.is_empty

    @settings(max_examples=5, database=None, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.data())
    def only_null(data: st.DataObject) -> None:
        assert data.draw(strategy) is None

    only_null()

"""The generators make their strategies once, not at each draw, and draw what making them afresh
draws.

A strategy drawn from for the first time computes its properties (emptiness, label, whether its
values can be reused: a fixed point over the strategies below it). The schema, tool-shape and
request generators called ``st.sampled_from`` and their own composite factories inside their
draws, so every example paid for a dozen fresh strategies: a sixth of the CPU of a run of the
suite on the reference. ``strategies._choices`` makes each once.
"""

from __future__ import annotations

import collections
import copy
from typing import Any

import hypothesis.strategies
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies._internal.core import CompositeStrategy

from strictconformance.dialects.values import exact_json_text
from strictconformance.strategies import callbacks, models, requests, responses, schemas, tools
from strictconformance.strategies import instances as instances_module
from strictconformance.strategies._choices import made_once, sampled
from strictconformance.strategies.instances import instances
from strictconformance.strategies.requests import plan_requests
from strictconformance.strategies.schemas import json_schemas, strict_schemas

_EXAMPLES = 60


def _drawn(strategy: st.SearchStrategy[Any], examples: int = _EXAMPLES) -> list[Any]:
    """The first ``examples`` values a derandomized run draws, in order."""
    seen: list[Any] = []

    @settings(max_examples=examples, derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck), phases=("generate",))
    @given(strategy)
    def collect(value: Any) -> None:
        seen.append(value)

    collect()
    return seen


_GENERATORS = {
    "json_schemas": lambda: json_schemas(),
    "strict_schemas": lambda: strict_schemas("openai"),
    "input_shapes": lambda: callbacks.input_shapes(),
    "plan_requests": lambda: plan_requests(),
    "breaking_mutations": lambda: responses.breaking_mutations(),
}
#: The modules whose choices and factories each generator draws through.
_MODULES = {
    "json_schemas": (schemas,),
    "strict_schemas": (schemas,),
    "input_shapes": (callbacks,),
    "plan_requests": (requests, tools, models),
    "breaking_mutations": (responses,),
}


@pytest.mark.parametrize("name", sorted(_GENERATORS))
def test_drawing_again_makes_no_new_strategy(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The same draws a second time call neither ``st.sampled_from`` nor a composite factory: each
    strategy the generator needs was made once, when first needed (before, each example made its
    own). Hypothesis's own strategies (a ``one_of`` choosing a branch) are not counted."""
    strategy = _GENERATORS[name]()
    first = _drawn(strategy)
    made: list[str] = []
    choices, composite = hypothesis.strategies.sampled_from, CompositeStrategy.__init__

    def counting_choices(*args: Any, **kwargs: Any) -> Any:
        made.append(f"sampled_from{args!r:.80}")
        return choices(*args, **kwargs)

    def counting_composites(self: Any, definition: Any, *args: Any, **kwargs: Any) -> None:
        made.append(f"composite {definition.__qualname__}")
        composite(self, definition, *args, **kwargs)

    monkeypatch.setattr(hypothesis.strategies, "sampled_from", counting_choices)
    monkeypatch.setattr(CompositeStrategy, "__init__", counting_composites)
    assert _drawn(strategy) == first
    assert made == [], f"{len(made)} strategies made again while drawing {name}: {sorted(set(made))[:8]}"


@pytest.mark.parametrize("name", sorted(_GENERATORS))
def test_drawn_with_strategies_made_once_are_those_made_per_draw(monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """The reuse changes no draw: with every choice and factory of the generator's modules made
    afresh at each call, as before, the same derandomized run draws the same values."""
    reused = _drawn(_GENERATORS[name](), 100)
    for module in _MODULES[name]:
        monkeypatch.setattr(module, "sampled", st.sampled_from)
        for attribute, value in list(vars(module).items()):
            if callable(value) and hasattr(value, "cache_clear") and hasattr(value, "__wrapped__"):
                monkeypatch.setattr(module, attribute, value.__wrapped__)
    assert _drawn(_GENERATORS[name](), 100) == reused


def test_sampled_tells_equal_tuples_of_different_types_apart() -> None:
    """``(False, True)`` equals ``(0, 1)``: a cache keyed by the tuple alone would hand the one's
    strategy to the other, and a draw meant to be a bool would be an int."""
    assert sampled((False, True)) is sampled((False, True))
    assert sampled((0, 1)) is not sampled((False, True))
    assert {type(value) for value in _drawn(sampled((0, 1)), 20)} == {int}
    assert {type(value) for value in _drawn(sampled((False, True)), 20)} == {bool}


def test_sampled_matches_records_by_identity_and_keeps_them() -> None:
    """Options that are not a tuple of scalars (a list, records) are the same strategy only for the
    same object; another equal list gets its own (an id reused by a dead list could not match)."""
    records = [{"a": 1}, {"b": 2}]
    assert sampled(records) is sampled(records)
    assert sampled(list(records)) is not sampled(records)
    assert _drawn(sampled(records), 10) == _drawn(st.sampled_from(records), 10)


def test_sampled_tells_signed_zeros_apart() -> None:
    assert sampled((-0.0, 1.0)) is not sampled((0.0, 1.0))
    assert [str(value) for value in _drawn(sampled((-0.0,)), 3)] == ["-0.0"]


def test_a_factory_made_once_still_takes_arguments_it_cannot_remember() -> None:
    """Unhashable arguments (a list of formats, as a user may pass) make a new strategy, as
    before; hashable ones the same strategy each time."""
    made: list[Any] = []

    @made_once
    def choices(options: Any) -> st.SearchStrategy[Any]:
        made.append(options)
        return st.sampled_from(options)

    assert choices(("a", "b")) is choices(("a", "b"))
    assert _drawn(choices(["a", "b"]), 5) == _drawn(choices(("a", "b")), 5)
    assert made == [("a", "b"), ["a", "b"]]
    assert models.explicit_models(formats=["openai"]) is not None  # a list, as the docs allow


# -- the values of a schema: compiled once per schema, each draw the drawer's own ------------------

_SCHEMA = {
    "type": "object",
    "properties": {
        "kind": {"enum": [{"a": [1]}, "b"]},
        "point": {"const": {"x": [0, 1]}},
        "tags": {"type": "array", "items": {"type": "string", "maxLength": 3}, "maxItems": 3},
        "n": {"type": "integer", "minimum": 0, "maximum": 9},
    },
    "required": ["kind", "point", "tags", "n"],
    "additionalProperties": False,
}


def _values(schema: Any) -> list[Any]:
    """Draws as a check makes them: a new ``instances`` strategy in every example."""
    @st.composite
    def each(draw: Any) -> Any:
        return draw(instances(schema, engine="compiled"))
    return _drawn(each(), 40)


def test_a_schema_is_compiled_once_and_draws_what_a_fresh_compile_draws(monkeypatch: pytest.MonkeyPatch) -> None:
    instances_module._BUILT.clear()
    compiled: list[Any] = []
    compile_for_real = instances_module.compile_instances

    def counting(schema: Any, **kwargs: Any) -> Any:
        compiled.append(schema)
        return compile_for_real(schema, **kwargs)

    monkeypatch.setattr(instances_module, "compile_instances", counting)
    remembered = _values(copy.deepcopy(_SCHEMA))
    assert len(compiled) == 1, f"compiled {len(compiled)} times for 40 examples of one schema"
    assert _values(copy.deepcopy(_SCHEMA)) == remembered and len(compiled) == 1  # an equal schema: the same strategy
    monkeypatch.setattr(instances_module, "_BUILT_LIMIT", 0)  # nothing kept: compiled in every example, as before
    instances_module._BUILT.clear()
    assert _values(copy.deepcopy(_SCHEMA)) == remembered
    assert len(compiled) > 1


@pytest.mark.parametrize("other", [
    {**_SCHEMA, "required": ("kind", "point", "tags", "n")},  # a tuple is not an array to jsonschema
    {**_SCHEMA, "properties": {**_SCHEMA["properties"], "n": {"type": "integer", "minimum": 0, "maximum": 9.0}}},
    {**_SCHEMA, "properties": {**_SCHEMA["properties"], "n": {"type": "integer", "minimum": False, "maximum": 9}}},
    dict(reversed(list(_SCHEMA.items()))),  # key order: the draws follow it
], ids=["tuple", "float", "bool", "key-order"])
def test_schemas_equal_only_as_json_get_strategies_of_their_own(other: dict[str, Any]) -> None:
    instances_module._BUILT.clear()
    strategy = instances(_SCHEMA, engine="compiled")
    _drawn(strategy, 1)
    again = instances(other, engine="compiled")
    _drawn(again, 1)
    assert again.wrapped_strategy is not strategy.wrapped_strategy  # type: ignore[attr-defined]


def test_a_changed_draw_or_schema_changes_no_later_draw() -> None:
    """The strategy kept for a schema outlives the draw and the caller's schema: an adapter that
    changes a value it was handed, or a caller that changes its schema, leaves the next draws be."""
    instances_module._BUILT.clear()
    schema = copy.deepcopy(_SCHEMA)
    first = _values(schema)
    for value in first:
        value["point"]["x"].append("changed")
        if isinstance(value["kind"], dict):
            value["kind"]["a"].append("changed")
    schema["properties"]["point"]["const"]["x"].append("changed in the schema")
    schema["properties"]["kind"]["enum"][0]["a"].append("changed in the schema")
    again = _values(copy.deepcopy(_SCHEMA))
    assert all(value["point"] == {"x": [0, 1]} and value["kind"] in ({"a": [1]}, "b") for value in again)


def test_exact_json_text_only_for_values_their_text_says_all_of() -> None:
    shared: dict[str, Any] = {"type": "string"}
    cyclic: dict[str, Any] = {"type": "object"}
    cyclic["properties"] = {"self": cyclic}
    deep: Any = {}
    for _ in range(5000):
        deep = {"items": deep}
    assert exact_json_text({"a": [1, 1.0, True, None, "x"]}) == '{"a": [1, 1.0, true, null, "x"]}'
    assert exact_json_text({"b": 1, "a": 2}) != exact_json_text({"a": 2, "b": 1})
    assert exact_json_text({"b": 1, "a": 2}, sort_keys=True) == exact_json_text({"a": 2, "b": 1}, sort_keys=True)
    for other in ({"enum": (1, 2)}, {1: "a"}, {"a": {"b"}}, {"x": shared, "y": shared}, cyclic, {"n": 10**5000}, deep,
                  collections.OrderedDict(a=1), {"a": _Int(1)}):
        assert exact_json_text(other) is None, other


class _Int(int):
    pass

"""The generators make their strategies once, not at each draw, and draw what making them afresh
draws.

A strategy drawn from for the first time computes its properties (emptiness, label, whether its
values can be reused: a fixed point over the strategies below it). The schema, tool-shape and
request generators called ``st.sampled_from`` and their own composite factories inside their
draws, so every example paid for a dozen fresh strategies: a sixth of the CPU of a run of the
suite on the reference. ``strategies._choices`` makes each once.
"""

from __future__ import annotations

from typing import Any

import hypothesis.strategies
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.strategies._internal.core import CompositeStrategy

from strictconformance.strategies import callbacks, models, requests, responses, schemas, tools
from strictconformance.strategies._choices import made_once, sampled
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

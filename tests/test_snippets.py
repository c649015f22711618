"""Reproducer literals: every JSON value is written as Python source that builds exactly it (types
too), and the large regular values of size-limit counterexamples are written as the expressions that
build them, not as half a megabyte of text (reports of 11 MB came from one such reproducer)."""

from __future__ import annotations

from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from strictconformance.sdks._snippet import literal
from strictconformance.sdks._snippets import _same, python_literal

_JSON = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=8) | st.sampled_from(["x" * 60, "0" * 45 + "{'\\", "p7", "a\n" * 30]),
    lambda inner: st.lists(inner, max_size=20) | st.dictionaries(st.text(max_size=4), inner, max_size=20),
    max_leaves=60)


def _build(source: str) -> Any:
    return eval(source, {"__builtins__": {"range": range}})  # the source under test


@given(_JSON)
def test_any_json_value_is_written_as_source_that_builds_exactly_it(value: Any) -> None:
    assert _same(_build(python_literal(value)), value)
    assert _same(_build(python_literal(value, indent=8)), value)
    assert _same(_build(literal(value)), value)


@given(st.integers(min_value=0, max_value=30), st.integers(min_value=16, max_value=80),
       st.sampled_from(["p{}", "{:03d}" + "y" * 57, "v{}_end", "{:02d}" + "x" * 200, "a{{b}}'{}"]))
def test_numbered_names_become_comprehensions(start: int, count: int, pattern: str) -> None:
    names = [pattern.format(start + offset) for offset in range(count)]
    schema = {"type": "object", "properties": {name: {"type": "string"} for name in names},
              "required": names, "additionalProperties": False}
    source = python_literal(schema)
    assert _same(_build(source), schema)
    assert "for i in range(" in source and len(source) < 400


def test_size_limit_counterexamples_are_short_and_run() -> None:
    wide = {"type": "object", "properties": {f"p{i}": {"type": "boolean"} for i in range(5001)},
            "required": [f"p{i}" for i in range(5001)], "additionalProperties": False}
    long_name = {"type": "object", "properties": {"n" * 100_000: {"type": "string"}}}
    enum = {"type": "string", "enum": [f"v{i}" for i in range(1001)]}
    for schema in (wide, long_name, enum):
        source = python_literal(schema)
        assert len(source) < 300, source[:300]
        assert _same(_build(source), schema)
    assert python_literal(wide).splitlines()[1] == " 'properties': {f'p{i}': {'type': 'boolean'} for i in range(5001)},"


def test_equal_items_are_fresh_copies_and_irregular_values_stay_literal() -> None:
    same = [{"a": [1]} for _ in range(20)]
    built = _build(python_literal(same))
    assert _same(built, same)
    built[0]["a"].append(2)
    assert built[1] == {"a": [1]}  # an SDK that mutates one item does not change the others
    irregular = {f"p{i}": {"type": "string"} for i in (0, 1, 2, 4)} | {f"q{i}": i for i in range(20)}
    assert "for i in" not in python_literal(irregular)
    assert python_literal([True] * 3 + [1] * 20).startswith("[True,")  # 1 is not True: no [x for _ ...] of both

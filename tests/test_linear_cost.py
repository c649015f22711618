"""The validator and the reference strictify cost linear time and memory in a schema as written.

Nothing here is timed: growth is read from what the code allocates (tracemalloc peaks) and from
the size of what it builds (nodes walked, nodes written), which a loaded machine does not change.
"""

from __future__ import annotations

import tracemalloc
from typing import Any

import pytest

from strictconformance.bench.scaling import nested, unfolded_size
from strictconformance.dialects.model import SchemaError
from strictconformance.dialects.validator import _walk, iter_schema_nodes, validate_strict
from strictconformance.reference.strictify import strictify


def _shared_any_of(levels: int, leaf: dict[str, Any] | None = None) -> dict[str, Any]:
    """``levels`` of ``anyOf: [next, integer, next]`` where ``next`` is ONE Python object: the
    JSON text of it holds about 3 * 2^levels subschemas, the Python object 2 * levels + 2."""
    node: dict[str, Any] = leaf if leaf is not None else {"type": "string"}
    for _ in range(levels):
        node = {"anyOf": [node, {"type": "integer"}, node]}
    return {"type": "object", "properties": {"v": node}, "required": ["v"], "additionalProperties": False}


def _peak_bytes(run: Any) -> int:
    tracemalloc.start()
    try:
        run()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_validator_memory_is_linear_in_nesting_depth() -> None:
    # a pointer string per node costs depth^2 characters in all: 4x the depth would be 16x the memory
    shallow, deep = nested(1000), nested(4000)
    assert validate_strict(shallow, "lenient") == [] and validate_strict(deep, "lenient") == []
    ratio = _peak_bytes(lambda: validate_strict(deep, "lenient")) / _peak_bytes(lambda: validate_strict(shallow, "lenient"))
    assert ratio < 6, f"4x the depth took {ratio:.1f}x the memory (linear is about 4x)"


def test_validator_builds_a_pointer_only_where_it_reports() -> None:
    schema = nested(3000)
    walk = _walk(schema, depth_cap=12, share=True)
    assert all(node._pointer is None for node in walk.nodes)  # none built by the walk itself
    innermost = schema
    for _ in range(3000):
        innermost = innermost["properties"]["child"]
    (deepest,) = [node for node in walk.nodes if node.schema is innermost]
    assert deepest.pointer == "/properties/child" * 3000  # built on demand, right
    # the openai depth limit reports where the path first crosses it, with its pointer
    crossing = [v.pointer for v in validate_strict(nested(30), "openai") if v.rule_id == "SM-21"]
    assert crossing == ["/properties/child" * 10 + "/properties/name", "/properties/child" * 11]


def test_public_walk_still_meets_a_shared_object_at_each_place() -> None:
    shared = {"type": "string"}
    schema = {"type": "object", "properties": {"a": shared, "b": shared}}
    assert [node.pointer for node in iter_schema_nodes(schema)] == ["", "/properties/a", "/properties/b"]


def test_validator_walks_shared_python_objects_once() -> None:
    schema = _shared_any_of(40)  # 2^40 places once written out
    walk = _walk(schema, depth_cap=12, share=True)
    assert len(walk.dicts) <= 2 * 40 + 3
    assert validate_strict(schema, "openai") == []  # finishes, and finds nothing wrong


def test_validator_counts_the_limits_over_every_use_of_a_shared_object() -> None:
    # 2^13 uses of one object with one property: 8,192 properties once written out, over 5,000
    leaf = {"type": "object", "properties": {"x": {"type": "string"}}, "required": ["x"], "additionalProperties": False}
    violations = validate_strict(_shared_any_of(13, leaf), "openai")
    assert [v.rule_id for v in violations] == ["SM-22"], violations
    assert "8193 object properties" in violations[0].message  # 2^13 uses plus the root's `v`
    # and a violation inside the shared object is named once, where the walk first met it
    leaf["properties"]["y"] = {"type": "string"}
    assert [v.pointer for v in validate_strict(_shared_any_of(13, leaf), "openai") if v.rule_id == "SM-29"] == [
        "/properties/v" + "/anyOf/0" * 13 + "/properties/y"]


@pytest.mark.parametrize("dialect", ["anthropic", "google", "cohere", "mistral", "lenient", "google-schema"])
def test_strictify_keeps_shared_python_objects_shared(dialect: str) -> None:
    schema = _shared_any_of(22)
    result = strictify(schema, dialect)
    written = unfolded_size(result.schema)[1]
    assert written < 200, f"{written} nodes written for a schema of {unfolded_size(schema)[0]} objects"
    assert validate_strict(result.schema, dialect) == []
    assert strictify(result.schema, dialect).schema == result.schema  # idempotent


@pytest.mark.parametrize("dialect", ["openai", "openai@2025-01"])
def test_strictify_refuses_what_an_inlining_dialect_would_write_out_exponentially(dialect: str) -> None:
    with pytest.raises(SchemaError, match="once written out as JSON"):
        strictify(_shared_any_of(22), dialect)


def test_a_loss_inside_a_shared_object_names_the_place_it_was_first_used() -> None:
    leaf = {"type": "string", "maxLength": 3}  # anthropic strips maxLength
    result = strictify(_shared_any_of(12, leaf), "anthropic")
    assert [loss.pointer for loss in result.losses if loss.keyword == "maxLength"] == ["/properties/v" + "/anyOf/0" * 12]
    assert unfolded_size(result.schema)[1] < 200


def test_a_depth_limited_dialect_still_inlines_a_definition_dag_its_depth_limit_cuts() -> None:
    # openai inlines references; its depth limit keeps 20 levels of shared definitions small:
    # the refusal counts only what truncate_depth keeps, so this is built, not refused
    from strictconformance.bench.scaling import shared_dag

    result = strictify(shared_dag(20), "openai")
    assert unfolded_size(result.schema)[1] < 5000
    assert validate_strict(result.schema, "openai") == []

"""Path syntax: one way to write paths, several ways to read them, wildcard matching."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from strictconformance.drift.paths import (
    ANY_INDEX,
    format_path,
    parse_path,
    paths_match,
    resolve_path,
    wildcard_path,
)


@pytest.mark.parametrize(
    ("parts", "text"),
    [
        ((), ""),
        (("content", 3, "id"), "content[3].id"),
        (("choices", ANY_INDEX, "message"), "choices[*].message"),
        (("events", 0, "data", "delta", "text"), "events[0].data.delta.text"),
        (("odd.key", "x y", 1), '["odd.key"]["x y"][1]'),
        (("x_groq", "id"), "x_groq.id"),
    ],
)
def test_format_and_parse_round_trip(parts: tuple[object, ...], text: str) -> None:
    assert format_path(parts) == text  # type: ignore[arg-type]
    assert parse_path(text) == parts


@pytest.mark.parametrize(
    "reported",
    ["content[3].id", "/content/3/id", "content.3.id", "$.content[3].id", ("content", 3, "id"), ["content", "3", "id"]],
)
def test_sdk_path_forms_match_the_kit_path(reported: object) -> None:
    assert paths_match(reported, "content[3].id")  # type: ignore[arg-type]
    assert paths_match(reported, "content[*].id")  # type: ignore[arg-type]


def test_wildcards_match_positions_only() -> None:
    assert paths_match("content[*].id", "content[7].id")
    assert not paths_match("content[*].id", "content.id.x")
    assert not paths_match("content[1].id", "content[2].id")
    assert not paths_match("content[1]", "content[1].id")
    assert not paths_match("content[*]", "content.type")
    assert wildcard_path("choices[0].message.tool_calls[2].id") == "choices[*].message.tool_calls[*].id"


def test_unreadable_paths_are_errors_that_name_the_problem() -> None:
    with pytest.raises(ValueError, match="position"):
        parse_path("content[")
    with pytest.raises(ValueError, match="not"):
        parse_path(3.5)  # type: ignore[arg-type]
    assert not paths_match("content[", "content")


def test_resolve_fans_out_over_wildcards_and_skips_what_is_missing() -> None:
    document = {"choices": [{"message": {"id": 1}}, {"message": {}}, "junk"]}
    assert resolve_path(document, parse_path("choices[*].message.id")) == [(("choices", 0, "message", "id"), 1)]
    assert resolve_path(document, parse_path("choices[5]")) == []
    assert resolve_path(document, parse_path("choices[-1]")) == [(("choices", -1), "junk")]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.one_of(st.text(max_size=6), st.integers(0, 50)), max_size=6))
def test_any_parts_round_trip(parts: list[str | int]) -> None:
    text = format_path(parts)
    assert parse_path(text) == tuple(parts)
    assert paths_match(text, parts)

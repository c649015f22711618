"""The classic traps of strictify, as fixed cases (the fixed ones live in the case library,
``strictconformance/cases/cases.json``; the ones sized from a dialect are built here): a schema and values of it that a careless
strictify or codec gets wrong. Checks run every RT oracle on them besides the generated cases.

Some are sized from the dialect they are checked in: the deep nesting goes one level past its
depth limit, and where it caps the characters of names and values, one object goes past that
(so the truncation codec is met in every dialect that truncates, whatever the generated schemas
reach).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from strictconformance.cases import library
from strictconformance.dialects.model import Dialect

__all__ = ["DEFAULT_DEEP_LEVELS", "Trap", "traps"]

#: Levels of the deep-nesting trap in a dialect without a depth limit (one past the catalogue's 5).
DEFAULT_DEEP_LEVELS = 6


@dataclass(frozen=True)
class Trap:
    name: str
    why: str
    schema: dict[str, Any]
    values: tuple[Any, ...]


def _deep_nesting(levels: int) -> Trap:
    """Objects nested ``levels`` deep (``l1`` ... ``l<levels>``), a string at the bottom."""
    schema: dict[str, Any] = {"type": "string"}
    value: Any = "deep"
    for level in range(levels, 0, -1):
        name = f"l{level}"
        schema = {"type": "object", "properties": {name: schema}, "required": [name]}
        value = {name: value}
    return Trap("deep-nesting", f"depth limits truncate below the limit, reporting the loss ({levels} levels)", schema, (value,))


def _over_string_size(limit: int) -> Trap:
    """One nested object whose property name alone is over the dialect's character budget."""
    name = "n" * (limit + 1)
    return Trap("string-size", f"past the budget of {limit} characters of names and values, a subtree travels as JSON text, reporting the loss",
                {"type": "object", "properties": {"id": {"type": "integer"},
                                                  "big": {"type": "object", "properties": {name: {"type": "string"}}, "required": [name],
                                                          "additionalProperties": False}},
                 "required": ["id", "big"], "additionalProperties": False},
                ({"id": 1, "big": {name: "x"}},))


def traps(dialect: Dialect | None = None) -> tuple[Trap, ...]:
    """The cases (built fresh on each call), sized for ``dialect`` where it has limits; with a
    dialect, only the library's traps that apply to it (their ``dialects``), without one, all."""
    limits = dialect.limits if dialect is not None else None
    levels = limits.max_depth + 1 if limits is not None and limits.max_depth is not None else DEFAULT_DEEP_LEVELS
    sized = (_over_string_size(limits.max_total_string_length),) if limits is not None and limits.max_total_string_length is not None else ()
    return (
        # the fixed ones are data: the case library's traps (strictconformance/cases/cases.json),
        # each in the dialects it lists
        *(Trap(case.id.removeprefix("trap-"), case.exercises, case.schema, case.values) for case in library()
          if case.kind == "trap" and (dialect is None or case.applies_to(dialect.name))),
        _deep_nesting(levels),
        *sized,
    )

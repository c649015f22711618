"""JSON values: what counts as one, how deep it may nest, and JSON pointers.

Everything the tool helper accepts from outside (a raw schema, a tool input, a callback's
return value) goes through :func:`json_value_problem` first, so a set, a NaN, a non-string key,
a dict that contains itself or a 10,000-level nesting gives a clear message instead of a
``RecursionError`` deep inside a validator. The walk is iterative for that reason.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from strictconformance.dialects.values import exact_json_text, locate_json_problem

__all__ = [
    "MAX_INPUT_DEPTH",
    "MAX_SCHEMA_DEPTH",
    "JSONValue",
    "MetaschemaError",
    "json_value_problem",
    "metaschema_error",
    "parse_json_text",
]

JSONValue = Any  # None | bool | int | float | str | list[JSONValue] | dict[str, JSONValue]

#: Containers (objects and arrays) a raw schema may nest. jsonschema's own metaschema check
#: recurses several frames per level and overflows the default stack near 200 containers; 64
#: is far above any provider's limit (OpenAI: 10 levels of nesting) and leaves headroom.
MAX_SCHEMA_DEPTH = 64

#: Containers a tool input may nest; deeper input is an input error, not a crash.
MAX_INPUT_DEPTH = 64


def json_value_problem(value: object, *, max_depth: int) -> str | None:
    """Why ``value`` is not a JSON value of at most ``max_depth`` nested containers, or None.

    Accepted: None, bool, int, finite float, str, lists and tuples of those, and mappings with
    string keys (the one JSON walk of the kit, :func:`~strictconformance.dialects.values.locate_json_problem`).
    The message names the JSON pointer of the first offending place.
    """
    found = locate_json_problem(value, max_depth=max_depth, python_containers=True)
    if found is None:
        return None
    pointer, problem = found
    return f"{problem} (at {pointer or 'the root'})"


@dataclass(frozen=True)
class MetaschemaError:
    """What a metaschema check said of a schema: jsonschema's message and the path it names (not
    the ``SchemaError`` itself, which holds the schema it was raised on)."""

    message: str
    absolute_path: tuple[str | int, ...]


_METASCHEMA_ERRORS: dict[tuple[type, str], MetaschemaError | None] = {}
_UNKNOWN = object()


def metaschema_error(validator_class: type, schema: object) -> MetaschemaError | None:
    """What ``validator_class.check_schema(schema)`` rejects ``schema`` with, or None when it is
    valid under its draft's metaschema. Remembered per draft and JSON text for a schema of plain
    dicts and lists: a run defines the same tool schemas again and again (every check, every
    layer call), and a metaschema check costs milliseconds, about a sixth of the tool checks'
    CPU. ``schema`` must be a JSON value (:func:`json_value_problem` first)."""
    from jsonschema.exceptions import SchemaError  # type: ignore[import-untyped]

    text = exact_json_text(schema, sort_keys=True)
    key = (validator_class, text) if text is not None else None
    if key is not None:
        known = _METASCHEMA_ERRORS.get(key, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]
    error: MetaschemaError | None = None
    try:
        validator_class.check_schema(schema)  # type: ignore[attr-defined]
    except SchemaError as exc:
        error = MetaschemaError(str(exc.message), tuple(exc.absolute_path))
    if key is not None:
        if len(_METASCHEMA_ERRORS) >= 4096:
            _METASCHEMA_ERRORS.clear()
        _METASCHEMA_ERRORS[key] = error
    return error


def _reject_constant(name: str) -> float:
    raise ValueError(f"{name} is not a JSON number")


def parse_json_text(text: str | bytes | bytearray) -> JSONValue:
    """Parse JSON text strictly (no NaN/Infinity); raises ``ValueError`` with a plain message.

    CPython's decoder recurses per nesting level, so absurdly deep text surfaces as a
    ``RecursionError`` there: it is reported as a ``ValueError`` like any other bad text.
    """
    try:
        return json.loads(text, parse_constant=_reject_constant)
    except RecursionError:
        raise ValueError("JSON text nests too deeply to parse") from None
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ValueError(f"not valid JSON text: {exc}") from None

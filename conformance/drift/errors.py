"""What the drift validator reports: :class:`SchemaDriftError`, notices and the report.

Drift (SPEC §5) is a missing or retyped field an SDK reads, a broken cross-field invariant,
or a payload that is not JSON at all; it raises :class:`SchemaDriftError`. Additive change (a
new field, a new variant, a new enum value) is information, reported as a :class:`DriftNotice`.
"""

from __future__ import annotations

import json
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from strictconformance._text import int_text

__all__ = [
    "DriftNotice",
    "DriftReport",
    "NoticeKind",
    "SchemaDriftError",
    "bounded_json",
    "describe_type",
    "json_type",
    "key_text",
    "short_repr",
    "type_name",
]

NoticeKind = Literal[
    "unknown_field",  # a key the shape does not declare
    "unknown_variant",  # a discriminator value (or variant key) the shape does not know
    "unknown_value",  # an enum-like value outside the documented set
    "unread_mismatch",  # a documented field no SDK reads is missing or has another type
    "stream_unterminated",  # the stream ended without its documented final event
    "after_terminator",  # events after the terminator (`[DONE]`), which SDKs never read
]

#: How many characters of an actual value an error or notice quotes.
_REPR_LIMIT = 80


_SIMPLE_TYPES: dict[type, str] = {str: "string", int: "integer", bool: "boolean", dict: "object", list: "array"}


def json_type(value: object) -> str | None:
    """The JSON type of a non-null value (``integer`` for 2.0), or None when it is not JSON."""
    name = _SIMPLE_TYPES.get(type(value))
    if name is not None:
        return name
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return "integer" if value.is_integer() else "number"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, str):
        return "string"
    if isinstance(value, Mapping):
        return "object"
    if isinstance(value, (list, tuple)):
        return "array"
    return None


def describe_type(value: object) -> str:
    """The JSON type name of ``value`` (``"string"``, ``"null"``, ...), or what it is instead."""
    if value is None:
        return "null"
    name = json_type(value)
    if name is not None:
        return name
    if isinstance(value, float):
        return "non-finite number (not JSON)"
    return f"{type_name(value)} (not JSON)"


def _bounded_repr(value: object) -> str:
    if isinstance(value, str):
        text = str.__getitem__(value, slice(0, _REPR_LIMIT))  # a plain str, whatever the subclass
        if len(value) > _REPR_LIMIT:
            text = text[: _REPR_LIMIT - 1] + "…"
        return str.__repr__(text)
    if value is None or isinstance(value, bool):
        return repr(value)
    if isinstance(value, int):
        return int_text(value)
    if isinstance(value, float):
        return float.__repr__(value)
    if isinstance(value, dict):
        return f"{{…{dict.__len__(value)} keys}}"
    if isinstance(value, (list, tuple)):
        size = list.__len__(value) if isinstance(value, list) else tuple.__len__(value)
        return f"[…{size} items]"
    return f"<{type_name(value)}>"


def type_name(value: object) -> str:
    """The name of ``value``'s type, for messages (never raises)."""
    try:
        name = type(value).__name__
    except Exception:  # a metaclass that breaks attribute access
        return "object"
    return name if type(name) is str else "object"


def short_repr(value: object) -> str:
    """A one-line, bounded rendering of a value for messages.

    Never walks a deep value, never calls a subclass's own ``__repr__`` and never raises: a
    10**5000 integer is described (``repr`` would raise ``ValueError``), and anything else that
    cannot be shown is named by its type.
    """
    try:
        return _bounded_repr(value)
    except Exception:
        return f"<{type_name(value)}>"


def key_text(key: object) -> str:
    """A mapping key as path text: the key itself when it is a string, else its bounded repr."""
    return str.__str__(key) if isinstance(key, str) else short_repr(key)


class SchemaDriftError(Exception):
    """A response no longer has the shape an SDK relies on.

    ``path`` uses the kit's syntax (``content[3].id``; ``""`` is the root), ``expected`` says what
    the shape wants there, ``actual_type`` what was found (``"absent"`` for a missing key), and
    ``actual`` quotes the value when it helps (``'function_call'`` for a renamed variant).
    """

    def __init__(
        self,
        provider: str,
        api: str,
        path: str,
        expected: str,
        actual_type: str,
        rule_id: str,
        actual: str | None = None,
    ) -> None:
        self.provider = provider
        self.api = api
        self.path = path
        self.expected = expected
        self.actual_type = actual_type
        self.rule_id = rule_id
        self.actual = actual
        super().__init__(self._message())

    def _message(self) -> str:
        where = self.path or "<root>"
        found = self.actual_type if self.actual is None else f"{self.actual_type} {self.actual}"
        return f"{self.api}: {self.rule_id} drift at {where}: expected {self.expected}, got {found}"

    def __reduce__(self) -> tuple[Any, ...]:
        # keep every field across pickling (pytest-xdist workers send exceptions back)
        return (
            type(self),
            (self.provider, self.api, self.path, self.expected, self.actual_type, self.rule_id, self.actual),
        )

    def as_dict(self) -> dict[str, str | None]:
        return {
            "provider": self.provider,
            "api": self.api,
            "path": self.path,
            "expected": self.expected,
            "actual_type": self.actual_type,
            "actual": self.actual,
            "rule_id": self.rule_id,
        }


@dataclass(frozen=True)
class DriftNotice:
    """Additive change or harmless difference: worth knowing, never an error."""

    kind: NoticeKind
    path: str
    detail: str

    def __str__(self) -> str:
        return f"{self.kind} at {self.path or '<root>'}: {self.detail}"


@dataclass(frozen=True)
class DriftReport:
    """Everything one validation found. ``errors`` is empty when the response has no drift."""

    api: str
    errors: tuple[SchemaDriftError, ...] = ()
    notices: tuple[DriftNotice, ...] = ()
    #: Notices past the cap (a payload with 100,000 unknown fields does not fill memory).
    notices_dropped: int = 0
    #: Sites checked, for statistics and the benchmark.
    fields_checked: int = field(default=0, compare=False)

    @property
    def ok(self) -> bool:
        return not self.errors

    def raise_for_drift(self) -> DriftReport:
        """Raise the first error (in walk order), or return the report unchanged."""
        if self.errors:
            raise self.errors[0]
        return self

    def notices_of(self, kind: NoticeKind) -> Sequence[DriftNotice]:
        return [notice for notice in self.notices if notice.kind == kind]


def bounded_json(value: object, limit: int = 4000, max_depth: int = 64) -> str:
    """Compact JSON text for ``value``, cut at ``limit`` characters and ``max_depth`` levels.

    Built without recursion, so a 100,000-level or self-containing value renders (truncated)
    instead of raising ``RecursionError``. Non-JSON leaves, and integers too long to print, are
    shown as their quoted :func:`short_repr`; nothing in ``value`` makes it raise.
    """
    out: list[str] = []
    size = 0
    stack: list[tuple[bool, object, int]] = [(False, value, 0)]  # (is literal text, item, depth)
    while stack:
        literal, item, depth = stack.pop()
        if literal:
            piece = str(item)
        elif isinstance(item, dict) and depth < max_depth:
            entries = list(item.items())
            stack.append((True, "}", depth))
            for index in reversed(range(len(entries))):
                key, child = entries[index]
                stack.append((False, child, depth + 1))
                stack.append((True, ("," if index else "") + json.dumps(key_text(key), ensure_ascii=False) + ":", depth))
            piece = "{"
        elif isinstance(item, (list, tuple)) and depth < max_depth:
            stack.append((True, "]", depth))
            for index in reversed(range(len(item))):
                stack.append((False, item[index], depth + 1))
                if index:
                    stack.append((True, ",", depth))
            piece = "["
        elif isinstance(item, (dict, list, tuple)):
            piece = '"…"'
        else:
            piece = _json_leaf(item)
        out.append(piece)
        size += len(piece)
        if size > limit:
            return "".join(out)[:limit] + "…(truncated)"
    return "".join(out)


def _json_leaf(item: object) -> str:
    """JSON text for one leaf of :func:`bounded_json`."""
    try:
        if item is None or isinstance(item, bool):
            return json.dumps(item)
        if isinstance(item, int) and abs(item).bit_length() <= 128:
            return json.dumps(int(item))
        if isinstance(item, float) and math.isfinite(item):
            return json.dumps(float(item))
        if isinstance(item, str):
            return json.dumps(str.__str__(item), ensure_ascii=False)
    except Exception:  # a subclass whose conversion fails: shown like any other odd value
        pass
    return json.dumps(short_repr(item), ensure_ascii=False)

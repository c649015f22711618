"""Reference strict resolution (SPEC.md §1): both conventions, as small pure functions."""

from __future__ import annotations

import math

__all__ = ["InvalidStrictSetting", "StrictSetting", "validate_strict_setting"]

#: A tool's strict setting: ``True``/``False``/``None`` (unset) in the boolean convention, plus a
#: positive number (a priority) in the priority convention.
StrictSetting = bool | int | float | None


class InvalidStrictSetting(ValueError):
    """A strict setting that is neither a bool, None, nor a finite number > 0."""


def validate_strict_setting(value: object, *, tool_name: str | None = None, allow_priority: bool = True) -> StrictSetting:
    """Return ``value`` if it is a valid strict setting, else raise :class:`InvalidStrictSetting`.

    Valid: ``True``, ``False``, ``None`` and, when ``allow_priority``, any finite real number > 0.
    Strings, zero, negative numbers, NaN and infinities are rejected with a message naming the
    tool, at definition time, never replaced by a default.
    """
    where = f"tool {tool_name!r}: " if tool_name else ""
    if value is None or isinstance(value, bool):
        return value
    if isinstance(value, (int, float)):
        if not allow_priority:
            raise InvalidStrictSetting(
                f"{where}strict must be True, False or None in the boolean convention, got {value!r}"
            )
        if math.isnan(value) or math.isinf(value) or value <= 0:
            raise InvalidStrictSetting(
                f"{where}strict priority must be a finite number > 0, got {value!r}"
            )
        return value
    raise InvalidStrictSetting(
        f"{where}strict must be True, False, None or a number > 0, got {type(value).__name__} {value!r}"
    )

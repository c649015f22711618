"""JSON value equality as JSON Schema sees it: ``1 == 1.0``, ``true != 1``, key order ignored."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["canonical", "json_equal"]


def _normal(item: Any) -> Any:
    if isinstance(item, bool) or item is None or isinstance(item, str):
        return item
    if isinstance(item, float) and item.is_integer():
        return int(item)
    if isinstance(item, dict):
        return {key: _normal(sub) for key, sub in item.items()}
    if isinstance(item, (list, tuple)):
        return [_normal(sub) for sub in item]
    return item


def canonical(value: Any) -> str:
    """A JSON text equal exactly for JSON-equal values."""
    return json.dumps(_normal(value), sort_keys=True)


def json_equal(a: Any, b: Any) -> bool:
    return canonical(a) == canonical(b)

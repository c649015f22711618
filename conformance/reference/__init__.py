"""The reference implementation of SPEC.md: small pure functions a real SDK could import, and
:class:`ReferenceAdapter`, which exposes them to the suite."""

from __future__ import annotations

from typing import Any

__all__ = ["ReferenceAdapter"]


def __getattr__(name: str) -> Any:
    # Lazy: the adapter imports every area, and some areas import reference functions.
    if name == "ReferenceAdapter":
        from strictconformance.reference.adapter import ReferenceAdapter

        return ReferenceAdapter
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")

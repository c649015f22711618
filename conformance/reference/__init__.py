"""The reference implementation of SPEC.md: small pure functions a real SDK could import, and
:class:`ReferenceAdapter`, which exposes them to the suite."""

from strictconformance.reference.adapter import ReferenceAdapter

__all__ = ["ReferenceAdapter"]

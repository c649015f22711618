"""An explicit registry of dialects: the shipped ones plus any a user registers.

Nothing is mutated at import and there is no hidden global: :func:`register_dialect` returns a
new :class:`DialectRegistry`, and every lookup takes the registry to use (the shipped dialects
when none is given).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from strictconformance.dialects.model import Dialect
from strictconformance.dialects.shipped import SHIPPED

__all__ = ["DialectRegistry", "get_dialect", "register_dialect", "resolve_dialect"]


class DialectRegistry(Mapping[str, Dialect]):
    """An immutable name -> :class:`Dialect` mapping; :meth:`with_dialect` makes a new one."""

    def __init__(self, dialects: Mapping[str, Dialect] = SHIPPED) -> None:
        for name, dialect in dialects.items():
            if name != dialect.name:
                raise ValueError(f"dialect registered as {name!r} is named {dialect.name!r}")
        self._dialects: Mapping[str, Dialect] = MappingProxyType(dict(dialects))

    def __getitem__(self, name: str) -> Dialect:
        try:
            return self._dialects[name]
        except KeyError:
            raise KeyError(f"unknown dialect {name!r}; known: {', '.join(sorted(self._dialects))}") from None

    def __iter__(self) -> Iterator[str]:
        return iter(self._dialects)

    def __len__(self) -> int:
        return len(self._dialects)

    def __repr__(self) -> str:
        return f"DialectRegistry({sorted(self._dialects)})"

    def with_dialect(self, dialect: Dialect, *, replace: bool = False) -> DialectRegistry:
        """A new registry with ``dialect`` added (or replacing one of the same name if ``replace``)."""
        if not isinstance(dialect, Dialect):
            raise TypeError(f"register a Dialect, got {type(dialect).__name__}")
        if not dialect.name or dialect.name != dialect.name.strip():
            raise ValueError(f"a dialect needs a non-empty name without surrounding spaces, got {dialect.name!r}")
        if dialect.name in self._dialects and not replace:
            raise ValueError(f"dialect {dialect.name!r} is already registered; pass replace=True to replace it")
        return DialectRegistry({**self._dialects, dialect.name: dialect})


#: The shipped dialects' registry, built once (a lookup by name must not copy them each time).
_SHIPPED_REGISTRY = DialectRegistry()


def register_dialect(dialect: Dialect, *, registry: DialectRegistry | None = None, replace: bool = False) -> DialectRegistry:
    """Return a registry holding ``registry``'s dialects (the shipped ones by default) and ``dialect``."""
    return (registry if registry is not None else DialectRegistry()).with_dialect(dialect, replace=replace)


def get_dialect(name: str, registry: Mapping[str, Dialect] | None = None) -> Dialect:
    """The dialect called ``name`` in ``registry`` (the shipped dialects by default)."""
    if registry is None or registry is SHIPPED:
        return _SHIPPED_REGISTRY[name]
    return (registry if isinstance(registry, DialectRegistry) else DialectRegistry(registry or SHIPPED))[name]


def resolve_dialect(dialect: str | Dialect, registry: Mapping[str, Dialect] | None = None) -> Dialect:
    """Accept a dialect or its name."""
    return dialect if isinstance(dialect, Dialect) else get_dialect(dialect, registry)

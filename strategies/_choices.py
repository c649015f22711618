"""``sampled``: ``st.sampled_from`` made once per set of options, not once per draw.

Hypothesis caches the strategies of ``st.integers``, ``st.booleans`` and ``st.lists`` of cached
strategies, but not ``st.sampled_from``. A strategy drawn from for the first time computes its
properties (is it empty, its label, can its values be reused: a fixed point over the strategies
below it), so a composite that called ``st.sampled_from`` (or a factory that wraps one) at each draw
paid for that at each draw: about a sixth of the CPU of a run of the suite on the reference, most
of it in the schemas drawn per example. The draws are the same: a strategy made once chooses as
the one made afresh did.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import Any, ParamSpec, TypeVar

from hypothesis import strategies as st

__all__ = ["as_received", "made_once", "sampled"]

_T = TypeVar("_T")
_P = ParamSpec("_P")

_LIMIT = 4096
_SCALARS = (str, int, float, bool, type(None))
_BY_VALUE: dict[tuple[tuple[Any, ...], tuple[type, ...]], st.SearchStrategy[Any]] = {}
_BY_IDENTITY: dict[int, tuple[Sequence[Any], st.SearchStrategy[Any]]] = {}


def sampled(options: Sequence[_T]) -> st.SearchStrategy[_T]:
    """``st.sampled_from(options)``, the same strategy object for the same options. A tuple of
    scalars is matched by value, with the options' types (``(False, True)`` and ``(0, 1)`` are
    equal tuples, not the same choices); any other sequence by identity (the same list or tuple
    of records, as a strategy's closure holds it), kept alive so that its id stays its own."""
    if options.__class__ is tuple and all(option.__class__ in _SCALARS for option in options):
        # with the types, and a float by its repr: (False, True) equals (0, 1), (-0.0,) equals (0.0,)
        key = (tuple(repr(option) if option.__class__ is float else option for option in options),
               tuple(option.__class__ for option in options))
        strategy = _BY_VALUE.get(key)
        if strategy is None:
            if len(_BY_VALUE) >= _LIMIT:
                _BY_VALUE.clear()
            strategy = _BY_VALUE[key] = st.sampled_from(options)
        return strategy
    known = _BY_IDENTITY.get(id(options))
    if known is not None and known[0] is options:
        return known[1]
    if len(_BY_IDENTITY) >= _LIMIT:
        _BY_IDENTITY.clear()
    strategy = st.sampled_from(options)
    _BY_IDENTITY[id(options)] = (options, strategy)
    return strategy


def made_once(factory: Callable[_P, st.SearchStrategy[_T]]) -> Callable[_P, st.SearchStrategy[_T]]:
    """A strategy factory (a composite, say) that returns the strategy it made for equal arguments
    (names, depths, knobs, strategies) instead of a new one at each call. Arguments that cannot be
    hashed (a list of formats) make a new strategy, as before. Equal is ``==``: a factory whose
    arguments may be equal but draw apart (``0`` and ``False`` in a tuple) must not use it."""
    cached: Callable[..., st.SearchStrategy[_T]] = functools.lru_cache(maxsize=1024)(factory)

    @functools.wraps(factory)
    def made(*args: _P.args, **kwargs: _P.kwargs) -> st.SearchStrategy[_T]:
        try:
            hash((args, tuple(kwargs.items())))
        except TypeError:
            return factory(*args, **kwargs)
        return cached(*args, **kwargs)

    made.cache_clear = cached.cache_clear  # type: ignore[attr-defined]  # what tests reach through
    return made


def as_received(text: str) -> str:
    """``text`` as an SDK receives it (parsed from JSON, read from a config file): an equal string,
    never the kit's own constant object. Python interns string literals, so an implementation that
    compares names with ``is`` (``provider is "anthropic"``) would pass every check drawing the
    kit's constants and fail on its users' input."""
    return text.encode("utf-8").decode("utf-8")  # a new object for every non-empty string

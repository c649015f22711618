"""Strategies for models: explicit, unset and ``none`` strict formats; curated and unknown ids;
aggregator prefixes.

``models_with_support()`` pairs a model with the strict support SPEC §1 (RES-13) fixes for it, for
models whose answer does not depend on any curated table (explicit formats, and unknown ids).
``curated_models()`` draws the ids RES-14 fixes.
"""

from __future__ import annotations

from typing import Any

from hypothesis import event
from hypothesis import strategies as st

from strictconformance.spec.resolution import RES14_CAPABLE, RES14_LENIENT
from strictconformance.strategies._choices import as_received, made_once, sampled
from strictconformance.wire import FAMILIES, ModelSpec, StrictSupport

__all__ = ["curated_cases", "curated_models", "explicit_models", "models", "models_with_support", "unknown_models"]

# Ids no curated table can know: never a real model family's name.
_UNKNOWN_IDS = st.builds(lambda n, tag: f"zz-model-{tag}-{n}", st.integers(0, 999), st.sampled_from(["alpha", "beta", "x"]))
_OTHER_PROVIDERS = ("openrouter", "bedrock", "acme-ai", "my-provider", "local")


@made_once
def unknown_models(*, family_prefix: bool | None = None) -> st.SearchStrategy[ModelSpec]:
    """Models with unset strict format and an id no curated table matches. With a family provider
    or a ``family/`` id prefix the dialect resolves, but no capability (RES-13)."""

    @st.composite
    def build(draw: st.DrawFn) -> ModelSpec:
        provider = as_received(draw(sampled(tuple(FAMILIES + _OTHER_PROVIDERS))))
        model_id = draw(_UNKNOWN_IDS)
        prefixed = draw(st.booleans()) if family_prefix is None else family_prefix
        if prefixed:
            model_id = f"{draw(sampled(tuple(FAMILIES)))}/{model_id}"
        return ModelSpec(provider, model_id, None)

    return build()


@made_once
def explicit_models(*, formats: tuple[str, ...] = (*FAMILIES, "none")) -> st.SearchStrategy[ModelSpec]:
    """Models whose strict format is set explicitly; the id may be curated, legacy or unknown (an
    explicit value wins either way)."""
    ids = st.one_of(_UNKNOWN_IDS, st.sampled_from([entry[1] for entry in RES14_CAPABLE + RES14_LENIENT]))
    return st.builds(ModelSpec, st.sampled_from(FAMILIES + _OTHER_PROVIDERS).map(as_received), ids,
                     st.sampled_from(formats).map(as_received))


def curated_cases(*, capable: bool | None = None) -> list[tuple[ModelSpec, StrictSupport]]:
    """Every id RES-14 fixes, with unset strict format, paired with the expected support."""
    rows: list[tuple[tuple[str, str, str], bool]] = []
    if capable in (None, True):
        rows += [(row, True) for row in RES14_CAPABLE]
    if capable in (None, False):
        rows += [(row, False) for row in RES14_LENIENT]
    return [(ModelSpec(as_received(provider), as_received(model_id), None), StrictSupport(dialect if is_capable else None, is_capable))
            for (provider, model_id, dialect), is_capable in rows]


def curated_models(*, capable: bool | None = None) -> st.SearchStrategy[tuple[ModelSpec, StrictSupport]]:
    """Ids RES-14 fixes, with unset strict format, paired with the expected support."""
    return st.sampled_from(curated_cases(capable=capable))


def expected_support(model: ModelSpec) -> StrictSupport:
    """The support RES-13 fixes for an explicit or unknown model (not for curated unset ids)."""
    if model.strict_format == "none":
        return StrictSupport(None, False)
    if model.strict_format is not None:
        return StrictSupport(model.strict_format, True)
    if model.provider in FAMILIES:
        return StrictSupport(model.provider, False)
    prefix = model.id.split("/", 1)[0] if "/" in model.id else None
    return StrictSupport(prefix if prefix in FAMILIES else None, False)


@st.composite
def models_with_support(draw: st.DrawFn) -> tuple[ModelSpec, StrictSupport]:
    """A model whose strict support RES-13 alone decides, with that support."""
    model = draw(st.one_of(explicit_models(), unknown_models()))
    support = expected_support(model)
    event(f"model strict format: {model.strict_format or 'unset'}")
    event(f"model capable: {support.capable}")
    return model, support


def models(**kwargs: Any) -> st.SearchStrategy[ModelSpec]:
    """Any model: explicit, unknown or curated."""
    return st.one_of(explicit_models(**kwargs), unknown_models(), curated_models().map(lambda pair: pair[0]))

"""Adapters declaring a dialect of their own (``Adapter.dialects``), for tests/test_custom_dialects.py.

``acme`` stands for a provider the kit does not ship (a self-hosted server with its own strict
subset): openai's rules without the size limits and the format list, no recursion (anthropic's
SM-34) and a stricter depth limit, 4 levels instead of 10. :class:`AcmeAdapter` is the reference
strictify and codec run in it; the others are what a user gets wrong.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Collection
from typing import ClassVar

from strictconformance.dialects import OPENAI, Dialect, Limits, StrictRule
from strictconformance.dialects.catalogue import rule
from strictconformance.reference import ReferenceAdapter

ACME_DEPTH = 4
_DROPPED = frozenset({"SM-21", "SM-22", "SM-23", "SM-24", "SM-25", "SM-31"})

ACME = Dialect(
    name="acme",
    description="Acme's self-hosted strict subset: openai's rules without size limits or formats, no recursion, depth 4",
    rules=(
        *(kept for kept in OPENAI.rules if kept.id not in _DROPPED),
        rule("SM-21", limit=ACME_DEPTH, source="https://acme.invalid/docs/strict#limits"),
        rule("SM-34", source="https://acme.invalid/docs/strict#recursion"),
    ),
    encoding=dataclasses.replace(OPENAI.encoding, formats=None, recursion="unroll", unroll_depth=2),
    limits=Limits(max_depth=ACME_DEPTH, source="https://acme.invalid/docs/strict#limits"),
    source="https://acme.invalid/docs/strict",
)


class AcmeAdapter(ReferenceAdapter):
    """The reference implementation, with acme beside the shipped dialects it checks (openai):
    declaring it is all it takes (the reference strictify looks declared dialects up by name)."""

    dialects: ClassVar[Collection[Dialect]] = (ACME,)
    strictify_dialects: ClassVar[Collection[str]] = ("openai", "acme")


class AcmeOnly(AcmeAdapter):
    """Checks acme alone (the shipped dialects are then not covered)."""

    strictify_dialects = ("acme",)


class AcmeWithOpenAIDepth(AcmeAdapter):
    """An SDK that copied openai's limits for acme: strictify keeps 10 levels where acme allows 4
    (SM-21 in acme). Its codec goes with its strict schemas, so the round trip holds."""

    def _dialect(self, name: str) -> str | Dialect:
        if name == "acme":
            return dataclasses.replace(ACME, limits=dataclasses.replace(ACME.limits, max_depth=OPENAI.limits.max_depth))
        return name


# -- declarations the suite refuses at start-up ----------------------------------------------------


class UnknownDialectName(ReferenceAdapter):
    """Names a dialect the kit does not ship and the adapter does not declare."""

    strictify_dialects = ("openai", "no-such-provider")


class NameInsteadOfDialect(ReferenceAdapter):
    """Declares its dialect by name instead of as a Dialect object."""

    dialects = ("acme",)  # type: ignore[assignment]
    strictify_dialects = ("acme",)


class ShippedNameClash(ReferenceAdapter):
    """Declares a variant of openai under the shipped name."""

    dialects = (dataclasses.replace(OPENAI, limits=Limits(max_depth=3)),)
    strictify_dialects = ("openai",)


class TwoAcmes(AcmeAdapter):
    """Declares two different dialects named acme."""

    dialects = (ACME, dataclasses.replace(ACME, description="another"))


class DeclaredButNotListed(AcmeAdapter):
    """Declares acme but does not list it in strictify_dialects (its checks would never run)."""

    strictify_dialects = ("openai",)


class RuleOutsideTheCatalogue(ReferenceAdapter):
    """A dialect with a rule ID the catalogue (and so the report) does not know."""

    dialects = (dataclasses.replace(ACME, name="acme-extra", rules=(
        *ACME.rules,
        StrictRule("SM-99", "TooManyBranches", "max_depth", "Few branches", "A made-up rule", "tests", {"limit": 2}),
    )),)
    strictify_dialects = ("acme-extra",)

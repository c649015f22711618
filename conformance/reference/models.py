"""The reference's curated table of strict-capable models (SPEC.md RES-14), as data.

Each entry is a pattern over the model id (after an aggregator's ``family/`` prefix, if any) and
the dialect it pins. An SDK can import :data:`CURATED_STRICT_MODELS` or pass its own table to
:func:`strictconformance.reference.resolution.resolve_strict_support`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

__all__ = ["CURATED_STRICT_MODELS", "CuratedEntry", "match_curated"]

_SOURCE = "SPEC.md RES-14; seeds/001_a8232e1f5698aa8c.txt ('Wiring up the curated table')"


@dataclass(frozen=True)
class CuratedEntry:
    """Model ids matching ``pattern`` (a full match) are strict-capable in ``dialect``."""

    dialect: str
    pattern: re.Pattern[str]
    note: str
    source: str = _SOURCE


_DATE = r"(?:-\d{4}-\d{2}-\d{2}|-\d{8})?"

CURATED_STRICT_MODELS: tuple[CuratedEntry, ...] = (
    # gpt-4o-2024-05-13, the first gpt-4o snapshot, predates Structured Outputs.
    CuratedEntry("openai", re.compile(r"gpt-4o(?:-mini)?(?!-2024-05-13)" + _DATE), "gpt-4o and gpt-4o-mini"),
    CuratedEntry("openai", re.compile(r"gpt-4\.1(?:-mini|-nano)?" + _DATE), "gpt-4.1 family"),
    CuratedEntry("openai", re.compile(r"gpt-5(?:\.\d+)?(?:-[a-z]+)*" + _DATE), "gpt-5 family"),
    # o1-mini and o1-preview never had tools; o1, o3 and o4 families do.
    CuratedEntry("openai", re.compile(r"(?:o1|o3(?:-mini|-pro)?|o4-mini)" + _DATE), "o-series with tools"),
    CuratedEntry("anthropic", re.compile(r"claude-(?:sonnet|opus|haiku)-4(?:[-.]\d)?" + _DATE), "Claude 4 and 4.x"),
    CuratedEntry(
        "anthropic",
        re.compile(r"(?:(?:us|eu|apac|global)\.)?anthropic\.claude-(?:sonnet|opus|haiku)-4(?:-\d)?-\d{8}-v\d+:\d+"),
        "Claude 4 and 4.x on AWS Bedrock",
    ),
    CuratedEntry("google", re.compile(r"gemini-(?:[2-9]|\d{2,})(?:\.\d+)?(?:-[a-z0-9.]+)*"), "Gemini 2.0 and later"),
)

_AGGREGATOR_PREFIX = re.compile(r"^(openai|anthropic|google)/(.+)$")


def match_curated(model_id: str, table: tuple[CuratedEntry, ...] = CURATED_STRICT_MODELS) -> CuratedEntry | None:
    """The entry that marks ``model_id`` strict-capable, if any.

    An aggregator id such as ``openai/gpt-4o`` matches when the part after the prefix matches an
    entry of the family the prefix names.
    """
    prefixed = _AGGREGATOR_PREFIX.match(model_id)
    family, bare_id = (prefixed[1], prefixed[2]) if prefixed else (None, model_id)
    for entry in table:
        if (family is None or entry.dialect == family) and entry.pattern.fullmatch(bare_id):
            return entry
    return None

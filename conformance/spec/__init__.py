"""The rules the suite encodes, as data, and the specification that states them.

The specification ships with the kit: :func:`spec_text` gives ``strictconformance/spec/SPEC.md``,
:func:`spec_section` one of its sections. Every rule of it has one :class:`Rule` here: its public ID (``RES-1``, ``BUD-4``,
``SM-03``, ``RT-5``, ``DR-2``, ``TL-3``...), a one-line title, the normative statement, where it
comes from, and the adapter capabilities a check of it needs. Checks, the report and the docs
read rules from here; nothing else restates them.

Each area keeps its rules in its own module (``resolution``, ``strict``, ``drift``, ``tools``)
as a tuple named ``RULES``; :func:`all_rules` gathers them.
"""

from __future__ import annotations

import importlib
import re
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from importlib import resources

__all__ = ["AREAS", "DOCS_URL", "SPEC_RESOURCE", "Rule", "all_rules", "get_rule", "rule_sort_key", "rule_url", "spec_section",
           "spec_text"]

#: Where the specification is in the installed package (rules' ``source`` fields name it).
SPEC_RESOURCE = "strictconformance/spec/SPEC.md"

#: The documentation site (``site_url`` in mkdocs.yml; tests/test_docs.py keeps the two equal). Every
#: link the kit prints or writes to a rule's page is made from it by :func:`rule_url`.
DOCS_URL = "https://strictconformance.github.io/strictconformance/"

#: Area prefix -> (SPEC.md section, module holding its rules).
AREAS: Mapping[str, tuple[str, str]] = {
    "RES": ("§1 Strict resolution", "resolution"),
    "BUD": ("§2 Per-request budgets", "resolution"),
    "SM": ("§3 Dialects and the strict rule catalogue", "strict"),
    "RT": ("§4 Strictify and the round trip", "strict"),
    "DR": ("§5 Drift detection", "drift"),
    "TL": ("§6 Tool definition and invocation", "tools"),
}

_ID = re.compile(r"^(?P<area>[A-Z]+)-(?P<num>\d+)$")


@dataclass(frozen=True)
class Rule:
    """One rule of the specification.

    ``capabilities`` names the adapter methods a check of this rule calls; when the adapter
    overrides none of them the rule is reported as "not covered", never as passed.
    """

    id: str
    title: str
    statement: str
    source: str
    capabilities: tuple[str, ...]

    def __post_init__(self) -> None:
        match = _ID.match(self.id)
        if match is None or match["area"] not in AREAS:
            raise ValueError(f"rule id {self.id!r} is not of the form AREA-N with AREA in {sorted(AREAS)}")
        if not self.capabilities:
            raise ValueError(f"rule {self.id} names no adapter capability")

    @property
    def area(self) -> str:
        return self.id.split("-", 1)[0]

    @property
    def section(self) -> str:
        return AREAS[self.area][0]


def rule_sort_key(rule_id: str) -> tuple[int, int, str]:
    """Order IDs as SPEC.md does: by area, then numerically (RES-2 before RES-10)."""
    match = _ID.match(rule_id)
    if match is None:
        return (len(AREAS), 0, rule_id)
    return (list(AREAS).index(match["area"]) if match["area"] in AREAS else len(AREAS), int(match["num"]), rule_id)


@cache
def all_rules() -> Mapping[str, Rule]:
    """Every rule, keyed by ID, in SPEC order. Raises if two modules define the same ID."""
    found: dict[str, Rule] = {}
    for module_name in dict.fromkeys(module for _, module in AREAS.values()):
        try:
            module = importlib.import_module(f"{__name__}.{module_name}")
        except ModuleNotFoundError as exc:
            if exc.name != f"{__name__}.{module_name}":
                raise
            continue  # an area not built yet contributes no rules
        for rule in module.RULES:
            if rule.id in found:
                raise ValueError(f"rule {rule.id} is defined twice")
            found[rule.id] = rule
    return {rule_id: found[rule_id] for rule_id in sorted(found, key=rule_sort_key)}


def rule_url(rule_id: str) -> str:
    """The stable address of a rule's page on the documentation site (``<site>/rules/SM-27/``)."""
    if _ID.match(rule_id) is None:
        raise ValueError(f"{rule_id!r} is not a rule ID (AREA-N)")
    return f"{DOCS_URL}rules/{rule_id}/"


def get_rule(rule_id: str) -> Rule:
    try:
        return all_rules()[rule_id]
    except KeyError:
        raise KeyError(f"unknown rule id {rule_id!r}; known: {', '.join(all_rules())}") from None


def spec_text() -> str:
    """The specification (``SPEC.md``, shipped as package data)."""
    return resources.files(__name__).joinpath("SPEC.md").read_text(encoding="utf-8")


def spec_section(area_or_rule: str) -> str:
    """The section of the specification for an area (``DR``) or a rule's area (``DR-4``), from its
    heading to the next one of the same level."""
    area = area_or_rule.split("-", 1)[0]
    if area not in AREAS:
        raise KeyError(f"unknown area {area_or_rule!r}; known: {', '.join(AREAS)}")
    number = AREAS[area][0].split()[0].lstrip("§")
    match = re.search(rf"^## {re.escape(number)}\. .*?(?=^## |\Z)", spec_text(), re.MULTILINE | re.DOTALL)
    if match is None:
        raise KeyError(f"the shipped specification has no section §{number} for {area}")
    return match.group(0).rstrip() + "\n"

"""Reference budget allocation (SPEC.md §2): which strict-wanting tools ship strict on a request.

Policy (BUD-3, "greedy fit"): order the tools ``true`` first, then priorities high to low, ties in
declaration order (BUD-2); walk them and ship each strict when it still fits every remaining budget,
else lenient, and go on. Required (``true``) tools that alone exceed a budget are an error (BUD-5).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from strictconformance.reference.errors import StrictPlanError
from strictconformance.spec.resolution import Budget, SchemaCost

__all__ = ["Allocation", "BudgetExceeded", "StrictCandidate", "allocate_strict", "priority_order"]

_BUDGET_WORDS = {
    "max_strict_tools": "strict tools",
    "max_optional_params": "optional parameters",
    "max_union_params": "union-typed parameters",
}


@dataclass(frozen=True)
class StrictCandidate:
    """A tool that wants strict: ``priority`` is ``math.inf`` for ``true``, else its number."""

    name: str
    priority: float
    cost: SchemaCost

    @property
    def required(self) -> bool:
        return self.priority == math.inf


@dataclass(frozen=True)
class Allocation:
    strict: tuple[str, ...]
    lenient: tuple[str, ...]


class BudgetExceeded(StrictPlanError):
    """Required strict tools alone exceed a per-request budget (BUD-5)."""

    def __init__(self, budget_name: str, limit: int, used: int, tools: Sequence[str]) -> None:
        self.budget_name = budget_name
        self.limit = limit
        self.used = used
        self.tools = tuple(tools)
        super().__init__(
            f"the strict=True tools need {used} {_BUDGET_WORDS[budget_name]} but the request allows "
            f"{limit} ({budget_name}); required tools: {', '.join(self.tools)}. "
            "Lower some of them to a priority number, or split the request."
        )


def priority_order(candidates: Sequence[StrictCandidate]) -> list[StrictCandidate]:
    """BUD-2 order: ``true`` first, then high to low; ``sorted`` is stable, so ties keep their order."""
    return sorted(candidates, key=lambda candidate: -candidate.priority)


def _usage(chosen: Sequence[StrictCandidate]) -> dict[str, int]:
    return {
        "max_strict_tools": len(chosen),
        "max_optional_params": sum(candidate.cost.optional_params for candidate in chosen),
        "max_union_params": sum(candidate.cost.union_params for candidate in chosen),
    }


def _over(budget: Budget, usage: dict[str, int]) -> str | None:
    for name in budget.names():
        limit = getattr(budget, name)
        if usage[name] > limit:
            return name
    return None


def allocate_strict(candidates: Sequence[StrictCandidate], budget: Budget | None) -> Allocation:
    """Decide which candidates ship strict under ``budget`` (``None``: no cap, all ship strict)."""
    ordered = priority_order(candidates)
    if budget is None:
        return Allocation(tuple(candidate.name for candidate in ordered), ())
    required = [candidate for candidate in ordered if candidate.required]
    over = _over(budget, _usage(required))
    if over is not None:
        raise BudgetExceeded(over, getattr(budget, over), _usage(required)[over], [c.name for c in required])
    strict: list[StrictCandidate] = []
    lenient: list[StrictCandidate] = []
    for candidate in ordered:
        if candidate.required or _over(budget, _usage([*strict, candidate])) is None:
            strict.append(candidate)
        else:
            lenient.append(candidate)
    return Allocation(tuple(c.name for c in strict), tuple(c.name for c in lenient))

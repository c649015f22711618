"""Errors of the reference implementation."""

from __future__ import annotations

# The contract's (strictconformance.wire): the tool helper and the checks read strict settings too.
from strictconformance.wire import InvalidStrictSetting

__all__ = ["InvalidStrictSetting", "StrictPlanError", "StrictSelectionError"]


class StrictPlanError(ValueError):
    """A request the priority convention refuses to send (base of the selection and budget errors)."""


class StrictSelectionError(StrictPlanError):
    """No candidate model can carry the request's required strict tools (RES-10)."""

"""Errors of the reference implementation."""

from __future__ import annotations

__all__ = ["InvalidStrictSetting", "StrictPlanError", "StrictSelectionError"]


class InvalidStrictSetting(ValueError):
    """A strict setting that is neither a bool, None, nor a finite number > 0."""


class StrictPlanError(ValueError):
    """A request the priority convention refuses to send (base of the selection and budget errors)."""


class StrictSelectionError(StrictPlanError):
    """No candidate model can carry the request's required strict tools (RES-10)."""

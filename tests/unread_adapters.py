"""Drift adapters that ignore response fields, with and without declaring them (``drift_unread``).

Each is the reference validator (``broken_drift.ReferenceLike``) on Anthropic Messages bodies
only, dropping the drift errors inside the fields it ignores, as an SDK whose response types do
not declare them (a loose object passes them through unchecked):

* :class:`IgnoresCacheCreation` ignores ``usage.cache_creation`` and does not say so: DR-2 fails
  there (missed breaking drift).
* :class:`DeclaresCacheCreationUnread` ignores it and declares it unread: DR-2 passes.
* :class:`IgnoresUsageDeclaresOne` ignores all of ``usage`` but declares only
  ``usage.cache_creation``: DR-2 still fails, at the other usage fields only.
* :class:`StopReasonFromUnreadField` returns the stop reason (DR-7) while declaring ``stop_reason``
  unread: DR-7 fails (the SDK does read it).
"""

from __future__ import annotations

from typing import Any

from broken_drift import ReferenceLike
from fidelity_adapters import ParsesFaithfully
from strictconformance.adapter import Adapter
from strictconformance.drift.errors import SchemaDriftError

_SOURCE = "tests/unread_adapters.py: the check drops errors inside it"


class _Ignores(ReferenceLike):
    drift_apis = ("anthropic.messages",)
    check_stream = Adapter.check_stream  # bodies only: the DR-2 draws are the body's fields
    ignored: tuple[str, ...] = ()

    def keep(self, error: SchemaDriftError) -> bool:
        return not any(error.path == field or error.path.startswith(field + ".") for field in self.ignored)


class IgnoresCacheCreation(_Ignores):
    name = "ignores-cache-creation"
    ignored = ("usage.cache_creation",)


class DeclaresCacheCreationUnread(IgnoresCacheCreation):
    name = "declares-cache-creation-unread"
    drift_unread = {"anthropic.messages": {"usage.cache_creation": _SOURCE}}


class IgnoresUsageDeclaresOne(_Ignores):
    name = "ignores-usage-declares-one"
    ignored = ("usage",)
    drift_unread = {"anthropic.messages": {"usage.cache_creation": _SOURCE}}


class StopReasonFromUnreadField(ParsesFaithfully):
    name = "stop-reason-from-unread-field"
    drift_apis = ("anthropic.messages",)
    drift_unread = {"anthropic.messages": {"stop_reason": "tests/unread_adapters.py (wrongly: the parse returns it)"}}

    def read(self, api: str, parsed: Any, payload: Any) -> Any:
        return parsed

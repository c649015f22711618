"""Drift adapters about provider errors and exception chains (issue 11: false alarms of DR-5/DR-6).

Each is the reference validator behind SDK-style errors (``broken_drift.ReferenceLike``), with one
behaviour real SDKs have:

* :class:`RaisesAPIError` raises its API error for an error the provider sent (anthropic-sdk-python
  raises ``APIStatusError`` on ``event: error``; openai-python raises ``APIError`` on a chunk that
  carries ``error``) and declares it in ``api_errors``: conformant, every DR rule passes.
* :class:`UndeclaredAPIError` does the same without declaring it: DR-6 fails, and says to declare it.
* :class:`APIErrorOnEveryResponse` raises its declared API error for responses that carry no
  provider error: DR-1 fails (a recorded real response is rejected).
* :class:`ValueInCause` wraps the validation failure the way SDKs wrap pydantic's
  ``ValidationError``: its own message is generic, the path is in its ``loc``, and the actual value
  is only in the exception it was raised from. DR-5 reads the chain: conformant.
* :class:`PathInCause` keeps even the path in the cause: DR-2/DR-5 read it there.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from broken_drift import ReferenceLike, SDKResponseError, _loc
from strictconformance.drift.errors import DriftReport
from strictconformance.drift.provider_errors import carried_error


class SDKAPIError(Exception):
    """An SDK's error for a provider error (status, error body or error event)."""


class RaisesAPIError(ReferenceLike):
    name = "raises-api-error"
    api_errors = (SDKAPIError,)

    def check_response(self, api: str, payload: Any) -> None:
        if carried_error(payload) is not None:
            raise SDKAPIError(f"the provider returned an error: {payload!r}"[:200])
        super().check_response(api, payload)

    def check_stream(self, api: str, events: Sequence[Any]) -> None:
        if carried_error(events=events) is not None:
            raise SDKAPIError("the provider sent an error event")
        super().check_stream(api, events)


class UndeclaredAPIError(RaisesAPIError):
    name = "undeclared-api-error"
    api_errors = ()


class APIErrorOnEveryResponse(ReferenceLike):
    name = "api-error-on-every-response"
    api_errors = (SDKAPIError,)

    def check_response(self, api: str, payload: Any) -> None:
        raise SDKAPIError("500 Internal Server Error")


class _Wrapped(SDKResponseError):
    """The SDK's own error: a generic message, raised from the validation error that says more."""


class ValueInCause(ReferenceLike):
    name = "value-in-cause"

    def _finish(self, report: DriftReport, api: str, payload: Any) -> None:
        for error in report.errors:
            try:
                raise ValueError(str(error))  # what the validation library says, actual value included
            except ValueError as cause:
                raise _Wrapped("the response did not match the expected schema", _loc(error.path)) from cause


class PathInCause(ReferenceLike):
    name = "path-in-cause"

    def _finish(self, report: DriftReport, api: str, payload: Any) -> None:
        for error in report.errors:
            try:
                raise SDKResponseError(str(error), _loc(error.path))
            except SDKResponseError as cause:
                raise _Wrapped("could not parse the response", ()) from cause

    def drift_error_path(self, error: BaseException) -> Any:
        loc = getattr(error, "loc", None)
        return loc or None


class WrongPathInCause(PathInCause):
    """Keeps the path in the cause, and it is the parent's: read through the chain, DR-2 fails
    (a kit that read only the outer error would see no path and check none)."""

    name = "wrong-path-in-cause"

    def _finish(self, report: DriftReport, api: str, payload: Any) -> None:
        for error in report.errors:
            try:
                raise SDKResponseError(str(error), _loc(error.path)[:-1] or ("nowhere",))
            except SDKResponseError as cause:
                raise _Wrapped("could not parse the response", ()) from cause

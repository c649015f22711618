"""What a tool invocation produces: progress events, one final result, and the context it sees.

The shapes here are shared by the kit's own tool helper and by adapters for other SDKs: an
adapter reads its SDK's output back into :class:`ToolInvocation` so the TL checks can judge it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any, Generic, Literal, TypeVar

__all__ = [
    "ToolContext",
    "ToolEvent",
    "ToolInvocation",
    "ToolResult",
    "ToolReturn",
    "ToolStatus",
    "result_content",
]

ToolStatus = Literal["success", "error"]

T = TypeVar("T")


@dataclass(frozen=True)
class ToolContext:
    """What a tool that opted in (``context=True``) receives besides its input.

    ``invocation_state`` is the mapping the caller passed to the invocation, the same object
    (not a copy): tools may use it to share state with the caller. The context never appears in
    the advertised input schema (SPEC TL-5).
    """

    tool_use_id: str
    tool_name: str
    invocation_state: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class ToolReturn(Generic[T]):
    """Yield this as the last item of a generator callback to give the tool's final value.

    Python async generators cannot ``return`` a value, so a streaming callback says what its
    result is by yielding ``ToolReturn(value)``; the stream ends there (the generator is closed,
    its ``finally`` blocks run). A sync generator may instead ``return value``. A generator that
    ends without either gives a success result whose value is ``None``.
    """

    value: T


@dataclass(frozen=True)
class ToolEvent:
    """One progress item a streaming callback yielded, in order (``index`` counts from 0)."""

    tool_use_id: str
    index: int
    data: Any


def result_content(value: Any) -> str:
    """The text a model sees for a success value: a ``str`` as is, anything else as JSON."""
    if isinstance(value, str):
        return value
    return json.dumps(value, ensure_ascii=False, allow_nan=False)


@dataclass(frozen=True)
class ToolResult:
    """The one final result of an invocation.

    On success ``value`` is the callback's final value in JSON-compatible form (pydantic models,
    dataclasses, datetimes... converted as pydantic serialises them to JSON) and ``content`` is
    :func:`result_content` of it. On error ``value`` is None, ``error_type`` is the exception
    class's qualified name (``ToolInputError`` for invalid input, ``ToolOutputError`` for a final
    value that is not JSON), ``error_message`` its message, ``content`` is
    ``"<error_type>: <error_message>"``, and for invalid input ``error_field`` is the JSON pointer
    of the first failing field. ``exception`` keeps the exception object for debugging.
    """

    tool_use_id: str
    status: ToolStatus
    content: str
    value: Any = None
    error_type: str | None = None
    error_message: str | None = None
    error_field: str | None = None
    exception: BaseException | None = field(default=None, compare=False, repr=False)

    @property
    def ok(self) -> bool:
        return self.status == "success"

    def as_json(self) -> dict[str, Any]:
        """A JSON-compatible view (for reports and counterexamples)."""
        out: dict[str, Any] = {"tool_use_id": self.tool_use_id, "status": self.status, "content": self.content}
        if self.status == "success":
            out["value"] = self.value
        else:
            out.update(error_type=self.error_type, error_message=self.error_message)
            if self.error_field is not None:
                out["error_field"] = self.error_field
        return out


@dataclass(frozen=True)
class ToolInvocation:
    """Everything one invocation produced, as the caller (or an adapter) observed it.

    ``results`` holds every final result emitted, so a layer that emits none or two is visible;
    a conforming layer emits exactly one, available as :attr:`result`.
    """

    events: tuple[ToolEvent, ...]
    results: tuple[ToolResult, ...]

    @property
    def result(self) -> ToolResult:
        if len(self.results) != 1:
            raise ValueError(f"expected exactly one final result, the invocation produced {len(self.results)}")
        return self.results[0]

    @property
    def status(self) -> ToolStatus:
        return self.result.status

    @property
    def value(self) -> Any:
        return self.result.value

    def as_json(self) -> dict[str, Any]:
        return {
            "events": [repr(event.data) for event in self.events],
            "results": [result.as_json() for result in self.results],
        }

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
    "invocation_problem",
    "result_content",
]

ToolStatus = Literal["success", "error"]

#: The statuses a :class:`ToolResult` may have.
TOOL_STATUSES: tuple[ToolStatus, ...] = ("success", "error")

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
    """Everything one invocation emitted, in the order it emitted it.

    ``outputs`` is one ordered sequence of :class:`ToolEvent` progress items and
    :class:`ToolResult` final results, exactly as the caller saw them, so a layer that emits its
    result before (or between) its events, no result or two is visible. A conforming layer emits
    its events in order and then exactly one result, last (TL-4). :attr:`events` and
    :attr:`results` are views of ``outputs`` by type; :attr:`result` is the one result.
    """

    outputs: tuple[ToolEvent | ToolResult, ...]

    @property
    def events(self) -> tuple[ToolEvent, ...]:
        """The progress events, in order."""
        return tuple(item for item in self.outputs if isinstance(item, ToolEvent))

    @property
    def results(self) -> tuple[ToolResult, ...]:
        """Every final result emitted, in order (a conforming layer emits exactly one)."""
        return tuple(item for item in self.outputs if isinstance(item, ToolResult))

    @property
    def result(self) -> ToolResult:
        results = self.results
        if len(results) != 1:
            raise ValueError(f"expected exactly one final result, the invocation produced {len(results)}")
        return results[0]

    @property
    def status(self) -> ToolStatus:
        return self.result.status

    @property
    def value(self) -> Any:
        return self.result.value

    def as_json(self) -> list[dict[str, Any]]:
        """The outputs in order, as JSON (events' data shown as their ``repr``)."""
        return [
            {"event": item.index, "data": repr(item.data)} if isinstance(item, ToolEvent) else {"result": item.as_json()}
            for item in self.outputs
        ]


def _shown(value: object) -> str:
    try:
        text = repr(value)
    except Exception:  # junk may come with a broken __repr__ too
        return f"<{type(value).__name__} whose repr raised>"
    return text if len(text) <= 80 else text[:77] + "..."


def _event_problem(event: ToolEvent) -> str | None:
    raw: Any = event  # typed fields, but an adapter may have put anything in them
    if not isinstance(raw.tool_use_id, str):
        return f"tool_use_id is {_shown(raw.tool_use_id)}, expected the tool-use id (a str)"
    if not isinstance(raw.index, int) or isinstance(raw.index, bool):
        return f"index is {_shown(raw.index)}, expected the event's position (an int from 0)"
    return None


def _result_problem(result: ToolResult) -> str | None:
    raw: Any = result
    if not isinstance(raw.tool_use_id, str):
        return f"tool_use_id is {_shown(raw.tool_use_id)}, expected the tool-use id (a str)"
    if raw.status not in TOOL_STATUSES:
        return f"status is {_shown(raw.status)}, expected 'success' or 'error'"
    if not isinstance(raw.content, str):
        return f"content is {_shown(raw.content)}, expected the text the model sees (a str)"
    for name in ("error_type", "error_message", "error_field"):
        if getattr(raw, name) is not None and not isinstance(getattr(raw, name), str):
            return f"{name} is {_shown(getattr(raw, name))}, expected a str or None"
    return None


def invocation_problem(value: object) -> str | None:
    """Why ``value`` is not a well-formed :class:`ToolInvocation`, or None.

    Checks the form only (types, statuses, ids are strings), never whether the layer behaved: a
    result emitted before an event, or a wrong tool-use id, is the TL checks' business. The
    message says where the junk is, for an adapter author to fix their ``invoke_tool``.
    """
    if not isinstance(value, ToolInvocation):
        return f"returned {type(value).__name__}, expected strictconformance.tools.ToolInvocation(outputs=(events..., result))"
    outputs: Any = value.outputs
    if not isinstance(outputs, (tuple, list)):
        return (f"returned a ToolInvocation whose outputs is {type(outputs).__name__} {_shown(outputs)}, expected a tuple "
                "of ToolEvent and ToolResult in the order the tool emitted them")
    for index, item in enumerate(outputs):
        where = f"outputs[{index}]"
        if isinstance(item, ToolEvent):
            problem = _event_problem(item)
            where += " (a ToolEvent)"
        elif isinstance(item, ToolResult):
            problem = _result_problem(item)
            where += " (a ToolResult)"
        else:
            return f"returned a ToolInvocation whose {where} is {type(item).__name__} {_shown(item)}, expected a ToolEvent or a ToolResult"
        if problem is not None:
            return f"returned a ToolInvocation whose {where} {problem}"
    return None

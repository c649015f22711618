"""The cases the TL checks judge: a tool definition plus what it should do with given input.

Strategies (``strictconformance.strategies.callbacks``) draw these; the checks
(:mod:`strictconformance.tools.oracles`) take one case and a tool layer and decide. Every
callback a case holds records its calls in the case's own :class:`CallLog`, so a check can tell
whether, and with what, the callback ran.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal

from strictconformance.tools.contract import FinalValueConvention, ToolDefinition
from strictconformance.tools.jsonvalue import JSONValue
from strictconformance.tools.results import ToolContext
from strictconformance.tools.shapes import ObjectShape

__all__ = [
    "CallLog",
    "CallbackKind",
    "ContextCase",
    "ContextDirectCallCase",
    "DefaultsCase",
    "DescriptionCase",
    "DirectCallCase",
    "ExtraKeysCase",
    "RaisingCase",
    "RecordedCall",
    "RecordingCase",
    "RefusalCase",
    "ShapeCase",
    "StreamingCase",
    "StrictCase",
]

#: How a callback delivers its outcome.
CallbackKind = Literal["sync", "async", "sync_generator", "async_generator"]


@dataclass(frozen=True)
class RecordedCall:
    """One call of a kit callback: the input it received, its context, any surplus arguments."""

    input: Any
    context: ToolContext | None = None
    surplus: tuple[Any, ...] = ()


@dataclass
class CallLog:
    """The calls of one case's callback, in order. Local to the case, never shared."""

    calls: list[RecordedCall] = field(default_factory=list)

    def record(self, call: RecordedCall) -> None:
        self.calls.append(call)


@dataclass(frozen=True)
class ShapeCase:
    """TL-1: one input shape written as several definitions; all must advertise one schema, which
    validates as ``schema`` (the shape's raw JSON Schema) does."""

    shape: ObjectShape
    schema: Mapping[str, Any]
    definitions: tuple[ToolDefinition, ...]


@dataclass(frozen=True)
class RecordingCase:
    """TL-2: a recording callback, a valid input, and an input invalid at ``invalid_field``."""

    definition: ToolDefinition
    shape: ObjectShape
    log: CallLog
    valid_input: Mapping[str, JSONValue]
    invalid_input: Mapping[str, JSONValue]
    invalid_field: str
    returns: JSONValue


@dataclass(frozen=True)
class RaisingCase:
    """TL-3: a callback that yields ``items_before`` (generators) and then raises."""

    definition: ToolDefinition
    input: Mapping[str, JSONValue]
    kind: CallbackKind
    exception_type: type[Exception]
    message: str
    items_before: tuple[JSONValue, ...]

    @property
    def exception_text(self) -> str:
        return str(self.exception_type(self.message))


@dataclass(frozen=True)
class StreamingCase:
    """TL-4: a callback of ``kind`` that streams ``items`` and gives ``final`` (if ``has_final``)."""

    definition: ToolDefinition
    input: Mapping[str, JSONValue]
    kind: CallbackKind
    convention: FinalValueConvention
    items: tuple[JSONValue, ...]
    final: JSONValue
    has_final: bool


@dataclass(frozen=True)
class ContextCase:
    """TL-5: a tool that opted in to context, and the same tool (same shape, same source) that did not."""

    definition: ToolDefinition
    plain_definition: ToolDefinition
    shape: ObjectShape
    log: CallLog
    plain_log: CallLog
    input: Mapping[str, JSONValue]
    tool_use_id: str
    invocation_state: Mapping[str, JSONValue]

    @property
    def context_parameter(self) -> str | None:
        return self.definition.context if isinstance(self.definition.context, str) else None


@dataclass(frozen=True)
class DirectCallCase:
    """TL-6: a recording tool and a raising tool, both with sync callbacks, called directly."""

    recording: RecordingCase
    raising: RaisingCase


@dataclass(frozen=True)
class ContextDirectCallCase:
    """TL-6 for a tool that opted in to context (TL-5's opt-in): called directly with valid and
    invalid input, once with ``context`` supplied and once without (``None``)."""

    recording: RecordingCase
    context: ToolContext


@dataclass(frozen=True)
class RefusalCase:
    """TL-11: a strict tool over ``shape``; ``expressible`` says whether strict mode can express its
    input schema (every object closed) or not (an open object: a ``dict[str, Any]`` parameter)."""

    definition: ToolDefinition
    shape: ObjectShape
    expressible: bool


@dataclass(frozen=True)
class StrictCase:
    """TL-7: a definition whose strict setting is ``valid`` or not (SPEC §1)."""

    definition: ToolDefinition
    valid: bool


@dataclass(frozen=True)
class DescriptionCase:
    """TL-8: a documented function; its tool's description holds the docstring's summary
    (``summary``, paragraphs joined; at least ``first_paragraph``), never text only its ``Args:``
    section holds (``args_texts``: the header and the parameters' descriptions)."""

    function: Callable[..., Any]
    summary: str
    first_paragraph: str
    args_texts: tuple[str, ...]


@dataclass(frozen=True)
class ExtraKeysCase:
    """TL-9: a recording function tool (defined with ``strict``), a valid input, and an undeclared
    key to add to it."""

    function: Callable[..., Any]
    shape: ObjectShape
    log: CallLog
    valid_input: Mapping[str, JSONValue]
    extra_key: str
    strict: bool | None = None


@dataclass(frozen=True)
class DefaultsCase:
    """TL-10: a function tool whose parameters ``defaults`` have defaults, defined with ``strict``."""

    function: Callable[..., Any]
    shape: ObjectShape | None
    strict: bool | None
    defaults: Mapping[str, JSONValue]

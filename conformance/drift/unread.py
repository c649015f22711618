"""Response fields an SDK does not read: an adapter's ``drift_unread`` declaration.

SPEC §5 DR-2: a missing or retyped field *that an SDK reads* is drift. The shipped shapes say
which fields SDKs in general read (``Field.reads``); one SDK may read fewer: a field its response
types do not declare is passed through untouched or dropped, and its users never see it, so there
is nothing for it to detect there. An adapter declares such fields per API, each with the source
that shows it (the SDK's file and line)::

    drift_unread = {
        "openai.responses": {
            "completed_at": "@effect/ai-openai dist/OpenAiSchema.js:551-563 (Response declares no completed_at)",
            "output[type=function_call].status": "@ai-sdk/openai dist/index.js:5186-5194 (no status)",
            "events[type=response.created].data.sequence_number": "@ai-sdk/openai dist/index.js:4544-4552",
        },
        "anthropic.messages": {"usage.cache_creation": "@ai-sdk/anthropic dist/index.js:830-836"},
    }

Paths are the kit's (:mod:`strictconformance.drift.paths`) with ``[*]`` for any element, never a
position; a stream path starts ``events[*].data``. Where an array holds a discriminated union,
``[type=NAME]`` narrows ``[*]`` to the elements of that variant (the union's discriminator and one
of its known values), and ``events[type=NAME]`` to a stream's events of that type. The path names a
field of the shipped shape; the declaration covers the field and everything inside it.

The breaking mutations of DR-2 and DR-3 (a field dropped, moved, retyped, nulled or emptied) skip a
declared field for that adapter, as they skip ``reads=False`` fields. DR-4 (additive change), DR-5
(invariants and relations) and DR-7 (parse fidelity) are unchanged, and a field DR-7 always
compares (the text, a tool call's id, name and arguments) cannot be declared: the SDK reads it. The
stop reason's and the usage counts' fields (compared only when the SDK returns them) may be; DR-7
then fails an SDK that returns that part all the same (:func:`fidelity_conflicts`).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

from strictconformance.drift.paths import ANY_INDEX, PathPart, parse_path
from strictconformance.drift.shapes import API_IDS, get_shape
from strictconformance.drift.shapes.model import Arr, Keyed, Obj, Tagged, ValueShape

__all__ = [
    "FIDELITY_PATHS",
    "UnreadField",
    "Variant",
    "fidelity_conflicts",
    "parse_unread_path",
    "read_unread",
    "unread_at",
]


@dataclass(frozen=True)
class Variant:
    """The ``[key=value]`` part of an unread path: the array elements of one variant."""

    key: str
    value: str

    def __str__(self) -> str:
        return f"[{self.key}={self.value}]"


#: The parts of an unread path: keys, ``ANY_INDEX`` and :class:`Variant`.
Pattern = tuple[Any, ...]


@dataclass(frozen=True)
class UnreadField:
    """One declared field: its API, its path as written, the SDK source that shows it is not read."""

    api: str
    path: str
    source: str
    parts: Pattern

    @property
    def stream(self) -> bool:
        return bool(self.parts) and self.parts[0] == "events"


_VARIANT = re.compile(r"\[\s*([A-Za-z_][A-Za-z0-9_]*)\s*=\s*([^\]\s]+)\s*\]")


def parse_unread_path(text: str) -> Pattern:
    """The parts of an unread path (``output[type=function_call].status``); ValueError when it is not one."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("an empty path")
    parts: list[Any] = []
    position = 0
    for match in _VARIANT.finditer(text):
        parts.extend(_plain(text[position:match.start()], text))
        parts.append(Variant(match[1], match[2]))
        position = match.end()
    parts.extend(_plain(text[position:], text))
    for part in parts:
        if isinstance(part, int):
            raise ValueError(f"{text!r} names an array position; write [*] (or [type=NAME]) for the elements")
    if not parts or not isinstance(parts[-1], str):
        raise ValueError(f"{text!r} does not end at a field")
    return tuple(parts)


def _plain(segment: str, whole: str) -> tuple[PathPart, ...]:
    segment = segment.strip()
    if segment.startswith("."):
        segment = segment[1:]
    if not segment:
        return ()
    if segment.startswith("/"):
        raise ValueError(f"{whole!r}: write the kit's path syntax (content[*].id), not a JSON Pointer")
    return parse_path(segment)


# -- the shape behind a path ---------------------------------------------------------------------------


def _objects(node: ValueShape) -> list[Obj]:
    if isinstance(node, Obj):
        return [node]
    if isinstance(node, (Tagged, Keyed)):
        return list(node.merged.values())
    return []


def _variant(union: ValueShape, part: Variant, text: str) -> Obj:
    if not isinstance(union, Tagged):
        raise ValueError(f"{text!r}: {part} narrows a discriminated union, and the elements there are not one")
    if union.discriminator != part.key:
        raise ValueError(f"{text!r}: the union there is discriminated by {union.discriminator!r}, not {part.key!r}")
    if part.value not in union.merged:
        raise ValueError(f"{text!r}: {part.value!r} is not a known variant there; known: {', '.join(union.merged)}")
    return union.merged[part.value]


def _walk(api: str, parts: Pattern, text: str) -> None:
    """Raise ValueError unless ``parts`` names a field of the shipped shape of ``api``."""
    shape = get_shape(api)
    nodes: list[ValueShape]
    rest = parts
    if parts and parts[0] == "events":
        if len(parts) < 4 or parts[2] != "data":
            raise ValueError(f"{text!r}: a stream path starts events[*].data (or events[type=NAME].data) and names a field")
        head = parts[1]
        if isinstance(head, Variant):
            nodes = [_variant(shape.stream.event, head, text)]
        elif head is ANY_INDEX:
            nodes = [shape.stream.event]
        else:
            raise ValueError(f"{text!r}: a stream path starts events[*].data")
        rest = parts[3:]
    else:
        nodes = [shape.response]
    for index, part in enumerate(rest):
        where = _text(rest[:index]) or "the root"
        if isinstance(part, str):
            fields = [o.by_name[part] for node in nodes for o in _objects(node) if part in o.by_name]
            if not fields:
                raise ValueError(f"{text!r}: {part!r} is not a field of the shipped {api} shape at {where}")
            nodes = [f.shape for f in fields]
        elif part is ANY_INDEX:
            nodes = [node.items for node in nodes if isinstance(node, Arr)]
            if not nodes:
                raise ValueError(f"{text!r}: [*] where the shape has no array ({where})")
        elif isinstance(part, Variant):
            arrays = [node.items for node in nodes if isinstance(node, Arr)]
            if not arrays:
                raise ValueError(f"{text!r}: {part} where the shape has no array ({where})")
            nodes = [_variant(items, part, text) for items in arrays]
        else:  # pragma: no cover - parse_unread_path refuses positions
            raise ValueError(f"{text!r}: unexpected part {part!r}")


def _text(parts: Pattern) -> str:
    out = ""
    for part in parts:
        out += (f".{part}" if out else part) if isinstance(part, str) else ("[*]" if part is ANY_INDEX else str(part))
    return out


# -- what DR-7 reads ---------------------------------------------------------------------------------------

_CHAT = {
    "text": ("choices[*].message.content", "events[*].data.choices[*].delta.content"),
    "tool_calls": ("choices[*].message.tool_calls[*].id", "choices[*].message.tool_calls[*].function.name",
                   "choices[*].message.tool_calls[*].function.arguments",
                   "events[*].data.choices[*].delta.tool_calls[*].id", "events[*].data.choices[*].delta.tool_calls[*].index",
                   "events[*].data.choices[*].delta.tool_calls[*].function.name",
                   "events[*].data.choices[*].delta.tool_calls[*].function.arguments"),
    "stop_reason": ("choices[*].finish_reason", "events[*].data.choices[*].finish_reason"),
    "usage": ("usage.prompt_tokens", "usage.completion_tokens", "events[*].data.usage.prompt_tokens",
              "events[*].data.usage.completion_tokens"),
}


def _responses() -> dict[str, tuple[str, ...]]:
    body = {
        "text": ("output[type=message].content[type=output_text].text",),
        "tool_calls": ("output[type=function_call].call_id", "output[type=function_call].name", "output[type=function_call].arguments"),
        "stop_reason": ("status",),
        "usage": ("usage.input_tokens", "usage.output_tokens"),
    }
    final = ("response.completed", "response.incomplete", "response.failed")
    return {part: (*paths, *(f"events[type={name}].data.response.{path}" for name in final for path in paths))
            for part, paths in body.items()}


#: The fields DR-7's normalized form is read from (:mod:`strictconformance.drift.fidelity`), per API
#: and per part: ``text`` and ``tool_calls`` are always compared, ``stop_reason`` and ``usage`` only
#: when the SDK returns them.
FIDELITY_PATHS: Mapping[str, Mapping[str, tuple[str, ...]]] = {
    **{api: _CHAT for api in ("openai.chat", "groq.chat", "cerebras.chat", "cloudflare.chat")},
    "openai.responses": _responses(),
    "anthropic.messages": {
        "text": ("content[type=text].text", "events[type=content_block_start].data.content_block.text",
                 "events[type=content_block_delta].data.delta.text"),
        "tool_calls": ("content[type=tool_use].id", "content[type=tool_use].name", "content[type=tool_use].input",
                       "events[type=content_block_start].data.content_block.id", "events[type=content_block_start].data.content_block.name",
                       "events[type=content_block_start].data.content_block.input",
                       "events[type=content_block_delta].data.delta.partial_json"),
        "stop_reason": ("stop_reason", "events[type=message_delta].data.delta.stop_reason"),
        "usage": ("usage.input_tokens", "usage.output_tokens", "events[type=message_start].data.message.usage.input_tokens",
                  "events[type=message_start].data.message.usage.output_tokens", "events[type=message_delta].data.usage.output_tokens",
                  "events[type=message_delta].data.usage.input_tokens"),
    },
    "gemini.generate_content": {
        "text": ("candidates[*].content.parts[*].text", "events[*].data.candidates[*].content.parts[*].text"),
        "tool_calls": tuple(f"{prefix}candidates[*].content.parts[*].functionCall.{key}"
                            for prefix in ("", "events[*].data.") for key in ("name", "args", "id")),
        "stop_reason": ("candidates[*].finishReason", "promptFeedback.blockReason", "events[*].data.candidates[*].finishReason",
                        "events[*].data.promptFeedback.blockReason"),
        "usage": ("usageMetadata.promptTokenCount", "usageMetadata.candidatesTokenCount",
                  "events[*].data.usageMetadata.promptTokenCount", "events[*].data.usageMetadata.candidatesTokenCount"),
    },
}
#: DR-7 parts compared whatever the SDK returns: their fields are read, never declarable as unread.
ALWAYS_COMPARED = ("text", "tool_calls")


def _parts_meet(a: Any, b: Any) -> bool:
    if isinstance(a, str) or isinstance(b, str):
        return bool(a == b)
    if isinstance(a, Variant) and isinstance(b, Variant):
        return a.key != b.key or a.value == b.value
    return True  # [*] meets [*] and any variant


def _overlap(declared: Pattern, read: Pattern) -> bool:
    """Whether one path lies inside the other (or they are the same field)."""
    shorter = min(len(declared), len(read))
    return all(_parts_meet(a, b) for a, b in zip(declared[:shorter], read[:shorter], strict=True))


@cache
def _fidelity_patterns(api: str, part: str) -> tuple[tuple[str, Pattern], ...]:
    return tuple((path, parse_unread_path(path)) for path in FIDELITY_PATHS.get(api, {}).get(part, ()))


def fidelity_conflicts(fields: Sequence[UnreadField], api: str, part: str) -> list[tuple[UnreadField, str]]:
    """The declared fields of ``api`` that cover (or lie inside) a field DR-7 reads ``part`` from."""
    return [(declared, path) for declared in fields if declared.api == api
            for path, pattern in _fidelity_patterns(api, part) if _overlap(declared.parts, pattern)]


# -- reading the declaration ---------------------------------------------------------------------------


def read_unread(value: Mapping[str, Mapping[str, str]], drift_apis: Sequence[str]) -> tuple[UnreadField, ...]:
    """The declaration ``{api: {path: source}}`` checked against the shipped shapes; ValueError
    naming the problem (an API not declared in drift_apis, a path that is not a field of the
    shape, a field DR-7 always reads, a missing source)."""
    out: list[UnreadField] = []
    for api, fields in value.items():
        if api not in API_IDS:
            raise ValueError(f"unknown API {api!r}; known: {', '.join(API_IDS)}")
        if api not in drift_apis:
            raise ValueError(f"{api!r} is not in drift_apis ({', '.join(drift_apis) or 'none'}): its responses are not checked")
        if not isinstance(fields, Mapping):
            raise ValueError(f"{api!r} must map field paths to sources, got {fields!r}")
        for path, source in fields.items():
            if not isinstance(path, str) or not isinstance(source, str) or not source.strip():
                raise ValueError(f"{api} {path!r}: each field path needs a source, a non-empty string (the SDK's file:line "
                                 f"showing it is not read), got {source!r}")
            parts = parse_unread_path(path)
            _walk(api, parts, path)
            field = UnreadField(api, path, source, parts)
            for part in ALWAYS_COMPARED:
                clash = fidelity_conflicts((field,), api, part)
                if clash:
                    raise ValueError(f"{api} {path!r}: DR-7 reads the {part.replace('_', ' ')} from {clash[0][1]}, so the SDK "
                                     "reads that field: it cannot be declared unread")
            out.append(field)
    return tuple(out)


def _element_variant(element: Any, key: str) -> Any:
    if not isinstance(element, dict):
        return None
    if key in element:
        return element[key]
    data = element.get("data")  # a stream event {"event", "data"}: its data's type
    return data.get(key) if isinstance(data, dict) else None


def unread_at(fields: Sequence[UnreadField], api: str, document: Any, path: Sequence[PathPart]) -> UnreadField | None:
    """The declared field of ``api`` that ``path`` (a concrete path into ``document``, a body or
    the stream document ``{"events": [...]}``) is, or lies inside; None when there is none."""
    for declared in fields:
        if declared.api != api or len(declared.parts) > len(path):
            continue
        node = document
        for part, concrete in zip(declared.parts, path, strict=False):
            if isinstance(part, str):
                if concrete != part:
                    break
            else:
                if not isinstance(concrete, int) or not isinstance(node, list) or not -len(node) <= concrete < len(node):
                    break
                if isinstance(part, Variant) and _element_variant(node[concrete], part.key) != part.value:
                    break
            node = _step(node, concrete)
        else:
            return declared
    return None


def _step(node: Any, key: PathPart) -> Any:
    """``node[key]``, or None where there is no such key or position."""
    if isinstance(node, dict):
        return node.get(key) if isinstance(key, str) else None
    if isinstance(node, list) and isinstance(key, int) and -len(node) <= key < len(node):
        return node[key]
    return None

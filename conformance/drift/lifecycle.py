"""Streams as state machines: each streaming API's documented event lifecycle, as data.

A :class:`Lifecycle` says which event opens the stream, which opens each block (or output item,
or tool call), which events may follow for an open index, what closes it, which fragments must
join into JSON, and what ends the stream. :func:`lifecycle_breaches` reads a stream document
(``{"events": [{"event", "data"}, ...]}``, :func:`strictconformance.drift.validator.stream_document`)
against it and lists every breach, in stream order, each with its rule and path:

* DR-8: a delta for an index never started (or already stopped), a tool-call argument fragment
  for a call never opened, a block opened twice, argument fragments that do not join into JSON,
  an event after the terminal one, a block never closed, a stream that does not open with its
  start event;
* DR-9: a stream that ends before its terminal event (it was cut short).

A stream that carries a provider error (an ``error`` event) ends early by design: it is judged by
DR-6, not here.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from strictconformance.drift.paths import PathPart, format_path

__all__ = ["LIFECYCLES", "Breach", "Fragment", "Grown", "Lifecycle", "Parts", "Restated", "claimed_by_a_later_event", "lifecycle_breaches", "lifecycle_of"]

_ANTHROPIC_STREAM = "https://docs.anthropic.com/en/docs/build-with-claude/streaming (Event types; Basic streaming request)"
_RESPONSES_STREAM = ("https://platform.openai.com/docs/api-reference/responses-streaming and "
                     "https://platform.openai.com/docs/guides/streaming-responses (response.created ... "
                     "response.output_item.added ... response.output_item.done ... response.completed)")
_CHAT_STREAM = ("https://platform.openai.com/docs/api-reference/chat-streaming/streaming (finish_reason on the last "
                "choice chunk) and https://platform.openai.com/docs/guides/function-calling#streaming (the first "
                "tool_calls fragment of an index carries its id and function.name; arguments fragments follow "
                "and join into the JSON arguments)")
_GEMINI_STREAM = ("https://ai.google.dev/api/generate-content#method:-models.streamgeneratecontent and "
                  "https://ai.google.dev/api/generate-content#FinishReason (finishReason is set on the candidate "
                  "of the last chunk; unset means the model has not stopped generating)")


@dataclass(frozen=True)
class Fragment:
    """Argument fragments that join into one JSON value per index: events of ``event`` (and, when
    given, whose ``kind_path`` value is ``kind``) carry a piece at ``text``."""

    event: str
    text: str
    kind_path: str = ""
    kind: str = ""


@dataclass(frozen=True)
class Grown:
    """An array an event carries as a snapshot that later events fill by position: in events of
    type ``events``, the array at ``array`` (a dotted path in the event's data), whose positions
    the ``index`` field of later events names (``response.created``'s empty ``response.output``,
    then ``response.output_item.added`` at ``output_index`` 0). An element added there takes a
    position a later event claims: the stream then says two things are at one position."""

    events: tuple[str, ...]
    array: str
    index: str


@dataclass(frozen=True)
class Parts:
    """Blocks inside a block (a Responses message item's content parts): ``open`` opens the part
    at (the block's index, ``index``), ``close`` closes it, ``kind`` is where the part's kind is
    in both, and ``events`` name the events that refer to an open part with the kind each needs
    (``response.output_text.delta`` needs an ``output_text`` part)."""

    open: str
    close: str
    index: str
    kind: str
    events: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Restated:
    """Where an event restates blocks already streamed: in events of type ``events``, the array
    at ``array`` (a dotted path in the event's data; ``""`` when the event carries one block at
    ``block``) holds the blocks opened before, each the one opened with the same id
    (:attr:`Lifecycle.block_id`; the one opened at its position when it has none), its kind at
    ``kind``; inside it, each ``(array, kind, index)`` of ``parts`` holds the parts of the
    :class:`Parts` whose ``index`` is that one, the part opened at (*i*, *j*) at position *j*
    (``response.completed``'s ``response.output``; ``response.output_item.done``'s ``item``, its
    ``content`` and its reasoning ``summary``). ``kind`` is empty when the block's own kind is
    compared elsewhere (:attr:`Lifecycle.block_kind`). A block or part restated as another kind than
    it opened as is a stream that contradicts itself: an SDK reading the snapshot sees another item
    than the one streamed."""

    events: tuple[str, ...]
    kind: str = ""
    array: str = ""
    block: str = ""
    parts: tuple[tuple[str, str, str], ...] = ()


@dataclass(frozen=True)
class Lifecycle:
    """One streaming API's event lifecycle.

    Named streams (``framing="named"``): ``opens`` must be the first event (``ignored`` events
    such as ``ping`` aside), ``block_open`` opens the block at ``index``, events that carry
    ``index`` must refer to an open block, ``block_close`` closes it, and one of ``terminal`` ends
    the stream (nothing but ``ignored`` events after it). Data streams (chat, Gemini): a chunk with
    a non-null ``finish`` value ends the stream; chat tool-call fragments (``tool_calls``) are
    opened by the fragment that carries the call's ``id``.
    """

    api: str
    source: str
    opens: str | None = None
    block_open: str | None = None
    block_close: str | None = None
    index: str = "index"
    fragments: tuple[Fragment, ...] = ()
    terminal: tuple[str, ...] = ()
    ignored: tuple[str, ...] = ()
    #: data streams: where a chunk's finish marker is (``choices``/``candidates`` elements' key)
    finish_array: str = ""
    finish_key: str = ""
    #: chat: tool-call fragments keyed by (choice index, tool-call index)
    tool_calls: bool = False
    #: snapshot arrays later events fill by position
    grown: tuple[Grown, ...] = ()
    #: where a block's kind is in both its opening and its closing event (a dotted path): a block
    #: closed as another kind than it opened (an output item added as a function call, done as
    #: something else) is a stream that contradicts itself
    block_kind: str = ""
    #: events that refer to an open block of one kind (``response.function_call_arguments.delta``
    #: needs a ``function_call`` item), the kind read at ``block_kind``
    block_events: tuple[tuple[str, str], ...] = ()
    #: where a block's id is in its opening event (a dotted path): a snapshot's element is matched
    #: to the block opened with its id (positions can have gaps)
    block_id: str = ""
    #: kinds of blocks inside a block (a message item's content parts, a reasoning item's summary parts)
    parts: tuple[Parts, ...] = ()
    #: events that restate blocks (and parts) already streamed
    restated: tuple[Restated, ...] = ()

    @property
    def start_and_stop_events(self) -> frozenset[str]:
        """The event types the lifecycle hangs on: renaming one of them is breaking."""
        named = (self.opens, self.block_open, self.block_close, *self.terminal)
        return frozenset(name for name in named if name)


@dataclass(frozen=True)
class Breach:
    """One place a stream leaves its lifecycle."""

    rule_id: str
    path: str
    expected: str
    actual: str


_ANTHROPIC = Lifecycle(
    api="anthropic.messages",
    source=_ANTHROPIC_STREAM,
    opens="message_start",
    block_open="content_block_start",
    block_close="content_block_stop",
    index="index",
    fragments=(Fragment("content_block_delta", "delta.partial_json", "delta.type", "input_json_delta"),),
    terminal=("message_stop",),
    ignored=("ping",),
    grown=(Grown(("message_start",), "message.content", "index"),),
)
#: a Responses item's parts as its snapshot holds them: (array, kind, the Parts index naming them)
_RESPONSES_PARTS = (("content", "type", "content_index"), ("summary", "type", "summary_index"))
_RESPONSES = Lifecycle(
    api="openai.responses",
    source=_RESPONSES_STREAM,
    opens="response.created",
    block_open="response.output_item.added",
    block_close="response.output_item.done",
    index="output_index",
    block_kind="item.type",
    block_id="item.id",
    block_events=(("response.function_call_arguments.delta", "function_call"), ("response.function_call_arguments.done", "function_call")),
    parts=(Parts("response.content_part.added", "response.content_part.done", "content_index", "part.type",
                 (("response.output_text.delta", "output_text"), ("response.output_text.done", "output_text"),
                  ("response.output_text.annotation.added", "output_text"), ("response.refusal.delta", "refusal"),
                  ("response.refusal.done", "refusal"))),
           Parts("response.reasoning_summary_part.added", "response.reasoning_summary_part.done", "summary_index", "part.type",
                 (("response.reasoning_summary_text.delta", "summary_text"), ("response.reasoning_summary_text.done", "summary_text")))),
    fragments=(Fragment("response.function_call_arguments.delta", "delta"),),
    terminal=("response.completed", "response.incomplete", "response.failed"),
    grown=(Grown(("response.created", "response.in_progress"), "response.output", "output_index"),
           Grown(("response.output_item.added",), "item.content", "content_index")),
    restated=(Restated(("response.completed", "response.incomplete", "response.failed"), "type", array="response.output",
                       parts=_RESPONSES_PARTS),
              Restated(("response.output_item.done",), block="item", parts=_RESPONSES_PARTS)),
)


def _chat(api: str) -> Lifecycle:
    return Lifecycle(api=api, source=_CHAT_STREAM, finish_array="choices", finish_key="finish_reason", tool_calls=True)


#: The lifecycle of every streaming API the kit models.
LIFECYCLES: Mapping[str, Lifecycle] = {
    "anthropic.messages": _ANTHROPIC,
    "openai.responses": _RESPONSES,
    "openai.chat": _chat("openai.chat"),
    "groq.chat": _chat("groq.chat"),
    "cerebras.chat": _chat("cerebras.chat"),
    "cloudflare.chat": _chat("cloudflare.chat"),
    "gemini.generate_content": Lifecycle(api="gemini.generate_content", source=_GEMINI_STREAM,
                                         finish_array="candidates", finish_key="finishReason"),
}


def lifecycle_of(api: str) -> Lifecycle | None:
    return LIFECYCLES.get(api)


def _get(data: Any, dotted: str) -> Any:
    node = data
    for key in dotted.split("."):
        if not isinstance(node, dict):
            return None
        node = node.get(key)
    return node


def _path(*parts: PathPart | str) -> str:
    out: list[PathPart] = []
    for part in parts:
        if isinstance(part, str) and "." in part:
            out.extend(part.split("."))
        else:
            out.append(part)
    return format_path(tuple(out))


def _joins(pieces: list[str]) -> bool:
    text = "".join(pieces)
    if not text.strip():
        return True  # no arguments: the SDKs read {}
    try:
        json.loads(text)
    except ValueError:
        return False
    return True


def _carries_error(entries: list[Any]) -> bool:
    for entry in entries:
        data = entry.get("data") if isinstance(entry, dict) else None
        if isinstance(data, dict) and (data.get("type") == "error" or ("error" in data and data.get("error"))):
            return True
        if isinstance(entry, dict) and entry.get("event") == "error":
            return True
    return False


def lifecycle_breaches(api: str, document: Mapping[str, Any]) -> list[Breach]:
    """Every breach of ``api``'s lifecycle in the stream ``document``, in stream order (a cut
    stream's DR-9 first). Nothing for an API without a lifecycle or a stream carrying an error."""
    lifecycle = lifecycle_of(api)
    entries = document.get("events") or []
    if lifecycle is None or _carries_error(entries):
        return []
    if lifecycle.finish_array:
        return _data_breaches(lifecycle, entries)
    return _named_breaches(lifecycle, entries)


def _named_breaches(lc: Lifecycle, entries: list[Any]) -> list[Breach]:
    out: list[Breach] = []
    opened: dict[int, int] = {}  # index -> position of its opener
    kinds: dict[int, Any] = {}  # index -> its kind as opened (Lifecycle.block_kind)
    ids: dict[Any, int] = {}  # a block's id (Lifecycle.block_id) -> its index
    parts: dict[tuple[str, int, int], list[Any]] = {}  # (Parts.index, index, part) -> [its kind as opened, closed, position]
    closed: set[int] = set()
    pieces: dict[int, list[str]] = {}
    last_piece: dict[int, str] = {}
    ended_at: int | None = None
    started = False
    for position, entry in enumerate(entries):
        data = entry.get("data") if isinstance(entry, dict) else None
        if not isinstance(data, dict) or not isinstance(data.get("type"), str):
            continue
        kind = data["type"]
        if kind in lc.ignored:
            continue
        if ended_at is not None:
            out.append(Breach("DR-8", _path("events", position, "data", "type"),
                              f"no event after the terminal {entries[ended_at]['data']['type']!r}", repr(kind)))
            continue
        if lc.opens is not None:
            if not started and kind != lc.opens:
                out.append(Breach("DR-8", _path("events", position, "data", "type"),
                                  f"the stream to open with {lc.opens!r}", repr(kind)))
            elif started and kind == lc.opens:
                out.append(Breach("DR-8", _path("events", position, "data", "type"),
                                  f"one {lc.opens!r} per stream", f"a second {kind!r}"))
            started = True
        _restated_breaches(lc, data, kind, position, kinds, ids, parts, out)
        if kind in lc.terminal:
            ended_at = position
            continue
        index = data.get(lc.index)
        if not isinstance(index, int) or isinstance(index, bool):
            continue
        where = _path("events", position, "data", lc.index)
        if kind == lc.block_open:
            if index in opened:
                out.append(Breach("DR-8", where, f"{lc.index} {index} opened once", f"a second {kind!r}"))
            opened[index] = position
            if lc.block_kind:
                kinds[index] = _get(data, lc.block_kind)
            block_id = _get(data, lc.block_id) if lc.block_id else None
            if isinstance(block_id, str) and block_id:
                ids.setdefault(block_id, index)
            continue
        if index not in opened or index in closed:
            state = "never started" if index not in opened else "already closed"
            out.append(Breach("DR-8", where, f"an open {lc.index} (after {lc.block_open!r})", f"{kind!r} for {lc.index} {index}, {state}"))
            continue
        needed = dict(lc.block_events).get(kind)
        if needed is not None and kinds.get(index) != needed:
            out.append(Breach("DR-8", _path("events", position, "data", "type"), f"{kind!r} for a {needed!r} {lc.index}",
                              f"{lc.index} {index}, opened as {kinds.get(index)!r}"))
        for kind_of_parts in lc.parts:
            _part_breaches(kind_of_parts, data, kind, index, position, parts, out)
        if kind == lc.block_close:
            closed.add(index)
            if lc.block_kind and _get(data, lc.block_kind) != kinds.get(index):
                out.append(Breach("DR-8", _path("events", position, "data", *lc.block_kind.split(".")),
                                  f"{lc.index} {index} closed as the {kinds.get(index)!r} it opened as", repr(_get(data, lc.block_kind))))
            if index in pieces and not _joins(pieces[index]):
                out.append(Breach("DR-8", last_piece[index], "argument fragments that join into JSON",
                                  f"{''.join(pieces[index])[:80]!r} (not JSON)"))
            continue
        for fragment in lc.fragments:
            if kind == fragment.event and (not fragment.kind_path or _get(data, fragment.kind_path) == fragment.kind):
                text = _get(data, fragment.text)
                if isinstance(text, str):
                    pieces.setdefault(index, []).append(text)
                    last_piece[index] = _path("events", position, "data", fragment.text)
    if entries and ended_at is None:
        out.insert(0, Breach("DR-9", "events", f"the stream to end with one of {list(lc.terminal)}", "a stream cut short"))
        return out
    closes = {p.index: p.close for p in lc.parts}
    for (named, _, part), (_, part_closed, position) in parts.items():
        if not part_closed:
            out.append(Breach("DR-8", _path("events", position, "data", named), f"{closes[named]!r} for {named} {part}",
                              "a part never closed"))
    for index, position in opened.items():
        if index not in closed:
            out.append(Breach("DR-8", _path("events", position, "data", lc.index), f"{lc.block_close!r} for {lc.index} {index}",
                              "a block never closed"))
    return out


def _restated_breaches(lc: Lifecycle, data: dict[str, Any], kind: str, position: int, kinds: dict[int, Any],
                       ids: dict[Any, int], parts: dict[tuple[str, int, int], list[Any]], out: list[Breach]) -> None:
    """The breaches of an event restating blocks already streamed (:class:`Restated`): a block or
    part of another kind than it opened as. Only blocks and parts that were opened are compared
    (one never opened is the lifecycle's other breaches' business)."""
    for restated in lc.restated:
        if kind not in restated.events:
            continue
        if restated.array:
            array = _get(data, restated.array)
            if not isinstance(array, list):
                continue
            blocks: list[tuple[int, Any, tuple[str | int, ...]]] = []
            for number, element in enumerate(array):
                block_id = element.get("id") if isinstance(element, dict) and lc.block_id else None
                opened_as = ids.get(block_id, -1) if isinstance(block_id, str) and block_id else number
                blocks.append((opened_as, element, (restated.array, number)))
        else:
            index = data.get(lc.index)
            if not isinstance(index, int) or isinstance(index, bool):
                continue
            blocks = [(index, _get(data, restated.block), (restated.block,))]
        for number, element, at in blocks:
            if not isinstance(element, dict) or number not in kinds:
                continue
            if restated.kind and element.get(restated.kind) != kinds[number]:
                out.append(Breach("DR-8", _path("events", position, "data", *at, restated.kind),
                                  f"{lc.index} {number} restated as the {kinds[number]!r} it opened as", repr(element.get(restated.kind))))
                continue
            for array_name, part_kind, named in restated.parts:
                inner = element.get(array_name)
                for part, value in enumerate(inner if isinstance(inner, list) else ()):
                    opened = parts.get((named, number, part))
                    if opened is None or not isinstance(value, dict) or value.get(part_kind) == opened[0]:
                        continue
                    out.append(Breach("DR-8", _path("events", position, "data", *at, array_name, part, part_kind),
                                      f"{named} {part} of {lc.index} {number} restated as the {opened[0]!r} it opened as",
                                      repr(value.get(part_kind))))


def _part_breaches(p: Parts, data: dict[str, Any], kind: str, index: int, position: int,
                   parts: dict[tuple[str, int, int], list[Any]], out: list[Breach]) -> None:
    """The breaches of one event of an open block against its parts' lifecycle (``parts``: each
    part's kind as opened, whether it is closed, and where it opened)."""
    needed = dict(p.events).get(kind)
    if kind != p.open and kind != p.close and needed is None:
        return
    number = data.get(p.index)
    if not isinstance(number, int) or isinstance(number, bool):
        return
    key = (p.index, index, number)
    where = _path("events", position, "data", p.index)
    if kind == p.open:
        if key in parts:
            out.append(Breach("DR-8", where, f"{p.index} {number} opened once", f"a second {kind!r}"))
        parts[key] = [_get(data, p.kind), False, position]
        return
    if key not in parts or parts[key][1]:
        state = "never started" if key not in parts else "already closed"
        out.append(Breach("DR-8", where, f"an open {p.index} (after {p.open!r})", f"{kind!r} for {p.index} {number}, {state}"))
        return
    if kind == p.close:
        parts[key][1] = True
        if _get(data, p.kind) != parts[key][0]:
            out.append(Breach("DR-8", _path("events", position, "data", *p.kind.split(".")),
                              f"{p.index} {number} closed as the {parts[key][0]!r} it opened as", repr(_get(data, p.kind))))
        return
    if needed != parts[key][0]:
        out.append(Breach("DR-8", _path("events", position, "data", "type"), f"{kind!r} for a {needed!r} part",
                          f"{p.index} {number}, opened as {parts[key][0]!r}"))


def _data_breaches(lc: Lifecycle, entries: list[Any]) -> list[Breach]:
    out: list[Breach] = []
    finished: set[int] = set()
    seen_finish = False
    opened: set[tuple[int, int]] = set()
    pieces: dict[tuple[int, int], list[str]] = {}
    last_piece: dict[tuple[int, int], str] = {}
    chunks = 0
    for position, entry in enumerate(entries):
        data = entry.get("data") if isinstance(entry, dict) else None
        if not isinstance(data, dict):
            continue
        chunks += 1
        items = data.get(lc.finish_array)
        if not isinstance(items, list):
            if lc.finish_key == "finishReason" and isinstance(_get(data, "promptFeedback.blockReason"), str):
                seen_finish = True  # a blocked prompt: no candidate, the stream ends there
            continue
        for number, item in enumerate(items):
            if not isinstance(item, dict):
                continue
            slot = item.get("index", number) if lc.tool_calls else number
            slot = slot if isinstance(slot, int) and not isinstance(slot, bool) else number
            if slot in finished and _has_content(lc, item):
                out.append(Breach("DR-8", _path("events", position, "data", lc.finish_array, number,
                                                "delta" if lc.tool_calls else "content"),
                                  f"no content after {lc.finish_key}", "content after the stream's finish"))
            if lc.tool_calls:
                delta = item.get("delta")
                calls = delta.get("tool_calls") if isinstance(delta, dict) else None
                for k, call in enumerate(calls if isinstance(calls, list) else ()):
                    if not isinstance(call, dict):
                        continue
                    call_index = call.get("index", k)
                    if not isinstance(call_index, int) or isinstance(call_index, bool):
                        continue
                    key = (slot, call_index)
                    base = ("events", position, "data", lc.finish_array, number, "delta", "tool_calls", k)
                    if key not in opened:
                        if isinstance(call.get("id"), str) and call["id"]:
                            opened.add(key)
                        else:
                            out.append(Breach("DR-8", _path(*base, "index"), "a tool call opened by a fragment with its id",
                                              f"a fragment for tool call {call_index}, never opened"))
                            continue
                    function = call.get("function")
                    text = function.get("arguments") if isinstance(function, dict) else None
                    if isinstance(text, str):
                        pieces.setdefault(key, []).append(text)
                        last_piece[key] = _path(*base, "function", "arguments")
            if item.get(lc.finish_key) is not None:
                finished.add(slot)
                seen_finish = True
    if chunks and not seen_finish:
        out.insert(0, Breach("DR-9", "events", f"a last chunk with {lc.finish_key}", "a stream cut short"))
    for key, parts in pieces.items():
        if not _joins(parts):
            out.append(Breach("DR-8", last_piece[key], "argument fragments that join into JSON", f"{''.join(parts)[:80]!r} (not JSON)"))
    return out


def _has_content(lc: Lifecycle, item: Mapping[str, Any]) -> bool:
    if lc.tool_calls:
        delta = item.get("delta")
        return isinstance(delta, dict) and bool(delta.get("content") or delta.get("tool_calls"))
    content = item.get("content")
    return isinstance(content, dict) and bool(content.get("parts"))


def claimed_by_a_later_event(api: str, data: Sequence[Any], path: Sequence[PathPart]) -> bool:
    """Whether appending an element to the array at ``path`` (``("events", i, "data", ...)``) of a
    stream of ``api`` takes a position a later event fills by index (:class:`Grown`): such an
    element is not an additive change, whatever its type. ``data`` are the stream's events' data,
    parsed (``None`` for an event whose data is not a JSON object)."""
    lifecycle = LIFECYCLES.get(api)
    if lifecycle is None or len(path) < 3 or path[0] != "events" or path[2] != "data" or not isinstance(path[1], int):
        return False
    position = path[1]
    event = data[position]
    if not isinstance(event, dict):
        return False
    rest = ".".join(str(part) for part in path[3:])
    for grown in lifecycle.grown:
        array = _get(event, grown.array)
        if event.get("type") not in grown.events or rest != grown.array or not isinstance(array, list):
            continue
        taken = len(array)
        if any(isinstance(after, dict) and type(after.get(grown.index)) is int and after[grown.index] == taken
               for after in data[position + 1:]):
            return True
    return False

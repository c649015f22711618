"""Server-sent events: the event type adapters receive, and a parser for raw stream bytes.

:class:`SSEEvent` is what ``check_stream`` takes: one dispatched event with its ``event:`` name
(``None`` for data-only streams) and its ``data`` text (multi-line data joined with ``\\n``).
The parser follows the WHATWG rules: ``\\r\\n``, ``\\r`` and ``\\n`` all end lines, comment
lines (``: keep-alive``) are skipped, one space after the colon is dropped, an event is
dispatched on a blank line and only if it has data. It is incremental, so any split of the
bytes into chunks gives the same events.
"""

from __future__ import annotations

import codecs
import json
from collections.abc import Iterable
from dataclasses import dataclass

__all__ = ["SSEEvent", "SSEParser", "format_sse", "parse_sse"]


@dataclass(frozen=True)
class SSEEvent:
    """One server-sent event as dispatched to a client."""

    data: str
    event: str | None = None
    id: str | None = None

    @classmethod
    def of(cls, data: object, event: str | None = None) -> SSEEvent:
        """An event whose data is ``data`` serialised as compact JSON (strings are kept as is)."""
        text = data if isinstance(data, str) else json.dumps(data, separators=(",", ":"), ensure_ascii=False)
        return cls(text, event)


class SSEParser:
    """Incremental SSE parser: :meth:`feed` bytes or text, then :meth:`close`."""

    def __init__(self) -> None:
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._pending = ""
        self._started = False
        self._data: list[str] = []
        self._event: str | None = None
        self._id: str | None = None

    def feed(self, chunk: str | bytes | bytearray) -> list[SSEEvent]:
        text = self._decoder.decode(bytes(chunk)) if isinstance(chunk, (bytes, bytearray)) else chunk
        if not self._started and text:
            self._started = True
            text = text.removeprefix("\ufeff")
        self._pending += text
        return self._drain(final=False)

    def close(self) -> list[SSEEvent]:
        """Flush the rest; an unterminated last event is dispatched (streams often end so)."""
        self._pending += self._decoder.decode(b"", final=True)
        events = self._drain(final=True)
        if self._pending:
            self._line(self._pending, events)
            self._pending = ""
        self._dispatch(events)
        return events

    def _drain(self, *, final: bool) -> list[SSEEvent]:
        events: list[SSEEvent] = []
        text = self._pending
        start = 0
        while True:
            cut = _next_line_end(text, start)
            if cut is None:
                break
            end, after = cut
            if end == len(text) - 1 and text[end] == "\r" and not final:
                break  # a lone \r at the end may be the first half of \r\n
            self._line(text[start:end], events)
            start = after
        self._pending = text[start:]
        return events

    def _line(self, line: str, events: list[SSEEvent]) -> None:
        if not line:
            self._dispatch(events)
            return
        if line.startswith(":"):
            return
        name, colon, value = line.partition(":")
        if colon and value.startswith(" "):
            value = value[1:]
        if name == "data":
            self._data.append(value)
        elif name == "event":
            self._event = value
        elif name == "id" and "\0" not in value:
            self._id = value

    def _dispatch(self, events: list[SSEEvent]) -> None:
        if self._data:
            events.append(SSEEvent("\n".join(self._data), self._event or None, self._id))
        self._data = []
        self._event = None


def _next_line_end(text: str, start: int) -> tuple[int, int] | None:
    """(end of line, start of next line) for the first line break at or after ``start``."""
    best: int | None = None
    for mark in ("\n", "\r"):
        at = text.find(mark, start)
        if at != -1 and (best is None or at < best):
            best = at
    if best is None:
        return None
    if text[best] == "\r" and best + 1 < len(text) and text[best + 1] == "\n":
        return best, best + 2
    return best, best + 1


def parse_sse(source: str | bytes | bytearray | Iterable[str | bytes]) -> tuple[SSEEvent, ...]:
    """Every event in ``source``: the whole stream as text/bytes, or its chunks in order."""
    parser = SSEParser()
    chunks: Iterable[str | bytes | bytearray] = [source] if isinstance(source, (str, bytes, bytearray)) else source
    events: list[SSEEvent] = []
    for chunk in chunks:
        events.extend(parser.feed(chunk))
    events.extend(parser.close())
    return tuple(events)


def format_sse(events: Iterable[SSEEvent]) -> str:
    """The wire text for ``events`` (``event:`` line when named, one ``data:`` line per data line)."""
    out: list[str] = []
    for event in events:
        if event.event is not None:
            out.append(f"event: {event.event}\n")
        if event.id is not None:
            out.append(f"id: {event.id}\n")
        out.extend(f"data: {line}\n" for line in event.data.split("\n"))
        out.append("\n")
    return "".join(out)


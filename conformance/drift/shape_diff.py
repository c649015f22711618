"""Compare the observed shape of two recordings: which paths appeared, vanished or changed type.

A signature maps every path seen in a JSON body to the JSON types seen there. Array positions
collapse to ``[*]``, except that an object element with a string ``type`` is written
``[type=tool_use]`` so variants stay apart. Streams are signed per event type
(``events[message_delta].data.usage.output_tokens``). The walk is iterative and bounded.

This is an informative diff for re-recordings (did the provider add a field? did one vanish?);
whether a difference is *drift* is the validator's call.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass

from strictconformance.drift.errors import describe_type
from strictconformance.drift.sse import SSEEvent
from strictconformance.drift.validator import load_json_text

__all__ = ["ShapeDiff", "Signature", "diff_signatures", "signature", "stream_signature"]

Signature = dict[str, set[str]]

#: Deeper levels are not signed (a tool's arguments can nest without bound).
MAX_DEPTH = 24


def _key_part(path: str, key: str) -> str:
    return f"{path}.{key}" if path else key


def signature(value: object, *, prefix: str = "", into: Signature | None = None) -> Signature:
    """Path -> JSON types for every place in ``value``."""
    out: Signature = {} if into is None else into
    stack: list[tuple[str, object, int]] = [(prefix, value, 0)]
    while stack:
        path, node, depth = stack.pop()
        out.setdefault(path or "<root>", set()).add(describe_type(node))
        if depth >= MAX_DEPTH:
            continue
        if isinstance(node, dict):
            stack.extend((_key_part(path, str(key)), child, depth + 1) for key, child in node.items())
        elif isinstance(node, list):
            for child in node:
                tag = child.get("type") if isinstance(child, dict) else None
                part = f"[type={tag}]" if isinstance(tag, str) else "[*]"
                stack.append((f"{path}{part}", child, depth + 1))
    return out


def stream_signature(events: Iterable[SSEEvent]) -> Signature:
    """Signature of a stream, per event type."""
    out: Signature = {}
    for event in events:
        try:
            data = load_json_text(event.data)
        except ValueError:
            out.setdefault("events[<non-JSON>].data", set()).add("text")
            continue
        name = data.get("type") if isinstance(data, dict) and isinstance(data.get("type"), str) else (event.event or "*")
        signature(data, prefix=f"events[{name}].data", into=out)
    return out


@dataclass(frozen=True)
class ShapeDiff:
    """Paths only in the new recording, only in the old one, and paths whose types changed."""

    added: Mapping[str, frozenset[str]]
    removed: Mapping[str, frozenset[str]]
    retyped: Mapping[str, tuple[frozenset[str], frozenset[str]]]

    @property
    def empty(self) -> bool:
        return not (self.added or self.removed or self.retyped)

    def lines(self) -> list[str]:
        def types(found: frozenset[str]) -> str:
            return "|".join(sorted(found))

        out = [f"+ {path} ({types(t)})" for path, t in sorted(self.added.items())]
        out += [f"- {path} ({types(t)})" for path, t in sorted(self.removed.items())]
        out += [f"~ {path} ({types(old)} -> {types(new)})" for path, (old, new) in sorted(self.retyped.items())]
        return out


def diff_signatures(old: Signature, new: Signature) -> ShapeDiff:
    added = {path: frozenset(types) for path, types in new.items() if path not in old}
    removed = {path: frozenset(types) for path, types in old.items() if path not in new}
    retyped = {
        path: (frozenset(old[path]), frozenset(new[path]))
        for path in old.keys() & new.keys()
        if old[path] != new[path]
    }
    return ShapeDiff(added, removed, retyped)

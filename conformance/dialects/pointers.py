"""JSON pointers (RFC 6901): join, split, resolve. Shared plumbing, not schema semantics."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

__all__ = ["is_under", "join_pointer", "pointer_from_path", "resolve_local_reference", "resolve_pointer", "same_document_reference",
           "split_pointer", "written_before_2019_09"]


def _escape(token: str) -> str:
    return token.replace("~", "~0").replace("/", "~1")


def _unescape(token: str) -> str:
    return token.replace("~1", "/").replace("~0", "~")


def join_pointer(base: str, *tokens: str | int) -> str:
    """``join_pointer("/properties", "a/b")`` -> ``"/properties/a~1b"``."""
    return base + "".join("/" + _escape(str(token)) for token in tokens)


def pointer_from_path(path: Iterable[str | int]) -> str:
    return join_pointer("", *path)


def split_pointer(pointer: str) -> list[str]:
    """Tokens of a pointer; accepts a URI fragment (``#/a/b``) too."""
    if pointer.startswith("#"):
        pointer = pointer[1:]
    if pointer == "":
        return []
    if not pointer.startswith("/"):
        raise ValueError(f"{pointer!r} is not a JSON pointer (it must be empty or start with '/')")
    return [_unescape(token) for token in pointer[1:].split("/")]


def resolve_pointer(document: Any, pointer: str) -> Any:
    """The value at ``pointer``; ``LookupError`` naming the missing token if there is none."""
    node = document
    for token in split_pointer(pointer):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            raise LookupError(f"pointer {pointer!r}: no {token!r} here")
    return node


def is_under(pointer: str, ancestor: str) -> bool:
    """True when ``pointer`` is ``ancestor`` or lies below it."""
    return pointer == ancestor or pointer.startswith(ancestor + "/")


#: The drafts before 2019-09: a plain-name `id`/`$id` ("#name") is an anchor, `dependencies` one keyword
_DRAFTS_BEFORE_2019_09 = ("draft-03", "draft-04", "draft-06", "draft-07")


def written_before_2019_09(document: Any) -> bool:
    """Whether ``document``'s ``$schema`` names draft 03, 04, 06 or 07."""
    declared = document.get("$schema") if isinstance(document, dict) else None
    return isinstance(declared, str) and any(draft in declared for draft in _DRAFTS_BEFORE_2019_09)


def same_document_reference(original: Any, reference: str) -> str | None:
    """``reference`` as a fragment (``#...``) when it names ``original`` itself: it is one, or it
    is an absolute or relative URI that resolves, against the root's ``$id`` (draft 04: ``id``),
    to that same document (``https://example.com/s.json#/$defs/A`` under that ``$id``: JSON
    Schema 2020-12 Core §8.2.1, §8.2.3.1); ``None`` for another document."""
    if reference.startswith("#"):
        return reference
    base = original.get("$id", original.get("id")) if isinstance(original, dict) else None
    if not isinstance(base, str) or not base:
        return None
    from urllib.parse import urldefrag, urljoin

    document, fragment = urldefrag(urljoin(base, reference))
    return "#" + fragment if document == urldefrag(base)[0] else None


def resolve_local_reference(original: Any, reference: str) -> tuple[str, Any] | None:
    """``(pointer, node)`` a local ``$ref`` (``#/json/pointer`` or ``#anchor``, or a URI naming
    this document by its root ``$id``: :func:`same_document_reference`) points at inside
    ``original``; ``None`` when it is external or does not resolve."""
    local = same_document_reference(original, reference)
    if local is None:
        return None
    reference = local
    fragment = reference[1:]
    if fragment and not fragment.startswith("/"):  # an anchor
        older = written_before_2019_09(original)
        stack: list[tuple[str, Any]] = [("", original)]
        while stack:
            pointer, node = stack.pop()
            if isinstance(node, dict):
                # a document in drafts 04 to 07 names a plain-name fragment with `id`/`$id`
                # ("#name"); the older drafts' cases are judged in their own draft
                if fragment in (node.get("$anchor"), node.get("$dynamicAnchor")) or (
                        older and f"#{fragment}" in (node.get("id"), node.get("$id"))):
                    return pointer, node
                stack.extend((join_pointer(pointer, k), v) for k, v in node.items() if isinstance(v, (dict, list)))
            elif isinstance(node, list):
                stack.extend((join_pointer(pointer, i), v) for i, v in enumerate(node))
        return None
    node = original
    for token in split_pointer(fragment):
        if isinstance(node, dict) and token in node:
            node = node[token]
        elif isinstance(node, list) and token.isdigit() and int(token) < len(node):
            node = node[int(token)]
        else:
            return None
    return fragment, node

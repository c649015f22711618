"""Read a tool's description and per-parameter descriptions from a callback's docstring.

Three common styles are understood:

- Google: an ``Args:`` (or ``Arguments:``, ``Parameters:``, ``Params:``) section of
  ``name (type): text`` entries, continuation lines indented deeper;
- NumPy: a ``Parameters`` heading underlined with dashes, ``name : type`` lines, text indented;
- Sphinx/reST: ``:param name: text`` (also ``:param type name: text``) fields.

The tool description is the docstring's text before its first section (``Args:``,
``Returns:``, ``:param``...), paragraphs kept, surrounding whitespace removed.
"""

from __future__ import annotations

import inspect
import re
from dataclasses import dataclass, field

__all__ = ["ParsedDocstring", "parse_docstring"]

_GOOGLE_PARAM_HEADERS = ("args", "arguments", "parameters", "params", "keyword args", "keyword arguments")
_GOOGLE_OTHER_HEADERS = (
    "returns", "return", "yields", "yield", "raises", "raise", "examples", "example", "note", "notes",
    "attributes", "see also", "warning", "warnings", "todo", "references",
)
_GOOGLE_HEADER = re.compile(r"^\s*(?P<name>[A-Za-z][A-Za-z ]*):\s*$")
_NUMPY_UNDERLINE = re.compile(r"^\s*-{3,}\s*$")
_GOOGLE_ENTRY = re.compile(r"^(?P<name>\*{0,2}[A-Za-z_][A-Za-z0-9_]*)\s*(\([^)]*\))?\s*:\s*(?P<text>.*)$")
_NUMPY_ENTRY = re.compile(r"^(?P<name>[A-Za-z_][A-Za-z0-9_]*)(\s*:.*)?$")
_SPHINX_FIELD = re.compile(r"^\s*:(?P<kind>[A-Za-z]+)(?P<rest>[^:]*):\s*(?P<text>.*)$")


@dataclass(frozen=True)
class ParsedDocstring:
    """The summary text and the parameter descriptions found in a docstring."""

    description: str
    params: dict[str, str] = field(default_factory=dict)


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _join(lines: list[str]) -> str:
    return " ".join(part.strip() for part in lines if part.strip())


def _google_params(lines: list[str], start: int, header_indent: int, params: dict[str, str]) -> None:
    name: str | None = None
    text: list[str] = []
    entry_indent: int | None = None
    for line in lines[start:]:
        if not line.strip():
            continue
        if _indent(line) <= header_indent:
            break
        if entry_indent is None:
            entry_indent = _indent(line)
        match = _GOOGLE_ENTRY.match(line.strip())
        if _indent(line) == entry_indent and match:
            if name is not None:
                params[name] = _join(text)
            name, text = match["name"].lstrip("*"), [match["text"]]
        elif name is not None:
            text.append(line)
    if name is not None:
        params[name] = _join(text)


def _numpy_params(lines: list[str], start: int, params: dict[str, str]) -> None:
    name: str | None = None
    text: list[str] = []
    base = None
    for index in range(start, len(lines)):
        line = lines[index]
        if not line.strip():
            continue
        if index + 1 < len(lines) and _NUMPY_UNDERLINE.match(lines[index + 1]):
            break  # the next section's heading
        if base is None:
            base = _indent(line)
        if _indent(line) == base:
            match = _NUMPY_ENTRY.match(line.strip())
            if match is None:
                break
            if name is not None:
                params[name] = _join(text)
            name, text = match["name"], []
        elif name is not None:
            text.append(line)
    if name is not None:
        params[name] = _join(text)


def parse_docstring(doc: str | None) -> ParsedDocstring:
    """Split a docstring into the tool description and ``{parameter: description}``."""
    if not doc:
        return ParsedDocstring(description="")
    lines = inspect.cleandoc(doc).splitlines()
    header = _GOOGLE_HEADER.match(lines[0]) if lines else None
    if header and header["name"].strip().lower() in _GOOGLE_PARAM_HEADERS + _GOOGLE_OTHER_HEADERS:
        # a docstring that opens with its section ('"""Args:'): cleandoc cannot know the header's
        # indentation (it sat on the quotes' line) and dedents the entries level with it
        following = next((line for line in lines[1:] if line.strip()), "")
        if following and _indent(following) == 0 and not _GOOGLE_HEADER.match(following):
            lines = [lines[0], *("    " + line if line.strip() else line for line in lines[1:])]
    params: dict[str, str] = {}
    summary_end = len(lines)
    index = 0
    while index < len(lines):
        line = lines[index]
        nxt = lines[index + 1] if index + 1 < len(lines) else ""
        header = _GOOGLE_HEADER.match(line)
        sphinx = _SPHINX_FIELD.match(line)
        if header and header["name"].strip().lower() in _GOOGLE_PARAM_HEADERS + _GOOGLE_OTHER_HEADERS:
            summary_end = min(summary_end, index)
            if header["name"].strip().lower() in _GOOGLE_PARAM_HEADERS:
                _google_params(lines, index + 1, _indent(line), params)
        elif line.strip() and _NUMPY_UNDERLINE.match(nxt):
            summary_end = min(summary_end, index)
            if line.strip().lower() in ("parameters", "other parameters", "keyword arguments"):
                _numpy_params(lines, index + 2, params)
            index += 1
        elif sphinx:
            summary_end = min(summary_end, index)
            if sphinx["kind"] in ("param", "parameter", "arg", "argument", "key", "keyword"):
                words = sphinx["rest"].split()
                if words:
                    text = [sphinx["text"]]
                    for more in lines[index + 1 :]:
                        if not more.strip() or _SPHINX_FIELD.match(more) or _indent(more) == 0:
                            break
                        text.append(more)
                    params[words[-1]] = _join(text)
        index += 1
    description = "\n".join(lines[:summary_end]).strip()
    return ParsedDocstring(description=description, params={k: v for k, v in params.items() if v})

"""Adapters for the verdict self-tests (tests/test_findings.py): a strictify with three distinct
bugs, one that mutates its input, ones that refuse or crash on everything, ones that reach into the
test run (pytest.skip, pytest.exit, hypothesis.assume) from inside. All declare the openai dialect
only, so a run checks one dialect."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import pytest
from hypothesis import assume

from strictconformance.dialects import Strictified
from strictconformance.reference.adapter import ReferenceAdapter
from strictconformance.reference.strictify import reference_strictify


def _has(node: Any, test: Any) -> bool:
    stack = [node]
    while stack:
        item = stack.pop()
        if isinstance(item, dict):
            if test(item):
                return True
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


def has_enum(schema: Any) -> bool:
    return _has(schema, lambda node: "enum" in node)


def has_array(schema: Any) -> bool:
    return _has(schema, lambda node: node.get("type") == "array" or "array" in (node.get("type") or ()))


def opens_the_root(schema: dict[str, Any]) -> dict[str, Any]:
    """``schema`` without the root's ``additionalProperties`` (SM-03 at the root object)."""
    return {key: value for key, value in schema.items() if key != "additionalProperties"}


class _OpenAI(ReferenceAdapter):
    strictify_dialects = ("openai",)


class ThreeBugs(_OpenAI):
    """Three distinct bugs: ValueError on any ``enum``, KeyError on any array, and (otherwise) the
    root object left open (SM-03)."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        if has_enum(schema):
            raise ValueError("enums are not supported")
        if has_array(schema):
            raise KeyError("items")
        result = reference_strictify(schema, dialect)
        return Strictified(opens_the_root(result.schema), result.losses)


def mutate(schema: Any) -> None:
    """What :class:`MutatesInput` does to its input."""
    if isinstance(schema, dict):
        schema["x-seen"] = True


class MutatesInput(_OpenAI):
    """Marks the caller's schema (RT-2) and otherwise strictifies correctly."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        mutate(schema)
        return result


class Unsupported(Exception):
    """The SDK's own refusal."""


class RefusesEverything(_OpenAI):
    """Refuses every schema with a declared refusal."""

    strictify_refusals = (Unsupported,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        raise Unsupported("this SDK strictifies nothing")


class CrashesOnEverything(_OpenAI):
    """Raises an exception it does not declare on every schema: a crash."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        raise Unsupported("this SDK strictifies nothing")


class SkipsInside(_OpenAI):
    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        pytest.skip("not today")


class ExitsInside(_OpenAI):
    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        pytest.exit("bye")


class AssumesInside(_OpenAI):
    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        assume(False)
        raise AssertionError("unreachable")


class OpensTheRoot(_OpenAI):
    """ThreeBugs' third bug alone."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        result = reference_strictify(schema, dialect)
        return Strictified(opens_the_root(result.schema), result.losses)


class EveryPropertyRequired(_OpenAI):
    """Closes every object and makes every property required, with no null branch (as openai-python's
    ``to_strict_json_schema`` does): an optional recursive property then leaves the strict schema with
    no value at all (RT-8), and RT-5 has nothing to draw."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        def close(node: Any) -> Any:
            if isinstance(node, list):
                return [close(item) for item in node]
            if not isinstance(node, dict):
                return node
            closed = {key: close(value) for key, value in node.items()}
            if isinstance(closed.get("properties"), dict):
                closed["required"] = list(closed["properties"])
                closed["additionalProperties"] = False
            return closed
        return Strictified(close(dict(schema)), ())

"""Adapters for tests/test_case_memo.py: the reference strictify, counting its calls per input."""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from typing import Any

from strictconformance.dialects import Strictified
from strictconformance.reference import ReferenceAdapter
from strictconformance.reference.strictify import reference_strictify

#: (dialect, input as sorted JSON text) -> strictify calls in this process
CALLS: Counter[tuple[str, str]] = Counter()


class CountsStrictifyCalls(ReferenceAdapter):
    """The reference, in the openai dialect only, counting each strictify call."""

    strictify_dialects = ("openai",)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        CALLS[(dialect, json.dumps(schema, sort_keys=True))] += 1
        return reference_strictify(schema, dialect)


class LeavesEveryObjectOpen(CountsStrictifyCalls):
    """Whatever the input, one strict schema with an open object (SM-03 broken): distinct cases
    share one output, and each must still be reported."""

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        CALLS[(dialect, json.dumps(schema, sort_keys=True))] += 1
        return Strictified({"type": "object", "properties": {"a": {"type": "string"}}, "required": ["a"]}, ())


class RefusesAllOf(CountsStrictifyCalls):
    """The reference, refusing (a declared refusal) every schema with an ``allOf`` anywhere: RT-5's
    trap loop meets its allOf trap in every example."""

    strictify_refusals = (ValueError,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        CALLS[(dialect, json.dumps(schema, sort_keys=True))] += 1
        if "allOf" in json.dumps(schema):
            raise ValueError("allOf is not supported")
        return reference_strictify(schema, dialect)

"""Adapters for the RT-10 self-test of unsettled keywords (``Dialect.unsettled``)."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from strictconformance.dialects import Strictified
from strictconformance.reference import ReferenceAdapter


class RecordRefused(ValueError):
    """RefusesRecordsInGoogleSchema's declared refusal."""


class RefusesRecordsInGoogleSchema(ReferenceAdapter):
    """The reference in the google-schema dialect, except that it refuses a schema whose
    ``additionalProperties`` is a schema or ``true`` (google-genai does in Gemini Developer API
    mode): the keyword is unsettled for that dialect, so the refusal is no unnecessary one."""

    strictify_dialects = ("google-schema",)
    strictify_context = "output"
    strictify_refusals = (RecordRefused,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        if '"additionalProperties": {' in json.dumps(schema) or '"additionalProperties": true' in json.dumps(schema):
            raise RecordRefused("additionalProperties is only supported in the Vertex AI mode")
        return super().strictify(schema, dialect)

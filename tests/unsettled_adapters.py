"""Adapters for RT-10 self-tests: refusals of unsettled keywords (``Dialect.unsettled``), and of
schemas the dialect expresses only through a codec that reshapes values."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import Any

from strictconformance.adapter import Adapter
from strictconformance.dialects import Strictified
from strictconformance.reference import ReferenceAdapter
from strictconformance.reference.strictify import reference_reshapes


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


class ReshapeRefused(ValueError):
    """The refusal of the adapters below: a schema whose values would need reshaping."""


class RefusesReshapingWithItsCodec(ReferenceAdapter):
    """The reference in the openai dialect, except that it refuses every schema the dialect expresses
    only through a codec that reshapes values (a non-object root wrapped, records as pairs, a tuple
    as an object), though its own codec could carry them: unnecessary refusals."""

    strictify_dialects = ("openai",)
    strictify_refusals = (ReshapeRefused,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified:
        if reference_reshapes(schema, dialect):
            raise ReshapeRefused("values of this schema would need another shape on the wire")
        return super().strictify(schema, dialect)


class RefusesReshapingWithoutCodec(RefusesReshapingWithItsCodec):
    """The same refusals by a strictify with no codec (a schema-only function, judged with the
    identity codec): it has no lossless way to send those schemas, so refusing them is right."""

    encode = Adapter.encode
    decode = Adapter.decode


class RefusesReshapingWithAnIdentityEncode(RefusesReshapingWithItsCodec):
    """The same refusals by a strictify whose ``encode`` hands every value on as it is (an SDK with
    no wire encoding that still validates answers in ``decode``): no reshaping codec either."""

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return value

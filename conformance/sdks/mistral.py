"""mistralai (``pip install mistralai``): its strict structured-output schema.

Audit of the SDK's public functions that touch strict mode (mistralai 3.7.0):

* ``mistralai.extra.utils.response_format_from_pydantic_model(model)`` builds the
  ``response_format`` a caller sends with ``strict: True``: the model's JSON Schema passed through
  ``mistralai.extra.utils._pydantic_helper.rec_strict_json_schema``, which sets
  ``additionalProperties: false`` on every node whose ``type`` is ``"object"`` and changes nothing
  else. :class:`MistralStrictSchema`'s ``strictify`` is that function, in the ``mistral`` dialect
  (output context: it is a response format). ``chat.parse`` and ``chat.parse_stream`` run the same
  conversion, then validate the answer with the model (pydantic): the answer reaches user code as
  the model's values, so there is no separate value codec to judge; RT-4..RT-6 judge the identity
  codec (the answer is read as it was sent), RT-7 is not covered (no encode).
* ``mistralai.extra.run.tools`` builds function tools from Python callables for the agents API
  (``strict=True`` is hard-wired there); it needs a running conversation to call a tool, which
  this module does not drive: the tool-layer rules are not covered here.
* Response parsing: the SDK's generated models (``mistralai.client.models``); no cassette of Mistral
  responses ships with the kit, so the drift rules are not covered.
* No request builder with a per-tool or provider strict setting, no model table: RES and BUD rules
  are not covered.

``reproduce`` writes a failing strictify call as a snippet that calls only the SDK.
"""

from __future__ import annotations

import copy
import importlib.metadata
from collections.abc import Mapping
from typing import Any

from mistralai.extra.utils._pydantic_helper import rec_strict_json_schema

from strictconformance import Adapter
from strictconformance.sdks._snippet import literal, snippet

__all__ = ["MistralStrictSchema"]


class MistralStrictSchema(Adapter):
    """``rec_strict_json_schema``, what ``response_format_from_pydantic_model`` sends as strict."""

    name = "mistralai (rec_strict_json_schema)"
    sdk = f"mistralai {importlib.metadata.version('mistralai')}"
    strictify_dialects = ("mistral",)
    strictify_context = "output"

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        # the function works in place and returns its argument; the SDK only ever calls it on a
        # schema it has just made (model.model_json_schema()), so it is called here on a fresh copy
        result: dict[str, Any] = rec_strict_json_schema(copy.deepcopy(dict(schema)))
        return result

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        schema, _dialect = args
        return snippet(
            "import copy, json",
            "from mistralai.extra.utils._pydantic_helper import rec_strict_json_schema",
            "",
            f"schema = {literal(copy.deepcopy(schema))}",
            "print(json.dumps(rec_strict_json_schema(copy.deepcopy(schema)), indent=1))",
        )

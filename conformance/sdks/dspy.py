"""dspy (``pip install dspy``): the strict structured-output schemas it sends.

Every capability calls dspy's own code and nothing else (no LM, no network). One adapter per path
(the matrix's columns, ``SDK_PATHS``):

* :class:`DspyLMResponseFormat` — ``strictify`` in the ``openai`` dialect, output context:
  ``dspy.clients.legacy_requests._strict_json_schema``, what ``dspy.LM`` sends when a caller passes a
  pydantic model as ``response_format`` (``dspy/clients/execution.py`` ``_canonical``: the model's
  ``model_json_schema()`` through ``_strict_json_schema``, sent as
  ``{"type": "json_schema", "json_schema": {..., "strict": True}}``; the Responses API form in
  ``legacy_requests.chat_to_responses`` does the same). It closes an object that has no
  ``additionalProperties`` (one that has any keeps it), requires every property, walks
  ``properties``, ``items``, ``anyOf``, ``allOf`` and ``$defs``/``definitions``, unwraps a lone
  ``allOf``, drops a ``None`` default and inlines a ``$ref`` that has siblings. Its deliberate
  ``ValueError`` on a ``$ref`` it cannot resolve ("Unexpected $ref format", "Could not resolve
  $ref") is declared as a refusal (:class:`StrictSchemaRefusal`); any other exception is a crash.
* :class:`DspyJSONAdapter` — ``strictify`` in the ``openai`` dialect, output context: what
  ``dspy.JSONAdapter`` sends for a signature's outputs on a model that supports response schemas.
  ``_prepare_response_format`` calls ``json_adapter._get_structured_outputs_response_format``, which
  makes a pydantic model of the output fields (``extra="forbid"``), drops ``json_schema_extra`` from
  its properties, runs its nested ``enforce_required`` on the schema (every object with
  ``properties``: all of them required and ``additionalProperties: false``; an object without
  ``properties``: ``properties: {}``, ``required: []``, closed; walking ``properties``, ``items``
  and ``$defs``/``definitions`` only) and makes the model's ``model_json_schema()`` answer the
  result; ``dspy.LM`` then sends it through ``_strict_json_schema`` as above. The adapter runs that
  chain on the kit's schema, taken as the output model's schema: ``enforce_required`` is the SDK's
  own nested function, rebuilt from ``_get_structured_outputs_response_format``'s code object (it is
  not reachable otherwise), so the kit's schema goes through it unchanged instead of through a
  signature (which would first need a Python type per schema). A signature's outputs are always the
  fields of an object: a schema whose root is not an object is not covered. A top-level output
  field of a ``dict`` type makes the adapter fall back to ``{"type": "json_object"}`` (no strict
  schema): not a schema rewrite, not covered.
* Values: ``JSONAdapter.parse`` reads the answer with ``json_repair.loads`` and casts each field to
  its annotation (``dspy.adapters.utils.parse_value``); with the kit's schemas there is no Python
  annotation to cast to, so no codec is declared: RT-4..RT-6 judge the identity codec (the answer
  reaches the caller as the provider sent it), RT-7 is not covered.
* Not covered: ``dspy.Tool`` and ``format_as_litellm_function_call`` (``dspy/adapters/types/tool.py``)
  carry no strict setting and rewrite no schema (the tool's ``args`` JSON Schema is sent as
  ``parameters`` as it is); request building (the LM's HTTP body is built by its engines, lm15 or
  LiteLLM); response drift (no cassette of dspy's own response models); ``plan_request`` and
  ``strict_support`` (no such concepts). On the LiteLLM compatibility engine the pydantic
  ``response_format`` is handed to LiteLLM, whose conversion is LiteLLM's, not dspy's.

``reproduce`` writes a failing strictify call as a snippet that calls only dspy.
"""

from __future__ import annotations

import copy
import importlib.metadata
import types
from collections.abc import Callable, Mapping
from typing import Any

from dspy.adapters.json_adapter import _get_structured_outputs_response_format
from dspy.clients.legacy_requests import _strict_json_schema

from strictconformance import Adapter
from strictconformance.findings import not_covered
from strictconformance.sdks._snippet import literal, snippet

__all__ = ["DspyJSONAdapter", "DspyLMResponseFormat", "StrictSchemaRefusal"]

_SDK = f"dspy {importlib.metadata.version('dspy')}"

#: The messages of ``_resolve_ref``'s deliberate refusals (dspy/clients/legacy_requests.py).
_REF_REFUSALS = ("Unexpected $ref format", "Could not resolve $ref")


class StrictSchemaRefusal(ValueError):
    """``_strict_json_schema`` refused a schema on purpose: a ``$ref`` it cannot resolve."""


def _enforce_required() -> Callable[[dict[str, Any]], None]:
    """dspy's nested ``enforce_required`` (inside ``_get_structured_outputs_response_format``), as a
    function: its code object with a closure cell holding itself (it calls itself by that name)."""
    code = next((const for const in _get_structured_outputs_response_format.__code__.co_consts
                 if isinstance(const, types.CodeType) and const.co_name == "enforce_required"), None)
    if code is None or code.co_freevars != ("enforce_required",):
        raise RuntimeError(f"{_SDK}: _get_structured_outputs_response_format has no nested enforce_required(schema_part) "
                           "closing over itself alone; this adapter needs updating for this version")
    cell = types.CellType()
    function = types.FunctionType(code, _get_structured_outputs_response_format.__globals__, "enforce_required", None, (cell,))
    cell.cell_contents = function
    return function


_ENFORCE_REQUIRED = _enforce_required()


def _strict(schema: dict[str, Any]) -> dict[str, Any]:
    try:
        result: dict[str, Any] = _strict_json_schema(schema)
    except ValueError as error:
        if str(error).startswith(_REF_REFUSALS):
            raise StrictSchemaRefusal(str(error)) from error
        raise
    return result


class _DspyAdapter(Adapter):
    sdk = _SDK
    strictify_dialects = ("openai",)
    strictify_context = "output"
    strictify_refusals = (StrictSchemaRefusal,)


class DspyLMResponseFormat(_DspyAdapter):
    """``_strict_json_schema``: what ``dspy.LM`` sends as strict for a pydantic ``response_format``."""

    name = "dspy (LM response_format: _strict_json_schema)"

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        # dspy calls it on a schema pydantic has just made; it copies each node it changes
        return _strict(copy.deepcopy(dict(schema)))

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        schema, _dialect = args
        return snippet(
            "import json",
            "from dspy.clients.legacy_requests import _strict_json_schema",
            "",
            f"schema = {literal(copy.deepcopy(schema))}",
            "print(json.dumps(_strict_json_schema(schema), indent=1))",
        )


class DspyJSONAdapter(_DspyAdapter):
    """``JSONAdapter``'s strict response format: ``enforce_required``, then ``_strict_json_schema``."""

    name = "dspy (JSONAdapter response_format)"

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        if schema.get("type") != "object":
            not_covered("a dspy signature's outputs are the fields of an object: the root is always an object")
        fresh = copy.deepcopy(dict(schema))  # dspy rewrites the model's freshly generated schema in place
        properties = fresh.get("properties")
        if isinstance(properties, dict):
            for prop in properties.values():
                if isinstance(prop, dict):
                    prop.pop("json_schema_extra", None)
        _ENFORCE_REQUIRED(fresh)
        return _strict(fresh)

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        schema, _dialect = args
        return snippet(*_JSON_ADAPTER_SNIPPET_HEAD, f"schema = {literal(copy.deepcopy(schema))}",
                       "print(json.dumps(json_adapter_strict_schema(schema), indent=1))")


#: A snippet's head defining ``json_adapter_strict_schema(schema)`` with dspy alone: a signature
#: cannot carry an arbitrary JSON Schema, so the snippet, like the adapter, runs dspy's nested
#: ``enforce_required`` and then ``_strict_json_schema``.
_JSON_ADAPTER_SNIPPET_HEAD = (
    "import json, types",
    "from dspy.adapters.json_adapter import _get_structured_outputs_response_format as outer",
    "from dspy.clients.legacy_requests import _strict_json_schema",
    "",
    "code = next(c for c in outer.__code__.co_consts if isinstance(c, types.CodeType) and c.co_name == 'enforce_required')",
    "cell = types.CellType()",
    "enforce_required = types.FunctionType(code, outer.__globals__, 'enforce_required', None, (cell,))",
    "cell.cell_contents = enforce_required",
    "",
    "",
    "def json_adapter_strict_schema(schema):",
    "    for prop in schema.get('properties', {}).values():",
    "        prop.pop('json_schema_extra', None)",
    "    enforce_required(schema)",
    "    return _strict_json_schema(schema)",
    "",
    "",
)

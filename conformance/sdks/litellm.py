"""litellm (``pip install litellm``): the schema rewrites its provider translations run on a
caller's tools and ``response_format`` before sending them.

litellm takes OpenAI-shaped requests (``tools=[{"type": "function", "function": {"name": ...,
"parameters": schema, "strict": True}}]``, ``response_format={"type": "json_schema", "json_schema":
{"name": ..., "schema": schema, "strict": True}}``) and translates them per provider in the provider
config's ``map_openai_params`` (what ``litellm.completion`` calls through ``get_optional_params``).
Each adapter below calls that public config method on the caller's OpenAI-shaped tool or response
format and returns the schema the translated request carries: the path a caller's schema really
takes when sending, not a helper picked out of it.

Audit of the functions that choose strict, rewrite a schema, encode/decode values, parse responses
or define tools (litellm 1.110.2):

* Gemini (``litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini.VertexGeminiConfig``,
  the config of the ``gemini/`` and ``vertex_ai/`` routes):

  - tools: ``map_openai_params`` -> ``_map_function``: ``remove_additional_properties`` and
    ``remove_strict_from_schema`` (``litellm/utils.py``) on a deep copy of the tools, then
    ``build_vertex_schema`` (``litellm/llms/vertex_ai/common_utils.py``: inlines ``$defs``, turns a
    type list into ``anyOf``, folds a ``null`` branch into ``nullable``, drops enums of non-strings
    and maps ``""`` in an enum to ``None``, adds ``items`` to arrays, sets ``type: object`` on
    untyped nodes, keeps only the fields of its ``Schema`` TypedDict) into the function
    declaration's ``parameters``: the OpenAPI-subset mode, dialect ``google-schema``, tool input.
    The tool's ``strict`` is removed (Gemini has no such flag). :class:`LitellmGeminiTools`.
  - ``response_format`` on a model with ``responseJsonSchema`` (Gemini 2.0 and newer,
    ``supports_response_json_schema``): ``apply_response_schema_transformation`` runs
    ``remove_strict_from_schema`` on the response format, then ``build_json_schema`` (returns its
    input) into ``generationConfig.responseJsonSchema``. Not a column: the schema goes through as the
    caller wrote it, but for ``remove_strict_from_schema``, which deletes every key named ``strict``
    at any depth, a property named ``strict`` included (its name stays in ``required``); the kit's
    schemas never name a property so, so a column would judge the pass-through alone (as the
    google-genai columns do not judge google-genai's JSON-Schema mode). The same function runs on the
    tools of both Gemini routes, before ``build_vertex_schema``.
  - ``response_format`` on an older model (Gemini 1.5): ``remove_additional_properties`` and
    ``remove_strict_from_schema``, then ``_map_response_schema`` (``build_vertex_schema`` with
    ``propertyOrdering``) into ``generationConfig.responseSchema``: dialect ``google-schema``,
    output context. :class:`LitellmGeminiResponseSchema`.

  The ``google-schema`` wire form (lower-case types, ``nullable``, ``propertyOrdering``) is read back
  as the JSON Schema it means, mechanically (``nullable: true`` is a ``null`` type or a ``null``
  branch beside ``anyOf``), so the kit's oracle judges what Gemini receives. ``build_vertex_schema``
  raises ``ValueError("Max depth of ... exceeded ...")`` on purpose past its recursion limit: the
  declared refusal :class:`LitellmDepthRefusal`.
* Anthropic (``litellm.llms.anthropic.chat.transformation.AnthropicConfig``):

  - ``response_format`` on a model with native structured outputs: ``map_openai_params`` ->
    ``map_response_format_to_anthropic_output_format`` (``native_output_format_schema``: ``$defs``
    inlined by ``unpack_defs``, then ``filter_anthropic_output_schema``, which removes the
    constraints Anthropic's grammar rejects and writes them into the description, rewrites
    ``oneOf`` as ``anyOf`` and closes objects) into ``output_format.schema``: dialect ``anthropic``,
    output context. When the schema has an open object and the request has no tools, litellm sends
    the schema as a forced JSON tool's ``input_schema`` instead, without ``strict``
    (``uses_native_structured_output_for_schema``): no strict schema is sent, so that choice is the
    declared refusal :class:`LitellmNotStrict` (counted; RT-10 judges whether the schema needed it).
    :class:`LitellmAnthropicOutputFormat`.
  - tools: ``_map_tool_helper`` passes ``parameters`` through ``sanitize_input_schema_for_anthropic``
    (forces ``type: object``, inlines legacy ``definitions``, keeps the ``AnthropicInputSchema`` keys)
    and sends no ``strict``: it is not a strict schema, so there is no strict dialect to judge it in;
    the per-tool ``strict`` it drops is a request-building question (RES rules), not covered here:
    the adapter does not drive ``transform_request``.
* OpenAI: ``type_to_response_format_param`` sends a dict ``response_format`` unchanged, and a pydantic
  model through openai-python's ``to_strict_json_schema`` (the openai-python columns judge that
  function); tools pass through unchanged. No litellm rewrite to judge.
* Values: litellm hands the provider's answer to the caller as the message's text (Gemini: the JSON
  text of the candidate; Anthropic: the ``output_format`` text, or the JSON tool's input re-serialised
  as content), with no decoding: no ``encode``/``decode``, so RT-4..RT-6 judge the identity codec and
  RT-7 is not covered.
* Response parsing (``transform_response`` of each config) needs a logging object and a model
  response object built per call: not covered (no drift rules). Tool definitions: litellm runs no
  tools (no tool layer). No model table the kit can query for strict support (RES-13/14) and no
  per-tool strict planning: not covered.

``reproduce`` writes a failing strictify call as a snippet calling the same config method.
"""

from __future__ import annotations

import copy
import importlib.metadata
import os
from collections.abc import Mapping
from typing import Any

# litellm fetches its model cost map over the network when imported unless told to use its bundled copy
os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")

from litellm.llms.anthropic.chat.transformation import AnthropicConfig
from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import VertexGeminiConfig

from strictconformance import Adapter
from strictconformance.sdks._snippet import literal, snippet

__all__ = ["LitellmAnthropicOutputFormat", "LitellmDepthRefusal", "LitellmGeminiResponseSchema", "LitellmGeminiTools", "LitellmNotStrict"]

_SDK = f"litellm {importlib.metadata.version('litellm')}"

#: Models whose routes take each path: a current Gemini model (its tools), a Gemini model without
#: responseJsonSchema, and a Claude model with native structured outputs (litellm's bundled model
#: table says which).
_GEMINI_MODEL = "gemini-2.5-flash"
_GEMINI_SCHEMA_MODEL = "gemini-1.5-pro"
_CLAUDE_MODEL = "claude-sonnet-4-5"

#: ``build_vertex_schema``'s deliberate error past its recursion limit (common_utils.py, ``raise
#: ValueError(f"Max depth of {DEFAULT_MAX_RECURSE_DEPTH} exceeded ...")``).
_DEPTH_REFUSAL = "Max depth of "


class LitellmDepthRefusal(ValueError):
    """litellm refused a schema nested deeper than its recursion limit, on purpose."""


class LitellmNotStrict(ValueError):
    """litellm chose not to send the schema as a strict output format (its documented fallback)."""


def _tool(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "function", "function": {"name": "f", "parameters": copy.deepcopy(dict(schema)), "strict": True}}


def _response_format(schema: Mapping[str, Any]) -> dict[str, Any]:
    return {"type": "json_schema", "json_schema": {"name": "answer", "schema": copy.deepcopy(dict(schema)), "strict": True}}


def _mapped(config: Any, model: str, params: dict[str, Any]) -> dict[str, Any]:
    try:
        result: dict[str, Any] = config.map_openai_params(non_default_params=params, optional_params={}, model=model,
                                                          drop_params=False)
    except ValueError as error:
        if type(error) is ValueError and str(error).startswith(_DEPTH_REFUSAL):
            raise LitellmDepthRefusal(str(error)) from error
        raise
    return result


def _openapi_node(node: Any) -> Any:
    """One node of litellm's OpenAPI-subset wire form as the JSON Schema it means: ``nullable: true``
    is a ``null`` type (or a ``null`` branch beside ``anyOf``), ``propertyOrdering`` (an output
    ordering hint) is no constraint, ``type`` is lower-cased; every other keyword means the same."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type":
            out["type"] = value.lower() if isinstance(value, str) else value
        elif key == "properties" and isinstance(value, dict):
            out[key] = {name: _openapi_node(sub) for name, sub in value.items()}
        elif key == "items":
            out[key] = _openapi_node(value)
        elif key == "anyOf" and isinstance(value, list):
            out[key] = [_openapi_node(sub) for sub in value]
        elif key not in ("nullable", "propertyOrdering"):
            out[key] = value
    if node.get("nullable") is True:
        if isinstance(out.get("type"), str) and out["type"] != "null":
            out["type"] = [out["type"], "null"]
        elif "anyOf" in out and "type" not in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
    return out


_IMPORTS = (
    "import json, os",
    'os.environ.setdefault("LITELLM_LOCAL_MODEL_COST_MAP", "True")',
)


class LitellmGeminiTools(Adapter):
    """A strict OpenAI-shaped tool on a Gemini route: the function declaration's ``parameters``."""

    name = "litellm (Gemini tools: build_vertex_schema)"
    sdk = _SDK
    strictify_dialects = ("google-schema",)
    strictify_refusals = (LitellmDepthRefusal,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Any:
        mapped = _mapped(VertexGeminiConfig(), _GEMINI_MODEL, {"tools": [_tool(schema)]})
        (tool,) = mapped["tools"]
        (declaration,) = tool["function_declarations"]
        return _openapi_node(declaration.get("parameters", {}))

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        return snippet(
            *_IMPORTS,
            "from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import VertexGeminiConfig",
            "",
            f"schema = {literal(copy.deepcopy(args[0]))}",
            'tools = [{"type": "function", "function": {"name": "f", "parameters": schema, "strict": True}}]',
            f"mapped = VertexGeminiConfig().map_openai_params(non_default_params={{'tools': tools}}, optional_params={{}}, model={_GEMINI_MODEL!r}, drop_params=False)",
            'print(json.dumps(mapped["tools"][0]["function_declarations"][0].get("parameters"), indent=1))',
        )


class _GeminiResponseFormat(Adapter):
    sdk = _SDK
    strictify_context = "output"
    strictify_refusals = (LitellmDepthRefusal,)
    _model: str
    _field: str

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Any:
        mapped = _mapped(VertexGeminiConfig(), self._model, {"response_format": _response_format(schema)})
        # an empty schema is sent as no schema at all (apply_response_schema_transformation: `if schema
        # and ...`): only response_mime_type, any JSON value, which is what {} means
        return _openapi_node(mapped.get(self._field, {}))

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        return snippet(
            *_IMPORTS,
            "from litellm.llms.vertex_ai.gemini.vertex_and_google_ai_studio_gemini import VertexGeminiConfig",
            "",
            f"schema = {literal(copy.deepcopy(args[0]))}",
            'response_format = {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema, "strict": True}}',
            f"mapped = VertexGeminiConfig().map_openai_params(non_default_params={{'response_format': response_format}}, optional_params={{}}, model={self._model!r}, drop_params=False)",
            f"print(json.dumps(mapped[{self._field!r}], indent=1))",
        )


class LitellmGeminiResponseSchema(_GeminiResponseFormat):
    """A strict ``response_format`` on a Gemini 1.5 route: ``generationConfig.responseSchema``."""

    name = "litellm (Gemini response_format: responseSchema)"
    strictify_dialects = ("google-schema",)
    _model = _GEMINI_SCHEMA_MODEL
    _field = "response_schema"


class LitellmAnthropicOutputFormat(Adapter):
    """A strict ``response_format`` on a Claude route: ``output_format.schema`` (or the forced JSON
    tool's ``input_schema`` when litellm falls back to one)."""

    name = "litellm (Anthropic response_format: output_format)"
    sdk = _SDK
    strictify_dialects = ("anthropic",)
    strictify_context = "output"

    #: litellm's deliberate fallback (a schema it will not send as a strict output format goes as a
    #: non-strict forced tool), counted as a refusal, never judged as a strict schema.
    strictify_refusals = (LitellmNotStrict,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Any:
        mapped = _mapped(AnthropicConfig(), _CLAUDE_MODEL, {"response_format": _response_format(schema)})
        if "output_format" not in mapped:
            raise LitellmNotStrict("litellm sends this response_format as a non-strict forced tool "
                                   f"(tools: {[tool.get('name') for tool in mapped.get('tools', [])]}), not as output_format")
        return mapped["output_format"]["schema"]

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        return snippet(
            *_IMPORTS,
            "from litellm.llms.anthropic.chat.transformation import AnthropicConfig",
            "",
            f"schema = {literal(copy.deepcopy(args[0]))}",
            'response_format = {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema, "strict": True}}',
            f"mapped = AnthropicConfig().map_openai_params(non_default_params={{'response_format': response_format}}, optional_params={{}}, model={_CLAUDE_MODEL!r}, drop_params=False)",
            'print(json.dumps(mapped.get("output_format"), indent=1))',
        )

"""Adapters that point the suite at google-genai (``pip install google-genai``).

Every capability calls google-genai's own code and nothing else; its client talks to an
``httpx.MockTransport`` (no network). One adapter per path (the matrix's columns, ``SDK_PATHS``):

* :class:`GoogleGenaiSchema` — ``strictify`` in the kit's ``google-schema`` dialect: the OpenAPI-subset
  mode of a function declaration, ``types.FunctionDeclaration(name=..., parameters=schema)``
  (a dict ``parameters`` is validated into a ``types.Schema``, the only processing google-genai does
  on it: no ``$defs`` inlining, no ``process_schema``). Its wire form (``model_dump`` by alias) is
  read as the JSON Schema it means, mechanically, so the kit's JSON-Schema oracle can judge it
  (``STRING`` is ``string``, ``nullable: true`` a ``null`` type, ``defs``/``ref`` ``$defs``/``$ref``);
  not with the SDK's ``Schema.json_schema``, which turns ``nullable`` beside ``anyOf`` into
  ``type: "null"`` (a bug of its own, triaged).
  Losses are not reported: google-genai reports none. A schema outside the subset (a type list,
  ``$defs``, ``const``...) is refused by design: ``Schema`` is a pydantic model with
  ``extra="forbid"``, so the declaration raises pydantic's ``ValidationError`` naming the field; the
  adapter declares it (``strictify_refusals``, SPEC §4), and the suite counts those refusals instead
  of judging them as crashes. The client's processing of a dict
  ``response_schema`` is its own column, :class:`GoogleGenaiResponseSchema`.
* :class:`GoogleGenaiSchemaFromJsonSchema` — ``strictify`` in the ``google-schema`` dialect with the SDK's
  own converter from JSON Schema into that mode: ``types.Schema.from_json_schema(json_schema=
  types.JSONSchema.model_validate(schema), api_option="GEMINI_API")``, read back the same way.
  It converts type lists to ``nullable``/``anyOf`` and resolves ``$ref``; its docstring says
  "Conversion of fields that are not included in the JSONSchema class are ignored". The SDK calls it
  for MCP tools' parameters (``_mcp_utils.py``): tool input, the default context. Its input is a
  ``types.JSONSchema``, a pydantic model with ``extra="forbid"``: a schema using a keyword the class
  lacks (``const``, ``prefixItems``, ``not``...) is refused with ``ValidationError`` when it is built,
  a declared refusal (``strictify_refusals``). A ``ValidationError`` from the conversion itself, on a
  schema ``JSONSchema`` accepted, is no refusal: it is re-raised as ``ConversionError`` (a crash).
* ``encode`` / ``decode`` (both Schema adapters): the identity; google-genai has no wire encoding of
  values.
* :class:`GoogleGenaiResponseSchema` — ``strictify`` in the ``google-schema`` dialect, output context:
  what ``client.models.generate_content(config=types.GenerateContentConfig(response_mime_type=
  "application/json", response_schema=schema))`` sends as ``generationConfig.responseSchema`` for a
  dict ``schema`` (``_transformers.t_schema``: ``process_schema`` inlines ``$defs``, folds a ``null``
  branch of ``anyOf`` into ``nullable``, turns a string ``const`` into an ``enum``, adds
  ``property_ordering``; then ``types.Schema.model_validate``), captured from the request on a mock
  transport (Gemini Developer API mode, an API key) and read back as JSON Schema as above. The caller's
  dict is passed as a user passes it (RT-2 sees any change made to it). Declared refusals
  (``strictify_refusals``): ``process_schema``'s deliberate ``ValueError`` refusals, a non-string ``const``
  ("Literal values must be strings.") and a truthy ``additionalProperties`` ("only supported in Gemini
  Enterprise Agent Platform mode"), raised as :class:`ProcessSchemaRefusal`; and pydantic's
  ``ValidationError`` from ``types.Schema`` (``extra="forbid"``) on a keyword outside the subset. No
  codec: for a dict ``response_schema`` the client hands the answer to the caller as
  ``response.parsed = json.loads(text)`` (types.py ``GenerateContentResponse._from_response``), so the
  round-trip rules judge the identity codec.
* The JSON-Schema mode (``parameters_json_schema``, ``response_json_schema``) is not covered as a
  strictify: google-genai passes it through untouched (``_transformers.t_json_schema`` returns its
  input), so there is no SDK processing to judge; the API itself ignores unsupported keywords. Its
  SDK code is the function-declaration path below (``from_callable`` writes it).
* :class:`GoogleGenaiResponses` — ``check_response`` / ``check_stream`` for
  ``gemini.generate_content``: ``Client.models.generate_content`` (and ``generate_content_stream``,
  read to the end, each chunk's ``candidates`` touched) on a client whose ``httpx_client`` answers
  the payload. Drift errors: ``errors.UnknownApiResponseError`` (a body that is not JSON) and
  pydantic's ``ValidationError`` (``GenerateContentResponse`` refusing a field); API errors:
  ``errors.APIError`` (what the client raises for an error the provider sent).
* :class:`GoogleGenaiFunctionDeclarations` — the tool layer where it maps:
  ``types.FunctionDeclaration.from_callable(client=..., callable=fn)`` (what the client does with a
  Python function in ``tools=[fn]``; ``use_json_schema=True`` as ``t_tool`` passes, giving
  ``parameters_json_schema``) for a tool from type hints; ``describe_tool`` reads the declaration
  (``parameters_json_schema``, or ``parameters`` read as above). Gemini has
  no per-tool strict flag (schema adherence is a request mode): a declaration carries none, so a
  definition's ``strict`` has nowhere to go: a definition that sets one is not covered (skipped,
  named), so TL-7 is not covered. Tools from a pydantic model or a raw JSON Schema are not a google-genai concept
  (``from_callable`` takes a function): only the ``signature`` source (``tool_layer_traits``).
  Invocation (automatic function calling inside ``generate_content``) and direct calls are not
  covered in this version: ``invoke_tool`` / ``call_tool`` are not implemented.
* ``reproduce``: snippets for ``strictify``, ``check_response`` and ``check_stream``.

Audit of google-genai's public functions that choose strict, rewrite a schema, encode or decode
values, parse responses or define tools (google-genai 2.34.0), and what judges each:

* ``types.FunctionDeclaration(parameters=...)`` / ``types.Schema.model_validate``: strictify,
  :class:`GoogleGenaiSchema`. In ``generate_content`` a declaration's ``parameters`` reach the wire as
  validated (models.py ``_Tool_to_mldev`` copies ``function_declarations`` as they are: no
  ``process_schema`` runs on them), so that column is the ``parameters`` path of ``generate_content``.
* ``_transformers.t_schema`` / ``process_schema`` (``response_schema`` of ``generate_content``,
  ``generate_content_stream``, ``batches.create``): strictify, :class:`GoogleGenaiResponseSchema`. A
  pydantic model, ``list[...]``, an ``Enum`` or a ``Literal`` as ``response_schema`` are turned into JSON
  Schema by pydantic first: not covered (the kit's inputs are JSON Schemas).
* ``types.Schema.from_json_schema`` (MCP tools' ``parameters``, ``_mcp_utils.mcp_to_gemini_tool``):
  strictify, :class:`GoogleGenaiSchemaFromJsonSchema`. ``_mcp_utils._filter_to_supported_schema``, which
  the MCP path runs first (it drops keywords ``types.JSONSchema`` lacks), is not covered: it needs an
  MCP tool object.
* ``_transformers.t_json_schema`` (``parameters_json_schema``, ``response_json_schema``): passes the
  schema through untouched; nothing to judge (above).
* ``types.FunctionDeclaration.from_callable`` (``tools=[fn]``, ``t_tool``): define_tool,
  :class:`GoogleGenaiFunctionDeclarations`. Automatic function calling (``_extra_utils``
  ``invoke_function_from_dict_args``) is not covered (``invoke_tool`` / ``call_tool``).
* ``GenerateContentResponse._from_response`` (``response.parsed``): for a dict schema it is
  ``json.loads`` of the text, the identity codec :class:`GoogleGenaiResponseSchema` is judged with;
  for a pydantic model it is ``model_validate_json``, not covered (no model source). The client reading
  answers and streams: :class:`GoogleGenaiResponses`.
* Strict choice: Gemini has no per-tool or per-request strict flag the SDK sets (schema adherence is a
  request mode, ``FunctionCallingConfig.mode``, passed through as the caller sets it): ``build_request``,
  ``plan_request`` and ``strict_support`` are not covered.
"""

from __future__ import annotations

import copy
import json
from collections.abc import Mapping, Sequence
from typing import Any

import google.genai
import httpx
import pydantic
from google.genai import errors, types

from strictconformance import Adapter
from strictconformance.drift.body import json_body
from strictconformance.drift.sse import SSEEvent, format_sse
from strictconformance.findings import not_covered
from strictconformance.sdks._snippet import literal, snippet, sse_literal
from strictconformance.tools import AdvertisedTool, ToolDefinition, ToolLayerTraits

__all__ = [
    "ConversionError",
    "GoogleGenaiFunctionDeclarations",
    "GoogleGenaiResponseSchema",
    "GoogleGenaiResponses",
    "GoogleGenaiSchema",
    "GoogleGenaiSchemaFromJsonSchema",
    "ProcessSchemaRefusal",
]

_API_KEY = "strictconformance-not-a-key"
_MODEL = "gemini-2.5-flash"
#: A minimal ``generateContent`` answer, so the client finishes the call whose request was captured.
_ANSWER: dict[str, Any] = {"candidates": [{"content": {"role": "model", "parts": [{"text": "{}"}]}}]}


def _client(answer: httpx.Response) -> google.genai.Client:
    http = httpx.Client(transport=httpx.MockTransport(lambda _request: answer))
    return google.genai.Client(api_key=_API_KEY, http_options=types.HttpOptions(httpx_client=http))


def _as_json_schema(schema: types.Schema) -> dict[str, Any]:
    """The ``Schema`` as the wire carries it (``model_dump`` by alias: camelCase keys, ``STRING``
    types), read as the JSON Schema it means, so the kit's oracle judges what Gemini receives."""
    wire: dict[str, Any] = schema.model_dump(mode="json", exclude_none=True, by_alias=True)
    read: dict[str, Any] = _openapi_node(wire)
    return read


def _openapi_node(node: Any) -> Any:
    """One OpenAPI-subset ``Schema`` node as JSON Schema, mechanically: lower-case ``type``,
    ``nullable: true`` as a ``null`` type (or a ``null`` branch beside ``anyOf``), ``defs``/``ref``
    as ``$defs``/``$ref``, ``example`` as ``examples``; every other keyword has the same name and
    meaning in both. Not ``Schema.json_schema``: that turns ``nullable`` beside ``anyOf`` into
    ``type: "null"`` (only null), a bug of its own that no SDK path here exercises, so no finding
    and no triage entry carries it (google-genai 2.34.0, types.py:3141-3143, nullable with no type:
    ``Schema(any_of=[INTEGER, STRING], nullable=True).json_schema`` gives
    ``{"type": "null", "anyOf": [...]}``, which accepts no value)."""
    if not isinstance(node, dict):
        return node
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key == "type":
            out["type"] = value.lower() if isinstance(value, str) else value
        elif key in ("properties", "defs"):
            out["$defs" if key == "defs" else key] = {name: _openapi_node(sub) for name, sub in value.items()}
        elif key in ("items", "additionalProperties"):
            out[key] = _openapi_node(value)
        elif key == "anyOf":
            out[key] = [_openapi_node(sub) for sub in value]
        elif key == "ref":
            out["$ref"] = value.replace("#/defs/", "#/$defs/", 1) if isinstance(value, str) else value
        elif key == "example":
            out["examples"] = [value]
        elif key != "nullable":
            out[key] = value
    if node.get("nullable") is True:
        if isinstance(out.get("type"), str) and out["type"] != "null":
            out["type"] = [out["type"], "null"]
        elif "anyOf" in out and "type" not in out:
            out["anyOf"] = [*out["anyOf"], {"type": "null"}]
    return out


class _GoogleGenaiAdapter(Adapter):
    sdk = f"google-genai {google.genai.__version__}"

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        """A standalone snippet calling only google-genai for the adapter call ``method(*args)``."""
        if method == "strictify":
            schema, _dialect = args
            return snippet(
                "import json",
                "from google.genai import types",
                "",
                f"schema = {literal(schema)}",
                "declaration = types.FunctionDeclaration(name='answer', parameters=schema)",
                "print(json.dumps(declaration.parameters.model_dump(mode='json', exclude_none=True, by_alias=True), indent=1))",
            )
        if method in ("check_response", "check_stream"):
            _api, data = args
            stream = method == "check_stream"
            body = sse_literal(data) if stream else f"json.dumps({literal(data)})"
            call = ("for chunk in client.models.generate_content_stream(model='gemini-2.5-flash', contents='hi'):\n"
                    "        print(chunk)" if stream else
                    "print(client.models.generate_content(model='gemini-2.5-flash', contents='hi'))")
            return snippet(
                "import json",
                "import httpx",
                "from google import genai",
                "from google.genai import types",
                "",
                f"body = {body}",
                f"answer = httpx.Response(200, content=body.encode(), headers={{'content-type': {'text/event-stream' if stream else 'application/json'!r}}})",
                "http = httpx.Client(transport=httpx.MockTransport(lambda request: answer))",
                "client = genai.Client(api_key='not-a-key', http_options=types.HttpOptions(httpx_client=http))",
                "try:",
                f"    {call}",
                "except Exception as error:",
                "    print('raised', type(error).__name__, error)",
            )
        return None


class ConversionError(RuntimeError):
    """``Schema.from_json_schema`` raised pydantic's ``ValidationError`` on a schema ``types.JSONSchema``
    had accepted: the converter's own failure, not a refusal of its input."""


class _SchemaCodec(_GoogleGenaiAdapter):
    """google-genai has no wire encoding of values: a value travels as it is, both ways (so RT-4/RT-5
    judge whether the converted schema still means what the original did)."""

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return value

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        return value


class GoogleGenaiSchema(_SchemaCodec):
    """google-genai's OpenAPI-subset mode: a function declaration's ``parameters`` as a ``types.Schema``."""

    name = "google-genai (Schema)"
    strictify_dialects = ("google-schema",)  # Gemini's OpenAPI-subset mode (any format, no prefixItems)
    # A schema outside the Schema subset: FunctionDeclaration refuses it (Schema has extra="forbid").
    strictify_refusals = (pydantic.ValidationError,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        declaration = types.FunctionDeclaration(name="answer", parameters=copy.deepcopy(dict(schema)))  # type: ignore[arg-type]  # validated into a Schema
        assert declaration.parameters is not None  # a dict always gives a Schema
        return _as_json_schema(declaration.parameters)


class GoogleGenaiSchemaFromJsonSchema(_SchemaCodec):
    """google-genai's converter from JSON Schema to its OpenAPI-subset ``Schema``."""

    name = "google-genai (Schema.from_json_schema)"
    strictify_dialects = ("google-schema",)
    # A keyword types.JSONSchema lacks: building the converter's input refuses it (extra="forbid").
    strictify_refusals = (pydantic.ValidationError,)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        json_schema = types.JSONSchema.model_validate(copy.deepcopy(dict(schema)))  # the declared refusal
        try:
            converted = types.Schema.from_json_schema(json_schema=json_schema, api_option="GEMINI_API")
        except pydantic.ValidationError as error:
            raise ConversionError(f"Schema.from_json_schema raised on a schema types.JSONSchema accepted: {error}") from error
        return _as_json_schema(converted)

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return super().reproduce(method, args)
        schema, _dialect = args
        return snippet(
            "import json",
            "from google.genai import types",
            "",
            f"schema = {literal(schema)}",
            "converted = types.Schema.from_json_schema(json_schema=types.JSONSchema.model_validate(schema), api_option='GEMINI_API')",
            "print(json.dumps(converted.model_dump(mode='json', exclude_none=True, by_alias=True), indent=1))",
        )


#: The starts of the errors ``process_schema`` raises on purpose (google/genai/_transformers.py):
#: a non-string ``const`` (``'Literal values must be strings.'``) and, in Gemini Developer API mode, a
#: truthy ``additionalProperties`` (``'additionalProperties is only supported in Gemini Enterprise Agent
#: Platform mode ...'``). Any other error it raises is not a refusal.
_PROCESS_SCHEMA_REFUSALS = ("Literal values must be strings.", "additionalProperties is only supported in ")


class ProcessSchemaRefusal(ValueError):
    """``process_schema`` refused a schema on purpose, naming what the Gemini API mode does not take."""


class GoogleGenaiResponseSchema(_GoogleGenaiAdapter):
    """``generate_content(config=GenerateContentConfig(response_schema=schema))``: what the client
    sends as ``generationConfig.responseSchema`` (``_transformers.t_schema`` and ``process_schema``)."""

    name = "google-genai (generate_content response_schema)"
    strictify_dialects = ("google-schema",)
    strictify_context = "output"  # a response schema: t_schema keeps a non-object root
    #: The declared refusals: ``process_schema``'s own ValueErrors, and pydantic's ValidationError from
    #: ``types.Schema.model_validate`` (``extra="forbid"``) on a keyword outside the OpenAPI subset.
    strictify_refusals = (ProcessSchemaRefusal, pydantic.ValidationError)

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> dict[str, Any]:
        sent: list[Any] = []

        def answer(request: httpx.Request) -> httpx.Response:
            sent.append(json.loads(request.content))
            return httpx.Response(200, json=_ANSWER)

        http = httpx.Client(transport=httpx.MockTransport(answer))
        client = google.genai.Client(api_key=_API_KEY, http_options=types.HttpOptions(httpx_client=http))
        # the caller's dict as a user passes it: process_schema works on it in place (RT-2 judges that)
        config = types.GenerateContentConfig(response_mime_type="application/json", response_schema=schema)
        try:
            client.models.generate_content(model=_MODEL, contents="hi", config=config)
        except ValueError as error:
            if type(error) is ValueError and str(error).startswith(_PROCESS_SCHEMA_REFUSALS):
                raise ProcessSchemaRefusal(str(error)) from error
            raise
        (body,) = sent
        # the wire spells Schema's fields in snake_case (max_items, property_ordering): read back into a Schema
        return _as_json_schema(types.Schema.model_validate(body["generationConfig"]["responseSchema"]))

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return super().reproduce(method, args)
        schema, _dialect = args
        return snippet(
            "import json",
            "import httpx",
            "from google import genai",
            "from google.genai import types",
            "",
            "def answer(request):  # no network: print the response schema the SDK sends, answer with a stub",
            "    print(json.dumps(json.loads(request.content)['generationConfig']['responseSchema'], indent=1))",
            f"    return httpx.Response(200, json={literal(_ANSWER)})",
            "",
            "client = genai.Client(api_key='not-a-key', http_options=types.HttpOptions(",
            "    httpx_client=httpx.Client(transport=httpx.MockTransport(answer))))",
            f"schema = {literal(schema)}",
            "config = types.GenerateContentConfig(response_mime_type='application/json', response_schema=schema)",
            "client.models.generate_content(model='gemini-2.5-flash', contents='hi', config=config)",
        )


class GoogleGenaiResponses(_GoogleGenaiAdapter):
    """google-genai's client reading ``generateContent`` answers."""

    name = "google-genai (responses)"
    drift_errors = (errors.UnknownApiResponseError, pydantic.ValidationError)
    # What google-genai raises for an error the provider sent (an HTTP error status with its body).
    api_errors = (errors.APIError,)
    drift_apis = ("gemini.generate_content",)

    def check_response(self, api: str, payload: Any) -> None:
        answer = httpx.Response(200, content=json_body(payload), headers={"content-type": "application/json"})
        response = _client(answer).models.generate_content(model=_MODEL, contents="hi")
        _ = response.candidates

    def check_stream(self, api: str, events: Sequence[SSEEvent]) -> None:
        answer = httpx.Response(200, content=format_sse(events).encode(), headers={"content-type": "text/event-stream"})
        for chunk in _client(answer).models.generate_content_stream(model=_MODEL, contents="hi"):
            _ = chunk.candidates


class GoogleGenaiFunctionDeclarations(_GoogleGenaiAdapter):
    """google-genai's function declarations from Python functions (``from_callable``)."""

    name = "google-genai (function declarations)"
    tool_layer_traits = ToolLayerTraits(sources=frozenset({"signature"}), strict_convention="boolean")

    def define_tool(self, definition: ToolDefinition) -> types.FunctionDeclaration:
        if definition.context:
            not_covered("google-genai's function declarations have no context parameter")
        if definition.strict is not None:
            not_covered("a Gemini function declaration has no strict setting (adherence is a request mode)")
        client = _client(httpx.Response(500))._api_client
        declaration = types.FunctionDeclaration.from_callable(client=client, callable=definition.callback, use_json_schema=True)
        # from_callable takes the name and description from the function; the definition's are given to it
        return declaration.model_copy(update={"name": definition.name, "description": definition.description})

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        schema: Any = tool.parameters_json_schema
        if schema is None:
            schema = _as_json_schema(tool.parameters) if tool.parameters is not None else {"type": "object", "properties": {}}
        return AdvertisedTool(tool.name or "", tool.description or "", schema, None)

"""instructor (``pip install instructor``): the strict schemas it sends for a response model.

instructor turns a caller's response model (a pydantic model) into the request's tool or response
format, sends it through the provider's client, and validates the answer with the model. Every
schema it sends is made from the model's ``model_json_schema()``: the adapters below give it a
response model whose ``model_json_schema()`` returns the schema under test (the one thing instructor
reads of the model's shape), send the request through the real client on an
``httpx2.MockTransport`` (no network) and return the schema the request carries.

instructor 1.17.0 pins ``jiter<0.15`` and the kit's other SDKs need openai 3.57.0 (``jiter>=0.16``):
it cannot share their environment, so its columns run in an environment of their own
(``SdkPath.environment``: instructor and the pydantic the matrix pins).

Audit of the functions that choose strict, rewrite a schema, encode/decode values, parse responses
or define tools (instructor 1.17.0, ``instructor/v2``):

* ``Mode.JSON_SCHEMA`` on OpenRouter (``from_openrouter``; ``OpenRouterJSONSchemaHandler`` ->
  ``handle_openrouter_structured_outputs``, v2/providers/openai/handlers.py): ``model_json_schema()``
  with ``additionalProperties: false`` set at the root only, sent as ``response_format`` with
  ``strict: true``. OpenRouter passes a strict ``json_schema`` response format to the model's
  provider with OpenAI's semantics: dialect ``openai``, output context.
  :class:`InstructorOpenRouterJsonSchema`.
* ``Mode.RESPONSES_TOOLS`` on OpenAI (``from_openai``; ``OpenAIResponsesToolsHandler``): the model
  through ``prepare_response_model`` and openai-python's ``pydantic_function_tool``
  (``to_strict_json_schema``), sent as the forced function tool (its ``strict`` removed: the
  Responses API's default is strict) and as ``text.format`` with ``strict: true``: dialect
  ``openai``, output context (``text.format``, the stricter of the two uses).
  :class:`InstructorResponsesTools`.
* ``Mode.TOOLS`` (``generate_openai_schema``, v2/providers/openai/schema.py) sends
  ``model_json_schema()`` as a function tool's ``parameters`` with no ``strict``: the caller's
  ``strict=True`` keyword is taken by the client as pydantic's validation strictness and never
  reaches ``prepare_request``, and the deprecated ``Mode.TOOLS_STRICT`` is mapped to ``Mode.TOOLS``
  (``DEPRECATED_TO_CORE``, v2/core/mode.py). Not a strict schema, so no strict dialect judges it;
  which strict setting reaches the wire is a request-building question (RES rules), not covered: a
  request here carries one response model, not the kit's tool lists.
* ``Mode.JSON_SCHEMA`` on OpenAI and the other providers (``OpenAIJSONSchemaHandler``): the
  model's schema as a ``json_schema`` response format without ``strict``: not strict, not judged.
  The provider-specific handlers (Anthropic, Gemini, Mistral, Bedrock, ...) drive those SDKs, each
  with its own client: not covered here.
* Values: the answer is validated with the response model (``model_validate_json``) and handed to
  the caller as the model's instance; the stand-in model has no fields of its own, so there is no
  value codec to judge: no ``encode``/``decode``, RT-4..RT-6 judge the identity codec, RT-7 is not
  covered. Response parsing: the provider SDK's (openai-python's columns judge it). No tools are
  run (no tool layer), no model table (RES-13/14 not covered).

``reproduce`` writes a failing strictify call as a snippet with a pydantic model of that schema.
"""

from __future__ import annotations

import copy
import importlib.metadata
import json
from collections.abc import Mapping
from typing import Any

import httpx2
import instructor
import openai
from pydantic import BaseModel

from strictconformance import Adapter
from strictconformance.sdks._snippet import literal, snippet

__all__ = ["InstructorOpenRouterJsonSchema", "InstructorResponsesTools"]

_SDK = f"instructor {importlib.metadata.version('instructor')}"
_API_KEY = "sk-test"


def _response_model(schema: Mapping[str, Any]) -> type[BaseModel]:
    """A response model whose JSON Schema is ``schema``: what instructor reads of a model's shape."""
    frozen = copy.deepcopy(dict(schema))

    class Answer(BaseModel):
        @classmethod
        def model_json_schema(cls, *args: Any, **kwargs: Any) -> dict[str, Any]:
            return copy.deepcopy(frozen)

    return Answer


def _sent(make_client: Any, create: Any) -> dict[str, Any]:
    """The first request body the instructor client sends (answered with an error, so the call stops
    there); any exception before a request was sent is instructor's and is raised."""
    sent: list[dict[str, Any]] = []

    def answer(request: httpx2.Request) -> httpx2.Response:
        sent.append(json.loads(request.content))
        return httpx2.Response(400, json={"error": {"message": "recorded", "type": "invalid_request_error"}})

    client = openai.OpenAI(api_key=_API_KEY, base_url="http://127.0.0.1:9/v1", max_retries=0,
                           http_client=httpx2.Client(transport=httpx2.MockTransport(answer)))
    try:
        create(make_client(client))
    except Exception:
        if not sent:
            raise
    return sent[0]


_MESSAGES = [{"role": "user", "content": "hi"}]


def _answer_model(schema: Any) -> tuple[str, ...]:
    """A reproducer's lines for ``Answer``, the response model whose JSON Schema is ``schema`` (the
    only thing instructor reads of it), as :func:`_response_model` builds it here."""
    return ("", f"SCHEMA = {literal(copy.deepcopy(schema))}", "", "",
            "class Answer(BaseModel):  # a response model whose JSON Schema is SCHEMA",
            "    @classmethod",
            "    def model_json_schema(cls, *args, **kwargs):",
            "        return json.loads(json.dumps(SCHEMA))",
            "", "")


class InstructorOpenRouterJsonSchema(Adapter):
    """``from_openrouter(client, mode=Mode.JSON_SCHEMA)``: the strict ``response_format`` schema."""

    name = "instructor (OpenRouter Mode.JSON_SCHEMA)"
    sdk = _SDK
    strictify_dialects = ("openai",)
    strictify_context = "output"

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Any:
        model = _response_model(schema)
        body = _sent(lambda client: instructor.from_openrouter(client, mode=instructor.Mode.JSON_SCHEMA),
                     lambda patched: patched.chat.completions.create(model="openai/gpt-4o", response_model=model,
                                                                     messages=_MESSAGES, max_retries=0))
        return body["response_format"]["json_schema"]["schema"]

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        return snippet(
            "import json",
            "from pydantic import BaseModel",
            "from instructor.v2.providers.openai.handlers import handle_openrouter_structured_outputs",
            *_answer_model(args[0]),
            "_, request = handle_openrouter_structured_outputs(Answer, {})",
            'print(json.dumps(request["response_format"], indent=1))',
        )


class InstructorResponsesTools(Adapter):
    """``from_openai(client, mode=Mode.RESPONSES_TOOLS)``: the strict ``text.format`` schema (and
    the forced tool's ``parameters``, the same schema)."""

    name = "instructor (OpenAI Mode.RESPONSES_TOOLS)"
    sdk = _SDK
    strictify_dialects = ("openai",)
    strictify_context = "output"

    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Any:
        model = _response_model(schema)
        body = _sent(lambda client: instructor.from_openai(client, mode=instructor.Mode.RESPONSES_TOOLS),
                     lambda patched: patched.responses.create(model="gpt-4o", response_model=model,
                                                              input="hi", max_retries=0))
        return body["text"]["format"]["schema"]

    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        if method != "strictify":
            return None
        return snippet(
            "import json",
            "from pydantic import BaseModel",
            "from instructor.v2.providers.openai.handlers import OpenAIResponsesToolsHandler",
            *_answer_model(args[0]),
            '_, request = OpenAIResponsesToolsHandler().prepare_request(Answer, {"input": "hi"})',
            'print(json.dumps(request["text"]["format"], indent=1))',
        )

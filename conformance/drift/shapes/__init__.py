"""Response shapes as data, one module per API, and the registry of shipped shapes.

API identifiers are stable strings ``<provider>.<api>``:

=========================== ==========================================================
``openai.chat``             OpenAI Chat Completions, ``POST /v1/chat/completions``
``openai.responses``        OpenAI Responses, ``POST /v1/responses``
``anthropic.messages``      Anthropic Messages, ``POST /v1/messages``
``gemini.generate_content`` Gemini ``models/{model}:generateContent`` (REST v1beta)
``groq.chat``               Groq, OpenAI-compatible ``/openai/v1/chat/completions``
``cerebras.chat``           Cerebras, OpenAI-compatible ``/v1/chat/completions``
``cloudflare.chat``         Cloudflare Workers AI, OpenAI-compatible ``/ai/v1/chat/completions``
=========================== ==========================================================

Each shape covers the non-streamed body and the stream (the same API id is used for both).
Custom shapes (another provider) are built with :mod:`.model` and passed directly to the
validator instead of an id.
"""

from __future__ import annotations

from collections.abc import Mapping
from types import MappingProxyType

from strictconformance.drift.shapes import (
    anthropic_messages,
    cerebras_chat,
    cloudflare_chat,
    gemini_generate_content,
    groq_chat,
    openai_chat,
    openai_responses,
)
from strictconformance.drift.shapes.model import ApiShape

__all__ = ["API_IDS", "SHAPES", "get_shape"]

#: The shipped shapes by API id (read-only).
SHAPES: Mapping[str, ApiShape] = MappingProxyType(
    {
        module.SHAPE.api: module.SHAPE
        for module in (
            openai_chat,
            openai_responses,
            anthropic_messages,
            gemini_generate_content,
            groq_chat,
            cerebras_chat,
            cloudflare_chat,
        )
    }
)

API_IDS: tuple[str, ...] = tuple(SHAPES)


def get_shape(api: str | ApiShape) -> ApiShape:
    """The shape for an API id (or ``api`` itself when it already is a shape).

    Raises ``ValueError`` naming the known ids for an unknown one: a wrong id is a mistake in
    the caller, not drift in a payload.
    """
    if isinstance(api, ApiShape):
        return api
    try:
        return SHAPES[api]
    except (KeyError, TypeError):
        raise ValueError(f"unknown API {api!r}; known: {', '.join(API_IDS)}") from None

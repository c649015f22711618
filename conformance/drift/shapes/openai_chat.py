"""OpenAI Chat Completions (``openai.chat``): ``POST /v1/chat/completions`` and its data-only stream.

The fields, their optionality and sources are in :mod:`._chat_family`, which the
OpenAI-compatible endpoints build on.
"""

from __future__ import annotations

from strictconformance.drift.shapes._chat_family import openai_chat_shape

__all__ = ["SHAPE"]

SHAPE = openai_chat_shape()

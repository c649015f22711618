"""Strict dialects as data (openai, openai@2025-01, anthropic, google, google-schema, cohere, mistral, lenient, custom) and the rule validator.

- :class:`Dialect`, :class:`StrictRule`, :class:`ValueEncoding`, :class:`Limits`: a dialect is data.
- :data:`SHIPPED`, :func:`get_dialect`, :func:`register_dialect`, :class:`DialectRegistry`.
- :func:`validate_strict`: every violation of a dialect's rules, with rule ID and JSON pointer.
- :class:`Loss`, :class:`Strictified`: what an adapter's ``strictify`` returns.
"""

from strictconformance.dialects.catalogue import CATALOGUE, SOURCES
from strictconformance.dialects.model import (
    CONTEXTS,
    LOSS_KINDS,
    ContextRules,
    Dialect,
    Limits,
    Loss,
    SchemaError,
    Strictified,
    StrictRule,
    ValueEncoding,
    Violation,
)
from strictconformance.dialects.registry import (
    DialectRegistry,
    get_dialect,
    register_dialect,
    resolve_dialect,
)
from strictconformance.dialects.shipped import (
    ANTHROPIC,
    COHERE,
    GOOGLE,
    GOOGLE_SCHEMA,
    LENIENT,
    MISTRAL,
    OPENAI,
    OPENAI_2025_01,
    SHIPPED,
)
from strictconformance.dialects.validator import validate_strict

__all__ = [
    "ANTHROPIC",
    "CATALOGUE",
    "COHERE",
    "CONTEXTS",
    "GOOGLE",
    "GOOGLE_SCHEMA",
    "LENIENT",
    "LOSS_KINDS",
    "MISTRAL",
    "OPENAI",
    "OPENAI_2025_01",
    "SHIPPED",
    "SOURCES",
    "ContextRules",
    "Dialect",
    "DialectRegistry",
    "Limits",
    "Loss",
    "SchemaError",
    "StrictRule",
    "Strictified",
    "ValueEncoding",
    "Violation",
    "get_dialect",
    "register_dialect",
    "resolve_dialect",
    "validate_strict",
]

"""How each shipped dialect's rules differ between its contexts (SPEC.md §3, contexts), as data.

A shipped dialect's rules are those of tool input schemas (function parameters). A strictify that
serves structured-output schemas (``response_format``, ``responseSchema``/``responseJsonSchema``,
``output_config.format``) declares ``strictify_context = "output"``, and its checks run with
:meth:`Dialect.in_context`: the rules below are waived there, each with its source, or kept with
the source saying they hold for output schemas too. Where a provider's documentation is silent,
the entry says so and takes the reading that flags less.
"""

from __future__ import annotations

from strictconformance.dialects.catalogue import SOURCES
from strictconformance.dialects.model import ContextRules

__all__ = [
    "ANTHROPIC_CONTEXTS",
    "COHERE_CONTEXTS",
    "GOOGLE_CONTEXTS",
    "GOOGLE_SCHEMA_CONTEXTS",
    "MISTRAL_CONTEXTS",
    "OPENAI_2025_01_CONTEXTS",
    "OPENAI_CONTEXTS",
]

_OPENAI_ROOT = (
    "the Structured Outputs guide states it for every strict schema, response_format included "
    f"(\"Root objects must not be anyOf and must be an object\", {SOURCES['openai']})."
)
_GEMINI_OUTPUT_ROOT = (
    "GenerationConfig.responseSchema \"can be objects, primitives or arrays\" and responseJsonSchema "
    f"is \"an alternative to responseSchema that accepts JSON Schema\" ({SOURCES['google-generation-config']}); "
    "only a function declaration's parameters \"must describe an object\" "
    f"({SOURCES['google-function-declaration']})."
)

OPENAI_CONTEXTS = (
    ContextRules("output", kept={"SM-01": _OPENAI_ROOT, "SM-30": _OPENAI_ROOT}),
)

OPENAI_2025_01_CONTEXTS = (
    ContextRules("output", kept={"SM-01": (
        "the guide of the time said it of every Structured Outputs schema too (\"The root level object "
        f"of a schema must be an object, and not use anyOf\", {SOURCES['openai']}).")}),
)

ANTHROPIC_CONTEXTS = (
    ContextRules("output", waived={"SM-01": (
        "strict tool use takes an object input_schema "
        f"({SOURCES['anthropic-tools']}), but for JSON outputs (output_config.format) the "
        f"documentation is silent on the root type: its JSON Schema limitations ({SOURCES['anthropic']}) "
        "restrict no root, so a non-object root is not flagged (the reading that flags less).")}),
)

GOOGLE_CONTEXTS = (ContextRules("output", waived={"SM-01": _GEMINI_OUTPUT_ROOT}),)

GOOGLE_SCHEMA_CONTEXTS = (ContextRules("output", waived={"SM-01": _GEMINI_OUTPUT_ROOT}),)

COHERE_CONTEXTS = (
    ContextRules("output", kept={"SM-01": (
        "\"The type in the top level schema must be object\" is stated on the Structured Outputs page "
        f"for response_format json_schema as for strict_tools ({SOURCES['cohere-constraints']}).")}),
)

MISTRAL_CONTEXTS = (
    ContextRules("output", kept={"SM-01": (
        "the instruction the API prepends to a response_format json_schema says \"Your output should "
        f"be an instance of a JSON object following this schema\" ({SOURCES['mistral']}).")}),
)

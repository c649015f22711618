"""Adapters for tests/test_contexts.py: strictify in a context (tool input or structured output)
and in each of Gemini's two schema modes (``google``: JSON Schema; ``google-schema``: the
OpenAPI-subset ``Schema`` object). Each is the reference strictify with one encoding choice changed,
so exactly the rule the test is about decides the verdict.
"""

from __future__ import annotations

import dataclasses

from strictconformance.dialects import GOOGLE, GOOGLE_SCHEMA, Dialect
from strictconformance.reference import ReferenceAdapter

#: Gemini JSON-Schema mode without the root wrapper: an array (or any) root stays as it is.
_GOOGLE_BARE_ROOT = dataclasses.replace(GOOGLE, encoding=dataclasses.replace(GOOGLE.encoding, wrap_root=False))
#: Gemini JSON-Schema mode keeping every format, as the Schema mode may.
_GOOGLE_EVERY_FORMAT = dataclasses.replace(GOOGLE, encoding=dataclasses.replace(GOOGLE.encoding, formats=None))
#: Gemini Schema mode keeping prefixItems, as the JSON-Schema mode may.
_GOOGLE_SCHEMA_TUPLES = dataclasses.replace(GOOGLE_SCHEMA, encoding=dataclasses.replace(
    GOOGLE_SCHEMA.encoding, tuples="native", keywords=GOOGLE.encoding.keywords))


class _Replaced(ReferenceAdapter):
    """The reference, strictifying ``name`` with ``replacement`` (same name, one encoding changed)."""

    replacement: Dialect = GOOGLE

    def _dialect(self, name: str) -> str | Dialect:
        return self.replacement if name == self.replacement.name else name


class GeminiOutputBareRoot(_Replaced):
    """A Gemini responseJsonSchema strictify that keeps a non-object root (documented as fine for
    output schemas): passes, SM-01 is not a rule of Gemini output schemas."""

    replacement = _GOOGLE_BARE_ROOT
    strictify_dialects = ("google",)
    strictify_context = "output"


class GeminiOutputBareRootPerDialect(GeminiOutputBareRoot):
    """The same, its context declared per dialect."""

    strictify_context = {"google": "output"}


class GeminiToolInputBareRoot(GeminiOutputBareRoot):
    """BROKEN: the same strictify serving function parameters (the default context), where the root
    must be an object: fails SM-01 (and RT-1)."""

    strictify_context = "tool_input"


class GeminiSchemaMode(ReferenceAdapter):
    """The reference in the Schema mode: keeps every ``format`` (any value is allowed there)."""

    strictify_dialects = ("google-schema",)


class GeminiSchemaModeDeclaredAsJsonSchemaMode(_Replaced):
    """BROKEN as declared: a Schema-mode strictify (every format kept) declared in the JSON-Schema
    mode's dialect, where only date-time, date and time are: fails SM-31 (and RT-1)."""

    replacement = _GOOGLE_EVERY_FORMAT
    strictify_dialects = ("google",)


class GeminiSchemaModeKeepsPrefixItems(_Replaced):
    """BROKEN: a Schema-mode strictify keeping ``prefixItems`` (the JSON-Schema mode has it, the
    Schema object does not): fails SM-28 (and RT-1) in google-schema."""

    replacement = _GOOGLE_SCHEMA_TUPLES
    strictify_dialects = ("google-schema",)


class GeminiJsonSchemaModeKeepsPrefixItems(ReferenceAdapter):
    """The reference in the JSON-Schema mode, where prefixItems is kept and allowed: passes SM-28's
    absence there (google applies no SM-28)."""

    strictify_dialects = ("google",)


# -- declarations the suite refuses at start-up ----------------------------------------------------

class UnknownContext(ReferenceAdapter):
    strictify_dialects = ("google",)
    strictify_context = "response"


class ContextForUndeclaredDialect(ReferenceAdapter):
    strictify_dialects = ("google",)
    strictify_context = {"openai": "output"}


class ContextNotAName(ReferenceAdapter):
    strictify_dialects = ("google",)
    strictify_context = ("output",)

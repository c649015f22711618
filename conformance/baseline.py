"""The baseline: the reference's strictify and encoding, where the suite needs a dialect's answer
and the adapter under test gives none.

The reference (:mod:`strictconformance.reference`) is an implementation under test like any other.
Besides the plugin's default adapter (named by a string, ``strictconformance.plugin.DEFAULT_ADAPTER``)
this is the one module of the kit that imports it (``tests/test_layers.py`` keeps it so); the
checks and the command line reach it through here:

- RT-10 asks whether the reference can express a schema without reshaping its values;
- the codec checks (RT-5..RT-7) judge an adapter's ``decode`` against a strict schema and the
  dialect's wire shape, the reference's when the adapter has no ``strictify``/``encode``;
- the strict-schema checks tell a schema that is not usable (the reference refuses it too, a
  ``SchemaError``) from one the adapter merely crashes on;
- ``strictconformance strictify`` prints the reference's strict schema and losses.

The reference is imported on first call: the checks' modules stay importable without it loaded.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from strictconformance.dialects.model import Dialect, Strictified

__all__ = ["baseline_encode", "baseline_reshapes", "baseline_strictify"]


def baseline_strictify(schema: Mapping[str, Any], dialect: str | Dialect) -> Strictified:
    """``schema`` in ``dialect``'s strict subset, with its losses, as the reference writes it
    (memoised on the schema's JSON text). ``dialect``: a shipped name or any :class:`Dialect`.
    Raises ``jsonschema.exceptions.SchemaError`` for a schema that is not a usable JSON Schema."""
    from strictconformance.reference.strictify import reference_strictify

    return reference_strictify(schema, dialect)


def baseline_encode(schema: Mapping[str, Any], dialect: str | Dialect, value: Any) -> Any:
    """``value`` in the wire shape of :func:`baseline_strictify`'s strict schema (``schema`` is the
    original schema): what a model answering in strict mode sends."""
    from strictconformance.reference.strictify import reference_encode

    return reference_encode(schema, dialect, value)


def baseline_reshapes(schema: Mapping[str, Any], dialect: str | Dialect) -> bool:
    """Whether :func:`baseline_strictify` can express ``schema`` in ``dialect`` only by giving its
    values another shape on the wire (a wrapped root, records as pairs, tuples as objects): RT-10
    calls a refusal of such a schema unnecessary only for an adapter whose codec reshapes too."""
    from strictconformance.reference.strictify import reference_reshapes

    return reference_reshapes(schema, dialect)

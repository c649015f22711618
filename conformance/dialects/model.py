"""The data types of dialects: rules, value encodings, limits, violations, losses.

A dialect is data (SPEC.md §3): the rules its strict subset imposes (each with its public ID,
its check name, its source and a one-line reason), the value encoding strictify uses for it,
and a few limits. Nothing here computes; :mod:`.validator` checks schemas against the rules and
:mod:`strictconformance.reference.strictify` rewrites schemas into the dialect.
"""

from __future__ import annotations

import reprlib
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from types import MappingProxyType
from typing import Any, Literal

__all__ = [
    "CONTEXTS",
    "LOSS_KINDS",
    "ContextRules",
    "Dialect",
    "Limits",
    "Loss",
    "LossKind",
    "SchemaError",
    "StrictRule",
    "Strictified",
    "ValueEncoding",
    "Violation",
]


class SchemaError(ValueError):
    """Input that is not a usable JSON Schema: names the JSON pointer and the problem."""

    def __init__(self, pointer: str, problem: str) -> None:
        self.pointer = pointer
        self.problem = problem
        super().__init__(f"at {pointer or '/'} (JSON pointer into the schema): {problem}")


#: Validator primitives a rule may use (``StrictRule.kind``) and the parameters each takes.
RULE_KINDS: Mapping[str, tuple[str, ...]] = MappingProxyType({
    "root_object": (),
    "root_not_combinator": ("keywords",),
    "type_declared": (),
    "closed_objects": (),
    "array_items": (),
    "banned_keywords": ("keywords",),
    "max_depth": ("limit",),
    "all_required": (),
    "max_total_properties": ("limit",),
    "max_enum_values": ("limit",),
    "max_total_string_length": ("limit",),
    "large_enum_string_length": ("threshold", "limit"),
    "format_whitelist": ("formats",),
    "no_recursion": (),
    "enum_scalars": (),
    "keyword_values": ("keyword", "allowed"),
    "all_of_without_ref": (),
    "internal_refs": (),
    "property_ordering": (),
    "simple_regex": (),
})


@dataclass(frozen=True)
class StrictRule:
    """One rule of a dialect's strict subset.

    ``kind`` selects the validator primitive and ``params`` configures it (a depth limit, a
    keyword list, a format whitelist). ``note`` records where the provider's documentation is
    ambiguous and which reading the rule takes (always the one that flags less).
    """

    id: str
    check: str
    kind: str
    title: str
    reason: str
    source: str
    params: Mapping[str, Any] = field(default_factory=dict)
    note: str = ""
    #: how the provider's documentation states the rule: ``"documented"`` (it says so), or
    #: ``"indirect"`` (it is silent: the keyword is only missing from its list of supported ones);
    #: the report lists findings of an indirect rule apart, saying so
    basis: str = "documented"

    def __post_init__(self) -> None:
        if self.basis not in ("documented", "indirect"):
            raise ValueError(f"rule {self.id}: basis is 'documented' or 'indirect', not {self.basis!r}")
        if not self.id.startswith("SM-"):
            raise ValueError(f"strict rule id {self.id!r} must be SM-NN")
        if self.kind not in RULE_KINDS:
            raise ValueError(f"rule {self.id}: unknown kind {self.kind!r}; known: {', '.join(RULE_KINDS)}")
        missing = set(RULE_KINDS[self.kind]) - set(self.params)
        if missing:
            raise ValueError(f"rule {self.id} ({self.kind}) lacks parameters {sorted(missing)}")
        object.__setattr__(self, "params", MappingProxyType(dict(self.params)))


@dataclass(frozen=True)
class ValueEncoding:
    """How values of the original schema travel on the wire in a dialect.

    - ``records``: ``"pairs"`` turns ``additionalProperties: <schema>`` maps into arrays of
      ``{"key", "value"}`` objects; ``"native"`` keeps them.
    - ``tuples``: ``"numeric_keys"`` turns ``prefixItems`` arrays into objects keyed ``"0"``,
      ``"1"``...; ``"native"`` keeps ``prefixItems``.
    - ``optional``: ``"required_nullable"`` makes an optional property required with
      ``T | null`` (null meaning absent); ``"optional"`` keeps it optional.
    - ``recursion``: ``"keep"`` keeps recursive ``$defs``/``$ref``; ``"unroll"`` inlines them
      ``unroll_depth`` times and truncates below.
    - ``references``: ``"keep"`` may keep ``$ref``: to recursive definitions (where ``recursion`` is
      ``"keep"``) and, where the dialect has no depth limit (``Limits.max_depth`` is ``None``), to a
      definition the strict schema refers to from two places or more, kept once under ``$defs``
      (inlined at each place, shared definitions unfold exponentially); a definition used once, or
      with a ``title``/``description`` beside the reference, is inlined there. With a depth limit
      (counted on the tree, not through ``$ref``) shared definitions stay inlined. ``"inline"``
      replaces every reference by its target.
    - ``close_objects``: every object gets ``additionalProperties: false``.
    - ``wrap_root``: a root that is not a plain object is wrapped as ``{"result": <root>}``.
    - ``keywords``: the keywords strictify may keep (``None``: every keyword). The validator does
      not read this allowlist: it checks the rules, so the two can disagree and be caught.
    - ``formats``: the ``format`` values strictify may keep (``None``: every format).
    - ``property_ordering``: emit ``propertyOrdering`` on every object with properties.
    - ``combine_all_of``: merge ``allOf`` into its parent; ``one_of_as_any_of``: rewrite ``oneOf``.
    - ``declare_types``: give every node a ``type`` (an untyped "any" travels as JSON text).
    - ``min_items_allowed``: the ``minItems`` values kept (others are lowered to the largest kept).
    - ``simple_patterns_only``: drop ``pattern`` with backreferences, lookaround or ``\\b``.
    - ``scalar_enums``: drop an ``enum`` listing an array or object (the node travels as its type).
    """

    records: Literal["pairs", "native"] = "native"
    tuples: Literal["numeric_keys", "native"] = "native"
    optional: Literal["required_nullable", "optional"] = "optional"
    recursion: Literal["keep", "unroll"] = "keep"
    references: Literal["keep", "inline"] = "keep"
    unroll_depth: int = 3
    close_objects: bool = False
    wrap_root: bool = False
    keywords: frozenset[str] | None = None
    formats: frozenset[str] | None = None
    property_ordering: bool = False
    combine_all_of: bool = False
    one_of_as_any_of: bool = False
    declare_types: bool = False
    min_items_allowed: frozenset[int] | None = None
    simple_patterns_only: bool = False
    scalar_enums: bool = False


@dataclass(frozen=True)
class Limits:
    """Sizes strictify keeps the output within (``None``: unlimited), each from a source."""

    max_depth: int | None = None
    max_total_properties: int | None = None
    max_enum_values: int | None = None
    max_total_string_length: int | None = None
    large_enum_threshold: int | None = None
    large_enum_string_length: int | None = None
    source: str = ""


#: What a strict schema is for (SPEC.md §3, contexts): a tool's input (function parameters, the
#: default) or a structured output (``response_format``, ``responseSchema``, ``output_config.format``).
CONTEXTS: tuple[str, ...] = ("tool_input", "output")


@dataclass(frozen=True)
class ContextRules:
    """How a dialect's rules differ for the schemas of another context than its own.

    ``waived`` maps a rule ID to why the rule does not hold there (its source, or that the
    documentation is silent and the reading that flags less was taken); ``kept`` maps a rule ID to
    why it still holds there (the source saying so). A rule named in neither holds unchanged.
    """

    context: str
    waived: Mapping[str, str] = field(default_factory=dict)
    kept: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if self.context not in CONTEXTS:
            raise ValueError(f"unknown context {self.context!r}; known: {', '.join(CONTEXTS)}")
        both = set(self.waived) & set(self.kept)
        if both:
            raise ValueError(f"context {self.context!r} both waives and keeps {sorted(both)}")
        for rule_id, why in {**self.waived, **self.kept}.items():
            if not isinstance(why, str) or not why.strip():
                raise ValueError(f"context {self.context!r}: rule {rule_id} needs a reason with its source, got {why!r}")
        object.__setattr__(self, "waived", MappingProxyType(dict(self.waived)))
        object.__setattr__(self, "kept", MappingProxyType(dict(self.kept)))


@dataclass(frozen=True)
class Dialect:
    """A provider's strict subset of JSON Schema plus the value encoding that goes with it.

    ``rules`` are those of the dialect's ``context`` (tool input by default); ``contexts`` says how
    they differ for the schemas of another context, and :meth:`in_context` gives that dialect.
    """

    name: str
    description: str
    rules: tuple[StrictRule, ...]
    encoding: ValueEncoding
    limits: Limits = Limits()
    source: str = ""
    #: Per-request budgets (SPEC.md §2), e.g. ``{"strict_tools": 20}``; checked by BUD rules.
    budgets: Mapping[str, int] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    #: The context the ``rules`` are for: ``"tool_input"`` or ``"output"`` (:data:`CONTEXTS`).
    context: str = "tool_input"
    #: How the rules differ in other contexts (at most one :class:`ContextRules` per context).
    contexts: tuple[ContextRules, ...] = ()
    #: Keywords whose support the provider's sources leave open (keyword -> why, with the sources):
    #: the encoding keeps them, so no rule flags them, and by the same reading an SDK that refuses a
    #: schema needing one (any value but ``false``) is not refusing for nothing (RT-10).
    unsettled: Mapping[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        seen: set[str] = set()
        for rule in self.rules:
            if rule.id in seen:
                raise ValueError(f"dialect {self.name!r} lists rule {rule.id} twice")
            seen.add(rule.id)
        object.__setattr__(self, "budgets", MappingProxyType(dict(self.budgets)))
        for keyword, why in self.unsettled.items():
            if not isinstance(why, str) or not why.strip():
                raise ValueError(f"dialect {self.name!r}: unsettled keyword {keyword!r} needs the reason with its sources, got {why!r}")
        object.__setattr__(self, "unsettled", MappingProxyType(dict(self.unsettled)))
        if self.context not in CONTEXTS:
            raise ValueError(f"dialect {self.name!r}: unknown context {self.context!r}; known: {', '.join(CONTEXTS)}")
        described = [change.context for change in self.contexts]
        for change in self.contexts:
            if not isinstance(change, ContextRules):
                raise TypeError(f"dialect {self.name!r}: contexts holds {change!r}, expected ContextRules")
            if change.context == self.context or described.count(change.context) > 1:
                raise ValueError(f"dialect {self.name!r}: context {change.context!r} described twice (or is its own)")
            # a rule the dialect does not apply is passed over (a dialect derived from a shipped one
            # with fewer rules keeps its contexts); a name that is no rule ID is an error
            wrong = sorted(rule_id for rule_id in (*change.waived, *change.kept) if not str(rule_id).startswith("SM-"))
            if wrong:
                raise ValueError(f"dialect {self.name!r}: context {change.context!r} names {wrong}, which are not SM rule IDs")

    def in_context(self, context: str) -> Dialect:
        """This dialect for the schemas of ``context``: the same name, encoding and limits, without
        the rules its :class:`ContextRules` waive there (the same rules when it describes none)."""
        if context == self.context:
            return self
        if context not in CONTEXTS:
            raise ValueError(f"unknown context {context!r}; known: {', '.join(CONTEXTS)}")
        change = next((change for change in self.contexts if change.context == context), None)
        if change is None:
            notes = (f"No difference documented for {context} schemas: the {self.context} rules apply.",)
            return replace(self, context=context, contexts=(), notes=(*self.notes, *notes))
        seen = set(self.rule_ids)
        rules = tuple(
            replace(rule, note=f"{rule.note} In {context} schemas: {change.kept[rule.id]}".strip()) if rule.id in change.kept else rule
            for rule in self.rules if rule.id not in change.waived
        )
        waived = tuple(f"{rule_id} not applied to {context} schemas: {why}" for rule_id, why in change.waived.items() if rule_id in seen)
        return replace(self, rules=rules, context=context, contexts=(), notes=(*self.notes, *waived))

    def rule(self, rule_id: str) -> StrictRule:
        for rule in self.rules:
            if rule.id == rule_id:
                return rule
        raise KeyError(f"dialect {self.name!r} has no rule {rule_id}; it has {', '.join(r.id for r in self.rules)}")

    @property
    def rule_ids(self) -> tuple[str, ...]:
        return tuple(rule.id for rule in self.rules)


@dataclass(frozen=True)
class Violation:
    """One place where a schema breaks a dialect rule."""

    rule_id: str
    check: str
    pointer: str
    message: str

    def __str__(self) -> str:
        return f"{self.rule_id} {self.check} at {self.pointer or '/'}: {self.message}"


LossKind = Literal[
    "keyword-stripped",
    "truncated",
    "opaque",
    "absent-null-collapse",
    "narrowed",
    "loosened",
    "ambiguous",
    "annotation-dropped",
]

#: What each kind of loss means for the round trip: (may break RT-4 completeness,
#: may break RT-5 soundness, what it is).
LOSS_KINDS: Mapping[str, tuple[bool, bool, str]] = MappingProxyType({
    "keyword-stripped": (False, True, "a keyword the dialect does not support was removed: the wire accepts more"),
    "truncated": (False, True, "a subtree below the depth or size limit travels as a JSON string"),
    "opaque": (False, True, "a schema with no type travels as a JSON string"),
    "absent-null-collapse": (True, False, "an optional property that also accepts null: absent and null meet on the wire"),
    "narrowed": (True, False, "values the original accepts cannot be expressed on the wire (e.g. extra keys dropped)"),
    "loosened": (False, True, "a construct was replaced by a looser one (e.g. oneOf by anyOf)"),
    "ambiguous": (True, False, "anyOf branches whose wire values can coincide while they decode differently"),
    # RT-9: a description or title strictify could not keep nor fold into an ancestor's description
    "annotation-dropped": (False, False, "a description or title was dropped: the model sees less guidance, no value changes"),
})


@dataclass(frozen=True)
class Loss:
    """Something strictify had to loosen or give up.

    ``pointer`` is a JSON pointer into the ORIGINAL schema: the node whose meaning changed (for
    ``absent-null-collapse``, the property's subschema, ``/properties/<name>``).
    """

    pointer: str
    kind: str
    keyword: str
    detail: str

    def __post_init__(self) -> None:
        if self.kind not in LOSS_KINDS:
            raise ValueError(f"unknown loss kind {self.kind!r}; known: {', '.join(LOSS_KINDS)}")

    def as_json(self) -> dict[str, str]:
        return {"pointer": self.pointer, "kind": self.kind, "keyword": self.keyword, "detail": self.detail}


@dataclass(frozen=True)
class Strictified:
    """What an adapter's ``strictify`` returns: the strict schema and the losses it reports."""

    schema: dict[str, Any]
    losses: tuple[Loss, ...] = ()

    @classmethod
    def coerce(cls, result: object) -> Strictified:
        """Accept an adapter's answer: a :class:`Strictified`, anything with ``.schema`` and
        ``.losses``, or a bare dict (no losses reported). Raises ``TypeError``/``ValueError``
        saying what is wrong with anything else, or with a loss that is not one (also inside a
        :class:`Strictified`, whose fields are not type-checked when it is built)."""
        if isinstance(result, dict):
            return cls(result, ())
        schema = getattr(result, "schema", None)
        losses = getattr(result, "losses", None)
        if not isinstance(schema, dict) or losses is None:
            what = type(result).__name__ if not hasattr(result, "schema") else f"{type(result).__name__} whose schema is a {type(schema).__name__}"
            raise TypeError(f"strictify must return a dict (the strict schema) or a Strictified(schema, losses), got {what}")
        if isinstance(losses, (str, bytes, Mapping)) or not hasattr(losses, "__iter__"):
            raise TypeError(f"Strictified.losses must be a sequence of Loss, got {type(losses).__name__}")
        coerced = tuple(_coerce_loss(loss, index) for index, loss in enumerate(losses))
        if isinstance(result, Strictified) and coerced == result.losses:
            return result
        return cls(schema, coerced)


def _coerce_loss(loss: object, index: int) -> Loss:
    if isinstance(loss, Loss):
        fields = {name: getattr(loss, name) for name in ("pointer", "kind", "keyword", "detail")}
        wrong = [name for name, value in fields.items() if not isinstance(value, str)]
        if wrong:
            raise TypeError(f"losses[{index}]: Loss.{wrong[0]} is {reprlib.repr(fields[wrong[0]])}, expected a string")
        return loss
    if isinstance(loss, Mapping) and isinstance(loss.get("pointer"), str):
        try:
            return Loss(loss["pointer"], str(loss.get("kind", "loosened")), str(loss.get("keyword", "")), str(loss.get("detail", "")))
        except ValueError as exc:
            raise ValueError(f"losses[{index}]: {exc}") from None
    raise TypeError(f"losses[{index}] is {reprlib.repr(loss)}, expected a Loss (or a mapping with a string 'pointer')")

"""Input shapes: one description of a tool's input, written three ways (TL-1).

An :class:`ObjectShape` is plain data. From it, pure builders produce the raw JSON Schema, a
pydantic model, and a typed function signature with a docstring - the three sources a tool
helper accepts. A conforming helper advertises the same schema for all three.
The builders also give what an input looks like once declared defaults are filled in, and what
types a callback should receive (model instances for nested objects), so the checks can tell a
correct "as given" delivery from a lossy one.

Shapes are deliberately the common ground of pydantic and JSON Schema: scalar types, string
enums of two or more values, unions of scalar types (``str | int``: a ``type`` list or an
``anyOf`` in the raw schema), lists, nested objects, ``T | None``, defaults, descriptions, closed
or open objects, and the constraints both write the same way (:data:`CONSTRAINTS`: bounds,
lengths, a pattern, item counts).
"""

from __future__ import annotations

import inspect
import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Annotated, Any, Literal, Optional, Union

import pydantic

from strictconformance.dialects.pointers import pointer_from_path
from strictconformance.tools.jsonvalue import JSONValue
from strictconformance.tools.results import ToolContext

__all__ = [
    "CONSTRAINTS",
    "NO_DEFAULT",
    "UNION_KINDS",
    "FieldKind",
    "FieldShape",
    "ObjectShape",
    "describe_function",
    "fill_defaults",
    "is_no_default",
    "json_equal",
    "model_for",
    "python_type_for",
    "schema_for",
    "signature_callback",
    "type_mismatches",
]

FieldKind = Literal["string", "integer", "number", "boolean", "enum", "union", "list", "object"]

_SCALAR_TYPES: Mapping[str, type] = {"string": str, "integer": int, "number": float, "boolean": bool}

#: The scalar kinds a union may combine, in the order a union lists them (one fixed order: typing
#: caches ``Optional[Union[...]]`` by set-equality, so two orders of one set would share one).
#: ``integer`` and ``number`` never meet in one union: an integer is a number.
UNION_KINDS: tuple[FieldKind, ...] = ("string", "integer", "number", "boolean")

#: JSON Schema constraint keyword -> (the kinds it applies to, the pydantic ``Field`` argument
#: that writes it): the constraints a pydantic annotation and a raw schema spell the same way.
CONSTRAINTS: Mapping[str, tuple[tuple[FieldKind, ...], str]] = {
    "minimum": (("integer", "number"), "ge"),
    "maximum": (("integer", "number"), "le"),
    "minLength": (("string",), "min_length"),
    "maxLength": (("string",), "max_length"),
    "pattern": (("string",), "pattern"),
    "minItems": (("list",), "min_length"),
    "maxItems": (("list",), "max_length"),
}


class _NoDefault:
    """The type of :data:`NO_DEFAULT`. Recognised by name, not identity (:func:`is_no_default`):
    a test runner that drops and re-imports modules (pytester's in-process runs do) can leave two
    copies of this module alive, and a shape built with one must read the same in the other."""

    def __repr__(self) -> str:
        return "NO_DEFAULT"

    def __eq__(self, other: object) -> bool:
        return is_no_default(other)

    def __hash__(self) -> int:
        return hash(_NoDefault.__qualname__)

    def __copy__(self) -> _NoDefault:
        return self

    def __deepcopy__(self, memo: object) -> _NoDefault:
        return self


#: Marks a field without a default (it is then required).
NO_DEFAULT: Any = _NoDefault()


def is_no_default(value: object) -> bool:
    """Whether ``value`` is :data:`NO_DEFAULT`, from this copy of the module or another one."""
    kind = type(value)
    return kind.__qualname__ == _NoDefault.__qualname__ and kind.__module__ == _NoDefault.__module__


@dataclass(frozen=True)
class FieldShape:
    """One value's shape. ``default`` is ``NO_DEFAULT`` for a required property.

    ``variants`` are the scalar kinds of a ``"union"`` (in :data:`UNION_KINDS` order), and
    ``any_of`` writes the union as ``anyOf`` instead of a ``type`` list in the raw schema (both mean
    the same). ``constraints`` are ``(keyword, value)`` pairs of :data:`CONSTRAINTS` that apply to
    the kind.
    """

    kind: FieldKind
    nullable: bool = False
    description: str | None = None
    default: Any = NO_DEFAULT
    enum_values: tuple[str, ...] = ()
    item: FieldShape | None = None
    obj: ObjectShape | None = None
    variants: tuple[FieldKind, ...] = ()
    any_of: bool = False
    constraints: tuple[tuple[str, Any], ...] = ()

    def __post_init__(self) -> None:
        for keyword, _ in self.constraints:
            kinds = CONSTRAINTS[keyword][0] if keyword in CONSTRAINTS else ()
            if self.kind not in kinds:
                raise ValueError(f"constraint {keyword!r} does not apply to a {self.kind} field")
        if self.kind == "union" and (len(self.variants) < 2 or any(kind not in UNION_KINDS for kind in self.variants)):
            raise ValueError(f"a union needs two or more of {UNION_KINDS}, got {self.variants}")

    @property
    def required(self) -> bool:
        return is_no_default(self.default)

    def constraint(self, keyword: str) -> Any:
        """The value of constraint ``keyword``, or None."""
        return dict(self.constraints).get(keyword)


@dataclass(frozen=True)
class ObjectShape:
    """An object: ordered named fields, closed (no other properties) or open, an optional docstring."""

    name: str
    fields: tuple[tuple[str, FieldShape], ...]
    closed: bool = True
    description: str | None = None

    def field(self, name: str) -> FieldShape:
        for field_name, shape in self.fields:
            if field_name == name:
                return shape
        raise KeyError(f"{self.name} has no field {name!r}")


# -- JSON Schema ---------------------------------------------------------------------------------


def _value_schema(shape: FieldShape) -> dict[str, Any]:
    """The schema of the value itself (no nullability, description or default)."""
    out: dict[str, Any]
    if shape.kind in _SCALAR_TYPES:
        out = {"type": shape.kind}
    elif shape.kind == "enum":
        out = {"type": "string", "enum": list(shape.enum_values)}
    elif shape.kind == "union":
        out = {"anyOf": [{"type": kind} for kind in shape.variants]} if shape.any_of else {"type": list(shape.variants)}
    elif shape.kind == "list":
        assert shape.item is not None
        out = {"type": "array", "items": _field_schema(shape.item)}
    else:
        assert shape.obj is not None
        return schema_for(shape.obj, root=False)
    out.update(shape.constraints)
    return out


def _field_schema(shape: FieldShape) -> dict[str, Any]:
    value = _value_schema(shape)
    if shape.nullable:
        if shape.kind in _SCALAR_TYPES and not shape.constraints:
            value = {"type": [shape.kind, "null"]}
        elif shape.kind == "union" and not shape.any_of:
            value = {"type": [*shape.variants, "null"]}
        elif shape.kind == "union":
            value = {"anyOf": [*value["anyOf"], {"type": "null"}]}
        else:  # constraints stay with the value they constrain, as pydantic writes them
            value = {"anyOf": [value, {"type": "null"}]}
    # a field's own description beats its model's docstring, as pydantic's $ref siblings do
    description = shape.description if shape.description is not None else value.get("description")
    value.pop("description", None)
    if description is not None:
        value["description"] = description
    if not shape.required:
        value["default"] = shape.default
    return value


def schema_for(shape: ObjectShape, *, root: bool = True) -> dict[str, Any]:
    """The raw JSON Schema of ``shape``; its canonical form
    (:func:`~strictconformance.tools.canonical_input_schema`) is what a conforming helper advertises."""
    out: dict[str, Any] = {"type": "object"}
    if shape.description is not None and not root:
        out["description"] = shape.description
    if shape.closed:
        out["additionalProperties"] = False
    out["properties"] = {name: _field_schema(field) for name, field in shape.fields}
    required = [name for name, field in shape.fields if field.required]
    if required:
        out["required"] = required
    return out


# -- pydantic and signatures ---------------------------------------------------------------------


def free_form(shape: ObjectShape) -> bool:
    """Whether ``shape`` is an open object with no declared properties: in a signature or a model
    it is ``dict[str, Any]`` (pydantic advertises it with ``additionalProperties: true``), and the
    callback receives a dict."""
    return not shape.closed and not shape.fields


def python_type_for(shape: FieldShape, models: Mapping[str, type[pydantic.BaseModel]]) -> Any:
    """The annotation for a field; nested objects use the classes in ``models`` (by shape name).
    Constraints go on the value's own type (``Optional[Annotated[int, Field(ge=1)]]``), so that
    pydantic writes them where the raw schema has them."""
    annotation: Any
    if shape.kind in _SCALAR_TYPES:
        annotation = _SCALAR_TYPES[shape.kind]
    elif shape.kind == "enum":
        annotation = Literal[shape.enum_values]
    elif shape.kind == "union":
        annotation = Union[tuple(_SCALAR_TYPES[kind] for kind in shape.variants)]  # noqa: UP007 - built at runtime
    elif shape.kind == "list":
        assert shape.item is not None
        annotation = list[python_type_for(shape.item, models)]  # type: ignore[misc]
    else:
        assert shape.obj is not None
        # an open object with no declared properties is a free-form mapping: ``dict[str, Any]``
        # (a model with no fields would be an object of no properties, closed or dropping them)
        annotation = dict[str, Any] if free_form(shape.obj) else models[shape.obj.name]
    if shape.constraints:
        arguments = {CONSTRAINTS[keyword][1]: value for keyword, value in shape.constraints}
        annotation = Annotated[annotation, pydantic.Field(**arguments)]
    return Optional[annotation] if shape.nullable else annotation  # noqa: UP045 - built at runtime


def _nested_objects(shape: ObjectShape) -> list[ObjectShape]:
    """Every object shape under ``shape`` (not itself), innermost first."""
    found: list[ObjectShape] = []

    def visit(field: FieldShape) -> None:
        if field.item is not None:
            visit(field.item)
        if field.obj is not None:
            for _, inner in field.obj.fields:
                visit(inner)
            found.append(field.obj)

    for _, field in shape.fields:
        visit(field)
    return found


def _field_definition(field: FieldShape, models: Mapping[str, type[pydantic.BaseModel]]) -> tuple[Any, Any]:
    kwargs: dict[str, Any] = {}
    if field.description is not None:
        kwargs["description"] = field.description
    if not field.required:
        kwargs["default"] = field.default
    return python_type_for(field, models), pydantic.Field(**kwargs)


def _build_model(shape: ObjectShape, models: Mapping[str, type[pydantic.BaseModel]]) -> type[pydantic.BaseModel]:
    config = pydantic.ConfigDict(extra="forbid" if shape.closed else "ignore")
    definitions = {name: _field_definition(field, models) for name, field in shape.fields}
    model: type[pydantic.BaseModel] = pydantic.create_model(  # type: ignore[call-overload]
        shape.name, __config__=config, __doc__=shape.description, **definitions
    )
    return model


def models_for(shape: ObjectShape) -> dict[str, type[pydantic.BaseModel]]:
    """Pydantic models for ``shape`` and every nested object shape, keyed by shape name."""
    models: dict[str, type[pydantic.BaseModel]] = {}
    for inner in _nested_objects(shape):
        if inner.name not in models:
            models[inner.name] = _build_model(inner, models)
    models[shape.name] = _build_model(shape, models)
    return models


def model_for(shape: ObjectShape) -> type[pydantic.BaseModel]:
    """A pydantic model class with exactly ``shape``'s fields, docstrings and closedness."""
    return models_for(shape)[shape.name]


def signature_callback(
    shape: ObjectShape,
    body: Callable[[dict[str, Any], ToolContext | None], Any],
    *,
    name: str,
    summary: str,
    context_parameter: str | None = None,
) -> Callable[..., Any]:
    """A function whose signature and docstring describe ``shape``; it calls ``body(kwargs, ctx)``.

    Parameters are keyword-only (so required and defaulted ones may come in any order), typed
    with the nested models of :func:`models_for`, described in a Google-style ``Args:`` section.
    ``shape`` must be closed: a function takes no other arguments.
    """

    def callback(**kwargs: Any) -> Any:
        context = kwargs.pop(context_parameter, None) if context_parameter is not None else None
        return body(kwargs, context)

    return describe_function(callback, shape, name=name, summary=summary, context_parameter=context_parameter)


def describe_function(
    function: Callable[..., Any],
    shape: ObjectShape,
    *,
    name: str,
    summary: str,
    context_parameter: str | None = None,
    sections: str = "",
) -> Callable[..., Any]:
    """``function`` (which takes keyword arguments) given the signature, type hints, name and
    Google-style docstring of ``shape``: ``summary``, an ``Args:`` section for the described
    fields, then ``sections`` (e.g. ``Returns:``) as written. Returns ``function`` itself."""
    if not shape.closed:
        raise ValueError("a signature describes a closed object; give a closed shape")
    models = models_for(shape)
    parameters = [
        inspect.Parameter(
            field_name,
            inspect.Parameter.KEYWORD_ONLY,
            default=inspect.Parameter.empty if field.required else field.default,
            annotation=python_type_for(field, models),
        )
        for field_name, field in shape.fields
    ]
    if context_parameter is not None:
        parameters.append(inspect.Parameter(context_parameter, inspect.Parameter.KEYWORD_ONLY, annotation=ToolContext))
    documented = [(field_name, field.description) for field_name, field in shape.fields if field.description]
    doc = summary
    if documented:
        doc += "\n\nArgs:\n" + "\n".join(f"    {field_name}: {text}" for field_name, text in documented)
    if sections:
        doc += "\n\n" + sections
    function.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    function.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    function.__doc__ = doc
    function.__name__ = function.__qualname__ = name
    return function


# -- comparing what a callback received with what was sent ---------------------------------------


def json_equal(left: object, right: object) -> bool:
    """Equality of JSON values that keeps booleans apart from numbers (``True != 1``)."""
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return left == right or (isinstance(left, float) and isinstance(right, float) and math.isnan(left) and math.isnan(right))
    if isinstance(left, Mapping) and isinstance(right, Mapping):
        return left.keys() == right.keys() and all(json_equal(left[key], right[key]) for key in left)
    if isinstance(left, (list, tuple)) and isinstance(right, (list, tuple)):
        return len(left) == len(right) and all(json_equal(a, b) for a, b in zip(left, right, strict=True))
    return type(left) is type(right) and left == right


def as_json(value: object) -> JSONValue:
    """A received value as JSON: models dumped (all fields, by alias), containers walked."""
    if isinstance(value, pydantic.BaseModel):
        return value.model_dump(mode="json", by_alias=True)
    if isinstance(value, Mapping):
        return {key: as_json(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [as_json(item) for item in value]
    return value


def _fill(value: JSONValue, field: FieldShape, keep_undeclared: bool) -> JSONValue:
    if value is None:
        return None
    if field.kind == "object" and field.obj is not None and isinstance(value, Mapping):
        return fill_defaults(value, field.obj, keep_undeclared=keep_undeclared)
    if field.kind == "list" and field.item is not None and isinstance(value, list):
        return [_fill(item, field.item, keep_undeclared) for item in value]
    return value


def fill_defaults(value: Mapping[str, Any], shape: ObjectShape, *, keep_undeclared: bool = False) -> dict[str, Any]:
    """``value`` with every absent defaulted property set to its default, at every depth.

    Undeclared properties of open objects are dropped unless ``keep_undeclared``: a model may
    ignore them (pydantic's default), while a raw JSON Schema tool must pass them on as given.
    Those of closed objects are always kept (they make the value invalid and must show).
    """
    out: dict[str, Any] = {}
    for name, field in shape.fields:
        if name in value:
            out[name] = _fill(value[name], field, keep_undeclared)
        elif not field.required:
            out[name] = field.default
    if shape.closed or keep_undeclared:
        out.update((key, item) for key, item in value.items() if key not in out)
    return out


def type_mismatches(value: object, shape: ObjectShape, *, expect_models: bool, path: tuple[str | int, ...] = ()) -> list[str]:
    """Where a received value has the wrong Python type for its source.

    With ``expect_models`` (pydantic-model or type-hint tools) every nested object must arrive as
    an instance of a pydantic model; otherwise (raw JSON Schema tools) as a dict.
    """
    problems: list[str] = []
    where = pointer_from_path(path) or "the root"
    if expect_models and path and free_form(shape):
        return [] if isinstance(value, Mapping) else [f"{where}: expected a dict (a free-form object), got {type(value).__name__}"]
    if expect_models and path and not isinstance(value, pydantic.BaseModel):
        return [f"{where}: expected a model instance for {shape.name}, got {type(value).__name__}"]
    if not expect_models and not isinstance(value, Mapping):
        return [f"{where}: expected a dict, got {type(value).__name__}"]
    for name, field in shape.fields:
        item = value.get(name) if isinstance(value, Mapping) else getattr(value, name, None)
        problems.extend(_field_mismatches(item, field, expect_models, (*path, name)))
    return problems


def _field_mismatches(value: object, field: FieldShape, expect_models: bool, path: tuple[str | int, ...]) -> list[str]:
    if value is None:
        return []
    if field.kind == "object" and field.obj is not None:
        return type_mismatches(value, field.obj, expect_models=expect_models, path=path)
    if field.kind == "list" and field.item is not None and isinstance(value, (list, tuple)):
        return [problem for index, item in enumerate(value) for problem in _field_mismatches(item, field.item, expect_models, (*path, index))]
    return []

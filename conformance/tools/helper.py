"""``tool``: define a tool from a typed function, a pydantic model or a raw JSON Schema.

A :class:`Tool` carries a name, a description, a canonical input schema (see
:mod:`strictconformance.tools.canonical`) and a strict setting checked when it is defined
(SPEC §1, TL-7). It is invoked two ways:

- the tool-use path, ``await tool.ainvoke(tool_use_id, input)`` / ``tool.invoke(...)`` /
  ``async for item in tool.stream(...)``: the input is validated before the callback runs;
  progress events come in order, then exactly one :class:`ToolResult`; nothing the callback
  raises escapes (unless ``raise_errors=True``);
- the direct call, ``tool(...)``, with the callback's own signature: the arguments are
  validated the same way, an invalid one raises :class:`ToolInputError`, and the callback's
  return value (a coroutine for an ``async def``, a generator for a generator function) and
  exceptions come back unchanged.

Where the input schema comes from decides how the callback receives its input:

=====================  ==================================  ===================================
source                 callback receives                   with ``context=True``
=====================  ==================================  ===================================
type hints             keyword arguments (nested models    the parameter annotated
(no ``input_schema``)  arrive as model instances)          ``ToolContext`` (or named by
                                                           ``context="param"``)
a pydantic model,      one validated instance              a second positional argument
dataclass or TypedDict
a raw JSON Schema      one ``dict`` (a copy of the input)  a second positional argument
=====================  ==================================  ===================================

Sync callbacks run inline on the invoking event loop; ``invoke`` works from plain code and from
inside a running event loop (it then runs the tool on a private loop in a helper thread, in a
copy of the caller's context variables, and blocks until it finishes, so prefer ``await
ainvoke`` there).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import copy
import functools
import inspect
import json
import re
import typing
from collections.abc import AsyncIterator, Callable, Coroutine, Iterable, Mapping
from typing import Annotated, Any, Generic, ParamSpec, TypeVar, overload

import jsonschema  # type: ignore[import-untyped]
import pydantic
from pydantic.fields import FieldInfo
from pydantic_core import PydanticSerializationError, to_jsonable_python

from strictconformance.dialects.pointers import pointer_from_path
from strictconformance.tools.canonical import canonical_input_schema
from strictconformance.tools.contract import InputSource
from strictconformance.tools.docstrings import parse_docstring
from strictconformance.tools.errors import (
    InputProblem,
    ToolDefinitionError,
    ToolInputError,
    ToolOutputError,
)
from strictconformance.tools.jsonvalue import (
    MAX_INPUT_DEPTH,
    json_value_problem,
    parse_json_text,
)
from strictconformance.tools.results import (
    ToolContext,
    ToolEvent,
    ToolInvocation,
    ToolResult,
    ToolReturn,
    result_content,
)
from strictconformance.wire import InvalidStrictSetting, StrictSetting, validate_strict_setting

__all__ = ["TOOL_NAME_PATTERN", "InputSource", "Tool", "tool"]

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")

#: Portable tool names: OpenAI function names "must be a-z, A-Z, 0-9, or contain underscores
#: and dashes, with a maximum length of 64" (platform.openai.com/docs/api-reference/chat/create,
#: tools[].function.name); Anthropic's tool names follow the same pattern.
TOOL_NAME_PATTERN = re.compile(r"^[A-Za-z0-9_-]{1,64}$")

#: A final value may nest this deep once converted to JSON.
MAX_OUTPUT_DEPTH = 128

_MAX_MESSAGE = 300


def _short(text: str) -> str:
    return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 3] + "..."


def _describe_exception(exc: BaseException) -> str:
    try:
        return str(exc)
    except Exception:  # a broken __str__ must not turn an error result into a crash
        return f"<unprintable {type(exc).__qualname__}>"


def _branch_errors(error: Any) -> list[Any] | None:
    """For an anyOf/oneOf failure, the errors of the branch the input was evidently meant for.

    That is a branch whose ``type`` the input has; among several, the one with fewest errors.
    ``None`` when no branch fits (then the anyOf itself is the problem).
    """
    branches: dict[int, list[Any]] = {}
    for sub in error.context or ():
        branches.setdefault(sub.schema_path[0] if sub.schema_path else -1, []).append(sub)
    fitting = [errors for errors in branches.values() if not any(sub.validator == "type" and not sub.relative_path for sub in errors)]
    return min(fitting, key=len) if fitting else None


def _schema_problems(errors: Iterable[Any]) -> dict[str, str]:
    """jsonschema errors as {pointer of the failing field: message}, most specific first."""
    problems: dict[str, str] = {}
    for error in errors:
        base = list(error.absolute_path)
        if error.validator == "required" and isinstance(error.instance, Mapping):
            for name in error.validator_value:
                if name not in error.instance:
                    problems.setdefault(pointer_from_path([*base, name]), "required property is missing")
        elif error.validator == "additionalProperties" and isinstance(error.instance, Mapping):
            schema = error.schema if isinstance(error.schema, Mapping) else {}
            known = set(schema.get("properties", {}))
            patterns = list(schema.get("patternProperties", {}))
            for name in error.instance:
                if name not in known and not any(re.search(pattern, name) for pattern in patterns):
                    problems.setdefault(pointer_from_path([*base, name]), "property is not allowed here")
        elif error.validator in ("anyOf", "oneOf") and (branch := _branch_errors(error)):
            for field, message in _schema_problems(branch).items():
                problems.setdefault(field, message)
        else:
            problems.setdefault(pointer_from_path(base), _short(error.message))
    return problems


def _input_problems(validator: Any, instance: Any) -> tuple[InputProblem, ...]:
    problems = _schema_problems(validator.iter_errors(instance))
    return tuple(InputProblem(field, message) for field, message in sorted(problems.items()))


def _pydantic_problems(exc: pydantic.ValidationError) -> tuple[InputProblem, ...]:
    problems: dict[str, str] = {}
    for error in exc.errors(include_url=False):
        problems.setdefault(pointer_from_path(error["loc"]), _short(str(error["msg"])))
    return tuple(InputProblem(field, message) for field, message in sorted(problems.items()))


def _input_problem(message: str) -> tuple[InputProblem, ...]:
    return (InputProblem("", message),)


def _to_json(value: Any) -> Any:
    """A callback's value in JSON-compatible form, as pydantic serialises it to JSON."""
    return to_jsonable_python(value, by_alias=True)


def _run_blocking(make: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run a coroutine to completion from sync code, inside a running event loop or not.

    Inside a running loop the coroutine runs on a helper thread in a copy of the caller's
    context, so context variables the caller set are seen by the tool, as with ``await``."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(make())
    context = contextvars.copy_context()
    with concurrent.futures.ThreadPoolExecutor(max_workers=1, thread_name_prefix="strictconformance-tool") as pool:
        return pool.submit(context.run, lambda: asyncio.run(make())).result()


def _mentions_context(annotation: object) -> bool:
    """Whether ``ToolContext`` appears in an annotation (``ToolContext | None``, ``Annotated[...]``).

    Such a parameter is the context or an error: described by pydantic, the context (a
    dataclass) would otherwise leak into the advertised schema.
    """
    if annotation is ToolContext:
        return True
    return any(_mentions_context(argument) for argument in typing.get_args(annotation))


def _unwrap_partial(callback: Callable[..., Any]) -> Callable[..., Any]:
    """The function under any ``functools.partial`` layers (where the hints and docstring live)."""
    while isinstance(callback, functools.partial):
        callback = callback.func
    return callback


def _type_hints(callback: Callable[..., Any]) -> dict[str, Any]:
    """The type hints of the parameters ``inspect.signature(callback)`` leaves, for functions,
    methods, ``functools.partial`` objects (from the wrapped function) and callable instances
    (from their class's ``__call__``). Raises TypeError, ValueError or NameError when unreadable."""
    target = _unwrap_partial(callback)
    if not (inspect.isroutine(target) or inspect.isclass(target)):
        target = type(target).__call__  # a callable instance
    hints = typing.get_type_hints(target, include_extras=True)
    parameters = inspect.signature(callback).parameters
    return {name: hint for name, hint in hints.items() if name in parameters}


def _docstring(callback: Callable[..., Any]) -> str | None:
    """The callback's docstring; a partial's is its function's (``partial``'s own says what a partial is)."""
    return inspect.getdoc(_unwrap_partial(callback))


class _SignatureInput:
    """A pydantic model built from a callback's parameters (the context parameter left out)."""

    def __init__(self, callback: Callable[..., Any], tool_name: str, context_parameter: str | None) -> None:
        try:
            self.signature = inspect.signature(callback)
            hints = _type_hints(callback)
        except (TypeError, ValueError, NameError) as exc:
            raise ToolDefinitionError(f"tool {tool_name!r}: cannot read the callback's signature and type hints: {exc}") from None
        docs = parse_docstring(_docstring(callback)).params
        self.context_parameter = context_parameter
        self.names: dict[str, str] = {}  # parameter name -> internal field name
        self.positional_only: list[str] = []
        fields: dict[str, Any] = {}
        for index, (name, parameter) in enumerate(self.signature.parameters.items()):
            if name == context_parameter:
                continue
            where = f"tool {tool_name!r}, parameter {name!r}"
            if parameter.kind in (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD):
                raise ToolDefinitionError(f"{where}: *args/**kwargs cannot be described by an input schema")
            if index == 0 and name in ("self", "cls") and parameter.annotation is inspect.Parameter.empty:
                raise ToolDefinitionError(f"{where}: decorate a function, or pass a bound method (tool(obj.method))")
            annotation = hints.get(name, Any)
            if _mentions_context(annotation):
                raise ToolDefinitionError(f"{where}: a ToolContext parameter needs context=True (opt-in)")
            base: Any = annotation
            metadata: tuple[Any, ...] = ()
            if typing.get_origin(annotation) is Annotated:
                base, *rest = typing.get_args(annotation)
                metadata = tuple(rest)
            if any(isinstance(item, FieldInfo) and item.alias not in (None, name) for item in metadata):
                raise ToolDefinitionError(f"{where}: Field(alias=...) is not supported; the parameter name is the input name")
            if parameter.default is not inspect.Parameter.empty:
                self._check_default(where, parameter.default)
            internal = f"p{index}"
            self.names[name] = internal
            if parameter.kind is inspect.Parameter.POSITIONAL_ONLY:
                self.positional_only.append(name)
            described = pydantic.Field(alias=name, description=docs[name]) if name in docs else pydantic.Field(alias=name)
            default = ... if parameter.default is inspect.Parameter.empty else parameter.default
            # the user's own Field(...) metadata comes after ours, so it wins
            fields[internal] = (typing.cast(Any, Annotated)[tuple([base, described, *metadata])], default)
        try:
            self.model: type[pydantic.BaseModel] = pydantic.create_model(
                f"{tool_name}_input",
                __config__=pydantic.ConfigDict(extra="forbid"),
                **fields,
            )
            self.raw_schema = self.model.model_json_schema(by_alias=True)
        except (pydantic.PydanticUserError, pydantic.PydanticSchemaGenerationError, TypeError) as exc:
            raise ToolDefinitionError(f"tool {tool_name!r}: a parameter type has no JSON Schema: {exc}") from None

    @staticmethod
    def _check_default(where: str, default: object) -> None:
        try:
            problem = json_value_problem(_to_json(default), max_depth=MAX_INPUT_DEPTH)
        except PydanticSerializationError:
            problem = f"a {type(default).__name__} is not JSON"
        if problem is not None:
            raise ToolDefinitionError(f"{where}: the default {default!r} cannot be advertised ({problem})")

    def bind(self, data: Mapping[str, Any]) -> tuple[list[Any], dict[str, Any]]:
        try:
            instance = self.model.model_validate_json(json.dumps(data))
        except pydantic.ValidationError as exc:
            raise _InvalidInput(_pydantic_problems(exc)) from None
        given = instance.model_fields_set
        args = [getattr(instance, self.names[name]) for name in self.positional_only]
        kwargs = {
            name: getattr(instance, internal)
            for name, internal in self.names.items()
            if name not in self.positional_only and internal in given
        }
        return args, kwargs


class _InvalidInput(Exception):
    """Internal: validation failed with these problems (becomes ToolInputError with the tool name)."""

    def __init__(self, problems: tuple[InputProblem, ...]) -> None:
        super().__init__(problems)
        self.problems = problems


class Tool(Generic[P, R]):
    """A tool: name, description, canonical input schema, strict setting, and a callback.

    Build one with :func:`tool`. Calling the object directly runs the callback with validated
    arguments (TL-6); :meth:`invoke`, :meth:`ainvoke` and :meth:`stream` are the tool-use path.
    """

    name: str
    description: str
    strict: StrictSetting
    source: InputSource
    __wrapped__: Callable[P, R]  # set by functools.update_wrapper, as are __name__ and __doc__
    takes_context: bool
    context_parameter: str | None
    raise_errors: bool

    def __init__(
        self,
        callback: Callable[P, R],
        *,
        name: str | None = None,
        description: str | None = None,
        input_schema: Mapping[str, Any] | type[Any] | None = None,
        strict: object = None,
        context: bool | str = False,
        raise_errors: bool = False,
    ) -> None:
        if not callable(callback):
            raise ToolDefinitionError(f"a tool's callback must be callable, got {type(callback).__name__}")
        tool_name = name if name is not None else getattr(callback, "__name__", None)
        if not isinstance(tool_name, str) or not TOOL_NAME_PATTERN.match(tool_name):
            raise ToolDefinitionError(
                f"tool name {tool_name!r} must match {TOOL_NAME_PATTERN.pattern} (letters, digits, '_', '-'; "
                "at most 64); pass name=... for lambdas, partials and other unnamed callables"
            )
        if description is not None and not isinstance(description, str):
            raise ToolDefinitionError(f"tool {tool_name!r}: description must be a string, got {type(description).__name__}")
        if not isinstance(context, (bool, str)) or context == "":
            raise ToolDefinitionError(f"tool {tool_name!r}: context must be True, False or a parameter name, got {context!r}")
        if not isinstance(raise_errors, bool):
            raise ToolDefinitionError(f"tool {tool_name!r}: raise_errors must be a bool, got {raise_errors!r}")
        try:
            self.strict = validate_strict_setting(strict, tool_name=tool_name)
        except InvalidStrictSetting as exc:
            raise ToolDefinitionError(str(exc)) from exc
        self.name = tool_name
        self.callback = callback
        self.raise_errors = raise_errors
        self.takes_context = context is not False
        self._signature_input: _SignatureInput | None = None
        self._adapter: pydantic.TypeAdapter[Any] | None = None
        self._model_type: type[Any] | None = None
        raw_schema: Any
        if input_schema is None:
            self.source = "signature"
            self.context_parameter = self._find_context_parameter(callback, context)
            self._signature_input = _SignatureInput(callback, tool_name, self.context_parameter)
            raw_schema = self._signature_input.raw_schema
        else:
            if isinstance(context, str):
                raise ToolDefinitionError(
                    f"tool {tool_name!r}: context={context!r} names a parameter, which only applies to "
                    "tools described by type hints; with input_schema use context=True (a second argument)"
                )
            self.context_parameter = None
            self._check_arity(callback, 2 if self.takes_context else 1)
            if isinstance(input_schema, type):
                self.source = "model"
                self._model_type = input_schema
                try:
                    self._adapter = pydantic.TypeAdapter(input_schema)
                    raw_schema = self._adapter.json_schema(by_alias=True)
                except (pydantic.PydanticUserError, pydantic.PydanticSchemaGenerationError, TypeError) as exc:
                    raise ToolDefinitionError(f"tool {tool_name!r}: {input_schema.__name__} has no JSON Schema: {exc}") from None
            elif isinstance(input_schema, Mapping):
                self.source = "json_schema"
                raw_schema = input_schema
            else:
                raise ToolDefinitionError(
                    f"tool {tool_name!r}: input_schema must be a JSON Schema (a mapping) or a pydantic "
                    f"model/dataclass/TypedDict class, got {type(input_schema).__name__}"
                )
        try:
            canonical = canonical_input_schema(raw_schema)
        except ToolDefinitionError as exc:
            raise ToolDefinitionError(f"tool {tool_name!r}: {exc}") from None
        self._schema = canonical.schema
        self._validator = jsonschema.Draft202012Validator(self._schema)
        if description is None:
            summary = parse_docstring(_docstring(callback)).description
            description = next((text for text in (summary, canonical.root_description) if text), "")
        self.description = description
        functools.update_wrapper(self, callback, updated=())

    # -- definition helpers -------------------------------------------------------------------

    @staticmethod
    def _find_context_parameter(callback: Callable[..., Any], context: bool | str) -> str | None:
        try:
            parameters = inspect.signature(callback).parameters
            hints = _type_hints(callback)
        except (TypeError, ValueError, NameError):
            return None  # _SignatureInput reports the same problem with the tool name
        annotated = [name for name in parameters if _mentions_context(hints.get(name))]
        if context is False:
            return None
        if isinstance(context, str):
            if context not in parameters:
                raise ToolDefinitionError(f"context={context!r} names no parameter of {callback.__name__}{inspect.signature(callback)}")
            return context
        if len(annotated) != 1:
            raise ToolDefinitionError(
                f"context=True needs exactly one parameter annotated ToolContext in "
                f"{getattr(callback, '__name__', callback)!r}, found {annotated or 'none'}; or name it: context='param'"
            )
        return annotated[0]

    def _check_arity(self, callback: Callable[..., Any], count: int) -> None:
        try:
            signature = inspect.signature(callback)
        except (TypeError, ValueError):
            return  # builtins without a signature: trust the caller
        try:
            signature.bind(*([None] * count))
        except TypeError:
            what = "(input, context)" if count == 2 else "(input)"
            raise ToolDefinitionError(
                f"tool {self.name!r}: with input_schema the callback is called as callback{what}, "
                f"but its signature is {signature}"
            ) from None

    # -- what is advertised ---------------------------------------------------------------------

    @property
    def input_schema(self) -> dict[str, Any]:
        """The canonical advertised input schema (a fresh copy)."""
        return copy.deepcopy(self._schema)

    @property
    def input_model(self) -> type[Any] | None:
        """The type that converts inputs: the given model class, or the one built from the signature."""
        if self._signature_input is not None:
            return self._signature_input.model
        return self._model_type

    def spec(self) -> dict[str, Any]:
        """``{"name", "description", "input_schema", "strict"}`` as a JSON-compatible dict."""
        return {"name": self.name, "description": self.description, "input_schema": self.input_schema, "strict": self.strict}

    def __repr__(self) -> str:
        return f"Tool(name={self.name!r}, source={self.source!r}, strict={self.strict!r})"

    # -- validation -----------------------------------------------------------------------------

    def _arguments(self, raw: object, context: ToolContext | None) -> tuple[list[Any], dict[str, Any]]:
        """Validate ``raw`` and build the callback's arguments; raises ToolInputError."""
        try:
            data = self._check(raw)
            if self._signature_input is not None:
                args, kwargs = self._signature_input.bind(data)
                if self.context_parameter is not None:
                    kwargs[self.context_parameter] = context
                return args, kwargs
            if self._adapter is not None:
                try:
                    value = self._adapter.validate_json(json.dumps(data))
                except pydantic.ValidationError as exc:
                    raise _InvalidInput(_pydantic_problems(exc)) from None
            else:
                value = copy.deepcopy(data)
            return ([value, context] if self.takes_context else [value]), {}
        except _InvalidInput as exc:
            raise ToolInputError(self.name, exc.problems) from None

    def _check(self, raw: object) -> dict[str, Any]:
        if isinstance(raw, (str, bytes, bytearray)):
            try:
                raw = parse_json_text(raw)
            except ValueError as exc:
                raise _InvalidInput(_input_problem(str(exc))) from None
        problem = json_value_problem(raw, max_depth=MAX_INPUT_DEPTH)
        if problem is not None:
            raise _InvalidInput(_input_problem(f"input is not usable JSON: {problem}"))
        if not isinstance(raw, Mapping):
            raise _InvalidInput(_input_problem(f"input must be a JSON object, got {type(raw).__name__}"))
        problems = _input_problems(self._validator, raw)
        if problems:
            raise _InvalidInput(problems)
        return dict(raw)

    def validate_input(self, input: object) -> None:
        """Raise :class:`ToolInputError` if ``input`` (a mapping or JSON text) is not valid."""
        self._arguments(input, None)

    # -- the direct call (TL-6) -----------------------------------------------------------------

    def __call__(self, *args: P.args, **kwargs: P.kwargs) -> R:
        """Call the callback with validated arguments; invalid ones raise ToolInputError."""
        signature = inspect.signature(self.callback)
        bound = signature.bind(*args, **kwargs)  # a wrong call is a TypeError, as for the function
        given = dict(bound.arguments)
        context: Any = None
        if self.takes_context:
            key = self.context_parameter or list(signature.parameters)[1]
            if key not in given:
                raise TypeError(f"tool {self.name!r} takes a ToolContext: pass {key}=ToolContext(...)")
            context = given.pop(key)
        if self._signature_input is not None:
            data: object = {name: self._json_argument(name, value) for name, value in given.items()}
        else:
            data = self._json_argument("input", next(iter(given.values())))
        call_args, call_kwargs = self._arguments(data, context)
        return self.callback(*call_args, **call_kwargs)

    def _json_argument(self, name: str, value: object) -> object:
        try:
            if self._adapter is not None and not isinstance(value, Mapping):
                return self._adapter.dump_python(value, mode="json", by_alias=True)
            return _to_json(value)
        except (PydanticSerializationError, pydantic.ValidationError):
            raise ToolInputError(self.name, (InputProblem(pointer_from_path([name]), f"a {type(value).__name__} is not JSON"),)) from None

    # -- the tool-use path ----------------------------------------------------------------------

    def _error(self, tool_use_id: str, exc: BaseException, field: str | None = None) -> ToolResult:
        error_type = type(exc).__qualname__
        message = _describe_exception(exc)
        return ToolResult(
            tool_use_id=tool_use_id,
            status="error",
            content=f"{error_type}: {message}" if message else error_type,
            error_type=error_type,
            error_message=message,
            error_field=field,
            exception=exc,
        )

    def _success(self, tool_use_id: str, value: Any) -> ToolResult:
        try:
            converted = _to_json(value)
        except PydanticSerializationError as exc:
            raise ToolOutputError(f"tool {self.name!r} gave a final value of type {type(value).__name__}, which is not JSON: {exc}") from None
        problem = json_value_problem(converted, max_depth=MAX_OUTPUT_DEPTH)
        if problem is not None:
            raise ToolOutputError(f"tool {self.name!r} gave a final value that is not JSON: {problem}")
        return ToolResult(tool_use_id=tool_use_id, status="success", content=result_content(converted), value=converted)

    async def stream(
        self,
        tool_use_id: str,
        input: object,
        invocation_state: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool | None = None,
    ) -> AsyncIterator[ToolEvent | ToolResult]:
        """Invoke the tool: yield each progress :class:`ToolEvent`, then exactly one :class:`ToolResult`.

        ``input`` is a mapping or JSON text (OpenAI sends arguments as a string). Invalid input
        gives an error result naming the field and the callback is not called. An exception
        from the callback (a subclass of ``Exception``; cancellation and ``KeyboardInterrupt``
        propagate) gives an error result after the events already yielded. With
        ``raise_errors`` (default: the tool's setting) those exceptions are raised instead.
        """
        if not isinstance(tool_use_id, str):
            raise TypeError(f"tool_use_id must be a str, got {type(tool_use_id).__name__}")
        if invocation_state is not None and not isinstance(invocation_state, Mapping):
            raise TypeError(f"invocation_state must be a mapping, got {type(invocation_state).__name__}")
        raising = self.raise_errors if raise_errors is None else raise_errors
        state: Mapping[str, Any] = {} if invocation_state is None else invocation_state
        context = ToolContext(tool_use_id=tool_use_id, tool_name=self.name, invocation_state=state) if self.takes_context else None
        try:
            args, kwargs = self._arguments(input, context)
        except ToolInputError as exc:
            if raising:
                raise
            yield self._error(tool_use_id, exc, field=exc.field)
            return
        index = 0
        try:
            outcome: Any = self.callback(*args, **kwargs)
            if inspect.isawaitable(outcome):
                outcome = await outcome
            final: Any = None
            if inspect.isgenerator(outcome):
                try:
                    while True:
                        try:
                            item = next(outcome)
                        except StopIteration as stop:
                            final = stop.value
                            break
                        if isinstance(item, ToolReturn):
                            final = item.value
                            break
                        yield ToolEvent(tool_use_id, index, item)
                        index += 1
                finally:
                    outcome.close()
            elif inspect.isasyncgen(outcome):
                try:
                    while True:
                        try:
                            item = await outcome.__anext__()
                        except StopAsyncIteration:
                            break
                        if isinstance(item, ToolReturn):
                            final = item.value
                            break
                        yield ToolEvent(tool_use_id, index, item)
                        index += 1
                finally:
                    await outcome.aclose()
            else:
                final = outcome.value if isinstance(outcome, ToolReturn) else outcome
            result = self._success(tool_use_id, final)
        except Exception as exc:
            if raising:
                raise
            result = self._error(tool_use_id, exc)
        yield result

    async def ainvoke(
        self,
        tool_use_id: str,
        input: object,
        invocation_state: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool | None = None,
    ) -> ToolInvocation:
        """Run :meth:`stream` to the end and collect what it emitted, in order: its events, then its one result."""
        outputs: list[ToolEvent | ToolResult] = []
        async for item in self.stream(tool_use_id, input, invocation_state, raise_errors=raise_errors):
            outputs.append(item)
        return ToolInvocation(outputs=tuple(outputs))

    def invoke(
        self,
        tool_use_id: str,
        input: object,
        invocation_state: Mapping[str, Any] | None = None,
        *,
        raise_errors: bool | None = None,
    ) -> ToolInvocation:
        """Sync :meth:`ainvoke`; also works (on a helper thread) inside a running event loop."""
        return _run_blocking(lambda: self.ainvoke(tool_use_id, input, invocation_state, raise_errors=raise_errors))


@overload
def tool(
    callback: Callable[P, R],
    /,
    *,
    name: str | None = ...,
    description: str | None = ...,
    input_schema: Mapping[str, Any] | type[Any] | None = ...,
    strict: StrictSetting = ...,
    context: bool | str = ...,
    raise_errors: bool = ...,
) -> Tool[P, R]: ...


@overload
def tool(
    callback: None = None,
    /,
    *,
    name: str | None = ...,
    description: str | None = ...,
    input_schema: Mapping[str, Any] | type[Any] | None = ...,
    strict: StrictSetting = ...,
    context: bool | str = ...,
    raise_errors: bool = ...,
) -> Callable[[Callable[P, R]], Tool[P, R]]: ...


def tool(
    callback: Callable[P, R] | None = None,
    /,
    *,
    name: str | None = None,
    description: str | None = None,
    input_schema: Mapping[str, Any] | type[Any] | None = None,
    strict: StrictSetting = None,
    context: bool | str = False,
    raise_errors: bool = False,
) -> Tool[P, R] | Callable[[Callable[P, R]], Tool[P, R]]:
    """Define a tool: ``@tool``, ``@tool(...)`` or ``tool(callback, ...)``.

    - ``name``: default the callback's ``__name__``; must match :data:`TOOL_NAME_PATTERN`.
    - ``description``: default the docstring's text before its sections (``Args:``...), else
      the input model's docstring or the raw schema's root ``description``, else ``""``.
    - ``input_schema``: omitted -> built from the type hints, with per-parameter descriptions
      from the docstring (Google, NumPy or Sphinx style) and ``additionalProperties: false``
      (a function takes no other arguments); a pydantic model, dataclass or TypedDict class;
      or a raw JSON Schema mapping, checked against its metaschema now and used to validate
      every input. All three are reduced to one canonical form (see ``canonical.py``).
    - ``strict``: ``True``/``False``/``None`` or a priority > 0 (SPEC §1), checked now.
    - ``context``: opt in to a :class:`ToolContext` (see the module docstring).
    - ``raise_errors``: re-raise instead of returning error results on the tool-use path.

    Every problem with the definition raises :class:`ToolDefinitionError` here, never later.
    """
    options: dict[str, Any] = {
        "name": name,
        "description": description,
        "input_schema": input_schema,
        "strict": strict,
        "context": context,
        "raise_errors": raise_errors,
    }
    if callback is None:
        return lambda function: Tool(function, **options)
    return Tool(callback, **options)

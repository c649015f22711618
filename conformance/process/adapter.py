"""``ProcessAdapter``: an adapter whose SDK runs in another process (any language), reached with
the ``strictconformance-process/1`` protocol.

``pytest -p strictconformance --sc-adapter-cmd "node harness.mjs"``, or a subclass naming its
command::

    class VercelAI(ProcessAdapter):
        command = "node harnesses/vercel-ai.mjs"
        cwd = "/path/to/harness/folder"

The harness's handshake says which capabilities it has and its declarations; the instance is of a
subclass made for them, so every capability the harness lacks is *not covered*, as for a Python
adapter. Error types are declared by name and become exception classes here (``rejection_errors``,
``drift_errors``); tools live in the harness, the kit holds handles to them.
"""

from __future__ import annotations

import inspect
import weakref
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, ClassVar

from strictconformance.adapter import Adapter, AdapterContractError, error_text
from strictconformance.findings import not_covered, refuse
from strictconformance.process.client import (
    DEFAULT_MAX_MESSAGE_BYTES,
    HarnessCallError,
    HarnessFault,
    HarnessProcess,
    HarnessRefusal,
)
from strictconformance.process.protocol import ProtocolError, decode_result, encode_args, to_json
from strictconformance.spec.resolution import Budget

__all__ = ["HarnessCallError", "HarnessFault", "ProcessAdapter", "ProcessTool"]


@dataclass(frozen=True)
class ProcessTool:
    """A tool defined in the harness: its handle there, and the process generation that holds it."""

    handle: str
    name: str
    generation: int


def _error_class(name: str) -> type[HarnessCallError]:
    """An exception class for a harness error type, named as the harness names it."""
    cls = type(name, (HarnessCallError,), {"__module__": "strictconformance.process.errors",
                                           "__qualname__": name})
    return cls


def _trait_keys() -> tuple[str, ...]:
    """Every trait a harness may declare: the fields of ToolLayerTraits (one table, no copy)."""
    import dataclasses

    from strictconformance.tools.contract import ToolLayerTraits

    return tuple(trait.name for trait in dataclasses.fields(ToolLayerTraits))


class ProcessAdapter(Adapter):
    """An adapter served by a harness process (see the module docstring)."""

    #: The harness command line (a string, split as a shell would, or a list of words).
    command: ClassVar[str | Sequence[str] | None] = None
    #: Working directory of the harness (default: the current one).
    cwd: ClassVar[str | None] = None
    #: Seconds a call may take before the kit kills the process (keep it below --sc-call-timeout).
    process_timeout: ClassVar[float] = 5.0
    #: Seconds the start handshake may take (loading an SDK can be slow).
    start_timeout: ClassVar[float] = 60.0
    max_message_bytes: ClassVar[int] = DEFAULT_MAX_MESSAGE_BYTES
    reproducer_language: ClassVar[str] = "node"

    _process: HarnessProcess
    _callbacks: dict[str, Callable[..., Any]]
    #: Exceptions the kit's tool callbacks raised during the call in progress (see _error_of).
    _callback_errors: list[BaseException]
    _reproducers: frozenset[str]

    def __new__(cls, command: str | Sequence[str] | None = None, *, cwd: str | None = None,
                record: list[tuple[str, dict[str, Any]]] | None = None) -> ProcessAdapter:
        command = command if command is not None else cls.command
        if not command:
            raise AdapterContractError(f"{cls.__qualname__}: set command = \"node harness.mjs\" (or pass --sc-adapter-cmd)")
        process = HarnessProcess(command, cwd=cwd if cwd is not None else cls.cwd, call_timeout=cls.process_timeout,
                                 start_timeout=cls.start_timeout, max_message_bytes=cls.max_message_bytes, record=record)
        try:
            started = process.start()
        except HarnessFault as fault:
            raise AdapterContractError(f"the start handshake failed: {fault}") from None
        try:
            namespace = _class_namespace(started)
        except (AdapterContractError, ValueError, TypeError) as exc:
            process.stop()
            raise AdapterContractError(f"harness `{process.command}` declared {error_text(exc)}") from None
        kind = type(cls.__name__, (cls,), namespace)
        kind.__qualname__ = cls.__qualname__
        self: ProcessAdapter = object.__new__(kind)
        self._process = process
        self._callbacks = {}
        self._callback_errors = []
        self._reproducers = frozenset(started.get("reproducers", ()))
        weakref.finalize(self, process.stop)
        return self

    def __init__(self, command: str | Sequence[str] | None = None, *, cwd: str | None = None,
                 record: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        pass  # everything is set up in __new__, which chooses the class

    @property
    def harness(self) -> HarnessProcess:
        return self._process

    def close(self) -> None:
        self._process.stop()

    def __repr__(self) -> str:
        return f"<ProcessAdapter `{self._process.command}`>"

    # -- calls -------------------------------------------------------------------------------
    def _call(self, method: str, args: tuple[Any, ...]) -> Any:
        try:
            payload = encode_args(method, tuple(self._outgoing(arg) for arg in args))
        except ProtocolError as exc:  # NaN, infinity...: JSON cannot carry the input, the harness never sees it
            _refuse(f"{method} cannot be sent to harness `{self._process.command}`: {exc}")
        self._callback_errors = []
        try:
            value = self._process.call(method, payload, self._run_callback)
        except HarnessRefusal as refusal:
            if refusal.scope == "check":

                not_covered(f"harness `{self._process.command}` refused {method} for the whole check: {refusal}")
            _refuse(f"harness `{self._process.command}` refused {method}: {refusal}")
        except HarnessCallError as error:
            raise self._error_of(error) from None
        try:
            return decode_result(method, value)
        except ProtocolError as exc:
            raise HarnessFault(f"harness `{self._process.command}`: {exc}") from None

    def _error_of(self, error: HarnessCallError) -> BaseException:
        """The exception a harness's ``error`` answer stands for: a tool callback's own exception
        when the SDK let it through (the answer names its type and message: the callback ran in
        the kit, which sent the harness that type and message), else one of the declared error
        classes (or a class made for the type the harness names)."""
        for raised in reversed(self._callback_errors):
            if type(raised).__qualname__ == error.type_name and str(raised) == str(error):
                return raised
        declared: Mapping[str, type[HarnessCallError]] = type(self)._declared_errors  # type: ignore[attr-defined]
        cls = declared.get(error.type_name) or _error_class(error.type_name)
        return cls(str(error), type_name=error.type_name, path=error.path, field=error.field, origin=error.origin)

    def _outgoing(self, value: Any) -> Any:
        """Tools as their handles; a tool definition's callback held here under a handle."""
        if isinstance(value, ProcessTool):
            if value.generation != self._process.generation:
                raise HarnessFault(f"harness `{self._process.command}`: tool {value.name!r} was defined in a harness "
                                   "process that has since been replaced (after a fault); its handle is gone")
            return value.handle
        from strictconformance.tools.contract import ToolDefinition

        if isinstance(value, ToolDefinition):
            if value.input_model is not None:
                raise HarnessFault("a tool defined from a Python model cannot cross to a harness process; "
                                   "declare tool_layer_traits.sources without 'model'")
            handle = f"cb-{len(self._callbacks) + 1}"
            self._callbacks[handle] = value.callback
            return {"name": value.name, "description": value.description, "input_schema": value.input_schema,
                    "strict": value.strict, "context": value.context, "callback": handle}
        from strictconformance.tools.results import ToolContext

        if isinstance(value, ToolContext):
            return {"tool_use_id": value.tool_use_id, "tool_name": value.tool_name,
                    "invocation_state": dict(value.invocation_state)}
        return value

    def _run_callback(self, message: dict[str, Any]) -> dict[str, Any]:
        """Run a tool callback the kit holds, for the harness: its value (a generator's items and
        final value as ``{"generator": {"items", "return"}}``) or the error it raised. A second
        argument shaped like a ToolContext (``tool_use_id``, ``tool_name``) is passed as one."""
        callback = self._callbacks.get(message["handle"])
        if callback is None:
            return {"ok": False, "error": {"type": "UnknownCallback", "message": f"no callback {message['handle']!r}"}}
        args = list(message["args"])
        if len(args) == 2 and isinstance(args[1], dict) and {"tool_use_id", "tool_name"} <= set(args[1]):
            from strictconformance.tools.results import ToolContext

            raw = args[1]
            args[1] = ToolContext(str(raw["tool_use_id"]), str(raw["tool_name"]), dict(raw.get("invocation_state") or {}))
        try:
            value = _materialize(callback(*args), self._callback_errors)
            return {"ok": True, "value": to_json(value, "callback value")}
        except Exception as exc:
            self._callback_errors.append(exc)
            return {"ok": False, "error": {"type": type(exc).__qualname__, "message": str(exc)}}

    # -- the reproducer hook (CONTRACTS §2) --------------------------------------------------
    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        """A standalone snippet in the harness's language for ``method(*args)``, written by the
        harness (None when it writes none for ``method``), headed by the harness and call it is for."""
        if method not in self._reproducers:
            return None
        snippet = self._process.call("reproduce", {"method": method, "args": encode_args(method, tuple(self._outgoing(a) for a in args))})
        if snippet is None:
            return None
        if not isinstance(snippet, str):
            raise HarnessFault(f"harness `{self._process.command}`: reproduce answered a {type(snippet).__name__}, expected a string or null")
        return f"// strictconformance: {method} as harness `{self._process.command}` made it\n{snippet}"


def _materialize(value: Any, raised: list[BaseException] | None = None) -> Any:
    """A callback's outcome as JSON can carry it: awaited when a coroutine, a generator (sync or
    async) run to its end as ``{"generator": {"items": [...], "return": final}}``; an exception a
    generator raises after its items is carried as ``"raise"`` and appended to ``raised``."""
    kept: list[BaseException] = raised if raised is not None else []
    import asyncio

    from strictconformance.tools.results import ToolReturn

    if inspect.iscoroutine(value):
        return asyncio.run(value)
    if inspect.isasyncgen(value):
        agen = value

        async def drain() -> Any:
            items: list[Any] = []
            try:
                async for item in agen:
                    if isinstance(item, ToolReturn):
                        await agen.aclose()
                        return {"generator": {"items": items, "return": item.value}}
                    items.append(item)
            except Exception as exc:
                kept.append(exc)
                return {"generator": {"items": items, "raise": {"type": type(exc).__qualname__, "message": str(exc)}}}
            return {"generator": {"items": items, "return": None}}

        return asyncio.run(drain())
    if inspect.isgenerator(value):
        items, final = [], None
        try:
            while True:
                item = next(value)
                if isinstance(item, ToolReturn):
                    final = item.value
                    value.close()
                    break
                items.append(item)
        except StopIteration as stop:
            final = stop.value
        except Exception as exc:  # raised after some items: the harness streams them, then raises
            kept.append(exc)
            return {"generator": {"items": items, "raise": {"type": type(exc).__qualname__, "message": str(exc)}}}
        return {"generator": {"items": items, "return": final}}
    return value


def _refuse(reason: str) -> None:
    """A refusal: the SDK cannot express this input. The harness (strictconformance.harness)
    discards it inside a Hypothesis example (as ``assume(False)``: the check goes on with inputs
    the SDK can express) and skips an explicit case as not covered, with the reason."""
    refuse(reason)


def _capability(method: str) -> Callable[..., Any]:
    def call(self: ProcessAdapter, *args: Any) -> Any:
        return self._call(method, args)

    call.__name__ = call.__qualname__ = method
    call.__doc__ = f"{method}, answered by the harness process."
    return call


def _define_tool(self: ProcessAdapter, definition: Any) -> ProcessTool:
    value = self._call("define_tool", (definition,))
    if not isinstance(value, dict) or not isinstance(value.get("tool"), str):
        raise HarnessFault(f"harness `{self._process.command}`: define_tool result must be {{\"tool\": \"<handle>\"}}")
    return ProcessTool(value["tool"], definition.name, self._process.generation)


def _describe_tool(self: ProcessAdapter, tool: Any) -> Any:
    from strictconformance.tools.contract import AdvertisedTool

    value: Any = self._call("describe_tool", (tool,))
    if not isinstance(value, dict):
        raise HarnessFault(f"harness `{self._process.command}`: describe_tool result must be an object")
    fields: Any = value  # the checks judge the field types (a junk answer is the harness's fault)
    return AdvertisedTool(fields.get("name"), fields.get("description"), fields.get("input_schema"), fields.get("strict"))


def _invoke_tool(self: ProcessAdapter, tool: Any, tool_use_id: str, tool_input: Any, invocation_state: Any) -> Any:
    from strictconformance.tools.results import ToolEvent, ToolInvocation, ToolResult

    value = self._call("invoke_tool", (tool, tool_use_id, tool_input, invocation_state))
    outputs: list[ToolEvent | ToolResult] = []
    for index, raw in enumerate(value.get("outputs", []) if isinstance(value, dict) else ()):
        item: Any = raw
        if not isinstance(raw, dict) or raw.get("kind") not in ("event", "result"):
            raise HarnessFault(f"harness `{self._process.command}`: invoke_tool outputs[{index}] must be "
                               "{\"kind\": \"event\" | \"result\", ...}")
        if item["kind"] == "event":
            outputs.append(ToolEvent(item.get("tool_use_id"), item.get("index"), item.get("data")))
        else:
            outputs.append(ToolResult(item.get("tool_use_id"), item.get("status"), item.get("content"), item.get("value"),
                                      item.get("error_type"), item.get("error_message"), item.get("error_field")))
    return ToolInvocation(tuple(outputs))


_SPECIAL: Mapping[str, Callable[..., Any]] = {
    "define_tool": _define_tool, "describe_tool": _describe_tool, "invoke_tool": _invoke_tool,
}


def _class_namespace(started: Mapping[str, Any]) -> dict[str, Any]:
    """Class attributes for the harness's capabilities and declarations (the handshake's)."""
    implementation = started["implementation"]
    declarations = dict(started["declarations"])
    namespace: dict[str, Any] = {}
    for method in started["capabilities"]:
        namespace[method] = _SPECIAL.get(method) or _capability(method)
    sdk = ", ".join(f"{name} {version}" for name, version in implementation["sdk"].items())
    namespace["name"] = implementation["name"]
    namespace["sdk"] = f"{implementation['name']} {implementation['version']} ({implementation['language']}: {sdk})"
    if implementation["language"] in ("python", "node"):
        namespace["reproducer_language"] = implementation["language"]
    errors: dict[str, type[HarnessCallError]] = {}
    for key in ("rejection_errors", "drift_errors", "api_errors", "strictify_refusals", "tool_refusals"):
        if key in declarations:
            namespace[key] = tuple(errors.setdefault(name, _error_class(name)) for name in declarations.pop(key))
    namespace["_declared_errors"] = errors
    if "budgets" in declarations:
        namespace["budgets"] = {family: Budget(**limits) for family, limits in declarations.pop("budgets").items()}
    if declarations.get("tool_layer_traits") is not None:
        from strictconformance.tools.contract import ToolLayerTraits

        raw = declarations.pop("tool_layer_traits")
        known = _trait_keys()
        unknown = sorted(set(raw) - set(known))
        if unknown:
            raise ValueError(f"tool_layer_traits with unknown keys {unknown}; known: {', '.join(known)}")
        if "sources" in raw:
            raw = {**raw, "sources": frozenset(raw["sources"])}
        namespace["tool_layer_traits"] = ToolLayerTraits(**raw)
    for key in ("conventions", "providers", "strictify_dialects", "drift_apis"):
        if declarations.get(key) is not None:
            declarations[key] = tuple(declarations[key])
    namespace.update(declarations)
    namespace["not_covered"] = dict(started.get("not_covered", {}))
    return namespace

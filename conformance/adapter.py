"""The adapter contract: how the suite reaches an SDK.

Subclass :class:`Adapter`, override the capability methods your SDK has, set the declarations
that apply, and point the plugin at it with ``--sc-adapter module:Class``. The suite calls only
the capability methods; everything else on the class is yours.

* **Capabilities** are methods. One you do not override is *not covered*: every rule that needs
  it is skipped with a reason naming the method, and the report lists it. Never a pass.
* **Declarations** are class attributes: data the suite reads once, at start-up, and validates
  (:func:`read_declarations`); a bad one stops the run with a message saying what to write.
* **Faults** — a capability that raises where it should not, hangs, returns the wrong type or
  mutates its input — fail the check that called it, naming the method and what was wrong.
"""

from __future__ import annotations

import dataclasses
import importlib
import inspect
import json
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, NoReturn

from strictconformance.dialects.catalogue import CATALOGUE
from strictconformance.dialects.model import Dialect
from strictconformance.dialects.registry import DialectRegistry
from strictconformance.dialects.shipped import SHIPPED
from strictconformance.spec import all_rules
from strictconformance.spec.resolution import PUBLISHED_BUDGETS, Budget
from strictconformance.wire import (
    FAMILIES,
    PROVIDERS,
    ModelSpec,
    Plan,
    PlanRequest,
    StrictSupport,
    ToolsRequest,
    WireRequest,
)

if TYPE_CHECKING:
    from strictconformance.dialects.model import Strictified
    from strictconformance.drift.fidelity import ParsedResponse
    from strictconformance.drift.sse import SSEEvent
    from strictconformance.drift.unread import UnreadField
    from strictconformance.tools.contract import AdvertisedTool, ToolDefinition, ToolLayerTraits
    from strictconformance.tools.results import ToolContext, ToolInvocation

__all__ = [
    "CAPABILITIES",
    "DECLARATION_RULES",
    "REPRODUCER_LANGUAGES",
    "Adapter",
    "AdapterContractError",
    "Capability",
    "DeclarationRule",
    "Declarations",
    "error_text",
    "implemented_capabilities",
    "load_adapter",
    "read_declarations",
    "safe_repr",
]

_CONVENTIONS = {"boolean": "build_request", "priority": "plan_request"}
_POLICIES = ("greedy", "unspecified")


class AdapterContractError(Exception):
    """The adapter cannot be used at all: not importable, wrong type, or bad declarations."""


def safe_repr(value: object) -> str:
    """``repr(value)`` that never raises: an object an adapter made may have a broken ``__repr__``
    (then ``<TypeName: repr failed: ...>``). Only ``KeyboardInterrupt`` gets through."""
    try:
        return repr(value)  # (a __repr__ returning a non-str makes repr() raise TypeError)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        return f"<{type(value).__name__}: repr failed: {error_text(exc)}>"


def error_text(error: BaseException) -> str:
    """``TypeName: message`` of an exception, even one whose ``__str__`` raises."""
    name = type(error).__name__
    try:
        message = str(error)
    except KeyboardInterrupt:
        raise
    except BaseException as inner:
        try:
            message = f"<str() failed: {type(inner).__name__}: {inner}>"
        except KeyboardInterrupt:
            raise
        except BaseException:
            message = f"<str() failed: {type(inner).__name__}>"
    return f"{name}: {message}" if message else name


def _not_implemented(method: str, what: str) -> NotImplementedError:
    return NotImplementedError(
        f"{method}() is not implemented by this adapter. Override it to let the suite check {what}; "
        "until then those rules are reported as not covered."
    )


class Adapter:
    """Base class of an SDK adapter. See the module docstring and the README's tutorial."""

    # -- Declarations (data; validated at start-up by read_declarations) ----------------------
    #: Shown in the report. Defaults to the class's qualified name.
    name: ClassVar[str | None] = None
    #: The SDK and version under test, e.g. ``"openai-python 3.54.0"``. Shown in the report.
    sdk: ClassVar[str] = ""
    #: Resolution conventions followed: ``"boolean"`` (build_request) and/or ``"priority"``
    #: (plan_request). ``None`` derives them from the capabilities overridden.
    conventions: ClassVar[Collection[str] | None] = None
    #: Boolean convention, RES-2: what an unset tool under an unset config resolves to, per provider
    #: (``True``, ``False`` or ``None`` for omitted). Required with build_request.
    strict_defaults: ClassVar[Mapping[str, bool | None] | None] = None
    #: Boolean convention: the providers build_request handles (a subset of openai, anthropic,
    #: google). Rules about the others are not covered. ``None``: all three.
    providers: ClassVar[Collection[str] | None] = None
    #: Priority convention: ``"greedy"`` (the reference's exact policy, enables BUD-3) or ``"unspecified"``.
    allocation_policy: ClassVar[str] = "unspecified"
    #: Per-request budgets by dialect family; defaults to the published ones (Anthropic).
    budgets: ClassVar[Mapping[str, Budget]] = PUBLISHED_BUDGETS
    #: Whether strict_support consults a curated model table (enables RES-14).
    curated_model_table: ClassVar[bool] = False
    #: Which OpenAI API build_request's OpenAI requests go to: ``"chat_completions"`` (an omitted
    #: ``strict`` is false there), ``"responses"`` (an omitted ``strict`` is the API's own default:
    #: it tries strict), or None (not said: an omitted strict and false are told apart).
    openai_api: ClassVar[str | None] = None
    #: Exceptions plan_request raises to refuse a request (RES-10, BUD-5, invalid settings).
    #: Any other exception is a fault.
    rejection_errors: ClassVar[tuple[type[BaseException], ...]] = ()
    #: Dialects your strictify supports, by name (e.g. ``("openai", "anthropic")``): shipped ones
    #: (``strictconformance.dialects.SHIPPED``) or your own from ``dialects``.
    strictify_dialects: ClassVar[Collection[str]] = ()
    #: Exceptions your strictify raises, by design, to refuse a schema it does not support. A declared
    #: refusal is counted and reported ("refused 37 of 400 schemas"), never judged as a pass; any
    #: other exception strictify raises is a crash (RT-1).
    strictify_refusals: ClassVar[tuple[type[BaseException], ...]] = ()
    #: Exceptions your tool layer's define_tool / define_tool_from_function raise, by design, to
    #: refuse a strict tool whose input schema strict mode cannot express (an open object: a
    #: ``dict[str, Any]`` parameter, ``additionalProperties`` other than false). Like strictify's: a
    #: declared refusal of such a schema is counted and reported, and the TL checks that met it do
    #: not judge that case; TL-11 fails a refusal of a schema strict mode expresses; any other
    #: exception at definition is judged by the rule whose check met it.
    tool_refusals: ClassVar[tuple[type[BaseException], ...]] = ()
    #: What your strictify's schemas are for (SPEC.md §3, contexts): ``"tool_input"`` (function
    #: parameters, the default) or ``"output"`` (a structured-output schema: ``response_format``,
    #: ``responseSchema``, ``output_config.format``), for every dialect, or per dialect as a mapping
    #: (``{"google": "output"}``; a dialect not named stays ``"tool_input"``). The SM and RT checks
    #: then judge with that context's rules (``Dialect.in_context``): e.g. an array root is fine for
    #: Gemini output schemas but not for tool parameters. A strictify serving both: one adapter each.
    strictify_context: ClassVar[str | Mapping[str, str]] = "tool_input"
    #: Your own strict dialects (:class:`strictconformance.dialects.Dialect`), e.g. a provider the kit
    #: does not ship, built from catalogue rules (``strictconformance.dialects.catalogue.rule``) with
    #: your own parameters and ``Limits``. Each needs a name no shipped dialect has and must be listed
    #: in ``strictify_dialects``; the SM checks of its rules and the RT checks then run in it too.
    dialects: ClassVar[Collection[Dialect]] = ()
    #: Exceptions check_response / check_stream raise on drift. Any other exception is a fault.
    drift_errors: ClassVar[tuple[type[BaseException], ...]] = ()
    #: Exceptions check_response / check_stream raise for an error the PROVIDER sent (an error body,
    #: an ``event: error`` frame): the SDK's API errors. Raising one for such a payload is correct
    #: (DR-6); raising one for a response that carries no provider error fails the rule judging it.
    api_errors: ClassVar[tuple[type[BaseException], ...]] = ()
    #: Whether check_response / check_stream return what the SDK parsed (a
    #: :class:`strictconformance.drift.fidelity.ParsedResponse`): enables DR-7, parse fidelity.
    parse_fidelity: ClassVar[bool] = False
    #: APIs check_response / check_stream handle (``strictconformance.drift.API_IDS``, e.g.
    #: ``("openai.chat", "groq.chat")``); ``None``: all of them. Drift checks of the others are not covered.
    drift_apis: ClassVar[Collection[str] | None] = None
    #: Response fields your SDK does not read, per API: ``{"openai.responses": {"completed_at":
    #: "sdk/file.py:120 (the response type declares no completed_at)"}}``, paths in the kit's syntax
    #: (``[*]`` for any element, ``[type=NAME]`` for one variant's, ``events[*].data...`` in a stream),
    #: each with the source showing it. DR-2/DR-3 mutate none of them (SPEC §5: drift in a field the
    #: SDK does not read is nothing to detect); a field DR-7 reads cannot be declared.
    drift_unread: ClassVar[Mapping[str, Mapping[str, str]]] = {}
    #: Tool layer conventions the TL checks respect (how a generator gives its final value, what an
    #: empty one gives, which schema sources the layer supports). ``None``: the kit's defaults.
    tool_layer_traits: ClassVar[ToolLayerTraits | None] = None
    #: Rules known to fail, with the reason: the rule is an expected failure while one of its checks fails;
    #: when every check of the rule passes, the run fails (strict per rule, not per check).
    expected_failures: ClassVar[Mapping[str, str]] = {}
    #: Language of what :meth:`reproduce` returns: ``"python"`` or ``"node"``.
    reproducer_language: ClassVar[str] = "python"

    # -- Capabilities: strict resolution (SPEC §1, §2) -----------------------------------------
    def build_request(self, request: ToolsRequest) -> WireRequest:
        """Boolean convention: the wire request your SDK builds for ``request`` (RES-1..RES-6).

        Build a :class:`~strictconformance.wire.WireRequest`, or capture the HTTP body your SDK
        would send and convert it with :func:`strictconformance.wire.read_wire_request`.
        """
        raise _not_implemented("build_request", "the boolean convention (RES-1..RES-6)")

    def plan_request(self, request: PlanRequest) -> Plan:
        """Priority convention: the model chosen among ``request.candidates`` and the wire request
        built for it (RES-10..RES-12, BUD-1..BUD-6, and RES-5's beta on a planned request). Refuse by
        raising one of ``rejection_errors``."""
        raise _not_implemented("plan_request", "the priority convention and budgets (RES-5, RES-10..RES-12, BUD-*)")

    def strict_support(self, model: ModelSpec) -> StrictSupport:
        """The model's resolved strict format: dialect family and strict capability (RES-13, RES-14)."""
        raise _not_implemented("strict_support", "strict-format resolution (RES-13, RES-14)")

    # -- Capabilities: strictify and its codec (SPEC §3, §4) ------------------------------------
    def strictify(self, schema: Mapping[str, Any], dialect: str) -> Strictified | Mapping[str, Any]:
        """Your SDK's strict version of ``schema`` in ``dialect``: a
        :class:`~strictconformance.dialects.Strictified` (schema and reported losses) or a bare
        schema dict (no losses reported).

        A :class:`~strictconformance.dialects.Loss` points into the ORIGINAL ``schema``, never into
        the strict one: the node whose meaning changed, with the keyword it lost (``/properties/tags``
        and ``maxItems``). It explains a difference only there (RT-4, RT-5); a loss naming nothing
        in the original (a keyword the node does not have, a pointer that does not resolve) fails."""
        raise _not_implemented("strictify", "strict schemas (SM-*, RT-1..RT-3)")

    def encode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        """A value of the original ``schema`` in its wire shape for ``dialect``, as JSON (dicts with
        string keys, lists, strings, finite numbers, booleans, None)."""
        raise _not_implemented("encode", "value encoding (RT-4, RT-6)")

    def decode(self, schema: Mapping[str, Any], dialect: str, value: Any) -> Any:
        """A wire value for ``dialect`` back as a value of the original ``schema``, as JSON (dicts
        with string keys, lists, strings, finite numbers, booleans, None)."""
        raise _not_implemented("decode", "value decoding (RT-5, RT-7)")

    # -- Capabilities: response drift (SPEC §5) --------------------------------------------------
    def check_response(self, api: str, payload: Any) -> ParsedResponse | None:
        """Run your SDK's response handling on ``payload`` (a decoded JSON body of ``api``); raise
        one of ``drift_errors`` when it detects drift. Return ``None``, or what your SDK parsed as a
        :class:`strictconformance.drift.fidelity.ParsedResponse` (text, tool calls, stop reason,
        usage) to be judged on parse fidelity (DR-7)."""
        raise _not_implemented("check_response", "response drift detection (DR-*)")

    def check_stream(self, api: str, events: Sequence[SSEEvent]) -> ParsedResponse | None:
        """Like check_response, for a stream: ``events`` are the stream's server-sent events in
        order, as :class:`strictconformance.drift.SSEEvent` (``data`` text, ``event`` name)."""
        raise _not_implemented("check_stream", "stream drift detection (DR-*)")

    def drift_error_path(self, error: BaseException) -> str | None:
        """Read the payload path from one of your drift errors (default: its ``path`` attribute).
        Not a capability: override it when your error keeps the path elsewhere."""
        path = getattr(error, "path", None)
        return path if isinstance(path, str) else None

    # -- Capabilities: the tool layer (SPEC §6) --------------------------------------------------
    def define_tool(self, definition: ToolDefinition) -> Any:
        """Define a tool in your SDK from ``definition`` (name, description, callback, and a raw JSON
        Schema, an input model or neither for type hints; strict; context opt-in) and return your
        SDK's tool object. Raise on an invalid definition (TL-7: a bad strict value)."""
        raise _not_implemented("define_tool", "tool definition (TL-*)")

    def define_tool_from_function(self, function: Callable[..., Any], strict: bool | None) -> Any:
        """Optional: define a tool from ``function`` alone, the way your users do with your SDK's
        decorator (``@function_tool``, ``@tool``, ``Tool(fn)``): its ``__name__`` is the name, its type
        hints the input, its Google-style docstring the description and the parameters'
        descriptions. Pass ``strict`` only when it is not ``None``. Return your SDK's tool object
        (describe_tool, invoke_tool and call_tool take it). TL-2..TL-4 and TL-6 then also run on such
        tools, and TL-8..TL-10 (description, extra keys, defaults) need it."""
        raise _not_implemented("define_tool_from_function", "tools defined from a function (TL-8..TL-10)")

    def describe_tool(self, tool: Any) -> AdvertisedTool:
        """What your SDK advertises for ``tool`` (from define_tool): name, description, input schema, strict."""
        raise _not_implemented("describe_tool", "advertised tool schemas (TL-1, TL-5, TL-7)")

    def invoke_tool(self, tool: Any, tool_use_id: str, tool_input: Mapping[str, Any],
                    invocation_state: Mapping[str, Any]) -> ToolInvocation:
        """Run ``tool`` once the way your SDK's tool-use path does, and report every progress event
        and final result it produced (:class:`strictconformance.tools.ToolInvocation`)."""
        raise _not_implemented("invoke_tool", "tool invocation (TL-2..TL-6)")

    def call_tool(self, tool: Any, tool_input: Mapping[str, Any], context: ToolContext | None) -> Any:
        """Call ``tool`` directly, the way your SDK documents calling a tool directly (TL-6: validates
        and raises), passing ``context`` where the tool takes one. Where your SDK has several call
        paths, make the documented, validating direct-call entry point (``tool(**input)``,
        ``tool.invoke(input)``) and name it in ``tool_layer_traits.direct_call``; never a function the
        tool keeps that your SDK documents as skipping validation (TL-6 would fail by construction).
        Optional: when your SDK has no validating direct call, leave this out and declare why in
        ``tool_layer_traits.no_direct_call``: TL-6 is then not covered with that reason. Calling
        :func:`strictconformance.findings.not_covered` for a tool it cannot call is not covered too."""
        raise _not_implemented("call_tool", "direct tool calls (TL-6)")

    # -- Not a capability: reproducers for failures ---------------------------------------------
    def reproduce(self, method: str, args: tuple[Any, ...]) -> str | None:
        """A short standalone snippet (Python unless ``reproducer_language`` says otherwise) that
        makes the same call as the adapter call ``method(*args)`` with only the SDK's own code and
        prints what the SDK returns or raises; ``None`` when the adapter has none for ``method``.

        Optional, and never a capability: when a check fails, the suite asks for the reproducer of
        the call that failed (``args`` are a copy) and shows it under ``reproducer:`` and in the
        report's ``reproducer`` field. An exception or a result that is not a string is shown as
        "reproducer unavailable", never breaking the report."""
        return None


@dataclass(frozen=True)
class Capability:
    """A capability method: what it is for and how its result is checked for junk."""

    method: str
    summary: str
    check_result: Callable[[Any], str | None] | None = None


def _wire_request_problem(value: Any) -> str | None:
    if not isinstance(value, WireRequest):
        return (f"returned {type(value).__name__}, expected strictconformance.WireRequest "
                "(strictconformance.wire.read_wire_request converts a captured HTTP body)")
    raw: Any = value  # typed fields, but the adapter may have put anything in them
    if not isinstance(raw.tools, tuple):
        return f"WireRequest.tools is {type(raw.tools).__name__}, expected a tuple of WireTool"
    for index, tool in enumerate(raw.tools):
        if type(tool).__name__ != "WireTool" or not isinstance(getattr(tool, "name", None), str):
            return f"WireRequest.tools[{index}] is {safe_repr(tool):.200}, expected WireTool(name: str, strict, input_schema)"
        if tool.strict is not None and not isinstance(tool.strict, bool):
            return f"WireRequest.tools[{index}].strict is {safe_repr(tool.strict):.200}, expected True, False or None (omitted)"
        problem = _json_problem(tool.input_schema)
        if problem is not None:
            return f"WireRequest.tools[{index}].input_schema is not JSON: {problem}"
    if not isinstance(raw.betas, frozenset) or not all(isinstance(beta, str) for beta in raw.betas):
        return f"WireRequest.betas is {safe_repr(raw.betas):.200}, expected a frozenset of str"
    if raw.function_calling_mode is not None and not isinstance(raw.function_calling_mode, str):
        return f"WireRequest.function_calling_mode is {safe_repr(raw.function_calling_mode):.200}, expected str or None"
    problem = _json_problem(raw.response_format)
    if problem is not None:
        return f"WireRequest.response_format is not JSON: {problem}"
    return None


def _json_problem(value: object) -> str | None:
    """Why ``value`` could not be part of a request body (a container inside itself, a type JSON
    does not have, NaN), or None: the checks walk these fields and would loop forever on a cycle."""
    from strictconformance.tools.jsonvalue import json_value_problem

    return json_value_problem(value, max_depth=_WIRE_JSON_DEPTH)


#: Nesting a WireRequest's JSON fields may have: far past any provider's (OpenAI: 10 levels).
_WIRE_JSON_DEPTH = 1000


def _plan_problem(value: Any) -> str | None:
    if not isinstance(value, Plan):
        return f"returned {type(value).__name__}, expected strictconformance.Plan(model, request)"
    model: Any = value.model
    if not isinstance(model, ModelSpec):
        return f"Plan.model is {type(model).__name__}, expected the chosen ModelSpec"
    return _wire_request_problem(value.request)


def _strict_support_problem(value: Any) -> str | None:
    if not isinstance(value, StrictSupport):
        return f"returned {type(value).__name__}, expected strictconformance.StrictSupport(dialect, capable)"
    capable: Any = value.capable  # typed, but the adapter may have put anything there
    dialect: Any = value.dialect
    if not isinstance(capable, bool):
        return f"StrictSupport.capable is {safe_repr(capable):.200}, expected a bool"
    if dialect is not None and not isinstance(dialect, str):
        return f"StrictSupport.dialect is {safe_repr(dialect):.200}, expected a family name or None"
    return None


def _advertised_tool_problem(value: Any) -> str | None:
    from strictconformance.tools.contract import AdvertisedTool

    if not isinstance(value, AdvertisedTool):
        return f"returned {type(value).__name__}, expected strictconformance.tools.AdvertisedTool(name, description, input_schema, strict)"
    schema: Any = value.input_schema
    if not isinstance(schema, Mapping):
        return f"AdvertisedTool.input_schema is {type(schema).__name__}, expected a JSON Schema object"
    name: Any = value.name
    description: Any = value.description
    if not isinstance(name, str) or not isinstance(description, str):
        return (f"AdvertisedTool.name and .description must be str, got a {type(name).__name__} name "
                f"and a {type(description).__name__} description")
    return None


def _tool_invocation_problem(value: Any) -> str | None:
    from strictconformance.tools.results import invocation_problem

    return invocation_problem(value)  # every event and result, not only the outer type


def _parsed_problem(value: Any) -> str | None:
    """check_response / check_stream: ``None``, or what the SDK parsed (DR-7)."""
    from strictconformance.drift.fidelity import parsed_problem

    return parsed_problem(value)


def _strictify_problem(value: Any) -> str | None:
    """A strictify result the checks cannot use: not a schema dict or a Strictified, a loss that is
    not a Loss, or a strict schema that is not JSON (NaN, a set, a key that is not a string)."""
    from strictconformance.dialects.model import Strictified
    from strictconformance.dialects.values import MAX_JSON_NESTING, json_problem

    try:
        result = Strictified.coerce(value)
    except Exception as exc:  # a junk answer may fail in any way when read
        return f"returned an unusable result: {type(exc).__name__}: {exc}"
    problem = json_problem(result.schema, max_depth=MAX_JSON_NESTING)
    return None if problem is None else f"returned a strict schema that is not JSON the checks can read, {problem}"


def _json_value_problem(value: Any) -> str | None:
    """An encode/decode result that is not a JSON value (the wire carries JSON; decoded values are
    checked as JSON against the original schema)."""
    from strictconformance.dialects.values import MAX_JSON_NESTING, json_problem

    problem = json_problem(value, max_depth=MAX_JSON_NESTING)
    return None if problem is None else ("returned a value that is not JSON the checks can read (dicts with string keys, "
                                         f"lists, strings, finite numbers, booleans, None), {problem}")


#: Elements (containers, their items, dataclass fields) an adapter's result may hold: far past any
#: schema, request or value a check sends, few enough to walk in well under a second.
MAX_RESULT_ELEMENTS = 200_000
#: Characters one string of a result may hold.
MAX_RESULT_STRING = 10_000_000


def result_size_problem(value: Any, *, limit: int = MAX_RESULT_ELEMENTS) -> str | None:
    """Why ``value`` is too big for the suite to inspect, or None. Cheap: it stops counting at
    ``limit`` (a container's ``len`` first), so a 2,000,000-element list fails at once, before
    the deep validation of the result (which would take minutes, again at every shrink step).

    A container met again below itself (a cycle) counts once and is not walked again: the
    capability's own check names the cycle. Shared containers that are no cycle count at every
    place they occur (the deep validation walks them there too)."""
    if _plain_json_within(value, limit):
        return None
    count = 0
    on_path: set[int] = set()
    # (item, leaving): ``leaving`` takes a container off the path once its items are counted
    stack: list[tuple[Any, bool]] = [(value, False)]
    while stack:
        item, leaving = stack.pop()
        if leaving:
            on_path.discard(id(item))
            continue
        count += 1
        if isinstance(item, (str, bytes)):
            if len(item) > MAX_RESULT_STRING:
                return f"returned a string of {len(item):,} characters; the suite reads results of at most {MAX_RESULT_STRING:,}"
            continue
        if isinstance(item, Mapping):
            size = 2 * len(item)
        elif isinstance(item, (list, tuple, set, frozenset)):
            size = len(item)
        elif dataclasses.is_dataclass(item) and not isinstance(item, type):
            size = len(dataclasses.fields(item))
        else:
            continue
        if id(item) in on_path:  # a cycle: the result contains itself here
            continue
        if count + size > limit:
            held = f" (one container holds {size:,})" if size > limit // 2 else ""
            return f"returned a result of more than {limit:,} elements{held}; the suite inspects results of at most {limit:,}"
        if isinstance(item, Mapping):
            children: Any = [*item.keys(), *item.values()]  # the order _plain_json_within counts in
        elif isinstance(item, (list, tuple, set, frozenset)):
            children = item
        else:
            children = [getattr(item, f.name, None) for f in dataclasses.fields(item)]
        on_path.add(id(item))
        stack.append((item, True))
        stack.extend((child, False) for child in children)
    return None


_SCALARS = (int, float, bool, type(None))


def _plain_json_within(value: Any, limit: int) -> bool:
    """Whether ``value`` is plain JSON (dicts, lists, tuples, short strings, numbers, booleans,
    None, by exact type) of at most ``limit`` elements counted as :func:`result_size_problem`
    counts them: the common answer, found without that walk's bookkeeping (a strictify answer is
    checked on every call; the walk cost ~5% of a strict check's CPU). False for anything else,
    which the exact walk then judges: a cycle makes this count pass the limit, never loop."""
    count = 0
    stack = [value]
    pop, extend = stack.pop, stack.extend
    while stack:
        item = pop()
        count += 1
        kind = type(item)
        if kind is str:
            if len(item) > MAX_RESULT_STRING:
                return False
        elif kind is dict:
            if count + 2 * len(item) > limit:
                return False
            extend(item)
            extend(item.values())
        elif kind is list or kind is tuple:
            if count + len(item) > limit:
                return False
            extend(item)
        elif kind not in _SCALARS:
            return False
    return True


def result_problem(method: str, value: Any) -> str | None:
    """Why the result of capability ``method`` is junk the checks cannot use, or None: its size
    first (cheap), then the capability's own result check."""
    problem = result_size_problem(value)
    if problem is not None:
        return problem
    checker = CAPABILITIES[method].check_result
    return checker(value) if checker is not None else None


#: Every capability, by method name. Rules name the capabilities their checks call (spec.Rule).
CAPABILITIES: Mapping[str, Capability] = {
    capability.method: capability
    for capability in (
        Capability("build_request", "boolean-convention wire request", _wire_request_problem),
        Capability("plan_request", "priority-convention model selection and budgets", _plan_problem),
        Capability("strict_support", "strict-format resolution of a model", _strict_support_problem),
        Capability("strictify", "strict schema for a dialect", _strictify_problem),
        Capability("encode", "value encoding into a dialect's wire shape", _json_value_problem),
        Capability("decode", "value decoding from a dialect's wire shape", _json_value_problem),
        Capability("check_response", "response drift detection", _parsed_problem),
        Capability("check_stream", "stream drift detection", _parsed_problem),
        Capability("define_tool", "tool definition"),
        Capability("define_tool_from_function", "tool definition from a function alone"),
        Capability("describe_tool", "advertised tool", _advertised_tool_problem),
        Capability("invoke_tool", "tool invocation", _tool_invocation_problem),
        Capability("call_tool", "direct tool call"),
    )
}


def implemented_capabilities(adapter: Adapter) -> frozenset[str]:
    """The capability methods ``adapter``'s class overrides."""
    return frozenset(
        method for method in CAPABILITIES
        if getattr(type(adapter), method) is not getattr(Adapter, method)
    )


@dataclass(frozen=True)
class Declarations:
    """An adapter's validated declarations, as the suite and the report see them."""

    adapter: str
    name: str
    sdk: str
    capabilities: frozenset[str]
    conventions: frozenset[str]
    strict_defaults: Mapping[str, bool | None]
    providers: tuple[str, ...]
    allocation_policy: str
    budgets: Mapping[str, Budget]
    curated_model_table: bool
    rejection_errors: tuple[type[BaseException], ...]
    strictify_dialects: tuple[str, ...]
    drift_errors: tuple[type[BaseException], ...]
    drift_apis: tuple[str, ...]
    tool_layer_traits: Any
    expected_failures: Mapping[str, str]
    #: The adapter's own dialects (``Adapter.dialects``), in declared order.
    dialects: tuple[Dialect, ...] = ()
    #: The SDK's API errors (``Adapter.api_errors``).
    api_errors: tuple[type[BaseException], ...] = ()
    #: Whether the response checks return what the SDK parsed (``Adapter.parse_fidelity``, DR-7).
    parse_fidelity: bool = False
    #: Response fields the SDK does not read (``Adapter.drift_unread``), checked against the shapes.
    drift_unread: tuple[UnreadField, ...] = ()
    #: Every dialect of the run by name: the shipped ones, then the adapter's own.
    dialect_registry: DialectRegistry = field(default_factory=DialectRegistry)
    #: Exceptions strictify raises to refuse a schema (declared refusals, not crashes).
    strictify_refusals: tuple[type[BaseException], ...] = ()
    #: The context of each dialect in ``strictify_dialects`` (``Adapter.strictify_context``).
    strictify_contexts: Mapping[str, str] = field(default_factory=dict)
    #: Which OpenAI API the OpenAI requests go to (``Adapter.openai_api``).
    openai_api: str | None = None
    #: Exceptions the tool layer raises at definition to refuse a strict tool (``Adapter.tool_refusals``).
    tool_refusals: tuple[type[BaseException], ...] = ()

    @property
    def identity_codec(self) -> bool:
        """Whether the round-trip rules judge the identity codec: the adapter has strictify and no
        codec at all, so the SDK hands the provider's answer to its user unchanged (RT-4..RT-6 are
        judged on that, where a closed record or an unsatisfiable allOf shows). RT-7 needs the
        adapter's own encode() and stays not covered."""
        return "strictify" in self.capabilities and not {"encode", "decode"} & self.capabilities

    @property
    def judged_capabilities(self) -> frozenset[str]:
        """The capabilities the checks judge: the implemented ones, plus encode and decode when the
        identity codec stands in for them."""
        return self.capabilities | {"encode", "decode"} if self.identity_codec else self.capabilities

    def as_json(self) -> dict[str, Any]:
        return {
            "adapter": self.adapter,
            "name": self.name,
            "sdk": self.sdk,
            "capabilities": sorted(self.capabilities),
            "identity_codec": self.identity_codec,
            "conventions": sorted(self.conventions),
            "strict_defaults": dict(self.strict_defaults),
            "providers": list(self.providers),
            "allocation_policy": self.allocation_policy,
            "budgets": {family: {"max_strict_tools": b.max_strict_tools, "max_optional_params": b.max_optional_params,
                                 "max_union_params": b.max_union_params} for family, b in self.budgets.items()},
            "curated_model_table": self.curated_model_table,
            "openai_api": self.openai_api,
            "rejection_errors": [_qualname(error) for error in self.rejection_errors],
            "strictify_dialects": list(self.strictify_dialects),
            "strictify_refusals": [_qualname(error) for error in self.strictify_refusals],
            "tool_refusals": [_qualname(error) for error in self.tool_refusals],
            "strictify_contexts": dict(self.strictify_contexts),
            "drift_errors": [_qualname(error) for error in self.drift_errors],
            "api_errors": [_qualname(error) for error in self.api_errors],
            "parse_fidelity": self.parse_fidelity,
            "drift_apis": list(self.drift_apis),
            "drift_unread": _unread_json(self.drift_unread),
            "tool_layer_traits": None if self.tool_layer_traits is None else {
                "final_value": self.tool_layer_traits.final_value,
                "strict_convention": self.tool_layer_traits.strict_convention,
                "strict_default": self.tool_layer_traits.strict_default,
                "error_text": self.tool_layer_traits.error_text,
                "advertised_defaults": self.tool_layer_traits.advertised_defaults,
                "callback_returns": self.tool_layer_traits.callback_returns,
                "omitted_strict_is_false": self.tool_layer_traits.omitted_strict_is_false,
                "direct_call": self.tool_layer_traits.direct_call,
                "no_direct_call": self.tool_layer_traits.no_direct_call,
                "empty_generator_value": repr(self.tool_layer_traits.empty_generator_value),
                "sources": sorted(self.tool_layer_traits.sources),
            },
            "expected_failures": dict(self.expected_failures),
            "dialects": [_dialect_json(dialect) for dialect in self.dialects],
        }


def _unread_json(fields: Sequence[UnreadField]) -> dict[str, dict[str, str]]:
    out: dict[str, dict[str, str]] = {}
    for declared in fields:
        out.setdefault(declared.api, {})[declared.path] = declared.source
    return out


def _jsonable(value: Any) -> Any:
    """A dialect's data as JSON: tuples and sets as lists (sets sorted), mappings as objects."""
    if isinstance(value, (frozenset, set)):
        return sorted((_jsonable(item) for item in value), key=repr)
    if isinstance(value, (tuple, list)):
        return [_jsonable(item) for item in value]
    if isinstance(value, Mapping):
        return {str(key): _jsonable(item) for key, item in value.items()}
    return value


def _dialect_json(dialect: Dialect) -> dict[str, Any]:
    return {
        "name": dialect.name,
        "description": dialect.description,
        "source": dialect.source,
        "rules": {rule.id: _jsonable(rule.params) for rule in dialect.rules},
        "limits": {key: value for key, value in dataclasses.asdict(dialect.limits).items() if value not in (None, "")},
        "encoding": _jsonable(dataclasses.asdict(dialect.encoding)),
    }


def _qualname(kind: type) -> str:
    return f"{kind.__module__}.{kind.__qualname__}"


# -- Declarations, validated from a table -----------------------------------------------------


@dataclass
class _Reading:
    """What :func:`read_declarations` knows while it reads the table: who, which capabilities it
    overrides, and the declarations read so far (by name, as the suite will see them)."""

    owner: str
    capabilities: frozenset[str]
    values: dict[str, Any] = field(default_factory=dict)

    def fail(self, message: str) -> NoReturn:
        raise AdapterContractError(message)

    def overrides(self, capabilities: Collection[str]) -> bool:
        return bool(self.capabilities & set(capabilities))


@dataclass(frozen=True)
class DeclarationRule:
    """One adapter declaration as :func:`read_declarations` checks it.

    ``valid`` tests the value's type and shape; a value it refuses stops the run with ``message``.
    ``allowed`` lists the values the declaration (or each item or key of it) may take, or gives
    them from what was read before; an unknown one stops the run with ``unknown``. The messages
    are format strings over ``owner`` (the adapter class), ``name``, ``value``, ``choices``
    (``allowed``), ``unknown`` (the offending items) and ``known`` (the allowed ones, joined).
    """

    name: str
    valid: Callable[[Any], bool]
    message: str
    #: Values it (or each item or key) may take; a function of the reading when they depend on it.
    allowed: Collection[str] | Callable[[_Reading], Collection[str]] | None = None
    unknown: str = "{owner}.{name}: unknown {unknown}; known: {known}"
    #: What ``None`` stands for (None: ``None`` is an ordinary value, judged by ``valid``).
    when_none: Callable[[_Reading], Any] | None = None
    #: Read only when the adapter overrides one of these capabilities; else the suite sees ``absent``.
    needs: frozenset[str] = frozenset()
    absent: Any = None
    #: Overriding one of these capabilities with the declaration left empty stops the run with ``required``.
    required_by: frozenset[str] = frozenset()
    required: str = ""
    #: The checked value as the suite sees it (cross-checks against the capabilities live here).
    read: Callable[[Any, _Reading], Any] = lambda value, reading: value
    #: Its form in a process harness's handshake (``started.declarations``): a JSON Schema, or a
    #: sentence saying how a harness says the same thing another way. Every declaration has one
    #: (tests/test_declaration_table.py), so a harness can declare whatever a Python adapter can.
    protocol: Mapping[str, Any] | str = ""

    def choices(self, reading: _Reading) -> Collection[str] | None:
        return self.allowed(reading) if callable(self.allowed) else self.allowed

    def check(self, value: Any, reading: _Reading) -> Any:
        """``value`` checked against this row; the declaration as the suite sees it."""
        if self.needs and not reading.overrides(self.needs):
            return self.absent
        if value is None and self.when_none is not None:
            value = self.when_none(reading)
        else:
            words = {"owner": reading.owner, "name": self.name, "value": value}
            choices = self.choices(reading)
            if not self.valid(value):
                reading.fail(self.message.format(**words, choices=tuple(choices or ())))
            if choices is not None and value is not None:
                items = [value] if isinstance(value, str) else list(value)
                unknown = [item for item in dict.fromkeys(items) if item not in choices]
                if unknown:
                    reading.fail(self.unknown.format(**words, unknown=unknown, known=", ".join(choices)))
        if self.required_by and reading.overrides(self.required_by) and not value:
            reading.fail(self.required.format(owner=reading.owner, name=self.name))
        return self.read(value, reading)


def _names(value: object) -> bool:
    """A collection of strings (a string itself is not one)."""
    return not isinstance(value, str) and isinstance(value, Collection) and all(isinstance(item, str) for item in value)


def _exceptions(value: object) -> bool:
    """An exception class, or a tuple or list of them."""
    items = value if isinstance(value, (tuple, list)) else (value,)
    return all(isinstance(item, type) and issubclass(item, BaseException) for item in items)


def _exception_tuple(value: Any, reading: _Reading) -> tuple[type[BaseException], ...]:
    return tuple(value) if isinstance(value, (tuple, list)) else (value,)


def _exception_rule(name: str, required_by: Collection[str] = (), required: str = "", *,
                    protocol: Mapping[str, Any] | str = "") -> DeclarationRule:
    return DeclarationRule(name, _exceptions, "{owner}.{name} must be a tuple of exception classes, e.g. (MySDKError,); got {value!r}",
                           required_by=frozenset(required_by), required=required, read=_exception_tuple, protocol=protocol)


def _schema(form: Mapping[str, Any]) -> Mapping[str, Any]:
    """A declaration's JSON Schema in the handshake (read-only: the table is shared)."""
    return MappingProxyType(dict(form))


def _traits_protocol() -> Mapping[str, Any]:
    """The handshake form of ``tool_layer_traits``, derived from :class:`ToolLayerTraits`'s own
    fields and their types (a new trait is in the protocol the day it is in the dataclass)."""
    import dataclasses
    import typing

    from strictconformance.tools.contract import ToolLayerTraits

    hints = typing.get_type_hints(ToolLayerTraits)
    properties: dict[str, Any] = {}
    for trait in dataclasses.fields(ToolLayerTraits):
        properties[trait.name] = _json_form(hints[trait.name])
    return MappingProxyType({"type": ["object", "null"], "properties": properties, "additionalProperties": False,
                             "description": "the tool layer's declared conventions (strictconformance.tools.ToolLayerTraits), "
                                            "any subset of its fields; the others keep their defaults"})


def _json_form(hint: Any) -> dict[str, Any]:
    """The JSON Schema of a value of type ``hint`` (the types ToolLayerTraits uses)."""
    import types
    import typing

    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin is typing.Literal:
        return {"enum": list(args)}
    if origin in (typing.Union, types.UnionType):
        forms = [_json_form(arg) for arg in args]
        if all(set(form) == {"type"} for form in forms):
            return {"type": sorted({kind for form in forms for kind in ([form["type"]] if isinstance(form["type"], str) else form["type"])})}
        return {"anyOf": forms}
    if origin in (frozenset, set, list, tuple) or hint in (frozenset, set, list, tuple):
        return {"type": "array", "items": _json_form(args[0]) if args else {}, "uniqueItems": origin in (frozenset, set)}
    return {bool: {"type": "boolean"}, str: {"type": "string"}, int: {"type": "integer"}, float: {"type": "number"},
            type(None): {"type": "null"}}.get(hint, {})


def _conventions(value: Any, reading: _Reading) -> frozenset[str]:
    derived = frozenset(convention for convention, method in _CONVENTIONS.items() if method in reading.capabilities)
    conventions = frozenset(value) if value is not None else derived
    for convention in sorted(conventions - derived):
        reading.fail(f"{reading.owner} declares the {convention!r} convention but does not override "
                     f"{_CONVENTIONS[convention]}(); implement it or drop {convention!r} from conventions")
    for convention in sorted(derived - conventions):
        reading.fail(f"{reading.owner} overrides {_CONVENTIONS[convention]}() but conventions does not list {convention!r}; "
                     "add it (or set conventions = None to derive them)")
    return conventions


def _strict_defaults(value: Mapping[str, Any], reading: _Reading) -> dict[str, bool | None]:
    providers = reading.values["providers"]
    missing = [provider for provider in providers if provider not in value]
    unknown = [provider for provider in value if provider not in PROVIDERS]
    bad = {provider: setting for provider, setting in value.items() if setting is not None and not isinstance(setting, bool)}
    if missing or unknown or bad:
        reading.fail(f"{reading.owner}.strict_defaults must give True, False or None (omitted) for each of its providers "
                     f"{', '.join(providers)}; missing {missing}, unknown {unknown}, not a bool or None {bad}")
    return dict(value)


def _budgets(value: Mapping[str, Budget], reading: _Reading) -> dict[str, Budget]:
    for family, budget in value.items():
        for limit_name in ("max_strict_tools", "max_optional_params", "max_union_params"):
            limit: Any = getattr(budget, limit_name)
            if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
                reading.fail(
                    f"{reading.owner}.budgets[{family!r}].{limit_name} is {limit!r} ({type(limit).__name__}); each limit is a "
                    "whole number of 0 or more, or None for no limit, e.g. strictconformance.Budget(max_strict_tools=20, "
                    "max_optional_params=24, max_union_params=16)")
    return dict(value)


def _api_ids(reading: _Reading | None = None) -> tuple[str, ...]:
    from strictconformance.drift.shapes import API_IDS

    return API_IDS


def _drift_apis(value: Collection[str], reading: _Reading) -> tuple[str, ...]:
    if not reading.overrides(_RESPONSE_CHECKS):
        return ()  # no response handling to check: the report lists none
    return tuple(api for api in _api_ids() if api in value)


def _registry(own: Collection[Dialect], contexts: Mapping[str, str] | None = None) -> DialectRegistry:
    registry = DialectRegistry()
    for dialect in own:
        registry = registry.with_dialect(dialect)
    for dialect_name, context in (contexts or {}).items():
        if context != "tool_input":  # the checks read the dialect by name: the context's rules replace its own
            registry = registry.with_dialect(registry[dialect_name].in_context(context), replace=True)
    return registry


def _is_unread(value: object) -> bool:
    return isinstance(value, Mapping) and all(
        isinstance(api, str) and isinstance(fields, Mapping) and all(isinstance(path, str) and isinstance(source, str)
                                                                     for path, source in fields.items())
        for api, fields in value.items())


def _drift_unread(value: Mapping[str, Mapping[str, str]], reading: _Reading) -> tuple[UnreadField, ...]:
    from strictconformance.drift.unread import read_unread

    try:
        return read_unread(value, reading.values["drift_apis"])
    except ValueError as exc:
        reading.fail(f"{reading.owner}.drift_unread: {exc}")


def _strictify_dialects(value: Collection[str], reading: _Reading) -> tuple[str, ...]:
    unused = [dialect.name for dialect in reading.values["dialects"] if dialect.name not in value]
    if unused:
        reading.fail(f"{reading.owner}.dialects declares {unused} but strictify_dialects does not list them: add them there "
                     "(a dialect's checks run only for the dialects strictify_dialects lists) or drop them from dialects")
    return tuple(value)


def _is_traits(value: object) -> bool:
    from strictconformance.tools.contract import ToolLayerTraits

    return isinstance(value, ToolLayerTraits)


def _default_traits(reading: _Reading) -> Any:
    from strictconformance.tools.contract import ToolLayerTraits

    return ToolLayerTraits()


def _traits(value: Any, reading: _Reading) -> Any:
    from strictconformance.tools.contract import validated_traits

    try:
        traits = validated_traits(value)
    except ValueError as exc:
        reading.fail(f"{reading.owner}.tool_layer_traits: {exc}")
    if "define_tool" not in reading.capabilities:
        reading.fail(f"{reading.owner} overrides tool-layer methods but not define_tool(), which every TL check needs first")
    if traits.no_direct_call is not None and "call_tool" in reading.capabilities:
        reading.fail(f"{reading.owner}.tool_layer_traits.no_direct_call declares that the SDK has no validating direct call, "
                     "but the adapter overrides call_tool(): leave call_tool out (TL-6 is then not covered with the declared "
                     "reason), or drop no_direct_call and name the documented direct call in direct_call")
    return traits


def _parse_fidelity(value: bool, reading: _Reading) -> bool:
    if value and not reading.overrides(_RESPONSE_CHECKS):
        reading.fail(f"{reading.owner}.parse_fidelity is True but the adapter overrides neither check_response() "
                     "nor check_stream(), which return what the SDK parsed")
    return value


_RESPONSE_CHECKS = frozenset({"check_response", "check_stream"})
_TOOL_LAYER = frozenset({"define_tool", "define_tool_from_function", "describe_tool", "invoke_tool", "call_tool"})
#: The languages a reproducer may be written in (``Adapter.reproducer_language``).
REPRODUCER_LANGUAGES = ("python", "node")

#: The OpenAI APIs a build_request may target (``Adapter.openai_api``).
_OPENAI_APIS = ("chat_completions", "responses")

_TRAITS_PROTOCOL = "@traits"  # derived from ToolLayerTraits: see handshake_declarations_schema()

#: Every declaration an adapter can make, in the order read (a row may use the rows above it).
DECLARATION_RULES: tuple[DeclarationRule, ...] = (
    DeclarationRule("name", lambda value: value is None or isinstance(value, str),
                    "{owner}.name must be a string, the adapter's name in the report, or None for the class's name; got {value!r}",
                    read=lambda value, reading: value or reading.owner,
                    protocol="the handshake's implementation.name"),
    DeclarationRule("sdk", lambda value: isinstance(value, str),
                    "{owner}.sdk must be a string naming the SDK and its version, e.g. 'openai-python 3.54.0'; got {value!r}",
                    protocol="the handshake's implementation (name, version, language and sdk versions)"),
    DeclarationRule("conventions", lambda value: value is None or _names(value),
                    "{owner}.conventions must be a collection of names, e.g. ('boolean',), or None to derive them; got {value!r}",
                    allowed=lambda reading: tuple(_CONVENTIONS), read=_conventions,
                    protocol=_schema({'type': ['array', 'null'], 'items': {'type': 'string'}})),
    DeclarationRule("providers", lambda value: _names(value) and bool(value),
                    "{owner}.providers must be a non-empty collection such as ('openai',), or None; got {value!r}",
                    allowed=PROVIDERS, when_none=lambda reading: PROVIDERS,
                    read=lambda value, reading: tuple(provider for provider in PROVIDERS if provider in value),
                    protocol=_schema({'type': ['array', 'null'], 'items': {'type': 'string'}})),
    DeclarationRule("strict_defaults", lambda value: isinstance(value, Mapping),
                    "{owner} overrides build_request() and must declare strict_defaults, the wire strict of an "
                    "unset tool under an unset config per provider (RES-2), e.g. "
                    "strict_defaults = {{'openai': True, 'anthropic': True, 'google': None}}",
                    needs=frozenset({"build_request"}), absent=MappingProxyType({}), read=_strict_defaults,
                    protocol=_schema({'type': 'object', 'additionalProperties': {'type': ['boolean', 'null']}})),
    DeclarationRule("allocation_policy", lambda value: isinstance(value, str) and value in _POLICIES,
                    "{owner}.allocation_policy must be one of {choices}, got {value!r}", allowed=_POLICIES,
                    protocol=_schema({'type': 'string'})),
    DeclarationRule("budgets", lambda value: isinstance(value, Mapping) and all(
                        family in FAMILIES and isinstance(budget, Budget) for family, budget in value.items()),
                    "{owner}.budgets must map dialect families {choices} to strictconformance.Budget, got {value!r}",
                    allowed=FAMILIES, read=_budgets,
                    protocol=_schema({'type': 'object', 'additionalProperties': {'type': 'object', 'properties': {'max_strict_tools': {'type': ['integer', 'null'], 'minimum': 0}, 'max_optional_params': {'type': ['integer', 'null'], 'minimum': 0}, 'max_union_params': {'type': ['integer', 'null'], 'minimum': 0}}, 'additionalProperties': False}})),
    DeclarationRule("openai_api", lambda value: value is None or value in _OPENAI_APIS,
                    "{owner}.openai_api must be one of {choices} or None, got {value!r}", allowed=_OPENAI_APIS,
                    protocol=_schema({"enum": [*_OPENAI_APIS, None], "description": "which OpenAI API the OpenAI requests go to: "
                                      "an omitted strict is false on chat_completions, the API's own default on responses"})),
    DeclarationRule("curated_model_table", lambda value: isinstance(value, bool),
                    "{owner}.curated_model_table must be True or False, got {value!r}",
                    protocol=_schema({'type': 'boolean'})),
    _exception_rule("rejection_errors", {"plan_request"},
                    "{owner} overrides plan_request() and must declare rejection_errors, the exception types it "
                    "raises to refuse a request (RES-10, BUD-5), e.g. rejection_errors = (MySDKError,)",
                    protocol=_schema({'type': 'array', 'items': {'type': 'string', 'minLength': 1}})),
    _exception_rule("drift_errors", _RESPONSE_CHECKS,
                    "{owner} overrides check_response()/check_stream() and must declare drift_errors, the exception "
                    "types your SDK raises on drift, e.g. drift_errors = (MySDKResponseError,)",
                    protocol=_schema({'type': 'array', 'items': {'type': 'string', 'minLength': 1}})),
    _exception_rule("strictify_refusals",
                    protocol=_schema({'type': 'array', 'items': {'type': 'string', 'minLength': 1}, 'description': 'the error types strictify raises to refuse a schema on purpose (declared refusals: counted, judged by RT-10, never crashes); a refusal answer is one too'})),
    _exception_rule("tool_refusals",
                    protocol=_schema({'type': 'array', 'items': {'type': 'string', 'minLength': 1}, 'description': 'the error types define_tool raises to refuse a strict tool whose input schema strict mode cannot express (declared refusals: counted, judged by TL-11)'})),
    _exception_rule("api_errors",
                    protocol=_schema({'type': 'array', 'items': {'type': 'string', 'minLength': 1}, 'description': "what the SDK raises for an error the provider sent (an error body, a stream's error event)"})),
    DeclarationRule("drift_apis", _names,
                    "{owner}.drift_apis must be a collection of API names, e.g. ('openai.chat',), or None; got {value!r}",
                    allowed=_api_ids, when_none=_api_ids, read=_drift_apis,
                    protocol=_schema({'type': ['array', 'null'], 'items': {'type': 'string'}})),
    DeclarationRule("drift_unread", _is_unread,
                    "{owner}.drift_unread must map API names to {{field path: source}}, e.g. "
                    "{{'openai.responses': {{'completed_at': 'sdk/types.py:120 (not declared)'}}}}; got {value!r}",
                    allowed=_api_ids, unknown="{owner}.drift_unread names unknown APIs {unknown}; known: {known}",
                    read=_drift_unread,
                    protocol=_schema({'type': 'object', 'description': "Response fields the SDK does not read, per API id: field path (the kit's syntax: [*] for any element, [type=NAME] for one variant's, events[*].data... in a stream) -> source (the SDK's file:line showing it is not read). DR-2/DR-3 mutate none of them.", 'additionalProperties': {'type': 'object', 'additionalProperties': {'type': 'string', 'minLength': 1}}})),
    DeclarationRule("dialects", lambda value: not isinstance(value, (str, Dialect)) and isinstance(value, Collection),
                    "{owner}.dialects must be a collection of strictconformance.dialects.Dialect objects, "
                    "e.g. dialects = (MY_DIALECT,); got {value!r}",
                    read=lambda value, reading: _own_dialects(reading.owner, value)[0],
                    protocol='a harness strictifies into the shipped dialects only: a dialect of your own is Python data (strictconformance.dialects.Dialect), declared by a Python adapter'),
    DeclarationRule("strictify_dialects", _names,
                    "{owner}.strictify_dialects must be a collection of dialect names, got {value!r}",
                    allowed=lambda reading: tuple(_registry(reading.values["dialects"])),
                    unknown="{owner}.strictify_dialects names unknown dialects {unknown}; known: {known}. "
                            "Declare a dialect of your own as a strictconformance.dialects.Dialect in dialects = (...)",
                    required_by=frozenset({"strictify", "encode", "decode"}),
                    required="{owner} overrides strictify/encode/decode and must declare strictify_dialects, the dialects they "
                             "support, e.g. strictify_dialects = ('openai',)",
                    read=_strictify_dialects,
                    protocol=_schema({'type': 'array', 'items': {'type': 'string'}})),
    DeclarationRule("strictify_context", lambda value: isinstance(value, (str, Mapping)),
                    "{owner}.strictify_context must be a context name or a mapping of dialect names to contexts, got {value!r}; "
                    "e.g. strictify_context = 'output' or {{'google': 'output'}}",
                    read=lambda value, reading: _strictify_contexts(reading.owner, value, reading.values["strictify_dialects"]),
                    protocol=_schema({'description': "What strictify's schemas are for: tool_input (the default) or output, for every dialect or per dialect name", 'oneOf': [{'enum': ['tool_input', 'output']}, {'type': 'object', 'additionalProperties': {'enum': ['tool_input', 'output']}}]})),
    DeclarationRule("tool_layer_traits", _is_traits,
                    "{owner}.tool_layer_traits must be a strictconformance.tools.ToolLayerTraits, got {value!r}",
                    needs=_TOOL_LAYER, when_none=_default_traits, read=_traits,
                    protocol=_TRAITS_PROTOCOL),
    DeclarationRule("reproducer_language", lambda value: isinstance(value, str) and value in REPRODUCER_LANGUAGES,
                    "{owner}.reproducer_language must be one of {choices}, got {value!r}", allowed=REPRODUCER_LANGUAGES,
                    protocol="the handshake's implementation.language (python or node)"),
    DeclarationRule("expected_failures", lambda value: isinstance(value, Mapping) and all(
                        isinstance(key, str) and isinstance(reason, str) for key, reason in value.items()),
                    "{owner}.expected_failures must map rule IDs to reasons, got {value!r}",
                    allowed=lambda reading: tuple(all_rules()),
                    unknown="{owner}.expected_failures names unknown rules {unknown}; known: {known}",
                    read=lambda value, reading: dict(value),
                    protocol=_schema({'type': 'object', 'additionalProperties': {'type': 'string'}})),
    DeclarationRule("parse_fidelity", lambda value: isinstance(value, bool),
                    "{owner}.parse_fidelity must be True or False, not {value!r}", read=_parse_fidelity,
                    protocol=_schema({'type': 'boolean', 'description': 'check_response / check_stream return what the SDK parsed ({text, tool_calls, stop_reason, usage}): DR-7 judges it'})),
)


def handshake_declarations_schema() -> dict[str, Any]:
    """The JSON Schema of a process harness's ``started.declarations``, made from
    :data:`DECLARATION_RULES` (a declaration with a schema is a property; one said another way is
    not) and :class:`ToolLayerTraits`'s fields. ``schemas/started.json`` ships what this returns."""
    properties: dict[str, Any] = {}
    for rule in DECLARATION_RULES:
        if rule.protocol == _TRAITS_PROTOCOL:
            properties[rule.name] = dict(_traits_protocol())
        elif isinstance(rule.protocol, Mapping):
            properties[rule.name] = json.loads(json.dumps(dict(rule.protocol)))
    return {"type": "object", "properties": properties, "additionalProperties": False,
            "description": "The adapter declarations (strictconformance.Adapter class attributes) as JSON; error types by name."}


def _read_attribute(adapter: Adapter, owner: str, name: str, hint: str) -> Any:
    """``getattr(adapter, name)``; an attribute that raises when read (a property, a descriptor)
    is a contract error naming it, not a crash of the run."""
    try:
        return getattr(adapter, name)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise AdapterContractError(f"{owner}.{name}: reading it raised {error_text(exc)}; {hint}") from exc


def read_declarations(adapter: Adapter, adapter_path: str = "") -> Declarations:
    """Validate ``adapter``'s declarations (:data:`DECLARATION_RULES`, in order) against its
    capabilities; raise :class:`AdapterContractError` saying what to write when something is off."""
    kind = type(adapter)
    owner = kind.__qualname__
    capabilities = implemented_capabilities(adapter)
    for method in sorted(capabilities):
        bound = _read_attribute(adapter, owner, method, f"a capability is a plain method: def {method}(self, ...)")
        if not callable(bound):
            raise AdapterContractError(f"{owner}.{method} is not callable")
    declared = {rule.name: _read_attribute(adapter, owner, rule.name, "a declaration is plain data, e.g. a class attribute")
                for rule in DECLARATION_RULES}
    reading = _Reading(owner, capabilities)
    for rule in DECLARATION_RULES:
        reading.values[rule.name] = rule.check(declared[rule.name], reading)
    values = reading.values
    return Declarations(
        adapter=adapter_path or f"{kind.__module__}:{owner}",
        name=values["name"],
        sdk=values["sdk"],
        capabilities=capabilities,
        conventions=values["conventions"],
        strict_defaults=values["strict_defaults"],
        providers=values["providers"],
        allocation_policy=values["allocation_policy"],
        budgets=values["budgets"],
        curated_model_table=values["curated_model_table"],
        openai_api=values["openai_api"],
        rejection_errors=values["rejection_errors"],
        strictify_dialects=values["strictify_dialects"],
        drift_errors=values["drift_errors"],
        drift_apis=values["drift_apis"],
        drift_unread=values["drift_unread"],
        tool_layer_traits=values["tool_layer_traits"],
        expected_failures=values["expected_failures"],
        dialects=values["dialects"],
        dialect_registry=_registry(values["dialects"], values["strictify_context"]),
        strictify_contexts=values["strictify_context"],
        strictify_refusals=values["strictify_refusals"],
        tool_refusals=values["tool_refusals"],
        api_errors=values["api_errors"],
        parse_fidelity=values["parse_fidelity"],
    )


def _strictify_contexts(owner: str, value: object, dialects: tuple[str, ...]) -> dict[str, str]:
    """``Adapter.strictify_context`` as the context of each declared dialect."""
    from strictconformance.dialects.model import CONTEXTS

    example = f"e.g. strictify_context = 'output' or {{'google': 'output'}}; contexts: {', '.join(CONTEXTS)}"
    if isinstance(value, str):
        if value not in CONTEXTS:
            raise AdapterContractError(f"{owner}.strictify_context: unknown context {value!r}; {example}")
        return {name: value for name in dialects}
    if not isinstance(value, Mapping):
        raise AdapterContractError(f"{owner}.strictify_context must be a context name or a mapping of dialect names to contexts, got {value!r}; {example}")
    wrong = {name: context for name, context in value.items() if context not in CONTEXTS}
    if wrong:
        raise AdapterContractError(f"{owner}.strictify_context: unknown contexts {wrong}; {example}")
    undeclared = [name for name in value if name not in dialects]
    if undeclared:
        raise AdapterContractError(f"{owner}.strictify_context names dialects {undeclared} that strictify_dialects does not list: {list(dialects)}")
    return {name: str(value.get(name, "tool_input")) for name in dialects}


def _own_dialects(owner: str, value: object) -> tuple[tuple[Dialect, ...], DialectRegistry]:
    """The adapter's own dialects, validated, and the registry of the shipped ones plus them.

    A name of a shipped dialect is refused, not replaced: the checks and reports of ``openai`` must
    mean the shipped ``openai`` whatever adapter runs (name a variant ``openai-mysdk``)."""
    if isinstance(value, (str, Dialect)) or not isinstance(value, Collection):
        raise AdapterContractError(
            f"{owner}.dialects must be a collection of strictconformance.dialects.Dialect objects, "
            f"e.g. dialects = (MY_DIALECT,); got {value!r}")
    registry = DialectRegistry()
    own: list[Dialect] = []
    for index, dialect in enumerate(value):
        if not isinstance(dialect, Dialect):
            raise AdapterContractError(
                f"{owner}.dialects[{index}] is a {type(dialect).__name__} ({dialect!r:.80}), expected a "
                "strictconformance.dialects.Dialect (build one from catalogue rules: strictconformance.dialects.catalogue.rule)")
        name: Any = dialect.name
        if not isinstance(name, str) or not name or name != name.strip():
            raise AdapterContractError(f"{owner}.dialects[{index}]: a dialect needs a non-empty name without surrounding spaces, got {name!r}")
        if name in SHIPPED:
            same = "it is the shipped dialect itself: list its name in strictify_dialects only" if dialect == SHIPPED[name] else (
                f"give your variant its own name, e.g. {name + '-custom'!r}")
            raise AdapterContractError(f"{owner}.dialects: {name!r} is the name of a shipped dialect; {same}")
        if name in registry:
            raise AdapterContractError(f"{owner}.dialects declares two dialects named {name!r}; each needs its own name")
        for rule in dialect.rules:
            definition = CATALOGUE.get(rule.id)
            if definition is None or definition.kind != rule.kind:
                what = "is not in the catalogue" if definition is None else f"has kind {rule.kind!r}; the catalogue's {rule.id} is {definition.kind!r}"
                raise AdapterContractError(
                    f"{owner}.dialects: dialect {name!r} rule {rule.id} {what}. The SM checks and the report know a rule "
                    "by its catalogue ID: build rules with strictconformance.dialects.catalogue.rule(rule_id, **params)")
        registry = registry.with_dialect(dialect)
        own.append(dialect)
    return tuple(own), registry


def load_adapter(path: str) -> Adapter:
    """Import ``module:attribute`` and return an adapter instance.

    The attribute may be an :class:`Adapter` subclass (instantiated without arguments) or an
    instance. Anything else raises :class:`AdapterContractError` naming the problem.
    """
    module_name, sep, attribute = path.partition(":")
    if not sep or not module_name or not attribute:
        raise AdapterContractError(f"adapter {path!r} must be written module:attribute, e.g. mysdk.conformance:MyAdapter")
    # The user's module and class may fail in any way, sys.exit() included: report it, don't crash.
    # Only KeyboardInterrupt (the user stopping the run) gets through.
    try:
        module = importlib.import_module(module_name)
    except KeyboardInterrupt:
        raise
    except BaseException as exc:
        raise AdapterContractError(f"adapter {path!r}: cannot import module {module_name!r}: {_load_error(exc)}") from exc
    target: Any = module
    for part in attribute.split("."):
        try:
            target = getattr(target, part)
        except AttributeError:
            raise AdapterContractError(f"adapter {path!r}: module {module_name!r} has no attribute {attribute!r}") from None
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise AdapterContractError(f"adapter {path!r}: reading {part!r} raised {_load_error(exc)}") from exc
    if inspect.isclass(target):
        if not issubclass(target, Adapter):
            raise AdapterContractError(f"adapter {path!r} is the class {target.__qualname__}, which does not subclass strictconformance.Adapter")
        try:
            target = target()
        except KeyboardInterrupt:
            raise
        except BaseException as exc:
            raise AdapterContractError(f"adapter {path!r}: {target.__qualname__}() raised {_load_error(exc)}") from exc
    if not isinstance(target, Adapter):
        raise AdapterContractError(f"adapter {path!r} is a {type(target).__name__}, expected a strictconformance.Adapter subclass or instance")
    return target


def _load_error(error: BaseException) -> str:
    text = error_text(error)
    return f"{text} (sys.exit() while loading the adapter)" if isinstance(error, SystemExit) else text

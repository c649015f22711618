"""How checks call the adapter and how they fail.

A check is a test function in ``strictconformance.checks`` decorated with :func:`check`, which
ties it to one rule ID. It reaches the adapter only through the :class:`Harness` (the ``strictconformance_harness``
fixture): every call is recorded in a transcript, guarded by a timeout, checked for junk results
and for mutation of its arguments. A failing check raises :class:`RuleViolation`; a misbehaving
adapter raises :class:`AdapterFault`. Both carry the rule, the counterexample as JSON and the
adapter calls that produced it, which the plugin renders and the report records.
"""

from __future__ import annotations

import contextlib
import copy
import dataclasses
import functools
import json
import math
import os
import queue
import re
import sys
import sysconfig
import threading
import traceback
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, NoReturn, TypeVar

import pytest

from strictconformance._text import int_text
from strictconformance.adapter import (
    CAPABILITIES,
    Adapter,
    Declarations,
    error_text,
    result_problem,
    safe_repr,
)
from strictconformance.checkbudget import CheckBudget, Limits
from strictconformance.cputime import CallBudget, process_cpu_seconds, thread_cpu_reader
from strictconformance.findings import CheckFailure, Finding, NotCovered
from strictconformance.spec import rule_url
from strictconformance.watchdog import Beacon

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup, ExceptionGroup

__all__ = [
    "ACTIVE_HARNESS",
    "AdapterFault",
    "Attempt",
    "CallRecord",
    "ConformanceFailure",
    "Harness",
    "RuleViolation",
    "active_declarations",
    "check",
    "iter_failures",
    "to_jsonable",
]

F = TypeVar("F", bound=Callable[..., Any])
T = TypeVar("T")

# -- JSON rendering of counterexamples ---------------------------------------------------------

#: A rule ID of the specification (a failure of an unknown rule gets no page link).
_RULE_ID = re.compile(r"^[A-Z]+-[0-9]+$")


#: Nodes :func:`to_jsonable` renders at most: a value sharing containers can be exponentially large
#: unfolded (``d = {"a": x, "b": x}`` nested 100 deep).
_JSON_NODES = 200_000


# Ints longer than this many bits are described, not kept: json.dumps could not print them past
# CPython's integer string conversion limit (4300 digits unless the process set another; 0 is none).
_PRINTABLE_INT_BITS = 3 * (getattr(sys, "get_int_max_str_digits", lambda: 0)() or 10**9)


def to_jsonable(value: Any, _depth: int = 0) -> Any:
    """A JSON-serialisable rendering of check inputs and outputs (dataclasses become objects).

    Never raises, whatever an adapter returned: a part that cannot be read (a raising ``__repr__``,
    property or mapping) renders as ``<TypeName: ... failed: ...>``, a container inside itself as
    ``<cycle: TypeName>``, anything past 200 levels or 200,000 nodes as ``...``. The result holds
    only exact ``dict``, ``list``, ``str``, ``int``, ``float``, ``bool`` and ``None``.
    """
    budget = [_JSON_NODES]
    on_path: set[int] = set()

    def convert(node: Any, depth: int) -> Any:
        if depth > 200:
            return "..."
        if isinstance(node, int) and not isinstance(node, bool) and abs(int.__int__(node)).bit_length() > _PRINTABLE_INT_BITS:
            return int_text(int.__int__(node))  # JSON could not print it (CPython's int string limit)
        if node is None or type(node) in (bool, str, int):
            return node
        if isinstance(node, (str, int, float)):  # floats, and subclasses (enums...) as their plain value
            plain = str.__str__(node) if isinstance(node, str) else int.__int__(node) if isinstance(node, int) else float.__float__(node)
            return plain if not isinstance(plain, float) or math.isfinite(plain) else float.__repr__(plain)
        budget[0] -= 1
        if budget[0] < 0:
            return "..."
        if id(node) in on_path:
            return f"<cycle: {type(node).__name__}>"
        on_path.add(id(node))
        try:
            if dataclasses.is_dataclass(node) and not isinstance(node, type):
                return {f.name: convert(getattr(node, f.name), depth + 1) for f in dataclasses.fields(node)}
            if isinstance(node, Mapping):
                return {_key_text(key): convert(item, depth + 1) for key, item in node.items()}
            if isinstance(node, (frozenset, set)):
                return sorted((convert(item, depth + 1) for item in node), key=repr)
            if isinstance(node, (list, tuple)):
                return [convert(item, depth + 1) for item in node]
            if isinstance(node, type):
                return f"{node.__module__}.{node.__qualname__}"
            return safe_repr(node)
        except KeyboardInterrupt:
            raise
        except RecursionError:
            return "..."
        except BaseException as exc:
            return f"<{type(node).__name__}: conversion failed: {error_text(exc)}>"
        finally:
            on_path.discard(id(node))

    return convert(value, _depth)


def _key_text(key: Any) -> str:
    if isinstance(key, str):
        return str.__str__(key)
    if key is None or type(key) in (int, float, bool):
        return str(key)
    return safe_repr(key)


def _short_repr(value: Any, limit: int = 2000) -> str:
    try:
        text = repr(value)
    except RecursionError:  # nested too deep for repr: JSON of its top 80 levels
        text = json.dumps(to_jsonable(value, _depth=120), ensure_ascii=False)
    except KeyboardInterrupt:
        raise
    except BaseException:  # an adapter's object with a broken __repr__
        text = safe_repr(value)
    return text if len(text) <= limit else text[: limit - 20] + f"... ({len(text)} chars)"


# -- Failures ----------------------------------------------------------------------------------


@dataclass
class CallRecord:
    """One adapter call: arguments, and what came back (result or exception)."""

    method: str
    args: tuple[Any, ...]
    result: Any = None
    error: BaseException | None = None
    done: bool = False

    def render(self) -> str:
        arguments = ", ".join(_short_repr(arg) for arg in self.args)
        call = f"adapter.{self.method}({arguments})"
        if self.error is not None:
            return f"{call}\n  raised {error_text(self.error)}"
        if not self.done:
            return f"{call}\n  did not return"
        return f"{call}\n  returned {_short_repr(self.result)}"

    def as_json(self) -> dict[str, Any]:
        record: dict[str, Any] = {"method": self.method, "args": to_jsonable(self.args), "call": self.render().split("\n")[0]}
        if self.error is not None:
            record["raised"] = error_text(self.error)
        elif self.done:
            record["returned"] = to_jsonable(self.result)
        return record


class ConformanceFailure(CheckFailure):
    """Base of the failures a check raises; carries everything its :class:`Finding` needs."""

    kind = "violation"

    def __init__(self, message: str, *, rule_id: str | None = None, where: str | None = None, detail: str | None = None) -> None:
        super().__init__(message)
        self.message = message
        self.rule_id = rule_id
        self.where = where  # JSON pointer or response path at fault
        self.detail = detail  # what tells this bug from others of the rule (keyword, node shape, exception type)
        self.drawn: Any = None  # the check's inputs; rendered as JSON only when reported
        self.calls: list[CallRecord] = []
        # The adapter's reproducer of the last call (Harness.add_reproducer), or why there is none.
        self.reproducer: str | None = None
        self.reproducer_language: str | None = None
        self.reproducer_problem: str | None = None
        #: a crash's origin (:func:`crash_origin`): where the implementation raised
        self.origin: dict[str, Any] | None = None
        #: other defects the same example showed (RT-1: the other rules its strict schema breaks);
        #: the search shrinks this failure's defect, the harness remembers those (``Harness.observed``)
        self.also: list[ConformanceFailure] = []
        #: the fixed case of a loop (``Harness.each_case``) that met it, when its key names the case:
        #: the search shrinks each case's finding, not one of them per defect (``search_key_of``)
        self.case: str | None = None
        #: reported from an example that showed it beside another failure's defect (not shrunk on its own)
        self.seen_beside = False

    @property
    def key(self) -> str:
        """The finding's grouping key: rule, kind and what is at fault."""
        head = f"{self.rule_id or '?'} {self.kind}"
        return f"{head}: {self.detail}" if self.detail else head

    def finding(self, *, replay: str = "", nodeid: str = "", text: str = "") -> Finding:
        """This failure as the report's :class:`Finding`."""
        return Finding(rule=self.rule_id or "?", kind=self.kind, key=self.key, message=self.message, where=self.where,
                       counterexample=self.counterexample, calls=tuple(record.as_json() for record in self.calls[-3:]),
                       replay=replay, nodeid=nodeid, text=text, reproducer=self.reproducer,
                       reproducer_language=self.reproducer_language if self.reproducer is not None else None,
                       reproducer_error=self.reproducer_problem if self.reproducer is None else None,
                       origin=self.origin)

    @property
    def counterexample(self) -> Any:
        return None if self.drawn is None else to_jsonable(self.drawn)

    def render(self, replay: str | None = None, *, shown: Any = None) -> str:
        """The failure block of the terminal; ``shown`` replaces a counterexample too big to print."""
        where = f" (at {self.where})" if self.where and self.where not in self.message else ""
        lines = [f"{self.rule_id or '?'} {self.kind}: {self.message}{where}"]
        if self.detail:
            lines.append(f"finding: {self.key}")
        counterexample = shown if shown is not None else self.counterexample
        if counterexample is not None:
            lines += ["", "counterexample (JSON):", json.dumps(counterexample, indent=2, sort_keys=True, ensure_ascii=False)]
        if self.calls:
            lines += ["", "adapter calls (last is the one that failed):"]
            lines += [record.render() for record in self.calls[-3:]]
        if self.reproducer is not None:
            lines += ["", f"reproducer ({self.reproducer_language}, the SDK alone):", self.reproducer]
        elif self.reproducer_problem is not None:
            lines += ["", f"reproducer unavailable: {self.reproducer_problem}"]
        if replay:
            lines += ["", f"replay: {replay}"]
        if self.rule_id and _RULE_ID.match(self.rule_id):
            lines.append(f"rule: {rule_url(self.rule_id)}")
        return "\n".join(lines)

    def as_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "kind": self.kind,
            "message": self.message,
            "counterexample": self.counterexample,
            "calls": [record.as_json() for record in self.calls[-3:]],
            "reproducer": self.reproducer,
        }
        if self.reproducer is not None:
            data["reproducer_language"] = self.reproducer_language
        elif self.reproducer_problem is not None:
            data["reproducer_error"] = self.reproducer_problem
        return data


class RuleViolation(ConformanceFailure):
    """The implementation under test breaks the rule."""

    kind = "violation"


class UnnecessaryRefusal(ConformanceFailure):
    """The implementation refused an input (a declared refusal) that the rule says it must accept."""

    kind = "refusal"


class AdapterFault(ConformanceFailure):
    """The adapter misbehaved: hung, returned junk, stopped or skipped the test from inside. A
    ``crash`` when it raised an exception it did not declare (``detail`` names its type)."""

    kind = "fault"

    def __init__(self, method: str, problem: str, *, rule_id: str | None = None, crash: BaseException | None = None) -> None:
        if isinstance(crash, ImportError):
            # the environment lacks a package the SDK needs: one adapter fault, never the SDK's findings
            problem += " (the environment the adapter runs in lacks a module the SDK needs: install it and run again)"
            super().__init__(f"adapter.{method}() {problem}", rule_id=rule_id,
                             detail=f"{method}() cannot import {getattr(crash, 'name', None) or type(crash).__qualname__}")
            self.method, self.problem, self.origin = method, problem, None
            self.__context__ = crash
            return
        super().__init__(f"adapter.{method}() {problem}", rule_id=rule_id,
                         detail=f"{type(crash).__qualname__} from {method}()" if crash is not None else f"{method}() {_fault_detail(problem)}")
        self.method = method
        self.problem = problem
        if crash is not None:
            self.kind = "crash"
            self.origin = crash_origin(crash)
            # Hypothesis tells failures apart by where they were raised, seeing through __context__:
            # two crashes raised by two lines of the SDK are then two failures, each shrunk on its own
            self.__context__ = crash


#: Folders whose frames are not the implementation's: the interpreter's standard library and the kit.
_STDLIB = tuple(str(Path(path).resolve()) + os.sep for path in {sysconfig.get_paths()["stdlib"], sysconfig.get_paths()["platstdlib"]})
#: The folders installed packages live in (an SDK under test): under the standard library's own
#: folder in a Python that is not a venv (pyenv, python.org, conda), where its prefix alone made
#: every SDK frame "the standard library's" and a crash's origin the harness that called the SDK
_PACKAGE_FOLDERS = (f"{os.sep}site-packages{os.sep}", f"{os.sep}dist-packages{os.sep}")
#: Helpers whose frames raise on behalf of their caller (``assert_never``): the caller is the origin.
_RAISING_HELPERS = ("typing_extensions.py", "typing.py")


def crash_origin(error: BaseException) -> dict[str, Any] | None:
    """Where the implementation raised ``error``: the innermost frame of its traceback that is
    neither the standard library's nor the kit's (nor a raising helper's), as ``{"file", "function",
    "line"}`` with the file relative to its package folder (site-packages, node_modules). A process
    harness reports it with its error answer. Two crashes of one exception type from different
    functions are two defects; the line is shown, not part of the identity (an edit moves it)."""
    reported = getattr(error, "origin", None)
    if isinstance(reported, dict) and isinstance(reported.get("file"), str):
        file = reported["file"]
        if file.startswith("file://"):
            from urllib.parse import unquote

            file = unquote(file[len("file://"):])
        file = _package_relative(file) if os.path.isabs(file) else file
        return {"file": file, "function": reported.get("function"), "line": reported.get("line")}
    frames = traceback.extract_tb(error.__traceback__) if error.__traceback__ is not None else []
    for frame in reversed(frames):
        filename = frame.filename
        try:
            resolved = str(Path(filename).resolve())
        except (OSError, ValueError):
            resolved = filename
        if _not_implementation(resolved) or filename.startswith("<") or Path(filename).name in _RAISING_HELPERS:
            continue
        return {"file": _package_relative(resolved), "function": frame.name, "line": frame.lineno}
    return None


#: The kit's own folder (``conformance/`` in a checkout, ``strictconformance/`` installed): a file
#: under it (a shipped process harness) is named from ``strictconformance/`` wherever it is installed.
_KIT_DIR = str(Path(__file__).resolve().parent) + os.sep


def _not_implementation(path: str) -> bool:
    """Whether a frame in ``path`` is the kit's or the standard library's, never code under test."""
    if path.startswith(_KIT_DIR):
        return True
    return path.startswith(_STDLIB) and not any(folder in path for folder in _PACKAGE_FOLDERS)


def _package_relative(path: str) -> str:
    """``path`` as the same on every machine: from its package folder (site-packages, node_modules,
    the kit's own), else relative to the working folder, else as it is. A defect's identity holds
    it: a harness reporting absolute paths gave one crash two ids on two checkouts."""
    for marker in (*_PACKAGE_FOLDERS, f"{os.sep}node_modules{os.sep}"):
        if marker in path:
            return path.rpartition(marker)[2].replace(os.sep, "/")
    if path.startswith(_KIT_DIR):
        return "strictconformance/" + path[len(_KIT_DIR):].replace(os.sep, "/")
    try:
        return str(Path(path).relative_to(Path.cwd())).replace(os.sep, "/")
    except ValueError:
        return path.replace(os.sep, "/")


def _fault_detail(problem: str) -> str:
    """The stable part of a fault's problem (without the values it shows), for its key."""
    for stable in ("did not return", "mutated argument", "raised", "returned"):
        if problem.startswith(stable):
            return stable if stable != "raised" else problem.split(":", 1)[0]
    return problem.split(":", 1)[0][:80]


#: Adapter methods whose every call gets its own copy of its arguments (see ``_guarded_call``).
_ISOLATED = frozenset({"strictify", "encode", "decode"})


def _test_control_types() -> tuple[type[BaseException], ...]:
    from hypothesis.errors import UnsatisfiedAssumption

    return (pytest.skip.Exception, pytest.exit.Exception, UnsatisfiedAssumption)


#: What an adapter must not raise: pytest.skip/exit and hypothesis.assume(False) end or skip the
#: check instead of answering it (a refusal or a crash would be judged; these would hide the call).
_TEST_CONTROL = _test_control_types()
_TEST_CONTROL_WHY = ("pytest.skip()/pytest.exit()/hypothesis.assume() inside the adapter would skip or stop the check "
                     "instead of answering it; return, or raise the SDK's own exception")


def _key_orders(value: Any) -> list[tuple[Any, ...]]:
    """The key order of every dict in ``value`` (a reordering is a mutation too)."""
    orders: list[tuple[Any, ...]] = []
    stack = [value]
    while stack and len(orders) < 100_000:  # a bound, so a cyclic argument cannot loop
        item = stack.pop()
        if isinstance(item, dict):
            orders.append(tuple(item))
            stack.extend(item.values())
        elif isinstance(item, (list, tuple)):
            stack.extend(item)
    return orders


class _CallTimeout(BaseException):
    """Internal: an adapter call outlived the timeout (a BaseException so adapters can't swallow it)."""


#: The run's harness, in the pytest config's stash while the suite is active (the plugin puts it
#: there when it activates the suite, in each xdist worker too).
ACTIVE_HARNESS = pytest.StashKey["Harness"]()


def active_declarations(config: pytest.Config) -> Declarations | None:
    """The validated declarations of this run's adapter, or None when the suite is not active.
    For the checks' collection hooks, which run before any fixture gives them the harness."""
    harness = config.stash.get(ACTIVE_HARNESS, None)
    return None if harness is None else harness.declarations


def iter_failures(error: BaseException) -> Iterator[ConformanceFailure]:
    """The conformance failures in ``error``, looking inside exception groups."""
    if isinstance(error, ConformanceFailure):
        yield error
    for inner in getattr(error, "exceptions", ()) or ():
        yield from iter_failures(inner)


def _snapshot(value: Any, depth: int = 0) -> Any:
    """A deep copy of the JSON-like parts of ``value`` (dicts, lists, tuples, frozen dataclasses of
    them), sharing everything else: what the suite passes an adapter, so it can tell mutation.
    Faster than ``copy.deepcopy``, which matters when Hypothesis shrinks. Recursive while shallow
    (the fast common case), iterative below depth 100, so a payload nested thousands deep (DR-6
    sends some) copies without ``RecursionError``."""
    if depth >= 100:
        return _snapshot_deep(value)
    if isinstance(value, dict):
        return {key: _snapshot(item, depth + 1) for key, item in value.items()}
    if isinstance(value, list):
        return [_snapshot(item, depth + 1) for item in value]
    if type(value) is tuple:
        return tuple(_snapshot(item, depth + 1) for item in value)
    if isinstance(value, tuple) or (hasattr(value, "__dataclass_params__") and not isinstance(value, type)):
        return _snapshot_deep(value)
    return value


#: Values a snapshot shares as they are (immutable, and never a frozen dataclass)
_ATOMS = frozenset({str, int, float, bool, type(None), bytes})


#: Nested hand-overs between the two walks of a snapshot (below) before the bottom-up one takes the
#: rest alone: each is a Python call, and junk can nest tuples in lists thousands deep
_HANDOVERS = 50
_FINISHED: Any = object()


def _snapshot_deep(value: Any, active: set[int] | None = None, handovers: int = 0) -> Any:
    """``_snapshot`` with an explicit stack; a container met again inside itself is shared, not
    copied, so a cycle cannot loop. Dicts and lists are copied top-down: each copy is made when its
    original is met, with its scalars set at once (DR-6's payloads nested 10,000 deep are nearly
    all dicts: building each copy after its children cost more than the SDK's parse of them).
    Tuples and frozen dataclasses, which cannot be filled in later, are built bottom-up."""
    if value.__class__ in _ATOMS:
        return value
    active = set() if active is None else active
    if handovers >= _HANDOVERS or not isinstance(value, (dict, list)):
        return _snapshot_bottom_up(value, active, handovers)
    holder: list[Any] = [None]
    todo: list[tuple[Any, Any, Any]] = [(value, holder, 0)]
    while todo:
        node, into, slot = todo.pop()
        if into is _FINISHED:  # every child of the container with id ``slot`` is copied
            active.discard(slot)
            continue
        if node.__class__ in _ATOMS or id(node) in active:
            into[slot] = node
            continue
        if not isinstance(node, (dict, list)):
            into[slot] = _snapshot_bottom_up(node, active, handovers + 1)
            continue
        active.add(id(node))
        # popped after the children pushed above it; holds ``node``, so its id is not reused while
        # it is in ``active`` (a mapping whose __getitem__ makes a new object each time)
        todo.append((node, _FINISHED, id(node)))
        made: Any
        if isinstance(node, dict):
            made = into[slot] = {}
            pairs = node.items() if node.__class__ is dict else [(key, node[key]) for key in list(node)]
            for key, item in pairs:
                made[key] = item
                if item.__class__ not in _ATOMS:
                    todo.append((item, made, key))
        else:
            made = into[slot] = list(node)
            todo.extend((item, made, index) for index, item in enumerate(made) if item.__class__ not in _ATOMS)
    return holder[0]


def _snapshot_bottom_up(value: Any, active: set[int], handovers: int) -> Any:
    """The snapshot of ``value`` built children first (a tuple or frozen dataclass is made from its
    finished children); a dict or list inside is handed to the top-down walk, up to
    :data:`_HANDOVERS` nested hand-overs."""
    done: list[Any] = []  # finished copies, children before their parent
    todo: list[tuple[Any, Callable[[list[Any]], Any] | None, int]] = [(value, None, 0)]
    while todo:
        node, assemble, count = todo.pop()
        if assemble is not None:  # every child of ``node`` is finished: build its copy
            children = done[len(done) - count:]
            del done[len(done) - count:]
            done.append(assemble(children))
            active.discard(id(node))
            continue
        parts: list[Any]
        build: Callable[[list[Any]], Any]
        if node.__class__ in _ATOMS:  # most nodes: shared as they are, without the lookups below
            done.append(node)
            continue
        if id(node) in active:
            done.append(node)
            continue
        if isinstance(node, (dict, list)) and node is not value and handovers < _HANDOVERS:
            done.append(_snapshot_deep(node, active, handovers + 1))
            continue
        if isinstance(node, dict):
            keys = list(node)
            parts = [node[key] for key in keys]
            build = functools.partial(_rebuild_dict, keys)
        elif isinstance(node, list):
            parts, build = list(node), list
        elif isinstance(node, tuple):
            parts = list(node)
            make = getattr(type(node), "_make", None)  # a namedtuple stays one
            build = tuple if make is None else make
        else:
            params: Any = getattr(node, "__dataclass_params__", None)
            if params is None or not params.frozen or isinstance(node, type):
                done.append(node)
                continue
            names = [f.name for f in dataclasses.fields(node) if f.init]
            parts = [getattr(node, name) for name in names]
            build = functools.partial(_rebuild_dataclass, node, names)
        active.add(id(node))
        todo.append((node, build, len(parts)))
        todo.extend((part, None, 0) for part in reversed(parts))
    return done[0]


def _equal(a: Any, b: Any) -> bool:
    """``a == b`` that survives nesting too deep for ``==`` (compared with an explicit stack) and
    treats a value that cannot be compared as changed."""
    try:
        return bool(a == b)
    except RecursionError:
        pass
    except Exception:  # an argument the adapter made incomparable has changed
        return False
    pairs = [(a, b)]
    while pairs:
        x, y = pairs.pop()
        if isinstance(x, dict) and isinstance(y, dict):
            if x.keys() != y.keys():
                return False
            pairs.extend((x[key], y[key]) for key in x)
        elif isinstance(x, (list, tuple)) and isinstance(y, (list, tuple)):
            if type(x) is not type(y) or len(x) != len(y):
                return False
            pairs.extend(zip(x, y, strict=True))
        elif dataclasses.is_dataclass(x) and not isinstance(x, type):
            if type(x) is not type(y):
                return False
            pairs.extend((getattr(x, f.name), getattr(y, f.name)) for f in dataclasses.fields(x) if f.compare)
        else:
            try:
                if x != y:
                    return False
            except Exception:
                return False
    return True


def _rebuild_dict(keys: list[Any], values: list[Any]) -> dict[Any, Any]:
    return dict(zip(keys, values, strict=True))


def _rebuild_dataclass(original: Any, names: list[str], values: list[Any]) -> Any:
    return dataclasses.replace(original, **dict(zip(names, values, strict=True)))


#: Refused inputs, with none answered, after which a check is skipped as not covered (before
#: Hypothesis's filter_too_much health check fails it at 50).
_REFUSALS_BEFORE_SKIP = 10


#: Distinct refusals kept with an example schema, per check.
_REFUSAL_EXAMPLES = 20


def _message_shape(text: str) -> str:
    """An exception's message with its values taken out: the same refusal met on two schemas is one entry."""
    from strictconformance.defects import message_shape

    return message_shape(text)[:200]


def _small(schema: Any) -> Any:
    """``schema`` as JSON when small enough to show in a report, else a summary of its shape."""
    from strictconformance.findings import summarise

    try:
        return summarise(to_jsonable(schema))
    except Exception: # an example is a courtesy: never fail the count for it
        return None


def _is_refusal(error: BaseException) -> bool:
    """An adapter's refusal of one input: :func:`strictconformance.findings.refusal_type` (what
    ``strictconformance.process.ProcessAdapter`` raises for a harness's ``refusal`` answer). A plain
    UnsatisfiedAssumption (``hypothesis.assume()`` inside the adapter) is not one: it is a fault."""
    from strictconformance.findings import refusal_type

    return isinstance(error, refusal_type())


class _KeptOpen:
    """What an adapter call sees as ``sys.stdout`` (``stderr``, ``stdin``): the stream itself, except
    that ``close()`` is only noted. A closed stream cannot be reopened, and pytest's capture and the
    report write to these ones after the call."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream
        self.close_called = False

    def close(self) -> None:
        self.close_called = True

    @property
    def closed(self) -> bool:
        return self.close_called or bool(getattr(self._stream, "closed", False))

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)

    def __iter__(self) -> Iterator[Any]:
        return iter(self._stream)

    def __enter__(self) -> Any:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()


#: The interpreter's own sys.setrecursionlimit, whatever an adapter call is shown in its place.
_SET_RECURSION_LIMIT = sys.setrecursionlimit


class _InterpreterState:
    """The process-wide settings an adapter call must leave as it found them, taken before the call
    (the standard streams are handed to the call behind :class:`_KeptOpen`). The checks, Hypothesis
    and pytest share them with the adapter: a recursion limit of 60, a closed ``sys.stdout`` or
    another working directory would break the run, not the check. :meth:`restore` puts each back
    and says what the call changed, so the damage is a fault of that check."""

    _STREAMS = ("stdin", "stdout", "stderr")

    def __init__(self) -> None:
        self.recursion_limit = sys.getrecursionlimit()
        self.switch_interval = sys.getswitchinterval()
        self.int_max_str_digits = getattr(sys, "get_int_max_str_digits", lambda: None)()
        self.streams = {name: getattr(sys, name) for name in self._STREAMS}
        self.open_streams = {name for name, stream in self.streams.items() if not getattr(stream, "closed", False)}
        self.guards = {name: _KeptOpen(stream) for name, stream in self.streams.items() if stream is not None}
        for name, guard in self.guards.items():
            setattr(sys, name, guard)
        try:
            self.cwd: str | None = os.getcwd()
        except OSError:  # the working directory is gone already: nothing to restore
            self.cwd = None
        self.lowered_to: int | None = None
        sys.setrecursionlimit = self._set_recursion_limit

    def _set_recursion_limit(self, limit: int) -> None:
        """``sys.setrecursionlimit`` as the call sees it: a lower limit is noted, not set. The limit
        is the whole process's, and the thread waiting for the call runs deep in pytest and
        Hypothesis: under a limit of 60 it could not take one step, not even to end the call."""
        if type(limit) is int and 1 <= limit < self.recursion_limit:
            self.lowered_to = limit
            return
        _SET_RECURSION_LIMIT(limit)

    def release(self) -> None:
        """Give ``sys.setrecursionlimit`` back (a call given up on as hung, whose state is not restored)."""
        if sys.setrecursionlimit == self._set_recursion_limit:
            sys.setrecursionlimit = _SET_RECURSION_LIMIT

    def restore(self) -> list[str]:
        """Put back what changed since this state was taken; what changed, one phrase each."""
        changed: list[str] = []
        sys.setrecursionlimit = _SET_RECURSION_LIMIT
        if self.lowered_to is not None:
            changed.append(f"sys.setrecursionlimit({self.lowered_to}) (it was {self.recursion_limit}; the suite kept that)")
        limit = sys.getrecursionlimit()
        if limit != self.recursion_limit:
            sys.setrecursionlimit(self.recursion_limit)  # first: every other line below calls functions
            changed.append(f"sys.setrecursionlimit({limit}) (it was {self.recursion_limit})")
        interval = sys.getswitchinterval()
        if interval != self.switch_interval:
            sys.setswitchinterval(self.switch_interval)
            changed.append(f"sys.setswitchinterval({interval:g}) (it was {self.switch_interval:g})")
        digits = getattr(sys, "get_int_max_str_digits", lambda: None)()
        if digits != self.int_max_str_digits and self.int_max_str_digits is not None:
            sys.set_int_max_str_digits(self.int_max_str_digits)
            changed.append(f"sys.set_int_max_str_digits({digits}) (it was {self.int_max_str_digits})")
        for name, stream in self.streams.items():
            current, guard = getattr(sys, name), self.guards.get(name)
            setattr(sys, name, stream)
            if current is not stream and current is not guard:
                changed.append(f"replaced sys.{name}")
            elif (guard is not None and guard.close_called) or (name in self.open_streams and getattr(stream, "closed", False)):
                changed.append(f"closed sys.{name} (the suite kept it open)")
        try:
            cwd: str | None = os.getcwd()
        except OSError:
            cwd = None
        if self.cwd is not None and cwd != self.cwd:
            with contextlib.suppress(OSError):
                os.chdir(self.cwd)
            changed.append(f"os.chdir({cwd!r}) (it was {self.cwd!r})" if cwd is not None else "removed the working directory")
        return changed


def _state_fault_problem(changed: list[str]) -> str:
    return ("changed the state of the whole Python process: " + "; ".join(changed) + ". The suite restored it after "
            "the call; an adapter call must leave process-wide settings as it found them (they are the test run's too)")


class _Worker:
    """One daemon thread that runs adapter calls, so a hung call can be abandoned."""

    def __init__(self) -> None:
        self._jobs: queue.SimpleQueue[tuple[Callable[..., Any], tuple[Any, ...], queue.SimpleQueue[tuple[bool, Any]]] | None] = queue.SimpleQueue()
        self._cpu: Callable[[], float] | None = None
        #: what the last call changed in the process's state (restored by then)
        self.changed: list[str] = []
        #: set when the caller gave up on a hung call: its late end must not reset what ran since
        self.abandoned = False
        started = threading.Event()
        threading.Thread(target=self._serve, args=(started,), name="sc-adapter-call", daemon=True).start()
        started.wait(5)

    def _serve(self, started: threading.Event) -> None:
        self._cpu = thread_cpu_reader()  # this thread's CPU clock, read by the waiting one
        started.set()
        while (job := self._jobs.get()) is not None:
            function, args, reply = job
            state = _InterpreterState()
            try:
                outcome: tuple[bool, Any] = (True, function(*args))
            except BaseException as exc:  # handed back to the caller's thread as is
                outcome = (False, exc)
            # restored here, before the waiting thread runs on (deep in pytest, under a limit of 60)
            if self.abandoned:
                state.release()
            self.changed = [] if self.abandoned else state.restore()
            reply.put(outcome)

    def cpu_seconds(self) -> float:
        """CPU seconds this worker's thread has used (0 where the platform cannot tell)."""
        return self._cpu() if self._cpu is not None else 0.0

    def run(self, function: Callable[..., Any], args: tuple[Any, ...], timeout: float) -> Any:
        reply: queue.SimpleQueue[tuple[bool, Any]] = queue.SimpleQueue()
        budget = CallBudget(timeout, self._cpu)  # CPU time, not a busy machine's clock, decides
        self.changed = []
        self._jobs.put((function, args, reply))
        while True:
            try:
                ok, value = reply.get(timeout=budget.next_check())
                break
            except queue.Empty:
                if budget.expired():
                    self.abandoned = True
                    raise _CallTimeout() from None
        if ok:
            return value
        raise value

    def stop(self) -> None:
        self._jobs.put(None)


# -- The harness ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class _Hang:
    """An adapter call that timed out: its fault (the check's input is filled in when the fault
    passes through :func:`check`) and the check that made it."""

    fault: AdapterFault
    nodeid: str


@dataclass(frozen=True)
class Attempt:
    """The outcome of :meth:`Harness.attempt`: a value, or one of the allowed errors."""

    value: Any = None
    error: BaseException | None = None


@dataclass(repr=False)
class Harness:
    """The ``strictconformance_harness`` fixture: the adapter, its declarations, and guarded calls into it."""

    adapter: Adapter
    declarations: Declarations
    call_timeout: float = 10.0
    transcript: list[CallRecord] = field(default_factory=list)
    examples: dict[str, int] = field(default_factory=dict)
    #: per check: what strictify gave its calls, {"outputs": n, "refused": {type: n}, "crashed": {type: n}}
    strictify_outcomes: dict[str, dict[str, Any]] = field(default_factory=dict)
    #: per check: the tool definitions the layer refused with a declared refusal (``Adapter.tool_refusals``),
    #: {"count": n, "refusals": {"Type: message": n}}; the report notes them beside the check's outcome
    tool_refusal_counts: dict[str, dict[str, Any]] = field(default_factory=dict)
    current_nodeid: str = ""
    current_rule: str | None = None
    notes: dict[str, Any] = field(default_factory=dict)
    _hung: dict[str, _Hang] = field(default_factory=dict)  # method -> its call that timed out
    _worker: _Worker | None = None
    #: Why the adapter refused an input of the current example (None: it refused none).
    refused: str | None = None
    #: While set (:meth:`judging_refusals`), a process harness's refusal is an answer the check
    #: judges (RT-10), not an example to discard.
    judge_refusals: bool = False
    _refusals: dict[str, int] = field(default_factory=dict)  # check -> inputs the adapter refused
    #: check -> the reason of the last input the adapter refused (a check Hypothesis gave up on because
    #: every example was refused is not covered, with it)
    refusal_reasons: dict[str, str] = field(default_factory=dict)
    _answered: dict[str, bool] = field(default_factory=dict)  # check -> an adapter call returned
    #: Which call this process is in, for the run-level watchdog of the supervising process.
    beacon: Beacon | None = None
    #: per check: what a draw that never returned was drawing from (an adapter's output, say a
    #: strict schema with no value): when Hypothesis then gives up, the check is not covered, not an error
    unfinished_draws: dict[str, str] = field(default_factory=dict)
    #: what the last adapter call changed in the process's state (restored after it)
    state_changes: list[str] = field(default_factory=list)
    #: What each check may spend (examples, calls, CPU seconds; the profile's, or --sc-check-budget)
    check_limits: Limits = field(default_factory=Limits)
    #: The current check's spending against ``check_limits``; kept per check once it ends
    budget: CheckBudget | None = None
    budgets: dict[str, CheckBudget] = field(default_factory=dict)
    #: The current check's defects seen beside the one a failing example's search shrank, by
    #: identity (:meth:`observe`, :meth:`seen_beside`)
    observed: dict[str, ConformanceFailure] = field(default_factory=dict)
    #: CPU seconds the adapter's calls used so far (their thread here, or a harness process)
    adapter_cpu: float = 0.0
    #: strictify's answers in this session, by (dialect, input as JSON text): each check of a case
    #: judges the output of one call (see ``checks._strict.StrictImplementation.strictify``)
    strictify_memo: dict[tuple[str, str], Any] = field(default_factory=dict)
    #: what strictify raised in this session, by the same key: an input it refused is refused
    #: again without a call (a trap loop met one refused trap in every example, 14,711 calls)
    strictify_refusal_memo: dict[tuple[str, str], BaseException] = field(default_factory=dict)
    #: the dialect validator's verdicts in this session, by (dialect, strict schema as JSON text)
    verdict_memo: dict[tuple[str, str], Any] = field(default_factory=dict)
    #: value strategies of strict schemas in this session, by the schema's JSON text: a strategy
    #: computes its shape once, not in every example that draws from the same schema
    strategy_memo: dict[str, Any] = field(default_factory=dict)
    #: RT-5's values constructed near a strict schema's witness that passed in this session, by
    #: (dialect, schema, strict schema) as JSON text: the same values are not judged again
    constructed_judged: set[tuple[str, str, str]] = field(default_factory=set)

    def __repr__(self) -> str:  # shown in Hypothesis's falsifying examples: keep it short
        return f"<strictconformance harness: {self.declarations.adapter}>"

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:  # Hypothesis's pretty-printer
        printer.text(repr(self))

    # Lifecycle, driven by the plugin and by @check.
    def begin_item(self, nodeid: str, rule_id: str | None) -> None:
        self.current_nodeid, self.current_rule = nodeid, rule_id
        self.examples.setdefault(nodeid, 0)
        self.transcript = []
        self.budget = self.budgets[nodeid] = CheckBudget(self.check_limits, self._check_cpu_reader())
        self.observed = {}

    def end_item(self) -> None:
        """The current check ended: its CPU figure is fixed."""
        if self.budget is not None:
            self.budget.finish()
            self.budget = None

    def _check_cpu_reader(self) -> Callable[[], float]:
        """CPU seconds used by the check from now: its own thread's and its adapter calls'."""
        own = thread_cpu_reader()
        if own is None:  # no per-thread clock: the process's, which counts the adapter's thread too
            import time

            start = time.process_time()
            return lambda: time.process_time() - start
        own_start, adapter_start = own(), self.adapter_cpu
        return lambda: (own() - own_start) + (self.adapter_cpu - adapter_start)

    def begin_example(self) -> None:
        self.examples[self.current_nodeid] = self.examples.get(self.current_nodeid, 0) + 1
        if self.budget is not None:
            self.budget.examples += 1
        self.transcript = []
        self.notes = {}
        self.refused = None

    @contextlib.contextmanager
    def drawing_from(self, what: str) -> Iterator[None]:
        """Mark a draw from ``what`` (an adapter's output): if the draw never returns (Hypothesis
        found no value and discarded the example), the check remembers it, so a check whose every
        example ended so reads as not covered ("no value of <what> could be generated")."""
        finished = False
        try:
            yield
            finished = True
        finally:
            if not finished:
                self.unfinished_draws[self.current_nodeid] = what

    def count_strictify(self, error: BaseException | None = None, *, declared: bool = False, dialect: str | None = None,
                        invalid_input: bool = False, unchanged: bool = False, schema: Any = None) -> None:
        """Count one strictify call of the current check (in ``dialect``): an output (``error``
        None), a declared refusal, an exception on input the reference refuses too
        (``invalid_input``: not a usable schema, not judged), or a crash (an undeclared exception
        on a usable schema); the report says how many of each. ``unchanged``: the output equals
        the input (an SDK that returns every input unchanged is one defect, not one per rule)."""
        counts = self.strictify_outcomes.setdefault(self.current_nodeid, {"outputs": 0, "refused": {}, "crashed": {}})
        if dialect is not None:
            counts["dialect"] = dialect
        if error is None:
            counts["outputs"] += 1
            counts["unchanged"] = counts.get("unchanged", 0) + (1 if unchanged else 0)
        else:
            bucket = counts["refused"] if declared else counts.setdefault("invalid_input", {}) if invalid_input else counts["crashed"]
            name = type(error).__qualname__
            bucket[name] = bucket.get(name, 0) + 1
            if declared:  # each distinct refusal (type and message, values taken out) with its first schema
                said = _message_shape(str(error))
                examples = counts.setdefault("refusals", {})
                key = f"{name}: {said}"
                if key in examples:
                    examples[key]["count"] += 1
                elif len(examples) < _REFUSAL_EXAMPLES:
                    examples[key] = {"type": name, "message": str(error)[:300], "count": 1, "schema": _small(schema)}

    def count_tool_refusal(self, error: BaseException) -> str:
        """Count one declared refusal of a tool definition by the current check; its report text."""
        counts = self.tool_refusal_counts.setdefault(self.current_nodeid, {"count": 0, "refusals": {}})
        counts["count"] += 1
        key = f"{type(error).__qualname__}: {_message_shape(str(error))[:160]}"
        counts["refusals"][key] = counts["refusals"].get(key, 0) + 1
        return key

    def note(self, **values: Any) -> None:
        """Add named values to the current example's counterexample (for what a check draws
        itself, e.g. with ``st.data()``, or derives: the dialect, the strict schema)."""
        self.notes.update(values)

    def close(self) -> None:
        if self._worker is not None:
            self._worker.stop()
            self._worker = None

    @property
    def capabilities(self) -> frozenset[str]:
        return self.declarations.capabilities

    def has(self, *methods: str) -> bool:
        """Whether the checks can call every one of ``methods``: implemented, or encode/decode
        judged as the identity codec (:attr:`Declarations.identity_codec`)."""
        return all(method in self.declarations.judged_capabilities for method in methods)

    def implements(self, method: str) -> bool:
        """Whether the adapter itself implements ``method`` (the identity codec does not count)."""
        return method in self.capabilities

    # Calls.
    def call(self, method: str, *args: Any) -> Any:
        """Call ``adapter.method(*args)``; any exception, hang, junk result or mutation is a fault."""
        __tracebackhide__ = True
        return self._call(method, args, allowed=()).value

    def attempt(self, method: str, *args: Any, allowed: tuple[type[BaseException], ...]) -> Attempt:
        """Like :meth:`call`, but exceptions of the ``allowed`` types come back as ``Attempt.error``."""
        __tracebackhide__ = True
        return self._call(method, args, allowed=allowed)

    def _call(self, method: str, args: tuple[Any, ...], allowed: tuple[type[BaseException], ...]) -> Attempt:
        __tracebackhide__ = True
        if method not in CAPABILITIES:
            raise ValueError(f"{method} is not a capability")
        if self.budget is not None:
            self.budget.calls += 1
            self.budget.checkpoint()  # inside an example Hypothesis may discard: discarded when the budget is out
        if method in ("encode", "decode") and method not in self.capabilities and self.declarations.identity_codec:
            # no codec: the SDK hands the provider's answer to its user as it came (encode/decode(schema, dialect, value))
            self.transcript.append(CallRecord(f"{method} (identity codec)", args, result=args[-1], done=True))
            return Attempt(value=copy.deepcopy(args[-1]))
        hang = self._hung.get(method)
        fault: ConformanceFailure | None
        if hang is not None:  # a hung call can't be stopped: the method is not called again
            fault = self._hang_fault(hang)
        else:
            record = CallRecord(method, args)
            self.transcript.append(record)
            attempt, fault = self._guarded_call(record, allowed)
            if fault is None:
                return attempt
        # Every fault leaves from this one line, outside any except block: Hypothesis tells failures
        # apart by where they were raised, and a replayed hang is the same failure as the timeout.
        raise fault

    def _guarded_call(self, record: CallRecord, allowed: tuple[type[BaseException], ...]) -> tuple[Attempt, ConformanceFailure | None]:
        """Call the adapter for ``record``: its result, or the fault that says what went wrong."""
        method, args = record.method, record.args
        isolated = method in _ISOLATED
        # strictify and its codec get their own copy: the caller's input (and the counterexample)
        # stays as it was, mutation is judged once (RT-2) and every other check judges the output
        given = _snapshot(args) if isolated else args
        snapshot = args if isolated else _snapshot(args)
        fault: ConformanceFailure | None
        try:
            result = self._run(getattr(self.adapter, method), given)
        except _CallTimeout:
            fault = self._fault(method, f"did not return within {self.call_timeout:g} s (--sc-call-timeout)")
            self._hung[method] = _Hang(fault, self.current_nodeid)
            return Attempt(), fault
        except BaseException as exc:
            if self.state_changes and not isinstance(exc, KeyboardInterrupt):  # the damage first: it explains the rest
                record.error = exc
                fault = self._fault(method, _state_fault_problem(self.state_changes) + f" (and then raised {error_text(exc)})")
                fault.__cause__ = exc
                return Attempt(), fault
            # The user stopping the run, and pytest's own skip/fail, go through; anything else the
            # adapter raises (SystemExit from sys.exit() included) is its fault or an allowed error.
            if isinstance(exc, KeyboardInterrupt) or (isinstance(exc, pytest.fail.Exception) and not isinstance(exc, _TEST_CONTROL)):
                raise
            if _is_refusal(exc) and self.judge_refusals:  # RT-10 judges the refusal itself
                record.error = exc
                return Attempt(error=exc), None
            if _is_refusal(exc):  # the SDK cannot express this input (a process harness's refusal)
                from hypothesis import currently_in_test_context

                refused = self._refusals[self.current_nodeid] = self._refusals.get(self.current_nodeid, 0) + 1
                self.refusal_reasons[self.current_nodeid] = str(exc)
                if currently_in_test_context() and (refused < _REFUSALS_BEFORE_SKIP or self._answered.get(self.current_nodeid)):
                    self.refused = str(exc)  # @check discards the example even if a check catches this
                    raise  # Hypothesis discards the example, as assume(False)
                # an explicit case, or a check whose every input so far was refused: not covered
                from strictconformance.findings import not_covered

                not_covered(f"{exc}")
            record.error = exc
            if isinstance(exc, NotCovered):  # the adapter's own word that this input or check is not covered
                raise
            if isinstance(exc, _TEST_CONTROL):  # not the SDK's answer: the adapter reached into the test run
                fault = self._fault(method, f"raised {error_text(exc)}: {_TEST_CONTROL_WHY}")
                fault.__cause__ = exc
                return Attempt(), fault
            if allowed and isinstance(exc, allowed):
                return Attempt(error=exc), self._mutation_fault(method, given, snapshot)
            expected = f" (declared errors: {', '.join(e.__name__ for e in allowed)})" if allowed else ""
            exited = " (sys.exit() inside the adapter: a capability returns, or raises an ordinary exception)" if isinstance(exc, SystemExit) else ""
            fault = self._fault(method, f"raised {error_text(exc)}{expected}{exited}", crash=exc)
            fault.__cause__ = exc
            return Attempt(), fault
        record.result, record.done = result, True
        self._answered[self.current_nodeid] = True
        if self.state_changes:
            return Attempt(), self._fault(method, _state_fault_problem(self.state_changes))
        fault = self._mutation_fault(method, given, snapshot) or self._aliasing_fault(method, given, result)
        if fault is not None:
            return Attempt(), fault
        try:
            problem = result_problem(method, result)  # its size first: a huge result fails fast
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # junk that breaks even the inspection of its type
            problem = f"returned a {type(result).__name__} the suite cannot read: inspecting it raised {error_text(exc)}"
        if problem is not None:
            return Attempt(), self._fault(method, problem)
        return Attempt(value=result), None

    def _hang_fault(self, hang: _Hang) -> AdapterFault:
        """The failure of a call to a method that hung earlier: the original timeout, with the input
        that hung and its calls (not the input of this call, which is never made)."""
        original = hang.fault
        problem = original.problem
        if hang.nodeid != self.current_nodeid:
            problem += (f" when {hang.nodeid.rpartition('::')[2] or 'a check'} called it with the input shown; a hung call "
                        "cannot be stopped, so it is not called again in this session")
        fault = AdapterFault(original.method, problem, rule_id=self.current_rule)
        fault.calls = list(original.calls)
        fault.drawn = original.drawn
        return fault

    def _mutation_fault(self, method: str, args: tuple[Any, ...], snapshot: tuple[Any, ...]) -> ConformanceFailure | None:
        """The failure of a call that changed its arguments (``args``, what the adapter was given,
        against ``snapshot``, as they were). For strictify and its codec, a violation of RT-2 in
        RT-2's checks and nothing elsewhere: the adapter worked on its own copy."""
        isolated = method in _ISOLATED
        if isolated and self.current_rule != "RT-2":
            return None
        if _equal(args, snapshot) and not (isolated and _key_orders(args) != _key_orders(snapshot)):
            return None
        for index, (before, after) in enumerate(zip(snapshot, args, strict=True)):
            if not _equal(before, after) or (isolated and _key_orders(before) != _key_orders(after)):
                problem = (f"mutated argument {index + 1}: it was {_short_repr(before, 500)}, "
                           f"after the call it is {_short_repr(after, 500)}")
                if not isolated:
                    return self._fault(method, problem)
                violation = RuleViolation(f"adapter.{method}() {problem} (the counterexample shows the input as it was)",
                                          rule_id=self.current_rule, detail=f"{method}() mutates its input")
                violation.calls = list(self.transcript)
                return violation
        return None

    def _aliasing_fault(self, method: str, args: tuple[Any, ...], result: Any) -> ConformanceFailure | None:
        """RT-2's aliasing with the input: a strict schema that shares a dict or list with the
        schema strictify was given (editing the strict schema would edit the caller's tool)."""
        if method != "strictify" or self.current_rule != "RT-2" or not args:
            return None
        from strictconformance.dialects.aliasing import first_shared_node

        schema = result if isinstance(result, dict) else getattr(result, "schema", None)
        shared = first_shared_node(schema, {"input": args[0]}, within=False) if isinstance(schema, dict) else None
        if shared is None:
            return None
        violation = RuleViolation(f"adapter.strictify() returned a strict schema whose node at {shared[0]} is the very object of the "
                                  f"{shared[1]} (not a copy): editing the strict schema edits the caller's schema",
                                  rule_id=self.current_rule, detail="strictify() shares a node with its input")
        violation.calls = list(self.transcript)
        return violation

    def _run(self, bound: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        """``bound(*args)``; what it changed in the process's state is restored and kept in
        :attr:`state_changes` (empty when it changed nothing); the CPU it used counts as the adapter's."""
        self.state_changes = []
        pid = self._adapter_pid()
        process_cpu = process_cpu_seconds(pid) if pid is not None else None
        try:
            return self._run_in_worker(bound, args)
        finally:
            if pid is not None and process_cpu is not None and pid == self._adapter_pid():
                self.adapter_cpu += max(0.0, (process_cpu_seconds(pid) or process_cpu) - process_cpu)

    def _adapter_pid(self) -> int | None:
        """The process of a harness (``--sc-adapter-cmd``): its CPU is the adapter's calls' too."""
        pid = getattr(getattr(self.adapter, "harness", None), "pid", None)
        return pid if type(pid) is int else None

    def _run_in_worker(self, bound: Callable[..., Any], args: tuple[Any, ...]) -> Any:
        if self.call_timeout <= 0:  # in the check's own thread: its CPU is counted there
            state = _InterpreterState()
            try:
                return bound(*args)
            finally:
                self.state_changes = state.restore()
        if self._worker is None:
            self._worker = _Worker()
        if self.beacon is not None:
            self.beacon.begin(self.current_nodeid, getattr(bound, "__name__", "call"), args)
        worker = self._worker
        before = worker.cpu_seconds()
        try:
            return worker.run(bound, args, self.call_timeout)
        except _CallTimeout:
            # A thread can't be killed: abandon the hung one (a daemon, so it can't block exit).
            self._worker = None
            raise
        finally:
            self.state_changes = list(worker.changed)
            self.adapter_cpu += max(0.0, worker.cpu_seconds() - before)
            if self.beacon is not None:
                self.beacon.end()

    def add_reproducer(self, failure: ConformanceFailure) -> None:
        """Ask the adapter to reproduce the last call of ``failure`` (the one that failed) with a copy
        of its arguments (of their JSON-like parts, as for the mutation check), and keep the snippet on the failure. ``Adapter.reproduce`` raising, hanging
        or returning junk is kept as ``failure.reproducer_problem``: it never breaks the report."""
        if not failure.calls or failure.reproducer is not None or failure.reproducer_problem is not None:
            return
        record = failure.calls[-1]
        args = _snapshot(record.args)  # a copy of the JSON-like parts, however deep (DR-6 nests thousands deep)
        language: Any = getattr(self.adapter, "reproducer_language", "python")
        try:
            snippet = self._run(self.adapter.reproduce, (record.method, args))
        except _CallTimeout:
            failure.reproducer_problem = f"reproduce() did not return within {self.call_timeout:g} s (--sc-call-timeout)"
            return
        except KeyboardInterrupt:
            raise
        except BaseException as exc:  # pytest.skip() and sys.exit() inside reproduce() included
            failure.reproducer_problem = f"reproduce() raised {error_text(exc)}"
            return
        if self.state_changes:
            failure.reproducer_problem = f"reproduce() {_state_fault_problem(self.state_changes)}"
            return
        if snippet is None:
            return
        if not isinstance(snippet, str) or not snippet.strip():
            failure.reproducer_problem = f"reproduce() returned {_short_repr(snippet, 200)}, expected a snippet (str) or None"
            return
        failure.reproducer = str.__str__(snippet)
        failure.reproducer_language = language if isinstance(language, str) else "python"

    # Failing.
    def _fault(self, method: str, problem: str, crash: BaseException | None = None) -> AdapterFault:
        fault = AdapterFault(method, problem, rule_id=self.current_rule, crash=crash)
        fault.calls = list(self.transcript)
        return fault

    def unjudged_crash(self, error: BaseException) -> AdapterFault | None:
        """A crash finding for ``error`` when it is an exception an adapter call of the current
        example raised that the check let through unjudged (else None: the kit's own error)."""
        for record in reversed(self.transcript):
            if record.error is error:
                fault = self._fault(record.method, f"raised {error_text(error)}", crash=error)
                fault.__cause__ = error
                return fault
        return None

    @contextlib.contextmanager
    def judging_refusals(self) -> Iterator[None]:
        """Within: a process harness's refusal comes back to the check as the call's error."""
        before, self.judge_refusals = self.judge_refusals, True
        try:
            yield
        finally:
            self.judge_refusals = before

    def refusal(self, message: str, *, detail: str) -> NoReturn:
        """Fail the current rule with an unnecessary refusal: the adapter refused what the rule
        says it must accept (``detail``: the exception type and its message, the finding's key)."""
        __tracebackhide__ = True
        failure = UnnecessaryRefusal(message, rule_id=self.current_rule, detail=detail)
        failure.calls = list(self.transcript)
        raise failure

    def observe(self, failure: ConformanceFailure) -> None:
        """Remember the other defects ``failure``'s example showed (its ``also``), each with that
        example as its counterexample, the first time the check meets it."""
        for other in failure.also:
            other.rule_id = other.rule_id or failure.rule_id
            if other.drawn is None:
                other.drawn = dict(failure.drawn) if isinstance(failure.drawn, Mapping) else failure.drawn
            other.calls = other.calls or list(failure.calls)
            self.observed.setdefault(identity_of(other), other)

    def seen_beside(self, failures: Iterable[BaseException]) -> list[ConformanceFailure]:
        """The defects the current check's failing examples showed beside the one each failure's
        search shrank, that no failure reports: RT-1 meets an output breaking SM-17 and SM-04, the
        search keeps SM-17's, and SM-04 would be lost when no smaller example breaks it first."""
        shown = [failure for failure in failures if isinstance(failure, ConformanceFailure)]
        reported = {identity_of(failure) for failure in shown}
        keys = {failure.key for failure in shown}
        extra = [failure for identity, failure in self.observed.items() if identity not in reported and failure.key not in keys]
        for failure in extra:
            failure.seen_beside = True
        return extra

    def fail(self, message: str, *, where: str | None = None, detail: str | None = None,
             also: Iterable[ConformanceFailure] = ()) -> NoReturn:
        """Fail the current rule with ``message`` (the counterexample is attached by @check).
        ``where`` is the JSON pointer or response path at fault; ``detail`` what tells this bug
        from the rule's others (the keyword or node shape at fault), part of the finding's key."""
        __tracebackhide__ = True
        violation = RuleViolation(message, rule_id=self.current_rule, where=where, detail=detail)
        violation.calls = list(self.transcript)
        violation.also = list(also)
        raise violation

    def crash(self, method: str, error: BaseException, context: str = "") -> NoReturn:
        """Fail the current rule with a crash: ``adapter.method()`` raised ``error``, an exception
        the adapter did not declare (the finding's key names its type)."""
        __tracebackhide__ = True
        fault = self._fault(method, f"raised {error_text(error)}{context}", crash=error)
        fault.__cause__ = error
        raise fault

    def each_case(self, cases: Iterable[tuple[str, T]], judge: Callable[[str, T], Any], *, name_in_key: bool = True) -> None:
        """``judge(name, case)`` for every fixed case (traps, known-bad schemas); a failing case
        does not hide the next: each failure is its own finding (its key names the case, unless
        ``name_in_key`` is false: then failures of one defect at several cases are one finding,
        distinct defects still apart), all raised together at the end as an exception group."""
        __tracebackhide__ = True
        failures: list[ConformanceFailure] = []
        for judged, (name, case) in enumerate(cases):
            if self._case_budget_out(judged):
                break
            self.transcript = []
            self.notes = {}
            try:
                judge(name, case)
            except ConformanceFailure as failure:
                failure.rule_id = failure.rule_id or self.current_rule
                if name_in_key:
                    failure.detail = f"{failure.detail} ({name})" if failure.detail else name
                    failure.case = name
                if failure.drawn is None:
                    failure.drawn = dict(self.notes)
                failures.append(failure)
        if len(failures) == 1:
            raise failures[0]
        if failures:
            raise ExceptionGroup(f"{len(failures)} fixed cases failed", failures)

    def _case_budget_out(self, judged: int) -> bool:
        """Whether a loop over fixed cases stops here: the check's budget is out. Inside a
        Hypothesis example the budget discards the example instead (a loop cut short in the replay
        of a failure would not reproduce it), so only a check without Hypothesis stops here."""
        if self.budget is None:
            return False
        from hypothesis import currently_in_test_context

        if currently_in_test_context():
            self.budget.checkpoint()
            return False
        if self.budget.reached() is None:
            return False
        self.budget.cases_judged = judged
        return True

    def expect(self, condition: bool, message: str | Callable[[], str], *, detail: str | None = None,
               where: str | None = None) -> None:
        """Fail with ``message`` unless ``condition``; ``detail`` (what tells this defect from the
        rule's others, a stable phrase without the drawn values) goes into the finding's key."""
        __tracebackhide__ = True
        if not condition:
            self.fail(message() if callable(message) else message, where=where, detail=detail)


_KEYED: dict[tuple[type[ConformanceFailure], str], type[ConformanceFailure]] = {}


def identity_of(failure: ConformanceFailure) -> str:
    """The defect ``failure`` shows (:func:`strictconformance.defects.failure_identity`): the one its
    keyed type carries (:func:`_keyed`), else read from its fields as drawn; its finding key when
    that cannot be read (never raises)."""
    carried = getattr(type(failure), "_finding_key", None)
    if isinstance(carried, str):
        return carried
    from strictconformance.defects import failure_identity

    drawn = failure.drawn if isinstance(failure.drawn, Mapping) else {}
    try:
        return failure_identity({"rule": failure.rule_id or "?", "kind": failure.kind, "key": failure.key,
                                 "message": failure.message, "where": failure.where, "origin": failure.origin,
                                 "counterexample": drawn})
    except Exception:  # a finding the cause cannot read (junk drawn by a broken adapter) is keyed as it is
        return failure.key


def search_key_of(failure: ConformanceFailure) -> str:
    """What a check's search shrinks ``failure`` as (``strictconformance.shrinking``): its defect
    (:func:`identity_of`), and the fixed case that met it when the finding's key names the case
    (each trap's finding is shrunk, as each is reported)."""
    search = getattr(type(failure), "_search_key", None)
    return search if isinstance(search, str) else identity_of(failure)


def _keyed(failure: ConformanceFailure) -> ConformanceFailure:
    """``failure`` as an instance of a subclass of its own type made for the defect it shows (one
    per defect, :func:`identity_of`, and per fixed case when its key names one), with no exception
    context: what Hypothesis reads to tell distinct failures apart, so it searches and shrinks
    once per defect."""
    base = type(failure)
    while getattr(base, "_finding_key", None) is not None:
        base = base.__mro__[1]
    failure.__class__ = base  # identity_of reads the failure, not an earlier identity
    identity = identity_of(failure)
    search = f"{identity}|case {failure.case}" if failure.case else identity
    key = (base, search)
    if key not in _KEYED:
        _KEYED[key] = type(base.__name__, (base,), {"__module__": base.__module__, "__qualname__": base.__qualname__,
                                                      "_finding_key": identity, "_search_key": search})
    failure.__class__ = _KEYED[key]
    failure.__context__ = None  # the cause (an adapter's exception) stays in __cause__
    return failure.with_traceback(None)


def _counterexample(kwargs: Mapping[str, Any], notes: Mapping[str, Any]) -> dict[str, Any]:
    """The check's inputs (not the harness, nor Hypothesis's ``data`` object) and its notes."""
    drawn = {name: value for name, value in kwargs.items()
             if name != "strictconformance_harness" and type(value).__name__ != "DataObject"}
    return {**drawn, **notes}


def _discard_if_refused(harness: Harness) -> None:
    """An example in which the adapter refused an input is discarded, whatever the check made of
    the refusal (an oracle catching every exception would read it as the SDK's answer)."""
    if harness.refused is not None:
        from hypothesis.errors import UnsatisfiedAssumption

        raise UnsatisfiedAssumption(harness.refused)


def check(rule_id: str, *, requires: Callable[[Declarations], str | None] | None = None) -> Callable[[F], F]:
    """Tie a check to ``rule_id``: marks it for selection and the report, counts its examples, and
    attaches the counterexample and adapter calls to its failures.

    ``requires`` reads the adapter's declarations at collection and returns why the check does not
    apply (reported as not covered), or ``None``. Put ``@check`` *above* ``@given`` (it wraps
    Hypothesis's inner test, so it runs once per example). The check must take the ``strictconformance_harness`` fixture.
    """

    def decorate(test: F) -> F:
        inner = getattr(getattr(test, "hypothesis", None), "inner_test", None)
        target: Callable[..., Any] = inner if inner is not None else test

        @functools.wraps(target)
        def run_example(*args: Any, **kwargs: Any) -> Any:
            __tracebackhide__ = True
            harness = kwargs.get("strictconformance_harness")
            if not isinstance(harness, Harness):
                raise TypeError(f"check {target.__name__} must take the 'strictconformance_harness' fixture")
            harness.begin_example()
            failure: BaseException
            try:
                outcome = target(*args, **kwargs)
            except ConformanceFailure as found:
                _discard_if_refused(harness)
                found.rule_id = found.rule_id or rule_id
                if found.drawn is None:  # a replayed hang keeps the input that hung
                    found.drawn = _counterexample(kwargs, harness.notes)
                harness.observe(found)
                failure = _keyed(found)
            except AssertionError as error:  # a plain assert in a check is still a violation of its rule
                _discard_if_refused(harness)
                violation = RuleViolation(str(error) or "assertion failed", rule_id=rule_id)
                violation.calls = list(harness.transcript)
                violation.drawn = _counterexample(kwargs, harness.notes)
                violation.__cause__ = error
                failure = _keyed(violation)
            except BaseExceptionGroup as group:  # the findings of a fixed-case loop (Harness.each_case), or
                if not all(isinstance(inner, ConformanceFailure) for inner in group.exceptions):  # an oracle's defects
                    raise
                _discard_if_refused(harness)
                for inner in group.exceptions:
                    inner.rule_id = inner.rule_id or rule_id
                    if getattr(inner, "with_inputs", False):  # its counterexample: the check's inputs and its own notes
                        inner.drawn = {**_counterexample(kwargs, {}), **(inner.drawn or {})}
                    harness.observe(inner)
                    _keyed(inner)  # a type per defect: Hypothesis tells groups of distinct defects apart
                failure = group
            else:
                _discard_if_refused(harness)
                return outcome
            # Raised here, outside any except block, with a type of its own per finding key:
            # Hypothesis tells failures apart by type and place, so it shrinks each distinct
            # defect separately and reports them all (report_multiple_bugs).
            raise failure

        run_example.strictconformance_check = True  # type: ignore[attr-defined]  # shrinking.MARK: the ci shrink budget applies
        if inner is not None:
            test.hypothesis.inner_test = run_example  # type: ignore[attr-defined]
            wrapped: Any = test
        else:
            wrapped = run_example
        return pytest.mark.sc_rule(rule_id, requires=requires)(wrapped)  # type: ignore[no-any-return]

    return decorate

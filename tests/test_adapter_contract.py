"""The adapter contract as a user meets it: usage errors for unusable adapters, named skips for
missing capabilities, clean failures for faulty ones. Never INTERNALERROR."""

from __future__ import annotations

import dataclasses
import json
from collections.abc import Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import SuiteRun
from strictconformance.adapter import Adapter, AdapterContractError, read_declarations
from strictconformance.reference import ReferenceAdapter

# -- Unusable adapters: a usage error that says what is wrong ------------------------------------


@pytest.mark.parametrize(
    ("module_source", "adapter", "message"),
    [
        (None, "no_such_module:Adapter", "cannot import module 'no_such_module'"),
        ("raise RuntimeError('boom at import')", "exploding:Adapter", "RuntimeError: boom at import"),
        ("x = (", "exploding:Adapter", "SyntaxError"),
        ("VALUE = 1", "exploding:Missing", "has no attribute 'Missing'"),
        ("def Adapter():\n    pass", "exploding:Adapter", "is a function, expected a strictconformance.Adapter"),
        ("class Adapter:\n    pass", "exploding:Adapter", "does not subclass strictconformance.Adapter"),
        ("from strictconformance import Adapter as Base\nclass Adapter(Base):\n    def __init__(self):\n        raise ValueError('no key')",
         "exploding:Adapter", "Adapter() raised ValueError: no key"),
        (None, "not-a-path", "must be written module:attribute"),
        ("import sys\nsys.exit(4)", "exploding:Adapter", "cannot import module 'exploding': SystemExit: 4 (sys.exit() while loading"),
        ("import sys\nfrom strictconformance import Adapter as Base\nclass Adapter(Base):\n    def __init__(self):\n        sys.exit(2)",
         "exploding:Adapter", "Adapter() raised SystemExit: 2 (sys.exit() while loading"),
        ("from strictconformance.reference import ReferenceAdapter\nclass Adapter(ReferenceAdapter):\n    @property\n"
         "    def build_request(self):\n        raise AttributeError('lazy sdk not configured')",
         "exploding:Adapter", "Adapter.build_request: reading it raised AttributeError: lazy sdk not configured; a capability is a plain method"),
        ("from strictconformance.reference import ReferenceAdapter\nclass Adapter(ReferenceAdapter):\n    @property\n"
         "    def providers(self):\n        raise RuntimeError('config not loaded')",
         "exploding:Adapter", "Adapter.providers: reading it raised RuntimeError: config not loaded; a declaration is plain data"),
        ("from strictconformance import Budget\nfrom strictconformance.reference import ReferenceAdapter\n"
         "class Adapter(ReferenceAdapter):\n    budgets = {'anthropic': Budget('20', 24, 16)}",
         "exploding:Adapter", "Adapter.budgets['anthropic'].max_strict_tools is '20' (str); each limit is a whole number of 0 or more, or None"),
        ("from strictconformance import Budget\nfrom strictconformance.reference import ReferenceAdapter\n"
         "class Adapter(ReferenceAdapter):\n    budgets = {'anthropic': Budget(20, -1, 16)}",
         "exploding:Adapter", "Adapter.budgets['anthropic'].max_optional_params is -1 (int); each limit is a whole number of 0 or more"),
        ("from collections.abc import Mapping\nfrom strictconformance.reference import ReferenceAdapter\n"
         "class Lazy(Mapping):\n    def __getitem__(self, key):\n        raise RuntimeError('config not loaded')\n"
         "    def __iter__(self):\n        raise RuntimeError('config not loaded')\n    def __len__(self):\n        return 3\n"
         "class Adapter(ReferenceAdapter):\n    strict_defaults = Lazy()",
         "exploding:Adapter", "reading the declarations of adapter 'exploding:Adapter' raised RuntimeError: config not loaded"),
    ],
    ids=["missing-module", "raises-on-import", "syntax-error", "missing-attribute", "function", "not-a-subclass",
         "init-raises", "malformed", "exits-on-import", "init-exits", "capability-property-raises",
         "declaration-property-raises", "budget-limit-a-string", "budget-limit-negative", "declaration-raises-when-read"],
)
def test_unusable_adapter_is_a_usage_error(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester,
                                           module_source: str | None, adapter: str, message: str) -> None:
    if module_source is not None:
        pytester.makepyfile(exploding=module_source)
    run = run_suite(adapter)
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR, run.output
    assert message in run.output
    assert "INTERNALERROR" not in run.output


class _BooleanOnly(Adapter):
    def build_request(self, request):  # type: ignore[no-untyped-def]
        return ReferenceAdapter().build_request(request)


def _declaration_error(adapter: Adapter) -> str:
    with pytest.raises(AdapterContractError) as caught:
        read_declarations(adapter)
    return str(caught.value)


def test_declarations_are_validated_with_a_message_saying_what_to_write() -> None:
    assert "must declare strict_defaults" in _declaration_error(_BooleanOnly())

    class WrongConventions(_BooleanOnly):
        strict_defaults = {"openai": True, "anthropic": True, "google": None}
        conventions = ("priority",)

    assert "declares the 'priority' convention but does not override plan_request()" in _declaration_error(WrongConventions())

    class BadDefaults(_BooleanOnly):
        strict_defaults = {"openai": "yes", "anthropic": True}

    text = _declaration_error(BadDefaults())
    assert "missing ['google']" in text and "'openai': 'yes'" in text

    class NoRejections(Adapter):
        def plan_request(self, request):  # type: ignore[no-untyped-def]
            raise NotImplementedError

    assert "must declare rejection_errors" in _declaration_error(NoRejections())

    class UnknownExpectation(ReferenceAdapter):
        expected_failures = {"RES-99": "typo"}

    assert "unknown rules ['RES-99']" in _declaration_error(UnknownExpectation())

    class BadPolicy(ReferenceAdapter):
        allocation_policy = "knapsack"

    assert "allocation_policy must be one of" in _declaration_error(BadPolicy())

    class NoDriftErrors(Adapter):
        def check_response(self, api, payload):  # type: ignore[no-untyped-def]
            return None

    assert "must declare drift_errors" in _declaration_error(NoDriftErrors())


def test_a_bad_declaration_stops_the_run_as_a_usage_error(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    pytester.makepyfile(my_adapter="""
        from strictconformance import Adapter
        from strictconformance.reference.resolution import build_tools_request

        class Mine(Adapter):
            def build_request(self, request):
                return build_tools_request(request)
    """)
    run = run_suite("my_adapter:Mine")
    assert run.result.ret == pytest.ExitCode.USAGE_ERROR
    assert "Mine overrides build_request() and must declare strict_defaults" in run.output
    assert "INTERNALERROR" not in run.output


# -- Missing capabilities: named skips, listed as not covered, never passed ----------------------


@pytest.mark.slow
def test_missing_capabilities_are_named_skips(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    pytester.makepyfile(boolean_only="""
        from strictconformance import Adapter
        from strictconformance.reference.resolution import REFERENCE_DEFAULTS, build_tools_request

        class BooleanOnly(Adapter):
            sdk = "example-sdk 1.0"
            strict_defaults = REFERENCE_DEFAULTS

            def build_request(self, request):
                return build_tools_request(request)
    """)
    run = run_suite("boolean_only:BooleanOnly")
    assert run.result.ret == pytest.ExitCode.OK, run.output
    assert run.rules_with("passed") == {"RES-1", "RES-2", "RES-3", "RES-4", "RES-5", "RES-6"}
    not_covered = run.rules_with("not covered")
    assert {"RES-10", "RES-13", "BUD-1"} <= not_covered
    assert run.report is not None
    assert run.report["rules"]["RES-10"]["reasons"] == ["the adapter does not implement plan_request()"]
    assert "not covered: RES-10..RES-12" in run.output and "plan_request()" in run.output
    assert not run.rules_with("failed")


# -- Faulty adapters: clean failures naming the method and what was wrong ------------------------

_FAULTY = """
import dataclasses
import sys
import time
from strictconformance.reference import ReferenceAdapter

class Raises(ReferenceAdapter):
    def build_request(self, request):
        raise KeyError("strictJsonSchema")

class Hangs(ReferenceAdapter):
    def strict_support(self, model):
        time.sleep(30)

class ReturnsJunk(ReferenceAdapter):
    def build_request(self, request):
        return {"tools": []}

class JunkStrict(ReferenceAdapter):
    def build_request(self, request):
        wire = super().build_request(request)
        return dataclasses.replace(wire, tools=tuple(dataclasses.replace(t, strict="yes") for t in wire.tools))

class Mutates(ReferenceAdapter):
    def build_request(self, request):
        for tool in request.tools:
            tool.input_schema["additionalProperties"] = True
        return super().build_request(request)

class DropsTools(ReferenceAdapter):
    def build_request(self, request):
        return dataclasses.replace(super().build_request(request), tools=())

class _Unprintable:
    def __repr__(self):
        raise RuntimeError("repr exploded")

class UnprintableResult(ReferenceAdapter):
    def build_request(self, request):
        return _Unprintable()

class UnprintableTool(ReferenceAdapter):
    def build_request(self, request):
        return dataclasses.replace(super().build_request(request), tools=(_Unprintable(),))

class _Unsayable(Exception):
    def __str__(self):
        raise RuntimeError("str exploded")

class RaisesUnsayable(ReferenceAdapter):
    def build_request(self, request):
        raise _Unsayable()

class Exits(ReferenceAdapter):
    def build_request(self, request):
        sys.exit(3)

class CyclicFormat(ReferenceAdapter):
    def build_request(self, request):
        loop = {}
        loop["a"] = loop
        return dataclasses.replace(super().build_request(request), response_format=loop)

class SetInSchema(ReferenceAdapter):
    def build_request(self, request):
        wire = super().build_request(request)
        return dataclasses.replace(wire, tools=tuple(dataclasses.replace(t, input_schema={"enum": {1, 2}}) for t in wire.tools))
"""


@pytest.mark.parametrize(
    ("adapter", "rules", "message"),
    [
        ("Raises", "RES-1", "RES-1 crash: adapter.build_request() raised KeyError: 'strictJsonSchema'"),
        ("Hangs", "RES-13", "RES-13 fault: adapter.strict_support() did not return within 0.5 s"),
        ("ReturnsJunk", "RES-1", "adapter.build_request() returned dict, expected strictconformance.WireRequest"),
        ("JunkStrict", "RES-1", "WireRequest.tools[0].strict is 'yes', expected True, False or None (omitted)"),
        ("Mutates", "RES-1", "adapter.build_request() mutated argument 1"),
        ("DropsTools", "RES-1", "RES-1 violation: the wire request carries tool 'tool_00_search' not at all, expected once"),
        # what the adapter produced is shown even when its repr() or str() raises (was INTERNALERROR)
        ("UnprintableResult", "RES-1", "adapter.build_request() returned _Unprintable, expected strictconformance.WireRequest"),
        ("UnprintableTool", "RES-1", "WireRequest.tools[0] is <_Unprintable: repr failed: RuntimeError: repr exploded>, expected WireTool"),
        ("RaisesUnsayable", "RES-1", "adapter.build_request() raised _Unsayable: <str() failed: RuntimeError: str exploded>"),
        # sys.exit() in a capability is the adapter's fault, not the end of the run
        ("Exits", "RES-1", "RES-1 crash: adapter.build_request() raised SystemExit: 3"),
        # fields the checks walk must be JSON: a cycle would make them loop forever
        ("CyclicFormat", "RES-1", "adapter.build_request() WireRequest.response_format is not JSON"),
        ("SetInSchema", "RES-1", "adapter.build_request() WireRequest.tools[0].input_schema is not JSON"),
    ],
)
def test_faulty_adapter_gets_clean_failures(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester,
                                            adapter: str, rules: str, message: str) -> None:
    pytester.makepyfile(faulty=_FAULTY)
    run = run_suite(f"faulty:{adapter}", "--sc-rule", rules, "--sc-call-timeout", "0.5", profile="selftest")
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    assert message in run.output
    assert "INTERNALERROR" not in run.output
    assert run.rules_with("failed") == {rules}
    assert run.report is not None
    failure = run.report["rules"][rules]["findings"][0]
    assert failure["calls"], failure  # the adapter call that produced it
    assert message.split(": ", 1)[-1].split(" (")[0] in failure["message"] or failure["kind"] == "violation"


def test_what_an_adapter_returned_is_shown_whatever_its_repr_does(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """Each failure shows the adapter's calls and what they returned, in the terminal and in the
    JSON report. A result whose repr() raises shows as such (it was an INTERNALERROR); one that
    contains itself twice (2**200 nodes unfolded to the old depth limit) renders its cycles."""
    pytester.makepyfile(faulty=_FAULTY + _SELF_CONTAINING)
    run = run_suite("faulty:UnprintableResult", "--sc-rule", "RES-1", "-k", "not seed_table")
    assert "INTERNALERROR" not in run.output
    assert "\n  returned <_Unprintable: repr failed: RuntimeError: repr exploded>\n" in run.output
    assert run.report is not None
    call = run.report["rules"]["RES-1"]["findings"][0]["calls"][-1]
    assert call["returned"] == "<_Unprintable: repr failed: RuntimeError: repr exploded>"

    # in a subprocess with a timeout (run_suite's setup still applies): without cycle detection
    # the rendering never ends
    report = pytester.path / "cycle-report.json"
    result = pytester.runpytest_subprocess(
        "-p", "strictconformance", "-p", "no:cacheprovider", "--sc-adapter", "faulty:SelfContaining",
        "--hypothesis-profile", "selftest", "--sc-rule", "RES-1", "-k", "not seed_table", "--sc-report", str(report), timeout=90)
    assert result.ret == pytest.ExitCode.TESTS_FAILED, result.outlines
    failure = json.loads(report.read_text())["rules"]["RES-1"]["findings"][0]
    assert failure["message"] == "adapter.build_request() returned dict, expected strictconformance.WireRequest (strictconformance.wire.read_wire_request converts a captured HTTP body)"
    assert failure["calls"][-1]["returned"] == {"a": "<cycle: dict>", "b": "<cycle: dict>"}


_SELF_CONTAINING = """
class SelfContaining(ReferenceAdapter):
    def build_request(self, request):
        loop = {}
        loop["a"] = loop
        loop["b"] = loop
        return loop
"""

_HANGS_ON_TWO_TOOLS = """
import time
from strictconformance.reference import ReferenceAdapter

class HangsOnTwoTools(ReferenceAdapter):
    def build_request(self, request):
        if len(request.tools) >= 2:
            time.sleep(30)
        return super().build_request(request)
"""


def test_after_a_hang_each_failure_shows_the_call_that_hung(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    """A hung call cannot be stopped, so the method is not called again; every failure after it
    (the shrinking of the check that hung, the checks after it) reports that timeout: the input
    that hung and its call, not an input that was never sent with a 'did not return' under it."""
    pytester.makepyfile(hanging=_HANGS_ON_TWO_TOOLS)
    run = run_suite("hanging:HangsOnTwoTools", "--sc-rule", "RES-1,RES-2", "--sc-call-timeout", "0.5")
    assert run.result.ret == pytest.ExitCode.TESTS_FAILED, run.output
    assert "hung earlier" not in run.output
    assert run.report is not None
    failures = [failure for rule_id in ("RES-1", "RES-2") for failure in run.report["rules"][rule_id]["findings"]]
    first = next(failure for failure in failures if failure["nodeid"].endswith("::test_res_1_tool_beats_config_beats_default"))
    assert first["message"] == "adapter.build_request() did not return within 0.5 s (--sc-call-timeout)"
    hung = first["counterexample"]["request"]
    assert len(hung["tools"]) >= 2  # the input that hung, not one shrunk below what hangs
    assert first["calls"][-1]["args"] == [hung] and not {"returned", "raised"} & set(first["calls"][-1])
    later = [failure for failure in failures if failure is not first]
    assert {failure["nodeid"].rpartition("::")[2] for failure in later} >= {"test_res_2_unset_gets_declared_default"}
    for failure in later:
        assert failure["message"].startswith(
            "adapter.build_request() did not return within 0.5 s (--sc-call-timeout) when "
            "test_res_1_tool_beats_config_beats_default called it with the input shown"), failure["message"]
        assert failure["counterexample"] == first["counterexample"]
        assert failure["calls"][-1]["args"] == [hung]


def test_an_openai_only_sdk_declares_its_providers(run_suite: Callable[..., SuiteRun], pytester: pytest.Pytester) -> None:
    pytester.makepyfile(openai_only="""
        from strictconformance import Adapter
        from strictconformance.reference.resolution import build_tools_request

        class OpenAIOnly(Adapter):
            providers = ("openai",)
            strict_defaults = {"openai": True}

            def build_request(self, request):
                assert request.provider == "openai", request.provider
                return build_tools_request(request)
    """)
    run = run_suite("openai_only:OpenAIOnly", "--sc-rule", "RES")
    assert run.result.ret == pytest.ExitCode.OK, run.output
    assert run.rules_with("passed") == {"RES-1", "RES-2"}
    assert {"RES-3", "RES-4", "RES-5", "RES-6"} <= run.rules_with("not covered")
    assert run.report is not None
    assert run.report["rules"]["RES-6"]["reasons"] == ["the adapter's providers do not include 'google'"]


# -- Payloads nested too deep for recursion (DR-6 sends them) --------------------------------------


def _nested(depth: int) -> dict[str, object]:
    root: dict[str, object] = {}
    node = root
    for _ in range(depth):
        child: dict[str, object] = {}
        node["content"] = [child]
        node = child
    node["leaf"] = "bottom"
    return root


class _DeepReader(ReferenceAdapter):
    """A response check that reads a payload to its bottom, and (``mutate``) rewrites the leaf."""

    def __init__(self, mutate: bool) -> None:
        self.mutate = mutate

    def check_response(self, api: str, payload: object) -> None:
        node = payload
        while isinstance(node, dict) and "content" in node:
            node = node["content"][0]
        if self.mutate and isinstance(node, dict):
            node["leaf"] = "changed"


def test_the_harness_copies_and_compares_payloads_nested_thousands_deep() -> None:
    """Mutation detection snapshots and compares every argument; at 20,000 levels (far past
    Python's recursion limit) it still tells an untouched payload from a changed leaf, and names
    the change without ``RecursionError``."""
    from strictconformance.adapter import read_declarations
    from strictconformance.harness import AdapterFault, Harness

    payload = _nested(20_000)
    clean = Harness(_DeepReader(mutate=False), read_declarations(_DeepReader(mutate=False), "tests:_DeepReader"), call_timeout=0)
    assert clean.call("check_response", "anthropic.messages", payload) is None
    mutating = _DeepReader(mutate=True)
    harness = Harness(mutating, read_declarations(mutating, "tests:_DeepReader"), call_timeout=0)
    with pytest.raises(AdapterFault, match=r"check_response\(\) mutated argument 2: it was \{\"content\""):
        harness.call("check_response", "anthropic.messages", _nested(20_000))


# -- the snapshot of an adapter's arguments: a copy of every JSON-like container, nothing shared ---

@dataclasses.dataclass(frozen=True)
class _Frozen:
    first: object
    second: object = None


class _Record(dict):  # type: ignore[type-arg]
    pass


_Pair = __import__("collections").namedtuple("_Pair", "left right")
_LEAVES = st.one_of(st.integers(), st.text(max_size=3), st.none(), st.booleans(), st.floats(allow_nan=False), st.binary(max_size=2))
_NESTED = st.recursive(_LEAVES, lambda inner: st.one_of(
    st.dictionaries(st.text(max_size=3), inner, max_size=3),
    st.lists(inner, max_size=3),
    st.lists(inner, max_size=3).map(tuple),
    st.builds(_Pair, inner, inner),
    st.builds(_Frozen, inner, inner),
    st.dictionaries(st.integers(0, 5), inner, max_size=3).map(_Record),
), max_leaves=25)


def _containers(value: object) -> dict[int, object]:
    found: dict[int, object] = {}
    stack = [value]
    while stack:
        node = stack.pop()
        if isinstance(node, (dict, list, tuple)) or dataclasses.is_dataclass(node):
            if id(node) in found:
                continue
            found[id(node)] = node
            parts = (list(node.values()) if isinstance(node, dict) else list(node) if isinstance(node, (list, tuple))
                     else [getattr(node, field.name) for field in dataclasses.fields(node)])  # type: ignore[arg-type]
            stack.extend(parts)
    return found


def _shape(value: object) -> object:
    """``value`` with its container types written out (``==`` tells a dict from a subclass of it,
    a tuple from a namedtuple, only by these)."""
    if isinstance(value, dict):
        return (type(value).__name__, [(key, _shape(item)) for key, item in value.items()])
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, [_shape(item) for item in value])
    if dataclasses.is_dataclass(value):
        return (type(value).__name__, [_shape(getattr(value, field.name)) for field in dataclasses.fields(value)])
    return (type(value).__name__, value)


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(_NESTED)
def test_the_snapshot_copies_every_container_and_keeps_every_type(value: object) -> None:
    """A dict or list (a subclass of one too) becomes a plain one, a tuple, namedtuple or frozen
    dataclass stays what it was, key order is kept and every scalar is shared: no container of the
    copy is one of the original's, so a change the adapter makes is told from the copy."""
    from strictconformance.harness import _snapshot, _snapshot_deep

    mutable = {key for key, node in _containers(value).items() if isinstance(node, (dict, list))}
    for copy in (_snapshot(value), _snapshot_deep(value)):
        expected = _shape(value)
        expected = json.loads(json.dumps(expected, default=repr).replace('"_Record"', '"dict"'))
        assert json.loads(json.dumps(_shape(copy), default=repr)) == expected
        assert not mutable & set(_containers(copy)), "a dict or list of the copy is the original's"


def test_the_snapshot_closes_a_cycle_at_the_original_and_copies_a_shared_value_twice() -> None:
    from strictconformance.harness import _snapshot_deep

    shared = {"leaf": 1}
    loop: dict[str, object] = {"a": [shared, shared]}
    loop["self"] = _Frozen(loop, (loop,))
    copy = _snapshot_deep(loop)
    assert copy is not loop and copy["self"].first is loop and copy["self"].second[0] is loop
    assert copy["a"][0] == shared and copy["a"][0] is not shared and copy["a"][0] is not copy["a"][1]


def test_the_snapshot_of_tuples_and_lists_nested_past_the_recursion_limit() -> None:
    """Junk can alternate tuples and lists thousands deep: the two walks hand over to each other a
    bounded number of times, then one walk copies the rest alone."""
    from strictconformance.harness import _snapshot_deep

    value: object = "leaf"
    for level in range(20_000):
        value = (value,) if level % 2 else [value, {"n": level}]
    copy = _snapshot_deep(_Frozen(value))
    node, depth = copy.first, 0
    while not isinstance(node, str):
        node, depth = node[0], depth + 1
    assert depth == 20_000


def test_the_snapshot_of_a_mapping_that_makes_new_values_on_each_read_copies_every_level() -> None:
    """A dict subclass whose ``__getitem__`` wraps each value anew: the wrapper copied last is freed
    while the walk is still below it, and a later wrapper can take its address. Held by the walk
    until finished, none is mistaken for a cycle (shared instead of copied: a change the adapter
    made to it went unseen)."""
    from strictconformance.harness import _snapshot_deep

    class Wrapping(dict):  # type: ignore[type-arg]
        def __getitem__(self, key: object) -> object:
            value = dict.__getitem__(self, key)
            return Wrapping(value) if type(value) is dict else value

    for depth in (5, 10, 50):
        value: dict[str, object] = {"leaf": 1}
        for _ in range(depth):
            value = {"a": value}
        node: object = _snapshot_deep(Wrapping(value))
        levels = []
        while isinstance(node, dict) and "a" in node:
            levels.append(type(node).__name__)
            node = dict.__getitem__(node, "a")
        assert levels == ["dict"] * depth, levels  # a Wrapping level: shared, not copied

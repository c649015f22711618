"""Fixtures for the kit's self-tests: run the plugin as a user would, through pytester."""

from __future__ import annotations

import gc
import json
import os
import shutil
import sys
import tempfile
import types
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import _pytest.pytester as _pytester
import pytest
import yaml  # noqa: F401  # see below
from _pytest.assertion.rewrite import AssertionRewritingHook

# PyYAML's C loader (yaml._yaml) cannot be imported twice in one process: an in-process pytester
# run that is the first to import yaml has it removed from sys.modules afterwards, and the next
# run's fresh yaml meets the old C module ("could not determine a constructor for the tag None" on
# every cassette). Imported here, before any inner run, yaml stays in sys.modules for them all.

TESTS_DIR = Path(__file__).resolve().parent

# The self-tests start some hundreds of Python processes (subprocess runs of the suite, their xdist
# workers, process harnesses). With PYTHONDONTWRITEBYTECODE set (as on some CI images) each of them
# compiles every module it imports from source, and pytest rewrites the asserts of every plugin
# module again: about 1.3 s of CPU a process. Their bytecode goes to one cache of the self-tests'
# own under the temporary directory (PYTHONPYCACHEPREFIX), never beside the sources or into
# site-packages; a prefix the caller chose is kept.
if os.environ.get("PYTHONDONTWRITEBYTECODE") and not os.environ.get("PYTHONPYCACHEPREFIX"):
    _PYCACHE = Path(tempfile.gettempdir()) / f"strictconformance-selftests-pycache-{getattr(os, 'getuid', lambda: 0)()}"
    os.environ.pop("PYTHONDONTWRITEBYTECODE")
    os.environ["PYTHONPYCACHEPREFIX"] = str(_PYCACHE)
    sys.pycache_prefix, sys.dont_write_bytecode = str(_PYCACHE), False

# The self-tests' workers hold a large heap (the kit, Hypothesis, the SDKs, what each in-process run
# leaves until it is collected) and make garbage fast: at CPython's default thresholds (700, 10, 10)
# the collector took 20 s of the 120 s of CPU of three test files' workers, 10 s at these (the
# youngest generation collected every 20,000 allocations, not 700). Inside an in-process run the
# kit's own freezer (strictconformance.heap) keeps the full collections cheap as in any run.
gc.set_threshold(20_000, 20, 10)

# The in-process runs of the suite (pytester) take every module they import out of sys.modules when
# they end, so each run imported Hypothesis and the kit afresh, and the old copies stayed alive: a
# module Hypothesis imports registers a gc callback and typing overloads that outlive it, and each
# held its run's assertion-rewriting hook and with it the run's whole pytest session. Imported here,
# once, they stay in sys.modules across runs. The check modules (collected as test files) and the
# SDK adapters are left out: each run still collects the checks afresh.
_NOT_PREIMPORTED = ("strictconformance.sdks", "strictconformance.bench", "strictconformance.matrix",
                    "strictconformance.record", "strictconformance.checks.test_")


def _preimport_the_kit() -> None:
    import importlib
    import pkgutil

    import hypothesis.strategies  # noqa: F401
    import hypothesis_jsonschema  # noqa: F401
    import jsonschema  # noqa: F401

    import strictconformance.strategies

    for info in [*pkgutil.walk_packages(strictconformance.__path__, "strictconformance."),
                 *pkgutil.walk_packages(strictconformance.strategies.__path__, "strictconformance.strategies.")]:
        name = info.name
        if name.endswith("__main__") or name.startswith(_NOT_PREIMPORTED):
            continue
        importlib.import_module(name)


with warnings.catch_warnings():  # the strategies read Hypothesis's unicode tables at import: expected here
    warnings.simplefilter("ignore")
    _preimport_the_kit()

# A small deterministic profile for self-test runs of the suite: enough examples for every broken
# adapter to be caught (derandomized, so always the same examples), few enough to stay quick.
_SELFTEST_CONFTEST = '''
from hypothesis import HealthCheck, Phase, settings
settings.register_profile(
    "selftest", max_examples=30, derandomize=True, database=None, deadline=None, print_blob=False,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    phases=[phase for phase in Phase if phase.name != "explain"],
)
# For runs that prove the plumbing of a run, or that an adapter fails no rule outside its own, not
# what the checks find: the main job's test runs the reference on every rule at selftest-verdict.
settings.register_profile("selftest-smoke", settings.get_profile("selftest"), max_examples=3)
# run_suite's default: for runs that prove which rules an adapter fails (the same 30 examples find
# the same failures), not what the minimal counterexample is. Shrinking a failure was about 40% of
# such a run's CPU, and on a real SDK far more (45 of the 55 s of pydantic-ai's strict transformers).
# A test that judges the shrunk counterexample, a finding the shrinker discovers (distinct defects
# found while shrinking) or the shrink budget asks for profile="selftest"; tests/test_shrinking.py
# judges the shrinking itself.
settings.register_profile("selftest-verdict", settings.get_profile("selftest"),
                          phases=[phase for phase in Phase if phase.name not in ("explain", "shrink")])
'''


# What an in-process run imports from the installed libraries (an SDK under test, libcst through
# Hypothesis's failing-example patcher, pytest plugins' hook modules) pytester took out of
# sys.modules after the run too, so every run imported it again: about 1 s of CPU per failing run
# for libcst alone, several for an SDK such as litellm. Modules of the standard library and of
# site-packages stay across runs. Still taken out as before: plugin modules a run rewrote (their
# loader is the run's assertion-rewriting hook, which holds its session), the kit's modules, the
# checks collected as test files and the modules of the tests folder or of a run's own directory.
def _library_dirs() -> tuple[str, ...]:
    import site
    import sysconfig

    paths = {sysconfig.get_paths()[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
    paths.update(site.getsitepackages())
    paths.update(path for path in sys.path if path.endswith(("site-packages", "dist-packages")))
    return tuple(os.path.join(os.path.realpath(path), "") for path in paths)


_LIBRARY_DIRS = _library_dirs()


def _from_a_library(name: str) -> bool:
    if name.split(".")[0] in ("strictconformance", "conformance", "conftest"):
        return False
    module = sys.modules.get(name)
    spec = getattr(module, "__spec__", None)
    if isinstance(getattr(spec, "loader", None), AssertionRewritingHook):
        return False  # a plugin module the run rewrote: its loader is that run's, and holds its session
    origin = getattr(spec, "origin", None) or getattr(module, "__file__", None)
    places = [origin] if isinstance(origin, str) else list(getattr(module, "__path__", None) or [])
    return bool(places) and all(isinstance(place, str) and os.path.realpath(place).startswith(_LIBRARY_DIRS)
                                for place in places)


class _KeepLibraryModules(_pytester.SysModulesSnapshot):
    def __init__(self, preserve: Callable[[str], bool] | None = None) -> None:
        # only a module the run imported is judged (the ~3,600 there before cost 75 ms a run)
        before = frozenset(sys.modules)
        super().__init__(lambda name: (name not in before and _from_a_library(name)) or bool(preserve and preserve(name)))


# pytester builds its snapshot with this class by name; tests/test_selftest_isolation.py checks
# that the libraries an inner run imported are still there after it
_pytester.SysModulesSnapshot = _KeepLibraryModules  # type: ignore[misc]


@pytest.hookimpl(tryfirst=True)
def pytest_cmdline_main(config: pytest.Config) -> None:
    """``-n`` without ``--dist`` distributes the self-tests by work stealing: a worker that runs out
    takes half of the other's queue. Under xdist's default (``load``) the first quarter of the tests
    is dealt out at the start; the worker dealt the heavier share ran 200 s alone at the end of the
    run while the other waited (measured per test on 2 cores). Not an ``addopts`` entry: a run with
    ``-p no:xdist`` would reject the option."""
    if config.getoption("numprocesses", None) and config.getoption("dist", "no") == "no":
        config.option.dist = "worksteal"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The ``slow`` self-tests first, each group in its collected order. Under ``-n`` xdist deals the
    first items out round-robin and a worker that runs out steals from the other's queue (above):
    with the slow ones first, both workers start on them, and the run ends on quick tests, which
    divide finely, not on one worker finishing a long end-to-end test while the other waits."""
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


@pytest.fixture(autouse=True)
def _no_job_summary_from_inner_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    """The self-tests run the suite hundreds of times in-process: under GitHub Actions each run
    would append its Markdown report to the job's summary. Tests of that write set it themselves."""
    monkeypatch.delenv("GITHUB_STEP_SUMMARY", raising=False)


@dataclass
class SuiteRun:
    """The outcome of one run of the suite: pytest's result and the JSON report (if written)."""

    result: pytest.RunResult
    report: dict[str, Any] | None

    @property
    def output(self) -> str:
        return "\n".join(self.result.outlines + self.result.errlines)

    def outcome(self, rule_id: str) -> str:
        assert self.report is not None, self.output
        return str(self.report["rules"][rule_id]["outcome"])

    def rules_with(self, outcome: str) -> set[str]:
        assert self.report is not None, self.output
        return {rule_id for rule_id, data in self.report["rules"].items() if data["outcome"] == outcome}

    def findings(self, rule_id: str) -> list[dict[str, Any]]:
        """Every finding of ``rule_id``'s checks, in the report's order."""
        assert self.report is not None, self.output
        return [finding for check in self.report["rules"][rule_id]["checks"] for finding in check.get("findings") or ()]


def fails_exactly(run_suite: Callable[..., SuiteRun], adapter: str, failing: set[str] | frozenset[str],
                  family: list[str], *args: str, profile: str = "selftest-verdict",
                  others_may_be_not_covered: bool = True) -> SuiteRun:
    """Run ``adapter`` on ``failing`` rules at the ``selftest-verdict`` profile (their 30 examples,
    no shrinking) and on the other rules of ``family`` at ``selftest-smoke``; assert that none of
    the others fails and return the first run, whose failures the caller judges. One run of the
    whole family at 30 examples a check cost 3-6 s of CPU per broken adapter, nearly all of it in
    the examples of rules the adapter does not break."""
    own = run_suite(adapter, "--sc-rule", ",".join(sorted(failing)), *args, profile=profile)
    others = sorted(set(family) - set(failing))
    if others:
        rest = run_suite(adapter, "--sc-rule", ",".join(others), *args, profile="selftest-smoke")
        assert rest.report is not None, rest.output
        assert not rest.rules_with("failed") | rest.rules_with("error"), rest.output
        covered = rest.rules_with("passed") | (rest.rules_with("not covered") if others_may_be_not_covered else set())
        assert covered == set(others), rest.output
    return own


def import_before_first_test(*modules: str) -> Any:
    """A module-scoped autouse fixture importing ``modules`` (those installed) before the test
    module's first test on a worker, outside the suite's in-process runs: pytester drops the
    modules a run imported when it ends, and some do not survive a second import in one process
    (PyYAML's C loader, pydantic's cached BaseModel). Not at collection: each xdist worker collects
    every test module, and these imports cost seconds of CPU a worker. Assign it to a module-level
    name in the test module."""
    import contextlib
    import importlib

    @pytest.fixture(autouse=True, scope="module")
    def _imported() -> None:
        for module in modules:
            with contextlib.suppress(ImportError):
                importlib.import_module(module)
    return _imported


def needs_node_package(package: str) -> pytest.MarkDecorator:
    """Skip, saying why, where Node or the Node harness folder's ``package`` is not installed."""
    from strictconformance.process import node_folder

    return pytest.mark.skipif(shutil.which("node") is None or not (Path(node_folder()) / "node_modules" / package).is_dir(),
                              reason=f"node or {package} is not installed (python -m strictconformance.process install-node)")


def _drop_submodules_of_finished_run() -> None:
    """After an in-process run, pytester takes the modules it imported out of ``sys.modules``, but a
    package imported before the run still names its submodules imported during it as attributes
    (``strictconformance.harness``, ``xdist.newhooks``): through them, each of those modules, its
    loader (that run's assertion-rewriting hook) and the run's whole pytest session stayed alive,
    about 200,000 objects a run, so a worker slowed down with every garbage collection. Those
    attributes are dropped; the next run imports the submodules afresh, as it did anyway.
    tests/test_selftest_isolation.py checks that no run's session outlives it."""
    live = {id(module) for module in sys.modules.values()}
    for module in list(sys.modules.values()):
        namespace = getattr(module, "__dict__", None)
        if not isinstance(namespace, dict):
            continue
        for name, value in list(namespace.items()):
            if (isinstance(value, types.ModuleType) and id(value) not in live
                    and value.__name__ == f"{module.__name__}.{name}"):
                del namespace[name]
    # Hypothesis caches, by module and by strategy, what the run's modules made (their constants,
    # strategies built from their lambdas): bounded caches, but each entry kept a whole run alive
    from hypothesis.internal.constants_ast import constants_from_module
    from hypothesis.strategies._internal.utils import clear_strategy_cache

    constants_from_module.cache_clear()
    clear_strategy_cache()


@pytest.fixture
def run_suite(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> Callable[..., SuiteRun]:
    """Run ``pytest -p strictconformance`` in a fresh directory with the tests folder importable
    (so adapters in ``tests/broken_*.py`` can be named), the ``selftest`` profile and a JSON report.

    ``run_suite(adapter, *args, subprocess=False, profile="selftest-verdict", supervised=False)``: the checks
    run in the pytest process (``--sc-in-process``) unless ``supervised`` (the default of a real run:
    one xdist worker, see tests/test_run_cannot_lie.py) or ``-n`` is given.
    """
    pytester.makeconftest(_SELFTEST_CONFTEST)
    monkeypatch.syspath_prepend(str(TESTS_DIR))
    monkeypatch.setenv("PYTHONPATH", str(TESTS_DIR))
    monkeypatch.delenv("STRICTCONFORMANCE_ADAPTER", raising=False)

    def run(adapter: str | None = None, *args: str, subprocess: bool = False, profile: str | None = "selftest-verdict",
            supervised: bool = False) -> SuiteRun:
        report_path = pytester.path / "sc-report.json"
        if report_path.exists():
            report_path.unlink()
        # langsmith's pytest plugin (installed with langchain-core) costs ~0.65 s of CPU at every
        # start of a pytest process and is nothing the kit's runs use
        argv = ["-p", "strictconformance", "-p", "no:cacheprovider", "-p", "no:langsmith_plugin", "--sc-report", str(report_path)]
        if not subprocess:  # in-process, the kit is imported already: nothing to rewrite
            argv += ["-W", "ignore::pytest.PytestAssertRewriteWarning"]
        if adapter is not None:
            argv += ["--sc-adapter", adapter]
        if not any(arg.startswith("--sc-call-timeout") for arg in args):
            # a generous bound: on a shared runner at load 12 a correct strictify of a big schema
            # outlived the 10 s default; tests about timeouts pass their own
            argv += ["--sc-call-timeout", "120"]
        if not supervised:
            argv.append("--sc-in-process")
        if profile is not None:
            argv += ["--hypothesis-profile", profile]
        argv += list(args)
        if subprocess:
            result = pytester.runpytest_subprocess(*argv)
        else:
            result = pytester.runpytest_inprocess(*argv)
            _drop_submodules_of_finished_run()
        report = json.loads(report_path.read_text()) if report_path.exists() else None
        return SuiteRun(result, report)

    return run

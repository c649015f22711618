"""The pytest plugin: ``pytest -p strictconformance``.

Installed, the plugin is always registered (pytest11 entry point) but stays inert: it adds its
options and the ``sc_rule`` marker, nothing else. The suite runs when ``-p strictconformance`` is
given (on the command line, in ``addopts`` or ``PYTEST_ADDOPTS``) or an adapter is named with
``--sc-adapter``. Then it loads the adapter, validates its declarations, selects the Hypothesis
profile, collects the checks (alone when no paths are given, beside them otherwise), renders
failures with their rule, counterexample, adapter calls and replay command, and prints the
conformance report (and writes it as JSON with ``--sc-report``).
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import importlib
import json
import os
import shlex
import sys
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest

if sys.version_info < (3, 11):  # pragma: no cover
    from exceptiongroup import BaseExceptionGroup

# Nothing of the kit (Hypothesis, pydantic, jsonschema, the dialects, the tool layer) is imported
# here: this module is loaded by every pytest run in every project where the kit is installed. The
# kit is imported inside the hooks, once the suite is active (tests/test_light_plugin.py keeps it so).
if TYPE_CHECKING:
    from collections.abc import Callable

    from strictconformance.adapter import Declarations
    from strictconformance.harness import Harness
    from strictconformance.report import ConformanceReport

__all__ = ["ADAPTER_ENV", "DEFAULT_ADAPTER", "active_declarations"]

#: Environment variable naming the adapter (``module:attribute``).
ADAPTER_ENV = "STRICTCONFORMANCE_ADAPTER"
#: The adapter used when none is named: the reference implementation.
DEFAULT_ADAPTER = "strictconformance.reference:ReferenceAdapter"
CHECKS_DIR = Path(__file__).resolve().parent / "checks"
_PROPERTY = "strictconformance"


def worker_property(value: dict[str, Any]) -> str | dict[str, Any]:
    """A check's result as it travels on its report (from an xdist worker to the controller): JSON
    text, because execnet cannot carry every JSON number (an int below -2**31 fails its
    serializer: zod's advertised integer bounds are -(2**53 - 1)); the dict itself if JSON cannot."""
    try:
        return json.dumps(value)
    except (TypeError, ValueError, RecursionError):
        return value
#: The testcase property carrying the rule ID in JUnit XML (--junitxml), for dashboards to group by.
_JUNIT_RULE = "sc_rule"
#: ... and the address of the rule's page on the documentation site.
_JUNIT_RULE_URL = "sc_rule_url"
#: What Hypothesis's note repeating the failing example as a Python call starts with (6.170 writes
#: "Failing test case" / "Failing explicit example", releases before it "Falsifying ...").
_EXAMPLE_NOTES = ("Failing test case", "Failing explicit example", "Falsifying example", "Falsifying explicit example")
#: Why a check of a selected rule has no result at the end of a run.
_NO_RESULT = ("selected, but no result came back: the run stopped before it (-x, --maxfail, an interrupt) "
              "or the xdist worker running it died")


class _Crash:
    """What pytest's short summary and junitxml read from a failure: its first line."""

    def __init__(self, message: str) -> None:
        self.message = message
        self.path, self.lineno = "", 0


def _smallest_of_each(failures: list[Any]) -> list[Any]:
    """Each finding once, from its smallest counterexample, where it first appears: Hypothesis
    reports a check's failures largest first, and one defect can be in several of them (a trap
    loop's example shows a group of defects, each also shrunk to an example of its own)."""
    from strictconformance.findings import repeat_key
    from strictconformance.harness import identity_of

    chosen: dict[Any, tuple[float, Any]] = {}
    for failure in failures:
        try:
            key: Any = repeat_key(failure, identity_of(failure))  # the failure has the finding's key and origin
        except Exception:  # a failure that cannot say its key is its own finding
            key = id(failure)
        try:
            size: float = len(json.dumps(failure.drawn, default=repr))
        except Exception:  # drawn junk whose repr raises: kept, as the largest
            size = float("inf")
        if key not in chosen or size < chosen[key][0]:
            chosen[key] = (size, failure)
    return [failure for _, failure in chosen.values()]


class _FailureText:
    """A check's failure block as a longrepr: printed whole in the failures section, summarised
    by its first line in the short test summary (a plain string is repeated whole there under CI)."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.reprcrash = _Crash(text.split("\n", 1)[0])

    def toterminal(self, tw: Any) -> None:
        for line in self.text.split("\n"):
            tw.line(line)

    def __str__(self) -> str:
        return self.text


@dataclass
class _State:
    harness: Harness
    report: ConformanceReport
    adapter_path: str
    profile_arg: list[str]
    previous_profile: str
    report_path: str | None
    selected_rules: tuple[str, ...]
    notes: list[str] = field(default_factory=list)
    setup_errors: dict[str, str] = field(default_factory=dict)  # nodeid -> why the check cannot run
    not_covered: dict[str, str] = field(default_factory=dict)  # nodeid -> why the check does not apply
    findings_dir: Path | None = None  # where counterexamples too big to show are written whole
    run_seed: int | None = None  # a random run's seed (--sc-seed): each check draws from its own, derived from it
    watchdog: Any = None  # strictconformance.watchdog.Watchdog, on the process supervising workers
    watch_dir: str | None = None  # its beacons' folder
    supervised: bool = False  # the checks run in one xdist worker the plugin asked for
    check_budget: str = ""  # --sc-check-budget (or ini): limits over the profile's
    run_budget: float | None = None  # --sc-run-budget (or ini); None: the profile's
    run_cpu_here: float = 0.0  # CPU seconds the checks run in this process used
    run_cpu_reported: float = 0.0  # CPU seconds of the checks whose results reached this process
    run_budget_flag: str | None = None  # a file the supervising process creates when the run budget is spent
    journal: Any = None  # strictconformance.report.ReportJournal, on the process writing the report


_STATE = pytest.StashKey[_State]()


def active_declarations(config: pytest.Config) -> Declarations | None:
    """The validated declarations of this run's adapter, or None when the suite is not active
    (in each xdist worker too: each loads the adapter itself). The checks read the same through
    :func:`strictconformance.harness.active_declarations`: they sit below the plugin."""
    state = config.stash.get(_STATE, None)
    return None if state is None else state.harness.declarations


def pytest_addoption(parser: pytest.Parser) -> None:
    from strictconformance.profiles import PROFILE_NAMES  # a light module: names only

    group = parser.getgroup("strictconformance", "strictconformance: conformance suite for strict mode in LLM SDKs")
    group.addoption("--sc-adapter", metavar="MODULE:ATTR", default=None,
                    help=f"adapter to check (an Adapter subclass or instance). Also ini sc_adapter and "
                         f"${ADAPTER_ENV}. Default: the reference implementation, {DEFAULT_ADAPTER}.")
    parser.addini("sc_adapter", "strictconformance adapter, module:attribute", default=None)
    group.addoption("--sc-adapter-cmd", metavar="COMMAND", default=None,
                    help="check a harness process speaking strictconformance-process/1 instead of a Python "
                         "adapter, e.g. \"node harness.mjs\" (README: Process harnesses)")
    group.addoption("--sc-report", metavar="PATH", default=None,
                    help="write the conformance report as JSON to PATH (also ini sc_report)")
    parser.addini("sc_report", "strictconformance: write the JSON report to this path", default=None)
    group.addoption("--sc-markdown", metavar="PATH", default=None,
                    help="write the report as Markdown to PATH; it is also appended to $GITHUB_STEP_SUMMARY when that is set")
    group.addoption("--sc-profile", choices=PROFILE_NAMES, default=None,
                    help="Hypothesis profile: dev (default), ci (derandomized; the default when CI is set), "
                         "nightly (many random examples, example database). --hypothesis-profile works too.")
    parser.addini("sc_profile", "strictconformance: Hypothesis profile (dev, ci, nightly)", default=None)
    group.addoption("--sc-seed", type=int, default=None, metavar="N",
                    help="the seed of a random run (dev, nightly): each check draws from a seed of its own derived "
                         "from N, and the example database stays on (--hypothesis-seed turns it off). Default: a "
                         "fresh one, recorded in the report and in every replay command.")
    group.addoption("--sc-rule", action="append", default=[], metavar="ID",
                    help="run only the checks of these rules: IDs (RES-1) or areas (BUD); repeat or comma-separate")
    group.addoption("--sc-call-timeout", type=float, default=None, metavar="SECONDS",
                    help="fail an adapter call that used this many seconds of CPU, or ran 6 times as long on the clock "
                         "(default 10; 0 disables the watchdog)")
    parser.addini("sc_call_timeout", "strictconformance: adapter call timeout in seconds", default=None)
    group.addoption("--sc-check-budget", metavar="LIMITS", default=None,
                    help="what one check may spend before it ends with the findings it has: cpu=SECONDS (CPU, not the "
                         "clock), examples=N, calls=N (adapter calls), comma-separated; 0 is no limit; unnamed limits are "
                         "the profile's (dev and ci: cpu=60,examples=5000,calls=50000)")
    parser.addini("sc_check_budget", "strictconformance: a check's limits, e.g. cpu=60,examples=5000", default=None)
    group.addoption("--sc-run-budget", type=float, default=None, metavar="SECONDS",
                    help="CPU seconds all checks of the run may spend; checks not started when it is spent are reported "
                         "'not judged: run budget exhausted' (default: the profile's, 1800 under dev and ci, none under nightly; 0 is no limit)")
    parser.addini("sc_run_budget", "strictconformance: the run's CPU seconds over all checks", default=None)
    group.addoption("--sc-corpus", metavar="DIR", default=None,
                    help="also run every *.json JSON Schema under DIR (your own tool schemas) as a case of "
                         "the strictify checks, each its own test item per rule and dialect")
    group.addoption("--sc-allow-empty", action="store_true", default=False,
                    help="exit 0 from a run in which no selected check was judged (every one not covered, skipped or "
                         "not judged); by default such a run fails, since it says nothing about the adapter")
    group.addoption("--sc-in-process", action="store_true", default=False,
                    help="run the checks in this pytest process (needed for --pdb). By default a run without "
                         "-n N runs them in one supervised child process (an xdist worker), so an adapter that "
                         "ends its process (os._exit, a crash, a kill) or hangs holding the GIL fails the run "
                         "instead of ending it with exit code 0 and no report.")


def _is_active(config: pytest.Config) -> bool:
    plugins = config.getoption("plugins", default=None) or []
    requested = any(name in ("strictconformance", "strictconformance.plugin") for name in plugins)
    return requested or bool(config.getoption("sc_adapter")) or bool(config.getoption("sc_adapter_cmd"))


def _import_adapter(path: str, invocation_dir: Path) -> Any:
    from strictconformance.adapter import AdapterContractError, load_adapter

    try:
        return load_adapter(path)
    except AdapterContractError as error:
        module = path.partition(":")[0].split(".")[0]
        cause = error.__cause__
        if isinstance(cause, ModuleNotFoundError) and cause.name == module and str(invocation_dir) not in sys.path:
            # `pytest` (unlike `python -m pytest`) does not put the current directory on sys.path.
            sys.path.insert(0, str(invocation_dir))
            return load_adapter(path)
        raise


def _load_process_adapter(command: str) -> Any:
    from strictconformance.process import ProcessAdapter

    return ProcessAdapter(command)


def _selected_rules(config: pytest.Config) -> tuple[str, ...]:
    from strictconformance.spec import all_rules

    wanted = tuple(part.strip() for value in config.getoption("sc_rule") for part in value.split(",") if part.strip())
    known = all_rules()
    for token in wanted:
        if token not in known and not any(rule_id.startswith(token + "-") for rule_id in known):
            raise pytest.UsageError(f"strictconformance: --sc-rule {token!r} matches no rule; known: {', '.join(known)}")
    return wanted


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "sc_rule(rule_id): the strictconformance rule a check belongs to")
    if not _is_active(config):
        return
    _remove_stale_reports(config)
    # The suite is active: now, and only now, the kit is imported.
    from hypothesis import settings

    from strictconformance.adapter import AdapterContractError, error_text, read_declarations
    from strictconformance.checkbudget import Limits, parse_limits
    from strictconformance.harness import ACTIVE_HARNESS, Harness
    from strictconformance.profiles import PROFILE_NAMES, examples_directory, register_profiles
    from strictconformance.report import ConformanceReport

    adapter_path = (config.getoption("sc_adapter") or os.environ.get(ADAPTER_ENV)
                    or config.getini("sc_adapter") or DEFAULT_ADAPTER)
    adapter_cmd = config.getoption("sc_adapter_cmd")
    if adapter_cmd:
        adapter_path = adapter_cmd
    try:
        adapter = _load_process_adapter(adapter_cmd) if adapter_cmd else _import_adapter(adapter_path, config.invocation_params.dir)
        declarations: Declarations = read_declarations(adapter, adapter_path)
    except AdapterContractError as error:
        raise pytest.UsageError(f"strictconformance: {error}") from None
    except Exception as error:  # an adapter odd in a way read_declarations does not foresee: still no INTERNALERROR
        raise pytest.UsageError(f"strictconformance: reading the declarations of adapter {adapter_path!r} "
                                f"raised {error_text(error)}") from None

    # Profiles: ours are registered before Hypothesis's plugin reads --hypothesis-profile.
    previous_profile = settings.get_current_profile_name()
    from strictconformance import shrinking

    shrinking.install()  # a deterministic shrink budget for the checks under `ci` (see the module)
    from strictconformance import checkbudget

    checkbudget.install()  # a check ends when its budget (examples, calls, CPU seconds) is spent
    try:
        register_profiles(adapter_path, examples_directory(config.invocation_params.dir))
    except ValueError as error:  # a bad $STRICTCONFORMANCE_NIGHTLY_EXAMPLES
        raise pytest.UsageError(f"strictconformance: {error}") from None
    profile = config.getoption("sc_profile") or config.getini("sc_profile") or None
    if profile and profile not in PROFILE_NAMES:
        raise pytest.UsageError(f"strictconformance: sc_profile must be one of {PROFILE_NAMES}, got {profile!r}")
    profile_arg: list[str] = []
    if profile:
        settings.load_profile(profile)
        profile_arg = ["--sc-profile", profile]
    elif config.getoption("hypothesis_profile", default=None):
        profile_arg = ["--hypothesis-profile", config.getoption("hypothesis_profile")]
    elif previous_profile == "ci" or _in_ci():
        # Hypothesis loads its `ci` at import when CI is set; a CI variable set after that import
        # (a test harness, an in-process run) is read here, so a CI run is derandomized either way
        settings.load_profile("ci")
    else:
        settings.load_profile("dev")

    timeout = config.getoption("sc_call_timeout")
    if timeout is None:
        raw = config.getini("sc_call_timeout")
        try:
            timeout = float(raw) if raw not in (None, "") else 10.0
        except ValueError:
            raise pytest.UsageError(f"strictconformance: sc_call_timeout must be a number of seconds, got {raw!r}") from None
    check_budget = config.getoption("sc_check_budget") or config.getini("sc_check_budget") or ""
    try:
        parse_limits(check_budget, Limits())
    except ValueError as error:
        raise pytest.UsageError(f"strictconformance: --sc-check-budget {check_budget!r}: {error}") from None
    run_budget = config.getoption("sc_run_budget")
    if run_budget is None and config.getini("sc_run_budget") not in (None, ""):
        try:
            run_budget = float(config.getini("sc_run_budget"))
        except ValueError:
            raise pytest.UsageError(f"strictconformance: sc_run_budget must be a number of CPU seconds, "
                                    f"got {config.getini('sc_run_budget')!r}") from None
    if run_budget is not None and run_budget < 0:
        raise pytest.UsageError(f"strictconformance: --sc-run-budget {run_budget:g}: CPU seconds, 0 or more (0 is no limit)")
    harness = Harness(adapter, declarations, call_timeout=timeout)
    report = ConformanceReport(adapter=declarations.as_json(), profile="")
    report_path = config.getoption("sc_report") or config.getini("sc_report") or None
    if report_path and not Path(report_path).resolve().parent.is_dir():
        raise pytest.UsageError(f"strictconformance: --sc-report {report_path!r}: its directory does not exist")
    controller = not hasattr(config, "workerinput")
    supervised = controller and _supervise_in_child(config)
    if controller:
        named = profile_arg[1] if profile_arg and profile_arg[0] == "--hypothesis-profile" else None
        try:
            derandomized = settings.get_profile(named or settings.get_current_profile_name()).derandomize
        except Exception:  # an unknown --hypothesis-profile: Hypothesis's plugin says so
            derandomized = False
        run_seed = _choose_seed(config, derandomized)
    else:
        run_seed = _take_controller_seed(config)
    state = _State(
        harness=harness,
        report=report,
        adapter_path=adapter_path,
        profile_arg=profile_arg,
        previous_profile=previous_profile,
        report_path=report_path,
        selected_rules=_selected_rules(config),
    )
    state.run_seed = run_seed
    state.check_budget, state.run_budget = check_budget, run_budget
    config.stash[_STATE] = state
    config.stash[ACTIVE_HARNESS] = harness  # the checks' collection hooks read it (harness.active_declarations)
    state.supervised = supervised
    if supervised:
        config.pluginmanager.register(_QuietWorker(), "strictconformance-quiet-worker")
    _start_watchdog(state, config, controller, timeout)
    _share_run_budget(state, config, controller)
    run = _ConformanceRun(state, config.rootpath)
    config.pluginmanager.register(run, "strictconformance-run")
    # the frozen heap is handed back as the config is torn down. The cleanups run last-registered
    # first, and this pytest_configure is tryfirst: this one runs after those of the plugins
    # configured later, among them pytest's unraisable-exception plugin, which collects five times
    # (on a frozen heap, cheaply; thawed first, those walks cost about 2 s on the reference's run)
    config.add_cleanup(run.freezer.stop)

    # Collect the suite: alone when no paths were given, beside the user's paths otherwise.
    if config.args_source != pytest.Config.ArgsSource.ARGS:
        config.args = [str(CHECKS_DIR)]
    elif not any(_names_a_check(arg) for arg in config.args):
        config.args.append(str(CHECKS_DIR))


def _remove_stale_reports(config: pytest.Config) -> None:
    """Remove the reports (--sc-report, --sc-markdown) of an earlier run before anything can fail: a
    run that ends before writing its own (an adapter that cannot be loaded, a harness whose handshake
    fails, bad declarations, a process that ends mid-run) must not leave the last run's passing report
    where a CI step would upload it as this run's."""
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    paths = (config.getoption("sc_report") or config.getini("sc_report") or None, config.getoption("sc_markdown", None))
    for path in filter(None, paths):
        target = Path(path)
        if target.is_file() or target.is_symlink():
            try:
                target.unlink()
            except OSError as error:
                raise pytest.UsageError(f"strictconformance: {path}: the report of an earlier run cannot be removed "
                                        f"({error}); this run's would not replace it") from None


def _names_a_check(arg: str) -> bool:
    """Whether a path argument names the kit's checks: a path under them, or (with --pyargs, as
    replay commands do) ``strictconformance.checks.MODULE::TEST``."""
    target = arg.split("::")[0].split("[")[0]
    if target == "strictconformance.checks" or target.startswith("strictconformance.checks."):
        return True
    return Path(target).resolve().is_relative_to(CHECKS_DIR)


def _supervise_in_child(config: pytest.Config) -> bool:
    """Run the checks in one xdist worker when the run has none (no -n, or -n 0): an adapter that
    ends the process or wedges it then costs a worker, which the controller reports as an error of
    the check it was running, and the run cannot exit 0. Not with --sc-in-process, --pdb, --trace,
    --collect-only, or without pytest-xdist (-p no:xdist)."""
    if (config.getoption("sc_in_process") or config.getoption("usepdb", False) or config.getoption("trace", False)
            or config.option.collectonly or not config.pluginmanager.hasplugin("xdist")):
        return False
    if getattr(config.option, "dist", "no") != "no" or getattr(config.option, "tx", None):
        return False  # the user distributes the run already
    config.option.numprocesses = 1
    config.option.dist = "load"
    config.option.tx = ["popen"]
    return True


class _QuietWorker:
    """With the one worker the plugin asked for, failures are shown as in a run without xdist: no
    "[gw0] linux -- Python ..." line (pytest prints it for a report that carries its worker)."""

    @pytest.hookimpl(trylast=True)
    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        if hasattr(report, "node"):
            del report.node


def _start_watchdog(state: _State, config: pytest.Config, controller: bool, timeout: float) -> None:
    """The run-level watchdog: the supervising process (the xdist controller) watches the beacons
    its workers keep of their adapter calls; a worker keeps one when the controller asks (the
    folder in its environment). Without workers (--sc-in-process) there is nobody to watch."""
    from strictconformance.watchdog import WATCH_DIR_ENV, Beacon, Watchdog

    if not controller:
        folder = os.environ.get(WATCH_DIR_ENV)
        if folder and Path(folder).is_dir():
            state.harness.beacon = Beacon(folder)
        return
    if timeout <= 0 or getattr(config.option, "dist", "no") == "no" or config.option.collectonly:
        return
    import tempfile

    state.watch_dir = tempfile.mkdtemp(prefix="strictconformance-watch-")
    os.environ[WATCH_DIR_ENV] = state.watch_dir  # the workers, started after configure, inherit it
    state.watchdog = Watchdog(state.watch_dir, timeout)


#: Environment variable naming the file the supervising process creates when the run budget is spent.
RUN_BUDGET_FLAG_ENV = "STRICTCONFORMANCE_RUN_BUDGET_SPENT"


def _share_run_budget(state: _State, config: pytest.Config, controller: bool) -> None:
    """With xdist workers, the supervising process adds up the CPU of every finished check and
    creates a file when the run's budget is spent; the workers look for it before each check."""
    if not controller:
        state.run_budget_flag = os.environ.get(RUN_BUDGET_FLAG_ENV) or None
        return
    os.environ.pop(RUN_BUDGET_FLAG_ENV, None)  # never an outer run's
    if getattr(config.option, "dist", "no") == "no" or config.option.collectonly:
        return
    import tempfile

    state.run_budget_flag = os.path.join(tempfile.mkdtemp(prefix="strictconformance-run-"), "spent")
    os.environ[RUN_BUDGET_FLAG_ENV] = state.run_budget_flag  # the workers, started after configure, inherit it


#: The seed the controller chose, for its xdist workers: they parse the command line again and
#: never see an option the controller set, but they are started after configure and inherit this.
SEED_ENV = "STRICTCONFORMANCE_RUN_SEED"


def _choose_seed(config: pytest.Config, derandomized: bool) -> int | None:
    """A random run's seed (``--sc-seed``, or a fresh one), so the report records it and replays
    name it; the workers (the supervised child included) take it from ``SEED_ENV``. It is never
    Hypothesis's global seed: with ``--hypothesis-seed`` Hypothesis keeps no example database, so a
    failure found tonight would not be tried first tomorrow (profiles.check_seed)."""
    os.environ.pop(SEED_ENV, None)  # never an outer run's seed
    given: int | None = config.getoption("sc_seed")
    if config.getoption("hypothesis_seed", default=None) is not None:
        if given is not None:
            raise pytest.UsageError("strictconformance: give --sc-seed or --hypothesis-seed, not both "
                                    "(--sc-seed keeps the example database, --hypothesis-seed turns it off)")
        return None  # the user's choice: Hypothesis's global seed, as Hypothesis documents it
    if derandomized:
        if given is not None:
            raise pytest.UsageError("strictconformance: --sc-seed seeds a random profile (dev, nightly); "
                                    "this run's profile is derandomized, so it tries the same examples without one")
        return None
    if given is None:
        import random

        given = random.SystemRandom().randrange(2**32)
    os.environ[SEED_ENV] = str(given)
    return given


def _take_controller_seed(config: pytest.Config) -> int | None:
    """In an xdist worker: the seed the controller chose and reports."""
    seed = os.environ.get(SEED_ENV)
    return int(seed) if seed else None


def _seed_check(item: pytest.Item, run_seed: int) -> Callable[[], None]:
    """Give a Hypothesis check its own seed for this call (``@seed``'s attribute, which Hypothesis
    reads before its global seed and which leaves the example database on); returns the undo (a
    check function is shared by its parametrized items and by later runs in this process)."""
    from strictconformance.profiles import check_seed

    test = getattr(getattr(item, "obj", None), "__func__", getattr(item, "obj", None))
    if getattr(test, "hypothesis", None) is None:  # not a Hypothesis test: nothing drawn
        return lambda: None
    name = f"{item.path.stem}::{item.name}" if item.path.parent == CHECKS_DIR else item.nodeid  # as a replay names it
    before = test._hypothesis_internal_use_seed  # type: ignore[union-attr]
    test._hypothesis_internal_use_seed = check_seed(run_seed, name)  # type: ignore[union-attr]

    def undo() -> None:
        test._hypothesis_internal_use_seed = before  # type: ignore[union-attr]

    return undo


def pytest_collect_file(file_path: Path, parent: pytest.Collector) -> pytest.Module | None:
    # The checks are collected even where the project's python_files would not match them.
    state = parent.config.stash.get(_STATE, None)
    if state is None or file_path.parent != CHECKS_DIR or not file_path.name.startswith("test_") or file_path.suffix != ".py":
        return None
    from fnmatch import fnmatch

    if any(fnmatch(file_path.name, pattern) for pattern in parent.config.getini("python_files")):
        return None  # the python plugin collects it already
    return pytest.Module.from_parent(parent, path=file_path)


@pytest.fixture(scope="session")
def strictconformance_harness(request: pytest.FixtureRequest) -> Harness:
    """The conformance harness: the adapter under test and guarded calls into it."""
    state = request.config.stash.get(_STATE, None)
    if state is None:
        pytest.skip("the strictconformance suite is not active (run pytest -p strictconformance)")
    return state.harness


def _rule_of(item: pytest.Item) -> str | None:
    marker = item.get_closest_marker("sc_rule")
    return str(marker.args[0]) if marker is not None and marker.args else None


def _check_rule(nodeid: str, rootpath: Path) -> str | None:
    """The rule of the kit's check ``nodeid``, from its function's ``sc_rule`` marker; None when
    ``nodeid`` is not one of the kit's checks. For the xdist controller, which collects nothing."""
    path, _, rest = nodeid.partition("::")
    function = rest.rpartition("::")[2].partition("[")[0]
    if not function:
        return None
    located = Path(path)
    for base in (rootpath, CHECKS_DIR):  # pytest names a file outside the rootdir from its initial path
        candidate = (base / located).resolve()
        if candidate.is_file():
            if candidate.parent != CHECKS_DIR:
                return None
            return _marked_rule(candidate.stem, function)
    return None


@functools.cache
def _marked_rule(module: str, function: str) -> str | None:
    try:
        target = getattr(importlib.import_module(f"strictconformance.checks.{module}"), function, None)
    except Exception:  # a broken check module: its workers report that themselves
        return None
    return _function_rule(target)


def _function_rule(function: object) -> str | None:
    """The rule of a check function, from its own ``sc_rule`` marker (None when it has none)."""
    for mark in getattr(function, "pytestmark", ()) if callable(function) else ():
        if getattr(mark, "name", None) == "sc_rule" and mark.args:
            return str(mark.args[0])
    return None


def _rule_selected(rule_id: str, selected: tuple[str, ...]) -> bool:
    return not selected or any(rule_id == token or rule_id.startswith(token + "-") for token in selected)


def _skip_reason(report: pytest.TestReport) -> str:
    longrepr = report.longrepr
    if isinstance(longrepr, tuple) and len(longrepr) == 3:
        return str(longrepr[2]).removeprefix("Skipped: ")
    return str(longrepr or "")


def _in_ci() -> bool:
    """Whether this is a CI run, as Hypothesis tells (a ``CI`` or ``TF_BUILD`` variable)."""
    return "CI" in os.environ or "TF_BUILD" in os.environ


def _is_check_error(error: BaseException) -> bool:
    """Whether ``error`` ended the check itself, not a judgement of the adapter: a Hypothesis
    health check or another Hypothesis usage error (it carries no counterexample)."""
    from hypothesis.errors import FailedHealthCheck, HypothesisException

    return isinstance(error, (FailedHealthCheck, HypothesisException))


def _kit_frame(error: BaseException) -> str:
    """" (at strictconformance/<file>:<line> in <function>)": where in the kit ``error`` was raised."""
    import traceback

    frames = traceback.extract_tb(error.__traceback__) if error.__traceback__ is not None else []
    kit = str(CHECKS_DIR.parent)
    for frame in reversed(frames):
        if frame.filename.startswith(kit):
            return f" (at strictconformance/{Path(frame.filename).relative_to(kit).as_posix()}:{frame.lineno} in {frame.name})"
    if frames:
        return f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno} in {frames[-1].name})"
    return ""


def _not_judged(counts: dict[str, Any]) -> str:
    refused, crashed = sum(counts["refused"].values()), sum(counts["crashed"].values())
    invalid = sum(counts.get("invalid_input", {}).values())
    parts = []
    if refused:
        parts.append(f"refused {refused} ({', '.join(sorted(counts['refused']))}, declared refusals)")
    if crashed:
        parts.append(f"crashed on {crashed} ({', '.join(sorted(counts['crashed']))}: RT-1 reports each crash)")
    if invalid:
        parts.append(f"raised on {invalid} that are not usable schemas ({', '.join(sorted(counts['invalid_input']))}: the reference refuses them too)")
    return (f"strictify gave no output to judge: of {refused + crashed + invalid} schemas it {' and '.join(parts)}; "
            "the rule is not passed")


class _ConformanceRun:
    """The hooks of one active run; registered on the config, so its state dies with the run."""

    def __init__(self, state: _State, rootpath: Path) -> None:
        from strictconformance.heap import Freezer

        self.state = state
        self.rootpath = rootpath
        #: the heap frozen between checks (strictconformance.heap: a quarter of a run's CPU was the
        #: collector walking, again and again, what the run keeps alive)
        self.freezer = Freezer()

    @pytest.hookimpl(tryfirst=True)  # before the loop's own implementation (xdist's, in a worker)
    def pytest_runtestloop(self, session: pytest.Session) -> None:
        # thawed by a cleanup of the config (pytest_configure): after pytest's own last collections
        self.freezer.start()

    def pytest_runtest_logfinish(self, nodeid: str, location: tuple[str, int | None, str]) -> None:
        self.freezer.after_check()

    def pytest_unconfigure(self, config: pytest.Config) -> None:
        from hypothesis import settings

        self.state.harness.close()
        if config.getoption("sc_adapter_cmd"):  # the harness process ends with the run
            self.state.harness.adapter.close()  # type: ignore[attr-defined]
        settings.load_profile(self.state.previous_profile)
        if self.state.watchdog is not None:
            import shutil

            from strictconformance.watchdog import WATCH_DIR_ENV

            self.state.watchdog.stop()
            os.environ.pop(WATCH_DIR_ENV, None)
            shutil.rmtree(str(self.state.watch_dir), ignore_errors=True)
        if self.state.run_budget_flag and not hasattr(config, "workerinput"):
            import shutil

            shutil.rmtree(os.path.dirname(self.state.run_budget_flag), ignore_errors=True)
            os.environ.pop(RUN_BUDGET_FLAG_ENV, None)
        if self.state.journal is not None:
            self.state.journal.close()
        if self.state.run_seed is not None and not hasattr(config, "workerinput"):
            os.environ.pop(SEED_ENV, None)  # the next run in this process (pytester) chooses its own

    def pytest_report_header(self, config: pytest.Config) -> str | None:
        if self.state.supervised:
            return "strictconformance: checks run in a supervised child process (--sc-in-process runs them in this one)"
        return None

    def pytest_sessionstart(self, session: pytest.Session) -> None:
        from hypothesis import settings

        from strictconformance.checkbudget import Limits, parse_limits
        from strictconformance.profiles import check_limits, run_budget

        state = self.state
        state.report.profile = profile = settings.get_current_profile_name()
        seed = state.run_seed
        if seed is None:
            seed = session.config.getoption("hypothesis_seed", default=None)
        state.report.seed = None if seed is None else str(seed)
        state.harness.check_limits = parse_limits(state.check_budget, Limits(**check_limits(profile)))  # type: ignore[arg-type]
        if state.run_budget is None:
            state.run_budget = run_budget(profile)
        self._start_journal(session)

    def _start_journal(self, session: pytest.Session) -> None:
        """On the process writing the report: the report, marked incomplete, and its journal, to
        which each check's result is added as it finishes (``report.ReportJournal``)."""
        state = self.state
        if not state.report_path or hasattr(session.config, "workerinput") or session.config.option.collectonly:
            return
        from strictconformance.report import ReportJournal, journal_path

        journal = journal_path(state.report_path)
        try:
            state.journal = ReportJournal(journal)
            state.journal.run(state.report)
            state.report.write_json(state.report_path, complete=False, journal=os.path.basename(journal))
        except OSError as error:
            state.notes.append(f"ERROR: could not start the report's journal {journal}: {error}")
            if state.journal is not None:
                state.journal.close()
            state.journal = None

    def _journal_check(self, nodeid: str) -> None:
        journal = self.state.journal
        result = self.state.report.checks.get(nodeid)
        if journal is None or result is None:
            return
        try:
            journal.check(result)
        except (OSError, ValueError) as error:  # a full disk: the final report is still written
            self.state.notes.append(f"ERROR: could not write to the report's journal {journal.path}: {error}")
            journal.close()
            self.state.journal = None

    def _journal_expected(self, nodeids: list[str]) -> None:
        if self.state.journal is None:
            return
        checks = {nodeid: self.state.report.checks[nodeid].rule_id for nodeid in nodeids if nodeid in self.state.report.checks}
        try:
            self.state.journal.expected(checks)
        except (OSError, ValueError) as error:
            self.state.notes.append(f"ERROR: could not write to the report's journal {self.state.journal.path}: {error}")
            self.state.journal.close()
            self.state.journal = None

    @pytest.hookimpl(tryfirst=True)
    def pytest_pycollect_makeitem(self, collector: pytest.Collector, name: str, obj: object) -> list[pytest.Item] | None:
        """A check whose rule ``--sc-rule`` leaves out makes no item at all: its cases and dialects
        are never generated (a run of one rule used to build all ~4,800 items, then deselect them)."""
        selected = self.state.selected_rules
        if not selected or getattr(collector, "path", None) is None or Path(collector.path).parent != CHECKS_DIR:
            return None
        rule_id = _function_rule(obj)
        return [] if rule_id is not None and not _rule_selected(rule_id, selected) else None

    def pytest_collection_modifyitems(self, config: pytest.Config, items: list[pytest.Item]) -> None:
        from strictconformance.harness import ConformanceFailure
        from strictconformance.spec import all_rules

        state = self.state
        rules = all_rules()
        declarations = state.harness.declarations
        kept: list[pytest.Item] = []
        deselected: list[pytest.Item] = []
        matched_expectations: set[str] = set()
        for item in items:
            rule_id = _rule_of(item)
            if rule_id is None:
                kept.append(item)
                continue
            if not _rule_selected(rule_id, state.selected_rules):
                deselected.append(item)
                continue
            kept.append(item)
            rule = rules.get(rule_id)
            if rule is None:
                state.not_covered[item.nodeid] = f"rule {rule_id} is not in this kit's specification"
                continue
            if not set(rule.capabilities) & declarations.judged_capabilities:
                needed = " or ".join(f"{method}()" for method in rule.capabilities)
                state.not_covered[item.nodeid] = f"the adapter does not implement {needed}"
                continue
            marker = item.get_closest_marker("sc_rule")
            requires = marker.kwargs.get("requires") if marker is not None else None
            try:
                missing = requires(declarations) if requires is not None else None
            except Exception as exc:  # a kit bug or a broken kit file: this check errors, the run goes on
                self.state.setup_errors[item.nodeid] = (f"strictconformance could not decide whether {item.name} applies to "
                                                       f"this adapter: {type(exc).__name__}: {exc}")
                continue
            if missing:
                state.not_covered[item.nodeid] = str(missing)
                continue
            if rule_id in declarations.expected_failures:
                matched_expectations.add(rule_id)
                # strict per rule, not per check: a check of the rule that passes is an XPASS, and the
                # rule fails only when none of its checks meets the expectation (_settle_expected_failures).
                # Only a finding meets it: an error of the check, of the kit or of the adapter's setup
                # stays an error (pytest would turn any exception into an xfail)
                item.add_marker(pytest.mark.xfail(strict=False, raises=(ConformanceFailure, AssertionError, BaseExceptionGroup),
                                                  reason=f"expected failure: {declarations.expected_failures[rule_id]}"))
        if deselected:
            config.hook.pytest_deselected(items=deselected)
            items[:] = kept
        for rule_id in sorted(set(declarations.expected_failures) - matched_expectations):
            if _rule_selected(rule_id, state.selected_rules):
                warnings.warn(pytest.PytestWarning(
                    f"strictconformance: expected_failures entry {rule_id} matches no check that runs "
                    "(rule not covered by this adapter, or no check collected): remove it"), stacklevel=1)

    def pytest_collection_finish(self, session: pytest.Session) -> None:
        if hasattr(session.config, "workerinput"):
            return  # under xdist the controller's report is the run's: pytest_xdist_node_collection_finished
        for item in session.items:
            rule_id = _rule_of(item)
            if rule_id is not None:
                self.state.report.expect(item.nodeid, rule_id, _NO_RESULT)
        self._journal_expected([item.nodeid for item in session.items])

    @pytest.hookimpl(optionalhook=True)
    def pytest_xdist_node_collection_finished(self, node: Any, ids: list[str]) -> None:
        """On the xdist controller: every check a worker will run, so a check whose result never
        comes back (its worker died) is reported as such, not as 'not selected'."""
        new = [nodeid for nodeid in ids if nodeid not in self.state.report.checks]
        for nodeid in new:
            rule_id = _check_rule(nodeid, self.rootpath)
            if rule_id is not None:
                self.state.report.expect(nodeid, rule_id, _NO_RESULT)
        self._journal_expected(new)

    def pytest_runtest_setup(self, item: pytest.Item) -> None:
        rule_id = _rule_of(item)
        if rule_id is not None and (_JUNIT_RULE, rule_id) not in item.user_properties:
            from strictconformance.spec import rule_url

            # On every report of the item: junitxml writes a testcase's properties from its last one.
            item.user_properties.append((_JUNIT_RULE, rule_id))
            item.user_properties.append((_JUNIT_RULE_URL, rule_url(rule_id)))
        problem = self.state.setup_errors.get(item.nodeid)
        if problem is not None:
            pytest.fail(problem, pytrace=False)
        reason = self.state.not_covered.get(item.nodeid)
        if reason is not None:
            from strictconformance.findings import NotCovered

            raise NotCovered(reason)
        if rule_id is not None and self._run_budget_spent():
            from strictconformance.checkbudget import RunBudgetExhausted

            raise RunBudgetExhausted(f"run budget exhausted ({self.state.run_budget:g} s of CPU over the run's checks, "
                                     "--sc-run-budget): the check was not started")

    def _run_budget_spent(self) -> bool:
        state = self.state
        if not state.run_budget:
            return False
        if max(state.run_cpu_here, state.run_cpu_reported) >= state.run_budget:
            return True
        return bool(state.run_budget_flag) and os.path.exists(str(state.run_budget_flag))

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_call(self, item: pytest.Item) -> Any:
        self.state.harness.begin_item(item.nodeid, _rule_of(item))
        undo = _seed_check(item, self.state.run_seed) if self.state.run_seed is not None else None
        try:
            yield
        finally:
            if undo is not None:
                undo()
            self.state.harness.end_item()

    def _replay_command(self, item: pytest.Item) -> str:
        from strictconformance.profiles import PROFILE_NAMES

        profile_arg = self.state.profile_arg
        if not profile_arg and self.state.report.profile in PROFILE_NAMES:  # chosen by CI, or the default
            profile_arg = ["--sc-profile", self.state.report.profile]
        adapter_option = "--sc-adapter-cmd" if item.config.getoption("sc_adapter_cmd") else "--sc-adapter"
        words = ["pytest", "-p", "strictconformance", adapter_option, self.state.adapter_path, *profile_arg]
        if self.state.run_seed is not None:
            words.append(f"--sc-seed={self.state.run_seed}")
        elif item.config.getoption("hypothesis_seed", default=None) is not None:
            words.append(f"--hypothesis-seed={item.config.getoption('hypothesis_seed')}")
        if item.path.parent == CHECKS_DIR:  # portable: the installed package's module, not a site-packages path
            words += ["--pyargs", f"strictconformance.checks.{item.path.stem}::{item.name}"]
        else:
            words.append(item.nodeid)
        return shlex.join(words)

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_makereport(self, item: pytest.Item, call: pytest.CallInfo[None]) -> Any:
        outcome = yield
        rule_id = _rule_of(item)
        if rule_id is None:
            return
        from strictconformance.adapter import error_text
        from strictconformance.findings import NotCovered
        from strictconformance.harness import iter_failures
        from strictconformance.report import EXPECTED_BUT_PASSED, CheckResult

        report: pytest.TestReport = outcome.get_result()
        replay = self._replay_command(item)
        failures = list(iter_failures(call.excinfo.value)) if call.excinfo is not None else []
        if failures and report.when == "call":  # the defects its failing examples showed beside the ones shrunk
            failures += self.state.harness.seen_beside(failures)
        for failure in failures:
            try:
                self.state.harness.add_reproducer(failure)
            except Exception as exc:  # a kit bug asking for a reproducer must not become an INTERNALERROR
                failure.reproducer_problem = f"strictconformance could not ask for it: {error_text(exc)}"
        budget = self.state.harness.budgets.get(item.nodeid) if report.when == "call" else None
        spent = budget is not None and budget.exhausted is not None
        unshrunk = budget.unshrunk if budget is not None else set()
        findings, texts, partial = self._findings(item, rule_id, failures, replay, unshrunk)
        if budget is not None and budget.unshrunk:  # the report names the findings, not the search's identities
            budget.unshrunk = {finding.key for finding, why in zip(findings, partial, strict=True) if why == "cut"}
        if findings and report.failed and call.excinfo is not None:
            report.longrepr = _FailureText("\n\n".join(texts))  # type: ignore[assignment]

        from strictconformance.checkbudget import RunBudgetExhausted

        if report.skipped:
            reason = _skip_reason(report)
            if hasattr(report, "wasxfail"):
                result = CheckResult(item.nodeid, rule_id, "xfailed", reason=str(report.wasxfail))
            elif call.excinfo is not None and isinstance(call.excinfo.value, NotCovered):
                result = CheckResult(item.nodeid, rule_id, "not covered", reason=call.excinfo.value.reason)
            elif call.excinfo is not None and isinstance(call.excinfo.value, RunBudgetExhausted):
                result = CheckResult(item.nodeid, rule_id, "not judged", reason=call.excinfo.value.reason)
            else:
                result = CheckResult(item.nodeid, rule_id, "skipped", reason=reason)
        elif report.failed and spent and budget is not None and not findings and self._gave_up(call):
            # the budget ran out before any example finished: Hypothesis had none to judge
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {budget.note()}")
            result = CheckResult(item.nodeid, rule_id, "not judged", reason=f"{budget.note()}, none of them finished")
        elif report.failed and (refused := self._all_refused(item, call)) is not None:
            # Hypothesis gave up because the adapter refused every example's input (a fixed case
            # the SDK cannot express): not covered, with the refusal's reason, as an explicit case is
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {refused}")
            result = CheckResult(item.nodeid, rule_id, "not covered", reason=refused)
        elif report.failed and (undrawn := self._undrawable(item, call)) is not None:
            # Hypothesis gave up because every draw from an adapter's output failed: that output may
            # have no value (a strict schema RT-8 judges), not an error of the check
            report.outcome = "skipped"
            report.longrepr = (str(item.path), item.location[1] or 0, f"Skipped: {undrawn}")
            result = CheckResult(item.nodeid, rule_id, "not covered", reason=undrawn)
        elif report.failed:
            reason = ""
            if call.excinfo is None and report.when == "call" and rule_id in self.state.harness.declarations.expected_failures:
                reason = (f"unexpected pass of an expected failure ({self.state.harness.declarations.expected_failures[rule_id]}): "
                          "the check passes now; remove the rule from expected_failures")
            check_error = not findings and call.excinfo is not None and _is_check_error(call.excinfo.value)
            kit_error = (not findings and not check_error and not reason and call.excinfo is not None and report.when == "call"
                         and not isinstance(call.excinfo.value, AssertionError))
            if kit_error and call.excinfo is not None:
                # an exception the adapter raised that no oracle judged is the SDK's crash, not the kit's error
                crash = self.state.harness.unjudged_crash(call.excinfo.value)
                if crash is not None:
                    findings, texts, partial = self._findings(item, rule_id, [crash], replay)
                    report.longrepr = _FailureText("\n\n".join(texts))  # type: ignore[assignment]
                    kit_error = False
            if not findings and call.excinfo is not None and not reason:
                reason = error_text(call.excinfo.value)[:2000]
                if check_error:
                    reason = f"the check could not run (an error of the check, not a finding about the adapter): {reason}"
                elif kit_error:
                    reason = (f"strictconformance's own error, not a finding about the adapter (an oracle or a generator raised; "
                              f"please report it with the replay command): {reason}{_kit_frame(call.excinfo.value)}")
            failed = report.when == "call" and not check_error and not kit_error
            result = CheckResult(item.nodeid, rule_id, "failed" if failed else "kit error" if kit_error else "error", reason=reason,
                                 findings=[_finding_json(finding, bool(why)) for finding, why in zip(findings, partial, strict=True)],
                                 replay=replay)
        elif report.when == "call":
            expected = str(getattr(report, "wasxfail", "") or "")
            result = CheckResult(item.nodeid, rule_id, "passed",
                                 reason=f"{EXPECTED_BUT_PASSED} ({expected.removeprefix('expected failure: ')})" if expected else "")
        else:
            return
        result.examples = self.state.harness.examples.get(item.nodeid, 0)
        result.duration = report.duration
        if budget is not None:
            self.state.harness.budgets.pop(item.nodeid, None)
            result.cpu = budget.cpu_seconds()
            self.state.run_cpu_here += result.cpu
            if spent:
                result.budget = budget.as_json()
        tool_refusals = self.state.harness.tool_refusal_counts.get(item.nodeid)
        if tool_refusals is not None:  # declared refusals of tool definitions: a note, never dropped
            result.tool_refusals = {"count": tool_refusals["count"], "refusals": dict(tool_refusals["refusals"])}
            if not result.reason:
                from strictconformance.report import tool_refusals_note

                result.reason = tool_refusals_note(tool_refusals)
        counts = self.state.harness.strictify_outcomes.get(item.nodeid)
        if counts is not None:
            result.strictify = counts
            if result.outcome == "passed" and not counts["outputs"] and (counts["refused"] or counts["crashed"] or counts.get("invalid_input")):
                result.outcome = "not judged"
                result.reason = _not_judged(counts)
        # user_properties travel with the report from xdist workers to the controller.
        report.user_properties.append((_PROPERTY, worker_property({
            "rule_id": result.rule_id, "outcome": result.outcome, "examples": result.examples,
            "duration": result.duration, "reason": result.reason, "findings": result.findings, "replay": result.replay,
            "strictify": result.strictify, "cpu": result.cpu, "budget": result.budget, "tool_refusals": result.tool_refusals,
        })))

    @staticmethod
    def _gave_up(call: pytest.CallInfo[None]) -> bool:
        """Whether Hypothesis ended the check for want of a finished example (every one was
        discarded: here, by the check's budget)."""
        from hypothesis.errors import FailedHealthCheck, Unsatisfiable

        error = call.excinfo.value if call.excinfo is not None else None
        return isinstance(error, (Unsatisfiable, FailedHealthCheck))

    def _all_refused(self, item: pytest.Item, call: pytest.CallInfo[None]) -> str | None:
        """Why the check is not covered when Hypothesis found no example to run because the
        adapter refused the input of every one (None: another failure)."""
        from hypothesis.errors import Unsatisfiable

        if call.excinfo is None or not isinstance(call.excinfo.value, Unsatisfiable):
            return None
        reason = self.state.harness.refusal_reasons.get(item.nodeid)
        return None if reason is None else f"every input of the check was refused: {reason}"

    def _undrawable(self, item: pytest.Item, call: pytest.CallInfo[None]) -> str | None:
        """Why the check is not covered when Hypothesis found no example to run because a draw
        from an adapter's output never returned (None: another failure)."""
        from hypothesis.errors import FailedHealthCheck, Unsatisfiable

        if call.excinfo is None:
            return None
        error = call.excinfo.value
        # every example rejected (Unsatisfiable), or so many that the filter health check stopped it
        if not isinstance(error, Unsatisfiable) and not (isinstance(error, FailedHealthCheck) and "filtering out" in str(error)):
            return None
        what = self.state.harness.unfinished_draws.get(item.nodeid)
        if what is None:
            return None
        return (f"no value of {what} could be generated in any example: it may have none (RT-8 judges whether "
                "the strict schema keeps a value of the original), or the kit's generator cannot build one")

    def _findings_dir(self) -> Path:
        """Where counterexamples too big for the report are written whole: beside the --sc-report
        file (``<report>.findings/``), else in a temporary folder (the summaries name the files)."""
        if self.state.findings_dir is None:
            if self.state.report_path:
                report = Path(self.state.report_path).resolve()
                self.state.findings_dir = report.with_name(report.name + ".findings")
            else:
                import tempfile

                self.state.findings_dir = Path(tempfile.mkdtemp(prefix="strictconformance-findings-"))
        return self.state.findings_dir

    def _findings(self, item: pytest.Item, rule_id: str, failures: list[Any], replay: str,
                  unshrunk: set[str] | frozenset[str] = frozenset()) -> tuple[list[Any], list[str], list[str]]:
        """The distinct findings of a check's failures (one per key, crash origin and defect, at most
        MAX_FINDINGS), the terminal text of each, and for each why it may not be minimal: "cut" (the
        check's budget cut its shrinking: its defect is in ``unshrunk``), "beside" (an example showed
        it beside another failure's defect: ``Harness.seen_beside``) or ""."""
        from strictconformance.adapter import error_text
        from strictconformance.findings import Finding, bounded, repeat_key
        from strictconformance.harness import identity_of, search_key_of
        from strictconformance.report import MAX_FINDINGS

        entries: list[tuple[Any, str]] = []
        seen: set[tuple[str, str, str, str]] = set()
        distinct = 0
        for failure in _smallest_of_each(failures):
            identity = identity_of(failure)
            try:
                failure.rule_id = failure.rule_id or rule_id
                finding, rendered = failure.finding(replay=replay, nodeid=item.nodeid), True
            except Exception as exc:  # a kit bug rendering a failure must not become an INTERNALERROR
                text = f"{failure.rule_id or rule_id} {failure.kind}: {failure.message}\n(strictconformance could not render the rest: {error_text(exc)})"
                finding = Finding(rule=failure.rule_id or rule_id, kind=failure.kind if failure.kind in ("violation", "crash", "refusal", "fault") else "fault",
                                  key=f"{failure.rule_id or rule_id} {failure.kind}", message=failure.message, replay=replay, nodeid=item.nodeid, text=text)
                rendered = False
            repeat = repeat_key(finding, identity)
            if repeat in seen:
                continue
            seen.add(repeat)
            distinct += 1
            if len(entries) >= MAX_FINDINGS:
                continue
            if rendered:
                # Hypothesis's own notes, less the failing example as a Python call (the JSON
                # counterexample says it, without the harness argument); draws made inside the check stay.
                notes = [note for note in getattr(failure, "__notes__", [])
                         if isinstance(note, str) and not note.startswith(_EXAMPLE_NOTES) and not note.startswith("Falsifying")]
                try:  # written once kept: a repeat's counterexample must not take its file
                    finding = bounded(finding, self._findings_dir)
                    text = failure.render(replay, shown=finding.counterexample) + ("\n\nHypothesis:\n" + "\n".join(notes) if notes else "")
                    finding = dataclasses.replace(finding, text=text)
                except Exception as exc:
                    finding = dataclasses.replace(finding, text=f"{finding.rule} {finding.kind}: {finding.message}\n"
                                                              f"(strictconformance could not render the rest: {error_text(exc)})")
            why = "beside" if getattr(failure, "seen_beside", False) else "cut" if search_key_of(failure) in unshrunk else ""
            entries.append((finding, why))
        kept = [finding for finding, _ in entries]
        partial = [why for _, why in entries]
        notes_of = {"cut": "\n\n(not fully shrunk: the check's budget ran out while shrinking it; the counterexample "
                           "fails, but may not be minimal)",
                    "beside": "\n\n(not shrunk on its own: an example showed it beside another defect of this check, whose "
                              "search shrank that one; the counterexample holds it, but may not be minimal)", "": ""}
        texts = [finding.text + notes_of[why] for finding, why in entries]
        if len(kept) > 1:
            texts = [f"[finding {index} of {len(kept)}] {text}" for index, text in enumerate(texts, 1)]
        if distinct > len(kept):
            texts.append(f"(and more distinct findings: only the first {MAX_FINDINGS} are reported)")
        return kept, texts, partial

    def pytest_runtest_logreport(self, report: pytest.TestReport) -> None:
        from strictconformance.report import CheckResult

        recorded = False
        for name, value in report.user_properties:
            if name == _PROPERTY and isinstance(value, str):
                value = json.loads(value)
            if name == _PROPERTY and isinstance(value, dict):
                if value["findings"] and isinstance(report.longrepr, str):  # from an xdist worker
                    report.longrepr = _FailureText(report.longrepr)  # type: ignore[assignment]
                self.state.report.record(CheckResult(
                    report.nodeid, value["rule_id"], value["outcome"], examples=value["examples"],
                    duration=value["duration"], reason=value["reason"], findings=value["findings"], replay=value["replay"],
                    strictify=value.get("strictify"), cpu=value.get("cpu"), budget=value.get("budget"),
                    tool_refusals=value.get("tool_refusals")))
                recorded = True
                self._count_run_cpu(value.get("cpu"))
        if report.failed and not recorded:
            self._record_lost(report)
        elif report.when == "teardown" and report.nodeid in self.state.report.checks:
            self._journal_check(report.nodeid)  # the check is finished: its merged result, once

    def _count_run_cpu(self, cpu: Any) -> None:
        """Add a finished check's CPU to the run's; when the run budget is spent, tell the workers."""
        state = self.state
        if not isinstance(cpu, (int, float)):
            return
        state.run_cpu_reported += cpu
        if (state.run_budget and state.run_cpu_reported >= state.run_budget and state.run_budget_flag
                and not os.path.exists(state.run_budget_flag)):
            with contextlib.suppress(OSError):
                Path(state.run_budget_flag).touch()

    def _record_lost(self, report: pytest.TestReport) -> None:
        """A check failed without the kit's result on its report: xdist reports a worker that died
        running it (os._exit(), a crash in native code, a kill) so. It is an error of its rule."""
        from strictconformance.adapter import error_text
        from strictconformance.report import CheckResult

        known = self.state.report.checks.get(report.nodeid)
        rule_id = known.rule_id if known is not None else _check_rule(report.nodeid, self.rootpath)
        if rule_id is None:
            return  # not one of the kit's checks
        try:
            lines = str(report.longrepr or "").strip().splitlines()
        except Exception as exc:
            lines = [f"its failure cannot be shown: {error_text(exc)}"]
        reason = lines[0] if lines else "failed without a result"
        if report.when not in ("setup", "call", "teardown"):  # xdist's report of a crashed worker
            from strictconformance.watchdog import stopped_call

            stopped = stopped_call(self.state.watch_dir, report.nodeid) if self.state.watch_dir else None
            reason += (f": {stopped}" if stopped else ": the process running the check died before reporting a result "
                       "(os._exit(), a crash in native code, or a kill)")
        self.state.report.record(CheckResult(report.nodeid, rule_id, "error", duration=report.duration, reason=reason[:2000]))
        if report.when not in ("setup", "call", "teardown"):  # no teardown report follows a dead worker's
            self._journal_check(report.nodeid)

    @pytest.hookimpl(tryfirst=True)
    def pytest_sessionfinish(self, session: pytest.Session) -> None:
        state = self.state
        _settle_expected_failures(session, state)
        _fail_an_empty_run(session, state)
        _write_markdown_reports(session, state)
        if not state.report_path or hasattr(session.config, "workerinput") or session.config.option.collectonly:
            return
        journal = None
        if state.journal is not None:
            journal = os.path.basename(state.journal.path)
            try:
                state.journal.summary(state.report)
            except (OSError, ValueError) as error:
                state.notes.append(f"ERROR: could not write to the report's journal {state.journal.path}: {error}")
            state.journal.close()
            state.journal = None
        _note_budgets(state)
        try:
            state.report.write_json(state.report_path, journal=journal)
            state.notes.append(f"report written to {state.report_path}")
        except OSError as error:
            state.notes.append(f"ERROR: could not write the report to {state.report_path}: {error}")
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED

    def pytest_terminal_summary(self, terminalreporter: Any, exitstatus: int, config: pytest.Config) -> None:
        if hasattr(config, "workerinput"):
            return
        terminalreporter.write_sep("=", "strictconformance report")
        if config.option.collectonly:  # nothing ran: no rule is "not run" for a reason
            selected_rules = {check.rule_id for check in self.state.report.checks.values()}
            selected = len(self.state.report.checks)
            terminalreporter.write_line(f"collect only: {selected} check{'' if selected == 1 else 's'} of {len(selected_rules)} "
                                        f"rule{'' if len(selected_rules) == 1 else 's'} selected; nothing was run")
            return
        for line in self.state.report.render_lines(verbose=config.get_verbosity() > 0):
            terminalreporter.write_line(line)
        checks = [check for check in self.state.report.checks.values() if check.outcome != "not run"]
        if checks:
            rules = len({check.rule_id for check in checks})
            terminalreporter.write_line(
                f"tally: the summary counts rules ({rules} with a result, each its worst check's outcome); pytest's "
                f"line counts test items ({len(checks)} checks of the kit, plus any tests of yours)")
        for note in self.state.notes:
            terminalreporter.write_line(note)


def _finding_json(finding: Any, partial: bool) -> dict[str, Any]:
    """A finding as the report's JSON; one not shrunk as far as it goes (the check's budget cut its
    shrinking, or it was seen beside another defect) says so."""
    data: dict[str, Any] = finding.as_json()
    if partial:
        data["fully_shrunk"] = False
    return data


def _note_budgets(state: _State) -> None:
    """The terminal's notes on budgets: checks that ran out of theirs, checks the run's left unstarted."""
    checks = list(state.report.checks.values())
    spent = [check for check in checks if check.budget]
    if spent:
        one = len(spent) == 1
        state.notes.append(f"budget: {len(spent)} check{'' if one else 's'} ran out of {'its' if one else 'their'} budget and "
                           f"ended with what {'it' if one else 'they'} had found (--sc-check-budget)")
    unstarted = [check for check in checks if check.outcome == "not judged" and check.reason.startswith("run budget exhausted")]
    if unstarted:
        used = sum(check.cpu or 0.0 for check in checks)
        state.notes.append(f"run budget exhausted after {used:.1f} s of CPU (--sc-run-budget {state.run_budget:g}): "
                           f"{len(unstarted)} check{'' if len(unstarted) == 1 else 's'} not judged")


#: Check outcomes that judge the adapter; a run with none of them passed nothing.
_JUDGED = frozenset({"passed", "failed", "error", "xfailed"})


def _fail_an_empty_run(session: pytest.Session, state: _State) -> None:
    """A run whose selected checks were all not covered, skipped or not judged exits non-zero
    with a line saying why, unless --sc-allow-empty (a run of only your own tests is not one)."""
    config = session.config
    checks = list(state.report.checks.values())
    if hasattr(config, "workerinput") or config.option.collectonly or not checks or any(c.outcome in _JUDGED for c in checks):
        return
    counts: dict[str, int] = {}
    for check in checks:
        counts[check.outcome] = counts.get(check.outcome, 0) + 1
    rules = len({check.rule_id for check in checks})
    why = (f"nothing was judged: none of the {len(checks)} selected check{'' if len(checks) == 1 else 's'} "
           f"({rules} rule{'' if rules == 1 else 's'}) passed or failed "
           f"({', '.join(f'{n} {outcome}' for outcome, n in sorted(counts.items()))}); the report says nothing about the adapter")
    if config.getoption("sc_allow_empty", False):
        state.notes.append(f"{why} (accepted: --sc-allow-empty)")
        return
    state.notes.append(f"ERROR: {why}. Select rules the adapter implements, or pass --sc-allow-empty for a run that means it")
    if session.exitstatus == pytest.ExitCode.OK:
        session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _settle_expected_failures(session: pytest.Session, state: _State) -> None:
    """An expected failure is a rule's: met when one of its checks fails, stale when every check
    of the rule that ran passes. Then those checks fail, saying so, and so does the run."""
    config = session.config
    harness = getattr(state, "harness", None)
    if hasattr(config, "workerinput") or config.option.collectonly or harness is None:
        return
    from strictconformance.report import EXPECTED_BUT_PASSED

    expected = harness.declarations.expected_failures
    narrowed = _narrowed_by(config)
    by_rule: dict[str, list[Any]] = {}
    for result in state.report.checks.values():
        if result.rule_id in expected:
            by_rule.setdefault(result.rule_id, []).append(result)
    for rule_id, results in sorted(by_rule.items()):
        passed = [r for r in results if r.outcome == "passed" and r.reason.startswith(EXPECTED_BUT_PASSED)]
        if not passed or any(r.outcome in ("xfailed", "failed", "error", "kit error") for r in results):
            continue
        # the check that shows the bug may be one that did not finish (a pass on what its budget let
        # it run is one): the expectation is not stale, only unconfirmed
        unjudged = [r for r in results if r.outcome in ("not judged", "not run", "skipped")]
        cut = [r for r in passed if r.budget]
        unfinished: list[str] = []
        if unjudged or cut:
            why = sorted({r.outcome for r in unjudged} | ({"passed on what its budget let it run"} if cut else set()))
            unfinished.append(f"{len(unjudged) + len(cut)} of its checks did not finish ({', '.join(why)})")
        if narrowed:  # the check that shows the bug may be one the selection left out
            unfinished.append(f"the run selected some of its checks only ({narrowed})")
        if unfinished:
            state.notes.append(f"expected failure {rule_id} ({expected[rule_id]}) neither met nor stale: {'; '.join(unfinished)}")
            continue
        for result in passed:
            result.outcome = "failed"
            result.reason = (f"unexpected pass of an expected failure ({expected[rule_id]}): the check passes now; "
                             "remove the rule from expected_failures")
            if state.journal is not None:  # the journal keeps a check's last record: this one
                with contextlib.suppress(OSError, ValueError):
                    state.journal.check(result)
        if session.exitstatus == pytest.ExitCode.OK:
            session.exitstatus = pytest.ExitCode.TESTS_FAILED


def _narrowed_by(config: pytest.Config) -> str:
    """What narrowed the run's checks below the selected rules (``-k``, ``-m``, test ids), or ""."""
    ways = [f"{flag} {value!r}" for flag, value in (("-k", config.option.keyword), ("-m", config.option.markexpr)) if value]
    if any("::" in str(arg) for arg in config.args):
        ways.append("test ids")
    return ", ".join(ways)


def _write_markdown_reports(session: pytest.Session, state: _State) -> None:
    """The Markdown report to ``--sc-markdown PATH`` (replaced) and to ``$GITHUB_STEP_SUMMARY``
    (appended, as GitHub expects: other steps write there too), on the controller only."""
    config = session.config
    if hasattr(config, "workerinput") or config.option.collectonly:
        return
    targets = [(path, "w") for path in [config.getoption("sc_markdown", None)] if path]
    summary = os.environ.get("GITHUB_STEP_SUMMARY")
    if summary:
        targets.append((summary, "a"))
    if not targets:
        return
    from strictconformance.render import (
        render_markdown,  # only runs that ask for Markdown pay for it
    )

    text = render_markdown(state.report.as_json())
    for path, mode in targets:
        try:
            with open(path, mode, encoding="utf-8") as handle:
                handle.write(text)
            state.notes.append(f"Markdown report {'appended to' if mode == 'a' else 'written to'} {path}")
        except OSError as error:
            state.notes.append(f"ERROR: could not write the Markdown report to {path}: {error}")
            if session.exitstatus == pytest.ExitCode.OK:
                session.exitstatus = pytest.ExitCode.TESTS_FAILED

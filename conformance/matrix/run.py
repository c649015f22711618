"""Running the suite against one SDK path in its own process, never letting it break the matrix.

Each column is ``python -m pytest -p strictconformance --sc-adapter MOD:ATTR --sc-report FILE``
(``--sc-adapter-cmd CMD`` from the kit's node harness folder for process harnesses), in its own
working folder, with the matrix's profile, rule selection and ``-n``. Whatever happens to the
process (it crashes, is killed by a signal, hangs past the timeout, writes no report or a report
that is not JSON) the column comes back with status ``error`` and a reason naming what happened;
a path that cannot run here (its SDK is not installed) comes back ``unavailable``, saying why.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import importlib.util
import json
import os
import re
import resource
import shutil
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from typing import TextIO

from strictconformance.matrix.combine import ColumnResult
from strictconformance.sdks import SdkPath, distribution_versions, missing_distributions

__all__ = ["REFERENCE", "EnvironmentBuildError", "build_column_environment", "kit_source", "node_harness_dir", "pytest_command", "report_problem", "run_column", "safe_name",
           "unavailable_reason"]

#: The reference implementation: always the first column.
REFERENCE = SdkPath(key="reference", title="strictconformance reference", distributions=("strictconformance",),
                    adapter="strictconformance.reference:ReferenceAdapter")

#: pytest's exit codes, for the reason of an errored column.
_EXIT_CODES = {2: "interrupted", 3: "internal error", 4: "usage error", 5: "no tests collected"}
#: Seconds between "still running" lines on stderr.
HEARTBEAT_S = 60.0
_PROGRESS = re.compile(r"\[\s*(\d{1,3})%\]\s*$")


def safe_name(key: str) -> str:
    """A file name for a column key (``anthropic/transform_schema`` -> ``anthropic__transform_schema``)."""
    return re.sub(r"[^A-Za-z0-9_.-]", "_", key.replace("/", "__"))


def node_harness_dir() -> Path:
    """The kit's node harness folder: where ``command=`` paths run."""
    import strictconformance

    try:
        process = importlib.import_module("strictconformance.process")  # the process helper's, when shipped
        folder = getattr(process, "HARNESS_DIR", None)
        if folder is not None:
            return Path(folder)
    except ImportError:
        pass
    return Path(strictconformance.__file__).resolve().parent / "process" / "node"


def node_package_versions(path: SdkPath) -> dict[str, str | None]:
    """Installed version of each npm package of a Node ``path`` (``None``: not installed), read
    from ``node_modules/<name>/package.json`` in the kit's Node folder, as the harness reads them."""
    folder = node_harness_dir() / "node_modules"
    versions: dict[str, str | None] = {}
    for name in path.distributions:
        try:
            version = json.loads((folder / name / "package.json").read_text(encoding="utf-8")).get("version")
        except (OSError, ValueError):
            version = None
        versions[name] = version if isinstance(version, str) else None
    return versions


def column_versions(path: SdkPath) -> dict[str, str | None]:
    """The versions a column names: its Python distributions, or its npm packages."""
    return node_package_versions(path) if path.language == "node" else distribution_versions(path)


class EnvironmentBuildError(Exception):
    """A column's own environment (``SdkPath.environment``) could not be built: says why."""


#: What a column's own environment was built from, in its folder: reused only when all of it is the same.
_ENV_MARKER = "strictconformance-environment.json"
#: Seconds for building one column's environment (pip resolving and installing the kit and the SDK).
ENV_BUILD_TIMEOUT_S = 900.0


def kit_source() -> tuple[str, bool] | None:
    """The folder the running kit was installed from and whether the install is editable (pip's
    ``direct_url.json``, PEP 610), or ``None`` when it came from a wheel or an index: a column's own
    environment installs the kit from that same source, so both run the same checks."""
    import importlib.metadata
    from urllib.parse import unquote, urlparse

    # the first install that says where it came from (a checkout's own egg-info, met first when the
    # checkout is the current folder, says nothing)
    texts = (dist.read_text("direct_url.json") for dist in importlib.metadata.distributions(name="strictconformance"))
    text = next((text for text in texts if text), None)
    try:
        data = json.loads(text or "")
    except ValueError:
        return None
    if not isinstance(data, dict):
        return None
    url, dir_info = data.get("url"), data.get("dir_info")
    if not isinstance(url, str) or not url.startswith("file://") or not isinstance(dir_info, dict):
        return None
    folder = unquote(urlparse(url).path)
    if not (Path(folder) / "pyproject.toml").is_file():
        return None
    return folder, dir_info.get("editable") is True


def environment_requirements(path: SdkPath, source: tuple[str, bool]) -> list[str]:
    """What pip installs in ``path``'s own environment: the kit (editable when the running kit is),
    the running kit's Hypothesis version (the ci profile's draws depend on it) and the path's own
    requirements."""
    import importlib.metadata

    folder, editable = source
    kit = [f"--editable={folder}"] if editable else [folder]
    return [*kit, f"hypothesis=={importlib.metadata.version('hypothesis')}", *path.environment]


def _environment_python(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def _clean_env() -> dict[str, str]:
    """The environment a column's own Python gets: nothing pointing it at this install's packages."""
    return {name: value for name, value in os.environ.items()
            if name not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PIP_USER", "PYTHONSAFEPATH",
                            "__PYVENV_LAUNCHER__")}


#: One lock per environment folder: an SDK's columns share their environment, and the matrix runs
#: columns in threads (--jobs): the second column waits for the first one's build, then reuses it.
_ENV_LOCKS: dict[Path, threading.Lock] = {}
_ENV_LOCKS_GUARD = threading.Lock()


def _environment_lock(folder: Path) -> threading.Lock:
    with _ENV_LOCKS_GUARD:
        return _ENV_LOCKS.setdefault(folder, threading.Lock())


def build_column_environment(path: SdkPath, out_dir: Path, *, timeout: float = ENV_BUILD_TIMEOUT_S,
                             progress: Callable[[str], None] = lambda message: None) -> Path:
    """Build (or reuse) ``path``'s own environment under ``out_dir/venvs`` (one folder per set of
    requirements, so an SDK's columns share it) and return its Python.
    Raises :class:`EnvironmentBuildError` naming what failed (no kit source, venv, pip's last line)."""
    source = kit_source()
    if source is None:
        raise EnvironmentBuildError("it runs in an environment of its own, which installs the kit from the folder "
                                    "it was installed from: install strictconformance from a checkout "
                                    "(pip install . or pip install -e .)")
    requirements = environment_requirements(path, source)
    marker = {"python": sys.executable, "requirements": requirements}
    # one environment per set of requirements: an SDK's columns share theirs
    digest = hashlib.sha256(json.dumps(marker).encode()).hexdigest()[:10]
    folder = (out_dir / "venvs" / f"{safe_name(path.key.split('/')[0])}-{digest}").resolve()
    with _environment_lock(folder):
        return _build_environment(path, folder, marker, requirements, timeout, progress)


def _build_environment(path: SdkPath, folder: Path, marker: Mapping[str, object], requirements: list[str], timeout: float,
                       progress: Callable[[str], None]) -> Path:
    python = _environment_python(folder)
    try:
        if json.loads((folder / _ENV_MARKER).read_text(encoding="utf-8")) == marker and python.is_file():
            progress(f"{path.key}: reusing its environment {folder}")
            return python
    except (OSError, ValueError):
        pass
    try:
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
    except OSError as error:
        raise EnvironmentBuildError(f"cannot clear its environment folder {folder}: {error}") from None
    progress(f"{path.key}: building its environment in {folder} ({' '.join(path.environment)})")
    deadline = time.monotonic() + timeout

    def run(command: list[str], what: str) -> None:
        try:
            done = subprocess.run(command, cwd=folder, env=_clean_env() | {"PIP_REQUIRE_VIRTUALENV": "0"},
                                  stdin=subprocess.DEVNULL, capture_output=True, text=True, errors="replace",
                                  timeout=max(1.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            raise EnvironmentBuildError(f"{what} timed out after {timeout:.0f} s") from None
        except OSError as error:
            raise EnvironmentBuildError(f"{what}: cannot run {command[0]}: {error}") from None
        if done.returncode != 0:
            lines = [line.strip() for line in (done.stderr or done.stdout).splitlines() if line.strip()]
            raise EnvironmentBuildError(f"{what} failed: {lines[-1] if lines else f'exit code {done.returncode}'}")

    try:
        run([sys.executable, "-m", "venv", str(folder)], f"python -m venv {folder}")
        run([str(python), "-m", "pip", "install", "--disable-pip-version-check", "--no-input", "--quiet",
             *requirements], "pip install " + " ".join(requirements))
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)  # never reused half-built
        raise
    (folder / _ENV_MARKER).write_text(json.dumps(marker, indent=1) + "\n", encoding="utf-8")
    return python


def environment_versions(path: SdkPath, python: Path) -> dict[str, str | None]:
    """The versions of ``path``'s distributions installed in its own environment (``python``)."""
    script = ("import importlib.metadata as m, json, sys\n"
              "def v(n):\n"
              "    try:\n        return m.version(n)\n"
              "    except m.PackageNotFoundError:\n        return None\n"
              "print(json.dumps({n: v(n) for n in sys.argv[1:]}))")
    try:
        done = subprocess.run([str(python), "-c", script, *path.distributions], env=_clean_env(), capture_output=True,
                              text=True, timeout=120, check=True, stdin=subprocess.DEVNULL)
        versions: dict[str, str | None] = json.loads(done.stdout)
    except (OSError, subprocess.SubprocessError, ValueError) as error:
        raise EnvironmentBuildError(f"cannot read the versions installed in its environment: {error}") from None
    return versions


def unavailable_reason(path: SdkPath) -> str | None:
    """Why ``path`` cannot run here (None: it can)."""
    if path.environment:
        return None if kit_source() is not None else (
            "it runs in an environment of its own, which installs the kit from the folder it was installed from: "
            "install strictconformance from a checkout (pip install . or pip install -e .)")
    if path.command is not None:
        if importlib.util.find_spec("strictconformance.process") is None:
            return "this kit has no process adapters (--sc-adapter-cmd)"
        if shutil.which("node") is None:
            return "node is not installed"
        folder = node_harness_dir()
        if not folder.is_dir():
            return f"the node harness folder {folder} is missing"
        missing = [name for name in path.distributions if not (folder / "node_modules" / name).is_dir()]
        if missing:
            return f"not installed: {', '.join(missing)} (npm install in {folder})"
        return None
    missing = missing_distributions(path)
    if missing:
        return f"SDK not installed: {', '.join(missing)} ({install_hint(missing)})"
    return None


def install_hint(missing: Sequence[str]) -> str:
    """How to install ``missing``: the versions the ``sdks`` extra pins (the kit is not on a
    package index, so ``pip install "strictconformance[sdks]"`` would find nothing)."""
    import importlib.metadata

    try:
        requirements = importlib.metadata.requires("strictconformance") or []
    except importlib.metadata.PackageNotFoundError:
        requirements = []
    pinned = {}
    for requirement in requirements:
        spec, _, marker = requirement.partition(";")
        if "sdks" in marker:
            pinned[re.split(r"[\[=<>!~ ]", spec.strip(), maxsplit=1)[0].lower()] = spec.strip()
    words = [pinned.get(name.lower(), name) for name in missing]
    return "pip install " + " ".join(f'"{word}"' if "[" in word else word for word in words) + \
        ', or pip install ".[sdks]" in a checkout of strictconformance'


def pytest_command(path: SdkPath, report: Path, *, profile: str, rules: Sequence[str], workers: str | None,
                   python: str = sys.executable) -> list[str]:
    """The command line that runs the suite on ``path``."""
    words = [python, "-m", "pytest", "-p", "strictconformance"]
    if path.command is not None:
        words += ["--sc-adapter-cmd", path.command]
    else:
        assert path.adapter is not None
        words += ["--sc-adapter", path.adapter]
    words += ["--sc-report", str(report), "--sc-profile", profile, "-p", "no:cacheprovider", "-q",
              "--color=no", "-o", "console_output_style=progress"]
    for token in rules:
        words += ["--sc-rule", token]
    if workers is not None:
        words += ["-n", workers]
    return words


def _signal_name(code: int) -> str:
    try:
        return signal.Signals(-code).name
    except ValueError:
        return f"signal {-code}"


def _tail(log: Path, lines: int = 6) -> str:
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    kept = [line.strip() for line in text.splitlines() if line.strip()][-lines:]
    return " | ".join(kept)


def _pump(stream: TextIO, log: TextIO, on_progress: Callable[[int], None]) -> None:
    for line in stream:
        log.write(line)
        log.flush()
        match = _PROGRESS.search(line)
        if match:
            on_progress(int(match.group(1)))


def run_column(path: SdkPath, out_dir: Path, *, profile: str, rules: Sequence[str] = (), workers: str | None = None,
               timeout: float = 1800.0, extra_pythonpath: Sequence[str] = (),
               progress: Callable[[str], None] = lambda message: None) -> ColumnResult:
    """Run the suite on ``path``; its report goes to ``out_dir/reports``, its output to
    ``out_dir/logs``. Never raises for what the run does: a failed run is an ``error`` column."""
    result = ColumnResult(key=path.key, title=path.title, language=path.language, adapter=path.adapter,
                          command=path.command, versions=column_versions(path))
    reason = unavailable_reason(path)
    if reason is not None:
        result.status, result.reason = "unavailable", reason
        progress(f"{path.key}: unavailable ({reason})")
        return result
    name = safe_name(path.key)
    report = (out_dir / "reports" / f"{name}.json").resolve()
    log_path = (out_dir / "logs" / f"{name}.log").resolve()
    work = (out_dir / "work" / name).resolve()
    for folder in (report.parent, log_path.parent, work):
        folder.mkdir(parents=True, exist_ok=True)
    report.unlink(missing_ok=True)
    result.report_file = os.path.relpath(report, out_dir.resolve())
    result.log_file = os.path.relpath(log_path, out_dir.resolve())
    python = sys.executable
    env = dict(os.environ, PYTHONUNBUFFERED="1")  # progress lines as they come, not when a pipe buffer fills
    if path.environment:  # the column's own environment: its Python, nothing of this one's on its path
        try:
            own = build_column_environment(path, out_dir, progress=progress)
            result.versions = environment_versions(path, own)
        except EnvironmentBuildError as error:
            result.status, result.reason = "unavailable", f"its environment could not be built: {error}"
            result.report_file = result.log_file = None
            progress(f"{path.key}: unavailable ({result.reason})")
            return result
        python, env = str(own), dict(_clean_env(), PYTHONUNBUFFERED="1")
    command = pytest_command(path, report, profile=profile, rules=rules, workers=workers, python=python)
    cwd = node_harness_dir() if path.command is not None else work
    if extra_pythonpath:
        env["PYTHONPATH"] = os.pathsep.join([*extra_pythonpath, *filter(None, [env.get("PYTHONPATH")])])
    last = [-10]

    def on_progress(percent: int) -> None:
        if percent >= last[0] + 10 or percent == 100:
            last[0] = percent
            progress(f"{path.key}: {percent}% ({time.monotonic() - start:.0f} s)")

    progress(f"{path.key}: running the suite on {path.adapter or path.command} (log: {log_path})")
    start = time.monotonic()
    children_before = resource.getrusage(resource.RUSAGE_CHILDREN)
    timed_out = False
    with open(log_path, "w", encoding="utf-8") as log:
        log.write("$ " + " ".join(command) + "\n")
        log.flush()
        try:
            process = subprocess.Popen(command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                       stdin=subprocess.DEVNULL, text=True, errors="replace", start_new_session=True)
        except OSError as error:
            result.status, result.reason = "error", f"could not start pytest: {error}"
            progress(f"{path.key}: error ({result.reason})")
            return result
        assert process.stdout is not None
        pump = threading.Thread(target=_pump, args=(process.stdout, log, on_progress), daemon=True)
        pump.start()
        deadline = start + timeout
        usage: resource.struct_rusage | None = None
        while True:  # wait, saying every minute that the column is still running
            try:
                code, usage = _wait(process, max(0.0, min(HEARTBEAT_S, deadline - time.monotonic())))
                break
            except KeyboardInterrupt:  # Ctrl-C stops the column's whole process group, not just us
                _kill_group(process)
                raise
            except subprocess.TimeoutExpired:
                if time.monotonic() >= deadline:
                    timed_out = True
                    _kill_group(process)
                    code, usage = _wait(process, None)
                    break
                progress(f"{path.key}: still running ({time.monotonic() - start:.0f} s, at {max(last[0], 0)}%)")
        pump.join(timeout=10)
    result.duration_s = time.monotonic() - start
    if usage is not None:  # the pytest process's own CPU, with its waited-for xdist workers
        result.cpu_s = usage.ru_utime + usage.ru_stime
    else:  # reaped by someone else (its rusage is lost): the process-wide figure
        children_after = resource.getrusage(resource.RUSAGE_CHILDREN)
        result.cpu_s = ((children_after.ru_utime - children_before.ru_utime)
                        + (children_after.ru_stime - children_before.ru_stime))
    if timed_out:
        result.status = "error"
        result.reason = f"timed out after {timeout:.0f} s (killed); last output: {_tail(log_path)}"
    elif code < 0:
        result.status = "error"
        result.reason = f"pytest was killed by {_signal_name(code)}; last output: {_tail(log_path)}"
    elif code not in (0, 1, 5):
        result.status = "error"
        result.reason = (f"pytest exited with code {code} ({_EXIT_CODES.get(code, 'unknown')}); "
                         f"last output: {_tail(log_path)}")
    elif not report.is_file():
        result.status = "error"
        result.reason = f"pytest wrote no report (exit code {code}); last output: {_tail(log_path)}"
    else:
        try:
            data = json.loads(report.read_text(encoding="utf-8"))
        except (OSError, ValueError) as error:
            result.status, result.reason = "error", f"the report is not JSON: {error}"
        else:
            problem = report_problem(data)
            if problem is not None:
                result.status, result.reason = "error", problem
            else:
                result.report = data
    if result.status == "error":
        progress(f"{path.key}: ERROR after {result.duration_s:.0f} s: {result.reason}")
    else:
        summary = (result.report or {}).get("summary", {})
        counts = ", ".join(f"{n} {outcome}" for outcome, n in summary.items() if n and outcome != "not run")
        progress(f"{path.key}: done in {result.duration_s:.0f} s ({counts or 'no rule ran'})")
    return result


def report_problem(data: object) -> str | None:
    """Why ``data`` is not a usable report (None: it is): not a report at all, or, when it is of the
    version this kit writes, a report its own schema rejects."""
    import jsonschema  # type: ignore[import-untyped]

    from strictconformance.report import REPORT_SCHEMA, load_report_schema

    if not isinstance(data, dict) or not isinstance(data.get("rules"), dict):
        return "the report has no rules (not a strictconformance report)"
    if data.get("schema") == REPORT_SCHEMA:
        errors = sorted(jsonschema.Draft202012Validator(load_report_schema()).iter_errors(data),
                        key=lambda e: list(e.absolute_path))
        if errors:
            where = "/" + "/".join(str(part) for part in errors[0].absolute_path)
            return f"the report does not follow {REPORT_SCHEMA}: at {where}: {errors[0].message}"
    return None


def _wait(process: subprocess.Popen[str], timeout: float | None) -> tuple[int, resource.struct_rusage | None]:
    """``process.wait(timeout)`` that also gives the process's resource usage (``os.wait4``: that
    process's CPU and its waited-for children's, so columns running side by side each count their
    own). Raises ``subprocess.TimeoutExpired`` like ``wait``."""
    end = None if timeout is None else time.monotonic() + timeout
    pause = 0.01
    while True:
        if process.returncode is not None:  # already reaped (by Popen itself): no usage to read
            return process.returncode, None
        try:
            pid, status, usage = os.wait4(process.pid, os.WNOHANG)
        except ChildProcessError:
            return process.wait(), None
        if pid == process.pid:
            process.returncode = os.waitstatus_to_exitcode(status)
            return process.returncode, usage
        if end is not None and time.monotonic() >= end:
            raise subprocess.TimeoutExpired(process.args, timeout or 0.0)
        time.sleep(pause if end is None else max(0.0, min(pause, end - time.monotonic())))
        pause = min(pause * 2, 0.5)


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Stop the run and everything it started (xdist workers): TERM, then KILL."""
    try:
        os.killpg(process.pid, signal.SIGTERM)
    except ProcessLookupError:
        return
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)

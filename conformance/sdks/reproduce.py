"""Run the triage files' reproducers, each on its own, in an environment holding only its SDK.

``python -m strictconformance.sdks.triage reproduce`` builds, per SDK, an isolated environment with
only that SDK at the versions its triage entries name: a ``python -m venv`` without the system
site-packages and ``pip install <distribution>==<version> ...`` for Python SDKs, a folder with a
``package.json`` and ``npm install <package>@<version> ...`` for Node SDKs. Then it runs every
``confirmed`` or ``disputed`` entry's reproducer as a file of its own (``python -I`` / ``node``),
with a timeout, and reads the result by the reproducer contract (see the triage README): exit
status 0 and a stdout line starting ``BUG:`` is the bug shown; no such line is the bug not shown;
another exit status is an error (its last stderr line says which); past the timeout it is killed.

An entry's ``version`` is either a bare version (``"2.13.0"``: the first distribution of its SDK
path) or ``"name version"`` pairs (``"ai 7.0.173, @ai-sdk/google 4.0.121"``), each name one of
the path's distributions (:data:`strictconformance.sdks.SDK_PATHS`). The environments of one SDK
merge their entries' pins; entries that pin one package to two versions get an environment each.
With ``--venvs DIR`` the environments are kept in DIR and reused while their pins are the same.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

from strictconformance.sdks import SDK_PATHS, SdkPath
from strictconformance.sdks.triage import TriageEntry, TriageError

__all__ = ["BUG_MARK", "Environment", "Outcome", "ReproduceError", "entry_pins", "format_table", "plan",
           "reproduce", "reproducer_problem"]

#: What a reproducer prints, at the start of a line, while the bug shows.
BUG_MARK = "BUG:"
#: Verdicts whose reproducer must show the bug (a ``kit-bug-fixed`` entry's shows the SDK was right).
SHOWN_VERDICTS = ("confirmed", "disputed")
#: Seconds one reproducer may run; seconds one environment's install may take.
DEFAULT_TIMEOUT_S = 60.0
INSTALL_TIMEOUT_S = 1200.0
#: The file that says which pins an environment folder was built with (written once the install succeeded).
MARKER = "strictconformance-reproduce.json"
_BARE_VERSION = re.compile(r"^[0-9][0-9A-Za-z.+!_-]*$")
_PAIR = re.compile(r"^(?P<name>@?[A-Za-z0-9][A-Za-z0-9._/-]*) (?P<version>[0-9][0-9A-Za-z.+!_-]*)$")


class ReproduceError(Exception):
    """An environment could not be built (a missing tool, a failed install): says which and why."""


# -- What to install ----------------------------------------------------------------------------

def _path_of(entry: TriageEntry, paths: Sequence[SdkPath]) -> SdkPath:
    for path in paths:
        if path.key == entry.sdk_path:
            return path
    raise TriageError(f"{entry.file}: {entry.rule} {entry.key!r}: sdk_path {entry.sdk_path!r} is no shipped SDK path")


def entry_pins(entry: TriageEntry, path: SdkPath) -> dict[str, str]:
    """The packages and versions ``entry.version`` names: ``{"anthropic": "2.13.0"}`` for a bare
    ``"2.13.0"`` on the path whose first distribution is ``anthropic``. Raises
    :class:`TriageError` for a version string of another form or a package the path does not use."""
    where = f"triage file {entry.file}, {entry.rule} {entry.key!r}"
    text = entry.version.strip()
    if _BARE_VERSION.match(text):
        return {path.distributions[0]: text}
    pins: dict[str, str] = {}
    for part in text.split(","):
        match = _PAIR.match(part.strip())
        if match is None:
            raise TriageError(f"{where}: version {entry.version!r}: {part.strip()!r} is neither a version (1.2.3) "
                              f"nor 'package version' (ai 7.0.173)")
        name, version = match["name"], match["version"]
        if name not in path.distributions:
            raise TriageError(f"{where}: version {entry.version!r} names {name!r}, which is not a package of "
                              f"{path.key} ({', '.join(path.distributions)})")
        if pins.get(name, version) != version:
            raise TriageError(f"{where}: version {entry.version!r} names {name} twice")
        pins[name] = version
    return pins


def reproducer_problem(entry: TriageEntry, language: str) -> str | None:
    """What breaks the reproducer contract in a ``confirmed``/``disputed`` entry (None: nothing):
    a Python reproducer must compile, a Node one must be an ES module (``import``, not
    ``require()``), and each must print a line starting ``BUG:`` when the bug shows."""
    if entry.verdict not in SHOWN_VERDICTS:
        return None
    source = entry.reproducer
    if language == "python":
        try:
            compile(source, "<reproducer>", "exec")
        except SyntaxError as error:
            return f"the reproducer is not valid Python: {error.msg} (line {error.lineno})"
    elif re.search(r"(?<![\w.])require\s*\(", source) and not re.search(r"\bcreateRequire\b", source):
        return "the reproducer uses require(): a Node reproducer is an ES module (import ... from ...)"
    if BUG_MARK not in source:
        return (f"the reproducer never prints {BUG_MARK!r}: a {entry.verdict} entry's reproducer prints a line "
                f"starting {BUG_MARK!r} when the bug shows (and none when it is gone)")
    return None


@dataclass(frozen=True)
class Environment:
    """One isolated environment: an SDK's packages at fixed versions (``None``: unpinned)."""

    sdk: str
    language: str
    pins: tuple[tuple[str, str | None], ...]

    @property
    def requirements(self) -> list[str]:
        """What pip or npm is asked to install."""
        if self.language == "python":
            return [name if version is None else f"{name}=={version}" for name, version in self.pins]
        return [name if version is None else f"{name}@{version}" for name, version in self.pins]

    @property
    def folder_name(self) -> str:
        python = list(sys.version_info[:2]) if self.language == "python" else None
        digest = hashlib.sha256(json.dumps([self.language, self.pins, python]).encode()).hexdigest()[:10]
        return f"{self.language}-{re.sub(r'[^A-Za-z0-9_.-]', '_', self.sdk)}-{digest}"

    def describe(self) -> str:
        return " ".join(self.requirements)


def plan(entries: Iterable[TriageEntry], paths: Sequence[SdkPath] = SDK_PATHS) -> list[tuple[Environment, list[TriageEntry]]]:
    """The environments to build and the entries each runs: per SDK one environment with every
    entry's pins (a Python path's other distributions unpinned), split where two entries pin one
    package to different versions. Only ``confirmed`` and ``disputed`` entries run."""
    by_sdk: dict[str, list[tuple[TriageEntry, SdkPath, dict[str, str]]]] = {}
    for entry in entries:
        if entry.verdict not in SHOWN_VERDICTS:
            continue
        path = _path_of(entry, paths)
        by_sdk.setdefault(entry.sdk_path.split("/", 1)[0], []).append((entry, path, entry_pins(entry, path)))
    planned: list[tuple[Environment, list[TriageEntry]]] = []
    for sdk, items in by_sdk.items():
        groups: list[tuple[dict[str, str], list[tuple[TriageEntry, SdkPath]]]] = []
        for entry, path, pins in items:
            for merged, members in groups:  # the first group it agrees with
                if all(merged.get(name, version) == version for name, version in pins.items()):
                    merged.update(pins)
                    members.append((entry, path))
                    break
            else:
                groups.append((dict(pins), [(entry, path)]))
        for merged, members in groups:
            languages = {path.language for _, path in members}
            if len(languages) != 1:
                raise TriageError(f"SDK {sdk}: its paths mix languages ({', '.join(sorted(languages))})")
            language = languages.pop()
            wanted: dict[str, str | None] = dict(merged)
            if language == "python":  # the packages the paths import, at the versions pip picks
                for _, path in members:
                    for name in path.distributions:
                        wanted.setdefault(name, None)
            planned.append((Environment(sdk, language, tuple(sorted(wanted.items()))), [entry for entry, _ in members]))
    return planned


# -- Building environments ----------------------------------------------------------------------

def _last_line(text: str) -> str:
    """The line that says what went wrong: the last non-empty one, past node's version trailer and
    its stack frames."""
    lines = [line.rstrip() for line in text.splitlines() if line.strip()]
    lines = [line for line in lines if not re.match(r"^Node\.js v\d", line) and not re.match(r"^\s+at ", line)]
    return lines[-1].strip() if lines else "(nothing on stderr)"


def _clean_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment a child gets: nothing that points it at another install's packages."""
    env = {name: value for name, value in os.environ.items()
           if name not in ("PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "VIRTUAL_ENV", "PIP_USER", "NODE_PATH",
                           "NODE_OPTIONS", "PYTHONSAFEPATH", "__PYVENV_LAUNCHER__")}
    env.update(extra or {})
    return env


def _run(command: Sequence[str], *, cwd: Path, timeout: float, env: Mapping[str, str]) -> tuple[int | None, str, str]:
    """Run ``command`` in its own process group; ``None`` as the exit status when it timed out
    (the whole group killed)."""
    try:
        process = subprocess.Popen(list(command), cwd=cwd, env=dict(env), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, errors="replace", start_new_session=True)
    except OSError as error:  # the program itself is missing or not executable
        return 127, "", f"cannot run {command[0]}: {error.strerror or error}"
    try:
        out, err = process.communicate(timeout=timeout)
        return process.returncode, out, err
    except subprocess.TimeoutExpired:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(process.pid, signal.SIGKILL)
        out, err = process.communicate()
        return None, out, err


def _marker(env: Environment, python: str) -> dict[str, object]:
    """What an environment was built from: reused only when all of it is the same."""
    return {"sdk": env.sdk, "language": env.language, "requirements": env.requirements,
            "python": python if env.language == "python" else None}


def _reusable(folder: Path, env: Environment, python: str) -> bool:
    try:
        return bool(json.loads((folder / MARKER).read_text(encoding="utf-8")) == _marker(env, python))
    except (OSError, ValueError):
        return False


def _python_of(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if os.name == "nt" else "bin/python")


def build_environment(env: Environment, folder: Path, *, pip_options: Sequence[str] = (),
                      python: str = sys.executable, timeout: float = INSTALL_TIMEOUT_S,
                      say: Callable[[str], None] = lambda message: None) -> Path:
    """Create (or reuse, when its marker names the same pins) ``folder`` holding only ``env``'s
    packages. Raises :class:`ReproduceError` naming the package and pip's or npm's last line."""
    if _reusable(folder, env, python):
        say(f"{env.sdk}: reusing {folder} ({env.describe()})")
        return folder
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    say(f"{env.sdk}: installing {env.describe()} in {folder}")
    try:
        if env.language == "python":
            _build_python(env, folder, pip_options=pip_options, python=python, timeout=timeout)
        else:
            _build_node(env, folder, timeout=timeout)
    except BaseException:
        shutil.rmtree(folder, ignore_errors=True)  # never reused half-built
        raise
    (folder / MARKER).write_text(json.dumps(_marker(env, python), indent=1) + "\n", encoding="utf-8")
    return folder


def _outer_pip() -> list[str] | None:
    """This interpreter's pip, when it can install into another environment (``pip --python``,
    pip 22.3+): the venv then needs no pip of its own (``ensurepip`` costs seconds per venv)."""
    try:
        from importlib.metadata import version

        major, minor = (int(part) for part in version("pip").split(".")[:2])
    except (ImportError, ValueError, LookupError):
        return None
    return [sys.executable, "-m", "pip"] if (major, minor) >= (22, 3) else None


def _build_python(env: Environment, folder: Path, *, pip_options: Sequence[str], python: str, timeout: float) -> None:
    outer = _outer_pip()
    venv = [python, "-m", "venv", *(["--without-pip"] if outer else []), str(folder)]
    status, _out, err = _run(venv, cwd=folder, timeout=timeout, env=_clean_env())
    if status != 0:
        raise ReproduceError(f"{env.sdk}: python -m venv {folder} failed: {_last_line(err)}")
    pip = [*outer, "--python", str(_python_of(folder))] if outer else [str(_python_of(folder)), "-m", "pip"]
    command = [*pip, "install", "--disable-pip-version-check", "--no-input", "--quiet", *pip_options, *env.requirements]
    status, out, err = _run(command, cwd=folder, timeout=timeout, env=_clean_env({"PIP_REQUIRE_VIRTUALENV": "0"}))
    if status != 0:
        why = "timed out" if status is None else _last_line(err or out)
        raise ReproduceError(f"{env.sdk}: pip install {' '.join(env.requirements)} failed: {why}")


def _build_node(env: Environment, folder: Path, *, timeout: float) -> None:
    missing = [tool for tool in ("node", "npm") if shutil.which(tool) is None]
    if missing:
        raise ReproduceError(f"{env.sdk}: {' and '.join(missing)} not found on PATH: the Node SDK's reproducers need "
                             f"Node.js and npm (https://nodejs.org)")
    package = {"name": f"strictconformance-reproduce-{re.sub(r'[^a-z0-9-]', '-', env.sdk.lower())}", "private": True,
               "version": "0.0.0", "type": "module"}
    (folder / "package.json").write_text(json.dumps(package, indent=1) + "\n", encoding="utf-8")
    npm = shutil.which("npm") or "npm"
    status, out, err = _run([npm, "install", "--no-audit", "--no-fund", "--save-exact", "--loglevel=error",
                             *env.requirements], cwd=folder, timeout=timeout, env=_clean_env())
    if status != 0:
        why = "timed out" if status is None else _last_line(err or out)
        raise ReproduceError(f"{env.sdk}: npm install {' '.join(env.requirements)} failed: {why}")


# -- Running reproducers ------------------------------------------------------------------------

@dataclass(frozen=True)
class Outcome:
    """What one reproducer did: ``status`` is ``bug`` (it shows the bug), ``no-bug``, ``error`` or
    ``timeout``; ``detail`` says more (the BUG line, the error)."""

    entry: TriageEntry
    status: str
    detail: str = ""
    environment: str = ""

    @property
    def shows_bug(self) -> bool:
        return self.status == "bug"

    @property
    def result(self) -> str:
        """The table's wording."""
        if self.status == "bug":
            return "shows the bug"
        if self.status == "no-bug":
            return "does not show the bug (prints no BUG line)"
        if self.status == "timeout":
            return f"timed out{f' ({self.detail})' if self.detail else ''}"
        return f"error: {self.detail}"


def run_reproducer(entry: TriageEntry, env: Environment, folder: Path, *, timeout: float = DEFAULT_TIMEOUT_S) -> Outcome:
    """Write ``entry``'s reproducer to a file and run it alone with the environment in ``folder``."""
    with tempfile.TemporaryDirectory(prefix="reproducer-", dir=folder if env.language == "node" else None) as work:
        if env.language == "python":
            script = Path(work) / "reproducer.py"
            command = [str(_python_of(folder)), "-I", str(script)]  # -I: no user site, no PYTHON* variables, no cwd
        else:  # in the environment's folder, so that `import "ai"` finds its node_modules
            script = Path(work) / "reproducer.mjs"
            command = [shutil.which("node") or "node", str(script)]
        script.write_text(entry.reproducer, encoding="utf-8")
        status, out, err = _run(command, cwd=Path(work), timeout=timeout, env=_clean_env())
    label = env.describe()
    if status is None:
        return Outcome(entry, "timeout", f"killed after {timeout:g} s", label)
    if status != 0:
        return Outcome(entry, "error", f"exit code {status}, {_last_line(err)}", label)
    shown = [line for line in out.splitlines() if line.startswith(BUG_MARK)]
    if shown:
        return Outcome(entry, "bug", shown[0], label)
    return Outcome(entry, "no-bug", _last_line(out) if out.strip() else "", label)


def reproduce(entries: Sequence[TriageEntry], *, paths: Sequence[SdkPath] = SDK_PATHS, venvs: Path | None = None,
              timeout: float = DEFAULT_TIMEOUT_S, pip_options: Sequence[str] = (), python: str = sys.executable,
              install_timeout: float = INSTALL_TIMEOUT_S,
              say: Callable[[str], None] = lambda message: None) -> list[Outcome]:
    """Every ``confirmed``/``disputed`` reproducer of ``entries``, run in its SDK's environment
    (kept in ``venvs`` when given, else in a temporary folder removed afterwards). An environment
    that cannot be built makes each of its entries an ``error`` naming why."""
    outcomes: list[Outcome] = []
    scratch = None if venvs is not None else tempfile.TemporaryDirectory(prefix="strictconformance-reproduce-")
    # absolute: each environment is built by commands run inside its own folder (a relative path
    # put the venv at folder/folder and every reproducer failed with exit status 127)
    root = Path(venvs).resolve() if venvs is not None else Path(scratch.name)  # type: ignore[union-attr]
    try:
        for env, members in plan(entries, paths):
            try:
                folder = build_environment(env, root / env.folder_name, pip_options=pip_options, python=python,
                                           timeout=install_timeout, say=say)
            except ReproduceError as error:
                say(str(error))
                outcomes += [Outcome(entry, "error", str(error), env.describe()) for entry in members]
                continue
            for entry in members:
                outcome = run_reproducer(entry, env, folder, timeout=timeout)
                say(f"{entry.sdk_path} {entry.rule}: {outcome.result}")
                outcomes.append(outcome)
    finally:
        if scratch is not None:
            scratch.cleanup()
    return outcomes


def format_table(outcomes: Sequence[Outcome], *, key_width: int = 70) -> str:
    """A Markdown table, one row per reproducer, then one line per environment."""
    def cell(text: str) -> str:
        return text.replace("|", "\\|").replace("\n", " ")

    def short(text: str) -> str:
        return text if len(text) <= key_width else text[:key_width - 1] + "…"

    lines = ["| sdk_path | rule | key | verdict | result |", "|---|---|---|---|---|"]
    for outcome in outcomes:
        entry = outcome.entry
        lines.append(f"| {entry.sdk_path} | {entry.rule} | {cell(short(entry.key))} | {entry.verdict} | "
                     f"{cell(outcome.result)} |")
    shown = sum(outcome.shows_bug for outcome in outcomes)
    lines.append("")
    by_env: dict[str, list[Outcome]] = {}
    for outcome in outcomes:
        by_env.setdefault(outcome.environment, []).append(outcome)
    for label, members in by_env.items():
        lines.append(f"{sum(m.shows_bug for m in members)}/{len(members)} show the bug with {label}")
    lines.append(f"{shown} of {len(outcomes)} reproducers show the bug")
    return "\n".join(lines)

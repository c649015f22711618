"""Columns that run in an environment of their own (``SdkPath.environment``): an SDK whose pins
conflict with the ``sdks`` extra's (instructor needs ``jiter<0.15``, openai 3.57.0 ``jiter>=0.16``)
still gets a column. The declaration is checked when the path is made; the matrix builds the
environment under ``--out``, reads the column's versions from it and runs the column with its Python.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path

import pytest

from strictconformance.matrix import run as matrix_run
from strictconformance.matrix.run import pytest_command, run_column, unavailable_reason
from strictconformance.sdks import SDK_PATHS, SdkPath, distribution_versions, missing_distributions


def test_an_environment_pins_every_distribution_of_its_path() -> None:
    with pytest.raises(ValueError, match=r"environment= pins no version of openai \(write openai==VERSION\)"):
        SdkPath("acme/x", "x", ("acme", "openai"), adapter="m:A", environment=("acme==1.0", "openai>=3"))
    with pytest.raises(ValueError, match="environment= requirement 'acme ==' is not a pip requirement"):
        SdkPath("acme/x", "x", ("acme",), adapter="m:A", environment=("acme ==",))
    with pytest.raises(ValueError, match=r"environment= is for Python adapters \(adapter=\)"):
        SdkPath("acme/x", "x", ("acme",), command="node h.mjs", language="node", environment=("acme==1.0",))
    # names are compared as pip compares them
    path = SdkPath("acme/x", "x", ("Acme_SDK",), adapter="m:A", environment=("acme-sdk==2.0", "pydantic==2.14.4"))
    assert distribution_versions(path) == {"Acme_SDK": "2.0"}


def test_a_path_with_its_own_environment_is_never_missing_here() -> None:
    """Its SDK is not (and cannot be) installed beside the kit: its versions are its environment's."""
    path = SdkPath("acme/x", "x", ("surely-not-installed-acme",), adapter="m:A",
                   environment=("surely-not-installed-acme==1.2.3",))
    assert missing_distributions(path) == []
    assert distribution_versions(path) == {"surely-not-installed-acme": "1.2.3"}


def test_instructor_runs_in_its_own_environment() -> None:
    instructor = [path for path in SDK_PATHS if path.key.startswith("instructor/")]
    assert instructor and all(path.environment for path in instructor)
    for path in instructor:
        assert distribution_versions(path) == {"instructor": "1.17.0", "openai": "3.3.0"}


def test_no_kit_source_makes_the_column_unavailable_saying_why(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = SdkPath("acme/x", "x", ("acme",), adapter="m:A", environment=("acme==1.0",))
    monkeypatch.setattr(matrix_run, "kit_source", lambda: None)
    reason = unavailable_reason(path)
    assert reason is not None and "install strictconformance from a checkout" in reason
    column = run_column(path, tmp_path, profile="ci")
    assert column.status == "unavailable" and column.reason == reason
    assert not (tmp_path / "venvs").exists()


def test_a_failed_build_is_unavailable_naming_pip_s_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """pip's own last line says why; nothing half-built is left to be reused."""
    path = SdkPath("acme/x", "x", ("acme",), adapter="m:A", environment=("acme==1.0",))
    monkeypatch.setattr(matrix_run, "kit_source", lambda: (str(tmp_path / "kit"), False))
    (tmp_path / "kit").mkdir()
    (tmp_path / "kit" / "pyproject.toml").write_text("[project]\nname = 'strictconformance'\n")
    monkeypatch.setattr(matrix_run, "environment_requirements", lambda path, source: ["--no-index", "acme==1.0"])
    column = run_column(path, tmp_path / "out", profile="ci")
    assert column.status == "unavailable", column
    assert column.reason is not None and column.reason.startswith("its environment could not be built: pip install")
    assert "acme" in column.reason and column.report_file is None
    assert not any((tmp_path / "out" / "venvs").iterdir())


def test_the_column_runs_with_its_environment_s_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A built environment is reused while its requirements are the same; the column's versions are
    read from it, and pytest runs with its Python, not this one."""
    path = SdkPath("acme/x", "x", ("acme",), adapter="m:A", environment=("acme==1.0",))
    monkeypatch.setattr(matrix_run, "kit_source", lambda: (str(tmp_path), True))
    # an "environment" that is this interpreter, marked as built from the same requirements
    requirements = matrix_run.environment_requirements(path, (str(tmp_path), True))
    assert requirements[0] == f"--editable={tmp_path}" and requirements[-1] == "acme==1.0"
    marker = {"python": sys.executable, "requirements": requirements}
    folder = tmp_path / "venvs" / f"acme-{hashlib.sha256(json.dumps(marker).encode()).hexdigest()[:10]}"
    python = folder / "bin" / "python"
    python.parent.mkdir(parents=True)
    python.symlink_to(sys.executable)
    (folder / "strictconformance-environment.json").write_text(json.dumps(marker))
    seen: list[list[str]] = []
    real_popen = matrix_run.subprocess.Popen

    def fake_popen(command: list[str], **kwargs: object) -> object:
        if "pytest" not in command:  # reading the environment's versions runs for real
            return real_popen(command, **kwargs)  # type: ignore[call-overload]
        seen.append(command)
        raise OSError("stopped here")

    monkeypatch.setattr(matrix_run.subprocess, "Popen", fake_popen)
    column = run_column(path, tmp_path, profile="ci")
    assert seen and seen[0][0] == str(folder.resolve() / "bin" / "python"), seen
    assert seen[0] == pytest_command(path, tmp_path.resolve() / "reports" / "acme__x.json", profile="ci", rules=(),
                                     workers=None, python=seen[0][0])
    assert column.versions == {"acme": None}  # read from the environment (acme is not installed in it)
    assert folder.is_dir(), "a matching environment was rebuilt"


def test_columns_sharing_an_environment_build_it_once_and_never_at_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An SDK's columns share their environment and the matrix runs columns in threads (--jobs):
    the second column waits for the first one's build and reuses it. Both used to clear and build the
    folder at once, and the loser's rmtree crashed the whole matrix (OSError: Directory not empty)."""
    import threading

    monkeypatch.setattr(matrix_run, "kit_source", lambda: (str(tmp_path), True))
    inside = 0
    most = 0
    builds: list[str] = []
    guard = threading.Lock()
    other_arrived = threading.Event()

    def fake_run(command: list[str], **kwargs: object) -> object:
        nonlocal inside, most
        with guard:
            inside += 1
            most = max(most, inside)
        if inside > 1:
            other_arrived.set()
        other_arrived.wait(0.5)  # give another builder the chance to come in: only the lock keeps it out
        if command[1:3] == ["-m", "venv"]:
            builds.append(command[-1])
            python = Path(command[-1]) / "bin" / "python"
            python.parent.mkdir(parents=True, exist_ok=True)
            python.symlink_to(sys.executable)
        with guard:
            inside -= 1
        return matrix_run.subprocess.CompletedProcess(command, 0, "", "")

    monkeypatch.setattr(matrix_run.subprocess, "run", fake_run)
    paths = [SdkPath(f"acme/{name}", name, ("acme",), adapter="m:A", environment=("acme==1.0",)) for name in ("x", "y")]
    pythons: list[Path] = []
    errors: list[BaseException] = []

    def build(path: SdkPath) -> None:
        try:
            pythons.append(matrix_run.build_column_environment(path, tmp_path))
        except BaseException as error:  # the test reports it
            errors.append(error)

    threads = [threading.Thread(target=build, args=(path,)) for path in paths]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    assert len(builds) == 1 and most == 1, (builds, most)
    assert len(pythons) == 2 and pythons[0] == pythons[1]


def test_a_column_the_kit_fails_on_is_an_error_column_and_the_others_keep_their_results(tmp_path: Path,
                                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """An exception of the kit's own while running one column is that column's error, named as the
    kit's; the matrix goes on and writes every other column's result."""
    from strictconformance.matrix import __main__ as matrix_main

    def broken_run_column(path: SdkPath, *args: object, **kwargs: object) -> object:
        raise OSError(39, "Directory not empty", "site-packages")

    monkeypatch.setattr(matrix_main, "run_column", broken_run_column)
    code = matrix_main.main(["--out", str(tmp_path / "build"), "--paths", "openai-python/client", "--jobs", "2"])
    summary = json.loads((tmp_path / "build" / "summary.json").read_text())
    columns = {column["key"]: column for column in summary["columns"]}
    assert columns["openai-python/client"]["status"] == "error", columns
    assert "strictconformance's own error while running this column" in columns["openai-python/client"]["reason"]
    assert "Directory not empty" in columns["openai-python/client"]["reason"]
    assert "reference" in columns and code is not None

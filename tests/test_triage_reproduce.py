"""``triage reproduce`` and the reproducer contract, for real and offline: a tiny SDK distribution
(a wheel built here) installed with ``pip --no-index`` into a real venv without site-packages
(one per module), reproducers run each as a file of its own, and ``triage check`` refusing a
reproducer that breaks the contract."""

from __future__ import annotations

import base64
import hashlib
import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

import pytest

from strictconformance.sdks import SdkPath
from strictconformance.sdks.reproduce import (
    Environment,
    ReproduceError,
    build_environment,
    entry_pins,
    plan,
    run_reproducer,
)
from strictconformance.sdks.triage import TriageError, load_triage, main

ACME = SdkPath("acme/strictify", "Acme strictify", ("acme-sdk",), adapter="acme_sdk:Adapter")
ACME_JS = SdkPath("acmejs/node", "Acme JS", ("acme-js", "@acme/extra"), command="node acme.mjs", language="node")
PATHS = [ACME, ACME_JS]
#: The SDK under test: strictify keeps prefixItems (the "bug" the reproducers show).
SDK_SOURCE = '"""A tiny SDK for the reproducer self-tests."""\n\n\ndef strictify(schema):\n    return dict(schema)\n'

SHOWS = "from acme_sdk import strictify\nif 'prefixItems' in strictify({'prefixItems': []}):\n    print('BUG: prefixItems kept')\n"
FIXED = ("from acme_sdk import strictify\nif 'prefixItems' in strictify({}):\n    print('BUG: prefixItems kept')\n"
         "else:\n    print('OK: no prefixItems')\n")
RAISES = "from acme_sdk import strictify\nraise ValueError('boom: ' + strictify({'a': 1})['a'].__class__.__name__)  # BUG: never printed\n"
HANGS = "import time\n\nfrom acme_sdk import strictify\ntime.sleep(600)  # BUG: never printed\n"
ISOLATED = ("import importlib.metadata\nimport importlib.util\n"
            "others = [name for name in ('strictconformance', 'hypothesis', 'jsonschema') if importlib.util.find_spec(name)]\n"
            "print('BUG: only the SDK,', importlib.metadata.version('acme-sdk')) if not others else print('OK: also', others)\n")


def _wheel(folder: Path, name: str = "acme_sdk", version: str = "1.0.0") -> Path:
    """A pure-Python wheel, zipped by hand: installing it needs no build backend and no network."""
    dist_info = f"{name}-{version}.dist-info"
    files = {
        f"{name}/__init__.py": SDK_SOURCE,
        f"{dist_info}/METADATA": f"Metadata-Version: 2.1\nName: {name.replace('_', '-')}\nVersion: {version}\n",
        f"{dist_info}/WHEEL": "Wheel-Version: 1.0\nGenerator: strictconformance-tests\nRoot-Is-Purelib: true\nTag: py3-none-any\n",
    }
    record = []
    for path, text in files.items():
        digest = base64.urlsafe_b64encode(hashlib.sha256(text.encode()).digest()).rstrip(b"=").decode()
        record.append(f"{path},sha256={digest},{len(text.encode())}")
    record.append(f"{dist_info}/RECORD,,")
    files[f"{dist_info}/RECORD"] = "\n".join(record) + "\n"
    wheel = folder / f"{name}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
    return wheel


def _entry(reproducer: str, *, rule: str = "SM-28", key: str = "SM-28 violation: prefixItems kept", verdict: str = "confirmed",
           **changes: Any) -> dict[str, Any]:
    entry = {"sdk_path": "acme/strictify", "version": "1.0.0", "rule": rule, "key": key, "summary": "s",
             "reproducer": reproducer, "verdict": verdict, "evidence": "acme_sdk/__init__.py:4"}
    entry.update(changes)
    return entry


def _triage(folder: Path, entries: list[dict[str, Any]], name: str = "acme.json") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / name).write_text(json.dumps(entries), encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def offline(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """The wheel folder, the pip options that install from it alone, and the venvs folder, with
    the acme-sdk 1.0.0 environment built once (later runs reuse it: same pins)."""
    root = tmp_path_factory.mktemp("reproduce")
    wheels = root / "wheels"
    wheels.mkdir()
    _wheel(wheels)
    options = ["--no-index", f"--find-links={wheels}"]
    venvs = root / "venvs"
    env = Environment("acme", "python", (("acme-sdk", "1.0.0"),))
    folder = build_environment(env, venvs / env.folder_name, pip_options=options)
    return {"options": options, "venvs": venvs, "env": env, "folder": folder, "root": root}


def _cli(offline: dict[str, Any], folder: Path, *extra: str) -> list[str]:
    return ["reproduce", "--dir", str(folder), "--venvs", str(offline["venvs"]),
            *(f"--pip-option={option}" for option in offline["options"]), *extra]


def test_the_environment_holds_only_the_sdk(offline: dict[str, Any]) -> None:
    """A venv without the system site-packages: the SDK at its pinned version, nothing of the kit."""
    entry = load_triage(_triage(offline["root"] / "iso", [_entry(ISOLATED)]), known_paths=PATHS)[0]
    outcome = run_reproducer(entry, offline["env"], offline["folder"], timeout=60)
    assert outcome.status == "bug" and outcome.detail == "BUG: only the SDK, 1.0.0", outcome


@pytest.mark.slow
def test_reproduce_reports_each_result_and_fails_unless_every_bug_shows(offline: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    folder = _triage(offline["root"] / "mixed", [
        _entry(SHOWS),
        _entry(FIXED, rule="SM-27", key="SM-27 violation: oneOf kept"),
        _entry(RAISES, rule="SM-26", key="SM-26 violation: allOf kept", verdict="disputed"),
        _entry(HANGS, rule="SM-20", key="SM-20 violation: not kept"),
        _entry("print('the SDK was right')", rule="SM-01", key="SM-01 violation: root", verdict="kit-bug-fixed"),
    ])
    assert main(_cli(offline, folder, "--timeout", "10"), sdk_paths=PATHS) == 1
    captured = capsys.readouterr()
    rows = [line for line in captured.out.splitlines() if line.startswith("| acme/")]
    assert rows == [
        "| acme/strictify | SM-28 | SM-28 violation: prefixItems kept | confirmed | shows the bug |",
        "| acme/strictify | SM-27 | SM-27 violation: oneOf kept | confirmed | does not show the bug (prints no BUG line) |",
        "| acme/strictify | SM-26 | SM-26 violation: allOf kept | disputed | error: exit code 1, ValueError: boom: int |",
        "| acme/strictify | SM-20 | SM-20 violation: not kept | confirmed | timed out (killed after 10 s) |",
    ]  # the kit-bug-fixed entry is not run
    assert "1 of 4 reproducers show the bug" in captured.out
    assert "reusing" in captured.err and "installing" not in captured.err  # the module's environment, same pins

    only_bug = _triage(offline["root"] / "good", [_entry(SHOWS)])
    assert main(_cli(offline, only_bug), sdk_paths=PATHS) == 0
    assert "1 of 1 reproducers show the bug" in capsys.readouterr().out


def test_a_failed_install_names_the_package_and_pips_last_line(offline: dict[str, Any], capsys: pytest.CaptureFixture[str]) -> None:
    folder = _triage(offline["root"] / "missing", [_entry(SHOWS, version="9.9.9")])
    assert main(_cli(offline, folder), sdk_paths=PATHS) == 1
    out = capsys.readouterr().out
    assert ("error: acme: pip install acme-sdk==9.9.9 failed: ERROR: No matching distribution found for acme-sdk==9.9.9"
            in out), out
    assert not any(path.name.startswith("python-acme-") and path != offline["folder"]
                   for path in offline["venvs"].iterdir())  # the half-built venv is removed, never reused


def test_node_sdks_without_node_or_npm_are_a_clear_error(offline: dict[str, Any], tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _triage(tmp_path / "triage", [_entry("import { f } from 'acme-js';\nconsole.log('BUG: x');\n", sdk_path="acmejs/node",
                                                  version="acme-js 1.0.0, @acme/extra 2.0.0")], name="acmejs.json")
    empty = tmp_path / "bin"
    empty.mkdir()
    monkeypatch.setenv("PATH", str(empty))
    assert main(["reproduce", "--dir", str(folder), "--venvs", str(tmp_path / "venvs")], sdk_paths=PATHS) == 1
    assert "error: acmejs: node and npm not found on PATH" in capsys.readouterr().out


def test_pins_come_from_the_version_string_and_merge_per_sdk(tmp_path: Path) -> None:
    entries = load_triage(_triage(tmp_path, [
        _entry("print('BUG: a')", sdk_path="acmejs/node", version="acme-js 1.0.0"),
        _entry("print('BUG: b')", sdk_path="acmejs/node", version="acme-js 1.0.0, @acme/extra 2.0.0", rule="SM-27", key="k2"),
        _entry("print('BUG: c')", sdk_path="acmejs/node", version="acme-js 1.1.0", rule="SM-26", key="k3"),
    ], "acmejs.json"), known_paths=PATHS)
    assert entry_pins(entries[1], ACME_JS) == {"acme-js": "1.0.0", "@acme/extra": "2.0.0"}
    planned = plan(entries, PATHS)
    assert [(env.requirements, [e.key for e in members]) for env, members in planned] == [
        (["@acme/extra@2.0.0", "acme-js@1.0.0"], ["SM-28 violation: prefixItems kept", "k2"]),
        (["acme-js@1.1.0"], ["k3"]),  # pins acme-js to another version: an environment of its own
    ]
    assert entries[0].language == "node"  # from the SDK path, though the entry does not say


@pytest.mark.parametrize(("entry", "name", "message"), [
    (_entry("from acme_sdk import strictify\nprint(strictify({}))"), "acme.json",
     r"entry 0 \(SM-28 .*\): the reproducer never prints 'BUG:': a confirmed entry's reproducer prints a line starting 'BUG:'"),
    (_entry("print('BUG: x'", verdict="disputed"), "acme.json", r"the reproducer is not valid Python: '\(' was never closed"),
    (_entry("const f = require('acme-js');\nconsole.log('BUG: x');", sdk_path="acmejs/node", version="acme-js 1.0.0"),
     "acmejs.json", r"uses require\(\): a Node reproducer is an ES module"),
    (_entry("print('BUG: x')", language="node"), "acme.json", r"language 'node', but the reproducers of acme/strictify are python"),
    (_entry("print('BUG: x')", version="acme-sdk 1.0.0, left-pad 1.3.0"), "acme.json",
     r"version 'acme-sdk 1.0.0, left-pad 1.3.0' names 'left-pad', which is not a package of acme/strictify \(acme-sdk\)"),
    (_entry("print('BUG: x')", version="1.0 beta"), "acme.json", r"'1.0 beta' is neither a version \(1.2.3\) nor 'package version'"),
])
def test_check_refuses_a_reproducer_that_breaks_the_contract(tmp_path: Path, entry: dict[str, Any], name: str, message: str) -> None:
    with pytest.raises(TriageError, match=message):
        load_triage(_triage(tmp_path, [entry], name), known_paths=PATHS)


def test_check_command_refuses_a_confirmed_entry_without_a_bug_line(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _triage(tmp_path, [_entry("from acme_sdk import strictify\nprint(strictify({}))"),
                                _entry("print('no bug line: fine for a kit bug')", rule="SM-01", key="k", verdict="kit-bug-fixed")])
    assert main(["check", "--dir", str(folder)], sdk_paths=PATHS) == 2
    assert "never prints 'BUG:'" in capsys.readouterr().err
    (folder / "acme.json").write_text(json.dumps([_entry(SHOWS)]), encoding="utf-8")
    assert main(["check", "--dir", str(folder)], sdk_paths=PATHS) == 0


def test_bad_arguments_are_refused(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    folder = _triage(tmp_path, [_entry(SHOWS, verdict="kit-bug-fixed")])
    assert main(["reproduce", "--dir", str(folder)], sdk_paths=PATHS) == 2
    assert "no confirmed or disputed entry selected" in capsys.readouterr().err
    assert main(["reproduce", "--dir", str(folder), "--sdk", "nope"], sdk_paths=PATHS) == 2
    assert "--sdk nope: no triage entry of that SDK; known: acme" in capsys.readouterr().err
    assert main(["reproduce", "--dir", str(folder), "--timeout", "0"], sdk_paths=PATHS) == 2
    assert "above 0" in capsys.readouterr().err


def test_a_build_failure_raises_naming_the_sdk(tmp_path: Path) -> None:
    env = Environment("acme", "python", (("acme-sdk", "1.0.0"),))
    with pytest.raises(ReproduceError, match=r"acme: python -m venv .* failed"):
        build_environment(env, tmp_path / "v", python=str(tmp_path / "no-such-python"))
    assert not (tmp_path / "v").exists()


@pytest.mark.skipif(shutil.which("node") is None, reason="node is not installed (Node reproducers run with node)")
def test_node_reproducers_run_as_es_modules(tmp_path: Path) -> None:
    """A Node reproducer runs as an ES module file in its environment's folder (top-level await);
    an uncaught error is reported by its message, not node's stack or version trailer."""
    env = Environment("acmejs", "node", ())
    (tmp_path / "package.json").write_text('{"private": true, "type": "module"}\n', encoding="utf-8")
    entries = load_triage(_triage(tmp_path / "triage", [
        _entry("const value = await Promise.resolve(7);\nconsole.log(`BUG: got ${value}`);\n", sdk_path="acmejs/node",
               version="acme-js 1.0.0"),
        _entry("await Promise.resolve();\nthrow new TypeError('boom');  // BUG: never printed\n", sdk_path="acmejs/node",
               version="acme-js 1.0.0", rule="SM-27", key="k2"),
    ], "acmejs.json"), known_paths=PATHS)
    shown, raised = (run_reproducer(entry, env, tmp_path, timeout=60) for entry in entries)
    assert (shown.status, shown.detail) == ("bug", "BUG: got 7")
    assert (raised.status, raised.detail) == ("error", "exit code 1, TypeError: boom"), raised


def test_a_relative_venvs_folder_works(offline: dict[str, Any], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    """--venvs relative to the current folder: each environment is built by commands run inside its
    own folder, which put the venv at folder/folder and failed every reproducer with exit status 127."""
    folder = _triage(tmp_path / "triage", [_entry(SHOWS)])
    monkeypatch.chdir(tmp_path)
    argv = ["reproduce", "--dir", str(folder), "--venvs", "rel-venvs", *(f"--pip-option={o}" for o in offline["options"])]
    assert main(argv, sdk_paths=PATHS) == 0, capsys.readouterr()
    assert "1 of 1 reproducers show the bug" in capsys.readouterr().out
    assert not list((tmp_path / "rel-venvs").glob("*/rel-venvs"))

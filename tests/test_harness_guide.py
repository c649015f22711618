"""The harness guide's complete minimal harness (docs/harnesses.md), followed as a reader follows
it: in an empty directory outside the checkout, with only the documented steps.

The steps are the part of docs/harnesses.md between ``<!-- harness-guide:start -->`` and
``<!-- harness-guide:end -->``. In document order, a fenced block whose caption (the paragraph just
above it) is exactly ```` `FILE`: ```` is written to FILE; a ``console`` block's ``$ `` lines are run
with bash in the directory (``python`` and ``pytest`` are this interpreter's), and the lines under
each must appear in its output as in tests/test_readme.py (``...`` for any lines or any text,
report rows compared without their example counts). Any other block fails the test.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from strictconformance.spec import all_rules
from test_readme import normalise, unmatched

ROOT = Path(__file__).resolve().parent.parent
GUIDE = ROOT / "docs" / "harnesses.md"
START, END = "<!-- harness-guide:start -->", "<!-- harness-guide:end -->"
_FENCE = re.compile(r"^```(?P<lang>[\w-]*)\s*$")
_WRITE = re.compile(r"^`(?P<path>[\w.-]+(?:/[\w.-]+)*)`:$")
TIMEOUT_S = 600


def guide_operations(text: str) -> list[tuple[str, int, str, list[str]]]:
    """``(kind, line, caption-or-command, body)`` for each block: ``("write", line, path, lines)`` or
    ``("run", line, command, expected lines)``."""
    lines = text.split("\n")
    start, end = lines.index(START), lines.index(END)
    operations: list[tuple[str, int, str, list[str]]] = []
    index = start + 1
    while index < end:
        fence = _FENCE.match(lines[index])
        if not fence:
            index += 1
            continue
        closing = next(i for i in range(index + 1, end) if lines[i].startswith("```"))
        body = lines[index + 1:closing]
        where = index + 1
        if fence["lang"] == "console":
            for offset, line in enumerate(body):
                if line.startswith("$ "):
                    operations.append(("run", where + offset + 1, line[2:], []))
                else:
                    assert operations and operations[-1][0] == "run", f"docs/harnesses.md line {where}: output before a command"
                    operations[-1][3].append(line)
        else:
            above = index - 1
            while above > start and not lines[above].strip():
                above -= 1
            caption = _WRITE.match(lines[above].strip())
            assert caption, (f"docs/harnesses.md line {where}: a {fence['lang'] or 'plain'} block in the minimal harness "
                             f"must be a file, captioned `FILE`: (found {lines[above]!r})")
            operations.append(("write", where, caption["path"], body))
        index = closing + 1
    return operations


def test_the_guide_follows_its_conventions() -> None:
    operations = guide_operations(GUIDE.read_text(encoding="utf-8"))
    written = [target for kind, _, target, _ in operations if kind == "write"]
    assert "harness.mjs" in written
    commands = [target for kind, _, target, _ in operations if kind == "run"]
    assert any(command.startswith("pytest -p strictconformance --sc-adapter-cmd") for command in commands)
    assert any("kit-path" in command for command in commands)  # the kit is found through the kit, not a checkout path


def test_the_guide_names_the_capabilities_the_rt_rules_need() -> None:
    text = " ".join(GUIDE.read_text(encoding="utf-8").split())
    needs = {rule_id: rule.capabilities for rule_id, rule in all_rules().items() if rule_id in ("RT-4", "RT-5", "RT-6", "RT-7")}
    assert needs == {"RT-4": ("encode", "decode"), "RT-5": ("decode",), "RT-6": ("encode",), "RT-7": ("decode",)}
    assert "RT-4 needs `encode` and `decode`, RT-5 and RT-7 `decode`, RT-6 `encode`" in text


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("node") is None or shutil.which("npm") is None, reason="needs node and npm")
def test_the_minimal_harness_runs_outside_the_checkout(tmp_path: Path) -> None:
    directory = tmp_path / "my-harness"
    directory.mkdir()
    assert ROOT not in directory.parents  # outside the checkout: nothing of it resolves by accident
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTEST_", "STRICTCONFORMANCE_", "HYPOTHESIS_")) and key not in ("PYTHONPATH", "NODE_PATH")}
    env.update(CI="true", COLUMNS="80", PY_COLORS="0", PATH=os.pathsep.join([str(Path(sys.executable).parent), env.get("PATH", "")]))
    for kind, line, target, body in guide_operations(GUIDE.read_text(encoding="utf-8")):
        if kind == "write":
            path = directory / target
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text("\n".join(body) + "\n", encoding="utf-8")
            continue
        result = subprocess.run(["bash", "-c", target], cwd=directory, env=env, capture_output=True, text=True,
                                timeout=TIMEOUT_S, check=False)
        output = [normalise(text, directory) for text in (result.stdout + result.stderr).splitlines()]
        allowed = (0, 1) if target.startswith("pytest") else (0,)
        assert result.returncode in allowed, (f"docs/harnesses.md line {line}: `{target}` exited {result.returncode}:\n"
                                              + "\n".join(output[-60:]))
        problem = unmatched([normalise(text, directory) for text in body], output)
        assert problem is None, (f"docs/harnesses.md line {line}: `{target}` does not print what the guide shows: {problem}\n"
                                 + "\n".join(output))
    assert (directory / "harness-kit.mjs").is_file() and (directory / "node_modules" / "acme-llm").exists()


@pytest.mark.skipif(shutil.which("node") is None, reason="needs node")
def test_package_version_resolves_from_the_harness_not_the_kit(tmp_path: Path) -> None:
    """A harness that imports the installed kit by its absolute path still reads the versions of
    its own packages (from its folder's node_modules), and "unknown" for a package nobody has."""
    from strictconformance.process import node_folder

    package = tmp_path / "node_modules" / "acme-llm"
    package.mkdir(parents=True)
    (package / "package.json").write_text('{"name": "acme-llm", "version": "0.3.1", "main": "index.js"}')
    (package / "index.js").write_text("module.exports = {};\n")
    kit = (Path(node_folder()) / "harness-kit.mjs").as_uri()
    (tmp_path / "versions.mjs").write_text(
        f'import {{ packageVersion }} from "{kit}";\n'
        'console.error(await packageVersion("acme-llm"), await packageVersion("no-such-package-here"));\n')
    result = subprocess.run(["node", "versions.mjs"], cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stderr.split() == ["0.3.1", "unknown"]

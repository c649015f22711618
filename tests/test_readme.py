"""The documentation's tutorial, run as a reader runs it, and the README's quick start against `.ci/run`.

The tutorial is the part of docs/tutorial.md between ``<!-- tutorial:start -->`` and
``<!-- tutorial:end -->``. Its steps are its ``### N. ...`` headings; each step runs in a fresh
directory holding the files the steps before it wrote. Fenced blocks, in document order:

* ``python`` / ``ini`` / ``toml`` blocks are file operations, named by the paragraph just above
  the block, which must end with one of:

  - ```` `acme_llm.py`: ```` (the whole paragraph): write the file;
  - ```` In `acme_llm.py`, replace `tool_param` with: ````: replace that definition (a top-level
    function, class or assignment, or ``Class.member``) with the block;
  - ```` In `acme_adapter.py`, add after `AcmeAdapter.providers`: ````: insert the block after it.

  A block with no such caption, or one naming a file or definition that does not exist, fails
  the tutorial: a renamed block never goes unnoticed.
* ``console`` blocks: ``$ `` lines are commands, the lines under one are its expected output.
  ``pytest ...`` runs as ``python -m pytest ...`` and ``python ...`` with this interpreter, in the
  step's directory, with ``CI=true`` (the derandomized ``ci`` profile), that directory on
  ``PYTHONPATH`` and leading ``NAME=value`` words as environment. Every expected line must appear
  in the real output, consecutive lines consecutively and in order; a line ``...`` stands for any
  number of lines and ``...`` inside a line for any text. Both sides are normalised first:
  durations, the installed checks' directory, and the examples column of the report (its counts
  differ between the ``dev`` profile a reader runs and ``ci``).
* ``sh`` blocks are commands shown, not run: ``pip install`` must name this distribution (or
  ``.``), and a ``pytest`` command must load and collect (``--collect-only``).
"""

from __future__ import annotations

import ast
import os
import re
import shlex
import subprocess
import sys
import textwrap
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

import pytest

from strictconformance.plugin import CHECKS_DIR

ROOT = Path(__file__).resolve().parent.parent
README = ROOT / "README.md"
TUTORIAL = ROOT / "docs" / "tutorial.md"
CI_SCRIPT = ROOT / ".ci" / "run"
START, END = "<!-- tutorial:start -->", "<!-- tutorial:end -->"
DISTRIBUTION = "strictconformance"
#: How the installed checks' directory is written in the tutorial (a regular, non-editable install).
CHECKS_SHOWN_AS = ".../site-packages/strictconformance/checks"
COMMAND_TIMEOUT_S = 300


class TutorialFormatError(Exception):
    """The tutorial does not follow the conventions of this module's docstring."""


# -- Reading the tutorial ---------------------------------------------------------------------


@dataclass(frozen=True)
class WriteFile:
    line: int
    path: str
    text: str


@dataclass(frozen=True)
class EditDefinition:
    line: int
    path: str
    target: str
    mode: str  # "replace" or "add after"
    text: str


@dataclass(frozen=True)
class Command:
    line: int
    words: tuple[str, ...]
    env: tuple[tuple[str, str], ...]
    expected: tuple[str, ...]


@dataclass(frozen=True)
class ShownCommand:
    line: int
    words: tuple[str, ...]


Operation = WriteFile | EditDefinition | Command | ShownCommand


@dataclass(frozen=True)
class Step:
    number: int
    title: str
    line: int
    operations: tuple[Operation, ...]


_FENCE = re.compile(r"^```(?P<lang>[\w-]*)\s*$")
_STEP_HEADING = re.compile(r"^### (?P<number>\d+)\. (?P<title>.+)$")
_PATH = r"`(?P<path>[\w.-]+(?:/[\w.-]+)*)`"
_WRITE = re.compile(rf"^{_PATH}:$")
_EDIT = re.compile(rf"In {_PATH}, (?P<mode>replace|add after) `(?P<target>[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)?)`(?: with)?:$")
_FILE_LANGS = ("python", "ini", "toml")
_ENV_WORD = re.compile(r"^[A-Za-z_]\w*=")


def tutorial_lines(text: str) -> tuple[int, list[str]]:
    """The tutorial's lines and the line number of the first one."""
    lines = text.split("\n")
    for marker in (START, END):
        count = sum(line.strip() == marker for line in lines)
        if count != 1:
            raise TutorialFormatError(f"docs/tutorial.md must hold the line {marker!r} exactly once, found {count}")
    start = next(i for i, line in enumerate(lines) if line.strip() == START)
    end = next(i for i, line in enumerate(lines) if line.strip() == END)
    if end < start:
        raise TutorialFormatError(f"{END!r} comes before {START!r} in docs/tutorial.md")
    return start + 2, lines[start + 1:end]


def _caption(lines: Sequence[str], fence: int) -> str:
    """The paragraph just above line ``fence``, joined into one line."""
    index = fence - 1
    while index >= 0 and not lines[index].strip():
        index -= 1
    paragraph: list[str] = []
    while index >= 0 and lines[index].strip() and not _FENCE.match(lines[index]):
        paragraph.insert(0, lines[index].strip())
        index -= 1
    return " ".join(paragraph)


def _file_operation(caption: str, lang: str, body: str, where: int) -> WriteFile | EditDefinition:
    written = _WRITE.match(caption)
    if written:
        return WriteFile(where, written["path"], body)
    edit = _EDIT.search(caption)
    if edit and (edit["mode"] == "replace") == caption.endswith(" with:"):
        return EditDefinition(where, edit["path"], edit["target"], edit["mode"], body)
    raise TutorialFormatError(
        f"docs/tutorial.md line {where}: a {lang} block must follow a caption paragraph that is exactly "
        "`FILE`: or ends with In `FILE`, replace `NAME` with: / In `FILE`, add after `NAME`: "
        f"(found {caption!r})")


def _console_commands(body: Sequence[str], where: int) -> Iterator[Command]:
    current: list[str] | None = None
    words: tuple[str, ...] = ()
    env: tuple[tuple[str, str], ...] = ()
    line = where
    for offset, text in enumerate(body, start=1):
        if text.startswith("$ "):
            if current is not None:
                yield Command(line, words, env, tuple(current))
            line = where + offset
            split = shlex.split(text[2:])
            env_count = next((i for i, word in enumerate(split) if not _ENV_WORD.match(word)), len(split))
            env = tuple((name, value) for name, _, value in (word.partition("=") for word in split[:env_count]))
            words = tuple(split[env_count:])
            if not words or words[0] not in ("pytest", "python"):
                raise TutorialFormatError(
                    f"docs/tutorial.md line {line}: a console command must be `pytest ...` or `python ...` (this test "
                    f"runs it); show other commands in an sh block. Found {text!r}")
            current = []
        elif current is None:
            raise TutorialFormatError(f"docs/tutorial.md line {where + offset}: a console block must start with a `$ ` command line")
        else:
            current.append(text)
    if current is None:
        raise TutorialFormatError(f"docs/tutorial.md line {where}: an empty console block")
    yield Command(line, words, env, tuple(current))


def _shown_commands(body: Sequence[str], where: int) -> Iterator[ShownCommand]:
    for offset, text in enumerate(body, start=1):
        words = tuple(shlex.split(text, comments=True))
        if words:
            yield ShownCommand(where + offset, words)


def parse_tutorial(text: str) -> list[Step]:
    """The tutorial's steps with their operations in document order."""
    first_line, lines = tutorial_lines(text)
    if not any(re.match(r"^#{1,2} Tutorial\b", line) for line in lines):
        raise TutorialFormatError("the tutorial region has no heading starting '# Tutorial'")
    steps: list[Step] = []
    operations: list[Operation] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        where = first_line + index
        heading = _STEP_HEADING.match(line)
        if heading:
            if steps:
                _close_step(steps, operations)
            number = int(heading["number"])
            if number != len(steps) + 1:
                raise TutorialFormatError(f"docs/tutorial.md line {where}: step {number} follows step {len(steps)}")
            steps.append(Step(number, heading["title"], where, ()))
            operations = []
            index += 1
            continue
        fence = _FENCE.match(line)
        if not fence:
            index += 1
            continue
        closing = next((i for i in range(index + 1, len(lines)) if lines[i].startswith("```")), None)
        if closing is None or lines[closing].strip() != "```":
            raise TutorialFormatError(f"docs/tutorial.md line {where}: fenced block not closed by a bare ```")
        if not steps:
            raise TutorialFormatError(f"docs/tutorial.md line {where}: a fenced block before the first '### 1. ...' step")
        body = lines[index + 1:closing]
        lang = fence["lang"]
        if lang in _FILE_LANGS:
            operations.append(_file_operation(_caption(lines, index), lang, "\n".join(body) + "\n", where))
        elif lang == "console":
            operations.extend(_console_commands(body, where))
        elif lang == "sh":
            operations.extend(_shown_commands(body, where))
        else:
            raise TutorialFormatError(f"docs/tutorial.md line {where}: fenced block of unknown kind {lang!r}; "
                                      f"use one of {', '.join((*_FILE_LANGS, 'console', 'sh'))}")
        index = closing + 1
    if not steps:
        raise TutorialFormatError("the tutorial has no '### 1. ...' step headings")
    _close_step(steps, operations)
    return steps


def _close_step(steps: list[Step], operations: list[Operation]) -> None:
    step = steps[-1]
    if not any(isinstance(op, Command) and op.expected for op in operations):
        raise TutorialFormatError(f"docs/tutorial.md line {step.line}: step {step.number} runs no console command with output to show")
    steps[-1] = Step(step.number, step.title, step.line, tuple(operations))


# -- Applying file operations -----------------------------------------------------------------


def _definition_span(source: str, target: str, path: str) -> tuple[int, int, int]:
    """(first line, last line, indentation) of ``target`` in ``source`` (1-based, inclusive)."""
    try:
        module = ast.parse(source)
    except SyntaxError as error:
        raise TutorialFormatError(f"{path} is not valid Python after the steps before: {error}") from None
    scope: Sequence[ast.stmt] = module.body
    *owners, name = target.split(".")
    for owner in owners:
        found = [node for node in scope if isinstance(node, ast.ClassDef) and node.name == owner]
        if len(found) != 1:
            raise TutorialFormatError(f"{path} has no class {owner!r} (for {target!r})")
        scope = found[0].body

    def names(node: ast.stmt) -> set[str]:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            return {node.name}
        if isinstance(node, ast.Assign):
            return {t.id for t in node.targets if isinstance(t, ast.Name)}
        if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            return {node.target.id}
        return set()

    matches = [node for node in scope if name in names(node)]
    if len(matches) != 1:
        raise TutorialFormatError(f"{path} defines {target!r} {len(matches)} times; the tutorial edits exactly one definition")
    node = matches[0]
    decorators = getattr(node, "decorator_list", [])
    first = min([node.lineno, *(decorator.lineno for decorator in decorators)])
    assert node.end_lineno is not None
    return first, node.end_lineno, node.col_offset


def apply_file_operation(directory: Path, operation: WriteFile | EditDefinition) -> None:
    target = directory / operation.path
    if isinstance(operation, WriteFile):
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(operation.text)
        return
    if not target.exists():
        raise TutorialFormatError(f"docs/tutorial.md line {operation.line}: edits {operation.path!r}, which no earlier block writes")
    source = target.read_text()
    first, last, indent = _definition_span(source, operation.target, operation.path)
    lines = source.split("\n")
    block = textwrap.indent(textwrap.dedent(operation.text), " " * indent).rstrip("\n").split("\n")
    if operation.mode == "replace":
        lines[first - 1:last] = block
    else:
        lines[last:last] = block
    edited = "\n".join(lines)
    try:
        ast.parse(edited)
    except SyntaxError as error:
        raise TutorialFormatError(f"docs/tutorial.md line {operation.line}: {operation.path} is not valid Python after the edit: {error}") from None
    target.write_text(edited)


# -- Running commands and comparing output ----------------------------------------------------


def _environment(directory: Path, extra: Sequence[tuple[str, str]], ci: bool = True) -> dict[str, str]:
    # A reader's shell: nothing of this test run's pytest, Hypothesis or colour settings leaks in.
    # ci=False: a reader's machine, where the suite's default profile is the random `dev`.
    env = {key: value for key, value in os.environ.items()
           if not key.startswith(("PYTEST_", "STRICTCONFORMANCE_", "HYPOTHESIS_"))
           and key not in ("FORCE_COLOR", "NO_COLOR", "PY_COLORS", "COLUMNS", "LINES", "CI", "TF_BUILD", "GITHUB_ACTIONS")}
    python_path = [str(directory), *filter(None, os.environ.get("PYTHONPATH", "").split(os.pathsep))]
    env.update(COLUMNS="80", PY_COLORS="0", PYTHONDONTWRITEBYTECODE="1", PYTHONPATH=os.pathsep.join(python_path))
    if ci:
        env.update(CI="true")
    env.update(dict(extra))
    return env


def _argv(words: Sequence[str]) -> list[str]:
    program, *args = words
    return [sys.executable, "-m", "pytest", *args] if program == "pytest" else [sys.executable, *args]


def run(directory: Path, words: Sequence[str], env: Sequence[tuple[str, str]] = (),
        ci: bool = True) -> subprocess.CompletedProcess[str]:
    return subprocess.run(_argv(words), cwd=directory, env=_environment(directory, env, ci), capture_output=True,
                          text=True, timeout=COMMAND_TIMEOUT_S, check=False)


_PROFILE = re.compile(r"--sc-profile (?:dev|ci)\b")
_DURATION = re.compile(r" in \d+(?:\.\d+)?s(?: \(\d+:\d\d:\d\d\))?")
_REPORT_ROW = re.compile(r"^(?P<rule>[A-Z]+-\d+)\s+(?P<outcome>passed|failed|error|xfailed|skipped)\s+\d+\s\s(?P<title>.*)$")


def normalise(line: str, directory: Path) -> str:
    line = line.rstrip()
    line = line.replace(str(CHECKS_DIR), CHECKS_SHOWN_AS).replace(str(directory), ".")
    line = _DURATION.sub(" in <duration>", line)
    line = _PROFILE.sub("--sc-profile <profile>", line)  # a replay names the profile of its run: dev here, ci in the test
    row = _REPORT_ROW.match(line)
    if row:  # the examples column: the dev and ci profiles try different numbers of examples
        line = f"{row['rule']} {row['outcome']} <examples> {row['title']}"
    return line


def _pattern(expected: str) -> re.Pattern[str]:
    return re.compile(".*".join(re.escape(part) for part in expected.split("...")))


def unmatched(expected: Sequence[str], actual: Sequence[str]) -> str | None:
    """Why ``expected`` (with ``...`` wildcards) does not appear in ``actual``; None when it does."""
    segments: list[list[str]] = [[]]
    for line in expected:
        if line.strip() == "...":
            segments.append([])
        else:
            segments[-1].append(line)
    position = 0
    for segment in filter(None, segments):
        patterns = [_pattern(line) for line in segment]
        found = next((start for start in range(position, len(actual) - len(segment) + 1)
                      if all(p.fullmatch(actual[start + k]) for k, p in enumerate(patterns))), None)
        if found is None:
            # Diagnose: the longest run of the segment found anywhere after the position.
            best, best_at = 0, position
            for start in range(position, len(actual)):
                length = 0
                while length < len(segment) and start + length < len(actual) and patterns[length].fullmatch(actual[start + length]):
                    length += 1
                if length > best:
                    best, best_at = length, start
            if best:
                return (f"lines {segment[:best]!r} appear at output line {best_at + 1}, but the next expected line "
                        f"{segment[best]!r} does not follow (the output has {actual[best_at + best] if best_at + best < len(actual) else '<end>'!r})")
            return f"expected line {segment[0]!r} does not appear (after output line {position})"
        position = found + len(segment)
    return None


def run_command(directory: Path, command: Command, env: Sequence[tuple[str, str]] = (), ci: bool = True) -> list[str]:
    """Run ``command`` as the README shows it (``env`` added to its own) and check its output;
    returns the output as printed."""
    __tracebackhide__ = True
    result = run(directory, command.words, (*env, *command.env), ci)
    printed = (result.stdout + result.stderr).splitlines()
    output = [normalise(line, directory) for line in printed]
    shown = " ".join((*(f"{k}={v}" for k, v in command.env), *command.words))
    allowed = (0, 1) if command.words[0] == "pytest" else (0,)
    if result.returncode not in allowed:
        pytest.fail(f"docs/tutorial.md line {command.line}: `{shown}` exited {result.returncode}:\n" + "\n".join(output[-80:]))
    expected = [normalise(line, directory) for line in command.expected]
    problem = unmatched(expected, output)
    if problem is not None:
        pytest.fail(f"docs/tutorial.md line {command.line}: `{shown}` does not print what the tutorial shows: {problem}\n"
                    "---- actual output (normalised) ----\n" + "\n".join(output))
    return printed


def check_shown_command(directory: Path, command: ShownCommand) -> None:
    __tracebackhide__ = True
    program, *args = command.words
    if program == "pip":
        targets = [arg for arg in args[1:] if not arg.startswith("-")]
        assert args[:1] == ["install"] and targets, f"docs/tutorial.md line {command.line}: only `pip install ...` is shown"
        for target in targets:
            name = re.split(r"[\[<>=!~ ]", target, maxsplit=1)[0]
            assert name in (DISTRIBUTION, "."), f"docs/tutorial.md line {command.line}: installs {target!r}, not {DISTRIBUTION!r} or '.'"
        return
    assert program == "pytest", f"docs/tutorial.md line {command.line}: an sh block shows pip install or pytest commands, found {program!r}"
    result = run(directory, [*command.words, "--collect-only", "-q"])
    assert result.returncode == 0, (f"docs/tutorial.md line {command.line}: `{shlex.join(command.words)}` does not even collect "
                                    f"(exit {result.returncode}):\n{result.stdout}{result.stderr}")


# -- The tests --------------------------------------------------------------------------------


def _load_steps() -> tuple[list[Step], str | None]:
    try:
        return parse_tutorial(TUTORIAL.read_text(encoding="utf-8")), None
    except (OSError, ValueError, TutorialFormatError) as error:  # ValueError: shlex, unbalanced quotes
        return [], f"{type(error).__name__}: {error}"


_STEPS, _PARSE_ERROR = _load_steps()


def test_tutorial_follows_the_conventions() -> None:
    assert _PARSE_ERROR is None, _PARSE_ERROR
    assert len(_STEPS) >= 5, f"the tutorial has {len(_STEPS)} steps; it promises five"


@pytest.mark.slow
@pytest.mark.parametrize("number", [step.number for step in _STEPS] or [0])
def test_tutorial_step(number: int, tmp_path: Path) -> None:
    """Step ``number`` as a reader runs it, after writing the files of the steps before it."""
    assert _PARSE_ERROR is None, _PARSE_ERROR
    for step in _STEPS[:number - 1]:
        for operation in step.operations:
            if isinstance(operation, (WriteFile, EditDefinition)):
                apply_file_operation(tmp_path, operation)
    for operation in _STEPS[number - 1].operations:
        if isinstance(operation, (WriteFile, EditDefinition)):
            apply_file_operation(tmp_path, operation)
        elif isinstance(operation, Command):
            run_command(tmp_path, operation)
        else:
            check_shown_command(tmp_path, operation)


def _examples_of(rule_id: str, lines: Sequence[str]) -> int | None:
    """The examples column of ``rule_id``'s row in a report printed (or shown) as ``lines``."""
    rows = [int(line.split()[2]) for line in lines if _REPORT_ROW.match(line.rstrip()) and line.split()[0] == rule_id]
    return rows[-1] if rows else None


@pytest.mark.slow
def test_outside_ci_the_step_with_an_expected_failure_replays_it_from_the_database(tmp_path: Path) -> None:
    """The tutorial's step that declares an expected failure, as a reader runs it on their machine:
    no CI, so the random `dev` profile with its example database. The run before the declaration
    saves the failure; the run after tries it first and meets it again in the few examples the
    README shows, not in the dozens of a fresh search. (Each command gets a seed of its own, so the
    test is deterministic and the replay cannot be the seed's doing.)"""
    assert _PARSE_ERROR is None, _PARSE_ERROR
    step = next(s for s in _STEPS if any(isinstance(op, EditDefinition) and "expected_failures" in op.text for op in s.operations))
    for earlier in _STEPS[:step.number - 1]:
        for operation in earlier.operations:
            if isinstance(operation, (WriteFile, EditDefinition)):
                apply_file_operation(tmp_path, operation)
    counts: list[tuple[int, int, int]] = []  # (README line, examples shown, examples run) of each row of the xfailed rule
    declared = False
    for operation in step.operations:
        if isinstance(operation, (WriteFile, EditDefinition)):
            apply_file_operation(tmp_path, operation)
            declared = declared or "expected_failures" in operation.text
        elif isinstance(operation, Command):
            own_ci = any(name == "CI" for name, _ in operation.env)  # `CI=true pytest ...` shows the ci profile
            seed = () if own_ci else (("PYTEST_ADDOPTS", f"--sc-seed={operation.line}"),)
            printed = run_command(tmp_path, operation, seed, ci=False)
            xfailed = [line.split()[0] for line in operation.expected if re.match(r"^[A-Z]+-\d+\s+xfailed\s+\d+", line)]
            if declared and xfailed and not own_ci:
                shown, ran = _examples_of(xfailed[0], operation.expected), _examples_of(xfailed[0], printed)
                assert shown is not None and ran is not None
                counts.append((operation.line, shown, ran))
    assert counts, f"step {step.number} shows no run of the expected failure after declaring it"
    for line, shown, ran in counts:
        assert shown <= 5, f"README.md line {line} shows {shown} examples for the replayed failure: not 'a few'"
        assert ran <= 5, (f"README.md line {line}: outside CI the run took {ran} examples: the failure saved by the "
                          "run before was not tried first")


def _chain(line: str) -> list[str]:
    """The commands of a shell line chained with ``&&``."""
    return [part.strip() for part in line.strip().removeprefix("$ ").split("&&") if part.strip()]


def _runs(lines: Sequence[str], commands: Sequence[str]) -> bool:
    """Whether one of ``lines`` chains ``commands`` consecutively."""
    for line in lines:
        chain = _chain(line)
        if any(chain[i:i + len(commands)] == list(commands) for i in range(len(chain) - len(commands) + 1)):
            return True
    return False


def test_quick_start_runs_what_ci_runs() -> None:
    """The README's quick start runs the kit's tests with the very commands `.ci/run` runs."""
    script = [line.strip() for line in CI_SCRIPT.read_text().splitlines()]
    ci_commands = _chain(next(line for line in reversed(script) if line and not line.startswith("#")))
    readme = README.read_text(encoding="utf-8").split("\n")
    heading = next((i for i, line in enumerate(readme) if re.match(r"^#{1,6} .*quick start", line, re.IGNORECASE)), None)
    if heading is None:  # until the README has its quick start, the commands must appear somewhere
        assert _runs(readme, ci_commands), f"README.md shows no line running .ci/run's {' && '.join(ci_commands)!r}"
        return
    level = len(readme[heading]) - len(readme[heading].lstrip("#"))
    section_end = next((i for i in range(heading + 1, len(readme)) if re.match(rf"^#{{1,{level}}} ", readme[i])), len(readme))
    fenced: list[str] = []
    inside = False
    for line in readme[heading + 1:section_end]:
        if line.startswith("```"):
            inside = not inside
        elif inside:
            fenced.append(line)
    assert _runs(fenced, ci_commands), (
        f"the fenced commands under README.md's {readme[heading]!r} do not run .ci/run's "
        f"{' && '.join(ci_commands)!r} (as consecutive && commands of one line): {fenced}")

"""tests/forkrun.py answers as ``python -c`` does: the triage self-tests trust its exit statuses
and output, so a reproducer that stopped showing its bug still fails them."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator

import pytest

from forkrun import ForkRunner

PROGRAMS = [
    "print('BUG: shown')",
    "import json\nprint(json.dumps({'a': 1}))",
    "import sys\nprint('out'); print('err', file=sys.stderr); sys.exit(3)",
    "raise ValueError('boom')",
    "import sys\nsys.exit('a message')",
    "import sys\nprint(sys.argv, __name__, sys.stdin.read() == '')",
    "import os\nprint('é', flush=True)\nos._exit(0)",
    "global leaked\nleaked = 1\nimport json\njson.leak = 1",
    "import json\nprint(hasattr(json, 'leak'), 'leaked' in globals())",
]


@pytest.fixture(scope="module")
def runner() -> Iterator[ForkRunner]:
    opened = ForkRunner(["json"])
    yield opened
    opened.close()


@pytest.mark.parametrize("code", PROGRAMS)
def test_a_program_run_by_the_fork_server_ends_as_under_python_c(runner: ForkRunner, code: str) -> None:
    alone = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, check=False)
    forked = runner.run(code)
    assert (forked.returncode, forked.stdout) == (alone.returncode, alone.stdout)
    assert forked.stderr.splitlines()[-1:] == alone.stderr.splitlines()[-1:]


def test_a_program_past_its_timeout_is_killed_and_the_server_goes_on(runner: ForkRunner) -> None:
    with pytest.raises(subprocess.TimeoutExpired):
        runner.run("import time\ntime.sleep(600)", timeout=1)
    assert runner.run("print('next')").stdout == "next\n"

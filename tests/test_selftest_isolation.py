"""The self-tests run the whole suite in-process hundreds of times (pytester): no run may outlive
the test that made it. Each one used to keep its pytest session alive (about 200,000 objects),
through the modules it imported and Hypothesis's caches, until a worker spent seconds in every
garbage collection and the self-tests took twice as long."""

from __future__ import annotations

import os
import subprocess
import sys

from conftest import TESTS_DIR


def test_an_in_process_run_does_not_outlive_its_test() -> None:
    env = {**os.environ, "PYTHONPATH": str(TESTS_DIR)}
    env.pop("PYTEST_XDIST_WORKER", None)
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider", "-p", "no:randomly",
         "-q", str(TESTS_DIR / "isolation_probe.py")],
        cwd=TESTS_DIR.parent, env=env, capture_output=True, text=True, timeout=900)
    assert done.returncode == 0, done.stdout[-4000:] + done.stderr[-2000:]
    assert "2 passed" in done.stdout, done.stdout[-4000:]

"""Run many short Python programs that import the same heavy SDK, each in a process of its own,
without paying the SDK's import each time.

A server process imports the given modules once and then, for each program, forks: the child
points its standard streams at files of its own, runs the program as ``python -c`` would (module
``__main__``, a ``SystemExit`` code as the exit status, an uncaught exception printed with its
traceback and status 1) and exits; the parent waits for it (killing it past the timeout) and
answers with the exit status. A child starts from the server as it was after the imports, so no
program sees another's state. Where ``os.fork`` is missing, each program is a ``python -c`` of its
own. The triage self-tests run a few hundred reproducers this way: importing pydantic-ai alone
costs about 0.8 s of CPU a process.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

_SERVER = r'''
import importlib, json, os, sys, time, traceback

for name in sys.argv[1:]:
    try:
        importlib.import_module(name)
    except Exception:  # the program that imports it reports the error itself
        pass
replies = sys.stdout
for line in sys.stdin:
    ask = json.loads(line)
    replies.flush()
    sys.stderr.flush()
    pid = os.fork()
    if pid == 0:
        status = 1
        try:
            for fd, path, flags in ((0, os.devnull, os.O_RDONLY),
                                    (1, ask["stdout"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC),
                                    (2, ask["stderr"], os.O_WRONLY | os.O_CREAT | os.O_TRUNC)):
                opened = os.open(path, flags, 0o600)
                os.dup2(opened, fd)
                os.close(opened)
            sys.stdin, sys.stdout, sys.stderr = (open(0, closefd=False), open(1, "w", closefd=False),
                                                 open(2, "w", closefd=False))
            sys.argv = ["-c"]
            try:
                exec(compile(ask["code"], "<string>", "exec"), {"__name__": "__main__", "__builtins__": __builtins__})
                status = 0
            except SystemExit as stop:
                if stop.code is None or isinstance(stop.code, int):
                    status = stop.code or 0
                else:
                    print(stop.code, file=sys.stderr)
            except BaseException:
                traceback.print_exc()
        finally:
            try:
                sys.stdout.flush()
                sys.stderr.flush()
            finally:
                os._exit(status)
    deadline = time.monotonic() + ask["timeout"]
    while True:
        done, waited = os.waitpid(pid, os.WNOHANG)
        if done:
            code = os.waitstatus_to_exitcode(waited)
            break
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            code = None
            break
        time.sleep(0.002)
    replies.write(json.dumps({"returncode": code}) + "\n")
    replies.flush()
'''


class ForkRunner:
    """``run(code)`` is ``subprocess.run([python, "-c", code], capture_output=True, text=True)``
    with ``modules`` imported already (see the module's docstring)."""

    def __init__(self, modules: list[str]) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="forkrun-")
        self._server: subprocess.Popen[str] | None = None
        if hasattr(os, "fork"):
            self._server = subprocess.Popen([sys.executable, "-c", _SERVER, *modules], stdin=subprocess.PIPE,
                                            stdout=subprocess.PIPE, text=True)

    def run(self, code: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        if self._server is None:
            return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, check=False)
        stdout, stderr = Path(self._folder.name, "stdout"), Path(self._folder.name, "stderr")
        assert self._server.stdin is not None and self._server.stdout is not None
        self._server.stdin.write(json.dumps({"code": code, "timeout": timeout, "stdout": str(stdout), "stderr": str(stderr)}) + "\n")
        self._server.stdin.flush()
        reply = self._server.stdout.readline()
        if not reply:
            raise RuntimeError(f"the fork server ended (status {self._server.wait()}) before answering")
        status = json.loads(reply)["returncode"]
        if status is None:
            raise subprocess.TimeoutExpired(["python", "-c", code], timeout)
        return subprocess.CompletedProcess(["python", "-c", code], status,
                                           stdout.read_text(errors="replace"), stderr.read_text(errors="replace"))

    def close(self) -> None:
        if self._server is not None:
            assert self._server.stdin is not None
            self._server.stdin.close()
            self._server.wait(timeout=60)
            self._server = None
        self._folder.cleanup()

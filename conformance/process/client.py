"""The kit's side of a process harness: start it, speak ``strictconformance-process/1``, and turn
everything that can go wrong into a :class:`HarnessFault` naming the call, never a hang.

One :class:`HarnessProcess` is one harness command; the OS process behind it is started lazily,
reused across calls, and replaced after a crash, an exit, or a call it killed (a timeout, junk on
stdout, an oversized or invalid message: after those the stream can't be trusted).
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import shlex
import subprocess
import threading
import time
from collections.abc import Callable, Sequence
from typing import IO, Any

from strictconformance._version import __version__
from strictconformance.cputime import CallBudget, process_cpu_seconds
from strictconformance.process.protocol import PROTOCOL, dumps, message_problem

__all__ = ["HarnessCallError", "HarnessFault", "HarnessProcess", "HarnessRefusal"]

#: Default bound on one message (one line), in bytes: far past any request body or schema.
DEFAULT_MAX_MESSAGE_BYTES = 16 * 1024 * 1024


class HarnessFault(Exception):
    """The harness broke the protocol, crashed, exited, hung or wrote junk during a call."""


class HarnessRefusal(Exception):
    """The harness answered ``refusal``: its SDK cannot express this call (``scope`` ``"input"``)
    or lacks what the whole check exercises (``"check"``)."""

    def __init__(self, reason: str, scope: str = "input") -> None:
        super().__init__(reason)
        self.scope = scope


class HarnessCallError(Exception):
    """An ``error`` answer: the SDK raised ``type`` with ``message`` (base of the per-type classes
    a :class:`~strictconformance.process.ProcessAdapter` raises)."""

    def __init__(self, message: str, *, type_name: str = "", path: str | None = None, field: str | None = None,
                 origin: dict[str, Any] | None = None) -> None:
        super().__init__(message)
        self.type_name, self.path, self.field = type_name, path, field
        #: where the SDK raised, as the harness reports it ({"file", "function", "line"}), or None
        self.origin = origin


def _command_words(command: str | Sequence[str]) -> list[str]:
    return shlex.split(command) if isinstance(command, str) else list(command)


class HarnessProcess:
    """A harness command and the process currently running it."""

    def __init__(self, command: str | Sequence[str], *, cwd: str | os.PathLike[str] | None = None,
                 call_timeout: float = 5.0, start_timeout: float = 60.0,
                 max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
                 record: list[tuple[str, dict[str, Any]]] | None = None) -> None:
        self.words = _command_words(command)
        if not self.words:
            raise ValueError("a harness command must not be empty")
        self.command = command if isinstance(command, str) else shlex.join(self.words)
        self.cwd = cwd
        self.call_timeout, self.start_timeout, self.max_message_bytes = call_timeout, start_timeout, max_message_bytes
        #: Every message sent and received, as (sender, message), when a list is given (self-tests).
        self.record = record
        #: The last ``started`` message (the handshake of the running process).
        self.started: dict[str, Any] | None = None
        #: How many processes were started: a tool handle is only valid in the one that made it.
        self.generation = 0
        self.restarts = 0
        self._process: subprocess.Popen[bytes] | None = None
        self._lines: queue.SimpleQueue[tuple[str, Any]] = queue.SimpleQueue()
        self._stderr: collections.deque[str] = collections.deque(maxlen=20)
        self._next_id = 0
        self._lock = threading.Lock()
        self._stderr_thread: threading.Thread | None = None

    # -- lifecycle ---------------------------------------------------------------------------
    def start(self) -> dict[str, Any]:
        """Start the process and do the handshake; returns the ``started`` message."""
        with self._lock:
            return self._start()

    def _start(self) -> dict[str, Any]:
        self._kill()
        if self.generation:
            self.restarts += 1
        try:
            process = subprocess.Popen(self.words, cwd=self.cwd, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                       stderr=subprocess.PIPE)
        except OSError as exc:
            raise HarnessFault(f"harness `{self.command}` could not be started: {exc}") from None
        self._process, self._next_id = process, 0
        self.generation += 1
        self._lines = queue.SimpleQueue()
        self._stderr = collections.deque(maxlen=20)
        assert process.stdout is not None
        assert process.stderr is not None
        threading.Thread(target=self._read_stdout, args=(process.stdout, self._lines), daemon=True,
                         name="sc-harness-stdout").start()
        self._stderr_thread = threading.Thread(target=self._read_stderr, args=(process.stderr, self._stderr), daemon=True,
                                               name="sc-harness-stderr")
        self._stderr_thread.start()
        self._send({"type": "start", "protocol": PROTOCOL, "kit": __version__}, "start")
        message = self._receive("start", CallBudget(self.start_timeout))  # no CPU reader: the clock decides
        if message["type"] != "started":
            self._kill()
            raise HarnessFault(self._where("start") + f"answered the start handshake with a {message['type']} message, expected started")
        self.started = message
        return message

    def stop(self) -> None:
        """Send ``stop`` and wait briefly for the exit; kill a process that lingers."""
        process = self._process
        if process is None:
            return
        try:
            if process.poll() is None:
                self._send({"type": "stop"}, "stop")
                process.wait(timeout=2)
        except (HarnessFault, subprocess.TimeoutExpired):
            pass
        self._kill()

    def _kill(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        if process.poll() is None:
            process.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            process.wait(timeout=5)
        for stream in (process.stdin, process.stdout, process.stderr):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    def _parse_int(self, text: str) -> int | float:
        """A JSON integer. A JavaScript harness has only doubles: an integer it writes past 2**53
        (a float such as 7.165124718205338e16 printed as 71651247182053380) is that double."""
        value = int(text)
        language = (self.started or {}).get("implementation", {}).get("language")
        if language == "node" and abs(value) > 2**53:
            return float(value)
        return value

    # -- streams -----------------------------------------------------------------------------
    def _read_stdout(self, stream: IO[bytes], lines: queue.SimpleQueue[tuple[str, Any]]) -> None:
        limit = self.max_message_bytes
        while True:
            try:
                line = stream.readline(limit + 1)
            except (OSError, ValueError):
                line = b""
            if not line:
                lines.put(("eof", None))
                return
            if len(line) > limit and not line.endswith(b"\n"):
                lines.put(("oversized", len(line)))
                return  # the process is killed: nothing after this can be read in step
            lines.put(("line", line))

    @staticmethod
    def _read_stderr(stream: IO[bytes], tail: collections.deque[str]) -> None:
        try:
            for raw in iter(stream.readline, b""):
                tail.append(raw.decode("utf-8", "replace").rstrip("\n")[:500])
        except (OSError, ValueError):
            pass

    def _stderr_tail(self) -> str:
        lines = list(self._stderr)[-8:]
        return ("; its stderr ended with:\n    " + "\n    ".join(lines)) if lines else "; it wrote nothing on stderr"

    def _where(self, what: str) -> str:
        pid = "" if self._process is None else f" (pid {self._process.pid})"
        return f"harness `{self.command}`{pid}, {what}: "

    def _send(self, message: dict[str, Any], what: str) -> None:
        problem = message_problem(message, "kit")
        if problem is not None:  # a kit bug: say so, never send it
            raise HarnessFault(f"the kit built an invalid {message.get('type')} message for {what}: {problem}")
        if self.record is not None:
            self.record.append(("kit", message))
        process = self._process
        assert process is not None
        assert process.stdin is not None
        data = dumps(message)
        try:
            process.stdin.write(data)
            process.stdin.flush()
        except (OSError, ValueError):
            code = process.poll()
            self._kill()
            raise HarnessFault(self._where(what) + f"could not be sent the {message['type']} message: the process "
                               f"exited{'' if code is None else f' with code {code}'}{self._stderr_tail()}") from None

    def _receive(self, what: str, wait: CallBudget) -> dict[str, Any]:
        """The next valid harness message; anything else kills the process and is a fault. A call
        waits by the harness process's CPU time, not a busy machine's clock; the start handshake,
        whose budget has no CPU reader, by the clock."""
        try:
            while True:
                try:
                    kind, payload = self._lines.get(timeout=wait.next_check())
                    break
                except queue.Empty:
                    if wait.expired():
                        raise
        except queue.Empty:
            where = self._where(what)
            self._kill()
            raise HarnessFault(where + f"no answer within {wait.timeout:g} s; the kit killed the process and starts a new "
                               "one for the next call") from None
        if kind == "eof":
            process = self._process
            code = None
            if process is not None:
                try:
                    code = process.wait(timeout=2)
                except subprocess.TimeoutExpired:
                    code = None
            where = self._where(what)
            if code is not None:
                self._stderr_thread.join(timeout=1)  # type: ignore[union-attr]  # what it wrote before exiting
            tail = self._stderr_tail()
            self._kill()
            exit_text = "closed its stdout" if code is None else f"exited with code {code}"
            raise HarnessFault(where + f"the process {exit_text} before answering (a crash or an exit){tail}; "
                               "the kit starts a new one for the next call")
        where = self._where(what)
        if kind == "oversized":
            self._kill()
            raise HarnessFault(where + f"a message longer than {self.max_message_bytes} bytes (the bound on one "
                               "message); the kit killed the process and starts a new one for the next call")
        line: bytes = payload
        try:
            message = json.loads(line, parse_int=self._parse_int)
        except (ValueError, RecursionError):
            self._kill()
            raise HarnessFault(where + f"wrote a line on stdout that is not a JSON message: {line[:200]!r}. stdout "
                               "carries protocol messages only (log to stderr); the kit killed the process "
                               "and starts a new one for the next call") from None
        problem = message_problem(message, "harness")
        if problem is not None:
            self._kill()
            raise HarnessFault(where + f"sent an invalid message: {problem}; the kit killed the process and starts a "
                               "new one for the next call")
        if self.record is not None:
            self.record.append(("harness", message))
        return message  # type: ignore[no-any-return]

    # -- calls -------------------------------------------------------------------------------
    def call(self, method: str, args: dict[str, Any],
             on_callback: Callable[[dict[str, Any]], dict[str, Any]] | None = None) -> Any:
        """Send one call and return its result's value. An ``error`` answer raises
        :class:`HarnessCallError`, a ``refusal`` :class:`HarnessRefusal`; everything else that is
        not the answer is a :class:`HarnessFault` (and the process is replaced on the next call)."""
        with self._lock:
            if self._process is None or self._process.poll() is not None:
                self._start()
            self._next_id += 1
            call_id = self._next_id
            what = f"call #{call_id} {method}"
            self._send({"type": "call", "id": call_id, "method": method, "args": args}, what)
            process = self._process
            pid = process.pid if process is not None else None
            budget = CallBudget(self.call_timeout, (lambda: process_cpu_seconds(pid)) if pid is not None else None)
            while True:
                message = self._receive(what, budget)
                kind = message["type"]
                if message.get("id") != call_id:
                    where = self._where(what)
                    self._kill()
                    raise HarnessFault(where + f"sent a {kind} message for call #{message.get('id')} while call "
                                       f"#{call_id} was pending; the kit killed the process")
                if kind == "result":
                    return message["value"]
                if kind == "error":
                    error = message["error"]
                    raise HarnessCallError(error["message"], type_name=error["type"], path=error.get("path"),
                                           field=error.get("field"), origin=error.get("origin"))
                if kind == "refusal":
                    raise HarnessRefusal(message["reason"], message.get("scope", "input"))
                if kind == "callback" and on_callback is not None:
                    began = time.monotonic()
                    answer = on_callback(message)
                    budget.started += time.monotonic() - began  # the kit's own time does not count
                    self._send({"type": "callback_result", "id": call_id, "callback": message["callback"], **answer}, what)
                    continue
                where = self._where(what)
                self._kill()
                raise HarnessFault(where + f"sent a {kind} message, which is not an answer to a {method} call; "
                                   "the kit killed the process")

"""The run-level watchdog: a call into the adapter that never returns and holds the GIL (native code
in a loop, a catastrophic regular expression) stops every thread of its process, the harness's
``--sc-call-timeout`` watchdog included. So the process running the checks (an xdist worker, see
``--sc-in-process``) keeps a *beacon*, a small memory-mapped file saying which call it is in since
when, written without a system call before each adapter call; the pytest process that supervises it
reads the beacons from a thread of its own, and ends a worker whose call has run past the timeout
and a grace period, after noting which capability it was in and with what input. The crash that
xdist then reports is an error of the check that made the call, with that note as its reason.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import mmap
import os
import signal
import struct
import threading
import time
from pathlib import Path
from typing import Any

from strictconformance.cputime import WALL_FACTOR, process_cpu_seconds

__all__ = ["GRACE_SECONDS", "WATCH_DIR_ENV", "Beacon", "Watchdog", "describe_call", "stopped_call"]

#: Environment variable naming the beacons' folder; the supervising process sets it for its workers.
WATCH_DIR_ENV = "STRICTCONFORMANCE_WATCH_DIR"
#: How long past ``--sc-call-timeout`` a call may run before its process is ended: the harness's
#: own timeout, when the GIL lets it run, reports the call first, with the check going on.
GRACE_SECONDS = 5.0

_SIZE = 16384
_HEADER = struct.Struct("<ddI")  # since (time.time(), 0 when idle), process CPU seconds then, length of the description
_INPUT_CHARS = 4000


def _jsonable(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {"__type__": type(value).__name__, **{f.name: getattr(value, f.name, None) for f in dataclasses.fields(value)}}
    if isinstance(value, (set, frozenset)):
        return sorted(value, key=repr)
    return f"<{type(value).__qualname__} object>"


def describe_call(method: str, args: tuple[Any, ...]) -> str:
    """``adapter.method(<args as JSON>)``, its input cut at a few thousand characters (the C JSON
    encoder: this runs before every adapter call)."""
    try:
        text = json.dumps(list(args), default=_jsonable, ensure_ascii=False)[1:-1]
    except Exception:  # keys that are not strings, a cycle: the types at least
        text = ", ".join(type(arg).__name__ for arg in args)
    if len(text) > _INPUT_CHARS:
        text = text[:_INPUT_CHARS] + f"... ({len(text)} chars)"
    return f"adapter.{method}({text})"


class Beacon:
    """The checks' side: which adapter call this process is in, in a file the supervisor maps."""

    def __init__(self, folder: str | os.PathLike[str]) -> None:
        self.path = Path(folder) / f"{os.getpid()}.beacon"
        with open(self.path, "wb") as out:
            out.truncate(_SIZE)
        with open(self.path, "r+b") as handle:
            self._map = mmap.mmap(handle.fileno(), _SIZE)

    def begin(self, nodeid: str, method: str, args: tuple[Any, ...]) -> None:
        data = json.dumps({"nodeid": nodeid, "call": describe_call(method, args)}, ensure_ascii=False).encode()
        if len(data) > _SIZE - _HEADER.size:
            data = json.dumps({"nodeid": nodeid[:4000], "call": f"adapter.{method}(...)"}).encode()
        self._map[_HEADER.size:_HEADER.size + len(data)] = data
        self._map[:_HEADER.size] = _HEADER.pack(time.time(), time.process_time(), len(data))

    def end(self) -> None:
        self._map[:_HEADER.size] = _HEADER.pack(0.0, 0.0, 0)

    def close(self) -> None:
        with contextlib.suppress(Exception):
            self._map.close()


def _read(path: Path) -> tuple[float, float, dict[str, Any] | None]:
    try:
        raw = path.read_bytes()
        since, cpu, length = _HEADER.unpack_from(raw)
        if not since:
            return 0.0, 0.0, None
        call: dict[str, Any] = json.loads(raw[_HEADER.size:_HEADER.size + length])
        return since, cpu, call
    except (OSError, ValueError, struct.error):  # being written, or gone with its process
        return 0.0, 0.0, None


def _is_child(pid: int) -> bool:
    """Whether ``pid`` is a live child of this process (a worker it started), never a stranger that
    reuses the number of a worker that died."""
    try:
        os.kill(pid, 0)
    except OSError:
        return False
    stat = Path(f"/proc/{pid}/stat")
    if not stat.exists():  # no /proc (macOS): alive is what can be known
        return True
    try:
        return int(stat.read_text().rpartition(")")[2].split()[1]) == os.getpid()
    except (OSError, ValueError, IndexError):
        return False


class Watchdog:
    """The supervisor's side: a thread that ends a process whose adapter call outlived
    ``timeout`` + :data:`GRACE_SECONDS` having used ``timeout`` seconds of CPU (or ran
    ``WALL_FACTOR`` times the timeout, CPU or not: see :mod:`strictconformance.cputime`), and
    remembers what it was doing."""

    def __init__(self, folder: str | os.PathLike[str], timeout: float, *, poll: float = 0.5) -> None:
        self.folder = Path(folder)
        self.limit = timeout + GRACE_SECONDS
        self.timeout = timeout
        self.poll = poll
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="strictconformance-watchdog", daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.wait(self.poll):
            for beacon in self.folder.glob("*.beacon"):
                since, cpu_then, call = _read(beacon)
                if call is None or time.time() - since <= self.limit:
                    continue
                pid = int(beacon.stem)
                # past the limit on the clock: stopped only if it used the timeout's CPU (a spin) or
                # ran WALL_FACTOR times as long (blocked): a busy machine's slow call goes on
                cpu_now = process_cpu_seconds(pid)
                if (time.time() - since <= self.timeout * WALL_FACTOR + GRACE_SECONDS and cpu_now is not None
                        and cpu_now - cpu_then < self.timeout):
                    continue
                if not _is_child(pid):  # a worker that died already (os._exit mid-call): not ours to end
                    with contextlib.suppress(OSError):
                        beacon.unlink()
                    continue
                note = {**call, "seconds": round(time.time() - since, 1), "timeout": self.timeout}
                (self.folder / f"{pid}.stopped").write_text(json.dumps(note, ensure_ascii=False), encoding="utf-8")
                with contextlib.suppress(OSError):
                    beacon.unlink()
                with contextlib.suppress(OSError):
                    os.kill(pid, getattr(signal, "SIGKILL", signal.SIGTERM))

    def stop(self) -> None:
        self._stop.set()
        self._thread.join(timeout=5)


def stopped_call(folder: str | os.PathLike[str], nodeid: str) -> str | None:
    """Why the watchdog ended the process running check ``nodeid``, or None if it did not."""
    for path in Path(folder).glob("*.stopped"):
        try:
            note = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if note.get("nodeid") == nodeid:
            return (f"stopped by the run-level watchdog: {note.get('call')} did not return within "
                    f"{note.get('timeout'):g} s (--sc-call-timeout) and blocked its whole process (native code "
                    f"holding the GIL?); the process was ended after {note.get('seconds')} s")
    return None

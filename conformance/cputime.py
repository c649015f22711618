"""Call timeouts that a busy machine does not turn into false alarms.

A call into an adapter (or a harness process) is stopped when it has run ``timeout`` seconds on
the clock *and* used ``timeout`` seconds of CPU, or when it has run :data:`WALL_FACTOR` times
``timeout`` on the clock whatever its CPU. On an idle machine a call that spins is stopped after
``timeout``, as before; on a shared runner at load 12, where a correct strictify of a big schema
gets a sixth of a core and needs a minute of clock for ten seconds of work, it is not stopped
(it was, and every later call of the capability was then failed as hung). A call that blocks
without using the CPU (a sleep, a lock, a pipe that never answers) is stopped after
``WALL_FACTOR * timeout`` of clock. Where CPU time cannot be read, the clock alone decides.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Callable
from pathlib import Path

__all__ = ["WALL_FACTOR", "CallBudget", "process_cpu_seconds", "thread_cpu_reader"]

#: A call that does not use the CPU is stopped after this many times the timeout on the clock.
WALL_FACTOR = 6.0

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") and "SC_CLK_TCK" in os.sysconf_names else 100


def thread_cpu_reader(ident: int | None = None) -> Callable[[], float] | None:
    """A function returning the CPU seconds used so far by thread ``ident`` (default: the calling
    thread), readable from any thread; None where the platform has no per-thread CPU clock."""
    getclock = getattr(time, "pthread_getcpuclockid", None)
    if getclock is None:
        return None
    try:
        clock = getclock(threading.get_ident() if ident is None else ident)
        time.clock_gettime(clock)
    except (OSError, OverflowError, ValueError):
        return None
    return lambda: time.clock_gettime(clock)


def process_cpu_seconds(pid: int) -> float | None:
    """CPU seconds (user + system) used so far by process ``pid``, from ``/proc``; None where that
    cannot be read (no /proc, the process is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / _TICKS
    except (OSError, ValueError, IndexError):
        return None


class CallBudget:
    """The time one call may take: :meth:`expired` says whether to stop it now."""

    def __init__(self, timeout: float, cpu: Callable[[], float | None] | None = None) -> None:
        self.timeout = timeout
        self.started = time.monotonic()
        self._cpu = cpu
        self._cpu_at_start = cpu() if cpu is not None else None

    def cpu_used(self) -> float | None:
        if self._cpu is None or self._cpu_at_start is None:
            return None
        now = self._cpu()
        return None if now is None else now - self._cpu_at_start

    def expired(self) -> bool:
        wall = time.monotonic() - self.started
        if wall < self.timeout:
            return False
        if wall >= self.timeout * WALL_FACTOR:
            return True
        used = self.cpu_used()
        return used is None or used >= self.timeout

    def next_check(self, poll: float = 0.25) -> float:
        """Seconds to wait before asking :meth:`expired` again."""
        wall = time.monotonic() - self.started
        return max(0.01, min(poll, self.timeout - wall)) if wall < self.timeout else poll

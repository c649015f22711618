"""Adapters that attack the run itself (issue 11.6): they end the process, wedge it in native code
holding the GIL, or return a result too big to inspect. Each keeps the reference's behaviour
elsewhere, so one rule shows the attack."""

from __future__ import annotations

import io
import os
import re
import sys
import time

from broken_strict_adapters import DescriptionGrows
from strictconformance import Adapter
from strictconformance.reference import ReferenceAdapter


class ExitsZero(ReferenceAdapter):
    """An SDK that calls os._exit(0) (a process that 'succeeds' mid-run)."""

    def build_request(self, request):
        os._exit(0)


class SpinsHoldingTheGil(ReferenceAdapter):
    """A catastrophic regular expression: the C matcher never releases the GIL."""

    def build_request(self, request):
        re.match(r"(a+)+$", "a" * 64 + "b")
        return super().build_request(request)


class HugeResult(ReferenceAdapter):
    """A result of 2,000,000 elements, built once: the kit must not spend minutes inspecting it."""

    _huge = list(range(2_000_000))

    def build_request(self, request):
        return self._huge


class LowersRecursionLimit(ReferenceAdapter):
    """An SDK that lowers the interpreter's recursion limit (a process-wide setting) mid-call."""

    def build_request(self, request):
        sys.setrecursionlimit(60)
        return super().build_request(request)


class LowersRecursionLimitAndRunsOn(ReferenceAdapter):
    """The same, and the call goes on for a while: the thread waiting for it must not run under 60."""

    def build_request(self, request):
        sys.setrecursionlimit(60)
        time.sleep(0.6)
        return super().build_request(request)


class ReplacesStdout(ReferenceAdapter):
    """An SDK that swaps sys.stdout for its own stream and leaves it there."""

    def build_request(self, request):
        sys.stdout = io.StringIO()
        return super().build_request(request)


class ClosesStdout(ReferenceAdapter):
    """An SDK that closes sys.stdout (a logging handler's teardown gone wrong)."""

    def build_request(self, request):
        sys.stdout.close()
        return super().build_request(request)


class ChangesDirectory(ReferenceAdapter):
    """An SDK that changes the working directory and does not change it back."""

    def build_request(self, request):
        os.chdir(os.path.dirname(os.path.abspath(os.sep)))
        return super().build_request(request)


class SlowsThreadSwitching(ReferenceAdapter):
    """An SDK that changes how often the interpreter switches threads, then raises."""

    def build_request(self, request):
        sys.setswitchinterval(0.5)
        raise RuntimeError("switch interval set")


class InitRaises(ReferenceAdapter):
    """An SDK client whose constructor fails (a missing credential, an import it needs)."""

    def __init__(self):
        raise RuntimeError("no client")


class DeclaresNothing(Adapter):
    """An adapter that overrides a capability but declares none of what it needs."""

    def build_request(self, request):
        return ReferenceAdapter().build_request(request)


def _burn(seconds: float) -> None:
    """Spin for ``seconds`` of this thread's CPU (not of the clock: a busy machine spins as long)."""
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


class SpinsInStrictify(DescriptionGrows):
    """An SDK whose strictify costs 0.3 s of CPU a call, and is not idempotent (RT-3): a check of it
    spends its budget in a few examples."""

    def strictify(self, schema, dialect):
        _burn(0.3)
        return super().strictify(schema, dialect)


class SpinsInStrictifyCorrectly(ReferenceAdapter):
    """The reference strictify, at 0.3 s of CPU a call: a check of it passes on what it could run."""

    strictify_dialects = ("openai",)

    def strictify(self, schema, dialect):
        _burn(0.3)
        return super().strictify(schema, dialect)

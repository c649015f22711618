"""Adapters that attack the run itself (issue 11.6): they end the process, wedge it in native code
holding the GIL, or return a result too big to inspect. Each keeps the reference's behaviour
elsewhere, so one rule shows the attack."""

from __future__ import annotations

import os
import re
import time

from broken_strict_adapters import DescriptionGrows
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

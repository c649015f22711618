"""``python -m strictconformance.record``: re-record the shipped cassettes (see the package docstring)."""

from __future__ import annotations

import os
import sys

from strictconformance.record import main

try:
    raise SystemExit(main())
except BrokenPipeError:  # `--list | head`: the reader has gone, nothing left to say
    os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
    raise SystemExit(0) from None

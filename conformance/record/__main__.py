"""``python -m strictconformance.record``: re-record the shipped cassettes (see the package docstring)."""

from __future__ import annotations

from strictconformance.record import main

raise SystemExit(main())

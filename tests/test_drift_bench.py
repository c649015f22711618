"""The drift benchmark runs and prints its table (figures only; speed is not asserted)."""

from __future__ import annotations

import pytest

from strictconformance.bench.drift import main


def test_the_benchmark_prints_a_comparison(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--repeat", "1", "--api", "groq.chat"]) == 0
    out = capsys.readouterr().out
    assert "jsonschema µs" in out
    assert "groq.chat" in out

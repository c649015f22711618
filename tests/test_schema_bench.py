"""The scaling and corpus benchmarks run on tiny sizes and print their tables (figures only;
speed is not asserted here: the README holds the figures of a full run)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from strictconformance.bench.__main__ import main as bench_main
from strictconformance.bench.corpus import load_corpus, summary
from strictconformance.bench.scaling import FAMILIES, growth_exponent, shared_dag, unfolded_size


@pytest.mark.slow
def test_scaling_prints_a_row_per_family_with_its_exponent(capsys: pytest.CaptureFixture[str]) -> None:
    assert bench_main(["scaling", "--sizes", "4,8", "--budget", "0", "--dag-depths", "2,6", "--object-depths", "2,6", "--dag-dialects", "lenient,openai@2025-01"]) == 0
    out = capsys.readouterr().out
    for name, _, _ in FAMILIES:
        assert name in out
    assert "exponent" in out and "linear" in out
    assert "openai@2025-01" in out and "time ~ N^" in out and "polynomial" in out


def test_corpus_prints_both_linters_and_strictify_per_dialect(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "a.json").write_text(json.dumps({"type": "object", "properties": {"x": {"type": "string"}}}))
    (tmp_path / "b.json").write_text(json.dumps({"type": "array", "items": {"$ref": "#/$defs/n"}, "$defs": {"n": {"type": "integer"}}}))
    (tmp_path / "broken.json").write_text("{not json")
    assert bench_main(["corpus", "--corpus", str(tmp_path), "--dialects", "openai,google"]) == 0
    out = capsys.readouterr().out
    assert "validate_strict" in out
    assert "2 corpus schemas" in out  # the file that is not JSON is skipped
    assert "p99" in out and "openai" in out and "google" in out


def test_a_missing_corpus_folder_is_named(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="does not exist"):
        load_corpus(tmp_path / "nowhere")


def test_summary_and_growth_exponent() -> None:
    assert summary([0.001] * 99 + [0.5]) == pytest.approx((1.0, 1.0, 500.0))
    assert growth_exponent([(10, 0.01), (100, 0.1), (1000, 1.0)]) == pytest.approx(1.0)
    assert growth_exponent([(10, 0.01), (100, 1.0)]) == pytest.approx(2.0)


def test_the_dag_is_counted_without_unfolding() -> None:
    shared = {"type": "string"}
    node = {"anyOf": [shared, shared]}
    assert unfolded_size(node) == (2, 3)
    assert len(shared_dag(20)["$defs"]) == 21  # 2^20 leaves once unfolded, 21 definitions written


def test_bench_help_lists_every_benchmark(capsys: pytest.CaptureFixture[str]) -> None:
    # `--help` used to show the schemas benchmark's parser alone (instances, strictify, all)
    assert bench_main(["--help"]) == 0
    shown = capsys.readouterr().out
    for name in ("all", "instances", "strictify", "drift", "process", "startup", "scaling", "corpus", "matrix"):
        assert f"\n  {name} " in shown, name

"""Benchmarks: `python -m strictconformance.bench --help`. They print figures; they assert nothing."""

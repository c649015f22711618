"""Hypothesis strategies for strictconformance. Strategies only: no assertions live here."""

"""Recorded and documented provider responses (vcrpy YAML), shipped as package data.

One folder per provider and API; see README.md here for provenance rules.
"""

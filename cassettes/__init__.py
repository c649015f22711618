"""Recorded and documented provider responses (vcrpy YAML), shipped as package data.

One folder per provider and API (``anthropic/messages/`` holds ``anthropic.messages``); see
README.md here for provenance rules. List and load them with
:mod:`strictconformance.drift.cassettes`; re-record them with ``python -m strictconformance.record``.
"""

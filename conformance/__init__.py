"""strictconformance: a conformance suite for strict mode in LLM SDK tool calling."""

from strictconformance._version import __version__

__all__ = ["__version__"]

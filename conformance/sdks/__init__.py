"""Adapters for real SDKs, shipped with the kit: ``strictconformance.sdks.<name>``.

Each module calls only its SDK's own code and says in its docstring what maps to which capability
and what does not (not covered, never faked). Importing a module needs its SDK installed
(``pip install "strictconformance[sdks]"`` installs the tested versions); this package itself imports
no SDK.

:data:`SDK_PATHS` lists every SDK path the kit ships an adapter or a process harness for: the columns
of the SDK matrix (``python -m strictconformance.matrix``). One SDK with several paths (a validating and
a non-validating client, two schema transformers) has one entry per path.
"""

from __future__ import annotations

import importlib.metadata
from dataclasses import dataclass

__all__ = ["SDK_PATHS", "SdkPath", "distribution_versions", "missing_distributions"]


@dataclass(frozen=True)
class SdkPath:
    """One column of the SDK matrix: an SDK path and how the suite reaches it."""

    #: Column id, ``<sdk>/<path>`` (e.g. ``"anthropic/transform_schema"``): stable, used in reports.
    key: str
    #: What a reader sees as the column heading.
    title: str
    #: The distributions (PyPI or npm packages) the path exercises; their installed versions are
    #: recorded in the matrix, and a missing one makes the path unavailable.
    distributions: tuple[str, ...]
    #: ``module:attribute`` for ``--sc-adapter`` (Python adapters).
    adapter: str | None = None
    #: Process harness (``--sc-adapter-cmd``), for SDKs in other languages: the command line, run
    #: from the kit's harness folder.
    command: str | None = None
    #: ``"python"`` or ``"node"``: the language of the path's reproducers.
    language: str = "python"

    def __post_init__(self) -> None:
        if (self.adapter is None) == (self.command is None):
            raise ValueError(f"SDK path {self.key!r}: give exactly one of adapter= and command=")
        if self.language not in ("python", "node"):
            raise ValueError(f"SDK path {self.key!r}: language must be 'python' or 'node', not {self.language!r}")


#: Every shipped SDK path, in matrix column order. Python adapters first, then process harnesses.
SDK_PATHS: tuple[SdkPath, ...] = (
    SdkPath("openai-python/client", "openai-python", ("openai",),
            adapter="strictconformance.sdks.openai_python:OpenAIPython"),
    SdkPath("openai-python/client-validating", "openai-python (_strict_response_validation)", ("openai",),
            adapter="strictconformance.sdks.openai_python:OpenAIPythonValidating"),
    SdkPath("openai-agents/ensure_strict_json_schema", "openai-agents ensure_strict_json_schema", ("openai-agents",),
            adapter="strictconformance.sdks.openai_agents:OpenAIAgentsStrictSchema"),
    SdkPath("openai-agents/function_tool", "openai-agents function_tool", ("openai-agents",),
            adapter="strictconformance.sdks.openai_agents:OpenAIAgentsFunctionTool"),
    SdkPath("anthropic/transform_schema", "anthropic transform_schema", ("anthropic",),
            adapter="strictconformance.sdks.anthropic:AnthropicTransformSchema"),
    SdkPath("anthropic/tools", "anthropic beta_tool + tool_runner", ("anthropic",),
            adapter="strictconformance.sdks.anthropic:AnthropicTools"),
    SdkPath("anthropic/client", "anthropic client", ("anthropic",),
            adapter="strictconformance.sdks.anthropic:AnthropicClient"),
    SdkPath("anthropic/client-validating", "anthropic client (_strict_response_validation)", ("anthropic",),
            adapter="strictconformance.sdks.anthropic:AnthropicClientValidating"),
)


def distribution_versions(path: SdkPath) -> dict[str, str | None]:
    """Installed version of each Python distribution of ``path`` (``None``: not installed). Node
    packages are versioned by their harness, not here."""
    if path.language != "python":
        return {}
    versions: dict[str, str | None] = {}
    for name in path.distributions:
        try:
            versions[name] = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            versions[name] = None
    return versions


def missing_distributions(path: SdkPath) -> list[str]:
    """The Python distributions of ``path`` that are not installed (empty: the path can run)."""
    return [name for name, version in distribution_versions(path).items() if version is None]

"""Adapters in any language: the ``strictconformance-process/1`` protocol and :class:`ProcessAdapter`.

A harness is a program that speaks the protocol on stdin/stdout (README: "Process harnesses").
The kit ships a Node harness kit (``node/harness-kit.mjs``) and harnesses for TypeScript SDKs
(``node/harnesses/``); :func:`check_harness` checks that a harness speaks the protocol.
"""

from __future__ import annotations

from strictconformance.process.adapter import (
    HarnessCallError,
    HarnessFault,
    ProcessAdapter,
    ProcessTool,
)
from strictconformance.process.conformance import check_harness
from strictconformance.process.protocol import PROTOCOL, message_problem, message_schema

__all__ = ["HARNESS_DIR", "PROTOCOL", "HarnessCallError", "HarnessFault", "ProcessAdapter", "ProcessTool", "check_harness",
           "message_problem", "message_schema", "node_folder"]


def node_folder() -> str:
    """The kit's Node folder: harness-kit.mjs, the harnesses, package.json and its lockfile."""
    from importlib import resources

    return str(resources.files("strictconformance.process").joinpath("node"))


#: The kit's Node folder (where ``SdkPath(command=...)`` harness commands run; the matrix reads it).
HARNESS_DIR = node_folder()

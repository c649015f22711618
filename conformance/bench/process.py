"""Protocol overhead: one ``build_request`` round trip through a harness process
(strictconformance-process/1, both sides' messages validated) against the same call made
directly in Python. ``python -m strictconformance.bench process [--calls N]``.

The harness is a minimal Python one (this module run as ``--serve``), so the figure is the
protocol's cost, not an SDK's; Node harnesses add Node's JSON handling, about the same.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections.abc import Callable
from typing import Any

from strictconformance.process.protocol import PROTOCOL
from strictconformance.wire import ToolSpec, ToolsRequest, read_wire_request

_TOOL = ToolSpec("get_weather", {"type": "object", "properties": {"city": {"type": "string"}}, "required": ["city"],
                                 "additionalProperties": False}, True, "Weather in a city")
REQUEST = ToolsRequest("openai", "gpt-4o", True, (_TOOL,))


def _body(request: dict[str, Any]) -> dict[str, Any]:
    tools = [{"type": "function", "function": {"name": t["name"], "parameters": t["input_schema"], "strict": t["strict"]}}
             for t in request["tools"]]
    return {"model": request["model"], "messages": [], "tools": tools}


def _serve() -> None:
    """A minimal harness: answers build_request with the body it builds."""
    out = sys.stdout
    while line := sys.stdin.readline():
        message = json.loads(line)
        if message["type"] == "start":
            out.write(json.dumps({"type": "started", "protocol": PROTOCOL, "capabilities": ["build_request"],
                                  "implementation": {"name": "bench", "version": "1", "language": "python", "sdk": {}},
                                  "declarations": {"strict_defaults": {"openai": True}, "providers": ["openai"]}}) + "\n")
        elif message["type"] == "call":
            value = {"api": "openai.chat", "body": _body(message["args"]["request"])}
            out.write(json.dumps({"type": "result", "id": message["id"], "value": value}) + "\n")
        else:
            return
        out.flush()


def _per_call(call: Callable[[], Any], calls: int) -> float:
    call()
    began = time.perf_counter()
    for _ in range(calls):
        call()
    return (time.perf_counter() - began) / calls


def bench_process(calls: int = 2000, write: Callable[[str], None] = print) -> dict[str, float]:
    from dataclasses import asdict

    from strictconformance.process import ProcessAdapter

    adapter = ProcessAdapter([sys.executable, "-m", "strictconformance.bench.process", "--serve"])
    try:
        through = _per_call(lambda: adapter.build_request(REQUEST), calls)
    finally:
        adapter.close()
    direct = _per_call(lambda: read_wire_request("openai.chat", _body(asdict(REQUEST))), calls)
    write(f"build_request, {calls} calls: direct {direct * 1e6:8.1f} us/call, through the process "
          f"{through * 1e6:8.1f} us/call, protocol overhead {(through - direct) * 1e6:8.1f} us/call (target < 1000)")
    return {"direct": direct, "process": through, "overhead": through - direct}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m strictconformance.bench process")
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.serve:
        _serve()
        return 0
    bench_process(options.calls)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

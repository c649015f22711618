"""A Python harness speaking strictconformance-process/1, for the process self-tests.

``python python_harness.py [MODE]``: a conforming harness (build_request for OpenAI, check_response,
strictify, define/describe/invoke tools through kit callbacks) whose calls misbehave on purpose
when the request's model names a fault (``model="fault:<name>"``) or MODE names one:
malformed, wrong-type, crash, exit, hang, huge, stdout-junk, wrong-id, bad-handshake. MODE
``call-tool`` adds call_tool (the direct call, through the kit's callback).
"""

import json
import os
import sys
import time

MODE = sys.argv[1] if len(sys.argv) > 1 else ""
PROTOCOL = "strictconformance-process/1"
out = sys.stdout.buffer


def send(message):
    out.write(json.dumps(message).encode() + b"\n")
    out.flush()


def read():
    line = sys.stdin.buffer.readline()
    if not line:
        sys.exit(0)
    return json.loads(line)


def misbehave(fault, call_id):
    if fault == "malformed":
        out.write(b'{"type": "result", "id": ' + str(call_id).encode() + b', "value": \n')
        out.flush()
    elif fault == "wrong-type":
        send({"type": "started", "id": call_id})
    elif fault == "wrong-id":
        send({"type": "result", "id": call_id + 100, "value": None})
    elif fault == "crash":
        sys.stderr.write("python_harness: crashing on purpose\n")
        sys.stderr.flush()
        os._exit(3)
    elif fault == "exit":
        sys.exit(0)
    elif fault == "hang":
        time.sleep(3600)
    elif fault == "huge":
        send({"type": "result", "id": call_id, "value": {"tools": [], "junk": "x" * (3 * 1024 * 1024)}})
    elif fault == "stdout-junk":
        out.write(b"debug: building the request\n")
        out.flush()
        send({"type": "result", "id": call_id, "value": {"tools": []}})
    else:
        return False
    return True


def build_request(args, call_id):
    request = args["request"]
    if request["model"].startswith("fault:") and misbehave(request["model"][6:], call_id):
        return None
    tools = []
    for tool in request["tools"]:
        strict = tool["strict"] if tool["strict"] is not None else request["config_strict"]
        entry = {"type": "function", "function": {"name": tool["name"], "parameters": tool["input_schema"]}}
        entry["function"]["strict"] = True if strict is None else bool(strict)
        tools.append(entry)
    body = {"model": request["model"], "messages": [], **({"tools": tools} if tools else {})}
    return {"api": "openai.chat", "body": body}


def check_response(args, call_id):
    payload = args["payload"]
    if not isinstance(payload, dict) or not isinstance(payload.get("choices"), list):
        raise DriftError("choices is not a list", "choices")
    return None


class DriftError(Exception):
    def __init__(self, message, path):
        super().__init__(message)
        self.path = path


TOOLS = {}


def define_tool(args, call_id):
    definition = args["definition"]
    handle = f"t{len(TOOLS) + 1}"
    TOOLS[handle] = definition
    return {"tool": handle}


def describe_tool(args, call_id):
    d = TOOLS[args["tool"]]
    return {"name": d["name"], "description": d["description"], "input_schema": d["input_schema"] or {"type": "object"},
            "strict": d["strict"]}


class PassedOn(Exception):
    """A callback's error the SDK lets through as the callback raised it (type and message)."""

    def __init__(self, type_name, message):
        super().__init__(message)
        self.type_name = type_name


def call_tool(args, call_id):
    """The direct call (mode ``call-tool``), through the kit's callback: a tool named ``wraps_errors``
    wraps the callback's error in an error of its own, like an SDK that reports tool failures; the
    others let it through as raised, like Strands' tool.invoke()."""
    definition = TOOLS[args["tool"]]
    send({"type": "callback", "id": call_id, "callback": 1, "handle": definition["callback"], "args": [args["tool_input"]]})
    answer = read()
    if answer.get("ok"):
        return answer.get("value")
    error = answer["error"]
    if definition["name"] == "wraps_errors":
        raise RuntimeError(f"tool {definition['name']} failed: {error['message']}")
    raise PassedOn(error["type"], error["message"])


CAPABILITIES = {"build_request": build_request, "check_response": check_response,
                "define_tool": define_tool, "describe_tool": describe_tool,
                **({"call_tool": call_tool} if MODE == "call-tool" else {})}


def main():
    start = read()
    assert start["type"] == "start" and start["protocol"] == PROTOCOL
    if MODE == "bad-handshake":
        send({"type": "started", "protocol": PROTOCOL})
        return
    if MODE == "startup-junk":
        out.write(b"hello from the harness\n")
        out.flush()
    send({"type": "started", "protocol": PROTOCOL,
          "implementation": {"name": "python-test-harness", "version": "1", "language": "python", "sdk": {}},
          "capabilities": sorted(CAPABILITIES), "reproducers": ["build_request"],
          "declarations": {"strict_defaults": {"openai": True}, "providers": ["openai"], "drift_errors": ["DriftError"],
                           "drift_apis": ["openai.chat"],
                           "tool_layer_traits": {"sources": ["json_schema"], "strict_convention": "boolean"}},
          "not_covered": {"plan_request": "this test harness has no model selection"}})
    while True:
        message = read()
        if message["type"] == "stop":
            return
        call_id = message["id"]
        if MODE and MODE != "call-tool" and misbehave(MODE, call_id):
            continue
        if message["method"] == "reproduce":
            send({"type": "result", "id": call_id, "value": "print('reproduced ' + " + json.dumps(message["args"]["method"]) + ")"})
            continue
        try:
            value = CAPABILITIES[message["method"]](message["args"], call_id)
        except DriftError as exc:
            send({"type": "error", "id": call_id, "error": {"type": "DriftError", "message": str(exc), "path": exc.path}})
            continue
        except PassedOn as exc:
            send({"type": "error", "id": call_id, "error": {"type": exc.type_name, "message": str(exc)}})
            continue
        except Exception as exc:
            send({"type": "error", "id": call_id, "error": {"type": type(exc).__name__, "message": str(exc)}})
            continue
        if value is None and message["method"] == "build_request":
            continue
        send({"type": "result", "id": call_id, "value": value})


main()

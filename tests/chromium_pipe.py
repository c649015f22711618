"""Headless Chromium driven through the DevTools protocol on a pipe (``--remote-debugging-pipe``):
the page's self-tests read layout (``getBoundingClientRect`` after scrolling) and take screenshots
with nothing but the standard library. Commands go to the browser's fd 3, replies and events come
back on its fd 4, each a JSON message ended by a NUL byte."""

from __future__ import annotations

import base64
import contextlib
import json
import os
import select
import subprocess
import time
from pathlib import Path
from typing import Any


class Chromium:
    """One headless browser with one page; use as a context manager."""

    def __init__(self, binary: str, profile: Path, *, width: int = 1280, height: int = 900, timeout: float = 120) -> None:
        commands_read, commands_write = os.pipe()
        events_read, events_write = os.pipe()

        def wire_pipes() -> None:  # in the child: its fd 3 reads our commands, its fd 4 writes to us
            commands, events = os.dup(commands_read), os.dup(events_write)  # copies: neither may be 3 or 4 now
            events = events if events not in (3, 4) else os.dup(events)
            os.dup2(commands, 3)
            os.dup2(events, 4)

        self.timeout = timeout
        self.process = subprocess.Popen(
            [binary, "--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-quic",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             f"--user-data-dir={profile}", f"--window-size={width},{height}", "--hide-scrollbars",
             "--remote-debugging-pipe", "about:blank"],
            pass_fds=(3, 4), preexec_fn=wire_pipes,  # the child only wires two descriptors
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(commands_read)
        os.close(events_write)
        self._out, self._in = commands_write, events_read
        self._buffer = b""
        self._last_id = 0
        self._events: list[dict[str, Any]] = []
        try:
            page = next(t for t in self.call("Target.getTargets")["targetInfos"] if t["type"] == "page")
            self._session = self.call("Target.attachToTarget", targetId=page["targetId"], flatten=True)["sessionId"]
            self.call("Page.enable", page=True)
            self.call("Emulation.setDeviceMetricsOverride", page=True, width=width, height=height,
                      deviceScaleFactor=1, mobile=False)
        except BaseException:
            self.close()
            raise

    def __enter__(self) -> Chromium:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _message(self) -> dict[str, Any]:
        while b"\0" not in self._buffer:
            ready, _, _ = select.select([self._in], [], [], self.timeout)
            if not ready:
                raise TimeoutError(f"Chromium sent nothing for {self.timeout} s")
            chunk = os.read(self._in, 1 << 20)
            if not chunk:
                raise EOFError("Chromium closed its DevTools pipe")
            self._buffer += chunk
        message, self._buffer = self._buffer.split(b"\0", 1)
        return dict(json.loads(message))

    def call(self, method: str, *, page: bool = False, **params: Any) -> dict[str, Any]:
        self._last_id += 1
        message: dict[str, Any] = {"id": self._last_id, "method": method, "params": params}
        if page:
            message["sessionId"] = self._session
        os.write(self._out, json.dumps(message).encode() + b"\0")
        while True:
            reply = self._message()
            if reply.get("id") == self._last_id:
                if "error" in reply:
                    raise RuntimeError(f"{method}: {reply['error']}")
                return dict(reply.get("result", {}))
            self._events.append(reply)

    def open(self, url: str) -> None:
        """Load ``url`` afresh; returns once it has loaded (its scripts have run)."""
        self.call("Page.navigate", page=True, url="about:blank")
        self.call("Page.navigate", page=True, url=url)
        document = url.split("#", 1)[0]
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                if self.js(f"document.readyState === 'complete' && location.href.split('#')[0] === {json.dumps(document)}"):
                    self._events.clear()
                    return
            except RuntimeError:  # the old document went away while asked
                pass
            time.sleep(0.1)
        raise TimeoutError(f"{url} did not load in {self.timeout} s")

    def js(self, expression: str) -> Any:
        """The value of ``expression`` in the page (JSON-able)."""
        result = self.call("Runtime.evaluate", page=True, expression=expression, returnByValue=True)
        if "exceptionDetails" in result:
            raise RuntimeError(f"{expression}: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self.call("Page.captureScreenshot", page=True, format="png")["data"]))

    def close(self) -> None:
        if self.process.poll() is None:
            with contextlib.suppress(Exception):  # closing anyway
                self.call("Browser.close")
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        for fd in (self._out, self._in):
            with contextlib.suppress(OSError):
                os.close(fd)

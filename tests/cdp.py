"""A minimal Chrome DevTools Protocol client over ``--remote-debugging-pipe`` (standard library only).

Headless Chromium reads CDP messages, NUL-terminated JSON, on its file descriptor 3 and answers on 4.
The self-tests use it to drive a page as a reader does: type into a field, click a link, wait for
what a script renders, take a screenshot.
"""

from __future__ import annotations

import base64
import contextlib
import fcntl
import json
import os
import select
import shutil
import subprocess
import time
from pathlib import Path
from typing import Any

import pytest

BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def chromium() -> str:
    for name in BROWSERS:
        found = shutil.which(name)
        if found:
            return found
    pytest.skip("headless Chromium is not installed (Debian: apt-get install chromium; .ci/run installs it "
                "where apt-get is available): the documentation site is not checked in a browser")


def _above(fd: int, floor: int) -> int:
    """``fd`` moved to a descriptor number of at least ``floor`` (the old one closed)."""
    moved = fcntl.fcntl(fd, fcntl.F_DUPFD, floor)
    os.close(fd)
    return moved


class Browser:
    """One headless Chromium with one page (a CDP session attached to it)."""

    def __init__(self, profile: Path, *, timeout: float = 120.0, width: int = 1280, height: int = 900) -> None:
        self.timeout = timeout
        to_browser_read, self._to_browser = os.pipe()
        self._from_browser, from_browser_write = os.pipe()
        # the child's ends above fd 10, so that moving them to 3 and 4 never closes one of them
        to_browser_read, from_browser_write = (_above(fd, 10) for fd in (to_browser_read, from_browser_write))

        # fd 3 reads our messages, fd 4 writes its answers: bash moves the pipe's ends there, then runs Chromium
        move = f'exec "$0" "$@" 3<&{to_browser_read} 4>&{from_browser_write} {to_browser_read}<&- {from_browser_write}>&-'
        self.process = subprocess.Popen(
            ["bash", "-c", move, chromium(), "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
             "--disable-background-networking", "--disable-component-update", "--disable-sync",
             "--remote-debugging-pipe", f"--user-data-dir={profile}", f"--window-size={width},{height}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            pass_fds=(to_browser_read, from_browser_write))
        os.close(to_browser_read)
        os.close(from_browser_write)
        self._buffer = b""
        self._next_id = 0
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self.session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        self.call("Page.enable", session=True)
        self.call("Runtime.enable", session=True)
        self.call("Emulation.setDeviceMetricsOverride", session=True, width=width, height=height,
                  deviceScaleFactor=1, mobile=False)

    def close(self) -> None:
        with contextlib.suppress(OSError, AssertionError, TimeoutError):
            self.call("Browser.close")
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)
        for fd in (self._to_browser, self._from_browser):
            with contextlib.suppress(OSError):
                os.close(fd)

    def __enter__(self) -> Browser:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- the protocol --------------------------------------------------------------------------
    def call(self, method: str, *, session: bool = False, **params: Any) -> dict[str, Any]:
        self._next_id += 1
        message: dict[str, Any] = {"id": self._next_id, "method": method, "params": params}
        if session:
            message["sessionId"] = self.session
        os.write(self._to_browser, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + self.timeout
        while True:
            while b"\0" in self._buffer:
                raw, _, self._buffer = self._buffer.partition(b"\0")
                answer = json.loads(raw)
                if answer.get("id") == self._next_id:
                    assert "error" not in answer, f"{method}: {answer['error']}"
                    result: dict[str, Any] = answer.get("result", {})
                    return result
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"Chromium did not answer {method} within {self.timeout} s")
            ready, _, _ = select.select([self._from_browser], [], [], left)
            if ready:
                chunk = os.read(self._from_browser, 1 << 20)
                if not chunk:
                    stderr = self.process.stderr.read().decode(errors="replace")[-2000:] if self.process.stderr else ""
                    raise AssertionError(f"Chromium exited while answering {method}: {stderr}")
                self._buffer += chunk

    # -- what a test does with the page --------------------------------------------------------
    def evaluate(self, expression: str) -> Any:
        result = self.call("Runtime.evaluate", session=True, expression=expression, returnByValue=True,
                           awaitPromise=True)
        assert "exceptionDetails" not in result, f"{expression}: {result['exceptionDetails']}"
        return result["result"].get("value")

    def wait_for(self, expression: str, what: str) -> Any:
        """The value of ``expression`` once it is truthy (polled), or fail saying ``what`` never came."""
        deadline = time.monotonic() + self.timeout
        while time.monotonic() < deadline:
            try:
                value = self.evaluate(expression)
            except AssertionError as error:  # asked while the page navigates: ask again on the new one
                if "navigated or closed" not in str(error) and "context was destroyed" not in str(error):
                    raise
                value = None
            if value:
                return value
            time.sleep(0.2)
        raise AssertionError(f"{what}: not there after {self.timeout} s ({expression})")

    def open(self, url: str) -> None:
        self.call("Page.navigate", session=True, url=url)
        self.wait_for(f"document.readyState === 'complete' && location.href.startsWith({json.dumps(url.split('#')[0])})",
                      f"the page {url} did not load")

    def type(self, text: str) -> None:
        """Type ``text`` into the focused element, key by key, as a reader does."""
        for character in text:
            self.call("Input.dispatchKeyEvent", session=True, type="keyDown", text=character, key=character)
            self.call("Input.dispatchKeyEvent", session=True, type="keyUp", key=character)

    def screenshot(self, path: Path) -> Path:
        data = self.call("Page.captureScreenshot", session=True, format="png")["data"]
        path.write_bytes(base64.b64decode(data))
        return path

"""Browser tests: Debian's Chromium driven by playwright, against a real server.

`make test` installs Chromium (the Makefile's `$(CHROMIUM)` target) and passes its path
in DAEDALUS_CHROMIUM; playwright's own browser download is never used. A missing
browser fails these tests: it is never a reason to skip them.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, sync_playwright

CHROMIUM = os.environ.get("DAEDALUS_CHROMIUM", "/usr/bin/chromium")


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """Headless Chromium, closed (with its driver) when the module's tests are done."""
    assert Path(CHROMIUM).exists(), f"no Chromium at {CHROMIUM}: run the tests with `make test`"
    with sync_playwright() as playwright:
        launched = playwright.chromium.launch(
            executable_path=CHROMIUM,
            headless=True,
            # As root (CI) Chromium refuses its sandbox; the pages are the project's own.
            args=["--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
        )
        try:
            yield launched
        finally:
            launched.close()


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        """No access log on the test's stderr."""


@contextlib.contextmanager
def static_site(folder: Path) -> Iterator[str]:
    """Serve `folder` on a free loopback port (its own origin); yield the origin."""
    handler = partial(_QuietHandler, directory=str(folder))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, name="static-site", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)

"""What the security tests measure while an attack runs."""

from __future__ import annotations

import time

import httpx


def healthz_ms(url: str) -> float:
    """How long one `/healthz` takes, in milliseconds (it must answer 200)."""
    started = time.perf_counter()
    assert httpx.get(f"{url}/healthz", timeout=5).status_code == 200
    return (time.perf_counter() - started) * 1000

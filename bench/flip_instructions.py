"""Instructions per flip: a session command's cost to the API, counted by callgrind
(issue 18, informative).

``bench/api.py`` reads the API's CPU time per flip, and on this shared 2-core machine
that reading moves with the host: the same code read 0.45-0.72 ms a flip in eight
alternating runs minutes apart, and a plain Python loop ran anywhere from 0.42 to 1.0 s
over a day. An instruction count does not move with the host. Here the same server
(``python -m api``, the settings bench/api.py uses) runs under valgrind's callgrind, and
the same closed loops (bench/api.py's ``_flips`` and ``_floor``, 50 connections) read
the instructions the API process ran where bench/api.py reads its CPU seconds: over the
flips alone, after their tables were set up. The counted runs deal their tables from
seeds "bench-0", "bench-1"... (the server takes seeds here, as in development), so that
every run plays the same cards: unseeded, two runs' counts differed by 1-1.5%, the
games' own spread (a trap, a monster, the end of a round cost more than a plain path);
seeded, four runs within 1% (a flip's own dice still come from the system's
entropy). A change to the request path that saves 2% shows here, where the CPU reading
cannot tell it from the host.

What is counted: the API process's own user-space instructions, all its threads (the
interpreter, uvloop, httptools, hiredis, orjson, pydantic-core). Not counted: the
kernel's work for its system calls, and Redis (its own process, not under valgrind).
Counting starts after a warm-up run of each API; the server starts with counting off.

Lines (one JSON object each, as every bench prints):

* ``rest_flip_instructions`` and ``graphql_flip_instructions``: instructions per flip,
  in millions (less any renewals', as bench/api.py's CPU per flip). The baseline is a
  ``GET /healthz`` (a request that does no work, through the same middleware) counted
  in the same server; the ratio is baseline / value, the floor's share of a flip.
  Informative: the issue's budget is in milliseconds (bench/api.py), and the count is
  the way to tell whether a change moved it.

It takes about a minute and a half: the server starts in about half a minute under
valgrind and runs some 50 times slower while counted.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from bench.api import SESSIONS, WARMUP, Server, _flips, _floor, _free_port, _server

FLIPS = 300  # counted flips each API (plus the setup of their tables, counted apart)
FLOOR_REQUESTS = 300
STARTUP_SECONDS = 600.0  # under valgrind, on a loaded machine


class Instructions:
    """The API process's instructions so far while counting is on, in thousands: read
    where bench/api.py reads CPU seconds (`Cpu.seconds`), so that its runs report
    instructions a flip where they report milliseconds."""

    def __init__(self, pid: int, out: Path, env: dict[str, str]) -> None:
        self.pid, self.out, self.env = pid, out, env
        self._total = 0  # the parts read so far (each dump writes a new one)
        self._read: set[Path] = set()
        control = shutil.which("callgrind_control")
        if control is None:
            sys.exit("bench/flip_instructions.py: no callgrind_control (make bench installs it)")
        self.control = control

    def _send(self, *args: str) -> None:
        # callgrind_control finds the process by files named after $USER and $HOST: its
        # environment must be the server's (whose HOST is the address it listens on).
        subprocess.run(
            [self.control, *args, str(self.pid)],
            env=self.env,
            check=True,
            capture_output=True,
            timeout=120,
        )

    def start(self) -> None:
        """Count from now on."""
        self._send("--zero")
        self._send("--instr=on")

    def seconds(self) -> float:
        """Every instruction counted since `start`, in thousands (each read dumps a part)."""
        self._send("--dump")
        for part in self.out.parent.glob(self.out.name + ".*"):
            if part not in self._read:
                self._read.add(part)
                for line in part.read_text().splitlines():
                    if line.startswith("totals:"):
                        self._total += int(line.split()[1])
        return self._total / 1000


def _line(transport: str, per_flip: float, floor: float) -> dict[str, object]:
    return {
        "bench": "flip_instructions",
        "case": f"{transport}_flip_instructions",
        "unit": "M instructions",
        "value": round(per_flip / 1e6, 4),
        "baseline": "instructions per GET /healthz in the same server (the floor: the same "
        "middleware, no work); ratio: the floor's share of a flip",
        "baseline_value": round(floor / 1e6, 4),
        "ratio": round(floor / per_flip, 3),
        "target": None,
        "flips": FLIPS,
        "sessions": SESSIONS,
    }


async def _counted(warm: Server, counted: Server, clock: Instructions) -> None:
    await _flips(warm, graphql=True, total=WARMUP)
    await _flips(warm, graphql=False, total=WARMUP)
    await _floor(warm, SESSIONS)  # its connections' first requests, uncounted
    clock.start()
    # Each read here is (instructions / 1000) where bench/api.py's is CPU seconds, so
    # its "ms per request" come out as instructions per request.
    floor = await _floor(counted, FLOOR_REQUESTS)
    for transport in ("rest", "graphql"):
        done = await _flips(counted, graphql=transport == "graphql", total=FLIPS, seeded=True)
        print(json.dumps(_line(transport, done.flip_cpu_ms, floor)), flush=True)


def main() -> None:
    valgrind = shutil.which("valgrind")
    if valgrind is None:
        sys.exit("bench/flip_instructions.py: valgrind not found (make bench installs it)")
    with tempfile.TemporaryDirectory(prefix="daedalus-bench-instructions-") as data:
        env = {k: v for k, v in os.environ.items() if not k.startswith("DAEDALUS_")}
        env.pop("REDIS_URL", None)  # the embedded Redis, like `make run` without one
        port = _free_port()
        env |= {
            "HOST": "127.0.0.1",
            "PORT": str(port),
            "DAEDALUS_DATA_DIR": data,
            "DAEDALUS_WORKER": "0",
            "DAEDALUS_SEEDED_SESSIONS": "1",  # the counted runs deal their tables from seeds
        }
        out = Path(data) / "callgrind.out"
        argv = [
            valgrind,
            "--tool=callgrind",
            "--instr-atstart=no",
            f"--callgrind-out-file={out}",
            # The venv's interpreter (a link to the binary, not a shim: valgrind does not
            # follow an exec, which also leaves the embedded redis-server uncounted).
            sys.executable,
            "-m",
            "api",
        ]
        with _server(argv, env, port, "GET /readyz", STARTUP_SECONDS, stop_seconds=120) as warm:
            clock = Instructions(warm.pid, out, env)
            counted = Server(warm.url, clock, warm.pid)
            asyncio.run(_counted(warm, counted, clock))


if __name__ == "__main__":
    main()

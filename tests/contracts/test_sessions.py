"""The session service: snapshots never change what a session is; concurrent commands
on one session never corrupt it; a retried command is recorded once."""

from __future__ import annotations

import functools
import inspect
import random
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from infra.jsonbytes import dumps
from services.dice import SimRng
from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    GM,
    SPECTATOR,
    EndMaze,
    FlipCard,
    LabyrinthError,
    RollInitiative,
    StartMaze,
    Viewer,
    redact,
)
from services.labyrinth.codec import LabyrinthAggregate
from services.labyrinth.commands import RollDice
from services.store import (
    IdempotencyConflict,
    RecordedEvent,
    RedisEventStore,
    WrongExpectedVersion,
)
from services.store.client import connect
from services.store.sessions import SessionService
from tests.contracts.drivers import DRIVERS, Loop, LoopDriven
from tests.unit.labyrinth.play import conserved, legal_commands, party

# Runs on one Redis and on a three-master Redis Cluster (tests/contracts/conftest.py).
ON_CLUSTER = True


Make = Callable[..., SessionService]  # type: ignore[type-arg]


@pytest.fixture(params=DRIVERS)
def make(request: pytest.FixtureRequest, redis_url: str) -> Iterator[Make]:
    """Builds a labyrinth session service on a store, whose commands go the driver's way
    (tests/contracts/drivers.py)."""
    if request.param == "threads":
        yield lambda store, **kw: SessionService(store, LabyrinthAggregate(), **kw)
        return
    loop = Loop()
    try:
        yield lambda store, **kw: LoopDriven(loop, redis_url, store, LabyrinthAggregate(), **kw)
    finally:
        loop.close()


@pytest.fixture
def service(store: RedisEventStore, make: Make) -> Iterator[SessionService]:  # type: ignore[type-arg]
    # No state cache: every load goes through the snapshot and the stored events.
    yield make(store, snapshot_every=5, cache_size=0)


def play_randomly(service: SessionService, session: str, seed: int, steps: int) -> None:  # type: ignore[type-arg]
    pick = random.Random(seed)
    rng = SimRng(seed)
    definition = ENCHANTED_FOREST_V1 if seed % 2 else ENCHANTED_FOREST_V2
    service.execute(session, StartMaze(definition=definition, party=party(1 + seed % 4)), rng)
    service.execute(session, RollInitiative(), rng)
    for _ in range(steps):
        commands = legal_commands(service.load(session).state)
        if not commands:
            return
        service.execute(session, pick.choice(commands), rng)


def test_snapshot_and_tail_equal_a_full_replay_for_a_thousand_sessions(
    service: SessionService,  # type: ignore[type-arg]
) -> None:
    # The asyncio driver runs the same steps (one generator, two drivers): 200 of its
    # sessions cover its snapshots and tails, at a fifth of the time.
    sessions = 1000 if type(service) is SessionService else 200
    for seed in range(sessions):
        play_randomly(service, f"s{seed}", seed, steps=seed % 9)
        session = f"s{seed}"
        loaded, replayed = service.load(session), service.replay(session)
        assert loaded == replayed, seed
        assert conserved(loaded.state)
    for seed in range(sessions):
        service.store.delete_snapshots(service.stream(f"s{seed}"))
    for seed in range(0, sessions, 7):
        session = f"s{seed}"
        assert service.load(session) == service.replay(session)


class CountingStore(RedisEventStore):
    """A store that counts the appends it lost to another writer (the race happening)."""

    conflicts = 0

    def appended(self, stream: str, expected_version: int, guard: Any, reply: Any) -> Any:
        try:  # the append script's reply, read the same way by both drivers
            return super().appended(stream, expected_version, guard, reply)
        except WrongExpectedVersion:
            CountingStore.conflicts += 1
            raise


# What a command decided on a state another player just moved may be refused with.
MOVED_ON = {
    "not_your_turn",
    "player_asleep",
    "member_out_of_play",
    "action_already_taken",
    "action_locked",
    "action_unavailable",
    "unknown_card",
    "not_flippable",
    "no_pending_choice",
    "choice_pending",
    "trap_pending",
    "no_pending_trap",
    "encounter_pending",
    "no_encounter",
    "maze_ended",
}


def test_concurrent_commands_on_one_session_never_corrupt_it(
    service: SessionService,  # type: ignore[type-arg]
    redis_url: str,
    make: Make,
) -> None:
    rng = SimRng("race")
    service.execute("shared", StartMaze(definition=ENCHANTED_FOREST_V2, party=party(4)), rng)
    service.execute("shared", RollInitiative(), rng)
    before = service.store.read(service.stream("shared"))
    acknowledged: list[RecordedEvent] = []
    refused: list[str] = []
    crashed: list[BaseException] = []
    CountingStore.conflicts = 0

    def player(seed: int) -> None:
        own = make(CountingStore(connect(redis_url), service.store.keys.tenant), snapshot_every=5)
        pick, dice = random.Random(seed), SimRng(seed)
        try:
            for _ in range(25):
                loaded = own.load("shared")
                commands = legal_commands(loaded.state)
                if not commands:
                    return
                try:
                    done = own.execute("shared", pick.choice(commands), dice)
                except LabyrinthError as e:  # the state moved under the command: refused
                    refused.append(e.code)
                    continue
                acknowledged.extend(done.events)
        except BaseException as e:  # pragma: no cover - reported by the assertion below
            crashed.append(e)

    threads = [threading.Thread(target=player, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not crashed
    assert CountingStore.conflicts > 0  # the writers really raced
    # A refusal is only ever the engine saying the state moved on, never a store error.
    assert set(refused) <= MOVED_ON, refused
    loaded, replayed = service.load("shared"), service.replay("shared")
    assert loaded == replayed
    assert conserved(loaded.state)
    stored = service.store.read(service.stream("shared"))
    # Every acknowledged event is stored, at the version it was acknowledged with, as
    # sent; nothing is stored that was not acknowledged (refused commands wrote nothing).
    assert sorted(acknowledged, key=lambda e: e.version) == stored[len(before) :]
    # Versions are contiguous by the index, not just by the entry ids they are read from.
    index = [service.store.lookup(service.stream("shared"), e.id) for e in stored]
    versions = sorted(found[0] for found in index if found is not None)
    assert versions == list(range(1, len(stored) + 1))
    positions = [e.position for e in stored]
    assert positions == sorted(positions) and len(set(positions)) == len(positions)


def test_a_command_decided_on_a_stale_view_is_a_conflict(
    service: SessionService,  # type: ignore[type-arg]
) -> None:
    rng = SimRng("seen")
    service.execute("v", StartMaze(definition=ENCHANTED_FOREST_V2, party=party(2)), rng)
    seen = service.load("v").version
    service.execute("v", RollInitiative(), rng)
    before = service.store.version(service.stream("v"))
    commands = legal_commands(service.load("v").state)
    with pytest.raises(WrongExpectedVersion):
        service.execute("v", commands[0], rng, seen_version=seen)
    assert service.store.version(service.stream("v")) == before


def test_a_retried_command_is_recorded_once(service: SessionService) -> None:  # type: ignore[type-arg]
    rng = SimRng("retry")
    start = StartMaze(definition=ENCHANTED_FOREST_V2, party=party(2))
    first = service.execute("r", start, rng, command_id="cmd-1")
    again = service.execute("r", start, rng, command_id="cmd-1")
    assert again.duplicate
    assert [e.position for e in again.events] == [e.position for e in first.events]
    assert service.store.version(service.stream("r")) == first.version


def test_a_command_id_reused_for_another_command_is_refused(
    service: SessionService,  # type: ignore[type-arg]
) -> None:
    rng = SimRng("reused")
    service.execute("u", StartMaze(definition=ENCHANTED_FOREST_V2, party=party(2)), rng)
    service.execute("u", RollInitiative(), rng)
    roll = RollDice(by=None, expression="1d6")
    first = service.execute("u", roll, rng, command_id="same-id-01", fingerprint="roll")
    before = service.load("u")
    for seen in (None, first.version):  # found by the lookup before it is decided
        with pytest.raises(IdempotencyConflict) as info:
            service.execute(
                "u", EndMaze(reason="x"), rng, seen_version=seen,
                command_id="same-id-01", fingerprint="end",
            )  # fmt: skip
        assert info.value.code == "idempotency_conflict"
    assert service.load("u") == before and before.state.phase == "turn"
    again = service.execute("u", roll, rng, command_id="same-id-01", fingerprint="roll")
    assert again.duplicate and [e.id for e in again.events] == [e.id for e in first.events]
    # A caller that gives no fingerprint cannot be told apart: a retry, as before.
    assert service.execute("u", EndMaze(reason="x"), rng, command_id="same-id-01").duplicate


class Unlooked:
    """A store (either driver's) whose first lookup misses: as if the first attempt of
    the command recorded it just after this one looked, so the append finds its ids."""

    def __init__(self, store: Any) -> None:
        self.store, self.missed = store, False

    def __getattr__(self, name: str) -> Any:
        return getattr(self.store, name)

    def lookup(self, stream: str, event_id: str) -> Any:
        if self.missed:
            return self.store.lookup(stream, event_id)
        self.missed = True
        if inspect.iscoroutinefunction(self.store.lookup):
            return _nothing()
        return None


async def _nothing() -> None:
    return None


def _unlooked(service: SessionService) -> None:  # type: ignore[type-arg]
    if isinstance(service, LoopDriven):
        service.astore = Unlooked(service.astore)  # type: ignore[assignment]
    else:
        service.store = Unlooked(service.store)  # type: ignore[assignment]


@pytest.mark.parametrize("other", [EndMaze(reason="x"), RollDice(by=None, expression="2d6")])
def test_a_reused_command_id_the_append_finds_stored_is_refused(
    store: RedisEventStore, make: Make, other: Any
) -> None:
    rng = SimRng("appended")
    first_service = make(store, cache_size=0)
    first_service.execute("a", StartMaze(definition=ENCHANTED_FOREST_V2, party=party(2)), rng)
    first_service.execute("a", RollInitiative(), rng)
    roll = RollDice(by=None, expression="1d6")
    first = first_service.execute("a", roll, rng, command_id="same-id-02", fingerprint="roll")
    before = first_service.load("a")
    late = make(store, cache_size=0)
    _unlooked(late)
    with pytest.raises(IdempotencyConflict):  # the script's `dup` (or `partial`) reply
        late.execute("a", other, rng, command_id="same-id-02", fingerprint="other")
    assert first_service.load("a") == before
    twin = make(store, cache_size=0)
    _unlooked(twin)  # the same command: a retry the append answers, as before
    again = twin.execute("a", roll, rng, command_id="same-id-02", fingerprint="roll")
    assert again.duplicate and [e.id for e in again.events] == [e.id for e in first.events]
    assert first_service.load("a") == before


def test_a_commands_decided_events_are_what_its_recorded_events_decode_to(
    service: SessionService,  # type: ignore[type-arg]
) -> None:
    """An answer shows a command's events from `Executed.decided`, not decoded from what
    was just stored (api/tables/kind.py): they must be the very events a reader of the
    store gets, so that no viewer is shown more, or other, than a fresh read shows. As
    JSON for every viewer, too: a dataclass's `==` takes an enum for its string, `True`
    for 1, which the redaction would not show alike."""
    agg = service.aggregate
    pick = random.Random(7)
    checked = 0
    for seed in range(24):
        session, rng = f"d{seed}", SimRng(seed)
        definition = ENCHANTED_FOREST_V1 if seed % 2 else ENCHANTED_FOREST_V2
        commands: list[Any] = [StartMaze(definition=definition, party=party(1 + seed % 4))]
        for _ in range(40):  # the start, then legal picks
            done = service.execute(session, commands.pop(0), rng)
            assert done.events and not done.duplicate
            decoded = tuple(agg.decode_event(r.type, r.data) for r in done.events)
            assert done.decided == decoded
            viewers = [GM, SPECTATOR, *(Viewer("player", m.id) for m in done.state.party)]
            for viewer in viewers:
                shown = [dumps(redact(event, viewer)) for event in done.decided]
                assert shown == [dumps(redact(event, viewer)) for event in decoded]
            checked += len(decoded)
            choices = legal_commands(done.state)
            if not choices:
                break
            commands.append(pick.choice(choices))
    assert checked > 500
    start = StartMaze(definition=ENCHANTED_FOREST_V2, party=party(1))
    first = service.execute("d-again", start, rng, command_id="start-1")
    again = service.execute("d-again", start, rng, command_id="start-1")
    assert first.decided and again.duplicate and again.events and again.decided == ()


def race(count: int, call: Any) -> list[tuple[float, float, Any]]:
    """Run `call(i)` in `count` threads released together: (start, end, outcome) each."""
    barrier = threading.Barrier(count)
    results: list[tuple[float, float, Any]] = []

    def run(i: int) -> None:
        ready = call(i)  # set up, then wait for the others
        barrier.wait(timeout=30)
        began = time.monotonic()
        try:
            outcome: Any = ready()
        except Exception as e:  # reported by the caller's assertions
            outcome = e
        results.append((began, time.monotonic(), outcome))

    threads = [threading.Thread(target=run, args=(i,)) for i in range(count)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    return results


def attempt(
    make: Make, url: str, tenant: str, session: str, move: Any, seen: int | None, i: int
) -> Any:
    """A client of its own (connection, cache) ready to send `move` with one command id."""
    own = make(RedisEventStore(connect(url), tenant))
    own.load(session)  # warm, so the attempts start together
    return lambda: own.execute(session, move, SimRng(i), seen_version=seen, command_id="the-one")


def test_a_command_retried_by_racing_clients_is_recorded_once(
    service: SessionService,  # type: ignore[type-arg]
    redis_url: str,
    make: Make,
) -> None:
    clients, raced = 8, 0
    # Every round is checked; the test needs 5 rounds whose attempts overlapped (on a
    # loaded machine a round's threads may start one after the other) within 40 rounds.
    for round_ in range(40):
        if raced == 5:
            break
        session = f"rr{round_}"
        rng = SimRng(session)
        service.execute(session, StartMaze(definition=ENCHANTED_FOREST_V2, party=party(3)), rng)
        start = service.execute(session, RollInitiative(), rng)
        # The active player's move: it changes the turn or phase, so an attempt that
        # decided again after its twin recorded it would be refused, not a duplicate.
        move = next(c for c in legal_commands(start.state) if isinstance(c, FlipCard))
        seen = start.version if round_ % 2 else None
        args = (make, redis_url, service.store.keys.tenant, session, move, seen)
        results = race(clients, functools.partial(attempt, *args))
        assert len(results) == clients
        failures = [o for _, _, o in results if isinstance(o, Exception)]
        assert not failures, failures
        first_end = min(end for _, end, _ in results)
        raced += sum(began < first_end for began, _, _ in results) >= 2  # they overlapped
        outcomes = [o for _, _, o in results]
        assert sum(not o.duplicate for o in outcomes) == 1
        assert len({tuple(e.id for e in o.events) for o in outcomes}) == 1
        recorded = outcomes[0].events
        stored = service.store.read(service.stream(session), from_version=start.version + 1)
        assert [e.id for e in stored] == [e.id for e in recorded]  # recorded once
    assert raced == 5, f"only {raced} of {round_ + 1} rounds had overlapping attempts"


def test_two_commands_racing_under_one_command_id_record_one_and_refuse_the_other(
    service: SessionService,  # type: ignore[type-arg]
    redis_url: str,
    make: Make,
) -> None:
    raced, tenant = 0, service.store.keys.tenant
    commands = {"roll": RollDice(by=None, expression="1d6"), "end": EndMaze(reason="x")}

    def attempt(session: str, i: int) -> Any:
        own = make(RedisEventStore(connect(redis_url), tenant))
        own.load(session)
        name = "roll" if i % 2 else "end"
        return lambda: (
            name,
            own.execute(session, commands[name], SimRng(i), command_id="one-id", fingerprint=name),
        )

    for round_ in range(20):
        if raced == 3:
            break
        session = f"tc{round_}"
        rng = SimRng(session)
        service.execute(session, StartMaze(definition=ENCHANTED_FOREST_V2, party=party(2)), rng)
        start = service.execute(session, RollInitiative(), rng)
        results = race(8, functools.partial(attempt, session))
        first_end = min(end for _, end, _ in results)
        raced += sum(began < first_end for began, _, _ in results) >= 2
        outcomes = [o for _, _, o in results]
        answered = [o for o in outcomes if not isinstance(o, Exception)]
        refused = [o for o in outcomes if isinstance(o, Exception)]
        assert all(isinstance(e, IdempotencyConflict) for e in refused), refused
        # One command won: its attempts answer it (once not a duplicate), the other's
        # four are all refused.
        assert len(answered) == len(refused) == 4
        assert len({name for name, _ in answered}) == 1
        assert sum(not done.duplicate for _, done in answered) == 1
        assert len({tuple(e.id for e in done.events) for _, done in answered}) == 1
        stored = service.store.read(service.stream(session), from_version=start.version + 1)
        assert [e.id for e in stored] == [e.id for e in answered[0][1].events]
    assert raced == 3, f"only {raced} of {round_ + 1} rounds had overlapping attempts"


def _two_instances(
    store: RedisEventStore, make: Make, session: str
) -> tuple[SessionService, SessionService, SimRng]:  # type: ignore[type-arg]
    """A caching instance (the driver's) that started `session`, and another with no cache
    (another API process, as far as the first can tell), with their random source."""
    cached = make(store)
    other = SessionService(store, LabyrinthAggregate(), cache_size=0)
    rng = SimRng(session)
    cached.execute(session, StartMaze(definition=ENCHANTED_FOREST_V2, party=party(2)), rng)
    return cached, other, rng


def test_a_cached_session_sees_what_other_instances_append(
    store: RedisEventStore, make: Make
) -> None:
    cached, other, rng = _two_instances(store, make, "c")
    first = cached.load("c")
    other.execute("c", RollInitiative(), rng)
    for _ in range(5):
        commands = legal_commands(other.load("c").state)
        other.execute("c", commands[0], rng)
    assert cached.load("c") == other.replay("c") != first


class Calls:
    """A store (either driver's) that notes the name of each call the service makes."""

    def __init__(self, store: Any) -> None:
        self.store, self.names = store, []  # type: ignore[var-annotated]

    def __getattr__(self, name: str) -> Any:
        self.names.append(name)
        return getattr(self.store, name)


@pytest.mark.parametrize("command_id", [None, "retry-key-1"])
def test_a_stale_cached_state_catches_up_from_the_refusal_without_a_read(
    store: RedisEventStore, make: Make, command_id: str | None
) -> None:
    cached, other, rng = _two_instances(store, make, "s")
    other.execute("s", RollInitiative(), rng)  # another process moves the session on
    calls = Calls(cached.astore if isinstance(cached, LoopDriven) else cached.store)
    if isinstance(cached, LoopDriven):
        cached.astore = calls  # type: ignore[assignment]
    else:
        cached.store = calls  # type: ignore[assignment]
    done = cached.execute("s", EndMaze(reason="late"), rng, command_id=command_id)
    # Decided on the stale state, refused at its version with the event it missed,
    # decided again on the state that event moves it to, appended: no read (nor, with a
    # command id, a second lookup) between the two appends.
    first = ["lookup"] if command_id is not None else []
    assert calls.names == [*first, "append", "append"]
    assert done.state == other.replay("s").state
    assert done.version == store.version(cached.stream("s")) == other.load("s").version
    assert cached.load("s") == other.replay("s")  # and that state is the cached one


def test_a_stale_cached_state_is_decided_again_on_the_fresh_one(
    store: RedisEventStore, make: Make
) -> None:
    cached, other, rng = _two_instances(store, make, "s")
    stale = cached.load("s").state
    other.execute("s", RollInitiative(), rng)  # the cached instance has not seen this
    # Legal only once initiative is rolled: refused on the cached state, not on the fresh.
    (command, *_) = legal_commands(other.load("s").state)
    with pytest.raises(LabyrinthError):
        cached.aggregate.decide(stale, command, rng)
    done = cached.execute("s", command, rng)
    assert done.version == store.version(cached.stream("s")) == other.load("s").version
    assert done.state == other.replay("s").state
    assert cached.load("s") == other.replay("s")


def test_a_seen_version_is_checked_against_the_store_not_the_cache(
    store: RedisEventStore, make: Make
) -> None:
    cached = make(store)
    other = SessionService(store, LabyrinthAggregate(), cache_size=0)
    rng = SimRng("seen-cache")
    started = cached.execute("w", StartMaze(definition=ENCHANTED_FOREST_V2, party=party(2)), rng)
    other.execute("w", RollInitiative(), rng)
    command = legal_commands(other.load("w").state)[0]
    before = store.version(cached.stream("w"))
    with pytest.raises(WrongExpectedVersion) as refused:  # the cache is at started.version
        cached.execute("w", command, rng, seen_version=started.version)
    assert refused.value.actual_version == before  # the store's version, not the cache's
    assert store.version(cached.stream("w")) == before
    done = cached.execute("w", command, rng, seen_version=before)
    assert done.version > before

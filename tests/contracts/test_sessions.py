"""The session service: snapshots never change what a session is; concurrent commands
on one session never corrupt it; a retried command is recorded once."""

from __future__ import annotations

import random
import threading
from collections.abc import Iterator

import pytest
import redis

from services.dice import SimRng
from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    LabyrinthError,
    RollInitiative,
    StartMaze,
)
from services.labyrinth.codec import LabyrinthAggregate
from services.store import RedisEventStore, WrongExpectedVersion
from services.store.sessions import SessionService
from tests.unit.labyrinth.play import conserved, legal_commands, party


@pytest.fixture
def service(store: RedisEventStore) -> Iterator[SessionService]:  # type: ignore[type-arg]
    # No state cache: every load goes through the snapshot and the stored events.
    yield SessionService(store, LabyrinthAggregate(), snapshot_every=5, cache_size=0)


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
    for seed in range(1000):
        play_randomly(service, f"s{seed}", seed, steps=seed % 9)
        session = f"s{seed}"
        loaded, replayed = service.load(session), service.replay(session)
        assert loaded == replayed, seed
        assert conserved(loaded.state)
    for seed in range(1000):
        service.store.delete_snapshots(service.stream(f"s{seed}"))
    for seed in range(0, 1000, 7):
        session = f"s{seed}"
        assert service.load(session) == service.replay(session)


def test_concurrent_commands_on_one_session_never_corrupt_it(
    service: SessionService,  # type: ignore[type-arg]
    redis_url: str,
) -> None:
    rng = SimRng("race")
    service.execute("shared", StartMaze(definition=ENCHANTED_FOREST_V2, party=party(4)), rng)
    service.execute("shared", RollInitiative(), rng)
    refused: list[str] = []
    crashed: list[BaseException] = []

    def player(seed: int) -> None:
        own = SessionService(
            RedisEventStore(redis.Redis.from_url(redis_url), service.store.keys.tenant),
            LabyrinthAggregate(),
            snapshot_every=5,
        )
        pick, dice = random.Random(seed), SimRng(seed)
        try:
            for _ in range(25):
                loaded = own.load("shared")
                commands = legal_commands(loaded.state)
                if not commands:
                    return
                try:
                    own.execute("shared", pick.choice(commands), dice)
                except LabyrinthError as e:  # the state moved under the command: refused
                    refused.append(e.code)
        except BaseException as e:  # pragma: no cover - reported by the assertion below
            crashed.append(e)

    threads = [threading.Thread(target=player, args=(i,)) for i in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=120)
    assert not crashed
    loaded, replayed = service.load("shared"), service.replay("shared")
    assert loaded == replayed
    assert conserved(loaded.state)
    stored = service.store.read(service.stream("shared"))
    assert [e.version for e in stored] == list(range(1, len(stored) + 1))


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


def test_a_cached_session_sees_what_other_instances_append(store: RedisEventStore) -> None:
    cached = SessionService(store, LabyrinthAggregate())
    other = SessionService(store, LabyrinthAggregate(), cache_size=0)
    rng = SimRng("cache")
    cached.execute("c", StartMaze(definition=ENCHANTED_FOREST_V2, party=party(2)), rng)
    first = cached.load("c")
    other.execute("c", RollInitiative(), rng)
    for _ in range(5):
        commands = legal_commands(other.load("c").state)
        other.execute("c", commands[0], rng)
    assert cached.load("c") == other.replay("c") != first

"""Stored events are a contract: every event ever stored stays readable by today's code.

The fixtures (tests/fixtures/stored_events/*.json) are events as the store held them when
they were recorded. Renaming an event class must not change what is stored or what
clients see; changing an event's shape needs a new version and an upcaster
(services/eventtypes.py, docs/STORE.md).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import pytest

from services.campaign import GM as CAMPAIGN_GM
from services.campaign import SPECTATOR as CAMPAIGN_SPECTATOR
from services.campaign import CampaignAggregate, view_event
from services.campaign import Viewer as CampaignViewer
from services.campaign.events import EVENT_TYPES as CAMPAIGN_EVENT_TYPES
from services.campaign.events import EVENTS as CAMPAIGN_EVENTS
from services.dice import Rng, SimRng
from services.eventtypes import (
    EventRegistry,
    EventRegistryError,
    UnknownEventType,
)
from services.jsoncodec import JsonCodec
from services.labyrinth import GM, SPECTATOR, Viewer, redact
from services.labyrinth.codec import LabyrinthAggregate
from services.labyrinth.events import EVENT_TYPES as LABYRINTH_EVENT_TYPES
from services.labyrinth.events import EVENTS as LABYRINTH_EVENTS
from services.store import NO_STREAM, NewEvent, RedisEventStore
from services.store.sessions import Aggregate, SessionService, folded
from tests.unit.labyrinth.play import conserved

# Runs on one Redis and on a three-master Redis Cluster (tests/contracts/conftest.py).
ON_CLUSTER = True

FIXTURES = Path(__file__).resolve().parents[1] / "fixtures" / "stored_events"
RECORD = "python -m tests.fixtures.stored_events.record {aggregate}-<n>"
AGGREGATES: dict[str, tuple[Aggregate[Any], EventRegistry, tuple[type, ...]]] = {
    "labyrinth": (LabyrinthAggregate(), LABYRINTH_EVENTS, LABYRINTH_EVENT_TYPES),
    "campaign": (CampaignAggregate(), CAMPAIGN_EVENTS, CAMPAIGN_EVENT_TYPES),
}


def stored(aggregate: str) -> list[dict[str, Any]]:
    """Every fixture event of an aggregate, from every file recorded for it."""
    out: list[dict[str, Any]] = []
    for path in sorted(FIXTURES.glob(f"{aggregate}-*.json")):
        document = json.loads(path.read_text(encoding="utf-8"))
        assert document["aggregate"] == aggregate, path
        out += document["events"]
    return out


def streams(aggregate: str) -> dict[str, list[dict[str, Any]]]:
    """The fixture events of an aggregate by stream, in version order."""
    by_stream: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for event in stored(aggregate):
        by_stream[event["stream"]].append(event)
    return {s: sorted(events, key=lambda e: e["version"]) for s, events in by_stream.items()}


def kept(stored: Any, again: Any) -> bool:
    """Whether re-encoding kept every stored field and value (`again` may add fields).

    Lists compare in order, else as multisets: a frozenset is stored in whatever order
    its hashes gave that process, so only its members are the contract.
    """
    if isinstance(stored, dict):
        return isinstance(again, dict) and all(
            k in again and kept(v, again[k]) for k, v in stored.items()
        )
    if isinstance(stored, list):
        if not isinstance(again, list) or len(again) != len(stored):
            return False
        if all(kept(a, b) for a, b in zip(stored, again, strict=True)):
            return True
        canonical = sorted(json.dumps(x, sort_keys=True) for x in stored)
        return canonical == sorted(json.dumps(x, sort_keys=True) for x in again)
    return bool(stored == again)


def public_type(record: dict[str, Any], aggregate: str) -> str:
    """The `type` clients see for a stored event: the name its class is registered under
    (the stored name without its version, unless the name was retired with `formerly`)."""
    _, registry, _ = AGGREGATES[aggregate]
    return registry.name_of(registry.read(record["type"], record["data"])[0])


# --- the registries ---


@pytest.mark.parametrize("aggregate", AGGREGATES)
def test_every_event_class_is_registered_under_its_own_name(aggregate: str) -> None:
    _, registry, union = AGGREGATES[aggregate]
    assert set(registry.classes) == set(union), "register every member of the Event union"
    names = [r.name for r in registry.registrations]
    assert len(set(names)) == len(names)
    assert registry.missing_upcasters() == []


def test_the_two_aggregates_never_share_an_event_name() -> None:
    # Clients see `type` without the aggregate: one name means one kind of event.
    labyrinth = {r.name for r in LABYRINTH_EVENTS.registrations}
    campaign = {r.name for r in CAMPAIGN_EVENTS.registrations}
    assert labyrinth & campaign == set()


def test_a_second_class_under_a_taken_name_is_refused() -> None:
    registry = EventRegistry("toy")

    @registry.event("DoorOpened")
    @dataclass(frozen=True)
    class DoorOpened:
        door: str

    with pytest.raises(EventRegistryError, match="DoorOpened"):

        @registry.event("DoorOpened")
        @dataclass(frozen=True)
        class DoorFlungOpen:
            door: str

    with pytest.raises(EventRegistryError, match="already stored"):
        registry.add(DoorOpened, "DoorUnlocked")
    with pytest.raises(EventRegistryError, match="DoorOpened"):
        registry.add(dict, "GateOpened", formerly=("DoorOpened",))


def test_renaming_a_class_changes_nothing_stored_or_shown() -> None:
    registration = LABYRINTH_EVENTS.registration(LABYRINTH_EVENT_TYPES[0])
    event_type = registration.cls
    renamed = type("SomethingElse", (), {})
    assert renamed.__name__ != event_type.__name__
    # The stored and public name come from the registration, not from __name__.
    assert replace(registration, cls=renamed).stored_type == registration.name
    assert LABYRINTH_EVENTS.name_of(event_type) == registration.name


# --- the fixtures, read by today's code ---


@pytest.mark.parametrize("aggregate", AGGREGATES)
def test_every_registered_event_type_has_a_stored_fixture(aggregate: str) -> None:
    _, registry, _ = AGGREGATES[aggregate]
    found = {registry.read(e["type"], e["data"])[0] for e in stored(aggregate)}
    missing = sorted(r.name for r in registry.registrations if r.cls not in found)
    assert missing == [], f"record a fixture covering {missing}: {RECORD.format(**locals())}"


@pytest.mark.parametrize("aggregate", AGGREGATES)
def test_stored_events_decode_without_losing_or_changing_a_field(aggregate: str) -> None:
    agg, registry, _ = AGGREGATES[aggregate]
    for record in stored(aggregate):
        event = agg.decode_event(record["type"], record["data"])
        _, current = registry.read(record["type"], record["data"])
        _, again = agg.encode_event(event)
        # A field the class gained (with a default) is fine; one it dropped or reads
        # differently would silently lose what was stored.
        assert kept(current, again), f"{record['stream']} v{record['version']} {record['type']}"
        assert type(event) is registry.read(record["type"], record["data"])[0]


def test_stored_labyrinth_streams_replay_and_render_for_every_viewer() -> None:
    agg, _, _ = AGGREGATES["labyrinth"]
    for stream, records in streams("labyrinth").items():
        assert [r["version"] for r in records] == list(range(1, len(records) + 1)), stream
        state = agg.initial()
        players = set()
        for record in records:
            event = agg.decode_event(record["type"], record["data"])
            state = agg.evolve(state, event)
            players |= set(state.member_ids)
            for viewer in (GM, SPECTATOR, *(Viewer("player", p) for p in sorted(players))):
                shown = redact(event, viewer)
                assert shown is not None and shown["type"] == public_type(record, "labyrinth")
        assert conserved(state), stream


def test_stored_campaign_streams_replay_and_render_for_every_viewer() -> None:
    agg, _, _ = AGGREGATES["campaign"]
    for stream, records in streams("campaign").items():
        assert [r["version"] for r in records] == list(range(1, len(records) + 1)), stream
        state = agg.initial()
        for record in records:
            event = agg.decode_event(record["type"], record["data"])
            state = agg.evolve(state, event)
            runners = [CampaignViewer.player(r.id) for r in state.runners]
            for viewer in (CAMPAIGN_GM, CAMPAIGN_SPECTATOR, *runners):
                shown = view_event(event, viewer)
                assert shown is not None and shown["type"] == public_type(record, "campaign")
        assert state.downtime >= 0


@pytest.mark.parametrize("aggregate", AGGREGATES)
def test_stored_streams_load_from_a_real_store_as_they_replay(
    aggregate: str, store: RedisEventStore
) -> None:
    agg, _, _ = AGGREGATES[aggregate]
    service: SessionService[Any] = SessionService(store, agg, cache_size=0)
    for stream, records in streams(aggregate).items():
        batch = [NewEvent(r["id"], r["type"], r["data"]) for r in records]
        store.append(stream, batch, expected_version=NO_STREAM)
        session = stream.removeprefix(f"{agg.name}-")
        state = agg.initial()
        for record in records:
            state = agg.evolve(state, agg.decode_event(record["type"], record["data"]))
        loaded = service.load(session)
        assert (loaded.version, loaded.state) == (len(records), state), stream


# --- upcasting: an event stored in an old shape is read in the current one ---

TOY = EventRegistry("toy")


@TOY.event("DoorOpened", version=3, formerly=("GateOpened",))
@dataclass(frozen=True, slots=True, kw_only=True)
class DoorOpened:
    door: str
    by: str
    force: int


@TOY.upcaster("DoorOpened", 1)
def _named_the_door(data: dict[str, Any]) -> dict[str, Any]:
    # Version 1 (stored as GateOpened) called the door a gate and the opener `who`.
    return {"door": data["gate"], "by": data["who"]}


@TOY.upcaster("DoorOpened", 2)
def _added_force(data: dict[str, Any]) -> dict[str, Any]:
    data["force"] = 0  # in place on purpose: the registry hands upcasters a copy
    return data


TOY_CODEC: JsonCodec[DoorOpened, tuple[DoorOpened, ...]] = JsonCodec(TOY, tuple[DoorOpened, ...])


def test_an_event_stored_in_an_old_shape_is_upcast_on_read() -> None:
    old = {"gate": "north", "who": "p1"}
    assert TOY_CODEC.decode_event("GateOpened", old) == DoorOpened(door="north", by="p1", force=0)
    assert old == {"gate": "north", "who": "p1"}  # the stored data is left as it was
    v2 = {"door": "west", "by": "p2"}
    assert TOY_CODEC.decode_event("DoorOpened@2", v2) == DoorOpened(door="west", by="p2", force=0)
    assert "force" not in v2
    current = DoorOpened(door="east", by="p3", force=4)
    stored_type, data = TOY_CODEC.encode_event(current)
    assert stored_type == "DoorOpened@3"
    assert TOY_CODEC.decode_event(stored_type, data) == current


def test_an_unknown_or_newer_stored_type_is_refused_by_name() -> None:
    with pytest.raises(UnknownEventType, match="WindowOpened"):
        TOY_CODEC.decode_event("WindowOpened", {})
    with pytest.raises(UnknownEventType, match="newer than this code"):
        TOY_CODEC.decode_event("DoorOpened@4", {"door": "n", "by": "p", "force": 1})
    with pytest.raises(UnknownEventType, match="malformed"):
        TOY_CODEC.decode_event("DoorOpened@1", {})


def test_a_version_without_its_upcaster_is_reported() -> None:
    registry = EventRegistry("toy")
    registry.add(DoorOpened, "DoorOpened", version=2)
    assert registry.missing_upcasters() == [("DoorOpened", 1)]
    with pytest.raises(UnknownEventType, match="no upcaster"):
        registry.read("DoorOpened", {"door": "n", "by": "p"})


class Doors:
    """A toy aggregate on the toy registry: the state is every door opened, in order."""

    name = "doors"

    def initial(self) -> tuple[DoorOpened, ...]:
        return ()

    def decide(self, state: tuple[DoorOpened, ...], command: Any, rng: Rng) -> Sequence[Any]:
        return [command]

    def evolve(self, state: tuple[DoorOpened, ...], event: Any) -> tuple[DoorOpened, ...]:
        return (*state, event)

    def decided(self, state: tuple[DoorOpened, ...], command: Any, rng: Rng) -> Any:
        return folded(self.decide, self.evolve)(state, command, rng)

    encode_event = staticmethod(TOY_CODEC.encode_event)
    decode_event = staticmethod(TOY_CODEC.decode_event)
    encode_state = staticmethod(TOY_CODEC.encode_state)
    decode_state = staticmethod(TOY_CODEC.decode_state)


def test_the_session_service_upcasts_what_the_store_holds(store: RedisEventStore) -> None:
    service: SessionService[tuple[DoorOpened, ...]] = SessionService(store, Doors(), cache_size=0)
    old = [
        NewEvent("e1", "GateOpened", {"gate": "north", "who": "p1"}),
        NewEvent("e2", "DoorOpened@2", {"door": "west", "by": "p2"}),
    ]
    store.append(service.stream("hall"), old, expected_version=NO_STREAM)
    service.execute("hall", DoorOpened(door="east", by="p3", force=4), SimRng("doors"))
    assert service.load("hall").state == (
        DoorOpened(door="north", by="p1", force=0),
        DoorOpened(door="west", by="p2", force=0),
        DoorOpened(door="east", by="p3", force=4),
    )
    assert [e.type for e in store.read(service.stream("hall"))] == [
        "GateOpened",
        "DoorOpened@2",
        "DoorOpened@3",
    ]

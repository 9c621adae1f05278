"""The codec and the aggregate the session service runs: exact round trips."""

from __future__ import annotations

import json

from services.campaign import commands as cmd
from services.campaign.cadence import WeeklyCadence
from services.campaign.codec import (
    CampaignAggregate,
    decode_event,
    decode_state,
    encode_event,
    encode_state,
)
from services.campaign.events import EVENT_TYPES
from services.dice import HmacRng
from services.maze.effects import Effect
from services.maze.injuries import Injury
from tests.unit.campaign.play import HOPELESS, Table, steady


def busy_table() -> Table:
    """A campaign that has recorded every kind of event."""
    cadence = WeeklyCadence(days=("mon", "wed", "fri"), at="20:00", timezone="Europe/Berlin")
    table = Table(supplies=10, cadence=cadence)
    table.add("a", steady("a", traits=["Farmer"], Survival=HOPELESS, Hardy=HOPELESS))
    table.add("b", steady("b", traits=["Hermit"]))
    buddy = steady("c", traits=["Party", "Buddy"]).model_copy(update={"buddies": ["d"]})
    table.add("c", buddy)
    table.add("d", steady("d", traits=["Party", "Buddy"]).model_copy(update={"buddies": ["c"]}))
    table.do(cmd.RecordInjury(runner="a", injury=Injury.MINOR))
    table.do(cmd.SetEffect(runner="a", effect=Effect.POISON, present=True))
    table.choose("b", "treat", target_runner="a", target_injury="i0-1")
    table.choose("a", "farm")
    table.do(cmd.StartRun(run="r1", runners=("c",), session_id="s1"))
    table.do(cmd.AdjustSupplies(delta=-3, reason="rats"))
    table.do(cmd.SetCadence(cadence=cadence, at=1_700_100_000.5))
    table.tick()
    table.tick()
    table.do(
        cmd.EndRun(
            run="r1", results=(cmd.RunResult(runner="c", injuries=(Injury.GRAVE,), died=True),)
        )
    )
    table.do(cmd.RemoveRunner(runner="b", reason="escaped"))
    table.do(cmd.RollDice(by=None, expression="2d6", visibility="gm"))
    table.do(cmd.EndCampaign())
    return table


def test_every_event_type_round_trips_exactly_through_json() -> None:
    table = busy_table()
    assert {type(e) for e in table.events} == set(EVENT_TYPES)
    for event in table.events:
        name, data = encode_event(event)
        assert decode_event(name, json.loads(json.dumps(data))) == event


def test_the_state_round_trips_exactly_through_json() -> None:
    state = busy_table().state
    assert decode_state(json.loads(json.dumps(encode_state(state)))) == state


def test_the_aggregate_binds_the_campaign_for_the_session_service() -> None:
    agg = CampaignAggregate()
    assert agg.name == "campaign"
    state = agg.initial()
    assert not state.created
    for event in agg.decide(state, cmd.CreateCampaign(name="x", at=5.0), HmacRng("s")):
        state = agg.evolve(state, agg.decode_event(*agg.encode_event(event)))
    assert state.created and state.anchor == 5.0
    assert agg.decode_state(agg.encode_state(state)) == state

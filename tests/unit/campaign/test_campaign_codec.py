"""The codec and the aggregate the session service runs: exact round trips."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

from services.campaign import commands as cmd
from services.campaign.cadence import WeeklyCadence
from services.campaign.codec import (
    CampaignAggregate,
    decode_event,
    decode_state,
    encode_event,
    encode_state,
)
from services.campaign.events import EVENT_TYPES, RunnerAdded
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


_ENCODE_IN_A_FRESH_PROCESS = """
import json
from services.campaign.codec import encode_event, encode_state
from services.campaign.evolve import evolve
from services.campaign.state import initial
from tests.unit.campaign.test_campaign_codec import runner_with_every_effect
event = runner_with_every_effect()
print(json.dumps([encode_event(event), encode_state(evolve(initial(), event))]))
"""


def runner_with_every_effect() -> RunnerAdded:
    """A runner joining with every effect: their order in a set follows string hashes."""
    added = next(e for e in busy_table().events if isinstance(e, RunnerAdded))
    runner = dataclasses.replace(added.runner, effects=frozenset(Effect))
    return dataclasses.replace(added, runner=runner)


def test_a_set_is_stored_sorted_whatever_the_process_hash_seed() -> None:
    """One event, one stored form: encoded by processes with other hash seeds (as two
    API processes, or a worker and the API, are), its sets come out in one order."""
    outputs = set()
    for seed in ("1", "2", "3", "4", "5"):
        done = subprocess.run(
            [sys.executable, "-c", _ENCODE_IN_A_FRESH_PROCESS],
            env={**os.environ, "PYTHONHASHSEED": seed},
            capture_output=True,
            text=True,
            check=True,
            cwd=Path(__file__).resolve().parents[3],
        )
        outputs.add(done.stdout)
    assert len(outputs) == 1, outputs
    event, state = json.loads(outputs.pop())
    stored = event[1]["runner"]["effects"]
    assert stored == sorted(stored) and len(stored) == len(Effect)
    assert json.dumps(state).count('"effects"') >= 1

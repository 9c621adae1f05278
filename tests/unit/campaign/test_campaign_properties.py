"""Properties over random command sequences: replay rebuilds the state, codecs are exact."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from services.campaign import commands as cmd
from services.campaign.codec import decode_event, decode_state, encode_event, encode_state
from services.campaign.decide import decide
from services.campaign.events import Event
from services.campaign.evolve import evolve
from services.campaign.rules import CampaignRules
from services.campaign.shown import CampaignStateView, shown_event
from services.campaign.state import CampaignState, initial
from services.campaign.views import GM, SPECTATOR, Viewer, view_event, view_state
from services.dice import SimRng
from services.errors import DomainError
from tests.unit.campaign.menu import command_for
from tests.unit.campaign.play import replay, rules

RULE_SETS = st.sampled_from(
    [CampaignRules(), rules(season_downtimes=12, worsen_every=1, fatal_deadline=1, fed_at=80)]
)


def play(
    seed: int, picks: list[int], campaign_rules: CampaignRules, supplies: int
) -> tuple[CampaignState, list[Event]]:
    """Run the picked commands, checking after every event that the store's copy agrees."""
    rng = SimRng(seed)
    state, shadow, events = initial(), initial(), []
    command: cmd.Command = cmd.CreateCampaign(
        name="c", rules=campaign_rules, supplies=supplies, at=1.7e9
    )
    for pick in [*picks, None]:
        try:
            new = decide(state, command, rng)
        except DomainError:
            new = []
        for event in new:
            name, data = encode_event(event)
            assert decode_event(name, data) == event, name
            state = evolve(state, event)
            shadow = evolve(shadow, decode_event(name, data))
            assert shadow == state, name
        events.extend(new)
        if pick is not None:
            # Each command is drawn from the state the previous ones left.
            command = command_for(state, pick)
    return state, events


@settings(max_examples=150, deadline=None)
@given(
    st.integers(0, 10**6),
    st.lists(st.integers(0, 10**9), max_size=80),
    RULE_SETS,
    st.integers(0, 100),
)
def test_replaying_the_recorded_events_gives_the_decided_state(
    seed: int, picks: list[int], campaign_rules: CampaignRules, supplies: int
) -> None:
    state, events = play(seed, picks, campaign_rules, supplies)
    assert replay(events) == state
    assert decode_state(encode_state(state)) == state


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 10**9), min_size=20, max_size=80))
def test_state_snapshots_round_trip_at_every_step(seed: int, picks: list[int]) -> None:
    state, events = play(seed, picks, CampaignRules(), 40)
    folded = initial()
    for event in events:
        folded = evolve(folded, event)
        assert decode_state(encode_state(folded)) == folded
    assert folded == state


@settings(max_examples=100, deadline=None)
@given(
    st.integers(0, 10**6),
    st.lists(st.integers(0, 10**9), max_size=80),
    RULE_SETS,
    st.integers(0, 100),
)
def test_every_event_and_view_has_its_typed_shape_for_every_viewer(
    seed: int, picks: list[int], campaign_rules: CampaignRules, supplies: int
) -> None:
    # What GraphQL serves is the redacted JSON checked against services/campaign/shown.py:
    # every key declared, nothing added (the redaction stays exactly as strict).
    state, events = play(seed, picks, campaign_rules, supplies)
    viewers = [GM, SPECTATOR, *(Viewer.player(r.id) for r in state.runners[:2])]
    for viewer in viewers:
        for version, event in enumerate(events, 1):
            shown = {"version": version, **(view_event(event, viewer) or {})}
            typed = shown_event(shown)
            assert typed.model_dump(mode="json", exclude_unset=True) == shown
        view = view_state(state, viewer)
        typed_view = CampaignStateView.model_validate(view)
        assert typed_view.model_dump(mode="json", exclude_unset=True) == view

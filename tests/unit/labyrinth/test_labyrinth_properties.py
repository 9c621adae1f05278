"""Properties over random legal command sequences, for both rule variants."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from services.dice import SimRng
from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    SPECTATOR,
    MazeDefinition,
    Settings,
    Viewer,
    events,
    evolve,
    player_view,
    redact,
    spectator_view,
)
from services.labyrinth.codec import decode_event, encode_event
from tests.unit.labyrinth.play import conserved, legal_commands, replay, started

ROUND_DEALS = ENCHANTED_FOREST_V2.model_copy(
    update={"settings": Settings(deal_timing="round", remove_actions_for_large_party=True)}
)
VARIANTS = st.sampled_from([ENCHANTED_FOREST_V1, ENCHANTED_FOREST_V2, ROUND_DEALS])
LABEL = re.compile(r"(?:10|[2-9AJQK])[♠♥♣♦]")


def _run(definition: MazeDefinition, seed: int, picks: list[int], members: int) -> None:
    game, rng = started(definition, members, str(seed))
    # A shadow folded from the events as the store keeps them (JSON and back):
    # after every event it must equal the state the engine holds.
    shadow = replay([decode_event(*encode_event(e)) for e in game.events])
    assert shadow == game.state
    for pick in picks:
        legal = legal_commands(game.state)
        if not legal:
            break
        state = game.state
        for event in game.do(legal[pick % len(legal)], rng):
            state = evolve(state, event)
            shadow = evolve(shadow, decode_event(*encode_event(event)))
            assert conserved(state), event
            assert shadow == state, event
    assert replay(game.events) == game.state


@settings(max_examples=600, deadline=None)
@given(
    VARIANTS, st.integers(0, 10**6), st.lists(st.integers(0, 99), max_size=60), st.integers(1, 5)
)
def test_cards_are_conserved_and_replay_rebuilds_the_state(
    definition: MazeDefinition, seed: int, picks: list[int], members: int
) -> None:
    _run(definition, seed, picks, members)


def _public_outputs(game_events: list[events.Event], state_views: list[object]) -> str:
    viewers = [Viewer("player", "p1"), SPECTATOR]
    out = [redact(e, v) for e in game_events for v in viewers]
    return json.dumps([*out, *state_views], ensure_ascii=False)


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), st.lists(st.integers(0, 99), max_size=50))
def test_no_player_or_spectator_output_names_an_unrevealed_card(
    seed: int, picks: list[int]
) -> None:
    game, rng = started(ENCHANTED_FOREST_V2, 3, str(seed))
    seen: set[str] = set()
    for pick in picks:
        legal = legal_commands(game.state)
        if not legal:
            break
        new = game.do(legal[pick % len(legal)], SimRng(f"{seed}-{len(game.events)}"))
        for event in new:
            for card in _revealed(event):
                seen.add(game.state.cards[card].label)
        text = _public_outputs(new, [player_view(game.state, "p1"), spectator_view(game.state)])
        for card_id in game.state.cards:
            assert f'"{card_id}"' not in text
        assert set(LABEL.findall(text)) <= seen
    del rng


def _revealed(event: events.Event) -> list[str]:
    """Cards whose face this event shows the table."""
    match event:
        case events.CardRevealed() | events.DeadEndPlaced():
            return [event.card.card]
        case events.ScoutRevealed():
            return [event.river_card.card, event.deck_card.card]
        case events.CardsConsidered() | events.ElementaryDrawn():
            return [c.card for c in event.cards]
        case events.RiverDealt():
            return [s.card for s in event.slots if s.face_up]
    return []

"""Properties over random legal command sequences, for both rule variants."""

from __future__ import annotations

import json
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from services.dice import Rng, SimRng
from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    GM,
    SPECTATOR,
    Command,
    LabyrinthError,
    MazeDefinition,
    MazeState,
    Settings,
    Viewer,
    events,
    evolve,
    gm_view,
    player_view,
    redact,
    spectator_view,
)
from services.labyrinth.codec import decode_event, encode_event
from services.labyrinth.shown import shown_event, shown_view
from tests.unit.labyrinth.play import (
    Game,
    conserved,
    legal_commands,
    override_candidates,
    replay,
    started,
)

ROUND_DEALS = ENCHANTED_FOREST_V2.model_copy(
    update={"settings": Settings(deal_timing="round", remove_actions_for_large_party=True)}
)
VARIANTS = st.sampled_from([ENCHANTED_FOREST_V1, ENCHANTED_FOREST_V2, ROUND_DEALS])
LABEL = re.compile(r"(?:10|[2-9AJQK])[♠♥♣♦]")
# One pick in OVERRIDE_EVERY is a GM override (some refused) instead of a legal move.
OVERRIDE_EVERY = 4


def next_command(state: MazeState, pick: int) -> Command | None:
    """The `pick`-th legal move, or (one time in OVERRIDE_EVERY) a GM override."""
    if pick % OVERRIDE_EVERY == 0 and state.phase not in ("escaped", "ended"):
        overrides = override_candidates(state)
        return overrides[(pick // OVERRIDE_EVERY) % len(overrides)]
    legal = legal_commands(state)
    return legal[pick % len(legal)] if legal else None


def attempt(game: Game, command: Command, rng: Rng) -> list[events.Event]:
    """Run a command; a refused override records nothing and leaves the state as it was."""
    before = game.state
    try:
        return game.do(command, rng)
    except LabyrinthError:
        assert game.state is before
        return []


def _run(definition: MazeDefinition, seed: int, picks: list[int], members: int) -> None:
    game, rng = started(definition, members, str(seed))
    # A shadow folded from the events as the store keeps them (JSON and back):
    # after every event it must equal the state the engine holds.
    shadow = replay([decode_event(*encode_event(e)) for e in game.events])
    assert shadow == game.state
    for pick in picks:
        command = next_command(game.state, pick)
        if command is None:
            break
        state = game.state
        for event in attempt(game, command, rng):
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
    # GM overrides are mixed in: a reveal shows its card on purpose, a moved face-down
    # card must stay unseen, and nothing else an override says may name a card.
    game, rng = started(ENCHANTED_FOREST_V2, 3, str(seed))
    seen: set[str] = set()
    for pick in picks:
        command = next_command(game.state, pick)
        if command is None:
            break
        new = attempt(game, command, SimRng(f"{seed}-{len(game.events)}"))
        for event in new:
            for card in _revealed(event):
                seen.add(game.state.cards[card].label)
        text = _public_outputs(new, [player_view(game.state, "p1"), spectator_view(game.state)])
        for card_id in game.state.cards:
            assert f'"{card_id}"' not in text
        assert set(LABEL.findall(text)) <= seen
        watching = json.dumps([redact(e, SPECTATOR) for e in new], ensure_ascii=False)
        assert '"slot"' not in watching + json.dumps(spectator_view(game.state))
    del rng


def _revealed(event: events.Event) -> list[str]:
    """Cards whose face this event shows the table."""
    match event:
        case events.CardRevealed() | events.DeadEndPlaced() | events.CardRevealedByGm():
            return [event.card.card]
        case events.ScoutRevealed():
            return [event.river_card.card, event.deck_card.card]
        case events.CardsConsidered() | events.ElementaryDrawn():
            return [c.card for c in event.cards]
        case events.RiverDealt():
            return [s.card for s in event.slots if s.face_up]
    return []


def _typed_round_trip(shown: dict[str, object], model: object) -> None:
    """The typed form carries exactly the redacted keys (unset fields are null)."""
    dump = getattr(model, "model_dump")(mode="json", exclude_unset=True)  # noqa: B009
    assert dump == shown


@settings(max_examples=150, deadline=None)
@given(VARIANTS, st.integers(0, 10**6), st.lists(st.integers(0, 99), max_size=50))
def test_every_event_and_view_has_its_typed_shape_for_every_viewer(
    definition: MazeDefinition, seed: int, picks: list[int]
) -> None:
    # What GraphQL serves is the redacted JSON checked against services/labyrinth/shown.py:
    # every key declared (no untyped leak) and nothing added (the redaction stays as strict).
    game, rng = started(definition, 3, str(seed))
    viewers = [GM, Viewer("player", "p1"), Viewer("player", "p2"), SPECTATOR]
    new: list[events.Event] = list(game.events)
    for pick in [*picks, None]:
        for version, event in enumerate(new, 1):
            for viewer in viewers:
                shown = {"version": version, **(redact(event, viewer) or {})}
                _typed_round_trip(shown, shown_event(shown))
        views = [(gm_view(game.state), True), (player_view(game.state, "p1"), False)]
        for view, gm in [*views, (spectator_view(game.state), False)]:
            _typed_round_trip(view, shown_view(view, gm))
        command = None if pick is None else next_command(game.state, pick)
        if command is None:
            break
        new = attempt(game, command, rng)

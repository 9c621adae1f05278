"""GM overrides: what each sets, what follows from it, what it refuses, and what it shows."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from services.dice import Rng, SimRng
from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    SPECTATOR,
    Action,
    AttemptDisarm,
    CardKind,
    Command,
    EncounterOutcome,
    EndMaze,
    FlipCard,
    LabyrinthError,
    MazeDefinition,
    MazeState,
    MoveRiverCard,
    OverrideActions,
    OverrideMember,
    OverrideScore,
    OverrideTrap,
    OverrideTurn,
    ResolveEncounter,
    RevealRiverCard,
    SkipDisarm,
    StartMaze,
    TakeAction,
    TrapEffect,
    Viewer,
    decide,
    events,
    player_view,
    redact,
    spectator_view,
)
from services.labyrinth.codec import decode_event, decode_state, encode_event, encode_state
from services.labyrinth.commands import RiverDestination
from tests.unit.labyrinth.play import (
    Game,
    RiggedRng,
    apply,
    conserved,
    face_down_slots,
    legal_commands,
    party,
    replay,
    started,
    with_river,
)

WHY = "table ruling"
P1 = Viewer("player", "p1")


def gm(state: MazeState, command: Command, rng: Rng | None = None) -> list[events.Event]:
    return decide(state, command, rng or RiggedRng())


def after(state: MazeState, command: Command, rng: Rng | None = None) -> MazeState:
    new = gm(state, command, rng)
    out = apply(state, new)
    assert conserved(out)
    return out


def refused(state: MazeState, command: Command) -> str:
    with pytest.raises(LabyrinthError) as info:
        decide(state, command, SimRng("x"))
    return info.value.code


def types(evs: list[events.Event]) -> list[str]:
    return [type(e).__name__ for e in evs]


def turn(definition: MazeDefinition = ENCHANTED_FOREST_V1, members: int = 3) -> MazeState:
    game, _ = started(definition, members)
    return game.state


def trapped(state: MazeState, face: int) -> MazeState:
    """The active player flipped a Trap and the trap die showed `face`."""
    state = with_river(state, [CardKind.TRAP, CardKind.RIGHT_PATH, CardKind.RIGHT_PATH])
    state = after(state, FlipCard(player=state.active or "", card="s0"), RiggedRng(face))
    assert state.phase == "trap"
    return state


def public_text(evs: list[events.Event], state: MazeState) -> str:
    shown = [redact(e, v) for e in evs for v in (P1, SPECTATOR)]
    return json.dumps([*shown, player_view(state, "p1"), spectator_view(state)], ensure_ascii=False)


# Members


def test_a_member_taken_out_of_play_on_their_turn_passes_it_and_is_skipped_after() -> None:
    state = turn()
    gone = state.active or ""
    new = gm(state, OverrideMember(member=gone, in_play=False, reason=WHY))
    assert types(new)[:3] == ["MemberOverridden", "TurnOverridden", "TurnEnded"]
    state = apply(state, new)
    assert state.out_of_play == {gone} and state.active != gone
    assert player_view(state, "p1")["out_of_play"] == [gone]
    for _ in range(6):  # two rounds of passed turns: never theirs
        state = after(state, OverrideTurn(reason=WHY))
        assert state.active != gone
    assert refused(state, FlipCard(player=gone, card="x")) == "member_out_of_play"
    state = after(state, OverrideMember(member=gone, in_play=True, reason=WHY))
    seen = set()
    for _ in range(3):
        seen.add(state.active)
        state = after(state, OverrideTurn(reason=WHY))
    assert gone in seen


def test_the_last_member_in_play_stays_in_play() -> None:
    state = turn(members=1)
    alone = OverrideMember(member="p1", in_play=False, reason=WHY)
    assert refused(state, alone) == "no_member_in_play"
    state = turn()
    state = after(state, OverrideMember(member="p1", in_play=False, reason=WHY))
    state = after(state, OverrideMember(member="p2", in_play=False, reason=WHY))
    assert refused(state, OverrideMember(member="p3", in_play=False, reason=WHY)) == (
        "no_member_in_play"
    )


def test_a_member_put_to_sleep_skips_that_many_own_turns_and_zero_wakes() -> None:
    state = turn()
    other = next(p for p in state.order if p != state.active)
    new = gm(state, OverrideMember(member=other, asleep_turns=1, reason=WHY))
    assert types(new) == ["MemberOverridden"]  # not their turn: nothing else happens
    state = apply(state, new)
    assert state.asleep == {other: 1}
    assert refused(state, FlipCard(player=other, card="x")) == "player_asleep"
    assert after(state, OverrideMember(member=other, asleep_turns=0, reason=WHY)).asleep == {}
    skipped = []
    for _ in range(3):
        new = gm(state, OverrideTurn(reason=WHY))
        skipped += [e.player for e in new if isinstance(e, events.TurnSkipped)]
        state = apply(state, new)
    assert skipped == [other] and state.asleep == {}


def test_putting_the_active_member_to_sleep_passes_their_turn() -> None:
    state = turn()
    active = state.active or ""
    new = gm(state, OverrideMember(member=active, asleep_turns=2, reason=WHY))
    assert "TurnOverridden" in types(new)
    assert apply(state, new).active != active


def test_member_overrides_name_a_member_and_something_to_set() -> None:
    state = turn()
    assert refused(state, OverrideMember(member="p9", in_play=False, reason=WHY)) == (
        "unknown_player"
    )
    assert refused(state, OverrideMember(member="p1", reason=WHY)) == "invalid_override"
    assert refused(state, OverrideMember(member="p1", asleep_turns=99, reason=WHY)) == (
        "invalid_override"
    )


def test_members_out_of_play_make_no_poison_save_and_join_no_encounter() -> None:
    state = turn()
    active = state.active or ""
    away = next(p for p in state.order if p != active)
    state = after(state, OverrideMember(member=away, in_play=False, reason=WHY))
    state = trapped(state, 4)  # Poison Dart
    new = gm(state, SkipDisarm(player=state.active or ""))
    sprung = next(e for e in new if isinstance(e, events.TrapSprung))
    assert len(sprung.saves) == 2 and away not in [s.player for s in sprung.saves]
    state = apply(state, new)
    state = after(state, OverrideScore(monster_points=1, reason=WHY))
    state = with_river(state, [CardKind.MONSTER, CardKind.RIGHT_PATH, CardKind.RIGHT_PATH])
    state = after(state, FlipCard(player=state.active or "", card="s0"))
    assert state.phase == "encounter"
    assert away not in [c.player for c in state.combat_order]


def test_a_sleeper_out_of_play_cannot_be_woken() -> None:
    state = turn()
    other = next(p for p in state.order if p != state.active)
    state = after(state, OverrideMember(member=other, asleep_turns=2, in_play=False, reason=WHY))
    wake = TakeAction(player=state.active or "", action=Action.WAKE_PLAYER, target=other)
    assert refused(state, wake) == "member_out_of_play"


# Turns


def test_a_skipped_turn_goes_to_the_named_member_and_the_order_continues_from_them() -> None:
    state = turn()
    first, _, third = state.order
    new = gm(state, OverrideTurn(next_player=third, reason=WHY))
    assert types(new)[:3] == ["TurnOverridden", "TurnEnded", "TurnStarted"]
    state = apply(state, new)
    assert state.active == third and state.round == 1
    new = gm(state, OverrideTurn(reason=WHY))
    assert "RoundEnded" in types(new)
    assert apply(state, new).active == first
    again = after(state, OverrideTurn(next_player=third, reason=WHY))
    assert again.active == third  # a fresh turn (and deal) for the same member


def test_a_skipped_turn_drops_a_pending_trap_unsprung() -> None:
    state = trapped(turn(), 6)  # Sleep Dust
    trap_card = state.river[0]
    new = gm(state, OverrideTurn(reason=WHY))
    assert not {"TrapSprung", "DisarmAttempted", "PlayerFellAsleep"} & set(types(new))
    state = apply(state, new)
    assert state.trap is None and state.phase == "turn" and trap_card in state.discard
    assert state.asleep == {}


def test_a_skipped_turn_drops_a_pending_choice_and_discards_held_cards() -> None:
    state = turn(ENCHANTED_FOREST_V2)
    player = state.active or ""
    careful = TakeAction(
        player=player, action=Action.CAREFUL_CONSIDERATION, cards=tuple(face_down_slots(state)[:2])
    )
    choosing = after(state, careful)
    assert choosing.phase == "choice"
    skipped = after(choosing, OverrideTurn(reason=WHY))
    assert skipped.choice is None and skipped.phase == "turn" and skipped.active != player
    drawing = after(state, TakeAction(player=player, action=Action.ITS_ELEMENTARY))
    assert drawing.held
    skipped = after(drawing, OverrideTurn(reason=WHY))
    assert not skipped.held and set(drawing.held) <= set(skipped.discard)


def test_a_turn_goes_only_to_an_awake_member_in_play_and_not_mid_encounter() -> None:
    state = turn()
    active = state.active or ""
    others = [p for p in state.order if p != active]
    state = after(state, OverrideMember(member=others[0], asleep_turns=2, reason=WHY))
    state = after(state, OverrideMember(member=others[1], in_play=False, reason=WHY))
    assert refused(state, OverrideTurn(next_player=others[0], reason=WHY)) == "player_asleep"
    assert refused(state, OverrideTurn(next_player=others[1], reason=WHY)) == ("member_out_of_play")
    assert refused(state, OverrideTurn(next_player="p9", reason=WHY)) == "unknown_player"
    fighting = replace(state, phase="encounter")
    assert refused(fighting, OverrideTurn(reason=WHY)) == "encounter_pending"


# River cards


def test_a_gm_reveal_shows_the_card_to_the_table_without_resolving_it() -> None:
    state = turn(ENCHANTED_FOREST_V2)
    slot = face_down_slots(state)[0]
    card = state.slots[slot]
    new = gm(state, RevealRiverCard(card=slot, reason=WHY))
    assert types(new) == ["CardRevealedByGm"]
    state = apply(state, new)
    assert card in state.face_up and state.right_paths == 0 and state.phase == "turn"
    label = state.cards[card].label
    shown = redact(new[0], P1)
    assert shown is not None and shown["card"] == {
        "kind": state.cards[card].kind.value,
        "label": label,
        "slot": slot,
    }
    assert shown["reason"] == WHY
    watched = redact(new[0], SPECTATOR)
    assert watched is not None and "slot" not in watched["card"]
    river = {i.get("slot"): i for i in player_view(state, "p1")["river"]}
    assert river[slot]["label"] == label
    assert refused(state, FlipCard(player=state.active or "", card=slot)) == "not_flippable"
    assert refused(state, RevealRiverCard(card=slot, reason=WHY)) == "not_flippable"
    # Not resolved, so not stuck: it leaves with the river at the end of the turn.
    assert card not in after(state, OverrideTurn(reason=WHY)).river


@pytest.mark.parametrize("to", ["discard", "game", "deck_top", "deck_bottom", "deck_shuffled"])
def test_a_face_down_card_moved_by_the_gm_goes_where_told_unseen(to: RiverDestination) -> None:
    state = turn(ENCHANTED_FOREST_V2)
    slot = face_down_slots(state)[0]
    card = state.slots[slot]
    new = gm(state, MoveRiverCard(card=slot, to=to, reason=WHY), SimRng("move"))
    assert types(new) == ["RiverCardMovedByGm"]
    moved = apply(state, new)
    assert conserved(moved) and card not in moved.river and slot not in moved.slots
    where = {
        "discard": moved.discard[-1:],
        "game": moved.removed[-1:],
        "deck_top": moved.deck[:1],
        "deck_bottom": moved.deck[-1:],
        "deck_shuffled": moved.deck,
    }[to]
    assert card in where
    text = public_text(new, moved)
    assert state.cards[card].label not in text and f'"{card}"' not in text
    shown = redact(new[0], P1)
    assert shown == {
        "type": "RiverCardMovedByGm",
        "card": {"face_up": False, "slot": slot},
        "destination": to,  # shown as `destination` (docs/PROTOCOL.md: one name, one type)
        "reason": WHY,
    }
    assert '"slot"' not in json.dumps(redact(new[0], SPECTATOR))


def test_a_moved_card_can_be_replaced_by_a_fresh_deal() -> None:
    state = turn(ENCHANTED_FOREST_V2)
    slot = face_down_slots(state)[0]
    new = gm(state, MoveRiverCard(card=slot, to="deck_bottom", refill=True, reason=WHY))
    assert types(new) == ["RiverCardMovedByGm", "RiverDealt"]
    state = apply(state, new)
    assert len(state.river) == 3 and slot not in state.slots


def test_a_stuck_dead_end_can_be_taken_out_of_the_river() -> None:
    state = with_river(turn(), [CardKind.DEAD_END, CardKind.RIGHT_PATH, CardKind.RIGHT_PATH])
    dead_end = state.river[0]
    state = replace(state, face_up=frozenset({dead_end}), stuck=frozenset({dead_end}))
    new = gm(state, MoveRiverCard(card="s0", to="game", reason=WHY))
    state = apply(state, new)
    assert not state.stuck and dead_end in state.removed
    shown = redact(new[0], P1)
    assert shown is not None and shown["card"]["kind"] == "dead_end"


def test_the_last_face_down_card_stays_unless_the_river_is_refilled() -> None:
    state = with_river(turn(), [CardKind.DEAD_END, CardKind.DEAD_END, CardKind.RIGHT_PATH])
    stuck = frozenset(state.river[:2])
    state = replace(state, face_up=stuck, stuck=stuck)
    assert refused(state, RevealRiverCard(card="s2", reason=WHY)) == "last_face_down_card"
    assert refused(state, MoveRiverCard(card="s2", to="discard", reason=WHY)) == (
        "last_face_down_card"
    )
    refilled = after(state, MoveRiverCard(card="s2", to="discard", refill=True, reason=WHY))
    assert len(refilled.face_down) == 1


def test_card_overrides_wait_for_what_is_pending_and_name_a_river_card() -> None:
    state = turn()
    slot = face_down_slots(state)[0]
    assert refused(state, RevealRiverCard(card="nope", reason=WHY)) == "unknown_card"
    assert refused(state, MoveRiverCard(card="nope", to="game", reason=WHY)) == "unknown_card"
    trap = trapped(state, 1)
    assert refused(trap, RevealRiverCard(card="s1", reason=WHY)) == "trap_pending"
    assert refused(replace(state, phase="choice"), RevealRiverCard(card=slot, reason=WHY)) == (
        "choice_pending"
    )
    fighting = replace(state, phase="encounter")
    assert refused(fighting, MoveRiverCard(card=slot, to="game", reason=WHY)) == (
        "encounter_pending"
    )


# Scores, actions, traps


def test_a_score_override_sets_the_counts_and_reaching_the_goal_escapes() -> None:
    state = turn()
    state = after(state, OverrideScore(right_paths=2, monster_points=1, reason=WHY))
    assert (state.right_paths, state.monster_points) == (2, 1)
    new = gm(state, OverrideScore(right_paths=5, reason=WHY))
    assert types(new) == ["ScoreOverridden", "MazeEscaped"]
    assert apply(state, new).phase == "escaped"
    assert refused(state, OverrideScore(monster_points=2, reason=WHY)) == "invalid_override"
    assert refused(state, OverrideScore(reason=WHY)) == "invalid_override"


def test_action_overrides_lock_unlock_remove_and_give_the_turns_action_back() -> None:
    state = turn()
    player = state.active or ""
    forge = TakeAction(player=player, action=Action.FORGE_A_PATH)
    state = after(state, forge)  # the rigged dice succeed: locked, action used
    assert Action.FORGE_A_PATH in state.locked and state.action_taken
    state = after(state, OverrideActions(locked=(), action_taken=False, reason=WHY))
    assert not state.locked and not state.action_taken
    assert "RightPathsForged" in types(gm(state, forge))
    removed = (Action.SCOUT_AHEAD,)
    state = after(state, OverrideActions(removed=removed, reason=WHY))
    scout = TakeAction(player=player, action=Action.SCOUT_AHEAD, cards=(face_down_slots(state)[0],))
    assert refused(state, scout) == "action_unavailable"
    wake = (Action.WAKE_PLAYER,)
    assert refused(state, OverrideActions(locked=wake, reason=WHY)) == "invalid_override"
    assert refused(state, OverrideActions(reason=WHY)) == "invalid_override"


def test_a_hand_picked_trap_replaces_the_rolled_one_and_sets_its_dc() -> None:
    # v1: "roll on a Trap table ... (or a hand-picked trap, DMs choice)"
    state = trapped(turn(), 1)  # Slowing Trap, DC 12
    assert state.trap is not None and state.trap.entry.effect is TrapEffect.SLOWING
    new = gm(state, OverrideTrap(row=2, reason=WHY))
    state = apply(state, new)
    assert state.trap is not None and state.trap.entry.effect is TrapEffect.SLEEP_DUST
    assert state.trap.dc == 13  # the row's own DC: maze DC + 0
    shown = redact(new[0], SPECTATOR)
    assert shown is not None and shown["trap"] == "Sleep Dust Trap" and shown["dc"] == 13
    state = after(state, OverrideTrap(dc=20, reason=WHY))
    assert state.trap is not None and state.trap.dc == 20
    player = state.active or ""
    failed = gm(state, AttemptDisarm(player=player), RiggedRng(19))
    attempt = next(e for e in failed if isinstance(e, events.DisarmAttempted))
    assert attempt.dc == 20 and not attempt.success
    sprung = next(e for e in failed if isinstance(e, events.TrapSprung))
    assert sprung.entry.effect is TrapEffect.SLEEP_DUST
    assert refused(state, OverrideTrap(row=3, reason=WHY)) == "invalid_override"
    assert refused(state, OverrideTrap(reason=WHY)) == "invalid_override"
    assert refused(turn(), OverrideTrap(row=0, reason=WHY)) == "no_pending_trap"


# Reasons, phases, replay


def test_a_reason_is_required_and_never_names_a_cards_identity() -> None:
    state = turn(ENCHANTED_FOREST_V2)
    assert refused(state, OverrideTurn(reason="   ")) == "invalid_override"
    assert refused(state, OverrideTurn(reason="x" * 201)) == "invalid_override"
    card = state.river[0]
    label = state.cards[card].label
    assert refused(state, OverrideTurn(reason=f"{card} was misdealt")) == "reason_names_a_card"
    assert refused(state, OverrideTurn(reason=f"the {label} is cursed")) == ("reason_names_a_card")
    slot = face_down_slots(state)[0]
    assert gm(state, OverrideTurn(reason=f"{slot} collapsed ♠"))


def test_overrides_wait_for_initiative_and_stop_when_the_maze_is_over() -> None:
    game = Game()
    game.do(StartMaze(definition=ENCHANTED_FOREST_V1, party=party()), SimRng("i"))
    assert refused(game.state, OverrideTurn(reason=WHY)) == "initiative_pending"
    assert refused(MazeState(), OverrideTurn(reason=WHY)) == "not_started"
    ended = after(turn(), EndMaze())
    assert refused(ended, OverrideScore(right_paths=1, reason=WHY)) == "maze_ended"


def test_overrides_replay_exactly_and_round_trip_through_the_store_codec() -> None:
    game, rng = started(ENCHANTED_FOREST_V1, 3, "replay")
    state = game.state
    game.do(OverrideMember(member=state.order[1], asleep_turns=1, reason=WHY), rng)
    game.do(RevealRiverCard(card=face_down_slots(game.state)[0], reason=WHY), rng)
    slot = face_down_slots(game.state)[0]
    game.do(MoveRiverCard(card=slot, to="deck_shuffled", refill=True, reason=WHY), rng)
    game.do(OverrideActions(locked=(Action.BOOST_MORALE,), reason=WHY), rng)
    game.do(OverrideScore(right_paths=1, monster_points=1, reason=WHY), rng)
    game.do(OverrideMember(member=game.state.active or "", in_play=False, reason=WHY), rng)
    game.do(OverrideTurn(reason=WHY), rng)
    game.state = with_river(game.state, [CardKind.TRAP, CardKind.RIGHT_PATH, CardKind.DEAD_END])
    game.events.clear()  # the rigged river is not an event: check from here on
    start = game.state
    game.do(FlipCard(player=game.state.active or "", card="s0"), RiggedRng(5))
    game.do(OverrideTrap(row=0, dc=3, reason=WHY), rng)
    game.do(SkipDisarm(player=game.state.active or ""), rng)
    while game.state.phase == "encounter":
        game.do(ResolveEncounter(outcome=EncounterOutcome.PARTY_FLED), rng)
    folded = apply(start, [decode_event(*encode_event(e)) for e in game.events])
    assert folded == apply(start, game.events) == game.state


def test_a_whole_override_history_replays_from_the_start() -> None:
    game, rng = started(ENCHANTED_FOREST_V2, 4, "history")
    game.do(OverrideMember(member="p2", in_play=False, reason=WHY), rng)
    game.do(OverrideTurn(next_player="p4", reason=WHY), rng)
    game.do(MoveRiverCard(card=face_down_slots(game.state)[1], to="game", reason=WHY), rng)
    game.do(OverrideMember(member="p2", in_play=True, reason=WHY), rng)
    game.do(OverrideScore(right_paths=4, reason=WHY), rng)
    assert replay(game.events) == game.state
    assert replay([decode_event(*encode_event(e)) for e in game.events]) == game.state
    assert game.state.asleep == {} and game.state.out_of_play == frozenset()
    game.do(OverrideMember(member="p3", asleep_turns=3, in_play=False, reason=WHY), rng)
    assert decode_state(encode_state(game.state)) == game.state  # snapshots keep it all
    kinds = {type(e).__name__ for e in game.events}
    assert {"MemberOverridden", "TurnOverridden", "RiverCardMovedByGm", "ScoreOverridden"} <= kinds


# Any input: a refusal, never a crash


def _any_override(state: MazeState) -> st.SearchStrategy[Command]:
    member = st.sampled_from([*state.member_ids, "p9", ""])
    slot = st.sampled_from([*state.slots, "nope"])
    small = st.none() | st.integers(-3, 30)
    actions = st.none() | st.lists(st.sampled_from(list(Action)), max_size=6).map(tuple)
    reason = st.sampled_from([WHY, " ", "c01 again", "A♠ fell", "x" * 300])
    to = st.sampled_from(["discard", "game", "deck_top", "deck_bottom", "deck_shuffled"])
    return st.one_of(
        st.builds(
            OverrideMember,
            member=member,
            reason=reason,
            asleep_turns=small,
            in_play=st.none() | st.booleans(),
        ),
        st.builds(OverrideTurn, reason=reason, next_player=st.none() | member),
        st.builds(RevealRiverCard, card=slot, reason=reason),
        st.builds(MoveRiverCard, card=slot, to=to, reason=reason, refill=st.booleans()),
        st.builds(OverrideScore, reason=reason, right_paths=small, monster_points=small),
        st.builds(
            OverrideActions,
            reason=reason,
            locked=actions,
            removed=actions,
            action_taken=st.none() | st.booleans(),
        ),
        st.builds(OverrideTrap, reason=reason, row=small, dc=st.none() | st.integers(-5, 200)),
    )


@settings(max_examples=150, deadline=None)
@given(st.data(), st.integers(0, 10**6), st.lists(st.integers(0, 99), max_size=12))
def test_any_override_on_any_state_is_applied_or_refused_with_a_code(
    data: st.DataObject, seed: int, picks: list[int]
) -> None:
    game, rng = started(ENCHANTED_FOREST_V2, 1 + seed % 4, str(seed))
    for pick in picks:  # somewhere into a game: a turn, a choice, a trap, an encounter
        legal = legal_commands(game.state)
        if not legal:
            break
        game.do(legal[pick % len(legal)], rng)
    for _ in range(3):
        command = data.draw(_any_override(game.state))
        try:
            new = decide(game.state, command, rng)
        except LabyrinthError as refusal:
            assert refusal.code and refusal.message
            continue
        state = apply(game.state, new)
        assert conserved(state)
        assert state.in_play  # someone always plays
        if state.phase in ("turn", "choice", "trap"):  # the one whose turn it is can act
            assert state.active not in state.out_of_play and state.active not in state.asleep
        if state.phase == "turn":
            assert state.face_down  # and has a card to flip
        game.state, game.events = state, [*game.events, *new]
    assert replay(game.events) == game.state

"""Rules of labyrinth-cards-v1.txt / -v2.md, each test citing the sentence it checks."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from services.labyrinth import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    STANDARD_DECK,
    Action,
    CardKind,
    DeckCounts,
    FlipCard,
    MazeDefinition,
    MonsterEntry,
    MonsterTable,
    SkipDisarm,
    TakeAction,
    TrapEffect,
    TrapEntry,
    TrapTable,
    Victory,
    build_cards,
    decide,
    events,
    maze_rats_profile,
    the_maze_profile,
)
from services.labyrinth.profiles import Stat
from tests.unit.labyrinth.play import RiggedRng, apply, face_down_slots, started, with_river


def test_the_v1_enchanted_forest_has_fifteen_cards_as_printed() -> None:
    # v1: "13 | 15 Cards | 2 | 3 | 5 | 5 | 5 Right Path Cards or Kill the Monster"
    deck, _ = build_cards(ENCHANTED_FOREST_V1)
    assert Counter(c.kind for c in deck) == {
        CardKind.RIGHT_PATH: 5,
        CardKind.DEAD_END: 5,
        CardKind.MONSTER: 2,
        CardKind.TRAP: 3,
    }
    assert ENCHANTED_FOREST_V1.dc == 13
    assert [e.dc_offset for e in ENCHANTED_FOREST_V1.trap_table.entries] == [-1, 1, 0]


def test_the_standard_deck_maps_half_a_deck_of_playing_cards() -> None:
    # v2: "A or 2 of any suit is a Monster ... Face card ... is a Trap ... remaining Black
    # card is a Right Path ... remaining Red card is a Dead End"
    deck, pool = build_cards(STANDARD_DECK)
    assert len(deck) == 26 and len(pool) == 26
    assert Counter(c.kind for c in deck) == {
        CardKind.MONSTER: 4,
        CardKind.TRAP: 6,
        CardKind.RIGHT_PATH: 8,
        CardKind.DEAD_END: 8,
    }
    labels = {c.label: c.kind for c in deck}
    assert labels["Q♥"] is CardKind.TRAP and labels["7♠"] is CardKind.RIGHT_PATH
    assert labels["7♥"] is CardKind.DEAD_END and labels["A♠"] is CardKind.MONSTER


def test_a_city_escape_maze_can_be_themed_by_the_gm() -> None:
    # "Add more monster cards to the deck, and reduce the victory condition"
    city = MazeDefinition(
        name="Escape from Neverwinter",
        dc=12,
        variant="v2",
        deck=DeckCounts(right_path=5, dead_end=4, monster=5, trap=3),
        trap_table=TrapTable(
            die="1d4",
            entries=(
                TrapEntry(low=1, high=2, name="Runaway cart", effect=TrapEffect.SLOWING),
                TrapEntry(low=3, high=4, name="Crowded market", text="Lose the next turn"),
            ),
        ),
        monster_table=MonsterTable(
            die="1d6",
            entries=(
                MonsterEntry(low=1, high=4, name="City Watch patrol"),
                MonsterEntry(low=5, high=6, name="Guard captain", initiative="1d20+3"),
            ),
        ),
        victory=Victory(right_paths=3),
    )
    game, _ = started(city)
    assert len(game.state.deck) + len(game.state.river) == 17


def test_dead_ends_stay_so_the_deal_fills_only_the_gaps() -> None:
    # v1: "If you have one Dead End in the river, you only draw 2 cards to fill it"
    game, _ = started(ENCHANTED_FOREST_V1)
    state = with_river(game.state, [CardKind.DEAD_END, CardKind.RIGHT_PATH, CardKind.TRAP])
    new = decide(state, FlipCard(player=state.active or "", card="s0"), RiggedRng())
    deal = [e for e in new if isinstance(e, events.RiverDealt)][-1]
    assert len(deal.dealt) == 2
    assert sum(s.face_up for s in deal.slots) == 1


def test_dead_ends_filling_the_river_add_a_monster_to_the_discard_in_v1() -> None:
    # v1: "an additional monster card is added to the discard pile"
    for definition, destination in (
        (ENCHANTED_FOREST_V1, "discard"),
        (ENCHANTED_FOREST_V2, "deck"),
    ):
        game, _ = started(definition)
        kinds = [CardKind.DEAD_END] * 3
        state = with_river(game.state, kinds)
        state = replace(state, face_up=frozenset(state.river[:2]), stuck=frozenset(state.river[:2]))
        new = decide(state, FlipCard(player=state.active or "", card="s2"), RiggedRng())
        added = [e for e in new if isinstance(e, events.MonsterCardAdded)]
        assert [e.destination for e in added] == [destination]
        assert any(isinstance(e, events.DeadEndsCleared) for e in new)


def test_a_failed_action_does_not_lock_and_the_player_still_draws() -> None:
    # v2: "On a failure, play just continues to the player's Draw phase."
    game, _ = started(ENCHANTED_FOREST_V2)
    state = game.state
    forge = TakeAction(player=state.active or "", action=Action.FORGE_A_PATH)
    state = apply(state, decide(state, forge, RiggedRng(high=False)))
    assert Action.FORGE_A_PATH not in state.locked and state.action_taken
    assert state.phase == "turn" and face_down_slots(state)


def test_a_successful_forge_adds_two_right_paths_to_the_discard_and_locks() -> None:
    # "Forge A Path (STR) | Add 2 additional Right Path cards to the discard pile"
    game, _ = started(ENCHANTED_FOREST_V2)
    state = game.state
    before = len(state.discard)
    forge = TakeAction(player=state.active or "", action=Action.FORGE_A_PATH)
    state = apply(state, decide(state, forge, RiggedRng()))
    assert len(state.discard) == before + 2 and Action.FORGE_A_PATH in state.locked


def test_a_poison_dart_makes_every_player_save_at_dc_plus_two() -> None:
    # "Each player makes a (Maze DC + 2) DEX save. Failing players take 1d12 poison damage."
    game, _ = started(ENCHANTED_FOREST_V1)
    state = with_river(game.state, [CardKind.TRAP, CardKind.RIGHT_PATH, CardKind.RIGHT_PATH])
    player = state.active or ""
    state = apply(state, decide(state, FlipCard(player=player, card="s0"), RiggedRng(4)))
    assert state.phase == "trap" and state.trap is not None and state.trap.dc == 14
    new = decide(state, SkipDisarm(player=player), RiggedRng(1, 1, 20, 5, 1))
    sprung = next(e for e in new if isinstance(e, events.TrapSprung))
    assert [s.dc for s in sprung.saves] == [15, 15, 15]
    assert [s.success for s in sprung.saves] == [False, True, False]
    assert sprung.saves[0].damage is not None


def test_sleep_dust_skips_two_turns_and_v1_tops_the_deck_with_a_monster() -> None:
    # v1: "Add a Monster card to the top of the deck. Disarming player falls asleep"
    game, _ = started(ENCHANTED_FOREST_V1)
    state = with_river(game.state, [CardKind.TRAP, CardKind.RIGHT_PATH, CardKind.RIGHT_PATH])
    player = state.active or ""
    state = apply(state, decide(state, FlipCard(player=player, card="s0"), RiggedRng(6)))
    new = decide(state, SkipDisarm(player=player), RiggedRng())
    assert any(isinstance(e, events.MonsterCardAdded) and e.destination == "deck_top" for e in new)
    state = apply(state, new)
    assert state.asleep == {player: 2}


def test_profiles_map_each_system_to_the_five_stats() -> None:
    maze = the_maze_profile({"ready": 10, "interaction": 6, "surroundings": 12, "navigation": 8})
    assert maze.expression(Stat.STR) == "1d10!" and maze.expression(Stat.WIS) == "1d8!"
    rats = maze_rats_profile(strength=2, dexterity=1, will=-1)
    assert rats.expression(Stat.STR) == "2d6+2" and rats.expression(Stat.CHA) == "2d6-1"

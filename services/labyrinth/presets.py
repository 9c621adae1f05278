"""Preset mazes: Enchanted Forest as printed in v1 and in v2, and the 26-card standard deck."""

from __future__ import annotations

from services.labyrinth.definition import (
    DeckCounts,
    MazeDefinition,
    MonsterEntry,
    MonsterTable,
    TrapEntry,
    TrapTable,
    Victory,
)
from services.labyrinth.vocab import TrapEffect

MINOTAUR = MonsterTable(die="1d6", entries=(MonsterEntry(low=1, high=6, name="Minotaur"),))

V1_TRAPS = TrapTable(
    die="1d6",
    entries=(
        TrapEntry(
            low=1,
            high=3,
            name="Slowing Trap",
            dc_offset=-1,
            effect=TrapEffect.SLOWING,
            text="Add a Dead End card to the river after it clears.",
        ),
        TrapEntry(
            low=4,
            high=5,
            name="Poison Dart Trap",
            dc_offset=1,
            effect=TrapEffect.POISON_DART,
            text="Each player makes a (Maze DC + 2) Dex save. Failed players take 1D12 poison "
            "damage.",
        ),
        TrapEntry(
            low=6,
            high=6,
            name="Sleep Dust Trap",
            dc_offset=0,
            effect=TrapEffect.SLEEP_DUST,
            monster_on_top=True,
            text="Add a Monster card to the top of the deck. Disarming player falls asleep "
            "skipping their next two turns.",
        ),
    ),
)

# v2 prints no trap DCs: every trap's DC is the maze's (docs/RULES.md).
V2_TRAPS = TrapTable(
    die="1d6",
    entries=(
        TrapEntry(
            low=1,
            high=3,
            name="Slowing Trap",
            effect=TrapEffect.SLOWING,
            text="When this card is removed from the river, replace it with a Dead End card "
            "from outside of the game.",
        ),
        TrapEntry(
            low=4,
            high=5,
            name="Poison Dart",
            effect=TrapEffect.POISON_DART,
            text="Each player makes a (Maze DC + 2) DEX save. Failing players take 1d12 poison "
            "damage.",
        ),
        TrapEntry(
            low=6,
            high=6,
            name="Sleep Dust",
            effect=TrapEffect.SLEEP_DUST,
            text="The current player falls asleep, skipping their next two turns.",
        ),
    ),
)

ESCAPE = Victory(right_paths=5, kill_monster=True)

ENCHANTED_FOREST_V1 = MazeDefinition(
    name="Enchanted Forest",
    dc=13,
    variant="v1",
    deck=DeckCounts(right_path=5, dead_end=5, monster=2, trap=3),
    trap_table=V1_TRAPS,
    monster_table=MINOTAUR,
    victory=ESCAPE,
)

# v2 defines only the playing-card deck, so its Enchanted Forest uses it (docs/RULES.md).
ENCHANTED_FOREST_V2 = MazeDefinition(
    name="Enchanted Forest",
    dc=13,
    variant="v2",
    deck="standard26",
    trap_table=V2_TRAPS,
    monster_table=MINOTAUR,
    victory=ESCAPE,
)

STANDARD_DECK = MazeDefinition(
    name="Standard deck",
    dc=13,
    variant="v2",
    deck="standard26",
    trap_table=V2_TRAPS,
    monster_table=MINOTAUR,
    victory=Victory(right_paths=5),
)

PRESETS: dict[str, MazeDefinition] = {
    "enchanted_forest_v1": ENCHANTED_FOREST_V1,
    "enchanted_forest_v2": ENCHANTED_FOREST_V2,
    "standard26": STANDARD_DECK,
}

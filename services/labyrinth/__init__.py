"""The labyrinth card engine (labyrinth-cards-v1.txt, -v2.md) as an event-sourced aggregate.

`decide(state, command, rng) -> events`, `evolve(state, event) -> state`, per-viewer
views and event redaction. Pure: randomness comes in as a `services.dice.Rng`.
"""

from services.labyrinth.cards import Card, build_cards
from services.labyrinth.commands import (
    AttemptDisarm,
    ChooseCard,
    Command,
    EndMaze,
    FlipCard,
    GmOverride,
    MoveRiverCard,
    OverrideActions,
    OverrideMember,
    OverrideScore,
    OverrideTrap,
    OverrideTurn,
    ResolveEncounter,
    RevealRiverCard,
    RollInitiative,
    SkipDisarm,
    StartMaze,
    TakeAction,
)
from services.labyrinth.decide import decide
from services.labyrinth.definition import (
    DeckCounts,
    MazeDefinition,
    MonsterEntry,
    MonsterTable,
    Settings,
    TrapEntry,
    TrapTable,
    Victory,
)
from services.labyrinth.errors import LabyrinthError
from services.labyrinth.events import EVENT_TYPES, Event
from services.labyrinth.evolve import evolve
from services.labyrinth.presets import (
    ENCHANTED_FOREST_V1,
    ENCHANTED_FOREST_V2,
    PRESETS,
    STANDARD_DECK,
)
from services.labyrinth.profiles import (
    CheckProfile,
    PartyMember,
    Stat,
    dnd5e_profile,
    maze_rats_profile,
    the_maze_profile,
)
from services.labyrinth.redact import GM, SPECTATOR, Viewer, redact
from services.labyrinth.state import MazeState
from services.labyrinth.views import gm_view, player_view, spectator_view
from services.labyrinth.vocab import Action, CardKind, EncounterOutcome, TrapEffect

__all__ = [
    "ENCHANTED_FOREST_V1",
    "ENCHANTED_FOREST_V2",
    "EVENT_TYPES",
    "GM",
    "PRESETS",
    "SPECTATOR",
    "STANDARD_DECK",
    "Action",
    "AttemptDisarm",
    "Card",
    "CardKind",
    "CheckProfile",
    "ChooseCard",
    "Command",
    "DeckCounts",
    "EncounterOutcome",
    "EndMaze",
    "Event",
    "FlipCard",
    "GmOverride",
    "LabyrinthError",
    "MazeDefinition",
    "MazeState",
    "MonsterEntry",
    "MonsterTable",
    "MoveRiverCard",
    "OverrideActions",
    "OverrideMember",
    "OverrideScore",
    "OverrideTrap",
    "OverrideTurn",
    "PartyMember",
    "ResolveEncounter",
    "RevealRiverCard",
    "RollInitiative",
    "Settings",
    "SkipDisarm",
    "StartMaze",
    "Stat",
    "TakeAction",
    "TrapEffect",
    "TrapEntry",
    "TrapTable",
    "Victory",
    "Viewer",
    "build_cards",
    "decide",
    "dnd5e_profile",
    "evolve",
    "gm_view",
    "maze_rats_profile",
    "player_view",
    "redact",
    "spectator_view",
    "the_maze_profile",
]

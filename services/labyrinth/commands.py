"""Commands: what players and the GM ask the maze to do (imperatives, frozen)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Literal

from services.labyrinth.definition import MazeDefinition
from services.labyrinth.profiles import PartyMember
from services.labyrinth.vocab import Action, EncounterOutcome
from services.markers import Named


@dataclass(frozen=True, slots=True, kw_only=True)
class StartMaze:
    """GM: open a maze for a party; the deck is shuffled."""

    definition: MazeDefinition
    party: tuple[PartyMember, ...]


@dataclass(frozen=True, slots=True, kw_only=True)
class RollInitiative:
    """GM: everyone rolls initiative; the first turn is dealt."""


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeAction:
    """Active player: attempt an action.

    `cards` are river ids the action points at (Scout Ahead: one face-down card;
    Careful Consideration: two; Boost Morale: optionally the Dead End); `target` is the
    sleeper to wake.
    """

    player: str
    action: Action
    cards: tuple[str, ...] = ()
    target: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class FlipCard:
    """Active player: flip the face-down river card with this (per-deal) id."""

    player: str
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ChooseCard:
    """Active player: pick among the cards an action revealed."""

    player: str
    card: str


@dataclass(frozen=True, slots=True, kw_only=True)
class AttemptDisarm:
    """Active player: try to disarm the revealed trap."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class SkipDisarm:
    """Active player: let the trap go off."""

    player: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ResolveEncounter:
    """GM: record how the monster encounter ended."""

    outcome: EncounterOutcome


Visibility = Annotated[Literal["everyone", "gm", "whisper"], Named("RollVisibility")]


@dataclass(frozen=True, slots=True, kw_only=True)
class RollDice:
    """A member (`by`; None: the GM) rolls at the table: the roll joins the table's log.

    `visibility` says who sees the result: everyone, the GM only, or a whisper to the
    members in `to` (the roller and the GM always see it).
    """

    by: str | None
    expression: str
    label: str | None = None
    visibility: Visibility = "everyone"
    to: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class EndMaze:
    """GM: end the maze now."""

    reason: str = "ended_by_gm"


# GM overrides: the table rules otherwise, or a client mistake must be fixed. Each
# carries the GM's `reason`, shown to the table with the override (docs/RULES.md).

RiverDestination = Annotated[
    Literal["discard", "game", "deck_top", "deck_bottom", "deck_shuffled"],
    Named("RiverDestination"),
]


@dataclass(frozen=True, slots=True, kw_only=True)
class OverrideMember:
    """GM: set a member's sleep (own turns still to skip; 0 wakes) and whether they play."""

    member: str
    reason: str
    asleep_turns: int | None = None
    in_play: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OverrideTurn:
    """GM: end the current turn now (nothing pending resolves); `next_player` acts next."""

    reason: str
    next_player: str | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class RevealRiverCard:
    """GM: turn a face-down river card face up for the table, without resolving it."""

    card: str
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class MoveRiverCard:
    """GM: take a river card out of the river (face down stays unseen); optionally refill."""

    card: str
    to: RiverDestination
    reason: str
    refill: bool = False


@dataclass(frozen=True, slots=True, kw_only=True)
class OverrideScore:
    """GM: set the Right Path and/or Monster point counts."""

    reason: str
    right_paths: int | None = None
    monster_points: int | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OverrideActions:
    """GM: set which actions are locked or out of the game, and the turn's action use."""

    reason: str
    locked: tuple[Action, ...] | None = None
    removed: tuple[Action, ...] | None = None
    action_taken: bool | None = None


@dataclass(frozen=True, slots=True, kw_only=True)
class OverrideTrap:
    """GM: hand-pick the pending trap (a row of the maze's trap table) and/or its DC."""

    reason: str
    row: int | None = None
    dc: int | None = None


GmOverride = (
    OverrideMember
    | OverrideTurn
    | RevealRiverCard
    | MoveRiverCard
    | OverrideScore
    | OverrideActions
    | OverrideTrap
)

Command = (
    StartMaze
    | RollInitiative
    | TakeAction
    | FlipCard
    | ChooseCard
    | AttemptDisarm
    | SkipDisarm
    | ResolveEncounter
    | RollDice
    | EndMaze
    | GmOverride
)

"""Commands: what players and the GM ask the maze to do (imperatives, frozen)."""

from __future__ import annotations

from dataclasses import dataclass

from services.labyrinth.definition import MazeDefinition
from services.labyrinth.profiles import PartyMember
from services.labyrinth.vocab import Action, EncounterOutcome


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


@dataclass(frozen=True, slots=True, kw_only=True)
class EndMaze:
    """GM: end the maze now."""

    reason: str = "ended_by_gm"


Command = (
    StartMaze
    | RollInitiative
    | TakeAction
    | FlipCard
    | ChooseCard
    | AttemptDisarm
    | SkipDisarm
    | ResolveEncounter
    | EndMaze
)

"""The engine's small vocabularies: card kinds, actions and the stat each action checks."""

from __future__ import annotations

from enum import StrEnum

from services.labyrinth.profiles import Stat


class CardKind(StrEnum):
    """What a card means when it is revealed."""

    RIGHT_PATH = "right_path"
    DEAD_END = "dead_end"
    MONSTER = "monster"
    TRAP = "trap"


class Action(StrEnum):
    """The five locked actions, plus waking a sleeping player (never locked)."""

    FORGE_A_PATH = "forge_a_path"
    SCOUT_AHEAD = "scout_ahead"
    ITS_ELEMENTARY = "its_elementary"
    CAREFUL_CONSIDERATION = "careful_consideration"
    BOOST_MORALE = "boost_morale"
    WAKE_PLAYER = "wake_player"


# The text's action table, in printed order (v1's 1d6/1d4 removal counts in this order).
LOCKED_ACTIONS: tuple[Action, ...] = (
    Action.FORGE_A_PATH,
    Action.SCOUT_AHEAD,
    Action.ITS_ELEMENTARY,
    Action.CAREFUL_CONSIDERATION,
    Action.BOOST_MORALE,
)

ACTION_STAT: dict[Action, Stat] = {
    Action.FORGE_A_PATH: Stat.STR,
    Action.SCOUT_AHEAD: Stat.DEX,
    Action.ITS_ELEMENTARY: Stat.INT,
    Action.CAREFUL_CONSIDERATION: Stat.WIS,
    Action.BOOST_MORALE: Stat.CHA,
}


class TrapEffect(StrEnum):
    """What a sprung trap does; `custom` is adjudicated by the GM from its text."""

    SLOWING = "slowing"
    POISON_DART = "poison_dart"
    SLEEP_DUST = "sleep_dust"
    CUSTOM = "custom"


class EncounterOutcome(StrEnum):
    """How the GM records the end of a monster encounter."""

    MONSTER_DEFEATED = "monster_defeated"
    PARTY_FLED = "party_fled"
    PARTY_DEFEATED = "party_defeated"

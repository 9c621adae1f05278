"""The traits the text names, with neutral effects: its bonuses and weaknesses are blank."""

from __future__ import annotations

from services.maze.traits import Trait, TraitKind

B, P, R, C = TraitKind.BACKGROUND, TraitKind.PERSONALITY, TraitKind.RUNNER, TraitKind.CLEARING

BUDDY_NOTE = (
    "Trait must be had by two or more partners at a time. If one partner dies, becomes "
    "incapacitated, or if a falling out occurs, character loses this trait."
)

DEFAULT_TRAITS: tuple[Trait, ...] = (
    *(Trait(name=n, kind=B) for n in ("Assassin", "Charlatan", "Doctor", "Soldier", "Superfan")),
    *(Trait(name=n, kind=P) for n in ("Crybaby", "Obsessive", "Slippery")),
    Trait(name="Cartographer", kind=R),
    Trait(
        name="Party",
        kind=R,
        excludes=frozenset({"Solo"}),
        note="Mutually exclusive with Solo.",
    ),
    Trait(name="Buddy", kind=R, parent="Party", min_holders=2, note=BUDDY_NOTE),
    Trait(name="Leader", kind=R, parent="Party"),
    Trait(name="Leech", kind=R, parent="Party"),
    Trait(
        name="Solo",
        kind=R,
        excludes=frozenset({"Party"}),
        note="Mutually exclusive with Party.",
    ),
    *(Trait(name=n, kind=R, parent="Solo") for n in ("Acclimated", "Pathetic", "Speedrunner")),
    *(Trait(name=n, kind=C) for n in ("Farmer", "Architect", "Hermit")),
)

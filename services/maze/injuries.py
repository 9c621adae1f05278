"""Injuries: the score table, the caps untreated injuries put on the next, treatment."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum

from services.maze.errors import NO_SUCH_INJURY, SELF_TREATMENT_OF_FATAL, MazeError
from services.maze.model import MazeModel


class MazeInjury(StrEnum):
    """The injury table, worst first."""

    FATAL = "fatal"
    GRAVE = "grave"
    SERIOUS = "serious"
    MINOR = "minor"
    SUPERFICIAL = "superficial"
    SCRATCH = "scratch"


Injury = MazeInjury  # the name the rules use; GraphQL and OpenAPI see MazeInjury


ORDER: tuple[Injury, ...] = tuple(Injury)
# Lowest total of each injury; a total of 0 or less is Fatal (the table's "0").
MIN_SCORE: dict[Injury, int] = {
    Injury.GRAVE: 1,
    Injury.SERIOUS: 5,
    Injury.MINOR: 10,
    Injury.SUPERFICIAL: 15,
    Injury.SCRATCH: 20,
}
# What an untreated injury does to the next: "cannot be better than" this one.
UNTREATED_CAP: dict[Injury, Injury] = {
    Injury.MINOR: Injury.SERIOUS,
    Injury.SUPERFICIAL: Injury.MINOR,
}


def severity(injury: Injury) -> int:
    """0 for Fatal up to 5 for a Scratch: higher is better."""
    return ORDER.index(injury)


def injury_for(total: int) -> Injury:
    """The injury a damage-roll total gives."""
    found = Injury.FATAL
    for injury, low in MIN_SCORE.items():
        if total >= low:
            found = injury
    return found


def worst(a: Injury, b: Injury) -> Injury:
    """The worse of two injuries."""
    return a if severity(a) <= severity(b) else b


def cap_for(untreated: Iterable[Injury], tunnel_vision: bool = False) -> Injury:
    """The best injury the next damage roll can give: Scratch unless something caps it."""
    cap = Injury.SCRATCH
    for injury in untreated:
        cap = worst(cap, UNTREATED_CAP.get(injury, Injury.SCRATCH))
    if tunnel_vision:
        # "incapable of taking any damage below Minor Injury": Minor is the best.
        cap = worst(cap, Injury.MINOR)
    return cap


def needs_treatment(injury: Injury) -> bool:
    """All injuries above Scratches require treatment."""
    return injury is not Injury.SCRATCH


def is_failed_damage_roll(injury: Injury) -> bool:
    """Serious or worse fails the damage roll: that is when effects can be gained."""
    return severity(injury) <= severity(Injury.SERIOUS)


class MazeInjuryRecord(MazeModel):
    """An injury a character carries and whether it has been treated."""

    injury: Injury
    treated: bool = False


InjuryRecord = MazeInjuryRecord  # the name the rules use; GraphQL and OpenAPI see MazeInjuryRecord


def treat(
    injuries: tuple[InjuryRecord, ...], index: int, by_self: bool
) -> tuple[InjuryRecord, ...]:
    """Mark one injury treated; a Fatal injury cannot be treated by its bearer."""
    if not 0 <= index < len(injuries):
        raise MazeError(f"no injury at index {index}", code=NO_SUCH_INJURY)
    record = injuries[index]
    if by_self and record.injury is Injury.FATAL:
        raise MazeError(
            "treatment may be performed on oneself except for a Fatal injury",
            code=SELF_TREATMENT_OF_FATAL,
        )
    treated = InjuryRecord(injury=record.injury, treated=True)
    return (*injuries[:index], treated, *injuries[index + 1 :])


def untreated(injuries: Iterable[InjuryRecord]) -> list[Injury]:
    """The injuries still waiting for treatment (Scratches never wait)."""
    return [r.injury for r in injuries if not r.treated and needs_treatment(r.injury)]

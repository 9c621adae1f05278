"""Difficulty tuning: sweep DC and deck composition, keep the configurations nearest a target."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any, Literal

from services.labyrinth import DeckCounts, MazeDefinition
from services.sim.runner import SimulationSpec, simulate
from services.sim.stats import summarise

Target = Literal["escape_rate", "mean_turns"]


@dataclass(frozen=True, slots=True)
class Candidate:
    """One configuration tried: its DC, deck, distance to the target and statistics."""

    dc: int
    deck: DeckCounts | None
    distance: float
    summary: dict[str, Any]

    def to_json(self) -> dict[str, Any]:
        """A JSON-safe form."""
        return {
            "dc": self.dc,
            "deck": None if self.deck is None else self.deck.model_dump(),
            "distance": self.distance,
            "summary": self.summary,
        }


def deck_variants(base: DeckCounts, spread: int = 2) -> list[DeckCounts]:
    """Decks around `base`: Dead Ends, Monsters and Traps each moved by up to `spread`."""
    out = []
    for de in range(-spread, spread + 1):
        for mo in range(-spread, spread + 1):
            for tr in range(-spread, spread + 1):
                d = DeckCounts(
                    right_path=base.right_path,
                    dead_end=max(0, base.dead_end + de),
                    monster=max(0, base.monster + mo),
                    trap=max(0, base.trap + tr),
                )
                if d.total >= 3 and d not in out:
                    out.append(d)
    return out


def tune(
    spec: SimulationSpec,
    target: Target,
    value: float,
    dcs: Iterable[int] = range(8, 21),
    decks: Iterable[DeckCounts] | None = None,
    games: int = 2_000,
    best: int = 5,
) -> list[Candidate]:
    """Simulate every (DC, deck) with `games` games and return the `best` nearest `value`."""
    base = spec.maze()
    deck_list: list[DeckCounts | None] = list(decks) if decks is not None else [None]
    if decks is None and isinstance(base.deck, DeckCounts):
        deck_list = [None, *deck_variants(base.deck, 1)]
    tried: list[Candidate] = []
    for dc in dcs:
        for deck in deck_list:
            maze: MazeDefinition = base.model_copy(
                update={"dc": dc, **({"deck": deck} if deck is not None else {})}
            )
            run = spec.model_copy(update={"definition": maze, "dc": None, "games": games})
            summary = summarise(simulate(run))
            measured = (
                summary["escape_rate"] if target == "escape_rate" else summary["turns"]["mean"]
            )
            tried.append(Candidate(dc, deck, abs(measured - value), summary))
    tried.sort(key=lambda c: c.distance)
    return tried[:best]

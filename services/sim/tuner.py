"""Difficulty tuning: sweep DC and deck composition, keep the configurations nearest a target."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import partial
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict

from services.labyrinth import DeckCounts, MazeDefinition
from services.sim.runner import SimulationSpec, play_checkpointed
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


def configurations(
    spec: SimulationSpec, dcs: Iterable[int], decks: Iterable[DeckCounts | None] | None = None
) -> list[tuple[int, DeckCounts | None]]:
    """Every (DC, deck) a tuning tries, in order. A deck None is the maze's own; `decks`
    None: the maze's own deck and, when it is given as counts, its neighbours (each kind
    ±1)."""
    base = spec.maze()
    deck_list: list[DeckCounts | None] = list(decks) if decks is not None else [None]
    if decks is None and isinstance(base.deck, DeckCounts):
        deck_list = [None, *deck_variants(base.deck, 1)]
    return [(dc, deck) for dc in dcs for deck in deck_list]


def tune(
    spec: SimulationSpec,
    target: Target,
    value: float,
    dcs: Iterable[int] = range(8, 21),
    decks: Iterable[DeckCounts | None] | None = None,
    games: int = 2_000,
    best: int = 5,
    cancelled: Callable[[], bool] = lambda: False,
    progress: Callable[[int], None] = lambda games: None,
) -> list[Candidate] | None:
    """Simulate every (DC, deck) with `games` games and return the `best` nearest `value`.

    Each configuration plays in checkpoints (`play_checkpointed`, seeded from the spec's
    seed, so a rerun is identical): between them `cancelled` is asked (None when it says
    so) and `progress` told the games played so far in all."""
    base = spec.maze()
    tried: list[Candidate] = []
    played = 0
    for dc, deck in configurations(spec, dcs, decks):
        maze: MazeDefinition = base.model_copy(
            update={"dc": dc, **({"deck": deck} if deck is not None else {})}
        )
        run = spec.model_copy(update={"definition": maze, "dc": None, "games": games})
        tally = play_checkpointed(run, 0, games, cancelled, partial(_add, progress, played))
        if tally is None:
            return None
        played += games
        summary = summarise(tally)
        measured = summary["escape_rate"] if target == "escape_rate" else summary["turns"]["mean"]
        tried.append(Candidate(dc, deck, abs(measured - value), summary))
    tried.sort(key=lambda c: c.distance)
    return tried[:best]


class TuningPlan(BaseModel):
    """A tuning as a worker plays it: the target, the configurations, games per each."""

    model_config = ConfigDict(frozen=True)

    target: Target
    value: float
    dc_from: int
    dc_to: int
    decks: list[DeckCounts] | None = None  # None: the maze's own deck alone
    games: int
    best: int = 5
    seed: str
    configurations: int = 0  # how many (DC, deck) pairs that makes, for the views

    def run(
        self,
        spec: SimulationSpec,
        cancelled: Callable[[], bool] = lambda: False,
        progress: Callable[[int], None] = lambda games: None,
    ) -> list[Candidate] | None:
        """`tune` with this plan (None if cancelled)."""
        dcs = range(self.dc_from, self.dc_to + 1)
        decks: list[DeckCounts | None] = [None] if self.decks is None else [*self.decks]
        return tune(
            spec, self.target, self.value, dcs, decks, self.games, self.best,
            cancelled, progress,
        )  # fmt: skip


def _add(progress: Callable[[int], None], before: int, games: int) -> None:
    progress(before + games)


def report(found: Iterable[Candidate]) -> list[dict[str, Any]]:
    """The candidates as a tuning answers them: JSON, without the turn histograms."""
    out = []
    for c in found:
        shown = c.to_json()
        turns = {k: v for k, v in c.summary["turns"].items() if k != "histogram"}
        shown["summary"] = {k: v for k, v in c.summary.items() if k != "turns"} | {"turns": turns}
        out.append(shown)
    return out

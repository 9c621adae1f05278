"""One runner's downtime in the making: mutable scratch the tick fills, then freezes.

The maze `Character` for a check is built from the runner's sheet with the runner's
current effects and injuries, once per change (not once per roll), and check specs are
cached per (skill, DC) for as long as that character stands.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from services.campaign.events import (
    AvoidanceRoll,
    CheckSummary,
    DamageRoll,
    RunnerAfter,
    RunnerTick,
    Worsened,
)
from services.campaign.model import CampaignInjury, Choice, Runner
from services.dice import Rng
from services.maze.abilities import Ability
from services.maze.catalog import Catalog, default_catalog
from services.maze.character import Character
from services.maze.checks import CheckOutcome, CheckSpec, check_for, resolve_check
from services.maze.effects import Effect, active_effects
from services.maze.injuries import Injury, InjuryRecord

# Contentment's automatic Failures are for "a character's first Ready check and
# Surroundings check" of a run: clearing checks are not part of a run, so every ability
# counts as already checked and a content runner rolls normally at home.
_NOT_IN_A_RUN = frozenset(Ability)
# Twelve possible records: built once instead of validated on every tick.
_RECORDS = {
    (i, t): InjuryRecord.model_construct(injury=i, treated=t) for i in Injury for t in (False, True)
}


@lru_cache(maxsize=1)
def campaign_catalog() -> Catalog:
    """The skills and traits the campaign clock rolls with (built once)."""
    return default_catalog()


def trait_immunities(character: Character, catalog: Catalog) -> frozenset[Effect]:
    """Effects the runner's traits make it immune to."""
    out: set[Effect] = set()
    for name in character.traits:
        for effect in catalog.trait(name).effects():
            out |= effect.immunities
    return frozenset(out)


def summary(skill: str, outcome: CheckOutcome) -> CheckSummary:
    """The record of a resolved check."""
    return CheckSummary(
        skill=skill,
        dice=tuple(t.face for t in outcome.dice),
        total=outcome.total,
        dc=outcome.spec.dc,
        band=outcome.band,
    )


@dataclass(slots=True)
class Work:
    """A runner during a tick: what changes, and what is recorded."""

    runner: Runner
    choice: Choice
    catalog: Catalog
    effects: set[Effect]
    injuries: list[CampaignInjury]
    immunities: frozenset[Effect]
    new_injuries: int = 0
    new_ids: set[str] = field(default_factory=set)
    awarded: int = 0
    check: CheckSummary | None = None
    yielded: int = 0
    rested: bool = False
    treated: bool = False
    damage: list[DamageRoll] = field(default_factory=list)
    avoidance: list[AvoidanceRoll] = field(default_factory=list)
    worsened: list[Worsened] = field(default_factory=list)
    since_maze: int = 0
    died: bool = False
    cause: str | None = None
    _key: object = None
    _character: Character | None = None
    _specs: dict[tuple[str, int], CheckSpec] = field(default_factory=dict)

    @classmethod
    def start(cls, runner: Runner, choice: Choice, catalog: Catalog) -> Work:
        """The scratch of a runner at the start of a tick."""
        return cls(
            runner=runner,
            choice=choice,
            catalog=catalog,
            effects=set(runner.effects),
            injuries=list(runner.injuries),
            immunities=trait_immunities(runner.character, catalog),
            since_maze=runner.downtimes_since_maze,
        )

    def character(self) -> Character:
        """The maze character as the runner stands now (rebuilt only after a change)."""
        key = (frozenset(self.effects), tuple((i.injury, i.treated) for i in self.injuries))
        if self._character is None or key != self._key:
            self._key, self._specs = key, {}
            self._character = self.runner.character.model_copy(
                update={
                    "effects": key[0],
                    "injuries": tuple(_RECORDS[r] for r in key[1]),
                    "checked_this_run": _NOT_IN_A_RUN,
                }
            )
        return self._character

    def roll(self, skill: str, dc: int, rng: Rng) -> CheckOutcome:
        """Roll a skill check against a DC; a failure's adversity tokens go to the runner."""
        character = self.character()
        spec = self._specs.get((skill, dc))
        if spec is None:
            spec = self._specs[(skill, dc)] = check_for(character, skill, self.catalog, dc=dc)
        outcome = resolve_check(spec, rng)
        self.awarded += outcome.tokens_awarded
        return outcome

    def immune_to(self, effect: Effect) -> bool:
        """Whether the effect would not take hold (Contentment or a trait's immunity)."""
        return effect not in active_effects(self.effects | {effect}, self.immunities)

    def add_injury(self, injury: Injury, downtime: int) -> str:
        """Add an untreated injury gained this tick; its new id."""
        prefix = f"i{downtime}-"
        n = sum(1 for i in self.runner.injuries if i.id.startswith(prefix)) + self.new_injuries
        injury_id = f"{prefix}{n + 1}"
        self.new_injuries += 1
        self.new_ids.add(injury_id)
        self.injuries.append(CampaignInjury(id=injury_id, injury=injury))
        return injury_id

    def injury_index(self, injury_id: str | None) -> int | None:
        """Where an injury sits in the scratch list."""
        return next((n for n, i in enumerate(self.injuries) if i.id == injury_id), None)

    def freeze(self, index: int) -> RunnerTick:
        """The record of this runner's downtime, with the runner's resulting fields."""
        before, after = self.runner.effects, frozenset(self.effects)
        dead = self.died
        choice = self.choice
        return RunnerTick(
            runner=self.runner.id,
            activity=choice.activity,
            check=self.check,
            yielded=self.yielded,
            target_runner=choice.target_runner,
            target_injury=choice.target_injury,
            cure_poison=choice.cure_poison,
            treated=self.treated,
            damage=tuple(self.damage),
            avoidance=tuple(self.avoidance),
            effects_gained=after - before,
            effects_lost=before - after,
            worsened=tuple(self.worsened),
            tokens_awarded=self.awarded,
            died=dead,
            cause=self.cause,
            after=RunnerAfter(
                runner=self.runner.id,
                effects=after,
                injuries=tuple(self.injuries),
                status="dead" if dead else "alive",
                downtimes_since_maze=self.since_maze,
                tokens=self.runner.tokens + self.awarded,
                died_at=index if dead else None,
                cause=self.cause,
            ),
        )

"""The downtime resolution: one tick of the clearing, every roll recorded in the event.

Order (docs/RULES.md, "The Maze — campaign clock"): 1 activities, 2 supplies, 3 fed,
4 damage, 5 new effects, 6 injuries, 7 contentment, 8 the counter. Runners away on a
run are in the maze (no activity, not fed from the clearing, no clearing rolls) and dead
runners do nothing: neither gets a record.
"""

from __future__ import annotations

from dataclasses import replace

from services.campaign.clock import due_at
from services.campaign.events import AvoidanceRoll, DamageRoll, DowntimePassed, Worsened
from services.campaign.model import PRODUCTIVE, Activity
from services.campaign.rules import CampaignRules, avoidance_dc
from services.campaign.state import CampaignState
from services.campaign.work import Work, campaign_catalog, summary
from services.dice import Rng
from services.maze.damage import damage_for, resolve_damage
from services.maze.effects import Effect, damage_rolls_due
from services.maze.injuries import ORDER, Injury, needs_treatment, severity

FARMER, ARCHITECT, HERMIT = "Farmer", "Architect", "Hermit"
FATAL_CAUSE = "fatal injury untreated"


def _activity(w: Work, by_id: dict[str, Work], rules: CampaignRules, rng: Rng) -> None:
    """Step 1 for one runner: roll the chosen activity and apply what it does."""
    act = w.choice.activity
    if act in PRODUCTIVE:
        skill = {Activity.GATHER: rules.gather, Activity.FARM: rules.farm}.get(act, rules.build)
        outcome = w.roll(skill, rules.activity_dc, rng)
        w.check = summary(skill, outcome)
        w.yielded = rules.yields.for_band(outcome.band)
        # The traits' bonuses add to a success only: a failed harvest brings nothing in.
        if outcome.success and act is Activity.FARM and w.runner.has_trait(FARMER):
            w.yielded += rules.farmer_bonus
        if outcome.success and act is Activity.BUILD and w.runner.has_trait(ARCHITECT):
            w.yielded += rules.architect_bonus
    elif act is Activity.REST:
        w.rested = True
        w.effects.discard(Effect.EXHAUSTION)
    elif act is Activity.TREAT:
        _treat(w, by_id, rules, rng)


def _treat(w: Work, by_id: dict[str, Work], rules: CampaignRules, rng: Rng) -> None:
    """Treat the chosen injury (or the poison); the target may have left or been treated."""
    choice = w.choice
    target = by_id.get(choice.target_runner or w.runner.id)
    if target is None:
        return
    at: int | None = None
    if choice.cure_poison:
        if Effect.POISON not in target.effects:
            return
        dc = rules.treat_dc.poison
    else:
        at = target.injury_index(choice.target_injury)
        if at is None or not target.injuries[at].waiting:
            return
        injury = target.injuries[at].injury
        if target is w and injury is Injury.FATAL:
            return  # refused at ChooseActivity; kept here for a history written otherwise
        dc = rules.treat_dc.for_injury(injury)
    outcome = w.roll(rules.treat, dc, rng)
    w.check = summary(rules.treat, outcome)
    if not outcome.success:
        return
    w.treated = True
    if at is None:
        target.effects.discard(Effect.POISON)
    else:
        target.injuries[at] = replace(target.injuries[at], treated=True)


def _damage(w: Work, index: int, rng: Rng) -> None:
    """Step 4: a repeat damage roll for each damaging effect (Contentment's immunities hold)."""
    for effect in damage_rolls_due(w.effects, w.immunities):
        outcome = resolve_damage(damage_for(w.character(), w.catalog), rng)
        w.awarded += outcome.tokens_awarded
        injury_id = w.add_injury(outcome.injury, index) if needs_treatment(outcome.injury) else None
        w.damage.append(
            DamageRoll(
                effect=effect,
                dice=tuple(t.face for t in outcome.dice),
                total=outcome.total,
                injury=outcome.injury,
                injury_id=injury_id,
            )
        )


def _avoid(w: Work, dc: int, shelter: int, rules: CampaignRules, rng: Rng) -> None:
    """Step 5: roll to keep Hunger, Thirst and Exhaustion away; a failed check brings it."""
    plan = (
        (Effect.HUNGER, rules.hunger_skill, dc),
        (Effect.THIRST, rules.thirst_skill, dc),
        # A runner who rested skips the Exhaustion roll; an Architect's shelter eases it.
        (Effect.EXHAUSTION, rules.exhaustion_skill, 0 if w.rested else max(0, dc - shelter)),
    )
    for effect, skill, effect_dc in plan:
        # DC 0 is a clearing that keeps the effect away: no roll.
        if effect_dc <= 0 or effect in w.effects or w.immune_to(effect):
            continue
        outcome = w.roll(skill, effect_dc, rng)
        gained = not outcome.success
        if gained:
            w.effects.add(effect)
        w.avoidance.append(
            AvoidanceRoll(effect=effect, check=summary(skill, outcome), gained=gained)
        )


def _injuries(w: Work, index: int, rules: CampaignRules) -> None:
    """Step 6: untreated injuries age; they worsen a step, and a Fatal one kills in time."""
    for n, inj in enumerate(w.injuries):
        # An injury gained in this tick starts waiting at the next one.
        if not inj.waiting or inj.id in w.new_ids:
            continue
        age = inj.untreated_for + 1
        if inj.injury is Injury.FATAL:
            w.injuries[n] = replace(inj, untreated_for=age)
            if age >= rules.fatal_deadline:
                w.died, w.cause = True, FATAL_CAUSE
        elif age >= rules.worsen_every:
            worse = ORDER[severity(inj.injury) - 1]
            w.worsened.append(Worsened(injury_id=inj.id, before=inj.injury, after=worse))
            w.injuries[n] = replace(inj, injury=worse, untreated_for=0)
        else:
            w.injuries[n] = replace(inj, untreated_for=age)


def _contentment(w: Work, rules: CampaignRules) -> None:
    """Step 7: one more downtime away from the maze; enough of them bring Contentment."""
    w.since_maze += 1
    hermit = w.runner.has_trait(HERMIT)
    after = rules.hermit_contentment_after if hermit else rules.contentment_after
    if w.since_maze >= after:
        w.effects.add(Effect.CONTENTMENT)


def _fell_due(state: CampaignState, index: int, at: float) -> float | None:
    """When downtime `index` fell due by the cadence, if it had by `at` (passed then): a
    GM passing downtimes by hand ahead of the schedule passes ones that never fell due."""
    due = due_at(state, index)
    return due if due is not None and due <= at else None


def resolve_downtime(state: CampaignState, index: int, at: float, rng: Rng) -> DowntimePassed:
    """Resolve downtime `index` (the state's next one) and record every roll and result."""
    rules = state.rules
    catalog = campaign_catalog()
    works = [Work.start(r, state.choice(r.id), catalog) for r in state.runners if r.in_clearing]
    by_id = {w.runner.id: w for w in works}
    for w in works:
        _activity(w, by_id, rules, rng)

    productive = any(w.choice.activity in PRODUCTIVE for w in works)
    farmer = any(w.runner.has_trait(FARMER) for w in works)
    gained = sum(w.yielded for w in works)
    eaten = sum(
        rules.hermit_upkeep if w.runner.has_trait(HERMIT) else rules.upkeep_per_runner
        for w in works
    )
    decayed = 0
    if not productive:
        decayed = max(0, rules.inaction_decay - (rules.farmer_relief if farmer else 0))
    before = state.supplies
    supplies = min(rules.supplies_max, max(0, before + gained - eaten - decayed))

    if supplies >= rules.fed_at:
        for w in works:
            w.effects -= {Effect.HUNGER, Effect.THIRST}
    for w in works:
        _damage(w, index, rng)
    dc = avoidance_dc(rules, supplies)
    shelter = rules.architect_shelter if any(w.runner.has_trait(ARCHITECT) for w in works) else 0
    for w in works:
        _avoid(w, dc, shelter, rules, rng)
    for w in works:
        _injuries(w, index, rules)
        if not w.died:
            _contentment(w, rules)

    return DowntimePassed(
        index=index,
        at=at,
        due_at=_fell_due(state, index, at),
        supplies_before=before,
        supplies_after=supplies,
        supplies_gained=gained,
        supplies_eaten=eaten,
        supplies_decayed=decayed,
        runners=tuple(w.freeze(index) for w in works),
        season_over=index + 1 >= rules.season_downtimes,
        supplies_max=rules.supplies_max,
    )

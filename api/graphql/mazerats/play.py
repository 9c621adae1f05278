"""GraphQL: the Maze Rats play queries — reactions, morale, initiative, healing, levels,
sigil slots and turns. Arguments go through the same request models as REST."""

from __future__ import annotations

import strawberry
from strawberry.scalars import JSON

from api.graphql.mazerats.advancement import MazeRatsAdvancement
from api.graphql.mazerats.answer import answer, args
from api.graphql.mazerats.gear_input import MazeRatsGearInput
from api.graphql.mazerats.healing import MazeRatsHealing
from api.graphql.mazerats.initiative import MazeRatsInitiative
from api.graphql.mazerats.inscription import MazeRatsInscription
from api.graphql.mazerats.morale import MazeRatsMorale
from api.graphql.mazerats.play_payloads import (
    AdvancementPayload,
    HealingPayload,
    InitiativePayload,
    InscriptionPayload,
    MoralePayload,
    ReactionPayload,
    StandingPayload,
    TurnPayload,
)
from api.graphql.mazerats.reaction import MazeRatsReaction
from api.graphql.mazerats.standing import MazeRatsStanding
from api.graphql.mazerats.turn import MazeRatsTurn
from api.graphql.rolled import with_rolls
from api.rolls import recorded
from services.dice import new_seed, seeded_rng
from services.mazerats import usecases
from services.mazerats.advancement import level_up, standing
from services.mazerats.combat import check_attack_allowed
from services.mazerats.encounters import morale_check_due, roll_morale, roll_reaction
from services.mazerats.healing import heal
from services.mazerats.levels import sigil_slots
from services.mazerats.play_requests import (
    HealRequest,
    InitiativeRequest,
    InscribeRequest,
    LevelUpRequest,
    MoraleRequest,
    ReactionRequest,
    StandingRequest,
    TurnRequest,
)
from services.mazerats.saves import save_odds
from services.mazerats.sigils import inscribe
from services.mazerats.turns import Action, check_turn

__all__ = ["MazeRatsGearInput", "MazeRatsPlayQuery"]


@strawberry.type
class MazeRatsPlayQuery:
    @strawberry.field(description="Reaction roll: the leader's WIL save; success = cooperative.")
    def maze_rats_reaction(
        self,
        leader_will: int | None = None,
        path_covers: bool | None = None,
        seed: str | None = None,
    ) -> ReactionPayload:
        def build() -> MazeRatsReaction:
            a = ReactionRequest(**args(leader_will=leader_will, path_covers=path_covers, seed=seed))
            used = a.seed or new_seed()
            result, rolls = recorded(roll_reaction, seeded_rng(used), a.leader_will, a.path_covers)
            odds = save_odds(a.leader_will, a.path_covers)
            return with_rolls(MazeRatsReaction.from_domain(result, odds, used), rolls)

        return answer(build)

    @strawberry.field(description="Morale: whether a check is due; if due (or forced), the save.")
    def maze_rats_morale(
        self,
        will: int | None = None,
        leader_defeated: bool | None = None,
        group_size: int | None = None,
        defeated: int | None = None,
        max_hp: int | None = None,
        hp: int | None = None,
        unexpected_danger: bool | None = None,
        force: bool | None = None,
        seed: str | None = None,
    ) -> MoralePayload:
        def build() -> MazeRatsMorale:
            a = MoraleRequest(**args(will=will, leader_defeated=leader_defeated,
                group_size=group_size, defeated=defeated, max_hp=max_hp, hp=hp,
                unexpected_danger=unexpected_danger, force=force, seed=seed))  # fmt: skip
            used = a.seed or new_seed()
            due = morale_check_due(
                leader_defeated=a.leader_defeated,
                group_size=a.group_size,
                defeated=a.defeated,
                max_hp=a.max_hp,
                hp=a.hp,
                unexpected_danger=a.unexpected_danger,
            )
            rolled, rolls = (
                recorded(roll_morale, seeded_rng(used), a.will) if due or a.force else (None, ())
            )
            morale = MazeRatsMorale.from_domain(due, rolled, save_odds(a.will), used)
            return with_rolls(morale, rolls)

        return answer(build)

    @strawberry.field(description="Initiative: a surprising side acts first, else a random one.")
    def maze_rats_initiative(
        self,
        surprised: str | None = None,
        surprised_wills: list[int] | None = None,
        seed: str | None = None,
    ) -> InitiativePayload:
        def build() -> MazeRatsInitiative:
            a = InitiativeRequest(
                **args(surprised=surprised, surprised_wills=surprised_wills, seed=seed)
            )
            used = a.seed or new_seed()
            result, rolls = recorded(usecases.initiative, a, seeded_rng(used))
            return with_rolls(MazeRatsInitiative.from_domain(result, used), rolls)

        return answer(build)

    @strawberry.field(description="Heal half the damage: ration at rest or bandage + WIL save.")
    def maze_rats_heal(
        self,
        hp: int,
        max_hp: int,
        method: str | None = None,
        resting: bool | None = None,
        will: int | None = None,
        path_covers: bool | None = None,
        used_today: list[str] | None = None,
        seed: str | None = None,
    ) -> HealingPayload:
        def build() -> MazeRatsHealing:
            a = HealRequest(**args(hp=hp, max_hp=max_hp, method=method, resting=resting,
                will=will, path_covers=path_covers, used_today=used_today, seed=seed))  # fmt: skip
            used = a.seed or new_seed()
            result, rolls = recorded(
                heal,
                seeded_rng(used),
                a.method,
                a.hp,
                a.max_hp,
                resting=a.resting,
                will=a.will,
                path_covers=a.path_covers,
                used_today=frozenset(a.used_today),
            )
            return with_rolls(MazeRatsHealing.from_domain(result, used), rolls)

        return answer(build)

    @strawberry.field(description="The level for some XP, its features, max HP and sigil slots.")
    def maze_rats_level(self, xp: int) -> StandingPayload:
        return answer(lambda: MazeRatsStanding.from_domain(standing(StandingRequest(xp=xp).xp)))

    @strawberry.field(
        description="Gain the level after `level`: choice 'ability' (+1, max +3) or "
        "'combat_bonus'; `abilities` is {strength, dexterity, will}."
    )
    def maze_rats_level_up(
        self,
        level: int,
        abilities: JSON | None = None,
        combat_bonus: int | None = None,
        choice: str | None = None,
        ability: str | None = None,
    ) -> AdvancementPayload:
        def build() -> MazeRatsAdvancement:
            a = LevelUpRequest(**args(level=level, abilities=abilities,
                combat_bonus=combat_bonus, choice=choice, ability=ability))  # fmt: skip
            up = level_up(a.level, a.abilities, a.combat_bonus, choice=a.choice, ability=a.ability)
            return MazeRatsAdvancement.from_domain(up)

        return answer(build)

    @strawberry.field(description="Bear new sigils: past the slots (or level's), excess is lost.")
    def maze_rats_inscribe(
        self,
        new: list[str],
        borne: list[str] | None = None,
        slots: int | None = None,
        level: int | None = None,
        overwrite: str | None = None,
    ) -> InscriptionPayload:
        def build() -> MazeRatsInscription:
            a = InscribeRequest(
                **args(new=new, borne=borne, slots=slots, level=level, overwrite=overwrite)
            )
            n = a.slots if a.slots is not None else sigil_slots(a.level or 1)
            return MazeRatsInscription.from_domain(inscribe(a.borne, a.new, n, a.overwrite), n)

        return answer(build)

    @strawberry.field(description="Check a turn: two actions, no maneuvers in heavy armor, ...")
    def maze_rats_turn(
        self,
        actions: list[str],
        armor: str | None = None,
        ranged: bool | None = None,
        in_close_combat: bool | None = None,
    ) -> TurnPayload:
        def build() -> MazeRatsTurn:
            a = TurnRequest(**args(actions=actions, armor=armor, ranged=ranged,
                in_close_combat=in_close_combat))  # fmt: skip
            if Action.ATTACK in a.actions:
                check_attack_allowed(a.ranged, a.in_close_combat)
            return MazeRatsTurn(allowed=True, actions_spent=check_turn(a.actions, a.armor))

        return answer(build)
